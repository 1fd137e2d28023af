//! The arena: a round robin between bots, with a win-rate matrix and Bradley–Terry ratings. The
//! `realms arena` command and the Python package (locally or on a Ray cluster) play and report
//! through this crate, so that the same seed gives the same report everywhere.
//!
//! # The games
//!
//! Every pair of bots plays `--games` games in each format of `--formats`. The games come in
//! *deals*: a deal is one game seed (the same shuffles, the same first seat) played twice, once
//! from each side, so that neither bot of a pair is favoured by the cards or by moving first.
//! An odd `--games` is therefore rounded up to the next even number.
//!
//! In formats of more than two seats, the table holds the smallest even number of seats the
//! format allows (`free_for_all`, `hunter`, `hunter_first_blood`, `hydra` and `raid`: 4,
//! `emperor`: 6) and each bot of the pair plays every seat of one side: in formats without
//! teams the seats alternate (`a, b, a, b`), in team formats each bot plays a whole team (in a
//! raid one bot is the Boss and the other all the Elite Soldiers; the mirrored game swaps them).
//! A bot wins a game when the game's winners are seats of its side only; anything else is a
//! draw. Every format thus works with every pair.
//!
//! A deal's seed is derived from `--seed`, the format, the two bots' names and the deal number,
//! and each seat's bot seed from the deal's seed, the side and the seat (SplitMix64, as in
//! `realms simulate`). So the results are the same whatever the number of threads, and the
//! games of a pair do not change when other bots join the arena or the bots are listed in
//! another order. With *the same deals* (`--same-deals`), a deal's seed leaves the names out:
//! every pair plays the same deals, and so do two arenas of the same seed whatever their bots,
//! which compares two versions of a bot against one opponent on the same cards.
//!
//! # The statistics
//!
//! - The win rate of a row bot against a column bot counts draws as half a win, with a 95%
//!   Wilson score interval over the games of the pair.
//! - Ratings: Bradley–Terry strengths fitted by Hunter's (2004) MM algorithm on the wins of
//!   every pair (a draw is half a win for each), pooled over the formats, with one virtual drawn
//!   game per pair as a weak prior (it keeps a clean sweep finite). They are shown on the Elo
//!   scale, `400·log10(strength)`, with mean 0: a difference of 100 points means an expected
//!   score of 64%, 191 points 75%. Their uncertainty comes from a bootstrap: 200 resamples
//!   (seeded from `--seed`) that redraw, within every pair and format, its deals with
//!   replacement (a deal's two mirrored games stay together), refit, and give the standard error
//!   and the 2.5–97.5% percentile interval of each rating.
//!
//! Bad options are refused before any game is played: fewer than two bots, a bot or a format
//! named twice (a bot against itself is `realms simulate`'s job), an unknown bot or format,
//! no games.

pub mod forest;
pub mod simulation;

use std::fmt::Write as _;
use std::path::PathBuf;

use bots::{Bot, play_game};
use game::{State as _, mix_seed as mix};
use i18n::{Lang, t, tf};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use starrealms::{Config, Edition, Format, State};

/// Most deals handed to a worker at a time (each is two games); fewer when there are few
/// deals, so that slow bots still keep every thread busy.
pub const CHUNK: u64 = 32;

/// Bootstrap resamples behind each rating's uncertainty.
pub const RESAMPLES: usize = 200;

/// Virtual drawn games added to every pair before fitting the ratings.
pub const PRIOR_GAMES: f64 = 1.0;

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

// ----- seeds -------------------------------------------------------------------------------------

