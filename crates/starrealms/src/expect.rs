//! What a scenario file expects of the position its actions lead to (`"expect"`): pools,
//! authority, zones, piles, the pending decision, who is to move, the winners, actions that
//! must or must not be legal. [`Expect::check`] lists every mismatch, each with the field it is
//! about, what was expected and what was found.

use std::collections::BTreeMap;

use game::Seat;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use crate::cards::CardId;
use crate::scenario::{InPlaySpec, Setup, TradeDeckSpec};
use crate::{Action, State};

/// What one seat must hold. Card lists are in the scenario format's order (a deck top first,
/// a discard pile bottom first); a hand is compared whatever its order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerExpect {
    /// Authority.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub authority: Option<i32>,
    /// Trade pool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trade: Option<u16>,
    /// Combat pool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub combat: Option<u16>,
    /// Still in the game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alive: Option<bool>,
    /// The hand, in any order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hand: Option<Vec<CardId>>,
    /// Cards in hand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hand_count: Option<usize>,
    /// The deck, top card first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deck: Option<Vec<CardId>>,
    /// Cards in the deck.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deck_count: Option<usize>,
    /// The discard pile, bottom first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discard: Option<Vec<CardId>>,
    /// Cards in the discard pile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discard_count: Option<usize>,
    /// Ships in play, in order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ships: Option<Vec<CardId>>,
    /// Bases in play, in order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bases: Option<Vec<CardId>>,
}

/// The `expect` block of a scenario file. Every field is optional: only what is given is
/// checked.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// Per seat (`"p1"`, `"p2"` …).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub players: BTreeMap<Seat, PlayerExpect>,
    /// The seat to decide (`null`: nobody, the game is over).
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub to_move: Option<Value>,
    /// Whether the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub over: Option<bool>,
    /// The winners (`[]`: a draw, or nobody yet).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winners: Option<Vec<Seat>>,
    /// The pending decision as the state's JSON writes it (`{"decision": "discard", "seat":
    /// "p2", "left": 1}`); only the keys given are compared. `null`: no decision pending.
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub pending: Option<Value>,
    /// The turn number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<u32>,
    /// The trade row, five slots (`null`: an empty one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub row: Option<Vec<Option<CardId>>>,
    /// Cards left in the trade deck.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trade_deck_count: Option<usize>,
    /// Explorers in their pile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explorers: Option<u8>,
    /// The scrap heap, in any order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scrap_heap: Option<Vec<CardId>>,
    /// Actions that must be legal now, in text form.
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

/// One expectation that does not hold.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Mismatch {
    /// The field of `expect` (`players.p2.authority`, `legal[1]`).
    pub field: String,
    /// What the file expects.
    pub expected: Value,
    /// What the position has.
    pub found: Value,
}

fn json<T: Serialize>(v: &T) -> Value {
    serde_json::to_value(v).expect("a value serializes")
}

fn sorted(cards_: &[CardId]) -> Vec<CardId> {
    let mut v = cards_.to_vec();
    v.sort();
    v
}

fn in_play(specs: &[InPlaySpec]) -> Vec<CardId> {
    specs
        .iter()
        .map(|s| match s {
            InPlaySpec::Name(c) => *c,
            InPlaySpec::Full(p) => p.card,
        })
        .collect()
}

/// Whether every key of `expected` is in `found` with the same value (objects), or the two
/// are equal (anything else).
fn matches(expected: &Value, found: &Value) -> bool {
    match (expected, found) {
        (Value::Object(e), Value::Object(f)) => e
            .iter()
            .all(|(k, v)| f.get(k).is_some_and(|x| matches(v, x))),
        _ => expected == found,
    }
}

/// Adds a mismatch to `out` unless `found` matches `expected`.
fn compare(out: &mut Vec<Mismatch>, field: String, expected: Value, found: Value) {
    if !matches(&expected, &found) {
        out.push(Mismatch {
            field,
            expected,
            found,
        });
    }
}

