//! No bot peeks: changing what a seat cannot see (the opponent's hand, every deck order, the
//! trade deck order, the game's RNG) while its observation stays the same leaves every bot's
//! decision unchanged.

use bots::SeatView;
use game::{Seat, State as _};
use starrealms::{Config, State, rollout};

/// A copy of `s` whose parts `seat` cannot see differ: the other's hand and deck, `seat`'s own
/// deck below what it knows, the trade deck, the game's RNG.
fn hide(s: &State, seat: Seat) -> State {
    let other = Seat(1 - seat.0);
    let mut hidden = s.clone();
    let p = &mut hidden.players[other];
    if !p.hand.is_empty() && p.deck.len() > p.deck_known as usize {
        std::mem::swap(&mut p.hand[0], &mut p.deck[0]);
    }
    p.deck.reverse();
    let known = hidden.players[seat].deck_known as usize;
    let mine = &mut hidden.players[seat].deck;
    let unknown = mine.len() - known;
    mine[..unknown].reverse();
    hidden.trade_deck.reverse();
    hidden.rng = game::rng_from_seed(777);
    assert_eq!(
        hidden.observation(seat),
        s.observation(seat),
        "only hidden parts changed"
    );
    hidden
}

/// Positions from random games, each with a copy whose hidden parts differ.
fn positions() -> Vec<(State, State)> {
    let mut out = Vec::new();
    let mut rng = game::rng_from_seed(21);
    let mut buf = Vec::new();
    // A quarter of the games with the *Rise of Empire* pack and sticker sheets.
    let roe = Config {
        sets: starrealms::cards::Sets::parse("rise_of_empire").unwrap(),
        sheets: ["s1_empire", "s1_federation"]
            .iter()
            .map(|id| {
                vec![starrealms::config::SheetGrant {
                    sheet: id.to_string(),
                    used: Vec::new(),
                    political: true,
                }]
            })
            .collect(),
        ..Config::default()
    };
    // Some with the base set and Colony Wars mixed, some with the three boxes mixed (Frontiers'
    // double allies, "target player discards", a card back from the scrap heap).
    let colony_wars = Config {
        sets: starrealms::cards::Sets::parse("base,colony_wars").unwrap(),
        ..Config::default()
    };
    let three = Config {
        sets: starrealms::cards::Sets::parse("base,colony_wars,frontiers").unwrap(),
        ..Config::default()
    };
    for seed in 0..32 {
        let config = match seed % 4 {
            0 => Config::default(),
            1 => roe.clone(),
            2 => colony_wars.clone(),
            _ => three.clone(),
        };
        let mut s = State::new_game(&config, seed).unwrap();
        for _ in 0..(30 + 5 * seed) {
            if s.over {
                break;
            }
            let a = rollout::random_action(&s, &mut buf, &mut rng);
            s.apply_unchecked(a);
        }
        let Some(seat) = s.to_move() else { continue };
        if s.legal_actions().len() < 2 {
            continue;
        }
        let hidden = hide(&s, seat);
        out.push((s, hidden));
    }
    assert!(out.len() >= 8, "enough positions");
    out
}

