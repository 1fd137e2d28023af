//! The multiplayer formats: setup, who may attack and target whom, outposts, shared authority,
//! the cards of fallen players, card passing, and who wins. Rules and sources: `docs/rules.md`,
//! "Multiplayer formats".

use game::{Seat, State as _};
use starrealms::scenario::{Builder, card};
use starrealms::{Config, Edition, Format, Pending, State};

fn table(format: Format, seats: usize) -> Builder {
    Builder::seats(seats as u8).config(|c| {
        c.format = format;
        c.seats = seats as u8;
    })
}

/// The legal actions of a kind (`attack`, `destroy`, `target`…), as text.
fn legal(state: &State, prefix: &str) -> Vec<String> {
    state
        .legal_texts()
        .into_iter()
        .filter(|t| t.starts_with(prefix))
        .collect()
}

/// The seats the current player may attack (`attack pN <n>` with any amount).
fn attackable(state: &State) -> Vec<String> {
    let mut seats: Vec<String> = legal(state, "attack")
        .iter()
        .filter(|t| !t.contains("base"))
        .map(|t| t.split_whitespace().nth(1).unwrap().to_string())
        .collect();
    seats.dedup();
    seats
}

fn new_game(format: Format, seats: u8, seed: u64) -> State {
    State::new_game(&Config::of_format(format, Some(seats)), seed).unwrap()
}

fn hands(state: &State) -> Vec<usize> {
    state.players.0.iter().map(|p| p.hand.len()).collect()
}

fn authorities(state: &State) -> Vec<i32> {
    state.players.0.iter().map(|p| p.authority).collect()
}

// ----- setup ---------------------------------------------------------------------------------

#[test]
fn free_for_all_and_hunter_deal_3_4_then_5_cards_from_the_first_player() {
    for format in [Format::FreeForAll, Format::Hunter, Format::HunterFirstBlood] {
        for seed in 0..6 {
            let s = new_game(format, 5, seed);
            for order in 0..5 {
                let seat = (s.first.index() + order) % 5;
                let expected = [3, 4, 5, 5, 5][order];
                assert_eq!(
                    s.players.0[seat].hand.len(),
                    expected,
                    "{format:?} seed {seed}"
                );
            }
            assert_eq!(authorities(&s), vec![50; 5]);
            // Explorers scale with the table: 10, plus 5 per seat beyond two.
            assert_eq!(s.explorers, 25);
        }
    }
}

#[test]
fn hydra_teams_share_75_or_100_authority_and_the_first_team_holds_3_cards() {
    for (seats, authority) in [(4, 75), (6, 100)] {
        for seed in 0..8 {
            let s = new_game(Format::Hydra, seats, seed);
            let half = seats as usize / 2;
            assert!(
                s.first.index() == 0 || s.first.index() == half,
                "a team's first seat opens"
            );
            let first_team = s.players[s.first].team;
            for (seat, p) in s.players.iter() {
                assert_eq!(p.team, (seat.index() >= half) as u8);
                assert_eq!(p.authority, authority);
                let expected = if p.team == first_team { 3 } else { 5 };
                assert_eq!(p.hand.len(), expected);
            }
        }
    }
}

#[test]
fn emperor_seats_two_teams_of_an_emperor_between_two_admirals() {
    let s = new_game(Format::Emperor, 6, 3);
    assert_eq!(s.first, Seat(0), "player 1 opens");
    assert_eq!(authorities(&s), vec![50, 60, 50, 50, 60, 50]);
    assert_eq!(hands(&s), vec![3, 3, 3, 5, 5, 5]);
    let teams: Vec<u8> = s.players.0.iter().map(|p| p.team).collect();
    assert_eq!(teams, vec![0, 0, 0, 1, 1, 1]);
}

#[test]
fn the_raid_boss_starts_with_two_cards_fewer_than_his_hand_size() {
    for (seats, authority, hand) in [(3, 50, 7), (4, 70, 7), (5, 70, 8), (6, 90, 8)] {
        let s = new_game(Format::Raid, seats, 1);
        assert_eq!(s.first, Seat(0), "the Boss opens");
        assert_eq!(s.players.0[0].authority, authority);
        assert_eq!(s.players.0[0].hand.len(), hand - 2);
        assert_eq!(s.config.hand_size(0), hand);
        for p in &s.players.0[1..] {
            assert_eq!((p.authority, p.hand.len(), p.team), (50, 5, 1));
        }
    }
}

