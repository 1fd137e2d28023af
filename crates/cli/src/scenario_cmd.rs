//! `realms scenario`: applies a scenario file and prints the state and every seat's view.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;
use clap::Args;
use game::Seat;
use i18n::{Lang, t, tf};
use serde_json::Value;
use starrealms::Scenario;
use starrealms::scenario::ScenarioResult;

use crate::games::GameKind;
use crate::text::{self, Names};

/// An expectation that does not hold, whichever game's.
struct Mismatch {
    field: String,
    expected: Value,
    found: Value,
}

impl From<starrealms::expect::Mismatch> for Mismatch {
    fn from(m: starrealms::expect::Mismatch) -> Self {
        Mismatch {
            field: m.field,
            expected: m.expected,
            found: m.found,
        }
    }
}

impl From<cosmique::scenario::Mismatch> for Mismatch {
    fn from(m: cosmique::scenario::Mismatch) -> Self {
        Mismatch {
            field: m.field,
            expected: m.expected,
            found: m.found,
        }
    }
}

/// Why a scenario is refused, in the reader's language.
trait Refused {
    fn words(&self, lang: Lang) -> String;
}

/// Both games' scenario errors have the same shape: a reader's words (where, and why), a
/// field realms' checks refuse (the table words it when it can), an action refused.
macro_rules! refused {
    ($error:ty) => {
        impl Refused for $error {
            fn words(&self, lang: Lang) -> String {
                type E = $error;
                match self {
                    E::Invalid { field, why } => tf(
                        lang,
                        "data.within",
                        &[
                            ("place", &format!("`{field}`")),
                            ("reason", &i18n::why(lang, why)),
                        ],
                    ),
                    E::Action { step, text, error } => {
                        i18n::why(lang, &game::refusal::Why::at_action(*step, text, error))
                    }
                    other => i18n::data_error(lang, &other.to_string()),
                }
            }
        }
    };
}

refused!(starrealms::scenario::ScenarioError);
refused!(cosmique::scenario::ScenarioError);

/// An error of a scenario file, with a hint when the file looks like the other game's.
fn file_error(
    file: &str,
    text: &str,
    game: GameKind,
    e: impl Refused,
    lang: Lang,
) -> anyhow::Error {
    let e = e.words(lang);
    let value: Option<Value> = serde_json::from_str(text).ok();
    let has = |k: &str| value.as_ref().is_some_and(|v| v.get(k).is_some());
    let hint = match game {
        GameKind::Cosmique if has("players") => Some(t(lang, "scenario.hint_starrealms")),
        GameKind::Starrealms if has("planets") => Some(t(lang, "scenario.hint_cosmique")),
        _ => None,
    };
    match hint {
        Some(h) => anyhow::anyhow!(tf(
            lang,
            "scenario.err.file_hint",
            &[("file", &file), ("error", &e), ("hint", &h)]
        )),
        None => anyhow::anyhow!(tf(lang, "cmd.err.file", &[("file", &file), ("error", &e)])),
    }
}

/// Options of `realms scenario` (the game read is the one of `--game`).
#[derive(Args, Debug)]
pub struct ScenarioArgs {
    #[arg(required_unless_present = "check")]
    file: Option<PathBuf>,
    #[arg(long, value_name = "DIR", conflicts_with_all = ["file", "json"])]
    check: Option<PathBuf>,
    #[arg(long)]
    json: bool,
}

/// Reads a Star Realms scenario file, with `--sets` applied.
fn read(path: &Path, lang: Lang) -> anyhow::Result<(Scenario, String)> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .with_context(|| tf(lang, "cmd.err.read", &[("file", &file)]))?;
    let mut scenario = Scenario::from_json(&text)
        .map_err(|e| file_error(&file, &text, GameKind::Starrealms, e, lang))?;
    if let Some(sets) = crate::TableOptions::sets() {
        // `--sets` deals the scenario's trade deck (`"rest"`) from those sets.
        scenario.setup.config.sets = sets;
    }
    Ok((scenario, text))
}

/// Reads a Bataille Cosmique scenario file.
fn read_cosmique(path: &Path, lang: Lang) -> anyhow::Result<(cosmique::scenario::Setup, String)> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .with_context(|| tf(lang, "cmd.err.read", &[("file", &file)]))?;
    let setup = cosmique::scenario::Setup::from_json(&text)
        .map_err(|e| file_error(&file, &text, GameKind::Cosmique, e, lang))?;
    Ok((setup, text))
}

