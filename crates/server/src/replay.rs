//! Replays for the browser's replay viewer: a finished game's record (or a record a player
//! uploads, such as one `realms replay` reads) played again, each step's view from one seat, or
//! with every hand shown. A page of steps at a time.

use game::{Action as _, GameRecord, Seat};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::games::{GameKind, Served};
use crate::protocol::{ApiError, ErrorCode, LogLine};

/// Views a page holds unless the client asks for fewer.
pub(crate) const PAGE: usize = 100;
/// Views a page holds at most.
pub(crate) const PAGE_MAX: usize = 200;
/// Actions a record may hold (a long six-player game has a few thousand).
pub(crate) const MAX_ACTIONS: usize = 20_000;

/// What the viewer asks: whose view, from which step, how many.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ReplayQuery {
    /// Whose view (`p1` …; default `p1`).
    pub seat: Option<String>,
    /// Every hand shown (the game being over, nothing is secret any more).
    #[serde(default)]
    pub all: bool,
    /// The first step (0: before any action).
    #[serde(default)]
    pub from: usize,
    /// How many steps.
    pub count: Option<usize>,
}

/// A page of a replay.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct ReplayPage {
    /// Which game.
    pub game: GameKind,
    /// Seats.
    pub seats: usize,
    /// Who sat where, when the record says.
    pub players: Vec<String>,
    /// Actions in the record: steps run from 0 to this.
    pub actions: usize,
    /// The seat whose view this is.
    pub seat: Seat,
    /// Whether every hand is shown.
    pub all: bool,
    /// The views of steps `from..from + views.len()`.
    pub views: Vec<ReplayView>,
}

/// One step: the game after its first `step` actions.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct ReplayView {
    pub step: usize,
    pub to_move: Option<Seat>,
    pub over: bool,
    pub winners: Option<Vec<Seat>>,
    pub observation: Value,
    /// The action that led here (none at step 0), as the seat shown may read it.
    pub line: Option<LogLine>,
}

fn bad(message: String) -> ApiError {
    ApiError::new(ErrorCode::BadRequest, message)
}

/// A page of the replay of `record`.
pub(crate) fn page(record: &GameRecord, q: &ReplayQuery) -> Result<ReplayPage, ApiError> {
    if record.cards.is_some() {
        return Err(bad(
            "this record was played with a designer's card file, which the server does not have: \
             replay it with `realms replay`"
                .into(),
        ));
    }
    if record.actions.len() > MAX_ACTIONS {
        return Err(bad(format!(
            "a record replayed here holds at most {MAX_ACTIONS} actions, not {}",
            record.actions.len()
        )));
    }
    match GameKind::of_record(&record.game) {
        Some(GameKind::Starrealms) => page_of::<starrealms::State>(record, q),
        Some(GameKind::Cosmique) => page_of::<cosmique::State>(record, q),
        None => Err(bad(format!(
            "`{}` is no game of this server (starrealms, cosmique)",
            record.game
        ))),
    }
}

fn page_of<G: Served + Reveal>(
    record: &GameRecord,
    q: &ReplayQuery,
) -> Result<ReplayPage, ApiError> {
    let mut state: G = record
        .initial_state()
        .map_err(|e| bad(format!("the record cannot be replayed: {e}")))?;
    let seats = state.num_seats();
    let seat = match q.seat.as_deref() {
        None => Seat(0),
        Some(text) => text
            .parse::<Seat>()
            .ok()
            .filter(|s| s.index() < seats)
            .ok_or_else(|| {
                bad(format!(
                    "`{text}` is not a seat of this game (p1 to p{seats})"
                ))
            })?,
    };
    let total = record.actions.len();
    if q.from > total {
        return Err(bad(format!(
            "step {} is past the end: the record has {total} actions",
            q.from
        )));
    }
    let count = q.count.unwrap_or(PAGE).clamp(1, PAGE_MAX);
    let end = (q.from + count).min(total + 1);
    let mut views = Vec::with_capacity(end - q.from);
    let view = |state: &G, step: usize, line: Option<LogLine>| ReplayView {
        step,
        to_move: state.to_move(),
        over: state.is_terminal(),
        winners: state.is_terminal().then(|| state.winners()),
        observation: state.revealed(seat, q.all),
        line,
    };
    if q.from == 0 {
        views.push(view(&state, 0, None));
    }
    for (index, text) in record.actions.iter().enumerate() {
        if index + 1 >= end {
            break;
        }
        let fail = |e: String| {
            bad(format!(
                "the record cannot be replayed: action {index} (`{text}`): {e}"
            ))
        };
        let actor = state
            .to_move()
            .ok_or_else(|| fail("the game is already over".into()))?;
        let action = G::Action::parse(text).map_err(|e| fail(e.to_string()))?;
        let step = index + 1;
        // The card is read from the state before the action, as the live log does.
        let card = (step >= q.from).then(|| state.log_card(action)).flatten();
        state.apply(action).map_err(|e| fail(e.to_string()))?;
        if step >= q.from {
            let line = LogLine {
                index,
                seat: actor,
                action: match (q.all || actor == seat, G::public_text(action)) {
                    (false, Some(public)) => public,
                    _ => action.to_string(),
                },
                card,
            };
            views.push(view(&state, step, Some(line)));
        }
    }
    Ok(ReplayPage {
        game: G::KIND,
        seats,
        players: record.players.clone(),
        actions: total,
        seat,
        all: q.all,
        views,
    })
}

/// A seat's observation as JSON, with every hand shown when `all`.
pub(crate) trait Reveal {
    fn revealed(&self, seat: Seat, all: bool) -> Value;
}

impl Reveal for starrealms::State {
    fn revealed(&self, seat: Seat, all: bool) -> Value {
        let mut obs = game::State::observation(self, seat);
        if all {
            for j in 0..obs.players.len() {
                if j != seat.index() {
                    let theirs = game::State::observation(self, Seat(j as u8));
                    obs.players[j].hand = theirs.players[j].hand.clone();
                }
            }
        }
        serde_json::to_value(&obs).expect("an observation serializes")
    }
}

impl Reveal for cosmique::State {
    fn revealed(&self, seat: Seat, all: bool) -> Value {
        let obs = game::State::observation(self, seat);
        let mut value = serde_json::to_value(&obs).expect("an observation serializes");
        if all {
            // Each planet's hand, as its own seat sees it.
            let seats = game::State::num_seats(self);
            let mut hands = Vec::with_capacity(seats);
            for j in 0..seats {
                let theirs = serde_json::to_value(game::State::observation(self, Seat(j as u8)))
                    .expect("an observation serializes");
                hands.push(theirs.get("hand").cloned().unwrap_or(Value::Null));
            }
            value["hands"] = Value::Array(hands);
        }
        value
    }
}
