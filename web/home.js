// @ts-check
// The home page: a quick game against the AI, a new game in any format (online or hot seat),
// the lobby of open games, the games to watch, and the games this browser holds a seat in.

import { h, fill } from "./dom.js";
import { t } from "./i18n.js";
import { api, saveToken, heldGames, tokensOf, forgetGame } from "./api.js";
import { toast, errorText } from "./ui.js";
import { playerWord } from "./game.js";
import { campaignPanel } from "./campaign.js";

const LEVELS = ["easy", "medium", "hard", "expert"];
const SEAT_CHOICES = ["human", "random", "easy", "medium", "hard", "expert"];

const FORMATS = [
  { value: "standard", key: "web.format.standard", seats: [2] },
  { value: "free_for_all", key: "web.format.free_for_all", seats: [3, 4, 5, 6] },
  { value: "hunter", key: "web.format.hunter", seats: [3, 4, 5, 6] },
  { value: "hunter_first_blood", key: "web.format.hunter_first_blood", seats: [3, 4, 5, 6] },
  { value: "hydra", key: "web.format.hydra", seats: [4, 6] },
  { value: "emperor", key: "web.format.emperor", seats: [6] },
  { value: "raid", key: "web.format.raid", seats: [3, 4, 5, 6] },
];
const EDITIONS = [
  { value: "rise_of_empire", key: "web.edition.rise_of_empire" },
  { value: "classic", key: "web.edition.classic" },
];

/** The card sets a Star Realms game may be dealt from (the *Rise of Empire* pack is ours). */
const SETS = [
  { value: "base", key: "web.sets.base" },
  { value: "rise_of_empire", key: "web.sets.rise_of_empire" },
  { value: "base,rise_of_empire", key: "web.sets.both" },
  { value: "colony_wars", key: "web.sets.colony_wars" },
  { value: "base,colony_wars", key: "web.sets.base_colony_wars" },
  { value: "frontiers", key: "web.sets.frontiers" },
  { value: "base,frontiers", key: "web.sets.base_frontiers" },
  { value: "base,colony_wars,frontiers", key: "web.sets.all_three" },
];
const VARIANTS = [
  { value: "standard", key: "web.variant.standard" },
  { value: "incolore", key: "web.variant.incolore" },
  { value: "30pv", key: "web.variant.thirty_life" },
];
const GAMES = [
  { value: "starrealms", key: "web.game.starrealms" },
  { value: "cosmique", key: "web.game.cosmique" },
];

/** @param {string} value */
export function formatWord(value) {
  const f = FORMATS.find((x) => x.value === value);
  return f ? t(f.key) : value;
}

/** @param {string} value */
function variantWord(value) {
  const v = VARIANTS.find((x) => x.value === value);
  return v ? t(v.key) : value;
}

/**
 * A game in a few words: `Star Realms · Hydra · 4 seats`.
 * @param {import("./types.js").Summary} summary
 */
export function gameWords(summary) {
  const c = summary.config || {};
  const parts = [t(summary.game === "cosmique" ? "web.game.cosmique" : "web.game.starrealms")];
  if (summary.game === "starrealms") {
    parts.push(formatWord(c.format));
    if (c.edition === "classic") parts.push(t("web.edition.classic"));
    if (c.sets && c.sets.includes("rise_of_empire")) parts.push(t("web.sets.rise_of_empire"));
    if (c.sets && c.sets.includes("colony_wars")) parts.push(t("web.sets.colony_wars"));
    if (c.sets && c.sets.includes("frontiers")) parts.push(t("web.sets.frontiers"));
  } else if (c.variant) {
    parts.push(variantWord(c.variant));
  }
  parts.push(t("web.home.seats_count", { n: summary.seats.length }));
  return parts.join(" · ");
}

/**
 * The role of seat `i` in a format, for the seat list of the form.
 * @param {string} format
 * @param {number} i
 * @param {number} n
 */
