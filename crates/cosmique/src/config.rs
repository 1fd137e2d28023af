//! Game configuration: the variant and the turn limit.

use game::refusal::Why;
use serde::{Deserialize, Serialize};

/// The rules variant (see `docs/rules-cosmique.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    /// The base rules: 6 life; a hit costs 1 life if the meteor is of the target's colour (or a
    /// universal one), 2 more with a "+2".
    #[default]
    Standard,
    /// *Incolore*: every meteor is of a universal colour.
    Incolore,
    /// *30pv !*: 30 life; a hit deals the meteor's value; the "+2" cards double the damage.
    Pv30,
}

impl Variant {
    /// Every variant, in a fixed order.
    pub const ALL: [Variant; 3] = [Variant::Standard, Variant::Incolore, Variant::Pv30];

    /// The variant's name in configurations and on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::Incolore => "incolore",
            Variant::Pv30 => "pv30",
        }
    }

    /// Each planet's life at the start.
    pub const fn starting_life(self) -> u8 {
        match self {
            Variant::Pv30 => 30,
            _ => 6,
        }
    }
}

impl std::fmt::Display for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Variant {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "standard" => Ok(Variant::Standard),
            "incolore" | "colourless" | "colorless" => Ok(Variant::Incolore),
            "pv30" | "30pv" => Ok(Variant::Pv30),
            _ => Err(format!(
                "unknown variant `{s}` (known: standard, incolore, pv30)"
            )),
        }
    }
}

/// Everything that defines a game besides its seed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// The variant.
    pub variant: Variant,
    /// Player turns before the game ends in a draw among the planets still alive (a turn begins
    /// with the resolution of the attacks waiting for its player). Players who never attack
    /// could otherwise play forever. The default, 1,000, is above the longest of 5,000 random
    /// games of the slowest variant (30 life: 432 turns on median, 869 at most).
    pub turn_limit: u32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            variant: Variant::Standard,
            turn_limit: 1000,
        }
    }
}

impl Config {
    /// A default configuration of `variant`.
    pub fn of_variant(variant: Variant) -> Config {
        Config {
            variant,
            ..Config::default()
        }
    }

    /// Checks the configuration.
    pub fn validate(&self) -> Result<(), Why> {
        if self.turn_limit == 0 {
            return Err(Why::new("file.cosmique.turn_limit", &[]));
        }
        Ok(())
    }
}
