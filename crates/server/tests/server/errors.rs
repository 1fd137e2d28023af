//! Refused requests and messages: each gets the right error, changes nothing, and (on a
//! WebSocket) keeps the connection open.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use game::Seat;
use serde_json::{Value, json};
use server::Options;
use store::{GameId, SqliteStore, Store, StoreError, TokenHash};

use crate::common::{self, Client, Event};

fn code(message: &Value) -> &str {
    assert_eq!(message["type"], "error", "an error: {message}");
    message["code"].as_str().unwrap()
}

/// A game of two people, both seats joined: (id, tokens, who moves first (0 or 1)).
async fn two_people(addr: std::net::SocketAddr) -> (i64, [String; 2], usize) {
    let id = common::create(
        addr,
        json!({"game": "starrealms", "seats": ["human", "human"], "seed": 5}),
    )
    .await;
    let tokens = [
        common::join(addr, id, "p1").await,
        common::join(addr, id, "p2").await,
    ];
    let mut watcher = Client::connect(addr, id, None).await;
    let first = watcher.recv().await["to_move"] == "p2";
    (id, tokens, first as usize)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_messages_get_an_error_and_change_nothing() {
    let server = common::start(SqliteStore::open(":memory:").unwrap(), common::options()).await;
    let addr = server.addr;
    let (id, tokens, first) = two_people(addr).await;
    let mut mover = Client::connect(addr, id, Some(&tokens[first])).await;
    let mut other = Client::connect(addr, id, Some(&tokens[1 - first])).await;
    // Each arrival at the table is pushed to those already there: read until both are seen.
    let view = mover.until_all_connected().await;
    other.until_all_connected().await;
    let mut spectator = Client::connect(addr, id, None).await;
    spectator.recv().await;
    assert_eq!(view["version"], 0);
    let legal: Vec<String> = serde_json::from_value(view["legal_actions"].clone()).unwrap();
    let good = legal[0].clone();

    // Each refused message: its error, and nothing else.
    mover.send_text("{not json").await;
    assert_eq!(code(&mover.recv().await), "bad_message");
    // What is wrong with a message of another type, or an act with a field missing, is said.
    mover.send(json!({"type": "dance"})).await;
    let e = mover.recv().await;
    assert_eq!(code(&e), "bad_message");
    let message = e["message"].as_str().unwrap();
    assert!(message.contains("unknown variant `dance`"), "{message}");
    mover
        .send(json!({"type": "act", "version": 0, "action": good}))
        .await;
    let e = mover.recv().await;
    assert_eq!(code(&e), "bad_message", "no client_id");
    let message = e["message"].as_str().unwrap();
    assert!(message.contains("missing field `client_id`"), "{message}");
    // An act's fields in an array, which serde would read in order, is no message.
    mover.send(json!(["act", "c0", 0, good])).await;
    let e = mover.recv().await;
    assert_eq!(code(&e), "bad_message", "{e}");
    assert!(
        e["message"].as_str().unwrap().contains("JSON object"),
        "{e}"
    );
    mover.act("", 0, &good).await;
    assert_eq!(code(&mover.recv().await), "bad_message");
    mover.act(&"x".repeat(65), 0, &good).await;
    let e = mover.recv().await;
    assert_eq!(code(&e), "bad_message");
    assert_eq!(
        e.get("client_id"),
        None,
        "a client_id too long is not echoed: {e}"
    );
    mover.send_binary(b"{}".to_vec()).await;
    assert_eq!(code(&mover.recv().await), "bad_message");
    mover.send_text(&format!("\"{}\"", "a".repeat(5000))).await;
    assert_eq!(code(&mover.recv().await), "too_large");

    mover.act("c1", 0, "buy row 9").await;
    let e = mover.recv().await;
    assert_eq!(
        (code(&e), &e["client_id"]),
        ("illegal_action", &json!("c1"))
    );
    // An action that cannot be read: why, as a key of the table and its values.
    assert_eq!(
        e["reason"],
        json!({"key": "refusal.parse_range",
               "args": {"word": "9", "what": "refusal.what.row_slot", "max": "4"}})
    );
    mover.act("c2", 0, "fly to the moon").await;
    assert_eq!(code(&mover.recv().await), "illegal_action");
    // A well-formed action that is not legal: the game's reason, for a translation.
    mover.act("c3", 0, "play cutter").await;
    let e = mover.recv().await;
    assert_eq!(code(&e), "illegal_action");
    assert_eq!(
        e["reason"],
        json!({"key": "refusal.not_in_hand", "args": {"card": "cutter"}})
    );
    assert_eq!(
        e["message"],
        "`play cutter` is not legal now: no cutter in hand"
    );

    other.act("o1", 0, &good).await;
    assert_eq!(code(&other.recv().await), "not_your_turn");
    spectator.act("s1", 0, &good).await;
    assert_eq!(code(&spectator.recv().await), "not_a_seat");

    // A stale version: refused, with the fresh view.
    mover.act("c4", 7, &good).await;
    assert_eq!(code(&mover.recv().await), "stale_version");
    let fresh = mover.recv().await;
    assert_eq!(
        (fresh["type"].as_str(), fresh["version"].as_u64()),
        (Some("view"), Some(0))
    );

    // Nothing changed: the first good action is still version 0's, and nobody was told of
    // anything meanwhile.
    mover.act("ok1", 0, &good).await;
    let applied = mover.recv().await;
    assert_eq!(applied["version"], 1);
    assert_eq!(applied["ack"], "ok1");
    let mut line = json!({"index": 0, "seat": format!("p{}", first + 1), "action": good});
    if let Some(card) = good.strip_prefix("play ") {
        // The line names the card played.
        line["card"] = json!(card);
    }
    assert_eq!(applied["log"], json!([line]));
    assert_eq!(other.recv().await["version"], 1);
    assert_eq!(spectator.recv().await["version"], 1);
    assert_eq!(
        spectator.received.len(),
        3,
        "the spectator saw: view 0, its error, view 1"
    );

    // The same client_id again: answered with the current view, not applied twice.
    mover.act("ok1", 0, &good).await;
    let again = mover.recv().await;
    assert_eq!(
        (again["type"].as_str(), again["version"].as_u64()),
        (Some("view"), Some(1))
    );
    assert_eq!(again["ack"], "ok1");
    assert_eq!(again["log"], json!([]), "no new action");
    let (_, summary) = common::http(addr, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(summary["actions"], 1);

    // The connections are still open and in use.
    let next = mover.received.last().unwrap()["legal_actions"][0]
        .as_str()
        .unwrap()
        .to_string();
    mover.act("ok2", 1, &next).await;
    assert_eq!(mover.recv().await["version"], 2);
    assert_eq!(other.recv().await["version"], 2);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_games_and_wrong_tokens_are_refused_at_connection() {
    let server = common::start(SqliteStore::open(":memory:").unwrap(), common::options()).await;
    let addr = server.addr;
    let (id, tokens, _) = two_people(addr).await;

    // A long number too: its message quotes it briefly, and its close frame stays within the
    // 125 bytes a control frame may carry, which a client would otherwise fail on.
    let long = "9".repeat(3000);
    for game in ["999", "abc", &long] {
        let mut c = Client::connect(addr, game, None).await;
        let e = c.recv().await;
        assert_eq!(code(&e), "unknown_game");
        assert!(e["message"].as_str().unwrap().len() < 100, "{e}");
        assert!(matches!(c.event().await, Event::Closed(Some(4404))));
    }
    let mut c = Client::connect(addr, id, Some("not-a-token")).await;
    assert_eq!(code(&c.recv().await), "bad_token");
    assert!(matches!(c.event().await, Event::Closed(Some(4401))));
    // A token of another game is no token here.
    let (other, other_tokens, _) = two_people(addr).await;
    assert_ne!(other, id);
    let mut c = Client::connect(addr, id, Some(&other_tokens[0])).await;
    assert_eq!(code(&c.recv().await), "bad_token");
    // The right token still works.
    let mut c = Client::connect(addr, id, Some(&tokens[1])).await;
    assert_eq!(c.recv().await["seat"], "p2");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_messages_is_rate_limited() {
    let options = Options {
        messages_burst: 3,
        messages_per_second: 1,
        ..common::options()
    };
    let server = common::start(SqliteStore::open(":memory:").unwrap(), options).await;
    let addr = server.addr;
    let (id, tokens, _) = two_people(addr).await;
    let mut c = Client::connect(addr, id, Some(&tokens[0])).await;
    c.recv().await;
    for _ in 0..6 {
        c.send_text("{}").await;
    }
    let mut codes = Vec::new();
    for _ in 0..6 {
        codes.push(code(&c.recv().await).to_string());
    }
    assert_eq!(&codes[..3], ["bad_message"; 3]);
    assert_eq!(&codes[3..], ["rate_limited"; 3]);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http_errors_are_json_with_a_code() {
    let server = common::start(SqliteStore::open(":memory:").unwrap(), common::options()).await;
    let addr = server.addr;
    let id = common::create(
        addr,
        json!({"game": "starrealms", "seats": ["human", "random"], "seed": 1}),
    )
    .await;
    let cases: Vec<(&str, String, Option<Value>, u16, &str)> = vec![
        ("GET", "/api/games/999".into(), None, 404, "unknown_game"),
        ("GET", "/api/games/x".into(), None, 404, "unknown_game"),
        (
            "GET",
            format!("/api/games/{id}/record"),
            None,
            409,
            "not_finished",
        ),
        (
            "POST",
            format!("/api/games/{id}/seats/p2/join"),
            None,
            409,
            "not_human",
        ),
        (
            "POST",
            format!("/api/games/{id}/seats/p3/join"),
            None,
            404,
            "unknown_seat",
        ),
        (
            "POST",
            format!("/api/games/{id}/seats/seven/join"),
            None,
            404,
            "unknown_seat",
        ),
        (
            "POST",
            "/api/games/999/seats/p1/join".into(),
            None,
            404,
            "unknown_game",
        ),
        (
            "POST",
            format!("/api/games/{id}/seats/p2/leave"),
            Some(json!({"token": "x"})),
            409,
            "not_human",
        ),
        (
            "POST",
            format!("/api/games/{id}/seats/p1/leave"),
            Some(json!({"token": "x"})),
            401,
            "bad_token",
        ),
        (
            "POST",
            format!("/api/games/{id}/seats/p1/leave"),
            Some(json!({"tokn": "x"})),
            400,
            "bad_request",
        ),
        (
            "POST",
            format!("/api/games/{id}/seats/p1/join"),
            Some(json!({"tokn": "x"})),
            400,
            "bad_request",
        ),
        ("GET", "/nowhere".into(), None, 404, "not_found"),
        (
            "POST",
            "/api/games".into(),
            Some(json!({"game": "starrealms", "seats": ["human", "grandmaster"]})),
            400,
            "bad_request",
        ),
        (
            "POST",
            "/api/games".into(),
            Some(json!({"game": "cosmique", "seats": ["human", "random"]})),
            400,
            "bad_request",
        ),
    ];
    for (method, path, body, status, expected) in cases {
        let (got, answer) = common::http(addr, method, &path, body).await;
        assert_eq!((got, code(&answer)), (status, expected), "{method} {path}");
        assert!(answer["message"].is_string());
    }
    let (status, answer) = common::http_raw(addr, "POST", "/api/games", "{oops").await;
    assert_eq!((status, code(&answer)), (400, "bad_request"));
    // A body is an object of named fields: the parser would read an array as the fields in
    // order, and name the server's types in its words.
    for (path, body) in [
        ("/api/games", "[]"),
        ("/api/campaigns", r#"[["human", "easy"]]"#),
        (&format!("/api/games/{id}/seats/p1/join"), "[]"),
        (&format!("/api/games/{id}/seats/p1/leave"), r#"["x"]"#),
    ] {
        let (status, answer) = common::http_raw(addr, "POST", path, body).await;
        assert_eq!(
            (status, code(&answer)),
            (400, "bad_request"),
            "{path} {body}"
        );
        let message = answer["message"].as_str().unwrap();
        assert!(
            message.ends_with("expected a JSON object with named fields"),
            "{message}"
        );
    }
    let (_, answer) = common::http_raw(addr, "POST", "/api/games", r#"{"game": 3}"#).await;
    let message = answer["message"].as_str().unwrap();
    assert!(!message.contains("struct"), "{message}");
    // What the client sent is quoted briefly, however long.
    let long = "A".repeat(15_000);
    let request = json!({"game": "starrealms", "seats": ["human", long]});
    let (status, answer) = common::http(addr, "POST", "/api/games", Some(request)).await;
    assert_eq!(status, 400);
    let message = answer["message"].as_str().unwrap();
    assert!(message.len() < 2_000, "{message}");
    assert!(
        message.contains(&format!("`{}…`", "A".repeat(64))),
        "{message}"
    );
    // The parser's own quotes too (a string where a number goes), a number too long to be a
    // game's, an unknown query parameter, the same: no answer grows with the request.
    let request = json!({"game": "starrealms", "seats": ["human", "random"], "seed": long});
    let (status, answer) = common::http(addr, "POST", "/api/games", Some(request)).await;
    assert_eq!(status, 400);
    let message = answer["message"].as_str().unwrap();
    assert!(
        message.contains(&format!("\"{}…\"", "A".repeat(64))),
        "{message}"
    );
    for path in [
        format!("/api/games/{}", "9".repeat(5_000)),
        format!("/api/campaigns/{}", "9".repeat(5_000)),
        format!("/api/games?{}=1", "a".repeat(5_000)),
    ] {
        let (status, answer) = common::http(addr, "GET", &path, None).await;
        assert!(status >= 400, "{path}");
        let message = answer["message"].as_str().unwrap();
        assert!(message.len() < 300, "{} bytes: {message}", message.len());
    }

    common::join(addr, id, "p1").await;
    let (status, answer) = common::http(
        addr,
        "POST",
        &format!("/api/games/{id}/seats/p1/join"),
        None,
    )
    .await;
    assert_eq!((status, code(&answer)), (409, "seat_taken"));

    // The protocol.
    let (status, doc) = common::http(addr, "GET", "/protocol.md", None).await;
    assert_eq!(status, 200);
    assert!(doc.as_str().unwrap().contains("stale_version"));
    server.stop().await;
}

/// A store that can be made to fail its appends.
struct Flaky {
    inner: SqliteStore,
    failing: Arc<AtomicBool>,
}

impl Store for Flaky {
    fn create(&self, record: &game::GameRecord, seed_chosen: bool) -> Result<GameId, StoreError> {
        self.inner.create(record, seed_chosen)
    }
    fn load(&self, id: GameId) -> Result<store::StoredGame, StoreError> {
        self.inner.load(id)
    }
    fn summary(&self, id: GameId) -> Result<store::GameSummary, StoreError> {
        self.inner.summary(id)
    }
    fn append_action(
        &self,
        id: GameId,
        expected_index: usize,
        text: &str,
        client_id: Option<&str>,
    ) -> Result<(), StoreError> {
        if self.failing.load(Ordering::SeqCst) {
            return Err(StoreError::Backend("the disk is full".into()));
        }
        self.inner
            .append_action(id, expected_index, text, client_id)
    }
    fn claim_seat(&self, id: GameId, seat: Seat, hash: &TokenHash) -> Result<(), StoreError> {
        self.inner.claim_seat(id, seat, hash)
    }
    fn finish(&self, id: GameId, winners: &[Seat]) -> Result<(), StoreError> {
        self.inner.finish(id, winners)
    }
    fn list_unfinished(&self) -> Result<Vec<store::GameSummary>, StoreError> {
        self.inner.list_unfinished()
    }
    fn lobby(&self, query: &store::LobbyQuery) -> Result<store::LobbyPage, StoreError> {
        self.inner.lobby(query)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_action_the_store_refuses_is_told_to_nobody() {
    let failing = Arc::new(AtomicBool::new(false));
    let store = Flaky {
        inner: SqliteStore::open(":memory:").unwrap(),
        failing: Arc::clone(&failing),
    };
    let server = common::start(store, common::options()).await;
    let addr = server.addr;
    let (id, tokens, first) = two_people(addr).await;
    let mut mover = Client::connect(addr, id, Some(&tokens[first])).await;
    let view = mover.recv().await;
    let mut spectator = Client::connect(addr, id, None).await;
    spectator.recv().await;
    let action = common::first_legal(&view);

    failing.store(true, Ordering::SeqCst);
    mover.act("lost", 0, &action).await;
    assert_eq!(code(&mover.recv().await), "internal");
    // The game's task ends: every connection is told to come back, nobody saw the action.
    assert!(matches!(mover.event().await, Event::Closed(Some(1012))));
    assert!(matches!(spectator.event().await, Event::Closed(Some(1012))));
    assert!(spectator.received.iter().all(|m| m["version"] != 1));

    failing.store(false, Ordering::SeqCst);
    let mut mover = Client::connect(addr, id, Some(&tokens[first])).await;
    let view = mover.recv().await;
    assert_eq!(
        (view["version"].as_u64(), &view["log"]),
        (Some(0), &json!([]))
    );
    mover.act("kept", 0, &action).await;
    assert_eq!(mover.recv().await["ack"], "kept");
    server.stop().await;
}
