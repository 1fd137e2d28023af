//! Simulations: many games between bots, game `i` fully defined by the base seed and `i` (its
//! game seed and its bots' seeds are derived from them), the results summed in integers, so
//! that the report is the same whatever the number of threads or of cluster workers.

use bots::{Bot, play_game};
use game::{Seat, mix_seed as mix};
use i18n::{Lang, t, tf};
use serde::{Deserialize, Serialize};

/// Games handed to a worker at a time (and a progress bar's step).
pub const CHUNK: u64 = 64;

/// A game whose simulations are reported: who moved first, how many turns.
pub trait Played: bots::NamedBots<Config: Sync> + 'static {
    /// The seat that played first.
    fn first_of(&self) -> Seat;
    /// Turns played.
    fn turns_of(&self) -> u32;
    /// How many cards of each kind the game holds, all zones together: the same at the end of
    /// a game as at its start, or a rule lost or made a card.
    fn card_census(&self) -> Vec<usize>;
}

impl Played for starrealms::State {
    fn first_of(&self) -> Seat {
        self.first
    }
    fn turns_of(&self) -> u32 {
        self.turn
    }
    fn card_census(&self) -> Vec<usize> {
        self.card_counts()
    }
}

impl Played for cosmique::State {
    fn first_of(&self) -> Seat {
        self.first
    }
    fn turns_of(&self) -> u32 {
        self.turn
    }
    fn card_census(&self) -> Vec<usize> {
        self.card_counts().to_vec()
    }
}

/// Plays the games of `range` and adds them up.
pub fn play_games<S: Played>(
    players: &[String],
    config: &S::Config,
    base: u64,
    range: std::ops::Range<u64>,
) -> Tally {
    range
        .map(|g| play_one::<S>(players, config, base, g))
        .fold(Tally::new(players.len()), Tally::merge)
}

/// What the run is, for its report.
pub struct Run<'a> {
    /// The game's label (`starrealms`, `cosmique standard`).
    pub game: &'a str,
    /// The Star Realms format and edition.
    pub format: Option<(starrealms::Format, starrealms::Edition)>,
    /// The bots, by seat.
    pub players: &'a [String],
    /// The base seed.
    pub seed: u64,
    /// Threads or workers that played.
    pub threads: usize,
    /// Seconds spent playing.
    pub seconds: f64,
}

/// The report of a simulation's tally.
pub fn report(tally: &Tally, run: &Run<'_>) -> Report {
    let n = tally.games as f64;
    let mean = tally.turns as f64 / n.max(1.0);
    let var = (tally.turns_squared as f64 / n.max(1.0) - mean * mean).max(0.0);
    let decided = tally.games - tally.draws;
    Report {
        games: tally.games,
        game: run.game.to_string(),
        format: run.format.map(|f| f.0),
        edition: run.format.map(|f| f.1),
        players: run.players.to_vec(),
        seed: run.seed,
        threads: run.threads,
        win_rate: tally.wins.iter().map(|&w| w as f64 / n).collect(),
        win_rate_ci95: tally
            .wins
            .iter()
            .map(|&w| wilson_count(w, tally.games))
            .collect(),
        wins: tally.wins.clone(),
        draws: tally.draws,
        first_player_wins: tally.first_player_wins,
        first_player_win_rate: tally.first_player_wins as f64 / (decided.max(1)) as f64,
        first_player_win_rate_ci95: wilson_count(tally.first_player_wins, decided),
        mean_turns: mean,
        sd_turns: var.sqrt(),
        min_turns: tally.min_turns,
        max_turns: tally.max_turns,
        mean_actions: tally.actions as f64 / n.max(1.0),
        cards_conserved: tally.conserved,
        seconds: run.seconds,
        games_per_second: n / run.seconds.max(1e-9),
    }
}

/// What games of one simulation add up to: sums in integers, so that the order in which
/// pieces are merged (threads, cluster workers) never changes the result.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    /// Games played.
    pub games: u64,
    /// Games won by each seat.
    pub wins: Vec<u64>,
    /// Draws.
    pub draws: u64,
    /// Games won by the seat that moved first.
    pub first_player_wins: u64,
    /// Turns, summed.
    pub turns: u64,
    /// Squared turns, summed.
    pub turns_squared: u128,
    /// Fewest turns of a game.
    pub min_turns: u32,
    /// Most turns of a game.
    pub max_turns: u32,
    /// Actions, summed.
    pub actions: u64,
    /// Games that ended with every card they started with, no more, no fewer.
    #[serde(default)]
    pub conserved: u64,
}

