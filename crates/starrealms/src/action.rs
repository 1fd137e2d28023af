//! Star Realms actions: a small `Copy` enum with a stable text form and a dense index.
//!
//! Cards in a hand or a discard pile are named by their card id (`play blob_fighter`): copies of a
//! card are interchangeable there. Cards in play are named by their position (`ally ship 2`,
//! `primary base 0`), trade-row cards by their slot (`buy row 3`), seats as `p1`…`p6`.

use std::fmt;

use game::{ActionError, MAX_SEATS, Reason, Seat};
use serde::{Deserialize, Serialize};

use crate::cards::{CardId, SHEET_ROWS};
use crate::config::MAX_SHEETS;
use crate::refusal::reason;

/// Slots in the trade row.
pub const ROW_SIZE: usize = 5;
/// Ship positions the dense index can name (no player can own more cards than this).
pub const MAX_SHIPS: usize = 128;
/// Base positions the dense index can name.
pub const MAX_BASES: usize = 64;
/// Largest amount one `attack` action deals to a player; more is dealt in several actions,
/// which the rules allow since combat may be split freely.
pub const MAX_ATTACK: usize = 64;
/// Most options of a `choose`.
pub const MAX_OPTIONS: usize = 4;

/// One decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// Play a card from hand: `play <card>`.
    Play(CardId),
    /// Use a base's primary ability: `primary base <i>`.
    Primary(u8),
    /// Use the ally ability of a ship in play: `ally ship <i>`.
    AllyShip(u8),
    /// Use the ally ability of a base: `ally base <i>`.
    AllyBase(u8),
    /// Use the double-ally ability of a ship in play: `double ally ship <i>`.
    DoubleAllyShip(u8),
    /// Use the double-ally ability of a base: `double ally base <i>`.
    DoubleAllyBase(u8),
    /// Use the scrap ability of a ship in play (scrapping it): `scrap ship <i>`.
    ScrapShip(u8),
    /// Use the scrap ability of a base (scrapping it): `scrap base <i>`.
    ScrapBase(u8),
    /// Acquire the card of a trade-row slot: `buy row <slot>`.
    BuyRow(u8),
    /// Acquire the card of a trade-row slot and upgrade it with the sticker of row `r` of the
    /// player's sheet `s` (*Rise of Empire*; both counted from 0 here, from 1 in the text):
    /// `buy row <slot> upgrade s<s> r<r>`.
    BuyUpgrade(u8, u8, u8),
    /// Acquire an Explorer: `buy explorer`.
    BuyExplorer,
    /// Spend combat on a player: `attack <seat> <amount>`.
    AttackPlayer(Seat, u8),
    /// Spend a base's defense to destroy it: `attack <seat> base <i>`.
    AttackBase(Seat, u8),
    /// Pay 1 trade to move a card of the discard pile to a teammate's (Emperor format):
    /// `give <seat> <card>`.
    Give(CardId, Seat),
    /// Move trade to a teammate's pool (Hydra): `transfer <seat> trade <n>`.
    TransferTrade(Seat, u8),
    /// Move combat to a teammate's pool (Hydra, *Rise of Empire*): `transfer <seat> combat <n>`.
    TransferCombat(Seat, u8),
    /// Hand the team's turn to a teammate who has not ended it (Hydra): `switch <seat>`.
    Switch(Seat),
    /// End the main phase (discard and draw follow): `end`.
    End,
    /// Pick option `n` of a "choose one": `choose <n>`.
    Choose(u8),
    /// Scrap a card from hand: `scrap hand <card>`.
    ScrapHand(CardId),
    /// Scrap a card from the discard pile: `scrap discard <card>`.
    ScrapDiscard(CardId),
    /// Scrap a trade-row card: `scrap row <slot>`.
    ScrapRow(u8),
    /// Destroy a target base: `destroy <seat> base <i>`.
    Destroy(Seat, u8),
    /// Discard a card from hand: `discard <card>`.
    Discard(CardId),
    /// Pick the target opponent: `target <seat>`.
    Target(Seat),
    /// Copy a ship in play: `copy ship <i>`.
    Copy(u8),
    /// Copy a base in play, of any seat: `copy <seat> base <i>`.
    CopyBase(Seat, u8),
    /// Acquire a trade-row ship for free: `acquire row <slot>`.
    AcquireRow(u8),
    /// Acquire a trade-row ship for free and upgrade it (paying the upgrade):
    /// `acquire row <slot> upgrade s<s> r<r>`.
    AcquireUpgrade(u8, u8, u8),
    /// Acquire an Explorer for free: `acquire explorer`.
    AcquireExplorer,
    /// Put the ship just acquired on top of the deck: `top`.
    Top,
    /// Put a base of the discard pile on top of the deck: `top <card>`.
    TopBase(CardId),
    /// Put the card just acquired into the hand: `hand`.
    ToHand,
    /// Decline an optional effect or stop an "up to": `pass`.
    Pass,
    /// A fallen player passes one of its cards on: `bequeath <card>`.
    Bequeath(CardId),
}

