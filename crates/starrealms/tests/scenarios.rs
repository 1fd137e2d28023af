//! The scenario format: every example file of `scenarios/` played to its expected outcome, the
//! JSON shown in `docs/scenarios.md` checked against the real types, what a wrong file reports,
//! and positions saved with `Setup::from_state` loading back unchanged.

use std::collections::BTreeSet;
use std::path::PathBuf;

use game::refusal::Why;
use game::{ActionError, Seat};
use starrealms::cards::Faction;
use starrealms::scenario::{InPlaySpec, Scenario, ScenarioResult, Setup, TradeDeckSpec, card};
use starrealms::state::Frame;
use starrealms::{CardId, InPlay, Pending, ScenarioError, State};

// ----- helpers -------------------------------------------------------------------------------

fn root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

fn scenario_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios"))
}

/// Every example file, each checked by its own test below.
const EXAMPLES: [&str; 10] = [
    "app-discard-timing.json",
    "blob-destroyer-mid-ally.json",
    "blob-world-played-this-turn.json",
    "brain-world-thinning.json",
    "free-for-all-target.json",
    "french-names.json",
    "lethal-through-outpost.json",
    "pending-discard.json",
    "rise-of-empire-political-victory.json",
    "stealth-needle-copies-blob-carrier.json",
];

