//! The HTTP routes: the lobby API, the WebSocket entry, the texts and files of the browser
//! interface.

use std::net::IpAddr;
use std::sync::Arc;

use axum::body::{Body, to_bytes};
use axum::extract::path::ErrorKind;
use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::{FromRequestParts, Path, Query, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use game::Seat;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use store::{GameId, LobbyCursor, LobbyFilter, LobbyQuery, Store, TokenHash};

use crate::actor::{GameHandle, blocking, open_seats_expired, to_its_end};
use crate::games::{self, CreateGame};
use crate::limits::Held;
use crate::protocol::{ApiError, ErrorCode};
use crate::{AppState, campaigns, limits, listen, replay, socket, web};

/// The protocol, served as it is written in the repository.
const PROTOCOL: &str = include_str!("../../../docs/protocol.md");

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status =
            StatusCode::from_u16(self.code.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        (status, Json(self.message(None))).into_response()
    }
}

pub(crate) fn router<S: Store>(state: AppState<S>) -> Router {
    Router::new()
        .route("/protocol.md", get(protocol))
        .route("/api/texts", get(texts))
        .route("/api/games", get(list::<S>).post(create::<S>))
        .route("/api/games/{id}", get(summary::<S>))
        .route("/api/games/{id}/record", get(record::<S>))
        .route("/api/games/{id}/replay", get(replay_game::<S>))
        .route("/api/games/{id}/again", post(again::<S>))
        .route("/api/replay", post(replay_upload::<S>))
        .route("/api/games/{id}/seats/{seat}/join", post(join::<S>))
        .route("/api/games/{id}/seats/{seat}/leave", post(leave::<S>))
        .route("/api/games/{id}/ws", get(ws::<S>))
        .route("/api/campaigns", post(campaigns::create::<S>))
        .route("/api/campaigns/{id}", get(campaigns::show::<S>))
        .route(
            "/api/campaigns/{id}/seats/{seat}/join",
            post(campaigns::join::<S>),
        )
        .route("/api/campaigns/{id}/next", post(campaigns::next::<S>))
        .route(
            "/api/campaigns/{id}/complete",
            post(campaigns::complete::<S>),
        )
        .route("/api/{*rest}", get(not_found).post(not_found))
        .route("/", get(index::<S>))
        .route("/{*path}", get(file::<S>))
        .fallback(not_found)
        .layer(middleware::from_fn_with_state(
            state.clone(),
            rate_limit::<S>,
        ))
        .layer(middleware::from_fn(json_errors))
        .with_state(state)
}

/// Each client address has an allowance of API requests, and a larger one for the interface's
/// files (served from memory, and fetched some twenty-five at a time by each page load).
async fn rate_limit<S: Store>(
    State(app): State<AppState<S>>,
    client: Client,
    request: Request,
    next: Next,
) -> Response {
    let limiters = &app.inner.limiters;
    let options = &app.inner.options;
    let (allowed, per_second) = if request.uri().path().starts_with("/api/") {
        (
            limiters.request(client.address),
            options.requests_per_second,
        )
    } else {
        (
            limiters.file(client.address),
            options.file_requests_per_second,
        )
    };
    if !allowed {
        let message = format!(
            "too many requests from your address: {per_second} a second at most, wait a little"
        );
        let mut refused = ApiError::new(ErrorCode::RateLimited, message).into_response();
        // The connection closes after the refusal: the requests a client sent after it in a row
        // (pipelined) are dropped unread, not answered one by one at the client's pace.
        refused.headers_mut().insert(
            axum::http::header::CONNECTION,
            axum::http::HeaderValue::from_static("close"),
        );
        return refused;
    }
    next.run(request).await
}

/// Every error answer is the protocol's JSON error, whatever made it: a route taken with
/// another method, a query or path that does not parse, a WebSocket request that is not one.
async fn json_errors(request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let response = next.run(request).await;
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let (parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, 4096)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
        .unwrap_or_default();
    let (code, default) = match status.as_u16() {
        405 => (
            ErrorCode::MethodNotAllowed,
            format!("this route does not take {method} (see /protocol.md)"),
        ),
        404 => (
            ErrorCode::NotFound,
            "no such route (see /protocol.md)".into(),
        ),
        408 => (ErrorCode::Timeout, "the request took too long".into()),
        413 => (ErrorCode::TooLarge, "the request is too large".into()),
        429 => (ErrorCode::RateLimited, "too many requests".into()),
        500.. => (ErrorCode::Internal, "the server failed".into()),
        _ => (
            ErrorCode::BadRequest,
            "the request is not one this server reads".into(),
        ),
    };
    let message = if text.is_empty() || code == ErrorCode::MethodNotAllowed {
        default
    } else {
        text
    };
    let mut answer = (status, Json(ApiError::new(code, message).message(None))).into_response();
    if let Some(allow) = parts.headers.get(header::ALLOW) {
        answer.headers_mut().insert(header::ALLOW, allow.clone());
    }
    answer
}

/// Who sent a request: the client's address (the connection's, or behind a reverse proxy the
/// one its header names; an IPv6 one as its network, see [`limits::client_of`]) and the
/// connection's place under the caps.
pub(crate) struct Client {
    pub(crate) address: IpAddr,
    slot: Option<Arc<listen::Slot>>,
}

