//! What one seat may see: its own hand; everybody's in-play cards, bases, discard piles, pools,
//! authority and card counts; the trade row; the scrap heap. No deck order, no other hand, no RNG.
//!
//! A seat with perfect memory knows more than the table shows: which cards each player owns,
//! hence which cards are somewhere in a player's deck or hand (`unseen`, as a sorted multiset),
//! which cards remain in the trade deck, and the cards put face up on top of a deck. The
//! observation carries that knowledge too, so that [`Observation::determinize`] samples only
//! states the seat cannot tell apart from the real one.

use arrayvec::ArrayVec;
use game::{GameRng, PerSeat, Seat};
use serde::{Deserialize, Serialize};

use crate::action::ROW_SIZE;
use crate::cards::CardId;
use crate::config::Config;
use crate::state::{Frame, InPlay, Pending, Player, State};

mod json;

/// One player as another seat sees it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerView {
    /// Authority.
    pub authority: i32,
    /// Still in the game.
    pub alive: bool,
    /// Team.
    pub team: u8,
    /// Trade pool.
    pub trade: u16,
    /// Combat pool.
    pub combat: u16,
    /// Ships in play.
    pub ships: Vec<InPlay>,
    /// Bases in play.
    pub bases: Vec<InPlay>,
    /// Discard pile (public), bottom first.
    pub discard: Vec<CardId>,
    /// The hand, sorted: only in the owner's own view.
    pub hand: Option<Vec<CardId>>,
    /// Cards in hand.
    pub hand_count: usize,
    /// Cards in hand that everybody knows (drawn from a known top of deck), sorted.
    pub hand_known: Vec<CardId>,
    /// Cards in the deck.
    pub deck_count: usize,
    /// Known cards at the top of the deck, top card first (as a scenario writes a deck).
    pub deck_known_top: Vec<CardId>,
    /// Cards somewhere in this player's deck (below the known top) or unknown hand part, sorted:
    /// the seat knows which cards they are, not where.
    pub unseen: Vec<CardId>,
    /// Discards owed at the start of the next turn.
    pub pending_discards: u8,
    /// Next ships that may go on top of the deck this turn.
    pub next_ship_top: u8,
    /// Cards of each faction played this turn.
    pub played: [u8; crate::cards::Faction::COUNT],
    /// Cards scrapped from the hand or the discard pile this turn.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub scrapped: u8,
    /// Cards of the player's own scrapped this turn from any zone, in play included.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub scrapped_all: u8,
    /// Next bases acquired this turn that go on top of the deck.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub next_base_top: u8,
    /// Cards scrapped this turn that come back from the scrap heap at its end.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub returning: Vec<CardId>,
    /// Where the next ships or bases acquired this turn go, first the next one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub redirects: Vec<crate::cards::Dest>,
    /// *Rise of Empire*: the sticker sheets owned and the stickers used (public).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sheets: Vec<crate::state::SheetUse>,
    /// Hydra: has ended its part of the team's turn.
    pub done: bool,
}

/// A seat's view of the game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observation {
    /// Whose view (`None`: a spectator's).
    pub seat: Option<Seat>,
    /// The configuration.
    pub config: Config,
    /// Whose turn it is.
    pub current: Seat,
    /// Who played first.
    pub first: Seat,
    /// Turn number.
    pub turn: u32,
    /// Who must decide now (`None` once over).
    pub to_move: Option<Seat>,
    /// Whether the game is over.
    pub over: bool,
    /// Once over: the winning seats as a bit mask (0: a draw).
    pub victors: u8,
    /// Card passings still owed by fallen players, `(from, to)`.
    pub bequests: Vec<(Seat, Seat)>,
    /// Hydra: the player in control may hand control to a teammate.
    pub progress: bool,
    /// The decision waited for.
    pub pending: Option<Pending>,
    /// Effects still to resolve.
    pub frames: Vec<Frame>,
    /// The trade row.
    pub row: [Option<CardId>; ROW_SIZE],
    /// Cards in the trade deck.
    pub trade_deck_count: usize,
    /// Which cards the trade deck holds, sorted (it is everything not seen elsewhere).
    pub trade_deck_cards: Vec<CardId>,
    /// Explorers in the pile.
    pub explorers: u8,
    /// The scrap heap.
    pub scrap_heap: Vec<CardId>,
    /// Every seat.
    pub players: Vec<PlayerView>,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// How much of the other seats' cards a view holds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Detail {
    /// Everything the seat may know, sorted ([`Observation::of`]).
    Full,
    /// The rollout view: nothing sorted, no multisets of others' cards
    /// ([`Observation::for_rollout`]).
    Rollout,
    /// The rollout view with the others' cards, unsorted ([`Observation::for_rollout_counts`]).
    RolloutCounts,
}

