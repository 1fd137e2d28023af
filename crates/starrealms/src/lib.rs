//! Star Realms rules engine: card data, state, abilities, observations, scenarios.
//!
//! ```
//! use game::State as _;
//! use starrealms::{Config, State};
//!
//! let mut state = State::new_game(&Config::default(), 42).unwrap();
//! let first = state.legal_actions()[0];
//! state.apply(first).unwrap();
//! ```

use std::sync::OnceLock;

pub mod action;
pub mod campaign;
pub mod card_text;
pub mod cards;
pub mod config;
pub mod expect;
pub mod formats;
pub mod observation;
pub mod refusal;
pub mod rollout;
pub mod scenario;
pub mod state;

pub use action::Action;
pub use cards::{CardDef, CardId, CardSet};
pub use config::{Config, DiscardTiming, Edition, Format};
pub use observation::Observation;
pub use scenario::{Scenario, ScenarioError};
pub use state::{InPlay, Pending, Player, State};

static ACTIVE: OnceLock<&'static CardSet> = OnceLock::new();

/// The active card set: the embedded sets ([`CardSet::builtin`]: the base set and the *Rise of
/// Empire* stand-in pack) unless [`use_card_set`] installed another one first.
#[inline]
pub fn cards() -> &'static CardSet {
    ACTIVE.get_or_init(CardSet::builtin)
}

/// Installs a designer's card set for the whole process. It must be called before any game is
/// built or any card named; it fails if a set is already active.
pub fn use_card_set(set: CardSet) -> Result<(), String> {
    let leaked: &'static CardSet = Box::leak(Box::new(set));
    ACTIVE
        .set(leaked)
        .map_err(|_| "a card set is already in use in this process".to_string())
}
