//! Replays for the browser's replay viewer: a finished game's record (or a record a player
//! uploads, such as one `realms replay` reads) played again, each step's view from one seat, or
//! with every hand shown. A page of steps at a time, and at most [`PAGE_BYTES`] of them.

use game::{Action as _, GameRecord, Seat};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;

use crate::games::{GameKind, Served};
use crate::protocol::{ApiError, ErrorCode, LogLine};

/// Views a page holds unless the client asks for fewer.
pub(crate) const PAGE: usize = 100;
/// Views a page holds at most.
pub(crate) const PAGE_MAX: usize = 200;
/// Actions a record may hold (a long six-player game has a few thousand).
pub(crate) const MAX_ACTIONS: usize = 20_000;
/// The views of a page, written, stop at the first that reaches this size (a page holds at least
/// one): 200 views of a game of the rulebooks take a few hundred kilobytes, and what a record
/// sent by anyone makes the server write stays bounded whatever its cards.
pub(crate) const PAGE_BYTES: usize = 2 << 20;

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
    /// The views of steps `from..from + views.len()` ([`ReplayView`]s, written as they are made:
    /// fewer than asked when they reach [`PAGE_BYTES`]).
    pub views: Vec<Box<RawValue>>,
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
        Some(GameKind::Starrealms) => page_of::<starrealms::State>(record, q, PAGE_BYTES),
        Some(GameKind::Cosmique) => page_of::<cosmique::State>(record, q, PAGE_BYTES),
        None => Err(bad(format!(
            "`{}` is no game of this server (starrealms, cosmique)",
            record.game
        ))),
    }
}

/// The page of `record` that `q` asks for, its views stopping at the first that reaches
/// `most_bytes`.
fn page_of<G: Served + Reveal>(
    record: &GameRecord,
    q: &ReplayQuery,
    most_bytes: usize,
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
    let count = q.count.unwrap_or(PAGE);
    if !(1..=PAGE_MAX).contains(&count) {
        return Err(bad(format!(
            "`count` is {count}: a page holds 1 to {PAGE_MAX} steps"
        )));
    }
    let end = (q.from + count).min(total + 1);
    let mut views = Vec::with_capacity(end - q.from);
    let mut bytes = 0;
    // Whether the page is full: every step asked for is in it, or its views reached the bytes a
    // page may hold.
    let mut full = false;
    let mut view = |state: &G, step: usize, line: Option<LogLine>| {
        let view = ReplayView {
            step,
            to_move: state.to_move(),
            over: state.is_terminal(),
            winners: state.is_terminal().then(|| state.winners()),
            observation: state.revealed(seat, q.all),
            line,
        };
        let written = serde_json::value::to_raw_value(&view).expect("a view serializes");
        bytes += written.get().len();
        views.push(written);
        bytes >= most_bytes || step + 1 >= end
    };
    if q.from == 0 {
        full = view(&state, 0, None);
    }
    // Every action is played, past the page's too: a record that does not replay is refused
    // whichever page is asked for.
    for (index, text) in record.actions.iter().enumerate() {
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
        let shown = step >= q.from && !full;
        // The card is read from the state before the action, as the live log does.
        let card = shown.then(|| state.log_card(action)).flatten();
        state.apply(action).map_err(|e| fail(e.to_string()))?;
        if shown {
            let line = LogLine {
                index,
                seat: actor,
                action: match (q.all || actor == seat, G::public_text(action)) {
                    (false, Some(public)) => public,
                    _ => action.to_string(),
                },
                card,
            };
            full = view(&state, step, Some(line));
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A finished game of two random bots.
    fn record() -> GameRecord {
        let config = starrealms::Config::default();
        let mut state = starrealms::State::new(&config, 11).unwrap();
        let mut actions = Vec::new();
        let mut k = 0;
        while !game::State::is_terminal(&state) {
            let legal = game::State::legal_actions(&state);
            let action = legal[k % legal.len()];
            k = k.wrapping_mul(31).wrapping_add(7) % 1_000_003;
            actions.push(action.to_string());
            game::State::apply(&mut state, action).unwrap();
        }
        let mut record = GameRecord::new::<starrealms::State>(&config, 11);
        record.actions = actions;
        record
    }

    fn query(from: usize, count: usize) -> ReplayQuery {
        ReplayQuery {
            seat: Some("p2".into()),
            all: true,
            from,
            count: Some(count),
        }
    }

    #[test]
    fn a_page_stops_at_the_view_that_reaches_its_bytes_and_the_next_goes_on_from_there() {
        let record = record();
        let n = record.actions.len();
        let whole = page_of::<starrealms::State>(&record, &query(0, PAGE_MAX), usize::MAX)
            .unwrap()
            .views;
        assert_eq!(whole.len(), (n + 1).min(PAGE_MAX));
        let sizes: Vec<usize> = whole.iter().map(|v| v.get().len()).collect();
        // Room for about five views a page.
        let most = sizes[..5].iter().sum::<usize>();
        let mut pages = Vec::new();
        let mut from = 0;
        while from < whole.len() {
            let count = (whole.len() - from).min(PAGE_MAX);
            let page = page_of::<starrealms::State>(&record, &query(from, count), most).unwrap();
            let bytes: usize = page.views.iter().map(|v| v.get().len()).sum();
            let last = page.views.last().unwrap().get().len();
            assert!(!page.views.is_empty());
            assert!(bytes - last < most, "{bytes} bytes before its last view");
            if from + page.views.len() < whole.len() {
                assert!(bytes >= most, "a short page is full: {bytes} of {most}");
            }
            assert_eq!(page.actions, n);
            from += page.views.len();
            pages.push(page.views);
        }
        assert!(pages.len() > 10, "{} pages", pages.len());
        let joined: Vec<&str> = pages.iter().flatten().map(|v| v.get()).collect();
        let whole: Vec<&str> = whole.iter().map(|v| v.get()).collect();
        assert_eq!(joined, whole);
    }

    #[test]
    fn a_record_is_refused_whichever_page_is_asked_for_and_count_stays_within_its_bounds() {
        let mut record = record();
        let last = record.actions.len() - 1;
        record.actions[last] = "buy row 9".into();
        for q in [query(0, 1), query(0, PAGE_MAX), query(last, 1)] {
            let e = page(&record, &q).unwrap_err();
            assert!(
                e.message.contains(&format!("action {last} (`buy row 9`)")),
                "{}",
                e.message
            );
        }
        let record = self::record();
        for count in [0, PAGE_MAX + 1] {
            let e = page(&record, &query(0, count)).unwrap_err();
            assert_eq!(
                e.message,
                format!("`count` is {count}: a page holds 1 to {PAGE_MAX} steps")
            );
        }
        assert_eq!(
            page(&record, &query(0, PAGE_MAX)).unwrap().views.len(),
            PAGE_MAX.min(record.actions.len() + 1)
        );
    }
}
