//! The native part of the `realms` Python package: games, bots and the batched environment
//! over the Rust crates. The Python modules of `realms/` build the friendly API on it.

use std::any::Any;
use std::sync::Mutex;

use bots::{Bot, NamedBots, SeatView};
use game::{Action as _, GameRecord, Seat};
use learn::{Encoder as _, Encoding, Opponent, VecEnv};
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray1};
use pyo3::create_exception;
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;

create_exception!(
    _realms,
    IllegalActionError,
    PyValueError,
    "An action that is not legal now, or that does not read; the game is unchanged."
);
create_exception!(
    _realms,
    ConfigError,
    PyValueError,
    "A game configuration the game refuses, an unknown game, format, bot or card."
);
create_exception!(
    _realms,
    RecordError,
    PyValueError,
    "A game record that cannot be read or replayed."
);

type StarRealms = starrealms::State;
type Cosmique = cosmique::State;

/// One game of any kind, behind one interface.
trait AnyGame: Send + Sync {
    fn game(&self) -> &'static str;
    fn num_seats(&self) -> usize;
    fn to_move(&self) -> Option<usize>;
    fn legal(&self) -> Vec<usize>;
    fn legal_texts(&self) -> Vec<String>;
    fn apply_index(&mut self, index: i64) -> Result<(), String>;
    fn apply_text(&mut self, text: &str) -> Result<(), String>;
    fn action_text(&self, index: i64) -> Option<String>;
    fn action_index(&self, text: &str) -> Result<usize, String>;
    fn returns(&self) -> Vec<f64>;
    fn winners(&self) -> Vec<usize>;
    fn rewards(&self) -> Vec<f32>;
    fn record(&self) -> &GameRecord;
    fn observation_json(&self, seat: Seat) -> String;
    fn encode(&self, seat: Seat, out: &mut [f32]);
    fn mask(&self, out: &mut [u8]);
    fn observation_size(&self) -> usize;
    fn action_space(&self) -> usize;
    fn blocks(&self) -> Vec<learn::Block>;
    fn feature_names(&self) -> Vec<String>;
    fn config_json(&self) -> String;
    fn boxed(&self) -> Box<dyn AnyGame>;
    fn determinize(&self, seat: Seat, seed: u64) -> Box<dyn AnyGame>;
    fn sampled(&self) -> bool;
    fn as_any(&self) -> &dyn Any;
}

struct Inner<S: Encoding> {
    state: S,
    config: S::Config,
    record: GameRecord,
    encoder: S::Encoder,
    legal: Vec<S::Action>,
    /// Sampled from a seat's view: its record does not lead to it.
    sampled: bool,
}

impl<S: Encoding> Clone for Inner<S> {
    fn clone(&self) -> Self {
        Inner {
            state: self.state.clone(),
            config: self.config.clone(),
            record: self.record.clone(),
            encoder: self.encoder.clone(),
            legal: self.legal.clone(),
            sampled: self.sampled,
        }
    }
}

impl<S: Encoding> Inner<S> {
    fn new(config: S::Config, seed: u64) -> Result<Self, String> {
        let state = S::new_game(&config, seed)?;
        let record = GameRecord::new::<S>(&config, seed);
        Ok(Self::of(state, config, record))
    }

    fn of(state: S, config: S::Config, record: GameRecord) -> Self {
        let encoder = S::encoder(&config);
        let legal = state.legal_actions();
        Inner {
            state,
            config,
            record,
            encoder,
            legal,
            sampled: false,
        }
    }

    fn replay(record: GameRecord) -> Result<Self, String> {
        let state: S = record.replay().map_err(|e| e.to_string())?;
        let config: S::Config =
            serde_json::from_value(record.config.clone()).map_err(|e| e.to_string())?;
        Ok(Self::of(state, config, record))
    }

    fn apply(&mut self, action: S::Action) -> Result<(), String> {
        self.state.apply(action).map_err(|e| e.to_string())?;
        self.record.actions.push(action.to_string());
        self.state.legal_actions_into(&mut self.legal);
        Ok(())
    }
}

