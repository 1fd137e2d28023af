//! A card file that realms' own checks refuse says why in parts of the translation table (from
//! the place to the fault), whose English is the error's text: people read it in their language.

use starrealms::cards::{CardError, CardSet};

/// The three cards every set needs.
const MINIMAL: &str = r#"[[card]]
id = "scout"
name = { en = "Scout", fr = "Éclaireur" }
kind = "ship"
count = 8
role = "starting"
text = "Primary: Add 1 Trade."
primary = [{ trade = 1 }]

[[card]]
id = "viper"
name = { en = "Viper", fr = "Viper" }
kind = "ship"
count = 2
role = "starting"
text = "Primary: Add 1 Combat."
primary = [{ combat = 1 }]

[[card]]
id = "explorer"
name = { en = "Explorer", fr = "Prospecteur" }
cost = 2
kind = "ship"
count = 10
role = "explorer"
text = "Primary: Add 2 Trade. Scrap: Add 2 Combat."
primary = [{ trade = 2 }]
scrap = [{ combat = 2 }]
"#;

/// A sheet of five rows; `row2` is its second row's stickers.
fn sheet(row2: &str) -> String {
    format!(
        r#"
[[sheet]]
id = "t_sheet"
name = {{ en = "Test sheet", fr = "Planche de test" }}
side = "star_empire"
[[sheet.row]]
cost = 1
ship = {{ text = "and add 1 Combat.", primary = [{{ combat = 1 }}] }}
[[sheet.row]]
cost = 2
{row2}
[[sheet.row]]
cost = 3
base = {{ text = "and add 1 Combat.", primary = [{{ combat = 1 }}] }}
[[sheet.row]]
cost = 5
base = {{ text = "Scrap: Add 3 Trade.", scrap = [{{ trade = 3 }}] }}
[[sheet.row]]
cost = 7
ship = {{ text = "and draw a card.", primary = [{{ draw = 1 }}] }}
"#
    )
}

/// The error of a file realms' own checks refuse, its keys from the place to the fault, and
/// its English as the error's text.
fn refused(text: &str) -> (CardError, Vec<String>) {
    let err = CardSet::parse("broken.toml", text).unwrap_err();
    let why = err.why.clone().unwrap_or_else(|| panic!("no why: {err}"));
    assert_eq!(err.reason, why.english(), "{err}");
    let keys = why.0.iter().map(|r| r.key.clone()).collect();
    (err, keys)
}

#[test]
fn a_ship_with_a_defense_is_refused_within_its_card() {
    let text = MINIMAL.replace("count = 2\n", "count = 2\ndefense = 3\n");
    let (err, keys) = refused(&text);
    assert_eq!(keys, ["file.card.in_card", "file.card.no_defense"]);
    assert_eq!(err.reason, "card `viper`: a ship has no `defense`");
    assert_eq!(err.line, 10, "{err}");
    assert_eq!(
        err.to_string(),
        "broken.toml:10: card `viper`: a ship has no `defense`"
    );
}

#[test]
fn a_bad_choose_is_refused_within_its_card() {
    let text = MINIMAL.replace(
        "primary = [{ combat = 1 }]",
        "primary = [{ choose = [[{ combat = 1 }]] }]",
    );
    let (err, keys) = refused(&text);
    assert_eq!(keys, ["file.card.in_card", "file.card.choose_options"]);
    assert_eq!(err.reason, "card `viper`: `choose` needs 2 to 4 options");

    let text = MINIMAL.replace(
        "primary = [{ combat = 1 }]",
        "primary = [{ choose = [[{ combat = 1 }], [{ choose = [[], []] }]] }]",
    );
    let (err, keys) = refused(&text);
    assert_eq!(keys, ["file.card.in_card", "file.card.choose_nested"]);
    assert_eq!(err.reason, "card `viper`: `choose` cannot nest");
}

