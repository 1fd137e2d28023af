//! The campaign rules on a two-scenario test campaign (`tests/fixtures/campaign_small.toml`)
//! over the embedded stand-in pack: sides, who opens, the scenario card's face and choice,
//! victory points, political victory on the current sheet only, upgrades that persist, the
//! trade deck that goes back together, replay of a whole campaign, and bad saves. Then the
//! embedded stand-in campaign itself: its twelve scenarios, their texts, the games each face and
//! option deals, and the post-campaign pack after a whole campaign.

use std::collections::BTreeSet;

use game::{GameRecord, Seat};
use starrealms::campaign::{
    Campaign, CampaignDef, CampaignError, CampaignSave, Completion, Condition, Face, RuleSpec, Who,
};
use starrealms::cards::{Effect, Faction, Sets};
use starrealms::config::Rule;
use starrealms::{Action, State, cards, rollout};

const SMALL: &str = include_str!("fixtures/campaign_small.toml");

fn def() -> CampaignDef {
    CampaignDef::parse("campaign_small.toml", SMALL).unwrap()
}

fn players() -> [String; 2] {
    ["random".into(), "random".into()]
}

const EMPIRE: Faction = Faction::StarEmpire;
const FEDERATION: Faction = Faction::TradeFederation;

/// Plays the campaign's next game to its end with random moves (buying upgrades whenever it
/// can, so that stickers get used), and records it in the campaign.
fn play_next(c: &mut Campaign, choice: u8, seed: u64) -> State {
    let record = c.begin(choice).unwrap().clone();
    let mut state: State = record.initial_state().unwrap();
    let mut rng = game::rng_from_seed(seed);
    let mut buf = Vec::new();
    let mut actions = Vec::new();
    while !state.over {
        let legal = state.legal_actions();
        let a = legal
            .iter()
            .copied()
            .find(|a| matches!(a, Action::BuyUpgrade(..)))
            .unwrap_or_else(|| rollout::random_action(&state, &mut buf, &mut rng));
        state.apply(a).unwrap();
        actions.push(a.to_string());
    }
    let mut done = record.clone();
    done.actions = actions;
    c.update(&done).unwrap();
    state
}

#[test]
fn sides_are_kept_or_drawn_when_both_want_the_same() {
    let c = Campaign::new(&def(), [FEDERATION, EMPIRE], players(), 1).unwrap();
    assert_eq!(c.save.sides, [FEDERATION, EMPIRE]);
    let mut seen = [0; 2];
    for seed in 0..40 {
        let c = Campaign::new(&def(), [EMPIRE, EMPIRE], players(), seed).unwrap();
        let sides = c.save.sides;
        assert_ne!(sides[0], sides[1]);
        seen[usize::from(sides[0] == EMPIRE)] += 1;
    }
    assert!(
        seen[0] > 5 && seen[1] > 5,
        "the draw goes both ways: {seen:?}"
    );
    let err = Campaign::new(&def(), [Faction::Blob, EMPIRE], players(), 1).unwrap_err();
    assert!(err.to_string().contains("`blob` is no side"), "{err}");
}

#[test]
fn the_empire_opens_then_the_victory_point_winner_and_the_face_follows_the_opener() {
    for seed in 0..12 {
        let mut c = Campaign::new(&def(), [FEDERATION, EMPIRE], players(), seed).unwrap();
        assert_eq!(
            c.next_first(),
            1,
            "the Star Empire's player opens scenario 1"
        );
        let record = c.next_record(0).unwrap();
        let state: State = record.initial_state().unwrap();
        assert_eq!(state.first, Seat(1));
        assert_eq!(
            state.players.0[0].authority, 55,
            "scenario 1: the second player +5"
        );
        let end = play_next(&mut c, 0, seed);
        let r = c.results[0];
        assert_eq!(r.winner, end.winners().first().map(|s| s.0));
        assert_eq!(r.card, r.winner, "scenario 1's card: any win");
        let next = c.next_first();
        match r.card {
            Some(w) => assert_eq!(next, w as usize),
            None => assert_eq!(next, 0, "nobody took the card: the other player opens"),
        }
        // Scenario 2's face is the opener's side's.
        let face = c.next_face().unwrap().clone();
        let opener_side = c.save.sides[next];
        if opener_side == EMPIRE {
            assert_eq!(face.choice.len(), 2);
            let a = c.next_record(0).unwrap();
            let b = c.next_record(1).unwrap();
            let rules = |r: &GameRecord| -> Vec<Rule> {
                serde_json::from_value(r.config["rules"].clone()).unwrap()
            };
            assert_eq!(
                rules(&a),
                vec![Rule::Bonus {
                    seat: Some(1),
                    card: starrealms::scenario::card("viper"),
                    effects: vec![starrealms::cards::Effect::Trade(1)],
                }]
            );
            assert_eq!(rules(&b), vec![Rule::Row { slots: 4 }]);
            assert!(
                c.next_record(2)
                    .unwrap_err()
                    .to_string()
                    .contains("no option 3")
            );
        } else {
            assert!(face.choice.is_empty());
            let s: State = c.next_record(0).unwrap().initial_state().unwrap();
            assert_eq!(
                s.players.0[next].bases.len(),
                1,
                "the opener's starting base"
            );
        }
    }
}

