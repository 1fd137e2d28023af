//! How long a bot takes to decide, decision by decision, on one thread: the mean over the
//! decisions it searches (those with more than one legal action) and the slowest one, which is
//! what a level's time budget (`docs/ai.md`, "Levels") is about.
//!
//! ```sh
//! cargo run --release -p bots --example decision_time -- --bot expert --games 4
//! ```
//!
//! The positions are every decision with a choice of `--games` games of `medium` against
//! `medium` (as the seat to move saw them); game `i` is dealt from `--seed` + `i`. With
//! `--against <bot>`, the timed bot plays those games itself against that bot instead (game `i`
//! from seat `i % 2`), its choices played and the other's shown to it: for a bot that carries
//! something from one decision to the next (a kept tree, a reading of its opponent).

mod positions;

use std::time::{Duration, Instant};

use bots::SeatView;
use game::State as _;
use indicatif::{ProgressBar, ProgressStyle};
use starrealms::{Config, State};

#[derive(clap::Parser)]
struct Args {
    /// The bot to time (a bot name: expert, hard, ismcts:8000, ...).
    #[arg(long, default_value = "expert")]
    bot: String,
    /// Games of medium against medium whose decisions are timed (with `--against`, the games the
    /// timed bot plays).
    #[arg(long, default_value_t = 4)]
    games: u64,
    /// Seed of the first game.
    #[arg(long, default_value_t = 11)]
    seed: u64,
    /// Play the games against this bot rather than time the positions of `medium`'s games.
    #[arg(long)]
    against: Option<String>,
}

fn main() -> anyhow::Result<()> {
    let args: Args = clap::Parser::parse();
    let mut bot = bots::starrealms::by_name(&args.bot, 7).map_err(anyhow::Error::msg)?;
    let mut times = Vec::new();
    // A fingerprint of the choices, to check that a change meant to be faster decides the same.
    let mut choices = std::hash::DefaultHasher::new();
    if let Some(other) = &args.against {
        let bar = ProgressBar::new(args.games).with_style(ProgressStyle::with_template(
            "{msg} {wide_bar} {pos}/{len} games, {eta} left",
        )?);
        bar.set_message(format!("{} against {other}", args.bot));
        for game in 0..args.games {
            let mut other =
                bots::starrealms::by_name(other, 8 + game).map_err(anyhow::Error::msg)?;
            let me = game::Seat((game % 2) as u8);
            let mut s =
                State::new(&Config::default(), args.seed + game).map_err(anyhow::Error::msg)?;
            while let Some(seat) = s.to_move() {
                let legal = s.legal_actions();
                let view = SeatView::of_state(&s, seat);
                let action = if seat == me {
                    let start = Instant::now();
                    let action = bot.choose(&view, &legal);
                    if legal.len() > 1 {
                        times.push(start.elapsed());
                        std::hash::Hash::hash(&action, &mut choices);
                    }
                    action
                } else {
                    let action = other.choose(&view, &legal);
                    if s.is_public(&action) {
                        bot.watch(&SeatView::of_state(&s, me), seat, action);
                    }
                    action
                };
                s.apply(action)?;
            }
            bar.inc(1);
        }
        bar.finish_and_clear();
    } else {
        let positions = positions::of_medium_games(args.games, args.seed)?;
        let bar = ProgressBar::new(positions.len() as u64).with_style(
            ProgressStyle::with_template("{msg} {wide_bar} {pos}/{len} decisions, {eta} left")?,
        );
        bar.set_message(args.bot.clone());
        for (state, seat, legal) in &positions {
            let start = Instant::now();
            let action = bot.choose(&SeatView::of_state(state, *seat), legal);
            times.push(start.elapsed());
            std::hash::Hash::hash(&action, &mut choices);
            bar.inc(1);
        }
        bar.finish_and_clear();
    }
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
