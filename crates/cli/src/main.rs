//! `realms`: play Star Realms in a terminal, simulate bot matches, replay games, run scenarios,
//! list the cards.

use std::path::PathBuf;
use std::process::ExitCode;

use std::io::IsTerminal as _;

use anyhow::Context as _;
use clap::builder::TypedValueParser as _;
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use i18n::Lang;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

/// Appends a line to an output buffer: `outln!(out)`, `outln!(out, "{x}")`.
macro_rules! outln {
    ($out:expr) => {
        $out.push('\n')
    };
    ($out:expr, $($arg:tt)*) => {{
        $out.push_str(&format!($($arg)*));
        $out.push('\n');
    }};
}

/// Writes a line (or several) to the terminal game's screen, wrapped to its width; a closed
/// output ends the game (its record is already saved).
macro_rules! say {
    ($out:expr) => {
        $out.say("")?
    };
    ($out:expr, $($arg:tt)*) => {
        $out.say(&format!($($arg)*))?
    };
}

mod arena;
mod campaign_cmd;
mod card_stats;
mod cards_cmd;
mod games;
mod help;
mod menu;
mod play;
mod play_cosmique;
mod replay;
mod scenario_cmd;
mod serve;
mod simulate;
mod term;
mod text;

/// Star Realms in a terminal: play against a bot, simulate bot matches, replay saved games,
/// run scenarios, list the cards. What the commands and options say of themselves is in the
/// translation table, in every language (see `help`): `cli.arg.<option>` for these.
#[derive(Parser, Debug)]
#[command(name = "realms", version, propagate_version = true)]
struct Cli {
    #[arg(long, global = true, value_name = "FILE")]
    cards: Vec<PathBuf>,
    // The languages are listed by its help already.
    #[arg(long, global = true, value_name = "LANG", ignore_case = true, hide_possible_values = true,
          value_parser = clap::builder::PossibleValuesParser::new(Lang::ALL.map(Lang::code))
              .map(|code| code.parse::<Lang>().expect("a language of the table")))]
    lang: Option<Lang>,
    #[arg(long, global = true, value_enum, default_value = "starrealms")]
    game: games::GameKind,
    #[arg(long, global = true, value_name = "SETS")]
    sets: Option<String>,
    #[arg(long, global = true, value_name = "SEAT=SHEET,…")]
    sheets: Option<String>,
    #[arg(long, global = true, requires = "sheets")]
    political: bool,
    #[arg(long, global = true, value_name = "SAVE")]
    campaign_deck: Option<std::path::PathBuf>,
    #[command(subcommand)]
    command: Command,
}

/// The commands (`cli.<command>.about` says what each does).
#[derive(Subcommand, Debug)]
enum Command {
    Play(play::PlayArgs),
    Simulate(simulate::SimulateArgs),
    Arena(arena::ArenaArgs),
    Replay(replay::ReplayArgs),
    Scenario(scenario_cmd::ScenarioArgs),
    Cards(cards_cmd::CardsArgs),
    Serve(serve::ServeArgs),
    Campaign(campaign_cmd::CampaignArgs),
}

/// Who moves first in `realms play`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum First {
    /// The person at the terminal.
    Me,
    /// The bot.
    Bot,
    /// Whoever the seed draws.
    Random,
}

/// Options shared by the commands that output data.
#[derive(Args, Debug, Clone, Copy)]
pub struct JsonFlag {
    /// Whether to print JSON rather than text.
    #[arg(long)]
    pub json: bool,
}

