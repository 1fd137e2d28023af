//! The browser interface: the static files of `web/`, embedded in the binary at compile time,
//! and the texts it shows (`/api/texts`), all from the one translation table.

use std::path::{Component, Path, PathBuf};

use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use i18n::Lang;
use serde_json::{Map, Value, json};

use crate::protocol::{ApiError, ErrorCode};

/// The files of `web/`, in the binary (in every build profile).
#[derive(rust_embed::Embed)]
#[folder = "../../web/"]
struct Assets;

/// What a browser may do with the interface's pages, for a server open to the internet: load
/// scripts, styles and everything else from this server only (no inline script or style, which
/// the interface has none of), open WebSockets to this server only (`'self'` takes in its `ws:`
/// and `wss:` in today's browsers: a script injected by some future bug could not send the seat
/// tokens elsewhere), be framed by no other site (a page of another site cannot dress the table
/// up to make a player click), and name no page of the interface to the sites its links lead to.
const POLICY: &str = "default-src 'self'; img-src 'self' data:; connect-src 'self'; \
                      object-src 'none'; base-uri 'none'; form-action 'self'; \
                      frame-ancestors 'none'";

/// Adds the headers that keep a browser from reading the server's files as anything but what
/// they are, and the page's security policy.
pub(crate) fn guard(headers: &mut HeaderMap) {
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(POLICY),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    // Browsers older than `frame-ancestors`.
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
}

/// The content type of a file, by its extension; text is UTF-8.
fn content_type(path: &str) -> String {
    let mime = mime_guess::from_path(path).first_or_octet_stream();
    if mime.type_() == mime_guess::mime::TEXT || mime.subtype() == mime_guess::mime::JAVASCRIPT {
        format!("{}; charset=utf-8", mime.essence_str())
    } else {
        mime.essence_str().to_string()
    }
}

/// The file at `path` (`""` is `index.html`): from `dir` when the server was told to serve a
/// folder (to work on the interface without rebuilding), else from the binary.
pub(crate) async fn asset(path: &str, dir: Option<&Path>) -> Result<Response, ApiError> {
    let path = if path.is_empty() { "index.html" } else { path };
    let missing = || ApiError::new(ErrorCode::NotFound, format!("no file /{path}"));
    let bytes: Vec<u8> = match dir {
        Some(dir) => {
            let relative = PathBuf::from(path);
            // Only plain names below the folder: no `..`, no absolute path.
            if !relative
                .components()
                .all(|c| matches!(c, Component::Normal(_)))
            {
                return Err(missing());
            }
            tokio::fs::read(dir.join(relative))
                .await
                .map_err(|_| missing())?
        }
        None => Assets::get(path).ok_or_else(missing)?.data.into_owned(),
    };
    let mut response = (StatusCode::OK, bytes).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_str(&content_type(path)).expect("a content type is a header value"),
    );
    // A new binary may bring new files: browsers check again each time.
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    guard(headers);
    Ok(response)
}

/// Everything the interface writes, in language `lang` ([`texts_of`]), as JSON: written once a
/// language for the server's life (the same for every page that asks: some 230 KB, which took
/// 5 ms to write each time).
pub(crate) fn texts_json(lang: &str) -> Result<axum::body::Bytes, ApiError> {
    static WRITTEN: [std::sync::OnceLock<axum::body::Bytes>; Lang::ALL.len()] =
        [const { std::sync::OnceLock::new() }; Lang::ALL.len()];
    let lang = language(lang)?;
    let at = Lang::ALL.iter().position(|&l| l == lang).unwrap_or(0);
    Ok(WRITTEN[at]
        .get_or_init(|| {
            serde_json::to_vec(&texts_of(lang))
                .expect("texts serialize")
                .into()
        })
        .clone())
}

/// The language of code `lang`, or a `bad_request` naming those known.
fn language(lang: &str) -> Result<Lang, ApiError> {
    lang.parse().map_err(|_| {
        ApiError::new(
            ErrorCode::BadRequest,
            format!(
                "unknown language `{lang}` (known: {})",
                Lang::ALL.map(Lang::code).join(", ")
            ),
        )
    })
}

/// Everything the interface writes, in `lang`: every message of the translation table, and
/// each Star Realms card of the set in play (name, faction, kind, cost, defense, ability text).
fn texts_of(lang: Lang) -> Value {
    // The command line's help, and why a file is refused (the command line reads files, the
    // browser none), are no business of the browser's.
    let messages: Map<String, Value> = i18n::keys()
        .filter(|k| !["cli.", "data.", "file."].iter().any(|p| k.starts_with(p)))
        .map(|k| (k.to_string(), Value::from(i18n::t(lang, k))))
        .collect();
    let set = starrealms::cards();
    let cards: Map<String, Value> = set
        .iter()
        .map(|(id, def)| {
            let spec = &def.spec;
            let factions = def.member_factions();
            let names: Vec<&str> = factions
                .iter()
                .map(|&f| i18n::cards::faction(f, lang))
                .collect();
            let upgrade = def.upgrade.map(|u| {
                let sheet = &set.sheets[u.sheet as usize];
                json!({
                    "of": set.def(u.of).id(),
                    "sheet": sheet.id,
                    "sheet_name": sheet.name.get(lang.code()),
                    "row": u.row + 1,
                })
            });
            let card = json!({
                "name": i18n::cards::name(id, lang),
                "faction": spec.faction,
                "factions": factions,
                "faction_name": (!names.is_empty()).then(|| names.join(" / ")),
                "ally_faction_name": spec.faction.map(|f| i18n::cards::faction(f, lang)),
                "upgrade": upgrade,
                "set": set.sets[def.set as usize].name,
                "kind": def.kind(),
                "cost": def.cost(),
                "defense": spec.defense,
                "line": i18n::cards::kind(id, lang),
                "text": i18n::cards::text(id, lang),
            });
            (def.id().to_string(), card)
        })
        .collect();
    let sheets: Map<String, Value> = set
        .sheets
        .iter()
        .map(|sheet| {
            let rows: Vec<Value> = sheet
                .row
                .iter()
                .map(|r| {
                    json!({
                        "cost": r.cost,
                        "ship": r.ship.as_ref().map(|s| i18n::cards::sticker(s, lang)),
                        "base": r.base.as_ref().map(|s| i18n::cards::sticker(s, lang)),
                    })
                })
                .collect();
            let value = json!({
                "name": sheet.name.get(lang.code()),
                "side": sheet.side,
                "side_name": i18n::cards::faction(sheet.side, lang),
                "rows": rows,
            });
            (sheet.id.clone(), value)
        })
        .collect();
    json!({
        "lang": lang.code(),
        "languages": Lang::ALL.map(Lang::code),
        "language_names": Lang::ALL
            .iter()
            .map(|l| (l.code().to_string(), Value::from(l.own_name())))
            .collect::<Map<String, Value>>(),
        "messages": messages,
        "cards": cards,
        "sheets": sheets,
    })
}
