//! Every refusal says in words what is wrong: a reason from the translation table, with its
//! values, and never a dump of the engine's internals.

use game::{Action as _, ActionError, Seat};
use rand::RngCore;
use starrealms::scenario::Builder;
use starrealms::{Action, State};

/// The refusal of `text` in `state`, which must be refused.
fn refusal(state: &State, text: &str) -> (String, game::Reason) {
    let action: Action = text.parse().unwrap();
    match state.clone().apply(action) {
        Err(ActionError::Illegal {
            hint,
            reason: Some(reason),
            ..
        }) => (hint, *reason),
        other => panic!("`{text}`: {other:?}"),
    }
}

fn words_only(hint: &str) {
    for dump in ["{", "}", "Seat(", "Some(", "None", "CardId(", "::"] {
        assert!(!hint.contains(dump), "a dump of internals in `{hint}`");
    }
}

#[test]
fn a_pending_decision_is_named_by_its_answers_and_the_wrong_card_by_its_holder() {
    let mut state = Builder::new()
        .hand(0, &["Imperial Fighter"])
        .hand(1, &["Scout", "Viper"])
        .build();
    state.act("play imperial_fighter");
    // p2 discards at once, before p1 goes on.
    assert_eq!(state.to_move(), Some(Seat(1)));
    let (hint, reason) = refusal(&state, "end");
    assert_eq!(
        hint,
        ": p2 must first answer the decision under way (discard scout, discard viper)"
    );
    assert_eq!(reason.key, "refusal.pending");
    words_only(&hint);
    // Answering with a card p2 does not hold says that, not "answer the decision".
    let (hint, reason) = refusal(&state, "discard cutter");
    assert_eq!(hint, ": no cutter in p2's hand");
    assert_eq!(reason.key, "refusal.not_in_hand_of");
}

#[test]
fn a_ship_without_the_ability_asked_says_so() {
    let state = Builder::new().ships(0, &["Stealth Needle"]).build();
    let (hint, _) = refusal(&state, "scrap ship 0");
    assert_eq!(hint, ": ship 0 has no scrap ability to use");
    let (hint, _) = refusal(&state, "ally ship 0");
    assert!(hint.starts_with(": ship 0 has no ally ability"), "{hint}");
    let (hint, _) = refusal(&state, "scrap ship 3");
    assert_eq!(hint, ": there is no ship 3 in play");
    let (hint, _) = refusal(&state, "buy row 2");
    assert_eq!(hint, ": trade-row slot 2 is empty");
}

#[test]
fn every_refusal_in_many_positions_has_a_reason_in_words() {
    let mut rng = game::rng_from_seed(5);
    let space = Action::space_size();
    let mut refused = 0;
    for seed in 0..6 {
        let config = starrealms::Config::default();
        let mut state = State::new(&config, seed).unwrap();
        let mut legal = Vec::new();
        for _ in 0..120 {
            if state.over {
                break;
            }
            state.legal_actions_into(&mut legal);
            for _ in 0..40 {
                let Some(a) = Action::from_index(rng.next_u64() as usize % space) else {
                    continue;
                };
                if legal.contains(&a) {
                    continue;
                }
                match state.clone().apply(a) {
                    Err(ActionError::Illegal {
                        hint,
                        reason: Some(reason),
                        ..
                    }) => {
                        assert!(hint.len() > 3, "`{a}`: no reason");
                        assert!(reason.key.starts_with("refusal."), "{reason:?}");
                        words_only(&hint);
                        refused += 1;
                    }
                    other => panic!("`{a}`: {other:?}"),
                }
            }
            let a = legal[rng.next_u64() as usize % legal.len()];
            state.apply(a).unwrap();
        }
    }
    assert!(refused > 1000, "{refused} refusals checked");
}
