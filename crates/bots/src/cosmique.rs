//! Bataille Cosmique bots: `random` (the rollout policy), `heuristic`, and ISMCTS through the
//! generic search (`ismcts:<iterations>`, with random rollouts).
//!
//! The heuristic scores every legal action from its planet's observation and plays the best
//! (ties broken by its seeded RNG):
//! - an attack with a meteor that hurts the neighbour (its colour, a dead planet's colour, or
//!   any in *Incolore*) is worth the damage it should deal: certain against an empty slot or a
//!   revealed weaker defence, likely with a high value against a hidden one, nothing against a
//!   revealed stronger one; a "+2" (×2 in 30pv) is added when the hit looks sure;
//! - a defence on an empty slot is worth its value, more when the neighbour on that side has
//!   an attack waiting or cards to attack with; meteors that could hurt a neighbour are kept for
//!   attacks rather than used as defences;
//! - replacing a revealed defence by a stronger card, taking one's orbit card, or swapping for
//!   another orbit card are worth what the card brings (a meteor that hurts a neighbour most);
//! - `end` is worth nothing: the bot uses its two actions whenever something is worth it.

use cosmique::{Action, Card, Colour, Meteor, Observation, Side, State, Variant, rollout};
use game::{GameRng, Seat};

use crate::ismcts::{Budget, Ismcts, Rollout, Settings};
use crate::{Bot, SeatView, UnknownBot};

/// The names [`by_name`] knows (and the [`PATTERNS`]).
pub const NAMES: &[&str] = &["random", "heuristic", "easy", "medium", "hard", "expert"];

/// The searches [`by_name`] knows by a pattern: a number of iterations (at least 1).
pub const PATTERNS: &[&str] = &["ismcts:<iterations>"];

/// Builds a Cosmique bot by name with its seed. The levels: `easy` is random, `medium` the
/// heuristic, `hard` and `expert` ISMCTS with 300 and 2,000 iterations and the random policy's
/// rollouts.
pub fn by_name(name: &str, seed: u64) -> Result<Box<dyn Bot<State>>, UnknownBot> {
    let unknown = || UnknownBot {
        name: name.to_string(),
        names: NAMES,
        patterns: PATTERNS,
    };
    let search = |n: u32| -> Box<dyn Bot<State>> {
        let settings = Settings {
            budget: Budget::Iterations(n),
            ..Settings::default()
        };
        Box::new(Ismcts::new(name, settings, RandomRollout, seed))
    };
    Ok(match name {
        "random" | "easy" => Box::new(RandomBot::new(seed)),
        "heuristic" | "medium" => Box::new(HeuristicBot::new(seed)),
        "hard" => search(300),
        "expert" => search(2000),
        _ => {
            let n: u32 = name
                .strip_prefix("ismcts:")
                .and_then(|n| n.parse().ok())
                .filter(|&n| n > 0)
                .ok_or_else(unknown)?;
            search(n)
        }
    })
}

/// The rollout policy of [`cosmique::rollout`]: uniform over the legal actions, never `end`
/// while something else is possible.
pub struct RandomBot {
    rng: GameRng,
}

impl RandomBot {
    /// A random bot with its seed.
    pub fn new(seed: u64) -> Self {
        RandomBot {
            rng: game::rng_from_seed(seed),
        }
    }
}

impl Bot<State> for RandomBot {
    fn name(&self) -> &str {
        "random"
    }

    fn choose(&mut self, _view: &SeatView<'_, State>, legal: &[Action]) -> Action {
        rollout::pick(legal, &mut self.rng)
    }
}

/// Search rollouts with the random policy.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomRollout;

impl Rollout<State> for RandomRollout {
    fn pick(&mut self, _state: &State, legal: &[Action], rng: &mut GameRng) -> Action {
        rollout::pick(legal, rng)
    }
}

/// The heuristic Cosmique bot (policy in the module documentation).
pub struct HeuristicBot {
    rng: GameRng,
}

impl HeuristicBot {
    /// A heuristic bot with its seed.
    pub fn new(seed: u64) -> Self {
        HeuristicBot {
            rng: game::rng_from_seed(seed),
        }
    }
}

/// Whether a meteor of `colour` hurts `defender` as `o` shows the table.
fn hurts(o: &Observation, colour: Colour, defender: Seat) -> bool {
    o.config.variant == Variant::Incolore
        || Colour::of(defender) == colour
        || !o.planets[colour.seat().index()].alive()
}

