//! The one thread that writes to the store: every game's actor hands it its actions, and the
//! API its creations and claims of seats, and it commits whatever has gathered in one batch
//! ([`Store::write_batch`]), so that many people writing at once share one sync to disk, and
//! waiting writes hold no thread each.

use std::sync::Arc;

use game::{GameRecord, Seat};
use store::{GameId, NewAction, Store, StoreError, TokenHash, Write, Written};
use tokio::sync::{mpsc, oneshot};

/// Writes committed in one batch, at most.
const BATCH: usize = 256;

/// A write waiting for the writer, with what it owns.
enum Owned {
    Append {
        id: GameId,
        index: usize,
        text: String,
        client_id: Option<String>,
        winners: Option<Vec<Seat>>,
    },
    Create {
        record: GameRecord,
        seed_chosen: bool,
    },
    Claim {
        id: GameId,
        seat: Seat,
        token_hash: TokenHash,
        holder: Option<String>,
    },
}

impl Owned {
    fn as_write(&self) -> Write<'_> {
        match self {
            Owned::Append {
                id,
                index,
                text,
                client_id,
                winners,
            } => Write::Append(NewAction {
                id: *id,
                index: *index,
                text,
                client_id: client_id.as_deref(),
                winners: winners.as_deref(),
            }),
            Owned::Create {
                record,
                seed_chosen,
            } => Write::Create {
                record,
                seed_chosen: *seed_chosen,
            },
            Owned::Claim {
                id,
                seat,
                token_hash,
                holder,
            } => Write::Claim {
                id: *id,
                seat: *seat,
                token_hash,
                holder: holder.as_deref(),
            },
        }
    }
}

/// A write and who waits for its result.
struct Job {
    write: Owned,
    done: oneshot::Sender<Delivered>,
}

/// A write's result, and those of the rest of its batch for the receiver to hand over.
///
/// The writer thread wakes one waiting task a batch, not one a write: a task woken from
/// another thread costs the one-thread runtime a system call to wake its driver, every time,
/// while a task woken from the runtime's own thread is queued at no such cost. So the batch's
/// first waiter receives every result and, in dropping the rest, wakes the others itself.
struct Delivered {
    result: Result<Written, StoreError>,
    rest: Handover,
}

/// Results of a batch not yet handed to their writes' waiters: handed over when dropped,
/// wherever that happens (the receiver's task, or a receiver dropped with its value).
struct Handover(Vec<(oneshot::Sender<Delivered>, Result<Written, StoreError>)>);

impl Drop for Handover {
    fn drop(&mut self) {
        for (done, result) in self.0.drain(..) {
            let _ = done.send(Delivered {
                result,
                rest: Handover(Vec::new()),
            });
        }
    }
}

/// Hands a batch's `results` to their waiters: all to the first waiter still waiting, which
/// passes the others on.
fn deliver(results: Vec<(oneshot::Sender<Delivered>, Result<Written, StoreError>)>) {
    let mut rest = results.into_iter();
    while let Some((done, result)) = rest.next() {
        let delivered = Delivered {
            result,
            rest: Handover(rest.collect()),
        };
        match done.send(delivered) {
            Ok(()) => return,
            // That waiter is gone: the next one receives the rest.
            Err(mut refused) => rest = std::mem::take(&mut refused.rest.0).into_iter(),
        }
    }
}

/// The writer thread's queue. Should the thread stop (a panic), the queue is closed and every
/// job still sent to it is read and dropped, each waiter told that the writer stopped: a queue
/// merely dropped may leave a job pushed as it closes unread, its waiter waiting for good.
struct Queue(mpsc::UnboundedReceiver<Job>);

impl Drop for Queue {
    fn drop(&mut self) {
        self.0.close();
        while self.0.blocking_recv().is_some() {}
    }
}

/// What hands writes to the writer thread; the thread ends when the last one is dropped.
#[derive(Clone)]
pub(crate) struct Writer {
    jobs: mpsc::UnboundedSender<Job>,
}

