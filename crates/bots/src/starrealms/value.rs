//! A learned evaluation of two-player base-set positions: a small neural network (one hidden
//! layer) trained on games of the heuristic bot against itself, estimating the chance that the
//! player whose turn starts wins. The search stops its rollouts after a turn or two and asks it,
//! instead of playing every game to its end.
//!
//! The network is data: `crates/bots/data/value-base.safetensors`, written by
//! `tools/value-train` from samples of `cargo run --release -p bots --example value_data` (see
//! `docs/ai.md`). Its inputs ([`features`]) are read from a full state, which the search only
//! ever has as a sample drawn from its own seat's observation: the bot still sees nothing its
//! seat may not.

use std::sync::{Arc, OnceLock};

use game::{GameRng, Seat};
use starrealms::{Action, CardId, State, cards};

use super::search::HeuristicRollout;
use crate::ismcts::Rollout;

/// The embedded network.
const VALUE_BASE: &[u8] = include_bytes!("../../data/value-base.safetensors");

/// Card kinds the features count: the base set's, which come first in every embedded card set.
pub fn kinds() -> usize {
    static KINDS: OnceLock<usize> = OnceLock::new();
    *KINDS.get_or_init(|| {
        let set = cards();
        set.iter()
            .take_while(|(_, d)| d.set == 0 && d.upgrade.is_none())
            .count()
    })
}

/// Number of inputs of the network.
pub fn feature_count() -> usize {
    5 * kinds() + 6
}

/// Whether the learned evaluation knows games like this one: two players, the base set alone,
/// no sticker sheet, no scenario rules.
pub fn applies(state: &State) -> bool {
    knows(&state.config, state.players.len())
}

/// Whether the learned evaluation knows games of this configuration and number of seats.
pub fn knows(config: &starrealms::Config, seats: usize) -> bool {
    seats == 2
        && config.sets.is_default()
        && config.sheets.is_empty()
        && config.rules.is_empty()
        && config.trade_deck.is_none()
}

/// The inputs of the network for the position as `me` sees it at the start of its turn (its
/// hand drawn): for `me` then the opponent, every card owned by kind and the bases in play by
/// kind; `me`'s hand by kind; both authorities, the turn, both draw piles and `me`'s discard pile.
pub fn features(state: &State, me: Seat, out: &mut Vec<f32>) {
    let k = kinds();
    out.clear();
    out.resize(feature_count(), 0.0);
    let set = cards();
    let opp = Seat(1 - me.0);
    let mut count = |at: usize, c: CardId| {
        let i = set.printed(c).0 as usize;
        if i < k {
            out[at + i] += 0.25;
        }
    };
    for (block, seat) in [(0, me), (1, opp)] {
        let p = &state.players[seat];
        p.all_cards().for_each(|c| count(block * k, c));
        for b in &p.bases {
            count((2 + block) * k, b.card);
        }
    }
    for &c in &state.players[me].hand {
        count(4 * k, c);
    }
    let at = 5 * k;
    let (mine, theirs) = (&state.players[me], &state.players[opp]);
    out[at] = mine.authority as f32 / 50.0;
    out[at + 1] = theirs.authority as f32 / 50.0;
    out[at + 2] = state.turn as f32 / 50.0;
    out[at + 3] = mine.deck.len() as f32 / 20.0;
    out[at + 4] = theirs.deck.len() as f32 / 20.0;
    out[at + 5] = mine.discard.len() as f32 / 20.0;
}

/// The network: `inputs → hidden (ReLU) → 1 (sigmoid)`.
#[derive(Debug)]
pub struct ValueNet {
    inputs: usize,
    hidden: usize,
    /// `hidden × inputs`, row by row.
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: f32,
}

/// Why a network file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ValueNetError {
    /// Not a safetensors file.
    #[error("not a network file: {0}")]
    Format(String),
    /// A tensor is missing or of the wrong shape or type.
    #[error("tensor `{0}`: {1}")]
    Tensor(&'static str, String),
}