fn load(name: &str) -> Scenario {
    let path = scenario_dir().join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    Scenario::from_json(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn run(name: &str) -> State {
    load(name).run().unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The position of a file after its first `n` actions.
fn after(name: &str, n: usize) -> State {
    let mut scenario = load(name);
    scenario.actions.truncate(n);
    scenario.run().unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn ids(names: &[&str]) -> Vec<CardId> {
    names.iter().map(|&n| card(n)).collect()
}

fn sorted(cards: &[CardId]) -> Vec<CardId> {
    let mut v = cards.to_vec();
    v.sort();
    v
}

/// A deck as a scenario writes it: top card first.
fn top_first(deck: &[CardId]) -> Vec<CardId> {
    deck.iter().rev().copied().collect()
}

fn played(state: &State, seat: usize, faction: Faction) -> u8 {
    state.players.0[seat].played[faction as usize]
}

/// Parses a scenario text that is expected to load, then builds or runs it, returning the error.
fn run_error(text: &str) -> ScenarioError {
    let scenario = Scenario::from_json(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    match scenario.run() {
        Ok(_) => panic!("expected an error from\n{text}"),
        Err(e) => e,
    }
}

fn load_error(text: &str) -> (usize, usize, String) {
    match Scenario::from_json(text) {
        Err(ScenarioError::Json {
            line,
            column,
            message,
        }) => (line, column, message),
        other => panic!("expected a JSON error, got {other:?}\n{text}"),
    }
}

fn invalid_field(text: &str) -> (String, String) {
    match run_error(text) {
        ScenarioError::Invalid { field, why } => (field, why.english()),
        other => panic!("expected an invalid field, got {other:?}\n{text}"),
    }
}

/// Two empty seats, then whatever `extra` adds (a JSON fragment starting with a comma, or "").
fn two_players(p1: &str, p2: &str, extra: &str) -> String {
    format!(r#"{{ "players": [ {{ {p1} }}, {{ {p2} }} ] {extra} }}"#)
}

// ----- the example files ---------------------------------------------------------------------

#[test]
fn rise_of_empire_political_victory() {
    let s = run("rise-of-empire-political-victory.json");
    assert!(s.over);
    assert_eq!(s.winners(), vec![Seat(0)]);
    assert_eq!(s.players.0[0].sheets[0].used(), 5);
    assert_eq!(s.players.0[0].trade, 0, "3 for the card, 2 for the upgrade");
    let herald = starrealms::cards()
        .find("royal_herald__s1_empire_r2")
        .unwrap();
    assert_eq!(s.players.0[0].discard, vec![herald]);
}

#[test]
fn every_example_file_is_listed_described_and_runs() {
    let mut found = BTreeSet::new();
    for entry in std::fs::read_dir(scenario_dir()).expect("the scenarios folder") {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            found.insert(path.file_name().unwrap().to_string_lossy().into_owned());
        }
    }
    let listed: BTreeSet<String> = EXAMPLES.iter().map(|s| s.to_string()).collect();
    assert_eq!(found, listed, "each example file needs its own test here");
    for name in EXAMPLES {
        let scenario = load(name);
        assert!(
            scenario.setup.players.len() >= 2 && scenario.description.len() > 40,
            "{name}: give it a real description"
        );
        assert!(!scenario.actions.is_empty(), "{name}: no actions");
        run(name);
    }
}

#[test]
fn every_position_of_every_example_saves_and_loads_back() {
    for name in EXAMPLES {
        let scenario = load(name);
        let mut state = scenario.setup.build().unwrap();
        let steps = std::iter::once(None).chain(scenario.actions.iter().map(Some));
        for (step, text) in steps.enumerate() {
            if let Some(text) = text {
                state.act(text);
            }
            let setup = Setup::from_state(&state);
            assert_eq!(setup.build().unwrap(), state, "{name} after {step:?}");
            let json = serde_json::to_string_pretty(&setup).unwrap();
            let back: Setup = serde_json::from_str(&json).unwrap();
            assert_eq!(
                back.build().unwrap(),
                state,
                "{name} after {step:?}: through JSON"
            );
        }
    }
}

#[test]
fn lethal_through_outpost() {
    let s = run("lethal-through-outpost.json");
    assert!(s.over);
    assert_eq!(s.winners(), vec![Seat(0)]);
    let (me, foe) = (&s.players.0[0], &s.players.0[1]);
    assert_eq!(foe.authority, 0);
    assert!(!foe.alive);
    assert!(foe.bases.is_empty());
    assert_eq!(foe.discard, ids(&["Royal Redoubt", "War World"]));
    assert_eq!(me.combat, 1);
    assert_eq!(
        me.hand,
        ids(&["Scout", "Scout", "Scout"]),
        "Blob Fighter drew a Scout"
    );
    assert_eq!(top_first(&me.deck), ids(&["Scout", "Viper"]));
    assert_eq!(played(&s, 0, Faction::Blob), 3);
    assert!(s.legal_actions().is_empty());

    // The tempting line (the free destruction on War World) leaves p2 one authority.
    let mut wrong = load("lethal-through-outpost.json");
    wrong.actions[4] = "destroy p2 base 1".into();
    wrong.actions[8] = "attack p2 base 0".into();
    match wrong.run() {
        Err(ScenarioError::Action {
            step: 10,
            text,
            error: ActionError::Illegal { hint, .. },
        }) => {
            assert_eq!(text, "attack p2 11");
            assert_eq!(hint, ": 11 combat asked of p2, combat pool is 10");
        }
        other => panic!("{other:?}"),
    }

    // Nothing can be played once the game is over.
    let mut beyond = load("lethal-through-outpost.json");
    beyond.actions.push("end".into());
    match beyond.run() {
        Err(ScenarioError::Action {
            step: 11,
            error: ActionError::GameOver { .. },
            ..
        }) => {}
        other => panic!("{other:?}"),
    }
}

#[test]
fn stealth_needle_copies_blob_carrier() {
    let name = "stealth-needle-copies-blob-carrier.json";
    // The free acquisition offers ships only: The Hive (slot 1) and War World (slot 4) are bases.
    let s = after(name, 4);
    assert_eq!(s.pending, Some(Pending::AcquireFree));
    assert_eq!(
        s.legal_texts(),
        [
            "acquire row 0",
            "acquire row 2",
            "acquire row 3",
            "acquire explorer"
        ]
    );

    let s = run(name);
    let (me, foe) = (&s.players.0[0], &s.players.0[1]);
    assert_eq!(foe.authority, 36, "7 + 7 combat");
    assert_eq!(me.combat, 0);
    assert_eq!(
        top_first(&me.deck),
        ids(&["Mothership", "Battle Blob", "Viper", "Scout"])
    );
    assert_eq!(me.deck_known, 2);
    assert!(me.discard.is_empty());
    assert_eq!(me.ships[1].card, card("Stealth Needle"));
    assert_eq!(me.ships[1].copy, Some(card("Blob Carrier")));
    assert!(me.ships.iter().all(|s| s.ally_used));
    assert_eq!(played(&s, 0, Faction::Blob), 2);
    assert_eq!(played(&s, 0, Faction::MachineCult), 1);
    assert_eq!(
        s.row.to_vec(),
        ids(&["Corvette", "The Hive", "Cutter", "Ram", "War World"])
            .into_iter()
            .map(Some)
            .collect::<Vec<_>>()
    );
    assert!(s.trade_deck.is_empty());
    // Everybody sees the two ships on top of p1's deck.
    let view = serde_json::to_value(s.observation(Seat(1))).unwrap();
    // An observation lists the known top of a deck top first, as a scenario writes a deck.
    assert_eq!(
        view["players"][0]["deck_known_top"],
        serde_json::json!(["mothership", "battle_blob"])
    );
    let state = serde_json::to_value(starrealms::scenario::Setup::from_state(&s)).unwrap();
    assert_eq!(state["players"][0]["deck"][0], "mothership");
}

#[test]
fn brain_world_thinning() {
    let s = run("brain-world-thinning.json");
    let me = &s.players.0[0];
    assert_eq!(
        sorted(&me.hand),
        sorted(&ids(&["Scout", "Scout", "Cutter", "Battle Blob", "Ram"]))
    );
    assert_eq!(me.discard, ids(&["Scout", "Scout"]));
    assert_eq!(top_first(&me.deck), ids(&["Scout"]));
    assert_eq!(s.scrap_heap, ids(&["Viper", "Viper"]));
    assert!(me.bases[0].primary_used);
    assert_eq!(s.pending, None);

    // Stopping after one card draws one.
    let mut one = load("brain-world-thinning.json");
    one.actions[2] = "pass".into();
    let s = one.run().unwrap();
    let me = &s.players.0[0];
    assert_eq!(
        sorted(&me.hand),
        sorted(&ids(&["Scout", "Scout", "Cutter", "Battle Blob"]))
    );
    assert_eq!(top_first(&me.deck), ids(&["Ram", "Scout"]));
    assert_eq!(s.scrap_heap, ids(&["Viper"]));
}

#[test]
fn french_names() {
    let s = run("french-names.json");
    let (me, foe) = (&s.players.0[0], &s.players.0[1]);
    assert_eq!(me.authority, 58);
    assert_eq!(foe.authority, 46);
    assert_eq!((me.trade, me.combat), (0, 0));
    assert_eq!(me.discard, ids(&["Stealth Needle", "Explorer"]));
    assert_eq!(s.explorers, 9);
    assert_eq!(
        s.row.to_vec(),
        ids(&[
            "Dreadnaught",
            "Imperial Frigate",
            "Ram",
            "Blob World",
            "Junkyard"
        ])
        .into_iter()
        .map(Some)
        .collect::<Vec<_>>()
    );
    assert_eq!(s.trade_deck, ids(&["Trade Bot"]));

    // The same position written in English, or with ids, is the same position.
    let english = r#"{
        "players": [
            { "hand": ["Cutter", "Federation Shuttle", "Scout"],
              "deck": ["Viper", "Scout", "Scout"], "bases": ["Trading Post"] },
            { "hand": ["Scout", "Scout", "Scout", "Viper", "Viper"] }
        ],
        "row": ["Dreadnaught", "Imperial Frigate", "Stealth Needle", "Blob World", "Junkyard"],
        "trade_deck": ["ram", "trade_bot"]
    }"#;
    let french = load("french-names.json");
    assert_eq!(Scenario::from_json(english).unwrap().setup, french.setup);
}

#[test]
fn card_names_ignore_case_accents_and_punctuation() {
    for name in [
        "Éclaireur",
        "eclaireur",
        "ÉCLAIREUR",
        "Scout",
        "scout",
        " s-c-o-u-t ",
    ] {
        assert_eq!(card(name), card("scout"), "{name}");
    }
    assert_eq!(card("Port d'Attache"), card("port_of_call"));
    assert_eq!(card("port dattache"), card("Port of Call"));
    assert_eq!(card("Mécha-Artilleur"), card("missile mech"));
    assert_eq!(card("QG de la Flotte"), card("fleet_hq"));
}

#[test]
fn pending_discard() {
    let name = "pending-discard.json";
    let s = after(name, 0);
    assert_eq!(s.to_move(), Some(Seat(1)), "p2 answers the discard");
    assert_eq!(
        s.legal_texts(),
        ["discard scout", "discard viper", "discard battle_blob"]
    );
    assert_eq!(played(&s, 0, Faction::StarEmpire), 1, "counted from ships");

    let s = after(name, 2);
    assert_eq!(
        s.pending,
        Some(Pending::Discard {
            seat: Seat(1),
            left: 1
        })
    );

    let s = run(name);
    let (me, foe) = (&s.players.0[0], &s.players.0[1]);
    assert_eq!(s.to_move(), Some(Seat(0)));
    assert_eq!(foe.authority, 40);
    assert_eq!(
        sorted(&foe.hand),
        sorted(&ids(&["Scout", "Scout", "Battle Blob"]))
    );
    assert_eq!(foe.discard, ids(&["Viper", "Scout"]));
    assert_eq!((me.trade, me.combat), (2, 0));
    assert!(me.hand.is_empty());
}

#[test]
fn blob_world_counts_the_played_field() {
    let s = run("blob-world-played-this-turn.json");
    let me = &s.players.0[0];
    assert_eq!(
        sorted(&me.hand),
        sorted(&ids(&["Scout", "Ram", "Scout", "Viper"]))
    );
    assert_eq!(top_first(&me.deck), ids(&["Battle Pod"]));
    assert!(me.bases[1].primary_used);
    assert!(!me.bases[0].primary_used);
    assert_eq!((me.trade, me.combat), (3, 3));

    // Without `played`, the listed ships alone are counted: two Blob cards, two cards drawn.
    let mut guess = load("blob-world-played-this-turn.json");
    guess.setup.players[0].played = None;
    let s = guess.run().unwrap();
    assert_eq!(played(&s, 0, Faction::Blob), 2);
    let me = &s.players.0[0];
    assert_eq!(sorted(&me.hand), sorted(&ids(&["Scout", "Ram", "Scout"])));
    assert_eq!(top_first(&me.deck), ids(&["Viper", "Battle Pod"]));
}

#[test]
fn blob_destroyer_mid_ally() {
    let name = "blob-destroyer-mid-ally.json";
    let s = after(name, 0);
    assert_eq!(s.to_move(), Some(Seat(0)));
    assert_eq!(
        s.legal_texts(),
        ["destroy p2 base 0", "pass"],
        "the outpost shields the Blob Wheel"
    );
    // The frame resumes the ability: the optional trade-row scrap comes next.
    let s = after(name, 1);
    assert_eq!(
        s.pending,
        Some(Pending::ScrapTradeRow {
            optional: true,
            left: 1,
            combat_for_cost: false,
        })
    );

    let s = run(name);
    let (me, foe) = (&s.players.0[0], &s.players.0[1]);
    assert_eq!(foe.authority, 46);
    assert!(foe.bases.is_empty());
    assert_eq!(foe.discard, ids(&["War World", "Blob Wheel"]));
    assert_eq!(s.scrap_heap, ids(&["Mothership"]));
    assert_eq!(s.row[0], Some(card("Battle Blob")));
    assert!(s.trade_deck.is_empty());
    assert_eq!(me.combat, 0);
    assert_eq!(s.pending, None);
    assert!(s.frames.is_empty());
}

#[test]
fn free_for_all_target() {
    let name = "free-for-all-target.json";
    let s = after(name, 1);
    assert_eq!(s.pending, Some(Pending::DiscardTarget));
    assert_eq!(s.legal_texts(), ["target p2", "target p3"]);
    let s = after(name, 2);
    assert_eq!(s.to_move(), Some(Seat(2)));

    let s = run(name);
    let p = &s.players.0;
    assert_eq!(p[2].authority, 48);
    assert_eq!(p[2].hand, ids(&["Scout"]));
    assert_eq!(p[2].discard, ids(&["Battle Blob"]));
    assert_eq!(p[1].hand, ids(&["Scout", "Viper"]));
    assert_eq!(p[1].authority, 50);
    assert_eq!(s.explorers, 15);
}

#[test]
fn app_discard_timing() {
    let name = "app-discard-timing.json";
    let s = after(name, 1);
    assert_eq!(s.pending, None, "no discard now");
    assert_eq!(s.players.0[1].pending_discards, 1);
    assert_eq!(s.players.0[1].hand.len(), 5);

    let s = after(name, 3);
    assert_eq!(s.current, Seat(1));
    assert_eq!(
        s.pending,
        Some(Pending::Discard {
            seat: Seat(1),
            left: 1
        })
    );

    let s = run(name);
    let (p1, p2) = (&s.players.0[0], &s.players.0[1]);
    assert_eq!((s.current, s.turn), (Seat(1), 2));
    assert_eq!(s.pending, None);
    assert_eq!(p2.pending_discards, 0);
    assert_eq!(p2.authority, 48);
    assert_eq!(
        sorted(&p2.hand),
        sorted(&ids(&["Scout", "Scout", "Scout", "Viper"]))
    );
    assert_eq!(p2.discard, ids(&["Viper"]));
    assert_eq!(
        sorted(&p1.hand),
        sorted(&ids(&["Scout", "Scout", "Scout", "Viper", "Viper"]))
    );
    assert_eq!(top_first(&p1.deck), ids(&["Ram"]));
    assert_eq!(p1.discard, ids(&["Imperial Fighter"]));
}

// ----- defaults and conventions --------------------------------------------------------------

#[test]
fn defaults() {
    let s = Scenario::from_json(r#"{ "players": [{}, {}] }"#)
        .unwrap()
        .run()
        .unwrap();
    assert_eq!((s.current, s.first, s.turn), (Seat(0), Seat(0), 1));
    assert_eq!(s.explorers, 10);
    assert_eq!(s.row, [None; 5]);
    assert!(s.trade_deck.is_empty() && s.scrap_heap.is_empty());
    assert!(!s.over && s.pending.is_none() && s.frames.is_empty());
    for (i, p) in s.players.0.iter().enumerate() {
        assert_eq!(p.authority, 50);
        assert!(p.alive);
        assert_eq!(p.team, i as u8);
        assert_eq!((p.trade, p.combat), (0, 0));
        assert_eq!(p.played, [0; 7]);
    }
    assert_eq!(s.legal_texts(), ["end"]);
}

#[test]
fn piles_are_written_top_first_and_bottom_first() {
    let text = two_players(
        r#""deck": ["Ram", "Viper", "Scout"], "discard": ["Cutter", "Blob Fighter"]"#,
        "",
        "",
    );
    let s = Scenario::from_json(&text).unwrap().setup.build().unwrap();
    let p = &s.players.0[0];
    assert_eq!(p.deck.last(), Some(&card("Ram")), "deck: top first");
    assert_eq!(
        p.discard.last(),
        Some(&card("Blob Fighter")),
        "discard: top last"
    );
    let trade = two_players(
        "",
        "",
        r#", "trade_deck": ["Ram", "Cutter"], "row": ["Trade Pod"]"#,
    );
    let mut s = Scenario::from_json(&trade).unwrap().setup.build().unwrap();
    assert_eq!(s.row, [Some(card("Trade Pod")), None, None, None, None]);
    s.players.0[0].trade = 2;
    s.act("buy row 0");
    assert_eq!(s.row[0], Some(card("Ram")), "the trade deck is top first");
}

#[test]
fn ships_in_play_have_fired_and_bases_have_not() {
    let text = two_players(
        r#""ships": ["Cutter", "Federation Shuttle"], "bases": ["Barter World"]"#,
        "",
        "",
    );
    let s = Scenario::from_json(&text).unwrap().setup.build().unwrap();
    let me = &s.players.0[0];
    assert_eq!(
        (me.trade, me.combat, me.authority),
        (0, 0, 50),
        "pools as written"
    );
    assert!(me.ships.iter().all(|s| s.primary_used && !s.ally_used));
    assert!(!me.bases[0].primary_used);
    assert_eq!(played(&s, 0, Faction::TradeFederation), 2);
    assert_eq!(
        s.legal_texts(),
        [
            "primary base 0",
            "ally ship 0",
            "ally ship 1",
            "scrap base 0",
            "end"
        ]
    );
}

#[test]
fn in_play_objects() {
    let text = two_players(
        r#""ships": [
            "Blob Carrier",
            { "card": "Stealth Needle", "copy": "Blob Carrier", "primary_used": true, "ally_used": true }
        ],
        "bases": [{ "card": "The Hive", "primary_used": true }]"#,
        r#""bases": [{ "card": "Blob Wheel", "damage": 3 }]"#,
        "",
    );
    let scenario = Scenario::from_json(&text).unwrap();
    assert!(matches!(
        scenario.setup.players[0].ships[1],
        InPlaySpec::Full(InPlay { copy: Some(_), .. })
    ));
    let s = scenario.setup.build().unwrap();
    assert_eq!(played(&s, 0, Faction::Blob), 2, "the copy adds its faction");
    assert_eq!(played(&s, 0, Faction::MachineCult), 1);
    assert_eq!(s.players.0[1].bases[0].damage, 3);
    let legal = s.legal_texts();
    assert!(legal.contains(&"ally ship 0".to_string()));
    assert!(!legal.contains(&"ally ship 1".to_string()), "already used");
    assert!(
        !legal.contains(&"primary base 0".to_string()),
        "already used"
    );
    assert!(legal.contains(&"ally base 0".to_string()));
}

#[test]
fn trade_deck_rest_holds_every_trade_card_not_placed() {
    let text = two_players(
        r#""hand": ["Cutter"], "bases": ["Blob World"]"#,
        r#""discard": ["Cutter"]"#,
        r#", "row": ["Cutter", "Mothership"], "scrap_heap": ["Trade Pod"],
           "trade_deck": "rest", "seed": 3"#,
    );
    let setup = Scenario::from_json(&text).unwrap().setup;
    let s = setup.build().unwrap();
    assert_eq!(s.trade_deck.len(), 80 - 6);
    let count = |c: &str| s.trade_deck.iter().filter(|&&x| x == card(c)).count();
    assert_eq!(count("Cutter"), 0, "3 copies, all placed");
    assert_eq!(count("Mothership"), 0);
    assert_eq!(count("Blob World"), 0);
    assert_eq!(count("Trade Pod"), 2);
    assert_eq!(count("Scout"), 0, "only trade cards");
    assert_eq!(setup.build().unwrap(), s, "the seed fixes the order");
    let mut other = setup.clone();
    other.seed = 4;
    assert_ne!(other.build().unwrap().trade_deck, s.trade_deck);
}

#[test]
fn config_fields() {
    let text = r#"{
        "config": { "seats": 4, "format": "free_for_all", "discard_timing": "next_turn",
                    "authority": 40, "explorers": 20, "turn_limit": 30 },
        "players": [{}, {"team": 0}, {"alive": false, "authority": 0}, {}],
        "current": "p2", "first": "p4", "turn": 7
    }"#;
    let s = Scenario::from_json(text).unwrap().setup.build().unwrap();
    assert_eq!(s.config.seats, 4);
    assert_eq!(s.config.turn_limit, 30);
    assert_eq!((s.current, s.first, s.turn), (Seat(1), Seat(3), 7));
    assert_eq!(s.players.0[1].team, 0);
    // A player's authority defaults to the format's starting authority: `config.authority`.
    assert_eq!(s.players.0[0].authority, 40);
    assert_eq!(s.explorers, 10, "the pile is the top-level `explorers`");
    assert!(!s.may_target_player(Seat(1), Seat(0)), "same team");
    assert!(!s.may_target_player(Seat(1), Seat(2)), "out of the game");
    assert!(s.may_target_player(Seat(1), Seat(3)));
}

// ----- errors --------------------------------------------------------------------------------

#[test]
fn malformed_json_gives_line_and_column() {
    let text = "{\n  \"players\": [\n    { \"hand\": [\"Scout\"] }\n    { \"hand\": [\"Viper\"] }\n  ]\n}\n";
    let (line, column, message) = load_error(text);
    assert_eq!((line, column), (4, 5));
    assert_eq!(message, "expected `,` or `]`");
    assert_eq!(
        Scenario::from_json(text).unwrap_err().to_string(),
        "line 4, column 5: expected `,` or `]`"
    );

    let (line, column, _) = load_error("{ \"players\": [{}, {}], }");
    assert_eq!((line, column), (1, 24), "trailing comma");
    let (line, column, _) = load_error("");
    assert_eq!((line, column), (1, 0), "empty file");
}

#[test]
fn unknown_card_names_it() {
    let cases = [
        two_players(r#""hand": ["Scoot"]"#, "", ""),
        two_players(r#""deck": ["Scout", "Scoot"]"#, "", ""),
        two_players("", r#""discard": ["Scoot"]"#, ""),
        two_players(r#""hand_known": ["Scoot"]"#, "", ""),
        two_players("", "", r#", "row": ["Cutter", "Scoot"]"#),
        two_players("", "", r#", "scrap_heap": ["Scoot"]"#),
    ];
    for text in cases {
        let (_, _, message) = load_error(&text);
        assert!(message.starts_with("unknown card `Scoot`"), "{message}");
    }
    // In an action, the card is named too.
    match run_error(&two_players(
        r#""hand": ["Scout"]"#,
        "",
        r#", "actions": ["play Scoot"]"#,
    )) {
        ScenarioError::Action {
            step: 1,
            error: ActionError::Parse { reason, .. },
            ..
        } => assert_eq!(reason, "unknown card `Scoot`"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn documented_error_messages() {
    let file = "{\n  \"players\": [\n    { \"hand\": [\"Scoot\"] },\n    {}\n  ]\n}\n";
    let shown = |text: &str| Scenario::from_json(text).unwrap_err().to_string();
    assert_eq!(shown(file), "line 3, column 23: unknown card `Scoot`");
    assert_eq!(
        shown(&file.replace("hand", "hnad")),
        "line 3, column 12: unknown field `hnad`, expected one of `authority`, `alive`, `team`, \
         `hand`, `deck`, `deck_known`, `hand_known`, `discard`, `ships`, `bases`, `trade`, \
         `combat`, `pending_discards`, `next_ship_top`, `played`, `scrapped`, `scrapped_all`, \
         `next_base_top`, `returning`, `redirects`, `done`, `sheets`"
    );
    let (_, _, message) = load_error(&two_players(r#""ships": ["Scoot"]"#, "", ""));
    assert_eq!(message, "unknown card `Scoot`");
    let (_, _, message) = load_error(&two_players(r#""bases": [{ "card": "Scoot" }]"#, "", ""));
    assert_eq!(message, "unknown card `Scoot`");
    let (_, _, message) = load_error(&two_players("", "", r#", "trade_deck": ["Scoot"]"#));
    assert_eq!(message, "unknown card `Scoot`");
    let docs = docs();
    for line in [
        "line 4, column 5: expected `,` or `]`",
        "line 3, column 23: unknown card `Scoot`",
        "`players`: 1 player given for 2 seats",
        "`players[1].ships[1]`: blob_wheel is a base",
        "`players[0].bases[1]`: cutter is a ship",
        "`current`: p3 is not a seat of this game",
        "`players[1].deck_known`: more known cards than cards in the deck",
        "`players[0].hand_known[1]`: ram is not in hand",
        "`row[2]`: scout is not a trade card",
        "`pending`: the pending decision has no possible answer",
        "action 2 (`play cutter`): `play cutter` is not legal now: no cutter in hand",
        "action 2 (`attack p2 3`): `attack p2 3` is not legal now: 3 combat asked of p2, combat pool is 1",
        "action 1 (`play Scoot`): cannot read action `play Scoot`: unknown card `Scoot`",
        "action 2 (`buy row 7`): cannot read action `buy row 7`: `7` is not a valid row slot (0 to 4)",
    ] {
        assert!(docs.contains(line), "the docs show `{line}`");
    }
    let action = |hand: &str, actions: &str| {
        run_error(&two_players(
            hand,
            "",
            &format!(r#", "actions": {actions}"#),
        ))
        .to_string()
    };
    assert_eq!(
        action(r#""hand": ["Scout"]"#, r#"["play Scoot"]"#),
        "action 1 (`play Scoot`): cannot read action `play Scoot`: unknown card `Scoot`"
    );
    assert_eq!(
        action(r#""hand": ["Scout"]"#, r#"["play scout", "buy row 7"]"#),
        "action 2 (`buy row 7`): cannot read action `buy row 7`: `7` is not a valid row slot (0 to 4)"
    );
}

#[test]
fn unknown_fields_are_rejected() {
    let cases = [
        (
            two_players("", "", r#", "colour": "red""#),
            "unknown field `colour`",
        ),
        (
            two_players(r#""hnad": ["Scout"]"#, "", ""),
            "unknown field `hnad`, expected one of `authority`",
        ),
        (
            two_players("", "", r#", "config": { "player": 2 }"#),
            "unknown field `player`, expected one of `seats`",
        ),
        (
            two_players(
                r#""hand": ["Scout"]"#,
                "",
                r#", "pending": { "decision": "scrap_trade_row", "optional": true, "upto": 1 }"#,
            ),
            "unknown field `upto`, expected one of `optional`, `left`, `combat_for_cost`",
        ),
        (
            two_players(
                "",
                "",
                r#", "frames": [{ "source": { "card": "ram", "ability": "ally" }, "nxt": 0 }]"#,
            ),
            "unknown field `nxt`",
        ),
    ];
    for (text, start) in cases {
        let (_, _, message) = load_error(&text);
        assert!(message.starts_with(start), "{message}");
    }
    // Misspelt values are rejected too.
    let (_, _, message) = load_error(&two_players(r#""played": { "blobs": 1 }"#, "", ""));
    assert!(
        message.starts_with(
            "unknown variant `blobs`, expected one of `blob`, `trade_federation`, `star_empire`, \
             `machine_cult`"
        ),
        "{message}"
    );
    let (_, _, message) = load_error(&two_players("", "", r#", "current": "p7""#));
    assert!(
        message.starts_with("`p7` is not a seat (expected p1 … p6)"),
        "{message}"
    );
}

#[test]
fn invalid_fields_name_their_path() {
    // More in `impossible_positions_are_worded_by_the_translation_table`, with their keys.
    let cases: Vec<(String, &str, &str)> = vec![
        (
            r#"{ "config": { "seats": 3 }, "players": [{}, {}, {}] }"#.into(),
            "config",
            "the standard format takes 2 seats, not 3",
        ),
        (
            two_players(r#""bases": ["Trading Post", "Cutter"]"#, "", ""),
            "players[0].bases[1]",
            "cutter is a ship",
        ),
        (
            two_players("", "", r#", "first": "p6""#),
            "first",
            "p6 is not a seat of this game",
        ),
        (
            two_players("", r#""deck": ["Scout", "Viper"], "deck_known": 3"#, ""),
            "players[1].deck_known",
            "more known cards than cards in the deck",
        ),
        (
            two_players("", "", r#", "row": ["Cutter", null, "Scout"]"#),
            "row[2]",
            "scout is not a trade card",
        ),
        (
            two_players("", "", r#", "row": ["Explorer"]"#),
            "row[0]",
            "explorer is not a trade card",
        ),
        (
            two_players("", "", r#", "row": [null, null, null, null, null, "Ram"]"#),
            "row",
            "the trade row has 5 slots",
        ),
        (
            two_players("", "", r#", "trade_deck": ["Scout"]"#),
            "trade_deck[0]",
            "scout is not a trade card",
        ),
        (
            two_players(r#""ships": [{ "card": "Cutter", "copy": "Ram" }]"#, "", ""),
            "players[0].ships[0].copy",
            "cutter does not copy ships",
        ),
        (
            two_players(
                r#""ships": [{ "card": "Stealth Needle", "copy": "Blob Wheel" }]"#,
                "",
                "",
            ),
            "players[0].ships[0].copy",
            "blob_wheel cannot be copied",
        ),
        (
            two_players(r#""alive": false"#, "", ""),
            "current",
            "p1 is out of the game",
        ),
        (
            two_players(r#""authority": 0"#, "", ""),
            "players[0].authority",
            "a player in the game has positive authority",
        ),
        (
            two_players(
                r#""discard": ["Scout"]"#,
                "",
                r#", "pending": { "decision": "top_or_discard", "card": "Cutter" }"#,
            ),
            "pending",
            "cutter is not on top of the discard pile",
        ),
        (
            two_players(
                "",
                "",
                r#", "pending": { "decision": "copy_ship", "ship": 3 }"#,
            ),
            "pending",
            "ship 3 in play is not a ship that copies",
        ),
    ];
    let (_, _, message) = load_error(&two_players("", "", r#", "trade_deck": "all""#));
    assert_eq!(message, "expected a list of cards or \"rest\", not \"all\"");
    for (text, field, message) in cases {
        assert_eq!(
            invalid_field(&text),
            (field.to_string(), message.to_string()),
            "{text}"
        );
    }
    assert_eq!(
        run_error(r#"{ "players": [{}] }"#).to_string(),
        "`players`: 1 player given for 2 seats"
    );
}

#[test]
fn illegal_action_reports_its_step() {
    let text = two_players(
        r#""hand": ["Scout", "Viper"]"#,
        "",
        r#", "actions": ["play scout", "play cutter", "end"]"#,
    );
    let error = run_error(&text);
    assert_eq!(
        error,
        ScenarioError::Action {
            step: 2,
            text: "play cutter".into(),
            error: ActionError::Illegal {
                action: "play cutter".into(),
                hint: ": no cutter in hand".into(),
                reason: Some(Box::new(game::Reason {
                    key: "refusal.not_in_hand".into(),
                    args: vec![("card".into(), "cutter".into())],
                })),
            }
        }
    );
    assert_eq!(
        error.to_string(),
        "action 2 (`play cutter`): `play cutter` is not legal now: no cutter in hand"
    );

    let text = two_players(
        r#""hand": ["Scout", "Viper"]"#,
        "",
        r#", "actions": ["play viper", "attack p2 3"]"#,
    );
    assert_eq!(
        run_error(&text).to_string(),
        "action 2 (`attack p2 3`): `attack p2 3` is not legal now: 3 combat asked of p2, combat pool is 1"
    );

    let text = two_players(
        r#""hand": ["Scout"]"#,
        "",
        r#", "actions": ["play scout", "buy row 7"]"#,
    );
    match run_error(&text) {
        ScenarioError::Action {
            step: 2,
            error: ActionError::Parse { reason, .. },
            ..
        } => assert_eq!(reason, "`7` is not a valid row slot (0 to 4)"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn pending_decision_without_answer_is_rejected() {
    let no_answer = [
        // Nobody to discard: p2's hand is empty.
        two_players(
            "",
            "",
            r#", "pending": { "decision": "discard", "seat": "p2", "left": 1 }"#,
        ),
        // A forced scrap from an empty hand.
        two_players(
            r#""discard": ["Scout"]"#,
            "",
            r#", "pending": { "decision": "scrap", "from": "hand", "left": 1,
                 "optional": false, "draw_per_card": false, "done": 0 }"#,
        ),
        // Nothing to copy.
        two_players(
            r#""ships": ["Stealth Needle"]"#,
            "",
            r#", "pending": { "decision": "copy_ship", "ship": 0 }"#,
        ),
        // No ship to take: bases only in the row, no Explorer left.
        two_players(
            "",
            "",
            r#", "row": ["The Hive"], "explorers": 0, "pending": { "decision": "acquire_free" }"#,
        ),
        // A forced destruction with no base to destroy.
        two_players(
            "",
            "",
            r#", "pending": { "decision": "destroy_base", "optional": false }"#,
        ),
    ];
    // A "choose" that does not point at a choice is refused before that.
    let text = two_players(
        "",
        "",
        r#", "pending": { "decision": "choose", "source": { "card": "ram", "ability": "primary" }, "at": 0 }"#,
    );
    assert_eq!(
        invalid_field(&text),
        (
            "pending".to_string(),
            "there is no choice at position 0 of that ability".to_string()
        )
    );
    for text in no_answer {
        assert_eq!(
            invalid_field(&text),
            (
                "pending".to_string(),
                "the pending decision has no possible answer".to_string()
            ),
            "{text}"
        );
    }
    // The same decisions with an answer load.
    let fine = two_players(
        "",
        r#""hand": ["Viper"]"#,
        r#", "pending": { "decision": "discard", "seat": "p2", "left": 1 }"#,
    );
    let s = Scenario::from_json(&fine).unwrap().run().unwrap();
    assert_eq!(s.legal_texts(), ["discard viper"]);
}

#[test]
fn a_finished_game_needs_no_decision() {
    let text = two_players(
        "",
        r#""alive": false, "authority": -3"#,
        r#", "over": true"#,
    );
    let s = Scenario::from_json(&text).unwrap().run().unwrap();
    assert!(s.over);
    assert!(s.legal_actions().is_empty());
    assert_eq!(s.winners(), vec![Seat(0)]);
}

// ----- saving positions ----------------------------------------------------------------------

#[test]
fn a_position_mid_decision_saves_and_loads_back() {
    // A Recycling Station in the middle of "discard up to two, then draw": two frames deep.
    let text = two_players(
        r#""hand": ["Scout", "Viper", "Ram"], "deck": ["Cutter", "Corvette"],
           "bases": ["Recycling Station"]"#,
        "",
        r#", "actions": ["primary base 0", "choose 1", "discard viper"]"#,
    );
    let state = Scenario::from_json(&text).unwrap().run().unwrap();
    assert_eq!(
        state.pending,
        Some(Pending::DiscardThenDraw { left: 1, done: 1 })
    );
    assert_eq!(state.frames.len(), 2);
    let setup = Setup::from_state(&state);
    assert_eq!(setup.build().unwrap(), state);
    let json = serde_json::to_string(&setup).unwrap();
    let back: Setup = serde_json::from_str(&json).unwrap();
    assert_eq!(back.build().unwrap(), state);

    // Written by hand, without `rng`, the same position differs only in the RNG.
    let by_hand = r#"{
        "players": [
            { "hand": ["Scout", "Ram"], "deck": ["Cutter", "Corvette"], "discard": ["Viper"],
              "bases": [{ "card": "Recycling Station", "primary_used": true }] },
            {}
        ],
        "pending": { "decision": "discard_then_draw", "left": 1, "done": 1 },
        "frames": [
            { "source": { "card": "recycling_station", "ability": "primary" }, "next": 1 },
            { "source": { "card": "recycling_station", "ability": "primary", "option": [0, 1] },
              "next": 1 }
        ]
    }"#;
    let mut built = Scenario::from_json(by_hand).unwrap().setup.build().unwrap();
    built.rng = state.rng.clone();
    let mut hand = state.clone();
    hand.players.0[0].hand.sort();
    built.players.0[0].hand.sort();
    assert_eq!(built, hand);

    // Both go on the same way: pass, draw one.
    let mut a = state.clone();
    a.act("pass");
    assert_eq!(
        sorted(&a.players.0[0].hand),
        sorted(&ids(&["Scout", "Ram", "Cutter"]))
    );
    assert!(a.pending.is_none() && a.frames.is_empty());
}

#[test]
fn a_saved_position_becomes_a_scenario_file_without_rng() {
    // As the docs advise: drop `rng`, add a description and actions.
    let state = after("stealth-needle-copies-blob-carrier.json", 4);
    assert_eq!(state.pending, Some(Pending::AcquireFree));
    let mut setup = Setup::from_state(&state);
    setup.rng = None;
    setup.seed = 5;
    let file = Scenario {
        description: "Saved in the middle of Blob Carrier's ally ability.".into(),
        setup,
        actions: vec!["acquire row 3".into()],
        expect: None,
    };
    let text = serde_json::to_string_pretty(&file).unwrap();
    let read = Scenario::from_json(&text).unwrap();
    let mut built = read.setup.build().unwrap();
    assert_eq!(built.rng, game::rng_from_seed(5));
    built.rng = state.rng.clone();
    assert_eq!(built, state, "the same position, but for the RNG");
    let s = read.run().unwrap();
    assert_eq!(top_first(&s.players.0[0].deck)[0], card("Ram"));
}

#[test]
fn scenario_result_holds_state_actions_and_views() {
    /// What `realms scenario` prints, read back.
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Printed {
        state: Setup,
        legal_actions: Vec<String>,
        observations: Vec<serde_json::Value>,
    }
    let state = after("pending-discard.json", 0);
    let result = ScenarioResult::of(&state);
    assert!(matches!(result.state.trade_deck, TradeDeckSpec::Cards(_)));
    let text = serde_json::to_string_pretty(&result).unwrap();
    let printed: Printed = serde_json::from_str(&text).unwrap();
    assert_eq!(
        printed.legal_actions,
        ["discard scout", "discard viper", "discard battle_blob"]
    );
    assert_eq!(printed.observations.len(), 2);
    // Each seat sees its own hand only.
    assert_eq!(
        printed.observations[0]["players"][1]["hand"],
        serde_json::Value::Null
    );
    assert_eq!(printed.observations[1]["players"][1]["hand_count"], 5);
    assert_eq!(
        printed.state.pending,
        Some(Pending::Discard {
            seat: Seat(1),
            left: 1
        })
    );
    assert_eq!(printed.state.build().unwrap(), state);
}

// ----- the documentation ---------------------------------------------------------------------

fn docs() -> String {
    std::fs::read_to_string(root().join("docs/scenarios.md")).expect("docs/scenarios.md")
}

/// The ```json blocks of the documentation.
fn json_blocks(text: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        match (&mut current, line.trim_start()) {
            (None, l) if l.starts_with("```json") => current = Some(String::new()),
            (Some(_), l) if l.starts_with("```") => blocks.push(current.take().unwrap()),
            (Some(block), _) => {
                block.push_str(line);
                block.push('\n');
            }
            _ => {}
        }
    }
    assert!(current.is_none(), "unclosed code block");
    blocks
}

/// The inline `{"decision": …}` shapes of the documentation.
fn inline_decisions(text: &str) -> Vec<String> {
    text.split('`')
        .filter(|s| s.starts_with("{\"decision\"") || s.starts_with("{ \"decision\""))
        .map(str::to_string)
        .collect()
}

fn decision_name(p: &Pending) -> &'static str {
    match p {
        Pending::Choose { .. } => "choose",
        Pending::Scrap { .. } => "scrap",
        Pending::ScrapTradeRow { .. } => "scrap_trade_row",
        Pending::DestroyBase { .. } => "destroy_base",
        Pending::DiscardTarget => "discard_target",
        Pending::Discard { .. } => "discard",
        Pending::DiscardThenDraw { .. } => "discard_then_draw",
        Pending::CopyShip { .. } => "copy_ship",
        Pending::AcquireFree => "acquire_free",
        Pending::TopOrDiscard { .. } => "top_or_discard",
        Pending::Bequeath { .. } => "bequeath",
        Pending::AcquireUpTo { .. } => "acquire_up_to",
        Pending::ToHand { .. } => "to_hand",
        Pending::CopyBase { .. } => "copy_base",
        Pending::DiscardFor { .. } => "discard_for",
        Pending::DiscardReward { .. } => "discard_reward",
        Pending::PlayerDiscardTarget => "player_discard_target",
        Pending::BaseToTop => "base_to_top",
    }
}

const ALL_DECISIONS: [&str; 18] = [
    "player_discard_target",
    "base_to_top",
    "acquire_up_to",
    "to_hand",
    "copy_base",
    "discard_for",
    "discard_reward",
    "choose",
    "scrap",
    "scrap_trade_row",
    "destroy_base",
    "discard_target",
    "discard",
    "discard_then_draw",
    "copy_ship",
    "acquire_free",
    "top_or_discard",
    "bequeath",
];

#[test]
fn every_decision_shape_in_the_docs_deserializes() {
    let docs = docs();
    let mut seen = BTreeSet::new();
    for shape in inline_decisions(&docs) {
        let p: Pending = serde_json::from_str(&shape).unwrap_or_else(|e| panic!("{shape}: {e}"));
        // Written back, it is the same JSON.
        let again: serde_json::Value = serde_json::to_value(p).unwrap();
        let shown: serde_json::Value = serde_json::from_str(&shape).unwrap();
        assert_eq!(again, shown, "{shape}");
        seen.insert(decision_name(&p));
    }
    let all: BTreeSet<&str> = ALL_DECISIONS.into_iter().collect();
    assert_eq!(seen, all, "every decision kind is shown in the docs");
}

#[test]
fn every_json_example_in_the_docs_is_valid() {
    let docs = docs();
    let blocks = json_blocks(&docs);
    assert!(blocks.len() >= 5);
    let mut scenarios = 0;
    for block in blocks {
        let value: serde_json::Value =
            serde_json::from_str(&block).unwrap_or_else(|e| panic!("{e}\n{block}"));
        if value.get("players").is_some() || value.get("seed").is_some() {
            let scenario = Scenario::from_json(&block).unwrap_or_else(|e| panic!("{e}\n{block}"));
            let (_, mismatches) = scenario.check().unwrap_or_else(|e| panic!("{e}\n{block}"));
            assert_eq!(
                mismatches,
                [],
                "the docs' example meets its expectations\n{block}"
            );
            scenarios += 1;
        } else if value.get("decision").is_some() {
            serde_json::from_value::<Pending>(value).unwrap_or_else(|e| panic!("{e}\n{block}"));
        } else if value.is_array() {
            serde_json::from_value::<Vec<Frame>>(value).unwrap_or_else(|e| panic!("{e}\n{block}"));
        } else if value.get("card").is_some() {
            serde_json::from_value::<InPlay>(value).unwrap_or_else(|e| panic!("{e}\n{block}"));
        } else if value.get("seats").is_some() {
            serde_json::from_value::<starrealms::Config>(value)
                .unwrap_or_else(|e| panic!("{e}\n{block}"));
        } else {
            panic!("a JSON example of an unknown kind:\n{block}");
        }
    }
    assert!(scenarios >= 3);
}

#[test]
fn the_first_docs_example_ends_as_described() {
    let first = json_blocks(&docs()).remove(0);
    let s = Scenario::from_json(&first).unwrap().run().unwrap();
    let (me, foe) = (&s.players.0[0], &s.players.0[1]);
    assert_eq!((me.authority, me.trade, me.combat), (58, 2, 0));
    assert_eq!(me.discard, ids(&["Corvette"]));
    assert_eq!(foe.authority, 46);
}

#[test]
fn the_example_files_named_in_the_docs_exist() {
    let docs = docs();
    for name in EXAMPLES {
        assert!(
            docs.contains(name),
            "docs/scenarios.md does not present {name}"
        );
    }
}

// ----- expectations, dealt games, whole positions --------------------------------------------

#[test]
fn every_example_file_meets_its_expect_block() {
    for name in EXAMPLES {
        let scenario = load(name);
        let expect = scenario
            .expect
            .as_ref()
            .unwrap_or_else(|| panic!("{name} expects nothing"));
        let (state, mismatches) = scenario.check().unwrap();
        assert_eq!(mismatches, [], "{name}");
        // And the block is not empty words: an expectation changed is reported.
        let mut wrong = expect.clone();
        wrong.turn = Some(state.turn + 1);
        assert_eq!(wrong.check(&state).len(), 1, "{name}");
    }
}

#[test]
fn an_expectation_that_does_not_hold_names_its_field_and_both_values() {
    let text = two_players(
        r#""hand": ["Cutter", "Scout"]"#,
        "",
        r#", "actions": ["play cutter"], "expect": {
            "players": {"p1": {"trade": 3, "authority": 54, "hand": ["Scout"], "ships": ["Cutter"]},
                        "p2": {"authority": 49}},
            "to_move": "p1", "over": false, "pending": null,
            "legal": ["play scout", "buy row 0"], "illegal": ["play cutter", "end"],
            "explorers": 10, "row": [null, null, null, null, null]
        }"#,
    );
    let scenario = Scenario::from_json(&text).unwrap();
    let (_, mismatches) = scenario.check().unwrap();
    let shown: Vec<(String, String, String)> = mismatches
        .iter()
        .map(|m| (m.field.clone(), m.expected.to_string(), m.found.to_string()))
        .collect();
    assert_eq!(
        shown,
        [
            ("players.p1.trade".into(), "3".into(), "2".into()),
            ("players.p2.authority".into(), "49".into(), "50".into()),
            (
                "legal[1]".into(),
                "\"buy row 0 legal\"".into(),
                "\"buy row 0 illegal\"".into()
            ),
            (
                "illegal[1]".into(),
                "\"end illegal\"".into(),
                "\"end legal\"".into()
            ),
        ]
    );
    // A pending decision is compared on the keys given; `null` expects none.
    let text = two_players(
        r#""hand": ["Imperial Fighter"]"#,
        r#""hand": ["Scout", "Viper"]"#,
        r#", "actions": ["play imperial_fighter"], "expect": {"pending": {"decision": "discard", "seat": "p2"}, "to_move": "p2"}"#,
    );
    assert_eq!(Scenario::from_json(&text).unwrap().check().unwrap().1, []);
    let text = text.replace(r#""seat": "p2""#, r#""seat": "p1""#);
    let (_, m) = Scenario::from_json(&text).unwrap().check().unwrap();
    assert_eq!(m.len(), 1);
    assert_eq!(m[0].field, "pending");
    assert_eq!(m[0].found["seat"], "p2");
    // A misspelt expectation is refused like any unknown field.
    let bad = two_players("", "", r#", "expect": {"player": {}}"#);
    assert!(
        Scenario::from_json(&bad)
            .unwrap_err()
            .to_string()
            .contains("unknown field `player`")
    );
    let bad = two_players("", "", r#", "expect": {"legal": ["fly away"]}"#);
    let (_, m) = Scenario::from_json(&bad).unwrap().check().unwrap();
    assert!(
        m[0].found.as_str().unwrap().starts_with("not an action"),
        "{m:?}"
    );
}

#[test]
fn a_scenario_of_a_seed_alone_is_the_game_that_seed_deals() {
    for (config, seed) in [
        (r#"{}"#, 7u64),
        (r#"{"format": "free_for_all", "seats": 4}"#, 3),
        (r#"{"sets": ["rise_of_empire"]}"#, 11),
    ] {
        let text = format!(r#"{{"config": {config}, "seed": {seed}, "actions": ["play scout"]}}"#);
        let scenario = Scenario::from_json(&text).unwrap();
        let c: starrealms::Config = serde_json::from_str(config).unwrap();
        let mut dealt = State::new(&c, seed).unwrap();
        dealt.act("play scout");
        assert_eq!(scenario.run().unwrap(), dealt, "{text}");
    }
    // Part of a position without `players` is refused, naming it.
    let text = r#"{"seed": 7, "row": ["Cutter"]}"#;
    let err = Scenario::from_json(text)
        .unwrap()
        .run()
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("`row`: without `players`, a scenario is a new game dealt from `seed`"),
        "{err}"
    );
}

#[test]
fn impossible_positions_are_refused_naming_the_field() {
    // Three Blob Carriers where the set has one.
    let (field, message) = invalid_field(&two_players(
        r#""hand": ["Blob Carrier"], "discard": ["Blob Carrier"]"#,
        "",
        "",
    ));
    assert_eq!(field, "players[0].discard");
    assert_eq!(
        message,
        "2 copies of blob_carrier in the position; the card set has 1"
    );
    let (field, _) = invalid_field(&two_players(
        r#""hand": ["Cutter", "Cutter"]"#,
        "",
        r#", "row": ["Cutter", "Cutter"]"#,
    ));
    assert_eq!(field, "row");
}

/// A refused position's field, the keys of its reason (worded by the translation table, from
/// the outermost place to the fault) and its English text.
fn invalid_why(text: &str) -> (String, Vec<String>, String) {
    match run_error(text) {
        ScenarioError::Invalid { field, why } => {
            let keys = why.keys().into_iter().map(String::from).collect();
            (field, keys, why.english())
        }
        other => panic!("expected an invalid field with its reason, got {other:?}\n{text}"),
    }
}

#[test]
fn impossible_positions_are_worded_by_the_translation_table() {
    let hydra = r#"{"config": {"format": "hydra", "seats": 4},
        "players": [{"authority": 40}, {"authority": 45}, {"authority": 50}, {"authority": 50}]}"#;
    let frames = format!(
        r#", "frames": [{}]"#,
        [r#"{ "source": { "card": "ram", "ability": "ally" }, "next": 0 }"#; 7].join(", ")
    );
    let cases: Vec<(String, &str, &str, &str)> = vec![
        (
            r#"{ "players": [{}] }"#.into(),
            "players",
            "file.scenario.one_player",
            "1 player given for 2 seats",
        ),
        (
            r#"{ "config": { "seats": 3, "format": "free_for_all" }, "players": [{}, {}] }"#.into(),
            "players",
            "file.scenario.players",
            "2 players given for 3 seats",
        ),
        (
            two_players("", r#""ships": ["Scout", "Blob Wheel"]"#, ""),
            "players[1].ships[1]",
            "file.scenario.ship_is_base",
            "blob_wheel is a base",
        ),
        (
            two_players("", "", r#", "current": "p3""#),
            "current",
            "file.scenario.not_a_seat",
            "p3 is not a seat of this game",
        ),
        (
            two_players(
                r#""hand": ["Scout"], "hand_known": ["Scout", "Ram"]"#,
                "",
                "",
            ),
            "players[0].hand_known[1]",
            "file.scenario.not_in_hand",
            "ram is not in hand",
        ),
        (
            two_players(
                "",
                "",
                r#", "pending": { "decision": "discard", "seat": "p5", "left": 1 }"#,
            ),
            "pending",
            "file.scenario.pending_seat",
            "p5 is not a seat in the game",
        ),
        (
            two_players(
                "",
                r#""bases": [{"card": "Trading Post", "damage": 4}]"#,
                "",
            ),
            "players[1].bases[0].damage",
            "file.scenario.base_destroyed",
            "4 damage destroys trading_post (defense 4): it would not be in play",
        ),
        (
            two_players(r#""authority": 1000001"#, "", ""),
            "players[0].authority",
            "file.scenario.authority_most",
            "authority is from -1000000 to 1000000",
        ),
        (
            two_players("", r#""combat": 65535"#, ""),
            "players[1].combat",
            "file.scenario.pool_most",
            "a pool holds 10000 at most",
        ),
        (
            hydra.into(),
            "players[1].authority",
            "file.scenario.hydra_authority",
            "45, but its teammate p1 has 40: a Hydra team shares one authority",
        ),
        (
            two_players("", "", &frames),
            "frames",
            "file.scenario.frames",
            "at most 6 frames",
        ),
        (
            two_players(
                "",
                "",
                r#", "pending": { "decision": "destroy_base", "optional": false }"#,
            ),
            "pending",
            "file.scenario.no_answer",
            "the pending decision has no possible answer",
        ),
        (
            r#"{"seed": 7, "row": ["Cutter"]}"#.into(),
            "row",
            "file.scenario.deal",
            "without `players`, a scenario is a new game dealt from `seed`: give the whole \
             position (`players` …) or only `config` and `seed`",
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
    // A card is given by its id, which a translation shows by its name in the language.
    match run_error(&two_players(
        "",
        "",
        r#", "row": ["Cutter", null, "Scout"]"#,
    )) {
        ScenarioError::Invalid { why, .. } => assert_eq!(
            why,
            Why::new("file.scenario.not_trade", &[("card", &"scout")])
        ),
        other => panic!("{other:?}"),
    }
    // The configuration's checks are the table's too.
    match run_error(r#"{ "config": { "seats": 3 }, "players": [{}, {}, {}] }"#) {
        ScenarioError::Invalid { field, why } => {
            assert_eq!(field, "config");
            assert_eq!(
                why,
                Why::new(
                    "file.config.seats_one",
                    &[("format", &"standard"), ("seats", &2), ("n", &3)]
                )
            );
            assert_eq!(why.english(), "the standard format takes 2 seats, not 3");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_readers_own_words_are_the_english_of_the_translation_table() {
    let (_, _, message) = load_error(&two_players(r#""ships": ["Scoot"]"#, "", ""));
    assert_eq!(
        message,
        Why::new("file.unknown_card", &[("name", &"Scoot")]).english()
    );
    let (_, _, message) = load_error(&two_players("", "", r#", "trade_deck": "all""#));
    assert_eq!(
        message,
        Why::new("file.scenario.trade_deck_text", &[("text", &"all")]).english()
    );
}
