//! Per-card rule tests for the *Colony Wars* set, written from `/work/shared/cards-colony-wars.md`
//! (the published card list, its rule points and the readings chosen): each test sets up a
//! position, plays the card and checks the exact result.

use game::Seat;
use starrealms::Action;
use starrealms::cards::Dest;
use starrealms::scenario::{Builder, card};
use starrealms::state::Pending;

mod common;

use common::*;

// ================================================================ Blob

#[test]
fn swarmer_adds_3_combat_may_scrap_a_row_card_and_allies_for_2() {
    let mut s = Builder::new()
        .hand(0, &["Swarmer"])
        .ships(0, &["Predator"])
        .row(&["Leviathan", "Lancer"])
        .trade_deck(&["Falcon"])
        .build();
    s.act("play swarmer");
    assert_eq!(p1(&s).combat, 3);
    assert_eq!(
        s.pending,
        Some(Pending::ScrapTradeRow {
            optional: true,
            left: 1,
            combat_for_cost: false,
        })
    );
    s.act("scrap row 0");
    assert_cards(&s.scrap_heap, &["Leviathan"]);
    assert_eq!(s.row[0], Some(card("Falcon")), "the slot refills");
    assert_main_phase(&s);
    s.act("ally ship 1");
    assert_eq!(p1(&s).combat, 5);
}

#[test]
fn swarmer_may_decline_the_row_scrap() {
    let mut s = Builder::new()
        .hand(0, &["Swarmer"])
        .row(&["Leviathan"])
        .build();
    s.act("play swarmer");
    s.act("pass");
    assert_eq!(s.row[0], Some(card("Leviathan")));
    assert!(s.scrap_heap.is_empty());
    assert_illegal(&s, "ally ship 0");
}

#[test]
fn predator_adds_4_combat_and_its_ally_draws() {
    let mut s = Builder::new()
        .hand(0, &["Predator"])
        .ships(0, &["Swarmer"])
        .deck(0, &["Viper"])
        .build();
    s.act("play predator");
    assert_eq!(p1(&s).combat, 4);
    s.act("ally ship 1");
    assert_cards(&p1(&s).hand, &["Viper"]);
}

#[test]
fn stellar_reef_adds_1_trade_and_scraps_for_3_combat() {
    let mut s = Builder::new().hand(0, &["Stellar Reef"]).build();
    s.act("play stellar_reef");
    assert_eq!(pools(&s), (0, 0, 50), "a base's primary waits");
    s.act("primary base 0");
    assert_eq!(p1(&s).trade, 1);
    assert_illegal(&s, "primary base 0");
    s.act("scrap base 0");
    assert_eq!(pools(&s), (1, 3, 50));
    assert_cards(&s.scrap_heap, &["Stellar Reef"]);
    assert!(p1(&s).bases.is_empty());
}

#[test]
fn cargo_pod_adds_3_trade_allies_for_3_combat_and_scraps_for_3_combat() {
    let mut s = Builder::new()
        .hand(0, &["Cargo Pod"])
        .bases(0, &["Bioformer"])
        .build();
    s.act("play cargo_pod");
    assert_eq!(pools(&s), (3, 0, 50));
    s.act("ally ship 0");
    assert_eq!(pools(&s), (3, 3, 50));
    s.act("scrap ship 0");
    assert_eq!(pools(&s), (3, 6, 50));
}

#[test]
fn ravager_scraps_up_to_two_row_cards_one_at_a_time() {
    let mut s = Builder::new()
        .hand(0, &["Ravager"])
        .row(&["Leviathan", "Moonwurm", "Lancer"])
        .trade_deck(&["Falcon", "Gunship"])
        .build();
    s.act("play ravager");
    assert_eq!(p1(&s).combat, 6);
    assert_legal(&s, "pass");
    s.act("scrap row 0");
    assert_eq!(
        s.pending,
        Some(Pending::ScrapTradeRow {
            optional: true,
            left: 1,
            combat_for_cost: false,
        })
    );
    s.act("scrap row 1");
    assert_main_phase(&s);
    assert_cards(&s.scrap_heap, &["Leviathan", "Moonwurm"]);
    assert_eq!(s.row[0], Some(card("Falcon")));
    assert_eq!(s.row[1], Some(card("Gunship")));
}

#[test]
fn ravager_may_stop_after_one_row_card() {
    let mut s = Builder::new()
        .hand(0, &["Ravager"])
        .row(&["Leviathan", "Moonwurm"])
        .build();
    s.act("play ravager");
    s.act("scrap row 1");
    s.act("pass");
    assert_main_phase(&s);
    assert_cards(&s.scrap_heap, &["Moonwurm"]);
    assert_eq!(s.row[0], Some(card("Leviathan")));
}

