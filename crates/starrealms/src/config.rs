//! Game configuration: seats, format, rule options.

use serde::{Deserialize, Serialize};

/// The table format. Only `standard` is complete here; the others are in the formats work.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// Two players, one against the other.
    #[default]
    Standard,
    /// Free-for-all (*Combat à mort*), 3–6 players: anyone attacks anyone; last one alive wins.
    FreeForAll,
}

/// When "target opponent discards a card" takes effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum DiscardTiming {
    /// At once, from the hand the opponent already holds (physical game, official FAQ).
    #[default]
    Immediate,
    /// At the start of the opponent's next turn (the official app).
    NextTurn,
}

/// Everything that defines a game besides its seed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// Number of seats (2 for `standard`, 3–6 for `free_for_all`).
    pub seats: u8,
    /// The format.
    pub format: Format,
    /// Timing of forced discards.
    pub discard_timing: DiscardTiming,
    /// Starting authority of each player.
    pub authority: i32,
    /// Explorers in the pile (`None`: 10, plus 5 for each seat beyond two).
    pub explorers: Option<u8>,
    /// The game ends in a draw when this turn would begin (a game where nobody can deal damage
    /// any more, all cards scrapped, would otherwise never end).
    pub turn_limit: u32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            seats: 2,
            format: Format::Standard,
            discard_timing: DiscardTiming::Immediate,
            authority: 50,
            explorers: None,
            turn_limit: 1000,
        }
    }
}

impl Config {
    /// Checks the configuration.
    pub fn validate(&self) -> Result<(), String> {
        match self.format {
            Format::Standard if self.seats != 2 => Err(format!(
                "the standard format has 2 seats, not {}",
                self.seats
            )),
            Format::FreeForAll if !(3..=6).contains(&self.seats) => Err(format!(
                "free-for-all takes 3 to 6 seats, not {}",
                self.seats
            )),
            _ if self.authority <= 0 => Err("starting authority must be positive".into()),
            _ if self.turn_limit < 2 => Err("the turn limit must be at least 2".into()),
            _ => Ok(()),
        }
    }

    /// Cards in hand at the start for the seat `order` places after the first player
    /// (0 = first player).
    pub fn starting_hand(&self, order: usize) -> usize {
        match (self.format, order) {
            (_, 0) => 3,
            (Format::FreeForAll, 1) => 4,
            _ => 5,
        }
    }

    /// Explorers in the pile at the start.
    pub fn explorer_count(&self, per_set: u8) -> u8 {
        self.explorers
            .unwrap_or(per_set.saturating_add(5 * self.seats.saturating_sub(2)))
    }
}
