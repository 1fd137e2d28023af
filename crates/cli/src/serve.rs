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

/// Options of `realms serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The address to listen on (`0.0.0.0:8080` to accept other machines; port 0: any free one).
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "HOST:PORT")]
    addr: String,
    /// The SQLite file that keeps the games (created if missing).
    #[arg(long, default_value = "realms.sqlite", value_name = "FILE")]
    db: PathBuf,
    /// How long a bot waits before it plays, in milliseconds, so that people can follow.
    #[arg(long, default_value_t = 400, value_name = "MS")]
    bot_delay_ms: u64,
    /// Serve the browser interface from this folder (such as `web`) instead of the copy built
    /// into the binary: to work on the interface without rebuilding.
    #[arg(long, value_name = "DIR")]
    web_dir: Option<PathBuf>,
}

/// Serves until Ctrl-C.
pub fn run(args: ServeArgs, lang: Lang) -> anyhow::Result<ExitCode> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let mut stdout = std::io::stdout();
    runtime.block_on(serve(args, lang, &mut stdout, stop_signal()))?;
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
    let db = args.db.display().to_string();
    let store =
        SqliteStore::open(&args.db).with_context(|| format!("cannot open the database {db}"))?;
    let unfinished = store
        .list_unfinished()
        .with_context(|| format!("cannot read the database {db}"))?
        .len();
    let listener = tokio::net::TcpListener::bind(&args.addr)
        .await
        .with_context(|| format!("cannot listen on {}", args.addr))?;
    let addr = listener.local_addr()?;
    // What the server prints is for the person who started it: a closed output (`| head -1`)
    // must not stop the games.
    let _ = (|| -> std::io::Result<()> {
        writeln!(
            out,
            "{}",
            tf(
                lang,
                "serve.listening",
                &[("url", &format!("http://{addr}/")), ("db", &db)]
            )
        )?;
        if unfinished > 0 {
            writeln!(out, "{}", tf(lang, "serve.resumed", &[("n", &unfinished)]))?;
        }
        writeln!(out, "{}", t(lang, "serve.stop_hint"))?;
        out.flush()
    })();
    let options = server::Options {
        bot_delay: Duration::from_millis(args.bot_delay_ms),
        web_dir: args.web_dir,
        ..server::Options::default()
    };
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
        let dir = tempfile::tempdir().unwrap();
        let args = ServeArgs {
            addr: "127.0.0.1:0".into(),
            db: dir.path().join("games.sqlite"),
            bot_delay_ms: 0,
            web_dir: None,
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
        let mut http = std::net::TcpStream::connect(&addr).unwrap();
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
    }
}
