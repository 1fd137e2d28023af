//! The real `realms serve` process killed (SIGKILL) in the middle of a game, an action in
//! flight, then started again on the same SQLite file: every action a client was told of is
//! still there, and the game plays on to its end.
//!
//! And the same process stopped by SIGTERM while bots search, on all the test's cores and on
//! one alone: it ends within 5 s.

use std::collections::BTreeMap;
use std::io::{BufRead as _, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use futures_util::{SinkExt as _, StreamExt as _};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// The server tests' HTTP client (this test uses only its `http`).
#[allow(dead_code)]
#[path = "../../server/tests/server/http.rs"]
mod http;
use http::http;

/// How long any single wait may take before the test fails.
const PATIENCE: Duration = Duration::from_secs(10);

/// Actions of ours acknowledged before the one in flight at the kill.
const BEFORE_KILL: usize = 20;

/// A `realms serve` process, killed when dropped.
struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Server {
    /// Starts the binary on `db` and reads the address it listens on from its first line.
    fn start(db: &Path) -> Server {
        Server::start_with(db, &[])
    }

    /// The same with more options of `realms serve`.
    fn start_with(db: &Path, more: &[&str]) -> Server {
        Server::spawn(Command::new(env!("CARGO_BIN_EXE_realms")), db, more)
    }

    /// The same on a single core (`taskset`), where the server runs every task on one thread.
    #[cfg(target_os = "linux")]
    fn start_on_one_core(db: &Path, more: &[&str]) -> Server {
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        let allowed = status
            .lines()
            .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
            .expect("the cores this process may use");
        let core = allowed.trim().split([',', '-']).next().unwrap().to_string();
        let mut taskset = Command::new("taskset");
        taskset.args(["-c", &core, env!("CARGO_BIN_EXE_realms")]);
        Server::spawn(taskset, db, more)
    }

    /// Starts `command` (the binary, or a command that runs it) with the test's options.
    fn spawn(mut command: Command, db: &Path, more: &[&str]) -> Server {
        let mut child = command
            .args([
                "--lang",
                "en",
                "serve",
                "--addr",
                "127.0.0.1:0",
                "--bot-delay-ms",
                "0",
            ])
            .arg("--db")
            .arg(db)
            .args(more)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the realms binary starts (on one core: `taskset`, of util-linux, runs it)");
        let printed = lines_of(child.stdout.take().expect("a piped stdout"));
        let addr = loop {
            let line = printed
                .recv_timeout(PATIENCE)
                .expect("the server prints its address");
            if let Some(rest) = line.split("http://").nth(1) {
                let addr = rest.split('/').next().unwrap_or_default();
                break addr.parse().expect("an address");
            }
        };
        Server { child, addr }
    }

    /// SIGTERM, then fails unless the process ends, with success, within `limit`.
    #[cfg(target_os = "linux")]
    async fn terminate_within(&mut self, limit: Duration) {
        let pid = self.child.id().to_string();
        let term = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
        assert!(term.success());
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "{status}");
                return;
            }
            assert!(
                start.elapsed() < limit,
                "the server still runs {limit:?} after SIGTERM"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// SIGKILL: no shutdown, no destructor, no flush.
    fn kill(&mut self) {
        self.child.kill().expect("the server is killed");
        self.child.wait().expect("the server is reaped");
    }
}

/// The lines of a child's `stream` as they come, read by a thread of its own until the process
/// ends (even once nobody listens).
fn lines_of(stream: impl std::io::Read + Send + 'static) -> mpsc::Receiver<String> {
    let (lines, received) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stream).lines().map_while(Result::ok) {
            let _ = lines.send(line);
        }
    });
    received
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// A new game of a person against the medium bot, seeded: its id and the person's token.
async fn game_against_a_bot(addr: SocketAddr, seed: u64) -> (i64, String) {
    let request = json!({"game": "starrealms", "seats": ["human", "medium"], "seed": seed});
    let (status, created) = http(addr, "POST", "/api/games", Some(request)).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_i64().unwrap();
    let join = format!("/api/games/{id}/seats/p1/join");
    let (status, joined) = http(addr, "POST", &join, None).await;
    assert_eq!(status, 200, "{joined}");
    (id, joined["token"].as_str().unwrap().to_string())
}

async fn connect(addr: SocketAddr, id: i64, token: &str) -> Ws {
    let url = format!("ws://{addr}/api/games/{id}/ws?token={token}");
    tokio_tungstenite::connect_async(url).await.unwrap().0
}

