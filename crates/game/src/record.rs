//! Game records: `{version, game, config, seed, actions}` as JSON. A record fully defines a game;
//! replaying it gives the same game, bit for bit.

use serde::{Deserialize, Serialize};

use crate::{Action, ActionError, State};

/// The record format version written by this library.
pub const RECORD_VERSION: u32 = 1;

/// A whole game: its configuration, its seed and every action in text form.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRecord {
    /// Format version ([`RECORD_VERSION`]).
    pub version: u32,
    /// Which game (`"starrealms"`, `"cosmique"`).
    pub game: String,
    /// The game's configuration.
    pub config: serde_json::Value,
    /// The seed of the game's RNG.
    pub seed: u64,
    /// Every action, in order, in text form.
    pub actions: Vec<String>,
    /// Who sat in each seat (`human`, a bot's name), if known: for people reading the record; it
    /// does not change the game.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub players: Vec<String>,
    /// The card file the game was played with, when it is not the built-in cards: replays load
    /// it by itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cards: Option<CardsRef>,
}

/// A designer's card file named by a record: where it was, and the fingerprint of what its
/// cards do (two files with the same fingerprint play every game the same).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardsRef {
    /// The file, as it was given.
    pub file: String,
    /// The fingerprint of its cards' rules.
    pub fingerprint: String,
}

/// Why a record cannot be replayed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// Unsupported version.
    #[error("record version {0} is not supported (this build reads version {RECORD_VERSION})")]
    Version(u32),
    /// Another game's record.
    #[error("this is a record of `{found}`, not of `{expected}`")]
    WrongGame {
        /// The game expected.
        expected: String,
        /// The game in the record.
        found: String,
    },
    /// The configuration does not deserialize or is refused.
    #[error("bad configuration: {0}")]
    Config(String),
    /// An action fails.
    #[error("action {step} (`{text}`): {error}")]
    Action {
        /// 0-based index of the action.
        step: usize,
        /// Its text.
        text: String,
        /// What went wrong.
        error: ActionError,
    },
    /// Malformed JSON.
    #[error("malformed record: {0}")]
    Json(String),
}

impl GameRecord {
    /// A record with no actions yet.
    pub fn new<S: State>(config: &S::Config, seed: u64) -> Self {
        GameRecord {
            version: RECORD_VERSION,
            game: S::GAME.to_string(),
            config: serde_json::to_value(config).expect("configurations serialize"),
            seed,
            actions: Vec::new(),
            players: Vec::new(),
            cards: None,
        }
    }

    /// Parses a record from JSON.
    pub fn from_json(text: &str) -> Result<Self, RecordError> {
        serde_json::from_str(text).map_err(|e| RecordError::Json(e.to_string()))
    }

    /// The record as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("records serialize")
    }

    /// Builds the initial state.
    pub fn initial_state<S: State>(&self) -> Result<S, RecordError> {
        if self.version != RECORD_VERSION {
            return Err(RecordError::Version(self.version));
        }
        if self.game != S::GAME {
            return Err(RecordError::WrongGame {
                expected: S::GAME.to_string(),
                found: self.game.clone(),
            });
        }
        let config: S::Config = serde_json::from_value(self.config.clone())
            .map_err(|e| RecordError::Config(e.to_string()))?;
        S::new_game(&config, self.seed).map_err(RecordError::Config)
    }

    /// Replays the record, calling `each(step, action, state_after)` after every action.
    pub fn replay_with<S: State>(
        &self,
        mut each: impl FnMut(usize, S::Action, &S),
    ) -> Result<S, RecordError> {
        let mut state: S = self.initial_state()?;
        for (step, text) in self.actions.iter().enumerate() {
            let fail = |error| RecordError::Action {
                step,
                text: text.clone(),
                error,
            };
            let action = S::Action::parse(text).map_err(fail)?;
            state.apply(action).map_err(fail)?;
            each(step, action, &state);
        }
        Ok(state)
    }

    /// Replays the record and returns the final state.
    pub fn replay<S: State>(&self) -> Result<S, RecordError> {
        self.replay_with(|_, _, _| {})
    }
}

/// A state that records its own history: the one place where actions are written down.
#[derive(Clone, Debug)]
pub struct Recorded<S: State> {
    state: S,
    record: GameRecord,
}

impl<S: State> Recorded<S> {
    /// Starts a new game.
    pub fn new(config: &S::Config, seed: u64) -> Result<Self, String> {
        Ok(Recorded {
            state: S::new_game(config, seed)?,
            record: GameRecord::new::<S>(config, seed),
        })
    }
    /// The current state.
    pub fn state(&self) -> &S {
        &self.state
    }
    /// The record so far.
    pub fn record(&self) -> &GameRecord {
        &self.record
    }
    /// Applies and records a legal action.
    pub fn apply(&mut self, action: S::Action) -> Result<(), ActionError> {
        self.state.apply(action)?;
        self.record.actions.push(action.to_string());
        Ok(())
    }
}
