//! Search for Star Realms: a fast greedy rollout policy, the ISMCTS bot built on it, and the
//! difficulty levels.

use game::GameRng;
use starrealms::{Action, Pending, State, cards, rollout};

use super::reading::Reader;
use super::{HeuristicBot, ScriptedBot, Values, heuristic};
use crate::ismcts::{Budget, Ismcts, Rollout, Settings};
use crate::{Bot, SeatView};

/// A fast rollout policy that plays like a simple human: play every card, use every free
/// ability, buy the most expensive card it can afford (an Explorer when nothing else is
/// affordable), destroy outposts, hit the weakest reachable player with all its combat, and
/// take the first option of every decision except to keep good cards (scrap and discard
/// starting cards first, decline optional scraps of anything else). It reads the sampled state
/// directly, which is fair: rollouts run on the searcher's own samples.
#[derive(Clone, Copy, Debug, Default)]
pub struct GreedyRollout;

fn cost(c: starrealms::CardId) -> u8 {
    cards().info(c).cost
}

fn is_starting(c: starrealms::CardId) -> bool {
    let set = cards();
    c == set.scout || c == set.viper
}

/// The tree of a Star Realms search considers one card play, ability use or transfer at a time
/// (their order rarely matters, and the heuristic or the rollout plays them all) and attacks on
/// a player with all the combat the action allows (splitting an attack changes nothing in a
/// duel).
fn prune(legal: &mut Vec<Action>) {
    if matches!(
        legal.first(),
        Some(Action::Play(_) | Action::Primary(_) | Action::AllyShip(_) | Action::AllyBase(_))
    ) {
        legal.truncate(1);
        return;
    }
    let mut kept = 0;
    for i in 0..legal.len() {
        let a = legal[i];
        // A smaller amount of the next action's kind and target: the next one says more.
        let partial = legal.get(i + 1).is_some_and(|&next| same_target(a, next));
        if !partial {
            legal[kept] = a;
            kept += 1;
        }
    }
    legal.truncate(kept);
}

/// The action of a list [`prune`]d that stands for `picked`, one of the whole list: itself, or
/// for an attack or a transfer of a smaller amount, the largest the pruned list kept for the
/// same target.
fn tree_action(pruned: &[Action], picked: Action) -> Option<Action> {
    if pruned.binary_search(&picked).is_ok() {
        return Some(picked);
    }
    pruned.iter().copied().find(|&a| same_target(picked, a))
}

/// Whether `a` and `b` are an attack on the same player, or a transfer of the same kind to the
/// same player, of any amounts (the amounts [`prune`] keeps only the largest of).
fn same_target(a: Action, b: Action) -> bool {
    match (a, b) {
        (Action::AttackPlayer(s, _), Action::AttackPlayer(t, _))
        | (Action::TransferTrade(s, _), Action::TransferTrade(t, _))
        | (Action::TransferCombat(s, _), Action::TransferCombat(t, _)) => s == t,
        _ => false,
    }
}

impl Rollout<State> for GreedyRollout {
    fn prune(&self, _state: &State, legal: &mut Vec<Action>) {
        prune(legal);
    }

    fn tree_action(&self, pruned: &[Action], picked: Action) -> Option<Action> {
        tree_action(pruned, picked)
    }

    fn pick(&mut self, state: &State, legal: &[Action], rng: &mut GameRng) -> Action {
        let first = legal[0];
        match state.pending {
            None => main_phase(state, legal, rng),
            Some(Pending::Scrap { .. }) | Some(Pending::DiscardThenDraw { .. }) => legal
                .iter()
                .copied()
                .find(|a| match *a {
                    Action::ScrapHand(c) | Action::ScrapDiscard(c) | Action::Discard(c) => {
                        is_starting(c)
                    }
                    _ => false,
                })
                .or_else(|| legal.iter().copied().find(|a| *a == Action::Pass))
                .unwrap_or(first),
            Some(Pending::Discard { .. }) => legal
                .iter()
                .copied()
                .min_by_key(|a| match *a {
                    Action::Discard(c) => cost(c),
                    _ => u8::MAX,
                })
                .unwrap_or(first),
            Some(Pending::AcquireFree | Pending::AcquireUpTo { .. }) => legal
                .iter()
                .copied()
                .max_by_key(|a| match *a {
                    Action::AcquireRow(s) => state.row[s as usize].map_or(0, cost),
                    _ => 1,
                })
                .unwrap_or(first),
            Some(Pending::TopOrDiscard { .. }) => Action::Top,
            Some(Pending::ToHand { .. }) => Action::ToHand,
            Some(Pending::ScrapTradeRow { optional: true, .. }) => Action::Pass,
            Some(Pending::Choose { .. }) => legal[game::below(rng, legal.len())],
            _ => legal
                .iter()
                .copied()
                .find(|a| *a != Action::Pass)
                .unwrap_or(first),
        }
    }
}

fn main_phase(state: &State, legal: &[Action], rng: &mut GameRng) -> Action {
    // Playing cards and free abilities come first in action order.
    let first = legal[0];
    if matches!(
        first,
        Action::Play(_) | Action::Primary(_) | Action::AllyShip(_) | Action::AllyBase(_)
    ) {
        return first;
    }
    let mut buy: Option<(u8, Action)> = None;
    let mut outpost: Option<Action> = None;
    let mut hit: Option<(i32, u8, Action)> = None;
    for &a in legal {
        match a {
            Action::BuyRow(slot) => {
                let c = state.row[slot as usize].map_or(0, cost);
                if buy.is_none_or(|(b, _)| c > b) {
                    buy = Some((c, a));
                }
            }
            Action::BuyExplorer if buy.is_none() => buy = Some((0, a)),
            Action::AttackBase(seat, i)
                if outpost.is_none() && state.players[seat].bases[i as usize].is_outpost() =>
            {
                outpost = Some(a);
            }
            Action::AttackPlayer(seat, n) => {
                let authority = state.players[seat].authority;
                let better = match hit {
                    None => true,
                    Some((auth, m, _)) => authority < auth || (authority == auth && n > m),
                };
                if better {
                    hit = Some((authority, n, a));
                }
            }
            _ => {}
        }
    }
    if let Some((_, a)) = buy {
        return a;
    }
    if let Some(a) = outpost {
        return a;
    }
    if let Some((_, _, a)) = hit {
        return a;
    }
    // Scrap abilities and the rest are left to chance, one time in four; otherwise end.
    if legal.last() == Some(&Action::End) && (legal.len() == 1 || game::below(rng, 4) != 0) {
        return Action::End;
    }
    rollout::pick(legal, rng)
}