#[test]
fn bioformer_adds_3_combat_and_scraps_for_3_trade() {
    let mut s = Builder::new().bases(0, &["Bioformer"]).build();
    s.act("primary base 0");
    s.act("scrap base 0");
    assert_eq!(pools(&s), (3, 3, 50));
}

#[test]
fn parasite_adds_6_combat_or_acquires_a_card_up_to_6_to_the_discard_pile() {
    let row = [
        "Leviathan",
        "Loyal Colony",
        "Federation Shipyard",
        "Battle Bot",
    ];
    let mut s = Builder::new()
        .hand(0, &["Parasite"])
        .row(&row)
        .trade_deck(&["Falcon"])
        .build();
    let mut combat = s.clone();
    combat.act("play parasite");
    combat.act("choose 0");
    assert_eq!(pools(&combat), (0, 6, 50));
    s.act("play parasite");
    s.act("choose 1");
    assert_eq!(
        s.pending,
        Some(Pending::AcquireUpTo {
            cost: 6,
            to: Dest::Discard
        })
    );
    // Cost 6 or less, ships and bases alike, and an Explorer.
    assert_legal_exactly(&s, &["acquire row 2", "acquire row 3", "acquire explorer"]);
    assert_illegal(&s, "acquire row 0");
    s.act("acquire row 2");
    assert_cards(&p1(&s).discard, &["Federation Shipyard"]);
    assert_eq!(s.row[2], Some(card("Falcon")));
    assert_eq!(pools(&s), (0, 0, 50));
}

#[test]
fn parasite_allies_to_draw_a_card() {
    let mut s = Builder::new()
        .hand(0, &["Parasite"])
        .bases(0, &["Stellar Reef"])
        .deck(0, &["Scout"])
        .build();
    s.act("play parasite");
    s.act("choose 0");
    s.act("ally ship 0");
    assert_cards(&p1(&s).hand, &["Scout"]);
}

#[test]
fn plasma_vent_adds_4_combat_and_its_scrap_must_destroy_a_base() {
    let mut s = Builder::new()
        .bases(0, &["Plasma Vent"])
        .bases(1, &["Storage Silo"])
        .build();
    s.act("primary base 0");
    assert_eq!(p1(&s).combat, 4);
    s.act("scrap base 0");
    assert_legal_exactly(&s, &["destroy p2 base 0"]);
    s.act("destroy p2 base 0");
    assert_cards(&p2(&s).discard, &["Storage Silo"]);
}

#[test]
fn plasma_vent_may_go_to_the_hand_when_a_blob_card_was_played() {
    let mut s = Builder::new()
        .hand(0, &["Predator"])
        .pools(0, 6, 0)
        .row(&["Plasma Vent"])
        .build();
    s.act("play predator");
    s.act("buy row 0");
    assert_eq!(
        s.pending,
        Some(Pending::ToHand {
            card: card("Plasma Vent"),
            on_deck: false
        })
    );
    assert_legal_exactly(&s, &["hand", "pass"]);
    s.act("hand");
    assert_cards(&p1(&s).hand, &["Plasma Vent"]);
    assert!(p1(&s).discard.is_empty());
    assert_eq!(
        p1(&s).hand_known,
        vec![card("Plasma Vent")],
        "everybody saw it go there"
    );
    // Playable this very turn.
    s.act("play plasma_vent");
    s.act("primary base 0");
    assert_eq!(p1(&s).combat, 8);
}

#[test]
fn plasma_vent_declined_stays_in_the_discard_pile() {
    let mut s = Builder::new()
        .hand(0, &["Predator"])
        .pools(0, 6, 0)
        .row(&["Plasma Vent"])
        .build();
    s.act("play predator");
    s.act("buy row 0");
    s.act("pass");
    assert_cards(&p1(&s).discard, &["Plasma Vent"]);
    assert!(p1(&s).hand.is_empty());
}

#[test]
fn acquire_to_hand_needs_a_card_played_this_turn_not_a_base_already_in_play() {
    // A Blob base in play since an earlier turn was not played this turn.
    let mut s = Builder::new()
        .bases(0, &["Bioformer"])
        .hand(0, &["Lancer"])
        .pools(0, 6, 0)
        .row(&["Plasma Vent"])
        .build();
    s.act("play lancer");
    s.act("buy row 0");
    assert_main_phase(&s);
    assert_cards(&p1(&s).discard, &["Plasma Vent"]);
}

