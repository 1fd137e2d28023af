//! The messages of the WebSocket protocol and the error codes of the whole API, as documented
//! in `docs/protocol.md`.

use game::Seat;
use serde::{Deserialize, Serialize};

use crate::games::GameKind;

/// A message from a client.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMessage {
    /// Play an action.
    Act {
        /// The client's id for this message (1 to 64 characters): a resent message with an id
        /// already applied is answered, not applied again.
        client_id: String,
        /// The version of the view the client acts on: the number of actions played.
        version: usize,
        /// The action, in its text form (`buy row 2`).
        action: String,
    },
}

/// Longest client id accepted.
pub const MAX_CLIENT_ID: usize = 64;

/// One action of the log as one seat may read it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogLine {
    /// Its number (0-based): the view of version `v` has had actions `0..v`.
    pub index: usize,
    /// Who played it.
    pub seat: Seat,
    /// Its text form, as this reader may see it (face-down cards hidden from other seats).
    pub action: String,
    /// The id of the card the action was about (bought, attacked, scrapped, discarded, played,
    /// used), when the table sees that card: a place such as `buy row 2` then names what lay
    /// there. Never a card still hidden from anybody; never in Bataille Cosmique.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<String>,
}

/// Who sits in a seat, as everybody at the table sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatPresence {
    /// The seat.
    pub seat: Seat,
    /// `human`, or the bot's name.
    pub player: String,
    /// Whether somebody holds the seat's token (always `false` for a bot).
    pub claimed: bool,
    /// Whether the seat is at the table now: a bot always is, a person while at least one
    /// WebSocket with the seat's token is open.
    pub connected: bool,
}

/// A message from the server.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    /// What this connection may see of the game now.
    View {
        /// The game's number.
        id: store::GameId,
        /// Which game.
        game: GameKind,
        /// Actions played so far.
        version: usize,
        /// The seat of this connection (`None`: a spectator).
        seat: Option<Seat>,
        /// Who must decide now (`None` once over).
        to_move: Option<Seat>,
        /// Whether the game is over.
        over: bool,
        /// Once over: the winning seats (empty after a draw).
        winners: Option<Vec<Seat>>,
        /// Every seat: who plays it, whether it is claimed, whether it is connected.
        seats: Vec<SeatPresence>,
        /// The human seats nobody has claimed yet, while the game is not over: until this is
        /// empty the game has not started (nobody may act, bots do not move).
        waiting: Vec<Seat>,
        /// This seat's observation (a spectator's: the public one).
        observation: Written,
        /// The legal actions in text form, sorted: only for the seat to move, empty otherwise
        /// (and while the game waits for players).
        legal_actions: Vec<String>,
        /// The actions this connection has not been sent yet, oldest first: the whole log in
        /// its first view, then what happened since the previous view.
        log: Vec<LogLine>,
        /// The `client_id` of the `act` this view answers, if it answers one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ack: Option<String>,
    },
    /// A message was refused; nothing changed.
    Error {
        /// What went wrong.
        code: ErrorCode,
        /// For people.
        message: String,
        /// The `client_id` of the refused `act`, if known.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        client_id: Option<String>,
        /// For an illegal action: why, as a key of the translation table (`/api/texts`) and
        /// the values of its placeholders, for a client to say it in its language.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<ReasonJson>,
    },
}

/// A refusal's reason as the protocol sends it: `{"key": "refusal.not_in_hand", "args":
/// {"card": "cutter"}}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReasonJson {
    /// The key.
    pub key: String,
    /// Each placeholder's value.
    pub args: std::collections::BTreeMap<String, String>,
}

/// A JSON value written once and sent as it is: an observation goes out as the engine
/// serializes it, without a tree of values in between.
#[derive(Clone, Debug, Serialize)]
#[serde(transparent)]
pub struct Written(Box<serde_json::value::RawValue>);

/// Read through a tree of values: inside a message (an enum tagged by `type`), serde hands
/// the field over already parsed, which a raw value cannot take.
impl<'de> Deserialize<'de> for Written {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Written, D::Error> {
        let value = serde_json::Value::deserialize(d)?;
        Ok(Written::of(&value))
    }
}

