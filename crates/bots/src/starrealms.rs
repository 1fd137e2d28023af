//! Star Realms bots: `random` (the rollout policy), `heuristic`, the ISMCTS bot, and the
//! difficulty levels players choose from:
//!
//! | level | bot |
//! |---|---|
//! | `easy` | the heuristic bot with 11% random actions |
//! | `medium` | the heuristic bot |
//! | `hard` | ISMCTS; in two-player base-set games 2,000 iterations a decision whose heuristic rollouts stop after four turns and are scored by the learned value network ([`value`]), the tree leaning towards the heuristic's choices ([`HARD_POLICY_BIAS`]); elsewhere 400 iterations of rollouts to the end |
//! | `expert` | ISMCTS, heuristic rollouts; in two-player base-set games 7,000 iterations a decision (at most about 0.9 s), the tree leaning towards the heuristic's choices ([`EXPERT_POLICY_BIAS`]), its choice played over the heuristic's once better by [`EXPERT_MARGIN`], an opponent played in the rollouts as the scripted bot it reads it plays as ([`READ_SURE`]) and otherwise as the heuristic; elsewhere 2,000 |
//!
//! `tuned` is the heuristic bot with the value table tuned by self-play ([`Values::tuned`]).
//! `ismcts:<iterations>` names a search bot with any budget (heuristic rollouts),
//! `ismcts-greedy:<iterations>` one with the faster, weaker greedy rollouts,
//! `ismcts-value:<iterations>` one whose rollouts the value network cuts short (two-player
//! base-set games); `ismcts-tuned:<iterations>` and `ismcts-value-tuned:<iterations>` the same
//! searches whose rollouts and advice follow the tuned table; `ismcts-value-own:<iterations>`
//! the value search with a tree of its own decisions only; `ismcts-paired:<iterations>` the
//! heuristic search with [`PAIRED_SAMPLES`] consecutive iterations sharing one sampled state;
//! `ismcts-mixed:<iterations>` the heuristic search whose rollouts play the other seats by a
//! population of policies in turn ([`MixedRollout`]), `ismcts-model-velocity:<iterations>` the one
//! whose rollouts play the other seats as `velocity`; `ismcts-read:<iterations>` the one whose
//! rollouts play each other seat by the policies it reads that seat plays by ([`reading`]);
//! `ismcts-blend:<iterations>` the heuristic search whose rollouts, played to the end, are scored
//! half by the value network after [`BLEND_TURNS`] turns and half by the game's result;
//! `ismcts-self-learned:<iterations>` the one whose deciding seat's rollouts and advice are
//! `learned`'s, the others' the heuristic's; `ismcts-explore<c×100>:<iterations>` the heuristic
//! search with another exploration constant (`ismcts-explore35:2000`: 0.35 instead of 0.7), and
//! `ismcts-value-explore<c×100>:<iterations>` the value search with it;
//! `ismcts-value-turns<turns>:<iterations>` the value search cut after another number of turns;
//! `ismcts-value-learned:<iterations>` the value search advised by `learned`;
//! `ismcts-bias<w×10>:<iterations>` and `ismcts-value-bias<w×10>:<iterations>` the heuristic and
//! value searches whose tree leans towards the rollout policy's choices
//! ([`Settings::policy_bias`] `w`: `ismcts-value-bias10` leans with weight 1);
//! `ismcts-own-bias<w×10>:<iterations>` the heuristic search leaning so in a tree of its own
//! decisions only, and `ismcts-read-bias<w×10>:<iterations>` the one whose rollouts also play
//! each other seat by the policies it reads that seat plays by; `ismcts-sure-bias<w×10>:<iterations>`
//! the one that plays a seat as the heuristic until it reads, with a chance of at least
//! [`READ_SURE`], that the seat plays by another policy, and `ismcts-spot-bias<w×10>:<iterations>`
//! the same taking a seat only for a scripted bot (`velocity`, `attack`);
//! `ismcts-lean-bias<w×10>:<iterations>` that search leaning at its own nodes towards
//! `learned`'s choices rather than the heuristic's; `ismcts-mirror-bias<w×10>:<iterations>` the
//! sure reading whose own seat plays its rollouts by the heuristic its opponent is played by;
//! `ismcts-keep-bias<w×10>:<iterations>` the `spot` search that starts each decision of a turn
//! from the tree its last decision grew ([`Settings::keep_tree`]); `ismcts-margin<m×1000>:<iterations>`
//! the `spot` search (leaning by [`EXPERT_POLICY_BIAS`]) whose choice must beat the advice by
//! `m` thousandths rather than [`SEARCH_MARGIN`] (`ismcts-margin30:7000` plays two-player base-set
//! games as `expert` did before its margin there became [`EXPERT_MARGIN`]).

