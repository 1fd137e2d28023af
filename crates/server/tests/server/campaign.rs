//! *Rise of Empire* campaigns through the API: seats, who may start a scenario, the first
//! player's choice, a game of the campaign played to its end and the next one started.

use std::net::SocketAddr;

use serde_json::{Value, json};
use store::SqliteStore;

use crate::common::{self, Client, play_seat, remote_bot};

/// No key named `seed` anywhere in `v`: a campaign's seed deals every game to come.
fn no_seed(v: &Value) {
    match v {
        Value::Object(map) => {
            assert!(!map.contains_key("seed"), "a seed is shown: {v}");
            map.values().for_each(no_seed);
        }
        Value::Array(items) => items.iter().for_each(no_seed),
        _ => {}
    }
}

async fn post(addr: SocketAddr, path: &str, body: Value) -> (u16, Value) {
    common::http(addr, "POST", path, Some(body)).await
}

async fn campaign(addr: SocketAddr, id: i64) -> Value {
    let (status, body) = common::http(addr, "GET", &format!("/api/campaigns/{id}"), None).await;
    assert_eq!(status, 200, "{body}");
    no_seed(&body);
    body
}

async fn join(addr: SocketAddr, id: i64, seat: &str) -> (u16, Value) {
    post(
        addr,
        &format!("/api/campaigns/{id}/seats/{seat}/join"),
        json!(null),
    )
    .await
}

