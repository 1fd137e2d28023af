//! Every message key the programs use (the CLI, the card texts, the server and the browser
//! interface) is in the translation table, and every key of the table is used: a typo in a key
//! fails here, not in front of a player.

use std::collections::BTreeSet;
use std::path::Path;

/// The source files that show messages: Rust, and the browser interface's HTML and JavaScript
/// (which write keys in double quotes, as `t("web.home.title")`).
fn sources() -> Vec<std::path::PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    let mut dirs: Vec<_> = [
        "crates/arena/src",
        "crates/bots/src",
        "crates/cli/src",
        "crates/cosmique/src",
        "crates/game/src",
        "crates/i18n/src",
        "crates/server/src",
        "crates/starrealms/src",
        "web",
    ]
    .iter()
    .map(|d| root.join(d))
    .collect();
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path
                .extension()
                .is_some_and(|e| e == "rs" || e == "js" || e == "html")
            {
                files.push(path);
            }
        }
    }
    files
}

/// String literals of the sources, with whether each directly follows `t(lang,` or
/// `tf(lang,` (or, in the engine, `reason(`, whose keys are `refusal.` and the literal).
fn literals() -> Vec<(String, bool)> {
    let mut out = Vec::new();
    for path in sources() {
        let text = std::fs::read_to_string(path).unwrap();
        let mut rest = text.as_str();
        while let Some(start) = rest.find('"') {
            let before: String = rest[..start].split_whitespace().collect();
            let after = &rest[start + 1..];
            // The closing quote: the first one no backslash escapes.
            let mut escaped = false;
            let Some(end) = after.find(|c: char| {
                let closes = c == '"' && !escaped;
                escaped = c == '\\' && !escaped;
                closes
            }) else {
                break;
            };
            let literal = &after[..end];
            let is_key_arg = before.ends_with("t(lang,") || before.ends_with("tf(lang,");
            if before.ends_with("reason(") {
                out.push((format!("refusal.{literal}"), true));
            } else {
                out.push((literal.to_string(), is_key_arg));
            }
            rest = &after[end + 1..];
        }
    }
    out
}

fn looks_like_key(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c == '_' || c == '.')
        && !s.starts_with('.')
        && !s.ends_with('.')
}

#[test]
fn keys_used_exist_and_keys_defined_are_used() {
    let literals = literals();
    let prefixes: BTreeSet<&str> = i18n::keys()
        .filter_map(|k| k.split_once('.'))
        .map(|(p, _)| p)
        .collect();
    for (literal, is_key_arg) in &literals {
        if *is_key_arg {
            assert!(i18n::has(literal), "`{literal}` is not in messages.toml");
        }
        let prefixed = literal
            .split_once('.')
            .is_some_and(|(p, _)| prefixes.contains(p));
        if prefixed && looks_like_key(literal) {
            assert!(
                i18n::has(literal),
                "`{literal}` looks like a key but is not in messages.toml"
            );
        }
    }
    let used: BTreeSet<&str> = literals.iter().map(|(l, _)| l.as_str()).collect();
    // The command line's help is looked up by the commands' and options' names, which the
    // CLI's own test matches with this table both ways.
    for key in i18n::keys().filter(|k| !k.starts_with("cli.")) {
        assert!(
            used.contains(key),
            "`{key}` is in messages.toml but never used"
        );
    }
}
