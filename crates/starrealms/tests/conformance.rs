//! Conformance suite: random games in every format, edition and seat count, checking the game
//! model's promises at every step.

use game::record::Recorded;
use game::{Action as _, GameRecord, Seat};
use starrealms::scenario::Setup;
use starrealms::{Action, Config, Edition, Format, Pending, State, rollout};

const GAMES_2P: u64 = 150;
const GAMES_NP: u64 = 40;
/// Games per format, edition and seat count beyond the duel.
const GAMES_FORMAT: u64 = 4;

fn configs() -> Vec<(Config, u64)> {
    let mut v = vec![(Config::default(), GAMES_2P)];
    for n in 3..=6 {
        v.push((
            Config {
                seats: n,
                format: Format::FreeForAll,
                ..Config::default()
            },
            GAMES_NP,
        ));
    }
    for format in Format::ALL {
        for &seats in format.seats() {
            for edition in [Edition::RiseOfEmpire, Edition::Classic] {
                v.push((
                    Config {
                        seats,
                        format,
                        edition,
                        ..Config::default()
                    },
                    GAMES_FORMAT,
                ));
            }
        }
    }
    v.push((
        Config {
            discard_timing: starrealms::DiscardTiming::NextTurn,
            ..Config::default()
        },
        GAMES_NP,
    ));
    // The *Rise of Empire* pack in every format, every seat with a sticker sheet (its side's,
    // the first of them political), so that upgrades and political victories happen.
    v.push((roe(Config::default()), GAMES_NP));
    for format in Format::ALL {
        for &seats in format.seats() {
            v.push((roe(Config::of_format(format, Some(seats))), GAMES_FORMAT));
        }
    }
    // *Colony Wars* and *Frontiers* alone, *Colony Wars* mixed with the base set, and the three
    // boxes mixed, in every format and seat count.
    for sets in [
        "colony_wars",
        "base,colony_wars",
        "frontiers",
        "base,colony_wars,frontiers",
    ] {
        let sets = starrealms::cards::Sets::parse(sets).unwrap();
        v.push((
            Config {
                sets,
                ..Config::default()
            },
            GAMES_NP,
        ));
        for format in Format::ALL {
            for &seats in format.seats() {
                v.push((
                    Config {
                        sets,
                        ..Config::of_format(format, Some(seats))
                    },
                    GAMES_FORMAT,
                ));
            }
        }
    }
    v
}

fn roe(config: Config) -> Config {
    let sheets = (0..config.seats)
        .map(|i| {
            let side = if i % 2 == 0 { "empire" } else { "federation" };
            vec![
                starrealms::config::SheetGrant {
                    sheet: format!("s1_{side}"),
                    used: Vec::new(),
                    political: i == 0,
                },
                starrealms::config::SheetGrant {
                    sheet: format!("s2_{side}"),
                    used: Vec::new(),
                    political: false,
                },
            ]
        })
        .collect();
    Config {
        sets: starrealms::cards::Sets::parse("rise_of_empire").unwrap(),
        sheets,
        ..config
    }
}

/// Checks what a seat's view must not contain, and that a determinization of it agrees with it.
fn check_observations(state: &State, rng: &mut game::GameRng) {
    for i in 0..state.players.len() {
        let seat = Seat(i as u8);
        let obs = state.observation(seat);
        for (j, p) in obs.players.iter().enumerate() {
            let real = &state.players.0[j];
            let raid_team = state.config.format == Format::Raid && i != 0 && j != 0;
            assert_eq!(state.sees_hand(seat, Seat(j as u8)), j == i || raid_team);
            if j == i || raid_team {
                let mut hand = real.hand.clone();
                hand.sort();
                assert_eq!(p.hand.as_ref(), Some(&hand));
            } else {
                assert!(p.hand.is_none(), "seat {i} sees the hand of seat {j}");
            }
            assert_eq!(p.deck_count, real.deck.len());
            assert_eq!(p.deck_known_top.len(), real.deck_known as usize);
            assert!(
                p.unseen.is_sorted(),
                "unseen cards are a sorted multiset, not an order"
            );
        }
        assert!(obs.trade_deck_cards.is_sorted());
        // A determinized state is indistinguishable from the real one for this seat.
        let sampled = obs.determinize(rng);
        assert_eq!(sampled.observation(seat), obs);
        if state.to_move() == Some(seat) {
            assert_eq!(sampled.legal_actions(), state.legal_actions());
        }
    }
    // The public view hides every hand.
    assert!(
        state
            .public_observation()
            .players
            .iter()
            .all(|p| p.hand.is_none())
    );
}

