//! `realms play`: a human against a bot, in the terminal.
//!
//! The human sees only their seat's observation. The game record is written after every bot
//! turn and every action of the human, atomically, so that nothing is lost on Ctrl-C, on a closed
//! input or on a crash; `realms replay` reads it back.

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use anyhow::Context as _;
use bots::SeatView;
use clap::Args;
use game::{GameRecord, Seat, State as _};
use i18n::{Lang, t, tf};
use starrealms::{Action, CardId, Config, State};

use crate::First;

use crate::menu;
use crate::term::{self, Screen};
use crate::text::{self, Names};

/// Options of `realms play`; their help is the translation table's `cli.play.arg.<option>`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    #[arg(long, default_value = "heuristic")]
    pub(crate) vs: String,
    #[arg(long)]
    pub(crate) seed: Option<u64>,
    #[arg(long, value_enum, default_value = "random", conflicts_with = "seat")]
    pub(crate) first: First,
    #[arg(long, default_value = "standard", value_parser = crate::help::format_value)]
    pub(crate) format: starrealms::Format,
    #[arg(long)]
    pub(crate) seats: Option<u8>,
    #[arg(long)]
    pub(crate) seat: Option<Seat>,
    #[arg(long, default_value = "rise_of_empire", value_parser = crate::help::edition_value)]
    pub(crate) edition: starrealms::Edition,
    #[arg(long, default_value = "standard", value_parser = crate::help::variant_value)]
    pub(crate) variant: cosmique::Variant,
    #[arg(long, value_name = "FILE")]
    pub(crate) save: Option<PathBuf>,
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with_all = ["seed", "first", "vs", "format", "seats", "seat", "edition"]
    )]
    pub(crate) resume: Option<PathBuf>,
    #[arg(long, value_enum, default_value = "auto", value_name = "WHEN")]
    pub(crate) color: term::ColorWhen,
}

/// A game to begin or go on with.
struct Start {
    seed: u64,
    human: Seat,
    record: GameRecord,
    path: PathBuf,
}

fn start(args: PlayArgs, lang: Lang) -> anyhow::Result<Start> {
    let Some(file) = args.resume else {
        let seed = args.seed.unwrap_or_else(clock_seed);
        let config = crate::TableOptions::apply(
            Config {
                edition: args.edition,
                ..Config::of_format(args.format, args.seats)
            },
            lang,
        )?;
        let state = State::new_game(&config, seed).map_err(anyhow::Error::msg)?;
        let n = config.seats;
        let human = match (args.seat, args.first) {
            (Some(seat), _) if seat.0 < n => seat,
            (Some(seat), _) => {
                anyhow::bail!(tf(lang, "play.err.no_seat", &[("seat", &seat), ("n", &n)]))
            }
            (None, First::Me) => state.first,
            (None, First::Bot) => Seat((state.first.0 + 1) % n),
            (None, First::Random) => Seat(0),
        };
        let mut record = GameRecord::new::<State>(&config, seed);
        record.cards = crate::card_file();
        record.players = vec![args.vs.clone(); n as usize];
        record.players[human.index()] = "human".into();
        let path = args
            .save
            .unwrap_or_else(|| PathBuf::from(format!("realms-game-{seed}.json")));
        return Ok(Start {
            seed,
            human,
            record,
            path,
        });
    };
    let name = file.display().to_string();
    let record = crate::read_record(&file, lang)?;
    let humans: Vec<usize> = (0..record.players.len())
        .filter(|&i| record.players[i] == "human")
        .collect();
    let [human] = humans[..] else {
        anyhow::bail!(tf(lang, "play.err.not_play", &[("file", &name)]));
    };
    for (i, p) in record.players.iter().enumerate() {
        if i != human {
            bots::starrealms::by_name(p, 0).map_err(|e| {
                anyhow::anyhow!(tf(
                    lang,
                    "cmd.err.file",
                    &[("file", &name), ("error", &e.text(lang))]
                ))
            })?;
        }
    }
    Ok(Start {
        seed: record.seed,
        human: Seat(human as u8),
        path: args.save.unwrap_or(file),
        record,
    })
}

