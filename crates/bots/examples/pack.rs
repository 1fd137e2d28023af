//! Measures a card pack the way a designer would: N heuristic-mirror games of the *Rise of
//! Empire* pack with each player's scenario-1 sticker sheet (political victory on), and prints
//! the first player's win rate, the political-victory rate, the game length, how many upgrades
//! were made, and each faction's presence in the winners' and losers' decks at the end:
//!
//! `cargo run --release -p bots --example pack -- --games 10000 [--sets rise_of_empire]
//! [--bot heuristic] [--no-sheets] [--threads 2] [--json]`
//!
//! Game `i` uses seed `i`; the bots' seeds derive from `i`. The games run on `--threads`
//! threads; the results do not depend on their number.

use std::sync::atomic::{AtomicU64, Ordering};

use bots::play_game;
use clap::Parser;
use game::State as _;
use starrealms::cards::{Faction, Sets};
use starrealms::config::SheetGrant;
use starrealms::{Config, State, cards};

#[derive(Parser)]
struct Args {
    /// Games to play.
    #[arg(long, default_value_t = 10_000)]
    games: u64,
    /// Card sets of the trade deck.
    #[arg(long, default_value = "rise_of_empire")]
    sets: String,
    /// The bot in both seats.
    #[arg(long, default_value = "heuristic")]
    bot: String,
    /// Play without sticker sheets (no upgrades, no political victory).
    #[arg(long)]
    no_sheets: bool,
    /// Threads.
    #[arg(long, default_value_t = 2)]
    threads: u64,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Default, Clone)]
struct Tally {
    games: u64,
    first_wins: u64,
    draws: u64,
    political: u64,
    turns: u64,
    upgrades: u64,
    /// Per faction: cards owned at the end by the winner, by the loser (summed over games).
    winner_cards: [u64; Faction::COUNT],
    loser_cards: [u64; Faction::COUNT],
    /// Per faction: games whose winner owned at least one card of it.
    winner_has: [u64; Faction::COUNT],
}

impl Tally {
    fn add(&mut self, o: &Tally) {
        self.games += o.games;
        self.first_wins += o.first_wins;
        self.draws += o.draws;
        self.political += o.political;
        self.turns += o.turns;
        self.upgrades += o.upgrades;
        for f in 0..Faction::COUNT {
            self.winner_cards[f] += o.winner_cards[f];
            self.loser_cards[f] += o.loser_cards[f];
            self.winner_has[f] += o.winner_has[f];
        }
    }
}

/// Wilson 95% interval of `k` in `n`, in percent.
fn wilson(k: u64, n: u64) -> (f64, f64) {
    let (k, n, z) = (k as f64, n.max(1) as f64, 1.96);
    let p = k / n;
    let d = 1.0 + z * z / n;
    let c = (p + z * z / (2.0 * n)) / d;
    let h = z * ((p * (1.0 - p) + z * z / (4.0 * n)) / n).sqrt() / d;
    (100.0 * (c - h), 100.0 * (c + h))
}

fn owned_by_faction(state: &State, seat: usize) -> [u64; Faction::COUNT] {
    let set = cards();
    let mut n = [0u64; Faction::COUNT];
    for c in state.players.0[seat].all_cards() {
        let mut member = set.info(c).member;
        while member != 0 {
            n[member.trailing_zeros() as usize] += 1;
            member &= member - 1;
        }
    }
    n
}

fn play(args: &Args, config: &Config, i: u64) -> Tally {
    let mut players: Vec<_> = (0..2)
        .map(|k| {
            bots::starrealms::by_name(&args.bot, 2 * i + k + 1).unwrap_or_else(|e| panic!("{e}"))
        })
        .collect();
    let state = State::new_game(config, i).expect("a valid configuration");
    let end = play_game(state, &mut players, |_, _, _| {});
    let mut t = Tally {
        games: 1,
        turns: end.turn as u64,
        ..Tally::default()
    };
    t.upgrades = end
        .players
        .0
        .iter()
        .flat_map(|p| &p.sheets)
        .map(|u| u64::from(u.used()))
        .sum();
    match end.winners().as_slice() {
        [w] => {
            let w = w.index();
            t.first_wins = u64::from(w == end.first.index());
            t.political = u64::from(
                end.players.0[w]
                    .sheets
                    .iter()
                    .any(|u| u.political && u.used() == 5)
                    && end.players.0[1 - w].authority > 0,
            );
            let (won, lost) = (owned_by_faction(&end, w), owned_by_faction(&end, 1 - w));
            for f in 0..Faction::COUNT {
                t.winner_cards[f] = won[f];
                t.loser_cards[f] = lost[f];
                t.winner_has[f] = u64::from(won[f] > 0);
            }
        }
        _ => t.draws = 1,
    }
    t
}