fn check_illegal_rejected(state: &mut State, legal: &[Action], rng: &mut game::GameRng) {
    let before = state.clone();
    for _ in 0..4 {
        let index = game::below(rng, Action::space_size());
        let a = Action::from_index(index).expect("every index is an action");
        assert_eq!(a.index(), index);
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
    for (config, games) in configs() {
        let seats = config.seats as usize;
        for seed in 0..games {
            let mut game = Recorded::<State>::new(&config, seed).unwrap();
            let counts = game.state().card_counts();
            let mut steps = 0u32;
            while !game.state().over {
                let state = game.state();
                let legal = state.legal_actions();
                assert!(!legal.is_empty(), "no legal action before the end");
                assert!(
                    legal.windows(2).all(|w| w[0] < w[1]),
                    "legal actions sorted, unique"
                );
                assert_eq!(
                    state.card_counts(),
                    counts,
                    "a card left or entered the game"
                );
                for a in &legal {
                    let text = a.to_string();
                    assert_eq!(text.parse::<Action>().unwrap(), *a, "text form of {a}");
                    assert_eq!(Action::from_index(a.index()), Some(*a), "index of {a}");
                }
                let to_move = state.to_move().unwrap();
                let passing = matches!(state.pending, Some(Pending::Bequeath { from, .. }) if from == to_move);
                assert!(
                    state.players[to_move].alive || passing,
                    "a defeated seat decides nothing but the card it passes on"
                );
                if steps.is_multiple_of(7) {
                    assert_eq!(state.clone(), *state);
                    check_observations(state, &mut rng);
                    let setup = Setup::from_state(state);
                    let json = serde_json::to_string(&setup).unwrap();
                    let back: Setup = serde_json::from_str(&json).unwrap();
                    assert_eq!(back.build().unwrap(), *state, "scenario round trip");
                }
                if steps.is_multiple_of(11) {
                    let mut copy = state.clone();
                    check_illegal_rejected(&mut copy, &legal, &mut rng);
                }
                let a = rollout::random_action(state, &mut buf, &mut rng);
                game.apply(a).unwrap();
                steps += 1;
            }
            let end = game.state();
            assert!(end.legal_actions().is_empty());
            assert_eq!(end.to_move(), None);
            assert_eq!(end.card_counts(), counts);
            let returns = end.returns();
            assert_eq!(returns.len(), seats);
            if end.is_draw() {
                assert!((returns.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            } else {
                let winners = end.winners();
                assert!(
                    !winners.is_empty(),
                    "a finished game has winners or is a draw"
                );
                for (i, r) in returns.iter().enumerate() {
                    assert_eq!(*r, f64::from(winners.contains(&Seat(i as u8))));
                }
                // Winners are one team.
                let team = end.players[winners[0]].team;
                assert!(winners.iter().all(|&w| end.players[w].team == team));
            }
            // The record round-trips through JSON and replays to the same state.
            let json = game.record().to_json();
            let record = GameRecord::from_json(&json).unwrap();
            assert_eq!(&record, game.record());
            let replayed: State = record.replay().unwrap();
            assert_eq!(replayed, *end, "replay of seed {seed}");
        }
    }
}

#[test]
fn same_seed_same_game() {
    let config = Config::default();
    let run = |seed| {
        let mut s = State::new(&config, seed).unwrap();
        let mut rng = game::rng_from_seed(5);
        rollout::random_playout(&mut s, &mut Vec::new(), &mut rng);
        s
    };
    assert_eq!(run(3), run(3));
    assert_ne!(run(3), run(4));
}

#[test]
fn hidden_changes_do_not_change_a_view() {
    let config = Config::default();
    let mut s = State::new(&config, 11).unwrap();
    let mut rng = game::rng_from_seed(1);
    let mut buf = Vec::new();
    for _ in 0..60 {
        let a = rollout::random_action(&s, &mut buf, &mut rng);
        s.apply_unchecked(a);
    }
    let seat = s.to_move().unwrap();
    let other = Seat(1 - seat.0);
    let obs = s.observation(seat);
    let mut changed = s.clone();
    // Swap a card between the opponent's hand and deck, reorder both decks, the trade deck and
    // the RNG: all hidden from `seat`.
    let p = &mut changed.players[other];
    if !p.hand.is_empty() && p.deck.len() > p.deck_known as usize {
        std::mem::swap(&mut p.hand[0], &mut p.deck[0]);
    }
    p.deck.reverse();
    let known = changed.players[seat].deck_known as usize;
    let mine = &mut changed.players[seat].deck;
    let hidden = mine.len() - known;
    mine[..hidden].reverse();
    changed.trade_deck.reverse();
    changed.rng = game::rng_from_seed(12345);
    assert_eq!(changed.observation(seat), obs);
}
