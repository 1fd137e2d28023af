//! `realms`: play Star Realms in a terminal, simulate bot matches, replay games, run scenarios,
//! list the cards.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use clap::{Args, Parser, Subcommand, ValueEnum};
use i18n::Lang;

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

mod arena;
mod campaign_cmd;
mod card_stats;
mod cards_cmd;
mod games;
mod play;
mod play_cosmique;
mod replay;
mod scenario_cmd;
mod serve;
mod simulate;
mod text;

/// Star Realms in a terminal: play against a bot, simulate bot matches, replay saved games,
/// run scenarios, list the cards.
#[derive(Parser, Debug)]
#[command(name = "realms", version, propagate_version = true)]
struct Cli {
    /// Use the cards of this file instead of the base set (a designer's set; see docs/cards.md).
    #[arg(long, global = true, value_name = "FILE")]
    cards: Option<PathBuf>,
    /// Language of the output: fr or en (default: from the LANG environment variable, else en).
    #[arg(long, global = true, value_name = "LANG")]
    lang: Option<Lang>,
    /// The game: starrealms (default) or cosmique.
    #[arg(long, global = true, value_enum, default_value = "starrealms")]
    game: games::GameKind,
    /// Star Realms card sets whose trade cards make the trade deck, comma-separated: base
    /// (default), rise_of_empire (the *Rise of Empire* stand-in pack, ours), or both.
    #[arg(long, global = true, value_name = "SETS")]
    sets: Option<String>,
    /// *Rise of Empire* upgrades: sticker sheets each seat owns, as `p1=s1_empire,p2=s1_federation`
    /// (a seat named twice owns two sheets; `realms cards --sets rise_of_empire` lists them).
    #[arg(long, global = true, value_name = "SEAT=SHEET,…")]
    sheets: Option<String>,
    /// With --sheets: using the fifth sticker of a sheet wins at once (political victory).
    #[arg(long, global = true, requires = "sheets")]
    political: bool,
    /// The trade deck a finished *Rise of Empire* campaign left (its upgraded cards and the
    /// post-campaign pack), read from its save: for games of any format after the campaign.
    #[arg(long, global = true, value_name = "SAVE")]
    campaign_deck: Option<std::path::PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play a whole game against a bot in the terminal.
    Play(play::PlayArgs),
    /// Run many bot-against-bot games and report win rates with confidence intervals.
    Simulate(simulate::SimulateArgs),
    /// Round robin between bots: win-rate matrix, Bradley–Terry ratings, CSV, JSON and SVG files.
    Arena(arena::ArenaArgs),
    /// Re-run a saved game record, showing it step by step or only checking it.
    Replay(replay::ReplayArgs),
    /// Apply a scenario file and print the resulting state and every seat's view.
    Scenario(scenario_cmd::ScenarioArgs),
    /// List the cards with their texts.
    Cards(cards_cmd::CardsArgs),
    /// Run the game server: people and bots play over HTTP and WebSocket (docs/protocol.md).
    Serve(serve::ServeArgs),
    /// The Rise of Empire campaign: twelve games whose trade deck changes for good
    /// (docs/campaign.md).
    Campaign(campaign_cmd::CampaignArgs),
}

/// Who moves first in `realms play`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum First {
    /// You.
    Me,
    /// The bot.
    Bot,
    /// Drawn at random from the seed, as in the rules.
    Random,
}

/// Options shared by the commands that output data.
#[derive(Args, Debug, Clone, Copy)]
pub struct JsonFlag {
    /// Print JSON instead of text.
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

static TABLE: std::sync::OnceLock<TableOptions> = std::sync::OnceLock::new();

impl TableOptions {
    fn parse(cli: &Cli) -> anyhow::Result<TableOptions> {
        let sets = match &cli.sets {
            None => None,
            Some(text) => Some(
                starrealms::cards::Sets::parse(text).map_err(|e| anyhow::anyhow!("--sets: {e}"))?,
            ),
        };
        let mut sheets = Vec::new();
        for item in cli.sheets.iter().flat_map(|s| s.split(',')) {
            let item = item.trim();
            let (seat, sheet) = item.split_once('=').ok_or_else(|| {
                anyhow::anyhow!("--sheets: `{item}` is not SEAT=SHEET (p1=s1_empire)")
            })?;
            let seat: game::Seat = seat
                .trim()
                .parse()
                .map_err(|e: game::BadSeat| anyhow::anyhow!("--sheets: {e}"))?;
            sheets.push((seat.0, sheet.trim().to_string()));
        }
        if (sets.is_some() || !sheets.is_empty()) && cli.game != games::GameKind::Starrealms {
            anyhow::bail!("--sets and --sheets are Star Realms options (not for --game cosmique)");
        }
        let mut trade_deck = None;
        let mut sets = sets;
        if let Some(path) = &cli.campaign_deck {
            if cli.game != games::GameKind::Starrealms {
                anyhow::bail!("--campaign-deck is a Star Realms option (not for --game cosmique)");
            }
            if sets.is_some() {
                anyhow::bail!("--campaign-deck gives the trade deck: leave out --sets");
            }
            let def = starrealms::campaign::CampaignDef::embedded().map_err(anyhow::Error::msg)?;
            let c = campaign_cmd::load(def, path)?;
            let deck = c
                .final_trade_deck()
                .map_err(|e| anyhow::anyhow!("--campaign-deck {}: {e}", path.display()))?;
            let names: Vec<String> = def.sets.iter().chain(&def.post_campaign).cloned().collect();
            sets = Some(starrealms::cards::Sets::from_names(&names).map_err(anyhow::Error::msg)?);
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
        TABLE.get().and_then(|t| t.sets)
    }

    /// Applies the options to a new game's configuration, and checks it.
    pub fn apply(config: starrealms::Config) -> anyhow::Result<starrealms::Config> {
        let options = TABLE.get().cloned().unwrap_or_default();
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
                        anyhow::anyhow!(
                            "--sheets: there is no seat p{} at a table of {n}",
                            seat + 1
                        )
                    })?;
                grants.push(starrealms::config::SheetGrant {
                    sheet: sheet.clone(),
                    used: Vec::new(),
                    political: options.political,
                });
            }
            config.sheets = sheets;
        }
        config.validate().map_err(anyhow::Error::msg)?;
        Ok(config)
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let lang = language(cli.lang);
    if let Some(path) = &cli.cards {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read the card file {file}"))?;
        let set = starrealms::CardSet::parse(&file, &text).map_err(|e| anyhow::anyhow!("{e}"))?;
        // A printed text that says something else than the effects: named, once.
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
        starrealms::use_card_set(set).map_err(|e| anyhow::anyhow!(e))?;
    }
    let _ = TABLE.set(TableOptions::parse(&cli)?);
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
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
