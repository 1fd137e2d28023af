//! Rule tests: setup, turn structure, edge cases decided in `docs/rules.md`.

use game::{ActionError, Seat};
use starrealms::scenario::{Builder, card};
use starrealms::{Action, Config, DiscardTiming, Format, State};

fn count(cards: &[starrealms::CardId], name: &str) -> usize {
    let c = card(name);
    cards.iter().filter(|&&x| x == c).count()
}

#[test]
fn setup_of_a_two_player_game() {
    let mut firsts = [0; 2];
    for seed in 0..200 {
        let s = State::new(&Config::default(), seed).unwrap();
        firsts[s.first.index()] += 1;
        assert_eq!(s.current, s.first);
        let second = Seat(1 - s.first.0);
        assert_eq!(s.players[s.first].hand.len(), 3);
        assert_eq!(s.players[second].hand.len(), 5);
        for (_, p) in s.players.iter() {
            let all: Vec<_> = p.all_cards().collect();
            assert_eq!(all.len(), 10);
            assert_eq!(count(&all, "scout"), 8);
            assert_eq!(count(&all, "viper"), 2);
            assert_eq!(p.authority, 50);
            assert!(p.discard.is_empty() && p.ships.is_empty() && p.bases.is_empty());
        }
        assert!(s.row.iter().all(Option::is_some));
        assert_eq!(s.trade_deck.len(), 75);
        assert_eq!(s.explorers, 10);
        assert!(s.scrap_heap.is_empty());
    }
    // The seed decides who starts, and both seats do start sometimes.
    assert!(firsts[0] > 60 && firsts[1] > 60, "{firsts:?}");
}

#[test]
fn free_for_all_hands_are_three_four_then_five() {
    let config = Config {
        seats: 5,
        format: Format::FreeForAll,
        ..Config::default()
    };
    let s = State::new(&config, 9).unwrap();
    let sizes: Vec<usize> = (0..5)
        .map(|k| {
            s.players[Seat(((s.first.index() + k) % 5) as u8)]
                .hand
                .len()
        })
        .collect();
    assert_eq!(sizes, vec![3, 4, 5, 5, 5]);
    assert_eq!(s.explorers, 25, "the Explorer pile grows with the table");
}

#[test]
fn bad_configurations_are_refused() {
    for config in [
        Config {
            seats: 3,
            ..Config::default()
        },
        Config {
            seats: 7,
            format: Format::FreeForAll,
            ..Config::default()
        },
        Config {
            authority: 0,
            ..Config::default()
        },
        Config {
            authority: starrealms::config::MAX_AUTHORITY + 1,
            ..Config::default()
        },
    ] {
        assert!(State::new(&config, 1).is_err(), "{config:?}");
    }
}

#[test]
fn a_configuration_s_authority_stays_far_from_overflowing() {
    use starrealms::config::{MAX_AUTHORITY, Rule};
    let with_rule = |add| Config {
        authority: MAX_AUTHORITY,
        rules: vec![Rule::Authority { seat: 0, add }],
        ..Config::default()
    };
    // As much as a configuration may give: the game starts.
    let s = State::new(&with_rule(MAX_AUTHORITY), 1).unwrap();
    assert_eq!(s.players.0[0].authority, 2 * MAX_AUTHORITY);
    // Beyond, refused in words, whichever way.
    for add in [MAX_AUTHORITY + 1, -MAX_AUTHORITY - 1, i32::MAX, i32::MIN] {
        let e = State::new(&with_rule(add), 1).unwrap_err();
        assert!(e.to_string().contains("1000000"), "{add}: {e}");
    }
    let e = State::new(
        &Config {
            authority: i32::MAX,
            ..Config::default()
        },
        1,
    )
    .unwrap_err();
    assert!(e.to_string().contains("from 1 to 1000000"), "{e}");
}

#[test]
fn authority_has_no_upper_limit() {
    let mut s = Builder::new().hand(0, &["Cutter"]).build();
    s.act("play cutter");
    assert_eq!(s.players.0[0].authority, 54);
}

#[test]
fn the_game_ends_the_moment_authority_reaches_zero() {
    let mut s = Builder::new()
        .hand(0, &["Scout"])
        .pools(0, 0, 9)
        .authority(1, 5)
        .build();
    s.act("attack p2 5");
    assert!(s.over);
    assert_eq!(s.players.0[1].authority, 0);
    assert_eq!(s.winners(), vec![Seat(0)]);
    assert_eq!(s.returns(), vec![1.0, 0.0]);
    assert!(s.legal_actions().is_empty());
    assert_eq!(s.to_move(), None);
    let before = s.clone();
    assert!(matches!(
        s.apply(Action::End),
        Err(ActionError::GameOver { .. })
    ));
    assert_eq!(s, before);
}

#[test]
fn overkill_also_ends_the_game() {
    let mut s = Builder::new().pools(0, 0, 12).authority(1, 3).build();
    s.act("attack p2 10");
    assert!(s.over);
    assert_eq!(s.players.0[1].authority, -7);
}

