//! Every action: when it is legal, what it does.

mod common;

use common::*;
use cosmique::{Action, Attack, Card, Defence, Side, State, Variant};
use game::ActionError;

/// `p1` holds red3, blue2, blue2 and a +2; its orbit holds green4, p3's yellow1.
fn table() -> State {
    let mut s = blank(Variant::Standard);
    give(&mut s, P1, &["red3", "blue2", "blue2", "plus2"]);
    orbit(&mut s, P1, "green4");
    orbit(&mut s, P3, "yellow1");
    s
}

#[test]
fn legal_actions_are_sorted_unique_and_complete() {
    let s = table();
    assert_eq!(
        legal_texts(&s),
        [
            "attack left red3",
            "attack left red3 plus2",
            "attack left blue2",
            "attack left blue2 plus2",
            "attack right red3",
            "attack right red3 plus2",
            "attack right blue2",
            "attack right blue2 plus2",
            "defend left red3",
            "defend left blue2",
            "defend right red3",
            "defend right blue2",
            "take orbit",
            "swap p3 red3",
            "swap p3 blue2",
            "swap p3 plus2",
            "end",
        ]
    );
}

#[test]
fn an_attack_lands_face_down_in_the_neighbours_slot_facing_the_attacker() {
    let mut s = table();
    act(&mut s, "attack left red3");
    // p1's left neighbour is p2 (next clockwise); p2's slot facing p1 is its right one.
    let expected = Attack {
        card: meteor("red3"),
        plus2: false,
        by: P1,
    };
    assert_eq!(s.planets[P2].slot(Side::Right).attack, Some(expected));
    assert_eq!(s.planets[P1].hand.count(card("red3")), 0);
    assert_eq!((s.current, s.actions_left), (P1, 1));
    // One attack per slot: the same slot cannot be attacked again before it resolves.
    let before = s.clone();
    let err = s.apply("attack left blue2".parse().unwrap()).unwrap_err();
    assert!(matches!(err, ActionError::Illegal { .. }), "{err}");
    assert!(err.to_string().contains("already holds an attack"), "{err}");
    assert_eq!(s, before);
    // The right neighbour is p4 (previous clockwise); the attack lands in p4's left slot.
    act(&mut s, "attack right blue2");
    assert_eq!(
        s.planets[P4]
            .slot(Side::Left)
            .attack
            .map(|a| (a.card, a.by)),
        Some((meteor("blue2"), P1))
    );
    // Two actions done: the turn passed to p2 by itself.
    assert_eq!((s.current, s.actions_left, s.turn), (P2, 2, 2));
    assert_conserved(&s);
}

#[test]
fn an_attack_with_a_plus2_takes_both_actions() {
    let mut s = table();
    act(&mut s, "attack right blue2 plus2");
    assert_eq!(
        s.planets[P4].slot(Side::Left).attack,
        Some(Attack {
            card: meteor("blue2"),
            plus2: true,
            by: P1
        })
    );
    assert_eq!(s.planets[P1].hand.count(Card::Plus2), 0);
    assert_eq!((s.current, s.turn), (P2, 2), "the turn is over");
    assert_conserved(&s);

    // Never as the second action.
    let mut s = table();
    act(&mut s, "take orbit");
    assert!(
        !s.legal_actions()
            .iter()
            .any(|a| matches!(a, Action::Attack { plus2: true, .. }))
    );
    let err = s
        .apply("attack left red3 plus2".parse().unwrap())
        .unwrap_err();
    assert!(err.to_string().contains("first action"), "{err}");

    // Never without a +2 in hand, and never alone.
    let mut s = blank(Variant::Standard);
    give(&mut s, P1, &["red3"]);
    let err = s
        .apply("attack left red3 plus2".parse().unwrap())
        .unwrap_err();
    assert!(err.to_string().contains("no plus2"), "{err}");
    assert!("attack left plus2".parse::<Action>().is_err());
}

#[test]
fn a_defence_goes_face_down_on_an_empty_slot_of_ones_own() {
    let mut s = table();
    act(&mut s, "defend left blue2");
    assert_eq!(
        s.planets[P1].slot(Side::Left).defence,
        Some(Defence {
            card: meteor("blue2"),
            revealed: false
        })
    );
    let texts = legal_texts(&s);
    assert!(!texts.iter().any(|t| t.starts_with("defend left")));
    assert!(texts.contains(&"defend right red3".to_string()));
    assert!(texts.contains(&"replace left red3".to_string()));
    assert!(!texts.iter().any(|t| t.starts_with("replace right")));
    let err = s.apply("defend left red3".parse().unwrap()).unwrap_err();
    assert!(err.to_string().contains("already has a defence"), "{err}");
    let err = s.apply("replace right red3".parse().unwrap()).unwrap_err();
    assert!(err.to_string().contains("no defence"), "{err}");
    // A +2 never defends.
    assert!("defend right plus2".parse::<Action>().is_err());
    assert_conserved(&s);
}

#[test]
fn replacing_a_defence_discards_the_old_one_revealed_or_not() {
    for revealed in [false, true] {
        let mut s = blank(Variant::Standard);
        give(&mut s, P1, &["red3", "red3"]);
        defence(&mut s, P1, Side::Right, "green5", revealed);
        act(&mut s, "replace right red3");
        assert_eq!(
            s.planets[P1].slot(Side::Right).defence,
            Some(Defence {
                card: meteor("red3"),
                revealed: false
            }),
            "the new defence is face down"
        );
        assert_eq!(s.discard, cards(&["green5"]));
        // Even by a card of the same value: it hides the revealed one.
        act(&mut s, "replace right red3");
        assert_eq!(s.discard, cards(&["green5", "red3"]));
        assert_conserved(&s);
    }
}