/// FNV-1a: a stable hash of a name (unlike std's hasher, the same on every build).
pub fn name_hash(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The seed of a deal: the base seed, the format, the pair (as its two names in sorted order,
/// so that the listing order of `--bots` does not matter) and the deal number.
pub fn deal_seed(base: u64, format: Format, first: &str, second: &str, deal: u64) -> u64 {
    let (lo, hi) = if first <= second {
        (first, second)
    } else {
        (second, first)
    };
    [name_hash(format.name()), name_hash(lo), name_hash(hi), deal]
        .into_iter()
        .fold(mix(base), |z, part| mix(z ^ mix(part)))
}

/// The seed of a deal that every pair plays ([`Plan::same_deals`]): the base seed, the format and
/// the deal number.
pub fn common_deal_seed(base: u64, format: Format, deal: u64) -> u64 {
    [name_hash(format.name()), deal]
        .into_iter()
        .fold(mix(base ^ COMMON_DEALS), |z, part| mix(z ^ mix(part)))
}

/// Sets the common deals' seeds apart from those of any pair.
const COMMON_DEALS: u64 = 0x5eed_dea1;

/// The seed of the bot at `seat` in the game of a deal played from `side` (0 or 1).
pub fn bot_seed(deal_seed: u64, side: u8, seat: usize) -> u64 {
    mix(deal_seed ^ mix(((side as u64) << 8) | (seat as u64 + 1)))
}

// ----- the schedule and the games ----------------------------------------------------------------

/// Everything the games depend on, checked.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The bots, by name.
    pub bots: Vec<String>,
    /// The pairs of bots, as indices into `bots` (`a < b`).
    pub pairs: Vec<(usize, usize)>,
    /// The formats, with the table each is played on.
    pub formats: Vec<Config>,
    /// Deals per pair and format (each is two games).
    pub deals: u64,
    /// The base seed.
    pub seed: u64,
    /// The rule edition.
    pub edition: Edition,
    /// Whether every pair plays the same deals ([`common_deal_seed`]) rather than deals of its
    /// own ([`deal_seed`]).
    pub same_deals: bool,
}

/// The side (0 or 1) that plays `seat`: alternate seats, or whole teams in team formats.
pub fn side_of(config: &Config, seat: usize) -> usize {
    config.team_of(seat) as usize % 2
}

/// The smallest even number of seats `format` allows.
pub fn arena_seats(format: Format) -> u8 {
    let allowed = format.seats();
    allowed
        .iter()
        .copied()
        .find(|n| n % 2 == 0)
        .unwrap_or(allowed[0])
}

/// One game of the arena.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    /// The format (index into `Plan::formats`).
    pub format: usize,
    /// The pair (index into `Plan::pairs`).
    pub pair: usize,
    /// The deal number within the pair and format.
    pub deal: u64,
    /// The game's seed.
    pub seed: u64,
    /// The bot (index into `Plan::bots`) playing side 0 (p1's side).
    pub home: usize,
    /// The bot whose seat moved first.
    pub first: usize,
    /// The winning bot, `None` for a draw.
    pub winner: Option<usize>,
    /// Turns played.
    pub turns: u32,
}

impl Plan {
    /// Games each pair plays in each format.
    pub fn games_per_pair(&self) -> u64 {
        2 * self.deals
    }

    /// Games of the whole plan.
    pub fn total_games(&self) -> u64 {
        self.formats.len() as u64 * self.pairs.len() as u64 * self.games_per_pair()
    }

    /// The bot playing side 0 in the game of `pair` played from `side`: the pair's
    /// alphabetically first bot from side 0, the other from side 1.
    pub fn home(&self, pair: usize, side: u8) -> usize {
        let (a, b) = self.pairs[pair];
        let a_first = self.bots[a] <= self.bots[b];
        if a_first == (side == 0) { a } else { b }
    }

    /// Plays deal `index` of the schedule (formats, then pairs, then deals) from both sides.
    pub fn play_deal(&self, index: u64) -> [GameResult; 2] {
        let per_format = self.pairs.len() as u64 * self.deals;
        let format = (index / per_format) as usize;
        let pair = ((index % per_format) / self.deals) as usize;
        let deal = index % self.deals;
        let config = &self.formats[format];
        let (a, b) = self.pairs[pair];
        let seed = if self.same_deals {
            common_deal_seed(self.seed, config.format, deal)
        } else {
            deal_seed(self.seed, config.format, &self.bots[a], &self.bots[b], deal)
        };
        [0u8, 1].map(|side| {
            let home = self.home(pair, side);
            let away = if home == a { b } else { a };
            let owner = |seat: usize| {
                if side_of(config, seat) == 0 {
                    home
                } else {
                    away
                }
            };
            let mut players: Vec<Box<dyn Bot<State>>> = (0..config.seats as usize)
                .map(|seat| {
                    bots::starrealms::by_name(&self.bots[owner(seat)], bot_seed(seed, side, seat))
                        .expect("the names are checked before the run")
                })
                .collect();
            let state = State::new_game(config, seed).expect("the configuration is checked");
            let end = play_game(state, &mut players, |_, _, _| {});
            let mut winners: Vec<usize> = end.winners().iter().map(|s| owner(s.index())).collect();
            winners.sort_unstable();
            winners.dedup();
            GameResult {
                format,
                pair,
                deal,
                seed,
                home,
                first: owner(end.first.index()),
                winner: match winners[..] {
                    [one] => Some(one),
                    _ => None,
                },
                turns: end.turn,
            }
        })
    }

    /// Deals in the schedule.
    pub fn total_deals(&self) -> u64 {
        self.total_games() / 2
    }

    /// Plays the deals of `range` (schedule order), each from both sides: what a worker of a
    /// local thread pool or of a cluster is given.
    pub fn play_deals(&self, range: std::ops::Range<u64>) -> Vec<GameResult> {
        range.flat_map(|d| self.play_deal(d)).collect()
    }