fn damage(o: &Observation, m: Meteor) -> f64 {
    if o.config.variant == Variant::Pv30 {
        m.value() as f64
    } else {
        1.0
    }
}

/// Whether the meteor hurts any living neighbour of `me`.
fn useful_for_attack(o: &Observation, me: Seat, m: Meteor) -> bool {
    Side::BOTH.iter().any(|&s| {
        o.neighbour(me, s)
            .is_some_and(|n| n != me && hurts(o, m.colour(), n))
    })
}

fn card_worth(o: &Observation, me: Seat, c: Card) -> f64 {
    match c {
        Card::Plus2 => 2.5,
        Card::Meteor(m) if useful_for_attack(o, me, m) => 3.0 + m.value() as f64 * 0.5,
        Card::Meteor(m) => m.value() as f64 * 0.4,
    }
}

fn score(o: &Observation, me: Seat, a: Action) -> f64 {
    let planet = &o.planets[me.index()];
    match a {
        Action::Attack {
            side,
            meteor,
            plus2,
        } => {
            let Some(target) = o.neighbour(me, side) else {
                return -1.0;
            };
            // The target's slot that faces `me` is on the other side.
            let slot = &o.planets[target.index()].slots[side.opposite().index()];
            let chance = match slot.defence {
                None => 1.0,
                Some(d) => match d.card {
                    Some(dm) if dm.value() < meteor.value() => 1.0,
                    Some(dm) if dm.value() == meteor.value() => 0.8,
                    Some(_) => 0.0,
                    None => (meteor.value() as f64 - 1.0) / 5.0,
                },
            };
            if !hurts(o, meteor.colour(), target) {
                // Only worth breaking a revealed weaker defence, cheaply.
                return if slot.defence.is_some_and(|d| d.card.is_some()) && chance > 0.9 {
                    0.5
                } else {
                    -0.5
                };
            }
            let mut dmg = damage(o, meteor);
            if plus2 {
                dmg = if o.config.variant == Variant::Pv30 {
                    dmg * 2.0
                } else {
                    dmg + 2.0
                };
                if chance < 0.99 {
                    return chance * dmg * 3.0 - 4.0;
                }
            }
            let finishing = o.planets[target.index()].life as f64 <= dmg;
            chance * dmg * 3.0 + if finishing { 5.0 } else { 0.0 }
        }
        Action::Defend { side, meteor } => {
            let threat = o.neighbour(me, side).map_or(0.0, |n| {
                let p = &o.planets[n.index()];
                if p.hand_count > 0 { 1.0 } else { 0.3 }
            });
            let waiting = planet.slots[side.index()].attack.is_some();
            let keep = if useful_for_attack(o, me, meteor) {
                1.5
            } else {
                0.0
            };
            threat * meteor.value() as f64 * 0.6 + if waiting { 1.0 } else { 0.0 } - keep
        }
        Action::Replace { side, meteor } => {
            let Some(d) = planet.slots[side.index()].defence else {
                return -1.0;
            };
            match d.card {
                Some(old) if d.revealed && meteor.value() > old.value() => {
                    (meteor.value() - old.value()) as f64 * 0.5
                        - if useful_for_attack(o, me, meteor) {
                            1.5
                        } else {
                            0.0
                        }
                }
                _ => -1.0,
            }
        }
        Action::TakeOrbit => planet.orbit.map_or(0.2, |c| card_worth(o, me, c)),
        Action::Swap { seat, card } => {
            let gain = o.planets[seat.index()]
                .orbit
                .map_or(0.0, |c| card_worth(o, me, c));
            gain - card_worth(o, me, card) - 0.2
        }
        Action::End => 0.0,
    }
}

impl Bot<State> for HeuristicBot {
    fn name(&self) -> &str {
        "heuristic"
    }

    fn choose(&mut self, view: &SeatView<'_, State>, legal: &[Action]) -> Action {
        if let [only] = legal {
            return *only;
        }
        let o = view.observation();
        let me = view.seat();
        let mut best: Vec<Action> = Vec::new();
        let mut top = f64::NEG_INFINITY;
        for &a in legal {
            let s = score(o, me, a);
            if s > top + 1e-9 {
                top = s;
                best.clear();
                best.push(a);
            } else if (s - top).abs() <= 1e-9 {
                best.push(a);
            }
        }
        best[game::below(&mut self.rng, best.len())]
    }
}
