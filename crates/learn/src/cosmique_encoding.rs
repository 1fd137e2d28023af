//! The Bataille Cosmique tensor: one seat's observation, seats *and colours* counted from that
//! seat (planet `p0` is the observer's, colour 0 its own colour, then the next seats in turn
//! order), cards as one-hot vectors or counts over the 21 kinds (meteors by colour then value,
//! then the "+2").

use cosmique::card::{CARD_KINDS, METEOR_KINDS};
use cosmique::{Card, Meteor, Observation, SEATS, SlotView, Variant};
use game::{Observation as _, Seat};

use crate::{Block, Encoder, Layout, one_hot, relative};

const GLOBAL: [&str; 7] = [
    "my_decision",
    "my_turn",
    "over",
    "turn_div_100",
    "actions_left_div_2",
    "pile_div_44",
    "pile_known",
];
const PLANET: [&str; 4] = ["alive", "life_fraction", "hand_div_5", "has_orbit"];
/// Values of one slot: defence present, revealed, known, its meteor (one-hot); attack present,
/// "+2", known, by whom (seat one-hot), its meteor (one-hot).
const SLOT: usize = 3 + METEOR_KINDS + 3 + SEATS + METEOR_KINDS;

/// Encodes Bataille Cosmique observations.
#[derive(Clone, Debug)]
pub struct CosmiqueEncoder {
    global: usize,
    variant: usize,
    current: usize,
    to_move: usize,
    winner: usize,
    pile: usize,
    discard: usize,
    unseen: usize,
    planets: usize,
    planet_size: usize,
    size: usize,
    blocks: Vec<Block>,
}

impl Default for CosmiqueEncoder {
    fn default() -> Self {
        CosmiqueEncoder::new()
    }
}

impl CosmiqueEncoder {
    /// The encoder (one layout for every variant).
    pub fn new() -> CosmiqueEncoder {
        let mut l = Layout::default();
        let global = l.add("global", &[GLOBAL.len()]);
        let variant = l.add("variant", &[Variant::ALL.len()]);
        let current = l.add("current_seat", &[SEATS]);
        let to_move = l.add("to_move_seat", &[SEATS]);
        let winner = l.add("winner_seat", &[SEATS]);
        let pile = l.add("pile", &[CARD_KINDS]);
        let discard = l.add("discard", &[CARD_KINDS]);
        let unseen = l.add("unseen", &[CARD_KINDS]);
        let planets = l.size();
        for s in 0..SEATS {
            l.add(format!("p{s}.scalars"), &[PLANET.len()]);
            l.add(format!("p{s}.hand"), &[CARD_KINDS]);
            l.add(format!("p{s}.orbit"), &[CARD_KINDS]);
            l.add(format!("p{s}.slots"), &[2, SLOT]);
        }
        let planet_size = PLANET.len() + 2 * CARD_KINDS + 2 * SLOT;
        let size = l.size();
        CosmiqueEncoder {
            global,
            variant,
            current,
            to_move,
            winner,
            pile,
            discard,
            unseen,
            planets,
            planet_size,
            size,
            blocks: l.into_blocks(),
        }
    }

    /// The names of the scalars of the `global` block and of each planet's `scalars` block.
    pub fn scalar_names() -> (&'static [&'static str], &'static [&'static str]) {
        (&GLOBAL, &PLANET)
    }
}

/// The kind of a meteor with its colour counted from `me`'s.
#[inline]
fn meteor_kind(m: Meteor, me: Seat) -> usize {
    let colour = relative(m.colour().seat(), me, SEATS);
    colour * 5 + (m.value() as usize - 1)
}

#[inline]
fn card_kind(c: Card, me: Seat) -> usize {
    match c {
        Card::Meteor(m) => meteor_kind(m, me),
        Card::Plus2 => METEOR_KINDS,
    }
}

fn count(out: &mut [f32], offset: usize, cards: &[Card], me: Seat) {
    for &c in cards {
        out[offset + card_kind(c, me)] += 1.0;
    }
}

fn slot(out: &mut [f32], at: usize, s: &SlotView, me: Seat) {
    if let Some(d) = s.defence {
        out[at] = 1.0;
        out[at + 1] = d.revealed as u8 as f32;
        if let Some(m) = d.card {
            out[at + 2] = 1.0;
            out[at + 3 + meteor_kind(m, me)] = 1.0;
        }
    }
    let at = at + 3 + METEOR_KINDS;
    if let Some(a) = s.attack {
        out[at] = 1.0;
        out[at + 1] = a.plus2 as u8 as f32;
        out[at + 3 + relative(a.by, me, SEATS)] = 1.0;
        if let Some(m) = a.card {
            out[at + 2] = 1.0;
            out[at + 3 + SEATS + meteor_kind(m, me)] = 1.0;
        }
    }
}

impl Encoder<cosmique::State> for CosmiqueEncoder {
    fn size(&self) -> usize {
        self.size
    }

    fn blocks(&self) -> Vec<Block> {
        self.blocks.clone()
    }

