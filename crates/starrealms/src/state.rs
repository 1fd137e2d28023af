//! The game state and its rules: setup, legal actions, effects, turns, the end of the game.
//!
//! Everything is plain data (`#[derive(Clone)]`): card ids are small integers, decks are vectors
//! whose last element is the top. Effects resolve in order through a small stack of frames; when
//! an effect needs a decision it leaves a [`Pending`] and resolution resumes after the answer.

use arrayvec::ArrayVec;
use game::{ActionError, GameRng, PerSeat, Reason, Seat};
use serde::{Deserialize, Serialize};

use crate::action::{Action, MAX_ATTACK, MAX_BASES, MAX_OPTIONS, MAX_SHIPS, ROW_SIZE};
use crate::cards::{
    CardId, CardMask, Column, Condition, Dest, Effect, Faction, Factions, Kind, SHEET_ROWS,
    ScrapFrom,
};
use crate::config::{Config, DiscardTiming, Format, Rule};
use crate::{Observation, cards};

/// Cards drawn in the draw phase.
pub const HAND_SIZE: usize = 5;

/// A card in play (a ship this turn, or a base) and what has been used of it this turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields, from = "InPlayData")]
pub struct InPlay {
    /// The card.
    pub card: CardId,
    /// For a ship that copies another (Stealth Needle): the copied card.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub copy: Option<CardId>,
    /// Primary ability used (a ship's fires when played).
    #[serde(default)]
    pub primary_used: bool,
    /// Ally ability used.
    #[serde(default)]
    pub ally_used: bool,
    /// Double-ally ability used.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ally2_used: bool,
    /// Damage taken this turn (bases).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub damage: u8,
    /// Derived from the cards (see [`InPlay::refresh`]): factions in play.
    #[serde(skip)]
    factions: Factions,
    /// Derived: the faction the effective card's ally ability names (its printed one; an
    /// upgraded card's second faction sets off allies of others, not its own).
    #[serde(skip)]
    need: Factions,
    /// Derived: `HAS_*` bits of the effective card.
    #[serde(skip)]
    flags: u8,
}

use crate::cards::{HAS_ALLY, HAS_DOUBLE_ALLY, HAS_PRIMARY, HAS_SCRAP, IS_OUTPOST};

/// The written form of [`InPlay`]; reading one computes the derived fields.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InPlayData {
    card: CardId,
    #[serde(default)]
    copy: Option<CardId>,
    #[serde(default)]
    primary_used: bool,
    #[serde(default)]
    ally_used: bool,
    #[serde(default)]
    ally2_used: bool,
    #[serde(default)]
    damage: u8,
}

impl From<InPlayData> for InPlay {
    fn from(d: InPlayData) -> Self {
        let mut p = InPlay {
            copy: d.copy,
            primary_used: d.primary_used,
            ally_used: d.ally_used,
            ally2_used: d.ally2_used,
            damage: d.damage,
            ..InPlay::new(d.card)
        };
        p.refresh();
        p
    }
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

fn one() -> u8 {
    1
}

fn is_one(n: &u8) -> bool {
    *n == 1
}

impl InPlay {
    /// A card just put in play.
    pub fn new(card: CardId) -> Self {
        let mut p = InPlay {
            card,
            copy: None,
            primary_used: false,
            ally_used: false,
            ally2_used: false,
            damage: 0,
            factions: 0,
            need: 0,
            flags: 0,
        };
        p.refresh();
        p
    }

    /// Recomputes the fields derived from `card` and `copy` (after deserializing or copying).
    #[inline]
    pub fn refresh(&mut self) {
        let set = cards();
        let own = set.info(self.card);
        if self.copy.is_none() {
            (self.factions, self.need, self.flags) =
                (own.factions, own.ally_need, own.in_play_flags);
            return;
        }
        let eff = set.info(self.effective());
        self.factions = own.factions | self.copy.map_or(0, |c| set.info(c).factions);
        self.need = eff.ally_need;
        self.flags = (eff.in_play_flags & !IS_OUTPOST) | (own.in_play_flags & IS_OUTPOST);
    }

    /// Whether this is an outpost.
    #[inline]
    pub fn is_outpost(&self) -> bool {
        self.flags & IS_OUTPOST != 0
    }

    /// The card whose abilities this one has (the copied ship for a Stealth Needle).
    #[inline]
    pub fn effective(&self) -> CardId {
        self.copy.unwrap_or(self.card)
    }

    /// Factions this card has in play (its own, plus a copied ship's).
    #[inline]
    pub fn factions(&self) -> Factions {
        self.factions
    }
}

/// One seat's cards and pools.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// Cards in hand (order irrelevant).
    pub hand: Vec<CardId>,
    /// Draw pile; the last card is the top.
    pub deck: Vec<CardId>,
    /// How many cards at the top of the deck everybody knows (put there face up since the last
    /// shuffle).
    pub deck_known: u8,
    /// Cards in hand that everybody knows (drawn from the known top of the deck).
    pub hand_known: Vec<CardId>,
    /// Discard pile, face up; the last card is the top.
    pub discard: Vec<CardId>,
    /// Ships played this turn.
    pub ships: Vec<InPlay>,
    /// Bases in play.
    pub bases: Vec<InPlay>,
    /// Trade pool.
    pub trade: u16,
    /// Combat pool.
    pub combat: u16,
    /// Authority.
    pub authority: i32,
    /// Still in the game.
    pub alive: bool,
    /// Team (seat index in formats without teams).
    pub team: u8,
    /// Discards owed at the start of the next turn (app timing).
    pub pending_discards: u8,
    /// Ships acquired this turn that may go on top of the deck (Freighter, Central Office).
    pub next_ship_top: u8,
    /// Cards of each faction played this turn (Blob World).
    pub played: [u8; Faction::COUNT],
    /// Cards scrapped from the hand or the discard pile this turn (The Incinerator).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub scrapped: u8,
    /// Cards of this player's scrapped this turn from any zone, in play included (Reclamation
    /// Station).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub scrapped_all: u8,
    /// The next bases acquired this turn that go on top of the deck (Long Hauler).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub next_base_top: u8,
    /// Cards scrapped this turn that come back from the scrap heap to the discard pile at the
    /// end of the turn (Mobile Market).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub returning: Vec<CardId>,
    /// Where the next ships or bases acquired this turn go instead of the discard pile, first
    /// the next one (Factory World, Federation Shipyard).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub redirects: Vec<Dest>,
    /// Hydra: this player has ended its part of the team's turn.
    pub done: bool,
    /// *Rise of Empire*: the sticker sheets this player owns and what is used of them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sheets: Vec<SheetUse>,
}

/// A sticker sheet a player owns, and which stickers are used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SheetUse {
    /// The sheet.
    pub sheet: SheetId,
    /// Rows whose ship sticker is used (bit `r`: row `r + 1`).
    pub ship: u8,
    /// Rows whose base sticker is used.
    pub base: u8,
    /// Using its fifth sticker wins at once (political victory).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub political: bool,
}

impl SheetUse {
    /// Whether row `r` (0 to 4) is still free (neither sticker used).
    #[inline]
    pub fn row_free(&self, r: u8) -> bool {
        (self.ship | self.base) & (1 << r) == 0
    }

    /// Stickers used.
    pub fn used(&self) -> u32 {
        (self.ship | self.base).count_ones()
    }

    /// The same sheet, political or not.
    pub fn with_political(self, political: bool) -> SheetUse {
        SheetUse { political, ..self }
    }
}

/// A sticker sheet, as an index into the card set's sheets; written as its id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SheetId(pub u16);

impl Serialize for SheetId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match cards().sheets.get(self.0 as usize) {
            Some(sheet) => s.serialize_str(&sheet.id),
            None => Err(serde::ser::Error::custom("no such sheet")),
        }
    }
}

impl<'de> Deserialize<'de> for SheetId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        cards()
            .find_sheet(&name)
            .map(SheetId)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown sticker sheet `{name}`")))
    }
}

impl Player {
    fn new(authority: i32, team: u8) -> Self {
        Player {
            hand: Vec::with_capacity(16),
            deck: Vec::with_capacity(64),
            deck_known: 0,
            hand_known: Vec::new(),
            discard: Vec::with_capacity(64),
            ships: Vec::with_capacity(16),
            bases: Vec::with_capacity(8),
            trade: 0,
            combat: 0,
            authority,
            alive: true,
            team,
            pending_discards: 0,
            next_ship_top: 0,
            played: [0; Faction::COUNT],
            scrapped: 0,
            scrapped_all: 0,
            next_base_top: 0,
            returning: Vec::new(),
            redirects: Vec::new(),
            done: false,
            sheets: Vec::new(),
        }
    }

    /// Whether the player has an outpost in play.
    #[inline]
    pub fn has_outpost(&self) -> bool {
        self.bases.iter().any(InPlay::is_outpost)
    }

    /// Every card this player owns, in any zone (for checks and tests).
    pub fn all_cards(&self) -> impl Iterator<Item = CardId> + '_ {
        self.hand
            .iter()
            .chain(&self.deck)
            .chain(&self.discard)
            .copied()
            .chain(self.ships.iter().map(|s| s.card))
            .chain(self.bases.iter().map(|b| b.card))
    }

    fn forget_from_hand(&mut self, card: CardId) {
        if self.hand_known.is_empty() {
            return;
        }
        let in_hand = self.hand.iter().filter(|&&c| c == card).count();
        let known = self.hand_known.iter().filter(|&&c| c == card).count();
        if known > in_hand
            && let Some(i) = self.hand_known.iter().position(|&c| c == card)
        {
            self.hand_known.swap_remove(i);
        }
    }

    fn take_from_hand(&mut self, card: CardId) -> bool {
        match self.hand.iter().position(|&c| c == card) {
            Some(i) => {
                self.hand.swap_remove(i);
                self.forget_from_hand(card);
                true
            }
            None => false,
        }
    }
}

/// Which ability of a card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ability {
    /// Primary.
    Primary,
    /// Ally.
    Ally,
    /// Scrap.
    Scrap,
    /// Double ally.
    DoubleAlly,
    /// On acquire (*Rise of Empire*).
    OnAcquire,
}

