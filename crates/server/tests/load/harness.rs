//! The server under load: a server on a loopback port, over a temporary SQLite file, and many
//! Star Realms games whose two seats are both played by clients over real WebSockets. Each
//! client picks its actions from its view's legal actions with a seeded policy, and every
//! action's latency is measured from sending the `act` to receiving the view that
//! acknowledges it.
//!
//! Around those games the load can add what a public server carries besides: a store that
//! already holds many unfinished games, clients polling the lobby over plain HTTP, idle
//! spectators' WebSockets, and games of two server-side bots that search on the server's cores.
//! The server runs in this process, or in another one ([`Config::server`], started with
//! [`start_server`]) so that server and clients can be pinned to cores of their own.
//!
//! Used by `examples/load.rs` (the measurement) and by the `load` test (the same code, small).

use std::borrow::Cow;
use std::future::Future;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt as _, StreamExt as _};
use game::Action as _;
use serde::Deserialize;
use serde_json::{Value, json};
use store::Store as _;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, mpsc, watch};
use tokio::task::JoinHandle;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{Message, Utf8Bytes};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// Longest wait for any one answer (an HTTP reply, a WebSocket message) before it counts as an
/// error and the game is given up.
const PATIENCE: Duration = Duration::from_secs(30);

/// Longest wait for a server's first answer: a server resumes every unfinished game of its
/// store before it serves anybody.
const STARTUP_PATIENCE: Duration = Duration::from_secs(600);

/// A game still going after this many actions is stopped (and counted as capped): the policy
/// ends games in a few hundred.
pub const MOVE_CAP: u64 = 3000;

/// Games a lobby poller asks for in a page (the server's default page).
const LOBBY_PAGE: usize = 50;

/// Idle sockets that watch the same quiet game.
const SOCKETS_PER_QUIET_GAME: usize = 100;

/// Idle sockets being opened at once.
const OPENING_AT_ONCE: usize = 100;

/// A client's WebSocket.
type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

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
    /// Unfinished games written to the store before the server starts (with a server in this
    /// process; a server elsewhere fills its own, see [`start_server`]).
    pub stored_games: usize,
    /// Clients that poll the lobby over plain HTTP while the games are played.
    pub lobby_pollers: usize,
    /// How long each lobby poller waits between two polls.
    pub poll_interval: Duration,
    /// Spectators' WebSockets opened before the games start, on games nobody plays, and kept
    /// open (answering the server's pings) until they end.
    pub idle_sockets: usize,
    /// Games of two server-side bots kept going while the games are played: as one ends,
    /// another starts.
    pub bot_games: usize,
    /// The bot of those games (`ismcts:2000`, `heuristic` …).
    pub bot: String,
    /// A server already running at this address (`examples/load.rs --serve`), instead of one in
    /// this process.
    pub server: Option<SocketAddr>,
    /// How long a client thinks before each action (none: it acts the instant it may). Latency
    /// is measured from the `act` sent, so thinking adds nothing to it; it only spaces actions
    /// out as people do.
    pub think: Duration,
    /// Whether the clients keep their core awake: their runtime, one thread, never sleeps
    /// waiting for the server's frames. On loopback a frame to a sleeping client wakes its core from inside the
    /// server's send, at the server's cost (an interrupt between the cores, dear in a virtual
    /// machine); over a network that wake happens on the clients' machine. Meant for clients
    /// on cores of their own ([`Config::server`]): beside the server, they would take its time.
    pub busy: bool,
    /// If set, the report also splits the actions by when they were sent, in windows this long
    /// from the first one: how the latency moves over the run.
    pub timeline: Option<Duration>,
    /// Whether the seats ask for their views as changes (`views=changes`), as a program that
    /// plays from the legal actions may: after the first, a view holds the observation's
    /// changed fields only.
    pub changes: bool,
}

impl Config {
    /// The games of the first wave: as many as play at a time.
    pub fn first_wave(&self) -> usize {
        self.concurrency.clamp(1, self.games.max(1))
    }
}

impl Default for Config {
    /// A hundred games at once against a server in this process, and nothing else.
    fn default() -> Self {
        Config {
            games: 100,
            concurrency: 100,
            seed: 1,
            progress: false,
            stored_games: 0,
            lobby_pollers: 0,
            poll_interval: Duration::from_millis(200),
            idle_sockets: 0,
            bot_games: 0,
            bot: "ismcts:2000".into(),
            server: None,
            think: Duration::ZERO,
            busy: false,
            timeline: None,
            changes: false,
        }
    }
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
    /// Everything that went wrong: refused actions, failed requests, timeouts, lost connections
    /// (of the games, the lobby pollers, the idle sockets and the bot games alike).
    pub errors: usize,
    /// The first few errors, to tell what went wrong.
    pub first_errors: Vec<String>,
    /// From the first game created to the last game over.
    pub wall: Duration,
    /// Latency of each action, `act` sent to acknowledging view received, sorted.
    pub latencies: Vec<Duration>,
    /// The latencies of the actions sent once the first wave of games (as many as play at a
    /// time) was all set up, sorted: the games at play, without the setup's crowd.
    pub steady: Vec<Duration>,
    /// With [`Config::timeline`]: the actions by when they were sent, window after window.
    pub timeline: Vec<Window>,
    /// How many times the load's runtime (the clients', and the server's when it runs in this
    /// process) slept waiting for work while the games were played: none with [`Config::busy`].
    pub parks: u64,
    /// How long each game took to set up (created, both seats joined, both WebSockets open),
    /// sorted: connections that wait for the server show here.
    pub setups: Vec<Duration>,
    /// The games written to the store before the server started.
    pub stored: Stored,
    /// From the server's start (or, with [`Config::server`], from the first try) to its first
    /// answer: with stored games, mostly the time it takes to resume them.
    pub startup: Duration,
    /// What the lobby pollers saw.
    pub lobby: Lobby,
    /// What became of the idle sockets.
    pub idle: Idle,
    /// What the bot games did.
    pub bots: Bots,
}