/// Writes a command's output to stdout at once.
pub fn emit(out: &str) -> anyhow::Result<ExitCode> {
    use std::io::Write as _;
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(out.as_bytes())?;
    stdout.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// Whether the error is a closed output pipe (`realms cards | head`): not a failure.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

fn language(flag: Option<Lang>) -> Lang {
    flag.or_else(|| {
        ["LC_ALL", "LC_MESSAGES", "LANG"]
            .iter()
            .filter_map(|v| std::env::var(v).ok())
            .find(|v| !v.is_empty())
            .and_then(|v| Lang::from_locale(&v))
    })
    .unwrap_or_default()
}

/// The table options given on the command line (`--sets`, `--sheets`, `--political`,
/// `--campaign-deck`).
#[derive(Clone, Debug, Default)]
pub struct TableOptions {
    sets: Option<starrealms::cards::Sets>,
    sheets: Vec<(u8, String)>,
    political: bool,
    /// `--campaign-deck`: the trade deck, and the sets its cards come from.
    trade_deck: Option<Vec<starrealms::cards::CardId>>,
}

/// The table options of each card set in use (by the set's address), read within that set.
static TABLE: std::sync::OnceLock<Vec<(usize, TableOptions)>> = std::sync::OnceLock::new();

fn set_key() -> usize {
    starrealms::cards() as *const starrealms::CardSet as usize
}

impl TableOptions {
    /// The options of the card set in use on this thread.
    fn current() -> Option<&'static TableOptions> {
        let tables = TABLE.get()?;
        let key = set_key();
        tables
            .iter()
            .find(|(k, _)| *k == key)
            .or(tables.first())
            .map(|(_, t)| t)
    }

    fn parse(cli: &Cli, lang: Lang) -> anyhow::Result<TableOptions> {
        let sets = match &cli.sets {
            None => None,
            Some(text) => Some(parse_sets(text, lang)?),
        };
        let mut sheets = Vec::new();
        for item in cli.sheets.iter().flat_map(|s| s.split(',')) {
            let item = item.trim();
            let (seat, sheet) = item.split_once('=').ok_or_else(|| {
                anyhow::anyhow!(i18n::tf(lang, "options.err.sheet_form", &[("item", &item)]))
            })?;
            let seat: game::Seat = seat.trim().parse().map_err(|e: game::BadSeat| {
                anyhow::anyhow!(i18n::tf(lang, "options.err.sheets", &[("error", &e)]))
            })?;
            sheets.push((seat.0, sheet.trim().to_string()));
        }
        if (sets.is_some() || !sheets.is_empty()) && cli.game != games::GameKind::Starrealms {
            anyhow::bail!(i18n::t(lang, "options.err.sets_starrealms"));
        }
        let mut trade_deck = None;
        let mut sets = sets;
        if let Some(path) = &cli.campaign_deck {
            if cli.game != games::GameKind::Starrealms {
                anyhow::bail!(i18n::t(lang, "options.err.campaign_deck_starrealms"));
            }
            if sets.is_some() {
                anyhow::bail!(i18n::t(lang, "options.err.campaign_deck_sets"));
            }
            let def = starrealms::campaign::CampaignDef::embedded()
                .map_err(|e| anyhow::anyhow!(campaign_cmd::words(&e, lang)))?;
            let c = campaign_cmd::load(def, path, lang)?;
            let deck = c.final_trade_deck().map_err(|e| {
                anyhow::anyhow!(i18n::tf(
                    lang,
                    "options.err.campaign_deck",
                    &[
                        ("file", &path.display()),
                        ("error", &campaign_cmd::words(&e, lang))
                    ]
                ))
            })?;
            let names: Vec<String> = def.sets.iter().chain(&def.post_campaign).cloned().collect();
            sets = Some(
                starrealms::cards::Sets::from_names(&names)
                    .map_err(|why| anyhow::anyhow!(i18n::why(lang, &why)))?,
            );
            trade_deck = Some(deck);
        }
        Ok(TableOptions {
            sets,
            sheets,
            political: cli.political,
            trade_deck,
        })
    }

    /// The card sets given with `--sets`, if any.
    pub fn sets() -> Option<starrealms::cards::Sets> {
        TableOptions::current().and_then(|t| t.sets)
    }

    /// Applies the options to a new game's configuration, and checks it.
    pub fn apply(config: starrealms::Config, lang: Lang) -> anyhow::Result<starrealms::Config> {
        let options = TableOptions::current().cloned().unwrap_or_default();
        let mut config = config;
        if let Some(sets) = options.sets {
            config.sets = sets;
        }
        if let Some(deck) = &options.trade_deck {
            config.trade_deck = Some(deck.clone());
        }
        if !options.sheets.is_empty() {
            let n = config.seats as usize;
            let mut sheets = vec![Vec::new(); n];
            for (seat, sheet) in &options.sheets {
                let grants: &mut Vec<starrealms::config::SheetGrant> =
                    sheets.get_mut(*seat as usize).ok_or_else(|| {
                        anyhow::anyhow!(i18n::tf(
                            lang,
                            "options.err.sheets_no_seat",
                            &[("seat", &format!("p{}", seat + 1)), ("n", &n)]
                        ))
                    })?;
                grants.push(starrealms::config::SheetGrant {
                    sheet: sheet.clone(),
                    used: Vec::new(),
                    political: options.political,
                });
            }
            config.sheets = sheets;
        }
        seats_of_format(&config, lang)?;
        config
            .validate()
            .map_err(|why| anyhow::anyhow!(i18n::why(lang, &why)))?;
        Ok(config)
    }
}