/// Where a list of effects comes from: a card's ability, or one option of a "choose one" in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Source {
    /// The card whose text it is (the copied ship for a Stealth Needle).
    pub card: CardId,
    /// Which ability.
    pub ability: Ability,
    /// `[position of the choose in the ability, option picked]`, inside a "choose one".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub option: Option<[u8; 2]>,
}

impl Source {
    /// The whole ability's effects (a choice's options included, unopened).
    fn ability_effects(&self) -> &'static [Effect] {
        let spec = &cards().def(self.card).spec;
        match self.ability {
            Ability::Primary => &spec.primary,
            Ability::Ally => &spec.ally,
            Ability::Scrap => &spec.scrap,
            Ability::DoubleAlly => &spec.double_ally,
            Ability::OnAcquire => &spec.on_acquire,
        }
    }

    /// Whether the ability (and the option, inside a choice) exists.
    pub fn is_valid(&self) -> bool {
        if self.card.0 as usize >= cards().len() {
            return false;
        }
        let list = self.ability_effects();
        match self.option {
            None => true,
            Some([at, opt]) => matches!(
                list.get(at as usize),
                Some(Effect::Choose(options)) if (opt as usize) < options.len()
            ),
        }
    }

    /// The effects this source names.
    pub fn effects(&self) -> &'static [Effect] {
        let list = self.ability_effects();
        match self.option {
            None => list,
            Some([at, opt]) => match &list[at as usize] {
                Effect::Choose(options) => &options[opt as usize],
                _ => &[],
            },
        }
    }
}

/// Effects still to resolve: a source and the position of the next effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Frame {
    /// Where the effects come from.
    pub source: Source,
    /// Next effect to resolve.
    pub next: u8,
    /// Position of the ship in play the effects belong to (for "copy another ship"), or of the
    /// base whose primary they are (for "copy a base"); for an on-acquire ability, where the card
    /// was put (0 discard pile, 1 hand, 2 top of the deck); 255 if none.
    #[serde(default = "no_ship")]
    pub ship: u8,
}

fn no_ship() -> u8 {
    u8::MAX
}

/// A decision the rules wait for before the main phase goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "decision", rename_all = "snake_case", deny_unknown_fields)]
pub enum Pending {
    /// Pick one option (`choose n`) of the "choose one" at `at` in `source`.
    Choose {
        /// The list holding the choose.
        source: Source,
        /// Its position there.
        at: u8,
    },
    /// Scrap cards from hand and/or discard (`scrap hand|discard <card>`, `pass` if optional).
    Scrap {
        /// Allowed zones.
        from: ScrapFrom,
        /// Cards that may still be scrapped.
        left: u8,
        /// Whether the player may stop (`pass`).
        optional: bool,
        /// Draw one card per card scrapped, when done.
        draw_per_card: bool,
        /// Cards scrapped so far.
        done: u8,
        /// Combat gained per card scrapped.
        #[serde(default, skip_serializing_if = "is_zero")]
        combat_per_card: u8,
        /// Combat gained equal to each scrapped card's cost.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        combat_for_cost: bool,
    },
    /// Scrap a trade-row card (`scrap row <slot>`, `pass` if optional).
    ScrapTradeRow {
        /// Whether the player may decline (or stop).
        optional: bool,
        /// Cards that may still be scrapped.
        #[serde(default = "one", skip_serializing_if = "is_one")]
        left: u8,
        /// Combat gained equal to each scrapped card's cost.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        combat_for_cost: bool,
    },
    /// Destroy a target base (`destroy <seat> base <i>`, `pass` if optional).
    DestroyBase {
        /// Whether the player may decline.
        optional: bool,
    },
    /// Pick the opponent who discards (`target <seat>`).
    DiscardTarget,
    /// Pick the player who discards, oneself included (`target <seat>`).
    PlayerDiscardTarget,
    /// Put a base of the discard pile on top of the deck (`top <card>`).
    BaseToTop,
    /// `seat` discards `left` cards of its choice (`discard <card>`).
    Discard {
        /// Who discards (and decides).
        seat: Seat,
        /// Cards still to discard.
        left: u8,
    },
    /// Discard up to `left` more cards (`discard <card>`, `pass`), then draw as many as discarded.
    DiscardThenDraw {
        /// Cards that may still be discarded.
        left: u8,
        /// Cards discarded so far.
        done: u8,
    },
    /// The ship at `ship` copies another ship in play (`copy ship <i>`).
    CopyShip {
        /// The copying ship's position.
        ship: u8,
    },
    /// Acquire a ship for free to the top of the deck (`acquire row <slot>`, `acquire explorer`).
    AcquireFree,
    /// Acquire a card of cost at most `cost` for free (`acquire row <slot>`, `acquire explorer`),
    /// put in `to`.
    AcquireUpTo {
        /// Highest cost.
        cost: u8,
        /// Where the card goes.
        to: Dest,
    },
    /// The card just acquired may go into the hand (`hand`, `pass`), from where it was put
    /// (the top of the discard pile, or of the deck).
    ToHand {
        /// The card.
        card: CardId,
        /// It is on top of the deck (else of the discard pile).
        on_deck: bool,
    },
    /// The base at `base` copies another base in play (`copy <seat> base <i>`).
    CopyBase {
        /// The copying base's position.
        base: u8,
    },
    /// Discard up to `left` more cards (`discard <card>`, `pass`), each for a reward of the
    /// `discard_for` at `at` in `source`.
    DiscardFor {
        /// The list holding the effect.
        source: Source,
        /// Its position there.
        at: u8,
        /// Cards that may still be discarded.
        left: u8,
    },
    /// Pick the reward for the card just discarded (`choose n`).
    DiscardReward {
        /// The list holding the `discard_for`.
        source: Source,
        /// Its position there.
        at: u8,
        /// Cards that may still be discarded afterwards.
        left: u8,
    },
    /// The ship just acquired (top of the discard pile) may go on top of the deck (`top`, `pass`).
    TopOrDiscard {
        /// The ship.
        card: CardId,
    },
    /// The fallen player `from` may pass one of its cards to `to`'s discard pile
    /// (`bequeath <card>`, `pass`): an Emperor-format Admiral to his Emperor, a Raid Soldier to
    /// each other Soldier.
    Bequeath {
        /// The fallen player (who decides).
        from: Seat,
        /// Who receives the card.
        to: Seat,
    },
}

/// A whole game of Star Realms.
#[derive(Debug, PartialEq, Eq)]
pub struct State {
    /// The configuration.
    pub config: Config,
    /// Every seat.
    pub players: PerSeat<Player>,
    /// Whose turn it is.
    pub current: Seat,
    /// The seat that played first.
    pub first: Seat,
    /// Turn number, from 1.
    pub turn: u32,
    /// The trade row (an empty slot once the trade deck is exhausted).
    pub row: [Option<CardId>; ROW_SIZE],
    /// The trade deck; the last card is the top.
    pub trade_deck: Vec<CardId>,
    /// Explorers left in the pile.
    pub explorers: u8,
    /// The scrap heap, in order.
    pub scrap_heap: Vec<CardId>,
    /// The decision waited for, if any.
    pub pending: Option<Pending>,
    /// Effects still to resolve after the pending decision.
    pub frames: ArrayVec<Frame, 6>,
    /// Whether the game is over.
    pub over: bool,
    /// Once over: the winning seats as a bit mask (bit `i`: seat `i`); 0 for a draw.
    pub victors: u8,
    /// Card passings still owed by fallen players, `(from, to)`, in order.
    pub bequests: ArrayVec<(Seat, Seat), 5>,
    /// Hydra: the player in control has played, used, bought or attacked since taking control
    /// (only then may it hand control to a teammate, so that a team turn always ends).
    pub progress: bool,
    /// The game's RNG (shuffles). Part of the hidden state: never in an observation.
    pub rng: GameRng,
}

clone_by_field!(Player {
    hand,
    deck,
    deck_known,
    hand_known,
    discard,
    ships,
    bases,
    trade,
    combat,
    authority,
    alive,
    team,
    pending_discards,
    next_ship_top,
    played,
    scrapped,
    scrapped_all,
    next_base_top,
    returning,
    redirects,
    done,
    sheets,
});

clone_by_field!(State {
    config,
    players,
    current,
    first,
    turn,
    row,
    trade_deck,
    explorers,
    scrap_heap,
    pending,
    frames,
    over,
    victors,
    bequests,
    progress,
    rng,
});

fn illegal(action: Action, reason: Reason) -> ActionError {
    ActionError::Illegal {
        action: action.to_string(),
        hint: format!(": {}", crate::refusal::in_english(&reason)),
        reason: Some(Box::new(reason)),
    }
}

impl State {
    /// A new game: decks shuffled, trade row dealt, first player drawn, starting hands drawn.
    pub fn new(config: &Config, seed: u64) -> Result<State, String> {
        config.validate()?;
        let set = cards();
        let n = config.seats as usize;
        let mut rng = game::rng_from_seed(seed);
        let first = match (config.first, config.format) {
            // A campaign names who opens.
            (Some(seat), _) => seat,
            // Player 1 opens (the Boss in a raid).
            (None, Format::Emperor | Format::Raid) => Seat(0),
            // A team is drawn; its first seat opens.
            (None, Format::Hydra) => Seat((game::below(&mut rng, 2) * n / 2) as u8),
            _ => Seat(game::below(&mut rng, n) as u8),
        };
        let mut trade_deck = match &config.trade_deck {
            Some(deck) => deck.clone(),
            None if config.sets.is_default() => set.trade_deck.clone(),
            None => set.trade_deck_of(config.sets),
        };
        let starting = &set.starting_deck;
        let explorers = config.explorer_count(set.explorers_of(config.sets));
        game::shuffle(&mut rng, &mut trade_deck);
        let mut players = PerSeat::from_fn(n, |i| {
            Player::new(config.starting_authority(i), config.team_of(i))
        });
        for (i, p) in players.0.iter_mut().enumerate() {
            match config.decks.get(i).filter(|d| !d.is_empty()) {
                Some(own) => p.deck.extend_from_slice(own),
                None => p.deck.extend_from_slice(starting),
            }
            game::shuffle(&mut rng, &mut p.deck);
        }
        for rule in &config.rules {
            match *rule {
                Rule::Authority { seat, add } => players.0[seat as usize].authority += add,
                Rule::Base { seat, card } => players.0[seat as usize].bases.push(InPlay::new(card)),
                _ => {}
            }
        }
        for (p, grants) in players.0.iter_mut().zip(&config.sheets) {
            p.sheets = grants.iter().map(sheet_use).collect();
        }
        let mut state = State {
            config: config.clone(),
            players,
            current: first,
            first,
            turn: 1,
            row: [None; ROW_SIZE],
            trade_deck,
            explorers,
            scrap_heap: Vec::new(),
            pending: None,
            frames: ArrayVec::new(),
            over: false,
            victors: 0,
            bequests: ArrayVec::new(),
            progress: false,
            rng,
        };
        for slot in 0..ROW_SIZE {
            state.refill(slot);
        }
        for order in 0..n {
            let seat = Seat(((first.index() + order) % n) as u8);
            state.draw(seat, config.starting_hand(seat.index(), first.index()));
        }
        state.start_turn();
        Ok(state)
    }

