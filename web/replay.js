// @ts-check
// The replay viewer: a finished game (`#/replay/12`) or a record opened from a file
// (`#/replay`, a record saved from a game or one `realms replay` reads), step by step on the
// usual table. Forward and back, to the start or the end, to a turn, playing at a chosen
// speed; from any seat's view, or with every hand shown. The link keeps the step and the seat.

import { h, fill } from "./dom.js";
import { t } from "./i18n.js";
import { ApiError } from "./api.js";
import { LogReader } from "./actions.js";
import { renderTable, roleKey } from "./table.js";
import { playerWord } from "./game.js";
import { errorText } from "./ui.js";
import { finishAll } from "./anim.js";

/** @typedef {import("./types.js").ReplayPage} ReplayPage */
/** @typedef {import("./types.js").ShownView} ShownView */

/**
 * What is replayed: a finished game of the server, or a record's text.
 * @typedef {{id: number, record?: undefined} | {id?: undefined, record: string}} Source
 */

const FILE_KEY = "realms-replay-file";
const SPEEDS = [2000, 1000, 500, 250];

/**
 * A page of steps from the server.
 * @param {Source} source
 * @param {string} seat
 * @param {boolean} all
 * @param {number} from
 * @returns {Promise<ReplayPage>}
 */
async function fetchPage(source, seat, all, from) {
  const query = "?seat=" + seat + (all ? "&all=true" : "") + "&from=" + from + "&count=200";
  const init = source.record
    ? { method: "POST", headers: { "content-type": "application/json" }, body: source.record }
    : { method: "GET" };
  const path = source.record ? "/api/replay" + query : "/api/games/" + source.id + "/replay" + query;
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    throw new ApiError("network", String(e), 0);
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(data?.code || "internal", data?.message || "HTTP " + response.status, response.status);
  return data;
}

/** The options of the link: `#/replay/12?step=40&seat=p2&all=1`. */
function linkOptions() {
  const query = location.hash.split("?")[1] || "";
  const params = new URLSearchParams(query);
  return { step: Number(params.get("step")) || 0, seat: params.get("seat") || null, all: params.get("all") === "1" };
}

/**
 * Shows the replay of game `id` (or, without one, of a record opened from a file) in `root`; returns its stop.
 * @param {HTMLElement} root
 * @param {number | null} id
 */
export function renderReplay(root, id) {
  const viewer = new Replay(root, id);
  viewer.start();
  return () => viewer.stop();
}

class Replay {
  /**
   * @param {HTMLElement} root
   * @param {number | null} id
   */
  constructor(root, id) {
    this.root = root;
    this.id = id;
    // Both read only once `start` has set them (`load` for the page).
    /** @type {Source} */
    this.source = /** @type {any} */ (null);
    /** @type {ReplayPage} */
    this.page = /** @type {any} */ (null);
    /** @type {import("./types.js").ReplayStep[]} */
    this.views = [];
    /** @type {import("./types.js").LogEntry[][]} */
    this.logs = [];
    this.step = 0;
    this.seat = "p1";
    this.all = false;
    /** @type {string[]} */
    this.players = [];
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
    this.speed = 1000;
    this.stopped = false;
    // The Bataille Cosmique journal shown last: its step and key.
    this.cosmiqueStep = -1;
    /** @type {string | null} */
    this.cosmiqueKey = null;
    /** @type {import("./types.js").TableUi} */
    this.ui = { dialogCollapsed: false, logOpen: false };
    this.keys = (/** @type {KeyboardEvent} */ e) => this.onKey(e);
  }

  async start() {
    const wanted = linkOptions();
    if (this.id) {
      this.source = { id: this.id };
      this.all = wanted.all;
    } else {
      if (new URLSearchParams(location.hash.split("?")[1] || "").get("open") === "1") sessionStorage.removeItem(FILE_KEY);
      const record = sessionStorage.getItem(FILE_KEY);
      if (!record) {
        this.chooseFile();
        return;
      }
      this.source = { record };
      // A record holds its seed: every card of it is known to whoever holds the file.
      this.all = wanted.all;
    }
    if (wanted.seat) this.seat = wanted.seat;
    document.addEventListener("keydown", this.keys);
    await this.load(wanted.step);
  }