impl Written {
    /// `value`, written as JSON.
    pub fn of(value: &impl Serialize) -> Written {
        Written(serde_json::value::to_raw_value(value).expect("observations serialize"))
    }

    /// The JSON text.
    pub fn get(&self) -> &str {
        self.0.get()
    }
}

impl PartialEq for Written {
    fn eq(&self, other: &Written) -> bool {
        self.get() == other.get()
    }
}

/// Why a request or a message was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The message is not JSON, or not a message of the protocol, or a binary frame.
    BadMessage,
    /// The message is longer than the limit.
    TooLarge,
    /// Too many messages in a short time on this connection.
    RateLimited,
    /// No such game.
    UnknownGame,
    /// No such seat in the game.
    UnknownSeat,
    /// The token is not that of a seat of this game.
    BadToken,
    /// A spectator's connection cannot act.
    NotASeat,
    /// Another seat must decide.
    NotYourTurn,
    /// The `version` is not the game's: a fresh view follows.
    StaleVersion,
    /// The action does not parse or is not legal now.
    IllegalAction,
    /// The game is over.
    GameOver,
    /// The seat is a bot's.
    NotHuman,
    /// Somebody has the seat already.
    SeatTaken,
    /// The seat is a rematch's, kept for the player who sat at the matching seat of the game
    /// before: joining it takes that seat's token.
    SeatReserved,
    /// The request to create a game is refused.
    BadRequest,
    /// The game is not over (its record is published once it is).
    NotFinished,
    /// No such route.
    NotFound,
    /// The server failed (its store, most likely); nothing changed.
    Internal,
    /// The server is shutting down.
    ShuttingDown,
    /// The route exists, not with this method.
    MethodNotAllowed,
    /// A request's body did not arrive in time.
    Timeout,
    /// The server, or this client's address, has as many connections as it may.
    TooManyConnections,
    /// The game's stored record no longer replays: it cannot be played or watched.
    DamagedGame,
    /// The client's address holds as many seats of unfinished games as it may.
    TooManySeats,
    /// The client's address has made as many unfinished games of bots alone as it may.
    TooManyBotGames,
    /// Nobody joined this seat in time: it can no longer be joined.
    SeatExpired,
    /// No such campaign.
    UnknownCampaign,
    /// The campaign cannot do that now (a game in progress, a seat to fill, a choice that is
    /// another player's).
    CampaignRefused,
    /// A human seat of the game is not claimed yet: the game starts when every seat is taken.
    WaitingForPlayers,
}

impl ErrorCode {
    /// The HTTP status of the error in an HTTP answer.
    pub fn status(self) -> u16 {
        match self {
            ErrorCode::BadMessage | ErrorCode::BadRequest => 400,
            ErrorCode::MethodNotAllowed => 405,
            ErrorCode::Timeout => 408,
            ErrorCode::TooLarge => 413,
            ErrorCode::BadToken => 401,
            ErrorCode::NotASeat | ErrorCode::SeatReserved => 403,
            ErrorCode::UnknownGame
            | ErrorCode::UnknownSeat
            | ErrorCode::UnknownCampaign
            | ErrorCode::NotFound => 404,
            ErrorCode::NotYourTurn
            | ErrorCode::StaleVersion
            | ErrorCode::IllegalAction
            | ErrorCode::GameOver
            | ErrorCode::NotHuman
            | ErrorCode::SeatTaken
            | ErrorCode::NotFinished
            | ErrorCode::TooManySeats
            | ErrorCode::TooManyBotGames
            | ErrorCode::CampaignRefused
            | ErrorCode::WaitingForPlayers => 409,
            ErrorCode::SeatExpired => 410,
            ErrorCode::RateLimited => 429,
            ErrorCode::Internal | ErrorCode::DamagedGame => 500,
            ErrorCode::ShuttingDown | ErrorCode::TooManyConnections => 503,
        }
    }
}

/// An error with its code and its message for people.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ApiError {
    /// What went wrong.
    pub code: ErrorCode,
    /// For people.
    pub message: String,
    /// Why, for a translation (illegal actions).
    pub reason: Option<game::Reason>,
}

/// Characters of a client's text an error message quotes at most: a name or a value mistyped
/// is recognised by its start, and a message never grows with what a client sends.
pub const QUOTED_MAX: usize = 64;

