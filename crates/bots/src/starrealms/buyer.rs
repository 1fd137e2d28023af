//! A learned purchase policy for two-player base-set games: a small network (one hidden layer)
//! estimating the chance that a player wins from the position *at the end of its own turn*, read
//! from that player's own view only (its cards, where they lie, and what the table shows). The
//! heuristic bot, given such a network ([`super::HeuristicBot::with_buyer`]), buys the set of
//! affordable cards whose end of turn the network likes best, instead of summing its value table.
//!
//! Trained by rounds of self-play (`docs/ai.md`, "A learned purchase policy"): the first network
//! learns from games of the heuristic, each next one from games of the heuristic buying with the
//! last network. The file is data (`crates/bots/data/buyer-base.safetensors`).

use std::sync::{Arc, OnceLock};

use game::Seat;
use starrealms::{CardId, Observation, cards};

use super::value::{ValueNet, ValueNetError, kinds};

/// The embedded network.
const BUYER_BASE: &[u8] = include_bytes!("../../data/buyer-base.safetensors");

/// Card blocks of the features: for the player, every card owned, bases in play, its draw pile
/// and its discard pile once the turn is cleaned up; for the opponent, every card owned, bases in
/// play and its discard pile.
const BLOCKS: usize = 7;
/// Numbers after the blocks.
const SCALARS: usize = 8;

const OWNED: usize = 0;
const BASES: usize = 1;
const DRAW: usize = 2;
const DISCARD: usize = 3;
const THEIR_OWNED: usize = 4;
const THEIR_BASES: usize = 5;
const THEIR_DISCARD: usize = 6;
/// Where the scalars start, as offsets: the player's draw pile and discard pile sizes.
const DRAW_SIZE: usize = 3;
const DISCARD_SIZE: usize = 4;

/// Number of inputs of the network.
pub fn feature_count() -> usize {
    BLOCKS * kinds() + SCALARS
}

/// One card counts a quarter in its block.
const CARD: f32 = 0.25;

/// The inputs of the network for `me`'s position at the end of its turn, as its observation `o`
/// shows it, once it has also bought `bought` (each going to its discard pile, or on top of its
/// deck when the observation says the next ship goes there). Every ship in play and every card
/// still in hand counts in the discard pile: that is where the turn's end puts them.
pub fn features(o: &Observation, me: Seat, bought: &[CardId], out: &mut Vec<f32>) {
    let k = kinds();
    out.clear();
    out.resize(feature_count(), 0.0);
    let set = cards();
    let mut count = |block: usize, c: CardId| {
        let i = set.printed(c).0 as usize;
        if i < k {
            out[block * k + i] += CARD;
        }
    };
    let opp = Seat(1 - me.0);
    let (mine, theirs) = (&o.players[me.index()], &o.players[opp.index()]);
    // Mine.
    let hand = mine.hand.as_deref().unwrap_or(&[]);
    let mut draw = mine.unseen.len() + mine.deck_known_top.len();
    let mut discard = mine.discard.len() + hand.len() + mine.ships.len();
    for &c in mine.unseen.iter().chain(&mine.deck_known_top) {
        count(OWNED, c);
        count(DRAW, c);
    }
    for c in mine
        .discard
        .iter()
        .chain(hand)
        .copied()
        .chain(mine.ships.iter().map(|s| s.card))
    {
        count(OWNED, c);
        count(DISCARD, c);
    }
    for b in &mine.bases {
        count(OWNED, b.card);
        count(BASES, b.card);
    }
    let mut on_top = mine.next_ship_top as usize;
    for &c in bought {
        count(OWNED, c);
        if on_top > 0 && !set.info(c).kind.is_base() {
            on_top -= 1;
            count(DRAW, c);
            draw += 1;
        } else {
            count(DISCARD, c);
            discard += 1;
        }
    }
    // Theirs: what the table shows and what a seat with memory knows.
    for c in theirs
        .unseen
        .iter()
        .chain(&theirs.deck_known_top)
        .chain(&theirs.hand_known)
        .copied()
        .chain(theirs.ships.iter().map(|s| s.card))
    {
        count(THEIR_OWNED, c);
    }
    for &c in &theirs.discard {
        count(THEIR_OWNED, c);
        count(THEIR_DISCARD, c);
    }
    for b in &theirs.bases {
        count(THEIR_OWNED, b.card);
        count(THEIR_BASES, b.card);
    }
    let at = BLOCKS * k;
    out[at] = mine.authority as f32 / 50.0;
    out[at + 1] = theirs.authority as f32 / 50.0;
    out[at + 2] = o.turn as f32 / 50.0;
    out[at + DRAW_SIZE] = draw as f32 / 20.0;
    out[at + DISCARD_SIZE] = discard as f32 / 20.0;
    out[at + 5] = theirs.deck_count as f32 / 20.0;
    out[at + 6] = theirs.discard.len() as f32 / 20.0;
    out[at + 7] = theirs.hand_count as f32 / 5.0;
}

