//! Many games stepped together: the batched environment of learning loops.

use bots::{Bot, NamedBots, SeatView};
use game::{Action as _, Seat, State, mix_seed};

use crate::{Encoder, Encoding, final_reward, write_mask};

/// Who plays the seats the caller does not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// Nobody: the caller plays every seat, and each row is the seat to move.
    SelfPlay,
    /// A bot of this name plays every seat but the learner's, which turns from game to game
    /// (game `k` of environment `i` seats the learner at `(i + k) % seats`).
    Bot(String),
}

/// An action the batched environment refused; nothing was applied, in any game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepError {
    /// The game (row) whose action is refused.
    pub env: usize,
    /// What is wrong, in words.
    pub message: String,
}

impl std::fmt::Display for StepError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "game {}: {}", self.env, self.message)
    }
}

impl std::error::Error for StepError {}

struct Env<S: State> {
    state: S,
    legal: Vec<S::Action>,
    /// Games begun in this environment (the current one included).
    games: u64,
    learner: Seat,
    bots: Vec<Box<dyn Bot<S>>>,
    /// No action of the caller's applied yet.
    fresh: bool,
}

/// `num_envs` games of one configuration, each row the view of the seat to move (or, against a
/// bot, of the learner). A game that ends is replaced at once by the next one: the row then
/// shows the new game, and `dones` says the old one ended.
pub struct VecEnv<S: Encoding + NamedBots> {
    config: S::Config,
    encoder: S::Encoder,
    seed: u64,
    opponent: Opponent,
    envs: Vec<Env<S>>,
    observations: usize,
    /// Draws [`VecEnv::sample_actions`].
    sampler: game::GameRng,
}

/// Sets the sampler's stream apart from the games' seeds.
const SAMPLER: u64 = 0x5a3b_1e5f_0000_0001;

/// The seed of game `k` of environment `i`.
fn game_seed(seed: u64, i: usize, k: u64) -> u64 {
    mix_seed(seed ^ mix_seed(((i as u64) << 32) ^ k))
}

impl<S: Encoding + NamedBots> VecEnv<S> {
    /// `num_envs` games of `config` from `seed`. Fails, in words, on a configuration the game
    /// refuses or an unknown bot.
    pub fn new(
        config: S::Config,
        num_envs: usize,
        seed: u64,
        opponent: Opponent,
    ) -> Result<VecEnv<S>, String> {
        if num_envs == 0 {
            return Err("a batched environment needs at least one game".into());
        }
        S::new_game(&config, seed)?;
        if let Opponent::Bot(name) = &opponent {
            S::bot(name, 0)?;
        }
        let encoder = S::encoder(&config);
        let mut env = VecEnv {
            config,
            encoder,
            seed,
            opponent,
            envs: Vec::with_capacity(num_envs),
            observations: 0,
            sampler: game::rng_from_seed(mix_seed(seed ^ SAMPLER)),
        };
        for i in 0..num_envs {
            let e = env.start(i, 0)?;
            env.envs.push(e);
        }
        Ok(env)
    }

    /// Games stepped per call.
    pub fn num_envs(&self) -> usize {
        self.envs.len()
    }

    /// Length of one observation row.
    pub fn observation_size(&self) -> usize {
        self.encoder.size()
    }

    /// Length of one mask row (the action space).
    pub fn action_space(&self) -> usize {
        S::Action::space_size()
    }

    /// The encoder of the rows.
    pub fn encoder(&self) -> &S::Encoder {
        &self.encoder
    }

    /// Observations encoded so far (rows written by `reset` and `step`).
    pub fn observations(&self) -> usize {
        self.observations
    }

    fn start(&self, i: usize, k: u64) -> Result<Env<S>, String> {
        let gs = game_seed(self.seed, i, k);
        let state = S::new_game(&self.config, gs)?;
        let seats = state.num_seats();
        let (learner, bots) = match &self.opponent {
            Opponent::SelfPlay => (Seat(0), Vec::new()),
            Opponent::Bot(name) => {
                let bots = (0..seats)
                    .map(|s| S::bot(name, mix_seed(gs.wrapping_add(1 + s as u64))))
                    .collect::<Result<Vec<_>, _>>()?;
                (Seat(((i as u64 + k) % seats as u64) as u8), bots)
            }
        };
        let mut env = Env {
            state,
            legal: Vec::new(),
            games: k + 1,
            learner,
            bots,
            fresh: true,
        };
        env.state.legal_actions_into(&mut env.legal);
        Ok(env)
    }