/// Characters of a whole error message at most: whatever a message is made of (the server's
/// words, a parser's, what it quotes), it is cut there with `…`.
pub const MESSAGE_MAX: usize = 1024;

/// `message` with each quoted text (between backquotes, or the parser's double quotes) longer
/// than [`QUOTED_MAX`] characters cut there with `…`, the parser's `struct Name` (`with N
/// elements`), `internally tagged enum Name` told as an object, and the whole cut at
/// [`MESSAGE_MAX`] characters.
fn plain(message: &str) -> String {
    let text = cut_quoted(message, '`', |part| {
        cut_quoted(&unnamed(part), '"', str::to_owned)
    });
    cut(&text, MESSAGE_MAX)
}

/// `text` with each of its parts between two `quote`s longer than [`QUOTED_MAX`] characters
/// cut there with `…` (an opening quote never closed quotes the rest), and the parts outside
/// quotes as `outside` writes them.
fn cut_quoted(text: &str, quote: char, outside: impl Fn(&str) -> String) -> String {
    let mut out = String::with_capacity(text.len().min(1024));
    for (k, part) in text.split(quote).enumerate() {
        if k > 0 {
            out.push(quote);
        }
        if k % 2 == 1 && part.chars().count() > QUOTED_MAX {
            out.extend(part.chars().take(QUOTED_MAX));
            out.push('…');
        } else if k % 2 == 1 {
            out.push_str(part);
        } else {
            out.push_str(&outside(part));
        }
    }
    out
}

/// `text` cut at `max` characters with `…`.
pub(crate) fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

/// `text` with the parser's names of Rust types replaced by "an object".
fn unnamed(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    loop {
        let next = ["internally tagged enum ", "struct "]
            .iter()
            .filter_map(|w| rest.find(w).map(|at| (at, w.len())))
            .min();
        let Some((at, len)) = next else {
            out.push_str(rest);
            return out;
        };
        let name_end = rest[at + len..]
            .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
            .map_or(rest.len(), |e| at + len + e);
        // A type's name starts with a capital; other words stay as they are.
        if !rest[at + len..].starts_with(|c: char| c.is_ascii_uppercase()) {
            out.push_str(&rest[..at + len]);
            rest = &rest[at + len..];
            continue;
        }
        out.push_str(&rest[..at]);
        out.push_str("an object");
        rest = &rest[name_end..];
        // "with 11 elements": the fields of the type, as the parser counts them.
        if let Some(after) = rest.strip_prefix(" with ")
            && let Some(end) = after.find(" element")
            && after[..end].chars().all(|c| c.is_ascii_digit())
        {
            let tail = &after[end + " element".len()..];
            rest = tail.strip_prefix('s').unwrap_or(tail);
        }
    }
}

impl ApiError {
    /// An error. What its message quotes of the request (between backquotes) is cut to
    /// [`QUOTED_MAX`] characters, and Rust's names of the server's types (the parser's
    /// `struct CreateGame`) are told as what they are: an object.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError {
            code,
            message: plain(&message.into()),
            reason: None,
        }
    }

    /// The same error with the reason a game gave.
    pub fn with_reason(mut self, reason: Option<game::Reason>) -> ApiError {
        self.reason = reason;
        self
    }

    /// The protocol message of this error.
    pub fn message(&self, client_id: Option<String>) -> ServerMessage {
        ServerMessage::Error {
            code: self.code,
            message: self.message.clone(),
            client_id,
            // A reason's words may be the client's (a card's name mistyped): quoted as briefly
            // as the message quotes them.
            reason: self.reason.as_ref().map(|r| ReasonJson {
                key: r.key.clone(),
                args: r
                    .args
                    .iter()
                    .map(|(name, value)| (name.clone(), cut(value, QUOTED_MAX)))
                    .collect(),
            }),
        }
    }
}

