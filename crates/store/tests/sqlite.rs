//! The SQLite store: the log survives reopening and crashes, refuses gaps and duplicates, keeps
//! order under concurrent writers; seats and results; the lobby's pages; reads beside writes.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use game::{GameRecord, Seat};
use store::{
    GameId, HUMAN, LobbyCursor, LobbyFilter, LobbyPage, LobbyQuery, MIGRATIONS, SqliteStore, Store,
    StoreError, TokenHash, Written,
};

fn record(players: &[&str]) -> GameRecord {
    GameRecord {
        version: game::record::RECORD_VERSION,
        game: "starrealms".into(),
        config: serde_json::json!({"seats": players.len(), "format": "standard"}),
        seed: u64::MAX - 3,
        actions: Vec::new(),
        players: players.iter().map(|p| p.to_string()).collect(),
        cards: None,
    }
}

/// One action for game `id`, without a client id.
fn new_action(id: GameId, index: usize, text: &str) -> store::NewAction<'_> {
    store::NewAction {
        id,
        index,
        text,
        client_id: None,
        winners: None,
    }
}

fn db(dir: &tempfile::TempDir) -> std::path::PathBuf {
    dir.path().join("games.sqlite")
}

#[test]
fn every_migration_file_is_a_step_of_the_schema_in_its_order() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "sql"))
        .collect();
    paths.sort();
    let files: Vec<String> = paths
        .iter()
        .map(|path| std::fs::read_to_string(path).unwrap())
        .collect();
    assert_eq!(files, MIGRATIONS);
}

/// A database file in `dir` as a store of schema `version` left it, holding what `rows`
/// inserts.
fn older_database(dir: &tempfile::TempDir, version: usize, rows: &str) {
    let conn = rusqlite::Connection::open(db(dir)).unwrap();
    for step in &MIGRATIONS[..version] {
        conn.execute_batch(step).unwrap();
    }
    conn.execute_batch(&format!("PRAGMA user_version = {version};"))
        .unwrap();
    conn.execute_batch(rows).unwrap();
}

const HOUR: Duration = Duration::from_secs(3600);

fn query(filter: LobbyFilter, limit: usize, after: Option<LobbyCursor>) -> LobbyQuery {
    LobbyQuery {
        filter,
        limit,
        after,
        open_seat_ttl: HOUR,
    }
}

fn ids(page: &LobbyPage) -> Vec<GameId> {
    page.games.iter().map(|g| g.id).collect()
}

/// The games the lobby lists as open, on one page.
fn open_games(store: &impl Store) -> Vec<GameId> {
    ids(&store.lobby(&query(LobbyFilter::Open, 1000, None)).unwrap())
}

#[test]
fn appends_come_back_after_reopening_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let id;
    {
        let store = SqliteStore::open(db(&dir)).unwrap();
        id = store.create(&record(&[HUMAN, "heuristic"]), false).unwrap();
        store.append_action(id, 0, "play scout", Some("a")).unwrap();
        store.append_action(id, 1, "play viper", None).unwrap();
        store.append_action(id, 2, "end", Some("b")).unwrap();
    }
    let store = SqliteStore::open(db(&dir)).unwrap();
    assert_eq!(store.schema_version().unwrap(), MIGRATIONS.len());
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
    let id = store.create(&record(&["random", "random"]), false).unwrap();
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
    let id = store
        .create(&record(&[HUMAN, "heuristic", HUMAN]), false)
        .unwrap();
    let full = store.create(&record(&["random", "random"]), false).unwrap();
    assert_eq!(open_games(&store), [id]);

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
    assert_eq!(open_games(&store), [id], "seat p3 is still free");

    store.claim_seat(id, Seat(2), &TokenHash::of("t2")).unwrap();
    assert!(open_games(&store).is_empty());
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
        let id = store.create(&record(&[HUMAN, "random"]), false).unwrap();
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
    let a = store.create(&record(&[HUMAN, "random"]), false).unwrap();
    let b = store.create(&record(&["random", "random"]), false).unwrap();
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
    assert!(open_games(&store).is_empty());
    assert!(matches!(
        store.finish(GameId(77), &[]),
        Err(StoreError::UnknownGame(_))
    ));
}

