//! Per-card rule tests for the *Frontiers* set, written from `/work/shared/cards-frontiers.md`
//! (the published card list, its rule points and the readings chosen): each test sets up a
//! position, plays the card and checks the exact result.

use game::Seat;
use starrealms::cards::{CardSet, Dest, Faction, Kind, Role, ScrapFrom, Sets};
use starrealms::scenario::{Builder, card};
use starrealms::state::Pending;
use starrealms::{Action, Config, DiscardTiming, State, cards};

mod common;

use common::*;

// ---------------------------------------------------------------- helpers

/// p1 must now discard one card of its own choice ("draw a card, then discard a card", or
/// Imperial Flagship's ally aimed at oneself): no `pass`, no `end`.
#[track_caller]
fn assert_p1_must_discard(s: &State) {
    assert_eq!(s.to_move(), Some(Seat(0)), "p1 chooses the discard");
    assert_eq!(
        s.pending,
        Some(Pending::Discard {
            seat: Seat(0),
            left: 1
        })
    );
    assert_illegal(s, "pass");
    assert_illegal(s, "end");
}

/// A hand-or-discard-pile scrap as Neural Nexus, Enforcer Mech, Nanobot Swarm… offer it.
fn scrap_pending(
    from: ScrapFrom,
    left: u8,
    optional: bool,
    combat_per_card: u8,
    combat_for_cost: bool,
) -> Pending {
    Pending::Scrap {
        from,
        left,
        optional,
        draw_per_card: false,
        done: 0,
        combat_per_card,
        combat_for_cost,
    }
}

#[track_caller]
fn assert_outpost(name: &str, defense: u8) {
    let def = cards().def(card(name));
    assert_eq!(
        (def.kind(), def.defense()),
        (Kind::Outpost, defense),
        "{name}"
    );
}

#[track_caller]
fn assert_base(name: &str, defense: u8) {
    let def = cards().def(card(name));
    assert_eq!((def.kind(), def.defense()), (Kind::Base, defense), "{name}");
}

// ================================================================ the double ally

#[test]
fn double_ally_is_not_legal_with_only_one_other_card_of_the_faction() {
    let mut s = Builder::new()
        .hand(0, &["Hive Queen"])
        .ships(0, &["Stinger"])
        .deck(0, &["Viper"])
        .build();
    s.act("play hive_queen");
    assert_eq!(p1(&s).combat, 7);
    assert_cards(&p1(&s).hand, &["Viper"]);
    assert_legal(&s, "ally ship 1");
    assert_illegal(&s, "double ally ship 1");
    s.act("ally ship 1");
    assert_eq!(p1(&s).combat, 10);
    assert_illegal(&s, "double ally ship 1");
}

#[test]
fn double_ally_and_ally_are_separate_each_once_in_any_order() {
    let mut s = Builder::new()
        .hand(0, &["Hive Queen"])
        .ships(0, &["Stinger", "Blob Miner"])
        .deck(0, &["Viper"])
        .build();
    s.act("play hive_queen");
    assert_legal(&s, "ally ship 2");
    assert_legal(&s, "double ally ship 2");
    // A card without a double ally offers none, whatever the faction count.
    assert_illegal(&s, "double ally ship 0");
    s.act("double ally ship 2");
    assert_eq!(p1(&s).combat, 7 + 3);
    assert!(p1(&s).ships[2].ally2_used);
    assert!(!p1(&s).ships[2].ally_used, "the ally is still unused");
    assert_illegal(&s, "double ally ship 2");
    s.act("ally ship 2");
    assert_eq!(p1(&s).combat, 7 + 3 + 3);
    assert_illegal(&s, "ally ship 2");
    assert_illegal(&s, "double ally ship 2");
}

#[test]
fn double_ally_does_not_count_cards_of_another_faction() {
    let mut s = Builder::new()
        .hand(0, &["Hive Queen"])
        .ships(0, &["Stinger", "Plasma Bot"])
        .bases(0, &["Outland Station"])
        .deck(0, &["Viper"])
        .build();
    s.act("play hive_queen");
    assert_legal(&s, "ally ship 2");
    assert_illegal(&s, "double ally ship 2");
}

#[test]
fn double_ally_counts_bases_in_play_as_well_as_ships() {
    let mut s = Builder::new()
        .bases(0, &["Swarm Cluster", "Spike Cluster"])
        .ships(0, &["Stinger"])
        .build();
    s.act("primary base 0");
    assert_eq!(p1(&s).combat, 5);
    s.act("ally base 0");
    assert_eq!(p1(&s).combat, 8);
    s.act("double ally base 0");
    assert_eq!(p1(&s).combat, 11);
    // Two Blob bases with no Blob ship are enough too.
    let mut bases = Builder::new()
        .bases(0, &["Swarm Cluster", "Spike Cluster", "Nesting Ground"])
        .build();
    bases.act("double ally base 0");
    assert_eq!(p1(&bases).combat, 3);
}

#[test]
fn a_ship_scrapped_earlier_in_the_turn_no_longer_counts_toward_a_double_ally() {
    let mut s = Builder::new()
        .hand(0, &["Hive Queen"])
        .ships(0, &["Stinger", "Blob Miner"])
        .deck(0, &["Viper"])
        .build();
    s.act("scrap ship 0");
    assert_eq!(p1(&s).trade, 1);
    s.act("play hive_queen");
    assert_legal(&s, "ally ship 1");
    assert_illegal(&s, "double ally ship 1");
}

#[test]
fn a_bases_double_ally_is_usable_again_next_turn() {
    let mut s = Builder::new()
        .bases(0, &["Swarm Cluster", "Spike Cluster", "Nesting Ground"])
        .build();
    s.act("double ally base 0");
    assert_eq!(p1(&s).combat, 3);
    assert_illegal(&s, "double ally base 0");
    s.act("end");
    assert!(!p1(&s).bases[0].ally2_used);
    s.act("end");
    assert_eq!(s.current, Seat(0));
    assert_eq!(p1(&s).combat, 0);
    s.act("double ally base 0");
    assert_eq!(p1(&s).combat, 3);
}

#[test]
fn mech_world_counts_as_one_card_of_the_faction_toward_a_double_ally() {
    let mut s = Builder::new()
        .hand(0, &["Hive Queen"])
        .bases(0, &["Mech World"])
        .ships(0, &["Stinger"])
        .deck(0, &["Viper"])
        .build();
    s.act("play hive_queen");
    s.act("double ally ship 1");
    s.act("ally ship 1");
    assert_eq!(p1(&s).combat, 7 + 3 + 3);
}

#[test]
fn mech_world_alone_gives_the_ally_but_not_the_double_ally() {
    let mut s = Builder::new()
        .hand(0, &["Hive Queen"])
        .bases(0, &["Mech World"])
        .deck(0, &["Viper"])
        .build();
    s.act("play hive_queen");
    assert_illegal(&s, "double ally ship 0");
    s.act("ally ship 0");
    assert_eq!(p1(&s).combat, 10);
    // The same for a base's double ally: Ion Station with Mech World and one Trade Federation
    // ship has it, with Mech World alone it has not.
    let mut ion = Builder::new()
        .bases(0, &["Ion Station", "Mech World"])
        .ships(0, &["Frontier Runner"])
        .build();
    ion.act("double ally base 0");
    assert_eq!(pools(&ion), (0, 4, 54));
    let lone = Builder::new()
        .bases(0, &["Ion Station", "Mech World"])
        .build();
    assert_legal(&lone, "ally base 0");
    assert_illegal(&lone, "double ally base 0");
}

// ================================================================ Blob

#[test]
fn stinger_adds_3_combat_allies_for_3_combat_and_scraps_for_1_trade() {
    let mut s = Builder::new()
        .hand(0, &["Stinger"])
        .ships(0, &["Blob Miner"])
        .build();
    s.act("play stinger");
    assert_eq!(pools(&s), (0, 3, 50));
    s.act("ally ship 1");
    assert_eq!(pools(&s), (0, 6, 50));
    s.act("scrap ship 1");
    assert_eq!(pools(&s), (1, 6, 50));
    assert_cards(&s.scrap_heap, &["Stinger"]);
}