#[test]
fn moonwurm_adds_8_combat_draws_and_allies_to_acquire_up_to_2_into_the_hand() {
    let mut s = Builder::new()
        .hand(0, &["Moonwurm"])
        .ships(0, &["Swarmer"])
        .deck(0, &["Viper"])
        .row(&["Swarmer", "Predator", "Cargo Pod"])
        .trade_deck(&["Lancer"])
        .build();
    s.act("play moonwurm");
    assert_eq!(p1(&s).combat, 8);
    assert_cards(&p1(&s).hand, &["Viper"]);
    s.act("ally ship 1");
    assert_eq!(
        s.pending,
        Some(Pending::AcquireUpTo {
            cost: 2,
            to: Dest::Hand
        })
    );
    assert_legal_exactly(&s, &["acquire row 0", "acquire row 1", "acquire explorer"]);
    s.act("acquire row 1");
    assert_cards(&p1(&s).hand, &["Viper", "Predator"]);
    assert_eq!(p1(&s).trade, 0);
    assert_eq!(s.row[1], Some(card("Lancer")));
    s.act("play predator");
    assert_eq!(p1(&s).combat, 12);
}

#[test]
fn leviathan_adds_9_combat_draws_may_destroy_a_base_and_allies_to_acquire_up_to_3_into_the_hand() {
    let mut s = Builder::new()
        .hand(0, &["Leviathan"])
        .ships(0, &["Predator"])
        .deck(0, &["Scout"])
        .bases(1, &["Bioformer"])
        .row(&["Cargo Pod", "Bioformer", "Mining Mech"])
        .build();
    s.act("play leviathan");
    assert_eq!(p1(&s).combat, 9);
    assert_cards(&p1(&s).hand, &["Scout"]);
    assert_legal_exactly(&s, &["destroy p2 base 0", "pass"]);
    s.act("destroy p2 base 0");
    assert!(p2(&s).bases.is_empty());
    s.act("ally ship 1");
    assert_legal_exactly(&s, &["acquire row 0", "acquire explorer"]);
    s.act("acquire explorer");
    assert_cards(&p1(&s).hand, &["Scout", "Explorer"]);
}

// ================================================================ Machine Cult

#[test]
fn battle_bot_adds_2_combat_may_scrap_from_the_hand_only_and_allies_for_2() {
    let mut s = Builder::new()
        .hand(0, &["Battle Bot", "Viper"])
        .discard(0, &["Scout"])
        .ships(0, &["Repair Bot"])
        .build();
    s.act("play battle_bot");
    assert_eq!(p1(&s).combat, 2);
    assert_legal_exactly(&s, &["scrap hand viper", "pass"]);
    s.act("scrap hand viper");
    assert_cards(&s.scrap_heap, &["Viper"]);
    s.act("ally ship 1");
    assert_eq!(p1(&s).combat, 4);
}

#[test]
fn repair_bot_adds_2_trade_may_scrap_from_the_discard_pile_only_and_scraps_for_2_combat() {
    let mut s = Builder::new()
        .hand(0, &["Repair Bot", "Viper"])
        .discard(0, &["Scout"])
        .build();
    s.act("play repair_bot");
    assert_eq!(p1(&s).trade, 2);
    assert_legal_exactly(&s, &["scrap discard scout", "pass"]);
    s.act("scrap discard scout");
    assert!(p1(&s).discard.is_empty());
    s.act("scrap ship 0");
    assert_eq!(pools(&s), (2, 2, 50));
}

#[test]
fn warning_beacon_is_a_2_defense_outpost_for_2_combat_and_may_go_to_the_hand() {
    let mut s = Builder::new()
        .hand(0, &["Battle Bot"])
        .pools(0, 2, 0)
        .row(&["Warning Beacon"])
        .build();
    s.act("play battle_bot");
    s.act("buy row 0");
    s.act("hand");
    s.act("play warning_beacon");
    assert!(p1(&s).bases[0].is_outpost());
    assert_eq!(starrealms::cards().def(card("Warning Beacon")).defense(), 2);
    s.act("primary base 0");
    assert_eq!(p1(&s).combat, 4);
}

#[test]
fn a_card_put_into_the_hand_and_played_lets_the_next_one_go_to_the_hand() {
    // Buying a Warning Beacon does not make the next qualify; playing one does.
    let mut s = Builder::new()
        .pools(0, 4, 0)
        .row(&["Warning Beacon", "Warning Beacon"])
        .build();
    s.act("buy row 0");
    assert_main_phase(&s);
    s.act("buy row 1");
    assert_main_phase(&s);
    assert_cards(&p1(&s).discard, &["Warning Beacon", "Warning Beacon"]);
}

