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
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::serve::ListenerExt as _;
use store::{GameId, Store, StoreError};
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinHandle;

mod actor;
mod api;
pub mod games;
pub mod protocol;
mod socket;
mod web;

use actor::GameHandle;
pub use games::{CreateGame, GameKind};
pub use protocol::{ApiError, ClientMessage, ErrorCode, LogLine, ServerMessage};

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Options {
    /// How long a bot waits before it plays (so that people can follow); 0 in tests.
    pub bot_delay: Duration,
    /// Longest client message read, in bytes; a longer one gets a `too_large` error.
    pub max_message_bytes: usize,
    /// Messages a connection may send at once before it is rate limited.
    pub messages_burst: u32,
    /// Messages a connection may send each second, in the long run.
    pub messages_per_second: u32,
    /// Serve the browser interface from this folder instead of the copy built into the
    /// binary (to work on the interface without rebuilding).
    pub web_dir: Option<std::path::PathBuf>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            bot_delay: Duration::from_millis(400),
            max_message_bytes: 4096,
            messages_burst: 20,
            messages_per_second: 10,
            web_dir: None,
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

/// What every request handler shares: the store, the live games, the options.
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
    store: Arc<S>,
    options: Options,
    /// The live games. A tokio mutex: it is held while a game is loaded, so that one game
    /// never gets two actors.
    games: tokio::sync::Mutex<HashMap<GameId, GameHandle>>,
    actors: Mutex<Vec<JoinHandle<()>>>,
    shutdown: watch::Sender<bool>,
}

impl<S: Store> AppState<S> {
    /// A server's state over a store; no game is loaded yet.
    pub fn new(store: S, options: Options) -> AppState<S> {
        AppState {
            inner: Arc::new(Inner {
                store: Arc::new(store),
                options,
                games: tokio::sync::Mutex::new(HashMap::new()),
                actors: Mutex::new(Vec::new()),
                shutdown: watch::Sender::new(false),
            }),
        }
    }

    /// The store.
    pub fn store(&self) -> &S {
        &self.inner.store
    }

    /// The HTTP and WebSocket routes.
    pub fn router(self) -> axum::Router {
        api::router(self)
    }

    /// Rebuilds every unfinished game of the store and starts it (its bots play on). A game
    /// whose record does not replay is reported and skipped. Returns how many started.
    pub async fn resume_unfinished(&self) -> Result<usize, StoreError> {
        let store = Arc::clone(&self.inner.store);
        let games = actor::blocking(move || store.list_unfinished()).await?;
        let mut started = 0;
        for game in games {
            match self.game(game.id).await {
                Ok(_) => started += 1,
                Err(e) => eprintln!("game {} cannot be resumed: {e}", game.id),
            }
        }
        Ok(started)
    }

    /// The live game `id`, loaded from the store and started if needed.
    pub(crate) async fn game(&self, id: GameId) -> Result<GameHandle, ApiError> {
        let mut games = self.inner.games.lock().await;
        if let Some(handle) = games.get(&id)
            && handle.is_alive()
        {
            return Ok(handle.clone());
        }
        if *self.inner.shutdown.borrow() {
            return Err(ApiError::new(
                ErrorCode::ShuttingDown,
                "the server is shutting down",
            ));
        }
        let store = Arc::clone(&self.inner.store);
        let stored = actor::blocking(move || store.load(id)).await?;
        let (handle, task) = actor::start(
            stored,
            Arc::clone(&self.inner.store),
            self.inner.options.bot_delay,
            self.inner.shutdown.subscribe(),
        )
        .map_err(|e| ApiError::new(ErrorCode::Internal, format!("game {id}: {e}")))?;
        self.inner
            .actors
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(task);
        games.insert(id, handle.clone());
        Ok(handle)
    }

    /// Tells every game and connection to stop.
    pub fn begin_shutdown(&self) {
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
            burst: o.messages_burst,
            per_second: o.messages_per_second,
        }
    }
}

/// Serves `store`'s games on `listener` until `shutdown` resolves: resumes every unfinished
/// game, serves, then closes every connection (close code 1001) and waits for every game to
/// stop. Bind the listener to port 0 in tests.
pub async fn launch<S: Store>(
    listener: TcpListener,
    store: S,
    options: Options,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServerError> {
    let state = AppState::new(store, options);
    state.resume_unfinished().await?;
    let stopping = state.clone();
    // Views go out as soon as they are ready: without TCP_NODELAY, a view pushed to a seat
    // that did not just act waits for the peer's delayed acknowledgement (40 ms on Linux).
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    axum::serve(listener, state.clone().router())
        .with_graceful_shutdown(async move {
            shutdown.await;
            stopping.begin_shutdown();
        })
        .await?;
    state.begin_shutdown();
    state.stopped().await;
    Ok(())
}
