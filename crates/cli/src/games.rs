//! The games the command line knows, behind one adapter: what the generic commands (simulate)
//! need beyond the `game::State` trait.

use clap::ValueEnum;
use game::Seat;

/// Which game a command plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum GameKind {
    /// Star Realms.
    #[default]
    Starrealms,
    /// Bataille Cosmique.
    Cosmique,
}

/// A finished game's facts; its bots come from [`bots::NamedBots`].
pub trait Played: bots::NamedBots<Config: Sync> + 'static {
    /// The seat that played first.
    fn first_of(&self) -> Seat;
    /// Turns played.
    fn turns_of(&self) -> u32;
}

impl Played for starrealms::State {
    fn first_of(&self) -> Seat {
        self.first
    }
    fn turns_of(&self) -> u32 {
        self.turn
    }
}

impl Played for cosmique::State {
    fn first_of(&self) -> Seat {
        self.first
    }
    fn turns_of(&self) -> u32 {
        self.turn
    }
}
