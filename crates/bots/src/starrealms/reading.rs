//! Reading which policy each opponent plays by, from what it does in the open.
//!
//! Whenever another seat decides with an empty hand (its cards played, so the only thing it
//! knows that this seat does not is its own deck, which no policy reads), its decision is one
//! this seat can pose again exactly: a state sampled from this seat's view gives the other seat
//! the very observation and legal actions it had. Each policy of [`POLICIES`] is asked what it
//! would do there, and the seat's chance of playing by each is updated by Bayes' rule (a
//! policy's answer is taken to match its decision with chance `1 - EPS`, its ties breaking at
//! random). Only in the games these policies know best (two players, the base set).

use game::{GameRng, Seat};
use starrealms::{Action, State};

use super::{HeuristicBot, ScriptedBot, Values};
use crate::{Bot, SeatView};

/// The policies read, in the order of the chances [`Reader::chances`] gives.
pub const POLICIES: [&str; 4] = ["medium", "tuned", "velocity", "attack"];

/// How often a policy is taken to decide otherwise than it answers when asked.
const EPS: f64 = 0.1;

/// What a seat has read of the others' policies.
pub struct Reader {
    policies: Vec<Box<dyn Bot<State>>>,
    /// Per seat, each policy's log-likelihood.
    log_likelihood: Vec<[f64; POLICIES.len()]>,
    rng: GameRng,
    /// The turn of the last decision seen (one earlier means another game began).
    turn: u32,
}

impl Reader {
    /// A reader with its seed (for the states it samples and the policies' tie-breaks).
    pub fn new(seed: u64) -> Self {
        Reader {
            policies: vec![
                Box::new(HeuristicBot::new(seed ^ 1)),
                Box::new(HeuristicBot::with_values(Values::tuned().clone(), seed ^ 2)),
                Box::new(ScriptedBot::new("velocity", seed ^ 3).expect("a scripted bot")),
                Box::new(ScriptedBot::new("attack", seed ^ 4).expect("a scripted bot")),
            ],
            log_likelihood: Vec::new(),
            rng: game::rng_from_seed(seed ^ 5),
            turn: 0,
        }
    }

    /// Reads the decision `action` of seat `by`, from `view` (this seat's, just before it).
    pub fn watch(&mut self, view: &SeatView<'_, State>, by: Seat, action: Action) {
        let o = view.observation();
        if o.turn < self.turn {
            self.log_likelihood.clear();
        }
        self.turn = o.turn;
        if self.log_likelihood.len() != o.players.len() {
            self.log_likelihood = vec![[0.0; POLICIES.len()]; o.players.len()];
        }
        if by == view.seat()
            || !super::value::knows(&o.config, o.players.len())
            || o.players[by.index()].hand_count != 0
        {
            return;
        }
        let state = o.determinize(&mut self.rng);
        if state.to_move() != Some(by) {
            return;
        }
        let legal = state.legal_actions();
        if legal.len() < 2 || legal.binary_search(&action).is_err() {
            return;
        }
        let asked = SeatView::of_state(&state, by);
        let miss = (EPS / legal.len() as f64).ln();
        let hit = (1.0 - EPS).ln();
        for (l, policy) in self.log_likelihood[by.index()]
            .iter_mut()
            .zip(&mut self.policies)
        {
            *l += if policy.choose(&asked, &legal) == action {
                hit
            } else {
                miss
            };
        }
    }

    /// The chance that `seat` plays by each of [`POLICIES`], from even odds and what was read.
    pub fn chances(&self, seat: Seat) -> [f64; POLICIES.len()] {
        let Some(ll) = self.log_likelihood.get(seat.index()) else {
            return [1.0 / POLICIES.len() as f64; POLICIES.len()];
        };
        let top = ll.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let w = ll.map(|l| (l - top).exp());
        let sum: f64 = w.iter().sum();
        w.map(|x| x / sum)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::mix_seed;
    use starrealms::Config;

    /// Plays a game of `a` against `b`, seat 0 reading seat 1, to turn `turns`; returns the
    /// chances it gives seat 1 then.
    fn read(a: &str, b: &str, seed: u64, turns: u32) -> [f64; 4] {
        let mut s = State::new(&Config::default(), seed).expect("the standard game");
        let mut players = [
            super::super::by_name(a, mix_seed(seed ^ 1)).expect("a bot"),
            super::super::by_name(b, mix_seed(seed ^ 2)).expect("a bot"),
        ];
        let mut reader = Reader::new(seed);
        while let Some(seat) = s.to_move() {
            if s.turn > turns {
                break;
            }
            let legal = s.legal_actions();
            let action = players[seat.index()].choose(&SeatView::of_state(&s, seat), &legal);
            if seat == Seat(1) {
                reader.watch(&SeatView::of_state(&s, Seat(0)), seat, action);
            }
            s.apply(action).expect("a legal action");
        }
        reader.chances(Seat(1))
    }

    #[test]
    fn each_scripted_policy_is_named_once_it_has_bought_a_while() {
        for (i, name) in POLICIES.iter().enumerate() {
            let mut named = 0;
            for g in 0..10 {
                let chances = read("medium", name, 100 + g, 16);
                let sum: f64 = chances.iter().sum();
                assert!((sum - 1.0).abs() < 1e-9, "{chances:?}");
                let best = (0..4)
                    .max_by(|&x, &y| chances[x].total_cmp(&chances[y]))
                    .expect("four");
                named += usize::from(best == i);
            }
            assert!(named >= 8, "{name} named {named} times of 10");
        }
    }

    #[test]
    fn nothing_is_read_of_the_seats_own_decisions_nor_before_any() {
        let mut s = State::new(&Config::default(), 3).expect("the standard game");
        let mut reader = Reader::new(3);
        assert_eq!(reader.chances(Seat(1)), [0.25; 4]);
        let mut me = super::super::by_name("medium", 1).expect("a bot");
        // The first turn is seat 0's; it reads nothing of its own decisions.
        while s.to_move() == Some(Seat(0)) {
            let legal = s.legal_actions();
            let action = me.choose(&SeatView::of_state(&s, Seat(0)), &legal);
            reader.watch(&SeatView::of_state(&s, Seat(0)), Seat(0), action);
            s.apply(action).expect("a legal action");
        }
        assert_eq!(reader.chances(Seat(0)), [0.25; 4]);
        assert_eq!(reader.chances(Seat(1)), [0.25; 4]);
    }
}