    /// The seat that must decide now, or `None` once the game is over.
    #[inline]
    pub fn to_move(&self) -> Option<Seat> {
        if self.over {
            return None;
        }
        Some(match self.pending {
            Some(Pending::Discard { seat, .. }) => seat,
            Some(Pending::Bequeath { from, .. }) => from,
            _ => self.current,
        })
    }

    /// The player whose turn it is.
    #[inline]
    pub fn me(&self) -> &Player {
        &self.players[self.current]
    }

    #[inline]
    fn me_mut(&mut self) -> &mut Player {
        &mut self.players[self.current]
    }

    /// Whether the base at `index` of `defender` can be attacked or targeted now (outposts
    /// first), the format's targeting rules aside.
    pub fn base_targetable(&self, defender: Seat, index: usize) -> bool {
        self.players[defender].bases[index].is_outpost() || !self.shielded(defender)
    }

    // ----- legal actions -------------------------------------------------------------------

    /// The legal actions, sorted.
    pub fn legal_actions(&self) -> Vec<Action> {
        let mut v = Vec::new();
        self.legal_actions_into(&mut v);
        v
    }

    /// Writes the legal actions, sorted and without duplicates, into `out`. They are generated
    /// directly in the order of [`Action`]'s `Ord`, so no sort is needed.
    pub fn legal_actions_into(&self, out: &mut Vec<Action>) {
        self.actions_into(out, 1);
    }

    /// The legal actions as [`State::legal_actions_into`] writes them, but of the attacks on a
    /// player only the largest (`attack player <seat> <all the combat>`, where the whole list
    /// also holds every smaller amount): what a bot that never holds combat back chooses from,
    /// in a list that is quicker to write and to read.
    pub fn legal_actions_largest_attacks_into(&self, out: &mut Vec<Action>) {
        self.actions_into(out, MAX_ATTACK);
    }

    /// The legal actions, of the attacks on a player only those of at least `least` combat
    /// (or all of it, when the pool holds less).
    fn actions_into(&self, out: &mut Vec<Action>, least: usize) {
        out.clear();
        if self.over {
            return;
        }
        match self.pending {
            Some(p) => self.decision_actions(p, out),
            None => self.main_actions(out, least),
        }
        debug_assert!(out.windows(2).all(|w| w[0] < w[1]), "unsorted: {out:?}");
    }

    fn main_actions(&self, out: &mut Vec<Action>, least: usize) {
        let set = cards();
        let me = self.me();
        CardMask::each_kind(&me.hand, |c| out.push(Action::Play(c)));
        // One pass over ships and one over bases collect which abilities are usable, as bit masks
        // by position, and which factions are in play at least once and at least twice (a card has
        // an ally for `need` if another card has one of those factions).
        // And at least three times, for double allies (two *other* cards of the faction).
        let (mut once, mut twice, mut thrice) = (0 as Factions, 0 as Factions, 0 as Factions);
        let (mut ship_ally, mut ship_scrap, mut ship_ally2) = (0u128, 0u128, 0u128);
        for (i, s) in me.ships.iter().enumerate() {
            thrice |= twice & s.factions;
            twice |= once & s.factions;
            once |= s.factions;
            if !s.ally_used && s.flags & HAS_ALLY != 0 {
                ship_ally |= 1 << i;
            }
            if !s.ally2_used && s.flags & HAS_DOUBLE_ALLY != 0 {
                ship_ally2 |= 1 << i;
            }
            if s.flags & HAS_SCRAP != 0 {
                ship_scrap |= 1 << i;
            }
        }
        let (mut base_primary, mut base_ally, mut base_scrap) = (0u64, 0u64, 0u64);
        let mut base_ally2 = 0u64;
        for (i, b) in me.bases.iter().enumerate() {
            thrice |= twice & b.factions;
            twice |= once & b.factions;
            once |= b.factions;
            if !b.primary_used && b.flags & HAS_PRIMARY != 0 {
                base_primary |= 1 << i;
            }
            if !b.ally_used && b.flags & HAS_ALLY != 0 {
                base_ally |= 1 << i;
            }
            if !b.ally2_used && b.flags & HAS_DOUBLE_ALLY != 0 {
                base_ally2 |= 1 << i;
            }
            if b.flags & HAS_SCRAP != 0 {
                base_scrap |= 1 << i;
            }
        }
        let ally = |p: &InPlay| p.need & twice != 0 || p.need & once & !p.factions != 0;
        let ally2 = |p: &InPlay| p.need & thrice != 0 || p.need & twice & !p.factions != 0;
        for_bits(base_primary as u128, |i| out.push(Action::Primary(i)));
        for_bits(ship_ally, |i| {
            if ally(&me.ships[i as usize]) {
                out.push(Action::AllyShip(i));
            }
        });
        for_bits(base_ally as u128, |i| {
            if ally(&me.bases[i as usize]) {
                out.push(Action::AllyBase(i));
            }
        });
        for_bits(ship_ally2, |i| {
            if ally2(&me.ships[i as usize]) {
                out.push(Action::DoubleAllyShip(i));
            }
        });
        for_bits(base_ally2 as u128, |i| {
            if ally2(&me.bases[i as usize]) {
                out.push(Action::DoubleAllyBase(i));
            }
        });
        for_bits(ship_scrap, |i| out.push(Action::ScrapShip(i)));
        for_bits(base_scrap as u128, |i| out.push(Action::ScrapBase(i)));
        for (slot, c) in self.row.iter().enumerate() {
            if let Some(c) = *c
                && set.info(c).cost as u16 <= me.trade
            {
                out.push(Action::BuyRow(slot as u8));
            }
        }
        if !me.sheets.is_empty() {
            for (slot, c) in self.row.iter().enumerate() {
                if let Some(c) = *c {
                    let price = set.info(c).cost as u16;
                    self.upgrades(c, price, |s, r| {
                        out.push(Action::BuyUpgrade(slot as u8, s, r))
                    });
                }
            }
        }
        if self.explorers > 0 && set.info(set.explorer).cost as u16 <= me.trade {
            out.push(Action::BuyExplorer);
        }
        let cur = self.current;
        if me.combat > 0 {
            for (seat, _) in self.players.iter() {
                if self.may_target_player(cur, seat) && !self.shielded(seat) {
                    let most = (me.combat as usize).min(MAX_ATTACK);
                    for n in least.min(most)..=most {
                        out.push(Action::AttackPlayer(seat, n as u8));
                    }
                }
            }
            for (seat, p) in self.players.iter() {
                if p.bases.is_empty() || !self.may_target_bases(cur, seat) {
                    continue;
                }
                let shielded = self.shielded(seat);
                let partial = self.partial_base_damage(cur, seat);
                for (i, b) in p.bases.iter().enumerate() {
                    let info = set.info(b.card);
                    let need = info.defense.saturating_sub(b.damage) as u16;
                    if (!shielded || info.kind == Kind::Outpost) && (partial || need <= me.combat) {
                        out.push(Action::AttackBase(seat, i as u8));
                    }
                }
            }
        }
        if self.config.format == Format::Emperor && me.trade >= 1 {
            // Pay 1 trade: a card of the discard pile goes to a teammate's.
            CardMask::each_kind(&me.discard, |c| {
                for (seat, p) in self.players.iter() {
                    if seat != cur && p.alive && p.team == me.team {
                        out.push(Action::Give(c, seat));
                    }
                }
            });
        }
        if self.config.format == Format::Hydra {
            self.hydra_actions(out);
        }
        out.push(Action::End);
    }