/// The games written to a store before its server started.
#[derive(Clone, Debug, Default)]
pub struct Stored {
    /// Unfinished games.
    pub games: usize,
    /// Their actions, in all.
    pub actions: usize,
    /// How long writing them took.
    pub time: Duration,
}

/// What the lobby pollers saw.
#[derive(Clone, Debug, Default)]
pub struct Lobby {
    /// Pages answered, first pages and next pages.
    pub requests: usize,
    /// Of those, next pages (asked for by the previous page's cursor).
    pub next_pages: usize,
    /// Games listed, over all pages.
    pub listed: usize,
    /// Latency of each answered request, from connecting to the answer's last byte, sorted.
    pub latencies: Vec<Duration>,
}

/// What became of the idle sockets.
#[derive(Clone, Debug, Default)]
pub struct Idle {
    /// Sockets opened (each with its first view) before the games started.
    pub opened: usize,
    /// How long opening them took.
    pub open_time: Duration,
    /// Of those, the ones still open once the games were over.
    pub open_at_end: usize,
    /// Pings the server sent them (each answered).
    pub pings: usize,
}

/// What the bot games did.
#[derive(Clone, Debug, Default)]
pub struct Bots {
    /// Bot games started, including those being played at the end.
    pub started: usize,
    /// Of those, the games played to their end.
    pub finished: usize,
    /// Actions the bots played while the games were played (from the first game created to
    /// the last game over).
    pub actions: usize,
}

/// The actions sent in one window of time of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct Window {
    /// From when, after the first action was sent.
    pub from: Duration,
    /// Their latencies, sorted.
    pub latencies: Vec<Duration>,
}

/// The latencies of `timed` (each action's sending time and latency) by when they were sent, in
/// windows `width` long from the first one; a window in which none was sent is left out.
pub fn timeline(timed: &[(Instant, Duration)], width: Duration) -> Vec<Window> {
    let Some(first) = timed.iter().map(|(sent, _)| *sent).min() else {
        return Vec::new();
    };
    let width = width.max(Duration::from_millis(1));
    let mut windows = std::collections::BTreeMap::<u128, Vec<Duration>>::new();
    for (sent, took) in timed {
        let index = (*sent - first).as_nanos() / width.as_nanos();
        windows.entry(index).or_default().push(*took);
    }
    windows
        .into_iter()
        .map(|(index, mut latencies)| {
            latencies.sort_unstable();
            Window {
                from: width * index as u32,
                latencies,
            }
        })
        .collect()
}