impl<S> AnyGame for Inner<S>
where
    S: Encoding + Sync + 'static,
    S::Config: Send + Sync,
{
    fn game(&self) -> &'static str {
        S::GAME
    }
    fn num_seats(&self) -> usize {
        self.state.num_seats()
    }
    fn to_move(&self) -> Option<usize> {
        self.state.to_move().map(Seat::index)
    }
    fn legal(&self) -> Vec<usize> {
        self.legal.iter().map(|a| a.index()).collect()
    }
    fn legal_texts(&self) -> Vec<String> {
        self.legal.iter().map(|a| a.to_string()).collect()
    }
    fn apply_index(&mut self, index: i64) -> Result<(), String> {
        let action = usize::try_from(index)
            .ok()
            .and_then(S::Action::from_index)
            .ok_or_else(|| {
                format!(
                    "{index} is not an action index (0 to {})",
                    S::Action::space_size() - 1
                )
            })?;
        self.apply(action)
    }
    fn apply_text(&mut self, text: &str) -> Result<(), String> {
        let action = S::Action::parse(text).map_err(|e| e.to_string())?;
        self.apply(action)
    }
    fn action_text(&self, index: i64) -> Option<String> {
        usize::try_from(index)
            .ok()
            .and_then(S::Action::from_index)
            .map(|a| a.to_string())
    }
    fn action_index(&self, text: &str) -> Result<usize, String> {
        S::Action::parse(text)
            .map(|a| a.index())
            .map_err(|e| e.to_string())
    }
    fn returns(&self) -> Vec<f64> {
        self.state.returns()
    }
    fn winners(&self) -> Vec<usize> {
        self.state.winners().into_iter().map(Seat::index).collect()
    }
    fn rewards(&self) -> Vec<f32> {
        (0..self.state.num_seats())
            .map(|s| learn::final_reward(&self.state, Seat(s as u8)))
            .collect()
    }
    fn record(&self) -> &GameRecord {
        &self.record
    }
    fn observation_json(&self, seat: Seat) -> String {
        serde_json::to_string(&self.state.observation(seat)).expect("observations serialize")
    }
    fn encode(&self, seat: Seat, out: &mut [f32]) {
        self.encoder.encode(&self.state.observation(seat), out);
    }
    fn mask(&self, out: &mut [u8]) {
        learn::write_mask(&self.legal, out);
    }
    fn observation_size(&self) -> usize {
        self.encoder.size()
    }
    fn action_space(&self) -> usize {
        S::Action::space_size()
    }
    fn blocks(&self) -> Vec<learn::Block> {
        self.encoder.blocks()
    }
    fn feature_names(&self) -> Vec<String> {
        self.encoder.feature_names()
    }
    fn config_json(&self) -> String {
        serde_json::to_string(&self.config).expect("configurations serialize")
    }
    fn boxed(&self) -> Box<dyn AnyGame> {
        Box::new(self.clone())
    }
    fn determinize(&self, seat: Seat, seed: u64) -> Box<dyn AnyGame> {
        use game::Observation as _;
        let state = self
            .state
            .observation(seat)
            .determinize(&mut game::rng_from_seed(seed));
        let mut g = Inner::of(state, self.config.clone(), self.record.clone());
        g.sampled = true;
        Box::new(g)
    }
    fn sampled(&self) -> bool {
        self.sampled
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The Star Realms configuration of the keyword arguments: a whole configuration (JSON), or a
/// format with its options.
fn starrealms_config(
    config: Option<&str>,
    format: Option<&str>,
    seats: Option<u8>,
    edition: Option<&str>,
    sets: Option<Vec<String>>,
) -> Result<starrealms::Config, String> {
    let mut c = match config {
        Some(json) => serde_json::from_str(json)
            .map_err(|e| format!("this is not a Star Realms configuration: {e}"))?,
        None => {
            let format: starrealms::Format = format.unwrap_or("standard").parse()?;
            if let Some(n) = seats
                && !format.seats().contains(&n)
            {
                return Err(format!(
                    "the {} format is played by {} seats, not {n}",
                    format.name(),
                    format
                        .seats()
                        .iter()
                        .map(u8::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            starrealms::Config::of_format(format, seats)
        }
    };
    if let Some(e) = edition {
        c.edition = e.parse()?;
    }
    if let Some(names) = sets {
        c.sets = starrealms::cards::Sets::from_names(&names)?;
    }
    c.validate()?;
    Ok(c)
}

fn cosmique_config(
    config: Option<&str>,
    variant: Option<&str>,
) -> Result<cosmique::Config, String> {
    let mut c = match config {
        Some(json) => serde_json::from_str(json)
            .map_err(|e| format!("this is not a Bataille Cosmique configuration: {e}"))?,
        None => cosmique::Config::default(),
    };
    if let Some(v) = variant {
        c.variant = v.parse()?;
    }
    c.validate()?;
    Ok(c)
}

fn unknown_game(game: &str) -> String {
    format!("unknown game `{game}` (known: starrealms, cosmique)")
}

/// A game of Star Realms or Bataille Cosmique.
#[pyclass(module = "realms._realms")]
struct Game {
    inner: Box<dyn AnyGame>,
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (game, seed, config=None, format=None, seats=None, edition=None, sets=None, variant=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        game: &str,
        seed: u64,
        config: Option<&str>,
        format: Option<&str>,
        seats: Option<u8>,
        edition: Option<&str>,
        sets: Option<Vec<String>>,
        variant: Option<&str>,
    ) -> PyResult<Self> {
        let inner: Result<Box<dyn AnyGame>, String> = match game {
            "starrealms" => {
                if variant.is_some() {
                    return Err(ConfigError::new_err(
                        "`variant` is an option of Bataille Cosmique; Star Realms has formats and editions",
                    ));
                }
                starrealms_config(config, format, seats, edition, sets)
                    .and_then(|c| Inner::<StarRealms>::new(c, seed))
                    .map(|g| Box::new(g) as Box<dyn AnyGame>)
            }
            "cosmique" => {
                if format.is_some() || edition.is_some() || sets.is_some() {
                    return Err(ConfigError::new_err(
                        "Bataille Cosmique has variants only (standard, incolore, pv30)",
                    ));
                }
                if seats.is_some_and(|n| n as usize != cosmique::SEATS) {
                    return Err(ConfigError::new_err(format!(
                        "Bataille Cosmique is played by {} seats",
                        cosmique::SEATS
                    )));
                }
                cosmique_config(config, variant)
                    .and_then(|c| Inner::<Cosmique>::new(c, seed))
                    .map(|g| Box::new(g) as Box<dyn AnyGame>)
            }
            other => Err(unknown_game(other)),
        };
        Ok(Game {
            inner: inner.map_err(ConfigError::new_err)?,
        })
    }

    /// Replays a game record (JSON text).
    #[staticmethod]
    fn from_record(record: &str) -> PyResult<Self> {
        let r = GameRecord::from_json(record).map_err(|e| RecordError::new_err(e.to_string()))?;
        let inner: Result<Box<dyn AnyGame>, String> = match r.game.as_str() {
            "starrealms" => Inner::<StarRealms>::replay(r).map(|g| Box::new(g) as _),
            "cosmique" => Inner::<Cosmique>::replay(r).map(|g| Box::new(g) as _),
            other => Err(unknown_game(other)),
        };
        Ok(Game {
            inner: inner.map_err(RecordError::new_err)?,
        })
    }

    #[getter]
    fn game(&self) -> &'static str {
        self.inner.game()
    }
    #[getter]
    fn num_seats(&self) -> usize {
        self.inner.num_seats()
    }
    #[getter]
    fn seed(&self) -> u64 {
        self.inner.record().seed
    }
    #[getter]
    fn config(&self) -> String {
        self.inner.config_json()
    }
    #[getter]
    fn to_move(&self) -> Option<usize> {
        self.inner.to_move()
    }
    #[getter]
    fn is_over(&self) -> bool {
        self.inner.to_move().is_none()
    }
    #[getter]
    fn observation_size(&self) -> usize {
        self.inner.observation_size()
    }
    #[getter]
    fn action_space_size(&self) -> usize {
        self.inner.action_space()
    }
    #[getter]
    fn actions_played(&self) -> usize {
        self.inner.record().actions.len()
    }

    fn legal_actions(&self) -> Vec<usize> {
        self.inner.legal()
    }
    fn legal_action_texts(&self) -> Vec<String> {
        self.inner.legal_texts()
    }
    fn action_text(&self, index: i64) -> PyResult<String> {
        self.inner.action_text(index).ok_or_else(|| {
            PyIndexError::new_err(format!(
                "{index} is not an action index (0 to {})",
                self.inner.action_space() - 1
            ))
        })
    }
    fn action_index(&self, text: &str) -> PyResult<usize> {
        self.inner
            .action_index(text)
            .map_err(IllegalActionError::new_err)
    }
    fn apply_index(&mut self, index: i64) -> PyResult<()> {
        self.inner
            .apply_index(index)
            .map_err(IllegalActionError::new_err)
    }
    fn apply_text(&mut self, text: &str) -> PyResult<()> {
        self.inner
            .apply_text(text)
            .map_err(IllegalActionError::new_err)
    }
    fn returns(&self) -> Vec<f64> {
        self.inner.returns()
    }
    fn winners(&self) -> Vec<usize> {
        self.inner.winners()
    }
    fn rewards(&self) -> Vec<f32> {
        self.inner.rewards()
    }
    fn record(&self) -> PyResult<String> {
        if self.inner.sampled() {
            return Err(RecordError::new_err(
                "a game sampled from a seat's view has no record: its hidden cards were drawn, not played",
            ));
        }
        Ok(self.inner.record().to_json())
    }
    /// A game drawn at random among those `seat` cannot tell from this one: what the seat sees
    /// is kept, hidden cards (other hands, deck orders) are dealt anew from `seed`.
    fn determinize(&self, seat: usize, seed: u64) -> PyResult<Game> {
        let seat = self.seat(seat)?;
        Ok(Game {
            inner: self.inner.determinize(seat, seed),
        })
    }
    fn observation_json(&self, seat: usize) -> PyResult<String> {
        let seat = self.seat(seat)?;
        Ok(self.inner.observation_json(seat))
    }
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        seat: usize,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let seat = self.seat(seat)?;
        let mut out = vec![0.0; self.inner.observation_size()];
        self.inner.encode(seat, &mut out);
        Ok(out.into_pyarray(py))
    }
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u8>> {
        let mut out = vec![0; self.inner.action_space()];
        self.inner.mask(&mut out);
        out.into_pyarray(py)
    }
    fn observation_blocks(&self) -> Vec<(String, usize, Vec<usize>)> {
        self.inner
            .blocks()
            .into_iter()
            .map(|b| (b.name, b.offset, b.shape))
            .collect()
    }
    fn feature_names(&self) -> Vec<String> {
        self.inner.feature_names()
    }
    fn clone(&self) -> Game {
        Game {
            inner: self.inner.boxed(),
        }
    }
}

impl Game {
    fn seat(&self, seat: usize) -> PyResult<Seat> {
        if seat >= self.inner.num_seats() {
            return Err(PyIndexError::new_err(format!(
                "seat {seat} does not exist (this game has seats 0 to {})",
                self.inner.num_seats() - 1
            )));
        }
        Ok(Seat(seat as u8))
    }
}

enum AnyBot {
    StarRealms(Box<dyn Bot<StarRealms>>),
    Cosmique(Box<dyn Bot<Cosmique>>),
}

/// A built-in bot, choosing from one seat's view.
#[pyclass(module = "realms._realms")]
struct NativeBot {
    name: String,
    game: &'static str,
    bot: Mutex<AnyBot>,
}

/// The game `g` as a game of `S`, which a bot of `S` plays.
fn game_of<S>(g: &dyn AnyGame) -> Result<&Inner<S>, String>
where
    S: Encoding + 'static,
{
    g.as_any()
        .downcast_ref::<Inner<S>>()
        .ok_or_else(|| format!("this bot plays {}, not {}", S::GAME, g.game()))
}

fn pick<S>(bot: &mut dyn Bot<S>, g: &dyn AnyGame, seat: Option<usize>) -> Result<usize, String>
where
    S: Encoding + NamedBots + Sync + 'static,
    S::Config: Send + Sync,
{
    let inner = game_of::<S>(g)?;
    let to_move = inner
        .state
        .to_move()
        .ok_or("the game is over: there is nothing to choose")?;
    if let Some(s) = seat
        && s != to_move.index()
    {
        return Err(format!(
            "seat {s} does not decide now (seat {} does)",
            to_move.index()
        ));
    }
    let view = SeatView::of_state(&inner.state, to_move);
    Ok(bot.choose(&view, &inner.legal).index())
}

/// Shows `bot`, playing `seat`, the action `index` that the seat to move of `g` is about to take.
fn show<S>(bot: &mut dyn Bot<S>, g: &dyn AnyGame, index: usize, seat: usize) -> Result<(), String>
where
    S: Encoding + NamedBots + Sync + 'static,
{
    let inner = game_of::<S>(g)?;
    let by = inner
        .state
        .to_move()
        .ok_or("the game is over: nobody acts any more")?;
    if seat >= inner.state.num_seats() {
        return Err(format!(
            "no seat {seat} in a game of {} seats",
            inner.state.num_seats()
        ));
    }
    if seat == by.index() {
        return Err(format!(
            "seat {seat} is the one acting: a bot is shown the other seats' actions"
        ));
    }
    let action = S::Action::from_index(index)
        .filter(|a| inner.legal.contains(a))
        .ok_or_else(|| format!("action {index} is not legal now"))?;
    if inner.state.is_public(&action) {
        bot.watch(
            &SeatView::of_state(&inner.state, Seat(seat as u8)),
            by,
            action,
        );
    }
    Ok(())
}

#[pymethods]
impl NativeBot {
    #[new]
    #[pyo3(signature = (name, game="starrealms", seed=0))]
    fn new(name: &str, game: &str, seed: u64) -> PyResult<Self> {
        let (game, bot) = match game {
            "starrealms" => (
                "starrealms",
                StarRealms::bot(name, seed).map(AnyBot::StarRealms),
            ),
            "cosmique" => ("cosmique", Cosmique::bot(name, seed).map(AnyBot::Cosmique)),
            other => return Err(ConfigError::new_err(unknown_game(other))),
        };
        Ok(NativeBot {
            name: name.to_string(),
            game,
            bot: Mutex::new(bot.map_err(|e| ConfigError::new_err(e.to_string()))?),
        })
    }

    #[getter]
    fn name(&self) -> &str {
        &self.name
    }
    #[getter]
    fn game(&self) -> &'static str {
        self.game
    }

    /// The action index this bot picks for the seat to move (`seat`, when given, must be it).
    #[pyo3(signature = (game, seat=None))]
    fn choose(&self, py: Python<'_>, game: &Game, seat: Option<usize>) -> PyResult<usize> {
        let mut guard = self.bot.lock().expect("a bot is never left poisoned");
        let bot: &mut AnyBot = &mut guard;
        let g: &dyn AnyGame = &*game.inner;
        py.detach(|| match bot {
            AnyBot::StarRealms(b) => pick::<StarRealms>(b.as_mut(), g, seat),
            AnyBot::Cosmique(b) => pick::<Cosmique>(b.as_mut(), g, seat),
        })
        .map_err(PyValueError::new_err)
    }

    /// Shows this bot, playing `seat`, the action the seat to move is about to take (before
    /// the game applies it); an action the table does not see is not shown.
    fn watch(&self, py: Python<'_>, game: &Game, action: usize, seat: usize) -> PyResult<()> {
        let mut guard = self.bot.lock().expect("a bot is never left poisoned");
        let bot: &mut AnyBot = &mut guard;
        let g: &dyn AnyGame = &*game.inner;
        py.detach(|| match bot {
            AnyBot::StarRealms(b) => show::<StarRealms>(b.as_mut(), g, action, seat),
            AnyBot::Cosmique(b) => show::<Cosmique>(b.as_mut(), g, action, seat),
        })
        .map_err(PyValueError::new_err)
    }
}

enum AnyVec {
    StarRealms(Box<VecEnv<StarRealms>>),
    Cosmique(Box<VecEnv<Cosmique>>),
}

macro_rules! with_vec {
    ($v:expr, $e:ident => $body:expr) => {
        match $v {
            AnyVec::StarRealms($e) => $body,
            AnyVec::Cosmique($e) => $body,
        }
    };
}

/// Output rows of the batched environment.
type Rows<'py> = (
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray2<u8>>,
    Bound<'py, PyArray1<u8>>,
);

/// Many games stepped in Rust in one call, the GIL released.
#[pyclass(module = "realms._realms")]
struct NativeVecEnv {
    env: Mutex<AnyVec>,
    num_envs: usize,
    observation_size: usize,
    action_space: usize,
}

fn rows<'py>(
    py: Python<'py>,
    n: usize,
    obs: Vec<f32>,
    size: usize,
    mask: Vec<u8>,
    actions: usize,
    seats: Vec<u8>,
) -> Rows<'py> {
    (
        Array2::from_shape_vec((n, size), obs)
            .expect("rows of the observation size")
            .into_pyarray(py),
        Array2::from_shape_vec((n, actions), mask)
            .expect("rows of the action space")
            .into_pyarray(py),
        seats.into_pyarray(py),
    )
}

