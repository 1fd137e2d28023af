//! The one translation table of realms' user-facing strings.
//!
//! Every message lives in `messages.toml`, one table per key with a text per language:
//!
//! ```toml
//! [turn]
//! en = "Turn {turn}"
//! fr = "Tour {turn}"
//! ```
//!
//! `{name}` marks a placeholder filled by [`tf`]. French and English are complete (a test checks
//! it, placeholders included); a language added later may leave keys out, which then fall back
//! to English. Card names and printed texts are card data, not messages.
//!
//! ```
//! use i18n::{Lang, t, tf};
//! assert_eq!(t(Lang::Fr, "authority"), "Influence");
//! assert_eq!(tf(Lang::En, "turn", &[("turn", &3)]), "Turn 3");
//! ```

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

pub mod cards;

/// A language of the interface.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// French (the rulebooks' language).
    Fr,
}

impl Lang {
    /// Every language, in table order.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Fr];

    /// The language code (`en`, `fr`).
    pub const fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Fr => "fr",
        }
    }

    /// The language a locale string asks for (`fr_FR.UTF-8` → French), if known.
    pub fn from_locale(locale: &str) -> Option<Lang> {
        let code = locale.get(..2)?.to_ascii_lowercase();
        code.parse().ok()
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl FromStr for Lang {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "en" => Ok(Lang::En),
            "fr" => Ok(Lang::Fr),
            _ => Err(format!("unknown language `{s}` (known: en, fr)")),
        }
    }
}

type Table = BTreeMap<String, BTreeMap<String, String>>;

const SOURCE: &str = include_str!("../messages.toml");

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| toml::from_str(SOURCE).expect("messages.toml is checked by the tests"))
}

/// The message `key` in `lang` (English when the language lacks it).
///
/// # Panics
/// If the key is not in the table: a programming error, caught by the tests that scan the
/// sources for every key used.
pub fn t(lang: Lang, key: &str) -> &'static str {
    let texts = table()
        .get(key)
        .unwrap_or_else(|| panic!("message `{key}` is not in messages.toml"));
    texts
        .get(lang.code())
        .or_else(|| texts.get("en"))
        .map(String::as_str)
        .unwrap_or_else(|| panic!("message `{key}` has no English text"))
}

/// The message `key` in `lang` with its `{name}` placeholders filled.
pub fn tf(lang: Lang, key: &str, args: &[(&str, &dyn fmt::Display)]) -> String {
    let mut out = t(lang, key).to_string();
    for (name, value) in args {
        out = out.replace(&format!("{{{name}}}"), &value.to_string());
    }
    out
}

/// Why an action is refused, in words in `lang`: the game's reason through the table (card
/// names in the language), else the engine's own text.
pub fn refusal(lang: Lang, e: &game::ActionError) -> String {
    match e {
        game::ActionError::Illegal {
            action,
            reason: Some(reason),
            ..
        } if has(&reason.key) => tf(
            lang,
            "refusal.illegal",
            &[("action", action), ("reason", &reason_text(lang, reason))],
        ),
        game::ActionError::Parse {
            text,
            why: Some(reason),
            ..
        } if has(&reason.key) => tf(
            lang,
            "refusal.parse",
            &[("text", text), ("reason", &reason_text(lang, reason))],
        ),
        game::ActionError::GameOver { action } => {
            tf(lang, "refusal.game_over", &[("action", action)])
        }
        other => other.to_string(),
    }
}

/// A reason in words in `lang`: card names in the language, values that are keys of the
/// table (`refusal.what.row_slot`) as their text.
fn reason_text(lang: Lang, reason: &game::Reason) -> String {
    let set = starrealms::cards();
    let mut text = t(lang, &reason.key).to_string();
    for (name, value) in &reason.args {
        let value = match set.find(value) {
            Some(c) if name == "card" => cards::name(c, lang).to_string(),
            _ if has(value) => t(lang, value).to_string(),
            _ => value.clone(),
        };
        text = text.replace(&format!("{{{name}}}"), &value);
    }
    text
}

/// Whether the table holds `key`.
pub fn has(key: &str) -> bool {
    table().contains_key(key)
}

