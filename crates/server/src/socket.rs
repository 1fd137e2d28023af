//! One WebSocket connection to a game: a seat's (with its token) or a spectator's.
//!
//! The loop is generic over the `Sink` and `Stream` of messages, so it runs over a real socket
//! or over channels in a test. It sends a view at once, then a view whenever the game moves on
//! or who is at the table changes (a slow client skips to the newest version, the log lines of
//! the skipped ones included), and answers every client message, with an error when it must
//! refuse one: a refused message changes nothing and keeps the connection open. A seat's
//! connection is counted at the table while the loop runs.

use std::borrow::Cow;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message};
use futures_util::{FutureExt as _, Sink, SinkExt as _, Stream, StreamExt as _};
use game::{Seat, json};
use tokio::sync::watch;
use tokio::time::Instant;

use crate::actor::{ActReply, GameHandle, Snapshot, Table};
use crate::games::Kept;

use crate::listen::REFUSAL_PATIENCE;
use crate::protocol::{ApiError, ClientMessage, ErrorCode, MAX_CLIENT_ID, ServerMessage};

/// Close code: the server is going away (RFC 6455).
pub(crate) const CLOSE_GOING_AWAY: u16 = 1001;
/// Close code: the game is being rebuilt; reconnect (RFC 6455 "service restart").
pub(crate) const CLOSE_RESTART: u16 = 1012;
/// Close code: nothing arrived for too long, not even an answer to a ping.
pub(crate) const CLOSE_IDLE: u16 = 4408;
/// Close code: the seat has newer connections; this one is the oldest.
pub(crate) const CLOSE_REPLACED: u16 = 4409;
/// Close code: the client went on sending past its allowance ([`MAX_OVERRUNS`] in a row).
pub(crate) const CLOSE_FLOOD: u16 = 4429;
/// Largest WebSocket message or frame taken off the wire at all: beyond it the connection is
/// closed ([`CLOSE_TOO_BIG`]). Messages between the configured limit ([`Limits::max_message`])
/// and this one get a `too_large` error.
pub(crate) const HARD_MAX_MESSAGE: usize = 64 * 1024;
/// Close code: frames against the WebSocket protocol (RFC 6455).
pub(crate) const CLOSE_PROTOCOL: u16 = 1002;
/// Close code: a text message that is not UTF-8 (RFC 6455).
pub(crate) const CLOSE_NOT_UTF8: u16 = 1007;
/// Close code: a message or frame larger than the server reads at all (RFC 6455).
pub(crate) const CLOSE_TOO_BIG: u16 = 1009;

/// Messages past the allowance, in a row, after which a connection is closed: each would
/// cost the server an answer (an error, or the pong of a ping), at whatever pace the client
/// sends. A client that slows down when told (`rate_limited`) never comes near it.
const MAX_OVERRUNS: u32 = 100;
/// Close code: the game's record is damaged; it cannot be played or watched. Do not retry.
pub(crate) const CLOSE_DAMAGED: u16 = 4500;
/// Close code: the token is not a seat's of this game.
pub(crate) const CLOSE_BAD_TOKEN: u16 = 4401;
/// Close code: no such game.
pub(crate) const CLOSE_UNKNOWN_GAME: u16 = 4404;

/// Limits of one connection.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    /// Longest client message, in bytes.
    pub max_message: usize,
    /// How often the connection is pinged.
    pub ping_interval: Duration,
    /// The connection closes when nothing (not even a pong) arrives for this long, or when a
    /// message to the client cannot go for this long.
    pub idle_timeout: Duration,
    /// Views to a connection that is not to move (a spectator, or a seat waiting for the
    /// others) go at most this often: a quick run of another seat's actions reaches it as one
    /// view with all their log lines. The view that gives it the move, or ends the game, goes
    /// at once, as do a seat's answers to its own messages.
    pub watch_interval: Duration,
}

/// How a connection's views carry the observation (`views` in the WebSocket's query).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum ViewMode {
    /// Every view holds the whole observation.
    #[default]
    Full,
    /// After the first view, a view holds what changed since the one before: the observation's
    /// changed fields (`observation_changes`), and `seats` only when it changed.
    Changes,
}

/// What this connection has been sent.
struct Connection {
    handle: GameHandle,
    seat: Option<Seat>,
    /// The version and the presence number of the last view sent.
    version: Option<(usize, u64)>,
    /// Log lines sent so far.
    log: usize,
    mode: ViewMode,
    /// With [`ViewMode::Changes`]: the last observation sent, and the seats' list.
    kept: Kept,
    seats: Option<Arc<Table>>,
}

