//! Card data: the closed effect vocabulary, the card file format and its loader.
//!
//! Cards are data. A card file (TOML) lists `[[card]]` tables; each is deserialized into
//! [`CardSpec`], whose abilities are lists of [`Effect`]s. An unknown word, a missing field or an
//! inconsistent card fails at load with the file name, the line and the reason.

use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

use game::refusal::Why;
use serde::{Deserialize, Serialize};

/// The embedded base set.
pub const BASE_SET_FILE: &str = "cards/base.toml";
const BASE_SET_TEXT: &str = include_str!("../cards/base.toml");
/// The embedded *Colony Wars* set, which takes its starting cards and Explorers from the base
/// set (the box's are the same cards).
pub const CW_SET_FILE: &str = "cards/colony_wars.toml";
const CW_SET_TEXT: &str = include_str!("../cards/colony_wars.toml");
/// The embedded *Frontiers* set, which takes its starting cards and Explorers from the base set
/// (the box's are the same cards).
pub const FRONTIERS_SET_FILE: &str = "cards/frontiers.toml";
const FRONTIERS_SET_TEXT: &str = include_str!("../cards/frontiers.toml");
/// The embedded *Rise of Empire* stand-in pack (ours), which extends the base set.
pub const ROE_SET_FILE: &str = "cards/rise_of_empire.toml";
const ROE_SET_TEXT: &str = include_str!("../cards/rise_of_empire.toml");

/// A card kind, as an index into the active [`CardSet`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CardId(pub u16);

/// A faction: the base set's four, then the three of *Rise of Empire*. Starting cards and
/// Explorers have none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Faction {
    /// Blob (Blob).
    Blob,
    /// Trade Federation (Fédération du Commerce).
    TradeFederation,
    /// Star Empire (Empire Galactique).
    StarEmpire,
    /// Machine Cult (Techno-Culte).
    MachineCult,
    /// Consortium (Consortium), *Rise of Empire*.
    Consortium,
    /// Kingdom (Royaume), *Rise of Empire*.
    Kingdom,
    /// Scavengers (Charognards), *Rise of Empire*.
    Scavengers,
}

impl Faction {
    /// Number of factions.
    pub const COUNT: usize = 7;

    /// All factions, in a fixed order.
    pub const ALL: [Faction; Faction::COUNT] = [
        Faction::Blob,
        Faction::TradeFederation,
        Faction::StarEmpire,
        Faction::MachineCult,
        Faction::Consortium,
        Faction::Kingdom,
        Faction::Scavengers,
    ];

    /// The faction's name in card files (`trade_federation`).
    pub fn name(self) -> &'static str {
        match self {
            Faction::Blob => "blob",
            Faction::TradeFederation => "trade_federation",
            Faction::StarEmpire => "star_empire",
            Faction::MachineCult => "machine_cult",
            Faction::Consortium => "consortium",
            Faction::Kingdom => "kingdom",
            Faction::Scavengers => "scavengers",
        }
    }

    /// This faction's bit in a [`Factions`] mask.
    pub const fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// A set of factions as a bit mask (bit `Faction::bit`).
pub type Factions = u8;

/// Every faction at once (Mech World's static ability).
pub const ALL_FACTIONS: Factions = (1 << Faction::COUNT) - 1;

/// What a card is once in play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Played, then discarded at the end of the turn.
    Ship,
    /// Stays in play until destroyed or scrapped.
    Base,
    /// A base that shields its owner and the owner's other bases.
    Outpost,
}

impl Kind {
    /// Whether the card stays in play (base or outpost).
    pub const fn is_base(self) -> bool {
        !matches!(self, Kind::Ship)
    }
}

/// Where a card starts the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Shuffled into the trade deck (`count` copies).
    #[default]
    Trade,
    /// In every personal deck (`count` copies per player).
    Starting,
    /// The Explorer pile (`count` copies in a 2-player game; more with more seats, see
    /// `docs/rules.md`).
    Explorer,
    /// A personal-deck card of a *Rise of Empire* campaign side: in no deck unless a game's
    /// configuration or scenario puts it there.
    Personal,
}

/// Which of a player's zones a scrap effect may take cards from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScrapFrom {
    /// Hand only.
    Hand,
    /// Discard pile only.
    Discard,
    /// Hand and/or discard pile.
    HandOrDiscard,
}

/// Where a card acquired by an effect, or redirected, goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Dest {
    /// The discard pile (where an acquired card goes by default).
    Discard,
    /// The hand (playable this turn).
    Hand,
    /// The top of the deck, face up.
    Top,
}

/// A condition on the table, checked when the effect resolves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Condition {
    /// The player has at least this many bases in play (a base counts itself).
    Bases(u8),
    /// An opponent (a living player of another team) has a base in play.
    OpponentBase,
}

/// One effect in the closed vocabulary. Abilities are lists of effects resolved in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Effect {
    /// Add to the trade pool.
    Trade(u8),
    /// Add to the combat pool.
    Combat(u8),
    /// Gain authority at once.
    Authority(u8),
    /// Draw cards.
    Draw(u8),
    /// Target opponent discards a card of their choice.
    OpponentDiscards,
    /// Scrap up to `count` cards from the given zones; `optional`: the player may stop early
    /// (down to none); `draw_per_card`: then draw one card per card scrapped.
    Scrap {
        /// Zones the cards come from.
        from: ScrapFrom,
        /// Most cards scrapped.
        count: u8,
        /// Whether the player may scrap fewer (even none).
        #[serde(default)]
        optional: bool,
        /// Draw one card for each card scrapped this way.
        #[serde(default)]
        draw_per_card: bool,
        /// Combat gained for each card scrapped this way ("if you do, add 4 Combat").
        #[serde(default, skip_serializing_if = "is_zero")]
        combat_per_card: u8,
        /// Gain combat equal to each scrapped card's cost.
        #[serde(default, skip_serializing_if = "is_false")]
        combat_for_cost: bool,
    },
    /// Scrap a card in the trade row (which refills).
    ScrapTradeRow {
        /// Whether the player may decline (and, scrapping several, stop early).
        #[serde(default)]
        optional: bool,
        /// Most cards scrapped (1 unless written).
        #[serde(default = "one")]
        count: u8,
        /// Gain combat equal to each scrapped card's cost.
        #[serde(default, skip_serializing_if = "is_false")]
        combat_for_cost: bool,
    },
    /// Destroy target base (an outpost first, as for attacks).
    DestroyBase {
        /// Whether the player may decline.
        #[serde(default)]
        optional: bool,
    },
    /// Pick exactly one of the options; each option is a list of effects.
    Choose(Vec<Vec<Effect>>),
    /// The next ship acquired this turn may be put on top of the deck.
    NextShipOnTop,
    /// Acquire any ship (trade row or Explorer) for free and put it on top of the deck.
    AcquireShipFreeOnTop,
    /// Copy another ship played this turn (its primary fires; its ally and scrap abilities become
    /// this card's; this card gains its faction).
    CopyShip,
    /// Draw one card per card of this faction played this turn.
    DrawPerPlayed(Faction),
    /// Draw `draw` cards if the player has at least `bases` bases in play.
    DrawIfBases {
        /// Bases needed (this card excluded: it is a ship).
        bases: u8,
        /// Cards drawn.
        draw: u8,
    },
    /// Discard up to `count` cards, then draw as many.
    DiscardThenDraw(u8),
    /// Discard this many cards of your choice from your hand (as many as it holds).
    Discard(u8),
    /// Acquire a card (a trade-row ship or base, or an Explorer) of cost at most `cost` for
    /// free, and put it in `to`.
    AcquireFree {
        /// Highest cost.
        cost: u8,
        /// Where the card goes (`discard`: as bought, so a redirect applies).
        to: Dest,
    },
    /// The next ship or base acquired this turn goes to this place instead of the discard pile
    /// (not optional).
    NextAcquire(Dest),
    /// This base becomes a copy of another base in play (either side) until the end of its
    /// owner's turn: it has that base's abilities, unused, and its faction besides its own.
    CopyBase,
    /// Effects that resolve only if the condition holds (gains and draws only).
    If {
        /// The condition.
        when: Condition,
        /// The effects.
        then: Vec<Effect>,
    },
    /// On acquire: if the player has played a card of this faction this turn, they may put
    /// this card into their hand.
    ToHandIfPlayed(Faction),
    /// Add this much combat per card scrapped from the player's hand or discard pile this turn.
    CombatPerScrapped(u8),
    /// Discard up to `count` cards (any number when not written); for each, gain one of the
    /// `reward` options (gains and draws only).
    DiscardFor {
        /// Most cards discarded ([`ANY_NUMBER`]: as many as the hand holds).
        #[serde(default = "any_number")]
        count: u8,
        /// The reward options for each card (one to four).
        reward: Vec<Vec<Effect>>,
    },
    /// Put a base of the player's discard pile on top of their deck (face up).
    BaseFromDiscardOnTop,
    /// The next base acquired this turn goes on top of the deck (not optional).
    NextBaseOnTop,
    /// In a scrap ability: at the end of the turn, the card scrapped this way moves from the
    /// scrap heap to its owner's discard pile.
    ReturnFromScrapHeap,
    /// Add this much combat per card of the player's own scrapped this turn, from any zone
    /// (hand, discard pile, in play; the card whose ability this is included).
    CombatPerOwnScrapped(u8),
    /// Target player (any player, oneself included) discards a card.
    PlayerDiscards,
}