#[test]
fn seat_counts_outside_a_format_are_refused() {
    for (format, seats) in [
        (Format::Standard, 3),
        (Format::FreeForAll, 2),
        (Format::Hydra, 5),
        (Format::Emperor, 4),
        (Format::Raid, 7),
    ] {
        let config = Config {
            format,
            seats,
            ..Config::default()
        };
        let err = State::new_game(&config, 0).unwrap_err();
        assert!(err.contains("seats"), "{err}");
    }
    assert_eq!(
        "hunter-first-blood".parse::<Format>(),
        Ok(Format::HunterFirstBlood)
    );
    assert!(
        "chess"
            .parse::<Format>()
            .unwrap_err()
            .contains("known: standard")
    );
    assert_eq!("classic".parse::<Edition>(), Ok(Edition::Classic));
}

// ----- targeting -----------------------------------------------------------------------------

#[test]
fn free_for_all_attacks_anyone_and_an_outpost_shields_only_its_owner() {
    let s = table(Format::FreeForAll, 4)
        .pools(0, 0, 5)
        .bases(1, &["Trading Post"])
        .bases(2, &["Blob Wheel"])
        .build();
    assert_eq!(attackable(&s), vec!["p3", "p4"], "p2 is behind its outpost");
    assert!(legal(&s, "attack p2 base 0").len() == 1);
    assert!(
        legal(&s, "attack p3 base 0").len() == 1,
        "p2's outpost does not shield p3"
    );
}

#[test]
fn a_hunter_attacks_only_the_player_to_his_left_and_the_bases_of_both_neighbours() {
    let mut s = table(Format::Hunter, 4)
        .pools(0, 0, 60)
        .bases(1, &["Blob Wheel"])
        .bases(2, &["Blob Wheel"])
        .bases(3, &["Blob Wheel"])
        .hand(0, &["Imperial Fighter"])
        .hand(1, &["Scout"])
        .hand(2, &["Scout"])
        .hand(3, &["Scout"])
        .build();
    assert_eq!(attackable(&s), vec!["p2"], "p2 plays after p1: p1's left");
    assert_eq!(legal(&s, "attack p2 base"), vec!["attack p2 base 0"]);
    assert_eq!(
        legal(&s, "attack p4 base"),
        vec!["attack p4 base 0"],
        "the right neighbour"
    );
    assert!(legal(&s, "attack p3").is_empty(), "across the table");
    // "Target opponent discards" targets the left neighbour only: no choice to make.
    s.act("play imperial_fighter");
    assert_eq!(
        s.pending,
        Some(Pending::Discard {
            seat: Seat(1),
            left: 1
        })
    );
    s.act("discard scout");
    // When the left neighbour falls, the next player on the left becomes the target.
    s.act("attack p2 50");
    assert!(!s.players.0[1].alive);
    assert_eq!(attackable(&s), vec!["p3"]);
    assert_eq!(legal(&s, "attack p3 base"), vec!["attack p3 base 0"]);
    assert_eq!(legal(&s, "attack p4 base"), vec!["attack p4 base 0"]);
}

#[test]
fn hunter_first_blood_ends_at_the_first_defeat_and_the_right_neighbour_wins() {
    let mut s = table(Format::HunterFirstBlood, 4)
        .current(1)
        .pools(1, 0, 50)
        .build();
    s.act("attack p3 50");
    assert!(s.over);
    assert_eq!(s.winners(), vec![Seat(1)], "p2 sits right of p3");
    assert_eq!(s.returns(), vec![0.0, 1.0, 0.0, 0.0]);
    assert!(
        s.players.0[0].alive && s.players.0[3].alive,
        "the others are not defeated"
    );
}