#[test]
fn every_bot_decides_the_same_when_only_hidden_information_changes() {
    let positions = positions();
    let mut differs = 0;
    for name in [
        "random",
        "easy",
        "medium",
        "heuristic",
        "velocity",
        "attack",
        "ismcts:60",
        "ismcts-greedy:200",
        // `hard`'s search (rollouts cut and scored by the value network) and the tuned ones.
        "ismcts-value:60",
        "ismcts-blend:60",
        "ismcts-tuned:60",
        "ismcts-value-tuned:60",
        "ismcts-value-learned:60",
        "ismcts-value-own:60",
        "ismcts-paired:60",
        "ismcts-mixed:60",
        "ismcts-model-velocity:60",
        "ismcts-read:60",
        "ismcts-work:12000",
        "ismcts-explore140:60",
        "ismcts-value-explore35:60",
        "ismcts-value-turns6:60",
        "ismcts-bias30:60",
        "ismcts-own-bias30:60",
        "ismcts-read-bias30:60",
        "ismcts-sure-bias30:60",
        "ismcts-spot-bias30:60",
        "ismcts-lean-bias30:60",
        "ismcts-mirror-bias30:60",
        "ismcts-keep-bias30:60",
        "ismcts-margin10:60",
        "ismcts-value-bias30:60",
        "hard",
        // The heuristic buying by the learned network, and the search played and advised by it.
        "learned",
        "ismcts-learned:60",
        "ismcts-self-learned:60",
    ] {
        for (i, (real, hidden)) in positions.iter().enumerate() {
            let seat = real.to_move().unwrap();
            let legal = real.legal_actions();
            let ask = |state: &State| {
                let mut bot = bots::starrealms::by_name(name, 5).unwrap();
                bot.choose(&SeatView::of_state(state, seat), &legal)
            };
            assert_eq!(ask(real), ask(hidden), "{name} at position {i}");
            // A seat whose own hand changes may decide otherwise: the check has teeth.
            if name == "medium" && real.players[seat].hand.len() > 1 {
                let mut own = real.clone();
                let p = &mut own.players[seat];
                if let Some(c) = p.deck.first().copied()
                    && !p.hand.contains(&c)
                {
                    p.hand[0] = c;
                    differs += usize::from(own.observation(seat) != real.observation(seat));
                }
            }
        }
    }
    assert!(differs > 0, "changing the seat's own hand changes its view");
}

/// A search that keeps its tree from one decision to the next decides, over whole games, as
/// one shown only states whose hidden parts differ: what it keeps it grew from its own view.
#[test]
fn a_search_keeping_its_tree_decides_from_its_view_over_whole_games() {
    for game in 0..2 {
        let mut s = State::new_game(&Config::default(), 60 + game).unwrap();
        let name = "ismcts-keep-bias30:80";
        let mut real = bots::starrealms::by_name(name, 9).unwrap();
        let mut blind = bots::starrealms::by_name(name, 9).unwrap();
        let mut other = bots::starrealms::by_name("medium", 3).unwrap();
        let me = Seat(0);
        while let Some(seat) = s.to_move() {
            let legal = s.legal_actions();
            let action = if seat == me {
                let a = real.choose(&SeatView::of_state(&s, me), &legal);
                let b = blind.choose(&SeatView::of_state(&hide(&s, me), me), &legal);
                assert_eq!(a, b, "game {game}, turn {}", s.turn);
                a
            } else {
                let a = other.choose(&SeatView::of_state(&s, seat), &legal);
                if s.is_public(&a) {
                    real.watch(&SeatView::of_state(&s, me), seat, a);
                    blind.watch(&SeatView::of_state(&hide(&s, me), me), seat, a);
                }
                a
            };
            s.apply(action).unwrap();
        }
    }
}

#[test]
fn reading_the_others_policies_uses_only_what_the_seat_sees() {
    use bots::starrealms::reading::Reader;
    let mut learned = 0;
    for g in 0..6 {
        let mut s = State::new_game(&Config::default(), 40 + g).unwrap();
        let mut players = [
            bots::starrealms::by_name("medium", 1).unwrap(),
            bots::starrealms::by_name("velocity", 2).unwrap(),
        ];
        let (mut real, mut hidden) = (Reader::new(3), Reader::new(3));
        while let Some(by) = s.to_move() {
            let legal = s.legal_actions();
            let action = players[by.index()].choose(&SeatView::of_state(&s, by), &legal);
            if by == Seat(1) {
                // Seat 0 reads seat 1 from a state whose hidden parts differ: seat 1's hand and
                // deck, the trade deck, the RNG.
                let mut other = s.clone();
                let p = &mut other.players[by];
                let unknown = p.deck.len() - p.deck_known as usize;
                if !p.hand.is_empty() && p.hand_known.is_empty() && unknown > 0 {
                    std::mem::swap(&mut p.hand[0], &mut p.deck[0]);
                }
                p.deck[..unknown].reverse();
                other.trade_deck.reverse();
                other.rng = game::rng_from_seed(777);
                assert_eq!(other.observation(Seat(0)), s.observation(Seat(0)));
                real.watch(&SeatView::of_state(&s, Seat(0)), by, action);
                hidden.watch(&SeatView::of_state(&other, Seat(0)), by, action);
                assert_eq!(real.chances(by), hidden.chances(by), "game {g}");
            }
            s.apply(action).unwrap();
        }
        learned += usize::from(real.chances(Seat(1))[2] > 0.9);
    }
    assert!(learned >= 5, "velocity read in {learned} games of 6");
}

