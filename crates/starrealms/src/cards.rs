//! Card data: the closed effect vocabulary, the card file format and its loader.
//!
//! Cards are data. A card file (TOML) lists `[[card]]` tables; each is deserialized into
//! [`CardSpec`], whose abilities are lists of [`Effect`]s. An unknown word, a missing field or an
//! inconsistent card fails at load with the file name, the line and the reason.

use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

/// The embedded base set.
pub const BASE_SET_FILE: &str = "cards/base.toml";
const BASE_SET_TEXT: &str = include_str!("../cards/base.toml");

/// A card kind, as an index into the active [`CardSet`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CardId(pub u16);

/// One of the four factions. Starting cards and Explorers have none.
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
}

impl Faction {
    /// All factions, in a fixed order.
    pub const ALL: [Faction; 4] = [
        Faction::Blob,
        Faction::TradeFederation,
        Faction::StarEmpire,
        Faction::MachineCult,
    ];

    /// This faction's bit in a [`Factions`] mask.
    pub const fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// A set of factions as a bit mask (bit `Faction::bit`).
pub type Factions = u8;

/// Every faction at once (Mech World's static ability).
pub const ALL_FACTIONS: Factions = 0b1111;

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
    },
    /// Scrap a card in the trade row (which refills).
    ScrapTradeRow {
        /// Whether the player may decline.
        #[serde(default)]
        optional: bool,
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
}

/// A static ability, active while the card is in play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Static {
    /// Counts as an ally for every faction.
    AllyForAllFactions,
    /// Whenever the owner plays a ship, gain this much combat.
    CombatPerShipPlayed(u8),
}

/// A name or a text in each language.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Texts {
    /// English.
    pub en: String,
    /// French.
    pub fr: String,
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
    /// Scrap ability: scrap this card for these effects.
    #[serde(default)]
    pub scrap: Vec<Effect>,
    /// Static abilities.
    #[serde(default, rename = "static")]
    pub statics: Vec<Static>,
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
    /// Name in a language (`"fr"` or anything else for English).
    pub fn name(&self, lang: &str) -> &str {
        if lang == "fr" {
            &self.spec.name.fr
        } else {
            &self.spec.name.en
        }
    }
}

