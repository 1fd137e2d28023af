//! TOML's syntax errors, as the `toml` reader words them, in the reader's language.
//!
//! `toml` writes a syntax error as a description, then what it expected there:
//! `{description}, expected {what}, {what}…`, each `what` a literal in backquotes (kept as
//! written) or a word (translated). Its dates and times (`toml_datetime`) and its checks of
//! values (a number too large, a dotted key on a value) have the same form.

use crate::{Lang, t, tf};

/// The descriptions `toml` gives, and their keys.
const DESCRIPTIONS: &[(&str, &str)] = &[
    ("`_` may only go between digits", "data.toml.underscore"),
    (
        "cannot recurse further; max recursion depth met",
        "data.toml.recursion",
    ),
    ("recursion limit", "data.toml.recursion_limit"),
    (
        "carriage return must be followed by newline",
        "data.toml.carriage_return",
    ),
    ("duplicate key", "data.toml.duplicate_key"),
    ("extra `=`", "data.toml.extra_equals"),
    (
        "extra assignment between key-value pairs",
        "data.toml.extra_assignment",
    ),
    ("extra comma in array", "data.toml.extra_comma_array"),
    (
        "extra comma in inline table",
        "data.toml.extra_comma_inline_table",
    ),
    (
        "integers with a radix cannot be signed",
        "data.toml.signed_radix",
    ),
    ("invalid comment character", "data.toml.comment_character"),
    (
        "invalid inline table element",
        "data.toml.inline_table_element",
    ),
    ("invalid key-value pair", "data.toml.key_value_pair"),
    ("invalid unquoted key", "data.toml.unquoted_key"),
    ("invalid value", "data.toml.invalid_value"),
    ("key with no value", "data.toml.no_value"),
    (
        "keys cannot be multi-line basic strings",
        "data.toml.multiline_basic_key",
    ),
    (
        "keys cannot be multi-line literal strings",
        "data.toml.multiline_literal_key",
    ),
    ("missing array opening", "data.toml.missing_array_opening"),
    (
        "missing assignment between key-value pairs",
        "data.toml.missing_assignment",
    ),
    (
        "missing comma between array elements",
        "data.toml.missing_comma",
    ),
    (
        "missing comma between key-value pairs",
        "data.toml.missing_comma_pairs",
    ),
    ("missing comment start", "data.toml.missing_comment_start"),
    ("missing escaped value", "data.toml.missing_escape"),
    (
        "missing inline table opening",
        "data.toml.missing_inline_table_opening",
    ),
    (
        "missing key for inline table element",
        "data.toml.missing_inline_key",
    ),
    ("missing opening quote", "data.toml.missing_opening_quote"),
    ("missing table open", "data.toml.missing_table_open"),
    ("missing value for key", "data.toml.missing_value_for_key"),
    ("missing value", "data.toml.missing_value"),
    ("radix must be lowercase", "data.toml.radix_lowercase"),
    (
        "redundant integer number prefix",
        "data.toml.redundant_prefix",
    ),
    ("redundant numeric sign", "data.toml.redundant_sign"),
    ("string values must be quoted", "data.toml.unquoted"),
    ("too few unicode value digits", "data.toml.unicode_digits"),
    ("unclosed array table", "data.toml.unclosed_array_table"),
    ("unclosed array", "data.toml.unclosed_array"),
    ("unclosed inline table", "data.toml.unclosed_inline_table"),
    ("unclosed table", "data.toml.unclosed_table"),
    ("unexpected `=` in array", "data.toml.equals_in_array"),
    (
        "unexpected content between comment and newline",
        "data.toml.content_after_comment",
    ),
    ("unexpected content", "data.toml.unexpected_content"),
    (
        "unexpected key or value",
        "data.toml.unexpected_key_or_value",
    ),
    ("unexpected leading zero", "data.toml.leading_zero"),
    ("unexpected sign", "data.toml.unexpected_sign"),
    ("unquoted keys cannot be empty", "data.toml.empty_key"),
    ("invalid string", "data.toml.invalid_string"),
    ("invalid basic string", "data.toml.invalid_basic_string"),
    ("invalid literal string", "data.toml.invalid_literal_string"),
    (
        "invalid multi-line basic string",
        "data.toml.invalid_multiline_basic_string",
    ),
    (
        "invalid multi-line literal string",
        "data.toml.invalid_multiline_literal_string",
    ),
    ("invalid boolean", "data.toml.invalid_boolean"),
    ("invalid float", "data.toml.invalid_float"),
    ("invalid integer number", "data.toml.invalid_integer"),
    (
        "invalid hexadecimal number",
        "data.toml.invalid_hexadecimal",
    ),
    ("invalid octal number", "data.toml.invalid_octal"),
    ("invalid binary number", "data.toml.invalid_binary"),
    ("invalid exponent", "data.toml.invalid_exponent"),
    ("invalid fraction", "data.toml.invalid_fraction"),
    ("invalid mantissa", "data.toml.invalid_mantissa"),
    ("integer number overflowed", "data.toml.integer_overflow"),
    (
        "floating-point number overflowed",
        "data.toml.float_overflow",
    ),
    ("wanted string or table", "data.toml.string_or_table"),
    ("invalid datetime", "data.toml.invalid_datetime"),
    ("invalid date-time", "data.toml.invalid_date_time"),
    ("invalid date", "data.toml.invalid_date"),
    ("invalid time", "data.toml.invalid_time"),
    ("invalid offset", "data.toml.invalid_offset"),
];

