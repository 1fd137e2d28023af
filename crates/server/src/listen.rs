//! Taking connections: a cap on connections in all and per client address (beyond it, a clear
//! refusal and a close), a deadline for each request's head, HTTP/1.1 with WebSocket upgrades,
//! one task per connection, and a graceful stop.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::http::Request;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt as _};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::JoinSet;
use tokio_io_timeout::TimeoutWriter;
use tokio_rustls::TlsAcceptor;
use tower::ServiceExt as _;

use crate::protocol::{ApiError, ErrorCode};

/// How long connections get to finish their request once the server stops.
const STOP_GRACE: Duration = Duration::from_secs(3);

/// How long a refusal may take to send before the connection is dropped anyway (and a close
/// frame, a WebSocket's last message, to go).
pub(crate) const REFUSAL_PATIENCE: Duration = Duration::from_secs(2);

/// The request head read (request line and headers; a browser's is a few KiB): once this much
/// is read without the head's end, the HTTP layer answers `431` and closes (a read may take it
/// up to twice this first). The connections the caps allow may each hold a head being read:
/// 4,096 of them some 512 MiB at most, where the HTTP layer's own default (some 400 KiB) would
/// let them hold over 3 GiB.
const MAX_HEAD: usize = 64 * 1024;

/// Live connections, in all and per address.
#[derive(Default)]
struct Counts {
    total: usize,
    per_address: HashMap<IpAddr, usize>,
}

/// The caps on connections.
pub(crate) struct Caps {
    total: usize,
    per_address: usize,
    /// Leading bits of an IPv6 address that make one client ([`crate::limits::client_of`]).
    ipv6_prefix: u8,
    counts: Mutex<Counts>,
}

/// A connection's place under the caps, given back when the last holder drops it (a WebSocket
/// keeps its connection's place after the upgrade).
pub(crate) struct Slot {
    caps: Arc<Caps>,
    address: IpAddr,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut counts = self.caps.counts.lock().unwrap_or_else(|e| e.into_inner());
        counts.total -= 1;
        if let Some(n) = counts.per_address.get_mut(&self.address) {
            *n -= 1;
            if *n == 0 {
                counts.per_address.remove(&self.address);
            }
        }
    }
}

impl Caps {
    pub(crate) fn new(total: usize, per_address: usize, ipv6_prefix: u8) -> Arc<Caps> {
        Arc::new(Caps {
            total: total.max(1),
            per_address: per_address.max(1),
            ipv6_prefix,
            counts: Mutex::new(Counts::default()),
        })
    }

    /// A place for a new connection from `address`, or why there is none.
    fn admit(self: &Arc<Self>, address: IpAddr) -> Result<Slot, ApiError> {
        let address = crate::limits::client_of(address, self.ipv6_prefix);
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        if counts.total >= self.total {
            return Err(ApiError::new(
                ErrorCode::TooManyConnections,
                format!(
                    "the server has as many connections as it takes ({}): try again in a moment",
                    self.total
                ),
            ));
        }
        let mine = counts.per_address.entry(address).or_default();
        if *mine >= self.per_address {
            return Err(ApiError::new(
                ErrorCode::TooManyConnections,
                format!(
                    "your address (or its IPv6 network) has as many connections as it may ({}): \
                     close some first",
                    self.per_address
                ),
            ));
        }
        *mine += 1;
        counts.total += 1;
        Ok(Slot {
            caps: Arc::clone(self),
            address,
        })
    }
}

/// Who a request comes from: what the handlers read of the connection.
#[derive(Clone)]
pub(crate) struct Peer {
    /// The client's address and port as the socket sees them.
    pub address: SocketAddr,
    /// The connection's place under the caps.
    pub slot: Arc<Slot>,
}

/// How connections are taken.
#[derive(Clone)]
pub(crate) struct Settings {
    /// Longest wait for a request's head (from the connection, or from the previous answer),
    /// and for the TLS handshake.
    pub header_timeout: Duration,
    /// Longest a write may wait for the client to read ([`patient`]).
    pub write_timeout: Duration,
    /// Over TLS: the handshake's settings.
    pub tls: Option<TlsAcceptor>,
    /// The language of the server's log.
    pub log_lang: crate::Lang,
}