impl PlayerView {
    /// Every card the player owns, as this view shows them: the whole hand for the seat's own
    /// (its known part is among it), else the known part (the rest is among `unseen`).
    pub fn owned(&self) -> impl Iterator<Item = CardId> + '_ {
        self.hand
            .as_deref()
            .unwrap_or(&self.hand_known)
            .iter()
            .chain(&self.discard)
            .chain(&self.deck_known_top)
            .chain(&self.unseen)
            .copied()
            .chain(self.ships.iter().chain(&self.bases).map(|b| b.card))
    }

    /// Makes this the view of `p` in that `detail`, reusing its buffers; `own`: by a seat that
    /// sees its hand.
    fn fill(&mut self, p: &Player, own: bool, detail: Detail) {
        let full = detail == Detail::Full;
        let others = detail != Detail::Rollout;
        let known = p.deck_known as usize;
        let split = p.deck.len() - known;
        self.unseen.clear();
        if others || own {
            self.unseen.extend_from_slice(&p.deck[..split]);
        }
        self.hand_known.clear();
        if others && !own {
            // The hand's cards nobody knows join the unseen ones (`hand_known` is, meanwhile,
            // the scratch list of the known ones not yet matched).
            self.hand_known.extend_from_slice(&p.hand_known);
            for &c in &p.hand {
                match self.hand_known.iter().position(|&k| k == c) {
                    Some(i) => {
                        self.hand_known.swap_remove(i);
                    }
                    None => self.unseen.push(c),
                }
            }
            self.hand_known.clear();
        }
        if others {
            self.hand_known.extend_from_slice(&p.hand_known);
        }
        if full {
            self.hand_known.sort_unstable();
            sort_cards(&mut self.unseen);
        }
        self.authority = p.authority;
        self.alive = p.alive;
        self.team = p.team;
        self.trade = p.trade;
        self.combat = p.combat;
        self.ships.clone_from(&p.ships);
        self.bases.clone_from(&p.bases);
        self.discard.clear();
        if others || own {
            self.discard.extend_from_slice(&p.discard);
        }
        if own {
            let hand = self.hand.get_or_insert_with(Vec::new);
            hand.clone_from(&p.hand);
            if full {
                hand.sort_unstable();
            }
        } else {
            self.hand = None;
        }
        self.hand_count = p.hand.len();
        self.deck_count = p.deck.len();
        // The engine keeps a deck bottom first; a view lists it top first.
        self.deck_known_top.clear();
        self.deck_known_top.extend(p.deck[split..].iter().rev());
        self.pending_discards = p.pending_discards;
        self.next_ship_top = p.next_ship_top;
        self.played = p.played;
        self.scrapped = p.scrapped;
        self.scrapped_all = p.scrapped_all;
        self.next_base_top = p.next_base_top;
        self.returning.clone_from(&p.returning);
        self.redirects.clone_from(&p.redirects);
        self.sheets.clone_from(&p.sheets);
        self.done = p.done;
    }
}

impl Observation {
    /// A cheaper view of `seat` for bots playing rollouts on sampled states: the seat's own
    /// cards as in [`Observation::of`] but unsorted, the public parts of the others, and
    /// *without* the multisets of other seats' unseen cards and discard piles, the trade deck's
    /// contents and the scrap heap (left empty). Never send it to a client; it exists for speed.
    pub fn for_rollout(state: &State, seat: Seat) -> Observation {
        Observation::view(state, Some(seat), Detail::Rollout)
    }

