//! Star Realms card texts in the player's language: names, factions, kinds and abilities, the
//! abilities written from the card's effects through the translation table, so every language
//! gets them (designers' cards included).

use starrealms::cards::{Condition, Dest, Effect, Faction, Kind, ScrapFrom, Static};
use starrealms::{CardId, cards};

use crate::{Lang, t, tf};

/// A card's name.
pub fn name(c: CardId, lang: Lang) -> &'static str {
    cards().def(c).name(lang.code())
}

/// A card's name with its cost: `Cutter (2)`.
pub fn name_cost(c: CardId, lang: Lang) -> String {
    format!("{} ({})", name(c, lang), cards().def(c).cost())
}

/// A faction's name.
pub fn faction(f: Faction, lang: Lang) -> &'static str {
    t(
        lang,
        match f {
            Faction::Blob => "faction.blob",
            Faction::TradeFederation => "faction.trade_federation",
            Faction::StarEmpire => "faction.star_empire",
            Faction::MachineCult => "faction.machine_cult",
            Faction::Consortium => "faction.consortium",
            Faction::Kingdom => "faction.kingdom",
            Faction::Scavengers => "faction.scavengers",
        },
    )
}

// ----- card texts ----------------------------------------------------------------------------

/// One effect as text: `Add 2 Trade`.
pub fn effect(e: &Effect, lang: Lang) -> String {
    match e {
        Effect::Trade(n) => tf(lang, "eff.trade", &[("n", n)]),
        Effect::Combat(n) => tf(lang, "eff.combat", &[("n", n)]),
        Effect::Authority(n) => tf(lang, "eff.authority", &[("n", n)]),
        Effect::Draw(1) => t(lang, "eff.draw_one").to_string(),
        Effect::Draw(n) => tf(lang, "eff.draw", &[("n", n)]),
        Effect::OpponentDiscards => t(lang, "eff.opponent_discards").to_string(),
        Effect::Scrap {
            from,
            count,
            optional,
            draw_per_card,
            combat_per_card,
            combat_for_cost,
        } => {
            let zone = match from {
                ScrapFrom::Hand => t(lang, "zone.hand"),
                ScrapFrom::Discard => t(lang, "zone.discard"),
                ScrapFrom::HandOrDiscard => t(lang, "zone.hand_or_discard"),
            };
            let key = match (count, draw_per_card, optional, combat_for_cost) {
                (_, _, _, true) => "eff.scrap_for_cost",
                (1, false, true, _) => "eff.scrap_one",
                (1, false, false, _) => "eff.scrap_one_must",
                (_, false, _, _) => "eff.scrap_up_to",
                (_, true, _, _) => "eff.scrap_draw",
            };
            let said = tf(lang, key, &[("n", count), ("zone", &zone)]);
            if *combat_per_card > 0 {
                let what = tf(lang, "eff.combat", &[("n", combat_per_card)]);
                format!("{said}. {}", tf(lang, "eff.if_you_do", &[("what", &what)]))
            } else {
                said
            }
        }
        Effect::ScrapTradeRow {
            combat_for_cost: true,
            ..
        } => t(lang, "eff.scrap_row_for_cost").to_string(),
        Effect::ScrapTradeRow {
            count: 1,
            optional: false,
            ..
        } => t(lang, "eff.scrap_row_must").to_string(),
        Effect::ScrapTradeRow { count: 1, .. } => t(lang, "eff.scrap_row").to_string(),
        Effect::ScrapTradeRow { count, .. } => tf(lang, "eff.scrap_row_up_to", &[("n", count)]),
        Effect::DestroyBase { .. } => t(lang, "eff.destroy_base").to_string(),
        Effect::Choose(options) if options.len() == 2 && options[0].is_empty() => {
            tf(lang, "eff.may", &[("what", &effects(&options[1], lang))])
        }
        Effect::Choose(options) => options
            .iter()
            .map(|o| effects(o, lang))
            .collect::<Vec<_>>()
            .join(t(lang, "eff.or")),
        Effect::NextShipOnTop => t(lang, "eff.next_ship_top").to_string(),
        Effect::AcquireShipFreeOnTop => t(lang, "eff.acquire_free").to_string(),
        Effect::CopyShip => t(lang, "eff.copy_ship").to_string(),
        Effect::DrawPerPlayed(f) => tf(
            lang,
            "eff.draw_per_played",
            &[("faction", &faction(*f, lang))],
        ),
        Effect::DrawIfBases { bases, draw } => {
            tf(lang, "eff.draw_if_bases", &[("bases", bases), ("n", draw)])
        }
        Effect::DiscardThenDraw(n) => tf(lang, "eff.discard_then_draw", &[("n", n)]),
        Effect::Discard(1) => t(lang, "eff.discard_one").to_string(),
        Effect::Discard(n) => tf(lang, "eff.discard", &[("n", n)]),
        Effect::AcquireFree { cost, to } => {
            let key = match to {
                Dest::Discard => "eff.acquire_up_to",
                Dest::Hand => "eff.acquire_up_to_hand",
                Dest::Top => "eff.acquire_up_to_top",
            };
            tf(lang, key, &[("cost", cost)])
        }
        Effect::NextAcquire(to) => t(
            lang,
            match to {
                Dest::Hand => "eff.next_acquire_hand",
                Dest::Top => "eff.next_acquire_top",
                Dest::Discard => "eff.next_acquire_discard",
            },
        )
        .to_string(),
        Effect::CopyBase => t(lang, "eff.copy_base").to_string(),
        Effect::If { when, then } => {
            let what = effects(then, lang);
            match when {
                Condition::Bases(n) => tf(lang, "eff.if_bases", &[("bases", n), ("what", &what)]),
                Condition::OpponentBase => tf(lang, "eff.if_opponent_base", &[("what", &what)]),
            }
        }
        Effect::ToHandIfPlayed(f) => tf(
            lang,
            "eff.to_hand_if_played",
            &[("faction", &faction(*f, lang))],
        ),
        Effect::CombatPerScrapped(n) => tf(lang, "eff.combat_per_scrapped", &[("n", n)]),
        Effect::DiscardFor { count, reward } => {
            let what = reward
                .iter()
                .map(|o| effects(o, lang))
                .collect::<Vec<_>>()
                .join(t(lang, "eff.or"));
            if *count == starrealms::cards::ANY_NUMBER {
                tf(lang, "eff.discard_any_for", &[("what", &what)])
            } else {
                tf(lang, "eff.discard_for", &[("n", count), ("what", &what)])
            }
        }
        Effect::BaseFromDiscardOnTop => t(lang, "eff.base_to_top").to_string(),
        Effect::NextBaseOnTop => t(lang, "eff.next_base_top").to_string(),
        Effect::ReturnFromScrapHeap => t(lang, "eff.return_from_scrap").to_string(),
        Effect::CombatPerOwnScrapped(n) => tf(lang, "eff.combat_per_own_scrapped", &[("n", n)]),
        Effect::PlayerDiscards => t(lang, "eff.player_discards").to_string(),
    }
}

