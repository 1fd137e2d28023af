//! The Star Realms tensor: one seat's observation, seats counted from that seat (block `p0` is
//! the observer, `p1` the next seat in turn order …), cards as one-hot vectors or counts over
//! the cards a game of the configuration can hold (in card id order; [`StarRealmsEncoder::cards`]
//! lists them).

use game::{Observation as _, Seat};
use starrealms::action::ROW_SIZE;
use starrealms::cards::{CardId, Faction};
use starrealms::state::Ability;
use starrealms::{Config, InPlay, Observation, Pending};

use crate::{Block, Encoder, Layout, one_hot, relative};

/// Ship positions encoded per player (a ship beyond is left out of the positions, counted in
/// the player's `ships_in_play`).
pub const SHIP_SLOTS: usize = 12;
/// Base positions encoded per player.
pub const BASE_SLOTS: usize = 6;
/// The kinds of pending decision, in the order of the one-hot `pending` block.
pub const PENDING_KINDS: [&str; 18] = [
    "choose",
    "scrap",
    "scrap_trade_row",
    "destroy_base",
    "discard_target",
    "discard",
    "discard_then_draw",
    "copy_ship",
    "acquire_free",
    "top_or_discard",
    "bequeath",
    "acquire_up_to",
    "to_hand",
    "copy_base",
    "discard_for",
    "discard_reward",
    "player_discard_target",
    "base_to_top",
];
const GLOBAL: [&str; 8] = [
    "my_decision",
    "my_turn",
    "over",
    "turn_div_50",
    "explorers_div_10",
    "trade_deck_div_80",
    "progress",
    "frames_div_6",
];
const PENDING_SCALARS: [&str; 3] = ["left_div_5", "optional", "done_div_5"];
const PLAYER: [&str; 17] = [
    "present",
    "alive",
    "my_team",
    "authority_div_50",
    "trade_div_10",
    "combat_div_10",
    "hand_div_10",
    "deck_div_20",
    "discard_div_20",
    "ships_in_play_div_10",
    "bases_in_play_div_5",
    "pending_discards",
    "next_ship_top",
    "done",
    "sheets",
    "stickers_used_div_10",
    "political",
];
const SHIP_FLAGS: usize = 2;
const BASE_FLAGS: usize = 3;

/// Where each part of one player's block starts, relative to the block.
#[derive(Clone, Debug)]
struct PlayerOffsets {
    scalars: usize,
    played: usize,
    hand: usize,
    known_top: usize,
    unseen: usize,
    discard: usize,
    ships: usize,
    bases: usize,
    size: usize,
}

/// Encodes Star Realms observations of one configuration.
#[derive(Clone, Debug)]
pub struct StarRealmsEncoder {
    seats: usize,
    /// Card id → position among `cards` (`u16::MAX`: not in a game of this configuration).
    index: Vec<u16>,
    cards: Vec<CardId>,
    global: usize,
    current: usize,
    to_move: usize,
    pending: usize,
    pending_scalars: usize,
    pending_target: usize,
    pending_card: usize,
    pending_ability: usize,
    row: usize,
    trade_deck: usize,
    scrap_heap: usize,
    players: usize,
    player: PlayerOffsets,
    size: usize,
    blocks: Vec<Block>,
}

/// The cards a game of `config` can hold: its sets' trade cards, the starting and personal
/// decks, the Explorer, a given trade deck, and (when anybody owns a sticker sheet) every
/// upgraded card of those.
pub fn cards_of(config: &Config) -> Vec<CardId> {
    let set = starrealms::cards();
    let mut keep = vec![false; set.len()];
    let mut mark = |c: CardId| keep[c.0 as usize] = true;
    set.trade_deck_of(config.sets)
        .into_iter()
        .for_each(&mut mark);
    set.starting_deck.iter().copied().for_each(&mut mark);
    mark(set.explorer);
    mark(set.scout);
    mark(set.viper);
    config.decks.iter().flatten().copied().for_each(&mut mark);
    config
        .trade_deck
        .iter()
        .flatten()
        .copied()
        .for_each(&mut mark);
    if config.sheets.iter().any(|s| !s.is_empty()) {
        let printed: Vec<bool> = keep.clone();
        for (id, _) in set.iter() {
            if printed[set.printed(id).0 as usize] {
                keep[id.0 as usize] = true;
            }
        }
    }
    (0..set.len())
        .filter(|&i| keep[i])
        .map(|i| CardId(i as u16))
        .collect()
}

