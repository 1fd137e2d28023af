//! End-to-end tests of the `realms` binary: every command, its outputs and its error paths.

use std::path::{Path, PathBuf};
use std::process::{Command as StdCommand, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

/// The binary with a neutral locale (English unless `--lang` says otherwise).
fn realms() -> Command {
    let mut cmd = Command::cargo_bin("realms").expect("the realms binary is built");
    cmd.env("LANG", "C")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env_remove("CLICOLOR_FORCE");
    cmd
}

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
}

fn stdout_of(cmd: &mut Command) -> String {
    let out = cmd.assert().success().get_output().stdout.clone();
    String::from_utf8(out).expect("utf-8 output")
}

fn json_of(cmd: &mut Command) -> Value {
    serde_json::from_str(&stdout_of(cmd)).expect("the output is JSON")
}

/// Input that always picks the first listed action: it plays cards, uses abilities, buys and
/// attacks before ending, so the game moves on to its end.
fn first_choices(n: usize) -> String {
    "1\n".repeat(n)
}

// ----- help ------------------------------------------------------------------------------------

#[test]
fn every_command_has_help() {
    let top = stdout_of(realms().arg("--help"));
    for command in ["play", "simulate", "replay", "scenario", "cards"] {
        assert!(top.contains(command), "`realms --help` lists {command}");
        let help = stdout_of(realms().args([command, "--help"]));
        assert!(
            help.contains("Usage: realms"),
            "{command} --help shows usage"
        );
    }
    let play = stdout_of(realms().args(["play", "--help"]));
    for option in ["--vs", "--seed", "--first", "--save", "--lang"] {
        assert!(play.contains(option), "play --help documents {option}");
    }
    let sim = stdout_of(realms().args(["simulate", "--help"]));
    for option in ["--games", "--players", "--seed", "--threads", "--json"] {
        assert!(sim.contains(option), "simulate --help documents {option}");
    }
}

#[test]
fn help_and_refusals_speak_the_language_of_the_locale_or_of_lang() {
    // From the locale: the help screen, its headings, defaults and values.
    let serve = stdout_of(
        realms()
            .env("LANG", "fr_FR.UTF-8")
            .args(["serve", "--help"]),
    );
    for french in [
        "Lancer le serveur de jeu",
        "Utilisation : realms serve",
        "Options :",
        "[par défaut : 4096]",
        "Afficher l'aide",
    ] {
        assert!(serve.contains(french), "`{french}` in {serve}");
    }
    for english in ["Usage:", "Print help", "[default:", "Run the game server"] {
        assert!(!serve.contains(english), "`{english}` in {serve}");
    }
    // From `--lang`, which wins over the locale, wherever it stands on the line.
    let play = stdout_of(
        realms()
            .env("LANG", "fr_FR.UTF-8")
            .args(["play", "--lang", "es", "-h"]),
    );
    assert!(play.contains("Uso: realms play"), "{play}");
    assert!(
        play.contains("[valores posibles: me, bot, random]"),
        "{play}"
    );
    // A command line clap refuses: told in the language, with clap's exit code.
    realms()
        .args(["--lang", "fr", "play", "--danse"])
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with(
            "erreur : option ou argument inconnu `--danse`",
        ));
    realms()
        .env("LANG", "pt_BR.UTF-8")
        .arg("voar")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("comando desconhecido `voar`"));
    // An error of the command itself carries the language's prefix too.
    realms()
        .args(["--lang", "fr", "replay", "no-such-record.json"])
        .assert()
        .code(1)
        .stderr(predicate::str::starts_with("erreur : "));
    // A bot's name no bot answers to, in Bataille Cosmique as in Star Realms.
    realms()
        .args(["--lang", "fr", "play", "--vs", "sorcier"])
        .assert()
        .code(1)
        .stderr(predicate::str::starts_with(
            "erreur : bot inconnu `sorcier` (connus : random, heuristic, easy,",
        ));
    // The values the engine would refuse in English: a format, an edition, a seat, a card
    // set, a number of seats the format is not played by.
    for (args, error) in [
        (
            &["play", "--format", "hidra"][..],
            "erreur : la valeur `hidra` de --format <FORMAT> n'est pas valide : les valeurs \
             connues sont standard, free_for_all, hunter, hunter_first_blood, hydra, emperor, raid",
        ),
        (
            &["simulate", "--edition", "neuve"],
            "erreur : la valeur `neuve` de --edition <ÉDITION> n'est pas valide : les valeurs \
             connues sont rise_of_empire, classic",
        ),
        (
            &["play", "--seat", "p7"],
            "erreur : la valeur `p7` de --seat <PLACE> n'est pas valide : une place s'écrit de \
             p1 à p6",
        ),
        (
            &["cards", "--sets", "base,galaxie"],
            "erreur : --sets : jeu de cartes inconnu `galaxie` (jeux connus : base, colony_wars, \
             frontiers, rise_of_empire, rise_of_empire_post)",
        ),
        (
            &["play", "--format", "hydra", "--seats", "5"],
            "erreur : le format hydra demande 4 ou 6 places, pas 5",
        ),
        (
            &["simulate", "--players", "random,random", "--format", "raid"],
            "erreur : le format raid demande de 3 à 6 places, pas 2 (--players nomme un bot par \
             place)",
        ),
    ] {
        realms()
            .args(["--lang", "fr"])
            .args(args)
            .write_stdin("")
            .assert()
            .failure()
            .stderr(predicate::str::starts_with(format!("{error}\n")));
    }
    realms()
        .args([
            "--lang",
            "es",
            "simulate",
            "--game",
            "cosmique",
            "--players",
            "random,mago",
        ])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "bot desconocido `mago` (conocidos: random, heuristic, easy, medium, hard, expert, \
             ismcts:<iteraciones>)",
        ));
}

#[test]
fn reports_write_numbers_as_the_language_does() {
    let report = |lang: &str| {
        stdout_of(realms().args(["--lang", lang, "simulate", "-n", "20", "--seed", "1"]))
    };
    // `20.8` in English, `20,8` elsewhere; `46.00%`, `46,00 %` in French and Spanish, `46,00%`
    // in Portuguese.
    let length = |text: &str, label: &str| {
        let line = text
            .lines()
            .find(|l| l.starts_with(label))
            .unwrap()
            .to_string();
        line[label.len()..].split(' ').next().unwrap().to_string()
    };
    let is_decimal = |number: &str, mark: char| {
        let (whole, tenths) = number
            .split_once(mark)
            .unwrap_or_else(|| panic!("{number}"));
        !whole.is_empty()
            && tenths.len() == 1
            && whole
                .chars()
                .chain(tenths.chars())
                .all(|c| c.is_ascii_digit())
    };
    let en = report("en");
    assert!(is_decimal(&length(&en, "Game length: "), '.'), "{en}");
    assert!(en.contains("100.00%  [95% CI "), "{en}");
    let fr = report("fr");
    assert!(is_decimal(&length(&fr, "Durée : "), ','), "{fr}");
    assert!(fr.contains("100,00 %  [IC 95 % "), "{fr}");
    let pt = report("pt");
    assert!(pt.contains("100,00%  [IC 95% "), "{pt}");
    let es = report("es");
    assert!(es.contains("100,00 %  [IC 95 % "), "{es}");
}