    fn decision_actions(&self, p: Pending, out: &mut Vec<Action>) {
        let me = self.me();
        match p {
            Pending::Choose { source, at } => {
                if let Effect::Choose(options) = &source.effects()[at as usize] {
                    for i in 0..options.len().min(MAX_OPTIONS) {
                        out.push(Action::Choose(i as u8));
                    }
                }
            }
            Pending::Scrap { from, optional, .. } => {
                if from != ScrapFrom::Discard {
                    CardMask::each_kind(&me.hand, |c| out.push(Action::ScrapHand(c)));
                }
                if from != ScrapFrom::Hand {
                    CardMask::each_kind(&me.discard, |c| out.push(Action::ScrapDiscard(c)));
                }
                if optional {
                    out.push(Action::Pass);
                }
            }
            Pending::ScrapTradeRow { optional, .. } => {
                for (slot, c) in self.row.iter().enumerate() {
                    if c.is_some() {
                        out.push(Action::ScrapRow(slot as u8));
                    }
                }
                if optional {
                    out.push(Action::Pass);
                }
            }
            Pending::DestroyBase { optional } => {
                self.push_destroy_targets(out);
                if optional {
                    out.push(Action::Pass);
                }
            }
            Pending::DiscardTarget => {
                for (seat, _) in self.players.iter() {
                    if self.may_target_player(self.current, seat) {
                        out.push(Action::Target(seat));
                    }
                }
            }
            Pending::PlayerDiscardTarget => {
                for (seat, _) in self.players.iter() {
                    if seat == self.current || self.may_target_player(self.current, seat) {
                        out.push(Action::Target(seat));
                    }
                }
            }
            Pending::BaseToTop => {
                let set = cards();
                CardMask::each_kind(&me.discard, |c| {
                    if set.info(c).kind.is_base() {
                        out.push(Action::TopBase(c));
                    }
                });
            }
            Pending::Bequeath { from, .. } => {
                // `pass` sorts before `bequeath`.
                out.push(Action::Pass);
                self.bequest_kinds(from, out);
            }
            Pending::Discard { seat, .. } => {
                CardMask::each_kind(&self.players[seat].hand, |c| out.push(Action::Discard(c)));
            }
            Pending::DiscardThenDraw { .. } => {
                CardMask::each_kind(&me.hand, |c| out.push(Action::Discard(c)));
                out.push(Action::Pass);
            }
            Pending::CopyShip { ship } => {
                for (i, s) in me.ships.iter().enumerate() {
                    if i != ship as usize && copyable(s) {
                        out.push(Action::Copy(i as u8));
                    }
                }
            }
            Pending::AcquireFree => {
                let set = cards();
                for (slot, c) in self.row.iter().enumerate() {
                    if let Some(c) = *c
                        && set.info(c).kind == Kind::Ship
                    {
                        out.push(Action::AcquireRow(slot as u8));
                    }
                }
                if !me.sheets.is_empty() {
                    for (slot, c) in self.row.iter().enumerate() {
                        if let Some(c) = *c
                            && set.info(c).kind == Kind::Ship
                        {
                            self.upgrades(c, 0, |s, r| {
                                out.push(Action::AcquireUpgrade(slot as u8, s, r))
                            });
                        }
                    }
                }
                if self.explorers > 0 {
                    out.push(Action::AcquireExplorer);
                }
            }
            Pending::TopOrDiscard { .. } => {
                out.push(Action::Top);
                out.push(Action::Pass);
            }
            Pending::AcquireUpTo { cost, .. } => {
                let set = cards();
                let fits = |c: CardId| set.info(c).cost <= cost;
                for (slot, c) in self.row.iter().enumerate() {
                    if let Some(c) = *c
                        && fits(c)
                    {
                        out.push(Action::AcquireRow(slot as u8));
                    }
                }
                if !me.sheets.is_empty() {
                    for (slot, c) in self.row.iter().enumerate() {
                        if let Some(c) = *c
                            && fits(c)
                        {
                            self.upgrades(c, 0, |s, r| {
                                out.push(Action::AcquireUpgrade(slot as u8, s, r))
                            });
                        }
                    }
                }
                if self.explorers > 0 && fits(set.explorer) {
                    out.push(Action::AcquireExplorer);
                }
            }
            Pending::ToHand { .. } => {
                out.push(Action::ToHand);
                out.push(Action::Pass);
            }
            Pending::CopyBase { base } => {
                let cur = self.current;
                for (seat, p) in self.players.iter() {
                    if !p.alive {
                        continue;
                    }
                    for (i, b) in p.bases.iter().enumerate() {
                        if (seat != cur || i != base as usize) && base_copyable(b) {
                            out.push(Action::CopyBase(seat, i as u8));
                        }
                    }
                }
            }
            Pending::DiscardFor { .. } => {
                CardMask::each_kind(&me.hand, |c| out.push(Action::Discard(c)));
                out.push(Action::Pass);
            }
            Pending::DiscardReward { source, at, .. } => {
                if let Effect::DiscardFor { reward, .. } = &source.effects()[at as usize] {
                    for i in 0..reward.len().min(MAX_OPTIONS) {
                        out.push(Action::Choose(i as u8));
                    }
                }
            }
        }
    }

    fn push_destroy_targets(&self, out: &mut Vec<Action>) {
        for (seat, p) in self.players.iter() {
            if !self.may_target_bases(self.current, seat) {
                continue;
            }
            for i in 0..p.bases.len() {
                if self.base_targetable(seat, i) {
                    out.push(Action::Destroy(seat, i as u8));
                }
            }
        }
    }

    /// Whether a decision has at least one answer; a decision without one is skipped.
    fn decision_possible(&self, p: Pending) -> bool {
        let me = self.me();
        match p {
            Pending::Choose { .. }
            | Pending::TopOrDiscard { .. }
            | Pending::ToHand { .. }
            | Pending::DiscardReward { .. } => true,
            Pending::AcquireUpTo { cost, .. } => {
                let set = cards();
                self.explorers > 0 && set.info(set.explorer).cost <= cost
                    || self.row.iter().flatten().any(|&c| set.info(c).cost <= cost)
            }
            Pending::CopyBase { base } => self.players.iter().any(|(seat, p)| {
                p.alive
                    && p.bases.iter().enumerate().any(|(i, b)| {
                        (seat != self.current || i != base as usize) && base_copyable(b)
                    })
            }),
            Pending::DiscardFor { left, .. } => left > 0 && !me.hand.is_empty(),
            Pending::Scrap { from, left, .. } => {
                left > 0
                    && match from {
                        ScrapFrom::Hand => !me.hand.is_empty(),
                        ScrapFrom::Discard => !me.discard.is_empty(),
                        ScrapFrom::HandOrDiscard => !me.hand.is_empty() || !me.discard.is_empty(),
                    }
            }
            Pending::ScrapTradeRow { left, .. } => left > 0 && self.row.iter().any(Option::is_some),
            Pending::DestroyBase { .. } => self.players.iter().any(|(seat, p)| {
                self.may_target_bases(self.current, seat)
                    && (0..p.bases.len()).any(|i| self.base_targetable(seat, i))
            }),
            Pending::DiscardTarget | Pending::PlayerDiscardTarget => true,
            Pending::BaseToTop => {
                let set = cards();
                me.discard.iter().any(|&c| set.info(c).kind.is_base())
            }
            Pending::Bequeath { from, .. } => !self.players[from].discard.is_empty(),
            Pending::Discard { seat, left } => left > 0 && !self.players[seat].hand.is_empty(),
            Pending::DiscardThenDraw { left, .. } => left > 0 && !me.hand.is_empty(),
            Pending::CopyShip { ship } => me
                .ships
                .iter()
                .enumerate()
                .any(|(i, s)| i != ship as usize && copyable(s)),
            Pending::AcquireFree => {
                self.explorers > 0
                    || self
                        .row
                        .iter()
                        .flatten()
                        .any(|&c| cards().def(c).kind() == Kind::Ship)
            }
        }
    }

    // ----- applying actions ----------------------------------------------------------------

    /// Applies a legal action; an illegal one is rejected and the state left as it was.
    pub fn apply(&mut self, action: Action) -> Result<(), ActionError> {
        if self.over {
            return Err(ActionError::GameOver {
                action: action.to_string(),
            });
        }
        let mut legal = Vec::with_capacity(32);
        self.legal_actions_into(&mut legal);
        if legal.binary_search(&action).is_err() {
            return Err(illegal(action, self.why_illegal(action)));
        }
        self.apply_unchecked(action);
        Ok(())
    }

    /// Why `action`, not legal now, is refused.
    fn why_illegal(&self, action: Action) -> Reason {
        use crate::refusal::reason;
        if let (
            Some(Pending::AcquireFree | Pending::AcquireUpTo { .. }),
            Action::AcquireUpgrade(slot, sheet, row),
        ) = (self.pending, action)
        {
            return self.why_no_upgrade(slot, sheet, row, true);
        }
        let set = cards();
        if let Some(p) = self.pending {
            let who = self.to_move().unwrap_or(self.current);
            let holder = &self.players[who];
            // An answer of the right kind about a card the seat does not hold says so.
            match (p, action) {
                (
                    Pending::Discard { .. }
                    | Pending::DiscardThenDraw { .. }
                    | Pending::DiscardFor { .. },
                    Action::Discard(c),
                )
                | (Pending::Scrap { .. }, Action::ScrapHand(c))
                    if !holder.hand.contains(&c) =>
                {
                    return reason("not_in_hand_of", &[("card", &c), ("seat", &who)]);
                }
                (Pending::Scrap { .. }, Action::ScrapDiscard(c))
                    if !holder.discard.contains(&c) =>
                {
                    return reason("not_in_discard_of", &[("card", &c), ("seat", &who)]);
                }
                (Pending::ScrapTradeRow { .. }, Action::ScrapRow(s))
                | (Pending::AcquireFree | Pending::AcquireUpTo { .. }, Action::AcquireRow(s))
                    if self.row.get(s as usize).is_none_or(|c| c.is_none()) =>
                {
                    return reason("empty_slot", &[("slot", &s)]);
                }
                (Pending::AcquireUpTo { cost, .. }, Action::AcquireRow(s)) => {
                    let c = self.row[s as usize].expect("checked above");
                    return reason(
                        "free_too_costly",
                        &[("card", &c), ("cost", &set.info(c).cost), ("max", &cost)],
                    );
                }
                (Pending::AcquireFree, Action::AcquireRow(s)) => {
                    let c = self.row[s as usize].expect("checked above");
                    return reason("not_a_ship", &[("card", &c)]);
                }
                _ => {}
            }
            let mut legal = Vec::new();
            self.legal_actions_into(&mut legal);
            let answers: Vec<String> = legal.iter().map(ToString::to_string).collect();
            return reason(
                "pending",
                &[("seat", &who), ("answers", &answers.join(", "))],
            );
        }
        let me = self.me();
        let cur = self.current;
        let ship = |i: u8| me.ships.get(i as usize);
        let base = |i: u8| me.bases.get(i as usize);
        match action {
            Action::Play(c) if !me.hand.contains(&c) => reason("not_in_hand", &[("card", &c)]),
            Action::BuyRow(s) => match self.row[s as usize] {
                None => reason("empty_slot", &[("slot", &s)]),
                Some(c) => reason(
                    "too_costly",
                    &[
                        ("card", &c),
                        ("cost", &set.def(c).cost()),
                        ("trade", &me.trade),
                    ],
                ),
            },
            Action::BuyExplorer if self.explorers == 0 => reason("no_explorer", &[]),
            Action::BuyExplorer => reason(
                "too_costly",
                &[
                    ("card", &set.explorer),
                    ("cost", &set.def(set.explorer).cost()),
                    ("trade", &me.trade),
                ],
            ),
            Action::BuyUpgrade(slot, sheet, row) => self.why_no_upgrade(slot, sheet, row, false),
            Action::AttackPlayer(s, _) | Action::AttackBase(s, _) | Action::Destroy(s, _)
                if s.index() >= self.players.len() =>
            {
                reason("no_seat", &[("seat", &s)])
            }
            Action::AttackPlayer(s, n) if n as u16 > me.combat => {
                reason("combat", &[("n", &n), ("seat", &s), ("combat", &me.combat)])
            }
            Action::AttackPlayer(s, _) | Action::AttackBase(s, _) | Action::Destroy(s, _)
                if !self.may_target_bases(cur, s) =>
            {
                reason("format_target", &[("seat", &s), ("me", &cur)])
            }
            Action::AttackPlayer(s, _) if !self.may_target_player(cur, s) => {
                reason("format_attack", &[("seat", &s), ("me", &cur)])
            }
            Action::AttackPlayer(s, _) if self.shielded(s) => reason("shielded", &[("seat", &s)]),
            Action::AttackBase(s, i) | Action::Destroy(s, i)
                if (i as usize) >= self.players[s].bases.len() =>
            {
                reason("no_base_of", &[("seat", &s), ("i", &i)])
            }
            Action::AttackBase(s, i) | Action::Destroy(s, i)
                if !self.base_targetable(s, i as usize) =>
            {
                reason("outpost_first", &[("seat", &s)])
            }
            Action::AttackBase(s, i) => {
                let b = self.players[s].bases[i as usize];
                reason(
                    "base_defense",
                    &[
                        ("card", &b.card),
                        ("defense", &(set.def(b.card).defense() - b.damage)),
                        ("combat", &me.combat),
                    ],
                )
            }
            Action::AllyShip(i) | Action::DoubleAllyShip(i) | Action::ScrapShip(i)
                if ship(i).is_none() =>
            {
                reason("no_ship", &[("i", &i)])
            }
            Action::Primary(i)
            | Action::AllyBase(i)
            | Action::DoubleAllyBase(i)
            | Action::ScrapBase(i)
                if base(i).is_none() =>
            {
                reason("no_base", &[("i", &i)])
            }
            Action::DoubleAllyShip(i) => reason("no_double_ally_ship", &[("i", &i)]),
            Action::DoubleAllyBase(i) => reason("no_double_ally_base", &[("i", &i)]),
            Action::AllyShip(i) => reason("no_ally_ship", &[("i", &i)]),
            Action::ScrapShip(i) => reason("no_scrap_ship", &[("i", &i)]),
            Action::Primary(i) => reason("no_primary", &[("i", &i)]),
            Action::AllyBase(i) => reason("no_ally_base", &[("i", &i)]),
            Action::ScrapBase(i) => reason("no_scrap_base", &[("i", &i)]),
            Action::Discard(_)
            | Action::ScrapHand(_)
            | Action::ScrapDiscard(_)
            | Action::ScrapRow(_)
            | Action::Choose(_)
            | Action::Target(_)
            | Action::Copy(_)
            | Action::AcquireRow(_)
            | Action::AcquireUpgrade(..)
            | Action::AcquireExplorer
            | Action::Top
            | Action::TopBase(_)
            | Action::ToHand
            | Action::CopyBase(..)
            | Action::Pass
            | Action::Destroy(..)
            | Action::Bequeath(_) => reason("no_decision", &[]),
            _ => reason("not_now", &[]),
        }
    }