  stop() {
    this.stopped = true;
    this.pause();
    document.removeEventListener("keydown", this.keys);
    document.body.classList.remove("at-table");
    document.title = t("web.brand");
  }

  /** The page to open a record file. */
  chooseFile() {
    const input = h("input", {
      type: "file",
      accept: ".json,application/json",
      "data-testid": "replay-file",
      onchange: async () => {
        const file = input.files && input.files[0];
        if (!file) return;
        const text = await file.text();
        sessionStorage.setItem(FILE_KEY, text);
        this.source = { record: text };
        this.all = true;
        document.addEventListener("keydown", this.keys);
        await this.load(0);
      },
    });
    fill(this.root, h("section", { class: "panel replay-open", "data-testid": "replay-open" },
      h("h2", null, t("web.replay.open_title")),
      h("p", { class: "muted" }, t("web.replay.open_text")),
      h("label", { class: "field" }, h("span", { class: "field-label" }, t("web.replay.file")), input),
      h("p", null, h("a", { href: "#/" }, t("web.game.home")))));
  }

  /**
   * Fetches every step from the seat's view, then shows `step`.
   * @param {number} step
   */
  async load(step) {
    this.pause();
    fill(this.root, h("p", { class: "muted center", "data-testid": "replay-loading" }, t("web.replay.loading")));
    const views = [];
    try {
      let page = await fetchPage(this.source, this.seat, this.all, 0);
      this.page = page;
      views.push(...page.views);
      while (views.length < page.actions + 1 && !this.stopped) {
        fill(this.root, h("p", { class: "muted center", "data-testid": "replay-loading" },
          t("web.replay.loading_steps", { n: views.length, total: page.actions + 1 })));
        page = await fetchPage(this.source, this.seat, this.all, views.length);
        if (!page.views.length) break;
        views.push(...page.views);
      }
    } catch (/** @type {any} */ e) {
      if (this.source.record) sessionStorage.removeItem(FILE_KEY);
      fill(this.root, h("section", { class: "panel error-panel", "data-testid": "replay-error" },
        h("h2", null, t("web.replay.failed")),
        h("p", null, errorText(e.code, e.message)),
        h("p", null, h("a", { href: "#/" }, t("web.game.home")))));
      return;
    }
    if (this.stopped) return;
    this.views = views;
    this.players = this.page.players || [];
    if (this.id) {
      try {
        /** @type {import("./types.js").Summary} */
        const summary = await (await fetch("/api/games/" + this.id)).json();
        this.players = summary.seats.map((s) => s.player);
      } catch (e) {
        // Names without the levels, then.
      }
    }
    this.readLogs();
    this.go(Math.min(Math.max(0, step), this.views.length - 1));
  }

  /** The log of each step, in words, read once. */
  readLogs() {
    this.logs = [];
    if (this.page.game !== "starrealms") return;
    const reader = new LogReader("replay-" + (this.id || "file"));
    reader.reset(this.views[0].observation);
    /** @type {import("./types.js").LogEntry[]} */
    let entries = [];
    this.logs.push(entries);
    for (let k = 1; k < this.views.length; k++) {
      const v = this.views[k];
      entries = entries.concat(v.line ? reader.read([v.line], v.observation) : []);
      this.logs.push(entries);
    }
  }

  /**
   * @param {string | null} seat
   * @param {import("./types.js").SrObservation} [obs]
   */
  seatName(seat, obs) {
    if (!seat) return "—";
    const index = Number(seat.slice(1)) - 1;
    const parts = [];
    const player = this.players[index];
    if (player && player !== "human") parts.push(playerWord(player));
    if (obs && obs.players && obs.players[index]) {
      const role = roleKey(obs, index);
      if (role) parts.push(t(role));
    }
    return parts.length ? seat + " (" + parts.join(", ") + ")" : seat;
  }

