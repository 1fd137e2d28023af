//! The embedded *Rise of Empire* stand-in pack (ours): its shape is the rulebook's (60 trade cards,
//! 20 per new faction, the on-acquire table, five-row sheets per scenario and side, the two
//! personal cards), whatever its cards say; and its post-campaign pack (24 cards of their own set).

use starrealms::cards::{CardSet, Column, Effect, Faction, Role, ScrapFrom, Sets};

fn set() -> &'static CardSet {
    CardSet::builtin()
}

fn roe() -> Sets {
    Sets::parse("rise_of_empire").unwrap()
}

/// The rulebook's on-acquire table, by faction and cost.
fn table(faction: Faction, cost: u8) -> Vec<Effect> {
    let may = |e: Vec<Effect>| vec![Effect::Choose(vec![vec![], e])];
    let scrap = |from, count| {
        vec![Effect::Scrap {
            from,
            count,
            optional: true,
            draw_per_card: false,
            combat_per_card: 0,
            combat_for_cost: false,
        }]
    };
    match (faction, cost) {
        (Faction::Consortium, 1..=4) => may(vec![Effect::Draw(1), Effect::Discard(1)]),
        (Faction::Consortium, 5..=6) => may(vec![Effect::Draw(1)]),
        (Faction::Consortium, _) => may(vec![Effect::Draw(2), Effect::Discard(1)]),
        (Faction::Kingdom, 1..=4) => vec![Effect::Trade(2)],
        (Faction::Kingdom, 5..=6) => vec![Effect::Trade(3)],
        (Faction::Kingdom, _) => vec![Effect::Trade(5)],
        (Faction::Scavengers, 1..=4) => scrap(ScrapFrom::Hand, 1),
        (Faction::Scavengers, 5..=6) => scrap(ScrapFrom::HandOrDiscard, 1),
        (Faction::Scavengers, _) => scrap(ScrapFrom::HandOrDiscard, 2),
        (f, _) => panic!("{f:?} is not a Rise of Empire faction"),
    }
}

#[test]
fn sixty_trade_cards_twenty_per_new_faction_and_a_pile_of_twenty_explorers() {
    let set = set();
    let deck = set.trade_deck_of(roe());
    assert_eq!(deck.len(), 60);
    for f in [Faction::Consortium, Faction::Kingdom, Faction::Scavengers] {
        let n = deck
            .iter()
            .filter(|&&c| set.def(c).spec.faction == Some(f))
            .count();
        assert_eq!(n, 20, "{f:?}");
    }
    assert_eq!(set.explorers_of(roe()), 20);
    for &c in &deck {
        let cost = set.info(c).cost;
        assert!((1..=8).contains(&cost), "{c}: cost {cost}");
    }
    // The base set's deck and pile are unchanged.
    assert_eq!(set.trade_deck_of(Sets::default()), set.trade_deck);
    assert_eq!(set.trade_deck.len(), 80);
    assert_eq!(set.explorers_of(Sets::default()), 10);
    let both = Sets::parse("base,rise_of_empire").unwrap();
    assert_eq!(set.trade_deck_of(both).len(), 140);
}

#[test]
fn on_acquire_actions_follow_the_rulebook_table() {
    let set = set();
    let mut seen = 0;
    for (_, d) in set.iter() {
        let pack = set.sets[d.set as usize].name.as_str();
        if d.upgrade.is_some() || !matches!(pack, "rise_of_empire" | "rise_of_empire_post") {
            continue;
        }
        if d.spec.role != Role::Trade {
            continue;
        }
        let f = d.spec.faction.expect("a pack card has a faction");
        assert_eq!(d.spec.on_acquire, table(f, d.cost()), "{}", d.id());
        seen += 1;
    }
    assert!(
        seen >= 18 + 12,
        "every kind of the pack and the post-campaign pack checked ({seen})"
    );
}

#[test]
fn the_personal_cards_of_both_sides() {
    let set = set();
    for (id, side) in [
        ("smuggler", Faction::StarEmpire),
        ("system_police", Faction::TradeFederation),
    ] {
        let c = set.find(id).unwrap_or_else(|| panic!("no `{id}`"));
        let d = set.def(c);
        assert_eq!(d.spec.role, Role::Personal, "{id}");
        assert_eq!(d.spec.faction, Some(side), "{id}");
        assert!(!set.trade_deck_of(roe()).contains(&c));
    }
    assert_eq!(set.def(set.find("Contrebandier").unwrap()).id(), "smuggler");
    assert_eq!(
        set.def(set.find("Police du Système").unwrap()).id(),
        "system_police"
    );
}

