//! One WebSocket connection to a game: a seat's (with its token) or a spectator's.
//!
//! The loop is generic over the `Sink` and `Stream` of messages, so it runs over a real socket
//! or over channels in a test. It sends a view at once, then a view whenever the game moves on
//! (a slow client skips to the newest version, the log lines of the skipped ones included), and
//! answers every client message, with an error when it must refuse one: a refused message
//! changes nothing and keeps the connection open.

use std::sync::Arc;

use axum::extract::ws::{CloseFrame, Message};
use futures_util::{Sink, SinkExt as _, Stream, StreamExt as _};
use game::Seat;
use tokio::sync::watch;
use tokio::time::Instant;

use crate::actor::{ActReply, GameHandle, Snapshot};
use crate::protocol::{ApiError, ClientMessage, ErrorCode, MAX_CLIENT_ID, ServerMessage};

/// Close code: the server is going away (RFC 6455).
pub(crate) const CLOSE_GOING_AWAY: u16 = 1001;
/// Close code: the game is being rebuilt; reconnect (RFC 6455 "service restart").
pub(crate) const CLOSE_RESTART: u16 = 1012;
/// Close code: the token is not a seat's of this game.
pub(crate) const CLOSE_BAD_TOKEN: u16 = 4401;
/// Close code: no such game.
pub(crate) const CLOSE_UNKNOWN_GAME: u16 = 4404;

/// Limits of one connection.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    /// Longest client message, in bytes.
    pub max_message: usize,
    /// Messages a connection may send at once.
    pub burst: u32,
    /// Messages a connection may send each second, in the long run.
    pub per_second: u32,
}

/// A token bucket: `burst` messages at once, `per_second` in the long run.
struct Bucket {
    tokens: f64,
    last: Instant,
    burst: f64,
    rate: f64,
}

impl Bucket {
    fn new(limits: Limits) -> Bucket {
        Bucket {
            tokens: f64::from(limits.burst),
            last: Instant::now(),
            burst: f64::from(limits.burst),
            rate: f64::from(limits.per_second),
        }
    }

    fn take(&mut self) -> bool {
        let now = Instant::now();
        let elapsed = now.duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + elapsed * self.rate).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// What this connection has been sent.
struct Connection {
    handle: GameHandle,
    seat: Option<Seat>,
    /// The version of the last view sent.
    version: Option<usize>,
    /// Log lines sent so far.
    log: usize,
}

impl Connection {
    fn view(&mut self, snapshot: &Snapshot, ack: Option<String>) -> ServerMessage {
        let views = &snapshot.views;
        let to_move = views.to_move();
        let log = self.handle.log.lines(self.log, snapshot.version, self.seat);
        self.log = self.log.max(snapshot.version);
        self.version = Some(snapshot.version);
        ServerMessage::View {
            id: self.handle.id,
            game: self.handle.kind,
            version: snapshot.version,
            seat: self.seat,
            to_move,
            over: to_move.is_none(),
            winners: views.winners(),
            observation: views.observation(self.seat),
            legal_actions: match self.seat {
                Some(seat) if to_move == Some(seat) => views.legal_texts(),
                _ => Vec::new(),
            },
            log,
            ack,
        }
    }

