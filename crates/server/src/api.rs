//! The HTTP routes: the lobby API, the WebSocket entry, the texts and files of the browser
//! interface.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::StreamExt as _;
use game::Seat;
use serde::Deserialize;
use store::{GameId, Store, TokenHash};

use crate::actor::blocking;
use crate::games::CreateGame;
use crate::protocol::{ApiError, ErrorCode};
use crate::{AppState, socket, web};

/// Largest WebSocket message or frame taken off the wire at all: beyond it the connection is
/// dropped. Messages between the configured limit and this one get a `too_large` error.
const HARD_MAX_MESSAGE: usize = 64 * 1024;

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
        .route("/api/games/{id}/seats/{seat}/join", post(join::<S>))
        .route("/api/games/{id}/ws", get(ws::<S>))
        .route("/api/{*rest}", get(not_found).post(not_found))
        .route("/", get(file::<S>))
        .route("/{*path}", get(file::<S>))
        .fallback(not_found)
        .with_state(state)
}

/// A file of the browser interface.
async fn file<S: Store>(
    State(app): State<AppState<S>>,
    path: Option<Path<String>>,
) -> Result<Response, ApiError> {
    let path = path.map(|Path(p)| p).unwrap_or_default();
    web::asset(&path, app.inner.options.web_dir.as_deref()).await
}

#[derive(Deserialize)]
struct TextsQuery {
    lang: Option<String>,
}

/// The interface's texts in a language (English by default).
async fn texts(Query(query): Query<TextsQuery>) -> Result<Json<serde_json::Value>, ApiError> {
    Ok(Json(web::texts(query.lang.as_deref().unwrap_or("en"))?))
}

async fn protocol() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/markdown; charset=utf-8")],
        PROTOCOL,
    )
}

async fn not_found() -> ApiError {
    ApiError::new(ErrorCode::NotFound, "no such route (see /protocol.md)")
}

fn game_id(text: &str) -> Result<GameId, ApiError> {
    text.parse()
        .map_err(|_| ApiError::new(ErrorCode::UnknownGame, format!("there is no game {text}")))
}

/// Runs a store call on a blocking thread.
async fn with_store<S: Store, T: Send + 'static>(
    app: &AppState<S>,
    f: impl FnOnce(&S) -> Result<T, store::StoreError> + Send + 'static,
) -> Result<T, ApiError> {
    let store = Arc::clone(&app.inner.store);
    Ok(blocking(move || f(&store)).await?)
}

#[derive(Deserialize)]
struct ListQuery {
    #[serde(default)]
    open: bool,
}

async fn list<S: Store>(
    State(app): State<AppState<S>>,
    Query(query): Query<ListQuery>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let games = if query.open {
        with_store(&app, |s| s.list_open()).await?
    } else {
        with_store(&app, |s| s.list_unfinished()).await?
    };
    Ok(Json(serde_json::json!({ "games": games })))
}

async fn create<S: Store>(
    State(app): State<AppState<S>>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let request: CreateGame = serde_json::from_slice(&body)
        .map_err(|e| ApiError::new(ErrorCode::BadRequest, format!("not a game request: {e}")))?;
    let seed = match request.seed {
        Some(seed) => seed,
        // Not game randomness but a fresh deal: the operating system's generator, at the
        // server's edge; the seed is stored, so the game still replays exactly.
        None => getrandom::u64().map_err(|e| {
            ApiError::new(
                ErrorCode::Internal,
                format!("no random seed available: {e}"),
            )
        })?,
    };
    let record = request
        .record(seed)
        .map_err(|e| ApiError::new(ErrorCode::BadRequest, e))?;
    let id = with_store(&app, move |s| s.create(&record)).await?;
    // Start it now: bots to move play at once.
    app.game(id).await?;
    let summary = with_store(&app, move |s| s.summary(id)).await?;
    Ok((StatusCode::CREATED, Json(summary)).into_response())
}

async fn summary<S: Store>(
    State(app): State<AppState<S>>,
    Path(id): Path<String>,
) -> Result<Json<store::GameSummary>, ApiError> {
    let id = game_id(&id)?;
    Ok(Json(with_store(&app, move |s| s.summary(id)).await?))
}

async fn record<S: Store>(
    State(app): State<AppState<S>>,
    Path(id): Path<String>,
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

/// A fresh seat token: 256 bits from the operating system's generator, in hexadecimal.
fn new_token() -> Result<String, ApiError> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)
        .map_err(|e| ApiError::new(ErrorCode::Internal, format!("no random token: {e}")))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

async fn join<S: Store>(
    State(app): State<AppState<S>>,
    Path((id, seat)): Path<(String, String)>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let id = game_id(&id)?;
    let seat: Seat = seat
        .parse()
        .map_err(|e: game::BadSeat| ApiError::new(ErrorCode::UnknownSeat, e.to_string()))?;
    let handle = app.game(id).await?;
    let token = new_token()?;
    handle.join(seat, TokenHash::of(&token)).await?;
    Ok(Json(
        serde_json::json!({ "id": id, "seat": seat, "token": token }),
    ))
}

#[derive(Deserialize)]
struct WsQuery {
    token: Option<String>,
}

async fn ws<S: Store>(
    State(app): State<AppState<S>>,
    Path(id): Path<String>,
    Query(query): Query<WsQuery>,
    upgrade: WebSocketUpgrade,
) -> Response {
    upgrade
        // Clients send small messages: a smaller read buffer than the default 128 KiB, which
        // the WebSocket layer clears before each read.
        .read_buffer_size(16 * 1024)
        .max_message_size(HARD_MAX_MESSAGE)
        .max_frame_size(HARD_MAX_MESSAGE)
        .on_upgrade(move |socket| async move {
            let (sink, stream) = socket.split();
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
                        _ => socket::CLOSE_RESTART,
                    };
                    return socket::refuse(sink, e, code).await;
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
                        return socket::refuse(sink, e, socket::CLOSE_BAD_TOKEN).await;
                    }
                    Err(e) => return socket::refuse(sink, e, socket::CLOSE_RESTART).await,
                },
            };
            socket::run(
                sink,
                stream,
                handle,
                seat,
                app.limits(),
                app.shutdown_signal(),
            )
            .await;
        })
}
