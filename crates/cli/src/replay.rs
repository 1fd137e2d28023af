//! `realms replay`: re-runs a game record, step by step or as a check.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use game::{GameRecord, Seat};
use i18n::{Lang, t, tf};
use starrealms::{Action, State};

use crate::text::{self, Names};

/// Options of `realms replay`; their help is the translation table's `cli.replay.arg.<option>`.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    file: PathBuf,
    #[arg(long)]
    check: bool,
    #[arg(long)]
    boards: bool,
}

/// Replays a record.
pub fn run(args: ReplayArgs, lang: Lang) -> anyhow::Result<ExitCode> {
    let out = String::new();
    let file = args.file.display().to_string();
    let record = crate::read_record(&args.file, lang)?;
    if record.game == <cosmique::State as game::State>::GAME {
        return replay_cosmique(&args, &record, &file, lang);
    }
    let cards = crate::record_cards(&record, &args.file, lang)?;
    crate::with_cards(cards, || {
        replay_starrealms(&args, &record, &file, lang, out)
    })
}

fn replay_starrealms(
    args: &ReplayArgs,
    record: &GameRecord,
    file: &str,
    lang: Lang,
    mut out: String,
) -> anyhow::Result<ExitCode> {
    let mut state: State = record
        .initial_state()
        .map_err(|e| no_replay(file, e, lang))?;
    if let Some(sets) = crate::TableOptions::sets()
        && sets != state.config.sets
    {
        anyhow::bail!(tf(
            lang,
            "replay.err.sets",
            &[
                ("file", &file),
                ("sets", &state.config.sets.names().join(",")),
                ("given", &sets.names().join(","))
            ]
        ));
    }
    let names = Names::of_table(&state.config, &record.players, lang);
    let mut turn = None;
    for (step, action_text) in record.actions.iter().enumerate() {
        let fail = |e: String| no_replay_at(file, step, record, action_text, e, lang);
        let action = <Action as game::Action>::parse(action_text)
            .map_err(|e| fail(i18n::refusal(lang, &e)))?;
        let seat = state
            .to_move()
            .ok_or_else(|| fail(t(lang, "replay.err.over").into()))?;
        if !args.check {
            if turn != Some(state.turn) {
                turn = Some(state.turn);
                outln!(out);
                if args.boards {
                    out.push_str(&text::board(&state.public_observation(), &names, lang));
                } else {
                    outln!(
                        out,
                        "══ {} · {} ══",
                        tf(lang, "turn", &[("turn", &state.turn)]),
                        authorities(&state, &names, lang)
                    );
                }
            }
            let obs = state.observation(seat);
            outln!(
                out,
                "{:>5}  {}: {}",
                step + 1,
                names.of(seat),
                text::action(action, &obs, &names, lang)
            );
        }
        state
            .apply(action)
            .map_err(|e| fail(i18n::refusal(lang, &e)))?;
    }
    let summary = outcome(&state, &names, lang);
    if args.check {
        outln!(
            out,
            "{}",
            ok_line(file, record.actions.len(), state.turn, &summary, lang)
        );
    } else {
        outln!(out);
        outln!(out, "{summary}");
    }
    crate::emit(&out)
}

/// Why a record does not replay.
fn no_replay(file: &str, e: game::RecordError, lang: Lang) -> anyhow::Error {
    anyhow::anyhow!(tf(
        lang,
        "cmd.err.no_replay",
        &[("file", &file), ("error", &i18n::record_error(lang, &e))]
    ))
}

/// Why a record does not replay, at its action `step` (from 0).
fn no_replay_at(
    file: &str,
    step: usize,
    record: &GameRecord,
    action: &str,
    e: String,
    lang: Lang,
) -> anyhow::Error {
    anyhow::anyhow!(tf(
        lang,
        "replay.err.no_replay_action",
        &[
            ("file", &file),
            ("step", &(step + 1)),
            ("total", &record.actions.len()),
            ("action", &action),
            ("error", &e)
        ]
    ))
}

/// The one-line verdict of `--check` (also the last line of a Cosmique replay).
fn ok_line(file: &str, actions: usize, turns: u32, outcome: &str, lang: Lang) -> String {
    tf(
        lang,
        "replay.ok",
        &[
            ("file", &file),
            ("actions", &actions),
            ("turns", &turns),
            ("outcome", &outcome),
        ],
    )
}

fn authorities(state: &State, names: &Names, lang: Lang) -> String {
    state
        .players
        .iter()
        .map(|(s, p)| format!("{} {} {}", names.of(s), t(lang, "authority"), p.authority))
        .collect::<Vec<_>>()
        .join(" · ")
}

fn outcome(state: &State, names: &Names, lang: Lang) -> String {
    if !state.over {
        let to_move = state.to_move().unwrap_or(Seat(0));
        return tf(lang, "replay.unfinished", &[("player", &names.of(to_move))]);
    }
    let winners = state.winners();
    if winners.is_empty() {
        return t(lang, "draw").to_string();
    }
    let w: Vec<&str> = winners.iter().map(|&s| names.of(s)).collect();
    tf(lang, "replay.winner", &[("player", &w.join(", "))])
}

/// Replays a Bataille Cosmique record: every action with its player, or only a check.
fn replay_cosmique(
    args: &ReplayArgs,
    record: &GameRecord,
    file: &str,
    lang: Lang,
) -> anyhow::Result<ExitCode> {
    let mut out = String::new();
    let mut end: cosmique::State = record
        .initial_state()
        .map_err(|e| no_replay(file, e, lang))?;
    for (step, text) in record.actions.iter().enumerate() {
        let fail = |e: String| no_replay_at(file, step, record, text, e, lang);
        let action = <cosmique::Action as game::Action>::parse(text)
            .map_err(|e| fail(i18n::refusal(lang, &e)))?;
        let seat =
            game::State::to_move(&end).ok_or_else(|| fail(t(lang, "replay.err.over").into()))?;
        if !args.check {
            outln!(out, "{:>5}  {seat}: {action}", step + 1);
        }
        game::State::apply(&mut end, action).map_err(|e| fail(i18n::refusal(lang, &e)))?;
    }
    let outcome = match end.winners().first() {
        Some(w) => tf(lang, "replay.winner", &[("player", w)]),
        None if end.over => t(lang, "draw").to_string(),
        None => tf(
            lang,
            "replay.unfinished",
            &[("player", &game::State::to_move(&end).unwrap_or(Seat(0)))],
        ),
    };
    outln!(
        out,
        "{}",
        ok_line(file, record.actions.len(), end.turn, &outcome, lang)
    );
    crate::emit(&out)
}
