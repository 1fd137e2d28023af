//! One task per live game (an actor): it owns the game's state, its seats and its log, takes
//! commands through a channel, and publishes each new version of the game through a `watch`
//! channel that every connection to the game reads. A seat's action is played by the seat's
//! connection itself, under the lock that the actor's task takes for each of its own events:
//! the most frequent message does not travel to the actor's task and back.
//!
//! An action goes: checks (turn, version, legality) → appended to the store → applied to the
//! state → published. Nobody hears of an action the store has not kept. If the store fails,
//! the actor replies with an error and ends: the next request rebuilds the game from the store,
//! which is the truth.
//!
//! Bots play their seats here: when a bot is to move, the actor waits the think delay, lets the
//! bot decide on a blocking thread (a search takes a while) from its seat's observation, and
//! commits its choice like any other action, all while it keeps answering commands.
//!
//! The actor also knows who is at the table: which seats are claimed (a game starts once every
//! human seat is) and how many connections each seat has open. It publishes the same version
//! again, with a new presence number, whenever that changes, so that everybody sees who is
//! there without a store call.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, RwLock, Weak};
use std::time::{Duration, Instant, SystemTime};

use bots::SeatView;
use game::{Action as _, Seat, json};
use indexmap::IndexMap;
use store::{GameId, Store, StoreError, StoredGame, StoredSeat, TokenHash};
use tokio::sync::{
    Mutex as AsyncMutex, Notify, OwnedSemaphorePermit, Semaphore, mpsc, oneshot, watch,
};
use tokio::task::JoinHandle;

use crate::games::{GameKind, Kept, Served, bot_seed};
use crate::protocol::{ApiError, ErrorCode, SeatPresence};
use crate::writer::Writer;

/// Commands waiting for an actor, at most.
const QUEUE: usize = 64;

/// One action of the log.
#[derive(Clone, Debug)]
pub(crate) struct LogEntry {
    seat: Seat,
    /// The text form (what the actor's seat reads).
    text: String,
    /// What every other reader sees, if not the text.
    public: Option<String>,
    /// The id of the public card the action was about, if any.
    card: Option<String>,
}

impl LogEntry {
    /// The entry of `action`, played by `seat` in `before` (the state it is applied to).
    fn of<G: Served>(before: &G, seat: Seat, action: G::Action) -> LogEntry {
        LogEntry {
            seat,
            text: action.text(),
            public: G::public_text(action),
            card: before.log_card(action),
        }
    }
}

/// A game's log: append-only, shared by the actor (the only writer) and the connections.
#[derive(Debug, Default)]
pub(crate) struct Log(RwLock<Vec<LogEntry>>);

impl Log {
    /// Entries `from..to` as `viewer` may read them (the seat that played one reads its text,
    /// everybody else its public text), written as JSON straight from the log, without copying
    /// their texts.
    pub(crate) fn view(&self, from: usize, to: usize, viewer: Option<Seat>) -> LogView<'_> {
        LogView {
            log: self,
            from,
            to,
            viewer,
        }
    }

    fn push(&self, entry: LogEntry) {
        self.0
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .push(entry);
    }
}

/// Entries of a [`Log`] as one reader may read them ([`Log::view`]), written as a list of
/// the protocol's [`LogLine`](crate::protocol::LogLine)s.
pub(crate) struct LogView<'a> {
    log: &'a Log,
    from: usize,
    to: usize,
    viewer: Option<Seat>,
}

impl LogView<'_> {
    /// Appends the entries as a JSON list of the protocol's
    /// [`LogLine`](crate::protocol::LogLine)s.
    pub(crate) fn write_json(&self, out: &mut Vec<u8>) {
        let log = self.log.0.read().unwrap_or_else(|e| e.into_inner());
        let to = self.to.min(log.len());
        let from = self.from.min(to);
        json::list(out, log[from..to].iter().zip(from..), |out, (e, index)| {
            out.extend_from_slice(b"{\"index\":");
            json::number(out, index);
            out.extend_from_slice(b",\"seat\":");
            json::seat(out, e.seat);
            out.extend_from_slice(b",\"action\":");
            let action = match &e.public {
                Some(public) if self.viewer != Some(e.seat) => public,
                _ => &e.text,
            };
            json::string(out, action);
            if let Some(card) = &e.card {
                out.extend_from_slice(b",\"card\":");
                json::string(out, card);
            }
            out.push(b'}');
        });
    }
}

/// Views of one version of a game, whatever the game.
pub(crate) trait Views: Send + Sync {
    /// Writes what `viewer` sees (`None`: a spectator), as JSON, at the end of `out`.
    fn write_observation(&self, viewer: Option<Seat>, out: &mut Vec<u8>);
    /// Writes what `viewer` sees as the changes since `kept`, which becomes this view, and
    /// returns `true`; or the whole observation and `false` (see [`Served::write_view_changes`]).
    fn write_observation_changes(
        &self,
        viewer: Option<Seat>,
        kept: &mut Kept,
        out: &mut Vec<u8>,
    ) -> bool;
    /// Writes the legal actions in text form, as a JSON array, at the end of `out`.
    fn write_legal_actions(&self, out: &mut Vec<u8>);
    /// Who must decide.
    fn to_move(&self) -> Option<Seat>;
    /// Once over: the winners.
    fn winners(&self) -> Option<Vec<Seat>>;
}

/// A copy of the state at one version, with its legal actions (listed once: the actor checks
/// an action against them, the view of the seat to move shows them). It never leaves the
/// server: connections only take observations from it.
struct Frozen<G: Served> {
    state: G,
    legal: Vec<G::Action>,
}

impl<G: Served> Frozen<G> {
    fn of(state: &G) -> Frozen<G> {
        Frozen {
            state: state.clone(),
            legal: state.legal_actions(),
        }
    }

    /// Becomes the copy of `state`, in the room it has.
    fn copy(&mut self, state: &G) {
        self.state.clone_from(state);
        self.state.legal_actions_into(&mut self.legal);
    }
}

impl<G: Served> Views for Frozen<G> {
    fn write_observation(&self, viewer: Option<Seat>, out: &mut Vec<u8>) {
        self.state.write_view(viewer, out);
    }
    fn write_observation_changes(
        &self,
        viewer: Option<Seat>,
        kept: &mut Kept,
        out: &mut Vec<u8>,
    ) -> bool {
        self.state.write_view_changes(viewer, kept, out)
    }
    fn write_legal_actions(&self, out: &mut Vec<u8>) {
        json::list(out, &self.legal, |out, action| action.write_json_text(out));
    }
    fn to_move(&self) -> Option<Seat> {
        self.state.to_move()
    }
    fn winners(&self) -> Option<Vec<Seat>> {
        self.state.is_terminal().then(|| self.state.winners())
    }
}

