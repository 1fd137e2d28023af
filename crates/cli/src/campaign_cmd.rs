//! `realms campaign`: the *Rise of Empire* campaign in the terminal: start one, play its next
//! scenario against a bot (resumable), see where it stands, check a save, and simulate whole
//! campaigns between bots.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;
use clap::{Args, Subcommand};
use game::GameRecord;
use i18n::{Lang, t, tf};
use rayon::prelude::*;
use serde::Serialize;
use starrealms::campaign::{Campaign, CampaignDef, CampaignError, CampaignSave, Completion};
use starrealms::cards::Faction;

/// Options of `realms campaign`; their help is the translation table's `cli.campaign.arg.<option>`.
#[derive(Args, Debug)]
pub struct CampaignArgs {
    #[arg(long, value_name = "FILE", global = true)]
    campaign: Option<PathBuf>,
    #[command(subcommand)]
    command: CampaignCommand,
}

#[derive(Subcommand, Debug)]
enum CampaignCommand {
    New(NewArgs),
    Play(FileArgs),
    Status(StatusArgs),
    Replay(FileArgs),
    Simulate(SimulateArgs),
}

#[derive(Args, Debug)]
struct NewArgs {
    #[arg(long, default_value = "star_empire")]
    side: String,
    #[arg(long, default_value = "medium")]
    vs: String,
    #[arg(long)]
    bot_side: Option<String>,
    #[arg(long)]
    seed: Option<u64>,
    #[arg(long, value_name = "FILE", default_value = "realms-campaign.json")]
    save: PathBuf,
}

#[derive(Args, Debug)]
struct FileArgs {
    #[arg(value_name = "FILE", default_value = "realms-campaign.json")]
    file: PathBuf,
}

#[derive(Args, Debug)]
struct StatusArgs {
    #[arg(value_name = "FILE", default_value = "realms-campaign.json")]
    file: PathBuf,
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct SimulateArgs {
    #[arg(long, default_value_t = 10)]
    campaigns: u64,
    #[arg(long, value_delimiter = ',', default_value = "medium,medium")]
    players: Vec<String>,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[arg(long)]
    threads: Option<usize>,
    #[arg(long)]
    json: bool,
}

fn side(text: &str, lang: Lang) -> anyhow::Result<Faction> {
    match text.trim().to_ascii_lowercase().replace('-', "_").as_str() {
        "star_empire" | "empire" => Ok(Faction::StarEmpire),
        "trade_federation" | "federation" => Ok(Faction::TradeFederation),
        _ => anyhow::bail!(tf(lang, "campaign.err.side", &[("side", &text)])),
    }
}

fn definition(args: &CampaignArgs, lang: Lang) -> anyhow::Result<CampaignDef> {
    match &args.campaign {
        None => Ok(CampaignDef::embedded()
            .map_err(|e| anyhow::anyhow!(words(&e, lang)))?
            .clone()),
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| tf(lang, "campaign.err.read_def", &[("file", &path.display())]))?;
            CampaignDef::parse(&path.display().to_string(), &text)
                .map_err(|e| anyhow::anyhow!(words(&e, lang)))
        }
    }
}

pub(crate) fn load(def: &CampaignDef, path: &Path, lang: Lang) -> anyhow::Result<Campaign> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .with_context(|| tf(lang, "cmd.err.read", &[("file", &name)]))?;
    let save: CampaignSave = serde_json::from_str(&text).map_err(|e| {
        anyhow::anyhow!(tf(
            lang,
            "campaign.err.not_save",
            &[
                ("file", &name),
                ("error", &i18n::data_error(lang, &e.to_string()))
            ]
        ))
    })?;
    Campaign::replay(def, save).map_err(|e| file_error(&name, words(&e, lang), lang))
}

/// An error of a file of the campaign (its save, or the game in progress), named with it;
/// `e` is already in `lang`.
fn file_error(file: &dyn std::fmt::Display, e: String, lang: Lang) -> anyhow::Error {
    anyhow::anyhow!(tf(lang, "cmd.err.file", &[("file", file), ("error", &e)]))
}

/// Why the campaign refuses, in `lang`.
pub(crate) fn words(e: &CampaignError, lang: Lang) -> String {
    i18n::why(lang, &e.0)
}

