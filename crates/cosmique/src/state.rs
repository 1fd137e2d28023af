//! The state of a game of Bataille Cosmique and its rules: setup, legal actions, actions, the
//! resolution of attacks, deaths, the end of the game.
//!
//! Fields are public so that tests and tools can build positions; whoever edits them keeps the
//! invariants written on each field.

use game::refusal::reason;
use game::{ActionError, GameRng, PerSeat, Reason, Seat};

use crate::action::{Action, Side};
use crate::card::{CARD_KINDS, Card, Colour, DECK_SIZE, Hand, Meteor, list};
use crate::config::{Config, Variant};
use crate::observation::Observation;

/// Planets (seats) in a game.
pub const SEATS: usize = 4;
/// Actions in a turn.
pub const ACTIONS_PER_TURN: u8 = 2;
/// Cards in each hand at the start.
pub const STARTING_HAND: usize = 2;

/// A defence: a meteor lying crosswise in a slot, face down until an attack reveals it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Defence {
    /// The meteor.
    pub card: Meteor,
    /// Whether it is face up (it stopped an attack since it was laid).
    pub revealed: bool,
}

/// An attack waiting in the target's slot until the target's next turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Attack {
    /// The meteor, face down: only its attacker knows it.
    pub card: Meteor,
    /// Whether a "+2" lies beside it (in sight of everybody).
    pub plus2: bool,
    /// Who attacked (perhaps a planet dead since).
    pub by: Seat,
}

/// One of a planet's two attack/defence slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Slot {
    /// The defence, if any.
    pub defence: Option<Defence>,
    /// The attack waiting, if any (at most one).
    pub attack: Option<Attack>,
}

/// One planet: a seat.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Planet {
    /// Life left; 0 once dead.
    pub life: u8,
    /// The hand.
    pub hand: Hand,
    /// The cards of the hand that every player knows are there (taken face up from an orbit):
    /// always included in `hand`. Playing a card face down makes the table forget one copy of
    /// every meteor it knew, since any of them may be the card played.
    pub known: Hand,
    /// The orbit card, face up (empty once dead, or when no card was left to refill it).
    pub orbit: Option<Card>,
    /// The slots, indexed by [`Side::index`].
    pub slots: [Slot; 2],
}

impl Planet {
    fn new(life: u8) -> Planet {
        Planet {
            life,
            hand: Hand::new(),
            known: Hand::new(),
            orbit: None,
            slots: [Slot::default(); 2],
        }
    }

    /// Whether the planet is still alive.
    #[inline]
    pub fn alive(&self) -> bool {
        self.life > 0
    }

    /// The slot on `side`.
    #[inline]
    pub fn slot(&self, side: Side) -> &Slot {
        &self.slots[side.index()]
    }

    /// The slot on `side`.
    #[inline]
    pub fn slot_mut(&mut self, side: Side) -> &mut Slot {
        &mut self.slots[side.index()]
    }

    /// Every card on the planet's board: hand (sorted), orbit, then each slot, left then right:
    /// defence, attack, "+2".
    pub fn cards(&self) -> impl Iterator<Item = Card> + '_ {
        let slots = self.slots.iter().flat_map(|s| {
            let d = s.defence.map(|d| Card::Meteor(d.card));
            let a = s.attack.map(|a| Card::Meteor(a.card));
            let p = s.attack.filter(|a| a.plus2).map(|_| Card::Plus2);
            d.into_iter().chain(a).chain(p)
        });
        self.hand.iter().chain(self.orbit).chain(slots)
    }
}

/// A whole game of Bataille Cosmique.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    /// The configuration.
    pub config: Config,
    /// The four planets, `p1` to `p4` clockwise.
    pub planets: PerSeat<Planet>,
    /// Whose turn it is (alive unless the game is over).
    pub current: Seat,
    /// Who played first.
    pub first: Seat,
    /// Player turns begun, from 1 (the turn of `current`).
    pub turn: u32,
    /// Actions left in the current turn (1 or 2 while the game goes on).
    pub actions_left: u8,
    /// The solar pile, face down; the last card is the top.
    pub pile: Vec<Card>,
    /// Whether the pile was made from the discard pile (which everybody saw): from then on
    /// everybody knows which cards it holds, though not their order.
    pub pile_public: bool,
    /// The discard pile, face up, oldest first.
    pub discard: Vec<Card>,
    /// Whether the game is over.
    pub over: bool,
    /// Once over: the last planet alive (`None`: a draw at the turn limit).
    pub winner: Option<Seat>,
    /// The game's RNG (reshuffles). Hidden state: never in an observation.
    pub rng: GameRng,
}