/// Plays a file of either game: whether it expects anything, and what does not hold.
fn check_file(path: &Path, game: GameKind, lang: Lang) -> anyhow::Result<(bool, Vec<Mismatch>)> {
    let file = path.display().to_string();
    match game {
        GameKind::Starrealms => {
            let (s, text) = read(path, lang)?;
            let (_, m) = s
                .check()
                .map_err(|e| file_error(&file, &text, game, e, lang))?;
            Ok((s.expect.is_some(), m.into_iter().map(Into::into).collect()))
        }
        GameKind::Cosmique => {
            let (s, text) = read_cosmique(path, lang)?;
            let (_, m) = s
                .check()
                .map_err(|e| file_error(&file, &text, game, e, lang))?;
            Ok((s.expect.is_some(), m.into_iter().map(Into::into).collect()))
        }
    }
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
fn check_dir(dir: &Path, game: GameKind, lang: Lang) -> anyhow::Result<ExitCode> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| tf(lang, "scenario.err.read_dir", &[("path", &dir.display())]))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    if files.is_empty() {
        anyhow::bail!(tf(
            lang,
            "scenario.err.empty_dir",
            &[("path", &dir.display())]
        ));
    }
    let mut out = String::new();
    let mut held = 0;
    for path in &files {
        let file = path.display().to_string();
        let outcome = check_file(path, game, lang);
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

/// Runs a scenario of the game `--game` names.
pub fn run(args: ScenarioArgs, game: GameKind, lang: Lang) -> anyhow::Result<ExitCode> {
    if let Some(dir) = &args.check {
        return check_dir(dir, game, lang);
    }
    let path = args
        .file
        .as_deref()
        .expect("clap requires a file without --check");
    if game == GameKind::Cosmique {
        return run_cosmique(path, args.json, lang);
    }
    let mut out = String::new();
    let file = path.display().to_string();
    let (scenario, text) = read(path, lang)?;
    let (state, mismatches) = scenario
        .check()
        .map_err(|e| file_error(&file, &text, game, e, lang))?;
    let mismatches: Vec<Mismatch> = mismatches.into_iter().map(Into::into).collect();
    let code = if mismatches.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    };
    let result = ScenarioResult::of(&state);
    if args.json {
        let mut json = serde_json::to_value(&result)?;
        if scenario.expect.is_some() {
            json["mismatches"] = mismatches_json(&mismatches);
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
        report(&mut out, &mismatches, lang);
    }
    crate::emit(&out)?;
    Ok(code)
}

fn mismatches_json(mismatches: &[Mismatch]) -> Value {
    mismatches
        .iter()
        .map(|m| serde_json::json!({"field": m.field, "expected": m.expected, "found": m.found}))
        .collect()
}

/// The expectations' report.
fn report(out: &mut String, mismatches: &[Mismatch], lang: Lang) {
    outln!(out);
    if mismatches.is_empty() {
        outln!(out, "{}", t(lang, "scenario.expect_ok"));
    } else {
        outln!(
            out,
            "{}",
            tf(lang, "scenario.expect_failed", &[("n", &mismatches.len())])
        );
        for m in mismatches {
            outln!(out, "  {}", mismatch_line(m, lang));
        }
    }
}

/// A Bataille Cosmique scenario: each planet's view, the legal actions, the expectations.
fn run_cosmique(path: &Path, json: bool, lang: Lang) -> anyhow::Result<ExitCode> {
    let file = path.display().to_string();
    let (setup, text) = read_cosmique(path, lang)?;
    let (state, mismatches) = setup
        .check()
        .map_err(|e| file_error(&file, &text, GameKind::Cosmique, e, lang))?;
    let mismatches: Vec<Mismatch> = mismatches.into_iter().map(Into::into).collect();
    let code = if mismatches.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    };
    let result = cosmique::scenario::ScenarioResult::of(&state);
    let mut out = String::new();
    if json {
        let mut value = serde_json::to_value(&result)?;
        if setup.expect.is_some() {
            value["mismatches"] = mismatches_json(&mismatches);
        }
        outln!(out, "{}", serde_json::to_string_pretty(&value)?);
        crate::emit(&out)?;
        return Ok(code);
    }
    if !setup.description.is_empty() {
        outln!(out, "{}", setup.description);
    }
    outln!(
        out,
        "{}",
        tf(lang, "scenario.applied", &[("n", &setup.actions.len())])
    );
    let names: Vec<String> = (0..cosmique::SEATS)
        .map(|i| format!("p{}", i + 1))
        .collect();
    for (i, obs) in result.observations.iter().enumerate() {
        outln!(out);
        outln!(
            out,
            "{}",
            tf(lang, "scenario.view_of", &[("player", &names[i])])
        );
        out.push_str(&crate::play_cosmique::board(obs, &names, lang));
    }
    outln!(out);
    if let Some(seat) = state.to_move() {
        outln!(
            out,
            "{}",
            tf(lang, "scenario.legal", &[("player", &names[seat.index()])])
        );
        for a in state.legal_actions() {
            let obs = &result.observations[seat.index()];
            outln!(
                out,
                "  {:<24} {}",
                a.to_string(),
                crate::play_cosmique::describe(a, obs, seat, &names, lang)
            );
        }
    } else {
        outln!(out, "{}", t(lang, "game_over"));
    }
    if setup.expect.is_some() {
        report(&mut out, &mismatches, lang);
    }
    crate::emit(&out)?;
    Ok(code)
}
