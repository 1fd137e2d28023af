//! The realms game server: a JSON API over HTTP to create, list and join games, and a
//! WebSocket per seat (or spectator) to play them. The protocol is in `docs/protocol.md`.
//!
//! - One task per live game (an actor) owns its state; connections talk to it through channels
//!   and read its versions from a `watch` channel.
//! - Every action is appended to the [`Store`] before anybody hears of it; on start, every
//!   unfinished game is rebuilt by replaying its record and goes on, bots included.
//! - A connection only ever receives its seat's observation (a spectator the public one), and
//!   the log with other seats' face-down cards hidden.
//! - Bots play their seats in the server, with a think delay, from their seat's observation;
//!   their seeds derive from the game's seed, the seat and the move number.
//!
//! ```no_run
//! # async fn run() -> Result<(), server::ServerError> {
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
//! let store = store::SqliteStore::open("realms.sqlite")?;
//! server::launch(listener, store, server::Options::default(), async {
//!     let _ = tokio::signal::ctrl_c().await;
//! })
//! .await
//! # }
//! ```

use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use store::{GameId, Store, StoreError};
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinHandle;

pub use i18n::Lang;

/// The bot that plays on a seat its person left: a middle level, known to every game.
pub const STAND_IN: &str = "medium";

mod actor;
mod api;
mod campaigns;
pub mod games;
mod limits;
mod listen;
pub mod protocol;
mod replay;
mod socket;
pub mod tls;
mod web;
mod writer;

use actor::GameHandle;
pub use campaigns::CreateCampaign;
pub use games::{CreateGame, GameKind};
pub use protocol::{ApiError, ClientMessage, ErrorCode, LogLine, SeatPresence, ServerMessage};

/// Writes a line of the server's log (its error output, read by whoever runs it) in `lang`.
pub(crate) fn log(lang: Lang, key: &str, args: &[(&str, &dyn std::fmt::Display)]) {
    eprintln!("{}", i18n::tf(lang, key, args));
}

/// How the server runs. Every limit has a default fit for a server open to the internet; see
/// `docs/protocol.md` ("Limits").
#[derive(Clone, Debug)]
pub struct Options {
    /// How long a bot waits before it plays (so that people can follow); 0 in tests.
    pub bot_delay: Duration,
    /// Longest client message read, in bytes; a longer one gets a `too_large` error.
    pub max_message_bytes: usize,
    /// Messages a seat may send at once (over all its connections) before it is rate limited.
    pub messages_burst: u32,
    /// Messages a seat may send each second, in the long run.
    pub messages_per_second: u32,
    /// Messages one client address may send at once (over all its seats and connections).
    pub address_messages_burst: u32,
    /// Messages one client address may send each second, in the long run.
    pub address_messages_per_second: u32,
    /// Live connections of one seat; a newer one replaces the oldest.
    pub connections_per_seat: usize,
    /// API requests (`/api/…`) one client address may make at once.
    pub requests_burst: u32,
    /// API requests one client address may make each second, in the long run.
    pub requests_per_second: u32,
    /// Requests for the interface's files (the page, its scripts, `protocol.md`) one client
    /// address may make at once: a page load takes about twenty-five, and several people
    /// behind one address (a home, a school) open the page together.
    pub file_requests_burst: u32,
    /// Requests for the interface's files one client address may make each second.
    pub file_requests_per_second: u32,
    /// Games one client address may create at once.
    pub creations_burst: u32,
    /// Games one client address may create each minute, in the long run.
    pub creations_per_minute: u32,
    /// Seats of unfinished games one client address may hold.
    pub seats_per_address: usize,
    /// Unfinished games of bots alone (no person's seat) one client address may have made: such
    /// a game plays on with nobody to wait for, and each keeps its bots thinking.
    pub bot_games_per_address: usize,
    /// How long a human seat stays open for somebody to join it.
    pub open_seat_ttl: Duration,
    /// Connections at once, in all (WebSockets included).
    pub max_connections: usize,
    /// Connections at once from one client address.
    pub max_connections_per_address: usize,
    /// What one client address is for every limit per address: an IPv4 address, or an IPv6
    /// network of this many leading bits (64, a subscriber's network: its owner may use any
    /// address in it). 128 counts each IPv6 address apart; 56 or 48, a provider's larger grants.
    pub ipv6_prefix: u8,
    /// Longest wait for a request's head.
    pub header_timeout: Duration,
    /// Longest wait for a request's body.
    pub body_timeout: Duration,
    /// Longest request body, in bytes.
    pub max_body_bytes: usize,
    /// Longest record a player may upload to replay it (`POST /api/replay`), in bytes.
    pub max_record_bytes: usize,
    /// How often a WebSocket is pinged.
    pub ws_ping_interval: Duration,
    /// A WebSocket from which nothing (not even a pong) arrives for this long is closed, and so
    /// is any connection to which nothing can be written for this long (a client that does not
    /// read its answers or its views).
    pub ws_idle_timeout: Duration,
    /// Views to a spectator, or to a seat that is not to move, go at most this often: a quick
    /// run of actions reaches those who watch it as one view with every log line. A view that
    /// gives a seat the move, or ends the game, goes at once.
    pub watch_interval: Duration,
    /// A game nobody is connected to, waiting for a person (or over), leaves memory after this
    /// long; it comes back from the store, unchanged, when somebody asks for it.
    pub idle_game_ttl: Duration,
    /// Bot decisions computed at once (the rest wait their turn): keep some cores for people.
    pub bot_threads: usize,
    /// The largest search budget a client may give a bot (`ismcts:<n>`).
    pub max_bot_iterations: u32,
    /// Whether a client may choose the seed of a game with more than one human seat. Never on a
    /// public server: whoever knows the seed knows every hand. For tests and experiments.
    pub allow_chosen_seeds: bool,
    /// Behind a reverse proxy: the header that carries the client's address (such as
    /// `X-Forwarded-For`, whose last address is taken: the one the proxy added, where those before
    /// it are the client's to write). Trust it only behind a proxy that sets it.
    pub client_address_header: Option<String>,
    /// Serve the browser interface from this folder instead of the copy built into the
    /// binary (to work on the interface without rebuilding).
    pub web_dir: Option<std::path::PathBuf>,
    /// Serve over TLS with these settings ([`tls::config`] reads them from PEM files).
    pub tls: Option<Arc<rustls::ServerConfig>>,
    /// The language of the lines the server writes to its error output for whoever runs it
    /// (a game that no longer replays, a store that refuses a write).
    pub log_lang: Lang,
}