#[test]
fn games_without_seats_are_refused() {
    let store = SqliteStore::open(":memory:").unwrap();
    assert!(matches!(
        store.create(&record(&[]), false),
        Err(StoreError::Invalid(_))
    ));
    assert!(matches!(
        store.create(&record(&["random"; 7]), false),
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
    let id = store.create(&record(&["random", "random"]), false).unwrap();
    race([Arc::clone(&store), Arc::clone(&store)], id, 150);
    check_race(&store, id, 150);
}

#[test]
fn two_connections_to_one_file_appending_at_once_keep_every_action_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let a = Arc::new(SqliteStore::open(db(&dir)).unwrap());
    let b = Arc::new(SqliteStore::open(db(&dir)).unwrap());
    let id = a.create(&record(&["random", "random"]), false).unwrap();
    race([a, b], id, 40);
    check_race(&SqliteStore::open(db(&dir)).unwrap(), id, 40);
}

// ----- lobby -------------------------------------------------------------------------------------

/// Every page of `filter`, `limit` games at a time, following the cursors as a client would
/// (through their text form).
fn walk(store: &SqliteStore, filter: LobbyFilter, limit: usize) -> Vec<(bool, GameId)> {
    let mut seen = Vec::new();
    let mut after = None;
    for _ in 0..100 {
        let page = store.lobby(&query(filter, limit, after)).unwrap();
        assert!(page.games.len() <= limit.max(1), "{filter:?} by {limit}");
        seen.extend(page.games.iter().map(|g| (g.open, g.id)));
        let Some(next) = page.next else {
            return seen;
        };
        assert_eq!(
            page.games.len(),
            limit.max(1),
            "only the last page is short"
        );
        let last = page.games.last().unwrap();
        assert_eq!((next.open, next.id), (last.open, last.id));
        after = Some(next.to_string().parse().unwrap());
    }
    panic!("{filter:?} by {limit}: no last page");
}

#[test]
fn lobby_pages_list_every_game_of_their_group_once_newest_first() {
    let store = SqliteStore::open(":memory:").unwrap();
    let (mut open, mut playing) = (Vec::new(), Vec::new());
    for i in 0..25 {
        let players: &[&str] = match i % 5 {
            0 | 3 => &[HUMAN, "random"],
            1 => &["random", "random"],
            _ => &[HUMAN, HUMAN],
        };
        let id = store.create(&record(players), false).unwrap();
        match i % 5 {
            // Both seats taken.
            2 => {
                store.claim_seat(id, Seat(0), &TokenHash::of("a")).unwrap();
                store.claim_seat(id, Seat(1), &TokenHash::of("b")).unwrap();
                playing.push(id);
            }
            // Over: listed nowhere.
            3 => store.finish(id, &[Seat(0)]).unwrap(),
            // One seat of two taken: still open.
            4 => {
                store.claim_seat(id, Seat(1), &TokenHash::of("b")).unwrap();
                open.push(id);
            }
            1 => playing.push(id),
            _ => open.push(id),
        }
    }
    open.reverse();
    playing.reverse();
    let tagged = |ids: &[GameId], group: bool| ids.iter().map(|&id| (group, id)).collect();
    let open: Vec<(bool, GameId)> = tagged(&open, true);
    let playing: Vec<(bool, GameId)> = tagged(&playing, false);
    let unfinished: Vec<(bool, GameId)> = open.iter().chain(&playing).copied().collect();
    for limit in [0, 1, 4, 7, 10, 100] {
        assert_eq!(walk(&store, LobbyFilter::Open, limit), open, "by {limit}");
        assert_eq!(
            walk(&store, LobbyFilter::Playing, limit),
            playing,
            "by {limit}"
        );
        assert_eq!(
            walk(&store, LobbyFilter::Unfinished, limit),
            unfinished,
            "by {limit}"
        );
    }
    // A cursor is a place in the one order: after an open game come all the playing ones;
    // after a playing game, no open one.
    let after_open = Some(LobbyCursor {
        open: true,
        id: open[3].1,
    });
    let page = store
        .lobby(&query(LobbyFilter::Playing, 100, after_open))
        .unwrap();
    assert_eq!(page.games.len(), playing.len());
    let after_playing = Some(LobbyCursor {
        open: false,
        id: playing[0].1,
    });
    let page = store
        .lobby(&query(LobbyFilter::Open, 100, after_playing))
        .unwrap();
    assert_eq!(
        page,
        LobbyPage {
            games: vec![],
            next: None
        }
    );
    // A page that stops in the open group says so, and the next one crosses into the other.
    let page = store
        .lobby(&query(LobbyFilter::Unfinished, 9, None))
        .unwrap();
    let next = page.next.unwrap();
    assert!(next.open);
    let page = store
        .lobby(&query(LobbyFilter::Unfinished, 4, Some(next)))
        .unwrap();
    assert_eq!(
        ids(&page),
        [open[9].1, playing[0].1, playing[1].1, playing[2].1]
    );
    assert_eq!(page.next.unwrap().to_string(), format!("p{}", playing[2].1));
}

#[test]
fn a_lobby_page_serializes_its_cursor_as_text() {
    let store = SqliteStore::open(":memory:").unwrap();
    let a = store.create(&record(&[HUMAN, "random"]), false).unwrap();
    let b = store.create(&record(&[HUMAN, "random"]), false).unwrap();
    let page = store.lobby(&query(LobbyFilter::Open, 1, None)).unwrap();
    let json = serde_json::to_value(&page).unwrap();
    assert_eq!(json["next"], format!("o{b}"));
    assert_eq!(json["games"][0]["open"], true);
    assert_eq!(serde_json::from_value::<LobbyPage>(json).unwrap(), page);
    let after = Some(page.next.unwrap());
    let page = store.lobby(&query(LobbyFilter::Open, 1, after)).unwrap();
    assert_eq!(ids(&page), [a]);
    assert_eq!(
        serde_json::to_value(&page).unwrap()["next"],
        serde_json::Value::Null
    );
}

#[test]
fn taking_the_last_free_seat_moves_a_game_from_open_to_playing() {
    let store = SqliteStore::open(":memory:").unwrap();
    let id = store.create(&record(&[HUMAN, HUMAN]), false).unwrap();
    let playing =
        |store: &SqliteStore| ids(&store.lobby(&query(LobbyFilter::Playing, 10, None)).unwrap());
    assert_eq!((open_games(&store), playing(&store)), (vec![id], vec![]));
    assert!(store.summary(id).unwrap().open);
    store.claim_seat(id, Seat(0), &TokenHash::of("a")).unwrap();
    assert_eq!((open_games(&store), playing(&store)), (vec![id], vec![]));
    store.claim_seat(id, Seat(1), &TokenHash::of("b")).unwrap();
    assert_eq!((open_games(&store), playing(&store)), (vec![], vec![id]));
    assert!(!store.summary(id).unwrap().open);
    // A refused claim changes no count.
    assert!(store.claim_seat(id, Seat(1), &TokenHash::of("c")).is_err());
    assert_eq!(playing(&store), [id]);
    store.finish(id, &[]).unwrap();
    assert!(playing(&store).is_empty());
}

#[test]
fn an_open_seat_nobody_takes_expires() {
    let store = SqliteStore::open(":memory:").unwrap();
    let open = store.create(&record(&[HUMAN, "random"]), false).unwrap();
    let full = store.create(&record(&["random", "random"]), false).unwrap();
    let listed = |filter, ttl| {
        let query = LobbyQuery {
            open_seat_ttl: ttl,
            ..query(filter, 10, None)
        };
        ids(&store.lobby(&query).unwrap())
    };
    for ttl in [Duration::ZERO, Duration::from_millis(900)] {
        assert!(listed(LobbyFilter::Open, ttl).is_empty(), "{ttl:?}");
        assert_eq!(listed(LobbyFilter::Playing, ttl), [full], "{ttl:?}");
        assert_eq!(listed(LobbyFilter::Unfinished, ttl), [full], "{ttl:?}");
    }
    assert_eq!(listed(LobbyFilter::Unfinished, Duration::MAX), [open, full]);
    // Creation times are kept to the second: two seconds are at least one and at most two.
    let ttl = Duration::from_secs(2);
    assert_eq!(listed(LobbyFilter::Open, ttl), [open]);
    std::thread::sleep(Duration::from_millis(2100));
    assert!(listed(LobbyFilter::Open, ttl).is_empty());
    assert_eq!(listed(LobbyFilter::Unfinished, ttl), [full]);
    assert_eq!(listed(LobbyFilter::Unfinished, HOUR), [open, full]);
    // Still unfinished, for whoever restarts the server.
    assert_eq!(store.list_unfinished().unwrap().len(), 2);
}

#[test]
fn a_game_that_can_never_start_is_retired() {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(db(&dir)).unwrap();
    let open = store.create(&record(&[HUMAN, "random"]), false).unwrap();
    let half = store.create(&record(&[HUMAN, HUMAN]), false).unwrap();
    store
        .claim_seat(half, Seat(0), &TokenHash::of("a"))
        .unwrap();
    let bots = store.create(&record(&["random", "random"]), false).unwrap();
    let playing = store.create(&record(&[HUMAN, "random"]), false).unwrap();
    store
        .claim_seat(playing, Seat(0), &TokenHash::of("b"))
        .unwrap();
    let over = store.create(&record(&[HUMAN, "random"]), false).unwrap();
    store.finish(over, &[Seat(1)]).unwrap();
    let unfinished = |store: &SqliteStore| -> Vec<GameId> {
        let games = store.list_unfinished().unwrap();
        games.iter().map(|g| g.id).collect()
    };
    // Seats that have not waited their hour yet: nothing to retire.
    assert_eq!(store.retire_expired(HOUR).unwrap(), 0);
    assert_eq!(unfinished(&store), [open, half, bots, playing]);
    // Once they have (a wait of nothing, here), the two games with a free seat can never start.
    assert_eq!(store.retire_expired(Duration::ZERO).unwrap(), 2);
    assert_eq!(
        store.retire_expired(Duration::ZERO).unwrap(),
        0,
        "retired once"
    );
    assert_eq!(unfinished(&store), [bots, playing]);
    let listed = |store: &SqliteStore, filter| {
        let query = LobbyQuery {
            open_seat_ttl: Duration::MAX,
            ..query(filter, 10, None)
        };
        ids(&store.lobby(&query).unwrap())
    };
    // Out of the lobby, however long seats may wait.
    assert!(listed(&store, LobbyFilter::Open).is_empty());
    assert_eq!(listed(&store, LobbyFilter::Unfinished), [playing, bots]);
    // Readable by its number, and said retired; its seats no longer to be taken.
    assert!(!store.summary(half).unwrap().finished);
    assert!(store.summary(half).unwrap().retired);
    assert!(!store.summary(playing).unwrap().retired);
    assert!(store.load(half).is_ok());
    assert!(matches!(
        store.claim_seat(half, Seat(1), &TokenHash::of("c")),
        Err(StoreError::Retired(id)) if id == half
    ));
    assert!(!store.summary(half).unwrap().seats[1].claimed);
    // Kept so when the store opens again.
    drop(store);
    let store = SqliteStore::open(db(&dir)).unwrap();
    assert_eq!(unfinished(&store), [bots, playing]);
    assert!(listed(&store, LobbyFilter::Open).is_empty());
}

#[test]
fn who_made_a_game_of_bots_is_kept_while_the_game_counts() {
    use store::MadeGame;
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(db(&dir)).unwrap();
    let bots = || record(&["random", "random"]);
    let goes_on = store.create(&bots(), false).unwrap();
    let ends = store.create(&bots(), false).unwrap();
    let old = store.create(&bots(), false).unwrap();
    let over = store.create(&bots(), false).unwrap();
    store.finish(over, &[Seat(0)]).unwrap();
    store.made_by(goes_on, "203.0.113.7").unwrap();
    store.made_by(ends, "2001:db8:1:2::").unwrap();
    store.made_by(old, "203.0.113.7").unwrap();
    let made = |store: &SqliteStore| {
        let mut made = store.made_games().unwrap();
        made.sort_by_key(|m| m.id);
        made
    };
    let one = |maker: &str, id| MadeGame {
        maker: maker.into(),
        id,
    };
    assert_eq!(
        made(&store),
        [
            one("203.0.113.7", goes_on),
            one("2001:db8:1:2::", ends),
            one("203.0.113.7", old)
        ]
    );
    // A game over counts for nobody: refused, and in words.
    assert!(matches!(
        store.made_by(over, "203.0.113.7"),
        Err(StoreError::Finished(id)) if id == over
    ));
    assert!(matches!(
        store.made_by(GameId(999), "203.0.113.7"),
        Err(StoreError::UnknownGame(_))
    ));
    // Forgotten once the game ends, in the file itself.
    store.finish(ends, &[Seat(1)]).unwrap();
    assert_eq!(
        made(&store),
        [one("203.0.113.7", goes_on), one("203.0.113.7", old)]
    );
    let makers_in = |dir: &tempfile::TempDir| -> Vec<Option<String>> {
        let conn = rusqlite::Connection::open(db(dir)).unwrap();
        let mut stmt = conn.prepare("SELECT maker FROM games ORDER BY id").unwrap();
        let rows = stmt.query_map([], |r| r.get(0)).unwrap();
        rows.map(Result::unwrap).collect()
    };
    let kept = Some("203.0.113.7".to_string());
    assert_eq!(makers_in(&dir), [kept.clone(), None, kept.clone(), None]);
    // Kept across reopening.
    drop(store);
    let store = SqliteStore::open(db(&dir)).unwrap();
    assert_eq!(made(&store).len(), 2);
    // Forgotten after a while, as a seat's holder: of games made long ago.
    rusqlite::Connection::open(db(&dir))
        .unwrap()
        .execute(
            "UPDATE games SET created_at = '2000-01-01T00:00:00Z' WHERE id = ?1",
            [old.0],
        )
        .unwrap();
    assert_eq!(store.forget_holders(HOUR).unwrap(), 1);
    assert_eq!(made(&store), [one("203.0.113.7", goes_on)]);
    assert_eq!(makers_in(&dir), [kept, None, None, None]);
}

#[test]
fn an_address_forgotten_is_gone_from_the_file_bytes_too() {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(db(&dir)).unwrap();
    let (holder, maker) = ("203.0.113.77", "198.51.100.77");
    let game = store.create(&record(&[HUMAN, "random"]), false).unwrap();
    let bots = store.create(&record(&["random", "random"]), false).unwrap();
    let token = TokenHash::of("t");
    let claim = store::Write::Claim {
        id: game,
        seat: Seat(0),
        token_hash: &token,
        holder: Some(holder),
    };
    assert!(store.write_batch(&[claim]).iter().all(Result::is_ok));
    store.made_by(bots, maker).unwrap();
    let bytes = |dir: &tempfile::TempDir| {
        // The log copied into the database, and emptied.
        rusqlite::Connection::open(db(dir))
            .unwrap()
            .execute_batch("PRAGMA wal_checkpoint(TRUNCATE)")
            .unwrap();
        let mut all = std::fs::read(db(dir)).unwrap();
        all.extend(std::fs::read(dir.path().join("games.sqlite-wal")).unwrap_or_default());
        all
    };
    let holds = |all: &[u8], text: &str| all.windows(text.len()).any(|w| w == text.as_bytes());
    let before = bytes(&dir);
    assert!(holds(&before, holder) && holds(&before, maker));
    store.finish(game, &[Seat(0)]).unwrap();
    store.finish(bots, &[Seat(0)]).unwrap();
    let after = bytes(&dir);
    assert!(
        !holds(&after, holder),
        "the holder's address stays in the file"
    );
    assert!(
        !holds(&after, maker),
        "the maker's address stays in the file"
    );
}

#[test]
fn who_holds_a_seat_is_kept_while_the_seat_counts() {
    use store::{HeldSeat, Holding};
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(db(&dir)).unwrap();
    let playing = store.create(&record(&[HUMAN, HUMAN]), false).unwrap();
    let left = store.create(&record(&[HUMAN, "random"]), false).unwrap();
    let ends = store.create(&record(&[HUMAN, "random"]), false).unwrap();
    let open = store.create(&record(&[HUMAN, HUMAN]), false).unwrap();
    let anonymous = store.create(&record(&[HUMAN, "random"]), false).unwrap();
    let token = TokenHash::of("t");
    let claim = |id, seat, holder| store::Write::Claim {
        id,
        seat: Seat(seat),
        token_hash: &token,
        holder,
    };
    let results = store.write_batch(&[
        claim(playing, 0, Some("203.0.113.7")),
        claim(playing, 1, Some("2001:db8:1:2::")),
        claim(left, 0, Some("203.0.113.7")),
        claim(ends, 0, Some("203.0.113.8")),
        claim(open, 0, Some("203.0.113.9")),
        claim(anonymous, 0, None),
    ]);
    assert!(results.iter().all(Result::is_ok), "{results:?}");
    let players = [HUMAN.to_string(), "heuristic".to_string()];
    let campaign = store
        .create_campaign(&serde_json::json!({}), &players, false)
        .unwrap();
    store
        .claim_campaign_seat(campaign, Seat(0), &token, Some("198.51.100.1"))
        .unwrap();
    let game = |holder: &str, id, seat| Holding {
        holder: holder.into(),
        seat: HeldSeat::Game(id, Seat(seat)),
    };
    let of_campaign = Holding {
        holder: "198.51.100.1".into(),
        seat: HeldSeat::Campaign(campaign, Seat(0)),
    };
    let mut held = store.holdings().unwrap();
    held.sort_by_key(|h| format!("{:?}", h.seat));
    let mut expected = vec![
        game("203.0.113.7", playing, 0),
        game("2001:db8:1:2::", playing, 1),
        game("203.0.113.7", left, 0),
        game("203.0.113.8", ends, 0),
        game("203.0.113.9", open, 0),
        of_campaign.clone(),
    ];
    expected.sort_by_key(|h| format!("{:?}", h.seat));
    assert_eq!(held, expected);
    // Forgotten once the seat no longer counts: left to a bot, its game over, or retired (the
    // game can never start).
    store.leave_seat(left, Seat(0), "medium").unwrap();
    store.finish(ends, &[Seat(0)]).unwrap();
    assert_eq!(store.retire_expired(Duration::ZERO).unwrap(), 1);
    let only = vec![
        game("203.0.113.7", playing, 0),
        game("2001:db8:1:2::", playing, 1),
        of_campaign,
    ];
    let sorted = |mut v: Vec<Holding>| {
        v.sort_by_key(|h| format!("{:?}", h.seat));
        v
    };
    assert_eq!(sorted(store.holdings().unwrap()), sorted(only.clone()));
    // A game's load tells who holds each seat (nobody, once it no longer counts).
    let holders = |id| -> Vec<Option<String>> {
        let seats = store.load(id).unwrap().seats;
        seats.into_iter().map(|s| s.holder).collect()
    };
    let ip = |s: &str| Some(s.to_string());
    assert_eq!(holders(playing), [ip("203.0.113.7"), ip("2001:db8:1:2::")]);
    assert_eq!(holders(left), [None, None]);
    assert_eq!(holders(anonymous), [None, None]);
    // Gone from the file itself, not only from the list.
    assert_eq!(
        holders_in(&dir),
        ["198.51.100.1", "2001:db8:1:2::", "203.0.113.7"]
    );
    // Kept across reopening.
    drop(store);
    let store = SqliteStore::open(db(&dir)).unwrap();
    assert_eq!(sorted(store.holdings().unwrap()), sorted(only));

    // Forgotten after a while: of games and campaigns made long ago, and of a campaign over.
    assert_eq!(store.forget_holders(HOUR).unwrap(), 0);
    rusqlite::Connection::open(db(&dir))
        .unwrap()
        .execute(
            "UPDATE games SET created_at = '2000-01-01T00:00:00Z' WHERE id = ?1",
            [playing.0],
        )
        .unwrap();
    assert_eq!(store.forget_holders(HOUR).unwrap(), 2);
    assert_eq!(holders_in(&dir), ["198.51.100.1"]);
    assert_eq!(store.forget_campaign_holders(campaign).unwrap(), 1);
    assert!(holders_in(&dir).is_empty());
    assert!(store.holdings().unwrap().is_empty());
}

/// Every holder the database file keeps, of games' seats and campaigns', in order.
fn holders_in(dir: &tempfile::TempDir) -> Vec<String> {
    let conn = rusqlite::Connection::open(db(dir)).unwrap();
    let mut holders: Vec<String> = conn
        .prepare(
            "SELECT holder FROM seats WHERE holder IS NOT NULL
             UNION ALL SELECT holder FROM campaign_seats WHERE holder IS NOT NULL",
        )
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    holders.sort();
    holders
}

#[test]
fn games_to_retire_are_retired_however_many() {
    let store = SqliteStore::open(":memory:").unwrap();
    for _ in 0..1_201 {
        store.create(&record(&[HUMAN, "random"]), false).unwrap();
    }
    assert_eq!(store.retire_expired(Duration::ZERO).unwrap(), 1_201);
    assert!(store.list_unfinished().unwrap().is_empty());
}

#[test]
fn whether_the_seed_was_chosen_comes_back() {
    let dir = tempfile::tempdir().unwrap();
    let (drawn, chosen);
    {
        let store = SqliteStore::open(db(&dir)).unwrap();
        drawn = store.create(&record(&[HUMAN, "random"]), false).unwrap();
        chosen = store.create(&record(&[HUMAN, "random"]), true).unwrap();
    }
    let store = SqliteStore::open(db(&dir)).unwrap();
    assert!(!store.summary(drawn).unwrap().seed_chosen);
    assert!(store.summary(chosen).unwrap().seed_chosen);
    let page = store.lobby(&query(LobbyFilter::Open, 10, None)).unwrap();
    let flags: Vec<bool> = page.games.iter().map(|g| g.seed_chosen).collect();
    assert_eq!(flags, [true, false]);
    let json = serde_json::to_value(store.summary(chosen).unwrap()).unwrap();
    assert_eq!(json["seed_chosen"], true);
}

#[test]
fn a_database_of_the_first_schema_is_upgraded_with_its_open_seats_counted() {
    let dir = tempfile::tempdir().unwrap();
    older_database(
        &dir,
        1,
        "INSERT INTO games (id, game, version, config, seed) VALUES
             (1, 'starrealms', 1, '{}', 5),
             (2, 'starrealms', 1, '{}', 6),
             (3, 'starrealms', 1, '{}', 7);
         UPDATE games SET finished = 1, winners = '[]' WHERE id = 3;
         INSERT INTO seats (game_id, seat, player, token_hash) VALUES
             (1, 0, 'human', NULL),
             (1, 1, 'human', zeroblob(32)),
             (2, 0, 'human', zeroblob(32)),
             (2, 1, 'random', NULL),
             (3, 0, 'human', NULL);",
    );
    let store = SqliteStore::open(db(&dir)).unwrap();
    assert_eq!(store.schema_version().unwrap(), MIGRATIONS.len());
    assert_eq!(open_games(&store), [GameId(1)]);
    let page = store
        .lobby(&query(LobbyFilter::Unfinished, 10, None))
        .unwrap();
    assert_eq!(ids(&page), [GameId(1), GameId(2)]);
    assert!(page.games.iter().all(|g| !g.seed_chosen));
    // The counts go on from there.
    store
        .claim_seat(GameId(1), Seat(0), &TokenHash::of("t"))
        .unwrap();
    assert!(open_games(&store).is_empty());
    assert!(matches!(
        store.claim_seat(GameId(3), Seat(0), &TokenHash::of("t")),
        Err(StoreError::Finished(_))
    ));
}

#[test]
fn reads_do_not_wait_for_a_write_in_progress() {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(SqliteStore::open(db(&dir)).unwrap());
    let id = store.create(&record(&[HUMAN, "random"]), false).unwrap();
    // Another process's transaction holds the file's write lock...
    let mut other = rusqlite::Connection::open(db(&dir)).unwrap();
    let tx = other
        .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        .unwrap();
    tx.execute(
        "INSERT INTO games (game, version, config, seed) VALUES ('starrealms', 1, '{}', 1)",
        [],
    )
    .unwrap();
    // ... so an append of this store waits for it, holding the store's writing connection.
    let (appended, append_done) = std::sync::mpsc::channel();
    let writer = {
        let store = Arc::clone(&store);
        std::thread::spawn(move || {
            let result = store.append_action(id, 0, "play scout", None);
            appended.send(()).unwrap();
            result
        })
    };
    std::thread::sleep(Duration::from_millis(200));
    let (read, read_done) = std::sync::mpsc::channel();
    let reader = {
        let store = Arc::clone(&store);
        std::thread::spawn(move || {
            let page = store
                .lobby(&query(LobbyFilter::Unfinished, 10, None))
                .unwrap();
            let summary = store.summary(id).unwrap();
            let game = store.load(id).unwrap();
            read.send(()).unwrap();
            (ids(&page), summary.actions, game.record.actions.len())
        })
    };
    // The reads come back while the append still waits.
    read_done
        .recv_timeout(Duration::from_secs(5))
        .expect("the reads are done");
    assert_eq!(reader.join().unwrap(), (vec![id], 0, 0));
    assert!(append_done.try_recv().is_err(), "the append waits still");
    tx.commit().unwrap();
    writer.join().unwrap().unwrap();
    assert_eq!(store.summary(id).unwrap().actions, 1);
}

/// The lobby's speed with 5,000 unfinished games (half of them open): run with
/// `cargo test --release -p store --test sqlite -- --ignored --nocapture lobby_speed`.
#[test]
#[ignore = "a measurement: slow to set up"]
fn lobby_speed() {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(db(&dir)).unwrap();
    let start = Instant::now();
    for i in 0..5000 {
        let players: &[&str] = if i % 2 == 0 {
            &[HUMAN, "random"]
        } else {
            &["random", "random"]
        };
        let id = store.create(&record(players), i % 3 == 0).unwrap();
        for a in 0..3 {
            store.append_action(id, a, "play scout", None).unwrap();
        }
    }
    println!("5,000 games created in {:.1?}", start.elapsed());
    for filter in [
        LobbyFilter::Open,
        LobbyFilter::Playing,
        LobbyFilter::Unfinished,
    ] {
        let mut after = None;
        let mut pages = 0;
        let mut games = 0;
        let start = Instant::now();
        loop {
            let page = store.lobby(&query(filter, 50, after)).unwrap();
            pages += 1;
            games += page.games.len();
            match page.next {
                Some(next) => after = Some(next),
                None => break,
            }
        }
        let elapsed = start.elapsed();
        let expected = if filter == LobbyFilter::Unfinished {
            5000
        } else {
            2500
        };
        assert_eq!(games, expected, "{filter:?}");
        let bytes = serde_json::to_vec(&store.lobby(&query(filter, 50, None)).unwrap())
            .unwrap()
            .len();
        println!(
            "{filter:?}: {pages} pages of 50 in {elapsed:.1?}, {:.2?} a page, {bytes} bytes the first",
            elapsed / pages
        );
    }
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
        .create(&record(&["random", "random"]), false)
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

#[test]
fn appends_of_many_games_at_once_keep_every_action_and_their_own_results() {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(SqliteStore::open(db(&dir)).unwrap());
    let games: Vec<GameId> = (0..8)
        .map(|_| store.create(&record(&["random", "random"]), false).unwrap())
        .collect();
    let per_game = 40;
    let threads: Vec<_> = games
        .iter()
        .map(|&id| {
            let store = Arc::clone(&store);
            std::thread::spawn(move || {
                for i in 0..per_game {
                    store
                        .append_action(id, i, &format!("end {i}"), Some(&format!("c{i}")))
                        .unwrap();
                    // A wrong index among them is refused alone.
                    let wrong = store.append_action(id, i + 5, "end", None);
                    assert!(
                        matches!(wrong, Err(StoreError::WrongIndex { .. })),
                        "{wrong:?}"
                    );
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    for id in games {
        let game = store.load(id).unwrap();
        let expected: Vec<String> = (0..per_game).map(|i| format!("end {i}")).collect();
        assert_eq!(game.record.actions, expected);
        assert_eq!(game.client_ids[per_game - 1].as_deref(), Some("c39"));
    }
}

#[test]
fn an_action_that_ends_its_game_takes_the_result_with_it() {
    let store = SqliteStore::open(":memory:").unwrap();
    let [a, b, c] = [0, 1, 2].map(|_| store.create(&record(&["random", "random"]), false).unwrap());
    let ending = |id, index, text, winners| store::NewAction {
        winners: Some(winners),
        ..new_action(id, index, text)
    };
    let results = store.append_actions(&[
        new_action(a, 0, "play scout"),
        ending(a, 1, "end", &[Seat(1)]),
        // Refused (a wrong index): its result goes with it.
        ending(b, 5, "end", &[Seat(0)]),
        // Refused: the game is over since the action before, in the same batch.
        new_action(a, 2, "end"),
        ending(c, 0, "end", &[]),
    ]);
    assert!(results[0].is_ok() && results[1].is_ok() && results[4].is_ok());
    assert!(matches!(results[2], Err(StoreError::WrongIndex { .. })));
    assert!(matches!(results[3], Err(StoreError::Finished(_))));
    let stored = store.load(a).unwrap();
    assert_eq!(stored.record.actions, ["play scout", "end"]);
    assert_eq!(stored.winners, Some(vec![Seat(1)]));
    assert!(!store.summary(b).unwrap().finished);
    assert!(store.load(b).unwrap().record.actions.is_empty());
    assert_eq!(store.summary(c).unwrap().winners, Some(vec![]));
    assert_eq!(store.list_unfinished().unwrap().len(), 1);
}

#[test]
fn a_batch_of_appends_keeps_each_result_apart() {
    let store = SqliteStore::open(":memory:").unwrap();
    let a = store.create(&record(&["random", "random"]), false).unwrap();
    let b = store.create(&record(&["random", "random"]), false).unwrap();
    let results = store.append_actions(&[
        new_action(a, 0, "play scout"),
        new_action(b, 3, "end"),
        new_action(a, 1, "end"),
        new_action(b, 0, "end"),
        new_action(a, 1, "end again"),
    ]);
    assert!(results[0].is_ok() && results[2].is_ok() && results[3].is_ok());
    assert!(matches!(
        results[1],
        Err(StoreError::WrongIndex { actual: 0, .. })
    ));
    assert!(matches!(
        results[4],
        Err(StoreError::WrongIndex { actual: 2, .. })
    ));
    assert_eq!(store.load(a).unwrap().record.actions, ["play scout", "end"]);
    assert_eq!(store.load(b).unwrap().record.actions, ["end"]);
}

/// One batch of the server's writer: creations, claims and appends, each with its own result,
/// one that fails undone alone, a game created early in the batch claimed later in it.
#[test]
fn a_batch_of_creations_claims_and_appends_keeps_each_result_apart() {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(db(&dir)).unwrap();
    // A seat named `refused` makes its game's third statement fail, after its game's row
    // and first seat are written: the savepoint must take both back.
    rusqlite::Connection::open(db(&dir))
        .unwrap()
        .execute_batch(
            "CREATE TRIGGER refuse BEFORE INSERT ON seats WHEN NEW.player = 'refused'
             BEGIN SELECT RAISE(ABORT, 'this seat is refused'); END;",
        )
        .unwrap();
    let a = store.create(&record(&[HUMAN, HUMAN]), false).unwrap();
    store.claim_seat(a, Seat(0), &TokenHash::of("t0")).unwrap();
    let (fresh, broken, empty) = (
        record(&[HUMAN, "random"]),
        record(&[HUMAN, "random", "refused"]),
        record(&[]),
    );
    let (t1, t2, t3) = (
        TokenHash::of("t1"),
        TokenHash::of("t2"),
        TokenHash::of("t3"),
    );
    let results = store.write_batch(&[
        store::Write::Create {
            record: &fresh,
            seed_chosen: true,
        },
        store::Write::Claim {
            id: a,
            seat: Seat(0),
            token_hash: &t1,
            holder: None,
        },
        store::Write::Claim {
            id: a,
            seat: Seat(1),
            token_hash: &t2,
            holder: None,
        },
        store::Write::Create {
            record: &broken,
            seed_chosen: false,
        },
        store::Write::Append(new_action(a, 0, "end")),
        store::Write::Create {
            record: &empty,
            seed_chosen: false,
        },
        store::Write::Claim {
            id: GameId(a.0 + 1),
            seat: Seat(0),
            token_hash: &t3,
            holder: None,
        },
        store::Write::Append(new_action(a, 0, "end again")),
    ]);
    let c = GameId(a.0 + 1);
    assert_eq!(results.len(), 8);
    assert_eq!(results[0].as_ref().unwrap(), &Written::Created(c));
    assert!(matches!(results[1], Err(StoreError::SeatTaken { .. })));
    assert_eq!(results[2].as_ref().unwrap(), &Written::Claimed);
    assert!(
        matches!(&results[3], Err(StoreError::Backend(e)) if e.to_string().contains("refused")),
        "{:?}",
        results[3]
    );
    assert_eq!(results[4].as_ref().unwrap(), &Written::Appended);
    assert!(matches!(results[5], Err(StoreError::Invalid(_))));
    assert_eq!(results[6].as_ref().unwrap(), &Written::Claimed);
    assert!(matches!(
        results[7],
        Err(StoreError::WrongIndex { actual: 1, .. })
    ));

    let game = store.load(a).unwrap();
    assert_eq!(game.record.actions, ["end"]);
    assert!(game.seats[0].token_hash.unwrap().matches("t0"));
    assert!(game.seats[1].token_hash.unwrap().matches("t2"));
    let created = store.load(c).unwrap();
    assert!(store.summary(c).unwrap().seed_chosen);
    assert!(created.seats[0].token_hash.unwrap().matches("t3"));
    assert_eq!(created.record.players, [HUMAN, "random"]);
    // Nothing of the broken game stayed: no row, no seat, no log; the next game takes the
    // next number.
    let conn = rusqlite::Connection::open(db(&dir)).unwrap();
    let count = |table: &str| -> i64 {
        conn.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))
            .unwrap()
    };
    assert_eq!((count("games"), count("seats"), count("logs")), (2, 4, 2));
    assert!(open_games(&store).is_empty(), "every human seat is taken");
    drop(store);
    let reopened = SqliteStore::open(db(&dir)).unwrap();
    assert_eq!(reopened.load(a).unwrap().record.actions, ["end"]);
    assert!(reopened.load(c).unwrap().seats[0].token_hash.is_some());
}

/// A store that has only the methods every store must have: its batches take the trait's
/// own way (each run of appends together, every other write alone).
struct Plain(SqliteStore);

impl Store for Plain {
    fn create(&self, record: &GameRecord, seed_chosen: bool) -> Result<GameId, StoreError> {
        self.0.create(record, seed_chosen)
    }
    fn load(&self, id: GameId) -> Result<store::StoredGame, StoreError> {
        self.0.load(id)
    }
    fn summary(&self, id: GameId) -> Result<store::GameSummary, StoreError> {
        self.0.summary(id)
    }
    fn append_action(
        &self,
        id: GameId,
        expected_index: usize,
        text: &str,
        client_id: Option<&str>,
    ) -> Result<(), StoreError> {
        self.0.append_action(id, expected_index, text, client_id)
    }
    fn claim_seat(&self, id: GameId, seat: Seat, hash: &TokenHash) -> Result<(), StoreError> {
        self.0.claim_seat(id, seat, hash)
    }
    fn finish(&self, id: GameId, winners: &[Seat]) -> Result<(), StoreError> {
        self.0.finish(id, winners)
    }
    fn list_unfinished(&self) -> Result<Vec<store::GameSummary>, StoreError> {
        self.0.list_unfinished()
    }
    fn lobby(&self, query: &LobbyQuery) -> Result<LobbyPage, StoreError> {
        self.0.lobby(query)
    }
}

/// The trait's own batch keeps each write's result in its place, whatever comes between the
/// appends.
#[test]
fn a_store_without_batches_of_its_own_answers_each_write_in_order() {
    let store = Plain(SqliteStore::open(":memory:").unwrap());
    let a = store.create(&record(&[HUMAN, HUMAN]), false).unwrap();
    let fresh = record(&[HUMAN, "random"]);
    let (t0, t1) = (TokenHash::of("t0"), TokenHash::of("t1"));
    let results = store.write_batch(&[
        store::Write::Append(new_action(a, 0, "end")),
        store::Write::Append(new_action(a, 0, "end again")),
        store::Write::Create {
            record: &fresh,
            seed_chosen: true,
        },
        store::Write::Claim {
            id: a,
            seat: Seat(0),
            token_hash: &t0,
            holder: None,
        },
        store::Write::Append(new_action(a, 1, "end")),
        store::Write::Claim {
            id: a,
            seat: Seat(0),
            token_hash: &t1,
            holder: None,
        },
        store::Write::Append(new_action(a, 5, "end")),
        store::Write::Append(new_action(a, 2, "end")),
    ]);
    let b = GameId(a.0 + 1);
    assert_eq!(results.len(), 8);
    assert_eq!(results[0].as_ref().unwrap(), &Written::Appended);
    assert!(matches!(
        results[1],
        Err(StoreError::WrongIndex { actual: 1, .. })
    ));
    assert_eq!(results[2].as_ref().unwrap(), &Written::Created(b));
    assert_eq!(results[3].as_ref().unwrap(), &Written::Claimed);
    assert_eq!(results[4].as_ref().unwrap(), &Written::Appended);
    assert!(matches!(results[5], Err(StoreError::SeatTaken { .. })));
    assert!(matches!(
        results[6],
        Err(StoreError::WrongIndex { actual: 2, .. })
    ));
    assert_eq!(results[7].as_ref().unwrap(), &Written::Appended);
    let game = store.load(a).unwrap();
    assert_eq!(game.record.actions, ["end", "end", "end"]);
    assert!(game.seats[0].token_hash.unwrap().matches("t0"));
    assert!(store.summary(b).unwrap().seed_chosen);
}

#[test]
fn a_campaign_keeps_its_save_seats_and_games_in_order_across_reopening() {
    let dir = tempfile::tempdir().unwrap();
    let players = [HUMAN.to_string(), HUMAN.to_string()];
    let save = serde_json::json!({"campaign": "rise_of_empire", "choices": []});
    let (campaign, first);
    let alice = TokenHash::of("alice");
    let bob = TokenHash::of("bob");
    {
        let store = SqliteStore::open(db(&dir)).unwrap();
        campaign = store.create_campaign(&save, &players, false).unwrap();
        store
            .claim_campaign_seat(campaign, Seat(0), &alice, None)
            .unwrap();
        let with_one = serde_json::json!({"campaign": "rise_of_empire", "choices": [1]});
        first = store
            .add_campaign_game(campaign, 0, &record(&[HUMAN, HUMAN]), &with_one)
            .unwrap();
        // The game's seats are the campaign's: p1 holds alice's token, p2 nobody's yet, and
        // the lobby does not offer the game to strangers once bob has joined the campaign.
        let game = store.load(first).unwrap();
        assert_eq!(game.seats[0].token_hash, Some(alice));
        assert_eq!(game.seats[1].token_hash, None);
        store
            .claim_campaign_seat(campaign, Seat(1), &bob, Some("198.51.100.2"))
            .unwrap();
        assert_eq!(store.load(first).unwrap().seats[1].token_hash, Some(bob));
        // Who holds each seat of a campaign's game is who holds the campaign's.
        let holders = |seats: &[store::StoredSeat]| -> Vec<Option<String>> {
            seats.iter().map(|s| s.holder.clone()).collect()
        };
        let bobs = Some("198.51.100.2".to_string());
        assert_eq!(
            holders(&store.load(first).unwrap().seats),
            [None, bobs.clone()]
        );
        assert_eq!(
            holders(&store.load_campaign(campaign).unwrap().seats),
            [None, bobs]
        );
        assert!(!store.summary(first).unwrap().open);
        assert!(open_games(&store).is_empty());
        store.append_action(first, 0, "play scout", None).unwrap();
    }
    let store = SqliteStore::open(db(&dir)).unwrap();
    let c = store.load_campaign(campaign).unwrap();
    assert_eq!(c.id, campaign);
    assert_eq!(c.save["choices"], serde_json::json!([1]));
    assert_eq!(c.games, [first]);
    assert_eq!(c.seats[0].token_hash, Some(alice));
    assert_eq!(c.seats[1].token_hash, Some(bob));
    assert_eq!(store.campaign_of(first).unwrap(), Some(campaign));
    assert_eq!(store.load(first).unwrap().record.actions, ["play scout"]);

    // Games come in order: a second game 0, or a game 2 now, is refused and changes nothing.
    for number in [0, 2] {
        let e = store
            .add_campaign_game(campaign, number, &record(&[HUMAN, HUMAN]), &save)
            .unwrap_err();
        assert!(
            matches!(e, StoreError::WrongCampaignGame { actual: 1, .. }),
            "{e}"
        );
    }
    // Other players than the campaign's are refused.
    let e = store
        .add_campaign_game(campaign, 1, &record(&[HUMAN, "random"]), &save)
        .unwrap_err();
    assert!(e.to_string().contains("campaign's players"), "{e}");
    assert_eq!(store.load_campaign(campaign).unwrap(), c);

    let second = store
        .add_campaign_game(campaign, 1, &record(&[HUMAN, HUMAN]), &save)
        .unwrap();
    assert_eq!(
        store.load_campaign(campaign).unwrap().games,
        [first, second]
    );
    let other = store.create(&record(&[HUMAN, "random"]), false).unwrap();
    assert_eq!(store.campaign_of(other).unwrap(), None);
    // Each game added replaced the save once: a write names the revision it read.
    let read = store.load_campaign(campaign).unwrap();
    assert_eq!(read.revision, 2);
    let mut changed = save.clone();
    changed["note"] = serde_json::json!("first");
    assert!(store.update_campaign(campaign, &changed, 2).unwrap());
    assert_eq!(store.load_campaign(campaign).unwrap().save, changed);
    assert_eq!(store.load_campaign(campaign).unwrap().revision, 3);
    // A second write from the same read (a double click) is refused, and writes nothing.
    assert!(!store.update_campaign(campaign, &save, 2).unwrap());
    let now = store.load_campaign(campaign).unwrap();
    assert_eq!((now.save, now.revision), (changed, 3));
}

#[test]
fn a_campaign_seat_is_claimed_once_and_only_by_a_person() {
    let store = SqliteStore::open(":memory:").unwrap();
    let players = [HUMAN.to_string(), "heuristic".to_string()];
    let id = store
        .create_campaign(&serde_json::json!({}), &players, false)
        .unwrap();
    let token = TokenHash::of("t");
    store
        .claim_campaign_seat(id, Seat(0), &token, None)
        .unwrap();
    assert!(matches!(
        store.claim_campaign_seat(id, Seat(0), &TokenHash::of("u"), None),
        Err(StoreError::CampaignSeatTaken { .. })
    ));
    assert!(matches!(
        store.claim_campaign_seat(id, Seat(1), &token, None),
        Err(StoreError::NotHumanInCampaign { .. })
    ));
    assert!(matches!(
        store.claim_campaign_seat(id, Seat(2), &token, None),
        Err(StoreError::UnknownCampaignSeat { .. })
    ));
    let missing = store::CampaignId(id.0 + 1);
    assert!(matches!(
        store.load_campaign(missing),
        Err(StoreError::UnknownCampaign(_))
    ));
    assert!(
        store
            .update_campaign(missing, &serde_json::json!({}), 0)
            .is_err()
    );
    assert!(
        store
            .create_campaign(&serde_json::json!({}), &[], false)
            .is_err()
    );
}

#[test]
fn a_finished_game_has_one_rematch_whoever_asks_first() {
    let store = SqliteStore::open(":memory:").unwrap();
    let id = store.create(&record(&["human", "human"]), false).unwrap();
    let again = record(&["human", "human"]);
    assert!(
        matches!(
            store.create_rematch(id, &again),
            Err(StoreError::Invalid(_))
        ),
        "not before the end"
    );
    assert_eq!(store.rematch(id).unwrap(), None);
    store.finish(id, &[Seat(0)]).unwrap();
    let (first, created) = store.create_rematch(id, &again).unwrap();
    assert!(created);
    let (second, created) = store.create_rematch(id, &again).unwrap();
    assert_eq!(
        (second, created),
        (first, false),
        "the other player gets the same game"
    );
    assert_eq!(store.rematch(id).unwrap(), Some(first));
    assert_eq!(store.rematch(first).unwrap(), None);
    assert_eq!(store.rematch_of(first).unwrap(), Some(id));
    assert_eq!(store.rematch_of(id).unwrap(), None);
    assert_eq!(store.rematch_of(GameId(999)).unwrap(), None);
    let summary = store.summary(first).unwrap();
    assert_eq!(summary.seats.len(), 2);
    assert!(summary.open && !summary.finished);
    // Its seats are kept for the finished game's players: the lobby does not offer them, while
    // a game created with open seats is offered.
    let other = store.create(&record(&["human", "human"]), false).unwrap();
    let listed = |filter| ids(&store.lobby(&query(filter, 50, None)).unwrap());
    assert_eq!(listed(LobbyFilter::Open), [other]);
    assert_eq!(listed(LobbyFilter::Unfinished), [other]);
    // Once its players have taken their seats, it is among the games being played.
    store
        .claim_seat(first, Seat(0), &TokenHash::of("a"))
        .unwrap();
    store
        .claim_seat(first, Seat(1), &TokenHash::of("b"))
        .unwrap();
    assert_eq!(listed(LobbyFilter::Playing), [first]);
}

/// The pages the write-ahead log holds.
fn wal_pages(dir: &tempfile::TempDir, page_size: u64) -> u64 {
    let wal = dir.path().join("games.sqlite-wal");
    let bytes = std::fs::metadata(wal).map_or(0, |m| m.len());
    // A 32-byte header, then each page behind a 24-byte frame header.
    bytes.saturating_sub(32) / (page_size + 24)
}

#[test]
fn a_commit_of_one_action_from_each_of_many_long_games_writes_a_few_pages() {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(db(&dir)).unwrap();
    let games: Vec<GameId> = (0..100)
        .map(|_| store.create(&record(&["random", "random"]), false).unwrap())
        .collect();
    let text = "buy card 17 from the trade row";
    let round = |i: usize| -> Vec<store::NewAction<'_>> {
        games.iter().map(|&id| new_action(id, i, text)).collect()
    };
    // Each game's log grows past a page of its own (some 40 of these actions fill one).
    for i in 0..60 {
        assert!(store.append_actions(&round(i)).iter().all(Result::is_ok));
    }
    let conn = rusqlite::Connection::open(db(&dir)).unwrap();
    let page_size: u32 = conn
        .query_row("PRAGMA page_size", [], |r| r.get(0))
        .unwrap();
    let page_size = u64::from(page_size);
    let (busy, _, _): (i64, i64, i64) = conn
        .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })
        .unwrap();
    assert_eq!(busy, 0, "the checkpoint ran");
    assert_eq!(wal_pages(&dir, page_size), 0);
    // One more action from each game: keyed by game, that commit wrote each game's last page,
    // a hundred of them; keyed by when they were written, the actions share a few.
    assert!(store.append_actions(&round(60)).iter().all(Result::is_ok));
    let pages = wal_pages(&dir, page_size);
    assert!(pages > 0 && pages <= 15, "{pages} pages for 100 actions");
    for &id in &games {
        assert_eq!(store.load(id).unwrap().record.actions, vec![text; 61]);
        assert_eq!(store.summary(id).unwrap().actions, 61);
    }
}

#[test]
fn a_log_two_stores_wrote_to_comes_back_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let first = SqliteStore::open(db(&dir)).unwrap();
    let second = SqliteStore::open(db(&dir)).unwrap();
    let id = first.create(&record(&["random", "random"]), false).unwrap();
    let texts: Vec<String> = (0..302).map(|i| format!("end {i}")).collect();
    // The second store counts its appends into a second epoch; the first, which appended
    // nothing yet, writes the next action in the epoch where the game's log began.
    let batch: Vec<store::NewAction<'_>> = texts[..301]
        .iter()
        .enumerate()
        .map(|(i, text)| new_action(id, i, text))
        .collect();
    assert!(second.append_actions(&batch).iter().all(Result::is_ok));
    first.append_action(id, 301, &texts[301], None).unwrap();
    for store in [&first, &second] {
        assert_eq!(store.load(id).unwrap().record.actions, texts);
    }
    drop((first, second));
    // A store opened again writes in an epoch after every one in the file.
    let store = SqliteStore::open(db(&dir)).unwrap();
    store.append_action(id, 302, "end 302", None).unwrap();
    let conn = rusqlite::Connection::open(db(&dir)).unwrap();
    let epochs: Vec<i64> = conn
        .prepare(
            "SELECT epoch FROM actions WHERE game_id = ?1 AND idx IN (0, 300, 301, 302)
             ORDER BY idx",
        )
        .unwrap()
        .query_map([id.0], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(epochs, [0, 1, 0, 2]);
    assert_eq!(store.load(id).unwrap().record.actions.len(), 303);
}

#[test]
fn a_database_whose_actions_were_keyed_by_game_is_upgraded_with_every_action() {
    let dir = tempfile::tempdir().unwrap();
    older_database(
        &dir,
        4,
        "INSERT INTO games (id, game, version, config, seed) VALUES
             (1, 'starrealms', 1, '{}', 5),
             (2, 'starrealms', 1, '{}', 6);
         INSERT INTO seats (game_id, seat, player) VALUES
             (1, 0, 'random'), (1, 1, 'random'), (2, 0, 'random'), (2, 1, 'random');
         INSERT INTO actions (game_id, idx, text, client_id) VALUES
             (1, 1, 'end', NULL),
             (1, 0, 'play scout', 'c0'),
             (1, 2, 'play viper', 'c2');",
    );
    let store = SqliteStore::open(db(&dir)).unwrap();
    assert_eq!(store.schema_version().unwrap(), MIGRATIONS.len());
    let game = store.load(GameId(1)).unwrap();
    assert_eq!(game.record.actions, ["play scout", "end", "play viper"]);
    assert_eq!(
        game.client_ids,
        [Some("c0".into()), None, Some("c2".into())]
    );
    assert_eq!(store.summary(GameId(1)).unwrap().actions, 3);
    assert!(store.load(GameId(2)).unwrap().record.actions.is_empty());
    assert_eq!(store.summary(GameId(2)).unwrap().actions, 0);
    // The logs go on from there.
    assert!(matches!(
        store.append_action(GameId(1), 2, "end", None),
        Err(StoreError::WrongIndex { actual: 3, .. })
    ));
    store.append_action(GameId(1), 3, "end", None).unwrap();
    store.append_action(GameId(2), 0, "end", None).unwrap();
    assert_eq!(store.load(GameId(1)).unwrap().record.actions.len(), 4);
    assert_eq!(store.load(GameId(2)).unwrap().record.actions, ["end"]);
}

#[test]
fn a_database_that_kept_finished_in_the_games_alone_is_upgraded() {
    let dir = tempfile::tempdir().unwrap();
    older_database(
        &dir,
        5,
        "INSERT INTO games (id, game, version, config, seed) VALUES
             (1, 'starrealms', 1, '{}', 5),
             (2, 'starrealms', 1, '{}', 6);
         UPDATE games SET finished = 1, winners = '[0]' WHERE id = 1;
         INSERT INTO seats (game_id, seat, player) VALUES
             (1, 0, 'random'), (1, 1, 'random'), (2, 0, 'random'), (2, 1, 'random');
         INSERT INTO actions (epoch, game_id, idx, text) VALUES (0, 1, 0, 'end'), (0, 2, 0, 'end');
         INSERT INTO logs (game_id, actions, first_epoch, last_epoch) VALUES
             (1, 1, 0, 0), (2, 1, 0, 0);",
    );
    let store = SqliteStore::open(db(&dir)).unwrap();
    assert_eq!(store.schema_version().unwrap(), MIGRATIONS.len());
    // The game over before stays over; the other plays on, until it is marked over too.
    assert!(matches!(
        store.append_action(GameId(1), 1, "end", None),
        Err(StoreError::Finished(_))
    ));
    store.append_action(GameId(2), 1, "end", None).unwrap();
    store.finish(GameId(2), &[Seat(1)]).unwrap();
    assert!(matches!(
        store.append_action(GameId(2), 2, "end", None),
        Err(StoreError::Finished(_))
    ));
    assert_eq!(store.load(GameId(1)).unwrap().record.actions, ["end"]);
    assert_eq!(
        store.load(GameId(2)).unwrap().record.actions,
        ["end", "end"]
    );
    let conn = rusqlite::Connection::open(db(&dir)).unwrap();
    let finished: Vec<(i64, i64)> = conn
        .prepare("SELECT game_id, finished FROM logs ORDER BY game_id")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(finished, [(1, 1), (2, 1)]);
}

#[test]
fn a_log_missing_an_action_is_reported_corrupt() {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(db(&dir)).unwrap();
    let id = store.create(&record(&["random", "random"]), false).unwrap();
    for (i, text) in ["play scout", "end", "end"].iter().enumerate() {
        store.append_action(id, i, text, None).unwrap();
    }
    let conn = rusqlite::Connection::open(db(&dir)).unwrap();
    // The last action gone: the log counts one more than it holds.
    conn.execute("DELETE FROM actions WHERE game_id = ?1 AND idx = 2", [id.0])
        .unwrap();
    let err = store.load(id).unwrap_err();
    assert!(matches!(err, StoreError::Corrupt(_)), "{err}");
    assert!(
        err.to_string().contains("2 actions where its log counts 3"),
        "{err}"
    );
    // One in the middle gone: a gap.
    conn.execute("DELETE FROM actions WHERE game_id = ?1 AND idx = 0", [id.0])
        .unwrap();
    let err = store.load(id).unwrap_err();
    assert!(
        err.to_string().contains("action 1 follows action -1"),
        "{err}"
    );
}

#[test]
fn a_person_who_leaves_hands_their_seat_to_a_bot() {
    let store = SqliteStore::open(":memory:").unwrap();
    let id = store
        .create(&record(&["human", "human", "easy"]), false)
        .unwrap();
    store.claim_seat(id, Seat(0), &TokenHash::of("a")).unwrap();
    // Nobody holds p2 yet, p3 is a bot's, p4 does not exist, and a person cannot replace a person.
    for (seat, player, refused) in [
        (Seat(1), "medium", "nobody holds seat p2"),
        (Seat(2), "medium", "is a bot's"),
        (Seat(3), "medium", "has no seat p4"),
        (Seat(0), HUMAN, "handed to a bot"),
    ] {
        let e = store.leave_seat(id, seat, player).unwrap_err();
        assert!(e.to_string().contains(refused), "{e}");
    }
    assert_eq!(
        store.load(id).unwrap().record.players,
        ["human", "human", "easy"]
    );

    store.leave_seat(id, Seat(0), "medium").unwrap();
    let game = store.load(id).unwrap();
    assert_eq!(game.record.players, ["medium", "human", "easy"]);
    assert_eq!(game.seats[0].token_hash, None, "its token opens nothing");
    let summary = store.summary(id).unwrap();
    assert!(!summary.seats[0].claimed);
    assert!(summary.open, "p2 is still free");
    // Twice is once too many; a game over keeps its seats.
    assert!(matches!(
        store.leave_seat(id, Seat(0), "medium"),
        Err(StoreError::NotHuman { .. })
    ));
    store.claim_seat(id, Seat(1), &TokenHash::of("b")).unwrap();
    store.finish(id, &[Seat(1)]).unwrap();
    assert!(matches!(
        store.leave_seat(id, Seat(1), "medium"),
        Err(StoreError::Finished(_))
    ));
}