    /// The rollout view with, for every other seat, the cards it holds somewhere unseen and its
    /// discard pile (unsorted): what a seat with memory knows of each player's cards, for bots
    /// that count them.
    pub fn for_rollout_counts(state: &State, seat: Seat) -> Observation {
        Observation::view(state, Some(seat), Detail::RolloutCounts)
    }

    /// The view of `seat` (`None`: public view) of a state.
    pub fn of(state: &State, seat: Option<Seat>) -> Observation {
        Observation::view(state, seat, Detail::Full)
    }

    /// Makes this observation [`Observation::of`]'s view, reusing its buffers.
    pub fn refill(&mut self, state: &State, seat: Option<Seat>) {
        self.fill(state, seat, Detail::Full);
    }

    /// Makes this observation [`Observation::refill`]'s view, taking from `before` (a view of
    /// the same game, made earlier) what it already holds: the trade deck's cards, sorted,
    /// when the deck holds as many. Within a game the trade deck only ever loses its top card,
    /// so a deck of the same size holds the same cards; a server writes a view for nearly every
    /// action, and most leave the deck as it was.
    pub fn refill_after(&mut self, state: &State, seat: Option<Seat>, before: &Observation) {
        let deck = before.trade_deck_cards.as_slice();
        let same = before.trade_deck_count == state.trade_deck.len()
            && deck.len() == before.trade_deck_count;
        self.fill_with(state, seat, Detail::Full, same.then_some(deck));
    }

    /// Makes this observation [`Observation::for_rollout`]'s view, reusing its buffers: what a
    /// rollout asks at every decision, without allocating.
    pub fn refill_for_rollout(&mut self, state: &State, seat: Seat) {
        self.fill(state, Some(seat), Detail::Rollout);
    }

    /// Makes this observation [`Observation::for_rollout_counts`]'s view, reusing its buffers.
    pub fn refill_for_rollout_counts(&mut self, state: &State, seat: Seat) {
        self.fill(state, Some(seat), Detail::RolloutCounts);
    }

    fn view(state: &State, seat: Option<Seat>, detail: Detail) -> Observation {
        let mut o = Observation::default();
        o.fill(state, seat, detail);
        o
    }

    /// Makes this observation the view of `seat` in that `detail`, reusing its buffers.
    fn fill(&mut self, state: &State, seat: Option<Seat>, detail: Detail) {
        self.fill_with(state, seat, detail, None);
    }

    /// [`Observation::fill`], with the trade deck's sorted cards when they are known already.
    fn fill_with(
        &mut self,
        state: &State,
        seat: Option<Seat>,
        detail: Detail,
        sorted_deck: Option<&[CardId]>,
    ) {
        let full = detail == Detail::Full;
        self.seat = seat;
        if self.config != state.config {
            self.config.clone_from(&state.config);
        }
        self.current = state.current;
        self.first = state.first;
        self.turn = state.turn;
        self.to_move = state.to_move();
        self.over = state.over;
        self.victors = state.victors;
        self.bequests.clear();
        self.bequests.extend_from_slice(&state.bequests);
        self.progress = state.progress;
        self.pending = state.pending;
        self.frames.clear();
        self.frames.extend_from_slice(&state.frames);
        self.row = state.row;
        self.trade_deck_count = state.trade_deck.len();
        self.trade_deck_cards.clear();
        self.scrap_heap.clear();
        if full {
            match sorted_deck {
                Some(cards) => {
                    self.trade_deck_cards.extend_from_slice(cards);
                    debug_assert!(
                        {
                            let mut deck = state.trade_deck.clone();
                            sort_cards(&mut deck);
                            deck == cards
                        },
                        "a trade deck of the same size with other cards"
                    );
                }
                None => {
                    self.trade_deck_cards.extend_from_slice(&state.trade_deck);
                    sort_cards(&mut self.trade_deck_cards);
                }
            }
            self.scrap_heap.extend_from_slice(&state.scrap_heap);
        }
        self.explorers = state.explorers;
        let seats = state.players.0.len();
        self.players.truncate(seats);
        self.players.resize_with(seats, PlayerView::default);
        for ((s, p), v) in state.players.iter().zip(&mut self.players) {
            let own = seat.is_some_and(|v| state.sees_hand(v, s));
            v.fill(p, own, detail);
        }
    }