#[test]
fn convoy_bot_adds_4_combat_may_scrap_from_hand_or_discard_and_allies_for_2() {
    let mut s = Builder::new()
        .hand(0, &["Convoy Bot", "Viper"])
        .discard(0, &["Scout"])
        .bases(0, &["The Oracle"])
        .build();
    s.act("play convoy_bot");
    assert_eq!(p1(&s).combat, 4);
    assert_legal_exactly(&s, &["scrap hand viper", "scrap discard scout", "pass"]);
    s.act("scrap discard scout");
    s.act("ally ship 0");
    assert_eq!(p1(&s).combat, 6);
}

#[test]
fn mining_mech_adds_3_trade_may_scrap_and_allies_for_3_combat() {
    let mut s = Builder::new()
        .hand(0, &["Mining Mech", "Viper"])
        .ships(0, &["Battle Bot"])
        .build();
    s.act("play mining_mech");
    assert_eq!(p1(&s).trade, 3);
    s.act("scrap hand viper");
    s.act("ally ship 1");
    assert_eq!(pools(&s), (3, 3, 50));
}

#[test]
fn the_oracle_must_scrap_a_card_from_the_hand_and_allies_for_3_combat() {
    let mut s = Builder::new()
        .hand(0, &["Viper", "Scout"])
        .discard(0, &["Scout"])
        .bases(0, &["The Oracle", "Warning Beacon"])
        .build();
    s.act("primary base 0");
    assert_legal_exactly(&s, &["scrap hand scout", "scrap hand viper"]);
    s.act("scrap hand viper");
    s.act("ally base 0");
    assert_eq!(p1(&s).combat, 3);
    // With an empty hand, nothing happens.
    let mut empty = Builder::new().bases(0, &["The Oracle"]).build();
    empty.act("primary base 0");
    assert_main_phase(&empty);
}

#[test]
fn mech_cruiser_adds_6_combat_may_scrap_and_its_ally_must_destroy_a_base() {
    let mut s = Builder::new()
        .hand(0, &["Mech Cruiser"])
        .ships(0, &["Battle Bot"])
        .bases(1, &["Stellar Reef"])
        .build();
    s.act("play mech_cruiser");
    assert_eq!(p1(&s).combat, 6);
    s.act("ally ship 1");
    assert_legal_exactly(&s, &["destroy p2 base 0"]);
    s.act("destroy p2 base 0");
    assert_cards(&p2(&s).discard, &["Stellar Reef"]);
}

#[test]
fn stealth_tower_copies_an_opponents_base_whose_abilities_and_faction_it_then_has() {
    let mut s = Builder::new()
        .hand(0, &["Stealth Tower"])
        .bases(0, &["Storage Silo"])
        .bases(1, &["Loyal Colony"])
        .build();
    s.act("play stealth_tower");
    assert_illegal(&s, "ally base 0");
    s.act("primary base 1");
    assert_eq!(s.pending, Some(Pending::CopyBase { base: 1 }));
    assert_legal_exactly(&s, &["copy p1 base 0", "copy p2 base 0"]);
    s.act("copy p2 base 0");
    assert_eq!(p1(&s).bases[1].copy, Some(card("Loyal Colony")));
    assert!(p1(&s).bases[1].is_outpost(), "it stays an outpost");
    // The copied primary is unused, and the Trade Federation faction allies Storage Silo.
    s.act("primary base 1");
    assert_eq!(pools(&s), (3, 3, 53));
    s.act("ally base 0");
    assert_eq!(p1(&s).trade, 5);
    assert_illegal(&s, "primary base 1");
}

#[test]
fn stealth_tower_is_itself_again_when_its_owners_turn_ends_and_copies_again_next_turn() {
    let mut s = Builder::new()
        .bases(0, &["Stealth Tower", "Bioformer"])
        .build();
    s.act("primary base 0");
    s.act("copy p1 base 1");
    s.act("primary base 0");
    assert_eq!(p1(&s).combat, 3);
    s.act("end");
    assert_eq!(p1(&s).bases[0].copy, None);
    s.act("end");
    assert_eq!(s.current, Seat(0));
    s.act("primary base 0");
    s.act("copy p1 base 1");
    // Scrapping the copy uses the copied scrap ability; the tower itself is scrapped.
    s.act("scrap base 0");
    assert_eq!(p1(&s).trade, 3);
    assert_cards(&s.scrap_heap, &["Stealth Tower"]);
}

#[test]
fn stealth_tower_cannot_copy_itself() {
    let mut s = Builder::new().bases(0, &["Stealth Tower"]).build();
    s.act("primary base 0");
    assert_main_phase(&s);
    assert_eq!(p1(&s).bases[0].copy, None);
}

#[test]
fn frontier_station_adds_2_trade_or_3_combat() {
    let mut s = Builder::new().bases(0, &["Frontier Station"]).build();
    s.act("primary base 0");
    let mut trade = s.clone();
    trade.act("choose 0");
    assert_eq!(pools(&trade), (2, 0, 50));
    s.act("choose 1");
    assert_eq!(pools(&s), (0, 3, 50));
}