#[test]
fn unknown_command_and_option_fail_with_usage() {
    realms()
        .arg("fly")
        .assert()
        .failure()
        .stderr(predicate::str::contains("error: unknown command `fly`"));
    realms()
        .args(["play", "--vs", "genius"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("unknown bot `genius`"));
    realms()
        .args(["--lang", "de", "cards"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("`de` is not a value of --lang"));
}

// ----- cards -----------------------------------------------------------------------------------

#[test]
fn cards_lists_every_card_in_english_and_french() {
    let en = stdout_of(realms().arg("cards"));
    assert!(en.starts_with("49 cards"));
    assert!(en.contains("Blob Fighter — Blob ship, cost 1 ×3"));
    assert!(en.contains("Primary: Add 3 Combat. Ally (Blob): Draw a card."));
    let fr = stdout_of(realms().args(["--lang", "fr", "cards"]));
    assert!(fr.starts_with("49 cartes"));
    assert!(fr.contains("Blob Soldat — vaisseau Blob, coût 1 ×3"));
    assert!(fr.contains("Primaire : +3 Combat. Allié (Blob) : Piochez une carte."));
    // The locale chooses the language when --lang is absent.
    let by_locale = stdout_of(realms().env("LANG", "fr_FR.UTF-8").arg("cards"));
    assert_eq!(by_locale, fr);
}

#[test]
fn cards_lists_every_card_in_portuguese_and_spanish_with_the_rulebooks_words() {
    let pt = stdout_of(realms().args(["--lang", "pt", "cards"]));
    assert!(pt.starts_with("49 cartas"), "{pt}");
    // The Portuguese rulebook's names: Batedor (Scout), Explorador (Explorer); others in English.
    assert!(pt.contains("Batedor — nave sem facção, custo 0 ×8"), "{pt}");
    assert!(pt.contains("Explorador — nave sem facção, custo 2 ×10"));
    assert!(pt.contains("Primária: Ganhe 2 de Comércio. Sucatear: Ganhe 2 de Combate."));
    assert!(pt.contains("Blob Fighter — nave Blob, custo 1 ×3"));
    assert!(pt.contains("Primária: Ganhe 3 de Combate. Aliado (Blob): Compre uma carta."));
    assert!(pt.contains("Trading Post — posto avançado 4 Federação Comercial, custo 3"));
    assert!(pt.contains("Aliado (Império Estelar)") && pt.contains("Aliado (Culto Mecânico)"));
    assert!(pt.contains("Você pode destruir uma base alvo"));
    assert!(pt.contains("Ganhe 4 de Autoridade"));
    let es = stdout_of(realms().args(["--lang", "es", "cards"]));
    assert!(es.starts_with("49 cartas"), "{es}");
    // The Spanish rulebook's names: Explorador (Explorer), Trueque Mundial (Barter World).
    assert!(es.contains("Scout — barco sin facción, coste 0 ×8"), "{es}");
    assert!(es.contains("Explorador — barco sin facción, coste 2 ×10"));
    assert!(es.contains("Primaria: Gana 2 de Comercio. Desechar: Gana 2 de Combate."));
    assert!(es.contains("Trueque Mundial — base 4 Federación Comercial, coste 4"));
    assert!(es.contains("Primaria: Gana 3 de Combate. Aliado (Blob): Roba una carta."));
    assert!(es.contains("Trading Post — puesto avanzado 4 Federación Comercial, coste 3"));
    assert!(es.contains("Puedes destruir la base objetivo"));
    assert!(es.contains("Gana 4 de Autoridad"));
    // The locale chooses them too.
    for (locale, text) in [("pt_BR.UTF-8", &pt), ("es_ES.UTF-8", &es), ("es_MX", &es)] {
        let by_locale = stdout_of(realms().env("LANG", locale).arg("cards"));
        assert_eq!(&by_locale, text, "{locale}");
    }
    let json = json_of(realms().args(["--lang", "pt", "cards", "--json"]));
    assert_eq!(json["cards"][0]["name"], "Batedor");
}

#[test]
fn the_help_and_the_errors_list_every_language() {
    let help = stdout_of(realms().arg("--help"));
    assert!(help.contains("en, fr, pt or es"), "{help}");
    realms()
        .args(["--lang", "de", "cards"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "(possible values: en, fr, pt, es)",
        ));
}

#[test]
fn play_in_portuguese_and_spanish_with_their_own_commands() {
    let dir = tempfile::tempdir().unwrap();
    let pt = stdout_of(
        realms()
            .current_dir(dir.path())
            .args(["--lang", "pt", "play", "--seed", "2", "--first", "me"])
            .write_stdin("1\najuda\ncarta batedor\nsair\n"),
    );
    assert!(pt.contains("Star Realms contra o bot heurístico · semente 2 · p2 (você) começa."));
    assert!(pt.contains("Rodada 1 · vez de p2 (você)"));
    assert!(pt.contains("Linha de Comércio"));
    assert!(pt.contains("Jogar Batedor"));
    assert!(pt.contains("Comandos:"), "`ajuda` shows the help");
    assert!(
        pt.contains("Batedor (0)\n  nave sem facção, custo 0\n  Primária: Ganhe 1 de Comércio."),
        "{pt}"
    );
    assert!(pt.contains("Partida salva em realms-game-2.json. Até logo."));
    let es = stdout_of(
        realms()
            .current_dir(dir.path())
            .args(["--lang", "es", "play", "--seed", "2", "--first", "me"])
            .write_stdin("1\nayuda\nfila 0\nsalir\n"),
    );
    assert!(es.contains("Star Realms contra el bot heurístico · semilla 2 · p2 (tú) empieza."));
    assert!(es.contains("Turno 1 · le toca a p2 (tú)"));
    assert!(es.contains("Fila de intercambios"));
    assert!(es.contains("Jugar Scout"));
    assert!(es.contains("Comandos:"), "`ayuda` shows the help");
    assert!(
        es.contains("Trueque Mundial (4)\n")
            && es.contains("\n  Primaria: Gana 2 de Autoridad O Gana 2 de Comercio."),
        "`fila 0` shows the card: {es}"
    );
    assert!(es.contains("Partida guardada en realms-game-2.json. Hasta luego."));
}

#[test]
fn cards_json_holds_names_numbers_and_effects() {
    let list = json_of(realms().args(["cards", "--json"]));
    assert_eq!(list["sets"], serde_json::json!(["base"]));
    assert_eq!(list["sheets"], serde_json::json!([]));
    let cards = list["cards"].as_array().expect("an array");
    assert_eq!(cards.len(), 49);
    let fighter = cards
        .iter()
        .find(|c| c["id"] == "blob_fighter")
        .expect("Blob Fighter is listed");
    assert_eq!(fighter["cost"], 1);
    assert_eq!(fighter["faction"], "blob");
    assert_eq!(fighter["count"], 3);
    assert_eq!(fighter["primary"], serde_json::json!([{ "combat": 3 }]));
    let fr = json_of(realms().args(["--lang", "fr", "cards", "--json"]));
    assert_eq!(fr["cards"][0]["name"], "Éclaireur");
}

#[test]
fn a_designers_card_file_replaces_the_set_and_a_broken_one_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let base = std::fs::read_to_string(repo("crates/starrealms/cards/base.toml")).unwrap();
    let custom = dir.path().join("custom.toml");
    std::fs::write(
        &custom,
        base.replace(
            "name = { en = \"Blob Fighter\", fr = \"Blob Soldat\" }",
            "name = { en = \"Blob Brawler\", fr = \"Blob Bagarreur\" }",
        )
        .replace("id = \"blob_fighter\"", "id = \"blob_brawler\""),
    )
    .unwrap();
    let out = stdout_of(realms().arg("--cards").arg(&custom).arg("cards"));
    assert!(out.contains("Blob Brawler") && !out.contains("Blob Fighter"));
    // The bots play a designer's set too (a card the value table does not know is valued by
    // its cost).
    let sim = json_of(realms().arg("--cards").arg(&custom).args([
        "simulate",
        "-n",
        "30",
        "--players",
        "heuristic,heuristic",
        "--json",
    ]));
    assert_eq!(sim["games"], 30);

    let broken = dir.path().join("broken.toml");
    std::fs::write(&broken, base.replacen("cost = 1", "cost = \"one\"", 1)).unwrap();
    realms()
        .arg("--cards")
        .arg(&broken)
        .arg("cards")
        .assert()
        .failure()
        .stderr(
            predicate::str::contains("broken.toml:").and(predicate::str::contains("expected u8")),
        );
    realms()
        .args(["--cards", "/nonexistent/cards.toml", "cards"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("cannot read the card file"));
}

/// `text` written to the file `name` in `dir`.
fn write_in(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// What `realms ARGS FILE` says on failing.
fn refused(args: &[&str], file: &Path) -> String {
    let out = realms().args(args).arg(file).output().unwrap();
    assert!(!out.status.success());
    String::from_utf8(out.stderr).unwrap()
}

/// What `realms ARGS FILE` says on failing, checked to hold `wanted`.
fn says(args: &[&str], file: &Path, wanted: &str) -> String {
    let error = refused(args, file);
    assert!(error.contains(wanted), "{error}");
    error
}

#[test]
fn a_broken_files_parser_words_are_in_the_language() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| write_in(dir.path(), name, text);
    // A card file (TOML): a value of the wrong type, a misspelt field, a syntax error.
    let base = std::fs::read_to_string(repo("crates/starrealms/cards/base.toml")).unwrap();
    let wrong_type = write("type.toml", &base.replacen("cost = 1", "cost = \"one\"", 1));
    let error = says(
        &["--lang", "fr", "cards", "--cards"],
        &wrong_type,
        "type.toml:",
    );
    assert!(
        error.contains("type invalide : le texte \"one\", attendu un entier (u8)"),
        "{error}"
    );
    let misspelt = write("field.toml", &base.replacen("cost = 1", "cots = 1", 1));
    says(
        &["--lang", "es", "cards", "--cards"],
        &misspelt,
        "campo desconocido `cots`, se esperaba uno de `id`, ",
    );
    let unclosed = write("syntax.toml", "[[card]\nid = \"x\"\n");
    says(
        &["--lang", "pt", "cards", "--cards"],
        &unclosed,
        "cabeçalho `[[` não fechado, esperado: `]`",
    );
    // Any of TOML's syntax errors, not only the commonest.
    let zero = write("zero.toml", &base.replacen("cost = 1", "cost = 01", 1));
    let error = says(&["--lang", "fr", "cards", "--cards"], &zero, "zero.toml:");
    assert!(error.contains(": zéro en tête inattendu"), "{error}");
    let escape = write("escape.toml", "[[card]]\nid = \"a\\q\"\n");
    says(
        &["--lang", "es", "cards", "--cards"],
        &escape,
        "secuencia de escape incompleta, se esperaba: `b`, `e`",
    );
    // A scenario (JSON): where, and why, in the language.
    let cut = write("cut.json", r#"{ "players": [ { "authority": 10,"#);
    says(
        &["--lang", "fr", "scenario"],
        &cut,
        "ligne 1, colonne 33 : le fichier s'arrête au milieu d'une valeur",
    );
    says(
        &["--lang", "en", "scenario"],
        &cut,
        "line 1, column 33: EOF while parsing a value",
    );
    // A Bataille Cosmique scenario given a Star Realms file: the field, and the hint.
    let error = refused(
        &["--lang", "fr", "--game", "cosmique", "scenario"],
        &repo("scenarios/pending-discard.json"),
    );
    assert!(error.contains("champ inconnu `players`"), "{error}");
    // A campaign file and a record.
    let campaign = write("campaign.toml", "nmae = \"x\"\n");
    let error = refused(
        &["--lang", "fr", "campaign", "status", "--campaign"],
        &campaign,
    );
    assert!(error.contains("champ inconnu `nmae`"), "{error}");
    let record = write("record.json", r#"{"version": "two"}"#);
    says(
        &["--lang", "fr", "replay"],
        &record,
        "type invalide : le texte \"two\"",
    );
}

#[test]
fn realms_own_checks_of_a_file_are_in_the_language() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| write_in(dir.path(), name, text);
    // A card file: the card, then the fault, each in the language; the id as it was written.
    let card = write(
        "ship.toml",
        "extends = \"base\"\n[[card]]\nid = \"trade\"\nname = { en = \"X\", fr = \"X\" }\n\
         kind = \"ship\"\ncost = 3\ncount = 1\ndefense = 4\ntext = \"t\"\nprimary = [{ trade = 1 }]\n",
    );
    says(
        &["--lang", "fr", "cards", "--cards"],
        &card,
        "ship.toml:2: carte `trade` : un vaisseau n'a pas de `defense`",
    );
    says(
        &["--lang", "en", "cards", "--cards"],
        &card,
        "ship.toml:2: card `trade`: a ship has no `defense`",
    );
    // A scenario: the field, then why; an unknown card among the reader's words.
    let scenario = write("dead.json", r#"{ "players": [ { "authority": 0 }, {} ] }"#);
    let error = says(
        &["--lang", "es", "scenario"],
        &scenario,
        "`players[0].authority`: ",
    );
    assert!(!error.contains("authority must"), "{error}");
    let sets = write(
        "sets.json",
        r#"{"config": {"sets": ["nope"]}, "players": [{}, {}]}"#,
    );
    says(
        &["--lang", "fr", "scenario"],
        &sets,
        "ligne 1, colonne 29 : jeu de cartes inconnu `nope` (connus : base, ",
    );
    let pile = write("pile.json", r#"{"pile": ["purple9"]}"#);
    says(
        &["--lang", "es", "--game", "cosmique", "scenario"],
        &pile,
        "línea 1, columna 21: `purple9` no es una carta",
    );
    let unknown = write(
        "scoot.json",
        r#"{ "players": [ { "hand": ["Scoot"] }, {} ] }"#,
    );
    says(
        &["--lang", "pt", "scenario"],
        &unknown,
        "linha 1, coluna 34: carta desconhecida `Scoot`",
    );
    // A campaign file, and a game's configuration on the command line.
    let base =
        std::fs::read_to_string(repo("crates/starrealms/campaigns/rise_of_empire.toml")).unwrap();
    let campaign = write("campaign.toml", &base.replace("s1_empire", "s9_nowhere"));
    let error = refused(
        &["--lang", "fr", "campaign", "status", "--campaign"],
        &campaign,
    );
    assert!(
        error.contains("campaign.toml : scénario 1 : planche d'autocollants inconnue `s9_nowhere`"),
        "{error}"
    );
    let out = realms()
        .args([
            "--lang",
            "fr",
            "simulate",
            "-n",
            "2",
            "--sheets",
            "p1=s9_nope",
        ])
        .output()
        .unwrap();
    let error = String::from_utf8(out.stderr).unwrap();
    assert!(!out.status.success());
    assert!(
        error.contains("p1 : planche d'autocollants inconnue `s9_nope` (connues : s1_empire"),
        "{error}"
    );
}

// ----- simulate --------------------------------------------------------------------------------

fn without_timing(mut v: Value) -> Value {
    let o = v.as_object_mut().unwrap();
    for k in ["seconds", "games_per_second", "threads"] {
        assert!(o.remove(k).is_some(), "the report has `{k}`");
    }
    v
}

#[test]
fn simulate_reports_wins_and_is_the_same_whatever_the_threads() {
    let run = |threads: &str| {
        json_of(realms().args([
            "simulate",
            "--games",
            "300",
            "--players",
            "heuristic,random",
            "--seed",
            "9",
            "--threads",
            threads,
            "--json",
        ]))
    };
    let one = run("1");
    let two = run("2");
    for key in [
        "games",
        "wins",
        "first_player_wins",
        "mean_turns",
        "games_per_second",
    ] {
        assert!(one.get(key).is_some(), "the JSON report has `{key}`");
    }
    assert_eq!(one["games"], 300);
    let wins: u64 = one["wins"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_u64().unwrap())
        .sum();
    assert_eq!(wins + one["draws"].as_u64().unwrap(), 300);
    assert!(
        one["wins"][0].as_u64().unwrap() > 250,
        "the heuristic bot wins most games"
    );
    assert_eq!(without_timing(one), without_timing(two));
    // Another seed gives other games.
    let other = json_of(realms().args([
        "simulate",
        "-n",
        "300",
        "--seed",
        "10",
        "--threads",
        "2",
        "--json",
    ]));
    assert_ne!(other["mean_turns"], two_mean(&run("2")));
}

fn two_mean(v: &Value) -> Value {
    v["mean_turns"].clone()
}

#[test]
fn simulate_text_report_has_intervals_and_speed() {
    let out = stdout_of(realms().args(["simulate", "-n", "200", "--players", "random,random"]));
    assert!(out.starts_with("200 games · standard · random / random · seed 1"));
    assert!(out.contains("95% CI"));
    assert!(out.contains("First player won"));
    assert!(out.contains("turns on average"));
    assert!(out.contains("games/s"));
    let fr = stdout_of(realms().args(["--lang", "fr", "simulate", "-n", "50"]));
    assert!(fr.contains("parties/s") && fr.contains("IC 95 %"));
}

#[test]
fn simulate_refuses_bad_options() {
    for (args, message) in [
        (
            vec!["--players", "heuristic,wizard"],
            "unknown bot `wizard`",
        ),
        (vec!["--games", "0"], "--games must be at least 1"),
        (vec!["--threads", "0"], "--threads must be at least 1"),
        (
            vec!["--players", "random"],
            "the standard format takes 2 seats, not 1",
        ),
        (
            vec![
                "--players",
                "random,random,random,random,random,random,random",
            ],
            "the free_for_all format takes 3 to 6 seats",
        ),
        (
            vec!["--games", "many"],
            "the value `many` of --games <GAMES> is not valid",
        ),
    ] {
        realms()
            .arg("simulate")
            .args(&args)
            .assert()
            .failure()
            .stderr(predicate::str::contains(message));
    }
}

#[test]
fn simulate_plays_free_for_all_with_more_bots() {
    let v = json_of(realms().args([
        "simulate",
        "-n",
        "20",
        "--players",
        "heuristic,random,random",
        "--json",
    ]));
    assert_eq!(v["wins"].as_array().unwrap().len(), 3);
}

// ----- play ------------------------------------------------------------------------------------

#[test]
fn a_whole_game_is_played_through_stdin_saved_and_replayed() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("game.json");
    let out = stdout_of(
        realms()
            .args([
                "play", "--vs", "random", "--seed", "5", "--first", "me", "--save",
            ])
            .arg(&save)
            .write_stdin(first_choices(20_000)),
    );
    // `--first me`: the human takes the seat the seed draws to play first (here p2).
    assert!(out.starts_with("Star Realms against the random bot · seed 5 · p2 (you) plays first."));
    assert!(out.contains("══ Turn 1 · p2 (you) to play ══"));
    assert!(out.contains("Trade row: [0]"));
    assert!(out.contains("Explorers: 10 (cost 2)"));
    assert!(out.contains("p1 (random) played:"));
    assert!(out.contains("Game saved to"));
    let verdict = out.contains("You win!") || out.contains("p1 (random) wins.");
    assert!(verdict, "the game ends with a verdict");

    let record: Value = serde_json::from_str(&std::fs::read_to_string(&save).unwrap()).unwrap();
    assert_eq!(record["seed"], 5);
    assert_eq!(record["players"], serde_json::json!(["random", "human"]));
    let check = stdout_of(realms().args(["replay", "--check"]).arg(&save));
    assert!(check.contains(": ok,") && check.contains("winner: p"));
}

#[test]
fn play_in_french() {
    let dir = tempfile::tempdir().unwrap();
    let out = stdout_of(
        realms()
            .current_dir(dir.path())
            .args(["--lang", "fr", "play", "--seed", "2", "--first", "me"])
            .write_stdin("1\nquitter\n"),
    );
    assert!(out.contains("Star Realms contre le bot heuristique · graine 2 · p2 (vous) commence."));
    assert!(out.contains("Tour 1 · à p2 (vous) de jouer"));
    assert!(out.contains("Ligne d'Achat"));
    assert!(out.contains("Jouer Éclaireur"));
    assert!(out.contains("Votre choix>"));
    assert!(out.contains("Partie sauvegardée dans realms-game-2.json. Au revoir."));
    assert!(
        dir.path().join("realms-game-2.json").exists(),
        "saved in the working directory"
    );
}

#[test]
fn bad_input_re_prompts_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("g.json");
    let out = stdout_of(
        realms()
            .args(["play", "--seed", "4", "--first", "me", "--save"])
            .arg(&save)
            .write_stdin("hello\n0\n99\nbuy row 4\nattack p2 5\nhelp\nboard\nplay scout\nquit\n"),
    );
    assert!(out.contains("I don't understand `hello`"));
    assert!(out.contains("No such action: type a number from 1 to 2."));
    assert!(out.contains("`buy row 4` is not legal now: "), "{out}");
    assert!(
        out.contains("`attack p2 5` is not legal now: 5 combat asked of p2, combat pool is 0."),
        "{out}"
    );
    assert!(out.contains("Commands:"), "help is shown");
    assert!(out.contains("✓ Play Scout"));
    let record: Value = serde_json::from_str(&std::fs::read_to_string(&save).unwrap()).unwrap();
    assert_eq!(
        record["actions"],
        serde_json::json!(["play scout"]),
        "only the good action"
    );
}

#[test]
fn the_bot_can_move_first_and_its_moves_are_shown() {
    let dir = tempfile::tempdir().unwrap();
    let out = stdout_of(
        realms()
            .current_dir(dir.path())
            .args(["play", "--seed", "8", "--first", "bot", "--vs", "heuristic"])
            .write_stdin("quit\n"),
    );
    assert!(
        out.contains("p1 (heuristic) plays first") || out.contains("p2 (heuristic) plays first")
    );
    assert!(out.contains("(heuristic) played:"));
    assert!(
        out.contains("══ Turn 2 ·"),
        "the human's first turn is the second one"
    );
}

#[test]
fn closed_input_saves_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("g.json");
    let out = stdout_of(
        realms()
            .args(["play", "--seed", "6", "--first", "me", "--save"])
            .arg(&save)
            .write_stdin("1\n1\n"),
    );
    assert!(out.contains("Input closed: game saved to"));
    let check = stdout_of(realms().args(["replay", "--check"]).arg(&save));
    assert!(check.contains("ok, 2 actions") && check.contains("unfinished: p1 (human) to play"));
}

#[test]
fn ctrl_c_saves_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("g.json");
    let bin = assert_cmd::cargo::cargo_bin("realms");
    let mut child = StdCommand::new(bin)
        .args(["play", "--seed", "11", "--first", "me", "--save"])
        .arg(&save)
        .env("LANG", "C")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Keep the input open: the game waits at its prompt until interrupted.
    let stdin = child.stdin.take();
    // The record is written before the first prompt; then interrupt.
    let start = Instant::now();
    while !save.exists() {
        assert!(start.elapsed() < Duration::from_secs(30), "the game starts");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(200));
    let status = StdCommand::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    drop(stdin);
    assert_eq!(out.status.code(), Some(130));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("Interrupted: game saved to"), "{stderr}");
    realms()
        .args(["replay", "--check"])
        .arg(&save)
        .assert()
        .success();
}

