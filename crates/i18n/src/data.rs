//! Why a data file (a card, scenario, campaign or record file, in JSON or TOML) is refused, in
//! the reader's language.
//!
//! realms' own checks give a [`game::refusal::Why`]: keys of the table (`file.…`) with their
//! values, written here in the language ([`why`], [`record_error`]). The parsers (serde's
//! derived readers, `serde_json`, `toml`) say what is wrong in English words of their own:
//! those of serde's data model (an unknown or missing field, a value of the wrong type, a name
//! that is not among the allowed ones), JSON's and TOML's syntax errors are read back here and
//! written through the table (`data.…` keys), and so are realms' own words that a reader put
//! among them (the English of a `file.…` key, like an unknown card); anything else is kept as
//! it is. In English the text comes out exactly as it was written.

use crate::{Lang, reason_with, t, tf};

mod toml_syntax;

/// Why a data file is refused ([`game::refusal::Why`]: realms' own checks of a card, a
/// scenario or a campaign), in `lang`: each part through the table, from the outermost place to
/// the fault.
pub fn why(lang: Lang, why: &game::refusal::Why) -> String {
    let mut parts = why.0.iter().map(|part| file_text(lang, part));
    let first = parts.next().unwrap_or_default();
    parts.fold(first, |place, reason| {
        tf(
            lang,
            "data.within",
            &[("place", &place), ("reason", &reason)],
        )
    })
}

/// `text`, an error about a data file, in `lang`: the parser's words from the first place
/// they are recognised (at the start, or after a `: `) translated, what precedes them kept,
/// and a leading `line L, column C: ` written in the language too.
pub fn data_error(lang: Lang, text: &str) -> String {
    let starts = std::iter::once(0).chain(text.match_indices(": ").map(|(i, _)| i + 2));
    for start in starts {
        if let Some(words) = located(lang, &text[start..]) {
            let head = &text[..start];
            return match line_column(head) {
                Some((line, column)) => tf(
                    lang,
                    "data.line_column",
                    &[("line", &line), ("column", &column), ("reason", &words)],
                ),
                None => format!("{head}{words}"),
            };
        }
    }
    text.to_string()
}

/// Why a game record cannot be replayed, in `lang`.
pub fn record_error(lang: Lang, e: &game::RecordError) -> String {
    why(lang, &e.why())
}

/// `line L, column C: ` (a scenario's location), as numbers.
fn line_column(head: &str) -> Option<(usize, usize)> {
    let rest = head.strip_prefix("line ")?.strip_suffix(": ")?;
    let (line, column) = rest.split_once(", column ")?;
    Some((line.parse().ok()?, column.parse().ok()?))
}

/// The parser's words `text` in `lang`, with JSON's ` at line L column C` suffix, when they
/// are recognised.
fn located(lang: Lang, text: &str) -> Option<String> {
    if let Some((words, place)) = text.rsplit_once(" at line ")
        && let Some((line, column)) = place.split_once(" column ")
        && let (Ok(line), Ok(column)) = (line.parse::<usize>(), column.parse::<usize>())
    {
        let reason = words_in(lang, words)?;
        return Some(tf(
            lang,
            "data.at_line_column",
            &[("reason", &reason), ("line", &line), ("column", &column)],
        ));
    }
    words_in(lang, text)
}

