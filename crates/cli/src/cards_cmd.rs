//! `realms cards`: the cards of the active set with their texts.

use std::process::ExitCode;

use clap::{Args, Subcommand};
use i18n::{Lang, t, tf};
use serde::Serialize;
use starrealms::cards;
use starrealms::cards::{Effect, Static};

use crate::text;

/// Options of `realms cards`; their help is the translation table's `cli.cards.arg.<option>`.
#[derive(Args, Debug)]
pub struct CardsArgs {
    #[arg(long)]
    json: bool,
    #[command(subcommand)]
    command: Option<CardsCommand>,
}

/// What `realms cards` can do besides listing the cards.
#[derive(Subcommand, Debug)]
enum CardsCommand {
    Stats(crate::card_stats::StatsArgs),
}

#[derive(Serialize)]
struct ListJson<'a> {
    /// The card sets listed.
    sets: Vec<String>,
    cards: Vec<CardJson<'a>>,
    sheets: Vec<SheetJson<'a>>,
}

#[derive(Serialize)]
struct SheetJson<'a> {
    id: &'a str,
    name: &'a str,
    side: starrealms::cards::Faction,
    #[serde(skip_serializing_if = "Option::is_none")]
    scenario: Option<u8>,
    rows: &'a [starrealms::cards::SheetRow],
    /// Upgraded cards this sheet can make, by row (1 to 5).
    upgrades: Vec<(u8, &'a str)>,
}

#[derive(Serialize)]
struct CardJson<'a> {
    id: &'a str,
    name: &'a str,
    set: &'a str,
    faction: Option<starrealms::cards::Faction>,
    /// Every faction it belongs to (two for an upgraded card).
    factions: Vec<starrealms::cards::Faction>,
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
    #[serde(skip_serializing_if = "<[Effect]>::is_empty")]
    on_acquire: &'a [Effect],
}

/// Lists the cards.
pub fn run(args: CardsArgs, lang: Lang) -> anyhow::Result<ExitCode> {
    if let Some(CardsCommand::Stats(stats)) = args.command {
        return crate::card_stats::run(stats, lang);
    }
    let mut out = String::new();
    let set = cards();
    let sets = crate::TableOptions::apply(starrealms::Config::default(), lang)?.sets;
    // The chosen sets' printed cards (the starting cards and the Explorer always).
    let listed = |def: &starrealms::CardDef| {
        def.upgrade.is_none()
            && (sets.has(def.set)
                || matches!(
                    def.spec.role,
                    starrealms::cards::Role::Starting | starrealms::cards::Role::Explorer
                ))
    };
    let sheets: Vec<(u16, &starrealms::cards::Sheet)> = set
        .sheets
        .iter()
        .enumerate()
        .map(|(i, s)| (i as u16, s))
        .filter(|(i, _)| {
            set.iter()
                .any(|(_, d)| d.upgrade.is_some_and(|u| u.sheet == *i) && sets.has(d.set))
        })
        .collect();
    if args.json {
        let list: Vec<CardJson> = set
            .iter()
            .filter(|(_, def)| listed(def))
            .map(|(id, def)| CardJson {
                id: def.id(),
                name: def.name(lang.code()),
                set: &set.sets[def.set as usize].name,
                faction: def.spec.faction,
                factions: def.member_factions(),
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
                on_acquire: &def.spec.on_acquire,
            })
            .collect();
        let sheets = sheets
            .iter()
            .map(|&(i, sheet)| SheetJson {
                id: &sheet.id,
                name: sheet.name.get(lang.code()),
                side: sheet.side,
                scenario: sheet.scenario,
                rows: &sheet.row,
                upgrades: set
                    .iter()
                    .filter_map(|(_, d)| {
                        d.upgrade
                            .filter(|u| u.sheet == i)
                            .map(|u| (u.row + 1, d.id()))
                    })
                    .collect(),
            })
            .collect();
        let all = ListJson {
            sets: sets.names(),
            cards: list,
            sheets,
        };
        outln!(out, "{}", serde_json::to_string_pretty(&all)?);
        return crate::emit(&out);
    }
    let count = set.iter().filter(|(_, d)| listed(d)).count();
    outln!(out, "{}", tf(lang, "cards.header", &[("n", &count)]));
    for (id, def) in set.iter().filter(|(_, d)| listed(d)) {
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
    for (_, sheet) in &sheets {
        outln!(out);
        let name = sheet.name.get(lang.code());
        outln!(
            out,
            "{}",
            tf(
                lang,
                "cards.sheet",
                &[
                    ("name", &name),
                    ("id", &sheet.id),
                    ("side", &i18n::cards::faction(sheet.side, lang))
                ]
            )
        );
        for (r, row) in sheet.row.iter().enumerate() {
            for (column, sticker) in [("ship", &row.ship), ("base", &row.base)] {
                if let Some(st) = sticker {
                    outln!(
                        out,
                        "    r{} ({} {}, {}): {}",
                        r + 1,
                        t(lang, "cost"),
                        row.cost,
                        t(lang, column),
                        st.text
                    );
                }
            }
        }
    }
    outln!(out);
    outln!(out, "{}", t(lang, "cards.footer"));
    crate::emit(&out)
}

/// The text shown for a card: the printed English text in English (when it says what the
/// effects do), else the text made from its effects.
fn text_of(id: starrealms::CardId, lang: Lang) -> String {
    match lang {
        Lang::En if cards().text_agrees(id) => cards().def(id).spec.text.clone(),
        _ => text::card_text(id, lang),
    }
}