/// Rollouts played by the heuristic bot (from each sampled state's view of the seat to move):
/// slower than [`GreedyRollout`], much closer to real play.
#[derive(Clone)]
pub struct HeuristicRollout {
    bot: HeuristicBot,
    views: Views,
}

impl HeuristicRollout {
    /// Heuristic rollouts with their seed.
    pub fn new(seed: u64) -> Self {
        HeuristicRollout::with_bot(HeuristicBot::new(seed))
    }

    /// Heuristic rollouts by a value table of their own (e.g. [`Values::tuned`]).
    pub fn with_values(values: Values, seed: u64) -> Self {
        HeuristicRollout::with_bot(HeuristicBot::with_values(values, seed))
    }

    /// Rollouts played by this heuristic bot (e.g. one that buys by a learned network).
    pub fn with_bot(bot: HeuristicBot) -> Self {
        HeuristicRollout {
            bot,
            views: Views::default(),
        }
    }
}

impl Rollout<State> for HeuristicRollout {
    fn prune(&self, _state: &State, legal: &mut Vec<Action>) {
        prune(legal);
    }

    fn tree_action(&self, pruned: &[Action], picked: Action) -> Option<Action> {
        tree_action(pruned, picked)
    }

    /// The heuristic attacks a player with all its combat, never less.
    fn actions(&self, state: &State, out: &mut Vec<Action>) {
        state.legal_actions_largest_attacks_into(out);
    }

    fn pick(&mut self, state: &State, legal: &[Action], _rng: &mut GameRng) -> Action {
        if let Some(a) = heuristic::play_without_view(legal) {
            return a;
        }
        // A bot that buys by a network counts every player's cards: give it the view that
        // holds them.
        let counts = self.bot.buys_by_network();
        pick_by(&mut self.bot, &mut self.views, counts, state, legal)
    }
}

/// A rollout's observations, one a seat, each refilled at every decision of its seat: its
/// buffers are reused (a seat's own hand stays allocated, where one observation shared by the
/// seats would drop it and allocate it again at every change of turn).
#[derive(Clone, Default)]
struct Views(Vec<starrealms::Observation>);

impl Views {
    /// The observation kept for `seat`.
    fn of(&mut self, seat: game::Seat) -> &mut starrealms::Observation {
        if self.0.len() <= seat.index() {
            self.0.resize_with(seat.index() + 1, Default::default);
        }
        &mut self.0[seat.index()]
    }
}

/// What `bot` picks in a rollout's `state`, from the view of the seat to move (refilled in
/// `views`; with every player's cards counted when `counts`).
fn pick_by(
    bot: &mut impl Bot<State>,
    views: &mut Views,
    counts: bool,
    state: &State,
    legal: &[Action],
) -> Action {
    if let [only] = legal {
        return *only;
    }
    let seat = state.to_move().expect("rollouts stop at the end");
    let view = views.of(seat);
    if counts {
        view.refill_for_rollout_counts(state, seat);
    } else {
        view.refill_for_rollout(state, seat);
    }
    bot.choose(&SeatView::of_lent(seat, view), legal)
}

/// Rollouts played by a scripted bot ([`ScriptedBot`]), from the view of the seat to move that
/// counts every player's cards (its rules count the cards a player owns).
#[derive(Clone)]
pub struct ScriptedRollout {
    bot: ScriptedBot,
    views: Views,
}

impl ScriptedRollout {
    /// Rollouts played by the scripted bot `name` (one of [`super::SCRIPTED`]).
    pub fn new(name: &str, seed: u64) -> Option<Self> {
        Some(ScriptedRollout {
            bot: ScriptedBot::new(name, seed)?,
            views: Views::default(),
        })
    }
}

impl Rollout<State> for ScriptedRollout {
    fn prune(&self, _state: &State, legal: &mut Vec<Action>) {
        prune(legal);
    }

    fn tree_action(&self, pruned: &[Action], picked: Action) -> Option<Action> {
        tree_action(pruned, picked)
    }

    fn pick(&mut self, state: &State, legal: &[Action], _rng: &mut GameRng) -> Action {
        pick_by(&mut self.bot, &mut self.views, true, state, legal)
    }
}

/// One of the policies a [`MixedRollout`] plays the other seats by.
#[derive(Clone)]
enum Policy {
    Heuristic(HeuristicRollout),
    Scripted(ScriptedRollout),
}

impl Policy {
    fn pick(&mut self, state: &State, legal: &[Action], rng: &mut GameRng) -> Action {
        match self {
            Policy::Heuristic(p) => p.pick(state, legal, rng),
            Policy::Scripted(p) => p.pick(state, legal, rng),
        }
    }
}

/// Rollouts in which the searching seat plays as the heuristic and every other seat, one
/// rollout after another, by each policy of a population in turn: the heuristic with the
/// hand-written table, with the tuned table, and the scripted `velocity` and `attack`. A search
/// whose rollouts always play the opponent as one policy learns how to beat that policy; the
/// opponents people and other bots are, play otherwise.
///
/// Told what was read of the others ([`Rollout::read`], chances in the order of
/// [`super::reading::POLICIES`]), it plays each seat by each policy in as many rollouts as its
/// chance.
#[derive(Clone)]
pub struct MixedRollout {
    own: HeuristicRollout,
    others: Vec<Policy>,
    /// The deciding seat.
    root: usize,
    /// Rollouts begun (the policy of the others is this modulo their number).
    rollouts: usize,
    /// Per seat, the chance of each of `others`, when read; then the policy of a seat in a
    /// rollout is the one whose share of `[0, 1)` holds the rollout's point of a low-discrepancy
    /// sequence.
    chances: Vec<Vec<f64>>,
    /// Per seat, the policy of the rollout under way.
    playing: Vec<usize>,
    /// When set, a seat is played by the policy read most likely only once its chance reaches
    /// this, and as the first policy (the heuristic) until then, rather than by each policy
    /// in its share of the rollouts.
    sure: Option<f64>,
    /// With `sure`, the policies a seat may be taken for (the others count as the first).
    sure_of: Vec<bool>,
    /// When set, the tree leans at the deciding seat's nodes towards this policy's choices
    /// rather than towards its rollouts' ([`Rollout::favourite`]).
    lean: Option<HeuristicRollout>,
    /// When set, the deciding seat plays its rollouts by the heuristic the opponent is played
    /// by (the tuned table, once read), so that neither side of a rollout plays better than
    /// the other; against a scripted bot it plays as the heuristic still.
    mirror: bool,
}

