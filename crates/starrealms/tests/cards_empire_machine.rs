//! Per-card rule tests for the Star Empire and Machine Cult cards of the base set, written from
//! `/work/shared/cards-base-set.md` (the published card list and rule points).

use game::Seat;
use starrealms::scenario::{Builder, card};
use starrealms::state::Pending;
use starrealms::{DiscardTiming, State};

mod common;

use common::*;

// ---------------------------------------------------------------- helpers

#[track_caller]
fn assert_main_phase_p1(s: &State) {
    assert_eq!(s.pending, None);
    assert_eq!(s.to_move(), Some(Seat(0)));
}

fn next_turn() -> impl FnOnce(&mut starrealms::Config) {
    |c| c.discard_timing = DiscardTiming::NextTurn
}

// ================================================================ Star Empire

// ---------------------------------------------------------------- Imperial Fighter

#[test]
fn imperial_fighter_primary_combat_and_opponent_discards_at_once() {
    let mut s = Builder::new()
        .hand(0, &["Imperial Fighter"])
        .hand(1, &["Scout", "Viper", "Explorer"])
        .build();
    s.act("play imperial fighter");
    assert_eq!(p1(&s).combat, 2);
    assert_eq!(p1(&s).trade, 0);
    assert_p2_must_discard(&s);
    assert_legal_exactly(&s, &["discard scout", "discard viper", "discard explorer"]);
    s.act("discard viper");
    assert_cards(&p2(&s).hand, &["Scout", "Explorer"]);
    assert_cards(&p2(&s).discard, &["Viper"]);
    assert_eq!(p2(&s).pending_discards, 0);
    assert_main_phase_p1(&s);
    // Alone, it has no Star Empire ally; it has no scrap ability.
    assert_illegal(&s, "ally ship 0");
    assert_illegal(&s, "scrap ship 0");
    assert_eq!(p1(&s).combat, 2);
}

#[test]
fn imperial_fighter_ally_with_another_star_empire_card_once_per_turn() {
    let mut s = Builder::new()
        .ships(0, &["Trade Bot"])
        .hand(0, &["Imperial Fighter", "Imperial Fighter"])
        .build();
    s.act("play imperial fighter");
    // p2 has no card in hand: nothing happens.
    assert_main_phase_p1(&s);
    assert!(p2(&s).discard.is_empty());
    assert_eq!(p1(&s).combat, 2);
    // A Machine Cult ship is no Star Empire ally.
    assert_illegal(&s, "ally ship 1");
    s.act("play imperial fighter");
    assert_eq!(p1(&s).combat, 4);
    s.act("ally ship 1");
    assert_eq!(p1(&s).combat, 6);
    assert_illegal(&s, "ally ship 1");
    s.act("ally ship 2");
    assert_eq!(p1(&s).combat, 8);
    assert_illegal(&s, "ally ship 2");
}

#[test]
fn imperial_fighter_discard_next_turn_timing() {
    let mut s = Builder::new()
        .config(next_turn())
        .hand(0, &["Imperial Fighter"])
        .deck(0, &["Scout", "Scout", "Scout", "Scout", "Scout"])
        .hand(1, &["Scout", "Viper", "Explorer"])
        .build();
    s.act("play imperial fighter");
    assert_eq!(p1(&s).combat, 2);
    assert_main_phase_p1(&s);
    assert_eq!(p2(&s).pending_discards, 1);
    assert_eq!(p2(&s).hand.len(), 3);
    assert!(p2(&s).discard.is_empty());
    s.act("end");
    // Start of p2's turn: p2 discards first.
    assert_eq!(s.current, Seat(1));
    assert_eq!(s.to_move(), Some(Seat(1)));
    assert!(matches!(
        s.pending,
        Some(Pending::Discard {
            seat: Seat(1),
            left: 1
        })
    ));
    assert_legal_exactly(&s, &["discard scout", "discard viper", "discard explorer"]);
    s.act("discard explorer");
    assert_cards(&p2(&s).hand, &["Scout", "Viper"]);
    assert_cards(&p2(&s).discard, &["Explorer"]);
    assert_eq!(p2(&s).pending_discards, 0);
    assert_eq!(s.pending, None);
    assert_legal(&s, "play scout");
}

// ---------------------------------------------------------------- Corvette

#[test]
fn corvette_primary_combat_and_draw_no_ally_alone() {
    let mut s = Builder::new()
        .hand(0, &["Corvette"])
        .deck(0, &["Viper", "Scout"])
        .build();
    s.act("play corvette");
    assert_eq!(p1(&s).combat, 1);
    assert_eq!(p1(&s).trade, 0);
    assert_cards(&p1(&s).hand, &["Viper"]);
    assert_deck(p1(&s), &["Scout"]);
    assert_main_phase_p1(&s);
    assert_illegal(&s, "ally ship 0");
    assert_illegal(&s, "scrap ship 0");
}

#[test]
fn corvette_ally_with_star_empire_once() {
    let mut s = Builder::new()
        .ships(0, &["Imperial Fighter"])
        .hand(0, &["Corvette"])
        .deck(0, &["Viper"])
        .build();
    s.act("play corvette");
    assert_eq!(p1(&s).combat, 1);
    s.act("ally ship 1");
    assert_eq!(p1(&s).combat, 3);
    assert_illegal(&s, "ally ship 1");
}

#[test]
fn corvette_ally_not_with_other_faction() {
    let mut s = Builder::new()
        .bases(0, &["Trading Post"])
        .ships(0, &["Blob Fighter"])
        .hand(0, &["Corvette"])
        .deck(0, &["Viper"])
        .build();
    s.act("play corvette");
    assert_illegal(&s, "ally ship 1");
}

// ---------------------------------------------------------------- Imperial Frigate

#[test]
fn imperial_frigate_primary_and_ally_with_star_empire_base() {
    let mut s = Builder::new()
        .bases(0, &["Space Station"])
        .hand(0, &["Imperial Frigate"])
        .hand(1, &["Scout", "Viper"])
        .build();
    s.act("play imperial frigate");
    assert_eq!(p1(&s).combat, 4);
    assert_p2_must_discard(&s);
    assert_legal_exactly(&s, &["discard scout", "discard viper"]);
    s.act("discard scout");
    assert_cards(&p2(&s).hand, &["Viper"]);
    assert_cards(&p2(&s).discard, &["Scout"]);
    assert_main_phase_p1(&s);
    s.act("ally ship 0");
    assert_eq!(p1(&s).combat, 6);
    assert_illegal(&s, "ally ship 0");
}

