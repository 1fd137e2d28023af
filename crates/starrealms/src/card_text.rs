//! Whether a card's printed text (the `text` of a card file) says what its effects do: the same
//! amounts of trade, combat and authority in each ability, the same draws, the same optional
//! words and targets. The embedded cards agree by test; a designer's file is checked when it
//! loads, and each card whose text disagrees is named (players are shown the text made from
//! the effects).

use crate::cards::{CardSpec, Effect, Sheet};

/// A card (or sticker) whose printed text disagrees with its effects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextIssue {
    /// The card's id (or `sheet row n` for a sticker).
    pub card: String,
    /// The ability: `Primary`, `Ally`, `Scrap`, `Static`, `OnAcquire` or `sticker`.
    pub ability: &'static str,
    /// What disagrees, in the card file's own words (amounts as `5 Trade`).
    pub detail: String,
}

/// Splits a printed text into its abilities.
fn sections(text: &str) -> Vec<(&'static str, String)> {
    let mut out: Vec<(&'static str, String)> = Vec::new();
    let mut rest = text;
    loop {
        let next = [
            ("Primary:", "Primary"),
            ("Double ally (", "DoubleAlly"),
            ("Ally (", "Ally"),
            ("Scrap:", "Scrap"),
            ("Static:", "Static"),
            ("On acquire:", "OnAcquire"),
        ]
        .iter()
        .filter_map(|(m, k)| rest.find(m).map(|i| (i, *m, *k)))
        .min();
        let Some((i, marker, kind)) = next else {
            if let Some(last) = out.last_mut() {
                last.1.push_str(rest);
            }
            return out;
        };
        if let Some(last) = out.last_mut() {
            last.1.push_str(&rest[..i]);
        }
        let after = &rest[i + marker.len()..];
        let after = if kind == "Ally" || kind == "DoubleAlly" {
            after.find("):").map_or(after, |j| &after[j + 2..])
        } else {
            after
        };
        out.push((kind, String::new()));
        rest = after;
    }
}

/// Amounts written as "<n> Trade|Combat|Authority", sorted.
fn amounts_in_text(text: &str) -> Vec<(u8, String)> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut v = Vec::new();
    for w in words.windows(2) {
        if let Ok(n) = w[0].parse::<u8>() {
            let r = w[1].trim_matches(|c: char| !c.is_alphabetic());
            if matches!(r, "Trade" | "Combat" | "Authority") {
                v.push((n, r.to_string()));
            }
        }
    }
    v.sort();
    v
}

fn amounts_in_effects(effects: &[Effect], out: &mut Vec<(u8, String)>) {
    for e in effects {
        match e {
            Effect::Trade(n) => out.push((*n, "Trade".into())),
            Effect::Combat(n) => out.push((*n, "Combat".into())),
            Effect::Authority(n) => out.push((*n, "Authority".into())),
            Effect::Choose(options)
            | Effect::DiscardFor {
                reward: options, ..
            } => options.iter().for_each(|o| amounts_in_effects(o, out)),
            Effect::If { then, .. } => amounts_in_effects(then, out),
            Effect::CombatPerScrapped(n) | Effect::CombatPerOwnScrapped(n) => {
                out.push((*n, "Combat".into()))
            }
            Effect::Scrap {
                combat_per_card, ..
            } if *combat_per_card > 0 => out.push((*combat_per_card, "Combat".into())),
            _ => {}
        }
    }
}

fn flatten(effects: &[Effect]) -> Vec<&Effect> {
    let mut v = Vec::new();
    for e in effects {
        match e {
            Effect::Choose(options) => options.iter().for_each(|o| v.extend(flatten(o))),
            Effect::If { then, .. } => v.extend(flatten(then)),
            e => v.push(e),
        }
    }
    v
}