/// One version of a game, as published, with who is at the table.
pub(crate) struct Snapshot {
    /// Actions played.
    pub version: usize,
    /// How many times who sits, who joined or who is connected has changed in this actor: a
    /// snapshot of the same version with a higher number is news too.
    pub presence: u64,
    /// Its views (shared by the snapshots of one version).
    pub views: Arc<dyn Views>,
    /// Every seat as the table sees it (shared by the snapshots until it changes).
    pub seats: Arc<Table>,
    /// The human seats nobody has claimed yet (empty once the game is over): until there is
    /// none, nobody acts and no bot moves.
    pub waiting: Vec<Seat>,
    /// Whether nothing happens until a person acts: the game waits for a person, is over, or
    /// its bots cannot play.
    pub waits_for_people: bool,
    /// When it was published.
    pub at: Instant,
}

impl Snapshot {
    /// The version `version` of a game in `state` (whose `views` these are), with `seats`
    /// as the table sees them (`table`, from [`table_of`]), published now.
    fn of<G: Served>(
        state: &G,
        views: Arc<dyn Views>,
        sitting: &Sitting,
        table: &Arc<Table>,
        version: usize,
        presence: u64,
        bots_broken: bool,
    ) -> Arc<Snapshot> {
        let waiting = sitting.waiting(state.is_terminal());
        let waits_for_people = !sitting.bot_to_move(state, bots_broken);
        Arc::new(Snapshot {
            version,
            presence,
            views,
            seats: Arc::clone(table),
            waiting,
            waits_for_people,
            at: Instant::now(),
        })
    }
}

/// Every seat as the table sees it: the list of [`SeatPresence`]s each view carries, written
/// once as JSON when it changes rather than in every view.
pub(crate) struct Table(String);

impl Table {
    /// The list, as JSON.
    pub fn json(&self) -> &str {
        &self.0
    }
}

/// Every seat of `seats`, with their live `connections`, as the table sees them.
fn table_of(seats: &[StoredSeat], connections: &[usize]) -> Arc<Table> {
    let seats: Vec<SeatPresence> = seats
        .iter()
        .enumerate()
        .map(|(i, s)| SeatPresence {
            seat: Seat(i as u8),
            player: s.player.clone(),
            claimed: s.is_human() && s.token_hash.is_some(),
            connected: !s.is_human() || connections.get(i).is_some_and(|&n| n > 0),
        })
        .collect();
    let json = serde_json::to_string(&seats).expect("seats serialize");
    Arc::new(Table(json))
}

/// Who sits where, as each version needs it: read from the stored seats once, and again when
/// a seat is claimed (their texts lie far apart in memory, and every version looked at each).
struct Sitting {
    /// Whether each seat is a person's.
    people: Vec<bool>,
    /// The people's seats nobody has claimed yet.
    unclaimed: Vec<Seat>,
}

impl Sitting {
    fn of(seats: &[StoredSeat]) -> Sitting {
        Sitting {
            people: seats.iter().map(StoredSeat::is_human).collect(),
            unclaimed: seats
                .iter()
                .enumerate()
                .filter(|(_, s)| s.is_human() && s.token_hash.is_none())
                .map(|(i, _)| Seat(i as u8))
                .collect(),
        }
    }

    /// Whether a bot is to move in `state`, the game started and its bots able to play (not
    /// `bots_broken`). Otherwise nothing will happen until a person acts: the game is over or
    /// waits for players, a person is to move, or the bot to move cannot play.
    fn bot_to_move<G: Served>(&self, state: &G, bots_broken: bool) -> bool {
        state
            .to_move()
            .is_some_and(|seat| !self.people[seat.index()])
            && !bots_broken
            && (state.is_terminal() || self.unclaimed.is_empty())
    }

    /// The people's seats nobody has claimed, unless the game is `over`.
    fn waiting(&self, over: bool) -> Vec<Seat> {
        if over {
            Vec::new()
        } else {
            self.unclaimed.clone()
        }
    }
}

/// "p2", "p2 and p3", "p2, p3 and p4".
fn seat_list(seats: &[Seat]) -> String {
    let names: Vec<String> = seats.iter().map(Seat::to_string).collect();
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// What a connection holds to talk to a game.
#[derive(Clone)]
pub(crate) struct GameHandle {
    /// The game's number.
    pub id: GameId,
    /// Which game.
    pub kind: GameKind,
    /// The latest version.
    pub snapshots: watch::Receiver<Arc<Snapshot>>,
    /// Who must decide (`None` once over), changed only when that changes, after the
    /// snapshot that changes it: a connection holding back views waits on this alone.
    pub turns: watch::Receiver<Option<Seat>>,
    /// The log.
    pub log: Arc<Log>,
    tx: mpsc::Sender<Command>,
    /// The actor, to play a seat's action: held by its task alone, so that it ends (and its
    /// connections hear of it) when the task does.
    acting: Weak<dyn Acting>,
    /// Arrivals and departures of seats' connections (unbounded: a departure is sent from a
    /// destructor, which cannot wait).
    presence: mpsc::UnboundedSender<Presence>,
    /// One per holder of the handle: the server's list of live games holds one.
    holders: Arc<()>,
}

/// The answer to an `act`.
pub(crate) enum ActReply {
    /// Applied: the version it made.
    Applied(Arc<Snapshot>),
    /// Applied before (the same client id): the current version.
    Duplicate(Arc<Snapshot>),
    /// Refused, nothing changed; with the current version when the client's is stale.
    Refused(ApiError, Option<Arc<Snapshot>>),
}

enum Command {
    Join {
        seat: Seat,
        hash: TokenHash,
        holder: Option<String>,
        reply: oneshot::Sender<Result<(), ApiError>>,
    },
    /// A seat was claimed in the store by another way (a campaign's seat).
    Claimed {
        seat: Seat,
        hash: TokenHash,
        holder: Option<String>,
    },
    Authenticate {
        token: String,
        reply: oneshot::Sender<Option<Seat>>,
    },
    /// The person of `seat` (the holder of `token`) leaves: bot `player` plays the seat on.
    HandOver {
        seat: Seat,
        token: String,
        player: String,
        reply: oneshot::Sender<Result<(), ApiError>>,
    },
}

/// An action being played: its answer, or `None` if the actor has ended.
type Playing<'a> = Pin<Box<dyn Future<Output = Option<ActReply>> + Send + 'a>>;

/// A game's actor as a seat's connection reaches it to play an action.
trait Acting: Send + Sync {
    /// Plays an action for `seat`; `None` if the actor has ended.
    fn act<'a>(
        &'a self,
        seat: Seat,
        client_id: String,
        version: usize,
        action: &'a str,
    ) -> Playing<'a>;
}

/// An actor under its lock, shared by its task and the connections that play actions.
impl<G: Served, S: Store> Acting for AsyncMutex<Actor<G, S>> {
    fn act<'a>(
        &'a self,
        seat: Seat,
        client_id: String,
        version: usize,
        action: &'a str,
    ) -> Playing<'a> {
        Box::pin(async move {
            let mut actor = self.lock().await;
            if actor.ended || actor.failed || actor.rebuild || *actor.context.shutdown.borrow() {
                // The actor's task ends (or has): it hears of it at once.
                actor.wake.notify_one();
                return None;
            }
            // Should this future be dropped before the action is stored (its connection's
            // task ended), the actor's task hears of it, and ends (see `Actor::commit`).
            let mut wake = WakeOnDrop {
                notify: Arc::clone(&actor.wake),
                armed: true,
            };
            let reply = actor.act(seat, client_id, version, action).await;
            // The actor's task starts the move of a bot now to move, or ends when the store
            // failed.
            wake.armed = actor.failed || actor.bot_to_move();
            Some(reply)
        })
    }
}