  /** @param {number} step */
  go(step) {
    this.step = Math.min(Math.max(0, step), this.views.length - 1);
    // The link follows: it can be shared as it is.
    const base = this.id ? "#/replay/" + this.id : "#/replay";
    const query = "?step=" + this.step + "&seat=" + this.seat + (this.all ? "&all=1" : "");
    history.replaceState(null, "", base + query);
    this.render();
  }

  play() {
    if (this.timer || this.step >= this.views.length - 1) return;
    const tick = () => {
      if (this.step >= this.views.length - 1) {
        this.pause();
        this.render();
        return;
      }
      this.go(this.step + 1);
      this.timer = setTimeout(tick, this.speed);
    };
    this.timer = setTimeout(tick, this.speed);
    this.render();
  }

  pause() {
    clearTimeout(this.timer ?? undefined);
    this.timer = null;
  }

  /** @param {KeyboardEvent} e */
  onKey(e) {
    if (e.target instanceof Element && e.target.matches("input, select, textarea")) return;
    /** @type {Record<string, () => void>} */
    const keys = {
      ArrowRight: () => this.go(this.step + 1),
      ArrowLeft: () => this.go(this.step - 1),
      Home: () => this.go(0),
      End: () => this.go(this.views.length - 1),
      " ": () => {
        if (this.timer) {
          this.pause();
          this.render();
        } else this.play();
      },
    };
    const run = keys[e.key];
    if (!run) return;
    e.preventDefault();
    finishAll();
    if (e.key !== " ") this.pause();
    run();
  }

  /** The first step of each turn, for the turn menu. */
  turns() {
    /** @type {{turn: number, step: number}[]} */
    const out = [];
    /** @type {number | null} */
    let last = null;
    this.views.forEach((v, k) => {
      const turn = v.observation.turn;
      if (turn !== undefined && turn !== last) {
        out.push({ turn, step: k });
        last = turn;
      }
    });
    return out;
  }

  controls() {
    const n = this.views.length - 1;
    /**
     * @param {string} label
     * @param {string} testid
     * @param {() => void} onclick
     * @param {boolean} disabled
     * @param {string} [aria]
     */
    const button = (label, testid, onclick, disabled, aria) => h("button", {
      class: "btn small", "data-testid": testid, disabled, "aria-label": aria || label, title: aria || label,
      onclick: () => {
        finishAll();
        onclick();
      },
    }, label);
    const slider = h("input", {
      type: "range", min: "0", max: String(n), value: String(this.step), "data-testid": "replay-slider",
      "aria-label": t("web.replay.step_label"),
      oninput: () => {
        this.pause();
        this.go(Number(slider.value));
      },
    });
    const turns = this.turns();
    const current = turns.filter((x) => x.step <= this.step).pop();
    const turnSelect = turns.length ? h("select", {
      "data-testid": "replay-turn",
      "aria-label": t("web.replay.turn_label"),
      value: current ? String(current.step) : "0",
      onchange: (e) => {
        this.pause();
        this.go(Number(e.target.value));
      },
    }, turns.map((x) => h("option", { value: String(x.step) }, t("turn", { turn: x.turn })))) : null;
    const seats = h("select", {
      "data-testid": "replay-seat",
      "aria-label": t("web.replay.seat_label"),
      value: this.seat,
      onchange: (e) => {
        this.seat = e.target.value;
        this.load(this.step);
      },
    }, Array.from({ length: this.page.seats }, (_, i) => "p" + (i + 1)).map((s) => h("option", { value: s, title: t("web.replay.view_of", { player: this.seatName(s) }) }, this.seatName(s))));
    const all = h("label", { class: "check small replay-all" },
      h("input", {
        type: "checkbox",
        "data-testid": "replay-all",
        checked: this.all,
        onchange: (e) => {
          this.all = e.target.checked;
          this.load(this.step);
        },
      }),
      h("span", null, t("web.replay.all_cards")));
    const speed = h("select", {
      "data-testid": "replay-speed",
      "aria-label": t("web.replay.speed_label"),
      value: String(this.speed),
      onchange: (e) => {
        this.speed = Number(e.target.value);
      },
    }, SPEEDS.map((ms) => h("option", { value: String(ms) }, t("web.replay.speed", { s: ms / 1000 }))));
    const playing = Boolean(this.timer);
    return h("section", { class: "panel replay-bar", "data-testid": "replay-bar" },
      h("h2", { class: "sr-only" }, this.title()),
      button("|◀", "replay-start", () => this.go(0), this.step === 0, t("web.replay.start")),
      button("◀", "replay-back", () => {
        this.pause();
        this.go(this.step - 1);
      }, this.step === 0, t("web.replay.back")),
      button(playing ? "II" : "▶▶", "replay-play", () => (playing ? (this.pause(), this.render()) : this.play()), !playing && this.step >= n, playing ? t("web.replay.pause") : t("web.replay.play")),
      button("▶", "replay-forward", () => {
        this.pause();
        this.go(this.step + 1);
      }, this.step >= n, t("web.replay.forward")),
      button("▶|", "replay-end", () => this.go(n), this.step >= n, t("web.replay.end")),
      h("span", { class: "replay-step", "data-testid": "replay-step" }, t("web.replay.step", { step: this.step, total: n })),
      slider, turnSelect, speed, seats, all);
  }

