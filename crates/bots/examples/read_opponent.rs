//! How well what a player does tells which policy plays it (`docs/ai.md`, "The opponent in the
//! rollouts"): three readings of the opponent, measured.
//!
//! Every ordered pair of the policies `medium`, `tuned`, `velocity` and `attack` plays
//! `--games` / 16 deals; every card a seat buys or acquires from the trade row (starting cards
//! and Explorers aside) counts for its policy. Then `--check` other games: at turns 2 to 16
//! each seat is read by the other, from even odds, three ways: by the cards it owns (all
//! public; naive Bayes on the policies' frequencies, add-one smoothing), by each of its
//! purchases against the trade row its turn began with (the card's frequency over those of the
//! row's cards no dearer, Luce's choice rule), and by asking each policy what it would do at
//! each of the seat's decisions taken with an empty hand (then everything it knows is public
//! but its deck's order, which no policy reads; chance `1 - EPS` that the policy's answer is
//! the decision), the reading `ismcts-read` does from its own view (`bots::starrealms::reading`).
//!
//! ```sh
//! cargo run --release -p bots --example read_opponent -- --games 8000 --check 2000 --seed 1
//! ```

use bots::starrealms::reading::Reader;
use bots::{Bot, SeatView};
use game::{Seat, mix_seed};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use starrealms::{Action, CardId, Config, State, cards};

/// The policies read.
const POLICIES: [&str; 4] = ["medium", "tuned", "velocity", "attack"];
/// The turns (of either player) at which the seats are read.
const TURNS: [u32; 6] = [2, 4, 6, 8, 12, 16];
/// The readings compared.
const READINGS: usize = 4;
/// The chance that a policy's decision differs from what it was asked (its ties break at random).
const EPS: f64 = 0.1;