#[test]
fn blob_miner_adds_3_trade_may_scrap_a_row_card_and_scraps_for_2_combat() {
    let mut s = Builder::new()
        .hand(0, &["Blob Miner"])
        .ships(0, &["Stinger"])
        .row(&["Blob Alpha"])
        .trade_deck(&["Crusher"])
        .build();
    s.act("play blob_miner");
    assert_eq!(p1(&s).trade, 3);
    assert_eq!(
        s.pending,
        Some(Pending::ScrapTradeRow {
            optional: true,
            left: 1,
            combat_for_cost: false,
        })
    );
    assert_legal_exactly(&s, &["scrap row 0", "pass"]);
    s.act("scrap row 0");
    assert_cards(&s.scrap_heap, &["Blob Alpha"]);
    assert_eq!(s.row[0], Some(card("Crusher")), "the slot refills");
    assert_eq!(pools(&s), (3, 0, 50), "no combat for the row card");
    assert_main_phase(&s);
    assert_illegal(&s, "ally ship 1");
    s.act("scrap ship 1");
    assert_eq!(pools(&s), (3, 2, 50));
}

#[test]
fn blob_miner_may_decline_the_row_scrap() {
    let mut s = Builder::new()
        .hand(0, &["Blob Miner"])
        .row(&["Blob Alpha"])
        .build();
    s.act("play blob_miner");
    s.act("pass");
    assert_main_phase(&s);
    assert_eq!(s.row[0], Some(card("Blob Alpha")));
    assert!(s.scrap_heap.is_empty());
}

#[test]
fn spike_cluster_is_a_3_defense_base_for_2_combat_allying_for_1_trade() {
    assert_base("Spike Cluster", 3);
    let mut s = Builder::new()
        .bases(0, &["Spike Cluster"])
        .ships(0, &["Stinger"])
        .build();
    assert!(!p1(&s).bases[0].is_outpost());
    s.act("primary base 0");
    assert_eq!(pools(&s), (0, 2, 50));
    s.act("ally base 0");
    assert_eq!(pools(&s), (1, 2, 50));
}

#[test]
fn burrower_adds_5_combat_allies_to_draw_and_scraps_to_acquire_up_to_4_to_the_discard_pile() {
    let mut s = Builder::new()
        .hand(0, &["Burrower"])
        .ships(0, &["Stinger"])
        .deck(0, &["Viper"])
        .row(&["Blob Alpha", "Moonwurm Hatchling", "Stinger"])
        .trade_deck(&["Crusher"])
        .build();
    s.act("play burrower");
    assert_eq!(p1(&s).combat, 5);
    s.act("ally ship 1");
    assert_cards(&p1(&s).hand, &["Viper"]);
    s.act("scrap ship 1");
    assert_eq!(
        s.pending,
        Some(Pending::AcquireUpTo {
            cost: 4,
            to: Dest::Discard
        })
    );
    assert_legal_exactly(&s, &["acquire row 1", "acquire row 2", "acquire explorer"]);
    assert_illegal(&s, "acquire row 0");
    s.act("acquire row 1");
    assert_cards(&p1(&s).discard, &["Moonwurm Hatchling"]);
    assert!(p1(&s).deck.is_empty());
    assert_eq!(s.row[1], Some(card("Crusher")));
    assert_eq!(pools(&s), (0, 5, 50), "free");
    assert_cards(&s.scrap_heap, &["Burrower"]);
}

#[test]
fn crusher_adds_6_combat_and_allies_for_2_trade() {
    let mut s = Builder::new()
        .hand(0, &["Crusher"])
        .ships(0, &["Stinger"])
        .build();
    s.act("play crusher");
    assert_eq!(pools(&s), (0, 6, 50));
    s.act("ally ship 1");
    assert_eq!(pools(&s), (2, 6, 50));
    assert_illegal(&s, "scrap ship 1");
}

#[test]
fn moonwurm_hatchling_adds_3_trade_or_destroys_a_base() {
    let mut s = Builder::new()
        .hand(0, &["Moonwurm Hatchling"])
        .bases(1, &["Outland Station"])
        .build();
    s.act("play moonwurm_hatchling");
    assert_legal_exactly(&s, &["choose 0", "choose 1"]);
    let mut trade = s.clone();
    trade.act("choose 0");
    assert_eq!(pools(&trade), (3, 0, 50));
    assert_eq!(p2(&trade).bases.len(), 1);
    s.act("choose 1");
    assert_legal_exactly(&s, &["destroy p2 base 0"]);
    s.act("destroy p2 base 0");
    assert!(p2(&s).bases.is_empty());
    assert_cards(&p2(&s).discard, &["Outland Station"]);
    assert_eq!(pools(&s), (0, 0, 50));
    assert_main_phase(&s);
}

#[test]
fn moonwurm_hatchling_allies_for_3_combat_and_double_allies_for_3_more() {
    let mut s = Builder::new()
        .hand(0, &["Moonwurm Hatchling"])
        .ships(0, &["Stinger", "Blob Miner"])
        .build();
    s.act("play moonwurm_hatchling");
    s.act("choose 0");
    s.act("ally ship 2");
    assert_eq!(pools(&s), (3, 3, 50));
    s.act("double ally ship 2");
    assert_eq!(pools(&s), (3, 6, 50));
}

#[test]
fn nesting_ground_is_a_5_defense_base_for_2_trade_allying_for_4_combat() {
    assert_base("Nesting Ground", 5);
    let mut s = Builder::new()
        .bases(0, &["Nesting Ground"])
        .ships(0, &["Stinger"])
        .build();
    s.act("primary base 0");
    assert_eq!(pools(&s), (2, 0, 50));
    s.act("ally base 0");
    assert_eq!(pools(&s), (2, 4, 50));
}

#[test]
fn pulverizer_must_scrap_a_row_card_for_combat_equal_to_its_cost_and_the_slot_refills() {
    let mut s = Builder::new()
        .hand(0, &["Pulverizer"])
        .row(&["Stinger", "Blob Alpha"])
        .trade_deck(&["Crusher"])
        .build();
    s.act("play pulverizer");
    assert_eq!(
        s.pending,
        Some(Pending::ScrapTradeRow {
            optional: false,
            left: 1,
            combat_for_cost: true,
        })
    );
    assert_legal_exactly(&s, &["scrap row 0", "scrap row 1"]);
    assert_illegal(&s, "pass");
    s.act("scrap row 1");
    assert_eq!(pools(&s), (0, 6, 50), "Blob Alpha costs 6");
    assert_cards(&s.scrap_heap, &["Blob Alpha"]);
    assert_eq!(s.row[1], Some(card("Crusher")));
    assert_eq!(
        p1(&s).scrapped_all,
        0,
        "a trade-row card is not the player's"
    );
    assert_main_phase(&s);
}

#[test]
fn pulverizer_allies_to_draw() {
    let mut s = Builder::new()
        .hand(0, &["Pulverizer"])
        .ships(0, &["Stinger"])
        .deck(0, &["Viper"])
        .row(&["Stinger"])
        .build();
    s.act("play pulverizer");
    s.act("scrap row 0");
    assert_eq!(p1(&s).combat, 1);
    assert_eq!(s.row[0], None, "an empty trade deck leaves the slot empty");
    s.act("ally ship 1");
    assert_cards(&p1(&s).hand, &["Viper"]);
}

#[test]
fn blob_alpha_adds_10_combat_and_nothing_else() {
    let mut s = Builder::new()
        .hand(0, &["Blob Alpha"])
        .ships(0, &["Stinger", "Blob Miner"])
        .build();
    s.act("play blob_alpha");
    assert_eq!(pools(&s), (0, 10, 50));
    assert_illegal(&s, "ally ship 2");
    assert_illegal(&s, "double ally ship 2");
    assert_illegal(&s, "scrap ship 2");
}

#[test]
fn infested_moon_adds_4_combat_allies_to_draw_and_double_allies_to_draw() {
    assert_base("Infested Moon", 5);
    let mut s = Builder::new()
        .bases(0, &["Infested Moon", "Spike Cluster"])
        .ships(0, &["Stinger"])
        .deck(0, &["Scout", "Viper"])
        .build();
    s.act("primary base 0");
    assert_eq!(pools(&s), (0, 4, 50));
    s.act("ally base 0");
    assert_cards(&p1(&s).hand, &["Scout"]);
    s.act("double ally base 0");
    assert_cards(&p1(&s).hand, &["Scout", "Viper"]);
    assert!(p1(&s).deck.is_empty());
}

#[test]
fn hive_queen_adds_7_combat_draws_allies_for_3_and_double_allies_for_3() {
    let mut s = Builder::new()
        .hand(0, &["Hive Queen"])
        .bases(0, &["Spike Cluster"])
        .ships(0, &["Crusher"])
        .deck(0, &["Scout"])
        .build();
    s.act("play hive_queen");
    assert_eq!(pools(&s), (0, 7, 50));
    assert_cards(&p1(&s).hand, &["Scout"]);
    s.act("ally ship 1");
    s.act("double ally ship 1");
    assert_eq!(pools(&s), (0, 13, 50));
}