#[test]
fn eight_sheets_of_five_rows_each_sticker_usable() {
    let set = set();
    assert_eq!(set.sheets.len(), 8);
    for scenario in 1..=4u8 {
        for (side, faction) in [
            ("empire", Faction::StarEmpire),
            ("federation", Faction::TradeFederation),
        ] {
            let id = format!("s{scenario}_{side}");
            let i = set
                .find_sheet(&id)
                .unwrap_or_else(|| panic!("no sheet `{id}`")) as usize;
            let sheet = &set.sheets[i];
            assert_eq!(sheet.side, faction, "{id}");
            assert_eq!(sheet.scenario, Some(scenario), "{id}");
            assert_eq!(sheet.row.len(), 5, "{id}");
            for (r, row) in sheet.row.iter().enumerate() {
                for column in [Column::Ship, Column::Base] {
                    if row.sticker(column).is_none() {
                        continue;
                    }
                    let made = set
                        .iter()
                        .filter(|(_, d)| {
                            d.upgrade
                                .is_some_and(|u| u.sheet as usize == i && u.row as usize == r)
                                && Column::of(d.kind()) == column
                        })
                        .count();
                    assert!(
                        made > 0,
                        "{id} row {}: its {column:?} sticker fits no card",
                        r + 1
                    );
                }
            }
        }
    }
}

#[test]
fn every_upgraded_card_has_two_factions_and_no_on_acquire() {
    let set = set();
    let mut n = 0;
    for (c, d) in set.iter() {
        let Some(u) = d.upgrade else { continue };
        n += 1;
        let printed = set.def(u.of);
        let side = set.sheets[u.sheet as usize].side;
        assert_eq!(
            d.member_factions(),
            vec![printed.spec.faction.unwrap(), side],
            "{c}"
        );
        assert!(d.spec.on_acquire.is_empty(), "{c}");
        assert_eq!(d.cost(), printed.cost(), "{c}");
        assert_eq!(d.kind(), printed.kind(), "{c}");
        assert_eq!(set.upgraded(u.of, u.sheet, u.row), Some(c));
        assert!(d.spec.primary.len() >= printed.spec.primary.len());
    }
    assert!(n > 0);
    assert!(set.len() <= starrealms::cards::MAX_KINDS);
}

#[test]
fn the_post_campaign_pack_has_24_cards_of_its_own_set_in_no_deck_before() {
    let set = set();
    let post = Sets::parse("rise_of_empire_post").unwrap();
    let pack = set.trade_deck_of(post);
    assert_eq!(pack.len(), 24);
    for f in [Faction::Consortium, Faction::Kingdom, Faction::Scavengers] {
        let n = pack
            .iter()
            .filter(|&&c| set.def(c).spec.faction == Some(f))
            .count();
        assert_eq!(n, 8, "{f:?}");
    }
    let before = [
        set.trade_deck_of(roe()),
        set.trade_deck_of(Sets::default()),
        set.trade_deck_of(Sets::parse("base,rise_of_empire").unwrap()),
    ];
    for &c in &pack {
        let d = set.def(c);
        assert_eq!(set.sets[d.set as usize].name, "rise_of_empire_post", "{c}");
        assert_eq!(d.spec.role, Role::Trade, "{c}");
        assert!((1..=8).contains(&d.cost()), "{c}");
        assert!(!d.spec.name.en.is_empty() && !d.spec.name.fr.is_empty());
        assert_ne!(d.spec.name.en, d.spec.name.fr, "{c}: translated");
        for deck in &before {
            assert!(
                !deck.contains(&c),
                "{c} is in a trade deck before the campaign is over"
            );
        }
        // No sheet upgrades it: the sheets' stickers are used during the campaign.
        for sheet in 0..set.sheets.len() as u16 {
            for row in 0..5 {
                assert_eq!(set.upgraded(c, sheet, row), None, "{c}");
            }
        }
    }
    assert_eq!(
        set.explorers_of(roe()),
        20,
        "the campaign's Explorer pile is unchanged"
    );
}