fn one() -> u8 {
    1
}

/// [`Effect::DiscardFor`]'s count when the card says "any number".
pub const ANY_NUMBER: u8 = u8::MAX;

fn any_number() -> u8 {
    ANY_NUMBER
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Effect {
    /// Whether the effect resolves at once, without a decision (a gain or a draw).
    pub fn is_immediate(&self) -> bool {
        matches!(
            self,
            Effect::Trade(_) | Effect::Combat(_) | Effect::Authority(_) | Effect::Draw(_)
        )
    }
}

/// A static ability, active while the card is in play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Static {
    /// Counts as an ally for every faction.
    AllyForAllFactions,
    /// Whenever the owner plays a ship, gain this much combat.
    CombatPerShipPlayed(u8),
    /// Whenever the owner plays a ship of this faction, gain this much combat.
    CombatPerFactionShip {
        /// The ships' faction.
        faction: Faction,
        /// Combat per ship.
        combat: u8,
    },
}

/// A name or a text in each language: English and French always, Portuguese and Spanish when
/// the file gives them (English stands in for them otherwise).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Texts {
    /// English.
    pub en: String,
    /// French.
    pub fr: String,
    /// Portuguese, if it differs from the English.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pt: Option<String>,
    /// Spanish, if it differs from the English.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub es: Option<String>,
}

impl Texts {
    /// The text in a language (`"fr"`, `"pt"`, `"es"`; English for anything else, and for
    /// Portuguese or Spanish when the file leaves them out).
    pub fn get(&self, lang: &str) -> &str {
        match lang {
            "fr" => &self.fr,
            "pt" => self.pt.as_deref().unwrap_or(&self.en),
            "es" => self.es.as_deref().unwrap_or(&self.en),
            _ => &self.en,
        }
    }

    /// Every text it holds, English first.
    pub fn all(&self) -> impl Iterator<Item = &str> {
        [
            Some(&self.en),
            Some(&self.fr),
            self.pt.as_ref(),
            self.es.as_ref(),
        ]
        .into_iter()
        .flatten()
        .map(String::as_str)
    }
}

/// One card as written in a card file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardSpec {
    /// Stable identifier (snake_case), used in action texts, records and scenarios.
    pub id: String,
    /// Printed names.
    pub name: Texts,
    /// Faction, if any.
    #[serde(default)]
    pub faction: Option<Faction>,
    /// Trade cost (0 for starting cards).
    #[serde(default)]
    pub cost: u8,
    /// Ship, base or outpost.
    pub kind: Kind,
    /// Defense, for bases and outposts.
    #[serde(default)]
    pub defense: Option<u8>,
    /// Copies (in the trade deck; per player for starting cards; in the Explorer pile).
    pub count: u8,
    /// Where the copies go at setup.
    #[serde(default)]
    pub role: Role,
    /// The printed English text of the card, kept beside its effects.
    pub text: String,
    /// Primary ability (fires when a ship is played; used once per turn for a base).
    #[serde(default)]
    pub primary: Vec<Effect>,
    /// Ally ability for the card's own faction.
    #[serde(default)]
    pub ally: Vec<Effect>,
    /// Double-ally ability: usable once two *other* cards of the card's faction are in play.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub double_ally: Vec<Effect>,
    /// Scrap ability: scrap this card for these effects.
    #[serde(default)]
    pub scrap: Vec<Effect>,
    /// Static abilities.
    #[serde(default, rename = "static")]
    pub statics: Vec<Static>,
    /// On-acquire ability (*Rise of Empire*): resolves once the card is acquired, placed and the
    /// row refilled.
    #[serde(default)]
    pub on_acquire: Vec<Effect>,
    /// The card set the card belongs to (default: the file's `set`, else `base`).
    #[serde(default)]
    pub set: Option<String>,
}

/// Which column of a sticker sheet: the ship sticker or the base sticker of a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Column {
    /// The left column: ships.
    Ship,
    /// The right column: bases and outposts.
    Base,
}

impl Column {
    /// The column a card of this kind is upgraded from.
    pub const fn of(kind: Kind) -> Column {
        match kind {
            Kind::Ship => Column::Ship,
            _ => Column::Base,
        }
    }

    /// The extra trade an upgrade of this column costs (2 for a ship, 3 for a base).
    pub const fn price(self) -> u8 {
        match self {
            Column::Ship => 2,
            Column::Base => 3,
        }
    }
}

/// An action sticker: what it adds to the card it is put on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sticker {
    /// The printed text of the sticker (English).
    pub text: String,
    /// Effects added after the primary ability's ("and …").
    #[serde(default)]
    pub primary: Vec<Effect>,
    /// Effects added to the ally ability (which names the card's printed faction).
    #[serde(default)]
    pub ally: Vec<Effect>,
    /// Effects added to the scrap ability (or a scrap ability, if the card had none).
    #[serde(default)]
    pub scrap: Vec<Effect>,
}

/// One row of a sticker sheet: a printed cost, a ship sticker and a base sticker.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SheetRow {
    /// The printed cost of the cards this row upgrades.
    pub cost: u8,
    /// The ship sticker, if the row has one.
    #[serde(default)]
    pub ship: Option<Sticker>,
    /// The base sticker, if the row has one.
    #[serde(default)]
    pub base: Option<Sticker>,
}

