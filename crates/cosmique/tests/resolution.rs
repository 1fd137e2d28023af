//! Combat resolution, death, the end of the game and the variants.

mod common;

use common::*;
use cosmique::{Defence, Side, State, Variant};

/// One attack by `p1` on `p2` (blue), resolved when `p2`'s turn begins.
struct Case {
    variant: Variant,
    /// `p2`'s defence in the slot facing `p1` (text, revealed).
    defence: Option<(&'static str, bool)>,
    attack: &'static str,
    plus2: bool,
    /// Life lost by `p2`.
    loss: u8,
    /// The defence afterwards (text, revealed).
    after: Option<(&'static str, bool)>,
    /// The discard pile afterwards.
    discard: &'static [&'static str],
}

fn run(name: &str, c: &Case) -> State {
    let mut s = blank(c.variant);
    if let Some((d, revealed)) = c.defence {
        defence(&mut s, P2, Side::Right, d, revealed);
    }
    attack(&mut s, P2, Side::Right, c.attack, c.plus2, P1);
    act(&mut s, "end");
    let p2 = &s.planets[P2];
    assert_eq!(
        p2.life,
        c.variant.starting_life() - c.loss,
        "{name}: life lost"
    );
    let after = c.after.map(|(d, revealed)| Defence {
        card: meteor(d),
        revealed,
    });
    assert_eq!(p2.slot(Side::Right).defence, after, "{name}: defence");
    assert_eq!(p2.slot(Side::Right).attack, None, "{name}: attack resolved");
    assert_eq!(s.discard, cards(c.discard), "{name}: discard pile");
    assert_eq!((s.current, s.actions_left), (P2, 2), "{name}: p2 plays");
    assert_conserved(&s);
    s
}

const STANDARD: Variant = Variant::Standard;

#[test]
fn standard_resolution() {
    let cases = [
        (
            "no defence, the target's colour: hit, 1 life",
            Case {
                variant: STANDARD,
                defence: None,
                attack: "blue3",
                plus2: false,
                loss: 1,
                after: None,
                discard: &["blue3"],
            },
        ),
        (
            "no defence, another colour: hit, no damage",
            Case {
                variant: STANDARD,
                defence: None,
                attack: "red3",
                plus2: false,
                loss: 0,
                after: None,
                discard: &["red3"],
            },
        ),
        (
            "lower defence: destroyed, then the hit",
            Case {
                variant: STANDARD,
                defence: Some(("yellow2", false)),
                attack: "blue3",
                plus2: false,
                loss: 1,
                after: None,
                discard: &["yellow2", "blue3"],
            },
        ),
        (
            "lower defence, another colour: the defence falls, no damage",
            Case {
                variant: STANDARD,
                defence: Some(("blue1", false)),
                attack: "green5",
                plus2: false,
                loss: 0,
                after: None,
                discard: &["blue1", "green5"],
            },
        ),
        (
            "higher defence: miss, the defence stays, revealed",
            Case {
                variant: STANDARD,
                defence: Some(("green5", false)),
                attack: "blue3",
                plus2: false,
                loss: 0,
                after: Some(("green5", true)),
                discard: &["blue3"],
            },
        ),
        (
            "equal, another colour: overload, defence destroyed, 1 life",
            Case {
                variant: STANDARD,
                defence: Some(("green3", false)),
                attack: "red3",
                plus2: false,
                loss: 1,
                after: None,
                discard: &["green3", "red3"],
            },
        ),
        (
            "equal, the target's colour: overload, 2 life",
            Case {
                variant: STANDARD,
                defence: Some(("green3", true)),
                attack: "blue3",
                plus2: false,
                loss: 2,
                after: None,
                discard: &["green3", "blue3"],
            },
        ),
        (
            "a +2 on a hit of the target's colour: 3 life",
            Case {
                variant: STANDARD,
                defence: None,
                attack: "blue3",
                plus2: true,
                loss: 3,
                after: None,
                discard: &["blue3", "plus2"],
            },
        ),
        (
            "a +2 on a hit of another colour: no damage to increase",
            Case {
                variant: STANDARD,
                defence: Some(("red1", false)),
                attack: "red3",
                plus2: true,
                loss: 0,
                after: None,
                discard: &["red1", "red3", "plus2"],
            },
        ),
        (
            "a +2 on an overload is wasted",
            Case {
                variant: STANDARD,
                defence: Some(("red4", false)),
                attack: "blue4",
                plus2: true,
                loss: 2,
                after: None,
                discard: &["red4", "blue4", "plus2"],
            },
        ),
        (
            "a +2 on a miss",
            Case {
                variant: STANDARD,
                defence: Some(("red5", false)),
                attack: "blue4",
                plus2: true,
                loss: 0,
                after: Some(("red5", true)),
                discard: &["blue4", "plus2"],
            },
        ),
    ];
    for (name, c) in &cases {
        run(name, c);
    }
}

#[test]
fn incolore_every_meteor_hurts() {
    let v = Variant::Incolore;
    let cases = [
        (
            "hit of another colour: 1",
            Case {
                variant: v,
                defence: None,
                attack: "red3",
                plus2: false,
                loss: 1,
                after: None,
                discard: &["red3"],
            },
        ),
        (
            "+2: 3",
            Case {
                variant: v,
                defence: Some(("blue2", false)),
                attack: "yellow3",
                plus2: true,
                loss: 3,
                after: None,
                discard: &["blue2", "yellow3", "plus2"],
            },
        ),
        (
            "overload: 2",
            Case {
                variant: v,
                defence: Some(("blue2", false)),
                attack: "green2",
                plus2: false,
                loss: 2,
                after: None,
                discard: &["blue2", "green2"],
            },
        ),
        (
            "miss: 0",
            Case {
                variant: v,
                defence: Some(("blue4", false)),
                attack: "green2",
                plus2: false,
                loss: 0,
                after: Some(("blue4", true)),
                discard: &["green2"],
            },
        ),
    ];
    for (name, c) in &cases {
        run(name, c);
    }
}

#[test]
fn pv30_hits_deal_the_value_and_the_plus2_doubles() {
    let v = Variant::Pv30;
    let cases = [
        (
            "hit: the value",
            Case {
                variant: v,
                defence: None,
                attack: "blue4",
                plus2: false,
                loss: 4,
                after: None,
                discard: &["blue4"],
            },
        ),
        (
            "×2: twice the value",
            Case {
                variant: v,
                defence: Some(("red1", false)),
                attack: "blue5",
                plus2: true,
                loss: 10,
                after: None,
                discard: &["red1", "blue5", "plus2"],
            },
        ),
        (
            "another colour, ×2: nothing to double",
            Case {
                variant: v,
                defence: None,
                attack: "red5",
                plus2: true,
                loss: 0,
                after: None,
                discard: &["red5", "plus2"],
            },
        ),
        (
            "overload of the target's colour: 1 plus the value, ×2 wasted",
            Case {
                variant: v,
                defence: Some(("green4", false)),
                attack: "blue4",
                plus2: true,
                loss: 5,
                after: None,
                discard: &["green4", "blue4", "plus2"],
            },
        ),
        (
            "overload of another colour: 1",
            Case {
                variant: v,
                defence: Some(("green4", false)),
                attack: "yellow4",
                plus2: false,
                loss: 1,
                after: None,
                discard: &["green4", "yellow4"],
            },
        ),
        (
            "miss: 0",
            Case {
                variant: v,
                defence: Some(("green5", false)),
                attack: "blue4",
                plus2: true,
                loss: 0,
                after: Some(("green5", true)),
                discard: &["blue4", "plus2"],
            },
        ),
    ];
    for (name, c) in &cases {
        run(name, c);
    }
}

#[test]
fn both_slots_resolve_left_first_before_the_turn() {
    let mut s = blank(STANDARD);
    attack(&mut s, P2, Side::Left, "blue1", false, P3);
    attack(&mut s, P2, Side::Right, "blue2", false, P1);
    defence(&mut s, P2, Side::Right, "red5", false);
    act(&mut s, "end");
    assert_eq!(s.discard, cards(&["blue1", "blue2"]));
    assert_eq!(s.planets[P2].life, 5);
    assert!(s.planets[P2].slots.iter().all(|s| s.attack.is_none()));
}

/// `p1` dead (its red now universal), `p4` to move.
fn without_p1(variant: Variant) -> State {
    let mut s = blank(variant);
    s.planets[P1].life = 0;
    s.current = P4;
    s
}

#[test]
fn a_dead_planets_colour_hurts_everybody() {
    for (variant, loss) in [(STANDARD, 1), (Variant::Pv30, 3)] {
        let mut s = without_p1(variant);
        // p4 attacked its left neighbour: p2 now that p1 is gone, in p2's right slot.
        attack(&mut s, P2, Side::Right, "red3", false, P4);
        act(&mut s, "end");
        assert_eq!(s.current, P2, "p1 is skipped");
        assert_eq!(s.planets[P2].life, variant.starting_life() - loss);
        // And an overload by it counts as one of the defender's colour.
        let mut s = without_p1(variant);
        attack(&mut s, P2, Side::Right, "red3", false, P4);
        defence(&mut s, P2, Side::Right, "green3", false);
        act(&mut s, "end");
        assert_eq!(s.planets[P2].life, variant.starting_life() - 1 - loss);
    }
}

#[test]
fn a_planet_at_zero_life_dies_and_everything_on_its_board_is_discarded() {
    let mut s = blank(STANDARD);
    s.planets[P2].life = 1;
    give(&mut s, P2, &["yellow1", "plus2"]);
    orbit(&mut s, P2, "green2");
    defence(&mut s, P2, Side::Left, "red4", true);
    attack(&mut s, P2, Side::Left, "yellow3", true, P3);
    attack(&mut s, P2, Side::Right, "blue5", false, P1);
    // p2, before it died, had attacked both neighbours.
    attack(&mut s, P1, Side::Left, "blue4", false, P2);
    attack(&mut s, P3, Side::Right, "blue3", false, P2);
    defence(&mut s, P1, Side::Left, "yellow5", false);
    act(&mut s, "end");
    // Left slot first: p3's yellow3 misses the red4. Then p1's blue5 kills p2.
    let p2 = &s.planets[P2];
    assert!(!p2.alive());
    assert!(p2.hand.is_empty() && p2.orbit.is_none());
    assert!(
        p2.slots
            .iter()
            .all(|s| s.attack.is_none() && s.defence.is_none())
    );
    assert_eq!(
        s.discard[..7],
        cards(&[
            "yellow3", "plus2", // the miss
            "blue5", // the killing hit
            "yellow1", "plus2", "green2", "red4", // hand, orbit, left defence
        ])
    );
    assert_conserved(&s);
    // p2's turn is lost; p3 plays at once. p2's attack on p3 stays on p3's board and resolves
    // now, of a colour that hurts everybody.
    assert_eq!((s.current, s.turn, s.actions_left), (P3, 3, 2));
    assert_eq!(s.planets[P3].life, 5);
    assert_eq!(&s.discard[7..], cards(&["blue3"]));
    // p1 and p3 now face each other across the gap; the slots keep their sides.
    assert_eq!(s.neighbour(P1, Side::Left), Some(P3));
    assert_eq!(s.neighbour(P3, Side::Right), Some(P1));
    assert_eq!(s.neighbour(P1, Side::Right), Some(P4));
    // p2's attack in p1's left slot (now facing p3) waits for p1's turn: p3 cannot attack p1
    // there before it resolves.
    give(&mut s, P3, &["green1"]);
    let texts = legal_texts(&s);
    assert!(
        !texts.iter().any(|t| t.starts_with("attack right")),
        "{texts:?}"
    );
    assert!(texts.contains(&"attack left green1".to_string()));
    act(&mut s, "end");
    act(&mut s, "end");
    // p1's turn: p2's blue4 meets p1's yellow5 defence, which now faces p3.
    assert_eq!(s.current, P1);
    assert_eq!(
        s.planets[P1].slot(Side::Left).defence,
        Some(Defence {
            card: meteor("yellow5"),
            revealed: true
        })
    );
    act(&mut s, "end");
    assert_eq!(s.current, P3, "p2 is skipped");
    assert_conserved(&s);
}

#[test]
fn the_last_two_planets_face_each_other_on_both_sides() {
    let mut s = blank(STANDARD);
    s.planets[P2].life = 0;
    s.planets[P4].life = 0;
    give(&mut s, P1, &["green2", "green3"]);
    for side in Side::BOTH {
        assert_eq!(s.neighbour(P1, side), Some(P3));
        assert_eq!(s.neighbour(P3, side), Some(P1));
    }
    act(&mut s, "attack left green2");
    assert_eq!(
        s.planets[P3].slot(Side::Right).attack.map(|a| a.card),
        Some(meteor("green2"))
    );
    act(&mut s, "attack right green3");
    assert_eq!(s.planets[P3].life, 4, "both resolved at p3's turn");
    assert_eq!(s.current, P3);
}

#[test]
fn the_last_planet_alive_wins() {
    let mut s = blank(STANDARD);
    s.planets[P2].life = 0;
    s.planets[P4].life = 0;
    s.planets[P3].life = 1;
    give(&mut s, P1, &["yellow2"]);
    // Yellow is the colour of the dead p4: it hurts p3.
    act(&mut s, "attack right yellow2");
    act(&mut s, "end");
    assert!(s.over);
    assert_eq!(s.winner, Some(P1));
    assert_eq!(s.winners(), vec![P1]);
    assert!(!s.is_draw());
    assert_eq!(s.returns(), vec![1.0, 0.0, 0.0, 0.0]);
    assert_eq!(s.to_move(), None);
    assert!(s.legal_actions().is_empty());
    assert_conserved(&s);
}

#[test]
fn the_turn_limit_ends_the_game_in_a_draw_among_the_survivors() {
    let mut s = blank(STANDARD);
    s.config.turn_limit = 3;
    act(&mut s, "end");
    act(&mut s, "end");
    assert!(!s.over);
    act(&mut s, "end");
    assert!(s.over && s.is_draw());
    assert_eq!(s.turn, 3, "three turns played");
    assert_eq!(s.returns(), vec![0.25; 4]);
    assert!(s.winners().is_empty());

    let mut s = blank(STANDARD);
    s.config.turn_limit = 1;
    s.planets[P2].life = 0;
    act(&mut s, "end");
    let third = 1.0 / 3.0;
    assert_eq!(s.returns(), vec![third, 0.0, third, third]);
}

#[test]
fn a_death_counts_as_a_turn_for_the_limit() {
    let mut s = blank(STANDARD);
    s.config.turn_limit = 2;
    s.planets[P2].life = 1;
    attack(&mut s, P2, Side::Right, "blue1", false, P1);
    act(&mut s, "end");
    assert!(s.over && s.is_draw(), "{}", s.summary());
    assert_eq!(s.returns(), vec![1.0 / 3.0, 0.0, 1.0 / 3.0, 1.0 / 3.0]);
}

#[test]
fn summaries_show_the_table_on_one_line() {
    let mut s = blank(STANDARD);
    give(&mut s, P1, &["red3"]);
    defence(&mut s, P2, Side::Left, "red2", true);
    attack(&mut s, P2, Side::Left, "green3", true, P3);
    let line = s.summary();
    assert!(!line.contains('\n'));
    assert!(line.contains("p1 to move (2 left)"), "{line}");
    assert!(line.contains("p1 red life 6 hand [red3]"), "{line}");
    assert!(line.contains("left(D red2* A p3:green3+2)"), "{line}");
}
