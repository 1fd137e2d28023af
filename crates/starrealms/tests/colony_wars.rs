//! The embedded *Colony Wars* set (`cards/colony_wars.toml`) against the published card list
//! (`/work/shared/cards-colony-wars.md`), and games of it alone and mixed with the base set.

use game::Action as _;
use game::GameRecord;
use game::record::Recorded;
use starrealms::cards::{CardSet, Faction, Kind, Role, Sets};
use starrealms::{Config, Format, State, cards, rollout};

use Faction::{Blob as B, MachineCult as MC, StarEmpire as SE, TradeFederation as TF};
use Kind::{Base as BASE, Outpost as OUT, Ship as SHIP};

/// Every trade card: (id, English name, faction, cost, kind, defense, copies), typed from the
/// card list, not from the data file.
const TRADE_CARDS: &[(&str, &str, Faction, u8, Kind, u8, u8)] = &[
    ("swarmer", "Swarmer", B, 1, SHIP, 0, 3),
    ("predator", "Predator", B, 2, SHIP, 0, 3),
    ("stellar_reef", "Stellar Reef", B, 2, BASE, 3, 3),
    ("cargo_pod", "Cargo Pod", B, 3, SHIP, 0, 3),
    ("ravager", "Ravager", B, 3, SHIP, 0, 2),
    ("bioformer", "Bioformer", B, 4, BASE, 4, 2),
    ("parasite", "Parasite", B, 5, SHIP, 0, 1),
    ("plasma_vent", "Plasma Vent", B, 6, BASE, 5, 1),
    ("moonwurm", "Moonwurm", B, 7, SHIP, 0, 1),
    ("leviathan", "Leviathan", B, 8, SHIP, 0, 1),
    ("battle_bot", "Battle Bot", MC, 1, SHIP, 0, 3),
    ("repair_bot", "Repair Bot", MC, 2, SHIP, 0, 3),
    ("warning_beacon", "Warning Beacon", MC, 2, OUT, 2, 3),
    ("convoy_bot", "Convoy Bot", MC, 3, SHIP, 0, 3),
    ("mining_mech", "Mining Mech", MC, 4, SHIP, 0, 2),
    ("the_oracle", "The Oracle", MC, 4, OUT, 5, 1),
    ("mech_cruiser", "Mech Cruiser", MC, 5, SHIP, 0, 1),
    ("stealth_tower", "Stealth Tower", MC, 5, OUT, 5, 1),
    ("frontier_station", "Frontier Station", MC, 6, OUT, 6, 1),
    ("the_wrecker", "The Wrecker", MC, 7, SHIP, 0, 1),
    ("the_incinerator", "The Incinerator", MC, 8, OUT, 6, 1),
    ("star_barge", "Star Barge", SE, 1, SHIP, 0, 3),
    ("lancer", "Lancer", SE, 2, SHIP, 0, 3),
    ("orbital_platform", "Orbital Platform", SE, 3, BASE, 4, 3),
    ("falcon", "Falcon", SE, 3, SHIP, 0, 2),
    ("gunship", "Gunship", SE, 4, SHIP, 0, 2),
    ("command_center", "Command Center", SE, 4, OUT, 4, 2),
    ("heavy_cruiser", "Heavy Cruiser", SE, 5, SHIP, 0, 1),
    ("aging_battleship", "Aging Battleship", SE, 5, SHIP, 0, 1),
    ("supply_depot", "Supply Depot", SE, 6, OUT, 5, 1),
    ("imperial_palace", "Imperial Palace", SE, 7, OUT, 6, 1),
    (
        "emperors_dreadnaught",
        "Emperor's Dreadnaught",
        SE,
        8,
        SHIP,
        0,
        1,
    ),
    ("solar_skiff", "Solar Skiff", TF, 1, SHIP, 0, 3),
    ("trade_hauler", "Trade Hauler", TF, 2, SHIP, 0, 3),
    ("storage_silo", "Storage Silo", TF, 2, BASE, 3, 2),
    ("patrol_cutter", "Patrol Cutter", TF, 3, SHIP, 0, 3),
    ("frontier_ferry", "Frontier Ferry", TF, 4, SHIP, 0, 2),
    ("central_station", "Central Station", TF, 4, BASE, 5, 2),
    ("colony_seed_ship", "Colony Seed Ship", TF, 5, SHIP, 0, 1),
    ("peacekeeper", "Peacekeeper", TF, 6, SHIP, 0, 1),
    (
        "federation_shipyard",
        "Federation Shipyard",
        TF,
        6,
        OUT,
        6,
        1,
    ),
    ("loyal_colony", "Loyal Colony", TF, 7, BASE, 6, 1),
    ("factory_world", "Factory World", TF, 8, OUT, 6, 1),
];

fn set() -> &'static CardSet {
    CardSet::colony_wars()
}