impl ValueNet {
    /// The embedded network.
    pub fn embedded() -> &'static Arc<ValueNet> {
        static NET: OnceLock<Arc<ValueNet>> = OnceLock::new();
        NET.get_or_init(|| {
            Arc::new(ValueNet::from_bytes(VALUE_BASE).expect("the embedded value network is valid"))
        })
    }

    /// Reads a network written by `tools/value-train` (tensors `w1` `[hidden, inputs]`, `b1`
    /// `[hidden]`, `w2` `[1, hidden]`, `b2` `[1]`, all f32).
    pub fn from_bytes(bytes: &[u8]) -> Result<ValueNet, ValueNetError> {
        ValueNet::read(bytes, feature_count())
    }

    /// Reads a network of `features` inputs written by `tools/value-train`.
    pub fn read(bytes: &[u8], features: usize) -> Result<ValueNet, ValueNetError> {
        let file = safetensors::SafeTensors::deserialize(bytes)
            .map_err(|e| ValueNetError::Format(e.to_string()))?;
        let read = |name: &'static str| -> Result<(Vec<usize>, Vec<f32>), ValueNetError> {
            let t = file
                .tensor(name)
                .map_err(|e| ValueNetError::Tensor(name, e.to_string()))?;
            if t.dtype() != safetensors::Dtype::F32 {
                return Err(ValueNetError::Tensor(
                    name,
                    format!("{:?}, not f32", t.dtype()),
                ));
            }
            let data = t
                .data()
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect();
            Ok((t.shape().to_vec(), data))
        };
        let (s1, w1) = read("w1")?;
        let (_, b1) = read("b1")?;
        let (s2, w2) = read("w2")?;
        let (_, b2) = read("b2")?;
        let [hidden, inputs] = s1[..] else {
            return Err(ValueNetError::Tensor("w1", format!("shape {s1:?}")));
        };
        if inputs != features {
            return Err(ValueNetError::Tensor(
                "w1",
                format!("{inputs} inputs, the features are {features}"),
            ));
        }
        if b1.len() != hidden || w2.len() != hidden || s2.last() != Some(&hidden) || b2.len() != 1 {
            return Err(ValueNetError::Tensor(
                "b1, w2, b2",
                "shapes disagree".into(),
            ));
        }
        Ok(ValueNet {
            inputs,
            hidden,
            w1,
            b1,
            w2,
            b2: b2[0],
        })
    }

    /// The estimated chance that the player of these features wins.
    pub fn eval(&self, x: &[f32]) -> f32 {
        self.output(&self.hidden_sums(x))
    }

    /// The hidden layer's sums (before the ReLU) for inputs `x`.
    pub fn hidden_sums(&self, x: &[f32]) -> Vec<f32> {
        debug_assert_eq!(x.len(), self.inputs);
        // Inputs are mostly zero: go over the non-zero ones only.
        let mut h = self.b1.clone();
        for (i, &xi) in x.iter().enumerate() {
            if xi != 0.0 {
                self.add_input(&mut h, i, xi);
            }
        }
        h
    }

    /// Hidden sums `h` once input `i` grows by `dx`.
    pub fn add_input(&self, h: &mut [f32], i: usize, dx: f32) {
        for (j, hj) in h.iter_mut().enumerate() {
            *hj += self.w1[j * self.inputs + i] * dx;
        }
    }

    /// The output for hidden sums `h`.
    pub fn output(&self, h: &[f32]) -> f32 {
        let z: f32 = self.b2
            + h.iter()
                .zip(&self.w2)
                .map(|(&a, &w)| a.max(0.0) * w)
                .sum::<f32>();
        1.0 / (1.0 + (-z).exp())
    }

    /// Hidden units.
    pub fn hidden(&self) -> usize {
        self.hidden
    }
}

/// Heuristic rollouts cut after `turns` turns and scored by the network, in the games it knows
/// ([`applies`]); played to the end in the others. Blended ([`ValueRollout::blended`]), they
/// play on to the end and score the network's estimate at the cut and the game's result by
/// weights.
#[derive(Clone)]
pub struct ValueRollout {
    heuristic: HeuristicRollout,
    net: Arc<ValueNet>,
    turns: u32,
    start: u32,
    active: bool,
    /// The network's weight in a blended rollout's score (`None`: rollouts stop at the cut).
    blend: Option<f64>,
    /// Each seat's chance by the network where this rollout passed its cut, if it did.
    noted: Option<[f64; 2]>,
}

impl ValueRollout {
    /// Rollouts with the embedded network, cut after `turns` turns (at least one).
    pub fn new(turns: u32, seed: u64) -> Self {
        ValueRollout {
            heuristic: HeuristicRollout::new(seed),
            net: ValueNet::embedded().clone(),
            turns: turns.max(1),
            start: 0,
            active: false,
            blend: None,
            noted: None,
        }
    }

