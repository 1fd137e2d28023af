//! Players for realms games.
//!
//! A [`Bot`] decides from a [`SeatView`]: the observation of its own seat and the legal actions,
//! never the full state, so it cannot cheat. Every bot takes an explicit seed; the same seed and
//! the same views give the same decisions.
//!
//! ```
//! use bots::{Bot, play_game};
//! use game::State as _;
//! use starrealms::{Config, State};
//!
//! let mut players: Vec<Box<dyn Bot<State>>> = vec![
//!     bots::starrealms::by_name("heuristic", 1).unwrap(),
//!     bots::starrealms::by_name("random", 2).unwrap(),
//! ];
//! let state = State::new_game(&Config::default(), 7).unwrap();
//! let end = play_game(state, &mut players, |_, _, _| {});
//! assert!(end.over);
//! ```

use std::cell::OnceCell;

use game::{Seat, State};

pub mod campaign;
pub mod cosmique;
pub mod ismcts;
pub mod starrealms;
mod uniform;

pub use uniform::UniformBot;

/// A game whose bots are known by name (`random`, `medium`, `hard` …): generic code (the
/// simulation, the server) builds a game's bots without a match on the game.
pub trait NamedBots: State {
    /// The bot called `name`, with its seed; an error names the known bots.
    fn bot(name: &str, seed: u64) -> Result<Box<dyn Bot<Self>>, UnknownBot>;
}

impl NamedBots for ::starrealms::State {
    fn bot(name: &str, seed: u64) -> Result<Box<dyn Bot<Self>>, UnknownBot> {
        starrealms::by_name(name, seed)
    }
}

impl NamedBots for ::cosmique::State {
    fn bot(name: &str, seed: u64) -> Result<Box<dyn Bot<Self>>, UnknownBot> {
        cosmique::by_name(name, seed)
    }
}

/// A name no bot of a game answers to. It shows in English, naming the known bots; [`text`]
/// says it in another language of the interface.
///
/// [`text`]: UnknownBot::text
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownBot {
    /// The name asked for.
    pub name: String,
    /// The game's bots known by a plain name.
    pub names: &'static [&'static str],
    /// The game's searches known by a pattern (`ismcts:<iterations>` …).
    pub patterns: &'static [&'static str],
}

impl UnknownBot {
    /// The refusal in `lang`: the plain names, and the first pattern (`ismcts:<iterations>`)
    /// with its word translated; the research variants, if the game has others, by a pointer
    /// to where they are described.
    pub fn text(&self, lang: i18n::Lang) -> String {
        let more = if self.patterns.len() > 1 {
            i18n::t(lang, "bots.err.unknown.more")
        } else {
            ""
        };
        i18n::tf(
            lang,
            "bots.err.unknown",
            &[
                ("name", &self.name),
                ("names", &self.names.join(", ")),
                ("more", &more),
            ],
        )
    }
}

impl std::fmt::Display for UnknownBot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "unknown bot `{}` (known: {}, {})",
            self.name,
            self.names.join(", "),
            self.patterns.join(", ")
        )
    }
}

impl std::error::Error for UnknownBot {}

impl From<UnknownBot> for String {
    fn from(e: UnknownBot) -> String {
        e.to_string()
    }
}

/// The longest a bot thinks a decision where a person waits for it (the server, the terminal):
/// within the second the levels promise, whatever the machine's speed and load
/// ([`Bot::cap_time`]). On this project's machine `expert` needs it only for its slowest
/// decisions on a slow day.
pub const MOVE_TIME_CAP: std::time::Duration = std::time::Duration::from_millis(900);