#[test]
fn imperial_frigate_alone_has_no_ally() {
    let mut s = Builder::new()
        .bases(0, &["Trading Post"])
        .hand(0, &["Imperial Frigate"])
        .build();
    s.act("play imperial frigate");
    assert_eq!(p1(&s).combat, 4);
    // p2's hand is empty: nothing to discard.
    assert_main_phase_p1(&s);
    assert_illegal(&s, "ally ship 0");
}

#[test]
fn imperial_frigate_scrap_draws_a_card() {
    let mut s = Builder::new()
        .ships(0, &["Corvette"])
        .hand(0, &["Imperial Frigate"])
        .deck(0, &["Viper", "Scout"])
        .build();
    s.act("play imperial frigate");
    // Ally first, then scrap.
    s.act("ally ship 1");
    assert_eq!(p1(&s).combat, 6);
    s.act("scrap ship 1");
    assert_eq!(p1(&s).combat, 6);
    assert_eq!(p1(&s).ships.len(), 1);
    assert_eq!(p1(&s).ships[0].card, card("Corvette"));
    assert_cards(&s.scrap_heap, &["Imperial Frigate"]);
    assert_cards(&p1(&s).hand, &["Viper"]);
    assert_deck(p1(&s), &["Scout"]);
    assert!(p1(&s).discard.is_empty());
    assert_main_phase_p1(&s);
}

#[test]
fn two_forced_discards_next_turn_are_both_owed() {
    let mut s = Builder::new()
        .config(next_turn())
        .hand(0, &["Imperial Fighter", "Imperial Frigate"])
        .deck(0, &["Scout", "Scout", "Scout", "Scout", "Scout"])
        .hand(1, &["Scout", "Viper", "Explorer"])
        .build();
    s.act("play imperial fighter");
    s.act("play imperial frigate");
    assert_eq!(p1(&s).combat, 6);
    assert_eq!(p2(&s).pending_discards, 2);
    s.act("end");
    assert!(matches!(
        s.pending,
        Some(Pending::Discard {
            seat: Seat(1),
            left: 2
        })
    ));
    s.act("discard viper");
    assert!(matches!(
        s.pending,
        Some(Pending::Discard {
            seat: Seat(1),
            left: 1
        })
    ));
    s.act("discard scout");
    assert_eq!(s.pending, None);
    assert_cards(&p2(&s).hand, &["Explorer"]);
    assert_cards(&p2(&s).discard, &["Viper", "Scout"]);
    assert_eq!(p2(&s).pending_discards, 0);
}

#[test]
fn two_forced_discards_immediate_one_after_the_other() {
    let mut s = Builder::new()
        .hand(0, &["Imperial Fighter", "Imperial Frigate"])
        .hand(1, &["Scout", "Viper"])
        .build();
    s.act("play imperial fighter");
    assert_p2_must_discard(&s);
    s.act("discard scout");
    assert_main_phase_p1(&s);
    s.act("play imperial frigate");
    assert_p2_must_discard(&s);
    assert_legal_exactly(&s, &["discard viper"]);
    s.act("discard viper");
    assert_main_phase_p1(&s);
    assert!(p2(&s).hand.is_empty());
    assert_cards(&p2(&s).discard, &["Scout", "Viper"]);
    assert_eq!(p1(&s).combat, 6);
    s.act("ally ship 0");
    s.act("ally ship 1");
    assert_eq!(p1(&s).combat, 10);
}

// ---------------------------------------------------------------- Survey Ship

#[test]
fn survey_ship_primary_trade_and_draw_no_ally() {
    let mut s = Builder::new()
        .ships(0, &["Imperial Fighter"])
        .hand(0, &["Survey Ship"])
        .deck(0, &["Viper", "Scout"])
        .hand(1, &["Scout"])
        .build();
    s.act("play survey ship");
    assert_eq!(p1(&s).trade, 1);
    assert_eq!(p1(&s).combat, 0);
    assert_cards(&p1(&s).hand, &["Viper"]);
    assert_deck(p1(&s), &["Scout"]);
    // Its primary makes nobody discard.
    assert_main_phase_p1(&s);
    assert_cards(&p2(&s).hand, &["Scout"]);
    // No ally ability, even with a Star Empire card in play.
    assert_illegal(&s, "ally ship 1");
}

#[test]
fn survey_ship_scrap_opponent_discards() {
    let mut s = Builder::new()
        .hand(0, &["Survey Ship"])
        .deck(0, &["Viper"])
        .hand(1, &["Scout", "Viper"])
        .build();
    s.act("play survey ship");
    s.act("scrap ship 0");
    assert!(p1(&s).ships.is_empty());
    assert_cards(&s.scrap_heap, &["Survey Ship"]);
    assert_p2_must_discard(&s);
    s.act("discard viper");
    assert_cards(&p2(&s).hand, &["Scout"]);
    assert_cards(&p2(&s).discard, &["Viper"]);
    assert_main_phase_p1(&s);
    assert_eq!(p1(&s).trade, 1);
    assert!(p1(&s).discard.is_empty());
}

#[test]
fn survey_ship_scrap_next_turn_timing() {
    let mut s = Builder::new()
        .config(next_turn())
        .hand(0, &["Survey Ship"])
        .deck(0, &["Viper"])
        .hand(1, &["Scout", "Viper"])
        .build();
    s.act("play survey ship");
    s.act("scrap ship 0");
    assert_main_phase_p1(&s);
    assert_eq!(p2(&s).pending_discards, 1);
    assert_eq!(p2(&s).hand.len(), 2);
    assert_cards(&s.scrap_heap, &["Survey Ship"]);
}

#[test]
fn survey_ship_scrap_with_empty_opponent_hand_does_nothing() {
    let mut s = Builder::new()
        .hand(0, &["Survey Ship"])
        .deck(0, &["Viper"])
        .build();
    s.act("play survey ship");
    s.act("scrap ship 0");
    assert_main_phase_p1(&s);
    assert!(p2(&s).discard.is_empty());
    assert_eq!(p2(&s).pending_discards, 0);
    assert_cards(&s.scrap_heap, &["Survey Ship"]);
}

// ---------------------------------------------------------------- Battlecruiser

