//! ISMCTS benchmarks: one search from a mid-game position, with each rollout policy. Criterion
//! reports searches per second; the throughput is set to the iterations, and the simulated
//! actions of one search (a fixed number for a fixed seed) are printed once, so both rates can
//! be read. Run with `cargo bench -p bots --bench search`; figures go in `docs/benchmarks.md`.

#![allow(missing_docs)] // criterion's macros generate undocumented functions

use std::hint::black_box;

use bots::ismcts::{Ismcts, Rollout, Settings, UniformRollout};
use bots::starrealms::{GreedyRollout, HeuristicRollout, search_settings};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use game::State as _;
use starrealms::{Config, Observation, State, rollout};

const ITERATIONS: u32 = 1000;

/// A position on turn 7 of a random game, as the seat to move sees it.
fn position() -> Observation {
    let mut s = State::new_game(&Config::default(), 8).unwrap();
    let mut rng = game::rng_from_seed(2);
    let mut buf = Vec::new();
    while s.turn < 7 || s.legal_actions().len() < 3 {
        let a = rollout::random_action(&s, &mut buf, &mut rng);
        s.apply_unchecked(a);
    }
    s.observation(s.to_move().unwrap())
}

fn bench<R: Rollout<State> + 'static>(c: &mut Criterion, name: &str, rollout: R) {
    let obs = position();
    let settings: Settings = search_settings(ITERATIONS);
    let stats = Ismcts::<State, R>::new(name, settings.clone(), rollout.clone(), 1).search(&obs);
    println!(
        "{name}: {} iterations simulate {} actions ({:.0} actions per iteration)",
        stats.iterations,
        stats.simulated_actions,
        stats.simulated_actions as f64 / stats.iterations as f64
    );
    let mut group = c.benchmark_group("ismcts");
    group.sample_size(10);
    group.throughput(Throughput::Elements(ITERATIONS as u64));
    group.bench_function(name, |b| {
        b.iter(|| {
            let mut bot = Ismcts::<State, R>::new(name, settings.clone(), rollout.clone(), 1);
            black_box(bot.search(&obs).simulated_actions)
        })
    });
    group.finish();
}

fn searches(c: &mut Criterion) {
    bench(c, "uniform_rollouts", UniformRollout);
    bench(c, "greedy_rollouts", GreedyRollout);
    bench(c, "heuristic_rollouts", HeuristicRollout::new(1));
}

criterion_group!(benches, searches);
criterion_main!(benches);
