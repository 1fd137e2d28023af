//! Why an action is refused, in words: a key of the one translation table with its values
//! (see [`game::refusal`]).

pub(crate) use game::refusal::reason;
pub use game::refusal::{in_english, keys};