/// The seed of the bot in `seat` (the same on resuming, so the bot goes on as it would have).
fn bot_seed(seed: u64, seat: Seat) -> u64 {
    seed ^ 0x05ee_db07 ^ (seat.0 as u64) << 40
}

#[allow(
    clippy::disallowed_methods,
    reason = "a game without a given seed gets one from the clock; the seed is printed and saved"
)]
pub(crate) fn clock_seed() -> u64 {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    now.as_secs() ^ (now.subsec_nanos() as u64) << 20
}

/// Keeps a game's record on disk: written after every move, and on Ctrl-C (exit 130).
pub(crate) struct Keeper {
    shared: Arc<Mutex<GameRecord>>,
    path: PathBuf,
    lang: Lang,
}

impl Keeper {
    /// Starts keeping `record` at `path` (and catches Ctrl-C to save it).
    pub(crate) fn new(record: GameRecord, path: PathBuf, lang: Lang) -> anyhow::Result<Keeper> {
        let shared = Arc::new(Mutex::new(record));
        let (copy, file) = (Arc::clone(&shared), path.clone());
        let message = t(lang, "interrupted");
        ctrlc::set_handler(move || {
            let record = copy.lock().unwrap_or_else(|e| e.into_inner());
            let _ = save(&record, &file, lang);
            eprintln!(
                "\n{}",
                message.replace("{file}", &file.display().to_string())
            );
            std::process::exit(130);
        })
        .context(t(lang, "play.err.ctrlc"))?;
        Ok(Keeper { shared, path, lang })
    }

    /// Appends an action (in text form) to the record.
    pub(crate) fn push(&self, action: String) {
        self.shared
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .actions
            .push(action);
    }

    /// Writes the record now.
    pub(crate) fn flush(&self) -> anyhow::Result<()> {
        save(
            &self.shared.lock().unwrap_or_else(|e| e.into_inner()),
            &self.path,
            self.lang,
        )
    }
}

/// Writes the record to `path` through a temporary file, so a reader never sees half a record.
pub fn save(record: &GameRecord, path: &Path, lang: Lang) -> anyhow::Result<()> {
    let tmp = path.with_extension("json.tmp");
    let write_err = |p: &Path| tf(lang, "cmd.err.write", &[("file", &p.display())]);
    std::fs::write(&tmp, record.to_json() + "\n").with_context(|| write_err(&tmp))?;
    std::fs::rename(&tmp, path).with_context(|| write_err(path))
}

/// A card in a few lines: name and cost, faction, kind and defense, and its abilities in words.
fn card_sheet(out: &mut Screen, c: CardId, lang: Lang) -> std::io::Result<()> {
    out.item("  ", &text::card_cost(c, lang))?;
    out.item("  ", &text::card_kind(c, lang))?;
    out.item("  ", &text::card_text(c, lang))
}

/// The card a player names: by its name in any language or its id, whole or by its first
/// letters when only one card's name starts so (case and accents aside). `Err`: why none.
fn find_card(name: &str, lang: Lang) -> Result<CardId, String> {
    let set = starrealms::cards();
    if let Some(c) = set.find(name) {
        return Ok(c);
    }
    let key = starrealms::cards::normalize_name(name);
    let mut found: Vec<CardId> = Vec::new();
    if !key.is_empty() {
        for (id, def) in set.iter().filter(|(_, d)| d.upgrade.is_none()) {
            let names = [def.id(), &def.spec.name.en, &def.spec.name.fr];
            if names
                .iter()
                .any(|n| starrealms::cards::normalize_name(n).starts_with(&key))
            {
                found.push(id);
            }
        }
    }
    match found[..] {
        [c] => Ok(c),
        [] => Err(tf(lang, "no_such_card", &[("name", &name)])),
        _ => {
            let names: Vec<&str> = found.iter().map(|&c| i18n::cards::name(c, lang)).collect();
            Err(tf(
                lang,
                "ambiguous_card",
                &[("name", &name), ("cards", &names.join(", "))],
            ))
        }
    }
}

/// The bots of a game, by seat (`None`: a person's seat).
type Players = Vec<Option<Box<dyn bots::Bot<State>>>>;