impl Default for Options {
    fn default() -> Self {
        let cores = cores();
        Options {
            bot_delay: Duration::from_millis(400),
            max_message_bytes: 4096,
            messages_burst: 20,
            messages_per_second: 10,
            address_messages_burst: 60,
            address_messages_per_second: 30,
            connections_per_seat: 3,
            requests_burst: 120,
            requests_per_second: 20,
            file_requests_burst: 600,
            file_requests_per_second: 100,
            creations_burst: 10,
            creations_per_minute: 10,
            seats_per_address: 12,
            bot_games_per_address: 4,
            open_seat_ttl: Duration::from_secs(2 * 3600),
            max_connections: 4096,
            max_connections_per_address: 64,
            ipv6_prefix: 64,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            max_body_bytes: 16 * 1024,
            max_record_bytes: 1024 * 1024,
            ws_ping_interval: Duration::from_secs(20),
            ws_idle_timeout: Duration::from_secs(60),
            watch_interval: Duration::from_millis(250),
            idle_game_ttl: Duration::from_secs(120),
            bot_threads: cores.saturating_sub(1).max(1),
            max_bot_iterations: games::MAX_BOT_ITERATIONS,
            allow_chosen_seeds: false,
            client_address_header: None,
            web_dir: None,
            tls: None,
            log_lang: Lang::En,
        }
    }
}