/// serde's, JSON's and TOML's words in `lang`, when `text` is wholly such words.
fn words_in(lang: Lang, text: &str) -> Option<String> {
    if let Some(key) = syntax(text) {
        return Some(t(lang, key).to_string());
    }
    for (head, key) in [
        ("invalid type: ", "data.invalid_type"),
        ("invalid value: ", "data.invalid_value"),
    ] {
        if let Some(rest) = text.strip_prefix(head) {
            let (found, expected) = rest.split_once(", expected ")?;
            return Some(tf(
                lang,
                key,
                &[
                    ("found", &unexpected(lang, found)),
                    ("expected", &expected_in(lang, expected)),
                ],
            ));
        }
    }
    if let Some(rest) = text.strip_prefix("invalid length ") {
        let (length, expected) = rest.split_once(", expected ")?;
        let length: usize = length.parse().ok()?;
        return Some(tf(
            lang,
            "data.invalid_length",
            &[
                ("length", &length),
                ("expected", &expected_in(lang, expected)),
            ],
        ));
    }
    for (head, key, none) in [
        (
            "unknown field `",
            "data.unknown_field",
            "data.unknown_field.none",
        ),
        (
            "unknown variant `",
            "data.unknown_variant",
            "data.unknown_variant.none",
        ),
    ] {
        if let Some(rest) = text.strip_prefix(head) {
            let (name, tail) = rest.split_once('`')?;
            if tail == ", there are no fields" || tail == ", there are no variants" {
                return Some(tf(lang, none, &[("name", &name)]));
            }
            let expected = tail.strip_prefix(", expected ")?;
            return Some(tf(
                lang,
                key,
                &[("name", &name), ("expected", &names(lang, expected)?)],
            ));
        }
    }
    for (head, key) in [
        ("missing field `", "data.missing_field"),
        ("duplicate field `", "data.duplicate_field"),
    ] {
        if let Some(rest) = text.strip_prefix(head) {
            let name = rest.strip_suffix('`').filter(|n| !n.contains('`'))?;
            return Some(tf(lang, key, &[("name", &name)]));
        }
    }
    toml_syntax::toml_syntax(lang, text).or_else(|| own(lang, text))
}

/// One of realms' own messages that a reader put among the parser's words (an unknown card in
/// a scenario, a misspelt seat), when `text` is wholly the English of a `file.…` key: read
/// back with its values, and written in `lang`.
fn own(lang: Lang, text: &str) -> Option<String> {
    crate::keys()
        .filter(|key| key.starts_with("file."))
        .find_map(|key| {
            let args = read_back(t(Lang::En, key), text)?;
            let reason = game::Reason {
                key: key.to_string(),
                args,
            };
            Some(file_text(lang, &reason))
        })
}

/// One part of a file's refusal in `lang`: a card's name in the language where the value is a
/// card of the set given as `card`; every other value (a designer's ids and names, which may
/// happen to be words of the table, like `trade`) as it was written. A refusal of an action (a
/// record's, a scenario's) is written as refusals are; a text the table does not word, as
/// [`data_error`] reads it.
fn file_text(lang: Lang, reason: &game::Reason) -> String {
    match reason.key.as_str() {
        // A refusal of an action, whose values may be keys of the table.
        key if key.starts_with("refusal.") => crate::reason_text(lang, reason),
        // A text the table does not word: a reader's words in it are translated.
        "file.text" => match reason.args.as_slice() {
            [(_, text)] => data_error(lang, text),
            _ => reason_with(lang, reason, |_| false),
        },
        _ => reason_with(lang, reason, |_| false),
    }
}

/// The values of `template`'s placeholders that make it `text`, if any; each placeholder takes
/// the shortest text that lets the rest follow. A template that chooses a word by a number
/// (`{n|card|cards}`) is never read back (the number is lost), nor one of placeholders alone.
fn read_back(template: &str, text: &str) -> Option<Vec<(String, String)>> {
    let mut pieces = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let close = open + rest[open..].find('}')?;
        let name = &rest[open + 1..close];
        if name.contains('|') {
            return None;
        }
        pieces.push((&rest[..open], Some(name)));
        rest = &rest[close + 1..];
    }
    pieces.push((rest, None));
    // A template of placeholders alone (an engine's text passed through) says nothing to match.
    if pieces.iter().all(|(literal, _)| literal.is_empty()) {
        return None;
    }
    let mut args = Vec::new();
    let mut at = text;
    let mut pending: Option<&str> = None;
    for (literal, name) in pieces {
        match pending.take() {
            None => at = at.strip_prefix(literal)?,
            Some(previous) if name.is_none() && !literal.is_empty() => {
                // The last placeholder runs to the final literal, which ends the text.
                let value = at.strip_suffix(literal)?;
                args.push((previous.to_string(), value.to_string()));
                at = "";
            }
            Some(previous) if literal.is_empty() => {
                // Two placeholders side by side cannot be told apart.
                if name.is_some() {
                    return None;
                }
                args.push((previous.to_string(), at.to_string()));
                at = "";
            }
            Some(previous) => {
                let end = at.find(literal)?;
                args.push((previous.to_string(), at[..end].to_string()));
                at = &at[end + literal.len()..];
            }
        }
        pending = name;
    }
    at.is_empty().then_some(args)
}

