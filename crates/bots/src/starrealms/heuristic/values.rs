//! The heuristic bot's numbers, kept as data (`crates/bots/data/heuristic.toml`): one value per
//! card on a single scale (buying, keeping, discarding, destroying all compare these), phase
//! adjustments, and the few weights the policy trades off against each other.

use std::collections::BTreeMap;
use std::sync::{Mutex, OnceLock};

use serde::Deserialize;
use starrealms::CardId;

/// The embedded table's file, as named in errors.
pub(crate) const VALUES_FILE: &str = "crates/bots/data/heuristic.toml";
const VALUES_TEXT: &str = include_str!("../../../data/heuristic.toml");
/// The tuned table's file, as named in errors.
pub(crate) const TUNED_FILE: &str = "crates/bots/data/heuristic-tuned.toml";
const TUNED_TEXT: &str = include_str!("../../../data/heuristic-tuned.toml");

/// The game phase, which shifts card values and weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    Early,
    Mid,
    Late,
}

/// A number per phase.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Phased {
    /// Early game.
    pub(crate) early: f32,
    /// Mid game.
    pub(crate) mid: f32,
    /// Late game.
    pub(crate) late: f32,
}

impl Phased {
    pub(crate) fn at(&self, phase: Phase) -> f32 {
        match phase {
            Phase::Early => self.early,
            Phase::Mid => self.mid,
            Phase::Late => self.late,
        }
    }
}

/// The policy's weights (see the comments of the data file for what each one does).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Settings {
    /// The early game lasts up to this game turn (both players' turns counted).
    pub(crate) early_turns: u32,
    /// The late game starts when a player still in the game has at most this authority…
    pub(crate) late_authority: i32,
    /// …or at this game turn.
    pub(crate) late_turns: u32,
    /// Added to a card's buying value per card of its faction already owned.
    pub(crate) faction_bonus: f32,
    /// Cap of the faction bonus.
    pub(crate) faction_bonus_max: f32,
    /// A card is bought only for the part of its value above this (so junk is left in the row).
    pub(crate) min_buy: Phased,
    /// Worth of one combat point that does not kill.
    pub(crate) combat_weight: Phased,
    /// Worth of one authority point while the bot's authority is above `low_authority`.
    pub(crate) authority_weight: f32,
    /// Worth of one authority point at or below `low_authority`.
    pub(crate) authority_weight_low: f32,
    /// The authority below which the bot values healing highly.
    pub(crate) low_authority: i32,
    /// Worth of drawing one card.
    pub(crate) draw_value: f32,
    /// A non-outpost base is attacked (rather than the player) when its value is at least this
    /// many times the combat it costs.
    pub(crate) base_attack_ratio: Phased,
    /// A trade-row card worth at least this that the bot will not buy is scrapped when an effect
    /// offers it, so the opponent cannot have it.
    pub(crate) deny_value: f32,
    /// Scouts are scrapped only while the bot owns more cards than this (outside the late game).
    pub(crate) scrap_scout_min_deck: usize,
    /// Scrapping a card for trade must raise the value bought by its value plus this.
    pub(crate) scrap_trade_margin: f32,
    /// Explorers are scrapped for their combat from this game turn on.
    pub(crate) thin_explorers_turn: u32,
    /// *Rise of Empire*: an upgraded card is worth its printed card's value plus this.
    #[serde(default = "default_upgrade_bonus")]
    pub(crate) upgrade_bonus: f32,
    /// *Rise of Empire*: added for a sticker of a political sheet (one step to a victory).
    #[serde(default = "default_political_step")]
    pub(crate) political_step: f32,
}

fn default_upgrade_bonus() -> f32 {
    2.5
}

fn default_political_step() -> f32 {
    1.0
}

/// One card's values.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CardValue {
    /// Mid-game value.
    pub(crate) value: f32,
    /// Added in the early game.
    #[serde(default)]
    pub(crate) early: f32,
    /// Added in the late game.
    #[serde(default)]
    pub(crate) late: f32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    settings: Settings,
    cards: BTreeMap<String, CardValue>,
}