#[test]
fn taking_the_orbit_card_refills_the_orbit_from_the_pile() {
    let mut s = table();
    on_top(&mut s, "yellow5");
    let pile = s.pile.len();
    act(&mut s, "take orbit");
    assert_eq!(s.planets[P1].hand.count(card("green4")), 1);
    assert_eq!(
        s.planets[P1].orbit,
        Some(card("yellow5")),
        "face up, from the top"
    );
    assert_eq!(s.pile.len(), pile - 1);
    // Everybody saw it: the table knows it is in p1's hand.
    assert_eq!(s.planets[P1].known.to_vec(), cards(&["green4"]));
    assert_conserved(&s);
}

#[test]
fn a_swap_gives_a_card_to_another_orbit_and_takes_its_card() {
    let mut s = table();
    act(&mut s, "swap p3 plus2");
    assert_eq!(
        s.planets[P3].orbit,
        Some(Card::Plus2),
        "a +2 may go to an orbit"
    );
    assert_eq!(s.planets[P1].hand.count(card("yellow1")), 1);
    assert_eq!(s.planets[P1].hand.count(Card::Plus2), 0);
    assert_eq!(s.planets[P1].known.to_vec(), cards(&["yellow1"]));
    assert_conserved(&s);
    // Only with another living planet's non-empty orbit.
    let err = s.apply("swap p1 red3".parse().unwrap()).unwrap_err();
    assert!(err.to_string().contains("take orbit"), "{err}");
    let err = s.apply("swap p2 red3".parse().unwrap()).unwrap_err();
    assert!(err.to_string().contains("orbit is empty"), "{err}");
    let err = s.apply("swap p3 green1".parse().unwrap()).unwrap_err();
    assert!(err.to_string().contains("no green1"), "{err}");
    s.planets[P3].life = 0;
    s.discard.push(s.planets[P3].orbit.take().unwrap());
    orbit(&mut s, P3, "red1");
    let err = s.apply("swap p3 red3".parse().unwrap()).unwrap_err();
    assert!(err.to_string().contains("destroyed"), "{err}");
}

#[test]
fn end_stops_a_turn_early_and_the_next_planet_clockwise_plays() {
    let mut s = table();
    act(&mut s, "take orbit");
    act(&mut s, "end");
    assert_eq!((s.current, s.actions_left, s.turn), (P2, 2, 2));
    act(&mut s, "end");
    assert_eq!((s.current, s.turn), (P3, 3));
    act(&mut s, "end");
    act(&mut s, "end");
    assert_eq!((s.current, s.turn), (P1, 5));
}

#[test]
fn a_turn_with_nothing_to_do_can_only_end_and_an_empty_orbit_refills_at_its_owners_turn() {
    let mut s = blank(Variant::Standard);
    // No card in hand, no orbit card: nothing but `end`.
    assert_eq!(legal_texts(&s), ["end"]);
    act(&mut s, "end");
    // p2's orbit was empty: its turn refills it from the top of the pile.
    assert_eq!(s.planets[P2].orbit, Some(Card::Plus2));
    assert_eq!(s.planets[P3].orbit, None);
    assert_eq!(legal_texts(&s), ["take orbit", "end"]);
    assert_conserved(&s);
}

#[test]
fn an_empty_pile_is_rebuilt_from_the_discard_pile() {
    let mut s = blank(Variant::Standard);
    orbit(&mut s, P1, "red1");
    let rest: Vec<Card> = std::mem::take(&mut s.pile);
    s.discard = rest;
    act(&mut s, "take orbit");
    assert!(
        s.pile_public,
        "everybody saw the cards that make the new pile"
    );
    assert!(s.discard.is_empty());
    assert_eq!(s.pile.len(), 42);
    assert!(s.planets[P1].orbit.is_some());
    assert_conserved(&s);

    // Pile and discard pile both empty: the orbit stays empty.
    let mut s = blank(Variant::Standard);
    let mut all = std::mem::take(&mut s.pile);
    s.planets[P1].orbit = all.pop();
    for c in all {
        s.planets[P2].hand.add(c);
    }
    act(&mut s, "take orbit");
    assert_eq!(s.planets[P1].orbit, None);
    assert!(!s.legal_actions().contains(&Action::TakeOrbit));
    assert_conserved(&s);
}

#[test]
fn there_is_no_hand_limit() {
    let mut s = blank(Variant::Standard);
    let many = [
        "red1", "red2", "red3", "red4", "red5", "blue1", "blue2", "blue3", "blue4", "blue5",
    ];
    give(&mut s, P1, &many);
    orbit(&mut s, P1, "yellow5");
    act(&mut s, "take orbit");
    act(&mut s, "end");
    assert_eq!(
        s.planets[P1].hand.len(),
        11,
        "nothing is discarded at the end of a turn"
    );
    assert!(s.discard.is_empty());
}

#[test]
fn a_rejected_action_leaves_the_state_unchanged() {
    let mut s = table();
    let before = s.clone();
    for text in [
        "attack left red1",
        "defend left green4",
        "replace left red3",
        "swap p2 red3",
        "swap p4 plus2",
    ] {
        let err = s.apply(text.parse().unwrap()).unwrap_err();
        assert!(matches!(err, ActionError::Illegal { .. }), "{text}: {err}");
        assert!(err.to_string().contains(text), "{err}");
        assert_eq!(s, before, "{text}");
    }
    s.over = true;
    let err = s.apply(Action::End).unwrap_err();
    assert!(matches!(err, ActionError::GameOver { .. }));
    assert!(s.legal_actions().is_empty());
    assert_eq!(s.to_move(), None);
}
