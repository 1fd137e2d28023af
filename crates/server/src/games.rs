//! The games the server hosts, behind one adapter (the `Served` trait), and how a request to
//! create a game becomes a game record.

use bots::NamedBots;
use bots::ismcts::Budget;
use game::{GameRecord, Seat};
use serde::{Deserialize, Serialize};
use store::HUMAN;

/// Which game a table plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameKind {
    /// Star Realms.
    Starrealms,
    /// Bataille Cosmique.
    Cosmique,
}

impl GameKind {
    /// The game's name in records and in the protocol.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Starrealms => <starrealms::State as game::State>::GAME,
            GameKind::Cosmique => <cosmique::State as game::State>::GAME,
        }
    }

    /// The kind of a record's `game` field.
    pub fn of_record(game: &str) -> Option<GameKind> {
        [GameKind::Starrealms, GameKind::Cosmique]
            .into_iter()
            .find(|k| k.name() == game)
    }
}

/// What the server needs of a game beyond [`game::State`].
pub(crate) trait Served: NamedBots<Observation: Send + 'static> + 'static {
    /// The game's kind.
    const KIND: GameKind;
    /// The action as every seat but the actor's may read it in the log: the text form, less
    /// whatever it reveals that the table does not see; `None` when that is the whole text.
    fn public_text(action: Self::Action) -> Option<String>;
    /// The id of the card `action` is about, taken from the state before it is applied, when
    /// every seat sees that card once the action is done (a card bought, attacked, scrapped,
    /// discarded, played, used): the log then names what a place such as `buy row 2` held.
    /// `None` for an action about no card, and for any card that stays hidden from a seat.
    /// An action that is not legal here may get `None` or a card, but never makes it panic.
    fn log_card(&self, action: Self::Action) -> Option<String>;
    /// Writes what `viewer` sees (`None`: a spectator), as JSON, at the end of `out`.
    fn write_view(&self, viewer: Option<Seat>, out: &mut Vec<u8>);
    /// Writes what `viewer` sees as the changes since `kept` (what the connection was last
    /// sent, which becomes this view), and returns `true`; or, with nothing kept or for a game
    /// whose views are small, the whole view as [`Served::write_view`] does, and `false`.
    fn write_view_changes(&self, viewer: Option<Seat>, kept: &mut Kept, out: &mut Vec<u8>) -> bool {
        let _ = kept;
        self.write_view(viewer, out);
        false
    }
}

/// What a connection keeps of the last view it was sent, to send the next one as changes.
#[derive(Default)]
pub(crate) struct Kept(Option<Box<dyn std::any::Any + Send + Sync>>);

thread_local! {
    /// The room a Star Realms view is filled in: a view is written for nearly every action,
    /// and its lists are filled in the room of the thread's last one rather than allocated.
    static ROOM: std::cell::RefCell<starrealms::Observation> = Default::default();
}