#[test]
fn upgrades_persist_and_political_victory_is_on_the_current_sheet_only() {
    let mut c = Campaign::new(&def(), [EMPIRE, FEDERATION], players(), 3).unwrap();
    let deck_before = c.trade_deck.clone();
    assert_eq!(deck_before.len(), 60);
    let end = play_next(&mut c, 0, 3);
    let set = cards();
    // The trade deck goes back together: 60 cards, each upgraded one in place of its card.
    assert_eq!(c.trade_deck.len(), 60);
    let printed: Vec<_> = {
        let mut v: Vec<_> = c.trade_deck.iter().map(|&x| set.printed(x)).collect();
        v.sort();
        v
    };
    assert_eq!(printed, deck_before);
    let upgraded = c
        .trade_deck
        .iter()
        .filter(|&&x| set.def(x).upgrade.is_some())
        .count() as u32;
    let used: u32 = end
        .players
        .0
        .iter()
        .flat_map(|p| &p.sheets)
        .map(|u| u.used())
        .sum();
    assert!(used > 0, "stickers were used");
    assert_eq!(
        upgraded, used,
        "each sticker made one upgraded card, now in the trade deck"
    );
    assert_eq!(c.upgrades[0] + c.upgrades[1], used);
    // Scenario 2: each player holds both sheets, their first with its stickers used, and only
    // the second is political.
    let next = c.next_record(0).unwrap();
    let state: State = next.initial_state().unwrap();
    for p in 0..2 {
        let sheets = &state.players.0[p].sheets;
        assert_eq!(sheets.len(), 2);
        assert_eq!(sheets[0], end.players.0[p].sheets[0].with_political(false));
        assert!(!sheets[0].political && sheets[1].political);
        assert_eq!(sheets[1].used(), 0);
    }
    assert_eq!(
        state.trade_deck.len() + state.row.iter().flatten().count(),
        60,
        "the campaign's trade deck, upgraded cards in it"
    );
}

#[test]
fn a_whole_campaign_replays_bit_for_bit_from_its_save() {
    let mut c = Campaign::new(&def(), [EMPIRE, FEDERATION], players(), 9).unwrap();
    play_next(&mut c, 0, 1);
    let choice = u8::from(c.next_face().unwrap().choice.len() > 1);
    play_next(&mut c, choice, 2);
    assert!(c.is_over());
    let json = serde_json::to_string(&c.save).unwrap();
    let save: CampaignSave = serde_json::from_str(&json).unwrap();
    let again = Campaign::replay(&def(), save).unwrap();
    assert_eq!(again, c);
    let points: u32 = c.points.iter().sum();
    assert!(points <= 3);
    if c.points[0] != c.points[1] {
        assert_eq!(c.winner(), Some(u8::from(c.points[1] > c.points[0])));
    }
    assert!(c.begin(0).unwrap_err().to_string().contains("over"));
    assert!(
        c.final_trade_deck().is_err(),
        "the players' last upgrades come first"
    );
}