#[pymethods]
impl NativeVecEnv {
    #[new]
    #[pyo3(signature = (num_envs, game, seed, opponent=None, config=None, format=None, seats=None, edition=None, sets=None, variant=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        num_envs: usize,
        game: &str,
        seed: u64,
        opponent: Option<String>,
        config: Option<&str>,
        format: Option<&str>,
        seats: Option<u8>,
        edition: Option<&str>,
        sets: Option<Vec<String>>,
        variant: Option<&str>,
    ) -> PyResult<Self> {
        let opponent = opponent.map_or(Opponent::SelfPlay, Opponent::Bot);
        let env = match game {
            "starrealms" => starrealms_config(config, format, seats, edition, sets).and_then(|c| {
                VecEnv::<StarRealms>::new(c, num_envs, seed, opponent)
                    .map(|v| AnyVec::StarRealms(Box::new(v)))
            }),
            "cosmique" => cosmique_config(config, variant).and_then(|c| {
                VecEnv::<Cosmique>::new(c, num_envs, seed, opponent)
                    .map(|v| AnyVec::Cosmique(Box::new(v)))
            }),
            other => Err(unknown_game(other)),
        }
        .map_err(ConfigError::new_err)?;
        let (observation_size, action_space) =
            with_vec!(&env, v => (v.observation_size(), v.action_space()));
        Ok(NativeVecEnv {
            env: Mutex::new(env),
            num_envs,
            observation_size,
            action_space,
        })
    }

    #[getter]
    fn num_envs(&self) -> usize {
        self.num_envs
    }
    #[getter]
    fn observation_size(&self) -> usize {
        self.observation_size
    }
    #[getter]
    fn action_space_size(&self) -> usize {
        self.action_space
    }

    /// One uniformly random legal action per game.
    fn sample_actions<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let mut out = vec![0; self.num_envs];
        let mut guard = self.env.lock().expect("never poisoned");
        with_vec!(&mut *guard, v => v.sample_actions(&mut out));
        out.into_pyarray(py)
    }

    /// The seed of the game each row shows now.
    fn game_seeds(&self) -> Vec<u64> {
        let guard = self.env.lock().expect("never poisoned");
        with_vec!(&*guard, v => v.game_seeds())
    }

    /// Restarts the sequence of games from `seed` (the next `reset` plays game 0 again).
    fn reseed(&self, seed: u64) {
        let mut guard = self.env.lock().expect("never poisoned");
        with_vec!(&mut *guard, v => v.reseed(seed));
    }

    /// New games everywhere: `(obs, mask, seats)`.
    fn reset<'py>(&self, py: Python<'py>) -> Rows<'py> {
        let (n, size, a) = (self.num_envs, self.observation_size, self.action_space);
        let mut obs = vec![0.0; n * size];
        let mut mask = vec![0; n * a];
        let mut seats = vec![0; n];
        let mut guard = self.env.lock().expect("never poisoned");
        let env: &mut AnyVec = &mut guard;
        py.detach(|| with_vec!(env, v => v.reset(&mut obs, &mut mask, &mut seats)));
        rows(py, n, obs, size, mask, a, seats)
    }

    /// One action per game: `(obs, mask, rewards, dones, seats)`.
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<(
        Bound<'py, PyArray2<f32>>,
        Bound<'py, PyArray2<u8>>,
        Bound<'py, PyArray1<f32>>,
        Bound<'py, PyArray1<u8>>,
        Bound<'py, PyArray1<u8>>,
    )> {
        let (n, size, a) = (self.num_envs, self.observation_size, self.action_space);
        let actions = actions.as_slice()?;
        if actions.len() != n {
            return Err(PyValueError::new_err(format!(
                "{} actions given for {n} games (one per game)",
                actions.len()
            )));
        }
        let actions = actions.to_vec();
        let mut obs = vec![0.0; n * size];
        let mut mask = vec![0; n * a];
        let mut rewards = vec![0.0; n];
        let mut dones = vec![0; n];
        let mut seats = vec![0; n];
        let mut guard = self.env.lock().expect("never poisoned");
        let env: &mut AnyVec = &mut guard;
        py.detach(|| {
            with_vec!(env, v => v.step(&actions, &mut obs, &mut mask, &mut rewards, &mut dones, &mut seats))
        })
        .map_err(|e| IllegalActionError::new_err(e.to_string()))?;
        let (o, m, s) = rows(py, n, obs, size, mask, a, seats);
        Ok((o, m, rewards.into_pyarray(py), dones.into_pyarray(py), s))
    }
}