impl Served for starrealms::State {
    const KIND: GameKind = GameKind::Starrealms;
    fn write_view(&self, viewer: Option<Seat>, out: &mut Vec<u8>) {
        ROOM.with_borrow_mut(|view| {
            view.refill(self, viewer);
            view.write_json(out);
        });
    }
    fn write_view_changes(&self, viewer: Option<Seat>, kept: &mut Kept, out: &mut Vec<u8>) -> bool {
        ROOM.with_borrow_mut(|view| {
            let before = kept
                .0
                .as_mut()
                .and_then(|k| k.downcast_mut::<starrealms::Observation>());
            match before {
                Some(before) => {
                    view.refill_after(self, viewer, before);
                    view.write_changes(before, out);
                    true
                }
                None => {
                    view.refill(self, viewer);
                    view.write_json(out);
                    kept.0 = Some(Box::new(view.clone()));
                    false
                }
            }
        })
    }
    fn public_text(_action: starrealms::Action) -> Option<String> {
        // Every Star Realms action is done in the open: cards played, bought, scrapped and
        // discarded are shown to the table.
        None
    }
    fn log_card(&self, action: starrealms::Action) -> Option<String> {
        use starrealms::{Action, Pending};
        let me = self.players.0.get(self.current.index())?;
        let base = |seat: Seat, i: u8| {
            let player = self.players.0.get(seat.index())?;
            player.bases.get(i as usize).map(|b| b.card)
        };
        let row = |slot: u8| self.row.get(slot as usize).copied().flatten();
        let card = match action {
            // Cards the text names already: each leaves a hand or a discard pile face up.
            Action::Play(c)
            | Action::ScrapHand(c)
            | Action::ScrapDiscard(c)
            | Action::Discard(c)
            | Action::Give(c, _)
            | Action::TopBase(c)
            | Action::Bequeath(c) => Some(c),
            // Cards in play, on the table.
            Action::Primary(i)
            | Action::AllyBase(i)
            | Action::DoubleAllyBase(i)
            | Action::ScrapBase(i) => base(self.current, i),
            Action::AllyShip(i)
            | Action::DoubleAllyShip(i)
            | Action::ScrapShip(i)
            | Action::Copy(i) => me.ships.get(i as usize).map(|s| s.card),
            Action::AttackBase(seat, i) | Action::Destroy(seat, i) | Action::CopyBase(seat, i) => {
                base(seat, i)
            }
            // Cards of the trade row, face up.
            Action::BuyRow(slot)
            | Action::BuyUpgrade(slot, ..)
            | Action::AcquireRow(slot)
            | Action::AcquireUpgrade(slot, ..)
            | Action::ScrapRow(slot) => row(slot),
            Action::BuyExplorer | Action::AcquireExplorer => Some(starrealms::cards().explorer),
            // The ship just acquired, face up on the discard pile, goes on top of the deck.
            Action::Top => match self.pending {
                Some(Pending::TopOrDiscard { card }) => Some(card),
                _ => None,
            },
            // The card just acquired, face up, goes into the hand.
            Action::ToHand => match self.pending {
                Some(Pending::ToHand { card, .. }) => Some(card),
                _ => None,
            },
            Action::AttackPlayer(..)
            | Action::TransferTrade(..)
            | Action::TransferCombat(..)
            | Action::Switch(_)
            | Action::End
            | Action::Choose(_)
            | Action::Target(_)
            | Action::Pass => None,
        };
        card.map(|c| c.to_string())
    }
}

impl Served for cosmique::State {
    const KIND: GameKind = GameKind::Cosmique;
    fn write_view(&self, viewer: Option<Seat>, out: &mut Vec<u8>) {
        let view = match viewer {
            Some(seat) => self.observation(seat),
            None => self.public_observation(),
        };
        serde_json::to_writer(out, &view).expect("observations serialize");
    }
    fn public_text(action: cosmique::Action) -> Option<String> {
        use cosmique::Action;
        // Meteors go face down: the table sees where, not which.
        match action {
            Action::Attack {
                side, plus2: true, ..
            } => Some(format!("attack {side} plus2")),
            Action::Attack { side, .. } => Some(format!("attack {side}")),
            Action::Defend { side, .. } => Some(format!("defend {side}")),
            Action::Replace { side, .. } => Some(format!("replace {side}")),
            _ => None,
        }
    }
    fn log_card(&self, _action: cosmique::Action) -> Option<String> {
        // A meteor laid face down stays hidden from the others, and a line is the same for
        // every reader: Bataille Cosmique lines name no card.
        None
    }
}

/// A request to create a game (`POST /api/games`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    /// Which game.
    pub game: GameKind,
    /// Star Realms: the format (`standard`, `free_for_all`, …; default `standard`).
    #[serde(default)]
    pub format: Option<String>,
    /// Star Realms: the rule edition (`rise_of_empire`, the default, or `classic`).
    #[serde(default)]
    pub edition: Option<String>,
    /// Star Realms: the card sets whose trade cards make the trade deck (`["base"]`, the
    /// default; `["colony_wars"]`; `["frontiers"]`; `["rise_of_empire"]`, the *Rise of Empire*
    /// stand-in pack; or
    /// several, such as `["base", "colony_wars"]`).
    #[serde(default)]
    pub sets: Option<Vec<String>>,
    /// Star Realms, *Rise of Empire* upgrades: the sticker sheets of each seat, in seat order
    /// (`[["s1_empire"], ["s1_federation"]]`).
    #[serde(default)]
    pub sheets: Option<Vec<Vec<String>>>,
    /// With `sheets`: using the fifth sticker of a sheet wins at once (political victory).
    #[serde(default)]
    pub political: bool,
    /// Bataille Cosmique: the variant (`standard`, the default, `incolore`, `30pv`).
    #[serde(default)]
    pub variant: Option<String>,
    /// Who sits in each seat, in order: `human` or a bot's name (`heuristic`, `hard`, …).
    pub seats: Vec<String>,
    /// The seed (default: drawn from the operating system). Whoever knows it knows every
    /// shuffle: give one only for tests and replays.
    #[serde(default)]
    pub seed: Option<u64>,
    /// Star Realms, formats whose deal draws the first player among like seats (`standard`,
    /// `free_for_all`, `hunter`, `hunter_first_blood`): the index in `seats` of the player
    /// who plays first. The players are turned around the table so that this one sits where
    /// the deal's first player sits (order kept); without it, the deal decides.
    #[serde(default)]
    pub first: Option<usize>,
    /// Star Realms: deal from the trade deck this finished *Rise of Empire* campaign left (its
    /// upgraded cards and the post-campaign pack), in any format.
    #[serde(default)]
    pub campaign: Option<i64>,
}

