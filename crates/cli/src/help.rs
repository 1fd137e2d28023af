//! The command line in the user's language: every text clap shows (what a command does, each
//! option's help, the help screen's headings, defaults and possible values, the errors) comes
//! from the translation table. A command's text is `cli.<command>.about` (`cli.about` for
//! `realms` itself, `cli.campaign.new.about` for `realms campaign new`), an option's
//! `cli.<command>.arg.<option>`, and, for an option whose values each say what they do (all
//! of them or none), a value's `cli.<command>.arg.<option>.<value>`. What an option takes is
//! named by `cli.value.<name>` (`<FILE>`: `cli.value.file`).

use std::error::Error as _;
use std::ffi::OsString;
use std::process::ExitCode;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Arg, ArgAction, Command};
use i18n::{Lang, t, tf};

/// The key of the root command.
const ROOT: &str = "cli";

/// The language asked for on the command line (`--lang fr`, `--lang=fr`), before clap reads
/// it: the help and the errors of that very command line are in it. A value that is not a
/// language is left to clap, which refuses it in the language of the locale.
pub fn lang_in_args(args: &[OsString]) -> Option<Lang> {
    let mut iter = args.iter().skip(1).map(|a| a.to_string_lossy());
    while let Some(arg) = iter.next() {
        if arg == "--" {
            break;
        }
        let value = match arg.strip_prefix("--lang") {
            Some("") => iter.next().map(|v| v.into_owned()),
            Some(rest) => rest.strip_prefix('=').map(str::to_string),
            None => None,
        };
        if let Some(lang) = value.and_then(|v| v.parse().ok()) {
            return Some(lang);
        }
    }
    None
}

/// `command` with every text in `lang`.
pub fn localize(command: Command, lang: Lang) -> Command {
    let mut command = describe_command(command, lang, ROOT)
        .disable_version_flag(true)
        .arg(
            Arg::new("version")
                .short('V')
                .long("version")
                .action(ArgAction::Version)
                .help(t(lang, "cli.version"))
                .global(true),
        );
    // The `help` command, and each command's usage, exist once the command is built.
    command.build();
    localize_built(command, lang)
}

/// The texts of `command` (whose key is `key`), its options and its subcommands, in `lang`.
fn describe_command(mut command: Command, lang: Lang, key: &str) -> Command {
    let ids: Vec<String> = command
        .get_arguments()
        .map(|a| a.get_id().to_string())
        .collect();
    for id in ids {
        let arg_key = format!("{key}.arg.{id}");
        command = command.mut_arg(&id, |arg| describe_arg(arg, lang, &arg_key));
    }
    let names: Vec<String> = command
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    for name in names {
        let sub_key = format!("{key}.{name}");
        command = command.mut_subcommand(&name, |sub| describe_command(sub, lang, &sub_key));
    }
    let template = template(&command, lang);
    if command.has_subcommands() {
        command = command.subcommand_value_name(t(lang, "cli.value.command"));
    }
    command
        .about(t(lang, &format!("{key}.about")))
        .long_about(None)
        .help_template(template)
        .disable_help_flag(true)
        .arg(
            Arg::new("help")
                .short('h')
                .long("help")
                .action(ArgAction::Help)
                .help(t(lang, "cli.help")),
        )
}

/// The help screen of `command`: its headings in `lang`, a section only where it has
/// something to show.
fn template(command: &Command, lang: Lang) -> String {
    let mut out = format!(
        "{{about-with-newline}}\n{} {{usage}}\n",
        t(lang, "cli.usage")
    );
    if command.has_subcommands() {
        out += &format!("\n{}\n{{subcommands}}\n", t(lang, "cli.commands"));
    }
    if command.get_positionals().next().is_some() {
        out += &format!("\n{}\n{{positionals}}\n", t(lang, "cli.arguments"));
    }
    out += &format!("\n{}\n{{options}}{{after-help}}", t(lang, "cli.options"));
    out
}

