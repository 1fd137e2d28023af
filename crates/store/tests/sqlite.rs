//! The SQLite store: the log survives reopening and crashes, refuses gaps and duplicates, keeps
//! order under concurrent writers; seats and results.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use game::{GameRecord, Seat};
use store::{GameId, HUMAN, SqliteStore, Store, StoreError, TokenHash};

fn record(players: &[&str]) -> GameRecord {
    GameRecord {
        version: game::record::RECORD_VERSION,
        game: "starrealms".into(),
        config: serde_json::json!({"seats": players.len(), "format": "standard"}),
        seed: u64::MAX - 3,
        actions: Vec::new(),
        players: players.iter().map(|p| p.to_string()).collect(),
    }
}

fn db(dir: &tempfile::TempDir) -> std::path::PathBuf {
    dir.path().join("games.sqlite")
}

#[test]
fn appends_come_back_after_reopening_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let id;
    {
        let store = SqliteStore::open(db(&dir)).unwrap();
        id = store.create(&record(&[HUMAN, "heuristic"])).unwrap();
        store.append_action(id, 0, "play scout", Some("a")).unwrap();
        store.append_action(id, 1, "play viper", None).unwrap();
        store.append_action(id, 2, "end", Some("b")).unwrap();
    }
    let store = SqliteStore::open(db(&dir)).unwrap();
    assert_eq!(store.schema_version().unwrap(), 1);
    let game = store.load(id).unwrap();
    assert_eq!(game.id, id);
    assert_eq!(game.record.actions, ["play scout", "play viper", "end"]);
    assert_eq!(game.client_ids, [Some("a".into()), None, Some("b".into())]);
    assert_eq!(game.record.seed, u64::MAX - 3, "all 64 bits of the seed");
    assert_eq!(game.record.players, [HUMAN, "heuristic"]);
    assert_eq!(game.record.config["format"], "standard");
    assert_eq!(game.winners, None);
    assert!(game.created_at.ends_with('Z'), "{}", game.created_at);
    assert_eq!(store.summary(id).unwrap().actions, 3);
    // The record replays as any record does: it is the same JSON shape.
    let back = GameRecord::from_json(&game.record.to_json()).unwrap();
    assert_eq!(back, game.record);
}

#[test]
fn a_wrong_index_is_refused_and_changes_nothing() {
    let store = SqliteStore::open(":memory:").unwrap();
    let id = store.create(&record(&["random", "random"])).unwrap();
    store.append_action(id, 0, "a0", None).unwrap();
    store.append_action(id, 1, "a1", None).unwrap();
    for (wrong, actual) in [(0, 2), (1, 2), (3, 2), (usize::MAX >> 1, 2)] {
        match store.append_action(id, wrong, "bad", None) {
            Err(StoreError::WrongIndex {
                expected,
                actual: a,
                ..
            }) => assert_eq!((expected, a), (wrong, actual)),
            other => panic!("index {wrong}: {other:?}"),
        }
    }
    assert_eq!(store.load(id).unwrap().record.actions, ["a0", "a1"]);
    assert!(matches!(
        store.append_action(GameId(999), 0, "x", None),
        Err(StoreError::UnknownGame(GameId(999)))
    ));
}

#[test]
fn seats_are_claimed_once_and_only_by_people() {
    let store = SqliteStore::open(":memory:").unwrap();
    let id = store.create(&record(&[HUMAN, "heuristic", HUMAN])).unwrap();
    let full = store.create(&record(&["random", "random"])).unwrap();
    let open: Vec<GameId> = store.list_open().unwrap().iter().map(|g| g.id).collect();
    assert_eq!(open, [id]);

    store.claim_seat(id, Seat(0), &TokenHash::of("t0")).unwrap();
    assert!(matches!(
        store.claim_seat(id, Seat(0), &TokenHash::of("t1")),
        Err(StoreError::SeatTaken { .. })
    ));
    assert!(matches!(
        store.claim_seat(id, Seat(1), &TokenHash::of("t1")),
        Err(StoreError::NotHuman { .. })
    ));
    assert!(matches!(
        store.claim_seat(id, Seat(3), &TokenHash::of("t1")),
        Err(StoreError::UnknownSeat { .. })
    ));
    let game = store.load(id).unwrap();
    assert!(game.seats[0].token_hash.unwrap().matches("t0"));
    assert!(!game.seats[0].token_hash.unwrap().matches("t1"));
    assert_eq!(game.seats[2].token_hash, None);
    assert_eq!(store.list_open().unwrap().len(), 1, "seat p3 is still free");

    store.claim_seat(id, Seat(2), &TokenHash::of("t2")).unwrap();
    assert!(store.list_open().unwrap().is_empty());
    let summary = store.summary(id).unwrap();
    assert!(summary.seats.iter().all(|s| s.claimed || s.player != HUMAN));
    assert_eq!(
        store
            .list_unfinished()
            .unwrap()
            .iter()
            .map(|g| g.id)
            .collect::<Vec<_>>(),
        [id, full]
    );
}