pub(crate) fn illegal(action: Action, why: Option<Reason>) -> ActionError {
    ActionError::Illegal {
        action: action.to_string(),
        hint: why
            .as_ref()
            .map(|r| format!(": {}", game::refusal::in_english(r)))
            .unwrap_or_default(),
        reason: why.map(Box::new),
    }
}

/// A side in words, as a key of the translation table.
fn side_key(side: Side) -> &'static str {
    match side {
        Side::Left => "refusal.cosmique_side.left",
        Side::Right => "refusal.cosmique_side.right",
    }
}

/// The living planet next to `seat` on `side` among the planets `alive`: on the left, the next
/// one clockwise; on the right, the previous one. `None` when `seat` is alone.
pub fn neighbour_among(alive: [bool; SEATS], seat: Seat, side: Side) -> Option<Seat> {
    let s = seat.index();
    (1..SEATS)
        .map(|k| match side {
            Side::Left => (s + k) % SEATS,
            Side::Right => (s + SEATS - k) % SEATS,
        })
        .find(|&i| alive[i])
        .map(|i| Seat(i as u8))
}

impl State {
    /// A new game: first player drawn, the 44 cards shuffled into the solar pile, one orbit card
    /// per planet, then two cards to each hand.
    pub fn new(config: &Config, seed: u64) -> Result<State, String> {
        config.validate()?;
        let mut rng = game::rng_from_seed(seed);
        let first = Seat(game::below(&mut rng, SEATS) as u8);
        let mut pile = Card::deck();
        game::shuffle(&mut rng, &mut pile);
        let life = config.variant.starting_life();
        let mut planets = PerSeat::from_fn(SEATS, |_| Planet::new(life));
        for p in planets.0.iter_mut() {
            p.orbit = pile.pop();
        }
        for p in planets.0.iter_mut() {
            for _ in 0..STARTING_HAND {
                p.hand.add(pile.pop().expect("44 cards deal 12"));
            }
        }
        Ok(State {
            config: config.clone(),
            planets,
            current: first,
            first,
            turn: 1,
            actions_left: ACTIONS_PER_TURN,
            pile,
            pile_public: false,
            discard: Vec::with_capacity(DECK_SIZE),
            over: false,
            winner: None,
            rng,
        })
    }

    /// The seat that must decide now, or `None` once the game is over.
    #[inline]
    pub fn to_move(&self) -> Option<Seat> {
        (!self.over).then_some(self.current)
    }

    /// The planet of a seat.
    #[inline]
    pub fn planet(&self, seat: Seat) -> &Planet {
        &self.planets[seat]
    }

    /// Which planets are alive, by seat.
    #[inline]
    pub fn alive(&self) -> [bool; SEATS] {
        std::array::from_fn(|i| self.planets.0[i].alive())
    }

    /// The living neighbour of `seat` on `side` (`None` if `seat` is the last planet alive).
    #[inline]
    pub fn neighbour(&self, seat: Seat, side: Side) -> Option<Seat> {
        neighbour_among(self.alive(), seat, side)
    }

    /// Whether a meteor of `colour` hurts `defender`: its own colour, the colour of a dead
    /// planet (universal), or any colour in the *Incolore* variant.
    #[inline]
    pub fn hurts(&self, colour: Colour, defender: Seat) -> bool {
        self.config.variant == Variant::Incolore
            || Colour::of(defender) == colour
            || !self.planets[colour.seat()].alive()
    }

    // ----- legal actions -------------------------------------------------------------------

    /// The legal actions, sorted.
    pub fn legal_actions(&self) -> Vec<Action> {
        let mut v = Vec::new();
        self.legal_actions_into(&mut v);
        v
    }