// ----- replay ----------------------------------------------------------------------------------

fn saved_game(dir: &Path) -> PathBuf {
    let save = dir.join("game.json");
    realms()
        .args([
            "play", "--vs", "random", "--seed", "12", "--first", "me", "--save",
        ])
        .arg(&save)
        .write_stdin(first_choices(20_000))
        .assert()
        .success();
    save
}

#[test]
fn replay_shows_every_step_and_checks() {
    let dir = tempfile::tempdir().unwrap();
    let save = saved_game(dir.path());
    let out = stdout_of(realms().arg("replay").arg(&save));
    assert!(out.contains("══ Turn 1 · p1 (human) Authority 50 · p2 (random) Authority 50 ══"));
    assert!(out.contains("    1  p1 (human): Play Scout"));
    assert!(out.contains("winner: p"));
    let boards = stdout_of(realms().args(["replay", "--boards"]).arg(&save));
    assert!(boards.contains("Trade row: [0]"));
    let fr = stdout_of(realms().args(["--lang", "fr", "replay"]).arg(&save));
    assert!(fr.contains("p1 (human): Jouer Éclaireur"));
}

#[test]
fn replay_fails_clearly_on_bad_records() {
    let dir = tempfile::tempdir().unwrap();
    let save = saved_game(dir.path());
    let mut record: Value = serde_json::from_str(&std::fs::read_to_string(&save).unwrap()).unwrap();

    let tampered = dir.path().join("tampered.json");
    record["actions"][3] = "buy row 4".into();
    std::fs::write(&tampered, record.to_string()).unwrap();
    realms()
        .args(["replay", "--check"])
        .arg(&tampered)
        .assert()
        .failure()
        .stderr(
            predicate::str::contains("does not replay: action 4 of")
                .and(predicate::str::contains("(`buy row 4`)")),
        );

    let garbled = dir.path().join("garbled.json");
    record["actions"][3] = "fly to the moon".into();
    std::fs::write(&garbled, record.to_string()).unwrap();
    realms()
        .args(["replay", "--check"])
        .arg(&garbled)
        .assert()
        .failure()
        .stderr(predicate::str::contains("(`fly to the moon`)"));

    let other_game = dir.path().join("other.json");
    record["game"] = "chess".into();
    std::fs::write(&other_game, record.to_string()).unwrap();
    realms()
        .args(["replay"])
        .arg(&other_game)
        .assert()
        .failure()
        .stderr(predicate::str::contains("a record of `chess`"));

    let not_json = dir.path().join("not.json");
    std::fs::write(&not_json, "{ \"version\": 1, ").unwrap();
    realms()
        .arg("replay")
        .arg(&not_json)
        .assert()
        .failure()
        .stderr(predicate::str::contains("is not a game record"));

    realms()
        .args(["replay", "/nonexistent/game.json"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "cannot read /nonexistent/game.json",
        ));
}