/// The option to send with `next` for the scenario about to start: 1 if it asks for a choice.
fn choice_for(view: &Value) -> Value {
    if view["status"]["next_choice"].as_array().unwrap().is_empty() {
        json!(null)
    } else {
        json!(1)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_campaign_against_a_bot_plays_into_its_second_scenario() {
    let server = common::start(SqliteStore::open(":memory:").unwrap(), common::options()).await;
    let addr = server.addr;
    let (status, created) = post(
        addr,
        "/api/campaigns",
        json!({"players": ["human", "heuristic"], "sides": ["trade_federation", "star_empire"], "seed": 5}),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    no_seed(&created);
    let id = created["id"].as_i64().unwrap();
    assert_eq!(
        created["seats"],
        json!([
            {"seat": "p1", "player": "human", "claimed": false},
            {"seat": "p2", "player": "heuristic", "claimed": false}
        ])
    );
    assert_eq!(
        created["status"]["sides"],
        json!(["trade_federation", "star_empire"])
    );
    assert_eq!(created["status"]["scenario"], 1);
    let def = starrealms::campaign::CampaignDef::builtin();
    assert_eq!(
        created["scenarios"].as_array().unwrap().len(),
        def.scenario.len()
    );
    assert!(created["scenarios"][0]["name"]["fr"].is_string());
    // The Star Empire's player (the bot, in p2) opens the first scenario.
    assert_eq!(created["status"]["next_first"], 1);

    // Only a seat's token starts a scenario, and only people join.
    let next = format!("/api/campaigns/{id}/next");
    let (status, body) = post(addr, &next, json!({})).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("bad_request")),
        "{body}"
    );
    let (status, body) = post(addr, &next, json!({"token": "nobody"})).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (401, Some("bad_token")),
        "{body}"
    );
    let (status, body) = join(addr, id, "p2").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("not_human")),
        "{body}"
    );
    let (status, joined) = join(addr, id, "p1").await;
    assert_eq!(status, 200, "{joined}");
    let token = joined["token"].as_str().unwrap().to_string();
    let (status, body) = join(addr, id, "p1").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("seat_taken")),
        "{body}"
    );
    let (status, body) = common::http(addr, "GET", "/api/campaigns/999", None).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (404, Some("unknown_campaign")),
        "{body}"
    );

    // The bot opens: it makes the scenario's choice itself; a choice from us is refused.
    if !created["status"]["next_choice"]
        .as_array()
        .unwrap()
        .is_empty()
    {
        let (status, body) = post(addr, &next, json!({"token": token, "choice": 1})).await;
        assert_eq!(
            (status, body["code"].as_str()),
            (409, Some("campaign_refused")),
            "{body}"
        );
        assert!(
            body["message"].as_str().unwrap().contains("p2 opens"),
            "{body}"
        );
    }
    let (status, started) = post(addr, &next, json!({"token": token})).await;
    assert_eq!(status, 201, "{started}");
    let games = started["games"].as_array().unwrap().clone();
    assert_eq!(games.len(), 1);
    assert_eq!(started["status"]["in_progress"], true);
    let game = games[0].as_i64().unwrap();

    // The game links its campaign; its seats are the campaign's, and a second start waits.
    let (status, summary) = common::http(addr, "GET", &format!("/api/games/{game}"), None).await;
    assert_eq!(status, 200, "{summary}");
    assert_eq!(summary["campaign"], id);
    assert_eq!(summary["config"]["sets"], json!(["rise_of_empire"]));
    assert_eq!(summary["open"], false);
    // Its seed derives from the campaign's, which its creator chose.
    assert_eq!(summary["seed_chosen"], true);
    let (status, body) = post(
        addr,
        &format!("/api/games/{game}/seats/p1/join"),
        json!(null),
    )
    .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("seat_taken")),
        "{body}"
    );
    // Nor does anybody leave one of its games to a bot: the campaign goes on with its players.
    let (status, body) = post(
        addr,
        &format!("/api/games/{game}/seats/p1/leave"),
        json!({"token": token}),
    )
    .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("bad_request")),
        "{body}"
    );
    assert!(
        body["message"].as_str().unwrap().contains("campaign"),
        "{body}"
    );
    let (status, body) = post(addr, &next, json!({"token": token})).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("campaign_refused")),
        "{body}"
    );

    // The game's table: both seats taken through the campaign, so it has started.
    let mut watcher = Client::connect(addr, game, None).await;
    let view = watcher.recv().await;
    assert_eq!(view["waiting"], json!([]));
    assert_eq!(
        view["seats"],
        json!([
            {"seat": "p1", "player": "human", "claimed": true, "connected": false},
            {"seat": "p2", "player": "heuristic", "claimed": false, "connected": true}
        ])
    );
    drop(watcher);

    // The campaign's token opens the game's seat p1; play it to the end.
    let client = Client::connect(addr, game, Some(&token)).await;
    let bot = bots::starrealms::by_name("heuristic", 3).unwrap();
    let client = play_seat(client, remote_bot::<starrealms::State>(bot)).await;
    let last = client.received.last().unwrap();
    assert_eq!(last["over"], true);

    let after = campaign(addr, id).await;
    let status_ = &after["status"];
    assert_eq!(status_["in_progress"], false, "{after}");
    assert_eq!(status_["scenario"], 2);
    assert_eq!(status_["results"].as_array().unwrap().len(), 1);
    let winner = &status_["results"][0]["winner"];
    let winners = common::record(addr, game).await;
    let state: starrealms::State = winners.replay().unwrap();
    let expected = state.winners().first().map(|s| s.index());
    assert_eq!(winner.as_u64().map(|w| w as usize), expected);
    // Every sticker of the first game is on the player's sheet.
    assert!(
        status_["sheets"][0][0]["sheet"]
            .as_str()
            .unwrap()
            .starts_with("s1_")
    );

    // The second scenario starts; whoever opens it.
    let mut body = json!({"token": token});
    let opener = status_["next_first"].as_u64().unwrap();
    if opener == 0 {
        body["choice"] = choice_for(&after);
    }
    let (status, second) = post(addr, &next, body).await;
    assert_eq!(status, 201, "{second}");
    assert_eq!(second["games"].as_array().unwrap().len(), 2);
    let game2 = second["games"][1].as_i64().unwrap();
    let (_, summary) = common::http(addr, "GET", &format!("/api/games/{game2}"), None).await;
    assert_eq!(summary["config"]["first"], format!("p{}", opener + 1));
    assert_eq!(summary["campaign"], id);
    server.stop().await;
}

