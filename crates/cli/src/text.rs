//! Everything the CLI shows about a game, in the player's language: card names and texts,
//! actions, decisions, boards. All words come from the translation table (`i18n`).

use game::Seat;
use i18n::{Lang, t, tf};
use starrealms::state::{Ability, Pending};
use starrealms::{Action, CardId, InPlay, Observation, cards};

use i18n::cards::effects;
pub use i18n::cards::{kind as card_kind, text as card_text};
use starrealms::cards::{Effect, Kind, ScrapFrom};

/// A card's name (in its faction's colour in the terminal game).
pub fn card(c: CardId, lang: Lang) -> String {
    crate::term::card(c, lang)
}

/// A card's name with its cost: `Cutter (2)`.
pub fn card_cost(c: CardId, lang: Lang) -> String {
    format!("{} ({})", card(c, lang), cards().def(c).cost())
}

/// How seats are called: `p1 (you)`, `p2 (heuristic)`.
#[derive(Clone, Debug, Default)]
pub struct Names(pub Vec<String>);

impl Names {
    /// Plain seat names (`p1`, `p2`…).
    pub fn plain(seats: usize) -> Names {
        Names((0..seats).map(|i| Seat(i as u8).to_string()).collect())
    }

    /// Seat names with roles (`p2 (Emperor)`) and, when known, who sits there.
    pub fn of_table(config: &starrealms::Config, who: &[String], lang: Lang) -> Names {
        Names(
            (0..config.seats as usize)
                .map(|i| {
                    let w = who.get(i).map_or("", String::as_str);
                    seat_label(config, Seat(i as u8), w, lang)
                })
                .collect(),
        )
    }

    /// The name of `seat`.
    pub fn of(&self, seat: Seat) -> &str {
        self.0.get(seat.index()).map_or("?", String::as_str)
    }
}

/// A bot's name as players know it: the level in their language (`moyen` for `medium`,
/// `heuristique` for `heuristic`), else the bot's own name (`ismcts:400`).
pub fn level_word(bot: &str, lang: Lang) -> String {
    match bot {
        "random" => t(lang, "web.level.random").to_string(),
        "easy" => t(lang, "web.level.easy").to_string(),
        "medium" => t(lang, "web.level.medium").to_string(),
        "hard" => t(lang, "web.level.hard").to_string(),
        "expert" => t(lang, "web.level.expert").to_string(),
        "heuristic" => t(lang, "level.heuristic").to_string(),
        "tuned" => t(lang, "level.tuned").to_string(),
        "learned" => t(lang, "level.learned").to_string(),
        other => other.to_string(),
    }
}

/// How a seat is shown: `p2 (heuristic)`, `p1 (you)`, `p5 (heuristic, Emperor)`.
pub fn seat_label(config: &starrealms::Config, seat: Seat, who: &str, lang: Lang) -> String {
    use starrealms::Format;
    let role = match config.format {
        Format::Emperor if config.is_emperor(seat.index()) => Some("role.emperor"),
        Format::Emperor => Some("role.admiral"),
        Format::Raid if seat.0 == 0 => Some("role.boss"),
        Format::Raid => Some("role.soldier"),
        Format::Hydra => Some(if config.team_of(seat.index()) == 0 {
            "role.team_a"
        } else {
            "role.team_b"
        }),
        _ => None,
    };
    match (role, who.is_empty()) {
        (Some(key), false) => format!("{seat} ({who}, {})", t(lang, key)),
        (Some(key), true) => format!("{seat} ({})", t(lang, key)),
        (None, false) => format!("{seat} ({who})"),
        (None, true) => seat.to_string(),
    }
}

/// A card in play: `Trading Post [outpost 4, damaged 2]`, `Stealth Needle → Cutter`.
pub fn in_play(p: &InPlay, lang: Lang) -> String {
    let def = cards().def(p.card);
    let mut out = card(p.card, lang);
    if let Some(c) = p.copy {
        out += &format!(" → {}", card(c, lang));
    }
    if def.kind().is_base() {
        let kind = if def.kind() == Kind::Outpost {
            t(lang, "outpost")
        } else {
            t(lang, "base")
        };
        out += &format!(" [{kind} {}", def.defense());
        if p.damage > 0 {
            out += &format!(", {}", tf(lang, "damaged", &[("n", &p.damage)]));
        }
        out += "]";
    }
    out
}