#[test]
fn a_save_that_does_not_belong_is_refused_in_words() {
    let mut c = Campaign::new(&def(), [EMPIRE, FEDERATION], players(), 4).unwrap();
    play_next(&mut c, 0, 4);
    let mut wrong = c.save.clone();
    wrong.games[0].seed ^= 1;
    let e = Campaign::replay(&def(), wrong).unwrap_err().to_string();
    assert!(e.contains("does not belong to this campaign"), "{e}");
    // A last game cut short is a game in progress, to go on with.
    let mut short = c.save.clone();
    short.games[0].actions.truncate(3);
    let again = Campaign::replay(&def(), short).unwrap();
    assert!(again.in_progress().is_some() && again.results.is_empty());
    let mut wrong = c.save.clone();
    wrong.games[0].actions.push("end".into());
    let e = Campaign::replay(&def(), wrong).unwrap_err().to_string();
    assert!(e.contains("game 1 does not replay"), "{e}");
    let mut wrong = c.save.clone();
    wrong.campaign = "other".into();
    let e = Campaign::replay(&def(), wrong).unwrap_err().to_string();
    assert!(e.contains("campaign `other`"), "{e}");
    // A broken campaign file: the file, the line, the reason.
    let broken = SMALL.replacen("condition = \"win\"", "condition = \"lose\"", 1);
    let e = CampaignDef::parse("c.toml", &broken)
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("c.toml:") && e.contains("unknown variant `lose`"),
        "{e}"
    );
    let broken = SMALL.replacen("card = \"counting_house\"", "card = \"viper\"", 1);
    let e = CampaignDef::parse("c.toml", &broken)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("scenario 2") && e.contains("viper is not a base"),
        "{e}"
    );
    let broken = SMALL.replacen("s2_empire", "s2_federation", 1);
    let e = CampaignDef::parse("c.toml", &broken)
        .unwrap_err()
        .to_string();
    assert!(e.contains("not of the side star_empire"), "{e}");
}

/// The keys of the table an error of the campaign is worded with, outermost first.
fn keys(e: &CampaignError) -> Vec<&str> {
    e.0.keys()
}

#[test]
fn the_campaigns_refusals_are_keys_of_the_table_with_the_same_english() {
    let broken = SMALL.replacen("s2_empire", "s2_federation", 1);
    let e = CampaignDef::parse("c.toml", &broken).unwrap_err();
    assert_eq!(
        keys(&e),
        [
            "file.in_file",
            "file.campaign.in_scenario",
            "file.campaign.sheet_side"
        ]
    );
    assert_eq!(
        e.to_string(),
        "c.toml: scenario 2: sheet `s2_federation` is not of the side star_empire"
    );
    // A rule the game's configuration refuses.
    let broken = SMALL.replacen("card = \"counting_house\"", "card = \"viper\"", 1);
    let e = CampaignDef::parse("c.toml", &broken).unwrap_err();
    assert_eq!(
        keys(&e),
        [
            "file.in_file",
            "file.campaign.in_scenario",
            "file.config.rule_base"
        ]
    );
    assert_eq!(
        e.to_string(),
        "c.toml: scenario 2: rule `base`: viper is not a base"
    );
    // A reader's refusal is its own words, not the table's.
    let broken = SMALL.replacen("condition = \"win\"", "condition = \"lose\"", 1);
    assert_eq!(
        keys(&CampaignDef::parse("c.toml", &broken).unwrap_err()),
        ["file.text"]
    );
    // The campaign's play.
    let mut c = Campaign::new(&def(), [EMPIRE, FEDERATION], players(), 4).unwrap();
    let e = c.update(
        &c.save
            .games
            .first()
            .cloned()
            .unwrap_or_else(|| GameRecord::new::<State>(&Default::default(), 1)),
    );
    let e = e.unwrap_err();
    assert_eq!(keys(&e), ["file.campaign.none_in_progress"]);
    assert_eq!(e.to_string(), "no game of the campaign is in progress");
    c.begin(0).unwrap();
    let e = c.begin(0).unwrap_err();
    assert_eq!(keys(&e), ["file.campaign.in_progress"]);
    let mut wrong = c.save.clone();
    wrong.version += 1;
    let e = Campaign::replay(&def(), wrong).unwrap_err();
    assert_eq!(keys(&e), ["file.campaign.save_version"]);
    assert!(e.to_string().starts_with("campaign save version "), "{e}");
}