/// The words `toml` expects, and their keys (a literal in backquotes is kept as written).
const EXPECTED: &[(&str, &str)] = &[
    ("newline", "data.toml.expected.newline"),
    ("key", "data.toml.expected.key"),
    ("value", "data.toml.expected.value"),
    ("letters", "data.toml.expected.letters"),
    ("numbers", "data.toml.expected.numbers"),
    ("digits", "data.toml.expected.digits"),
    ("characters", "data.toml.expected.characters"),
    ("printable characters", "data.toml.expected.printable"),
    (
        "non-double-quote visible characters",
        "data.toml.expected.no_double_quote",
    ),
    (
        "non-single-quote visible characters",
        "data.toml.expected.no_single_quote",
    ),
    (
        "non-single-quote characters",
        "data.toml.expected.no_single_quote_any",
    ),
    ("basic string", "data.toml.expected.basic_string"),
    ("literal string", "data.toml.expected.literal_string"),
    (
        "multi-line basic string",
        "data.toml.expected.multiline_basic_string",
    ),
    (
        "unicode hexadecimal value",
        "data.toml.expected.unicode_value",
    ),
    ("year or hour", "data.toml.expected.year_or_hour"),
    ("a four-digit year (YYYY)", "data.toml.expected.year_digits"),
    ("a two-digit month (MM)", "data.toml.expected.month_digits"),
    ("a two-digit day (DD)", "data.toml.expected.day_digits"),
    ("a two-digit hour (HH)", "data.toml.expected.hour_digits"),
    (
        "a two-digit minute (MM)",
        "data.toml.expected.minute_digits",
    ),
    (
        "a two-digit second (SS)",
        "data.toml.expected.second_digits",
    ),
    ("`T` between date and time", "data.toml.expected.date_time"),
    (
        "`-` (YYYY-MM) or `:` (HH:MM)",
        "data.toml.expected.date_or_time",
    ),
    ("nanoseconds overflowed", "data.toml.expected.nanoseconds"),
];

