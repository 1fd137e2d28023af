//! Why an action is refused, in words: a key of the one translation table
//! (`crates/i18n/messages.toml`, keys `refusal.…`) with its values. The engines' own English
//! texts (in [`crate::ActionError`]) are read from that table too, so the two never differ.
//! The same goes for why a data file (cards, a scenario, a campaign) is refused ([`Why`], keys
//! `file.…`).

use std::collections::HashMap;
use std::fmt::Display;
use std::sync::OnceLock;

use crate::Reason;

/// The prefixes of the keys whose English the engines write into their errors.
const PREFIXES: [&str; 2] = ["refusal.", "file."];

/// The translation table, whose English refusals the engines write into their errors.
const MESSAGES: &str = include_str!("../../i18n/messages.toml");

/// The English text of each `refusal.…` and `file.…` key.
fn english() -> &'static HashMap<String, String> {
    static TABLE: OnceLock<HashMap<String, String>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let table: toml::Table = toml::from_str(MESSAGES).expect("the translation table reads");
        table
            .into_iter()
            .filter(|(k, _)| PREFIXES.iter().any(|p| k.starts_with(p)))
            .filter_map(|(k, v)| Some((k, v.get("en")?.as_str()?.to_string())))
            .collect()
    })
}

/// The reason `refusal.<key>` with its values.
pub fn reason(key: &str, args: &[(&str, &dyn Display)]) -> Reason {
    part(&format!("refusal.{key}"), args)
}

/// A reason in English, as the translation table writes it; a value that is itself a key of
/// the table (`refusal.what.row_slot`) is its text.
pub fn in_english(reason: &Reason) -> String {
    written(reason, |v| english().get(v).map(String::as_str))
}

/// `reason`'s English template filled with its values, each as `key_text` gives it (when it is
/// a key of the table) or as it is.
fn written<'a>(reason: &'a Reason, key_text: impl Fn(&str) -> Option<&'a str>) -> String {
    let Some(template) = english().get(&reason.key) else {
        return reason.key.clone();
    };
    let mut text = template.clone();
    for (k, v) in &reason.args {
        text = text.replace(&format!("{{{k}}}"), key_text(v).unwrap_or(v));
    }
    text
}

/// Every refusal and file key the engines may give (for tests of the table).
pub fn keys() -> Vec<&'static str> {
    let mut keys: Vec<&str> = english().keys().map(String::as_str).collect();
    keys.sort_unstable();
    keys
}

/// Why a data file (a card file, a scenario, a campaign) is refused, for people in their
/// language: from the outermost place (`` card `x` ``) to the fault itself, each part a key of
/// the translation table (`file.…`) with its values. In English the parts are joined by `: `.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Why(pub Vec<Reason>);

impl Why {
    /// The fault `key` (a whole key, `file.…`) with its values.
    pub fn new(key: &str, args: &[(&str, &dyn Display)]) -> Why {
        Why(vec![part(key, args)])
    }

    /// This fault within the place `key` (`file.card.in_card`, with the card's id).
    #[must_use]
    pub fn within(mut self, key: &str, args: &[(&str, &dyn Display)]) -> Why {
        self.0.insert(0, part(key, args));
        self
    }

    /// In English, as the translation table writes it; the values as they were given (a
    /// designer's id or a typed name is never read as a key of the table), but in a refusal
    /// (a `refusal.…` part: why a record's action could not be played), whose values may be keys.
    pub fn english(&self) -> String {
        let parts: Vec<String> = self
            .0
            .iter()
            .map(|p| match p.key.starts_with("refusal.") {
                true => in_english(p),
                false => written(p, |_| None),
            })
            .collect();
        parts.join(": ")
    }

    /// Action `step` (numbered as its error numbers it: from 0 in a record, from 1 in a
    /// scenario), whose text is `text`, refused: the action, then why.
    pub fn at_action(step: usize, text: &str, error: &crate::ActionError) -> Why {
        let mut why = error.why();
        why.0.insert(
            0,
            part("file.record.action", &[("step", &step), ("action", &text)]),
        );
        why
    }

    /// `text`, a text the table does not word (a reader's words, an engine's English), as a
    /// part; a reader's words in it are translated where it is shown.
    pub fn text(text: impl Display) -> Why {
        Why::new("file.text", &[("text", &text)])
    }

    /// The keys of its parts, from the outermost place to the fault.
    pub fn keys(&self) -> Vec<&str> {
        self.0.iter().map(|p| p.key.as_str()).collect()
    }
}