impl Tally {
    /// Nothing yet, for `seats` seats.
    pub fn new(seats: usize) -> Tally {
        Tally {
            wins: vec![0; seats],
            min_turns: u32::MAX,
            ..Tally::default()
        }
    }

    /// Both tallies together.
    pub fn merge(mut self, o: Tally) -> Tally {
        self.games += o.games;
        for (a, b) in self.wins.iter_mut().zip(&o.wins) {
            *a += b;
        }
        self.draws += o.draws;
        self.first_player_wins += o.first_player_wins;
        self.turns += o.turns;
        self.turns_squared += o.turns_squared;
        self.min_turns = self.min_turns.min(o.min_turns);
        self.max_turns = self.max_turns.max(o.max_turns);
        self.actions += o.actions;
        self.conserved += o.conserved;
        self
    }
}

/// Plays game `game` of a simulation: its seed and its bots' seeds come from the base seed and
/// the game's number only.
pub fn play_one<S: Played>(players: &[String], config: &S::Config, base: u64, game: u64) -> Tally {
    let seed = mix(base ^ mix(game));
    let mut bots: Vec<Box<dyn Bot<S>>> = players
        .iter()
        .enumerate()
        .map(|(i, name)| {
            S::bot(name, mix(seed.wrapping_add(i as u64 + 1)))
                .expect("names are checked before the run")
        })
        .collect();
    let state = S::new_game(config, seed).expect("the configuration is checked");
    let census = state.card_census();
    let mut actions = 0u64;
    let end = play_game(state, &mut bots, |_, _, _| actions += 1);
    let mut tally = Tally::new(players.len());
    tally.games = 1;
    let winners = end.winners();
    if winners.is_empty() {
        tally.draws = 1;
    }
    for w in &winners {
        tally.wins[w.index()] += 1;
    }
    tally.first_player_wins = winners.contains(&end.first_of()) as u64;
    let turns = end.turns_of();
    tally.turns = turns as u64;
    tally.turns_squared = (turns as u128).pow(2);
    tally.min_turns = turns;
    tally.max_turns = turns;
    tally.actions = actions;
    tally.conserved = (end.card_census() == census) as u64;
    tally
}

/// Wilson score interval at 95% for `k` successes in `n` trials.
fn wilson_count(k: u64, n: u64) -> [f64; 2] {
    if n == 0 {
        return [0.0, 1.0];
    }
    let (n, p, z) = (n as f64, k as f64 / n as f64, 1.959_963_984_540_054);
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * ((p * (1.0 - p) + z * z / (4.0 * n)) / n).sqrt() / denom;
    [(centre - half).max(0.0), (centre + half).min(1.0)]
}

/// The report, also the `--json` output.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Report {
    /// Games played.
    pub games: u64,
    /// The game (`starrealms`, `cosmique standard` …).
    pub game: String,
    /// The Star Realms format.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<starrealms::Format>,
    /// The Star Realms edition.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edition: Option<starrealms::Edition>,
    /// The bots, by seat.
    pub players: Vec<String>,
    /// The base seed.
    pub seed: u64,
    /// Threads or workers that played.
    pub threads: usize,
    /// Wins of each seat.
    pub wins: Vec<u64>,
    /// Win rate of each seat.
    pub win_rate: Vec<f64>,
    /// 95% Wilson interval of each win rate.
    pub win_rate_ci95: Vec<[f64; 2]>,
    /// Draws.
    pub draws: u64,
    /// Wins of the seat that moved first.
    pub first_player_wins: u64,
    /// Its win rate over the decided games.
    pub first_player_win_rate: f64,
    /// Its 95% Wilson interval.
    pub first_player_win_rate_ci95: [f64; 2],
    /// Mean turns per game.
    pub mean_turns: f64,
    /// Standard deviation of the turns.
    pub sd_turns: f64,
    /// Fewest turns.
    pub min_turns: u32,
    /// Most turns.
    pub max_turns: u32,
    /// Mean actions per game.
    pub mean_actions: f64,
    /// Games that ended with exactly the cards they started with (all of them, or a rule is
    /// wrong).
    #[serde(default)]
    pub cards_conserved: u64,
    /// Seconds spent playing.
    pub seconds: f64,
    /// Games per second.
    pub games_per_second: f64,
}