impl MixedRollout {
    /// Rollouts that play every other seat as the scripted bot `name` (one of
    /// [`super::SCRIPTED`]) and nothing else: a search that takes its opponents for that bot,
    /// to measure what knowing an opponent's policy is worth.
    pub fn modelling(name: &str, seed: u64) -> Option<Self> {
        let model = ScriptedRollout::new(name, seed ^ 3)?;
        Some(MixedRollout::playing(seed, vec![Policy::Scripted(model)]))
    }

    /// Rollouts that play the deciding seat by `own` (e.g. the heuristic buying by the learned
    /// network) and every other seat as the heuristic with the hand-written table.
    pub fn own_by(own: HeuristicRollout, seed: u64) -> Self {
        MixedRollout {
            own,
            ..MixedRollout::playing(
                seed,
                vec![Policy::Heuristic(HeuristicRollout::new(seed ^ 1))],
            )
        }
    }

    /// The deciding seat played by the heuristic, the others by `others` in turn.
    fn playing(seed: u64, others: Vec<Policy>) -> Self {
        MixedRollout {
            own: HeuristicRollout::new(seed),
            others,
            root: 0,
            rollouts: 0,
            chances: Vec::new(),
            playing: Vec::new(),
            sure: None,
            sure_of: Vec::new(),
            lean: None,
            mirror: false,
        }
    }

    /// The same rollouts, the deciding seat playing by the heuristic its opponent is played by
    /// (two players).
    pub fn mirroring(mut self) -> Self {
        self.mirror = true;
        self
    }

    /// The same rollouts, the tree leaning at the deciding seat's nodes towards `lean`'s
    /// choices (e.g. the heuristic buying by the learned network), the opponents' nodes towards
    /// the policies that play them.
    pub fn leaning(mut self, lean: HeuristicRollout) -> Self {
        self.lean = Some(lean);
        self
    }

    /// Rollouts that play each other seat by the policies of [`super::reading::POLICIES`] as
    /// often as the searching bot has read that seat plays by them ([`Rollout::read`]); a seat
    /// of which nothing was read is played as the heuristic.
    pub fn reading(seed: u64) -> Self {
        let mut rollout = MixedRollout::new(seed);
        rollout.chances = vec![Vec::new(); game::MAX_SEATS];
        rollout
    }

    /// Rollouts that play each other seat as the heuristic until the searching bot has read,
    /// with a chance of at least `sure`, that it plays by another policy of
    /// [`super::reading::POLICIES`], and by that policy from then on: a search that plays its
    /// opponents as the heuristic, as `expert` does, unless they are clearly someone else.
    pub fn reading_sure(sure: f64, seed: u64) -> Self {
        let rollout = MixedRollout::reading(seed);
        MixedRollout {
            sure: Some(sure),
            sure_of: vec![true; rollout.others.len()],
            ..rollout
        }
    }

    /// As [`MixedRollout::reading_sure`], but a seat is taken only for the policies of
    /// [`super::reading::POLICIES`] named in `policies` (the others, and doubt, count as the
    /// heuristic): e.g. only for the scripted bots, whose play differs most from the
    /// heuristic's.
    pub fn reading_sure_of(sure: f64, policies: &[&str], seed: u64) -> Self {
        let mut rollout = MixedRollout::reading_sure(sure, seed);
        for (taken, name) in rollout.sure_of.iter_mut().zip(super::reading::POLICIES) {
            *taken = policies.contains(&name);
        }
        rollout
    }

    /// Mixed rollouts with their seed.
    pub fn new(seed: u64) -> Self {
        let scripted = |name: &str, i: u64| {
            Policy::Scripted(
                ScriptedRollout::new(name, seed ^ i).expect("a scripted bot of SCRIPTED"),
            )
        };
        MixedRollout::playing(
            seed,
            vec![
                Policy::Heuristic(HeuristicRollout::new(seed ^ 1)),
                Policy::Heuristic(HeuristicRollout::with_values(
                    Values::tuned().clone(),
                    seed ^ 2,
                )),
                scripted("velocity", 3),
                scripted("attack", 4),
            ],
        )
    }
}

impl Rollout<State> for MixedRollout {
    fn prune(&self, _state: &State, legal: &mut Vec<Action>) {
        prune(legal);
    }

    fn tree_action(&self, pruned: &[Action], picked: Action) -> Option<Action> {
        tree_action(pruned, picked)
    }

    fn root(&mut self, seat: usize) {
        self.root = seat;
    }

    fn read(&mut self, seat: usize, chances: &[f64]) {
        if let Some(c) = self.chances.get_mut(seat) {
            *c = chances.to_vec();
        }
    }

    /// Every policy of the population attacks a player with all its combat, never less.
    fn actions(&self, state: &State, out: &mut Vec<Action>) {
        state.legal_actions_largest_attacks_into(out);
    }

    fn begin(&mut self, _state: &State) {
        self.rollouts += 1;
        if self.chances.is_empty() {
            return;
        }
        if let Some(sure) = self.sure {
            self.playing.clear();
            self.playing.extend(self.chances.iter().map(|c| {
                c.iter()
                    .position(|&p| p >= sure)
                    .filter(|&i| self.sure_of.get(i) == Some(&true))
                    .unwrap_or(0)
            }));
            return;
        }
        // The golden ratio's multiples spread the rollouts evenly over [0, 1).
        let point = (self.rollouts as f64 * 0.618_033_988_749_895).fract();
        self.playing.clear();
        self.playing.extend(self.chances.iter().map(|c| {
            let mut below = 0.0;
            c.iter()
                .position(|p| {
                    below += p;
                    point < below
                })
                .unwrap_or(0)
        }));
    }

