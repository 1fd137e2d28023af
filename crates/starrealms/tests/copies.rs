//! A state copied into the room of another (`clone_from`, what the server does for each
//! version it publishes) is the same game as the original, whatever the copy held before.

use game::State as _;
use starrealms::{Config, Format, State, rollout};

fn config(seats: u8, format: Format) -> Config {
    Config {
        seats,
        format,
        ..Config::default()
    }
}

#[test]
fn a_copy_into_another_games_room_is_the_same_game() {
    // Copies move between games of 2, 3 and 4 seats, so that the room they reuse has too
    // many seats, too few, and cards everywhere.
    let card = |name: &str| starrealms::cards().find(name).unwrap();
    // A campaign's kind of configuration too: its own decks and trade deck, a seat to open.
    let personal = Config {
        decks: vec![vec![card("viper"); 10], vec![card("scout"); 8]],
        trade_deck: Some(vec![card("cutter"); 30]),
        first: Some(game::Seat(1)),
        explorers: Some(4),
        ..config(2, Format::Standard)
    };
    let configs = [
        config(2, Format::Standard),
        config(4, Format::FreeForAll),
        personal,
        config(3, Format::Hunter),
        config(4, Format::Hydra),
    ];
    let mut copy = State::new(&configs[1], 99).unwrap();
    let mut rng = game::rng_from_seed(7);
    let mut buf = Vec::new();
    let mut steps = 0;
    for (i, config) in configs.iter().enumerate() {
        let mut state = State::new(config, i as u64).unwrap();
        while !state.is_terminal() {
            copy.clone_from(&state);
            assert_eq!(copy, state, "{i}: step {steps}");
            let action = rollout::random_action(&state, &mut buf, &mut rng);
            state.apply(action).unwrap();
            // The copy's shuffles go on as the original's.
            copy.apply(action).unwrap();
            assert_eq!(copy, state, "{i}: after step {steps}");
            steps += 1;
        }
        assert_eq!(copy.clone(), state);
    }
    assert!(steps > 1000, "{steps} steps");
}