    /// Lets the bots play until the learner must decide or the game is over.
    fn bots_play(env: &mut Env<S>) {
        if env.bots.is_empty() {
            return;
        }
        while let Some(seat) = env.state.to_move() {
            if seat == env.learner {
                break;
            }
            let action = {
                let view = SeatView::of_state(&env.state, seat);
                env.bots[seat.index()].choose(&view, &env.legal)
            };
            bots::show_others(
                &env.state,
                env.bots.iter_mut().map(|b| Some(&mut **b)),
                seat,
                action,
            );
            env.state.apply_legal(action);
            env.state.legal_actions_into(&mut env.legal);
        }
    }

    /// The seat whose view row `i` shows.
    fn viewer(&self, env: &Env<S>) -> Seat {
        match self.opponent {
            Opponent::SelfPlay => env.state.to_move().unwrap_or(Seat(0)),
            Opponent::Bot(_) => env.learner,
        }
    }

    fn write_row(&mut self, i: usize, obs: &mut [f32], mask: &mut [u8], seats: &mut [u8]) {
        let n = self.encoder.size();
        let a = S::Action::space_size();
        let env = &self.envs[i];
        let seat = self.viewer(env);
        self.encoder
            .encode(&env.state.observation(seat), &mut obs[i * n..(i + 1) * n]);
        write_mask(&env.legal, &mut mask[i * a..(i + 1) * a]);
        seats[i] = seat.0;
        self.observations += 1;
    }

    fn check_buffers(&self, obs: &[f32], mask: &[u8], seats: &[u8]) {
        let n = self.envs.len();
        assert_eq!(
            obs.len(),
            n * self.encoder.size(),
            "observation buffer size"
        );
        assert_eq!(mask.len(), n * S::Action::space_size(), "mask buffer size");
        assert_eq!(seats.len(), n, "seat buffer size");
    }

    /// Starts a new game in every environment (the next of each one's sequence; a game where
    /// the caller has not acted yet is kept) and writes the first rows.
    pub fn reset(&mut self, obs: &mut [f32], mask: &mut [u8], seats: &mut [u8]) {
        self.check_buffers(obs, mask, seats);
        for i in 0..self.envs.len() {
            if !self.envs[i].fresh {
                let k = self.envs[i].games;
                self.envs[i] = self.start(i, k).expect("the configuration was accepted");
            }
            Self::bots_play(&mut self.envs[i]);
            self.restart_if_over(i);
            self.write_row(i, obs, mask, seats);
        }
    }

    /// Writes one uniformly random legal action per game into `out` (for random baselines and
    /// exploration), drawn from a stream of the environment's seed.
    pub fn sample_actions(&mut self, out: &mut [i64]) {
        assert_eq!(out.len(), self.envs.len(), "one action per game");
        for (o, env) in out.iter_mut().zip(&self.envs) {
            let a = env.legal[game::below(&mut self.sampler, env.legal.len())];
            *o = a.index() as i64;
        }
    }

    /// Restarts the seed sequence from `seed`: the next [`VecEnv::reset`] begins game 0 of
    /// every environment.
    pub fn reseed(&mut self, seed: u64) {
        self.seed = seed;
        self.sampler = game::rng_from_seed(mix_seed(seed ^ SAMPLER));
        for e in &mut self.envs {
            e.games = 0;
            e.fresh = false;
        }
    }

    fn restart_if_over(&mut self, i: usize) {
        // Against bots a game could end before the learner's first decision; play on.
        while self.envs[i].state.is_terminal() {
            let k = self.envs[i].games;
            self.envs[i] = self.start(i, k).expect("the configuration was accepted");
            Self::bots_play(&mut self.envs[i]);
        }
    }