impl StarRealmsEncoder {
    /// The encoder of the games of `config`.
    pub fn new(config: &Config) -> StarRealmsEncoder {
        let seats = config.seats as usize;
        let cards = cards_of(config);
        let mut index = vec![u16::MAX; starrealms::cards().len()];
        for (i, c) in cards.iter().enumerate() {
            index[c.0 as usize] = i as u16;
        }
        let c = cards.len();
        let mut l = Layout::default();
        let global = l.add("global", &[GLOBAL.len()]);
        let current = l.add("current_seat", &[seats]);
        let to_move = l.add("to_move_seat", &[seats]);
        let pending = l.add("pending_kind", &[PENDING_KINDS.len()]);
        let pending_scalars = l.add("pending", &[PENDING_SCALARS.len()]);
        let pending_target = l.add("pending_seat", &[seats]);
        let pending_card = l.add("pending_card", &[c]);
        let pending_ability = l.add("pending_ability", &[5]);
        let row = l.add("row", &[ROW_SIZE, c]);
        let trade_deck = l.add("trade_deck", &[c]);
        let scrap_heap = l.add("scrap_heap", &[c]);
        let players = l.size();
        let mut p = Layout::default();
        let player = PlayerOffsets {
            scalars: p.add("", &[PLAYER.len()]),
            played: p.add("", &[Faction::COUNT]),
            hand: p.add("", &[c]),
            known_top: p.add("", &[c]),
            unseen: p.add("", &[c]),
            discard: p.add("", &[c]),
            ships: p.add("", &[SHIP_SLOTS, c + SHIP_FLAGS]),
            bases: p.add("", &[BASE_SLOTS, c + BASE_FLAGS]),
            size: p.size(),
        };
        for s in 0..seats {
            l.add(format!("p{s}.scalars"), &[PLAYER.len()]);
            l.add(format!("p{s}.played"), &[Faction::COUNT]);
            l.add(format!("p{s}.hand"), &[c]);
            l.add(format!("p{s}.deck_known_top"), &[c]);
            l.add(format!("p{s}.unseen"), &[c]);
            l.add(format!("p{s}.discard"), &[c]);
            l.add(format!("p{s}.ships"), &[SHIP_SLOTS, c + SHIP_FLAGS]);
            l.add(format!("p{s}.bases"), &[BASE_SLOTS, c + BASE_FLAGS]);
        }
        let size = l.size();
        StarRealmsEncoder {
            seats,
            index,
            cards,
            global,
            current,
            to_move,
            pending,
            pending_scalars,
            pending_target,
            pending_card,
            pending_ability,
            row,
            trade_deck,
            scrap_heap,
            players,
            player,
            size,
            blocks: l.into_blocks(),
        }
    }

    /// The cards of the one-hot and count blocks, in order.
    pub fn cards(&self) -> &[CardId] {
        &self.cards
    }

    /// The names of the scalars of the `global` block and of each player's `scalars` block.
    pub fn scalar_names() -> (&'static [&'static str], &'static [&'static str]) {
        (&GLOBAL, &PLAYER)
    }

    #[inline]
    fn card(&self, c: CardId) -> usize {
        self.index
            .get(c.0 as usize)
            .map_or(usize::MAX, |&i| i as usize)
    }

    #[inline]
    fn count(&self, out: &mut [f32], offset: usize, cards: &[CardId]) {
        for &c in cards {
            let i = self.card(c);
            if i < self.cards.len() {
                out[offset + i] += 1.0;
            }
        }
    }

    fn in_play(&self, out: &mut [f32], offset: usize, slots: usize, flags: usize, list: &[InPlay]) {
        let c = self.cards.len();
        let width = c + flags;
        for (k, p) in list.iter().take(slots).enumerate() {
            let at = offset + k * width;
            one_hot(out, at, c, self.card(p.card));
            out[at + c] = p.primary_used as u8 as f32;
            out[at + c + 1] = p.ally_used as u8 as f32;
            if flags > 2 {
                out[at + c + 2] = p.damage as f32 / 10.0;
            }
        }
    }
}

impl Encoder<starrealms::State> for StarRealmsEncoder {
    fn size(&self) -> usize {
        self.size
    }

    fn blocks(&self) -> Vec<Block> {
        self.blocks.clone()
    }