#[test]
fn after_the_last_scenario_each_player_uses_every_sticker_left_in_turn() {
    let mut c = Campaign::new(&def(), [EMPIRE, FEDERATION], players(), 5).unwrap();
    play_next(&mut c, 0, 5);
    play_next(&mut c, 0, 6);
    assert!(c.is_over());
    assert!(
        c.final_trade_deck().is_err(),
        "not before the last upgrades"
    );
    let set = cards();
    let mut turns = Vec::new();
    while let Some(p) = c.completion_turn() {
        // A wrong player, a used row, a card not in the deck: refused, nothing changed.
        let before = c.clone();
        let (card, sheet, row) = c.completion_options(p as usize)[0];
        let sheet_id = c.sheets[p as usize][sheet].sheet.clone();
        let wrong = Completion {
            player: 1 - p,
            card,
            sheet: sheet_id.clone(),
            row: row + 1,
        };
        assert!(c.complete(wrong).is_err());
        assert_eq!(c, before);
        c.complete(Completion {
            player: p,
            card,
            sheet: sheet_id,
            row: row + 1,
        })
        .unwrap();
        turns.push(p);
    }
    // Taking turns while both can; each used a sticker per free row that fitted a card.
    if let Some(both) = turns.windows(2).position(|w| w[0] == w[1]) {
        let rest = &turns[both..];
        assert!(
            rest.windows(2).all(|w| w[0] == w[1]),
            "then one alone: {turns:?}"
        );
    }
    for p in 0..2 {
        assert!(c.completion_options(p).is_empty());
    }
    let deck = c.final_trade_deck().unwrap();
    let upgraded = deck
        .iter()
        .filter(|&&x| set.def(x).upgrade.is_some())
        .count() as u32;
    assert_eq!(upgraded, c.upgrades[0] + c.upgrades[1]);
    // The save replays to the same state, completion included.
    let again = Campaign::replay(&def(), c.save.clone()).unwrap();
    assert_eq!(again, c);
}

// ---------------------------------------------------------------- the embedded stand-in campaign

fn builtin() -> &'static CampaignDef {
    CampaignDef::builtin()
}

/// Completes the stickers after the last scenario: each player, in turn, upgrades the first card
/// offered.
fn complete_all(c: &mut Campaign) {
    while let Some(p) = c.completion_turn() {
        let (card, sheet, row) = c.completion_options(p as usize)[0];
        let sheet = c.sheets[p as usize][sheet].sheet.clone();
        c.complete(Completion {
            player: p,
            card,
            sheet,
            row: row + 1,
        })
        .unwrap();
    }
}

#[test]
fn the_embedded_campaign_has_twelve_scenarios_with_sheets_and_politics_in_the_first_four() {
    let def = builtin();
    let set = cards();
    assert_eq!(def.id, "rise_of_empire");
    assert!(
        def.name.en.contains("realms stand-in campaign"),
        "{}",
        def.name.en
    );
    assert!(def.name.fr.contains("realms"), "{}", def.name.fr);
    assert_eq!(def.sets, ["rise_of_empire"]);
    assert_eq!(def.post_campaign, ["rise_of_empire_post"]);
    let count = |side: Faction, id: &str| {
        let c = set.find(id).unwrap();
        def.deck_of(side).iter().filter(|&&x| x == c).count()
    };
    for (side, own) in [
        (EMPIRE, ["imperial_fighter", "smuggler"]),
        (FEDERATION, ["federation_shuttle", "system_police"]),
    ] {
        assert_eq!(def.deck_of(side).len(), 11, "{side:?}");
        assert_eq!(count(side, "scout"), 8);
        assert_eq!(count(side, "viper"), 1);
        for id in own {
            assert_eq!(count(side, id), 1, "{side:?} {id}");
        }
    }
    assert_eq!(def.scenario.len(), 12);
    for (i, sc) in def.scenario.iter().enumerate() {
        let n = i as u8 + 1;
        assert_eq!(sc.number, n);
        let envelope = n <= 4;
        assert_eq!(
            sc.political, envelope,
            "scenario {n}: political on 1 to 4 only"
        );
        if envelope {
            assert_eq!(sc.sheets.len(), 2, "scenario {n}");
            for side in [EMPIRE, FEDERATION] {
                let id = &sc.sheets[&side];
                let sheet = &set.sheets[set.find_sheet(id).unwrap() as usize];
                assert_eq!(sheet.side, side, "scenario {n}: {id}");
                assert_eq!(sheet.scenario, Some(n), "scenario {n}: {id}");
            }
        } else {
            assert!(
                sc.sheets.is_empty(),
                "scenario {n}: no sheet after the fourth"
            );
        }
        assert_eq!(
            sc.face.keys().copied().collect::<Vec<_>>(),
            [FEDERATION, EMPIRE],
            "scenario {n}: a face per side"
        );
        assert!((1..=3).contains(&sc.victory_point.points), "scenario {n}");
        for t in [&sc.name, &sc.text, &sc.victory_point.name] {
            assert!(
                !t.en.trim().is_empty() && !t.fr.trim().is_empty(),
                "scenario {n}"
            );
            assert_ne!(t.en, t.fr, "scenario {n}: `{}` is not translated", t.en);
        }
        for face in sc.face.values() {
            assert!(
                face.choice.len() != 1 && face.choice.len() <= 3,
                "scenario {n}"
            );
            for o in &face.choice {
                assert!(!o.text.en.trim().is_empty() && !o.text.fr.trim().is_empty());
                assert_ne!(o.text.en, o.text.fr);
                assert!(
                    !o.rules.is_empty(),
                    "scenario {n}: an option changes something"
                );
            }
        }
    }
    // Variety: choices, faces that differ, every kind of condition.
    let choices = def
        .scenario
        .iter()
        .filter(|s| s.face.values().any(|f| !f.choice.is_empty()))
        .count();
    assert!(choices >= 4, "{choices} scenarios with a choice");
    let differ = def
        .scenario
        .iter()
        .filter(|s| s.face[&EMPIRE] != s.face[&FEDERATION])
        .count();
    assert!(differ >= 4, "{differ} scenarios whose faces differ");
    let kinds: BTreeSet<&str> = def
        .scenario
        .iter()
        .map(|s| match s.victory_point.condition {
            Condition::Win => "win",
            Condition::Political => "political",
            Condition::Authority(_) => "authority",
            Condition::ByTurn(_) => "by_turn",
            Condition::Upgrades(_) => "upgrades",
            Condition::Bases(_) => "bases",
        })
        .collect();
    assert_eq!(kinds.len(), 6, "{kinds:?}");
    // A political victory needs the current sheet: only scenarios 1 to 4 can ask for one.
    for sc in &def.scenario[4..] {
        assert_ne!(sc.victory_point.condition, Condition::Political);
    }
}