/// Upgrade choices of one acquisition block: slot × sheet × row.
const UPGRADES: usize = ROW_SIZE * MAX_SHEETS * SHEET_ROWS;

fn upgrade_offset(slot: u8, sheet: u8, row: u8) -> usize {
    (slot as usize * MAX_SHEETS + sheet as usize) * SHEET_ROWS + row as usize
}

fn upgrade_of(o: usize) -> (u8, u8, u8) {
    (
        (o / (MAX_SHEETS * SHEET_ROWS)) as u8,
        (o / SHEET_ROWS % MAX_SHEETS) as u8,
        (o % SHEET_ROWS) as u8,
    )
}

fn kinds() -> usize {
    crate::cards().len()
}

/// Dense-index layout: (variant, size) in order.
fn layout() -> [usize; 35] {
    let k = kinds();
    [
        k,                      // Play
        MAX_BASES,              // Primary
        MAX_SHIPS,              // AllyShip
        MAX_BASES,              // AllyBase
        MAX_SHIPS,              // ScrapShip
        MAX_BASES,              // ScrapBase
        ROW_SIZE,               // BuyRow
        1,                      // BuyExplorer
        MAX_SEATS * MAX_ATTACK, // AttackPlayer
        MAX_SEATS * MAX_BASES,  // AttackBase
        1,                      // End
        MAX_OPTIONS,            // Choose
        k,                      // ScrapHand
        k,                      // ScrapDiscard
        ROW_SIZE,               // ScrapRow
        MAX_SEATS * MAX_BASES,  // Destroy
        k,                      // Discard
        MAX_SEATS,              // Target
        MAX_SHIPS,              // Copy
        ROW_SIZE,               // AcquireRow
        1,                      // AcquireExplorer
        1,                      // Top
        1,                      // Pass
        k * MAX_SEATS,          // Give
        k,                      // Bequeath
        MAX_SEATS * MAX_ATTACK, // TransferTrade
        MAX_SEATS * MAX_ATTACK, // TransferCombat
        MAX_SEATS,              // Switch
        UPGRADES,               // BuyUpgrade
        UPGRADES,               // AcquireUpgrade
        MAX_SEATS * MAX_BASES,  // CopyBase
        1,                      // ToHand
        MAX_SHIPS,              // DoubleAllyShip
        MAX_BASES,              // DoubleAllyBase
        k,                      // TopBase
    ]
}