    /// The seats (`p1 p3`) of `bot` in `game`.
    pub fn seats_of(&self, game: &GameResult, bot: usize) -> String {
        let config = &self.formats[game.format];
        let home_side = if game.home == bot { 0 } else { 1 };
        (0..config.seats as usize)
            .filter(|&s| side_of(config, s) == home_side)
            .map(|s| format!("p{}", s + 1))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

// ----- statistics --------------------------------------------------------------------------------

/// Wilson score interval at 95% for a score of `k` (draws counting half) in `n` games.
pub fn wilson(k: f64, n: f64) -> [f64; 2] {
    if n <= 0.0 {
        return [0.0, 1.0];
    }
    let p = k / n;
    let denom = 1.0 + Z95 * Z95 / n;
    let centre = (p + Z95 * Z95 / (2.0 * n)) / denom;
    let half = Z95 * ((p * (1.0 - p) + Z95 * Z95 / (4.0 * n)) / n).sqrt() / denom;
    [(centre - half).max(0.0), (centre + half).min(1.0)]
}

/// Bradley–Terry ratings on the Elo scale (`400·log10(strength)`, mean 0) from a score matrix:
/// `wins[i][j]` is what `i` scored against `j` (wins plus half the draws), so that
/// `wins[i][j] + wins[j][i]` is the number of games of the pair.
///
/// `prior` virtual drawn games are added to every pair that played (0 for the plain maximum
/// likelihood, which is infinite for a bot that never scored). The strengths are fitted by
/// Hunter's (2004) MM algorithm: `p_i ← W_i / Σ_j n_ij / (p_i + p_j)`, renormalised to a
/// geometric mean of 1 at each step, until they move by less than 1e-12 (in log).
pub fn bradley_terry(wins: &[Vec<f64>], prior: f64) -> Vec<f64> {
    let n = wins.len();
    let score = |i: usize, j: usize| {
        let games = wins[i][j] + wins[j][i];
        if games > 0.0 {
            wins[i][j] + prior / 2.0
        } else {
            0.0
        }
    };
    let total: Vec<f64> = (0..n)
        .map(|i| (0..n).filter(|&j| j != i).map(|j| score(i, j)).sum())
        .collect();
    let mut log_p = vec![0.0f64; n];
    for _ in 0..100_000 {
        let p: Vec<f64> = log_p.iter().map(|l| l.exp()).collect();
        let mut next: Vec<f64> = (0..n)
            .map(|i| {
                let denom: f64 = (0..n)
                    .filter(|&j| j != i)
                    .map(|j| (score(i, j) + score(j, i)) / (p[i] + p[j]))
                    .sum();
                if denom > 0.0 {
                    (total[i] / denom).max(1e-300).ln()
                } else {
                    log_p[i]
                }
            })
            .collect();
        let mean = next.iter().sum::<f64>() / n as f64;
        next.iter_mut().for_each(|l| *l -= mean);
        let moved = next
            .iter()
            .zip(&log_p)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        log_p = next;
        if moved < 1e-12 {
            break;
        }
    }
    log_p
        .iter()
        .map(|l| 400.0 * l / std::f64::consts::LN_10)
        .collect()
}

/// The percentile `q` (0–1) of sorted values, interpolated.
fn percentile(sorted: &[f64], q: f64) -> f64 {
    let pos = q * (sorted.len() - 1) as f64;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}

/// Wins, draws and games of every ordered pair.
#[derive(Clone, Debug)]
struct Tally {
    wins: Vec<Vec<u64>>,
    draws: Vec<Vec<u64>>,
}

impl Tally {
    fn new(n: usize) -> Tally {
        Tally {
            wins: vec![vec![0; n]; n],
            draws: vec![vec![0; n]; n],
        }
    }

    fn of<'a>(plan: &Plan, games: impl Iterator<Item = &'a GameResult>) -> Tally {
        let mut tally = Tally::new(plan.bots.len());
        for g in games {
            let (a, b) = plan.pairs[g.pair];
            match g.winner {
                Some(w) => tally.wins[w][if w == a { b } else { a }] += 1,
                None => {
                    tally.draws[a][b] += 1;
                    tally.draws[b][a] += 1;
                }
            }
        }
        tally
    }

    fn games(&self, i: usize, j: usize) -> u64 {
        self.wins[i][j] + self.wins[j][i] + self.draws[i][j]
    }

    /// What `i` scored against `j`: wins and half the draws.
    fn score(&self, i: usize, j: usize) -> f64 {
        self.wins[i][j] as f64 + self.draws[i][j] as f64 / 2.0
    }

    fn scores(&self) -> Vec<Vec<f64>> {
        let n = self.wins.len();
        (0..n)
            .map(|i| (0..n).map(|j| self.score(i, j)).collect())
            .collect()
    }

    fn sweeps(&self, bots: &[String]) -> Vec<Sweep> {
        let n = bots.len();
        let mut out = Vec::new();
        for i in 0..n {
            for j in (0..n).filter(|&j| j != i) {
                let games = self.games(i, j);
                if games > 0 && self.wins[i][j] == games {
                    let lower = wilson(games as f64, games as f64)[0];
                    out.push(Sweep {
                        winner: bots[i].clone(),
                        loser: bots[j].clone(),
                        games,
                        win_rate_lower: lower,
                        min_rating_gap: 400.0 * (lower / (1.0 - lower)).log10(),
                    });
                }
            }
        }
        out
    }

    fn matrix(&self) -> Vec<Vec<Option<Cell>>> {
        let n = self.wins.len();
        (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| {
                        let games = self.games(i, j);
                        (i != j).then(|| Cell {
                            games,
                            wins: self.wins[i][j],
                            draws: self.draws[i][j],
                            losses: self.wins[j][i],
                            win_rate: self.score(i, j) / games.max(1) as f64,
                            ci95: wilson(self.score(i, j), games as f64),
                        })
                    })
                    .collect()
            })
            .collect()
    }
}