// ----- scenario --------------------------------------------------------------------------------

#[test]
fn every_example_scenario_runs_in_text_and_json() {
    for entry in std::fs::read_dir(repo("scenarios")).unwrap() {
        let path = entry.unwrap().path();
        let text = stdout_of(realms().arg("scenario").arg(&path));
        assert!(text.contains("Scenario applied"), "{}", path.display());
        assert!(text.contains("— what p1 sees —") && text.contains("— what p2 sees —"));
        let json = json_of(realms().args(["scenario", "--json"]).arg(&path));
        for key in ["state", "legal_actions", "observations"] {
            assert!(json.get(key).is_some(), "{}: `{key}`", path.display());
        }
    }
}

#[test]
fn scenario_shows_hands_only_to_their_owners() {
    let out = stdout_of(
        realms()
            .arg("scenario")
            .arg(repo("scenarios/lethal-through-outpost.json")),
    );
    let views: Vec<&str> = out.split("— what ").collect();
    assert_eq!(views.len(), 3);
    // Each view shows exactly one hand: its owner's.
    for view in &views[1..] {
        assert_eq!(view.matches("   Hand: ").count(), 1, "{view}");
    }
}

#[test]
fn scenario_errors_name_the_field_or_the_step() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    let bad_card = write(
        "bad-card.json",
        r#"{ "players": [ { "hand": ["Death Star"] }, {} ] }"#,
    );
    realms()
        .arg("scenario")
        .arg(&bad_card)
        .assert()
        .failure()
        .stderr(
            predicate::str::contains("line 1, column")
                .and(predicate::str::contains("unknown card `Death Star`")),
        );
    let illegal = write(
        "illegal.json",
        r#"{ "players": [ { "hand": ["Scout"] }, {} ], "actions": ["play scout", "buy row 0"] }"#,
    );
    realms()
        .arg("scenario")
        .arg(&illegal)
        .assert()
        .failure()
        .stderr(predicate::str::contains("buy row 0"));
    let malformed = write("malformed.json", "{ \"players\": [ }");
    realms()
        .arg("scenario")
        .arg(&malformed)
        .assert()
        .failure()
        .stderr(predicate::str::contains("line 1"));
}

#[test]
fn a_saved_game_resumes_exactly_where_it_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.json");
    realms()
        .args([
            "play",
            "--vs",
            "heuristic",
            "--seed",
            "21",
            "--first",
            "me",
            "--save",
        ])
        .arg(&whole)
        .write_stdin(first_choices(20_000))
        .assert()
        .success();
    let parts = dir.path().join("parts.json");
    realms()
        .args([
            "play",
            "--vs",
            "heuristic",
            "--seed",
            "21",
            "--first",
            "me",
            "--save",
        ])
        .arg(&parts)
        .write_stdin(format!("{}quit\n", first_choices(40)))
        .assert()
        .success();
    let out = stdout_of(
        realms()
            .arg("play")
            .arg("--resume")
            .arg(&parts)
            .write_stdin(first_choices(20_000)),
    );
    assert!(out.contains("Resumed from"));
    // The bot's decisions were replayed, so the two games are the same game.
    assert_eq!(
        std::fs::read_to_string(&whole).unwrap(),
        std::fs::read_to_string(&parts).unwrap()
    );

    let not_play = dir.path().join("not-play.json");
    let mut record: Value =
        serde_json::from_str(&std::fs::read_to_string(&whole).unwrap()).unwrap();
    record["players"] = serde_json::json!(["random", "random"]);
    std::fs::write(&not_play, record.to_string()).unwrap();
    realms()
        .arg("play")
        .arg("--resume")
        .arg(&not_play)
        .assert()
        .failure()
        .stderr(predicate::str::contains("is not a game of `realms play`"));
    realms()
        .args(["play", "--seed", "3", "--resume"])
        .arg(&whole)
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "--seed <SEED> cannot be given with --resume <FILE>",
        ));
}