impl<S: Store> FromRequestParts<AppState<S>> for Client {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        app: &AppState<S>,
    ) -> Result<Self, Self::Rejection> {
        let peer = parts.extensions.get::<listen::Peer>();
        let from_header = app
            .inner
            .options
            .client_address_header
            .as_deref()
            // The last address is the one the proxy added (to the list, or as a line of its
            // own): those before it came from the client, who may write any.
            .and_then(|name| parts.headers.get_all(name).iter().next_back())
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.rsplit(',').next())
            .and_then(|a| a.trim().parse::<IpAddr>().ok());
        let address = from_header
            .or(peer.map(|p| p.address.ip()))
            .unwrap_or(IpAddr::V6(std::net::Ipv6Addr::LOCALHOST));
        Ok(Client {
            address: limits::client_of(address, app.inner.options.ipv6_prefix),
            slot: peer.map(|p| Arc::clone(&p.slot)),
        })
    }
}

/// A query that does not parse is a `bad_request`, in words: the parser's reason (which
/// parameter, and what it expected), in the same phrasing as the other requests' errors.
fn query<T>(parsed: Result<Query<T>, QueryRejection>) -> Result<T, ApiError> {
    parsed.map(|Query(q)| q).map_err(|e| {
        let why = std::error::Error::source(&e).map_or_else(|| e.body_text(), |s| s.to_string());
        // The parser names the parameter first (`foo: unknown field `foo``): said once, and
        // quoted, so that the message quotes it briefly.
        let why = match why.split_once(": ") {
            Some((name, rest)) if !name.contains(' ') => {
                if rest.contains(&format!("`{name}`")) {
                    rest.to_owned()
                } else {
                    format!("`{name}`: {rest}")
                }
            }
            _ => why,
        };
        ApiError::new(
            ErrorCode::BadRequest,
            format!("not a query this route takes: {why}"),
        )
    })
}

/// The segments of a route's path (a game's number, a seat), taken as they come; one that does
/// not decode is a `bad_request` in the server's own words, like a query that does not parse.
pub(crate) struct Segments<T>(pub(crate) T);

impl<S: Send + Sync, T: DeserializeOwned + Send> FromRequestParts<S> for Segments<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let e = match Path::<T>::from_request_parts(parts, state).await {
            Ok(Path(segments)) => return Ok(Segments(segments)),
            Err(e) => e,
        };
        let why = match &e {
            PathRejection::FailedToDeserializePathParams(e) => match e.kind() {
                ErrorKind::InvalidUtf8InPathParam { key } => {
                    format!("its `{key}` is not UTF-8 once its %-escapes are decoded")
                }
                kind => kind.to_string(),
            },
            // Every route declares the segments it takes: a route's mistake, not the client's.
            _ => return Err(ApiError::new(ErrorCode::Internal, "the server failed")),
        };
        Err(ApiError::new(
            ErrorCode::BadRequest,
            format!("not a path this server reads: {why}"),
        ))
    }
}

/// A request to a WebSocket's route that is not a WebSocket's opening is a `bad_request`
/// saying what it lacks.
fn websocket(
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<WebSocketUpgrade, ApiError> {
    use WebSocketUpgradeRejection as Lacks;
    upgrade.map_err(|e| {
        let why = match e {
            Lacks::MethodNotGet(_) | Lacks::MethodNotConnect(_) => "it is not a GET",
            Lacks::InvalidConnectionHeader(_) => "its `Connection` header does not say `upgrade`",
            Lacks::InvalidUpgradeHeader(_) | Lacks::InvalidProtocolPseudoheader(_) => {
                "it does not ask for an upgrade to `websocket`"
            }
            Lacks::InvalidWebSocketVersionHeader(_) => "its `Sec-WebSocket-Version` is not 13",
            Lacks::WebSocketKeyHeaderMissing(_) => "it has no `Sec-WebSocket-Key`",
            Lacks::ConnectionNotUpgradable(_) => "its connection cannot be upgraded (HTTP/1.1 can)",
            _ => "it is not one",
        };
        ApiError::new(
            ErrorCode::BadRequest,
            format!(
                "this route opens a game's WebSocket, and the request is not a \
                 WebSocket's opening: {why}"
            ),
        )
    })
}

/// A file of the browser interface.
async fn file<S: Store>(
    State(app): State<AppState<S>>,
    Segments(path): Segments<String>,
) -> Result<Response, ApiError> {
    web::asset(&path, app.inner.options.web_dir.as_deref()).await
}

/// The browser interface's first page.
async fn index<S: Store>(State(app): State<AppState<S>>) -> Result<Response, ApiError> {
    web::asset("", app.inner.options.web_dir.as_deref()).await
}

#[derive(Deserialize)]
struct TextsQuery {
    lang: Option<String>,
}

/// The interface's texts in a language (English by default), written once a language.
async fn texts(parsed: Result<Query<TextsQuery>, QueryRejection>) -> Result<Response, ApiError> {
    let query = query(parsed)?;
    let json = web::texts_json(query.lang.as_deref().unwrap_or("en"))?;
    Ok(([(header::CONTENT_TYPE, "application/json")], json).into_response())
}

async fn protocol() -> Response {
    let mut response = (
        [(header::CONTENT_TYPE, "text/markdown; charset=utf-8")],
        PROTOCOL,
    )
        .into_response();
    web::guard(response.headers_mut());
    response
}

async fn not_found() -> ApiError {
    ApiError::new(ErrorCode::NotFound, "no such route (see /protocol.md)")
}

fn game_id(text: &str) -> Result<GameId, ApiError> {
    text.parse()
        .map_err(|_| ApiError::new(ErrorCode::UnknownGame, format!("there is no game `{text}`")))
}

/// Runs a store call on a blocking thread.
async fn with_store<S: Store, T: Send + 'static>(
    app: &AppState<S>,
    f: impl FnOnce(&S) -> Result<T, store::StoreError> + Send + 'static,
) -> Result<T, ApiError> {
    let store = Arc::clone(&app.inner.context.store);
    Ok(blocking(move || f(&store)).await?)
}

