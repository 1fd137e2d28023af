//! What every realms game shares: the game model traits, seats, the seeded RNG, game records.
//!
//! The model (see `docs/` and the design notes): a [`State`] always says who must decide, offers a
//! finite sorted list of legal actions, and [`State::apply`] either applies one of them or returns
//! an error that leaves the state untouched. A seat sees the game only through its
//! [`State::observation`], from which [`Observation::determinize`] samples full states that agree
//! with everything the seat knows. No I/O, no clocks, no async here.

use std::fmt;
use std::hash::Hash;
use std::str::FromStr;

use rand::SeedableRng;
use serde::{Deserialize, Serialize, de::DeserializeOwned};

pub mod json;
pub mod record;
pub mod refusal;

pub use record::{CardsRef, GameRecord, RecordError};

/// The RNG of every game: PCG-64 (MCG variant), a named generator whose stream is fixed by its
/// algorithm, so a seed gives the same game on every version and machine.
pub type GameRng = rand_pcg::Pcg64Mcg;

/// Builds the game RNG from a 64-bit seed.
pub fn rng_from_seed(seed: u64) -> GameRng {
    GameRng::seed_from_u64(seed)
}

/// Most seats any game supports.
pub const MAX_SEATS: usize = 6;

/// A seat at the table, numbered from 0. Its text form is `p1`, `p2`, … (1-based, as players say).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Seat(pub u8);

impl Seat {
    /// The seat's index.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Appends the text form (`p2`), as `Display` writes it; the usual seats without
    /// formatting.
    pub fn write_text(self, out: &mut Vec<u8>) {
        match SEAT_NAMES.get(self.index()) {
            Some(name) => out.extend_from_slice(name.as_bytes()),
            None => {
                out.push(b'p');
                json::number(out, self.index() + 1);
            }
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "p{}", self.0 + 1)
    }
}

/// An unparsable seat text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a seat (expected p1 … p6)")]
pub struct BadSeat(pub String);

impl FromStr for Seat {
    type Err = BadSeat;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let n: u8 = s
            .strip_prefix('p')
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| BadSeat(s.to_string()))?;
        if n == 0 || n as usize > MAX_SEATS {
            return Err(BadSeat(s.to_string()));
        }
        Ok(Seat(n - 1))
    }
}

/// The text form of the usual seats, written without formatting.
pub(crate) const SEAT_NAMES: [&str; MAX_SEATS] = ["p1", "p2", "p3", "p4", "p5", "p6"];

impl Serialize for Seat {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // Seats are written in every view, many times over: the usual ones without formatting.
        match SEAT_NAMES.get(self.index()) {
            Some(name) => s.serialize_str(name),
            None => s.collect_str(self),
        }
    }
}

impl<'de> Deserialize<'de> for Seat {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        // Worded by the translation table, so that a reader's error can be read back in the
        // reader's language.
        s.parse().map_err(|e: BadSeat| {
            serde::de::Error::custom(refusal::Why::new("file.not_a_seat", &[("seat", &e.0)]))
        })
    }
}

/// Per-seat data in one indexed container.
#[derive(Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(transparent)]
pub struct PerSeat<T>(pub Vec<T>);

impl<T: Clone> Clone for PerSeat<T> {
    fn clone(&self) -> Self {
        PerSeat(self.0.clone())
    }

    /// Clones into the room `self` already has (each seat's own `clone_from`).
    fn clone_from(&mut self, source: &Self) {
        self.0.clone_from(&source.0);
    }
}

impl<T> PerSeat<T> {
    /// Builds one value per seat.
    pub fn from_fn(seats: usize, f: impl FnMut(usize) -> T) -> Self {
        PerSeat((0..seats).map(f).collect())
    }
    /// Number of seats.
    pub fn len(&self) -> usize {
        self.0.len()
    }
    /// Whether there are no seats.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    /// Iterates over seats and values.
    pub fn iter(&self) -> impl Iterator<Item = (Seat, &T)> {
        self.0.iter().enumerate().map(|(i, v)| (Seat(i as u8), v))
    }
}

impl<T> std::ops::Index<Seat> for PerSeat<T> {
    type Output = T;
    #[inline]
    fn index(&self, s: Seat) -> &T {
        &self.0[s.index()]
    }
}

impl<T> std::ops::IndexMut<Seat> for PerSeat<T> {
    #[inline]
    fn index_mut(&mut self, s: Seat) -> &mut T {
        &mut self.0[s.index()]
    }
}

/// Why an action is refused, for people in their language: a key of the translation table
/// (`refusal.…`) and the values of its placeholders.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Reason {
    /// The key.
    pub key: String,
    /// Each placeholder's name and value.
    pub args: Vec<(String, String)>,
}

