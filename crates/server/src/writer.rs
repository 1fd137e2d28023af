//! The one thread that appends actions to the store: every game's actor hands it its actions,
//! and it commits whatever has gathered in one batch ([`Store::append_actions`]), so that many
//! games moving at once share one sync to disk, and waiting actions hold no thread each.

use std::sync::Arc;

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
                    while batch.len() < BATCH {
                        match queue.try_recv() {
                            Ok(job) => batch.push(job),
                            Err(_) => break,
                        }
                    }
                    let actions: Vec<NewAction<'_>> = batch
                        .iter()
                        .map(|job| NewAction {
                            id: job.id,
                            index: job.index,
                            text: &job.text,
                            client_id: job.client_id.as_deref(),
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

    /// Appends action number `index` of game `id` (see [`Store::append_action`]); once this
    /// returns `Ok`, the action is durable.
    pub(crate) async fn append(
        &self,
        id: GameId,
        index: usize,
        text: String,
        client_id: Option<String>,
    ) -> Result<(), StoreError> {
        let (done, result) = oneshot::channel();
        let job = Job {
            id,
            index,
            text,
            client_id,
            done,
        };
        let stopped = || StoreError::Backend("the store's writer stopped".into());
        self.jobs.send(job).map_err(|_| stopped())?;
        result.await.unwrap_or_else(|_| Err(stopped()))
    }
}
