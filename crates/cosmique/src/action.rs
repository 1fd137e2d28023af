//! Bataille Cosmique actions: a small `Copy` enum with a stable text form and a dense index.
//!
//! Slots are named by side, from the acting planet's point of view: `left` faces the next living
//! planet clockwise, `right` the previous one. Two survivors face each other on both sides, so a
//! seat would not name a slot; a side always does.
//!
//! | action | text |
//! |---|---|
//! | attack the neighbour on a side | `attack left red3` |
//! | attack with a "+2" (both actions) | `attack right blue5 plus2` |
//! | prepare a defence on an empty slot | `defend left green2` |
//! | replace a defence | `replace right yellow4` |
//! | take one's orbit card | `take orbit` |
//! | give a card, take another planet's orbit card | `swap p3 red1` |
//! | end the turn early | `end` |

use std::fmt;

use game::refusal::reason;
use game::{ActionError, Reason, Seat};
use serde::{Deserialize, Serialize};

use crate::card::{CARD_KINDS, Card, METEOR_KINDS, Meteor};
use crate::state::SEATS;

/// One of a planet's two sides (and the attack/defence slot on it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// Towards the next living planet clockwise.
    Left,
    /// Towards the previous living planet clockwise.
    Right,
}

impl Side {
    /// Both sides, left first.
    pub const BOTH: [Side; 2] = [Side::Left, Side::Right];

    /// 0 for left, 1 for right.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other side. An attack sent to the left lands in the target's right slot (the target's
    /// slot facing the attacker).
    #[inline]
    pub const fn opposite(self) -> Side {
        match self {
            Side::Left => Side::Right,
            Side::Right => Side::Left,
        }
    }

    /// `left` or `right`.
    pub const fn name(self) -> &'static str {
        match self {
            Side::Left => "left",
            Side::Right => "right",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One decision of the planet whose turn it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// Put a meteor face down in the slot of the neighbour on `side` that faces the attacker;
    /// with `plus2`, a "+2" from hand joins it (both actions of the turn):
    /// `attack <side> <meteor> [plus2]`.
    Attack {
        /// Which neighbour.
        side: Side,
        /// The meteor (any colour).
        meteor: Meteor,
        /// Whether a "+2" goes with it.
        plus2: bool,
    },
    /// Put a meteor face down as the defence of one's own slot on `side` (which has none):
    /// `defend <side> <meteor>`.
    Defend {
        /// Which slot.
        side: Side,
        /// The meteor.
        meteor: Meteor,
    },
    /// Discard the defence of one's slot on `side` and put a meteor from hand face down in its
    /// place: `replace <side> <meteor>`.
    Replace {
        /// Which slot.
        side: Side,
        /// The new defence.
        meteor: Meteor,
    },
    /// Take one's orbit card into hand; the orbit is refilled face up from the solar pile:
    /// `take orbit`.
    TakeOrbit,
    /// Give `card` from hand to `seat`'s orbit (face up) and take the card that was there:
    /// `swap <seat> <card>`.
    Swap {
        /// Whose orbit.
        seat: Seat,
        /// The card given.
        card: Card,
    },
    /// End the turn before its second action: `end`.
    End,
}

const ATTACKS: usize = 2 * METEOR_KINDS * 2;
const DEFENDS: usize = 2 * METEOR_KINDS;
const SWAPS: usize = SEATS * CARD_KINDS;
/// Dense-index layout: the size of each variant's block, in declaration order.
const LAYOUT: [usize; 6] = [ATTACKS, DEFENDS, DEFENDS, 1, SWAPS, 1];

impl Action {
    fn block_and_offset(&self) -> (usize, usize) {
        match *self {
            Action::Attack {
                side,
                meteor,
                plus2,
            } => (
                0,
                side.index() * 2 * METEOR_KINDS + meteor.id() * 2 + plus2 as usize,
            ),
            Action::Defend { side, meteor } => (1, side.index() * METEOR_KINDS + meteor.id()),
            Action::Replace { side, meteor } => (2, side.index() * METEOR_KINDS + meteor.id()),
            Action::TakeOrbit => (3, 0),
            Action::Swap { seat, card } => (4, seat.index() * CARD_KINDS + card.id()),
            Action::End => (5, 0),
        }
    }

    fn from_block(block: usize, o: usize) -> Option<Action> {
        let side = |o: usize| Side::BOTH[o];
        let meteor = |id: usize| Meteor::from_id(id).expect("in range");
        Some(match block {
            0 => Action::Attack {
                side: side(o / (2 * METEOR_KINDS)),
                meteor: meteor(o % (2 * METEOR_KINDS) / 2),
                plus2: o % 2 == 1,
            },
            1 => Action::Defend {
                side: side(o / METEOR_KINDS),
                meteor: meteor(o % METEOR_KINDS),
            },
            2 => Action::Replace {
                side: side(o / METEOR_KINDS),
                meteor: meteor(o % METEOR_KINDS),
            },
            3 => Action::TakeOrbit,
            4 => Action::Swap {
                seat: Seat((o / CARD_KINDS) as u8),
                card: Card::from_id(o % CARD_KINDS).expect("in range"),
            },
            5 => Action::End,
            _ => return None,
        })
    }
}

impl game::Action for Action {
    fn space_size() -> usize {
        LAYOUT.iter().sum()
    }