#[test]
fn battlecruiser_primary_and_ally_opponent_discards() {
    let mut s = Builder::new()
        .ships(0, &["Corvette"])
        .hand(0, &["Battlecruiser"])
        .deck(0, &["Viper", "Scout"])
        .hand(1, &["Scout", "Explorer"])
        .build();
    s.act("play battlecruiser");
    assert_eq!(p1(&s).combat, 5);
    assert_cards(&p1(&s).hand, &["Viper"]);
    assert_deck(p1(&s), &["Scout"]);
    // The primary does not make the opponent discard.
    assert_main_phase_p1(&s);
    assert_eq!(p2(&s).hand.len(), 2);
    s.act("ally ship 1");
    assert_p2_must_discard(&s);
    s.act("discard explorer");
    assert_cards(&p2(&s).hand, &["Scout"]);
    assert_cards(&p2(&s).discard, &["Explorer"]);
    assert_main_phase_p1(&s);
    assert_eq!(p1(&s).combat, 5);
    assert_illegal(&s, "ally ship 1");
}

#[test]
fn battlecruiser_ally_next_turn_timing() {
    let mut s = Builder::new()
        .config(next_turn())
        .bases(0, &["War World"])
        .hand(0, &["Battlecruiser"])
        .deck(0, &["Viper"])
        .hand(1, &["Scout", "Explorer"])
        .build();
    s.act("play battlecruiser");
    s.act("ally ship 0");
    assert_main_phase_p1(&s);
    assert_eq!(p2(&s).pending_discards, 1);
    assert_eq!(p2(&s).hand.len(), 2);
}

#[test]
fn battlecruiser_alone_has_no_ally() {
    let mut s = Builder::new()
        .ships(0, &["Trade Bot"])
        .hand(0, &["Battlecruiser"])
        .deck(0, &["Viper"])
        .hand(1, &["Scout"])
        .build();
    s.act("play battlecruiser");
    assert_illegal(&s, "ally ship 1");
}

#[test]
fn battlecruiser_scrap_draws_and_destroys_a_base() {
    let mut s = Builder::new()
        .hand(0, &["Battlecruiser"])
        .deck(0, &["Viper", "Scout", "Explorer"])
        .bases(1, &["Blob Wheel", "Trading Post"])
        .build();
    s.act("play battlecruiser");
    assert_cards(&p1(&s).hand, &["Viper"]);
    s.act("scrap ship 0");
    assert!(p1(&s).ships.is_empty());
    assert_cards(&s.scrap_heap, &["Battlecruiser"]);
    assert_cards(&p1(&s).hand, &["Viper", "Scout"]);
    assert_deck(p1(&s), &["Explorer"]);
    assert_eq!(
        s.pending,
        Some(Pending::DestroyBase { optional: true }),
        "may destroy target base"
    );
    // The outpost protects the Blob Wheel.
    assert_legal_exactly(&s, &["destroy p2 base 1", "pass"]);
    s.act("destroy p2 base 1");
    assert_eq!(p2(&s).bases.len(), 1);
    assert_eq!(p2(&s).bases[0].card, card("Blob Wheel"));
    assert_cards(&p2(&s).discard, &["Trading Post"]);
    assert_eq!(p1(&s).combat, 5);
    assert_main_phase_p1(&s);
}

#[test]
fn battlecruiser_scrap_may_decline_to_destroy() {
    let mut s = Builder::new()
        .hand(0, &["Battlecruiser"])
        .deck(0, &["Viper", "Scout"])
        .bases(1, &["Blob Wheel"])
        .build();
    s.act("play battlecruiser");
    s.act("scrap ship 0");
    assert_legal_exactly(&s, &["destroy p2 base 0", "pass"]);
    s.act("pass");
    assert_eq!(p2(&s).bases.len(), 1);
    assert!(p2(&s).discard.is_empty());
    assert_cards(&p1(&s).hand, &["Viper", "Scout"]);
    assert_cards(&s.scrap_heap, &["Battlecruiser"]);
    assert_main_phase_p1(&s);
}

#[test]
fn battlecruiser_scrap_without_opponent_base_just_draws() {
    let mut s = Builder::new()
        .hand(0, &["Battlecruiser"])
        .deck(0, &["Viper", "Scout"])
        .build();
    s.act("play battlecruiser");
    s.act("scrap ship 0");
    assert_main_phase_p1(&s);
    assert_cards(&p1(&s).hand, &["Viper", "Scout"]);
}

// ---------------------------------------------------------------- Dreadnaught

#[test]
fn dreadnaught_primary_and_scrap() {
    let mut s = Builder::new()
        .ships(0, &["Imperial Fighter"])
        .hand(0, &["Dreadnaught"])
        .deck(0, &["Viper", "Scout"])
        .build();
    s.act("play dreadnaught");
    assert_eq!(p1(&s).combat, 7);
    assert_cards(&p1(&s).hand, &["Viper"]);
    assert_deck(p1(&s), &["Scout"]);
    // No ally ability, even with a Star Empire card in play.
    assert_illegal(&s, "ally ship 1");
    s.act("scrap ship 1");
    assert_eq!(p1(&s).combat, 12);
    assert_eq!(p1(&s).ships.len(), 1);
    assert_cards(&s.scrap_heap, &["Dreadnaught"]);
    assert_cards(&p1(&s).hand, &["Viper"]);
    assert_main_phase_p1(&s);
}

// ---------------------------------------------------------------- Recycling Station

#[test]
fn recycling_station_trade_option() {
    let mut s = Builder::new()
        .hand(0, &["Recycling Station", "Scout"])
        .deck(0, &["Viper"])
        .build();
    s.act("play recycling station");
    assert_eq!(p1(&s).bases.len(), 1);
    assert_eq!(p1(&s).bases[0].card, card("Recycling Station"));
    s.act("primary base 0");
    assert_legal_exactly(&s, &["choose 0", "choose 1"]);
    s.act("choose 0");
    assert_eq!(p1(&s).trade, 1);
    assert_eq!(p1(&s).combat, 0);
    assert_cards(&p1(&s).hand, &["Scout"]);
    assert_main_phase_p1(&s);
    assert_illegal(&s, "primary base 0");
    assert_illegal(&s, "ally base 0");
    assert_illegal(&s, "scrap base 0");
}

