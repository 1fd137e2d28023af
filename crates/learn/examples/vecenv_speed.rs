//! Steps per second of the batched environment, first legal action in every game:
//! `cargo run --release -p learn --example vecenv_speed -- 256`.

use learn::{Opponent, VecEnv};

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(256);
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
    let start = std::time::Instant::now();
    let mut steps = 0;
    while start.elapsed().as_secs_f64() < 3.0 {
        let actions: Vec<i64> = mask
            .chunks(a)
            .map(|m| m.iter().position(|&x| x == 1).unwrap() as i64)
            .collect();
        v.step(
            &actions,
            &mut obs,
            &mut mask,
            &mut rewards,
            &mut dones,
            &mut seats,
        )
        .unwrap();
        steps += n;
    }
    println!(
        "{n} games: {:.0} steps/s",
        steps as f64 / start.elapsed().as_secs_f64()
    );
}