/// The ratings with their bootstrap uncertainty, sorted best first.
fn ratings(plan: &Plan, games: &[GameResult]) -> Vec<RatingRow> {
    let n = plan.bots.len();
    let tally = Tally::of(plan, games.iter());
    let point = bradley_terry(&tally.scores(), PRIOR_GAMES);
    // What the pair's first bot scored in each deal, in half points (0 to 4), per
    // (format, pair) group; the games come in schedule order, two per deal.
    let groups: Vec<Vec<u8>> = games
        .chunks(2 * plan.deals as usize)
        .map(|group| {
            group
                .chunks(2)
                .map(|deal| {
                    let a = plan.pairs[deal[0].pair].0;
                    deal.iter()
                        .map(|g| match g.winner {
                            Some(w) if w == a => 2,
                            Some(_) => 0,
                            None => 1,
                        })
                        .sum()
                })
                .collect()
        })
        .collect();
    let pairs_per_format = plan.pairs.len();
    let samples: Vec<Vec<f64>> = {
        (0..RESAMPLES)
            .into_par_iter()
            .map(|r| {
                let mut rng = game::rng_from_seed(mix(plan.seed ^ mix(0xb007 + r as u64)));
                let mut scores = vec![vec![0.0; n]; n];
                for (k, deals) in groups.iter().enumerate() {
                    let (a, b) = plan.pairs[k % pairs_per_format];
                    for _ in 0..deals.len() {
                        let half_points = deals[game::below(&mut rng, deals.len())] as f64;
                        scores[a][b] += half_points / 2.0;
                        scores[b][a] += 2.0 - half_points / 2.0;
                    }
                }
                bradley_terry(&scores, PRIOR_GAMES)
            })
            .collect()
    };
    let mut rows: Vec<RatingRow> = (0..n)
        .map(|i| {
            let mut values: Vec<f64> = samples.iter().map(|s| s[i]).collect();
            values.sort_by(f64::total_cmp);
            let mean = values.iter().sum::<f64>() / values.len() as f64;
            let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>()
                / (values.len() - 1).max(1) as f64;
            let played: u64 = (0..n).filter(|&j| j != i).map(|j| tally.games(i, j)).sum();
            let scored: f64 = (0..n).filter(|&j| j != i).map(|j| tally.score(i, j)).sum();
            RatingRow {
                bot: plan.bots[i].clone(),
                rating: point[i],
                se: var.sqrt(),
                ci95: [percentile(&values, 0.025), percentile(&values, 0.975)],
                games: played,
                score: scored / played.max(1) as f64,
            }
        })
        .collect();
    rows.sort_by(|x, y| y.rating.total_cmp(&x.rating));
    rows
}

// ----- the report --------------------------------------------------------------------------------

/// One cell of the win-rate matrix: the row bot against the column bot.
#[derive(Serialize, Debug, Clone)]
pub struct Cell {
    /// Games of the pair.
    pub games: u64,
    /// Wins of the row bot.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses of the row bot.
    pub losses: u64,
    /// Wins plus half the draws, over the games.
    pub win_rate: f64,
    /// 95% Wilson interval of the win rate.
    pub ci95: [f64; 2],
}

/// One bot's rating.
#[derive(Serialize, Debug, Clone)]
pub struct RatingRow {
    /// The bot.
    pub bot: String,
    /// Its rating (Elo scale, mean 0).
    pub rating: f64,
    /// Standard error of the rating over the bootstrap resamples.
    pub se: f64,
    /// 2.5 and 97.5 percentiles of the rating over the bootstrap resamples.
    pub ci95: [f64; 2],
    /// Its games.
    pub games: u64,
    /// Wins plus half the draws, over every game of the bot.
    pub score: f64,
}

/// The win-rate matrix of one format.
#[derive(Serialize, Debug)]
pub struct FormatMatrix {
    /// The format.
    pub format: Format,
    /// `matrix[i][j]`: bot `i` against bot `j` (`null` on the diagonal).
    pub matrix: Vec<Vec<Option<Cell>>>,
}

/// A pair where one bot won every game: the bootstrap sees no spread there.
#[derive(Serialize, Debug, Clone)]
pub struct Sweep {
    /// The bot that won every game.
    pub winner: String,
    /// The bot that lost every game.
    pub loser: String,
    /// Games of the pair.
    pub games: u64,
    /// Lower end of the 95% Wilson interval of the winner's rate.
    pub win_rate_lower: f64,
    /// The rating gap that rate means: the smallest gap the pair's games support.
    pub min_rating_gap: f64,
}