impl Writer {
    /// Starts the writer thread of `store`.
    pub(crate) fn start<S: Store>(store: Arc<S>) -> Writer {
        let (jobs, queue) = mpsc::unbounded_channel::<Job>();
        std::thread::Builder::new()
            .name("realms-store-writer".into())
            .spawn(move || {
                let mut queue = Queue(queue);
                let mut batch = Vec::with_capacity(BATCH);
                while let Some(first) = queue.0.blocking_recv() {
                    batch.push(first);
                    // Let the games' threads run before committing, as long as they hand over
                    // more writes: on a busy core the first write would otherwise wake this
                    // thread, preempt them and be committed almost alone (a sync to disk and
                    // two thread switches for a handful of writes); on an idle core, or one of
                    // its own, the yield returns at once.
                    loop {
                        std::thread::yield_now();
                        let before = batch.len();
                        while batch.len() < BATCH
                            && let Ok(job) = queue.0.try_recv()
                        {
                            batch.push(job);
                        }
                        if batch.len() == before || batch.len() == BATCH {
                            break;
                        }
                    }
                    let writes: Vec<Write<'_>> =
                        batch.iter().map(|job: &Job| job.write.as_write()).collect();
                    let results = store.write_batch(&writes);
                    drop(writes);
                    deliver(
                        batch
                            .drain(..)
                            .zip(results)
                            .map(|(job, result)| (job.done, result))
                            .collect(),
                    );
                }
            })
            .expect("the store's writer thread starts");
        Writer { jobs }
    }

    /// Hands `write` to the thread and waits for its result.
    async fn write(&self, write: Owned) -> Result<Written, StoreError> {
        let (done, result) = oneshot::channel();
        let stopped = || StoreError::Backend("the store's writer stopped".into());
        self.jobs.send(Job { write, done }).map_err(|_| stopped())?;
        let Delivered { result, rest } = result.await.map_err(|_| stopped())?;
        drop(rest);
        result
    }

    /// Appends action number `index` of game `id` (see [`Store::append_action`]), and marks
    /// the game over with its `winners` if the action ends it, in the same commit; once this
    /// returns `Ok`, both are durable.
    pub(crate) async fn append(
        &self,
        id: GameId,
        index: usize,
        text: String,
        client_id: Option<String>,
        winners: Option<Vec<Seat>>,
    ) -> Result<(), StoreError> {
        match self
            .write(Owned::Append {
                id,
                index,
                text,
                client_id,
                winners,
            })
            .await?
        {
            Written::Appended => Ok(()),
            other => Err(mismatch("an action", other)),
        }
    }

    /// Stores a new game (see [`Store::create`]); its number, once it is durable.
    pub(crate) async fn create(
        &self,
        record: GameRecord,
        seed_chosen: bool,
    ) -> Result<GameId, StoreError> {
        match self
            .write(Owned::Create {
                record,
                seed_chosen,
            })
            .await?
        {
            Written::Created(id) => Ok(id),
            other => Err(mismatch("a creation", other)),
        }
    }

    /// Gives a free human seat to the holder of `token_hash` (see [`Store::claim_seat`]).
    pub(crate) async fn claim(
        &self,
        id: GameId,
        seat: Seat,
        token_hash: TokenHash,
        holder: Option<String>,
    ) -> Result<(), StoreError> {
        match self
            .write(Owned::Claim {
                id,
                seat,
                token_hash,
                holder,
            })
            .await?
        {
            Written::Claimed => Ok(()),
            other => Err(mismatch("a claim", other)),
        }
    }
}

/// The error of a store that answered `what` (a write) with the result of another kind of
/// write, `answer`: a store's bug, told in words.
fn mismatch(what: &str, answer: Written) -> StoreError {
    let answered = match answer {
        Written::Appended => "an appended action",
        Written::Created(_) => "a creation",
        Written::Claimed => "a claim",
    };
    StoreError::Corrupt(format!(
        "the store answered {what} with {answered}'s result"
    ))
}

#[cfg(test)]
pub(crate) mod tests {
    //! The writer over a store that records each batch and holds the first one until told.

    use std::sync::Mutex;
    use std::sync::mpsc::{Receiver, Sender, channel};

    use store::{GameSummary, LobbyPage, LobbyQuery, SqliteStore, StoredGame};

    use super::*;

    /// A store in memory whose writer's first batch waits until the test lets it go.
    pub(crate) struct Gated {
        inner: SqliteStore,
        batches: Mutex<Vec<usize>>,
        entered: Mutex<Sender<()>>,
        open: Mutex<Option<Receiver<()>>>,
        /// Answers each write that succeeds with the result of another kind of write.
        lies: bool,
    }

    impl Gated {
        /// Over a new store in memory, its first batch held until `open` sends, each batch
        /// told to `entered`.
        pub(crate) fn new(entered: Sender<()>, open: Option<Receiver<()>>, lies: bool) -> Gated {
            Gated {
                inner: SqliteStore::open(":memory:").unwrap(),
                batches: Mutex::new(Vec::new()),
                entered: Mutex::new(entered),
                open: Mutex::new(open),
                lies,
            }
        }
    }

