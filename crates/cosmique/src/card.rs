//! The 44 cards: 40 meteors (four colours, values 1 to 5, each value twice per colour) and four
//! "+2" cards. Cards of one kind are interchangeable, so a card is its kind: 21 kinds, with dense
//! ids `0..21` (meteors by colour then value, then the "+2").
//!
//! Text forms: `red3`, `blue5`, `green1`, `yellow4`, `plus2` (French colour names and `+2`
//! are read too: `rouge3`, `+2`).

use std::fmt;
use std::str::FromStr;

use game::Seat;
use serde::{Deserialize, Serialize};

/// Kinds of meteor (4 colours × 5 values).
pub const METEOR_KINDS: usize = 20;
/// Kinds of card (the meteors, then the "+2").
pub const CARD_KINDS: usize = METEOR_KINDS + 1;
/// Copies of each meteor (colour, value) in the game.
pub const COPIES_PER_METEOR: u8 = 2;
/// "+2" cards in the game.
pub const PLUS2_CARDS: u8 = 4;
/// Cards in the game.
pub const DECK_SIZE: usize = METEOR_KINDS * COPIES_PER_METEOR as usize + PLUS2_CARDS as usize;

/// A planet's colour; planet `p1` is red, `p2` blue, `p3` green, `p4` yellow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    /// Red, the colour of `p1`.
    Red,
    /// Blue, the colour of `p2`.
    Blue,
    /// Green, the colour of `p3`.
    Green,
    /// Yellow, the colour of `p4`.
    Yellow,
}

impl Colour {
    /// The four colours, in seat order.
    pub const ALL: [Colour; 4] = [Colour::Red, Colour::Blue, Colour::Green, Colour::Yellow];

    /// The colour of a planet.
    ///
    /// # Panics
    /// If `seat` is not one of the four planets.
    #[inline]
    pub fn of(seat: Seat) -> Colour {
        Colour::ALL[seat.index()]
    }

    /// The planet of this colour.
    #[inline]
    pub const fn seat(self) -> Seat {
        Seat(self as u8)
    }

    /// The colour's name in text forms (`red`).
    pub const fn name(self) -> &'static str {
        match self {
            Colour::Red => "red",
            Colour::Blue => "blue",
            Colour::Green => "green",
            Colour::Yellow => "yellow",
        }
    }

    fn read(name: &str) -> Option<Colour> {
        Some(match name {
            "red" | "rouge" => Colour::Red,
            "blue" | "bleu" => Colour::Blue,
            "green" | "vert" => Colour::Green,
            "yellow" | "jaune" => Colour::Yellow,
            _ => return None,
        })
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A meteor: a colour and a value from 1 to 5. Ordered by colour, then value.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Meteor(u8);

impl Meteor {
    /// The meteor of a colour and a value.
    ///
    /// # Panics
    /// If `value` is not between 1 and 5.
    pub const fn new(colour: Colour, value: u8) -> Meteor {
        assert!(value >= 1 && value <= 5, "a meteor's value is 1 to 5");
        Meteor(colour as u8 * 5 + value - 1)
    }

    /// Its colour.
    #[inline]
    pub const fn colour(self) -> Colour {
        Colour::ALL[(self.0 / 5) as usize]
    }

    /// Its value, 1 to 5.
    #[inline]
    pub const fn value(self) -> u8 {
        self.0 % 5 + 1
    }

    /// Dense id, below [`METEOR_KINDS`] (also its [`Card::id`]).
    #[inline]
    pub const fn id(self) -> usize {
        self.0 as usize
    }

    /// The meteor of a dense id.
    pub const fn from_id(id: usize) -> Option<Meteor> {
        if id < METEOR_KINDS {
            Some(Meteor(id as u8))
        } else {
            None
        }
    }

    /// The 20 kinds of meteor, in order.
    pub fn all() -> impl Iterator<Item = Meteor> {
        (0..METEOR_KINDS as u8).map(Meteor)
    }
}

impl fmt::Display for Meteor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.colour(), self.value())
    }
}

impl fmt::Debug for Meteor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A card: a meteor or a "+2" (a "×2" in the 30-life variant). Ordered meteors first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Card {
    /// A meteor.
    Meteor(Meteor),
    /// The "+2" card: joins an attack, never plays alone.
    Plus2,
}

impl Card {
    /// The card of a meteor's colour and value.
    ///
    /// # Panics
    /// If `value` is not between 1 and 5.
    pub const fn meteor(colour: Colour, value: u8) -> Card {
        Card::Meteor(Meteor::new(colour, value))
    }

    /// Dense id, below [`CARD_KINDS`].
    #[inline]
    pub const fn id(self) -> usize {
        match self {
            Card::Meteor(m) => m.id(),
            Card::Plus2 => METEOR_KINDS,
        }
    }

    /// The card of a dense id.
    pub const fn from_id(id: usize) -> Option<Card> {
        match Meteor::from_id(id) {
            Some(m) => Some(Card::Meteor(m)),
            None if id == METEOR_KINDS => Some(Card::Plus2),
            None => None,
        }
    }

    /// The meteor, if it is one.
    #[inline]
    pub const fn as_meteor(self) -> Option<Meteor> {
        match self {
            Card::Meteor(m) => Some(m),
            Card::Plus2 => None,
        }
    }

    /// The 21 kinds of card, in order.
    pub fn kinds() -> impl Iterator<Item = Card> {
        (0..CARD_KINDS).filter_map(Card::from_id)
    }

    /// How many cards of this kind the game has (2 of each meteor, 4 "+2").
    pub const fn copies(self) -> u8 {
        match self {
            Card::Meteor(_) => COPIES_PER_METEOR,
            Card::Plus2 => PLUS2_CARDS,
        }
    }

