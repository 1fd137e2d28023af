//! The positions the timing examples search: every decision with a choice of games of `medium`
//! against `medium`, as the seat to move saw them.

use bots::SeatView;
use game::Seat;
use starrealms::{Action, Config, State};

/// Every decision with a choice of `games` games of `medium` against `medium`, game `i` dealt
/// from `seed + i`: the state, the seat to move and its legal actions.
pub fn of_medium_games(games: u64, seed: u64) -> anyhow::Result<Vec<(State, Seat, Vec<Action>)>> {
    let mut positions = Vec::new();
    for game in 0..games {
        let mut s = State::new(&Config::default(), seed + game).map_err(anyhow::Error::msg)?;
        let mut players = [
            bots::starrealms::by_name("medium", 1).map_err(anyhow::Error::msg)?,
            bots::starrealms::by_name("medium", 2).map_err(anyhow::Error::msg)?,
        ];
        while let Some(seat) = s.to_move() {
            let legal = s.legal_actions();
            let action = players[seat.index()].choose(&SeatView::of_state(&s, seat), &legal);
            if legal.len() > 1 {
                positions.push((s.clone(), seat, legal));
            }
            s.apply(action)?;
        }
    }
    Ok(positions)
}