    impl Store for Gated {
        fn create(&self, record: &GameRecord, seed_chosen: bool) -> Result<GameId, StoreError> {
            self.inner.create(record, seed_chosen)
        }
        fn load(&self, id: GameId) -> Result<StoredGame, StoreError> {
            self.inner.load(id)
        }
        fn summary(&self, id: GameId) -> Result<GameSummary, StoreError> {
            self.inner.summary(id)
        }
        fn append_action(
            &self,
            id: GameId,
            index: usize,
            text: &str,
            client_id: Option<&str>,
        ) -> Result<(), StoreError> {
            self.inner.append_action(id, index, text, client_id)
        }
        fn write_batch(&self, writes: &[Write<'_>]) -> Vec<Result<Written, StoreError>> {
            self.batches.lock().unwrap().push(writes.len());
            let _ = self.entered.lock().unwrap().send(());
            if let Some(open) = self.open.lock().unwrap().take() {
                let _ = open.recv();
            }
            let results = self.inner.write_batch(writes);
            if !self.lies {
                return results;
            }
            let other = |written| match written {
                Written::Appended => Written::Claimed,
                Written::Created(_) => Written::Appended,
                Written::Claimed => Written::Created(GameId(7)),
            };
            results.into_iter().map(|r| r.map(other)).collect()
        }
        fn claim_seat(&self, id: GameId, seat: Seat, hash: &TokenHash) -> Result<(), StoreError> {
            self.inner.claim_seat(id, seat, hash)
        }
        fn finish(&self, id: GameId, winners: &[Seat]) -> Result<(), StoreError> {
            self.inner.finish(id, winners)
        }
        fn list_unfinished(&self) -> Result<Vec<GameSummary>, StoreError> {
            self.inner.list_unfinished()
        }
        fn lobby(&self, query: &LobbyQuery) -> Result<LobbyPage, StoreError> {
            self.inner.lobby(query)
        }
    }

    /// The writer's queue, as its thread stops, refuses what comes next and drops what it
    /// holds: each waiter hears that the writer stopped. (A send under way as it closes is read
    /// too: an unbounded queue's `recv` ends only once every send counted has landed, which
    /// dropping the queue does not wait for; that race cannot be staged here.)
    #[test]
    fn a_job_sent_as_the_writer_stops_is_dropped_and_its_waiter_told() {
        let (jobs, queue) = mpsc::unbounded_channel::<Job>();
        let (done, mut result) = oneshot::channel();
        let job = Job {
            write: Owned::Claim {
                id: GameId(1),
                seat: Seat(0),
                token_hash: TokenHash::of("t"),
                holder: None,
            },
            done,
        };
        // Sent before the thread's queue closes, and not yet read.
        assert!(jobs.send(job).is_ok());
        drop(Queue(queue));
        assert!(matches!(
            result.try_recv(),
            Err(oneshot::error::TryRecvError::Closed)
        ));
        // Anything sent from then on is refused.
        assert!(jobs.is_closed());
    }

    #[tokio::test]
    async fn writes_that_wait_for_the_writer_are_committed_in_one_batch() {
        let (entered, writing) = channel();
        let (release, open) = channel();
        let store = Arc::new(Gated::new(entered, Some(open), false));
        let mut record = GameRecord::new::<starrealms::State>(&Default::default(), 1);
        record.players = vec!["human".into(), "human".into()];
        let games: Vec<GameId> = (0..6)
            .map(|_| store.create(&record, false).unwrap())
            .collect();
        let writer = Writer::start(Arc::clone(&store));
        let append = |id: GameId| {
            let writer = writer.clone();
            tokio::spawn(async move { writer.append(id, 0, "end".into(), None, None).await })
        };
        // The first action holds the writer; five more, two creations and two claims wait
        // meanwhile.
        let first = append(games[0]);
        tokio::task::spawn_blocking(move || writing.recv().unwrap())
            .await
            .unwrap();
        let waiting: Vec<_> = games[1..].iter().map(|&id| append(id)).collect();
        let creations: Vec<_> = (0..2)
            .map(|_| {
                let (writer, record) = (writer.clone(), record.clone());
                tokio::spawn(async move { writer.create(record, false).await })
            })
            .collect();
        let claims: Vec<_> = (0..2)
            .map(|seat| {
                let (writer, game) = (writer.clone(), games[1]);
                let hash = TokenHash::of(&format!("t{seat}"));
                tokio::spawn(async move { writer.claim(game, Seat(seat), hash, None).await })
            })
            .collect();
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        release.send(()).unwrap();
        first.await.unwrap().unwrap();
        for task in waiting {
            task.await.unwrap().unwrap();
        }
        let mut created = Vec::new();
        for task in creations {
            created.push(task.await.unwrap().unwrap());
        }
        for task in claims {
            task.await.unwrap().unwrap();
        }
        assert_eq!(*store.batches.lock().unwrap(), [1, 9]);
        // A refused write is refused alone, through the same path.
        let refused = writer.append(games[0], 0, "end".into(), None, None).await;
        assert!(matches!(
            refused,
            Err(StoreError::WrongIndex { actual: 1, .. })
        ));
        let taken = writer
            .claim(games[1], Seat(0), TokenHash::of("t9"), None)
            .await;
        assert!(matches!(taken, Err(StoreError::SeatTaken { .. })));
        let nobody = GameRecord {
            players: Vec::new(),
            ..record.clone()
        };
        assert!(matches!(
            writer.create(nobody, false).await,
            Err(StoreError::Invalid(_))
        ));
        for &id in &games {
            assert_eq!(store.load(id).unwrap().record.actions, ["end"]);
        }
        let claimed = store.load(games[1]).unwrap();
        assert!(claimed.seats.iter().all(|s| s.token_hash.is_some()));
        created.sort_unstable();
        let next = games[5].0;
        assert_eq!(created, [GameId(next + 1), GameId(next + 2)]);
        for id in created {
            let game = store.load(id).unwrap();
            assert_eq!(game.record.players, record.players);
            assert!(game.record.actions.is_empty());
        }
    }

