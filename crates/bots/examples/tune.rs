//! Tunes the heuristic bot's value table by self-play, with SPSA (simultaneous perturbation
//! stochastic approximation): each step moves every number of the table at once, up for one
//! copy of the bot and down for the other, plays the two copies against each other, and steps
//! every number towards the copy that won more. Then it checks the result against the starting
//! table over many games and writes the tuned table.
//!
//! `cargo run --release -p bots --example tune -- --steps 400 --games 1000 --check 20000 --out tuned.toml`
//!
//! Options: `--from FILE` (default: the embedded table), `--steps`, `--games` (a step's games,
//! each deal played from both seats), `--check` (games of the final comparison), `--seed`,
//! `--threads` (default 2), `--layout FILE` (the file whose comments and order the output
//! keeps; default: the embedded table). The same options and seed give the same table.

use std::time::Instant;

use bots::starrealms::{HeuristicBot, Values};
use bots::{Bot, play_game};
use game::{GameRng, State as _, rng_from_seed};
use rand::Rng as _;
use starrealms::{Config, State};

/// One tuned number: where it is in the table and how far a step perturbs it.
struct Param {
    path: Vec<String>,
    scale: f64,
}

/// Tunes the heuristic bot's value table by self-play (SPSA).
#[derive(clap::Parser)]
struct Args {
    /// SPSA steps.
    #[arg(long, default_value_t = 400)]
    steps: u32,
    /// Games a step (each deal played from both seats).
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// Games of the final comparison with the starting table.
    #[arg(long, default_value_t = 20000)]
    check: u64,
    /// The seed: the same options and seed give the same table.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads playing the games.
    #[arg(long, default_value_t = 2)]
    threads: u64,
    /// Where to write the tuned table.
    #[arg(long, default_value = "tuned.toml")]
    out: std::path::PathBuf,
    /// The table to start from (default: the embedded, hand-written one).
    #[arg(long)]
    from: Option<std::path::PathBuf>,
    /// The file whose comments and order the output keeps (default: the embedded table).
    #[arg(long)]
    layout: Option<std::path::PathBuf>,
}