#[tokio::test]
async fn two_people_share_a_campaign_and_its_opener_chooses() {
    let options = server::Options {
        allow_chosen_seeds: false,
        ..common::options()
    };
    let server = common::start(SqliteStore::open(":memory:").unwrap(), options).await;
    let addr = server.addr;
    let request = json!({"players": ["human", "human"], "seed": 1});
    let (status, body) = post(addr, "/api/campaigns", request).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("bad_request")),
        "{body}"
    );
    assert!(body["message"].as_str().unwrap().contains("seed"), "{body}");
    for bad in [
        json!({"players": ["human"]}),
        json!({"players": ["heuristic", "human"]}),
        json!({"players": ["human", "nobody"]}),
        json!({"players": ["human", "human"], "sides": ["star_empire", "blob"]}),
        json!({"players": ["human", "human"], "colour": "red"}),
    ] {
        let (status, body) = post(addr, "/api/campaigns", bad.clone()).await;
        assert_eq!(status, 400, "{bad}: {body}");
        assert!(!body["message"].as_str().unwrap().contains('{'), "{body}");
    }
    let (status, created) = post(
        addr,
        "/api/campaigns",
        json!({"players": ["human", "human"], "sides": ["star_empire", "star_empire"]}),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_i64().unwrap();
    // Both wished the Star Empire: the seed drew who has it.
    let sides = created["status"]["sides"].as_array().unwrap();
    assert_ne!(sides[0], sides[1]);
    let opener = created["status"]["next_first"].as_u64().unwrap() as usize;
    assert_eq!(sides[opener], "star_empire");

    let (_, a) = join(addr, id, "p1").await;
    let tokens = [a["token"].as_str().unwrap().to_string(), String::new()];
    let next = format!("/api/campaigns/{id}/next");
    let (status, body) = post(addr, &next, json!({"token": tokens[0]})).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("campaign_refused")),
        "{body}"
    );
    assert!(
        body["message"].as_str().unwrap().contains("waiting for p2"),
        "{body}"
    );
    let (_, b) = join(addr, id, "p2").await;
    let tokens = [tokens[0].clone(), b["token"].as_str().unwrap().to_string()];

    let options = created["status"]["next_choice"].as_array().unwrap().len();
    if options > 0 {
        // The other player may not start it; the opener must choose, within the options.
        let (status, body) = post(addr, &next, json!({"token": tokens[1 - opener]})).await;
        assert_eq!(
            (status, body["code"].as_str()),
            (409, Some("campaign_refused")),
            "{body}"
        );
        for bad in [json!(null), json!(0), json!(options + 1)] {
            let (status, body) =
                post(addr, &next, json!({"token": tokens[opener], "choice": bad})).await;
            assert_eq!(status, 409, "{body}");
        }
        let (status, started) = post(
            addr,
            &next,
            json!({"token": tokens[opener], "choice": options}),
        )
        .await;
        assert_eq!(status, 201, "{started}");
    } else {
        let (status, body) = post(addr, &next, json!({"token": tokens[0], "choice": 2})).await;
        assert_eq!(status, 409, "{body}");
        let (status, started) = post(addr, &next, json!({"token": tokens[1 - opener]})).await;
        assert_eq!(status, 201, "{started}");
    }
    // Both tokens open their seat of the game; nobody else's.
    let view = campaign(addr, id).await;
    let game = view["games"][0].as_i64().unwrap();
    // The server drew the campaign's seed: nobody chose the game's.
    let (_, summary) = common::http(addr, "GET", &format!("/api/games/{game}"), None).await;
    assert_eq!(summary["seed_chosen"], false, "{summary}");
    for (seat, token) in tokens.iter().enumerate() {
        let mut client = Client::connect(addr, game, Some(token)).await;
        let v = client.recv().await;
        assert_eq!(v["seat"], format!("p{}", seat + 1), "{v}");
        // Both seats are claimed through the campaign: the game waits for nobody.
        assert_eq!(v["waiting"], json!([]), "{v}");
        let claimed: Vec<&Value> = v["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| &s["claimed"])
            .collect();
        assert_eq!(claimed, [&json!(true), &json!(true)], "{v}");
    }
    // Upgrades after the campaign wait for its end.
    let (status, body) = post(
        addr,
        &format!("/api/campaigns/{id}/complete"),
        json!({"token": tokens[0], "card": "scout", "sheet": "s1_empire", "row": 1}),
    )
    .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("campaign_refused")),
        "{body}"
    );
    server.stop().await;
}

