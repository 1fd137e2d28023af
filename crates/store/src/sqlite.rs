//! The SQLite store: one file (or `:memory:`), write-ahead log, full synchronous commits, the
//! schema migrations embedded and applied at open.

use std::path::Path;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use game::{GameRecord, Seat};
use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};

use crate::{
    GameId, GameSummary, HUMAN, SeatSummary, Store, StoreError, StoredGame, StoredSeat, TokenHash,
};

/// The schema, one migration a step; `PRAGMA user_version` counts those applied. Never edit a
/// released step: add one.
const MIGRATIONS: &[&str] = &[include_str!("../migrations/0001_init.sql")];

/// How long a writer waits for another connection's lock before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// Games in an SQLite database.
///
/// One connection, behind a mutex: calls from several threads are serialized here, and several
/// `SqliteStore`s (or processes) on one file are serialized by SQLite's own locking.
pub struct SqliteStore {
    conn: Mutex<Connection>,
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

impl SqliteStore {
    /// Opens (creating it if needed) the database at `path`, or a private in-memory one for
    /// `:memory:`, and brings its schema up to date.
    pub fn open(path: impl AsRef<Path>) -> Result<SqliteStore, StoreError> {
        let conn = Connection::open(path.as_ref())?;
        conn.busy_timeout(BUSY_TIMEOUT)?;
        // WAL: readers do not block the writer. FULL: a commit is on disk when it returns,
        // so an acknowledged action survives even a power cut, not only a process crash.
        let mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))?;
        if mode != "wal" && mode != "memory" {
            return Err(StoreError::Corrupt(format!(
                "cannot turn on the write-ahead log (journal mode `{mode}`)"
            )));
        }
        conn.execute_batch("PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;")?;
        let mut store = SqliteStore {
            conn: Mutex::new(conn),
        };
        store.migrate()?;
        Ok(store)
    }

    /// The schema version of the open database (the number of migrations applied).
    pub fn schema_version(&self) -> Result<usize, StoreError> {
        let v: i64 = self
            .conn()
            .query_row("PRAGMA user_version", [], |r| r.get(0))?;
        Ok(v as usize)
    }

    fn migrate(&mut self) -> Result<(), StoreError> {
        let conn = self.conn.get_mut().unwrap_or_else(|e| e.into_inner());
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

    fn conn(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave a transaction half done (an uncommitted
        // transaction is rolled back when dropped), so the connection is still sound.
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }
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
}

fn game_row(conn: &Connection, id: GameId) -> Result<GameRow, StoreError> {
    conn.query_row(
        "SELECT game, version, config, seed, created_at, finished, winners FROM games WHERE id = ?1",
        [id.0],
        |r| {
            Ok(GameRow {
                game: r.get(0)?,
                version: r.get(1)?,
                config: r.get(2)?,
                seed: r.get(3)?,
                created_at: r.get(4)?,
                finished: r.get(5)?,
                winners: r.get(6)?,
            })
        },
    )
    .optional()?
    .ok_or(StoreError::UnknownGame(id))
}

fn seats_of(conn: &Connection, id: GameId) -> Result<Vec<StoredSeat>, StoreError> {
    let mut stmt = conn.prepare_cached(
        "SELECT seat, player, token_hash FROM seats WHERE game_id = ?1 ORDER BY seat",
    )?;
    let rows = stmt.query_map([id.0], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, Option<Vec<u8>>>(2)?,
        ))
    })?;
    let mut seats = Vec::new();
    for row in rows {
        let (seat, player, hash) = row?;
        if seat != seats.len() as i64 {
            return Err(StoreError::Corrupt(format!(
                "game {id}: seat {seat} out of order"
            )));
        }
        let token_hash = hash
            .map(|h| {
                <[u8; 32]>::try_from(h.as_slice())
                    .map(TokenHash)
                    .map_err(|_| StoreError::Corrupt(format!("game {id}: a token hash")))
            })
            .transpose()?;
        seats.push(StoredSeat { player, token_hash });
    }
    Ok(seats)
}

/// How many actions the log of `id` holds (the index of the next one).
fn next_index(conn: &Connection, id: GameId) -> Result<usize, StoreError> {
    let n: i64 = conn.query_row(
        "SELECT COALESCE(MAX(idx) + 1, 0) FROM actions WHERE game_id = ?1",
        [id.0],
        |r| r.get(0),
    )?;
    Ok(n as usize)
}

fn summary_of(conn: &Connection, id: GameId) -> Result<GameSummary, StoreError> {
    let row = game_row(conn, id)?;
    let seats = seats_of(conn, id)?
        .into_iter()
        .enumerate()
        .map(|(i, s)| SeatSummary {
            seat: Seat(i as u8),
            claimed: s.token_hash.is_some(),
            player: s.player,
        })
        .collect();
    Ok(GameSummary {
        id,
        game: row.game,
        config: parse_config(id, &row.config)?,
        seats,
        created_at: row.created_at,
        actions: next_index(conn, id)?,
        finished: row.finished,
        winners: winners_of(row.winners)?,
    })
}

fn parse_config(id: GameId, text: &str) -> Result<serde_json::Value, StoreError> {
    serde_json::from_str(text).map_err(|e| StoreError::Corrupt(format!("game {id}: config: {e}")))
}