/// The latency below which a fraction `q` (0 to 1) of `sorted` fall (nearest rank).
fn nearest_rank(sorted: &[Duration], q: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// Percentiles of sorted latencies as JSON, in milliseconds.
fn latency_json(sorted: &[Duration]) -> Value {
    let ms = |d: Duration| (d.as_secs_f64() * 1e6).round() / 1e3;
    json!({
        "p50": ms(nearest_rank(sorted, 0.50)),
        "p90": ms(nearest_rank(sorted, 0.90)),
        "p99": ms(nearest_rank(sorted, 0.99)),
        "max": ms(sorted.last().copied().unwrap_or_default()),
    })
}

/// Percentiles of sorted latencies for people.
fn latency_text(sorted: &[Duration]) -> String {
    let ms = |d: Duration| format!("{:.2} ms", d.as_secs_f64() * 1e3);
    format!(
        "p50 {}, p90 {}, p99 {}, max {}",
        ms(nearest_rank(sorted, 0.50)),
        ms(nearest_rank(sorted, 0.90)),
        ms(nearest_rank(sorted, 0.99)),
        ms(sorted.last().copied().unwrap_or_default()),
    )
}

impl Report {
    /// Actions acknowledged per second of wall time.
    pub fn actions_per_second(&self) -> f64 {
        self.actions as f64 / self.wall.as_secs_f64()
    }

    /// Games ended (finished or capped) per second of wall time.
    pub fn games_per_second(&self) -> f64 {
        (self.finished + self.capped) as f64 / self.wall.as_secs_f64()
    }

    /// Where the server ran: `in-process`, or the address of the server elsewhere.
    fn server_name(&self) -> String {
        match self.config.server {
            Some(addr) => addr.to_string(),
            None => "in-process".into(),
        }
    }

    /// The report as JSON (latencies in milliseconds, times in seconds).
    pub fn json(&self) -> Value {
        let s = |d: Duration| (d.as_secs_f64() * 1e3).round() / 1e3;
        let c = &self.config;
        json!({
            "games": c.games,
            "concurrency": c.concurrency,
            "seed": c.seed,
            "server": self.server_name(),
            "startup_s": s(self.startup),
            "finished": self.finished,
            "capped": self.capped,
            "errors": self.errors,
            "first_errors": self.first_errors,
            "actions": self.actions,
            "wall_s": s(self.wall),
            "actions_per_s": self.actions_per_second().round(),
            "think_ms": c.think.as_millis() as u64,
            "busy_clients": c.busy,
            "views": if c.changes { "changes" } else { "full" },
            "runtime_parks": self.parks,
            "games_per_s": (self.games_per_second() * 100.0).round() / 100.0,
            "latency_ms": latency_json(&self.latencies),
            "steady_actions": self.steady.len(),
            "steady_latency_ms": latency_json(&self.steady),
            "timeline": self.timeline.iter().map(|w| json!({
                "from_s": s(w.from),
                "actions": w.latencies.len(),
                "latency_ms": latency_json(&w.latencies),
            })).collect::<Vec<_>>(),
            "setup_ms": latency_json(&self.setups),
            "stored_games": {
                "games": self.stored.games,
                "actions": self.stored.actions,
                "write_s": s(self.stored.time),
            },
            "lobby": {
                "pollers": c.lobby_pollers,
                "poll_ms": c.poll_interval.as_millis() as u64,
                "requests": self.lobby.requests,
                "next_pages": self.lobby.next_pages,
                "listed": self.lobby.listed,
                "latency_ms": latency_json(&self.lobby.latencies),
            },
            "idle_sockets": {
                "sockets": c.idle_sockets,
                "opened": self.idle.opened,
                "open_s": s(self.idle.open_time),
                "open_at_end": self.idle.open_at_end,
                "pings": self.idle.pings,
            },
            "bot_games": {
                "games": c.bot_games,
                "bot": c.bot,
                "started": self.bots.started,
                "finished": self.bots.finished,
                "actions": self.bots.actions,
                "actions_per_s": (self.bots.actions as f64 / self.wall.as_secs_f64()).round(),
            },
        })
    }

    /// The report for people: a line for each case the run had.
    pub fn text(&self) -> String {
        let c = &self.config;
        let ended = (self.finished + self.capped).max(1);
        let mut text = format!(
            "{} games ({} at a time), seed {}\n\
             finished {}, capped at {MOVE_CAP} actions {}, errors {}\n\
             actions {} ({:.1} a game)\n\
             wall time {:.2} s: {:.0} actions/s, {:.2} games/s\n\
             latency from act to acknowledging view: {}\n\
             \x20 once the first {} games were set up ({} actions): {}\n\
             game setup (create, two joins, two WebSockets): {}\n\
             server: {}, answering after {:.2} s\n",
            c.games,
            c.concurrency,
            c.seed,
            self.finished,
            self.capped,
            self.errors,
            self.actions,
            self.actions as f64 / ended as f64,
            self.wall.as_secs_f64(),
            self.actions_per_second(),
            self.games_per_second(),
            latency_text(&self.latencies),
            c.first_wave(),
            self.steady.len(),
            latency_text(&self.steady),
            latency_text(&self.setups),
            self.server_name(),
            self.startup.as_secs_f64(),
        );
        if !c.think.is_zero() {
            text.push_str(&format!(
                "clients think {} ms before each action\n",
                c.think.as_millis()
            ));
        }
        if c.changes {
            text.push_str("clients asked for views as changes\n");
        }
        if c.busy {
            text.push_str(&format!(
                "clients kept their core awake: their runtime slept {} times during the games\n",
                self.parks
            ));
        }
        if let Some(width) = c.timeline {
            text.push_str(&format!(
                "latency by when the actions were sent, {} ms at a time:\n",
                width.as_millis()
            ));
            for w in &self.timeline {
                text.push_str(&format!(
                    "  from {:.1} s: {} actions, {}\n",
                    w.from.as_secs_f64(),
                    w.latencies.len(),
                    latency_text(&w.latencies)
                ));
            }
        }
        if self.stored.games > 0 {
            text.push_str(&format!(
                "stored games: {} unfinished ({} actions) written in {:.2} s before the server \
                 started\n",
                self.stored.games,
                self.stored.actions,
                self.stored.time.as_secs_f64(),
            ));
        }
        if c.lobby_pollers > 0 {
            text.push_str(&format!(
                "lobby: {} pollers every {} ms, {} pages ({} next pages, {} games listed): {}\n",
                c.lobby_pollers,
                c.poll_interval.as_millis(),
                self.lobby.requests,
                self.lobby.next_pages,
                self.lobby.listed,
                latency_text(&self.lobby.latencies),
            ));
        }
        if c.idle_sockets > 0 {
            text.push_str(&format!(
                "idle sockets: {} of {} opened in {:.2} s, {} still open at the end, {} pings \
                 answered\n",
                self.idle.opened,
                c.idle_sockets,
                self.idle.open_time.as_secs_f64(),
                self.idle.open_at_end,
                self.idle.pings,
            ));
        }
        if c.bot_games > 0 {
            text.push_str(&format!(
                "bot games: {} at a time of {}, {} started, {} finished, {} bot actions during \
                 the run ({:.1} a second)\n",
                c.bot_games,
                c.bot,
                self.bots.started,
                self.bots.finished,
                self.bots.actions,
                self.bots.actions as f64 / self.wall.as_secs_f64(),
            ));
        }
        for e in &self.first_errors {
            text.push_str(&format!("error: {e}\n"));
        }
        text
    }
}

/// Runs the load on a runtime of its own (one worker per core; one thread with
/// [`Config::busy`]): starts the server (unless [`Config::server`] names one), plays every game
/// beside the other cases, stops the server.
pub fn run(config: &Config) -> Result<Report, String> {
    // A task that never stops yielding keeps one thread from sleeping: the clients get one.
    let mut builder = if config.busy {
        tokio::runtime::Builder::new_current_thread()
    } else {
        tokio::runtime::Builder::new_multi_thread()
    };
    let runtime = builder
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    runtime.block_on(run_async(config.clone()))
}

/// The server's options for these clients. The limits are meant for people, each from their
/// own address: these clients all come from one address, make hundreds of requests a second
/// and act as soon as their view comes, far more than 10 messages a second. Their seeds are
/// chosen so that a run replays, and bots play without a think delay. Everything else is as in
/// `realms serve`.
pub fn server_options() -> server::Options {
    server::Options {
        bot_delay: Duration::ZERO,
        messages_burst: 1_000_000,
        messages_per_second: 1_000_000,
        address_messages_burst: 1_000_000,
        address_messages_per_second: 1_000_000,
        requests_burst: 1_000_000,
        requests_per_second: 1_000_000,
        creations_burst: 1_000_000,
        creations_per_minute: 1_000_000,
        seats_per_address: 1_000_000,
        bot_games_per_address: 1_000_000,
        max_connections: 100_000,
        max_connections_per_address: 100_000,
        allow_chosen_seeds: true,
        ..server::Options::default()
    }
}

/// Writes `games` unfinished Star Realms games to the store at `path`, before a server opens
/// it. Each has two human seats and 0 to 11 actions, played by the clients' policy from a
/// seeded deal; one game in three has both seats claimed (the lobby lists it as being played),
/// the others one seat or none (the lobby lists them as open).
pub fn fill_store(path: &Path, games: usize, seed: u64) -> Result<Stored, String> {
    let start = Instant::now();
    let store =
        store::SqliteStore::open(path).map_err(|e| format!("cannot open the store: {e}"))?;
    let request: server::CreateGame =
        serde_json::from_value(json!({"game": "starrealms", "seats": ["human", "human"]}))
            .map_err(|e| format!("not a game request: {e}"))?;
    let mut actions = 0;
    for index in 0..games as u64 {
        // Deals and choices apart from those of the games played.
        let deal = game::mix_seed(seed.rotate_left(32) ^ index);
        let mut record = request.record(deal, server::games::MAX_BOT_ITERATIONS)?;
        let mut state = record
            .initial_state::<starrealms::State>()
            .map_err(|e| format!("stored game {index}: {e}"))?;
        let mut rng = game::rng_from_seed(!deal);
        for _ in 0..index % 12 {
            let legal: Vec<String> = state
                .legal_actions()
                .iter()
                .map(ToString::to_string)
                .collect();
            let Some(text) = choose(&legal, &mut rng) else {
                break;
            };
            starrealms::Action::parse(text)
                .and_then(|action| state.apply(action))
                .map_err(|e| format!("stored game {index}: {e}"))?;
            record.actions.push(text.to_string());
        }
        actions += record.actions.len();
        let id = store
            .create(&record, true)
            .map_err(|e| format!("cannot store a game: {e}"))?;
        for seat in 0..(index % 3) as u8 {
            let hash = store::TokenHash::of(&format!("stored game {index}, seat {seat}"));
            store
                .claim_seat(id, game::Seat(seat), &hash)
                .map_err(|e| format!("cannot claim a stored seat: {e}"))?;
        }
    }
    Ok(Stored {
        games,
        actions,
        time: start.elapsed(),
    })
}

/// A server started by [`start_server`] in this process, over a temporary SQLite file.
pub struct Running {
    /// The games written to its store before it started.
    pub stored: Stored,
    /// From its start to its first answer (mostly the time it took to resume the stored games).
    pub startup: Duration,
    task: JoinHandle<Result<(), server::ServerError>>,
    /// The store's directory, removed once the server has stopped.
    _dir: tempfile::TempDir,
}

impl Running {
    /// Waits until the server has stopped (once its shutdown future has resolved).
    pub async fn stopped(self) -> Result<(), String> {
        match self.task.await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(format!("the server failed: {e}")),
            Err(e) => Err(format!("the server's task failed: {e}")),
        }
    }
}

