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
//! The lobby is read a page at a time ([`Store::lobby`]): the open games (a human seat free,
//! and not left so for too long), then the games being played, newest first.
//!
//! The trait is synchronous: an implementation may block on I/O, and async callers (the server)
//! call it from a blocking thread. A PostgreSQL implementation can later let several server
//! nodes share games.
//!
//! ```
//! use std::time::Duration;
//!
//! use game::GameRecord;
//! use store::{LobbyFilter, LobbyQuery, SqliteStore, Store, TokenHash};
//!
//! let store = SqliteStore::open(":memory:").unwrap();
//! let record = GameRecord {
//!     version: game::record::RECORD_VERSION,
//!     game: "starrealms".into(),
//!     config: serde_json::json!({}),
//!     seed: 7,
//!     actions: vec![],
//!     players: vec!["human".into(), "heuristic".into()],
//!     cards: None,
//! };
//! let id = store.create(&record, false).unwrap();
//! store.append_action(id, 0, "play scout", Some("c1")).unwrap();
//! assert!(store.append_action(id, 0, "play scout", None).is_err()); // index 0 is taken
//!
//! // The lobby lists it as open until somebody takes its human seat.
//! let query = LobbyQuery {
//!     filter: LobbyFilter::Open,
//!     limit: 20,
//!     after: None,
//!     open_seat_ttl: Duration::from_secs(3600),
//! };
//! assert_eq!(store.lobby(&query).unwrap().games[0].id, id);
//! store.claim_seat(id, game::Seat(0), &TokenHash::of("secret")).unwrap();
//! assert!(store.lobby(&query).unwrap().games.is_empty());
//!
//! assert_eq!(store.load(id).unwrap().record.actions, ["play scout"]);
//! ```

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use game::{GameRecord, Seat};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sha2::{Digest, Sha256};

mod sqlite;

pub use sqlite::{MIGRATIONS, SqliteStore};

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

/// A campaign's number in the store.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CampaignId(pub i64);

impl fmt::Display for CampaignId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for CampaignId {
    type Err = std::num::ParseIntError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.parse().map(CampaignId)
    }
}

/// A stored campaign: what defines it beside its games, its seats, and its games in order.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredCampaign {
    /// Its number.
    pub id: CampaignId,
    /// Its save, less its games (JSON; the store does not read it).
    pub save: serde_json::Value,
    /// Its two seats: who plays them and, once a person has claimed one, the token's hash.
    pub seats: Vec<StoredSeat>,
    /// Its games, in the order they were played.
    pub games: Vec<GameId>,
    /// When it was created (UTC).
    pub created_at: String,
    /// How many times its save was replaced ([`Store::update_campaign`] names the one it read).
    pub revision: u64,
}

/// One seat of a stored game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredSeat {
    /// [`HUMAN`], or the name of the bot that plays it.
    pub player: String,
    /// The hash of its token, once a person has claimed it.
    pub token_hash: Option<TokenHash>,
    /// The client that holds it, as the server counts clients, while the seat counts
    /// ([`Write::Claim`]'s `holder`; in a campaign's game, the campaign seat's): read by
    /// [`Store::load`] and [`Store::load_campaign`] only, `None` elsewhere.
    pub holder: Option<String>,
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
    /// Whether it is not over and has a human seat nobody has claimed. The lobby lists such a
    /// game as open only while it is younger than [`LobbyQuery::open_seat_ttl`], and after
    /// that nowhere.
    pub open: bool,
    /// Whether its creator chose the seed (rather than the server drawing it): such a game may
    /// have been set up by somebody who knows how its decks come out.
    pub seed_chosen: bool,
    /// Whether it was retired: a human seat of it stayed free until it expired, so that it can
    /// never start. It is in no list of the lobby, not resumed, and its seats are not to be
    /// taken; it stays readable by its number.
    pub retired: bool,
}

/// Which games a lobby page lists.
///
/// Its text form (and its serialized form) is `open`, `playing` or `unfinished`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LobbyFilter {
    /// Games not over with a human seat nobody has claimed, created less than
    /// [`LobbyQuery::open_seat_ttl`] ago, rematches aside (their seats are kept for their
    /// players: such a game is in no list until they have all taken theirs).
    Open,
    /// Games not over with every human seat claimed.
    Playing,
    /// The open games, then the playing ones.
    Unfinished,
}