impl Action {
    fn variant_and_offset(&self) -> (usize, usize) {
        use Action::*;
        let c = |id: CardId| id.0 as usize;
        match *self {
            Play(id) => (0, c(id)),
            Primary(i) => (1, i as usize),
            AllyShip(i) => (2, i as usize),
            AllyBase(i) => (3, i as usize),
            ScrapShip(i) => (4, i as usize),
            ScrapBase(i) => (5, i as usize),
            BuyRow(i) => (6, i as usize),
            BuyExplorer => (7, 0),
            AttackPlayer(s, n) => (8, s.index() * MAX_ATTACK + (n as usize - 1)),
            AttackBase(s, i) => (9, s.index() * MAX_BASES + i as usize),
            End => (10, 0),
            Choose(i) => (11, i as usize),
            ScrapHand(id) => (12, c(id)),
            ScrapDiscard(id) => (13, c(id)),
            ScrapRow(i) => (14, i as usize),
            Destroy(s, i) => (15, s.index() * MAX_BASES + i as usize),
            Discard(id) => (16, c(id)),
            Target(s) => (17, s.index()),
            Copy(i) => (18, i as usize),
            AcquireRow(i) => (19, i as usize),
            AcquireExplorer => (20, 0),
            Top => (21, 0),
            Pass => (22, 0),
            Give(id, s) => (23, c(id) * MAX_SEATS + s.index()),
            Bequeath(id) => (24, c(id)),
            TransferTrade(s, n) => (25, s.index() * MAX_ATTACK + (n as usize - 1)),
            TransferCombat(s, n) => (26, s.index() * MAX_ATTACK + (n as usize - 1)),
            Switch(s) => (27, s.index()),
            BuyUpgrade(a, b, c) => (28, upgrade_offset(a, b, c)),
            AcquireUpgrade(a, b, c) => (29, upgrade_offset(a, b, c)),
            CopyBase(s, i) => (30, s.index() * MAX_BASES + i as usize),
            ToHand => (31, 0),
            DoubleAllyShip(i) => (32, i as usize),
            DoubleAllyBase(i) => (33, i as usize),
            TopBase(id) => (34, c(id)),
        }
    }

    fn from_variant(v: usize, o: usize) -> Option<Action> {
        use Action::*;
        let card = |o: usize| CardId(o as u16);
        let seat = |o: usize, per: usize| Seat((o / per) as u8);
        Some(match v {
            0 => Play(card(o)),
            1 => Primary(o as u8),
            2 => AllyShip(o as u8),
            3 => AllyBase(o as u8),
            4 => ScrapShip(o as u8),
            5 => ScrapBase(o as u8),
            6 => BuyRow(o as u8),
            7 => BuyExplorer,
            8 => AttackPlayer(seat(o, MAX_ATTACK), (o % MAX_ATTACK + 1) as u8),
            9 => AttackBase(seat(o, MAX_BASES), (o % MAX_BASES) as u8),
            10 => End,
            11 => Choose(o as u8),
            12 => ScrapHand(card(o)),
            13 => ScrapDiscard(card(o)),
            14 => ScrapRow(o as u8),
            15 => Destroy(seat(o, MAX_BASES), (o % MAX_BASES) as u8),
            16 => Discard(card(o)),
            17 => Target(Seat(o as u8)),
            18 => Copy(o as u8),
            19 => AcquireRow(o as u8),
            20 => AcquireExplorer,
            21 => Top,
            22 => Pass,
            23 => Give(card(o / MAX_SEATS), Seat((o % MAX_SEATS) as u8)),
            24 => Bequeath(card(o)),
            25 => TransferTrade(seat(o, MAX_ATTACK), (o % MAX_ATTACK + 1) as u8),
            26 => TransferCombat(seat(o, MAX_ATTACK), (o % MAX_ATTACK + 1) as u8),
            27 => Switch(Seat(o as u8)),
            28 => {
                let (a, b, c) = upgrade_of(o);
                BuyUpgrade(a, b, c)
            }
            29 => {
                let (a, b, c) = upgrade_of(o);
                AcquireUpgrade(a, b, c)
            }
            30 => CopyBase(seat(o, MAX_BASES), (o % MAX_BASES) as u8),
            31 => ToHand,
            32 => DoubleAllyShip(o as u8),
            33 => DoubleAllyBase(o as u8),
            34 => TopBase(card(o)),
            _ => return None,
        })
    }
}

impl game::Action for Action {
    fn space_size() -> usize {
        layout().iter().sum()
    }