/// How the ratings are made, for the reader of summary.json.
#[derive(Serialize, Debug)]
pub struct RatingMethod {
    /// The model.
    pub model: &'static str,
    /// The rating scale.
    pub scale: &'static str,
    /// What fixes the ratings' level.
    pub anchor: &'static str,
    /// Virtual drawn games added to each pair.
    pub prior_drawn_games_per_pair: f64,
    /// Bootstrap resamples.
    pub bootstrap_resamples: usize,
    /// What the bootstrap redraws.
    pub bootstrap_unit: &'static str,
}

/// The summary: summary.json and the `--json` output.
#[derive(Serialize, Debug)]
pub struct Summary {
    /// The bots.
    pub bots: Vec<String>,
    /// The formats.
    pub formats: Vec<Format>,
    /// The rule edition.
    pub edition: Edition,
    /// The base seed.
    pub seed: u64,
    /// Whether every pair played the same deals.
    pub same_deals: bool,
    /// Games per pair and format.
    pub games_per_pair: u64,
    /// Deals per pair and format.
    pub deals_per_pair: u64,
    /// Games played.
    pub games: u64,
    /// Draws.
    pub draws: u64,
    /// Mean turns per game.
    pub mean_turns: f64,
    /// `matrix[i][j]`: bot `i` against bot `j` over every format (`null` on the diagonal).
    pub matrix: Vec<Vec<Option<Cell>>>,
    /// The matrix of each format.
    pub by_format: Vec<FormatMatrix>,
    /// The ratings, best first.
    pub ratings: Vec<RatingRow>,
    /// Pairs where one bot won every game: their gap rests on the prior, and the bootstrap
    /// intervals leave their uncertainty out.
    pub clean_sweeps: Vec<Sweep>,
    /// How the ratings are made.
    pub rating_method: RatingMethod,
    /// Threads or workers that played.
    pub threads: usize,
    /// Seconds spent playing.
    pub seconds: f64,
    /// Games per second.
    pub games_per_second: f64,
}

fn pct(lang: Lang, x: f64) -> String {
    i18n::percent(lang, x, 1)
}

/// Lays out rows of cells in columns: left-aligned where `left[c]`, right-aligned elsewhere.
fn table(rows: &[Vec<String>], left: &[bool]) -> String {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in rows {
        let mut line = String::from(" ");
        for (c, cell) in row.iter().enumerate() {
            let w = widths[c];
            if left.get(c).copied().unwrap_or(false) {
                let _ = write!(line, " {cell:<w$}");
            } else {
                let _ = write!(line, " {cell:>w$}");
            }
            line.push_str("  ");
        }
        out += line.trim_end();
        out.push('\n');
    }
    out
}

fn matrix_text(bots: &[String], matrix: &[Vec<Option<Cell>>], lang: Lang) -> String {
    let mut rows = vec![
        std::iter::once(String::new())
            .chain(bots.iter().cloned())
            .collect(),
    ];
    for (i, row) in matrix.iter().enumerate() {
        let mut cells = vec![bots[i].clone()];
        for cell in row {
            cells.push(match cell {
                None => "—".to_string(),
                Some(c) => format!(
                    "{} [{} – {}]",
                    pct(lang, c.win_rate),
                    pct(lang, c.ci95[0]),
                    pct(lang, c.ci95[1])
                ),
            });
        }
        rows.push(cells);
    }
    table(&rows, &[true])
}