/// The names a field or a choice may take, as serde lists them (`` `a` ``, `` `a` or `b` ``,
/// `` one of `a`, `b`, `c` ``), in `lang`.
fn names(lang: Lang, list: &str) -> Option<String> {
    let quoted = |s: &str| s.len() >= 2 && s.starts_with('`') && s.ends_with('`');
    if let Some(all) = list.strip_prefix("one of ") {
        return all
            .split(", ")
            .all(quoted)
            .then(|| tf(lang, "data.one_of", &[("names", &all)]));
    }
    if let Some((a, b)) = list.split_once(" or ")
        && quoted(a)
        && quoted(b)
    {
        return Some(tf(lang, "data.either", &[("a", &a), ("b", &b)]));
    }
    quoted(list).then(|| list.to_string())
}

/// What serde found (its `Unexpected`), in `lang`; unknown words kept.
fn unexpected(lang: Lang, found: &str) -> String {
    // A number past 64 bits, which `toml` reads as 128 bits.
    if let Some((value, wide)) = found
        .strip_prefix("integer ")
        .and_then(|rest| rest.rsplit_once(" as "))
        .filter(|(_, wide)| matches!(*wide, "i128" | "u128"))
    {
        return tf(
            lang,
            "data.found.integer_wide",
            &[("value", &value), ("type", &wide)],
        );
    }
    for (head, key) in [
        ("string ", "data.found.string"),
        ("integer ", "data.found.integer"),
        ("floating point ", "data.found.float"),
        ("boolean ", "data.found.boolean"),
        ("character ", "data.found.character"),
    ] {
        if let Some(value) = found.strip_prefix(head) {
            return tf(lang, key, &[("value", &value)]);
        }
    }
    let key = match found {
        "sequence" => "data.found.sequence",
        "map" => "data.found.map",
        "null" => "data.found.null",
        "unit value" => "data.found.unit",
        _ => return found.to_string(),
    };
    t(lang, key).to_string()
}

/// What serde expected, in `lang`; unknown words kept.
fn expected_in(lang: Lang, expected: &str) -> String {
    const INTEGERS: [&str; 12] = [
        "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize",
    ];
    if INTEGERS.contains(&expected) {
        return tf(lang, "data.expected.integer", &[("type", &expected)]);
    }
    if expected == "f32" || expected == "f64" {
        return tf(lang, "data.expected.number", &[("type", &expected)]);
    }
    // A struct read from a list: `struct Texts with 2 elements`.
    if let Some(rest) = expected.strip_prefix("struct ")
        && let Some((name, count)) = rest.split_once(" with ")
        && let Some(count) = count
            .strip_suffix(" elements")
            .or_else(|| count.strip_suffix(" element"))
        && let Ok(count) = count.parse::<usize>()
    {
        return tf(
            lang,
            "data.expected.struct_elements",
            &[("name", &name), ("count", &count)],
        );
    }
    if let Some(name) = expected.strip_prefix("struct ") {
        return tf(lang, "data.expected.struct", &[("name", &name)]);
    }
    if let Some(size) = expected.strip_prefix("a tuple of size ")
        && let Ok(size) = size.parse::<usize>()
    {
        return tf(lang, "data.expected.tuple", &[("size", &size)]);
    }
    if let Some(name) = expected.strip_prefix("enum ") {
        return tf(lang, "data.expected.enum", &[("name", &name)]);
    }
    let key = match expected {
        "a string" => "data.expected.string",
        "a boolean" => "data.expected.boolean",
        "a character" => "data.expected.character",
        "a sequence" => "data.expected.sequence",
        "a map" => "data.expected.map",
        _ => return expected.to_string(),
    };
    t(lang, key).to_string()
}

