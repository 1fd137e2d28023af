//! A bot for any game: uniform over the legal actions.

use game::{GameRng, State};

use crate::{Bot, SeatView};

/// Picks uniformly among the legal actions, with its own seeded RNG.
pub struct UniformBot {
    rng: GameRng,
}

impl UniformBot {
    /// A uniform bot with its seed.
    pub fn new(seed: u64) -> Self {
        UniformBot {
            rng: game::rng_from_seed(seed),
        }
    }
}

impl<S: State> Bot<S> for UniformBot {
    fn name(&self) -> &str {
        "uniform"
    }

    fn choose(&mut self, _view: &SeatView<'_, S>, legal: &[S::Action]) -> S::Action {
        legal[game::below(&mut self.rng, legal.len())]
    }
}
