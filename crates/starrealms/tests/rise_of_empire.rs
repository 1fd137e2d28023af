//! *Rise of Empire* mechanics: on-acquire abilities, upgrades with sticker sheets, dual
//! factions, political victory. The cards are a test fixture with round numbers
//! (`tests/fixtures/roe_mechanics.toml`), installed as this process's card set, so that these
//! tests hold whatever the stand-in pack says.

use std::sync::Once;

use game::{Action as _, Seat};
use starrealms::cards::{CardSet, Column, Faction};
use starrealms::config::{SheetGrant, UsedSticker};
use starrealms::scenario::{Builder, card};
use starrealms::state::Pending;
use starrealms::{Action, Config, State, cards};

const FIXTURE: &str = include_str!("fixtures/roe_mechanics.toml");

fn setup() {
    static INIT: Once = Once::new();
    INIT.call_once(|| {
        let set = CardSet::parse("roe_mechanics.toml", FIXTURE).expect("the fixture is valid");
        starrealms::use_card_set(set).expect("installed first");
    });
}

fn grant(sheet: &str) -> SheetGrant {
    SheetGrant {
        sheet: sheet.into(),
        used: Vec::new(),
        political: false,
    }
}

/// A two-player table where p1 owns the Empire test sheet and p2 the Federation one.
fn with_sheets() -> Builder {
    setup();
    Builder::new().config(|c| {
        c.sheets = vec![vec![grant("t_empire")], vec![grant("t_federation")]];
    })
}

fn legal(s: &State) -> Vec<String> {
    s.legal_actions().iter().map(|a| a.to_string()).collect()
}

fn refusal(s: &mut State, text: &str) -> String {
    let before = s.clone();
    let err = s.apply(text.parse().unwrap()).unwrap_err().to_string();
    assert_eq!(*s, before, "a refused action changes nothing");
    err
}

// ----- on-acquire ------------------------------------------------------------------------

#[test]
fn a_kingdom_card_adds_trade_once_placed_and_the_row_refilled() {
    setup();
    let mut s = Builder::new()
        .row(&["t_guard"])
        .trade_deck(&["t_probe"])
        .pools(0, 3, 0)
        .build();
    s.act("buy row 0");
    let me = &s.players.0[0];
    assert_eq!(me.discard, vec![card("t_guard")]);
    assert_eq!(s.row[0], Some(card("t_probe")));
    assert_eq!(
        me.trade, 2,
        "3 - 3 + 2: the on-acquire trade can be spent at once"
    );
    assert!(legal(&s).contains(&"buy row 0".to_string()));
}

#[test]
fn a_consortium_card_may_draw_then_discard_after_the_refill() {
    setup();
    let mut s = Builder::new()
        .row(&["t_probe"])
        .trade_deck(&["t_guard"])
        .hand(0, &["viper"])
        .deck(0, &["scout"])
        .pools(0, 2, 0)
        .build();
    s.act("buy row 0");
    // The card is in the discard pile and the row refilled before the choice is asked.
    assert_eq!(s.players.0[0].discard, vec![card("t_probe")]);
    assert_eq!(s.row[0], Some(card("t_guard")));
    assert!(matches!(s.pending, Some(Pending::Choose { .. })));
    assert_eq!(legal(&s), ["choose 0", "choose 1"]);
    s.act("choose 1");
    assert_eq!(s.players.0[0].hand.len(), 2, "drew the Scout");
    assert!(matches!(
        s.pending,
        Some(Pending::Discard {
            seat: Seat(0),
            left: 1
        })
    ));
    assert_eq!(legal(&s), ["discard scout", "discard viper"]);
    s.act("discard viper");
    assert_eq!(s.players.0[0].hand, vec![card("scout")]);
    assert_eq!(s.players.0[0].discard, vec![card("t_probe"), card("viper")]);
    assert!(s.pending.is_none());
    // Declining draws and discards nothing.
    let mut s = Builder::new()
        .row(&["t_probe"])
        .hand(0, &["viper"])
        .deck(0, &["scout"])
        .pools(0, 2, 0)
        .build();
    s.act("buy row 0");
    s.act("choose 0");
    assert_eq!(s.players.0[0].hand, vec![card("viper")]);
    assert!(s.pending.is_none());
}