/// The largest search budget a bot of a game may have by default (`ismcts:<n>`), so that one
/// game cannot hold a core for minutes a move: about a second of search on one core, a little
/// above the `expert` level's.
pub const MAX_BOT_ITERATIONS: u32 = 8000;

pub(crate) fn check_player(kind: GameKind, name: &str, max_iterations: u32) -> Result<(), String> {
    if name == HUMAN {
        return Ok(());
    }
    // A work budget costs about what as many iterations cost a game's first turns, whose
    // rollouts are the longest.
    let most = match bots::budget_of(name) {
        Some(Budget::Iterations(n)) if n > max_iterations => {
            Some(format!("{max_iterations} iterations"))
        }
        Some(Budget::Work(n)) => {
            let most = u64::from(max_iterations) * bots::starrealms::WORK_PER_ITERATION;
            (n > most).then(|| format!("{most} units of work"))
        }
        _ => None,
    };
    if let Some(most) = most {
        return Err(format!(
            "bot `{name}`: at most {most} a decision on this server"
        ));
    }
    match kind {
        GameKind::Starrealms => <starrealms::State as NamedBots>::bot(name, 0).map(drop),
        GameKind::Cosmique => <cosmique::State as NamedBots>::bot(name, 0).map(drop),
    }
    .map_err(String::from)
}

fn parse<T: std::str::FromStr<Err = String>>(text: &Option<String>) -> Result<Option<T>, String> {
    text.as_deref().map(str::parse).transpose()
}

impl CreateGame {
    /// The record of the new game (no actions yet), checked: a configuration the game accepts,
    /// known players, search bots within `max_iterations` a decision; its seed is the
    /// request's, else `seed`.
    pub fn record(&self, seed: u64, max_iterations: u32) -> Result<GameRecord, String> {
        if self.campaign.is_some() {
            return Err("`campaign`: the server reads the campaign's deck first".into());
        }
        self.record_with(seed, max_iterations, None)
    }

    /// [`CreateGame::record`], dealt from `deck` (the sets its cards come from, and the trade
    /// deck) when the request names a campaign.
    pub(crate) fn record_with(
        &self,
        seed: u64,
        max_iterations: u32,
        deck: Option<(starrealms::cards::Sets, Vec<starrealms::cards::CardId>)>,
    ) -> Result<GameRecord, String> {
        for name in &self.seats {
            check_player(self.game, name, max_iterations)?;
        }
        let seats = u8::try_from(self.seats.len())
            .map_err(|_| format!("{} seats is too many", self.seats.len()))?;
        let mut record = match self.game {
            GameKind::Starrealms => {
                if self.variant.is_some() {
                    return Err(
                        "`variant` is for Bataille Cosmique; Star Realms has formats".into(),
                    );
                }
                let format: starrealms::Format = parse(&self.format)?.unwrap_or_default();
                let mut config = starrealms::Config {
                    edition: parse(&self.edition)?.unwrap_or_default(),
                    ..starrealms::Config::of_format(format, Some(seats))
                };
                if let Some(sets) = &self.sets {
                    config.sets = starrealms::cards::Sets::from_names(sets)?;
                }
                if let Some((sets, deck)) = deck {
                    if self.sets.is_some() {
                        return Err("`campaign` gives the trade deck: leave out `sets`".into());
                    }
                    config.sets = sets;
                    config.trade_deck = Some(deck);
                }
                if let Some(sheets) = &self.sheets {
                    config.sheets = sheets
                        .iter()
                        .map(|ids| {
                            ids.iter()
                                .map(|id| starrealms::config::SheetGrant {
                                    sheet: id.clone(),
                                    used: Vec::new(),
                                    political: self.political,
                                })
                                .collect()
                        })
                        .collect();
                } else if self.political {
                    return Err("`political` needs `sheets`".into());
                }
                config.validate()?;
                GameRecord::new::<starrealms::State>(&config, 0)
            }
            GameKind::Cosmique => {
                if self.format.is_some() || self.edition.is_some() {
                    return Err("Bataille Cosmique has variants, not formats or editions".into());
                }
                if self.sets.is_some() || self.sheets.is_some() {
                    return Err("`sets` and `sheets` are for Star Realms".into());
                }
                if self.seats.len() != cosmique::SEATS {
                    return Err(format!(
                        "Bataille Cosmique takes {} seats, not {}",
                        cosmique::SEATS,
                        self.seats.len()
                    ));
                }
                let config =
                    cosmique::Config::of_variant(parse(&self.variant)?.unwrap_or_default());
                config.validate()?;
                GameRecord::new::<cosmique::State>(&config, 0)
            }
        };
        record.seed = self.seed.unwrap_or(seed);
        record.players = self.seats.clone();
        // The game must start: the same check as on every reload.
        match self.game {
            GameKind::Starrealms => {
                let state = record
                    .initial_state::<starrealms::State>()
                    .map_err(|e| e.to_string())?;
                if let Some(first) = self.first {
                    record.players = self.seated_first(first, &state)?;
                }
            }
            GameKind::Cosmique => {
                record
                    .initial_state::<cosmique::State>()
                    .map_err(|e| e.to_string())?;
                if self.first.is_some() {
                    return Err("`first` is for Star Realms".into());
                }
            }
        }
        Ok(record)
    }