impl Expect {
    /// Checks `state`; returns every expectation that does not hold, in the order of the
    /// fields above (empty: all hold).
    pub fn check(&self, state: &State) -> Vec<Mismatch> {
        let mut out = Vec::new();
        let setup = Setup::from_state(state);
        for (&seat, e) in &self.players {
            let at = |f: &str| format!("players.{seat}.{f}");
            let Some(p) = setup.players.get(seat.index()) else {
                compare(
                    &mut out,
                    at("").trim_end_matches('.').into(),
                    json(&seat),
                    Value::Null,
                );
                continue;
            };
            if let Some(v) = e.authority {
                compare(&mut out, at("authority"), json(&v), json(&p.authority));
            }
            if let Some(v) = e.trade {
                compare(&mut out, at("trade"), json(&v), json(&p.trade));
            }
            if let Some(v) = e.combat {
                compare(&mut out, at("combat"), json(&v), json(&p.combat));
            }
            if let Some(v) = e.alive {
                compare(&mut out, at("alive"), json(&v), json(&p.alive));
            }
            if let Some(v) = &e.hand {
                compare(
                    &mut out,
                    at("hand"),
                    json(&sorted(v)),
                    json(&sorted(&p.hand)),
                );
            }
            if let Some(v) = e.hand_count {
                compare(&mut out, at("hand_count"), json(&v), json(&p.hand.len()));
            }
            if let Some(v) = &e.deck {
                compare(&mut out, at("deck"), json(v), json(&p.deck));
            }
            if let Some(v) = e.deck_count {
                compare(&mut out, at("deck_count"), json(&v), json(&p.deck.len()));
            }
            if let Some(v) = &e.discard {
                compare(&mut out, at("discard"), json(v), json(&p.discard));
            }
            if let Some(v) = e.discard_count {
                compare(
                    &mut out,
                    at("discard_count"),
                    json(&v),
                    json(&p.discard.len()),
                );
            }
            if let Some(v) = &e.ships {
                compare(&mut out, at("ships"), json(v), json(&in_play(&p.ships)));
            }
            if let Some(v) = &e.bases {
                compare(&mut out, at("bases"), json(v), json(&in_play(&p.bases)));
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
        if let Some(v) = self.over {
            compare(&mut out, "over".into(), json(&v), json(&state.over));
        }
        if let Some(v) = &self.winners {
            compare(&mut out, "winners".into(), json(v), json(&state.winners()));
        }
        if let Some(v) = &self.pending {
            let found = json(&state.pending);
            // `null` expects no decision; an object, one whose given keys match.
            let ok = if v.is_null() {
                found.is_null()
            } else {
                matches(v, &found)
            };
            if !ok {
                out.push(Mismatch {
                    field: "pending".into(),
                    expected: v.clone(),
                    found,
                });
            }
        }
        if let Some(v) = self.turn {
            compare(&mut out, "turn".into(), json(&v), json(&state.turn));
        }
        if let Some(v) = &self.row {
            compare(&mut out, "row".into(), json(v), json(&setup.row));
        }
        if let Some(v) = self.trade_deck_count {
            let n = match &setup.trade_deck {
                TradeDeckSpec::Cards(c) => c.len(),
                TradeDeckSpec::Rest => 0,
            };
            compare(&mut out, "trade_deck_count".into(), json(&v), json(&n));
        }
        if let Some(v) = self.explorers {
            compare(
                &mut out,
                "explorers".into(),
                json(&v),
                json(&state.explorers),
            );
        }
        if let Some(v) = &self.scrap_heap {
            compare(
                &mut out,
                "scrap_heap".into(),
                json(&sorted(v)),
                json(&sorted(&state.scrap_heap)),
            );
        }
        let legal = state.legal_actions();
        for (list, must, name) in [
            (&self.legal, true, "legal"),
            (&self.illegal, false, "illegal"),
        ] {
            for (i, text) in list.iter().enumerate() {
                let field = format!("{name}[{i}]");
                match text.parse::<Action>() {
                    Err(e) => out.push(Mismatch {
                        field,
                        expected: json(text),
                        found: json(&format!("not an action: {e}")),
                    }),
                    Ok(a) if legal.contains(&a) != must => out.push(Mismatch {
                        field,
                        expected: json(&format!(
                            "{text} {}",
                            if must { "legal" } else { "illegal" }
                        )),
                        found: json(&format!(
                            "{text} {}",
                            if must { "illegal" } else { "legal" }
                        )),
                    }),
                    Ok(_) => {}
                }
            }
        }
        out
    }
}