    /// Rollouts played to the end whose score is the network's estimate after `turns` turns
    /// (at least one), with weight `weight` (0 to 1), and the game's result with the rest.
    pub fn blended(turns: u32, weight: f64, seed: u64) -> Self {
        ValueRollout {
            blend: Some(weight.clamp(0.0, 1.0)),
            ..ValueRollout::new(turns, seed)
        }
    }

    /// Each seat's chance of winning by the network, for the player whose turn it is.
    fn chances(&self, state: &State) -> [f64; 2] {
        let me = state.current;
        let mut x = Vec::with_capacity(feature_count());
        features(state, me, &mut x);
        let v = self.net.eval(&x) as f64;
        let mut out = [0.0; 2];
        out[me.index()] = v;
        out[1 - me.index()] = 1.0 - v;
        out
    }

    /// The same rollouts played by a heuristic of their own.
    pub fn with_rollout(mut self, heuristic: HeuristicRollout) -> Self {
        self.heuristic = heuristic;
        self
    }
}

impl Rollout<State> for ValueRollout {
    fn prune(&self, state: &State, legal: &mut Vec<Action>) {
        self.heuristic.prune(state, legal);
    }

    fn actions(&self, state: &State, out: &mut Vec<Action>) {
        self.heuristic.actions(state, out);
    }

    fn pick(&mut self, state: &State, legal: &[Action], rng: &mut GameRng) -> Action {
        self.heuristic.pick(state, legal, rng)
    }

    fn tree_action(&self, pruned: &[Action], picked: Action) -> Option<Action> {
        self.heuristic.tree_action(pruned, picked)
    }

    fn begin(&mut self, state: &State) {
        self.start = state.turn;
        self.active = applies(state);
        self.noted = None;
    }

    fn stop(&mut self, state: &State) -> bool {
        if !self.active || state.turn < self.start + self.turns || state.pending.is_some() {
            return false;
        }
        if self.blend.is_none() {
            return true;
        }
        if self.noted.is_none() {
            self.noted = Some(self.chances(state));
        }
        false
    }

    fn finish(&mut self, _state: &State, returns: Vec<f64>) -> Vec<f64> {
        match (self.blend, self.noted) {
            (Some(w), Some(noted)) => returns
                .iter()
                .zip(noted)
                .map(|(&z, v)| w * v + (1.0 - w) * z)
                .collect(),
            _ => returns,
        }
    }

