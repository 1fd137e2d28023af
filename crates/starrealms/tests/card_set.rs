//! The embedded base set (`cards/base.toml`) against the published card list
//! (`/work/shared/cards-base-set.md`), and the loader's error reports.

use game::refusal::Why;
use starrealms::cards::{CardError, CardSet, Effect, Faction, Kind, Role, ScrapFrom, Sets};

use Faction::{Blob as B, MachineCult as MC, StarEmpire as SE, TradeFederation as TF};
use Kind::{Base as BASE, Outpost as OUT, Ship as SHIP};

/// Every trade-deck card: (id, faction, cost, kind, defense, copies), in the order of the
/// published list. Typed from the card list, not from the data file.
const TRADE_CARDS: &[(&str, Faction, u8, Kind, u8, u8)] = &[
    // Trade Federation
    ("federation_shuttle", TF, 1, SHIP, 0, 3),
    ("cutter", TF, 2, SHIP, 0, 3),
    ("embassy_yacht", TF, 3, SHIP, 0, 2),
    ("freighter", TF, 4, SHIP, 0, 2),
    ("trade_escort", TF, 5, SHIP, 0, 1),
    ("flagship", TF, 6, SHIP, 0, 1),
    ("command_ship", TF, 8, SHIP, 0, 1),
    ("trading_post", TF, 3, OUT, 4, 2),
    ("barter_world", TF, 4, BASE, 4, 2),
    ("defense_center", TF, 5, OUT, 5, 1),
    ("port_of_call", TF, 6, OUT, 6, 1),
    ("central_office", TF, 7, BASE, 6, 1),
    // Blob
    ("blob_fighter", B, 1, SHIP, 0, 3),
    ("trade_pod", B, 2, SHIP, 0, 3),
    ("battle_pod", B, 2, SHIP, 0, 2),
    ("ram", B, 3, SHIP, 0, 2),
    ("blob_destroyer", B, 4, SHIP, 0, 2),
    ("battle_blob", B, 6, SHIP, 0, 1),
    ("blob_carrier", B, 6, SHIP, 0, 1),
    ("mothership", B, 7, SHIP, 0, 1),
    ("blob_wheel", B, 3, BASE, 5, 3),
    ("the_hive", B, 5, BASE, 5, 1),
    ("blob_world", B, 8, BASE, 7, 1),
    // Star Empire
    ("imperial_fighter", SE, 1, SHIP, 0, 3),
    ("corvette", SE, 2, SHIP, 0, 2),
    ("imperial_frigate", SE, 3, SHIP, 0, 3),
    ("survey_ship", SE, 3, SHIP, 0, 3),
    ("battlecruiser", SE, 6, SHIP, 0, 1),
    ("dreadnaught", SE, 7, SHIP, 0, 1),
    ("recycling_station", SE, 4, OUT, 4, 2),
    ("space_station", SE, 4, OUT, 4, 2),
    ("war_world", SE, 5, OUT, 4, 1),
    ("royal_redoubt", SE, 6, OUT, 6, 1),
    ("fleet_hq", SE, 8, BASE, 8, 1),
    // Machine Cult
    ("trade_bot", MC, 1, SHIP, 0, 3),
    ("missile_bot", MC, 2, SHIP, 0, 3),
    ("supply_bot", MC, 3, SHIP, 0, 3),
    ("patrol_mech", MC, 4, SHIP, 0, 2),
    ("stealth_needle", MC, 4, SHIP, 0, 1),
    ("battle_mech", MC, 5, SHIP, 0, 1),
    ("missile_mech", MC, 6, SHIP, 0, 1),
    ("battle_station", MC, 3, OUT, 5, 2),
    ("mech_world", MC, 5, OUT, 6, 1),
    ("junkyard", MC, 6, OUT, 5, 1),
    ("machine_base", MC, 7, OUT, 6, 1),
    ("brain_world", MC, 8, OUT, 6, 1),
];