impl From<store::StoreError> for ApiError {
    fn from(e: store::StoreError) -> Self {
        use store::StoreError as E;
        let code = match &e {
            E::UnknownGame(_) => ErrorCode::UnknownGame,
            E::UnknownSeat { .. } | E::UnknownCampaignSeat { .. } => ErrorCode::UnknownSeat,
            E::UnknownCampaign(_) => ErrorCode::UnknownCampaign,
            E::NotHumanInCampaign { .. } => ErrorCode::NotHuman,
            E::CampaignSeatTaken { .. } => ErrorCode::SeatTaken,
            E::WrongCampaignGame { .. } => ErrorCode::CampaignRefused,
            E::NotHuman { .. } => ErrorCode::NotHuman,
            E::SeatTaken { .. } => ErrorCode::SeatTaken,
            E::Finished(_) => ErrorCode::GameOver,
            E::Retired(_) => ErrorCode::SeatExpired,
            E::Invalid(_) => ErrorCode::BadRequest,
            E::WrongIndex { .. } | E::Corrupt(_) | E::Backend(_) => ErrorCode::Internal,
        };
        ApiError::new(code, e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_have_the_documented_shape() {
        let act: ClientMessage = serde_json::from_str(
            r#"{"type":"act","client_id":"c1","version":3,"action":"buy row 2"}"#,
        )
        .unwrap();
        assert_eq!(
            act,
            ClientMessage::Act {
                client_id: "c1".into(),
                version: 3,
                action: "buy row 2".into()
            }
        );
        let e = ApiError::new(ErrorCode::NotYourTurn, "wait").message(Some("c1".into()));
        assert_eq!(
            serde_json::to_value(e).unwrap(),
            serde_json::json!({"type": "error", "code": "not_your_turn", "message": "wait", "client_id": "c1"})
        );
    }

    #[test]
    fn a_message_quotes_a_client_s_text_briefly_and_names_no_rust_type() {
        let long = "A".repeat(15_000);
        let e = ApiError::new(
            ErrorCode::BadRequest,
            format!("unknown bot `{long}`, and `ok`"),
        );
        let cut = "A".repeat(QUOTED_MAX);
        assert_eq!(e.message, format!("unknown bot `{cut}…`, and `ok`"));
        // A name of 64 characters is kept whole.
        let e = ApiError::new(ErrorCode::BadRequest, format!("`{cut}`"));
        assert_eq!(e.message, format!("`{cut}`"));
        for (parser, told) in [
            (
                "invalid type: sequence, expected struct CreateGame",
                "invalid type: sequence, expected an object",
            ),
            (
                "invalid length 0, expected struct CreateGame with 11 elements",
                "invalid length 0, expected an object",
            ),
            (
                "invalid length 1, expected struct Decision with 1 element at line 1",
                "invalid length 1, expected an object at line 1",
            ),
            (
                "expected internally tagged enum ClientMessage",
                "expected an object",
            ),
            // Words that are not a type's name stay, and quoted text is the client's.
            ("the struct of `struct Mine`", "the struct of `struct Mine`"),
        ] {
            assert_eq!(ApiError::new(ErrorCode::BadRequest, parser).message, told);
        }
        // The parser's quotes are cut as the server's are, a quote never closed too.
        let e = ApiError::new(
            ErrorCode::BadRequest,
            format!("invalid type: string \"{long}\", expected u32"),
        );
        assert_eq!(
            e.message,
            format!("invalid type: string \"{cut}…\", expected u32")
        );
        let e = ApiError::new(ErrorCode::BadRequest, format!("unknown \"{long}"));
        assert_eq!(e.message, format!("unknown \"{cut}…"));
        let e = ApiError::new(ErrorCode::BadRequest, "a \"short\" one");
        assert_eq!(e.message, "a \"short\" one");
        // And a message never grows past its cap, whatever it is made of.
        let e = ApiError::new(ErrorCode::BadRequest, format!("no {long}"));
        assert_eq!(e.message.chars().count(), MESSAGE_MAX + 1);
        assert!(e.message.ends_with('…'));
    }

    #[test]
    fn a_reason_quotes_a_client_s_text_briefly() {
        let long = "x".repeat(5_000);
        let reason = game::Reason {
            key: "refusal.parse_unknown_card".into(),
            args: vec![("name".into(), long)],
        };
        let e = ApiError::new(ErrorCode::IllegalAction, "no such card").with_reason(Some(reason));
        let json = serde_json::to_value(e.message(None)).unwrap();
        let card = json["reason"]["args"]["name"].as_str().unwrap();
        assert_eq!(card.chars().count(), QUOTED_MAX + 1, "{card}");
    }
}