#[test]
fn the_wrecker_adds_6_combat_may_scrap_up_to_two_and_allies_to_draw() {
    let mut s = Builder::new()
        .hand(0, &["The Wrecker", "Viper"])
        .discard(0, &["Scout"])
        .deck(0, &["Falcon"])
        .ships(0, &["Battle Bot"])
        .build();
    s.act("play the_wrecker");
    assert_eq!(p1(&s).combat, 6);
    s.act("scrap hand viper");
    s.act("scrap discard scout");
    assert_main_phase(&s);
    s.act("ally ship 1");
    assert_cards(&p1(&s).hand, &["Falcon"]);
}

#[test]
fn the_incinerator_allies_for_2_combat_per_card_scrapped_from_hand_or_discard_this_turn() {
    let mut s = Builder::new()
        .hand(0, &["Battle Bot", "Viper", "Scout"])
        .discard(0, &["Scout"])
        .bases(0, &["The Incinerator"])
        .build();
    s.act("play battle_bot");
    s.act("scrap hand viper");
    assert_eq!(p1(&s).scrapped, 1);
    s.act("primary base 0");
    s.act("scrap hand scout");
    s.act("scrap discard scout");
    assert_eq!(p1(&s).scrapped, 3);
    s.act("ally base 0");
    // 2 from the Battle Bot, 2 × 3 from the ally.
    assert_eq!(p1(&s).combat, 8);
    s.act("end");
    assert_eq!(p1(&s).scrapped, 0, "the count is per turn");
}

#[test]
fn the_incinerator_does_not_count_trade_row_cards_nor_cards_scrapped_for_their_ability() {
    let mut s = Builder::new()
        .hand(0, &["Swarmer"])
        .ships(0, &["Battle Bot"])
        .bases(0, &["The Incinerator", "Stellar Reef"])
        .row(&["Lancer"])
        .build();
    s.act("play swarmer");
    s.act("scrap row 0");
    s.act("scrap base 1");
    s.act("ally base 0");
    assert_eq!(p1(&s).combat, 3 + 3);
}

// ================================================================ Star Empire

#[test]
fn star_barge_adds_2_trade_and_allies_for_2_combat_and_a_discard() {
    let mut s = Builder::new()
        .hand(0, &["Star Barge"])
        .ships(0, &["Lancer"])
        .hand(1, &["Scout"])
        .build();
    s.act("play star_barge");
    assert_eq!(p1(&s).trade, 2);
    s.act("ally ship 1");
    assert_eq!(p1(&s).combat, 2);
    assert_p2_must_discard(&s);
    s.act("discard scout");
    assert_cards(&p2(&s).discard, &["Scout"]);
}

#[test]
fn lancer_adds_2_more_combat_only_when_an_opponent_has_a_base() {
    let mut bare = Builder::new()
        .hand(0, &["Lancer"])
        .bases(0, &["Orbital Platform"])
        .build();
    bare.act("play lancer");
    assert_eq!(p1(&bare).combat, 4, "a base of one's own does not count");
    let mut s = Builder::new()
        .hand(0, &["Lancer"])
        .bases(1, &["Storage Silo"])
        .hand(1, &["Viper"])
        .ships(0, &["Star Barge"])
        .build();
    s.act("play lancer");
    assert_eq!(p1(&s).combat, 6);
    s.act("ally ship 1");
    assert_p2_must_discard(&s);
}

#[test]
fn orbital_platform_discards_one_to_draw_one_and_allies_for_3_combat() {
    let mut s = Builder::new()
        .hand(0, &["Viper"])
        .deck(0, &["Falcon"])
        .bases(0, &["Orbital Platform", "Command Center"])
        .build();
    s.act("primary base 0");
    assert_legal_exactly(&s, &["discard viper", "pass"]);
    s.act("discard viper");
    assert_cards(&p1(&s).hand, &["Falcon"]);
    assert_cards(&p1(&s).discard, &["Viper"]);
    assert_main_phase(&s);
    s.act("ally base 0");
    assert_eq!(p1(&s).combat, 3);
}

#[test]
fn falcon_adds_2_combat_draws_and_scraps_for_a_discard() {
    let mut s = Builder::new()
        .hand(0, &["Falcon"])
        .deck(0, &["Scout"])
        .hand(1, &["Viper"])
        .build();
    s.act("play falcon");
    assert_eq!(p1(&s).combat, 2);
    assert_cards(&p1(&s).hand, &["Scout"]);
    s.act("scrap ship 0");
    assert_p2_must_discard(&s);
}