/// `--sets`'s list of card sets; a name no set has is refused in the language.
fn parse_sets(text: &str, lang: Lang) -> anyhow::Result<starrealms::cards::Sets> {
    use starrealms::cards::Sets;
    // A list is refused only for a name it holds that no set has (an empty one included).
    Sets::parse(text).map_err(|_| {
        let name = text
            .split(',')
            .map(str::trim)
            .find(|name| Sets::from_names(&[name]).is_err())
            .unwrap_or_default();
        let known: Vec<&str> = starrealms::cards()
            .sets
            .iter()
            .map(|s| s.name.as_str())
            .collect();
        anyhow::anyhow!(i18n::tf(
            lang,
            "options.err.unknown_set",
            &[("name", &name), ("known", &known.join(", "))]
        ))
    })
}

/// Refuses, in the language, a number of seats that `config`'s format is not played by (the
/// first of [`starrealms::Config::validate`]'s checks, the one people meet on the command line).
pub fn seats_of_format(config: &starrealms::Config, lang: Lang) -> anyhow::Result<()> {
    let allowed = config.format.seats();
    if allowed.contains(&config.seats) {
        return Ok(());
    }
    let seats = match allowed {
        [one] => one.to_string(),
        [a, b] => i18n::tf(lang, "options.seats.or", &[("a", a), ("b", b)]),
        many => i18n::tf(
            lang,
            "options.seats.to",
            &[("a", &many[0]), ("b", &many[many.len() - 1])],
        ),
    };
    anyhow::bail!(i18n::tf(
        lang,
        "options.err.seats",
        &[
            ("format", &config.format.name()),
            ("seats", &seats),
            ("n", &config.seats)
        ]
    ))
}

/// A designer's card file given with `--cards`.
pub struct LoadedCards {
    /// The file, as given.
    pub file: String,
    /// Its cards.
    pub set: &'static starrealms::CardSet,
    /// What records name it by.
    pub fingerprint: String,
}

static CARDS: std::sync::OnceLock<Vec<LoadedCards>> = std::sync::OnceLock::new();

/// The card files given with `--cards` (none: the built-in cards).
pub fn card_files() -> &'static [LoadedCards] {
    CARDS.get().map_or(&[], Vec::as_slice)
}

/// The card file in use on this thread, as a record names it (`None`: the built-in cards).
pub fn card_file() -> Option<game::CardsRef> {
    let key = set_key();
    card_files()
        .iter()
        .find(|c| c.set as *const starrealms::CardSet as usize == key)
        .map(|c| game::CardsRef {
            file: c.file.clone(),
            fingerprint: c.fingerprint.clone(),
        })
}