#[test]
fn swarm_cluster_is_an_8_defense_base_for_5_combat_3_ally_and_3_double_ally() {
    assert_base("Swarm Cluster", 8);
    let mut s = Builder::new()
        .bases(0, &["Swarm Cluster"])
        .ships(0, &["Stinger", "Crusher"])
        .build();
    s.act("primary base 0");
    s.act("ally base 0");
    s.act("double ally base 0");
    assert_eq!(pools(&s), (0, 11, 50));
    assert_illegal(&s, "primary base 0");
}

// ================================================================ Machine Cult

#[test]
fn builder_bot_adds_1_trade_may_scrap_a_discard_allies_for_1_trade_and_scraps_for_2_combat() {
    let mut s = Builder::new()
        .hand(0, &["Builder Bot", "Viper"])
        .discard(0, &["Scout"])
        .ships(0, &["Plasma Bot"])
        .build();
    s.act("play builder_bot");
    assert_eq!(p1(&s).trade, 1);
    assert_eq!(
        s.pending,
        Some(scrap_pending(ScrapFrom::Discard, 1, true, 0, false))
    );
    assert_legal_exactly(&s, &["scrap discard scout", "pass"]);
    s.act("scrap discard scout");
    assert!(p1(&s).discard.is_empty());
    assert_cards(&s.scrap_heap, &["Scout"]);
    assert_cards(&p1(&s).hand, &["Viper"]);
    s.act("ally ship 1");
    assert_eq!(pools(&s), (2, 0, 50));
    s.act("scrap ship 1");
    assert_eq!(pools(&s), (2, 2, 50));
}

#[test]
fn plasma_bot_adds_3_combat_may_scrap_from_the_hand_only_and_allies_for_2_combat() {
    let mut s = Builder::new()
        .hand(0, &["Plasma Bot", "Viper"])
        .discard(0, &["Scout"])
        .ships(0, &["Builder Bot"])
        .build();
    s.act("play plasma_bot");
    assert_eq!(p1(&s).combat, 3);
    assert_eq!(
        s.pending,
        Some(scrap_pending(ScrapFrom::Hand, 1, true, 0, false))
    );
    assert_legal_exactly(&s, &["scrap hand viper", "pass"]);
    s.act("scrap hand viper");
    assert!(p1(&s).hand.is_empty());
    assert_cards(&s.scrap_heap, &["Viper"]);
    s.act("ally ship 1");
    assert_eq!(pools(&s), (0, 5, 50));
}

#[test]
fn destroyer_bot_adds_5_combat_and_may_scrap_from_the_discard_pile_only() {
    let mut s = Builder::new()
        .hand(0, &["Destroyer Bot", "Viper"])
        .discard(0, &["Scout"])
        .ships(0, &["Plasma Bot"])
        .build();
    s.act("play destroyer_bot");
    assert_eq!(p1(&s).combat, 5);
    assert_legal_exactly(&s, &["scrap discard scout", "pass"]);
    let mut scrapped = s.clone();
    scrapped.act("scrap discard scout");
    assert!(p1(&scrapped).discard.is_empty());
    assert_cards(&scrapped.scrap_heap, &["Scout"]);
    s.act("pass");
    assert_main_phase(&s);
    assert_cards(&p1(&s).discard, &["Scout"]);
    assert_illegal(&s, "ally ship 1");
    assert_illegal(&s, "scrap ship 1");
}

#[test]
fn integration_port_is_a_5_defense_outpost_for_1_trade() {
    assert_outpost("Integration Port", 5);
    let mut s = Builder::new()
        .bases(0, &["Integration Port"])
        .ships(0, &["Plasma Bot"])
        .build();
    assert!(p1(&s).bases[0].is_outpost());
    s.act("primary base 0");
    assert_eq!(pools(&s), (1, 0, 50));
    assert_illegal(&s, "ally base 0");
    assert_illegal(&s, "scrap base 0");
}

#[test]
fn defense_system_is_a_5_defense_outpost_for_2_combat_allying_for_2_more() {
    assert_outpost("Defense System", 5);
    let mut s = Builder::new()
        .bases(0, &["Defense System"])
        .ships(0, &["Plasma Bot"])
        .build();
    s.act("primary base 0");
    assert_eq!(pools(&s), (0, 2, 50));
    s.act("ally base 0");
    assert_eq!(pools(&s), (0, 4, 50));
}

#[test]
fn repair_mech_adds_3_trade_or_puts_a_base_of_the_discard_pile_on_top_of_the_deck() {
    let mut s = Builder::new()
        .hand(0, &["Repair Mech"])
        .discard(
            0,
            &["Scout", "Outland Station", "Defense System", "Stinger"],
        )
        .deck(0, &["Viper"])
        .build();
    s.act("play repair_mech");
    assert_legal_exactly(&s, &["choose 0", "choose 1"]);
    let mut trade = s.clone();
    trade.act("choose 0");
    assert_eq!(pools(&trade), (3, 0, 50));
    assert_eq!(p1(&trade).discard.len(), 4);
    s.act("choose 1");
    assert_eq!(s.pending, Some(Pending::BaseToTop));
    // Only bases (an outpost is a base).
    assert_legal_exactly(&s, &["top outland_station", "top defense_system"]);
    assert_illegal(&s, "top stinger");
    assert_illegal(&s, "pass");
    s.act("top defense_system");
    assert_deck(p1(&s), &["Defense System", "Viper"]);
    assert_eq!(p1(&s).deck_known, 1, "put there face up");
    assert_cards(&p1(&s).discard, &["Scout", "Outland Station", "Stinger"]);
    assert_eq!(pools(&s), (0, 0, 50));
    assert_main_phase(&s);
}

#[test]
fn repair_mech_with_no_base_in_the_discard_pile_does_nothing() {
    let mut s = Builder::new()
        .hand(0, &["Repair Mech"])
        .discard(0, &["Scout", "Stinger"])
        .deck(0, &["Viper"])
        .build();
    s.act("play repair_mech");
    s.act("choose 1");
    assert_main_phase(&s);
    assert_deck(p1(&s), &["Viper"]);
    assert_cards(&p1(&s).discard, &["Scout", "Stinger"]);
    assert_eq!(pools(&s), (0, 0, 50));
}

#[test]
fn repair_mech_allies_to_scrap_from_the_hand_or_discard_pile_optionally() {
    let mut s = Builder::new()
        .hand(0, &["Repair Mech", "Viper"])
        .discard(0, &["Scout"])
        .ships(0, &["Plasma Bot"])
        .build();
    s.act("play repair_mech");
    s.act("choose 0");
    s.act("ally ship 1");
    assert_eq!(
        s.pending,
        Some(scrap_pending(ScrapFrom::HandOrDiscard, 1, true, 0, false))
    );
    assert_legal_exactly(&s, &["scrap hand viper", "scrap discard scout", "pass"]);
    let mut declined = s.clone();
    declined.act("pass");
    assert_main_phase(&declined);
    assert!(declined.scrap_heap.is_empty());
    s.act("scrap discard scout");
    assert_cards(&s.scrap_heap, &["Scout"]);
    assert_eq!(pools(&s), (3, 0, 50));
}

#[test]
fn conversion_yard_scraps_a_hand_card_for_4_combat() {
    assert_outpost("Conversion Yard", 4);
    let mut s = Builder::new()
        .bases(0, &["Conversion Yard"])
        .hand(0, &["Viper", "Scout"])
        .discard(0, &["Stinger"])
        .build();
    s.act("primary base 0");
    assert_eq!(
        s.pending,
        Some(scrap_pending(ScrapFrom::Hand, 1, true, 4, false))
    );
    assert_legal_exactly(&s, &["scrap hand scout", "scrap hand viper", "pass"]);
    s.act("scrap hand viper");
    assert_eq!(pools(&s), (0, 4, 50));
    assert_cards(&s.scrap_heap, &["Viper"]);
    assert_cards(&p1(&s).hand, &["Scout"]);
    assert_main_phase(&s);
}

