//! The learned purchase policy (`docs/ai.md`, "A learned purchase policy"): its training samples
//! and its matches.
//!
//! ```sh
//! # Samples: games of the heuristic against itself, buying by its table (no --net) or by a
//! # network; at the end of every turn, the features of the player whose turn ends
//! # (bots::starrealms::buyer::features) and, once the game is over, whether it won.
//! cargo run --release -p bots --example buyer -- data --games 60000 --seed 1 --out /tmp/buyer.bin
//! # Matches: the heuristic buying by a network against another bot, every deal from both sides.
//! cargo run --release -p bots --example buyer -- match --net crates/bots/data/buyer-base.safetensors \
//!     --against medium --games 2000 --seed 1
//! ```
//!
//! The samples' file: a header line of JSON (`{"features": F, "samples": N}`), then N records of
//! F little-endian f32 features and one f32 result (as `tools/value-train` reads them). Game `i`
//! is defined by the seed and `i` only.

use std::io::Write as _;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use bots::starrealms::buyer::{BuyNet, feature_count, features};
use bots::starrealms::{HeuristicBot, Values};
use bots::{Bot, SeatView};
use game::{Seat, State as _, mix_seed};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use starrealms::{Action, Config, State};

#[derive(clap::Parser)]
enum Command {
    /// Training samples from self-play.
    Data {
        /// Games to play.
        #[arg(long, default_value_t = 60000)]
        games: u64,
        /// Base seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The network both seats buy by (none: the value table).
        #[arg(long)]
        net: Option<PathBuf>,
        /// Both seats play by the tuned value table.
        #[arg(long)]
        tuned: bool,
        /// Output file.
        #[arg(long)]
        out: PathBuf,
    },
    /// Matches of the heuristic buying by a network against another bot.
    Match {
        /// The network.
        #[arg(long)]
        net: PathBuf,
        /// The learned buyer plays by the tuned value table otherwise.
        #[arg(long)]
        tuned: bool,
        /// The opponent (a bot name: medium, tuned, velocity, ...).
        #[arg(long, default_value = "medium")]
        against: String,
        /// Games (every deal from both sides).
        #[arg(long, default_value_t = 2000)]
        games: u64,
        /// Base seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

fn read_net(path: &PathBuf) -> anyhow::Result<Arc<BuyNet>> {
    let bytes =
        std::fs::read(path).map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
    Ok(Arc::new(
        BuyNet::from_bytes(&bytes).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?,
    ))
}

fn player(net: Option<&Arc<BuyNet>>, tuned: bool, seed: u64) -> Box<dyn Bot<State>> {
    let bot = if tuned {
        HeuristicBot::with_values(Values::tuned().clone(), seed)
    } else {
        HeuristicBot::new(seed)
    };
    Box::new(match net {
        Some(n) => bot.with_buyer(n.clone()),
        None => bot,
    })
}

/// Plays a game; `each_end` sees every turn's end before it happens.
fn play(
    seed: u64,
    bots: &mut [Box<dyn Bot<State>>],
    mut each_end: impl FnMut(&State, Seat),
) -> State {
    let mut state = State::new_game(&Config::default(), seed).expect("the default game is valid");
    let mut legal = Vec::new();
    while let Some(seat) = state.to_move() {
        state.legal_actions_into(&mut legal);
        let action = bots[seat.index()].choose(&SeatView::of_state(&state, seat), &legal);
        assert!(legal.contains(&action), "an illegal action: {action}");
        if action == Action::End && state.pending.is_none() {
            each_end(&state, seat);
        }
        state.apply_legal(action);
    }
    state
}

/// A progress bar on stderr over `total` games.
fn bar(total: u64) -> ProgressBar {
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template(
            "[{elapsed_precise}] {wide_bar} {human_pos}/{human_len} games ({eta} left)",
        )
        .expect("a valid template"),
    );
    bar
}

fn data(
    games: u64,
    seed: u64,
    net: Option<Arc<BuyNet>>,
    tuned: bool,
    out: PathBuf,
) -> anyhow::Result<()> {
    let start = Instant::now();
    let bar = bar(games);
    let f = feature_count();
    let samples: Vec<(Vec<f32>, f32)> = (0..games)
        .into_par_iter()
        .flat_map_iter(|g| {
            let seed = mix_seed(seed ^ mix_seed(g));
            let mut bots: Vec<_> = (0..2)
                .map(|i| player(net.as_ref(), tuned, mix_seed(seed ^ (i + 1))))
                .collect();
            let mut ends: Vec<(Vec<f32>, usize)> = Vec::new();
            let end = play(seed, &mut bots, |s, seat| {
                let mut x = Vec::new();
                features(&s.observation(seat), seat, &[], &mut x);
                ends.push((x, seat.index()));
            });
            bar.inc(1);
            let returns = end.returns();
            ends.into_iter()
                .map(move |(x, seat)| (x, returns[seat] as f32))
        })
        .collect();
    bar.finish_and_clear();
    let mut file = std::io::BufWriter::new(std::fs::File::create(&out)?);
    writeln!(
        file,
        "{{\"features\": {f}, \"samples\": {}}}",
        samples.len()
    )?;
    for (x, y) in &samples {
        for v in x.iter().chain(std::iter::once(y)) {
            file.write_all(&v.to_le_bytes())?;
        }
    }
    file.flush()?;
    eprintln!(
        "{games} games, {} samples of {f} features in {:.1} s -> {}",
        samples.len(),
        start.elapsed().as_secs_f64(),
        out.display()
    );
    Ok(())
}

fn matches(
    net: Arc<BuyNet>,
    tuned: bool,
    against: &str,
    games: u64,
    seed: u64,
) -> anyhow::Result<()> {
    bots::starrealms::by_name(against, 1)
        .map_err(|e| anyhow::anyhow!("the opponent `{against}`: {e}"))?;
    let start = Instant::now();
    let deals = games.div_ceil(2);
    let bar = bar(deals * 2);
    let scores: Vec<f64> = (0..deals * 2)
        .into_par_iter()
        .map(|g| {
            let deal = mix_seed(seed ^ mix_seed(g / 2));
            let learned_seat = (g % 2) as usize;
            let mut bots: Vec<Box<dyn Bot<State>>> = (0..2)
                .map(|i| {
                    let s = mix_seed(deal ^ (i as u64 + 1));
                    if i == learned_seat {
                        player(Some(&net), tuned, s)
                    } else {
                        bots::starrealms::by_name(against, s).expect("checked above")
                    }
                })
                .collect();
            let end = play(deal, &mut bots, |_, _| {});
            bar.inc(1);
            end.returns()[learned_seat]
        })
        .collect();
    bar.finish_and_clear();
    let n = scores.len() as f64;
    let p = scores.iter().sum::<f64>() / n;
    // Wilson's 95% interval.
    let z = 1.96f64;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    println!(
        "learned buyer against {against}: {:.1}% [{:.1}% – {:.1}%] over {} games, {:.1} s",
        100.0 * p,
        100.0 * (centre - half),
        100.0 * (centre + half),
        scores.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

fn main() -> anyhow::Result<()> {
    match clap::Parser::parse() {
        Command::Data {
            games,
            seed,
            net,
            tuned,
            out,
        } => data(
            games,
            seed,
            net.as_ref().map(read_net).transpose()?,
            tuned,
            out,
        ),
        Command::Match {
            net,
            tuned,
            against,
            games,
            seed,
        } => matches(read_net(&net)?, tuned, &against, games, seed),
    }
}
