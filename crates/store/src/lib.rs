//! Persistence of realms games behind the [`Store`] trait, with an SQLite implementation
//! ([`SqliteStore`]).
//!
//! A game is stored as what defines it, its record (game, configuration, seed, and the actions
//! in order: event sourcing), plus who sits in each seat, when it was created and, once over,
//! who won. The state of a game is never stored: whoever needs it replays the record.
//!
//! Two rules make the log trustworthy:
//! - [`Store::append_action`] takes the index the action must get and refuses any other, in one
//!   atomic step: no gap, no duplicate, even with several writers;
//! - an append that returned `Ok` is durable: a crash of the process (or of the machine, with
//!   the SQLite store's full synchronous mode) right after it does not lose it.
//!
//! A seat's secret token is never stored, only its SHA-256 ([`TokenHash`]).
//!
//! The trait is synchronous: an implementation may block on I/O, and async callers (the server)
//! call it from a blocking thread. A PostgreSQL implementation can later let several server
//! nodes share games.
//!
//! ```
//! use game::GameRecord;
//! use store::{SqliteStore, Store, TokenHash};
//!
//! let store = SqliteStore::open(":memory:").unwrap();
//! let record = GameRecord {
//!     version: game::record::RECORD_VERSION,
//!     game: "starrealms".into(),
//!     config: serde_json::json!({}),
//!     seed: 7,
//!     actions: vec![],
//!     players: vec!["human".into(), "heuristic".into()],
//! };
//! let id = store.create(&record).unwrap();
//! store.append_action(id, 0, "play scout", Some("c1")).unwrap();
//! assert!(store.append_action(id, 0, "play scout", None).is_err()); // index 0 is taken
//! store.claim_seat(id, game::Seat(0), &TokenHash::of("secret")).unwrap();
//! assert_eq!(store.load(id).unwrap().record.actions, ["play scout"]);
//! ```

use std::fmt;
use std::str::FromStr;

use game::{GameRecord, Seat};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

mod sqlite;

pub use sqlite::SqliteStore;

/// The player name of a seat kept for a person; any other name is a bot's.
pub const HUMAN: &str = "human";

/// A game's number in the store.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct GameId(pub i64);

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for GameId {
    type Err = std::num::ParseIntError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.parse().map(GameId)
    }
}

/// The SHA-256 of a seat's secret token: what the store keeps instead of the token.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct TokenHash(pub [u8; 32]);

impl TokenHash {
    /// The hash of a token.
    pub fn of(token: &str) -> TokenHash {
        TokenHash(Sha256::digest(token.as_bytes()).into())
    }

    /// Whether `token` is the token of this hash. The comparison takes the same time whatever
    /// the bytes (not that a hash's prefix would tell much).
    pub fn matches(&self, token: &str) -> bool {
        let other = TokenHash::of(token);
        self.0
            .iter()
            .zip(other.0.iter())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
    }
}

impl fmt::Debug for TokenHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A prefix is enough to tell hashes apart in logs.
        write!(f, "TokenHash(")?;
        for b in &self.0[..4] {
            write!(f, "{b:02x}")?;
        }
        write!(f, "…)")
    }
}

/// One seat of a stored game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredSeat {
    /// [`HUMAN`], or the name of the bot that plays it.
    pub player: String,
    /// The hash of its token, once a person has claimed it.
    pub token_hash: Option<TokenHash>,
}

impl StoredSeat {
    /// Whether a person sits (or may sit) here.
    pub fn is_human(&self) -> bool {
        self.player == HUMAN
    }
}

/// A whole stored game.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredGame {
    /// Its number.
    pub id: GameId,
    /// Its record: replaying it rebuilds the game. `players` names each seat's player.
    pub record: GameRecord,
    /// For each action of the record, the id the client gave it, if any.
    pub client_ids: Vec<Option<String>>,
    /// The seats, in order.
    pub seats: Vec<StoredSeat>,
    /// When it was created (UTC, `2025-01-31T12:00:00Z`).
    pub created_at: String,
    /// Once over: the winning seats (empty after a draw).
    pub winners: Option<Vec<Seat>>,
}

