//! End-to-end tests of `realms arena`: the tables, the JSON summary, the files, determinism
//! whatever the thread count, and every refused option.

use std::path::Path;

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

/// The binary with a neutral locale (English unless `--lang` says otherwise).
fn realms() -> Command {
    let mut cmd = Command::cargo_bin("realms").expect("the realms binary is built");
    cmd.env("LANG", "C")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES");
    cmd
}

fn stdout_of(cmd: &mut Command) -> String {
    let out = cmd.assert().success().get_output().stdout.clone();
    String::from_utf8(out).expect("utf-8 output")
}

fn json_of(cmd: &mut Command) -> Value {
    serde_json::from_str(&stdout_of(cmd)).expect("the output is JSON")
}

/// `realms arena --bots random,heuristic --games N --seed S --out DIR` plus `extra`.
fn arena(out: &Path, games: &str, extra: &[&str]) -> Command {
    let mut cmd = realms();
    cmd.args(["arena", "--bots", "random,heuristic", "--games", games])
        .arg("--out")
        .arg(out)
        .args(extra);
    cmd
}

fn without_timing(mut v: Value) -> Value {
    let o = v.as_object_mut().unwrap();
    for k in ["seconds", "games_per_second", "threads"] {
        assert!(o.remove(k).is_some(), "the summary has `{k}`");
    }
    v
}

