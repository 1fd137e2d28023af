//! The server under load: a server in this process on a loopback port, over a temporary SQLite
//! file, and many Star Realms games whose two seats are both played by clients over real
//! WebSockets. Each client picks its actions from its view's legal actions with a seeded policy,
//! and every action's latency is measured from sending the `act` to receiving the view that
//! acknowledges it.
//!
//! Used by `examples/load.rs` (the measurement) and by the `load` test (the same code, small).

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt as _, StreamExt as _};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// Longest wait for any one answer (an HTTP reply, a WebSocket message) before it counts as an
/// error and the game is given up.
const PATIENCE: Duration = Duration::from_secs(30);

/// A game still going after this many actions is stopped (and counted as capped): the policy
/// ends games in a few hundred.
pub const MOVE_CAP: u64 = 3000;

/// What to run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Games to play.
    pub games: usize,
    /// Games played at the same time, at most.
    pub concurrency: usize,
    /// Seeds the deals and the clients' choices: the same seed plays the same games.
    pub seed: u64,
    /// Whether to print a progress line to stderr.
    pub progress: bool,
}

/// What was measured.
#[derive(Clone, Debug)]
pub struct Report {
    /// What was run.
    pub config: Config,
    /// Games played to their end.
    pub finished: usize,
    /// Games stopped at [`MOVE_CAP`].
    pub capped: usize,
    /// Actions acknowledged.
    pub actions: usize,
    /// Everything that went wrong: refused actions, failed requests, timeouts, lost connections.
    pub errors: usize,
    /// The first few errors, to tell what went wrong.
    pub first_errors: Vec<String>,
    /// From the first game created to the last game over.
    pub wall: Duration,
    /// Latency of each action, `act` sent to acknowledging view received, sorted.
    pub latencies: Vec<Duration>,
}

impl Report {
    /// The latency below which a fraction `q` (0 to 1) of the actions fall (nearest rank).
    pub fn percentile(&self, q: f64) -> Duration {
        if self.latencies.is_empty() {
            return Duration::ZERO;
        }
        let rank = (q * self.latencies.len() as f64).ceil() as usize;
        self.latencies[rank.clamp(1, self.latencies.len()) - 1]
    }

    /// Actions acknowledged per second of wall time.
    pub fn actions_per_second(&self) -> f64 {
        self.actions as f64 / self.wall.as_secs_f64()
    }

    /// Games ended (finished or capped) per second of wall time.
    pub fn games_per_second(&self) -> f64 {
        (self.finished + self.capped) as f64 / self.wall.as_secs_f64()
    }

    /// The report as JSON (latencies in milliseconds).
    pub fn json(&self) -> Value {
        let ms = |d: Duration| (d.as_secs_f64() * 1e6).round() / 1e3;
        json!({
            "games": self.config.games,
            "concurrency": self.config.concurrency,
            "seed": self.config.seed,
            "finished": self.finished,
            "capped": self.capped,
            "errors": self.errors,
            "first_errors": self.first_errors,
            "actions": self.actions,
            "wall_s": (self.wall.as_secs_f64() * 1e3).round() / 1e3,
            "actions_per_s": self.actions_per_second().round(),
            "games_per_s": (self.games_per_second() * 100.0).round() / 100.0,
            "latency_ms": {
                "p50": ms(self.percentile(0.50)),
                "p90": ms(self.percentile(0.90)),
                "p99": ms(self.percentile(0.99)),
                "max": ms(self.latencies.last().copied().unwrap_or_default()),
            },
        })
    }

