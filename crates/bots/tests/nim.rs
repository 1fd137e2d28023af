//! ISMCTS on Nim, a tiny game with a known optimal strategy: move to a position whose piles'
//! XOR (nim-sum) is 0. The player who takes the last object wins.

use std::fmt;

use bots::ismcts::{Budget, Ismcts, Rollout, Settings, UniformRollout};
use bots::{Bot, SeatView};
use game::{ActionError, GameRng, Seat};
use serde::Serialize;

const PILES: usize = 3;
const MAX: u8 = 7;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Take {
    pile: u8,
    count: u8,
}

impl fmt::Display for Take {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "take {} {}", self.pile, self.count)
    }
}

impl game::Action for Take {
    fn space_size() -> usize {
        PILES * MAX as usize
    }
    fn index(&self) -> usize {
        self.pile as usize * MAX as usize + self.count as usize - 1
    }
    fn from_index(i: usize) -> Option<Self> {
        (i < Self::space_size()).then(|| Take {
            pile: (i / MAX as usize) as u8,
            count: (i % MAX as usize) as u8 + 1,
        })
    }
    fn parse(text: &str) -> Result<Self, ActionError> {
        let w: Vec<&str> = text.split_whitespace().collect();
        match w[..] {
            ["take", p, c] => Ok(Take {
                pile: p.parse().map_err(|_| bad(text))?,
                count: c.parse().map_err(|_| bad(text))?,
            }),
            _ => Err(bad(text)),
        }
    }
}

fn bad(text: &str) -> ActionError {
    ActionError::Parse {
        text: text.into(),
        reason: "expected `take <pile> <count>`".into(),
        why: None,
    }
}

