//! What a configuration may change at the table, as a *Rise of Empire* campaign scenario does:
//! who opens, personal decks, the whole trade deck, and the scenario rules (authority, starting
//! bases, a bonus for playing a card, draw-then-discard at the start of a turn, a shorter row).

use game::Seat;
use starrealms::cards::Effect;
use starrealms::config::{MAX_BONUS_EFFECTS, MAX_DECK, MAX_RULES, MAX_TRADE_DECK, Rule};
use starrealms::scenario::card;
use starrealms::state::Pending;
use starrealms::{Config, State};

fn cards(names: &[&str]) -> Vec<starrealms::CardId> {
    names.iter().map(|n| card(n)).collect()
}

fn sorted(mut v: Vec<starrealms::CardId>) -> Vec<starrealms::CardId> {
    v.sort();
    v
}

#[test]
fn the_configuration_names_the_first_player_the_decks_and_the_trade_deck() {
    let empire = cards(&[
        "scout",
        "scout",
        "scout",
        "scout",
        "scout",
        "scout",
        "scout",
        "scout",
        "viper",
        "imperial_fighter",
        "smuggler",
    ]);
    let config = Config {
        first: Some(Seat(1)),
        decks: vec![empire.clone(), Vec::new()],
        trade_deck: Some(cards(&["royal_herald"; 12])),
        ..Config::default()
    };
    for seed in 0..20 {
        let s = State::new(&config, seed).unwrap();
        assert_eq!(s.first, Seat(1));
        assert_eq!(s.players.0[1].hand.len(), 3, "the first player draws 3");
        assert_eq!(
            sorted(s.players.0[0].all_cards().collect()),
            sorted(empire.clone())
        );
        assert_eq!(
            s.players.0[1].all_cards().count(),
            10,
            "8 Scouts and 2 Vipers"
        );
        assert_eq!(s.trade_deck.len() + 5, 12);
        assert!(s.row.iter().all(|c| *c == Some(card("royal_herald"))));
    }
    for (bad, words) in [
        (
            Config {
                first: Some(Seat(2)),
                ..Config::default()
            },
            "there is no seat p3",
        ),
        (
            Config {
                decks: vec![cards(&["scout"; 10])],
                ..Config::default()
            },
            "`decks` lists 1 seats",
        ),
        (
            Config {
                decks: vec![cards(&["scout"; 3]), vec![]],
                ..Config::default()
            },
            "at least a hand",
        ),
        (
            Config {
                trade_deck: Some(cards(&["scout"])),
                ..Config::default()
            },
            "scout is not a trade card",
        ),
        // Lists bounded: a configuration comes from whoever sends a record or makes a game.
        (
            Config {
                decks: vec![Vec::new(), cards(&["scout"; MAX_DECK + 1])],
                ..Config::default()
            },
            "p2's deck has 101 cards; a deck holds at most 100",
        ),
        (
            Config {
                trade_deck: Some(cards(&["cutter"; MAX_TRADE_DECK + 1])),
                ..Config::default()
            },
            "`trade_deck` has 1001 cards; a trade deck holds at most 1000",
        ),
        (
            Config {
                rules: vec![Rule::Authority { seat: 0, add: 1 }; MAX_RULES + 1],
                ..Config::default()
            },
            "`rules` holds 17 rule changes; a game takes at most 16",
        ),
        (
            Config {
                rules: vec![Rule::Bonus {
                    seat: None,
                    card: card("viper"),
                    effects: vec![Effect::Trade(1); MAX_BONUS_EFFECTS + 1],
                }],
                ..Config::default()
            },
            "rule `bonus`: 9 effects; a bonus gives at most 8",
        ),
        // A rule for a seat the game does not have, named as the record writes it.
        (
            Config {
                rules: vec![Rule::Bonus {
                    seat: Some(5),
                    card: card("viper"),
                    effects: vec![Effect::Combat(1)],
                }],
                ..Config::default()
            },
            "rule `bonus`: there is no seat 5 (seats are numbered 0 to 1)",
        ),
        (
            Config {
                rules: vec![Rule::Base {
                    seat: 2,
                    card: card("blob_world"),
                }],
                ..Config::default()
            },
            "rule `base`: there is no seat 2 (seats are numbered 0 to 1)",
        ),
    ] {
        let err = State::new(&bad, 1).unwrap_err();
        assert!(err.contains(words), "{err}");
    }
    // Each at its bound is a game.
    let largest = Config {
        decks: vec![cards(&["scout"; MAX_DECK]), cards(&["viper"; MAX_DECK])],
        trade_deck: Some(cards(&["cutter"; MAX_TRADE_DECK])),
        rules: std::iter::repeat_n(
            Rule::Bonus {
                seat: None,
                card: card("viper"),
                effects: vec![Effect::Trade(1); MAX_BONUS_EFFECTS],
            },
            MAX_RULES,
        )
        .collect(),
        ..Config::default()
    };
    let s = State::new(&largest, 1).unwrap();
    assert_eq!(s.trade_deck.len() + 5, MAX_TRADE_DECK);
}