/// Applies `a`, which the seat to move takes, once every other seat's bot has seen it
/// ([`bots::Bot::watch`]).
fn apply_shown(state: &mut State, players: &mut Players, a: Action) -> Result<(), String> {
    if let Some(by) = state.to_move() {
        bots::show_others(state, players.iter_mut().map(|p| p.as_deref_mut()), by, a);
    }
    state.apply(a).map_err(|e| e.to_string())
}

/// `play all`: plays every card of the hand, one by one (a Stealth Needle last, so that it has a
/// ship to copy), while it is the player's turn and no decision is asked; returns how many.
fn play_all(
    state: &mut State,
    players: &mut Players,
    human: Seat,
    names: &Names,
    lang: Lang,
    out: &mut Screen,
    push: &dyn Fn(Action) -> anyhow::Result<()>,
) -> anyhow::Result<usize> {
    let set = starrealms::cards();
    let mut played = 0;
    loop {
        if state.to_move() != Some(human) || state.pending.is_some() {
            return Ok(played);
        }
        let mut plays: Vec<Action> = state
            .legal_actions()
            .into_iter()
            .filter(|a| matches!(a, Action::Play(_)))
            .collect();
        plays.sort_by_key(|a| match a {
            Action::Play(c) => set.info(*c).copies,
            _ => false,
        });
        let Some(&a) = plays.first() else {
            return Ok(played);
        };
        let obs = state.observation(human);
        apply_shown(state, players, a)
            .map_err(|e| anyhow::anyhow!("a listed action was refused: {e}"))?;
        push(a)?;
        say!(out, "  ✓ {}", text::action(a, &obs, names, lang));
        played += 1;
    }
}

/// What the player typed.
pub(crate) enum Input<A> {
    Act(A),
    Show,
    Help,
    Quit,
    Closed,
    /// `card NAME` (`carte NOM`, `carta NOME`): show a card.
    Card(String),
    /// `row N` (`ligne N`, `linha N`, `fila N`): show the card of a trade-row slot.
    Row(String),
    /// `play all` (`tout jouer`, `jogar tudo`, `jugar todo`): play every card of the hand.
    PlayAll,
}

/// The actions listed in the menu: all legal ones, except that an attack on a player or a
/// transfer to a teammate is listed only with the largest amount (smaller amounts can still be
/// typed: `attack p2 3`, `transfer p2 trade 1`).
fn shown_actions(legal: &[Action]) -> Vec<Action> {
    let mut shown: Vec<Action> = Vec::with_capacity(legal.len());
    let amount_of = |a: &Action| match *a {
        Action::AttackPlayer(s, _) => Some((0, s)),
        Action::TransferTrade(s, _) => Some((1, s)),
        Action::TransferCombat(s, _) => Some((2, s)),
        _ => None,
    };
    for &a in legal {
        if let (Some(kind), Some(last)) = (amount_of(&a), shown.last())
            && amount_of(last) == Some(kind)
        {
            shown.pop();
        }
        shown.push(a);
    }
    shown
}

/// Whether a word the player typed reads as a menu label (`h3`, `r2`, `x`, `b1a`) rather than
/// as an action's text.
fn looks_like_label(word: &str) -> bool {
    let n = word.chars().count();
    n <= 8
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '+' || c == '.')
        && (n == 1 || word.chars().any(|c| c.is_ascii_digit()))
}

/// Prints the menu: each action after its label, the labels in a column.
pub(crate) fn print_menu<A: Copy>(
    out: &mut Screen,
    menu: &[(String, A)],
    describe: impl Fn(A) -> String,
) -> std::io::Result<()> {
    let width = menu.iter().map(|(l, _)| l.len()).max().unwrap_or(1);
    for (label, a) in menu {
        let prefix = format!("  {}  ", term::strong(&format!("{label:<width$}")));
        out.item(&prefix, &describe(*a))?;
    }
    Ok(())
}