/// Wakes an actor's task when dropped, if armed.
struct WakeOnDrop {
    notify: Arc<Notify>,
    armed: bool,
}

impl Drop for WakeOnDrop {
    fn drop(&mut self) {
        if self.armed {
            self.notify.notify_one();
        }
    }
}

/// A seat's connection opens (answered once the actor has published it) or closes.
enum Presence {
    Arrive(Seat, oneshot::Sender<()>),
    Leave(Seat),
}

/// A seat's connection at the table: dropping it tells the actor the connection closed.
pub(crate) struct AtTable {
    seat: Seat,
    presence: mpsc::UnboundedSender<Presence>,
}

impl Drop for AtTable {
    fn drop(&mut self) {
        // The actor may have ended: then nobody needs to know.
        let _ = self.presence.send(Presence::Leave(self.seat));
    }
}

fn gone() -> ApiError {
    ApiError::new(
        ErrorCode::Internal,
        "the game stopped (the server is restarting it or shutting down): reconnect",
    )
}

impl GameHandle {
    /// Whether the actor still runs.
    pub(crate) fn is_alive(&self) -> bool {
        !self.tx.is_closed()
    }

    /// Whether the game may leave memory: nobody but the server's list holds its handle, and
    /// for `ttl` nothing has happened and nothing will until a person acts.
    pub(crate) fn is_idle(&self, ttl: Duration) -> bool {
        let now = self.snapshots.borrow();
        Arc::strong_count(&self.holders) == 1 && now.waits_for_people && now.at.elapsed() >= ttl
    }

    /// The actor's answer to a command; `None` if the actor ended without one.
    async fn ask<T>(&self, make: impl FnOnce(oneshot::Sender<T>) -> Command) -> Option<T> {
        let (reply, answer) = oneshot::channel();
        self.tx.send(make(reply)).await.ok()?;
        answer.await.ok()
    }

    /// Gives a free human seat to the holder of the token of `hash`, the client `holder` (as
    /// the store keeps it, to count the seats each client holds).
    pub(crate) async fn join(
        &self,
        seat: Seat,
        hash: TokenHash,
        holder: Option<String>,
    ) -> Result<(), ApiError> {
        self.ask(|reply| Command::Join {
            seat,
            hash,
            holder,
            reply,
        })
        .await
        .unwrap_or_else(|| Err(gone()))
    }

    /// Tells the game that a seat claimed elsewhere (a campaign's) is now held by the holder
    /// of the token of `hash`, the client `holder`.
    pub(crate) async fn claimed(&self, seat: Seat, hash: TokenHash, holder: Option<String>) {
        let command = Command::Claimed { seat, hash, holder };
        let _ = self.tx.send(command).await;
    }

    /// Notes a connection of `seat` at the table until the returned guard is dropped; returns
    /// once the actor has published it (so that the connection's first view shows it).
    pub(crate) async fn arrive(&self, seat: Seat) -> AtTable {
        let (done, published) = oneshot::channel();
        // The arrival and the departure travel in one channel, in that order, even if this
        // future is dropped before the actor answers.
        let _ = self.presence.send(Presence::Arrive(seat, done));
        let guard = AtTable {
            seat,
            presence: self.presence.clone(),
        };
        let _ = published.await;
        guard
    }

    /// The person of `seat`, the holder of `token`, leaves the game and bot `player` plays the
    /// seat on; once this returns `Ok`, the actor is ending (see [`GameHandle::ended`]), and the
    /// game must be loaded again.
    pub(crate) async fn hand_over(
        &self,
        seat: Seat,
        token: String,
        player: String,
    ) -> Result<(), ApiError> {
        self.ask(|reply| Command::HandOver {
            seat,
            token,
            player,
            reply,
        })
        .await
        .unwrap_or_else(|| Err(gone()))
    }

    /// Returns once the actor has ended.
    pub(crate) async fn ended(&self) {
        self.tx.closed().await;
    }

    /// The seat whose token this is, if any.
    pub(crate) async fn authenticate(&self, token: String) -> Result<Option<Seat>, ApiError> {
        self.ask(|reply| Command::Authenticate { token, reply })
            .await
            .ok_or_else(gone)
    }

    /// Plays an action for `seat`.
    pub(crate) async fn act(
        &self,
        seat: Seat,
        client_id: String,
        version: usize,
        action: &str,
    ) -> ActReply {
        let played = match self.acting.upgrade() {
            Some(actor) => actor.act(seat, client_id, version, action).await,
            None => None,
        };
        played.unwrap_or_else(|| ActReply::Refused(gone(), None))
    }
}

/// Closes `queue` and drops what it still holds, and what is sent into it until every send under
/// way has landed (a bounded queue counts a send from its reserved place to its push).
async fn closing<T>(queue: &mut mpsc::Receiver<T>) {
    queue.close();
    while queue.recv().await.is_some() {}
}

/// Runs `f` in a task of its own and waits for it: should the caller be dropped midway (its
/// client gone), `f` still runs to its end.
pub(crate) async fn to_its_end<T: Send + 'static>(
    f: impl Future<Output = T> + Send + 'static,
) -> T {
    match tokio::spawn(f).await {
        Ok(v) => v,
        Err(e) => std::panic::resume_unwind(e.into_panic()),
    }
}

/// Runs `f` on a blocking thread (store calls, bot decisions) and waits for it.
pub(crate) async fn blocking<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    match tokio::task::spawn_blocking(f).await {
        Ok(v) => v,
        Err(e) => std::panic::resume_unwind(e.into_panic()),
    }
}

/// What every actor shares with the server.
pub(crate) struct Context<S> {
    /// The store.
    pub store: Arc<S>,
    /// The thread that writes actions, new games and claimed seats to the store.
    pub writer: Writer,
    /// How long a bot waits before it plays.
    pub bot_delay: Duration,
    /// How long a human seat stays open.
    pub open_seat_ttl: Duration,
    /// Turns true when the server stops.
    pub shutdown: watch::Receiver<bool>,
    /// Raised when the server stops: searches end early.
    pub stop_searches: Arc<AtomicBool>,
    /// The bots' turns to decide.
    pub bots: BotQueue,
    /// The language of the server's log.
    pub log_lang: i18n::Lang,
}

impl<S> Clone for Context<S> {
    fn clone(&self) -> Self {
        Context {
            store: Arc::clone(&self.store),
            writer: self.writer.clone(),
            bot_delay: self.bot_delay,
            open_seat_ttl: self.open_seat_ttl,
            shutdown: self.shutdown.clone(),
            stop_searches: Arc::clone(&self.stop_searches),
            bots: self.bots.clone(),
            log_lang: self.log_lang,
        }
    }
}

