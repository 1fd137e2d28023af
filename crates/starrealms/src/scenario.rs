//! Scenarios: a position written out by hand (every zone of every seat, the trade row, pools,
//! what is already used, the pending decision) and a list of actions in text form.
//!
//! The format is documented in `docs/scenarios.md`. The same [`Setup`] serializes any state,
//! so a state can be saved as a scenario and loaded back unchanged.

use std::collections::BTreeMap;

use arrayvec::ArrayVec;
use game::refusal::Why;
use game::{PerSeat, Seat};
use serde::{Deserialize, Serialize};

use crate::action::{Action, ROW_SIZE};
use crate::cards::{CardId, Faction, Kind, Role};
use crate::config::Config;
use crate::state::{Frame, InPlay, Pending, Player, State};
use crate::{Observation, cards};

/// A card in play, written as its name alone or with its flags.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum InPlaySpec {
    /// Just the card (nothing used yet for a base; a ship's primary has fired).
    Name(CardId),
    /// The card with its flags.
    Full(InPlay),
}

impl<'de> Deserialize<'de> for InPlaySpec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = InPlaySpec;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a card name or an object {\"card\": …}")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<InPlaySpec, E> {
                cards().find(v).map(InPlaySpec::Name).ok_or_else(|| {
                    E::custom(Why::new("file.unknown_card", &[("name", &v)]).english())
                })
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, m: A) -> Result<InPlaySpec, A::Error> {
                InPlay::deserialize(serde::de::value::MapAccessDeserializer::new(m))
                    .map(InPlaySpec::Full)
            }
        }
        d.deserialize_any(V)
    }
}

/// The trade deck: explicit (top first), or every trade card not placed elsewhere, shuffled.
#[derive(Clone, Debug, PartialEq)]
pub enum TradeDeckSpec {
    /// These cards, top first.
    Cards(Vec<CardId>),
    /// `"rest"`: the trade cards not placed elsewhere, shuffled with the scenario's seed.
    Rest,
}

impl Serialize for TradeDeckSpec {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            TradeDeckSpec::Cards(cards) => cards.serialize(s),
            TradeDeckSpec::Rest => s.serialize_str("rest"),
        }
    }
}

impl<'de> Deserialize<'de> for TradeDeckSpec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = TradeDeckSpec;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a list of cards (top first) or \"rest\"")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<TradeDeckSpec, E> {
                if v == "rest" {
                    Ok(TradeDeckSpec::Rest)
                } else {
                    Err(E::custom(
                        Why::new("file.scenario.trade_deck_text", &[("text", &v)]).english(),
                    ))
                }
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                a: A,
            ) -> Result<TradeDeckSpec, A::Error> {
                Vec::<CardId>::deserialize(serde::de::value::SeqAccessDeserializer::new(a))
                    .map(TradeDeckSpec::Cards)
            }
        }
        d.deserialize_any(V)
    }
}

/// One seat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PlayerSetup {
    /// Authority (default: the format's starting authority for the seat, 50 in most).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub authority: Option<i32>,
    /// Still in the game (default true).
    pub alive: bool,
    /// Team (default: the seat's index).
    pub team: Option<u8>,
    /// Hand.
    pub hand: Vec<CardId>,
    /// Deck, top card first.
    pub deck: Vec<CardId>,
    /// How many cards at the top of the deck everybody knows.
    pub deck_known: u8,
    /// Cards in hand everybody knows.
    pub hand_known: Vec<CardId>,
    /// Discard pile, bottom first (the last is the top).
    pub discard: Vec<CardId>,
    /// Ships played this turn.
    pub ships: Vec<InPlaySpec>,
    /// Bases in play.
    pub bases: Vec<InPlaySpec>,
    /// Trade pool.
    pub trade: u16,
    /// Combat pool.
    pub combat: u16,
    /// Discards owed at the start of the next turn.
    pub pending_discards: u8,
    /// Next ships that may go on top of the deck this turn.
    pub next_ship_top: u8,
    /// Cards of each faction played this turn (default: counted from `ships`).
    pub played: Option<BTreeMap<Faction, u8>>,
    /// Cards scrapped from the hand or the discard pile this turn.
    #[serde(skip_serializing_if = "is_zero")]
    pub scrapped: u8,
    /// Cards of the player's own scrapped this turn from any zone, in play included.
    #[serde(skip_serializing_if = "is_zero")]
    pub scrapped_all: u8,
    /// Next bases acquired this turn that go on top of the deck.
    #[serde(skip_serializing_if = "is_zero")]
    pub next_base_top: u8,
    /// Cards scrapped this turn that come back from the scrap heap at its end.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub returning: Vec<CardId>,
    /// Where the next ships or bases acquired this turn go, first the next one.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub redirects: Vec<crate::cards::Dest>,
    /// Hydra: has ended its part of the team's turn.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub done: bool,
    /// *Rise of Empire*: the sticker sheets with what is used of them now (`ship` and `base`
    /// are bit masks of rows, bit `r - 1` for row `r`); default: as the configuration grants
    /// them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sheets: Option<Vec<crate::state::SheetUse>>,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