// ----- formats ---------------------------------------------------------------------------------

#[test]
fn every_format_plays_to_a_finish_from_the_command_line() {
    for (format, players) in [
        ("free_for_all", "heuristic,random,heuristic"),
        ("hunter", "heuristic,random,random,heuristic"),
        ("hunter_first_blood", "random,heuristic,random"),
        ("hydra", "heuristic,random,heuristic,random"),
        (
            "emperor",
            "heuristic,heuristic,heuristic,random,random,random",
        ),
        ("raid", "random,heuristic,heuristic"),
    ] {
        for edition in ["rise_of_empire", "classic"] {
            let v = json_of(realms().args([
                "simulate",
                "-n",
                "12",
                "--format",
                format,
                "--edition",
                edition,
                "--players",
                players,
                "--json",
            ]));
            assert_eq!(v["format"], format);
            assert_eq!(v["edition"], edition);
            assert_eq!(v["games"], 12);
            let wins: u64 = v["wins"]
                .as_array()
                .unwrap()
                .iter()
                .map(|w| w.as_u64().unwrap())
                .sum();
            assert!(
                wins + v["draws"].as_u64().unwrap() >= 12,
                "{format} {edition}: every game ends"
            );
        }
    }
    realms()
        .args([
            "simulate",
            "--format",
            "emperor",
            "--players",
            "random,random",
        ])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "the emperor format takes 6 seats, not 2",
        ));
    realms()
        .args(["simulate", "--format", "chess"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "the value `chess` of --format <FORMAT> is not valid: the known ones are standard,",
        ));
}

#[test]
fn a_human_plays_a_raid_as_a_soldier_beside_bots() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("raid.json");
    let out = stdout_of(
        realms()
            .args([
                "play", "--format", "raid", "--seats", "3", "--seat", "p2", "--vs", "random",
                "--seed", "4", "--save",
            ])
            .arg(&save)
            .write_stdin(first_choices(30_000)),
    );
    assert!(out.contains("p2 (you, Elite Soldier)"));
    assert!(out.contains("p1 (random, Boss)"));
    assert!(out.contains("p3 (random, Elite Soldier)"));
    assert!(out.contains("Game saved to"));
    let record: Value = serde_json::from_str(&std::fs::read_to_string(&save).unwrap()).unwrap();
    assert_eq!(
        record["players"],
        serde_json::json!(["random", "human", "random"])
    );
    assert_eq!(record["config"]["format"], "raid");
    let check = stdout_of(realms().args(["replay", "--check"]).arg(&save));
    assert!(check.contains(": ok,"), "{check}");
    realms()
        .args(["play", "--format", "raid", "--seats", "3", "--seat", "p5"])
        .write_stdin("quit\n")
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "there is no seat p5 at a table of 3",
        ));
}

#[test]
fn play_against_each_level() {
    for level in ["easy", "medium", "ismcts-greedy:20"] {
        let dir = tempfile::tempdir().unwrap();
        let out = stdout_of(
            realms()
                .current_dir(dir.path())
                .args(["play", "--vs", level, "--seed", "8", "--first", "bot"])
                .write_stdin("quit\n"),
        );
        assert!(
            out.contains(&format!("({level}) played:")),
            "{level}: {out}"
        );
    }
    realms()
        .args(["play", "--vs", "grandmaster"])
        .assert()
        .failure()
        .stderr(
            predicate::str::contains("unknown bot `grandmaster`")
                .and(predicate::str::contains("expert")),
        );
}

// ----- Bataille Cosmique -------------------------------------------------------------------------

#[test]
fn four_bots_play_every_cosmique_variant() {
    for variant in ["standard", "incolore", "30pv"] {
        let v = json_of(realms().args([
            "--game",
            "cosmique",
            "simulate",
            "-n",
            "40",
            "--variant",
            variant,
            "--players",
            "heuristic,random,heuristic,random",
            "--json",
        ]));
        assert_eq!(
            v["game"],
            format!("cosmique {}", variant.replace("30pv", "pv30"))
        );
        let wins: u64 = v["wins"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w.as_u64().unwrap())
            .sum();
        assert_eq!(
            wins + v["draws"].as_u64().unwrap(),
            40,
            "{variant}: every game ends"
        );
    }
    realms()
        .args([
            "--game",
            "cosmique",
            "simulate",
            "--players",
            "random,random,random,random,random",
        ])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "Bataille Cosmique takes 4 players, not 5",
        ));
    // Fewer bots take the four planets in turn, as with --seats 4.
    let out = stdout_of(realms().args([
        "--game",
        "cosmique",
        "simulate",
        "--players",
        "heuristic,random",
        "-n",
        "4",
    ]));
    assert!(
        out.contains("heuristic / random / heuristic / random"),
        "{out}"
    );
    realms()
        .args(["--game", "cosmique", "simulate", "--variant", "60pv"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "the value `60pv` of --variant <VARIANT> is not valid: the known ones are standard, \
             incolore, pv30",
        ));
}

#[test]
fn a_record_that_does_not_replay_says_why_in_the_language() {
    let dir = tempfile::tempdir().unwrap();
    let mut record = game::GameRecord::new::<cosmique::State>(&Default::default(), 3);
    record.players = vec![
        "human".into(),
        "random".into(),
        "random".into(),
        "random".into(),
    ];
    record.actions = vec!["attack left red9".into()];
    let file = dir.path().join("bad.json");
    std::fs::write(&file, record.to_json()).unwrap();
    realms()
        .args(["--lang", "fr", "replay", "--check"])
        .arg(&file)
        .assert()
        .failure()
        .stderr(predicate::str::ends_with(
            "ne se rejoue pas : action 1 sur 1 (`attack left red9`) : action illisible `attack left \
             red9` : `red9` n'est pas une carte (une couleur et une valeur attendues, comme red3, ou \
             plus2)\n",
        ));
    // A record of a version this build does not read, or whose game cannot be dealt.
    let mut newer = record.clone();
    newer.version = 9;
    std::fs::write(&file, newer.to_json()).unwrap();
    realms()
        .args(["--lang", "fr", "replay", "--check"])
        .arg(&file)
        .assert()
        .failure()
        .stderr(predicate::str::ends_with(
            "ne se rejoue pas : la version 9 d'enregistrement n'est pas prise en charge (cette \
             version lit la version 1)\n",
        ));
    let mut endless = record.clone();
    endless.config = serde_json::json!({"turn_limit": 0});
    std::fs::write(&file, endless.to_json()).unwrap();
    realms()
        .args(["--lang", "es", "replay", "--check"])
        .arg(&file)
        .assert()
        .failure()
        .stderr(predicate::str::ends_with(
            "configuración no válida: el límite de turnos debe ser al menos 1\n",
        ));
    // A file that is no record at all: the parser says only what and where, in the language.
    std::fs::write(&file, "danse").unwrap();
    realms()
        .args(["--lang", "fr", "replay"])
        .arg(&file)
        .assert()
        .failure()
        .stderr(predicate::str::ends_with(
            "n'est pas un enregistrement de partie : une valeur est attendue ici (ligne 1, colonne 1)\n",
        ));
}

#[test]
fn a_human_plays_bataille_cosmique_to_the_end_and_replays_it() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("cosmique.json");
    let out = stdout_of(
        realms()
            .args([
                "--game", "cosmique", "play", "--seed", "3", "--seat", "p1", "--save",
            ])
            .arg(&save)
            .write_stdin(first_choices(5_000)),
    );
    assert!(out.starts_with("Bataille Cosmique (standard) against heuristic bots · seed 3"));
    assert!(out.contains("p1 (you, red) — life 6"));
    assert!(out.contains("Hand: "));
    assert!(out.contains("Take your orbit card"));
    assert!(out.contains("Game saved to"));
    let check = stdout_of(realms().args(["replay", "--check"]).arg(&save));
    assert!(
        check.contains(": ok,") && check.contains("winner: p"),
        "{check}"
    );
    let fr = stdout_of(
        realms()
            .current_dir(dir.path())
            .args([
                "--lang",
                "fr",
                "--game",
                "cosmique",
                "play",
                "--variant",
                "incolore",
                "--seed",
                "2",
            ])
            .write_stdin("bonjour\n1\nquitter\n"),
    );
    // The bots' level in the player's language.
    assert!(fr.contains("Bataille Cosmique (incolore) contre des bots de niveau heuristique"));
    assert!(fr.contains("Je ne comprends pas `bonjour`"));
    assert!(fr.contains("Prendre votre carte d'orbite"));
}

#[test]
fn serve_refuses_tls_files_it_cannot_use_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let cert = dir.path().join("fullchain.pem");
    std::fs::write(&cert, "not a certificate\n").unwrap();
    let db = dir.path().join("games.sqlite");
    realms()
        .args(["serve", "--addr", "127.0.0.1:0", "--tls-cert"])
        .arg(&cert)
        .arg("--tls-key")
        .arg(dir.path().join("privkey.pem"))
        .arg("--db")
        .arg(&db)
        .assert()
        .failure()
        .stderr(
            predicate::str::contains("fullchain.pem")
                .and(predicate::str::contains("no certificate")),
        );
    // One without the other is a usage error.
    realms()
        .args(["serve", "--tls-cert"])
        .arg(&cert)
        .assert()
        .failure()
        .stderr(predicate::str::contains("--tls-key"));
}

