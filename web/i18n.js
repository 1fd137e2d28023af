// @ts-check
// The interface's words: every text comes from the project's one translation table, served
// with the card names and texts at /api/texts.

const LANG_KEY = "realms-lang";

const LANGS_KEY = "realms-languages";

/** @type {import("./types.js").Texts} */
let texts = { lang: "en", languages: [], language_names: {}, messages: {}, cards: {} };

/** The languages the server knows, as it last listed them (before any answer: none known). */
function knownLangs() {
  try {
    const known = JSON.parse(localStorage.getItem(LANGS_KEY) || "[]");
    if (Array.isArray(known)) return known;
  } catch (e) {
    // A damaged list is read as none.
  }
  return [];
}

/** The language to use: the one chosen before, else the browser's (see `browserLang`). */
export function preferredLang() {
  return localStorage.getItem(LANG_KEY) || browserLang();
}

/**
 * The first of the browser's languages that the server knows (`pt-BR` → `pt`, `es-419` → `es`),
 * else English. Before the server has listed its languages, the browser's first one is asked for.
 */
export function browserLang() {
  const wanted = (navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"])
    .map((l) => String(l).toLowerCase().split(/[-_]/)[0]);
  const known = knownLangs();
  if (!known.length) return wanted[0] || "en";
  return wanted.find((l) => known.includes(l)) || "en";
}

/**
 * Loads the texts of `lang` and remembers the choice.
 * @param {string} lang
 * @returns {Promise<import("./types.js").Texts>}
 */
export async function loadTexts(lang) {
  const response = await fetch("/api/texts?lang=" + encodeURIComponent(lang));
  if (!response.ok) throw new Error("texts: HTTP " + response.status);
  texts = await response.json();
  localStorage.setItem(LANG_KEY, texts.lang);
  localStorage.setItem(LANGS_KEY, JSON.stringify(texts.languages));
  document.documentElement.lang = texts.lang;
  return texts;
}

export function currentLang() {
  return texts.lang;
}

/** The languages the server offers (`Lang::ALL`). */
export function languages() {
  return texts.languages;
}

/**
 * A language's name in itself (`Português`), as the server gives it.
 * @param {string} code
 */
export function languageName(code) {
  return (texts.language_names || {})[code] || code;
}

/**
 * Whether the number `n` takes the singular in the current language (French, Portuguese: 0 and 1).
 * @param {number} n
 */
export function singular(n) {
  return ["fr", "pt"].includes(texts.lang) ? n === 0 || n === 1 : n === 1;
}

/**
 * The message `key`, its `{name}` placeholders filled from `vars`; `{n|card|cards}` is the word
 * that agrees with the number `vars.n` (as the server's table writes plurals).
 * @param {string} key
 * @param {Record<string, unknown>} [vars]
 * @returns {string}
 */
export function t(key, vars) {
  const text = texts.messages[key];
  if (text === undefined) return key;
  if (!vars) return text;
  return text.replace(/\{(\w+)(?:\|([^|{}]*)\|([^|{}]*))?\}/g, (whole, name, one, other) => {
    if (!(name in vars)) return whole;
    if (one === undefined) return String(vars[name]);
    return singular(Number(vars[name])) ? one : other;
  });
}

/**
 * A Star Realms card's texts (`name`, `faction`, `kind`, `cost`, `defense`, `text` …).
 * @param {string} id
 * @returns {import("./types.js").CardText}
 */
export function card(id) {
  return texts.cards[id] || { name: id, faction: null, kind: "ship", cost: 0, defense: null, line: "", text: "" };
}

/**
 * A sticker sheet's texts (`name`, `side`, `side_name`, `rows`: `{cost, ship, base}`).
 * @param {string} id
 * @returns {import("./types.js").SheetText}
 */
export function sheet(id) {
  return (texts.sheets || {})[id] || { name: id, side: null, side_name: "", rows: [] };
}

/**
 * Whether `id` is a Star Realms card of the texts.
 * @param {string | null} id
 */
export function hasCard(id) {
  return Boolean(id && texts.cards[id]);
}

/** @param {string} id */
export function cardName(id) {
  return card(id).name;
}

/**
 * Translates the `data-t` attributes below `root`.
 * @param {ParentNode} root
 */
export function translateStatic(root) {
  for (const el of root.querySelectorAll("[data-t]")) el.textContent = t(/** @type {string} */ (el.getAttribute("data-t")));
}