    fn feature_names(&self) -> Vec<String> {
        let set = starrealms::cards();
        let card = |i: usize| set.def(self.cards[i]).id().to_string();
        let c = self.cards.len();
        let factions = [
            "blob",
            "trade_federation",
            "star_empire",
            "machine_cult",
            "consortium",
            "kingdom",
            "scavengers",
        ];
        crate::names_of(&self.blocks, |b, i| {
            let field = b.name.rsplit('.').next().unwrap_or(&b.name);
            let what = match field {
                "global" => GLOBAL[i].to_string(),
                "scalars" => PLAYER[i].to_string(),
                "played" => factions
                    .get(i)
                    .map_or(format!("faction_{i}"), |f| f.to_string()),
                "current_seat" | "to_move_seat" | "pending_seat" => format!("p{i}"),
                "pending_kind" => PENDING_KINDS[i].to_string(),
                "pending" => PENDING_SCALARS[i].to_string(),
                "pending_ability" => {
                    ["primary", "ally", "scrap", "on_acquire", "double_ally"][i].to_string()
                }
                "row" => format!("slot{}:{}", i / c, card(i % c)),
                "ships" | "bases" => {
                    let width = b.shape[1];
                    let (slot, k) = (i / width, i % width);
                    let flag = ["primary_used", "ally_used", "damage_div_10"];
                    let what = if k < c {
                        card(k)
                    } else {
                        flag[k - c].to_string()
                    };
                    format!("{slot}:{what}")
                }
                _ => card(i),
            };
            format!("{}[{what}]", b.name)
        })
    }

    fn encode(&self, o: &Observation, out: &mut [f32]) {
        assert_eq!(out.len(), self.size, "the tensor has the encoder's size");
        let me = o.seat().expect("a seat's observation");
        let n = self.seats;
        let c = self.cards.len();
        out.fill(0.0);
        let g = self.global;
        out[g] = (o.to_move == Some(me)) as u8 as f32;
        out[g + 1] = (o.current == me) as u8 as f32;
        out[g + 2] = o.over as u8 as f32;
        out[g + 3] = o.turn as f32 / 50.0;
        out[g + 4] = o.explorers as f32 / 10.0;
        out[g + 5] = o.trade_deck_count as f32 / 80.0;
        out[g + 6] = o.progress as u8 as f32;
        out[g + 7] = o.frames.len() as f32 / 6.0;
        one_hot(out, self.current, n, relative(o.current, me, n));
        if let Some(s) = o.to_move {
            one_hot(out, self.to_move, n, relative(s, me, n));
        }
        if let Some(p) = &o.pending {
            let (kind, left, optional, done, seat, card, ability): (
                usize,
                u8,
                bool,
                u8,
                Option<Seat>,
                Option<CardId>,
                Option<Ability>,
            ) = match *p {
                Pending::Choose { source, .. } => (
                    0,
                    0,
                    false,
                    0,
                    None,
                    Some(source.card),
                    Some(source.ability),
                ),
                Pending::Scrap {
                    left,
                    optional,
                    done,
                    ..
                } => (1, left, optional, done, None, None, None),
                Pending::ScrapTradeRow { optional, .. } => (2, 0, optional, 0, None, None, None),
                Pending::DestroyBase { optional } => (3, 0, optional, 0, None, None, None),
                Pending::DiscardTarget => (4, 0, false, 0, None, None, None),
                Pending::Discard { seat, left } => (5, left, false, 0, Some(seat), None, None),
                Pending::DiscardThenDraw { left, done } => (6, left, true, done, None, None, None),
                Pending::CopyShip { .. } => (7, 0, false, 0, None, None, None),
                Pending::AcquireFree => (8, 0, false, 0, None, None, None),
                Pending::TopOrDiscard { card } => (9, 0, true, 0, None, Some(card), None),
                Pending::Bequeath { to, .. } => (10, 0, true, 0, Some(to), None, None),
                Pending::AcquireUpTo { .. } => (11, 0, false, 0, None, None, None),
                Pending::ToHand { card, .. } => (12, 0, true, 0, None, Some(card), None),
                Pending::CopyBase { .. } => (13, 0, false, 0, None, None, None),
                Pending::DiscardFor { source, left, .. } => (
                    14,
                    left,
                    true,
                    0,
                    None,
                    Some(source.card),
                    Some(source.ability),
                ),
                Pending::DiscardReward { source, left, .. } => (
                    15,
                    left,
                    false,
                    0,
                    None,
                    Some(source.card),
                    Some(source.ability),
                ),
                Pending::PlayerDiscardTarget => (16, 0, false, 0, None, None, None),
                Pending::BaseToTop => (17, 0, false, 0, None, None, None),
            };
            out[self.pending + kind] = 1.0;
            out[self.pending_scalars] = left as f32 / 5.0;
            out[self.pending_scalars + 1] = optional as u8 as f32;
            out[self.pending_scalars + 2] = done as f32 / 5.0;
            if let Some(s) = seat {
                one_hot(out, self.pending_target, n, relative(s, me, n));
            }
            if let Some(card) = card {
                one_hot(out, self.pending_card, c, self.card(card));
            }
            if let Some(a) = ability {
                let i = match a {
                    Ability::Primary => 0,
                    Ability::Ally => 1,
                    Ability::Scrap => 2,
                    Ability::OnAcquire => 3,
                    Ability::DoubleAlly => 4,
                };
                out[self.pending_ability + i] = 1.0;
            }
        }
        for (slot, card) in o.row.iter().enumerate() {
            if let Some(card) = card {
                one_hot(out, self.row + slot * c, c, self.card(*card));
            }
        }
        self.count(out, self.trade_deck, &o.trade_deck_cards);
        self.count(out, self.scrap_heap, &o.scrap_heap);
        let my_team = o.players[me.index()].team;
        for (s, p) in o.players.iter().enumerate() {
            let at = self.players + relative(Seat(s as u8), me, n) * self.player.size;
            let po = &self.player;
            let sc = at + po.scalars;
            let stickers: u32 = p
                .sheets
                .iter()
                .map(|u| u.ship.count_ones() + u.base.count_ones())
                .sum();
            let scalars = [
                1.0,
                p.alive as u8 as f32,
                (p.team == my_team) as u8 as f32,
                p.authority as f32 / 50.0,
                p.trade as f32 / 10.0,
                p.combat as f32 / 10.0,
                p.hand_count as f32 / 10.0,
                p.deck_count as f32 / 20.0,
                p.discard.len() as f32 / 20.0,
                p.ships.len() as f32 / 10.0,
                p.bases.len() as f32 / 5.0,
                p.pending_discards as f32,
                p.next_ship_top as f32,
                p.done as u8 as f32,
                p.sheets.len() as f32,
                stickers as f32 / 10.0,
                p.sheets.iter().any(|u| u.political) as u8 as f32,
            ];
            out[sc..sc + PLAYER.len()].copy_from_slice(&scalars);
            for (f, &k) in p.played.iter().enumerate() {
                out[at + po.played + f] = k as f32;
            }
            match &p.hand {
                Some(hand) => self.count(out, at + po.hand, hand),
                None => self.count(out, at + po.hand, &p.hand_known),
            }
            self.count(out, at + po.known_top, &p.deck_known_top);
            self.count(out, at + po.unseen, &p.unseen);
            self.count(out, at + po.discard, &p.discard);
            self.in_play(out, at + po.ships, SHIP_SLOTS, SHIP_FLAGS, &p.ships);
            self.in_play(out, at + po.bases, BASE_SLOTS, BASE_FLAGS, &p.bases);
        }
    }
}

