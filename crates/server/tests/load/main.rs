//! The load test of `examples/load.rs`, small: twenty games at once, both seats of each played
//! over real WebSockets, all of them to their end without a single error; and a few games beside
//! every other case of the load (stored games, lobby pollers, idle sockets, bot games).

mod harness;

use std::time::{Duration, Instant};

use harness::{Config, Report};

fn run(games: usize, concurrency: usize) -> Report {
    harness::run(&Config {
        games,
        concurrency,
        ..Config::default()
    })
    .unwrap()
}

/// Actions sent so many ms after `t0`, each with its latency in ms.
fn timed(t0: Instant, actions: &[(u64, u64)]) -> Vec<(Instant, Duration)> {
    let ms = Duration::from_millis;
    actions
        .iter()
        .map(|&(sent, took)| (t0 + ms(sent), ms(took)))
        .collect()
}

#[test]
fn the_steady_latencies_are_those_sent_once_the_first_wave_was_set_up() {
    let t0 = Instant::now();
    let at = |ms: u64| t0 + Duration::from_millis(ms);
    let ms = Duration::from_millis;
    let timed = timed(t0, &[(5, 9), (20, 3), (30, 7), (31, 1)]);
    // Three games set up at 10, 30 and 40 ms, not in order.
    let mut set_up_at = [at(40), at(10), at(30)];
    assert_eq!(
        harness::after_first_wave(&timed, &mut set_up_at, 1),
        [ms(1), ms(3), ms(7)]
    );
    assert_eq!(
        harness::after_first_wave(&timed, &mut set_up_at, 2),
        [ms(1), ms(7)]
    );
    assert!(harness::after_first_wave(&timed, &mut set_up_at, 3).is_empty());
    assert!(harness::after_first_wave(&timed, &mut set_up_at, 4).is_empty());
    // As many games as play at a time, at most every game, at least one.
    let wave = |games, concurrency| {
        Config {
            games,
            concurrency,
            ..Config::default()
        }
        .first_wave()
    };
    assert_eq!(wave(3, 10), 3);
    assert_eq!(wave(500, 150), 150);
    assert_eq!(wave(5, 0), 1);
}

#[test]
fn the_timeline_puts_each_action_in_the_window_it_was_sent_in() {
    let ms = Duration::from_millis;
    // Not in order; none sent from 20 to 30 ms after the first (at 5 ms).
    let timed = timed(
        Instant::now(),
        &[(41, 4), (5, 9), (14, 3), (15, 7), (36, 1)],
    );
    let windows = harness::timeline(&timed, ms(10));
    let summary: Vec<(Duration, Vec<Duration>)> =
        windows.into_iter().map(|w| (w.from, w.latencies)).collect();
    assert_eq!(
        summary,
        [
            (ms(0), vec![ms(3), ms(9)]),
            (ms(10), vec![ms(7)]),
            (ms(30), vec![ms(1), ms(4)]),
        ]
    );
    assert!(harness::timeline(&[], ms(10)).is_empty());
}

#[test]
fn twenty_games_at_once_end_without_an_error() {
    let report = run(20, 20);
    println!("{}", report.text());
    assert_eq!(report.errors, 0, "{}", report.text());
    assert_eq!(report.finished, 20, "{}", report.text());
    assert_eq!(report.capped, 0);
    assert_eq!(report.actions, report.latencies.len());
    assert!(report.actions >= 20 * 50, "{} actions", report.actions);
    assert!(report.latencies.is_sorted());
    assert_eq!(report.setups.len(), 20);
    assert!(report.setups.is_sorted());
    // The actions played once all twenty games were set up: some, at most all.
    assert!(!report.steady.is_empty() && report.steady.len() <= report.actions);
    assert!(report.steady.is_sorted());
    assert!(report.steady.last() <= report.latencies.last());
    let json = report.json();
    assert_eq!(json["steady_actions"], report.steady.len());
    assert_eq!(json["errors"], 0);
    assert_eq!(json["actions"], report.actions);
    let ms = &json["latency_ms"];
    assert!(ms["p50"].as_f64() <= ms["p99"].as_f64() && ms["p99"].as_f64() <= ms["max"].as_f64());

    assert_eq!(json["busy_clients"], false);
    assert!(!report.text().contains("awake"));
    // Twenty games leave the runtime's threads idle now and then: they sleep.
    assert!(report.parks > 0);
    assert_eq!(json["runtime_parks"], report.parks);
    assert!(report.timeline.is_empty() && json["timeline"].as_array().unwrap().is_empty());

    // Deals and choices are seeded: the same games again, half as many at a time and with
    // clients that keep their core awake, play the same number of actions; their runtime
    // never slept while the games were played.
    let again = harness::run(&Config {
        games: 20,
        concurrency: 10,
        busy: true,
        timeline: Some(Duration::from_millis(50)),
        ..Config::default()
    })
    .unwrap();
    assert_eq!(again.errors, 0, "{}", again.text());
    assert_eq!(again.actions, report.actions);
    // Every action in one window of the timeline, the windows in order.
    let timeline = &again.timeline;
    assert_eq!(
        timeline.iter().map(|w| w.latencies.len()).sum::<usize>(),
        again.actions
    );
    assert!(timeline.is_sorted_by(|a, b| a.from < b.from));
    assert_eq!(timeline[0].from, Duration::ZERO);
    assert_eq!(
        again.json()["timeline"].as_array().unwrap().len(),
        timeline.len()
    );
    assert!(again.text().contains("50 ms at a time"), "{}", again.text());
    assert_eq!(again.json()["busy_clients"], true);
    assert_eq!(again.parks, 0, "{}", again.text());
    assert!(
        again
            .text()
            .contains("clients kept their core awake: their runtime slept 0 times"),
        "{}",
        again.text()
    );
}