#[test]
fn gunship_adds_5_combat_with_a_discard_and_scraps_for_4_trade() {
    let mut s = Builder::new()
        .hand(0, &["Gunship"])
        .hand(1, &["Viper"])
        .build();
    s.act("play gunship");
    assert_eq!(p1(&s).combat, 5);
    assert_p2_must_discard(&s);
    s.act("discard viper");
    s.act("scrap ship 0");
    assert_eq!(pools(&s), (4, 5, 50));
}

#[test]
fn command_center_adds_2_combat_per_star_empire_ship_played_and_two_of_them_add_up() {
    let mut s = Builder::new()
        .hand(0, &["Star Barge", "Swarmer", "Orbital Platform", "Falcon"])
        .deck(0, &["Scout"])
        .bases(0, &["Command Center", "Command Center"])
        .build();
    s.act("play star_barge");
    assert_eq!(p1(&s).combat, 4, "2 from each Command Center");
    s.act("play swarmer");
    assert_eq!(p1(&s).combat, 7, "a Blob ship earns nothing");
    s.act("play orbital_platform");
    assert_eq!(p1(&s).combat, 7, "a base earns nothing");
    s.act("play falcon");
    assert_eq!(p1(&s).combat, 7 + 4 + 2);
    s.act("primary base 0");
    assert_eq!(p1(&s).trade, 2 + 2);
}

#[test]
fn command_center_does_not_count_ships_played_before_it() {
    let mut s = Builder::new()
        .hand(0, &["Command Center"])
        .ships(0, &["Lancer"])
        .build();
    s.act("play command_center");
    assert_eq!(p1(&s).combat, 0);
}

#[test]
fn heavy_cruiser_adds_4_combat_draws_and_allies_to_draw() {
    let mut s = Builder::new()
        .hand(0, &["Heavy Cruiser"])
        .ships(0, &["Falcon"])
        .deck(0, &["Scout", "Viper"])
        .build();
    s.act("play heavy_cruiser");
    assert_eq!(p1(&s).combat, 4);
    s.act("ally ship 1");
    assert_cards(&p1(&s).hand, &["Scout", "Viper"]);
}

#[test]
fn aging_battleship_adds_5_combat_allies_to_draw_and_scraps_for_2_combat_and_two_cards() {
    let mut s = Builder::new()
        .hand(0, &["Aging Battleship"])
        .ships(0, &["Falcon"])
        .deck(0, &["Scout", "Viper", "Lancer"])
        .build();
    s.act("play aging_battleship");
    s.act("ally ship 1");
    assert_cards(&p1(&s).hand, &["Scout"]);
    s.act("scrap ship 1");
    assert_eq!(p1(&s).combat, 7);
    assert_cards(&p1(&s).hand, &["Scout", "Viper", "Lancer"]);
}

#[test]
fn supply_depot_discards_up_to_two_each_for_2_trade_or_2_combat() {
    let mut s = Builder::new()
        .hand(0, &["Viper", "Scout", "Scout"])
        .bases(0, &["Supply Depot", "Command Center"])
        .deck(0, &["Falcon"])
        .build();
    s.act("primary base 0");
    assert_legal_exactly(&s, &["discard scout", "discard viper", "pass"]);
    s.act("discard viper");
    assert_legal_exactly(&s, &["choose 0", "choose 1"]);
    s.act("choose 1");
    assert_eq!(pools(&s), (0, 2, 50));
    s.act("discard scout");
    s.act("choose 0");
    assert_eq!(pools(&s), (2, 2, 50));
    assert_main_phase(&s);
    assert_cards(&p1(&s).hand, &["Scout"]);
    assert_cards(&p1(&s).discard, &["Viper", "Scout"]);
    s.act("ally base 0");
    assert_cards(&p1(&s).hand, &["Scout", "Falcon"]);
}

#[test]
fn supply_depot_may_stop_after_one_or_none() {
    let mut s = Builder::new()
        .hand(0, &["Viper", "Scout"])
        .bases(0, &["Supply Depot"])
        .build();
    s.act("primary base 0");
    s.act("discard viper");
    s.act("choose 0");
    s.act("pass");
    assert_main_phase(&s);
    assert_eq!(pools(&s), (2, 0, 50));
    assert_cards(&p1(&s).hand, &["Scout"]);
}

#[test]
fn imperial_palace_draws_makes_a_discard_and_allies_for_4_combat() {
    let mut s = Builder::new()
        .bases(0, &["Imperial Palace", "Orbital Platform"])
        .deck(0, &["Scout"])
        .hand(1, &["Viper"])
        .build();
    s.act("primary base 0");
    assert_cards(&p1(&s).hand, &["Scout"]);
    assert_p2_must_discard(&s);
    s.act("discard viper");
    s.act("ally base 0");
    assert_eq!(p1(&s).combat, 4);
}