/// Descriptors the server may hold beyond its connections: the listener, the store's files
/// and connections, the runtime's own, the standard streams.
const DESCRIPTORS_BESIDE_CONNECTIONS: usize = 256;

/// Grows the process's table of file descriptors, once, to room for `connections` connections
/// (within the soft limit), by duplicating `fd` to a descriptor that high and closing it; the
/// table never shrinks. Left to grow as connections arrive, the kernel doubles it at the
/// descriptor past 64, 128, 256, …, and each time waits for every core to pass through the
/// scheduler before it frees the old table: a wait of 26 ms, measured once here, inside the
/// `accept` of the runtime's thread, during which no game moves.
#[cfg(unix)]
pub(crate) fn reserve_descriptors(
    fd: impl std::os::fd::AsFd,
    connections: usize,
) -> std::io::Result<()> {
    let (soft, _) = rlimit::getrlimit(rlimit::Resource::NOFILE)?;
    let wanted = connections.saturating_add(DESCRIPTORS_BESIDE_CONNECTIONS);
    let highest = (wanted as u64)
        .min(soft.saturating_sub(1))
        .min(i32::MAX as u64) as i32;
    let duplicate = rustix::io::fcntl_dupfd_cloexec(fd, highest)?;
    drop(duplicate);
    Ok(())
}