use game::GameRng;
use starrealms::{Action, State, rollout};

use crate::ismcts::{Budget, Settings};
use crate::{Bot, SeatView, UnknownBot};

pub mod buyer;
mod heuristic;
pub mod reading;
mod search;
pub mod value;

pub use heuristic::{BuyScores, HeuristicBot, SCRIPTED, ScriptedBot, Values, ValuesError};
pub use search::{
    GreedyRollout, HeuristicRollout, MixedRollout, NoisyBot, SEARCH_MARGIN, ScriptedRollout,
    SearchBot, search_settings,
};

/// The searches [`by_name`] knows by a pattern: `<iterations>` (at least 1) after the colon,
/// and a number in place of the other `<…>`.
pub const PATTERNS: &[&str] = &[
    "ismcts:<iterations>",
    "ismcts-work:<work>",
    "ismcts-greedy:<iterations>",
    "ismcts-value:<iterations>",
    "ismcts-blend:<iterations>",
    "ismcts-tuned:<iterations>",
    "ismcts-value-tuned:<iterations>",
    "ismcts-value-learned:<iterations>",
    "ismcts-value-own:<iterations>",
    "ismcts-learned:<iterations>",
    "ismcts-self-learned:<iterations>",
    "ismcts-paired:<iterations>",
    "ismcts-mixed:<iterations>",
    "ismcts-model-velocity:<iterations>",
    "ismcts-read:<iterations>",
    "ismcts-explore<c×100>:<iterations>",
    "ismcts-value-explore<c×100>:<iterations>",
    "ismcts-value-turns<turns>:<iterations>",
    "ismcts-bias<w×10>:<iterations>",
    "ismcts-own-bias<w×10>:<iterations>",
    "ismcts-read-bias<w×10>:<iterations>",
    "ismcts-sure-bias<w×10>:<iterations>",
    "ismcts-spot-bias<w×10>:<iterations>",
    "ismcts-lean-bias<w×10>:<iterations>",
    "ismcts-mirror-bias<w×10>:<iterations>",
    "ismcts-keep-bias<w×10>:<iterations>",
    "ismcts-margin<m×1000>:<iterations>",
    "ismcts-value-bias<w×10>:<iterations>",
];

/// The names [`by_name`] knows (and the [`PATTERNS`]).
pub const NAMES: &[&str] = &[
    "random",
    "heuristic",
    "easy",
    "medium",
    "tuned",
    "learned",
    "velocity",
    "attack",
    "hard",
    "expert",
];

/// Iterations a decision of the `hard` level.
pub const HARD_ITERATIONS: u32 = 400;
/// Iterations a decision of the `expert` level in two-player base-set games (within 1 s a
/// decision on one core, `docs/ai.md`).
pub const EXPERT_ITERATIONS: u32 = 7000;
/// Iterations a decision of the `expert` level in the other games (more players or more card
/// sets: longer rollouts, so fewer of them in the same time).
pub const EXPERT_OTHER_ITERATIONS: u32 = 2000;
/// The work ([`Budget::Work`]) of one search iteration in a two-player base-set game's first
/// turns, whose rollouts are the longest (some 240 actions, and the iteration's own
/// [`crate::ismcts::ITERATION_WORK`]): a cap of `n` iterations a decision allows `n` times this
/// much work.
pub const WORK_PER_ITERATION: u64 = 250;
/// Percentage of the `easy` level's moves that are random: `medium` then wins about 76% of
/// their games, some 200 Elo (`docs/ai.md`).
pub const EASY_NOISE: u32 = 11;
/// Consecutive iterations of `ismcts-paired` that search the same sampled state.
pub const PAIRED_SAMPLES: u32 = 8;
/// Turns a rollout plays before the value network scores it.
pub const VALUE_TURNS: u32 = 4;
/// Turns a blended rollout plays before the value network's estimate is noted.
pub const BLEND_TURNS: u32 = 4;
/// The value network's weight in a blended rollout's score (the game's result has the rest).
pub const BLEND_WEIGHT: f64 = 0.5;
/// Iterations a decision of the `hard` level in the games the value network knows (two
/// players, the base set), where its rollouts stop after [`VALUE_TURNS`] turns.
pub const HARD_VALUE_ITERATIONS: u32 = 2000;
/// How much the `hard` level's tree leans towards the heuristic's choices
/// ([`Settings::policy_bias`]) in the games the value network knows (elsewhere it does not).
pub const HARD_POLICY_BIAS: f64 = 3.0;
/// How much the `expert` level's tree leans towards the heuristic's choices in the games the
/// value network knows (elsewhere it does not).
pub const EXPERT_POLICY_BIAS: f64 = 3.0;
/// How much better (in mean result) the `expert` level's search must find its choice than the
/// heuristic's advice to play it instead, in the games the value network knows (elsewhere
/// [`SEARCH_MARGIN`]).
pub const EXPERT_MARGIN: f64 = 0.01;

