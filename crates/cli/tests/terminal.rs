//! The terminal game as a player meets it: cards shown on request, the whole hand played at
//! once, labels that stay put, colours only on a terminal, lines wrapped between words, and the
//! bots' levels in the player's language.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

/// The binary with a neutral locale and no colour settings from the environment.
fn realms() -> Command {
    let mut cmd = Command::cargo_bin("realms").expect("the realms binary is built");
    cmd.env("LANG", "C")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR")
        .env_remove("CLICOLOR_FORCE");
    cmd
}

fn stdout_of(cmd: &mut Command) -> String {
    let out = cmd.assert().success().get_output().stdout.clone();
    String::from_utf8(out).expect("utf-8 output")
}

fn actions_of(save: &Path) -> Value {
    let record: Value = serde_json::from_str(&std::fs::read_to_string(save).unwrap()).unwrap();
    record["actions"].clone()
}

/// `realms play` against a random bot with a seed, the human first, saved in `dir`.
fn play(dir: &Path, seed: &str, first: &str) -> (Command, PathBuf) {
    let save = dir.join("g.json");
    let mut cmd = realms();
    cmd.args([
        "play", "--vs", "random", "--seed", seed, "--first", first, "--save",
    ])
    .arg(&save);
    (cmd, save)
}

/// Input that always picks the first listed action, so the game moves on to its end.
fn first_choices(n: usize) -> String {
    "1\n".repeat(n)
}

/// The output without its prompts (the input is not echoed, so what follows a prompt is on its
/// line).
fn without_prompts(out: &str) -> String {
    out.replace("Your choice> ", "")
        .replace("Votre choix> ", "")
}

/// The text without its ANSI escape sequences.
fn strip_escapes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            // CSI: `ESC [`, parameters, then a final byte from `@` to `~`.
            for d in chars.by_ref() {
                if ('@'..='~').contains(&d) && d != '[' {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

// ----- cards and the trade row -------------------------------------------------------------------

#[test]
fn card_and_row_show_full_texts_by_any_name_and_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (mut cmd, save) = play(dir.path(), "4", "me");
    let out = stdout_of(cmd.write_stdin(
        "help\ncard cut\ncard VEDETTE\ncard blob\ncard death star\nrow 1\nrow 7\nrow x\nquit\n",
    ));
    // `help` lists the commands.
    for command in ["play all", "card NAME", "row N"] {
        assert!(out.contains(&format!("  {command} ")), "{command}: {out}");
    }
    // A prefix of the English name, the French name in capitals: the same card, all of it.
    let cutter = "  Cutter (2)\n  Trade Federation ship, cost 2\n  Primary: Add 4 Authority. \
                  Add 2 Trade. Ally (Trade Federation): Add 4 Combat.\n";
    assert_eq!(out.matches(cutter).count(), 2, "{out}");
    // A prefix several cards share names them.
    assert!(
        out.contains("`blob` could be several cards: Blob Fighter, Blob Destroyer"),
        "{out}"
    );
    assert!(
        out.contains("There is no card `death star` (its name in any language, or its id)."),
        "{out}"
    );
    // Slot 1 of seed 4's trade row, with its defense for a base.
    assert!(
        out.contains(
            "  Supply Bot (3)\n  Machine Cult ship, cost 3\n  Primary: Add 2 Trade. You may \
             scrap a card from your hand or discard pile.\n  Ally (Machine Cult): Add 2 Combat."
        ),
        "{out}"
    );
    assert!(out.contains("Trade-row slot `7` holds no card (slots 0 to 4)."));
    assert!(out.contains("Trade-row slot `x` holds no card"));
    assert_eq!(
        actions_of(&save),
        serde_json::json!([]),
        "nothing was played"
    );
}

#[test]
fn a_base_shows_its_defense_and_french_names_are_found_by_their_first_letters() {
    let dir = tempfile::tempdir().unwrap();
    let (mut cmd, _) = play(dir.path(), "4", "me");
    let out = stdout_of(
        cmd.args(["--lang", "fr"])
            .write_stdin("carte poste de n\ncarte poste de\ncarte TRADING POST\nq\n"),
    );
    let sheet = "  Poste de Négoce (3)\n  avant-poste 4 Fédération du Commerce, coût 3\n  \
                 Primaire : +1 Influence OU +1 Commerce. Retirer : +3 Combat.\n";
    assert_eq!(out.matches(sheet).count(), 2, "{out}");
    assert!(
        out.contains(
            "`poste de` peut désigner plusieurs cartes : Poste de Négoce, Poste de Combat."
        ),
        "{out}"
    );
}

// ----- play all ----------------------------------------------------------------------------------

#[test]
fn play_all_plays_every_playable_card_says_which_and_saves_them() {
    let dir = tempfile::tempdir().unwrap();
    // Seed 6, the bot first: five cards, Scout ×3 and Viper ×2.
    let (mut cmd, save) = play(dir.path(), "6", "bot");
    let out = stdout_of(cmd.write_stdin("play all\nplay all\nquit\n"));
    assert_eq!(out.matches("  ✓ Play Scout\n").count(), 3, "{out}");
    assert_eq!(out.matches("  ✓ Play Viper\n").count(), 2, "{out}");
    assert!(
        out.contains("Authority 50 · Trade 3 · Combat 2 · Hand: none"),
        "{out}"
    );
    assert!(out.contains("No card of your hand can be played now."));
    // The bot's first turn, then the five cards.
    let actions = actions_of(&save);
    let actions = actions.as_array().unwrap();
    let mine: Vec<&str> = actions[actions.len() - 5..]
        .iter()
        .filter_map(|a| a.as_str())
        .collect();
    assert_eq!(
        mine,
        [
            "play scout",
            "play scout",
            "play scout",
            "play viper",
            "play viper"
        ]
    );
}

#[test]
fn play_all_stops_at_a_decision_which_is_numbered_within_itself() {
    let dir = tempfile::tempdir().unwrap();
    // A card set whose Scouts also offer to scrap a card: the first one played asks.
    let base = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../starrealms/cards/base.toml"),
    )
    .unwrap();
    let scrapping = base.replacen(
        "text = \"Primary: Add 1 Trade.\"\nprimary = [{ trade = 1 }]",
        "text = \"Primary: Add 1 Trade. You may scrap a card in your hand or discard pile.\"\n\
         primary = [{ trade = 1 }, { scrap = { from = \"hand_or_discard\", count = 1, optional = true } }]",
        1,
    );
    assert_ne!(scrapping, base, "the Scout is rewritten");
    let cards = dir.path().join("scrapping.toml");
    std::fs::write(&cards, scrapping).unwrap();
    let (mut cmd, save) = play(dir.path(), "4", "me");
    let out = stdout_of(cmd.arg("--cards").arg(&cards).write_stdin("play all\nq\n"));
    assert_eq!(out.matches("  ✓ Play Scout\n").count(), 1, "{out}");
    let after = out.split("  ✓ Play Scout\n").nth(1).unwrap();
    assert!(after.contains("» You may scrap"), "{after}");
    // The decision's options are numbered from 1, the last one declining.
    assert!(after.contains("  1  Scrap Scout from your hand"), "{after}");
    assert!(after.contains("Pass"), "{after}");
    assert_eq!(actions_of(&save), serde_json::json!(["play scout"]));
}

