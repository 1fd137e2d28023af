//! The SQLite store: one file (or `:memory:`), write-ahead log, full synchronous commits, the
//! schema migrations embedded and applied at open; one writing connection and a pool of
//! read-only ones.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use game::{GameRecord, Seat};
use rusqlite::config::DbConfig;
use rusqlite::{
    CachedStatement, Connection, OpenFlags, OptionalExtension, TransactionBehavior, params,
};

use crate::{
    CampaignId, GameId, GameSummary, HUMAN, HeldSeat, Holding, LobbyCursor, LobbyFilter, LobbyPage,
    LobbyQuery, MadeGame, NewAction, SeatSummary, Store, StoreError, StoredCampaign, StoredGame,
    StoredSeat, TokenHash, Write, Written,
};

/// The schema, one migration a step; `PRAGMA user_version` counts those applied. Never edit a
/// released step: add one. (Public so that a database of an older schema can be made, to test
/// its upgrade.)
pub const MIGRATIONS: &[&str] = &[
    include_str!("../migrations/0001_init.sql"),
    include_str!("../migrations/0002_lobby.sql"),
    include_str!("../migrations/0003_campaigns.sql"),
    include_str!("../migrations/0004_rematch.sql"),
    include_str!("../migrations/0005_actions_by_time.sql"),
    include_str!("../migrations/0006_finished_in_logs.sql"),
    include_str!("../migrations/0007_campaign_seed_chosen.sql"),
    include_str!("../migrations/0008_campaign_revision.sql"),
    include_str!("../migrations/0009_retired.sql"),
    include_str!("../migrations/0010_holders.sql"),
    include_str!("../migrations/0011_makers.sql"),
];

/// Actions a store appends per epoch (the first part of an action's key). Actions written in
/// one epoch share pages: a commit writes at most the epoch's few pages, whatever the number of
/// games it holds. A game's log is read with one search per epoch it spans: fewer, longer
/// epochs read faster and write more pages per commit.
const EPOCH_ACTIONS: u64 = 256;

/// How long a connection waits for another one's lock before giving up, and a read for a free
/// reading connection.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// The longest open-seat time limit the lobby computes with (about 300 years): SQLite's dates
/// stop at year 0, and a longer limit means "never" all the same.
const MAX_OPEN_SEAT_TTL_SECS: u64 = 10_000_000_000;

/// Games in an SQLite database.
///
/// Writes go through one connection behind a mutex: calls from several threads are serialized
/// here, and several `SqliteStore`s (or processes) on one file are serialized by SQLite's own
/// locking. Reads (loads, summaries, lobby pages) go through a pool of read-only connections
/// to the same file, which the write-ahead log lets run beside a write: a lobby page does not
/// wait for an append, nor an append for a lobby page. An in-memory database has no file to
/// share, so its reads go through the writing connection.
pub struct SqliteStore {
    writer: Mutex<Connection>,
    /// The actions this store appended, counted from the start of the epoch after the last one
    /// in the file; changed under the writer's lock. Its epoch is `appended / EPOCH_ACTIONS`.
    appended: AtomicU64,
    /// `None`: reads use `writer`.
    readers: Option<r2d2::Pool<Readers>>,
}

/// Keeps each cached statement's plan whatever values are bound to it. Otherwise SQLite (built
/// with STAT4) prepares a statement on a table without rowid again each time the game number
/// bound to it changes: a tenth of the server's time under load went there.
fn stable_plans(conn: &Connection) -> Result<(), rusqlite::Error> {
    conn.set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG, true)
        .map(drop)
}

/// Checks an action inside the writer's transaction: `Ok` if it may be appended, or why not.
/// Only reads.
fn check_action(conn: &Connection, action: &NewAction<'_>) -> Result<(), StoreError> {
    let id = action.id;
    let finished: Option<bool> = conn
        .prepare_cached("SELECT finished FROM games WHERE id = ?1")?
        .query_row([id.0], |r| r.get(0))
        .optional()?;
    match finished {
        None => return Err(StoreError::UnknownGame(id)),
        Some(true) => return Err(StoreError::Finished(id)),
        Some(false) => {}
    }
    let actual = log_of(conn, id)?.actions;
    if actual != action.index {
        return Err(StoreError::WrongIndex {
            id,
            expected: action.index,
            actual,
        });
    }
    Ok(())
}

/// The two statements that append an action, taken once for a whole batch: taking each from
/// the cache for every action (looking its text up, then handing it back) cost about 4% of the
/// writer's time.
struct Appending<'c> {
    conn: &'c Connection,
    /// Counts the action in its game's log, if the game is not over and its log holds exactly
    /// the actions before it.
    count: CachedStatement<'c>,
    /// Writes the action's row.
    insert: CachedStatement<'c>,
}