fn list<T>(items: &[T], f: impl Fn(&T) -> String, lang: Lang) -> String {
    if items.is_empty() {
        t(lang, "none").to_string()
    } else {
        items.iter().map(f).collect::<Vec<_>>().join(", ")
    }
}

/// Cards of a zone, with `×n` for repeated cards: `Scout ×3, Viper`.
pub fn cards_list(ids: &[CardId], lang: Lang) -> String {
    let mut counted: Vec<(CardId, usize)> = Vec::new();
    for &c in ids {
        match counted.iter_mut().find(|(k, _)| *k == c) {
            Some((_, n)) => *n += 1,
            None => counted.push((c, 1)),
        }
    }
    list(
        &counted,
        |&(c, n)| {
            if n > 1 {
                format!("{} ×{n}", card(c, lang))
            } else {
                card(c, lang)
            }
        },
        lang,
    )
}

// ----- actions -------------------------------------------------------------------------------

fn own_ship(obs: &Observation, seat: Seat, i: u8, lang: Lang) -> String {
    obs.players[seat.index()]
        .ships
        .get(i as usize)
        .map_or_else(|| format!("#{i}"), |p| in_play(p, lang))
}

fn base_of(obs: &Observation, seat: Seat, i: u8, lang: Lang) -> String {
    obs.players
        .get(seat.index())
        .and_then(|p| p.bases.get(i as usize))
        .map_or_else(|| format!("#{i}"), |p| in_play(p, lang))
}

fn row(obs: &Observation, slot: u8, lang: Lang) -> String {
    obs.row
        .get(slot as usize)
        .copied()
        .flatten()
        .map_or_else(|| format!("#{slot}"), |c| card_cost(c, lang))
}