/// The words a scenario's text uses for a player, in English and in French.
fn who_words(who: Who) -> (&'static str, &'static str) {
    match who {
        Who::First => ("the first player", "le premier joueur"),
        Who::Second => ("the second player", "le second joueur"),
        Who::StarEmpire => (
            "the star empire's player",
            "le joueur de l'empire galactique",
        ),
        Who::TradeFederation => (
            "the trade federation's player",
            "le joueur de la fédération du commerce",
        ),
        Who::Both => ("each player", "chaque joueur"),
    }
}

/// What a text must say for a rule change (lower case): English and French fragments.
fn said(rule: &RuleSpec) -> Vec<(String, String)> {
    let set = cards();
    let name = |c| {
        let d = set.def(c);
        (d.name("en").to_lowercase(), d.name("fr").to_lowercase())
    };
    let cards_word = |n: u8| match n {
        1 => ("a card", "une carte"),
        2 => ("two cards", "deux cartes"),
        _ => panic!("{n} cards: no words for it"),
    };
    match rule {
        RuleSpec::Authority { who, add } => {
            let (en, fr) = who_words(*who);
            let (more, plus) = if *add > 0 {
                ("more", "plus")
            } else {
                ("less", "moins")
            };
            let n = add.abs();
            vec![(
                format!("{en} starts with {n} {more} authority"),
                format!("{fr} commence avec {n} points d'influence de {plus}"),
            )]
        }
        RuleSpec::Base { who, card } => {
            let (en, fr) = who_words(*who);
            let (name_en, name_fr) = name(*card);
            let (kind_en, kind_fr) = if set.info(*card).kind == starrealms::cards::Kind::Outpost {
                ("the outpost", "l'avant-poste")
            } else {
                ("the base", "la base")
            };
            vec![(
                format!("{en} starts with {kind_en} {name_en} in play"),
                format!("{fr} commence avec {kind_fr} {name_fr} en jeu"),
            )]
        }
        RuleSpec::Bonus { who, card, effects } => {
            let (en, fr) = match who {
                Who::Both => ("a player", "un joueur"),
                w => who_words(*w),
            };
            let (name_en, name_fr) = name(*card);
            let mut v = vec![
                (format!("{en} plays "), format!("{fr} joue ")),
                (name_en, name_fr),
            ];
            for e in effects {
                v.push(match e {
                    Effect::Trade(n) => (
                        format!("they also add {n} trade"),
                        format!("il gagne aussi {n} commerce"),
                    ),
                    Effect::Combat(n) => (
                        format!("they also add {n} combat"),
                        format!("il gagne aussi {n} combat"),
                    ),
                    Effect::Authority(n) => (
                        format!("they also gain {n} authority"),
                        format!("il gagne aussi {n} points d'influence"),
                    ),
                    Effect::Draw(n) => {
                        let (en, fr) = cards_word(*n);
                        (
                            format!("they also draw {en}"),
                            format!("il pioche aussi {fr}"),
                        )
                    }
                    other => panic!("a bonus of {other:?}"),
                });
            }
            v
        }
        RuleSpec::TurnStart { who, draw, discard } => {
            let (en, fr) = who_words(*who);
            let (d_en, d_fr) = cards_word(*draw);
            let (x_en, x_fr) = cards_word(*discard);
            vec![(
                format!("{en} draws {d_en}, then discards {x_en}"),
                format!("{fr} pioche {d_fr}, puis défausse {x_fr}"),
            )]
        }
        RuleSpec::Row { slots } => vec![(
            format!("the trade row holds only {slots} cards"),
            format!("la ligne d'achat ne compte que {slots} cartes"),
        )],
    }
}

