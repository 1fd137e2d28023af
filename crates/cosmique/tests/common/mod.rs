//! Scenario helpers: an empty table with all 44 cards in the pile, and moves of named cards from
//! the pile to where a test wants them (so that cards stay conserved).
#![allow(dead_code)]

use cosmique::{Action, Attack, Card, Config, Defence, Meteor, Side, State, Variant};
use game::Seat;

pub const P1: Seat = Seat(0);
pub const P2: Seat = Seat(1);
pub const P3: Seat = Seat(2);
pub const P4: Seat = Seat(3);

pub fn card(text: &str) -> Card {
    text.parse().unwrap()
}

pub fn meteor(text: &str) -> Meteor {
    text.parse().unwrap()
}

pub fn cards(texts: &[&str]) -> Vec<Card> {
    texts.iter().map(|t| card(t)).collect()
}

/// A table where nothing is dealt: every card in the pile (sorted, so `plus2` on top), `p1` to
/// move with two actions, turn 1.
pub fn blank(variant: Variant) -> State {
    let mut s = State::new(&Config::of_variant(variant), 0).unwrap();
    s.pile = Card::deck();
    s.discard.clear();
    for p in s.planets.0.iter_mut() {
        p.hand.clear();
        p.known.clear();
        p.orbit = None;
        p.slots = Default::default();
        p.life = variant.starting_life();
    }
    s.current = P1;
    s.first = P1;
    s.turn = 1;
    s.actions_left = 2;
    s
}

/// Takes one `text` card out of the pile.
pub fn take(s: &mut State, text: &str) -> Card {
    let c = card(text);
    let i = s
        .pile
        .iter()
        .position(|&x| x == c)
        .unwrap_or_else(|| panic!("no {c} left in the pile"));
    s.pile.remove(i)
}

/// Moves cards from the pile to a hand.
pub fn give(s: &mut State, seat: Seat, texts: &[&str]) {
    for t in texts {
        let c = take(s, t);
        s.planets[seat].hand.add(c);
    }
}

/// Moves a card from the pile to an orbit.
pub fn orbit(s: &mut State, seat: Seat, text: &str) {
    let c = take(s, text);
    assert!(s.planets[seat].orbit.replace(c).is_none());
}

/// Moves a card from the pile to the top of the pile.
pub fn on_top(s: &mut State, text: &str) {
    let c = take(s, text);
    s.pile.push(c);
}

/// Moves a meteor from the pile to a defence.
pub fn defence(s: &mut State, seat: Seat, side: Side, text: &str, revealed: bool) {
    let c = take(s, text);
    s.planets[seat].slot_mut(side).defence = Some(Defence {
        card: c.as_meteor().unwrap(),
        revealed,
    });
}

/// Moves a meteor (and a "+2") from the pile to a waiting attack in `target`'s slot on `side`.
pub fn attack(s: &mut State, target: Seat, side: Side, text: &str, plus2: bool, by: Seat) {
    let c = take(s, text);
    if plus2 {
        take(s, "plus2");
    }
    s.planets[target].slot_mut(side).attack = Some(Attack {
        card: c.as_meteor().unwrap(),
        plus2,
        by,
    });
}

pub fn act(s: &mut State, text: &str) {
    let a: Action = text.parse().unwrap();
    if let Err(e) = s.apply(a) {
        panic!("{e}\n{}", s.summary());
    }
}

pub fn legal_texts(s: &State) -> Vec<String> {
    s.legal_actions().iter().map(|a| a.to_string()).collect()
}

/// Every card is somewhere, once.
pub fn assert_conserved(s: &State) {
    let expected: Vec<usize> = Card::kinds().map(|c| c.copies() as usize).collect();
    assert_eq!(s.card_counts().to_vec(), expected, "{}", s.summary());
}
