//! Log lines name the public cards their actions were about: `buy row 2` says which card was
//! bought, `attack p2 base 0` which base, for whoever reads the log later (a watcher arriving
//! late, a replay), and never a card still hidden from the reader.

use std::collections::{BTreeMap, HashSet};

use game::{Action as _, Seat};
use serde_json::{Value, json};
use store::SqliteStore;

use crate::common::{self, Client, check_views, remote_bot};

/// Every log line `client` received, by index.
fn lines(client: &Client) -> BTreeMap<u64, Value> {
    let mut out = BTreeMap::new();
    for m in &client.received {
        for line in m["log"].as_array().into_iter().flatten() {
            out.insert(line["index"].as_u64().unwrap(), line.clone());
        }
    }
    out
}

/// Every string of a value.
fn strings(v: &Value, out: &mut HashSet<String>) {
    match v {
        Value::String(s) => {
            out.insert(s.clone());
        }
        Value::Object(map) => map.values().for_each(|x| strings(x, out)),
        Value::Array(items) => items.iter().for_each(|x| strings(x, out)),
        _ => {}
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_late_watcher_reads_which_card_each_place_held() {
    let server = common::start(SqliteStore::open(":memory:").unwrap(), common::options()).await;
    let addr = server.addr;
    let (id, tokens) = common::both_seated(addr, 17).await;
    let mut early = Client::connect(addr, id, None).await;
    let mut seats = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        let client = Client::connect(addr, id, Some(token)).await;
        let bot = bots::starrealms::by_name("heuristic", 40 + i as u64).unwrap();
        seats.push(tokio::spawn(common::play_seat(client, remote_bot(bot))));
    }
    // A watcher arrives once a card has been bought from the row.
    early
        .view_where(|v| {
            v["log"]
                .as_array()
                .unwrap()
                .iter()
                .any(|l| l["action"].as_str().unwrap().starts_with("buy row"))
        })
        .await;
    let mut late = Client::connect(addr, id, None).await;
    let first = late.recv().await;
    let bought: Vec<&Value> = first["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["action"].as_str().unwrap().starts_with("buy row"))
        .collect();
    assert!(!bought.is_empty(), "the first view carries the whole log");
    assert!(bought.iter().all(|l| l["card"].is_string()), "{bought:?}");
    late.until_over().await;
    early.until_over().await;
    let mut players = Vec::new();
    for task in seats {
        players.push(task.await.unwrap());
    }

    // Each line names what its place held just before the action.
    let record = common::record(addr, id).await;
    let log = lines(&late);
    assert_eq!(log.len(), record.actions.len());
    let mut state: starrealms::State = record.initial_state().unwrap();
    let mut named = BTreeMap::<&str, usize>::new();
    for (index, text) in record.actions.iter().enumerate() {
        let action = starrealms::Action::parse(text).unwrap();
        let words: Vec<&str> = text.split(' ').collect();
        let me = &state.players[state.current];
        let expected = match words.as_slice() {
            ["buy" | "acquire" | "scrap", "row", slot, ..] => {
                state.row[slot.parse::<usize>().unwrap()].map(|c| c.to_string())
            }
            ["attack" | "destroy", seat, "base", i] => {
                let seat: Seat = seat.parse().unwrap();
                Some(
                    state.players[seat].bases[i.parse::<usize>().unwrap()]
                        .card
                        .to_string(),
                )
            }
            ["buy" | "acquire", "explorer"] => Some("explorer".to_string()),
            ["ally" | "scrap" | "copy", "ship", i] => {
                Some(me.ships[i.parse::<usize>().unwrap()].card.to_string())
            }
            ["primary" | "ally" | "scrap", "base", i] => {
                Some(me.bases[i.parse::<usize>().unwrap()].card.to_string())
            }
            ["play" | "discard", card] | ["scrap", "hand" | "discard", card] => {
                Some(card.to_string())
            }
            ["top"] => match state.pending {
                Some(starrealms::Pending::TopOrDiscard { card }) => Some(card.to_string()),
                _ => panic!("`top` answers the question of a ship just acquired"),
            },
            ["end"] | ["attack", _, _] | ["pass"] | ["choose", _] | ["target", _] => None,
            other => panic!("no action of a standard game: {other:?}"),
        };
        let line = &log[&(index as u64)];
        assert_eq!(
            line["card"].as_str(),
            expected.as_deref(),
            "line {index}: {line}"
        );
        if expected.is_some() {
            *named.entry(words[0]).or_default() += 1;
        }
        state.apply(action).unwrap();
    }
    assert!(named.get("buy").is_some_and(|&n| n > 3), "{named:?}");
    assert!(named.contains_key("play"), "{named:?}");
    check_views::<starrealms::State>(&record, &late.received, None);
    check_views::<starrealms::State>(&record, &early.received, None);
    for (i, client) in players.iter().enumerate() {
        check_views::<starrealms::State>(&record, &client.received, Some(i));
    }

    // A hidden card is never named: replaying the game, a line never names a card that is in
    // somebody's hand and that the watcher's views never showed up to that line.
    let mut state: starrealms::State = record.initial_state().unwrap();
    let mut shown = HashSet::new();
    strings(
        &serde_json::to_value(state.public_observation()).unwrap()["row"],
        &mut shown,
    );
    for (index, text) in record.actions.iter().enumerate() {
        state
            .apply(starrealms::Action::parse(text).unwrap())
            .unwrap();
        let public = serde_json::to_value(state.public_observation()).unwrap();
        for key in ["row", "players", "scrap_heap"] {
            strings(&public[key], &mut shown);
        }
        let hidden: HashSet<String> = state
            .players
            .0
            .iter()
            .flat_map(|p| p.hand.iter().map(|c| c.to_string()))
            .filter(|c| !shown.contains(c))
            .collect();
        if let Some(card) = log[&(index as u64)]["card"].as_str() {
            assert!(
                !hidden.contains(card),
                "line {index} names `{card}` in a hand"
            );
        }
    }

    // The replay's lines name the same cards.
    let n = record.actions.len();
    let mut from = 0;
    while from <= n {
        let (status, page) = common::http(
            addr,
            "GET",
            &format!("/api/games/{id}/replay?seat=p2&from={from}&count=200"),
            None,
        )
        .await;
        assert_eq!(status, 200, "{page}");
        for view in page["views"].as_array().unwrap() {
            let line = &view["line"];
            if line.is_null() {
                continue;
            }
            let live = &log[&line["index"].as_u64().unwrap()];
            assert_eq!(line["card"], live["card"], "{line} / {live}");
        }
        from += 200;
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cards_of_the_log_come_back_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("realms.sqlite");
    let request = json!({"game": "starrealms", "seats": ["heuristic", "easy"], "seed": 8});
    let first = common::start(SqliteStore::open(&path).unwrap(), common::options()).await;
    let id = common::create(first.addr, request).await;
    let mut watcher = Client::connect(first.addr, id, None).await;
    watcher.until_over().await;
    first.stop().await;
    let before = lines(&watcher);
    assert!(
        before.values().any(|l| l["card"].is_string()),
        "the game had lines naming cards"
    );

    // A finished game is loaded from its record alone: its cards are found again.
    let second = common::start(SqliteStore::open(&path).unwrap(), common::options()).await;
    let mut again = Client::connect(second.addr, id, None).await;
    let view = again.recv().await;
    let after: Vec<&Value> = view["log"].as_array().unwrap().iter().collect();
    assert_eq!(after.len(), before.len());
    for line in after {
        assert_eq!(Some(line), before.get(&line["index"].as_u64().unwrap()));
    }
    second.stop().await;
}