impl Connection {
    /// The view of `snapshot` this connection may see, answering the act `ack` if any, as
    /// the message that goes: a [`ServerMessage::View`], written straight into one buffer.
    fn view(&mut self, snapshot: &Snapshot, ack: Option<&str>) -> Message {
        let views = &snapshot.views;
        let to_move = views.to_move();
        let log = self.handle.log.view(self.log, snapshot.version, self.seat);
        self.log = self.log.max(snapshot.version);
        let (version, presence) = self.version.unwrap_or_default();
        self.version = Some((
            version.max(snapshot.version),
            presence.max(snapshot.presence),
        ));
        let legal =
            matches!(self.seat, Some(seat) if to_move == Some(seat)) && snapshot.waiting.is_empty();
        // The protocol's `ServerMessage::View`, written here rather than through serde (the
        // server writes one for nearly every action): the game writes the observation and
        // the legal actions, last.
        let mut out = VIEW.take();
        out.clear();
        out.extend_from_slice(b"{\"type\":\"view\",\"id\":");
        json::number(&mut out, self.handle.id.0);
        out.extend_from_slice(b",\"game\":");
        json::string(&mut out, self.handle.kind.name());
        out.extend_from_slice(b",\"version\":");
        json::number(&mut out, snapshot.version);
        out.extend_from_slice(b",\"seat\":");
        json::option_seat(&mut out, self.seat);
        out.extend_from_slice(b",\"to_move\":");
        json::option_seat(&mut out, to_move);
        out.extend_from_slice(b",\"over\":");
        json::boolean(&mut out, to_move.is_none());
        out.extend_from_slice(b",\"winners\":");
        match views.winners() {
            Some(winners) => json::seats(&mut out, &winners),
            None => out.extend_from_slice(b"null"),
        }
        let changes = self.mode == ViewMode::Changes;
        let seats_known = changes
            && self
                .seats
                .as_ref()
                .is_some_and(|sent| Arc::ptr_eq(sent, &snapshot.seats));
        if !seats_known {
            out.extend_from_slice(b",\"seats\":");
            out.extend_from_slice(snapshot.seats.json().as_bytes());
            if changes {
                self.seats = Some(Arc::clone(&snapshot.seats));
            }
        }
        out.extend_from_slice(b",\"waiting\":");
        json::seats(&mut out, &snapshot.waiting);
        out.extend_from_slice(b",\"log\":");
        log.write_json(&mut out);
        if let Some(ack) = ack {
            out.extend_from_slice(b",\"ack\":");
            json::string(&mut out, ack);
        }
        if changes {
            let at = out.len();
            out.extend_from_slice(OBSERVATION);
            if views.write_observation_changes(self.seat, &mut self.kept, &mut out) {
                out.splice(at..at + OBSERVATION.len(), CHANGES.iter().copied());
            }
        } else {
            out.extend_from_slice(OBSERVATION);
            views.write_observation(self.seat, &mut out);
        }
        out.extend_from_slice(b",\"legal_actions\":");
        if legal {
            views.write_legal_actions(&mut out);
        } else {
            out.extend_from_slice(b"[]");
        }
        out.push(b'}');
        // The message takes a copy of the exact size: made from the room itself, it would
        // allocate its room anew for every view (a request of a size the C library serves
        // by first sorting out its freed small blocks), and a second block to share it.
        let text = String::from_utf8(out.to_vec()).expect("JSON is UTF-8");
        VIEW.set(out);
        Message::Text(text.into())
    }

    /// Whether `snapshot` is newer than what the client has: a later version, or the same
    /// with a change of who is at the table.
    fn is_news(&self, snapshot: &Snapshot) -> bool {
        self.version
            .is_none_or(|(v, p)| snapshot.version > v || snapshot.presence > p)
    }

    /// Whether `snapshot` must go at once: it gives this connection's seat the move, or the
    /// game is over.
    fn is_urgent(&self, snapshot: &Snapshot) -> bool {
        let to_move = snapshot.views.to_move();
        to_move.is_none() || (self.seat.is_some() && to_move == self.seat)
    }
}

const OBSERVATION: &[u8] = b",\"observation\":";
const CHANGES: &[u8] = b",\"observation_changes\":";