/// An action that is not among the legal ones; the state is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    /// The game is over.
    #[error("the game is over: `{action}` cannot be played")]
    GameOver {
        /// The rejected action, in text form.
        action: String,
    },
    /// Not legal now.
    #[error("`{action}` is not legal now{hint}")]
    Illegal {
        /// The rejected action, in text form.
        action: String,
        /// Extra explanation in English, starting with `: ` when present.
        hint: String,
        /// The explanation as a key of the translation table, when the game gives one.
        reason: Option<Box<Reason>>,
    },
    /// The text does not parse.
    #[error("cannot read action `{text}`: {reason}")]
    Parse {
        /// The text.
        text: String,
        /// Why, in English.
        reason: String,
        /// Why, as a key of the translation table, when the game gives one.
        why: Option<Box<Reason>>,
    },
}

/// An action of a game: small, copyable, with a stable text form and a dense index.
pub trait Action:
    Copy + Eq + Hash + Ord + fmt::Debug + fmt::Display + Send + Sync + 'static
{
    /// Size of the dense action space (indices are `0..space_size()`).
    fn space_size() -> usize;
    /// Dense index, below [`Action::space_size`].
    fn index(&self) -> usize;
    /// The action of a dense index, if any.
    fn from_index(index: usize) -> Option<Self>;
    /// Parses the text form.
    fn parse(text: &str) -> Result<Self, ActionError>;
    /// The text form, as `to_string` gives it; a game may make it faster.
    fn text(&self) -> String {
        self.to_string()
    }
    /// Appends the text form as a JSON string (quoted, escaped as `serde_json` escapes it). A
    /// game whose actions are listed in every view writes them faster.
    fn write_json_text(&self, out: &mut Vec<u8>) {
        json::string(out, &self.to_string());
    }
}

/// Dense action indices over a layout of blocks (one block per kind of action, each of a fixed
/// size): the index of `offset` in `block`.
pub fn dense_index(layout: &[usize], block: usize, offset: usize) -> usize {
    layout[..block].iter().sum::<usize>() + offset
}

/// The `(block, offset)` of a dense index over `layout`, if the index is in the space.
pub fn dense_block(layout: &[usize], mut index: usize) -> Option<(usize, usize)> {
    for (block, &size) in layout.iter().enumerate() {
        if index < size {
            return Some((block, index));
        }
        index -= size;
    }
    None
}

/// What a seat sees of the game.
pub trait Observation: Clone + fmt::Debug + Serialize {
    /// The full state type.
    type State: State;
    /// The seat this view belongs to (`None` for a spectator's public view).
    fn seat(&self) -> Option<Seat>;
    /// Samples a full state consistent with this observation: unknown orders and other hands are
    /// drawn with `rng`; everything this view shows is kept.
    fn determinize(&self, rng: &mut GameRng) -> Self::State;
}

/// A game state: who decides, what they may do, what happens.
pub trait State: Clone + fmt::Debug + Send + Sync {
    /// The action type.
    type Action: Action;
    /// A seat's view.
    type Observation: Observation<State = Self>;
    /// The configuration (serializable, stored in game records).
    type Config: Clone + fmt::Debug + Serialize + DeserializeOwned + PartialEq;

    /// The game's name in records (`"starrealms"`).
    const GAME: &'static str;

    /// Builds the initial state from a configuration and a seed.
    fn new_game(config: &Self::Config, seed: u64) -> Result<Self, String>;
    /// Number of seats.
    fn num_seats(&self) -> usize;
    /// The seat that must decide now, or `None` if the game is over.
    fn to_move(&self) -> Option<Seat>;
    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        self.to_move().is_none()
    }
    /// Writes the legal actions, sorted and without duplicates, into `out` (cleared first).
    /// Empty exactly when the game is over.
    fn legal_actions_into(&self, out: &mut Vec<Self::Action>);
    /// The legal actions, sorted.
    fn legal_actions(&self) -> Vec<Self::Action> {
        let mut v = Vec::new();
        self.legal_actions_into(&mut v);
        v
    }
    /// Applies a legal action; an illegal one is rejected and the state left as it was.
    fn apply(&mut self, action: Self::Action) -> Result<(), ActionError>;
    /// Applies an action the caller took from the current legal list (drivers that already
    /// hold that list skip generating it again). The default checks anyway.
    ///
    /// # Panics
    /// May panic, or break the state's invariants, if `action` is not legal.
    fn apply_legal(&mut self, action: Self::Action) {
        if let Err(e) = self.apply(action) {
            panic!("apply_legal with an illegal action: {e}");
        }
    }
    /// Per-seat results once the game is over: 1 for a winner, 0 for a loser (shared by teams).
    fn returns(&self) -> Vec<f64>;
    /// The winning seats once the game is over (none while it goes on, and after a draw).
    fn winners(&self) -> Vec<Seat>;
    /// What a seat sees.
    fn observation(&self, seat: Seat) -> Self::Observation;
    /// Whether every seat sees `action` when it is taken in this state (a card laid face down
    /// is not seen). The default, not known to be, keeps every action from the other seats'
    /// bots.
    fn is_public(&self, _action: &Self::Action) -> bool {
        false
    }
}

