//! Whole games through the API: a person's seat against server-side bots, to the end.

use serde_json::json;
use store::SqliteStore;

use crate::common::{self, Client, check_views, first_legal};

fn ids(list: &serde_json::Value) -> Vec<i64> {
    list["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_i64().unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_plays_star_realms_against_a_bot_to_the_end() {
    let server = common::start(SqliteStore::open(":memory:").unwrap(), common::options()).await;
    let addr = server.addr;
    let (status, created) = common::http(
        addr,
        "POST",
        "/api/games",
        Some(json!({"game": "starrealms", "edition": "classic", "seats": ["heuristic", "human"], "seed": 11})),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_i64().unwrap();
    assert_eq!(created["game"], "starrealms");
    assert_eq!(created["config"]["edition"], "classic");
    assert_eq!(
        created["seats"],
        json!([
            {"seat": "p1", "player": "heuristic", "claimed": false},
            {"seat": "p2", "player": "human", "claimed": false}
        ])
    );
    assert!(created.get("seed").is_none(), "the seed is never shown");

    // In the lobby until somebody takes the seat.
    let (_, open) = common::http(addr, "GET", "/api/games?open=true", None).await;
    assert_eq!(ids(&open), [id]);
    let token = common::join(addr, id, "p2").await;
    assert_eq!(token.len(), 64, "256 bits in hexadecimal");
    let (_, open) = common::http(addr, "GET", "/api/games?open=true", None).await;
    assert!(ids(&open).is_empty());
    let (_, live) = common::http(addr, "GET", "/api/games", None).await;
    assert_eq!(ids(&live), [id]);

    let client = Client::connect(addr, id, Some(&token)).await;
    let client = common::play_seat(client, first_legal).await;
    let end = client.received.last().unwrap().clone();
    assert_eq!(end["over"], true);
    assert!(end["to_move"].is_null());
    assert!(end["legal_actions"].as_array().unwrap().is_empty());
    let acks = client
        .received
        .iter()
        .filter(|m| m["ack"].is_string())
        .count();
    assert!(acks > 20, "the person played ({acks} actions)");

    let (status, summary) = common::http(addr, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(status, 200);
    assert_eq!(summary["finished"], true);
    assert_eq!(summary["winners"], end["winners"]);
    assert_eq!(summary["seats"][1]["claimed"], true);
    let record = common::record(addr, id).await;
    assert_eq!(
        summary["actions"].as_u64().unwrap() as usize,
        record.actions.len()
    );
    check_views::<starrealms::State>(&record, &client.received, Some(1));
    let (_, live) = common::http(addr, "GET", "/api/games", None).await;
    assert!(ids(&live).is_empty(), "a finished game is not live");

    // A finished game can still be watched (it is loaded on demand), and joined by nobody.
    let mut late = Client::connect(addr, id, None).await;
    assert_eq!(late.recv().await["over"], true);
    let (status, _) = common::http(
        addr,
        "POST",
        &format!("/api/games/{id}/seats/p2/join"),
        None,
    )
    .await;
    assert_eq!(status, 409);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_plays_bataille_cosmique_against_three_bots() {
    let server = common::start(SqliteStore::open(":memory:").unwrap(), common::options()).await;
    let addr = server.addr;
    let id = common::create(
        addr,
        json!({"game": "cosmique", "variant": "incolore", "seats": ["easy", "human", "medium", "random"], "seed": 21}),
    )
    .await;
    let token = common::join(addr, id, "p2").await;
    let client = Client::connect(addr, id, Some(&token)).await;
    let client = common::play_seat(client, first_legal).await;
    let record = common::record(addr, id).await;
    assert_eq!(record.config["variant"], "incolore");
    check_views::<cosmique::State>(&record, &client.received, Some(1));
    let state: cosmique::State = record.replay().unwrap();
    assert_eq!(
        client.received.last().unwrap()["winners"],
        serde_json::to_value(state.winners()).unwrap()
    );
    server.stop().await;
}

/// `first` seats the chosen player where the deal's first player sits, whatever the seed; it
/// is refused where seats have roles, out of range, and in Bataille Cosmique.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_player_chosen_to_go_first_sits_in_the_first_seat() {
    let server = common::start(SqliteStore::open(":memory:").unwrap(), common::options()).await;
    let addr = server.addr;
    let mut firsts = std::collections::BTreeSet::new();
    for seed in 0..8u64 {
        for (first, format, players) in [
            (0usize, "standard", vec!["human", "random"]),
            (1, "standard", vec!["human", "random"]),
            (
                2,
                "free_for_all",
                vec!["random", "random", "human", "random"],
            ),
        ] {
            let (status, summary) = common::http(
                addr,
                "POST",
                "/api/games",
                Some(json!({"game": "starrealms", "format": format, "seats": players, "seed": seed, "first": first})),
            )
            .await;
            assert_eq!(status, 201, "{summary}");
            let seats = summary["seats"].as_array().unwrap();
            let human = seats.iter().position(|s| s["player"] == "human").unwrap();
            // The order around the table is kept.
            let n = players.len();
            let listed = players.iter().position(|p| *p == "human").unwrap();
            let shift = human + n - listed;
            for (i, player) in players.iter().enumerate() {
                assert_eq!(seats[(i + shift) % n]["player"], *player);
            }
            let id = summary["id"].as_i64().unwrap();
            let token = common::join(addr, id, &format!("p{}", human + 1)).await;
            let mut client = Client::connect(addr, id, Some(&token)).await;
            let view = client.recv().await;
            let human_first = players[first] == "human";
            assert_eq!(
                view["to_move"] == view["seat"],
                human_first,
                "seed {seed}, first {first}"
            );
            if format == "standard" {
                firsts.insert(human);
            }
        }
    }
    assert_eq!(firsts.len(), 2, "the human's seat follows the deal");
    for (request, why) in [
        (
            json!({"game": "starrealms", "seats": ["human", "random"], "first": 2}),
            "index",
        ),
        (
            json!({"game": "starrealms", "format": "hydra", "seats": ["human", "random", "random", "random"], "first": 0}),
            "roles",
        ),
        (
            json!({"game": "cosmique", "seats": ["human", "random", "random", "random"], "first": 0}),
            "Star Realms",
        ),
    ] {
        let (status, answer) = common::http(addr, "POST", "/api/games", Some(request)).await;
        assert_eq!(
            (status, answer["code"].as_str()),
            (400, Some("bad_request"))
        );
        assert!(
            answer["message"].as_str().unwrap().contains(why),
            "{answer}"
        );
    }
    server.stop().await;
}

/// A *Rise of Empire* game: the pack's trade deck, sticker sheets in the views, upgrades offered
/// with acquisitions and played through the API; bad sets and sheets refused in words.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_plays_rise_of_empire_with_sticker_sheets() {
    let server = common::start(SqliteStore::open(":memory:").unwrap(), common::options()).await;
    let addr = server.addr;
    let id = common::create(
        addr,
        json!({"game": "starrealms", "sets": ["rise_of_empire"],
               "sheets": [["s1_empire"], ["s1_federation"]], "political": true,
               "seats": ["heuristic", "human"], "seed": 5}),
    )
    .await;
    let token = common::join(addr, id, "p2").await;
    let client = Client::connect(addr, id, Some(&token)).await;
    let mut upgrades = 0;
    let client = common::play_seat(client, |view| {
        let legal = view["legal_actions"].as_array().unwrap();
        let pick = legal
            .iter()
            .filter_map(|a| a.as_str())
            .find(|a| a.contains("upgrade"))
            .or_else(|| {
                legal
                    .iter()
                    .filter_map(|a| a.as_str())
                    .find(|a| a.starts_with("play"))
            })
            .or_else(|| {
                legal
                    .iter()
                    .filter_map(|a| a.as_str())
                    .find(|a| a.starts_with("buy"))
            })
            .unwrap_or_else(|| legal[0].as_str().unwrap());
        if pick.contains("upgrade") {
            upgrades += 1;
        }
        pick.to_string()
    })
    .await;
    assert!(upgrades > 0, "the person upgraded cards");
    let first = client
        .received
        .iter()
        .find(|m| m["type"] == "view")
        .unwrap();
    let view = &first["observation"];
    assert_eq!(view["config"]["sets"], json!(["rise_of_empire"]));
    assert_eq!(view["players"][1]["sheets"][0]["sheet"], "s1_federation");
    let record = common::record(addr, id).await;
    assert_eq!(record.config["sheets"][0][0]["sheet"], "s1_empire");
    check_views::<starrealms::State>(&record, &client.received, Some(1));
    let state: starrealms::State = record.replay().unwrap();
    assert!(state.over);

    for (body, words) in [
        (
            json!({"game": "starrealms", "sets": ["jungle"], "seats": ["human", "random"]}),
            "unknown card set `jungle`",
        ),
        (
            json!({"game": "starrealms", "sets": ["rise_of_empire"], "sheets": [["nope"], []],
                "seats": ["human", "random"]}),
            "unknown sticker sheet `nope`",
        ),
        (
            json!({"game": "starrealms", "sheets": [["s1_empire"]], "seats": ["human", "random"]}),
            "`sheets` lists 1 seats; the game has 2",
        ),
        (
            json!({"game": "cosmique", "sets": ["base"], "seats": ["human", "random", "random", "random"]}),
            "`sets` and `sheets` are for Star Realms",
        ),
    ] {
        let (status, answer) = common::http(addr, "POST", "/api/games", Some(body)).await;
        assert_eq!(status, 400, "{answer}");
        assert!(
            answer["message"].as_str().unwrap().contains(words),
            "{answer}"
        );
    }
    server.stop().await;
}
