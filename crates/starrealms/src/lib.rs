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

use std::cell::Cell;
use std::sync::OnceLock;

/// `Clone` for a struct, field by field, with a `clone_from` that copies each field into the
/// room the copy already has (a server that keeps a copy of each version of a game makes a new
/// one from the previous without allocating). Every field must be listed: the struct literal
/// and the destructuring check it, so a field added without its copy does not compile.
macro_rules! clone_by_field {
    ($ty:ident { $($field:ident),* $(,)? }) => {
        impl Clone for $ty {
            fn clone(&self) -> $ty {
                $ty { $($field: self.$field.clone()),* }
            }

            fn clone_from(&mut self, source: &$ty) {
                let $ty { $($field),* } = source;
                $(self.$field.clone_from($field);)*
            }
        }
    };
}

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

thread_local! {
    /// The set of [`with_card_set`] on this thread, if any.
    static LOCAL: Cell<Option<&'static CardSet>> = const { Cell::new(None) };
}

/// The active card set: the one [`with_card_set`] gives this thread, else the process's: the
/// embedded sets ([`CardSet::builtin`]: the base set and the *Rise of Empire* stand-in pack)
/// unless [`use_card_set`] installed another one first.
#[inline]
pub fn cards() -> &'static CardSet {
    match LOCAL.with(Cell::get) {
        Some(set) => set,
        None => ACTIVE.get_or_init(CardSet::builtin),
    }
}

/// Runs `f` with `set` as this thread's card set: games built and played inside use its cards,
/// so that one process can play games of several sets side by side (each on its own thread, or
/// one after the other). The thread's previous set comes back afterwards, even if `f` panics.
/// Card ids only mean something within their set: a state, an action or a bot made under one
/// set must not be used under another.
pub fn with_card_set<R>(set: &'static CardSet, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<&'static CardSet>);
    impl Drop for Restore {
        fn drop(&mut self) {
            LOCAL.with(|c| c.set(self.0));
        }
    }
    let _restore = Restore(LOCAL.with(|c| c.replace(Some(set))));
    f()
}

/// A card set kept for the life of the process (as [`with_card_set`] needs).
pub fn leak_card_set(set: CardSet) -> &'static CardSet {
    Box::leak(Box::new(set))
}

/// Installs a designer's card set for the whole process. It must be called before any game is
/// built or any card named; it fails if a set is already active.
pub fn use_card_set(set: CardSet) -> Result<(), String> {
    use_static_card_set(leak_card_set(set))
}

/// [`use_card_set`] with a set that lives as long as the process.
pub fn use_static_card_set(set: &'static CardSet) -> Result<(), String> {
    ACTIVE
        .set(set)
        .map_err(|_| "a card set is already in use in this process".to_string())
}
