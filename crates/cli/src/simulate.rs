//! `realms simulate`: many bot-against-bot games on all cores.
//!
//! Game `i` is fully defined by the base seed and `i` (its game seed and its bots' seeds are
//! derived from them), and the per-game results are summed in integers, so the report is the
//! same whatever the number of threads.

use std::io::IsTerminal as _;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context as _;
use bots::{Bot, play_game};
use clap::Args;
use game::mix_seed as mix;
use i18n::{Lang, t, tf};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;
use starrealms::Config;

use crate::games::{GameKind, Played};

/// Options of `realms simulate`.
#[derive(Args, Debug)]
pub struct SimulateArgs {
    /// Number of games.
    #[arg(long, short = 'n', default_value_t = 1000)]
    games: u64,
    /// The bots, one per seat, in seat order (p1 first), comma-separated: heuristic, random.
    #[arg(long, default_value = "heuristic,random", value_delimiter = ',')]
    players: Vec<String>,
    /// The format (default: standard for two bots, free_for_all for more): standard,
    /// free_for_all, hunter, hunter_first_blood, hydra, emperor, raid.
    #[arg(long)]
    format: Option<starrealms::Format>,
    /// Rule edition where the rulebooks differ: rise_of_empire or classic.
    #[arg(long, default_value = "rise_of_empire")]
    edition: starrealms::Edition,
    /// Bataille Cosmique variant (with --game cosmique): standard, incolore, 30pv.
    #[arg(long, default_value = "standard")]
    variant: cosmique::Variant,
    /// Base seed: the same seed gives the same results.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Games handed to a worker at a time (and the progress bar's step).
const CHUNK: u64 = 64;

#[derive(Clone, Debug, Default)]
struct Tally {
    games: u64,
    wins: Vec<u64>,
    draws: u64,
    first_player_wins: u64,
    turns: u64,
    turns_squared: u128,
    min_turns: u32,
    max_turns: u32,
    actions: u64,
}

impl Tally {
    fn new(seats: usize) -> Tally {
        Tally {
            wins: vec![0; seats],
            min_turns: u32::MAX,
            ..Tally::default()
        }
    }