/// `arg`'s help in `lang` (key `key`), with its default and its possible values written
/// there rather than by clap, in English.
fn describe_arg(arg: Arg, lang: Lang, key: &str) -> Arg {
    let mut short = t(lang, key).to_string();
    let mut long = short.clone();
    let takes_values = arg.get_action().takes_values();
    let values = if takes_values && !arg.is_hide_possible_values_set() {
        arg.get_possible_values()
            .into_iter()
            .filter(|v| !v.is_hide_set())
            .collect()
    } else {
        Vec::new()
    };
    if !values.is_empty() {
        let names: Vec<&str> = values.iter().map(|v| v.get_name()).collect();
        let list = tf(lang, "cli.possible", &[("values", &names.join(", "))]);
        short += &format!(" [{list}]");
        if names.iter().any(|name| i18n::has(&format!("{key}.{name}"))) {
            let width = names.iter().map(|n| n.len()).max().unwrap_or(0);
            long += &format!("\n\n{}", t(lang, "cli.possible_heading"));
            for name in names {
                let help = t(lang, &format!("{key}.{name}"));
                long += &format!("\n- {name}:{:pad$} {help}", "", pad = width - name.len());
            }
        } else {
            long += &format!("\n\n[{list}]");
        }
    }
    let defaults: Vec<String> = arg
        .get_default_values()
        .iter()
        .map(|v| v.to_string_lossy().into_owned())
        .collect();
    if takes_values && !defaults.is_empty() && !arg.is_hide_default_value_set() {
        let value = defaults.join(",");
        let default = tf(lang, "cli.default", &[("value", &value)]);
        short += &format!(" [{default}]");
        long += &format!("\n\n[{default}]");
    }
    let arg = arg.help(short).long_help(long);
    if !takes_values {
        return arg;
    }
    let names: Vec<&'static str> = arg
        .get_value_names()
        .unwrap_or_default()
        .iter()
        .map(|name| t(lang, &value_key(name)))
        .collect();
    let arg = if names.is_empty() {
        arg
    } else {
        arg.value_names(names)
    };
    // `--games -1` gives the option a value its parser refuses in words, rather than an
    // unknown option `-1`.
    arg.hide_default_value(true)
        .hide_possible_values(true)
        .allow_negative_numbers(true)
}

/// Gives the `help` command of `command` and of its subcommands their text in `lang`, and
/// each command its usage in `lang` (clap writes `[OPTIONS]` there in English).
fn localize_built(mut command: Command, lang: Lang) -> Command {
    let rendered = command.render_usage().to_string();
    let usage = rendered
        .split_once(' ')
        .map_or(rendered.as_str(), |(_, usage)| usage)
        .replace(
            "[OPTIONS]",
            &format!("[{}]", t(lang, "cli.options_placeholder")),
        );
    command = command.override_usage(usage);
    let names: Vec<String> = command
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    for name in names {
        command = command.mut_subcommand(&name, |sub| {
            if name == "help" {
                sub.about(t(lang, "cli.help_command"))
            } else {
                localize_built(sub, lang)
            }
        });
    }
    command
}

/// The key of what an option takes, named `name` (`HOST:PORT`: `cli.value.host_port`).
fn value_key(name: &str) -> String {
    let words: Vec<String> = name
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    format!("cli.value.{}", words.join("_"))
}

/// Tells a command line clap refused, in `lang`, and the exit code to end with (clap's:
/// 0 for `--help` and `--version`, 2 for a mistake).
pub fn refuse(error: clap::Error, lang: Lang) -> ExitCode {
    if matches!(
        error.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        // The help screen, already in `lang`.
        let _ = error.print();
        return ExitCode::from(error.exit_code() as u8);
    }
    eprintln!(
        "{}\n\n{}",
        tf(lang, "cli.error", &[("message", &message(&error, lang))]),
        tf(lang, "cli.error.try_help", &[("help", &"--help")])
    );
    ExitCode::from(error.exit_code() as u8)
}

/// The line that tells the error of a command, its causes after it, in `lang`.
pub fn failure(error: &anyhow::Error, lang: Lang) -> String {
    let causes: Vec<String> = error.chain().map(ToString::to_string).collect();
    let message = causes.join(t(lang, "cli.error.because"));
    tf(lang, "cli.error", &[("message", &message)])
}

/// A value an option refused because it is not one of its words (the reason clap shows, told
/// in the language by [`refuse`]).
#[derive(Debug)]
pub struct NotOneOf(pub Vec<&'static str>);

impl std::fmt::Display for NotOneOf {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "known: {}", self.0.join(", "))
    }
}

