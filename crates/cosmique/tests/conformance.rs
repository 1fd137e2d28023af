//! Conformance suite: random games of every variant, checking the game model's promises at
//! every step.

use cosmique::{Action, Card, Config, State, Variant, rollout};
use game::record::Recorded;
use game::{Action as _, GameRecord, Seat};

const GAMES: u64 = 100;

fn check_observations(state: &State, rng: &mut game::GameRng) {
    for i in 0..4 {
        let seat = Seat(i);
        let obs = state.observation(seat);
        for (j, p) in obs.planets.iter().enumerate() {
            let real = &state.planets.0[j];
            if j == i as usize {
                assert_eq!(p.hand.as_ref(), Some(&real.hand.to_vec()));
            } else {
                assert!(p.hand.is_none(), "seat {i} sees the hand of seat {j}");
            }
            assert_eq!(p.hand_count, real.hand.len());
            for (v, slot) in p.slots.iter().zip(&real.slots) {
                if let (Some(v), Some(d)) = (v.defence, slot.defence) {
                    let visible = d.revealed || j == i as usize;
                    assert_eq!(v.card, visible.then_some(d.card));
                }
                if let (Some(v), Some(a)) = (v.attack, slot.attack) {
                    assert_eq!(v.card, (a.by == seat).then_some(a.card));
                }
            }
        }
        assert!(obs.unseen.is_sorted());
        let sampled = obs.determinize(rng);
        assert_eq!(sampled.observation(seat), obs);
        assert_eq!(sampled.card_counts(), state.card_counts());
        if state.to_move() == Some(seat) {
            assert_eq!(sampled.legal_actions(), state.legal_actions());
        }
    }
    let public = state.public_observation();
    assert!(public.planets.iter().all(|p| p.hand.is_none()));
    assert_eq!(public.determinize(rng).public_observation(), public);
}

fn check_illegal_rejected(state: &mut State, legal: &[Action], rng: &mut game::GameRng) {
    let before = state.clone();
    for _ in 0..6 {
        let index = game::below(rng, Action::space_size());
        let a = Action::from_index(index).expect("every index is an action");
        if legal.contains(&a) {
            continue;
        }
        assert!(state.apply(a).is_err(), "{a} is not legal but was accepted");
        assert_eq!(*state, before, "a rejected {a} changed the state");
    }
}

#[test]
fn random_games_keep_every_promise() {
    let mut rng = game::rng_from_seed(99);
    let mut buf = Vec::new();
    let expected: Vec<usize> = Card::kinds().map(|c| c.copies() as usize).collect();
    for variant in Variant::ALL {
        let config = Config::of_variant(variant);
        let mut draws = 0;
        for seed in 0..GAMES {
            let mut game = Recorded::<State>::new(&config, seed).unwrap();
            let mut steps = 0u32;
            while !game.state().over {
                let state = game.state();
                let legal = state.legal_actions();
                assert!(!legal.is_empty(), "no legal action before the end");
                assert!(
                    legal.windows(2).all(|w| w[0] < w[1]),
                    "legal actions sorted, unique"
                );
                assert_eq!(legal.last(), Some(&Action::End));
                assert_eq!(
                    state.card_counts().to_vec(),
                    expected,
                    "a card left or came"
                );
                let to_move = state.to_move().unwrap();
                assert!(state.planets[to_move].alive());
                assert!((1..=2).contains(&state.actions_left));
                for (_, p) in state.planets.iter() {
                    assert!(p.hand.includes(&p.known), "known cards are in the hand");
                    assert_eq!(p.alive(), p.life > 0);
                    if !p.alive() {
                        assert_eq!(p.cards().count(), 0, "a dead planet holds nothing");
                    }
                }
                if steps.is_multiple_of(3) {
                    for a in &legal {
                        assert_eq!(a.to_string().parse::<Action>().unwrap(), *a, "text of {a}");
                        assert_eq!(Action::from_index(a.index()), Some(*a), "index of {a}");
                    }
                }
                if steps.is_multiple_of(7) {
                    assert_eq!(state.clone(), *state);
                    check_observations(state, &mut rng);
                }
                if steps.is_multiple_of(11) {
                    let mut copy = state.clone();
                    check_illegal_rejected(&mut copy, &legal, &mut rng);
                }
                let a = rollout::random_action(state, &mut buf, &mut rng);
                assert_ne!(a, Action::End, "the rollout never ends a turn early");
                game.apply(a).unwrap();
                steps += 1;
            }
            let end = game.state();
            assert!(end.legal_actions().is_empty());
            assert_eq!(end.to_move(), None);
            assert_eq!(end.card_counts().to_vec(), expected);
            assert!(end.turn <= config.turn_limit);
            let returns = end.returns();
            assert_eq!(returns.len(), 4);
            assert!((returns.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            if end.is_draw() {
                draws += 1;
                assert_eq!(end.turn, config.turn_limit);
            } else {
                let winners = end.winners();
                assert_eq!(winners.len(), 1);
                let alive: Vec<usize> = (0..4).filter(|&i| end.planets.0[i].alive()).collect();
                assert_eq!(alive, [winners[0].index()], "the winner is the last alive");
                assert_eq!(returns[winners[0].index()], 1.0);
            }
            // The record round-trips through JSON and replays to the same state.
            let json = game.record().to_json();
            let record = GameRecord::from_json(&json).unwrap();
            assert_eq!(&record, game.record());
            let replayed: State = record.replay().unwrap();
            assert_eq!(replayed, *end, "replay of {variant} seed {seed}");
        }
        assert!(
            draws <= GAMES / 20,
            "{variant}: {draws} draws: random games should end"
        );
    }
}

#[test]
fn same_seed_same_game() {
    for variant in Variant::ALL {
        let config = Config::of_variant(variant);
        let run = |seed| {
            let mut s = State::new(&config, seed).unwrap();
            let mut rng = game::rng_from_seed(5);
            rollout::random_playout(&mut s, &mut Vec::new(), &mut rng);
            s
        };
        assert_eq!(run(3), run(3));
        assert_ne!(run(3), run(4));
    }
}

#[test]
fn random_games_of_the_three_variants_end_by_a_win() {
    // Pins the rollout policy and the rules' pace: known results for fixed seeds.
    let mut buf = Vec::new();
    for variant in Variant::ALL {
        let mut rng = game::rng_from_seed(1);
        let mut wins = 0;
        for seed in 0..50 {
            let mut s = State::new(&Config::of_variant(variant), seed).unwrap();
            rollout::random_playout(&mut s, &mut buf, &mut rng);
            wins += usize::from(s.winner.is_some());
        }
        assert_eq!(wins, 50, "{variant}");
    }
}
