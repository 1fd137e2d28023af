//! What the server's stack costs alone: a WebSocket server on the same libraries and runtime
//! as `realms serve` (tokio, hyper, axum's WebSockets, no game and no store) that answers each
//! client message with a frame the size of a view, and clients that send a message as soon as
//! the answer to their last one comes. Set beside the `load` example, it tells how much of an
//! action's cost is the stack's (the runtime, the WebSocket layer, the kernel's TCP on both
//! ends of the loopback) and how much the game's, the store's and the views'.
//!
//! ```sh
//! cargo build --release -p server --example floor
//! taskset -c 0 target/release/examples/floor --serve 127.0.0.1:9100 &
//! taskset -c 1 target/release/examples/floor --addr 127.0.0.1:9100 --connections 500 --busy
//! kill %1
//! ```
//!
//! Options of the clients: `--connections N` (500), each with one message in flight at a time;
//! `--exchanges N` (315, the load's actions a game) per connection; `--bytes N` (2,900, a view's
//! median size in the load) the size of each answer; `--busy`, the clients' runtime never
//! sleeping (as the load's `--busy`). The latency of an exchange runs from sending the message
//! to receiving its answer. The server's option `--hop` has each answer written by a task of
//! its own, reached through a queue and answering through a reply channel: what such a trip
//! between tasks costs an exchange.

use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::{Message as ServerMessage, WebSocket, WebSocketUpgrade};
use axum::serve::ListenerExt as _;
use futures_util::{SinkExt as _, StreamExt as _};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

const USAGE: &str = "usage: floor --serve ADDR [--bytes N] [--hop]\n       \
                     floor --addr ADDR [--connections N] [--exchanges N] [--busy]";

/// What a client sends: an `act` message of the protocol's size.
const ASK: &str =
    r#"{"type":"act","id":17,"version":142,"action":"play 3","client_id":"c-000142"}"#;

fn main() -> ExitCode {
    match run(std::env::args().skip(1).collect()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("floor: {e}\n{USAGE}");
            ExitCode::FAILURE
        }
    }
}

/// The command line.
struct Options {
    serve: Option<SocketAddr>,
    addr: Option<SocketAddr>,
    connections: usize,
    exchanges: usize,
    bytes: usize,
    busy: bool,
    hop: bool,
}

fn run(args: Vec<String>) -> Result<(), String> {
    let mut o = Options {
        serve: None,
        addr: None,
        connections: 500,
        exchanges: 315,
        bytes: 2_900,
        busy: false,
        hop: false,
    };
    // The options given, to refuse a server's option to the clients and the other way round.
    let (mut server_only, mut clients_only) = (None, None);
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--bytes" | "--hop" => server_only = Some(arg.clone()),
            "--connections" | "--exchanges" | "--busy" => clients_only = Some(arg.clone()),
            _ => {}
        }
        let mut value = || args.next().ok_or_else(|| format!("`{arg}` needs a value"));
        match arg.as_str() {
            "--serve" => o.serve = Some(address(&value()?)?),
            "--addr" => o.addr = Some(address(&value()?)?),
            "--connections" => o.connections = number(&arg, &value()?)?,
            "--exchanges" => o.exchanges = number(&arg, &value()?)?,
            "--bytes" => o.bytes = number(&arg, &value()?)?,
            "--busy" => o.busy = true,
            "--hop" => o.hop = true,
            _ => return Err(format!("unknown option `{arg}`")),
        }
    }
    match (&server_only, &clients_only, o.serve, o.addr) {
        (Some(option), _, None, Some(_)) => {
            return Err(format!(
                "`{option}` is the server's: give it with `--serve`"
            ));
        }
        (_, Some(option), Some(_), None) => {
            return Err(format!("`{option}` is the clients': give it with `--addr`"));
        }
        _ => {}
    }
    match (o.serve, o.addr) {
        (Some(addr), None) => serve(addr, o.bytes, o.hop),
        (None, Some(addr)) if o.connections > 0 && o.exchanges > 0 => clients(addr, &o),
        (None, Some(_)) => Err("`--connections` and `--exchanges` must be at least 1".into()),
        _ => Err("give either `--serve ADDR` or `--addr ADDR`".into()),
    }
}

fn address(text: &str) -> Result<SocketAddr, String> {
    text.parse()
        .map_err(|_| format!("`{text}` is not an address such as 127.0.0.1:9100"))
}

fn number(option: &str, text: &str) -> Result<usize, String> {
    text.parse()
        .map_err(|_| format!("`{option}` takes a whole number, not `{text}`"))
}