    /// A full state consistent with this view: unseen cards dealt at random into the hidden
    /// parts of hands and decks, the trade deck shuffled, a fresh RNG.
    pub fn determinize(&self, rng: &mut GameRng) -> State {
        let players = self
            .players
            .iter()
            .map(|v| {
                let mut unseen = v.unseen.clone();
                game::shuffle(rng, &mut unseen);
                let hand = match &v.hand {
                    Some(h) => h.clone(),
                    None => {
                        let hidden = v.hand_count - v.hand_known.len();
                        let mut h = v.hand_known.clone();
                        h.extend(unseen.drain(unseen.len() - hidden..));
                        h
                    }
                };
                let mut deck = unseen;
                deck.extend(v.deck_known_top.iter().rev());
                Player {
                    hand,
                    deck,
                    deck_known: v.deck_known_top.len() as u8,
                    hand_known: v.hand_known.clone(),
                    discard: v.discard.clone(),
                    ships: v.ships.clone(),
                    bases: v.bases.clone(),
                    trade: v.trade,
                    combat: v.combat,
                    authority: v.authority,
                    alive: v.alive,
                    team: v.team,
                    pending_discards: v.pending_discards,
                    next_ship_top: v.next_ship_top,
                    played: v.played,
                    scrapped: v.scrapped,
                    scrapped_all: v.scrapped_all,
                    next_base_top: v.next_base_top,
                    returning: v.returning.clone(),
                    redirects: v.redirects.clone(),
                    done: v.done,
                    sheets: v.sheets.clone(),
                }
            })
            .collect();
        let mut trade_deck = self.trade_deck_cards.clone();
        game::shuffle(rng, &mut trade_deck);
        let seed = {
            use rand::RngCore;
            rng.next_u64()
        };
        State {
            config: self.config.clone(),
            players: PerSeat(players),
            current: self.current,
            first: self.first,
            turn: self.turn,
            row: self.row,
            trade_deck,
            explorers: self.explorers,
            scrap_heap: self.scrap_heap.clone(),
            pending: self.pending,
            frames: self.frames.iter().copied().collect::<ArrayVec<Frame, 6>>(),
            over: self.over,
            victors: self.victors,
            bequests: self.bequests.iter().copied().collect(),
            progress: self.progress,
            rng: game::rng_from_seed(seed),
        }
    }
}

impl Observation {
    /// The targeting rules' view of this table (who may attack or target whom).
    pub fn table(&self) -> crate::formats::Table<'_> {
        crate::formats::Table::new(&self.config, self.players.iter().map(|p| (p.alive, p.team)))
    }
}

impl game::Observation for Observation {
    type State = State;
    fn seat(&self) -> Option<Seat> {
        self.seat
    }
    fn determinize(&self, rng: &mut GameRng) -> State {
        Observation::determinize(self, rng)
    }
}

fn list(cards: &[CardId]) -> String {
    let names: Vec<String> = cards.iter().map(|c| c.to_string()).collect();
    format!("[{}]", names.join(" "))
}

fn in_play(cards: &[InPlay]) -> String {
    let names: Vec<String> = cards
        .iter()
        .map(|p| {
            let mut s = p.card.to_string();
            if let Some(c) = p.copy {
                s += &format!("={c}");
            }
            if p.primary_used {
                s.push('*');
            }
            if p.ally_used {
                s.push('+');
            }
            if p.damage > 0 {
                s += &format!("-{}", p.damage);
            }
            s
        })
        .collect();
    format!("[{}]", names.join(" "))
}