impl<'c> Appending<'c> {
    fn new(conn: &'c Connection) -> Result<Appending<'c>, StoreError> {
        Ok(Appending {
            conn,
            count: conn.prepare_cached(
                "UPDATE logs SET actions = actions + 1, first_epoch = min(first_epoch, ?3),
                 last_epoch = max(last_epoch, ?3)
                 WHERE game_id = ?1 AND actions = ?2 AND finished = 0",
            )?,
            insert: conn.prepare_cached(INSERT_ACTION)?,
        })
    }

    /// Appends an action inside the writer's transaction, in the epoch of `appended` (then
    /// counted), if it may be: `Ok(Err(why))` when it is refused (nothing written), `Err` when
    /// a write failed. One statement counts it in its game's log only if it may be appended;
    /// the checks that say why run only for an action it refused.
    fn append(
        &mut self,
        appended: &AtomicU64,
        action: &NewAction<'_>,
    ) -> Result<Result<(), StoreError>, StoreError> {
        let id = action.id;
        let epoch = appended.load(Ordering::Relaxed) / EPOCH_ACTIONS;
        let counted = self
            .count
            .execute(params![id.0, action.index as i64, epoch as i64])?;
        if counted == 0 {
            return Ok(Err(check_action(self.conn, action).err().unwrap_or_else(
                || {
                    StoreError::Corrupt(format!(
                        "game {id}: its log did not take action {}",
                        action.index
                    ))
                },
            )));
        }
        appended.fetch_add(1, Ordering::Relaxed);
        insert_row(
            &mut self.insert,
            epoch,
            id,
            action.index,
            action.text,
            action.client_id,
        )?;
        if let Some(winners) = action.winners {
            mark_finished(self.conn, id, winners)?;
        }
        Ok(Ok(()))
    }
}

/// Marks game `id` over with its `winners`; `Ok(false)` if there is no such game.
fn mark_finished(conn: &Connection, id: GameId, winners: &[Seat]) -> Result<bool, StoreError> {
    let list: Vec<u8> = winners.iter().map(|s| s.0).collect();
    let text = serde_json::to_string(&list).expect("numbers serialize");
    let changed = conn
        .prepare_cached("UPDATE games SET finished = 1, winners = ?2 WHERE id = ?1")?
        .execute(params![id.0, text])?;
    // Its seats no longer count against anybody: who held them is forgotten.
    forget_holders(conn, id)?;
    Ok(changed > 0)
}

/// Forgets who held the seats of game `id`, and who made it.
fn forget_holders(conn: &Connection, id: GameId) -> Result<(), StoreError> {
    conn.prepare_cached(
        "UPDATE seats SET holder = NULL WHERE game_id = ?1 AND holder IS NOT NULL",
    )?
    .execute([id.0])?;
    conn.prepare_cached("UPDATE games SET maker = NULL WHERE id = ?1 AND maker IS NOT NULL")?
        .execute([id.0])?;
    Ok(())
}

/// The statement that writes an action's row.
const INSERT_ACTION: &str =
    "INSERT INTO actions (epoch, game_id, idx, text, client_id) VALUES (?1, ?2, ?3, ?4, ?5)";

/// Inserts action `idx` of game `id` in `epoch` with `insert` (a statement of [`INSERT_ACTION`]);
/// its game's log is the caller's to update.
fn insert_row(
    insert: &mut CachedStatement<'_>,
    epoch: u64,
    id: GameId,
    idx: usize,
    text: &str,
    client_id: Option<&str>,
) -> Result<(), StoreError> {
    insert.execute(params![epoch as i64, id.0, idx as i64, text, client_id])?;
    Ok(())
}

/// Starts the log of the new game `id` with the actions of its record, all in the current
/// epoch (`appended` counts them).
fn insert_log(
    tx: &Connection,
    appended: &AtomicU64,
    id: GameId,
    actions: &[String],
) -> Result<(), StoreError> {
    let epoch = appended.fetch_add(actions.len() as u64, Ordering::Relaxed) / EPOCH_ACTIONS;
    let mut insert = tx.prepare_cached(INSERT_ACTION)?;
    for (idx, text) in actions.iter().enumerate() {
        insert_row(&mut insert, epoch, id, idx, text, None)?;
    }
    tx.prepare_cached(
        "INSERT INTO logs (game_id, actions, first_epoch, last_epoch) VALUES (?1, ?2, ?3, ?3)",
    )?
    .execute(params![id.0, actions.len() as i64, epoch as i64])?;
    Ok(())
}

/// Opens the pool's read-only connections to a database file.
#[derive(Debug)]
struct Readers {
    path: PathBuf,
}

impl r2d2::ManageConnection for Readers {
    type Connection = Connection;
    type Error = rusqlite::Error;

    fn connect(&self) -> Result<Connection, rusqlite::Error> {
        // No CREATE: the writer made the file; a reader must not make another one if it went.
        let conn = Connection::open_with_flags(
            &self.path,
            OpenFlags::SQLITE_OPEN_READ_WRITE
                | OpenFlags::SQLITE_OPEN_URI
                | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        conn.busy_timeout(BUSY_TIMEOUT)?;
        stable_plans(&conn)?;
        conn.execute_batch("PRAGMA query_only = ON")?;
        Ok(conn)
    }

    fn is_valid(&self, conn: &mut Connection) -> Result<(), rusqlite::Error> {
        conn.execute_batch("")
    }

    fn has_broken(&self, conn: &mut Connection) -> bool {
        // A read that ends, even by a panic, rolls its transaction back; one still open here
        // would show the next reader an old snapshot, so the connection goes.
        !conn.is_autocommit()
    }
}

impl std::fmt::Debug for SqliteStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SqliteStore").finish_non_exhaustive()
    }
}

fn backend(e: rusqlite::Error) -> StoreError {
    StoreError::Backend(Box::new(e))
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        backend(e)
    }
}

fn pool_error(e: r2d2::Error) -> StoreError {
    StoreError::Backend(Box::new(e))
}

impl SqliteStore {
    /// How many read-only connections [`open`](SqliteStore::open) keeps.
    pub const DEFAULT_READERS: u32 = 4;

    /// Opens (creating it if needed) the database at `path`, or a private in-memory one for
    /// `:memory:`, and brings its schema up to date. Reads go through
    /// [`DEFAULT_READERS`](SqliteStore::DEFAULT_READERS) read-only connections.
    pub fn open(path: impl AsRef<Path>) -> Result<SqliteStore, StoreError> {
        SqliteStore::open_with_readers(path, SqliteStore::DEFAULT_READERS)
    }

