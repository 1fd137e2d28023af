// @ts-check
// Keyboard play at the Star Realms table: each key presses a control the table shows (so the
// keys never send an action the mouse could not), and `?` lists them.
//
//   A  play all            E  end the turn (then Y (O, S) / N answer the confirmation)
//   1–9  buy the trade-row card of that slot, or, in a decision, choose its option
//   0  buy an Explorer      K  attack a player      H  the first card of the hand
//   ?  these keys           Esc  closes the help, the zoom, or finishes the motion

import { h } from "./dom.js";
import { t } from "./i18n.js";

/** The keys and what they do, as the help lists them. */
const KEYS = [
  ["A", "web.keys.play_all"],
  ["E", "web.keys.end"],
  ["1–9", "web.keys.number"],
  ["0", "web.keys.explorer"],
  ["K", "web.keys.attack"],
  ["H", "web.keys.hand"],
  ["Tab", "web.keys.tab"],
  ["Z", "web.keys.zoom"],
  ["?", "web.keys.help"],
];

/** @type {HTMLElement | null} */
let help = null;

/**
 * Shows or hides the list of keys.
 * @param {boolean} [show]
 */
export function toggleHelp(show = !help) {
  if (help) {
    help.remove();
    help = null;
  }
  if (!show) return;
  help = h("aside", { class: "keys-help", "data-testid": "keys-help", role: "dialog", "aria-label": t("web.keys.title") },
    h("h2", null, t("web.keys.title")),
    h("dl", null, KEYS.map(([key, text]) => [h("dt", null, h("kbd", null, key)), h("dd", null, t(text))])),
    h("button", { class: "btn small", "data-testid": "keys-help-close", onclick: () => toggleHelp(false) }, t("web.keys.close")));
  document.body.append(help);
}

/**
 * Clicks `el` if it is there and enabled; whether it did.
 * @param {Element | null | undefined} el
 */
function press(el) {
  if (!el || /** @type {HTMLButtonElement} */ (el).disabled) return false;
  /** @type {HTMLElement} */ (el).click();
  return true;
}

/**
 * What a key does at `table` (the Star Realms table element); whether it did something.
 * @param {string} key
 * @param {Element} table
 */
function keyAtTable(key, table) {
  const q = (/** @type {string} */ selector) => table.querySelector(selector);
  const confirm = q('[data-testid="end-confirm"]');
  if (confirm) {
    // Yes: Y, or the word's first letter in French (oui), Portuguese and Spanish (sim, sí).
    if (["y", "o", "s", "e"].includes(key)) return press(q('[data-testid="end-confirm-yes"]'));
    if (key === "n") return press(q('[data-testid="end-confirm-no"]'));
  }
  const dialog = q('[data-testid="dialog"]');
  if (/^[1-9]$/.test(key)) {
    const n = Number(key) - 1;
    if (dialog) return press(dialog.querySelectorAll(".options [data-action]")[n]);
    return press(q(`[data-testid="trade-row"] [data-slot="${n}"][data-action]`));
  }
  switch (key) {
    case "0":
      return press(q('[data-testid="trade-row"] [data-card="explorer"][data-action]'));
    case "a":
      return press(q('[data-testid="play-all"]'));
    case "e":
      return press(q('[data-testid="end-turn"]'));
    case "k":
      return press([...table.querySelectorAll('[data-action^="attack p"]')]
        .find((el) => !/ base /.test(/** @type {string} */ (el.getAttribute("data-action")))));
    case "h": {
      const first = /** @type {HTMLElement | null} */ (q('[data-testid="hand"] [data-action]') || q('[data-testid="hand"] .card'));
      if (!first) return false;
      first.setAttribute("tabindex", first.getAttribute("tabindex") || "-1");
      first.focus();
      return true;
    }
    default:
      return false;
  }
}

/** @param {KeyboardEvent} e */
function onKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const target = /** @type {Element|null} */ (e.target instanceof Element ? e.target : null);
  if (target && target.closest("input, select, textarea, [contenteditable]")) return;
  if (e.key === "Escape" && help) {
    toggleHelp(false);
    return;
  }
  const table = document.querySelector('.table.sr[data-testid="table"]');
  if (!table || document.querySelector('[data-testid="replay-bar"]')) return;
  if (e.key === "?") {
    toggleHelp();
    e.preventDefault();
    return;
  }
  if (keyAtTable(e.key.toLowerCase(), table)) {
    e.preventDefault();
    // From the first key on, the controls show their keys.
    document.body.classList.add("kbd");
  }
}

/** Listens to the keys while a game page is open; returns what stops it. */
export function installKeys() {
  document.addEventListener("keydown", onKey);
  return () => {
    document.removeEventListener("keydown", onKey);
    toggleHelp(false);
  };
}