/// The purchase network.
#[derive(Debug)]
pub struct BuyNet {
    net: ValueNet,
}

impl BuyNet {
    /// The embedded network.
    pub fn embedded() -> &'static Arc<BuyNet> {
        static NET: OnceLock<Arc<BuyNet>> = OnceLock::new();
        NET.get_or_init(|| {
            Arc::new(
                BuyNet::from_bytes(BUYER_BASE).expect("the embedded purchase network is valid"),
            )
        })
    }

    /// Reads a network written by `tools/value-train` from samples of
    /// `cargo run --release -p bots --example buyer -- data`.
    pub fn from_bytes(bytes: &[u8]) -> Result<BuyNet, ValueNetError> {
        Ok(BuyNet {
            net: ValueNet::read(bytes, feature_count())?,
        })
    }

    /// The estimated chance that the player of these features wins.
    pub fn eval(&self, x: &[f32]) -> f32 {
        self.net.eval(x)
    }

    /// The best set of purchases from `me`'s view `o` with `trade` to spend: each affordable
    /// trade-row card bought or not, and as many Explorers (cost `explorer_cost`, `explorers`
    /// left) as the rest pays for, each set scored by the network at the turn's end. `None` when
    /// buying nothing scores best.
    pub fn plan(&self, o: &Observation, me: Seat, trade: i32, explorers: i32) -> Option<Purchase> {
        let set = cards();
        let row: Vec<(u8, CardId, i32)> = o
            .row
            .iter()
            .enumerate()
            .filter_map(|(slot, c)| {
                let c = (*c)?;
                let cost = set.info(c).cost as i32;
                (cost <= trade).then_some((slot as u8, c, cost))
            })
            .collect();
        let explorer_cost = (set.info(set.explorer).cost as i32).max(1);
        let mut x = Vec::with_capacity(feature_count());
        features(o, me, &[], &mut x);
        // The first layer is linear: score each set from the hidden sums of buying nothing
        // plus the columns of the cards it adds.
        let base = self.net.hidden_sums(&x);
        let mut h = base.clone();
        let k = kinds();
        let at = BLOCKS * k;
        let mut on_top_left;
        let (mut best, mut chosen) = (self.net.output(&base), None);
        let mut bought: Vec<CardId> = Vec::with_capacity(8);
        for mask in 0u32..(1 << row.len()) {
            let mut cost = 0;
            bought.clear();
            let mut first: Option<(i32, u8)> = None;
            for (i, &(slot, c, price)) in row.iter().enumerate() {
                if mask & (1 << i) != 0 {
                    cost += price;
                    bought.push(c);
                    if first.is_none_or(|(p, _)| price > p) {
                        first = Some((price, slot));
                    }
                }
            }
            if cost > trade {
                continue;
            }
            let most = ((trade - cost) / explorer_cost).min(explorers);
            for extra in 0..=most {
                if mask == 0 && extra == 0 {
                    continue;
                }
                h.copy_from_slice(&base);
                on_top_left = o.players[me.index()].next_ship_top as usize;
                let mut add = |c: CardId, h: &mut [f32]| {
                    let i = set.printed(c).0 as usize;
                    let to_top = on_top_left > 0 && !set.info(c).kind.is_base();
                    if i < k {
                        self.net.add_input(h, OWNED * k + i, CARD);
                    }
                    if to_top {
                        on_top_left -= 1;
                        if i < k {
                            self.net.add_input(h, DRAW * k + i, CARD);
                        }
                        self.net.add_input(h, at + DRAW_SIZE, 1.0 / 20.0);
                    } else {
                        if i < k {
                            self.net.add_input(h, DISCARD * k + i, CARD);
                        }
                        self.net.add_input(h, at + DISCARD_SIZE, 1.0 / 20.0);
                    }
                };
                for &c in &bought {
                    add(c, &mut h);
                }
                for _ in 0..extra {
                    add(set.explorer, &mut h);
                }
                let v = self.net.output(&h);
                if v > best {
                    best = v;
                    chosen = Some((mask, extra, first.map(|(_, slot)| slot)));
                }
            }
        }
        chosen.map(|(mask, extra, first)| Purchase {
            first,
            cards: row
                .iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(_, &(_, c, _))| c)
                .chain(std::iter::repeat_n(set.explorer, extra as usize))
                .collect(),
            score: best,
        })
    }
}