    /// The report for people.
    pub fn text(&self) -> String {
        let ms = |d: Duration| format!("{:.2} ms", d.as_secs_f64() * 1e3);
        let ended = (self.finished + self.capped).max(1);
        let mut text = format!(
            "{} games ({} at a time), seed {}\n\
             finished {}, capped at {MOVE_CAP} actions {}, errors {}\n\
             actions {} ({:.1} a game)\n\
             wall time {:.2} s: {:.0} actions/s, {:.2} games/s\n\
             latency from act to acknowledging view: p50 {}, p90 {}, p99 {}, max {}\n",
            self.config.games,
            self.config.concurrency,
            self.config.seed,
            self.finished,
            self.capped,
            self.errors,
            self.actions,
            self.actions as f64 / ended as f64,
            self.wall.as_secs_f64(),
            self.actions_per_second(),
            self.games_per_second(),
            ms(self.percentile(0.50)),
            ms(self.percentile(0.90)),
            ms(self.percentile(0.99)),
            ms(self.latencies.last().copied().unwrap_or_default()),
        );
        for e in &self.first_errors {
            text.push_str(&format!("error: {e}\n"));
        }
        text
    }
}

/// Runs the load on a runtime of its own (one worker per core): starts the server, plays every
/// game, stops the server.
pub fn run(config: &Config) -> Result<Report, String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    runtime.block_on(run_async(config.clone()))
}

/// What all games share while they run.
#[derive(Default)]
struct Tally {
    ended: AtomicU64,
    actions: AtomicU64,
    outcome: Mutex<Outcome>,
}

#[derive(Default)]
struct Outcome {
    finished: usize,
    capped: usize,
    errors: usize,
    first_errors: Vec<String>,
    latencies: Vec<Duration>,
}

impl Tally {
    fn error(&self, e: String) {
        self.outcome
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .error(e);
    }
}

impl Outcome {
    fn error(&mut self, e: String) {
        self.errors += 1;
        if self.first_errors.len() < 5 {
            self.first_errors.push(e);
        }
    }
}

async fn run_async(config: Config) -> Result<Report, String> {
    let dir = tempfile::tempdir().map_err(|e| format!("no temporary directory: {e}"))?;
    let store = store::SqliteStore::open(dir.path().join("load.sqlite"))
        .map_err(|e| format!("cannot open the store: {e}"))?;
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| format!("cannot listen: {e}"))?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("no address: {e}"))?;
    // The limits are meant for people, each from their own address: these clients all come
    // from one address and act as soon as their view comes, far more than 10 messages a second.
    // Their seeds are chosen so that a run replays. (No seat is a bot's; no think delay.)
    let options = server::Options {
        bot_delay: Duration::ZERO,
        messages_burst: 1_000_000,
        messages_per_second: 1_000_000,
        address_messages_burst: 1_000_000,
        address_messages_per_second: 1_000_000,
        creations_burst: 1_000_000,
        creations_per_minute: 1_000_000,
        seats_per_address: 1_000_000,
        max_connections: 100_000,
        max_connections_per_address: 100_000,
        allow_chosen_seeds: true,
        ..server::Options::default()
    };
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(server::launch(listener, store, options, async move {
        let _ = stopped.await;
    }));

    let tally = Arc::new(Tally::default());
    let slots = Arc::new(Semaphore::new(config.concurrency.max(1)));
    let start = Instant::now();
    let progress = config.progress.then(|| {
        let tally = Arc::clone(&tally);
        let games = config.games;
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_secs(1)).await;
                eprint!(
                    "\r{}/{games} games, {} actions, {:.0} s   ",
                    tally.ended.load(Ordering::Relaxed),
                    tally.actions.load(Ordering::Relaxed),
                    start.elapsed().as_secs_f64()
                );
            }
        })
    });
    let mut tasks = Vec::with_capacity(config.games);
    for index in 0..config.games as u64 {
        let tally = Arc::clone(&tally);
        let slots = Arc::clone(&slots);
        let seed = config.seed;
        tasks.push(tokio::spawn(async move {
            let Ok(_slot) = slots.acquire().await else {
                return;
            };
            let mut latencies = Vec::new();
            let result = play_game(addr, seed, index, &mut latencies, &tally).await;
            tally.ended.fetch_add(1, Ordering::Relaxed);
            let mut o = tally.outcome.lock().unwrap_or_else(|e| e.into_inner());
            o.latencies.append(&mut latencies);
            match result {
                Ok(End::Over) => o.finished += 1,
                Ok(End::Capped) => o.capped += 1,
                Err(e) => o.error(format!("game {index}: {e}")),
            }
        }));
    }
    for task in tasks {
        if let Err(e) = task.await {
            tally.error(format!("a game's task failed: {e}"));
        }
    }
    let wall = start.elapsed();
    if let Some(p) = progress {
        p.abort();
        eprintln!();
    }
    let _ = stop.send(());
    match tokio::time::timeout(PATIENCE, server).await {
        Ok(Ok(Ok(()))) => {}
        Ok(Ok(Err(e))) => tally.error(format!("the server failed: {e}")),
        Ok(Err(e)) => tally.error(format!("the server's task failed: {e}")),
        Err(_) => tally.error("the server did not stop".into()),
    }

    let mut o = std::mem::take(&mut *tally.outcome.lock().unwrap_or_else(|e| e.into_inner()));
    o.latencies.sort_unstable();
    Ok(Report {
        config,
        finished: o.finished,
        capped: o.capped,
        actions: o.latencies.len(),
        errors: o.errors,
        first_errors: o.first_errors,
        wall,
        latencies: o.latencies,
    })
}

