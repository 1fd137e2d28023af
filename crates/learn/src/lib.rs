//! What learning agents need from realms games: a seat's observation as a fixed-shape tensor of
//! `f32`, the legal actions as a mask over the whole action space, and [`VecEnv`], many games
//! stepped together in one call.
//!
//! An encoder reads one seat's [`game::Observation`] and nothing else, so a tensor can never
//! show what its seat may not see. The layout of each game is described block by block by
//! [`Encoder::blocks`] (and in `docs/python.md`); it changes only with [`ENCODING_VERSION`].
//!
//! ```
//! use game::{Seat, State as _};
//! use learn::{Encoder as _, Encoding};
//!
//! let config = starrealms::Config::default();
//! let state = starrealms::State::new_game(&config, 7).unwrap();
//! let encoder = starrealms::State::encoder(&config);
//! let mut tensor = vec![0.0; encoder.size()];
//! encoder.encode(&state.observation(Seat(0)), &mut tensor);
//! assert!(tensor.iter().any(|&x| x != 0.0));
//! ```

use game::{Action as _, State};

pub mod cosmique_encoding;
pub mod starrealms_encoding;
mod vecenv;

pub use vecenv::{Opponent, StepError, VecEnv};

/// The version of the tensor layouts. It changes whenever any layout does, so that a trained
/// network is never fed a tensor it was not trained on.
pub const ENCODING_VERSION: u32 = 1;

/// One named part of a tensor: `len` values from `offset`, read as `shape` (row-major).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// The name (`row`, `p0.hand` …).
    pub name: String,
    /// First index in the tensor.
    pub offset: usize,
    /// The block's shape; its product is the block's length.
    pub shape: Vec<usize>,
}

impl Block {
    /// The number of values.
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }

    /// Whether the block holds no value.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Lays blocks out one after another.
#[derive(Default)]
pub(crate) struct Layout {
    blocks: Vec<Block>,
    size: usize,
}

impl Layout {
    /// Adds a block and returns its offset.
    pub(crate) fn add(&mut self, name: impl Into<String>, shape: &[usize]) -> usize {
        let offset = self.size;
        let block = Block {
            name: name.into(),
            offset,
            shape: shape.to_vec(),
        };
        self.size += block.len();
        self.blocks.push(block);
        offset
    }

    pub(crate) fn size(&self) -> usize {
        self.size
    }

    pub(crate) fn into_blocks(self) -> Vec<Block> {
        self.blocks
    }
}

/// Turns one seat's observation into a tensor of a fixed size (for one configuration).
pub trait Encoder<S: State>: Clone + Send + Sync + 'static {
    /// The tensor's length.
    fn size(&self) -> usize;
    /// Writes the tensor of `observation` into `out` (of length [`Encoder::size`]), every value.
    ///
    /// # Panics
    /// If `out` has another length, or the observation is a spectator's (it has no seat).
    fn encode(&self, observation: &S::Observation, out: &mut [f32]);
    /// The tensor's parts, in order.
    fn blocks(&self) -> Vec<Block>;
    /// One name per value of the tensor, in order (`p0.hand[blob_fighter]`,
    /// `global[my_turn]` …).
    fn feature_names(&self) -> Vec<String>;
}

/// Names every value of `blocks`: `name(block, index in the block)` for each.
pub(crate) fn names_of(
    blocks: &[Block],
    mut name: impl FnMut(&Block, usize) -> String,
) -> Vec<String> {
    let mut out = Vec::new();
    for b in blocks {
        for i in 0..b.len() {
            out.push(name(b, i));
        }
    }
    out
}

/// A game whose observations encode as tensors.
pub trait Encoding: State {
    /// Its encoder.
    type Encoder: Encoder<Self>;
    /// The encoder of the games of `config` (the shape may depend on the seats and card sets).
    fn encoder(config: &Self::Config) -> Self::Encoder;
}

impl Encoding for starrealms::State {
    type Encoder = starrealms_encoding::StarRealmsEncoder;
    fn encoder(config: &starrealms::Config) -> Self::Encoder {
        starrealms_encoding::StarRealmsEncoder::new(config)
    }
}

impl Encoding for cosmique::State {
    type Encoder = cosmique_encoding::CosmiqueEncoder;
    fn encoder(_config: &cosmique::Config) -> Self::Encoder {
        cosmique_encoding::CosmiqueEncoder::new()
    }
}

/// Writes the mask of `legal` over the whole action space into `out`: 1 for a legal action's
/// index, 0 elsewhere.
///
/// # Panics
/// If `out` is shorter than the action space.
pub fn write_mask<A: game::Action>(legal: &[A], out: &mut [u8]) {
    out.fill(0);
    for a in legal {
        out[a.index()] = 1;
    }
}

/// The size of a game's action space.
pub fn action_space<S: State>() -> usize {
    S::Action::space_size()
}

/// The value of a seat at the end of a game, as a reward: 1 for a winner, -1 for a loser, 0 for
/// everybody after a draw (and while the game goes on).
pub fn final_reward<S: State>(state: &S, seat: game::Seat) -> f32 {
    if !state.is_terminal() {
        return 0.0;
    }
    let winners = state.winners();
    if winners.is_empty() {
        0.0
    } else if winners.contains(&seat) {
        1.0
    } else {
        -1.0
    }
}

/// One-hot helper: sets `out[offset + i] = 1` when `i < len`.
#[inline]
pub(crate) fn one_hot(out: &mut [f32], offset: usize, len: usize, i: usize) {
    if i < len {
        out[offset + i] = 1.0;
    }
}

/// The seat `seat` as seen from `me` among `n` seats: 0 for `me`, then the next seats in turn
/// order.
#[inline]
pub(crate) fn relative(seat: game::Seat, me: game::Seat, n: usize) -> usize {
    (seat.index() + n - me.index()) % n
}