/// Where a refusal is passed on as text (an engine's `Result<_, String>`), its English.
impl From<Why> for String {
    fn from(why: Why) -> String {
        why.english()
    }
}

impl Display for Why {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.english())
    }
}

impl crate::ActionError {
    /// Why the action was refused, as a [`Why`] (its English is this error's text): the action,
    /// then the reason when the game gives one.
    pub fn why(&self) -> Why {
        use crate::ActionError as E;
        // The action's part, the reason the game gives, and its words when it gives them in
        // English only.
        let (head, reason, words) = match self {
            E::GameOver { action } => (part("refusal.game_over", &[("action", action)]), None, ""),
            E::Illegal {
                action,
                hint,
                reason,
            } => (
                part("refusal.not_legal", &[("action", action)]),
                reason.as_deref(),
                hint.strip_prefix(": ").unwrap_or(hint),
            ),
            E::Parse { text, reason, why } => (
                part("refusal.unreadable", &[("text", text)]),
                why.as_deref(),
                reason.as_str(),
            ),
        };
        let mut why = Why(vec![head]);
        match reason {
            Some(reason) => why.0.push(reason.clone()),
            None if !words.is_empty() => why.0.extend(Why::text(words).0),
            None => {}
        }
        why
    }
}

impl crate::RecordError {
    /// Why the record does not replay, as a [`Why`] (its English is this error's text).
    pub fn why(&self) -> Why {
        use crate::RecordError as E;
        match self {
            E::Version(version) => Why::new(
                "file.record.version",
                &[
                    ("version", version),
                    ("read", &crate::record::RECORD_VERSION),
                ],
            ),
            E::WrongGame { expected, found } => Why::new(
                "file.record.wrong_game",
                &[("found", found), ("expected", expected)],
            ),
            E::Config(error) => Why::text(error).within("file.record.config", &[]),
            E::Action { step, text, error } => Why::at_action(*step, text, error),
            E::Json(error) => Why::text(error).within("file.record.json", &[]),
        }
    }
}

/// One part of a [`Why`].
fn part(key: &str, args: &[(&str, &dyn Display)]) -> Reason {
    debug_assert!(english().contains_key(key), "no English text for {key}");
    Reason {
        key: key.to_string(),
        args: args
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_why_writes_its_values_as_given_and_names_its_keys() {
        let why = Why::new("file.unknown_card", &[("name", &"refusal.game_over")])
            .within("file.campaign.in_side", &[("side", &"star_empire")]);
        assert_eq!(
            why.english(),
            "side star_empire: unknown card `refusal.game_over`"
        );
        assert_eq!(why.keys(), ["file.campaign.in_side", "file.unknown_card"]);
        // A refusal's value that is a key of the table is its text.
        let r = reason("parse_upgrade", &[("words", &"refusal.what.sheet")]);
        assert!(
            in_english(&r).starts_with("unexpected `sheet` "),
            "{}",
            in_english(&r)
        );
    }

    #[test]
    fn a_refused_actions_why_is_its_error_in_english() {
        use crate::{ActionError as A, RecordError as R};
        let reason = reason("parse_upgrade", &[("words", &"refusal.what.sheet")]);
        let errors = [
            A::GameOver {
                action: "end".into(),
            },
            A::Illegal {
                action: "end".into(),
                hint: format!(": {}", in_english(&reason)),
                reason: Some(Box::new(reason.clone())),
            },
            // A game that words its refusal in English only, or not at all.
            A::Illegal {
                action: "end".into(),
                hint: ": not now".into(),
                reason: None,
            },
            A::Illegal {
                action: "end".into(),
                hint: String::new(),
                reason: None,
            },
            A::Parse {
                text: "upgrade x".into(),
                reason: in_english(&reason),
                why: Some(Box::new(reason.clone())),
            },
            A::Parse {
                text: "x".into(),
                reason: "no such action".into(),
                why: None,
            },
        ];
        for error in errors {
            assert_eq!(error.why().english(), error.to_string());
            let record = R::Action {
                step: 2,
                text: "x".into(),
                error: error.clone(),
            };
            assert_eq!(record.why().english(), record.to_string());
            assert_eq!(record.why().keys()[0], "file.record.action");
        }
        for record in [
            R::Version(7),
            R::WrongGame {
                expected: "a".into(),
                found: "b".into(),
            },
            R::Config("no".into()),
            R::Json("EOF".into()),
        ] {
            assert_eq!(record.why().english(), record.to_string());
        }
    }
}