    fn pick(&mut self, state: &State, legal: &[Action], rng: &mut GameRng) -> Action {
        let seat = state.to_move().expect("rollouts stop at the end");
        if seat.index() == self.root {
            if self.mirror {
                let other = (0..self.playing.len()).find(|&s| s != self.root);
                let policy = other.and_then(|s| self.playing.get(s)).copied();
                if let Some(i) = policy.filter(|&i| i > 0)
                    && let Some(p @ Policy::Heuristic(_)) = self.others.get_mut(i)
                {
                    return p.pick(state, legal, rng);
                }
            }
            return self.own.pick(state, legal, rng);
        }
        let i = if self.chances.is_empty() {
            self.rollouts % self.others.len()
        } else {
            self.playing.get(seat.index()).copied().unwrap_or(0)
        };
        self.others[i].pick(state, legal, rng)
    }

    fn favourite(&mut self, state: &State, legal: &[Action], rng: &mut GameRng) -> Action {
        match &mut self.lean {
            Some(lean) if state.to_move().map(game::Seat::index) == Some(self.root) => {
                lean.pick(state, legal, rng)
            }
            _ => self.pick(state, legal, rng),
        }
    }
}

/// How much better (in mean result) a search bot's choice must look than the heuristic's advice
/// to be played instead, unless set otherwise ([`SearchBot::with_margins`]).
pub const SEARCH_MARGIN: f64 = 0.03;

/// The ISMCTS bot for Star Realms: the heuristic plays the cards from hand (free, and order
/// matters little); for everything else the search decides, but keeps the heuristic's choice
/// unless its own looks clearly better (by a margin in mean result, [`SearchBot::with_margins`]),
/// which keeps small budgets from playing worse than the heuristic on noisy estimates.
pub struct SearchBot<R: Rollout<State>> {
    name: String,
    search: Ismcts<State, R>,
    heuristic: HeuristicBot,
    /// Budgets for the games the value network knows and for the others (see
    /// [`SearchBot::with_budgets`]).
    budgets: Option<(Budget, Budget)>,
    /// The search's policy bias ([`Settings::policy_bias`]) in the games the value network
    /// knows and in the others (see [`SearchBot::with_biases`]).
    biases: Option<(f64, f64)>,
    /// How much better (in mean result) the search's choice must look than the heuristic's to
    /// be played instead, in the games the value network knows and in the others (see
    /// [`SearchBot::with_margins`]).
    margins: (f64, f64),
    /// What it reads of the others' policies, to tell its rollouts (see
    /// [`SearchBot::reading`]).
    reader: Option<Reader>,
    /// The turn of its last decision: a tree kept ([`Settings::keep_tree`]) serves only the
    /// decisions of the turn it was grown in.
    turn: u32,
}

/// The seed of the heuristic that plays a search bot's cards and advises its search: apart from
/// the search's own.
pub(crate) fn advisor_seed(seed: u64) -> u64 {
    seed ^ 0x6865_7572
}

/// The heuristic that plays a search bot's cards and advises its search, seeded apart from it.
fn advisor(values: Values, seed: u64) -> HeuristicBot {
    HeuristicBot::with_values(values, advisor_seed(seed))
}

impl<R: Rollout<State>> SearchBot<R> {
    /// A search bot with its settings, rollout policy and seed.
    pub fn new(name: impl Into<String>, settings: Settings, rollout: R, seed: u64) -> Self {
        let name = name.into();
        SearchBot {
            search: Ismcts::new(name.clone(), settings, rollout, seed),
            heuristic: advisor(Values::embedded().clone(), seed),
            name,
            budgets: None,
            biases: None,
            margins: (SEARCH_MARGIN, SEARCH_MARGIN),
            reader: None,
            turn: 0,
        }
    }

    /// The same bot reading which policy each other seat plays by ([`Reader`]) and telling its
    /// rollouts before every search ([`Rollout::read`]).
    pub fn reading(mut self, seed: u64) -> Self {
        self.reader = Some(Reader::new(seed ^ 0x7265_6164));
        self
    }

    /// The same bot searching with `known` in the games the value network knows (two players,
    /// the base set: its rollouts are the shortest there, and cut short when it scores them) and
    /// `other` in the rest.
    pub fn with_budgets(mut self, known: Budget, other: Budget) -> Self {
        self.budgets = Some((known, other));
        self
    }

    /// The same bot whose tree leans towards its rollout policy's choices by `known` in the
    /// games the value network knows and by `other` in the rest ([`Settings::policy_bias`]).
    pub fn with_biases(mut self, known: f64, other: f64) -> Self {
        self.biases = Some((known, other));
        self
    }

    /// The same bot whose choice must beat the advice by `known` in the games the value network
    /// knows and by `other` in the rest ([`SEARCH_MARGIN`] in both unless set).
    pub fn with_margins(mut self, known: f64, other: f64) -> Self {
        self.margins = (known, other);
        self
    }

    /// The margin by which its choice must beat the advice in the game `view` shows.
    fn margin(&self, view: &SeatView<'_, State>) -> f64 {
        let o = view.observation();
        if super::value::knows(&o.config, o.players.len()) {
            self.margins.0
        } else {
            self.margins.1
        }
    }

    /// The same bot with the heuristic that plays its cards and advises the search reading
    /// `values` (e.g. [`Values::tuned`]).
    pub fn with_advice(mut self, values: Values, seed: u64) -> Self {
        self.heuristic = advisor(values, seed);
        self
    }

    /// The same bot with its cards played and its search advised by `bot` (e.g. one that buys
    /// by a learned network).
    pub fn with_advisor(mut self, bot: HeuristicBot) -> Self {
        self.heuristic = bot;
        self
    }

    /// The underlying search.
    pub fn search(&mut self) -> &mut Ismcts<State, R> {
        &mut self.search
    }
}

impl<R: Rollout<State>> Bot<State> for SearchBot<R> {
    fn name(&self) -> &str {
        &self.name
    }

    fn stop_when(&mut self, flag: std::sync::Arc<std::sync::atomic::AtomicBool>) {
        self.search.stop_when(flag);
    }