/// Why the server could not start or stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The network failed.
    #[error("network: {0}")]
    Io(#[from] std::io::Error),
    /// The store failed.
    #[error("store: {0}")]
    Store(#[from] StoreError),
}

fn shutting_down() -> ApiError {
    ApiError::new(ErrorCode::ShuttingDown, "the server is shutting down")
}

/// What every request handler shares: the store, the live games, the options, the limits.
pub struct AppState<S: Store> {
    inner: Arc<Inner<S>>,
}

impl<S: Store> Clone for AppState<S> {
    fn clone(&self) -> Self {
        AppState {
            inner: Arc::clone(&self.inner),
        }
    }
}

struct Inner<S> {
    options: Options,
    /// What every game's actor shares.
    context: actor::Context<S>,
    /// The live games. Locked only to look and to insert: a game is loaded outside the lock,
    /// and of two actors prepared for one game only the first inserted runs.
    games: tokio::sync::Mutex<HashMap<GameId, GameHandle>>,
    actors: Mutex<Vec<JoinHandle<()>>>,
    shutdown: watch::Sender<bool>,
    limiters: limits::Limiters,
    caps: Arc<listen::Caps>,
    /// Replays computed at once (a record's pages, a campaign rebuilt from its games), as many
    /// as bot decisions: the rest wait their turn, and the games keep their share of the cores.
    replays: Arc<tokio::sync::Semaphore>,
}

impl<S: Store> AppState<S> {
    /// A server's state over a store; no game is loaded yet.
    pub fn new(store: S, options: Options) -> AppState<S> {
        let shutdown = watch::Sender::new(false);
        let store = Arc::new(store);
        let context = actor::Context {
            writer: writer::Writer::start(Arc::clone(&store)),
            store,
            bot_delay: options.bot_delay,
            open_seat_ttl: options.open_seat_ttl,
            shutdown: shutdown.subscribe(),
            stop_searches: Arc::new(AtomicBool::new(false)),
            bots: actor::BotQueue::new(options.bot_threads),
            log_lang: options.log_lang,
        };
        AppState {
            inner: Arc::new(Inner {
                limiters: limits::Limiters::new(&options),
                replays: Arc::new(tokio::sync::Semaphore::new(options.bot_threads.max(1))),
                caps: listen::Caps::new(
                    options.max_connections,
                    options.max_connections_per_address,
                    options.ipv6_prefix,
                ),
                options,
                context,
                games: tokio::sync::Mutex::new(HashMap::new()),
                actors: Mutex::new(Vec::new()),
                shutdown,
            }),
        }
    }

    /// The store.
    pub fn store(&self) -> &S {
        &self.inner.context.store
    }

    /// The HTTP and WebSocket routes.
    pub fn router(self) -> axum::Router {
        api::router(self)
    }

    /// Rebuilds every game of the store still to be played and starts it (its bots play on;
    /// games that wait for a person leave memory again once idle), the games that can never
    /// start retired first, and counts again the seats each client holds and the games of bots
    /// alone each made. A game whose record
    /// does not replay is reported and skipped. Returns how many started.
    pub async fn resume_unfinished(&self) -> Result<usize, StoreError> {
        let store = Arc::clone(&self.inner.context.store);
        let ttl = self.inner.options.open_seat_ttl;
        let (games, holdings, made) = actor::blocking(move || {
            store.retire_expired(ttl)?;
            store.forget_holders(HELD_FOR)?;
            // The seats of campaigns over no longer count: who held them is forgotten.
            let mut holdings = store.holdings()?;
            let over: Vec<store::CampaignId> = holdings
                .iter()
                .filter_map(|h| match h.seat {
                    store::HeldSeat::Campaign(c, _) => Some(c),
                    store::HeldSeat::Game(..) => None,
                })
                .filter(|&c| campaigns::is_over(&*store, c))
                .collect();
            for &c in &over {
                store.forget_campaign_holders(c)?;
            }
            holdings.retain(
                |h| !matches!(h.seat, store::HeldSeat::Campaign(c, _) if over.contains(&c)),
            );
            Ok::<_, StoreError>((store.list_unfinished()?, holdings, store.made_games()?))
        })
        .await?;
        // The seats each client held before, counted again against it.
        let prefix = self.inner.options.ipv6_prefix;
        let client = |text: &str| {
            let address = text.parse::<std::net::IpAddr>().ok();
            address.map(|a| limits::client_of(a, prefix))
        };
        for holding in holdings {
            if let Some(client) = client(&holding.holder) {
                self.inner.limiters.restore(client, holding.seat);
            }
        }
        let mut started = 0;
        let mut damaged = Vec::new();
        for game in games {
            match self.game(game.id).await {
                Ok(_) => started += 1,
                Err(e) => {
                    damaged.push(game.id);
                    log(
                        self.inner.context.log_lang,
                        "serve.log.resume",
                        &[("id", &game.id), ("error", &e)],
                    )
                }
            }
        }
        // And the games of bots alone each client made that go on (not one whose record no
        // longer replays: it never will).
        for game in made.into_iter().filter(|g| !damaged.contains(&g.id)) {
            if let Some(client) = client(&game.maker) {
                self.inner.limiters.restore_bot_game(client, game.id);
            }
        }
        Ok(started)
    }

    /// The live game `id`, loaded from the store and started if needed.
    ///
    /// The list of live games is locked only to look and to insert: loading and replaying a
    /// game happen outside it, so that a crowd arriving at once is not served one by one. If
    /// two requests load the same game at once, the first to insert wins and the other's
    /// actor, never started, is dropped.
    pub(crate) async fn game(&self, id: GameId) -> Result<GameHandle, ApiError> {
        if let Some(handle) = self.live(id).await {
            return Ok(handle);
        }
        if *self.inner.shutdown.borrow() {
            return Err(shutting_down());
        }
        let context = self.inner.context.clone();
        let prepared = actor::blocking(move || {
            let stored = context.store.load(id)?;
            Ok::<_, StoreError>(actor::prepare(stored, context))
        })
        .await?;
        let (handle, ready) = prepared.map_err(|e| {
            // The details (which action, which card) stay in the server's log: a face-down
            // card's name must not reach a spectator.
            log(
                self.inner.context.log_lang,
                "serve.log.rebuild",
                &[("id", &id), ("error", &e)],
            );
            ApiError::new(
                ErrorCode::DamagedGame,
                format!("game {id} is damaged: its stored record no longer replays"),
            )
        })?;
        let mut games = self.inner.games.lock().await;
        if let Some(live) = games.get(&id)
            && live.is_alive()
        {
            return Ok(live.clone());
        }
        if *self.inner.shutdown.borrow() {
            return Err(shutting_down());
        }
        self.inner
            .actors
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(tokio::spawn(ready));
        games.insert(id, handle.clone());
        Ok(handle)
    }

    /// The live game `id`, if it is in memory.
    async fn live(&self, id: GameId) -> Option<GameHandle> {
        let games = self.inner.games.lock().await;
        games.get(&id).filter(|h| h.is_alive()).cloned()
    }

    /// Live games in memory.
    pub async fn live_games(&self) -> usize {
        self.inner.games.lock().await.len()
    }

    /// Lets idle games leave memory (they come back from the store on demand), retires the
    /// games whose open seats expired (they can never start: out of the lobby, and not
    /// resumed at the next start), and forgets the rate allowances of clients gone quiet.
    pub async fn tidy(&self) {
        let store = Arc::clone(&self.inner.context.store);
        let ttl = self.inner.options.open_seat_ttl;
        let bot_games = self.inner.limiters.all_bot_games();
        let retired = actor::blocking(move || {
            store.retire_expired(ttl)?;
            store.forget_holders(HELD_FOR)?;
            // The games of bots over no longer count: memory follows those that still do.
            Ok::<_, StoreError>(
                bot_games
                    .into_iter()
                    .filter(|&g| store.summary(g).is_ok_and(|s| api::counts_no_more(&s)))
                    .collect::<Vec<_>>(),
            )
        });
        match retired.await {
            Ok(over) => self.inner.limiters.forget_bot_games(&over),
            Err(e) => log(
                self.inner.context.log_lang,
                "serve.log.retire",
                &[("error", &e)],
            ),
        }
        let ttl = self.inner.options.idle_game_ttl;
        // Dropping the list's handle of a game nobody else holds ends its actor.
        self.inner
            .games
            .lock()
            .await
            .retain(|_, handle| handle.is_alive() && !handle.is_idle(ttl));
        self.inner
            .actors
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|task| !task.is_finished());
        self.inner.limiters.prune();
    }

    /// Tells every game and connection to stop, and every bot's search to end.
    pub fn begin_shutdown(&self) {
        self.inner
            .context
            .stop_searches
            .store(true, Ordering::Relaxed);
        self.inner.context.bots.close();
        self.inner.shutdown.send_replace(true);
    }

    /// Waits until every game's actor has stopped (after [`AppState::begin_shutdown`]): no
    /// store write happens after this returns.
    pub async fn stopped(&self) {
        let tasks =
            std::mem::take(&mut *self.inner.actors.lock().unwrap_or_else(|e| e.into_inner()));
        for task in tasks {
            let _ = task.await;
        }
    }

    fn shutdown_signal(&self) -> watch::Receiver<bool> {
        self.inner.shutdown.subscribe()
    }

    fn limits(&self) -> socket::Limits {
        let o = &self.inner.options;
        socket::Limits {
            max_message: o.max_message_bytes,
            ping_interval: o.ws_ping_interval,
            idle_timeout: o.ws_idle_timeout,
            watch_interval: o.watch_interval,
        }
    }
}