thread_local! {
    /// States sampled by `determinize` on this thread.
    static SAMPLES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

#[derive(Clone, Debug, PartialEq, Serialize)]
struct Nim {
    piles: [u8; PILES],
    to_move: u8,
    winner: Option<u8>,
}

impl game::Observation for Nim {
    type State = Nim;
    fn seat(&self) -> Option<Seat> {
        Some(Seat(self.to_move))
    }
    fn determinize(&self, _rng: &mut GameRng) -> Nim {
        SAMPLES.with(|n| n.set(n.get() + 1));
        self.clone()
    }
}

impl game::State for Nim {
    type Action = Take;
    type Observation = Nim;
    type Config = Vec<u8>;
    const GAME: &'static str = "nim";

    fn new_game(config: &Vec<u8>, _seed: u64) -> Result<Self, String> {
        let mut piles = [0; PILES];
        piles.copy_from_slice(config);
        Ok(Nim {
            piles,
            to_move: 0,
            winner: None,
        })
    }
    fn num_seats(&self) -> usize {
        2
    }
    fn to_move(&self) -> Option<Seat> {
        self.winner.is_none().then_some(Seat(self.to_move))
    }
    fn legal_actions_into(&self, out: &mut Vec<Take>) {
        out.clear();
        if self.winner.is_some() {
            return;
        }
        for (p, &n) in self.piles.iter().enumerate() {
            for count in 1..=n {
                out.push(Take {
                    pile: p as u8,
                    count,
                });
            }
        }
    }
    fn apply(&mut self, a: Take) -> Result<(), ActionError> {
        if self.winner.is_some() || a.count == 0 || self.piles[a.pile as usize] < a.count {
            return Err(ActionError::Illegal {
                action: a.to_string(),
                hint: String::new(),
                reason: None,
            });
        }
        self.piles[a.pile as usize] -= a.count;
        if self.piles.iter().all(|&p| p == 0) {
            self.winner = Some(self.to_move);
        }
        self.to_move = 1 - self.to_move;
        Ok(())
    }
    fn returns(&self) -> Vec<f64> {
        (0..2).map(|s| f64::from(self.winner == Some(s))).collect()
    }
    fn winners(&self) -> Vec<Seat> {
        self.winner.map(Seat).into_iter().collect()
    }
    fn observation(&self, _seat: Seat) -> Nim {
        self.clone()
    }
}

fn nim_sum(piles: &[u8]) -> u8 {
    piles.iter().fold(0, |x, &p| x ^ p)
}

fn bot(iterations: u32, threads: usize, seed: u64) -> Ismcts<Nim, UniformRollout> {
    let settings = Settings {
        budget: Budget::Iterations(iterations),
        threads,
        ..Settings::default()
    };
    Ismcts::new("ismcts", settings, UniformRollout, seed)
}

fn choose(bot: &mut Ismcts<Nim, UniformRollout>, state: &Nim) -> Take {
    let legal = game::State::legal_actions(state);
    bot.choose(&SeatView::of_state(state, Seat(state.to_move)), &legal)
}

#[test]
fn ismcts_finds_the_winning_nim_move() {
    for piles in [
        [1, 2, 4],
        [2, 2, 1],
        [0, 3, 5],
        [1, 1, 3],
        [2, 3, 4],
        [3, 4, 5],
    ] {
        assert_ne!(nim_sum(&piles), 0, "a winning position");
        let mut state = game::State::new_game(&piles.to_vec(), 0).unwrap();
        let a = choose(&mut bot(100_000, 1, 1), &state);
        game::State::apply(&mut state, a).unwrap();
        assert_eq!(
            nim_sum(&state.piles),
            0,
            "{piles:?}: {a} leaves {:?}",
            state.piles
        );
    }
}

#[test]
fn ismcts_wins_nim_from_a_winning_position_against_a_perfect_player() {
    // After the bot's move, a perfect opponent cannot win; it plays any move and loses.
    let mut state: Nim = game::State::new_game(&vec![3, 5, 6], 0).unwrap();
    let mut me = bot(3000, 2, 7);
    while state.winner.is_none() {
        let a = if state.to_move == 0 {
            choose(&mut me, &state)
        } else {
            game::State::legal_actions(&state)[0]
        };
        game::State::apply(&mut state, a).unwrap();
    }
    assert_eq!(state.winner, Some(0));
}

#[test]
fn a_tree_of_the_deciding_seats_own_decisions_stops_at_the_opponents() {
    // In Nim the players alternate: a tree of the root seat's decisions only is the root and one
    // child per legal move; the full tree grows into the replies.
    let state: Nim = game::State::new_game(&vec![3, 5, 6], 0).unwrap();
    let moves = game::State::legal_actions(&state).len() as u64;
    let own = Settings {
        own_decisions_only: true,
        ..bot(2000, 1, 5).settings().clone()
    };
    let stats = Ismcts::<Nim, _>::new("own", own, UniformRollout, 5).search(&state);
    assert_eq!(stats.nodes, 1 + moves);
    assert_eq!(stats.iterations, 2000);
    assert_eq!(stats.actions.len() as u64, moves);
    let full = bot(2000, 1, 5).search(&state);
    assert!(full.nodes > 10 * moves, "{} nodes", full.nodes);
}

#[test]
fn shared_samples_sample_once_for_so_many_iterations_and_still_find_the_move() {
    let state: Nim = game::State::new_game(&vec![1, 4, 6], 0).unwrap();
    for (shared, samples) in [(1, 30_000), (8, 3750), (7, 4286)] {
        let settings = Settings {
            shared_samples: shared,
            ..bot(30_000, 1, 2).settings().clone()
        };
        let mut searching = Ismcts::<Nim, _>::new("shared", settings, UniformRollout, 2);
        let before = SAMPLES.with(|n| n.get());
        let a = choose(&mut searching, &state);
        assert_eq!(SAMPLES.with(|n| n.get()) - before, samples, "{shared}");
        let mut after = state.clone();
        game::State::apply(&mut after, a).unwrap();
        assert_eq!(nim_sum(&after.piles), 0, "{shared}: {a}");
    }
}

#[test]
fn a_fixed_budget_and_seed_give_the_same_search_whatever_the_run() {
    let state: Nim = game::State::new_game(&vec![4, 6, 7], 0).unwrap();
    for threads in [1, 2] {
        let a = bot(500, threads, 3).search(&state);
        let b = bot(500, threads, 3).search(&state);
        assert_eq!(a, b);
        assert_eq!(a.iterations, 500, "the budget is spread over the threads");
        let visits: u32 = a.actions.iter().map(|x| x.1).sum();
        assert_eq!(
            visits as u64, a.iterations,
            "every iteration visits one root child"
        );
    }
}

#[test]
fn a_work_budget_stops_once_the_actions_and_iterations_reach_it() {
    use bots::ismcts::ITERATION_WORK;

    let work = |stats: &bots::ismcts::RootStats<Take>| {
        stats.simulated_actions + ITERATION_WORK * stats.iterations
    };
    // Nim's rollouts are longer from bigger piles: the same work buys fewer iterations there.
    let mut iterations = Vec::new();
    for piles in [vec![1, 2, 3], vec![9, 12, 14]] {
        let state: Nim = game::State::new_game(&piles, 0).unwrap();
        for threads in [1, 2] {
            let settings = Settings {
                budget: Budget::Work(50_000),
                ..bot(1, threads, 4).settings().clone()
            };
            let search = |seed| {
                Ismcts::<Nim, _>::new("work", settings.clone(), UniformRollout, seed).search(&state)
            };
            let stats = search(4);
            assert_eq!(stats, search(4), "reproducible");
            // Each thread stops at its first iteration past its share, so past it by less than
            // one iteration's work (a tree walk and a rollout take at most one action a stick).
            assert!(work(&stats) >= 50_000, "{piles:?}: {}", work(&stats));
            let sticks: u64 = piles.iter().map(|&p| u64::from(p)).sum();
            let most = 50_000 + threads as u64 * (ITERATION_WORK + sticks);
            assert!(work(&stats) <= most, "{piles:?}: {}", work(&stats));
            if threads == 1 {
                iterations.push(stats.iterations);
            }
        }
    }
    assert!(4 * iterations[0] > 5 * iterations[1], "{iterations:?}");
}

#[test]
fn a_raised_stop_flag_ends_the_search_early() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};

    let state: Nim = game::State::new_game(&vec![4, 6, 7], 0).unwrap();
    let flag = Arc::new(AtomicBool::new(false));
    let mut searching = bot(2000, 2, 3);
    searching.stop_when(Arc::clone(&flag));
    assert_eq!(
        searching.search(&state).iterations,
        2000,
        "not raised: the whole budget"
    );
    flag.store(true, Ordering::Relaxed);
    let stopped = searching.search(&state);
    // Each thread stops at its first check, after 16 iterations.
    assert_eq!(stopped.iterations, 32);
    // Through the bot trait too: the decision is still a legal move.
    let mut through_trait: Box<dyn Bot<Nim>> = Box::new(bot(1_000_000, 1, 3));
    through_trait.stop_when(Arc::clone(&flag));
    let legal = game::State::legal_actions(&state);
    let chosen = through_trait.choose(&SeatView::of_state(&state, Seat(0)), &legal);
    assert!(legal.contains(&chosen));
}