  title() {
    return this.id ? t("web.replay.title", { id: this.id }) : t("web.replay.title_file");
  }

  render() {
    if (this.stopped) return;
    document.title = this.title();
    const v = this.views[this.step];
    /** @type {ShownView} */
    const view = {
      game: this.page.game,
      version: this.step,
      seat: this.seat,
      to_move: v.to_move,
      over: v.over,
      winners: v.winners,
      observation: v.observation,
      legal_actions: [],
      log: [],
    };
    const header = [this.controls()];
    if (v.over) {
      const winners = v.winners || [];
      header.push(h("section", { class: "panel result", "data-testid": "replay-result" },
        h("h2", null, winners.length
          ? t("web.result.winners", { players: winners.map((s) => this.seatName(s, v.observation)).join(", ") })
          : t("web.result.draw"))));
    }
    if (this.page.game === "cosmique") {
      document.body.classList.remove("at-table");
      this.renderCosmique(view, header);
      return;
    }
    document.body.classList.add("at-table");
    renderTable(this.root, {
      view,
      log: this.logs[this.step] || [],
      act: () => {},
      seatName: (s) => this.seatName(s, v.observation),
      playAll: () => {},
      busy: false,
      ui: this.ui,
      rerender: () => this.render(),
      toggleDialog: () => {},
      header,
      replay: true,
    });
  }

  /**
   * @param {ShownView} view
   * @param {import("./types.js").Child} header
   */
  renderCosmique(view, header) {
    const box = h("div", { class: "cosmique-root" });
    fill(this.root, h("div", {
      class: "table cosmique replay",
      "data-testid": "table",
      "data-version": String(view.version),
      "data-seat": view.seat,
    }, header, box));
    // The replay's own journal: one step forward adds its line; any other move rebuilds the
    // journal from every line up to the step shown.
    const journalKey = "replay:" + (this.id || "file") + ":" + (view.seat ?? "-");
    const step = this.step;
    const onward = step === this.cosmiqueStep + 1 && journalKey === this.cosmiqueKey;
    const lines = (onward ? this.views.slice(step, step + 1) : this.views.slice(1, step + 1))
      .map((v) => v.line)
      .filter((l) => l !== null && l !== undefined);
    import("./cosmique.js").then((module) => {
      if (this.stopped) return;
      if (!onward) module.forgetJournal(journalKey);
      this.cosmiqueStep = step;
      this.cosmiqueKey = journalKey;
      module.renderCosmique(box, { view: { ...view, log: lines }, t, act: () => {}, seatName: (s) => this.seatName(s), journalKey });
    }, () => {
      fill(box, h("p", { class: "muted" }, t("web.error.cosmique_missing")));
    });
  }
}
