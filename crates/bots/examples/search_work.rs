//! How the time of a search follows its budget, decision by decision: the positions are the
//! purchases, attacks and abilities (every decision with a choice that is not a card to play)
//! of `--games` games of `medium` against `medium`; each is searched once with heuristic
//! rollouts on one thread, and one line a decision gives its turn, the iterations, the actions
//! simulated, the work (actions plus [`bots::ismcts::ITERATION_WORK`] an iteration) and the
//! seconds. The last lines sum them up: the time per unit of work is what
//! [`bots::ismcts::Budget::Work`] relies on being nearly constant.
//!
//! ```sh
//! cargo run --release -p bots --example search_work -- --games 3 --iterations 8000
//! cargo run --release -p bots --example search_work -- --games 3 --work 1600000
//! ```

mod positions;

use std::time::Instant;

use bots::SeatView;
use bots::ismcts::{Budget, ITERATION_WORK, Ismcts, Settings};
use starrealms::Action;

#[derive(clap::Parser)]
#[command(group(clap::ArgGroup::new("budget").required(true).args(["iterations", "work"])))]
struct Args {
    /// Games of medium against medium whose decisions are searched.
    #[arg(long, default_value_t = 1)]
    games: u64,
    /// Seed of the first game.
    #[arg(long, default_value_t = 11)]
    seed: u64,
    /// A budget of iterations a decision.
    #[arg(long)]
    iterations: Option<u32>,
    /// A budget of work a decision.
    #[arg(long)]
    work: Option<u64>,
}

fn main() -> anyhow::Result<()> {
    let args: Args = clap::Parser::parse();
    let budget = match (args.iterations, args.work) {
        (_, Some(w)) => Budget::Work(w),
        (Some(n), None) => Budget::Iterations(n),
        (None, None) => unreachable!("clap asks for one of the two"),
    };
    // Purchases, attacks and abilities: the decisions that are searched (cards to play are not).
    let positions: Vec<_> = positions::of_medium_games(args.games, args.seed)?
        .into_iter()
        .filter(|(_, _, legal)| !matches!(legal[0], Action::Play(_)))
        .collect();
    let settings = Settings {
        budget,
        ..Settings::default()
    };
    let rollout = bots::starrealms::HeuristicRollout::new(7);
    let mut search = Ismcts::new("search", settings, rollout, 7);
    println!("turn iterations actions work seconds");
    let mut rows = Vec::with_capacity(positions.len());
    for (state, seat, _) in &positions {
        let view = SeatView::of_state(state, *seat);
        let start = Instant::now();
        let stats = search.search(view.observation());
        let seconds = start.elapsed().as_secs_f64();
        let work = stats.simulated_actions + ITERATION_WORK * stats.iterations;
        println!(
            "{} {} {} {work} {seconds:.4}",
            view.observation().turn,
            stats.iterations,
            stats.simulated_actions
        );
        rows.push((seconds, work as f64, stats.iterations));
    }
    anyhow::ensure!(
        !rows.is_empty(),
        "no decision to search: give --games 1 or more"
    );
    let n = rows.len() as f64;
    let mean = rows.iter().map(|r| r.0).sum::<f64>() / n;
    let slowest = rows.iter().map(|r| r.0).fold(0.0, f64::max);
    let mut per_work: Vec<f64> = rows.iter().map(|r| r.0 / r.1 * 1e6).collect();
    per_work.sort_by(f64::total_cmp);
    let at = |q: f64| per_work[((per_work.len() - 1) as f64 * q) as usize];
    let fewest = rows.iter().map(|r| r.2).min().unwrap_or(0);
    let most = rows.iter().map(|r| r.2).max().unwrap_or(0);
    println!(
        "# {} decisions: mean {:.3} s, slowest {:.3} s; iterations {fewest} to {most}; µs a unit of work: median {:.3}, 95th percentile {:.3}, most {:.3}",
        rows.len(),
        mean,
        slowest,
        at(0.5),
        at(0.95),
        at(1.0)
    );
    Ok(())
}