/// The next JSON message, or `None` once the connection is closed or lost.
async fn recv(ws: &mut Ws) -> Option<Value> {
    loop {
        let next = tokio::time::timeout(PATIENCE, ws.next())
            .await
            .expect("a message in time");
        match next {
            Some(Ok(Message::Text(t))) => return Some(serde_json::from_str(t.as_str()).unwrap()),
            Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
            _ => return None,
        }
    }
}

/// A view (fails on an error message or a closed connection).
async fn view(ws: &mut Ws) -> Value {
    let v = recv(ws).await.expect("a view, not a closed connection");
    assert_eq!(v["type"], "view", "{v}");
    v
}

/// The client's side of the server's rate limit (20 messages at once, 10 a second in the long
/// run, per connection; `realms serve` has no option to lift it): a token bucket a little
/// slower than the server's.
struct Pace {
    tokens: f64,
    last: Instant,
}

impl Pace {
    const BURST: f64 = 20.0;
    const PER_SECOND: f64 = 9.0;

    fn new() -> Pace {
        Pace {
            tokens: Self::BURST,
            last: Instant::now(),
        }
    }

    async fn wait(&mut self) {
        let now = Instant::now();
        self.tokens =
            (self.tokens + (now - self.last).as_secs_f64() * Self::PER_SECOND).min(Self::BURST);
        self.last = now;
        if self.tokens < 1.0 {
            let wait = Duration::from_secs_f64((1.0 - self.tokens) / Self::PER_SECOND);
            tokio::time::sleep(wait).await;
            self.tokens = 1.0;
            self.last = Instant::now();
        }
        self.tokens -= 1.0;
    }
}

async fn act(ws: &mut Ws, pace: &mut Pace, client_id: &str, view: &Value) {
    pace.wait().await;
    let message = json!({
        "type": "act",
        "client_id": client_id,
        "version": view["version"],
        // The first legal action plays cards, uses abilities, buys and attacks before it ends
        // the turn, so the game moves on to its end.
        "action": view["legal_actions"][0],
    });
    ws.send(Message::Text(message.to_string().into()))
        .await
        .unwrap();
}

fn is_ours(view: &Value) -> bool {
    view["to_move"] == view["seat"]
}

/// Every log line of these messages, by index.
fn told(received: &[Value]) -> BTreeMap<u64, Value> {
    let mut lines = BTreeMap::new();
    for m in received {
        for line in m["log"].as_array().into_iter().flatten() {
            lines.insert(line["index"].as_u64().unwrap(), line.clone());
        }
    }
    lines
}

#[tokio::test]
async fn a_killed_server_keeps_every_acknowledged_action_and_the_game_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("realms.sqlite");

    let mut first = Server::start(&db);
    let (id, token) = game_against_a_bot(first.addr, 11).await;

    // Play against the bot until BEFORE_KILL of our actions are acknowledged and it is our
    // turn again; then send one more and kill the server at once.
    let mut ws = connect(first.addr, id, &token).await;
    let mut pace = Pace::new();
    let mut received = Vec::new();
    let mut acked = 0;
    loop {
        let v = view(&mut ws).await;
        assert_eq!(
            v["over"], false,
            "the game lasts longer than the test's first part"
        );
        acked += usize::from(v["ack"].is_string());
        received.push(v.clone());
        if is_ours(&v) {
            let version = v["version"].as_u64().unwrap();
            act(&mut ws, &mut pace, &format!("a{version}"), &v).await;
            if acked == BEFORE_KILL {
                first.kill();
                break;
            }
        }
    }
    // Views already on their way were sent, hence stored, before the kill: they count too.
    while let Some(v) = recv(&mut ws).await {
        received.push(v);
    }
    let before = told(&received);
    assert!(before.len() > BEFORE_KILL, "the bot played too");
    assert_eq!(
        before.keys().copied().collect::<Vec<_>>(),
        (0..before.len() as u64).collect::<Vec<_>>(),
        "the log as told has no gap"
    );

    // The same file: the first view after the restart holds every action told of, in place.
    let second = Server::start(&db);
    let mut ws = connect(second.addr, id, &token).await;
    let mut pace = Pace::new();
    let first_view = view(&mut ws).await;
    let log = first_view["log"].as_array().unwrap();
    assert_eq!(
        log.len() as u64,
        first_view["version"].as_u64().unwrap(),
        "the first view of a connection has the whole log"
    );
    println!(
        "{} actions told of before the kill, {} in the log after the restart",
        before.len(),
        log.len()
    );
    for (index, line) in &before {
        assert_eq!(
            log.get(*index as usize),
            Some(line),
            "action {index} was acknowledged before the kill"
        );
    }

    // And the game goes on to its end (the bot resumed with the server).
    let mut v = first_view;
    for _ in 0..5000 {
        if v["over"] == true {
            break;
        }
        if is_ours(&v) {
            let version = v["version"].as_u64().unwrap();
            act(&mut ws, &mut pace, &format!("b{version}"), &v).await;
        }
        v = view(&mut ws).await;
    }
    assert_eq!(v["over"], true, "the game ends");
    let last_version = v["version"].as_u64().unwrap();

    let record_path = format!("/api/games/{id}/record");
    let (status, record) = http(second.addr, "GET", &record_path, None).await;
    assert_eq!(status, 200, "{record}");
    let record: game::GameRecord = serde_json::from_value(record).unwrap();
    let state: starrealms::State = record.replay().unwrap();
    assert!(state.over);
    assert_eq!(record.actions.len() as u64, last_version);
    for (index, line) in &before {
        assert_eq!(
            record.actions[*index as usize], line["action"],
            "action {index}"
        );
    }
}