/// A player that picks one of the legal actions from what its seat sees.
pub trait Bot<S: State>: Send {
    /// The bot's name (`random`, `heuristic`).
    fn name(&self) -> &str;
    /// Picks one of `legal` (sorted, never empty) for the seat `view` belongs to.
    fn choose(&mut self, view: &SeatView<'_, S>, legal: &[S::Action]) -> S::Action;

    /// Makes every later decision end early once `flag` is raised (a server shutting down
    /// stops its searches this way). Bots that decide at once ignore it.
    fn stop_when(&mut self, _flag: std::sync::Arc<std::sync::atomic::AtomicBool>) {}

    /// Never thinks longer than `limit` a decision, whatever its budget: for a person waiting
    /// for its move (the server, the terminal). A search cut short is not reproducible, so
    /// arenas and benchmarks leave it unset. Bots that decide at once ignore it.
    fn cap_time(&mut self, _limit: std::time::Duration) {}

    /// Sees `action`, which the seat `by` (another seat than this bot's) takes, when every seat
    /// sees it ([`game::State::is_public`]): `view` is this bot's seat's view just before it.
    /// Whoever runs a game shows a bot every such action of the others, in order, from the
    /// game's start; bots that learn nothing from the others ignore it.
    fn watch(&mut self, _view: &SeatView<'_, S>, _by: Seat, _action: S::Action) {}
}

/// The search budget a bot's name gives each decision (`<kind>:<n>`, in either game): `n`
/// iterations, or for `ismcts-work`, `n` units of work ([`ismcts::Budget::Work`]); `None` for a
/// name without one.
pub fn budget_of(name: &str) -> Option<ismcts::Budget> {
    let (kind, n) = name.split_once(':')?;
    let n: u64 = n.parse().ok()?;
    Some(if kind == "ismcts-work" {
        ismcts::Budget::Work(n)
    } else {
        ismcts::Budget::Iterations(u32::try_from(n).unwrap_or(u32::MAX))
    })
}

/// Shows `action`, about to be taken by `by` in `state`, to every other seat's bot that may see
/// it ([`Bot::watch`]); `bots` are the seats' bots in seat order (`None`: a seat no bot plays).
pub fn show_others<'a, S: State + 'a>(
    state: &S,
    bots: impl IntoIterator<Item = Option<&'a mut (dyn Bot<S> + 'static)>>,
    by: Seat,
    action: S::Action,
) {
    if !state.is_public(&action) {
        return;
    }
    for (i, bot) in bots.into_iter().enumerate() {
        if let Some(bot) = bot.filter(|_| i != by.index()) {
            bot.watch(&SeatView::of_state(state, Seat(i as u8)), by, action);
        }
    }
}

/// What a bot may look at when it decides: its seat and that seat's observation.
///
/// The observation is built on first use, so that bots that do not read it (the random bot)
/// cost nothing. The full state stays private to this module: a bot cannot reach it.
pub struct SeatView<'a, S: State> {
    seat: Seat,
    source: Source<'a, S>,
    observation: OnceCell<S::Observation>,
}