    /// The players turned around the table so that `seats[first]` sits in the seat that
    /// plays first in `state`.
    fn seated_first(&self, first: usize, state: &starrealms::State) -> Result<Vec<String>, String> {
        use starrealms::Format;
        let n = self.seats.len();
        if first >= n {
            return Err(format!("`first` is an index in `seats`: 0 to {}", n - 1));
        }
        if !matches!(
            state.config.format,
            Format::Standard | Format::FreeForAll | Format::Hunter | Format::HunterFirstBlood
        ) {
            return Err(format!(
                "`first` is not for {}: its seats have roles",
                state.config.format.name()
            ));
        }
        let shift = state.first.index() + n - first;
        let mut players = vec![String::new(); n];
        for (i, player) in self.seats.iter().enumerate() {
            players[(i + shift) % n] = player.clone();
        }
        Ok(players)
    }
}

/// How many seats on each player of a finished game sits in its rematch: the sides swapped in a
/// duel.
pub(crate) const REMATCH_SHIFT: usize = 1;

/// The seat of a finished game whose player `seat` of its rematch is kept for, the game having
/// `n` seats.
pub(crate) fn rematch_seat_from(seat: Seat, n: usize) -> Seat {
    Seat(((usize::from(seat.0) + n - REMATCH_SHIFT % n) % n) as u8)
}

/// A finished game's record to play again: the same game and players, a fresh `seed`, no
/// action yet; each player `shift` seats on (1: a rematch, sides swapped in a duel), with what
/// the configuration gives each seat (sticker sheets, personal decks) moving with its player.
pub(crate) fn played_again(
    record: &GameRecord,
    shift: usize,
    seed: u64,
) -> Result<GameRecord, String> {
    let n = record.players.len();
    if n == 0 {
        return Err("the game has no seats".into());
    }
    let rotate = |list: &[serde_json::Value]| -> Vec<serde_json::Value> {
        let mut out = list.to_vec();
        for (i, v) in list.iter().enumerate() {
            out[(i + shift) % n] = v.clone();
        }
        out
    };
    let mut again = record.clone();
    again.seed = seed;
    again.actions.clear();
    let players: Vec<serde_json::Value> = record
        .players
        .iter()
        .map(|p| serde_json::json!(p))
        .collect();
    again.players = rotate(&players)
        .into_iter()
        .map(|p| p.as_str().unwrap_or_default().to_string())
        .collect();
    if !shift.is_multiple_of(n) {
        if record
            .config
            .get("rules")
            .and_then(|r| r.as_array())
            .is_some_and(|r| !r.is_empty())
        {
            return Err(
                "a scenario's rules are for their seats: it cannot be played with sides swapped"
                    .into(),
            );
        }
        for key in ["sheets", "decks"] {
            if let Some(list) = record.config.get(key).and_then(|v| v.as_array())
                && list.len() == n
            {
                again.config[key] = serde_json::Value::Array(rotate(list));
            }
        }
    }
    // The game must start.
    match GameKind::of_record(&again.game) {
        Some(GameKind::Starrealms) => again.initial_state::<starrealms::State>().map(drop),
        Some(GameKind::Cosmique) => again.initial_state::<cosmique::State>().map(drop),
        None => return Err(format!("unknown game `{}`", again.game)),
    }
    .map_err(|e| e.to_string())?;
    Ok(again)
}

