//! The random rollout policy, used by benchmarks, conformance tests and search rollouts.
//!
//! Policy: uniform over the legal actions, except that `end` is never chosen while a card can
//! still be played from hand (playing cards is free, and a player who never plays them makes
//! random games meaninglessly long).

use game::GameRng;

use crate::action::Action;
use crate::state::State;

/// Picks the random policy's action. `buf` is scratch space (no allocation once warm).
#[inline]
pub fn random_action(state: &State, buf: &mut Vec<Action>, rng: &mut GameRng) -> Action {
    state.legal_actions_into(buf);
    pick(buf, rng)
}

/// The random policy's pick among `legal` (a sorted, non-empty legal-action list).
///
/// # Panics
/// If `legal` is empty (the game is over: nothing to pick).
#[inline]
pub fn pick(legal: &[Action], rng: &mut GameRng) -> Action {
    // Sorted order puts `Play` first and, in the main phase, `End` last.
    let n = if matches!(legal.first(), Some(Action::Play(_))) && legal.last() == Some(&Action::End)
    {
        legal.len() - 1
    } else {
        legal.len()
    };
    legal[game::below(rng, n)]
}

/// Plays the random policy until the game is over; returns the number of actions applied.
pub fn random_playout(state: &mut State, buf: &mut Vec<Action>, rng: &mut GameRng) -> u32 {
    let mut steps = 0;
    while !state.over {
        let a = random_action(state, buf, rng);
        state.apply_unchecked(a);
        steps += 1;
    }
    steps
}