enum Source<'a, S: State> {
    State(&'a S),
    Given,
    Lent(&'a S::Observation),
}

impl<'a, S: State> SeatView<'a, S> {
    /// The view of `seat` in `state`.
    pub fn of_state(state: &'a S, seat: Seat) -> Self {
        SeatView {
            seat,
            source: Source::State(state),
            observation: OnceCell::new(),
        }
    }

    /// A view from an observation already made (a server's, a search's).
    pub fn of_observation(seat: Seat, observation: S::Observation) -> Self {
        SeatView {
            seat,
            source: Source::Given,
            observation: OnceCell::from(observation),
        }
    }

    /// A view from an observation the caller keeps (a rollout's, refilled at every decision).
    pub fn of_lent(seat: Seat, observation: &'a S::Observation) -> Self {
        SeatView {
            seat,
            source: Source::Lent(observation),
            observation: OnceCell::new(),
        }
    }

    /// The seat deciding.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// The seat's observation.
    pub fn observation(&self) -> &S::Observation {
        if let Source::Lent(observation) = self.source {
            return observation;
        }
        self.observation.get_or_init(|| match self.source {
            Source::State(state) => state.observation(self.seat),
            Source::Given | Source::Lent(_) => {
                unreachable!("a given observation is set at construction")
            }
        })
    }
}

/// Plays `state` to the end, seat `i` played by `bots[i]` (each shown the others' public actions,
/// [`Bot::watch`]); calls `each(seat, action, state_after)` after every action and returns the
/// final state.
///
/// # Panics
/// If there are fewer bots than seats, or a bot returns an action that is not legal (a bug in
/// the bot).
pub fn play_game<S: State>(
    mut state: S,
    bots: &mut [Box<dyn Bot<S>>],
    mut each: impl FnMut(Seat, S::Action, &S),
) -> S {
    let mut legal = Vec::new();
    while let Some(seat) = state.to_move() {
        state.legal_actions_into(&mut legal);
        let action = {
            let view = SeatView::of_state(&state, seat);
            bots[seat.index()].choose(&view, &legal)
        };
        assert!(
            legal.contains(&action),
            "bot `{}` chose an illegal action: {action}",
            bots[seat.index()].name()
        );
        show_others(
            &state,
            bots.iter_mut().map(|b| Some(&mut **b)),
            seat,
            action,
        );
        state.apply_legal(action);
        each(seat, action, &state);
    }
    state
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    #[test]
    fn a_bots_name_gives_its_search_budget() {
        use ismcts::Budget;
        assert_eq!(budget_of("ismcts:500"), Some(Budget::Iterations(500)));
        assert_eq!(budget_of("ismcts-read:60"), Some(Budget::Iterations(60)));
        assert_eq!(
            budget_of("ismcts-work:9000000"),
            Some(Budget::Work(9_000_000))
        );
        assert_eq!(
            budget_of("ismcts:99999999999"),
            Some(Budget::Iterations(u32::MAX))
        );
        assert_eq!(budget_of("expert"), None);
        assert_eq!(budget_of("ismcts:many"), None);
    }

    /// What a [`Recorder`] was shown: the seat of the view, who acted, the action.
    type Shown = Arc<Mutex<Vec<(Seat, Seat, ::starrealms::Action)>>>;

    /// Plays as the heuristic and writes down every action it is shown.
    struct Recorder {
        play: Box<dyn Bot<::starrealms::State>>,
        shown: Shown,
    }

    impl Bot<::starrealms::State> for Recorder {
        fn name(&self) -> &str {
            "recorder"
        }
        fn choose(
            &mut self,
            view: &SeatView<'_, ::starrealms::State>,
            legal: &[::starrealms::Action],
        ) -> ::starrealms::Action {
            self.play.choose(view, legal)
        }
        fn watch(
            &mut self,
            view: &SeatView<'_, ::starrealms::State>,
            by: Seat,
            action: ::starrealms::Action,
        ) {
            self.shown
                .lock()
                .expect("one thread")
                .push((view.seat(), by, action));
        }
    }

    #[test]
    fn every_bot_is_shown_the_others_actions_in_order_and_not_its_own() {
        let shown: [Shown; 2] = Default::default();
        let mut players: Vec<Box<dyn Bot<::starrealms::State>>> = shown
            .iter()
            .map(|s| {
                Box::new(Recorder {
                    play: starrealms::by_name("medium", 1).expect("a bot"),
                    shown: Arc::clone(s),
                }) as Box<dyn Bot<_>>
            })
            .collect();
        let mut log = Vec::new();
        let start = ::starrealms::State::new_game(&Default::default(), 5).expect("a game");
        play_game(start, &mut players, |seat, a, _| log.push((seat, a)));
        for (i, shown) in shown.iter().enumerate() {
            let me = Seat(i as u8);
            let expected: Vec<_> = log
                .iter()
                .filter(|(seat, _)| *seat != me)
                .map(|&(seat, a)| (me, seat, a))
                .collect();
            assert!(!expected.is_empty());
            assert_eq!(*shown.lock().expect("one thread"), expected);
        }
    }
}
