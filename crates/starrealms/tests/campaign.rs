//! The campaign rules on a two-scenario test campaign (`tests/fixtures/campaign_small.toml`)
//! over the embedded stand-in pack: sides, who opens, the scenario card's face and choice,
//! victory points, political victory on the current sheet only, upgrades that persist, the
//! trade deck that goes back together, replay of a whole campaign, and bad saves.

use game::{GameRecord, Seat};
use starrealms::campaign::{Campaign, CampaignDef, CampaignSave, Completion};
use starrealms::cards::Faction;
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
