//! `realms arena`: a round robin between bots, with a win-rate matrix and Bradley–Terry ratings.
//! The schedule, the games and the statistics are the `arena` crate's (see there); this command
//! plays them on a thread pool with a progress bar and writes the report.
//!
//! Bad options are refused before any game is played and before anything is written: those
//! the plan refuses, `--threads 0`, an `--out` that is a file. The three files of `--out` are
//! each written to a temporary file first and then renamed, so an interrupted run never leaves
//! half a file.
//!
//! Each deal is written to a journal in `--out` (`games.partial.jsonl`) as soon as both its
//! games end, so a run that is stopped (Ctrl-C, kill -9, a reboot's power cut aside) loses only
//! the deals under way: the same command again plays only the deals the journal lacks, and gives
//! the same files as a run never stopped (a deal's games depend on the plan and its number
//! only). A journal of another arena (other bots, games, formats, seed, cards or build) is
//! replaced; `--restart` ignores it. When the files are written the journal is removed.
//! Off a terminal, where no bar is drawn, a line tells the progress at every tenth of the run.

use std::collections::HashMap;
use std::io::{IsTerminal as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use arena::{GameResult, Plan};
use clap::Args;
use i18n::{Lang, t, tf};
use indicatif::ProgressBar;
use rayon::prelude::*;
use starrealms::Edition;

/// Options of `realms arena`; their help is the translation table's `cli.arena.arg.<option>`.
#[derive(Args, Debug)]
pub struct ArenaArgs {
    #[arg(long, value_delimiter = ',', required = true)]
    bots: Vec<String>,
    #[arg(long, short = 'n', default_value_t = 100)]
    games: u64,
    #[arg(long, value_delimiter = ',', default_value = "standard")]
    formats: Vec<String>,
    #[arg(long, default_value = "rise_of_empire", value_parser = crate::help::edition_value)]
    edition: Edition,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[arg(long)]
    same_deals: bool,
    #[arg(long)]
    threads: Option<usize>,
    #[arg(long)]
    json: bool,
    #[arg(long, default_value = "arena-results", value_name = "DIR")]
    out: PathBuf,
    #[arg(long)]
    restart: bool,
}

/// The journal's file name in the results directory.
const JOURNAL: &str = "games.partial.jsonl";

/// One line of the journal after its first: a deal's two games, and the seconds of play of the
/// whole run so far when they ended.
#[derive(serde::Serialize, serde::Deserialize)]
struct JournalDeal {
    deal: u64,
    games: [GameResult; 2],
    seconds: f64,
}

/// What the games of a plan depend on, as the journal's first line: a journal whose first line
/// differs holds another arena's games.
fn journal_key(plan: &Plan) -> String {
    let cards = crate::card_file().map(|c| c.fingerprint);
    serde_json::json!({
        "realms_arena": env!("CARGO_PKG_VERSION"),
        "build": build_id(),
        "bots": plan.bots,
        "deals": plan.deals,
        "formats": plan.formats.iter().map(|f| format!("{f:?}")).collect::<Vec<_>>(),
        "seed": plan.seed,
        "same_deals": plan.same_deals,
        "cards": cards,
    })
    .to_string()
}

/// Tells this build of `realms` from another (its size and modification time): the bots of
/// another build may play otherwise, so its deals are not mixed with this one's.
fn build_id() -> Option<String> {
    let exe = std::env::current_exe().ok()?;
    let meta = std::fs::metadata(exe).ok()?;
    let modified = meta
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?;
    Some(format!("{}-{}", meta.len(), modified.as_nanos()))
}

/// The deals of an interrupted run of the same arena, read from the journal in `dir`, and
/// its seconds of play. Nothing when there is no journal, when it is another arena's (said on
/// standard error) or when `restart`. A last line cut short (the run was killed as it wrote
/// it) is left out, as is any line that does not read.
fn resume(
    plan: &Plan,
    dir: &Path,
    restart: bool,
    lang: Lang,
) -> (HashMap<u64, [GameResult; 2]>, f64) {
    let mut done = HashMap::new();
    let path = dir.join(JOURNAL);
    let Ok(text) = std::fs::read_to_string(&path) else {
        return (done, 0.0);
    };
    if restart {
        return (done, 0.0);
    }
    let mut lines = text.lines();
    if lines.next() != Some(journal_key(plan).as_str()) {
        eprintln!(
            "{}",
            tf(lang, "arena.journal_other", &[("path", &path.display())])
        );
        return (done, 0.0);
    }
    let mut seconds = 0.0f64;
    for line in lines {
        let Ok(d) = serde_json::from_str::<JournalDeal>(line) else {
            continue;
        };
        if d.deal < plan.total_deals() {
            seconds = seconds.max(d.seconds);
            done.insert(d.deal, d.games);
        }
    }
    if !done.is_empty() {
        eprintln!(
            "{}",
            tf(
                lang,
                "arena.resumed",
                &[
                    ("done", &(2 * done.len())),
                    ("total", &plan.total_games()),
                    ("path", &path.display()),
                ],
            )
        );
    }
    (done, seconds)
}

/// The journal a run writes its deals to as they end.
struct Journal {
    file: Mutex<std::fs::File>,
    /// Seconds of play of the interrupted runs before this one.
    before: f64,
    start: Instant,
}

impl Journal {
    /// Starts the journal in `dir` afresh with `plan`'s key and the deals already `done`.
    fn create(
        plan: &Plan,
        dir: &Path,
        done: &HashMap<u64, [GameResult; 2]>,
        before: f64,
        lang: Lang,
    ) -> anyhow::Result<Journal> {
        let path = dir.join(JOURNAL);
        let mut text = journal_key(plan) + "\n";
        let mut deals: Vec<_> = done.iter().collect();
        deals.sort_by_key(|(d, _)| **d);
        for (&deal, games) in deals {
            let line = JournalDeal {
                deal,
                games: games.clone(),
                seconds: before,
            };
            text += &(serde_json::to_string(&line)? + "\n");
        }
        // Written whole through a temporary file: the journal read stays whole until then.
        write_atomic(&path, &text, lang)?;
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .map_err(|e| {
                anyhow::Error::new(e).context(tf(
                    lang,
                    "cmd.err.write",
                    &[("file", &path.display())],
                ))
            })?;
        Ok(Journal {
            file: Mutex::new(file),
            before,
            start: Instant::now(),
        })
    }

    /// Seconds of play of the whole run so far.
    fn seconds(&self) -> f64 {
        self.before + self.start.elapsed().as_secs_f64()
    }

    /// Writes a deal that ended, in one write of one line. A journal that can no longer be
    /// written costs only the resumption, not the run: the error is left.
    fn record(&self, deal: u64, games: &[GameResult; 2]) {
        let line = JournalDeal {
            deal,
            games: games.clone(),
            seconds: self.seconds(),
        };
        if let Ok(text) = serde_json::to_string(&line) {
            let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
            let _ = file.write_all((text + "\n").as_bytes());
        }
    }
}

/// The progress of a run: the bar on a terminal, elsewhere a line at every tenth of the games.
struct Progress {
    bar: ProgressBar,
    /// Off a terminal: the games done and the tenths told so far.
    lines: Option<Mutex<(u64, u64)>>,
    total: u64,
    /// Games played before this run (by a run it resumes).
    before: u64,
    start: Instant,
    lang: Lang,
}

impl Progress {
    fn new(total: u64, done: u64, lang: Lang) -> Progress {
        let terminal = std::io::stderr().is_terminal();
        let bar = crate::progress_bar(total, crate::Counted::Games, true, lang);
        bar.set_position(done);
        bar.reset_eta();
        Progress {
            bar,
            lines: (!terminal).then(|| Mutex::new((done, done * 10 / total.max(1)))),
            total,
            before: done,
            start: Instant::now(),
            lang,
        }
    }

    /// Counts `n` more games played.
    fn inc(&self, n: u64) {
        self.bar.inc(n);
        let Some(lines) = &self.lines else {
            return;
        };
        let mut lines = lines.lock().unwrap_or_else(|e| e.into_inner());
        lines.0 += n;
        let tenth = lines.0 * 10 / self.total.max(1);
        if tenth <= lines.1 {
            return;
        }
        lines.1 = tenth;
        let elapsed = self.start.elapsed();
        let played = lines.0 - self.before;
        let left = if played == 0 {
            Duration::ZERO
        } else {
            elapsed.mul_f64((self.total - lines.0) as f64 / played as f64)
        };
        eprintln!(
            "{}",
            tf(
                self.lang,
                "arena.progress",
                &[
                    ("done", &lines.0),
                    ("total", &self.total),
                    ("elapsed", &minutes(elapsed)),
                    ("left", &minutes(left)),
                ],
            )
        );
    }
}

/// A duration as `1 h 02 min`, `12 min 05 s` or `7 s`.
fn minutes(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{} h {:02} min", s / 3600, s % 3600 / 60)
    } else if s >= 60 {
        format!("{} min {:02} s", s / 60, s % 60)
    } else {
        format!("{s} s")
    }
}