fn read(path: &std::path::Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every tuned number of the table: each card's value and phase adjustments (in trade, perturbed
/// by half a point) and the floating-point weights of the settings (by a quarter of their size).
fn params(table: &toml::Table) -> Vec<Param> {
    let mut out = Vec::new();
    let cards = table["cards"].as_table().expect("a [cards] table");
    for (id, _) in cards {
        for field in ["value", "early", "late"] {
            out.push(Param {
                path: vec!["cards".into(), id.clone(), field.into()],
                scale: 0.5,
            });
        }
    }
    let settings = table["settings"].as_table().expect("a [settings] table");
    for (name, value) in settings {
        match value {
            toml::Value::Float(f) => out.push(Param {
                path: vec!["settings".into(), name.clone()],
                scale: 0.25 * f.abs() + 0.05,
            }),
            toml::Value::Table(phased) => {
                for (phase, v) in phased {
                    if let toml::Value::Float(f) = v {
                        out.push(Param {
                            path: vec!["settings".into(), name.clone(), phase.clone()],
                            scale: 0.25 * f.abs() + 0.05,
                        });
                    }
                }
            }
            _ => {}
        }
    }
    out
}

fn get(table: &toml::Table, path: &[String]) -> f64 {
    let mut t = table;
    for key in &path[..path.len() - 1] {
        t = t[key].as_table().expect("a table");
    }
    match t.get(&path[path.len() - 1]) {
        Some(toml::Value::Float(f)) => *f,
        Some(toml::Value::Integer(i)) => *i as f64,
        _ => 0.0,
    }
}

/// The table with the tuned numbers set to `theta`.
fn with(table: &toml::Table, params: &[Param], theta: &[f64]) -> toml::Table {
    let mut out = table.clone();
    for (p, &x) in params.iter().zip(theta) {
        let mut t = &mut out;
        for key in &p.path[..p.path.len() - 1] {
            t = t
                .get_mut(key)
                .and_then(toml::Value::as_table_mut)
                .expect("a table");
        }
        // Two decimals: a readable table.
        t.insert(
            p.path[p.path.len() - 1].clone(),
            toml::Value::Float((x * 100.0).round() / 100.0),
        );
    }
    out
}

/// A number as the table writes it: two decimals at most, at least one.
fn number(x: f64) -> String {
    let text = format!("{:.2}", (x * 100.0).round() / 100.0);
    let text = text.trim_end_matches('0');
    let text = if text.ends_with('.') {
        format!("{text}0")
    } else {
        text.to_string()
    };
    if text == "-0.0" { "0.0".into() } else { text }
}

fn value_text(v: &toml::Value) -> String {
    match v {
        toml::Value::Float(f) => number(*f),
        toml::Value::Table(t) => {
            let mut keys: Vec<&String> = t.keys().collect();
            let rank = |k: &str| {
                ["value", "early", "mid", "late"]
                    .iter()
                    .position(|x| *x == k)
            };
            keys.sort_by_key(|k| (rank(k).unwrap_or(9), (*k).clone()));
            let parts: Vec<String> = keys
                .into_iter()
                .filter(|k| {
                    // Phase adjustments of zero are left out, as in the hand-written table.
                    !(matches!(k.as_str(), "early" | "late")
                        && t.contains_key("value")
                        && number(t[k.as_str()].as_float().unwrap_or(1.0)) == "0.0")
                })
                .map(|k| format!("{k} = {}", value_text(&t[k.as_str()])))
                .collect();
            format!("{{ {} }}", parts.join(", "))
        }
        other => other.to_string(),
    }
}

/// `tuned` written in the layout of `original` (its comments, order and alignment), with a
/// first line saying where it comes from.
fn render(original: &str, tuned: &toml::Table, header: &str) -> String {
    let mut out = String::from(header);
    let mut section = String::new();
    for line in original.lines() {
        let trimmed = line.trim_start();
        if let Some(name) = trimmed.strip_prefix('[') {
            section = name.trim_end_matches(']').to_string();
        } else if !trimmed.starts_with('#')
            && let Some((key, rest)) = line.split_once('=')
        {
            let key = key.trim();
            if let Some(v) = tuned.get(&section).and_then(|s| s.get(key)) {
                let comment = rest.find('#').map_or("", |i| &rest[i..]);
                let mut new = format!("{key} = {}", value_text(v));
                if !comment.is_empty() {
                    // The comment stays in its column.
                    let column = line.len() - comment.len();
                    let pad = column.saturating_sub(new.len()).max(1);
                    new = format!("{new}{}{comment}", " ".repeat(pad));
                }
                out.push_str(&new);
                out.push('\n');
                continue;
            }
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

fn values(table: &toml::Table) -> Values {
    Values::parse("tuned", &toml::to_string(table).expect("a table"))
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Plays `deals` deals from both seats between `a` and `b`; returns `a`'s score (a win 1, a
/// draw ½) over the games.
fn duel(a: &Values, b: &Values, deals: u64, seed: u64, threads: u64) -> f64 {
    let config = Config::default();
    let score = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let config = &config;
                s.spawn(move || {
                    let mut score = 0.0;
                    for deal in (t..deals).step_by(threads as usize) {
                        let game_seed = game::mix_seed(seed ^ deal);
                        for seat_a in 0..2 {
                            let bot_a = HeuristicBot::with_values(a.clone(), game_seed ^ 1);
                            let bot_b = HeuristicBot::with_values(b.clone(), game_seed ^ 2);
                            let mut players: Vec<Box<dyn Bot<State>>> = if seat_a == 0 {
                                vec![Box::new(bot_a), Box::new(bot_b)]
                            } else {
                                vec![Box::new(bot_b), Box::new(bot_a)]
                            };
                            let state = State::new_game(config, game_seed).expect("a game");
                            let end = play_game(state, &mut players, |_, _, _| {});
                            score += match end.winners().as_slice() {
                                [w] if w.index() == seat_a => 1.0,
                                [_] => 0.0,
                                _ => 0.5,
                            };
                        }
                    }
                    score
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a duel thread"))
            .sum::<f64>()
    });
    score / (2 * deals) as f64
}

fn main() {
    let Args {
        steps,
        games,
        check,
        seed,
        threads,
        out,
        from,
        layout,
    } = clap::Parser::parse();
    const EMBEDDED: &str = include_str!("../data/heuristic.toml");
    let text = from.as_deref().map_or_else(|| EMBEDDED.to_string(), read);
    let table: toml::Table = toml::from_str(&text).expect("a TOML table");
    let params = params(&table);
    let start_theta: Vec<f64> = params.iter().map(|p| get(&table, &p.path)).collect();
    let mut theta = start_theta.clone();
    let mut rng: GameRng = rng_from_seed(seed);
    let started = Instant::now();
    eprintln!("{} numbers, {steps} steps of {games} games", params.len());
    for k in 0..steps {
        // Gains of the usual SPSA schedule: the step shrinks as the estimate settles.
        let a = 2.0 / (f64::from(k) + 1.0 + 20.0).powf(0.602) * 21f64.powf(0.602);
        let c = 1.0 / (f64::from(k) + 1.0).powf(0.101);
        let delta: Vec<f64> = params
            .iter()
            .map(|_| if rng.random::<bool>() { 1.0 } else { -1.0 })
            .collect();
        let plus: Vec<f64> = theta
            .iter()
            .zip(&delta)
            .zip(&params)
            .map(|((t, d), p)| t + c * d * p.scale)
            .collect();
        let minus: Vec<f64> = theta
            .iter()
            .zip(&delta)
            .zip(&params)
            .map(|((t, d), p)| t - c * d * p.scale)
            .collect();
        let y = duel(
            &values(&with(&table, &params, &plus)),
            &values(&with(&table, &params, &minus)),
            games / 2,
            seed ^ (u64::from(k) << 32),
            threads,
        ) - 0.5;
        for ((t, d), p) in theta.iter_mut().zip(&delta).zip(&params) {
            *t += a * y * d * p.scale;
        }
        if k % 10 == 9 {
            eprintln!(
                "step {:>4}/{steps}: last duel {:+.3}, {:.0} s",
                k + 1,
                y,
                started.elapsed().as_secs_f64()
            );
        }
    }
    let tuned = with(&table, &params, &theta);
    let base = values(&with(&table, &params, &start_theta));
    let score = duel(&values(&tuned), &base, check / 2, seed ^ 0xc4ec, threads);
    let se = (score * (1.0 - score) / check as f64).sqrt();
    println!(
        "tuned table against the starting one: {:.2}% ± {:.2} over {check} games ({:.0} s in all)",
        100.0 * score,
        196.0 * se,
        started.elapsed().as_secs_f64()
    );
    let header = format!(
        "# Tuned by self-play from {}:\n\
         # `cargo run --release -p bots --example tune -- --steps {steps} --games {games} --seed {seed} --check {check}`\n\
         # Against the table it started from: {:.2}% over {check} games.\n#\n",
        from.as_deref()
            .map_or("crates/bots/data/heuristic.toml".into(), |p| p
                .display()
                .to_string()),
        100.0 * score
    );
    let layout = layout.as_deref().map_or_else(|| EMBEDDED.to_string(), read);
    std::fs::write(&out, render(&layout, &tuned, &header)).expect("the output file");
    println!("written to {}", out.display());
}