/// Takes the moves of the game in progress back from its side file.
fn take_back(c: &mut Campaign, side_file: &Path, lang: Lang) -> anyhow::Result<()> {
    let name = side_file.display();
    let text = std::fs::read_to_string(side_file)
        .with_context(|| tf(lang, "cmd.err.read", &[("file", &name)]))?;
    let record = GameRecord::from_json(&text)
        .map_err(|e| file_error(&name, i18n::data_error(lang, &e.to_string()), lang))?;
    c.update(&record)
        .map_err(|e| file_error(&name, words(&e, lang), lang))
}

/// Writes the save through a temporary file, so a reader never sees half of it.
fn store(c: &Campaign, path: &Path, lang: Lang) -> anyhow::Result<()> {
    let tmp = path.with_extension("json.tmp");
    let text = serde_json::to_string_pretty(&c.save)? + "\n";
    let write_err = |p: &Path| tf(lang, "cmd.err.write", &[("file", &p.display())]);
    std::fs::write(&tmp, text).with_context(|| write_err(&tmp))?;
    std::fs::rename(&tmp, path).with_context(|| write_err(path))
}

/// Where the game in progress is kept while it is played.
fn game_file(path: &Path) -> PathBuf {
    path.with_extension("game.json")
}

/// Runs `realms campaign …`.
pub fn run(args: CampaignArgs, lang: Lang) -> anyhow::Result<ExitCode> {
    let def = definition(&args, lang)?;
    match args.command {
        CampaignCommand::New(a) => new(&def, a, lang),
        CampaignCommand::Play(a) => play(&def, &a.file, lang),
        CampaignCommand::Status(a) => {
            let c = load(&def, &a.file, lang)?;
            if a.json {
                let mut out = String::new();
                outln!(out, "{}", serde_json::to_string_pretty(&c.status())?);
                return crate::emit(&out);
            }
            crate::emit(&status(&c, lang))
        }
        CampaignCommand::Replay(a) => {
            let c = load(&def, &a.file, lang)?;
            let mut out = String::new();
            outln!(
                out,
                "{}",
                tf(
                    lang,
                    "campaign.replay_ok",
                    &[
                        ("file", &a.file.display()),
                        ("games", &c.save.games.len()),
                        ("played", &c.results.len())
                    ]
                )
            );
            out.push_str(&status(&c, lang));
            crate::emit(&out)
        }
        CampaignCommand::Simulate(a) => simulate(&def, a, lang),
    }
}

fn new(def: &CampaignDef, a: NewArgs, lang: Lang) -> anyhow::Result<ExitCode> {
    bots::starrealms::by_name(&a.vs, 0).map_err(|e| anyhow::anyhow!(e.text(lang)))?;
    let mine = side(&a.side, lang)?;
    let theirs = match &a.bot_side {
        Some(s) => side(s, lang)?,
        None if mine == Faction::StarEmpire => Faction::TradeFederation,
        None => Faction::StarEmpire,
    };
    if a.save.exists() {
        anyhow::bail!(tf(
            lang,
            "campaign.err.save_exists",
            &[("file", &a.save.display())]
        ));
    }
    let seed = a.seed.unwrap_or_else(crate::play::clock_seed);
    let c = Campaign::new(def, [mine, theirs], ["human".into(), a.vs.clone()], seed)
        .map_err(|e| anyhow::anyhow!(words(&e, lang)))?;
    store(&c, &a.save, lang)?;
    let mut out = String::new();
    outln!(
        out,
        "{}",
        tf(
            lang,
            "campaign.created",
            &[
                ("name", &text_of(&def.name, lang)),
                ("side", &i18n::cards::faction(c.save.sides[0], lang)),
                ("bot", &crate::text::level_word(&a.vs, lang)),
                ("file", &a.save.display())
            ]
        )
    );
    out.push_str(&status(&c, lang));
    crate::emit(&out)
}

fn text_of(t: &starrealms::cards::Texts, lang: Lang) -> String {
    t.get(lang.code()).to_string()
}

