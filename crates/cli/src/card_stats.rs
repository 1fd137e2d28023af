//! `realms cards stats`: what each card does to the game, measured over many games between
//! bots — how often it is bought when offered, when, and how decks holding it fare.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context as _;
use clap::Args;
use i18n::{Lang, t, tf};
use rayon::prelude::*;
use serde::Serialize;
use starrealms::{Action, CardId, Config, State};

use arena::wilson;

/// Options of `realms cards stats`; their help is the translation table's `cli.cards.stats.arg.<option>`.
#[derive(Args, Debug)]
pub struct StatsArgs {
    #[arg(long, short = 'n', default_value_t = 2000)]
    games: u64,
    #[arg(long, value_delimiter = ',', default_value = "medium,medium")]
    players: Vec<String>,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[arg(long)]
    threads: Option<usize>,
    #[arg(long)]
    json: bool,
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

/// What one game says of each card kind (index: printed card id).
#[derive(Clone, Default)]
struct GameTally {
    offered: Vec<u32>,
    /// Turns in which it was bought (at least one copy).
    bought_turns: Vec<u32>,
    bought: Vec<u32>,
    acquired_free: Vec<u32>,
    turn_sum: Vec<u64>,
    /// Per seat: the printed kinds its final deck holds.
    holds: [Vec<bool>; 2],
    /// The winning seat (`None`: a draw).
    winner: Option<usize>,
}

/// One card's figures.
#[derive(Clone, Debug, Serialize)]
struct CardStats {
    card: String,
    name: String,
    cost: u8,
    /// Turns in which it was in the row while the player to act could pay for it.
    offered: u64,
    /// Copies bought with trade.
    bought: u64,
    /// Of the turns it was offered, the share in which the player bought it.
    buy_rate: f64,
    /// Copies acquired for free from the row (by a card's ability).
    acquired_free: u64,
    /// Mean turn number (both players' turns counted) of its purchases.
    mean_turn_bought: Option<f64>,
    /// Final decks (one per player and decided game) holding at least one copy, and their wins.
    decks_with: u64,
    wins_with: u64,
    /// Final decks holding none, and their wins.
    decks_without: u64,
    wins_without: u64,
    /// Win rates with their 95% Wilson intervals.
    win_rate_with: f64,
    win_rate_with_ci95: [f64; 2],
    win_rate_without: f64,
    win_rate_without_ci95: [f64; 2],
    /// `win_rate_with - win_rate_without`, with a 95% interval (normal approximation).
    difference: f64,
    difference_ci95: [f64; 2],
}

#[derive(Serialize)]
struct Report {
    games: u64,
    decided: u64,
    players: Vec<String>,
    seed: u64,
    sets: Vec<String>,
    cards: Vec<CardStats>,
    seconds: f64,
}

/// The printed card of `c` (an upgraded card counts as the card it was printed as).
fn printed(c: CardId) -> usize {
    starrealms::cards().printed(c).0 as usize
}

fn play_one(config: &Config, players: &[String], seed: u64) -> anyhow::Result<GameTally> {
    let set = starrealms::cards();
    let n = set.len();
    let mut tally = GameTally {
        offered: vec![0; n],
        bought_turns: vec![0; n],
        bought: vec![0; n],
        acquired_free: vec![0; n],
        turn_sum: vec![0; n],
        holds: [vec![false; n], vec![false; n]],
        winner: None,
    };
    let mut state = State::new(config, seed).map_err(anyhow::Error::msg)?;
    let mut bots: Vec<Box<dyn bots::Bot<State>>> = players
        .iter()
        .enumerate()
        .map(|(i, name)| bots::starrealms::by_name(name, game::mix_seed(seed ^ (i as u64 + 1))))
        .collect::<Result<_, _>>()
        .map_err(anyhow::Error::msg)?;
    // The kinds already counted as offered this turn.
    let mut seen_turn = u32::MAX;
    let mut offered_now = vec![false; n];
    let mut bought_now = vec![false; n];
    let mut legal = Vec::new();
    while let Some(seat) = state.to_move() {
        if state.turn != seen_turn {
            seen_turn = state.turn;
            offered_now.iter_mut().for_each(|o| *o = false);
            bought_now.iter_mut().for_each(|o| *o = false);
        }
        if state.pending.is_none() && seat == state.current {
            let trade = state.players[seat].trade;
            for c in state.row.iter().flatten() {
                let k = printed(*c);
                if !offered_now[k] && u16::from(set.info(*c).cost) <= trade {
                    offered_now[k] = true;
                    tally.offered[k] += 1;
                }
            }
        }
        state.legal_actions_into(&mut legal);
        let action = {
            let view = bots::SeatView::of_state(&state, seat);
            bots[seat.index()].choose(&view, &legal)
        };
        match action {
            Action::BuyRow(s) | Action::BuyUpgrade(s, ..) => {
                if let Some(c) = state.row[s as usize] {
                    let k = printed(c);
                    tally.bought[k] += 1;
                    tally.turn_sum[k] += u64::from(state.turn);
                    if !bought_now[k] {
                        bought_now[k] = true;
                        tally.bought_turns[k] += 1;
                    }
                }
            }
            Action::AcquireRow(s) | Action::AcquireUpgrade(s, ..) => {
                if let Some(c) = state.row[s as usize] {
                    tally.acquired_free[printed(c)] += 1;
                }
            }
            _ => {}
        }
        game::State::apply_legal(&mut state, action);
    }
    for (i, p) in state.players.0.iter().enumerate().take(2) {
        let cards = p
            .hand
            .iter()
            .chain(&p.deck)
            .chain(&p.discard)
            .copied()
            .chain(p.ships.iter().map(|s| s.card))
            .chain(p.bases.iter().map(|b| b.card));
        for c in cards {
            tally.holds[i][printed(c)] = true;
        }
    }
    tally.winner = match state.winners().as_slice() {
        [one] => Some(one.index()),
        _ => None,
    };
    Ok(tally)
}

/// Runs `realms cards stats`.
pub fn run(args: StatsArgs, lang: Lang) -> anyhow::Result<ExitCode> {
    if args.games == 0 {
        anyhow::bail!("{}", t(lang, "cmd.err.games"));
    }
    if args.players.len() != 2 {
        anyhow::bail!("{}", t(lang, "card_stats.err.players"));
    }
    for name in &args.players {
        bots::starrealms::by_name(name, 0).map_err(|e| anyhow::anyhow!(e.text(lang)))?;
    }
    let config = crate::TableOptions::apply(Config::default(), lang)?;
    let pool = crate::worker_pool(args.threads, lang)?;
    let bar = crate::progress_bar(args.games, crate::Counted::Games, !args.json, lang);
    let start = Instant::now();
    // Each game's seed derives from the base seed and its number; the tallies are summed in
    // game order, so the figures do not depend on the threads.
    let tallies: Vec<GameTally> = pool.install(|| {
        (0..args.games)
            .into_par_iter()
            .map(|i| {
                let seed = game::mix_seed(args.seed.wrapping_add(i.wrapping_mul(0x9E37_79B9)));
                let tally = play_one(&config, &args.players, seed);
                bar.inc(1);
                tally
            })
            .collect::<anyhow::Result<_>>()
    })?;
    bar.finish_and_clear();
    let report = report(
        &args,
        &config,
        &tallies,
        lang,
        start.elapsed().as_secs_f64(),
    );
    let mut out = String::new();
    if let Some(dir) = &args.out {
        write_files(dir, &report, lang)?;
    }
    if args.json {
        outln!(out, "{}", serde_json::to_string_pretty(&report)?);
        return crate::emit(&out);
    }
    outln!(
        out,
        "{}",
        tf(
            lang,
            "card_stats.header",
            &[
                ("games", &report.games),
                ("decided", &report.decided),
                ("players", &report.players.join(" / ")),
                ("seed", &report.seed),
                ("sets", &report.sets.join(", "))
            ]
        )
    );
    outln!(out, "{}", t(lang, "card_stats.columns"));
    let pct = |x: f64| i18n::percent(lang, x, 1);
    // Points of percentage, signed.
    let points = |x: f64| {
        let number = i18n::decimal(lang, 100.0 * x, 1);
        if number.starts_with('-') {
            number
        } else {
            format!("+{number}")
        }
    };
    // Where the decimal mark is a comma, the bounds of an interval part with a semicolon.
    let between = match lang {
        Lang::En => ", ",
        Lang::Fr => " ; ",
        Lang::Pt | Lang::Es => "; ",
    };
    for c in &report.cards {
        outln!(
            out,
            "{:<28} {:>4} {:>8} {:>8} {:>7} {:>8} {:>8} {:>7} [{}{between}{}]",
            c.name,
            c.cost,
            c.offered,
            pct(c.buy_rate),
            c.mean_turn_bought
                .map_or_else(|| "—".to_string(), |x| i18n::decimal(lang, x, 1)),
            pct(c.win_rate_with),
            pct(c.win_rate_without),
            points(c.difference),
            points(c.difference_ci95[0]),
            points(c.difference_ci95[1])
        );
    }
    outln!(
        out,
        "{}",
        tf(
            lang,
            "card_stats.footer",
            &[("seconds", &i18n::decimal(lang, report.seconds, 1))]
        )
    );
    crate::emit(&out)
}

fn report(
    args: &StatsArgs,
    config: &Config,
    tallies: &[GameTally],
    lang: Lang,
    seconds: f64,
) -> Report {
    let set = starrealms::cards();
    let decided = tallies.iter().filter(|g| g.winner.is_some()).count() as u64;
    let mut cards = Vec::new();
    let deck: std::collections::BTreeSet<usize> = match &config.trade_deck {
        Some(d) => d.iter().map(|&c| printed(c)).collect(),
        None => set
            .trade_deck_of(config.sets)
            .iter()
            .map(|&c| c.0 as usize)
            .collect(),
    };
    for k in deck {
        let c = CardId(k as u16);
        let (mut offered, mut bought, mut turns) = (0u64, 0u64, 0u64);
        let (mut bought_turns, mut free) = (0u64, 0u64);
        let (mut with, mut wins_with, mut without, mut wins_without) = (0u64, 0u64, 0u64, 0u64);
        for g in tallies {
            offered += u64::from(g.offered[k]);
            bought += u64::from(g.bought[k]);
            bought_turns += u64::from(g.bought_turns[k]);
            free += u64::from(g.acquired_free[k]);
            turns += g.turn_sum[k];
            let Some(w) = g.winner else { continue };
            for seat in 0..2 {
                let won = u64::from(w == seat);
                if g.holds[seat][k] {
                    with += 1;
                    wins_with += won;
                } else {
                    without += 1;
                    wins_without += won;
                }
            }
        }
        let rate = |k: u64, n: u64| if n == 0 { 0.0 } else { k as f64 / n as f64 };
        let (p1, p2) = (rate(wins_with, with), rate(wins_without, without));
        let se = |p: f64, n: u64| {
            if n == 0 {
                0.5
            } else {
                (p * (1.0 - p) / n as f64).sqrt()
            }
        };
        let half = 1.96 * (se(p1, with).powi(2) + se(p2, without).powi(2)).sqrt();
        cards.push(CardStats {
            card: set.def(c).id().to_string(),
            name: i18n::cards::name(c, lang).to_string(),
            cost: set.def(c).cost(),
            offered,
            bought,
            buy_rate: rate(bought_turns, offered),
            acquired_free: free,
            mean_turn_bought: (bought > 0).then(|| turns as f64 / bought as f64),
            decks_with: with,
            wins_with,
            decks_without: without,
            wins_without,
            win_rate_with: p1,
            win_rate_with_ci95: wilson(wins_with as f64, with as f64),
            win_rate_without: p2,
            win_rate_without_ci95: wilson(wins_without as f64, without as f64),
            difference: p1 - p2,
            difference_ci95: [p1 - p2 - half, p1 - p2 + half],
        });
    }
    cards.sort_by(|a, b| {
        b.difference
            .total_cmp(&a.difference)
            .then_with(|| a.card.cmp(&b.card))
    });
    Report {
        games: tallies.len() as u64,
        decided,
        players: args.players.clone(),
        seed: args.seed,
        sets: config.sets.names(),
        cards,
        seconds,
    }
}

fn write_files(dir: &Path, report: &Report, lang: Lang) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir)
        .with_context(|| tf(lang, "card_stats.err.mkdir", &[("path", &dir.display())]))?;
    let mut csv = String::from(
        "card,cost,offered,bought,buy_rate,acquired_free,mean_turn_bought,decks_with,wins_with,\
         decks_without,wins_without,win_rate_with,win_rate_without,difference,difference_low,\
         difference_high\n",
    );
    for c in &report.cards {
        csv.push_str(&format!(
            "{},{},{},{},{:.4},{},{},{},{},{},{},{:.4},{:.4},{:.4},{:.4},{:.4}\n",
            c.card,
            c.cost,
            c.offered,
            c.bought,
            c.buy_rate,
            c.acquired_free,
            c.mean_turn_bought
                .map_or(String::new(), |x| format!("{x:.2}")),
            c.decks_with,
            c.wins_with,
            c.decks_without,
            c.wins_without,
            c.win_rate_with,
            c.win_rate_without,
            c.difference,
            c.difference_ci95[0],
            c.difference_ci95[1]
        ));
    }
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text)
            .with_context(|| tf(lang, "cmd.err.write", &[("file", &path.display())]))
    };
    write("stats.csv", &csv)?;
    write("stats.json", &serde_json::to_string_pretty(report)?)?;
    write("stats.svg", &svg(report, lang)?)?;
    Ok(())
}

/// Each card's win-rate difference (decks holding it against decks without), with its
/// interval, in percentage points, strongest first.
fn svg(report: &Report, lang: Lang) -> anyhow::Result<String> {
    let rows: Vec<arena::forest::Row<'_>> = report
        .cards
        .iter()
        .map(|c| arena::forest::Row {
            label: &c.name,
            estimate: 100.0 * c.difference,
            ci95: c.difference_ci95.map(|x| 100.0 * x),
        })
        .collect();
    arena::forest::Forest {
        title: t(lang, "card_stats.svg_title"),
        axis: t(lang, "card_stats.svg_axis"),
        dense: true,
        min_pad: 1.0,
    }
    .svg(&rows)
    .map_err(anyhow::Error::msg)
}
