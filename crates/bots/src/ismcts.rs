//! Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling, Powley & Whitehouse
//! 2012), generic over the game traits.
//!
//! Each iteration samples a full state consistent with the bot's own observation
//! ([`game::Observation::determinize`]), walks the tree choosing among the actions legal in that
//! sample by UCB1 with availability counts, adds one node, plays the rest of the game with a
//! rollout policy and backs up every seat's result; each node's value is that of the seat that
//! chose the action leading to it, so N players and teams need nothing special. The bot never
//! reads the true state: what it does not see, it samples.
//!
//! The budget is a number of iterations (reproducible: same seed, same observation, same
//! iterations and threads → same decision) or a time per decision. With several threads, each
//! searches its own tree from its own seed (root parallelism) and the root visit counts are
//! summed.

use std::marker::PhantomData;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use game::{GameRng, Observation as _, State, mix_seed as mix};
use rand::RngCore;

use crate::{Bot, SeatView};

/// How a search plays from a new node to the end of the game, and which actions its tree
/// considers. Each search thread has its own copy.
pub trait Rollout<S: State>: Clone + Send + Sync {
    /// Picks one of `legal` (sorted, never empty) in `state`. Rollouts run on sampled states,
    /// so reading the whole state here is fair.
    fn pick(&mut self, state: &S, legal: &[S::Action], rng: &mut GameRng) -> S::Action;

    /// What the tree leans towards in `state` ([`Settings::policy_bias`]): by default what
    /// [`Rollout::pick`] plays there; a policy may lean the tree towards another's choices.
    fn favourite(&mut self, state: &S, legal: &[S::Action], rng: &mut GameRng) -> S::Action {
        self.pick(state, legal, rng)
    }

    /// Writes into `out` the actions this policy picks from in the rollout's `state`: the legal
    /// list (the default), or a part of it (sorted, never empty while the game goes on) that
    /// holds whatever [`Rollout::pick`] would pick from the whole list, so the picks are the same
    /// for less work.
    fn actions(&self, state: &S, out: &mut Vec<S::Action>) {
        state.legal_actions_into(out);
    }

    /// Narrows the actions the tree considers in `state` (never to nothing), for games whose
    /// legal lists hold many near-equivalent actions. The default keeps them all.
    fn prune(&self, _state: &S, _legal: &mut Vec<S::Action>) {}

    /// The action of the pruned list `pruned` that stands for `picked`, an action this policy
    /// picked from the whole legal list (the default: `picked` itself, if the tree kept it).
    fn tree_action(&self, pruned: &[S::Action], picked: S::Action) -> Option<S::Action> {
        pruned.binary_search(&picked).is_ok().then_some(picked)
    }

    /// Called once as a search starts, with the deciding seat (a policy that plays that seat
    /// otherwise than the others needs it).
    fn root(&mut self, _seat: usize) {}

    /// Called when a rollout starts from `state`.
    fn begin(&mut self, _state: &S) {}

    /// Tells the rollout what the searching bot has read of the policy `seat` plays by: the
    /// chance of each policy the rollout knows, in its own order (the default ignores it).
    fn read(&mut self, _seat: usize, _chances: &[f64]) {}

    /// Whether to stop the rollout here and score the state with [`Rollout::evaluate`]
    /// (the default plays to the end). Asked before each action of a rollout, so a rollout
    /// may also note what it estimates on the way ([`Rollout::finish`]).
    fn stop(&mut self, _state: &S) -> bool {
        false
    }

    /// Each seat's result of a rollout played to the end: the game's `returns`, which a
    /// rollout may blend with what it estimated on the way (the default keeps them).
    fn finish(&mut self, _state: &S, returns: Vec<f64>) -> Vec<f64> {
        returns
    }

    /// Each seat's expected result in a state where the rollout stopped early (the default: all
    /// zeros).
    fn evaluate(&self, state: &S) -> Vec<f64> {
        vec![0.0; state.num_seats()]
    }
}

/// Uniform random rollouts, for any game.
#[derive(Clone, Copy, Debug, Default)]
pub struct UniformRollout;

impl<S: State> Rollout<S> for UniformRollout {
    fn pick(&mut self, _state: &S, legal: &[S::Action], rng: &mut GameRng) -> S::Action {
        legal[game::below(rng, legal.len())]
    }
}

