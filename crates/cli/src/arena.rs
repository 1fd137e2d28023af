//! `realms arena`: a round robin between bots, with a win-rate matrix and Bradley–Terry ratings.
//! The schedule, the games and the statistics are the `arena` crate's (see there); this command
//! plays them on a thread pool with a progress bar and writes the report.
//!
//! Bad options are refused before any game is played and before anything is written: those
//! the plan refuses, `--threads 0`, an `--out` that is a file. The three files of `--out` are
//! each written to a temporary file first and then renamed, so an interrupted run never leaves
//! half a file.

use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use arena::{GameResult, Plan};
use clap::Args;
use i18n::{Lang, t, tf};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use rayon::prelude::*;
use starrealms::Edition;

/// Options of `realms arena`.
#[derive(Args, Debug)]
pub struct ArenaArgs {
    /// The bots, comma-separated, at least two, each once (e.g. heuristic,random).
    #[arg(long, value_delimiter = ',', required = true)]
    bots: Vec<String>,
    /// Games per pair of bots and per format; each deal is played from both sides, so an odd
    /// number is rounded up.
    #[arg(long, short = 'n', default_value_t = 100)]
    games: u64,
    /// Formats, comma-separated: standard, free_for_all, hunter, hunter_first_blood, hydra,
    /// emperor, raid. Beyond two seats each bot plays every seat of one side (see README).
    #[arg(long, value_delimiter = ',', default_value = "standard")]
    formats: Vec<String>,
    /// Rule edition where the rulebooks differ: rise_of_empire or classic.
    #[arg(long, default_value = "rise_of_empire")]
    edition: Edition,
    /// Base seed: the same seed gives the same games and the same report.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Play the same deals for every pair (a deal's seed then leaves the bots' names out), so
    /// that two arenas of the same seed compare two bots against one opponent on the same cards.
    #[arg(long)]
    same_deals: bool,
    /// Worker threads (default: every core); the results do not depend on it.
    #[arg(long)]
    threads: Option<usize>,
    /// Print the summary (summary.json) instead of the text tables.
    #[arg(long)]
    json: bool,
    /// Directory of the result files (games.csv, summary.json, ratings.svg), created if needed.
    #[arg(long, default_value = "arena-results", value_name = "DIR")]
    out: PathBuf,
}

/// Plays every game of `plan` on `pool`, in schedule order whatever the number of threads.
fn play_all(
    plan: &Plan,
    pool: &rayon::ThreadPool,
    bar: &ProgressBar,
    cards: &'static starrealms::CardSet,
) -> Vec<GameResult> {
    let deals = plan.total_deals();
    let chunk = plan.chunk_size(pool.current_num_threads());
    let chunks = deals.div_ceil(chunk);
    pool.install(|| {
        (0..chunks)
            .into_par_iter()
            .map(|c| {
                let games = starrealms::with_card_set(cards, || {
                    plan.play_deals(c * chunk..((c + 1) * chunk).min(deals))
                });
                bar.inc(games.len() as u64);
                games
            })
            .flatten()
            .collect()
    })
}

// ----- the command -------------------------------------------------------------------------------

/// Checks the options and builds the plan, before anything is played or written.
fn plan(args: &ArenaArgs, out: &Path, lang: Lang) -> anyhow::Result<Plan> {
    let mut plan = Plan::new(
        &args.bots,
        args.games,
        &args.formats,
        args.edition,
        args.seed,
        lang,
    )
    .map_err(anyhow::Error::msg)?;
    plan.same_deals = args.same_deals;
    plan.formats = std::mem::take(&mut plan.formats)
        .into_iter()
        .map(crate::TableOptions::apply)
        .collect::<anyhow::Result<Vec<_>>>()?;
    if out.exists() && !out.is_dir() {
        anyhow::bail!(tf(
            lang,
            "arena.err.out_not_dir",
            &[("path", &out.display())]
        ));
    }
    Ok(plan)
}

/// Writes `contents` to `path` through a temporary file in the same directory and a rename.
fn write_atomic(path: &Path, contents: &str, lang: Lang) -> anyhow::Result<()> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    let write_err = || tf(lang, "arena.err.write", &[("path", &path.display())]);
    if let Err(e) = std::fs::write(&tmp, contents) {
        let _ = std::fs::remove_file(&tmp);
        return Err(anyhow::Error::new(e).context(write_err()));
    }
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        anyhow::Error::new(e).context(write_err())
    })
}