/// The first player's choice: asked of a person on the terminal, made by a bot at random
/// (from the game's seed, so a replay makes it again).
fn choose(
    c: &Campaign,
    lang: Lang,
    out: &mut impl Write,
    input: &mut impl BufRead,
) -> anyhow::Result<Option<u8>> {
    let Some(face) = c.next_face() else {
        return Ok(Some(0));
    };
    if face.choice.is_empty() {
        return Ok(Some(0));
    }
    let first = c.next_first();
    if c.save.players[first] != "human" {
        let seed = c.game_seed(c.scenario_index()) ^ 0xC401CE;
        return Ok(Some(bots::campaign::scenario_choice(c, seed)));
    }
    writeln!(out, "{}", t(lang, "campaign.choose"))?;
    for (i, o) in face.choice.iter().enumerate() {
        writeln!(out, "  {}. {}", i + 1, text_of(&o.text, lang))?;
    }
    loop {
        write!(out, "{} ", t(lang, "prompt"))?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            return Ok(None);
        }
        match line.trim().parse::<usize>() {
            Ok(n) if (1..=face.choice.len()).contains(&n) => return Ok(Some((n - 1) as u8)),
            _ => writeln!(
                out,
                "{}",
                tf(lang, "bad_number", &[("max", &face.choice.len())])
            )?,
        }
    }
}

fn play(def: &CampaignDef, path: &Path, lang: Lang) -> anyhow::Result<ExitCode> {
    let mut c = load(def, path, lang)?;
    let side_file = game_file(path);
    // A game interrupted (Ctrl-C, quit) was kept in the side file: take its moves back.
    if c.in_progress().is_some() && side_file.exists() {
        take_back(&mut c, &side_file, lang)?;
        store(&c, path, lang)?;
    }
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::stdout().lock();
    if c.is_over() {
        complete(&mut c, lang, &mut out, &mut input, Some(path))?;
        drop(out);
        return crate::emit(&status(&c, lang));
    }
    if c.in_progress().is_none() {
        let k = c.scenario_index();
        let sc = &c.def.scenario[k];
        writeln!(
            out,
            "{}",
            tf(
                lang,
                "campaign.scenario",
                &[
                    ("n", &sc.number),
                    ("of", &c.def.scenario.len()),
                    ("name", &text_of(&sc.name, lang))
                ]
            )
        )?;
        writeln!(out, "{}", text_of(&sc.text, lang))?;
        let Some(choice) = choose(&c, lang, &mut out, &mut input)? else {
            return Ok(ExitCode::SUCCESS);
        };
        c.begin(choice)
            .map_err(|e| anyhow::anyhow!(words(&e, lang)))?;
        store(&c, path, lang)?;
        crate::play::save(c.in_progress().expect("just begun"), &side_file, lang)?;
    } else if !side_file.exists() {
        crate::play::save(c.in_progress().expect("in progress"), &side_file, lang)?;
    }
    drop(out);
    let args = crate::play::PlayArgs {
        vs: String::new(),
        seed: None,
        first: crate::First::Random,
        format: starrealms::Format::Standard,
        seats: None,
        seat: None,
        edition: starrealms::Edition::default(),
        variant: cosmique::Variant::default(),
        save: None,
        resume: Some(side_file.clone()),
        color: crate::term::ColorWhen::Auto,
    };
    let code = crate::play::play(args, lang, &mut input)?;
    take_back(&mut c, &side_file, lang)?;
    store(&c, path, lang)?;
    if c.in_progress().is_none() {
        let _ = std::fs::remove_file(&side_file);
        if c.is_over() {
            let mut out = std::io::stdout().lock();
            complete(&mut c, lang, &mut out, &mut input, Some(path))?;
        }
        crate::emit(&status(&c, lang))?;
    }
    Ok(code)
}