/// Starts a server on `listener` with [`server_options`], over an SQLite file in a temporary
/// directory holding `stored_games` unfinished games ([`fill_store`]), and waits for its first
/// answer. It serves until `shutdown` resolves.
pub async fn start_server(
    listener: TcpListener,
    stored_games: usize,
    seed: u64,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<Running, String> {
    let addr = listener
        .local_addr()
        .map_err(|e| format!("no address: {e}"))?;
    let dir = tempfile::tempdir().map_err(|e| format!("no temporary directory: {e}"))?;
    let path = dir.path().join("load.sqlite");
    let filled = path.clone();
    let stored = tokio::task::spawn_blocking(move || fill_store(&filled, stored_games, seed))
        .await
        .map_err(|e| format!("writing the stored games failed: {e}"))??;
    let store =
        store::SqliteStore::open(&path).map_err(|e| format!("cannot open the store: {e}"))?;
    let start = Instant::now();
    let mut task = tokio::spawn(server::launch(listener, store, server_options(), shutdown));
    tokio::select! {
        ready = wait_ready(addr) => ready?,
        ended = &mut task => {
            return Err(match ended {
                Ok(Ok(())) => "the server stopped before it answered".into(),
                Ok(Err(e)) => format!("the server failed: {e}"),
                Err(e) => format!("the server's task failed: {e}"),
            });
        }
    };
    Ok(Running {
        stored,
        startup: start.elapsed(),
        task,
        _dir: dir,
    })
}

/// Waits until the server at `addr` answers a lobby request, trying again while it refuses
/// connections or does not answer (it may be starting, or resuming its stored games); how long
/// that took.
pub async fn wait_ready(addr: SocketAddr) -> Result<Duration, String> {
    let start = Instant::now();
    loop {
        match http(addr, "GET", "/api/games?limit=1", None).await {
            Ok(_) => return Ok(start.elapsed()),
            Err(e) if start.elapsed() >= STARTUP_PATIENCE => {
                return Err(format!("the server at {addr} does not answer: {e}"));
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    }
}

/// What all games share while they run.
#[derive(Default)]
struct Tally {
    ended: AtomicU64,
    actions: AtomicU64,
    bot_actions: AtomicU64,
    lobby_requests: AtomicU64,
    outcome: Mutex<Outcome>,
}

#[derive(Default)]
struct Outcome {
    finished: usize,
    capped: usize,
    errors: usize,
    first_errors: Vec<String>,
    /// Each action's sending time and latency.
    latencies: Vec<(Instant, Duration)>,
    setups: Vec<Duration>,
    /// When each game was set up.
    set_up_at: Vec<Instant>,
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
    // Dropping `stop_server` would stop the server: it lives to the end.
    let (stop_server, server_stopped) = tokio::sync::oneshot::channel::<()>();
    let (addr, local) = match config.server {
        Some(addr) => (addr, None),
        None => {
            let listener = server::bind("127.0.0.1:0")
                .await
                .map_err(|e| format!("cannot listen: {e}"))?;
            let addr = listener
                .local_addr()
                .map_err(|e| format!("no address: {e}"))?;
            let shutdown = async move {
                let _ = server_stopped.await;
            };
            let running =
                start_server(listener, config.stored_games, config.seed, shutdown).await?;
            (addr, Some(running))
        }
    };
    let (stored, startup) = match &local {
        Some(running) => (running.stored.clone(), running.startup),
        None => (Stored::default(), wait_ready(addr).await?),
    };

    let tally = Arc::new(Tally::default());
    let (stop, stopping) = watch::channel(false);
    // Never waiting on an empty run queue, the runtime's thread polls for I/O without sleeping.
    let awake = config.busy.then(|| {
        tokio::spawn(async {
            loop {
                tokio::task::yield_now().await;
            }
        })
    });
    let bot_tasks: Vec<_> = (0..config.bot_games as u64)
        .map(|slot| {
            let (bot, seed) = (config.bot.clone(), config.seed);
            let (stopping, tally) = (stopping.clone(), Arc::clone(&tally));
            tokio::spawn(bot_games(addr, bot, seed, slot, stopping, tally))
        })
        .collect();
    let idle = open_idle_sockets(addr, config.idle_sockets, config.seed, &stopping, &tally).await;
    let pollers: Vec<_> = (0..config.lobby_pollers)
        .map(|index| {
            let (stopping, tally) = (stopping.clone(), Arc::clone(&tally));
            let (count, interval) = (config.lobby_pollers, config.poll_interval);
            tokio::spawn(poll_lobby(addr, index, count, interval, stopping, tally))
        })
        .collect();

    let slots = Arc::new(Semaphore::new(config.concurrency.max(1)));
    let start = Instant::now();
    let bot_actions_before = tally.bot_actions.load(Ordering::Relaxed);
    let parks_before = parks();
    let progress = config.progress.then(|| {
        let tally = Arc::clone(&tally);
        let config = config.clone();
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_secs(1)).await;
                let mut line = format!(
                    "\r{}/{} games, {} actions",
                    tally.ended.load(Ordering::Relaxed),
                    config.games,
                    tally.actions.load(Ordering::Relaxed),
                );
                if config.lobby_pollers > 0 {
                    let n = tally.lobby_requests.load(Ordering::Relaxed);
                    line.push_str(&format!(", {n} lobby pages"));
                }
                if config.bot_games > 0 {
                    let n = tally.bot_actions.load(Ordering::Relaxed);
                    line.push_str(&format!(", {n} bot actions"));
                }
                eprint!("{line}, {:.0} s   ", start.elapsed().as_secs_f64());
            }
        })
    });
    let mut tasks = Vec::with_capacity(config.games);
    for index in 0..config.games as u64 {
        let tally = Arc::clone(&tally);
        let slots = Arc::clone(&slots);
        let seed = config.seed;
        let clients = Clients {
            think: config.think,
            changes: config.changes,
        };
        tasks.push(tokio::spawn(async move {
            let Ok(_slot) = slots.acquire().await else {
                return;
            };
            let (mut latencies, mut setup) = (Vec::new(), None);
            let result = play_game(
                addr,
                seed,
                index,
                clients,
                &mut latencies,
                &mut setup,
                &tally,
            )
            .await;
            tally.ended.fetch_add(1, Ordering::Relaxed);
            let mut o = tally.outcome.lock().unwrap_or_else(|e| e.into_inner());
            o.latencies.append(&mut latencies);
            if let Some((took, at)) = setup {
                o.setups.push(took);
                o.set_up_at.push(at);
            }
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
    let parks = parks() - parks_before;
    let bot_actions = tally.bot_actions.load(Ordering::Relaxed) - bot_actions_before;
    stop.send_replace(true);
    if let Some(p) = progress {
        p.abort();
        eprintln!();
    }
    if let Some(awake) = awake {
        awake.abort();
    }

    let mut lobby = Lobby::default();
    for task in pollers {
        match task.await {
            Ok(mut seen) => {
                lobby.requests += seen.requests;
                lobby.next_pages += seen.next_pages;
                lobby.listed += seen.listed;
                lobby.latencies.append(&mut seen.latencies);
            }
            Err(e) => tally.error(format!("a lobby poller's task failed: {e}")),
        }
    }
    lobby.latencies.sort_unstable();
    let mut idle_report = Idle {
        opened: idle.opened,
        open_time: idle.open_time,
        ..Idle::default()
    };
    for task in idle.tasks {
        match task.await {
            Ok(Ok(pings)) => {
                idle_report.open_at_end += 1;
                idle_report.pings += pings;
            }
            Ok(Err(e)) => tally.error(e),
            Err(e) => tally.error(format!("an idle socket's task failed: {e}")),
        }
    }
    let mut bots = Bots {
        actions: bot_actions as usize,
        ..Bots::default()
    };
    for task in bot_tasks {
        match task.await {
            Ok(played) => {
                bots.started += played.started;
                bots.finished += played.finished;
                if let Some(e) = played.error {
                    tally.error(e);
                }
            }
            Err(e) => tally.error(format!("a bot games' task failed: {e}")),
        }
    }

    if let Some(running) = local {
        let _ = stop_server.send(());
        match tokio::time::timeout(PATIENCE, running.stopped()).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => tally.error(e),
            Err(_) => tally.error("the server did not stop".into()),
        }
    }

    let mut o = std::mem::take(&mut *tally.outcome.lock().unwrap_or_else(|e| e.into_inner()));
    let steady = after_first_wave(&o.latencies, &mut o.set_up_at, config.first_wave());
    let timeline = config
        .timeline
        .map(|width| timeline(&o.latencies, width))
        .unwrap_or_default();
    let mut latencies: Vec<Duration> = o.latencies.iter().map(|(_, took)| *took).collect();
    latencies.sort_unstable();
    o.setups.sort_unstable();
    Ok(Report {
        config,
        finished: o.finished,
        capped: o.capped,
        actions: latencies.len(),
        errors: o.errors,
        first_errors: o.first_errors,
        wall,
        latencies,
        steady,
        timeline,
        parks,
        setups: o.setups,
        stored,
        startup,
        lobby,
        idle: idle_report,
        bots,
    })
}

/// The latencies, sorted, of the actions of `timed` (each action's sending time and latency)
/// sent once the first `wave` games were all set up (`set_up_at`: when each game was); none if
/// fewer games were set up.
pub fn after_first_wave(
    timed: &[(Instant, Duration)],
    set_up_at: &mut [Instant],
    wave: usize,
) -> Vec<Duration> {
    set_up_at.sort_unstable();
    let Some(&from) = set_up_at.get(wave.max(1) - 1) else {
        return Vec::new();
    };
    let mut steady: Vec<Duration> = timed
        .iter()
        .filter(|(sent, _)| *sent >= from)
        .map(|(_, took)| *took)
        .collect();
    steady.sort_unstable();
    steady
}

/// How many times the workers of this runtime have slept waiting for work.
fn parks() -> u64 {
    let metrics = tokio::runtime::Handle::current().metrics();
    (0..metrics.num_workers())
        .map(|w| metrics.worker_park_count(w))
        .sum()
}

/// Creates a Star Realms game with these seats and this seed; its id.
async fn create_game(addr: SocketAddr, seats: [&str; 2], seed: u64) -> Result<i64, String> {
    let request = json!({"game": "starrealms", "seats": seats, "seed": seed});
    let created = http(addr, "POST", "/api/games", Some(request)).await?;
    created["id"]
        .as_i64()
        .ok_or_else(|| format!("no game id in {created}"))
}

/// Opens the WebSocket at `path` (a seat's, with its token, or a spectator's).
async fn connect(addr: SocketAddr, path: &str) -> Result<Socket, String> {
    // A small read buffer, as the server's: the client would otherwise zero a 128 KiB one at
    // every read (and a 16 KiB one still took a twentieth of its core), and read its views
    // later than they came.
    let config = WebSocketConfig::default().read_buffer_size(4 * 1024);
    let url = format!("ws://{addr}{path}");
    let connect = tokio_tungstenite::connect_async_with_config(url, Some(config), true);
    let (ws, _) = tokio::time::timeout(PATIENCE, connect)
        .await
        .map_err(|_| "no WebSocket in time".to_string())?
        .map_err(|e| format!("WebSocket: {e}"))?;
    Ok(ws)
}

/// How a game ended.
enum End {
    Over,
    Capped,
}

/// How the seats' clients play.
#[derive(Clone, Copy)]
struct Clients {
    /// How long they think before each action.
    think: Duration,
    /// Whether they ask for views as changes.
    changes: bool,
}

/// Creates game `index`, joins both seats and plays them until the game is over; `setup` is
/// the time it took until both seats were connected, and when that was; `latencies` each
/// action's sending time and latency.
async fn play_game(
    addr: SocketAddr,
    seed: u64,
    index: u64,
    clients: Clients,
    latencies: &mut Vec<(Instant, Duration)>,
    setup: &mut Option<(Duration, Instant)>,
    tally: &Tally,
) -> Result<End, String> {
    let start = Instant::now();
    let deal = seed.wrapping_mul(1_000_003).wrapping_add(index);
    let id = create_game(addr, ["human", "human"], deal).await?;
    // Both seats are taken before either connects: the game starts once every seat is.
    let mut tokens = Vec::new();
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
        tokens.push((seat, token));
    }
    let mut seats = Vec::new();
    for (seat, token) in tokens {
        let views = if clients.changes {
            "&views=changes"
        } else {
            ""
        };
        let ws = connect(addr, &format!("/api/games/{id}/ws?token={token}{views}"))
            .await
            .map_err(|e| format!("{seat}: {e}"))?;
        seats.push(ws);
    }
    *setup = Some((start.elapsed(), Instant::now()));
    let p2 = seats.pop().expect("two seats");
    let p1 = seats.pop().expect("two seats");
    let mut times = (Vec::new(), Vec::new());
    // The clients' choices are seeded apart from the deal.
    let rng = |seat: u64| game::rng_from_seed(!seed ^ ((index << 1) | seat));
    // The first seat to fail stops the other.
    let ends = tokio::try_join!(
        play_seat(p1, "p1", rng(0), clients.think, &mut times.0, tally),
        play_seat(p2, "p2", rng(1), clients.think, &mut times.1, tally),
    );
    latencies.append(&mut times.0);
    latencies.append(&mut times.1);
    match ends? {
        (End::Over, End::Over) => Ok(End::Over),
        _ => Ok(End::Capped),
    }
}

/// What the client reads of a server message; the observation is skipped. Its texts are read
/// in place, borrowed from the message (a client that allocates less reads its frames sooner):
/// the protocol's names, seats and actions never hold a character JSON escapes.
#[derive(Deserialize)]
struct Incoming<'a> {
    #[serde(rename = "type")]
    kind: &'a str,
    #[serde(default)]
    version: u64,
    #[serde(default)]
    to_move: Option<&'a str>,
    #[serde(default)]
    over: bool,
    #[serde(default, borrow)]
    legal_actions: Vec<&'a str>,
    #[serde(default)]
    ack: Option<&'a str>,
    #[serde(default)]
    code: Option<&'a str>,
    /// An error's words, which may hold such characters.
    #[serde(default, borrow)]
    message: Option<Cow<'a, str>>,
}

