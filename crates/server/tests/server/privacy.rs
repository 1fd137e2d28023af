//! Every message a connection receives holds its seat's observation and nothing more: checked
//! on the face of each message (no other hand, no deck order) and against the game replayed
//! from its record (the exact observation of that seat at that version).

use serde_json::json;
use store::SqliteStore;

use crate::common::{self, Client, check_team_views, check_views, remote_bot};

/// Two seats played by bots on the far side of the socket, and a spectator, over several games;
/// each connection gets exactly its own view at every version.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seats_and_spectators_see_only_their_own_view() {
    let server = common::start(SqliteStore::open(":memory:").unwrap(), common::options()).await;
    let addr = server.addr;
    for (seed, players) in [
        (1u64, ["heuristic", "random"]),
        (2, ["easy", "heuristic"]),
        (3, ["heuristic", "heuristic"]),
    ] {
        let (id, tokens) = common::both_seated(addr, seed).await;
        let mut spectator = Client::connect(addr, id, None).await;
        let mut seats = Vec::new();
        for (i, token) in tokens.iter().enumerate() {
            let client = Client::connect(addr, id, Some(token)).await;
            let bot = bots::starrealms::by_name(players[i], seed * 10 + i as u64).unwrap();
            seats.push(tokio::spawn(common::play_seat(client, remote_bot(bot))));
        }
        let end = spectator.until_over().await;
        let mut clients = Vec::new();
        for seat in seats {
            clients.push(seat.await.unwrap());
        }
        let record = common::record(addr, id).await;
        assert_eq!(
            end["version"].as_u64().unwrap() as usize,
            record.actions.len()
        );
        check_views::<starrealms::State>(&record, &spectator.received, None);
        for (i, client) in clients.iter().enumerate() {
            assert!(
                client.received.len() > 10,
                "the seat got views as the game went on"
            );
            check_views::<starrealms::State>(&record, &client.received, Some(i));
        }
        // The record is the game: it replays to the end the clients saw.
        let state: starrealms::State = record.replay().unwrap();
        assert!(state.over);
        assert_eq!(
            end["winners"],
            serde_json::to_value(state.winners()).unwrap()
        );
    }
    server.stop().await;
}

/// A game between two server-side bots, watched by spectators from the start and from the
/// middle: their views are the public ones.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectators_of_a_bot_game_see_the_public_view() {
    let server = common::start(SqliteStore::open(":memory:").unwrap(), common::options()).await;
    let addr = server.addr;
    let id = common::create(
        addr,
        json!({"game": "starrealms", "format": "free_for_all", "seats": ["heuristic", "random", "easy"], "seed": 9}),
    )
    .await;
    let mut early = Client::connect(addr, id, None).await;
    early.view_at_least(20).await;
    let mut late = Client::connect(addr, id, None).await;
    early.until_over().await;
    late.until_over().await;
    let record = common::record(addr, id).await;
    assert_eq!(record.players, ["heuristic", "random", "easy"]);
    check_views::<starrealms::State>(&record, &early.received, None);
    check_views::<starrealms::State>(&record, &late.received, None);
    // The latecomer's first view carries the whole log so far.
    assert!(late.received[0]["log"].as_array().unwrap().len() >= 20);
    server.stop().await;
}

/// Bataille Cosmique through the same protocol: two seats played from the far side, two
/// server-side bots, a spectator; face-down meteors stay hidden, in views and in the log.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cosmique_views_hide_face_down_cards() {
    let server = common::start(SqliteStore::open(":memory:").unwrap(), common::options()).await;
    let addr = server.addr;
    for seed in [4u64, 5] {
        let id = common::create(
            addr,
            json!({"game": "cosmique", "variant": "standard", "seats": ["human", "heuristic", "human", "random"], "seed": seed}),
        )
        .await;
        let mut spectator = Client::connect(addr, id, None).await;
        let mut seats = Vec::new();
        for (seat, name) in [(0usize, "heuristic"), (2, "random")] {
            let token = common::join(addr, id, &format!("p{}", seat + 1)).await;
            let client = Client::connect(addr, id, Some(&token)).await;
            let bot = bots::cosmique::by_name(name, seed).unwrap();
            seats.push((
                seat,
                tokio::spawn(common::play_seat(client, remote_bot(bot))),
            ));
        }
        spectator.until_over().await;
        let record = common::record(addr, id).await;
        assert_eq!(record.game, "cosmique");
        check_views::<cosmique::State>(&record, &spectator.received, None);
        let mut hidden = 0;
        for (seat, task) in seats {
            let client = task.await.unwrap();
            check_views::<cosmique::State>(&record, &client.received, Some(seat));
            // Other seats' face-down meteors never appear in this seat's log.
            for m in &client.received {
                for line in m["log"].as_array().into_iter().flatten() {
                    let text = line["action"].as_str().unwrap();
                    if line["seat"] != format!("p{}", seat + 1)
                        && ["attack", "defend", "replace"]
                            .iter()
                            .any(|w| text.starts_with(w))
                    {
                        assert!(
                            text.split(' ')
                                .all(|w| w == "plus2" || w.parse::<cosmique::Card>().is_err()),
                            "a hidden card in `{text}`"
                        );
                        hidden += 1;
                    }
                }
            }
        }
        assert!(hidden > 0, "the game had face-down plays to hide");
    }
    server.stop().await;
}

/// Multiplayer formats through the server, every seat played from the far side: Raid (whose
/// Soldiers see each other's hands, and nobody else's), Hydra (team turns) and Hunter.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn multiplayer_views_hold_only_what_each_seat_may_see() {
    let server = common::start(SqliteStore::open(":memory:").unwrap(), common::options()).await;
    let addr = server.addr;
    for (seed, format, seats) in [(6u64, "raid", 4usize), (7, "hydra", 4), (8, "hunter", 3)] {
        let id = common::create(
            addr,
            json!({"game": "starrealms", "format": format, "seats": vec!["human"; seats], "seed": seed}),
        )
        .await;
        let mut spectator = Client::connect(addr, id, None).await;
        let mut tasks = Vec::new();
        for seat in 0..seats {
            let token = common::join(addr, id, &format!("p{}", seat + 1)).await;
            let client = Client::connect(addr, id, Some(&token)).await;
            let bot = bots::starrealms::by_name("heuristic", seed * 10 + seat as u64).unwrap();
            tasks.push(tokio::spawn(common::play_seat(client, remote_bot(bot))));
        }
        spectator.until_over().await;
        let record = common::record(addr, id).await;
        check_views::<starrealms::State>(&record, &spectator.received, None);
        for (seat, task) in tasks.into_iter().enumerate() {
            let client = task.await.unwrap();
            // Raid Soldiers (every seat but the Boss, p1) see each other's hands.
            let shown: Vec<usize> = match format {
                "raid" if seat > 0 => (1..seats).collect(),
                _ => Vec::new(),
            };
            check_team_views::<starrealms::State>(&record, &client.received, Some(seat), &shown);
        }
    }
    server.stop().await;
}