/// An action in words, for the seat deciding in `obs` (`names` says how seats are called).
pub fn action(a: Action, obs: &Observation, names: &Names, lang: Lang) -> String {
    let me = obs.to_move.unwrap_or(obs.current);
    match a {
        Action::Play(c) => tf(lang, "act.play", &[("card", &card(c, lang))]),
        Action::Primary(i) => tf(lang, "act.primary", &[("card", &base_of(obs, me, i, lang))]),
        Action::AllyShip(i) => tf(lang, "act.ally", &[("card", &own_ship(obs, me, i, lang))]),
        Action::AllyBase(i) => tf(lang, "act.ally", &[("card", &base_of(obs, me, i, lang))]),
        Action::DoubleAllyShip(i) => tf(
            lang,
            "act.double_ally",
            &[("card", &own_ship(obs, me, i, lang))],
        ),
        Action::DoubleAllyBase(i) => tf(
            lang,
            "act.double_ally",
            &[("card", &base_of(obs, me, i, lang))],
        ),
        Action::TopBase(c) => tf(lang, "act.top_base", &[("card", &card(c, lang))]),
        Action::ScrapShip(i) => tf(
            lang,
            "act.scrap_self",
            &[("card", &own_ship(obs, me, i, lang))],
        ),
        Action::ScrapBase(i) => tf(
            lang,
            "act.scrap_self",
            &[("card", &base_of(obs, me, i, lang))],
        ),
        Action::BuyRow(s) => tf(lang, "act.buy", &[("card", &row(obs, s, lang))]),
        Action::BuyUpgrade(slot, s, r) => upgrade("act.buy_upgrade", obs, me, slot, s, r, lang),
        Action::AcquireUpgrade(slot, s, r) => {
            upgrade("act.acquire_upgrade", obs, me, slot, s, r, lang)
        }
        Action::BuyExplorer => tf(
            lang,
            "act.buy",
            &[("card", &card_cost(cards().explorer, lang))],
        ),
        Action::AttackPlayer(s, n) => {
            tf(lang, "act.attack", &[("player", &names.of(s)), ("n", &n)])
        }
        Action::AttackBase(s, i) => tf(
            lang,
            "act.attack_base",
            &[
                ("player", &names.of(s)),
                ("card", &base_of(obs, s, i, lang)),
            ],
        ),
        Action::End => t(lang, "act.end").to_string(),
        Action::Choose(n) => tf(lang, "act.choose", &[("option", &choice(obs, n, lang))]),
        Action::ScrapHand(c) => tf(lang, "act.scrap_hand", &[("card", &card(c, lang))]),
        Action::ScrapDiscard(c) => tf(lang, "act.scrap_discard", &[("card", &card(c, lang))]),
        Action::ScrapRow(s) => tf(lang, "act.scrap_row", &[("card", &row(obs, s, lang))]),
        Action::Destroy(s, i) => tf(
            lang,
            "act.destroy",
            &[
                ("player", &names.of(s)),
                ("card", &base_of(obs, s, i, lang)),
            ],
        ),
        Action::Discard(c) => tf(lang, "act.discard", &[("card", &card(c, lang))]),
        Action::Target(s) => tf(lang, "act.target", &[("player", &names.of(s))]),
        Action::Copy(i) => tf(lang, "act.copy", &[("card", &own_ship(obs, me, i, lang))]),
        Action::AcquireRow(s) => tf(lang, "act.acquire", &[("card", &row(obs, s, lang))]),
        Action::AcquireExplorer => tf(
            lang,
            "act.acquire",
            &[("card", &card_cost(cards().explorer, lang))],
        ),
        Action::Top => match obs.pending {
            Some(Pending::TopOrDiscard { card: c }) => {
                tf(lang, "act.top", &[("card", &card(c, lang))])
            }
            _ => tf(lang, "act.top", &[("card", &"?")]),
        },
        Action::ToHand => match obs.pending {
            Some(Pending::ToHand { card: c, .. }) => {
                tf(lang, "act.to_hand", &[("card", &card(c, lang))])
            }
            _ => tf(lang, "act.to_hand", &[("card", &"?")]),
        },
        Action::CopyBase(s, i) => tf(
            lang,
            "act.copy_base",
            &[
                ("card", &base_of(obs, s, i, lang)),
                ("player", &names.of(s)),
            ],
        ),
        Action::Pass => t(lang, "act.pass").to_string(),
        Action::Give(c, s) => tf(
            lang,
            "act.give",
            &[("card", &card(c, lang)), ("player", &names.of(s))],
        ),
        Action::TransferTrade(s, n) => tf(
            lang,
            "act.transfer_trade",
            &[("n", &n), ("player", &names.of(s))],
        ),
        Action::TransferCombat(s, n) => tf(
            lang,
            "act.transfer_combat",
            &[("n", &n), ("player", &names.of(s))],
        ),
        Action::Switch(s) => tf(lang, "act.switch", &[("player", &names.of(s))]),
        Action::Bequeath(c) => match obs.pending {
            Some(Pending::Bequeath { to, .. }) => tf(
                lang,
                "act.bequeath",
                &[("card", &card(c, lang)), ("player", &names.of(to))],
            ),
            _ => card(c, lang),
        },
    }
}

/// An upgrade at acquisition, in words: the card, the extra price, the sticker.
fn upgrade(key: &str, obs: &Observation, me: Seat, slot: u8, s: u8, r: u8, lang: Lang) -> String {
    let set = cards();
    let c = obs.row.get(slot as usize).copied().flatten();
    let sheet = obs.players[me.index()]
        .sheets
        .get(s as usize)
        .map(|u| &set.sheets[u.sheet.0 as usize]);
    let (price, sticker) = match (c, sheet) {
        (Some(c), Some(sheet)) => {
            let column = starrealms::cards::Column::of(set.info(c).kind);
            let text = sheet.row[r as usize]
                .sticker(column)
                .map_or("", |st| st.text.as_str());
            let name = sheet.name.get(lang.code());
            (
                column.price(),
                tf(
                    lang,
                    "sticker",
                    &[("row", &(r + 1)), ("sheet", &name), ("text", &text)],
                ),
            )
        }
        _ => (0, format!("s{} r{}", s + 1, r + 1)),
    };
    tf(
        lang,
        key,
        &[
            ("card", &row(obs, slot, lang)),
            ("price", &price),
            ("sticker", &sticker),
        ],
    )
}