/// A variant's name is not only read but applied: the variant decides otherwise than the search
/// it varies somewhere among the positions (the same seed, and the search decides the same when
/// asked again, so only the setting can differ).
#[test]
fn a_search_variant_named_is_the_variant_played() {
    let positions = positions();
    for (base, variants) in [
        (
            "ismcts:60",
            &["ismcts-explore35:60", "ismcts-bias30:60"][..],
        ),
        (
            "ismcts-value:60",
            &[
                "ismcts-value-explore140:60",
                "ismcts-value-turns6:60",
                "ismcts-value-learned:60",
                "ismcts-value-bias30:60",
            ][..],
        ),
        (
            "ismcts-spot-bias30:300",
            &["ismcts-margin1:300", "ismcts-margin300:300"][..],
        ),
    ] {
        let mut differ = vec![0; variants.len()];
        for (real, _) in &positions {
            let seat = real.to_move().unwrap();
            let legal = real.legal_actions();
            let ask = |name: &str| {
                let mut bot = bots::starrealms::by_name(name, 5).unwrap();
                bot.choose(&SeatView::of_state(real, seat), &legal)
            };
            let chosen = ask(base);
            assert_eq!(chosen, ask(base), "{base} decides the same twice");
            for (variant, differ) in variants.iter().zip(&mut differ) {
                *differ += usize::from(ask(variant) != chosen);
            }
        }
        for (variant, differ) in variants.iter().zip(&differ) {
            assert!(*differ > 0, "{variant} decided as {base} everywhere");
        }
    }
}

#[test]
fn every_level_and_search_budget_is_a_bot_name() {
    for name in bots::starrealms::NAMES {
        assert!(bots::starrealms::by_name(name, 1).is_ok(), "{name}");
    }
    for name in [
        "ismcts:10",
        "ismcts-greedy:5",
        "ismcts-value:5",
        "ismcts-blend:5",
        "ismcts-tuned:5",
        "ismcts-value-tuned:5",
        "ismcts-value-learned:5",
        "ismcts-value-own:5",
        "ismcts-learned:5",
        "ismcts-paired:5",
        "ismcts-mixed:5",
        "ismcts-model-velocity:5",
        "ismcts-read:5",
        "ismcts-work:500",
        "ismcts-explore35:5",
        "ismcts-value-explore35:5",
        "ismcts-value-turns6:5",
        "ismcts-bias30:5",
        "ismcts-own-bias30:5",
        "ismcts-read-bias30:5",
        "ismcts-sure-bias30:5",
        "ismcts-spot-bias30:5",
        "ismcts-lean-bias30:5",
        "ismcts-mirror-bias30:5",
        "ismcts-keep-bias30:5",
        "ismcts-margin10:5",
        "ismcts-value-bias100:5",
    ] {
        let bot = bots::starrealms::by_name(name, 1).unwrap();
        assert_eq!(bot.name(), name);
    }
    for bad in [
        "ismcts",
        "ismcts:0",
        "ismcts:many",
        "mcts:10",
        "ismcts-explore:10",
        "ismcts-explore0:10",
        "ismcts-explore-5:10",
        "ismcts-value-explore:10",
        "ismcts-value-turns0:10",
        "ismcts-bias0:10",
        "ismcts-own-bias0:10",
        "ismcts-own-bias:10",
        "ismcts-read-bias0:10",
        "ismcts-read-bias:10",
        "ismcts-sure-bias0:10",
        "ismcts-spot-bias0:10",
        "ismcts-lean-bias0:10",
        "ismcts-mirror-bias0:10",
        "ismcts-keep-bias0:10",
        "ismcts-keep-bias:10",
        "ismcts-margin0:10",
        "ismcts-margin:10",
        "ismcts-value-bias:10",
        "grandmaster",
    ] {
        let err = bots::starrealms::by_name(bad, 1).err().expect("refused");
        assert_eq!(err.name, bad);
        let text = err.to_string();
        assert!(
            text.starts_with(&format!("unknown bot `{bad}` (known: random, heuristic,"))
                && text.contains("expert, ismcts:<iterations>, ismcts-work:<work>,")
                && text.ends_with("ismcts-value-bias<w×10>:<iterations>)"),
            "{text}"
        );
    }
}