    fn cap_time(&mut self, limit: std::time::Duration) {
        self.search.cap_time(limit);
    }

    fn watch(&mut self, view: &SeatView<'_, State>, by: game::Seat, action: Action) {
        if let Some(reader) = &mut self.reader {
            reader.watch(view, by, action);
        }
        // The kept tree cannot tell what another seat's action drew or showed.
        self.search.forget();
    }

    fn choose(&mut self, view: &SeatView<'_, State>, legal: &[Action]) -> Action {
        let turn = view.observation().turn;
        if turn != self.turn {
            self.search.forget();
            self.turn = turn;
        }
        let choice = self.decide(view, legal);
        self.search.follow(choice);
        choice
    }
}

impl<R: Rollout<State>> SearchBot<R> {
    fn decide(&mut self, view: &SeatView<'_, State>, legal: &[Action]) -> Action {
        if let [only] = legal {
            return *only;
        }
        let advice = self.heuristic.choose(view, legal);
        if view.observation().pending.is_none() && matches!(legal[0], Action::Play(_)) {
            return advice;
        }
        if let Some(reader) = &self.reader {
            let seats = view.observation().players.len();
            for seat in (0..seats).filter(|&s| s != view.seat().index()) {
                let chances = reader.chances(game::Seat(seat as u8));
                self.search.rollout_mut().read(seat, &chances);
            }
        }
        let o = view.observation();
        let knows = super::value::knows(&o.config, o.players.len());
        if knows && let Some(a) = whole_attack(legal) {
            return a;
        }
        if let Some((known, other)) = self.budgets {
            self.search.settings_mut().budget = if knows { known } else { other };
        }
        if let Some((known, other)) = self.biases {
            self.search.settings_mut().policy_bias = if knows { known } else { other };
        }
        // Once the advice is the most visited action for good, the choice is made: the advice
        // (whatever the means, which only matter when the search prefers another action).
        let stats = self
            .search
            .search_unless_settled(view.observation(), Some(advice));
        let of = |a: Action| stats.actions.iter().find(|x| x.0 == a).copied();
        let best = stats
            .actions
            .iter()
            .filter(|(a, _, _)| legal.binary_search(a).is_ok())
            .max_by(|x, y| x.1.cmp(&y.1).then(x.2.total_cmp(&y.2)).then(y.0.cmp(&x.0)))
            .copied();
        match (best, of(advice)) {
            // The search overrules the heuristic only when its choice looks clearly better.
            (Some((_, _, mean)), Some((_, _, advised))) if mean < advised + self.margin(view) => {
                advice
            }
            (Some((a, _, _)), _) => a,
            (None, _) => advice,
        }
    }
}

/// The attack with all the combat when the only choice is how much of it to deal to one player
/// (or none): combat left at the end of a turn is lost, and in a two-player base-set game
/// nothing makes damage to the opponent worse for the attacker than less of it, so the search
/// has nothing to weigh there.
fn whole_attack(legal: &[Action]) -> Option<Action> {
    let mut target = None;
    for &a in legal {
        match a {
            Action::End => {}
            Action::AttackPlayer(seat, _) if target.is_none_or(|t| t == seat) => {
                target = Some(seat);
            }
            _ => return None,
        }
    }
    // The list is sorted: the last attack is the largest.
    legal
        .iter()
        .rev()
        .copied()
        .find(|a| matches!(a, Action::AttackPlayer(..)))
}

/// The heuristic bot, except that it picks a random legal action (never `end` while a card can
/// be played) at a given rate.
pub struct NoisyBot {
    heuristic: HeuristicBot,
    rng: GameRng,
    /// Chance of a random action, in percent.
    noise: u32,
}

impl NoisyBot {
    /// A noisy heuristic bot: `noise` percent of random actions.
    pub fn new(noise: u32, seed: u64) -> Self {
        NoisyBot {
            heuristic: HeuristicBot::new(seed),
            rng: game::rng_from_seed(seed ^ 0x6e6f_6973),
            noise,
        }
    }
}

impl Bot<State> for NoisyBot {
    fn name(&self) -> &str {
        "easy"
    }

    fn choose(&mut self, view: &SeatView<'_, State>, legal: &[Action]) -> Action {
        if (game::below(&mut self.rng, 100) as u32) < self.noise {
            rollout::pick(legal, &mut self.rng)
        } else {
            self.heuristic.choose(view, legal)
        }
    }
}

