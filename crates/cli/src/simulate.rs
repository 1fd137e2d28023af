//! `realms simulate`: many bot-against-bot games on all cores.
//!
//! Game `i` is fully defined by the base seed and `i` (its game seed and its bots' seeds are
//! derived from them), and the per-game results are summed in integers, so the report is the
//! same whatever the number of threads.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context as _;
use arena::simulation::{CHUNK, Played, Report, Run, Tally, play_games};
use clap::Args;
use i18n::{Lang, t, tf};
use rayon::prelude::*;
use starrealms::Config;

use crate::games::GameKind;

/// Options of `realms simulate`; their help is the translation table's `cli.simulate.arg.<option>`.
#[derive(Args, Debug)]
pub struct SimulateArgs {
    #[arg(long, short = 'n', default_value_t = 1000)]
    games: u64,
    #[arg(long, default_value = "heuristic,random", value_delimiter = ',')]
    players: Vec<String>,
    #[arg(long)]
    seats: Option<u8>,
    #[arg(long, value_parser = crate::help::format_value)]
    format: Option<starrealms::Format>,
    #[arg(long, default_value = "rise_of_empire", value_parser = crate::help::edition_value)]
    edition: starrealms::Edition,
    #[arg(long, default_value = "standard", value_parser = crate::help::variant_value)]
    variant: cosmique::Variant,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[arg(long)]
    threads: Option<usize>,
    #[arg(long)]
    json: bool,
}

/// Runs the simulation.
pub fn run(mut args: SimulateArgs, game: GameKind, lang: Lang) -> anyhow::Result<ExitCode> {
    if args.games == 0 {
        anyhow::bail!(t(lang, "cmd.err.games"));
    }
    // Bataille Cosmique has one table, of four: its bots take the four planets in turn.
    let seats = match game {
        GameKind::Cosmique if args.players.len() <= cosmique::SEATS => {
            args.seats.or(Some(cosmique::SEATS as u8))
        }
        _ => args.seats,
    };
    if let Some(seats) = seats {
        if seats == 0 || (seats as usize) < args.players.len() {
            anyhow::bail!(tf(
                lang,
                "sim.err.seats",
                &[("seats", &seats), ("n", &args.players.len())]
            ));
        }
        args.players = args
            .players
            .iter()
            .cycle()
            .take(seats as usize)
            .cloned()
            .collect();
    }
    let files = crate::card_files();
    let report = match game {
        GameKind::Starrealms if files.len() > 1 => {
            let mut reports = Vec::new();
            for c in files {
                let report = starrealms::with_card_set(c.set, || simulate_starrealms(&args, lang))
                    .with_context(|| tf(lang, "cmd.err.with_cards", &[("file", &c.file)]))?;
                reports.push((c, report));
            }
            return compare(&args, &reports, lang);
        }
        GameKind::Starrealms => simulate_starrealms(&args, lang)?,
        GameKind::Cosmique => {
            for name in &args.players {
                bots::cosmique::by_name(name, 0).map_err(|e| anyhow::anyhow!(e.text(lang)))?;
            }
            if args.players.len() != cosmique::SEATS {
                anyhow::bail!(tf(
                    lang,
                    "sim.err.cosmique_players",
                    &[("seats", &cosmique::SEATS), ("n", &args.players.len())]
                ));
            }
            if !files.is_empty() {
                anyhow::bail!(t(lang, "sim.err.cards_cosmique"));
            }
            let config = cosmique::Config::of_variant(args.variant);
            let label = format!("cosmique {}", args.variant);
            simulate::<cosmique::State>(&args, &config, &label, None, lang)?
        }
    };
    let out = if args.json {
        serde_json::to_string_pretty(&report)? + "\n"
    } else {
        arena::simulation::render(&report, lang)
    };
    let code = crate::emit(&out)?;
    if report.cards_conserved != report.games {
        anyhow::bail!(tf(
            lang,
            "sim.err.not_conserved",
            &[
                ("n", &(report.games - report.cards_conserved)),
                ("games", &report.games)
            ]
        ));
    }
    Ok(code)
}