/// The set of purchases a [`BuyNet`] chose.
#[derive(Clone, Debug, PartialEq)]
pub struct Purchase {
    /// What to buy first: the set's dearest trade-row card (its slot), or an Explorer (`None`).
    pub first: Option<u8>,
    /// Every card of the set.
    pub cards: Vec<CardId>,
    /// The network's score of the turn's end with them.
    pub score: f32,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Bot, SeatView};
    use game::State as _;
    use starrealms::{Action, Config, State};

    #[test]
    fn the_embedded_network_reads_these_features() {
        let net = BuyNet::embedded();
        let state = State::new_game(&Config::default(), 2).unwrap();
        let me = state.current;
        let mut x = Vec::new();
        features(&state.observation(me), me, &[], &mut x);
        assert_eq!(x.len(), feature_count());
        let v = net.eval(&x);
        assert!((0.0..=1.0).contains(&v), "{v}");
    }

    /// A game at its main phase with nothing left to play and `trade` to spend.
    fn shopping(config: &Config, seed: u64, trade: u16) -> State {
        let mut state = State::new_game(config, seed).unwrap();
        let me = state.current;
        let p = &mut state.players[me];
        let hand: Vec<CardId> = p.hand.drain(..).collect();
        p.discard.extend(hand);
        p.trade = trade;
        state
    }

    #[test]
    fn the_bot_buys_first_what_the_network_plans() {
        let net = BuyNet::embedded();
        let (mut bought, mut unlike_the_table) = (0, 0);
        for seed in 0..20 {
            let state = shopping(&Config::default(), seed, 2 + (seed % 8) as u16);
            let me = state.current;
            let legal = state.legal_actions();
            let mut table = crate::starrealms::HeuristicBot::new(seed);
            let mut bot = table.clone().with_buyer(net.clone());
            let view = SeatView::of_state(&state, me);
            let choice = bot.choose(&view, &legal);
            unlike_the_table += usize::from(choice != table.choose(&view, &legal));
            let plan = net.plan(
                &state.observation(me),
                me,
                state.players[me].trade as i32,
                10,
            );
            match plan {
                Some(p) => {
                    bought += 1;
                    assert_eq!(choice, p.first.map_or(Action::BuyExplorer, Action::BuyRow));
                }
                None => assert!(
                    !matches!(choice, Action::BuyRow(_) | Action::BuyExplorer),
                    "{choice}"
                ),
            }
        }
        assert!(bought > 5, "{bought} purchases in 20 positions");
        assert!(unlike_the_table > 0, "the network, not the table, chose");
    }

    #[test]
    fn in_a_game_the_network_does_not_know_the_bot_buys_by_its_table() {
        let config = Config {
            format: starrealms::Format::FreeForAll,
            seats: 3,
            ..Config::default()
        };
        for seed in 0..10 {
            let state = shopping(&config, seed, 6);
            let me = state.current;
            let legal = state.legal_actions();
            let view = SeatView::of_state(&state, me);
            let mut table = crate::starrealms::HeuristicBot::new(seed);
            let mut learned = table.clone().with_buyer(BuyNet::embedded().clone());
            assert_eq!(learned.choose(&view, &legal), table.choose(&view, &legal));
        }
    }

    #[test]
    fn the_features_hold_only_what_the_seat_sees() {
        // Another deal with the same public table and the same own cards gives the same inputs:
        // the opponent's hand and every deck's order are not read.
        let state = State::new_game(&Config::default(), 4).unwrap();
        let me = state.current;
        let mut other = state.clone();
        let opp = Seat(1 - me.0);
        let p = &mut other.players[opp];
        let mut all: Vec<CardId> = p.hand.drain(..).chain(p.deck.drain(..)).collect();
        all.reverse();
        p.hand = all.split_off(all.len() - state.players[opp].hand.len());
        p.deck = all;
        other.players[me].deck.reverse();
        let (mut a, mut b) = (Vec::new(), Vec::new());
        features(&state.observation(me), me, &[], &mut a);
        features(&other.observation(me), me, &[], &mut b);
        assert_eq!(a, b);
    }

    #[test]
    fn a_planned_set_scores_as_its_features_do() {
        // The plan's incremental sums agree with the features of the set it picks.
        let net = BuyNet::embedded();
        let mut state = State::new_game(&Config::default(), 6).unwrap();
        let me = state.current;
        state.players[me].trade = 9;
        let o = state.observation(me);
        let plan = net
            .plan(&o, me, 9, 2)
            .expect("the network buys something with 9 trade");
        let mut x = Vec::new();
        features(&o, me, &[], &mut x);
        let nothing = net.eval(&x);
        assert!(plan.score > nothing, "{} > {nothing}", plan.score);
        features(&o, me, &plan.cards, &mut x);
        assert!((net.eval(&x) - plan.score).abs() < 1e-5);
        let cost: u32 = plan
            .cards
            .iter()
            .map(|&c| cards().info(c).cost as u32)
            .sum();
        assert!(cost <= 9, "{:?}", plan.cards);
        match plan.first {
            Some(slot) => assert!(plan.cards.contains(&o.row[slot as usize].unwrap())),
            None => assert!(plan.cards.iter().all(|&c| c == cards().explorer)),
        }
    }
}