/// Reads one valid command, re-prompting on anything else. A label of `menu` (or a number:
/// its line) chooses that action; any action of `legal` may be typed as text.
pub(crate) fn read_command<A: game::Action>(
    out: &mut Screen,
    input: &mut impl BufRead,
    menu: &[(String, A)],
    legal: &[A],
    why: &dyn Fn(A) -> Option<String>,
    lang: Lang,
) -> anyhow::Result<Input<A>> {
    loop {
        out.prompt(t(lang, "prompt"))?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            return Ok(Input::Closed);
        }
        let line = line.trim();
        let lower = line.to_lowercase();
        match lower.as_str() {
            "" | "?" | "h" | "help" | "aide" | "ajuda" | "ayuda" => return Ok(Input::Help),
            "b" | "board" | "plateau" | "mesa" | "tablero" => return Ok(Input::Show),
            "q" | "quit" | "quitter" | "sair" | "salir" => return Ok(Input::Quit),
            "play all" | "tout jouer" | "jouer tout" | "jogar tudo" | "jugar todo" => {
                return Ok(Input::PlayAll);
            }
            _ => {}
        }
        for word in ["card ", "carte ", "carta "] {
            if let Some(name) = lower.strip_prefix(word) {
                return Ok(Input::Card(name.trim().to_string()));
            }
        }
        for word in ["row ", "ligne ", "linha ", "fila "] {
            if let Some(slot) = lower.strip_prefix(word) {
                return Ok(Input::Row(slot.trim().to_string()));
            }
        }
        if let Some((_, a)) = menu.iter().find(|(l, _)| *l == lower) {
            return Ok(Input::Act(*a));
        }
        if let Ok(n) = line.parse::<usize>() {
            match menu.get(n.wrapping_sub(1)) {
                Some(&(_, a)) => return Ok(Input::Act(a)),
                None => {
                    say!(
                        out,
                        "{}",
                        term::error(&tf(lang, "bad_number", &[("max", &menu.len())]))
                    );
                    continue;
                }
            }
        }
        let said = match A::parse(&lower) {
            Ok(a) if legal.contains(&a) => return Ok(Input::Act(a)),
            Ok(a) => match why(a) {
                Some(reason) => tf(lang, "not_legal_because", &[("reason", &reason)]),
                None => tf(lang, "not_legal_now", &[("action", &line)]),
            },
            Err(_) if looks_like_label(&lower) => tf(lang, "no_such_label", &[("label", &line)]),
            Err(_) => tf(lang, "unknown_command", &[("input", &line)]),
        };
        say!(out, "{}", term::error(&said));
    }
}

/// Plays one game on the terminal.
pub fn run(args: PlayArgs, game: crate::games::GameKind, lang: Lang) -> anyhow::Result<ExitCode> {
    let stdin = std::io::stdin();
    match game {
        crate::games::GameKind::Starrealms => {
            bots::starrealms::by_name(&args.vs, 0).map_err(|e| anyhow::anyhow!(e.text(lang)))?;
            // A resumed game plays on with the cards its record names.
            let cards = match &args.resume {
                Some(file) => {
                    let text = std::fs::read_to_string(file)
                        .with_context(|| tf(lang, "cmd.err.read", &[("file", &file.display())]))?;
                    match GameRecord::from_json(&text) {
                        Ok(record) => crate::record_cards(&record, file, lang)?,
                        Err(_) => None,
                    }
                }
                None => None,
            };
            crate::with_cards(cards, || play(args, lang, &mut stdin.lock()))
        }
        crate::games::GameKind::Cosmique => {
            crate::play_cosmique::play(args, lang, &mut stdin.lock())
        }
    }
}