    fn index(&self) -> usize {
        let (v, o) = self.variant_and_offset();
        game::dense_index(&layout(), v, o)
    }

    fn from_index(index: usize) -> Option<Self> {
        let (v, o) = game::dense_block(&layout(), index)?;
        Action::from_variant(v, o)
    }

    fn parse(text: &str) -> Result<Self, ActionError> {
        text.parse()
    }

    fn text(&self) -> String {
        let mut text = Vec::with_capacity(24);
        self.write_text(&mut text);
        String::from_utf8(text).expect("an action's text is ASCII")
    }

    fn write_json_text(&self, out: &mut Vec<u8>) {
        // The text needs no escape (see `write_text`).
        out.push(b'"');
        self.write_text(out);
        out.push(b'"');
    }
}

impl Action {
    /// Appends the text form (`buy row 2`, `play blob_fighter`, `attack p2 5`) to `out`. It is
    /// written for every legal action of every view a server sends, so straight into the
    /// buffer rather than through the formatting machinery; [`fmt::Display`] writes the same.
    /// The text is ASCII letters, digits, `_` and spaces only (card ids are snake_case, which
    /// the card files' check enforces): JSON needs no escape of it.
    pub fn write_text(self, out: &mut Vec<u8>) {
        use Action::*;
        let t = Text(out);
        match self {
            Play(c) => t.word("play ").card(c),
            Primary(i) => t.word("primary base ").num(i),
            AllyShip(i) => t.word("ally ship ").num(i),
            AllyBase(i) => t.word("ally base ").num(i),
            DoubleAllyShip(i) => t.word("double ally ship ").num(i),
            DoubleAllyBase(i) => t.word("double ally base ").num(i),
            ScrapShip(i) => t.word("scrap ship ").num(i),
            ScrapBase(i) => t.word("scrap base ").num(i),
            BuyRow(i) => t.word("buy row ").num(i),
            BuyUpgrade(i, s, r) => t.word("buy row ").num(i).upgrade(s, r),
            BuyExplorer => t.word("buy explorer"),
            AttackPlayer(s, n) => t.word("attack ").seat(s).word(" ").num(n),
            AttackBase(s, i) => t.word("attack ").seat(s).word(" base ").num(i),
            End => t.word("end"),
            Choose(i) => t.word("choose ").num(i),
            ScrapHand(c) => t.word("scrap hand ").card(c),
            ScrapDiscard(c) => t.word("scrap discard ").card(c),
            ScrapRow(i) => t.word("scrap row ").num(i),
            Destroy(s, i) => t.word("destroy ").seat(s).word(" base ").num(i),
            Discard(c) => t.word("discard ").card(c),
            Target(s) => t.word("target ").seat(s),
            Copy(i) => t.word("copy ship ").num(i),
            CopyBase(s, i) => t.word("copy ").seat(s).word(" base ").num(i),
            AcquireRow(i) => t.word("acquire row ").num(i),
            AcquireUpgrade(i, s, r) => t.word("acquire row ").num(i).upgrade(s, r),
            AcquireExplorer => t.word("acquire explorer"),
            Top => t.word("top"),
            TopBase(c) => t.word("top ").card(c),
            ToHand => t.word("hand"),
            Pass => t.word("pass"),
            Give(c, s) => t.word("give ").seat(s).word(" ").card(c),
            Bequeath(c) => t.word("bequeath ").card(c),
            TransferTrade(s, n) => t.word("transfer ").seat(s).word(" trade ").num(n),
            TransferCombat(s, n) => t.word("transfer ").seat(s).word(" combat ").num(n),
            Switch(s) => t.word("switch ").seat(s),
        };
    }
}

/// An action's text being written: words, numbers, seats and card ids, one after the other.
struct Text<'a>(&'a mut Vec<u8>);

