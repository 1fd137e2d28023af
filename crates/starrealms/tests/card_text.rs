//! Each card's printed text, kept beside its effects in the card file, says the same as the
//! effects: the same amounts of trade, combat and authority in each ability, the same draws,
//! the same optional words and targets. A designer's file that contradicts itself is named.

use starrealms::CardSet;
use starrealms::card_text::{ability_disagreements, card_disagreements};
use starrealms::cards::Effect;

#[test]
fn printed_texts_and_sticker_texts_match_effects() {
    let set = CardSet::builtin();
    assert!(!set.sheets.is_empty(), "the embedded pack has sheets");
    assert_eq!(set.text_disagreements(), []);
    assert_eq!(CardSet::base().text_disagreements(), []);
}

#[test]
fn a_wrong_amount_a_missing_draw_or_a_missing_choice_would_be_caught() {
    let issues = ability_disagreements(
        "Add 4 Authority. Add 2 Trade.",
        &[Effect::Authority(4), Effect::Trade(3)],
    );
    assert_eq!(
        issues,
        ["the text says 2 Trade, 4 Authority, the effects give 3 Trade, 4 Authority"]
    );
    let issues = ability_disagreements("Add 2 Trade.", &[Effect::Trade(2), Effect::Draw(1)]);
    assert_eq!(issues, ["the text does not say: draw a card"]);
    let issues = ability_disagreements(
        "Add 2 Trade.",
        &[Effect::Choose(vec![
            vec![Effect::Trade(2)],
            vec![Effect::Draw(1)],
        ])],
    );
    assert!(issues.iter().any(|i| i.contains("choice")), "{issues:?}");
}

#[test]
fn a_designer_file_that_contradicts_itself_names_the_card() {
    let file = r#"
extends = "base"
set = "mine"

[[card]]
id = "gold_barge"
name = { en = "Gold Barge", fr = "Barge d'Or" }
faction = "trade_federation"
cost = 3
kind = "ship"
count = 2
text = "Primary: Add 5 Trade."
primary = [{ trade = 1 }]
"#;
    let set = CardSet::parse("mine.toml", file).unwrap();
    let issues = set.text_disagreements();
    assert_eq!(issues.len(), 1, "{issues:?}");
    assert_eq!(issues[0].card, "gold_barge");
    assert_eq!(issues[0].ability, "Primary");
    assert_eq!(
        issues[0].detail,
        "the text says 5 Trade, the effects give 1 Trade"
    );
    let barge = set.find("gold_barge").unwrap();
    assert!(!set.text_agrees(barge));
    assert!(set.text_agrees(set.find("cutter").unwrap()));
    assert_eq!(
        card_disagreements(&set.def(set.find("cutter").unwrap()).spec),
        []
    );
}