/// How much search a decision gets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// A fixed number of iterations (spread over the threads): reproducible.
    Iterations(u32),
    /// Iterations until their work reaches this much (spread over the threads; at least one
    /// iteration a thread): each action applied in the sampled games (tree walks and rollouts)
    /// counts one, each iteration [`ITERATION_WORK`] more for its sample and its walk down the
    /// tree. Reproducible, and much closer to a fixed time than [`Budget::Iterations`] where
    /// rollouts' lengths vary (a Star Realms game's first turns roll out ten times longer than
    /// its last).
    Work(u64),
    /// As many iterations as fit in this time (at least one per thread): not reproducible.
    Time(Duration),
}

/// The work an iteration counts for [`Budget::Work`] besides its actions: drawing a sample and
/// walking the tree cost about as much as applying eight actions (fitted on Star Realms
/// searches, where the time per unit of work then varies by less than half either way).
pub const ITERATION_WORK: u64 = 8;

/// Search settings.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Iterations or time per decision.
    pub budget: Budget,
    /// UCB1 exploration constant.
    pub exploration: f64,
    /// Threads searching separate trees (root parallelism).
    pub threads: usize,
    /// Longest rollout, in actions; a rollout cut short is scored by the rollout policy's
    /// evaluation (all zeros by default), which only matters for games that may not end.
    pub max_rollout: u32,
    /// Whether the tree holds only the deciding seat's own decisions: once another seat is to
    /// move, the iteration rolls out (the rollout policy plays the others, as it does after
    /// the tree). Off, the tree grows into every seat's decisions.
    pub own_decisions_only: bool,
    /// Consecutive iterations that search the same sampled state (common random numbers: the
    /// actions they compare meet the same hidden cards and the same shuffles, so the
    /// differences between their results owe less to the sample). 1 samples every iteration.
    pub shared_samples: u32,
    /// Weight of the rollout policy's advice inside the tree (progressive bias). Above zero,
    /// every node of the tree asks the rollout policy what it would play there (on the sampled
    /// state), expands that action first, and adds `policy_bias × p / (n + 1)` to a child's
    /// score, where `p` is the share of the samples in which the policy chose the child when it
    /// was available and `n` its visits: the tree follows the policy until its own results
    /// say otherwise. Zero (the default) leaves the tree to UCB1 alone.
    pub policy_bias: f64,
    /// The longest a search may take, whatever its budget: where a person waits for the bot
    /// (a server, the terminal), so that a slow or busy machine never makes them wait longer.
    /// A search it cuts short decides from the iterations it has done (at least 16 a thread)
    /// and is no longer reproducible; with a budget it never reaches, it changes nothing.
    /// `None` (the default): the budget alone.
    pub time_cap: Option<Duration>,
    /// Whether a search starts from what the last one grew below the actions taken since
    /// ([`Ismcts::follow`]): the deciding seat's next decisions of a turn were in that tree
    /// already. Only a search on one thread keeps its tree. Off (the default), every search
    /// starts from an empty tree.
    pub keep_tree: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            budget: Budget::Iterations(1000),
            exploration: 0.7,
            threads: 1,
            max_rollout: 5000,
            own_decisions_only: false,
            shared_samples: 1,
            policy_bias: 0.0,
            time_cap: None,
            keep_tree: false,
        }
    }
}

/// What a search found at the root: each legal action with its visits and mean value for the
/// deciding seat.
#[derive(Clone, Debug, PartialEq)]
pub struct RootStats<A> {
    /// `(action, visits, mean value)`, in legal-action order.
    pub actions: Vec<(A, u32, f64)>,
    /// Iterations run.
    pub iterations: u64,
    /// Actions applied in the sampled games (tree walks and rollouts).
    pub simulated_actions: u64,
    /// Nodes the trees grew, their roots included.
    pub nodes: u64,
}

#[derive(Clone)]
struct Node<A> {
    action: Option<A>,
    /// The seat that chose `action` (the node's value is that seat's).
    mover: usize,
    visits: u32,
    available: u32,
    /// How often, when it was available, the rollout policy chose this action (only counted
    /// with [`Settings::policy_bias`]).
    favoured: u32,
    value: f64,
    children: Vec<u32>,
}

