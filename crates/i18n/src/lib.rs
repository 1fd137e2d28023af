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
//! `{name}` marks a placeholder filled by [`tf`]. English, French, Portuguese and Spanish are
//! complete (a test checks it, placeholders included); should a text be missing, English stands
//! in. Card names and printed texts are card data, not messages.
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
mod data;

pub use data::{data_error, record_error, why};

/// A language of the interface.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// French (the rulebooks' language).
    Fr,
    /// Portuguese (Brazilian, the words of the Portuguese rulebook).
    Pt,
    /// Spanish (the words of the Spanish rulebook).
    Es,
}

impl Lang {
    /// Every language, in table order.
    pub const ALL: [Lang; 4] = [Lang::En, Lang::Fr, Lang::Pt, Lang::Es];

    /// The language code (`en`, `fr`, `pt`, `es`).
    pub const fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Fr => "fr",
            Lang::Pt => "pt",
            Lang::Es => "es",
        }
    }

    /// The language's name in itself (`Português`), for a choice of languages.
    pub fn own_name(self) -> &'static str {
        t(
            self,
            match self {
                Lang::En => "web.lang.en",
                Lang::Fr => "web.lang.fr",
                Lang::Pt => "web.lang.pt",
                Lang::Es => "web.lang.es",
            },
        )
    }

    /// The language a locale string asks for (`fr_FR.UTF-8` → French, `pt_BR` → Portuguese),
    /// if known.
    pub fn from_locale(locale: &str) -> Option<Lang> {
        let code = locale.split(['_', '-', '.', '@']).next()?;
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
        let lower = s.to_ascii_lowercase();
        Lang::ALL
            .into_iter()
            .find(|l| l.code() == lower)
            .ok_or_else(|| {
                let known: Vec<&str> = Lang::ALL.iter().map(|l| l.code()).collect();
                format!("unknown language `{s}` (known: {})", known.join(", "))
            })
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

/// The message `key` in `lang` with its `{name}` placeholders filled. A placeholder may
/// choose a word by the number it is given: `{n|card|cards}` is `card` for one (in French and
/// Portuguese, for zero or one) and `cards` otherwise, so that no text says "card(s)".
pub fn tf(lang: Lang, key: &str, args: &[(&str, &dyn fmt::Display)]) -> String {
    let values: Vec<(&str, String)> = args.iter().map(|(n, v)| (*n, v.to_string())).collect();
    fill(lang, t(lang, key), |name| {
        values
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.clone())
    })
}

/// `x` written with `decimals` digits after the decimal mark of `lang`: a point in English, a
/// comma in French, Portuguese and Spanish (`20.8` and `20,8`).
pub fn decimal(lang: Lang, x: f64, decimals: usize) -> String {
    let text = format!("{x:.decimals$}");
    match lang {
        Lang::En => text,
        Lang::Fr | Lang::Pt | Lang::Es => text.replace('.', ","),
    }
}

/// The share `x` (0 to 1) as a percentage with `decimals` digits, written as `lang` writes
/// one: `46.0%`, `46,0 %` in French and Spanish (a space before the sign), `46,0%` in
/// Portuguese.
pub fn percent(lang: Lang, x: f64, decimals: usize) -> String {
    let number = decimal(lang, 100.0 * x, decimals);
    match lang {
        Lang::En | Lang::Pt => format!("{number}%"),
        Lang::Fr | Lang::Es => format!("{number} %"),
    }
}

/// Whether `n` takes the singular in `lang` (French and Portuguese: 0 and 1; else only 1).
pub fn singular(lang: Lang, n: i64) -> bool {
    match lang {
        Lang::Fr | Lang::Pt => n == 0 || n == 1,
        Lang::En | Lang::Es => n == 1,
    }
}

/// `text` with each `{name}` replaced by `value(name)` (left as it is when there is none), and
/// each `{name|one|other}` by the word that agrees with the number.
fn fill(lang: Lang, text: &str, value: impl Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}').map(|c| open + c) else {
            break;
        };
        out.push_str(&rest[..open]);
        let inner = &rest[open + 1..close];
        let mut parts = inner.split('|');
        let name = parts.next().unwrap_or_default();
        match (value(name), parts.next(), parts.next()) {
            (Some(v), Some(one), Some(other)) => {
                let n = v.trim().parse::<i64>().unwrap_or(2);
                out.push_str(if singular(lang, n) { one } else { other });
            }
            (Some(v), None, _) => out.push_str(&v),
            _ => out.push_str(&rest[open..=close]),
        }
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
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
pub(crate) fn reason_text(lang: Lang, reason: &game::Reason) -> String {
    reason_with(lang, reason, has)
}