thread_local! {
    /// The room a view is written in, kept from one view to the next.
    static VIEW: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

fn text(message: &ServerMessage) -> Message {
    Message::Text(
        serde_json::to_string(message)
            .expect("messages serialize")
            .into(),
    )
}

/// The most bytes of a close frame's reason: a control frame carries at most 125 bytes, two of
/// them the code (RFC 6455, 5.5), and a client fails a connection whose close frame is longer.
const CLOSE_REASON_MAX: usize = 123;

/// A close frame with `code` and as much of `reason` as it may carry (cut between characters,
/// with `…` when cut).
fn close(code: u16, reason: &str) -> Message {
    let reason = if reason.len() <= CLOSE_REASON_MAX {
        reason.to_owned()
    } else {
        let room = CLOSE_REASON_MAX - '…'.len_utf8();
        let end = (0..=room)
            .rev()
            .find(|&i| reason.is_char_boundary(i))
            .unwrap_or(0);
        format!("{}…", &reason[..end])
    };
    Message::Close(Some(CloseFrame {
        code,
        reason: reason.into(),
    }))
}

/// Sends `message`; false if the connection failed, or if the message could not go for
/// `patience` (the client does not read: the buffers between are full) and is given up. Over a
/// real socket the connection's own write patience (`listen::patient`, the same idle timeout)
/// ends such a wait as well; this one holds whatever the loop runs over, and lets a close frame,
/// the last message, wait less than the idle timeout.
async fn deliver<W>(sink: &mut W, message: Message, patience: Duration) -> bool
where
    W: Sink<Message> + Unpin,
{
    let mut send = std::pin::pin!(sink.send(message));
    // Nearly every message goes at once: no timer for those.
    if let Some(sent) = (&mut send).now_or_never() {
        return sent.is_ok();
    }
    matches!(tokio::time::timeout(patience, send).await, Ok(Ok(())))
}

/// Sends an error and closes: for a connection refused before it starts.
pub(crate) async fn refuse<W>(mut sink: W, error: ApiError, code: u16)
where
    W: Sink<Message> + Unpin,
{
    if deliver(&mut sink, text(&error.message(None)), REFUSAL_PATIENCE).await
        && deliver(&mut sink, close(code, &error.message), REFUSAL_PATIENCE).await
    {
        let _ = tokio::time::timeout(REFUSAL_PATIENCE, sink.close()).await;
    }
}

/// What the loop does after a client message.
enum Then {
    Go,
    Stop,
}

/// What a connection is allowed, beyond its [`Limits`].
pub(crate) struct Allowance<F, P> {
    /// Whether one more message may be read now (the seat's and the address's rates).
    pub message: F,
    /// Resolves when the connection must leave for a newer one of its seat.
    pub replaced: P,
}

/// Serves one connection, `socket` (both ways: one value, not two halves that would share it
/// through a lock at every message), until the client leaves or goes silent, the server shuts
/// down, a newer connection of the seat replaces it, or the game's actor stops (the client
/// then reconnects to the rebuilt game).
pub(crate) async fn run<T, E, F, P>(
    mut socket: T,
    handle: GameHandle,
    seat: Option<Seat>,
    mode: ViewMode,
    limits: Limits,
    allowance: Allowance<F, P>,
    mut shutdown: watch::Receiver<bool>,
) where
    T: Sink<Message> + Stream<Item = Result<Message, E>> + Unpin,
    E: std::error::Error + 'static,
    F: FnMut() -> bool,
    P: Future<Output = ()>,
{
    let Allowance {
        message: mut allow,
        replaced,
    } = allowance;
    tokio::pin!(replaced);
    let mut snapshots = handle.snapshots.clone();
    let mut turns = handle.turns.clone();
    // A seat's connection is at the table while this loop runs; the first view shows it.
    let _at_table = match seat {
        Some(seat) => Some(handle.arrive(seat).await),
        None => None,
    };
    let mut conn = Connection {
        handle,
        seat,
        version: None,
        log: 0,
        mode,
        kept: Kept::default(),
        seats: None,
    };
    let first = Arc::clone(&snapshots.borrow_and_update());
    let patience = limits.idle_timeout;
    // A close frame, the connection's last message, waits less.
    let last = patience.min(REFUSAL_PATIENCE);
    if !deliver(&mut socket, conn.view(&first, None), patience).await {
        return;
    }
    let mut heard = Instant::now();
    // The timers live as long as the loop and are moved, not made again at each turn of it
    // (a timer made anew is one more entry in the runtime's wheel for every message).
    let ping = tokio::time::sleep_until(heard + limits.ping_interval);
    tokio::pin!(ping);
    // When the last view went, and whether a view is held back by `watch_interval` (until the
    // `hold` timer fires). While one is, the connection does not wake at each new version:
    // only when the timer fires or the move changes hands (which may make a view urgent).
    let mut last_view = heard;
    let mut held = false;
    let hold = tokio::time::sleep_until(heard);
    tokio::pin!(hold);
    let stopping = shutdown.clone();
    let stop = shutdown.changed();
    tokio::pin!(stop);
    // Messages past the allowance since the last one within it.
    let mut overruns = 0;
    let farewell = loop {
        let outgoing = tokio::select! {
            biased;
            _ = &mut stop => {
                break close(CLOSE_GOING_AWAY, "the server is shutting down");
            }
            () = &mut replaced => {
                let reason = "this seat has newer connections: this one, the oldest, is closed";
                break close(CLOSE_REPLACED, reason);
            }
            () = &mut ping => {
                if heard.elapsed() >= limits.idle_timeout {
                    let reason = "nothing arrived for too long, not even an answer to a ping";
                    break close(CLOSE_IDLE, reason);
                }
                ping.as_mut().reset(Instant::now() + limits.ping_interval);
                if !deliver(&mut socket, Message::Ping(Default::default()), patience).await {
                    return;
                }
                continue;
            }
            () = &mut hold, if held => {
                held = false;
                let snapshot = Arc::clone(&snapshots.borrow_and_update());
                if !conn.is_news(&snapshot) {
                    continue;
                }
                last_view = Instant::now();
                vec![conn.view(&snapshot, None)]
            }
            changed = snapshots.changed(), if !held => {
                if changed.is_err() {
                    break actor_ended(&stopping);
                }
                let mut snapshot = Arc::clone(&snapshots.borrow_and_update());
                if !conn.is_news(&snapshot) {
                    continue;
                }
                let due = last_view + limits.watch_interval;
                if !conn.is_urgent(&snapshot) && Instant::now() < due {
                    // Held from now: the move's changes from now on wake the connection. One
                    // that came before is in the newest version, looked at once more here.
                    turns.borrow_and_update();
                    snapshot = Arc::clone(&snapshots.borrow_and_update());
                    if !conn.is_urgent(&snapshot) {
                        held = true;
                        hold.as_mut().reset(due);
                        continue;
                    }
                }
                last_view = Instant::now();
                vec![conn.view(&snapshot, None)]
            }
            changed = turns.changed(), if held => {
                if changed.is_err() {
                    break actor_ended(&stopping);
                }
                turns.borrow_and_update();
                let snapshot = Arc::clone(&snapshots.borrow_and_update());
                if !conn.is_news(&snapshot) || !conn.is_urgent(&snapshot) {
                    continue;
                }
                held = false;
                last_view = Instant::now();
                vec![conn.view(&snapshot, None)]
            }
            incoming = socket.next() => match incoming {
                None => return,
                Some(Ok(Message::Close(_))) => {
                    // The client ends the connection: the WebSocket layer has queued the close
                    // frame that answers its own, and it goes before the connection closes.
                    let _ = tokio::time::timeout(last, socket.flush()).await;
                    return;
                }
                Some(Err(error)) => match unreadable(&error) {
                    Some(farewell) => break farewell,
                    None => return,
                },
                Some(Ok(message)) => {
                    heard = Instant::now();
                    let allowed = allow();
                    overruns = if allowed { 0 } else { overruns + 1 };
                    if overruns >= MAX_OVERRUNS {
                        break flooded(&message);
                    }
                    // A ping costs a pong (the WebSocket layer's): pings and pongs draw on the
                    // allowance too, silently.
                    if let Message::Ping(_) | Message::Pong(_) = message {
                        continue;
                    }
                    let (answers, then) = answer(&mut conn, allowed, limits, message).await;
                    if let Then::Stop = then {
                        for m in answers {
                            if !deliver(&mut socket, m, last).await {
                                return;
                            }
                        }
                        break close(CLOSE_RESTART, "the game is being rebuilt: reconnect");
                    }
                    answers
                }
            },
        };
        for message in outgoing {
            if !deliver(&mut socket, message, patience).await {
                return;
            }
        }
        // The answer to an act shows the version the act made: the newest, most often. Then
        // the connection need not go round once more to find that it has nothing to send; if
        // a newer version came meanwhile, it is marked again, to be sent as usual.
        if !held && conn.is_news(&snapshots.borrow_and_update()) {
            snapshots.mark_changed();
        }
    };
    if deliver(&mut socket, farewell, last).await {
        linger(&mut socket, last).await;
    }
}

/// Reads, and drops, what the client still sends after the server's close frame, until it
/// answers with its own (or for `patience` at most). A socket closed with bytes unread is
/// reset at once, and what it had still to send is dropped: the client of a flood, whose last
/// messages were still on their way and whose answers were still queued, would lose the close
/// frame, its code and its reason.
async fn linger<R, E>(stream: &mut R, patience: Duration)
where
    R: Stream<Item = Result<Message, E>> + Unpin,
{
    let _ = tokio::time::timeout(patience, async {
        while let Some(Ok(message)) = stream.next().await {
            if let Message::Close(_) = message {
                break;
            }
        }
    })
    .await;
}

/// The close frame that tells a client why what it sent could not be read as WebSocket
/// messages, or `None` when the connection itself failed (there is nobody to tell).
fn unreadable<E: std::error::Error + 'static>(error: &E) -> Option<Message> {
    use tokio_tungstenite::tungstenite::Error;
    use tokio_tungstenite::tungstenite::error::ProtocolError;
    // The WebSocket layer's error, wherever it is in the chain of causes.
    let first: &(dyn std::error::Error + 'static) = error;
    let error = std::iter::successors(Some(first), |e| e.source())
        .find_map(|e| e.downcast_ref::<Error>())?;
    Some(match error {
        Error::Utf8(_) => close(CLOSE_NOT_UTF8, "a text message that is not UTF-8"),
        Error::Capacity(_) => close(
            CLOSE_TOO_BIG,
            &format!(
                "a message over {} KiB, more than this server reads",
                HARD_MAX_MESSAGE / 1024
            ),
        ),
        Error::Protocol(why) => {
            let what = match why {
                ProtocolError::UnmaskedFrameFromClient => {
                    "a frame not masked, as a client's must be"
                }
                ProtocolError::NonZeroReservedBits => "a frame with reserved bits set",
                ProtocolError::UnknownControlFrameType(_)
                | ProtocolError::UnknownDataFrameType(_)
                | ProtocolError::InvalidOpcode(_) => "a frame of no known type",
                ProtocolError::ControlFrameTooBig => "a control frame over 125 bytes",
                ProtocolError::FragmentedControlFrame => "a control frame in fragments",
                ProtocolError::UnexpectedContinueFrame => "a continuation with no message begun",
                ProtocolError::ExpectedFragment(_) => "a new message before the last one ended",
                _ => "frames the WebSocket protocol does not allow",
            };
            close(CLOSE_PROTOCOL, &format!("not a WebSocket frame: {what}"))
        }
        _ => return None,
    })
}

/// The close frame to a connection that went on sending past its allowance (`last`, the
/// message that made it too many, says what it sent).
fn flooded(last: &Message) -> Message {
    let what = match last {
        Message::Ping(_) | Message::Pong(_) => "pings",
        _ => "messages",
    };
    let reason = format!("{MAX_OVERRUNS} {what} in a row past the allowance: slow down");
    close(CLOSE_FLOOD, &reason)
}

/// The last message to a connection whose game's actor ended: the server is stopping, or
/// rebuilds the game.
fn actor_ended(shutdown: &watch::Receiver<bool>) -> Message {
    if *shutdown.borrow() {
        close(CLOSE_GOING_AWAY, "the server is shutting down")
    } else {
        close(CLOSE_RESTART, "the game is being rebuilt: reconnect")
    }
}

/// The answers to one client message.
async fn answer(
    conn: &mut Connection,
    allowed: bool,
    limits: Limits,
    message: Message,
) -> (Vec<Message>, Then) {
    let error = |code, message: &str| vec![text(&ApiError::new(code, message).message(None))];
    if !allowed {
        let message = "too many messages from this seat or this address: this one is ignored";
        return (error(ErrorCode::RateLimited, message), Then::Go);
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
    // A message is an object of named fields: serde would also read an array as the fields in
    // order.
    if body.trim_start().starts_with('[') {
        return (
            error(
                ErrorCode::BadMessage,
                "a message is a JSON object with named fields",
            ),
            Then::Go,
        );
    }
    match serde_json::from_str::<Act<'_>>(body.as_str()) {
        Ok(act) if act.kind == "act" => play(conn, &act.client_id, act.version, &act.action).await,
        _ => match serde_json::from_str(body.as_str()) {
            Ok(ClientMessage::Act {
                client_id,
                version,
                action,
            }) => play(conn, &client_id, version, &action).await,
            Err(e) => (
                error(ErrorCode::BadMessage, &format!("not a message: {e}")),
                Then::Go,
            ),
        },
    }
}

/// [`ClientMessage::Act`], the message nearly every client message is, read as a plain struct:
/// serde reads an enum tagged by a field through a copy of the whole message in memory first.
/// A message this does not read (another type, a field missing or of another kind) is read
/// again as a [`ClientMessage`], which accepts the same acts and says what is wrong with the
/// rest.
#[derive(serde::Deserialize)]
struct Act<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    #[serde(borrow)]
    client_id: Cow<'a, str>,
    version: usize,
    #[serde(borrow)]
    action: Cow<'a, str>,
}

