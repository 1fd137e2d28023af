//! *Rise of Empire* campaigns on the server: two seats (people or a bot) that play the
//! campaign's twelve games in turn, each game a game of the server like the others.
//!
//! The store keeps a campaign's save (sides, players, seed, choices, the upgrades after the
//! last scenario) and links its games; its state is rebuilt on each request by replaying
//! them, as the terminal's `realms campaign` does from a file. The seed never leaves the
//! server: each game's seed derives from it, and a game's record (with its own seed) is
//! published only once that game is over.

use std::net::IpAddr;
use std::sync::Arc;

use axum::Json;
use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use game::Seat;
use serde::{Deserialize, Serialize};
use starrealms::campaign::{Campaign, CampaignDef, CampaignSave, Completion, Status};
use starrealms::cards::{CardId, Faction, Sets, Texts};
use store::{CampaignId, GameId, HUMAN, Store, StoreError, StoredCampaign, TokenHash};

use crate::actor::blocking;
use crate::api::{Client, Segments, fresh_seed, hold_seat, new_token, object, read_body};
use crate::limits::Held;
use crate::protocol::{ApiError, ErrorCode};
use crate::{AppState, Lang};

/// A request to start a campaign (`POST /api/campaigns`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateCampaign {
    /// Who plays each of the two seats: `human` or a bot's name. Seat p1 is for a person.
    pub players: Vec<String>,
    /// The side each seat wishes (`star_empire`, `trade_federation`); if both wish the same,
    /// the campaign's seed draws who gets it. Default: p1 the Star Empire, p2 the Federation.
    #[serde(default)]
    pub sides: Option<Vec<String>>,
    /// The seed, for a campaign with one person only (practice, tests); by default the
    /// server draws one nobody knows.
    #[serde(default)]
    pub seed: Option<u64>,
}

/// A scenario as a campaign page shows it.
#[derive(Clone, Debug, Serialize)]
struct ScenarioView {
    number: u8,
    name: Texts,
    text: Texts,
    political: bool,
    victory_point: VictoryPointView,
}

#[derive(Clone, Debug, Serialize)]
struct VictoryPointView {
    points: u8,
    name: Texts,
}

/// A seat of a campaign as everybody may see it.
#[derive(Clone, Debug, Serialize)]
struct SeatView {
    seat: Seat,
    player: String,
    claimed: bool,
}

/// What `GET /api/campaigns/{id}` answers: everything public about a campaign.
#[derive(Clone, Debug, Serialize)]
struct CampaignView {
    id: CampaignId,
    name: Texts,
    created_at: String,
    seats: Vec<SeatView>,
    /// The campaign's games, in order; the last may be in progress.
    games: Vec<GameId>,
    scenarios: Vec<ScenarioView>,
    status: Status,
}

fn def() -> Result<&'static CampaignDef, ApiError> {
    CampaignDef::embedded().map_err(|e| ApiError::new(ErrorCode::BadRequest, e.to_string()))
}

fn refused(message: impl Into<String>) -> ApiError {
    ApiError::new(ErrorCode::CampaignRefused, message)
}

fn campaign_id(text: &str) -> Result<CampaignId, ApiError> {
    text.parse().map_err(|_| {
        ApiError::new(
            ErrorCode::UnknownCampaign,
            format!("there is no campaign `{text}`"),
        )
    })
}

/// A campaign rebuilt from the store: its save with its games' records, replayed.
fn rebuild<S: Store>(store: &S, stored: &StoredCampaign, lang: Lang) -> Result<Campaign, ApiError> {
    let id = stored.id;
    let mut save: CampaignSave = serde_json::from_value(stored.save.clone()).map_err(|e| {
        crate::log(
            lang,
            "serve.log.campaign_save",
            &[("id", &id), ("error", &e)],
        );
        damaged(id)
    })?;
    save.games = stored
        .games
        .iter()
        .map(|&g| store.load(g).map(|s| s.record))
        .collect::<Result<_, StoreError>>()?;
    Campaign::replay(def()?, save).map_err(|e| {
        // The details stay in the server's log: a game in progress holds hidden cards.
        crate::log(
            lang,
            "serve.log.campaign_rebuild",
            &[("id", &id), ("error", &e)],
        );
        damaged(id)
    })
}

