// @ts-check
// Page-wide pieces: toasts, the connection badge, error messages in words.

import { h } from "./dom.js";
import { t, cardName } from "./i18n.js";

/** @type {Record<string, string>} */
const ERRORS = {
  network: "web.error.network",
  not_your_turn: "web.error.not_your_turn",
  illegal_action: "web.error.illegal_action",
  game_over: "web.error.game_over",
  rate_limited: "web.error.rate_limited",
  seat_taken: "web.error.seat_taken",
  not_human: "web.error.not_human",
  bad_token: "web.error.bad_token",
  internal: "web.error.internal",
  shutting_down: "web.error.shutting_down",
  not_a_seat: "web.error.not_a_seat",
  too_many_seats: "web.error.too_many_seats",
  too_many_bot_games: "web.error.too_many_bot_games",
  seat_expired: "web.error.seat_expired",
  seat_reserved: "web.error.seat_reserved",
  too_many_connections: "web.error.too_many_connections",
  damaged_game: "web.error.damaged_game",
  unknown_campaign: "web.error.unknown_campaign",
  campaign_refused: "web.error.campaign_refused",
  waiting_for_players: "web.error.waiting_for_players",
};

/**
 * A server error in words: the game's reason for a refused action when it gives one
 * (`reason`: a key of the translation table and its values, card names shown in the
 * language), else ours for the code, else the server's (English) message.
 * @param {string} code
 * @param {string} [message]
 * @param {import("./types.js").Reason} [reason]
 */
export function errorText(code, message, reason) {
  if (reason && reason.key && t(reason.key) !== reason.key) {
    /** @type {Record<string, string>} */
    const args = {};
    for (const [name, value] of Object.entries(reason.args || {})) {
      // Card names in the language; values that are keys of the table (`refusal.what.row_slot`) as their text.
      args[name] = name === "card" ? cardName(value) : t(value);
    }
    return t(reason.key, args);
  }
  return ERRORS[code] ? t(ERRORS[code]) : t("web.error.other", { message: message || code });
}

/**
 * Shows a message for a few seconds.
 * @param {string} message
 * @param {"error" | "info"} [kind]
 */
export function toast(message, kind) {
  const box = /** @type {HTMLElement} */ (document.getElementById("toasts"));
  const el = h("div", { class: "toast " + (kind || "error"), "data-testid": kind === "info" ? "info-toast" : "error-toast", role: "alert" }, message);
  box.appendChild(el);
  setTimeout(() => el.classList.add("leaving"), 3500);
  setTimeout(() => el.remove(), 4000);
}

/**
 * The badge that says the connection is lost and being retried.
 * @param {boolean} online
 */
export function setOnline(online) {
  const badge = document.getElementById("offline");
  if (badge) badge.hidden = online;
}

/**
 * Says `text` to a screen reader (a polite live region that stays on the page while the table
 * is drawn again around it).
 * @param {string} text
 */
export function announce(text) {
  let region = document.getElementById("announcer");
  if (!region) {
    region = h("div", { id: "announcer", class: "sr-only", role: "status", "aria-live": "polite" });
    document.body.appendChild(region);
  }
  region.textContent = text;
}