#[test]
fn every_name_and_pattern_an_unknown_bot_names_is_a_bot() {
    let check = |names: &[&str], patterns: &[&str], is_bot: &dyn Fn(&str) -> bool| {
        for name in names {
            assert!(is_bot(name), "{name}");
        }
        for pattern in patterns {
            let name = with_numbers(pattern);
            assert!(is_bot(&name), "{pattern} as {name}");
        }
    };
    check(
        bots::starrealms::NAMES,
        bots::starrealms::PATTERNS,
        &|name| bots::starrealms::by_name(name, 1).is_ok(),
    );
    check(bots::cosmique::NAMES, bots::cosmique::PATTERNS, &|name| {
        bots::cosmique::by_name(name, 1).is_ok()
    });
}

/// `pattern` with a number in place of each `<…>`.
fn with_numbers(pattern: &str) -> String {
    let mut out = String::new();
    let mut rest = pattern;
    while let Some((before, after)) = rest.split_once('<') {
        out.push_str(before);
        out.push_str("10");
        rest = after.split_once('>').expect("a closed placeholder").1;
    }
    out.push_str(rest);
    out
}

#[test]
fn an_unknown_bot_is_refused_in_each_language() {
    use i18n::Lang;
    let err = bots::starrealms::by_name("wizard", 1)
        .err()
        .expect("refused");
    assert_eq!(
        err.text(Lang::En),
        "unknown bot `wizard` (known: random, heuristic, easy, medium, tuned, learned, velocity, \
         attack, hard, expert, ismcts:<iterations> and the search variants of docs/ai.md)"
    );
    assert_eq!(
        err.text(Lang::Fr),
        "bot inconnu `wizard` (connus : random, heuristic, easy, medium, tuned, learned, velocity, \
         attack, hard, expert, ismcts:<itérations> et les variantes de recherche de docs/ai.md)"
    );
    let err = bots::cosmique::by_name("wizard", 1).err().expect("refused");
    assert_eq!(
        err.text(Lang::Es),
        "bot desconocido `wizard` (conocidos: random, heuristic, easy, medium, hard, expert, \
         ismcts:<iteraciones>)"
    );
    assert_eq!(
        err.text(Lang::Pt),
        "bot desconhecido `wizard` (conhecidos: random, heuristic, easy, medium, hard, expert, \
         ismcts:<iterações>)"
    );
}

#[test]
fn a_search_bot_finishes_a_game_and_its_choices_are_reproducible() {
    use bots::{Bot, play_game};
    let run = || {
        let mut players: Vec<Box<dyn Bot<State>>> = vec![
            bots::starrealms::by_name("ismcts-greedy:30", 3).unwrap(),
            bots::starrealms::by_name("medium", 4).unwrap(),
        ];
        let mut log = Vec::new();
        let end = play_game(
            State::new_game(&Config::default(), 9).unwrap(),
            &mut players,
            |seat, a, _| log.push((seat, a)),
        );
        assert!(end.over);
        log
    };
    assert_eq!(run(), run());
}
