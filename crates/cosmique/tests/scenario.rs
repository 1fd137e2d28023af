//! Bataille Cosmique scenarios: positions written and read back exactly, the game a seed deals,
//! impossible positions refused naming the field, expectations checked, the example files and
//! the documentation's examples played.

use std::path::PathBuf;

use cosmique::scenario::{ScenarioError, Setup};
use cosmique::{Config, State, Variant};
use game::refusal::Why;

fn root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

fn invalid(text: &str) -> (String, String) {
    match Setup::from_json(text).unwrap().check() {
        Err(ScenarioError::Invalid { field, why }) => (field, why.english()),
        other => panic!("expected an invalid field, got {other:?}\n{text}"),
    }
}

fn four(p2: &str) -> String {
    format!(r#"{{"planets": [{{}}, {{ {p2} }}, {{}}, {{}}]}}"#)
}

#[test]
fn every_position_of_random_games_is_written_and_read_back_exactly() {
    let mut rng = game::rng_from_seed(3);
    let mut positions = 0;
    for (g, variant) in [Variant::Standard, Variant::Incolore, Variant::Pv30]
        .into_iter()
        .enumerate()
    {
        let config = Config::of_variant(variant);
        let mut state = State::new(&config, 100 + g as u64).unwrap();
        while !state.over && positions < 3000 {
            let text = serde_json::to_string(&Setup::from_state(&state)).unwrap();
            let back = Setup::from_json(&text).unwrap().build().unwrap();
            assert_eq!(back, state, "{text}");
            let legal = state.legal_actions();
            let a = legal[game::below(&mut rng, legal.len())];
            state.apply(a).unwrap();
            positions += 1;
        }
    }
    assert!(positions > 300, "{positions} positions");
}

#[test]
fn a_seed_alone_is_the_game_it_deals() {
    for (config, seed) in [("{}", 7u64), (r#"{"variant": "incolore"}"#, 8)] {
        let text = format!(r#"{{"config": {config}, "seed": {seed}, "actions": ["end"]}}"#);
        let (state, _) = Setup::from_json(&text).unwrap().check().unwrap();
        let c: Config = serde_json::from_str(config).unwrap();
        let mut dealt = State::new(&c, seed).unwrap();
        dealt.apply("end".parse().unwrap()).unwrap();
        assert_eq!(state, dealt);
    }
    let (field, _) = invalid(r#"{"seed": 1, "discard": ["red1"]}"#);
    assert_eq!(field, "planets");
}

#[test]
fn a_broken_scenario_says_where() {
    // Bad JSON, an unknown field, an illegal action: said with where.
    let e = Setup::from_json(r#"{"planetz": []}"#)
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("line 1, column 10: unknown field `planetz`"),
        "{e}"
    );
    let e = Setup::from_json(&four(r#""hand": ["purple9"]"#))
        .unwrap_err()
        .to_string();
    assert!(e.contains("`purple9` is not a card"), "{e}");
    let text = r#"{"planets": [{"hand": ["red1"]}, {}, {}, {}], "actions": ["defend left blue2"]}"#;
    let e = Setup::from_json(text)
        .unwrap()
        .check()
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("action 1 (`defend left blue2`): "), "{e}");
}

#[test]
fn expectations_that_do_not_hold_are_each_reported() {
    let text = r#"{"planets": [{"hand": ["red1", "red2"]}, {}, {}, {}],
        "actions": ["defend left red1"],
        "expect": {"planets": {"p1": {"hand": ["red1"], "left": {"defence": {"card": "red1"}}}},
                   "actions_left": 1, "to_move": "p2", "legal": ["defend right red2", "take orbit"]}}"#;
    let (_, m) = Setup::from_json(text).unwrap().check().unwrap();
    let fields: Vec<&str> = m.iter().map(|m| m.field.as_str()).collect();
    assert_eq!(fields, ["planets.p1.hand", "to_move", "legal[1]"]);
    assert_eq!(m[0].found, serde_json::json!(["red2"]));
    assert_eq!(m[1].found, serde_json::json!("p1"));
}

#[test]
fn every_example_file_meets_its_expectations() {
    let dir = root().join("scenarios-cosmique");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert!(files.len() >= 5);
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let setup = Setup::from_json(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            setup.expect.is_some(),
            "{} expects something",
            path.display()
        );
        assert!(!setup.description.is_empty());
        let (state, m) = setup.check().unwrap();
        assert_eq!(m, [], "{}", path.display());
        // And a changed expectation is caught.
        let mut wrong = setup.expect.clone().unwrap();
        wrong.actions_left = Some(state.actions_left + 1);
        assert_eq!(wrong.check(&state).len(), 1);
    }
}

#[test]
fn the_documentations_examples_play_as_described() {
    let docs = std::fs::read_to_string(root().join("docs/scenarios-cosmique.md")).unwrap();
    let mut blocks = 0;
    let mut current: Option<String> = None;
    for line in docs.lines() {
        match (&mut current, line.trim_start()) {
            (None, l) if l.starts_with("```json") => current = Some(String::new()),
            (Some(_), l) if l.starts_with("```") => {
                let block = current.take().unwrap();
                let setup = Setup::from_json(&block).unwrap_or_else(|e| panic!("{e}\n{block}"));
                let (_, m) = setup.check().unwrap_or_else(|e| panic!("{e}\n{block}"));
                assert_eq!(m, [], "{block}");
                blocks += 1;
            }
            (Some(block), _) => {
                block.push_str(line);
                block.push('\n');
            }
            _ => {}
        }
    }
    assert!(blocks >= 2);
}

/// A refused position's field, the keys of its reason (worded by the translation table, from
/// the outermost place to the fault) and its English text.
fn invalid_why(text: &str) -> (String, Vec<String>, String) {
    match Setup::from_json(text).unwrap().check() {
        Err(ScenarioError::Invalid { field, why }) => {
            let keys = why.keys().into_iter().map(String::from).collect();
            (field, keys, why.english())
        }
        other => panic!("expected an invalid field with its reason, got {other:?}\n{text}"),
    }
}

/// Each impossible position: its field, its reason's key and its English.
#[test]
fn impossible_positions_name_their_field_and_are_worded_by_the_translation_table() {
    let cases = [
        (
            four(r#""hand": ["red1", "red1"], "orbit": "red1""#),
            "planets[1].orbit",
            "file.cosmique.too_many_copies",
            "3 copies of red1 in the position; the game has 2",
        ),
        (
            four(r#""hand": ["red1"], "known": ["blue2"]"#),
            "planets[1].known[0]",
            "file.cosmique.not_in_hand",
            "blue2 is not in hand",
        ),
        (
            four(r#""life": 7"#),
            "planets[1].life",
            "file.cosmique.life",
            "7 is more than the variant's 6",
        ),
        (
            four(r#""life": 0, "hand": ["red1"]"#),
            "planets[1].life",
            "file.cosmique.dead_planet",
            "a dead planet (life 0) holds no card: no hand, orbit or slot",
        ),
        (
            four(r#""left": {"attack": {"card": "red2", "by": "p2"}}"#),
            "planets[1].left.attack.by",
            "file.cosmique.attacker",
            "p2 cannot have attacked p2",
        ),
        (
            r#"{"planets": [{}, {}, {}]}"#.to_string(),
            "planets",
            "file.cosmique.planets",
            "a game has 4 planets, not 3",
        ),
        (
            r#"{"current": "p2", "planets": [{}, {"life": 0}, {}, {}]}"#.to_string(),
            "current",
            "file.cosmique.current_dead",
            "p2 is dead",
        ),
        (
            r#"{"actions_left": 3, "planets": [{}, {}, {}, {}]}"#.to_string(),
            "actions_left",
            "file.cosmique.actions_left",
            "a turn has 1 or 2 actions left",
        ),
        (
            r#"{"winner": "p1", "planets": [{}, {}, {}, {}]}"#.to_string(),
            "winner",
            "file.cosmique.winner_over",
            "only a finished game has a winner",
        ),
        (
            r#"{"seed": 1, "discard": ["red1"]}"#.to_string(),
            "planets",
            "file.cosmique.deal",
            "without `planets`, a scenario is a new game dealt from `seed`: give the four \
             planets (and the rest of the position), or only `config` and `seed`",
        ),
    ];
    for (text, field, key, message) in cases {
        assert_eq!(
            invalid_why(&text),
            (
                field.to_string(),
                vec![key.to_string()],
                message.to_string()
            ),
            "{text}"
        );
    }
    // The configuration's checks are the table's too.
    match Setup::from_json(r#"{"config": {"turn_limit": 0}, "planets": [{}, {}, {}, {}]}"#)
        .unwrap()
        .check()
    {
        Err(ScenarioError::Invalid { field, why }) => {
            assert_eq!(field, "config");
            assert_eq!(why, Why::new("file.cosmique.turn_limit", &[]));
            assert_eq!(why.english(), "the turn limit must be at least 1");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_readers_own_words_are_the_english_of_the_translation_table() {
    let e = Setup::from_json(r#"{"pile": "all"}"#).unwrap_err();
    let ScenarioError::Json { message, .. } = e else {
        panic!("{e:?}");
    };
    let value = serde_json::Value::from("all");
    assert_eq!(
        message,
        Why::new("file.cosmique.pile_text", &[("value", &value)]).english()
    );
    assert_eq!(message, "expected a list of cards or \"rest\", not \"all\"");
    // A card that is none.
    let e = Setup::from_json(r#"{"pile": ["purple9"]}"#).unwrap_err();
    let ScenarioError::Json { message, .. } = e else {
        panic!("{e:?}");
    };
    assert_eq!(
        message,
        Why::new("file.cosmique.not_a_card", &[("word", &"purple9")]).english()
    );
    assert_eq!(
        message,
        "`purple9` is not a card (expected a colour and a value, like red3, or plus2)"
    );
}