impl<S: Store> Context<S> {
    /// A context for tests: no delay, one bot at a time.
    #[cfg(test)]
    pub(crate) fn for_tests(store: Arc<S>, shutdown: watch::Receiver<bool>) -> Context<S> {
        Context {
            writer: Writer::start(Arc::clone(&store)),
            store,
            bot_delay: Duration::ZERO,
            open_seat_ttl: Duration::from_secs(3600),
            shutdown,
            stop_searches: Arc::new(AtomicBool::new(false)),
            bots: BotQueue::new(1),
            log_lang: i18n::Lang::En,
        }
    }
}

/// The bots' turns to decide: a few decisions at once, handed out in turn (the semaphores are
/// fair). The games of bots alone share one place in that queue, and so do the games of each
/// client (the one that holds their first seat held): however many games anyone starts, a game
/// where a person waits for a bot is behind one decision of each other client's games at most,
/// and one of the games of bots alone.
#[derive(Clone)]
pub(crate) struct BotQueue {
    /// One permit per decision made at once.
    deciding: Arc<Semaphore>,
    /// One permit: the place of the games of bots alone in `deciding`'s queue.
    alone: Arc<Semaphore>,
    /// Each client's place in `deciding`'s queue (one permit), while one of its games asks
    /// for a turn or decides.
    clients: Arc<std::sync::Mutex<HashMap<String, Weak<Semaphore>>>>,
}

/// Whose game asks the bots' queue for a turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Whose {
    /// A game of bots alone: nobody's seat in it.
    Bots,
    /// A game of people, the first of whose seats held is this client's.
    Client(String),
    /// A game of people, none of whose seats says who holds it (a seat yet to be taken, or
    /// taken long ago): it waits in line alone.
    Unknown,
}

/// A turn to decide, until dropped.
pub(crate) struct BotTurn {
    _deciding: OwnedSemaphorePermit,
    _place: Option<OwnedSemaphorePermit>,
}

impl BotQueue {
    /// A queue of `at_once` decisions at once (at least one).
    pub fn new(at_once: usize) -> BotQueue {
        BotQueue {
            deciding: Arc::new(Semaphore::new(at_once.max(1))),
            alone: Arc::new(Semaphore::new(1)),
            clients: Arc::default(),
        }
    }

    /// Waits for a turn to decide for a game `whose`; `None` once the queue is closed.
    pub async fn turn(&self, whose: Whose) -> Option<BotTurn> {
        // A game of bots alone, or of a client, takes their one place first, and keeps it
        // while it decides.
        let place = match whose {
            Whose::Bots => Some(Arc::clone(&self.alone)),
            Whose::Client(client) => Some(self.place_of(client)),
            Whose::Unknown => None,
        };
        let place = match place {
            Some(place) => Some(place.acquire_owned().await.ok()?),
            None => None,
        };
        let deciding = Arc::clone(&self.deciding).acquire_owned().await.ok()?;
        Some(BotTurn {
            _deciding: deciding,
            _place: place,
        })
    }

    /// The place of `client`'s games, made if none of them holds or waits for it.
    fn place_of(&self, client: String) -> Arc<Semaphore> {
        let mut clients = self.clients.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(place) = clients.get(&client).and_then(Weak::upgrade) {
            return place;
        }
        // The places nobody holds or waits for go.
        clients.retain(|_, place| place.strong_count() > 0);
        let place = Arc::new(Semaphore::new(1));
        if self.deciding.is_closed() {
            place.close();
        }
        clients.insert(client, Arc::downgrade(&place));
        place
    }

    /// Closes the queue: every turn waited for, and every one asked for from now on, is `None`.
    pub fn close(&self) {
        self.deciding.close();
        self.alone.close();
        let clients = self.clients.lock().unwrap_or_else(|e| e.into_inner());
        for place in clients.values().filter_map(Weak::upgrade) {
            place.close();
        }
    }
}

/// An actor ready to run: nothing happens until it is spawned.
pub(crate) type Ready = std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>>;

/// Rebuilds a stored game by replaying its record, and returns its handle and its actor, to be
/// spawned by the caller (or dropped, if another actor of the game won the race).
pub(crate) fn prepare<S: Store>(
    stored: StoredGame,
    context: Context<S>,
) -> Result<(GameHandle, Ready), String> {
    match GameKind::of_record(&stored.record.game) {
        Some(GameKind::Starrealms) => Actor::<starrealms::State, S>::prepare(stored, context),
        Some(GameKind::Cosmique) => Actor::<cosmique::State, S>::prepare(stored, context),
        None => Err(format!("unknown game `{}`", stored.record.game)),
    }
}

type BotChoice<A> = Result<(usize, Seat, A), String>;

/// Shows `bot`, which plays `seat`, every public action the others took from `start` on
/// ([`bots::Bot::watch`]), each with its seat's view just before it.
fn show_history<G: Served>(
    bot: &mut dyn bots::Bot<G>,
    seat: Seat,
    start: &G,
    actions: &[G::Action],
) {
    let mut state = start.clone();
    for &action in actions {
        let Some(by) = state.to_move() else { return };
        if by != seat && state.is_public(&action) {
            bot.watch(&SeatView::of_state(&state, seat), by, action);
        }
        if state.apply(action).is_err() {
            return;
        }
    }
}

struct Actor<G: Served, S: Store> {
    id: GameId,
    context: Context<S>,
    /// When the game was created (its open seats expire from then); unknown if the stored
    /// time does not read, and then its seats stay open.
    created: Option<SystemTime>,
    state: G,
    seed: u64,
    seats: Vec<StoredSeat>,
    /// Who sits where, from `seats`: made again when a seat is claimed ([`Actor::claim`]).
    sitting: Sitting,
    /// Live connections of each seat.
    connections: Vec<usize>,
    /// The seats as the table sees them, from `seats` and `connections`: made again when who
    /// is at the table changes.
    table: Arc<Table>,
    /// Changes of who is at the table so far (see [`Snapshot::presence`]).
    presence: u64,
    version: usize,
    log: Arc<Log>,
    /// For each seat: client id → the index of the action it made. A map that keeps each key's
    /// hash: a long game's map grows many times, and one that hashed every key again at each
    /// growth spent over 1% of the server's time doing it under load.
    client_ids: Vec<IndexMap<String, usize>>,
    snapshots: watch::Sender<Arc<Snapshot>>,
    turns: watch::Sender<Option<Seat>>,
    /// A bot failed (unknown here, or it panicked): no more bot moves in this actor.
    bots_broken: bool,
    /// When a bot plays a seat: the game's start and every action since, to show a bot what
    /// the others did before it decides ([`bots::Bot::watch`]; a bot is made afresh for each
    /// decision, so a restart changes nothing of what it knows).
    history: Option<(Arc<G>, Vec<G::Action>)>,
    /// The store failed (or an action's commit was dropped before the store answered): the
    /// actor ends after answering.
    failed: bool,
    /// The game's seats changed in the store (a person left, a bot took the seat): the actor
    /// ends, and the game is built again from the store, its new bot with it.
    rebuild: bool,
    /// Whether the actor's task has ended: no action is played after it.
    ended: bool,
    /// Wakes the actor's task after an action played by a connection, when it has something
    /// to do (a bot to move, or ending).
    wake: Arc<Notify>,
    /// The copy of the state the last version published shows.
    frozen: Arc<Frozen<G>>,
    /// The copy of the version before, kept to be used again (see [`Actor::publish`]).
    spare: Option<Arc<Frozen<G>>>,
}