impl SheetRow {
    /// The sticker of a column.
    pub fn sticker(&self, column: Column) -> Option<&Sticker> {
        match column {
            Column::Ship => self.ship.as_ref(),
            Column::Base => self.base.as_ref(),
        }
    }
}

/// Rows in a sticker sheet.
pub const SHEET_ROWS: usize = 5;

/// A sheet of upgrade stickers (*Rise of Empire*), as written in a card file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sheet {
    /// Stable identifier (snake_case), used in configurations, records and action texts.
    pub id: String,
    /// Names.
    pub name: Texts,
    /// The side whose faction sticker comes with each upgrade: an upgraded card belongs to its
    /// own faction and to this one.
    pub side: Faction,
    /// The campaign scenario whose envelope brings the sheet, if any.
    #[serde(default)]
    pub scenario: Option<u8>,
    /// The card sets whose trade cards it upgrades (default: the file's set).
    #[serde(default)]
    pub upgrades: Vec<String>,
    /// The five rows, top to bottom.
    pub row: Vec<SheetRow>,
}

/// What an upgraded card was made from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Upgrade {
    /// The printed card.
    pub of: CardId,
    /// The sheet (index in [`CardSet::sheets`]).
    pub sheet: u16,
    /// The row (0 to 4).
    pub row: u8,
}

/// A validated card, ready for the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardDef {
    /// The card as written.
    pub spec: CardSpec,
    /// Faction mask (empty for unaligned cards).
    pub factions: Factions,
    /// Whether this card counts as an ally for every faction.
    pub ally_for_all: bool,
    /// Combat gained whenever its owner plays a ship while it is in play.
    pub combat_per_ship: u8,
    /// The factions of the ships that earn `combat_per_ship` (0: every ship).
    pub ship_factions: Factions,
    /// The card set it belongs to (index in [`CardSet::set_names`]).
    pub set: u8,
    /// For an upgraded card: the printed card, the sheet and the row of its sticker.
    pub upgrade: Option<Upgrade>,
    /// The side faction an upgrade added (the faction sticker).
    pub side: Option<Faction>,
}

impl CardDef {
    /// Identifier.
    pub fn id(&self) -> &str {
        &self.spec.id
    }
    /// Kind.
    pub fn kind(&self) -> Kind {
        self.spec.kind
    }
    /// Cost.
    pub fn cost(&self) -> u8 {
        self.spec.cost
    }
    /// Defense (0 for ships).
    pub fn defense(&self) -> u8 {
        self.spec.defense.unwrap_or(0)
    }
    /// The factions it belongs to: its printed faction, and the side an upgrade added.
    pub fn member_factions(&self) -> Vec<Faction> {
        self.spec.faction.into_iter().chain(self.side).collect()
    }
    /// Name in a language (`"fr"`, `"pt"`, `"es"`, or anything else for English); a card
    /// without a Portuguese or Spanish name keeps its English one there.
    pub fn name(&self, lang: &str) -> &str {
        self.spec.name.get(lang)
    }
}

/// An error in a card file: which file, which line, why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: {why}")]
pub struct CardError {
    /// The file.
    pub file: String,
    /// 1-based line (0 when unknown).
    pub line: usize,
    /// What is wrong: realms' own checks as keys of the table, or the reader's words
    /// ([`Why::text`]).
    pub why: Why,
}

impl CardError {
    /// What is wrong, in English.
    pub fn reason(&self) -> String {
        self.why.english()
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CardFile {
    /// `"base"`: the embedded base set's cards come first.
    #[serde(default)]
    extends: Option<String>,
    /// The set this file's cards belong to unless a card says otherwise.
    #[serde(default)]
    set: Option<String>,
    /// Explorers in a two-player pile in games of this set.
    #[serde(default)]
    explorers: Option<u8>,
    #[serde(default)]
    card: Vec<toml::Spanned<CardSpec>>,
    #[serde(default)]
    sheet: Vec<toml::Spanned<Sheet>>,
}

/// A card set's name and the Explorer pile its games start with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetInfo {
    /// Name (`base`, `rise_of_empire`).
    pub name: String,
    /// Explorers in a two-player pile.
    pub explorers: u8,
}

/// Card sets chosen for a game, as a bit mask over [`CardSet::set_names`] (bit 0: `base`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sets(pub u8);

impl Default for Sets {
    fn default() -> Self {
        Sets(1)
    }
}

impl Sets {
    /// Whether this is the default (the base set alone).
    pub fn is_default(&self) -> bool {
        self.0 == 1
    }

    /// Whether the set of index `i` is chosen.
    pub fn has(&self, i: u8) -> bool {
        self.0 & (1 << i) != 0
    }

    /// Parses a comma-separated list of set names (`base,rise_of_empire`).
    pub fn parse(text: &str) -> Result<Sets, Why> {
        let names: Vec<&str> = text.split(',').map(str::trim).collect();
        Sets::from_names(&names)
    }

    /// The sets of these names.
    pub fn from_names<S: AsRef<str>>(names: &[S]) -> Result<Sets, Why> {
        let set = crate::cards();
        let mut mask = 0u8;
        for n in names {
            let key = n.as_ref().trim().to_ascii_lowercase().replace('-', "_");
            match set.sets.iter().position(|s| s.name == key) {
                Some(i) => mask |= 1 << i,
                None => {
                    let known: Vec<&str> = set.sets.iter().map(|s| s.name.as_str()).collect();
                    return Err(Why::new(
                        "file.card.unknown_set",
                        &[("name", &n.as_ref()), ("known", &known.join(", "))],
                    ));
                }
            }
        }
        if mask == 0 {
            return Err(Why::new("file.card.no_set", &[]));
        }
        Ok(Sets(mask))
    }

    /// The names of the chosen sets.
    pub fn names(&self) -> Vec<String> {
        crate::cards()
            .sets
            .iter()
            .enumerate()
            .filter(|(i, _)| self.has(*i as u8))
            .map(|(_, s)| s.name.clone())
            .collect()
    }
}

impl Serialize for Sets {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.names().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Sets {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let names = Vec::<String>::deserialize(d)?;
        Sets::from_names(&names).map_err(serde::de::Error::custom)
    }
}

/// The facts the engine reads in its hot loops, packed small (one per card kind).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CardInfo {
    /// Faction, if any.
    pub faction: Option<Faction>,
    /// Ship, base or outpost.
    pub kind: Kind,
    /// Trade cost.
    pub cost: u8,
    /// Defense (0 for ships).
    pub defense: u8,
    /// Faction mask in play (every faction for Mech World; both for an upgraded card).
    pub factions: Factions,
    /// The factions it belongs to (printed, and an upgrade's side), counted when played.
    pub member: Factions,
    /// The faction its ally ability names (the printed one).
    pub ally_need: Factions,
    /// Has an on-acquire ability.
    pub has_on_acquire: bool,
    /// May be upgraded: a printed trade card (not already upgraded).
    pub upgradable: bool,
    /// Has a primary ability with effects.
    pub has_primary: bool,
    /// Has an ally ability.
    pub has_ally: bool,
    /// Has a scrap ability.
    pub has_scrap: bool,
    /// Has a double-ally ability.
    pub has_double_ally: bool,
    /// Its scrap ability brings it back from the scrap heap at the end of the turn.
    pub returns: bool,
    /// Its primary copies another ship (Stealth Needle).
    pub copies: bool,
    /// Combat gained per ship played while it is in play (Fleet HQ).
    pub combat_per_ship: u8,
    /// The factions of the ships that earn it (0: every ship).
    pub ship_factions: Factions,
    /// `HAS_*` / `IS_OUTPOST` bits, as the engine caches them on cards in play.
    pub in_play_flags: u8,
    /// The primary ability never asks for a decision (only gains, draws and flags), so it can
    /// resolve at once.
    pub simple_primary: bool,
}