fn pct(lang: Lang, x: f64) -> String {
    i18n::percent(lang, x, 2)
}

/// The text report in `lang`.
pub fn render(r: &Report, lang: Lang) -> String {
    let mut out = tf(
        lang,
        "sim.header",
        &[
            ("games", &r.games),
            (
                "format",
                &r.format
                    .map_or_else(|| r.game.clone(), |f| f.name().to_string()),
            ),
            ("players", &r.players.join(" / ")),
            ("seed", &r.seed),
            ("threads", &r.threads),
        ],
    );
    out.push('\n');
    for (i, name) in r.players.iter().enumerate() {
        let [lo, hi] = r.win_rate_ci95[i];
        out += &format!(
            "  p{} {:<10} {}\n",
            i + 1,
            name,
            tf(
                lang,
                "sim.wins",
                &[
                    ("wins", &r.wins[i]),
                    ("rate", &pct(lang, r.win_rate[i])),
                    ("lo", &pct(lang, lo)),
                    ("hi", &pct(lang, hi)),
                ]
            )
        );
    }
    if r.draws > 0 {
        out += &format!("  {}\n", tf(lang, "sim.draws", &[("n", &r.draws)]));
    }
    let [lo, hi] = r.first_player_win_rate_ci95;
    out += &tf(
        lang,
        "sim.first_player",
        &[
            ("wins", &r.first_player_wins),
            ("rate", &pct(lang, r.first_player_win_rate)),
            ("lo", &pct(lang, lo)),
            ("hi", &pct(lang, hi)),
        ],
    );
    out.push('\n');
    out += &tf(
        lang,
        "sim.length",
        &[
            ("mean", &i18n::decimal(lang, r.mean_turns, 1)),
            ("sd", &i18n::decimal(lang, r.sd_turns, 1)),
            ("min", &r.min_turns),
            ("max", &r.max_turns),
            ("actions", &i18n::decimal(lang, r.mean_actions, 0)),
        ],
    );
    out.push('\n');
    out += &tf(
        lang,
        if r.cards_conserved == r.games {
            "sim.conserved"
        } else {
            "sim.not_conserved"
        },
        &[("n", &r.cards_conserved), ("games", &r.games)],
    );
    out.push('\n');
    out += &tf(
        lang,
        "sim.speed",
        &[
            ("rate", &i18n::decimal(lang, r.games_per_second, 0)),
            ("seconds", &i18n::decimal(lang, r.seconds, 2)),
        ],
    );
    out.push('\n');
    out += t(lang, "sim.ci_note");
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_matches_known_values() {
        // 50 of 100: 95% Wilson interval [0.4038, 0.5962].
        let [lo, hi] = wilson_count(50, 100);
        assert!((lo - 0.4038).abs() < 1e-4 && (hi - 0.5962).abs() < 1e-4);
        // 0 of 10: [0, 0.2775].
        let [lo, hi] = wilson_count(0, 10);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.2775).abs() < 1e-4);
    }

    #[test]
    fn seeds_of_consecutive_games_differ() {
        assert_ne!(mix(1 ^ mix(0)), mix(1 ^ mix(1)));
        assert_eq!(mix(0), 0xe220_a839_7b1d_cdaf);
    }

    #[test]
    fn a_game_keeps_its_cards_and_a_report_says_when_one_did_not() {
        let players = ["heuristic".to_string(), "random".to_string()];
        let config = starrealms::Config::default();
        let t = play_one::<starrealms::State>(&players, &config, 3, 0);
        assert_eq!(t.conserved, 1, "a game of the base set keeps every card");
        let run = Run {
            game: "starrealms",
            format: None,
            players: &players,
            seed: 3,
            threads: 1,
            seconds: 1.0,
        };
        let mut tally = t.clone().merge(t);
        let ok = render(&report(&tally, &run), Lang::En);
        assert!(
            ok.contains(
                "Cards conserved: every game ended with the cards it started with (2 of 2)"
            ),
            "{ok}"
        );
        tally.conserved = 1;
        let bad = render(&report(&tally, &run), Lang::En);
        assert!(
            bad.contains("CARDS NOT CONSERVED: only 1 of 2 games"),
            "{bad}"
        );
    }
}