impl Default for PlayerSetup {
    fn default() -> Self {
        PlayerSetup {
            authority: None,
            alive: true,
            team: None,
            hand: Vec::new(),
            deck: Vec::new(),
            deck_known: 0,
            hand_known: Vec::new(),
            discard: Vec::new(),
            ships: Vec::new(),
            bases: Vec::new(),
            trade: 0,
            combat: 0,
            pending_discards: 0,
            next_ship_top: 0,
            played: None,
            scrapped: 0,
            scrapped_all: 0,
            next_base_top: 0,
            returning: Vec::new(),
            redirects: Vec::new(),
            done: false,
            sheets: None,
        }
    }
}

/// A whole position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Setup {
    /// A free description (scenario files).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// The configuration (default: 2 players, standard).
    pub config: Config,
    /// Seeds the RNG used by later shuffles (default 0).
    pub seed: u64,
    /// The exact RNG state as `"0x…"` (written when a state is saved; wins over `seed`).
    #[serde(skip_serializing_if = "Option::is_none", with = "game::rng_serde")]
    pub rng: Option<game::GameRng>,
    /// Whose turn it is (default p1).
    pub current: Seat,
    /// Who played first (default p1).
    pub first: Seat,
    /// Turn number (default 1).
    pub turn: u32,
    /// Every seat, in order.
    pub players: Vec<PlayerSetup>,
    /// The trade row: five slots, `null` for an empty one.
    pub row: Vec<Option<CardId>>,
    /// The trade deck, top first, or `"rest"`.
    pub trade_deck: TradeDeckSpec,
    /// Explorers in the pile (default 10).
    pub explorers: u8,
    /// The scrap heap.
    pub scrap_heap: Vec<CardId>,
    /// The pending decision, as in the state's JSON (`{"decision": "scrap", ...}`).
    pub pending: Option<Pending>,
    /// Effects still to resolve after the pending decision.
    pub frames: Vec<Frame>,
    /// Whether the game is over.
    pub over: bool,
    /// Once over: the winners (default: the players still in, if they are one team).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub winners: Vec<Seat>,
    /// Card passings still owed by fallen players, `[from, to]`, in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub bequests: Vec<(Seat, Seat)>,
    /// Hydra: the player in control has played, used, bought or attacked since taking control.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub progress: bool,
    /// Actions to apply, in text form (scenario files; [`Setup::build`] ignores them).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<String>,
    /// What the position after the actions must be (scenario files; [`Setup::build`] ignores
    /// it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expect: Option<crate::expect::Expect>,
}

impl Default for Setup {
    fn default() -> Self {
        Setup {
            description: String::new(),
            config: Config::default(),
            seed: 0,
            rng: None,
            current: Seat(0),
            first: Seat(0),
            turn: 1,
            players: Vec::new(),
            row: Vec::new(),
            trade_deck: TradeDeckSpec::Cards(Vec::new()),
            explorers: 10,
            scrap_heap: Vec::new(),
            pending: None,
            frames: Vec::new(),
            over: false,
            winners: Vec::new(),
            bequests: Vec::new(),
            progress: false,
            actions: Vec::new(),
            expect: None,
        }
    }
}

/// A scenario file: a setup and the actions to apply. In JSON it is one object: the setup's
/// fields plus `description` and `actions`.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// A free description.
    pub description: String,
    /// The position.
    pub setup: Setup,
    /// Actions in text form.
    pub actions: Vec<String>,
    /// What the position after the actions must be.
    pub expect: Option<crate::expect::Expect>,
}

impl Serialize for Scenario {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut whole = self.setup.clone();
        whole.description = self.description.clone();
        whole.actions = self.actions.clone();
        whole.expect = self.expect.clone();
        whole.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Scenario {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Scenario::from(Setup::deserialize(d)?))
    }
}

impl From<Setup> for Scenario {
    fn from(mut setup: Setup) -> Self {
        Scenario {
            description: std::mem::take(&mut setup.description),
            actions: std::mem::take(&mut setup.actions),
            expect: setup.expect.take(),
            setup,
        }
    }
}