#[test]
fn recycling_station_discard_two_then_draw_two() {
    let mut s = Builder::new()
        .bases(0, &["Recycling Station"])
        .hand(0, &["Scout", "Viper", "Explorer"])
        .deck(0, &["Corvette", "Dreadnaught", "Battlecruiser"])
        .build();
    s.act("primary base 0");
    s.act("choose 1");
    assert_legal_exactly(
        &s,
        &["discard scout", "discard viper", "discard explorer", "pass"],
    );
    s.act("discard scout");
    assert_legal_exactly(&s, &["discard viper", "discard explorer", "pass"]);
    s.act("discard viper");
    assert_main_phase_p1(&s);
    assert_cards(&p1(&s).hand, &["Explorer", "Corvette", "Dreadnaught"]);
    assert_cards(&p1(&s).discard, &["Scout", "Viper"]);
    assert_deck(p1(&s), &["Battlecruiser"]);
    assert_eq!(p1(&s).trade, 0);
    assert_illegal(&s, "primary base 0");
}

#[test]
fn recycling_station_discard_one_then_draw_one() {
    let mut s = Builder::new()
        .bases(0, &["Recycling Station"])
        .hand(0, &["Scout", "Viper"])
        .deck(0, &["Corvette", "Dreadnaught"])
        .build();
    s.act("primary base 0");
    s.act("choose 1");
    s.act("discard scout");
    s.act("pass");
    assert_main_phase_p1(&s);
    assert_cards(&p1(&s).hand, &["Viper", "Corvette"]);
    assert_cards(&p1(&s).discard, &["Scout"]);
    assert_deck(p1(&s), &["Dreadnaught"]);
    assert_eq!(p1(&s).trade, 0);
}

#[test]
fn recycling_station_discard_none_draws_none() {
    let mut s = Builder::new()
        .bases(0, &["Recycling Station"])
        .hand(0, &["Scout", "Viper"])
        .deck(0, &["Corvette", "Dreadnaught"])
        .build();
    s.act("primary base 0");
    s.act("choose 1");
    s.act("pass");
    assert_main_phase_p1(&s);
    assert_cards(&p1(&s).hand, &["Scout", "Viper"]);
    assert!(p1(&s).discard.is_empty());
    assert_deck(p1(&s), &["Corvette", "Dreadnaught"]);
    assert_eq!(p1(&s).trade, 0);
    assert_illegal(&s, "primary base 0");
}

// ---------------------------------------------------------------- Space Station

#[test]
fn space_station_primary_ally_and_scrap() {
    let mut s = Builder::new()
        .ships(0, &["Imperial Fighter"])
        .bases(0, &["Space Station"])
        .build();
    s.act("primary base 0");
    assert_eq!(p1(&s).combat, 2);
    assert_illegal(&s, "primary base 0");
    s.act("ally base 0");
    assert_eq!(p1(&s).combat, 4);
    assert_illegal(&s, "ally base 0");
    s.act("scrap base 0");
    assert_eq!(p1(&s).trade, 4);
    assert_eq!(p1(&s).combat, 4);
    assert!(p1(&s).bases.is_empty());
    assert_cards(&s.scrap_heap, &["Space Station"]);
    assert!(p1(&s).discard.is_empty());
}

#[test]
fn space_station_no_ally_without_star_empire() {
    let mut s = Builder::new()
        .ships(0, &["Trade Bot"])
        .hand(0, &["Space Station"])
        .build();
    s.act("play space station");
    assert_eq!(p1(&s).bases.len(), 1);
    assert_illegal(&s, "ally base 0");
    s.act("primary base 0");
    assert_eq!(p1(&s).combat, 2);
    assert_illegal(&s, "ally base 0");
}

#[test]
fn space_station_primary_again_next_turn() {
    let mut s = Builder::new()
        .bases(0, &["Space Station"])
        .deck(0, &["Scout", "Scout", "Scout", "Scout", "Scout"])
        .deck(1, &["Viper", "Viper", "Viper", "Viper", "Viper"])
        .build();
    s.act("primary base 0");
    assert_eq!(p1(&s).combat, 2);
    s.act("end");
    assert_eq!(p1(&s).combat, 0);
    s.act("end");
    assert_eq!(s.current, Seat(0));
    assert_legal(&s, "primary base 0");
    s.act("primary base 0");
    assert_eq!(p1(&s).combat, 2);
}

// ---------------------------------------------------------------- War World

#[test]
fn war_world_primary_and_ally() {
    let mut s = Builder::new()
        .ships(0, &["Corvette"])
        .bases(0, &["War World"])
        .build();
    s.act("primary base 0");
    assert_eq!(p1(&s).combat, 3);
    assert_illegal(&s, "primary base 0");
    s.act("ally base 0");
    assert_eq!(p1(&s).combat, 7);
    assert_illegal(&s, "ally base 0");
    assert_illegal(&s, "scrap base 0");
    assert_eq!(p1(&s).bases.len(), 1);
}

#[test]
fn war_world_no_ally_without_star_empire() {
    let mut s = Builder::new()
        .bases(0, &["War World", "Battle Station"])
        .build();
    assert_illegal(&s, "ally base 0");
    s.act("primary base 0");
    assert_eq!(p1(&s).combat, 3);
    assert_illegal(&s, "ally base 0");
}

// ---------------------------------------------------------------- Royal Redoubt

#[test]
fn royal_redoubt_primary_and_ally_opponent_discards() {
    let mut s = Builder::new()
        .ships(0, &["Imperial Fighter"])
        .bases(0, &["Royal Redoubt"])
        .hand(1, &["Scout", "Viper"])
        .build();
    s.act("primary base 0");
    assert_eq!(p1(&s).combat, 3);
    assert_main_phase_p1(&s);
    assert_illegal(&s, "primary base 0");
    s.act("ally base 0");
    assert_p2_must_discard(&s);
    s.act("discard scout");
    assert_cards(&p2(&s).hand, &["Viper"]);
    assert_cards(&p2(&s).discard, &["Scout"]);
    assert_main_phase_p1(&s);
    assert_eq!(p1(&s).combat, 3);
    assert_illegal(&s, "ally base 0");
    assert_illegal(&s, "scrap base 0");
}

#[test]
fn royal_redoubt_no_ally_alone() {
    let mut s = Builder::new()
        .bases(0, &["Royal Redoubt"])
        .hand(1, &["Scout"])
        .build();
    s.act("primary base 0");
    assert_eq!(p1(&s).combat, 3);
    assert_illegal(&s, "ally base 0");
}

