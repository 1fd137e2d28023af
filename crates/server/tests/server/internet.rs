//! What a server open to the internet withstands: seeds nobody chose, a lobby in pages, caps
//! on connections, slow and silent clients, idle WebSockets, frames it cannot read, rate limits
//! per seat, limits per address, open seats that expire, idle games that leave memory, bounded
//! bots, JSON errors everywhere, damaged records that say nothing of their contents.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use server::{AppState, Options};
use store::{SqliteStore, Store as _};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpStream;

use crate::common::{self, Client, Event, http, http_raw};

/// The test options, with one limit set as a public server sets it.
fn with(change: impl FnOnce(&mut Options)) -> Options {
    let mut options = common::options();
    change(&mut options);
    options
}

/// A server over a store in memory, with the test options changed by `change`.
async fn started(change: impl FnOnce(&mut Options)) -> common::Running {
    common::start(SqliteStore::open(":memory:").unwrap(), with(change)).await
}

/// Reads everything until the server closes the connection (or `within` runs out: a panic).
async fn read_to_close(tcp: &mut TcpStream, within: Duration) -> Vec<u8> {
    let mut bytes = Vec::new();
    tokio::time::timeout(within, tcp.read_to_end(&mut bytes))
        .await
        .expect("the server closes the connection in time")
        .ok();
    bytes
}