/// Serves `/ws` on `addr` on the server's runtime until Ctrl-C: each message is answered with
/// `bytes` bytes of text, written afresh for each answer as a view is.
fn serve(addr: SocketAddr, bytes: usize, hop: bool) -> Result<(), String> {
    let runtime = server::runtime().map_err(|e| format!("cannot start the runtime: {e}"))?;
    runtime.block_on(async move {
        let listener = server::bind(&addr.to_string())
            .await
            .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        let answer: Arc<str> = "x".repeat(bytes).into();
        let app = axum::Router::new().route(
            "/ws",
            axum::routing::get(move |upgrade: WebSocketUpgrade| {
                let answer = Arc::clone(&answer);
                async move {
                    upgrade
                        .read_buffer_size(1024)
                        .on_upgrade(move |ws| echo(ws, answer, hop))
                }
            }),
        );
        let listener = listener.tap_io(|tcp| {
            let _ = tcp.set_nodelay(true);
        });
        axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
            .map_err(|e| format!("serving: {e}"))
    })
}

/// Answers every message of `ws` with a copy of `answer`, written by a task of its own (as a
/// game's actor answers its seats) when `hop`.
async fn echo(mut ws: WebSocket, answer: Arc<str>, hop: bool) {
    let actor = hop.then(|| {
        let (asks, mut queue) =
            tokio::sync::mpsc::channel::<tokio::sync::oneshot::Sender<String>>(8);
        let answer = Arc::clone(&answer);
        tokio::spawn(async move {
            while let Some(reply) = queue.recv().await {
                let mut text = String::with_capacity(answer.len());
                text.push_str(&answer);
                let _ = reply.send(text);
            }
        });
        asks
    });
    while let Some(Ok(message)) = ws.next().await {
        if let ServerMessage::Text(_) = message {
            let text = match &actor {
                Some(asks) => {
                    let (reply, answered) = tokio::sync::oneshot::channel();
                    if asks.send(reply).await.is_err() {
                        return;
                    }
                    match answered.await {
                        Ok(text) => text,
                        Err(_) => return,
                    }
                }
                None => {
                    let mut text = String::with_capacity(answer.len());
                    text.push_str(&answer);
                    text
                }
            };
            if ws.send(ServerMessage::Text(text.into())).await.is_err() {
                return;
            }
        }
    }
}

/// Opens the connections, then has each send its messages, one in flight at a time, and prints
/// the figures.
fn clients(addr: SocketAddr, o: &Options) -> Result<(), String> {
    let runtime = if o.busy {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
    } else {
        tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
    }
    .map_err(|e| format!("cannot start the runtime: {e}"))?;
    let (connections, exchanges, busy) = (o.connections, o.exchanges, o.busy);
    runtime.block_on(async move {
        if busy {
            // Never waiting on an empty run queue, the thread polls for I/O without sleeping.
            tokio::spawn(async {
                loop {
                    tokio::task::yield_now().await;
                }
            });
        }
        let config = WebSocketConfig::default().read_buffer_size(4 * 1024);
        let url = format!("ws://{addr}/ws");
        let mut sockets = Vec::with_capacity(connections);
        for _ in 0..connections {
            let (ws, _) =
                tokio_tungstenite::connect_async_with_config(url.as_str(), Some(config), true)
                    .await
                    .map_err(|e| format!("cannot open a WebSocket to {url}: {e}"))?;
            sockets.push(ws);
        }
        let start = Instant::now();
        let tasks: Vec<_> = sockets
            .into_iter()
            .map(|mut ws| {
                tokio::spawn(async move {
                    let mut latencies = Vec::with_capacity(exchanges);
                    for _ in 0..exchanges {
                        let sent = Instant::now();
                        ws.send(Message::text(ASK))
                            .await
                            .map_err(|e| format!("sending: {e}"))?;
                        loop {
                            match ws.next().await {
                                Some(Ok(Message::Text(_))) => break,
                                Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
                                Some(Ok(_)) => return Err("an answer that is not text".into()),
                                Some(Err(e)) => return Err(format!("receiving: {e}")),
                                None => return Err("the server closed the connection".into()),
                            }
                        }
                        latencies.push(sent.elapsed());
                    }
                    Ok::<_, String>(latencies)
                })
            })
            .collect();
        let mut all: Vec<Duration> = Vec::with_capacity(connections * exchanges);
        for task in tasks {
            all.extend(task.await.map_err(|e| format!("a client failed: {e}"))??);
        }
        let wall = start.elapsed();
        all.sort_unstable();
        let at = |q: f64| {
            let rank = ((q * all.len() as f64).ceil() as usize).clamp(1, all.len());
            all[rank - 1].as_secs_f64() * 1e3
        };
        println!(
            "{} exchanges over {connections} connections in {:.2} s: {:.0} a second; \
             latency p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            all.len(),
            wall.as_secs_f64(),
            all.len() as f64 / wall.as_secs_f64(),
            at(0.5),
            at(0.9),
            at(0.99),
            at(1.0),
        );
        Ok(())
    })
}