impl Text<'_> {
    fn word(self, word: &str) -> Self {
        self.0.extend_from_slice(word.as_bytes());
        self
    }

    fn num(self, n: u8) -> Self {
        game::json::number(self.0, n);
        self
    }

    fn seat(self, seat: Seat) -> Self {
        seat.write_text(self.0);
        self
    }

    fn card(self, card: CardId) -> Self {
        self.0
            .extend_from_slice(crate::cards().def(card).id().as_bytes());
        self
    }

    /// ` upgrade s<sheet> r<row>`, counted from 1.
    fn upgrade(self, sheet: u8, row: u8) -> Self {
        self.word(" upgrade s")
            .num(sheet + 1)
            .word(" r")
            .num(row + 1)
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = Vec::with_capacity(32);
        self.write_text(&mut text);
        f.write_str(std::str::from_utf8(&text).map_err(|_| fmt::Error)?)
    }
}

impl std::str::FromStr for Action {
    type Err = ActionError;

    /// Parses the text form. Card names may be ids or English/French names
    /// (`play Blob Fighter`, `play blob_soldat`).
    fn from_str(text: &str) -> Result<Self, ActionError> {
        use Action::*;
        let fail = |why: Reason| ActionError::Parse {
            text: text.to_string(),
            reason: crate::refusal::in_english(&why),
            why: Some(Box::new(why)),
        };
        let words: Vec<&str> = text.split_whitespace().collect();
        let num = |w: Option<&&str>, max: usize, what: &str| -> Result<u8, ActionError> {
            let w = w.ok_or_else(|| fail(reason("parse_missing", &[("what", &what)])))?;
            match w.parse::<usize>() {
                Ok(n) if n < max => Ok(n as u8),
                _ => Err(fail(reason(
                    "parse_range",
                    &[("word", w), ("what", &what), ("max", &(max - 1))],
                ))),
            }
        };
        let card = |rest: &[&str]| -> Result<CardId, ActionError> {
            // One word (a card's id, as clients send it) is looked up as it is.
            let name = match rest {
                [] => return Err(fail(reason("parse_no_card", &[]))),
                [one] => std::borrow::Cow::Borrowed(*one),
                _ => std::borrow::Cow::Owned(rest.join(" ")),
            };
            crate::cards()
                .find(&name)
                .ok_or_else(|| fail(reason("parse_unknown_card", &[("name", &name)])))
        };
        let seat = |w: Option<&&str>| -> Result<Seat, ActionError> {
            let w = w.ok_or_else(|| fail(reason("parse_no_seat", &[])))?;
            w.parse()
                .map_err(|_: game::BadSeat| fail(reason("parse_seat", &[("word", w)])))
        };
        let end = |n: usize| -> Result<(), ActionError> {
            if words.len() > n {
                Err(fail(reason(
                    "parse_unexpected",
                    &[("words", &words[n..].join(" "))],
                )))
            } else {
                Ok(())
            }
        };
        // `upgrade s<s> r<r>` after `buy row <i>` / `acquire row <i>`, counted from 1.
        let upgrade = |rest: &[&str]| -> Result<Option<(u8, u8)>, ActionError> {
            match rest {
                [] => Ok(None),
                ["upgrade", s, r] => {
                    let n = |w: &str, p: char, max: usize, what: &str| {
                        w.strip_prefix(p)
                            .and_then(|d| d.parse::<usize>().ok())
                            .filter(|&n| (1..=max).contains(&n))
                            .map(|n| (n - 1) as u8)
                            .ok_or_else(|| {
                                fail(reason(
                                    "parse_sticker",
                                    &[("word", &w), ("what", &what), ("p", &p), ("max", &max)],
                                ))
                            })
                    };
                    Ok(Some((
                        n(s, 's', MAX_SHEETS, "refusal.what.sheet")?,
                        n(r, 'r', SHEET_ROWS, "refusal.what.sheet_row")?,
                    )))
                }
                _ => Err(fail(reason("parse_upgrade", &[("words", &rest.join(" "))]))),
            }
        };
        let (first, rest) = words
            .split_first()
            .ok_or_else(|| fail(reason("parse_empty", &[])))?;
        let w1 = rest.first().copied();
        let action = match (*first, w1) {
            ("play", _) => return Ok(Play(card(rest)?)),
            ("discard", _) => return Ok(Discard(card(rest)?)),
            ("bequeath", _) => return Ok(Bequeath(card(rest)?)),
            ("give", _) => {
                let s = seat(rest.first())?;
                return Ok(Give(card(&rest[1..])?, s));
            }
            ("primary", Some("base")) => {
                Primary(num(rest.get(1), MAX_BASES, "refusal.what.base_position")?)
            }
            ("ally", Some("ship")) => {
                AllyShip(num(rest.get(1), MAX_SHIPS, "refusal.what.ship_position")?)
            }
            ("ally", Some("base")) => {
                AllyBase(num(rest.get(1), MAX_BASES, "refusal.what.base_position")?)
            }
            ("double", Some("ally")) => {
                let action = match rest.get(1).copied() {
                    Some("ship") => {
                        DoubleAllyShip(num(rest.get(2), MAX_SHIPS, "refusal.what.ship_position")?)
                    }
                    Some("base") => {
                        DoubleAllyBase(num(rest.get(2), MAX_BASES, "refusal.what.base_position")?)
                    }
                    _ => return Err(fail(reason("parse_double_ally", &[]))),
                };
                end(4)?;
                return Ok(action);
            }
            ("scrap", Some("ship")) => {
                ScrapShip(num(rest.get(1), MAX_SHIPS, "refusal.what.ship_position")?)
            }
            ("scrap", Some("base")) => {
                ScrapBase(num(rest.get(1), MAX_BASES, "refusal.what.base_position")?)
            }
            ("scrap", Some("row")) => {
                ScrapRow(num(rest.get(1), ROW_SIZE, "refusal.what.row_slot")?)
            }
            ("scrap", Some("hand")) => return Ok(ScrapHand(card(&rest[1..])?)),
            ("scrap", Some("discard")) => return Ok(ScrapDiscard(card(&rest[1..])?)),
            ("buy", Some("row")) => {
                let i = num(rest.get(1), ROW_SIZE, "refusal.what.row_slot")?;
                return Ok(match upgrade(rest.get(2..).unwrap_or(&[]))? {
                    None => BuyRow(i),
                    Some((s, r)) => BuyUpgrade(i, s, r),
                });
            }
            ("buy", Some("explorer")) => {
                end(2)?;
                return Ok(BuyExplorer);
            }
            ("acquire", Some("row")) => {
                let i = num(rest.get(1), ROW_SIZE, "refusal.what.row_slot")?;
                return Ok(match upgrade(rest.get(2..).unwrap_or(&[]))? {
                    None => AcquireRow(i),
                    Some((s, r)) => AcquireUpgrade(i, s, r),
                });
            }
            ("acquire", Some("explorer")) => {
                end(2)?;
                return Ok(AcquireExplorer);
            }
            ("attack", _) => {
                let s = seat(rest.first())?;
                if rest.get(1) == Some(&"base") {
                    let i = num(rest.get(2), MAX_BASES, "refusal.what.base_position")?;
                    end(4)?;
                    return Ok(AttackBase(s, i));
                }
                let w = rest
                    .get(1)
                    .ok_or_else(|| fail(reason("parse_no_amount", &[])))?;
                let n: usize = w
                    .parse()
                    .map_err(|_| fail(reason("parse_amount", &[("word", w)])))?;
                if n == 0 || n > MAX_ATTACK {
                    return Err(fail(reason("parse_attack", &[("max", &MAX_ATTACK)])));
                }
                end(3)?;
                return Ok(AttackPlayer(s, n as u8));
            }
            ("destroy", _) => {
                let s = seat(rest.first())?;
                if rest.get(1) != Some(&"base") {
                    return Err(fail(reason("parse_destroy", &[])));
                }
                let i = num(rest.get(2), MAX_BASES, "refusal.what.base_position")?;
                end(4)?;
                return Ok(Destroy(s, i));
            }
            ("switch", _) => {
                let s = seat(rest.first())?;
                end(2)?;
                return Ok(Switch(s));
            }
            ("transfer", _) => {
                let s = seat(rest.first())?;
                let kind = rest.get(1).copied();
                let w = rest
                    .get(2)
                    .ok_or_else(|| fail(reason("parse_no_amount", &[])))?;
                let n: usize = w
                    .parse()
                    .map_err(|_| fail(reason("parse_amount", &[("word", w)])))?;
                if n == 0 || n > MAX_ATTACK {
                    return Err(fail(reason("parse_transfer", &[("max", &MAX_ATTACK)])));
                }
                end(4)?;
                return match kind {
                    Some("trade") => Ok(TransferTrade(s, n as u8)),
                    Some("combat") => Ok(TransferCombat(s, n as u8)),
                    _ => Err(fail(reason("parse_transfer_kind", &[]))),
                };
            }
            ("target", _) => {
                let s = seat(rest.first())?;
                end(2)?;
                return Ok(Target(s));
            }
            ("copy", Some("ship")) => {
                Copy(num(rest.get(1), MAX_SHIPS, "refusal.what.ship_position")?)
            }
            ("copy", _) => {
                let s = seat(rest.first())?;
                if rest.get(1) != Some(&"base") {
                    return Err(fail(reason("parse_copy", &[])));
                }
                let i = num(rest.get(2), MAX_BASES, "refusal.what.base_position")?;
                end(4)?;
                return Ok(CopyBase(s, i));
            }
            ("choose", _) => {
                let i = num(rest.first(), MAX_OPTIONS, "refusal.what.option")?;
                end(2)?;
                return Ok(Choose(i));
            }
            ("end", _) => {
                end(1)?;
                return Ok(End);
            }
            ("top", None) => return Ok(Top),
            ("top", _) => return Ok(TopBase(card(rest)?)),
            ("hand", _) => {
                end(1)?;
                return Ok(ToHand);
            }
            ("pass", _) => {
                end(1)?;
                return Ok(Pass);
            }
            _ => return Err(fail(reason("parse_unknown", &[]))),
        };
        end(3)?;
        Ok(action)
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

#[cfg(test)]
mod tests {
    use game::Action as _;

    use super::*;

    #[test]
    fn every_action_is_written_as_its_text_reads() {
        // The whole dense space: each text parses back to its action, and the fast writers
        // give the same text (as JSON, the same string serde writes).
        let mut json = Vec::new();
        for index in 0..Action::space_size() {
            let action = Action::from_index(index).expect("every index is an action");
            let text = action.to_string();
            assert_eq!(text.parse::<Action>().ok(), Some(action), "{text}");
            assert_eq!(action.text(), text);
            json.clear();
            action.write_json_text(&mut json);
            assert_eq!(json, serde_json::to_vec(&text).unwrap(), "{text}");
        }
    }

    #[test]
    fn texts_are_words_numbers_seats_and_card_ids() {
        let fighter = crate::cards().find("blob_fighter").unwrap();
        for (action, text) in [
            (Action::Play(fighter), "play blob_fighter"),
            (Action::BuyRow(2), "buy row 2"),
            (Action::BuyUpgrade(4, 0, 2), "buy row 4 upgrade s1 r3"),
            (
                Action::AcquireUpgrade(0, 1, 0),
                "acquire row 0 upgrade s2 r1",
            ),
            (Action::AttackPlayer(Seat(1), 12), "attack p2 12"),
            (Action::AttackBase(Seat(5), 63), "attack p6 base 63"),
            (Action::Give(fighter, Seat(2)), "give p3 blob_fighter"),
            (Action::TransferCombat(Seat(0), 7), "transfer p1 combat 7"),
            (Action::DoubleAllyShip(127), "double ally ship 127"),
            (Action::ToHand, "hand"),
        ] {
            assert_eq!(action.to_string(), text);
        }
    }
}
