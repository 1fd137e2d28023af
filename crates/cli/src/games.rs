//! The games the command line knows, behind one adapter: what the generic commands (simulate)
//! need beyond the `game::State` trait.

use bots::Bot;
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

/// A finished game's facts and the game's bots.
pub trait Played: game::State<Config: Sync> + 'static {
    /// The winning seats (none after a draw).
    fn winners_of(&self) -> Vec<Seat>;
    /// The seat that played first.
    fn first_of(&self) -> Seat;
    /// Turns played.
    fn turns_of(&self) -> u32;
    /// A bot of this game by name.
    fn bot(name: &str, seed: u64) -> Result<Box<dyn Bot<Self>>, String>;
}

impl Played for starrealms::State {
    fn winners_of(&self) -> Vec<Seat> {
        self.winners()
    }
    fn first_of(&self) -> Seat {
        self.first
    }
    fn turns_of(&self) -> u32 {
        self.turn
    }
    fn bot(name: &str, seed: u64) -> Result<Box<dyn Bot<Self>>, String> {
        bots::starrealms::by_name(name, seed)
    }
}

impl Played for cosmique::State {
    fn winners_of(&self) -> Vec<Seat> {
        self.winners()
    }
    fn first_of(&self) -> Seat {
        self.first
    }
    fn turns_of(&self) -> u32 {
        self.turn
    }
    fn bot(name: &str, seed: u64) -> Result<Box<dyn Bot<Self>>, String> {
        bots::cosmique::by_name(name, seed)
    }
}
