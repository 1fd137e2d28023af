//! An observation written as JSON without serde's generic path: the server writes one for
//! nearly every action, and most of its bytes are card ids, which the card set keeps already
//! written as JSON strings. The text is byte for byte what `serde_json` writes of the same
//! observation (the tests compare both over whole games of every format); the rare parts
//! (configuration, pending decision, effects to resolve) still go through `serde_json`.

use game::json::{boolean, list, number, option_seat, seat, value};

use super::{Observation, PlayerView};
use crate::cards::{CardId, CardSet};
use crate::state::InPlay;

impl Observation {
    /// Appends this observation as JSON to `out`: the same text as
    /// `serde_json::to_writer(out, self)`, written faster.
    pub fn write_json(&self, out: &mut Vec<u8>) {
        let cards = crate::cards();
        out.extend_from_slice(b"{\"seat\":");
        option_seat(out, self.seat);
        out.extend_from_slice(b",\"config\":");
        value(out, &self.config);
        out.extend_from_slice(b",\"current\":");
        seat(out, self.current);
        out.extend_from_slice(b",\"first\":");
        seat(out, self.first);
        out.extend_from_slice(b",\"turn\":");
        number(out, self.turn);
        out.extend_from_slice(b",\"to_move\":");
        option_seat(out, self.to_move);
        out.extend_from_slice(b",\"over\":");
        boolean(out, self.over);
        out.extend_from_slice(b",\"victors\":");
        number(out, self.victors);
        out.extend_from_slice(b",\"bequests\":");
        if self.bequests.is_empty() {
            out.extend_from_slice(b"[]");
        } else {
            value(out, &self.bequests);
        }
        out.extend_from_slice(b",\"progress\":");
        boolean(out, self.progress);
        out.extend_from_slice(b",\"pending\":");
        match &self.pending {
            None => out.extend_from_slice(b"null"),
            Some(pending) => value(out, pending),
        }
        out.extend_from_slice(b",\"frames\":");
        if self.frames.is_empty() {
            out.extend_from_slice(b"[]");
        } else {
            value(out, &self.frames);
        }
        out.extend_from_slice(b",\"row\":");
        list(out, &self.row, |out, slot| match slot {
            Some(card) => cards.write_json_id(*card, out),
            None => out.extend_from_slice(b"null"),
        });
        out.extend_from_slice(b",\"trade_deck_count\":");
        number(out, self.trade_deck_count);
        out.extend_from_slice(b",\"trade_deck_cards\":");
        card_list(out, cards, &self.trade_deck_cards);
        out.extend_from_slice(b",\"explorers\":");
        number(out, self.explorers);
        out.extend_from_slice(b",\"scrap_heap\":");
        card_list(out, cards, &self.scrap_heap);
        out.extend_from_slice(b",\"players\":");
        list(out, &self.players, |out, player| {
            player.write_json(out, cards)
        });
        out.push(b'}');
    }
}

impl PlayerView {
    fn write_json(&self, out: &mut Vec<u8>, cards: &CardSet) {
        out.extend_from_slice(b"{\"authority\":");
        number(out, self.authority);
        out.extend_from_slice(b",\"alive\":");
        boolean(out, self.alive);
        out.extend_from_slice(b",\"team\":");
        number(out, self.team);
        out.extend_from_slice(b",\"trade\":");
        number(out, self.trade);
        out.extend_from_slice(b",\"combat\":");
        number(out, self.combat);
        out.extend_from_slice(b",\"ships\":");
        in_play_list(out, cards, &self.ships);
        out.extend_from_slice(b",\"bases\":");
        in_play_list(out, cards, &self.bases);
        out.extend_from_slice(b",\"discard\":");
        card_list(out, cards, &self.discard);
        out.extend_from_slice(b",\"hand\":");
        match &self.hand {
            Some(hand) => card_list(out, cards, hand),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(b",\"hand_count\":");
        number(out, self.hand_count);
        out.extend_from_slice(b",\"hand_known\":");
        card_list(out, cards, &self.hand_known);
        out.extend_from_slice(b",\"deck_count\":");
        number(out, self.deck_count);
        out.extend_from_slice(b",\"deck_known_top\":");
        card_list(out, cards, &self.deck_known_top);
        out.extend_from_slice(b",\"unseen\":");
        card_list(out, cards, &self.unseen);
        out.extend_from_slice(b",\"pending_discards\":");
        number(out, self.pending_discards);
        out.extend_from_slice(b",\"next_ship_top\":");
        number(out, self.next_ship_top);
        out.extend_from_slice(b",\"played\":");
        list(out, &self.played, |out, &n| number(out, n));
        // As the type's serde attributes say: these are left out when zero or empty.
        if self.scrapped != 0 {
            out.extend_from_slice(b",\"scrapped\":");
            number(out, self.scrapped);
        }
        if self.scrapped_all != 0 {
            out.extend_from_slice(b",\"scrapped_all\":");
            number(out, self.scrapped_all);
        }
        if self.next_base_top != 0 {
            out.extend_from_slice(b",\"next_base_top\":");
            number(out, self.next_base_top);
        }
        if !self.returning.is_empty() {
            out.extend_from_slice(b",\"returning\":");
            card_list(out, cards, &self.returning);
        }
        if !self.redirects.is_empty() {
            out.extend_from_slice(b",\"redirects\":");
            value(out, &self.redirects);
        }
        if !self.sheets.is_empty() {
            out.extend_from_slice(b",\"sheets\":");
            value(out, &self.sheets);
        }
        out.extend_from_slice(b",\"done\":");
        boolean(out, self.done);
        out.push(b'}');
    }
}

/// A JSON object of some fields, written one at a time.
struct Fields<'a> {
    out: &'a mut Vec<u8>,
    empty: bool,
}