#[test]
fn emperors_dreadnaught_adds_8_combat_draws_makes_a_discard_and_may_go_to_the_hand() {
    let mut s = Builder::new()
        .hand(0, &["Falcon"])
        .deck(0, &["Scout", "Viper"])
        .pools(0, 8, 0)
        .hand(1, &["Scout"])
        .row(&["Emperor's Dreadnaught"])
        .build();
    s.act("play falcon");
    s.act("buy row 0");
    s.act("hand");
    s.act("play emperors_dreadnaught");
    assert_eq!(p1(&s).combat, 2 + 8);
    assert_cards(&p1(&s).hand, &["Scout", "Viper"]);
    assert_p2_must_discard(&s);
}

// ================================================================ Trade Federation

#[test]
fn solar_skiff_adds_2_trade_and_allies_to_draw() {
    let mut s = Builder::new()
        .hand(0, &["Solar Skiff"])
        .ships(0, &["Trade Hauler"])
        .deck(0, &["Scout"])
        .build();
    s.act("play solar_skiff");
    s.act("ally ship 1");
    assert_eq!(p1(&s).trade, 2);
    assert_cards(&p1(&s).hand, &["Scout"]);
}

#[test]
fn trade_hauler_adds_3_trade_and_allies_for_3_authority() {
    let mut s = Builder::new()
        .hand(0, &["Trade Hauler"])
        .bases(0, &["Storage Silo"])
        .build();
    s.act("play trade_hauler");
    s.act("ally ship 0");
    assert_eq!(pools(&s), (3, 0, 53));
}

#[test]
fn storage_silo_adds_2_authority_and_allies_for_2_trade() {
    let mut s = Builder::new()
        .bases(0, &["Storage Silo"])
        .ships(0, &["Solar Skiff"])
        .build();
    s.act("primary base 0");
    s.act("ally base 0");
    assert_eq!(pools(&s), (2, 0, 52));
}

#[test]
fn patrol_cutter_adds_2_trade_3_combat_and_allies_for_4_authority() {
    let mut s = Builder::new()
        .hand(0, &["Patrol Cutter"])
        .ships(0, &["Solar Skiff"])
        .build();
    s.act("play patrol_cutter");
    s.act("ally ship 1");
    assert_eq!(pools(&s), (2, 3, 54));
}

#[test]
fn frontier_ferry_adds_3_trade_4_authority_and_scraps_to_destroy_a_base() {
    let mut s = Builder::new()
        .hand(0, &["Frontier Ferry"])
        .bases(1, &["Bioformer"])
        .build();
    s.act("play frontier_ferry");
    assert_eq!(pools(&s), (3, 0, 54));
    s.act("scrap ship 0");
    assert_legal_exactly(&s, &["destroy p2 base 0"]);
}

#[test]
fn central_station_with_three_bases_counting_itself_adds_4_authority_and_draws() {
    let mut s = Builder::new()
        .bases(0, &["Central Station", "Storage Silo", "Bioformer"])
        .deck(0, &["Scout"])
        .build();
    s.act("primary base 0");
    assert_eq!(pools(&s), (2, 0, 54));
    assert_cards(&p1(&s).hand, &["Scout"]);
    let mut two = Builder::new()
        .bases(0, &["Central Station", "Storage Silo"])
        .deck(0, &["Scout"])
        .build();
    two.act("primary base 0");
    assert_eq!(pools(&two), (2, 0, 50));
    assert!(p1(&two).hand.is_empty());
}

#[test]
fn colony_seed_ship_adds_3_trade_3_combat_3_authority_and_may_go_to_the_hand() {
    let mut s = Builder::new()
        .hand(0, &["Solar Skiff"])
        .pools(0, 3, 0)
        .row(&["Colony Seed Ship"])
        .build();
    s.act("play solar_skiff");
    s.act("buy row 0");
    s.act("hand");
    s.act("play colony_seed_ship");
    assert_eq!(pools(&s), (3, 3, 53));
}

#[test]
fn peacekeeper_adds_6_combat_6_authority_and_allies_to_draw() {
    let mut s = Builder::new()
        .hand(0, &["Peacekeeper"])
        .ships(0, &["Solar Skiff"])
        .deck(0, &["Scout"])
        .build();
    s.act("play peacekeeper");
    s.act("ally ship 1");
    assert_eq!(pools(&s), (0, 6, 56));
    assert_cards(&p1(&s).hand, &["Scout"]);
}

#[test]
fn loyal_colony_adds_3_trade_3_combat_3_authority() {
    let mut s = Builder::new().bases(0, &["Loyal Colony"]).build();
    s.act("primary base 0");
    assert_eq!(pools(&s), (3, 3, 53));
}

