//! Test helpers: a server on port 0, the small HTTP client of `http.rs`, a WebSocket client that keeps every
//! message it receives, client-side bots that play a seat through the protocol, and the check
//! that a connection received exactly its seat's view.

use std::net::SocketAddr;
use std::time::Duration;

use bots::{Bot, SeatView};
use futures_util::{SinkExt as _, StreamExt as _};
use game::{Action as _, GameRecord, Seat};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use server::{Options, ServerError};
use store::Store;
use tokio::net::{TcpListener, TcpStream};

pub use crate::http::{get, get_headers, http, http_raw};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// How long any single wait may take before the test fails.
pub const PATIENCE: Duration = Duration::from_secs(20);

/// Options for tests: bots play at once, and so do the bots on the far side of sockets, from
/// one address; seeds may be chosen, so that tests can replay what they play.
pub fn options() -> Options {
    Options {
        bot_delay: Duration::ZERO,
        messages_burst: 1000,
        messages_per_second: 1000,
        address_messages_burst: 100_000,
        address_messages_per_second: 100_000,
        creations_burst: 10_000,
        requests_burst: 100_000,
        requests_per_second: 100_000,
        seats_per_address: 10_000,
        bot_games_per_address: 10_000,
        max_connections_per_address: 10_000,
        allow_chosen_seeds: true,
        ..Options::default()
    }
}

/// A server running on this test's runtime.
pub struct Running {
    pub addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<Result<(), ServerError>>,
}

/// Starts a server on a free port.
pub async fn start<S: Store>(store: S, options: Options) -> Running {
    start_state(server::AppState::new(store, options)).await
}

/// Starts a server whose state the caller keeps a handle of, on a free port.
pub async fn start_state<S: Store>(state: server::AppState<S>) -> Running {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(state.serve(listener, async move {
        let _ = stopped.await;
    }));
    Running {
        addr,
        stop: Some(stop),
        task,
    }
}

impl Running {
    /// Shuts the server down gracefully and waits until it has stopped.
    pub async fn stop(mut self) {
        let _ = self.stop.take().unwrap().send(());
        tokio::time::timeout(PATIENCE, self.task)
            .await
            .expect("the server stops")
            .unwrap()
            .unwrap();
    }
}

/// Creates a game; returns its id.
pub async fn create(addr: SocketAddr, request: Value) -> i64 {
    let (status, body) = http(addr, "POST", "/api/games", Some(request)).await;
    assert_eq!(status, 201, "{body}");
    body["id"].as_i64().unwrap()
}

/// Joins a seat; returns its token.
pub async fn join(addr: SocketAddr, id: i64, seat: &str) -> String {
    let (status, body) = http(
        addr,
        "POST",
        &format!("/api/games/{id}/seats/{seat}/join"),
        None,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    body["token"].as_str().unwrap().to_string()
}

/// A Star Realms game of two people of seed `seed`, both seats taken: its number and the seats'
/// tokens.
pub async fn both_seated(addr: SocketAddr, seed: u64) -> (i64, [String; 2]) {
    let id = create(
        addr,
        json!({"game": "starrealms", "seats": ["human", "human"], "seed": seed}),
    )
    .await;
    let tokens = [join(addr, id, "p1").await, join(addr, id, "p2").await];
    (id, tokens)
}

/// The record of a finished game.
pub async fn record(addr: SocketAddr, id: i64) -> GameRecord {
    let (status, body) = http(addr, "GET", &format!("/api/games/{id}/record"), None).await;
    assert_eq!(status, 200, "{body}");
    serde_json::from_value(body).unwrap()
}

/// What a WebSocket client got.
#[derive(Debug)]
pub enum Event {
    Message(Value),
    Closed(Option<u16>),
}

/// A WebSocket client that keeps every message.
pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// Every JSON message received, in order; with `views=changes`, each view made whole
    /// again (its `observation` and `seats` those of the views before, changed as it says).
    pub received: Vec<Value>,
    /// With `views=changes`: every message as it came, and the observation and the seats'
    /// list kept from the views so far.
    pub raw: Vec<Value>,
    kept: Option<(Value, Value)>,
    changes: bool,
}