/// Why a scenario cannot be loaded or played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScenarioError {
    /// Malformed JSON or an unknown field or card.
    #[error("line {line}, column {column}: {message}")]
    Json {
        /// Line.
        line: usize,
        /// Column.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// A field with an impossible value.
    #[error("`{field}`: {why}")]
    Invalid {
        /// The field, as a path (`players[1].bases[0]`).
        field: String,
        /// What is wrong: realms' own checks as keys of the table, or the engine's words
        /// ([`Why::text`]).
        why: Why,
    },
    /// An action that does not parse or is not legal.
    #[error("action {step} (`{text}`): {error}")]
    Action {
        /// 1-based position in `actions`.
        step: usize,
        /// The action's text.
        text: String,
        /// The error.
        error: game::ActionError,
    },
}

/// The field `field` refused, for `why`.
/// Most trade or combat a scenario may put in a pool: far from what the pool can count, whatever
/// the turn then adds.
pub const MAX_POOL: u16 = 10_000;

fn invalid(field: impl Into<String>, why: Why) -> ScenarioError {
    ScenarioError::Invalid {
        field: field.into(),
        why,
    }
}

impl Scenario {
    /// Parses a scenario from JSON.
    pub fn from_json(text: &str) -> Result<Scenario, ScenarioError> {
        serde_json::from_str(text).map_err(|e| {
            let full = e.to_string();
            let message = match full.rfind(" at line ") {
                Some(i) => full[..i].to_string(),
                None => full,
            };
            ScenarioError::Json {
                line: e.line(),
                column: e.column(),
                message,
            }
        })
    }

    /// Builds the position and applies every action; returns the final state.
    pub fn run(&self) -> Result<State, ScenarioError> {
        let mut state = self.setup.build()?;
        for (i, text) in self.actions.iter().enumerate() {
            let fail = |error| ScenarioError::Action {
                step: i + 1,
                text: text.clone(),
                error,
            };
            let action: Action = text.parse().map_err(fail)?;
            state.apply(action).map_err(fail)?;
        }
        Ok(state)
    }

    /// Runs the scenario and checks its `expect` block: the final state, and every
    /// expectation that does not hold (none when the file expects nothing).
    pub fn check(&self) -> Result<(State, Vec<crate::expect::Mismatch>), ScenarioError> {
        let state = self.run()?;
        let mismatches = self
            .expect
            .as_ref()
            .map(|e| e.check(&state))
            .unwrap_or_default();
        Ok((state, mismatches))
    }
}

fn in_play(spec: &InPlaySpec, ship: bool) -> InPlay {
    match spec {
        InPlaySpec::Name(c) => {
            let mut p = InPlay::new(*c);
            p.primary_used = ship;
            p
        }
        InPlaySpec::Full(p) => *p,
    }
}

fn check_pending(p: &Pending, players: &[Player], current: &Player) -> Result<(), Why> {
    match *p {
        Pending::Choose { source, at }
            if !(source.is_valid()
                && matches!(
                    source.effects().get(at as usize),
                    Some(crate::cards::Effect::Choose(_))
                )) =>
        {
            Err(Why::new("file.scenario.pending_no_choice", &[("at", &at)]))
        }
        Pending::Discard { seat, .. } if !players.get(seat.index()).is_some_and(|p| p.alive) => {
            Err(Why::new("file.scenario.pending_seat", &[("seat", &seat)]))
        }
        Pending::CopyShip { ship }
            if !current
                .ships
                .get(ship as usize)
                .is_some_and(|s| cards().info(s.card).copies) =>
        {
            Err(Why::new(
                "file.scenario.pending_copy_ship",
                &[("ship", &ship)],
            ))
        }
        Pending::TopOrDiscard { card } if current.discard.last() != Some(&card) => Err(Why::new(
            "file.scenario.pending_not_on_top",
            &[("card", &card)],
        )),
        Pending::Bequeath { from, to }
            if !players
                .get(from.index())
                .is_some_and(|p| !p.alive && !p.discard.is_empty())
                || !players.get(to.index()).is_some_and(|p| p.alive) =>
        {
            Err(Why::new(
                "file.scenario.pending_bequeath",
                &[("from", &from), ("to", &to)],
            ))
        }
        _ => Ok(()),
    }
}