#[test]
fn a_time_cap_ends_a_search_whatever_its_budget_and_only_then() {
    use std::time::Duration;

    let state: Nim = game::State::new_game(&vec![4, 6, 7], 0).unwrap();
    // A cap the search never reaches changes nothing: the same search, iteration for iteration.
    let mut plain = bot(2000, 1, 5);
    let mut capped = bot(2000, 1, 5);
    capped.cap_time(Duration::from_secs(3600));
    assert_eq!(capped.settings().time_cap, Some(Duration::from_secs(3600)));
    assert_eq!(plain.search(&state), capped.search(&state));
    // A cap already reached: each thread stops at its first check, after 16 iterations,
    // whether the budget is iterations, work or a longer time.
    for budget in [
        Budget::Iterations(u32::MAX),
        Budget::Work(u64::MAX),
        Budget::Time(Duration::from_secs(3600)),
    ] {
        let mut searching = bot(1, 2, 5);
        searching.settings_mut().budget = budget;
        searching.cap_time(Duration::ZERO);
        assert_eq!(searching.search(&state).iterations, 32, "{budget:?}");
    }
    // Through the bot trait, as the server and the terminal set it: a legal move, at once.
    let mut through_trait: Box<dyn Bot<Nim>> = Box::new(bot(u32::MAX, 1, 5));
    through_trait.cap_time(Duration::ZERO);
    let legal = game::State::legal_actions(&state);
    let chosen = through_trait.choose(&SeatView::of_state(&state, Seat(0)), &legal);
    assert!(legal.contains(&chosen));
}