/// Every "N more/less Authority" a text says, with its sign.
fn authority_said(text: &str) -> Vec<i32> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut v = Vec::new();
    for w in words.windows(3) {
        if let Ok(n) = w[0].parse::<i32>()
            && w[2].trim_end_matches(['.', ';', ',']) == "Authority"
        {
            match w[1] {
                "more" => v.push(n),
                "less" => v.push(-n),
                _ => {}
            }
        }
    }
    v
}

#[test]
fn each_scenario_text_says_every_rule_of_both_faces_and_the_victory_point_condition() {
    for sc in &builtin().scenario {
        let n = sc.number;
        let en = sc.text.en.to_lowercase();
        let fr = sc.text.fr.to_lowercase();
        let mut rules: Vec<&RuleSpec> = Vec::new();
        for face in sc.face.values() {
            rules.extend(&face.rules);
            for o in &face.choice {
                rules.extend(&o.rules);
                // Each option's own text says its rules too.
                let (oen, ofr) = (o.text.en.to_lowercase(), o.text.fr.to_lowercase());
                for r in &o.rules {
                    for (e, f) in said(r) {
                        assert!(
                            oen.contains(&e),
                            "scenario {n}: option `{}` lacks `{e}`",
                            o.text.en
                        );
                        assert!(
                            ofr.contains(&f),
                            "scenario {n}: option `{}` lacks `{f}`",
                            o.text.fr
                        );
                    }
                }
            }
        }
        for r in &rules {
            for (e, f) in said(r) {
                assert!(
                    en.contains(&e),
                    "scenario {n}: the text lacks `{e}`: {}",
                    sc.text.en
                );
                assert!(
                    fr.contains(&f),
                    "scenario {n}: the text lacks `{f}`: {}",
                    sc.text.fr
                );
            }
        }
        // And says no authority change that is not a rule.
        for a in authority_said(&sc.text.en) {
            assert!(
                rules
                    .iter()
                    .any(|r| matches!(r, RuleSpec::Authority { add, .. } if *add == a)),
                "scenario {n}: the text says {a} Authority, no rule does"
            );
        }
        // Faces that differ are told apart; a choice is announced.
        let (e, f) = (&sc.face[&EMPIRE], &sc.face[&FEDERATION]);
        if e != f {
            assert!(
                en.contains("if the star empire's player goes first"),
                "scenario {n}"
            );
            assert!(
                en.contains("if the trade federation's player goes first"),
                "scenario {n}"
            );
            assert!(fr.contains("si le joueur de l'empire galactique joue en premier"));
            assert!(fr.contains("si le joueur de la fédération du commerce joue en premier"));
        }
        let options = e.choice.len().max(f.choice.len());
        if options > 0 {
            assert!(en.contains("the first player chooses one"), "scenario {n}");
            assert!(fr.contains("le premier joueur choisit"), "scenario {n}");
            assert!(en.contains(&format!("({options})")), "scenario {n}");
        }
        // The victory-point card: its points and its condition.
        let vp = &sc.victory_point;
        let p = vp.points;
        let plural = if p > 1 { "s" } else { "" };
        assert!(
            en.contains(&format!("victory-point card ({p} point{plural})")),
            "scenario {n}"
        );
        assert!(
            fr.contains(&format!("carte point de victoire ({p} point{plural})")),
            "scenario {n}"
        );
        let (ce, cf) = match vp.condition {
            Condition::Win => (
                "the winner takes it.".to_string(),
                "le vainqueur la remporte.".to_string(),
            ),
            Condition::Political => (
                "if they won by a political victory".into(),
                "s'il a gagné par une victoire politique".into(),
            ),
            Condition::Authority(k) => (
                format!("if they have at least {k} authority left"),
                format!("s'il lui reste au moins {k} points d'influence"),
            ),
            Condition::ByTurn(k) => (
                format!("if the game ends by turn {k}"),
                format!("au plus tard au tour {k}"),
            ),
            Condition::Upgrades(k) => (
                format!("if they used at least {k} sticker"),
                format!("s'il a utilisé au moins {k} autocollant"),
            ),
            Condition::Bases(k) => (
                format!("if they have at least {k} bases in play"),
                format!("s'il a au moins {k} bases en jeu"),
            ),
        };
        assert!(en.contains(&ce), "scenario {n}: `{ce}` in `{}`", sc.text.en);
        assert!(fr.contains(&cf), "scenario {n}: `{cf}` in `{}`", sc.text.fr);
    }
}

