//! Bataille Cosmique rules engine (Laurent Lecerf's four-planet card game): cards, state,
//! actions, observations, random rollouts. The rules as played here, with every point the
//! rulebook leaves open, are in `docs/rules-cosmique.md`.
//!
//! ```
//! use game::State as _;
//! use cosmique::{Action, Config, State, Variant};
//!
//! let config = Config { variant: Variant::Standard, ..Config::default() };
//! let mut state = State::new_game(&config, 42).unwrap();
//! let seat = state.to_move().unwrap();
//! state.apply("take orbit".parse::<Action>().unwrap()).unwrap();
//! // What the planet that just played sees, and a full state it cannot tell from the real one.
//! let view = state.observation(seat);
//! assert_eq!(view.planets[seat.index()].hand.as_ref().unwrap().len(), 3);
//! let sample = view.determinize(&mut game::rng_from_seed(1));
//! assert_eq!(sample.observation(seat), view);
//! ```

pub mod action;
pub mod card;
pub mod config;
pub mod observation;
pub mod rollout;
pub mod scenario;
pub mod state;

pub use action::{Action, Side};
pub use card::{BadCard, Card, Colour, Hand, Meteor};
pub use config::{Config, Variant};
pub use observation::{AttackView, DefenceView, Observation, PlanetView, SlotView};
pub use state::{ACTIONS_PER_TURN, Attack, Defence, Planet, SEATS, Slot, State};