/// The campaign's status in words.
fn status(c: &Campaign, lang: Lang) -> String {
    let set = starrealms::cards();
    let mut out = String::new();
    let who = |p: usize| {
        let side = i18n::cards::faction(c.save.sides[p], lang);
        let player = crate::text::level_word(&c.save.players[p], lang);
        format!("p{} ({player}, {side})", p + 1)
    };
    outln!(
        out,
        "{}",
        tf(
            lang,
            "campaign.status",
            &[
                ("name", &text_of(&c.def.name, lang)),
                ("n", &c.results.len()),
                ("of", &c.def.scenario.len())
            ]
        )
    );
    for p in 0..2 {
        outln!(
            out,
            "  {}",
            tf(
                lang,
                "campaign.player",
                &[
                    ("player", &who(p)),
                    ("points", &c.points[p]),
                    ("political", &c.political[p]),
                    ("stickers", &c.upgrades[p])
                ]
            )
        );
        for g in &c.sheets[p] {
            let used: Vec<String> = g
                .used
                .iter()
                .map(|u| {
                    let col = match u.column {
                        starrealms::cards::Column::Ship => t(lang, "ship"),
                        starrealms::cards::Column::Base => t(lang, "base"),
                    };
                    format!("r{} {col}", u.row)
                })
                .collect();
            outln!(
                out,
                "    {}",
                tf(
                    lang,
                    "campaign.sheet",
                    &[
                        ("sheet", &g.sheet),
                        ("n", &g.used.len()),
                        ("used", &used.join(", "))
                    ]
                )
            );
        }
    }
    for (k, r) in c.results.iter().enumerate() {
        let sc = &c.def.scenario[k];
        let winner = r
            .winner
            .map_or_else(|| t(lang, "campaign.draw").to_string(), |w| who(w as usize));
        let card = match r.card {
            Some(w) => tf(
                lang,
                "campaign.card_won",
                &[
                    ("card", &text_of(&sc.victory_point.name, lang)),
                    ("points", &sc.victory_point.points),
                    ("player", &format!("p{}", w + 1)),
                ],
            ),
            None => t(lang, "campaign.card_none").to_string(),
        };
        let political = if r.political {
            format!(" ({})", t(lang, "campaign.political"))
        } else {
            String::new()
        };
        outln!(
            out,
            "  {}. {} — {winner}{political}; {card}",
            sc.number,
            text_of(&sc.name, lang)
        );
    }
    let upgraded: Vec<String> = c
        .trade_deck
        .iter()
        .filter(|&&x| set.def(x).upgrade.is_some())
        .map(|&x| i18n::cards::name(x, lang).to_string())
        .collect();
    outln!(
        out,
        "  {}",
        tf(
            lang,
            "campaign.upgraded",
            &[("n", &upgraded.len()), ("cards", &upgraded.join(", "))]
        )
    );
    if let Ok(deck) = c.final_trade_deck() {
        outln!(
            out,
            "  {}",
            tf(lang, "campaign.final_deck", &[("n", &deck.len())])
        );
    } else if c.is_over() {
        outln!(out, "  {}", t(lang, "campaign.completing"));
    }
    if c.is_over() {
        let w = c.winner();
        outln!(
            out,
            "{}",
            match w {
                Some(w) => tf(lang, "campaign.winner", &[("player", &who(w as usize))]),
                None => t(lang, "campaign.tie").to_string(),
            }
        );
    } else {
        let sc = &c.def.scenario[c.scenario_index()];
        outln!(
            out,
            "{}",
            tf(
                lang,
                "campaign.next",
                &[
                    ("n", &sc.number),
                    ("name", &text_of(&sc.name, lang)),
                    ("player", &who(c.next_first()))
                ]
            )
        );
    }
    out
}