/// The reports of several card sets, one after the other, then side by side.
fn compare(
    args: &SimulateArgs,
    reports: &[(&crate::LoadedCards, Report)],
    lang: Lang,
) -> anyhow::Result<ExitCode> {
    if args.json {
        let sets: Vec<serde_json::Value> = reports
            .iter()
            .map(|(c, r)| {
                serde_json::json!({"cards": c.file, "fingerprint": c.fingerprint, "report": r})
            })
            .collect();
        return crate::emit(
            &(serde_json::to_string_pretty(&serde_json::json!({ "card_sets": sets }))? + "\n"),
        );
    }
    let mut out = String::new();
    for (c, r) in reports {
        out += &tf(
            lang,
            "sim.cards_header",
            &[("file", &c.file), ("fingerprint", &c.fingerprint)],
        );
        out.push('\n');
        out += &arena::simulation::render(r, lang);
        out.push('\n');
    }
    out += t(lang, "sim.compare_title");
    out.push('\n');
    let pct = |x: f64| i18n::percent(lang, x, 1);
    for (c, r) in reports {
        let [lo, hi] = r.win_rate_ci95[0];
        let [flo, fhi] = r.first_player_win_rate_ci95;
        out += &tf(
            lang,
            "sim.compare_row",
            &[
                ("file", &c.file),
                ("p1", &pct(r.win_rate[0])),
                ("lo", &pct(lo)),
                ("hi", &pct(hi)),
                ("first", &pct(r.first_player_win_rate)),
                ("flo", &pct(flo)),
                ("fhi", &pct(fhi)),
                ("turns", &i18n::decimal(lang, r.mean_turns, 1)),
                ("sd", &i18n::decimal(lang, r.sd_turns, 1)),
                ("draws", &r.draws),
            ],
        );
        out.push('\n');
    }
    crate::emit(&out)
}

fn starrealms_config(args: &SimulateArgs, lang: Lang) -> anyhow::Result<Config> {
    for name in &args.players {
        bots::starrealms::by_name(name, 0).map_err(|e| anyhow::anyhow!(e.text(lang)))?;
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
    crate::seats_of_format(&config, lang)
        .map_err(|e| e.to_string())
        .and_then(|()| config.validate().map_err(|why| i18n::why(lang, &why)))
        .map_err(|e| anyhow::anyhow!(tf(lang, "sim.err.config", &[("error", &e)])))?;
    crate::TableOptions::apply(config, lang)
}

/// Simulates the Star Realms games that `args` ask for, with the cards in use.
fn simulate_starrealms(args: &SimulateArgs, lang: Lang) -> anyhow::Result<Report> {
    let config = starrealms_config(args, lang)?;
    let (format, edition) = (config.format, config.edition);
    simulate::<starrealms::State>(args, &config, "starrealms", Some((format, edition)), lang)
}

/// Runs the games of one game kind, with the cards in use on this thread, and reports.
fn simulate<S: Played>(
    args: &SimulateArgs,
    config: &S::Config,
    game: &str,
    format: Option<(starrealms::Format, starrealms::Edition)>,
    lang: Lang,
) -> anyhow::Result<Report> {
    let cards = starrealms::cards();
    let pool = crate::worker_pool(args.threads, lang)?;
    let threads = pool.current_num_threads();

    let bar = crate::progress_bar(args.games, crate::Counted::Games, true, lang);

    let start = Instant::now();
    let chunks = args.games.div_ceil(CHUNK);
    let tally = pool.install(|| {
        (0..chunks)
            .into_par_iter()
            .map(|c| {
                let games = c * CHUNK..((c + 1) * CHUNK).min(args.games);
                let n = games.end - games.start;
                let t = starrealms::with_card_set(cards, || {
                    play_games::<S>(&args.players, config, args.seed, games)
                });
                bar.inc(n);
                t
            })
            .reduce(|| Tally::new(args.players.len()), Tally::merge)
    });
    let seconds = start.elapsed().as_secs_f64();
    bar.finish_and_clear();

    let report = arena::simulation::report(
        &tally,
        &Run {
            game,
            format,
            players: &args.players,
            seed: args.seed,
            threads,
            seconds,
        },
    );
    Ok(report)
}