/// The ISMCTS bot.
pub struct Ismcts<S: State, R: Rollout<S>> {
    name: String,
    settings: Settings,
    rollout: R,
    rng: GameRng,
    /// When set and raised, a search stops early and decides from what it has.
    stop: Option<Arc<AtomicBool>>,
    /// The last search's tree, with [`Settings::keep_tree`], and the node the actions taken
    /// since lead to.
    kept: Option<(Vec<Node<S::Action>>, u32)>,
    _game: PhantomData<fn() -> S>,
}

impl<S: State, R: Rollout<S>> Ismcts<S, R> {
    /// A search bot named `name` with its settings, rollout policy and seed.
    pub fn new(name: impl Into<String>, settings: Settings, rollout: R, seed: u64) -> Self {
        Ismcts {
            name: name.into(),
            settings,
            rollout,
            rng: game::rng_from_seed(seed),
            stop: None,
            kept: None,
            _game: PhantomData,
        }
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The settings, to change between searches (a budget that depends on the game).
    pub fn settings_mut(&mut self) -> &mut Settings {
        &mut self.settings
    }

    /// The rollout policy, to tell it what was read between searches ([`Rollout::read`]).
    pub fn rollout_mut(&mut self) -> &mut R {
        &mut self.rollout
    }

    /// Stops every search early once `flag` is raised (a server shutting down): the search
    /// then decides from the iterations it has done, at least one a thread.
    pub fn stop_when(&mut self, flag: Arc<AtomicBool>) {
        self.stop = Some(flag);
    }

    /// Ends every search after `limit` at most, whatever its budget
    /// ([`Settings::time_cap`]).
    pub fn cap_time(&mut self, limit: Duration) {
        self.settings.time_cap = Some(limit);
    }

    /// Tells the search that the deciding seat took `action` (its choice or not): with
    /// [`Settings::keep_tree`], the next search starts from the kept tree's node below it, if
    /// the tree has one (otherwise from an empty tree). Whoever calls it calls it for every
    /// action since the last search, in order, and [`Ismcts::forget`] once anything else
    /// happens that the tree cannot follow (another seat's action).
    pub fn follow(&mut self, action: S::Action) {
        let Some((nodes, at)) = &mut self.kept else {
            return;
        };
        let below = nodes[*at as usize]
            .children
            .iter()
            .copied()
            .find(|&c| nodes[c as usize].action == Some(action));
        match below {
            Some(c) => *at = c,
            None => self.kept = None,
        }
    }

    /// Drops the kept tree: the next search starts from an empty one.
    pub fn forget(&mut self) {
        self.kept = None;
    }

    /// Visits the kept tree holds below the actions followed (0 without one): what the next
    /// search starts from.
    pub fn kept_visits(&self) -> u32 {
        self.kept.as_ref().map_or(0, |(nodes, at)| {
            nodes[*at as usize]
                .children
                .iter()
                .map(|&c| nodes[c as usize].visits)
                .sum()
        })
    }
}

impl<S, R> Ismcts<S, R>
where
    S: State,
    S::Observation: Sync,
    R: Rollout<S>,
{
    /// Searches from `observation` (the deciding seat's) and returns the root statistics.
    pub fn search(&mut self, observation: &S::Observation) -> RootStats<S::Action> {
        self.search_unless_settled(observation, None)
    }

    /// Searches as [`Ismcts::search`] does, but stops as soon as `settled` (an action of the
    /// root) has more visits than any other root action could reach in the iterations left: the
    /// most visited action is then known, and is `settled`. Only a search by iterations on one
    /// thread stops so (elsewhere it runs its whole budget). A caller whose choice is `settled`
    /// whenever it is the most visited action decides the same as after the whole budget, in
    /// less time; the rest of the statistics (the means, the other visits) are those of the
    /// iterations run.
    pub fn search_unless_settled(
        &mut self,
        observation: &S::Observation,
        settled: Option<S::Action>,
    ) -> RootStats<S::Action> {
        let seed = self.rng.next_u64();
        let threads = self.settings.threads.max(1);
        let settings = &self.settings;
        let rollout = &self.rollout;
        let stop = self.stop.as_deref();
        let kept = self.kept.take();
        let per_thread: Vec<RootStats<S::Action>> = if threads == 1 {
            let me = observation.seat().map_or(0, |s| s.index());
            let start = kept
                .filter(|_| settings.keep_tree)
                .and_then(|(nodes, at)| subtree(&nodes, at, me));
            let (stats, nodes) = search_tree(
                observation,
                settings,
                rollout,
                Until { stop, settled },
                seed,
                (0, threads),
                start,
            );
            if settings.keep_tree {
                self.kept = Some((nodes, 0));
            }
            vec![stats]
        } else {
            std::thread::scope(|scope| {
                let handles: Vec<_> = (0..threads)
                    .map(|t| {
                        scope.spawn(move || {
                            search_tree(
                                observation,
                                settings,
                                rollout,
                                Until {
                                    stop,
                                    settled: None,
                                },
                                seed,
                                (t, threads),
                                None,
                            )
                            .0
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("a search thread panicked"))
                    .collect()
            })
        };
        merge(per_thread)
    }
}

/// Whether the root's child for `action` has more visits than any other root child could reach
/// in `left` more iterations.
fn settles<A: game::Action>(nodes: &[Node<A>], action: A, left: u64) -> bool {
    let (mut own, mut other) = (0, 0);
    for &c in &nodes[0].children {
        let n = &nodes[c as usize];
        if n.action == Some(action) {
            own = n.visits;
        } else {
            other = other.max(n.visits);
        }
    }
    u64::from(own) > u64::from(other) + left
}

/// The tree below node `at` of `nodes`, numbered again from its root, to search on from there
/// (`None` if no action was followed from the root, or if `seat` does not decide there).
fn subtree<A: game::Action>(nodes: &[Node<A>], at: u32, seat: usize) -> Option<Vec<Node<A>>> {
    let top = &nodes[at as usize];
    if at == 0
        || top.children.is_empty()
        || top
            .children
            .iter()
            .any(|&c| nodes[c as usize].mover != seat)
    {
        return None;
    }
    let mut out = vec![Node {
        action: None,
        mover: seat,
        ..top.clone()
    }];
    // Breadth first: each node's children are copied after it, then pointed at.
    let mut i = 0;
    while i < out.len() {
        let old = std::mem::take(&mut out[i].children);
        let mut new = Vec::with_capacity(old.len());
        for c in old {
            new.push(out.len() as u32);
            out.push(nodes[c as usize].clone());
        }
        out[i].children = new;
        i += 1;
    }
    Some(out)
}

/// Sums the root statistics of several trees.
fn merge<A: game::Action>(trees: Vec<RootStats<A>>) -> RootStats<A> {
    let mut out = RootStats {
        actions: Vec::new(),
        iterations: 0,
        simulated_actions: 0,
        nodes: 0,
    };
    for t in trees {
        out.iterations += t.iterations;
        out.simulated_actions += t.simulated_actions;
        out.nodes += t.nodes;
        for (a, n, v) in t.actions {
            match out.actions.iter_mut().find(|(b, _, _)| *b == a) {
                Some((_, m, w)) => {
                    let total = *m + n;
                    if total > 0 {
                        *w = (*w * *m as f64 + v * n as f64) / total as f64;
                    }
                    *m = total;
                }
                None => out.actions.push((a, n, v)),
            }
        }
    }
    out.actions.sort_by_key(|x| x.0);
    out
}

/// What may end a search before its budget: a raised flag, or an action settled as the most
/// visited ([`Ismcts::search_unless_settled`]).
struct Until<'a, A> {
    stop: Option<&'a AtomicBool>,
    settled: Option<A>,
}

fn search_tree<S: State, R: Rollout<S>>(
    observation: &S::Observation,
    settings: &Settings,
    rollout: &R,
    Until { stop, settled }: Until<'_, S::Action>,
    seed: u64,
    // This thread's number, of how many.
    (thread, threads): (usize, usize),
    // A tree to grow on (a kept one, its root the observation's decision), or none.
    start: Option<Vec<Node<S::Action>>>,
) -> (RootStats<S::Action>, Vec<Node<S::Action>>) {
    let mut rng = game::rng_from_seed(mix(seed ^ mix(thread as u64)));
    let mut rollout = rollout.clone();
    let me = observation.seat().map_or(0, |s| s.index());
    rollout.root(me);
    let mut nodes: Vec<Node<S::Action>> = start.unwrap_or_else(|| {
        vec![Node {
            action: None,
            mover: me,
            visits: 0,
            available: 0,
            favoured: 0,
            value: 0.0,
            children: Vec::new(),
        }]
    });
    // The first threads take the remainder.
    let share =
        |n: u64| (n / threads as u64 + u64::from((thread as u64) < n % threads as u64)).max(1);
    let start = Instant::now();
    let (iterations, work, timed) = match settings.budget {
        Budget::Iterations(n) => (share(u64::from(n)), u64::MAX, None),
        Budget::Work(n) => (u64::MAX, share(n), None),
        Budget::Time(d) => (u64::MAX, u64::MAX, Some(start + d)),
    };
    let deadline = match (timed, settings.time_cap.map(|c| start + c)) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    let mut legal = Vec::new();
    // The legal list before pruning, for the policy's choice (with a policy bias).
    let mut whole = Vec::new();
    let mut path: Vec<u32> = Vec::new();
    let mut simulated = 0u64;
    let mut done = 0u64;
    let shared = u64::from(settings.shared_samples.max(1));
    let mut sample: Option<S> = None;
    // A settled action only ends a search of a fixed number of iterations.
    let settled = settled.filter(|_| work == u64::MAX && timed.is_none());
    while done < iterations && simulated + ITERATION_WORK * done < work {
        if done > 0
            && done.is_multiple_of(16)
            && (deadline.is_some_and(|d| Instant::now() >= d)
                || stop.is_some_and(|s| s.load(Ordering::Relaxed)))
        {
            break;
        }
        // Its visits are at most `done`: worth looking only once they may pass what is left.
        if let Some(a) = settled
            && 2 * done > iterations
            && settles(&nodes, a, iterations - done)
        {
            break;
        }
        let mut state = if shared == 1 {
            observation.determinize(&mut rng)
        } else {
            // The first iteration is a multiple of `shared`: a sample is always drawn first.
            if done.is_multiple_of(shared) {
                sample = Some(observation.determinize(&mut rng));
            }
            sample
                .clone()
                .expect("drawn at the block's first iteration")
        };
        done += 1;
        path.clear();
        path.push(0);
        let mut node = 0u32;
        // Selection and expansion.
        while let Some(seat) = state.to_move() {
            if settings.own_decisions_only && seat.index() != me {
                break;
            }
            state.legal_actions_into(&mut legal);
            // What the rollout policy would play here, among the actions the tree keeps.
            // Asked only where the tree keeps a choice.
            let favourite = if settings.policy_bias > 0.0 && legal.len() > 1 {
                whole.clone_from(&legal);
                rollout.prune(&state, &mut legal);
                if legal.len() > 1 {
                    let pick = rollout.favourite(&state, &whole, &mut rng);
                    rollout.tree_action(&legal, pick)
                } else {
                    None
                }
            } else {
                rollout.prune(&state, &mut legal);
                None
            };
            let mover = seat.index();
            let mut untried: Option<S::Action> = None;
            let mut count_untried = 0usize;
            // Once found untried, the policy's choice is the one tried.
            let mut favourite_untried = false;
            for &a in &legal {
                let known = nodes[node as usize]
                    .children
                    .iter()
                    .any(|&c| nodes[c as usize].action == Some(a));
                if known || favourite_untried {
                    continue;
                }
                if favourite == Some(a) {
                    untried = Some(a);
                    favourite_untried = true;
                } else {
                    count_untried += 1;
                    // Reservoir sampling: a uniform pick among the untried actions.
                    if game::below(&mut rng, count_untried) == 0 {
                        untried = Some(a);
                    }
                }
            }
            let child_count = nodes[node as usize].children.len();
            for i in 0..child_count {
                let c = nodes[node as usize].children[i] as usize;
                let a = nodes[c].action.expect("children have actions");
                if legal.binary_search(&a).is_ok() {
                    nodes[c].available += 1;
                    if favourite == Some(a) {
                        nodes[c].favoured += 1;
                    }
                }
            }
            if let Some(a) = untried {
                let child = nodes.len() as u32;
                nodes.push(Node {
                    action: Some(a),
                    mover,
                    visits: 0,
                    available: 1,
                    favoured: u32::from(favourite == Some(a)),
                    value: 0.0,
                    children: Vec::new(),
                });
                nodes[node as usize].children.push(child);
                state.apply_legal(a);
                simulated += 1;
                path.push(child);
                break;
            }
            // Every legal action has a child: UCB1 with availability counts (and the policy's
            // bias, when asked).
            let mut best = None;
            let mut best_score = f64::NEG_INFINITY;
            for &c in &nodes[node as usize].children {
                let n = &nodes[c as usize];
                let a = n.action.expect("children have actions");
                if legal.binary_search(&a).is_err() {
                    continue;
                }
                let visits = n.visits.max(1) as f64;
                let available = n.available.max(1) as f64;
                let mut score =
                    n.value / visits + settings.exploration * (available.ln() / visits).sqrt();
                if settings.policy_bias > 0.0 {
                    let share = f64::from(n.favoured) / available;
                    score += settings.policy_bias * share / (f64::from(n.visits) + 1.0);
                }
                if score > best_score {
                    best_score = score;
                    best = Some(c);
                }
            }
            let Some(c) = best else { break };
            let a = nodes[c as usize].action.expect("children have actions");
            state.apply_legal(a);
            simulated += 1;
            path.push(c);
            node = c;
        }
        // Rollout.
        let mut steps = 0;
        rollout.begin(&state);
        while !state.is_terminal() && steps < settings.max_rollout && !rollout.stop(&state) {
            rollout.actions(&state, &mut legal);
            let a = rollout.pick(&state, &legal, &mut rng);
            state.apply_legal(a);
            steps += 1;
        }
        simulated += steps as u64;
        let returns = if state.is_terminal() {
            rollout.finish(&state, state.returns())
        } else {
            rollout.evaluate(&state)
        };
        // Backpropagation.
        for &n in &path {
            let node = &mut nodes[n as usize];
            node.visits += 1;
            node.value += returns.get(node.mover).copied().unwrap_or(0.0);
        }
    }
    let root = &nodes[0];
    let stats = RootStats {
        actions: root
            .children
            .iter()
            .map(|&c| {
                let n = &nodes[c as usize];
                let mean = if n.visits > 0 {
                    n.value / n.visits as f64
                } else {
                    0.0
                };
                (n.action.expect("children have actions"), n.visits, mean)
            })
            .collect(),
        iterations: done,
        simulated_actions: simulated,
        nodes: nodes.len() as u64,
    };
    (stats, nodes)
}

impl<S, R> Bot<S> for Ismcts<S, R>
where
    S: State,
    S::Observation: Sync,
    R: Rollout<S>,
{
    fn name(&self) -> &str {
        &self.name
    }

    fn stop_when(&mut self, flag: Arc<AtomicBool>) {
        Ismcts::stop_when(self, flag);
    }

    fn cap_time(&mut self, limit: Duration) {
        Ismcts::cap_time(self, limit);
    }

    /// Another seat acted: a kept tree is dropped (it cannot tell what the others drew).
    fn watch(&mut self, _view: &SeatView<'_, S>, _by: game::Seat, _action: S::Action) {
        self.forget();
    }

    fn choose(&mut self, view: &SeatView<'_, S>, legal: &[S::Action]) -> S::Action {
        let choice = self.decide(view, legal);
        self.follow(choice);
        choice
    }
}

impl<S, R> Ismcts<S, R>
where
    S: State,
    S::Observation: Sync,
    R: Rollout<S>,
{
    fn decide(&mut self, view: &SeatView<'_, S>, legal: &[S::Action]) -> S::Action {
        if let [only] = legal {
            return *only;
        }
        let stats = self.search(view.observation());
        // The search may have pruned the legal list: its choice is still one of `legal`.
        // The most visited legal action; ties go to the better mean, then to action order.
        stats
            .actions
            .iter()
            .filter(|(a, _, _)| legal.binary_search(a).is_ok())
            .max_by(|x, y| x.1.cmp(&y.1).then(x.2.total_cmp(&y.2)).then(y.0.cmp(&x.0)))
            .map(|&(a, _, _)| a)
            .unwrap_or(legal[0])
    }
}
