//! Placeholder: being written.

use game::GameRng;
use starrealms::{Action, State};

use crate::{Bot, SeatView};

/// Card values for purchases.
pub struct Values;

/// The heuristic bot.
pub struct HeuristicBot {
    rng: GameRng,
}

impl HeuristicBot {
    /// A heuristic bot with its seed.
    pub fn new(seed: u64) -> Self {
        HeuristicBot {
            rng: game::rng_from_seed(seed),
        }
    }
}

impl Bot<State> for HeuristicBot {
    fn name(&self) -> &str {
        "heuristic"
    }

    fn choose(&mut self, _view: &SeatView<'_, State>, legal: &[Action]) -> Action {
        starrealms::rollout::pick(legal, &mut self.rng)
    }
}