    fn feature_names(&self) -> Vec<String> {
        // Colours counted from the observer: `c0` is its own, `c1` the next seat's …
        let card = |k: usize| {
            if k == METEOR_KINDS {
                "plus2".to_string()
            } else {
                format!("c{}v{}", k / 5, k % 5 + 1)
            }
        };
        crate::names_of(&self.blocks, |b, i| {
            let field = b.name.rsplit('.').next().unwrap_or(&b.name);
            let what = match field {
                "global" => GLOBAL[i].to_string(),
                "scalars" => PLANET[i].to_string(),
                "variant" => Variant::ALL[i].name().to_string(),
                "current_seat" | "to_move_seat" | "winner_seat" => format!("p{i}"),
                "slots" => {
                    let (side, k) = (["left", "right"][i / SLOT], i % SLOT);
                    let part = if k < 3 {
                        ["defence", "defence_revealed", "defence_known"][k].to_string()
                    } else if k < 3 + METEOR_KINDS {
                        format!("defence_card:{}", card(k - 3))
                    } else if k < 6 + METEOR_KINDS {
                        ["attack", "attack_plus2", "attack_known"][k - 3 - METEOR_KINDS].to_string()
                    } else if k < 6 + METEOR_KINDS + SEATS {
                        format!("attack_by:p{}", k - 6 - METEOR_KINDS)
                    } else {
                        format!("attack_card:{}", card(k - 6 - METEOR_KINDS - SEATS))
                    };
                    format!("{side}:{part}")
                }
                _ => card(i),
            };
            format!("{}[{what}]", b.name)
        })
    }

    fn encode(&self, o: &Observation, out: &mut [f32]) {
        assert_eq!(out.len(), self.size, "the tensor has the encoder's size");
        let me = o.seat().expect("a seat's observation");
        out.fill(0.0);
        let g = self.global;
        out[g] = (o.to_move == Some(me)) as u8 as f32;
        out[g + 1] = (o.current == me) as u8 as f32;
        out[g + 2] = o.over as u8 as f32;
        out[g + 3] = o.turn as f32 / 100.0;
        out[g + 4] = o.actions_left as f32 / 2.0;
        out[g + 5] = o.pile_count as f32 / 44.0;
        out[g + 6] = o.pile_cards.is_some() as u8 as f32;
        let v = Variant::ALL
            .iter()
            .position(|&v| v == o.config.variant)
            .unwrap_or(0);
        out[self.variant + v] = 1.0;
        one_hot(out, self.current, SEATS, relative(o.current, me, SEATS));
        if let Some(s) = o.to_move {
            one_hot(out, self.to_move, SEATS, relative(s, me, SEATS));
        }
        if let Some(s) = o.winner {
            one_hot(out, self.winner, SEATS, relative(s, me, SEATS));
        }
        if let Some(pile) = &o.pile_cards {
            count(out, self.pile, pile, me);
        }
        count(out, self.discard, &o.discard, me);
        count(out, self.unseen, &o.unseen, me);
        let life = o.config.variant.starting_life() as f32;
        for (s, p) in o.planets.iter().enumerate() {
            let at = self.planets + relative(Seat(s as u8), me, SEATS) * self.planet_size;
            out[at] = p.alive() as u8 as f32;
            out[at + 1] = p.life as f32 / life;
            out[at + 2] = p.hand_count as f32 / 5.0;
            out[at + 3] = p.orbit.is_some() as u8 as f32;
            let hand = at + PLANET.len();
            match &p.hand {
                Some(h) => count(out, hand, h, me),
                None => count(out, hand, &p.hand_known, me),
            }
            if let Some(c) = p.orbit {
                out[hand + CARD_KINDS + card_kind(c, me)] = 1.0;
            }
            let slots = hand + 2 * CARD_KINDS;
            for (k, sv) in p.slots.iter().enumerate() {
                slot(out, slots + k * SLOT, sv, me);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use game::State as _;

    use super::*;

    #[test]
    fn blocks_tile_the_tensor_and_hands_are_counted() {
        let e = CosmiqueEncoder::new();
        let mut at = 0;
        for b in e.blocks() {
            assert_eq!(b.offset, at, "{}", b.name);
            at += b.len();
        }
        assert_eq!(at, e.size());
        let names = e.feature_names();
        assert_eq!(names.len(), e.size());
        assert!(names.contains(&"p2.hand[c0v5]".to_string()));
        assert!(names.contains(&"p1.slots[right:attack_by:p3]".to_string()));
        let state = cosmique::State::new_game(&cosmique::Config::default(), 5).unwrap();
        let me = state.to_move().unwrap();
        let mut t = vec![0.0; e.size()];
        e.encode(&state.observation(me), &mut t);
        let hand = e
            .blocks()
            .into_iter()
            .find(|b| b.name == "p0.hand")
            .unwrap();
        let held: f32 = t[hand.offset..hand.offset + hand.len()].iter().sum();
        assert_eq!(
            held as usize,
            state.observation(me).planets[me.index()].hand_count
        );
    }

    #[test]
    fn colours_are_counted_from_the_observer() {
        // The observer's own colour is colour 0 whatever its seat.
        for s in 0..SEATS as u8 {
            let own = Meteor::new(cosmique::Colour::of(Seat(s)), 3);
            assert_eq!(meteor_kind(own, Seat(s)), 2);
        }
        let blue = Meteor::new(cosmique::Colour::Blue, 1);
        assert_eq!(meteor_kind(blue, Seat(0)), 5);
        assert_eq!(meteor_kind(blue, Seat(1)), 0);
        assert_eq!(meteor_kind(blue, Seat(2)), 15);
    }
}
