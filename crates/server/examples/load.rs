//! The server under load: N Star Realms games at once, both seats of each played by clients
//! over real WebSockets on loopback, against a server over a temporary SQLite file. Reports the
//! latency of each action (from sending `act` to receiving the view that acknowledges it), and
//! again over the actions sent once the first wave of games was all set up (the games at play,
//! without the crowd of their setup), actions/s and games/s, and the figures of the other cases
//! asked for. The code is shared with the `load` test.
//!
//! ```sh
//! cargo run --release -p server --example load -- --games 500
//! ```
//!
//! Options: `--games N` (100), `--concurrency N` (games at a time; default: all), `--seed N`
//! (1), `--json`, and beside the games:
//!
//! - `--stored-games N`: N unfinished games (two human seats, 0 to 11 actions each) written to
//!   the store before the server starts, which resumes them all; the lobby lists them.
//! - `--lobby-pollers N`, `--poll-ms MS` (200): N clients that poll the lobby (`GET /api/games`,
//!   the first page and every other time the next one) over plain HTTP, each every MS ms.
//! - `--idle-sockets N`: N spectators' WebSockets, opened before the games start on games
//!   nobody plays, idle until the games end (they answer the server's pings).
//! - `--bot-games N`, `--bot NAME` (`ismcts:2000`): N games of two server-side bots, without
//!   a think delay, kept going while the games are played.
//! - `--think-ms MS` (0): the clients think MS ms before each action, as people do (latency
//!   still runs from the `act` sent); by default they act the instant they may.
//! - `--views changes`: the seats ask for their views as changes (`views=changes`: after the
//!   first, a view holds only what changed), as a program that plays from the legal actions
//!   may; `--views full` (the default), every view whole.
//! - `--timeline MS`: the report also gives the latency of the actions sent in each MS ms of the
//!   run, window after window.
//! - `--busy` (with `--addr`): the clients keep their core awake, their runtime (one thread)
//!   never sleeping while it waits for the server's frames. On loopback, a frame sent to a sleeping client
//!   wakes the client's core from inside the server's `send`, at the server's cost (an
//!   interrupt between cores, dear in a virtual machine); over a network, the clients' machine
//!   pays for it. With `--busy` the server's core does only its own work.
//!
//! By default the server runs in this process, and clients and server share every core. To
//! give each its own core, run the server alone (`--serve ADDR`, with `--stored-games` and
//! `--seed` if wanted; it serves until Ctrl-C or SIGTERM) and the clients alone against it
//! (`--addr ADDR` with the other options; it waits until the server answers, since a server
//! resumes its stored games before it serves):
//!
//! ```sh
//! cargo build --release -p server --example load
//! taskset -c 0 target/release/examples/load --serve 127.0.0.1:9000 --stored-games 5000 &
//! taskset -c 1 target/release/examples/load --addr 127.0.0.1:9000 --games 500 \
//!     --lobby-pollers 4 --idle-sockets 500 --busy
//! kill %1
//! ```
//!
//! Start a new server for each run: the games a run leaves (its bot games go on playing) would
//! weigh on the next.

#[path = "../tests/load/harness.rs"]
mod harness;

use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::Duration;

const USAGE: &str = "usage: load [--games N] [--concurrency N] [--seed N] [--json] \
                     [--stored-games N] [--lobby-pollers N] [--poll-ms MS] [--idle-sockets N] \
                     [--bot-games N] [--bot NAME] [--think-ms MS] [--timeline MS] [--views full|changes] \
                     [--addr ADDR [--busy]]\n       \
                     load --serve ADDR [--stored-games N] [--seed N]";

/// What the command line asks for.
enum Mode {
    /// Run the clients (against a server in this process, or at [`harness::Config::server`]).
    Load(harness::Config, bool),
    /// Run only the server, on this address, with this many stored games and this seed.
    Serve(SocketAddr, usize, u64),
}