#[test]
fn a_scavenger_card_may_scrap_and_its_big_one_may_scrap_itself() {
    setup();
    let mut s = Builder::new()
        .row(&["t_picker"])
        .hand(0, &["viper"])
        .pools(0, 2, 0)
        .build();
    s.act("buy row 0");
    assert_eq!(legal(&s), ["scrap hand viper", "pass"]);
    s.act("scrap hand viper");
    assert_eq!(s.scrap_heap, vec![card("viper")]);
    // Up to two from hand and/or discard pile: the card just acquired is already there.
    let mut s = Builder::new()
        .row(&["t_hauler"])
        .hand(0, &["scout"])
        .pools(0, 7, 0)
        .build();
    s.act("buy row 0");
    assert_eq!(
        legal(&s),
        ["scrap hand scout", "scrap discard t_hauler", "pass"]
    );
    s.act("scrap hand scout");
    s.act("scrap discard t_hauler");
    assert!(s.pending.is_none(), "two scrapped: done");
    assert_eq!(s.scrap_heap, vec![card("scout"), card("t_hauler")]);
}

#[test]
fn the_on_acquire_resolves_after_a_top_of_deck_choice() {
    setup();
    // A Freighter's ally put the next ship on top: the card goes there first, then its
    // on-acquire ability resolves (so "draw a card" would draw it).
    let mut s = Builder::new().row(&["t_guard"]).pools(0, 3, 0).build();
    s.players.0[0].next_ship_top = 1;
    s.act("buy row 0");
    assert_eq!(s.players.0[0].trade, 0, "not yet resolved");
    assert!(matches!(s.pending, Some(Pending::TopOrDiscard { .. })));
    s.act("top");
    assert_eq!(s.players.0[0].deck.last(), Some(&card("t_guard")));
    assert_eq!(s.players.0[0].trade, 2);
}

#[test]
fn explorers_and_base_cards_have_no_on_acquire_and_no_upgrade() {
    let mut s = with_sheets().row(&["cutter"]).pools(0, 10, 0).build();
    // The Cutter costs 2 and row 2 has a ship sticker, but the sheet upgrades only its own
    // set's cards; the Explorer is never upgraded.
    let actions = legal(&s);
    assert!(
        !actions.iter().any(|a| a.contains("upgrade")),
        "{actions:?}"
    );
    s.act("buy explorer");
    assert_eq!(s.players.0[0].trade, 8);
    assert!(s.pending.is_none() && s.frames.is_empty());
}

// ----- upgrades --------------------------------------------------------------------------

#[test]
fn an_upgrade_follows_the_seven_steps() {
    let mut s = with_sheets()
        .row(&["t_guard"])
        .trade_deck(&["t_picker"])
        .pools(0, 5, 0)
        .build();
    let actions = legal(&s);
    assert!(
        actions.contains(&"buy row 0 upgrade s1 r3".to_string()),
        "{actions:?}"
    );
    s.act("buy row 0 upgrade s1 r3");
    let set = cards();
    let upgraded = set.upgraded(card("t_guard"), 0, 2).unwrap();
    let me = &s.players.0[0];
    // 1–2: the card's cost and the ship upgrade (2) are paid; 7: its printed on-acquire
    // ability (2 trade) resolves after all the rest.
    let (pool, card_cost, upgrade, on_acquire) = (5, 3, 2, 2);
    assert_eq!(me.trade, pool - card_cost - upgrade + on_acquire);
    // 4–5: the card with its stickers is in the discard pile.
    assert_eq!(me.discard, vec![upgraded]);
    // 6: the row was refilled.
    assert_eq!(s.row[0], Some(card("t_picker")));
    // The sticker is used.
    assert_eq!(me.sheets[0].ship, 1 << 2);
    // The upgraded card belongs to both factions, keeps its printed ally (Kingdom), gains the
    // sticker's, and has lost its on-acquire ability for good.
    let def = set.def(upgraded);
    assert_eq!(
        def.member_factions(),
        vec![Faction::Kingdom, Faction::StarEmpire]
    );
    assert!(def.spec.on_acquire.is_empty());
    assert_eq!(def.spec.ally.len(), 2);
    assert_eq!(def.upgrade.unwrap().of, card("t_guard"));
    assert_eq!(set.printed(upgraded), card("t_guard"));
}