#[test]
fn royal_redoubt_ally_next_turn_timing() {
    let mut s = Builder::new()
        .config(next_turn())
        .bases(0, &["Royal Redoubt", "Space Station"])
        .hand(1, &["Scout", "Viper"])
        .build();
    s.act("ally base 0");
    assert_main_phase_p1(&s);
    assert_eq!(p2(&s).pending_discards, 1);
    assert_eq!(p2(&s).hand.len(), 2);
}

// ---------------------------------------------------------------- Fleet HQ

#[test]
fn fleet_hq_one_combat_per_ship_played_while_in_play() {
    let mut s = Builder::new()
        .bases(0, &["Fleet HQ"])
        .hand(0, &["Scout", "Viper", "Space Station", "Imperial Fighter"])
        .build();
    // Only a static ability.
    assert_illegal(&s, "primary base 0");
    assert_illegal(&s, "ally base 0");
    assert_illegal(&s, "scrap base 0");
    s.act("play scout");
    assert_eq!((p1(&s).trade, p1(&s).combat), (1, 1));
    s.act("play viper");
    assert_eq!(p1(&s).combat, 3);
    // A base played is not a ship.
    s.act("play space station");
    assert_eq!(p1(&s).combat, 3);
    s.act("primary base 1");
    assert_eq!(p1(&s).combat, 5);
    s.act("play imperial fighter");
    assert_eq!(p1(&s).combat, 8);
    assert_eq!(p1(&s).trade, 1);
}

#[test]
fn fleet_hq_ships_played_before_it_do_not_count() {
    let mut s = Builder::new()
        .ships(0, &["Corvette"])
        .hand(0, &["Viper", "Fleet HQ", "Scout"])
        .build();
    s.act("play viper");
    assert_eq!(p1(&s).combat, 1);
    s.act("play fleet hq");
    assert_eq!(p1(&s).combat, 1);
    assert_eq!(p1(&s).trade, 0);
    s.act("play scout");
    assert_eq!(p1(&s).combat, 2);
    assert_eq!(p1(&s).trade, 1);
}

// ================================================================ Machine Cult

// ---------------------------------------------------------------- Trade Bot, Missile Bot, Supply Bot

/// A bot: primary `trade`/`combat` and "you may scrap a card in your hand or discard pile";
/// ally (Machine Cult) 2 combat.
fn check_bot(name: &str, trade: u16, combat: u16) {
    let play = format!("play {name}");

    // Scrap from hand; no ally alone.
    let mut s = Builder::new()
        .hand(0, &[name, "Scout"])
        .discard(0, &["Viper"])
        .build();
    s.act(&play);
    assert_eq!((p1(&s).trade, p1(&s).combat), (trade, combat));
    assert!(matches!(
        s.pending,
        Some(Pending::Scrap { optional: true, .. })
    ));
    assert_legal_exactly(&s, &["scrap hand scout", "scrap discard viper", "pass"]);
    s.act("scrap hand scout");
    assert_main_phase_p1(&s);
    assert!(p1(&s).hand.is_empty());
    assert_cards(&p1(&s).discard, &["Viper"]);
    assert_cards(&s.scrap_heap, &["Scout"]);
    assert_illegal(&s, "ally ship 0");
    assert_illegal(&s, "scrap ship 0");

    // Scrap from the discard pile; ally with another Machine Cult card, once.
    let mut s = Builder::new()
        .ships(0, &["Battle Mech"])
        .hand(0, &[name])
        .discard(0, &["Scout", "Viper"])
        .build();
    s.act(&play);
    s.act("scrap discard viper");
    assert_main_phase_p1(&s);
    assert_cards(&p1(&s).discard, &["Scout"]);
    assert_cards(&s.scrap_heap, &["Viper"]);
    s.act("ally ship 1");
    assert_eq!((p1(&s).trade, p1(&s).combat), (trade, combat + 2));
    assert_illegal(&s, "ally ship 1");

    // Declined.
    let mut s = Builder::new()
        .hand(0, &[name, "Scout"])
        .discard(0, &["Viper"])
        .build();
    s.act(&play);
    s.act("pass");
    assert_main_phase_p1(&s);
    assert_cards(&p1(&s).hand, &["Scout"]);
    assert_cards(&p1(&s).discard, &["Viper"]);
    assert!(s.scrap_heap.is_empty());
    assert_eq!((p1(&s).trade, p1(&s).combat), (trade, combat));

    // A scrapped Explorer returns to the Explorer pile.
    let mut s = Builder::new()
        .hand(0, &[name, "Explorer"])
        .explorers(9)
        .build();
    s.act(&play);
    s.act("scrap hand explorer");
    assert_eq!(s.explorers, 10);
    assert!(s.scrap_heap.is_empty());
    assert!(p1(&s).hand.is_empty());
    assert!(p1(&s).discard.is_empty());

    // Nothing to scrap: no decision.
    let mut s = Builder::new().hand(0, &[name]).build();
    s.act(&play);
    assert_main_phase_p1(&s);
    assert_eq!((p1(&s).trade, p1(&s).combat), (trade, combat));
}

#[test]
fn trade_bot() {
    check_bot("Trade Bot", 1, 0);
}

#[test]
fn missile_bot() {
    check_bot("Missile Bot", 0, 2);
}

#[test]
fn supply_bot() {
    check_bot("Supply Bot", 2, 0);
}

// ---------------------------------------------------------------- Patrol Mech

#[test]
fn patrol_mech_trade_option_no_ally_alone() {
    let mut s = Builder::new()
        .hand(0, &["Patrol Mech", "Scout"])
        .discard(0, &["Viper"])
        .build();
    s.act("play patrol mech");
    assert_legal_exactly(&s, &["choose 0", "choose 1"]);
    s.act("choose 0");
    assert_eq!((p1(&s).trade, p1(&s).combat), (3, 0));
    assert_main_phase_p1(&s);
    assert_illegal(&s, "ally ship 0");
    assert_illegal(&s, "scrap ship 0");
}