fn rating_of(v: &Value, bot: &str) -> f64 {
    v["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["bot"] == bot)
        .unwrap_or_else(|| panic!("{bot} is rated"))["rating"]
        .as_f64()
        .unwrap()
}

#[test]
fn arena_is_listed_and_documents_its_options() {
    assert!(stdout_of(realms().arg("--help")).contains("arena"));
    let help = stdout_of(realms().args(["arena", "--help"]));
    for option in [
        "--bots",
        "--games",
        "--formats",
        "--seed",
        "--threads",
        "--json",
        "--out",
    ] {
        assert!(help.contains(option), "arena --help documents {option}");
    }
}

#[test]
fn text_report_has_the_matrix_the_ratings_and_the_files() {
    let dir = tempfile::tempdir().unwrap();
    let out = stdout_of(&mut arena(dir.path(), "30", &["--seed", "3"]));
    assert!(out.starts_with("Arena · random, heuristic · standard · 30 games a pair"));
    assert!(out.contains("Win rate of the row against the column"));
    assert!(out.contains("95% Wilson interval"));
    assert!(out.contains("Bradley–Terry ratings on the Elo scale"));
    assert!(out.contains("bootstrap"));
    let lines: Vec<&str> = out.lines().collect();
    let row = |bot: &str| {
        lines
            .iter()
            .find(|l| l.trim_start().starts_with(bot) && l.contains('—'))
            .unwrap_or_else(|| panic!("the matrix has a row for {bot}:\n{out}"))
    };
    assert!(row("random").contains('['), "cells carry an interval");
    assert!(row("heuristic").contains('%'));
    let first = lines
        .iter()
        .find(|l| l.trim_start().starts_with("1."))
        .expect("a ranked rating table");
    assert!(
        first.contains("heuristic") && first.contains('+'),
        "{first}"
    );
    assert!(out.contains("30 games, "));
    assert!(out.contains("games.csv") && out.contains("ratings.svg"));

    let fr = stdout_of(arena(dir.path(), "10", &[]).args(["--lang", "fr"]));
    assert!(fr.starts_with("Arène · random, heuristic"), "{fr}");
    assert!(fr.contains("Taux de victoire") && fr.contains("intervalle à 95 %"));
    assert!(fr.contains("Classement Bradley–Terry") && fr.contains("parties/s"));
}

#[test]
fn json_summary_is_the_same_whatever_the_threads() {
    let dirs = [tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap()];
    let run = |dir: &Path, threads: &str| {
        json_of(&mut arena(
            dir,
            "40",
            &["--seed", "11", "--threads", threads, "--json"],
        ))
    };
    let one = run(dirs[0].path(), "1");
    let two = run(dirs[1].path(), "2");
    for key in [
        "bots",
        "formats",
        "games",
        "matrix",
        "by_format",
        "ratings",
        "rating_method",
        "clean_sweeps",
    ] {
        assert!(one.get(key).is_some(), "the summary has `{key}`");
    }
    assert_eq!(one["bots"], serde_json::json!(["random", "heuristic"]));
    assert_eq!(one["games"], 40);
    assert_eq!(one["games_per_pair"], 40);
    assert!(one["matrix"][0][0].is_null() && one["matrix"][1][1].is_null());
    let h = &one["matrix"][1][0];
    assert_eq!(h["games"], 40);
    assert!(
        h["win_rate"].as_f64().unwrap() > 0.9,
        "heuristic beats random: {h}"
    );
    let [lo, hi] = [
        h["ci95"][0].as_f64().unwrap(),
        h["ci95"][1].as_f64().unwrap(),
    ];
    assert!(lo < h["win_rate"].as_f64().unwrap() && hi <= 1.0 && lo > 0.5);
    let r = &one["matrix"][0][1];
    assert!((r["win_rate"].as_f64().unwrap() + h["win_rate"].as_f64().unwrap() - 1.0).abs() < 1e-9);
    assert!(rating_of(&one, "heuristic") > rating_of(&one, "random"));
    assert_eq!(one["ratings"][0]["bot"], "heuristic", "sorted best first");
    for rating in one["ratings"].as_array().unwrap() {
        let se = rating["se"].as_f64().expect("a standard error");
        let ci = rating["ci95"].as_array().expect("an interval");
        assert!(se >= 0.0 && ci.len() == 2);
        assert!(ci[0].as_f64().unwrap() <= ci[1].as_f64().unwrap());
    }
    let mean: f64 = one["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["rating"].as_f64().unwrap())
        .sum();
    assert!(mean.abs() < 1e-6, "ratings have mean 0");
    assert_eq!(one["rating_method"]["bootstrap_resamples"], 200);
    // summary.json holds what --json prints.
    let file: Value = serde_json::from_str(
        &std::fs::read_to_string(dirs[0].path().join("summary.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(file, one);
    assert_eq!(without_timing(one), without_timing(two));
    assert_eq!(
        std::fs::read_to_string(dirs[0].path().join("games.csv")).unwrap(),
        std::fs::read_to_string(dirs[1].path().join("games.csv")).unwrap()
    );
    // Another seed plays other games.
    let other = tempfile::tempdir().unwrap();
    arena(other.path(), "40", &["--seed", "12"])
        .assert()
        .success();
    assert_ne!(
        std::fs::read_to_string(dirs[0].path().join("games.csv")).unwrap(),
        std::fs::read_to_string(other.path().join("games.csv")).unwrap()
    );
}

#[test]
fn the_order_of_the_bots_changes_no_game() {
    let dirs = [tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap()];
    let a = json_of(&mut arena(dirs[0].path(), "20", &["--json"]));
    let b = json_of(
        realms()
            .args(["arena", "--bots", "heuristic,random", "-n", "20", "--json"])
            .arg("--out")
            .arg(dirs[1].path()),
    );
    assert_eq!(a["ratings"], b["ratings"]);
    assert_eq!(a["matrix"][1][0], b["matrix"][0][1]);
}

#[test]
fn files_are_written_one_row_a_game() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("deep/results");
    // 7 games a pair round up to 8 (4 deals, each from both sides), in two formats.
    let v = json_of(&mut arena(
        &out,
        "7",
        &["--formats", "standard,free_for_all", "--json"],
    ));
    assert_eq!(v["games_per_pair"], 8);
    assert_eq!(v["games"], 16);
    assert_eq!(v["by_format"].as_array().unwrap().len(), 2);
    let csv = std::fs::read_to_string(out.join("games.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next().unwrap(),
        "format,pair,bot_a,bot_b,deal,seed,seats_a,seats_b,first,winner,turns"
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 16, "pairs × games × formats");
    for pair in rows.chunks(2) {
        assert_eq!(
            pair[0][5], pair[1][5],
            "a deal is played twice with one seed"
        );
        assert_eq!(pair[0][6], pair[1][7], "with the seats swapped");
    }
    assert_eq!(rows[8][0], "free_for_all");
    assert!(rows[8][6] == "p1 p3" || rows[8][6] == "p2 p4");
    for row in &rows {
        assert!(["random", "heuristic", "draw"].contains(&row[9]));
        assert!(row[10].parse::<u32>().unwrap() > 0);
    }
    let svg = std::fs::read_to_string(out.join("ratings.svg")).unwrap();
    assert!(svg.starts_with("<svg") || svg.starts_with("<?xml"));
    assert!(svg.contains("heuristic") && svg.trim_end().ends_with("</svg>"));
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["games.csv", "ratings.svg", "summary.json"],
        "no temporary file is left"
    );
}

#[test]
fn every_format_plays_and_the_default_directory_is_used() {
    let dir = tempfile::tempdir().unwrap();
    let v = json_of(realms().current_dir(dir.path()).args([
        "arena",
        "--bots",
        "heuristic,random",
        "-n",
        "2",
        "--formats",
        "standard,free_for_all,hunter,hunter_first_blood,hydra,emperor,raid",
        "--json",
    ]));
    assert_eq!(v["games"], 14);
    let csv = std::fs::read_to_string(dir.path().join("arena-results/games.csv")).unwrap();
    assert_eq!(csv.lines().count(), 15);
    assert!(csv.contains("emperor,0,heuristic,random,0,"));
    assert!(csv.contains("p1 p2 p3,p4 p5 p6"), "a bot plays each team");
}

#[test]
fn bad_options_are_refused_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("never");
    let file = dir.path().join("a-file");
    std::fs::write(&file, "x").unwrap();
    for (args, message) in [
        (vec!["--bots", "random,wizard"], "unknown bot `wizard`"),
        (
            vec!["--bots", "random"],
            "--bots needs at least 2 bots, not 1",
        ),
        (
            vec!["--bots", "random,heuristic,random"],
            "bot `random` is named twice in --bots",
        ),
        (
            vec!["--bots", "random,heuristic", "--games", "0"],
            "--games must be at least 1",
        ),
        (
            vec!["--bots", "random,heuristic", "--threads", "0"],
            "--threads must be at least 1",
        ),
        (
            vec!["--bots", "random,heuristic", "--formats", "standard,chess"],
            "unknown format `chess` (known: standard, free_for_all",
        ),
        (
            vec!["--bots", "random,heuristic", "--formats", "hydra,hydra"],
            "format `hydra` is named twice in --formats",
        ),
        (
            vec!["--bots", "random,heuristic", "--games", "many"],
            "the value `many` of --games <GAMES> is not valid",
        ),
        (vec!["--games", "4"], "--bots"),
    ] {
        realms()
            .arg("arena")
            .args(&args)
            .arg("--out")
            .arg(&out)
            .assert()
            .failure()
            .stderr(predicate::str::contains(message));
        assert!(!out.exists(), "{args:?}: nothing is written");
    }
    realms()
        .args(["arena", "--bots", "random,heuristic", "--out"])
        .arg(&file)
        .assert()
        .failure()
        .stderr(predicate::str::contains("exists and is not a directory"));
    realms()
        .args(["--lang", "fr", "arena", "--bots", "random", "--out"])
        .arg(&out)
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "--bots demande au moins 2 bots, pas 1",
        ));
    assert!(!out.exists());
}

/// The journal a run writes its deals to as they end.
const JOURNAL: &str = "games.partial.jsonl";

/// What a successful run writes on standard error.
fn stderr_of(cmd: &mut Command) -> String {
    let out = cmd.assert().success().get_output().stderr.clone();
    String::from_utf8(out).expect("utf-8 output")
}

#[test]
fn a_run_killed_midway_resumes_where_it_stopped_and_gives_the_same_files() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["arena", "--bots", "heuristic,ismcts:8", "--games", "6"];
    let whole = dir.path().join("whole");
    realms()
        .args(args)
        .arg("--out")
        .arg(&whole)
        .assert()
        .success();
    assert!(
        !whole.join(JOURNAL).exists(),
        "the journal is removed at the end"
    );
    let expected = std::fs::read_to_string(whole.join("games.csv")).unwrap();

    // A run killed (kill -9) once its journal holds a deal, and before it ends.
    let cut = dir.path().join("cut");
    let journal = cut.join(JOURNAL);
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("realms"))
        .env("LANG", "C")
        .args(args)
        .args(["--threads", "1", "--out"])
        .arg(&cut)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the arena starts");
    let deals_in = |path: &Path| {
        std::fs::read_to_string(path)
            .map(|t| t.lines().count().saturating_sub(1))
            .unwrap_or(0)
    };
    let started = std::time::Instant::now();
    while deals_in(&journal) < 1 {
        assert!(
            started.elapsed().as_secs() < 120,
            "the journal gets its first deal"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().expect("the arena is killed");
    child.wait().unwrap();
    assert!(!cut.join("games.csv").exists(), "the run did not end");
    let left = deals_in(&journal);
    assert!((1..3).contains(&left), "{left} deals of 3 in the journal");
    // A last line cut short as the run was killed writing it.
    let mut text = std::fs::read_to_string(&journal).unwrap();
    text += "{\"deal\":2,\"games\":[{\"format\":0,";
    std::fs::write(&journal, &text).unwrap();
    let kept = text.clone();

    let stderr = stderr_of(realms().args(args).arg("--out").arg(&cut));
    assert!(
        stderr.contains(&format!(
            "Resuming an interrupted run: {} of 6 games already played",
            2 * left
        )),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(cut.join("games.csv")).unwrap(),
        expected,
        "the same games as the run never stopped"
    );
    assert!(!journal.exists());

    // `--restart` plays every game again, whatever the journal holds.
    std::fs::write(&journal, &kept).unwrap();
    std::fs::remove_file(cut.join("games.csv")).unwrap();
    let stderr = stderr_of(realms().args(args).args(["--restart", "--out"]).arg(&cut));
    assert!(!stderr.contains("Resuming"), "{stderr}");
    assert!(stderr.contains("6 of 6 games played"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(cut.join("games.csv")).unwrap(),
        expected
    );
}

#[test]
fn a_journal_of_another_arena_is_replaced_and_progress_is_told_off_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let fresh = stdout_of(&mut arena(&dir.path().join("fresh"), "40", &["--json"]));
    let out = dir.path().join("other");
    std::fs::create_dir_all(&out).unwrap();
    // Another arena's journal (other bots), with a deal that would not fit this one.
    std::fs::write(
        out.join(JOURNAL),
        "{\"bots\":[\"easy\",\"hard\"]}\n{\"deal\":0,\"games\":[],\"seconds\":1.0}\n",
    )
    .unwrap();
    let result = arena(&out, "40", &["--json", "--lang", "fr"])
        .assert()
        .success()
        .get_output()
        .clone();
    let stderr = String::from_utf8(result.stderr).unwrap();
    assert!(
        stderr.contains("contient les parties d'une autre série"),
        "{stderr}"
    );
    // A line at every tenth of the games, the bar being drawn on terminals only.
    for done in (4..=40).step_by(4) {
        assert!(
            stderr.contains(&format!("{done} parties sur 40 jouées")),
            "{stderr}"
        );
    }
    let a: Value = serde_json::from_str(&fresh).unwrap();
    let b: Value = serde_json::from_slice(&result.stdout).unwrap();
    assert_eq!(without_timing(a), without_timing(b));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("fresh/games.csv")).unwrap(),
        std::fs::read_to_string(out.join("games.csv")).unwrap()
    );
    assert!(!out.join(JOURNAL).exists());
}
