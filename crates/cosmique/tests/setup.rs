//! Setup and configuration.

mod common;

use common::*;
use cosmique::{Card, Colour, Config, State, Variant};
use game::{Seat, State as _};

#[test]
fn the_deck_is_forty_meteors_and_four_plus2() {
    let deck = Card::deck();
    assert_eq!(deck.len(), 44);
    for colour in Colour::ALL {
        for value in 1..=5 {
            let n = deck
                .iter()
                .filter(|&&c| c == Card::meteor(colour, value))
                .count();
            assert_eq!(n, 2, "{colour}{value}: each value twice per colour");
        }
        let per_colour = deck
            .iter()
            .filter(|c| c.as_meteor().is_some_and(|m| m.colour() == colour))
            .count();
        assert_eq!(per_colour, 10);
    }
    assert_eq!(deck.iter().filter(|&&c| c == Card::Plus2).count(), 4);
}

#[test]
fn planets_are_red_blue_green_yellow_clockwise() {
    let colours: Vec<String> = (0..4).map(|i| Colour::of(Seat(i)).to_string()).collect();
    assert_eq!(colours, ["red", "blue", "green", "yellow"]);
    for c in Colour::ALL {
        assert_eq!(Colour::of(c.seat()), c);
    }
}

#[test]
fn setup_deals_one_orbit_card_and_two_cards_to_each_planet() {
    for variant in Variant::ALL {
        for seed in 0..30 {
            let s = State::new(&Config::of_variant(variant), seed).unwrap();
            assert_eq!(s.pile.len(), 44 - 4 - 8);
            assert!(s.discard.is_empty());
            assert!(!s.pile_public);
            for (_, p) in s.planets.iter() {
                assert_eq!(p.life, variant.starting_life());
                assert_eq!(p.hand.len(), 2);
                assert!(p.known.is_empty(), "dealt cards are private");
                assert!(p.orbit.is_some());
                assert!(
                    p.slots
                        .iter()
                        .all(|s| s.attack.is_none() && s.defence.is_none())
                );
            }
            assert_eq!((s.turn, s.actions_left, s.current), (1, 2, s.first));
            assert_eq!(s.to_move(), Some(s.first));
            assert!(!s.over);
            assert_conserved(&s);
        }
    }
    assert_eq!(Variant::Standard.starting_life(), 6);
    assert_eq!(Variant::Incolore.starting_life(), 6);
    assert_eq!(Variant::Pv30.starting_life(), 30);
}

#[test]
fn the_first_player_is_drawn_from_the_seed() {
    let mut seen = [false; 4];
    for seed in 0..200 {
        let s = State::new(&Config::default(), seed).unwrap();
        // The first draw of the game's RNG picks the first player, uniformly.
        let expected = game::below(&mut game::rng_from_seed(seed), 4);
        assert_eq!(s.first.index(), expected);
        seen[expected] = true;
        assert_eq!(State::new(&Config::default(), seed).unwrap(), s);
    }
    assert_eq!(seen, [true; 4]);
    let a = State::new(&Config::default(), 1).unwrap();
    let b = State::new(&Config::default(), 2).unwrap();
    assert_ne!(a.pile, b.pile);
}

#[test]
fn the_deal_follows_the_shuffle_orbits_first_then_hands() {
    // Pins the order of random draws: first player, shuffle, orbits p1..p4, hands p1..p4.
    let seed = 17;
    let s = State::new(&Config::default(), seed).unwrap();
    let mut rng = game::rng_from_seed(seed);
    game::below(&mut rng, 4);
    let mut pile = Card::deck();
    game::shuffle(&mut rng, &mut pile);
    for i in 0..4 {
        assert_eq!(s.planets.0[i].orbit, pile.pop());
    }
    for i in 0..4 {
        let hand: cosmique::Hand = [pile.pop().unwrap(), pile.pop().unwrap()]
            .into_iter()
            .collect();
        assert_eq!(s.planets.0[i].hand, hand);
    }
    assert_eq!(s.pile, pile);
    assert_eq!(s.rng, rng);
}

#[test]
fn configurations_read_and_write_as_json() {
    let c = Config::default();
    assert_eq!(c.turn_limit, 1000);
    let json = serde_json::to_string(&c).unwrap();
    assert_eq!(json, r#"{"variant":"standard","turn_limit":1000}"#);
    let back: Config = serde_json::from_str(r#"{"variant":"pv30"}"#).unwrap();
    assert_eq!(back, Config::of_variant(Variant::Pv30));
    let back: Config = serde_json::from_str("{}").unwrap();
    assert_eq!(back, c);
    assert!(serde_json::from_str::<Config>(r#"{"variant":"pv31"}"#).is_err());
    assert!(serde_json::from_str::<Config>(r#"{"seats":4}"#).is_err());
    for v in Variant::ALL {
        assert_eq!(v.name().parse::<Variant>().unwrap(), v);
        let json = serde_json::to_string(&v).unwrap();
        assert_eq!(json, format!("\"{}\"", v.name()));
    }
    assert_eq!("30pv".parse::<Variant>().unwrap(), Variant::Pv30);
    assert!("nope".parse::<Variant>().is_err());
    let zero = Config {
        turn_limit: 0,
        ..Config::default()
    };
    assert!(State::new_game(&zero, 1).is_err());
}

#[test]
fn the_game_model_constants() {
    let s = State::new(&Config::default(), 3).unwrap();
    assert_eq!(s.num_seats(), 4);
    assert_eq!(<State as game::State>::GAME, "cosmique");
    assert_eq!(s.returns(), vec![0.0; 4], "no result before the end");
    assert!(s.winners().is_empty() && !s.is_draw());
}