/// Merges a view's `observation_changes` into `kept` as docs/protocol.md says: each field
/// replaced whole, but `players` of the same length merged player by player, field by field.
pub fn merge_changes(kept: &mut Value, changes: &Value) {
    for (key, value) in changes.as_object().expect("changes are an object") {
        match (kept.get_mut(key), value) {
            (Some(Value::Array(players)), Value::Array(new))
                if key == "players" && players.len() == new.len() =>
            {
                for (player, fields) in players.iter_mut().zip(new) {
                    for (field, value) in fields.as_object().expect("a player's changes") {
                        player[field] = value.clone();
                    }
                }
            }
            _ => kept[key] = value.clone(),
        }
    }
}

impl Client {
    /// Connects to a game, with a seat's token or as a spectator.
    pub async fn connect(
        addr: SocketAddr,
        id: impl std::fmt::Display,
        token: Option<&str>,
    ) -> Client {
        Client::open(addr, id, token, false).await
    }

    /// Connects as [`Client::connect`] does, asking for views as changes (`views=changes`).
    pub async fn connect_for_changes(
        addr: SocketAddr,
        id: impl std::fmt::Display,
        token: Option<&str>,
    ) -> Client {
        Client::open(addr, id, token, true).await
    }

    async fn open(
        addr: SocketAddr,
        id: impl std::fmt::Display,
        token: Option<&str>,
        changes: bool,
    ) -> Client {
        let mut query: Vec<String> = token.map(|t| format!("token={t}")).into_iter().collect();
        if changes {
            query.push("views=changes".into());
        }
        let query = if query.is_empty() {
            String::new()
        } else {
            format!("?{}", query.join("&"))
        };
        let url = format!("ws://{addr}/api/games/{id}/ws{query}");
        let (ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
        Client {
            ws,
            received: Vec::new(),
            raw: Vec::new(),
            kept: None,
            changes,
        }
    }

    /// With `views=changes`, `message` made whole: a view's observation and seats, from the
    /// views before when it leaves them out.
    fn whole(&mut self, mut message: Value) -> Value {
        if !self.changes || message["type"] != "view" {
            return message;
        }
        self.raw.push(message.clone());
        let map = message.as_object_mut().unwrap();
        let changes = map.remove("observation_changes");
        let (observation, seats) = match (self.kept.take(), changes) {
            (Some((mut observation, seats)), Some(changes)) => {
                assert!(
                    !map.contains_key("observation"),
                    "both ways at once: {map:?}"
                );
                merge_changes(&mut observation, &changes);
                // Fields a whole observation leaves out when zero or empty come in changes
                // as zero or empty: read back, the observation is written as a whole one.
                if map["game"] == "starrealms" {
                    let read: starrealms::Observation =
                        serde_json::from_value(observation).expect("a Star Realms observation");
                    observation = serde_json::to_value(read).unwrap();
                }
                (observation, seats)
            }
            (kept, None) => {
                let observation = map.remove("observation").expect("a whole observation");
                let seats = kept.map_or(Value::Null, |(_, seats)| seats);
                (observation, seats)
            }
            (None, Some(_)) => panic!("changes before any whole observation"),
        };
        let seats = map.remove("seats").unwrap_or(seats);
        assert!(seats.is_array(), "no seats' list yet");
        map.insert("observation".into(), observation.clone());
        map.insert("seats".into(), seats.clone());
        self.kept = Some((observation, seats));
        message
    }

    /// The next message or the close.
    pub async fn event(&mut self) -> Event {
        loop {
            let next = tokio::time::timeout(PATIENCE, self.ws.next())
                .await
                .expect("a message in time");
            match next {
                Some(Ok(Message::Text(t))) => {
                    let v: Value = serde_json::from_str(t.as_str()).unwrap();
                    let v = self.whole(v);
                    self.received.push(v.clone());
                    return Event::Message(v);
                }
                Some(Ok(Message::Close(frame))) => {
                    return Event::Closed(frame.map(|f| u16::from(f.code)));
                }
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                Some(Ok(other)) => panic!("unexpected frame {other:?}"),
                Some(Err(_)) | None => return Event::Closed(None),
            }
        }
    }

    /// The next message (fails on a close).
    pub async fn recv(&mut self) -> Value {
        match self.event().await {
            Event::Message(v) => v,
            Event::Closed(code) => panic!("closed ({code:?}) while waiting for a message"),
        }
    }

    /// Reads until a view of at least `version`.
    pub async fn view_at_least(&mut self, version: u64) -> Value {
        loop {
            let v = self.recv().await;
            if v["type"] == "view" && v["version"].as_u64().unwrap() >= version {
                return v;
            }
        }
    }

    /// Reads until a view that `wanted` accepts; returns it.
    pub async fn view_where(&mut self, wanted: impl Fn(&Value) -> bool) -> Value {
        loop {
            let v = self.recv().await;
            if v["type"] == "view" && wanted(&v) {
                return v;
            }
        }
    }

    /// Reads until a view in which every seat is connected (the views each seat's arrival
    /// pushed are read with it); returns it.
    pub async fn until_all_connected(&mut self) -> Value {
        self.view_where(all_connected).await
    }

    /// Reads until the game is over; returns the last view. At once if the last view read
    /// already showed it over (a short game can end before a watcher looks for its end).
    pub async fn until_over(&mut self) -> Value {
        let last = self.received.iter().rev().find(|m| m["type"] == "view");
        if let Some(view) = last.filter(|v| v["over"] == true) {
            return view.clone();
        }
        loop {
            let v = self.recv().await;
            if v["type"] == "view" && v["over"] == true {
                return v;
            }
        }
    }

    /// Sends a JSON message.
    pub async fn send(&mut self, message: Value) {
        self.send_text(&message.to_string()).await;
    }

    /// Sends a text frame as it is.
    pub async fn send_text(&mut self, text: &str) {
        self.ws.send(Message::Text(text.into())).await.unwrap();
    }

    /// Sends a ping frame.
    pub async fn send_ping(&mut self) {
        self.ws
            .send(Message::Ping(Default::default()))
            .await
            .unwrap();
    }

    /// Sends a binary frame.
    pub async fn send_binary(&mut self, bytes: Vec<u8>) {
        self.ws.send(Message::Binary(bytes.into())).await.unwrap();
    }

    /// Sends an `act`.
    pub async fn act(&mut self, client_id: &str, version: u64, action: &str) {
        self.send(
            json!({"type": "act", "client_id": client_id, "version": version, "action": action}),
        )
        .await;
    }
}

/// Whether a view shows every seat at the table.
pub fn all_connected(view: &Value) -> bool {
    view["seats"]
        .as_array()
        .is_some_and(|seats| seats.iter().all(|s| s["connected"] == true))
}

/// Plays a seat through the protocol until the game is over, choosing with `choose(view)`;
/// returns the client (with every message it received). It acts once per version, when its
/// seat is to move and the game waits for nobody (a view of the same version comes again
/// when somebody arrives at the table or leaves it).
pub async fn play_seat(mut client: Client, mut choose: impl FnMut(&Value) -> String) -> Client {
    let mut acted_on = None;
    loop {
        let v = client.recv().await;
        assert_eq!(v["type"], "view", "no error expected while playing: {v}");
        if v["over"] == true {
            return client;
        }
        let version = v["version"].as_u64().unwrap();
        let waiting = !v["waiting"].as_array().unwrap().is_empty();
        if v["to_move"] == v["seat"] && !waiting && acted_on.is_none_or(|a| version > a) {
            acted_on = Some(version);
            let action = choose(&v);
            client
                .act(
                    &format!("{}-{version}", v["seat"].as_str().unwrap()),
                    version,
                    &action,
                )
                .await;
        }
    }
}

/// A chooser that runs a bot of game `G` on the view's observation and legal actions: a bot
/// that plays from the other side of the socket, seeing only what the server sends.
pub fn remote_bot<G>(mut bot: Box<dyn Bot<G>>) -> impl FnMut(&Value) -> String
where
    G: game::State<Observation: DeserializeOwned>,
{
    move |view| {
        let seat: Seat = serde_json::from_value(view["seat"].clone()).unwrap();
        let observation: G::Observation =
            serde_json::from_value(view["observation"].clone()).unwrap();
        let legal: Vec<G::Action> = view["legal_actions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| G::Action::parse(t.as_str().unwrap()).unwrap())
            .collect();
        bot.choose(&SeatView::of_observation(seat, observation), &legal)
            .to_string()
    }
}

/// The first legal action: plays cards, uses abilities, buys and attacks before ending, so a
/// game moves on to its end.
pub fn first_legal(view: &Value) -> String {
    view["legal_actions"][0].as_str().unwrap().to_string()
}

/// Keys that would give away a deck's order or the RNG.
const SECRET_KEYS: [&str; 5] = ["deck", "trade_deck", "pile", "rng", "seed"];

fn no_secret_keys(v: &Value, path: &str) {
    match v {
        Value::Object(map) => {
            for (k, x) in map {
                assert!(
                    !SECRET_KEYS.contains(&k.as_str()),
                    "`{path}.{k}` is sent to a client"
                );
                no_secret_keys(x, &format!("{path}.{k}"));
            }
        }
        Value::Array(items) => items.iter().for_each(|x| no_secret_keys(x, path)),
        _ => {}
    }
}

/// Checks one message received by `seat` (`None`: a spectator) on its face: no hand but its
/// own and those of `shown` (teammates whose hands the format shows), no deck order, legal
/// actions only for the seat to move.
pub fn check_message(message: &Value, seat: Option<usize>, shown: &[usize]) {
    match message["type"].as_str() {
        Some("error") => return,
        Some("view") => {}
        other => panic!("unknown message type {other:?}: {message}"),
    }
    let seat_text = seat.map(|s| format!("p{}", s + 1));
    assert_eq!(message["seat"].as_str(), seat_text.as_deref());
    let observation = &message["observation"];
    assert_eq!(observation["seat"].as_str(), seat_text.as_deref());
    no_secret_keys(observation, "observation");
    let players = observation["players"]
        .as_array()
        .or_else(|| observation["planets"].as_array())
        .expect("players or planets");
    for (i, p) in players.iter().enumerate() {
        if Some(i) == seat || shown.contains(&i) {
            assert!(p["hand"].is_array(), "own or a teammate's hand shown: {p}");
        } else {
            assert!(p["hand"].is_null(), "seat {i}'s hand sent to {seat:?}");
        }
    }
    let legal = message["legal_actions"].as_array().unwrap();
    let waiting = message["waiting"]
        .as_array()
        .expect("`waiting` in every view");
    if seat.is_none() || message["to_move"].as_str() != seat_text.as_deref() {
        assert!(legal.is_empty(), "legal actions sent to a seat not to move");
    } else if !waiting.is_empty() {
        assert!(legal.is_empty(), "legal actions before the game started");
    } else {
        assert!(!legal.is_empty());
    }
    let seats = message["seats"].as_array().expect("`seats` in every view");
    assert_eq!(seats.len(), players.len(), "one entry of `seats` a seat");
    for (i, s) in seats.iter().enumerate() {
        assert_eq!(s["seat"], format!("p{}", i + 1));
        let human = s["player"] == "human";
        assert_eq!(
            waiting.contains(&s["seat"]),
            human && s["claimed"] == false && message["over"] == false,
            "`waiting` names the human seats not claimed: {message}"
        );
        if !human {
            assert_eq!(
                (&s["claimed"], &s["connected"]),
                (&json!(false), &json!(true))
            );
        }
    }
    if let Some(own) = seat {
        assert_eq!(
            (&seats[own]["claimed"], &seats[own]["connected"]),
            (&json!(true), &json!(true)),
            "a seat's connection sees itself at the table"
        );
    }
}

/// Checks that every view `seat` received holds exactly its observation at that version
/// (the game replayed from its final record) and that its log lines are the actions played,
/// each as that seat may read it.
pub fn check_views<G: server_games::Hidden>(
    record: &GameRecord,
    received: &[Value],
    seat: Option<usize>,
) {
    check_team_views::<G>(record, received, seat, &[]);
}

/// [`check_views`] for a seat that is also shown the hands of `shown`.
pub fn check_team_views<G: server_games::Hidden>(
    record: &GameRecord,
    received: &[Value],
    seat: Option<usize>,
    shown: &[usize],
) {
    let mut state: G = record.initial_state().unwrap();
    let mut played: Vec<(Seat, G::Action)> = Vec::new();
    // What the table saw of each action: every string of the public view just before it and
    // just after it (a line's card must be one of them).
    let mut seen: Vec<std::collections::HashSet<String>> = Vec::new();
    let mut next_log = 0;
    let mut last_version = None;
    for message in received {
        check_message(message, seat, shown);
        if message["type"] != "view" {
            continue;
        }
        let version = message["version"].as_u64().unwrap() as usize;
        assert!(
            last_version.is_none_or(|v| version >= v),
            "versions go forward"
        );
        last_version = Some(version);
        while played.len() < version {
            let action = G::Action::parse(&record.actions[played.len()]).unwrap();
            played.push((state.to_move().unwrap(), action));
            let mut public = std::collections::HashSet::new();
            public_strings(
                &serde_json::to_value(G::public(&state)).unwrap(),
                &mut public,
            );
            state.apply(action).unwrap();
            public_strings(
                &serde_json::to_value(G::public(&state)).unwrap(),
                &mut public,
            );
            seen.push(public);
        }
        let expected = match seat {
            Some(s) => serde_json::to_value(state.observation(Seat(s as u8))).unwrap(),
            None => serde_json::to_value(G::public(&state)).unwrap(),
        };
        assert_eq!(
            message["observation"], expected,
            "the view of {seat:?} at version {version}"
        );
        for line in message["log"].as_array().unwrap() {
            let index = line["index"].as_u64().unwrap() as usize;
            assert_eq!(index, next_log, "log lines in order, none missing");
            next_log += 1;
            let (by, action) = played[index];
            assert_eq!(line["seat"], by.to_string());
            let text = if Some(by.index()) == seat {
                action.to_string()
            } else {
                G::public_text(action)
            };
            assert_eq!(line["action"], text);
            match line.get("card") {
                None => {}
                Some(card) => {
                    let card = card.as_str().expect("a card id");
                    assert!(G::NAMES_CARDS, "no card in this game's log: {line}");
                    assert!(
                        seen[index].contains(card),
                        "line {index} names `{card}`, which the table did not see: {line}"
                    );
                }
            }
        }
    }
}

/// Every string of a public view, but its configuration's (which may list a whole trade deck).
fn public_strings(v: &Value, out: &mut std::collections::HashSet<String>) {
    match v {
        Value::String(s) => {
            out.insert(s.clone());
        }
        Value::Object(map) => {
            for (k, x) in map {
                if k != "config" {
                    public_strings(x, out);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|x| public_strings(x, out)),
        _ => {}
    }
}

/// What the checks need to know of each game.
pub mod server_games {
    use game::State;

    /// A game whose views the tests check.
    pub trait Hidden: State {
        /// Whether its log lines may name a card.
        const NAMES_CARDS: bool;
        /// The spectator's view.
        fn public(&self) -> Self::Observation;
        /// The action as other seats read it in the log.
        fn public_text(action: Self::Action) -> String;
    }

    impl Hidden for starrealms::State {
        const NAMES_CARDS: bool = true;
        fn public(&self) -> starrealms::Observation {
            self.public_observation()
        }
        fn public_text(action: starrealms::Action) -> String {
            action.to_string()
        }
    }

    impl Hidden for cosmique::State {
        const NAMES_CARDS: bool = false;
        fn public(&self) -> cosmique::Observation {
            self.public_observation()
        }
        fn public_text(action: cosmique::Action) -> String {
            // Meteors laid face down are hidden: the text without its card.
            let text = action.to_string();
            let words: Vec<&str> = text.split(' ').collect();
            match words[0] {
                "attack" | "defend" | "replace" => {
                    let mut kept = vec![words[0], words[1]];
                    if words.last() == Some(&"plus2") {
                        kept.push("plus2");
                    }
                    kept.join(" ")
                }
                _ => text,
            }
        }
    }
}
