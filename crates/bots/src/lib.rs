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
    fn bot(name: &str, seed: u64) -> Result<Box<dyn Bot<Self>>, String>;
}

impl NamedBots for ::starrealms::State {
    fn bot(name: &str, seed: u64) -> Result<Box<dyn Bot<Self>>, String> {
        starrealms::by_name(name, seed)
    }
}

impl NamedBots for ::cosmique::State {
    fn bot(name: &str, seed: u64) -> Result<Box<dyn Bot<Self>>, String> {
        cosmique::by_name(name, seed)
    }
}

/// A player that picks one of the legal actions from what its seat sees.
pub trait Bot<S: State>: Send {
    /// The bot's name (`random`, `heuristic`).
    fn name(&self) -> &str;
    /// Picks one of `legal` (sorted, never empty) for the seat `view` belongs to.
    fn choose(&mut self, view: &SeatView<'_, S>, legal: &[S::Action]) -> S::Action;

    /// Makes every later decision end early once `flag` is raised (a server shutting down
    /// stops its searches this way). Bots that decide at once ignore it.
    fn stop_when(&mut self, _flag: std::sync::Arc<std::sync::atomic::AtomicBool>) {}
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

/// Plays `state` to the end, seat `i` played by `bots[i]`; calls `each(seat, action, state_after)`
/// after every action and returns the final state.
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
        state.apply_legal(action);
        each(seat, action, &state);
    }
    state
}
