//! Bataille Cosmique positions as JSON, the same way as Star Realms scenarios: every card of
//! every planet (hand, orbit, defences and attacks), life, the solar pile and the discard pile,
//! whose turn it is; actions to play from there; and what the position after them must be
//! (`expect`). `docs/scenarios-cosmique.md` describes the format.
//!
//! A file without `planets` is the game its `seed` deals.

use game::refusal::Why;
use game::{ActionError, Seat};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use crate::action::Side;
use crate::card::{COPIES_PER_METEOR, Card, Hand, METEOR_KINDS, Meteor, PLUS2_CARDS};
use crate::config::Config;
use crate::state::{ACTIONS_PER_TURN, Attack, Defence, Planet, SEATS, Slot, State};
use crate::{Action, Observation};

/// A defence as a file writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DefenceSpec {
    /// The meteor.
    pub card: Meteor,
    /// Face up (it stopped an attack since it was laid); default face down.
    #[serde(default)]
    pub revealed: bool,
}

/// An attack waiting in a slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttackSpec {
    /// The meteor.
    pub card: Meteor,
    /// A "+2" beside it.
    #[serde(default)]
    pub plus2: bool,
    /// Who attacked.
    pub by: Seat,
}

/// One slot of a planet.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SlotSpec {
    /// The defence laid there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub defence: Option<DefenceSpec>,
    /// The attack waiting there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attack: Option<AttackSpec>,
}

/// One planet.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PlanetSetup {
    /// Life (default: the variant's starting life); 0 for a dead planet.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub life: Option<u8>,
    /// The hand, in any order.
    pub hand: Vec<Card>,
    /// Cards of the hand every player knows are there (taken face up from an orbit).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub known: Vec<Card>,
    /// The orbit card, face up.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub orbit: Option<Card>,
    /// The left slot.
    pub left: SlotSpec,
    /// The right slot.
    pub right: SlotSpec,
}

/// The solar pile: its cards top first, or `"rest"`: every card placed nowhere else, shuffled
/// from the seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PileSpec {
    /// These cards, top first.
    Cards(Vec<Card>),
    /// Every card not placed elsewhere.
    Rest,
}

impl Default for PileSpec {
    fn default() -> Self {
        PileSpec::Cards(Vec::new())
    }
}

impl Serialize for PileSpec {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            PileSpec::Cards(c) => c.serialize(s),
            PileSpec::Rest => s.serialize_str("rest"),
        }
    }
}

impl<'de> Deserialize<'de> for PileSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Value::deserialize(d)? {
            Value::String(s) if s == "rest" => Ok(PileSpec::Rest),
            v @ Value::Array(_) => serde_json::from_value(v)
                .map(PileSpec::Cards)
                .map_err(serde::de::Error::custom),
            other => Err(serde::de::Error::custom(
                Why::new("file.cosmique.pile_text", &[("value", &other)]).english(),
            )),
        }
    }
}

/// A whole position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Setup {
    /// A free description.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// The configuration (the variant, the turn limit).
    pub config: Config,
    /// Seeds later shuffles (and deals the game when there are no `planets`).
    pub seed: u64,
    /// The exact random-generator state (written when a state is saved; wins over `seed`).
    #[serde(skip_serializing_if = "Option::is_none", with = "game::rng_serde")]
    pub rng: Option<game::GameRng>,
    /// Whose turn it is.
    pub current: Seat,
    /// Who played first.
    pub first: Seat,
    /// Player turns begun, from 1.
    pub turn: u32,
    /// Actions left in the current turn (1 or 2).
    pub actions_left: u8,
    /// The four planets, p1 first (none: the game `seed` deals).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub planets: Vec<PlanetSetup>,
    /// The solar pile.
    pub pile: PileSpec,
    /// Whether the pile was made from the discard pile (everybody knows what it holds).
    pub pile_public: bool,
    /// The discard pile, oldest first.
    pub discard: Vec<Card>,
    /// Whether the game is over.
    pub over: bool,
    /// Once over: the last planet alive.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<Seat>,
    /// Actions to play, in text form.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<String>,
    /// What the position after the actions must be.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expect: Option<Expect>,
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
            actions_left: ACTIONS_PER_TURN,
            planets: Vec::new(),
            pile: PileSpec::default(),
            pile_public: false,
            discard: Vec::new(),
            over: false,
            winner: None,
            actions: Vec::new(),
            expect: None,
        }
    }
}