    /// Why an upgrade at acquisition is refused.
    fn why_no_upgrade(&self, slot: u8, sheet: u8, row: u8, free: bool) -> Reason {
        use crate::refusal::reason;
        let set = cards();
        let me = self.me();
        let Some(c) = self.row[slot as usize] else {
            return reason("empty_slot", &[("slot", &slot)]);
        };
        let Some(used) = me.sheets.get(sheet as usize) else {
            return match me.sheets.len() {
                0 => reason("no_sheet", &[]),
                n => reason("sheets_count", &[("n", &n)]),
            };
        };
        let info = set.info(c);
        let sheet_def = &set.sheets[used.sheet.0 as usize];
        let sheet_row = &sheet_def.row[row as usize];
        let column = Column::of(info.kind);
        let r = row + 1;
        let id = &sheet_def.id;
        if !info.upgradable {
            return if set.def(c).upgrade.is_some() {
                reason("already_upgraded", &[("card", &c)])
            } else {
                reason("not_upgradable", &[("card", &c)])
            };
        }
        if free && info.kind != Kind::Ship {
            return reason("not_a_ship", &[("card", &c)]);
        }
        if !used.row_free(row) {
            return reason("row_used", &[("row", &r), ("sheet", id)]);
        }
        if sheet_row.cost != info.cost {
            return reason(
                "row_cost",
                &[
                    ("row", &r),
                    ("sheet", id),
                    ("printed", &sheet_row.cost),
                    ("card", &c),
                    ("cost", &info.cost),
                ],
            );
        }
        if sheet_row.sticker(column).is_none() {
            let args: [(&str, &dyn std::fmt::Display); 2] = [("row", &r), ("sheet", id)];
            return match column {
                Column::Ship => reason("no_ship_sticker", &args),
                Column::Base => reason("no_base_sticker", &args),
            };
        }
        if set.upgraded(c, used.sheet.0, row).is_none() {
            return reason("wrong_set", &[("sheet", id), ("card", &c)]);
        }
        let price = if free { 0 } else { info.cost as u16 } + column.price() as u16;
        reason(
            "upgrade_cost",
            &[("card", &c), ("price", &price), ("trade", &me.trade)],
        )
    }

    /// Applies an action known to be legal (taken from [`State::legal_actions_into`]).
    /// Rollouts call this directly to skip the membership check.
    pub fn apply_unchecked(&mut self, action: Action) {
        match self.pending.take() {
            Some(p) => self.answer(p, action),
            None => self.main_action(action),
        }
        self.resolve();
    }

    fn main_action(&mut self, action: Action) {
        let set = cards();
        let cur = self.current;
        if self.config.format == Format::Hydra
            && !matches!(
                action,
                Action::TransferTrade(..)
                    | Action::TransferCombat(..)
                    | Action::Switch(_)
                    | Action::End
            )
        {
            self.progress = true;
        }
        match action {
            Action::Play(c) => self.play(c),
            Action::Primary(i) => {
                let b = &mut self.me_mut().bases[i as usize];
                b.primary_used = true;
                let card = b.effective();
                // The frame of a base that copies bases keeps its position.
                let copies = cards().def(card).spec.primary.contains(&Effect::CopyBase);
                self.push_frame(card, Ability::Primary, if copies { i } else { u8::MAX });
            }
            Action::AllyShip(i) => {
                let s = &mut self.me_mut().ships[i as usize];
                s.ally_used = true;
                let card = s.effective();
                self.push_frame(card, Ability::Ally, i);
            }
            Action::AllyBase(i) => {
                let b = &mut self.me_mut().bases[i as usize];
                b.ally_used = true;
                let card = b.effective();
                self.push_frame(card, Ability::Ally, u8::MAX);
            }
            Action::DoubleAllyShip(i) => {
                let s = &mut self.me_mut().ships[i as usize];
                s.ally2_used = true;
                let card = s.effective();
                self.push_frame(card, Ability::DoubleAlly, i);
            }
            Action::DoubleAllyBase(i) => {
                let b = &mut self.me_mut().bases[i as usize];
                b.ally2_used = true;
                let card = b.effective();
                self.push_frame(card, Ability::DoubleAlly, u8::MAX);
            }
            Action::ScrapShip(i) => {
                let s = self.me_mut().ships.remove(i as usize);
                self.scrap_own_in_play(s);
            }
            Action::ScrapBase(i) => {
                let b = self.me_mut().bases.remove(i as usize);
                self.scrap_own_in_play(b);
            }
            Action::BuyRow(slot) => {
                let c = self.row[slot as usize].take().expect("legal buy");
                self.me_mut().trade -= set.info(c).cost as u16;
                self.refill(slot as usize);
                self.acquire(c, None, c);
            }
            Action::BuyUpgrade(slot, sheet, row) => {
                let c = self.row[slot as usize].take().expect("legal buy");
                self.me_mut().trade -= set.info(c).cost as u16;
                self.refill(slot as usize);
                self.upgrade_and_acquire(c, sheet, row, None);
            }
            Action::BuyExplorer => {
                self.explorers -= 1;
                self.me_mut().trade -= set.info(set.explorer).cost as u16;
                self.acquire(set.explorer, None, set.explorer);
            }
            Action::AttackPlayer(seat, n) => {
                self.me_mut().combat -= n as u16;
                self.damage(seat, n as i32);
            }
            Action::AttackBase(seat, i) => {
                let b = self.players[seat].bases[i as usize];
                let need = set.info(b.card).defense.saturating_sub(b.damage) as u16;
                let spent = need.min(self.players[cur].combat);
                self.players[cur].combat -= spent;
                if spent < need {
                    // Raid: damage on the Boss's bases stays until the Boss's turn.
                    self.players[seat].bases[i as usize].damage += spent as u8;
                } else {
                    self.destroy_base(seat, i as usize);
                }
            }
            Action::Give(c, seat) => {
                let me = self.me_mut();
                me.trade -= 1;
                let at = me
                    .discard
                    .iter()
                    .rposition(|&x| x == c)
                    .expect("legal give");
                me.discard.remove(at);
                self.players[seat].discard.push(c);
            }
            Action::TransferTrade(seat, n) => {
                self.me_mut().trade -= n as u16;
                self.players[seat].trade += n as u16;
            }
            Action::TransferCombat(seat, n) => {
                self.me_mut().combat -= n as u16;
                self.players[seat].combat += n as u16;
            }
            Action::Switch(seat) => {
                self.current = seat;
                self.progress = false;
            }
            Action::End => self.end_turn(),
            _ => unreachable!("decision action {action} outside a decision"),
        }
    }

