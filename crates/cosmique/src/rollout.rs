//! The random rollout policy, used by benchmarks, conformance tests and search rollouts.
//!
//! Policy: uniform over the legal actions, except that `end` is never chosen while any other
//! action is possible. A planet that ends its turns early only delays the game; with this policy
//! every turn plays its two actions (or one attack with a "+2"), cards keep flowing from hands
//! to slots to the discard pile, and random games end by a win far below the turn limit.

use game::GameRng;

use crate::action::Action;
use crate::state::State;

/// Picks the random policy's action. `buf` is scratch space (no allocation once warm).
///
/// # Panics
/// If the game is over.
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
    assert!(!legal.is_empty(), "no legal action: the game is over");
    // Sorted order puts `end` last, and it is always legal while the game goes on.
    let n = if legal.len() > 1 && legal.last() == Some(&Action::End) {
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
