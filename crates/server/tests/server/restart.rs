//! Restarts: after a graceful shutdown or a crash, a server on the same SQLite file has every
//! game with every action any client was told of, and the games go on (bots included, exactly
//! as if never stopped).

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};
use store::SqliteStore;
use tokio::net::TcpListener;

use server::Options;

use crate::common::{self, Client, first_legal};

/// Plays `moves` actions of the client's seat with the first legal action, the bot answering;
/// returns after the last one was acknowledged.
async fn play_moves(client: &mut Client, moves: usize) {
    let mut acked = 0;
    while acked < moves {
        let v = client.recv().await;
        assert_eq!(v["type"], "view", "{v}");
        assert_eq!(v["over"], false, "the game lasts longer than the test");
        if v["ack"].is_string() {
            acked += 1;
        }
        if v["to_move"] == v["seat"] && acked < moves {
            let version = v["version"].as_u64().unwrap();
            client
                .act(&format!("m{version}"), version, &first_legal(&v))
                .await;
        }
    }
}

/// Every log line a client was told of, by index.
fn told(client: &Client) -> BTreeMap<u64, Value> {
    let mut lines = BTreeMap::new();
    for m in &client.received {
        for line in m["log"].as_array().into_iter().flatten() {
            lines.insert(line["index"].as_u64().unwrap(), line.clone());
        }
    }
    lines
}

/// The second server's first view holds every line told before, at the same place.
fn keeps(view: &Value, before: &BTreeMap<u64, Value>) {
    let log = view["log"].as_array().unwrap();
    assert!(!before.is_empty());
    for (index, line) in before {
        assert_eq!(
            log.get(*index as usize),
            Some(line),
            "action {index} was told of before the restart"
        );
    }
    assert!(view["version"].as_u64().unwrap() as usize >= before.len());
}

async fn new_game(addr: SocketAddr, seed: u64) -> (i64, String) {
    let id = common::create(
        addr,
        json!({"game": "starrealms", "seats": ["human", "heuristic"], "seed": seed}),
    )
    .await;
    (id, common::join(addr, id, "p1").await)
}

/// Plays the rest of the game and checks the record replays.
async fn finish(addr: SocketAddr, id: i64, token: &str) {
    let client = Client::connect(addr, id, Some(token)).await;
    let client = common::play_seat(client, first_legal).await;
    let record = common::record(addr, id).await;
    let state: starrealms::State = record.replay().unwrap();
    assert!(state.over);
    assert_eq!(
        client.received.last().unwrap()["version"].as_u64().unwrap() as usize,
        record.actions.len()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_graceful_restart_games_go_on_with_every_action() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("realms.sqlite");
    let first = common::start(SqliteStore::open(&path).unwrap(), common::options()).await;
    let (id, token) = new_game(first.addr, 3).await;
    let mut client = Client::connect(first.addr, id, Some(&token)).await;
    play_moves(&mut client, 12).await;
    first.stop().await;
    // The connection was closed by the shutdown, with "going away".
    loop {
        match client.event().await {
            common::Event::Closed(code) => {
                assert_eq!(code, Some(1001));
                break;
            }
            common::Event::Message(_) => {}
        }
    }

    let second = common::start(SqliteStore::open(&path).unwrap(), common::options()).await;
    let mut again = Client::connect(second.addr, id, Some(&token)).await;
    let told = told(&client);
    // The cards lines name come back too: the replay on load finds them again.
    assert!(told.values().any(|l| l["card"].is_string()), "{told:?}");
    keeps(&again.recv().await, &told);
    drop(again);
    finish(second.addr, id, &token).await;
    second.stop().await;
}

/// A server in its own runtime, to be killed: its runtime is dropped with every task in it,
/// as in a crash (no graceful shutdown, no destructor order).
fn start_crashable(path: &Path) -> (SocketAddr, tokio::runtime::Runtime) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let addr = listener.local_addr().unwrap();
    let store = SqliteStore::open(path).unwrap();
    runtime.spawn(async move {
        let listener = TcpListener::from_std(listener).unwrap();
        let _ = server::launch(listener, store, common::options(), std::future::pending()).await;
    });
    (addr, runtime)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_crash_games_go_on_with_every_acknowledged_action() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("realms.sqlite");
    let (addr, runtime) = start_crashable(&path);
    let (id, token) = new_game(addr, 4).await;
    let mut client = Client::connect(addr, id, Some(&token)).await;
    play_moves(&mut client, 10).await;
    // One more action in flight when the server dies.
    let last = client.received.last().unwrap().clone();
    if last["to_move"] == last["seat"] {
        let version = last["version"].as_u64().unwrap();
        client.act("in-flight", version, &first_legal(&last)).await;
    }
    runtime.shutdown_background();
    // Let a store call the dead runtime had started finish (or not) on its own.
    tokio::time::sleep(Duration::from_millis(100)).await;

    let second = common::start(SqliteStore::open(&path).unwrap(), common::options()).await;
    let mut again = Client::connect(second.addr, id, Some(&token)).await;
    keeps(&again.recv().await, &told(&client));
    drop(again);
    finish(second.addr, id, &token).await;
    second.stop().await;
}

