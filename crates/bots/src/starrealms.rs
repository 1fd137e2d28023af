//! Star Realms bots: `random` (the rollout policy) and `heuristic`.

use game::GameRng;
use starrealms::{Action, State, rollout};

use crate::{Bot, SeatView};

mod heuristic;

pub use heuristic::{HeuristicBot, Values, ValuesError};

/// The names [`by_name`] knows.
pub const NAMES: &[&str] = &["heuristic", "random"];

/// Builds a bot by name with its seed.
pub fn by_name(name: &str, seed: u64) -> Result<Box<dyn Bot<State>>, String> {
    match name {
        "random" => Ok(Box::new(RandomBot::new(seed))),
        "heuristic" => Ok(Box::new(HeuristicBot::new(seed))),
        _ => Err(format!(
            "unknown bot `{name}` (known: {})",
            NAMES.join(", ")
        )),
    }
}

/// The random policy of [`starrealms::rollout`]: uniform over the legal actions, except that it
/// never ends its turn while a card can still be played from hand. Attack amounts, abilities,
/// purchases and every sub-decision are drawn uniformly from the legal list.
pub struct RandomBot {
    rng: GameRng,
}

impl RandomBot {
    /// A random bot with its seed.
    pub fn new(seed: u64) -> Self {
        RandomBot {
            rng: game::rng_from_seed(seed),
        }
    }
}

impl Bot<State> for RandomBot {
    fn name(&self) -> &str {
        "random"
    }

    fn choose(&mut self, _view: &SeatView<'_, State>, legal: &[Action]) -> Action {
        rollout::pick(legal, &mut self.rng)
    }
}