#[derive(clap::Parser)]
struct Args {
    /// Games whose purchases make the profiles.
    #[arg(long, default_value_t = 8000)]
    games: u64,
    /// Other games, to read the seats of.
    #[arg(long, default_value_t = 2000)]
    check: u64,
    /// Base seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Whether a card says something of a policy: not a starting card, not an Explorer.
fn counted(c: CardId) -> bool {
    let set = cards();
    c != set.scout && c != set.viper && c != set.explorer
}

/// Every ordered pair of policies `(seat 0, seat 1)`.
fn pair(g: u64) -> (usize, usize) {
    let n = POLICIES.len() as u64;
    (((g / n) % n) as usize, (g % n) as usize)
}

/// Plays a game of `pair`; `each_turn` sees the state as every turn starts, `bought` each card
/// a seat buys or acquires from the trade row.
fn play(
    (a, b): (usize, usize),
    seed: u64,
    mut each_turn: impl FnMut(&State),
    mut bought: impl FnMut(usize, CardId, &[Option<CardId>]),
    mut decided: impl FnMut(&State, Seat, &[Action], Action),
    mut acted: impl FnMut(&State, Seat, Action),
) {
    let mut s = State::new(&Config::default(), seed).expect("the standard game");
    let mut players: Vec<Box<dyn Bot<State>>> = vec![
        bots::starrealms::by_name(POLICIES[a], mix_seed(seed ^ 1)).expect("a bot"),
        bots::starrealms::by_name(POLICIES[b], mix_seed(seed ^ 2)).expect("a bot"),
    ];
    let mut turn = u32::MAX;
    let mut row = s.row;
    while let Some(seat) = s.to_move() {
        if s.turn != turn {
            turn = s.turn;
            row = s.row;
            each_turn(&s);
        }
        let legal = s.legal_actions();
        let action = players[seat.index()].choose(&SeatView::of_state(&s, seat), &legal);
        if s.players[seat].hand.is_empty() && legal.len() > 1 {
            decided(&s, seat, &legal, action);
        }
        acted(&s, seat, action);
        if let Action::BuyRow(i) | Action::AcquireRow(i) = action
            && let Some(c) = s.row[i as usize]
        {
            bought(seat.index(), c, &row);
        }
        s.apply(action).expect("a legal action");
    }
}

fn bar(len: u64) -> anyhow::Result<ProgressBar> {
    Ok(
        ProgressBar::new(len).with_style(ProgressStyle::with_template(
            "{msg} {wide_bar} {pos}/{len} games, {eta} left",
        )?),
    )
}

/// Sums two tables of counts cell by cell.
fn add(a: Vec<f64>, b: Vec<f64>) -> Vec<f64> {
    a.iter().zip(&b).map(|(x, y)| x + y).collect()
}

fn main() -> anyhow::Result<()> {
    let args: Args = clap::Parser::parse();
    let kinds = cards().len();
    let n = POLICIES.len();
    // The profiles: purchases by policy and card.
    let progress = bar(args.games)?.with_message("profiles");
    let counts = (0..args.games)
        .into_par_iter()
        .map(|g| {
            let pair = pair(g);
            let mut count = vec![0.0; n * kinds];
            play(
                pair,
                mix_seed(args.seed ^ mix_seed(g)),
                |_| {},
                |seat, c, _| {
                    let p = if seat == 0 { pair.0 } else { pair.1 };
                    count[p * kinds + c.0 as usize] += 1.0;
                },
                |_, _, _, _| {},
                |_, _, _| {},
            );
            progress.inc(1);
            count
        })
        .reduce(|| vec![0.0; n * kinds], add);
    progress.finish_and_clear();
    let log_freq: Vec<Vec<f64>> = (0..n)
        .map(|p| {
            let row = &counts[p * kinds..(p + 1) * kinds];
            let total: f64 = (0..kinds)
                .filter(|&i| counted(CardId(i as u16)))
                .map(|i| row[i] + 1.0)
                .sum();
            row.iter().map(|k| ((k + 1.0) / total).ln()).collect()
        })
        .collect();
    // Each policy's chance, from even odds, given its log-likelihoods.
    let posterior = |ll: &[f64]| {
        let top = ll.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let w: Vec<f64> = ll.iter().map(|l| (l - top).exp()).collect();
        let sum: f64 = w.iter().sum();
        w.into_iter().map(|x| x / sum).collect::<Vec<f64>>()
    };
    // By the cards owned: each an independent draw from the policy's purchases.
    let owned_ll = |owned: &mut dyn Iterator<Item = CardId>| {
        let mut ll = vec![0.0; n];
        for c in owned.filter(|&c| counted(c)) {
            for (l, f) in ll.iter_mut().zip(&log_freq) {
                *l += f[c.0 as usize];
            }
        }
        ll
    };
    // By each purchase against the row the turn began with: the card's frequency over those of
    // the row's cards no dearer (Luce's choice rule), for the cards that were in that row.
    let purchase_ll = |ll: &mut [f64], c: CardId, row: &[Option<CardId>]| {
        if !counted(c) || !row.contains(&Some(c)) {
            return;
        }
        let cost = cards().info(c).cost;
        for (l, f) in ll.iter_mut().zip(&log_freq) {
            let others: f64 = row
                .iter()
                .flatten()
                .filter(|&&a| a != c && counted(a) && cards().info(a).cost <= cost)
                .map(|a| f[a.0 as usize].exp())
                .sum();
            let mine = f[c.0 as usize].exp();
            *l += (mine / (mine + others)).ln();
        }
    };
    // The readings, on other games: per reading and turn read, the seats, those named right,
    // the true policy's chance; then, per reading, at the last turn, the chance given to each
    // policy by true policy.
    let readings = [
        "cards owned",
        "purchases against the row",
        "decisions with an empty hand, each policy asked",
        "same, from the reading seat's own view (`Reader`, as `ismcts-read`)",
    ];
    let block = TURNS.len() * 3 + n * n;
    let progress = bar(args.check)?.with_message("reading");
    let sums = (0..args.check)
        .into_par_iter()
        .map(|g| {
            let pair = pair(g);
            let out = std::cell::RefCell::new(vec![0.0; READINGS * block]);
            let by_purchases = std::cell::RefCell::new(vec![vec![0.0; n]; 2]);
            let by_decisions = std::cell::RefCell::new(vec![vec![0.0; n]; 2]);
            // Seat i's reader reads the other seat.
            let readers = std::cell::RefCell::new([Reader::new(g), Reader::new(g ^ 1)]);
            let mut asked: Vec<Box<dyn Bot<State>>> = POLICIES
                .iter()
                .map(|p| bots::starrealms::by_name(p, 7).expect("a bot"))
                .collect();
            play(
                pair,
                // Other deals than the profiles'.
                mix_seed(args.seed ^ mix_seed(g)) ^ 0x0063_6865_636b,
                |s| {
                    let Some(k) = TURNS.iter().position(|&t| t == s.turn) else {
                        return;
                    };
                    let mut out = out.borrow_mut();
                    for seat in 0..2usize {
                        let truth = if seat == 0 { pair.0 } else { pair.1 };
                        // Read by the other seat, from its own view.
                        let view = s.observation(game::Seat(1 - seat as u8));
                        let posts = [
                            posterior(&owned_ll(&mut view.players[seat].owned())),
                            posterior(&by_purchases.borrow()[seat]),
                            posterior(&by_decisions.borrow()[seat]),
                            readers.borrow()[1 - seat]
                                .chances(Seat(seat as u8))
                                .to_vec(),
                        ];
                        for (r, post) in posts.iter().enumerate() {
                            let best = (0..n)
                                .max_by(|&x, &y| post[x].total_cmp(&post[y]))
                                .unwrap_or(0);
                            let o = &mut out[r * block..(r + 1) * block];
                            o[k * 3] += 1.0;
                            o[k * 3 + 1] += f64::from(u8::from(best == truth));
                            o[k * 3 + 2] += post[truth];
                            if k == TURNS.len() - 1 {
                                for (j, p) in post.iter().enumerate() {
                                    o[TURNS.len() * 3 + truth * n + j] += p;
                                }
                            }
                        }
                    }
                },
                |seat, c, row| purchase_ll(&mut by_purchases.borrow_mut()[seat], c, row),
                |s, seat, legal, action| {
                    let view = SeatView::of_state(s, seat);
                    let mut ll = by_decisions.borrow_mut();
                    for (l, bot) in ll[seat.index()].iter_mut().zip(asked.iter_mut()) {
                        let same = bot.choose(&view, legal) == action;
                        *l += if same {
                            (1.0 - EPS).ln()
                        } else {
                            (EPS / legal.len() as f64).ln()
                        };
                    }
                },
                |s, seat, action| {
                    let reader = 1 - seat.index();
                    let view = SeatView::of_state(s, Seat(reader as u8));
                    readers.borrow_mut()[reader].watch(&view, seat, action);
                },
            );
            progress.inc(1);
            out.into_inner()
        })
        .reduce(|| vec![0.0; READINGS * block], add);
    progress.finish_and_clear();
    println!(
        "Profiles from {} games, reading {} other games (seed {}); by chance {:.0}%",
        args.games,
        args.check,
        args.seed,
        100.0 / n as f64
    );
    for (r, reading) in readings.iter().enumerate() {
        let o = &sums[r * block..(r + 1) * block];
        println!("By the {reading}:");
        for (k, t) in TURNS.iter().enumerate() {
            let seats = o[k * 3];
            if seats > 0.0 {
                println!(
                    "  turn {t:2}: {seats} seats, named right {:.1}%, the true policy's chance {:.2} on average",
                    100.0 * o[k * 3 + 1] / seats,
                    o[k * 3 + 2] / seats
                );
            }
        }
        println!(
            "  turn {}: the chance given to each policy ({}), by the policy that plays",
            TURNS[TURNS.len() - 1],
            POLICIES.join(", ")
        );
        for (i, name) in POLICIES.iter().enumerate() {
            let row = &o[TURNS.len() * 3 + i * n..TURNS.len() * 3 + (i + 1) * n];
            let total: f64 = row.iter().sum();
            let cells: Vec<String> = row.iter().map(|x| format!("{:.2}", x / total)).collect();
            println!("    {name:>8}: {}", cells.join("  "));
        }
    }
    Ok(())
}