    fn answer(&mut self, p: Pending, action: Action) {
        let set = cards();
        match (p, action) {
            (Pending::Choose { source, at }, Action::Choose(o)) => {
                self.frames.push(Frame {
                    source: Source {
                        option: Some([at, o]),
                        ..source
                    },
                    next: 0,
                    ship: u8::MAX,
                });
            }
            (
                Pending::Scrap {
                    from,
                    left,
                    optional,
                    draw_per_card,
                    done,
                    combat_per_card,
                    combat_for_cost,
                },
                a @ (Action::ScrapHand(_) | Action::ScrapDiscard(_) | Action::Pass),
            ) => {
                let card = match a {
                    Action::ScrapHand(c) => {
                        self.me_mut().take_from_hand(c);
                        Some(c)
                    }
                    Action::ScrapDiscard(c) => {
                        let d = &mut self.me_mut().discard;
                        let i = d.iter().rposition(|&x| x == c).expect("legal scrap");
                        d.remove(i);
                        Some(c)
                    }
                    _ => None,
                };
                if let Some(c) = card {
                    let me = self.me_mut();
                    me.scrapped = me.scrapped.saturating_add(1);
                    me.scrapped_all = me.scrapped_all.saturating_add(1);
                    me.combat += combat_per_card as u16;
                    if combat_for_cost {
                        me.combat += set.info(c).cost as u16;
                    }
                    self.scrap_card(c);
                }
                let scrapped = card.is_some();
                let (left, done) = if scrapped {
                    (left - 1, done + 1)
                } else {
                    (0, done)
                };
                let next = Pending::Scrap {
                    from,
                    left,
                    optional,
                    draw_per_card,
                    done,
                    combat_per_card,
                    combat_for_cost,
                };
                if !self.offer(next) && draw_per_card {
                    self.draw(self.current, done as usize);
                }
            }
            (
                Pending::ScrapTradeRow {
                    optional,
                    left,
                    combat_for_cost,
                },
                Action::ScrapRow(slot),
            ) => {
                let c = self.row[slot as usize].take().expect("legal scrap");
                if combat_for_cost {
                    self.me_mut().combat += set.info(c).cost as u16;
                }
                self.scrap_card(c);
                self.refill(slot as usize);
                self.offer(Pending::ScrapTradeRow {
                    optional,
                    left: left - 1,
                    combat_for_cost,
                });
            }
            (Pending::DestroyBase { .. }, Action::Destroy(seat, i)) => {
                self.destroy_base(seat, i as usize);
            }
            (Pending::DiscardTarget, Action::Target(seat)) => self.make_discard(seat),
            (Pending::PlayerDiscardTarget, Action::Target(seat)) => {
                if seat == self.current {
                    // Oneself discards at once, from the hand of this turn.
                    self.offer(Pending::Discard { seat, left: 1 });
                } else {
                    self.make_discard(seat);
                }
            }
            (Pending::BaseToTop, Action::TopBase(c)) => {
                let me = self.me_mut();
                let i = me.discard.iter().rposition(|&x| x == c).expect("legal top");
                me.discard.remove(i);
                me.deck.push(c);
                me.deck_known += 1;
            }
            (Pending::Discard { seat, left }, Action::Discard(c)) => {
                let p = &mut self.players[seat];
                p.take_from_hand(c);
                p.discard.push(c);
                if !self.offer(Pending::Discard {
                    seat,
                    left: left - 1,
                }) {
                    self.offer_owed_discards();
                }
            }
            (Pending::DiscardThenDraw { left, done }, a) => match a {
                Action::Discard(c) => {
                    let me = self.me_mut();
                    me.take_from_hand(c);
                    me.discard.push(c);
                    if !self.offer(Pending::DiscardThenDraw {
                        left: left - 1,
                        done: done + 1,
                    }) {
                        self.draw(self.current, done as usize + 1);
                    }
                }
                _ => self.draw(self.current, done as usize),
            },
            (Pending::CopyShip { ship }, Action::Copy(i)) => {
                let target = self.me().ships[i as usize].effective();
                let me = self.me_mut();
                me.ships[ship as usize].copy = Some(target);
                me.ships[ship as usize].refresh();
                if let Some(f) = set.def(target).spec.faction
                    && set.def(me.ships[ship as usize].card).spec.faction != Some(f)
                {
                    me.played[f as usize] += 1;
                }
                self.push_frame(target, Ability::Primary, ship);
            }
            (Pending::AcquireFree, Action::AcquireRow(slot)) => {
                let c = self.row[slot as usize].take().expect("legal acquire");
                self.refill(slot as usize);
                self.acquire(c, Some(Dest::Top), c);
            }
            (Pending::AcquireFree, Action::AcquireUpgrade(slot, sheet, row)) => {
                let c = self.row[slot as usize].take().expect("legal acquire");
                self.refill(slot as usize);
                self.upgrade_and_acquire(c, sheet, row, Some(Dest::Top));
            }
            (Pending::AcquireFree, Action::AcquireExplorer) => {
                self.explorers -= 1;
                self.acquire(set.explorer, Some(Dest::Top), set.explorer);
            }
            (Pending::AcquireUpTo { to, .. }, Action::AcquireRow(slot)) => {
                let c = self.row[slot as usize].take().expect("legal acquire");
                self.refill(slot as usize);
                self.acquire(c, free_dest(to), c);
            }
            (Pending::AcquireUpTo { to, .. }, Action::AcquireUpgrade(slot, sheet, row)) => {
                let c = self.row[slot as usize].take().expect("legal acquire");
                self.refill(slot as usize);
                self.upgrade_and_acquire(c, sheet, row, free_dest(to));
            }
            (Pending::AcquireUpTo { to, .. }, Action::AcquireExplorer) => {
                self.explorers -= 1;
                self.acquire(set.explorer, free_dest(to), set.explorer);
            }
            (Pending::TopOrDiscard { card }, Action::Top) => {
                let me = self.me_mut();
                let c = me.discard.pop().expect("the ship just acquired");
                debug_assert_eq!(c, card);
                me.deck.push(c);
                me.deck_known += 1;
                self.mark_on_acquire(c, Dest::Top);
            }
            (Pending::ToHand { card, on_deck }, Action::ToHand) => {
                let me = self.me_mut();
                let c = if on_deck {
                    me.deck_known -= 1;
                    me.deck.pop()
                } else {
                    me.discard.pop()
                };
                debug_assert_eq!(c, Some(card));
                me.hand.push(card);
                me.hand_known.push(card);
            }
            (Pending::CopyBase { base }, Action::CopyBase(seat, i)) => {
                let target = self.players[seat].bases[i as usize].effective();
                let b = &mut self.me_mut().bases[base as usize];
                b.copy = Some(target);
                // The copy's abilities are new to this turn.
                b.primary_used = false;
                b.ally_used = false;
                b.ally2_used = false;
                b.refresh();
            }
            (Pending::DiscardFor { source, at, left }, Action::Discard(c)) => {
                let me = self.me_mut();
                me.take_from_hand(c);
                me.discard.push(c);
                let next = Pending::DiscardReward {
                    source,
                    at,
                    left: left - 1,
                };
                match &source.effects()[at as usize] {
                    Effect::DiscardFor { reward, .. } if reward.len() == 1 => {
                        self.answer(next, Action::Choose(0))
                    }
                    _ => self.pending = Some(next),
                }
            }
            (Pending::DiscardReward { source, at, left }, Action::Choose(o)) => {
                if let Effect::DiscardFor { reward, .. } = &source.effects()[at as usize] {
                    for e in &reward[o as usize] {
                        self.effect(e, source, at, u8::MAX);
                    }
                }
                self.offer(Pending::DiscardFor { source, at, left });
            }
            (Pending::Bequeath { from, to }, a) => {
                if let Action::Bequeath(c) = a {
                    let pool = &mut self.players[from].discard;
                    let at = pool.iter().rposition(|&x| x == c).expect("legal bequest");
                    pool.remove(at);
                    self.players[to].discard.push(c);
                }
                self.next_bequest(from);
            }
            (Pending::TopOrDiscard { .. }, Action::Pass)
            | (Pending::ToHand { .. }, Action::Pass)
            | (Pending::DiscardFor { .. }, Action::Pass)
            | (Pending::ScrapTradeRow { .. }, Action::Pass)
            | (Pending::DestroyBase { .. }, Action::Pass) => {}
            (p, a) => unreachable!("{a} does not answer {p:?}"),
        }
    }

    // ----- effects -------------------------------------------------------------------------

    fn push_frame(&mut self, card: CardId, ability: Ability, ship: u8) {
        self.frames.push(Frame {
            source: Source {
                card,
                ability,
                option: None,
            },
            next: 0,
            ship,
        });
    }

    /// Resolves frames until a decision is needed or nothing is left.
    fn resolve(&mut self) {
        while self.pending.is_none() && !self.over {
            let Some(frame) = self.frames.last_mut() else {
                return;
            };
            let effects = frame.source.effects();
            let at = frame.next as usize;
            if at >= effects.len() {
                self.frames.pop();
                continue;
            }
            frame.next += 1;
            let (source, ship) = (frame.source, frame.ship);
            self.effect(&effects[at], source, at as u8, ship);
        }
    }

    /// Leaves `p` pending if it has an answer; returns whether it did.
    fn offer(&mut self, p: Pending) -> bool {
        if self.decision_possible(p) {
            self.pending = Some(p);
            true
        } else {
            false
        }
    }