/// The names of the built-in bots of a game.
#[pyfunction]
fn bot_names(game: &str) -> PyResult<Vec<String>> {
    let err = match game {
        "starrealms" => StarRealms::bot("?", 0).err(),
        "cosmique" => Cosmique::bot("?", 0).err(),
        other => return Err(ConfigError::new_err(unknown_game(other))),
    };
    Ok(err
        .map(|e| {
            e.names
                .iter()
                .chain(e.patterns)
                .map(|s| s.to_string())
                .collect()
        })
        .unwrap_or_default())
}

/// Star Realms' formats with the seat counts each allows, in the rulebooks' order.
#[pyfunction]
fn formats() -> Vec<(&'static str, Vec<u8>)> {
    starrealms::Format::ALL
        .iter()
        .map(|f| (f.name(), f.seats().to_vec()))
        .collect()
}

/// The native module.
#[pymodule]
fn _realms(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Game>()?;
    m.add_class::<NativeBot>()?;
    m.add_class::<NativeVecEnv>()?;
    m.add_function(wrap_pyfunction!(bot_names, m)?)?;
    m.add_function(wrap_pyfunction!(formats, m)?)?;
    m.add_function(wrap_pyfunction!(arena_check, m)?)?;
    m.add_function(wrap_pyfunction!(arena_play, m)?)?;
    m.add_function(wrap_pyfunction!(arena_report, m)?)?;
    m.add_function(wrap_pyfunction!(simulate_check, m)?)?;
    m.add_function(wrap_pyfunction!(simulate_play, m)?)?;
    m.add_function(wrap_pyfunction!(simulate_report, m)?)?;
    m.add("ENCODING_VERSION", learn::ENCODING_VERSION)?;
    m.add(
        "IllegalActionError",
        m.py().get_type::<IllegalActionError>(),
    )?;
    m.add("ConfigError", m.py().get_type::<ConfigError>())?;
    m.add("RecordError", m.py().get_type::<RecordError>())?;
    Ok(())
}