/// The soft and hard limits of open files of a process, from `/proc`.
#[cfg(target_os = "linux")]
fn open_files_limits(pid: u32) -> (String, String) {
    let limits = std::fs::read_to_string(format!("/proc/{pid}/limits")).unwrap();
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max open files"))
        .unwrap();
    let words: Vec<&str> = line.split_whitespace().collect();
    (words[3].to_string(), words[4].to_string())
}

#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_stops_the_server_at_once_even_while_bots_search() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = Server::start_with(&dir.path().join("games.sqlite"), &["--bot-threads", "2"]);
    let pid = server.child.id();
    // Every connection takes a file descriptor: the soft limit is raised to the hard one.
    let (soft, hard) = open_files_limits(pid);
    assert_eq!(soft, hard, "the soft limit of open files is raised");

    // Two games of bots searching as long as the server lets them (seconds a move here).
    for _ in 0..2 {
        let request = json!({"game": "starrealms", "seats": ["ismcts:5000", "ismcts:5000"]});
        let (status, body) = http(server.addr, "POST", "/api/games", Some(request)).await;
        assert_eq!(status, 201, "{body}");
    }
    tokio::time::sleep(Duration::from_millis(800)).await;
    server.terminate_within(Duration::from_secs(5)).await;
}

/// On one core the server serves on tokio's current-thread scheduler: a person's game against
/// a bot plays while another game's bots search on the same core, and SIGTERM still stops the
/// server at once.
#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_one_core_a_game_against_a_bot_plays_beside_searches_and_sigterm_stops_it() {
    const OURS: usize = 30;
    let dir = tempfile::tempdir().unwrap();
    let mut server = Server::start_on_one_core(&dir.path().join("games.sqlite"), &[]);
    // `pid N's current affinity list: 3`
    let affinity = Command::new("taskset")
        .args(["-cp", &server.child.id().to_string()])
        .output()
        .unwrap();
    let affinity = String::from_utf8_lossy(&affinity.stdout);
    let cores = affinity.rsplit(':').next().unwrap().trim();
    assert!(
        cores.parse::<usize>().is_ok(),
        "the server runs on one core: {affinity}"
    );

    let searching = json!({"game": "starrealms", "seats": ["ismcts:5000", "ismcts:5000"]});
    let (status, body) = http(server.addr, "POST", "/api/games", Some(searching)).await;
    assert_eq!(status, 201, "{body}");
    let (id, token) = game_against_a_bot(server.addr, 5).await;

    let mut ws = connect(server.addr, id, &token).await;
    let mut pace = Pace::new();
    let mut received = Vec::new();
    let mut acked = 0;
    while acked < OURS {
        let v = view(&mut ws).await;
        acked += usize::from(v["ack"].is_string());
        received.push(v.clone());
        if is_ours(&v) && !v["over"].as_bool().unwrap() {
            let version = v["version"].as_u64().unwrap();
            act(&mut ws, &mut pace, &format!("a{version}"), &v).await;
        }
    }
    let lines = told(&received);
    assert!(
        lines.len() > OURS,
        "the bot played too: {} lines",
        lines.len()
    );
    assert_eq!(
        lines.keys().copied().collect::<Vec<_>>(),
        (0..lines.len() as u64).collect::<Vec<_>>(),
        "the log as told has no gap"
    );

    server.terminate_within(Duration::from_secs(5)).await;
}

