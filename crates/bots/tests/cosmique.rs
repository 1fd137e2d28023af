//! Bataille Cosmique bots: the heuristic beats random bots, the generic ISMCTS plays the game
//! through the game traits, and no bot reads what its planet cannot see.

use bots::{Bot, SeatView, play_game};
use cosmique::{Config, State, Variant};
use game::{Seat, State as _};

fn table(names: [&str; 4], seed: u64) -> Vec<Box<dyn Bot<State>>> {
    names
        .iter()
        .enumerate()
        .map(|(i, n)| bots::cosmique::by_name(n, seed * 4 + i as u64).unwrap())
        .collect()
}

#[test]
fn the_heuristic_beats_three_random_planets() {
    for variant in [Variant::Standard, Variant::Pv30] {
        let mut wins = 0;
        for seed in 0..100 {
            let mut players = table(["heuristic", "random", "random", "random"], seed);
            let end = play_game(
                State::new_game(&Config::of_variant(variant), seed).unwrap(),
                &mut players,
                |_, _, _| {},
            );
            wins += usize::from(end.winners() == vec![Seat(0)]);
        }
        // A random planet would win about 25.
        assert!(wins >= 80, "{variant:?}: {wins} of 100");
    }
}

#[test]
fn ismcts_plays_bataille_cosmique_through_the_generic_traits() {
    let mut players = table(["ismcts:8", "heuristic", "heuristic", "heuristic"], 1);
    let end = play_game(
        State::new_game(&Config::of_variant(Variant::Incolore), 4).unwrap(),
        &mut players,
        |_, _, _| {},
    );
    assert!(end.over);
}

#[test]
fn cosmique_bots_decide_the_same_when_only_hidden_information_changes() {
    let mut rng = game::rng_from_seed(5);
    let mut buf = Vec::new();
    let mut checked = 0;
    for seed in 0..20 {
        let mut s = State::new_game(&Config::default(), seed).unwrap();
        for _ in 0..(10 + seed) {
            if s.over {
                break;
            }
            let a = cosmique::rollout::random_action(&s, &mut buf, &mut rng);
            s.apply_unchecked(a);
        }
        let Some(seat) = s.to_move() else { continue };
        let obs = s.observation(seat);
        // Another state with the same view: hidden cards dealt differently.
        let other = obs.determinize(&mut rng);
        assert_eq!(other.observation(seat), obs);
        let legal = s.legal_actions();
        for name in ["random", "heuristic", "ismcts:20"] {
            let ask = |state: &State| {
                let mut bot = bots::cosmique::by_name(name, 9).unwrap();
                bot.choose(&SeatView::of_state(state, seat), &legal)
            };
            assert_eq!(ask(&s), ask(&other), "{name}, seed {seed}");
        }
        checked += 1;
    }
    assert!(checked >= 15);
}
