//! What one seat may see: its own hand; everybody's in-play cards, bases, discard piles, pools,
//! authority and card counts; the trade row; the scrap heap. No deck order, no other hand, no RNG.
//!
//! A seat with perfect memory knows more than the table shows: which cards each player owns,
//! hence which cards are somewhere in a player's deck or hand (`unseen`, as a sorted multiset),
//! which cards remain in the trade deck, and the cards put face up on top of a deck. The
//! observation carries that knowledge too, so that [`Observation::determinize`] samples only
//! states the seat cannot tell apart from the real one.

use arrayvec::ArrayVec;
use game::{GameRng, PerSeat, Seat};
use serde::{Deserialize, Serialize};

use crate::action::ROW_SIZE;
use crate::cards::CardId;
use crate::config::Config;
use crate::state::{Frame, InPlay, Pending, Player, State};

/// One player as another seat sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerView {
    /// Authority.
    pub authority: i32,
    /// Still in the game.
    pub alive: bool,
    /// Team.
    pub team: u8,
    /// Trade pool.
    pub trade: u16,
    /// Combat pool.
    pub combat: u16,
    /// Ships in play.
    pub ships: Vec<InPlay>,
    /// Bases in play.
    pub bases: Vec<InPlay>,
    /// Discard pile (public), bottom first.
    pub discard: Vec<CardId>,
    /// The hand, sorted: only in the owner's own view.
    pub hand: Option<Vec<CardId>>,
    /// Cards in hand.
    pub hand_count: usize,
    /// Cards in hand that everybody knows (drawn from a known top of deck), sorted.
    pub hand_known: Vec<CardId>,
    /// Cards in the deck.
    pub deck_count: usize,
    /// Known cards at the top of the deck, top card first (as a scenario writes a deck).
    pub deck_known_top: Vec<CardId>,
    /// Cards somewhere in this player's deck (below the known top) or unknown hand part, sorted:
    /// the seat knows which cards they are, not where.
    pub unseen: Vec<CardId>,
    /// Discards owed at the start of the next turn.
    pub pending_discards: u8,
    /// Next ships that may go on top of the deck this turn.
    pub next_ship_top: u8,
    /// Cards of each faction played this turn.
    pub played: [u8; crate::cards::Faction::COUNT],
    /// Cards scrapped from the hand or the discard pile this turn.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub scrapped: u8,
    /// Cards of the player's own scrapped this turn from any zone, in play included.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub scrapped_all: u8,
    /// Next bases acquired this turn that go on top of the deck.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub next_base_top: u8,
    /// Cards scrapped this turn that come back from the scrap heap at its end.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub returning: Vec<CardId>,
    /// Where the next ships or bases acquired this turn go, first the next one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub redirects: Vec<crate::cards::Dest>,
    /// *Rise of Empire*: the sticker sheets owned and the stickers used (public).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sheets: Vec<crate::state::SheetUse>,
    /// Hydra: has ended its part of the team's turn.
    pub done: bool,
}

/// A seat's view of the game.
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
    /// Turn number.
    pub turn: u32,
    /// Who must decide now (`None` once over).
    pub to_move: Option<Seat>,
    /// Whether the game is over.
    pub over: bool,
    /// Once over: the winning seats as a bit mask (0: a draw).
    pub victors: u8,
    /// Card passings still owed by fallen players, `(from, to)`.
    pub bequests: Vec<(Seat, Seat)>,
    /// Hydra: the player in control may hand control to a teammate.
    pub progress: bool,
    /// The decision waited for.
    pub pending: Option<Pending>,
    /// Effects still to resolve.
    pub frames: Vec<Frame>,
    /// The trade row.
    pub row: [Option<CardId>; ROW_SIZE],
    /// Cards in the trade deck.
    pub trade_deck_count: usize,
    /// Which cards the trade deck holds, sorted (it is everything not seen elsewhere).
    pub trade_deck_cards: Vec<CardId>,
    /// Explorers in the pile.
    pub explorers: u8,
    /// The scrap heap.
    pub scrap_heap: Vec<CardId>,
    /// Every seat.
    pub players: Vec<PlayerView>,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

fn sorted(mut v: Vec<CardId>) -> Vec<CardId> {
    v.sort_unstable();
    v
}

/// How much of the other seats' cards a view holds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Detail {
    /// Everything the seat may know, sorted ([`Observation::of`]).
    Full,
    /// The rollout view: nothing sorted, no multisets of others' cards
    /// ([`Observation::for_rollout`]).
    Rollout,
    /// The rollout view with the others' cards, unsorted ([`Observation::for_rollout_counts`]).
    RolloutCounts,
}

