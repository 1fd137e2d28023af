//! Replays for the browser's viewer: a finished game step by step from any seat, every hand
//! shown on request, a record sent by the client; unfinished games and bad records refused.

use game::{Action as _, GameRecord, Seat};
use serde_json::{Value, json};
use store::SqliteStore;

use crate::common;

/// Waits for the game of two bots to end; returns its summary.
async fn finished(addr: std::net::SocketAddr, id: i64) -> Value {
    for _ in 0..400 {
        let (_, summary) = common::http(addr, "GET", &format!("/api/games/{id}"), None).await;
        if summary["finished"] == true {
            return summary;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    panic!("game {id} did not end");
}

/// The observation of `seat` after the first `step` actions of `record`, as JSON.
fn observation_at(record: &GameRecord, step: usize, seat: Seat) -> Value {
    let mut state: starrealms::State = record.initial_state().unwrap();
    for text in &record.actions[..step] {
        state
            .apply(starrealms::Action::parse(text).unwrap())
            .unwrap();
    }
    serde_json::to_value(state.observation(seat)).unwrap()
}

#[tokio::test]
async fn a_finished_game_replays_step_by_step_from_any_seat_and_with_every_hand() {
    let server = common::start(SqliteStore::open(":memory:").unwrap(), common::options()).await;
    let addr = server.addr;
    let id = common::create(
        addr,
        json!({"game": "starrealms", "seats": ["random", "random"], "seed": 5}),
    )
    .await;
    let summary = finished(addr, id).await;
    let record = common::record(addr, id).await;
    let n = record.actions.len();

    let (status, page) = common::http(
        addr,
        "GET",
        &format!("/api/games/{id}/replay?seat=p2&from=0&count=5"),
        None,
    )
    .await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(page["actions"], n);
    assert_eq!(page["seats"], 2);
    assert_eq!(page["seat"], "p2");
    let views = page["views"].as_array().unwrap();
    assert_eq!(views.len(), 5);
    assert!(views[0]["line"].is_null(), "nothing led to step 0");
    for (k, view) in views.iter().enumerate() {
        assert_eq!(view["step"], k);
        assert_eq!(
            view["observation"],
            observation_at(&record, k, Seat(1)),
            "step {k}"
        );
        if k > 0 {
            assert_eq!(view["line"]["index"], k - 1);
            assert_eq!(view["line"]["action"], record.actions[k - 1]);
        }
    }
    // Without `all` the other hand is hidden; with it, shown as its seat sees it.
    assert!(views[1]["observation"]["players"][0]["hand"].is_null());
    let (_, all) = common::http(
        addr,
        "GET",
        &format!("/api/games/{id}/replay?seat=p2&all=true&from=1&count=1"),
        None,
    )
    .await;
    let hand = &all["views"][0]["observation"]["players"][0]["hand"];
    assert_eq!(
        hand,
        &observation_at(&record, 1, Seat(0))["players"][0]["hand"]
    );
    assert!(hand.as_array().is_some_and(|h| !h.is_empty()));

    // The last page ends with the result.
    let (_, last) = common::http(
        addr,
        "GET",
        &format!("/api/games/{id}/replay?from={n}"),
        None,
    )
    .await;
    let views = last["views"].as_array().unwrap();
    assert_eq!(views.len(), 1);
    assert_eq!(views[0]["over"], true);
    assert_eq!(views[0]["winners"], summary["winners"]);
    assert_eq!(last["seat"], "p1", "p1 unless asked");

    // The record sent back gives the same pages.
    let text = serde_json::to_string(&record).unwrap();
    let (status, sent) =
        common::http_raw(addr, "POST", "/api/replay?seat=p2&from=0&count=5", &text).await;
    assert_eq!(status, 200, "{sent}");
    assert_eq!(sent["views"], page["views"]);
    server.stop().await;
}

#[tokio::test]
async fn replays_of_unfinished_games_and_bad_records_are_refused_in_words() {
    let server = common::start(SqliteStore::open(":memory:").unwrap(), common::options()).await;
    let addr = server.addr;
    let id = common::create(
        addr,
        json!({"game": "starrealms", "seats": ["human", "random"]}),
    )
    .await;
    let (status, e) = common::http(addr, "GET", &format!("/api/games/{id}/replay"), None).await;
    assert_eq!(
        (status, e["code"].as_str()),
        (409, Some("not_finished")),
        "{e}"
    );

    let done = common::create(
        addr,
        json!({"game": "starrealms", "seats": ["random", "random"], "seed": 9}),
    )
    .await;
    finished(addr, done).await;
    let record = common::record(addr, done).await;
    let n = record.actions.len();
    for (path, words) in [
        (
            format!("/api/games/{done}/replay?seat=p3"),
            "not a seat of this game",
        ),
        (
            format!("/api/games/{done}/replay?from={}", n + 1),
            "past the end",
        ),
        (format!("/api/games/{done}/replay?count=x"), "count"),
        (
            format!("/api/games/{done}/replay?count=0"),
            "`count` is 0: a page holds 1 to 200 steps",
        ),
        (
            format!("/api/games/{done}/replay?count=201"),
            "`count` is 201: a page holds 1 to 200 steps",
        ),
        (format!("/api/games/{done}/replay?colour=red"), "colour"),
    ] {
        let (status, e) = common::http(addr, "GET", &path, None).await;
        assert_eq!(
            (status, e["code"].as_str()),
            (400, Some("bad_request")),
            "{path}: {e}"
        );
        assert!(
            e["message"].as_str().unwrap().contains(words),
            "{path}: {e}"
        );
    }

    let mut broken = record.clone();
    broken.actions[3] = "buy row 9".into();
    let mut designer = record.clone();
    designer.cards = Some(game::CardsRef {
        file: "mine.toml".into(),
        fingerprint: "00".into(),
    });
    // A deck of thousands of cards would be in every view of every step: refused.
    let mut huge = record.clone();
    huge.config["decks"] = json!([vec!["scout"; 58_000], vec!["scout"; 58_000]]);
    for (query, body, words) in [
        ("", "{not json".to_string(), "not a game record"),
        ("", serde_json::to_string(&broken).unwrap(), "action 3"),
        // Refused whichever page is asked for, the action past it too.
        (
            "?from=0&count=1",
            serde_json::to_string(&broken).unwrap(),
            "action 3",
        ),
        (
            "",
            serde_json::to_string(&designer).unwrap(),
            "designer's card file",
        ),
        (
            "?count=200&all=true",
            serde_json::to_string(&huge).unwrap(),
            "p1's deck has 58000 cards; a deck holds at most 100",
        ),
    ] {
        let path = format!("/api/replay{query}");
        let (status, e) = common::http_raw(addr, "POST", &path, &body).await;
        assert_eq!(
            (status, e["code"].as_str()),
            (400, Some("bad_request")),
            "{e}"
        );
        assert!(e["message"].as_str().unwrap().contains(words), "{e}");
    }
    server.stop().await;
}

#[tokio::test]
async fn a_finished_game_is_played_again_with_sides_swapped_once_or_as_it_was() {
    let server = common::start(SqliteStore::open(":memory:").unwrap(), common::options()).await;
    let addr = server.addr;
    let id = common::create(
        addr,
        json!({"game": "starrealms", "seats": ["easy", "random"], "seed": 3}),
    )
    .await;
    let (status, e) = common::http(addr, "POST", &format!("/api/games/{id}/again"), None).await;
    // Perhaps not over yet: refused until it is.
    if status != 201 {
        assert_eq!(
            (status, e["code"].as_str()),
            (409, Some("not_finished")),
            "{e}"
        );
    }
    finished(addr, id).await;
    let record = common::record(addr, id).await;

    let (status, rematch) =
        common::http(addr, "POST", &format!("/api/games/{id}/again"), None).await;
    assert_eq!(status, 201, "{rematch}");
    let players: Vec<&str> = rematch["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["player"].as_str().unwrap())
        .collect();
    assert_eq!(players, ["random", "easy"], "sides swapped");
    assert_eq!(rematch["seats_from"], json!({"p1": "p2", "p2": "p1"}));
    assert_eq!(rematch["config"], record.config);
    let again = rematch["id"].as_i64().unwrap();
    assert_ne!(again, id);
    // The other player asking gets the same game; the finished game names it.
    let (_, other) = common::http(
        addr,
        "POST",
        &format!("/api/games/{id}/again"),
        Some(json!({"swap": true})),
    )
    .await;
    assert_eq!(other["id"], again);
    let (_, summary) = common::http(addr, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(summary["rematch"], again);
    // A fresh deal: the rematch's seed is not the game's.
    finished(addr, again).await;
    assert_ne!(common::record(addr, again).await.seed, record.seed);

    // The same settings and seats: a new game each time, not the rematch.
    let (status, same) = common::http(
        addr,
        "POST",
        &format!("/api/games/{id}/again"),
        Some(json!({"swap": false})),
    )
    .await;
    assert_eq!(status, 201, "{same}");
    let players: Vec<&str> = same["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["player"].as_str().unwrap())
        .collect();
    assert_eq!(players, ["easy", "random"]);
    assert_eq!(same["seats_from"], json!({"p1": "p1", "p2": "p2"}));
    assert_ne!(same["id"], again);

    for (body, words) in [
        ("{\"swap\": 1}", "not a request to play again"),
        ("{\"colour\": 1}", "unknown field"),
    ] {
        let (status, e) =
            common::http_raw(addr, "POST", &format!("/api/games/{id}/again"), body).await;
        assert_eq!(
            (status, e["code"].as_str()),
            (400, Some("bad_request")),
            "{e}"
        );
        assert!(e["message"].as_str().unwrap().contains(words), "{e}");
    }
    let (status, e) = common::http(addr, "POST", "/api/games/999/again", None).await;
    assert_eq!(
        (status, e["code"].as_str()),
        (404, Some("unknown_game")),
        "{e}"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_keeps_its_seats_for_the_players_of_the_game_before() {
    let server = common::start(SqliteStore::open(":memory:").unwrap(), common::options()).await;
    let addr = server.addr;
    let (id, tokens) = common::both_seated(addr, 23).await;
    let mut seats = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        let client = common::Client::connect(addr, id, Some(token)).await;
        let bot = bots::starrealms::by_name("heuristic", 60 + i as u64).unwrap();
        seats.push(tokio::spawn(common::play_seat(
            client,
            common::remote_bot(bot),
        )));
    }
    for seat in seats {
        seat.await.unwrap();
    }
    finished(addr, id).await;

    // Anybody may ask for the rematch (a stranger's request makes the game its players find):
    // its seats wait for them.
    let (status, rematch) =
        common::http(addr, "POST", &format!("/api/games/{id}/again"), None).await;
    assert_eq!(status, 201, "{rematch}");
    assert_eq!(rematch["seats_from"], json!({"p1": "p2", "p2": "p1"}));
    assert_eq!(rematch["rematch_of"], id);
    assert_eq!(rematch["kept_for"], json!({"p1": "p2", "p2": "p1"}));
    let again = rematch["id"].as_i64().unwrap();
    let (_, summary) = common::http(addr, "GET", &format!("/api/games/{again}"), None).await;
    assert_eq!(summary["rematch_of"], id, "{summary}");
    // Each seat kept for the player who sat in the other one.
    assert_eq!(
        summary["kept_for"],
        json!({"p1": "p2", "p2": "p1"}),
        "{summary}"
    );
    // Not offered in the lobby, whose open seats anybody may take.
    let (_, lobby) = common::http(addr, "GET", "/api/games?status=open", None).await;
    assert_eq!(lobby["games"], json!([]), "{lobby}");

    let join = |seat: &'static str, body: Option<Value>| async move {
        common::http(
            addr,
            "POST",
            &format!("/api/games/{again}/seats/{seat}/join"),
            body,
        )
        .await
    };
    // A stranger, with no token or another's, is refused, and told why.
    let stranger = "ab".repeat(32);
    for (seat, body) in [
        ("p1", None),
        ("p1", Some(json!({"token": stranger}))),
        // p1 of the game before now sits at p2: its token does not open p1.
        ("p1", Some(json!({"token": tokens[0]}))),
        ("p2", Some(json!({"token": tokens[1]}))),
    ] {
        let (status, e) = join(seat, body.clone()).await;
        assert_eq!(
            (status, e["code"].as_str()),
            (403, Some("seat_reserved")),
            "{seat} {body:?}: {e}"
        );
        let message = e["message"].as_str().unwrap();
        assert!(message.contains(&format!("game {id}")), "{message}");
        assert!(
            !message.contains(&stranger),
            "no token is echoed: {message}"
        );
    }
    for body in ["[]", "{\"token\": 5}", "{\"seat\": \"p1\"}"] {
        let (status, e) = common::http_raw(
            addr,
            "POST",
            &format!("/api/games/{again}/seats/p1/join"),
            body,
        )
        .await;
        assert_eq!(
            (status, e["code"].as_str()),
            (400, Some("bad_request")),
            "{body}: {e}"
        );
    }
    let (_, summary) = common::http(addr, "GET", &format!("/api/games/{again}"), None).await;
    assert_eq!(summary["open"], true, "nothing taken: {summary}");

    // Each player takes the seat they moved to with their token of the game before.
    let (status, p1) = join("p1", Some(json!({"token": tokens[1]}))).await;
    assert_eq!(status, 200, "{p1}");
    let (status, p2) = join("p2", Some(json!({"token": tokens[0]}))).await;
    assert_eq!(status, 200, "{p2}");
    assert_ne!(
        p1["token"],
        json!(tokens[1]),
        "a new token for the new game"
    );
    let (status, e) = join("p2", Some(json!({"token": tokens[0]}))).await;
    assert_eq!(
        (status, e["code"].as_str()),
        (409, Some("seat_taken")),
        "{e}"
    );
    // Its players seated, it is among the games being played.
    let (_, lobby) = common::http(addr, "GET", "/api/games?status=playing", None).await;
    assert_eq!(lobby["games"][0]["id"], again, "{lobby}");

    // The same settings again is a new game like any other: its seats are free to anybody.
    let (status, same) = common::http(
        addr,
        "POST",
        &format!("/api/games/{id}/again"),
        Some(json!({"swap": false})),
    )
    .await;
    assert_eq!(status, 201, "{same}");
    let same = same["id"].as_i64().unwrap();
    common::join(addr, same, "p1").await;
    let (_, summary) = common::http(addr, "GET", &format!("/api/games/{same}"), None).await;
    assert_eq!(summary.get("rematch_of"), None, "{summary}");
    assert_eq!(summary.get("kept_for"), None, "{summary}");
    server.stop().await;
}