// ----- arenas and simulations, locally or on a cluster ---------------------------------------------

fn lang_of(code: &str) -> PyResult<i18n::Lang> {
    i18n::Lang::from_locale(code).ok_or_else(|| {
        let known: Vec<&str> = i18n::Lang::ALL.iter().map(|l| l.code()).collect();
        ConfigError::new_err(format!(
            "unknown language `{code}` (known: {})",
            known.join(", ")
        ))
    })
}

fn pool(threads: usize) -> PyResult<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| PyValueError::new_err(format!("cannot start the worker threads: {e}")))
}

/// What defines an arena: the same spec gives the same games wherever they are played.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ArenaSpec {
    bots: Vec<String>,
    games: u64,
    formats: Vec<String>,
    edition: String,
    seed: u64,
    #[serde(default)]
    sets: Option<Vec<String>>,
    #[serde(default)]
    same_deals: bool,
}

fn arena_plan(spec: &str, lang: i18n::Lang) -> PyResult<arena::Plan> {
    let spec: ArenaSpec = serde_json::from_str(spec)
        .map_err(|e| ConfigError::new_err(format!("this is not an arena: {e}")))?;
    let edition: starrealms::Edition = spec.edition.parse().map_err(ConfigError::new_err)?;
    let mut plan = arena::Plan::new(
        &spec.bots,
        spec.games,
        &spec.formats,
        edition,
        spec.seed,
        lang,
    )
    .map_err(ConfigError::new_err)?;
    plan.same_deals = spec.same_deals;
    if let Some(names) = &spec.sets {
        let sets = starrealms::cards::Sets::from_names(names)
            .map_err(|why| ConfigError::new_err(why.english()))?;
        for c in &mut plan.formats {
            c.sets = sets;
            c.validate()
                .map_err(|why| ConfigError::new_err(why.english()))?;
        }
    }
    Ok(plan)
}