/// The players' last upgrades, each by its bot (or asked of the person on the terminal).
fn complete(
    c: &mut Campaign,
    lang: Lang,
    out: &mut impl Write,
    input: &mut impl BufRead,
    path: Option<&Path>,
) -> anyhow::Result<bool> {
    while let Some(p) = c.completion_turn() {
        let step = if c.save.players[p as usize] == "human" {
            let options = c.completion_options(p as usize);
            writeln!(out, "{}", t(lang, "campaign.complete"))?;
            for (i, (card, sheet, row)) in options.iter().enumerate() {
                let g = &c.sheets[p as usize][*sheet];
                writeln!(
                    out,
                    "  {:>2}. {} — {} r{}",
                    i + 1,
                    i18n::cards::name_cost(*card, lang),
                    g.sheet,
                    row + 1
                )?;
            }
            let n = loop {
                write!(out, "{} ", t(lang, "prompt"))?;
                out.flush()?;
                let mut line = String::new();
                if input.read_line(&mut line)? == 0 {
                    return Ok(false);
                }
                match line.trim().parse::<usize>() {
                    Ok(n) if (1..=options.len()).contains(&n) => break n - 1,
                    _ => writeln!(
                        out,
                        "{}",
                        tf(lang, "bad_number", &[("max", &options.len())])
                    )?,
                }
            };
            let (card, sheet, row) = options[n];
            Completion {
                player: p,
                card,
                sheet: c.sheets[p as usize][sheet].sheet.clone(),
                row: row + 1,
            }
        } else {
            bots::campaign::completion(c, p).expect("a turn has options")
        };
        let card = step.card;
        c.complete(step)
            .map_err(|e| anyhow::anyhow!(words(&e, lang)))?;
        if path.is_some() {
            writeln!(
                out,
                "{}",
                tf(
                    lang,
                    "campaign.completed_one",
                    &[
                        ("player", &format!("p{}", p + 1)),
                        ("card", &i18n::cards::name(card, lang))
                    ]
                )
            )?;
        }
        if let Some(path) = path {
            store(c, path, lang)?;
        }
    }
    Ok(true)
}

#[derive(Serialize)]
struct SimReport {
    campaigns: u64,
    players: Vec<String>,
    seed: u64,
    threads: usize,
    /// Campaign wins by side (Star Empire, Trade Federation) and ties.
    empire_wins: u64,
    federation_wins: u64,
    ties: u64,
    mean_points: [f64; 2],
    points_distribution: Vec<[u64; 2]>,
    political_victories: u64,
    scenarios: u64,
    most_upgraded: Vec<(String, u64)>,
    /// Each scenario: games, first-player wins, Star Empire wins, draws, victory-point cards
    /// taken, political victories.
    by_scenario: Vec<ScenarioStats>,
    seconds: f64,
}

#[derive(Serialize, Default, Clone)]
struct ScenarioStats {
    scenario: u8,
    games: u64,
    first_player_wins: u64,
    empire_wins: u64,
    draws: u64,
    cards_taken: u64,
    political: u64,
}

/// What the report of `simulate` needs of a campaign played.
struct Summary {
    sides: [Faction; 2],
    results: Vec<starrealms::campaign::ScenarioResult>,
    winner: Option<u8>,
    points: [u32; 2],
    political: [u32; 2],
    /// The printed card of each upgraded card of the trade deck.
    upgraded: Vec<starrealms::CardId>,
}

impl Summary {
    fn of(c: &Campaign) -> Summary {
        let set = starrealms::cards();
        Summary {
            sides: c.save.sides,
            results: c.results.clone(),
            winner: c.winner(),
            points: c.points,
            political: c.political,
            upgraded: c
                .trade_deck
                .iter()
                .filter_map(|&x| set.def(x).upgrade.map(|u| u.of))
                .collect(),
        }
    }
}

