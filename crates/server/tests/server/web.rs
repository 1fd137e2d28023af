//! The browser interface: its files (built in, or from a folder) and its texts.

use i18n::Lang;
use serde_json::Value;
use server::Options;
use store::SqliteStore;

use crate::common;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_built_in_interface_and_its_texts_are_served() {
    let server = common::start(SqliteStore::open(":memory:").unwrap(), common::options()).await;
    let addr = server.addr;

    let (status, kind, home) = common::get(addr, "/").await;
    assert_eq!((status, kind.as_str()), (200, "text/html; charset=utf-8"));
    assert!(home.to_lowercase().starts_with("<!doctype html>"));
    assert_eq!(common::get(addr, "/index.html").await.2, home);
    // Browsers run a module only if it comes as JavaScript.
    let (status, kind, _) = common::get(addr, "/app.js").await;
    assert_eq!(
        (status, kind.as_str()),
        (200, "text/javascript; charset=utf-8")
    );
    let (status, _, missing) = common::get(addr, "/nothing-here.js").await;
    let missing: Value = serde_json::from_str(&missing).unwrap();
    assert_eq!((status, missing["code"].as_str()), (404, Some("not_found")));
    let (status, answer) = common::http(addr, "GET", "/api/nothing", None).await;
    assert_eq!((status, answer["code"].as_str()), (404, Some("not_found")));

    for (query, lang) in [
        ("", Lang::En),
        ("?lang=en", Lang::En),
        ("?lang=fr", Lang::Fr),
        ("?lang=pt", Lang::Pt),
        ("?lang=es", Lang::Es),
    ] {
        let (status, texts) = common::http(addr, "GET", &format!("/api/texts{query}"), None).await;
        assert_eq!(status, 200, "{query}");
        assert_eq!(texts["lang"], lang.code());
        // Written once, the same each time, as JSON.
        let (_, again) = common::http(addr, "GET", &format!("/api/texts{query}"), None).await;
        assert_eq!(again, texts, "{query}");
        let (_, headers) = common::get_headers(addr, &format!("/api/texts{query}")).await;
        assert!(
            headers
                .iter()
                .any(|(n, v)| n == "content-type" && v == "application/json"),
            "{headers:?}"
        );
        // Every language is offered, each by its own name, whatever the language asked for.
        assert_eq!(
            texts["languages"],
            serde_json::json!(Lang::ALL.map(Lang::code)),
            "{query}"
        );
        assert_eq!(
            texts["language_names"],
            serde_json::json!({"en": "English", "fr": "Français", "pt": "Português", "es": "Español"})
        );
        let messages = texts["messages"].as_object().unwrap();
        // Every message but the command line's help and its words about files.
        let keys: Vec<&str> = i18n::keys()
            .filter(|k| !["cli.", "data.", "file."].iter().any(|p| k.starts_with(p)))
            .collect();
        assert!(keys.len() < i18n::keys().count());
        assert_eq!(messages.len(), keys.len());
        for key in keys {
            assert_eq!(messages[key], i18n::t(lang, key), "{key}");
        }
        let set = starrealms::cards();
        let cards = texts["cards"].as_object().unwrap();
        assert_eq!(cards.len(), set.len());
        for (id, def) in set.iter() {
            let card = &cards[def.id()];
            assert_eq!(card["name"], def.name(lang.code()));
            assert_eq!(card["cost"], def.cost());
            assert_eq!(card["text"], i18n::cards::text(id, lang));
            assert_eq!(card["kind"], serde_json::to_value(def.kind()).unwrap());
        }
    }
    // The Portuguese and Spanish texts use their rulebooks' words and card names.
    let (_, pt) = common::http(addr, "GET", "/api/texts?lang=pt", None).await;
    assert_eq!(pt["messages"]["authority"], "Autoridade");
    assert_eq!(pt["messages"]["trade_row"], "Linha de Comércio");
    assert_eq!(pt["cards"]["scout"]["name"], "Batedor");
    assert_eq!(pt["cards"]["cutter"]["name"], "Cutter");
    assert_eq!(
        pt["cards"]["cutter"]["text"],
        "Primária: Ganhe 4 de Autoridade. Ganhe 2 de Comércio. Aliado (Federação Comercial): Ganhe 4 de Combate."
    );
    let (_, es) = common::http(addr, "GET", "/api/texts?lang=es", None).await;
    assert_eq!(es["messages"]["authority"], "Autoridad");
    assert_eq!(es["cards"]["explorer"]["name"], "Explorador");
    assert_eq!(es["cards"]["barter_world"]["name"], "Trueque Mundial");
    assert_eq!(es["cards"]["scout"]["name"], "Scout");
    assert_eq!(
        es["cards"]["trading_post"]["line"],
        "puesto avanzado 4 Federación Comercial, coste 3"
    );
    let (status, answer) = common::http(addr, "GET", "/api/texts?lang=xx", None).await;
    assert_eq!(
        (status, answer["code"].as_str()),
        (400, Some("bad_request"))
    );
    assert!(
        answer["message"]
            .as_str()
            .unwrap()
            .contains("en, fr, pt, es")
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_interface_comes_with_its_security_policy() {
    let server = common::start(SqliteStore::open(":memory:").unwrap(), common::options()).await;
    for path in ["/", "/app.js", "/style.css", "/protocol.md"] {
        let (status, headers) = common::get_headers(server.addr, path).await;
        assert_eq!(status, 200, "{path}");
        let header = |name: &str| {
            let values: Vec<&str> = headers
                .iter()
                .filter(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
                .collect();
            assert_eq!(values.len(), 1, "{path}: one {name}: {headers:?}");
            values[0].to_string()
        };
        assert_eq!(header("x-content-type-options"), "nosniff", "{path}");
        assert_eq!(header("x-frame-options"), "DENY", "{path}");
        assert_eq!(header("referrer-policy"), "no-referrer", "{path}");
        let policy = header("content-security-policy");
        let directives: Vec<&str> = policy.split(';').map(str::trim).collect();
        // Scripts and styles from the server only, no inline ones; framed by no site.
        for directive in [
            "default-src 'self'",
            "object-src 'none'",
            "base-uri 'none'",
            "frame-ancestors 'none'",
            // Requests and WebSockets to this server only, no other host.
            "connect-src 'self'",
        ] {
            assert!(directives.contains(&directive), "{path}: {policy}");
        }
        assert!(
            !policy.contains("unsafe-inline") && !policy.contains("unsafe-eval"),
            "{path}: {policy}"
        );
        assert!(
            directives
                .iter()
                .all(|d| !d.starts_with("script-src") && !d.starts_with("style-src")),
            "{path}: scripts and styles follow default-src: {policy}"
        );
    }
    server.stop().await;
}

/// The interface's scripts set no inline style and run no inline code, which its security
/// policy would refuse: no `style` attribute written, no `eval`, no handler in an attribute.
#[test]
fn the_interface_needs_nothing_its_policy_refuses() {
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web");
    let mut read = 0;
    for entry in std::fs::read_dir(&folder).unwrap() {
        let path = entry.unwrap().path();
        let Some(kind) = path.extension().and_then(|e| e.to_str()) else {
            continue;
        };
        if !matches!(kind, "js" | "html") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        read += 1;
        for refused in [
            "style:",
            "style=",
            "setAttribute(\"style\"",
            "eval(",
            "new Function",
            "javascript:",
            " onclick=",
            "<script>",
            "<style",
        ] {
            assert!(
                !text.contains(refused),
                "{}: `{refused}` needs what the page's policy refuses",
                path.display()
            );
        }
    }
    assert!(read > 10, "the interface's files: {read}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_folder_given_is_served_live_and_nothing_outside_it() {
    let root = tempfile::tempdir().unwrap();
    let web = root.path().join("web");
    std::fs::create_dir(&web).unwrap();
    std::fs::write(root.path().join("secret.txt"), "do not serve").unwrap();
    std::fs::write(web.join("index.html"), "<!doctype html>first").unwrap();
    let options = Options {
        web_dir: Some(web.clone()),
        ..common::options()
    };
    let server = common::start(SqliteStore::open(":memory:").unwrap(), options).await;
    let addr = server.addr;

    assert_eq!(common::get(addr, "/").await.2, "<!doctype html>first");
    std::fs::write(web.join("index.html"), "<!doctype html>second").unwrap();
    std::fs::create_dir(web.join("parts")).unwrap();
    std::fs::write(web.join("parts/a.css"), "body {}").unwrap();
    assert_eq!(common::get(addr, "/").await.2, "<!doctype html>second");
    let (status, kind, css) = common::get(addr, "/parts/a.css").await;
    assert_eq!(
        (status, kind.as_str(), css.as_str()),
        (200, "text/css; charset=utf-8", "body {}")
    );
    for path in [
        "/../secret.txt",
        "/%2e%2e/secret.txt",
        "/parts/%2e%2e/%2e%2e/secret.txt",
        "/%2fetc%2fpasswd",
    ] {
        let (status, _, body) = common::get(addr, path).await;
        assert_eq!(status, 404, "{path}");
        assert!(!body.contains("do not serve"), "{path}");
    }
    server.stop().await;
}