impl Observation {
    /// A one-line text summary of everything in the view (golden playthroughs, logs).
    /// In-play marks: `*` primary used, `+` ally used, `=card` copied ship, `-n` damage.
    pub fn summary(&self) -> String {
        let mut s = format!(
            "turn {} current {} to_move {} | row [{}] trade_deck {} explorers {} scrap {}",
            self.turn,
            self.current,
            self.to_move.map_or("-".to_string(), |m| m.to_string()),
            self.row
                .iter()
                .map(|c| c.map_or("_".to_string(), |c| c.to_string()))
                .collect::<Vec<_>>()
                .join(" "),
            self.trade_deck_count,
            self.explorers,
            list(&self.scrap_heap),
        );
        if let Some(p) = &self.pending {
            s += &format!(" | pending {p:?}");
        }
        for (i, p) in self.players.iter().enumerate() {
            s += &format!(
                " | p{} {}A {}T {}C hand {} deck {}{} unseen {} discard {} ships {} bases {}",
                i + 1,
                p.authority,
                p.trade,
                p.combat,
                match &p.hand {
                    Some(h) => list(h),
                    None => format!(
                        "{}{}",
                        p.hand_count,
                        if p.hand_known.is_empty() {
                            String::new()
                        } else {
                            list(&p.hand_known)
                        }
                    ),
                },
                p.deck_count,
                if p.deck_known_top.is_empty() {
                    String::new()
                } else {
                    format!(" top {}", list(&p.deck_known_top))
                },
                p.unseen.len(),
                list(&p.discard),
                in_play(&p.ships),
                in_play(&p.bases),
            );
            if !p.alive {
                s += " (out)";
            }
        }
        s
    }
}