    #[test]
    fn a_batch_reaches_every_waiter_still_waiting_whoever_passes_it_on() {
        let channels: Vec<_> = (0..4).map(|_| oneshot::channel::<Delivered>()).collect();
        let (senders, mut receivers): (Vec<_>, Vec<_>) = channels.into_iter().unzip();
        let results = (0..4).map(|i| Ok(Written::Created(GameId(i))));
        // The first waiter is gone: the second receives the batch.
        receivers.remove(0);
        deliver(senders.into_iter().zip(results).collect());
        let mut second = receivers.remove(0);
        let mut third = receivers.remove(0);
        let mut fourth = receivers.remove(0);
        assert!(third.try_recv().is_err(), "passed on only by the second");
        let Delivered { result, rest } = second.try_recv().unwrap();
        assert!(matches!(result, Ok(Written::Created(GameId(1)))));
        assert_eq!(rest.0.len(), 2);
        drop(rest);
        let third = third.try_recv().unwrap();
        assert!(matches!(third.result, Ok(Written::Created(GameId(2)))));
        assert!(third.rest.0.is_empty());
        let fourth = fourth.try_recv().unwrap();
        assert!(matches!(fourth.result, Ok(Written::Created(GameId(3)))));
        // A waiter given the batch but dropped before it reads it still passes it on.
        let (first, waits) = oneshot::channel::<Delivered>();
        let (second, mut also) = oneshot::channel::<Delivered>();
        deliver(vec![
            (first, Ok(Written::Appended)),
            (second, Ok(Written::Claimed)),
        ]);
        assert!(also.try_recv().is_err());
        drop(waits);
        assert!(matches!(
            also.try_recv().unwrap().result,
            Ok(Written::Claimed)
        ));
    }

    #[tokio::test]
    async fn a_result_of_another_kind_of_write_is_an_error_in_words() {
        let (entered, _) = channel();
        let store = Arc::new(Gated::new(entered, None, true));
        let writer = Writer::start(Arc::clone(&store));
        let mut record = GameRecord::new::<starrealms::State>(&Default::default(), 1);
        record.players = vec!["human".into(), "human".into()];
        fn corrupt<T: std::fmt::Debug>(result: Result<T, StoreError>) -> String {
            match result {
                Err(StoreError::Corrupt(message)) => message,
                other => panic!("{other:?}"),
            }
        }
        let created = corrupt(writer.create(record.clone(), false).await);
        assert_eq!(
            created,
            "the store answered a creation with an appended action's result"
        );
        // The creation was stored all the same: game 1.
        let game = GameId(1);
        let appended = corrupt(writer.append(game, 0, "end".into(), None, None).await);
        assert_eq!(
            appended,
            "the store answered an action with a claim's result"
        );
        let claimed = corrupt(writer.claim(game, Seat(0), TokenHash::of("t"), None).await);
        assert_eq!(
            claimed,
            "the store answered a claim with a creation's result"
        );
        // A refusal is told as it is.
        let refused = writer.append(game, 0, "end".into(), None, None).await;
        assert!(
            matches!(refused, Err(StoreError::WrongIndex { .. })),
            "{refused:?}"
        );
    }
}