impl fmt::Display for LobbyFilter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LobbyFilter::Open => "open",
            LobbyFilter::Playing => "playing",
            LobbyFilter::Unfinished => "unfinished",
        })
    }
}

impl FromStr for LobbyFilter {
    type Err = ParseLobbyError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "open" => Ok(LobbyFilter::Open),
            "playing" => Ok(LobbyFilter::Playing),
            "unfinished" => Ok(LobbyFilter::Unfinished),
            _ => Err(ParseLobbyError::Filter(s.to_owned())),
        }
    }
}

/// Where a lobby page starts: after this game of this group.
///
/// The lobby's order is the open games, newest first, then the playing ones, newest first; a
/// cursor is a place in that order, so a cursor from a page of one filter means something to
/// the others too (after an open game, every playing game is still to come).
///
/// Clients should take it as opaque: its text form (and its serialized form) is `o` for the
/// open group or `p` for the playing group, then the game's number (`o123`, `p45`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LobbyCursor {
    /// Whether the game is in the open group (else in the playing group).
    pub open: bool,
    /// The last game of the previous page.
    pub id: GameId,
}

impl fmt::Display for LobbyCursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let group = if self.open { 'o' } else { 'p' };
        write!(f, "{group}{}", self.id)
    }
}

impl FromStr for LobbyCursor {
    type Err = ParseLobbyError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let error = || ParseLobbyError::Cursor(s.to_owned());
        let (open, number) = if let Some(number) = s.strip_prefix('o') {
            (true, number)
        } else if let Some(number) = s.strip_prefix('p') {
            (false, number)
        } else {
            return Err(error());
        };
        // Digits only: one text per cursor (no sign, no blank).
        if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
            return Err(error());
        }
        let id = number.parse().map_err(|_| error())?;
        Ok(LobbyCursor { open, id })
    }
}

impl Serialize for LobbyCursor {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for LobbyCursor {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

/// A lobby filter or cursor whose text does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseLobbyError {
    /// Not one of the filters.
    #[error("`{0}` is not a lobby filter: expected open, playing or unfinished")]
    Filter(String),
    /// Not a cursor.
    #[error(
        "`{0}` is not a lobby cursor: expected the letter o or p then a game number, as a \
         previous page gave it"
    )]
    Cursor(String),
}

/// Which page of the lobby to read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LobbyQuery {
    /// Which games.
    pub filter: LobbyFilter,
    /// At most this many games (0 counts as 1). The store takes it as it is: bounding what a
    /// client may ask for is the caller's business.
    pub limit: usize,
    /// Start after this game; `None`: at the beginning.
    pub after: Option<LobbyCursor>,
    /// How long a game stays open when nobody takes its free seats, counted from its creation.
    /// Once older, it is listed neither as open nor as playing. Creation times are kept to the
    /// second, so a game may leave up to a second early.
    pub open_seat_ttl: Duration,
}

/// One page of the lobby.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LobbyPage {
    /// The games, in the lobby's order (the open group first, newest first within a group).
    pub games: Vec<GameSummary>,
    /// Where the next page starts (the last game of this one), if more games follow.
    pub next: Option<LobbyCursor>,
}

/// An action to append (see [`Store::append_actions`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NewAction<'a> {
    /// The game.
    pub id: GameId,
    /// The index it must get: the number of actions the game's log holds.
    pub index: usize,
    /// Its text form.
    pub text: &'a str,
    /// The id the client gave it, if any.
    pub client_id: Option<&'a str>,
    /// When the action ends the game: its winners (empty: a draw). The game is marked over
    /// with the action, both or neither.
    pub winners: Option<&'a [Seat]>,
}

/// A write the server's writer gathers with others into one commit (see
/// [`Store::write_batch`]).
#[derive(Clone, Copy, Debug)]
pub enum Write<'a> {
    /// An action to append, as [`Store::append_actions`] does.
    Append(NewAction<'a>),
    /// A new game, as [`Store::create`] makes it.
    Create {
        /// Its record.
        record: &'a GameRecord,
        /// Whether its creator chose the seed.
        seed_chosen: bool,
    },
    /// A seat claimed, as [`Store::claim_seat`] does, by `holder` if told (see
    /// [`Store::holdings`]).
    Claim {
        /// The game.
        id: GameId,
        /// The seat.
        seat: Seat,
        /// The hash of the claimer's token.
        token_hash: &'a TokenHash,
        /// The client that claims it, as the server counts clients (its address, or its IPv6
        /// network), kept while the seat counts.
        holder: Option<&'a str>,
    },
}