    fn evaluate(&self, state: &State) -> Vec<f64> {
        // The search also asks when a rollout runs out of steps, in any game: the network
        // scores only the games it knows (`begin` found out); the others score nothing, as
        // rollouts do by default.
        if !self.active {
            return vec![0.0; state.players.len()];
        }
        // A blended rollout out of steps keeps the estimate it noted at its cut.
        self.noted.unwrap_or_else(|| self.chances(state)).to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::State as _;
    use starrealms::Config;

    #[test]
    fn the_embedded_network_reads_the_features_of_this_card_set() {
        let net = ValueNet::embedded();
        assert_eq!(net.inputs, feature_count());
        assert!(net.hidden() > 0);
        // The base set's kinds come first in the embedded card set.
        assert!(cards().iter().take(kinds()).all(|(_, d)| d.set == 0));
        assert_ne!(cards().def(CardId(kinds() as u16)).set, 0);
    }

    #[test]
    fn the_network_prefers_the_player_with_more_authority() {
        let net = ValueNet::embedded();
        let state = State::new_game(&Config::default(), 3).unwrap();
        let me = state.current;
        let mut x = Vec::new();
        let v = |s: &State, x: &mut Vec<f32>| {
            features(s, me, x);
            net.eval(x)
        };
        let even = v(&state, &mut x);
        assert!((0.0..=1.0).contains(&even));
        let mut ahead = state.clone();
        ahead.players[Seat(1 - me.0)].authority = 6;
        let mut behind = state.clone();
        behind.players[me].authority = 6;
        let (up, down) = (v(&ahead, &mut x), v(&behind, &mut x));
        assert!(up > even && even > down, "{down} < {even} < {up}");
        assert!(up > 0.8 && down < 0.2, "{down}, {up}");
    }

    #[test]
    fn rollouts_stop_early_only_in_the_games_the_network_knows() {
        let mut r = ValueRollout::new(2, 1);
        let base = State::new_game(&Config::default(), 1).unwrap();
        r.begin(&base);
        assert!(!r.stop(&base));
        let mut later = base.clone();
        later.turn += 2;
        assert!(r.stop(&later));
        let returns = r.evaluate(&later);
        assert!((returns[0] + returns[1] - 1.0).abs() < 1e-9);
        let cw = Config {
            sets: starrealms::cards::Sets::parse("base,colony_wars").unwrap(),
            ..Config::default()
        };
        let mut other = State::new_game(&cw, 1).unwrap();
        r.begin(&other);
        other.turn += 5;
        assert!(!r.stop(&other), "a Colony Wars game is played to its end");
    }

    #[test]
    fn a_blended_rollout_plays_on_and_weighs_the_network_at_its_cut_with_the_result() {
        let close = |a: &[f64], b: &[f64]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-9);
        let mut r = ValueRollout::blended(1, 0.25, 1);
        let base = State::new_game(&Config::default(), 1).unwrap();
        r.begin(&base);
        assert!(!r.stop(&base));
        // Before its cut it has noted nothing: the game's result alone.
        assert_eq!(r.finish(&base, vec![1.0, 0.0]), vec![1.0, 0.0]);
        let mut cut = base.clone();
        cut.turn += 1;
        assert!(!r.stop(&cut), "it plays on past its cut");
        let mut plain = ValueRollout::new(1, 1);
        plain.begin(&base);
        let v = plain.evaluate(&cut);
        assert!(v[0] > 0.0 && v[1] > 0.0);
        let expect = [0.25 * v[0] + 0.75, 0.25 * v[1]];
        assert!(close(&r.finish(&cut, vec![1.0, 0.0]), &expect));
        // What it noted at the cut stays, wherever the rollout goes from there.
        let mut later = cut.clone();
        later.turn += 3;
        later.players[Seat(0)].authority = 2;
        assert!(!r.stop(&later));
        assert!(close(&r.finish(&later, vec![1.0, 0.0]), &expect));
        // Out of steps, it keeps its noted estimate.
        assert!(close(&r.evaluate(&later), &v));
        // A new rollout forgets it.
        r.begin(&base);
        assert_eq!(r.finish(&base, vec![0.0, 1.0]), vec![0.0, 1.0]);
        // In a game the network does not know, the result alone.
        let cw = Config {
            sets: starrealms::cards::Sets::parse("base,colony_wars").unwrap(),
            ..Config::default()
        };
        let other = State::new_game(&cw, 1).unwrap();
        r.begin(&other);
        let mut later = other.clone();
        later.turn += 5;
        assert!(!r.stop(&later));
        assert_eq!(r.finish(&later, vec![0.0, 1.0]), vec![0.0, 1.0]);
    }

    #[test]
    fn a_rollout_out_of_steps_in_a_game_the_network_does_not_know_scores_nothing() {
        // The search asks for a score when a rollout runs out of steps, whatever the game.
        let mut r = ValueRollout::new(2, 1);
        let four = Config {
            format: starrealms::Format::FreeForAll,
            ..Config::default()
        };
        for seats in [3u8, 4] {
            let mut state = State::new_game(
                &Config {
                    seats,
                    ..four.clone()
                },
                1,
            )
            .unwrap();
            state.current = Seat(seats - 1);
            r.begin(&state);
            assert_eq!(r.evaluate(&state), vec![0.0; usize::from(seats)]);
        }
        let cw = Config {
            sets: starrealms::cards::Sets::parse("base,colony_wars").unwrap(),
            ..Config::default()
        };
        let state = State::new_game(&cw, 1).unwrap();
        r.begin(&state);
        assert_eq!(r.evaluate(&state), vec![0.0; 2]);
        // A game it knows, out of steps as well, gets the network's score.
        let base = State::new_game(&Config::default(), 1).unwrap();
        r.begin(&base);
        let returns = r.evaluate(&base);
        assert!(returns[0] > 0.0 && (returns[0] + returns[1] - 1.0).abs() < 1e-9);
    }

    #[test]
    fn a_broken_network_file_is_refused_in_words() {
        let err = ValueNet::from_bytes(b"not a network").unwrap_err();
        assert!(err.to_string().starts_with("not a network file"), "{err}");
    }
}
