//! `realms play`: a human against a bot, in the terminal.
//!
//! The human sees only their seat's observation. The game record is written after every bot
//! turn and every action of the human, atomically, so that nothing is lost on Ctrl-C, on a closed
//! input or on a crash; `realms replay` reads it back.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use anyhow::Context as _;
use bots::SeatView;
use clap::Args;
use game::{GameRecord, Seat, State as _};
use i18n::{Lang, t, tf};
use starrealms::{Action, Config, State};

use crate::First;

/// `writeln!` to the terminal; a closed output ends the game (the record is already saved).
macro_rules! say {
    ($out:expr) => {
        writeln!($out)?
    };
    ($out:expr, $($arg:tt)*) => {
        writeln!($out, $($arg)*)?
    };
}

/// `write!` to the terminal.
macro_rules! sayn {
    ($out:expr, $($arg:tt)*) => {
        write!($out, $($arg)*)?
    };
}
use crate::text::{self, Names};

/// Options of `realms play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The bot to play against.
    #[arg(long, default_value = "heuristic", value_parser = bot_name)]
    vs: String,
    /// Seed of the game (default: drawn from the clock; it is printed so the game can be replayed).
    #[arg(long)]
    seed: Option<u64>,
    /// Who plays first.
    #[arg(long, value_enum, default_value = "random")]
    first: First,
    /// Where to save the game record (default: realms-game-SEED.json; with --resume, the
    /// resumed file).
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
    /// Go on with a game saved by `realms play` (after `quit`, Ctrl-C or a closed input): same
    /// seed, same bot, same seats; the bot's decisions so far are replayed so it goes on exactly
    /// as if never interrupted.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["seed", "first", "vs"])]
    resume: Option<PathBuf>,
}

/// A game to begin or go on with.
struct Start {
    seed: u64,
    human: Seat,
    vs: String,
    record: GameRecord,
    path: PathBuf,
}

fn start(args: PlayArgs) -> anyhow::Result<Start> {
    let Some(file) = args.resume else {
        let seed = args.seed.unwrap_or_else(clock_seed);
        let config = Config::default();
        let state = State::new_game(&config, seed).map_err(anyhow::Error::msg)?;
        let human = match args.first {
            First::Me => state.first,
            First::Bot => Seat(1 - state.first.0),
            First::Random => Seat(0),
        };
        let mut record = GameRecord::new::<State>(&config, seed);
        record.players = vec![String::new(); 2];
        record.players[human.index()] = "human".into();
        record.players[1 - human.index()] = args.vs.clone();
        let path = args
            .save
            .unwrap_or_else(|| PathBuf::from(format!("realms-game-{seed}.json")));
        return Ok(Start {
            seed,
            human,
            vs: args.vs,
            record,
            path,
        });
    };
    let name = file.display().to_string();
    let text = std::fs::read_to_string(&file).with_context(|| format!("cannot read {name}"))?;
    let record = GameRecord::from_json(&text)
        .map_err(|e| anyhow::anyhow!("{name} is not a game record: {e}"))?;
    let human = record.players.iter().position(|p| p == "human");
    let (Some(human), 2) = (human, record.players.len()) else {
        anyhow::bail!("{name} is not a game of `realms play` (no human and bot seats)");
    };
    let vs = record.players[1 - human].clone();
    bots::starrealms::by_name(&vs, 0).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    Ok(Start {
        seed: record.seed,
        human: Seat(human as u8),
        vs,
        path: args.save.unwrap_or(file),
        record,
    })
}

fn bot_name(s: &str) -> Result<String, String> {
    bots::starrealms::by_name(s, 0).map(|_| s.to_string())
}

#[allow(
    clippy::disallowed_methods,
    reason = "a game without a given seed gets one from the clock; the seed is printed and saved"
)]
fn clock_seed() -> u64 {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    now.as_secs() ^ (now.subsec_nanos() as u64) << 20
}