#[test]
fn rise_of_empire_is_listed_played_simulated_and_replayed_with_its_sets() {
    let list = json_of(realms().args(["--sets", "rise_of_empire", "cards", "--json"]));
    assert_eq!(list["sets"], serde_json::json!(["rise_of_empire"]));
    let cards = list["cards"].as_array().unwrap();
    let trade: u64 = cards
        .iter()
        .filter(|c| c["role"] == "trade")
        .map(|c| c["count"].as_u64().unwrap())
        .sum();
    assert_eq!(trade, 60, "the pack's trade deck");
    assert!(
        cards
            .iter()
            .any(|c| c["id"] == "smuggler" && c["role"] == "personal")
    );
    assert!(
        cards
            .iter()
            .all(|c| c["set"] != "base" || c["role"] != "trade")
    );
    let kingdom = cards.iter().find(|c| c["faction"] == "kingdom").unwrap();
    assert_eq!(kingdom["factions"], serde_json::json!(["kingdom"]));
    assert!(kingdom["on_acquire"].is_array());
    let sheets = list["sheets"].as_array().unwrap();
    assert_eq!(sheets.len(), 8);
    assert_eq!(sheets[0]["id"], "s1_empire");
    assert_eq!(sheets[0]["rows"].as_array().unwrap().len(), 5);
    assert!(!sheets[0]["upgrades"].as_array().unwrap().is_empty());
    let text = stdout_of(realms().args(["--sets", "rise_of_empire", "--lang", "fr", "cards"]));
    assert!(
        text.contains("Royaume") && text.contains("À l'acquisition"),
        "{text}"
    );
    assert!(text.contains("Planche d'autocollants"));

    // A game in the terminal, with sheets, saved and replayed; the record names its sets.
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("roe.json");
    let out = stdout_of(
        realms()
            .args([
                "--sets",
                "rise_of_empire",
                "--sheets",
                "p1=s1_empire,p2=s1_federation",
                "--political",
                "play",
                "--vs",
                "random",
                "--seed",
                "3",
                "--save",
            ])
            .arg(&save)
            .write_stdin(first_choices(20_000)),
    );
    assert!(out.contains("Explorers: 20"), "the pack's pile");
    let record: Value = serde_json::from_str(&std::fs::read_to_string(&save).unwrap()).unwrap();
    assert_eq!(
        record["config"]["sets"],
        serde_json::json!(["rise_of_empire"])
    );
    assert_eq!(record["config"]["sheets"][1][0]["sheet"], "s1_federation");
    let check = stdout_of(realms().args(["replay", "--check"]).arg(&save));
    assert!(check.contains(": ok,"), "{check}");
    realms()
        .args(["--sets", "base", "replay", "--check"])
        .arg(&save)
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "was dealt from the card sets rise_of_empire",
        ));

    let sim = json_of(realms().args([
        "--sets",
        "rise_of_empire",
        "simulate",
        "-n",
        "20",
        "--players",
        "heuristic,random",
        "--json",
    ]));
    assert_eq!(sim["games"], 20);

    // Bad sets and sheets are refused in words.
    realms()
        .args(["--sets", "jungle", "cards"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "unknown card set `jungle` (known: base, colony_wars, frontiers, rise_of_empire, rise_of_empire_post)",
        ));
    realms()
        .args([
            "--sets",
            "rise_of_empire",
            "--sheets",
            "p3=s1_empire",
            "simulate",
            "-n",
            "1",
        ])
        .assert()
        .failure()
        .stderr(predicate::str::contains("there is no seat p3"));
    realms()
        .args([
            "--sets",
            "rise_of_empire",
            "--sheets",
            "p1:s1_empire",
            "simulate",
            "-n",
            "1",
        ])
        .assert()
        .failure()
        .stderr(predicate::str::contains("is not SEAT=SHEET"));
    realms()
        .args([
            "--game", "cosmique", "--sets", "base", "simulate", "-n", "1",
        ])
        .assert()
        .failure()
        .stderr(predicate::str::contains("Star Realms options"));
}

#[test]
fn a_campaign_is_started_played_resumed_checked_and_simulated() {
    let dir = tempfile::tempdir().unwrap();
    let small = repo("crates/starrealms/tests/fixtures/campaign_small.toml");
    let save = dir.path().join("c.json");
    let campaign = || {
        let mut cmd = realms();
        cmd.arg("campaign").arg("--campaign").arg(&small);
        cmd
    };
    let out = stdout_of(
        campaign()
            .args([
                "new",
                "--side",
                "trade_federation",
                "--vs",
                "random",
                "--seed",
                "4",
                "--save",
            ])
            .arg(&save),
    );
    assert!(
        out.contains("You play the Trade Federation against the random bot"),
        "{out}"
    );
    assert!(out.contains("p2 (random, Star Empire) opens it"), "{out}");
    campaign()
        .args(["new", "--save"])
        .arg(&save)
        .assert()
        .failure()
        .stderr(predicate::str::contains("exists"));

    // A scenario played to its end through the terminal; the campaign moves on.
    let out = stdout_of(
        campaign()
            .arg("play")
            .arg(&save)
            .write_stdin(first_choices(20_000)),
    );
    assert!(out.contains("Scenario 1 of 2: First"), "{out}");
    assert!(out.contains("1 of 2 scenarios played"), "{out}");
    let status = json_of(campaign().arg("status").arg(&save).arg("--json"));
    assert_eq!(status["scenario"], 2);
    assert_eq!(status["results"].as_array().unwrap().len(), 1);
    assert_eq!(status["sheets"][0][0]["sheet"], "s1_federation");

    // Scenario 2 begun, the input closed midway: the game is kept and goes on later.
    let _ = campaign()
        .arg("play")
        .arg(&save)
        .write_stdin("1\n1\n1\n")
        .output()
        .unwrap();
    let game = dir.path().join("c.game.json");
    assert!(game.exists(), "the game in progress is kept");
    // Its moves tampered with: refused in the player's language, the action named and why.
    let kept = std::fs::read_to_string(&game).unwrap();
    let mut record: Value = serde_json::from_str(&kept).unwrap();
    *record["actions"]
        .as_array_mut()
        .unwrap()
        .last_mut()
        .unwrap() = "buy row 9".into();
    std::fs::write(&game, record.to_string()).unwrap();
    let last = record["actions"].as_array().unwrap().len() - 1;
    let out = campaign()
        .arg("play")
        .arg(&save)
        .args(["--lang", "fr"])
        .write_stdin("")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let error = String::from_utf8(out.stderr).unwrap();
    assert!(
        error.contains(&format!(
            "action {last} (`buy row 9`) : action illisible `buy row 9` : `9` n'est pas "
        )),
        "{error}"
    );
    assert!(!error.contains("cannot read action"), "{error}");
    std::fs::write(&game, kept).unwrap();
    let check = stdout_of(campaign().arg("replay").arg(&save));
    assert!(
        check.contains("ok, 2 games replayed, 1 scenarios finished"),
        "{check}"
    );
    let out = stdout_of(
        campaign()
            .arg("play")
            .arg(&save)
            .write_stdin(first_choices(20_000)),
    );
    assert!(out.contains("The campaign is over"), "{out}");
    assert!(!game.exists());
    let status = json_of(campaign().arg("status").arg(&save).arg("--json"));
    assert_eq!(status["over"], true);

    // A save tampered with is refused in words.
    let mut text: Value = serde_json::from_str(&std::fs::read_to_string(&save).unwrap()).unwrap();
    text["games"][0]["seed"] = serde_json::json!(1);
    std::fs::write(&save, text.to_string()).unwrap();
    campaign()
        .arg("status")
        .arg(&save)
        .assert()
        .failure()
        .stderr(predicate::str::contains("does not belong to this campaign"));

    // Whole campaigns between bots: the same report whatever the threads.
    let sim = |threads: &str| {
        let mut v = json_of(campaign().args([
            "simulate",
            "--campaigns",
            "6",
            "--players",
            "random,medium",
            "--seed",
            "3",
            "--threads",
            threads,
            "--json",
        ]));
        v.as_object_mut().unwrap().remove("seconds");
        v.as_object_mut().unwrap().remove("threads");
        v
    };
    let one = sim("1");
    assert_eq!(one["campaigns"], 6);
    assert_eq!(one["scenarios"], 12);
    assert_eq!(one, sim("2"));
}