#[test]
fn an_upgraded_card_acquired_again_has_no_on_acquire_and_no_second_upgrade() {
    let up = "t_guard__t_empire_r3";
    let mut s = with_sheets().row(&[up]).pools(0, 10, 0).build();
    let actions = legal(&s);
    assert!(
        !actions.iter().any(|a| a.contains("upgrade")),
        "{actions:?}"
    );
    s.act("buy row 0");
    assert_eq!(
        s.players.0[0].trade, 7,
        "no trade from an on-acquire it lost"
    );
    let err = refusal(
        &mut with_sheets().row(&[up]).pools(0, 10, 0).build(),
        "buy row 0 upgrade s1 r3",
    );
    assert!(err.contains("already upgraded"), "{err}");
}

#[test]
fn a_base_upgrade_costs_three_and_the_sheet_must_match_cost_and_kind() {
    let mut s = with_sheets()
        .row(&["t_keep", "t_bank"])
        .pools(0, 6, 0)
        .build();
    let actions = legal(&s);
    assert!(
        actions.contains(&"buy row 0 upgrade s1 r3".to_string()),
        "{actions:?}"
    );
    assert!(
        !actions.iter().any(|a| a.starts_with("buy row 1 upgrade")),
        "5 + 3 > 6"
    );
    let err = refusal(&mut s, "buy row 0 upgrade s1 r2");
    assert!(
        err.contains("printed cost 2") && err.contains("costs 3"),
        "{err}"
    );
    let err = refusal(&mut s, "buy row 1 upgrade s1 r4");
    assert!(
        err.contains("cost 8") && err.contains("trade pool is 6"),
        "{err}"
    );
    let err = refusal(&mut s, "buy row 0 upgrade s2 r3");
    assert!(err.contains("1 sticker sheets"), "{err}");
    s.act("buy row 0 upgrade s1 r3");
    let (pool, card_cost, upgrade, on_acquire) = (6, 3, 3, 2);
    assert_eq!(
        s.players.0[0].trade,
        pool - card_cost - upgrade + on_acquire
    );
    assert_eq!(s.players.0[0].sheets[0].base, 1 << 2);
    let up = s.players.0[0].discard[0];
    assert_eq!(cards().info(up).defense, 4);
    assert!(cards().def(up).spec.primary.len() == 2);
}

#[test]
fn one_sticker_per_row_ship_or_base() {
    let mut s = with_sheets()
        .row(&["t_guard", "t_keep"])
        .pools(0, 20, 0)
        .build();
    s.act("buy row 0 upgrade s1 r3");
    let actions = legal(&s);
    assert!(!actions.iter().any(|a| a.contains("r3")), "{actions:?}");
    let err = refusal(&mut s, "buy row 1 upgrade s1 r3");
    assert!(err.contains("row 3 of sheet t_empire is used"), "{err}");
    // A second sheet's row of the same cost is free.
    let mut two = with_sheets()
        .config(|c| c.sheets[0].push(grant("t_federation")))
        .row(&["t_guard", "t_keep"])
        .pools(0, 20, 0)
        .build();
    two.act("buy row 0 upgrade s1 r3");
    assert!(legal(&two).contains(&"buy row 1 upgrade s2 r3".to_string()));
}

#[test]
fn five_stickers_at_most_per_sheet_and_the_used_ones_come_from_the_configuration() {
    let used = |rows: &[u8]| -> Vec<UsedSticker> {
        rows.iter()
            .map(|&row| UsedSticker {
                row,
                column: Column::Ship,
            })
            .collect()
    };
    let mut s = with_sheets()
        .config(|c| c.sheets[0][0].used = used(&[1, 2, 3, 4, 5]))
        .row(&["t_guard", "t_probe", "t_hauler"])
        .pools(0, 20, 0)
        .build();
    assert_eq!(s.players.0[0].sheets[0].used(), 5);
    assert!(!legal(&s).iter().any(|a| a.contains("upgrade")));
    let err = refusal(&mut s, "buy row 0 upgrade s1 r3");
    assert!(err.contains("is used"), "{err}");
    // A row used twice is a broken configuration.
    let mut config = Config {
        sheets: vec![vec![grant("t_empire")], vec![]],
        ..Config::default()
    };
    config.sheets[0][0].used = used(&[2, 2]);
    let err = State::new(&config, 1).unwrap_err();
    assert!(err.contains("row 2 is used twice"), "{err}");
    config.sheets[0][0] = grant("nope");
    let err = State::new(&config, 1).unwrap_err();
    assert!(err.contains("unknown sticker sheet `nope`"), "{err}");
}