/// What a progress bar counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counted {
    /// Games: their pace (games a second) is shown.
    Games,
    /// Campaigns.
    Campaigns,
}

/// A progress bar of `total` steps on the error output, drawn when `shown` and the error output
/// is a terminal, hidden otherwise: the time so far, the bar, the count, then the pace in games a
/// second (or the word "campaigns") and the time left, in `lang`.
pub fn progress_bar(total: u64, counted: Counted, shown: bool, lang: Lang) -> ProgressBar {
    let bar = if shown && std::io::stderr().is_terminal() {
        ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    let left = i18n::t(lang, "bar.left");
    let head = "{spinner} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len}";
    let template = match counted {
        Counted::Games => format!(
            "{head} ({{rate}} {}, {{eta}} {left})",
            i18n::t(lang, "bar.games_per_second")
        ),
        Counted::Campaigns => format!("{head} {} ({{eta}} {left})", i18n::t(lang, "bar.campaigns")),
    };
    let style = ProgressStyle::with_template(&template)
        .expect("the template is valid")
        .with_key(
            "rate",
            |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.0}", state.per_sec());
            },
        );
    bar.set_style(style);
    bar
}

/// The pool of `--threads` workers (every core by default); none is refused in `lang`.
pub fn worker_pool(threads: Option<usize>, lang: Lang) -> anyhow::Result<rayon::ThreadPool> {
    let threads =
        threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if threads == 0 {
        anyhow::bail!(i18n::t(lang, "cmd.err.threads"));
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context(i18n::t(lang, "cmd.err.pool"))
}

/// The game record kept in `path`, each way it can fail told in `lang`.
pub fn read_record(path: &std::path::Path, lang: Lang) -> anyhow::Result<game::GameRecord> {
    let name = path.display();
    let text = std::fs::read_to_string(path)
        .with_context(|| i18n::tf(lang, "cmd.err.read", &[("file", &name)]))?;
    game::GameRecord::from_json(&text).map_err(|e| {
        // The message says the file is no record; the parser's own words only say where.
        let reason = match e {
            game::RecordError::Json(reason) => i18n::data_error(lang, &reason),
            other => i18n::record_error(lang, &other),
        };
        let args: [(&str, &dyn std::fmt::Display); 2] = [("file", &name), ("error", &reason)];
        anyhow::anyhow!(i18n::tf(lang, "cmd.err.not_record", &args))
    })
}

/// The card set a record was played with, when it is not the one in use: the record names its
/// card file (`cards`), found as written or beside the record, and checked by its fingerprint.
/// `None`: play on with the cards in use.
pub fn record_cards(
    record: &game::GameRecord,
    record_path: &std::path::Path,
    lang: Lang,
) -> anyhow::Result<Option<&'static starrealms::CardSet>> {
    let Some(named) = &record.cards else {
        return Ok(None);
    };
    let name = record_path.display();
    if let Some(active) = card_file() {
        if active.fingerprint != named.fingerprint {
            anyhow::bail!(i18n::tf(
                lang,
                "options.err.cards_differ",
                &[
                    ("file", &name),
                    ("cards", &named.file),
                    ("fingerprint", &named.fingerprint),
                    ("given", &active.file),
                    ("now", &active.fingerprint)
                ]
            ));
        }
        return Ok(None);
    }
    let given = std::path::PathBuf::from(&named.file);
    let beside = record_path
        .parent()
        .zip(given.file_name())
        .map(|(dir, file)| dir.join(file));
    let Some(path) = std::iter::once(given.clone())
        .chain(beside)
        .find(|p| p.is_file())
    else {
        anyhow::bail!(i18n::tf(
            lang,
            "options.err.cards_missing",
            &[("file", &name), ("cards", &named.file)]
        ));
    };
    let loaded = load_cards(&path, lang)?;
    if loaded.fingerprint != named.fingerprint {
        anyhow::bail!(i18n::tf(
            lang,
            "options.err.cards_changed",
            &[
                ("file", &name),
                ("cards", &named.file),
                ("fingerprint", &named.fingerprint),
                ("path", &path.display()),
                ("now", &loaded.fingerprint)
            ]
        ));
    }
    Ok(Some(loaded.set))
}