#[test]
fn patrol_mech_combat_option_and_mandatory_ally_scrap() {
    let mut s = Builder::new()
        .ships(0, &["Trade Bot"])
        .hand(0, &["Patrol Mech", "Scout"])
        .discard(0, &["Viper"])
        .build();
    s.act("play patrol mech");
    s.act("choose 1");
    assert_eq!((p1(&s).trade, p1(&s).combat), (0, 5));
    s.act("ally ship 1");
    assert!(matches!(
        s.pending,
        Some(Pending::Scrap {
            optional: false,
            ..
        })
    ));
    // Once used, the scrap is not optional.
    assert_legal_exactly(&s, &["scrap hand scout", "scrap discard viper"]);
    assert_illegal(&s, "pass");
    s.act("scrap discard viper");
    assert_main_phase_p1(&s);
    assert!(p1(&s).discard.is_empty());
    assert_cards(&p1(&s).hand, &["Scout"]);
    assert_cards(&s.scrap_heap, &["Viper"]);
    assert_illegal(&s, "ally ship 1");
    assert_eq!((p1(&s).trade, p1(&s).combat), (0, 5));
}

#[test]
fn patrol_mech_ally_scrap_from_hand() {
    let mut s = Builder::new()
        .bases(0, &["Battle Station"])
        .hand(0, &["Patrol Mech", "Scout"])
        .build();
    s.act("play patrol mech");
    s.act("choose 0");
    s.act("ally ship 0");
    assert_legal_exactly(&s, &["scrap hand scout"]);
    s.act("scrap hand scout");
    assert!(p1(&s).hand.is_empty());
    assert_cards(&s.scrap_heap, &["Scout"]);
    assert_eq!(p1(&s).trade, 3);
}

// ---------------------------------------------------------------- Stealth Needle

#[test]
fn stealth_needle_copies_primary_ally_and_faction() {
    let mut s = Builder::new()
        .ships(0, &["Imperial Fighter"])
        .hand(0, &["Stealth Needle"])
        .deck(0, &["Scout", "Scout", "Scout", "Scout", "Scout"])
        .hand(1, &["Scout", "Viper"])
        .build();
    // Alone, the Imperial Fighter has no Star Empire ally.
    assert_illegal(&s, "ally ship 0");
    s.act("play stealth needle");
    assert_eq!(s.pending, Some(Pending::CopyShip { ship: 1 }));
    // It cannot copy itself.
    assert_legal_exactly(&s, &["copy ship 0"]);
    s.act("copy ship 0");
    // The copied primary fires: 2 combat and the opponent discards.
    assert_eq!(p1(&s).combat, 2);
    assert_p2_must_discard(&s);
    s.act("discard scout");
    assert_cards(&p2(&s).discard, &["Scout"]);
    assert_main_phase_p1(&s);
    assert_eq!(p1(&s).ships[1].card, card("Stealth Needle"));
    assert_eq!(p1(&s).ships[1].copy, Some(card("Imperial Fighter")));
    // It is Star Empire now: the Fighter's ally works, and so does the copied ally.
    s.act("ally ship 0");
    assert_eq!(p1(&s).combat, 4);
    s.act("ally ship 1");
    assert_eq!(p1(&s).combat, 6);
    assert_illegal(&s, "ally ship 1");
    // Discarded at the end of the turn as a Stealth Needle.
    s.act("end");
    assert_cards(&p1(&s).discard, &["Imperial Fighter", "Stealth Needle"]);
    assert!(p1(&s).ships.is_empty());
    assert_cards(&p1(&s).hand, &["Scout", "Scout", "Scout", "Scout", "Scout"]);
}

#[test]
fn stealth_needle_gains_copied_faction_and_stays_machine_cult() {
    let mut s = Builder::new()
        .ships(0, &["Blob Fighter", "Trade Bot"])
        .hand(0, &["Stealth Needle"])
        .deck(0, &["Viper", "Scout", "Explorer"])
        .build();
    assert_illegal(&s, "ally ship 0");
    assert_illegal(&s, "ally ship 1");
    s.act("play stealth needle");
    assert_legal_exactly(&s, &["copy ship 0", "copy ship 1"]);
    s.act("copy ship 0");
    assert_eq!(p1(&s).combat, 3);
    assert_main_phase_p1(&s);
    // Blob (copied) for the Blob Fighter, Machine Cult (own) for the Trade Bot.
    s.act("ally ship 0");
    assert_cards(&p1(&s).hand, &["Viper"]);
    s.act("ally ship 1");
    assert_eq!(p1(&s).combat, 5);
    s.act("ally ship 2");
    assert_cards(&p1(&s).hand, &["Viper", "Scout"]);
    assert_deck(p1(&s), &["Explorer"]);
    assert_illegal(&s, "ally ship 2");
}

#[test]
fn stealth_needle_copied_scrap_scraps_the_needle() {
    let mut s = Builder::new()
        .ships(0, &["Imperial Frigate"])
        .hand(0, &["Stealth Needle"])
        .deck(0, &["Viper", "Scout"])
        .build();
    s.act("play stealth needle");
    s.act("copy ship 0");
    assert_eq!(p1(&s).combat, 4);
    assert_main_phase_p1(&s);
    assert_legal(&s, "scrap ship 1");
    s.act("scrap ship 1");
    assert_cards(&s.scrap_heap, &["Stealth Needle"]);
    assert_eq!(p1(&s).ships.len(), 1);
    assert_eq!(p1(&s).ships[0].card, card("Imperial Frigate"));
    assert_cards(&p1(&s).hand, &["Viper"]);
    assert_deck(p1(&s), &["Scout"]);
    assert_eq!(p1(&s).combat, 4);
}

#[test]
fn stealth_needle_copies_a_choice() {
    let mut s = Builder::new()
        .ships(0, &["Patrol Mech"])
        .hand(0, &["Stealth Needle"])
        .build();
    s.act("play stealth needle");
    s.act("copy ship 0");
    assert_legal_exactly(&s, &["choose 0", "choose 1"]);
    s.act("choose 1");
    assert_eq!((p1(&s).trade, p1(&s).combat), (0, 5));
    assert_main_phase_p1(&s);
}

#[test]
fn stealth_needle_with_no_other_ship_does_nothing() {
    let mut s = Builder::new()
        .bases(0, &["Space Station"])
        .hand(0, &["Stealth Needle", "Viper"])
        .build();
    s.act("play stealth needle");
    assert_main_phase_p1(&s);
    assert_eq!((p1(&s).trade, p1(&s).combat), (0, 0));
    assert_eq!(p1(&s).ships[0].copy, None);
    assert_illegal(&s, "ally ship 0");
    assert_illegal(&s, "scrap ship 0");
    // A ship played afterwards is not copied.
    s.act("play viper");
    assert_main_phase_p1(&s);
    assert_eq!(p1(&s).combat, 1);
    assert_eq!(p1(&s).ships[0].copy, None);
}