/// A seat as the lobby shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatSummary {
    /// The seat (`p1` …).
    pub seat: Seat,
    /// [`HUMAN`], or the bot's name.
    pub player: String,
    /// Whether a person has claimed it (always false for bots).
    pub claimed: bool,
}

/// What the lobby shows of a game: everything public, nothing that would reveal hidden cards
/// (no seed, no actions).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameSummary {
    /// Its number.
    pub id: GameId,
    /// Which game (`starrealms`, `cosmique`).
    pub game: String,
    /// Its configuration.
    pub config: serde_json::Value,
    /// The seats.
    pub seats: Vec<SeatSummary>,
    /// When it was created (UTC).
    pub created_at: String,
    /// Actions played so far.
    pub actions: usize,
    /// Whether it is over.
    pub finished: bool,
    /// Once over: the winning seats (empty after a draw).
    pub winners: Option<Vec<Seat>>,
}

/// What can go wrong in a store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// No such game.
    #[error("there is no game {0}")]
    UnknownGame(GameId),
    /// An append at another index than the next one.
    #[error("game {id}: the next action is number {actual}, not {expected}")]
    WrongIndex {
        /// The game.
        id: GameId,
        /// The index the caller gave.
        expected: usize,
        /// The index the next action gets.
        actual: usize,
    },
    /// The game is over: nothing more may be appended or claimed.
    #[error("game {0} is over")]
    Finished(GameId),
    /// The game has no such seat.
    #[error("game {id} has no seat {seat}")]
    UnknownSeat {
        /// The game.
        id: GameId,
        /// The seat.
        seat: Seat,
    },
    /// A bot plays that seat.
    #[error("seat {seat} of game {id} is a bot's")]
    NotHuman {
        /// The game.
        id: GameId,
        /// The seat.
        seat: Seat,
    },
    /// Somebody has claimed that seat already.
    #[error("seat {seat} of game {id} is taken")]
    SeatTaken {
        /// The game.
        id: GameId,
        /// The seat.
        seat: Seat,
    },
    /// A game to create is refused (no seats, too many).
    #[error("invalid game: {0}")]
    Invalid(String),
    /// Stored data that does not read back (a bug or a foreign write).
    #[error("corrupt data: {0}")]
    Corrupt(String),
    /// The database failed.
    #[error("storage failure: {0}")]
    Backend(#[source] Box<dyn std::error::Error + Send + Sync>),
}

/// Where games live. Every method is atomic.
pub trait Store: Send + Sync + 'static {
    /// Stores a new game: its record (the actions it already holds are stored too) and one
    /// seat per entry of `record.players`, none claimed.
    fn create(&self, record: &GameRecord) -> Result<GameId, StoreError>;

    /// The whole game.
    fn load(&self, id: GameId) -> Result<StoredGame, StoreError>;

    /// What the lobby shows of a game.
    fn summary(&self, id: GameId) -> Result<GameSummary, StoreError>;

    /// Appends action number `expected_index` (0-based) to a game's log, with the id the
    /// client gave it. Refused with [`StoreError::WrongIndex`] unless the log holds exactly
    /// `expected_index` actions, and with [`StoreError::Finished`] once the game is over; a
    /// refused call changes nothing. Once it returns `Ok`, the action is durable.
    fn append_action(
        &self,
        id: GameId,
        expected_index: usize,
        text: &str,
        client_id: Option<&str>,
    ) -> Result<(), StoreError>;

    /// Gives a free human seat to whoever holds the token of `token_hash`.
    fn claim_seat(&self, id: GameId, seat: Seat, token_hash: &TokenHash) -> Result<(), StoreError>;

    /// Marks a game over, with its winners (empty: a draw).
    fn finish(&self, id: GameId, winners: &[Seat]) -> Result<(), StoreError>;

    /// Every game not over, oldest first.
    fn list_unfinished(&self) -> Result<Vec<GameSummary>, StoreError>;

    /// Every game not over with a human seat nobody has claimed yet, oldest first.
    fn list_open(&self) -> Result<Vec<GameSummary>, StoreError>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_hashes_match_their_token_only() {
        let h = TokenHash::of("secret");
        assert!(h.matches("secret"));
        assert!(!h.matches("secret "));
        assert!(!h.matches(""));
        assert_eq!(format!("{h:?}").len(), "TokenHash(…)".len() + 8);
    }
}