fn summaries(
    conn: &Connection,
    sql: &str,
    params: impl rusqlite::Params,
) -> Result<Vec<GameSummary>, StoreError> {
    let ids: Vec<i64> = conn
        .prepare_cached(sql)?
        .query_map(params, |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    ids.into_iter()
        .map(|id| summary_of(conn, GameId(id)))
        .collect()
}

impl Store for SqliteStore {
    fn create(&self, record: &GameRecord) -> Result<GameId, StoreError> {
        if record.players.is_empty() || record.players.len() > game::MAX_SEATS {
            return Err(StoreError::Invalid(format!(
                "a game has 1 to {} seats, not {}",
                game::MAX_SEATS,
                record.players.len()
            )));
        }
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        tx.execute(
            "INSERT INTO games (game, version, config, seed) VALUES (?1, ?2, ?3, ?4)",
            params![
                record.game,
                record.version,
                record.config.to_string(),
                record.seed as i64
            ],
        )?;
        let id = GameId(tx.last_insert_rowid());
        for (seat, player) in record.players.iter().enumerate() {
            tx.execute(
                "INSERT INTO seats (game_id, seat, player) VALUES (?1, ?2, ?3)",
                params![id.0, seat as i64, player],
            )?;
        }
        for (idx, text) in record.actions.iter().enumerate() {
            tx.execute(
                "INSERT INTO actions (game_id, idx, text) VALUES (?1, ?2, ?3)",
                params![id.0, idx as i64, text],
            )?;
        }
        tx.commit()?;
        Ok(id)
    }

    fn load(&self, id: GameId) -> Result<StoredGame, StoreError> {
        let mut conn = self.conn();
        // One read transaction: the game, its seats and its log as of one moment.
        let tx = conn.transaction()?;
        let row = game_row(&tx, id)?;
        let seats = seats_of(&tx, id)?;
        let mut actions = Vec::new();
        let mut client_ids = Vec::new();
        {
            let mut stmt = tx.prepare_cached(
                "SELECT idx, text, client_id FROM actions WHERE game_id = ?1 ORDER BY idx",
            )?;
            let rows = stmt.query_map([id.0], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, Option<String>>(2)?,
                ))
            })?;
            for row in rows {
                let (idx, text, client_id) = row?;
                if idx != actions.len() as i64 {
                    return Err(StoreError::Corrupt(format!(
                        "game {id}: action {idx} follows action {}",
                        actions.len() as i64 - 1
                    )));
                }
                actions.push(text);
                client_ids.push(client_id);
            }
        }
        tx.finish()?;
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
            },
            client_ids,
            seats,
            created_at: row.created_at,
            winners: winners_of(row.winners)?,
        })
    }

    fn summary(&self, id: GameId) -> Result<GameSummary, StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let summary = summary_of(&tx, id)?;
        tx.finish()?;
        Ok(summary)
    }

    fn append_action(
        &self,
        id: GameId,
        expected_index: usize,
        text: &str,
        client_id: Option<&str>,
    ) -> Result<(), StoreError> {
        let mut conn = self.conn();
        // IMMEDIATE takes the write lock first, so the check and the insert see one log.
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        if game_row(&tx, id)?.finished {
            return Err(StoreError::Finished(id));
        }
        let actual = next_index(&tx, id)?;
        if actual != expected_index {
            return Err(StoreError::WrongIndex {
                id,
                expected: expected_index,
                actual,
            });
        }
        tx.execute(
            "INSERT INTO actions (game_id, idx, text, client_id) VALUES (?1, ?2, ?3, ?4)",
            params![id.0, expected_index as i64, text, client_id],
        )?;
        tx.commit()?;
        Ok(())
    }

    fn claim_seat(&self, id: GameId, seat: Seat, token_hash: &TokenHash) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        if game_row(&tx, id)?.finished {
            return Err(StoreError::Finished(id));
        }
        let current: Option<(String, Option<Vec<u8>>)> = tx
            .query_row(
                "SELECT player, token_hash FROM seats WHERE game_id = ?1 AND seat = ?2",
                params![id.0, seat.0 as i64],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        match current {
            None => return Err(StoreError::UnknownSeat { id, seat }),
            Some((player, _)) if player != HUMAN => return Err(StoreError::NotHuman { id, seat }),
            Some((_, Some(_))) => return Err(StoreError::SeatTaken { id, seat }),
            Some(_) => {}
        }
        tx.execute(
            "UPDATE seats SET token_hash = ?3 WHERE game_id = ?1 AND seat = ?2",
            params![id.0, seat.0 as i64, token_hash.0.as_slice()],
        )?;
        tx.commit()?;
        Ok(())
    }

    fn finish(&self, id: GameId, winners: &[Seat]) -> Result<(), StoreError> {
        let list: Vec<u8> = winners.iter().map(|s| s.0).collect();
        let text = serde_json::to_string(&list).expect("numbers serialize");
        let changed = self.conn().execute(
            "UPDATE games SET finished = 1, winners = ?2 WHERE id = ?1",
            params![id.0, text],
        )?;
        if changed == 0 {
            return Err(StoreError::UnknownGame(id));
        }
        Ok(())
    }

    fn list_unfinished(&self) -> Result<Vec<GameSummary>, StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let list = summaries(
            &tx,
            "SELECT id FROM games WHERE finished = 0 ORDER BY id",
            [],
        )?;
        tx.finish()?;
        Ok(list)
    }

    fn list_open(&self) -> Result<Vec<GameSummary>, StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let list = summaries(
            &tx,
            "SELECT g.id FROM games g WHERE g.finished = 0 AND EXISTS (
                 SELECT 1 FROM seats s
                 WHERE s.game_id = g.id AND s.player = ?1 AND s.token_hash IS NULL)
             ORDER BY g.id",
            [HUMAN],
        )?;
        tx.finish()?;
        Ok(list)
    }
}