function roleWord(format, i, n) {
  if (format === "emperor") return t(i % 3 === 1 ? "role.emperor" : "role.admiral");
  if (format === "raid") return t(i === 0 ? "role.boss" : "role.soldier");
  if (format === "hydra") return t(i < n / 2 ? "role.team_a" : "role.team_b");
  return null;
}

/**
 * @param {import("./types.js").Attrs<HTMLSelectElement>} attrs
 * @param {{value: string, label: string}[]} options
 * @param {string} value
 */
function select(attrs, options, value) {
  return h("select", Object.assign({ value }, attrs), options.map((o) => h("option", { value: o.value }, o.label)));
}

/**
 * @param {string} label
 * @param {HTMLElement} control
 * @param {string} [extra]
 */
function field(label, control, extra) {
  return h("label", { class: "field" + (extra ? " " + extra : "") }, h("span", { class: "field-label" }, label), control);
}

/**
 * Creates a game, takes the seats this page plays (`null`: every human seat of the new game),
 * and opens it.
 * @param {import("./types.js").NewGame} request
 * @param {string[] | null} seats
 */
async function startGame(request, seats) {
  const summary = await api.create(request);
  const takeSeats = seats ?? summary.seats.filter((s) => s.player === "human").map((s) => s.seat);
  for (const seat of takeSeats) {
    const joined = await api.join(summary.id, seat);
    saveToken(summary.id, joined.seat, joined.token);
  }
  location.hash = takeSeats.length ? "#/game/" + summary.id : "#/watch/" + summary.id;
}

function quickPanel() {
  const level = select({ "data-testid": "quick-level", id: "quick-level" }, LEVELS.map((l) => ({ value: l, label: levelWord(l) })), "medium");
  const first = select({ "data-testid": "quick-first", id: "quick-first" }, [
    { value: "random", label: t("web.home.first_random") },
    { value: "me", label: t("web.home.first_me") },
    { value: "ai", label: t("web.home.first_ai") },
  ], "random");
  const start = h("button", {
    class: "btn primary big",
    "data-testid": "quick-start",
    onclick: async () => {
      start.disabled = true;
      /** @type {import("./types.js").NewGame} */
      const request = { game: "starrealms", format: "standard", seats: ["human", level.value] };
      // The server seats the chosen first player where the deal's first player sits.
      if (first.value !== "random") request.first = first.value === "me" ? 0 : 1;
      try {
        await startGame(request, null);
      } catch (/** @type {any} */ e) {
        toast(errorText(e.code, e.message));
        start.disabled = false;
      }
    },
  }, t("web.home.quick_start"));
  return h("section", { class: "panel quick" },
    h("h2", null, t("web.home.quick_title")),
    h("p", { class: "muted" }, t("web.home.quick_text")),
    h("div", { class: "fields" },
      field(t("web.home.level"), level),
      field(t("web.home.who_first"), first)),
    start);
}

/** @param {string} level */
function levelWord(level) {
  return playerWord(level);
}

