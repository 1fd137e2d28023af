// The interface's words: every text comes from the project's one translation table, served
// with the card names and texts at /api/texts.

const LANG_KEY = "realms-lang";

let texts = { lang: "en", languages: ["en", "fr"], messages: {}, cards: {} };

/** The language to use: the one chosen before, else the browser's. */
export function preferredLang() {
  const saved = localStorage.getItem(LANG_KEY);
  if (saved) return saved;
  return (navigator.language || "en").toLowerCase().startsWith("fr") ? "fr" : "en";
}

/** Loads the texts of `lang` and remembers the choice. */
export async function loadTexts(lang) {
  const response = await fetch("/api/texts?lang=" + encodeURIComponent(lang));
  if (!response.ok) throw new Error("texts: HTTP " + response.status);
  texts = await response.json();
  localStorage.setItem(LANG_KEY, texts.lang);
  document.documentElement.lang = texts.lang;
  return texts;
}

export function currentLang() {
  return texts.lang;
}

export function languages() {
  return texts.languages;
}

/** The message `key`, its `{name}` placeholders filled from `vars`. */
export function t(key, vars) {
  const text = texts.messages[key];
  if (text === undefined) return key;
  if (!vars) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in vars ? String(vars[name]) : whole));
}

/** A Star Realms card's texts (`name`, `faction`, `kind`, `cost`, `defense`, `text` …). */
export function card(id) {
  return texts.cards[id] || { name: id, faction: null, kind: "ship", cost: 0, defense: null, line: "", text: "" };
}

/** A sticker sheet's texts (`name`, `side`, `side_name`, `rows`: `{cost, ship, base}`). */
export function sheet(id) {
  return (texts.sheets || {})[id] || { name: id, side: null, side_name: "", rows: [] };
}

/** Whether `id` is a Star Realms card of the texts. */
export function hasCard(id) {
  return Boolean(texts.cards[id]);
}

export function cardName(id) {
  return card(id).name;
}

/** Translates the `data-t` attributes below `root`. */
export function translateStatic(root) {
  for (const el of root.querySelectorAll("[data-t]")) el.textContent = t(el.getAttribute("data-t"));
}
