//! `realms serve`: the game server (HTTP API and WebSocket, see `docs/protocol.md`) over an
//! SQLite file, until Ctrl-C (or SIGTERM).

use std::future::Future;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context as _;
use clap::Args;
use i18n::{Lang, t, tf};
use store::{SqliteStore, Store as _};

/// Options of `realms serve`; their help is the translation table's `cli.serve.arg.<option>`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "HOST:PORT")]
    addr: String,
    #[arg(long, default_value = "realms.sqlite", value_name = "FILE")]
    db: PathBuf,
    #[arg(long, default_value_t = 400, value_name = "MS")]
    bot_delay_ms: u64,
    #[arg(long, value_name = "DIR")]
    web_dir: Option<PathBuf>,
    #[arg(long, default_value_t = server::Options::default().max_connections, value_name = "N")]
    max_connections: usize,
    #[arg(long, default_value_t = server::Options::default().max_connections_per_address, value_name = "N")]
    max_connections_per_address: usize,
    #[arg(long, default_value_t = server::Options::default().ipv6_prefix, value_name = "BITS",
          value_parser = clap::value_parser!(u8).range(1..=128))]
    ipv6_prefix: u8,
    #[arg(long, default_value_t = server::Options::default().header_timeout.as_secs(), value_name = "S")]
    request_timeout_secs: u64,
    #[arg(long, default_value_t = server::Options::default().ws_idle_timeout.as_secs(), value_name = "S")]
    ws_idle_secs: u64,
    #[arg(long, default_value_t = server::Options::default().watch_interval.as_millis() as u64, value_name = "MS")]
    watch_interval_ms: u64,
    #[arg(long, default_value_t = server::Options::default().seats_per_address, value_name = "N")]
    seats_per_address: usize,
    #[arg(long, default_value_t = server::Options::default().bot_games_per_address, value_name = "N")]
    bot_games_per_address: usize,
    #[arg(long, default_value_t = server::Options::default().open_seat_ttl.as_secs() / 60, value_name = "MIN")]
    open_seat_minutes: u64,
    #[arg(long, default_value_t = server::Options::default().bot_threads, value_name = "N")]
    bot_threads: usize,
    #[arg(long, default_value_t = server::Options::default().max_bot_iterations, value_name = "N")]
    max_bot_iterations: u32,
    #[arg(long, value_name = "FILE", requires = "tls_key")]
    tls_cert: Option<PathBuf>,
    #[arg(long, value_name = "FILE", requires = "tls_cert")]
    tls_key: Option<PathBuf>,
    #[arg(long, value_name = "HEADER")]
    client_address_header: Option<String>,
}

impl ServeArgs {
    /// The server's options from the command line.
    fn options(&self, lang: Lang) -> server::Options {
        let request_timeout = Duration::from_secs(self.request_timeout_secs.max(1));
        let ws_idle = Duration::from_secs(self.ws_idle_secs.max(3));
        server::Options {
            bot_delay: Duration::from_millis(self.bot_delay_ms),
            web_dir: self.web_dir.clone(),
            max_connections: self.max_connections,
            max_connections_per_address: self.max_connections_per_address,
            ipv6_prefix: self.ipv6_prefix,
            header_timeout: request_timeout,
            body_timeout: request_timeout,
            ws_idle_timeout: ws_idle,
            ws_ping_interval: ws_idle / 3,
            watch_interval: Duration::from_millis(self.watch_interval_ms),
            seats_per_address: self.seats_per_address.max(1),
            bot_games_per_address: self.bot_games_per_address,
            open_seat_ttl: Duration::from_secs(self.open_seat_minutes.max(1).saturating_mul(60)),
            bot_threads: self.bot_threads.max(1),
            max_bot_iterations: self.max_bot_iterations,
            client_address_header: self.client_address_header.clone(),
            log_lang: lang,
            ..server::Options::default()
        }
    }
}

/// Serves until Ctrl-C.
pub fn run(args: ServeArgs, lang: Lang) -> anyhow::Result<ExitCode> {
    let runtime = server::runtime().context(t(lang, "serve.err.runtime"))?;
    let mut stdout = std::io::stdout();
    let served = runtime.block_on(serve(args, lang, &mut stdout, stop_signal()));
    // A bot's search still running on a worker thread ends at its next check; the process
    // does not wait for it.
    runtime.shutdown_timeout(Duration::from_secs(1));
    served?;
    Ok(ExitCode::SUCCESS)
}

/// Ctrl-C, or SIGTERM on Unix (what service managers send).
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