/// A base with as much damage as its defense is destroyed: it cannot be in play.
fn check_damage(players: &[Player]) -> Result<(), ScenarioError> {
    for (i, p) in players.iter().enumerate() {
        for (j, b) in p.bases.iter().enumerate() {
            let defense = cards().def(b.card).defense();
            if b.damage >= defense {
                return Err(invalid(
                    format!("players[{i}].bases[{j}].damage"),
                    Why::new(
                        "file.scenario.base_destroyed",
                        &[
                            ("damage", &b.damage),
                            ("card", &b.card),
                            ("defense", &defense),
                        ],
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Hydra teammates share one authority.
fn check_hydra(players: &[Player]) -> Result<(), ScenarioError> {
    for (i, p) in players.iter().enumerate() {
        if let Some((k, mate)) = players[..i]
            .iter()
            .enumerate()
            .find(|(_, q)| q.team == p.team && q.authority != p.authority)
        {
            return Err(invalid(
                format!("players[{i}].authority"),
                Why::new(
                    "file.scenario.hydra_authority",
                    &[
                        ("authority", &p.authority),
                        ("mate", &Seat(k as u8)),
                        ("mate_authority", &mate.authority),
                    ],
                ),
            ));
        }
    }
    Ok(())
}

/// No more copies of a trade card than the card set has (an upgraded card counts as its
/// printed card); the field named is where the copy too many was found.
fn check_copies(
    players: &[Player],
    row: &[Option<CardId>],
    trade_deck: &[CardId],
    scrap_heap: &[CardId],
) -> Result<(), ScenarioError> {
    let set = cards();
    let mut zones: Vec<(String, Vec<CardId>)> = Vec::new();
    for (i, p) in players.iter().enumerate() {
        zones.push((format!("players[{i}].hand"), p.hand.clone()));
        zones.push((format!("players[{i}].deck"), p.deck.clone()));
        zones.push((format!("players[{i}].discard"), p.discard.clone()));
        zones.push((
            format!("players[{i}].ships"),
            p.ships.iter().map(|s| s.card).collect(),
        ));
        zones.push((
            format!("players[{i}].bases"),
            p.bases.iter().map(|s| s.card).collect(),
        ));
    }
    zones.push(("row".into(), row.iter().flatten().copied().collect()));
    zones.push(("trade_deck".into(), trade_deck.to_vec()));
    zones.push(("scrap_heap".into(), scrap_heap.to_vec()));
    let mut seen = vec![0usize; set.len()];
    for (field, cards_) in zones {
        for c in cards_ {
            let printed = set.printed(c);
            let def = set.def(printed);
            if def.spec.role != Role::Trade {
                continue;
            }
            seen[printed.0 as usize] += 1;
            if seen[printed.0 as usize] > def.spec.count as usize {
                return Err(invalid(
                    field,
                    Why::new(
                        "file.scenario.too_many_copies",
                        &[
                            ("n", &seen[printed.0 as usize]),
                            ("card", &printed),
                            ("count", &def.spec.count),
                        ],
                    ),
                ));
            }
        }
    }
    Ok(())
}

impl Setup {
    /// Validates the setup and builds the state.
    pub fn build(&self) -> Result<State, ScenarioError> {
        let set = cards();
        let config = &self.config;
        config.validate().map_err(|why| invalid("config", why))?;
        let n = config.seats as usize;
        if self.players.is_empty() {
            return self.deal();
        }
        let given = self.players.len();
        if given != n {
            let why = if given == 1 {
                Why::new("file.scenario.one_player", &[("seats", &n)])
            } else {
                Why::new("file.scenario.players", &[("n", &given), ("seats", &n)])
            };
            return Err(invalid("players", why));
        }
        for (field, seat) in [("current", self.current), ("first", self.first)] {
            if seat.index() >= n {
                return Err(invalid(
                    field,
                    Why::new("file.scenario.not_a_seat", &[("seat", &seat)]),
                ));
            }
        }
        let mut players = Vec::with_capacity(n);
        for (i, p) in self.players.iter().enumerate() {
            let at = |f: &str| format!("players[{i}].{f}");
            let ships: Vec<InPlay> = p.ships.iter().map(|s| in_play(s, true)).collect();
            let bases: Vec<InPlay> = p.bases.iter().map(|s| in_play(s, false)).collect();
            for (j, s) in ships.iter().enumerate() {
                if set.def(s.card).kind() != Kind::Ship {
                    return Err(invalid(
                        at(&format!("ships[{j}]")),
                        Why::new("file.scenario.ship_is_base", &[("card", &s.card)]),
                    ));
                }
            }
            for (j, b) in bases.iter().enumerate() {
                if set.def(b.card).kind() == Kind::Ship {
                    return Err(invalid(
                        at(&format!("bases[{j}]")),
                        Why::new("file.scenario.base_is_ship", &[("card", &b.card)]),
                    ));
                }
                if let Some(c) = b.copy {
                    let field = at(&format!("bases[{j}].copy"));
                    let copier = |d: CardId| {
                        set.def(d)
                            .spec
                            .primary
                            .contains(&crate::cards::Effect::CopyBase)
                    };
                    if !copier(b.card) {
                        return Err(invalid(
                            field,
                            Why::new("file.scenario.no_copy_base", &[("card", &b.card)]),
                        ));
                    }
                    if !set.info(c).kind.is_base() || copier(c) {
                        return Err(invalid(
                            field,
                            Why::new("file.scenario.cannot_copy", &[("card", &c)]),
                        ));
                    }
                }
            }
            for (j, s) in ships.iter().enumerate() {
                if let Some(c) = s.copy {
                    let field = at(&format!("ships[{j}].copy"));
                    if !set.info(s.card).copies {
                        return Err(invalid(
                            field,
                            Why::new("file.scenario.no_copy_ship", &[("card", &s.card)]),
                        ));
                    }
                    if set.info(c).kind != Kind::Ship || set.info(c).copies {
                        return Err(invalid(
                            field,
                            Why::new("file.scenario.cannot_copy", &[("card", &c)]),
                        ));
                    }
                }
            }
            let authority = p.authority.unwrap_or(config.starting_authority(i));
            let most = crate::config::MAX_AUTHORITY;
            if !(-most..=most).contains(&authority) {
                return Err(invalid(
                    at("authority"),
                    Why::new("file.scenario.authority_most", &[("most", &most)]),
                ));
            }
            for (field, pool) in [("trade", p.trade), ("combat", p.combat)] {
                if pool > MAX_POOL {
                    return Err(invalid(
                        at(field),
                        Why::new("file.scenario.pool_most", &[("most", &MAX_POOL)]),
                    ));
                }
            }
            if p.alive && authority <= 0 && !self.over {
                return Err(invalid(
                    at("authority"),
                    Why::new("file.scenario.authority", &[]),
                ));
            }
            if p.deck_known as usize > p.deck.len() {
                return Err(invalid(
                    at("deck_known"),
                    Why::new("file.scenario.deck_known", &[]),
                ));
            }
            let mut deck = p.deck.clone();
            deck.reverse();
            let mut played = [0u8; Faction::COUNT];
            match &p.played {
                Some(map) => {
                    for (f, k) in map {
                        played[*f as usize] = *k;
                    }
                }
                None => {
                    // As the engine counts: the card's faction when played, plus a copied
                    // ship's faction when it differs.
                    for s in &ships {
                        let own = set.info(s.card).member;
                        let copied = s
                            .copy
                            .map_or(0, |c| set.info(c).faction.map_or(0, Faction::bit));
                        let mut member = own | (copied & !own);
                        while member != 0 {
                            played[member.trailing_zeros() as usize] += 1;
                            member &= member - 1;
                        }
                    }
                }
            }
            for (j, u) in p.sheets.iter().flatten().enumerate() {
                if (u.ship | u.base) >= 1 << crate::cards::SHEET_ROWS || u.ship & u.base != 0 {
                    return Err(invalid(
                        at(&format!("sheets[{j}]")),
                        Why::new("file.scenario.sheet_rows", &[]),
                    ));
                }
            }
            let mut rest_hand = p.hand.clone();
            for (j, k) in p.hand_known.iter().enumerate() {
                match rest_hand.iter().position(|c| c == k) {
                    Some(x) => {
                        rest_hand.swap_remove(x);
                    }
                    None => {
                        return Err(invalid(
                            at(&format!("hand_known[{j}]")),
                            Why::new("file.scenario.not_in_hand", &[("card", k)]),
                        ));
                    }
                }
            }
            players.push(Player {
                hand: p.hand.clone(),
                deck,
                deck_known: p.deck_known,
                hand_known: p.hand_known.clone(),
                discard: p.discard.clone(),
                ships,
                bases,
                trade: p.trade,
                combat: p.combat,
                authority,
                alive: p.alive,
                team: p.team.unwrap_or(config.team_of(i)),
                pending_discards: p.pending_discards,
                next_ship_top: p.next_ship_top,
                played,
                scrapped: p.scrapped,
                scrapped_all: p.scrapped_all,
                next_base_top: p.next_base_top,
                returning: p.returning.clone(),
                redirects: p.redirects.clone(),
                done: p.done,
                sheets: match &p.sheets {
                    Some(used) => used.clone(),
                    None => config
                        .sheets
                        .get(i)
                        .map(|g| g.iter().map(crate::state::sheet_use).collect())
                        .unwrap_or_default(),
                },
            });
        }
        if self.row.len() > ROW_SIZE {
            return Err(invalid(
                "row",
                Why::new("file.scenario.row_slots", &[("n", &ROW_SIZE)]),
            ));
        }
        let mut row = [None; ROW_SIZE];
        for (i, c) in self.row.iter().enumerate() {
            if let Some(c) = c
                && set.def(*c).spec.role != Role::Trade
            {
                return Err(invalid(
                    format!("row[{i}]"),
                    Why::new("file.scenario.not_trade", &[("card", c)]),
                ));
            }
            row[i] = *c;
        }
        let mut rng = match &self.rng {
            Some(r) => r.clone(),
            None => game::rng_from_seed(self.seed),
        };
        let trade_deck = match &self.trade_deck {
            TradeDeckSpec::Cards(cs) => cs.iter().rev().copied().collect(),
            TradeDeckSpec::Rest => {
                let mut left: Vec<usize> = vec![0; set.len()];
                for c in set.trade_deck_of(config.sets) {
                    left[c.0 as usize] += 1;
                }
                let placed = players
                    .iter()
                    .flat_map(|p| p.all_cards())
                    .chain(row.iter().flatten().copied())
                    .chain(self.scrap_heap.iter().copied());
                for c in placed {
                    let c = set.printed(c);
                    left[c.0 as usize] = left[c.0 as usize].saturating_sub(1);
                }
                let mut deck: Vec<CardId> = left
                    .iter()
                    .enumerate()
                    .flat_map(|(i, &k)| std::iter::repeat_n(CardId(i as u16), k))
                    .collect();
                game::shuffle(&mut rng, &mut deck);
                deck
            }
        };
        for (i, c) in trade_deck.iter().enumerate() {
            if set.def(*c).spec.role != Role::Trade {
                return Err(invalid(
                    format!("trade_deck[{i}]"),
                    Why::new("file.scenario.not_trade", &[("card", c)]),
                ));
            }
        }
        check_damage(&players)?;
        if config.format == crate::Format::Hydra {
            check_hydra(&players)?;
        }
        check_copies(&players, &row, &trade_deck, &self.scrap_heap)?;
        if self.frames.len() > 6 {
            return Err(invalid("frames", Why::new("file.scenario.frames", &[])));
        }
        let current = &players[self.current.index()];
        if !self.over {
            if !current.alive {
                return Err(invalid(
                    "current",
                    Why::new("file.scenario.out_of_game", &[("seat", &self.current)]),
                ));
            }
            let mut teams = players.iter().filter(|p| p.alive).map(|p| p.team);
            let first = teams.next();
            if !teams.any(|t| Some(t) != first) {
                return Err(invalid("over", Why::new("file.scenario.over", &[])));
            }
        }
        for (i, f) in self.frames.iter().enumerate() {
            if !f.source.is_valid() {
                return Err(invalid(
                    format!("frames[{i}].source"),
                    Why::new("file.scenario.frame_source", &[]),
                ));
            }
            // `ship` is a ship's position, a base's (its primary), or where an acquired card
            // was put (an on-acquire ability: 0 discard pile, 1 hand, 2 top of the deck).
            let (max, what) = match f.source.ability {
                crate::state::Ability::OnAcquire => (3, "file.scenario.frame_place"),
                _ if crate::cards().info(f.source.card).kind.is_base() => {
                    (current.bases.len(), "file.scenario.frame_base")
                }
                _ => (current.ships.len(), "file.scenario.frame_ship"),
            };
            if f.ship != u8::MAX && f.ship as usize >= max {
                return Err(invalid(format!("frames[{i}].ship"), Why::new(what, &[])));
            }
        }
        if let Some(p) = &self.pending {
            check_pending(p, &players, current).map_err(|m| invalid("pending", m))?;
        }
        if self.bequests.len() > 5 {
            return Err(invalid("bequests", Why::new("file.scenario.bequests", &[])));
        }
        for (i, &(from, to)) in self.bequests.iter().enumerate() {
            if from.index() >= players.len() || to.index() >= players.len() {
                return Err(invalid(
                    format!("bequests[{i}]"),
                    Why::new("file.scenario.no_seat", &[]),
                ));
            }
        }
        let mut victors = 0u8;
        for (i, w) in self.winners.iter().enumerate() {
            if w.index() >= players.len() {
                return Err(invalid(
                    format!("winners[{i}]"),
                    Why::new("file.scenario.winner_seat", &[("seat", w)]),
                ));
            }
            victors |= 1 << w.0;
        }
        if !self.over && victors != 0 {
            return Err(invalid("winners", Why::new("file.scenario.winners", &[])));
        }
        if self.over && self.winners.is_empty() {
            let mut teams = players.iter().filter(|p| p.alive).map(|p| p.team);
            let first = teams.next();
            if !teams.any(|t| Some(t) != first) {
                victors = players
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| p.alive)
                    .fold(0, |m, (i, _)| m | 1 << i);
            }
        }
        let state = State {
            config: config.clone(),
            players: PerSeat(players),
            current: self.current,
            first: self.first,
            turn: self.turn,
            row,
            trade_deck,
            explorers: self.explorers,
            scrap_heap: self.scrap_heap.clone(),
            pending: self.pending,
            frames: self.frames.iter().copied().collect::<ArrayVec<Frame, 6>>(),
            over: self.over,
            victors,
            bequests: self.bequests.iter().copied().collect(),
            progress: self.progress,
            rng,
        };
        if !state.over && state.legal_actions().is_empty() {
            return Err(invalid("pending", Why::new("file.scenario.no_answer", &[])));
        }
        Ok(state)
    }

    /// A setup with no `players` is a new game dealt from `seed`, as `realms play --seed`
    /// deals it: no other part of a position may then be given.
    fn deal(&self) -> Result<State, ScenarioError> {
        let blank = Setup {
            description: self.description.clone(),
            config: self.config.clone(),
            seed: self.seed,
            actions: self.actions.clone(),
            expect: self.expect.clone(),
            ..Setup::default()
        };
        if *self != blank {
            let given = [
                ("rng", self.rng.is_some()),
                ("current", self.current != blank.current),
                ("first", self.first != blank.first),
                ("turn", self.turn != blank.turn),
                ("row", !self.row.is_empty()),
                ("trade_deck", self.trade_deck != blank.trade_deck),
                ("explorers", self.explorers != blank.explorers),
                ("scrap_heap", !self.scrap_heap.is_empty()),
                ("pending", self.pending.is_some()),
                ("frames", !self.frames.is_empty()),
                ("over", self.over),
                ("winners", !self.winners.is_empty()),
                ("bequests", !self.bequests.is_empty()),
                ("progress", self.progress),
            ];
            let field = given.iter().find(|(_, g)| *g).map_or("players", |(f, _)| f);
            return Err(invalid(field, Why::new("file.scenario.deal", &[])));
        }
        // A game it cannot deal, in the engine's words.
        State::new(&self.config, self.seed).map_err(|m| invalid("config", Why::text(m)))
    }

    /// Writes a state as a setup (exact: [`Setup::build`] gives the same state back).
    pub fn from_state(state: &State) -> Setup {
        let players = state
            .players
            .0
            .iter()
            .map(|p| PlayerSetup {
                authority: Some(p.authority),
                alive: p.alive,
                team: Some(p.team),
                hand: p.hand.clone(),
                deck: p.deck.iter().rev().copied().collect(),
                deck_known: p.deck_known,
                hand_known: p.hand_known.clone(),
                discard: p.discard.clone(),
                ships: p.ships.iter().map(|s| InPlaySpec::Full(*s)).collect(),
                bases: p.bases.iter().map(|s| InPlaySpec::Full(*s)).collect(),
                trade: p.trade,
                combat: p.combat,
                pending_discards: p.pending_discards,
                next_ship_top: p.next_ship_top,
                played: Some(
                    Faction::ALL
                        .iter()
                        .map(|&f| (f, p.played[f as usize]))
                        .filter(|&(_, k)| k > 0)
                        .collect(),
                ),
                scrapped: p.scrapped,
                scrapped_all: p.scrapped_all,
                next_base_top: p.next_base_top,
                returning: p.returning.clone(),
                redirects: p.redirects.clone(),
                done: p.done,
                sheets: (!p.sheets.is_empty()).then(|| p.sheets.clone()),
            })
            .collect();
        Setup {
            description: String::new(),
            config: state.config.clone(),
            seed: 0,
            rng: Some(state.rng.clone()),
            current: state.current,
            first: state.first,
            turn: state.turn,
            players,
            row: state.row.to_vec(),
            trade_deck: TradeDeckSpec::Cards(state.trade_deck.iter().rev().copied().collect()),
            explorers: state.explorers,
            scrap_heap: state.scrap_heap.clone(),
            pending: state.pending,
            frames: state.frames.to_vec(),
            over: state.over,
            winners: state.winners(),
            bequests: state.bequests.to_vec(),
            progress: state.progress,
            actions: Vec::new(),
            expect: None,
        }
    }
}

/// A state and every seat's view, as `realms scenario` prints them.
#[derive(Clone, Debug, Serialize)]
pub struct ScenarioResult {
    /// The full state, in the scenario format.
    pub state: Setup,
    /// Legal actions now.
    pub legal_actions: Vec<Action>,
    /// Each seat's observation.
    pub observations: Vec<Observation>,
}

impl ScenarioResult {
    /// Builds the result of a state.
    pub fn of(state: &State) -> ScenarioResult {
        ScenarioResult {
            state: Setup::from_state(state),
            legal_actions: state.legal_actions(),
            observations: (0..state.players.len())
                .map(|i| state.observation(Seat(i as u8)))
                .collect(),
        }
    }
}

/// Builds positions in code, for tests and tools: a 2-player table with empty zones, an empty
/// trade row and trade deck, 10 Explorers, `p1` to play.
///
/// ```
/// use starrealms::scenario::Builder;
/// let mut state = Builder::new()
///     .hand(0, &["Cutter", "Scout"])
///     .build();
/// state.act("play cutter");
/// assert_eq!(state.players.0[0].trade, 2);
/// assert_eq!(state.players.0[0].authority, 54);
/// ```
#[derive(Clone, Debug)]
pub struct Builder {
    /// The setup being built (fields may also be set directly).
    pub setup: Setup,
}

/// Looks a card up by id or name.
///
/// # Panics
/// If there is no such card (a test's typo).
pub fn card(name: &str) -> CardId {
    cards()
        .find(name)
        .unwrap_or_else(|| panic!("no card named `{name}`"))
}

fn card_list(names: &[&str]) -> Vec<CardId> {
    names.iter().map(|n| card(n)).collect()
}

impl Default for Builder {
    fn default() -> Self {
        Builder::new()
    }
}

impl Builder {
    /// An empty 2-player position.
    pub fn new() -> Self {
        Builder::seats(2)
    }

    /// An empty position with `n` seats (free-for-all beyond two).
    pub fn seats(n: u8) -> Self {
        let mut setup = Setup::default();
        setup.config.seats = n;
        if n > 2 {
            setup.config.format = crate::Format::FreeForAll;
        }
        setup.players = (0..n).map(|_| PlayerSetup::default()).collect();
        setup.row = vec![None; ROW_SIZE];
        Builder { setup }
    }

    fn player(&mut self, seat: usize) -> &mut PlayerSetup {
        &mut self.setup.players[seat]
    }

    /// Sets a seat's hand.
    pub fn hand(mut self, seat: usize, names: &[&str]) -> Self {
        self.player(seat).hand = card_list(names);
        self
    }
    /// Sets a seat's deck, top card first.
    pub fn deck(mut self, seat: usize, names: &[&str]) -> Self {
        self.player(seat).deck = card_list(names);
        self
    }
    /// Sets a seat's discard pile, bottom first.
    pub fn discard(mut self, seat: usize, names: &[&str]) -> Self {
        self.player(seat).discard = card_list(names);
        self
    }
    /// Puts ships in play for a seat (already played this turn).
    pub fn ships(mut self, seat: usize, names: &[&str]) -> Self {
        self.player(seat).ships = card_list(names).into_iter().map(InPlaySpec::Name).collect();
        self
    }
    /// Puts bases in play for a seat (nothing used yet).
    pub fn bases(mut self, seat: usize, names: &[&str]) -> Self {
        self.player(seat).bases = card_list(names).into_iter().map(InPlaySpec::Name).collect();
        self
    }
    /// Sets a seat's trade and combat pools.
    pub fn pools(mut self, seat: usize, trade: u16, combat: u16) -> Self {
        let p = self.player(seat);
        p.trade = trade;
        p.combat = combat;
        self
    }
    /// Sets a seat's authority.
    pub fn authority(mut self, seat: usize, authority: i32) -> Self {
        self.player(seat).authority = Some(authority);
        self
    }
    /// Sets the trade row (up to five cards, left to right).
    pub fn row(mut self, names: &[&str]) -> Self {
        let mut row = card_list(names).into_iter().map(Some).collect::<Vec<_>>();
        row.resize(ROW_SIZE, None);
        self.setup.row = row;
        self
    }
    /// Sets the trade deck, top card first.
    pub fn trade_deck(mut self, names: &[&str]) -> Self {
        self.setup.trade_deck = TradeDeckSpec::Cards(card_list(names));
        self
    }
    /// Sets the Explorer pile.
    pub fn explorers(mut self, n: u8) -> Self {
        self.setup.explorers = n;
        self
    }
    /// Sets the scrap heap.
    pub fn scrap_heap(mut self, names: &[&str]) -> Self {
        self.setup.scrap_heap = card_list(names);
        self
    }
    /// Whose turn it is.
    pub fn current(mut self, seat: usize) -> Self {
        self.setup.current = Seat(seat as u8);
        self
    }
    /// Changes the configuration.
    pub fn config(mut self, f: impl FnOnce(&mut Config)) -> Self {
        f(&mut self.setup.config);
        self
    }
    /// Builds the state.
    ///
    /// # Panics
    /// If the setup is invalid (a test's mistake).
    pub fn build(self) -> State {
        self.setup
            .build()
            .unwrap_or_else(|e| panic!("bad test setup: {e}"))
    }
}

impl State {
    /// Parses and applies an action in text form.
    ///
    /// # Panics
    /// If the text does not parse or the action is illegal, with the legal actions listed
    /// (for tests and examples).
    pub fn act(&mut self, text: &str) {
        let action: Action = text.parse().unwrap_or_else(|e| panic!("{e}"));
        if let Err(e) = self.apply(action) {
            let legal: Vec<String> = self.legal_actions().iter().map(|a| a.to_string()).collect();
            panic!("{e}; legal: {legal:?}");
        }
    }

    /// The legal actions in text form.
    pub fn legal_texts(&self) -> Vec<String> {
        self.legal_actions().iter().map(|a| a.to_string()).collect()
    }
}