/// Runs `f` with `set` as this thread's cards when there is one.
pub fn with_cards<R>(set: Option<&'static starrealms::CardSet>, f: impl FnOnce() -> R) -> R {
    match set {
        Some(set) => starrealms::with_card_set(set, f),
        None => f(),
    }
}

/// Reads and checks a card file; a printed text that says something else than the effects is
/// named on stderr, once.
pub fn load_cards(path: &std::path::Path, lang: Lang) -> anyhow::Result<LoadedCards> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .with_context(|| i18n::tf(lang, "options.err.read_cards", &[("file", &file)]))?;
    let set = starrealms::CardSet::parse(&file, &text)
        .map_err(|e| anyhow::anyhow!("{}:{}: {}", e.file, e.line, i18n::why(lang, &e.why)))?;
    for issue in set.text_disagreements() {
        eprintln!(
            "{}",
            i18n::tf(
                lang,
                "cards.text_warning",
                &[
                    ("file", &file),
                    ("card", &issue.card),
                    ("ability", &issue.ability),
                    ("detail", &issue.detail)
                ]
            )
        );
    }
    let fingerprint = set.fingerprint();
    Ok(LoadedCards {
        file,
        set: starrealms::leak_card_set(set),
        fingerprint,
    })
}

fn run(cli: Cli, lang: Lang) -> anyhow::Result<ExitCode> {
    let loaded = cli
        .cards
        .iter()
        .map(|path| load_cards(path, lang))
        .collect::<anyhow::Result<Vec<_>>>()?;
    if loaded.len() > 1 && !matches!(cli.command, Command::Simulate(_) | Command::Arena(_)) {
        anyhow::bail!(i18n::tf(
            lang,
            "options.err.cards_many",
            &[("n", &loaded.len())]
        ));
    }
    if loaded.len() > 1 && cli.campaign_deck.is_some() {
        anyhow::bail!(i18n::t(lang, "options.err.campaign_deck_cards"));
    }
    if let [one] = &loaded[..] {
        starrealms::use_static_card_set(one.set).map_err(anyhow::Error::msg)?;
    }
    let mut tables = Vec::new();
    if loaded.is_empty() {
        tables.push((set_key(), TableOptions::parse(&cli, lang)?));
    }
    for c in &loaded {
        let options = starrealms::with_card_set(c.set, || TableOptions::parse(&cli, lang))
            .with_context(|| i18n::tf(lang, "cmd.err.with_cards", &[("file", &c.file)]))?;
        tables.push((c.set as *const starrealms::CardSet as usize, options));
    }
    let _ = TABLE.set(tables);
    let _ = CARDS.set(loaded);
    match cli.command {
        Command::Play(args) => play::run(args, cli.game, lang),
        Command::Simulate(args) => simulate::run(args, cli.game, lang),
        Command::Arena(args) => arena::run(args, lang),
        Command::Replay(args) => replay::run(args, lang),
        Command::Scenario(args) => scenario_cmd::run(args, cli.game, lang),
        Command::Cards(args) => cards_cmd::run(args, lang),
        Command::Serve(args) => serve::run(args, lang),
        Command::Campaign(args) => campaign_cmd::run(args, lang),
    }
}

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let lang = language(help::lang_in_args(&args));
    let cli = match help::localize(Cli::command(), lang)
        .try_get_matches_from(&args)
        .and_then(|matches| Cli::from_arg_matches(&matches))
    {
        Ok(cli) => cli,
        Err(e) => return help::refuse(e, lang),
    };
    let lang = language(cli.lang);
    match run(cli, lang) {
        Ok(code) => code,
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{}", help::failure(&e, lang));
            ExitCode::FAILURE
        }
    }
}
