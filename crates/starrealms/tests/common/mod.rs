//! Helpers shared by the per-card rule tests: seats, zones, legal actions.

#![allow(dead_code)] // each test file uses some of them

use game::Seat;
use starrealms::scenario::card;
use starrealms::state::Pending;
use starrealms::{Action, CardId, Player, State};

pub fn p1(s: &State) -> &Player {
    &s.players.0[0]
}

pub fn p2(s: &State) -> &Player {
    &s.players.0[1]
}

/// p1 is in its main phase: no decision waited for.
#[track_caller]
pub fn assert_main_phase(s: &State) {
    assert_eq!(s.pending, None);
    assert_eq!(s.to_move(), Some(Seat(0)));
}

/// p1's trade, combat and authority.
pub fn pools(s: &State) -> (u16, u16, i32) {
    (p1(s).trade, p1(s).combat, p1(s).authority)
}

pub fn sorted_ids(names: &[&str]) -> Vec<CardId> {
    let mut v: Vec<CardId> = names.iter().map(|n| card(n)).collect();
    v.sort();
    v
}

/// A zone holds exactly these cards (in any order).
#[track_caller]
pub fn assert_cards(zone: &[CardId], names: &[&str]) {
    let mut got = zone.to_vec();
    got.sort();
    assert_eq!(got, sorted_ids(names), "zone content (expected {names:?})");
}

/// A deck, listed from the top card down.
#[track_caller]
pub fn assert_deck(p: &Player, top_first: &[&str]) {
    let got: Vec<CardId> = p.deck.iter().rev().copied().collect();
    let want: Vec<CardId> = top_first.iter().map(|n| card(n)).collect();
    assert_eq!(got, want, "deck, top first (expected {top_first:?})");
}

pub fn is_legal(s: &State, text: &str) -> bool {
    s.legal_texts().iter().any(|t| t == text)
}

#[track_caller]
pub fn assert_legal(s: &State, text: &str) {
    assert!(
        is_legal(s, text),
        "`{text}` should be legal; legal: {:?}",
        s.legal_texts()
    );
}

/// The action is neither listed nor accepted.
#[track_caller]
pub fn assert_illegal(s: &State, text: &str) {
    assert!(
        !is_legal(s, text),
        "`{text}` should not be legal; legal: {:?}",
        s.legal_texts()
    );
    let action: Action = text.parse().expect("action text parses");
    assert!(
        s.clone().apply(action).is_err(),
        "`{text}` was accepted by apply"
    );
}

/// The legal actions are exactly these (in any order).
#[track_caller]
pub fn assert_legal_exactly(s: &State, texts: &[&str]) {
    let mut got = s.legal_texts();
    got.sort();
    let mut want: Vec<String> = texts.iter().map(|t| t.to_string()).collect();
    want.sort();
    assert_eq!(got, want);
}

/// p2 must now discard one card of its choice, at once.
#[track_caller]
pub fn assert_p2_must_discard(s: &State) {
    assert_eq!(s.to_move(), Some(Seat(1)), "p2 chooses the discard");
    assert!(
        matches!(
            s.pending,
            Some(Pending::Discard {
                seat: Seat(1),
                left: 1
            })
        ),
        "pending: {:?}",
        s.pending
    );
    assert_illegal(s, "end");
}