#[test]
fn conversion_yard_gives_nothing_when_nothing_is_scrapped() {
    let mut s = Builder::new()
        .bases(0, &["Conversion Yard"])
        .hand(0, &["Viper"])
        .build();
    s.act("primary base 0");
    s.act("pass");
    assert_main_phase(&s);
    assert_eq!(pools(&s), (0, 0, 50));
    assert_cards(&p1(&s).hand, &["Viper"]);
    // With an empty hand there is nothing to offer.
    let mut empty = Builder::new().bases(0, &["Conversion Yard"]).build();
    empty.act("primary base 0");
    assert_main_phase(&empty);
    assert_eq!(pools(&empty), (0, 0, 50));
}

#[test]
fn enforcer_mech_adds_5_combat_may_scrap_allies_to_destroy_a_base_and_scraps_to_draw() {
    let mut s = Builder::new()
        .hand(0, &["Enforcer Mech", "Viper"])
        .discard(0, &["Scout"])
        .ships(0, &["Plasma Bot"])
        .deck(0, &["Stinger"])
        .bases(1, &["Outland Station"])
        .build();
    s.act("play enforcer_mech");
    assert_eq!(p1(&s).combat, 5);
    assert_eq!(
        s.pending,
        Some(scrap_pending(ScrapFrom::HandOrDiscard, 1, true, 0, false))
    );
    assert_legal_exactly(&s, &["scrap hand viper", "scrap discard scout", "pass"]);
    s.act("scrap discard scout");
    assert_main_phase(&s);
    s.act("ally ship 1");
    assert_eq!(s.pending, Some(Pending::DestroyBase { optional: false }));
    assert_legal_exactly(&s, &["destroy p2 base 0"]);
    s.act("destroy p2 base 0");
    assert_cards(&p2(&s).discard, &["Outland Station"]);
    s.act("scrap ship 1");
    assert_cards(&p1(&s).hand, &["Viper", "Stinger"]);
    assert_cards(&s.scrap_heap, &["Scout", "Enforcer Mech"]);
    assert_eq!(pools(&s), (0, 5, 50));
}

#[test]
fn reclamation_station_primary_must_scrap_a_card_of_the_discard_pile() {
    assert_outpost("Reclamation Station", 6);
    let mut s = Builder::new()
        .bases(0, &["Reclamation Station"])
        .hand(0, &["Viper"])
        .discard(0, &["Scout", "Stinger"])
        .build();
    s.act("primary base 0");
    assert_eq!(
        s.pending,
        Some(scrap_pending(ScrapFrom::Discard, 1, false, 0, false))
    );
    assert_legal_exactly(&s, &["scrap discard scout", "scrap discard stinger"]);
    assert_illegal(&s, "pass");
    assert_illegal(&s, "scrap hand viper");
    s.act("scrap discard stinger");
    assert_cards(&p1(&s).discard, &["Scout"]);
    assert_cards(&s.scrap_heap, &["Stinger"]);
    assert_eq!(p1(&s).scrapped_all, 1);
    assert_main_phase(&s);
    // Its scrap ability counts that card and itself.
    s.act("scrap base 0");
    assert_eq!(p1(&s).scrapped_all, 2);
    assert_eq!(pools(&s), (0, 6, 50));
}

#[test]
fn reclamation_station_alone_scrapped_counts_itself() {
    let mut s = Builder::new().bases(0, &["Reclamation Station"]).build();
    s.act("scrap base 0");
    assert_eq!(pools(&s), (0, 3, 50));
    assert_cards(&s.scrap_heap, &["Reclamation Station"]);
    // With an empty discard pile, its primary has nothing to scrap.
    let mut empty = Builder::new().bases(0, &["Reclamation Station"]).build();
    empty.act("primary base 0");
    assert_main_phase(&empty);
}

#[test]
fn reclamation_station_counts_own_cards_scrapped_from_every_zone_but_not_the_trade_row() {
    let mut s = Builder::new()
        .hand(
            0,
            &["Plasma Bot", "Viper", "Explorer", "Stinger", "Blob Miner"],
        )
        .discard(0, &["Scout"])
        .deck(0, &["Viper"])
        .bases(0, &["Reclamation Station", "Outland Station"])
        .row(&["Crusher"])
        .build();
    s.act("play plasma_bot");
    s.act("scrap hand viper"); // hand: 1
    assert_eq!(p1(&s).scrapped_all, 1);
    s.act("primary base 0");
    s.act("scrap discard scout"); // discard pile: 2
    assert_eq!(p1(&s).scrapped_all, 2);
    s.act("play explorer");
    s.act("scrap ship 1"); // an Explorer in play: 3
    assert_eq!(p1(&s).scrapped_all, 3);
    assert_eq!(s.explorers, 11, "the Explorer goes back to its pile");
    s.act("play stinger");
    s.act("scrap ship 1"); // a ship in play: 4
    s.act("play blob_miner");
    s.act("scrap row 0"); // the trade row: not counted
    assert_eq!(p1(&s).scrapped_all, 4);
    s.act("scrap base 1"); // a base in play: 5
    assert_eq!(p1(&s).scrapped_all, 5);
    assert_cards(&p1(&s).hand, &["Viper"]);
    s.act("scrap base 0"); // itself: 6
    assert_eq!(p1(&s).scrapped_all, 6);
    // Combat: Plasma Bot 3, the Explorer's scrap 2, Stinger 3, Reclamation Station 6 × 3.
    // Trade: the Explorer 2, Stinger's scrap 1, Blob Miner 3.
    assert_eq!(pools(&s), (2 + 1 + 3, 3 + 2 + 3 + 18, 50));
    s.act("end");
    assert_eq!(p1(&s).scrapped_all, 0, "the count is per turn");
}

#[test]
fn neural_nexus_must_scrap_from_hand_or_discard_pile_for_combat_equal_to_the_cost() {
    assert_outpost("Neural Nexus", 6);
    let mut s = Builder::new()
        .bases(0, &["Neural Nexus"])
        .hand(0, &["Crusher"])
        .discard(0, &["Scout"])
        .build();
    s.act("primary base 0");
    assert_eq!(
        s.pending,
        Some(scrap_pending(ScrapFrom::HandOrDiscard, 1, false, 0, true))
    );
    assert_legal_exactly(&s, &["scrap hand crusher", "scrap discard scout"]);
    assert_illegal(&s, "pass");
    let mut scout = s.clone();
    scout.act("scrap discard scout");
    assert_eq!(pools(&scout), (0, 0, 50), "a Scout costs nothing");
    assert_cards(&scout.scrap_heap, &["Scout"]);
    s.act("scrap hand crusher");
    assert_eq!(pools(&s), (0, 3, 50));
    assert_cards(&s.scrap_heap, &["Crusher"]);
    assert!(p1(&s).hand.is_empty());
    assert_main_phase(&s);
}

#[test]
fn neural_nexus_allies_to_draw() {
    let mut s = Builder::new()
        .bases(0, &["Neural Nexus"])
        .ships(0, &["Plasma Bot"])
        .discard(0, &["Explorer"])
        .deck(0, &["Viper"])
        .build();
    s.act("primary base 0");
    s.act("scrap discard explorer");
    assert_eq!(p1(&s).combat, 2, "an Explorer costs 2");
    assert_eq!(s.explorers, 11);
    s.act("ally base 0");
    assert_cards(&p1(&s).hand, &["Viper"]);
}

#[test]
fn nanobot_swarm_adds_5_combat_draws_two_and_may_scrap_up_to_two_from_hand_and_discard() {
    let mut s = Builder::new()
        .hand(0, &["Nanobot Swarm", "Viper"])
        .discard(0, &["Scout"])
        .deck(0, &["Stinger", "Crusher"])
        .build();
    s.act("play nanobot_swarm");
    assert_eq!(pools(&s), (0, 5, 50));
    assert_cards(&p1(&s).hand, &["Viper", "Stinger", "Crusher"]);
    assert_eq!(
        s.pending,
        Some(scrap_pending(ScrapFrom::HandOrDiscard, 2, true, 0, false))
    );
    s.act("scrap hand stinger");
    assert!(matches!(
        s.pending,
        Some(Pending::Scrap {
            left: 1,
            done: 1,
            optional: true,
            ..
        })
    ));
    s.act("scrap discard scout");
    assert_main_phase(&s);
    assert_cards(&s.scrap_heap, &["Stinger", "Scout"]);
    assert_cards(&p1(&s).hand, &["Viper", "Crusher"]);
    assert!(p1(&s).discard.is_empty());
}