/// ISMCTS settings of a search level, or of `ismcts:<iterations>`.
pub fn search_settings(iterations: u32) -> Settings {
    Settings {
        budget: Budget::Iterations(iterations),
        ..Settings::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use starrealms::Config;

    /// Decisions with a choice from games of `medium` against `velocity`.
    fn positions(games: u64) -> Vec<State> {
        let mut out = Vec::new();
        for g in 0..games {
            let mut s = State::new(&Config::default(), 40 + g).unwrap();
            let mut players: [Box<dyn Bot<State>>; 2] = [
                Box::new(HeuristicBot::new(g)),
                Box::new(ScriptedBot::new("velocity", g).unwrap()),
            ];
            while let Some(seat) = s.to_move() {
                let legal = s.legal_actions();
                if legal.len() > 1 {
                    out.push(s.clone());
                }
                let a = players[seat.index()].choose(&SeatView::of_state(&s, seat), &legal);
                s.apply(a).unwrap();
            }
        }
        out
    }

    #[test]
    fn a_time_cap_reaches_the_search_and_still_gives_a_legal_move() {
        let mut bot = SearchBot::new(
            "capped",
            search_settings(u32::MAX),
            HeuristicRollout::new(1),
            1,
        );
        assert_eq!(bot.search().settings().time_cap, None);
        Bot::cap_time(&mut bot, std::time::Duration::ZERO);
        assert_eq!(
            bot.search().settings().time_cap,
            Some(std::time::Duration::ZERO)
        );
        // Without the cap, u32::MAX iterations would never end.
        for s in positions(1).into_iter().take(20) {
            let seat = s.to_move().unwrap();
            let legal = s.legal_actions();
            let a = bot.choose(&SeatView::of_state(&s, seat), &legal);
            assert!(legal.contains(&a));
        }
    }

    #[test]
    fn the_margin_over_the_advice_is_the_one_for_the_game_played() {
        // Two players of the base set (which the value network knows) or three.
        let view_of = |seats: u8| {
            let config = Config {
                seats,
                format: if seats == 2 {
                    starrealms::Format::Standard
                } else {
                    starrealms::Format::FreeForAll
                },
                ..Config::default()
            };
            State::new(&config, 3).unwrap()
        };
        let (two, three) = (view_of(2), view_of(3));
        let margin = |bot: &SearchBot<HeuristicRollout>, s: &State| {
            bot.margin(&SeatView::of_state(s, s.to_move().unwrap()))
        };
        let plain = SearchBot::new("plain", search_settings(20), HeuristicRollout::new(1), 1);
        assert_eq!(margin(&plain, &two), SEARCH_MARGIN);
        assert_eq!(margin(&plain, &three), SEARCH_MARGIN);
        let set = plain.with_margins(0.25, 0.5);
        assert_eq!(margin(&set, &two), 0.25);
        assert_eq!(margin(&set, &three), 0.5);
    }

    #[test]
    fn a_kept_tree_serves_the_next_decisions_of_a_turn_until_another_seat_acts() {
        use game::Seat;
        let settings = Settings {
            keep_tree: true,
            policy_bias: 3.0,
            ..search_settings(200)
        };
        let mut bot = SearchBot::new("keep", settings, HeuristicRollout::new(1), 1);
        let mut other = HeuristicBot::new(2);
        let mut s = State::new(&Config::default(), 41).unwrap();
        let (mut carried, mut searched) = (0, 0);
        while let Some(seat) = s.to_move() {
            let legal = s.legal_actions();
            let view = SeatView::of_state(&s, seat);
            let a = if seat == Seat(0) {
                let o = view.observation();
                let searches = legal.len() > 1
                    && !(o.pending.is_none() && matches!(legal[0], Action::Play(_)))
                    && whole_attack(&legal).is_none();
                if searches {
                    searched += 1;
                    carried += usize::from(o.turn == bot.turn && bot.search.kept_visits() > 0);
                }
                bot.choose(&view, &legal)
            } else {
                let a = other.choose(&view, &legal);
                Bot::watch(&mut bot, &SeatView::of_state(&s, Seat(0)), seat, a);
                assert_eq!(bot.search.kept_visits(), 0, "dropped once the other acts");
                a
            };
            s.apply(a).unwrap();
        }
        assert!(
            carried > 5 && carried < searched,
            "{carried} of {searched} searches started from a kept tree"
        );
    }

    #[test]
    fn the_tree_stands_for_a_smaller_attack_or_transfer_by_the_largest_to_the_same_player() {
        use game::Seat;
        let whole = vec![
            Action::AttackPlayer(Seat(1), 1),
            Action::AttackPlayer(Seat(1), 2),
            Action::AttackPlayer(Seat(1), 3),
            Action::AttackPlayer(Seat(2), 1),
            Action::AttackPlayer(Seat(2), 2),
            Action::TransferTrade(Seat(1), 1),
            Action::TransferTrade(Seat(1), 4),
            Action::TransferCombat(Seat(2), 2),
            Action::End,
        ];
        let mut pruned = whole.clone();
        prune(&mut pruned);
        assert_eq!(
            pruned,
            [
                Action::AttackPlayer(Seat(1), 3),
                Action::AttackPlayer(Seat(2), 2),
                Action::TransferTrade(Seat(1), 4),
                Action::TransferCombat(Seat(2), 2),
                Action::End,
            ]
        );
        use Action::{AttackPlayer, End, TransferCombat, TransferTrade};
        for (picked, stands) in [
            (AttackPlayer(Seat(1), 1), Some(AttackPlayer(Seat(1), 3))),
            (AttackPlayer(Seat(2), 1), Some(AttackPlayer(Seat(2), 2))),
            (TransferTrade(Seat(1), 1), Some(TransferTrade(Seat(1), 4))),
            (TransferCombat(Seat(2), 2), Some(TransferCombat(Seat(2), 2))),
            (End, Some(End)),
            // Another player, or an action the tree does not keep: nothing stands for it.
            (AttackPlayer(Seat(3), 1), None),
            (TransferCombat(Seat(1), 1), None),
        ] {
            assert_eq!(tree_action(&pruned, picked), stands, "{picked:?}");
        }
        // Every rollout that prunes so maps so.
        fn maps<R: Rollout<State>>(rollout: R, pruned: &[Action]) -> Option<Action> {
            rollout.tree_action(pruned, Action::AttackPlayer(Seat(1), 2))
        }
        let three = Some(Action::AttackPlayer(Seat(1), 3));
        assert_eq!(maps(HeuristicRollout::new(1), &pruned), three);
        assert_eq!(maps(GreedyRollout, &pruned), three);
        assert_eq!(maps(MixedRollout::new(1), &pruned), three);
        assert_eq!(
            maps(ScriptedRollout::new("velocity", 1).unwrap(), &pruned),
            three
        );
        let value = crate::starrealms::value::ValueRollout::new(4, 1);
        assert_eq!(maps(value, &pruned), three);
    }

    #[test]
    fn scripted_rollouts_decide_as_the_scripted_bots() {
        let mut rng = game::rng_from_seed(1);
        let mut checked = 0;
        for s in positions(6) {
            let seat = s.to_move().unwrap();
            let legal = s.legal_actions();
            for name in super::super::SCRIPTED {
                let mut rollout = ScriptedRollout::new(name, 9).unwrap();
                let mut bot = ScriptedBot::new(name, 9).unwrap();
                let a = rollout.pick(&s, &legal, &mut rng);
                let b = bot.choose(&SeatView::of_state(&s, seat), &legal);
                assert_eq!(a, b, "{name}");
                checked += 1;
            }
        }
        assert!(checked > 500, "{checked}");
    }

    #[test]
    fn mixed_rollouts_play_the_deciding_seat_as_the_heuristic_and_the_others_by_turns() {
        let mut rng = game::rng_from_seed(1);
        let all = positions(6);
        // The policies of the other seats, in their turn, built with the same seeds.
        let others = [
            Policy::Heuristic(HeuristicRollout::new(3 ^ 1)),
            Policy::Heuristic(HeuristicRollout::with_values(
                Values::tuned().clone(),
                3 ^ 2,
            )),
            Policy::Scripted(ScriptedRollout::new("velocity", 3 ^ 3).unwrap()),
            Policy::Scripted(ScriptedRollout::new("attack", 3 ^ 4).unwrap()),
        ];
        let choice = |i: usize, s: &State, l: &[Action]| {
            others[i].clone().pick(s, l, &mut game::rng_from_seed(0))
        };
        let mut disagree = [0usize; 4];
        for (k, s) in all.iter().enumerate() {
            let legal = s.legal_actions();
            // A fresh rollout begun k % 4 + 1 times plays the others by policy (k % 4 + 1) % 4.
            let mut probe = MixedRollout::new(3);
            probe.root(0);
            for _ in 0..=k % 4 {
                probe.begin(s);
            }
            let a = probe.pick(s, &legal, &mut rng);
            if s.to_move().unwrap().index() == 0 {
                let own = HeuristicRollout::new(3).pick(s, &legal, &mut rng);
                assert_eq!(a, own, "the deciding seat plays as the heuristic");
            } else {
                let turn = (k % 4 + 1) % 4;
                assert_eq!(a, choice(turn, s, &legal), "policy {turn}");
                for (i, d) in disagree.iter_mut().enumerate() {
                    *d += usize::from(choice(i, s, &legal) != a);
                }
            }
        }
        // The four policies do play differently.
        assert!(disagree.iter().all(|&d| d > 10), "{disagree:?}");
    }

    #[test]
    fn a_sure_reading_plays_the_others_as_the_heuristic_until_another_policy_is_clear() {
        let mut rng = game::rng_from_seed(1);
        // The seats of `positions` games: medium (seat 0) and velocity (seat 1).
        let states = positions(3);
        // Each policy of the population, with the seeds `MixedRollout::new(5)` gives them.
        let mut heuristic = HeuristicRollout::new(5 ^ 1);
        let mut velocity = ScriptedRollout::new("velocity", 5 ^ 3).unwrap();
        let mut disagree = 0;
        for (chances, sure_of_velocity) in [
            // Nothing read yet: even odds.
            ([0.25, 0.25, 0.25, 0.25], false),
            // Likely `velocity`, not yet sure.
            ([0.05, 0.05, 0.85, 0.05], false),
            // Sure of `velocity`.
            ([0.02, 0.02, 0.94, 0.02], true),
        ] {
            let mut sure = MixedRollout::reading_sure(0.9, 5);
            sure.root(0);
            sure.read(1, &chances);
            for s in states.iter().filter(|s| s.to_move().unwrap().index() == 1) {
                let legal = s.legal_actions();
                sure.begin(s);
                let a = sure.pick(s, &legal, &mut rng);
                let expected = if sure_of_velocity {
                    velocity.pick(s, &legal, &mut rng)
                } else {
                    heuristic.pick(s, &legal, &mut rng)
                };
                assert_eq!(a, expected, "{chances:?}");
                disagree += usize::from(
                    heuristic.pick(s, &legal, &mut rng) != velocity.pick(s, &legal, &mut rng),
                );
            }
        }
        // The two policies do play differently there.
        assert!(disagree > 10, "{disagree}");
        // Taken only for the scripted bots: sure of `tuned`, it plays the heuristic; sure of
        // `velocity`, `velocity`.
        let mut tuned = HeuristicRollout::with_values(Values::tuned().clone(), 5 ^ 2);
        let mut seen_tuned = 0;
        for (chances, by) in [([0.02, 0.94, 0.02, 0.02], 0), ([0.02, 0.02, 0.94, 0.02], 2)] {
            let mut spot = MixedRollout::reading_sure_of(0.9, &["velocity", "attack"], 5);
            spot.root(0);
            spot.read(1, &chances);
            for s in states.iter().filter(|s| s.to_move().unwrap().index() == 1) {
                let legal = s.legal_actions();
                spot.begin(s);
                let a = spot.pick(s, &legal, &mut rng);
                let expected = if by == 2 {
                    velocity.pick(s, &legal, &mut rng)
                } else {
                    heuristic.pick(s, &legal, &mut rng)
                };
                assert_eq!(a, expected, "{chances:?}");
                seen_tuned += usize::from(by == 0 && tuned.pick(s, &legal, &mut rng) != a);
            }
        }
        // `tuned` would have played otherwise somewhere: it was not the one asked.
        assert!(seen_tuned > 0, "{seen_tuned}");
    }

    #[test]
    fn a_leaning_tree_leans_at_its_own_nodes_only_and_its_rollouts_play_as_before() {
        let mut rng = game::rng_from_seed(1);
        let learned = |seed| HeuristicRollout::with_bot(super::super::learned(seed));
        let mut leaning = MixedRollout::reading_sure_of(0.9, &["velocity"], 5).leaning(learned(9));
        let mut plain = MixedRollout::reading_sure_of(0.9, &["velocity"], 5);
        // Copies of the policies, with the same seeds, asked the same questions in the same
        // order: the lean's and the rollouts' own.
        let mut lean = learned(9);
        let mut favourites = plain.clone();
        leaning.root(0);
        plain.root(0);
        favourites.root(0);
        let mut differ = 0;
        for s in positions(3) {
            let legal = s.legal_actions();
            leaning.begin(&s);
            plain.begin(&s);
            favourites.begin(&s);
            assert_eq!(
                leaning.pick(&s, &legal, &mut rng),
                plain.pick(&s, &legal, &mut rng),
                "the rollouts play as without the lean"
            );
            let favourite = leaning.favourite(&s, &legal, &mut rng);
            let unleaned = favourites.favourite(&s, &legal, &mut rng);
            if s.to_move().unwrap().index() == 0 {
                assert_eq!(favourite, lean.pick(&s, &legal, &mut rng));
                differ += usize::from(favourite != unleaned);
            } else {
                assert_eq!(favourite, unleaned, "the opponent's nodes lean as before");
            }
        }
        // `learned` does choose otherwise than the heuristic at some of the seat's decisions.
        assert!(differ > 5, "{differ}");
    }

    #[test]
    fn a_mirroring_rollout_plays_its_own_seat_as_the_heuristic_read_of_the_opponent() {
        let mut rng = game::rng_from_seed(1);
        let states = positions(3);
        // The policies `MixedRollout::new(5)` plays: the deciding seat's heuristic, and the
        // tuned table with its seed in the population.
        let mut own = HeuristicRollout::new(5);
        let mut tuned = HeuristicRollout::with_values(Values::tuned().clone(), 5 ^ 2);
        let mut differ = 0;
        for (chances, mirrored) in [
            // Sure of `tuned`: the deciding seat plays as `tuned` too.
            ([0.02, 0.94, 0.02, 0.02], true),
            // Unsure, or sure of a scripted bot: as the heuristic.
            ([0.25, 0.25, 0.25, 0.25], false),
            ([0.02, 0.02, 0.94, 0.02], false),
        ] {
            let mut mirror = MixedRollout::reading_sure(0.9, 5).mirroring();
            mirror.root(0);
            mirror.read(1, &chances);
            for s in states.iter().filter(|s| s.to_move().unwrap().index() == 0) {
                let legal = s.legal_actions();
                mirror.begin(s);
                let a = mirror.pick(s, &legal, &mut rng);
                let (expected, other) = if mirrored {
                    let t = tuned.pick(s, &legal, &mut rng);
                    (t, own.clone().pick(s, &legal, &mut rng))
                } else {
                    (own.pick(s, &legal, &mut rng), a)
                };
                assert_eq!(a, expected, "{chances:?}");
                differ += usize::from(other != a);
            }
        }
        // `tuned` does play otherwise than the heuristic there.
        assert!(differ > 5, "{differ}");
    }

    #[test]
    fn a_search_modelling_velocity_plays_the_others_as_velocity_in_its_rollouts() {
        let mut rng = game::rng_from_seed(1);
        let mut modelling = MixedRollout::modelling("velocity", 5).unwrap();
        modelling.root(1);
        assert!(MixedRollout::modelling("nobody", 5).is_none());
        // The same policies with the same seeds, asked in the same order.
        let mut heuristic = HeuristicRollout::new(5);
        let mut velocity = ScriptedRollout::new("velocity", 5 ^ 3).unwrap();
        let (mut own, mut others) = (0, 0);
        for s in positions(4) {
            let legal = s.legal_actions();
            modelling.begin(&s);
            let a = modelling.pick(&s, &legal, &mut rng);
            if s.to_move().unwrap().index() == 1 {
                own += 1;
                assert_eq!(a, heuristic.pick(&s, &legal, &mut rng));
            } else {
                others += 1;
                assert_eq!(a, velocity.pick(&s, &legal, &mut rng));
            }
        }
        assert!(own > 100 && others > 100, "{own} {others}");
    }

    #[test]
    fn rollouts_pick_from_their_shorter_list_as_their_bots_from_the_whole() {
        let mut rng = game::rng_from_seed(1);
        let (mut shorter, mut without_view, mut checked) = (0, 0, 0);
        for s in positions(6) {
            let seat = s.to_move().unwrap();
            let legal = s.legal_actions();
            let mut list = Vec::new();
            HeuristicRollout::new(9).actions(&s, &mut list);
            // The whole list but the attacks on a player of less than all the combat.
            let all = (s.players[seat].combat as usize).min(starrealms::action::MAX_ATTACK) as u8;
            let kept: Vec<Action> = legal
                .iter()
                .copied()
                .filter(|a| !matches!(a, Action::AttackPlayer(_, n) if *n < all))
                .collect();
            assert_eq!(list, kept);
            // The value search's rollouts are the heuristic's until they stop.
            let mut value = Vec::new();
            crate::starrealms::value::ValueRollout::new(4, 1).actions(&s, &mut value);
            assert_eq!(value, list);
            shorter += usize::from(list.len() < legal.len());
            without_view += usize::from(heuristic::play_without_view(&list).is_some());
            let whole = HeuristicBot::new(9).choose(&SeatView::of_state(&s, seat), &legal);
            let picked = HeuristicRollout::new(9).pick(&s, &list, &mut rng);
            assert_eq!(picked, whole, "{legal:?}");
            // The mixed rollouts' population (the scripted bots too) picks alike, from the
            // same shorter list.
            let mut mixed = Vec::new();
            MixedRollout::new(1).actions(&s, &mut mixed);
            assert_eq!(mixed, list);
            for name in crate::starrealms::SCRIPTED {
                let mut a = ScriptedRollout::new(name, 9).unwrap();
                let mut b = ScriptedRollout::new(name, 9).unwrap();
                let from_whole = a.pick(&s, &legal, &mut rng);
                assert_eq!(b.pick(&s, &list, &mut rng), from_whole, "{name} {legal:?}");
            }
            checked += 1;
        }
        assert!(checked > 500, "{checked}");
        assert!(
            shorter > 50 && without_view > 50,
            "{shorter} {without_view}"
        );
    }

    #[test]
    fn only_a_choice_of_how_much_to_deal_one_player_is_settled_without_a_search() {
        use Action::{AttackBase, AttackPlayer, BuyRow, End};
        use game::Seat;
        for (legal, settled) in [
            (
                vec![AttackPlayer(Seat(1), 1), AttackPlayer(Seat(1), 2), End],
                Some(AttackPlayer(Seat(1), 2)),
            ),
            (
                vec![AttackPlayer(Seat(1), 1), End],
                Some(AttackPlayer(Seat(1), 1)),
            ),
            (
                vec![AttackPlayer(Seat(1), 3)],
                Some(AttackPlayer(Seat(1), 3)),
            ),
            // Another player to attack, a base, a purchase: choices to weigh.
            (
                vec![AttackPlayer(Seat(1), 1), AttackPlayer(Seat(2), 1), End],
                None,
            ),
            (
                vec![AttackPlayer(Seat(1), 1), AttackBase(Seat(1), 0), End],
                None,
            ),
            (vec![BuyRow(0), AttackPlayer(Seat(1), 1), End], None),
            (vec![End], None),
        ] {
            assert_eq!(whole_attack(&legal), settled, "{legal:?}");
        }
    }
}