/// The seed of the bot in `seat` for the decision at action number `step`: a function of the
/// game's seed, so a game rebuilt after a restart goes on exactly as it would have.
pub(crate) fn bot_seed(game_seed: u64, seat: Seat, step: usize) -> u64 {
    game::mix_seed(game_seed ^ game::mix_seed((u64::from(seat.0) + 1) << 48 ^ step as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(json: serde_json::Value) -> Result<GameRecord, String> {
        let req: CreateGame = serde_json::from_value(json).map_err(|e| e.to_string())?;
        req.record(99, MAX_BOT_ITERATIONS)
    }

    #[test]
    fn a_rematch_seat_is_kept_for_the_player_the_rematch_moved_there() {
        let record = request(serde_json::json!({
            "game": "starrealms", "format": "free_for_all",
            "seats": ["human", "easy", "random"], "seed": 1
        }))
        .unwrap();
        let again = played_again(&record, REMATCH_SHIFT, 2).unwrap();
        for seat in 0..3u8 {
            let from = rematch_seat_from(Seat(seat), 3);
            assert_eq!(
                again.players[usize::from(seat)],
                record.players[usize::from(from.0)],
                "seat {seat} of the rematch is seat {from}'s player's"
            );
        }
        assert_eq!(rematch_seat_from(Seat(0), 2), Seat(1));
        assert_eq!(rematch_seat_from(Seat(1), 2), Seat(0));
    }

    #[test]
    fn requests_become_checked_records() {
        let r = request(serde_json::json!({
            "game": "starrealms", "format": "free-for-all", "edition": "classic",
            "seats": ["human", "heuristic", "ismcts:50"]
        }))
        .unwrap();
        assert_eq!(r.game, "starrealms");
        assert_eq!(r.seed, 99);
        assert_eq!(r.config["format"], "free_for_all");
        assert_eq!(r.config["edition"], "classic");
        assert_eq!(r.config["seats"], 3);
        assert_eq!(r.players, ["human", "heuristic", "ismcts:50"]);

        let r = request(serde_json::json!({
            "game": "cosmique", "variant": "30pv", "seed": 5,
            "seats": ["human", "random", "easy", "hard"]
        }))
        .unwrap();
        assert_eq!((r.game.as_str(), r.seed), ("cosmique", 5));
        assert_eq!(r.config["variant"], "pv30");

        for bad in [
            serde_json::json!({"game": "starrealms", "seats": ["human"]}),
            serde_json::json!({"game": "starrealms", "seats": ["human", "nobody"]}),
            serde_json::json!({"game": "starrealms", "seats": ["human", "ismcts:999999"]}),
            serde_json::json!({"game": "starrealms", "format": "chess", "seats": ["human", "random"]}),
            serde_json::json!({"game": "starrealms", "variant": "incolore", "seats": ["human", "random"]}),
            serde_json::json!({"game": "cosmique", "seats": ["human", "random"]}),
            serde_json::json!({"game": "cosmique", "format": "hydra", "seats": ["human", "random", "random", "random"]}),
            serde_json::json!({"game": "go", "seats": ["human", "random"]}),
            serde_json::json!({"game": "starrealms", "seats": ["human", "random"], "colour": "red"}),
        ] {
            assert!(request(bad.clone()).is_err(), "{bad}");
        }
    }

    #[test]
    fn cosmique_hides_face_down_meteors_from_the_log() {
        let text = |t: &str| {
            let action: cosmique::Action = t.parse().unwrap();
            <cosmique::State as Served>::public_text(action).unwrap_or_else(|| action.to_string())
        };
        assert_eq!(text("attack left red3"), "attack left");
        assert_eq!(text("attack right blue5 plus2"), "attack right plus2");
        assert_eq!(text("defend left green2"), "defend left");
        assert_eq!(text("replace right yellow4"), "replace right");
        assert_eq!(text("take orbit"), "take orbit");
        assert_eq!(text("end"), "end");
    }

    #[test]
    fn bot_seeds_differ_by_seat_and_step() {
        let a = bot_seed(1, Seat(0), 0);
        assert_ne!(a, bot_seed(1, Seat(1), 0));
        assert_ne!(a, bot_seed(1, Seat(0), 1));
        assert_ne!(a, bot_seed(2, Seat(0), 0));
        assert_eq!(a, bot_seed(1, Seat(0), 0));
    }
}