/// A rollout policy that plays Nim perfectly when it can (leaves a nim-sum of 0), and otherwise
/// takes one object from the first pile that has any; or, `wrong`, always the latter.
#[derive(Clone)]
struct Scripted {
    wrong: bool,
}

impl Rollout<Nim> for Scripted {
    fn pick(&mut self, state: &Nim, legal: &[Take], _rng: &mut GameRng) -> Take {
        let winning = legal.iter().copied().find(|a| {
            let mut piles = state.piles;
            piles[a.pile as usize] -= a.count;
            nim_sum(&piles) == 0
        });
        match winning {
            Some(a) if !self.wrong => a,
            _ => legal[0],
        }
    }
}

fn biased(iterations: u32, bias: f64, wrong: bool) -> Ismcts<Nim, Scripted> {
    let settings = Settings {
        policy_bias: bias,
        ..bot(iterations, 1, 9).settings().clone()
    };
    Ismcts::new("biased", settings, Scripted { wrong }, 9)
}

#[test]
fn a_policy_bias_tries_the_policys_move_first() {
    for piles in [[3, 4, 5], [1, 4, 6], [2, 3, 4]] {
        let state: Nim = game::State::new_game(&piles.to_vec(), 0).unwrap();
        let stats = biased(1, 1.0, false).search(&state);
        let visited: Vec<Take> = stats
            .actions
            .iter()
            .filter(|x| x.1 > 0)
            .map(|x| x.0)
            .collect();
        assert_eq!(visited.len(), 1, "{piles:?}");
        let mut after = state.clone();
        game::State::apply(&mut after, visited[0]).unwrap();
        assert_eq!(nim_sum(&after.piles), 0, "{piles:?}: {}", visited[0]);
    }
}

#[test]
fn a_policy_bias_leads_the_tree_until_its_results_say_otherwise() {
    let state: Nim = game::State::new_game(&vec![3, 4, 5], 0).unwrap();
    let legal = game::State::legal_actions(&state);
    let share = |stats: &bots::ismcts::RootStats<Take>, a: Take| {
        let all: u32 = stats.actions.iter().map(|x| x.1).sum();
        let of = stats.actions.iter().find(|x| x.0 == a).map_or(0, |x| x.1);
        f64::from(of) / f64::from(all)
    };
    // A small budget: the perfect policy's move gets far more of the visits with a strong bias
    // than without it (trying it first alone gives it about a fifth).
    let good = {
        let mut after = state.clone();
        let a = Scripted { wrong: false }.pick(&state, &legal, &mut game::rng_from_seed(0));
        game::State::apply(&mut after, a).unwrap();
        assert_eq!(nim_sum(&after.piles), 0);
        a
    };
    let plain = biased(300, 0.0, false).search(&state);
    let leaning = biased(300, 30.0, false).search(&state);
    assert!(
        share(&leaning, good) > 0.35 && share(&leaning, good) > share(&plain, good) + 0.2,
        "{} against {}",
        share(&leaning, good),
        share(&plain, good)
    );
    // A policy that always plays a losing move: with enough iterations the search still finds
    // the winning one.
    let mut wrong = biased(30_000, 3.0, true);
    let a = wrong.choose(&SeatView::of_state(&state, Seat(0)), &legal);
    assert_eq!(a, good, "the results overrule the policy");
}