/// Every card kind: (id, English name, French name), in file order.
const NAMES: &[(&str, &str, &str)] = &[
    ("scout", "Scout", "Éclaireur"),
    ("viper", "Viper", "Viper"),
    ("explorer", "Explorer", "Prospecteur"),
    (
        "federation_shuttle",
        "Federation Shuttle",
        "Navette de la Fédération",
    ),
    ("cutter", "Cutter", "Vedette"),
    ("embassy_yacht", "Embassy Yacht", "Navire Embassade"),
    ("freighter", "Freighter", "Vaisseau-Cargo"),
    ("trade_escort", "Trade Escort", "Escorte Commerciale"),
    ("flagship", "Flagship", "Vaisseau Amiral"),
    ("command_ship", "Command Ship", "Haut Commandement"),
    ("trading_post", "Trading Post", "Poste de Négoce"),
    ("barter_world", "Barter World", "Monde de Négoce"),
    ("defense_center", "Defense Center", "Centre de Défense"),
    ("port_of_call", "Port of Call", "Port d'Attache"),
    (
        "central_office",
        "Central Office",
        "Administration Centrale",
    ),
    ("blob_fighter", "Blob Fighter", "Blob Soldat"),
    ("trade_pod", "Trade Pod", "Pod Commercial"),
    ("battle_pod", "Battle Pod", "Pod Combattant"),
    ("ram", "Ram", "Bélier"),
    ("blob_destroyer", "Blob Destroyer", "Blob Destroyer"),
    ("battle_blob", "Battle Blob", "Blob Combattant"),
    ("blob_carrier", "Blob Carrier", "Blob Transporteur"),
    ("mothership", "Mothership", "Vaisseau-Mère"),
    ("blob_wheel", "Blob Wheel", "Station Rotative Blob"),
    ("the_hive", "The Hive", "La Ruche"),
    ("blob_world", "Blob World", "Monde-Colonie"),
    ("imperial_fighter", "Imperial Fighter", "Chasseur Impérial"),
    ("corvette", "Corvette", "Corvette"),
    ("imperial_frigate", "Imperial Frigate", "Frégate Impériale"),
    ("survey_ship", "Survey Ship", "Vaisseau de Reconnaissance"),
    ("battlecruiser", "Battlecruiser", "Croiseur de Combat"),
    ("dreadnaught", "Dreadnaught", "Cuirassé"),
    (
        "recycling_station",
        "Recycling Station",
        "Relais de Recyclage",
    ),
    ("space_station", "Space Station", "Station Spatiale"),
    ("war_world", "War World", "Monde Hostile"),
    ("royal_redoubt", "Royal Redoubt", "Retraite Impériale"),
    ("fleet_hq", "Fleet HQ", "QG de la Flotte"),
    ("trade_bot", "Trade Bot", "Drone Marchand"),
    ("missile_bot", "Missile Bot", "Drone Artilleur"),
    ("supply_bot", "Supply Bot", "Drone Ravitailleur"),
    ("patrol_mech", "Patrol Mech", "Mecha-Patrouilleur"),
    ("stealth_needle", "Stealth Needle", "Fantôme"),
    ("battle_mech", "Battle Mech", "Mecha-Combattant"),
    ("missile_mech", "Missile Mech", "Mécha-Artilleur"),
    ("battle_station", "Battle Station", "Poste de Combat"),
    ("mech_world", "Mech World", "Mecha-Monde"),
    ("junkyard", "Junkyard", "Décharge"),
    ("machine_base", "Machine Base", "Techno-Base"),
    ("brain_world", "Brain World", "Cerveau-Monde"),
];

fn set() -> &'static CardSet {
    CardSet::base()
}

fn card(id: &str) -> &'static starrealms::cards::CardDef {
    let set = set();
    set.def(set.find(id).unwrap_or_else(|| panic!("no card `{id}`")))
}

#[test]
fn base_set_has_49_kinds() {
    // 3 unaligned kinds (Scout, Viper, Explorer) + 46 trade-card kinds (80 cards).
    assert_eq!(set().len(), 49);
    assert_eq!(set().iter().count(), 49);
    assert_eq!(
        set()
            .iter()
            .filter(|(_, d)| d.spec.role == Role::Trade)
            .count(),
        46
    );
}