#[test]
fn stealth_needle_with_fleet_hq_gains_one_combat_once() {
    let mut s = Builder::new()
        .bases(0, &["Fleet HQ"])
        .ships(0, &["Viper"])
        .hand(0, &["Stealth Needle"])
        .build();
    s.act("play stealth needle");
    assert_eq!(p1(&s).combat, 1);
    s.act("copy ship 0");
    assert_eq!(p1(&s).combat, 2);
}

// ---------------------------------------------------------------- Battle Mech

#[test]
fn battle_mech_primary_scrap_and_no_ally_alone() {
    let mut s = Builder::new()
        .hand(0, &["Battle Mech", "Scout"])
        .discard(0, &["Viper"])
        .build();
    s.act("play battle mech");
    assert_eq!(p1(&s).combat, 4);
    assert_legal_exactly(&s, &["scrap hand scout", "scrap discard viper", "pass"]);
    s.act("scrap discard viper");
    assert_main_phase_p1(&s);
    assert_cards(&s.scrap_heap, &["Viper"]);
    assert!(p1(&s).discard.is_empty());
    assert_cards(&p1(&s).hand, &["Scout"]);
    assert_illegal(&s, "ally ship 0");
}

#[test]
fn battle_mech_decline_scrap_and_ally_draws() {
    let mut s = Builder::new()
        .bases(0, &["Battle Station"])
        .hand(0, &["Battle Mech", "Scout"])
        .deck(0, &["Viper", "Explorer"])
        .build();
    s.act("play battle mech");
    s.act("pass");
    assert!(s.scrap_heap.is_empty());
    assert_cards(&p1(&s).hand, &["Scout"]);
    s.act("ally ship 0");
    assert_cards(&p1(&s).hand, &["Scout", "Viper"]);
    assert_deck(p1(&s), &["Explorer"]);
    assert_eq!(p1(&s).combat, 4);
    assert_illegal(&s, "ally ship 0");
}

// ---------------------------------------------------------------- Missile Mech

#[test]
fn missile_mech_primary_destroys_base() {
    let mut s = Builder::new()
        .hand(0, &["Missile Mech"])
        .bases(1, &["Blob Wheel"])
        .build();
    s.act("play missile mech");
    assert_eq!(p1(&s).combat, 6);
    assert_eq!(s.pending, Some(Pending::DestroyBase { optional: true }));
    assert_legal_exactly(&s, &["destroy p2 base 0", "pass"]);
    s.act("destroy p2 base 0");
    assert!(p2(&s).bases.is_empty());
    assert_cards(&p2(&s).discard, &["Blob Wheel"]);
    assert_main_phase_p1(&s);
    assert_eq!(p1(&s).combat, 6);
    assert_illegal(&s, "ally ship 0");
}

#[test]
fn missile_mech_may_decline_and_ally_draws() {
    let mut s = Builder::new()
        .ships(0, &["Trade Bot"])
        .hand(0, &["Missile Mech"])
        .deck(0, &["Viper", "Scout"])
        .bases(1, &["Trading Post"])
        .build();
    s.act("play missile mech");
    s.act("pass");
    assert_eq!(p2(&s).bases.len(), 1);
    assert!(p2(&s).discard.is_empty());
    assert_main_phase_p1(&s);
    s.act("ally ship 1");
    assert_cards(&p1(&s).hand, &["Viper"]);
    assert_deck(p1(&s), &["Scout"]);
    assert_illegal(&s, "ally ship 1");
    assert_eq!(p1(&s).combat, 6);
}

#[test]
fn missile_mech_without_opponent_base() {
    let mut s = Builder::new().hand(0, &["Missile Mech"]).build();
    s.act("play missile mech");
    assert_eq!(p1(&s).combat, 6);
    assert_main_phase_p1(&s);
}

// ---------------------------------------------------------------- Battle Station

#[test]
fn battle_station_scrap_only() {
    let mut s = Builder::new()
        .hand(0, &["Battle Station"])
        .ships(0, &["Trade Bot"])
        .build();
    s.act("play battle station");
    assert_eq!(p1(&s).bases.len(), 1);
    assert_illegal(&s, "primary base 0");
    assert_illegal(&s, "ally base 0");
    assert_eq!(p1(&s).combat, 0);
    s.act("scrap base 0");
    assert_eq!(p1(&s).combat, 5);
    assert!(p1(&s).bases.is_empty());
    assert_cards(&s.scrap_heap, &["Battle Station"]);
    assert!(p1(&s).discard.is_empty());
}

#[test]
fn battle_station_is_an_outpost() {
    let s = Builder::new()
        .pools(0, 0, 5)
        .bases(1, &["Battle Station"])
        .build();
    assert_illegal(&s, "attack p2 1");
    assert_legal(&s, "attack p2 base 0");
}

// ---------------------------------------------------------------- Mech World

#[test]
fn mech_world_is_an_ally_for_every_faction() {
    let mut s = Builder::new()
        .bases(0, &["Mech World"])
        .hand(
            0,
            &["Blob Fighter", "Cutter", "Imperial Fighter", "Trade Bot"],
        )
        .deck(0, &["Viper"])
        .build();
    // No ability of its own to use.
    assert_illegal(&s, "primary base 0");
    assert_illegal(&s, "scrap base 0");
    s.act("play blob fighter");
    assert_eq!(p1(&s).combat, 3);
    s.act("ally ship 0");
    assert_cards(
        &p1(&s).hand,
        &["Cutter", "Imperial Fighter", "Trade Bot", "Viper"],
    );
    s.act("play cutter");
    assert_eq!(p1(&s).authority, 54);
    assert_eq!(p1(&s).trade, 2);
    s.act("ally ship 1");
    assert_eq!(p1(&s).combat, 7);
    s.act("play imperial fighter");
    assert_eq!(p1(&s).combat, 9);
    s.act("ally ship 2");
    assert_eq!(p1(&s).combat, 11);
    s.act("play trade bot");
    s.act("pass");
    s.act("ally ship 3");
    assert_eq!(p1(&s).combat, 13);
    assert_eq!(p1(&s).trade, 3);
}

#[test]
fn without_mech_world_those_allies_are_missing() {
    let mut s = Builder::new()
        .bases(0, &["Battle Station"])
        .hand(0, &["Blob Fighter", "Cutter"])
        .build();
    s.act("play blob fighter");
    s.act("play cutter");
    assert_illegal(&s, "ally ship 0");
    assert_illegal(&s, "ally ship 1");
}