/// A list of effects as text: `Add 2 Trade. Draw a card.`
pub fn effects(list: &[Effect], lang: Lang) -> String {
    list.iter()
        .map(|e| effect(e, lang))
        .collect::<Vec<_>>()
        .join(". ")
}

/// A card's abilities as text, from its effects (so every language gets it). An upgraded card
/// reads as its printed card (without its on-acquire action, lost) and its sticker.
pub fn text(c: CardId, lang: Lang) -> String {
    let set = cards();
    let def = set.def(c);
    let Some(u) = def.upgrade else {
        return printed_text(c, lang, true);
    };
    let sheet = &set.sheets[u.sheet as usize];
    let column = starrealms::cards::Column::of(def.kind());
    let mut parts = vec![printed_text(u.of, lang, false)];
    if let Some(st) = sheet.row[u.row as usize].sticker(column) {
        let name = sheet.name.get(lang.code());
        let mut said = Vec::new();
        if !st.primary.is_empty() {
            said.push(effects(&st.primary, lang));
        }
        if !st.ally.is_empty() {
            let f = def.spec.faction.map_or("?", |f| faction(f, lang));
            said.push(format!(
                "{} {}",
                tf(lang, "ability.ally", &[("faction", &f)]),
                effects(&st.ally, lang)
            ));
        }
        if !st.scrap.is_empty() {
            said.push(format!(
                "{} {}",
                t(lang, "ability.scrap"),
                effects(&st.scrap, lang)
            ));
        }
        parts.push(format!(
            "{} {}.",
            tf(
                lang,
                "ability.upgrade",
                &[("sheet", &name), ("row", &(u.row + 1))]
            ),
            said.join(". ")
        ));
    }
    parts.join(" ")
}

