//! Plays random games (the rollout policy) and prints games per second:
//! `cargo run --release -p cosmique --example cosmique_games -- 100000 [standard|incolore|pv30]`.
use cosmique::{Action, Config, State, Variant, rollout};

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let variants: Vec<Variant> = match args.next() {
        Some(v) => vec![v.parse().expect("a variant: standard, incolore or pv30")],
        None => Variant::ALL.to_vec(),
    };
    for variant in variants {
        let config = Config::of_variant(variant);
        let start = std::time::Instant::now();
        let mut buf: Vec<Action> = Vec::with_capacity(64);
        let (mut actions, mut turns, mut draws) = (0u64, 0u64, 0u64);
        let mut wins = [0u64; cosmique::SEATS];
        let mut rng = game::rng_from_seed(1);
        for seed in 0..n {
            let mut s = State::new(&config, seed).unwrap();
            actions += u64::from(rollout::random_playout(&mut s, &mut buf, &mut rng));
            turns += u64::from(s.turn);
            match s.winner {
                Some(w) => wins[w.index()] += 1,
                None => draws += 1,
            }
        }
        let dt = start.elapsed().as_secs_f64();
        println!(
            "{variant}: {n} games in {dt:.3}s: {:.0} games/s, {:.0} actions/s, {:.1} actions/game, \
             {:.1} turns/game, wins {wins:?}, {draws} draws",
            n as f64 / dt,
            actions as f64 / dt,
            actions as f64 / n as f64,
            turns as f64 / n as f64
        );
    }
}