impl Incoming<'_> {
    /// Reads a text message, which must be a view.
    fn view(text: &str) -> Result<Incoming<'_>, String> {
        let m: Incoming =
            serde_json::from_str(text).map_err(|e| format!("unreadable message ({e}): {text}"))?;
        if m.kind != "view" {
            return Err(format!(
                "{} {}",
                m.code.unwrap_or_default(),
                m.message.unwrap_or_default()
            ));
        }
        Ok(m)
    }
}

/// The next text message of a WebSocket (pings and pongs are skipped, and answered by the
/// WebSocket layer), within [`PATIENCE`] if `patient`; the time it arrived.
async fn next_text(ws: &mut Socket, patient: bool) -> Result<(Utf8Bytes, Instant), String> {
    loop {
        let frame = if patient {
            tokio::time::timeout(PATIENCE, ws.next())
                .await
                .map_err(|_| format!("no message in {} s", PATIENCE.as_secs()))?
        } else {
            ws.next().await
        };
        let received = Instant::now();
        return match frame {
            Some(Ok(Message::Text(t))) => Ok((t, received)),
            Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
            Some(Ok(Message::Close(c))) => Err(format!("closed by the server {c:?}")),
            Some(Ok(other)) => Err(format!("unexpected frame {other:?}")),
            Some(Err(e)) => Err(format!("WebSocket: {e}")),
            None => Err("connection lost".into()),
        };
    }
}

