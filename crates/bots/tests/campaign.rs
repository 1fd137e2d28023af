//! Bots in a campaign: the scenario choice is a decision, the completion fills the sheets, a
//! whole campaign between bots replays bit for bit.

use bots::campaign::{completion, play_campaign, scenario_choice};
use starrealms::campaign::{Campaign, CampaignDef};
use starrealms::cards::Faction;

/// A two-scenario campaign whose first scenario offers the opener a good and a bad option.
const TWO: &str = r#"
id = "two"
name = { en = "Two", fr = "Deux" }
sets = ["rise_of_empire"]
[[side]]
faction = "star_empire"
deck = { scout = 8, viper = 1, imperial_fighter = 1, smuggler = 1 }
[[side]]
faction = "trade_federation"
deck = { scout = 8, viper = 1, federation_shuttle = 1, system_police = 1 }
[final]
tie_breaks = ["cards"]
[[scenario]]
number = 1
name = { en = "One", fr = "Un" }
text = { en = "Choose.", fr = "Choisissez." }
[scenario.face.star_empire]
choice = [
  { text = { en = "The other starts with 20 more", fr = "L'autre commence avec 20 de plus" }, rules = [{ authority = { who = "second", add = 20 } }] },
  { text = { en = "You start with 20 more", fr = "Vous commencez avec 20 de plus" }, rules = [{ authority = { who = "first", add = 20 } }] },
]
[scenario.face.trade_federation]
choice = [
  { text = { en = "You start with 20 more", fr = "Vous commencez avec 20 de plus" }, rules = [{ authority = { who = "first", add = 20 } }] },
  { text = { en = "The other starts with 20 more", fr = "L'autre commence avec 20 de plus" }, rules = [{ authority = { who = "second", add = 20 } }] },
]
[scenario.victory_point]
points = 1
name = { en = "V", fr = "V" }
condition = "win"
[[scenario]]
number = 2
name = { en = "Two", fr = "Deux" }
text = { en = "Nothing.", fr = "Rien." }
[scenario.face.star_empire]
[scenario.face.trade_federation]
[scenario.victory_point]
points = 1
name = { en = "V", fr = "V" }
condition = "win"
"#;

#[test]
fn a_bot_picks_the_option_that_wins_for_its_side() {
    let def = CampaignDef::parse("two.toml", TWO).unwrap();
    let players = ["heuristic".to_string(), "heuristic".to_string()];
    let empire = Campaign::new(
        &def,
        [Faction::StarEmpire, Faction::TradeFederation],
        players.clone(),
        1,
    )
    .unwrap();
    // The Star Empire's player opens the first scenario: its face's good option is the second.
    assert_eq!(empire.next_first(), 0);
    for seed in 0..4 {
        assert_eq!(scenario_choice(&empire, seed), 1, "seed {seed}");
    }
    // The sides the other way: player 2 (the Empire) opens, in seat p2, and still picks well.
    let federation = Campaign::new(
        &def,
        [Faction::TradeFederation, Faction::StarEmpire],
        players,
        1,
    )
    .unwrap();
    assert_eq!(federation.next_first(), 1);
    assert_eq!(scenario_choice(&federation, 0), 1);
}

#[test]
fn a_whole_bot_campaign_replays_bit_for_bit() {
    let def = CampaignDef::builtin();
    let c = play_campaign(def, ["heuristic", "random"], 11).unwrap();
    assert!(c.is_over());
    assert_eq!(c.completion_turn(), None);
    assert_eq!(c.results.len(), def.scenario.len());
    // Every sticker that fits a card was used: each player's twenty, or the deck ran out.
    for p in 0..2 {
        assert!(completion(&c, p).is_none());
    }
    let again = Campaign::replay(def, c.save.clone()).unwrap();
    assert_eq!(again.status(), c.status());
    assert_eq!(again.trade_deck, c.trade_deck);
    assert_eq!(
        again.final_trade_deck().unwrap(),
        c.final_trade_deck().unwrap()
    );
    let json = serde_json::to_string(&c.save).unwrap();
    let same = play_campaign(def, ["heuristic", "random"], 11).unwrap();
    assert_eq!(serde_json::to_string(&same.save).unwrap(), json);
}