/// Runs the arena.
pub fn run(args: ArenaArgs, lang: Lang) -> anyhow::Result<ExitCode> {
    let files = crate::card_files();
    if files.len() < 2 {
        let (summary, written) = run_one(&args, &args.out, lang)?;
        return if args.json {
            crate::emit(&(serde_json::to_string_pretty(&summary)? + "\n"))
        } else {
            crate::emit(&arena::render(&summary, lang, &written))
        };
    }
    // Several card sets: the same arena with each, its files in a folder of its own.
    let mut runs = Vec::new();
    for (i, c) in files.iter().enumerate() {
        let stem = Path::new(&c.file).file_stem().map_or_else(
            || format!("cards-{}", i + 1),
            |s| s.to_string_lossy().into_owned(),
        );
        let taken = files[..i]
            .iter()
            .any(|o| Path::new(&o.file).file_stem() == Path::new(&c.file).file_stem());
        let dir = args.out.join(if taken {
            format!("{stem}-{}", i + 1)
        } else {
            stem
        });
        let (summary, written) = starrealms::with_card_set(c.set, || run_one(&args, &dir, lang))
            .map_err(|e| e.context(format!("with the cards of {}", c.file)))?;
        runs.push((c, summary, written));
    }
    if args.json {
        let sets: Vec<serde_json::Value> = runs
            .iter()
            .map(|(c, s, _)| {
                serde_json::json!({"cards": c.file, "fingerprint": c.fingerprint, "summary": s})
            })
            .collect();
        return crate::emit(
            &(serde_json::to_string_pretty(&serde_json::json!({ "card_sets": sets }))? + "\n"),
        );
    }
    let mut out = String::new();
    for (c, summary, written) in &runs {
        out += &tf(
            lang,
            "sim.cards_header",
            &[("file", &c.file), ("fingerprint", &c.fingerprint)],
        );
        out.push('\n');
        out += &arena::render(summary, lang, written);
        out.push('\n');
    }
    out += t(lang, "arena.compare_title");
    out.push('\n');
    for (c, summary, _) in &runs {
        let ratings: Vec<String> = summary
            .ratings
            .iter()
            .map(|r| format!("{} {:+.0} ± {:.0}", r.bot, r.rating, r.se))
            .collect();
        out += &format!("  {}: {}\n", c.file, ratings.join(", "));
    }
    crate::emit(&out)
}

/// Plays the arena with the cards in use on this thread and writes its files in `dir`.
fn run_one(
    args: &ArenaArgs,
    dir: &Path,
    lang: Lang,
) -> anyhow::Result<(arena::Summary, Vec<PathBuf>)> {
    let plan = plan(args, dir, lang)?;
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if threads == 0 {
        anyhow::bail!(t(lang, "arena.err.threads"));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| anyhow::Error::new(e).context(t(lang, "arena.err.pool")))?;

    let total = plan.total_games();
    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "{{spinner}} [{{elapsed_precise}}] {{wide_bar}} {{human_pos}}/{{human_len}} ({{rate}} {}, {{eta}} {})",
            t(lang, "arena.bar_rate"),
            t(lang, "arena.bar_left"),
        ))
        .expect("the template is valid")
        .with_key("rate", |state: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = write!(w, "{:.0}", state.per_sec());
        }),
    );
    let start = Instant::now();
    let games = play_all(&plan, &pool, &bar, starrealms::cards());
    let seconds = start.elapsed().as_secs_f64();
    bar.finish_and_clear();

    let summary = pool.install(|| arena::summarize(&plan, &games, threads, seconds));
    let json = serde_json::to_string_pretty(&summary)? + "\n";

    std::fs::create_dir_all(dir).map_err(|e| {
        anyhow::Error::new(e).context(tf(lang, "arena.err.mkdir", &[("path", &dir.display())]))
    })?;
    let files = [
        ("games.csv", arena::games_csv(&plan, &games)),
        ("summary.json", json.clone()),
        (
            "ratings.svg",
            arena::ratings_svg(&summary.ratings, lang).map_err(anyhow::Error::msg)?,
        ),
    ];
    let mut written = Vec::new();
    for (name, contents) in &files {
        let path = dir.join(name);
        write_atomic(&path, contents, lang)?;
        written.push(path);
    }
    Ok((summary, written))
}