    /// Dense index. Every action that parses has one; a hand-built `Swap` naming a seat beyond
    /// `p4` has none.
    ///
    /// # Panics
    /// If the action is a `Swap` with a seat beyond `p4`.
    fn index(&self) -> usize {
        let (block, offset) = self.block_and_offset();
        assert!(
            offset < LAYOUT[block],
            "{self} has no index (only p1 to p4 exist)"
        );
        game::dense_index(&LAYOUT, block, offset)
    }

    fn from_index(index: usize) -> Option<Self> {
        let (block, offset) = game::dense_block(&LAYOUT, index)?;
        Action::from_block(block, offset)
    }

    fn parse(text: &str) -> Result<Self, ActionError> {
        text.parse()
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Action::Attack {
                side,
                meteor,
                plus2,
            } => {
                write!(f, "attack {side} {meteor}")?;
                if plus2 {
                    f.write_str(" plus2")?;
                }
                Ok(())
            }
            Action::Defend { side, meteor } => write!(f, "defend {side} {meteor}"),
            Action::Replace { side, meteor } => write!(f, "replace {side} {meteor}"),
            Action::TakeOrbit => f.write_str("take orbit"),
            Action::Swap { seat, card } => write!(f, "swap {seat} {card}"),
            Action::End => f.write_str("end"),
        }
    }
}

impl std::str::FromStr for Action {
    type Err = ActionError;

    /// Parses the text form (case-insensitive; `+2` and `x2` are read as `plus2`).
    fn from_str(text: &str) -> Result<Self, ActionError> {
        let fail = |why: Reason| ActionError::Parse {
            text: text.to_string(),
            reason: game::refusal::in_english(&why),
            why: Some(Box::new(why)),
        };
        let lower = text.to_ascii_lowercase();
        let words: Vec<&str> = lower.split_whitespace().collect();
        let exact = |n: usize| -> Result<(), ActionError> {
            match words.get(n..) {
                Some([]) => Ok(()),
                Some(extra) => Err(fail(reason(
                    "parse_unexpected",
                    &[("words", &extra.join(" "))],
                ))),
                None => Err(fail(reason("cosmique_parse_words", &[]))),
            }
        };
        let side = |i: usize| -> Result<Side, ActionError> {
            match words.get(i) {
                Some(&"left") => Ok(Side::Left),
                Some(&"right") => Ok(Side::Right),
                Some(w) => Err(fail(reason("cosmique_parse_side", &[("word", w)]))),
                None => Err(fail(reason("cosmique_parse_no_side", &[]))),
            }
        };
        let card = |i: usize| -> Result<Card, ActionError> {
            let w = words
                .get(i)
                .ok_or_else(|| fail(reason("cosmique_parse_no_card", &[])))?;
            w.parse::<Card>()
                .map_err(|_| fail(reason("cosmique_parse_card", &[("word", w)])))
        };
        let meteor = |i: usize| -> Result<Meteor, ActionError> {
            card(i)?
                .as_meteor()
                .ok_or_else(|| fail(reason("cosmique_parse_plus2_meteor", &[])))
        };
        let Some(&first) = words.first() else {
            return Err(fail(reason("parse_empty", &[])));
        };
        match first {
            "attack" => {
                let (side, meteor) = (side(1)?, meteor(2)?);
                let plus2 = match words.get(3) {
                    None => false,
                    Some(&("plus2" | "+2" | "x2")) => true,
                    Some(w) => {
                        return Err(fail(reason("cosmique_parse_plus2", &[("word", w)])));
                    }
                };
                exact(3 + plus2 as usize)?;
                Ok(Action::Attack {
                    side,
                    meteor,
                    plus2,
                })
            }
            "defend" => {
                let a = Action::Defend {
                    side: side(1)?,
                    meteor: meteor(2)?,
                };
                exact(3)?;
                Ok(a)
            }
            "replace" => {
                let a = Action::Replace {
                    side: side(1)?,
                    meteor: meteor(2)?,
                };
                exact(3)?;
                Ok(a)
            }
            "take" => {
                if words.get(1) != Some(&"orbit") {
                    return Err(fail(reason("cosmique_parse_take", &[])));
                }
                exact(2)?;
                Ok(Action::TakeOrbit)
            }
            "swap" => {
                let w = words
                    .get(1)
                    .ok_or_else(|| fail(reason("cosmique_parse_no_seat", &[])))?;
                let seat: Seat = w
                    .parse()
                    .map_err(|_| fail(reason("cosmique_parse_seat", &[("word", w)])))?;
                if seat.index() >= SEATS {
                    return Err(fail(reason("cosmique_no_planet", &[("seat", &seat)])));
                }
                let card = card(2)?;
                exact(3)?;
                Ok(Action::Swap { seat, card })
            }
            "end" => {
                exact(1)?;
                Ok(Action::End)
            }
            _ => Err(fail(reason("parse_unknown", &[]))),
        }
    }
}

impl Serialize for Action {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Action {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}