#[test]
fn trade_deck_has_80_cards() {
    let total: u32 = set()
        .iter()
        .filter(|(_, d)| d.spec.role == Role::Trade)
        .map(|(_, d)| u32::from(d.spec.count))
        .sum();
    assert_eq!(total, 80);
}

#[test]
fn twenty_cards_per_faction() {
    for faction in &Faction::ALL[..4] {
        let n: u32 = set()
            .iter()
            .filter(|(_, d)| d.spec.role == Role::Trade && d.spec.faction == Some(*faction))
            .map(|(_, d)| u32::from(d.spec.count))
            .sum();
        assert_eq!(n, 20, "{faction:?}");
    }
    // Every trade card has a faction; no unaligned card has one.
    for (_, d) in set().iter() {
        assert_eq!(
            d.spec.role == Role::Trade,
            d.spec.faction.is_some(),
            "{}",
            d.id()
        );
    }
}

#[test]
fn trade_cards_match_the_published_list() {
    let actual: Vec<(&str, Faction, u8, Kind, u8, u8)> = set()
        .iter()
        .filter(|(_, d)| d.spec.role == Role::Trade)
        .map(|(_, d)| {
            (
                d.id(),
                d.spec.faction.expect("trade card with a faction"),
                d.cost(),
                d.kind(),
                d.defense(),
                d.spec.count,
            )
        })
        .collect();
    for (i, expected) in TRADE_CARDS.iter().enumerate() {
        assert_eq!(actual.get(i), Some(expected), "trade card #{i}");
    }
    assert_eq!(actual.len(), TRADE_CARDS.len());
    // Ships have no defense field at all; bases a positive one.
    for (_, d) in set().iter() {
        assert_eq!(d.kind().is_base(), d.spec.defense.is_some(), "{}", d.id());
    }
}

#[test]
fn starting_and_explorer_cards() {
    let set = set();
    let scout = set.def(set.scout);
    assert_eq!(
        (scout.id(), scout.spec.role, scout.spec.count, scout.cost()),
        ("scout", Role::Starting, 8, 0)
    );
    assert_eq!(scout.spec.primary, vec![Effect::Trade(1)]);
    let viper = set.def(set.viper);
    assert_eq!(
        (viper.id(), viper.spec.role, viper.spec.count, viper.cost()),
        ("viper", Role::Starting, 2, 0)
    );
    assert_eq!(viper.spec.primary, vec![Effect::Combat(1)]);
    let explorer = set.def(set.explorer);
    assert_eq!(
        (
            explorer.id(),
            explorer.spec.role,
            explorer.spec.count,
            explorer.cost()
        ),
        ("explorer", Role::Explorer, 10, 2)
    );
    assert_eq!(explorer.spec.primary, vec![Effect::Trade(2)]);
    assert_eq!(explorer.spec.scrap, vec![Effect::Combat(2)]);
    for d in [scout, viper, explorer] {
        assert_eq!(d.kind(), Kind::Ship);
        assert_eq!(d.spec.faction, None);
        assert_eq!(d.factions, 0);
    }
}

#[test]
fn outposts_are_exactly_the_listed_ones() {
    let mut outposts: Vec<&str> = set()
        .iter()
        .filter(|(_, d)| d.kind() == Kind::Outpost)
        .map(|(_, d)| d.id())
        .collect();
    outposts.sort_unstable();
    let mut expected = vec![
        "trading_post",
        "defense_center",
        "port_of_call",
        "recycling_station",
        "space_station",
        "war_world",
        "royal_redoubt",
        "battle_station",
        "mech_world",
        "junkyard",
        "machine_base",
        "brain_world",
    ];
    expected.sort_unstable();
    assert_eq!(outposts, expected);
    let mut bases: Vec<&str> = set()
        .iter()
        .filter(|(_, d)| d.kind() == Kind::Base)
        .map(|(_, d)| d.id())
        .collect();
    bases.sort_unstable();
    assert_eq!(
        bases,
        [
            "barter_world",
            "blob_wheel",
            "blob_world",
            "central_office",
            "fleet_hq",
            "the_hive"
        ]
    );
}