impl<'a> Fields<'a> {
    fn new(out: &'a mut Vec<u8>) -> Fields<'a> {
        out.push(b'{');
        Fields { out, empty: true }
    }

    /// Writes the key `name` (a field name that needs no escaping), for its value to follow.
    fn key(&mut self, name: &str) -> &mut Vec<u8> {
        if !self.empty {
            self.out.push(b',');
        }
        self.empty = false;
        self.out.push(b'"');
        self.out.extend_from_slice(name.as_bytes());
        self.out.extend_from_slice(b"\":");
        self.out
    }

    fn end(self) {
        self.out.push(b'}');
    }
}

impl Observation {
    /// Appends, as a JSON object, the fields of this observation that differ from `before`
    /// (the same seat's earlier observation of the same game), each whole, except `players`,
    /// which lists every player, each as an object of its own fields that changed (`{}` for
    /// one that did not); and makes `before` this observation, field by changed field. Fields that the whole observation leaves out
    /// when zero or empty are written with their zero or empty value when they became so.
    /// Merged into `before` as `docs/protocol.md` says ("views=changes"), it gives this
    /// observation.
    pub fn write_changes(&self, before: &mut Observation, out: &mut Vec<u8>) {
        let cards = crate::cards();
        let mut o = Fields::new(out);
        if self.seat != before.seat {
            option_seat(o.key("seat"), self.seat);
            before.seat.clone_from(&self.seat);
        }
        if self.config != before.config {
            value(o.key("config"), &self.config);
            before.config.clone_from(&self.config);
        }
        if self.current != before.current {
            seat(o.key("current"), self.current);
            before.current.clone_from(&self.current);
        }
        if self.first != before.first {
            seat(o.key("first"), self.first);
            before.first.clone_from(&self.first);
        }
        if self.turn != before.turn {
            number(o.key("turn"), self.turn);
            before.turn.clone_from(&self.turn);
        }
        if self.to_move != before.to_move {
            option_seat(o.key("to_move"), self.to_move);
            before.to_move.clone_from(&self.to_move);
        }
        if self.over != before.over {
            boolean(o.key("over"), self.over);
            before.over.clone_from(&self.over);
        }
        if self.victors != before.victors {
            number(o.key("victors"), self.victors);
            before.victors.clone_from(&self.victors);
        }
        if self.bequests != before.bequests {
            value(o.key("bequests"), &self.bequests);
            before.bequests.clone_from(&self.bequests);
        }
        if self.progress != before.progress {
            boolean(o.key("progress"), self.progress);
            before.progress.clone_from(&self.progress);
        }
        if self.pending != before.pending {
            value(o.key("pending"), &self.pending);
            before.pending.clone_from(&self.pending);
        }
        if self.frames != before.frames {
            value(o.key("frames"), &self.frames);
            before.frames.clone_from(&self.frames);
        }
        if self.row != before.row {
            list(o.key("row"), &self.row, |out, slot| match slot {
                Some(card) => cards.write_json_id(*card, out),
                None => out.extend_from_slice(b"null"),
            });
            before.row.clone_from(&self.row);
        }
        if self.trade_deck_count != before.trade_deck_count {
            number(o.key("trade_deck_count"), self.trade_deck_count);
            before.trade_deck_count.clone_from(&self.trade_deck_count);
        }
        if self.trade_deck_cards != before.trade_deck_cards {
            card_list(o.key("trade_deck_cards"), cards, &self.trade_deck_cards);
            before.trade_deck_cards.clone_from(&self.trade_deck_cards);
        }
        if self.explorers != before.explorers {
            number(o.key("explorers"), self.explorers);
            before.explorers.clone_from(&self.explorers);
        }
        if self.scrap_heap != before.scrap_heap {
            card_list(o.key("scrap_heap"), cards, &self.scrap_heap);
            before.scrap_heap.clone_from(&self.scrap_heap);
        }
        if self.players.len() != before.players.len() {
            list(o.key("players"), &self.players, |out, player| {
                player.write_json(out, cards)
            });
            before.players.clone_from(&self.players);
        } else {
            let pairs = self.players.iter().zip(&mut before.players);
            list(o.key("players"), pairs, |out, (player, before)| {
                player.write_changes(before, out, cards)
            });
        }
        o.end();
    }
}

impl PlayerView {
    /// The fields of this player that differ from `before`, as [`Observation::write_changes`]
    /// writes them.
    fn write_changes(&self, before: &mut PlayerView, out: &mut Vec<u8>, cards: &CardSet) {
        let mut o = Fields::new(out);
        if self.authority != before.authority {
            number(o.key("authority"), self.authority);
            before.authority.clone_from(&self.authority);
        }
        if self.alive != before.alive {
            boolean(o.key("alive"), self.alive);
            before.alive.clone_from(&self.alive);
        }
        if self.team != before.team {
            number(o.key("team"), self.team);
            before.team.clone_from(&self.team);
        }
        if self.trade != before.trade {
            number(o.key("trade"), self.trade);
            before.trade.clone_from(&self.trade);
        }
        if self.combat != before.combat {
            number(o.key("combat"), self.combat);
            before.combat.clone_from(&self.combat);
        }
        if self.ships != before.ships {
            in_play_list(o.key("ships"), cards, &self.ships);
            before.ships.clone_from(&self.ships);
        }
        if self.bases != before.bases {
            in_play_list(o.key("bases"), cards, &self.bases);
            before.bases.clone_from(&self.bases);
        }
        if self.discard != before.discard {
            card_list(o.key("discard"), cards, &self.discard);
            before.discard.clone_from(&self.discard);
        }
        if self.hand != before.hand {
            let out = o.key("hand");
            match &self.hand {
                Some(hand) => card_list(out, cards, hand),
                None => out.extend_from_slice(b"null"),
            }
            before.hand.clone_from(&self.hand);
        }
        if self.hand_count != before.hand_count {
            number(o.key("hand_count"), self.hand_count);
            before.hand_count.clone_from(&self.hand_count);
        }
        if self.hand_known != before.hand_known {
            card_list(o.key("hand_known"), cards, &self.hand_known);
            before.hand_known.clone_from(&self.hand_known);
        }
        if self.deck_count != before.deck_count {
            number(o.key("deck_count"), self.deck_count);
            before.deck_count.clone_from(&self.deck_count);
        }
        if self.deck_known_top != before.deck_known_top {
            card_list(o.key("deck_known_top"), cards, &self.deck_known_top);
            before.deck_known_top.clone_from(&self.deck_known_top);
        }
        if self.unseen != before.unseen {
            card_list(o.key("unseen"), cards, &self.unseen);
            before.unseen.clone_from(&self.unseen);
        }
        if self.pending_discards != before.pending_discards {
            number(o.key("pending_discards"), self.pending_discards);
            before.pending_discards.clone_from(&self.pending_discards);
        }
        if self.next_ship_top != before.next_ship_top {
            number(o.key("next_ship_top"), self.next_ship_top);
            before.next_ship_top.clone_from(&self.next_ship_top);
        }
        if self.played != before.played {
            list(o.key("played"), &self.played, |out, &n| number(out, n));
            before.played.clone_from(&self.played);
        }
        if self.scrapped != before.scrapped {
            number(o.key("scrapped"), self.scrapped);
            before.scrapped.clone_from(&self.scrapped);
        }
        if self.scrapped_all != before.scrapped_all {
            number(o.key("scrapped_all"), self.scrapped_all);
            before.scrapped_all.clone_from(&self.scrapped_all);
        }
        if self.next_base_top != before.next_base_top {
            number(o.key("next_base_top"), self.next_base_top);
            before.next_base_top.clone_from(&self.next_base_top);
        }
        if self.returning != before.returning {
            card_list(o.key("returning"), cards, &self.returning);
            before.returning.clone_from(&self.returning);
        }
        if self.redirects != before.redirects {
            value(o.key("redirects"), &self.redirects);
            before.redirects.clone_from(&self.redirects);
        }
        if self.sheets != before.sheets {
            value(o.key("sheets"), &self.sheets);
            before.sheets.clone_from(&self.sheets);
        }
        if self.done != before.done {
            boolean(o.key("done"), self.done);
            before.done.clone_from(&self.done);
        }
        o.end();
    }
}

/// Cards in play, as [`InPlay`]'s serde attributes write them.
fn in_play_list(out: &mut Vec<u8>, cards: &CardSet, in_play: &[InPlay]) {
    list(out, in_play, |out, p| {
        out.extend_from_slice(b"{\"card\":");
        cards.write_json_id(p.card, out);
        if let Some(copy) = p.copy {
            out.extend_from_slice(b",\"copy\":");
            cards.write_json_id(copy, out);
        }
        out.extend_from_slice(b",\"primary_used\":");
        boolean(out, p.primary_used);
        out.extend_from_slice(b",\"ally_used\":");
        boolean(out, p.ally_used);
        if p.ally2_used {
            out.extend_from_slice(b",\"ally2_used\":true");
        }
        if p.damage != 0 {
            out.extend_from_slice(b",\"damage\":");
            number(out, p.damage);
        }
        out.push(b'}');
    });
}

fn card_list(out: &mut Vec<u8>, cards: &CardSet, ids: &[CardId]) {
    list(out, ids, |out, &card| cards.write_json_id(card, out));
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::Seat;

    use crate::{Config, Format, State, rollout};

    /// Every observation of every seat and of a spectator, at every step of random games of
    /// each format and edition, written both ways.
    /// Every format and edition for 2 to 4 seats, and every card set with upgrades.
    fn configs() -> Vec<Config> {
        let mut configs = Vec::new();
        for seats in 2..=4 {
            for format in Format::ALL {
                let mut config = Config {
                    seats,
                    format,
                    ..Config::default()
                };
                if config.validate().is_ok() {
                    configs.push(config.clone());
                    config.edition = crate::Edition::Classic;
                    if config.validate().is_ok() {
                        configs.push(config);
                    }
                }
            }
        }
        assert!(configs.len() >= 4, "formats tried: {}", configs.len());
        // Every card set in the trade deck, and upgrades: each seat owns a sticker sheet.
        let set = crate::cards();
        for seats in [2, 3] {
            let mut config = Config {
                seats,
                format: if seats == 2 {
                    Format::Standard
                } else {
                    Format::FreeForAll
                },
                sets: crate::cards::Sets((1u8 << set.sets.len()) - 1),
                ..Config::default()
            };
            config.sheets = (0..seats as usize)
                .map(|s| {
                    vec![crate::config::SheetGrant {
                        sheet: set.sheets[s % set.sheets.len()].id.clone(),
                        used: Vec::new(),
                        political: false,
                    }]
                })
                .collect();
            config.validate().unwrap();
            configs.push(config);
        }
        configs
    }

    #[test]
    fn an_observation_writes_as_serde_writes_it() {
        let configs = configs();
        let set = crate::cards();
        let mut rng = game::rng_from_seed(11);
        let mut buf = Vec::new();
        let mut written = 0;
        // What the comparisons must have met at least once, lest the rare parts go untried.
        let mut seen = [
            "\"copy\":",
            "\"damage\":",
            "\"ally2_used\":",
            "\"scrapped\":",
            "\"scrapped_all\":",
            "\"pending\":{",
            "\"frames\":[{",
            "\"bequests\":[[",
            "\"sheets\":[{",
            "\"row\":[null",
            "\"hand\":null",
            "\"seat\":null",
        ]
        .map(|s| (s, false));
        let mut meet = |text: &str| {
            for (part, met) in &mut seen {
                *met |= text.contains(*part);
            }
        };
        let mut observation = Observation::default();
        for (n, config) in configs.iter().enumerate() {
            let seed = 10 * n as u64;
            let mut state = State::new(config, seed).unwrap();
            let mut steps = 0;
            while !state.over && steps < 150 {
                let seats = state.players.0.len() as u8;
                for viewer in (0..seats).map(|s| Some(Seat(s))).chain([None]) {
                    observation.refill(&state, viewer);
                    let context =
                        format!("{config:?}, seed {seed}, step {steps}, viewer {viewer:?}");
                    meet(&both_ways(&observation, &context));
                    written += 1;
                }
                let a = rollout::random_action(&state, &mut buf, &mut rng);
                state.apply_unchecked(a);
                steps += 1;
            }
        }
        // What random games seldom reach, set by hand: a card passing owed, an empty slot of
        // the trade row, a double ally ability used, a copy.
        observation.bequests = vec![(Seat(2), Seat(0))];
        observation.row[0] = None;
        let mut ship = InPlay::new(set.scout);
        ship.ally2_used = true;
        ship.damage = 3;
        ship.copy = Some(set.viper);
        observation.players[0].bases.push(ship);
        meet(&both_ways(&observation, "parts set by hand"));
        assert!(written > 1000, "{written} observations compared");
        let unmet: Vec<&str> = seen
            .iter()
            .filter(|(_, met)| !met)
            .map(|(s, _)| *s)
            .collect();
        assert!(unmet.is_empty(), "never written: {unmet:?}");
    }

    /// Merges `changes` into `kept` as the protocol says: each field replaced whole, but
    /// `players` of the same length merged player by player, field by field.
    fn merge(kept: &mut serde_json::Value, changes: serde_json::Value) {
        let serde_json::Value::Object(changes) = changes else {
            panic!("changes are an object: {changes}");
        };
        for (key, value) in changes {
            match (key.as_str(), kept.get_mut(&key), value) {
                (
                    "players",
                    Some(serde_json::Value::Array(players)),
                    serde_json::Value::Array(new),
                ) if players.len() == new.len() => {
                    for (player, fields) in players.iter_mut().zip(new) {
                        let serde_json::Value::Object(fields) = fields else {
                            panic!("a player's changes are an object");
                        };
                        for (field, value) in fields {
                            player[field] = value;
                        }
                    }
                }
                (_, _, value) => kept[key] = value,
            }
        }
    }

    /// Every seat's and a spectator's observations through random games of every format,
    /// each sent as the changes since the one before: merged, they give each observation, and
    /// they are a fraction of its size.
    #[test]
    fn changes_merged_into_the_observation_before_give_the_next() {
        let mut rng = game::rng_from_seed(12);
        let mut buf = Vec::new();
        let (mut whole, mut sent, mut merged) = (0, 0, 0);
        let mut seen_players_unchanged = false;
        for (n, config) in configs().iter().enumerate() {
            let seed = 20 * n as u64 + 1;
            let mut state = State::new(config, seed).unwrap();
            let seats = state.players.0.len() as u8;
            let viewers: Vec<Option<Seat>> =
                (0..seats).map(|s| Some(Seat(s))).chain([None]).collect();
            let mut kept: Vec<(Observation, serde_json::Value)> = viewers
                .iter()
                .map(|&viewer| {
                    let o = Observation::of(&state, viewer);
                    let json = serde_json::to_value(&o).unwrap();
                    (o, json)
                })
                .collect();
            let mut steps = 0;
            while !state.over && steps < 150 {
                let a = rollout::random_action(&state, &mut buf, &mut rng);
                state.apply_unchecked(a);
                steps += 1;
                for (&viewer, (before, json)) in viewers.iter().zip(&mut kept) {
                    let now = Observation::of(&state, viewer);
                    let mut changes = Vec::new();
                    now.write_changes(before, &mut changes);
                    let text = std::str::from_utf8(&changes).unwrap();
                    seen_players_unchanged |= text.contains("\"players\":[{},");
                    sent += changes.len();
                    whole += serde_json::to_string(&now).unwrap().len();
                    merge(json, serde_json::from_slice(&changes).unwrap());
                    let back: Observation = serde_json::from_value(json.clone()).unwrap();
                    assert_eq!(
                        back, now,
                        "{config:?}, seed {seed}, step {steps}, {viewer:?}: {text}"
                    );
                    merged += 1;
                    assert_eq!(*before, now, "the observation kept is made the new one");
                }
            }
        }
        assert!(merged > 1000, "{merged} changes merged");
        assert!(
            seen_players_unchanged,
            "a player without changes was never met"
        );
        assert!(
            sent * 4 < whole,
            "changes of {sent} bytes for observations of {whole}"
        );
    }

    /// The observation written by [`Observation::write_json`] and by `serde_json`, which must
    /// agree to the byte; the text.
    fn both_ways(observation: &Observation, context: &str) -> String {
        let mut fast = Vec::new();
        observation.write_json(&mut fast);
        let fast = String::from_utf8(fast).expect("the text is UTF-8");
        let slow = serde_json::to_string(observation).unwrap();
        assert_eq!(fast, slow, "{context}");
        fast
    }
}