#[test]
fn nanobot_swarm_may_stop_after_one_scrap_or_none() {
    let mut s = Builder::new()
        .hand(0, &["Nanobot Swarm", "Viper"])
        .discard(0, &["Scout"])
        .deck(0, &["Stinger", "Crusher"])
        .build();
    s.act("play nanobot_swarm");
    let mut none = s.clone();
    none.act("pass");
    assert_main_phase(&none);
    assert!(none.scrap_heap.is_empty());
    s.act("scrap hand viper");
    s.act("pass");
    assert_main_phase(&s);
    assert_cards(&s.scrap_heap, &["Viper"]);
    assert_cards(&p1(&s).discard, &["Scout"]);
}

// ================================================================ Star Empire

#[test]
fn frontier_hawk_adds_3_combat_then_draws_and_must_discard_a_card() {
    let mut s = Builder::new()
        .hand(0, &["Frontier Hawk", "Viper"])
        .deck(0, &["Scout"])
        .hand(1, &["Viper"])
        .build();
    s.act("play frontier_hawk");
    assert_eq!(p1(&s).combat, 3);
    assert_cards(&p1(&s).hand, &["Viper", "Scout"]);
    assert_p1_must_discard(&s);
    assert_legal_exactly(&s, &["discard scout", "discard viper"]);
    s.act("discard viper");
    assert_cards(&p1(&s).hand, &["Scout"]);
    assert_cards(&p1(&s).discard, &["Viper"]);
    assert_cards(&p2(&s).hand, &["Viper"]);
    assert!(p2(&s).discard.is_empty(), "not an opponent discard");
    assert_eq!(p2(&s).pending_discards, 0);
    assert_main_phase(&s);
}

#[test]
fn frontier_hawk_discards_even_the_card_just_drawn_when_it_is_the_only_one() {
    let mut s = Builder::new()
        .hand(0, &["Frontier Hawk"])
        .deck(0, &["Scout"])
        .build();
    s.act("play frontier_hawk");
    assert_p1_must_discard(&s);
    assert_legal_exactly(&s, &["discard scout"]);
    s.act("discard scout");
    assert!(p1(&s).hand.is_empty());
    assert_cards(&p1(&s).discard, &["Scout"]);
}

#[test]
fn cargo_craft_adds_2_trade_makes_the_opponent_discard_and_allies_for_4_combat() {
    let mut s = Builder::new()
        .hand(0, &["Cargo Craft"])
        .ships(0, &["Frontier Hawk"])
        .hand(1, &["Scout"])
        .build();
    s.act("play cargo_craft");
    assert_eq!(p1(&s).trade, 2);
    assert_p2_must_discard(&s);
    s.act("discard scout");
    assert_cards(&p2(&s).discard, &["Scout"]);
    assert_main_phase(&s);
    s.act("ally ship 1");
    assert_eq!(pools(&s), (2, 4, 50));
}

#[test]
fn captured_outpost_is_a_3_defense_outpost_that_draws_then_must_discard() {
    assert_outpost("Captured Outpost", 3);
    let mut s = Builder::new()
        .bases(0, &["Captured Outpost"])
        .hand(0, &["Viper"])
        .deck(0, &["Scout"])
        .build();
    assert!(p1(&s).bases[0].is_outpost());
    s.act("primary base 0");
    assert_cards(&p1(&s).hand, &["Viper", "Scout"]);
    assert_p1_must_discard(&s);
    s.act("discard viper");
    assert_cards(&p1(&s).hand, &["Scout"]);
    assert_cards(&p1(&s).discard, &["Viper"]);
    assert_eq!(pools(&s), (0, 0, 50));
    assert_main_phase(&s);
}

#[test]
fn light_cruiser_adds_4_combat_makes_the_opponent_discard_allies_for_2_and_double_allies_to_draw() {
    let mut s = Builder::new()
        .hand(0, &["Light Cruiser"])
        .ships(0, &["Frontier Hawk", "Cargo Craft"])
        .deck(0, &["Scout"])
        .hand(1, &["Viper"])
        .build();
    s.act("play light_cruiser");
    assert_eq!(p1(&s).combat, 4);
    assert_p2_must_discard(&s);
    s.act("discard viper");
    s.act("ally ship 2");
    assert_eq!(pools(&s), (0, 6, 50));
    assert!(p1(&s).hand.is_empty());
    s.act("double ally ship 2");
    assert_cards(&p1(&s).hand, &["Scout"]);
    assert_eq!(pools(&s), (0, 6, 50));
}

#[test]
fn light_cruiser_has_no_double_ally_with_a_single_star_empire_card() {
    let mut s = Builder::new()
        .hand(0, &["Light Cruiser"])
        .bases(0, &["Orbital Gun Platform"])
        .deck(0, &["Scout"])
        .build();
    s.act("play light_cruiser");
    // p2's hand is empty: nothing to discard, the turn goes on.
    assert_main_phase(&s);
    assert_legal(&s, "ally ship 0");
    assert_illegal(&s, "double ally ship 0");
}

#[test]
fn farm_ship_adds_3_trade_draws_then_must_discard_and_scraps_for_4_combat() {
    let mut s = Builder::new()
        .hand(0, &["Farm Ship", "Scout"])
        .deck(0, &["Viper"])
        .build();
    s.act("play farm_ship");
    assert_eq!(p1(&s).trade, 3);
    assert_cards(&p1(&s).hand, &["Scout", "Viper"]);
    assert_p1_must_discard(&s);
    s.act("discard scout");
    assert_cards(&p1(&s).hand, &["Viper"]);
    assert_cards(&p1(&s).discard, &["Scout"]);
    s.act("scrap ship 0");
    assert_eq!(pools(&s), (3, 4, 50));
    assert_cards(&s.scrap_heap, &["Farm Ship"]);
}

#[test]
fn orbital_gun_platform_is_a_4_defense_outpost_for_3_combat_scrapping_for_3_trade() {
    assert_outpost("Orbital Gun Platform", 4);
    let mut s = Builder::new().bases(0, &["Orbital Gun Platform"]).build();
    s.act("primary base 0");
    assert_eq!(pools(&s), (0, 3, 50));
    s.act("scrap base 0");
    assert_eq!(pools(&s), (3, 3, 50));
    assert!(p1(&s).bases.is_empty());
}

#[test]
fn hammerhead_adds_3_combat_draws_makes_the_opponent_discard_and_allies_to_draw_then_discard() {
    let mut s = Builder::new()
        .hand(0, &["Hammerhead"])
        .ships(0, &["Cargo Craft"])
        .deck(0, &["Scout", "Viper"])
        .hand(1, &["Viper"])
        .build();
    s.act("play hammerhead");
    assert_eq!(p1(&s).combat, 3);
    assert_cards(&p1(&s).hand, &["Scout"]);
    assert_p2_must_discard(&s);
    s.act("discard viper");
    assert_cards(&p2(&s).discard, &["Viper"]);
    assert_main_phase(&s);
    s.act("ally ship 1");
    assert_cards(&p1(&s).hand, &["Scout", "Viper"]);
    assert_p1_must_discard(&s);
    s.act("discard scout");
    assert_cards(&p1(&s).hand, &["Viper"]);
    assert_cards(&p1(&s).discard, &["Scout"]);
    assert_main_phase(&s);
}

#[test]
fn jamming_terminal_is_a_6_defense_base_for_2_combat_and_an_opponent_discard() {
    assert_base("Jamming Terminal", 6);
    let mut s = Builder::new()
        .bases(0, &["Jamming Terminal"])
        .hand(1, &["Viper", "Scout"])
        .build();
    s.act("primary base 0");
    assert_eq!(pools(&s), (0, 2, 50));
    assert_p2_must_discard(&s);
    s.act("discard scout");
    assert_cards(&p2(&s).hand, &["Viper"]);
    assert_cards(&p2(&s).discard, &["Scout"]);
    assert_main_phase(&s);
}

#[test]
fn warpgate_cruiser_discards_any_number_for_2_combat_each_then_draws_one() {
    let mut s = Builder::new()
        .hand(0, &["Warpgate Cruiser", "Viper", "Scout", "Scout"])
        .deck(0, &["Stinger"])
        .build();
    s.act("play warpgate_cruiser");
    assert!(
        matches!(s.pending, Some(Pending::DiscardFor { left: 3, .. })),
        "pending: {:?}",
        s.pending
    );
    assert_legal_exactly(&s, &["discard scout", "discard viper", "pass"]);
    s.act("discard viper");
    assert_eq!(p1(&s).combat, 2);
    s.act("discard scout");
    assert_eq!(p1(&s).combat, 4);
    assert_eq!(p1(&s).hand.len(), 1, "no draw before the discards stop");
    s.act("pass");
    assert_main_phase(&s);
    assert_eq!(pools(&s), (0, 4, 50));
    assert_cards(&p1(&s).hand, &["Scout", "Stinger"]);
    assert_cards(&p1(&s).discard, &["Viper", "Scout"]);
}