impl<G: Served, S: Store> Actor<G, S> {
    fn prepare(stored: StoredGame, context: Context<S>) -> Result<(GameHandle, Ready), String> {
        let record = &stored.record;
        let mut state: G = record.initial_state().map_err(|e| e.to_string())?;
        let mut history = stored.seats.iter().any(|s| !s.is_human()).then(|| {
            (
                Arc::new(state.clone()),
                Vec::with_capacity(record.actions.len()),
            )
        });
        if stored.seats.len() != state.num_seats() {
            return Err(format!(
                "{} seats stored for a game of {}",
                stored.seats.len(),
                state.num_seats()
            ));
        }
        let log = Arc::new(Log::default());
        let mut client_ids = vec![IndexMap::new(); stored.seats.len()];
        for (step, text) in record.actions.iter().enumerate() {
            let fail = |e: String| format!("action {step} (`{text}`): {e}");
            let seat = state
                .to_move()
                .ok_or_else(|| fail("the game is over".into()))?;
            let action = G::Action::parse(text).map_err(|e| fail(e.to_string()))?;
            let entry = LogEntry::of(&state, seat, action);
            state.apply(action).map_err(|e| fail(e.to_string()))?;
            log.push(entry);
            if let Some((_, actions)) = &mut history {
                actions.push(action);
            }
            if let Some(Some(c)) = stored.client_ids.get(step) {
                client_ids[seat.index()].insert(c.clone(), step);
            }
        }
        let version = record.actions.len();
        let connections = vec![0; stored.seats.len()];
        let frozen = Arc::new(Frozen::of(&state));
        let views: Arc<dyn Views> = Arc::clone(&frozen) as Arc<dyn Views>;
        let table = table_of(&stored.seats, &connections);
        let sitting = Sitting::of(&stored.seats);
        let first = Snapshot::of(&state, views, &sitting, &table, version, 0, false);
        let (snapshots, receiver) = watch::channel(first);
        let (turns, turns_receiver) = watch::channel(state.to_move());
        let (tx, rx) = mpsc::channel(QUEUE);
        let (presence_tx, presence_rx) = mpsc::unbounded_channel();
        let handle_log = Arc::clone(&log);
        let created = humantime::parse_rfc3339(&stored.created_at).ok();
        let shutdown = context.shutdown.clone();
        let actor = Actor {
            id: stored.id,
            context,
            created,
            state,
            seed: record.seed,
            seats: stored.seats,
            sitting,
            connections,
            table,
            presence: 0,
            version,
            log,
            client_ids,
            snapshots,
            turns,
            bots_broken: false,
            history,
            failed: false,
            rebuild: false,
            ended: false,
            wake: Arc::new(Notify::new()),
            frozen,
            spare: None,
        };
        let shared = Arc::new(AsyncMutex::new(actor));
        let handle = GameHandle {
            id: stored.id,
            kind: G::KIND,
            snapshots: receiver,
            turns: turns_receiver,
            log: handle_log,
            tx,
            acting: Arc::downgrade(&shared) as Weak<dyn Acting>,
            presence: presence_tx,
            holders: Arc::new(()),
        };
        let finished = stored.winners.is_some();
        Ok((
            handle,
            Box::pin(Actor::run(shared, rx, presence_rx, shutdown, finished)),
        ))
    }

    /// The actor's task: each event (a command, a change of presence, a bot's choice, an
    /// action a connection played) handled under the actor's lock, until the server stops,
    /// the store fails or nobody holds the game any more.
    async fn run(
        shared: Arc<AsyncMutex<Actor<G, S>>>,
        mut rx: mpsc::Receiver<Command>,
        mut presence: mpsc::UnboundedReceiver<Presence>,
        mut shutdown: watch::Receiver<bool>,
        finished_in_store: bool,
    ) {
        let wake = {
            let actor = shared.lock().await;
            // A game over in its log but not in the store (its last action stored apart from
            // its result: by an older server, or by a store that writes them one after the
            // other) is marked over now.
            if actor.state.is_terminal() && !finished_in_store {
                actor.store_finish().await;
            }
            Arc::clone(&actor.wake)
        };
        let mut bot: Option<JoinHandle<BotChoice<G::Action>>> = None;
        enum Event<A> {
            Stop,
            Woken,
            Command(Command),
            Presence(Presence),
            Bot(BotChoice<A>),
        }
        loop {
            {
                let actor = shared.lock().await;
                if *shutdown.borrow() || actor.failed || actor.rebuild {
                    break;
                }
                if bot.is_none() {
                    bot = actor.think();
                }
            }
            let event = tokio::select! {
                biased;
                _ = shutdown.changed() => Event::Stop,
                command = rx.recv() => command.map_or(Event::Stop, Event::Command),
                change = presence.recv() => change.map_or(Event::Stop, Event::Presence),
                () = wake.notified() => Event::Woken,
                choice = async { bot.as_mut().expect("guarded").await }, if bot.is_some() => {
                    Event::Bot(choice.unwrap_or_else(|e| Err(e.to_string())))
                }
            };
            let mut actor = shared.lock().await;
            match event {
                Event::Stop => break,
                Event::Woken => {}
                Event::Command(command) => actor.command(command).await,
                Event::Presence(change) => actor.presence(change),
                Event::Bot(choice) => {
                    bot = None;
                    actor.bot_move(choice).await;
                }
            }
        }
        shared.lock().await.ended = true;
        if let Some(task) = bot {
            task.abort();
        }
        // What was sent as the actor ended is read and dropped, each sender told (its reply
        // dropped): a queue merely dropped may leave a message pushed as it closes unread, its
        // reply alive as long as any handle, and its sender waiting for good.
        closing(&mut rx).await;
        presence.close();
        while presence.recv().await.is_some() {}
    }

    /// The human seats nobody has claimed yet, while the game is not over.
    fn waiting(&self) -> Vec<Seat> {
        self.sitting.waiting(self.state.is_terminal())
    }

    /// Whether a bot is to move ([`Sitting::bot_to_move`]).
    fn bot_to_move(&self) -> bool {
        self.sitting.bot_to_move(&self.state, self.bots_broken)
    }

    /// Whose game this is, for the bots' queue: nobody's (bots alone), or the client that holds
    /// its first seat held (a person's game).
    fn whose(&self) -> Whose {
        if !self.sitting.people.contains(&true) {
            return Whose::Bots;
        }
        let holder = self
            .seats
            .iter()
            .filter(|s| s.is_human())
            .find_map(|s| s.holder.clone());
        holder.map_or(Whose::Unknown, Whose::Client)
    }