fn damaged(id: CampaignId) -> ApiError {
    ApiError::new(
        ErrorCode::DamagedGame,
        format!("campaign {id} is damaged: its stored games no longer replay"),
    )
}

/// The save as the store keeps it: without the games, which are stored as games.
fn bare_save(c: &Campaign) -> serde_json::Value {
    let mut save = c.save.clone();
    save.games.clear();
    serde_json::to_value(save).expect("a save serializes")
}

/// Loads a campaign and lets its bots make the upgrades after the last scenario that are
/// theirs to make (each a function of the campaign alone, so two requests doing it at once
/// write the same).
fn load<S: Store>(
    store: &S,
    id: CampaignId,
    lang: Lang,
) -> Result<(StoredCampaign, Campaign), ApiError> {
    let mut stored = store.load_campaign(id)?;
    let mut c = rebuild(store, &stored, lang)?;
    let mut changed = false;
    while let Some(p) = c.completion_turn() {
        if c.save.players[p as usize] == HUMAN {
            break;
        }
        let Some(step) = bots::campaign::completion(&c, p) else {
            break;
        };
        c.complete(step).map_err(|e| refused(e.to_string()))?;
        changed = true;
    }
    if changed {
        // Written if nothing else was in between; otherwise what was written instead is read
        // again.
        if !store.update_campaign(id, &bare_save(&c), stored.revision)? {
            return load(store, id, lang);
        }
        stored.revision += 1;
    }
    Ok((stored, c))
}

/// Whether campaign `id` is over (its seats no longer count among those an address holds): as
/// many of its games over as the campaign has scenarios, as a replay of the campaign would
/// count them, read from the store without one (a join refused at the seat cap asks this of
/// every campaign its address holds a seat of). A campaign that cannot be read is not over.
pub(crate) fn is_over<S: Store>(store: &S, id: CampaignId) -> bool {
    let (Ok(def), Ok(stored)) = (def(), store.load_campaign(id)) else {
        return false;
    };
    let scenarios = def.scenario.len();
    stored.games.len() >= scenarios
        && stored
            .games
            .iter()
            .filter(|&&game| store.summary(game).is_ok_and(|s| s.finished))
            .count()
            >= scenarios
}

fn view(stored: &StoredCampaign, c: &Campaign) -> CampaignView {
    CampaignView {
        id: stored.id,
        name: c.def.name.clone(),
        created_at: stored.created_at.clone(),
        seats: stored
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| SeatView {
                seat: Seat(i as u8),
                player: s.player.clone(),
                claimed: s.token_hash.is_some(),
            })
            .collect(),
        games: stored.games.clone(),
        scenarios: c
            .def
            .scenario
            .iter()
            .map(|sc| ScenarioView {
                number: sc.number,
                name: sc.name.clone(),
                text: sc.text.clone(),
                political: sc.political,
                victory_point: VictoryPointView {
                    points: sc.victory_point.points,
                    name: sc.victory_point.name.clone(),
                },
            })
            .collect(),
        status: c.status(),
    }
}

/// Runs a store call, and what follows it, on a blocking thread.
async fn with_store<S: Store, T: Send + 'static>(
    app: &AppState<S>,
    address: IpAddr,
    f: impl FnOnce(&S, Lang) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let store = Arc::clone(&app.inner.context.store);
    let lang = app.inner.context.log_lang;
    // Most of a campaign's requests rebuild it, replaying its games: replays wait their turn.
    crate::api::replaying(app, address, move || f(&store, lang)).await?
}

