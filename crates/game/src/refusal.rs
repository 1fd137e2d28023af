//! Why an action is refused, in words: a key of the one translation table
//! (`crates/i18n/messages.toml`, keys `refusal.…`) with its values. The engines' own English
//! texts (in [`crate::ActionError`]) are read from that table too, so the two never differ.

use std::collections::HashMap;
use std::fmt::Display;
use std::sync::OnceLock;

use crate::Reason;

/// The translation table, whose English refusals the engines write into their errors.
const MESSAGES: &str = include_str!("../../i18n/messages.toml");

/// The English text of each `refusal.…` key.
fn english() -> &'static HashMap<String, String> {
    static TABLE: OnceLock<HashMap<String, String>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let table: toml::Table = toml::from_str(MESSAGES).expect("the translation table reads");
        table
            .into_iter()
            .filter(|(k, _)| k.starts_with("refusal."))
            .filter_map(|(k, v)| Some((k, v.get("en")?.as_str()?.to_string())))
            .collect()
    })
}

/// The reason `refusal.<key>` with its values.
pub fn reason(key: &str, args: &[(&str, &dyn Display)]) -> Reason {
    let key = format!("refusal.{key}");
    debug_assert!(english().contains_key(&key), "no English text for {key}");
    Reason {
        key,
        args: args
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
    }
}

/// A reason in English, as the translation table writes it.
pub fn in_english(reason: &Reason) -> String {
    let Some(template) = english().get(&reason.key) else {
        return reason.key.clone();
    };
    let mut text = template.clone();
    for (k, v) in &reason.args {
        // A value that is itself a key of the table (`refusal.what.row_slot`) is its text.
        let v = english().get(v).unwrap_or(v);
        text = text.replace(&format!("{{{k}}}"), v);
    }
    text
}

/// Every refusal key the engines may give (for tests of the table).
pub fn keys() -> Vec<&'static str> {
    let mut keys: Vec<&str> = english().keys().map(String::as_str).collect();
    keys.sort_unstable();
    keys
}