#[test]
fn names_in_both_languages() {
    let set = set();
    let ids: Vec<&str> = set.iter().map(|(_, d)| d.id()).collect();
    let expected: Vec<&str> = NAMES.iter().map(|n| n.0).collect();
    assert_eq!(ids, expected);
    for &(id, en, fr) in NAMES {
        let c = set.find(id).unwrap_or_else(|| panic!("id `{id}`"));
        let d = set.def(c);
        assert_eq!(d.name("en"), en);
        assert_eq!(d.name("fr"), fr);
        assert_eq!(set.find(en), Some(c), "{en}");
        assert_eq!(set.find(fr), Some(c), "{fr}");
        assert!(!d.spec.text.trim().is_empty(), "{id} has no text");
    }
    // Case, accents, spaces and punctuation are ignored.
    let shuttle = set.find("federation_shuttle");
    assert!(shuttle.is_some());
    assert_eq!(set.find("Navette de la Fédération"), shuttle);
    assert_eq!(set.find("navette de la federation"), shuttle);
    assert_eq!(set.find("federation shuttle"), shuttle);
    assert_eq!(set.find("BLOB WORLD"), set.find("blob_world"));
    assert_eq!(set.find("monde colonie"), set.find("blob_world"));
    assert_eq!(set.find("ÉCLAIREUR"), Some(set.scout));
    assert_eq!(set.find("Port d’Attache"), set.find("port_of_call"));
    assert_eq!(set.find("no such card"), None);
}