/// Plays a seat's act, and answers it.
async fn play(
    conn: &mut Connection,
    client_id: &str,
    version: usize,
    action: &str,
) -> (Vec<Message>, Then) {
    let refuse = |code, message: &str, client_id: &str| {
        vec![text(
            &ApiError::new(code, message).message(Some(client_id.to_string())),
        )]
    };
    if client_id.is_empty() || client_id.chars().count() > MAX_CLIENT_ID {
        // Not echoed: an answer never grows with what a client sends.
        let message = format!("a client_id has 1 to {MAX_CLIENT_ID} characters");
        let error = ApiError::new(ErrorCode::BadMessage, message).message(None);
        return (vec![text(&error)], Then::Go);
    }
    let Some(seat) = conn.seat else {
        let message = "a spectator cannot act: join a seat and connect with its token";
        return (refuse(ErrorCode::NotASeat, message, client_id), Then::Go);
    };
    match conn
        .handle
        .act(seat, client_id.to_string(), version, action)
        .await
    {
        ActReply::Applied(snapshot) | ActReply::Duplicate(snapshot) => {
            (vec![conn.view(&snapshot, Some(client_id))], Then::Go)
        }
        ActReply::Refused(error, fresh) => {
            let stop = error.code == ErrorCode::Internal;
            let mut answers = vec![text(&error.message(Some(client_id.to_string())))];
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
    use std::pin::Pin;
    use std::task::{Context, Poll};

    use futures_util::{sink, stream};
    use serde_json::{Value, json};
    use store::{SqliteStore, Store as _};

    use crate::protocol::SeatPresence;

    use super::*;

    #[test]
    fn a_close_frame_carries_at_most_its_123_bytes_of_reason_cut_between_characters() {
        let reason_of = |m: Message| match m {
            Message::Close(Some(frame)) => frame.reason.as_str().to_owned(),
            other => panic!("not a close frame: {other:?}"),
        };
        let short = "there is no game `42`";
        assert_eq!(reason_of(close(4404, short)), short);
        // Characters of two and three bytes, so that the cut falls inside one.
        for long in ["é".repeat(100), "€".repeat(100), "a".repeat(500)] {
            let reason = reason_of(close(4404, &long));
            assert!(reason.len() <= CLOSE_REASON_MAX, "{} bytes", reason.len());
            assert!(
                reason.len() >= CLOSE_REASON_MAX - 3,
                "{} bytes",
                reason.len()
            );
            assert!(reason.ends_with('…'));
            assert!(long.starts_with(reason.trim_end_matches('…')));
        }
    }

    /// A game of Star Realms of seed 3 between two people, both seats claimed, in a store of
    /// its own.
    fn stored() -> (Arc<SqliteStore>, store::GameId) {
        let store = Arc::new(SqliteStore::open(":memory:").unwrap());
        let id = seated(&*store);
        (store, id)
    }

    /// Stores the game of [`stored`] in `store`; its number.
    fn seated(store: &impl store::Store) -> store::GameId {
        let mut record = game::GameRecord::new::<starrealms::State>(&Default::default(), 3);
        record.players = vec!["human".into(), "human".into()];
        let id = store.create(&record, true).unwrap();
        for seat in [Seat(0), Seat(1)] {
            let hash = store::TokenHash::of(&format!("token {seat}"));
            store.claim_seat(id, seat, &hash).unwrap();
        }
        id
    }

    /// The actor of game `id`, loaded from `store`, running until the sender returned stops it.
    fn start<S: store::Store>(
        store: &Arc<S>,
        id: store::GameId,
    ) -> (GameHandle, watch::Sender<bool>) {
        let stored = store.load(id).unwrap();
        let (stop, shutdown) = watch::channel(false);
        let context = crate::actor::Context::for_tests(Arc::clone(store), shutdown);
        let (handle, actor) = crate::actor::prepare(stored, context).unwrap();
        tokio::spawn(actor);
        (handle, stop)
    }

    /// The game of [`stored`], with its actor running until the sender returned stops it.
    fn started() -> (GameHandle, watch::Sender<bool>) {
        let (store, id) = stored();
        start(&store, id)
    }

    #[tokio::test]
    async fn a_view_is_the_documented_message_with_its_seats_observation_and_legal_actions() {
        let (handle, _stop) = started();
        let id = handle.id;
        let state = starrealms::State::new(&Default::default(), 3).unwrap();
        let mover = state.to_move().unwrap();

        for seat in [Seat(0), Seat(1)] {
            let mut conn = Connection {
                handle: handle.clone(),
                seat: Some(seat),
                version: None,
                log: 0,
                mode: ViewMode::Full,
                kept: Kept::default(),
                seats: None,
            };
            let snapshot = Arc::clone(&handle.snapshots.borrow());
            let Message::Text(text) = conn.view(&snapshot, Some("ack")) else {
                panic!("a view is text");
            };
            let view: Value = serde_json::from_str(text.as_str()).unwrap();
            let mut keys: Vec<&str> = view
                .as_object()
                .unwrap()
                .keys()
                .map(|k| k.as_str())
                .collect();
            keys.sort_unstable();
            let documented = [
                "ack",
                "game",
                "id",
                "legal_actions",
                "log",
                "observation",
                "over",
                "seat",
                "seats",
                "to_move",
                "type",
                "version",
                "waiting",
                "winners",
            ];
            assert_eq!(keys, documented, "{view}");
            assert_eq!(view["type"], "view");
            assert_eq!(view["game"], "starrealms");
            assert_eq!(view["id"], json!(id));
            assert_eq!(view["version"], 0);
            assert_eq!(view["seat"], json!(seat));
            assert_eq!(view["to_move"], json!(mover));
            assert_eq!(view["over"], false);
            assert_eq!(view["winners"], Value::Null);
            assert_eq!(view["ack"], "ack");
            assert_eq!(view["waiting"], json!([]));
            assert_eq!(view["log"], json!([]));
            let seats: Vec<SeatPresence> = serde_json::from_value(view["seats"].clone()).unwrap();
            assert_eq!(seats.len(), 2);
            assert!(seats.iter().all(|s| s.claimed && s.player == "human"));
            let observation = serde_json::to_string(&state.observation(seat)).unwrap();
            let expected: Value = serde_json::from_str(&observation).unwrap();
            assert_eq!(view["observation"], expected);
            let legal: Vec<String> = if seat == mover {
                state
                    .legal_actions()
                    .iter()
                    .map(|a| a.to_string())
                    .collect()
            } else {
                Vec::new()
            };
            assert_eq!(view["legal_actions"], json!(legal));
            // A Rust client reads it as the protocol's message.
            let message: ServerMessage = serde_json::from_str(text.as_str()).unwrap();
            let ServerMessage::View {
                observation,
                legal_actions,
                ..
            } = message
            else {
                panic!("not a view: {text}");
            };
            assert_eq!(
                serde_json::from_str::<Value>(observation.get()).unwrap(),
                expected
            );
            assert_eq!(legal_actions, legal);
            assert_eq!(seat == mover, !legal.is_empty());
        }
    }

    /// A client that reads its first `reads` messages, then never again: its buffers fill, and
    /// every send after waits for good.
    struct Unread {
        reads: usize,
    }

    impl Sink<Message> for Unread {
        type Error = Infallible;
        fn poll_ready(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
            if self.reads > 0 {
                Poll::Ready(Ok(()))
            } else {
                Poll::Pending
            }
        }
        fn start_send(mut self: Pin<&mut Self>, _: Message) -> Result<(), Infallible> {
            self.reads -= 1;
            Ok(())
        }
        fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
            self.poll_ready(cx)
        }
        fn poll_close(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
            self.poll_ready(cx)
        }
    }

    /// A sink and a stream as one socket, as the loop takes it.
    struct Duplex<W, R> {
        outgoing: W,
        incoming: R,
    }

    impl<W: Sink<Message> + Unpin, R: Unpin> Sink<Message> for Duplex<W, R> {
        type Error = W::Error;
        fn poll_ready(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
        ) -> Poll<Result<(), W::Error>> {
            Pin::new(&mut self.outgoing).poll_ready(cx)
        }
        fn start_send(mut self: Pin<&mut Self>, m: Message) -> Result<(), W::Error> {
            Pin::new(&mut self.outgoing).start_send(m)
        }
        fn poll_flush(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
        ) -> Poll<Result<(), W::Error>> {
            Pin::new(&mut self.outgoing).poll_flush(cx)
        }
        fn poll_close(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
        ) -> Poll<Result<(), W::Error>> {
            Pin::new(&mut self.outgoing).poll_close(cx)
        }
    }

    impl<W: Unpin, R: Stream + Unpin> Stream for Duplex<W, R> {
        type Item = R::Item;
        fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<R::Item>> {
            Pin::new(&mut self.incoming).poll_next(cx)
        }
    }

    /// Serves `seat` (`None`: a spectator) of `handle`'s game over `outgoing` and `incoming`,
    /// never replaced, with `allow` as the allowance; fails unless the loop ends within 10 s.
    async fn serve<W, R>(
        outgoing: W,
        incoming: R,
        handle: GameHandle,
        seat: Option<Seat>,
        limits: Limits,
        allow: impl FnMut() -> bool,
        stop: &watch::Sender<bool>,
    ) where
        W: Sink<Message> + Unpin,
        R: Stream<Item = Result<Message, Infallible>> + Unpin,
    {
        let allowance = Allowance {
            message: allow,
            replaced: std::future::pending(),
        };
        let serving = run(
            Duplex { outgoing, incoming },
            handle,
            seat,
            ViewMode::Full,
            limits,
            allowance,
            stop.subscribe(),
        );
        tokio::time::timeout(Duration::from_secs(10), serving)
            .await
            .expect("the loop ends");
    }

    #[tokio::test]
    async fn a_client_that_stops_reading_is_given_up_after_the_idle_timeout() {
        let (handle, stop) = started();
        let limits = Limits {
            max_message: 4096,
            ping_interval: Duration::from_millis(100),
            idle_timeout: Duration::from_millis(400),
            watch_interval: Duration::from_millis(250),
        };
        // Reads nothing; its first view; its first view and first ping. Never sends a thing.
        for reads in [0, 1, 2] {
            let started = Instant::now();
            let (game, silent) = (handle.clone(), stream::pending());
            serve(
                Unread { reads },
                silent,
                game,
                Some(Seat(0)),
                limits,
                || true,
                &stop,
            )
            .await;
            // The message that cannot go waits the idle timeout, then the loop ends.
            let waited = started.elapsed();
            assert!(
                waited >= limits.idle_timeout && waited < Duration::from_secs(5),
                "{reads} reads: given up after {waited:?}"
            );
        }
    }

    /// Runs the loop for `seat` (`None`: a spectator) of a game whose seats are claimed, over
    /// `incoming` (the client leaves when it ends), with `allow` as the allowance; returns what
    /// it sent.
    async fn sent_for(
        seat: Option<Seat>,
        incoming: Vec<Message>,
        allow: impl FnMut() -> bool,
    ) -> Vec<Message> {
        let (handle, stop) = started();
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Message>();
        let outgoing = Box::pin(sink::unfold(tx, |tx, m: Message| async move {
            tx.send(m).unwrap();
            Ok::<_, Infallible>(tx)
        }));
        let limits = Limits {
            max_message: 4096,
            ping_interval: Duration::from_secs(30),
            idle_timeout: Duration::from_secs(60),
            watch_interval: Duration::from_millis(50),
        };
        let incoming = stream::iter(incoming.into_iter().map(Ok));
        serve(outgoing, incoming, handle, seat, limits, allow, &stop).await;
        let mut sent = Vec::new();
        while let Ok(m) = rx.try_recv() {
            sent.push(m);
        }
        sent
    }

    fn code_of(m: &Message) -> Value {
        match m {
            Message::Text(t) => serde_json::from_str::<Value>(t.as_str()).unwrap()["code"].clone(),
            other => panic!("not text: {other:?}"),
        }
    }

    #[tokio::test]
    async fn a_client_that_goes_on_past_its_allowance_is_closed() {
        // Five messages within the allowance, then 145 past it.
        let mut allowed = 0;
        let allow = move || {
            allowed += 1;
            allowed <= 5
        };
        let text = Message::Text("[1, 2".into());
        let sent = sent_for(Some(Seat(0)), vec![text; 150], allow).await;
        // The first view, five answers, 99 refusals, and the close at the hundredth.
        assert_eq!(sent.len(), 1 + 5 + 99 + 1);
        assert!(sent[1..6].iter().all(|m| code_of(m) == "bad_message"));
        assert!(sent[6..105].iter().all(|m| code_of(m) == "rate_limited"));
        let Message::Close(Some(frame)) = &sent[105] else {
            panic!("not a close: {:?}", sent[105]);
        };
        assert_eq!(frame.code, CLOSE_FLOOD);
        assert_eq!(
            frame.reason.as_str(),
            "100 messages in a row past the allowance: slow down"
        );

        // Pings draw on the allowance too, without an answer of the loop's own.
        let pings = vec![Message::Ping(Default::default()); 150];
        let sent = sent_for(Some(Seat(0)), pings, || false).await;
        assert_eq!(sent.len(), 2);
        assert!(matches!(&sent[1], Message::Close(Some(f)) if f.code == CLOSE_FLOOD));

        // A message within the allowance starts the count again: never closed.
        let mut calls = 0;
        let every_other = move || {
            calls += 1;
            calls % 2 == 0
        };
        let mut incoming = vec![Message::Ping(Default::default()); 300];
        incoming.push(Message::Close(None));
        let sent = sent_for(Some(Seat(0)), incoming, every_other).await;
        assert!(sent.iter().all(|m| !matches!(m, Message::Close(_))));
    }

    #[tokio::test]
    async fn after_its_close_frame_the_loop_reads_until_the_client_answers() {
        // What the client sent before it read the frame is read and dropped, up to its answer.
        let mut read = 0;
        let mut incoming = vec![Message::Ping(Default::default()); 20];
        incoming.push(Message::Close(None));
        incoming.extend(vec![Message::Ping(Default::default()); 5]);
        let mut incoming =
            stream::iter(incoming.into_iter().map(Ok::<_, Infallible>)).inspect(|_| read += 1);
        linger(&mut incoming, Duration::from_secs(10)).await;
        drop(incoming);
        assert_eq!(read, 21);

        // A client that never answers is waited for no longer than the patience.
        let started = Instant::now();
        let mut silent = stream::pending::<Result<Message, Infallible>>();
        linger(&mut silent, Duration::from_millis(100)).await;
        let waited = started.elapsed();
        assert!(waited >= Duration::from_millis(100), "{waited:?}");
        assert!(waited < Duration::from_secs(5), "{waited:?}");
    }

    /// How long a test waits for what the loop must send.
    const PATIENCE: Duration = Duration::from_secs(5);

    #[tokio::test]
    async fn a_version_made_while_an_acts_answer_goes_out_still_reaches_the_connection() {
        let (handle, stop) = started();
        let state = starrealms::State::new(&Default::default(), 3).unwrap();
        let mover = state.to_move().unwrap();
        let other = Seat(1 - mover.0);
        // What the loop sends reaches `sent`, but the answer to the act waits for `release`,
        // and says when it is waiting through `waiting`.
        let (tx, mut sent) = tokio::sync::mpsc::unbounded_channel::<Value>();
        let (waiting, answer_waits) = tokio::sync::oneshot::channel::<()>();
        let (release, released) = tokio::sync::oneshot::channel::<()>();
        let gate = (tx, Some((waiting, released)));
        let outgoing = Box::pin(sink::unfold(
            gate,
            |(tx, mut gate), m: Message| async move {
                let Message::Text(text) = m else {
                    return Ok::<_, Infallible>((tx, gate));
                };
                let view: Value = serde_json::from_str(text.as_str()).unwrap();
                if view.get("ack").is_some()
                    && let Some((waiting, released)) = gate.take()
                {
                    waiting.send(()).unwrap();
                    released.await.unwrap();
                }
                tx.send(view).unwrap();
                Ok((tx, gate))
            },
        ));
        let (client, incoming) = tokio::sync::mpsc::unbounded_channel::<Message>();
        let incoming = Box::pin(stream::unfold(incoming, |mut incoming| async move {
            let m = incoming.recv().await?;
            Some((Ok::<_, Infallible>(m), incoming))
        }));
        let limits = Limits {
            max_message: 4096,
            ping_interval: Duration::from_secs(30),
            idle_timeout: Duration::from_secs(60),
            watch_interval: Duration::from_millis(50),
        };
        let (game, stopping) = (handle.clone(), stop.clone());
        let serving = tokio::spawn(async move {
            serve(
                outgoing,
                incoming,
                game,
                Some(mover),
                limits,
                || true,
                &stopping,
            )
            .await;
        });
        let first = tokio::time::timeout(PATIENCE, sent.recv())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(first["version"], 0);
        let act = json!({"type": "act", "client_id": "a", "version": 0, "action": "end"});
        client.send(Message::Text(act.to_string().into())).unwrap();
        // While the answer (version 1, the other seat to move) is on its way, the other seat
        // ends its turn too: version 2 gives the move back.
        tokio::time::timeout(PATIENCE, answer_waits)
            .await
            .unwrap()
            .unwrap();
        let reply = handle.act(other, "b".into(), 1, "end").await;
        assert!(matches!(reply, ActReply::Applied(ref s) if s.version == 2));
        release.send(()).unwrap();
        let answer = tokio::time::timeout(PATIENCE, sent.recv())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            (answer["version"].clone(), answer["ack"].clone()),
            (json!(1), json!("a"))
        );
        let next = tokio::time::timeout(PATIENCE, sent.recv())
            .await
            .expect("version 2 is sent")
            .unwrap();
        assert_eq!(next["version"], 2);
        assert_eq!(next["to_move"], json!(format!("{mover}")));
        drop(client);
        serving.await.unwrap();
    }

    #[tokio::test]
    async fn an_action_dropped_before_it_is_stored_ends_the_game_which_comes_back_from_the_store() {
        // The writer's first batch waits until `release` sends.
        let (entered, writing) = std::sync::mpsc::channel();
        let (release, open) = std::sync::mpsc::channel();
        let store = Arc::new(crate::writer::tests::Gated::new(entered, Some(open), false));
        let id = seated(&*store);
        let (handle, _stop) = start(&store, id);
        let mover = handle.snapshots.borrow().views.to_move().unwrap();
        let mut snapshots = handle.snapshots.clone();

        // Polled once, the action waits for the store's writer, which holds it; then its
        // connection goes.
        let mut act = Box::pin(handle.act(mover, "a".into(), 0, "end"));
        assert!(act.as_mut().now_or_never().is_none());
        tokio::task::spawn_blocking(move || writing.recv().unwrap())
            .await
            .unwrap();
        drop(act);

        // The actor ends without publishing anything (its state is ahead of what it published)...
        let ended = tokio::time::timeout(PATIENCE, async {
            while snapshots.changed().await.is_ok() {
                assert_eq!(snapshots.borrow_and_update().version, 0);
            }
        })
        .await;
        assert!(ended.is_ok(), "the actor ends");
        assert!(!handle.is_alive());
        let reply = handle.act(mover, "b".into(), 0, "end").await;
        assert!(matches!(reply, ActReply::Refused(ref e, None) if e.code == ErrorCode::Internal));
        // ... and the store, which keeps the action all the same (it was handed to the writer),
        // is the game's truth when it comes back.
        release.send(()).unwrap();
        let stored = tokio::time::timeout(PATIENCE, async {
            loop {
                let stored = store.load(id).unwrap();
                if !stored.record.actions.is_empty() {
                    break stored;
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        })
        .await
        .expect("the writer stores the action");
        assert_eq!(stored.record.actions, ["end"]);
        let (again, _stop) = start(&store, id);
        assert_eq!(again.snapshots.borrow().version, 1);
        let reply = again.act(mover, "a".into(), 0, "end").await;
        assert!(matches!(reply, ActReply::Duplicate(ref s) if s.version == 1));
    }

    #[tokio::test]
    async fn the_loop_runs_over_any_sink_and_stream() {
        let script = [
            "{\"type\": \"act\", \"client_id\": \"a\", \"version\": 0, \"action\": \"end\"}",
            "[1, 2",
        ];
        let incoming = script.map(|t| Message::Text(t.into())).to_vec();
        let sent: Vec<Value> = sent_for(None, incoming, || true)
            .await
            .into_iter()
            .map(|m| match m {
                Message::Text(t) => serde_json::from_str(t.as_str()).unwrap(),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(sent.len(), 3, "{sent:?}");
        assert_eq!(sent[0]["type"], "view");
        assert_eq!(sent[0]["seat"], Value::Null);
        assert_eq!(sent[0]["legal_actions"], json!([]));
        assert_eq!(sent[1]["code"], "not_a_seat");
        assert_eq!(sent[1]["client_id"], "a");
        assert_eq!(sent[2]["code"], "bad_message");
    }
}