/// Waits, through the lobby API only (which loads no game), until a game is over.
async fn wait_finished(addr: SocketAddr, id: i64) -> Value {
    for _ in 0..2000 {
        let (_, summary) = common::http(addr, "GET", &format!("/api/games/{id}"), None).await;
        if summary["finished"] == true {
            return summary;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("game {id} did not end");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_game_resumed_after_a_restart_ends_as_if_never_stopped() {
    let request = json!({"game": "starrealms", "seats": ["heuristic", "easy"], "seed": 8});
    let slow = Options {
        bot_delay: Duration::from_millis(2),
        ..common::options()
    };

    let reference = common::start(SqliteStore::open(":memory:").unwrap(), common::options()).await;
    let id = common::create(reference.addr, request.clone()).await;
    wait_finished(reference.addr, id).await;
    let expected = common::record(reference.addr, id).await;
    reference.stop().await;

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("realms.sqlite");
    let first = common::start(SqliteStore::open(&path).unwrap(), slow.clone()).await;
    let id = common::create(first.addr, request).await;
    let mut watcher = Client::connect(first.addr, id, None).await;
    let seen = watcher.view_at_least(30).await["version"].as_u64().unwrap() as usize;
    first.stop().await;
    assert!(seen < expected.actions.len(), "stopped in the middle");

    // Nobody connects: the server resumes the game on start, and its bots play it out.
    let second = common::start(SqliteStore::open(&path).unwrap(), slow).await;
    let summary = wait_finished(second.addr, id).await;
    let resumed = common::record(second.addr, id).await;
    assert_eq!(resumed.actions, expected.actions);
    assert_eq!(
        summary["actions"].as_u64().unwrap() as usize,
        expected.actions.len()
    );
    second.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_over_in_its_log_but_not_in_the_store_is_marked_over_once_loaded() {
    // A whole game played by two bots, its actions stored one by one without its result, as an
    // older server left it when it stopped between the two.
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(dir.path().join("games.sqlite")).unwrap();
    let mut record = game::GameRecord::new::<starrealms::State>(&Default::default(), 5);
    record.players = vec!["human".into(), "human".into()];
    let (id, winners) = {
        use store::Store as _;
        let id = store.create(&record, true).unwrap();
        let mut state = record.initial_state::<starrealms::State>().unwrap();
        let mut bot = bots::starrealms::by_name("medium", 2).unwrap();
        let mut index = 0;
        while let Some(seat) = state.to_move() {
            let legal = state.legal_actions();
            let action = bot.choose(&bots::SeatView::of_state(&state, seat), &legal);
            state.apply(action).unwrap();
            store
                .append_action(id, index, &action.to_string(), None)
                .unwrap();
            index += 1;
        }
        assert!(!store.summary(id).unwrap().finished);
        let winners: Vec<String> = state.winners().iter().map(|s| s.to_string()).collect();
        assert_eq!(winners.len(), 1);
        (id, winners)
    };
    let server = common::start(store, common::options()).await;
    // Loading the game (a spectator's view) marks it over, with the winner its log gives.
    let mut spectator = Client::connect(server.addr, id.0, None).await;
    let view = spectator.recv().await;
    assert_eq!(view["over"], true, "{view}");
    let summary = wait_finished(server.addr, id.0).await;
    assert_eq!(summary["winners"], json!(winners), "{summary}");
    server.stop().await;
}