/// What one planet must hold after the actions.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlanetExpect {
    /// Life.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub life: Option<u8>,
    /// The hand, in any order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hand: Option<Vec<Card>>,
    /// Cards in hand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hand_count: Option<usize>,
    /// The orbit card (`null`: none).
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub orbit: Option<Value>,
    /// The left slot, as the position writes it (`{}`: empty).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub left: Option<SlotSpec>,
    /// The right slot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub right: Option<SlotSpec>,
}

/// The `expect` block: only what is written is checked.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// Per planet (`"p1"` …).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub planets: std::collections::BTreeMap<Seat, PlanetExpect>,
    /// The seat to play (`null`: nobody, the game is over).
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub to_move: Option<Value>,
    /// Actions left in the turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actions_left: Option<u8>,
    /// Whether the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub over: Option<bool>,
    /// The winner (`null`: none, or a draw).
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub winner: Option<Value>,
    /// Cards in the solar pile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pile_count: Option<usize>,
    /// The discard pile, oldest first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discard: Option<Vec<Card>>,
    /// Actions that must be legal now.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub legal: Vec<String>,
    /// Actions that must not be legal now.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub illegal: Vec<String>,
}

/// A field given as `null` is `Some(Value::Null)`, a field left out `None`.
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

/// One expectation that does not hold: the field, what was expected, what was found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Mismatch {
    /// The field of `expect` (`planets.p2.life`, `legal[0]`).
    pub field: String,
    /// What the file expects.
    pub expected: Value,
    /// What the position has.
    pub found: Value,
}

/// Why a scenario cannot be loaded or played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScenarioError {
    /// Malformed JSON, an unknown field or card.
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
        /// The field's path (`planets[1].left.attack.by`).
        field: String,
        /// What is wrong: realms' own checks as keys of the table, or the engine's words
        /// ([`Why::text`]).
        why: Why,
    },
    /// An action that does not read or is not legal.
    #[error("action {step} (`{text}`): {error}")]
    Action {
        /// 1-based position in `actions`.
        step: usize,
        /// The action's text.
        text: String,
        /// The engine's reason.
        error: ActionError,
    },
}

/// The field `field` refused, for `why`.
fn invalid(field: impl Into<String>, why: Why) -> ScenarioError {
    ScenarioError::Invalid {
        field: field.into(),
        why,
    }
}

fn json<T: Serialize>(v: &T) -> Value {
    serde_json::to_value(v).expect("a value serializes")
}

/// How many copies of each card the game has (index: [`Card::id`]).
fn copies(card: Card) -> u8 {
    match card {
        Card::Plus2 => PLUS2_CARDS,
        Card::Meteor(_) => COPIES_PER_METEOR,
    }
}