/// The key of one of JSON's syntax errors, as `serde_json` words it (TOML's are read by
/// [`toml_syntax`]).
fn syntax(text: &str) -> Option<&'static str> {
    Some(match text {
        "EOF while parsing a value" => "data.json.eof_value",
        "EOF while parsing a list" => "data.json.eof_list",
        "EOF while parsing an object" => "data.json.eof_object",
        "EOF while parsing a string" => "data.json.eof_string",
        "expected value" => "data.json.expected_value",
        "expected `:`" => "data.json.expected_colon",
        "expected `,` or `]`" => "data.json.expected_comma_list",
        "expected `,` or `}`" => "data.json.expected_comma_object",
        "key must be a string" => "data.json.key_string",
        "trailing comma" => "data.json.trailing_comma",
        "trailing characters" => "data.json.trailing_characters",
        "invalid number" => "data.json.invalid_number",
        "invalid escape" => "data.json.invalid_escape",
        "expected ident" => "data.json.expected_ident",
        "expected `\"`" => "data.json.expected_double_quote",
        "number out of range" => "data.json.number_out_of_range",
        "invalid unicode code point" => "data.json.unicode_code_point",
        "lone leading surrogate in hex escape" => "data.json.lone_surrogate",
        "unexpected end of hex escape" => "data.json.hex_escape_end",
        "recursion limit exceeded" => "data.json.recursion",
        "invalid value: expected key to be a number in quotes" => "data.json.numeric_key",
        "float key must be finite (got NaN or +/-inf)" => "data.json.float_key",
        "control character (\\u0000-\\u001F) found while parsing a string" => {
            "data.json.control_character"
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Errors as the parsers write them: read by the real readers, so that a change of their
    /// words breaks this test rather than the translation.
    fn parser_errors() -> Vec<String> {
        #[derive(serde::Deserialize, Debug)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct Card {
            id: String,
            cost: u8,
            kind: Kind,
            #[serde(default)]
            scrap: Option<bool>,
            #[serde(default)]
            factions: Vec<String>,
            #[serde(default)]
            pair: Option<(u8, u8)>,
            #[serde(default)]
            weight: Option<f64>,
            #[serde(default)]
            texts: Option<Texts>,
        }
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct Texts {
            en: String,
        }
        #[derive(serde::Deserialize, Debug)]
        #[serde(rename_all = "lowercase")]
        enum Kind {
            Ship,
            Base,
            Outpost,
        }
        #[derive(serde::Deserialize, Debug)]
        #[serde(rename_all = "lowercase")]
        enum Two {
            Ship,
            Base,
        }
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct Choice {
            two: Two,
        }
        let json = |s: &str| serde_json::from_str::<Card>(s).unwrap_err().to_string();
        let toml = |s: &str| toml::from_str::<Card>(s).unwrap_err().message().to_string();
        vec![
            json(r#"{"id": "x", "cost": "three", "kind": "ship"}"#),
            json(r#"{"id": 3, "cost": 1, "kind": "ship"}"#),
            json(r#"{"id": "x", "cost": 1.5, "kind": "ship"}"#),
            json(r#"{"id": "x", "cost": 1, "kind": "ship", "scrap": 1}"#),
            json(r#"{"id": "x", "cost": 1, "kind": "ship", "factions": {}}"#),
            json(r#"{"id": "x", "cost": 1, "kind": "ship", "factions": "blob"}"#),
            json(r#"{"id": "x", "cost": 1, "kind": "ship", "scrap": null, "texts": []}"#),
            json(r#"{"id": "x", "cost": 1, "kind": "ship", "weight": true}"#),
            json(r#"{"id": "x", "cost": 1, "kind": "ship", "pair": [1]}"#),
            json(r#"{"id": "x", "cost": 300, "kind": "ship"}"#),
            json(r#"{"id": "x", "cost": 1, "kind": "shop"}"#),
            json(r#"{"id": "x", "cost": 1, "kind": "ship", "cots": 1}"#),
            json(r#"{"id": "x", "kind": "ship"}"#),
            json(r#"{"id": "x", "id": "y", "cost": 1, "kind": "ship"}"#),
            json(r#"{"id": "x", "cost": 1, "kind": "ship""#),
            json(r#"{"id": "x", "cost": 1, "kind": "#),
            json(r#"{"id": "x", "cost": 1, "kind": "sh"#),
            json(r#"{"id": "x", "cost": 1, "factions": ["a""#),
            json(r#"{"id" "x"}"#),
            json(r#"{"id": "x" "cost": 1}"#),
            json(r#"{"id": "x", "factions": ["a" "b"]}"#),
            json(r#"{"id": "x",}"#),
            json(r#"{"id": "x", "cost": 1, "kind": "ship"} x"#),
            json(r#"{"id": x}"#),
            json(r#"{3: 1}"#),
            json(r#"{"id": "\q"}"#),
            json("{\"id\": \"a\u{1}\"}"),
            json(r#"{"id": -}"#),
            json(r#"{"id": tru}"#),
            json(r#"{"id": "x", "cost": 1e999}"#),
            json(r#"{"id": "\uDC00"}"#),
            json(r#"{"id": "\uD800"}"#),
            json(r#"{"id": "\u12"}"#),
            json(&format!("{}1{}", "[".repeat(200), "]".repeat(200))),
            serde_json::from_str::<std::collections::BTreeMap<u8, u8>>(r#"{"a": 1}"#)
                .unwrap_err()
                .to_string(),
            serde_json::from_str::<Choice>(r#"{"two": "outpost"}"#)
                .unwrap_err()
                .to_string(),
            toml("id = \"x\"\ncost = \"three\"\nkind = \"ship\"\n"),
            toml("id = \"x\"\ncost = 1\nkind = \"shop\"\n"),
            toml("id = \"x\"\ncots = 1\nkind = \"ship\"\n"),
            toml("id = \"x\"\nkind = \"ship\"\n"),
            toml("id = \"x\"\ncost = 1\nkind = \"ship\"\ntexts = \"a\"\n"),
            toml("id = \"x\"\nid = \"y\"\n"),
            toml("id\n"),
            toml("id = x\n"),
            toml("[[card]\nid = \"x\"\n"),
            toml("[card\nid = \"x\"\n"),
            toml("factions = [\"a\", \"b\"\n"),
            toml("texts = { en = \"a\"\n"),
            toml("factions = [\"a\" \"b\"]\n"),
        ]
        .into_iter()
        .chain(toml_syntax_errors())
        .collect()
    }

    /// One file for each of TOML's syntax errors that a designer may make (every description
    /// and every word of what is expected that `toml` can give, but recursion past its limit),
    /// and the errors, each once.
    fn toml_syntax_errors() -> Vec<String> {
        let files = [
            "a = 1 b = 2",
            "a = 01",
            "a = +0x1",
            "a = 0X1",
            "a = [1,,2]",
            "a = {b=1,,}",
            "a = \"\\q\"",
            "a = \"\\u12\"",
            "a = \"\\U0011FFFF\"",
            "[a",
            "[[a]",
            "[[a",
            "a = 'x",
            "a = \"x",
            "a = \"\"\"x",
            "a = '''x",
            "a = 1_",
            "a = --1",
            "a = 1 \r",
            "= 1",
            "a = ",
            "a",
            "a = [1, = 2]",
            "a = {b = 1",
            "a == 1",
            "\"\"\"a\"\"\" = 1",
            "'''a''' = 1",
            "a = }",
            "a = ]",
            "]",
            "a = 1\na = 2",
            "a = 0b2",
            "a = 0xG",
            "a = 0o9",
            "a = 1e",
            "a = 1.",
            "a = .1",
            "a = tru",
            "a = nan1",
            "a = 1979-05-27T",
            "a = 1979-13-27",
            "a = 1979-02-30",
            "a = 1979-05-27T25:00:00",
            "a = 1979-05-27T07:61:00",
            "a = 1979-05-27T07:32:61",
            "a = 1979-05-27T07:32:00+25:00",
            "a = 1979-5-27",
            "a = 1979-05-27 07:32:00Z extra",
            "a = 1\na.b = 2",
            "a = 1e999",
            "a = \"\u{1}\"",
            "a = 'x\u{1}'",
            "a = 1 # \u{1}",
        ];
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct Cost {
            cost: u8,
        }
        let mut errors: Vec<String> = vec![
            toml::from_str::<Cost>("cost = 99999999999999999999")
                .unwrap_err()
                .message()
                .to_string(),
        ];
        for file in files {
            let error = toml::from_str::<toml::Table>(file)
                .expect_err(file)
                .message()
                .to_string();
            if !errors.contains(&error) {
                errors.push(error);
            }
        }
        errors
    }

    #[test]
    fn a_template_is_read_back_into_its_values() {
        let back = |template: &str, text: &str| read_back(template, text);
        let pairs = |v: &[(&str, &str)]| {
            Some(
                v.iter()
                    .map(|(a, b)| (a.to_string(), b.to_string()))
                    .collect::<Vec<_>>(),
            )
        };
        assert_eq!(
            back("unknown card `{name}`", "unknown card `Scoot`"),
            pairs(&[("name", "Scoot")])
        );
        assert_eq!(
            back(
                "`{seat}` is not a seat (expected p1 … p{last})",
                "`p7` is not a seat (expected p1 … p6)"
            ),
            pairs(&[("seat", "p7"), ("last", "6")])
        );
        assert_eq!(
            back("{a}: {b}", "x: y: z"),
            pairs(&[("a", "x"), ("b", "y: z")])
        );
        assert_eq!(
            back("at most {n} frames", "at most 6 frames"),
            pairs(&[("n", "6")])
        );
        assert_eq!(back("no such seat", "no such seat"), pairs(&[]));
        assert_eq!(back("no such seat", "no such seats"), None);
        assert_eq!(back("unknown card `{name}`", "unknown cards `x`"), None);
        assert_eq!(back("{n} {n|card|cards}", "2 cards"), None);
        assert_eq!(back("{a}{b}", "xy"), None);
        assert_eq!(back("{text}", "anything"), None);
    }

    #[test]
    fn a_records_refusal_is_its_own_english_and_is_read_in_every_language() {
        use game::RecordError as E;
        let json = serde_json::from_str::<game::GameRecord>("{")
            .unwrap_err()
            .to_string();
        let errors = [
            E::Version(9),
            E::WrongGame {
                expected: "starrealms".into(),
                found: "cosmique".into(),
            },
            E::Config("the turn limit must be at least 2".into()),
            E::Action {
                step: 3,
                text: "end".into(),
                error: game::ActionError::GameOver {
                    action: "end".into(),
                },
            },
            E::Json(json),
        ];
        for e in &errors {
            assert_eq!(record_error(Lang::En, e), e.to_string());
            for lang in [Lang::Fr, Lang::Pt, Lang::Es] {
                let text = record_error(lang, e);
                assert_ne!(text, e.to_string(), "{lang}");
                assert!(
                    !text.contains("the turn limit") && !text.contains("EOF"),
                    "{text}"
                );
            }
        }
        assert_eq!(
            record_error(Lang::Fr, &errors[2]),
            "configuration invalide : la limite de tours doit valoir au moins 2"
        );
        // The engine's own refusals of a record's action (not legal now, with the game's reason;
        // unreadable, with a word of the table among its values), written as a refusal alone is.
        use game::Action as _;
        let mut state = starrealms::State::new(&starrealms::Config::default(), 1).unwrap();
        let illegal = state
            .apply(starrealms::Action::parse("buy row 4").unwrap())
            .unwrap_err();
        let unreadable = starrealms::Action::parse("buy row 9").unwrap_err();
        for error in [illegal, unreadable] {
            let e = E::Action {
                step: 4,
                text: "x".into(),
                error: error.clone(),
            };
            // In English too, a card by its name, as in play.
            assert_eq!(
                record_error(Lang::En, &e),
                format!("action 4 (`x`): {}", crate::refusal(Lang::En, &error))
            );
            assert_eq!(
                record_error(Lang::Fr, &e),
                format!("action 4 (`x`) : {}", crate::refusal(Lang::Fr, &error))
            );
            assert_eq!(
                record_error(Lang::Es, &e),
                format!("acción 4 (`x`): {}", crate::refusal(Lang::Es, &error))
            );
            assert_ne!(crate::refusal(Lang::Fr, &error), error.to_string());
        }
        // A seat that is none, among a reader's words.
        let seat = serde_json::from_str::<game::Seat>("\"p7\"")
            .unwrap_err()
            .to_string();
        assert_eq!(
            data_error(Lang::Fr, &seat),
            "`p7` n'est pas une place (de p1 à p6)"
        );
    }

    #[test]
    fn english_is_the_parsers_own_text() {
        for error in parser_errors() {
            assert_eq!(data_error(Lang::En, &error), error);
            let located = format!("line 3, column 7: {error}");
            assert_eq!(data_error(Lang::En, &located), located);
        }
    }

    #[test]
    fn every_error_of_the_parsers_is_read_in_every_language() {
        for error in parser_errors() {
            for lang in [Lang::Fr, Lang::Pt, Lang::Es] {
                let text = data_error(lang, &error);
                assert_ne!(text, error, "{lang}: not read: {error}");
                // Nothing of the parser's own English words is left in the translation.
                for word in [
                    "invalid type",
                    "invalid value",
                    "invalid length",
                    "invalid number",
                    "invalid escape",
                    "expected",
                    "unknown",
                    "missing",
                    "duplicate",
                    "EOF",
                    "string",
                    "integer",
                    "a boolean",
                    "boolean `",
                    "sequence",
                    "one of",
                    " or ",
                    "trailing",
                    "at line",
                    "struct ",
                    "floating",
                    "tuple",
                    "there are no",
                    "key must",
                    "control character",
                    "while parsing",
                    "unclosed",
                    "unexpected",
                    "newline",
                    "redundant",
                    "cannot",
                    "between",
                    "digits",
                    "overflowed",
                ] {
                    assert!(
                        !text.contains(word),
                        "{lang}: `{word}` left in {text:?} ({error})"
                    );
                }
            }
        }
    }

    #[test]
    fn the_parsers_words_are_translated_with_their_names_kept() {
        let fr = |s: &str| data_error(Lang::Fr, s);
        for (lang, text, translated) in [
            (
                Lang::Fr,
                "c1.toml:4: unknown field `cots`, expected one of `id`, `cost`",
                "c1.toml:4: champ inconnu `cots`, attendu l'un de `id`, `cost`",
            ),
            (
                Lang::Fr,
                "line 1, column 30: invalid type: string \"a\", expected i32",
                "ligne 1, colonne 30 : type invalide : le texte \"a\", attendu un entier (i32)",
            ),
            (
                Lang::Fr,
                "unknown variant `outpost`, expected `ship` or `base` at line 1 column 18",
                "nom inconnu `outpost`, attendu `ship` ou `base` (ligne 1, colonne 18)",
            ),
            (Lang::Es, "missing field `cost`", "falta el campo `cost`"),
            (
                Lang::Pt,
                "EOF while parsing a value at line 1 column 30",
                "o arquivo termina no meio de um valor (linha 1, coluna 30)",
            ),
            // TOML's syntax errors: the description, then what was expected, literals as written.
            (
                Lang::Fr,
                "c2.toml:2: missing escaped value, expected `b`, `e`, `\\`, `\"`, `u`",
                "c2.toml:2: séquence d'échappement incomplète, attendu : `b`, `e`, `\\`, `\"`, `u`",
            ),
            (
                Lang::Es,
                "unexpected key or value, expected newline, `#`",
                "clave o valor inesperado, se esperaba: un salto de línea, `#`",
            ),
            (
                Lang::Pt,
                "invalid time, expected hour between 00 and 23",
                "hora inválida, esperado: a hora entre 00 e 23",
            ),
            (
                Lang::Fr,
                "redundant numeric sign, expected nothing",
                "signe en double",
            ),
            (
                Lang::Fr,
                "cannot extend value of type integer with a dotted key",
                "une clé à points ne peut pas prolonger une valeur de type entier",
            ),
        ] {
            assert_eq!(data_error(lang, text), translated, "{text}");
        }
        // Words of no parser, or a parser's words this build does not know, are kept as they are.
        for kept in [
            "c1.toml:4: card `x`: a ship cannot have defense",
            "c2.toml:2: redundant numeric sign, expected a miracle",
            "c2.toml:2: invalid date, expected a fortnight",
            "unknown field `a`, expected something else",
        ] {
            assert_eq!(fr(kept), kept);
        }
    }
}