#[test]
fn warpgate_cruiser_may_discard_nothing_and_still_draws() {
    let mut s = Builder::new()
        .hand(0, &["Warpgate Cruiser", "Viper"])
        .deck(0, &["Stinger"])
        .build();
    s.act("play warpgate_cruiser");
    s.act("pass");
    assert_main_phase(&s);
    assert_eq!(pools(&s), (0, 0, 50));
    assert_cards(&p1(&s).hand, &["Viper", "Stinger"]);
    assert!(p1(&s).discard.is_empty());
}

#[test]
fn warpgate_cruiser_discarding_the_whole_hand_stops_by_itself() {
    let mut s = Builder::new()
        .hand(0, &["Warpgate Cruiser", "Viper", "Scout"])
        .deck(0, &["Stinger"])
        .build();
    s.act("play warpgate_cruiser");
    s.act("discard viper");
    s.act("discard scout");
    assert_main_phase(&s);
    assert_eq!(pools(&s), (0, 4, 50));
    assert_cards(&p1(&s).hand, &["Stinger"]);
}

#[test]
fn warpgate_cruiser_allies_to_draw() {
    let mut s = Builder::new()
        .hand(0, &["Warpgate Cruiser"])
        .ships(0, &["Frontier Hawk"])
        .deck(0, &["Stinger", "Viper"])
        .build();
    s.act("play warpgate_cruiser");
    // An empty hand: nothing to discard, the draw follows at once.
    assert_main_phase(&s);
    assert_cards(&p1(&s).hand, &["Stinger"]);
    s.act("ally ship 1");
    assert_cards(&p1(&s).hand, &["Stinger", "Viper"]);
}

#[test]
fn siege_fortress_is_a_5_defense_outpost_for_5_combat_allying_for_4() {
    assert_outpost("Siege Fortress", 5);
    let mut s = Builder::new()
        .bases(0, &["Siege Fortress"])
        .ships(0, &["Frontier Hawk"])
        .build();
    s.act("primary base 0");
    assert_eq!(pools(&s), (0, 5, 50));
    s.act("ally base 0");
    assert_eq!(pools(&s), (0, 9, 50));
}

#[test]
fn imperial_flagship_adds_7_combat_and_draws_two() {
    let mut s = Builder::new()
        .hand(0, &["Imperial Flagship"])
        .deck(0, &["Scout", "Viper", "Stinger"])
        .build();
    s.act("play imperial_flagship");
    assert_eq!(pools(&s), (0, 7, 50));
    assert_cards(&p1(&s).hand, &["Scout", "Viper"]);
    assert_deck(p1(&s), &["Stinger"]);
    assert_main_phase(&s);
    assert_illegal(&s, "ally ship 0");
}

#[test]
fn imperial_flagship_ally_targets_a_player_oneself_included() {
    assert_eq!(
        Config::default().discard_timing,
        DiscardTiming::Immediate,
        "the default configuration discards at once"
    );
    let mut s = Builder::new()
        .hand(0, &["Imperial Flagship"])
        .ships(0, &["Frontier Hawk"])
        .deck(0, &["Scout", "Viper"])
        .hand(1, &["Viper"])
        .build();
    s.act("play imperial_flagship");
    s.act("ally ship 1");
    assert_eq!(s.pending, Some(Pending::PlayerDiscardTarget));
    assert_eq!(s.to_move(), Some(Seat(0)));
    assert_legal_exactly(&s, &["target p1", "target p2"]);
    let mut me = s.clone();
    me.act("target p1");
    assert_p1_must_discard(&me);
    assert_legal_exactly(&me, &["discard scout", "discard viper"]);
    me.act("discard scout");
    assert_cards(&p1(&me).hand, &["Viper"]);
    assert_cards(&p1(&me).discard, &["Scout"]);
    assert_cards(&p2(&me).hand, &["Viper"]);
    assert_main_phase(&me);
    s.act("target p2");
    assert_p2_must_discard(&s);
    assert_eq!(p2(&s).pending_discards, 0);
    s.act("discard viper");
    assert_cards(&p2(&s).discard, &["Viper"]);
    assert_cards(&p1(&s).hand, &["Scout", "Viper"]);
    assert_main_phase(&s);
}

#[test]
fn imperial_flagship_ally_with_next_turn_discards_owes_the_opponents_but_not_ones_own() {
    let build = || {
        Builder::new()
            .config(|c| c.discard_timing = DiscardTiming::NextTurn)
            .hand(0, &["Imperial Flagship"])
            .ships(0, &["Frontier Hawk"])
            .deck(0, &["Scout", "Viper"])
            .hand(1, &["Viper"])
            .build()
    };
    let mut s = build();
    s.act("play imperial_flagship");
    s.act("ally ship 1");
    s.act("target p2");
    assert_main_phase(&s);
    assert_eq!(p2(&s).pending_discards, 1);
    assert_cards(&p2(&s).hand, &["Viper"]);
    let mut me = build();
    me.act("play imperial_flagship");
    me.act("ally ship 1");
    me.act("target p1");
    assert_p1_must_discard(&me);
    assert_eq!(p1(&me).pending_discards, 0);
}

// ================================================================ Trade Federation

#[test]
fn frontier_runner_adds_2_trade_and_2_authority() {
    let mut s = Builder::new().hand(0, &["Frontier Runner"]).build();
    s.act("play frontier_runner");
    assert_eq!(pools(&s), (2, 0, 52));
    assert_illegal(&s, "scrap ship 0");
}

#[test]
fn orbital_shuttle_with_two_bases_also_gains_4_authority_and_draws() {
    let mut s = Builder::new()
        .hand(0, &["Orbital Shuttle"])
        .bases(0, &["Outland Station", "Spike Cluster"])
        .deck(0, &["Viper"])
        .build();
    s.act("play orbital_shuttle");
    assert_eq!(pools(&s), (3, 0, 54));
    assert_cards(&p1(&s).hand, &["Viper"]);
}

#[test]
fn orbital_shuttle_with_one_base_only_adds_3_trade() {
    let mut s = Builder::new()
        .hand(0, &["Orbital Shuttle"])
        .bases(0, &["Outland Station"])
        .deck(0, &["Viper"])
        .build();
    s.act("play orbital_shuttle");
    assert_eq!(pools(&s), (3, 0, 50));
    assert!(p1(&s).hand.is_empty());
    assert_deck(p1(&s), &["Viper"]);
}

#[test]
fn outland_station_adds_1_trade_or_3_authority_and_scraps_to_draw() {
    assert_base("Outland Station", 4);
    let mut s = Builder::new()
        .bases(0, &["Outland Station"])
        .deck(0, &["Viper"])
        .build();
    s.act("primary base 0");
    assert_legal_exactly(&s, &["choose 0", "choose 1"]);
    let mut trade = s.clone();
    trade.act("choose 0");
    assert_eq!(pools(&trade), (1, 0, 50));
    s.act("choose 1");
    assert_eq!(pools(&s), (0, 0, 53));
    s.act("scrap base 0");
    assert_cards(&p1(&s).hand, &["Viper"]);
    assert_cards(&s.scrap_heap, &["Outland Station"]);
}

#[test]
fn patrol_boat_adds_4_combat_3_authority_and_allies_for_2_authority() {
    let mut s = Builder::new()
        .hand(0, &["Patrol Boat"])
        .ships(0, &["Frontier Runner"])
        .build();
    s.act("play patrol_boat");
    assert_eq!(pools(&s), (0, 4, 53));
    s.act("ally ship 1");
    assert_eq!(pools(&s), (0, 4, 55));
}

#[test]
fn long_hauler_adds_3_trade_and_allies_for_2_trade() {
    let mut s = Builder::new()
        .hand(0, &["Long Hauler"])
        .ships(0, &["Frontier Runner"])
        .build();
    s.act("play long_hauler");
    assert_eq!(pools(&s), (3, 0, 50));
    s.act("ally ship 1");
    assert_eq!(pools(&s), (5, 0, 50));
}