    /// Writes the legal actions, sorted and without duplicates, into `out` (cleared first). They
    /// are generated in the order of [`Action`]'s `Ord`: no sort needed.
    pub fn legal_actions_into(&self, out: &mut Vec<Action>) {
        out.clear();
        if self.over {
            return;
        }
        let cur = self.current;
        let me = &self.planets[cur];
        let hand = &me.hand;
        let meteors = || hand.distinct().filter_map(Card::as_meteor);
        if self.actions_left > 0 {
            let plus2 = self.actions_left >= 2 && hand.contains(Card::Plus2);
            for side in Side::BOTH {
                if !self.target_free(cur, side) {
                    continue;
                }
                for meteor in meteors() {
                    out.push(Action::Attack {
                        side,
                        meteor,
                        plus2: false,
                    });
                    if plus2 {
                        out.push(Action::Attack {
                            side,
                            meteor,
                            plus2: true,
                        });
                    }
                }
            }
            for side in Side::BOTH {
                if me.slot(side).defence.is_none() {
                    out.extend(meteors().map(|meteor| Action::Defend { side, meteor }));
                }
            }
            for side in Side::BOTH {
                if me.slot(side).defence.is_some() {
                    out.extend(meteors().map(|meteor| Action::Replace { side, meteor }));
                }
            }
            if me.orbit.is_some() {
                out.push(Action::TakeOrbit);
            }
            if !hand.is_empty() {
                for (seat, p) in self.planets.iter() {
                    if seat != cur && p.alive() && p.orbit.is_some() {
                        out.extend(hand.distinct().map(|card| Action::Swap { seat, card }));
                    }
                }
            }
        }
        out.push(Action::End);
        debug_assert!(out.windows(2).all(|w| w[0] < w[1]), "unsorted: {out:?}");
    }

    /// Whether `seat` may attack on `side`: the slot of that neighbour facing it is free.
    fn target_free(&self, seat: Seat, side: Side) -> bool {
        self.neighbour(seat, side)
            .is_some_and(|t| self.planets[t].slot(side.opposite()).attack.is_none())
    }

    // ----- applying actions ----------------------------------------------------------------

    /// Applies a legal action; an illegal one is rejected and the state left as it was.
    pub fn apply(&mut self, action: Action) -> Result<(), ActionError> {
        if self.over {
            return Err(ActionError::GameOver {
                action: action.to_string(),
            });
        }
        let mut legal = Vec::with_capacity(64);
        self.legal_actions_into(&mut legal);
        if legal.binary_search(&action).is_err() {
            return Err(illegal(action, self.why_illegal(action)));
        }
        self.apply_unchecked(action);
        Ok(())
    }

    fn why_illegal(&self, action: Action) -> Option<Reason> {
        let cur = self.current;
        let me = &self.planets[cur];
        let missing = |c: Card| {
            (!me.hand.contains(c))
                .then(|| reason("cosmique_not_in_hand", &[("meteor", &c), ("seat", &cur)]))
        };
        match action {
            Action::Attack { meteor, .. }
            | Action::Defend { meteor, .. }
            | Action::Replace { meteor, .. }
                if missing(meteor.into()).is_some() =>
            {
                missing(meteor.into())
            }
            Action::Attack { plus2: true, .. } if !me.hand.contains(Card::Plus2) => {
                missing(Card::Plus2)
            }
            Action::Attack { plus2: true, .. } if self.actions_left < 2 => {
                Some(reason("cosmique_plus2_first", &[]))
            }
            Action::Attack { side, .. } => self.neighbour(cur, side).map(|t| {
                reason(
                    "cosmique_attack_waiting",
                    &[
                        ("target", &t),
                        ("side", &side_key(side.opposite())),
                        ("seat", &cur),
                    ],
                )
            }),
            Action::Defend { side, .. } => Some(reason(
                "cosmique_defended",
                &[("seat", &cur), ("side", &side_key(side))],
            )),
            Action::Replace { side, .. } => Some(reason(
                "cosmique_undefended",
                &[("seat", &cur), ("side", &side_key(side))],
            )),
            Action::TakeOrbit => Some(reason("cosmique_orbit_empty", &[("seat", &cur)])),
            Action::Swap { seat, .. } if seat == cur => Some(reason("cosmique_swap_own", &[])),
            Action::Swap { seat, .. } if seat.index() >= SEATS => {
                Some(reason("cosmique_no_planet", &[("seat", &seat)]))
            }
            Action::Swap { seat, .. } if !self.planets[seat].alive() => {
                Some(reason("cosmique_destroyed", &[("seat", &seat)]))
            }
            Action::Swap { card, .. } if missing(card).is_some() => missing(card),
            Action::Swap { seat, .. } => Some(reason("cosmique_orbit_empty", &[("seat", &seat)])),
            Action::End => None,
        }
    }