/// The parts of a date or a time, alone (`expected hour`) or in a range (`hour between 00
/// and 23`).
const UNITS: &[(&str, &str)] = &[
    ("month", "data.toml.unit.month"),
    ("day", "data.toml.unit.day"),
    ("hour", "data.toml.unit.hour"),
    ("hours", "data.toml.unit.hours"),
    ("minute", "data.toml.unit.minute"),
    ("minutes", "data.toml.unit.minutes"),
    ("second", "data.toml.unit.second"),
    ("nanosecond", "data.toml.unit.nanosecond"),
];

/// The types of value `toml` names when a dotted key would extend one.
const TYPES: &[(&str, &str)] = &[
    ("string", "data.toml.type.string"),
    ("integer", "data.toml.type.integer"),
    ("float", "data.toml.type.float"),
    ("boolean", "data.toml.type.boolean"),
    ("datetime", "data.toml.type.datetime"),
    ("array", "data.toml.type.array"),
    ("table", "data.toml.type.table"),
    ("inline table", "data.toml.type.inline_table"),
];

fn key_of(table: &[(&'static str, &'static str)], words: &str) -> Option<&'static str> {
    table
        .iter()
        .find(|(english, _)| *english == words)
        .map(|(_, key)| *key)
}

/// `text` in `lang` if it is wholly one of TOML's syntax errors, as `toml` words it.
pub(super) fn toml_syntax(lang: Lang, text: &str) -> Option<String> {
    if let Some(kind) = text
        .strip_prefix("cannot extend value of type ")
        .and_then(|rest| rest.strip_suffix(" with a dotted key"))
    {
        let kind = t(lang, key_of(TYPES, kind)?);
        return Some(tf(lang, "data.toml.dotted_key", &[("type", &kind)]));
    }
    let (description, expected) = match text.split_once(", expected ") {
        Some((description, expected)) => (description, Some(expected)),
        None => (text, None),
    };
    let reason = t(lang, key_of(DESCRIPTIONS, description)?);
    let Some(expected) = expected else {
        return Some(reason.to_string());
    };
    if expected == "nothing" {
        return Some(tf(
            lang,
            "data.toml.expected_nothing",
            &[("reason", &reason)],
        ));
    }
    // A literal may itself hold `, ` only as `` `,` ``, which no `, ` splits.
    let what = expected
        .split(", ")
        .map(|item| expected_item(lang, item))
        .collect::<Option<Vec<_>>>()?
        .join(", ");
    Some(tf(
        lang,
        "data.toml.expected",
        &[("reason", &reason), ("expected", &what)],
    ))
}

/// One thing `toml` expected, in `lang`: a literal (in backquotes, or a sign before `OFFSET`)
/// as written, a word or a range of a date's part translated.
fn expected_item(lang: Lang, item: &str) -> Option<String> {
    if let Some(key) = key_of(EXPECTED, item) {
        return Some(t(lang, key).to_string());
    }
    if let Some(key) = key_of(UNITS, item) {
        return Some(t(lang, key).to_string());
    }
    if let Some((unit, range)) = item.split_once(" between ") {
        let (low, high) = range.split_once(" and ")?;
        let unit = t(lang, key_of(UNITS, unit)?);
        return Some(tf(
            lang,
            "data.toml.between",
            &[("unit", &unit), ("low", &low), ("high", &high)],
        ));
    }
    literal(item).then(|| item.to_string())
}

/// A literal `toml` expects: `` `=` ``, `` `-` (MM-DD) `` (a date's separator and its
/// format), `` '`' `` (a backquote), a sign before `OFFSET`.
fn literal(item: &str) -> bool {
    let quoted = |s: &str| s.len() > 1 && s.starts_with('`') && s.ends_with('`');
    let with_format = item.split_once(" (").is_some_and(|(sign, format)| {
        quoted(sign)
            && format.strip_suffix(')').is_some_and(|f| {
                f.chars()
                    .all(|c| c.is_ascii_uppercase() || "-:".contains(c))
            })
    });
    quoted(item) || with_format || matches!(item, "'`'" | "+OFFSET" | "-OFFSET")
}