/// Games a lobby page lists unless the client asks for fewer.
const LOBBY_PAGE: usize = 50;
/// Games a lobby page lists at most.
const LOBBY_PAGE_MAX: usize = 200;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ListQuery {
    /// Kept from the first protocol: `open=true` is `status=open`.
    open: Option<bool>,
    status: Option<String>,
    limit: Option<usize>,
    cursor: Option<String>,
}

async fn list<S: Store>(
    State(app): State<AppState<S>>,
    parsed: Result<Query<ListQuery>, QueryRejection>,
) -> Result<Json<store::LobbyPage>, ApiError> {
    let q = query(parsed)?;
    let bad = |message: String| ApiError::new(ErrorCode::BadRequest, message);
    let filter = match (q.status.as_deref(), q.open) {
        (Some(status), _) => status.parse().map_err(|e| bad(format!("{e}")))?,
        (None, Some(true)) => LobbyFilter::Open,
        (None, _) => LobbyFilter::Unfinished,
    };
    let after = q
        .cursor
        .as_deref()
        .map(str::parse::<LobbyCursor>)
        .transpose()
        .map_err(|e| bad(format!("{e}")))?;
    let limit = q.limit.unwrap_or(LOBBY_PAGE);
    if !(1..=LOBBY_PAGE_MAX).contains(&limit) {
        return Err(bad(format!(
            "`limit` is {limit}: a page lists 1 to {LOBBY_PAGE_MAX} games"
        )));
    }
    let lobby = LobbyQuery {
        filter,
        limit,
        after,
        open_seat_ttl: app.inner.options.open_seat_ttl,
    };
    Ok(Json(with_store(&app, move |s| s.lobby(&lobby)).await?))
}

async fn create<S: Store>(
    State(app): State<AppState<S>>,
    client: Client,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let options = &app.inner.options;
    let body = read_body(options, &headers, body, || {
        app.inner.limiters.creation(client.address)
    })
    .await?;
    let request: CreateGame = object(&body)
        .map_err(|e| ApiError::new(ErrorCode::BadRequest, format!("not a game request: {e}")))?;
    let people = request.seats.iter().filter(|p| *p == store::HUMAN).count();
    if request.seed.is_some() && people > 1 && !options.allow_chosen_seeds {
        return Err(ApiError::new(
            ErrorCode::BadRequest,
            "a game with more than one person cannot be given a `seed`: whoever chose it would \
             know every hand. Leave it out and the server draws one nobody knows (a seed is for \
             games with one person: practice, puzzles)",
        ));
    }
    // A game of bots alone plays on with nobody to wait for: an address makes a few at once.
    let summary = if people == 0 {
        keep_bot_game(&app, client.address).await?;
        let (state, address) = (app.clone(), client.address);
        let made = making_bot_game(&app, address, async move {
            let summary = create_game(&state, address, request).await?;
            Ok((Some(summary.id), summary))
        });
        made.await?
    } else {
        create_game(&app, client.address, request).await?
    };
    Ok((StatusCode::CREATED, Json(summary)).into_response())
}

/// Runs `make`, which makes a game of bots alone for `address` (its number, and what to
/// answer), in a task of its own, and fills the place [`keep_bot_game`] kept for it with that
/// game, or gives it back: whether or not the request is still there to hear the answer (a
/// client that leaves midway makes the game all the same, and it counts).
async fn making_bot_game<S, T, F>(
    app: &AppState<S>,
    address: IpAddr,
    make: F,
) -> Result<T, ApiError>
where
    S: Store,
    T: Send + 'static,
    F: Future<Output = Result<(Option<GameId>, T), ApiError>> + Send + 'static,
{
    let state = app.clone();
    to_its_end(async move {
        let made = make.await;
        let id = made.as_ref().ok().and_then(|(id, _)| *id);
        state.inner.limiters.made_bot_game(address, id);
        if let Some(id) = id {
            // Kept in the store, to be counted again after a restart. Should that fail, or
            // the game be over already, it is counted until then only.
            let store = Arc::clone(&state.inner.context.store);
            let maker = address.to_string();
            let _ = blocking(move || store.made_by(id, &maker)).await;
        }
        made.map(|(_, answer)| answer)
    })
    .await
}

/// Makes the game `request` asks for, and starts it.
async fn create_game<S: Store>(
    app: &AppState<S>,
    address: IpAddr,
    request: CreateGame,
) -> Result<store::GameSummary, ApiError> {
    let options = &app.inner.options;
    let seed = match request.seed {
        Some(seed) => seed,
        None => fresh_seed()?,
    };
    let deck = match request.campaign {
        None => None,
        Some(id) => {
            let id = store::CampaignId(id);
            let lang = app.inner.context.log_lang;
            // The campaign is rebuilt from its games: a replay, which waits its turn.
            let store = Arc::clone(&app.inner.context.store);
            Some(
                replaying(app, address, move || {
                    campaigns::final_deck(&*store, id, lang)
                })
                .await??,
            )
        }
    };
    let record = request
        .record_with(seed, options.max_bot_iterations, deck)
        .map_err(|e| ApiError::new(ErrorCode::BadRequest, e))?;
    let chosen = request.seed.is_some();
    let id = app.inner.context.writer.create(record, chosen).await?;
    // Start it now: a game of bots plays at once, others once every human seat is taken.
    app.game(id).await?;
    with_store(app, move |s| s.summary(id)).await
}