impl PlayerView {
    /// The view of `p` in that `detail`; `own`: by a seat that sees its hand.
    fn of(p: &Player, own: bool, detail: Detail) -> PlayerView {
        let full = detail == Detail::Full;
        let others = detail != Detail::Rollout;
        let known = p.deck_known as usize;
        let split = p.deck.len() - known;
        let mut unseen: Vec<CardId> = if others || own {
            p.deck[..split].to_vec()
        } else {
            Vec::new()
        };
        if others && !own {
            let mut known_hand = p.hand_known.clone();
            for &c in &p.hand {
                match known_hand.iter().position(|&k| k == c) {
                    Some(i) => {
                        known_hand.swap_remove(i);
                    }
                    None => unseen.push(c),
                }
            }
        }
        let order = |v: Vec<CardId>| if full { sorted(v) } else { v };
        PlayerView {
            authority: p.authority,
            alive: p.alive,
            team: p.team,
            trade: p.trade,
            combat: p.combat,
            ships: p.ships.clone(),
            bases: p.bases.clone(),
            discard: if others || own {
                p.discard.clone()
            } else {
                Vec::new()
            },
            hand: own.then(|| order(p.hand.clone())),
            hand_count: p.hand.len(),
            hand_known: if full {
                sorted(p.hand_known.clone())
            } else if others {
                p.hand_known.clone()
            } else {
                Vec::new()
            },
            deck_count: p.deck.len(),
            // The engine keeps a deck bottom first; a view lists it top first.
            deck_known_top: p.deck[split..].iter().rev().copied().collect(),
            unseen: order(unseen),
            pending_discards: p.pending_discards,
            next_ship_top: p.next_ship_top,
            played: p.played,
            scrapped: p.scrapped,
            scrapped_all: p.scrapped_all,
            next_base_top: p.next_base_top,
            returning: p.returning.clone(),
            redirects: p.redirects.clone(),
            sheets: p.sheets.clone(),
            done: p.done,
        }
    }
}

impl Observation {
    /// A cheaper view of `seat` for bots playing rollouts on sampled states: the seat's own
    /// cards as in [`Observation::of`] but unsorted, the public parts of the others, and
    /// *without* the multisets of other seats' unseen cards and discard piles, the trade deck's
    /// contents and the scrap heap (left empty). Never send it to a client; it exists for speed.
    pub fn for_rollout(state: &State, seat: Seat) -> Observation {
        Observation::view(state, Some(seat), Detail::Rollout)
    }

    /// The rollout view with, for every other seat, the cards it holds somewhere unseen and its
    /// discard pile (unsorted): what a seat with memory knows of each player's cards, for bots
    /// that count them.
    pub fn for_rollout_counts(state: &State, seat: Seat) -> Observation {
        Observation::view(state, Some(seat), Detail::RolloutCounts)
    }

    /// The view of `seat` (`None`: public view) of a state.
    pub fn of(state: &State, seat: Option<Seat>) -> Observation {
        Observation::view(state, seat, Detail::Full)
    }

    fn view(state: &State, seat: Option<Seat>, detail: Detail) -> Observation {
        let full = detail == Detail::Full;
        Observation {
            seat,
            config: state.config.clone(),
            current: state.current,
            first: state.first,
            turn: state.turn,
            to_move: state.to_move(),
            over: state.over,
            victors: state.victors,
            bequests: state.bequests.to_vec(),
            progress: state.progress,
            pending: state.pending,
            frames: state.frames.to_vec(),
            row: state.row,
            trade_deck_count: state.trade_deck.len(),
            trade_deck_cards: if full {
                sorted(state.trade_deck.clone())
            } else {
                Vec::new()
            },
            explorers: state.explorers,
            scrap_heap: if full {
                state.scrap_heap.clone()
            } else {
                Vec::new()
            },
            players: state
                .players
                .iter()
                .map(|(s, p)| {
                    let own = seat.is_some_and(|v| state.sees_hand(v, s));
                    PlayerView::of(p, own, detail)
                })
                .collect(),
        }
    }

    /// A full state consistent with this view: unseen cards dealt at random into the hidden
    /// parts of hands and decks, the trade deck shuffled, a fresh RNG.
    pub fn determinize(&self, rng: &mut GameRng) -> State {
        let players = self
            .players
            .iter()
            .map(|v| {
                let mut unseen = v.unseen.clone();
                game::shuffle(rng, &mut unseen);
                let hand = match &v.hand {
                    Some(h) => h.clone(),
                    None => {
                        let hidden = v.hand_count - v.hand_known.len();
                        let mut h = v.hand_known.clone();
                        h.extend(unseen.drain(unseen.len() - hidden..));
                        h
                    }
                };
                let mut deck = unseen;
                deck.extend(v.deck_known_top.iter().rev());
                Player {
                    hand,
                    deck,
                    deck_known: v.deck_known_top.len() as u8,
                    hand_known: v.hand_known.clone(),
                    discard: v.discard.clone(),
                    ships: v.ships.clone(),
                    bases: v.bases.clone(),
                    trade: v.trade,
                    combat: v.combat,
                    authority: v.authority,
                    alive: v.alive,
                    team: v.team,
                    pending_discards: v.pending_discards,
                    next_ship_top: v.next_ship_top,
                    played: v.played,
                    scrapped: v.scrapped,
                    scrapped_all: v.scrapped_all,
                    next_base_top: v.next_base_top,
                    returning: v.returning.clone(),
                    redirects: v.redirects.clone(),
                    done: v.done,
                    sheets: v.sheets.clone(),
                }
            })
            .collect();
        let mut trade_deck = self.trade_deck_cards.clone();
        game::shuffle(rng, &mut trade_deck);
        let seed = {
            use rand::RngCore;
            rng.next_u64()
        };
        State {
            config: self.config.clone(),
            players: PerSeat(players),
            current: self.current,
            first: self.first,
            turn: self.turn,
            row: self.row,
            trade_deck,
            explorers: self.explorers,
            scrap_heap: self.scrap_heap.clone(),
            pending: self.pending,
            frames: self.frames.iter().copied().collect::<ArrayVec<Frame, 6>>(),
            over: self.over,
            victors: self.victors,
            bequests: self.bequests.iter().copied().collect(),
            progress: self.progress,
            rng: game::rng_from_seed(seed),
        }
    }
}