fn choice(obs: &Observation, n: u8, lang: Lang) -> String {
    let options = match &obs.pending {
        Some(Pending::Choose { source, at }) => match source.effects().get(*at as usize) {
            Some(Effect::Choose(options)) => Some(options),
            _ => None,
        },
        Some(Pending::DiscardReward { source, at, .. }) => {
            match source.effects().get(*at as usize) {
                Some(Effect::DiscardFor { reward, .. }) => Some(reward),
                _ => None,
            }
        }
        _ => None,
    };
    if let Some(option) = options.and_then(|o| o.get(n as usize)) {
        if option.is_empty() {
            return t(lang, "act.nothing").to_string();
        }
        return effects(option, lang);
    }
    format!("{}", n + 1)
}

/// What the seat to move must decide now, in words (`None`: the main phase).
pub fn decision(obs: &Observation, names: &Names, lang: Lang) -> Option<String> {
    let pending = obs.pending.as_ref()?;
    Some(match pending {
        Pending::Choose { source, .. } => {
            let ability = t(
                lang,
                match source.ability {
                    Ability::Primary => "ability.primary_name",
                    Ability::Ally => "ability.ally_name",
                    Ability::DoubleAlly => "ability.double_ally_name",
                    Ability::Scrap => "ability.scrap_name",
                    Ability::OnAcquire => "ability.on_acquire_name",
                },
            );
            tf(
                lang,
                "dec.choose",
                &[("card", &card(source.card, lang)), ("ability", &ability)],
            )
        }
        Pending::Scrap {
            from,
            left,
            optional,
            ..
        } => {
            let zone = match from {
                ScrapFrom::Hand => t(lang, "zone.hand"),
                ScrapFrom::Discard => t(lang, "zone.discard"),
                ScrapFrom::HandOrDiscard => t(lang, "zone.hand_or_discard"),
            };
            let key = if *optional {
                "dec.scrap_optional"
            } else {
                "dec.scrap"
            };
            tf(lang, key, &[("n", left), ("zone", &zone)])
        }
        Pending::ScrapTradeRow { optional, .. } => t(
            lang,
            if *optional {
                "dec.scrap_row_optional"
            } else {
                "dec.scrap_row"
            },
        )
        .to_string(),
        Pending::DestroyBase { optional } => t(
            lang,
            if *optional {
                "dec.destroy_optional"
            } else {
                "dec.destroy"
            },
        )
        .to_string(),
        Pending::DiscardTarget => t(lang, "dec.target").to_string(),
        Pending::PlayerDiscardTarget => t(lang, "dec.player_target").to_string(),
        Pending::BaseToTop => t(lang, "dec.base_to_top").to_string(),
        Pending::Discard { seat, left } => tf(
            lang,
            "dec.discard",
            &[("player", &names.of(*seat)), ("n", left)],
        ),
        Pending::DiscardThenDraw { left, .. } => tf(lang, "dec.discard_then_draw", &[("n", left)]),
        Pending::CopyShip { .. } => t(lang, "dec.copy").to_string(),
        Pending::AcquireFree => t(lang, "dec.acquire").to_string(),
        Pending::TopOrDiscard { card: c } => tf(lang, "dec.top", &[("card", &card(*c, lang))]),
        Pending::Bequeath { from, to } => tf(
            lang,
            "dec.bequeath",
            &[("player", &names.of(*from)), ("to", &names.of(*to))],
        ),
        Pending::AcquireUpTo { cost, .. } => tf(lang, "dec.acquire_up_to", &[("cost", cost)]),
        Pending::ToHand { card: c, .. } => tf(lang, "dec.to_hand", &[("card", &card(*c, lang))]),
        Pending::CopyBase { .. } => t(lang, "dec.copy_base").to_string(),
        Pending::DiscardFor { left, .. } => tf(lang, "dec.discard_for", &[("n", left)]),
        Pending::DiscardReward { .. } => t(lang, "dec.discard_reward").to_string(),
    })
}

// ----- boards --------------------------------------------------------------------------------