/// Whether a game of bots alone no longer counts against the address that made it: over, never
/// to start, or made longer ago than such a game counts (its bots stopped, say).
pub(crate) fn counts_no_more(game: &store::GameSummary) -> bool {
    let created = humantime::parse_rfc3339(&game.created_at).ok();
    game.finished || game.retired || older_than(created, crate::HELD_FOR)
}

/// Keeps a place for a game of bots alone that `address` makes, within
/// [`crate::Options::bot_games_per_address`]: past it, `too_many_bot_games`. The store is asked
/// which of its games count no more only when the address is at its cap. The caller fills the
/// place ([`limits::Limiters::made_bot_game`]) once the game is made, or gives it back.
async fn keep_bot_game<S: Store>(app: &AppState<S>, address: IpAddr) -> Result<(), ApiError> {
    let cap = app.inner.options.bot_games_per_address;
    let limiters = &app.inner.limiters;
    let mut kept = limiters.try_bot_game(address, cap, |_| false);
    if kept.is_err() {
        let made = limiters.bot_games(address);
        let over: Vec<GameId> = with_store(app, move |s| {
            Ok(made
                .into_iter()
                .filter(|&g| s.summary(g).is_ok_and(|game| counts_no_more(&game)))
                .collect())
        })
        .await?;
        kept = limiters.try_bot_game(address, cap, |g| over.contains(&g));
    }
    kept.map_err(|n| {
        let message = if cap == 0 {
            "this server makes no games of bots alone: give a person a seat".to_owned()
        } else {
            format!(
                "your address has made {n} games of bots alone that still go on, the most it may: \
                 wait for one to end"
            )
        };
        ApiError::new(ErrorCode::TooManyBotGames, message)
    })
}

/// A request's body, within the server's size and time limits; `allowed` is asked once the
/// announced size is known to fit (a creation's rate limit).
pub(crate) async fn read_body(
    options: &crate::Options,
    headers: &HeaderMap,
    body: Body,
    allowed: impl FnOnce() -> bool,
) -> Result<axum::body::Bytes, ApiError> {
    read_body_within(options, options.max_body_bytes, headers, body, allowed).await
}

/// A request's body of at most `limit` bytes, within the server's time limit.
pub(crate) async fn read_body_within(
    options: &crate::Options,
    limit: usize,
    headers: &HeaderMap,
    body: Body,
    allowed: impl FnOnce() -> bool,
) -> Result<axum::body::Bytes, ApiError> {
    let too_large = || {
        ApiError::new(
            ErrorCode::TooLarge,
            format!("a request's body is at most {limit} bytes"),
        )
    };
    let announced = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if announced.is_some_and(|n| n > limit as u64) {
        return Err(too_large());
    }
    if !allowed() {
        return Err(ApiError::new(
            ErrorCode::RateLimited,
            format!(
                "this address has created many games lately: {} a minute at most, wait a little",
                options.creations_per_minute
            ),
        ));
    }
    let body = match tokio::time::timeout(options.body_timeout, to_bytes(body, limit)).await {
        Err(_) => {
            return Err(ApiError::new(
                ErrorCode::Timeout,
                format!(
                    "the body did not arrive within {} s",
                    options.body_timeout.as_secs()
                ),
            ));
        }
        Ok(Err(e)) if is_length_limit(&e) => return Err(too_large()),
        Ok(Err(e)) => {
            return Err(ApiError::new(
                ErrorCode::BadRequest,
                format!("the body could not be read: {e}"),
            ));
        }
        Ok(Ok(bytes)) => bytes,
    };
    Ok(body)
}

/// A seed nobody chose or can predict. Not game randomness but a fresh deal: the operating
/// system's generator, at the server's edge; the seed is stored, so the game still replays
/// exactly.
pub(crate) fn fresh_seed() -> Result<u64, ApiError> {
    getrandom::u64().map_err(|e| {
        ApiError::new(
            ErrorCode::Internal,
            format!("no random seed available: {e}"),
        )
    })
}

/// Whether reading a body failed on its size.
fn is_length_limit(e: &axum::Error) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(s) = source {
        if s.is::<http_body_util::LengthLimitError>() {
            return true;
        }
        source = s.source();
    }
    false
}

async fn summary<S: Store>(
    State(app): State<AppState<S>>,
    Segments(id): Segments<String>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let id = game_id(&id)?;
    Ok(Json(summary_of(&app, id).await?))
}

/// Game `id`'s summary as the protocol shows it: the store's, and the games it is linked to.
async fn summary_of<S: Store>(
    app: &AppState<S>,
    id: GameId,
) -> Result<serde_json::Value, ApiError> {
    let (summary, campaign, rematch, rematch_of) = with_store(app, move |s| {
        Ok((
            s.summary(id)?,
            s.campaign_of(id)?,
            s.rematch(id)?,
            s.rematch_of(id)?,
        ))
    })
    .await?;
    let mut json = serde_json::to_value(summary).expect("a summary serializes");
    if let Some(campaign) = campaign {
        // The game of a campaign links its campaign's page.
        json["campaign"] = serde_json::json!(campaign);
    }
    if let Some(rematch) = rematch {
        // Somebody asked for a rematch: its players find it here.
        json["rematch"] = serde_json::json!(rematch.0);
    }
    if let Some(of) = rematch_of {
        // A rematch: its seats are kept for the players of the game it follows, each seat for
        // the player of the seat `kept_for` names there.
        json["rematch_of"] = serde_json::json!(of.0);
        let n = json["seats"].as_array().map_or(0, Vec::len);
        json["kept_for"] = (0..n)
            .map(|i| {
                let seat = Seat(i as u8);
                let from = games::rematch_seat_from(seat, n);
                (seat.to_string(), serde_json::json!(from.to_string()))
            })
            .collect::<serde_json::Map<_, _>>()
            .into();
    }
    Ok(json)
}