#[test]
fn long_hauler_scrap_sends_only_the_next_base_bought_to_the_top_of_the_deck() {
    let mut s = Builder::new()
        .hand(0, &["Long Hauler"])
        .deck(0, &["Viper"])
        .pools(0, 4, 0)
        .row(&[
            "Stinger",
            "Outland Station",
            "Spike Cluster",
            "Frontier Runner",
        ])
        .build();
    s.act("play long_hauler");
    s.act("scrap ship 0");
    assert_eq!(p1(&s).next_base_top, 1);
    assert_eq!(p1(&s).trade, 7);
    let mut unused = s.clone();
    unused.act("end");
    assert_eq!(p1(&unused).next_base_top, 0, "only this turn");
    s.act("buy row 0");
    assert_cards(&p1(&s).discard, &["Stinger"]);
    assert_eq!(p1(&s).next_base_top, 1, "a ship does not use it");
    s.act("buy row 1");
    assert_main_phase(&s);
    assert_deck(p1(&s), &["Outland Station", "Viper"]);
    assert_eq!(p1(&s).deck_known, 1);
    assert_eq!(p1(&s).next_base_top, 0);
    s.act("buy row 2");
    s.act("buy row 3");
    assert_cards(
        &p1(&s).discard,
        &["Stinger", "Spike Cluster", "Frontier Runner"],
    );
    assert_deck(p1(&s), &["Outland Station", "Viper"]);
    assert_eq!(p1(&s).trade, 0);
}

#[test]
fn long_hauler_scrap_also_sends_a_base_acquired_for_free_to_the_top_of_the_deck() {
    let mut s = Builder::new()
        .hand(0, &["Long Hauler", "Burrower"])
        .row(&["Outland Station"])
        .build();
    s.act("play long_hauler");
    s.act("scrap ship 0");
    s.act("play burrower");
    s.act("scrap ship 0");
    s.act("acquire row 0");
    assert_deck(p1(&s), &["Outland Station"]);
    assert!(p1(&s).discard.is_empty());
    assert_eq!(p1(&s).next_base_top, 0);
}

#[test]
fn mobile_market_is_a_4_defense_outpost_for_2_trade() {
    assert_outpost("Mobile Market", 4);
    let mut s = Builder::new().bases(0, &["Mobile Market"]).build();
    s.act("primary base 0");
    assert_eq!(pools(&s), (2, 0, 50));
}

#[test]
fn mobile_market_scrapped_for_its_ability_returns_to_the_discard_pile_at_the_end_of_the_turn() {
    let mut s = Builder::new()
        .bases(0, &["Mobile Market"])
        .deck(0, &["Stinger", "Viper", "Scout", "Scout", "Scout", "Scout"])
        .build();
    s.act("scrap base 0");
    assert_eq!(pools(&s), (0, 0, 52));
    assert_cards(&p1(&s).hand, &["Stinger"]);
    assert_cards(&s.scrap_heap, &["Mobile Market"]);
    assert_eq!(p1(&s).returning, vec![card("Mobile Market")]);
    assert!(p1(&s).bases.is_empty());
    s.act("end");
    assert!(s.scrap_heap.is_empty(), "it left the scrap heap");
    // Back before the discard phase: under the hand's cards.
    assert_eq!(p1(&s).discard, vec![card("Mobile Market"), card("Stinger")]);
    assert_cards(&p1(&s).hand, &["Viper", "Scout", "Scout", "Scout", "Scout"]);
    assert!(p1(&s).deck.is_empty());
    assert!(p1(&s).returning.is_empty());
}

#[test]
fn mobile_market_scrapped_by_another_effect_stays_in_the_scrap_heap() {
    let mut s = Builder::new()
        .hand(0, &["Plasma Bot", "Mobile Market"])
        .deck(0, &["Viper", "Scout", "Scout", "Scout", "Scout"])
        .build();
    s.act("play plasma_bot");
    s.act("scrap hand mobile_market");
    assert!(p1(&s).returning.is_empty());
    s.act("end");
    assert_cards(&s.scrap_heap, &["Mobile Market"]);
    assert_cards(&p1(&s).discard, &["Plasma Bot"]);
    assert!(!p1(&s).all_cards().any(|c| c == card("Mobile Market")));
}

#[test]
fn federation_cruiser_adds_5_combat_4_authority_and_allies_for_2_combat_2_authority() {
    let mut s = Builder::new()
        .hand(0, &["Federation Cruiser"])
        .ships(0, &["Frontier Runner"])
        .build();
    s.act("play federation_cruiser");
    assert_eq!(pools(&s), (0, 5, 54));
    s.act("ally ship 1");
    assert_eq!(pools(&s), (0, 7, 56));
}

#[test]
fn ion_station_adds_2_trade_allies_for_1_trade_and_double_allies_for_4_combat_4_authority() {
    assert_outpost("Ion Station", 5);
    let mut s = Builder::new()
        .bases(0, &["Ion Station"])
        .ships(0, &["Frontier Runner", "Patrol Boat"])
        .build();
    s.act("primary base 0");
    assert_eq!(pools(&s), (2, 0, 50));
    s.act("double ally base 0");
    assert_eq!(pools(&s), (2, 4, 54));
    s.act("ally base 0");
    assert_eq!(pools(&s), (3, 4, 54));
    let one = Builder::new()
        .bases(0, &["Ion Station"])
        .ships(0, &["Frontier Runner"])
        .build();
    assert_legal(&one, "ally base 0");
    assert_illegal(&one, "double ally base 0");
}

#[test]
fn gateship_acquires_a_card_up_to_6_for_free_to_the_top_of_the_deck() {
    let mut s = Builder::new()
        .hand(0, &["Gateship"])
        .deck(0, &["Viper"])
        .row(&["Blob Alpha", "Swarm Cluster", "Outland Station"])
        .trade_deck(&["Stinger"])
        .build();
    s.act("play gateship");
    assert_eq!(
        s.pending,
        Some(Pending::AcquireUpTo {
            cost: 6,
            to: Dest::Top
        })
    );
    assert_legal_exactly(&s, &["acquire row 0", "acquire row 2", "acquire explorer"]);
    assert_illegal(&s, "acquire row 1");
    assert_illegal(&s, "pass");
    let mut base = s.clone();
    base.act("acquire row 2");
    assert_deck(p1(&base), &["Outland Station", "Viper"]);
    let mut explorer = s.clone();
    explorer.act("acquire explorer");
    assert_deck(p1(&explorer), &["Explorer", "Viper"]);
    assert_eq!(explorer.explorers, 9);
    s.act("acquire row 0");
    assert_deck(p1(&s), &["Blob Alpha", "Viper"]);
    assert_eq!(p1(&s).deck_known, 1);
    assert!(p1(&s).discard.is_empty());
    assert_eq!(s.row[0], Some(card("Stinger")));
    assert_eq!(pools(&s), (0, 0, 50));
    assert_main_phase(&s);
}

#[test]
fn gateship_allies_for_5_authority() {
    let mut s = Builder::new()
        .hand(0, &["Gateship"])
        .ships(0, &["Frontier Runner"])
        .row(&["Stinger"])
        .build();
    s.act("play gateship");
    s.act("acquire row 0");
    s.act("ally ship 1");
    assert_eq!(pools(&s), (0, 0, 55));
}

#[test]
fn federation_battleship_adds_5_combat_5_authority_draws_allies_to_destroy_and_scraps_for_10() {
    let mut s = Builder::new()
        .hand(0, &["Federation Battleship"])
        .ships(0, &["Frontier Runner"])
        .deck(0, &["Scout"])
        .bases(1, &["Spike Cluster"])
        .build();
    s.act("play federation_battleship");
    assert_eq!(pools(&s), (0, 5, 55));
    assert_cards(&p1(&s).hand, &["Scout"]);
    s.act("ally ship 1");
    assert_eq!(s.pending, Some(Pending::DestroyBase { optional: false }));
    assert_legal_exactly(&s, &["destroy p2 base 0"]);
    s.act("destroy p2 base 0");
    assert!(p2(&s).bases.is_empty());
    assert_cards(&p2(&s).discard, &["Spike Cluster"]);
    s.act("scrap ship 1");
    assert_eq!(pools(&s), (0, 5, 65));
    assert_cards(&s.scrap_heap, &["Federation Battleship"]);
}

#[test]
fn transit_nexus_is_a_6_defense_base_for_4_trade_3_combat_5_authority() {
    assert_base("Transit Nexus", 6);
    let mut s = Builder::new().bases(0, &["Transit Nexus"]).build();
    s.act("primary base 0");
    assert_eq!(pools(&s), (4, 3, 55));
    assert_illegal(&s, "primary base 0");
    assert_illegal(&s, "scrap base 0");
}

// ================================================================ the set