fn parse_side(text: &str) -> Result<Faction, ApiError> {
    let side: Faction = serde_json::from_value(serde_json::Value::String(text.to_string()))
        .map_err(|_| {
            ApiError::new(
                ErrorCode::BadRequest,
                format!("`{text}` is not a side: star_empire or trade_federation"),
            )
        })?;
    Ok(side)
}

/// `POST /api/campaigns`: a new campaign, nobody seated yet (the creator joins p1 next).
pub(crate) async fn create<S: Store>(
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
    let bad = |m: String| ApiError::new(ErrorCode::BadRequest, m);
    let request: CreateCampaign =
        object(&body).map_err(|e| bad(format!("not a campaign request: {e}")))?;
    if request.players.len() != 2 {
        return Err(bad(format!(
            "a campaign is for two players, not {}",
            request.players.len()
        )));
    }
    if request.players[0] != HUMAN {
        return Err(bad("seat p1 of a campaign is for a person (`human`)".into()));
    }
    for name in &request.players {
        crate::games::check_player(
            crate::GameKind::Starrealms,
            name,
            options.max_bot_iterations,
        )
        .map_err(bad)?;
    }
    let sides = match &request.sides {
        None => [Faction::StarEmpire, Faction::TradeFederation],
        Some(v) if v.len() == 2 => [parse_side(&v[0])?, parse_side(&v[1])?],
        Some(v) => return Err(bad(format!("`sides` names two sides, not {}", v.len()))),
    };
    let people = request.players.iter().filter(|p| *p == HUMAN).count();
    if request.seed.is_some() && people > 1 && !options.allow_chosen_seeds {
        return Err(bad(
            "a campaign with two people cannot be given a `seed`: whoever chose it would know \
             every hand of its twelve games. Leave it out and the server draws one nobody knows"
                .into(),
        ));
    }
    let seed_chosen = request.seed.is_some();
    let seed = match request.seed {
        Some(seed) => seed,
        None => fresh_seed()?,
    };
    let players = [request.players[0].clone(), request.players[1].clone()];
    let c = Campaign::new(def()?, sides, players.clone(), seed).map_err(|e| bad(e.to_string()))?;
    let save = bare_save(&c);
    let answer = with_store(&app, client.address, move |s, lang| {
        let id = s.create_campaign(&save, &players, seed_chosen)?;
        let (stored, c) = load(s, id, lang)?;
        Ok(view(&stored, &c))
    })
    .await?;
    Ok((StatusCode::CREATED, Json(answer)).into_response())
}

/// `GET /api/campaigns/{id}`.
pub(crate) async fn show<S: Store>(
    State(app): State<AppState<S>>,
    client: Client,
    Segments(id): Segments<String>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let id = campaign_id(&id)?;
    let answer = with_store(&app, client.address, move |s, lang| {
        let (stored, c) = load(s, id, lang)?;
        Ok(view(&stored, &c))
    })
    .await?;
    Ok(Json(
        serde_json::to_value(answer).expect("a view serializes"),
    ))
}

/// `POST /api/campaigns/{id}/seats/{seat}/join`: a person takes a free seat, and gets the
/// token that opens it in the campaign and in each of its games.
pub(crate) async fn join<S: Store>(
    State(app): State<AppState<S>>,
    client: Client,
    Segments((id, seat)): Segments<(String, String)>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let id = campaign_id(&id)?;
    let seat: Seat = seat
        .parse()
        .map_err(|e: game::BadSeat| ApiError::new(ErrorCode::UnknownSeat, e.to_string()))?;
    let token = new_token()?;
    let hash = TokenHash::of(&token);
    // A campaign's seat counts among the seats its address holds, as a game's does.
    let held = Held::Campaign(id, seat);
    hold_seat(&app, client.address, held).await?;
    let address = client.address;
    let state = app.clone();
    // In a task of its own, to its end even if the client leaves midway: the seat claimed and
    // its games told, or the address's place given back.
    crate::actor::to_its_end(async move {
        let holder = address.to_string();
        // Nothing replayed: not in the replays' line.
        let store = Arc::clone(&state.inner.context.store);
        let claiming = holder.clone();
        let claimed = blocking(move || {
            store.claim_campaign_seat(id, seat, &hash, Some(&claiming))?;
            Ok::<_, ApiError>(store.load_campaign(id)?.games)
        })
        .await;
        let games = claimed.inspect_err(|_| state.inner.limiters.release(address, held))?;
        // The store gave the seat in the campaign's games not over too: those in memory hear
        // of it, so that their tables show it claimed and a game waiting for it starts.
        for game in games {
            if let Some(handle) = state.live(game).await {
                handle.claimed(seat, hash, Some(holder.clone())).await;
            }
        }
        Ok::<_, ApiError>(())
    })
    .await?;
    Ok(Json(
        serde_json::json!({ "campaign": id, "seat": seat, "token": token }),
    ))
}