    fn effect(&mut self, e: &Effect, source: Source, at: u8, ship: u8) {
        let cur = self.current;
        match *e {
            Effect::Trade(n) => self.me_mut().trade += n as u16,
            Effect::Combat(n) => self.me_mut().combat += n as u16,
            Effect::Authority(n) => self.gain_authority(cur, n as i32),
            Effect::Draw(n) => self.draw(cur, n as usize),
            Effect::OpponentDiscards => {
                let mut only = None;
                let mut count = 0;
                for (s, _) in self.players.iter() {
                    if self.may_target_player(cur, s) {
                        only = Some(s);
                        count += 1;
                    }
                }
                match (only, count) {
                    (Some(only), 1) => self.make_discard(only),
                    (Some(_), _) => self.pending = Some(Pending::DiscardTarget),
                    _ => {}
                }
            }
            Effect::Scrap {
                from,
                count,
                optional,
                draw_per_card,
                combat_per_card,
                combat_for_cost,
            } => {
                self.offer(Pending::Scrap {
                    from,
                    left: count,
                    optional,
                    draw_per_card,
                    done: 0,
                    combat_per_card,
                    combat_for_cost,
                });
            }
            Effect::ScrapTradeRow {
                optional,
                count,
                combat_for_cost,
            } => {
                self.offer(Pending::ScrapTradeRow {
                    optional,
                    left: count,
                    combat_for_cost,
                });
            }
            Effect::DestroyBase { optional } => {
                self.offer(Pending::DestroyBase { optional });
            }
            Effect::Choose(_) => self.pending = Some(Pending::Choose { source, at }),
            Effect::NextShipOnTop => self.me_mut().next_ship_top += 1,
            Effect::AcquireShipFreeOnTop => {
                self.offer(Pending::AcquireFree);
            }
            Effect::CopyShip => {
                if ship != u8::MAX {
                    self.offer(Pending::CopyShip { ship });
                }
            }
            Effect::DrawPerPlayed(f) => {
                let n = self.me().played[f as usize];
                self.draw(cur, n as usize);
            }
            Effect::DrawIfBases { bases, draw } => {
                if self.me().bases.len() >= bases as usize {
                    self.draw(cur, draw as usize);
                }
            }
            Effect::DiscardThenDraw(n) => {
                self.offer(Pending::DiscardThenDraw { left: n, done: 0 });
            }
            Effect::Discard(n) => {
                self.offer(Pending::Discard { seat: cur, left: n });
            }
            Effect::AcquireFree { cost, to } => {
                self.offer(Pending::AcquireUpTo { cost, to });
            }
            Effect::NextAcquire(to) => self.me_mut().redirects.push(to),
            Effect::CopyBase => {
                if ship != u8::MAX {
                    self.offer(Pending::CopyBase { base: ship });
                }
            }
            Effect::If { when, ref then } => {
                let holds = match when {
                    Condition::Bases(n) => self.me().bases.len() >= n as usize,
                    Condition::OpponentBase => {
                        let team = self.me().team;
                        self.players
                            .iter()
                            .any(|(_, p)| p.alive && p.team != team && !p.bases.is_empty())
                    }
                };
                if holds {
                    for e in then {
                        self.effect(e, source, at, ship);
                    }
                }
            }
            Effect::ToHandIfPlayed(f) => {
                // `ship` holds where the card was put (see `acquire`).
                let me = self.me();
                let on_deck = ship == Dest::Top as u8;
                let put = if on_deck {
                    me.deck.last()
                } else {
                    me.discard.last()
                };
                if me.played[f as usize] > 0
                    && ship != Dest::Hand as u8
                    && let Some(&card) = put
                    && cards().printed(card) == source.card
                {
                    self.pending = Some(Pending::ToHand { card, on_deck });
                }
            }
            Effect::CombatPerScrapped(n) => {
                let me = self.me_mut();
                me.combat += n as u16 * me.scrapped as u16;
            }
            Effect::DiscardFor { count, .. } => {
                // "Any number" is at most the hand.
                let left = count.min(self.me().hand.len().min(u8::MAX as usize) as u8);
                self.offer(Pending::DiscardFor { source, at, left });
            }
            Effect::BaseFromDiscardOnTop => {
                self.offer(Pending::BaseToTop);
            }
            Effect::NextBaseOnTop => {
                let me = self.me_mut();
                me.next_base_top = me.next_base_top.saturating_add(1);
            }
            // Noted when the card is scrapped (see `scrap_own_in_play`).
            Effect::ReturnFromScrapHeap => {}
            Effect::CombatPerOwnScrapped(n) => {
                let me = self.me_mut();
                me.combat += n as u16 * me.scrapped_all as u16;
            }
            Effect::PlayerDiscards => self.pending = Some(Pending::PlayerDiscardTarget),
        }
    }

    /// Scraps a card of the current player's in play for its scrap ability: counted as one of
    /// the player's scrapped this turn, noted to come back at the end of the turn if its
    /// ability says so, then the ability resolves.
    fn scrap_own_in_play(&mut self, p: InPlay) {
        let card = p.effective();
        let me = self.me_mut();
        me.scrapped_all = me.scrapped_all.saturating_add(1);
        if cards().info(card).returns {
            me.returning.push(p.card);
        }
        self.scrap_card(p.card);
        self.push_frame(card, Ability::Scrap, u8::MAX);
    }

    /// Notes, on the on-acquire frame of `card` still to resolve, that the card was moved.
    fn mark_on_acquire(&mut self, card: CardId, to: Dest) {
        let printed = cards().printed(card);
        if let Some(f) = self.frames.iter_mut().rev().find(|f| {
            f.source.ability == Ability::OnAcquire && f.source.card == printed && f.next == 0
        }) {
            f.ship = to as u8;
        }
    }

    fn make_discard(&mut self, victim: Seat) {
        match self.config.discard_timing {
            DiscardTiming::Immediate => {
                self.offer(Pending::Discard {
                    seat: victim,
                    left: 1,
                });
            }
            DiscardTiming::NextTurn => self.players[victim].pending_discards += 1,
        }
    }

    fn play(&mut self, c: CardId) {
        let set = cards();
        let info = set.info(c);
        let me = self.me_mut();
        me.take_from_hand(c);
        let mut member = info.member;
        while member != 0 {
            me.played[member.trailing_zeros() as usize] += 1;
            member &= member - 1;
        }
        if info.kind.is_base() {
            me.bases.push(InPlay::new(c));
            if !self.config.rules.is_empty() {
                self.play_bonus(c);
            }
            return;
        }
        let fleet: u16 = me
            .bases
            .iter()
            .map(|b| {
                let base = set.info(b.effective());
                if base.ship_factions == 0 || base.ship_factions & info.member != 0 {
                    base.combat_per_ship as u16
                } else {
                    0
                }
            })
            .sum();
        me.combat += fleet;
        let mut ship = InPlay::new(c);
        ship.primary_used = true;
        me.ships.push(ship);
        let index = (me.ships.len() - 1) as u8;
        if !self.config.rules.is_empty() {
            self.play_bonus(c);
        }
        if info.simple_primary {
            // No decision can interrupt these effects: resolve them at once.
            let source = Source {
                card: c,
                ability: Ability::Primary,
                option: None,
            };
            for (at, e) in source.effects().iter().enumerate() {
                self.effect(e, source, at as u8, index);
            }
        } else {
            self.push_frame(c, Ability::Primary, index);
        }
    }

    /// Puts the acquired card `c` in its place: `to` for an effect that says where, else the
    /// discard pile unless a redirect (Factory World) says otherwise, or a "may go on top"
    /// (Freighter) is offered. Then `trigger`'s on-acquire ability (the printed card's) resolves,
    /// once the card is placed (and a "top of deck" answered) and the row refilled.
    fn acquire(&mut self, c: CardId, to: Option<Dest>, trigger: CardId) {
        let set = cards();
        let is_ship = set.info(c).kind == Kind::Ship;
        let me = self.me_mut();
        let to = match to {
            Some(to) => to,
            None if !is_ship && me.next_base_top > 0 => {
                me.next_base_top -= 1;
                Dest::Top
            }
            None if !me.redirects.is_empty() => me.redirects.remove(0),
            None => Dest::Discard,
        };
        match to {
            Dest::Top => {
                me.deck.push(c);
                me.deck_known += 1;
            }
            Dest::Hand => {
                me.hand.push(c);
                me.hand_known.push(c);
            }
            Dest::Discard => me.discard.push(c),
        }
        if set.info(trigger).has_on_acquire {
            self.push_frame(trigger, Ability::OnAcquire, to as u8);
        }
        let me = self.me_mut();
        if to == Dest::Discard && is_ship && me.next_ship_top > 0 {
            me.next_ship_top -= 1;
            self.pending = Some(Pending::TopOrDiscard { card: c });
        }
    }

    /// A scenario's bonus for playing `c`: its gains and draws at once.
    fn play_bonus(&mut self, c: CardId) {
        let cur = self.current;
        let rules = std::mem::take(&mut self.config.rules);
        for r in &rules {
            if let Rule::Bonus {
                seat,
                card,
                effects,
            } = r
                && *card == c
                && seat.is_none_or(|s| s == cur.0)
            {
                for e in effects {
                    match *e {
                        Effect::Trade(n) => self.me_mut().trade += n as u16,
                        Effect::Combat(n) => self.me_mut().combat += n as u16,
                        Effect::Authority(n) => self.gain_authority(cur, n as i32),
                        Effect::Draw(n) => self.draw(cur, n as usize),
                        _ => {}
                    }
                }
            }
        }
        self.config.rules = rules;
    }

    /// Calls `f(sheet, row)` for each sticker the current player may put on `c`, a card whose
    /// acquisition costs `price` trade before the upgrade.
    #[inline]
    fn upgrades(&self, c: CardId, price: u16, mut f: impl FnMut(u8, u8)) {
        let set = cards();
        let info = set.info(c);
        if !info.upgradable {
            return;
        }
        let me = self.me();
        if me.trade < price + Column::of(info.kind).price() as u16 {
            return;
        }
        for (s, sheet) in me.sheets.iter().enumerate() {
            for r in 0..SHEET_ROWS as u8 {
                if sheet.row_free(r) && set.upgraded(c, sheet.sheet.0, r).is_some() {
                    f(s as u8, r);
                }
            }
        }
    }

    /// Steps 2–7 of an upgrade: pay the upgrade, use the sticker (a political victory ends the
    /// game), put the upgraded card where it goes (the row is already refilled), then resolve
    /// the printed card's on-acquire ability, which the upgraded card no longer has.
    fn upgrade_and_acquire(&mut self, c: CardId, sheet: u8, row: u8, to: Option<Dest>) {
        let set = cards();
        let column = Column::of(set.info(c).kind);
        let me = self.me_mut();
        me.trade -= column.price() as u16;
        let used = &mut me.sheets[sheet as usize];
        match column {
            Column::Ship => used.ship |= 1 << row,
            Column::Base => used.base |= 1 << row,
        }
        let (sheet_id, political, count) = (used.sheet, used.political, used.used());
        let upgraded = set
            .upgraded(c, sheet_id.0, row)
            .expect("a legal upgrade has its card");
        self.acquire(upgraded, to, c);
        if political && count as usize == SHEET_ROWS {
            let team = self.me().team;
            let mask = self
                .players
                .iter()
                .filter(|(_, p)| p.team == team)
                .fold(0u8, |m, (s, _)| m | 1 << s.0);
            self.finish(mask);
        }
    }

    pub(crate) fn scrap_card(&mut self, c: CardId) {
        if c == cards().explorer {
            self.explorers += 1;
        } else {
            self.scrap_heap.push(c);
        }
    }

    fn refill(&mut self, slot: usize) {
        if self.config.rules.is_empty() || slot < self.row_slots() {
            self.row[slot] = self.trade_deck.pop();
        }
    }

    /// Slots of the trade row (fewer under a scenario's `row` rule).
    fn row_slots(&self) -> usize {
        self.config
            .rules
            .iter()
            .find_map(|r| match *r {
                Rule::Row { slots } => Some(slots as usize),
                _ => None,
            })
            .unwrap_or(ROW_SIZE)
    }