fn main() {
    let args = Args::parse();
    let sets = Sets::parse(&args.sets).unwrap_or_else(|e| panic!("{e}"));
    let sheets = if args.no_sheets {
        Vec::new()
    } else {
        ["s1_empire", "s1_federation"]
            .iter()
            .map(|id| {
                vec![SheetGrant {
                    sheet: id.to_string(),
                    used: Vec::new(),
                    political: true,
                }]
            })
            .collect()
    };
    let config = Config {
        sets,
        sheets,
        ..Config::default()
    };
    config.validate().unwrap_or_else(|e| panic!("{e}"));
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let start = std::time::Instant::now();
    let total = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..args.threads.max(1))
            .map(|_| {
                scope.spawn(|| {
                    let mut t = Tally::default();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= args.games {
                            return t;
                        }
                        t.add(&play(&args, &config, i));
                        let d = done.fetch_add(1, Ordering::Relaxed) + 1;
                        if !args.json && d.is_multiple_of((args.games / 20).max(1)) {
                            eprint!("\r{d}/{} games", args.games);
                        }
                    }
                })
            })
            .collect();
        let mut total = Tally::default();
        for w in workers {
            total.add(&w.join().expect("a worker finished"));
        }
        total
    });
    let seconds = start.elapsed().as_secs_f64();
    if !args.json {
        eprintln!();
    }
    let decided = total.games - total.draws;
    let (fl, fh) = wilson(total.first_wins, decided);
    let (pl, ph) = wilson(total.political, decided);
    let factions: Vec<serde_json::Value> = Faction::ALL
        .iter()
        .enumerate()
        .filter(|(f, _)| total.winner_cards[*f] + total.loser_cards[*f] > 0)
        .map(|(f, faction)| {
            serde_json::json!({
                "faction": faction.name(),
                "winner_cards": total.winner_cards[f] as f64 / decided.max(1) as f64,
                "loser_cards": total.loser_cards[f] as f64 / decided.max(1) as f64,
                "winners_with_one": 100.0 * total.winner_has[f] as f64 / decided.max(1) as f64,
            })
        })
        .collect();
    if args.json {
        let out = serde_json::json!({
            "games": total.games, "sets": args.sets, "bot": args.bot, "sheets": !args.no_sheets,
            "first_player_win_pct": 100.0 * total.first_wins as f64 / decided.max(1) as f64,
            "first_player_ci": [fl, fh],
            "political_pct": 100.0 * total.political as f64 / decided.max(1) as f64,
            "political_ci": [pl, ph],
            "draws": total.draws,
            "mean_turns": total.turns as f64 / total.games as f64,
            "upgrades_per_game": total.upgrades as f64 / total.games as f64,
            "factions": factions,
            "seconds": seconds,
        });
        println!("{}", serde_json::to_string_pretty(&out).expect("JSON"));
        return;
    }
    println!(
        "{} games · {} · {} mirror · sheets {}",
        total.games,
        args.sets,
        args.bot,
        if args.no_sheets {
            "none"
        } else {
            "s1_empire / s1_federation, political"
        }
    );
    println!(
        "first player won {:.1}% [{fl:.1}–{fh:.1}] of {decided} decided games ({} draws)",
        100.0 * total.first_wins as f64 / decided.max(1) as f64,
        total.draws
    );
    println!(
        "political victories {:.1}% [{pl:.1}–{ph:.1}]; {:.2} upgrades a game; {:.1} turns a game",
        100.0 * total.political as f64 / decided.max(1) as f64,
        total.upgrades as f64 / total.games as f64,
        total.turns as f64 / total.games as f64
    );
    println!("faction        cards in winner's deck  in loser's  winners with one");
    for f in &factions {
        println!(
            "{:<14} {:>22.2} {:>11.2} {:>16.1}%",
            f["faction"].as_str().unwrap_or(""),
            f["winner_cards"].as_f64().unwrap_or(0.0),
            f["loser_cards"].as_f64().unwrap_or(0.0),
            f["winners_with_one"].as_f64().unwrap_or(0.0)
        );
    }
    println!(
        "{:.1} s, {:.0} games/s",
        seconds,
        total.games as f64 / seconds
    );
}