pub(crate) fn play(
    args: PlayArgs,
    lang: Lang,
    input: &mut impl BufRead,
) -> anyhow::Result<ExitCode> {
    let mut out = Screen::stdout(args.color);
    let Start {
        seed,
        human,
        record,
        path,
    } = start(args, lang)?;
    let n = record.players.len();
    let mut players: Players = Vec::with_capacity(n);
    for (i, who) in record.players.iter().enumerate() {
        let seat = Seat(i as u8);
        players.push(if seat == human {
            None
        } else {
            let mut bot = bots::starrealms::by_name(who, bot_seed(seed, seat))
                .map_err(|e| anyhow::anyhow!(e.text(lang)))?;
            // The player waits for its moves: never longer than the levels promise.
            bot.cap_time(bots::MOVE_TIME_CAP);
            Some(bot)
        });
    }
    let vs = record.players[(human.index() + 1) % n].clone();
    let config: Config = serde_json::from_value(record.config.clone())
        .map_err(|e| anyhow::anyhow!(tf(lang, "play.err.config", &[("error", &e)])))?;
    let mut names = Names::plain(n);
    for i in 0..n {
        let seat = Seat(i as u8);
        let who = if seat == human {
            t(lang, "you_word").to_string()
        } else {
            text::level_word(&record.players[i], lang)
        };
        names.0[i] = text::seat_label(&config, seat, &who, lang);
    }
    let name = path.display().to_string();
    let mut state: State = record.initial_state().map_err(|e| {
        anyhow::anyhow!(tf(
            lang,
            "cmd.err.no_replay",
            &[("file", &name), ("error", &e)]
        ))
    })?;
    let mut legal = Vec::new();
    for (step, text) in record.actions.iter().enumerate() {
        let fail = |e: String| {
            anyhow::anyhow!(tf(
                lang,
                "play.err.no_replay_action",
                &[
                    ("file", &name),
                    ("step", &(step + 1)),
                    ("action", text),
                    ("error", &e)
                ]
            ))
        };
        let a = <Action as game::Action>::parse(text).map_err(|e| fail(e.to_string()))?;
        if let Some(seat) = state.to_move()
            && let Some(bot) = players[seat.index()].as_mut()
        {
            // The bot decides again, so its random stream is where it was.
            state.legal_actions_into(&mut legal);
            bot.choose(&SeatView::of_state(&state, seat), &legal);
        }
        apply_shown(&mut state, &mut players, a).map_err(fail)?;
    }
    let resumed = record.actions.len();
    let keeper = Keeper::new(record, path.clone(), lang)?;
    let push = |a: Action| -> anyhow::Result<()> {
        keeper.push(a.to_string());
        Ok(())
    };
    let flush = || keeper.flush();

    say!(
        out,
        "{}",
        tf(
            lang,
            "welcome",
            &[
                ("bot", &text::level_word(&vs, lang)),
                ("seed", &seed),
                ("first", &names.of(state.first))
            ]
        )
    );
    if resumed > 0 {
        say!(
            out,
            "{}",
            tf(lang, "resumed", &[("n", &resumed), ("file", &name)])
        );
    }
    say!(out, "{}", t(lang, "help_short"));
    flush()?;

    let mut bot_log: Vec<(Seat, String)> = Vec::new();
    let mut show_board = true;
    let mut hand = menu::HandLabels::default();
    while let Some(seat) = state.to_move() {
        state.legal_actions_into(&mut legal);
        if let Some(bot) = players[seat.index()].as_mut() {
            let obs = state.observation(seat);
            let a = bot.choose(&SeatView::of_state(&state, seat), &legal);
            bot_log.push((seat, text::action(a, &obs, &names, lang)));
            apply_shown(&mut state, &mut players, a)
                .map_err(|e| anyhow::anyhow!("the bot chose an illegal action: {e}"))?;
            push(a)?;
            show_board = true;
            continue;
        }
        if !bot_log.is_empty() {
            flush()?;
            print_log(&mut out, &mut bot_log, &names, lang)?;
        }
        let obs = state.observation(human);
        if show_board {
            say!(out);
            say!(out, "{}", text::board(&obs, &names, lang).trim_end());
            show_board = false;
        } else if let Some(d) = text::decision(&obs, &names, lang) {
            say!(out, "» {}", term::strong(&d));
        }
        let shown = shown_actions(&legal);
        hand.update(&obs);
        let menu = menu::menu(&shown, &obs, &hand);
        print_menu(&mut out, &menu, |a| text::action(a, &obs, &names, lang))?;
        if shown.len() < legal.len() {
            out.item(
                "      ",
                &tf(
                    lang,
                    "partial_attack_hint",
                    &[("seat", &state.left_of(human))],
                ),
            )?;
        }
        let why = |a: Action| {
            state
                .clone()
                .apply(a)
                .err()
                .map(|e| i18n::refusal(lang, &e))
        };
        match read_command(&mut out, input, &menu, &legal, &why, lang)? {
            Input::Act(a) => {
                apply_shown(&mut state, &mut players, a)
                    .map_err(|e| anyhow::anyhow!("a listed action was refused: {e}"))?;
                push(a)?;
                flush()?;
                say!(out, "  ✓ {}", text::action(a, &obs, &names, lang));
                // The turn changed hands, or a new card came into view: show the table again.
                show_board = state.to_move() != Some(human) || matches!(a, Action::End);
                if !show_board {
                    let now = state.observation(human);
                    print_pools(&mut out, &now, human, lang)?;
                }
            }
            Input::Show => show_board = true,
            Input::Help => {
                say!(out, "{}", t(lang, "help_long"));
            }
            Input::Card(name) => match find_card(&name, lang) {
                Ok(c) => card_sheet(&mut out, c, lang)?,
                Err(why) => say!(out, "{}", term::error(&why)),
            },
            Input::Row(slot) => {
                let card = slot
                    .parse::<usize>()
                    .ok()
                    .and_then(|i| obs.row.get(i).copied().flatten());
                match card {
                    Some(c) => card_sheet(&mut out, c, lang)?,
                    None => say!(
                        out,
                        "{}",
                        term::error(&tf(lang, "no_such_row_card", &[("slot", &slot)]))
                    ),
                }
            }
            Input::PlayAll => {
                let played = play_all(
                    &mut state,
                    &mut players,
                    human,
                    &names,
                    lang,
                    &mut out,
                    &push,
                )?;
                if played == 0 {
                    say!(out, "{}", term::error(t(lang, "nothing_to_play")));
                }
                flush()?;
                show_board = state.to_move() != Some(human);
                if !show_board {
                    print_pools(&mut out, &state.observation(human), human, lang)?;
                }
            }
            Input::Quit => {
                flush()?;
                say!(
                    out,
                    "{}",
                    tf(lang, "saved_quit", &[("file", &path.display())])
                );
                return Ok(ExitCode::SUCCESS);
            }
            Input::Closed => {
                flush()?;
                say!(out);
                say!(
                    out,
                    "{}",
                    tf(lang, "input_closed", &[("file", &path.display())])
                );
                return Ok(ExitCode::SUCCESS);
            }
        }
    }
    flush()?;
    print_log(&mut out, &mut bot_log, &names, lang)?;
    say!(out);
    say!(
        out,
        "{}",
        text::board(&state.observation(human), &names, lang).trim_end()
    );
    let winners = state.winners();
    let verdict = if winners.contains(&human) {
        t(lang, "you_win").to_string()
    } else if winners.is_empty() {
        t(lang, "draw").to_string()
    } else {
        let w: Vec<&str> = winners.iter().map(|&s| names.of(s)).collect();
        tf(lang, "bot_wins", &[("player", &w.join(", "))])
    };
    say!(out, "{}", term::strong(&verdict));
    say!(out, "{}", tf(lang, "saved", &[("file", &path.display())]));
    Ok(ExitCode::SUCCESS)
}