#[test]
fn the_token_itself_is_never_stored() {
    let dir = tempfile::tempdir().unwrap();
    let token = "0123456789abcdef-the-secret-token";
    {
        let store = SqliteStore::open(db(&dir)).unwrap();
        let id = store.create(&record(&[HUMAN, "random"])).unwrap();
        store
            .claim_seat(id, Seat(0), &TokenHash::of(token))
            .unwrap();
    }
    let mut bytes = Vec::new();
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        bytes.extend(std::fs::read(entry.unwrap().path()).unwrap());
    }
    assert!(
        !bytes.windows(token.len()).any(|w| w == token.as_bytes()),
        "the token is on disk in clear"
    );
    assert!(
        bytes
            .windows(32)
            .any(|w| w == TokenHash::of(token).0.as_slice()),
        "its hash is"
    );
}

#[test]
fn finished_games_keep_their_winners_and_take_no_more_actions() {
    let store = SqliteStore::open(":memory:").unwrap();
    let a = store.create(&record(&[HUMAN, "random"])).unwrap();
    let b = store.create(&record(&["random", "random"])).unwrap();
    store.append_action(a, 0, "end", None).unwrap();
    store.finish(a, &[Seat(1)]).unwrap();
    store.finish(b, &[]).unwrap();
    assert!(matches!(
        store.append_action(a, 1, "end", None),
        Err(StoreError::Finished(_))
    ));
    assert!(matches!(
        store.claim_seat(a, Seat(0), &TokenHash::of("t")),
        Err(StoreError::Finished(_))
    ));
    assert_eq!(store.load(a).unwrap().winners, Some(vec![Seat(1)]));
    assert_eq!(store.summary(b).unwrap().winners, Some(vec![]));
    assert!(store.summary(b).unwrap().finished);
    assert!(store.list_unfinished().unwrap().is_empty());
    assert!(store.list_open().unwrap().is_empty());
    assert!(matches!(
        store.finish(GameId(77), &[]),
        Err(StoreError::UnknownGame(_))
    ));
}

#[test]
fn games_without_seats_are_refused() {
    let store = SqliteStore::open(":memory:").unwrap();
    assert!(matches!(
        store.create(&record(&[])),
        Err(StoreError::Invalid(_))
    ));
    assert!(matches!(
        store.create(&record(&["random"; 7])),
        Err(StoreError::Invalid(_))
    ));
}

#[test]
fn a_database_from_a_newer_build_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    drop(SqliteStore::open(db(&dir)).unwrap());
    let conn = rusqlite::Connection::open(db(&dir)).unwrap();
    conn.execute_batch("PRAGMA user_version = 99").unwrap();
    drop(conn);
    let err = SqliteStore::open(db(&dir)).unwrap_err();
    assert!(matches!(err, StoreError::Corrupt(_)), "{err}");
}