#[test]
fn federation_shipyard_ally_puts_the_next_ship_or_base_on_top_of_the_deck() {
    let mut s = Builder::new()
        .bases(0, &["Federation Shipyard"])
        .ships(0, &["Solar Skiff"])
        .deck(0, &["Scout"])
        .pools(0, 4, 0)
        .row(&["Storage Silo", "Trade Hauler"])
        .build();
    s.act("primary base 0");
    s.act("ally base 0");
    assert_eq!(p1(&s).redirects, vec![Dest::Top]);
    s.act("buy row 0");
    assert_main_phase(&s);
    assert_eq!(
        p1(&s).deck.last(),
        Some(&card("Storage Silo")),
        "a base too, not optional"
    );
    assert_eq!(p1(&s).deck_known, 1);
    // Only the next one.
    s.act("buy row 1");
    assert_cards(&p1(&s).discard, &["Trade Hauler"]);
}

#[test]
fn factory_world_puts_the_next_acquired_card_into_the_hand() {
    let mut s = Builder::new()
        .bases(0, &["Factory World"])
        .pools(0, 5, 0)
        .row(&["Lancer", "Predator"])
        .build();
    s.act("primary base 0");
    s.act("buy row 0");
    assert_main_phase(&s);
    assert_cards(&p1(&s).hand, &["Lancer"]);
    s.act("buy row 1");
    assert_cards(&p1(&s).discard, &["Predator"]);
    s.act("play lancer");
    assert_eq!(p1(&s).combat, 4);
    s.act("end");
    assert!(p1(&s).redirects.is_empty());
}

#[test]
fn a_redirect_to_the_hand_makes_a_played_card_of_the_faction_and_the_next_one_qualify() {
    // The first Warning Beacon reaches the hand through Factory World and is played; the second
    // one then qualifies for its own "into your hand".
    let mut s = Builder::new()
        .bases(0, &["Factory World"])
        .pools(0, 4, 0)
        .row(&["Warning Beacon", "Warning Beacon"])
        .build();
    s.act("primary base 0");
    s.act("buy row 0");
    assert_main_phase(&s);
    s.act("play warning_beacon");
    s.act("buy row 1");
    assert_eq!(
        s.pending,
        Some(Pending::ToHand {
            card: card("Warning Beacon"),
            on_deck: false
        })
    );
}

#[test]
fn a_free_acquisition_to_the_discard_pile_uses_a_redirect_one_to_the_hand_does_not() {
    let mut s = Builder::new()
        .hand(0, &["Parasite", "Moonwurm"])
        .bases(0, &["Factory World", "Federation Shipyard"])
        .ships(0, &["Solar Skiff", "Swarmer"])
        .row(&["Lancer", "Predator", "Leviathan"])
        .build();
    s.act("primary base 1");
    s.act("ally base 1");
    s.act("play moonwurm");
    s.act("ally ship 2");
    s.act("acquire row 1");
    assert_cards(&p1(&s).hand, &["Parasite", "Predator"]);
    assert_eq!(
        p1(&s).redirects,
        vec![Dest::Top],
        "Moonwurm's card goes to the hand by itself"
    );
    s.act("play parasite");
    s.act("choose 1");
    s.act("acquire row 0");
    assert_eq!(p1(&s).deck.last(), Some(&card("Lancer")));
    assert!(p1(&s).redirects.is_empty());
}

#[test]
fn acquire_to_hand_takes_the_card_from_the_top_of_the_deck_after_a_redirect() {
    let mut s = Builder::new()
        .bases(0, &["Federation Shipyard"])
        .ships(0, &["Solar Skiff", "Battle Bot"])
        .discard(0, &["Warning Beacon"])
        .pools(0, 2, 0)
        .row(&["Warning Beacon"])
        .build();
    s.act("ally base 0");
    s.act("buy row 0");
    assert_eq!(
        s.pending,
        Some(Pending::ToHand {
            card: card("Warning Beacon"),
            on_deck: true
        })
    );
    s.act("hand");
    assert_cards(&p1(&s).hand, &["Warning Beacon"]);
    assert_cards(&p1(&s).discard, &["Warning Beacon"]);
    assert!(p1(&s).deck.is_empty());
    assert_eq!(p1(&s).deck_known, 0);
}

#[test]
fn copy_and_hand_actions_have_a_text_form_that_reads_back() {
    for text in ["copy p2 base 3", "hand"] {
        let a: Action = text.parse().expect("parses");
        assert_eq!(a.to_string(), text);
        use game::Action as _;
        assert_eq!(Action::from_index(a.index()), Some(a));
    }
    assert!("copy p2 ship 1".parse::<Action>().is_err());
}