#[test]
fn mech_world_played_this_turn_counts() {
    let mut s = Builder::new().hand(0, &["Mech World", "Trade Pod"]).build();
    s.act("play trade pod");
    assert_illegal(&s, "ally ship 0");
    s.act("play mech world");
    s.act("ally ship 0");
    assert_eq!((p1(&s).trade, p1(&s).combat), (3, 2));
}

// ---------------------------------------------------------------- Junkyard

#[test]
fn junkyard_scraps_from_hand() {
    let mut s = Builder::new()
        .bases(0, &["Junkyard"])
        .hand(0, &["Scout"])
        .discard(0, &["Viper"])
        .build();
    s.act("primary base 0");
    assert!(matches!(
        s.pending,
        Some(Pending::Scrap {
            optional: false,
            ..
        })
    ));
    assert_legal_exactly(&s, &["scrap hand scout", "scrap discard viper"]);
    s.act("scrap hand scout");
    assert_main_phase_p1(&s);
    assert!(p1(&s).hand.is_empty());
    assert_cards(&p1(&s).discard, &["Viper"]);
    assert_cards(&s.scrap_heap, &["Scout"]);
    assert_illegal(&s, "primary base 0");
    assert_illegal(&s, "ally base 0");
    assert_illegal(&s, "scrap base 0");
}

#[test]
fn junkyard_scraps_from_discard_explorer_to_pile() {
    let mut s = Builder::new()
        .bases(0, &["Junkyard"])
        .hand(0, &["Scout"])
        .discard(0, &["Explorer", "Viper"])
        .explorers(7)
        .build();
    s.act("primary base 0");
    s.act("scrap discard explorer");
    assert_eq!(s.explorers, 8);
    assert!(s.scrap_heap.is_empty());
    assert_cards(&p1(&s).discard, &["Viper"]);
    assert_cards(&p1(&s).hand, &["Scout"]);
}

// ---------------------------------------------------------------- Machine Base

#[test]
fn machine_base_draws_then_must_scrap_from_hand() {
    let mut s = Builder::new()
        .bases(0, &["Machine Base"])
        .hand(0, &["Viper"])
        .deck(0, &["Scout", "Explorer"])
        .discard(0, &["Corvette"])
        .build();
    s.act("primary base 0");
    assert_cards(&p1(&s).hand, &["Viper", "Scout"]);
    assert_deck(p1(&s), &["Explorer"]);
    // From hand only (not the discard pile), and not optional.
    assert_legal_exactly(&s, &["scrap hand scout", "scrap hand viper"]);
    assert_illegal(&s, "pass");
    s.act("scrap hand scout");
    assert_main_phase_p1(&s);
    assert_cards(&p1(&s).hand, &["Viper"]);
    assert_cards(&p1(&s).discard, &["Corvette"]);
    assert_cards(&s.scrap_heap, &["Scout"]);
    assert_illegal(&s, "primary base 0");
    assert_illegal(&s, "scrap base 0");
}

#[test]
fn machine_base_may_scrap_the_card_drawn_from_empty_hand() {
    let mut s = Builder::new()
        .bases(0, &["Machine Base"])
        .deck(0, &["Explorer"])
        .explorers(5)
        .build();
    s.act("primary base 0");
    assert_legal_exactly(&s, &["scrap hand explorer"]);
    s.act("scrap hand explorer");
    assert!(p1(&s).hand.is_empty());
    assert_eq!(s.explorers, 6);
    assert!(s.scrap_heap.is_empty());
}

// ---------------------------------------------------------------- Brain World

#[test]
fn brain_world_scraps_two_and_draws_two() {
    let mut s = Builder::new()
        .bases(0, &["Brain World"])
        .hand(0, &["Scout", "Viper"])
        .discard(0, &["Explorer", "Corvette"])
        .deck(0, &["Dreadnaught", "Battlecruiser", "Survey Ship"])
        .explorers(9)
        .build();
    s.act("primary base 0");
    assert_legal_exactly(
        &s,
        &[
            "scrap hand scout",
            "scrap hand viper",
            "scrap discard explorer",
            "scrap discard corvette",
            "pass",
        ],
    );
    s.act("scrap hand scout");
    // Nothing drawn before the scrapping is over.
    assert_cards(&p1(&s).hand, &["Viper"]);
    s.act("scrap discard explorer");
    assert_main_phase_p1(&s);
    assert_eq!(s.explorers, 10);
    assert_cards(&s.scrap_heap, &["Scout"]);
    assert_cards(&p1(&s).discard, &["Corvette"]);
    assert_cards(&p1(&s).hand, &["Viper", "Dreadnaught", "Battlecruiser"]);
    assert_deck(p1(&s), &["Survey Ship"]);
    assert_illegal(&s, "primary base 0");
}

#[test]
fn brain_world_scrap_one_then_pass_draws_one() {
    let mut s = Builder::new()
        .bases(0, &["Brain World"])
        .hand(0, &["Scout"])
        .discard(0, &["Corvette"])
        .deck(0, &["Dreadnaught", "Battlecruiser"])
        .build();
    s.act("primary base 0");
    s.act("scrap discard corvette");
    assert_legal_exactly(&s, &["scrap hand scout", "pass"]);
    s.act("pass");
    assert_main_phase_p1(&s);
    assert_cards(&s.scrap_heap, &["Corvette"]);
    assert!(p1(&s).discard.is_empty());
    assert_cards(&p1(&s).hand, &["Scout", "Dreadnaught"]);
    assert_deck(p1(&s), &["Battlecruiser"]);
}

#[test]
fn brain_world_pass_at_once_draws_nothing() {
    let mut s = Builder::new()
        .bases(0, &["Brain World"])
        .hand(0, &["Scout"])
        .discard(0, &["Corvette"])
        .deck(0, &["Dreadnaught"])
        .build();
    s.act("primary base 0");
    s.act("pass");
    assert_main_phase_p1(&s);
    assert!(s.scrap_heap.is_empty());
    assert_cards(&p1(&s).hand, &["Scout"]);
    assert_cards(&p1(&s).discard, &["Corvette"]);
    assert_deck(p1(&s), &["Dreadnaught"]);
    assert_illegal(&s, "primary base 0");
    assert_illegal(&s, "ally base 0");
    assert_illegal(&s, "scrap base 0");
}