#[test]
fn political_victory_with_the_fifth_sticker_of_the_current_sheet() {
    let used = vec![
        UsedSticker {
            row: 1,
            column: Column::Ship,
        },
        UsedSticker {
            row: 2,
            column: Column::Base,
        },
        UsedSticker {
            row: 4,
            column: Column::Base,
        },
        UsedSticker {
            row: 5,
            column: Column::Ship,
        },
    ];
    let political = used.clone();
    let mut s = with_sheets()
        .config(move |c| {
            c.sheets[0][0].used = political;
            c.sheets[0][0].political = true;
        })
        .row(&["t_guard"])
        .pools(0, 5, 0)
        .build();
    s.act("buy row 0 upgrade s1 r3");
    assert!(s.over);
    assert_eq!(s.winners(), vec![Seat(0)]);
    assert_eq!(s.returns(), vec![1.0, 0.0]);
    // The same fifth sticker on a sheet of an earlier scenario wins nothing.
    let mut s = with_sheets()
        .config(move |c| c.sheets[0][0].used = used)
        .row(&["t_guard"])
        .pools(0, 5, 0)
        .build();
    s.act("buy row 0 upgrade s1 r3");
    assert!(!s.over);
    assert_eq!(s.players.0[0].sheets[0].used(), 5);
}

#[test]
fn a_free_acquisition_can_be_upgraded_by_paying_the_upgrade() {
    // Blob Carrier's ally: acquire any ship for free, on top of the deck.
    let mut s = with_sheets()
        .row(&["t_guard", "t_keep"])
        .pools(0, 2, 0)
        .build();
    s.pending = Some(Pending::AcquireFree);
    let actions = legal(&s);
    assert_eq!(
        actions,
        [
            "acquire row 0",
            "acquire row 0 upgrade s1 r3",
            "acquire explorer"
        ],
        "ships only; the upgrade costs its 2 trade"
    );
    s.act("acquire row 0 upgrade s1 r3");
    let up = cards().upgraded(card("t_guard"), 0, 2).unwrap();
    assert_eq!(s.players.0[0].deck.last(), Some(&up));
    let (pool, upgrade, on_acquire) = (2, 2, 2);
    assert_eq!(
        s.players.0[0].trade,
        pool - upgrade + on_acquire,
        "upgrade paid, then the on-acquire trade"
    );
    // Without the trade for the upgrade, only the plain acquisition.
    let mut s = with_sheets().row(&["t_guard"]).pools(0, 1, 0).build();
    s.pending = Some(Pending::AcquireFree);
    assert_eq!(legal(&s), ["acquire row 0", "acquire explorer"]);
    let err = refusal(&mut s, "acquire row 0 upgrade s1 r3");
    assert!(err.contains("cost 2 trade, trade pool is 1"), "{err}");
}

// ----- dual factions ---------------------------------------------------------------------

#[test]
fn an_upgraded_card_triggers_allies_of_both_its_factions() {
    setup();
    // The upgraded Guard (Kingdom + Star Empire) sets off the Imperial Fighter's ally.
    let mut s = Builder::new()
        .hand(0, &["imperial_fighter", "t_guard__t_empire_r3"])
        .build();
    s.act("play imperial_fighter");
    s.act("play t_guard__t_empire_r3");
    let actions = legal(&s);
    assert!(actions.contains(&"ally ship 0".to_string()), "{actions:?}");
    // Its own ally names the Kingdom: an Empire card does not set it off.
    assert!(!actions.contains(&"ally ship 1".to_string()), "{actions:?}");
    // Nor does another dual card that shares only the Empire with it.
    let mut s = Builder::new()
        .hand(0, &["t_probe__t_empire_r2", "t_guard__t_empire_r3"])
        .build();
    s.act("play t_probe__t_empire_r2");
    s.act("play t_guard__t_empire_r3");
    assert!(
        !legal(&s).iter().any(|a| a.starts_with("ally")),
        "{:?}",
        legal(&s)
    );
    // A Kingdom card does; the ally then gives the printed 2 combat and the sticker's draw.
    let mut s = Builder::new()
        .hand(0, &["t_guard", "t_guard__t_empire_r3"])
        .deck(0, &["scout"])
        .build();
    s.act("play t_guard");
    s.act("play t_guard__t_empire_r3");
    s.act("ally ship 1");
    assert_eq!(s.players.0[0].combat, 3 + 3 + 2);
    assert_eq!(s.players.0[0].hand, vec![card("scout")]);
    // Played cards count once for each of their factions.
    assert_eq!(s.players.0[0].played[Faction::Kingdom as usize], 2);
    assert_eq!(s.players.0[0].played[Faction::StarEmpire as usize], 1);
}