/// Prints what the bots did since the human's last decision, grouped by bot.
fn print_log(
    out: &mut Screen,
    log: &mut Vec<(Seat, String)>,
    names: &Names,
    lang: Lang,
) -> std::io::Result<()> {
    let mut last = None;
    for (seat, line) in log.drain(..) {
        if last != Some(seat) {
            say!(out);
            say!(
                out,
                "{}",
                tf(lang, "bot_did", &[("player", &names.of(seat))])
            );
            last = Some(seat);
        }
        out.item("  · ", &line)?;
    }
    Ok(())
}

/// The player's pools and hand, after an action that did not change the table much.
fn print_pools(
    out: &mut Screen,
    obs: &starrealms::Observation,
    seat: Seat,
    lang: Lang,
) -> std::io::Result<()> {
    let p = &obs.players[seat.index()];
    let hand = p.hand.as_deref().unwrap_or(&[]);
    let pools = format!(
        "{} · {} · {}",
        term::authority(&format!("{} {}", t(lang, "authority"), p.authority)),
        term::trade(&format!("{} {}", t(lang, "trade"), p.trade)),
        term::combat(&format!("{} {}", t(lang, "combat"), p.combat)),
    );
    out.item(
        "  ",
        &format!(
            "{pools} · {}: {}",
            t(lang, "hand"),
            text::cards_list(hand, lang)
        ),
    )
}