/// `POST /api/games/ID/again`: a finished game played again, by the same players with a fresh
/// deal. `swap` (the default): a rematch, each player one seat on (sides swapped in a duel),
/// one per game, found by every player; otherwise a new game with the same settings and seats.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AgainRequest {
    #[serde(default = "yes")]
    swap: bool,
}

fn yes() -> bool {
    true
}

async fn again<S: Store>(
    State(app): State<AppState<S>>,
    client: Client,
    Segments(id): Segments<String>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let id = game_id(&id)?;
    // A game that cannot be played again is refused before the request uses the address's
    // allowance of creations.
    let (stored, campaign) =
        with_store(&app, move |s| Ok((s.load(id)?, s.campaign_of(id)?))).await?;
    if stored.winners.is_none() {
        return Err(ApiError::new(
            ErrorCode::NotFinished,
            format!("game {id} is not over: it can be played again at the end"),
        ));
    }
    if campaign.is_some() {
        return Err(ApiError::new(
            ErrorCode::BadRequest,
            "the next game of a campaign is played from the campaign's page",
        ));
    }
    let options = &app.inner.options;
    let body = read_body(options, &headers, body, || {
        app.inner.limiters.creation(client.address)
    })
    .await?;
    let request: AgainRequest = if body.iter().all(u8::is_ascii_whitespace) {
        AgainRequest { swap: true }
    } else {
        object(&body).map_err(|e| {
            ApiError::new(
                ErrorCode::BadRequest,
                format!("not a request to play again: {e}"),
            )
        })?
    };
    let shift = if request.swap {
        games::REMATCH_SHIFT
    } else {
        0
    };
    let record = games::played_again(&stored.record, shift, fresh_seed()?)
        .map_err(|e| ApiError::new(ErrorCode::BadRequest, e))?;
    // Played again by bots alone, it counts among the address's games of bots (a rematch
    // somebody asked for already is found, not made: it counts for nobody else).
    let found = if request.swap {
        with_store(&app, move |s| s.rematch(id)).await?
    } else {
        None
    };
    let bots_only = !record.players.iter().any(|p| p == store::HUMAN) && found.is_none();
    let state = app.clone();
    let store_again = async move {
        let (id, new) = if request.swap {
            with_store(&state, move |s| s.create_rematch(id, &record)).await?
        } else {
            (
                state.inner.context.writer.create(record, false).await?,
                true,
            )
        };
        // Start it now: its bots play once the players have taken their seats.
        state.game(id).await?;
        Ok::<_, ApiError>((id, new))
    };
    let new_id = if bots_only {
        keep_bot_game(&app, client.address).await?;
        let made = making_bot_game(&app, client.address, async move {
            let (id, new) = store_again.await?;
            Ok((new.then_some(id), id))
        });
        made.await?
    } else {
        store_again.await?.0
    };
    // Its summary as `GET` gives it (a rematch's with `rematch_of` and `kept_for`).
    let mut json = summary_of(&app, new_id).await?;
    let n = json["seats"].as_array().map_or(0, Vec::len);
    // Where each player of the finished game sits now.
    json["seats_from"] = (0..n)
        .map(|i| {
            (
                Seat(i as u8).to_string(),
                serde_json::json!(Seat(((i + shift) % n) as u8).to_string()),
            )
        })
        .collect::<serde_json::Map<_, _>>()
        .into();
    Ok((StatusCode::CREATED, Json(json)).into_response())
}

async fn record<S: Store>(
    State(app): State<AppState<S>>,
    Segments(id): Segments<String>,
) -> Result<Json<game::GameRecord>, ApiError> {
    let id = game_id(&id)?;
    let stored = with_store(&app, move |s| s.load(id)).await?;
    if stored.winners.is_none() {
        // The record holds the seed, hence every hidden card: only once the game is over.
        return Err(ApiError::new(
            ErrorCode::NotFinished,
            format!("game {id} is not over: its record is published at the end"),
        ));
    }
    Ok(Json(stored.record))
}

/// How long a replay waits for its turn before it is refused as `rate_limited`.
const REPLAY_PATIENCE: std::time::Duration = std::time::Duration::from_secs(5);

/// Runs `f`, a replay (a record's pages, a campaign rebuilt from its games) that `address`
/// asked for, on a blocking thread once one of the server's turns for replays is free: a crowd
/// of replays (up to 20,000 actions each) waits in line rather than taking every core from the
/// games. Refused with `rate_limited` after [`REPLAY_PATIENCE`] in line, and at once when the
/// address has [`limits::REPLAYS_PER_ADDRESS`] in line or running already (a few addresses
/// would otherwise keep the line full).
pub(crate) async fn replaying<S: Store, T: Send + 'static>(
    app: &AppState<S>,
    address: IpAddr,
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    let place = app.inner.limiters.replay(address).ok_or_else(|| {
        ApiError::new(
            ErrorCode::RateLimited,
            format!(
                "your address has {} replays waiting or running, the most it may: try again \
                 when one is over",
                limits::REPLAYS_PER_ADDRESS
            ),
        )
    })?;
    let turns = Arc::clone(&app.inner.replays);
    let turn = tokio::time::timeout(REPLAY_PATIENCE, turns.acquire_owned())
        .await
        .map_err(|_| {
            ApiError::new(
                ErrorCode::RateLimited,
                "the server is busy replaying other games: try again in a moment",
            )
        })?
        .map_err(|_| crate::shutting_down())?;
    // The place and the turn are the replay's until it ends, even if the client has gone.
    Ok(blocking(move || {
        let _held = (place, turn);
        f()
    })
    .await)
}

