//! `realms cards stats`: the same figures whatever the threads, figures that add up, the files
//! it writes, other card sets, clear refusals.

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

fn realms() -> Command {
    let mut cmd = Command::cargo_bin("realms").unwrap();
    cmd.env("LANG", "C")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES");
    cmd
}

fn stats(args: &[&str]) -> Value {
    let out = realms().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut v: Value = serde_json::from_slice(&out.stdout).unwrap();
    v.as_object_mut().unwrap().remove("seconds");
    v
}

#[test]
fn the_figures_are_the_same_whatever_the_threads_and_add_up() {
    let run = |threads: &str| {
        stats(&[
            "cards",
            "stats",
            "--games",
            "60",
            "--seed",
            "4",
            "--threads",
            threads,
            "--json",
        ])
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    assert_eq!(one["games"], 60);
    let decided = one["decided"].as_u64().unwrap();
    let cards = one["cards"].as_array().unwrap();
    // One entry per trade card kind of the base set.
    let listed = realms().args(["cards", "--json"]).output().unwrap();
    let listed: Value = serde_json::from_slice(&listed.stdout).unwrap();
    let trade_kinds = listed["cards"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["role"] == "trade")
        .count();
    assert_eq!(cards.len(), trade_kinds);
    let mut bought_any = false;
    for c in cards {
        let f = |k: &str| c[k].as_f64().unwrap();
        // A card bought was offered that turn: the share of its offers that ended in a buy.
        assert!((0.0..=1.0).contains(&f("buy_rate")), "{c}");
        assert!(f("bought") == 0.0 || f("offered") > 0.0, "{c}");
        // Every decided game has two final decks, each holding the card or not.
        assert_eq!(
            f("decks_with") + f("decks_without"),
            2.0 * decided as f64,
            "{c}"
        );
        assert!(f("wins_with") <= f("decks_with") && f("wins_without") <= f("decks_without"));
        for (rate, ci) in [
            ("win_rate_with", "win_rate_with_ci95"),
            ("win_rate_without", "win_rate_without_ci95"),
            ("difference", "difference_ci95"),
        ] {
            let (lo, hi) = (c[ci][0].as_f64().unwrap(), c[ci][1].as_f64().unwrap());
            assert!(lo <= f(rate) + 1e-9 && f(rate) <= hi + 1e-9, "{c}");
        }
        bought_any |= f("bought") > 0.0;
    }
    assert!(bought_any);
    // Strongest first.
    let diffs: Vec<f64> = cards
        .iter()
        .map(|c| c["difference"].as_f64().unwrap())
        .collect();
    assert!(diffs.windows(2).all(|w| w[0] >= w[1]));
}

#[test]
fn the_files_and_other_sets() {
    let dir = tempfile::tempdir().unwrap();
    let out = realms()
        .args(["--lang", "en", "cards", "stats", "--games", "20", "--out"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Card statistics: 20 games"), "{text}");
    let csv = std::fs::read_to_string(dir.path().join("stats.csv")).unwrap();
    assert!(csv.starts_with("card,cost,offered,bought"));
    assert!(
        std::fs::read_to_string(dir.path().join("stats.svg"))
            .unwrap()
            .starts_with("<svg")
    );
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("stats.json")).unwrap())
            .unwrap();
    assert_eq!(json["games"], 20);

    let roe = stats(&[
        "--sets",
        "rise_of_empire",
        "cards",
        "stats",
        "--games",
        "10",
        "--json",
    ]);
    assert_eq!(roe["sets"], serde_json::json!(["rise_of_empire"]));
    assert!(
        roe["cards"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["card"] == "courier_skiff")
    );
    assert!(
        !roe["cards"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["card"] == "cutter")
    );

    realms()
        .args(["cards", "stats", "--players", "medium,genius"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("unknown bot `genius`"));
    realms()
        .args(["cards", "stats", "--games", "0"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("--games must be at least 1"));
    realms()
        .args(["cards", "stats", "--players", "medium,medium,medium"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("two-player"));
}