/// [`CardInfo::in_play_flags`] bit: has a primary ability.
pub const HAS_PRIMARY: u8 = 1;
/// [`CardInfo::in_play_flags`] bit: has an ally ability.
pub const HAS_ALLY: u8 = 2;
/// [`CardInfo::in_play_flags`] bit: has a scrap ability.
pub const HAS_SCRAP: u8 = 4;
/// [`CardInfo::in_play_flags`] bit: is an outpost.
pub const IS_OUTPOST: u8 = 8;
/// [`CardInfo::in_play_flags`] bit: has a double-ally ability.
pub const HAS_DOUBLE_ALLY: u8 = 16;

/// Most card kinds in one set, upgraded cards included (card kinds are bits of a [`CardMask`]).
pub const MAX_KINDS: usize = 1024;

/// A set of card kinds as a bit mask, iterated in id order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CardMask([u64; MAX_KINDS / 64]);

impl CardMask {
    /// Adds a kind.
    #[inline]
    pub fn insert(&mut self, c: CardId) {
        self.0[c.0 as usize >> 6] |= 1 << (c.0 & 63);
    }
    /// The mask of the cards of a slice.
    #[inline]
    pub fn of(cards: &[CardId]) -> Self {
        let mut m = CardMask::default();
        for &c in cards {
            m.insert(c);
        }
        m
    }
    /// Calls `f` once for each kind found in `cards`, in id order.
    #[inline]
    pub fn each_kind(cards: &[CardId], mut f: impl FnMut(CardId)) {
        if cards.iter().all(|c| c.0 < 64) {
            // The common case (the base set has 49 kinds): one word.
            let mut bits = 0u64;
            for c in cards {
                bits |= 1 << c.0;
            }
            while bits != 0 {
                f(CardId(bits.trailing_zeros() as u16));
                bits &= bits - 1;
            }
        } else if cards.iter().all(|c| c.0 < 128) {
            // The printed cards of the embedded sets: two words.
            let mut bits = 0u128;
            for c in cards {
                bits |= 1 << c.0;
            }
            while bits != 0 {
                f(CardId(bits.trailing_zeros() as u16));
                bits &= bits - 1;
            }
        } else {
            CardMask::of(cards).for_each(f);
        }
    }

    /// Calls `f` for each kind, in id order.
    #[inline]
    pub fn for_each(&self, mut f: impl FnMut(CardId)) {
        for (w, &word) in self.0.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let b = bits.trailing_zeros();
                f(CardId((w as u32 * 64 + b) as u16));
                bits &= bits - 1;
            }
        }
    }
}

/// Every card a process knows: the embedded sets (base and the *Rise of Empire* stand-in pack),
/// or a designer's file; with every upgraded card the sticker sheets can make.
#[derive(Clone, Debug)]
pub struct CardSet {
    defs: Vec<CardDef>,
    infos: Vec<CardInfo>,
    /// The card sets, in order (the first is `base`, the default).
    pub sets: Vec<SetInfo>,
    /// The sticker sheets.
    pub sheets: Vec<Sheet>,
    upgrades: HashMap<(CardId, u16, u8), CardId>,
    /// Every copy of the default set's trade deck, in id order (shuffled at setup).
    pub trade_deck: Vec<CardId>,
    /// One player's starting deck, in id order.
    pub starting_deck: Vec<CardId>,
    by_name: HashMap<String, CardId>,
    /// Each card by its exact id: what clients send (`play blob_fighter`), found without
    /// normalizing the text as [`CardSet::find`] does for names.
    by_id: HashMap<String, CardId>,
    /// Each card's id written as a JSON string, quotes included (views write them by the
    /// thousand).
    json_ids: Vec<JsonId>,
    /// The Scout.
    pub scout: CardId,
    /// The Viper.
    pub viper: CardId,
    /// The Explorer.
    pub explorer: CardId,
}

/// A card's id written as a JSON string.
#[derive(Clone, Debug)]
enum JsonId {
    /// Most: `len` bytes at the start of `room`.
    Short { room: [u8; 32], len: u8 },
    /// Longer ones.
    Long(Box<str>),
}

impl JsonId {
    fn of(id: &str) -> JsonId {
        let text = serde_json::to_string(id).expect("a text is JSON");
        let mut room = [0; 32];
        match room.get_mut(..text.len()) {
            Some(start) => {
                start.copy_from_slice(text.as_bytes());
                JsonId::Short {
                    room,
                    len: text.len() as u8,
                }
            }
            None => JsonId::Long(text.into_boxed_str()),
        }
    }
}

fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// Normalizes a card name for lookup: lowercase, accents folded, only letters and digits kept.
pub fn normalize_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars().flat_map(char::to_lowercase) {
        let c = match c {
            'à' | 'â' | 'ä' | 'á' | 'ã' => 'a',
            'é' | 'è' | 'ê' | 'ë' => 'e',
            'î' | 'ï' | 'í' => 'i',
            'ô' | 'ö' | 'ó' | 'õ' => 'o',
            'ù' | 'û' | 'ü' | 'ú' => 'u',
            'ç' => 'c',
            'ñ' => 'n',
            c => c,
        };
        if c.is_alphanumeric() {
            out.push(c);
        }
    }
    out
}

impl CardSet {
    /// Parses and validates a card file. `file` names it in errors. A file that starts with
    /// `extends = "base"` adds its cards (and sheets) to the embedded base set's.
    pub fn parse(file: &str, text: &str) -> Result<CardSet, CardError> {
        let mut parts = Vec::new();
        read_file(file, text, &mut parts)?;
        build(parts)
    }

    /// Parses several card files as one set, in order; a file that extends the base set when
    /// an earlier one already brought it shares that one copy.
    pub fn parse_files(files: &[(&str, &str)]) -> Result<CardSet, CardError> {
        let mut parts = Vec::new();
        for (file, text) in files {
            read_file(file, text, &mut parts)?;
        }
        build(parts)
    }