/// Writes the record to `path` through a temporary file, so a reader never sees half a record.
pub fn save(record: &GameRecord, path: &Path) -> anyhow::Result<()> {
    let tmp = path.with_extension("json.tmp");
    std::fs::write(&tmp, record.to_json() + "\n")
        .with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))
}

enum Input {
    Act(Action),
    Show,
    Help,
    Quit,
    Closed,
}

/// Reads one valid command, re-prompting on anything else.
/// The actions listed with numbers: all legal ones, except that an attack on a player is listed
/// only with the largest amount (smaller amounts can still be typed: `attack p2 3`).
fn shown_actions(legal: &[Action]) -> Vec<Action> {
    let mut shown: Vec<Action> = Vec::with_capacity(legal.len());
    for &a in legal {
        if let (Action::AttackPlayer(s, _), Some(Action::AttackPlayer(last, _))) = (a, shown.last())
            && s == *last
        {
            shown.pop();
        }
        shown.push(a);
    }
    shown
}

/// Reads one valid command, re-prompting on anything else. Numbers refer to `shown`; any
/// action of `legal` may be typed as text.
fn read_command(
    out: &mut impl Write,
    input: &mut impl BufRead,
    shown: &[Action],
    legal: &[Action],
    lang: Lang,
) -> anyhow::Result<Input> {
    loop {
        sayn!(out, "{} ", t(lang, "prompt"));
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            return Ok(Input::Closed);
        }
        let line = line.trim();
        let lower = line.to_lowercase();
        match lower.as_str() {
            "" | "?" | "h" | "help" | "aide" => return Ok(Input::Help),
            "b" | "board" | "plateau" => return Ok(Input::Show),
            "q" | "quit" | "quitter" => return Ok(Input::Quit),
            _ => {}
        }
        if let Ok(n) = line.parse::<usize>() {
            match shown.get(n.wrapping_sub(1)) {
                Some(&a) => return Ok(Input::Act(a)),
                None => {
                    say!(out, "{}", tf(lang, "bad_number", &[("max", &shown.len())]));
                    continue;
                }
            }
        }
        match <Action as game::Action>::parse(&lower) {
            Ok(a) if legal.contains(&a) => return Ok(Input::Act(a)),
            Ok(_) => say!(out, "{}", tf(lang, "not_legal_now", &[("action", &line)])),
            Err(_) => say!(out, "{}", tf(lang, "unknown_command", &[("input", &line)])),
        }
    }
}

/// Plays one game on the terminal.
pub fn run(args: PlayArgs, lang: Lang) -> anyhow::Result<ExitCode> {
    let stdin = std::io::stdin();
    play(args, lang, &mut stdin.lock())
}