/// Every trade card: (id, English name, faction, cost, kind, defense, copies), typed from the
/// card list, not from the data file.
const TRADE_CARDS: &[(&str, &str, Faction, u8, Kind, u8, u8)] = {
    use Faction::{Blob as B, MachineCult as MC, StarEmpire as SE, TradeFederation as TF};
    use Kind::{Base as BASE, Outpost as OUT, Ship as SHIP};
    &[
        ("stinger", "Stinger", B, 1, SHIP, 0, 3),
        ("blob_miner", "Blob Miner", B, 2, SHIP, 0, 3),
        ("spike_cluster", "Spike Cluster", B, 2, BASE, 3, 2),
        ("burrower", "Burrower", B, 3, SHIP, 0, 2),
        ("crusher", "Crusher", B, 3, SHIP, 0, 2),
        ("moonwurm_hatchling", "Moonwurm Hatchling", B, 4, SHIP, 0, 2),
        ("nesting_ground", "Nesting Ground", B, 4, BASE, 5, 1),
        ("pulverizer", "Pulverizer", B, 5, SHIP, 0, 1),
        ("blob_alpha", "Blob Alpha", B, 6, SHIP, 0, 1),
        ("infested_moon", "Infested Moon", B, 6, BASE, 5, 1),
        ("hive_queen", "Hive Queen", B, 7, SHIP, 0, 1),
        ("swarm_cluster", "Swarm Cluster", B, 8, BASE, 8, 1),
        ("builder_bot", "Builder Bot", MC, 1, SHIP, 0, 3),
        ("plasma_bot", "Plasma Bot", MC, 2, SHIP, 0, 3),
        ("destroyer_bot", "Destroyer Bot", MC, 3, SHIP, 0, 3),
        ("integration_port", "Integration Port", MC, 3, OUT, 5, 2),
        ("defense_system", "Defense System", MC, 4, OUT, 5, 2),
        ("repair_mech", "Repair Mech", MC, 4, SHIP, 0, 2),
        ("conversion_yard", "Conversion Yard", MC, 5, OUT, 4, 1),
        ("enforcer_mech", "Enforcer Mech", MC, 5, SHIP, 0, 1),
        (
            "reclamation_station",
            "Reclamation Station",
            MC,
            6,
            OUT,
            6,
            1,
        ),
        ("neural_nexus", "Neural Nexus", MC, 7, OUT, 6, 1),
        ("nanobot_swarm", "Nanobot Swarm", MC, 8, SHIP, 0, 1),
        ("frontier_hawk", "Frontier Hawk", SE, 1, SHIP, 0, 3),
        ("cargo_craft", "Cargo Craft", SE, 2, SHIP, 0, 3),
        ("captured_outpost", "Captured Outpost", SE, 3, OUT, 3, 2),
        ("light_cruiser", "Light Cruiser", SE, 3, SHIP, 0, 3),
        ("farm_ship", "Farm Ship", SE, 4, SHIP, 0, 2),
        (
            "orbital_gun_platform",
            "Orbital Gun Platform",
            SE,
            4,
            OUT,
            4,
            2,
        ),
        ("hammerhead", "Hammerhead", SE, 5, SHIP, 0, 1),
        ("jamming_terminal", "Jamming Terminal", SE, 5, BASE, 6, 1),
        ("warpgate_cruiser", "Warpgate Cruiser", SE, 6, SHIP, 0, 1),
        ("siege_fortress", "Siege Fortress", SE, 7, OUT, 5, 1),
        ("imperial_flagship", "Imperial Flagship", SE, 8, SHIP, 0, 1),
        ("frontier_runner", "Frontier Runner", TF, 1, SHIP, 0, 3),
        ("orbital_shuttle", "Orbital Shuttle", TF, 2, SHIP, 0, 3),
        ("outland_station", "Outland Station", TF, 3, BASE, 4, 3),
        ("patrol_boat", "Patrol Boat", TF, 3, SHIP, 0, 2),
        ("long_hauler", "Long Hauler", TF, 4, SHIP, 0, 2),
        ("mobile_market", "Mobile Market", TF, 4, OUT, 4, 2),
        (
            "federation_cruiser",
            "Federation Cruiser",
            TF,
            5,
            SHIP,
            0,
            1,
        ),
        ("ion_station", "Ion Station", TF, 5, OUT, 5, 1),
        ("gateship", "Gateship", TF, 6, SHIP, 0, 1),
        (
            "federation_battleship",
            "Federation Battleship",
            TF,
            7,
            SHIP,
            0,
            1,
        ),
        ("transit_nexus", "Transit Nexus", TF, 8, BASE, 6, 1),
    ]
};

fn frontiers() -> Sets {
    Sets::parse("frontiers").unwrap()
}

#[test]
fn the_set_has_80_trade_cards_of_45_kinds_20_per_faction_as_published() {
    let set: &CardSet = cards();
    let index = set
        .sets
        .iter()
        .position(|s| s.name == "frontiers")
        .expect("the embedded set knows frontiers") as u8;
    let ours: Vec<_> = set.iter().filter(|(_, d)| d.set == index).collect();
    assert_eq!(ours.len(), 45);
    assert_eq!(TRADE_CARDS.len(), 45);
    for &(id, en, faction, cost, kind, defense, count) in TRADE_CARDS {
        let c = set.find(id).unwrap_or_else(|| panic!("no card `{id}`"));
        assert_eq!(set.find(en), Some(c), "{id}: found by its name");
        let d = set.def(c);
        assert_eq!(d.set, index, "{id}");
        assert_eq!(d.id(), id);
        assert_eq!(d.spec.name.en, en);
        assert_eq!(d.spec.faction, Some(faction), "{id}");
        assert_eq!(
            (d.cost(), d.kind(), d.defense(), d.spec.count),
            (cost, kind, defense, count),
            "{id}"
        );
        assert_eq!(d.spec.role, Role::Trade, "{id}");
    }
    let deck = set.trade_deck_of(frontiers());
    assert_eq!(deck.len(), 80);
    let mut distinct = deck.clone();
    distinct.dedup();
    assert_eq!(distinct.len(), 45, "45 distinct cards");
    for f in [
        Faction::Blob,
        Faction::MachineCult,
        Faction::StarEmpire,
        Faction::TradeFederation,
    ] {
        let n = deck
            .iter()
            .filter(|&&c| set.def(c).spec.faction == Some(f))
            .count();
        assert_eq!(n, 20, "{f:?}");
    }
    assert!(
        deck.iter().all(|&c| set.def(c).set == index),
        "no card of another set"
    );
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
fn a_game_of_base_colony_wars_and_frontiers_has_240_trade_cards_and_one_starting_deck_each() {
    let set = cards();
    let all = Sets::parse("base,colony_wars,frontiers").unwrap();
    assert_eq!(all.names(), ["base", "colony_wars", "frontiers"]);
    assert_eq!(set.trade_deck_of(all).len(), 240);
    for (sets, trade) in [("frontiers", 80), ("base,colony_wars,frontiers", 240)] {
        let config = Config {
            sets: Sets::parse(sets).unwrap(),
            ..Config::default()
        };
        let s = State::new(&config, 11).unwrap();
        let dealt = s.trade_deck.len() + s.row.iter().flatten().count();
        assert_eq!(dealt, trade, "{sets}");
        for p in &s.players.0 {
            let mine: Vec<_> = p.all_cards().collect();
            assert_eq!(mine.len(), 10, "{sets}");
            assert_eq!(mine.iter().filter(|&&c| c == set.scout).count(), 8);
            assert_eq!(mine.iter().filter(|&&c| c == set.viper).count(), 2);
        }
        assert_eq!(s.explorers, 10, "{sets}: a two-player pile");
    }
    let alone = State::new(
        &Config {
            sets: frontiers(),
            ..Config::default()
        },
        5,
    )
    .unwrap();
    let index = set.sets.iter().position(|s| s.name == "frontiers").unwrap() as u8;
    assert!(
        alone
            .trade_deck
            .iter()
            .chain(alone.row.iter().flatten())
            .all(|&c| set.def(c).set == index),
        "only Frontiers cards in a game of Frontiers"
    );
}

#[test]
fn the_new_action_texts_read_back() {
    for text in [
        "double ally ship 2",
        "double ally base 0",
        "top outland_station",
    ] {
        let a: Action = text.parse().expect("parses");
        assert_eq!(a.to_string(), text);
        use game::Action as _;
        assert_eq!(Action::from_index(a.index()), Some(a));
    }
}