/// A page of the replay of a finished game (its record is public once it is over).
async fn replay_game<S: Store>(
    State(app): State<AppState<S>>,
    client: Client,
    Segments(id): Segments<String>,
    parsed: Result<Query<replay::ReplayQuery>, QueryRejection>,
) -> Result<Json<replay::ReplayPage>, ApiError> {
    let id = game_id(&id)?;
    let q = query(parsed)?;
    let stored = with_store(&app, move |s| s.load(id)).await?;
    if stored.winners.is_none() {
        return Err(ApiError::new(
            ErrorCode::NotFinished,
            format!("game {id} is not over: it can be replayed at the end"),
        ));
    }
    let page = replaying(&app, client.address, move || {
        replay::page(&stored.record, &q)
    })
    .await??;
    Ok(Json(page))
}

/// A page of the replay of a record the client sends (one saved from a game, or one that
/// `realms replay` reads).
async fn replay_upload<S: Store>(
    State(app): State<AppState<S>>,
    client: Client,
    parsed: Result<Query<replay::ReplayQuery>, QueryRejection>,
    headers: HeaderMap,
    body: Body,
) -> Result<Json<replay::ReplayPage>, ApiError> {
    let q = query(parsed)?;
    let options = &app.inner.options;
    let body = read_body_within(options, options.max_record_bytes, &headers, body, || true).await?;
    let text = std::str::from_utf8(&body)
        .map_err(|_| ApiError::new(ErrorCode::BadRequest, "a record is UTF-8 text (JSON)"))?;
    let record = game::GameRecord::from_json(text)
        .map_err(|e| ApiError::new(ErrorCode::BadRequest, format!("not a game record: {e}")))?;
    let page = replaying(&app, client.address, move || replay::page(&record, &q)).await??;
    Ok(Json(page))
}

/// A fresh seat token: 256 bits from the operating system's generator, in hexadecimal.
pub(crate) fn new_token() -> Result<String, ApiError> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)
        .map_err(|e| ApiError::new(ErrorCode::Internal, format!("no random token: {e}")))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// A request's body read as the object of fields `T` is: a JSON array, which the parser would
/// also read as `T`'s fields in order, is refused like any other value that is not an object.
pub(crate) fn object<T: DeserializeOwned>(body: &[u8]) -> Result<T, String> {
    let value: serde_json::Value = serde_json::from_slice(body).map_err(|e| e.to_string())?;
    if !value.is_object() {
        return Err("expected a JSON object with named fields".into());
    }
    serde_json::from_value(value).map_err(|e| e.to_string())
}

/// Notes that `address` takes `seat`. An address holds a bounded number of seats of games and
/// campaigns still to be played, so that nobody can take every open seat of the lobby: past
/// it, `too_many_seats`. The store is asked which of them no longer count (their game or
/// campaign over, or made longer than [`crate::HELD_FOR`] ago, a game that can never start,
/// one of its open seats having expired, a seat left to a bot) only when the address is at its
/// cap, and the seat is tried again without those.
pub(crate) async fn hold_seat<S: Store>(
    app: &AppState<S>,
    address: IpAddr,
    seat: Held,
) -> Result<(), ApiError> {
    let cap = app.inner.options.seats_per_address;
    let limiters = &app.inner.limiters;
    let mut tried = limiters.try_hold(address, seat, cap, |_| false);
    if tried.is_err() {
        let held = limiters.held(address);
        let ttl = app.inner.options.open_seat_ttl;
        let gone: Vec<Held> = with_store(app, move |s| {
            Ok(held
                .into_iter()
                .filter(|h| match *h {
                    Held::Game(g, seat) => s.summary(g).is_ok_and(|game| {
                        let created = humantime::parse_rfc3339(&game.created_at).ok();
                        // A seat its person left is a bot's.
                        let left = game
                            .seats
                            .get(seat.index())
                            .is_some_and(|s| s.player != store::HUMAN);
                        game.finished
                            || game.retired
                            || left
                            || (game.open && open_seats_expired(created, ttl))
                            || older_than(created, crate::HELD_FOR)
                    }),
                    Held::Campaign(c, _) => {
                        let over = campaigns::is_over(s, c);
                        if over {
                            // Who held its seats is forgotten (a failure only keeps it longer).
                            let _ = s.forget_campaign_holders(c);
                        }
                        over || s.load_campaign(c).is_ok_and(|campaign| {
                            let created = humantime::parse_rfc3339(&campaign.created_at).ok();
                            older_than(created, crate::HELD_FOR)
                        })
                    }
                })
                .collect())
        })
        .await?;
        tried = limiters.try_hold(address, seat, cap, |h| gone.contains(&h));
    }
    tried.map_err(|n| {
        ApiError::new(
            ErrorCode::TooManySeats,
            format!(
                "your address holds {n} seats of games and campaigns still to be played, the most \
                 it may: finish one first, or leave one (a bot plays it on)"
            ),
        )
    })
}

/// Whether `created` is longer than `age` ago (a time unknown is not).
fn older_than(created: Option<std::time::SystemTime>, age: std::time::Duration) -> bool {
    created
        .and_then(|c| c.elapsed().ok())
        .is_some_and(|elapsed| elapsed > age)
}

/// What `ask` answers of a game's actor (`handle`'s); if the actor ended meanwhile, the game
/// being built again from the store (a seat was just left to a bot), what it answers of the game
/// built anew, asked once more.
async fn asked<S, T, F, Fut>(app: &AppState<S>, handle: GameHandle, ask: F) -> Result<T, ApiError>
where
    S: Store,
    F: Fn(GameHandle) -> Fut,
    Fut: Future<Output = Result<T, ApiError>>,
{
    let id = handle.id;
    match ask(handle.clone()).await {
        Err(_) if !handle.is_alive() && !*app.inner.shutdown.borrow() => {
            handle.ended().await;
            ask(app.game(id).await?).await
        }
        answer => answer,
    }
}