#[test]
fn a_search_stops_once_the_settled_move_can_no_longer_be_overtaken() {
    // [1, 2, 4]: one winning move (take 1 from the pile of 4), which the search visits most.
    let state: Nim = game::State::new_game(&vec![1, 2, 4], 0).unwrap();
    let full = bot(20_000, 1, 9).search(&state);
    let most = |stats: &bots::ismcts::RootStats<Take>| {
        let top = stats.actions.iter().max_by_key(|x| x.1).unwrap();
        (top.0, top.1)
    };
    let (leader, _) = most(&full);
    assert_eq!(leader, Take { pile: 2, count: 1 });
    let settled = bot(20_000, 1, 9).search_unless_settled(&state, Some(leader));
    assert!(
        settled.iterations < full.iterations * 3 / 5,
        "{} of {} iterations",
        settled.iterations,
        full.iterations
    );
    // Stopped exactly when the other moves, given every iteration left, could no longer reach it.
    let (top, visits) = most(&settled);
    assert_eq!(top, leader);
    let left = full.iterations - settled.iterations;
    let second = settled
        .actions
        .iter()
        .filter(|x| x.0 != leader)
        .map(|x| x.1)
        .max()
        .unwrap();
    assert!(u64::from(visits) > u64::from(second) + left);
    assert!(
        u64::from(visits) <= u64::from(second) + left + 2,
        "not later than needed"
    );
    // The iterations it ran are the full search's first ones: the same tree, the same visits.
    let same_start = bot(settled.iterations as u32, 1, 9).search(&state);
    assert_eq!(same_start.actions, settled.actions);
    // A move that does not lead never stops the search; nor does a search on two threads.
    let other = Take { pile: 0, count: 1 };
    assert_eq!(
        bot(20_000, 1, 9).search_unless_settled(&state, Some(other)),
        full
    );
    let two = bot(20_000, 2, 9);
    assert_eq!(
        { two }
            .search_unless_settled(&state, Some(leader))
            .iterations,
        20_000
    );
}

#[test]
fn a_kept_tree_starts_the_next_decision_with_its_visits_and_only_when_followed() {
    let keep = |seed| {
        let settings = Settings {
            keep_tree: true,
            ..bot(3000, 1, seed).settings().clone()
        };
        Ismcts::<Nim, _>::new("keep", settings, UniformRollout, seed)
    };
    let total = |stats: &bots::ismcts::RootStats<Take>| -> u64 {
        stats.actions.iter().map(|x| u64::from(x.1)).sum()
    };
    let start: Nim = game::State::new_game(&vec![3, 5, 7], 0).unwrap();
    // The bot moves (`choose` follows its own move), then the opponent replies.
    let mut me = keep(4);
    let mine = choose(&mut me, &start);
    let mut state = start.clone();
    game::State::apply(&mut state, mine).unwrap();
    let reply = game::State::legal_actions(&state)[0];
    game::State::apply(&mut state, reply).unwrap();
    let mut followed = keep(4);
    assert_eq!(choose(&mut followed, &start), mine, "the same search");
    followed.follow(reply);
    let kept = followed.kept_visits();
    assert!(kept > 0, "visits below the two moves");
    let stats = followed.search(&state);
    assert_eq!(stats.iterations, 3000);
    assert_eq!(total(&stats), u64::from(kept) + 3000, "kept visits and new");
    // The search grown on the kept tree still finds the winning move.
    let best = stats.actions.iter().max_by_key(|x| x.1).unwrap().0;
    let mut after = state.clone();
    game::State::apply(&mut after, best).unwrap();
    assert_eq!(nim_sum(&after.piles), 0, "{best} leaves {:?}", after.piles);
    // The same position without a tree followed to it: 3,000 visits only.
    assert_eq!(total(&keep(4).search(&state)), 3000);
    // A tree forgotten, or that never saw the action followed, is dropped.
    let mut forgot = keep(4);
    choose(&mut forgot, &start);
    forgot.follow(reply);
    forgot.forget();
    assert_eq!(forgot.kept_visits(), 0);
    assert_eq!(total(&forgot.search(&state)), 3000);
    let mut lost = keep(4);
    choose(&mut lost, &start);
    lost.follow(Take { pile: 0, count: 7 });
    assert_eq!(lost.kept_visits(), 0);
    // A search whose last decision was not followed does not start from its root again.
    let mut again = keep(4);
    again.search(&state);
    assert_eq!(total(&again.search(&state)), 3000);
    // Without the setting nothing is kept.
    let mut plain = bot(3000, 1, 4);
    choose(&mut plain, &start);
    plain.follow(reply);
    assert_eq!(plain.kept_visits(), 0);
}