    /// Applies one action per game (a dense index, legal in that row's mask). Every action is
    /// checked before any is applied: an illegal one is refused and no game changes.
    /// `rewards[i]` is the final reward of the seat that acted (of the learner against bots)
    /// when its game ended, 0 otherwise; `dones[i]` is 1 when the game ended (the row then
    /// shows the next game).
    pub fn step(
        &mut self,
        actions: &[i64],
        obs: &mut [f32],
        mask: &mut [u8],
        rewards: &mut [f32],
        dones: &mut [u8],
        seats: &mut [u8],
    ) -> Result<(), StepError> {
        self.check_buffers(obs, mask, seats);
        assert_eq!(actions.len(), self.envs.len(), "one action per game");
        assert_eq!(rewards.len(), self.envs.len(), "reward buffer size");
        assert_eq!(dones.len(), self.envs.len(), "done buffer size");
        let mut chosen = Vec::with_capacity(actions.len());
        for (i, (&a, env)) in actions.iter().zip(&self.envs).enumerate() {
            let found = usize::try_from(a)
                .ok()
                .and_then(|a| env.legal.iter().find(|l| l.index() == a));
            match found {
                Some(&action) => chosen.push(action),
                None => {
                    let what = usize::try_from(a)
                        .ok()
                        .and_then(S::Action::from_index)
                        .map_or(format!("{a} is not an action index"), |x| {
                            format!("action {a} (`{x}`) is not legal now")
                        });
                    return Err(StepError {
                        env: i,
                        message: what,
                    });
                }
            }
        }
        for (i, action) in chosen.into_iter().enumerate() {
            let env = &mut self.envs[i];
            let actor = match self.opponent {
                Opponent::SelfPlay => env.state.to_move().expect("a legal action"),
                Opponent::Bot(_) => env.learner,
            };
            env.fresh = false;
            bots::show_others(
                &env.state,
                env.bots.iter_mut().map(|b| Some(&mut **b)),
                actor,
                action,
            );
            env.state.apply_legal(action);
            env.state.legal_actions_into(&mut env.legal);
            Self::bots_play(env);
            if env.state.is_terminal() {
                rewards[i] = final_reward(&env.state, actor);
                dones[i] = 1;
                let k = env.games;
                self.envs[i] = self.start(i, k).expect("the configuration was accepted");
                Self::bots_play(&mut self.envs[i]);
                self.restart_if_over(i);
            } else {
                rewards[i] = 0.0;
                dones[i] = 0;
            }
            self.write_row(i, obs, mask, seats);
        }
        Ok(())
    }

    /// The state of game `i` (for tests and tools: a learner must only read the rows).
    pub fn state(&self, i: usize) -> &S {
        &self.envs[i].state
    }

    /// Which game of its sequence environment `i` plays (0 for the first).
    pub fn game_number(&self, i: usize) -> u64 {
        self.envs[i].games - 1
    }

    /// The seed of the game each row shows now.
    pub fn game_seeds(&self) -> Vec<u64> {
        (0..self.envs.len())
            .map(|i| self.seed_of(i, self.game_number(i)))
            .collect()
    }

