//! What one seat may see: its own hand and the values of the face-down cards it laid itself
//! (its defences, its attacks on others); of everybody, life, hand size, the orbit cards, which
//! slots hold cards, revealed defences, the "+2" beside an attack, who laid each attack; the
//! discard pile; the size of the solar pile. No other hand, no other face-down value, no pile
//! order, no RNG.
//!
//! A seat with perfect memory knows a little more than the table shows: cards taken face up from
//! an orbit are known to be in a hand until the hand plays a card face down (`hand_known`), and
//! a pile rebuilt from the discard pile holds known cards (`pile_cards`). Every other card is in
//! `unseen`, a sorted multiset: the seat knows which cards they are, not where.
//! [`Observation::determinize`] deals them at random into the places the seat cannot see.

use game::{GameRng, PerSeat, Seat};
use serde::{Deserialize, Serialize};

use crate::action::Side;
use crate::card::{CARD_KINDS, Card, Colour, Hand, Meteor, list};
use crate::config::Config;
use crate::state::{Attack, Defence, Planet, SEATS, Slot, State, neighbour_among};

/// A defence as a seat sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DefenceView {
    /// The meteor, if this seat knows it (revealed, or its own).
    pub card: Option<Meteor>,
    /// Whether it is face up.
    pub revealed: bool,
}

/// A waiting attack as a seat sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttackView {
    /// Who laid it.
    pub by: Seat,
    /// The meteor, if this seat laid it.
    pub card: Option<Meteor>,
    /// Whether a "+2" lies beside it.
    pub plus2: bool,
}

/// A slot as a seat sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct SlotView {
    /// The defence, if any.
    pub defence: Option<DefenceView>,
    /// The waiting attack, if any.
    pub attack: Option<AttackView>,
}

/// A planet as a seat sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanetView {
    /// Life left (0: destroyed).
    pub life: u8,
    /// The hand, sorted: only in the owner's own view.
    pub hand: Option<Vec<Card>>,
    /// Cards in hand.
    pub hand_count: usize,
    /// Cards everybody knows to be in the hand (taken face up from an orbit), sorted.
    pub hand_known: Vec<Card>,
    /// The orbit card.
    pub orbit: Option<Card>,
    /// The slots, left then right.
    pub slots: [SlotView; 2],
}

impl PlanetView {
    /// Whether the planet is alive.
    pub fn alive(&self) -> bool {
        self.life > 0
    }
}

/// A seat's view of the game (or a spectator's, with `seat` `None`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observation {
    /// Whose view (`None`: a spectator's).
    pub seat: Option<Seat>,
    /// The configuration.
    pub config: Config,
    /// Whose turn it is.
    pub current: Seat,
    /// Who played first.
    pub first: Seat,
    /// Player turns begun.
    pub turn: u32,
    /// Actions left in the current turn.
    pub actions_left: u8,
    /// Who must decide now (`None` once over).
    pub to_move: Option<Seat>,
    /// Whether the game is over.
    pub over: bool,
    /// Once over: the winner (`None`: a draw).
    pub winner: Option<Seat>,
    /// Cards in the solar pile.
    pub pile_count: usize,
    /// The pile's cards, sorted, once it was rebuilt from the (public) discard pile.
    pub pile_cards: Option<Vec<Card>>,
    /// The discard pile, oldest first.
    pub discard: Vec<Card>,
    /// The four planets.
    pub planets: Vec<PlanetView>,
    /// Every card this seat cannot locate, sorted: in other hands (beyond what is known), face
    /// down in slots (beyond its own), in the pile (unless `pile_cards` says which).
    pub unseen: Vec<Card>,
}

fn view_slot(slot: &Slot, own: bool, seat: Option<Seat>) -> SlotView {
    SlotView {
        defence: slot.defence.map(|d| DefenceView {
            card: (d.revealed || own).then_some(d.card),
            revealed: d.revealed,
        }),
        attack: slot.attack.map(|a| AttackView {
            by: a.by,
            card: (seat == Some(a.by)).then_some(a.card),
            plus2: a.plus2,
        }),
    }
}