    fn merge(mut self, o: Tally) -> Tally {
        self.games += o.games;
        for (a, b) in self.wins.iter_mut().zip(&o.wins) {
            *a += b;
        }
        self.draws += o.draws;
        self.first_player_wins += o.first_player_wins;
        self.turns += o.turns;
        self.turns_squared += o.turns_squared;
        self.min_turns = self.min_turns.min(o.min_turns);
        self.max_turns = self.max_turns.max(o.max_turns);
        self.actions += o.actions;
        self
    }
}

fn play_one<S: Played>(players: &[String], config: &S::Config, base: u64, game: u64) -> Tally {
    let seed = mix(base ^ mix(game));
    let mut bots: Vec<Box<dyn Bot<S>>> = players
        .iter()
        .enumerate()
        .map(|(i, name)| {
            S::bot(name, mix(seed.wrapping_add(i as u64 + 1)))
                .expect("names are checked before the run")
        })
        .collect();
    let state = S::new_game(config, seed).expect("the configuration is checked");
    let mut actions = 0u64;
    let end = play_game(state, &mut bots, |_, _, _| actions += 1);
    let mut tally = Tally::new(players.len());
    tally.games = 1;
    let winners = end.winners();
    if winners.is_empty() {
        tally.draws = 1;
    }
    for w in &winners {
        tally.wins[w.index()] += 1;
    }
    tally.first_player_wins = winners.contains(&end.first_of()) as u64;
    let turns = end.turns_of();
    tally.turns = turns as u64;
    tally.turns_squared = (turns as u128).pow(2);
    tally.min_turns = turns;
    tally.max_turns = turns;
    tally.actions = actions;
    tally
}

/// Wilson score interval at 95% for `k` successes in `n` trials.
fn wilson(k: u64, n: u64) -> [f64; 2] {
    if n == 0 {
        return [0.0, 1.0];
    }
    let (n, p, z) = (n as f64, k as f64 / n as f64, 1.959_963_984_540_054);
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * ((p * (1.0 - p) + z * z / (4.0 * n)) / n).sqrt() / denom;
    [(centre - half).max(0.0), (centre + half).min(1.0)]
}

/// The report, also the `--json` output.
#[derive(Serialize, Debug)]
struct Report {
    games: u64,
    game: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    format: Option<starrealms::Format>,
    #[serde(skip_serializing_if = "Option::is_none")]
    edition: Option<starrealms::Edition>,
    players: Vec<String>,
    seed: u64,
    threads: usize,
    wins: Vec<u64>,
    win_rate: Vec<f64>,
    win_rate_ci95: Vec<[f64; 2]>,
    draws: u64,
    first_player_wins: u64,
    first_player_win_rate: f64,
    first_player_win_rate_ci95: [f64; 2],
    mean_turns: f64,
    sd_turns: f64,
    min_turns: u32,
    max_turns: u32,
    mean_actions: f64,
    seconds: f64,
    games_per_second: f64,
}

/// Runs the simulation.
pub fn run(args: SimulateArgs, game: GameKind, lang: Lang) -> anyhow::Result<ExitCode> {
    if args.games == 0 {
        anyhow::bail!("--games must be at least 1");
    }
    match game {
        GameKind::Starrealms => {
            let config = starrealms_config(&args)?;
            let (format, edition) = (config.format, config.edition);
            simulate::<starrealms::State>(
                args,
                &config,
                "starrealms",
                Some((format, edition)),
                lang,
            )
        }
        GameKind::Cosmique => {
            for name in &args.players {
                bots::cosmique::by_name(name, 0).map_err(anyhow::Error::msg)?;
            }
            if args.players.len() != cosmique::SEATS {
                anyhow::bail!(
                    "Bataille Cosmique takes {} players, not {} (--players names one bot per planet)",
                    cosmique::SEATS,
                    args.players.len()
                );
            }
            let config = cosmique::Config::of_variant(args.variant);
            let label = format!("cosmique {}", args.variant);
            simulate::<cosmique::State>(args, &config, &label, None, lang)
        }
    }
}

fn starrealms_config(args: &SimulateArgs) -> anyhow::Result<Config> {
    for name in &args.players {
        bots::starrealms::by_name(name, 0).map_err(anyhow::Error::msg)?;
    }
    let format = args.format.unwrap_or(if args.players.len() > 2 {
        starrealms::Format::FreeForAll
    } else {
        starrealms::Format::Standard
    });
    let config = Config {
        seats: args.players.len() as u8,
        format,
        edition: args.edition,
        ..Config::default()
    };
    config
        .validate()
        .map_err(|e| anyhow::anyhow!("{e} (--players names one bot per seat)"))?;
    crate::TableOptions::apply(config)
}

/// Runs the games of one game kind and reports.
fn simulate<S: Played>(
    args: SimulateArgs,
    config: &S::Config,
    game: &str,
    format: Option<(starrealms::Format, starrealms::Edition)>,
    lang: Lang,
) -> anyhow::Result<ExitCode> {
    let mut out = String::new();
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if threads == 0 {
        anyhow::bail!("--threads must be at least 1");
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("cannot start the worker threads")?;

    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::with_draw_target(Some(args.games), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} ({rate} games/s, {eta} left)",
        )
        .expect("the template is valid")
        .with_key("rate", |state: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = write!(w, "{:.0}", state.per_sec());
        }),
    );

    let start = Instant::now();
    let seats = args.players.len();
    let chunks = args.games.div_ceil(CHUNK);
    let tally = pool.install(|| {
        (0..chunks)
            .into_par_iter()
            .map(|c| {
                let games = c * CHUNK..((c + 1) * CHUNK).min(args.games);
                let n = games.end - games.start;
                let t = games
                    .map(|g| play_one::<S>(&args.players, config, args.seed, g))
                    .fold(Tally::new(seats), Tally::merge);
                bar.inc(n);
                t
            })
            .reduce(|| Tally::new(seats), Tally::merge)
    });
    let seconds = start.elapsed().as_secs_f64();
    bar.finish_and_clear();

    let n = tally.games as f64;
    let mean = tally.turns as f64 / n;
    let var = (tally.turns_squared as f64 / n - mean * mean).max(0.0);
    let decided = tally.games - tally.draws;
    let report = Report {
        games: tally.games,
        game: game.to_string(),
        format: format.map(|f| f.0),
        edition: format.map(|f| f.1),
        players: args.players.clone(),
        seed: args.seed,
        threads,
        win_rate: tally.wins.iter().map(|&w| w as f64 / n).collect(),
        win_rate_ci95: tally.wins.iter().map(|&w| wilson(w, tally.games)).collect(),
        wins: tally.wins.clone(),
        draws: tally.draws,
        first_player_wins: tally.first_player_wins,
        first_player_win_rate: tally.first_player_wins as f64 / (decided.max(1)) as f64,
        first_player_win_rate_ci95: wilson(tally.first_player_wins, decided),
        mean_turns: mean,
        sd_turns: var.sqrt(),
        min_turns: tally.min_turns,
        max_turns: tally.max_turns,
        mean_actions: tally.actions as f64 / n,
        seconds,
        games_per_second: n / seconds.max(1e-9),
    };
    if args.json {
        outln!(out, "{}", serde_json::to_string_pretty(&report)?);
    } else {
        out.push_str(&render(&report, lang));
    }
    crate::emit(&out)
}