/// Plays every deal of `plan` not in `done` on `pool`, each written to `journal` as it ends;
/// gives every game in schedule order, whatever the number of threads.
fn play_all(
    plan: &Plan,
    pool: &rayon::ThreadPool,
    progress: &Progress,
    journal: &Journal,
    mut done: HashMap<u64, [GameResult; 2]>,
    cards: &'static starrealms::CardSet,
) -> Vec<GameResult> {
    let todo: Vec<u64> = (0..plan.total_deals())
        .filter(|d| !done.contains_key(d))
        .collect();
    let played: Vec<(u64, [GameResult; 2])> = pool.install(|| {
        todo.par_iter()
            .map(|&d| {
                let games = starrealms::with_card_set(cards, || plan.play_deal(d));
                journal.record(d, &games);
                progress.inc(2);
                (d, games)
            })
            .collect()
    });
    done.extend(played);
    (0..plan.total_deals())
        .flat_map(|d| done.remove(&d).expect("every deal is played"))
        .collect()
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
        .map(|f| crate::TableOptions::apply(f, lang))
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
    let write_err = || tf(lang, "cmd.err.write", &[("file", &path.display())]);
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
            .map_err(|e| e.context(tf(lang, "cmd.err.with_cards", &[("file", &c.file)])))?;
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
    let pool = crate::worker_pool(args.threads, lang)?;
    let threads = pool.current_num_threads();

    std::fs::create_dir_all(dir).map_err(|e| {
        anyhow::Error::new(e).context(tf(lang, "arena.err.mkdir", &[("path", &dir.display())]))
    })?;
    let (done, before) = resume(&plan, dir, args.restart, lang);
    let journal = Journal::create(&plan, dir, &done, before, lang)?;
    let progress = Progress::new(plan.total_games(), 2 * done.len() as u64, lang);
    let games = play_all(&plan, &pool, &progress, &journal, done, starrealms::cards());
    let seconds = journal.seconds();
    progress.bar.finish_and_clear();

    let summary = pool.install(|| arena::summarize(&plan, &games, threads, seconds));
    let json = serde_json::to_string_pretty(&summary)? + "\n";

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
    // Every file written: the journal is no longer needed.
    drop(journal);
    let _ = std::fs::remove_file(dir.join(JOURNAL));
    Ok((summary, written))
}