#[test]
fn games_end_without_an_error_beside_the_lobby_idle_sockets_and_bots() {
    let report = harness::run(&Config {
        games: 5,
        concurrency: 5,
        stored_games: 200,
        lobby_pollers: 2,
        poll_interval: Duration::from_millis(20),
        idle_sockets: 20,
        bot_games: 1,
        bot: "ismcts:50".into(),
        think: Duration::from_millis(1),
        ..Config::default()
    })
    .unwrap();
    println!("{}", report.text());
    assert_eq!(report.errors, 0, "{}", report.text());
    assert_eq!(report.finished, 5, "{}", report.text());
    // 0 to 11 actions a stored game.
    let stored_actions = (0..200).map(|i| i % 12).sum::<usize>();
    assert_eq!(report.stored.games, 200);
    assert_eq!(report.stored.actions, stored_actions);

    // Every poller had its pages, full ones: the stored games fill the lobby.
    let lobby = &report.lobby;
    assert!(lobby.requests > 0, "{}", report.text());
    assert_eq!(lobby.requests, lobby.latencies.len());
    assert!(lobby.latencies.is_sorted());
    assert!(
        lobby.listed >= 50 * (lobby.requests / 3),
        "{}",
        report.text()
    );

    assert_eq!(report.idle.opened, 20, "{}", report.text());
    assert_eq!(report.idle.open_at_end, 20, "{}", report.text());

    assert!(report.bots.started >= 1);
    assert!(report.bots.actions > 0, "{}", report.text());

    let json = report.json();
    assert_eq!(json["errors"], 0);
    assert_eq!(json["stored_games"]["games"], 200);
    assert_eq!(json["lobby"]["requests"], lobby.requests);
    assert_eq!(json["idle_sockets"]["open_at_end"], 20);
    assert_eq!(json["bot_games"]["actions"], report.bots.actions);
    // The clients thought 1 ms before each action: a game's actions, one after another, take
    // at least that long each, and the report says so.
    assert_eq!(json["think_ms"], 1);
    assert!(
        report.text().contains("clients think 1 ms"),
        "{}",
        report.text()
    );
    assert!(
        report.wall >= Duration::from_millis(report.actions as u64 / 5),
        "{} actions in {:?}",
        report.actions,
        report.wall
    );
    let ms = &json["lobby"]["latency_ms"];
    assert!(ms["p50"].as_f64() <= ms["p99"].as_f64() && ms["p99"].as_f64() <= ms["max"].as_f64());
}

#[test]
fn the_policy_plays_then_buys_then_attacks_and_ends_last() {
    let legal = |texts: &[&str]| texts.iter().map(|t| t.to_string()).collect::<Vec<_>>();
    let mut rng = game::rng_from_seed(1);
    let mut pick = |texts: &[&str]| harness::choose(&legal(texts), &mut rng).map(str::to_string);
    assert_eq!(
        pick(&["buy row 1", "end", "play scout"]).unwrap(),
        "play scout"
    );
    assert_eq!(
        pick(&["attack p2 3", "buy row 1", "end"]).unwrap(),
        "buy row 1"
    );
    assert_eq!(
        pick(&["attack p2 3", "end", "scrap hand viper"]).unwrap(),
        "attack p2 3"
    );
    assert_eq!(
        pick(&["end", "scrap hand viper"]).unwrap(),
        "scrap hand viper"
    );
    assert_eq!(pick(&["end"]).unwrap(), "end");
    assert_eq!(pick(&[]), None);
}