fn pct(x: f64) -> String {
    format!("{:.2}%", 100.0 * x)
}

fn render(r: &Report, lang: Lang) -> String {
    let mut out = tf(
        lang,
        "sim.header",
        &[
            ("games", &r.games),
            (
                "format",
                &r.format
                    .map_or_else(|| r.game.clone(), |f| f.name().to_string()),
            ),
            ("players", &r.players.join(" / ")),
            ("seed", &r.seed),
            ("threads", &r.threads),
        ],
    );
    out.push('\n');
    for (i, name) in r.players.iter().enumerate() {
        let [lo, hi] = r.win_rate_ci95[i];
        out += &format!(
            "  p{} {:<10} {}\n",
            i + 1,
            name,
            tf(
                lang,
                "sim.wins",
                &[
                    ("wins", &r.wins[i]),
                    ("rate", &pct(r.win_rate[i])),
                    ("lo", &pct(lo)),
                    ("hi", &pct(hi)),
                ]
            )
        );
    }
    if r.draws > 0 {
        out += &format!("  {}\n", tf(lang, "sim.draws", &[("n", &r.draws)]));
    }
    let [lo, hi] = r.first_player_win_rate_ci95;
    out += &tf(
        lang,
        "sim.first_player",
        &[
            ("wins", &r.first_player_wins),
            ("rate", &pct(r.first_player_win_rate)),
            ("lo", &pct(lo)),
            ("hi", &pct(hi)),
        ],
    );
    out.push('\n');
    out += &tf(
        lang,
        "sim.length",
        &[
            ("mean", &format!("{:.1}", r.mean_turns)),
            ("sd", &format!("{:.1}", r.sd_turns)),
            ("min", &r.min_turns),
            ("max", &r.max_turns),
            ("actions", &format!("{:.0}", r.mean_actions)),
        ],
    );
    out.push('\n');
    out += &tf(
        lang,
        "sim.speed",
        &[
            ("rate", &format!("{:.0}", r.games_per_second)),
            ("seconds", &format!("{:.2}", r.seconds)),
        ],
    );
    out.push('\n');
    out += t(lang, "sim.ci_note");
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_matches_known_values() {
        // 50 of 100: 95% Wilson interval [0.4038, 0.5962].
        let [lo, hi] = wilson(50, 100);
        assert!((lo - 0.4038).abs() < 1e-4 && (hi - 0.5962).abs() < 1e-4);
        // 0 of 10: [0, 0.2775].
        let [lo, hi] = wilson(0, 10);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.2775).abs() < 1e-4);
    }

    #[test]
    fn seeds_of_consecutive_games_differ() {
        assert_ne!(mix(1 ^ mix(0)), mix(1 ^ mix(1)));
        assert_eq!(mix(0), 0xe220_a839_7b1d_cdaf);
    }
}