    /// All 44 cards of the game, sorted.
    pub fn deck() -> Vec<Card> {
        Card::kinds()
            .flat_map(|c| std::iter::repeat_n(c, c.copies() as usize))
            .collect()
    }
}

impl From<Meteor> for Card {
    fn from(m: Meteor) -> Card {
        Card::Meteor(m)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Card::Meteor(m) => fmt::Display::fmt(m, f),
            Card::Plus2 => f.write_str("plus2"),
        }
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A text that names no card.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a card (expected a colour and a value, like red3, or plus2)")]
pub struct BadCard(pub String);

impl FromStr for Card {
    type Err = BadCard;
    fn from_str(s: &str) -> Result<Card, BadCard> {
        let lower = s.trim().to_ascii_lowercase();
        if lower == "plus2" || lower == "+2" {
            return Ok(Card::Plus2);
        }
        let bad = || BadCard(s.to_string());
        let split = lower.len().checked_sub(1).ok_or_else(bad)?;
        let (name, digit) = lower.split_at(split);
        let colour = Colour::read(name).ok_or_else(bad)?;
        match digit.parse::<u8>() {
            Ok(v @ 1..=5) => Ok(Card::meteor(colour, v)),
            _ => Err(bad()),
        }
    }
}

impl FromStr for Meteor {
    type Err = BadCard;
    fn from_str(s: &str) -> Result<Meteor, BadCard> {
        s.parse::<Card>()?
            .as_meteor()
            .ok_or_else(|| BadCard(s.to_string()))
    }
}

macro_rules! serde_as_text {
    ($t:ty) => {
        impl Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }

        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = String::deserialize(d)?;
                // Worded by the translation table, so that a reader's error can be read back
                // in the reader's language.
                s.parse().map_err(|e: BadCard| {
                    serde::de::Error::custom(
                        game::refusal::Why::new("file.cosmique.not_a_card", &[("word", &e.0)])
                            .english(),
                    )
                })
            }
        }
    };
}

serde_as_text!(Card);
serde_as_text!(Meteor);

/// A multiset of cards (a hand, or the part of a hand everybody knows): a count per kind.
/// Iteration is in card order, so a hand always reads sorted.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Hand([u8; CARD_KINDS]);

impl Hand {
    /// An empty hand.
    pub const fn new() -> Hand {
        Hand([0; CARD_KINDS])
    }

    /// Copies of `card`.
    #[inline]
    pub fn count(&self, card: Card) -> u8 {
        self.0[card.id()]
    }

    /// Number of cards.
    #[inline]
    pub fn len(&self) -> usize {
        self.0.iter().map(|&n| n as usize).sum()
    }

    /// Whether it holds no card.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&n| n == 0)
    }

    /// Whether it holds at least one `card`.
    #[inline]
    pub fn contains(&self, card: Card) -> bool {
        self.0[card.id()] > 0
    }

    /// Adds a card.
    #[inline]
    pub fn add(&mut self, card: Card) {
        self.0[card.id()] += 1;
    }

    /// Removes one `card`; false if there was none.
    #[inline]
    pub fn remove(&mut self, card: Card) -> bool {
        let n = &mut self.0[card.id()];
        if *n == 0 {
            return false;
        }
        *n -= 1;
        true
    }

    /// Empties the hand.
    pub fn clear(&mut self) {
        self.0 = [0; CARD_KINDS];
    }

    /// The cards, sorted, each as often as held.
    pub fn iter(&self) -> impl Iterator<Item = Card> + '_ {
        self.0.iter().enumerate().flat_map(|(id, &n)| {
            std::iter::repeat_n(Card::from_id(id).expect("a kind"), n as usize)
        })
    }

    /// The kinds held, sorted, once each.
    pub fn distinct(&self) -> impl Iterator<Item = Card> + '_ {
        self.0
            .iter()
            .enumerate()
            .filter(|&(_, &n)| n > 0)
            .map(|(id, _)| Card::from_id(id).expect("a kind"))
    }

    /// The cards, sorted.
    pub fn to_vec(&self) -> Vec<Card> {
        self.iter().collect()
    }

    /// Counts per kind, indexed by [`Card::id`].
    #[inline]
    pub fn counts(&self) -> &[u8; CARD_KINDS] {
        &self.0
    }

    /// Whether every card of `other` is in this hand (as a multiset).
    pub fn includes(&self, other: &Hand) -> bool {
        self.0.iter().zip(other.0.iter()).all(|(a, b)| a >= b)
    }
}

impl FromIterator<Card> for Hand {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> Hand {
        let mut h = Hand::new();
        for c in iter {
            h.add(c);
        }
        h
    }
}

impl fmt::Debug for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&list(self.iter()))
    }
}

/// `[red3 plus2]`.
pub(crate) fn list(cards: impl IntoIterator<Item = Card>) -> String {
    let names: Vec<String> = cards.into_iter().map(|c| c.to_string()).collect();
    format!("[{}]", names.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_dense_and_ordered() {
        let kinds: Vec<Card> = Card::kinds().collect();
        assert_eq!(kinds.len(), CARD_KINDS);
        assert!(kinds.windows(2).all(|w| w[0] < w[1]));
        for (i, c) in kinds.iter().enumerate() {
            assert_eq!(c.id(), i);
        }
        assert_eq!(Card::from_id(CARD_KINDS), None);
    }

    #[test]
    fn hands_count_and_iterate_sorted() {
        let h: Hand = ["plus2", "red3", "blue1", "red3"]
            .iter()
            .map(|t| t.parse::<Card>().unwrap())
            .collect();
        assert_eq!(format!("{h:?}"), "[red3 red3 blue1 plus2]");
        assert_eq!(h.len(), 4);
        assert_eq!(h.distinct().count(), 3);
    }
}