    /// Applies an action known to be legal (taken from [`State::legal_actions_into`]).
    /// Rollouts call this directly to skip the membership check.
    pub fn apply_unchecked(&mut self, action: Action) {
        let cur = self.current;
        match action {
            Action::Attack {
                side,
                meteor,
                plus2,
            } => {
                self.play_face_down(cur, meteor);
                if plus2 {
                    let me = &mut self.planets[cur];
                    me.hand.remove(Card::Plus2);
                    me.known.remove(Card::Plus2);
                }
                let target = self.neighbour(cur, side).expect("a neighbour");
                self.planets[target].slot_mut(side.opposite()).attack = Some(Attack {
                    card: meteor,
                    plus2,
                    by: cur,
                });
                self.actions_left -= if plus2 { 2 } else { 1 };
            }
            Action::Defend { side, meteor } => {
                self.play_face_down(cur, meteor);
                self.planets[cur].slot_mut(side).defence = Some(Defence {
                    card: meteor,
                    revealed: false,
                });
                self.actions_left -= 1;
            }
            Action::Replace { side, meteor } => {
                self.play_face_down(cur, meteor);
                let slot = self.planets[cur].slot_mut(side);
                let old = slot.defence.replace(Defence {
                    card: meteor,
                    revealed: false,
                });
                self.discard
                    .push(old.expect("a defence to replace").card.into());
                self.actions_left -= 1;
            }
            Action::TakeOrbit => {
                let card = self.planets[cur].orbit.take().expect("an orbit card");
                let me = &mut self.planets[cur];
                me.hand.add(card);
                me.known.add(card);
                self.planets[cur].orbit = self.draw();
                self.actions_left -= 1;
            }
            Action::Swap { seat, card } => {
                let taken = self.planets[seat]
                    .orbit
                    .replace(card)
                    .expect("an orbit card");
                let me = &mut self.planets[cur];
                me.hand.remove(card);
                me.known.remove(card);
                me.hand.add(taken);
                me.known.add(taken);
                self.actions_left -= 1;
            }
            Action::End => self.actions_left = 0,
        }
        if self.actions_left == 0 {
            self.pass_turn();
        }
    }

    /// A meteor leaves `seat`'s hand face down: the table no longer knows for sure that any
    /// meteor it knew of is still there.
    fn play_face_down(&mut self, seat: Seat, meteor: Meteor) {
        let p = &mut self.planets[seat];
        p.hand.remove(meteor.into());
        for m in Meteor::all() {
            p.known.remove(m.into());
        }
    }

    /// The top card of the solar pile; an empty pile is first rebuilt by shuffling the discard
    /// pile. `None` when both are empty.
    fn draw(&mut self) -> Option<Card> {
        if self.pile.is_empty() && !self.discard.is_empty() {
            std::mem::swap(&mut self.pile, &mut self.discard);
            game::shuffle(&mut self.rng, &mut self.pile);
            self.pile_public = true;
        }
        self.pile.pop()
    }

    /// Ends the current turn and begins the next living planet's: its waiting attacks resolve
    /// (it may die of them, and the turn passes on), then its empty orbit, if any, is refilled.
    fn pass_turn(&mut self) {
        loop {
            if self.turn >= self.config.turn_limit {
                self.over = true;
                self.actions_left = 0;
                return;
            }
            self.current = self
                .neighbour(self.current, Side::Left)
                .expect("two planets alive");
            self.turn += 1;
            let cur = self.current;
            for side in Side::BOTH {
                self.resolve(cur, side);
                if !self.planets[cur].alive() {
                    break;
                }
            }
            let alive = self.alive();
            if alive.iter().filter(|&&a| a).count() == 1 {
                self.over = true;
                self.winner = alive.iter().position(|&a| a).map(|i| Seat(i as u8));
                self.actions_left = 0;
                return;
            }
            if self.planets[cur].alive() {
                if self.planets[cur].orbit.is_none() {
                    self.planets[cur].orbit = self.draw();
                }
                self.actions_left = ACTIONS_PER_TURN;
                return;
            }
        }
    }

    /// Resolves the attack waiting in `seat`'s slot on `side`, if any: defence revealed, then
    /// attack; compare; damage; cards discarded (destroyed defence, meteor, then "+2").
    fn resolve(&mut self, seat: Seat, side: Side) {
        let Some(attack) = self.planets[seat].slot(side).attack else {
            return;
        };
        let hurts = self.hurts(attack.card.colour(), seat);
        let pv30 = self.config.variant == Variant::Pv30;
        let value = attack.card.value();
        let slot = self.planets[seat].slot_mut(side);
        slot.attack = None;
        let loss = match slot.defence {
            Some(d) if d.card.value() > value => {
                slot.defence = Some(Defence {
                    revealed: true,
                    ..d
                });
                0
            }
            Some(d) if d.card.value() == value => {
                // Overload: the defence breaks, the defender loses 1, and more if it hurts;
                // a "+2" is wasted.
                slot.defence = None;
                self.discard.push(d.card.into());
                1 + match (hurts, pv30) {
                    (false, _) => 0,
                    (true, false) => 1,
                    (true, true) => value,
                }
            }
            defence => {
                if let Some(d) = defence {
                    slot.defence = None;
                    self.discard.push(d.card.into());
                }
                match (hurts, pv30, attack.plus2) {
                    (false, ..) => 0,
                    (true, false, plus2) => 1 + 2 * plus2 as u8,
                    (true, true, times2) => value * (1 + times2 as u8),
                }
            }
        };
        self.discard.push(attack.card.into());
        if attack.plus2 {
            self.discard.push(Card::Plus2);
        }
        let p = &mut self.planets[seat];
        p.life = p.life.saturating_sub(loss);
        if p.life == 0 {
            self.destroy(seat);
        }
    }