impl Setup {
    /// Reads a position (or a scenario) from JSON.
    pub fn from_json(text: &str) -> Result<Setup, ScenarioError> {
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

    /// Checks the position and builds the state (a file without `planets`: the dealt game).
    pub fn build(&self) -> Result<State, ScenarioError> {
        self.config
            .validate()
            .map_err(|why| invalid("config", why))?;
        if self.planets.is_empty() {
            return self.deal();
        }
        if self.planets.len() != SEATS {
            return Err(invalid(
                "planets",
                Why::new(
                    "file.cosmique.planets",
                    &[("seats", &SEATS), ("n", &self.planets.len())],
                ),
            ));
        }
        let life = self.config.variant.starting_life();
        let mut planets = Vec::with_capacity(SEATS);
        let mut seen = [0u8; METEOR_KINDS + 1];
        let mut count = |field: &str, c: Card| -> Result<(), ScenarioError> {
            let k = &mut seen[c.id()];
            *k += 1;
            if *k > copies(c) {
                return Err(invalid(
                    field,
                    Why::new(
                        "file.cosmique.too_many_copies",
                        &[("n", &*k), ("meteor", &c), ("count", &copies(c))],
                    ),
                ));
            }
            Ok(())
        };
        for (i, p) in self.planets.iter().enumerate() {
            let at = |f: &str| format!("planets[{i}].{f}");
            let l = p.life.unwrap_or(life);
            if l > life {
                return Err(invalid(
                    at("life"),
                    Why::new("file.cosmique.life", &[("life", &l), ("max", &life)]),
                ));
            }
            let mut hand = Hand::new();
            for &c in &p.hand {
                count(&at("hand"), c)?;
                hand.add(c);
            }
            let mut known = Hand::new();
            let mut left = hand;
            for (j, &c) in p.known.iter().enumerate() {
                if !left.remove(c) {
                    return Err(invalid(
                        at(&format!("known[{j}]")),
                        Why::new("file.cosmique.not_in_hand", &[("meteor", &c)]),
                    ));
                }
                known.add(c);
            }
            if let Some(c) = p.orbit {
                count(&at("orbit"), c)?;
            }
            let mut slots = [Slot::default(); 2];
            for (side, spec) in [(Side::Left, &p.left), (Side::Right, &p.right)] {
                let name = match side {
                    Side::Left => "left",
                    Side::Right => "right",
                };
                let slot = &mut slots[side.index()];
                if let Some(d) = spec.defence {
                    count(&at(&format!("{name}.defence")), Card::Meteor(d.card))?;
                    slot.defence = Some(Defence {
                        card: d.card,
                        revealed: d.revealed,
                    });
                }
                if let Some(a) = spec.attack {
                    let field = at(&format!("{name}.attack"));
                    count(&field, Card::Meteor(a.card))?;
                    if a.plus2 {
                        count(&format!("{field}.plus2"), Card::Plus2)?;
                    }
                    if a.by.index() >= SEATS || a.by.index() == i {
                        return Err(invalid(
                            format!("{field}.by"),
                            Why::new(
                                "file.cosmique.attacker",
                                &[("by", &a.by), ("seat", &Seat(i as u8))],
                            ),
                        ));
                    }
                    slot.attack = Some(Attack {
                        card: a.card,
                        plus2: a.plus2,
                        by: a.by,
                    });
                }
            }
            if l == 0 && (!hand.is_empty() || p.orbit.is_some() || slots != [Slot::default(); 2]) {
                return Err(invalid(
                    at("life"),
                    Why::new("file.cosmique.dead_planet", &[]),
                ));
            }
            planets.push(Planet {
                life: l,
                hand,
                known,
                orbit: p.orbit,
                slots,
            });
        }
        for (j, &c) in self.discard.iter().enumerate() {
            count(&format!("discard[{j}]"), c)?;
        }
        let mut rng = match &self.rng {
            Some(r) => r.clone(),
            None => game::rng_from_seed(self.seed),
        };
        let pile = match &self.pile {
            PileSpec::Cards(cards) => {
                for (j, &c) in cards.iter().enumerate() {
                    count(&format!("pile[{j}]"), c)?;
                }
                cards.iter().rev().copied().collect()
            }
            PileSpec::Rest => {
                let mut rest: Vec<Card> = Card::deck();
                for (k, &n) in seen.iter().enumerate() {
                    for _ in 0..n {
                        let at = rest
                            .iter()
                            .position(|c| c.id() == k)
                            .expect("counted within the game's copies");
                        rest.swap_remove(at);
                    }
                }
                rest.sort();
                game::shuffle(&mut rng, &mut rest);
                rest
            }
        };
        let alive = planets.iter().filter(|p| p.life > 0).count();
        for (field, seat) in [("current", self.current), ("first", self.first)] {
            if seat.index() >= SEATS {
                return Err(invalid(
                    field,
                    Why::new("file.cosmique.not_a_planet", &[("seat", &seat)]),
                ));
            }
        }
        if let Some(w) = self.winner {
            if !self.over {
                return Err(invalid(
                    "winner",
                    Why::new("file.cosmique.winner_over", &[]),
                ));
            }
            if w.index() >= SEATS || planets[w.index()].life == 0 {
                return Err(invalid(
                    "winner",
                    Why::new("file.cosmique.winner_alive", &[("seat", &w)]),
                ));
            }
        }
        if !self.over {
            if alive < 2 {
                return Err(invalid("over", Why::new("file.cosmique.over", &[])));
            }
            if planets[self.current.index()].life == 0 {
                return Err(invalid(
                    "current",
                    Why::new("file.cosmique.current_dead", &[("seat", &self.current)]),
                ));
            }
            if !(1..=ACTIONS_PER_TURN).contains(&self.actions_left) {
                return Err(invalid(
                    "actions_left",
                    Why::new("file.cosmique.actions_left", &[("n", &ACTIONS_PER_TURN)]),
                ));
            }
        }
        Ok(State {
            config: self.config.clone(),
            planets: game::PerSeat(planets),
            current: self.current,
            first: self.first,
            turn: self.turn,
            actions_left: self.actions_left,
            pile,
            pile_public: self.pile_public,
            discard: self.discard.clone(),
            over: self.over,
            winner: self.winner,
            rng,
        })
    }

    /// The game `seed` deals; nothing else of a position may then be given.
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
            return Err(invalid("planets", Why::new("file.cosmique.deal", &[])));
        }
        // A game it cannot deal, in the engine's words.
        State::new(&self.config, self.seed).map_err(|m| invalid("config", Why::text(m)))
    }

    /// Writes a state as a setup: building it gives the same state back.
    pub fn from_state(state: &State) -> Setup {
        let slot = |s: &Slot| SlotSpec {
            defence: s.defence.map(|d| DefenceSpec {
                card: d.card,
                revealed: d.revealed,
            }),
            attack: s.attack.map(|a| AttackSpec {
                card: a.card,
                plus2: a.plus2,
                by: a.by,
            }),
        };
        Setup {
            config: state.config.clone(),
            rng: Some(state.rng.clone()),
            current: state.current,
            first: state.first,
            turn: state.turn,
            actions_left: state.actions_left,
            planets: state
                .planets
                .0
                .iter()
                .map(|p| PlanetSetup {
                    life: Some(p.life),
                    hand: p.hand.iter().collect(),
                    known: p.known.iter().collect(),
                    orbit: p.orbit,
                    left: slot(&p.slots[Side::Left.index()]),
                    right: slot(&p.slots[Side::Right.index()]),
                })
                .collect(),
            pile: PileSpec::Cards(state.pile.iter().rev().copied().collect()),
            pile_public: state.pile_public,
            discard: state.discard.clone(),
            over: state.over,
            winner: state.winner,
            ..Setup::default()
        }
    }

    /// Builds the position, plays every action; returns the state and every expectation that
    /// does not hold.
    pub fn check(&self) -> Result<(State, Vec<Mismatch>), ScenarioError> {
        let mut state = self.build()?;
        for (i, text) in self.actions.iter().enumerate() {
            let fail = |error| ScenarioError::Action {
                step: i + 1,
                text: text.clone(),
                error,
            };
            let action: Action = <Action as game::Action>::parse(text).map_err(fail)?;
            state.apply(action).map_err(fail)?;
        }
        let mismatches = self
            .expect
            .as_ref()
            .map(|e| e.check(&state))
            .unwrap_or_default();
        Ok((state, mismatches))
    }
}