/// SplitMix64's finaliser: spreads related numbers (a base seed and a game or thread number)
/// into unrelated seeds. Tools derive every game's and every bot's seed with it.
pub const fn mix_seed(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The exact state of a [`GameRng`] as text (`"0x…"`, 128 bits in hexadecimal), so that it survives
/// JSON readers limited to 64-bit or floating-point numbers.
pub fn rng_to_text(rng: &GameRng) -> String {
    let json = serde_json::to_string(rng).expect("the RNG serializes");
    let digits: String = json.chars().filter(char::is_ascii_digit).collect();
    let state: u128 = digits.parse().expect("the RNG state is one integer");
    format!("{state:#034x}")
}

/// Reads a [`GameRng`] written by [`rng_to_text`].
pub fn rng_from_text(text: &str) -> Result<GameRng, String> {
    let hex = text
        .strip_prefix("0x")
        .ok_or_else(|| format!("`{text}` is not an RNG state (expected 0x and 32 hex digits)"))?;
    let state =
        u128::from_str_radix(hex, 16).map_err(|e| format!("`{text}` is not an RNG state: {e}"))?;
    if state & 1 == 0 {
        return Err(format!("`{text}` is not an RNG state (it is always odd)"));
    }
    Ok(GameRng::new(state))
}

/// Serde adapter writing an optional [`GameRng`] with [`rng_to_text`].
pub mod rng_serde {
    use serde::{Deserialize, Deserializer, Serializer};

    use super::GameRng;

    /// Serializes.
    pub fn serialize<S: Serializer>(rng: &Option<GameRng>, s: S) -> Result<S::Ok, S::Error> {
        match rng {
            Some(r) => s.serialize_some(&super::rng_to_text(r)),
            None => s.serialize_none(),
        }
    }

    /// Deserializes.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<GameRng>, D::Error> {
        Option::<String>::deserialize(d)?
            .map(|t| super::rng_from_text(&t).map_err(serde::de::Error::custom))
            .transpose()
    }
}

/// A uniform integer in `0..n` (`n > 0`), from one 64-bit draw by multiply-shift. The method is
/// ours, not a library's, so that a seed keeps giving the same games whatever crate versions
/// are used; its bias (at most `n / 2^64`) is far below anything measurable.
#[inline]
pub fn below(rng: &mut GameRng, n: usize) -> usize {
    use rand::RngCore;
    ((rng.next_u64() as u128 * n as u128) >> 64) as usize
}

/// Shuffles a slice (Fisher–Yates with [`below`]).
#[inline]
pub fn shuffle<T>(rng: &mut GameRng, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = below(rng, i + 1);
        items.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_read_and_write_as_p1_to_p6() {
        assert_eq!(Seat(0).to_string(), "p1");
        assert_eq!("p6".parse::<Seat>().unwrap(), Seat(5));
        for bad in ["p0", "p7", "1", "q1", "p", ""] {
            assert!(bad.parse::<Seat>().is_err(), "{bad}");
        }
        // In JSON as in text, whatever the seat.
        for n in 0..=20 {
            let json = serde_json::to_string(&Seat(n)).unwrap();
            assert_eq!(json, format!("\"p{}\"", n + 1));
        }
        let back: Seat = serde_json::from_str("\"p4\"").unwrap();
        assert_eq!(back, Seat(3));
    }

    #[test]
    fn the_rng_stream_is_fixed() {
        // These literal values pin the generator, `below` and `shuffle`: if this fails, every
        // recorded game and every seed's deal has changed.
        let mut rng = rng_from_seed(42);
        let draws: Vec<usize> = (0..5).map(|_| below(&mut rng, 100)).collect();
        assert_eq!(draws, [57, 13, 35, 22, 11]);
        let mut items: Vec<u32> = (0..10).collect();
        shuffle(&mut rng_from_seed(7), &mut items);
        assert_eq!(items, [3, 7, 8, 0, 5, 1, 9, 2, 4, 6]);
    }

    #[test]
    fn rng_state_as_text_round_trips() {
        let mut rng = rng_from_seed(3);
        below(&mut rng, 10);
        let text = rng_to_text(&rng);
        assert!(text.starts_with("0x") && text.len() == 34, "{text}");
        let mut back = rng_from_text(&text).unwrap();
        assert_eq!(below(&mut back, 1000), below(&mut rng, 1000));
        assert!(rng_from_text("12").is_err());
        assert!(rng_from_text("0x2").is_err());
    }

    #[test]
    fn below_is_roughly_uniform() {
        let mut rng = rng_from_seed(1);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[below(&mut rng, 6)] += 1;
        }
        assert!(
            counts.iter().all(|&c| (9_400..10_600).contains(&c)),
            "{counts:?}"
        );
    }
}