function createPanel() {
  /** @type {{game: import("./types.js").GameKind, format: string, edition: string, sets: string, sheets: boolean, variant: string, count: number, seats: string[], hotseat?: boolean}} */
  const state = { game: "starrealms", format: "standard", edition: "rise_of_empire", sets: "base", sheets: true, variant: "standard", count: 2, seats: ["human", "medium"] };
  const form = h("form", { class: "panel create", onsubmit: (e) => submit(e) });
  const seatWords = SEAT_CHOICES.map((v) => ({ value: v, label: v === "human" ? t("web.home.human") : levelWord(v) }));

  function counts() {
    return state.game === "cosmique" ? [4] : /** @type {{seats: number[]}} */ (FORMATS.find((f) => f.value === state.format)).seats;
  }

  /** @param {number} n */
  function setCount(n) {
    state.count = n;
    while (state.seats.length < n) state.seats.push("medium");
    state.seats.length = n;
  }

  function draw() {
    const allowed = counts();
    if (!allowed.includes(state.count)) setCount(allowed.includes(4) ? 4 : allowed[0]);
    const gameSel = select({ "data-testid": "game", onchange: (e) => { state.game = /** @type {import("./types.js").GameKind} */ (e.target.value); draw(); } },
      GAMES.map((g) => ({ value: g.value, label: t(g.key) })), state.game);
    const rows = [field(t("web.home.game"), gameSel)];
    if (state.game === "starrealms") {
      rows.push(field(t("web.home.format"), select({ "data-testid": "format", onchange: (e) => { state.format = e.target.value; draw(); } },
        FORMATS.map((f) => ({ value: f.value, label: t(f.key) })), state.format)));
      rows.push(field(t("web.home.edition"), select({ "data-testid": "edition", onchange: (e) => { state.edition = e.target.value; } },
        EDITIONS.map((x) => ({ value: x.value, label: t(x.key) })), state.edition)));
      rows.push(field(t("web.home.sets"), select({ "data-testid": "sets", onchange: (e) => { state.sets = e.target.value; draw(); } },
        SETS.map((x) => ({ value: x.value, label: t(x.key) })), state.sets)));
      if (state.sets.includes("rise_of_empire")) {
        const sheets = h("input", { type: "checkbox", "data-testid": "sheets", id: "sheets", checked: state.sheets, onchange: (e) => { state.sheets = e.target.checked; } });
        rows.push(h("label", { class: "check" }, sheets, h("span", null, t("web.home.sheets"))));
      }
    } else {
      rows.push(field(t("web.home.variant"), select({ "data-testid": "variant", onchange: (e) => { state.variant = e.target.value; } },
        VARIANTS.map((x) => ({ value: x.value, label: t(x.key) })), state.variant)));
    }
    if (allowed.length > 1) {
      rows.push(field(t("web.home.seat_count"), select({ "data-testid": "seat-count", onchange: (e) => { setCount(Number(e.target.value)); draw(); } },
        allowed.map((n) => ({ value: String(n), label: String(n) })), String(state.count))));
    }
    const seatRows = state.seats.map((who, i) => {
      const role = state.game === "starrealms" ? roleWord(state.format, i, state.count) : null;
      const label = "p" + (i + 1) + (role ? " (" + role + ")" : "");
      return field(label, select({ "data-testid": "seat-" + i, onchange: (e) => { state.seats[i] = e.target.value; } }, seatWords, who), "seat");
    });
    const hotseat = h("input", { type: "checkbox", "data-testid": "hotseat", id: "hotseat", checked: state.hotseat, onchange: (e) => { state.hotseat = e.target.checked; } });
    fill(form,
      h("h2", null, t("web.home.create_title")),
      h("p", { class: "muted" }, t("web.home.create_text")),
      h("div", { class: "fields" }, rows),
      h("h3", null, t("web.home.seats")),
      h("div", { class: "fields seats" }, seatRows),
      h("label", { class: "check" }, hotseat, h("span", null, t("web.home.hotseat"))),
      h("p", { class: "muted small" }, t("web.home.hotseat_text")),
      h("button", { class: "btn primary big", type: "submit", "data-testid": "create-game" }, t("web.home.create")));
  }

  /** @param {SubmitEvent} e */
  async function submit(e) {
    e.preventDefault();
    const button = /** @type {HTMLButtonElement} */ (form.querySelector("[type=submit]"));
    const humans = /** @type {string[]} */ (state.seats.map((s, i) => (s === "human" ? "p" + (i + 1) : null)).filter(Boolean));
    if (state.hotseat && humans.length === 0) {
      toast(t("web.home.need_human"));
      return;
    }
    /** @type {import("./types.js").NewGame} */
    const request = { game: state.game, seats: state.seats.slice() };
    if (state.game === "starrealms") {
      request.format = state.format;
      request.edition = state.edition;
      if (state.sets !== "base") {
        request.sets = state.sets.split(",");
        if (state.sheets && request.sets.includes("rise_of_empire")) {
          // Each seat its side's scenario-1 sheet, Empire and Federation in turn; the fifth
          // sticker wins (political victory).
          request.sheets = state.seats.map((_, i) => [i % 2 === 0 ? "s1_empire" : "s1_federation"]);
          request.political = true;
        }
      }
    } else {
      request.variant = state.variant;
    }
    button.disabled = true;
    try {
      await startGame(request, state.hotseat ? humans : humans.slice(0, 1));
    } catch (/** @type {any} */ err) {
      toast(errorText(err.code, err.message));
      button.disabled = false;
    }
  }

  draw();
  return form;
}