/// A seat of a game or of a campaign.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeldSeat {
    /// A game's seat.
    Game(GameId, Seat),
    /// A campaign's seat (the same in each of its games).
    Campaign(CampaignId, Seat),
}

/// A seat a client holds, as [`Store::holdings`] tells it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Holding {
    /// The client, as its claim named it.
    pub holder: String,
    /// The seat.
    pub seat: HeldSeat,
}

/// A game of bots a client made, as [`Store::made_games`] tells it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MadeGame {
    /// The client, as [`Store::made_by`] named it.
    pub maker: String,
    /// The game.
    pub id: GameId,
}

/// What a [`Write`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Written {
    /// The action is appended.
    Appended,
    /// The game is stored under this number.
    Created(GameId),
    /// The seat is claimed.
    Claimed,
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
    /// The game can never start (an open seat of it waited too long for somebody): its seats
    /// can no longer be taken.
    #[error("game {0} can no longer start: a seat of it waited too long for somebody")]
    Retired(GameId),
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
    /// No such campaign.
    #[error("there is no campaign {0}")]
    UnknownCampaign(CampaignId),
    /// A game added to a campaign out of its order.
    #[error("campaign {id}: the next game is number {actual}, not {expected}")]
    WrongCampaignGame {
        /// The campaign.
        id: CampaignId,
        /// The number the caller gave.
        expected: usize,
        /// The number the next game gets.
        actual: usize,
    },
    /// The campaign has no such seat.
    #[error("campaign {id} has no seat {seat}")]
    UnknownCampaignSeat {
        /// The campaign.
        id: CampaignId,
        /// The seat.
        seat: Seat,
    },
    /// A bot plays that seat of the campaign.
    #[error("seat {seat} of campaign {id} is a bot's")]
    NotHumanInCampaign {
        /// The campaign.
        id: CampaignId,
        /// The seat.
        seat: Seat,
    },
    /// Somebody has claimed that seat of the campaign already.
    #[error("seat {seat} of campaign {id} is taken")]
    CampaignSeatTaken {
        /// The campaign.
        id: CampaignId,
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
    /// seat per entry of `record.players`, none claimed. `seed_chosen` tells whether its
    /// creator chose the seed rather than the server drawing it.
    fn create(&self, record: &GameRecord, seed_chosen: bool) -> Result<GameId, StoreError>;

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

    /// Appends several actions, each as [`Store::append_action`] would (a refused one changes
    /// nothing and does not stop the others), and marks over the games of those that carry
    /// winners ([`Store::finish`], once the action is in); returns each one's result in order.
    /// A store may commit them together, so that many games writing at once share one sync
    /// to disk, and should write an action and the result it carries in one commit.
    fn append_actions(&self, actions: &[NewAction<'_>]) -> Vec<Result<(), StoreError>> {
        actions
            .iter()
            .map(|a| {
                self.append_action(a.id, a.index, a.text, a.client_id)?;
                a.winners.map_or(Ok(()), |w| self.finish(a.id, w))
            })
            .collect()
    }

    /// Makes several writes, each as its own method would (a refused one changes nothing and
    /// does not stop the others); returns each one's result in order. A store may commit them
    /// together, so that the actions, creations and claims of many people at once share one
    /// sync to disk. By default, each run of appends goes to [`Store::append_actions`] and
    /// every other write alone.
    fn write_batch(&self, writes: &[Write<'_>]) -> Vec<Result<Written, StoreError>> {
        let mut results = Vec::with_capacity(writes.len());
        let mut appends = Vec::new();
        let flush = |appends: &mut Vec<NewAction<'_>>, results: &mut Vec<_>| {
            if !appends.is_empty() {
                let appended = self.append_actions(appends);
                results.extend(appended.into_iter().map(|r| r.map(|()| Written::Appended)));
                appends.clear();
            }
        };
        for write in writes {
            match *write {
                Write::Append(action) => appends.push(action),
                Write::Create {
                    record,
                    seed_chosen,
                } => {
                    flush(&mut appends, &mut results);
                    results.push(self.create(record, seed_chosen).map(Written::Created));
                }
                Write::Claim {
                    id,
                    seat,
                    token_hash,
                    holder: _,
                } => {
                    flush(&mut appends, &mut results);
                    results.push(
                        self.claim_seat(id, seat, token_hash)
                            .map(|()| Written::Claimed),
                    );
                }
            }
        }
        flush(&mut appends, &mut results);
        results
    }

    /// Gives a free human seat to whoever holds the token of `token_hash`.
    fn claim_seat(&self, id: GameId, seat: Seat, token_hash: &TokenHash) -> Result<(), StoreError>;

    /// Marks a game over, with its winners (empty: a draw).
    fn finish(&self, id: GameId, winners: &[Seat]) -> Result<(), StoreError>;

    /// Every game still to be played, oldest first: not over, and not retired (see
    /// [`Store::retire_expired`]).
    fn list_unfinished(&self) -> Result<Vec<GameSummary>, StoreError>;

    /// The seats clients hold (claimed with a holder, [`Write::Claim`] and
    /// [`Store::claim_campaign_seat`]): those of games still to be played, and of campaigns,
    /// over or not. A store that keeps no holder holds none.
    fn holdings(&self) -> Result<Vec<Holding>, StoreError> {
        Ok(Vec::new())
    }

    /// Notes that client `maker` made unfinished game `id`, a game of bots alone (or left it to
    /// bots, its last person): kept while the game counts, to be read again by
    /// [`Store::made_games`], and forgotten as a seat's holder is (when the game ends or is
    /// retired, and by [`Store::forget_holders`]). Refuses a game over or retired. A store that
    /// keeps no maker keeps nothing.
    fn made_by(&self, id: GameId, maker: &str) -> Result<(), StoreError> {
        let _ = (id, maker);
        Ok(())
    }

    /// The games of bots still to be played and who made them ([`Store::made_by`]).
    fn made_games(&self) -> Result<Vec<MadeGame>, StoreError> {
        Ok(Vec::new())
    }

    /// Forgets who holds the seats of games and campaigns made longer than `age` ago, and who
    /// made the games of bots made as long ago; returns how many it forgot.
    fn forget_holders(&self, age: std::time::Duration) -> Result<usize, StoreError> {
        let _ = age;
        Ok(0)
    }

    /// Forgets who holds the seats of campaign `id` (it is over: they no longer count);
    /// returns how many it forgot.
    fn forget_campaign_holders(&self, id: CampaignId) -> Result<usize, StoreError> {
        let _ = id;
        Ok(0)
    }

    /// Retires the games that can never start, a human seat of theirs having waited longer than
    /// `open_seat_ttl` for somebody: they leave the lobby's lists and [`Store::list_unfinished`],
    /// and their seats can no longer be claimed ([`StoreError::Retired`]); each stays readable
    /// by its number. Returns how many it retired. A store that keeps nothing for long may
    /// retire nothing.
    fn retire_expired(&self, open_seat_ttl: std::time::Duration) -> Result<usize, StoreError> {
        let _ = open_seat_ttl;
        Ok(0)
    }

    /// A page of the lobby: the games of `query.filter` that come after `query.after` in the
    /// lobby's order (open games first, then playing ones, newest first within each group), at
    /// most `query.limit` of them, and where the next page starts.
    fn lobby(&self, query: &LobbyQuery) -> Result<LobbyPage, StoreError>;

    /// Stores the rematch of finished game `of` (the same players, sides swapped), unless it
    /// has one already: returns the rematch's number and whether this call stored it. Two
    /// players asking at once get the same game.
    fn create_rematch(
        &self,
        of: GameId,
        record: &GameRecord,
    ) -> Result<(GameId, bool), StoreError> {
        let _ = (of, record);
        Err(StoreError::Invalid("this store keeps no rematches".into()))
    }

    /// Hands claimed seat `seat` of unfinished game `id` to the bot `player`: its person left
    /// the game, and the seat's token no longer opens it. The store does not check that `player`
    /// names a bot of the game; it refuses a seat that is not a claimed person's
    /// ([`StoreError::NotHuman`], [`StoreError::Invalid`] for one nobody holds) and a game that
    /// is over.
    fn leave_seat(&self, id: GameId, seat: Seat, player: &str) -> Result<(), StoreError> {
        let _ = (id, seat, player);
        Err(StoreError::Invalid(
            "this store does not let people leave".into(),
        ))
    }

    /// The rematch of game `of`, once somebody asked for it.
    fn rematch(&self, of: GameId) -> Result<Option<GameId>, StoreError> {
        let _ = of;
        Ok(None)
    }

    /// The finished game that game `id` is the rematch of, if it is one: its seats are kept
    /// for that game's players.
    fn rematch_of(&self, id: GameId) -> Result<Option<GameId>, StoreError> {
        let _ = id;
        Ok(None)
    }

    /// Stores a new campaign: its save (without its games) and one seat per entry of
    /// `players`, none claimed. `seed_chosen` tells whether its creator chose its seed: each of
    /// its games says so in its summary.
    fn create_campaign(
        &self,
        save: &serde_json::Value,
        players: &[String],
        seed_chosen: bool,
    ) -> Result<CampaignId, StoreError> {
        let _ = (save, players, seed_chosen);
        Err(StoreError::Invalid("this store keeps no campaigns".into()))
    }

    /// The whole campaign.
    fn load_campaign(&self, id: CampaignId) -> Result<StoredCampaign, StoreError> {
        Err(StoreError::UnknownCampaign(id))
    }

    /// Replaces a campaign's save (a choice made, an upgrade after the campaign) if it is still
    /// at `revision`, the one it was read at: `Ok(false)`, nothing written, when another write
    /// came in between.
    fn update_campaign(
        &self,
        id: CampaignId,
        save: &serde_json::Value,
        revision: u64,
    ) -> Result<bool, StoreError> {
        let _ = (save, revision);
        Err(StoreError::UnknownCampaign(id))
    }

    /// Gives a free human seat of a campaign to whoever holds the token of `token_hash`, in
    /// the campaign and in every game of it not over.
    fn claim_campaign_seat(
        &self,
        id: CampaignId,
        seat: Seat,
        token_hash: &TokenHash,
        holder: Option<&str>,
    ) -> Result<(), StoreError> {
        let _ = (seat, token_hash, holder);
        Err(StoreError::UnknownCampaign(id))
    }

    /// Stores game number `number` (0-based) of a campaign, in one step with its link: its
    /// seats are the campaign's, claimed as they are (so no stranger may take one), and
    /// `save` replaces the campaign's save. Refused with
    /// [`StoreError::WrongCampaignGame`] unless the campaign holds exactly `number` games.
    fn add_campaign_game(
        &self,
        id: CampaignId,
        number: usize,
        record: &GameRecord,
        save: &serde_json::Value,
    ) -> Result<GameId, StoreError> {
        let _ = (number, record, save);
        Err(StoreError::UnknownCampaign(id))
    }

    /// The campaign a game belongs to, if any.
    fn campaign_of(&self, game: GameId) -> Result<Option<CampaignId>, StoreError> {
        let _ = game;
        Ok(None)
    }
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

    #[test]
    fn lobby_filters_read_their_names_only() {
        for filter in [
            LobbyFilter::Open,
            LobbyFilter::Playing,
            LobbyFilter::Unfinished,
        ] {
            assert_eq!(filter.to_string().parse(), Ok(filter));
            let json = serde_json::to_value(filter).unwrap();
            assert_eq!(json, filter.to_string());
        }
        let err = "Open".parse::<LobbyFilter>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "`Open` is not a lobby filter: expected open, playing or unfinished"
        );
    }

    #[test]
    fn lobby_cursors_have_one_text_each() {
        for cursor in [
            LobbyCursor {
                open: true,
                id: GameId(123),
            },
            LobbyCursor {
                open: false,
                id: GameId(45),
            },
        ] {
            assert_eq!(cursor.to_string().parse(), Ok(cursor));
            let json = serde_json::to_value(cursor).unwrap();
            assert_eq!(json, cursor.to_string());
            assert_eq!(serde_json::from_value::<LobbyCursor>(json).unwrap(), cursor);
        }
        assert_eq!(
            "o123".parse(),
            Ok(LobbyCursor {
                open: true,
                id: GameId(123)
            })
        );
        for bad in [
            "",
            "o",
            "p",
            "x12",
            "12",
            "o-1",
            "o+1",
            "o 1",
            "O12",
            "p99999999999999999999",
        ] {
            let err = bad.parse::<LobbyCursor>().unwrap_err();
            assert!(
                err.to_string().contains("is not a lobby cursor"),
                "{bad}: {err}"
            );
        }
        assert!(serde_json::from_value::<LobbyCursor>(serde_json::json!("q1")).is_err());
    }
}