    /// A scenario's rules at the start of a turn: cards drawn, then discarded.
    fn start_turn(&mut self) {
        if self.config.rules.is_empty() || self.over {
            return;
        }
        let cur = self.current;
        let (mut draw, mut discard) = (0, 0);
        for r in &self.config.rules {
            if let Rule::TurnStart {
                seat,
                draw: d,
                discard: x,
            } = *r
                && seat.is_none_or(|s| s == cur.0)
            {
                draw += d as usize;
                discard += x;
            }
        }
        if draw > 0 {
            self.draw(cur, draw);
        }
        match self.pending {
            _ if discard == 0 => {}
            None => {
                self.offer(Pending::Discard {
                    seat: cur,
                    left: discard,
                });
            }
            // Discards owed from the last turn come first: one decision for all.
            Some(Pending::Discard { seat, left }) if seat == cur => {
                self.pending = Some(Pending::Discard {
                    seat,
                    left: left + discard,
                });
            }
            Some(_) => {}
        }
    }

    fn destroy_base(&mut self, seat: Seat, index: usize) {
        let p = &mut self.players[seat];
        let b = p.bases.remove(index);
        p.discard.push(b.card);
    }

    /// Draws up to `n` cards, reshuffling the discard pile when the deck runs out; with both
    /// empty, fewer cards are drawn.
    pub fn draw(&mut self, seat: Seat, n: usize) {
        let p = &mut self.players[seat];
        for _ in 0..n {
            if p.deck.is_empty() {
                if p.discard.is_empty() {
                    return;
                }
                std::mem::swap(&mut p.deck, &mut p.discard);
                game::shuffle(&mut self.rng, &mut p.deck);
                p.deck_known = 0;
            }
            let c = p.deck.pop().expect("deck not empty");
            if p.deck_known > 0 {
                p.deck_known -= 1;
                p.hand_known.push(c);
            }
            p.hand.push(c);
        }
    }

    fn end_turn(&mut self) {
        let cur = self.current;
        for c in std::mem::take(&mut self.players[cur].returning) {
            // At the end of the turn (before the discard phase), back to the discard pile.
            if let Some(i) = self.scrap_heap.iter().rposition(|&x| x == c) {
                self.scrap_heap.remove(i);
                self.players[cur].discard.push(c);
            }
        }
        let p = &mut self.players[cur];
        p.trade = 0;
        p.combat = 0;
        p.next_ship_top = 0;
        p.played = [0; Faction::COUNT];
        p.scrapped = 0;
        p.scrapped_all = 0;
        p.next_base_top = 0;
        p.redirects.clear();
        for b in p.bases.iter_mut().filter(|b| b.copy.is_some()) {
            // A copy lasts until its owner's turn ends.
            b.copy = None;
            b.refresh();
        }
        for s in p.ships.drain(..) {
            p.discard.push(s.card);
        }
        p.discard.append(&mut p.hand);
        p.hand_known.clear();
        for b in p.bases.iter_mut() {
            b.primary_used = false;
            b.ally_used = false;
            b.ally2_used = false;
        }
        self.draw(cur, self.config.hand_size(cur.index()));
        let hydra = self.config.format == Format::Hydra;
        if hydra {
            // A Hydra member's part of the team turn ends; a teammate still playing takes over.
            self.players[cur].done = true;
            self.progress = false;
            if let Some(mate) = self.playing_teammate(cur) {
                self.current = mate;
                return;
            }
            for p in self.players.0.iter_mut() {
                p.done = false;
            }
        }
        let n = self.players.len();
        let team = self.players[cur].team;
        let mut next = cur;
        loop {
            next = Seat(((next.index() + 1) % n) as u8);
            let p = &self.players[next];
            // Hydra: the turn goes to the next team (its first living member).
            if p.alive && (!hydra || p.team != team) {
                break;
            }
        }
        self.current = next;
        self.turn += 1;
        // Damage on bases lasts for a turn (a Hydra team's whole turn); in a raid, damage on the
        // Boss's bases lasts until the Boss's turn.
        let raid = self.config.format == Format::Raid;
        for (seat, p) in self.players.0.iter_mut().enumerate() {
            if !raid || seat != 0 || next.0 == 0 {
                for b in p.bases.iter_mut() {
                    b.damage = 0;
                }
            }
        }
        if self.turn >= self.config.turn_limit {
            self.over = true;
            return;
        }
        self.offer_owed_discards();
        self.start_turn();
    }

    /// Offers the discards owed at the start of the turn (app timing): the current player's, or
    /// in a Hydra every member's of the team in play, one after another.
    fn offer_owed_discards(&mut self) {
        let cur = self.current;
        let team = self.players[cur].team;
        let hydra = self.config.format == Format::Hydra;
        for i in 0..self.players.len() {
            let seat = Seat(i as u8);
            let p = &self.players[seat];
            if !(seat == cur || hydra && p.alive && p.team == team) {
                continue;
            }
            let owed = std::mem::take(&mut self.players[seat].pending_discards);
            if owed > 0 && self.offer(Pending::Discard { seat, left: owed }) {
                return;
            }
        }
    }

    // ----- results and views ---------------------------------------------------------------

    /// Per-seat results once the game is over: 1 for each winner (a winning team's fallen
    /// members included), 0 for the others; in a draw at the turn limit, the teams still alive
    /// share 1.
    pub fn returns(&self) -> Vec<f64> {
        if !self.over {
            return vec![0.0; self.players.len()];
        }
        if self.victors != 0 {
            return (0..self.players.len())
                .map(|i| f64::from(self.victors >> i & 1))
                .collect();
        }
        let mut teams: ArrayVec<u8, { game::MAX_SEATS }> = ArrayVec::new();
        for p in self.players.0.iter().filter(|p| p.alive) {
            if !teams.contains(&p.team) {
                teams.push(p.team);
            }
        }
        let share = 1.0 / teams.len().max(1) as f64;
        self.players
            .0
            .iter()
            .map(|p| if p.alive { share } else { 0.0 })
            .collect()
    }

    /// Whether the game ended in a draw (at the turn limit).
    pub fn is_draw(&self) -> bool {
        self.over && self.victors == 0
    }

    /// The winning seats, once the game is over (none after a draw).
    pub fn winners(&self) -> Vec<Seat> {
        if !self.over {
            return Vec::new();
        }
        (0..self.players.len() as u8)
            .filter(|&i| self.victors >> i & 1 == 1)
            .map(Seat)
            .collect()
    }

    /// Counts every card of the game in every zone (tests: cards are conserved).
    pub fn card_counts(&self) -> Vec<usize> {
        let mut counts = vec![0; cards().len()];
        let set = cards();
        let mut add = |c: CardId| counts[set.printed(c).0 as usize] += 1;
        for p in &self.players.0 {
            p.all_cards().for_each(&mut add);
        }
        self.row.iter().flatten().copied().for_each(&mut add);
        self.trade_deck.iter().copied().for_each(&mut add);
        self.scrap_heap.iter().copied().for_each(&mut add);
        counts[cards().explorer.0 as usize] += self.explorers as usize;
        counts
    }

    /// What `seat` sees.
    pub fn observation(&self, seat: Seat) -> Observation {
        Observation::of(self, Some(seat))
    }

    /// What a spectator sees.
    pub fn public_observation(&self) -> Observation {
        Observation::of(self, None)
    }
}

/// Calls `f` with the position of each set bit, lowest first.
#[inline]
/// A sheet as the configuration grants it, and as a player holds it.
pub(crate) fn sheet_use(g: &crate::config::SheetGrant) -> SheetUse {
    let sheet = cards()
        .find_sheet(&g.sheet)
        .expect("a validated configuration names known sheets");
    let mut u = SheetUse {
        sheet: SheetId(sheet),
        ship: 0,
        base: 0,
        political: g.political,
    };
    for x in &g.used {
        match x.column {
            Column::Ship => u.ship |= 1 << (x.row - 1),
            Column::Base => u.base |= 1 << (x.row - 1),
        }
    }
    u
}

fn for_bits(mut bits: u128, mut f: impl FnMut(u8)) {
    while bits != 0 {
        f(bits.trailing_zeros() as u8);
        bits &= bits - 1;
    }
}

/// Where a free acquisition puts its card: the discard pile as for a purchase (`None`, so that
/// a redirect applies), or its own place.
fn free_dest(to: Dest) -> Option<Dest> {
    match to {
        Dest::Discard => None,
        to => Some(to),
    }
}

fn base_copyable(b: &InPlay) -> bool {
    // A base that copies bases and copies nothing has no base text to copy.
    !cards()
        .def(b.effective())
        .spec
        .primary
        .contains(&Effect::CopyBase)
}

fn copyable(s: &InPlay) -> bool {
    // A Stealth Needle that copied nothing has no ship text to copy.
    !cards()
        .def(s.effective())
        .spec
        .primary
        .contains(&Effect::CopyShip)
}

// Keep the dense-index bounds honest.
const _: () = assert!(MAX_SHIPS <= 256 && MAX_BASES <= 256);

impl game::State for State {
    type Action = Action;
    type Observation = Observation;
    type Config = Config;
    const GAME: &'static str = "starrealms";

    fn new_game(config: &Config, seed: u64) -> Result<Self, String> {
        State::new(config, seed)
    }
    fn num_seats(&self) -> usize {
        self.players.len()
    }
    fn to_move(&self) -> Option<Seat> {
        State::to_move(self)
    }
    fn legal_actions_into(&self, out: &mut Vec<Action>) {
        State::legal_actions_into(self, out)
    }
    fn apply(&mut self, action: Action) -> Result<(), ActionError> {
        State::apply(self, action)
    }
    fn apply_legal(&mut self, action: Action) {
        self.apply_unchecked(action)
    }
    fn returns(&self) -> Vec<f64> {
        State::returns(self)
    }
    fn winners(&self) -> Vec<Seat> {
        State::winners(self)
    }
    fn observation(&self, seat: Seat) -> Observation {
        State::observation(self, seat)
    }
    /// Every action of Star Realms is seen by the whole table: a card played, scrapped,
    /// discarded or passed on is shown as it moves, and the rest are choices made in the open.
    fn is_public(&self, _action: &Action) -> bool {
        true
    }
}