    /// Starts the bot to move thinking, if [`Actor::bot_to_move`].
    fn think(&self) -> Option<JoinHandle<BotChoice<G::Action>>> {
        if !self.bot_to_move() {
            return None;
        }
        let seat = self.state.to_move()?;
        let name = self.seats[seat.index()].player.clone();
        let observation = self.state.observation(seat);
        let legal = self.frozen.legal.clone();
        let seed = bot_seed(self.seed, seat, self.version);
        let (version, delay) = (self.version, self.context.bot_delay);
        let bots = self.context.bots.clone();
        let whose = self.whose();
        let stop = Arc::clone(&self.context.stop_searches);
        let history = self
            .history
            .as_ref()
            .map(|(start, actions)| (Arc::clone(start), actions.clone()));
        Some(tokio::spawn(async move {
            tokio::time::sleep(delay).await;
            // Bots decide in turn, a few at once, so that they never take every core.
            let turn = bots
                .turn(whose)
                .await
                .ok_or_else(|| "the server is stopping".to_string())?;
            blocking(move || {
                let _turn = turn;
                let mut bot = G::bot(&name, seed)?;
                bot.stop_when(stop);
                // A person waits for this move: never longer than the levels promise.
                bot.cap_time(bots::MOVE_TIME_CAP);
                if let Some((start, actions)) = history {
                    show_history(&mut *bot, seat, &start, &actions);
                }
                let choice = bot.choose(&SeatView::of_observation(seat, observation), &legal);
                if !legal.contains(&choice) {
                    return Err(format!("bot `{name}` chose an illegal action: {choice}"));
                }
                Ok((version, seat, choice))
            })
            .await
        }))
    }

    async fn bot_move(&mut self, choice: BotChoice<G::Action>) {
        match choice {
            Ok((version, seat, action))
                if version == self.version && self.state.to_move() == Some(seat) =>
            {
                if let Err(e) = self.commit(seat, action, None).await {
                    crate::log(
                        self.context.log_lang,
                        "serve.log.bot_action",
                        &[("id", &self.id), ("error", &e)],
                    );
                }
            }
            Ok(_) => {} // The game moved on meanwhile: the next think starts afresh.
            Err(e) => {
                crate::log(
                    self.context.log_lang,
                    "serve.log.bots_stop",
                    &[("id", &self.id), ("error", &e)],
                );
                self.bots_broken = true;
                self.publish();
            }
        }
    }

    async fn command(&mut self, command: Command) {
        match command {
            Command::Join {
                seat,
                hash,
                holder,
                reply,
            } => {
                let answer = self.join(seat, hash, holder).await;
                let _ = reply.send(answer);
            }
            Command::Claimed { seat, hash, holder } => {
                if let Some(s) = self.seats.get(seat.index())
                    && s.is_human()
                    && s.token_hash.is_none()
                {
                    self.claim(seat, hash, holder);
                }
            }
            Command::Authenticate { token, reply } => {
                let seat = self
                    .seats
                    .iter()
                    .position(|s| s.token_hash.is_some_and(|h| h.matches(&token)))
                    .map(|i| Seat(i as u8));
                let _ = reply.send(seat);
            }
            Command::HandOver {
                seat,
                token,
                player,
                reply,
            } => {
                let answer = self.hand_over(seat, &token, player).await;
                let _ = reply.send(answer);
            }
        }
    }

    /// The person of `seat`, who holds `token`, leaves the game: `player`, a bot, takes the
    /// seat in the store, and the actor ends so that the game is built again with it (every
    /// connection is told to reconnect; the seat's token no longer opens it).
    async fn hand_over(&mut self, seat: Seat, token: &str, player: String) -> Result<(), ApiError> {
        let id = self.id;
        let Some(current) = self.seats.get(seat.index()) else {
            return Err(StoreError::UnknownSeat { id, seat }.into());
        };
        if !current.is_human() {
            return Err(StoreError::NotHuman { id, seat }.into());
        }
        if !current.token_hash.is_some_and(|h| h.matches(token)) {
            return Err(ApiError::new(
                ErrorCode::BadToken,
                format!("this token is not seat {seat}'s of game {id}"),
            ));
        }
        if self.state.is_terminal() {
            return Err(StoreError::Finished(id).into());
        }
        G::bot(&player, 0).map_err(|e| ApiError::new(ErrorCode::Internal, e.to_string()))?;
        let store = Arc::clone(&self.context.store);
        blocking(move || store.leave_seat(id, seat, &player)).await?;
        self.rebuild = true;
        Ok(())
    }

    /// A seat's connection opened or closed: publishes when the seat's presence changes.
    fn presence(&mut self, change: Presence) {
        match change {
            Presence::Arrive(seat, done) => {
                if let Some(n) = self.connections.get_mut(seat.index()) {
                    *n += 1;
                    if *n == 1 {
                        self.presence_changed();
                    }
                }
                let _ = done.send(());
            }
            Presence::Leave(seat) => {
                if let Some(n) = self.connections.get_mut(seat.index()) {
                    *n = n.saturating_sub(1);
                    if *n == 0 {
                        self.presence_changed();
                    }
                }
            }
        }
    }

    /// Gives `seat` to the holder of the token of `hash`, and publishes it.
    fn claim(&mut self, seat: Seat, hash: TokenHash, holder: Option<String>) {
        self.seats[seat.index()].token_hash = Some(hash);
        self.seats[seat.index()].holder = holder;
        self.sitting = Sitting::of(&self.seats);
        self.presence_changed();
    }

    /// Publishes the current version again, for who is at the table changed (a seat claimed,
    /// a connection come or gone).
    fn presence_changed(&mut self) {
        self.presence += 1;
        self.table = table_of(&self.seats, &self.connections);
        self.publish_views(Arc::clone(&self.frozen) as Arc<dyn Views>);
    }

    async fn join(
        &mut self,
        seat: Seat,
        hash: TokenHash,
        holder: Option<String>,
    ) -> Result<(), ApiError> {
        let id = self.id;
        let Some(current) = self.seats.get(seat.index()) else {
            return Err(StoreError::UnknownSeat { id, seat }.into());
        };
        if !current.is_human() {
            return Err(StoreError::NotHuman { id, seat }.into());
        }
        if current.token_hash.is_some() {
            return Err(StoreError::SeatTaken { id, seat }.into());
        }
        if self.state.is_terminal() {
            return Err(StoreError::Finished(id).into());
        }
        if open_seats_expired(self.created, self.context.open_seat_ttl) {
            return Err(ApiError::new(
                ErrorCode::SeatExpired,
                format!(
                    "seat {seat} of game {id} waited {} for somebody and is closed",
                    waited(self.context.open_seat_ttl)
                ),
            ));
        }
        self.context
            .writer
            .claim(id, seat, hash, holder.clone())
            .await?;
        self.claim(seat, hash, holder);
        Ok(())
    }

    fn current(&self) -> Arc<Snapshot> {
        Arc::clone(&self.snapshots.borrow())
    }

