//! `realms cards`: the cards of the active set with their texts.

use std::process::ExitCode;

use clap::Args;
use i18n::{Lang, t, tf};
use serde::Serialize;
use starrealms::cards;
use starrealms::cards::{Effect, Static};

use crate::text;

/// Options of `realms cards`.
#[derive(Args, Debug)]
pub struct CardsArgs {
    /// Print JSON: every card with its names, numbers, text and effects.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct CardJson<'a> {
    id: &'a str,
    name: &'a str,
    faction: Option<starrealms::cards::Faction>,
    kind: starrealms::cards::Kind,
    cost: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    defense: Option<u8>,
    count: u8,
    role: starrealms::cards::Role,
    text: String,
    primary: &'a [Effect],
    ally: &'a [Effect],
    scrap: &'a [Effect],
    statics: &'a [Static],
}

/// Lists the cards.
pub fn run(args: CardsArgs, lang: Lang) -> anyhow::Result<ExitCode> {
    let mut out = String::new();
    let set = cards();
    if args.json {
        let list: Vec<CardJson> = set
            .iter()
            .map(|(id, def)| CardJson {
                id: def.id(),
                name: def.name(lang.code()),
                faction: def.spec.faction,
                kind: def.kind(),
                cost: def.cost(),
                defense: def.spec.defense,
                count: def.spec.count,
                role: def.spec.role,
                text: text_of(id, lang),
                primary: &def.spec.primary,
                ally: &def.spec.ally,
                scrap: &def.spec.scrap,
                statics: &def.spec.statics,
            })
            .collect();
        outln!(out, "{}", serde_json::to_string_pretty(&list)?);
        return crate::emit(&out);
    }
    outln!(out, "{}", tf(lang, "cards.header", &[("n", &set.len())]));
    for (id, def) in set.iter() {
        outln!(out);
        outln!(
            out,
            "{} — {} ×{}",
            text::card(id, lang),
            text::card_kind(id, lang),
            def.spec.count
        );
        outln!(out, "    {}", text_of(id, lang));
    }
    outln!(out);
    outln!(out, "{}", t(lang, "cards.footer"));
    crate::emit(&out)
}

/// The text shown for a card: the printed English text in English, else the text made from its
/// effects.
fn text_of(id: starrealms::CardId, lang: Lang) -> String {
    match lang {
        Lang::En => cards().def(id).spec.text.clone(),
        _ => text::card_text(id, lang),
    }
}