#[test]
fn effects_of_the_special_cards() {
    let optional_scrap = Effect::Scrap {
        from: ScrapFrom::HandOrDiscard,
        count: 1,
        optional: true,
        draw_per_card: false,
        combat_per_card: 0,
        combat_for_cost: false,
    };
    let forced_scrap = Effect::Scrap {
        from: ScrapFrom::HandOrDiscard,
        count: 1,
        optional: false,
        draw_per_card: false,
        combat_per_card: 0,
        combat_for_cost: false,
    };
    assert_eq!(
        card("cutter").spec.primary,
        vec![Effect::Authority(4), Effect::Trade(2)]
    );
    assert_eq!(
        card("flagship").spec.primary,
        vec![Effect::Combat(5), Effect::Draw(1)]
    );
    assert_eq!(
        card("embassy_yacht").spec.primary,
        vec![
            Effect::Authority(3),
            Effect::Trade(2),
            Effect::DrawIfBases { bases: 2, draw: 2 }
        ]
    );
    assert_eq!(card("freighter").spec.ally, vec![Effect::NextShipOnTop]);
    assert_eq!(
        card("central_office").spec.primary,
        vec![Effect::Trade(2), Effect::NextShipOnTop]
    );
    assert_eq!(
        card("command_ship").spec.ally,
        vec![Effect::DestroyBase { optional: false }]
    );
    assert_eq!(
        card("trading_post").spec.primary,
        vec![Effect::Choose(vec![
            vec![Effect::Authority(1)],
            vec![Effect::Trade(1)]
        ])]
    );
    let destroy_after_draw = vec![Effect::Draw(1), Effect::DestroyBase { optional: true }];
    assert_eq!(card("port_of_call").spec.scrap, destroy_after_draw);
    assert_eq!(card("battlecruiser").spec.scrap, destroy_after_draw);
    assert_eq!(
        card("battle_pod").spec.primary,
        vec![
            Effect::Combat(4),
            Effect::ScrapTradeRow {
                optional: true,
                count: 1,
                combat_for_cost: false,
            }
        ]
    );
    assert_eq!(
        card("blob_destroyer").spec.ally,
        vec![
            Effect::DestroyBase { optional: true },
            Effect::ScrapTradeRow {
                optional: true,
                count: 1,
                combat_for_cost: false,
            }
        ]
    );
    assert_eq!(
        card("blob_carrier").spec.ally,
        vec![Effect::AcquireShipFreeOnTop]
    );
    assert_eq!(
        card("blob_world").spec.primary,
        vec![Effect::Choose(vec![
            vec![Effect::Combat(5)],
            vec![Effect::DrawPerPlayed(Faction::Blob)]
        ])]
    );
    assert_eq!(
        card("imperial_fighter").spec.primary,
        vec![Effect::Combat(2), Effect::OpponentDiscards]
    );
    assert_eq!(
        card("survey_ship").spec.scrap,
        vec![Effect::OpponentDiscards]
    );
    assert_eq!(
        card("recycling_station").spec.primary,
        vec![Effect::Choose(vec![
            vec![Effect::Trade(1)],
            vec![Effect::DiscardThenDraw(2)]
        ])]
    );
    let fleet_hq = card("fleet_hq");
    assert!(fleet_hq.spec.primary.is_empty());
    assert_eq!(fleet_hq.combat_per_ship, 1);
    assert!(
        fleet_hq
            .spec
            .text
            .contains("Whenever you play a ship, gain 1 Combat.")
    );
    assert_eq!(
        card("trade_bot").spec.primary,
        vec![Effect::Trade(1), optional_scrap.clone()]
    );
    assert_eq!(
        card("battle_mech").spec.primary,
        vec![Effect::Combat(4), optional_scrap]
    );
    assert_eq!(card("patrol_mech").spec.ally, vec![forced_scrap.clone()]);
    assert_eq!(card("junkyard").spec.primary, vec![forced_scrap]);
    assert_eq!(card("stealth_needle").spec.primary, vec![Effect::CopyShip]);
    assert_eq!(
        card("missile_mech").spec.primary,
        vec![Effect::Combat(6), Effect::DestroyBase { optional: true }]
    );
    let mech_world = card("mech_world");
    assert!(mech_world.spec.primary.is_empty());
    assert!(mech_world.ally_for_all);
    assert_eq!(mech_world.factions, starrealms::cards::ALL_FACTIONS);
    assert_eq!(
        card("machine_base").spec.primary,
        vec![
            Effect::Draw(1),
            Effect::Scrap {
                from: ScrapFrom::Hand,
                count: 1,
                optional: false,
                draw_per_card: false,
                combat_per_card: 0,
                combat_for_cost: false,
            }
        ]
    );
    assert_eq!(
        card("brain_world").spec.primary,
        vec![Effect::Scrap {
            from: ScrapFrom::HandOrDiscard,
            count: 2,
            optional: true,
            draw_per_card: true,
            combat_per_card: 0,
            combat_for_cost: false,
        }]
    );
    // Only the two static bases have statics; no other card gets a free ally or combat.
    for (_, d) in set().iter() {
        let special = matches!(d.id(), "mech_world" | "fleet_hq");
        assert_eq!(!d.spec.statics.is_empty(), special, "{}", d.id());
    }
}

// ------------------------------------------------------------------------------ error reports

/// A valid minimal file: the three cards every set needs, 28 lines: `[[card]]` on lines 1, 10
/// and 19; `primary` on 8, 17 and 27; the Explorer's `scrap` on 28.
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

#[test]
fn minimal_file_parses() {
    let set = CardSet::parse("minimal.toml", MINIMAL).expect("valid");
    assert_eq!(set.len(), 3);
    assert_eq!(set.def(set.explorer).id(), "explorer");
}

#[test]
fn unknown_effect_word_reports_its_line() {
    // Line 8 is the scout's `primary`; the typo is on it.
    let text = MINIMAL.replace("primary = [{ trade = 1 }]", "primary = [{ tradee = 1 }]");
    assert_eq!(text.lines().nth(7), Some("primary = [{ tradee = 1 }]"));
    let err = CardSet::parse("broken.toml", &text).unwrap_err();
    assert_eq!(err.file, "broken.toml");
    assert_eq!(err.line, 8, "{err}");
    assert!(err.reason().contains("tradee"), "{err}");
    assert!(err.to_string().starts_with("broken.toml:8: "), "{err}");
}