#[test]
fn an_admiral_attacks_only_the_admiral_opposite_then_the_enemy_emperor() {
    let mut s = table(Format::Emperor, 6)
        .pools(0, 0, 64)
        .bases(4, &["Blob Wheel"])
        .bases(3, &["Blob Wheel"])
        .build();
    assert_eq!(attackable(&s), vec!["p4"], "p1 faces p4");
    assert_eq!(legal(&s, "attack p4 base"), vec!["attack p4 base 0"]);
    assert!(
        legal(&s, "attack p5").is_empty(),
        "not the Emperor while his Admiral stands"
    );
    s.act("attack p4 50");
    assert!(s.pending.is_some() || !s.players.0[3].alive);
    // p4 falls: he may pass a card on to his Emperor; then p1 may attack the enemy Emperor.
    while let Some(Pending::Bequeath { .. }) = s.pending {
        s.act("pass");
    }
    assert_eq!(attackable(&s), vec!["p5"]);
    assert_eq!(legal(&s, "attack p5 base"), vec!["attack p5 base 0"]);
}

#[test]
fn an_emperor_attacks_any_enemy_and_nobody_attacks_a_teammate() {
    let s = table(Format::Emperor, 6).current(1).pools(1, 0, 5).build();
    assert_eq!(attackable(&s), vec!["p4", "p5", "p6"]);
}

#[test]
fn raid_soldiers_attack_only_the_boss_and_the_boss_attacks_any_soldier() {
    let s = table(Format::Raid, 4).current(2).pools(2, 0, 5).build();
    assert_eq!(attackable(&s), vec!["p1"]);
    let s = table(Format::Raid, 4).pools(0, 0, 5).build();
    assert_eq!(attackable(&s), vec!["p2", "p3", "p4"]);
}

#[test]
fn a_hydra_teammates_outpost_shields_the_whole_team() {
    let s = table(Format::Hydra, 4)
        .pools(0, 0, 20)
        .bases(2, &["Trading Post"])
        .bases(3, &["Blob Wheel"])
        .build();
    assert!(attackable(&s).is_empty(), "p3's outpost shields p3 and p4");
    assert_eq!(legal(&s, "attack"), vec!["attack p3 base 0"]);
    assert!(legal(&s, "attack p2").is_empty(), "a teammate");
}

// ----- authority, defeats, cards passed on -----------------------------------------------------

#[test]
fn hydra_teammates_share_authority_and_fall_together() {
    let mut s = table(Format::Hydra, 4)
        .hand(0, &["Cutter"])
        .pools(0, 0, 80)
        .build();
    assert_eq!(authorities(&s), vec![75, 75, 75, 75]);
    s.act("play cutter");
    assert_eq!(
        authorities(&s),
        vec![79, 79, 75, 75],
        "p1's gain is the team's"
    );
    s.act("attack p4 30");
    assert_eq!(authorities(&s), vec![79, 79, 45, 45]);
    s.act("attack p3 45");
    assert!(s.over && !s.players.0[2].alive && !s.players.0[3].alive);
    assert_eq!(s.winners(), vec![Seat(0), Seat(1)]);
}

#[test]
fn a_fallen_free_for_all_player_leaves_all_his_cards_to_the_scrap_heap() {
    for edition in [Edition::RiseOfEmpire, Edition::Classic] {
        let mut s = table(Format::FreeForAll, 3)
            .config(|c| c.edition = edition)
            .pools(0, 0, 10)
            .authority(1, 10)
            .hand(1, &["Scout", "Explorer"])
            .deck(1, &["Viper"])
            .discard(1, &["Cutter"])
            .bases(1, &["Blob Wheel"])
            .explorers(9)
            .build();
        let heap = s.scrap_heap.len();
        s.act("attack p2 10");
        assert!(!s.over, "two players are left");
        let p = &s.players.0[1];
        assert!(!p.alive && p.all_cards().next().is_none(), "{edition:?}");
        assert_eq!(
            s.scrap_heap.len(),
            heap + 4,
            "Scout, Viper, Cutter, Blob Wheel"
        );
        assert_eq!(s.explorers, 10, "an Explorer goes back to its pile");
        assert!(legal(&s, "attack p2").is_empty());
    }
}