/// A route's game and seat, read from its path.
fn game_and_seat(id: &str, seat: &str) -> Result<(GameId, Seat), ApiError> {
    let id = game_id(id)?;
    let seat = seat
        .parse()
        .map_err(|e: game::BadSeat| ApiError::new(ErrorCode::UnknownSeat, e.to_string()))?;
    Ok((id, seat))
}

/// `POST /api/games/ID/seats/SEAT/join`'s body, which may be empty: `token`, for a rematch's
/// seat, the token of the seat its player held in the finished game.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct JoinRequest {
    token: Option<String>,
}

async fn join<S: Store>(
    State(app): State<AppState<S>>,
    client: Client,
    Segments((id, seat)): Segments<(String, String)>,
    headers: HeaderMap,
    body: Body,
) -> Result<Json<serde_json::Value>, ApiError> {
    let (id, seat) = game_and_seat(&id, &seat)?;
    let options = &app.inner.options;
    let body = read_body(options, &headers, body, || true).await?;
    // No body (or `null`, as a route that took none read any): no fields.
    let empty = body.iter().all(u8::is_ascii_whitespace) || body.trim_ascii() == b"null";
    let request: JoinRequest = if empty {
        JoinRequest::default()
    } else {
        object(&body).map_err(|e| {
            ApiError::new(ErrorCode::BadRequest, format!("not a request to join: {e}"))
        })?
    };
    let (campaign, rematch_of) =
        with_store(&app, move |s| Ok((s.campaign_of(id)?, s.rematch_of(id)?))).await?;
    if let Some(campaign) = campaign {
        return Err(ApiError::new(
            ErrorCode::SeatTaken,
            format!("game {id} belongs to campaign {campaign}: its seats are the campaign's"),
        ));
    }
    let handle = app.game(id).await?;
    if let Some(of) = rematch_of {
        kept_for_its_player(&app, id, seat, of, request.token).await?;
    }
    let token = new_token()?;
    let held = Held::Game(id, seat);
    hold_seat(&app, client.address, held).await?;
    let hash = TokenHash::of(&token);
    let address = client.address;
    let state = app.clone();
    // In a task of its own: a client that leaves midway gets the seat all the same (its token
    // lost with the answer), or its address gets the place back; never a place kept for nothing.
    to_its_end(async move {
        let holder = address.to_string();
        let joined = asked(&state, handle, |h| {
            let holder = holder.clone();
            async move { h.join(seat, hash, Some(holder)).await }
        })
        .await;
        if joined.is_err() {
            state.inner.limiters.release(address, held);
        }
        joined
    })
    .await?;
    Ok(Json(
        serde_json::json!({ "id": id, "seat": seat, "token": token }),
    ))
}

/// Checks that `token` is the token of the seat of finished game `of` whose player sits at
/// `seat` in its rematch `id`: a rematch is for the same players, so a stranger cannot take
/// one of its seats before them.
async fn kept_for_its_player<S: Store>(
    app: &AppState<S>,
    id: GameId,
    seat: Seat,
    of: GameId,
    token: Option<String>,
) -> Result<(), ApiError> {
    let before = with_store(app, move |s| s.load(of)).await?;
    let n = before.seats.len();
    if usize::from(seat.0) >= n {
        // The actor says which seats there are.
        return Ok(());
    }
    let from = games::rematch_seat_from(seat, n);
    if !before.seats[usize::from(from.0)].is_human() {
        // A bot's seat: the actor refuses it as such.
        return Ok(());
    }
    let kept = |why: &str| {
        ApiError::new(
            ErrorCode::SeatReserved,
            format!(
                "seat {seat} of game {id}, the rematch of game {of}, is kept for the player of \
                 seat {from} of game {of}: {why}"
            ),
        )
    };
    let Some(token) = token else {
        return Err(kept("join with that seat's token, `{\"token\": …}`"));
    };
    let matches = before.seats[usize::from(from.0)]
        .token_hash
        .as_ref()
        .is_some_and(|hash| hash.matches(&token));
    if matches {
        Ok(())
    } else {
        Err(kept("this token is not that seat's"))
    }
}

/// `POST /api/games/ID/seats/SEAT/leave`'s body: the seat's token.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LeaveRequest {
    token: String,
}