    /// The embedded sets, the default of every process: the base set, *Colony Wars*,
    /// *Frontiers*, then the *Rise of Empire* stand-in pack (ours) and the upgraded cards its
    /// sheets make. (The printed cards of base and *Colony Wars* come first, so their games use
    /// small card ids.)
    pub fn builtin() -> &'static CardSet {
        static BUILTIN: OnceLock<CardSet> = OnceLock::new();
        BUILTIN.get_or_init(|| {
            CardSet::parse_files(&[
                (CW_SET_FILE, CW_SET_TEXT),
                (FRONTIERS_SET_FILE, FRONTIERS_SET_TEXT),
                (ROE_SET_FILE, ROE_SET_TEXT),
            ])
            .expect("the embedded card sets are valid")
        })
    }

    /// The embedded base set and *Colony Wars*, without the *Rise of Empire* pack.
    pub fn colony_wars() -> &'static CardSet {
        static CW: OnceLock<CardSet> = OnceLock::new();
        CW.get_or_init(|| {
            CardSet::parse(CW_SET_FILE, CW_SET_TEXT).expect("the embedded Colony Wars set is valid")
        })
    }

    /// The embedded base set alone.
    pub fn base() -> &'static CardSet {
        static BASE: OnceLock<CardSet> = OnceLock::new();
        BASE.get_or_init(|| {
            CardSet::parse(BASE_SET_FILE, BASE_SET_TEXT).expect("the embedded base set is valid")
        })
    }

    /// A fingerprint of what the cards do (every card's and sheet's rules, not their names and
    /// texts): two card sets with the same fingerprint play every game the same.
    pub fn fingerprint(&self) -> String {
        let all: Vec<String> = self.sets.iter().map(|s| s.name.clone()).collect();
        self.fingerprint_of(&all)
    }

    /// A fingerprint of what the cards of these sets do (their trade cards, every card that is
    /// not a trade card, the sheets): the same for two card sets that differ only in other sets,
    /// so that a campaign of some sets survives the addition of others.
    pub fn fingerprint_of<S: AsRef<str>>(&self, sets: &[S]) -> String {
        use sha2::Digest;
        let chosen = |i: u8| {
            sets.iter().any(|n| {
                self.sets
                    .get(i as usize)
                    .is_some_and(|s| s.name == n.as_ref())
            })
        };
        fn strip(v: &mut serde_json::Value) {
            match v {
                serde_json::Value::Object(map) => {
                    map.remove("name");
                    map.remove("text");
                    map.values_mut().for_each(strip);
                }
                serde_json::Value::Array(items) => items.iter_mut().for_each(strip),
                _ => {}
            }
        }
        let mut rules = serde_json::json!({
            "cards": self.defs.iter()
                .filter(|d| d.upgrade.is_none() && (d.spec.role != Role::Trade || chosen(d.set)))
                .map(|d| &d.spec)
                .collect::<Vec<_>>(),
            "sets": self.sets.iter().enumerate()
                .filter(|(i, _)| chosen(*i as u8))
                .map(|(_, s)| (&s.name, s.explorers))
                .collect::<Vec<_>>(),
            "sheets": &self.sheets,
        });
        strip(&mut rules);
        let digest = sha2::Sha256::digest(rules.to_string().as_bytes());
        digest[..8].iter().map(|b| format!("{b:02x}")).collect()
    }

    /// The trade deck of a game of these sets, in id order.
    pub fn trade_deck_of(&self, sets: Sets) -> Vec<CardId> {
        self.defs
            .iter()
            .enumerate()
            .filter(|(_, d)| d.spec.role == Role::Trade && d.upgrade.is_none() && sets.has(d.set))
            .flat_map(|(i, d)| std::iter::repeat_n(CardId(i as u16), d.spec.count as usize))
            .collect()
    }

    /// Explorers in a two-player pile for these sets (the largest of theirs).
    pub fn explorers_of(&self, sets: Sets) -> u8 {
        self.sets
            .iter()
            .enumerate()
            .filter(|(i, _)| sets.has(*i as u8))
            .map(|(_, s)| s.explorers)
            .max()
            .unwrap_or(self.def(self.explorer).spec.count)
    }

    /// The card a sticker of `row` of `sheet` makes of `card`, if it can upgrade it (same
    /// printed cost, the column of its kind, a set the sheet upgrades, not upgraded yet).
    #[inline]
    pub fn upgraded(&self, card: CardId, sheet: u16, row: u8) -> Option<CardId> {
        self.upgrades.get(&(card, sheet, row)).copied()
    }

    /// Finds a sheet by id.
    pub fn find_sheet(&self, id: &str) -> Option<u16> {
        self.sheets
            .iter()
            .position(|s| s.id == id)
            .map(|i| i as u16)
    }

    /// The printed card of an upgraded one (itself otherwise).
    #[inline]
    pub fn printed(&self, id: CardId) -> CardId {
        self.def(id).upgrade.map_or(id, |u| u.of)
    }

    /// Number of card kinds.
    pub fn len(&self) -> usize {
        self.defs.len()
    }

    /// Whether the set is empty (never, for a valid set).
    pub fn is_empty(&self) -> bool {
        self.defs.is_empty()
    }

    /// The card of an id.
    ///
    /// # Panics
    /// If the id is not of this set.
    #[inline]
    pub fn def(&self, id: CardId) -> &CardDef {
        &self.defs[id.0 as usize]
    }

    /// Appends the card's id as JSON writes it: a string, quotes included.
    ///
    /// # Panics
    ///
    /// If the card is not of this set.
    #[inline]
    pub fn write_json_id(&self, id: CardId, out: &mut Vec<u8>) {
        match &self.json_ids[id.0 as usize] {
            JsonId::Short { room, len } => {
                // A copy of known size, made inline, then cut to the id's length: quicker than
                // a copy of the exact length, which calls the C library's.
                out.extend_from_slice(room);
                out.truncate(out.len() - (room.len() - *len as usize));
            }
            JsonId::Long(text) => out.extend_from_slice(text.as_bytes()),
        }
    }

    /// The hot-loop facts of a card.
    ///
    /// # Panics
    /// If the id is not of this set.
    #[inline]
    pub fn info(&self, id: CardId) -> &CardInfo {
        &self.infos[id.0 as usize]
    }

    /// All cards with their ids.
    pub fn iter(&self) -> impl Iterator<Item = (CardId, &CardDef)> {
        self.defs
            .iter()
            .enumerate()
            .map(|(i, d)| (CardId(i as u16), d))
    }

    /// Finds a card by id or by its name in any language (case, accents, spaces and punctuation
    /// ignored).
    pub fn find(&self, name: &str) -> Option<CardId> {
        // An exact id is the common case, and the same card as its normalized form (a name may
        // not normalize to another card's id: the set's check refuses it).
        if let Some(&id) = self.by_id.get(name) {
            return Some(id);
        }
        self.by_name.get(&normalize_name(name)).copied()
    }
}

/// One file's cards and sheets, with where each was written.
struct FilePart {
    file: String,
    set: String,
    explorers: Option<u8>,
    cards: Vec<(CardSpec, usize)>,
    sheets: Vec<(Sheet, usize)>,
}

fn read_file(file: &str, text: &str, parts: &mut Vec<FilePart>) -> Result<(), CardError> {
    let parsed: CardFile = toml::from_str(text).map_err(|e| {
        let line = e.span().map(|s| line_of(text, s.start)).unwrap_or(0);
        refused(file, line, Why::text(e.message()))
    })?;
    match parsed.extends.as_deref() {
        None => {}
        // An earlier file may have brought the base set already: one copy serves both.
        Some("base") if parts.iter().any(|p| p.file == BASE_SET_FILE) => {}
        Some("base") => read_file(BASE_SET_FILE, BASE_SET_TEXT, parts)?,
        Some(other) => {
            return Err(refused(
                file,
                1,
                Why::new("file.card.extends_other", &[("name", &other)]),
            ));
        }
    }
    let set = parsed.set.unwrap_or_else(|| "base".to_string());
    parts.push(FilePart {
        file: file.to_string(),
        set,
        explorers: parsed.explorers,
        cards: parsed
            .card
            .into_iter()
            .map(|c| (line_of(text, c.span().start), c.into_inner()))
            .map(|(l, c)| (c, l))
            .collect(),
        sheets: parsed
            .sheet
            .into_iter()
            .map(|c| (line_of(text, c.span().start), c.into_inner()))
            .map(|(l, c)| (c, l))
            .collect(),
    });
    Ok(())
}