/// The runtime to serve on: tokio's current-thread scheduler on a single core, its
/// multi-threaded one (a worker a core) on more.
///
/// On one core the multi-threaded scheduler has one worker anyway, and it runs the task just
/// woken before those waiting (its "LIFO slot"): under load, an action could overtake hundreds
/// queued before it, and its neighbour wait twice as long. The current-thread scheduler runs
/// tasks in the order they were woken, which keeps the slowest acknowledgements near the
/// typical ones (docs/benchmarks.md, "One core, one thread").
///
/// # Errors
/// The runtime cannot start (no thread, no descriptor left).
pub fn runtime() -> std::io::Result<tokio::runtime::Runtime> {
    runtime_for(cores())
}

/// The cores this process may use (its CPU affinity and quota), or 2 when the system cannot
/// tell: then the server keeps the multi-threaded scheduler, and bots one thread.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get)
}

/// [`runtime`] for `cores` cores.
fn runtime_for(cores: usize) -> std::io::Result<tokio::runtime::Runtime> {
    let mut builder = if cores <= 1 {
        tokio::runtime::Builder::new_current_thread()
    } else {
        tokio::runtime::Builder::new_multi_thread()
    };
    builder.enable_all().build()
}

/// How long a seat counts against the address that took it, at most, after its game or
/// campaign was made: a game its person abandoned (a bot to face, nobody to leave it for, its
/// token lost) would otherwise count for good; the store forgets who held it then too.
pub const HELD_FOR: Duration = Duration::from_secs(3 * 24 * 3600);