    /// The seed of game `k` of environment `i`: replaying that game from this seed with the
    /// same actions gives the same game.
    pub fn seed_of(&self, i: usize, k: u64) -> u64 {
        game_seed(self.seed, i, k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Buffers = (Vec<f32>, Vec<u8>, Vec<f32>, Vec<u8>, Vec<u8>);

    fn buffers<S: Encoding + NamedBots>(v: &VecEnv<S>) -> Buffers {
        let n = v.num_envs();
        (
            vec![0.0; n * v.observation_size()],
            vec![0; n * v.action_space()],
            vec![0.0; n],
            vec![0; n],
            vec![0; n],
        )
    }

    /// The first legal action of each row's mask.
    fn first_legal(mask: &[u8], a: usize) -> Vec<i64> {
        mask.chunks(a)
            .map(|m| m.iter().position(|&x| x == 1).unwrap() as i64)
            .collect()
    }

    #[test]
    fn rows_match_single_games_played_alike() {
        let config = starrealms::Config::default();
        let mut v =
            VecEnv::<starrealms::State>::new(config.clone(), 3, 11, Opponent::SelfPlay).unwrap();
        let (mut obs, mut mask, mut rew, mut done, mut seats) = buffers(&v);
        v.reset(&mut obs, &mut mask, &mut seats);
        let mut singles: Vec<starrealms::State> = (0..3)
            .map(|i| starrealms::State::new_game(&config, v.seed_of(i, 0)).unwrap())
            .collect();
        let enc = starrealms::State::encoder(&config);
        let n = enc.size();
        let a = v.action_space();
        let mut finished = 0;
        for _ in 0..3000 {
            let acts = first_legal(&mask, a);
            v.step(&acts, &mut obs, &mut mask, &mut rew, &mut done, &mut seats)
                .unwrap();
            for (i, s) in singles.iter_mut().enumerate() {
                let actor = s.to_move().unwrap();
                s.apply(starrealms::Action::from_index(acts[i] as usize).unwrap())
                    .unwrap();
                if s.is_terminal() {
                    assert_eq!(done[i], 1);
                    assert_eq!(rew[i], final_reward(s, actor));
                    finished += 1;
                    *s = starrealms::State::new_game(&config, v.seed_of(i, v.game_number(i)))
                        .unwrap();
                } else {
                    assert_eq!(done[i], 0);
                }
                let seat = s.to_move().unwrap();
                assert_eq!(seats[i], seat.0);
                let mut row = vec![0.0; n];
                enc.encode(&s.observation(seat), &mut row);
                assert_eq!(&obs[i * n..(i + 1) * n], &row[..]);
            }
        }
        assert!(finished > 0, "some games ended");
    }

    #[test]
    fn an_illegal_action_changes_no_game() {
        let mut v = VecEnv::<cosmique::State>::new(
            cosmique::Config::default(),
            2,
            5,
            Opponent::Bot("random".into()),
        )
        .unwrap();
        let (mut obs, mut mask, mut rew, mut done, mut seats) = buffers(&v);
        v.reset(&mut obs, &mut mask, &mut seats);
        let before: Vec<cosmique::State> = (0..2).map(|i| v.state(i).clone()).collect();
        let a = v.action_space();
        let mut acts = first_legal(&mask, a);
        let illegal = mask[a..].iter().position(|&x| x == 0).unwrap() as i64;
        acts[1] = illegal;
        let err = v
            .step(&acts, &mut obs, &mut mask, &mut rew, &mut done, &mut seats)
            .unwrap_err();
        assert_eq!(err.env, 1);
        assert!(err.to_string().contains("not legal now"), "{err}");
        acts[1] = -3;
        let err = v
            .step(&acts, &mut obs, &mut mask, &mut rew, &mut done, &mut seats)
            .unwrap_err();
        assert!(err.to_string().contains("not an action index"), "{err}");
        for (i, b) in before.iter().enumerate() {
            assert_eq!(v.state(i), b);
        }
    }

    #[test]
    fn against_a_bot_rows_are_the_learners_and_it_changes_seats() {
        let mut v = VecEnv::<starrealms::State>::new(
            starrealms::Config::default(),
            4,
            2,
            Opponent::Bot("heuristic".into()),
        )
        .unwrap();
        let (mut obs, mut mask, mut rew, mut done, mut seats) = buffers(&v);
        v.reset(&mut obs, &mut mask, &mut seats);
        assert!(seats.contains(&0) && seats.contains(&1));
        let a = v.action_space();
        let mut ended = 0;
        let mut total = 0.0;
        for _ in 0..4000 {
            for (i, &seat) in seats.iter().enumerate() {
                assert_eq!(v.state(i).to_move(), Some(Seat(seat)));
            }
            let acts = first_legal(&mask, a);
            v.step(&acts, &mut obs, &mut mask, &mut rew, &mut done, &mut seats)
                .unwrap();
            ended += done.iter().filter(|&&d| d == 1).count();
            total += rew.iter().sum::<f32>();
        }
        assert!(ended > 0);
        // Always playing the first legal action loses to the heuristic bot.
        assert!(total < 0.0, "{total} over {ended} games");
    }

    #[test]
    fn unknown_bots_and_empty_batches_are_refused_in_words() {
        let e = VecEnv::<starrealms::State>::new(
            starrealms::Config::default(),
            1,
            1,
            Opponent::Bot("grandmaster".into()),
        )
        .err()
        .unwrap();
        assert!(e.contains("grandmaster"), "{e}");
        let e = VecEnv::<starrealms::State>::new(
            starrealms::Config::default(),
            0,
            1,
            Opponent::SelfPlay,
        )
        .err()
        .unwrap();
        assert!(e.contains("at least one"), "{e}");
    }
}