/// A refusal at `line` of `file`.
fn refused(file: &str, line: usize, why: Why) -> CardError {
    CardError {
        file: file.to_string(),
        line,
        why,
    }
}

fn set_index(sets: &mut Vec<SetInfo>, name: &str) -> Result<u8, Why> {
    if let Some(i) = sets.iter().position(|s| s.name == name) {
        return Ok(i as u8);
    }
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    {
        return Err(Why::new("file.card.set_name", &[("name", &name)]));
    }
    if sets.len() >= 8 {
        return Err(Why::new("file.card.too_many_sets", &[]));
    }
    sets.push(SetInfo {
        name: name.to_string(),
        explorers: 0,
    });
    Ok((sets.len() - 1) as u8)
}

fn build(parts: Vec<FilePart>) -> Result<CardSet, CardError> {
    let mut sets = vec![SetInfo {
        name: "base".into(),
        explorers: 0,
    }];
    let mut defs: Vec<CardDef> = Vec::new();
    let mut by_name = HashMap::new();
    let mut all_sheets: Vec<(Sheet, String, usize, Vec<u8>)> = Vec::new();
    let last_file = parts.last().map(|p| p.file.clone()).unwrap_or_default();
    for part in parts {
        let err = |line: usize, why: Why| refused(&part.file, line, why);
        let file_set = set_index(&mut sets, &part.set).map_err(|why| err(1, why))?;
        if let Some(n) = part.explorers {
            sets[file_set as usize].explorers = n;
        }
        for (spec, line) in part.cards {
            let in_card =
                |why: Why| err(line, why.within("file.card.in_card", &[("id", &spec.id)]));
            validate(&spec).map_err(in_card)?;
            let set = match &spec.set {
                Some(name) => set_index(&mut sets, name).map_err(in_card)?,
                None => file_set,
            };
            let id = CardId(defs.len() as u16);
            register_names(&mut by_name, &spec, id).map_err(in_card)?;
            let mut ally_for_all = false;
            let mut combat_per_ship = 0;
            let mut ship_factions = 0;
            for s in &spec.statics {
                match *s {
                    Static::AllyForAllFactions => ally_for_all = true,
                    Static::CombatPerShipPlayed(n) => combat_per_ship += n,
                    Static::CombatPerFactionShip { faction, combat } => {
                        combat_per_ship += combat;
                        ship_factions |= faction.bit();
                    }
                }
            }
            let factions = if ally_for_all {
                ALL_FACTIONS
            } else {
                spec.faction.map_or(0, Faction::bit)
            };
            defs.push(CardDef {
                spec,
                factions,
                ally_for_all,
                combat_per_ship,
                ship_factions,
                set,
                upgrade: None,
                side: None,
            });
        }
        for (sheet, line) in part.sheets {
            let names = if sheet.upgrades.is_empty() {
                vec![part.set.clone()]
            } else {
                sheet.upgrades.clone()
            };
            let in_sheet =
                |why: Why| err(line, why.within("file.card.in_sheet", &[("id", &sheet.id)]));
            let mut upgrades = Vec::new();
            for n in &names {
                upgrades.push(set_index(&mut sets, n).map_err(in_sheet)?);
            }
            validate_sheet(&sheet).map_err(in_sheet)?;
            if all_sheets.iter().any(|(s, ..)| s.id == sheet.id) {
                return Err(in_sheet(Why::new("file.card.sheet_id_used", &[])));
            }
            all_sheets.push((sheet, part.file.clone(), line, upgrades));
        }
    }
    let err0 = |why: Why| refused(&last_file, 0, why);
    let mut explorers = defs
        .iter()
        .enumerate()
        .filter(|(_, d)| d.spec.role == Role::Explorer);
    let explorer = match (explorers.next(), explorers.next()) {
        (Some((i, _)), None) => CardId(i as u16),
        _ => return Err(err0(Why::new("file.card.one_explorer", &[]))),
    };
    let starting: Vec<CardId> = defs
        .iter()
        .enumerate()
        .filter(|(_, d)| d.spec.role == Role::Starting)
        .map(|(i, _)| CardId(i as u16))
        .collect();
    let pick = |id: &str| {
        starting
            .iter()
            .copied()
            .find(|&c| defs[c.0 as usize].spec.id == id)
            .ok_or_else(|| err0(Why::new("file.card.no_starting", &[("id", &id)])))
    };
    let scout = pick("scout")?;
    let viper = pick("viper")?;
    let base_explorers = defs[explorer.0 as usize].spec.count;
    for s in sets.iter_mut() {
        if s.explorers == 0 {
            s.explorers = base_explorers;
        }
    }
    // Every upgraded card the sheets can make: one kind per printed card and sticker.
    let printed = defs.len();
    let mut upgrades = HashMap::new();
    for (si, (sheet, file, line, sets_up)) in all_sheets.iter().enumerate() {
        for (r, row) in sheet.row.iter().enumerate() {
            for column in [Column::Ship, Column::Base] {
                let Some(sticker) = row.sticker(column) else {
                    continue;
                };
                for c in 0..printed {
                    let d = &defs[c];
                    if d.spec.role != Role::Trade
                        || d.spec.cost != row.cost
                        || Column::of(d.spec.kind) != column
                        || !sets_up.contains(&d.set)
                    {
                        continue;
                    }
                    let derived =
                        upgrade_def(d, sheet, si as u16, r as u8, sticker, CardId(c as u16))
                            .map_err(|why| {
                                let why = why.within(
                                    "file.card.in_sheet_row",
                                    &[("id", &sheet.id), ("row", &(r + 1))],
                                );
                                refused(file, *line, why)
                            })?;
                    let id = CardId(defs.len() as u16);
                    register_names(&mut by_name, &derived.spec, id).map_err(|why| {
                        refused(
                            file,
                            *line,
                            why.within("file.card.in_sheet", &[("id", &sheet.id)]),
                        )
                    })?;
                    upgrades.insert((CardId(c as u16), si as u16, r as u8), id);
                    defs.push(derived);
                }
            }
        }
    }
    if defs.len() > MAX_KINDS {
        return Err(err0(Why::new(
            "file.card.too_many_kinds",
            &[("most", &MAX_KINDS), ("count", &defs.len())],
        )));
    }
    let infos = defs.iter().map(info_of).collect();
    let copies = |role: Role| -> Vec<CardId> {
        defs.iter()
            .enumerate()
            .filter(|(_, d)| {
                d.spec.role == role && d.upgrade.is_none() && (role != Role::Trade || d.set == 0)
            })
            .flat_map(|(i, d)| std::iter::repeat_n(CardId(i as u16), d.spec.count as usize))
            .collect()
    };
    let trade_deck = copies(Role::Trade);
    let starting_deck = copies(Role::Starting);
    let json_ids = defs.iter().map(|d| JsonId::of(d.id())).collect();
    let by_id = defs
        .iter()
        .enumerate()
        .map(|(i, d)| (d.id().to_string(), CardId(i as u16)))
        .collect();
    Ok(CardSet {
        defs,
        infos,
        sets,
        sheets: all_sheets.into_iter().map(|(s, ..)| s).collect(),
        upgrades,
        trade_deck,
        starting_deck,
        by_name,
        by_id,
        json_ids,
        scout,
        viper,
        explorer,
    })
}