    async fn act(&mut self, seat: Seat, client_id: String, version: usize, text: &str) -> ActReply {
        let refuse = |code, message: String| ActReply::Refused(ApiError::new(code, message), None);
        if self
            .client_ids
            .get(seat.index())
            .is_some_and(|ids| ids.contains_key(&client_id))
        {
            return ActReply::Duplicate(self.current());
        }
        let Some(to_move) = self.state.to_move() else {
            return refuse(ErrorCode::GameOver, "the game is over".into());
        };
        let waiting = self.waiting();
        if !waiting.is_empty() {
            return refuse(
                ErrorCode::WaitingForPlayers,
                format!(
                    "the game starts when every seat is taken: waiting for {}",
                    seat_list(&waiting)
                ),
            );
        }
        if version != self.version {
            let message = format!(
                "version {version} is not the game's: it is at version {}",
                self.version
            );
            return ActReply::Refused(
                ApiError::new(ErrorCode::StaleVersion, message),
                Some(self.current()),
            );
        }
        if to_move != seat {
            return refuse(
                ErrorCode::NotYourTurn,
                format!("{to_move} must decide, not {seat}"),
            );
        }
        let action = match G::Action::parse(text) {
            Ok(a) => a,
            Err(e) => {
                let reason = match &e {
                    game::ActionError::Parse { why, .. } => why.as_deref().cloned(),
                    _ => None,
                };
                return ActReply::Refused(
                    ApiError::new(ErrorCode::IllegalAction, e.to_string()).with_reason(reason),
                    None,
                );
            }
        };
        // The state is the last version published: its actions are listed already.
        if !self.frozen.legal.contains(&action) {
            // The game says why (on a copy: a refused action changes nothing anyway).
            let (message, reason) = match self.state.clone().apply(action) {
                Err(e) => {
                    let reason = match &e {
                        game::ActionError::Illegal { reason, .. } => reason.as_deref().cloned(),
                        _ => None,
                    };
                    (e.to_string(), reason)
                }
                Ok(()) => (format!("`{action}` is not legal now"), None),
            };
            return ActReply::Refused(
                ApiError::new(ErrorCode::IllegalAction, message).with_reason(reason),
                None,
            );
        }
        match self.commit(seat, action, Some(client_id)).await {
            Ok(()) => ActReply::Applied(self.current()),
            Err(e) => ActReply::Refused(
                ApiError::new(
                    ErrorCode::Internal,
                    format!("the action could not be stored ({e}); reconnect"),
                ),
                None,
            ),
        }
    }

    /// Applies, stores and publishes a legal action of `seat`. If the store refuses or fails,
    /// nothing is published and the actor is marked to end (its state, ahead of the store,
    /// ends with it).
    async fn commit(
        &mut self,
        seat: Seat,
        action: G::Action,
        client_id: Option<String>,
    ) -> Result<(), StoreError> {
        let entry = LogEntry::of(&self.state, seat, action);
        // Applied before it is stored, so that the action ending the game takes the result
        // into the store with it, in the same commit.
        self.state.apply_legal(action);
        let winners = self.state.is_terminal().then(|| self.state.winners());
        // Until the store answers, the state is ahead of the version published: should this
        // future be dropped meanwhile (its connection's task ended), the actor ends as if the
        // store had failed, and the game is rebuilt from the store.
        self.failed = true;
        let appended = self
            .context
            .writer
            .append(
                self.id,
                self.version,
                entry.text.clone(),
                client_id.clone(),
                winners,
            )
            .await;
        // If the store failed, it is the truth and this actor may be behind it: end (`failed`
        // stays), and let the next request rebuild the game from the store.
        appended?;
        self.failed = false;
        self.log.push(entry);
        if let Some((_, actions)) = &mut self.history {
            actions.push(action);
        }
        if let Some(c) = client_id {
            self.client_ids[seat.index()].insert(c, self.version);
        }
        self.version += 1;
        self.publish();
        Ok(())
    }

    /// Publishes the current version.
    fn publish(&mut self) {
        // The copy of the version before last is used again when nobody holds it any more
        // (no connection is still writing a view of it): its room takes the new copy.
        let mut spare = self.spare.take();
        let views = match spare.as_mut().and_then(Arc::get_mut) {
            Some(frozen) => {
                frozen.copy(&self.state);
                spare.expect("just used")
            }
            None => Arc::new(Frozen::of(&self.state)),
        };
        let previous = std::mem::replace(&mut self.frozen, Arc::clone(&views));
        self.publish_views(views);
        self.spare = Some(previous);
    }

    /// Publishes the current version with its `views`.
    fn publish_views(&self, views: Arc<dyn Views>) {
        let snapshot = Snapshot::of(
            &self.state,
            views,
            &self.sitting,
            &self.table,
            self.version,
            self.presence,
            self.bots_broken,
        );
        self.snapshots.send_replace(snapshot);
        let to_move = self.state.to_move();
        self.turns.send_if_modified(|turn| {
            let changed = *turn != to_move;
            *turn = to_move;
            changed
        });
    }

    /// Marks the game over in the store with its winners; a failure is told to the log only
    /// (the game plays on as its log says, and the next start tries again).
    async fn store_finish(&self) {
        let (store, id, winners) = (
            Arc::clone(&self.context.store),
            self.id,
            self.state.winners(),
        );
        if let Err(e) = blocking(move || store.finish(id, &winners)).await {
            crate::log(
                self.context.log_lang,
                "serve.log.result",
                &[("id", &self.id), ("error", &e)],
            );
        }
    }
}

/// Whether the open seats of a game `created` then have expired, `ttl` after it (a game whose
/// creation time is unknown keeps them open).
pub(crate) fn open_seats_expired(created: Option<SystemTime>, ttl: Duration) -> bool {
    created
        .and_then(|c| c.elapsed().ok())
        .is_some_and(|age| age > ttl)
}

