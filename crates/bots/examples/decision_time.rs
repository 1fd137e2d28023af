//! How long a bot takes to decide, decision by decision, on one thread: the mean over the
//! decisions it searches (those with more than one legal action) and the slowest one, which is
//! what a level's time budget (`docs/ai.md`, "Levels") is about.
//!
//! ```sh
//! cargo run --release -p bots --example decision_time -- --bot expert --games 4
//! ```
//!
//! The positions are every decision with a choice of `--games` games of `medium` against
//! `medium` (as the seat to move saw them); game `i` is dealt from `--seed` + `i`.

mod positions;

use std::time::{Duration, Instant};

use bots::SeatView;
use indicatif::{ProgressBar, ProgressStyle};

#[derive(clap::Parser)]
struct Args {
    /// The bot to time (a bot name: expert, hard, ismcts:8000, ...).
    #[arg(long, default_value = "expert")]
    bot: String,
    /// Games of medium against medium whose decisions are timed.
    #[arg(long, default_value_t = 4)]
    games: u64,
    /// Seed of the first game.
    #[arg(long, default_value_t = 11)]
    seed: u64,
}

fn main() -> anyhow::Result<()> {
    let args: Args = clap::Parser::parse();
    let positions = positions::of_medium_games(args.games, args.seed)?;
    let mut bot = bots::starrealms::by_name(&args.bot, 7).map_err(anyhow::Error::msg)?;
    let bar = ProgressBar::new(positions.len() as u64).with_style(ProgressStyle::with_template(
        "{msg} {wide_bar} {pos}/{len} decisions, {eta} left",
    )?);
    bar.set_message(args.bot.clone());
    let mut times = Vec::with_capacity(positions.len());
    // A fingerprint of the choices, to check that a change meant to be faster decides the same.
    let mut choices = std::hash::DefaultHasher::new();
    for (state, seat, legal) in &positions {
        let start = Instant::now();
        let action = bot.choose(&SeatView::of_state(state, *seat), legal);
        times.push(start.elapsed());
        std::hash::Hash::hash(&action, &mut choices);
        bar.inc(1);
    }
    bar.finish_and_clear();
    let total: Duration = times.iter().sum();
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    println!(
        "{}: {} decisions with a choice from {} games; mean {:.1} ms, median {:.1} ms, 99th percentile {:.1} ms, slowest {:.1} ms; choices {:016x}",
        args.bot,
        times.len(),
        args.games,
        total.as_secs_f64() * 1e3 / times.len() as f64,
        at(0.5).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3,
        at(1.0).as_secs_f64() * 1e3,
        std::hash::Hasher::finish(&choices),
    );
    Ok(())
}