/// The rules a face and option make, seat by seat, as the rulebook reads them (player `i` in
/// seat `i`).
fn expected_rules(face: &Face, option: usize, first: usize, sides: [Faction; 2]) -> Vec<Rule> {
    let seats = |who: &Who| -> Vec<u8> {
        (0..2u8)
            .filter(|&s| match who {
                Who::First => s as usize == first,
                Who::Second => s as usize != first,
                Who::StarEmpire => sides[s as usize] == EMPIRE,
                Who::TradeFederation => sides[s as usize] == FEDERATION,
                Who::Both => true,
            })
            .collect()
    };
    let chosen = face.choice.get(option).map_or(&[][..], |o| &o.rules[..]);
    let mut out = Vec::new();
    for r in face.rules.iter().chain(chosen) {
        match r {
            RuleSpec::Authority { who, add } => {
                out.extend(
                    seats(who)
                        .into_iter()
                        .map(|seat| Rule::Authority { seat, add: *add }),
                );
            }
            RuleSpec::Base { who, card } => {
                out.extend(
                    seats(who)
                        .into_iter()
                        .map(|seat| Rule::Base { seat, card: *card }),
                );
            }
            RuleSpec::Bonus { who, card, effects } => {
                out.extend(seats(who).into_iter().map(|seat| Rule::Bonus {
                    seat: Some(seat),
                    card: *card,
                    effects: effects.clone(),
                }));
            }
            RuleSpec::TurnStart { who, draw, discard } => {
                out.extend(seats(who).into_iter().map(|seat| Rule::TurnStart {
                    seat: Some(seat),
                    draw: *draw,
                    discard: *discard,
                }));
            }
            RuleSpec::Row { slots } => out.push(Rule::Row { slots: *slots }),
        }
    }
    out
}

/// Checks the game a scenario deals with a face and an option: its rules, and what they put on
/// the table at the start.
fn check_deal(c: &Campaign, face: &Face, option: usize) {
    let k = c.scenario_index();
    let first = c.next_first();
    let sides = c.save.sides;
    let at = format!(
        "scenario {}, {:?} first, option {option}",
        k + 1,
        sides[first]
    );
    let record = c.next_record(option as u8).unwrap();
    let state: State = record.initial_state().unwrap();
    let rules = expected_rules(face, option, first, sides);
    assert_eq!(state.config.rules, rules, "{at}");
    assert_eq!(state.first, Seat(first as u8), "{at}");
    for p in 0..2u8 {
        let me = &state.players.0[p as usize];
        let mut authority = 50;
        let mut bases = Vec::new();
        for r in &rules {
            match *r {
                Rule::Authority { seat, add } if seat == p => authority += add,
                Rule::Base { seat, card } if seat == p => bases.push(card),
                _ => {}
            }
        }
        assert_eq!(me.authority, authority, "{at}: p{}", p + 1);
        let mut in_play: Vec<_> = me.bases.iter().map(|b| b.card).collect();
        in_play.sort();
        bases.sort();
        assert_eq!(in_play, bases, "{at}: p{}", p + 1);
        // The envelope's sheet, political, in scenarios 1 to 4; none political afterwards.
        let set = cards();
        let political: Vec<&str> = me
            .sheets
            .iter()
            .filter(|u| u.political)
            .map(|u| set.sheets[u.sheet.0 as usize].id.as_str())
            .collect();
        let sheet = c.def.scenario[k].sheets.get(&sides[p as usize]);
        assert_eq!(
            political,
            sheet.map(|s| s.as_str()).into_iter().collect::<Vec<_>>(),
            "{at}"
        );
        assert_eq!(
            me.sheets.len(),
            (k + 1).min(4),
            "{at}: every sheet received so far"
        );
    }
    let slots = rules
        .iter()
        .find_map(|r| match r {
            Rule::Row { slots } => Some(*slots as usize),
            _ => None,
        })
        .unwrap_or(5);
    assert_eq!(
        state.row.iter().flatten().count(),
        slots,
        "{at}: the trade row"
    );
}

