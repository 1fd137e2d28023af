//! Plays random games (the rollout policy) and prints games per second:
//! `cargo run --release -p starrealms --example random_games -- 100000`.
use starrealms::{Action, Config, State, rollout};

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10_000);
    let config = Config::default();
    let start = std::time::Instant::now();
    let mut buf: Vec<Action> = Vec::with_capacity(64);
    let (mut actions, mut turns, mut draws) = (0u64, 0u64, 0u64);
    let mut rng = game::rng_from_seed(1);
    for seed in 0..n {
        let mut s = State::new(&config, seed).unwrap();
        actions += rollout::random_playout(&mut s, &mut buf, &mut rng) as u64;
        turns += s.turn as u64;
        draws += s.is_draw() as u64;
    }
    let dt = start.elapsed().as_secs_f64();
    println!(
        "{n} games in {dt:.3}s: {:.0} games/s, {:.1} actions/game, {:.1} turns/game, {draws} draws",
        n as f64 / dt,
        actions as f64 / n as f64,
        turns as f64 / n as f64
    );
}