#[test]
fn a_fallen_admiral_passes_a_card_to_his_emperor_from_hand_deck_or_discard() {
    for edition in [Edition::RiseOfEmpire, Edition::Classic] {
        let mut s = table(Format::Emperor, 6)
            .config(|c| c.edition = edition)
            .pools(0, 0, 10)
            .authority(3, 10)
            .hand(3, &["Scout"])
            .discard(3, &["Cutter"])
            .bases(3, &["Blob Wheel"])
            .build();
        s.act("attack p4 10");
        assert_eq!(
            s.pending,
            Some(Pending::Bequeath {
                from: Seat(3),
                to: Seat(4)
            })
        );
        assert_eq!(s.to_move(), Some(Seat(3)), "the fallen Admiral chooses");
        let offered = legal(&s, "bequeath");
        match edition {
            // Hand, deck or discard pile: his base in play goes to the scrap heap.
            Edition::RiseOfEmpire => assert_eq!(offered, vec!["bequeath scout", "bequeath cutter"]),
            // Any of his cards.
            Edition::Classic => assert_eq!(
                offered,
                vec!["bequeath scout", "bequeath cutter", "bequeath blob_wheel"]
            ),
        }
        s.act("bequeath cutter");
        assert_eq!(s.players.0[4].discard, vec![card("Cutter")]);
        assert!(
            s.pending.is_none() && s.to_move() == Some(Seat(0)),
            "p1's turn goes on"
        );
        assert!(s.players.0[3].all_cards().next().is_none());
        assert!(s.scrap_heap.contains(&card("Scout")));
    }
}

#[test]
fn the_team_whose_emperor_falls_loses() {
    let mut s = table(Format::Emperor, 6).current(1).pools(1, 0, 60).build();
    s.act("attack p5 60");
    assert!(s.over);
    assert_eq!(s.winners(), vec![Seat(0), Seat(1), Seat(2)]);
    assert_eq!(s.returns(), vec![1.0, 1.0, 1.0, 0.0, 0.0, 0.0]);
}

#[test]
fn paying_one_trade_gives_a_discarded_card_to_a_teammate() {
    let mut s = table(Format::Emperor, 6)
        .pools(0, 2, 0)
        .discard(0, &["Cutter", "Scout"])
        .build();
    assert_eq!(
        legal(&s, "give"),
        vec![
            "give p2 scout",
            "give p3 scout",
            "give p2 cutter",
            "give p3 cutter"
        ]
    );
    s.act("give p2 cutter");
    assert_eq!(s.players.0[0].trade, 1);
    assert_eq!(s.players.0[0].discard, vec![card("Scout")]);
    assert_eq!(s.players.0[1].discard, vec![card("Cutter")]);
    let none = table(Format::Emperor, 6).discard(0, &["Cutter"]).build();
    assert!(legal(&none, "give").is_empty(), "it costs 1 trade");
    let duel = Builder::new()
        .pools(0, 2, 0)
        .discard(0, &["Cutter"])
        .build();
    assert!(legal(&duel, "give").is_empty(), "Emperor format only");
}

#[test]
fn a_fallen_soldier_passes_a_card_to_each_other_soldier_and_scraps_the_rest() {
    let mut s = table(Format::Raid, 4)
        .pools(0, 0, 10)
        .authority(2, 10)
        .hand(2, &["Scout", "Viper", "Cutter"])
        .build();
    s.act("attack p3 10");
    assert_eq!(
        s.pending,
        Some(Pending::Bequeath {
            from: Seat(2),
            to: Seat(1)
        })
    );
    s.act("bequeath cutter");
    assert_eq!(
        s.pending,
        Some(Pending::Bequeath {
            from: Seat(2),
            to: Seat(3)
        })
    );
    s.act("bequeath viper");
    assert_eq!(s.players.0[1].discard, vec![card("Cutter")]);
    assert_eq!(s.players.0[3].discard, vec![card("Viper")]);
    assert_eq!(
        s.scrap_heap,
        vec![card("Scout")],
        "the rest goes to the scrap heap"
    );
    assert!(!s.over);
}