#[cfg(test)]
mod tests {
    use game::State as _;

    use super::*;

    #[test]
    fn blocks_tile_the_tensor() {
        for config in [
            Config::default(),
            Config::of_format(starrealms::Format::FreeForAll, Some(4)),
        ] {
            let e = StarRealmsEncoder::new(&config);
            let mut at = 0;
            for b in e.blocks() {
                assert_eq!(b.offset, at, "{}", b.name);
                at += b.len();
            }
            assert_eq!(at, e.size());
            let names = e.feature_names();
            assert_eq!(names.len(), e.size());
            assert!(names.contains(&"p1.hand[blob_fighter]".to_string()));
            assert!(names.contains(&"row[slot4:viper]".to_string()));
            assert!(names.contains(&"p0.bases[5:damage_div_10]".to_string()));
        }
    }

    #[test]
    fn a_base_game_encodes_its_hand_and_row() {
        let config = Config::default();
        let state = starrealms::State::new_game(&config, 3).unwrap();
        let e = StarRealmsEncoder::new(&config);
        let me = state.to_move().unwrap();
        let mut t = vec![0.0; e.size()];
        e.encode(&state.observation(me), &mut t);
        let block = |name: &str| e.blocks().into_iter().find(|b| b.name == name).unwrap();
        let hand = block("p0.hand");
        let in_hand: f32 = t[hand.offset..hand.offset + hand.len()].iter().sum();
        assert_eq!(in_hand as usize, state.players[me].hand.len());
        let row = block("row");
        let dealt: f32 = t[row.offset..row.offset + row.len()].iter().sum();
        assert_eq!(dealt, 5.0);
        for (slot, card) in state.row.iter().enumerate() {
            let i = e.cards().iter().position(|c| Some(*c) == *card).unwrap();
            assert_eq!(t[row.offset + slot * e.cards().len() + i], 1.0);
        }
        let g = block("global");
        assert_eq!(t[g.offset], 1.0, "the seat to move sees it is its decision");
        let other = Seat(1 - me.0);
        e.encode(&state.observation(other), &mut t);
        assert_eq!(t[g.offset], 0.0);
        let hand = block("p0.hand");
        let in_hand: f32 = t[hand.offset..hand.offset + hand.len()].iter().sum();
        assert_eq!(in_hand as usize, state.players[other].hand.len());
        let their = block("p1.hand");
        assert!(
            t[their.offset..their.offset + their.len()]
                .iter()
                .all(|&x| x == 0.0)
        );
    }
}