/// A sticker sheet in one line: `s1 Scenario 1 sheet · political…: r1 (2) ship · r2 (3) — · …`.
fn sheet_line(k: usize, u: &starrealms::state::SheetUse, lang: Lang) -> String {
    let sheet = &cards().sheets[u.sheet.0 as usize];
    let name = sheet.name.get(lang.code());
    let rows: Vec<String> = sheet
        .row
        .iter()
        .enumerate()
        .map(|(r, row)| {
            let used = if u.ship & (1 << r) != 0 {
                t(lang, "ship").to_string()
            } else if u.base & (1 << r) != 0 {
                t(lang, "base").to_string()
            } else {
                "—".to_string()
            };
            format!("r{} ({}) {used}", r + 1, row.cost)
        })
        .collect();
    let political = if u.political {
        format!(" ({})", t(lang, "sheet.political"))
    } else {
        String::new()
    };
    format!("s{} {name}{political} — {}", k + 1, rows.join(" · "))
}

/// The table as `obs.seat` sees it: every player's public state (the viewer's own hand
/// included), the trade row, the Explorer pile, and the decision waited for.
pub fn board(obs: &Observation, names: &Names, lang: Lang) -> String {
    let mut out = String::new();
    let to_move = obs.to_move.map_or_else(
        || t(lang, "game_over").to_string(),
        |s| tf(lang, "to_move", &[("player", &names.of(s))]),
    );
    out += &format!(
        "══ {} · {} ══\n",
        tf(lang, "turn", &[("turn", &obs.turn)]),
        to_move
    );
    // Others first, the viewer last, next to the prompt.
    let mut order: Vec<usize> = (0..obs.players.len()).collect();
    if let Some(me) = obs.seat {
        order.retain(|&i| i != me.index());
        order.push(me.index());
    }
    for i in order {
        let seat = Seat(i as u8);
        let p = &obs.players[i];
        let mut head = format!(
            "{} — {}",
            names.of(seat),
            crate::term::authority(&format!("{} {}", t(lang, "authority"), p.authority))
        );
        if !p.alive {
            head += &format!(" ({})", t(lang, "defeated"));
        }
        head += &format!(
            " · {} {} · {} {} · {} {}",
            t(lang, "zone.hand"),
            p.hand_count,
            t(lang, "zone.deck"),
            p.deck_count,
            t(lang, "zone.discard"),
            p.discard.len()
        );
        if let Some(&top) = p.discard.last() {
            head += &format!(" ({} {})", t(lang, "top"), card(top, lang));
        }
        out += &head;
        out += "\n";
        if let Some(hand) = &p.hand {
            out += &format!("   {}: {}\n", t(lang, "hand"), cards_list(hand, lang));
        }
        if !p.ships.is_empty() {
            let ships = list(&p.ships, |s| in_play(s, lang), lang);
            out += &format!("   {}: {ships}\n", t(lang, "ships_in_play"));
        }
        if !p.bases.is_empty() {
            let bases = list(&p.bases, |s| in_play(s, lang), lang);
            out += &format!("   {}: {bases}\n", t(lang, "bases"));
        }
        for (k, u) in p.sheets.iter().enumerate() {
            out += &format!("   {}\n", sheet_line(k, u, lang));
        }
        if p.trade > 0 || p.combat > 0 || obs.current == seat {
            out += &format!(
                "   {} · {}\n",
                crate::term::trade(&format!("{} {}", t(lang, "trade"), p.trade)),
                crate::term::combat(&format!("{} {}", t(lang, "combat"), p.combat))
            );
        }
        if p.pending_discards > 0 {
            out += &format!(
                "   {}\n",
                tf(lang, "discards_owed", &[("n", &p.pending_discards)])
            );
        }
    }
    let row: Vec<String> = obs
        .row
        .iter()
        .enumerate()
        .map(|(i, c)| match c {
            Some(c) => format!("[{i}] {}", card_cost(*c, lang)),
            None => format!("[{i}] —"),
        })
        .collect();
    out += &format!("{}: {}\n", t(lang, "trade_row"), row.join(" · "));
    out += &format!(
        "{} · {}\n",
        tf(
            lang,
            "explorers_left",
            &[
                ("n", &obs.explorers),
                ("cost", &cards().def(cards().explorer).cost())
            ]
        ),
        tf(lang, "trade_deck_left", &[("n", &obs.trade_deck_count)])
    );
    if let Some(d) = decision(obs, names, lang) {
        out += &format!("» {d}\n");
    }
    out
}