/**
 * For a seat of a rematch, which is kept for a player of the game before, the token this browser
 * holds of that player's seat there (the summary's `kept_for` names that seat), if any.
 * @param {number} id
 * @param {string} seat
 * @returns {Promise<string | undefined>}
 */
async function previousToken(id, seat) {
  const summary = await api.summary(id);
  const before = summary.kept_for?.[seat];
  if (!summary.rematch_of || !before) return undefined;
  return tokensOf(summary.rematch_of)[before];
}

/**
 * Takes seat `seat` of game `id` and opens it.
 * @param {number} id
 * @param {string} seat
 */
export async function joinSeat(id, seat) {
  try {
    const joined = await api.join(id, seat, await previousToken(id, seat));
    saveToken(id, joined.seat, joined.token);
    location.hash = "#/game/" + id;
  } catch (/** @type {any} */ e) {
    toast(errorText(e.code, e.message));
  }
}

/**
 * @param {import("./types.js").Summary} summary
 * @param {import("./types.js").Child} actions
 */
function gameRow(summary, actions) {
  return h("li", { class: "game-row" },
    h("span", { class: "game-id" }, "#" + summary.id),
    h("span", { class: "game-words" }, gameWords(summary),
      summary.seed_chosen ? h("span", { class: "muted small", title: t("web.home.seed_chosen_hint") }, " · " + t("web.home.seed_chosen")) : null,
      h("span", { class: "muted small" }, " · " + summary.seats.map((s) => s.seat + " " + (s.player === "human" ? (s.claimed ? t("web.home.taken") : t("web.home.free")) : playerWord(s.player))).join(", "))),
    h("span", { class: "game-actions" }, actions));
}

function lobbyPanel() {
  const list = h("ul", { class: "games" });
  const watchList = h("ul", { class: "games" });
  const idInput = h("input", { type: "number", min: "1", placeholder: "12", "aria-label": t("web.home.watch_id"), "data-testid": "watch-id" });
  const panel = /** @type {HTMLElement & {refresh: () => Promise<void>}} */ (h("section", { class: "panel lobby", "data-testid": "lobby" },
    h("div", { class: "area-head" },
      h("h2", null, t("web.home.lobby_title")),
      h("button", { class: "btn small", onclick: () => refresh() }, t("web.home.refresh"))),
    list,
    h("h3", null, t("web.home.watch_title")),
    watchList,
    h("form", {
      class: "watch-form",
      onsubmit: (e) => {
        e.preventDefault();
        if (idInput.value) location.hash = "#/watch/" + Number(idInput.value);
      },
    }, field(t("web.home.watch_id"), idInput), h("button", { class: "btn", type: "submit", "data-testid": "watch-go" }, t("web.home.watch"))),
    h("p", { class: "small" }, h("a", { href: "#/replay?open=1", "data-testid": "open-record" }, t("web.home.open_record")))));

  async function refresh() {
    try {
      const [open, playing] = await Promise.all([api.list("open", 30), api.list("playing", 12)]);
      // Each game once: the games this browser holds a seat in are under "Your games", and a game
      // that filled up between the two answers is listed where it is open.
      const held = new Set(heldGames().map((g) => g.id));
      const opened = open.games.filter((g) => !held.has(g.id));
      const shownIds = new Set(opened.map((g) => g.id));
      const watched = playing.games.filter((g) => !held.has(g.id) && !shownIds.has(g.id));
      fill(list, opened.length
        ? opened.map((g) => gameRow(g, g.seats.filter((s) => s.player === "human" && !s.claimed).map((s) =>
          h("button", { class: "btn small", "data-testid": "join-" + g.id + "-" + s.seat, onclick: () => joinSeat(g.id, s.seat) }, t("web.home.join", { seat: s.seat })))))
        : h("li", { class: "muted" }, t("web.home.no_open")));
      fill(watchList, watched.length
        ? watched.map((g) => gameRow(g, h("a", { class: "btn small", href: "#/watch/" + g.id }, t("web.home.watch"))))
        : h("li", { class: "muted" }, t("web.home.no_games")));
    } catch (/** @type {any} */ e) {
      fill(list, h("li", { class: "muted" }, errorText(e.code, e.message)));
    }
  }
  panel.refresh = refresh;
  return panel;
}