#[test]
fn every_face_and_option_of_the_embedded_campaign_deals_a_game_with_its_rules() {
    let def = builtin();
    // (scenario, side of the first player) dealt; the Star Empire's player always opens the first.
    let mut seen = BTreeSet::new();
    for seed in 0..40u64 {
        let wishes = if seed % 2 == 0 {
            [EMPIRE, FEDERATION]
        } else {
            [FEDERATION, EMPIRE]
        };
        let mut c = Campaign::new(def, wishes, players(), seed).unwrap();
        while !c.is_over() {
            let k = c.scenario_index();
            let side = c.save.sides[c.next_first()];
            let face = c.next_face().unwrap().clone();
            if seen.insert((k, side)) {
                for option in 0..face.choice.len().max(1) {
                    check_deal(&c, &face, option);
                }
            }
            let options = face.choice.len().max(1) as u64;
            play_next(
                &mut c,
                ((seed + k as u64) % options) as u8,
                seed * 100 + k as u64,
            );
        }
        if seen.len() == 2 * def.scenario.len() - 1 {
            break;
        }
    }
    let missing: Vec<_> = (0..def.scenario.len())
        .flat_map(|k| [(k, EMPIRE), (k, FEDERATION)])
        .filter(|x| !seen.contains(x) && *x != (0, FEDERATION))
        .collect();
    assert!(missing.is_empty(), "faces never dealt: {missing:?}");
}

#[test]
fn after_the_embedded_campaign_the_post_campaign_pack_joins_the_trade_deck() {
    let def = builtin();
    let set = cards();
    let pack = set.trade_deck_of(Sets::parse("rise_of_empire_post").unwrap());
    assert_eq!(pack.len(), 24);
    let mut c = Campaign::new(def, [EMPIRE, FEDERATION], players(), 17).unwrap();
    assert_eq!(c.trade_deck.len(), 60);
    assert!(
        c.trade_deck.iter().all(|x| !pack.contains(x)),
        "not before the campaign"
    );
    for k in 0..12 {
        assert!(!c.is_over());
        assert!(
            c.trade_deck.iter().all(|x| !pack.contains(x)),
            "not during it"
        );
        play_next(&mut c, 0, 700 + k);
    }
    assert!(c.is_over());
    assert_eq!(c.results.len(), 12);
    let points: u32 = def
        .scenario
        .iter()
        .map(|s| s.victory_point.points as u32)
        .sum();
    assert!(c.points[0] + c.points[1] <= points);
    assert!(
        c.final_trade_deck().is_err(),
        "the players' last upgrades first"
    );
    complete_all(&mut c);
    let deck = c.final_trade_deck().unwrap();
    assert_eq!(deck.len(), 60 + 24);
    for &x in &pack {
        let n = |d: &[_]| d.iter().filter(|&&y| y == x).count();
        assert_eq!(n(&deck), n(&pack), "{x}");
    }
    let mut rest: Vec<_> = deck
        .iter()
        .filter(|x| !pack.contains(x))
        .map(|&x| set.printed(x))
        .collect();
    rest.sort();
    assert_eq!(
        rest,
        set.trade_deck_of(Sets::parse("rise_of_empire").unwrap()),
        "the campaign's 60 cards, upgraded or not"
    );
    // The whole campaign replays from its save, completion included.
    let again = Campaign::replay(def, c.save.clone()).unwrap();
    assert_eq!(again, c);
}