/// Checks an arena: `(deals, games, suggested deals per piece for `workers` workers)`.
#[pyfunction]
fn arena_check(spec: &str, lang: &str, workers: usize) -> PyResult<(u64, u64, u64)> {
    let plan = arena_plan(spec, lang_of(lang)?)?;
    Ok((
        plan.total_deals(),
        plan.total_games(),
        plan.chunk_size(workers),
    ))
}

/// Plays deals `start..end` of an arena on `threads` threads: the games as JSON, in schedule order.
#[pyfunction]
fn arena_play(
    py: Python<'_>,
    spec: &str,
    start: u64,
    end: u64,
    threads: usize,
) -> PyResult<String> {
    use rayon::prelude::*;
    let plan = arena_plan(spec, i18n::Lang::En)?;
    let end = end.min(plan.total_deals());
    let pool = pool(threads)?;
    let games: Vec<arena::GameResult> = py.detach(|| {
        pool.install(|| {
            (start..end)
                .into_par_iter()
                .flat_map_iter(|d| plan.play_deal(d))
                .collect()
        })
    });
    Ok(serde_json::to_string(&games).expect("results serialize"))
}

/// The report of an arena's games (every deal, in schedule order): `(summary JSON, text, games
/// CSV, ratings SVG)`.
#[pyfunction]
#[pyo3(signature = (spec, games, threads, seconds, lang, files))]
fn arena_report(
    py: Python<'_>,
    spec: &str,
    games: &str,
    threads: usize,
    seconds: f64,
    lang: &str,
    files: Vec<String>,
) -> PyResult<(String, String, String, String)> {
    let lang = lang_of(lang)?;
    let plan = arena_plan(spec, lang)?;
    let games: Vec<arena::GameResult> = serde_json::from_str(games)
        .map_err(|e| PyValueError::new_err(format!("these are not arena results: {e}")))?;
    if games.len() as u64 != plan.total_games() {
        return Err(PyValueError::new_err(format!(
            "{} games given, the arena has {}",
            games.len(),
            plan.total_games()
        )));
    }
    let pool = pool(rayon::current_num_threads())?;
    let summary = py.detach(|| pool.install(|| arena::summarize(&plan, &games, threads, seconds)));
    let files: Vec<std::path::PathBuf> = files.into_iter().map(Into::into).collect();
    Ok((
        serde_json::to_string_pretty(&summary).expect("summaries serialize") + "\n",
        arena::render(&summary, lang, &files),
        arena::games_csv(&plan, &games),
        arena::ratings_svg(&summary.ratings, lang).map_err(PyValueError::new_err)?,
    ))
}