function heldPanel() {
  const games = heldGames().slice(0, 12);
  if (games.length === 0) return null;
  return h("section", { class: "panel held" },
    h("h2", null, t("web.home.held_title")),
    h("ul", { class: "games" }, games.map((g) => h("li", { class: "game-row" },
      h("span", { class: "game-id" }, "#" + g.id),
      h("span", { class: "game-words" }, g.seats.join(", ")),
      h("span", { class: "game-actions" },
        h("a", { class: "btn small", href: "#/game/" + g.id }, t("web.home.resume")),
        h("button", {
          class: "btn small ghost",
          title: t("web.home.forget_title"),
          onclick: (e) => {
            forgetGame(g.id);
            /** @type {Element} */ (e.target.closest("li")).remove();
          },
        }, t("web.home.forget")))))));
}

/**
 * Renders the home page; returns a function that stops its timers.
 * @param {HTMLElement} root
 */
export function renderHome(root) {
  const lobby = lobbyPanel();
  fill(root, h("div", { class: "home", "data-testid": "home" },
    h("div", { class: "intro" }, h("h1", null, t("web.home.title")), h("p", { class: "muted" }, t("web.home.subtitle"))),
    h("div", { class: "home-grid" },
      h("div", { class: "col" }, quickPanel(), heldPanel(), lobby),
      h("div", { class: "col col-create" }, createPanel(), campaignPanel()))));
  lobby.refresh();
  const timer = setInterval(() => lobby.refresh(), 5000);
  return () => clearInterval(timer);
}

/**
 * The join page of a shared link: the free seats of a game.
 * @param {HTMLElement} root
 * @param {number} id
 */
export async function renderJoin(root, id) {
  if (Object.keys(tokensOf(id)).length) {
    location.hash = "#/game/" + id;
    return () => {};
  }
  fill(root, h("p", { class: "muted center" }, t("web.game.connecting")));
  let summary;
  try {
    summary = await api.summary(id);
  } catch (/** @type {any} */ e) {
    fill(root, h("section", { class: "panel error-panel" },
      h("h2", null, e.code === "unknown_game" ? t("web.error.unknown_game", { id }) : errorText(e.code, e.message)),
      h("p", null, h("a", { href: "#/" }, t("web.game.home")))));
    return () => {};
  }
  const free = summary.seats.filter((s) => s.player === "human" && !s.claimed);
  fill(root, h("section", { class: "panel join", "data-testid": "join" },
    h("h2", null, t("web.join.title", { id })),
    h("p", null, gameWords(summary)),
    summary.retired
      ? h("p", { class: "muted", "data-testid": "join-retired" }, t("web.error.seat_expired"))
      : free.length && !summary.finished
      ? h("div", { class: "join-seats" }, free.map((s) => h("button", {
        class: "btn primary",
        "data-testid": "join-" + s.seat,
        onclick: () => joinSeat(id, s.seat),
      }, t("web.home.join", { seat: s.seat }))))
      : h("p", { class: "muted" }, t("web.join.none")),
    h("p", null, h("a", { href: "#/watch/" + id }, t("web.game.watch_instead")))));
  return () => {};
}
