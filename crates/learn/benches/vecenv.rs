//! The batched environment's speed: 64 Star Realms games stepped together with uniformly random
//! legal actions, every row encoded.

#![allow(missing_docs)] // criterion's macros generate undocumented functions

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use learn::{Opponent, VecEnv};

fn steps(c: &mut Criterion) {
    let n = 64;
    let mut v =
        VecEnv::<starrealms::State>::new(starrealms::Config::default(), n, 1, Opponent::SelfPlay)
            .unwrap();
    let a = v.action_space();
    let mut obs = vec![0.0; n * v.observation_size()];
    let mut mask = vec![0; n * a];
    let mut rewards = vec![0.0; n];
    let mut dones = vec![0; n];
    let mut seats = vec![0; n];
    v.reset(&mut obs, &mut mask, &mut seats);
    let mut rng = game::rng_from_seed(3);
    let mut actions = vec![0i64; n];
    let mut legal = Vec::new();
    let mut group = c.benchmark_group("vecenv");
    group.throughput(Throughput::Elements(n as u64));
    group.bench_function("starrealms_64_random_steps", |b| {
        b.iter(|| {
            for (i, m) in mask.chunks(a).enumerate() {
                legal.clear();
                legal.extend(
                    m.iter()
                        .enumerate()
                        .filter(|(_, x)| **x == 1)
                        .map(|(k, _)| k),
                );
                actions[i] = legal[game::below(&mut rng, legal.len())] as i64;
            }
            v.step(
                &actions,
                &mut obs,
                &mut mask,
                &mut rewards,
                &mut dones,
                &mut seats,
            )
            .unwrap();
        })
    });
    group.finish();
}

criterion_group!(benches, steps);
criterion_main!(benches);