/// What defines a simulation.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct SimulationSpec {
    game: String,
    players: Vec<String>,
    games: u64,
    seed: u64,
    #[serde(default)]
    format: Option<String>,
    #[serde(default)]
    edition: Option<String>,
    #[serde(default)]
    sets: Option<Vec<String>>,
    #[serde(default)]
    variant: Option<String>,
}

enum Simulation {
    StarRealms(starrealms::Config),
    Cosmique(cosmique::Config),
}

fn simulation(spec: &SimulationSpec) -> PyResult<Simulation> {
    if spec.games == 0 {
        return Err(ConfigError::new_err("a simulation needs at least one game"));
    }
    match spec.game.as_str() {
        "starrealms" => {
            for name in &spec.players {
                StarRealms::bot(name, 0).map_err(|e| ConfigError::new_err(e.to_string()))?;
            }
            let format = spec.format.clone().unwrap_or_else(|| {
                if spec.players.len() > 2 {
                    "free_for_all"
                } else {
                    "standard"
                }
                .to_string()
            });
            let seats = u8::try_from(spec.players.len()).unwrap_or(u8::MAX);
            starrealms_config(
                None,
                Some(&format),
                Some(seats),
                spec.edition.as_deref(),
                spec.sets.clone(),
            )
            .map(Simulation::StarRealms)
            .map_err(|e| ConfigError::new_err(format!("{e} (players names one bot per seat)")))
        }
        "cosmique" => {
            for name in &spec.players {
                Cosmique::bot(name, 0).map_err(|e| ConfigError::new_err(e.to_string()))?;
            }
            if spec.players.len() != cosmique::SEATS {
                return Err(ConfigError::new_err(format!(
                    "Bataille Cosmique takes {} players, not {} (one bot per planet)",
                    cosmique::SEATS,
                    spec.players.len()
                )));
            }
            cosmique_config(None, spec.variant.as_deref())
                .map(Simulation::Cosmique)
                .map_err(ConfigError::new_err)
        }
        other => Err(ConfigError::new_err(unknown_game(other))),
    }
}

