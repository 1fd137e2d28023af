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
    #[test]
    fn an_observation_writes_as_serde_writes_it() {
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