fn cw() -> Sets {
    Sets::parse("colony_wars").unwrap()
}

#[test]
fn the_set_has_80_trade_cards_of_43_kinds_20_per_faction_as_published() {
    let set = set();
    let index = set
        .sets
        .iter()
        .position(|s| s.name == "colony_wars")
        .unwrap() as u8;
    let ours: Vec<_> = set.iter().filter(|(_, d)| d.set == index).collect();
    assert_eq!(ours.len(), 43);
    assert_eq!(ours.len(), TRADE_CARDS.len());
    for ((_, d), &(id, en, faction, cost, kind, defense, count)) in ours.iter().zip(TRADE_CARDS) {
        assert_eq!(d.id(), id);
        assert_eq!(d.spec.name.en, en);
        assert_eq!(
            d.spec.name.fr, en,
            "{id}: the English name is kept in French"
        );
        assert_eq!(d.spec.faction, Some(faction), "{id}");
        assert_eq!(
            (d.cost(), d.kind(), d.defense(), d.spec.count),
            (cost, kind, defense, count),
            "{id}"
        );
        assert_eq!(d.spec.role, Role::Trade, "{id}");
    }
    let deck = set.trade_deck_of(Sets::parse("colony_wars").unwrap());
    assert_eq!(deck.len(), 80);
    for f in [B, MC, SE, TF] {
        let n = deck
            .iter()
            .filter(|&&c| set.def(c).spec.faction == Some(f))
            .count();
        assert_eq!(n, 20, "{f:?}");
    }
    // Each card's printed text says what its effects do.
    for (c, d) in &ours {
        assert!(
            set.text_agrees(*c),
            "{}: {:?}",
            d.id(),
            starrealms::card_text::card_disagreements(&d.spec)
        );
    }
}

#[test]
fn the_builtin_set_knows_colony_wars_by_name_and_mixes_it_with_the_base_set() {
    assert_eq!(cw().names(), ["colony_wars"]);
    let mix = Sets::parse("base, colony-wars").unwrap();
    assert_eq!(mix.names(), ["base", "colony_wars"]);
    let set = cards();
    assert_eq!(set.trade_deck_of(cw()).len(), 80);
    assert_eq!(set.trade_deck_of(mix).len(), 160);
    // Both boxes' Explorers are the same card: the pile is the rules' 10 (more with more seats).
    assert_eq!(set.explorers_of(cw()), 10);
    assert_eq!(set.explorers_of(mix), 10);
}

#[test]
fn a_game_deals_one_starting_deck_per_player_and_the_sets_trade_cards() {
    for (sets, trade) in [("colony_wars", 80), ("base,colony_wars", 160)] {
        let config = Config {
            sets: Sets::parse(sets).unwrap(),
            ..Config::of_format(Format::FreeForAll, Some(4))
        };
        let s = State::new(&config, 7).unwrap();
        let set = cards();
        for p in &s.players.0 {
            let mine: Vec<_> = p.all_cards().collect();
            assert_eq!(mine.len(), 10, "{sets}");
            assert_eq!(mine.iter().filter(|&&c| c == set.scout).count(), 8);
            assert_eq!(mine.iter().filter(|&&c| c == set.viper).count(), 2);
        }
        let dealt = s.trade_deck.len() + s.row.iter().flatten().count();
        assert_eq!(dealt, trade, "{sets}");
        assert_eq!(
            s.explorers,
            10 + 5 * 2,
            "{sets}: 5 more per seat beyond two"
        );
        if sets == "colony_wars" {
            let base_cards = s
                .trade_deck
                .iter()
                .filter(|&&c| set.def(c).set == 0)
                .count();
            assert_eq!(
                base_cards, 0,
                "no base-set trade card in a Colony Wars game"
            );
        }
    }
}

#[test]
fn a_record_names_its_sets_and_replays_without_any_other_flag() {
    let config = Config {
        sets: Sets::parse("base,colony_wars").unwrap(),
        ..Config::default()
    };
    let mut game = Recorded::<State>::new(&config, 3).unwrap();
    let mut rng = game::rng_from_seed(4);
    let mut buf = Vec::new();
    while !game.state().over {
        let a = rollout::random_action(game.state(), &mut buf, &mut rng);
        game.apply(a).unwrap();
    }
    let json = game.record().to_json();
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        value["config"]["sets"],
        serde_json::json!(["base", "colony_wars"])
    );
    let replayed: State = GameRecord::from_json(&json).unwrap().replay().unwrap();
    assert_eq!(replayed, *game.state());
    // Every new action of the set has an index the learning code can name.
    for a in game.record().actions.iter() {
        let a: starrealms::Action = a.parse().unwrap();
        assert_eq!(starrealms::Action::from_index(a.index()), Some(a));
    }
}
