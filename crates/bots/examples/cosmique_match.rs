//! Plays N four-player Bataille Cosmique games with the named bots and prints each seat's wins:
//! `cargo run --release -p bots --example cosmique_match -- heuristic random random random 1000`.

use bots::{Bot, play_game};
use cosmique::{Config, State};
use game::State as _;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let names: Vec<&str> = (0..4)
        .map(|i| args.get(i).map_or("random", String::as_str))
        .collect();
    let n: u64 = args.get(4).and_then(|n| n.parse().ok()).unwrap_or(1000);
    let variant = args.get(5).map_or("standard", String::as_str);
    let config = Config {
        variant: variant.parse().unwrap(),
        ..Config::default()
    };
    let mut wins = [0u64; 4];
    let mut draws = 0;
    for g in 0..n {
        let mut players: Vec<Box<dyn Bot<State>>> = names
            .iter()
            .enumerate()
            .map(|(i, name)| bots::cosmique::by_name(name, g * 4 + i as u64).unwrap())
            .collect();
        let end = play_game(
            State::new_game(&config, g).unwrap(),
            &mut players,
            |_, _, _| {},
        );
        match end.winners().first() {
            Some(w) => wins[w.index()] += 1,
            None => draws += 1,
        }
    }
    println!("{names:?} over {n} games ({variant}): wins {wins:?}, draws {draws}");
}