fn play(args: PlayArgs, lang: Lang, input: &mut impl BufRead) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    let Start {
        seed,
        human,
        vs,
        record,
        path,
    } = start(args)?;
    let bot_seat = Seat(1 - human.0);
    let mut bot = bots::starrealms::by_name(&vs, seed ^ 0x05ee_db07).map_err(anyhow::Error::msg)?;
    let mut names = Names::plain(2);
    names.0[human.index()] = tf(lang, "you", &[("seat", &human)]);
    names.0[bot_seat.index()] = format!("{bot_seat} ({vs})");
    let name = path.display().to_string();
    let mut state: State = record
        .initial_state()
        .map_err(|e| anyhow::anyhow!("{name} does not replay: {e}"))?;
    let mut legal = Vec::new();
    for (step, text) in record.actions.iter().enumerate() {
        let fail = |e: String| {
            anyhow::anyhow!(
                "{name} does not replay: action {} (`{text}`): {e}",
                step + 1
            )
        };
        let a = <Action as game::Action>::parse(text).map_err(|e| fail(e.to_string()))?;
        if state.to_move() == Some(bot_seat) {
            // The bot decides again, so its random stream is where it was.
            state.legal_actions_into(&mut legal);
            bot.choose(&SeatView::of_state(&state, bot_seat), &legal);
        }
        state.apply(a).map_err(|e| fail(e.to_string()))?;
    }
    let resumed = record.actions.len();
    let shared = Arc::new(Mutex::new(record));
    {
        let shared = Arc::clone(&shared);
        let path = path.clone();
        let message = t(lang, "interrupted");
        ctrlc::set_handler(move || {
            let record = shared.lock().unwrap_or_else(|e| e.into_inner());
            let _ = save(&record, &path);
            eprintln!(
                "\n{}",
                message.replace("{file}", &path.display().to_string())
            );
            std::process::exit(130);
        })
        .context("cannot catch Ctrl-C")?;
    }
    let push = |a: Action| -> anyhow::Result<()> {
        let mut r = shared.lock().unwrap_or_else(|e| e.into_inner());
        r.actions.push(a.to_string());
        Ok(())
    };
    let flush = || -> anyhow::Result<()> {
        let r = shared.lock().unwrap_or_else(|e| e.into_inner());
        save(&r, &path)
    };

    say!(
        out,
        "{}",
        tf(
            lang,
            "welcome",
            &[
                ("bot", &vs),
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

    let mut bot_log: Vec<String> = Vec::new();
    let mut show_board = true;
    while let Some(seat) = state.to_move() {
        state.legal_actions_into(&mut legal);
        if seat == bot_seat {
            let obs = state.observation(bot_seat);
            let a = bot.choose(&SeatView::of_state(&state, bot_seat), &legal);
            bot_log.push(text::action(a, &obs, &names, lang));
            state.apply(a).context("the bot chose an illegal action")?;
            push(a)?;
            show_board = true;
            continue;
        }
        if !bot_log.is_empty() {
            flush()?;
            say!(out);
            say!(
                out,
                "{}",
                tf(lang, "bot_did", &[("player", &names.of(bot_seat))])
            );
            for line in bot_log.drain(..) {
                say!(out, "  · {line}");
            }
        }
        let obs = state.observation(human);
        if show_board {
            say!(out);
            sayn!(out, "{}", text::board(&obs, &names, lang));
            show_board = false;
        } else if let Some(d) = text::decision(&obs, &names, lang) {
            say!(out, "» {d}");
        }
        let shown = shown_actions(&legal);
        for (i, &a) in shown.iter().enumerate() {
            say!(
                out,
                "  {:>2}. {}",
                i + 1,
                text::action(a, &obs, &names, lang)
            );
        }
        if shown.len() < legal.len() {
            say!(
                out,
                "      {}",
                tf(lang, "partial_attack_hint", &[("seat", &bot_seat)])
            );
        }
        match read_command(&mut out, input, &shown, &legal, lang)? {
            Input::Act(a) => {
                state.apply(a).context("a listed action was refused")?;
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
    if !bot_log.is_empty() {
        say!(out);
        say!(
            out,
            "{}",
            tf(lang, "bot_did", &[("player", &names.of(bot_seat))])
        );
        for line in bot_log.drain(..) {
            say!(out, "  · {line}");
        }
    }
    say!(out);
    sayn!(
        out,
        "{}",
        text::board(&state.observation(human), &names, lang)
    );
    let winners = state.winners();
    let verdict = if winners.contains(&human) {
        t(lang, "you_win").to_string()
    } else if winners.is_empty() {
        t(lang, "draw").to_string()
    } else {
        tf(lang, "bot_wins", &[("player", &names.of(bot_seat))])
    };
    say!(out, "{verdict}");
    say!(out, "{}", tf(lang, "saved", &[("file", &path.display())]));
    Ok(ExitCode::SUCCESS)
}

fn print_pools(
    out: &mut impl Write,
    obs: &starrealms::Observation,
    seat: Seat,
    lang: Lang,
) -> std::io::Result<()> {
    let p = &obs.players[seat.index()];
    let hand = p.hand.as_deref().unwrap_or(&[]);
    say!(
        out,
        "  {} {} · {} {} · {} {} · {}: {}",
        t(lang, "authority"),
        p.authority,
        t(lang, "trade"),
        p.trade,
        t(lang, "combat"),
        p.combat,
        t(lang, "hand"),
        text::cards_list(hand, lang)
    );
    Ok(())
}