#[test]
fn the_boss_wins_when_every_soldier_falls_and_the_soldiers_when_the_boss_falls() {
    let mut s = table(Format::Raid, 3).pools(0, 0, 100).build();
    s.act("attack p2 50");
    while s.pending.is_some() {
        s.act("pass");
    }
    assert!(!s.over);
    s.act("attack p3 50");
    assert!(s.over);
    assert_eq!(s.winners(), vec![Seat(0)]);

    let mut s = table(Format::Raid, 4).current(3).pools(3, 0, 50).build();
    assert_eq!(
        s.players.0[0].authority, 70,
        "three Soldiers: the Boss has 70"
    );
    s.players.0[0].authority = 50;
    s.act("attack p1 50");
    assert!(s.over);
    assert_eq!(
        s.winners(),
        vec![Seat(1), Seat(2), Seat(3)],
        "the Soldiers win together"
    );
}

#[test]
fn damage_to_the_boss_bases_adds_up_until_the_boss_turn() {
    let mut s = table(Format::Raid, 3)
        .current(1)
        .pools(1, 0, 3)
        .bases(0, &["Battle Station"])
        .deck(1, &["Scout", "Scout", "Scout", "Scout", "Scout"])
        .deck(2, &["Scout", "Scout", "Scout", "Scout", "Scout"])
        .build();
    // A Soldier may deal part of a Boss base's defense (Battle Station: 5).
    s.act("attack p1 base 0");
    assert_eq!(s.players.0[0].bases[0].damage, 3);
    s.act("end");
    assert_eq!(
        s.players.0[0].bases[0].damage, 3,
        "it stays for the next Soldier"
    );
    s.players.0[2].combat = 2;
    s.act("attack p1 base 0");
    assert!(s.players.0[0].bases.is_empty(), "3 + 2 destroy it");

    let mut s = table(Format::Raid, 3)
        .current(2)
        .bases(0, &["Battle Station"])
        .deck(2, &["Scout", "Scout", "Scout", "Scout", "Scout"])
        .deck(
            0,
            &[
                "Scout", "Scout", "Scout", "Scout", "Scout", "Scout", "Scout", "Scout",
            ],
        )
        .build();
    s.players.0[0].bases[0].damage = 4;
    s.act("end");
    assert_eq!(s.current, Seat(0));
    assert_eq!(
        s.players.0[0].bases[0].damage, 0,
        "repaired when the Boss's turn begins"
    );
}

#[test]
fn the_boss_draws_his_hand_size_and_soldiers_see_each_others_hands() {
    let mut s = table(Format::Raid, 3)
        .hand(1, &["Cutter"])
        .hand(2, &["Scout"])
        .deck(0, &["Scout"; 10])
        .build();
    s.act("end");
    assert_eq!(s.players.0[0].hand.len(), 7, "two Soldiers: hand size 7");
    let soldier = s.observation(Seat(1));
    assert_eq!(
        soldier.players[2].hand,
        Some(vec![card("Scout")]),
        "a teammate's hand"
    );
    assert!(soldier.players[0].hand.is_none(), "not the Boss's");
    let boss = s.observation(Seat(0));
    assert!(boss.players[1].hand.is_none() && boss.players[2].hand.is_none());
}

#[test]
fn bots_play_every_format_and_edition_to_the_end() {
    let mut rng = game::rng_from_seed(3);
    let mut buf = Vec::new();
    for format in Format::ALL {
        for &seats in format.seats() {
            for edition in [Edition::RiseOfEmpire, Edition::Classic] {
                let config = Config {
                    edition,
                    ..Config::of_format(format, Some(seats))
                };
                let mut s = State::new_game(&config, 7).unwrap();
                starrealms::rollout::random_playout(&mut s, &mut buf, &mut rng);
                assert!(s.over, "{format:?} {seats} {edition:?}");
                assert!(s.turn < config.turn_limit || s.is_draw());
            }
        }
    }
}

// ----- Hydra team turns ------------------------------------------------------------------------

fn hydra(edition: Edition) -> Builder {
    table(Format::Hydra, 4)
        .config(|c| c.edition = edition)
        .deck(0, &["Scout"; 5])
        .deck(1, &["Scout"; 5])
        .deck(2, &["Scout"; 5])
        .deck(3, &["Scout"; 5])
}