fn register_names(
    by_name: &mut HashMap<String, CardId>,
    spec: &CardSpec,
    id: CardId,
) -> Result<(), Why> {
    for key in std::iter::once(spec.id.as_str()).chain(spec.name.all()) {
        let key = normalize_name(key);
        if let Some(&other) = by_name.get(&key)
            && other != id
        {
            return Err(Why::new("file.card.name_used", &[("name", &key)]));
        }
        by_name.insert(key, id);
    }
    Ok(())
}

fn info_of(d: &CardDef) -> CardInfo {
    let printed = d.spec.faction.map_or(0, Faction::bit);
    let side = d.side.map_or(0, Faction::bit);
    CardInfo {
        faction: d.spec.faction,
        kind: d.spec.kind,
        cost: d.spec.cost,
        defense: d.defense(),
        factions: d.factions,
        member: printed | side,
        ally_need: printed,
        has_on_acquire: !d.spec.on_acquire.is_empty(),
        upgradable: d.spec.role == Role::Trade && d.upgrade.is_none(),
        has_primary: !d.spec.primary.is_empty(),
        has_ally: !d.spec.ally.is_empty(),
        has_scrap: !d.spec.scrap.is_empty(),
        has_double_ally: !d.spec.double_ally.is_empty(),
        returns: d.spec.scrap.contains(&Effect::ReturnFromScrapHeap),
        copies: d.spec.primary.contains(&Effect::CopyShip),
        combat_per_ship: d.combat_per_ship,
        ship_factions: d.ship_factions,
        simple_primary: d.spec.primary.iter().all(|e| {
            matches!(
                e,
                Effect::Trade(_)
                    | Effect::Combat(_)
                    | Effect::Authority(_)
                    | Effect::Draw(_)
                    | Effect::DrawIfBases { .. }
                    | Effect::DrawPerPlayed(_)
                    | Effect::NextShipOnTop
                    | Effect::NextAcquire(_)
                    | Effect::If { .. }
                    | Effect::CombatPerScrapped(_)
                    | Effect::CombatPerOwnScrapped(_)
                    | Effect::NextBaseOnTop
            )
        }),
        in_play_flags: (!d.spec.primary.is_empty() as u8 * HAS_PRIMARY)
            | (!d.spec.ally.is_empty() as u8 * HAS_ALLY)
            | (!d.spec.scrap.is_empty() as u8 * HAS_SCRAP)
            | ((d.spec.kind == Kind::Outpost) as u8 * IS_OUTPOST)
            | (!d.spec.double_ally.is_empty() as u8 * HAS_DOUBLE_ALLY),
    }
}

/// The card `d` becomes with `sticker` of row `row` of `sheet`: the sticker's effects added, the
/// sheet's side as a second faction, no on-acquire ability any more.
fn upgrade_def(
    d: &CardDef,
    sheet: &Sheet,
    sheet_index: u16,
    row: u8,
    sticker: &Sticker,
    of: CardId,
) -> Result<CardDef, Why> {
    let mut spec = d.spec.clone();
    if !sticker.ally.is_empty() && spec.faction.is_none() {
        return Err(Why::new(
            "file.card.ally_sticker_no_faction",
            &[("id", &spec.id)],
        ));
    }
    spec.id = format!("{}__{}_r{}", spec.id, sheet.id, row + 1);
    let upgraded = |name: &str| format!("{name} ({} {})", sheet.id, row + 1);
    spec.name = Texts {
        en: upgraded(&spec.name.en),
        fr: upgraded(&spec.name.fr),
        pt: spec.name.pt.as_deref().map(upgraded),
        es: spec.name.es.as_deref().map(upgraded),
    };
    spec.text = format!("{} Upgrade: {}", spec.text, sticker.text);
    spec.primary.extend(sticker.primary.iter().cloned());
    spec.ally.extend(sticker.ally.iter().cloned());
    spec.scrap.extend(sticker.scrap.iter().cloned());
    spec.on_acquire.clear();
    spec.count = 0;
    let side = (spec.faction != Some(sheet.side)).then_some(sheet.side);
    let factions = d.factions | sheet.side.bit();
    Ok(CardDef {
        spec,
        factions,
        ally_for_all: d.ally_for_all,
        combat_per_ship: d.combat_per_ship,
        ship_factions: d.ship_factions,
        set: d.set,
        upgrade: Some(Upgrade {
            of,
            sheet: sheet_index,
            row,
        }),
        side,
    })
}

fn validate_sheet(sheet: &Sheet) -> Result<(), Why> {
    if sheet.id.is_empty()
        || !sheet
            .id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    {
        return Err(Why::new("file.card.id_snake_case", &[]));
    }
    if sheet.row.len() != SHEET_ROWS {
        return Err(Why::new(
            "file.card.sheet_rows",
            &[("rows", &SHEET_ROWS), ("count", &sheet.row.len())],
        ));
    }
    for (i, row) in sheet.row.iter().enumerate() {
        if sheet.row[..i].iter().any(|r| r.cost == row.cost) {
            return Err(Why::new(
                "file.card.two_rows_for_cost",
                &[("cost", &row.cost)],
            ));
        }
        if row.ship.is_none() && row.base.is_none() {
            return Err(Why::new("file.card.row_no_sticker", &[("row", &(i + 1))]));
        }
        let in_row = |why: Why| why.within("file.card.in_row", &[("row", &(i + 1))]);
        for (column, sticker) in [(Kind::Ship, &row.ship), (Kind::Base, &row.base)] {
            let Some(st) = sticker else { continue };
            if st.primary.is_empty() && st.ally.is_empty() && st.scrap.is_empty() {
                return Err(in_row(Why::new("file.card.sticker_no_effect", &[])));
            }
            if st.text.trim().is_empty() {
                return Err(in_row(Why::new("file.card.sticker_no_text", &[])));
            }
            for list in [&st.primary, &st.ally, &st.scrap] {
                check_effects(list, column).map_err(in_row)?;
            }
        }
    }
    Ok(())
}

fn validate(spec: &CardSpec) -> Result<(), Why> {
    if spec.id.is_empty()
        || !spec
            .id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    {
        return Err(Why::new("file.card.id_snake_case", &[]));
    }
    match (spec.kind.is_base(), spec.defense) {
        (true, None) | (true, Some(0)) => return Err(Why::new("file.card.base_defense", &[])),
        (false, Some(_)) => return Err(Why::new("file.card.no_defense", &[])),
        _ => {}
    }
    if spec.count == 0 {
        return Err(Why::new("file.card.count_zero", &[]));
    }
    if !(spec.ally.is_empty() && spec.double_ally.is_empty()) && spec.faction.is_none() {
        return Err(Why::new("file.card.ally_no_faction", &[]));
    }
    if spec.text.trim().is_empty() {
        return Err(Why::new("file.card.no_text", &[]));
    }
    for list in [
        &spec.primary,
        &spec.ally,
        &spec.double_ally,
        &spec.scrap,
        &spec.on_acquire,
    ] {
        check_effects(list, spec.kind)?;
    }
    for list in [
        &spec.primary,
        &spec.ally,
        &spec.double_ally,
        &spec.on_acquire,
    ] {
        if list.contains(&Effect::ReturnFromScrapHeap) {
            return Err(Why::new("file.card.return_not_scrap", &[]));
        }
    }
    if spec.on_acquire.iter().any(|e| {
        matches!(
            e,
            Effect::CopyShip | Effect::CopyBase | Effect::DrawPerPlayed(_)
        )
    }) {
        return Err(Why::new("file.card.on_acquire_copies", &[]));
    }
    if spec.kind == Kind::Ship && !spec.statics.is_empty() {
        return Err(Why::new("file.card.static_on_ship", &[]));
    }
    let per_ship = spec
        .statics
        .iter()
        .filter(|s| !matches!(s, Static::AllyForAllFactions))
        .count();
    if per_ship > 1 {
        return Err(Why::new("file.card.two_per_ship", &[]));
    }
    for list in [&spec.primary, &spec.ally, &spec.double_ally, &spec.scrap] {
        if list.iter().any(|e| matches!(e, Effect::ToHandIfPlayed(_))) {
            return Err(Why::new("file.card.to_hand_not_on_acquire", &[]));
        }
    }
    Ok(())
}