#[test]
fn a_broken_sheet_row_is_refused_within_its_sheet_and_row() {
    // A sticker whose `choose` has one option: the sheet, the row, the fault.
    let row2 =
        r#"ship = { text = "and add 1 Combat.", primary = [{ choose = [[{ combat = 1 }]] }] }"#;
    let text = format!("{MINIMAL}{}", sheet(row2));
    let (err, keys) = refused(&text);
    assert_eq!(
        keys,
        [
            "file.card.in_sheet",
            "file.card.in_row",
            "file.card.choose_options"
        ]
    );
    assert_eq!(
        err.reason,
        "sheet `t_sheet`: row 2: `choose` needs 2 to 4 options"
    );
    // A row without a sticker.
    let (err, keys) = refused(&format!("{MINIMAL}{}", sheet("")));
    assert_eq!(keys, ["file.card.in_sheet", "file.card.row_no_sticker"]);
    assert_eq!(err.reason, "sheet `t_sheet`: row 2 has no sticker");
    // A sticker without its text.
    let row2 = r#"base = { text = " ", primary = [{ combat = 1 }] }"#;
    let (err, keys) = refused(&format!("{MINIMAL}{}", sheet(row2)));
    assert_eq!(
        keys,
        [
            "file.card.in_sheet",
            "file.card.in_row",
            "file.card.sticker_no_text"
        ]
    );
    assert_eq!(
        err.reason,
        "sheet `t_sheet`: row 2: a sticker needs its printed `text`"
    );
    // An ally sticker for a card without a faction: the sheet and the row together.
    let drone = r#"
[[card]]
id = "drone"
name = { en = "Drone", fr = "Drone" }
cost = 2
kind = "ship"
count = 1
text = "Primary: Add 1 Trade."
primary = [{ trade = 1 }]
"#;
    let row2 = r#"ship = { text = "Ally: Draw a card.", ally = [{ draw = 1 }] }"#;
    let (err, keys) = refused(&format!("{MINIMAL}{drone}{}", sheet(row2)));
    assert_eq!(
        keys,
        [
            "file.card.in_sheet_row",
            "file.card.ally_sticker_no_faction"
        ]
    );
    assert_eq!(
        err.reason,
        "sheet `t_sheet`, row 2: its ally sticker cannot go on `drone`, which has no faction"
    );
}

#[test]
fn a_name_used_twice_is_refused_within_the_second_card() {
    let twin = r#"
[[card]]
id = "twin"
name = { en = "Twin", fr = "Éclaireur" }
cost = 1
kind = "ship"
count = 1
text = "Primary: Add 1 Trade."
primary = [{ trade = 1 }]
"#;
    let (err, keys) = refused(&format!("{MINIMAL}{twin}"));
    assert_eq!(keys, ["file.card.in_card", "file.card.name_used"]);
    assert_eq!(err.reason, "card `twin`: name `eclaireur` is already used");
    assert_eq!(err.line, 30, "{err}");
}

#[test]
fn a_set_without_its_scout_or_explorer_is_refused() {
    let text = MINIMAL.replace("id = \"scout\"", "id = \"scoot\"");
    let (err, keys) = refused(&text);
    assert_eq!(keys, ["file.card.no_starting"]);
    assert_eq!(err.reason, "the set needs a starting card `scout`");
    assert_eq!((err.file.as_str(), err.line), ("broken.toml", 0));

    let text = MINIMAL.replace("role = \"explorer\"", "role = \"trade\"");
    let (err, keys) = refused(&text);
    assert_eq!(keys, ["file.card.one_explorer"]);
    assert_eq!(err.reason, "the set needs exactly one Explorer card");
}

#[test]
fn extending_another_set_and_a_sheet_id_used_twice_are_refused() {
    let (err, keys) = refused(&format!("extends = \"frontiers\"\n{MINIMAL}"));
    assert_eq!(keys, ["file.card.extends_other"]);
    assert_eq!(
        err.reason,
        "`extends = \"frontiers\"`: only the embedded \"base\" set can be extended"
    );
    assert_eq!(err.line, 1);

    let row2 = r#"ship = { text = "and add 1 Combat.", primary = [{ combat = 1 }] }"#;
    let text = format!("{MINIMAL}{}{}", sheet(row2), sheet(row2));
    let (err, keys) = refused(&text);
    assert_eq!(keys, ["file.card.in_sheet", "file.card.sheet_id_used"]);
    assert_eq!(err.reason, "sheet `t_sheet`: the id is already used");
}

#[test]
fn the_parsers_words_have_no_why() {
    let text = MINIMAL.replace("primary = [{ trade = 1 }]", "primary = [{ tradee = 1 }]");
    let err = CardSet::parse("broken.toml", &text).unwrap_err();
    assert!(err.why.is_none(), "{err}");
    assert!(err.reason.contains("tradee"), "{err}");
}