#[test]
fn unknown_effect_word_on_line_9() {
    let text = "# a small designer file\n\n[[card]]\nid = \"odd\"\nname = { en = \"Odd\", fr = \"Bizarre\" }\nkind = \"ship\"\ncount = 1\ntext = \"Primary: Add 2 Trade.\"\nprimary = [{ tradee = 2 }]\n";
    assert_eq!(text.lines().nth(8), Some("primary = [{ tradee = 2 }]"));
    let err = CardSet::parse("odd.toml", text).unwrap_err();
    assert_eq!((err.file.as_str(), err.line), ("odd.toml", 9), "{err}");
    assert!(err.reason().contains("`tradee`"), "{err}");
}

#[test]
fn unknown_unit_effect_and_unknown_field_report_their_lines() {
    let text = MINIMAL.replace("scrap = [{ combat = 2 }]", "scrap = [\"opponent_discard\"]");
    let err = CardSet::parse("unit.toml", &text).unwrap_err();
    assert_eq!(err.line, 28, "{err}");
    assert!(err.reason().contains("opponent_discard"), "{err}");

    let text = MINIMAL.replace("count = 2\n", "count = 2\ncolour = \"red\"\n");
    let err = CardSet::parse("field.toml", &text).unwrap_err();
    assert_eq!(err.line, 15, "{err}");
    assert!(err.reason().contains("colour"), "{err}");

    let text = MINIMAL.replace(
        "[{ combat = 1 }]",
        "[{ scrap = { from = \"hand\", count = 1, optionall = true } }]",
    );
    let err = CardSet::parse("nested.toml", &text).unwrap_err();
    assert_eq!(err.line, 17, "{err}");
    assert!(err.reason().contains("optionall"), "{err}");
}

#[test]
fn base_without_defense_reports_its_card_line() {
    let text = format!(
        "{MINIMAL}\n[[card]]\nid = \"wall\"\nname = {{ en = \"Wall\", fr = \"Mur\" }}\nfaction = \"blob\"\ncost = 3\nkind = \"base\"\ncount = 1\ntext = \"Primary: Add 1 Combat.\"\nprimary = [{{ combat = 1 }}]\n"
    );
    assert_eq!(text.lines().nth(29), Some("[[card]]"));
    let err = CardSet::parse("wall.toml", &text).unwrap_err();
    assert_eq!(err.file, "wall.toml");
    assert_eq!(err.line, 30, "{err}");
    assert!(err.reason().contains("wall"), "{err}");
    assert!(err.reason().contains("defense"), "{err}");
}

#[test]
fn syntax_error_reports_its_line() {
    // Unterminated string on line 16.
    let text = MINIMAL.replace(
        "text = \"Primary: Add 1 Combat.\"",
        "text = \"Primary: Add 1 Combat.",
    );
    let err = CardSet::parse("syntax.toml", &text).unwrap_err();
    assert_eq!((err.file.as_str(), err.line), ("syntax.toml", 16), "{err}");

    // Missing `=` on line 14.
    let text = MINIMAL.replace("count = 2\n", "count 2\n");
    let err = CardSet::parse("syntax.toml", &text).unwrap_err();
    assert_eq!(err.line, 14, "{err}");

    // Unclosed array on line 8: TOML arrays may span lines, so the parser reads on and reports
    // the first thing that cannot continue the array, the `[[card]]` header on line 10.
    let text = MINIMAL.replace("primary = [{ trade = 1 }]", "primary = [{ trade = 1 }");
    let err = CardSet::parse("syntax.toml", &text).unwrap_err();
    assert_eq!(err.line, 10, "{err}");
}

#[test]
fn unknown_kind_and_faction_report_their_lines() {
    let text = MINIMAL.replace(
        "kind = \"ship\"\ncount = 10",
        "kind = \"shipp\"\ncount = 10",
    );
    let err = CardSet::parse("kind.toml", &text).unwrap_err();
    assert_eq!(err.line, 23, "{err}");
    assert!(err.reason().contains("shipp"), "{err}");

    let text = MINIMAL.replace("cost = 2\n", "faction = \"blobs\"\ncost = 2\n");
    let err = CardSet::parse("faction.toml", &text).unwrap_err();
    assert_eq!(err.line, 22, "{err}");
    assert!(err.reason().contains("blobs"), "{err}");
}