/// The text report in `lang`, naming the files written.
pub fn render(s: &Summary, lang: Lang, files: &[PathBuf]) -> String {
    let formats: Vec<&str> = s.formats.iter().map(|f| f.name()).collect();
    let mut out = tf(
        lang,
        "arena.header",
        &[
            ("bots", &s.bots.join(", ")),
            ("formats", &formats.join(", ")),
            ("games", &s.games_per_pair),
            ("seed", &s.seed),
            ("threads", &s.threads),
        ],
    );
    if s.same_deals {
        out += t(lang, "arena.same_deals");
    }
    out += "\n\n";
    out += t(lang, "arena.matrix_title");
    out.push('\n');
    out += &matrix_text(&s.bots, &s.matrix, lang);
    if s.by_format.len() > 1 {
        for m in &s.by_format {
            out.push('\n');
            out += &tf(lang, "arena.format_title", &[("format", &m.format.name())]);
            out.push('\n');
            out += &matrix_text(&s.bots, &m.matrix, lang);
        }
    }
    out.push('\n');
    out += &tf(
        lang,
        "arena.ratings_title",
        &[("resamples", &s.rating_method.bootstrap_resamples)],
    );
    out.push('\n');
    let mut rows = vec![vec![
        String::new(),
        t(lang, "arena.col.bot").to_string(),
        t(lang, "arena.col.rating").to_string(),
        t(lang, "arena.col.se").to_string(),
        t(lang, "arena.col.ci").to_string(),
        t(lang, "arena.col.score").to_string(),
    ]];
    for (rank, r) in s.ratings.iter().enumerate() {
        rows.push(vec![
            format!("{}.", rank + 1),
            r.bot.clone(),
            format!("{:+.0}", r.rating),
            format!("± {:.0}", r.se),
            format!("[{:+.0}, {:+.0}]", r.ci95[0], r.ci95[1]),
            pct(lang, r.score),
        ]);
    }
    out += &table(&rows, &[false, true]);
    for sweep in &s.clean_sweeps {
        out += &tf(
            lang,
            "arena.sweep",
            &[
                ("winner", &sweep.winner),
                ("loser", &sweep.loser),
                ("games", &sweep.games),
            ],
        );
        out.push('\n');
        if sweep.min_rating_gap > 0.0 {
            out += &tf(
                lang,
                "arena.sweep_bound",
                &[
                    ("lower", &pct(lang, sweep.win_rate_lower)),
                    ("gap", &i18n::decimal(lang, sweep.min_rating_gap, 0)),
                ],
            );
            out.push('\n');
        }
    }
    out.push('\n');
    out += &tf(
        lang,
        "arena.totals",
        &[
            ("games", &s.games),
            ("draws", &s.draws),
            ("turns", &i18n::decimal(lang, s.mean_turns, 1)),
            ("seconds", &i18n::decimal(lang, s.seconds, 2)),
            ("rate", &i18n::decimal(lang, s.games_per_second, 0)),
        ],
    );
    out.push('\n');
    let files: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    out += &tf(lang, "arena.files", &[("files", &files.join(", "))]);
    out.push('\n');
    out
}

// ----- files -------------------------------------------------------------------------------------

/// A CSV field, quoted when it must be.
pub fn csv_field(s: &str) -> String {
    let quote = '\x22';
    if s.contains([',', quote, '\n', '\r']) {
        let doubled = s.replace(quote, "\x22\x22");
        format!("{quote}{doubled}{quote}")
    } else {
        s.to_string()
    }
}

/// Every game as a CSV line (`games.csv`).
pub fn games_csv(plan: &Plan, games: &[GameResult]) -> String {
    let mut out =
        String::from("format,pair,bot_a,bot_b,deal,seed,seats_a,seats_b,first,winner,turns\n");
    for g in games {
        let (a, b) = plan.pairs[g.pair];
        let winner = g.winner.map_or("draw", |w| plan.bots[w].as_str());
        let fields = [
            plan.formats[g.format].format.name().to_string(),
            g.pair.to_string(),
            plan.bots[a].clone(),
            plan.bots[b].clone(),
            g.deal.to_string(),
            g.seed.to_string(),
            plan.seats_of(g, a),
            plan.seats_of(g, b),
            plan.bots[g.first].clone(),
            winner.to_string(),
            g.turns.to_string(),
        ];
        let line: Vec<String> = fields.iter().map(|f| csv_field(f)).collect();
        out += &line.join(",");
        out.push('\n');
    }
    out
}

/// The ratings with their 95% intervals as an SVG plot, best at the top.
pub fn ratings_svg(ratings: &[RatingRow], lang: Lang) -> Result<String, String> {
    let rows: Vec<forest::Row<'_>> = ratings
        .iter()
        .map(|r| forest::Row {
            label: &r.bot,
            estimate: r.rating,
            ci95: r.ci95,
        })
        .collect();
    forest::Forest {
        title: t(lang, "arena.svg_title"),
        axis: t(lang, "arena.svg_axis"),
        dense: false,
        min_pad: 10.0,
    }
    .svg(&rows)
}

// ----- planning and summing up -------------------------------------------------------------------

impl Plan {
    /// Checks the options and builds the plan, before anything is played: at least two bots,
    /// each known and named once, at least one game, each format known and named once.
    /// Errors are in `lang`.
    pub fn new(
        bots: &[String],
        games: u64,
        formats: &[String],
        edition: Edition,
        seed: u64,
        lang: Lang,
    ) -> Result<Plan, String> {
        for name in bots {
            bots::starrealms::by_name(name, 0).map_err(|e| e.text(lang))?;
        }
        if bots.len() < 2 {
            return Err(tf(lang, "arena.err.few_bots", &[("n", &bots.len())]));
        }
        for (i, name) in bots.iter().enumerate() {
            if bots[..i].contains(name) {
                return Err(tf(lang, "arena.err.duplicate_bot", &[("name", name)]));
            }
        }
        if games == 0 {
            return Err(t(lang, "cmd.err.games").to_string());
        }
        let mut chosen: Vec<Format> = Vec::new();
        for name in formats {
            let format: Format = name.parse().map_err(|_| {
                let known: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
                tf(
                    lang,
                    "arena.err.format",
                    &[("name", name), ("known", &known.join(", "))],
                )
            })?;
            if chosen.contains(&format) {
                return Err(tf(
                    lang,
                    "arena.err.duplicate_format",
                    &[("name", &format.name())],
                ));
            }
            chosen.push(format);
        }
        let n = bots.len();
        Ok(Plan {
            bots: bots.to_vec(),
            pairs: (0..n)
                .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
                .collect(),
            formats: chosen
                .into_iter()
                .map(|format| Config {
                    seats: arena_seats(format),
                    format,
                    edition,
                    ..Config::default()
                })
                .collect(),
            deals: games.div_ceil(2),
            seed,
            edition,
            same_deals: false,
        })
    }