#[tokio::test]
async fn a_killed_server_keeps_a_campaign_game_and_its_campaign() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("realms.sqlite");

    let mut first = Server::start(&db);
    let request = json!({"players": ["human", "medium"], "seed": 3});
    let (status, created) = http(first.addr, "POST", "/api/campaigns", Some(request)).await;
    assert_eq!(status, 201, "{created}");
    let campaign = created["id"].as_i64().unwrap();
    let join = format!("/api/campaigns/{campaign}/seats/p1/join");
    let (status, joined) = http(first.addr, "POST", &join, None).await;
    assert_eq!(status, 200, "{joined}");
    let token = joined["token"].as_str().unwrap().to_string();
    let mut body = json!({"token": token});
    if !created["status"]["next_choice"]
        .as_array()
        .unwrap()
        .is_empty()
    {
        body["choice"] = json!(1);
    }
    let next = format!("/api/campaigns/{campaign}/next");
    let (status, started) = http(first.addr, "POST", &next, Some(body)).await;
    assert_eq!(status, 201, "{started}");
    let id = started["games"][0].as_i64().unwrap();

    // Half of BEFORE_KILL of our actions acknowledged, one more in flight: kill.
    let mut ws = connect(first.addr, id, &token).await;
    let mut pace = Pace::new();
    let mut received = Vec::new();
    let mut acked = 0;
    loop {
        let v = view(&mut ws).await;
        assert_eq!(v["over"], false, "the game lasts longer than this");
        acked += usize::from(v["ack"].is_string());
        received.push(v.clone());
        if is_ours(&v) {
            let version = v["version"].as_u64().unwrap();
            act(&mut ws, &mut pace, &format!("a{version}"), &v).await;
            if acked == BEFORE_KILL / 2 {
                first.kill();
                break;
            }
        }
    }
    while let Some(v) = recv(&mut ws).await {
        received.push(v);
    }
    let before = told(&received);

    // After the restart: the campaign still has its game in progress, and the game every
    // action told of; the campaign's token still opens the seat, and play goes on.
    let second = Server::start(&db);
    let (status, page) = http(
        second.addr,
        "GET",
        &format!("/api/campaigns/{campaign}"),
        None,
    )
    .await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(page["games"], json!([id]));
    assert_eq!(page["status"]["in_progress"], true);
    assert_eq!(page["status"]["scenario"], 1);
    let mut ws = connect(second.addr, id, &token).await;
    let first_view = view(&mut ws).await;
    let log = first_view["log"].as_array().unwrap();
    for (index, line) in &before {
        assert_eq!(
            log.get(*index as usize),
            Some(line),
            "action {index} was acknowledged before the kill"
        );
    }
    let mut pace = Pace::new();
    let mut v = first_view;
    for _ in 0..40 {
        if is_ours(&v) {
            let version = v["version"].as_u64().unwrap();
            act(&mut ws, &mut pace, &format!("b{version}"), &v).await;
            v = view(&mut ws).await;
            assert_eq!(v["ack"], format!("b{version}"), "{v}");
            break;
        }
        v = view(&mut ws).await;
    }
}

/// The server's own log (its error output) speaks the language of `--lang`: a stored game whose
/// record no longer replays is reported in French when it cannot be resumed.
#[test]
fn the_server_log_speaks_the_language_of_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite");
    {
        use store::Store as _;
        let store = store::SqliteStore::open(&db).unwrap();
        let mut record = game::GameRecord::new::<cosmique::State>(&Default::default(), 3);
        record.players = vec!["human".into(), "random".into()];
        let id = store.create(&record, true).unwrap();
        // An action no game of this deal can play.
        store
            .append_action(id, 0, "attack left red9 plus2", None)
            .unwrap();
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_realms"))
        .args(["--lang", "fr", "serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(&db)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the realms binary starts");
    let logged = lines_of(child.stderr.take().expect("a piped stderr"));
    let mut seen = Vec::new();
    let found = loop {
        match logged.recv_timeout(PATIENCE) {
            Ok(line) if line.starts_with("la partie 1 ne peut pas reprendre : ") => break true,
            Ok(line) => seen.push(line),
            Err(_) => break false,
        }
    };
    let _ = child.kill();
    let _ = child.wait();
    assert!(found, "no French line of the log among {seen:?}");
    assert!(
        seen.iter()
            .any(|l| l.starts_with("la partie 1 ne peut pas être reconstruite : ")),
        "{seen:?}"
    );
}