impl Observation {
    /// The view of `seat` (`None`: the public view) of a state.
    pub fn of(state: &State, seat: Option<Seat>) -> Observation {
        let mut unseen: [u8; CARD_KINDS] =
            std::array::from_fn(|id| Card::from_id(id).expect("a kind").copies());
        let mut seen = |c: Card| unseen[c.id()] -= 1;
        state.discard.iter().copied().for_each(&mut seen);
        if state.pile_public {
            state.pile.iter().copied().for_each(&mut seen);
        }
        let planets: Vec<PlanetView> = state
            .planets
            .iter()
            .map(|(s, p)| {
                let own = seat == Some(s);
                let slots = [
                    view_slot(&p.slots[0], own, seat),
                    view_slot(&p.slots[1], own, seat),
                ];
                let view = PlanetView {
                    life: p.life,
                    hand: own.then(|| p.hand.to_vec()),
                    hand_count: p.hand.len(),
                    hand_known: p.known.to_vec(),
                    orbit: p.orbit,
                    slots,
                };
                p.orbit.into_iter().for_each(&mut seen);
                view.hand
                    .as_ref()
                    .unwrap_or(&view.hand_known)
                    .iter()
                    .copied()
                    .for_each(&mut seen);
                for slot in &view.slots {
                    if let Some(d) = slot.defence.and_then(|d| d.card) {
                        seen(d.into());
                    }
                    if let Some(a) = slot.attack {
                        a.card.into_iter().for_each(|m| seen(m.into()));
                        if a.plus2 {
                            seen(Card::Plus2);
                        }
                    }
                }
                view
            })
            .collect();
        let unseen = unseen
            .iter()
            .enumerate()
            .flat_map(|(id, &n)| {
                std::iter::repeat_n(Card::from_id(id).expect("a kind"), n as usize)
            })
            .collect();
        let mut pile_cards = state.pile_public.then(|| state.pile.clone());
        if let Some(p) = pile_cards.as_mut() {
            p.sort_unstable();
        }
        Observation {
            seat,
            config: state.config.clone(),
            current: state.current,
            first: state.first,
            turn: state.turn,
            actions_left: state.actions_left,
            to_move: state.to_move(),
            over: state.over,
            winner: state.winner,
            pile_count: state.pile.len(),
            pile_cards,
            discard: state.discard.clone(),
            planets,
            unseen,
        }
    }

    /// Which planets are alive, by seat.
    pub fn alive(&self) -> [bool; SEATS] {
        std::array::from_fn(|i| self.planets[i].alive())
    }

    /// The living neighbour of `seat` on `side` (`None` if `seat` is alone).
    pub fn neighbour(&self, seat: Seat, side: Side) -> Option<Seat> {
        neighbour_among(self.alive(), seat, side)
    }