fn simulate(def: &CampaignDef, a: SimulateArgs, lang: Lang) -> anyhow::Result<ExitCode> {
    if a.players.len() != 2 {
        anyhow::bail!(t(lang, "campaign.err.players"));
    }
    for p in &a.players {
        bots::starrealms::by_name(p, 0).map_err(|e| anyhow::anyhow!(e.text(lang)))?;
    }
    let pool = crate::worker_pool(a.threads, lang)?;
    let threads = pool.current_num_threads();
    let bar = crate::progress_bar(a.campaigns, crate::Counted::Campaigns, !a.json, lang);
    let start = std::time::Instant::now();
    // Each campaign is summed up as soon as it is played: its games' records are not kept.
    let done: Vec<Summary> = pool.install(|| {
        (0..a.campaigns)
            .into_par_iter()
            .map(|i| {
                let c = bots::campaign::play_campaign(
                    def,
                    [&a.players[0], &a.players[1]],
                    a.seed.wrapping_add(i),
                )
                .map_err(anyhow::Error::msg)
                .map(|c| Summary::of(&c));
                bar.inc(1);
                c
            })
            .collect::<anyhow::Result<Vec<_>>>()
    })?;
    bar.finish_and_clear();
    let set = starrealms::cards();
    let (mut empire, mut federation, mut ties, mut political, mut scenarios) = (0, 0, 0, 0, 0);
    let mut points = [0f64; 2];
    let max_points: u32 = def
        .scenario
        .iter()
        .map(|s| s.victory_point.points as u32)
        .sum();
    let mut distribution = vec![[0u64; 2]; max_points as usize + 1];
    let mut upgraded: std::collections::BTreeMap<String, u64> = Default::default();
    let mut by_scenario: Vec<ScenarioStats> = def
        .scenario
        .iter()
        .map(|s| ScenarioStats {
            scenario: s.number,
            ..ScenarioStats::default()
        })
        .collect();
    for c in &done {
        for (k, r) in c.results.iter().enumerate() {
            let st = &mut by_scenario[k];
            st.games += 1;
            match r.winner {
                Some(w) => {
                    st.first_player_wins += u64::from(w == r.first);
                    st.empire_wins += u64::from(c.sides[w as usize] == Faction::StarEmpire);
                }
                None => st.draws += 1,
            }
            st.cards_taken += u64::from(r.card.is_some());
            st.political += u64::from(r.political);
        }
        match c.winner {
            Some(w) if c.sides[w as usize] == Faction::StarEmpire => empire += 1,
            Some(_) => federation += 1,
            None => ties += 1,
        }
        for p in 0..2 {
            points[p] += c.points[p] as f64;
            distribution[c.points[p] as usize][p] += 1;
        }
        political += c.political.iter().sum::<u32>() as u64;
        scenarios += c.results.len() as u64;
        for &x in &c.upgraded {
            *upgraded.entry(set.def(x).id().to_string()).or_default() += 1;
        }
    }
    let n = done.len().max(1) as f64;
    let mut most: Vec<(String, u64)> = upgraded.into_iter().collect();
    most.sort_by(|x, y| y.1.cmp(&x.1).then(x.0.cmp(&y.0)));
    most.truncate(5);
    let report = SimReport {
        campaigns: done.len() as u64,
        players: a.players.clone(),
        seed: a.seed,
        threads,
        empire_wins: empire,
        federation_wins: federation,
        ties,
        mean_points: [points[0] / n, points[1] / n],
        points_distribution: distribution,
        political_victories: political,
        scenarios,
        most_upgraded: most,
        by_scenario,
        seconds: start.elapsed().as_secs_f64(),
    };
    let mut out = String::new();
    if a.json {
        outln!(out, "{}", serde_json::to_string_pretty(&report)?);
        return crate::emit(&out);
    }
    outln!(
        out,
        "{}",
        tf(
            lang,
            "campaign.sim_header",
            &[
                ("n", &report.campaigns),
                ("players", &report.players.join(" / ")),
                ("seed", &report.seed)
            ]
        )
    );
    outln!(
        out,
        "  {}",
        tf(
            lang,
            "campaign.sim_sides",
            &[
                ("empire", &empire),
                ("federation", &federation),
                ("ties", &ties)
            ]
        )
    );
    outln!(
        out,
        "  {}",
        tf(
            lang,
            "campaign.sim_points",
            &[
                ("empire", &i18n::decimal(lang, report.mean_points[0], 2)),
                ("federation", &i18n::decimal(lang, report.mean_points[1], 2)),
                ("political", &political),
                ("scenarios", &scenarios)
            ]
        )
    );
    let most: Vec<String> = report
        .most_upgraded
        .iter()
        .map(|(id, k)| format!("{id} ×{k}"))
        .collect();
    outln!(
        out,
        "  {}",
        tf(
            lang,
            "campaign.sim_upgraded",
            &[("cards", &most.join(", "))]
        )
    );
    outln!(out, "  {}", t(lang, "campaign.sim_table"));
    for st in &report.by_scenario {
        let share = |k: u64, of: u64| i18n::percent(lang, k as f64 / of.max(1) as f64, 1);
        let decided = st.games - st.draws;
        outln!(
            out,
            "  {:>3} {:>7} {:>13} {:>13} {:>11} {:>11}",
            st.scenario,
            st.games,
            share(st.first_player_wins, decided),
            share(st.empire_wins, decided),
            share(st.cards_taken, st.games),
            share(st.political, st.games)
        );
    }
    outln!(out, "  {} s", i18n::decimal(lang, report.seconds, 1));
    crate::emit(&out)
}