/// A random game's record under the cards in use on this thread.
fn random_game(seed: u64) -> (Vec<starrealms::Action>, u32) {
    use game::State as _;
    let mut state = starrealms::State::new_game(&starrealms::Config::default(), seed).unwrap();
    let mut rng = game::rng_from_seed(seed);
    let mut buf = Vec::new();
    let mut actions = Vec::new();
    while !state.is_terminal() {
        let a = starrealms::rollout::random_action(&state, &mut buf, &mut rng);
        actions.push(a);
        state.apply(a).unwrap();
    }
    (actions, state.turn)
}

#[test]
fn two_card_sets_play_side_by_side_in_one_process() {
    let base = include_str!("../cards/base.toml");
    let strong = base.replacen(
        "id = \"viper\"",
        "id = \"viper\"\n# stronger for this test",
        1,
    );
    let at = strong.find("# stronger for this test").unwrap();
    let end = at + strong[at..].find("primary = [{ combat = 1 }]").unwrap();
    let strong = format!(
        "{}primary = [{{ combat = 5 }}]{}",
        &strong[..end],
        &strong[end + "primary = [{ combat = 1 }]".len()..]
    );
    let a = starrealms::leak_card_set(starrealms::CardSet::parse("base.toml", base).unwrap());
    let b = starrealms::leak_card_set(starrealms::CardSet::parse("strong.toml", &strong).unwrap());
    assert_ne!(a.fingerprint(), b.fingerprint());
    let seeds: Vec<u64> = (0..40).collect();
    let alone = |set| {
        starrealms::with_card_set(set, || {
            seeds.iter().map(|&s| random_game(s)).collect::<Vec<_>>()
        })
    };
    let (first, second) = (alone(a), alone(b));
    // The same games, each set on its own thread at the same time.
    let (x, y) = std::thread::scope(|scope| {
        let x = scope.spawn(|| alone(a));
        let y = scope.spawn(|| alone(b));
        (x.join().unwrap(), y.join().unwrap())
    });
    assert_eq!(x, first);
    assert_eq!(y, second);
    // Vipers of 5 combat end games sooner: the sets really differ.
    let turns = |games: &[(Vec<starrealms::Action>, u32)]| games.iter().map(|g| g.1).sum::<u32>();
    assert!(
        turns(&second) < turns(&first),
        "{} vs {}",
        turns(&second),
        turns(&first)
    );
    // Outside the closures the thread's set is the process's again.
    assert!(!std::ptr::eq(starrealms::cards(), b));
}

// ------------------------------------------------------- realms' own checks, worded by the table
//
// A card file that realms' own checks refuse says why in parts of the translation table (from
// the place to the fault), whose English is the error's text: people read it in their language.

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

/// The error of a file realms' own checks refuse, checked: its keys from the place to the
/// fault are `keys`, and its English, the error's text, is `english`.
fn refused(text: &str, keys: &[&str], english: &str) -> CardError {
    let err = CardSet::parse("broken.toml", text).unwrap_err();
    assert_eq!(err.why.keys(), keys, "{err}");
    assert_eq!(err.reason(), english);
    err
}

#[test]
fn a_ship_with_a_defense_is_refused_within_its_card() {
    let text = MINIMAL.replace("count = 2\n", "count = 2\ndefense = 3\n");
    let err = refused(
        &text,
        &["file.card.in_card", "file.card.no_defense"],
        "card `viper`: a ship has no `defense`",
    );
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
    refused(
        &text,
        &["file.card.in_card", "file.card.choose_options"],
        "card `viper`: `choose` needs 2 to 4 options",
    );

    let text = MINIMAL.replace(
        "primary = [{ combat = 1 }]",
        "primary = [{ choose = [[{ combat = 1 }], [{ choose = [[], []] }]] }]",
    );
    refused(
        &text,
        &["file.card.in_card", "file.card.choose_nested"],
        "card `viper`: `choose` cannot nest",
    );
}