// ----- labels ------------------------------------------------------------------------------------

#[test]
fn labels_stay_with_their_cards_while_others_are_taken() {
    let dir = tempfile::tempdir().unwrap();
    // Seed 2, the bot first: Scout ×4 and a Viper; the row holds Barter World (4), Blob
    // Fighter (1), Trade Pod (2), Patrol Mech (4), Supply Bot (3).
    let (mut cmd, save) = play(dir.path(), "2", "bot");
    let out = stdout_of(cmd.write_stdin("h1\nh1\nh1\nh1\nr1\nh1\nplay viper\nr2\nq\n"));
    assert!(
        out.contains("  h1  Play Scout\n  h2  Play Viper\n"),
        "{out}"
    );
    // After the four Scouts and the Blob Fighter: the Viper is still h2, the Trade Pod still
    // r2, the Supply Bot still r4.
    let later = out.split("✓ Buy Blob Fighter (1)").nth(1).unwrap();
    let menu: Vec<&str> = later
        .lines()
        .take_while(|l| !l.contains("Your choice>"))
        .collect();
    assert!(menu.contains(&"  h2  Play Viper"), "{later}");
    assert!(menu.contains(&"  r2  Buy Trade Pod (2)"), "{later}");
    assert!(menu.contains(&"  r4  Buy Supply Bot (3)"), "{later}");
    assert!(menu.contains(&"  e   End turn"), "{later}");
    assert!(menu.iter().all(|l| !l.starts_with("  h1 ")), "{later}");
    // The Scouts are gone: their label is no more; the action's text still works.
    assert!(out.contains("No action is labelled `h1` now"), "{out}");
    assert!(out.contains("✓ Play Viper"));
    assert!(out.contains("✓ Buy Trade Pod (2)"));
    // The bot's first turn, then the human's actions.
    let actions = actions_of(&save);
    let actions = actions.as_array().unwrap();
    let mine: Vec<&str> = actions[actions.len() - 7..]
        .iter()
        .filter_map(|a| a.as_str())
        .collect();
    assert_eq!(
        mine,
        [
            "play scout",
            "play scout",
            "play scout",
            "play scout",
            "buy row 1",
            "play viper",
            "buy row 2"
        ]
    );
}

// ----- colours -----------------------------------------------------------------------------------