    /// Whether `snapshot` is newer than what the client has.
    fn is_news(&self, snapshot: &Snapshot) -> bool {
        self.version.is_none_or(|v| snapshot.version > v)
    }
}

fn text(message: &ServerMessage) -> Message {
    Message::Text(
        serde_json::to_string(message)
            .expect("messages serialize")
            .into(),
    )
}

fn close(code: u16, reason: &str) -> Message {
    Message::Close(Some(CloseFrame {
        code,
        reason: reason.into(),
    }))
}

/// Sends an error and closes: for a connection refused before it starts.
pub(crate) async fn refuse<W>(mut sink: W, error: ApiError, code: u16)
where
    W: Sink<Message> + Unpin,
{
    let _ = sink.send(text(&error.message(None))).await;
    let _ = sink.send(close(code, &error.message)).await;
    let _ = sink.close().await;
}

/// What the loop does after a client message.
enum Then {
    Go,
    Stop,
}

/// Serves one connection until the client leaves, the server shuts down or the game's actor
/// stops (the client then reconnects to the rebuilt game).
pub(crate) async fn run<W, R, E>(
    mut sink: W,
    mut stream: R,
    handle: GameHandle,
    seat: Option<Seat>,
    limits: Limits,
    mut shutdown: watch::Receiver<bool>,
) where
    W: Sink<Message> + Unpin,
    R: Stream<Item = Result<Message, E>> + Unpin,
{
    let mut snapshots = handle.snapshots.clone();
    let mut conn = Connection {
        handle,
        seat,
        version: None,
        log: 0,
    };
    let mut bucket = Bucket::new(limits);
    let first = Arc::clone(&snapshots.borrow_and_update());
    if sink.send(text(&conn.view(&first, None))).await.is_err() {
        return;
    }
    loop {
        let outgoing = tokio::select! {
            biased;
            _ = shutdown.changed() => {
                let _ = sink.send(close(CLOSE_GOING_AWAY, "the server is shutting down")).await;
                return;
            }
            changed = snapshots.changed() => {
                if changed.is_err() {
                    // The actor ended: the server is stopping, or rebuilds the game.
                    let last = if *shutdown.borrow() {
                        close(CLOSE_GOING_AWAY, "the server is shutting down")
                    } else {
                        close(CLOSE_RESTART, "the game is being rebuilt: reconnect")
                    };
                    let _ = sink.send(last).await;
                    return;
                }
                let snapshot = Arc::clone(&snapshots.borrow_and_update());
                if !conn.is_news(&snapshot) {
                    continue;
                }
                vec![conn.view(&snapshot, None)]
            }
            incoming = stream.next() => match incoming {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return,
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                Some(Ok(message)) => {
                    let (answers, then) = answer(&mut conn, &mut bucket, limits, message).await;
                    if let Then::Stop = then {
                        for m in &answers {
                            let _ = sink.send(text(m)).await;
                        }
                        let _ = sink.send(close(CLOSE_RESTART, "the game is being rebuilt: reconnect")).await;
                        return;
                    }
                    answers
                }
            },
        };
        for message in &outgoing {
            if sink.send(text(message)).await.is_err() {
                return;
            }
        }
    }
}

/// The answers to one client message.
async fn answer(
    conn: &mut Connection,
    bucket: &mut Bucket,
    limits: Limits,
    message: Message,
) -> (Vec<ServerMessage>, Then) {
    let error = |code, message: &str| vec![ApiError::new(code, message).message(None)];
    if !bucket.take() {
        let message = format!(
            "more than {} messages a second: this one is ignored",
            limits.per_second
        );
        return (error(ErrorCode::RateLimited, &message), Then::Go);
    }
    let Message::Text(body) = message else {
        return (
            error(ErrorCode::BadMessage, "only text messages (JSON) are read"),
            Then::Go,
        );
    };
    if body.len() > limits.max_message {
        let message = format!("messages are at most {} bytes", limits.max_message);
        return (error(ErrorCode::TooLarge, &message), Then::Go);
    }
    let parsed: ClientMessage = match serde_json::from_str(body.as_str()) {
        Ok(m) => m,
        Err(e) => {
            return (
                error(ErrorCode::BadMessage, &format!("not a message: {e}")),
                Then::Go,
            );
        }
    };
    match parsed {
        ClientMessage::Act {
            client_id,
            version,
            action,
        } => act(conn, client_id, version, action).await,
    }
}

async fn act(
    conn: &mut Connection,
    client_id: String,
    version: usize,
    action: String,
) -> (Vec<ServerMessage>, Then) {
    let refuse = |code, message: &str, client_id: String| {
        vec![ApiError::new(code, message).message(Some(client_id))]
    };
    if client_id.is_empty() || client_id.chars().count() > MAX_CLIENT_ID {
        let message = format!("a client_id has 1 to {MAX_CLIENT_ID} characters");
        return (refuse(ErrorCode::BadMessage, &message, client_id), Then::Go);
    }
    let Some(seat) = conn.seat else {
        let message = "a spectator cannot act: join a seat and connect with its token";
        return (refuse(ErrorCode::NotASeat, message, client_id), Then::Go);
    };
    match conn
        .handle
        .act(seat, client_id.clone(), version, action)
        .await
    {
        ActReply::Applied(snapshot) | ActReply::Duplicate(snapshot) => {
            (vec![conn.view(&snapshot, Some(client_id))], Then::Go)
        }
        ActReply::Refused(error, fresh) => {
            let stop = error.code == ErrorCode::Internal;
            let mut answers = vec![error.message(Some(client_id))];
            if let Some(snapshot) = fresh {
                answers.push(conn.view(&snapshot, None));
            }
            (answers, if stop { Then::Stop } else { Then::Go })
        }
    }
}

#[cfg(test)]
mod tests {
    //! The loop over channels instead of a socket.

    use std::convert::Infallible;
    use std::time::Duration;

    use futures_util::{sink, stream};
    use serde_json::{Value, json};
    use store::{SqliteStore, Store as _};

    use super::*;

    #[tokio::test]
    async fn the_loop_runs_over_any_sink_and_stream() {
        let store = Arc::new(SqliteStore::open(":memory:").unwrap());
        let mut record = game::GameRecord::new::<starrealms::State>(&Default::default(), 3);
        record.players = vec!["human".into(), "human".into()];
        let id = store.create(&record).unwrap();
        let stored = store.load(id).unwrap();
        let (_stop, shutdown) = watch::channel(false);
        let (handle, _task) =
            crate::actor::start(stored, store, Duration::ZERO, shutdown.clone()).unwrap();

        let script = [
            "{\"type\": \"act\", \"client_id\": \"a\", \"version\": 0, \"action\": \"end\"}",
            "[1, 2",
        ];
        let incoming = stream::iter(
            script
                .map(|t| Ok::<_, Infallible>(Message::Text(t.into())))
                .to_vec(),
        );
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Message>();
        let outgoing = Box::pin(sink::unfold(tx, |tx, m: Message| async move {
            tx.send(m).unwrap();
            Ok::<_, Infallible>(tx)
        }));
        let limits = Limits {
            max_message: 4096,
            burst: 10,
            per_second: 10,
        };
        run(outgoing, incoming, handle, None, limits, shutdown).await;

        let mut sent: Vec<Value> = Vec::new();
        while let Ok(m) = rx.try_recv() {
            sent.push(match m {
                Message::Text(t) => serde_json::from_str(t.as_str()).unwrap(),
                other => panic!("{other:?}"),
            });
        }
        assert_eq!(sent.len(), 3, "{sent:?}");
        assert_eq!(sent[0]["type"], "view");
        assert_eq!(sent[0]["seat"], Value::Null);
        assert_eq!(sent[0]["legal_actions"], json!([]));
        assert_eq!(sent[1]["code"], "not_a_seat");
        assert_eq!(sent[1]["client_id"], "a");
        assert_eq!(sent[2]["code"], "bad_message");
    }
}