/// Connections the kernel holds for the server before it takes them: a burst of clients (a
/// crowd arriving at once) must not overflow the usual 128, which drops connection attempts
/// that clients then resend a second later.
const BACKLOG: u32 = 4096;

/// Listens on `addr` (`HOST:PORT`, port 0 for any free one) with room for a burst of
/// connections.
///
/// # Errors
/// The address does not resolve, or is taken.
pub async fn bind(addr: &str) -> std::io::Result<TcpListener> {
    let mut last = None;
    for resolved in tokio::net::lookup_host(addr).await? {
        let socket = if resolved.is_ipv4() {
            tokio::net::TcpSocket::new_v4()?
        } else {
            tokio::net::TcpSocket::new_v6()?
        };
        socket.set_reuseaddr(true)?;
        match socket.bind(resolved).and_then(|()| socket.listen(BACKLOG)) {
            Ok(listener) => return Ok(listener),
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or_else(|| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{addr} names no address"),
        )
    }))
}

/// Serves `store`'s games on `listener` until `shutdown` resolves: resumes every unfinished
/// game, serves, then closes every connection (close code 1001), ends the bots' searches and
/// waits for every game to stop. Bind the listener to port 0 in tests.
pub async fn launch<S: Store>(
    listener: TcpListener,
    store: S,
    options: Options,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServerError> {
    AppState::new(store, options)
        .serve(listener, shutdown)
        .await
}

impl<S: Store> AppState<S> {
    /// What [`launch`] does, with a state the caller keeps a handle of (to look at its live
    /// games and connections).
    pub async fn serve(
        self,
        listener: TcpListener,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServerError> {
        let state = self;
        // Room for every connection allowed, made now rather than while games are played
        // (see `reserve_descriptors`); without it the server only runs slower at times.
        #[cfg(unix)]
        let _ = listen::reserve_descriptors(&listener, state.inner.options.max_connections);
        state.resume_unfinished().await?;
        let stopping = state.clone();
        let signal = tokio::spawn(async move {
            shutdown.await;
            stopping.begin_shutdown();
        });
        let tidying = state.clone();
        let tidy = tokio::spawn(async move {
            let every = (tidying.inner.options.idle_game_ttl / 4)
                .clamp(Duration::from_millis(100), Duration::from_secs(30));
            let mut ticks = tokio::time::interval(every);
            ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                ticks.tick().await;
                tidying.tidy().await;
            }
        });
        let settings = listen::Settings {
            header_timeout: state.inner.options.header_timeout,
            write_timeout: state.inner.options.ws_idle_timeout,
            tls: state
                .inner
                .options
                .tls
                .clone()
                .map(tokio_rustls::TlsAcceptor::from),
            log_lang: state.inner.options.log_lang,
        };
        listen::serve(
            listener,
            state.clone().router(),
            Arc::clone(&state.inner.caps),
            settings,
            state.shutdown_signal(),
        )
        .await;
        signal.abort();
        tidy.abort();
        state.begin_shutdown();
        state.stopped().await;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::runtime::RuntimeFlavor;

    #[test]
    fn one_core_serves_on_one_thread_in_order_more_cores_on_a_worker_each() {
        let flavor = |cores| runtime_for(cores).unwrap().handle().runtime_flavor();
        assert_eq!(flavor(1), RuntimeFlavor::CurrentThread);
        assert_eq!(flavor(2), RuntimeFlavor::MultiThread);
        assert_eq!(flavor(8), RuntimeFlavor::MultiThread);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn replays_wait_their_turn() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let options = Options {
            bot_threads: 2,
            ..Options::default()
        };
        let state = AppState::new(store::SqliteStore::open(":memory:").unwrap(), options);
        let (running, most) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let replays: Vec<_> = (0..8u8)
            .map(|i| {
                let (state, running, most) = (state.clone(), running.clone(), most.clone());
                // Four addresses, two replays each.
                let address = std::net::IpAddr::from([192, 0, 2, i % 4]);
                tokio::spawn(async move {
                    api::replaying(&state, address, move || {
                        let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(now, Ordering::SeqCst);
                        std::thread::sleep(Duration::from_millis(30));
                        running.fetch_sub(1, Ordering::SeqCst);
                    })
                    .await
                })
            })
            .collect();
        for replay in replays {
            replay.await.unwrap().unwrap();
        }
        // Eight replays, two at a time: as many as bot decisions.
        assert_eq!(most.load(Ordering::SeqCst), 2);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_tidying_forgets_the_games_of_bots_that_count_no_more() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.sqlite");
        let store = store::SqliteStore::open(&path).unwrap();
        let mut record = game::GameRecord::new::<starrealms::State>(&Default::default(), 4);
        record.players = vec!["random".into(), "random".into()];
        let [stuck, over, going] = [0; 3].map(|_| store.create(&record, false).unwrap());
        store.finish(over, &[game::Seat(0)]).unwrap();
        let state = AppState::new(store, Options::default());
        let address = std::net::IpAddr::from([192, 0, 2, 1]);
        for game in [stuck, over, going] {
            state.inner.limiters.restore_bot_game(address, game);
        }
        // Made longer ago than such a game counts: its bots stopped, say.
        rusqlite::Connection::open(&path)
            .unwrap()
            .execute(
                "UPDATE games SET created_at = '2000-01-01T00:00:00Z' WHERE id = ?1",
                [stuck.0],
            )
            .unwrap();
        state.tidy().await;
        assert_eq!(state.inner.limiters.bot_games(address), [going]);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_address_has_a_few_replays_in_line_at_most() {
        let options = Options {
            bot_threads: 1,
            ..Options::default()
        };
        let state = AppState::new(store::SqliteStore::open(":memory:").unwrap(), options);
        let (one, other) = (
            std::net::IpAddr::from([192, 0, 2, 1]),
            std::net::IpAddr::from([192, 0, 2, 2]),
        );
        // The address's replays hold the line until told to end.
        let (end, ended) = std::sync::mpsc::channel::<()>();
        let ended = Arc::new(std::sync::Mutex::new(ended));
        let held: Vec<_> = (0..limits::REPLAYS_PER_ADDRESS)
            .map(|_| {
                let (state, ended) = (state.clone(), Arc::clone(&ended));
                tokio::spawn(async move {
                    api::replaying(&state, one, move || {
                        ended.lock().unwrap().recv().unwrap();
                    })
                    .await
                })
            })
            .collect();
        // Until all four are in line or running (the first one runs).
        while state.inner.limiters.replays(one) < limits::REPLAYS_PER_ADDRESS {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        // Its next one is refused at once, in words; another address's waits in line.
        let refused = api::replaying(&state, one, || ()).await.unwrap_err();
        assert_eq!(refused.code, ErrorCode::RateLimited);
        assert!(
            refused.message.contains("your address has 4 replays"),
            "{}",
            refused.message
        );
        let waiting = tokio::spawn({
            let state = state.clone();
            async move { api::replaying(&state, other, || 7).await }
        });
        for _ in 0..limits::REPLAYS_PER_ADDRESS {
            end.send(()).unwrap();
        }
        for replay in held {
            replay.await.unwrap().unwrap();
        }
        assert_eq!(waiting.await.unwrap().unwrap(), 7);
        // Its places given back: it may replay again.
        assert_eq!(api::replaying(&state, one, || 1).await.unwrap(), 1);
    }
}