#[test]
fn authority_and_starting_bases_of_a_scenario() {
    let config = Config {
        rules: vec![
            Rule::Authority { seat: 0, add: 10 },
            Rule::Authority { seat: 1, add: -5 },
            Rule::Base {
                seat: 1,
                card: card("border_keep"),
            },
        ],
        ..Config::default()
    };
    let s = State::new(&config, 3).unwrap();
    assert_eq!(s.players.0[0].authority, 60);
    assert_eq!(s.players.0[1].authority, 45);
    assert_eq!(s.players.0[1].bases.len(), 1);
    assert_eq!(s.players.0[1].bases[0].card, card("border_keep"));
    let bad = Config {
        rules: vec![Rule::Base {
            seat: 0,
            card: card("viper"),
        }],
        ..Config::default()
    };
    assert!(
        State::new(&bad, 1)
            .unwrap_err()
            .contains("viper is not a base")
    );
    let multi = Config {
        rules: vec![Rule::Row { slots: 3 }],
        ..Config::of_format(starrealms::Format::FreeForAll, Some(3))
    };
    assert!(State::new(&multi, 1).unwrap_err().contains("two-player"));
}

#[test]
fn a_bonus_for_playing_a_card() {
    // "Vipers give +1 trade", for every seat.
    let config = Config {
        first: Some(Seat(0)),
        rules: vec![Rule::Bonus {
            seat: None,
            card: card("viper"),
            effects: vec![starrealms::cards::Effect::Trade(1)],
        }],
        ..Config::default()
    };
    let mut s = State::new(&config, 5).unwrap();
    s.players.0[0].hand = cards(&["viper", "scout"]);
    s.act("play viper");
    assert_eq!((s.players.0[0].trade, s.players.0[0].combat), (1, 1));
    s.act("play scout");
    assert_eq!(s.players.0[0].trade, 2, "no bonus for a Scout");
    let bad = Config {
        rules: vec![Rule::Bonus {
            seat: None,
            card: card("viper"),
            effects: vec![starrealms::cards::Effect::OpponentDiscards],
        }],
        ..Config::default()
    };
    assert!(
        State::new(&bad, 1)
            .unwrap_err()
            .contains("trade, combat, authority or draw")
    );
}

#[test]
fn draw_then_discard_at_the_start_of_each_turn() {
    let config = Config {
        first: Some(Seat(0)),
        rules: vec![Rule::TurnStart {
            seat: Some(1),
            draw: 1,
            discard: 1,
        }],
        ..Config::default()
    };
    let mut s = State::new(&config, 8).unwrap();
    assert!(s.pending.is_none(), "p1 has no such rule");
    assert_eq!(s.players.0[0].hand.len(), 3);
    s.act("end");
    // p2's turn begins: six cards, then one discarded.
    assert_eq!(s.players.0[1].hand.len(), 6);
    assert!(matches!(
        s.pending,
        Some(Pending::Discard {
            seat: Seat(1),
            left: 1
        })
    ));
    let c = s.players.0[1].hand[0];
    s.act(&format!("discard {c}"));
    assert_eq!(s.players.0[1].hand.len(), 5);
    assert_eq!(s.players.0[1].discard, vec![c]);
}

#[test]
fn a_shorter_trade_row() {
    let config = Config {
        rules: vec![Rule::Row { slots: 3 }],
        ..Config::default()
    };
    let mut s = State::new(&config, 2).unwrap();
    assert!(s.row[..3].iter().all(Option::is_some));
    assert!(s.row[3..].iter().all(Option::is_none));
    assert_eq!(s.trade_deck.len(), 77);
    let me = s.current.index();
    s.players.0[me].trade = 20;
    s.act("buy row 1");
    assert!(s.row[1].is_some(), "a slot of the row refills");
    assert!(
        s.row[3..].iter().all(Option::is_none),
        "the others stay empty"
    );
    assert!(
        State::new(
            &Config {
                rules: vec![Rule::Row { slots: 6 }],
                ..Config::default()
            },
            1
        )
        .unwrap_err()
        .contains("1 to 5 slots")
    );
}

#[test]
fn a_configuration_with_table_rules_replays_and_round_trips() {
    let config = Config {
        first: Some(Seat(1)),
        rules: vec![
            Rule::Authority { seat: 0, add: 5 },
            Rule::TurnStart {
                seat: None,
                draw: 1,
                discard: 1,
            },
            Rule::Row { slots: 4 },
        ],
        ..Config::default()
    };
    let json = serde_json::to_string(&config).unwrap();
    let back: Config = serde_json::from_str(&json).unwrap();
    assert_eq!(back, config);
    let mut rng = game::rng_from_seed(1);
    let mut s = State::new(&config, 4).unwrap();
    let mut buf = Vec::new();
    let mut actions = Vec::new();
    let counts = s.card_counts();
    while !s.over {
        let a = starrealms::rollout::random_action(&s, &mut buf, &mut rng);
        s.apply(a).unwrap();
        actions.push(a);
        assert_eq!(s.card_counts(), counts);
    }
    let mut again = State::new(&config, 4).unwrap();
    for a in actions {
        again.apply(a).unwrap();
    }
    assert_eq!(again, s);
}