#[test]
fn hydra_teammates_play_their_turn_together_until_all_have_ended() {
    let mut s = hydra(Edition::RiseOfEmpire)
        .hand(0, &["Scout"])
        .hand(1, &["Viper"])
        .build();
    assert!(
        legal(&s, "switch").is_empty(),
        "nothing done yet: no handing over"
    );
    s.act("play scout");
    assert_eq!(legal(&s, "switch"), vec!["switch p2"]);
    s.act("switch p2");
    assert_eq!((s.current, s.turn), (Seat(1), 1), "the same team turn");
    s.act("play viper");
    s.act("switch p1");
    assert_eq!(s.players.0[0].trade, 1, "p1's pool is kept");
    s.act("end");
    assert!(
        s.players.0[0].done && s.players.0[0].hand.len() == 5,
        "p1 has drawn"
    );
    assert_eq!((s.current, s.turn), (Seat(1), 1), "p2 plays on");
    assert!(legal(&s, "switch").is_empty() && legal(&s, "transfer").is_empty());
    s.act("end");
    assert_eq!((s.current, s.turn), (Seat(2), 2), "the other team's turn");
    assert!(s.players.0.iter().all(|p| !p.done));
}

#[test]
fn rise_of_empire_teammates_transfer_trade_and_combat_classic_ones_trade_only() {
    let mut s = hydra(Edition::RiseOfEmpire).pools(0, 2, 3).build();
    assert_eq!(
        legal(&s, "transfer"),
        vec![
            "transfer p2 trade 1",
            "transfer p2 trade 2",
            "transfer p2 combat 1",
            "transfer p2 combat 2",
            "transfer p2 combat 3"
        ]
    );
    s.act("transfer p2 combat 3");
    s.act("transfer p2 trade 2");
    assert_eq!((s.players.0[1].trade, s.players.0[1].combat), (2, 3));
    assert_eq!((s.players.0[0].trade, s.players.0[0].combat), (0, 0));

    let s = hydra(Edition::Classic).pools(0, 2, 3).build();
    assert_eq!(
        legal(&s, "transfer"),
        vec!["transfer p2 trade 1", "transfer p2 trade 2"]
    );
}

#[test]
fn classic_hydra_teammates_combine_combat_against_a_base() {
    let mut s = hydra(Edition::Classic)
        .pools(0, 0, 3)
        .pools(1, 0, 2)
        .hand(0, &["Scout"])
        .bases(2, &["Blob Wheel"])
        .build();
    s.act("play scout");
    s.act("attack p3 base 0");
    assert_eq!(
        s.players.0[2].bases[0].damage, 3,
        "Blob Wheel (5) holds with 3 damage"
    );
    s.act("switch p2");
    s.act("attack p3 base 0");
    assert!(s.players.0[2].bases.is_empty(), "p2's 2 combat finish it");
    // Rise of Empire: transfers instead; an attack on a base needs its whole defense.
    let s = hydra(Edition::RiseOfEmpire)
        .pools(0, 0, 3)
        .bases(2, &["Blob Wheel"])
        .build();
    assert!(legal(&s, "attack p3 base").is_empty());
}

#[test]
fn every_test_docs_rules_names_exists() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let rules = std::fs::read_to_string(root.join("../../docs/rules.md")).unwrap();
    let mut sources = String::new();
    for dir in ["tests", "src"] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "rs") {
                sources += &std::fs::read_to_string(path).unwrap();
            }
        }
    }
    let mut named = 0;
    for bracket in rules.split('[').skip(1) {
        let Some(inside) = bracket.split(']').next() else {
            continue;
        };
        for name in inside.split(", ") {
            // `file.rs: test_name` or `test_name`, in backticks.
            let name = name.trim_matches('`');
            let name = name.rsplit(": ").next().unwrap().trim_matches('`');
            if name.is_empty()
                || !name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c == '_' || c.is_ascii_digit())
            {
                continue;
            }
            named += 1;
            assert!(
                sources.contains(&format!("fn {name}(")),
                "docs/rules.md names `{name}`, which is no test"
            );
        }
    }
    assert!(named >= 30, "docs/rules.md names its tests ({named} found)");
}