/// Serves `router` on `listener` until `shutdown` turns true; then waits a little for open
/// requests to end (WebSockets end themselves on the same signal).
pub(crate) async fn serve(
    listener: TcpListener,
    router: Router,
    caps: Arc<Caps>,
    settings: Settings,
    mut shutdown: watch::Receiver<bool>,
) {
    let mut connections = JoinSet::new();
    let mut failures_said = 0u32;
    loop {
        let accepted = tokio::select! {
            _ = shutdown.wait_for(|stop| *stop) => break,
            accepted = listener.accept() => accepted,
        };
        while connections.try_join_next().is_some() {}
        let (tcp, address) = match accepted {
            Ok(pair) => pair,
            Err(e) => {
                // Out of file descriptors, most likely: say so (not at every attempt) and let
                // connections close before trying again, rather than spin.
                if failures_said < 10 {
                    failures_said += 1;
                    crate::log(settings.log_lang, "serve.log.accept", &[("error", &e)]);
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        // Views go out as soon as they are ready: without TCP_NODELAY, a view pushed to a seat
        // that did not just act waits for the peer's delayed acknowledgement (40 ms on Linux).
        let _ = tcp.set_nodelay(true);
        match caps.admit(address.ip()) {
            Ok(slot) => {
                let peer = Peer {
                    address,
                    slot: Arc::new(slot),
                };
                connections.spawn(connection(
                    tcp,
                    peer,
                    router.clone(),
                    settings.clone(),
                    shutdown.clone(),
                ));
            }
            // Over TLS, a refusal in plain HTTP would read as noise: the connection just closes.
            Err(_) if settings.tls.is_some() => drop(tcp),
            Err(refusal) => {
                connections.spawn(refuse(tcp, refusal));
            }
        }
    }
    let _ = tokio::time::timeout(STOP_GRACE, async {
        while connections.join_next().await.is_some() {}
    })
    .await;
    connections.abort_all();
}

/// Answers a connection over the caps with the error, as JSON, and closes it.
async fn refuse(mut tcp: TcpStream, refusal: ApiError) {
    let body = serde_json::to_string(&refusal.message(None)).expect("messages serialize");
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nRetry-After: 5\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(REFUSAL_PATIENCE, async {
        let _ = tcp.write_all(answer.as_bytes()).await;
        let _ = tcp.shutdown().await;
    })
    .await;
}

/// Serves one connection's requests (and its WebSocket, if it upgrades), over TLS if the
/// server speaks it.
async fn connection(
    tcp: TcpStream,
    peer: Peer,
    router: Router,
    settings: Settings,
    shutdown: watch::Receiver<bool>,
) {
    let tcp = patient(tcp, settings.write_timeout);
    match &settings.tls {
        None => serve_io(TokioIo::new(tcp), peer, router, &settings, shutdown).await,
        Some(acceptor) => {
            let handshake = tokio::time::timeout(settings.header_timeout, acceptor.accept(tcp));
            if let Ok(Ok(stream)) = handshake.await {
                serve_io(TokioIo::new(stream), peer, router, &settings, shutdown).await;
            }
        }
    }
}

/// `io`, whose writes fail once they cannot go on for `patience`: a client that stops reading
/// (its buffers and the kernel's full) would otherwise hold its connection, its place under the
/// caps and the task that serves it for good, whether it was sent an answer (a browser's file, a
/// lobby page, answers to requests it sent in a row without reading) or views. A write that
/// moves on, however slowly, starts the wait again.
fn patient<T: AsyncRead + AsyncWrite>(io: T, patience: Duration) -> Pin<Box<TimeoutWriter<T>>> {
    let mut io = TimeoutWriter::new(io);
    io.set_timeout(Some(patience));
    Box::pin(io)
}

async fn serve_io<I>(
    io: I,
    peer: Peer,
    router: Router,
    settings: &Settings,
    mut shutdown: watch::Receiver<bool>,
) where
    I: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    let service = router.map_request(move |mut request: Request<Incoming>| {
        request.extensions_mut().insert(peer.clone());
        request
    });
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(settings.header_timeout)
        .max_buf_size(MAX_HEAD);
    let connection = builder
        .serve_connection(io, TowerToHyperService::new(service))
        .with_upgrades();
    tokio::pin!(connection);
    let stopping = tokio::select! {
        _ = connection.as_mut() => false,
        stop = shutdown.wait_for(|stop| *stop) => stop.is_ok(),
    };
    if stopping {
        connection.as_mut().graceful_shutdown();
        let _ = tokio::time::timeout(STOP_GRACE, connection).await;
    }
}

#[cfg(test)]
mod tests {
    use tokio::io::AsyncReadExt as _;

    use super::*;

    #[tokio::test]
    async fn a_write_nobody_reads_fails_after_the_patience_and_a_slow_reader_is_served() {
        let patience = Duration::from_millis(200);
        let (ours, _theirs) = tokio::io::duplex(64);
        let mut writer = patient(ours, patience);
        let started = tokio::time::Instant::now();
        let written = writer.write_all(&[7; 1024]).await;
        assert_eq!(written.unwrap_err().kind(), std::io::ErrorKind::TimedOut);
        assert!(started.elapsed() >= patience);

        // Reading 64 bytes every 50 ms: 1,024 bytes take 0.8 s, never 200 ms without progress.
        let (ours, mut theirs) = tokio::io::duplex(64);
        let mut writer = patient(ours, patience);
        let reader = tokio::spawn(async move {
            let mut got = Vec::new();
            let mut chunk = [0; 64];
            while got.len() < 1024 {
                tokio::time::sleep(Duration::from_millis(50)).await;
                let n = theirs.read(&mut chunk).await.unwrap();
                got.extend_from_slice(&chunk[..n]);
            }
            got
        });
        writer.write_all(&[7; 1024]).await.unwrap();
        assert_eq!(reader.await.unwrap(), [7; 1024]);
    }

    #[test]
    fn the_cap_per_address_counts_an_ipv6_network_as_one_client() {
        let caps = Caps::new(100, 2, 64);
        let ip = |a: &str| a.parse::<IpAddr>().unwrap();
        let first = caps.admit(ip("2001:db8:1:2::1")).unwrap();
        let _second = caps.admit(ip("2001:db8:1:2::2")).unwrap();
        let refused = caps.admit(ip("2001:db8:1:2::3")).err().unwrap();
        assert_eq!(refused.code, ErrorCode::TooManyConnections);
        assert!(refused.message.contains("(2)"), "{}", refused.message);
        let _other = caps.admit(ip("2001:db8:1:3::1")).unwrap();
        // A closed connection gives its network's place back.
        drop(first);
        let _again = caps.admit(ip("2001:db8:1:2::ffff")).unwrap();
        assert_eq!(caps.counts.lock().unwrap().per_address.len(), 2);
    }
}