/// Adds a mismatch to `out` unless `found` is `expected`.
fn compare(out: &mut Vec<Mismatch>, field: String, expected: Value, found: Value) {
    if expected != found {
        out.push(Mismatch {
            field,
            expected,
            found,
        });
    }
}

impl Expect {
    /// Every expectation that does not hold in `state`.
    pub fn check(&self, state: &State) -> Vec<Mismatch> {
        let mut out = Vec::new();
        let setup = Setup::from_state(state);
        for (&seat, e) in &self.planets {
            let at = |f: &str| format!("planets.{seat}.{f}");
            let Some(p) = setup.planets.get(seat.index()) else {
                compare(
                    &mut out,
                    format!("planets.{seat}"),
                    json(&seat),
                    Value::Null,
                );
                continue;
            };
            if let Some(v) = e.life {
                compare(&mut out, at("life"), json(&v), json(&p.life));
            }
            if let Some(v) = &e.hand {
                let mut v = v.clone();
                v.sort();
                let mut h = p.hand.clone();
                h.sort();
                compare(&mut out, at("hand"), json(&v), json(&h));
            }
            if let Some(v) = e.hand_count {
                compare(&mut out, at("hand_count"), json(&v), json(&p.hand.len()));
            }
            if let Some(v) = &e.orbit {
                compare(&mut out, at("orbit"), v.clone(), json(&p.orbit));
            }
            if let Some(v) = &e.left {
                compare(&mut out, at("left"), json(v), json(&p.left));
            }
            if let Some(v) = &e.right {
                compare(&mut out, at("right"), json(v), json(&p.right));
            }
        }
        if let Some(v) = &self.to_move {
            compare(
                &mut out,
                "to_move".into(),
                v.clone(),
                json(&state.to_move()),
            );
        }
        if let Some(v) = self.actions_left {
            compare(
                &mut out,
                "actions_left".into(),
                json(&v),
                json(&state.actions_left),
            );
        }
        if let Some(v) = self.over {
            compare(&mut out, "over".into(), json(&v), json(&state.over));
        }
        if let Some(v) = &self.winner {
            compare(&mut out, "winner".into(), v.clone(), json(&state.winner));
        }
        if let Some(v) = self.pile_count {
            compare(
                &mut out,
                "pile_count".into(),
                json(&v),
                json(&state.pile.len()),
            );
        }
        if let Some(v) = &self.discard {
            compare(&mut out, "discard".into(), json(v), json(&state.discard));
        }
        let legal = state.legal_actions();
        for (list, must, name) in [
            (&self.legal, true, "legal"),
            (&self.illegal, false, "illegal"),
        ] {
            for (i, text) in list.iter().enumerate() {
                let field = format!("{name}[{i}]");
                let word = |legal: bool| if legal { "legal" } else { "illegal" };
                match <Action as game::Action>::parse(text) {
                    Err(e) => out.push(Mismatch {
                        field,
                        expected: json(text),
                        found: json(&format!("not an action: {e}")),
                    }),
                    Ok(a) if legal.contains(&a) != must => out.push(Mismatch {
                        field,
                        expected: json(&format!("{text} {}", word(must))),
                        found: json(&format!("{text} {}", word(!must))),
                    }),
                    Ok(_) => {}
                }
            }
        }
        out
    }
}

/// A state and every seat's view, as `realms --game cosmique scenario --json` prints them.
#[derive(Clone, Debug, Serialize)]
pub struct ScenarioResult {
    /// The full state, in the scenario format.
    pub state: Setup,
    /// Legal actions now, in text form.
    pub legal_actions: Vec<String>,
    /// Each planet's view.
    pub observations: Vec<Observation>,
}

impl ScenarioResult {
    /// The result of a state.
    pub fn of(state: &State) -> ScenarioResult {
        ScenarioResult {
            state: Setup::from_state(state),
            legal_actions: state
                .legal_actions()
                .iter()
                .map(ToString::to_string)
                .collect(),
            observations: (0..SEATS)
                .map(|i| state.observation(Seat(i as u8)))
                .collect(),
        }
    }
}