// ----- actions, views, records -------------------------------------------------------------

#[test]
fn upgrade_actions_have_a_text_and_a_dense_index() {
    setup();
    for a in [Action::BuyUpgrade(2, 0, 2), Action::AcquireUpgrade(4, 7, 4)] {
        let text = a.to_string();
        assert_eq!(text.parse::<Action>().unwrap(), a);
        assert_eq!(Action::from_index(a.index()), Some(a));
    }
    assert_eq!(
        Action::BuyUpgrade(2, 0, 2).to_string(),
        "buy row 2 upgrade s1 r3"
    );
    for bad in [
        "buy row 2 upgrade s0 r3",
        "buy row 2 upgrade s1 r6",
        "buy row 2 upgrade 1 3",
        "buy row 2 with s1 r3",
    ] {
        assert!(bad.parse::<Action>().is_err(), "`{bad}` parsed");
    }
}

#[test]
fn views_show_sheets_and_a_game_with_upgrades_replays_bit_for_bit() {
    setup();
    let config = Config {
        sets: starrealms::cards::Sets::parse("rise_of_empire").unwrap(),
        sheets: vec![vec![grant("t_empire")], vec![grant("t_federation")]],
        ..Config::default()
    };
    // Random games until one has an upgrade, then replay it.
    let mut found = false;
    for seed in 0..40u64 {
        let mut s = State::new(&config, seed).unwrap();
        assert_eq!(s.explorers, 20, "the Rise of Empire pile");
        assert!(
            s.trade_deck
                .iter()
                .all(|&c| cards().def(c).spec.set.is_none() && cards().def(c).set == 1)
        );
        let mut rng = game::rng_from_seed(seed);
        let mut actions = Vec::new();
        while !s.over && actions.len() < 3000 {
            let legal = s.legal_actions();
            let upgrade = legal.iter().find(|a| matches!(a, Action::BuyUpgrade(..)));
            let a = match upgrade {
                Some(&a) => a,
                None => legal[game::below(&mut rng, legal.len())],
            };
            s.apply(a).unwrap();
            actions.push(a);
        }
        let used: u32 = s
            .players
            .0
            .iter()
            .flat_map(|p| &p.sheets)
            .map(|u| u.used())
            .sum();
        if used == 0 {
            continue;
        }
        found = true;
        let view = s.observation(Seat(0));
        let json = serde_json::to_value(&view).unwrap();
        assert_eq!(json["players"][0]["sheets"][0]["sheet"], "t_empire");
        assert_eq!(
            json["config"]["sets"],
            serde_json::json!(["rise_of_empire"])
        );
        let mut again = State::new(&config, seed).unwrap();
        for a in &actions {
            again.apply(*a).unwrap();
        }
        assert_eq!(again, s);
        // Cards are conserved, an upgraded card counted as its printed card.
        let start = State::new(&config, seed).unwrap().card_counts();
        assert_eq!(s.card_counts(), start);
        // A determinized state agrees with the view.
        let d = view.determinize(&mut game::rng_from_seed(3));
        assert_eq!(d.players.0[0].sheets, s.players.0[0].sheets);
        assert_eq!(d.observation(Seat(0)), view);
        break;
    }
    assert!(found, "no game with an upgrade");
}

#[test]
fn a_saved_position_keeps_the_used_stickers() {
    let mut s = with_sheets().row(&["t_guard"]).pools(0, 5, 0).build();
    s.act("buy row 0 upgrade s1 r3");
    let mut setup = starrealms::scenario::Setup::from_state(&s);
    assert!(
        setup.config.sheets[0][0].used.is_empty(),
        "the configuration is the game's"
    );
    let json = serde_json::to_value(&setup).unwrap();
    assert_eq!(
        json["players"][0]["sheets"],
        serde_json::json!([{"sheet": "t_empire", "ship": 4, "base": 0}])
    );
    let again = setup.build().unwrap();
    assert_eq!(again, s);
    // A row used as ship and base at once is no position.
    setup.players[0].sheets.as_mut().unwrap()[0].base = 4;
    let err = setup.build().unwrap_err().to_string();
    assert!(
        err.contains("players[0].sheets[0]") && err.contains("one sticker per row"),
        "{err}"
    );
}

// ----- broken card files -------------------------------------------------------------------