#[test]
fn the_deck_a_finished_campaign_left_deals_games_of_any_format() {
    let dir = tempfile::tempdir().unwrap();
    let def = starrealms::campaign::CampaignDef::builtin();
    let c = bots::campaign::play_campaign(def, ["heuristic", "random"], 9).unwrap();
    let save = dir.path().join("done.json");
    std::fs::write(&save, serde_json::to_string(&c.save).unwrap()).unwrap();
    let deck = c.final_trade_deck().unwrap();

    // A game after the campaign: its record holds the campaign's deck, upgrades and
    // post-campaign cards included, and names the sets they come from.
    let record = dir.path().join("after.json");
    let _ = realms()
        .arg("--campaign-deck")
        .arg(&save)
        .args(["play", "--vs", "random", "--seed", "2", "--save"])
        .arg(&record)
        .write_stdin("")
        .output()
        .unwrap();
    let r: Value = serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
    let dealt: Vec<String> = serde_json::from_value(r["config"]["trade_deck"].clone()).unwrap();
    let expected: Vec<String> = deck
        .iter()
        .map(|c| starrealms::cards().def(*c).id().to_string())
        .collect();
    assert_eq!(dealt, expected);
    assert!(
        dealt.iter().any(|c| c.contains("__")),
        "upgraded cards are in the deck"
    );
    let sets: Vec<String> = serde_json::from_value(r["config"]["sets"].clone()).unwrap();
    for name in def.sets.iter().chain(&def.post_campaign) {
        assert!(sets.contains(name), "{name} in {sets:?}");
    }
    // And multiplayer games.
    let out = json_of(
        realms()
            .arg("--campaign-deck")
            .arg(&save)
            .args([
                "simulate",
                "--games",
                "3",
                "--players",
                "random,random,random",
            ])
            .args(["--format", "free_for_all", "--json"]),
    );
    assert_eq!(out["games"], 3, "{out}");

    // A campaign not over yet has no such deck; --sets beside it is refused.
    let mut begun = c.save.clone();
    begun.games.truncate(1);
    begun.choices.truncate(1);
    begun.completion.clear();
    std::fs::write(&save, serde_json::to_string(&begun).unwrap()).unwrap();
    realms()
        .arg("--campaign-deck")
        .arg(&save)
        .args(["simulate", "--games", "1"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("not over"));
    realms()
        .arg("--campaign-deck")
        .arg(&save)
        .args(["--sets", "base", "simulate", "--games", "1"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("leave out --sets"));
}

/// A whole campaign saved by the version whose built-in cards were the base set and the *Rise of
/// Empire* sets only (its fingerprint covered them all): every game still replays, as the
/// campaign's, now that other sets are built in too.
#[test]
fn a_campaign_saved_before_other_sets_were_built_in_still_replays() {
    let save = repo("crates/cli/tests/fixtures/campaign-saved-before-colony-wars.json");
    let text = std::fs::read_to_string(&save).unwrap();
    assert!(
        text.contains("\"cards\":\"a6219dbf439b6428\""),
        "the earlier fingerprint"
    );
    realms()
        .args(["campaign", "replay"])
        .arg(&save)
        .assert()
        .success()
        .stdout(predicates::str::contains("The campaign is over"));
}

#[test]
fn a_campaign_resumed_with_other_cards_is_refused_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("c.json");
    let def = starrealms::campaign::CampaignDef::builtin();
    let c = bots::campaign::play_campaign(def, ["random", "random"], 3).unwrap();
    std::fs::write(&save, serde_json::to_string(&c.save).unwrap()).unwrap();
    assert!(
        c.save.cards.is_some(),
        "a save names the cards it is played with"
    );
    realms()
        .args(["campaign", "replay"])
        .arg(&save)
        .assert()
        .success();

    // The same pack with one number changed: another game.
    let pack =
        std::fs::read_to_string(repo("crates/starrealms/cards/rise_of_empire.toml")).unwrap();
    let changed = pack.replacen("primary = [{ trade = 2 }]", "primary = [{ trade = 3 }]", 1);
    assert_ne!(changed, pack);
    let other = dir.path().join("other.toml");
    std::fs::write(&other, changed).unwrap();
    let before = std::fs::read_to_string(&save).unwrap();
    realms()
        .arg("--cards")
        .arg(&other)
        .args(["campaign", "status"])
        .arg(&save)
        .assert()
        .failure()
        .stderr(predicate::str::contains("played with other cards"));
    // Names and texts are not rules: a translated copy resumes it.
    let renamed = pack.replacen("Courier Skiff", "Skiff of Couriers", 1);
    std::fs::write(&other, renamed).unwrap();
    realms()
        .arg("--cards")
        .arg(&other)
        .args(["campaign", "status"])
        .arg(&save)
        .assert()
        .success();
    // A card file without the pack: the campaign cannot be read, said in words.
    realms()
        .arg("--cards")
        .arg(repo("crates/starrealms/cards/base.toml"))
        .args(["campaign", "status"])
        .arg(&save)
        .assert()
        .failure()
        .stderr(predicate::str::contains("needs the cards it names"));
    assert_eq!(
        std::fs::read_to_string(&save).unwrap(),
        before,
        "nothing written"
    );
}

#[test]
fn scenarios_check_their_expectations_one_by_one_or_a_folder_at_once() {
    // The project's own scenarios all hold.
    let out = stdout_of(
        realms()
            .args(["--lang", "en", "scenario", "--check"])
            .arg(repo("scenarios")),
    );
    assert!(out.contains("10 of 10 scenarios hold."), "{out}");

    // One expectation wrong: reported in words, and a failure.
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(repo("scenarios/lethal-through-outpost.json")).unwrap();
    let wrong = text.replace(r#""winners": ["p1"]"#, r#""winners": ["p2"]"#);
    assert_ne!(wrong, text);
    std::fs::write(dir.path().join("a.json"), &wrong).unwrap();
    std::fs::write(dir.path().join("b.json"), &text).unwrap();
    std::fs::write(dir.path().join("c.json"), "{ not json").unwrap();
    let output = realms()
        .args(["--lang", "en", "scenario"])
        .arg(dir.path().join("a.json"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let out = String::from_utf8(output.stdout).unwrap();
    assert!(
        out.contains("1 expectations of the file do not hold:"),
        "{out}"
    );
    assert!(
        out.contains(r#"`winners`: expected ["p2"], found ["p1"]"#),
        "{out}"
    );
    let json = realms()
        .args(["scenario", "--json"])
        .arg(dir.path().join("a.json"))
        .output()
        .unwrap();
    assert_eq!(json.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["mismatches"][0]["field"], "winners");

    let output = realms()
        .args(["--lang", "fr", "scenario", "--check"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let out = String::from_utf8(output.stdout).unwrap();
    assert!(
        out.contains("a.json : 1 attentes ne sont pas remplies"),
        "{out}"
    );
    assert!(out.contains("`winners` : attendu"), "{out}");
    assert!(out.contains("b.json : ok"), "{out}");
    assert!(
        out.contains("c.json : ligne 1, colonne 3 : une clé doit être un texte entre guillemets"),
        "{out}"
    );
    assert!(out.contains("1 scénarios sur 3 tiennent."), "{out}");
}

#[test]
fn an_action_refused_in_play_says_why_in_the_players_language() {
    let dir = tempfile::tempdir().unwrap();
    let out = stdout_of(
        realms()
            .current_dir(dir.path())
            .args([
                "--lang", "fr", "play", "--vs", "random", "--seed", "1", "--first", "me",
            ])
            .write_stdin("play cutter\nattack p2 9\nq\n"),
    );
    assert!(
        out.contains("`play cutter` n'est pas possible maintenant : pas de Vedette en main."),
        "{out}"
    );
    assert!(out.contains("9 de Combat demandés contre p2"), "{out}");
    let out = stdout_of(
        realms()
            .current_dir(dir.path())
            .args([
                "--lang", "en", "play", "--vs", "random", "--seed", "1", "--first", "me",
            ])
            .write_stdin("play cutter\nq\n"),
    );
    assert!(
        out.contains("`play cutter` is not legal now: no Cutter in hand."),
        "{out}"
    );
}

#[test]
fn a_card_file_whose_text_contradicts_its_effects_is_named_and_shown_from_its_effects() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mine.toml");
    std::fs::write(
        &file,
        r#"extends = "base"
set = "mine"

[[card]]
id = "gold_barge"
name = { en = "Gold Barge", fr = "Barge d'Or" }
faction = "trade_federation"
cost = 3
kind = "ship"
count = 2
text = "Primary: Add 5 Trade."
primary = [{ trade = 1 }]
"#,
    )
    .unwrap();
    let output = realms()
        .args(["--lang", "en", "--cards"])
        .arg(&file)
        .args(["--sets", "mine", "cards"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let err = String::from_utf8(output.stderr).unwrap();
    assert!(
        err.contains("`gold_barge` (Primary): the text says 5 Trade, the effects give 1 Trade"),
        "{err}"
    );
    let out = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    let at = lines.iter().position(|l| l.contains("Gold Barge")).unwrap();
    let text = lines[at + 1];
    assert!(
        text.contains("1 Trade") && !text.contains("5 Trade"),
        "{text}"
    );
}

#[test]
fn the_terminal_shows_cards_plays_the_whole_hand_and_names_levels_in_the_language() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("g.json");
    let out = stdout_of(
        realms()
            .args([
                "--lang", "fr", "play", "--vs", "medium", "--seed", "1", "--first", "me",
            ])
            .arg("--save")
            .arg(&save)
            .write_stdin("carte Vedette\nrow 0\nrow 9\ncard nothing\ntout jouer\nq\n"),
    );
    assert!(out.contains("contre le bot moyen"), "{out}");
    assert!(out.contains("p1 (moyen)"), "{out}");
    assert!(
        out.contains(
            "Vedette (2)\n  vaisseau Fédération du Commerce, coût 2\n  Primaire : +4 Influence. \
             +2 Commerce."
        ),
        "{out}"
    );
    assert!(
        out.contains("Vaisseau Amiral (6)"),
        "row 0 shows its card: {out}"
    );
    assert!(
        out.contains("L'emplacement `9` de la Ligne d'Achat ne contient aucune carte"),
        "{out}"
    );
    assert!(out.contains("Il n'y a pas de carte `nothing`"), "{out}");
    // The whole hand is played, and saved.
    let record: Value = serde_json::from_str(&std::fs::read_to_string(&save).unwrap()).unwrap();
    assert_eq!(
        record["actions"],
        serde_json::json!(["play scout", "play scout", "play viper"])
    );
}

#[test]
fn bataille_cosmique_scenarios_are_read_as_such_and_say_which_game_they_read() {
    let out = stdout_of(
        realms()
            .args(["--lang", "en", "--game", "cosmique", "scenario", "--check"])
            .arg(repo("scenarios-cosmique")),
    );
    assert!(out.contains("5 of 5 scenarios hold."), "{out}");
    let out = stdout_of(
        realms()
            .args(["--lang", "en", "--game", "cosmique", "scenario"])
            .arg(repo("scenarios-cosmique/planet-destroyed.json")),
    );
    assert!(out.contains("— what p3 sees —"), "{out}");
    assert!(
        out.contains("Every expectation of the file holds."),
        "{out}"
    );
    let json = json_of(
        realms()
            .args(["--game", "cosmique", "scenario", "--json"])
            .arg(repo("scenarios-cosmique/dealt-game.json")),
    );
    assert_eq!(json["mismatches"], serde_json::json!([]));
    assert_eq!(json["observations"].as_array().unwrap().len(), 4);
    // A file of the other game: the error, and which format was read.
    realms()
        .args(["--lang", "en", "--game", "cosmique", "scenario"])
        .arg(repo("scenarios/pending-discard.json"))
        .assert()
        .failure()
        .stderr(predicate::str::contains("unknown field `players`"))
        .stderr(predicate::str::contains("leave out --game cosmique"));
    realms()
        .args(["--lang", "en", "scenario"])
        .arg(repo("scenarios-cosmique/planet-destroyed.json"))
        .assert()
        .failure()
        .stderr(predicate::str::contains("add --game cosmique"));
}

// ----- several card sets -------------------------------------------------------------------------

/// The base set, and a copy whose Vipers deal 3 combat instead of 1.
fn base_and_strong_vipers(dir: &std::path::Path) -> (PathBuf, PathBuf) {
    let base = std::fs::read_to_string(repo("crates/starrealms/cards/base.toml")).unwrap();
    let viper = base
        .find("id = \"viper\"")
        .expect("the base set has a Viper");
    let at = viper + base[viper..].find("primary = [{ combat = 1 }]").unwrap();
    let strong = format!(
        "{}primary = [{{ combat = 3 }}]{}",
        &base[..at],
        &base[at + "primary = [{ combat = 1 }]".len()..]
    )
    .replacen("Add 1 Combat", "Add 3 Combat", 1);
    let (a, b) = (dir.join("base.toml"), dir.join("strong.toml"));
    std::fs::write(&a, base).unwrap();
    std::fs::write(&b, strong).unwrap();
    (a, b)
}

#[test]
fn simulate_compares_card_sets_in_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let (base, strong) = base_and_strong_vipers(dir.path());
    let both = json_of(
        realms()
            .arg("--cards")
            .arg(&base)
            .arg("--cards")
            .arg(&strong)
            .args([
                "simulate",
                "-n",
                "200",
                "--players",
                "heuristic,heuristic",
                "--json",
            ]),
    );
    let sets = both["card_sets"].as_array().unwrap();
    assert_eq!(sets.len(), 2);
    assert_ne!(sets[0]["fingerprint"], sets[1]["fingerprint"]);
    // Each set's report is the one a run with that set alone gives.
    for (i, file) in [&base, &strong].iter().enumerate() {
        let alone = json_of(realms().arg("--cards").arg(file).args([
            "simulate",
            "-n",
            "200",
            "--players",
            "heuristic,heuristic",
            "--json",
        ]));
        for key in [
            "wins",
            "draws",
            "first_player_wins",
            "mean_turns",
            "max_turns",
        ] {
            assert_eq!(sets[i]["report"][key], alone[key], "{key}");
        }
    }
    // Vipers of 3 combat end games sooner.
    let turns = |i: usize| sets[i]["report"]["mean_turns"].as_f64().unwrap();
    assert!(turns(1) < turns(0) - 1.0, "{} vs {}", turns(1), turns(0));
    let text = stdout_of(
        realms()
            .arg("--cards")
            .arg(&base)
            .arg("--cards")
            .arg(&strong)
            .args(["simulate", "-n", "50"]),
    );
    assert!(text.contains("The card sets side by side"), "{text}");
    assert!(text.contains("strong.toml: p1 wins"), "{text}");
    // Other commands play one set.
    realms()
        .arg("--cards")
        .arg(&base)
        .arg("--cards")
        .arg(&strong)
        .arg("cards")
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "only simulate and arena compare card sets",
        ));
}

#[test]
fn arena_compares_card_sets_in_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let (base, strong) = base_and_strong_vipers(dir.path());
    let out = dir.path().join("arena");
    let both = json_of(
        realms()
            .arg("--cards")
            .arg(&base)
            .arg("--cards")
            .arg(&strong)
            .args([
                "arena",
                "--bots",
                "heuristic,random",
                "--games",
                "20",
                "--json",
                "--out",
            ])
            .arg(&out),
    );
    let sets = both["card_sets"].as_array().unwrap();
    assert_eq!(sets.len(), 2);
    assert_eq!(sets[1]["cards"], strong.display().to_string());
    assert_eq!(sets[0]["summary"]["games"], 20);
    for stem in ["base", "strong"] {
        assert!(out.join(stem).join("summary.json").is_file(), "{stem}");
    }
    let alone = json_of(
        realms()
            .arg("--cards")
            .arg(&strong)
            .args([
                "arena",
                "--bots",
                "heuristic,random",
                "--games",
                "20",
                "--json",
                "--out",
            ])
            .arg(dir.path().join("alone")),
    );
    assert_eq!(sets[1]["summary"]["matrix"], alone["matrix"]);
    assert_eq!(sets[1]["summary"]["mean_turns"], alone["mean_turns"]);
}

#[test]
fn a_record_names_its_card_file_and_replays_without_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let (_, strong) = base_and_strong_vipers(dir.path());
    let save = dir.path().join("game.json");
    stdout_of(
        realms()
            .arg("--cards")
            .arg(&strong)
            .args(["play", "--vs", "random", "--seed", "4", "--save"])
            .arg(&save)
            .write_stdin(first_choices(20_000)),
    );
    let record: Value = serde_json::from_str(&std::fs::read_to_string(&save).unwrap()).unwrap();
    assert_eq!(record["cards"]["file"], strong.display().to_string());
    assert!(record["cards"]["fingerprint"].as_str().unwrap().len() >= 16);
    let check = || {
        let mut cmd = realms();
        cmd.args(["replay", "--check"]).arg(&save);
        cmd
    };
    assert!(stdout_of(&mut check()).contains(": ok"));
    // Moved elsewhere with the record, the file is found beside it.
    let moved = tempfile::tempdir().unwrap();
    std::fs::copy(&strong, moved.path().join("strong.toml")).unwrap();
    std::fs::copy(&save, moved.path().join("game.json")).unwrap();
    std::fs::remove_file(&strong).unwrap();
    realms()
        .args(["replay", "--check"])
        .arg(moved.path().join("game.json"))
        .assert()
        .success();
    // Gone: said in words, with the way out.
    check().assert().failure().stderr(
        predicate::str::contains("which is not there").and(predicate::str::contains("--cards")),
    );
    // Changed rules: refused, naming both fingerprints.
    let text = std::fs::read_to_string(moved.path().join("strong.toml")).unwrap();
    std::fs::write(&strong, text.replacen("combat = 3", "combat = 4", 1)).unwrap();
    check()
        .assert()
        .failure()
        .stderr(predicate::str::contains("plays").and(predicate::str::contains("differently")));
    // A record of the built-in cards names none.
    let plain = dir.path().join("plain.json");
    stdout_of(
        realms()
            .args(["play", "--vs", "random", "--seed", "4", "--save"])
            .arg(&plain)
            .write_stdin(first_choices(20_000)),
    );
    let record: Value = serde_json::from_str(&std::fs::read_to_string(&plain).unwrap()).unwrap();
    assert!(record.get("cards").is_none());
}

#[test]
fn simulate_fills_the_seats_and_checks_that_cards_are_conserved() {
    let sim = json_of(realms().args([
        "simulate",
        "--sets",
        "base,colony_wars,frontiers",
        "--format",
        "free_for_all",
        "--seats",
        "4",
        "--games",
        "24",
        "--json",
    ]));
    assert_eq!(sim["games"], 24);
    assert_eq!(
        sim["players"],
        serde_json::json!(["heuristic", "random", "heuristic", "random"]),
        "the bots of --players take the seats in turn"
    );
    assert_eq!(sim["cards_conserved"], 24, "every game keeps its cards");
    let text = realms()
        .args([
            "simulate",
            "--sets",
            "frontiers",
            "--seats",
            "3",
            "--games",
            "8",
        ])
        .assert()
        .success();
    let out = String::from_utf8_lossy(&text.get_output().stdout).to_string();
    assert!(
        out.contains("Cards conserved: every game ended with the cards it started with (8 of 8)"),
        "{out}"
    );
    realms()
        .args([
            "simulate",
            "--players",
            "heuristic,random,random",
            "--seats",
            "2",
        ])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "--seats 2 is fewer than the 3 bots --players names",
        ));
}