/// Plays one seat until the game is over (or capped), recording each action's latency.
async fn play_seat(
    mut ws: Socket,
    seat: &str,
    mut rng: game::GameRng,
    think: Duration,
    latencies: &mut Vec<(Instant, Duration)>,
    tally: &Tally,
) -> Result<End, String> {
    // The act waiting for its acknowledgment: its client id and when it was sent.
    let mut pending: Option<(String, Instant)> = None;
    let mut acted_on: Option<u64> = None;
    loop {
        let (text, received) = next_text(&mut ws, true)
            .await
            .map_err(|e| format!("{seat}: {e}"))?;
        let m = Incoming::view(&text).map_err(|e| format!("{seat}: {e}"))?;
        if let Some((id, sent)) = &pending
            && m.ack == Some(id.as_str())
        {
            latencies.push((*sent, received - *sent));
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
        if pending.is_none() && m.to_move == Some(seat) && acted_on.is_none_or(|v| m.version > v) {
            let action = choose(&m.legal_actions, &mut rng)
                .ok_or_else(|| format!("{seat}: to move without a legal action"))?;
            if !think.is_zero() {
                tokio::time::sleep(think).await;
            }
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

/// What one slot of bot games did.
struct BotGames {
    started: usize,
    finished: usize,
    /// What stopped the slot before the end of the run, if anything.
    error: Option<String>,
}

/// Keeps a game of two `bot`s going on the server until told to stop: as one ends, the next
/// starts. Each is watched as a spectator, to count the bots' actions from its views.
async fn bot_games(
    addr: SocketAddr,
    bot: String,
    seed: u64,
    slot: u64,
    mut stopping: watch::Receiver<bool>,
    tally: Arc<Tally>,
) -> BotGames {
    let mut played = BotGames {
        started: 0,
        finished: 0,
        error: None,
    };
    while !*stopping.borrow() {
        played.started += 1;
        let deal = game::mix_seed(!seed ^ (slot << 32) ^ played.started as u64);
        match watch_bot_game(addr, &bot, deal, &mut stopping, &tally).await {
            Ok(true) => played.finished += 1,
            Ok(false) => break,
            Err(e) => {
                played.error = Some(format!("bot game slot {slot}: {e}"));
                break;
            }
        }
    }
    played
}

/// Creates a game of two `bot`s and watches it until it is over (`true`) or until told to stop
/// (`false`), counting the bots' actions.
async fn watch_bot_game(
    addr: SocketAddr,
    bot: &str,
    deal: u64,
    stopping: &mut watch::Receiver<bool>,
    tally: &Tally,
) -> Result<bool, String> {
    let id = create_game(addr, [bot, bot], deal).await?;
    let mut ws = connect(addr, &format!("/api/games/{id}/ws")).await?;
    let mut version = 0;
    loop {
        // No patience here: a bot may think long on a busy server.
        let next = tokio::select! {
            _ = stopping.wait_for(|stop| *stop) => None,
            text = next_text(&mut ws, false) => Some(text),
        };
        let Some(text) = next else {
            let _ = ws.close(None).await;
            return Ok(false);
        };
        let (text, _) = text?;
        let m = Incoming::view(&text)?;
        // A view may skip versions: a spectator that falls behind gets the newest.
        tally
            .bot_actions
            .fetch_add(m.version.saturating_sub(version), Ordering::Relaxed);
        version = version.max(m.version);
        if m.over {
            let _ = ws.close(None).await;
            return Ok(true);
        }
    }
}

/// The idle sockets once open.
struct IdleSockets {
    /// Each socket's task: the pings it answered, or why it closed before the end.
    tasks: Vec<JoinHandle<Result<usize, String>>>,
    opened: usize,
    open_time: Duration,
}

/// Opens `count` spectators' WebSockets on quiet games (two human seats nobody joins; a
/// hundred sockets a game), each once its first view has come. Each socket is then read until
/// told to stop, so that it answers the server's pings (the WebSocket layer answers them when
/// the stream is read).
async fn open_idle_sockets(
    addr: SocketAddr,
    count: usize,
    seed: u64,
    stopping: &watch::Receiver<bool>,
    tally: &Tally,
) -> IdleSockets {
    let start = Instant::now();
    let mut games = Vec::new();
    for quiet in 0..count.div_ceil(SOCKETS_PER_QUIET_GAME) as u64 {
        let deal = game::mix_seed(seed.rotate_right(16) ^ quiet);
        match create_game(addr, ["human", "human"], deal).await {
            Ok(id) => games.push(id),
            Err(e) => tally.error(format!("a quiet game for idle sockets: {e}")),
        }
    }
    let mut sockets = IdleSockets {
        tasks: Vec::new(),
        opened: 0,
        open_time: Duration::ZERO,
    };
    if games.is_empty() {
        return sockets;
    }
    let opening = Arc::new(Semaphore::new(OPENING_AT_ONCE));
    let (opened_tx, mut opened_rx) = mpsc::unbounded_channel::<bool>();
    for index in 0..count {
        let id = games[index % games.len()];
        let opening = Arc::clone(&opening);
        let opened = opened_tx.clone();
        let mut stopping = stopping.clone();
        sockets.tasks.push(tokio::spawn(async move {
            let fail = |e: String| format!("idle socket {index} (game {id}): {e}");
            let permit = opening.acquire_owned().await;
            let first = async {
                let mut ws = connect(addr, &format!("/api/games/{id}/ws")).await?;
                Incoming::view(&next_text(&mut ws, true).await?.0)?;
                Ok::<_, String>(ws)
            };
            let first = first.await;
            drop(permit);
            // Told once: the opening waits for every sender to be gone.
            let _ = opened.send(first.is_ok());
            drop(opened);
            let mut ws = first.map_err(fail)?;
            let mut pings = 0;
            loop {
                let frame = tokio::select! {
                    _ = stopping.wait_for(|stop| *stop) => None,
                    frame = ws.next() => Some(frame),
                };
                let Some(frame) = frame else {
                    let _ = ws.close(None).await;
                    return Ok(pings);
                };
                match frame {
                    Some(Ok(Message::Ping(_))) => pings += 1,
                    Some(Ok(Message::Text(_) | Message::Pong(_))) => {}
                    Some(Ok(Message::Close(c))) => {
                        return Err(fail(format!("closed by the server {c:?}")));
                    }
                    Some(Ok(other)) => return Err(fail(format!("unexpected frame {other:?}"))),
                    Some(Err(e)) => return Err(fail(format!("WebSocket: {e}"))),
                    None => return Err(fail("connection lost".into())),
                }
            }
        }));
    }
    drop(opened_tx);
    while let Some(ok) = opened_rx.recv().await {
        sockets.opened += usize::from(ok);
    }
    sockets.open_time = start.elapsed();
    sockets
}

/// Polls the lobby every `interval` until told to stop, starting at a fraction of the interval
/// so that the pollers spread out: in turn the first page of the unfinished, the open and the
/// playing games, and every other time the page after it too, by the first page's cursor.
async fn poll_lobby(
    addr: SocketAddr,
    index: usize,
    pollers: usize,
    interval: Duration,
    mut stopping: watch::Receiver<bool>,
    tally: Arc<Tally>,
) -> Lobby {
    let mut seen = Lobby::default();
    let stagger = interval.mul_f64(index as f64 / pollers.max(1) as f64);
    tokio::select! {
        _ = stopping.wait_for(|stop| *stop) => return seen,
        () = tokio::time::sleep(stagger) => {}
    }
    for round in 0usize.. {
        let status = ["unfinished", "open", "playing"][round % 3];
        let first = format!("/api/games?status={status}&limit={LOBBY_PAGE}");
        let next = match lobby_page(addr, &first, &mut seen, &tally).await {
            Ok(next) => next,
            Err(e) => {
                tally.error(format!("lobby poller {index}: {e}"));
                None
            }
        };
        if round % 2 == 1
            && let Some(cursor) = next
        {
            let path = format!("/api/games?status={status}&limit={LOBBY_PAGE}&cursor={cursor}");
            match lobby_page(addr, &path, &mut seen, &tally).await {
                Ok(_) => seen.next_pages += 1,
                Err(e) => tally.error(format!("lobby poller {index}: {e}")),
            }
        }
        tokio::select! {
            _ = stopping.wait_for(|stop| *stop) => break,
            () = tokio::time::sleep(interval) => {}
        }
    }
    seen
}

/// Reads one lobby page into `seen`; the cursor of the page after it, if any.
async fn lobby_page(
    addr: SocketAddr,
    path: &str,
    seen: &mut Lobby,
    tally: &Tally,
) -> Result<Option<String>, String> {
    let sent = Instant::now();
    let answer = http(addr, "GET", path, None).await?;
    let took = sent.elapsed();
    let games = answer["games"]
        .as_array()
        .ok_or_else(|| format!("GET {path}: not a lobby page: {answer}"))?;
    seen.requests += 1;
    seen.listed += games.len();
    seen.latencies.push(took);
    tally.lobby_requests.fetch_add(1, Ordering::Relaxed);
    Ok(answer["next"].as_str().map(str::to_string))
}

/// The clients' policy: a card to play if any, else a card to buy, else an attack, else any
/// other action but `end`, else `end`; the pick within the kind is seeded.
pub fn choose<'a, S: AsRef<str>>(legal: &'a [S], rng: &mut game::GameRng) -> Option<&'a str> {
    let rank = |a: &str| match a.split(' ').next() {
        Some("play") => 0,
        Some("buy") => 1,
        Some("attack") => 2,
        Some("end") => 4,
        _ => 3,
    };
    let best = legal.iter().map(|a| rank(a.as_ref())).min()?;
    let candidates: Vec<&str> = legal
        .iter()
        .map(AsRef::as_ref)
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