#[test]
fn attacks_split_freely_between_player_and_bases() {
    let mut s = Builder::new()
        .pools(0, 0, 10)
        .bases(1, &["Blob Wheel"])
        .build();
    let legal = s.legal_texts();
    assert!(legal.contains(&"attack p2 base 0".to_string()));
    assert!(legal.contains(&"attack p2 10".to_string()));
    assert!(!legal.contains(&"attack p2 11".to_string()));
    s.act("attack p2 3");
    s.act("attack p2 base 0");
    assert_eq!(s.players.0[0].combat, 2);
    assert_eq!(s.players.0[1].authority, 47);
    assert!(s.players.0[1].bases.is_empty());
    assert_eq!(s.players.0[1].discard, vec![card("Blob Wheel")]);
}

#[test]
fn an_outpost_shields_its_owner_and_other_bases() {
    let mut s = Builder::new()
        .pools(0, 0, 20)
        .bases(1, &["Blob Wheel", "Trading Post"])
        .build();
    let legal = s.legal_texts();
    assert!(
        !legal
            .iter()
            .any(|a| a.starts_with("attack p2 ") && !a.contains("base"))
    );
    assert!(!legal.contains(&"attack p2 base 0".to_string()));
    assert!(legal.contains(&"attack p2 base 1".to_string()));
    let err = s.apply("attack p2 5".parse().unwrap()).unwrap_err();
    assert!(err.to_string().contains("outpost"), "{err}");
    s.act("attack p2 base 1");
    assert_eq!(s.players.0[0].combat, 16);
    let legal = s.legal_texts();
    assert!(legal.contains(&"attack p2 base 0".to_string()));
    assert!(legal.contains(&"attack p2 16".to_string()));
}

#[test]
fn a_base_needs_its_full_defense_in_one_turn() {
    let s = Builder::new()
        .pools(0, 0, 4)
        .bases(1, &["The Hive"])
        .build();
    assert!(!s.legal_texts().contains(&"attack p2 base 0".to_string()));
}

#[test]
fn an_illegal_action_changes_nothing_and_says_why() {
    let mut s = Builder::new()
        .hand(0, &["Scout"])
        .row(&["Cutter"])
        .pools(0, 1, 0)
        .build();
    let before = s.clone();
    for text in [
        "play viper",
        "buy row 0",
        "buy row 3",
        "attack p2 1",
        "choose 0",
        "pass",
    ] {
        let err = s.apply(text.parse().unwrap()).unwrap_err();
        assert!(err.to_string().contains(text), "{err}");
        assert_eq!(s, before);
    }
    let err = s.apply("buy row 0".parse().unwrap()).unwrap_err();
    assert!(err.to_string().contains("costs 2"), "{err}");
}

#[test]
fn malformed_action_texts_are_errors() {
    for text in [
        "",
        "fly away",
        "play",
        "play unicorn",
        "buy row 9",
        "attack p9 3",
        "attack p2 0",
        "attack p2 65",
        "end now",
        "choose x",
    ] {
        assert!(text.parse::<Action>().is_err(), "`{text}` parsed");
    }
    assert_eq!(
        "play Navette de la Fédération".parse::<Action>().unwrap(),
        Action::Play(card("federation_shuttle"))
    );
}

#[test]
fn buying_pays_and_refills_the_row_from_the_trade_deck() {
    let mut s = Builder::new()
        .row(&["Cutter", "Ram"])
        .trade_deck(&["Corvette", "Mothership"])
        .pools(0, 5, 0)
        .build();
    s.act("buy row 1");
    assert_eq!(s.players.0[0].trade, 2);
    assert_eq!(s.players.0[0].discard, vec![card("Ram")]);
    assert_eq!(s.row[1], Some(card("Corvette")));
    assert_eq!(s.trade_deck, vec![card("Mothership")]);
}

#[test]
fn an_empty_trade_deck_leaves_empty_slots_and_the_game_goes_on() {
    let mut s = Builder::new().row(&["Cutter"]).pools(0, 4, 0).build();
    s.act("buy row 0");
    assert_eq!(s.row, [None; 5]);
    assert!(!s.legal_texts().iter().any(|a| a.starts_with("buy row")));
    s.act("buy explorer");
    assert_eq!(s.explorers, 9);
    s.act("end");
    assert!(!s.over);
}

#[test]
fn an_empty_explorer_pile_cannot_be_bought_from() {
    let s = Builder::new().explorers(0).pools(0, 5, 0).build();
    assert!(!s.legal_texts().contains(&"buy explorer".to_string()));
}