/// How long an open seat waited, in words: whole minutes, or seconds under two minutes.
fn waited(ttl: Duration) -> String {
    let secs = ttl.as_secs();
    match secs {
        1 => "1 second".into(),
        s if s < 120 => format!("{s} seconds"),
        s => format!("{} minutes", s / 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::LogLine;
    use starrealms::{Action, State};
    use std::sync::Mutex;

    /// A command pushed into the queue as the actor ends, from a place reserved before, is
    /// still read and dropped: its sender hears that no answer comes. A queue merely dropped
    /// leaves it unread, and the sender waits until the timeout.
    #[tokio::test]
    async fn a_command_sent_as_the_actor_ends_is_dropped_and_its_sender_told() {
        for drained in [true, false] {
            let (tx, mut rx) = mpsc::channel(QUEUE);
            // The place in the queue taken while the actor runs.
            let place = tx.reserve().await.unwrap();
            let ending = tokio::spawn(async move {
                if drained {
                    closing(&mut rx).await;
                }
            });
            tokio::task::yield_now().await;
            // The command put there as the queue closes.
            let (reply, answer) = oneshot::channel::<Option<Seat>>();
            place.send(Command::Authenticate {
                token: "t".into(),
                reply,
            });
            ending.await.unwrap();
            let heard = tokio::time::timeout(Duration::from_millis(500), answer).await;
            assert_eq!(
                heard.is_ok_and(|a| a.is_err()),
                drained,
                "drained: {drained}"
            );
            drop(tx);
        }
    }

    /// The order in which decisions waiting in `queue` get their turn, one at a time: each of
    /// `waiting` (a game, named, and whose it is) asks in that order while a decision of a game
    /// `held` holds the only turn.
    async fn turns(
        queue: &BotQueue,
        held: Whose,
        waiting: &[(&'static str, Whose)],
    ) -> Vec<&'static str> {
        let held = queue.turn(held).await.unwrap();
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut tasks = Vec::new();
        for (name, whose) in waiting.iter().cloned() {
            let (queue, order) = (queue.clone(), Arc::clone(&order));
            tasks.push(tokio::spawn(async move {
                let turn = queue.turn(whose).await.unwrap();
                order.lock().unwrap().push(name);
                // Decides, then hands the turn on.
                tokio::task::yield_now().await;
                drop(turn);
            }));
            // In the queue before the next one asks.
            for _ in 0..4 {
                tokio::task::yield_now().await;
            }
        }
        drop(held);
        for task in tasks {
            task.await.unwrap();
        }
        Arc::try_unwrap(order).unwrap().into_inner().unwrap()
    }

    #[tokio::test]
    async fn a_person_s_game_waits_behind_one_decision_of_the_bots_alone_at_most() {
        let queue = BotQueue::new(1);
        let (alone, person) = (Whose::Bots, Whose::Unknown);
        let waiting = [
            ("alone 1", alone.clone()),
            ("alone 2", alone.clone()),
            ("alone 3", alone.clone()),
            ("person's", person.clone()),
            ("alone 4", alone.clone()),
            ("person's again", Whose::Client("192.0.2.1".into())),
        ];
        // A decision of bots alone holds the turn: the people's games come next, in the order
        // they asked, then the other games of bots alone in theirs.
        assert_eq!(
            turns(&queue, alone.clone(), &waiting).await,
            [
                "person's",
                "person's again",
                "alone 1",
                "alone 2",
                "alone 3",
                "alone 4"
            ]
        );
        // A person's game holds it: one game of bots alone has taken their place in the queue
        // before the people's games asked, and goes first; the others wait behind them.
        assert_eq!(
            turns(&queue, person.clone(), &waiting).await,
            [
                "alone 1",
                "person's",
                "person's again",
                "alone 2",
                "alone 3",
                "alone 4"
            ]
        );
        // Games of people of different clients are served in the order they ask.
        let client = |c: &str| Whose::Client(c.into());
        let people = [
            ("a", client("a")),
            ("b", client("b")),
            ("c", person.clone()),
        ];
        assert_eq!(
            turns(&queue, person.clone(), &people).await,
            ["a", "b", "c"]
        );
        // A closed queue gives no turn.
        queue.close();
        assert!(queue.turn(person).await.is_none());
        assert!(queue.turn(alone).await.is_none());
        assert!(queue.turn(client("a")).await.is_none());
    }

    #[tokio::test]
    async fn a_client_s_games_wait_for_a_turn_one_at_a_time() {
        let queue = BotQueue::new(1);
        let client = |c: &str| Whose::Client(c.into());
        let waiting = [
            ("a 2", client("a")),
            ("a 3", client("a")),
            ("b", client("b")),
            ("unknown", Whose::Unknown),
            ("a 4", client("a")),
        ];
        // A game of client a decides: a's other games wait for it; the games of others, which
        // asked later, go first.
        assert_eq!(
            turns(&queue, client("a"), &waiting).await,
            ["b", "unknown", "a 2", "a 3", "a 4"]
        );
        // Nobody waits any more: the places are gone with them.
        assert!(
            queue
                .clients
                .lock()
                .unwrap()
                .values()
                .all(|p| p.strong_count() == 0)
        );
    }

    /// Writes down every action it is shown, with the seat of the view and who acted.
    struct Recorder(Arc<Mutex<Vec<(Seat, Seat, Action)>>>);

    impl bots::Bot<State> for Recorder {
        fn name(&self) -> &str {
            "recorder"
        }
        fn choose(&mut self, _view: &SeatView<'_, State>, legal: &[Action]) -> Action {
            legal[0]
        }
        fn watch(&mut self, view: &SeatView<'_, State>, by: Seat, action: Action) {
            self.0
                .lock()
                .expect("one thread")
                .push((view.seat(), by, action));
        }
    }

    #[test]
    fn a_bot_is_shown_the_others_past_actions_before_it_decides() {
        let start = <State as game::State>::new_game(&Default::default(), 8).expect("a game");
        let mut state = start.clone();
        let (mut actions, mut seats) = (Vec::new(), Vec::new());
        let mut medium = bots::starrealms::by_name("medium", 2).expect("a bot");
        while actions.len() < 120 {
            let seat = state.to_move().expect("not over yet");
            let legal = state.legal_actions();
            let a = medium.choose(&SeatView::of_state(&state, seat), &legal);
            state.apply(a).expect("legal");
            actions.push(a);
            seats.push(seat);
        }
        let shown = Arc::new(Mutex::new(Vec::new()));
        show_history(&mut Recorder(Arc::clone(&shown)), Seat(1), &start, &actions);
        let expected: Vec<_> = seats
            .iter()
            .zip(&actions)
            .filter(|(seat, _)| **seat != Seat(1))
            .map(|(&seat, &a)| (Seat(1), seat, a))
            .collect();
        assert!(expected.len() > 10 && expected.len() < actions.len());
        assert_eq!(*shown.lock().expect("one thread"), expected);
    }

    #[test]
    fn a_log_reads_as_the_protocols_lines_each_reader_its_own() {
        let log = Log::default();
        let entry = |seat: u8, text: &str, public: Option<&str>, card: Option<&str>| LogEntry {
            seat: Seat(seat),
            text: text.into(),
            public: public.map(Into::into),
            card: card.map(Into::into),
        };
        log.push(entry(0, "attack left red3", Some("attack left"), None));
        log.push(entry(1, "buy row 2", None, Some("cutter")));
        log.push(entry(0, "defend right blue1", Some("defend right"), None));
        let line = |index: usize, seat: u8, action: &str, card: Option<&str>| LogLine {
            index,
            seat: Seat(seat),
            action: action.into(),
            card: card.map(Into::into),
        };
        let read = |from, to, viewer| {
            let mut out = Vec::new();
            log.view(from, to, viewer).write_json(&mut out);
            serde_json::from_slice::<serde_json::Value>(&out).unwrap()
        };
        let lines = |lines: Vec<LogLine>| serde_json::to_value(lines).unwrap();
        // The seat that played an entry reads its text; the others, and spectators, the public one.
        assert_eq!(
            read(0, 3, Some(Seat(0))),
            lines(vec![
                line(0, 0, "attack left red3", None),
                line(1, 1, "buy row 2", Some("cutter")),
                line(2, 0, "defend right blue1", None),
            ])
        );
        assert_eq!(
            read(1, 3, Some(Seat(1))),
            lines(vec![
                line(1, 1, "buy row 2", Some("cutter")),
                line(2, 0, "defend right", None),
            ])
        );
        assert_eq!(
            read(0, 1, None),
            lines(vec![line(0, 0, "attack left", None)])
        );
        // Past the end: as far as the log goes; nothing where nothing is asked.
        assert_eq!(
            read(2, 9, None),
            lines(vec![line(2, 0, "defend right", None)])
        );
        assert_eq!(read(3, 3, None), lines(Vec::new()));
        assert_eq!(read(5, 2, None), lines(Vec::new()));
    }
}
