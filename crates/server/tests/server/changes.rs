//! Views as changes (`views=changes`): a seat and a spectator who ask for them see, once each
//! view is merged into the one before, every observation exactly; in a fraction of the bytes.

use serde_json::{Value, json};
use store::SqliteStore;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpStream;

use crate::common::{self, Client, check_views, first_legal};

/// The bytes of `messages` as JSON text.
fn bytes(messages: &[Value]) -> usize {
    messages.iter().map(|m| m.to_string().len()).sum()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_and_a_spectator_asking_for_changes_see_every_observation_once_merged() {
    // Those who watch are sent every version, as the seat is.
    let options = server::Options {
        watch_interval: std::time::Duration::ZERO,
        ..common::options()
    };
    let server = common::start(SqliteStore::open(":memory:").unwrap(), options).await;
    let addr = server.addr;
    let id = common::create(
        addr,
        json!({"game": "starrealms", "seats": ["heuristic", "human"], "seed": 11}),
    )
    .await;
    let token = common::join(addr, id, "p2").await;
    let mut watcher = Client::connect_for_changes(addr, id, None).await;
    let client = Client::connect_for_changes(addr, id, Some(&token)).await;
    let client = common::play_seat(client, first_legal).await;
    watcher.until_over().await;
    let record = common::record(addr, id).await;
    assert!(
        record.actions.len() > 40,
        "{} actions",
        record.actions.len()
    );
    // Merged, every view holds the seat's observation at its version, as whole views do.
    check_views::<starrealms::State>(&record, &client.received, Some(1));
    check_views::<starrealms::State>(&record, &watcher.received, None);
    for seen in [&client, &watcher] {
        let (first, rest) = seen.raw.split_first().unwrap();
        assert!(first["observation"].is_object() && first["seats"].is_array());
        assert!(rest.len() > 10, "{} views", rest.len());
        assert!(
            rest.iter()
                .all(|v| v["observation_changes"].is_object() && v.get("observation").is_none()),
            "after the first view, changes only"
        );
        // The seats' list comes again only when somebody arrives or leaves.
        let with_seats = rest.iter().filter(|v| v.get("seats").is_some()).count();
        assert!(
            with_seats * 10 < rest.len(),
            "{with_seats} of {} views",
            rest.len()
        );
        let (sent, whole) = (bytes(&seen.raw), bytes(&seen.received));
        assert!(
            sent * 3 < whole,
            "{sent} bytes sent for {whole} in whole views"
        );
    }
    // The seat acted on merged views: its acts were all acknowledged.
    let acks = client.raw.iter().filter(|m| m["ack"].is_string()).count();
    assert!(acks > 20, "{acks} acts acknowledged");
    server.stop().await;
}

/// A game whose views are small (Bataille Cosmique) sends every observation whole, as the
/// protocol allows: a client that merges changes reads it all the same.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bataille_cosmique_sends_whole_observations_to_a_client_asking_for_changes() {
    let server = common::start(SqliteStore::open(":memory:").unwrap(), common::options()).await;
    let addr = server.addr;
    let id = common::create(
        addr,
        json!({"game": "cosmique", "seats": ["easy", "human", "medium", "random"], "seed": 5}),
    )
    .await;
    let token = common::join(addr, id, "p2").await;
    let client = Client::connect_for_changes(addr, id, Some(&token)).await;
    let client = common::play_seat(client, first_legal).await;
    let record = common::record(addr, id).await;
    check_views::<cosmique::State>(&record, &client.received, Some(1));
    assert!(client.raw.len() > 3);
    assert!(
        client
            .raw
            .iter()
            .all(|v| v["observation"].is_object() && v.get("observation_changes").is_none())
    );
    server.stop().await;
}

/// A `views` the server does not know, or a parameter it does not take (a token's name
/// mistyped would open a spectator's socket), is refused before the WebSocket opens, in words.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_kind_of_views_or_parameter_is_refused_in_words() {
    let server = common::start(SqliteStore::open(":memory:").unwrap(), common::options()).await;
    let addr = server.addr;
    let id = common::create(
        addr,
        json!({"game": "starrealms", "seats": ["human", "human"]}),
    )
    .await;
    for (query, words) in [
        (
            "views=delta",
            "unknown variant `delta`, expected `full` or `changes`",
        ),
        (
            "tokn=abc",
            "unknown field `tokn`, expected `token` or `views`",
        ),
    ] {
        let mut stream = TcpStream::connect(addr).await.unwrap();
        let handshake = format!(
            "GET /api/games/{id}/ws?{query} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n\
             Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
             Sec-WebSocket-Version: 13\r\nConnection: close\r\n\r\n"
        );
        stream.write_all(handshake.as_bytes()).await.unwrap();
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).await.unwrap();
        let answer = String::from_utf8(answer).unwrap();
        assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
        let body: Value = serde_json::from_str(answer.split("\r\n\r\n").nth(1).unwrap()).unwrap();
        assert_eq!(body["code"], "bad_request");
        let message = body["message"].as_str().unwrap();
        assert!(
            message.starts_with("not a query this route takes: ") && message.contains(words),
            "{message}"
        );
    }
    server.stop().await;
}
