//! `realms scenario`: applies a scenario file and prints the state and every seat's view.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;
use clap::Args;
use game::Seat;
use i18n::{Lang, t, tf};
use starrealms::Scenario;
use starrealms::expect::Mismatch;
use starrealms::scenario::ScenarioResult;

use crate::text::{self, Names};

/// Options of `realms scenario`.
#[derive(Args, Debug)]
pub struct ScenarioArgs {
    /// The scenario (JSON; see docs/scenarios.md).
    #[arg(required_unless_present = "check")]
    file: Option<PathBuf>,
    /// Run every scenario (`*.json`) of this folder and check each one's `expect` block:
    /// a line per file, and a failure when one does not hold.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["file", "json"])]
    check: Option<PathBuf>,
    /// Print the result as JSON: the state in the scenario format, the legal actions and every
    /// seat's observation (and the expectations that do not hold, if any).
    #[arg(long)]
    json: bool,
}

/// Reads a scenario file, with `--sets` applied.
fn read(path: &Path) -> anyhow::Result<Scenario> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {file}"))?;
    let mut scenario = Scenario::from_json(&text).map_err(|e| anyhow::anyhow!("{file}: {e}"))?;
    if let Some(sets) = crate::TableOptions::sets() {
        // `--sets` deals the scenario's trade deck (`"rest"`) from those sets.
        scenario.setup.config.sets = sets;
    }
    Ok(scenario)
}

/// A mismatch in words.
fn mismatch_line(m: &Mismatch, lang: Lang) -> String {
    tf(
        lang,
        "scenario.mismatch",
        &[
            ("field", &m.field),
            ("expected", &m.expected.to_string()),
            ("found", &m.found.to_string()),
        ],
    )
}

/// `realms scenario --check DIR`.
fn check_dir(dir: &Path, lang: Lang) -> anyhow::Result<ExitCode> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read the folder {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    if files.is_empty() {
        anyhow::bail!("{}: no scenario (*.json) in this folder", dir.display());
    }
    let mut out = String::new();
    let mut held = 0;
    for path in &files {
        let file = path.display().to_string();
        let outcome = read(path).and_then(|s| {
            let (_, mismatches) = s.check().map_err(|e| anyhow::anyhow!("{file}: {e}"))?;
            Ok((s.expect.is_some(), mismatches))
        });
        match outcome {
            Ok((expects, mismatches)) if mismatches.is_empty() => {
                held += 1;
                let key = if expects {
                    "scenario.check_ok"
                } else {
                    "scenario.check_plays"
                };
                outln!(out, "{}", tf(lang, key, &[("file", &file)]));
            }
            Ok((_, mismatches)) => {
                outln!(
                    out,
                    "{}",
                    tf(
                        lang,
                        "scenario.check_failed",
                        &[("file", &file), ("n", &mismatches.len())]
                    )
                );
                for m in &mismatches {
                    outln!(out, "  {}", mismatch_line(m, lang));
                }
            }
            Err(e) => outln!(
                out,
                "{}",
                tf(lang, "scenario.check_error", &[("error", &e)])
            ),
        }
    }
    outln!(
        out,
        "{}",
        tf(
            lang,
            "scenario.check_summary",
            &[("held", &held), ("n", &files.len())]
        )
    );
    crate::emit(&out)?;
    Ok(if held == files.len() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Runs a scenario.
pub fn run(args: ScenarioArgs, lang: Lang) -> anyhow::Result<ExitCode> {
    if let Some(dir) = &args.check {
        return check_dir(dir, lang);
    }
    let path = args
        .file
        .as_deref()
        .expect("clap requires a file without --check");
    let mut out = String::new();
    let file = path.display().to_string();
    let scenario = read(path)?;
    let (state, mismatches) = scenario
        .check()
        .map_err(|e| anyhow::anyhow!("{file}: {e}"))?;
    let code = if mismatches.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    };
    let result = ScenarioResult::of(&state);
    if args.json {
        let mut json = serde_json::to_value(&result)?;
        if scenario.expect.is_some() {
            json["mismatches"] = serde_json::to_value(&mismatches)?;
        }
        outln!(out, "{}", serde_json::to_string_pretty(&json)?);
        crate::emit(&out)?;
        return Ok(code);
    }
    if !scenario.description.is_empty() {
        outln!(out, "{}", scenario.description);
    }
    outln!(
        out,
        "{}",
        tf(lang, "scenario.applied", &[("n", &scenario.actions.len())])
    );
    let names = Names::of_table(&state.config, &[], lang);
    for obs in &result.observations {
        outln!(out);
        let seat = obs.seat.unwrap_or(Seat(0));
        outln!(
            out,
            "{}",
            tf(lang, "scenario.view_of", &[("player", &names.of(seat))])
        );
        out.push_str(&text::board(obs, &names, lang));
    }
    outln!(out);
    if let Some(seat) = state.to_move() {
        let obs = &result.observations[seat.index()];
        outln!(
            out,
            "{}",
            tf(lang, "scenario.legal", &[("player", &names.of(seat))])
        );
        for a in &result.legal_actions {
            outln!(out, "  {a:<24} {}", text::action(*a, obs, &names, lang));
        }
    } else {
        outln!(out, "{}", t(lang, "game_over"));
    }
    if scenario.expect.is_some() {
        outln!(out);
        if mismatches.is_empty() {
            outln!(out, "{}", t(lang, "scenario.expect_ok"));
        } else {
            outln!(
                out,
                "{}",
                tf(lang, "scenario.expect_failed", &[("n", &mismatches.len())])
            );
            for m in &mismatches {
                outln!(out, "  {}", mismatch_line(m, lang));
            }
        }
    }
    crate::emit(&out)?;
    Ok(code)
}