/// The chance from which `expert` (a scripted bot only) and `ismcts-sure-bias<w×10>:<n>` (any
/// policy) take an opponent for the policy they read it plays by (below it, for the heuristic).
pub const READ_SURE: f64 = 0.9;

/// The heuristic bot with the tuned value table.
fn tuned(seed: u64) -> HeuristicBot {
    HeuristicBot::with_values(Values::tuned().clone(), seed)
}

/// Rollouts played by the heuristic with the tuned value table.
fn tuned_rollout(seed: u64) -> HeuristicRollout {
    HeuristicRollout::with_values(Values::tuned().clone(), seed)
}

/// The tuned heuristic buying by the learned purchase network ([`buyer`]).
fn learned(seed: u64) -> HeuristicBot {
    tuned(seed).with_buyer(buyer::BuyNet::embedded().clone())
}

/// `expert`'s rollouts: the opponent played as the heuristic, or as the scripted bot it is read
/// to play as once the reading is sure of it ([`READ_SURE`]).
fn spot(seed: u64) -> MixedRollout {
    MixedRollout::reading_sure_of(READ_SURE, SCRIPTED, seed)
}

/// Builds a bot by name with its seed.
pub fn by_name(name: &str, seed: u64) -> Result<Box<dyn Bot<State>>, UnknownBot> {
    let unknown = || UnknownBot {
        name: name.to_string(),
        names: NAMES,
        patterns: PATTERNS,
    };
    Ok(match name {
        "random" => Box::new(RandomBot::new(seed)),
        "heuristic" | "medium" => Box::new(HeuristicBot::new(seed)),
        "easy" => Box::new(NoisyBot::new(EASY_NOISE, seed)),
        "tuned" => Box::new(tuned(seed)),
        "learned" => Box::new(learned(seed)),
        "velocity" | "attack" => {
            Box::new(ScriptedBot::new(name, seed).expect("a scripted bot of SCRIPTED"))
        }
        "hard" => Box::new(
            SearchBot::new(
                "hard",
                search_settings(HARD_ITERATIONS),
                value::ValueRollout::new(VALUE_TURNS, seed),
                seed,
            )
            .with_budgets(
                Budget::Iterations(HARD_VALUE_ITERATIONS),
                Budget::Iterations(HARD_ITERATIONS),
            )
            .with_biases(HARD_POLICY_BIAS, 0.0),
        ),
        // The heuristic search, its rollouts playing an opponent as the heuristic unless it
        // reads the opponent plays as one of the scripted bots (`ismcts-spot-bias30`).
        "expert" => Box::new(
            SearchBot::new(
                "expert",
                search_settings(EXPERT_ITERATIONS),
                spot(seed),
                seed,
            )
            .reading(seed)
            .with_budgets(
                Budget::Iterations(EXPERT_ITERATIONS),
                Budget::Iterations(EXPERT_OTHER_ITERATIONS),
            )
            .with_biases(EXPERT_POLICY_BIAS, 0.0)
            .with_margins(EXPERT_MARGIN, SEARCH_MARGIN),
        ),
        _ => {
            let (kind, n) = name.split_once(':').ok_or_else(unknown)?;
            let n: u32 = n.parse().ok().filter(|&n| n > 0).ok_or_else(unknown)?;
            match kind {
                // Heuristic rollouts.
                "ismcts" => Box::new(SearchBot::new(
                    name,
                    search_settings(n),
                    HeuristicRollout::new(seed),
                    seed,
                )),
                // Heuristic rollouts, the budget counted in work (actions applied and
                // iterations) rather than iterations.
                "ismcts-work" => Box::new(SearchBot::new(
                    name,
                    Settings {
                        budget: Budget::Work(u64::from(n)),
                        ..Settings::default()
                    },
                    HeuristicRollout::new(seed),
                    seed,
                )),
                // Heuristic rollouts, consecutive iterations sharing their sampled state.
                "ismcts-paired" => Box::new(SearchBot::new(
                    name,
                    Settings {
                        shared_samples: PAIRED_SAMPLES,
                        ..search_settings(n)
                    },
                    HeuristicRollout::new(seed),
                    seed,
                )),
                // Heuristic rollouts for the deciding seat, the others played by a population
                // of policies in turn.
                "ismcts-mixed" => Box::new(SearchBot::new(
                    name,
                    search_settings(n),
                    MixedRollout::new(seed),
                    seed,
                )),
                // Heuristic rollouts for the deciding seat, the others played by the policies
                // the bot reads they play by.
                "ismcts-read" => Box::new(
                    SearchBot::new(name, search_settings(n), MixedRollout::reading(seed), seed)
                        .reading(seed),
                ),
                // Heuristic rollouts for the deciding seat, the others played as `velocity`.
                "ismcts-model-velocity" => Box::new(SearchBot::new(
                    name,
                    search_settings(n),
                    MixedRollout::modelling("velocity", seed).expect("a scripted bot"),
                    seed,
                )),
                // Greedy rollouts: faster, weaker.
                "ismcts-greedy" => Box::new(SearchBot::new(
                    name,
                    search_settings(n),
                    GreedyRollout,
                    seed,
                )),
                // Heuristic rollouts cut after two turns and scored by the value network (in
                // two-player base-set games; played to the end in others).
                "ismcts-value" => Box::new(SearchBot::new(
                    name,
                    search_settings(n),
                    value::ValueRollout::new(VALUE_TURNS, seed),
                    seed,
                )),
                // Heuristic rollouts to the end, scored by the value network after
                // `BLEND_TURNS` turns and the game's result, by `BLEND_WEIGHT` (in two-player
                // base-set games; the result alone in others).
                "ismcts-blend" => Box::new(SearchBot::new(
                    name,
                    search_settings(n),
                    value::ValueRollout::blended(BLEND_TURNS, BLEND_WEIGHT, seed),
                    seed,
                )),
                // The search of `ismcts-value` over its own decisions only.
                "ismcts-value-own" => Box::new(SearchBot::new(
                    name,
                    Settings {
                        own_decisions_only: true,
                        ..search_settings(n)
                    },
                    value::ValueRollout::new(VALUE_TURNS, seed),
                    seed,
                )),
                // The search of `ismcts`, its advice and rollouts by the tuned table.
                "ismcts-tuned" => Box::new(
                    SearchBot::new(name, search_settings(n), tuned_rollout(seed), seed)
                        .with_advice(Values::tuned().clone(), seed),
                ),
                // The search of `ismcts-value`, its advice and rollouts by the tuned table.
                "ismcts-value-tuned" => Box::new(
                    SearchBot::new(
                        name,
                        search_settings(n),
                        value::ValueRollout::new(VALUE_TURNS, seed)
                            .with_rollout(tuned_rollout(seed)),
                        seed,
                    )
                    .with_advice(Values::tuned().clone(), seed),
                ),
                // The search of `ismcts-value` (`hard`'s), its advice by `learned`; the rollouts
                // stay the heuristic's, as the value network learned them.
                "ismcts-value-learned" => Box::new(
                    SearchBot::new(
                        name,
                        search_settings(n),
                        value::ValueRollout::new(VALUE_TURNS, seed),
                        seed,
                    )
                    .with_advisor(learned(search::advisor_seed(seed))),
                ),
                // The search of `ismcts`, its advice and rollouts by `learned`.
                "ismcts-learned" => Box::new(
                    SearchBot::new(
                        name,
                        search_settings(n),
                        HeuristicRollout::with_bot(learned(seed)),
                        seed,
                    )
                    .with_advisor(learned(search::advisor_seed(seed))),
                ),
                // The search of `ismcts`, the deciding seat's rollouts and the advice by
                // `learned`, the other seats' rollouts by the heuristic.
                "ismcts-self-learned" => Box::new(
                    SearchBot::new(
                        name,
                        search_settings(n),
                        MixedRollout::own_by(HeuristicRollout::with_bot(learned(seed)), seed),
                        seed,
                    )
                    .with_advisor(learned(search::advisor_seed(seed))),
                ),
                // The value search with its rollouts cut after another number of turns
                // (`ismcts-value-turns6`: six); another exploration constant (in hundredths:
                // `ismcts-explore35` explores with 0.35) or a policy bias (in tenths:
                // `ismcts-bias30` leans with 3), with heuristic rollouts or (`ismcts-value-…`)
                // the value search's; `ismcts-own-bias30`, the same lean in a tree of the
                // deciding seat's own decisions only.
                _ => {
                    // The number after `prefix` in the kind, above zero.
                    let number = |prefix: &str| {
                        kind.strip_prefix(prefix)
                            .and_then(|k| k.parse::<u32>().ok())
                            .filter(|&k| k > 0)
                    };
                    let hundredths = |prefix: &str| {
                        number(prefix).map(|c| Settings {
                            exploration: f64::from(c) / 100.0,
                            ..search_settings(n)
                        })
                    };
                    let bias = |prefix: &str| {
                        number(prefix).map(|w| Settings {
                            policy_bias: f64::from(w) / 10.0,
                            ..search_settings(n)
                        })
                    };
                    // `expert`'s search (heuristic rollouts, the lean) reading which policy
                    // each other seat plays by: its rollouts play that seat by each policy in
                    // its read share (`read`), by the one read with a chance of `READ_SURE`
                    // and as the heuristic until then (`sure`), or so only for a scripted bot
                    // (`spot`, `expert`'s), and `spot` leaning at its own nodes towards
                    // `learned`'s choices (`lean`); `sure`, its own seat playing its rollouts
                    // by the heuristic the opponent is played by (`mirror`); `spot` keeping its
                    // tree from one decision of a turn to the next (`keep`).
                    // `expert`'s search with another margin by which its choice must beat the
                    // advice (in thousandths: `ismcts-margin10` overrules it by 0.01).
                    if let Some(m) = number("ismcts-margin") {
                        let settings = Settings {
                            policy_bias: EXPERT_POLICY_BIAS,
                            ..search_settings(n)
                        };
                        let m = f64::from(m) / 1000.0;
                        let bot = SearchBot::new(name, settings, spot(seed), seed)
                            .reading(seed)
                            .with_margins(m, m);
                        return Ok(Box::new(bot));
                    }
                    let reading = if let Some(s) = bias("ismcts-read-bias") {
                        Some((s, MixedRollout::reading(seed)))
                    } else if let Some(s) = bias("ismcts-sure-bias") {
                        Some((s, MixedRollout::reading_sure(READ_SURE, seed)))
                    } else if let Some(s) = bias("ismcts-mirror-bias") {
                        let sure = MixedRollout::reading_sure(READ_SURE, seed);
                        Some((s, sure.mirroring()))
                    } else if let Some(s) = bias("ismcts-keep-bias") {
                        let keep = Settings {
                            keep_tree: true,
                            ..s
                        };
                        Some((keep, spot(seed)))
                    } else if let Some(s) = bias("ismcts-lean-bias") {
                        let lean = HeuristicRollout::with_bot(learned(seed ^ 5));
                        Some((s, spot(seed).leaning(lean)))
                    } else {
                        bias("ismcts-spot-bias").map(|s| (s, spot(seed)))
                    };
                    if let Some((settings, rollout)) = reading {
                        let bot = SearchBot::new(name, settings, rollout, seed).reading(seed);
                        return Ok(Box::new(bot));
                    }
                    if let Some(turns) = number("ismcts-value-turns") {
                        return Ok(Box::new(SearchBot::new(
                            name,
                            search_settings(n),
                            value::ValueRollout::new(turns, seed),
                            seed,
                        )));
                    }
                    // Settings varied by the name, with the value search's rollouts or the
                    // heuristic's.
                    let (settings, value) = if let Some(s) = bias("ismcts-value-bias") {
                        (s, true)
                    } else if let Some(s) = hundredths("ismcts-value-explore") {
                        (s, true)
                    } else if let Some(s) = bias("ismcts-bias") {
                        (s, false)
                    } else if let Some(s) = bias("ismcts-own-bias") {
                        let own = Settings {
                            own_decisions_only: true,
                            ..s
                        };
                        (own, false)
                    } else {
                        (hundredths("ismcts-explore").ok_or_else(unknown)?, false)
                    };
                    if value {
                        let rollout = value::ValueRollout::new(VALUE_TURNS, seed);
                        Box::new(SearchBot::new(name, settings, rollout, seed))
                    } else {
                        let rollout = HeuristicRollout::new(seed);
                        Box::new(SearchBot::new(name, settings, rollout, seed))
                    }
                }
            }
        }
    })
}

/// The random policy of [`starrealms::rollout`]: uniform over the legal actions, except that it
/// never ends its turn while a card can still be played from hand. Attack amounts, abilities,
/// purchases and every sub-decision are drawn uniformly from the legal list.
pub struct RandomBot {
    rng: GameRng,
}

impl RandomBot {
    /// A random bot with its seed.
    pub fn new(seed: u64) -> Self {
        RandomBot {
            rng: game::rng_from_seed(seed),
        }
    }
}

impl Bot<State> for RandomBot {
    fn name(&self) -> &str {
        "random"
    }

    fn choose(&mut self, _view: &SeatView<'_, State>, legal: &[Action]) -> Action {
        rollout::pick(legal, &mut self.rng)
    }
}