/// Each writer appends its own numbered actions, retrying on a lost race; the log ends with
/// every action once, each writer's in its order, no gap.
fn race(stores: [Arc<SqliteStore>; 2], id: GameId, per_writer: usize) {
    let threads: Vec<_> = stores
        .into_iter()
        .enumerate()
        .map(|(w, store)| {
            std::thread::spawn(move || {
                let mut i = 0;
                let mut lost = 0;
                while i < per_writer {
                    let next = store.summary(id).unwrap().actions;
                    match store.append_action(id, next, &format!("w{w} {i}"), None) {
                        Ok(()) => i += 1,
                        Err(StoreError::WrongIndex { .. }) => lost += 1,
                        Err(e) => panic!("{e}"),
                    }
                }
                lost
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
}

fn check_race(store: &SqliteStore, id: GameId, per_writer: usize) {
    let actions = store.load(id).unwrap().record.actions;
    assert_eq!(actions.len(), 2 * per_writer);
    for w in 0..2 {
        let mine: Vec<&String> = actions
            .iter()
            .filter(|a| a.starts_with(&format!("w{w} ")))
            .collect();
        let expected: Vec<String> = (0..per_writer).map(|i| format!("w{w} {i}")).collect();
        assert_eq!(mine, expected.iter().collect::<Vec<_>>(), "writer {w}");
    }
}

#[test]
fn two_threads_appending_at_once_keep_every_action_in_order() {
    let store = Arc::new(SqliteStore::open(":memory:").unwrap());
    let id = store.create(&record(&["random", "random"])).unwrap();
    race([Arc::clone(&store), Arc::clone(&store)], id, 150);
    check_race(&store, id, 150);
}

#[test]
fn two_connections_to_one_file_appending_at_once_keep_every_action_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let a = Arc::new(SqliteStore::open(db(&dir)).unwrap());
    let b = Arc::new(SqliteStore::open(db(&dir)).unwrap());
    let id = a.create(&record(&["random", "random"])).unwrap();
    race([a, b], id, 40);
    check_race(&SqliteStore::open(db(&dir)).unwrap(), id, 40);
}

// ----- crash safety ------------------------------------------------------------------------------

const WRITER_DB: &str = "STORE_TEST_CRASH_WRITER_DB";
const WRITER_GAME: &str = "STORE_TEST_CRASH_WRITER_GAME";

/// The child's part: append until killed, telling the parent after each append returned.
fn writer(path: &Path, id: GameId) -> ! {
    let store = SqliteStore::open(path).unwrap();
    let mut out = std::io::stdout().lock();
    for i in 0.. {
        store
            .append_action(id, i, &format!("action {i}"), None)
            .unwrap();
        writeln!(out, "appended {i}").unwrap();
        out.flush().unwrap();
    }
    unreachable!()
}

#[test]
fn every_append_that_returned_survives_a_kill() {
    if let (Ok(path), Ok(id)) = (std::env::var(WRITER_DB), std::env::var(WRITER_GAME)) {
        writer(Path::new(&path), id.parse().unwrap());
    }
    let dir = tempfile::tempdir().unwrap();
    let id = SqliteStore::open(db(&dir))
        .unwrap()
        .create(&record(&["random", "random"]))
        .unwrap();
    // The test binary again, running only this test, as the writer.
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "every_append_that_returned_survives_a_kill",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(WRITER_DB, db(&dir))
        .env(WRITER_GAME, id.to_string())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut acknowledged = None;
    let start = Instant::now();
    // Kill it while it writes: after some appends, at a moment it does not choose.
    while acknowledged.is_none_or(|n| n < 150) {
        let line = lines.next().expect("the writer runs").unwrap();
        if let Some(n) = line.strip_prefix("appended ") {
            acknowledged = Some(n.parse::<usize>().unwrap());
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the writer is too slow"
        );
    }
    child.kill().unwrap(); // SIGKILL: no destructor, no flush, no SQLite checkpoint.
    child.wait().unwrap();
    // Lines the writer printed before it died count as acknowledged too.
    for line in lines {
        if let Some(n) = line.unwrap().strip_prefix("appended ") {
            acknowledged = Some(n.parse().unwrap());
        }
    }
    let acknowledged = acknowledged.unwrap();

    let store = SqliteStore::open(db(&dir)).unwrap();
    let actions = store.load(id).unwrap().record.actions;
    assert!(
        actions.len() > acknowledged,
        "{} actions stored, {} acknowledged",
        actions.len(),
        acknowledged + 1
    );
    // At most the one in flight went through without being acknowledged.
    assert!(actions.len() <= acknowledged + 2);
    for (i, a) in actions.iter().enumerate() {
        assert_eq!(a, &format!("action {i}"));
    }
    // And the log goes on where it stopped.
    store
        .append_action(id, actions.len(), "after the crash", None)
        .unwrap();
}