/// An error in a card file: which file, which line, why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: {reason}")]
pub struct CardError {
    /// The file.
    pub file: String,
    /// 1-based line (0 when unknown).
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CardFile {
    card: Vec<toml::Spanned<CardSpec>>,
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
    /// Faction mask in play (every faction for Mech World).
    pub factions: Factions,
    /// Has a primary ability with effects.
    pub has_primary: bool,
    /// Has an ally ability.
    pub has_ally: bool,
    /// Has a scrap ability.
    pub has_scrap: bool,
    /// Its primary copies another ship (Stealth Needle).
    pub copies: bool,
    /// Combat gained per ship played while it is in play (Fleet HQ).
    pub combat_per_ship: u8,
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

/// Most card kinds in one set (card kinds are bits of a [`CardMask`]).
pub const MAX_KINDS: usize = 256;

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

/// A whole set of cards: the base set, or a designer's file.
#[derive(Clone, Debug)]
pub struct CardSet {
    defs: Vec<CardDef>,
    infos: Vec<CardInfo>,
    /// Every copy of the trade deck, in id order (shuffled at setup).
    pub trade_deck: Vec<CardId>,
    /// One player's starting deck, in id order.
    pub starting_deck: Vec<CardId>,
    by_name: HashMap<String, CardId>,
    /// The Scout.
    pub scout: CardId,
    /// The Viper.
    pub viper: CardId,
    /// The Explorer.
    pub explorer: CardId,
}

fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// Normalizes a card name for lookup: lowercase, accents folded, only letters and digits kept.
pub fn normalize_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars().flat_map(char::to_lowercase) {
        let c = match c {
            'à' | 'â' | 'ä' | 'á' => 'a',
            'é' | 'è' | 'ê' | 'ë' => 'e',
            'î' | 'ï' | 'í' => 'i',
            'ô' | 'ö' | 'ó' => 'o',
            'ù' | 'û' | 'ü' | 'ú' => 'u',
            'ç' => 'c',
            c => c,
        };
        if c.is_alphanumeric() {
            out.push(c);
        }
    }
    out
}

impl CardSet {
    /// Parses and validates a card file. `file` names it in errors.
    pub fn parse(file: &str, text: &str) -> Result<CardSet, CardError> {
        let err = |line: usize, reason: String| CardError {
            file: file.to_string(),
            line,
            reason,
        };
        let parsed: CardFile = toml::from_str(text).map_err(|e| {
            let line = e.span().map(|s| line_of(text, s.start)).unwrap_or(0);
            err(line, e.message().to_string())
        })?;
        let mut defs = Vec::with_capacity(parsed.card.len());
        let mut by_name = HashMap::new();
        for spanned in parsed.card {
            let line = line_of(text, spanned.span().start);
            let spec = spanned.into_inner();
            validate(&spec).map_err(|reason| err(line, format!("card `{}`: {reason}", spec.id)))?;
            let id = CardId(defs.len() as u16);
            for key in [&spec.id, &spec.name.en, &spec.name.fr] {
                let key = normalize_name(key);
                if let Some(&other) = by_name.get(&key)
                    && other != id
                {
                    return Err(err(
                        line,
                        format!("card `{}`: name `{key}` is already used", spec.id),
                    ));
                }
                by_name.insert(key, id);
            }
            let mut ally_for_all = false;
            let mut combat_per_ship = 0;
            for s in &spec.statics {
                match *s {
                    Static::AllyForAllFactions => ally_for_all = true,
                    Static::CombatPerShipPlayed(n) => combat_per_ship += n,
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
            });
        }
        let find_role = |role: Role| -> Result<CardId, CardError> {
            let mut it = defs.iter().enumerate().filter(|(_, d)| d.spec.role == role);
            match (it.next(), it.next()) {
                (Some((i, _)), None) => Ok(CardId(i as u16)),
                _ => Err(err(0, format!("the set needs exactly one {role:?} card"))),
            }
        };
        let explorer = find_role(Role::Explorer)?;
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
                .ok_or_else(|| err(0, format!("the set needs a starting card `{id}`")))
        };
        let scout = pick("scout")?;
        let viper = pick("viper")?;
        if defs.len() > MAX_KINDS {
            return Err(err(
                0,
                format!("a set holds at most {MAX_KINDS} card kinds"),
            ));
        }
        let infos = defs
            .iter()
            .map(|d| CardInfo {
                faction: d.spec.faction,
                kind: d.spec.kind,
                cost: d.spec.cost,
                defense: d.defense(),
                factions: d.factions,
                has_primary: !d.spec.primary.is_empty(),
                has_ally: !d.spec.ally.is_empty(),
                has_scrap: !d.spec.scrap.is_empty(),
                copies: d.spec.primary.contains(&Effect::CopyShip),
                combat_per_ship: d.combat_per_ship,
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
                    )
                }),
                in_play_flags: (!d.spec.primary.is_empty() as u8 * HAS_PRIMARY)
                    | (!d.spec.ally.is_empty() as u8 * HAS_ALLY)
                    | (!d.spec.scrap.is_empty() as u8 * HAS_SCRAP)
                    | ((d.spec.kind == Kind::Outpost) as u8 * IS_OUTPOST),
            })
            .collect();
        let copies = |role: Role| -> Vec<CardId> {
            defs.iter()
                .enumerate()
                .filter(|(_, d)| d.spec.role == role)
                .flat_map(|(i, d)| std::iter::repeat_n(CardId(i as u16), d.spec.count as usize))
                .collect()
        };
        let trade_deck = copies(Role::Trade);
        let starting_deck = copies(Role::Starting);
        Ok(CardSet {
            defs,
            infos,
            trade_deck,
            starting_deck,
            by_name,
            scout,
            viper,
            explorer,
        })
    }

    /// The embedded base set.
    pub fn base() -> &'static CardSet {
        static BASE: OnceLock<CardSet> = OnceLock::new();
        BASE.get_or_init(|| {
            CardSet::parse(BASE_SET_FILE, BASE_SET_TEXT).expect("the embedded base set is valid")
        })
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

    /// Finds a card by id, English or French name (case, accents, spaces and punctuation ignored).
    pub fn find(&self, name: &str) -> Option<CardId> {
        self.by_name.get(&normalize_name(name)).copied()
    }
}

fn validate(spec: &CardSpec) -> Result<(), String> {
    if spec.id.is_empty()
        || !spec
            .id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    {
        return Err("`id` must be snake_case ascii".into());
    }
    match (spec.kind.is_base(), spec.defense) {
        (true, None) | (true, Some(0)) => return Err("a base needs a positive `defense`".into()),
        (false, Some(_)) => return Err("a ship has no `defense`".into()),
        _ => {}
    }
    if spec.count == 0 {
        return Err("`count` must be at least 1".into());
    }
    if !spec.ally.is_empty() && spec.faction.is_none() {
        return Err("an ally ability needs a faction".into());
    }
    if spec.text.trim().is_empty() {
        return Err("`text` (the printed text) is missing".into());
    }
    for list in [&spec.primary, &spec.ally, &spec.scrap] {
        check_effects(list, spec.kind)?;
    }
    if spec.kind == Kind::Ship && !spec.statics.is_empty() {
        return Err("static abilities belong to bases".into());
    }
    Ok(())
}

fn check_effects(list: &[Effect], kind: Kind) -> Result<(), String> {
    for e in list {
        match e {
            Effect::Choose(options) => {
                if options.len() < 2 || options.len() > 4 {
                    return Err("`choose` needs 2 to 4 options".into());
                }
                for o in options {
                    if o.iter().any(|e| matches!(e, Effect::Choose(_))) {
                        return Err("`choose` cannot nest".into());
                    }
                    check_effects(o, kind)?;
                }
            }
            Effect::Scrap { count: 0, .. } | Effect::DiscardThenDraw(0) => {
                return Err("a count must be at least 1".into());
            }
            Effect::CopyShip if kind != Kind::Ship => {
                return Err("only a ship can copy a ship".into());
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