    /// A full state consistent with this view: the unseen cards dealt at random into every
    /// hidden place (meteors into the face-down slots this seat did not fill, then the unknown
    /// parts of other hands, the rest into the pile), the pile shuffled, a fresh RNG.
    ///
    /// # Panics
    /// If the view is not one a state produced (its unseen cards do not fit its hidden places).
    pub fn determinize(&self, rng: &mut GameRng) -> State {
        let mut unseen = self.unseen.clone();
        game::shuffle(rng, &mut unseen);
        let mut take_meteor = || -> Meteor {
            let i = unseen
                .iter()
                .position(|c| c.as_meteor().is_some())
                .expect("an unseen meteor for each hidden face-down card");
            unseen.remove(i).as_meteor().expect("a meteor")
        };
        let mut planets: Vec<Planet> = self
            .planets
            .iter()
            .map(|v| {
                let mut slots = [Slot::default(); 2];
                for (slot, sv) in slots.iter_mut().zip(&v.slots) {
                    slot.defence = sv.defence.map(|d| Defence {
                        card: d.card.unwrap_or_else(&mut take_meteor),
                        revealed: d.revealed,
                    });
                    slot.attack = sv.attack.map(|a| Attack {
                        card: a.card.unwrap_or_else(&mut take_meteor),
                        plus2: a.plus2,
                        by: a.by,
                    });
                }
                Planet {
                    life: v.life,
                    hand: Hand::new(),
                    known: v.hand_known.iter().copied().collect(),
                    orbit: v.orbit,
                    slots,
                }
            })
            .collect();
        for (p, v) in planets.iter_mut().zip(&self.planets) {
            p.hand = match &v.hand {
                Some(h) => h.iter().copied().collect(),
                None => {
                    let hidden = v.hand_count - v.hand_known.len();
                    let start = unseen.len() - hidden;
                    let mut h = p.known;
                    unseen.drain(start..).for_each(|c| h.add(c));
                    h
                }
            };
        }
        let pile = match &self.pile_cards {
            Some(cards) => {
                assert!(unseen.is_empty(), "unseen cards left over: {unseen:?}");
                let mut pile = cards.clone();
                game::shuffle(rng, &mut pile);
                pile
            }
            None => unseen,
        };
        assert_eq!(pile.len(), self.pile_count, "the pile's size");
        let seed = {
            use rand::RngCore;
            rng.next_u64()
        };
        State {
            config: self.config.clone(),
            planets: PerSeat(planets),
            current: self.current,
            first: self.first,
            turn: self.turn,
            actions_left: self.actions_left,
            pile,
            pile_public: self.pile_cards.is_some(),
            discard: self.discard.clone(),
            over: self.over,
            winner: self.winner,
            rng: game::rng_from_seed(seed),
        }
    }

    /// The view on one line (golden traces, logs): `?` for a card this seat cannot see; slots as
    /// in [`State::summary`].
    pub fn summary(&self) -> String {
        let mut s = format!(
            "view of {} | {} turn {}/{}",
            self.seat.map_or("spectator".to_string(), |s| s.to_string()),
            self.config.variant,
            self.turn,
            self.config.turn_limit
        );
        match (self.over, self.winner) {
            (false, _) => s += &format!(" {} to move ({} left)", self.current, self.actions_left),
            (true, Some(w)) => s += &format!(" over: {w} wins"),
            (true, None) => s += " over: draw",
        }
        s += &format!(
            " | pile {}{} discard {} unseen {}",
            self.pile_count,
            self.pile_cards
                .as_ref()
                .map_or(String::new(), |c| format!(" {}", list(c.iter().copied()))),
            list(self.discard.iter().copied()),
            self.unseen.len()
        );
        let show = |m: Option<Meteor>| m.map_or("?".to_string(), |m| m.to_string());
        for (i, p) in self.planets.iter().enumerate() {
            let seat = Seat(i as u8);
            s += &format!(" | {seat} {}", Colour::of(seat));
            if !p.alive() {
                s += " destroyed";
                continue;
            }
            s += &format!(" life {} hand ", p.life);
            s += &match &p.hand {
                Some(h) => list(h.iter().copied()),
                None => p.hand_count.to_string(),
            };
            if !p.hand_known.is_empty() {
                s += &format!(" known {}", list(p.hand_known.iter().copied()));
            }
            s += &format!(
                " orbit {}",
                p.orbit.map_or("-".to_string(), |c| c.to_string())
            );
            for side in Side::BOTH {
                let slot = &p.slots[side.index()];
                let mut parts = Vec::new();
                if let Some(d) = slot.defence {
                    parts.push(format!(
                        "D {}{}",
                        show(d.card),
                        if d.revealed { "*" } else { "" }
                    ));
                }
                if let Some(a) = slot.attack {
                    parts.push(format!(
                        "A {}:{}{}",
                        a.by,
                        show(a.card),
                        if a.plus2 { "+2" } else { "" }
                    ));
                }
                s += &format!(" {side}({})", parts.join(" "));
            }
        }
        s
    }
}

impl game::Observation for Observation {
    type State = State;
    fn seat(&self) -> Option<Seat> {
        self.seat
    }
    fn determinize(&self, rng: &mut GameRng) -> State {
        Observation::determinize(self, rng)
    }
}