fn check_effects(list: &[Effect], kind: Kind) -> Result<(), Why> {
    for e in list {
        match e {
            Effect::Choose(options) => {
                if options.len() < 2 || options.len() > 4 {
                    return Err(Why::new("file.card.choose_options", &[]));
                }
                for o in options {
                    if o.iter().any(|e| matches!(e, Effect::Choose(_))) {
                        return Err(Why::new("file.card.choose_nested", &[]));
                    }
                    check_effects(o, kind)?;
                }
            }
            Effect::Scrap { count: 0, .. } | Effect::DiscardThenDraw(0) | Effect::Discard(0) => {
                return Err(Why::new("file.card.count_zero_effect", &[]));
            }
            Effect::CopyShip if kind != Kind::Ship => {
                return Err(Why::new("file.card.copy_ship_not_ship", &[]));
            }
            Effect::CopyBase if kind == Kind::Ship => {
                return Err(Why::new("file.card.copy_base_not_base", &[]));
            }
            Effect::ScrapTradeRow { count: 0, .. } | Effect::DiscardFor { count: 0, .. } => {
                return Err(Why::new("file.card.count_zero_effect", &[]));
            }
            Effect::If { then, .. }
                if then.is_empty() || !then.iter().all(Effect::is_immediate) =>
            {
                return Err(Why::new("file.card.if_then", &[]));
            }
            Effect::DiscardFor { reward, .. }
                if reward.is_empty()
                    || reward.len() > 4
                    || !reward.iter().flatten().all(Effect::is_immediate) =>
            {
                return Err(Why::new("file.card.discard_for_rewards", &[]));
            }
            _ => {}
        }
    }
    Ok(())
}

impl fmt::Display for CardId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", crate::cards().def(*self).id())
    }
}

impl Serialize for CardId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(crate::cards().def(*self).id())
    }
}

impl<'de> Deserialize<'de> for CardId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        crate::cards()
            .find(&name)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown card `{name}`")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_is_written_as_json_writes_it_short_or_long() {
        let ids = [
            "scout",
            "a",
            "",
            "exactly_thirty_bytes_long_id_x",
            "thirty_one_bytes_long_id_here_x",
            "a_card_id_far_longer_than_the_room_kept_for_most_ids",
            "quote\"and\\slash",
        ];
        for id in ids {
            let mut out = b"[".to_vec();
            let set = CardSet {
                json_ids: vec![JsonId::of(id)],
                ..CardSet::builtin().clone()
            };
            set.write_json_id(CardId(0), &mut out);
            out.push(b']');
            assert_eq!(
                String::from_utf8(out).unwrap(),
                format!("[{}]", serde_json::to_string(id).unwrap()),
                "{id}"
            );
        }
        assert!(matches!(
            JsonId::of("exactly_thirty_bytes_long_id_x"),
            JsonId::Short { .. }
        ));
        assert!(matches!(
            JsonId::of("thirty_one_bytes_long_id_here_x"),
            JsonId::Long(..)
        ));
    }

    #[test]
    fn portuguese_and_spanish_names_are_shown_where_given_else_the_english_one() {
        let set = CardSet::base();
        let name = |id: &str, lang: &str| {
            let c = set
                .iter()
                .find(|(_, d)| d.id() == id)
                .expect("a base card")
                .0;
            set.def(c).name(lang).to_string()
        };
        // The names the rulebooks give.
        assert_eq!(name("scout", "pt"), "Batedor");
        assert_eq!(name("explorer", "pt"), "Explorador");
        assert_eq!(name("explorer", "es"), "Explorador");
        assert_eq!(name("barter_world", "es"), "Trueque Mundial");
        // The others keep their English names.
        assert_eq!(name("scout", "es"), "Scout");
        assert_eq!(name("cutter", "pt"), "Cutter");
        assert_eq!(name("cutter", "es"), "Cutter");
        assert_eq!(name("mech_world", "pt"), "Mech World");
        assert_eq!(name("cutter", "fr"), "Vedette");
        assert_eq!(name("cutter", "en"), "Cutter");
        assert_eq!(name("cutter", "de"), "Cutter");
        // Every name finds its card.
        assert_eq!(set.find("Batedor"), set.find("scout"));
        assert_eq!(set.find("trueque mundial"), set.find("Barter World"));
    }

    #[test]
    fn a_designers_file_may_name_its_cards_in_portuguese_and_spanish_or_not() {
        let file = |scout_name: &str| {
            format!(
                r#"[[card]]
id = "scout"
name = {scout_name}
kind = "ship"
count = 8
role = "starting"
text = "Primary: Add 1 Trade."
primary = [{{ trade = 1 }}]

[[card]]
id = "viper"
name = {{ en = "Viper", fr = "Viper" }}
kind = "ship"
count = 2
role = "starting"
text = "Primary: Add 1 Combat."
primary = [{{ combat = 1 }}]

[[card]]
id = "explorer"
name = {{ en = "Explorer", fr = "Prospecteur" }}
cost = 2
kind = "ship"
count = 10
role = "explorer"
text = "Primary: Add 2 Trade. Scrap: Add 2 Combat."
primary = [{{ trade = 2 }}]
scrap = [{{ combat = 2 }}]
"#
            )
        };
        let named = CardSet::parse(
            "named.toml",
            &file(r#"{ en = "Scout", fr = "Éclaireur", pt = "Olheiro", es = "Explorador de avanzada" }"#),
        )
        .expect("pt and es names are allowed");
        let scout = named.def(named.find("scout").expect("the scout"));
        assert_eq!(scout.name("pt"), "Olheiro");
        assert_eq!(scout.name("es"), "Explorador de avanzada");
        assert_eq!(named.find("olheiro"), named.find("scout"));
        let plain = CardSet::parse("plain.toml", &file(r#"{ en = "Scout", fr = "Éclaireur" }"#))
            .expect("pt and es names are optional");
        let scout = plain.def(plain.find("scout").expect("the scout"));
        assert_eq!(scout.name("pt"), "Scout");
        assert_eq!(scout.name("es"), "Scout");
        assert_eq!(scout.name("fr"), "Éclaireur");
        // Names are not rules: both files play the same games.
        assert_eq!(named.fingerprint(), plain.fingerprint());
        let unknown = CardSet::parse(
            "de.toml",
            &file(r#"{ en = "Scout", fr = "Éclaireur", de = "Späher" }"#),
        );
        assert!(unknown.is_err(), "an unknown language is refused");
    }
}
