//! `realms scenario`: applies a scenario file and prints the state and every seat's view.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use clap::Args;
use game::Seat;
use i18n::{Lang, t, tf};
use starrealms::Scenario;
use starrealms::scenario::ScenarioResult;

use crate::text::{self, Names};

/// Options of `realms scenario`.
#[derive(Args, Debug)]
pub struct ScenarioArgs {
    /// The scenario (JSON; see docs/scenarios.md).
    file: PathBuf,
    /// Print the result as JSON: the state in the scenario format, the legal actions and every
    /// seat's observation.
    #[arg(long)]
    json: bool,
}

/// Runs a scenario.
pub fn run(args: ScenarioArgs, lang: Lang) -> anyhow::Result<ExitCode> {
    let mut out = String::new();
    let file = args.file.display().to_string();
    let text =
        std::fs::read_to_string(&args.file).with_context(|| format!("cannot read {file}"))?;
    let mut scenario = Scenario::from_json(&text).map_err(|e| anyhow::anyhow!("{file}: {e}"))?;
    if let Some(sets) = crate::TableOptions::sets() {
        // `--sets` deals the scenario's trade deck (`"rest"`) from those sets.
        scenario.setup.config.sets = sets;
    }
    let state = scenario.run().map_err(|e| anyhow::anyhow!("{file}: {e}"))?;
    let result = ScenarioResult::of(&state);
    if args.json {
        outln!(out, "{}", serde_json::to_string_pretty(&result)?);
        return crate::emit(&out);
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
    crate::emit(&out)
}
