//! Counts action kinds and legal-list sizes over random games (a profiling aid).
use starrealms::{Action, Config, State, rollout};
fn main() {
    let mut buf = Vec::new();
    let mut rng = game::rng_from_seed(1);
    let mut kinds = std::collections::BTreeMap::<String, u64>::new();
    let (mut calls, mut total) = (0u64, 0u64);
    for seed in 0..2000 {
        let mut s = State::new(&Config::default(), seed).unwrap();
        while !s.over {
            let a = rollout::random_action(&s, &mut buf, &mut rng);
            calls += 1;
            total += buf.len() as u64;
            let k = a.to_string().split_whitespace().next().unwrap().to_string();
            *kinds.entry(k).or_default() += 1;
            s.apply_unchecked(a);
        }
    }
    println!("mean legal list {:.1}", total as f64 / calls as f64);
    for (k, n) in kinds {
        println!("{k}: {:.1}/game", n as f64 / 2000.0);
    }
    let _ = Action::End;
}