async fn serve(
    args: ServeArgs,
    lang: Lang,
    out: &mut (dyn Write + Send),
    stop: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let tls = match (&args.tls_cert, &args.tls_key) {
        (Some(cert), Some(key)) => {
            Some(server::tls::config(cert, key).map_err(anyhow::Error::msg)?)
        }
        _ => None,
    };
    let db = args.db.display().to_string();
    let store = SqliteStore::open(&args.db)
        .with_context(|| tf(lang, "serve.err.open_db", &[("file", &db)]))?;
    // The games that can never start are retired first: the count is of those that go on.
    let open_seat_ttl = Duration::from_secs(args.open_seat_minutes.max(1).saturating_mul(60));
    let unfinished = store
        .retire_expired(open_seat_ttl)
        .and_then(|_| store.list_unfinished())
        .with_context(|| tf(lang, "serve.err.read_db", &[("file", &db)]))?
        .len();
    let listener = server::bind(&args.addr)
        .await
        .with_context(|| tf(lang, "serve.err.listen", &[("addr", &args.addr)]))?;
    let addr = listener.local_addr()?;
    // Every connection takes a file descriptor: the usual soft limit (1,024) would let a few
    // hundred idle sockets lock everybody out.
    let descriptors = rlimit::increase_nofile_limit(u64::MAX);
    let scheme = if tls.is_some() { "https" } else { "http" };
    // What the server prints is for the person who started it: a closed output (`| head -1`)
    // must not stop the games.
    let _ = (|| -> std::io::Result<()> {
        writeln!(
            out,
            "{}",
            tf(
                lang,
                "serve.listening",
                &[("url", &format!("{scheme}://{addr}/")), ("db", &db)]
            )
        )?;
        if unfinished > 0 {
            writeln!(out, "{}", tf(lang, "serve.resumed", &[("n", &unfinished)]))?;
        }
        if !addr.ip().is_loopback() && tls.is_none() {
            let text = tf(lang, "serve.exposed", &[("addr", &addr)]);
            writeln!(out, "{text}")?;
        }
        if let Err(e) = &descriptors {
            let n = rlimit::getrlimit(rlimit::Resource::NOFILE).map_or(0, |(soft, _)| soft);
            let text = tf(lang, "serve.descriptors", &[("error", &e), ("n", &n)]);
            writeln!(out, "{text}")?;
        }
        writeln!(out, "{}", t(lang, "serve.stop_hint"))?;
        out.flush()
    })();
    let mut options = args.options(lang);
    options.tls = tls;
    server::launch(listener, store, options, stop).await?;
    let _ = writeln!(out, "{}", t(lang, "serve.stopped"));
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::io::{Read as _, Write as _};

    use super::*;

    #[test]
    fn serves_on_the_given_address_and_stops_cleanly() {
        let output = serve_once("127.0.0.1:0");
        assert!(!output.contains("Warning"), "{output}");
    }

    #[test]
    fn listening_beyond_this_machine_warns_of_plain_http() {
        let output = serve_once("0.0.0.0:0");
        let warning = tf(Lang::En, "serve.exposed", &[("addr", &"0.0.0.0")]);
        let start = warning.split("0.0.0.0").next().unwrap();
        assert!(output.contains(start), "{output}");
        assert!(output.contains("TLS"), "{output}");
    }

    /// Serves on `addr`, fetches the home page, stops; returns what the server printed.
    fn serve_once(addr: &str) -> String {
        let dir = tempfile::tempdir().unwrap();
        let args = ServeArgs {
            addr: addr.into(),
            db: dir.path().join("games.sqlite"),
            bot_delay_ms: 0,
            web_dir: None,
            max_connections: 100,
            max_connections_per_address: 10,
            ipv6_prefix: 64,
            request_timeout_secs: 10,
            ws_idle_secs: 60,
            watch_interval_ms: 50,
            seats_per_address: 12,
            bot_games_per_address: 4,
            open_seat_minutes: 120,
            bot_threads: 1,
            max_bot_iterations: 5000,
            client_address_header: None,
            tls_cert: None,
            tls_key: None,
        };
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let (told, url) = std::sync::mpsc::channel::<String>();
        let server = std::thread::spawn(move || {
            struct Lines(std::sync::mpsc::Sender<String>, Vec<u8>);
            impl Write for Lines {
                fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                    self.1.extend_from_slice(b);
                    Ok(b.len())
                }
                fn flush(&mut self) -> std::io::Result<()> {
                    let _ = self.0.send(String::from_utf8_lossy(&self.1).into_owned());
                    Ok(())
                }
            }
            let mut out = Lines(told, Vec::new());
            runtime
                .block_on(serve(args, Lang::En, &mut out, async {
                    let _ = stopped.await;
                }))
                .unwrap();
            String::from_utf8(out.1).unwrap()
        });
        let printed = url.recv().unwrap();
        let addr = printed
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap()
            .to_string();
        let port = addr.rsplit(':').next().unwrap();
        let mut http = std::net::TcpStream::connect(format!("127.0.0.1:{port}")).unwrap();
        write!(
            http,
            "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut page = String::new();
        http.read_to_string(&mut page).unwrap();
        assert!(page.starts_with("HTTP/1.1 200"), "{page}");
        assert!(page.contains("realms"));
        stop.send(()).unwrap();
        let output = server.join().unwrap();
        assert!(output.contains(&format!("http://{addr}/")), "{output}");
        assert!(output.contains(t(Lang::En, "serve.stop_hint")), "{output}");
        assert!(
            output.ends_with(&format!("{}\n", t(Lang::En, "serve.stopped"))),
            "{output}"
        );
        output
    }
}
