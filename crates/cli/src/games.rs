//! The games the command line knows.

use clap::ValueEnum;

/// Which game a command plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum GameKind {
    #[default]
    Starrealms,
    Cosmique,
}