impl Observation {
    /// The targeting rules' view of this table (who may attack or target whom).
    pub fn table(&self) -> crate::formats::Table<'_> {
        crate::formats::Table::new(&self.config, self.players.iter().map(|p| (p.alive, p.team)))
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

fn list(cards: &[CardId]) -> String {
    let names: Vec<String> = cards.iter().map(|c| c.to_string()).collect();
    format!("[{}]", names.join(" "))
}

fn in_play(cards: &[InPlay]) -> String {
    let names: Vec<String> = cards
        .iter()
        .map(|p| {
            let mut s = p.card.to_string();
            if let Some(c) = p.copy {
                s += &format!("={c}");
            }
            if p.primary_used {
                s.push('*');
            }
            if p.ally_used {
                s.push('+');
            }
            if p.damage > 0 {
                s += &format!("-{}", p.damage);
            }
            s
        })
        .collect();
    format!("[{}]", names.join(" "))
}

impl Observation {
    /// A one-line text summary of everything in the view (golden playthroughs, logs).
    /// In-play marks: `*` primary used, `+` ally used, `=card` copied ship, `-n` damage.
    pub fn summary(&self) -> String {
        let mut s = format!(
            "turn {} current {} to_move {} | row [{}] trade_deck {} explorers {} scrap {}",
            self.turn,
            self.current,
            self.to_move.map_or("-".to_string(), |m| m.to_string()),
            self.row
                .iter()
                .map(|c| c.map_or("_".to_string(), |c| c.to_string()))
                .collect::<Vec<_>>()
                .join(" "),
            self.trade_deck_count,
            self.explorers,
            list(&self.scrap_heap),
        );
        if let Some(p) = &self.pending {
            s += &format!(" | pending {p:?}");
        }
        for (i, p) in self.players.iter().enumerate() {
            s += &format!(
                " | p{} {}A {}T {}C hand {} deck {}{} unseen {} discard {} ships {} bases {}",
                i + 1,
                p.authority,
                p.trade,
                p.combat,
                match &p.hand {
                    Some(h) => list(h),
                    None => format!(
                        "{}{}",
                        p.hand_count,
                        if p.hand_known.is_empty() {
                            String::new()
                        } else {
                            list(&p.hand_known)
                        }
                    ),
                },
                p.deck_count,
                if p.deck_known_top.is_empty() {
                    String::new()
                } else {
                    format!(" top {}", list(&p.deck_known_top))
                },
                p.unseen.len(),
                list(&p.discard),
                in_play(&p.ships),
                in_play(&p.bases),
            );
            if !p.alive {
                s += " (out)";
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::State as _;

    #[test]
    fn the_counting_rollout_view_holds_what_the_full_view_knows_of_each_player() {
        let mut state = State::new_game(&Config::default(), 11).unwrap();
        let mut rng = game::rng_from_seed(3);
        let mut legal = Vec::new();
        for step in 0..400 {
            let Some(seat) = state.to_move() else { break };
            if step % 7 == 0 {
                let full = Observation::of(&state, Some(seat));
                let counts = Observation::for_rollout_counts(&state, seat);
                let plain = Observation::for_rollout(&state, seat);
                for (i, (f, c)) in full.players.iter().zip(&counts.players).enumerate() {
                    assert_eq!(sorted(c.unseen.clone()), f.unseen, "step {step}, seat {i}");
                    assert_eq!(c.discard, f.discard);
                    assert_eq!(sorted(c.hand_known.clone()), f.hand_known);
                    assert_eq!(c.hand.as_ref().map(|h| sorted(h.clone())), f.hand);
                    if i != seat.index() {
                        assert!(plain.players[i].unseen.is_empty());
                    }
                }
                // Nothing the seat may not see: the others' hands stay hidden.
                assert!(
                    counts
                        .players
                        .iter()
                        .enumerate()
                        .all(|(i, p)| (i == seat.index()) == p.hand.is_some())
                );
            }
            state.legal_actions_into(&mut legal);
            let a = crate::rollout::pick(&legal, &mut rng);
            state.apply_legal(a);
        }
        assert!(state.turn > 3, "the game went on for a few turns");
    }
}