/// [`reason_text`], with the values that are keys of the table told by `is_key`.
fn reason_with(lang: Lang, reason: &game::Reason, is_key: impl Fn(&str) -> bool) -> String {
    let set = starrealms::cards();
    fill(lang, t(lang, &reason.key), |name| {
        let value = reason
            .args
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v)?;
        Some(match set.find(value) {
            Some(c) if name == "card" => cards::name(c, lang).to_string(),
            _ if is_key(value) => t(lang, value).to_string(),
            _ => value.clone(),
        })
    })
}

/// Whether the table holds `key`.
pub fn has(key: &str) -> bool {
    table().contains_key(key)
}

/// Every key, sorted.
pub fn keys() -> impl Iterator<Item = &'static str> {
    table().keys().map(String::as_str)
}

/// The placeholders (`{name}`, and `{name|one|other}` as `name`) of a text, sorted.
pub fn placeholders(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        let inner = &rest[open + 1..open + close];
        out.push(inner.split('|').next().unwrap_or(inner));
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
    fn numbers_take_the_decimal_mark_and_percent_sign_of_the_language() {
        assert_eq!(decimal(Lang::En, 20.84, 1), "20.8");
        assert_eq!(decimal(Lang::Fr, 20.84, 1), "20,8");
        assert_eq!(decimal(Lang::Pt, -0.5, 2), "-0,50");
        assert_eq!(decimal(Lang::Es, 2954.4, 0), "2954");
        assert_eq!(percent(Lang::En, 0.46, 2), "46.00%");
        assert_eq!(percent(Lang::Fr, 0.46, 2), "46,00 %");
        assert_eq!(percent(Lang::Pt, 0.035, 1), "3,5%");
        assert_eq!(percent(Lang::Es, 1.0, 1), "100,0 %");
    }

    #[test]
    fn a_plural_placeholder_agrees_with_its_number_in_each_language() {
        let n = |lang, n: i32| tf(lang, "dec.discard", &[("player", &"p2"), ("n", &n)]);
        assert_eq!(n(Lang::En, 1), "p2 must discard 1 card");
        assert_eq!(n(Lang::En, 2), "p2 must discard 2 cards");
        assert_eq!(n(Lang::En, 0), "p2 must discard 0 cards");
        assert_eq!(n(Lang::Fr, 0), "p2 doit défausser 0 carte");
        assert_eq!(n(Lang::Fr, 3), "p2 doit défausser 3 cartes");
        assert_eq!(n(Lang::Es, 1), "p2 debe descartar 1 carta");
        assert_eq!(n(Lang::Pt, 2), "p2 deve descartar 2 cartas");
        // A placeholder without a value stays as written; the table's texts never say "(s)".
        assert_eq!(fill(Lang::En, "{a} {b|x|y}", |_| None), "{a} {b|x|y}");
        for key in keys() {
            for lang in Lang::ALL {
                assert!(!t(lang, key).contains("(s)"), "{key} in {}", lang.code());
            }
        }
    }

    #[test]
    fn the_rulebooks_words_are_the_only_words_for_their_things() {
        // Each rulebook's word for a thing of the game, and words once written instead of it.
        let others = [
            ("fr", "Influence", ["autorité", "autorite"]),
            ("fr", "Ligne d'Achat", ["rangée", "ligne commerciale"]),
            ("pt", "rodada", ["turno", "turnos"]),
            ("pt", "Linha de Comércio", ["fileira", "fila de comércio"]),
            (
                "es",
                "fila de intercambios",
                ["fila de comercio", "fila comercial"],
            ),
            (
                "es",
                "mazo de intercambios",
                ["mazo de comercio", "baraja de comercio"],
            ),
        ];
        for (key, texts) in table() {
            for (lang, word, wrong) in &others {
                let text = texts[*lang].to_lowercase();
                for w in wrong {
                    assert!(
                        !text.contains(w),
                        "{key} ({lang}): `{w}` where the rulebook says `{word}`"
                    );
                }
            }
        }
    }

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
        assert_eq!(Lang::from_locale("pt_BR.UTF-8"), Some(Lang::Pt));
        assert_eq!(Lang::from_locale("pt_PT"), Some(Lang::Pt));
        assert_eq!(Lang::from_locale("es_ES"), Some(Lang::Es));
        assert_eq!(Lang::from_locale("es_MX.UTF-8"), Some(Lang::Es));
        assert_eq!(Lang::from_locale("es"), Some(Lang::Es));
        assert_eq!(Lang::from_locale("en_GB.UTF-8"), Some(Lang::En));
        assert_eq!(Lang::from_locale("C"), None);
        assert_eq!(Lang::from_locale("C.UTF-8"), None);
        assert_eq!(Lang::from_locale("POSIX"), None);
        assert_eq!(Lang::from_locale("de_DE.UTF-8"), None);
        assert_eq!("FR".parse::<Lang>(), Ok(Lang::Fr));
        assert_eq!("pt".parse::<Lang>(), Ok(Lang::Pt));
        assert_eq!("ES".parse::<Lang>(), Ok(Lang::Es));
        let unknown = "de".parse::<Lang>().unwrap_err();
        assert!(unknown.contains("unknown language"), "{unknown}");
        assert!(unknown.contains("en, fr, pt, es"), "{unknown}");
        for lang in Lang::ALL {
            assert_eq!(lang.code().parse::<Lang>(), Ok(lang));
            assert_eq!(Lang::from_locale(lang.code()), Some(lang));
        }
        assert_eq!(Lang::default(), Lang::En);
    }

    #[test]
    fn each_language_is_named_in_itself() {
        let names: Vec<&str> = Lang::ALL.iter().map(|l| l.own_name()).collect();
        assert_eq!(names, ["English", "Français", "Português", "Español"]);
    }

    #[test]
    fn card_texts_use_the_words_of_the_portuguese_and_spanish_rulebooks() {
        let set = starrealms::cards();
        let id = |name: &str| set.find(name).expect("a base set card");
        let fighter = id("Blob Fighter");
        assert_eq!(
            cards::text(fighter, Lang::Pt),
            "Primária: Ganhe 3 de Combate. Aliado (Blob): Compre uma carta."
        );
        assert_eq!(
            cards::text(fighter, Lang::Es),
            "Primaria: Gana 3 de Combate. Aliado (Blob): Roba una carta."
        );
        assert_eq!(
            cards::text(id("Explorer"), Lang::Pt),
            "Primária: Ganhe 2 de Comércio. Sucatear: Ganhe 2 de Combate."
        );
        assert_eq!(
            cards::text(id("Explorer"), Lang::Es),
            "Primaria: Gana 2 de Comercio. Desechar: Gana 2 de Combate."
        );
        assert_eq!(
            cards::kind(id("Scout"), Lang::Pt),
            "nave sem facção, custo 0"
        );
        assert_eq!(
            cards::kind(id("Scout"), Lang::Es),
            "barco sin facción, coste 0"
        );
        let outpost = cards::kind(id("Trading Post"), Lang::Pt);
        assert!(
            outpost.starts_with("posto avançado 4 Federação Comercial"),
            "{outpost}"
        );
        let outpost = cards::kind(id("Trading Post"), Lang::Es);
        assert!(
            outpost.starts_with("puesto avanzado 4 Federación Comercial"),
            "{outpost}"
        );
        let mech = cards::text(id("Mech World"), Lang::Pt);
        assert!(
            mech.contains("Conta como aliado de todas as facções."),
            "{mech}"
        );
        let cruiser = cards::text(id("Battlecruiser"), Lang::Es);
        assert!(
            cruiser.contains("Puedes destruir la base objetivo"),
            "{cruiser}"
        );
        let cruiser = cards::text(id("Battlecruiser"), Lang::Pt);
        assert!(
            cruiser.contains("Você pode destruir uma base alvo"),
            "{cruiser}"
        );
        assert_eq!(t(Lang::Pt, "authority"), "Autoridade");
        assert_eq!(t(Lang::Es, "authority"), "Autoridad");
        assert_eq!(t(Lang::Pt, "trade_row"), "Linha de Comércio");
        assert_eq!(t(Lang::Es, "outpost"), "puesto avanzado");
    }
}