impl std::error::Error for NotOneOf {}

/// `--format`'s value: a Star Realms format by its name.
pub fn format_value(text: &str) -> Result<starrealms::Format, NotOneOf> {
    one_of(text, starrealms::Format::ALL, starrealms::Format::name)
}

/// `--edition`'s value: a rules edition by its name.
pub fn edition_value(text: &str) -> Result<starrealms::Edition, NotOneOf> {
    one_of(text, starrealms::Edition::ALL, starrealms::Edition::name)
}

/// `--variant`'s value: a variant of Bataille Cosmique by its name.
pub fn variant_value(text: &str) -> Result<cosmique::Variant, NotOneOf> {
    one_of(text, cosmique::Variant::ALL, cosmique::Variant::name)
}

/// `text` read as one of `all`, or refused with their names.
fn one_of<T: std::str::FromStr, const N: usize>(
    text: &str,
    all: [T; N],
    name: fn(T) -> &'static str,
) -> Result<T, NotOneOf> {
    text.parse().map_err(|_| NotOneOf(all.map(name).to_vec()))
}

/// What is wrong with the command line, in `lang`.
fn message(error: &clap::Error, lang: Lang) -> String {
    let text = |kind| match error.get(kind) {
        Some(ContextValue::String(s)) => s.clone(),
        Some(ContextValue::Strings(list)) => list.join(", "),
        Some(other) => other.to_string(),
        None => String::new(),
    };
    let (arg, value) = (
        text(ContextKind::InvalidArg),
        text(ContextKind::InvalidValue),
    );
    match error.kind() {
        ErrorKind::UnknownArgument => tf(lang, "cli.error.unknown_argument", &[("arg", &arg)]),
        ErrorKind::InvalidSubcommand => {
            let command = text(ContextKind::InvalidSubcommand);
            tf(lang, "cli.error.unknown_command", &[("command", &command)])
        }
        ErrorKind::InvalidValue if value.is_empty() => {
            tf(lang, "cli.error.no_value", &[("arg", &arg)])
        }
        ErrorKind::InvalidValue => {
            let values = text(ContextKind::ValidValue);
            tf(
                lang,
                "cli.error.invalid_value",
                &[("value", &value), ("arg", &arg), ("values", &values)],
            )
        }
        ErrorKind::ValueValidation => {
            let reason = match error.source() {
                // The standard library's words for a number it cannot read are English.
                Some(e) if e.is::<std::num::ParseIntError>() => {
                    t(lang, "cli.error.not_a_number").to_string()
                }
                Some(e) if e.is::<game::BadSeat>() => {
                    tf(lang, "cli.error.not_a_seat", &[("last", &game::MAX_SEATS)])
                }
                Some(e) if let Some(NotOneOf(known)) = e.downcast_ref() => {
                    tf(lang, "cli.error.known", &[("known", &known.join(", "))])
                }
                Some(e) => e.to_string(),
                None => String::new(),
            };
            tf(
                lang,
                "cli.error.bad_value",
                &[("value", &value), ("arg", &arg), ("reason", &reason)],
            )
        }
        ErrorKind::MissingRequiredArgument => tf(lang, "cli.error.missing", &[("args", &arg)]),
        ErrorKind::MissingSubcommand => t(lang, "cli.error.missing_command").to_string(),
        ErrorKind::ArgumentConflict => {
            let other = text(ContextKind::PriorArg);
            if other.is_empty() || other == arg {
                tf(lang, "cli.error.repeated", &[("arg", &arg)])
            } else {
                tf(
                    lang,
                    "cli.error.conflict",
                    &[("arg", &arg), ("other", &other)],
                )
            }
        }
        ErrorKind::NoEquals | ErrorKind::WrongNumberOfValues | ErrorKind::TooFewValues => {
            tf(lang, "cli.error.no_value", &[("arg", &arg)])
        }
        ErrorKind::TooManyValues => tf(
            lang,
            "cli.error.too_many_values",
            &[("arg", &arg), ("value", &value)],
        ),
        kind => {
            let detail = kind.as_str().unwrap_or("?");
            tf(lang, "cli.error.other", &[("detail", &detail)])
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use clap::CommandFactory;

    use super::*;
    use crate::Cli;

    /// The key of every command, option and value with help of `command` (whose key is `key`).
    fn keys_of(command: &Command, key: &str, out: &mut BTreeSet<String>) {
        out.insert(format!("{key}.about"));
        for arg in command.get_arguments() {
            let arg_key = format!("{key}.arg.{}", arg.get_id());
            let values: Vec<String> = arg
                .get_possible_values()
                .iter()
                .map(|v| format!("{arg_key}.{}", v.get_name()))
                .collect();
            // The values of an option say what each does, all of them or none.
            let described = values.iter().filter(|k| i18n::has(k)).count();
            assert!(
                described == 0 || described == values.len(),
                "{arg_key}: {described} of its {} values have their text",
                values.len()
            );
            if arg.get_action().takes_values() {
                out.extend(values.into_iter().filter(|k| i18n::has(k)));
                // What it takes is named, so that the name is translated too.
                let names = arg.get_value_names().unwrap_or_default();
                assert!(!names.is_empty(), "{arg_key} takes a value without a name");
                out.extend(names.iter().map(|name| value_key(name)));
            }
            out.insert(arg_key);
        }
        if command.has_subcommands() {
            out.insert("cli.value.command".into());
        }
        for sub in command.get_subcommands() {
            keys_of(sub, &format!("{key}.{}", sub.get_name()), out);
        }
    }

    /// Whitespace made single spaces: clap wraps the help to the terminal's width.
    fn flat(text: &str) -> String {
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    fn help_of(lang: Lang, path: &[&str]) -> String {
        let mut command = localize(Cli::command(), lang);
        for name in path {
            command = command
                .find_subcommand(name)
                .unwrap_or_else(|| panic!("no command {name}"))
                .clone();
        }
        flat(&command.render_long_help().to_string())
    }

    fn refusal(args: &[&str]) -> (ErrorKind, String) {
        let args: Vec<OsString> = args.iter().map(OsString::from).collect();
        let lang = lang_in_args(&args).unwrap_or(Lang::En);
        let error = localize(Cli::command(), lang)
            .try_get_matches_from(&args)
            .expect_err("a command line clap refuses");
        (error.kind(), message(&error, lang))
    }

    #[test]
    fn every_command_option_and_value_has_its_text_and_every_text_its_command() {
        let mut wanted = BTreeSet::new();
        keys_of(&Cli::command(), ROOT, &mut wanted);
        assert!(wanted.len() > 100, "{} texts", wanted.len());
        for option in ["cli.arg.game", "cli.play.arg.first", "cli.play.arg.color"] {
            assert!(
                wanted.iter().any(|k| k.starts_with(&format!("{option}."))),
                "{option}"
            );
        }
        for key in &wanted {
            assert!(i18n::has(key), "`{key}` is not in messages.toml");
        }
        // The other `cli.` keys are this file's own words, named here as literals.
        let source = include_str!("help.rs");
        for key in i18n::keys().filter(|k| k.starts_with("cli.")) {
            assert!(
                wanted.contains(key) || source.contains(&format!("\"{key}\"")),
                "`{key}` is in messages.toml but no command, option or value has it"
            );
        }
    }

    #[test]
    fn a_help_screen_is_in_the_language_asked_for() {
        for lang in Lang::ALL {
            let serve = help_of(lang, &["serve"]);
            for key in [
                "cli.serve.about",
                "cli.serve.arg.max_connections",
                "cli.serve.arg.tls_key",
                "cli.arg.lang",
                "cli.help",
                "cli.version",
            ] {
                assert!(
                    serve.contains(&flat(t(lang, key))),
                    "{key} in {lang}: {serve}"
                );
            }
            let default = tf(lang, "cli.default", &[("value", &"4096")]);
            assert!(serve.contains(&format!("[{default}]")), "{lang}: {serve}");
            let play = help_of(lang, &["play"]);
            let heading = t(lang, "cli.possible_heading");
            let me = format!("- me: {}", t(lang, "cli.play.arg.first.me"));
            assert!(play.contains(&format!("{heading} {me}")), "{lang}: {play}");
            let top = help_of(lang, &[]);
            for key in [
                "cli.usage",
                "cli.commands",
                "cli.options",
                "cli.help_command",
            ] {
                assert!(top.contains(&flat(t(lang, key))), "{key} in {lang}: {top}");
            }
        }
        // Nothing of clap's own English is left in another language.
        let campaign_new = help_of(Lang::Fr, &["campaign", "new"]);
        let replay = help_of(Lang::Fr, &["replay"]);
        for screen in [help_of(Lang::Fr, &["play"]), campaign_new, replay] {
            for english in [
                "Usage",
                "Options:",
                "Arguments:",
                "Print",
                "default:",
                "Possible",
            ] {
                assert!(!screen.contains(english), "`{english}` in {screen}");
            }
        }
        assert!(help_of(Lang::Fr, &["replay"]).contains(t(Lang::Fr, "cli.arguments")));
        // What options take, and the usage line, are named in the language.
        let replay = help_of(Lang::Pt, &["replay"]);
        assert!(
            replay.contains("Uso: realms replay [OPÇÕES] <ARQUIVO>"),
            "{replay}"
        );
        assert!(replay.contains("--cards <ARQUIVO>"), "{replay}");
        let campaign = help_of(Lang::Es, &["campaign"]);
        assert!(
            campaign.contains("realms campaign [OPCIONES] <COMANDO>"),
            "{campaign}"
        );
        let serve = help_of(Lang::Fr, &["serve"]);
        assert!(serve.contains("--addr <HÔTE:PORT>"), "{serve}");
    }

    #[test]
    fn a_refused_command_line_is_told_in_the_language_asked_for() {
        let (kind, text) = refusal(&["realms", "--lang", "fr", "play", "--first", "parfois"]);
        assert_eq!(kind, ErrorKind::InvalidValue);
        let values = "me, bot, random";
        let arg = format!("--first <{}>", t(Lang::Fr, "cli.value.first"));
        assert_eq!(arg, "--first <PREMIER>");
        let args: [(&str, &dyn std::fmt::Display); 3] =
            [("value", &"parfois"), ("arg", &arg), ("values", &values)];
        assert_eq!(text, tf(Lang::Fr, "cli.error.invalid_value", &args));

        let (kind, text) = refusal(&["realms", "--lang=es", "play", "--dance"]);
        assert_eq!(kind, ErrorKind::UnknownArgument);
        let expected = tf(
            Lang::Es,
            "cli.error.unknown_argument",
            &[("arg", &"--dance")],
        );
        assert_eq!(text, expected);

        let (kind, text) = refusal(&["realms", "--lang", "pt", "jouer"]);
        assert_eq!(kind, ErrorKind::InvalidSubcommand);
        let expected = tf(
            Lang::Pt,
            "cli.error.unknown_command",
            &[("command", &"jouer")],
        );
        assert_eq!(text, expected);

        let (kind, text) = refusal(&["realms", "--lang", "fr", "serve", "--ipv6-prefix", "200"]);
        assert_eq!(kind, ErrorKind::ValueValidation);
        assert!(
            text.contains("`200`") && text.contains("--ipv6-prefix"),
            "{text}"
        );
        // clap's reason for a number out of its range is its own; the words around it are ours.
        let arg = format!("--ipv6-prefix <{}>", t(Lang::Fr, "cli.value.bits"));
        let args: [(&str, &dyn std::fmt::Display); 3] =
            [("value", &"200"), ("arg", &arg), ("reason", &"")];
        let before_reason = tf(Lang::Fr, "cli.error.bad_value", &args);
        assert!(text.starts_with(&before_reason), "{text}");
        assert!(text.len() > before_reason.len(), "{text}");

        let (kind, text) = refusal(&["realms", "--lang", "es", "simulate", "--games", "x"]);
        assert_eq!(kind, ErrorKind::ValueValidation);
        let reason = t(Lang::Es, "cli.error.not_a_number");
        let args: [(&str, &dyn std::fmt::Display); 3] = [
            ("value", &"x"),
            ("arg", &"--games <PARTIDAS>"),
            ("reason", &reason),
        ];
        assert_eq!(text, tf(Lang::Es, "cli.error.bad_value", &args));
        // A negative number is the option's value, refused by its parser.
        let (kind, text) = refusal(&["realms", "--lang", "es", "simulate", "--games", "-1"]);
        assert_eq!(kind, ErrorKind::ValueValidation);
        let args: [(&str, &dyn std::fmt::Display); 3] = [
            ("value", &"-1"),
            ("arg", &"--games <PARTIDAS>"),
            ("reason", &reason),
        ];
        assert_eq!(text, tf(Lang::Es, "cli.error.bad_value", &args));

        // A language that is not one: told in the language the caller falls back to (English
        // here, the locale's in `main`).
        let (kind, text) = refusal(&["realms", "--lang", "de", "cards"]);
        assert_eq!(kind, ErrorKind::InvalidValue);
        let args: [(&str, &dyn std::fmt::Display); 3] = [
            ("value", &"de"),
            ("arg", &"--lang <LANG>"),
            ("values", &"en, fr, pt, es"),
        ];
        assert_eq!(text, tf(Lang::En, "cli.error.invalid_value", &args));
        assert_eq!(
            refusal(&["realms", "--lang", "FR", "cards", "--dance"]).1,
            {
                tf(
                    Lang::Fr,
                    "cli.error.unknown_argument",
                    &[("arg", &"--dance")],
                )
            }
        );

        let (kind, text) = refusal(&["realms", "play", "--seat", "p2", "--first", "me"]);
        assert_eq!(kind, ErrorKind::ArgumentConflict);
        assert!(
            text.contains("--first") && text.contains("--seat"),
            "{text}"
        );

        let (kind, text) = refusal(&["realms", "--lang", "fr", "serve", "--tls-cert", "a.pem"]);
        assert_eq!(kind, ErrorKind::MissingRequiredArgument);
        assert!(text.contains("--tls-key"), "{text}");

        let (kind, text) = refusal(&["realms", "--lang", "fr", "play", "--vs"]);
        assert_eq!(kind, ErrorKind::InvalidValue);
        assert_eq!(
            text,
            tf(Lang::Fr, "cli.error.no_value", &[("arg", &"--vs <BOT>")])
        );
    }

    #[test]
    fn an_error_and_its_causes_are_told_in_the_language() {
        use anyhow::Context as _;
        let error = Err::<(), _>(anyhow::anyhow!("disk on fire"))
            .context("cannot read x.json")
            .unwrap_err();
        assert_eq!(
            failure(&error, Lang::En),
            "error: cannot read x.json: disk on fire"
        );
        assert_eq!(
            failure(&error, Lang::Fr),
            "erreur : cannot read x.json : disk on fire"
        );
    }

    #[test]
    fn the_language_of_the_command_line_is_read_before_clap_reads_it() {
        let lang = |args: &[&str]| {
            let args: Vec<OsString> = args.iter().map(OsString::from).collect();
            lang_in_args(&args)
        };
        assert_eq!(lang(&["realms", "--lang", "fr", "play"]), Some(Lang::Fr));
        assert_eq!(lang(&["realms", "play", "--lang=pt"]), Some(Lang::Pt));
        assert_eq!(lang(&["realms", "play", "--lang", "xx"]), None);
        assert_eq!(lang(&["realms", "play"]), None);
        assert_eq!(lang(&["realms", "replay", "--", "--lang", "es"]), None);
        // The program's name is not an option, whatever it is called.
        assert_eq!(lang(&["--lang=es"]), None);
    }

    #[test]
    fn the_values_a_refusal_names_are_the_values_taken() {
        let formats = format_value("chess").unwrap_err().0;
        assert_eq!(formats.len(), starrealms::Format::ALL.len());
        for (name, format) in formats.iter().zip(starrealms::Format::ALL) {
            assert_eq!(format_value(name).unwrap(), format);
        }
        assert_eq!(
            format_value("Free-For-All").unwrap(),
            starrealms::Format::FreeForAll
        );
        // Each value the refusal names, read back.
        fn taken<T>(parse: fn(&str) -> Result<T, NotOneOf>, refused: &str) -> Vec<T> {
            let names = parse(refused).err().expect("refused").0;
            names.iter().map(|n| parse(n).expect("taken")).collect()
        }
        assert_eq!(
            taken(variant_value, "60pv"),
            [
                cosmique::Variant::Standard,
                cosmique::Variant::Incolore,
                cosmique::Variant::Pv30
            ]
        );
        assert_eq!(
            taken(edition_value, "new"),
            [
                starrealms::Edition::RiseOfEmpire,
                starrealms::Edition::Classic
            ]
        );
    }
}