/// The fixture with one text replaced, parsed: the error, as the user reads it.
fn broken(from: &str, to: &str) -> String {
    assert!(FIXTURE.contains(from), "the fixture holds `{from}`");
    let text = FIXTURE.replacen(from, to, 1);
    CardSet::parse("my-pack.toml", &text)
        .err()
        .unwrap_or_else(|| panic!("`{to}` was accepted"))
        .to_string()
}

fn line_of(needle: &str) -> usize {
    FIXTURE[..FIXTURE.find(needle).unwrap()]
        .matches('\n')
        .count()
        + 1
}

#[test]
fn a_broken_pack_is_refused_with_the_file_the_line_and_the_reason() {
    // An unknown faction: the line of the field.
    let err = broken("faction = \"kingdom\"", "faction = \"empire\"");
    let line = line_of("faction = \"kingdom\"");
    assert!(err.starts_with(&format!("my-pack.toml:{line}:")), "{err}");
    assert!(err.contains("unknown variant `empire`"), "{err}");
    assert!(
        err.contains("consortium") && err.contains("scavengers"),
        "{err}"
    );
    // A sheet of four rows.
    let err = broken(
        "[[sheet.row]]\ncost = 7\nship = { text = \"and draw a card.\", primary = [{ draw = 1 }] }\n",
        "",
    );
    let line = line_of("id = \"t_empire\"") - 1;
    assert!(err.starts_with(&format!("my-pack.toml:{line}:")), "{err}");
    assert!(
        err.contains("sheet `t_empire`: a sheet has 5 rows"),
        "{err}"
    );
    // Two rows for one cost.
    let err = broken("[[sheet.row]]\ncost = 7\n", "[[sheet.row]]\ncost = 5\n");
    assert!(err.contains("two rows for cost 5"), "{err}");
    // A sticker that adds nothing, a sticker without its text.
    let err = broken(
        "base = { text = \"Scrap: Add 3 Trade.\", scrap = [{ trade = 3 }] }",
        "base = { text = \"Nothing.\" }",
    );
    assert!(err.contains("a sticker adds at least one effect"), "{err}");
    let err = broken(
        "base = { text = \"Scrap: Add 3 Trade.\", scrap = [{ trade = 3 }] }",
        "base = { text = \" \", scrap = [{ trade = 3 }] }",
    );
    assert!(err.contains("needs its printed `text`"), "{err}");
    // An unknown side, a misspelt field in a sticker.
    let err = broken("side = \"star_empire\"", "side = \"galactic\"");
    assert!(err.contains("unknown variant `galactic`"), "{err}");
    let err = broken(
        "ship = { text = \"and add 1 Trade.\"",
        "ship = { txt = \"and add 1 Trade.\"",
    );
    assert!(err.contains("unknown field `txt`"), "{err}");
    // An on-acquire ability that cannot be one.
    let err = broken(
        "on_acquire = [{ trade = 2 }]",
        "on_acquire = [\"copy_ship\"]",
    );
    assert!(
        err.contains("card `t_guard`") && err.contains("on-acquire"),
        "{err}"
    );
    // Extending something that is not the base set.
    let err = broken("extends = \"base\"", "extends = \"frontiers\"");
    assert!(err.starts_with("my-pack.toml:1:"), "{err}");
}

#[test]
fn an_owner_can_replace_the_pack_with_a_file_of_the_same_form() {
    // The fixture is such a file: it loads with the base set under it, names its set, and its
    // sheets upgrade its own cards only.
    let set = CardSet::parse("roe_mechanics.toml", FIXTURE).unwrap();
    assert_eq!(
        set.sets.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(),
        ["base", "rise_of_empire"]
    );
    let roe = starrealms::cards::Sets(0b10);
    let deck = set.trade_deck_of(roe);
    assert_eq!(deck.len(), 4 + 2 + 4 + 2 + 4 + 2 + 2);
    assert!(deck.iter().all(|&c| set.def(c).set == 1));
    assert_eq!(set.explorers_of(roe), 20);
    assert_eq!(set.explorers_of(starrealms::cards::Sets::default()), 10);
    assert_eq!(
        set.trade_deck.len(),
        80,
        "the base set's trade deck is unchanged"
    );
    let cutter = set.find("cutter").unwrap();
    assert!(
        set.upgraded(cutter, 0, 1).is_none(),
        "a base card is not upgraded"
    );
    let smuggler = set.find("t_smuggler").unwrap();
    assert!(
        !deck.contains(&smuggler),
        "personal cards are in no trade deck"
    );
}