/// A whole campaign played by two bots (seed 21), stored as the server stores one, its last
/// upgrades not made yet. With `tokens`, stored as two people's, each seat claimed with its token.
fn finished_campaign(
    tokens: Option<[&str; 2]>,
) -> (
    SqliteStore,
    store::CampaignId,
    starrealms::campaign::Campaign,
) {
    let players = tokens.map(|_| [store::HUMAN, store::HUMAN]);
    finished_campaign_of(players, tokens, usize::MAX)
}

/// [`finished_campaign`]'s, stored with `players` if given (the seats of `tokens` claimed), and
/// with its first `games` games only.
fn finished_campaign_of(
    players: Option<[&str; 2]>,
    tokens: Option<[&str; 2]>,
    games: usize,
) -> (
    SqliteStore,
    store::CampaignId,
    starrealms::campaign::Campaign,
) {
    use store::Store as _;
    let def = starrealms::campaign::CampaignDef::builtin();
    let played = bots::campaign::play_campaign(def, ["heuristic", "random"], 21).unwrap();
    let store = SqliteStore::open(":memory:").unwrap();
    let mut save = played.save.clone();
    let mut records = std::mem::take(&mut save.games);
    records.truncate(games);
    save.completion.clear();
    if let Some(players) = players {
        save.players = players.map(String::from);
    }
    let players = save.players.to_vec();
    let mut bare = save.clone();
    bare.choices.clear();
    let id = store
        .create_campaign(&serde_json::to_value(&bare).unwrap(), &players, false)
        .unwrap();
    for (seat, token) in tokens.iter().flatten().enumerate() {
        let hash = store::TokenHash::of(token);
        store
            .claim_campaign_seat(id, game::Seat(seat as u8), &hash, None)
            .unwrap();
    }
    for (k, record) in records.iter().enumerate() {
        let mut upto = bare.clone();
        upto.choices = save.choices[..=k].to_vec();
        let mut record = record.clone();
        record.players = players.clone();
        let game = store
            .add_campaign_game(id, k, &record, &serde_json::to_value(&upto).unwrap())
            .unwrap();
        let state: starrealms::State = record.replay().unwrap();
        store.finish(game, &state.winners()).unwrap();
    }
    (store, id, played)
}