fn main() -> ExitCode {
    let mode = match parse(std::env::args().skip(1)) {
        Ok(mode) => mode,
        Err(e) => {
            eprintln!("{e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let (config, json) = match mode {
        Mode::Serve(addr, stored_games, seed) => {
            return match serve(addr, stored_games, seed) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::FAILURE
                }
            };
        }
        Mode::Load(config, json) => (config, json),
    };
    let report = match harness::run(&config) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    if json {
        println!("{:#}", report.json());
    } else {
        print!("{}", report.text());
    }
    if report.errors == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn parse(mut args: impl Iterator<Item = String>) -> Result<Mode, String> {
    let mut config = harness::Config {
        progress: true,
        ..harness::Config::default()
    };
    let mut concurrency = None;
    let mut json = false;
    let mut serve = None;
    // Options that only the clients take, to refuse them with `--serve`.
    let mut client_options = Vec::new();
    while let Some(arg) = args.next() {
        // The options without a value.
        let flag = match arg.as_str() {
            "--json" => Some(&mut json),
            "--busy" => Some(&mut config.busy),
            _ => None,
        };
        if let Some(flag) = flag {
            *flag = true;
            client_options.push(arg);
            continue;
        }
        let value = args
            .next()
            .ok_or_else(|| format!("`{arg}` needs a value"))?;
        let number = || {
            value
                .parse::<u64>()
                .map_err(|_| format!("`{arg}` takes a number, not `{value}`"))
        };
        let address = || {
            value
                .parse::<SocketAddr>()
                .map_err(|_| format!("`{arg}` takes an address (127.0.0.1:9000), not `{value}`"))
        };
        match arg.as_str() {
            "--seed" => config.seed = number()?,
            "--stored-games" => config.stored_games = number()? as usize,
            "--serve" => serve = Some(address()?),
            _ => {
                match arg.as_str() {
                    "--games" => config.games = number()? as usize,
                    "--concurrency" => concurrency = Some(number()? as usize),
                    "--lobby-pollers" => config.lobby_pollers = number()? as usize,
                    "--poll-ms" => config.poll_interval = Duration::from_millis(number()?),
                    "--think-ms" => config.think = Duration::from_millis(number()?),
                    "--timeline" => match number()? {
                        0 => return Err("`--timeline` takes a window of 1 ms or more".into()),
                        ms => config.timeline = Some(Duration::from_millis(ms)),
                    },
                    "--idle-sockets" => config.idle_sockets = number()? as usize,
                    "--bot-games" => config.bot_games = number()? as usize,
                    "--bot" => config.bot = value.clone(),
                    "--addr" => config.server = Some(address()?),
                    "--views" => {
                        config.changes = match value.as_str() {
                            "full" => false,
                            "changes" => true,
                            _ => {
                                return Err(format!(
                                    "`--views` takes `full` or `changes`, not `{value}`"
                                ));
                            }
                        }
                    }
                    _ => return Err(format!("unknown option `{arg}`")),
                }
                client_options.push(arg);
            }
        }
    }
    if let Some(addr) = serve {
        if let Some(option) = client_options.first() {
            return Err(format!("`{option}` is for the clients, not for `--serve`"));
        }
        return Ok(Mode::Serve(addr, config.stored_games, config.seed));
    }
    if config.busy && config.server.is_none() {
        return Err(
            "`--busy` keeps the clients' core awake, which only the clients of a server \
                    on other cores should do: give the server's `--addr`"
                .into(),
        );
    }
    if config.server.is_some() && config.stored_games > 0 {
        return Err("the stored games are the server's: give `--stored-games` to `--serve`".into());
    }
    config.concurrency = concurrency.unwrap_or(config.games).max(1);
    Ok(Mode::Load(config, json))
}

/// Runs only the server, on the runtime `realms serve` uses, with the options the clients need,
/// until Ctrl-C or SIGTERM.
fn serve(addr: SocketAddr, stored_games: usize, seed: u64) -> Result<(), String> {
    let runtime = server::runtime().map_err(|e| format!("cannot start the runtime: {e}"))?;
    runtime.block_on(async {
        let listener = server::bind(&addr.to_string())
            .await
            .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        // The address bound (a port 0 asked for is the one the system gave).
        let addr = listener.local_addr().unwrap_or(addr);
        let running = harness::start_server(listener, stored_games, seed, stop_signal()).await?;
        let stored = &running.stored;
        if stored.games > 0 {
            eprintln!(
                "{} unfinished games ({} actions) written in {:.2} s",
                stored.games,
                stored.actions,
                stored.time.as_secs_f64()
            );
        }
        eprintln!(
            "serving on {addr}, answering after {:.2} s; Ctrl-C or SIGTERM stops it",
            running.startup.as_secs_f64()
        );
        running.stopped().await
    })
}

/// Resolves at Ctrl-C, or at SIGTERM (what `kill` sends).
async fn stop_signal() {
    #[cfg(unix)]
    if let Ok(mut terminate) =
        tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
    {
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = terminate.recv() => {}
        }
        return;
    }
    let _ = tokio::signal::ctrl_c().await;
}
