//! Each card's printed text, kept beside its effects in the card file, says the same as the
//! effects: the same amounts of trade, combat and authority in each ability, the same draws,
//! the same optional words and targets.

use starrealms::cards::{CardSet, Effect};

/// Splits a printed text into its abilities: ("Primary", text), ("Ally", text), ("Scrap", text).
fn sections(text: &str) -> Vec<(&'static str, String)> {
    let mut out: Vec<(&'static str, String)> = Vec::new();
    let mut rest = text;
    loop {
        let next = [
            ("Primary:", "Primary"),
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
        let after = if kind == "Ally" {
            &after[after.find("):").expect("Ally (Faction):") + 2..]
        } else {
            after
        };
        out.push((kind, String::new()));
        rest = after;
    }
}

/// Amounts written as "<n> Trade|Combat|Authority".
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
            Effect::Choose(options) => options.iter().for_each(|o| amounts_in_effects(o, out)),
            _ => {}
        }
    }
}

fn flatten(effects: &[Effect]) -> Vec<&Effect> {
    let mut v = Vec::new();
    for e in effects {
        match e {
            Effect::Choose(options) => options.iter().for_each(|o| v.extend(flatten(o))),
            e => v.push(e),
        }
    }
    v
}

fn check(card: &str, kind: &str, text: &str, effects: &[Effect]) {
    let mut want = Vec::new();
    amounts_in_effects(effects, &mut want);
    want.sort();
    assert_eq!(amounts_in_text(text), want, "{card} {kind}: `{text}`");
    let lower = text.to_lowercase();
    for e in flatten(effects) {
        let ok = match e {
            Effect::Draw(1) => lower.contains("draw a card"),
            Effect::Draw(2) => lower.contains("draw two cards"),
            Effect::DrawIfBases { bases: 2, draw: 2 } => {
                lower.contains("two or more bases") && lower.contains("draw two cards")
            }
            Effect::OpponentDiscards => lower.contains("target opponent discards a card"),
            Effect::DestroyBase { optional } => {
                lower.contains("destroy target base") && *optional == lower.contains("may destroy")
            }
            Effect::ScrapTradeRow { optional } => {
                lower.contains("scrap a card in the trade row")
                    && *optional == lower.contains("may")
            }
            Effect::Scrap {
                count,
                optional,
                draw_per_card,
                ..
            } => {
                (*count == 1 || lower.contains("up to two"))
                    && (*optional == (lower.contains("you may scrap") || lower.contains("up to")))
                    && (*draw_per_card == lower.contains("for each card scrapped"))
            }
            Effect::NextShipOnTop => lower.contains("next ship you acquire this turn on top"),
            Effect::AcquireShipFreeOnTop => lower.contains("acquire any ship for free"),
            Effect::CopyShip => lower.contains("copy another ship"),
            Effect::DrawPerPlayed(_) => lower.contains("for each blob card"),
            Effect::DiscardThenDraw(2) => lower.contains("discard up to two cards"),
            Effect::Discard(1) => lower.contains("discard a card"),
            Effect::Trade(_) | Effect::Combat(_) | Effect::Authority(_) => true,
            other => panic!("{card}: no text check for {other:?}"),
        };
        assert!(ok, "{card} {kind}: `{text}` does not say {e:?}");
    }
    let or_in_text = lower
        .replace("hand or discard", "")
        .replace("or more", "")
        .contains(" or ");
    // A choice between nothing and something is written "you may".
    let may = |e: &Effect| matches!(e, Effect::Choose(o) if o.len() == 2 && o[0].is_empty());
    let choose = effects
        .iter()
        .any(|e| matches!(e, Effect::Choose(_)) && !may(e));
    assert_eq!(or_in_text, choose, "{card} {kind}: `{text}`");
    if effects.iter().any(may) {
        assert!(lower.contains("you may"), "{card} {kind}: `{text}`");
    }
}

#[test]
fn printed_texts_match_effects() {
    for (_, def) in CardSet::builtin().iter() {
        if def.upgrade.is_some() {
            // An upgraded card's text is its printed text and its sticker's (checked below).
            continue;
        }
        let spec = &def.spec;
        let secs = sections(&spec.text);
        let find = |k: &str| {
            secs.iter()
                .find(|(kind, _)| *kind == k)
                .map(|(_, t)| t.as_str())
        };
        for (kind, effects) in [
            ("Primary", &spec.primary),
            ("Ally", &spec.ally),
            ("Scrap", &spec.scrap),
            ("OnAcquire", &spec.on_acquire),
        ] {
            match find(kind) {
                Some(text) => check(&spec.id, kind, text, effects),
                None => assert!(effects.is_empty(), "{}: no `{kind}` in its text", spec.id),
            }
        }
        assert_eq!(
            find("Static").is_some(),
            !spec.statics.is_empty(),
            "{}",
            spec.id
        );
    }
}

#[test]
fn a_wrong_amount_would_be_caught() {
    let result = std::panic::catch_unwind(|| {
        check(
            "cutter",
            "Primary",
            "Add 4 Authority. Add 2 Trade.",
            &[Effect::Authority(4), Effect::Trade(3)],
        )
    });
    assert!(result.is_err());
}

#[test]
fn sticker_texts_match_effects() {
    let set = CardSet::builtin();
    assert!(!set.sheets.is_empty(), "the embedded pack has sheets");
    for sheet in &set.sheets {
        for (r, row) in sheet.row.iter().enumerate() {
            for sticker in [&row.ship, &row.base].into_iter().flatten() {
                let all: Vec<Effect> = sticker
                    .primary
                    .iter()
                    .chain(&sticker.ally)
                    .chain(&sticker.scrap)
                    .cloned()
                    .collect();
                let name = format!("{} row {}", sheet.id, r + 1);
                check(&name, "sticker", &sticker.text, &all);
            }
        }
    }
}