/// `POST /api/games/ID/seats/SEAT/leave`: the person of the seat leaves the game, and a bot
/// ([`crate::STAND_IN`]) plays the seat to the end; the seat no longer counts against the person's
/// address.
async fn leave<S: Store>(
    State(app): State<AppState<S>>,
    client: Client,
    Segments((id, seat)): Segments<(String, String)>,
    headers: HeaderMap,
    body: Body,
) -> Result<Json<serde_json::Value>, ApiError> {
    let (id, seat) = game_and_seat(&id, &seat)?;
    let body = read_body(&app.inner.options, &headers, body, || true).await?;
    let request: LeaveRequest = object(&body).map_err(|e| {
        ApiError::new(
            ErrorCode::BadRequest,
            format!("not a request to leave (`{{\"token\": …}}`, the seat's token): {e}"),
        )
    })?;
    if let Some(campaign) = with_store(&app, move |s| s.campaign_of(id)).await? {
        return Err(ApiError::new(
            ErrorCode::BadRequest,
            format!(
                "game {id} belongs to campaign {campaign}: a campaign's seats are kept to its end"
            ),
        ));
    }
    let handle = app.game(id).await?;
    let token = request.token;
    // The last person to leave leaves a game of bots alone, which plays on: one of the
    // address's games of bots.
    let summary = with_store(&app, move |s| s.summary(id)).await?;
    let others = summary
        .seats
        .iter()
        .any(|s| s.seat != seat && s.player == store::HUMAN);
    let state = app.clone();
    let address = client.address;
    // To its end even if the client leaves midway: the game built again, its bot playing.
    let hand_over = async move {
        let handle = asked(&state, handle, |h| {
            let token = token.clone();
            async move {
                h.hand_over(seat, token, crate::STAND_IN.to_string())
                    .await
                    .map(|()| h)
            }
        })
        .await?;
        // The game is built again from the store, the bot in the seat, and plays on.
        handle.ended().await;
        state.inner.limiters.release(address, Held::Game(id, seat));
        state.game(id).await?;
        Ok((Some(id), ()))
    };
    if others {
        to_its_end(hand_over).await?;
    } else {
        keep_bot_game(&app, address).await?;
        making_bot_game(&app, address, hand_over).await?;
    }
    Ok(Json(summary_of(&app, id).await?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WsQuery {
    token: Option<String>,
    #[serde(default)]
    views: socket::ViewMode,
}

async fn ws<S: Store>(
    State(app): State<AppState<S>>,
    client: Client,
    Segments(id): Segments<String>,
    parsed: Result<Query<WsQuery>, QueryRejection>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let upgrade = websocket(upgrade)?;
    let query = query(parsed)?;
    Ok(upgrade
        // Clients send small messages: a smaller read buffer than the default 128 KiB, which
        // the WebSocket layer clears before each read.
        .read_buffer_size(1024)
        .max_message_size(socket::HARD_MAX_MESSAGE)
        .max_frame_size(socket::HARD_MAX_MESSAGE)
        .on_upgrade(move |ws| async move {
            // The connection keeps its place under the caps as long as the WebSocket lives.
            let Client { address, slot } = client;
            let _slot = slot;
            let handle = match game_id(&id) {
                Ok(id) => app.game(id).await,
                Err(e) => Err(e),
            };
            let handle = match handle {
                Ok(handle) => handle,
                Err(e) => {
                    let code = match e.code {
                        ErrorCode::UnknownGame => socket::CLOSE_UNKNOWN_GAME,
                        ErrorCode::ShuttingDown => socket::CLOSE_GOING_AWAY,
                        ErrorCode::DamagedGame => socket::CLOSE_DAMAGED,
                        _ => socket::CLOSE_RESTART,
                    };
                    return socket::refuse(ws, e, code).await;
                }
            };
            let seat = match query.token {
                None => None,
                Some(token) => match handle.authenticate(token).await {
                    Ok(Some(seat)) => Some(seat),
                    Ok(None) => {
                        let e = ApiError::new(
                            ErrorCode::BadToken,
                            format!("this token is not a seat's of game {}", handle.id),
                        );
                        return socket::refuse(ws, e, socket::CLOSE_BAD_TOKEN).await;
                    }
                    Err(e) => return socket::refuse(ws, e, socket::CLOSE_RESTART).await,
                },
            };
            let key = seat.map(|seat| (handle.id, seat));
            let limiters = &app.inner.limiters;
            let registered = key.map(|key| (key, limiters.connect_seat(key)));
            let (number, leave) = match registered {
                Some((key, (number, leave))) => (Some((key, number)), Some(leave)),
                None => (None, None),
            };
            let allowance = socket::Allowance {
                message: || limiters.message(address, key),
                replaced: async move {
                    let told = match leave {
                        Some(leave) => leave.await.is_ok(),
                        None => false,
                    };
                    if !told {
                        std::future::pending::<()>().await;
                    }
                },
            };
            socket::run(
                ws,
                handle,
                seat,
                query.views,
                app.limits(),
                allowance,
                app.shutdown_signal(),
            )
            .await;
            if let Some((key, number)) = number {
                limiters.disconnect_seat(key, number);
            }
        }))
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[tokio::test]
    async fn a_game_of_bots_made_for_a_client_that_left_midway_counts() {
        let options = crate::Options {
            bot_games_per_address: 1,
            ..crate::Options::default()
        };
        let app = AppState::new(store::SqliteStore::open(":memory:").unwrap(), options);
        let address: IpAddr = "203.0.113.7".parse().unwrap();
        keep_bot_game(&app, address).await.unwrap();
        // The request is dropped while the game is being made...
        let making = making_bot_game(&app, address, async {
            tokio::time::sleep(Duration::from_millis(50)).await;
            Ok((Some(GameId(7)), ()))
        });
        assert!(
            tokio::time::timeout(Duration::from_millis(5), making)
                .await
                .is_err()
        );
        // ...and the game, made all the same, takes the address's place.
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert_eq!(app.inner.limiters.bot_games(address), [GameId(7)]);
        let refused = keep_bot_game(&app, address).await.unwrap_err();
        assert_eq!(refused.code, ErrorCode::TooManyBotGames);
        // A game that could not be made gives its place back.
        let other: IpAddr = "203.0.113.8".parse().unwrap();
        keep_bot_game(&app, other).await.unwrap();
        let failed = making_bot_game(&app, other, async {
            Err::<(Option<GameId>, ()), _>(ApiError::new(ErrorCode::BadRequest, "no"))
        });
        assert!(failed.await.is_err());
        assert!(app.inner.limiters.bot_games(other).is_empty());
        keep_bot_game(&app, other).await.unwrap();
    }
}