/// The status and JSON body of a raw HTTP answer.
fn answer(bytes: &[u8]) -> (u16, Value) {
    let text = String::from_utf8_lossy(bytes);
    let (head, body) = text.split_once("\r\n\r\n").expect("an HTTP answer");
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

fn two_people() -> Value {
    json!({"game": "starrealms", "seats": ["human", "human"]})
}

/// A game of two people with both seats taken (so it has started): its id and the seats' tokens.
async fn begun(addr: std::net::SocketAddr) -> (i64, [String; 2]) {
    let id = common::create(addr, two_people()).await;
    let tokens = [
        common::join(addr, id, "p1").await,
        common::join(addr, id, "p2").await,
    ];
    (id, tokens)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_of_several_people_gets_a_seed_nobody_chose() {
    let server = started(|o| o.allow_chosen_seeds = false).await;
    let addr = server.addr;

    // A chosen seed would let its chooser replay the deal in a private twin and read every hand.
    let request = json!({"game": "starrealms", "seats": ["human", "human"], "seed": 7});
    let (status, body) = http(addr, "POST", "/api/games", Some(request)).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("bad_request")));
    assert!(body["message"].as_str().unwrap().contains("seed"), "{body}");
    let request =
        json!({"game": "cosmique", "seats": ["human", "random", "human", "easy"], "seed": 7});
    let (status, _) = http(addr, "POST", "/api/games", Some(request)).await;
    assert_eq!(status, 400);

    // One person against bots may replay a deal: the game says so.
    let request = json!({"game": "starrealms", "seats": ["human", "heuristic"], "seed": 7});
    let (status, practice) = http(addr, "POST", "/api/games", Some(request)).await;
    assert_eq!(status, 201, "{practice}");
    assert_eq!(practice["seed_chosen"], true);

    // Without a seed, each game gets its own from the operating system.
    let mut rows = Vec::new();
    for _ in 0..3 {
        let (status, game) = http(addr, "POST", "/api/games", Some(two_people())).await;
        assert_eq!(status, 201);
        assert_eq!(game["seed_chosen"], false);
        let mut spectator = Client::connect(addr, &game["id"], None).await;
        rows.push(spectator.recv().await["observation"]["row"].clone());
    }
    assert!(rows[0].is_array(), "{rows:?}");
    assert!(rows[0] != rows[1] || rows[1] != rows[2], "{rows:?}");

    // The lobby tells which games have a chosen deal.
    let (_, page) = http(addr, "GET", "/api/games?status=unfinished", None).await;
    let flags: Vec<(i64, bool)> = page["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| (g["id"].as_i64().unwrap(), g["seed_chosen"] == true))
        .collect();
    assert!(
        flags.contains(&(practice["id"].as_i64().unwrap(), true)),
        "{page}"
    );
    assert_eq!(flags.iter().filter(|(_, chosen)| *chosen).count(), 1);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_comes_in_pages_open_games_first() {
    let server = common::start(SqliteStore::open(":memory:").unwrap(), common::options()).await;
    let addr = server.addr;
    let mut open = Vec::new();
    let mut playing = Vec::new();
    for i in 0..6 {
        if i % 2 == 0 {
            open.push(common::create(addr, two_people()).await);
        } else {
            let id = common::create(
                addr,
                json!({"game": "starrealms", "seats": ["human", "random"]}),
            )
            .await;
            common::join(addr, id, "p1").await;
            playing.push(id);
        }
    }
    let mut listed = Vec::new();
    let mut path = "/api/games?limit=2".to_string();
    loop {
        let (status, page) = http(addr, "GET", &path, None).await;
        assert_eq!(status, 200, "{page}");
        let games = page["games"].as_array().unwrap();
        assert!(games.len() <= 2);
        listed.extend(games.iter().map(|g| g["id"].as_i64().unwrap()));
        match page["next"].as_str() {
            Some(cursor) => path = format!("/api/games?limit=2&cursor={cursor}"),
            None => break,
        }
    }
    // Open games first, then the others, newest first in each group.
    let expected: Vec<i64> = open
        .iter()
        .rev()
        .chain(playing.iter().rev())
        .copied()
        .collect();
    assert_eq!(listed, expected);
    let (_, page) = http(addr, "GET", "/api/games?status=playing", None).await;
    assert_eq!(page["games"].as_array().unwrap().len(), 3);
    let (_, page) = http(addr, "GET", "/api/games?open=true", None).await;
    assert_eq!(page["games"][0]["id"], open[2]);

    for bad in [
        "/api/games?status=finished",
        "/api/games?cursor=x12",
        "/api/games?limit=many",
        "/api/games?colour=red",
        "/api/games?limit=0",
        "/api/games?limit=201",
    ] {
        let (status, body) = http(addr, "GET", bad, None).await;
        assert_eq!(
            (status, body["code"].as_str()),
            (400, Some("bad_request")),
            "{bad}"
        );
        assert!(!body["message"].as_str().unwrap().is_empty());
    }
    let (_, body) = http(addr, "GET", "/api/games?limit=201", None).await;
    assert_eq!(
        body["message"],
        "`limit` is 201: a page lists 1 to 200 games"
    );
    let (status, _) = http(addr, "GET", "/api/games?limit=200", None).await;
    assert_eq!(status, 200);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_beyond_the_caps_are_refused_in_words() {
    let server = started(|o| o.max_connections_per_address = 3).await;
    let addr = server.addr;
    let mut silent = Vec::new();
    for _ in 0..3 {
        silent.push(TcpStream::connect(addr).await.unwrap());
    }
    // Let the server take the three before the fourth knocks.
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut fourth = TcpStream::connect(addr).await.unwrap();
    let (status, body) = answer(&read_to_close(&mut fourth, common::PATIENCE).await);
    assert_eq!(status, 503);
    assert_eq!(body["code"], "too_many_connections");
    assert!(
        body["message"].as_str().unwrap().contains("your address"),
        "{body}"
    );

    // A place freed is a place taken again.
    silent.pop();
    let start = Instant::now();
    loop {
        let (status, _, _) = common::get(addr, "/api/texts").await;
        if status == 200 {
            break;
        }
        assert!(
            start.elapsed() < common::PATIENCE,
            "the place is never given back"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    server.stop().await;

    let server = started(|o| o.max_connections = 2).await;
    let _a = TcpStream::connect(server.addr).await.unwrap();
    let _b = TcpStream::connect(server.addr).await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut third = TcpStream::connect(server.addr).await.unwrap();
    let (status, body) = answer(&read_to_close(&mut third, common::PATIENCE).await);
    assert_eq!(
        (status, body["code"].as_str()),
        (503, Some("too_many_connections"))
    );
    assert!(
        body["message"].as_str().unwrap().contains("the server"),
        "{body}"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silent_slow_and_oversized_requests_end_quickly() {
    let server = started(|o| {
        o.header_timeout = Duration::from_millis(300);
        o.body_timeout = Duration::from_millis(1000);
    })
    .await;
    let addr = server.addr;

    // A connection that never speaks, and one that stops in the middle of its head.
    let mut silent = TcpStream::connect(addr).await.unwrap();
    let mut half = TcpStream::connect(addr).await.unwrap();
    half.write_all(b"GET /api/games HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    // And one that keeps its connection alive after an answer, then says nothing more.
    let mut kept = TcpStream::connect(addr).await.unwrap();
    kept.write_all(b"GET /api/texts HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let start = Instant::now();
    read_to_close(&mut silent, Duration::from_secs(5)).await;
    read_to_close(&mut half, Duration::from_secs(5)).await;
    let answered = read_to_close(&mut kept, Duration::from_secs(5)).await;
    assert!(String::from_utf8_lossy(&answered).starts_with("HTTP/1.1 200"));
    assert!(start.elapsed() >= Duration::from_millis(250));

    // A body announced far over the limit is refused at once, without waiting for it.
    let mut huge = TcpStream::connect(addr).await.unwrap();
    huge.write_all(
        b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
          Content-Length: 100000000\r\n\r\n{",
    )
    .await
    .unwrap();
    let start = Instant::now();
    let (status, body) = answer(&read_until_answer(&mut huge).await);
    assert_eq!(
        (status, body["code"].as_str()),
        (413, Some("too_large")),
        "{body}"
    );
    // Not after the body's timeout: at once.
    assert!(start.elapsed() < Duration::from_millis(800));

    // A body that stops coming.
    let mut slow = TcpStream::connect(addr).await.unwrap();
    slow.write_all(
        b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
          Content-Length: 100\r\n\r\n{\"game\":",
    )
    .await
    .unwrap();
    let (status, body) = answer(&read_until_answer(&mut slow).await);
    assert_eq!(
        (status, body["code"].as_str()),
        (408, Some("timeout")),
        "{body}"
    );

    // A body over the limit sent in chunks, with no length announced.
    let big = format!("{{\"pad\": \"{}\"}}", "x".repeat(20_000));
    let (status, body) = http_raw(addr, "POST", "/api/games", &big).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (413, Some("too_large")),
        "{body}"
    );

    // A head of 40 KiB (cookies grow) is read; one of 200 KiB is refused by the HTTP layer once
    // it has read 64 to 128 KiB without the head's end, and its connection closed.
    let head = |size: usize| {
        format!(
            "GET /api/texts HTTP/1.1\r\nHost: x\r\nCookie: {}\r\nConnection: close\r\n\r\n",
            "c".repeat(size)
        )
    };
    let mut large = TcpStream::connect(addr).await.unwrap();
    large.write_all(head(40 * 1024).as_bytes()).await.unwrap();
    let answered = read_to_close(&mut large, Duration::from_secs(5)).await;
    assert!(String::from_utf8_lossy(&answered).starts_with("HTTP/1.1 200"));
    let mut over = TcpStream::connect(addr).await.unwrap();
    // (The write may fail: the server stops reading and closes.)
    let _ = over.write_all(head(200 * 1024).as_bytes()).await;
    let refused = read_to_close(&mut over, Duration::from_secs(5)).await;
    let refused = String::from_utf8_lossy(&refused);
    assert!(refused.starts_with("HTTP/1.1 431"), "{refused}");
    server.stop().await;
}

/// Reads one HTTP answer whose body is JSON (the connection may stay open).
async fn read_until_answer(tcp: &mut TcpStream) -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut buffer = [0u8; 4096];
    tokio::time::timeout(common::PATIENCE, async {
        loop {
            let n = tcp.read(&mut buffer).await.unwrap_or(0);
            bytes.extend_from_slice(&buffer[..n]);
            let text = String::from_utf8_lossy(&bytes);
            let complete = text
                .split_once("\r\n\r\n")
                .is_some_and(|(_, body)| serde_json::from_str::<Value>(body).is_ok());
            if n == 0 || complete {
                return;
            }
        }
    })
    .await
    .expect("an answer in time");
    bytes
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_never_reads_its_answers_loses_its_connection() {
    let patience = Duration::from_secs(1);
    let server = started(|o| {
        o.max_connections_per_address = 1;
        o.ws_idle_timeout = patience;
    })
    .await;
    let addr = server.addr;
    // Asks for a file 300 times in a row (11 MB of answers) through a small receive buffer, and
    // reads none of them.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let mut hog = socket.connect(addr).await.unwrap();
    let requests = "GET /protocol.md HTTP/1.1\r\nHost: localhost\r\n\r\n".repeat(300);
    hog.write_all(requests.as_bytes()).await.unwrap();
    let asked = Instant::now();
    // It holds its address's one place while the server waits for it to read...
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (status, body) = http(addr, "GET", "/api/games", None).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (503, Some("too_many_connections")),
        "{body}"
    );
    // ...and the server gives it up once nothing could be written for the patience.
    loop {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let (status, _) = http(addr, "GET", "/api/games", None).await;
        if status == 200 {
            break;
        }
        assert!(
            asked.elapsed() < Duration::from_secs(15),
            "the connection that reads nothing still holds its place"
        );
    }
    assert!(asked.elapsed() >= patience);
    drop(hog);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_websockets_are_pinged_and_closed_when_silent() {
    let server = started(|o| {
        o.ws_ping_interval = Duration::from_millis(100);
        o.ws_idle_timeout = Duration::from_millis(400);
    })
    .await;
    let addr = server.addr;
    let id = common::create(addr, two_people()).await;

    // A client that answers the pings (as every WebSocket client does while it reads) stays.
    let mut alive = Client::connect(addr, id, None).await;
    alive.recv().await;
    let waited = tokio::time::timeout(Duration::from_millis(1200), alive.event()).await;
    assert!(
        waited.is_err(),
        "nothing but pings for a client that answers them"
    );

    // A client that opened a WebSocket and went silent is closed with 4408.
    let start = Instant::now();
    let (mut silent, mut bytes) = handmade_websocket(addr, id, None).await;
    bytes.extend(read_to_close(&mut silent, Duration::from_secs(5)).await);
    assert!(start.elapsed() >= Duration::from_millis(350));
    let (code, _) = close_frame(&bytes).expect("a close frame");
    assert_eq!(code, 4408);
    server.stop().await;
}

/// The request that opens a WebSocket at `target` (a path and its query), written by hand.
fn websocket_opening(target: &str) -> String {
    format!(
        "GET {target} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
}

/// A WebSocket to game `id` opened by hand (as a seat with `token`), once the server has
/// switched protocols; the bytes it sent after its answer's head come with it.
async fn handmade_websocket(
    addr: std::net::SocketAddr,
    id: i64,
    token: Option<&str>,
) -> (TcpStream, Vec<u8>) {
    let query = token.map(|t| format!("?token={t}")).unwrap_or_default();
    let mut tcp = TcpStream::connect(addr).await.unwrap();
    let opening = websocket_opening(&format!("/api/games/{id}/ws{query}"));
    tcp.write_all(opening.as_bytes()).await.unwrap();
    let mut read = Vec::new();
    while !read.windows(4).any(|w| w == b"\r\n\r\n") {
        let mut chunk = [0; 4096];
        let n = tcp.read(&mut chunk).await.unwrap();
        assert!(n > 0, "the server closed before it switched protocols");
        read.extend_from_slice(&chunk[..n]);
    }
    let end = read.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
    assert!(
        read.starts_with(b"HTTP/1.1 101"),
        "{}",
        String::from_utf8_lossy(&read)
    );
    (tcp, read.split_off(end))
}

/// A client's frame: `first` is its first byte (the end-of-message bit, the reserved bits and
/// the type), `payload` its content, masked with a fixed key unless `masked` is false.
fn client_frame(first: u8, payload: &[u8], masked: bool) -> Vec<u8> {
    let mask_bit = if masked { 0x80 } else { 0 };
    let mut frame = vec![first];
    match payload.len() {
        n if n < 126 => frame.push(mask_bit | n as u8),
        n if n < 65536 => {
            frame.push(mask_bit | 126);
            frame.extend_from_slice(&(n as u16).to_be_bytes());
        }
        n => {
            frame.push(mask_bit | 127);
            frame.extend_from_slice(&(n as u64).to_be_bytes());
        }
    }
    let key = [0x37, 0xfa, 0x21, 0x3d];
    if masked {
        frame.extend_from_slice(&key);
    }
    frame.extend(
        payload
            .iter()
            .enumerate()
            .map(|(i, b)| if masked { b ^ key[i % 4] } else { *b }),
    );
    frame
}

/// The code and reason of the close frame among the server's frames `bytes`, if there is one.
fn close_frame(bytes: &[u8]) -> Option<(u16, String)> {
    let mut at = 0;
    while at + 2 <= bytes.len() {
        let kind = bytes[at] & 0x0f;
        let (len, start) = match bytes[at + 1] & 0x7f {
            126 => (
                u16::from_be_bytes([bytes[at + 2], bytes[at + 3]]) as usize,
                at + 4,
            ),
            127 => (
                u64::from_be_bytes(bytes[at + 2..at + 10].try_into().unwrap()) as usize,
                at + 10,
            ),
            n => (n as usize, at + 2),
        };
        let payload = bytes.get(start..start + len)?;
        if kind == 0x8 {
            let code = u16::from_be_bytes([payload[0], payload[1]]);
            return Some((code, String::from_utf8_lossy(&payload[2..]).into_owned()));
        }
        at = start + len;
    }
    None
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn frames_the_server_cannot_read_are_answered_with_a_close_code_and_words() {
    let server = started(|_| {}).await;
    let addr = server.addr;
    let (id, [token, _]) = begun(addr).await;
    let text = 0x81;
    let mut begun_then_new = client_frame(0x01, b"{", true);
    begun_then_new.extend(client_frame(text, b"{}", true));
    let cases: [(&str, Vec<u8>, u16, &str); 8] = [
        (
            "text that is not UTF-8",
            client_frame(text, b"\xff\xfe{}", true),
            1007,
            "a text message that is not UTF-8",
        ),
        (
            "a frame not masked",
            client_frame(text, b"{}", false),
            1002,
            "not a WebSocket frame: a frame not masked, as a client's must be",
        ),
        (
            "a frame over 64 KiB",
            client_frame(text, &vec![b'a'; 100_000], true),
            1009,
            "a message over 64 KiB, more than this server reads",
        ),
        (
            "a frame of no known type",
            client_frame(0x83, b"x", true),
            1002,
            "not a WebSocket frame: a frame of no known type",
        ),
        (
            "a reserved bit",
            client_frame(0x80 | 0x40 | 0x1, b"{}", true),
            1002,
            "not a WebSocket frame: a frame with reserved bits set",
        ),
        (
            "a ping of 200 bytes",
            client_frame(0x89, &[b'p'; 200], true),
            1002,
            "not a WebSocket frame: a control frame over 125 bytes",
        ),
        (
            "a new message before the last one ended",
            begun_then_new,
            1002,
            "not a WebSocket frame: a new message before the last one ended",
        ),
        (
            "a continuation first",
            client_frame(0x80, b"x", true),
            1002,
            "not a WebSocket frame: a continuation with no message begun",
        ),
    ];
    for (what, frame, code, reason) in cases {
        for seat in [Some(token.as_str()), None] {
            let (mut tcp, mut read) = handmade_websocket(addr, id, seat).await;
            tcp.write_all(&frame).await.unwrap();
            read.extend(read_to_close(&mut tcp, Duration::from_secs(5)).await);
            assert_eq!(
                close_frame(&read),
                Some((code, reason.to_string())),
                "{what}, seat {seat:?}"
            );
        }
    }

    // A client that closes gets the close frame that ends the WebSocket cleanly: its own code,
    // or 1002 for a code no endpoint may send.
    for (code, answer) in [(1000, (1000, "bye")), (999, (1002, "Protocol violation"))] {
        for seat in [Some(token.as_str()), None] {
            let (mut tcp, mut read) = handmade_websocket(addr, id, seat).await;
            let mut close = u16::to_be_bytes(code).to_vec();
            close.extend_from_slice(b"bye");
            tcp.write_all(&client_frame(0x88, &close, true))
                .await
                .unwrap();
            read.extend(read_to_close(&mut tcp, Duration::from_secs(5)).await);
            assert_eq!(
                close_frame(&read),
                Some((answer.0, answer.1.to_string())),
                "close {code}, seat {seat:?}"
            );
        }
    }

    // The game is untouched, and a client that connects after gets its view as usual.
    let mut client = Client::connect(addr, id, Some(&token)).await;
    let view = client.recv().await;
    assert_eq!(view["version"], 0);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_has_one_allowance_and_a_few_connections() {
    let server = started(|o| {
        o.messages_burst = 5;
        o.messages_per_second = 1;
        o.connections_per_seat = 2;
    })
    .await;
    let addr = server.addr;
    // Every seat taken: the game has started, and its version is what the messages miss.
    let (id, [token, _]) = begun(addr).await;
    let mut a = Client::connect(addr, id, Some(&token)).await;
    let mut b = Client::connect(addr, id, Some(&token)).await;
    a.recv().await;
    b.recv().await;
    // Ten messages over two connections of one seat: its burst of five, and little more.
    let stale = json!({"type": "act", "client_id": "x", "version": 999, "action": "end"});
    for client in [&mut a, &mut b] {
        for _ in 0..5 {
            client.send(stale.clone()).await;
        }
    }
    let mut limited = 0;
    for client in [&mut a, &mut b] {
        for _ in 0..5 {
            let m = client.recv().await;
            assert_eq!(m["type"], "error");
            if m["code"] == "rate_limited" {
                limited += 1;
            } else {
                assert_eq!(m["code"], "stale_version", "{m}");
                assert_eq!(client.recv().await["type"], "view");
            }
        }
    }
    assert!((4..=5).contains(&limited), "{limited} of 10 limited");

    // A third connection of the seat replaces the oldest.
    let mut c = Client::connect(addr, id, Some(&token)).await;
    c.recv().await;
    assert!(matches!(a.event().await, Event::Closed(Some(4409))));
    let quiet = tokio::time::timeout(Duration::from_millis(300), b.event()).await;
    assert!(quiet.is_err(), "the second connection stays");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_floods_past_its_allowance_is_closed() {
    // Five messages at once, then one a minute (the least there is): however slow the machine,
    // none comes back within the test.
    let server = started(|o| {
        o.messages_burst = 5;
        o.messages_per_second = 0;
    })
    .await;
    let addr = server.addr;
    let (id, [token, _]) = begun(addr).await;

    // Told at once, and closed after a hundred more in a row.
    let mut client = Client::connect(addr, id, Some(&token)).await;
    client.recv().await;
    for _ in 0..150 {
        client.send_text("[1, 2").await;
    }
    let mut codes = Vec::new();
    let closed = loop {
        match client.event().await {
            Event::Message(m) => codes.push(m["code"].as_str().unwrap_or_default().to_string()),
            Event::Closed(code) => break code,
        }
    };
    assert_eq!(closed, Some(4429));
    assert_eq!(codes.len(), 104, "{codes:?}");
    assert!(codes[..5].iter().all(|c| c == "bad_message"), "{codes:?}");
    assert!(codes[5..].iter().all(|c| c == "rate_limited"), "{codes:?}");

    // Pings draw on the seat's allowance too (spent by now): a flood of them is closed as well.
    let mut pinger = Client::connect(addr, id, Some(&token)).await;
    pinger.recv().await;
    for _ in 0..150 {
        pinger.send_ping().await;
    }
    let closed = loop {
        if let Event::Closed(code) = pinger.event().await {
            break code;
        }
    };
    assert_eq!(closed, Some(4429));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn creations_and_seats_are_bounded_per_address() {
    let server = started(|o| {
        o.creations_burst = 3;
        o.creations_per_minute = 1;
        o.seats_per_address = 2;
    })
    .await;
    let addr = server.addr;
    let mut ids = Vec::new();
    for _ in 0..3 {
        ids.push(common::create(addr, two_people()).await);
    }
    let (status, body) = http(addr, "POST", "/api/games", Some(two_people())).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (429, Some("rate_limited")),
        "{body}"
    );

    common::join(addr, ids[0], "p1").await;
    common::join(addr, ids[1], "p1").await;
    let path = format!("/api/games/{}/seats/p1/join", ids[2]);
    let (status, body) = http(addr, "POST", &path, None).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("too_many_seats")),
        "{body}"
    );
    // A refused join leaves the seat free.
    let (_, summary) = http(addr, "GET", &format!("/api/games/{}", ids[2]), None).await;
    assert_eq!(summary["seats"][0]["claimed"], false);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_refused_a_rematch_uses_none_of_the_creations_allowed() {
    let server = started(|o| {
        o.creations_burst = 2;
        o.creations_per_minute = 1;
    })
    .await;
    let addr = server.addr;
    let id = common::create(addr, two_people()).await;
    for _ in 0..5 {
        let path = format!("/api/games/{id}/again");
        let (status, body) = http(addr, "POST", &path, None).await;
        assert_eq!(status, 409, "{body}");
        assert_eq!(body["code"], "not_finished");
    }
    let (status, body) = http(addr, "POST", "/api/games", Some(two_people())).await;
    assert_eq!(status, 201, "{body}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_campaign_s_seats_count_among_those_an_address_holds() {
    let server = started(|o| o.seats_per_address = 2).await;
    let addr = server.addr;
    let mut campaigns = Vec::new();
    for _ in 0..2 {
        let request = json!({"players": ["human", "human"]});
        let (status, body) = http(addr, "POST", "/api/campaigns", Some(request)).await;
        assert_eq!(status, 201, "{body}");
        campaigns.push(body["id"].as_i64().unwrap());
    }
    let join = |path: String| async move { http(addr, "POST", &path, None).await };
    for seat in ["p1", "p2"] {
        let (status, body) =
            join(format!("/api/campaigns/{}/seats/{seat}/join", campaigns[0])).await;
        assert_eq!(status, 200, "{body}");
    }
    let game = common::create(addr, two_people()).await;
    for path in [
        format!("/api/campaigns/{}/seats/p1/join", campaigns[1]),
        format!("/api/games/{game}/seats/p1/join"),
    ] {
        let (status, body) = join(path.clone()).await;
        assert_eq!(
            (status, body["code"].as_str()),
            (409, Some("too_many_seats")),
            "{path}: {body}"
        );
    }
    // The refused seat stays free.
    let (_, page) = http(
        addr,
        "GET",
        &format!("/api/campaigns/{}", campaigns[1]),
        None,
    )
    .await;
    assert_eq!(page["seats"][0]["claimed"], false, "{page}");
    server.stop().await;
}

/// Creates a game with `forwarded`, the lines of `X-Forwarded-For` a proxy passed on; returns
/// the answer's status and body.
async fn create_forwarded(addr: std::net::SocketAddr, forwarded: &[String]) -> (u16, Value) {
    let body = two_people().to_string();
    let lines: String = forwarded
        .iter()
        .map(|line| format!("X-Forwarded-For: {line}\r\n"))
        .collect();
    let request = format!(
        "POST /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
         {lines}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut tcp = TcpStream::connect(addr).await.unwrap();
    tcp.write_all(request.as_bytes()).await.unwrap();
    answer(&read_to_close(&mut tcp, Duration::from_secs(10)).await)
}

/// Creates a game as a client behind a reverse proxy that appends its address, `from`, to
/// `X-Forwarded-For`, after an address the client wrote itself, another at each call.
async fn create_from(addr: std::net::SocketAddr, from: &str) -> (u16, Value) {
    static CALLS: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);
    let forged = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    create_forwarded(addr, &[format!("192.0.2.{forged}, {from}")]).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_is_its_proxys_address_for_it_and_an_ipv6_one_its_network() {
    let server = started(|o| {
        o.creations_burst = 1;
        o.creations_per_minute = 1;
        o.client_address_header = Some("X-Forwarded-For".into());
    })
    .await;
    let addr = server.addr;
    let status = |answer: (u16, Value)| (answer.0, answer.1["code"].as_str().map(String::from));
    let created = (201, None);
    let refused = (429, Some("rate_limited".to_string()));
    // The address the proxy added counts, not the one the client wrote before it.
    assert_eq!(status(create_from(addr, "203.0.113.1").await), created);
    assert_eq!(status(create_from(addr, "203.0.113.1").await), refused);
    // Nor a line of the header the client wrote before the proxy's own line.
    let lines = ["192.0.2.200".to_string(), "203.0.113.1".to_string()];
    assert_eq!(status(create_forwarded(addr, &lines).await), refused);
    // One subscriber's /64: its second address is the same client.
    assert_eq!(status(create_from(addr, "2001:db8:1:2::1").await), created);
    assert_eq!(
        status(create_from(addr, "2001:db8:1:2::beef").await),
        refused
    );
    assert_eq!(
        status(create_from(addr, "2001:db8:1:2:ffff:ffff:ffff:ffff").await),
        refused
    );
    // The next network is another client.
    assert_eq!(status(create_from(addr, "2001:db8:1:3::1").await), created);
    // An IPv4 address is one client, written either way.
    assert_eq!(status(create_from(addr, "203.0.113.7").await), created);
    assert_eq!(
        status(create_from(addr, "::ffff:203.0.113.7").await),
        refused
    );
    assert_eq!(status(create_from(addr, "203.0.113.8").await), created);
    server.stop().await;

    // Counted address by address when the operator asks for it.
    let server = started(|o| {
        o.creations_burst = 1;
        o.creations_per_minute = 1;
        o.client_address_header = Some("X-Forwarded-For".into());
        o.ipv6_prefix = 128;
    })
    .await;
    assert_eq!(
        status(create_from(server.addr, "2001:db8:1:2::1").await),
        created
    );
    assert_eq!(
        status(create_from(server.addr, "2001:db8:1:2::2").await),
        created
    );
    server.stop().await;
}

/// A server where an address holds one seat at most, with two games against a bot: the
/// address holds the first's seat, and is refused the second's (the refusal says how to free
/// one). Returns the server, the games and the seat's token.
async fn one_seat_held() -> (common::Running, i64, i64, String) {
    let server = started(|o| o.seats_per_address = 1).await;
    let addr = server.addr;
    let against_a_bot = json!({"game": "starrealms", "seats": ["human", "heuristic"], "seed": 5});
    let first = common::create(addr, against_a_bot.clone()).await;
    let second = common::create(addr, against_a_bot).await;
    let token = common::join(addr, first, "p1").await;
    let path = format!("/api/games/{second}/seats/p1/join");
    let (status, body) = http(addr, "POST", &path, None).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("too_many_seats")),
        "{body}"
    );
    assert!(
        body["message"].as_str().unwrap().contains("leave one"),
        "it says how to free a seat: {body}"
    );
    (server, first, second, token)
}

/// A store holding a finished game of two `random` bots: the store and the game.
fn with_a_finished_game_of_bots() -> (SqliteStore, store::GameId) {
    let store = SqliteStore::open(":memory:").unwrap();
    let mut record = game::GameRecord::new::<starrealms::State>(&Default::default(), 4);
    record.players = vec!["random".into(), "random".into()];
    let id = store.create(&record, false).unwrap();
    store.finish(id, &[game::Seat(0)]).unwrap();
    (store, id)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_address_makes_a_few_games_of_bots_alone_at_once() {
    let bots = json!({"game": "starrealms", "seats": ["random", "random"]});
    let refused = |(status, body): (u16, Value)| {
        assert_eq!(
            (status, body["code"].as_str()),
            (409, Some("too_many_bot_games")),
            "{body}"
        );
        body["message"].as_str().unwrap().to_owned()
    };
    let again = |over: store::GameId, swap: bool| {
        let path = format!("/api/games/{}/again", over.0);
        (path, Some(json!({"swap": swap})))
    };
    // Bots that take their time: the first game goes on while the address asks for more.
    let slow = |o: &mut Options| {
        o.bot_games_per_address = 1;
        o.bot_delay = Duration::from_secs(30);
    };
    let (store, over) = with_a_finished_game_of_bots();
    let server = common::start(store, with(slow)).await;
    let addr = server.addr;
    common::create(addr, bots.clone()).await;
    let message = refused(http(addr, "POST", "/api/games", Some(bots.clone())).await);
    assert_eq!(
        message,
        "your address has made 1 games of bots alone that still go on, the most it may: wait \
         for one to end"
    );
    // A finished game of bots played again, as a rematch or with the same settings, as well.
    for swap in [true, false] {
        let (path, body) = again(over, swap);
        refused(http(addr, "POST", &path, body).await);
    }
    // A game with a person's seat is not one of them...
    let against_a_bot = json!({"game": "starrealms", "seats": ["human", "random"]});
    let with_a_person = common::create(addr, against_a_bot.clone()).await;
    let token = common::join(addr, with_a_person, "p1").await;
    // ...until its last person leaves it to a bot.
    let leave = format!("/api/games/{with_a_person}/seats/p1/leave");
    refused(http(addr, "POST", &leave, Some(json!({"token": token}))).await);
    server.stop().await;
    let server = started(slow).await;
    let addr = server.addr;
    let with_a_person = common::create(addr, against_a_bot).await;
    let token = common::join(addr, with_a_person, "p1").await;
    let leave = format!("/api/games/{with_a_person}/seats/p1/leave");
    let (status, body) = http(addr, "POST", &leave, Some(json!({"token": token}))).await;
    assert_eq!(status, 200, "{body}");
    refused(http(addr, "POST", "/api/games", Some(bots.clone())).await);
    server.stop().await;

    // Once its game of bots is over, the address may make another.
    let server = started(|o| o.bot_games_per_address = 1).await;
    let addr = server.addr;
    let first = common::create(addr, bots.clone()).await;
    Client::connect(addr, first, None).await.until_over().await;
    let second = common::create(addr, bots.clone()).await;
    assert_ne!(first, second);
    server.stop().await;

    // None at all where the operator says so; but a rematch somebody asked for already is
    // found, made by nobody.
    let (store, over) = with_a_finished_game_of_bots();
    let record = store.load(over).unwrap().record;
    let (rematch, made) = store.create_rematch(over, &record).unwrap();
    assert!(made);
    let server = common::start(store, with(|o| o.bot_games_per_address = 0)).await;
    let addr = server.addr;
    let message = refused(http(addr, "POST", "/api/games", Some(bots)).await);
    assert_eq!(
        message,
        "this server makes no games of bots alone: give a person a seat"
    );
    let (path, body) = again(over, false);
    refused(http(addr, "POST", &path, body).await);
    let (path, body) = again(over, true);
    let (status, found) = http(addr, "POST", &path, body).await;
    assert_eq!((status, &found["id"]), (201, &json!(rematch.0)), "{found}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_games_of_bots_an_address_made_are_counted_again_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.sqlite");
    // Bots that take their time: the games go on across the restarts.
    let options = with(|o| {
        o.bot_games_per_address = 2;
        o.bot_delay = Duration::from_secs(30);
    });
    let bots = json!({"game": "starrealms", "seats": ["random", "random"]});
    let against_a_bot = json!({"game": "starrealms", "seats": ["human", "random"]});
    let restarted = || async {
        let state = AppState::new(SqliteStore::open(&path).unwrap(), options.clone());
        common::start_state(state).await
    };
    // A game of bots the address made whose record no longer replays: it never plays on, and
    // counts for nobody.
    let store = SqliteStore::open(&path).unwrap();
    let mut record = game::GameRecord::new::<cosmique::State>(&Default::default(), 3);
    record.players = vec!["random".into(); 4];
    let damaged = store.create(&record, false).unwrap();
    store
        .append_action(damaged, 0, "attack left red9 plus2", None)
        .unwrap();
    store.made_by(damaged, "127.0.0.1").unwrap();
    drop(store);
    let server = restarted().await;
    let addr = server.addr;
    let made = common::create(addr, bots.clone()).await;
    // A game its last person left to a bot is one of them too.
    let left = common::create(addr, against_a_bot).await;
    let token = common::join(addr, left, "p1").await;
    let leave = format!("/api/games/{left}/seats/p1/leave");
    let (status, body) = http(addr, "POST", &leave, Some(json!({"token": token}))).await;
    assert_eq!(status, 200, "{body}");
    server.stop().await;

    // Started again over the same file: the address still has its two.
    let server = restarted().await;
    let (status, body) = http(server.addr, "POST", "/api/games", Some(bots.clone())).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("too_many_bot_games")),
        "{body}"
    );
    // Made longer ago than such a game counts (its bots stopped, say): it counts no more.
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute(
            "UPDATE games SET created_at = '2000-01-01T00:00:00Z' WHERE id = ?1",
            [made],
        )
        .unwrap();
    common::create(server.addr, bots.clone()).await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_seats_an_address_holds_are_counted_again_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.sqlite");
    let options = with(|o| o.seats_per_address = 1);
    let against_a_bot = json!({"game": "starrealms", "seats": ["human", "heuristic"]});
    let state = AppState::new(SqliteStore::open(&path).unwrap(), options.clone());
    let server = common::start_state(state).await;
    let held = common::create(server.addr, against_a_bot.clone()).await;
    common::join(server.addr, held, "p1").await;
    server.stop().await;

    // Started again over the same file: the address still holds its seat.
    let state = AppState::new(SqliteStore::open(&path).unwrap(), options.clone());
    let server = common::start_state(state).await;
    let addr = server.addr;
    let next = common::create(addr, against_a_bot.clone()).await;
    let path_p1 = format!("/api/games/{next}/seats/p1/join");
    let (status, body) = http(addr, "POST", &path_p1, None).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("too_many_seats")),
        "{body}"
    );
    // Made longer ago than a seat counts (abandoned, say, its token lost): it counts no more.
    let backdate = |id: i64| {
        rusqlite::Connection::open(&path)
            .unwrap()
            .execute(
                "UPDATE games SET created_at = '2000-01-01T00:00:00Z' WHERE id = ?1",
                [id],
            )
            .unwrap();
    };
    backdate(held);
    let (status, body) = http(addr, "POST", &path_p1, None).await;
    assert_eq!(status, 200, "{body}");
    server.stop().await;

    // Nor after a restart, whose store forgets who held it.
    backdate(next);
    let state = AppState::new(SqliteStore::open(&path).unwrap(), options.clone());
    let server = common::start_state(state.clone()).await;
    let other = common::create(server.addr, against_a_bot).await;
    common::join(server.addr, other, "p1").await;
    // (The server answers once it has resumed its games.)
    let holders: Vec<String> = state
        .store()
        .holdings()
        .unwrap()
        .into_iter()
        .map(|h| h.holder)
        .collect();
    assert_eq!(holders.len(), 1, "the new seat's alone: {holders:?}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_of_a_finished_game_no_longer_counts_against_its_address() {
    let (server, first, second, token) = one_seat_held().await;
    let addr = server.addr;
    let client = Client::connect(addr, first, Some(&token)).await;
    let played = common::play_seat(client, common::first_legal).await;
    assert_eq!(played.received.last().unwrap()["over"], true);
    // The first game is over: its seat is no longer held, and the address may take another.
    common::join(addr, second, "p1").await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_left_no_longer_counts_against_its_address() {
    let (server, first, second, token) = one_seat_held().await;
    let addr = server.addr;
    // The person leaves the first game to a bot: the address may take another seat.
    let (status, left) = http(
        addr,
        "POST",
        &format!("/api/games/{first}/seats/p1/leave"),
        Some(json!({"token": token})),
    )
    .await;
    assert_eq!(status, 200, "{left}");
    common::join(addr, second, "p1").await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_open_seat_nobody_joins_expires() {
    // Long enough that the first seat is joined in time on a loaded machine (ages are kept
    // to the second, so a seat may be older than it looks by up to one).
    let server = started(|o| {
        o.open_seat_ttl = Duration::from_secs(4);
        o.seats_per_address = 1;
    })
    .await;
    let addr = server.addr;
    let id = common::create(addr, two_people()).await;
    common::join(addr, id, "p1").await;
    let (_, page) = http(addr, "GET", "/api/games?status=open", None).await;
    assert_eq!(page["games"][0]["id"], id);
    // The address holds its one seat.
    let next = common::create(addr, two_people()).await;
    let path = format!("/api/games/{next}/seats/p1/join");
    let (status, body) = http(addr, "POST", &path, None).await;
    assert_eq!(status, 409, "{body}");
    // Creation times are kept to the second.
    tokio::time::sleep(Duration::from_millis(5100)).await;
    let (status, body) = http(
        addr,
        "POST",
        &format!("/api/games/{id}/seats/p2/join"),
        None,
    )
    .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (410, Some("seat_expired")),
        "{body}"
    );
    assert_eq!(
        body["message"],
        format!("seat p2 of game {id} waited 4 seconds for somebody and is closed"),
    );
    for status in ["open", "unfinished"] {
        let (_, page) = http(addr, "GET", &format!("/api/games?status={status}"), None).await;
        assert!(
            page["games"]
                .as_array()
                .unwrap()
                .iter()
                .all(|g| g["id"] != id),
            "{status}: {page}"
        );
    }
    // A game whose open seat expired can never start: its seat no longer counts against its
    // address, which may take another.
    let fresh = common::create(addr, two_people()).await;
    let path = format!("/api/games/{fresh}/seats/p1/join");
    let (status, body) = http(addr, "POST", &path, None).await;
    assert_eq!(status, 200, "{body}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_that_can_never_start_is_retired_and_not_resumed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.sqlite");
    let options = with(|o| o.open_seat_ttl = Duration::from_secs(1));
    let state = AppState::new(SqliteStore::open(&path).unwrap(), options.clone());
    let server = common::start_state(state.clone()).await;
    let addr = server.addr;
    let retired = common::create(addr, two_people()).await;
    common::join(addr, retired, "p1").await;
    let expired = common::create(addr, two_people()).await;
    let (live, _) = begun(addr).await;
    let unfinished = |state: &AppState<SqliteStore>| -> Vec<i64> {
        let games = state.store().list_unfinished().unwrap();
        games.iter().map(|g| g.id.0).collect()
    };
    assert_eq!(unfinished(&state), [retired, expired, live]);
    // Creation times are kept to the second.
    tokio::time::sleep(Duration::from_millis(2100)).await;
    // The server's tidying retires what can never start: out of the list of games to resume.
    state.tidy().await;
    assert_eq!(unfinished(&state), [live]);
    // Still readable by its number, and said retired; its seat no longer to be taken.
    let (status, summary) = http(addr, "GET", &format!("/api/games/{retired}"), None).await;
    assert_eq!(
        (status, &summary["retired"]),
        (200, &json!(true)),
        "{summary}"
    );
    let (_, summary) = http(addr, "GET", &format!("/api/games/{live}"), None).await;
    assert_eq!(summary["retired"], json!(false), "{summary}");
    let path_p2 = format!("/api/games/{retired}/seats/p2/join");
    let (status, body) = http(addr, "POST", &path_p2, None).await;
    assert_eq!((status, body["code"].as_str()), (410, Some("seat_expired")));
    // A game whose seat expires after the last tidying, while the server stops.
    let late = common::create(addr, two_people()).await;
    assert_eq!(unfinished(&state), [live, late]);
    server.stop().await;
    drop(state);
    tokio::time::sleep(Duration::from_millis(2100)).await;

    // A server started again over the same file retires it first, and resumes the game at
    // play only.
    let state = AppState::new(SqliteStore::open(&path).unwrap(), options);
    assert_eq!(state.resume_unfinished().await.unwrap(), 1);
    assert_eq!(state.live_games().await, 1);
    assert_eq!(unfinished(&state), [live]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_games_leave_memory_and_come_back_unchanged() {
    let options = with(|o| o.idle_game_ttl = Duration::from_millis(200));
    let state = AppState::new(SqliteStore::open(":memory:").unwrap(), options);
    let server = common::start_state(state.clone()).await;
    let addr = server.addr;
    let (id, tokens) = begun(addr).await;
    let mut seat = Client::connect(addr, id, Some(&tokens[0])).await;
    let mut other = Client::connect(addr, id, Some(&tokens[1])).await;
    let mut view = seat.recv().await;
    other.recv().await;
    if view["to_move"] != view["seat"] {
        std::mem::swap(&mut seat, &mut other);
        view = seat.received[0].clone();
    }
    seat.act("a", 0, common::first_legal(&view).as_str()).await;
    let before = seat.view_at_least(1).await;
    drop((seat, other));

    // Nobody is connected and a person is to move: the game leaves memory.
    let start = Instant::now();
    while state.live_games().await > 0 {
        assert!(
            start.elapsed() < common::PATIENCE,
            "the idle game stays in memory"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // It comes back from the store as it was.
    let seat_of = before["seat"].as_str().unwrap();
    let token = if seat_of == "p1" {
        &tokens[0]
    } else {
        &tokens[1]
    };
    let mut back = Client::connect(addr, id, Some(token)).await;
    let after = back.recv().await;
    assert_eq!(state.live_games().await, 1);
    for key in ["version", "to_move", "observation", "legal_actions"] {
        assert_eq!(after[key], before[key], "{key}");
    }
    // A game of bots nobody watches plays on meanwhile.
    let bots = common::create(
        addr,
        json!({"game": "starrealms", "seats": ["random", "random"]}),
    )
    .await;
    let mut watcher = Client::connect(addr, bots, None).await;
    let last = watcher.until_over().await;
    assert!(last["version"].as_u64().unwrap() > 10);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_search_within_the_servers_budget() {
    let server = started(|o| o.max_bot_iterations = 100).await;
    let request = json!({"game": "starrealms", "seats": ["human", "ismcts:500"]});
    let (status, body) = http(server.addr, "POST", "/api/games", Some(request)).await;
    assert_eq!(status, 400);
    assert!(
        body["message"].as_str().unwrap().contains("at most 100"),
        "{body}"
    );
    let request = json!({"game": "starrealms", "seats": ["human", "ismcts:100"]});
    let (status, _) = http(server.addr, "POST", "/api/games", Some(request)).await;
    assert_eq!(status, 201);
    // A budget in work: 100 iterations of a game's first turns are 25,000 units.
    let request = json!({"game": "starrealms", "seats": ["human", "ismcts-work:30000"]});
    let (status, body) = http(server.addr, "POST", "/api/games", Some(request)).await;
    assert_eq!(status, 400);
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("at most 25000 units of work"),
        "{body}"
    );
    let request = json!({"game": "starrealms", "seats": ["human", "ismcts-work:25000"]});
    let (status, _) = http(server.addr, "POST", "/api/games", Some(request)).await;
    assert_eq!(status, 201);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_error_is_json_whatever_made_it() {
    let server = common::start(SqliteStore::open(":memory:").unwrap(), common::options()).await;
    let addr = server.addr;
    let id = common::create(addr, two_people()).await;
    let cases = [
        (
            "DELETE",
            "/api/games".to_string(),
            405,
            "method_not_allowed",
        ),
        ("PUT", format!("/api/games/{id}"), 405, "method_not_allowed"),
        (
            "POST",
            format!("/api/games/{id}/record"),
            405,
            "method_not_allowed",
        ),
        ("GET", "/api/games?limit=-1".into(), 400, "bad_request"),
        (
            "GET",
            "/api/texts?lang=fr&lang=en".into(),
            400,
            "bad_request",
        ),
        ("GET", "/api/games/%FF%FE".into(), 400, "bad_request"),
        ("GET", format!("/api/games/{id}/ws"), 400, "bad_request"),
        (
            "GET",
            format!("/api/games/{id}/ws?token=%FF"),
            400,
            "bad_request",
        ),
    ];
    for (method, path, status, code) in cases {
        let (got, body) = http(addr, method, &path, None).await;
        assert_eq!(
            (got, body["code"].as_str()),
            (status, Some(code)),
            "{method} {path}: {body}"
        );
        assert_eq!(body["type"], "error");
        assert!(
            !body["message"].as_str().unwrap().is_empty(),
            "{method} {path}"
        );
    }
    // A query that does not parse says which parameter, and what the route takes, in the
    // server's own phrasing.
    let queries = [
        ("/api/games?filter=open", "unknown field `filter`"),
        ("/api/games?limit=-1", "`limit`: invalid digit"),
        ("/api/texts?lang=fr&lang=en", "duplicate field `lang`"),
    ];
    for (path, why) in queries {
        let (got, body) = http(addr, "GET", path, None).await;
        assert_eq!((got, body["code"].as_str()), (400, Some("bad_request")));
        let message = body["message"].as_str().unwrap();
        assert!(
            message.starts_with("not a query this route takes: ") && message.contains(why),
            "{path}: {message}"
        );
    }
    // A path that does not decode, on every kind of route that takes segments, and a
    // WebSocket's route asked without the opening's headers: in the server's words, naming what
    // is wrong.
    let words = [
        (
            "GET",
            "/api/games/%FF%FE".to_string(),
            "not a path this server reads: its `id` is not UTF-8",
        ),
        (
            "POST",
            format!("/api/games/{id}/seats/%C3%28/join"),
            "not a path this server reads: its `seat` is not UTF-8",
        ),
        (
            "GET",
            "/api/campaigns/%80".into(),
            "not a path this server reads: its `id` is not UTF-8",
        ),
        (
            "GET",
            "/%FF.html".into(),
            "not a path this server reads: its `path` is not UTF-8",
        ),
        (
            "GET",
            format!("/api/games/{id}/ws"),
            "not a WebSocket's opening: its `Connection` header does not say `upgrade`",
        ),
    ];
    for (method, path, words) in words {
        let (got, body) = http(addr, method, &path, None).await;
        assert_eq!(
            (got, body["code"].as_str()),
            (400, Some("bad_request")),
            "{path}: {body}"
        );
        let message = body["message"].as_str().unwrap();
        assert!(message.contains(words), "{method} {path}: {message}");
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_record_tells_nothing_of_itself_and_asks_for_no_retry() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.sqlite");
    let store = SqliteStore::open(&path).unwrap();
    let mut record = game::GameRecord::new::<cosmique::State>(&Default::default(), 3);
    record.players = vec![
        "human".into(),
        "random".into(),
        "random".into(),
        "random".into(),
    ];
    let id = store.create(&record, true).unwrap();
    // An action no game of this deal can play, naming a card.
    store
        .append_action(id, 0, "attack left red9 plus2", None)
        .unwrap();
    let server = common::start(store, common::options()).await;
    let mut spectator = Client::connect(server.addr, id.0, None).await;
    let error = spectator.recv().await;
    assert_eq!(error["code"], "damaged_game", "{error}");
    let message = error["message"].as_str().unwrap();
    assert!(
        !message.contains("red9") && !message.contains("attack"),
        "{message}"
    );
    assert!(matches!(spectator.event().await, Event::Closed(Some(4500))));
    let (status, body) = http(
        server.addr,
        "POST",
        &format!("/api/games/{id}/seats/p1/join"),
        None,
    )
    .await;
    assert_eq!((status, body["code"].as_str()), (500, Some("damaged_game")));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_requests_from_one_address_is_refused_in_words() {
    let server = started(|o| {
        o.requests_burst = 5;
        o.requests_per_second = 1;
    })
    .await;
    let mut statuses = Vec::new();
    for _ in 0..8 {
        let (status, body) = http(server.addr, "GET", "/api/games", None).await;
        if status == 429 {
            assert_eq!(body["code"], "rate_limited");
            assert!(body["message"].as_str().unwrap().contains("your address"));
        }
        statuses.push(status);
    }
    assert_eq!(statuses[..5], [200; 5]);
    assert!(statuses[6..].iter().all(|s| *s == 429), "{statuses:?}");
    server.stop().await;

    // Requests sent in a row on one connection: the first refused closes it, the rest unread.
    let server = started(|o| {
        o.requests_burst = 3;
        o.requests_per_second = 0;
    })
    .await;
    let mut tcp = TcpStream::connect(server.addr).await.unwrap();
    let ask = "GET /api/games HTTP/1.1\r\nHost: localhost\r\n\r\n";
    let last = "GET /api/games HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
    let requests = format!("{}{last}", ask.repeat(9));
    tcp.write_all(requests.as_bytes()).await.unwrap();
    let answers = String::from_utf8_lossy(&read_to_close(&mut tcp, Duration::from_secs(10)).await)
        .into_owned();
    let statuses: Vec<&str> = answers
        .split("HTTP/1.1 ")
        .skip(1)
        .map(|a| &a[..3])
        .collect();
    assert_eq!(statuses, ["200", "200", "200", "429"], "{answers}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_interface_loads_though_the_api_allowance_is_spent() {
    let server = started(|o| {
        o.requests_burst = 3;
        o.requests_per_second = 1;
        o.file_requests_burst = 60;
        o.file_requests_per_second = 1;
    })
    .await;
    for _ in 0..3 {
        http(server.addr, "GET", "/api/games", None).await;
    }
    let (status, _) = http(server.addr, "GET", "/api/games", None).await;
    assert_eq!(status, 429, "the API allowance is spent");
    // Two page loads of the interface's files still come through...
    for path in ["/", "/app.js", "/style.css", "/protocol.md"].repeat(10) {
        let (status, _) = http_raw(server.addr, "GET", path, "").await;
        assert_eq!(status, 200, "{path}");
    }
    // ...within their own allowance, which has an end too.
    let mut statuses = Vec::new();
    for _ in 0..30 {
        statuses.push(http_raw(server.addr, "GET", "/app.js", "").await.0);
    }
    assert!(statuses.contains(&429), "{statuses:?}");
    server.stop().await;
}

/// A self-signed certificate for `localhost`, written as PEM files in `dir`.
fn self_signed(
    dir: &std::path::Path,
) -> (rcgen::CertifiedKey<rcgen::KeyPair>, [std::path::PathBuf; 2]) {
    let made = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).unwrap();
    let cert = dir.join("fullchain.pem");
    let key = dir.join("privkey.pem");
    std::fs::write(&cert, made.cert.pem()).unwrap();
    std::fs::write(&key, made.signing_key.serialize_pem()).unwrap();
    (made, [cert, key])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_speaks_tls_to_browsers_and_websockets() {
    use std::sync::Arc;

    let dir = tempfile::tempdir().unwrap();
    let (made, [cert, key]) = self_signed(dir.path());
    let tls = server::tls::config(&cert, &key).unwrap();
    let server = started(|o| o.tls = Some(tls)).await;
    let addr = server.addr;

    let mut roots = rustls::RootCertStore::empty();
    roots.add(made.cert.der().clone()).unwrap();
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let client = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    let connector = tokio_rustls::TlsConnector::from(Arc::new(client));
    let name = rustls_pki_types::ServerName::try_from("localhost").unwrap();

    // An HTTPS request creates a game.
    let tcp = TcpStream::connect(addr).await.unwrap();
    let mut tls = connector.connect(name.clone(), tcp).await.unwrap();
    let body = two_people().to_string();
    let request = format!(
        "POST /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    tls.write_all(request.as_bytes()).await.unwrap();
    let mut created = Vec::new();
    let _ = tokio::time::timeout(common::PATIENCE, tls.read_to_end(&mut created)).await;
    let (status, game) = answer(&created);
    assert_eq!(status, 201, "{game}");
    let id = game["id"].as_i64().unwrap();

    // A WebSocket over TLS (wss://) gets its first view.
    let tcp = TcpStream::connect(addr).await.unwrap();
    let mut tls = connector.connect(name.clone(), tcp).await.unwrap();
    let opening = websocket_opening(&format!("/api/games/{id}/ws"));
    tls.write_all(opening.as_bytes()).await.unwrap();
    let mut bytes = Vec::new();
    let mut buffer = [0u8; 8192];
    while !String::from_utf8_lossy(&bytes).contains("\"type\":\"view\"") {
        let n = tokio::time::timeout(common::PATIENCE, tls.read(&mut buffer))
            .await
            .unwrap()
            .unwrap();
        assert!(n > 0, "closed before the first view");
        bytes.extend_from_slice(&buffer[..n]);
    }
    assert!(String::from_utf8_lossy(&bytes).starts_with("HTTP/1.1 101"));

    // Plain HTTP to a TLS server gets no answer it could mistake for one.
    let mut plain = TcpStream::connect(addr).await.unwrap();
    plain
        .write_all(b"GET /api/texts HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let answered = read_to_close(&mut plain, common::PATIENCE).await;
    assert!(!String::from_utf8_lossy(&answered).contains("200 OK"));
    server.stop().await;

    // Files that are not what they should be are refused in words naming them.
    let wrong = server::tls::config(&cert, &dir.path().join("missing.pem")).unwrap_err();
    assert!(wrong.contains("missing.pem"), "{wrong}");
    let wrong = server::tls::config(&key, &key).unwrap_err();
    assert!(wrong.contains("no certificate"), "{wrong}");
    let other = tempfile::tempdir().unwrap();
    let (_, [_, other_key]) = self_signed(other.path());
    let wrong = server::tls::config(&cert, &other_key).unwrap_err();
    assert!(wrong.contains("does not go with"), "{wrong}");
}

/// The size of this process's table of file descriptors (`FDSize` in its status).
#[cfg(target_os = "linux")]
fn descriptor_table() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("FDSize:")).unwrap();
    line["FDSize:".len()..].trim().parse().unwrap()
}

#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_makes_room_for_every_connection_it_allows_before_it_serves() {
    // Grown under load instead, the table of descriptors doubles past 64, 128, 256, … of them
    // and each time stops the process while the kernel waits to free the old one.
    let allowed = 9_000;
    let soft = rlimit::getrlimit(rlimit::Resource::NOFILE).unwrap().0 as usize;
    let server = started(|o| o.max_connections = allowed).await;
    let (status, _) = http(server.addr, "GET", "/api/games", None).await;
    assert_eq!(status, 200);
    let table = descriptor_table();
    assert!(table > allowed.min(soft - 1), "{table} descriptors");
    // The descriptor that grew it is closed again.
    for entry in std::fs::read_dir("/proc/self/fd").unwrap() {
        let fd: usize = entry
            .unwrap()
            .file_name()
            .to_str()
            .unwrap()
            .parse()
            .unwrap();
        assert!(fd < allowed.min(soft - 1), "descriptor {fd} left open");
    }
    server.stop().await;
}
