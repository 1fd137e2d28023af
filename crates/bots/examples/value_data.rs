//! Samples for the value network (`docs/ai.md`): games of the heuristic bot (`medium`) against
//! itself, two players, the base set; at the start of every turn, the position's features as the
//! player whose turn starts sees it ([`bots::starrealms::value::features`]) and, once the game is
//! over, whether that player won (1), lost (0) or drew (0.5).
//!
//! ```sh
//! cargo run --release -p bots --example value_data -- --games 20000 --seed 1 --out /tmp/value.bin
//! ```
//!
//! The file: a header line of JSON (`{"features": F, "samples": N}`), then N records of F
//! little-endian f32 features and one f32 result. Game `i` is defined by the seed and `i` only.

use std::io::Write as _;
use std::time::Instant;

use bots::starrealms::HeuristicBot;
use bots::starrealms::value::{feature_count, features};
use bots::{Bot, play_game};
use game::{State as _, mix_seed};
use starrealms::{Config, State};

#[derive(clap::Parser)]
struct Args {
    /// Games to play.
    #[arg(long, default_value_t = 20000)]
    games: u64,
    /// Base seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output file.
    #[arg(long)]
    out: std::path::PathBuf,
}

/// One game's samples: features of each turn start and the seat whose turn it was.
fn game(seed: u64) -> Vec<(Vec<f32>, f32)> {
    let config = Config::default();
    let state = State::new_game(&config, seed).expect("the default configuration is valid");
    let mut bots: Vec<Box<dyn Bot<State>>> = (0..2)
        .map(|i| Box::new(HeuristicBot::new(mix_seed(seed ^ (i + 1)))) as Box<dyn Bot<State>>)
        .collect();
    let mut starts: Vec<(Vec<f32>, usize)> = Vec::new();
    let mut x = Vec::new();
    features(&state, state.current, &mut x);
    starts.push((x.clone(), state.current.index()));
    let mut turn = state.turn;
    let end = play_game(state, &mut bots, |_, _, s| {
        if s.turn != turn && !s.over {
            turn = s.turn;
            features(s, s.current, &mut x);
            starts.push((x.clone(), s.current.index()));
        }
    });
    let returns = end.returns();
    starts
        .into_iter()
        .map(|(x, seat)| (x, returns[seat] as f32))
        .collect()
}

fn main() -> anyhow::Result<()> {
    let args: Args = clap::Parser::parse();
    let start = Instant::now();
    let f = feature_count();
    let samples: Vec<(Vec<f32>, f32)> = {
        use rayon::prelude::*;
        (0..args.games)
            .into_par_iter()
            .flat_map_iter(|g| game(mix_seed(args.seed ^ mix_seed(g))))
            .collect()
    };
    let mut out = std::io::BufWriter::new(std::fs::File::create(&args.out)?);
    writeln!(out, "{{\"features\": {f}, \"samples\": {}}}", samples.len())?;
    for (x, y) in &samples {
        for v in x.iter().chain(std::iter::once(y)) {
            out.write_all(&v.to_le_bytes())?;
        }
    }
    out.flush()?;
    eprintln!(
        "{} games, {} samples of {f} features in {:.1} s -> {}",
        args.games,
        samples.len(),
        start.elapsed().as_secs_f64(),
        args.out.display()
    );
    Ok(())
}