/// An unreadable value table.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ValuesError {
    /// The TOML does not parse into the table's shape.
    #[error("{file}: {reason}")]
    Parse {
        /// The file.
        file: String,
        /// Why.
        reason: String,
    },
    /// A card id the active card set does not have.
    #[error("{file}: no card `{id}` in the active card set")]
    UnknownCard {
        /// The file.
        file: String,
        /// The id.
        id: String,
    },
}

/// The heuristic bot's value table, resolved against the active card set.
#[derive(Clone, Debug, PartialEq)]
pub struct Values {
    /// The weights.
    pub(crate) settings: Settings,
    /// Per card id (dense); `None` for a card the table does not list.
    cards: Vec<Option<CardValue>>,
}

/// Tables read for each card set in use (by the set's address: sets live as long as the process).
type PerSet = Vec<(usize, &'static Values)>;

fn per_set(cache: &'static OnceLock<Mutex<PerSet>>, file: &str, text: &str) -> &'static Values {
    let set = starrealms::cards() as *const starrealms::CardSet as usize;
    let mut tables = cache
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some((_, v)) = tables.iter().find(|(s, _)| *s == set) {
        return v;
    }
    let values: &'static Values = Box::leak(Box::new(
        Values::read(file, text, false).unwrap_or_else(|e| panic!("the value table {file}: {e}")),
    ));
    tables.push((set, values));
    values
}

impl Values {
    /// Reads a table; `file` names it in errors. Every card id must exist in the active set
    /// ([`starrealms::cards()`]); cards the table leaves out are valued from their cost.
    pub fn parse(file: &str, text: &str) -> Result<Values, ValuesError> {
        Values::read(file, text, true)
    }

    fn read(file: &str, text: &str, strict: bool) -> Result<Values, ValuesError> {
        let parsed: File = toml::from_str(text).map_err(|e| ValuesError::Parse {
            file: file.to_string(),
            reason: e.to_string(),
        })?;
        let set = starrealms::cards();
        let mut cards = vec![None; set.len()];
        for (id, v) in parsed.cards {
            match set.iter().find(|(_, d)| d.id() == id) {
                Some((c, _)) => cards[c.0 as usize] = Some(v),
                None if strict => {
                    return Err(ValuesError::UnknownCard {
                        file: file.to_string(),
                        id,
                    });
                }
                None => {}
            }
        }
        Ok(Values {
            settings: parsed.settings,
            cards,
        })
    }

    /// The embedded table (`crates/bots/data/heuristic.toml`), read once per card set (card
    /// ids are the set's). With a designer's card set, cards the set lacks are skipped and the
    /// set's new cards are valued from their cost (a test checks that the table matches the base
    /// set exactly).
    pub fn embedded() -> &'static Values {
        static EMBEDDED: OnceLock<Mutex<PerSet>> = OnceLock::new();
        per_set(&EMBEDDED, VALUES_FILE, VALUES_TEXT)
    }

    /// The tuned table (`crates/bots/data/heuristic-tuned.toml`): the embedded one after
    /// self-play tuning (`cargo run --release -p bots --example tune`), the `tuned` bot's.
    /// Read once per card set, like [`Values::embedded`].
    pub fn tuned() -> &'static Values {
        static TUNED: OnceLock<Mutex<PerSet>> = OnceLock::new();
        per_set(&TUNED, TUNED_FILE, TUNED_TEXT)
    }

    /// A card's mid-game value, if the table lists the card.
    pub fn listed(&self, id: CardId) -> Option<f32> {
        self.card(id).map(|v| v.value)
    }

    fn card(&self, id: CardId) -> Option<&CardValue> {
        self.cards.get(id.0 as usize).and_then(Option::as_ref)
    }

    /// A card's value in a phase (a card the table leaves out is worth about its cost).
    pub(crate) fn value(&self, id: CardId, phase: Phase) -> f32 {
        match self.card(id) {
            Some(v) => {
                v.value
                    + match phase {
                        Phase::Early => v.early,
                        Phase::Mid => 0.0,
                        Phase::Late => v.late,
                    }
            }
            None => {
                let set = starrealms::cards();
                match set.def(id).upgrade {
                    Some(u) => self.value(u.of, phase) + self.settings.upgrade_bonus,
                    None => set.info(id).cost as f32,
                }
            }
        }
    }
}