#[test]
fn discard_then_draw_five_with_reshuffle() {
    let mut s = Builder::new()
        .hand(0, &["Viper"])
        .deck(0, &["Scout", "Scout", "Cutter"])
        .discard(0, &["Ram", "Ram"])
        .ships(0, &["Trade Pod"])
        .pools(0, 3, 2)
        .build();
    s.act("end");
    let p = &s.players.0[0];
    assert_eq!((p.trade, p.combat), (0, 0), "pools are lost");
    assert!(p.ships.is_empty());
    // Three from the deck, then the discard pile (Ram, Ram, Trade Pod, Viper) is shuffled
    // into a new deck and two more are drawn.
    assert_eq!(p.hand.len(), 5);
    assert_eq!(count(&p.hand, "scout"), 2);
    assert_eq!(count(&p.hand, "cutter"), 1);
    assert_eq!(p.deck.len(), 2);
    assert!(p.discard.is_empty());
    assert_eq!(s.current, Seat(1));
    assert_eq!(s.turn, 2);
}

#[test]
fn with_deck_and_discard_both_empty_fewer_cards_are_drawn() {
    let mut s = Builder::new()
        .hand(0, &["Scout"])
        .ships(0, &["Viper"])
        .build();
    s.act("end");
    // Hand and ships went to the discard pile first, so the draw finds exactly two cards.
    assert_eq!(s.players.0[0].hand.len(), 2);
    let mut empty = Builder::new().build();
    empty.act("end");
    assert!(empty.players.0[0].hand.is_empty());
    assert!(!empty.over);
}

#[test]
fn a_draw_mid_turn_reshuffles_the_discard_pile() {
    let mut s = Builder::new()
        .hand(0, &["Corvette"])
        .discard(0, &["Viper"])
        .build();
    s.act("play corvette");
    assert_eq!(s.players.0[0].hand, vec![card("Viper")]);
    assert!(s.players.0[0].discard.is_empty());
}

#[test]
fn opponent_discard_is_immediate_and_chosen_by_the_opponent() {
    let mut s = Builder::new()
        .hand(0, &["Imperial Fighter"])
        .hand(1, &["Scout", "Viper"])
        .build();
    s.act("play imperial fighter");
    assert_eq!(s.to_move(), Some(Seat(1)));
    assert_eq!(s.legal_texts(), vec!["discard scout", "discard viper"]);
    s.act("discard viper");
    assert_eq!(s.to_move(), Some(Seat(0)));
    assert_eq!(s.players.0[1].hand, vec![card("Scout")]);
    assert_eq!(s.players.0[1].discard, vec![card("Viper")]);
}

#[test]
fn app_timing_discards_at_the_start_of_the_next_turn() {
    let mut s = Builder::new()
        .config(|c| c.discard_timing = DiscardTiming::NextTurn)
        .hand(0, &["Imperial Fighter"])
        .hand(1, &["Scout", "Viper", "Scout"])
        .build();
    s.act("play imperial fighter");
    assert_eq!(s.to_move(), Some(Seat(0)));
    assert_eq!(s.players.0[1].pending_discards, 1);
    assert_eq!(s.players.0[1].hand.len(), 3);
    s.act("end");
    assert_eq!(s.current, Seat(1));
    assert_eq!(s.to_move(), Some(Seat(1)));
    assert_eq!(s.legal_texts(), vec!["discard scout", "discard viper"]);
    s.act("discard scout");
    assert_eq!(s.players.0[1].hand.len(), 2);
    assert_eq!(s.players.0[1].pending_discards, 0);
    assert!(s.legal_texts().contains(&"end".to_string()));
}

#[test]
fn defeated_players_are_skipped_and_the_last_one_standing_wins() {
    let mut s = Builder::seats(3).pools(0, 0, 10).authority(1, 4).build();
    s.act("attack p2 4");
    assert!(!s.over, "two players are still alive");
    assert!(!s.players.0[1].alive);
    assert!(
        !s.legal_texts().iter().any(|a| a.contains("p2")),
        "p2 is out"
    );
    s.act("end");
    assert_eq!(s.current, Seat(2), "p2 is skipped");
    s.players.0[2].combat = 60;
    s.act("attack p1 50");
    assert!(s.over);
    assert_eq!(s.winners(), vec![Seat(2)]);
}

#[test]
fn in_multiplayer_the_discarding_opponent_is_a_target_to_choose() {
    let mut s = Builder::seats(3)
        .hand(0, &["Imperial Fighter"])
        .hand(1, &["Scout"])
        .hand(2, &["Viper"])
        .build();
    s.act("play imperial fighter");
    assert_eq!(s.legal_texts(), vec!["target p2", "target p3"]);
    s.act("target p3");
    assert_eq!(s.to_move(), Some(Seat(2)));
    s.act("discard viper");
    assert_eq!(s.players.0[2].discard, vec![card("Viper")]);
}

#[test]
fn a_game_nobody_can_finish_is_a_draw_at_the_turn_limit() {
    let mut s = Builder::new().config(|c| c.turn_limit = 5).build();
    for _ in 0..4 {
        s.act("end");
    }
    assert!(s.over);
    assert!(s.is_draw());
    assert!(s.winners().is_empty());
    assert_eq!(s.returns(), vec![0.5, 0.5]);
}