#[test]
fn a_broken_sheet_row_is_refused_within_its_sheet_and_row() {
    // A sticker whose `choose` has one option: the sheet, the row, the fault.
    let row2 =
        r#"ship = { text = "and add 1 Combat.", primary = [{ choose = [[{ combat = 1 }]] }] }"#;
    let text = format!("{MINIMAL}{}", sheet(row2));
    refused(
        &text,
        &[
            "file.card.in_sheet",
            "file.card.in_row",
            "file.card.choose_options",
        ],
        "sheet `t_sheet`: row 2: `choose` needs 2 to 4 options",
    );
    // A row without a sticker.
    refused(
        &format!("{MINIMAL}{}", sheet("")),
        &["file.card.in_sheet", "file.card.row_no_sticker"],
        "sheet `t_sheet`: row 2 has no sticker",
    );
    // A sticker without its text.
    let row2 = r#"base = { text = " ", primary = [{ combat = 1 }] }"#;
    refused(
        &format!("{MINIMAL}{}", sheet(row2)),
        &[
            "file.card.in_sheet",
            "file.card.in_row",
            "file.card.sticker_no_text",
        ],
        "sheet `t_sheet`: row 2: a sticker needs its printed `text`",
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
    refused(
        &format!("{MINIMAL}{drone}{}", sheet(row2)),
        &[
            "file.card.in_sheet_row",
            "file.card.ally_sticker_no_faction",
        ],
        "sheet `t_sheet`, row 2: its ally sticker cannot go on `drone`, which has no faction",
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
    let err = refused(
        &format!("{MINIMAL}{twin}"),
        &["file.card.in_card", "file.card.name_used"],
        "card `twin`: name `eclaireur` is already used",
    );
    assert_eq!(err.line, 30, "{err}");
}

#[test]
fn a_set_without_its_scout_or_explorer_is_refused() {
    let text = MINIMAL.replace("id = \"scout\"", "id = \"scoot\"");
    let err = refused(
        &text,
        &["file.card.no_starting"],
        "the set needs a starting card `scout`",
    );
    assert_eq!((err.file.as_str(), err.line), ("broken.toml", 0));

    let text = MINIMAL.replace("role = \"explorer\"", "role = \"trade\"");
    refused(
        &text,
        &["file.card.one_explorer"],
        "the set needs exactly one Explorer card",
    );
}

#[test]
fn extending_another_set_and_a_sheet_id_used_twice_are_refused() {
    let err = refused(
        &format!("extends = \"frontiers\"\n{MINIMAL}"),
        &["file.card.extends_other"],
        "`extends = \"frontiers\"`: only the embedded \"base\" set can be extended",
    );
    assert_eq!(err.line, 1);

    let row2 = r#"ship = { text = "and add 1 Combat.", primary = [{ combat = 1 }] }"#;
    let text = format!("{MINIMAL}{}{}", sheet(row2), sheet(row2));
    refused(
        &text,
        &["file.card.in_sheet", "file.card.sheet_id_used"],
        "sheet `t_sheet`: the id is already used",
    );
}

#[test]
fn the_parsers_words_are_kept_as_a_text() {
    let text = MINIMAL.replace("primary = [{ trade = 1 }]", "primary = [{ tradee = 1 }]");
    let err = CardSet::parse("broken.toml", &text).unwrap_err();
    assert_eq!(err.why.keys(), ["file.text"], "{err}");
    assert!(err.reason().contains("tradee"), "{err}");
}

#[test]
fn an_unknown_card_set_is_worded_by_the_table() {
    let why = Sets::parse("base,nope").unwrap_err();
    assert_eq!(
        why,
        Why::new(
            "file.card.unknown_set",
            &[
                ("name", &"nope"),
                (
                    "known",
                    &"base, colony_wars, frontiers, rise_of_empire, rise_of_empire_post"
                )
            ]
        )
    );
    assert_eq!(
        why.english(),
        "unknown card set `nope` (known: base, colony_wars, frontiers, rise_of_empire, rise_of_empire_post)"
    );
    assert_eq!(
        Sets::from_names::<&str>(&[]).unwrap_err(),
        Why::new("file.card.no_set", &[])
    );
}