    /// As [`open`](SqliteStore::open), with `readers` read-only connections: at most that
    /// many reads run at once, beside the writer; more wait for a free connection. With 0,
    /// reads share the writing connection (as they always do in an in-memory database).
    pub fn open_with_readers(
        path: impl AsRef<Path>,
        readers: u32,
    ) -> Result<SqliteStore, StoreError> {
        let path = path.as_ref();
        let conn = Connection::open(path)?;
        conn.busy_timeout(BUSY_TIMEOUT)?;
        // Room for every statement the writer keeps prepared (some thirty), so that none is
        // prepared again because others pushed it out.
        conn.set_prepared_statement_cache_capacity(64);
        stable_plans(&conn)?;
        // WAL: readers do not block the writer. FULL: a commit is on disk when it returns,
        // so an acknowledged action survives even a power cut, not only a process crash.
        let mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))?;
        if mode != "wal" && mode != "memory" {
            return Err(StoreError::Corrupt(format!(
                "cannot turn on the write-ahead log (journal mode `{mode}`)"
            )));
        }
        // Content cleared (a client's address, once its seat or game no longer counts) is
        // overwritten in its page, not left among the page's free bytes: at no cost in writes.
        conn.execute_batch(
            "PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA secure_delete = FAST;",
        )?;
        // SQLite's own name for the file is absolute, so the pool can reopen it whatever the
        // working directory; it is empty for an in-memory or temporary database.
        let file = match conn.path() {
            Some("") => None,
            Some(name) => Some(PathBuf::from(name)),
            None => Some(std::path::absolute(path).map_err(|e| StoreError::Backend(e.into()))?),
        };
        let mut store = SqliteStore {
            writer: Mutex::new(conn),
            appended: AtomicU64::new(0),
            readers: None,
        };
        // Before the readers open: they never see an old schema.
        store.migrate()?;
        // Appends start a new epoch: its pages hold only what this store writes.
        let next_epoch: i64 = store.writer().query_row(
            "SELECT COALESCE(MAX(epoch) + 1, 0) FROM actions",
            [],
            |r| r.get(0),
        )?;
        *store.appended.get_mut() = next_epoch as u64 * EPOCH_ACTIONS;
        if let Some(path) = file.filter(|_| readers > 0) {
            let pool = r2d2::Pool::builder()
                .max_size(readers)
                .test_on_check_out(false)
                // SQLite connections do not go stale: no reaping, no reopening.
                .idle_timeout(None)
                .max_lifetime(None)
                .connection_timeout(BUSY_TIMEOUT)
                .build(Readers { path })
                .map_err(pool_error)?;
            store.readers = Some(pool);
        }
        Ok(store)
    }

    /// The schema version of the open database (the number of migrations applied).
    pub fn schema_version(&self) -> Result<usize, StoreError> {
        let v: i64 = self
            .writer()
            .query_row("PRAGMA user_version", [], |r| r.get(0))?;
        Ok(v as usize)
    }

    fn migrate(&mut self) -> Result<(), StoreError> {
        let conn = self.writer.get_mut().unwrap_or_else(|e| e.into_inner());
        // IMMEDIATE: two processes opening a new file at once do not both migrate it.
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let applied: i64 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        let applied = applied as usize;
        if applied > MIGRATIONS.len() {
            return Err(StoreError::Corrupt(format!(
                "the database has schema version {applied}, newer than this build's {}",
                MIGRATIONS.len()
            )));
        }
        for (i, sql) in MIGRATIONS.iter().enumerate().skip(applied) {
            tx.execute_batch(sql)?;
            tx.execute_batch(&format!("PRAGMA user_version = {}", i + 1))?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Writes `batch` in one transaction: each write checked and made on its own (a refused
    /// one changes nothing and the others go on), then one commit. If the commit fails, every
    /// write of the batch fails.
    fn commit_batch(
        conn: &Connection,
        appended: &AtomicU64,
        batch: &[Write<'_>],
    ) -> Vec<Result<Written, StoreError>> {
        let mut results: Vec<Result<Written, StoreError>> = Vec::with_capacity(batch.len());
        // The transaction's statements are cached, like the others: preparing BEGIN and
        // COMMIT again for each batch costs as much as the checks.
        let committed = (|| -> Result<(), StoreError> {
            conn.prepare_cached("BEGIN IMMEDIATE")?.execute([])?;
            // No savepoint is needed for an action: a refused action's statement changed no
            // row, and the checks that say why only read. An action's two writes (its log's
            // count, its row) go in together or the batch fails whole: one without the other
            // would leave a log that does not load. A creation or a claim, rarer and made of
            // more statements, is undone alone if it fails.
            let mut appending = Appending::new(conn)?;
            for write in batch {
                results.push(match *write {
                    Write::Append(action) => appending
                        .append(appended, &action)?
                        .map(|()| Written::Appended),
                    Write::Create {
                        record,
                        seed_chosen,
                    } => apart(conn, || insert_game(conn, appended, record, seed_chosen))?
                        .map(Written::Created),
                    Write::Claim {
                        id,
                        seat,
                        token_hash,
                        holder,
                    } => apart(conn, || claim(conn, id, seat, token_hash, holder))?
                        .map(|()| Written::Claimed),
                });
            }
            drop(appending);
            conn.prepare_cached("COMMIT")?.execute([])?;
            Ok(())
        })();
        if committed.is_err() && !conn.is_autocommit() {
            // Nothing of a batch that failed to commit stays.
            let _ = conn.execute_batch("ROLLBACK");
        }
        match committed {
            Ok(()) => results,
            Err(e) => {
                let text = e.to_string();
                batch
                    .iter()
                    .map(|_| Err(StoreError::Backend(text.clone().into())))
                    .collect()
            }
        }
    }

    fn writer(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave a transaction half done (an uncommitted
        // transaction is rolled back when dropped), so the connection is still sound.
        self.writer.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs `f` in one read transaction, on a reading connection if the store has them: every
    /// query of `f` sees the database as of one moment.
    fn read<T>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        match &self.readers {
            Some(pool) => in_read_transaction(&mut *pool.get().map_err(pool_error)?, f),
            None => in_read_transaction(&mut self.writer(), f),
        }
    }
}

fn in_read_transaction<T>(
    conn: &mut Connection,
    f: impl FnOnce(&Connection) -> Result<T, StoreError>,
) -> Result<T, StoreError> {
    let tx = conn.transaction()?;
    let value = f(&tx)?;
    tx.finish()?;
    Ok(value)
}

fn seat_of(i: i64) -> Result<Seat, StoreError> {
    u8::try_from(i)
        .ok()
        .filter(|&s| (s as usize) < game::MAX_SEATS)
        .map(Seat)
        .ok_or_else(|| StoreError::Corrupt(format!("seat number {i}")))
}

fn winners_of(text: Option<String>) -> Result<Option<Vec<Seat>>, StoreError> {
    let Some(text) = text else { return Ok(None) };
    let seats: Vec<i64> = serde_json::from_str(&text)
        .map_err(|e| StoreError::Corrupt(format!("winners `{text}`: {e}")))?;
    seats
        .into_iter()
        .map(seat_of)
        .collect::<Result<_, _>>()
        .map(Some)
}

/// The game's columns, or `UnknownGame`.
struct GameRow {
    game: String,
    version: i64,
    config: String,
    seed: i64,
    created_at: String,
    finished: bool,
    winners: Option<String>,
    seed_chosen: bool,
    retired: bool,
}

fn game_row(conn: &Connection, id: GameId) -> Result<GameRow, StoreError> {
    conn.prepare_cached(
        "SELECT game, version, config, seed, created_at, finished, winners, seed_chosen, retired
         FROM games WHERE id = ?1",
    )?
    .query_row([id.0], |r| {
        Ok(GameRow {
            game: r.get(0)?,
            version: r.get(1)?,
            config: r.get(2)?,
            seed: r.get(3)?,
            created_at: r.get(4)?,
            finished: r.get(5)?,
            winners: r.get(6)?,
            seed_chosen: r.get(7)?,
            retired: r.get(8)?,
        })
    })
    .optional()?
    .ok_or(StoreError::UnknownGame(id))
}

fn seats_of(conn: &Connection, id: GameId) -> Result<Vec<StoredSeat>, StoreError> {
    read_seats(
        conn,
        "SELECT seat, player, token_hash, NULL FROM seats WHERE game_id = ?1 ORDER BY seat",
        id.0,
        &format!("game {id}"),
    )
}

/// The seats of game `id` with who holds each: the seat's holder, or in a campaign's game the
/// campaign seat's.
fn seats_and_holders_of(conn: &Connection, id: GameId) -> Result<Vec<StoredSeat>, StoreError> {
    read_seats(
        conn,
        "SELECT s.seat, s.player, s.token_hash,
                coalesce(s.holder, (SELECT cs.holder FROM campaign_games cg
                                    JOIN campaign_seats cs ON cs.campaign_id = cg.campaign_id
                                    WHERE cg.game_id = s.game_id AND cs.seat = s.seat))
         FROM seats s WHERE s.game_id = ?1 ORDER BY s.seat",
        id.0,
        &format!("game {id}"),
    )
}

/// The seats `sql` selects (seat, player, token hash, holder) for the game or campaign `id`, in
/// order; `owner` names it in errors.
fn read_seats(
    conn: &Connection,
    sql: &str,
    id: i64,
    owner: &str,
) -> Result<Vec<StoredSeat>, StoreError> {
    let mut stmt = conn.prepare_cached(sql)?;
    let rows = stmt.query_map([id], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, Option<Vec<u8>>>(2)?,
            r.get::<_, Option<String>>(3)?,
        ))
    })?;
    let mut seats = Vec::new();
    for row in rows {
        let (seat, player, hash, holder) = row?;
        if seat != seats.len() as i64 {
            return Err(StoreError::Corrupt(format!(
                "{owner}: seat {seat} out of order"
            )));
        }
        let token_hash = hash
            .map(|h| {
                <[u8; 32]>::try_from(h.as_slice())
                    .map(TokenHash)
                    .map_err(|_| StoreError::Corrupt(format!("{owner}: a token hash")))
            })
            .transpose()?;
        seats.push(StoredSeat {
            player,
            token_hash,
            holder,
        });
    }
    Ok(seats)
}

/// A game's log: its number of actions (the index of the next one) and the epochs they were
/// written in.
struct Log {
    actions: usize,
    epochs: std::ops::RangeInclusive<i64>,
}

fn log_of(conn: &Connection, id: GameId) -> Result<Log, StoreError> {
    let (actions, first, last): (i64, i64, i64) = conn
        .prepare_cached("SELECT actions, first_epoch, last_epoch FROM logs WHERE game_id = ?1")?
        .query_row([id.0], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .optional()?
        .ok_or_else(|| StoreError::Corrupt(format!("game {id}: no log of its actions")))?;
    Ok(Log {
        actions: actions as usize,
        epochs: first..=last,
    })
}

fn summary_of(conn: &Connection, id: GameId) -> Result<GameSummary, StoreError> {
    let row = game_row(conn, id)?;
    let seats: Vec<SeatSummary> = seats_of(conn, id)?
        .into_iter()
        .enumerate()
        .map(|(i, s)| SeatSummary {
            seat: Seat(i as u8),
            claimed: s.token_hash.is_some(),
            player: s.player,
        })
        .collect();
    let open = !row.finished && seats.iter().any(|s| s.player == HUMAN && !s.claimed);
    Ok(GameSummary {
        id,
        game: row.game,
        config: parse_config(id, &row.config)?,
        seats,
        created_at: row.created_at,
        actions: log_of(conn, id)?.actions,
        finished: row.finished,
        winners: winners_of(row.winners)?,
        open,
        seed_chosen: row.seed_chosen,
        retired: row.retired,
    })
}

fn parse_config(id: GameId, text: &str) -> Result<serde_json::Value, StoreError> {
    serde_json::from_str(text).map_err(|e| StoreError::Corrupt(format!("game {id}: config: {e}")))
}

/// The ids `sql` selects.
fn ids(
    conn: &Connection,
    sql: &str,
    params: impl rusqlite::Params,
) -> Result<Vec<i64>, StoreError> {
    let ids = conn
        .prepare_cached(sql)?
        .query_map(params, |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    Ok(ids)
}

/// Open games (see [`LobbyFilter::Open`]) numbered below `before`, newest first, at most
/// `limit`, read from the index `games_lobby`. A rematch is not among them: its seats are kept
/// for the players of the game it follows (the unary `+` keeps SQLite from reading the index of
/// rematches instead, where nearly every game has a NULL).
const OPEN_GAMES: &str = "SELECT id FROM games
    WHERE finished = 0 AND retired = 0 AND has_open_seats = 1 AND id < ?1
      AND created_at > strftime('%Y-%m-%dT%H:%M:%SZ', 'now', ?2)
      AND +rematch_of IS NULL
    ORDER BY id DESC LIMIT ?3";

/// The games still to be played, oldest first: not over, not retired; read from the index
/// `games_lobby`, which skips the retired games (the planner would rather read `games_by_finished`
/// in order and look each game's row up, retired ones too).
const UNFINISHED_GAMES: &str =
    "SELECT id FROM games INDEXED BY games_lobby WHERE finished = 0 AND retired = 0 ORDER BY id";

/// Games whose open seats expired (created longer ago than `?1`, as `-N seconds`) not yet
/// retired, at most `?2` of them; index `games_lobby`.
const RETIRE_EXPIRED: &str = "UPDATE games SET retired = 1 WHERE id IN (
    SELECT id FROM games
    WHERE finished = 0 AND retired = 0 AND has_open_seats = 1
      AND created_at <= strftime('%Y-%m-%dT%H:%M:%SZ', 'now', ?1)
    LIMIT ?2)
    RETURNING id";

/// The seats of games still to be played that a client holds, and who: index `seats_held`,
/// which holds those seats only.
const HELD_GAME_SEATS: &str = "SELECT s.holder, s.game_id, s.seat
    FROM seats s INDEXED BY seats_held JOIN games g ON g.id = s.game_id
    WHERE s.holder IS NOT NULL AND g.finished = 0 AND g.retired = 0";

/// The games of bots still to be played and who made them; index `games_made`.
const MADE_GAMES: &str = "SELECT maker, id FROM games INDEXED BY games_made
    WHERE maker IS NOT NULL AND finished = 0 AND retired = 0";

/// Games [`RETIRE_EXPIRED`] retires in one transaction: the writer's batches wait for no more.
const RETIRE_AT_ONCE: i64 = 500;

/// Playing games numbered below `before`, newest first, at most `limit`; index
/// `games_lobby` (no playing game is retired: `retired = 0` only lets the query use it).
const PLAYING_GAMES: &str = "SELECT id FROM games
    WHERE finished = 0 AND retired = 0 AND has_open_seats = 0 AND id < ?1
    ORDER BY id DESC LIMIT ?2";

/// The places in the lobby's order of the games of `query`'s page, and of one more game if
/// another page follows.
fn lobby_places(conn: &Connection, query: &LobbyQuery) -> Result<Vec<LobbyCursor>, StoreError> {
    let wanted = query.limit.max(1).saturating_add(1);
    let sql_limit = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
    let place = |open| {
        move |id| LobbyCursor {
            open,
            id: GameId(id),
        }
    };
    let mut places = Vec::new();
    let open_group = matches!(query.filter, LobbyFilter::Open | LobbyFilter::Unfinished);
    if open_group && query.after.is_none_or(|c| c.open) {
        let before = query.after.map_or(i64::MAX, |c| c.id.0);
        let ttl = query.open_seat_ttl.as_secs().min(MAX_OPEN_SEAT_TTL_SECS);
        let ids = ids(
            conn,
            OPEN_GAMES,
            params![before, format!("-{ttl} seconds"), sql_limit(wanted)],
        )?;
        places.extend(ids.into_iter().map(place(true)));
    }
    let playing_group = matches!(query.filter, LobbyFilter::Playing | LobbyFilter::Unfinished);
    if playing_group && places.len() < wanted {
        // After an open game, every playing game is still to come.
        let before = match query.after {
            Some(c) if !c.open => c.id.0,
            _ => i64::MAX,
        };
        let ids = ids(
            conn,
            PLAYING_GAMES,
            params![before, sql_limit(wanted - places.len())],
        )?;
        places.extend(ids.into_iter().map(place(false)));
    }
    Ok(places)
}

/// Runs `write` inside a savepoint of the writer's transaction: if it fails, what it wrote is
/// undone and the transaction goes on. `Err` only if the savepoint itself fails.
fn apart<T>(
    conn: &Connection,
    write: impl FnOnce() -> Result<T, StoreError>,
) -> Result<Result<T, StoreError>, StoreError> {
    conn.prepare_cached("SAVEPOINT apart")?.execute([])?;
    let result = write();
    if result.is_err() {
        conn.prepare_cached("ROLLBACK TO apart")?.execute([])?;
    }
    conn.prepare_cached("RELEASE apart")?.execute([])?;
    Ok(result)
}

/// Gives seat `seat` of game `id` to the holder of `token_hash` (the client `holder`, if
/// told), inside the caller's transaction, if it is a free human seat of a game not over nor
/// retired.
fn claim(
    conn: &Connection,
    id: GameId,
    seat: Seat,
    token_hash: &TokenHash,
    holder: Option<&str>,
) -> Result<(), StoreError> {
    let game = game_row(conn, id)?;
    if game.finished {
        return Err(StoreError::Finished(id));
    }
    if game.retired {
        return Err(StoreError::Retired(id));
    }
    if seat_row(conn, id, seat)?.1.is_some() {
        return Err(StoreError::SeatTaken { id, seat });
    }
    conn.prepare_cached(
        "UPDATE seats SET token_hash = ?3, holder = ?4 WHERE game_id = ?1 AND seat = ?2",
    )?
    .execute(params![
        id.0,
        seat.0 as i64,
        token_hash.0.as_slice(),
        holder
    ])?;
    conn.prepare_cached("UPDATE games SET open_seats = open_seats - 1 WHERE id = ?1")?
        .execute([id.0])?;
    Ok(())
}

/// A person's seat of game `id`: its player and the hash of its token, if claimed. Refused for a
/// seat the game does not have and for a bot's.
fn seat_row(
    conn: &Connection,
    id: GameId,
    seat: Seat,
) -> Result<(String, Option<Vec<u8>>), StoreError> {
    let row: Option<(String, Option<Vec<u8>>)> = conn
        .prepare_cached("SELECT player, token_hash FROM seats WHERE game_id = ?1 AND seat = ?2")?
        .query_row(params![id.0, seat.0 as i64], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    match row {
        None => Err(StoreError::UnknownSeat { id, seat }),
        Some((player, _)) if player != HUMAN => Err(StoreError::NotHuman { id, seat }),
        Some(row) => Ok(row),
    }
}

/// A game has 1 to [`game::MAX_SEATS`] seats.
fn check_players(record: &GameRecord) -> Result<(), StoreError> {
    if record.players.is_empty() || record.players.len() > game::MAX_SEATS {
        return Err(StoreError::Invalid(format!(
            "a game has 1 to {} seats, not {}",
            game::MAX_SEATS,
            record.players.len()
        )));
    }
    Ok(())
}

/// Inserts a new game, its seats and the actions its record holds, on `conn`, inside the
/// caller's transaction or savepoint, unless it has no seat or too many.
fn insert_game(
    conn: &Connection,
    appended: &AtomicU64,
    record: &GameRecord,
    seed_chosen: bool,
) -> Result<GameId, StoreError> {
    check_players(record)?;
    let open_seats = record.players.iter().filter(|p| *p == HUMAN).count();
    conn.prepare_cached(
        "INSERT INTO games (game, version, config, seed, seed_chosen, open_seats)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![
        record.game,
        record.version,
        record.config.to_string(),
        record.seed as i64,
        seed_chosen,
        open_seats as i64,
    ])?;
    let id = GameId(conn.last_insert_rowid());
    let mut seat_row =
        conn.prepare_cached("INSERT INTO seats (game_id, seat, player) VALUES (?1, ?2, ?3)")?;
    for (seat, player) in record.players.iter().enumerate() {
        seat_row.execute(params![id.0, seat as i64, player])?;
    }
    insert_log(conn, appended, id, &record.actions)?;
    Ok(id)
}

impl Store for SqliteStore {
    fn create(&self, record: &GameRecord, seed_chosen: bool) -> Result<GameId, StoreError> {
        let mut conn = self.writer();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let id = insert_game(&tx, &self.appended, record, seed_chosen)?;
        tx.commit()?;
        Ok(id)
    }

    fn create_rematch(
        &self,
        of: GameId,
        record: &GameRecord,
    ) -> Result<(GameId, bool), StoreError> {
        let mut conn = self.writer();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        if !game_row(&tx, of)?.finished {
            return Err(StoreError::Invalid(format!("game {} is not over", of.0)));
        }
        let existing: Option<i64> = tx
            .query_row("SELECT id FROM games WHERE rematch_of = ?1", [of.0], |r| {
                r.get(0)
            })
            .optional()?;
        if let Some(id) = existing {
            return Ok((GameId(id), false));
        }
        let id = insert_game(&tx, &self.appended, record, false)?;
        tx.execute(
            "UPDATE games SET rematch_of = ?1 WHERE id = ?2",
            params![of.0, id.0],
        )?;
        tx.commit()?;
        Ok((id, true))
    }

    fn rematch(&self, of: GameId) -> Result<Option<GameId>, StoreError> {
        self.read(|tx| {
            Ok(tx
                .prepare_cached("SELECT id FROM games WHERE rematch_of = ?1")?
                .query_row([of.0], |r| r.get(0))
                .optional()?
                .map(GameId))
        })
    }

    fn rematch_of(&self, id: GameId) -> Result<Option<GameId>, StoreError> {
        self.read(|tx| {
            Ok(tx
                .prepare_cached("SELECT rematch_of FROM games WHERE id = ?1")?
                .query_row([id.0], |r| r.get::<_, Option<i64>>(0))
                .optional()?
                .flatten()
                .map(GameId))
        })
    }

    fn load(&self, id: GameId) -> Result<StoredGame, StoreError> {
        // One read transaction: the game, its seats and its log as of one moment.
        let (row, seats, actions, client_ids) = self.read(|tx| {
            let row = game_row(tx, id)?;
            let seats = seats_and_holders_of(tx, id)?;
            let mut actions = Vec::new();
            let mut client_ids = Vec::new();
            let log = log_of(tx, id)?;
            let mut stmt = tx.prepare_cached(
                "SELECT idx, text, client_id FROM actions WHERE epoch = ?1 AND game_id = ?2",
            )?;
            let mut rows = Vec::with_capacity(log.actions);
            for epoch in log.epochs {
                let epoch = stmt.query_map([epoch, id.0], |r| {
                    Ok((
                        r.get::<_, i64>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, Option<String>>(2)?,
                    ))
                })?;
                for row in epoch {
                    rows.push(row?);
                }
            }
            // Epochs follow each other in a game's log, except when two stores (processes)
            // append to one file: each counts its own.
            rows.sort_unstable_by_key(|row| row.0);
            for (idx, text, client_id) in rows {
                if idx != actions.len() as i64 {
                    return Err(StoreError::Corrupt(format!(
                        "game {id}: action {idx} follows action {}",
                        actions.len() as i64 - 1
                    )));
                }
                actions.push(text);
                client_ids.push(client_id);
            }
            if actions.len() != log.actions {
                return Err(StoreError::Corrupt(format!(
                    "game {id}: {} actions where its log counts {}",
                    actions.len(),
                    log.actions
                )));
            }
            Ok((row, seats, actions, client_ids))
        })?;
        let version = u32::try_from(row.version)
            .map_err(|_| StoreError::Corrupt(format!("game {id}: record version")))?;
        Ok(StoredGame {
            id,
            record: GameRecord {
                version,
                game: row.game,
                config: parse_config(id, &row.config)?,
                seed: row.seed as u64,
                actions,
                players: seats.iter().map(|s| s.player.clone()).collect(),
                cards: None,
            },
            client_ids,
            seats,
            created_at: row.created_at,
            winners: winners_of(row.winners)?,
        })
    }

    fn summary(&self, id: GameId) -> Result<GameSummary, StoreError> {
        self.read(|tx| summary_of(tx, id))
    }

    fn append_action(
        &self,
        id: GameId,
        expected_index: usize,
        text: &str,
        client_id: Option<&str>,
    ) -> Result<(), StoreError> {
        let action = NewAction {
            id,
            index: expected_index,
            text,
            client_id,
            winners: None,
        };
        self.append_actions(&[action])
            .pop()
            .expect("one result an action")
    }

    fn append_actions(&self, actions: &[NewAction<'_>]) -> Vec<Result<(), StoreError>> {
        let writes: Vec<Write<'_>> = actions.iter().map(|&a| Write::Append(a)).collect();
        SqliteStore::commit_batch(&self.writer(), &self.appended, &writes)
            .into_iter()
            .map(|r| r.map(|_| ()))
            .collect()
    }

    fn write_batch(&self, writes: &[Write<'_>]) -> Vec<Result<Written, StoreError>> {
        SqliteStore::commit_batch(&self.writer(), &self.appended, writes)
    }

    fn claim_seat(&self, id: GameId, seat: Seat, token_hash: &TokenHash) -> Result<(), StoreError> {
        let mut conn = self.writer();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        claim(&tx, id, seat, token_hash, None)?;
        tx.commit()?;
        Ok(())
    }

    fn leave_seat(&self, id: GameId, seat: Seat, player: &str) -> Result<(), StoreError> {
        if player == HUMAN {
            return Err(StoreError::Invalid(format!(
                "a seat left is handed to a bot, not to `{HUMAN}`"
            )));
        }
        let mut conn = self.writer();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        if game_row(&tx, id)?.finished {
            return Err(StoreError::Finished(id));
        }
        if seat_row(&tx, id, seat)?.1.is_none() {
            return Err(StoreError::Invalid(format!(
                "nobody holds seat {seat} of game {}: there is nobody to leave it",
                id.0
            )));
        }
        tx.prepare_cached(
            "UPDATE seats SET player = ?3, token_hash = NULL, holder = NULL
             WHERE game_id = ?1 AND seat = ?2",
        )?
        .execute(params![id.0, seat.0 as i64, player])?;
        tx.commit()?;
        Ok(())
    }

    fn retire_expired(&self, open_seat_ttl: Duration) -> Result<usize, StoreError> {
        // Rounded up to the second: never retired before its seats expired.
        let ttl = open_seat_ttl
            .as_millis()
            .div_ceil(1000)
            .min(u128::from(MAX_OPEN_SEAT_TTL_SECS));
        let mut retired = 0;
        loop {
            // One short transaction at a time, the writer's lock given back between them.
            let mut conn = self.writer();
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let ids = ids(
                &tx,
                RETIRE_EXPIRED,
                params![format!("-{ttl} seconds"), RETIRE_AT_ONCE],
            )?;
            for &id in &ids {
                forget_holders(&tx, GameId(id))?;
            }
            tx.commit()?;
            let n = ids.len();
            retired += n;
            if (n as i64) < RETIRE_AT_ONCE {
                return Ok(retired);
            }
        }
    }

    fn holdings(&self) -> Result<Vec<Holding>, StoreError> {
        self.read(|tx| {
            let mut held: Vec<Holding> = tx
                .prepare_cached(HELD_GAME_SEATS)?
                .query_map([], |r| {
                    Ok(Holding {
                        holder: r.get(0)?,
                        seat: HeldSeat::Game(GameId(r.get(1)?), Seat(r.get(2)?)),
                    })
                })?
                .collect::<Result<_, _>>()?;
            let campaigns = tx
                .prepare_cached(
                    "SELECT holder, campaign_id, seat FROM campaign_seats WHERE holder IS NOT NULL",
                )?
                .query_map([], |r| {
                    Ok(Holding {
                        holder: r.get(0)?,
                        seat: HeldSeat::Campaign(CampaignId(r.get(1)?), Seat(r.get(2)?)),
                    })
                })?
                .collect::<Result<Vec<_>, _>>()?;
            held.extend(campaigns);
            Ok(held)
        })
    }

    fn made_by(&self, id: GameId, maker: &str) -> Result<(), StoreError> {
        let conn = self.writer();
        let changed = conn
            .prepare_cached(
                "UPDATE games SET maker = ?2 WHERE id = ?1 AND finished = 0 AND retired = 0",
            )?
            .execute(params![id.0, maker])?;
        if changed == 0 {
            // No such game, or one that no longer counts: said which.
            let row = game_row(&conn, id)?;
            if row.finished {
                return Err(StoreError::Finished(id));
            }
            return Err(StoreError::Retired(id));
        }
        Ok(())
    }

    fn made_games(&self) -> Result<Vec<MadeGame>, StoreError> {
        self.read(|tx| {
            tx.prepare_cached(MADE_GAMES)?
                .query_map([], |r| {
                    Ok(MadeGame {
                        maker: r.get(0)?,
                        id: GameId(r.get(1)?),
                    })
                })?
                .collect::<Result<_, _>>()
                .map_err(StoreError::from)
        })
    }

    fn forget_holders(&self, age: Duration) -> Result<usize, StoreError> {
        let age = format!("-{} seconds", age.as_secs().min(MAX_OPEN_SEAT_TTL_SECS));
        let mut conn = self.writer();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let mut forgotten = tx
            .prepare_cached(
                "UPDATE seats INDEXED BY seats_held SET holder = NULL
                 WHERE holder IS NOT NULL
                   AND (SELECT created_at FROM games WHERE id = seats.game_id)
                       <= strftime('%Y-%m-%dT%H:%M:%SZ', 'now', ?1)",
            )?
            .execute([&age])?;
        forgotten += tx
            .prepare_cached(
                "UPDATE games INDEXED BY games_made SET maker = NULL
                 WHERE maker IS NOT NULL
                   AND created_at <= strftime('%Y-%m-%dT%H:%M:%SZ', 'now', ?1)",
            )?
            .execute([&age])?;
        forgotten += tx
            .prepare_cached(
                "UPDATE campaign_seats SET holder = NULL
                 WHERE holder IS NOT NULL
                   AND (SELECT created_at FROM campaigns WHERE id = campaign_seats.campaign_id)
                       <= strftime('%Y-%m-%dT%H:%M:%SZ', 'now', ?1)",
            )?
            .execute([&age])?;
        tx.commit()?;
        Ok(forgotten)
    }

    fn forget_campaign_holders(&self, id: CampaignId) -> Result<usize, StoreError> {
        let conn = self.writer();
        let forgotten = conn
            .prepare_cached(
                "UPDATE campaign_seats SET holder = NULL
                 WHERE campaign_id = ?1 AND holder IS NOT NULL",
            )?
            .execute([id.0])?;
        Ok(forgotten)
    }

    fn finish(&self, id: GameId, winners: &[Seat]) -> Result<(), StoreError> {
        if !mark_finished(&self.writer(), id, winners)? {
            return Err(StoreError::UnknownGame(id));
        }
        Ok(())
    }

    fn list_unfinished(&self) -> Result<Vec<GameSummary>, StoreError> {
        self.read(|tx| {
            ids(tx, UNFINISHED_GAMES, [])?
                .into_iter()
                .map(|id| summary_of(tx, GameId(id)))
                .collect()
        })
    }

    fn lobby(&self, query: &LobbyQuery) -> Result<LobbyPage, StoreError> {
        self.read(|tx| {
            let mut places = lobby_places(tx, query)?;
            let limit = query.limit.max(1);
            // The game after the page's last tells that another page follows.
            let next = (places.len() > limit).then(|| {
                places.truncate(limit);
                places[limit - 1]
            });
            let games = places
                .into_iter()
                .map(|place| summary_of(tx, place.id))
                .collect::<Result<_, _>>()?;
            Ok(LobbyPage { games, next })
        })
    }

    fn create_campaign(
        &self,
        save: &serde_json::Value,
        players: &[String],
        seed_chosen: bool,
    ) -> Result<CampaignId, StoreError> {
        if players.is_empty() || players.len() > game::MAX_SEATS {
            return Err(StoreError::Invalid(format!(
                "a campaign has 1 to {} seats, not {}",
                game::MAX_SEATS,
                players.len()
            )));
        }
        let mut conn = self.writer();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        tx.execute(
            "INSERT INTO campaigns (save, seed_chosen) VALUES (?1, ?2)",
            params![save.to_string(), seed_chosen],
        )?;
        let id = CampaignId(tx.last_insert_rowid());
        for (seat, player) in players.iter().enumerate() {
            tx.execute(
                "INSERT INTO campaign_seats (campaign_id, seat, player) VALUES (?1, ?2, ?3)",
                params![id.0, seat as i64, player],
            )?;
        }
        tx.commit()?;
        Ok(id)
    }

    fn load_campaign(&self, id: CampaignId) -> Result<StoredCampaign, StoreError> {
        self.read(|tx| campaign_of_id(tx, id))
    }

    fn update_campaign(
        &self,
        id: CampaignId,
        save: &serde_json::Value,
        revision: u64,
    ) -> Result<bool, StoreError> {
        let conn = self.writer();
        let changed = conn.execute(
            "UPDATE campaigns SET save = ?2, revision = revision + 1
             WHERE id = ?1 AND revision = ?3",
            params![id.0, save.to_string(), revision as i64],
        )?;
        if changed == 0 {
            let known = conn
                .prepare_cached("SELECT 1 FROM campaigns WHERE id = ?1")?
                .exists([id.0])?;
            return if known {
                Ok(false)
            } else {
                Err(StoreError::UnknownCampaign(id))
            };
        }
        Ok(true)
    }

    fn claim_campaign_seat(
        &self,
        id: CampaignId,
        seat: Seat,
        token_hash: &TokenHash,
        holder: Option<&str>,
    ) -> Result<(), StoreError> {
        let mut conn = self.writer();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let campaign = campaign_of_id(&tx, id)?;
        match campaign.seats.get(seat.index()) {
            None => return Err(StoreError::UnknownCampaignSeat { id, seat }),
            Some(s) if !s.is_human() => return Err(StoreError::NotHumanInCampaign { id, seat }),
            Some(s) if s.token_hash.is_some() => {
                return Err(StoreError::CampaignSeatTaken { id, seat });
            }
            Some(_) => {}
        }
        tx.execute(
            "UPDATE campaign_seats SET token_hash = ?3, holder = ?4
             WHERE campaign_id = ?1 AND seat = ?2",
            params![id.0, seat.0 as i64, token_hash.0.as_slice(), holder],
        )?;
        for game in campaign.games {
            if game_row(&tx, game)?.finished {
                continue;
            }
            let changed = tx.execute(
                "UPDATE seats SET token_hash = ?3
                 WHERE game_id = ?1 AND seat = ?2 AND token_hash IS NULL",
                params![game.0, seat.0 as i64, token_hash.0.as_slice()],
            )?;
            tx.execute(
                "UPDATE games SET open_seats = open_seats - ?2 WHERE id = ?1",
                params![game.0, changed as i64],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    fn add_campaign_game(
        &self,
        id: CampaignId,
        number: usize,
        record: &GameRecord,
        save: &serde_json::Value,
    ) -> Result<GameId, StoreError> {
        let mut conn = self.writer();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let campaign = campaign_of_id(&tx, id)?;
        if campaign.games.len() != number {
            return Err(StoreError::WrongCampaignGame {
                id,
                expected: number,
                actual: campaign.games.len(),
            });
        }
        if record.players.len() != campaign.seats.len()
            || record
                .players
                .iter()
                .zip(&campaign.seats)
                .any(|(p, s)| *p != s.player)
        {
            return Err(StoreError::Invalid(format!(
                "a game of campaign {id} is played by the campaign's players"
            )));
        }
        let open_seats = campaign
            .seats
            .iter()
            .filter(|s| s.is_human() && s.token_hash.is_none())
            .count();
        tx.execute(
            "INSERT INTO games (game, version, config, seed, seed_chosen, open_seats)
             VALUES (?1, ?2, ?3, ?4, (SELECT seed_chosen FROM campaigns WHERE id = ?6), ?5)",
            params![
                record.game,
                record.version,
                record.config.to_string(),
                record.seed as i64,
                open_seats as i64,
                id.0,
            ],
        )?;
        let game = GameId(tx.last_insert_rowid());
        for (seat, s) in campaign.seats.iter().enumerate() {
            tx.execute(
                "INSERT INTO seats (game_id, seat, player, token_hash) VALUES (?1, ?2, ?3, ?4)",
                params![
                    game.0,
                    seat as i64,
                    s.player,
                    s.token_hash.as_ref().map(|h| h.0.to_vec())
                ],
            )?;
        }
        insert_log(&tx, &self.appended, game, &record.actions)?;
        tx.execute(
            "INSERT INTO campaign_games (campaign_id, number, game_id) VALUES (?1, ?2, ?3)",
            params![id.0, number as i64, game.0],
        )?;
        tx.execute(
            "UPDATE campaigns SET save = ?2, revision = revision + 1 WHERE id = ?1",
            params![id.0, save.to_string()],
        )?;
        tx.commit()?;
        Ok(game)
    }

    fn campaign_of(&self, game: GameId) -> Result<Option<CampaignId>, StoreError> {
        self.read(|tx| {
            Ok(tx
                .prepare_cached("SELECT campaign_id FROM campaign_games WHERE game_id = ?1")?
                .query_row([game.0], |r| r.get(0))
                .optional()?
                .map(CampaignId))
        })
    }
}

/// A whole campaign, or `UnknownCampaign`.
fn campaign_of_id(conn: &Connection, id: CampaignId) -> Result<StoredCampaign, StoreError> {
    let (save, created_at, revision): (String, String, i64) = conn
        .prepare_cached("SELECT save, created_at, revision FROM campaigns WHERE id = ?1")?
        .query_row([id.0], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .optional()?
        .ok_or(StoreError::UnknownCampaign(id))?;
    let save = serde_json::from_str(&save)
        .map_err(|e| StoreError::Corrupt(format!("campaign {id}: save: {e}")))?;
    let seats = read_seats(
        conn,
        "SELECT seat, player, token_hash, holder FROM campaign_seats WHERE campaign_id = ?1
         ORDER BY seat",
        id.0,
        &format!("campaign {id}"),
    )?;
    let mut games = Vec::new();
    let mut stmt = conn.prepare_cached(
        "SELECT number, game_id FROM campaign_games WHERE campaign_id = ?1 ORDER BY number",
    )?;
    let rows = stmt.query_map([id.0], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?)))?;
    for row in rows {
        let (number, game) = row?;
        if number != games.len() as i64 {
            return Err(StoreError::Corrupt(format!(
                "campaign {id}: game number {number} out of order"
            )));
        }
        games.push(GameId(game));
    }
    Ok(StoredCampaign {
        id,
        save,
        seats,
        games,
        created_at,
        revision: revision as u64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SQLite's plan for `sql`, one step a line.
    fn plan(conn: &Connection, sql: &str, params: impl rusqlite::Params) -> String {
        let mut stmt = conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}")).unwrap();
        let rows = stmt.query_map(params, |r| r.get::<_, String>(3)).unwrap();
        rows.map(Result::unwrap).collect::<Vec<_>>().join("\n")
    }

    #[test]
    fn what_the_writer_clears_is_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        let store = SqliteStore::open(dir.path().join("games.sqlite")).unwrap();
        let mode: i64 = store
            .writer()
            .query_row("PRAGMA secure_delete", [], |r| r.get(0))
            .unwrap();
        // 2: FAST, overwritten whenever that costs no more writes.
        assert_eq!(mode, 2);
    }

    #[test]
    fn lobby_queries_read_their_index_and_sort_nothing() {
        let store = SqliteStore::open(":memory:").unwrap();
        let conn = store.writer();
        let open = plan(&conn, OPEN_GAMES, params![i64::MAX, "-3600 seconds", 51]);
        assert_eq!(
            open,
            "SEARCH games USING INDEX games_lobby (finished=? AND retired=? AND has_open_seats=? AND id<?)"
        );
        // The games resumed at start, and those retired, read past the retired ones.
        assert_eq!(
            plan(&conn, UNFINISHED_GAMES, []),
            "SEARCH games USING COVERING INDEX games_lobby (finished=? AND retired=?)\n\
             USE TEMP B-TREE FOR ORDER BY"
        );
        assert_eq!(
            plan(&conn, RETIRE_EXPIRED, params!["-3600 seconds", 500]),
            "SEARCH games USING INTEGER PRIMARY KEY (rowid=?)\n\
             LIST SUBQUERY 1\n\
             SEARCH games USING INDEX games_lobby (finished=? AND retired=? AND has_open_seats=?)"
        );
        // The games of bots made, read at start among every game.
        assert_eq!(
            plan(&conn, MADE_GAMES, []),
            "SCAN games USING INDEX games_made"
        );
        let playing = plan(&conn, PLAYING_GAMES, params![i64::MAX, 51]);
        assert_eq!(
            playing,
            "SEARCH games USING INDEX games_lobby (finished=? AND retired=? AND has_open_seats=? AND id<?)"
        );
    }

    #[test]
    fn statements_keep_their_plan_whatever_game_they_read() {
        use rusqlite::StatementStatus;

        let dir = tempfile::tempdir().unwrap();
        let store = SqliteStore::open(dir.path().join("games.sqlite")).unwrap();
        let record = |players: &[&str]| GameRecord {
            version: game::record::RECORD_VERSION,
            game: "starrealms".into(),
            config: serde_json::json!({}),
            seed: 1,
            actions: vec![],
            players: players.iter().map(|p| p.to_string()).collect(),
            cards: None,
        };
        let a = store.create(&record(&[HUMAN, "random"]), false).unwrap();
        let b = store.create(&record(&[HUMAN, "random"]), false).unwrap();
        let conn = store.writer();
        // The two statements that read a game's log, as `load` runs them.
        let mut log = conn
            .prepare("SELECT actions, first_epoch, last_epoch FROM logs WHERE game_id = ?1")
            .unwrap();
        let mut epoch = conn
            .prepare("SELECT idx, text, client_id FROM actions WHERE epoch = ?1 AND game_id = ?2")
            .unwrap();
        for id in [a, b, a, b] {
            let (actions, first): (i64, i64) = log
                .query_row([id.0], |r| Ok((r.get(0)?, r.get(1)?)))
                .unwrap();
            assert_eq!(actions, 0);
            assert!(
                epoch
                    .query([first, id.0])
                    .unwrap()
                    .next()
                    .unwrap()
                    .is_none()
            );
        }
        assert_eq!(log.get_status(StatementStatus::RePrepare), 0);
        assert_eq!(epoch.get_status(StatementStatus::RePrepare), 0);
    }

    #[test]
    fn a_read_that_panics_leaves_the_pool_usable() {
        let dir = tempfile::tempdir().unwrap();
        let store = SqliteStore::open_with_readers(dir.path().join("games.sqlite"), 1).unwrap();
        let id = store
            .create(
                &GameRecord {
                    version: game::record::RECORD_VERSION,
                    game: "starrealms".into(),
                    config: serde_json::json!({}),
                    seed: 1,
                    actions: vec![],
                    players: vec![HUMAN.into(), "random".into()],
                    cards: None,
                },
                false,
            )
            .unwrap();
        let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            store.read(|tx| -> Result<(), StoreError> {
                game_row(tx, id)?;
                panic!("a bug in a read");
            })
        }));
        assert!(panicked.is_err());
        // The one reading connection came back, with no transaction left open on it.
        store.append_action(id, 0, "play scout", None).unwrap();
        for _ in 0..3 {
            assert_eq!(store.summary(id).unwrap().actions, 1);
        }
    }
}