#[test]
fn colours_only_when_asked_or_on_a_terminal_and_never_with_no_color() {
    let dir = tempfile::tempdir().unwrap();
    let input = "h1\nplay all\ncard cutter\nhello\nq\n";
    let run = |extra: &[&str], env: &[(&str, &str)]| {
        let (mut cmd, _) = play(dir.path(), "4", "me");
        cmd.args(extra);
        for (k, v) in env {
            cmd.env(k, v);
        }
        stdout_of(cmd.write_stdin(input))
    };
    // Piped, as here: no colour.
    let plain = run(&[], &[]);
    assert!(!plain.contains('\x1b'), "{plain}");
    // `--color always`: the faction's colour on a card name, authority, trade and combat, the
    // refusal in red; the words are the same.
    let coloured = run(&["--color", "always"], &[]);
    assert!(coloured.contains('\x1b'), "{coloured}");
    assert!(
        coloured.contains("\x1b[94mCutter\x1b[0m"),
        "Trade Federation blue: {coloured}"
    );
    assert!(coloured.contains("\x1b[31mI don't understand `hello`"));
    assert_eq!(strip_escapes(&coloured), plain);
    // `CLICOLOR_FORCE` asks for colours into a pipe; `NO_COLOR` refuses them, as does
    // `--color never`.
    assert!(run(&[], &[("CLICOLOR_FORCE", "1")]).contains('\x1b'));
    let refused = run(&[], &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]);
    assert!(!refused.contains('\x1b'), "{refused}");
    assert_eq!(refused, plain);
    let never = run(&["--color", "never"], &[("CLICOLOR_FORCE", "1")]);
    assert!(!never.contains('\x1b'), "{never}");
    // An empty NO_COLOR does not count.
    assert!(run(&[], &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "")]).contains('\x1b'));
}

#[test]
fn bataille_cosmique_is_coloured_wrapped_and_names_levels_too() {
    let dir = tempfile::tempdir().unwrap();
    let run = |extra: &[&str]| {
        let mut cmd = realms();
        cmd.args(["--lang", "fr", "--game", "cosmique", "play", "--seed", "3"])
            .args(["--vs", "medium", "--first", "me", "--save"])
            .arg(dir.path().join("c.json"))
            .args(extra);
        stdout_of(cmd.write_stdin(first_choices(400)))
    };
    let plain = run(&[]);
    assert!(!plain.contains('\x1b'));
    assert!(plain.contains("contre des bots de niveau moyen"), "{plain}");
    assert!(plain.contains("p2 (moyen, bleu)"), "{plain}");
    for line in without_prompts(&plain).lines() {
        assert!(line.chars().count() <= 80, "too long: {line}");
    }
    let coloured = run(&["--color", "always"]);
    // p2's colour painted in itself.
    assert!(
        coloured.contains("p2 (moyen, \x1b[94mbleu\x1b[0m)"),
        "{coloured}"
    );
    assert_eq!(strip_escapes(&coloured), plain);
}

// ----- wrapping ----------------------------------------------------------------------------------

#[test]
fn lines_are_wrapped_between_words_to_80_columns_when_not_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let (mut cmd, _) = play(dir.path(), "5", "me");
    let input = format!("help\ncard battlecruiser\n{}", first_choices(20_000));
    let out = without_prompts(&stdout_of(cmd.write_stdin(input)));
    assert!(out.contains("You win!") || out.contains("p1 (random) wins."));
    let mut longest = 0;
    for line in out.lines() {
        longest = longest.max(line.chars().count());
        assert!(line.chars().count() <= 80, "too long: {line}");
    }
    assert!(longest > 70, "long lines are filled, not cut short");
    // A card text wrapped: its lines, joined again, are the text, every word whole.
    let lines: Vec<&str> = out.lines().collect();
    let at = lines
        .iter()
        .position(|l| *l == "  Battlecruiser (6)")
        .expect("the Battlecruiser is shown");
    assert_eq!(lines[at + 1], "  Star Empire ship, cost 6");
    let text: Vec<&str> = lines[at + 2..at + 4].iter().map(|l| l.trim()).collect();
    assert_eq!(
        text.join(" "),
        "Primary: Add 5 Combat. Draw a card. Ally (Star Empire): Target opponent discards a \
         card. Scrap: Draw a card. You may destroy target base."
    );
    assert!(lines[at + 4].starts_with("  h1 "), "two lines of text");
}

// ----- level names -------------------------------------------------------------------------------

#[test]
fn the_bots_level_is_named_in_the_players_language() {
    let dir = tempfile::tempdir().unwrap();
    for (vs, en, fr) in [
        ("easy", "easy", "facile"),
        ("medium", "medium", "moyen"),
        ("heuristic", "heuristic", "heuristique"),
        ("ismcts:5", "ismcts:5", "ismcts:5"),
    ] {
        for (lang, word, against) in [("en", en, "against the"), ("fr", fr, "contre le bot")] {
            let out = stdout_of(
                realms()
                    .current_dir(dir.path())
                    .args(["--lang", lang, "play", "--vs", vs, "--seed", "3"])
                    .args(["--first", "bot"])
                    .write_stdin("q\n"),
            );
            assert!(out.contains(&format!("{against} {word}")), "{vs}: {out}");
            assert!(out.contains(&format!("p1 ({word})")), "{vs}: {out}");
        }
    }
}