/// A server over `store` where an address holds one seat at most, whose address takes seat p1
/// of campaign `id`, then asks for a seat against a bot: the answer's status and code.
async fn a_game_seat_beside_a_campaign_seat(store: SqliteStore, id: i64) -> (u16, Option<String>) {
    let options = server::Options {
        seats_per_address: 1,
        ..common::options()
    };
    let server = common::start(store, options).await;
    let addr = server.addr;
    let (status, body) = join(addr, id, "p1").await;
    assert_eq!(status, 200, "{body}");
    let against_a_bot = json!({"game": "starrealms", "seats": ["human", "random"]});
    let game = common::create(addr, against_a_bot).await;
    let path = format!("/api/games/{game}/seats/p1/join");
    let (status, body) = common::http(addr, "POST", &path, None).await;
    server.stop().await;
    (status, body["code"].as_str().map(String::from))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_of_a_finished_campaign_no_longer_counts_against_its_address() {
    let one_person = Some([store::HUMAN, "random"]);
    // Over: its seat taken, the address may still take a game's.
    let (store, id, played) = finished_campaign_of(one_person, None, usize::MAX);
    assert!(played.is_over());
    assert_eq!(
        a_game_seat_beside_a_campaign_seat(store, id.0).await,
        (200, None)
    );
    // Its last game not played yet: the seat counts.
    let scenarios = starrealms::campaign::CampaignDef::builtin().scenario.len();
    let (store, id, _) = finished_campaign_of(one_person, None, scenarios - 1);
    assert_eq!(
        a_game_seat_beside_a_campaign_seat(store, id.0).await,
        (409, Some("too_many_seats".into()))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_campaign_completes_its_bots_upgrades_and_deals_games_after_it() {
    // The server makes the bots' upgrades when it reads the campaign.
    let (store, id, played) = finished_campaign(None);
    let def = starrealms::campaign::CampaignDef::builtin();
    let server = common::start(store, common::options()).await;
    let addr = server.addr;
    let view = campaign(addr, id.0).await;
    let s = &view["status"];
    assert_eq!(s["over"], true, "{view}");
    assert_eq!(s["completion_turn"], Value::Null);
    let expected = played.final_trade_deck().unwrap();
    assert_eq!(s["final_trade_deck"], expected.len());
    assert_eq!(s["points"], json!(played.points));
    let winner = played.winner().map(|w| w as u64);
    assert_eq!(s["winner"].as_u64(), winner);

    // A game of any format dealt from that deck.
    for request in [
        json!({"game": "starrealms", "seats": ["human", "random"], "campaign": id.0}),
        json!({"game": "starrealms", "format": "free_for_all", "seats": ["random", "random", "random"], "campaign": id.0}),
    ] {
        let (status, created) = post(addr, "/api/games", request.clone()).await;
        assert_eq!(status, 201, "{request}: {created}");
        let dealt = created["config"]["trade_deck"].as_array().unwrap().len();
        assert_eq!(dealt, expected.len());
        let sets = created["config"]["sets"].as_array().unwrap();
        for name in def.sets.iter().chain(&def.post_campaign) {
            assert!(sets.contains(&json!(name)), "{name}");
        }
    }
    let (status, body) = post(
        addr,
        "/api/games",
        json!({"game": "starrealms", "seats": ["human", "random"], "campaign": id.0, "sets": ["base"]}),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    let (status, body) = post(
        addr,
        "/api/campaigns",
        json!({"players": ["human", "random"], "seed": 2}),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    let unfinished = body["id"].as_i64().unwrap();
    let (status, body) = post(
        addr,
        "/api/games",
        json!({"game": "starrealms", "seats": ["human", "random"], "campaign": unfinished}),
    )
    .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("campaign_refused")),
        "{body}"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_upgrades_sent_at_once_from_one_turn_make_one() {
    let tokens = ["first", "second"];
    let (store, id, _) = finished_campaign(Some(tokens));
    let server = common::start(store, common::options()).await;
    let addr = server.addr;
    let s = campaign(addr, id.0).await["status"].clone();
    let turn = s["completion_turn"]
        .as_u64()
        .expect("a person's upgrade to make") as usize;
    let options = s["completion_options"].as_array().unwrap().clone();
    assert!(options.len() >= 2, "{s}");
    let before = s["upgraded_cards"].as_array().unwrap().len();
    // A double click, each with another upgrade.
    let path = format!("/api/campaigns/{}/complete", id.0);
    let ask = |option: &Value| {
        // Each option is [card, sheet, row].
        let body =
            json!({"token": tokens[turn], "card": option[0], "sheet": option[1], "row": option[2]});
        let path = path.clone();
        async move { post(addr, &path, body).await }
    };
    let (a, b) = tokio::join!(ask(&options[0]), ask(&options[1]));
    let mut statuses = [a.0, b.0];
    statuses.sort();
    assert_eq!(statuses, [200, 409], "{a:?} {b:?}");
    let refused = if a.0 == 409 { &a.1 } else { &b.1 };
    assert_eq!(refused["code"], "campaign_refused", "{refused}");
    // Exactly the upgrade answered 200 is kept.
    let kept = if a.0 == 200 { &a.1 } else { &b.1 };
    let after = campaign(addr, id.0).await;
    assert_eq!(
        after["status"]["upgraded_cards"],
        kept["status"]["upgraded_cards"]
    );
    assert_eq!(
        after["status"]["upgraded_cards"].as_array().unwrap().len(),
        before + 1
    );
    server.stop().await;
}