    /// The `size` of the pieces the deals are handed out in to `workers` workers: small enough
    /// to keep each busy, at most [`CHUNK`].
    pub fn chunk_size(&self, workers: usize) -> u64 {
        (self.total_deals() / (8 * workers.max(1) as u64)).clamp(1, CHUNK)
    }
}

/// Sums up the games of a plan (in schedule order, as [`Plan::play_deals`] gives them): the
/// matrices, the ratings and their bootstrap (in the current rayon pool; the result does not
/// depend on it), the sweeps. `threads` and `seconds` describe the run.
pub fn summarize(plan: &Plan, games: &[GameResult], threads: usize, seconds: f64) -> Summary {
    let tally = Tally::of(plan, games.iter());
    Summary {
        bots: plan.bots.clone(),
        formats: plan.formats.iter().map(|c| c.format).collect(),
        edition: plan.edition,
        seed: plan.seed,
        same_deals: plan.same_deals,
        games_per_pair: plan.games_per_pair(),
        deals_per_pair: plan.deals,
        games: games.len() as u64,
        draws: games.iter().filter(|g| g.winner.is_none()).count() as u64,
        mean_turns: games.iter().map(|g| g.turns as f64).sum::<f64>() / games.len().max(1) as f64,
        matrix: tally.matrix(),
        by_format: (0..plan.formats.len())
            .map(|f| FormatMatrix {
                format: plan.formats[f].format,
                matrix: Tally::of(plan, games.iter().filter(|g| g.format == f)).matrix(),
            })
            .collect(),
        ratings: ratings(plan, games),
        clean_sweeps: tally.sweeps(&plan.bots),
        rating_method: RatingMethod {
            model: "bradley_terry_mm",
            scale: "400*log10(strength)",
            anchor: "mean_zero",
            prior_drawn_games_per_pair: PRIOR_GAMES,
            bootstrap_resamples: RESAMPLES,
            bootstrap_unit: "deal",
        },
        threads,
        seconds,
        games_per_second: games.len() as f64 / seconds.max(1e-9),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() < tol
    }

    #[test]
    fn three_to_one_is_a_191_point_difference() {
        let ratings = bradley_terry(&[vec![0.0, 75.0], vec![25.0, 0.0]], 0.0);
        let expected = 400.0 * 3f64.log10();
        assert!(close(expected, 190.849, 1e-3));
        assert!(
            close(ratings[0] - ratings[1], expected, 1e-6),
            "{ratings:?}"
        );
        assert!(close(ratings[0] + ratings[1], 0.0, 1e-9), "mean 0");
    }

    #[test]
    fn the_fit_recovers_known_strengths() {
        // Expected scores of three bots rated +200, 0, -200 over 1000 games a pair.
        let truth = [200.0, 0.0, -200.0];
        let expect =
            |i: usize, j: usize| 1000.0 / (1.0 + 10f64.powf((truth[j] - truth[i]) / 400.0));
        let wins: Vec<Vec<f64>> = (0..3)
            .map(|i| {
                (0..3)
                    .map(|j| if i == j { 0.0 } else { expect(i, j) })
                    .collect()
            })
            .collect();
        let ratings = bradley_terry(&wins, 0.0);
        for (r, t) in ratings.iter().zip(truth) {
            assert!(close(*r, t, 1e-6), "{ratings:?}");
        }
    }

    #[test]
    fn ratings_do_not_depend_on_the_order_of_the_bots() {
        let wins = vec![
            vec![0.0, 30.0, 12.5, 40.0],
            vec![10.0, 0.0, 22.0, 35.5],
            vec![27.5, 18.0, 0.0, 9.0],
            vec![0.0, 4.5, 31.0, 0.0],
        ];
        let base = bradley_terry(&wins, PRIOR_GAMES);
        for order in [[3, 2, 1, 0], [1, 3, 0, 2], [2, 0, 3, 1]] {
            let permuted: Vec<Vec<f64>> = order
                .iter()
                .map(|&i| order.iter().map(|&j| wins[i][j]).collect())
                .collect();
            let ratings = bradley_terry(&permuted, PRIOR_GAMES);
            for (k, &i) in order.iter().enumerate() {
                assert!(close(ratings[k], base[i], 1e-6), "{order:?}");
            }
        }
    }

    #[test]
    fn a_clean_sweep_stays_finite_with_the_prior() {
        let ratings = bradley_terry(&[vec![0.0, 40.0], vec![0.0, 0.0]], PRIOR_GAMES);
        // 40.5 to 0.5: 400·log10(81) ≈ 763.
        assert!(close(ratings[0] - ratings[1], 400.0 * 81f64.log10(), 1e-6));
    }

    #[test]
    fn wilson_takes_half_points() {
        let [lo, hi] = wilson(50.0, 100.0);
        assert!(close(lo, 0.4038, 1e-4) && close(hi, 0.5962, 1e-4));
        let [lo, hi] = wilson(0.0, 10.0);
        assert!(lo == 0.0 && close(hi, 0.2775, 1e-4));
        let [lo, hi] = wilson(5.5, 10.0);
        assert!(lo < 0.55 && 0.55 < hi);
    }

    #[test]
    fn mirrored_games_share_a_seed_that_ignores_the_bot_order() {
        let s = deal_seed(1, Format::Standard, "random", "heuristic", 3);
        assert_eq!(s, deal_seed(1, Format::Standard, "heuristic", "random", 3));
        assert_ne!(s, deal_seed(1, Format::Standard, "heuristic", "random", 4));
        assert_ne!(s, deal_seed(2, Format::Standard, "heuristic", "random", 3));
        assert_ne!(s, deal_seed(1, Format::Hunter, "heuristic", "random", 3));
        assert_ne!(bot_seed(s, 0, 0), bot_seed(s, 1, 0));
        assert_ne!(bot_seed(s, 0, 0), bot_seed(s, 0, 1));
    }

    #[test]
    fn with_the_same_deals_two_arenas_of_one_seed_play_the_same_cards_whatever_their_bots() {
        let plan = |bots: [&str; 3], same_deals| {
            let bots: Vec<String> = bots.iter().map(|b| b.to_string()).collect();
            let mut plan = Plan::new(
                &bots,
                4,
                &["standard".to_string()],
                Edition::default(),
                7,
                Lang::En,
            )
            .unwrap();
            plan.same_deals = same_deals;
            plan
        };
        let seeds = |plan: &Plan| -> Vec<u64> {
            (0..plan.total_deals())
                .map(|d| plan.play_deal(d)[0].seed)
                .collect()
        };
        let one = plan(["random", "heuristic", "easy"], true);
        let other = plan(["random", "velocity", "attack"], true);
        let (a, b) = (seeds(&one), seeds(&other));
        // Three pairs of two deals each: every pair plays deals 0 and 1, the same in both arenas.
        assert_eq!(a, b);
        assert_eq!(a[..2], a[2..4]);
        assert_ne!(a[0], a[1]);
        assert_ne!(a[0], common_deal_seed(8, Format::Standard, 0));
        // Without it, each pair deals its own cards.
        let own = seeds(&plan(["random", "heuristic", "easy"], false));
        assert_ne!(own[..2], own[2..4]);
        assert_ne!(
            own[..2],
            seeds(&plan(["random", "velocity", "attack"], false))[..2]
        );
        // The report says so.
        let games = one.play_deals(0..one.total_deals());
        let text = render(&summarize(&one, &games, 1, 1.0), Lang::En, &[]);
        assert!(text.contains("the same deals for every pair"), "{text}");
    }

    #[test]
    fn every_format_has_an_even_table_split_between_two_sides() {
        for format in Format::ALL {
            let config = Config {
                seats: arena_seats(format),
                format,
                ..Config::default()
            };
            config.validate().unwrap();
            let sides: Vec<usize> = (0..config.seats as usize)
                .map(|s| side_of(&config, s))
                .collect();
            assert!(sides.contains(&0) && sides.contains(&1), "{format:?}");
        }
    }

    #[test]
    fn a_deal_is_played_from_both_sides() {
        let plan = Plan {
            bots: vec!["random".into(), "heuristic".into()],
            pairs: vec![(0, 1)],
            formats: vec![Config::default()],
            deals: 1,
            seed: 5,
            edition: Edition::default(),
            same_deals: false,
        };
        let [one, two] = plan.play_deal(0);
        assert_eq!(one.seed, two.seed);
        assert_ne!(one.home, two.home);
        // "heuristic" sorts first: it plays p1 in the deal's first game.
        assert_eq!(one.home, 1);
        assert_eq!(plan.seats_of(&one, 1), "p1");
        assert_eq!(plan.seats_of(&two, 1), "p2");
        assert_eq!(plan.play_deal(0), [one, two], "a deal replays exactly");
    }

    #[test]
    fn csv_fields_are_quoted_when_needed() {
        assert_eq!(csv_field("random"), "random");
        assert_eq!(csv_field("a,b"), "\x22a,b\x22");
        assert_eq!(csv_field("a\x22b"), "\x22a\x22\x22b\x22");
    }
}