fn amounts_words(v: &[(u8, String)]) -> String {
    if v.is_empty() {
        return "none".into();
    }
    v.iter()
        .map(|(n, w)| format!("{n} {w}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What the text of one ability fails to say of its effects (empty: they agree).
pub fn ability_disagreements(text: &str, effects: &[Effect]) -> Vec<String> {
    let mut out = Vec::new();
    let mut want = Vec::new();
    amounts_in_effects(effects, &mut want);
    want.sort();
    let said = amounts_in_text(text);
    if said != want {
        out.push(format!(
            "the text says {}, the effects give {}",
            amounts_words(&said),
            amounts_words(&want)
        ));
    }
    let lower = text.to_lowercase();
    for e in flatten(effects) {
        let (ok, words) = match e {
            Effect::Draw(1) => (lower.contains("draw a card"), "draw a card"),
            Effect::Draw(2) => (lower.contains("draw two cards"), "draw two cards"),
            Effect::DrawIfBases { .. } => (lower.contains("bases"), "a condition on bases"),
            Effect::OpponentDiscards => (
                lower.contains("opponent discards a card"),
                "target opponent discards a card",
            ),
            Effect::DestroyBase { optional } => (
                lower.contains("destroy target base") && *optional == lower.contains("may destroy"),
                "destroy target base",
            ),
            Effect::ScrapTradeRow {
                optional,
                count,
                combat_for_cost,
            } => (
                (if *count == 1 {
                    lower.contains("scrap a card in the trade row")
                } else {
                    lower.contains("cards in the trade row") && lower.contains("up to")
                }) && *optional == lower.contains("may")
                    && *combat_for_cost == lower.contains("equal to its cost"),
                "scrap a card in the trade row",
            ),
            Effect::BaseFromDiscardOnTop => (
                lower.contains("base from your discard pile on top of your deck"),
                "put a base from your discard pile on top of your deck",
            ),
            Effect::NextBaseOnTop => (
                lower.contains("next base you acquire this turn")
                    && lower.contains("on top of your deck"),
                "the next base acquired goes on top of the deck",
            ),
            Effect::ReturnFromScrapHeap => (
                lower.contains("from the scrap heap to your discard pile"),
                "the card comes back from the scrap heap",
            ),
            Effect::CombatPerOwnScrapped(_) => (
                lower.contains("for each of your cards scrapped this turn"),
                "combat for each of your cards scrapped this turn",
            ),
            Effect::PlayerDiscards => (
                lower.contains("target player discards a card"),
                "target player discards a card",
            ),
            Effect::AcquireFree { to, .. } => (
                lower.contains("for free")
                    && match to {
                        crate::cards::Dest::Hand => lower.contains("into your hand"),
                        crate::cards::Dest::Top => lower.contains("on top of your deck"),
                        crate::cards::Dest::Discard => !lower.contains("put it"),
                    },
                "acquire a card for free",
            ),
            Effect::NextAcquire(to) => (
                lower.contains("next ship or base you acquire")
                    && match to {
                        crate::cards::Dest::Hand => lower.contains("into your hand"),
                        crate::cards::Dest::Top => lower.contains("on top of your deck"),
                        crate::cards::Dest::Discard => lower.contains("discard pile"),
                    },
                "where the next ship or base acquired goes",
            ),
            Effect::CopyBase => (lower.contains("copy of any base"), "copy a base"),
            Effect::ToHandIfPlayed(_) => (
                lower.contains("you may put this card into your hand"),
                "you may put this card into your hand",
            ),
            Effect::CombatPerScrapped(_) => (
                lower.contains("for each card scrapped"),
                "combat for each card scrapped",
            ),
            Effect::DiscardFor { count, .. } => (
                (if *count == crate::cards::ANY_NUMBER {
                    lower.contains("discard any number of cards")
                } else {
                    lower.contains("discard up to")
                }) && lower.contains("for each card discarded"),
                "discard for a reward",
            ),
            Effect::Scrap {
                count,
                optional,
                draw_per_card,
                combat_per_card,
                combat_for_cost,
                ..
            } => (
                (*count == 1 || lower.contains("up to two"))
                    && (*optional == (lower.contains("you may scrap") || lower.contains("up to")))
                    && (*draw_per_card == lower.contains("for each card scrapped"))
                    && (*combat_for_cost == lower.contains("equal to its cost"))
                    && (*combat_per_card == 0 || lower.contains("if you do")),
                "the scrap it allows",
            ),
            Effect::NextShipOnTop => (
                lower.contains("next ship you acquire this turn on top"),
                "the next ship acquired goes on top of the deck",
            ),
            Effect::AcquireShipFreeOnTop => (
                lower.contains("acquire any ship for free"),
                "acquire any ship for free",
            ),
            Effect::CopyShip => (lower.contains("copy another ship"), "copy another ship"),
            Effect::DrawPerPlayed(_) => (lower.contains("for each"), "a draw for each card played"),
            Effect::DiscardThenDraw(n) => (
                lower.contains("discard up to")
                    || *n == 1 && lower.contains("discard a card. if you do, draw a card"),
                "discard, then draw",
            ),
            Effect::Discard(1) => (lower.contains("discard a card"), "discard a card"),
            // Amounts are compared above; other effects have no set words to look for.
            _ => (true, ""),
        };
        if !ok {
            out.push(format!("the text does not say: {words}"));
        }
    }
    let or_in_text = lower
        .replace("hand or discard", "")
        .replace("or more", "")
        .replace("or less", "")
        .replace("ship or base", "")
        .contains(" or ");
    // A choice between nothing and something is written "you may".
    let may = |e: &Effect| matches!(e, Effect::Choose(o) if o.len() == 2 && o[0].is_empty());
    let choose = effects.iter().any(|e| match e {
        Effect::Choose(_) => !may(e),
        Effect::DiscardFor { reward, .. } => reward.len() > 1,
        _ => false,
    });
    if or_in_text != choose {
        out.push(if choose {
            "the effects offer a choice the text does not (\"or\")".into()
        } else {
            "the text offers a choice (\"or\") the effects do not".into()
        });
    }
    if effects.iter().any(may) && !lower.contains("you may") {
        out.push("the effects are optional; the text does not say \"you may\"".into());
    }
    out
}

/// Every disagreement between a card's printed text and its effects.
pub fn card_disagreements(spec: &CardSpec) -> Vec<TextIssue> {
    let mut out = Vec::new();
    let secs = sections(&spec.text);
    let find = |k: &str| {
        secs.iter()
            .find(|(kind, _)| *kind == k)
            .map(|(_, t)| t.as_str())
    };
    for (ability, effects) in [
        ("Primary", &spec.primary),
        ("Ally", &spec.ally),
        ("DoubleAlly", &spec.double_ally),
        ("Scrap", &spec.scrap),
        ("OnAcquire", &spec.on_acquire),
    ] {
        let details = match find(ability) {
            Some(text) => ability_disagreements(text, effects),
            None if !effects.is_empty() => vec!["the text has no such ability".into()],
            None => Vec::new(),
        };
        out.extend(details.into_iter().map(|detail| TextIssue {
            card: spec.id.clone(),
            ability,
            detail,
        }));
    }
    if find("Static").is_some() == spec.statics.is_empty() {
        out.push(TextIssue {
            card: spec.id.clone(),
            ability: "Static",
            detail: if spec.statics.is_empty() {
                "the text has a static ability the card does not".into()
            } else {
                "the text has no such ability".into()
            },
        });
    }
    out
}

/// Every disagreement between a sheet's sticker texts and their effects.
pub fn sheet_disagreements(sheet: &Sheet) -> Vec<TextIssue> {
    let mut out = Vec::new();
    for (r, row) in sheet.row.iter().enumerate() {
        for sticker in [&row.ship, &row.base].into_iter().flatten() {
            let all: Vec<Effect> = sticker
                .primary
                .iter()
                .chain(&sticker.ally)
                .chain(&sticker.scrap)
                .cloned()
                .collect();
            out.extend(
                ability_disagreements(&sticker.text, &all)
                    .into_iter()
                    .map(|detail| TextIssue {
                        card: format!("{} row {}", sheet.id, r + 1),
                        ability: "sticker",
                        detail,
                    }),
            );
        }
    }
    out
}

impl crate::CardSet {
    /// Every card and sticker of the set whose printed text disagrees with its effects.
    pub fn text_disagreements(&self) -> Vec<TextIssue> {
        let mut out = Vec::new();
        for (_, def) in self.iter() {
            if def.upgrade.is_none() {
                out.extend(card_disagreements(&def.spec));
            }
        }
        for sheet in &self.sheets {
            out.extend(sheet_disagreements(sheet));
        }
        out
    }

    /// Whether card `c`'s printed text says what its effects do.
    pub fn text_agrees(&self, c: crate::CardId) -> bool {
        let def = self.def(c);
        def.upgrade.is_some() || card_disagreements(&def.spec).is_empty()
    }
}
