//! Who is at the table: every view lists each seat's player, whether it is claimed and whether
//! it is connected, and a fresh view of the same version is pushed when that changes. A game
//! waits for its players: until every human seat is claimed nobody may act and no bot moves,
//! after a restart and in a rematch too.

use std::time::Duration;

use bots::SeatView;
use serde_json::{Value, json};
use store::{SqliteStore, Store as _};

use crate::common::{self, Client};

/// How long a test waits to be sure that nothing comes.
const QUIET: Duration = Duration::from_millis(300);

/// Nothing arrives on `client` for a while.
async fn quiet(client: &mut Client, why: &str) {
    let got = tokio::time::timeout(QUIET, client.event()).await;
    assert!(got.is_err(), "{why}: {got:?}");
}

/// The seats of a summary or a view, as `(player, claimed)`.
fn players(seats: &Value) -> Vec<(String, bool)> {
    seats
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["player"].as_str().unwrap().to_string(),
                s["claimed"] == true,
            )
        })
        .collect()
}

/// The `connected` flags of a view's seats.
fn connected(view: &Value) -> Vec<bool> {
    view["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["connected"] == true)
        .collect()
}

/// A view pushed because who is at the table changed: the same version, no new log line, no
/// acknowledgement.
fn presence_view(view: &Value, version: u64) {
    assert_eq!(view["type"], "view", "{view}");
    assert_eq!(view["version"], version, "{view}");
    assert_eq!(view["log"], json!([]), "{view}");
    assert!(view.get("ack").is_none(), "{view}");
}

async fn actions(addr: std::net::SocketAddr, id: i64) -> u64 {
    let (_, summary) = common::http(addr, "GET", &format!("/api/games/{id}"), None).await;
    summary["actions"].as_u64().unwrap()
}

/// Waits until game `id` has had an action (a bot moved).
async fn until_moved(addr: std::net::SocketAddr, id: i64) {
    for _ in 0..2000 {
        if actions(addr, id).await > 0 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("nobody moved in game {id}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn everybody_sees_who_sits_who_joined_and_who_is_connected() {
    let server = common::start(SqliteStore::open(":memory:").unwrap(), common::options()).await;
    let addr = server.addr;
    // The bot plays first: it must wait for the two people all the same.
    let (status, created) = common::http(
        addr,
        "POST",
        "/api/games",
        Some(json!({"game": "starrealms", "format": "free_for_all",
                    "seats": ["heuristic", "human", "human"], "first": 0, "seed": 4})),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_i64().unwrap();
    let seats = created["seats"].as_array().unwrap();
    let bot = seats.iter().position(|s| s["player"] != "human").unwrap();
    let people: Vec<usize> = (0..3).filter(|&i| i != bot).collect();
    let name = |i: usize| format!("p{}", i + 1);

    let mut watcher = Client::connect(addr, id, None).await;
    let first = watcher.recv().await;
    assert_eq!(first["version"], 0);
    assert_eq!(first["to_move"], name(bot), "the bot is to move");
    let expected: Vec<Value> = (0..3)
        .map(|i| {
            if i == bot {
                json!({"seat": name(i), "player": "heuristic", "claimed": false, "connected": true})
            } else {
                json!({"seat": name(i), "player": "human", "claimed": false, "connected": false})
            }
        })
        .collect();
    assert_eq!(first["seats"], json!(expected));
    assert_eq!(first["waiting"], json!([name(people[0]), name(people[1])]));

    // A seat joined: everybody hears of it at once.
    let token = common::join(addr, id, &name(people[0])).await;
    let joined = watcher.recv().await;
    presence_view(&joined, 0);
    assert_eq!(joined["seats"][people[0]]["claimed"], true);
    assert_eq!(joined["seats"][people[0]]["connected"], false);
    assert_eq!(joined["waiting"], json!([name(people[1])]));

    // Its first connection: it sees itself there, and so does everybody else.
    let mut person = Client::connect(addr, id, Some(&token)).await;
    let own = person.recv().await;
    assert_eq!(own["seats"][people[0]]["connected"], true);
    assert_eq!(own["legal_actions"], json!([]));
    let arrived = watcher.recv().await;
    presence_view(&arrived, 0);
    let mut at_table = vec![false; 3];
    at_table[bot] = true;
    at_table[people[0]] = true;
    assert_eq!(connected(&arrived), at_table);

    // Not started: every act is refused, and the bot waits.
    person.act("early", 0, "end").await;
    let refused = person.recv().await;
    assert_eq!(refused["code"], "waiting_for_players", "{refused}");
    assert_eq!(refused["client_id"], "early");
    let message = refused["message"].as_str().unwrap();
    assert!(
        message.contains(&format!("waiting for {}", name(people[1]))),
        "{message}"
    );
    quiet(&mut watcher, "the bot waits for the players").await;
    assert_eq!(actions(addr, id).await, 0);

    // The last seat taken: the game starts and the bot plays its turn.
    common::join(addr, id, &name(people[1])).await;
    let started = watcher.view_where(|v| v["waiting"] == json!([])).await;
    assert_eq!(started["seats"][people[1]]["claimed"], true);
    let moved = watcher.view_at_least(1).await;
    let (_, summary) = common::http(addr, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(
        players(&summary["seats"]),
        players(&started["seats"]),
        "the views and the summary agree on who claimed what"
    );
    // Until a person is to move, nothing else happens. (A watcher may get the bot's quick
    // turn as one view.)
    let now = if moved["to_move"] != name(bot).as_str() {
        moved
    } else {
        watcher
            .view_where(|v| v["to_move"] != name(bot).as_str())
            .await
    };
    let version = now["version"].as_u64().unwrap();

    // A second connection of the seat changes nothing the table sees; the last one closing
    // does.
    let mut again = Client::connect(addr, id, Some(&token)).await;
    assert_eq!(again.recv().await["version"], version);
    quiet(&mut watcher, "a second connection of a seat already there").await;
    drop(person);
    quiet(&mut watcher, "a seat that still has a connection").await;
    drop(again);
    let left = watcher.recv().await;
    presence_view(&left, version);
    at_table[people[0]] = false;
    assert_eq!(connected(&left), at_table);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_rebuilt_after_a_restart_knows_its_claimed_seats_and_still_waits() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("realms.sqlite");
    let first = common::start(SqliteStore::open(&path).unwrap(), common::options()).await;
    let people = common::create(
        first.addr,
        json!({"game": "starrealms", "seats": ["human", "human"], "seed": 6}),
    )
    .await;
    let token = common::join(first.addr, people, "p1").await;
    let (status, created) = common::http(
        first.addr,
        "POST",
        "/api/games",
        Some(json!({"game": "starrealms", "seats": ["heuristic", "human"], "first": 0, "seed": 2})),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let bot_first = created["id"].as_i64().unwrap();
    let human = created["seats"]
        .as_array()
        .unwrap()
        .iter()
        .position(|s| s["player"] == "human")
        .unwrap();
    first.stop().await;

    let second = common::start(SqliteStore::open(&path).unwrap(), common::options()).await;
    let addr = second.addr;
    let mut watcher = Client::connect(addr, people, None).await;
    let view = watcher.recv().await;
    assert_eq!(
        players(&view["seats"]),
        [("human".into(), true), ("human".into(), false)]
    );
    assert_eq!(view["waiting"], json!(["p2"]));
    let mut p1 = Client::connect(addr, people, Some(&token)).await;
    p1.recv().await;
    p1.act("a", 0, "end").await;
    assert_eq!(p1.recv().await["code"], "waiting_for_players");

    let other = common::join(addr, people, "p2").await;
    let started = watcher.view_where(|v| v["waiting"] == json!([])).await;
    let mover = if started["to_move"] == "p1" {
        token.clone()
    } else {
        other
    };
    let mut mover = Client::connect(addr, people, Some(&mover)).await;
    let view = mover.recv().await;
    assert_eq!(view["waiting"], json!([]));
    mover.act("go", 0, &common::first_legal(&view)).await;
    assert_eq!(mover.view_at_least(1).await["ack"], "go");

    // The bot resumed with the server waits for its opponent, then plays.
    tokio::time::sleep(QUIET).await;
    assert_eq!(actions(addr, bot_first).await, 0, "the bot waits");
    common::join(addr, bot_first, &format!("p{}", human + 1)).await;
    until_moved(addr, bot_first).await;
    second.stop().await;
}

/// A finished game of a person against a bot, written to `store` as the server writes one.
fn finished_game(store: &SqliteStore) -> store::GameId {
    let mut record = game::GameRecord::new::<starrealms::State>(&Default::default(), 12);
    record.players = vec!["human".into(), "easy".into()];
    let mut state: starrealms::State = record.initial_state().unwrap();
    let mut seats = [
        bots::starrealms::by_name("easy", 1).unwrap(),
        bots::starrealms::by_name("easy", 2).unwrap(),
    ];
    while let Some(seat) = state.to_move() {
        let legal = state.legal_actions();
        let view = SeatView::of_observation(seat, state.observation(seat));
        let action = seats[seat.index()].choose(&view, &legal);
        state.apply(action).unwrap();
        record.actions.push(action.to_string());
    }
    let id = store.create(&record, true).unwrap();
    store
        .claim_seat(id, game::Seat(0), &store::TokenHash::of("the player"))
        .unwrap();
    store.finish(id, &state.winners()).unwrap();
    id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_waits_for_its_player_to_take_the_seat() {
    let store = SqliteStore::open(":memory:").unwrap();
    let id = finished_game(&store);
    let server = common::start(store, common::options()).await;
    let addr = server.addr;
    let (status, rematch) =
        common::http(addr, "POST", &format!("/api/games/{id}/again"), None).await;
    assert_eq!(status, 201, "{rematch}");
    let again = rematch["id"].as_i64().unwrap();
    // Sides swapped: the person now sits in p2, and nobody has taken the seat yet.
    assert_eq!(rematch["seats_from"]["p1"], "p2");
    let mut watcher = Client::connect(addr, again, None).await;
    let view = watcher.recv().await;
    assert_eq!(view["waiting"], json!(["p2"]));
    assert_eq!(
        players(&view["seats"]),
        [("easy".into(), false), ("human".into(), false)]
    );
    tokio::time::sleep(QUIET).await;
    assert_eq!(
        actions(addr, again).await,
        0,
        "the bot waits for the person"
    );

    // The seat is the person's of the game before: taken with their token of it.
    let (status, joined) = common::http(
        addr,
        "POST",
        &format!("/api/games/{again}/seats/p2/join"),
        Some(json!({"token": "the player"})),
    )
    .await;
    assert_eq!(status, 200, "{joined}");
    let token = joined["token"].as_str().unwrap().to_string();
    let started = watcher.view_where(|v| v["waiting"] == json!([])).await;
    if started["to_move"] == "p1" {
        until_moved(addr, again).await;
    } else {
        let mut person = Client::connect(addr, again, Some(&token)).await;
        let view = person.recv().await;
        assert!(!view["legal_actions"].as_array().unwrap().is_empty());
        person.act("first", 0, &common::first_legal(&view)).await;
        assert_eq!(person.view_at_least(1).await["ack"], "first");
    }
    server.stop().await;
}

/// A campaign's seats are claimed through the campaign: a game of it in memory hears of a
/// claim at once (a scenario normally starts only once both seats are taken; this one was
/// stored before, as an older server could have).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_campaign_seat_claimed_is_claimed_in_its_games_at_once() {
    use starrealms::campaign::{Campaign, CampaignDef};
    use starrealms::cards::Faction;
    let people = ["human".to_string(), "human".to_string()];
    let sides = [Faction::StarEmpire, Faction::TradeFederation];
    let mut c = Campaign::new(CampaignDef::builtin(), sides, people.clone(), 3).unwrap();
    let mut fresh = c.save.clone();
    fresh.games.clear();
    let record = c.begin(0).unwrap().clone();
    let mut save = c.save.clone();
    save.games.clear();
    let store = SqliteStore::open(":memory:").unwrap();
    let campaign = store
        .create_campaign(&serde_json::to_value(&fresh).unwrap(), &people, false)
        .unwrap();
    let game = store
        .add_campaign_game(campaign, 0, &record, &serde_json::to_value(&save).unwrap())
        .unwrap();
    let server = common::start(store, common::options()).await;
    let addr = server.addr;

    let mut watcher = Client::connect(addr, game.0, None).await;
    assert_eq!(watcher.recv().await["waiting"], json!(["p1", "p2"]));
    let mut tokens = Vec::new();
    for (seat, waiting) in [("p1", json!(["p2"])), ("p2", json!([]))] {
        let path = format!("/api/campaigns/{campaign}/seats/{seat}/join");
        let (status, joined) = common::http(addr, "POST", &path, None).await;
        assert_eq!(status, 200, "{joined}");
        tokens.push(joined["token"].as_str().unwrap().to_string());
        let view = watcher.recv().await;
        presence_view(&view, 0);
        assert_eq!(view["waiting"], waiting);
    }
    // The campaign's token opens the game's seat, which may now play.
    let mut p1 = Client::connect(addr, game.0, Some(&tokens[0])).await;
    let view = p1.recv().await;
    assert_eq!(view["seat"], "p1");
    assert_eq!(
        players(&view["seats"]),
        [("human".into(), true), ("human".into(), true)]
    );
    server.stop().await;
}

/// The log lines of a view, as their indices.
fn line_indices(view: &Value) -> Vec<u64> {
    view["log"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["index"].as_u64().unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn who_waits_gets_a_quick_run_of_actions_as_one_view_and_the_move_at_once() {
    let interval = Duration::from_millis(1500);
    let options = server::Options {
        watch_interval: interval,
        ..common::options()
    };
    let server = common::start(SqliteStore::open(":memory:").unwrap(), options).await;
    let addr = server.addr;
    let id = common::create(
        addr,
        json!({"game": "starrealms", "seats": ["human", "human"], "seed": 8}),
    )
    .await;
    let p1 = common::join(addr, id, "p1").await;
    let p2 = common::join(addr, id, "p2").await;
    let mut p1 = Client::connect(addr, id, Some(&p1)).await;
    let mut p2 = Client::connect(addr, id, Some(&p2)).await;
    let mut start = p1.until_all_connected().await;
    let other = p2.until_all_connected().await;
    let first_player = start["to_move"].as_str().unwrap().to_string();
    let (mut mover, mut waiter, waiting) = if first_player == "p1" {
        (p1, p2, "p2")
    } else {
        start = other;
        (p2, p1, "p1")
    };
    // Long enough since the last view for the next one to go at once.
    tokio::time::sleep(interval + Duration::from_millis(200)).await;

    // The first player plays the cards of its hand, one after the other, as fast as it can.
    let mut plays = 0;
    loop {
        let version = start["version"].as_u64().unwrap();
        let Some(play) = start["legal_actions"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .find(|a| a.starts_with("play"))
            .map(str::to_string)
        else {
            break;
        };
        mover.act(&format!("a{version}"), version, &play).await;
        start = mover.view_where(|v| v["ack"].is_string()).await;
        plays += 1;
    }
    assert!(plays >= 3, "a hand of at least three cards ({plays})");

    // The waiter saw the first play at once, and the others as one view, after a while.
    let first = waiter.recv().await;
    assert_eq!(first["version"], 1, "{first}");
    assert_eq!(line_indices(&first), [0]);
    let shown = std::time::Instant::now();
    let rest = waiter.recv().await;
    assert!(
        shown.elapsed() >= interval / 2,
        "held back for a while: {:?}",
        shown.elapsed()
    );
    assert_eq!(rest["version"], plays, "{rest}");
    assert_eq!(line_indices(&rest), (1..plays).collect::<Vec<_>>());
    assert_eq!(rest["legal_actions"], json!([]));

    // The end of the turn gives the other seat the move: that view goes at once.
    let version = start["version"].as_u64().unwrap();
    let ended = std::time::Instant::now();
    mover.act("end", version, "end").await;
    let moved = waiter.recv().await;
    assert!(
        ended.elapsed() < interval / 2,
        "the move goes at once: {:?}",
        ended.elapsed()
    );
    assert_eq!(moved["version"], version + 1, "{moved}");
    assert_eq!(moved["to_move"], waiting);
    assert!(!moved["legal_actions"].as_array().unwrap().is_empty());
    assert_eq!(line_indices(&moved), [version]);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_who_leaves_hands_their_seat_to_a_bot_that_plays_on() {
    let server = common::start(SqliteStore::open(":memory:").unwrap(), common::options()).await;
    let addr = server.addr;
    let (id, tokens) = common::both_seated(addr, 29).await;
    let mut staying = Client::connect(addr, id, Some(&tokens[1])).await;
    assert_eq!(staying.recv().await["seat"], "p2");
    let leave = |seat: &'static str, body: Option<Value>| async move {
        common::http(
            addr,
            "POST",
            &format!("/api/games/{id}/seats/{seat}/leave"),
            body,
        )
        .await
    };
    // Only the seat's own token lets its person go.
    for (seat, body, refused) in [
        ("p1", None, (400, "bad_request")),
        ("p1", Some(json!({"token": tokens[1]})), (401, "bad_token")),
        (
            "p3",
            Some(json!({"token": tokens[0]})),
            (404, "unknown_seat"),
        ),
    ] {
        let (status, e) = leave(seat, body).await;
        assert_eq!(
            (status, e["code"].as_str()),
            (refused.0, Some(refused.1)),
            "{e}"
        );
    }
    let (status, e) = common::http(
        addr,
        "POST",
        "/api/games/999/seats/p1/leave",
        Some(json!({"token": "x"})),
    )
    .await;
    assert_eq!(
        (status, e["code"].as_str()),
        (404, Some("unknown_game")),
        "{e}"
    );
    assert_eq!(actions(addr, id).await, 0);

    let (status, summary) = leave("p1", Some(json!({"token": tokens[0]}))).await;
    assert_eq!(status, 200, "{summary}");
    assert_eq!(
        players(&summary["seats"]),
        [
            (server::STAND_IN.to_string(), false),
            ("human".into(), true)
        ]
    );
    // The game is built again with its bot: the other player's connection is told to reconnect.
    loop {
        match staying.event().await {
            common::Event::Closed(code) => {
                assert_eq!(code, Some(1012));
                break;
            }
            common::Event::Message(_) => {}
        }
    }
    // The token of the seat left opens nothing now, and the seat cannot be left twice.
    let mut gone = Client::connect(addr, id, Some(&tokens[0])).await;
    assert_eq!(gone.recv().await["code"], "bad_token");
    let (status, e) = leave("p1", Some(json!({"token": tokens[0]}))).await;
    assert_eq!(
        (status, e["code"].as_str()),
        (409, Some("not_human")),
        "{e}"
    );

    // The person who stayed plays against the bot, to the end.
    let client = Client::connect(addr, id, Some(&tokens[1])).await;
    let played = common::play_seat(client, common::first_legal).await;
    let last = played.received.last().unwrap();
    assert_eq!(last["over"], true);
    let record = common::record(addr, id).await;
    assert_eq!(record.players, [server::STAND_IN, "human"]);
    // Seat p1's turns were the bot's: the game could not have ended otherwise.
    assert!(record.actions.len() > 10, "{record:?}");
    // Once over, nobody leaves.
    let (status, e) = leave("p2", Some(json!({"token": tokens[1]}))).await;
    assert_eq!(
        (status, e["code"].as_str()),
        (409, Some("game_over")),
        "{e}"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn people_leaving_at_once_each_leave_once() {
    let server = common::start(SqliteStore::open(":memory:").unwrap(), common::options()).await;
    let addr = server.addr;
    let leave = |id: i64, seat: &'static str, token: String| async move {
        common::http(
            addr,
            "POST",
            &format!("/api/games/{id}/seats/{seat}/leave"),
            Some(json!({"token": token})),
        )
        .await
    };
    for round in 0..20 {
        let (id, tokens) = common::both_seated(addr, 40 + round).await;
        // The same seat left twice at once: once.
        let (a, b) = tokio::join!(
            leave(id, "p1", tokens[0].clone()),
            leave(id, "p1", tokens[0].clone())
        );
        let mut statuses = [(a.0, a.1["code"].clone()), (b.0, b.1["code"].clone())];
        statuses.sort_by_key(|s| s.0);
        assert_eq!(
            statuses,
            [(200, Value::Null), (409, json!("not_human"))],
            "{a:?} {b:?}"
        );
        // Both seats of another game left at once: both, whichever the game was rebuilt for first.
        let (id, tokens) = common::both_seated(addr, 50 + round).await;
        let (a, b) = tokio::join!(
            leave(id, "p1", tokens[0].clone()),
            leave(id, "p2", tokens[1].clone())
        );
        assert_eq!((a.0, b.0), (200, 200), "{a:?} {b:?}");
        let (_, summary) = common::http(addr, "GET", &format!("/api/games/{id}"), None).await;
        assert_eq!(
            players(&summary["seats"]),
            [
                (server::STAND_IN.to_string(), false),
                (server::STAND_IN.to_string(), false)
            ]
        );
        // A seat left while another is taken: both, the seat taken kept through the rebuild.
        let id = common::create(
            addr,
            json!({"game": "starrealms", "format": "free_for_all", "seats": ["human", "human", "easy"], "seed": 60 + round}),
        )
        .await;
        let token = common::join(addr, id, "p1").await;
        let join_p2 = format!("/api/games/{id}/seats/p2/join");
        let (a, b) = tokio::join!(
            leave(id, "p1", token),
            common::http(addr, "POST", &join_p2, None)
        );
        assert_eq!((a.0, b.0), (200, 200), "{a:?} {b:?}");
        let (_, summary) = common::http(addr, "GET", &format!("/api/games/{id}"), None).await;
        assert_eq!(
            players(&summary["seats"]),
            [
                (server::STAND_IN.to_string(), false),
                ("human".into(), true),
                ("easy".into(), false)
            ]
        );
    }
    server.stop().await;
}