/// Every key, sorted.
pub fn keys() -> impl Iterator<Item = &'static str> {
    table().keys().map(String::as_str)
}

/// The placeholders (`{name}`) of a text, sorted.
pub fn placeholders(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        out.push(&rest[open + 1..open + close]);
        rest = &rest[open + close + 1..];
    }
    out.sort_unstable();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_message_exists_in_every_language_with_the_same_placeholders() {
        let table: Table = toml::from_str(SOURCE).expect("messages.toml parses");
        assert!(table.len() > 50, "the table holds the interface");
        for (key, texts) in &table {
            for code in texts.keys() {
                assert!(
                    code.parse::<Lang>().is_ok(),
                    "message `{key}`: unknown language `{code}`"
                );
            }
            let en = texts
                .get("en")
                .unwrap_or_else(|| panic!("`{key}` lacks en"));
            for lang in Lang::ALL {
                let text = texts
                    .get(lang.code())
                    .unwrap_or_else(|| panic!("`{key}` lacks {lang}"));
                assert!(!text.trim().is_empty(), "`{key}` is empty in {lang}");
                assert_eq!(
                    placeholders(text),
                    placeholders(en),
                    "`{key}`: placeholders differ between en and {lang}"
                );
            }
        }
    }

    #[test]
    fn an_action_that_cannot_be_read_is_explained_in_the_language() {
        let parse = |text: &str| {
            text.parse::<starrealms::Action>()
                .expect_err("the text is not an action")
        };
        let slot = parse("buy row 9");
        assert_eq!(
            refusal(Lang::En, &slot),
            "cannot read action `buy row 9`: `9` is not a valid row slot (0 to 4)"
        );
        assert_eq!(
            refusal(Lang::Fr, &slot),
            "action illisible `buy row 9` : `9` n'est pas valide pour : emplacement du marché (de 0 à 4)"
        );
        let card = refusal(Lang::Fr, &parse("scrap hand Plasma Cannon"));
        assert!(card.contains("carte inconnue `Plasma Cannon`"), "{card}");
        let unknown = refusal(Lang::Fr, &parse("dance"));
        assert!(unknown.ends_with("action inconnue"), "{unknown}");
        for text in ["buy row", "attack p7 3", "attack p2 0", "end turn now"] {
            let fr = refusal(Lang::Fr, &parse(text));
            assert!(fr.starts_with("action illisible"), "{text}: {fr}");
            assert!(!fr.contains("{"), "{text}: a placeholder is left in {fr}");
        }
    }

    #[test]
    fn a_bataille_cosmique_refusal_is_explained_in_the_language() {
        let state = cosmique::State::new(&cosmique::Config::default(), 7).expect("a game");
        let own = state
            .clone()
            .apply(
                format!("swap {} red1", state.current)
                    .parse()
                    .expect("an action"),
            )
            .expect_err("a planet never swaps with itself");
        assert!(
            refusal(Lang::Fr, &own).contains("une planète échange avec l'orbite d'une autre"),
            "{}",
            refusal(Lang::Fr, &own)
        );
        let side = "attack up red3"
            .parse::<cosmique::Action>()
            .expect_err("no such side");
        assert_eq!(
            refusal(Lang::Fr, &side),
            "action illisible `attack up red3` : `up` n'est pas un côté (left ou right)"
        );
        assert_eq!(
            refusal(Lang::En, &side),
            "cannot read action `attack up red3`: `up` is not a side (left or right)"
        );
    }

    #[test]
    fn placeholders_are_filled_and_languages_parse() {
        assert_eq!(tf(Lang::Fr, "turn", &[("turn", &12)]), "Tour 12");
        assert_eq!(placeholders("{a} and {b} and {a}"), vec!["a", "b"]);
        assert_eq!(Lang::from_locale("fr_FR.UTF-8"), Some(Lang::Fr));
        assert_eq!(Lang::from_locale("C"), None);
        assert_eq!("FR".parse::<Lang>(), Ok(Lang::Fr));
        assert!(
            "de".parse::<Lang>()
                .unwrap_err()
                .contains("unknown language")
        );
    }
}