/// How a game ended.
enum End {
    Over,
    Capped,
}

/// Creates game `index`, joins both seats and plays them until the game is over.
async fn play_game(
    addr: SocketAddr,
    seed: u64,
    index: u64,
    latencies: &mut Vec<Duration>,
    tally: &Tally,
) -> Result<End, String> {
    let request = json!({
        "game": "starrealms",
        "seats": ["human", "human"],
        "seed": seed.wrapping_mul(1_000_003).wrapping_add(index),
    });
    let created = http(addr, "POST", "/api/games", Some(request)).await?;
    let id = created["id"]
        .as_i64()
        .ok_or_else(|| format!("no game id in {created}"))?;
    let mut seats = Vec::new();
    for seat in ["p1", "p2"] {
        let joined = http(
            addr,
            "POST",
            &format!("/api/games/{id}/seats/{seat}/join"),
            None,
        )
        .await?;
        let token = joined["token"]
            .as_str()
            .ok_or_else(|| format!("no token in {joined}"))?
            .to_string();
        let url = format!("ws://{addr}/api/games/{id}/ws?token={token}");
        // A small read buffer: the client would otherwise zero a 128 KiB one at every read,
        // and take that time from the server it measures.
        let config = WebSocketConfig::default().read_buffer_size(16 * 1024);
        let connect = tokio_tungstenite::connect_async_with_config(url, Some(config), true);
        let (ws, _) = tokio::time::timeout(PATIENCE, connect)
            .await
            .map_err(|_| format!("{seat}: no WebSocket in time"))?
            .map_err(|e| format!("{seat}: WebSocket: {e}"))?;
        seats.push(ws);
    }
    let p2 = seats.pop().expect("two seats");
    let p1 = seats.pop().expect("two seats");
    let mut times = (Vec::new(), Vec::new());
    // The clients' choices are seeded apart from the deal.
    let rng = |seat: u64| game::rng_from_seed(!seed ^ ((index << 1) | seat));
    // The first seat to fail stops the other.
    let ends = tokio::try_join!(
        play_seat(p1, "p1", rng(0), &mut times.0, tally),
        play_seat(p2, "p2", rng(1), &mut times.1, tally),
    );
    latencies.append(&mut times.0);
    latencies.append(&mut times.1);
    match ends? {
        (End::Over, End::Over) => Ok(End::Over),
        _ => Ok(End::Capped),
    }
}

/// What the client reads of a server message; the observation is skipped.
#[derive(Deserialize)]
struct Incoming {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    version: u64,
    #[serde(default)]
    to_move: Option<String>,
    #[serde(default)]
    over: bool,
    #[serde(default)]
    legal_actions: Vec<String>,
    #[serde(default)]
    ack: Option<String>,
    #[serde(default)]
    code: Option<String>,
    #[serde(default)]
    message: Option<String>,
}

