//! The server under load: N Star Realms games at once, both seats of each played by clients
//! over real WebSockets on loopback, against a server in this process over a temporary SQLite
//! file. Reports the latency of each action (from sending `act` to receiving the view that
//! acknowledges it), actions/s and games/s. The code is shared with the `load` test.
//!
//! ```sh
//! cargo run --release -p server --example load -- --games 500
//! ```
//!
//! Options: `--games N` (100), `--concurrency N` (games at a time; default: all), `--seed N`
//! (1), `--json`.

#[path = "../tests/load/harness.rs"]
mod harness;

use std::process::ExitCode;

const USAGE: &str = "usage: load [--games N] [--concurrency N] [--seed N] [--json]";

fn main() -> ExitCode {
    let mut games = 100;
    let mut concurrency = None;
    let mut seed = 1;
    let mut json = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--json" {
            json = true;
            continue;
        }
        let Some(n) = args.next().and_then(|v| v.parse::<u64>().ok()) else {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        };
        match arg.as_str() {
            "--games" => games = n as usize,
            "--concurrency" => concurrency = Some(n as usize),
            "--seed" => seed = n,
            _ => {
                eprintln!("{USAGE}");
                return ExitCode::from(2);
            }
        }
    }
    let config = harness::Config {
        games,
        concurrency: concurrency.unwrap_or(games).max(1),
        seed,
        progress: true,
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