/// The body of `next` and `complete`: the seat's token, and what the seat decides.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Decision {
    token: String,
    /// `next`: the option of the scenario's choice (1-based, as the page shows it).
    #[serde(default)]
    choice: Option<u8>,
    /// `complete`: the card of the trade deck to upgrade.
    #[serde(default)]
    card: Option<String>,
    /// `complete`: the sheet.
    #[serde(default)]
    sheet: Option<String>,
    /// `complete`: the row, 1 to 5.
    #[serde(default)]
    row: Option<u8>,
}

/// The seat whose token this is, or `bad_token`.
fn seat_of(stored: &StoredCampaign, token: &str) -> Result<usize, ApiError> {
    stored
        .seats
        .iter()
        .position(|s| s.token_hash.is_some_and(|h| h.matches(token)))
        .ok_or_else(|| {
            ApiError::new(
                ErrorCode::BadToken,
                format!("this token is not a seat's of campaign {}", stored.id),
            )
        })
}

async fn decision<S: Store>(
    app: &AppState<S>,
    headers: &HeaderMap,
    body: Body,
) -> Result<Decision, ApiError> {
    let body = read_body(&app.inner.options, headers, body, || true).await?;
    object(&body).map_err(|e| {
        ApiError::new(
            ErrorCode::BadRequest,
            format!("not a campaign decision: {e}"),
        )
    })
}

/// `POST /api/campaigns/{id}/next`: starts the next scenario's game. Either seat may ask,
/// once both are taken and no game is being played; when the scenario's card asks its first
/// player for a choice and that player is a person, only they may, giving `choice`.
pub(crate) async fn next<S: Store>(
    State(app): State<AppState<S>>,
    client: Client,
    Segments(id): Segments<String>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let id = campaign_id(&id)?;
    let request = decision(&app, &headers, body).await?;
    if request.card.is_some() || request.sheet.is_some() || request.row.is_some() {
        return Err(ApiError::new(
            ErrorCode::BadRequest,
            "`card`, `sheet` and `row` are for the upgrades after the campaign",
        ));
    }
    let (game, answer) = with_store(&app, client.address, move |s, lang| {
        let (stored, mut c) = load(s, id, lang)?;
        let seat = seat_of(&stored, &request.token)?;
        if let Some(free) = stored
            .seats
            .iter()
            .position(|s| s.is_human() && s.token_hash.is_none())
        {
            return Err(refused(format!(
                "waiting for p{} to join the campaign",
                free + 1
            )));
        }
        if c.is_over() {
            return Err(refused("every scenario of the campaign is played"));
        }
        if c.in_progress().is_some() {
            let game = stored.games.last().copied().unwrap_or(GameId(0));
            return Err(refused(format!(
                "game {game} of the campaign is being played: finish it first"
            )));
        }
        let k = c.scenario_index();
        let options = c.next_face().map_or(0, |f| f.choice.len());
        let first = c.next_first();
        let choice = if options < 2 {
            if request.choice.is_some_and(|n| n != 1) {
                return Err(refused(format!(
                    "scenario {} asks for no choice",
                    c.def.scenario[k].number
                )));
            }
            0
        } else if c.save.players[first] != HUMAN {
            if request.choice.is_some() {
                return Err(refused(format!(
                    "p{} opens this scenario and makes its choice",
                    first + 1
                )));
            }
            bots::campaign::scenario_choice(&c, c.game_seed(k) ^ 0xC401CE)
        } else if seat != first {
            return Err(refused(format!(
                "p{} opens this scenario and makes its choice: they start it",
                first + 1
            )));
        } else {
            match request.choice {
                Some(n) if (1..=options as u8).contains(&n) => n - 1,
                _ => {
                    return Err(refused(format!(
                        "choose one of the scenario's {options} options: `choice` 1 to {options}"
                    )));
                }
            }
        };
        let record = c.begin(choice).map_err(|e| refused(e.to_string()))?.clone();
        let game = s
            .add_campaign_game(id, k, &record, &bare_save(&c))
            .map_err(|e| match e {
                StoreError::WrongCampaignGame { .. } => {
                    refused("another game of the campaign was just started")
                }
                e => e.into(),
            })?;
        let (stored, c) = load(s, id, lang)?;
        Ok((game, view(&stored, &c)))
    })
    .await?;
    // Start it now: a bot that opens plays at once.
    app.game(game).await?;
    Ok((StatusCode::CREATED, Json(answer)).into_response())
}

