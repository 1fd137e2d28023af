//! Game records: JSON round trip, exact replay, and clear errors for records that do not replay.

use game::record::Recorded;
use game::{GameRecord, RecordError};
use starrealms::{Config, State, rollout};

fn a_finished_game(seed: u64) -> Recorded<State> {
    let mut game = Recorded::<State>::new(&Config::default(), seed).unwrap();
    let mut rng = game::rng_from_seed(seed);
    let mut buf = Vec::new();
    while !game.state().over {
        let a = rollout::random_action(game.state(), &mut buf, &mut rng);
        game.apply(a).unwrap();
    }
    game
}

#[test]
fn a_record_is_config_seed_and_action_texts() {
    let game = a_finished_game(5);
    let json: serde_json::Value = serde_json::from_str(&game.record().to_json()).unwrap();
    assert_eq!(json["version"], 1);
    assert_eq!(json["game"], "starrealms");
    assert_eq!(json["seed"], 5);
    assert_eq!(json["config"]["seats"], 2);
    assert_eq!(json["config"]["discard_timing"], "immediate");
    let actions = json["actions"].as_array().unwrap();
    assert!(actions.iter().all(|a| a.is_string()));
    assert_eq!(actions.len(), game.record().actions.len());
    // The last action of a finished game is the attack that ended it.
    assert!(
        actions
            .last()
            .unwrap()
            .as_str()
            .unwrap()
            .starts_with("attack p")
    );
}

#[test]
fn replay_gives_the_same_game_step_by_step() {
    let game = a_finished_game(8);
    let mut states = Vec::new();
    let end: State = game
        .record()
        .replay_with(|_, _, s: &State| states.push(s.clone()))
        .unwrap();
    assert_eq!(&end, game.state());
    assert_eq!(states.len(), game.record().actions.len());
}

#[test]
fn broken_records_say_what_is_wrong() {
    let game = a_finished_game(9);
    let good = game.record().clone();

    let mut r = good.clone();
    r.actions[3] = "fly away".into();
    match r.replay::<State>() {
        Err(RecordError::Action { step: 3, text, .. }) => assert_eq!(text, "fly away"),
        other => panic!("{other:?}"),
    }

    let mut r = good.clone();
    r.actions.insert(0, "buy row 0".into());
    let err = r.replay::<State>().unwrap_err();
    assert!(matches!(err, RecordError::Action { step: 0, .. }), "{err}");
    assert!(err.to_string().contains("buy row 0"), "{err}");

    let mut r = good.clone();
    r.actions.push("end".into());
    let err = r.replay::<State>().unwrap_err();
    assert!(err.to_string().contains("game is over"), "{err}");

    let mut r = good.clone();
    r.version = 99;
    assert_eq!(r.replay::<State>().unwrap_err(), RecordError::Version(99));

    let mut r = good.clone();
    r.game = "cosmique".into();
    assert!(matches!(
        r.replay::<State>(),
        Err(RecordError::WrongGame { .. })
    ));

    let mut r = good.clone();
    r.config["seats"] = 9.into();
    assert!(matches!(r.replay::<State>(), Err(RecordError::Config(_))));

    let mut r = good;
    r.config["colour"] = "red".into();
    let err = r.replay::<State>().unwrap_err();
    assert!(err.to_string().contains("colour"), "{err}");

    assert!(matches!(
        GameRecord::from_json("{\"version\": 1"),
        Err(RecordError::Json(_))
    ));
}