/// Plays one seat until the game is over (or capped), recording each action's latency.
async fn play_seat(
    mut ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    seat: &str,
    mut rng: game::GameRng,
    latencies: &mut Vec<Duration>,
    tally: &Tally,
) -> Result<End, String> {
    // The act waiting for its acknowledgment: its client id and when it was sent.
    let mut pending: Option<(String, Instant)> = None;
    let mut acted_on: Option<u64> = None;
    loop {
        let frame = tokio::time::timeout(PATIENCE, ws.next())
            .await
            .map_err(|_| format!("{seat}: no message in {} s", PATIENCE.as_secs()))?;
        let received = Instant::now();
        let text = match frame {
            Some(Ok(Message::Text(t))) => t,
            Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
            Some(Ok(Message::Close(c))) => {
                return Err(format!("{seat}: closed by the server {c:?}"));
            }
            Some(Ok(other)) => return Err(format!("{seat}: unexpected frame {other:?}")),
            Some(Err(e)) => return Err(format!("{seat}: WebSocket: {e}")),
            None => return Err(format!("{seat}: connection lost")),
        };
        let m: Incoming = serde_json::from_str(text.as_str())
            .map_err(|e| format!("{seat}: unreadable message ({e}): {text}"))?;
        if m.kind != "view" {
            return Err(format!(
                "{seat}: {} {}",
                m.code.unwrap_or_default(),
                m.message.unwrap_or_default()
            ));
        }
        if let Some((id, sent)) = &pending
            && m.ack.as_deref() == Some(id.as_str())
        {
            latencies.push(received - *sent);
            tally.actions.fetch_add(1, Ordering::Relaxed);
            pending = None;
        }
        if m.over {
            let _ = ws.close(None).await;
            return Ok(End::Over);
        }
        if m.version >= MOVE_CAP {
            let _ = ws.close(None).await;
            return Ok(End::Capped);
        }
        if pending.is_none()
            && m.to_move.as_deref() == Some(seat)
            && acted_on.is_none_or(|v| m.version > v)
        {
            let action = choose(&m.legal_actions, &mut rng)
                .ok_or_else(|| format!("{seat}: to move without a legal action"))?;
            let client_id = format!("{seat}-{}", m.version);
            let act = json!({
                "type": "act", "client_id": client_id, "version": m.version, "action": action,
            });
            acted_on = Some(m.version);
            pending = Some((client_id, Instant::now()));
            ws.send(Message::Text(act.to_string().into()))
                .await
                .map_err(|e| format!("{seat}: cannot send: {e}"))?;
        }
    }
}

/// The clients' policy: a card to play if any, else a card to buy, else an attack, else any
/// other action but `end`, else `end`; the pick within the kind is seeded.
pub fn choose<'a>(legal: &'a [String], rng: &mut game::GameRng) -> Option<&'a str> {
    let rank = |a: &str| match a.split(' ').next() {
        Some("play") => 0,
        Some("buy") => 1,
        Some("attack") => 2,
        Some("end") => 4,
        _ => 3,
    };
    let best = legal.iter().map(|a| rank(a)).min()?;
    let candidates: Vec<&str> = legal
        .iter()
        .map(String::as_str)
        .filter(|a| rank(a) == best)
        .collect();
    Some(candidates[game::below(rng, candidates.len())])
}

/// A minimal HTTP/1.1 request over loopback; the JSON body of a 2xx answer.
async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> Result<Value, String> {
    let exchange = async {
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        let mut stream = TcpStream::connect(addr).await?;
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        stream.write_all(request.as_bytes()).await?;
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).await?;
        Ok::<_, std::io::Error>(answer)
    };
    let answer = tokio::time::timeout(PATIENCE, exchange)
        .await
        .map_err(|_| format!("{method} {path}: no answer in time"))?
        .map_err(|e| format!("{method} {path}: {e}"))?;
    let answer = String::from_utf8_lossy(&answer);
    let (head, body) = answer
        .split_once("\r\n\r\n")
        .ok_or_else(|| format!("{method} {path}: not an HTTP answer"))?;
    let status = head.split(' ').nth(1).unwrap_or_default();
    if !status.starts_with('2') {
        return Err(format!("{method} {path}: {status} {body}"));
    }
    serde_json::from_str(body).map_err(|e| format!("{method} {path}: {e}: {body}"))
}