    /// A planet dies: every card on its board goes to the discard pile (hand, orbit, then each
    /// slot's defence, attack and "+2").
    fn destroy(&mut self, seat: Seat) {
        let p = &mut self.planets[seat];
        self.discard.extend(p.cards());
        p.hand.clear();
        p.known.clear();
        p.orbit = None;
        p.slots = [Slot::default(); 2];
    }

    // ----- results and views ---------------------------------------------------------------

    /// Per-seat results once the game is over: 1 for the winner, 0 for the others; in a draw at
    /// the turn limit, the planets still alive share 1. All 0 while the game goes on.
    pub fn returns(&self) -> Vec<f64> {
        if !self.over {
            return vec![0.0; SEATS];
        }
        if let Some(w) = self.winner {
            return (0..SEATS).map(|i| f64::from(i == w.index())).collect();
        }
        let alive = self.alive();
        let share = 1.0 / alive.iter().filter(|&&a| a).count().max(1) as f64;
        alive.iter().map(|&a| if a { share } else { 0.0 }).collect()
    }

    /// Whether the game ended in a draw (at the turn limit).
    pub fn is_draw(&self) -> bool {
        self.over && self.winner.is_none()
    }

    /// The winning seats once the game is over (one, or none after a draw).
    pub fn winners(&self) -> Vec<Seat> {
        self.winner.into_iter().collect()
    }

    /// Counts every card in every zone by kind, indexed by [`Card::id`] (tests: cards are
    /// conserved; always 2 of each meteor and 4 "+2").
    pub fn card_counts(&self) -> [usize; CARD_KINDS] {
        let mut counts = [0; CARD_KINDS];
        let mut add = |c: Card| counts[c.id()] += 1;
        for p in &self.planets.0 {
            p.cards().for_each(&mut add);
        }
        self.pile.iter().copied().for_each(&mut add);
        self.discard.iter().copied().for_each(&mut add);
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

    /// The whole state on one line, hidden cards included (logs, debugging). Slots read
    /// `left(D red2* A p2:green3+2)`: `*` a revealed defence, `+2` an attack with a "+2".
    pub fn summary(&self) -> String {
        let mut s = format!(
            "{} turn {}/{}",
            self.config.variant, self.turn, self.config.turn_limit
        );
        match (self.over, self.winner) {
            (false, _) => s += &format!(" {} to move ({} left)", self.current, self.actions_left),
            (true, Some(w)) => s += &format!(" over: {w} wins"),
            (true, None) => s += " over: draw",
        }
        s += &format!(
            " | pile {}{} discard {}",
            self.pile.len(),
            if self.pile_public { " (public)" } else { "" },
            list(self.discard.iter().copied())
        );
        for (seat, p) in self.planets.iter() {
            s += &format!(" | {seat} {}", Colour::of(seat));
            if !p.alive() {
                s += " destroyed";
                continue;
            }
            s += &format!(" life {} hand {:?}", p.life, p.hand);
            if !p.known.is_empty() {
                s += &format!(" known {:?}", p.known);
            }
            s += &format!(
                " orbit {}",
                p.orbit.map_or("-".to_string(), |c| c.to_string())
            );
            for side in Side::BOTH {
                let slot = p.slot(side);
                let mut parts = Vec::new();
                if let Some(d) = slot.defence {
                    parts.push(format!("D {}{}", d.card, if d.revealed { "*" } else { "" }));
                }
                if let Some(a) = slot.attack {
                    parts.push(format!(
                        "A {}:{}{}",
                        a.by,
                        a.card,
                        if a.plus2 { "+2" } else { "" }
                    ));
                }
                s += &format!(" {side}({})", parts.join(" "));
            }
        }
        s
    }
}

impl game::State for State {
    type Action = Action;
    type Observation = Observation;
    type Config = Config;
    const GAME: &'static str = "cosmique";

    fn new_game(config: &Config, seed: u64) -> Result<Self, String> {
        State::new(config, seed)
    }
    fn num_seats(&self) -> usize {
        SEATS
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
}
