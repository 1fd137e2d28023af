//! The one thread that appends actions to the store: every game's actor hands it its actions,
//! and it commits whatever has gathered in one batch ([`Store::append_actions`]), so that many
//! games moving at once share one sync to disk, and waiting actions hold no thread each.

use std::sync::Arc;

use game::Seat;
use store::{GameId, NewAction, Store, StoreError};
use tokio::sync::{mpsc, oneshot};

/// Actions committed in one batch, at most.
const BATCH: usize = 256;

/// An action waiting for the writer.
struct Job {
    id: GameId,
    index: usize,
    text: String,
    client_id: Option<String>,
    winners: Option<Vec<Seat>>,
    done: oneshot::Sender<Result<(), StoreError>>,
}

/// What hands actions to the writer thread; the thread ends when the last one is dropped.
#[derive(Clone)]
pub(crate) struct Appender {
    jobs: mpsc::UnboundedSender<Job>,
}

impl Appender {
    /// Starts the writer thread of `store`.
    pub(crate) fn start<S: Store>(store: Arc<S>) -> Appender {
        let (jobs, mut queue) = mpsc::unbounded_channel::<Job>();
        std::thread::Builder::new()
            .name("realms-store-writer".into())
            .spawn(move || {
                let mut batch = Vec::with_capacity(BATCH);
                while let Some(first) = queue.blocking_recv() {
                    batch.push(first);
                    // Let the games' threads run before committing, as long as they hand over
                    // more actions: on a busy core the first action would otherwise wake this
                    // thread, preempt them and be committed almost alone (a sync to disk and
                    // two thread switches for a handful of actions); on an idle core, or one of
                    // its own, the yield returns at once.
                    loop {
                        std::thread::yield_now();
                        let before = batch.len();
                        while batch.len() < BATCH
                            && let Ok(job) = queue.try_recv()
                        {
                            batch.push(job);
                        }
                        if batch.len() == before || batch.len() == BATCH {
                            break;
                        }
                    }
                    let actions: Vec<NewAction<'_>> = batch
                        .iter()
                        .map(|job| NewAction {
                            id: job.id,
                            index: job.index,
                            text: &job.text,
                            client_id: job.client_id.as_deref(),
                            winners: job.winners.as_deref(),
                        })
                        .collect();
                    let results = store.append_actions(&actions);
                    drop(actions);
                    for (job, result) in batch.drain(..).zip(results) {
                        let _ = job.done.send(result);
                    }
                }
            })
            .expect("the store's writer thread starts");
        Appender { jobs }
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
        let (done, result) = oneshot::channel();
        let job = Job {
            id,
            index,
            text,
            client_id,
            winners,
            done,
        };
        let stopped = || StoreError::Backend("the store's writer stopped".into());
        self.jobs.send(job).map_err(|_| stopped())?;
        result.await.unwrap_or_else(|_| Err(stopped()))
    }
}

#[cfg(test)]
mod tests {
    //! The writer over a store that records each batch and holds the first one until told.

    use std::sync::Mutex;
    use std::sync::mpsc::{Receiver, Sender, channel};

    use game::{GameRecord, Seat};
    use store::{GameSummary, LobbyPage, LobbyQuery, SqliteStore, StoredGame, TokenHash};

    use super::*;

    struct Gated {
        inner: SqliteStore,
        batches: Mutex<Vec<usize>>,
        entered: Mutex<Sender<()>>,
        open: Mutex<Option<Receiver<()>>>,
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
        fn append_actions(&self, actions: &[NewAction<'_>]) -> Vec<Result<(), StoreError>> {
            self.batches.lock().unwrap().push(actions.len());
            let _ = self.entered.lock().unwrap().send(());
            if let Some(open) = self.open.lock().unwrap().take() {
                let _ = open.recv();
            }
            self.inner.append_actions(actions)
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

    #[tokio::test]
    async fn actions_that_wait_for_the_writer_are_committed_in_one_batch() {
        let (entered, writing) = channel();
        let (release, open) = channel();
        let store = Arc::new(Gated {
            inner: SqliteStore::open(":memory:").unwrap(),
            batches: Mutex::new(Vec::new()),
            entered: Mutex::new(entered),
            open: Mutex::new(Some(open)),
        });
        let mut record = GameRecord::new::<starrealms::State>(&Default::default(), 1);
        record.players = vec!["human".into(), "human".into()];
        let games: Vec<GameId> = (0..6)
            .map(|_| store.create(&record, false).unwrap())
            .collect();
        let appender = Appender::start(Arc::clone(&store));
        let append = |id: GameId| {
            let appender = appender.clone();
            tokio::spawn(async move { appender.append(id, 0, "end".into(), None, None).await })
        };
        // The first action holds the writer; five more wait meanwhile.
        let first = append(games[0]);
        tokio::task::spawn_blocking(move || writing.recv().unwrap())
            .await
            .unwrap();
        let waiting: Vec<_> = games[1..].iter().map(|&id| append(id)).collect();
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        release.send(()).unwrap();
        first.await.unwrap().unwrap();
        for task in waiting {
            task.await.unwrap().unwrap();
        }
        assert_eq!(*store.batches.lock().unwrap(), [1, 5]);
        // A refused action is refused alone, through the same path.
        let refused = appender.append(games[0], 0, "end".into(), None, None).await;
        assert!(matches!(
            refused,
            Err(StoreError::WrongIndex { actual: 1, .. })
        ));
        for id in games {
            assert_eq!(store.load(id).unwrap().record.actions, ["end"]);
        }
    }
}