/// A sticker's text, from its effects: what it adds to the primary, the ally ability (of the
/// card's own faction) and the scrap ability.
pub fn sticker(st: &starrealms::cards::Sticker, lang: Lang) -> String {
    let mut said = Vec::new();
    if !st.primary.is_empty() {
        said.push(format!("{}.", effects(&st.primary, lang)));
    }
    if !st.ally.is_empty() {
        said.push(format!(
            "{} {}.",
            t(lang, "ability.ally_own"),
            effects(&st.ally, lang)
        ));
    }
    if !st.scrap.is_empty() {
        said.push(format!(
            "{} {}.",
            t(lang, "ability.scrap"),
            effects(&st.scrap, lang)
        ));
    }
    said.join(" ")
}

fn printed_text(c: CardId, lang: Lang, on_acquire: bool) -> String {
    let def = cards().def(c);
    let spec = &def.spec;
    let mut parts = Vec::new();
    for s in &spec.statics {
        parts.push(match s {
            Static::AllyForAllFactions => t(lang, "static.ally_all").to_string(),
            Static::CombatPerShipPlayed(n) => tf(lang, "static.combat_per_ship", &[("n", n)]),
            Static::CombatPerFactionShip { faction: f, combat } => tf(
                lang,
                "static.combat_per_faction_ship",
                &[("faction", &faction(*f, lang)), ("n", combat)],
            ),
        });
    }
    if !spec.primary.is_empty() {
        parts.push(format!(
            "{} {}.",
            t(lang, "ability.primary"),
            effects(&spec.primary, lang)
        ));
    }
    if !spec.ally.is_empty() {
        let f = spec.faction.map_or("?", |f| faction(f, lang));
        parts.push(format!(
            "{} {}.",
            tf(lang, "ability.ally", &[("faction", &f)]),
            effects(&spec.ally, lang)
        ));
    }
    if !spec.double_ally.is_empty() {
        let f = spec.faction.map_or("?", |f| faction(f, lang));
        parts.push(format!(
            "{} {}.",
            tf(lang, "ability.double_ally", &[("faction", &f)]),
            effects(&spec.double_ally, lang)
        ));
    }
    if !spec.scrap.is_empty() {
        parts.push(format!(
            "{} {}.",
            t(lang, "ability.scrap"),
            effects(&spec.scrap, lang)
        ));
    }
    if !spec.on_acquire.is_empty() && on_acquire {
        parts.push(format!(
            "{} {}.",
            t(lang, "ability.on_acquire"),
            effects(&spec.on_acquire, lang)
        ));
    }
    parts.join(" ")
}

/// A card's kind, faction, cost and defense: `Trade Federation ship, cost 2`.
pub fn kind(c: CardId, lang: Lang) -> String {
    let def = cards().def(c);
    let kind = match def.kind() {
        Kind::Ship => t(lang, "ship").to_string(),
        Kind::Base => format!("{} {}", t(lang, "base"), def.defense()),
        Kind::Outpost => format!("{} {}", t(lang, "outpost"), def.defense()),
    };
    let factions = def.member_factions();
    let faction = if factions.is_empty() {
        t(lang, "unaligned").to_string()
    } else {
        factions
            .iter()
            .map(|&f| faction(f, lang))
            .collect::<Vec<_>>()
            .join(" / ")
    };
    tf(
        lang,
        "card_kind",
        &[
            ("faction", &faction),
            ("kind", &kind),
            ("cost", &def.cost()),
        ],
    )
}