/// `POST /api/campaigns/{id}/complete`: after the last scenario, the seat whose turn it is
/// upgrades a card of the trade deck with one of its stickers left.
pub(crate) async fn complete<S: Store>(
    State(app): State<AppState<S>>,
    client: Client,
    Segments(id): Segments<String>,
    headers: HeaderMap,
    body: Body,
) -> Result<Json<serde_json::Value>, ApiError> {
    let id = campaign_id(&id)?;
    let request = decision(&app, &headers, body).await?;
    let answer = with_store(&app, client.address, move |s, lang| {
        let (stored, mut c) = load(s, id, lang)?;
        let seat = seat_of(&stored, &request.token)?;
        let Some(turn) = c.completion_turn() else {
            return Err(refused(if c.is_over() {
                "every sticker that fits a card is used: the campaign is complete"
            } else {
                "the upgrades come after the last scenario"
            }));
        };
        if turn as usize != seat {
            return Err(refused(format!("it is p{}'s turn to upgrade", turn + 1)));
        }
        let (Some(card), Some(sheet), Some(row)) = (request.card, request.sheet, request.row)
        else {
            return Err(ApiError::new(
                ErrorCode::BadRequest,
                "an upgrade names `card`, `sheet` and `row`",
            ));
        };
        let card = starrealms::cards().find(&card).ok_or_else(|| {
            ApiError::new(ErrorCode::BadRequest, format!("there is no card `{card}`"))
        })?;
        c.complete(Completion {
            player: turn,
            card,
            sheet,
            row,
        })
        .map_err(|e| refused(e.to_string()))?;
        if !s.update_campaign(id, &bare_save(&c), stored.revision)? {
            return Err(refused(
                "another decision of the campaign was just made: this one was not, look again",
            ));
        }
        let (stored, c) = load(s, id, lang)?;
        Ok(view(&stored, &c))
    })
    .await?;
    Ok(Json(
        serde_json::to_value(answer).expect("a view serializes"),
    ))
}

/// The trade deck a finished campaign left, and the sets its cards come from, for a game
/// after the campaign.
pub(crate) fn final_deck<S: Store>(
    store: &S,
    id: CampaignId,
    lang: Lang,
) -> Result<(Sets, Vec<CardId>), ApiError> {
    let (_, c) = load(store, id, lang)?;
    let deck = c
        .final_trade_deck()
        .map_err(|e| refused(format!("campaign {id} has no deck to deal from yet: {e}")))?;
    let names: Vec<&String> = c.def.sets.iter().chain(&c.def.post_campaign).collect();
    let sets = Sets::from_names(&names).map_err(refused)?;
    Ok((sets, deck))
}