fn simulation_spec(spec: &str) -> PyResult<SimulationSpec> {
    serde_json::from_str(spec)
        .map_err(|e| ConfigError::new_err(format!("this is not a simulation: {e}")))
}

/// Checks a simulation.
#[pyfunction]
fn simulate_check(spec: &str) -> PyResult<u64> {
    let s = simulation_spec(spec)?;
    simulation(&s)?;
    Ok(s.games)
}

/// Plays games `start..end` of a simulation on `threads` threads: their tally as JSON.
#[pyfunction]
fn simulate_play(
    py: Python<'_>,
    spec: &str,
    start: u64,
    end: u64,
    threads: usize,
) -> PyResult<String> {
    use arena::simulation::{CHUNK, Tally, play_games};
    use rayon::prelude::*;
    let s = simulation_spec(spec)?;
    let sim = simulation(&s)?;
    let end = end.min(s.games);
    let pool = pool(threads)?;
    let pieces: Vec<std::ops::Range<u64>> = (start..end)
        .step_by(CHUNK as usize)
        .map(|a| a..(a + CHUNK).min(end))
        .collect();
    let seats = s.players.len();
    let tally = py.detach(|| {
        pool.install(|| {
            pieces
                .into_par_iter()
                .map(|r| match &sim {
                    Simulation::StarRealms(c) => play_games::<StarRealms>(&s.players, c, s.seed, r),
                    Simulation::Cosmique(c) => play_games::<Cosmique>(&s.players, c, s.seed, r),
                })
                .reduce(|| Tally::new(seats), Tally::merge)
        })
    });
    Ok(serde_json::to_string(&tally).expect("tallies serialize"))
}

/// The report of a simulation from the tallies of all its games: `(report JSON, text)`.
#[pyfunction]
fn simulate_report(
    spec: &str,
    tallies: Vec<String>,
    threads: usize,
    seconds: f64,
    lang: &str,
) -> PyResult<(String, String)> {
    use arena::simulation::{Run, Tally};
    let lang = lang_of(lang)?;
    let s = simulation_spec(spec)?;
    let sim = simulation(&s)?;
    let mut total = Tally::new(s.players.len());
    for t in &tallies {
        let t: Tally = serde_json::from_str(t)
            .map_err(|e| PyValueError::new_err(format!("this is not a tally: {e}")))?;
        total = total.merge(t);
    }
    if total.games != s.games {
        return Err(PyValueError::new_err(format!(
            "{} games tallied, the simulation has {}",
            total.games, s.games
        )));
    }
    let (label, format) = match &sim {
        Simulation::StarRealms(c) => ("starrealms".to_string(), Some((c.format, c.edition))),
        Simulation::Cosmique(c) => (format!("cosmique {}", c.variant), None),
    };
    let report = arena::simulation::report(
        &total,
        &Run {
            game: &label,
            format,
            players: &s.players,
            seed: s.seed,
            threads,
            seconds,
        },
    );
    Ok((
        serde_json::to_string_pretty(&report).expect("reports serialize") + "\n",
        arena::simulation::render(&report, lang),
    ))
}
