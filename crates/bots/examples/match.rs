//! Plays N two-player games between two named bots, seats alternating, and prints the wins:
//! `cargo run --release -p bots --example match -- heuristic random 1000`.
//!
//! Game `i` uses seed `i`; the first bot sits at seat `i % 2`; bot seeds derive from `i`.

use bots::play_game;
use game::State as _;
use starrealms::{Config, State};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let a = args.first().map_or("heuristic", String::as_str);
    let b = args.get(1).map_or("random", String::as_str);
    let n: u64 = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(1000);
    let config = Config::default();
    let (mut wins_a, mut wins_b, mut draws, mut first_wins, mut turns) = (0, 0, 0, 0, 0u64);
    let start = std::time::Instant::now();
    for i in 0..n {
        let seat_a = (i % 2) as usize;
        let mut players = vec![
            bots::starrealms::by_name(a, 2 * i + 1).unwrap_or_else(|e| panic!("{e}")),
            bots::starrealms::by_name(b, 2 * i + 2).unwrap_or_else(|e| panic!("{e}")),
        ];
        if seat_a == 1 {
            players.swap(0, 1);
        }
        let state = State::new_game(&config, i).expect("a valid configuration");
        let end = play_game(state, &mut players, |_, _, _| {});
        turns += end.turn as u64;
        match end.winners().as_slice() {
            [w] if w.index() == seat_a => wins_a += 1,
            [_] => wins_b += 1,
            _ => draws += 1,
        }
        if end.winners().contains(&end.first) {
            first_wins += 1;
        }
    }
    let dt = start.elapsed().as_secs_f64();
    println!(
        "{a} {wins_a} - {wins_b} {b} ({draws} draws) over {n} games; first player won {first_wins}; \
         {:.1} turns/game; {:.0} games/s",
        turns as f64 / n as f64,
        n as f64 / dt
    );
}