/// Sorts card ids, the long lists by counting each id (ids are small numbers, below
/// [`MAX_KINDS`](crate::cards::MAX_KINDS)): a view sorts the trade deck, some eighty cards, and
/// the server writes a view for nearly every action.
fn sort_cards(cards: &mut [CardId]) {
    // Short lists sort quicker by comparing; a list too long for the counts' 16 bits as well.
    if cards.len() <= 24 || cards.len() > usize::from(u16::MAX) {
        cards.sort_unstable();
        return;
    }
    let mut counts = [0u16; crate::cards::MAX_KINDS];
    let (mut low, mut high) = (usize::MAX, 0);
    for card in cards.iter() {
        let i = card.0 as usize;
        counts[i] += 1;
        low = low.min(i);
        high = high.max(i);
    }
    let mut at = 0;
    for (id, &n) in (low..).zip(&counts[low..=high]) {
        let n = n as usize;
        cards[at..at + n].fill(CardId(id as u16));
        at += n;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::State as _;

    #[test]
    fn card_ids_sort_by_counting_as_they_sort_by_comparing() {
        let mut rng = game::rng_from_seed(5);
        for len in [0, 1, 5, 24, 25, 80, 300, 70_000] {
            for kinds in [1, 3, 200, crate::cards::MAX_KINDS] {
                let cards: Vec<CardId> = (0..len)
                    .map(|_| CardId(rand::Rng::random_range(&mut rng, 0..kinds) as u16))
                    .collect();
                let mut counted = cards.clone();
                sort_cards(&mut counted);
                assert_eq!(counted, sorted(cards), "{len} cards of {kinds} kinds");
            }
        }
    }

    fn sorted(mut v: Vec<CardId>) -> Vec<CardId> {
        v.sort_unstable();
        v
    }

    #[test]
    fn a_refilled_view_equals_a_fresh_one() {
        // One observation refilled through a three-player game then a two-player one, from
        // every seat, every detail in turn (and the spectator's full view): each time as if
        // made anew, nothing left over.
        let mut reused = Observation::default();
        let mut legal = Vec::new();
        let mut rng = game::rng_from_seed(5);
        let three = Config {
            seats: 3,
            format: crate::Format::FreeForAll,
            ..Config::default()
        };
        let mut checked = 0;
        for config in [three, Config::default()] {
            let mut state = State::new_game(&config, 17).unwrap();
            for step in 0..600 {
                if state.to_move().is_none() {
                    break;
                }
                if step % 5 == 0 {
                    for (s, _) in state.players.iter() {
                        if step % 10 == 0 {
                            reused.refill_for_rollout(&state, s);
                            assert_eq!(reused, Observation::for_rollout(&state, s));
                        } else {
                            reused.refill_for_rollout_counts(&state, s);
                            assert_eq!(reused, Observation::for_rollout_counts(&state, s));
                        }
                        reused.refill(&state, Some(s));
                        assert_eq!(reused, Observation::of(&state, Some(s)));
                        checked += 1;
                    }
                    reused.refill(&state, None);
                    assert_eq!(reused, Observation::of(&state, None));
                }
                state.legal_actions_into(&mut legal);
                let a = crate::rollout::pick(&legal, &mut rng);
                state.apply_legal(a);
            }
        }
        assert!(checked > 100, "{checked} views checked");
    }

    #[test]
    fn a_view_refilled_after_an_earlier_one_equals_a_fresh_one() {
        // Each seat's view (and the spectator's) refilled after the last one of its own, as a
        // server's connection does, through whole games: the trade deck's cards taken from the
        // earlier view when the deck holds as many, sorted anew when a card left it.
        let mut rng = game::rng_from_seed(8);
        let mut legal = Vec::new();
        let (mut reused, mut taken) = (0, 0);
        for (format, seats) in [(crate::Format::Standard, 2), (crate::Format::FreeForAll, 4)] {
            let config = Config::of_format(format, Some(seats));
            let mut state = State::new_game(&config, 23).unwrap();
            let viewers: Vec<Option<Seat>> = std::iter::once(None)
                .chain((0..seats).map(|s| Some(Seat(s))))
                .collect();
            let mut before: Vec<Observation> = viewers
                .iter()
                .map(|&v| Observation::of(&state, v))
                .collect();
            let mut room = Observation::default();
            while state.to_move().is_some() {
                state.legal_actions_into(&mut legal);
                let a = crate::rollout::pick(&legal, &mut rng);
                state.apply_legal(a);
                for (&viewer, before) in viewers.iter().zip(&mut before) {
                    let same = before.trade_deck_count == state.trade_deck.len();
                    room.refill_after(&state, viewer, before);
                    assert_eq!(room, Observation::of(&state, viewer));
                    if same {
                        taken += 1;
                    } else {
                        reused += 1;
                    }
                    before.clone_from(&room);
                }
            }
        }
        assert!(
            taken > 1000 && reused > 50,
            "{taken} decks taken, {reused} sorted anew"
        );
    }

    #[test]
    fn the_counting_rollout_view_holds_what_the_full_view_knows_of_each_player() {
        let mut state = State::new_game(&Config::default(), 11).unwrap();
        let mut rng = game::rng_from_seed(3);
        let mut legal = Vec::new();
        for step in 0..400 {
            let Some(seat) = state.to_move() else { break };
            if step % 7 == 0 {
                let full = Observation::of(&state, Some(seat));
                let counts = Observation::for_rollout_counts(&state, seat);
                let plain = Observation::for_rollout(&state, seat);
                for (i, (f, c)) in full.players.iter().zip(&counts.players).enumerate() {
                    assert_eq!(sorted(c.unseen.clone()), f.unseen, "step {step}, seat {i}");
                    assert_eq!(c.discard, f.discard);
                    assert_eq!(sorted(c.hand_known.clone()), f.hand_known);
                    assert_eq!(c.hand.as_ref().map(|h| sorted(h.clone())), f.hand);
                    if i != seat.index() {
                        assert!(plain.players[i].unseen.is_empty());
                    }
                }
                // Nothing the seat may not see: the others' hands stay hidden.
                assert!(
                    counts
                        .players
                        .iter()
                        .enumerate()
                        .all(|(i, p)| (i == seat.index()) == p.hand.is_some())
                );
            }
            state.legal_actions_into(&mut legal);
            let a = crate::rollout::pick(&legal, &mut rng);
            state.apply_legal(a);
        }
        assert!(state.turn > 3, "the game went on for a few turns");
    }
}
