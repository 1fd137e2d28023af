// @ts-check
// A game page: the connections of the seats this browser holds (every human seat of a
// hot-seat game), or one spectator's; the table of the seat shown; the screen that hides the
// table while the device passes between two people.

import { h, fill } from "./dom.js";
import { t } from "./i18n.js";
import { api, tokensOf, recordUrl, saveToken, forgetSeat } from "./api.js";
import { Connection } from "./conn.js";
import { LogReader, seatIndex, parse, logText } from "./actions.js";
import { renderTable, roleKey } from "./table.js";
import { installKeys } from "./keys.js";
import { chime } from "./sound.js";
import { toast, errorText, setOnline, announce } from "./ui.js";

/** @typedef {import("./types.js").View} View */

/** @type {Record<string, string>} */
const BOT_NAMES = {
  random: "web.level.random",
  easy: "web.level.easy",
  medium: "web.level.medium",
  heuristic: "web.level.medium",
  hard: "web.level.hard",
  expert: "web.level.expert",
};

/**
 * A player's name: a bot level in words, or the bot's own name.
 * @param {string} player
 */
export function playerWord(player) {
  return BOT_NAMES[player] ? t(BOT_NAMES[player]) : player;
}

export class GamePage {
  /**
   * @param {HTMLElement} root
   * @param {number} id
   * @param {boolean} watch
   */
  constructor(root, id, watch) {
    this.root = root;
    this.id = id;
    this.watch = watch;
    // Read only once `start` has it (a view comes after it).
    /** @type {import("./types.js").Summary} */
    this.summary = /** @type {any} */ (null);
    // Each by the seat's key: the seat, or "watch" for a spectator's connection (looked up with
    // `shownKey()`, `null` while no seat is shown).
    /** @type {Map<string | null, Connection>} */
    this.connections = new Map();
    /** @type {Map<string | null, View>} */
    this.views = new Map();
    /** @type {Map<string | null, import("./types.js").LogEntry[]>} */
    this.logs = new Map();
    /** @type {Map<string, LogReader>} */
    this.readers = new Map();
    /** @type {Map<string, number>} */
    this.lastIndex = new Map();
    /** @type {string[]} */
    this.seats = [];
    /** @type {string | null} */
    this.shown = null;
    /** @type {string | null} */
    this.passTo = null;
    this.busy = false;
    this.autoplay = false;
    /** @type {import("./types.js").TableUi} */
    this.ui = { dialogCollapsed: false, logOpen: false };
    this.stopped = false;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.summaryTimer = undefined;
    /** @type {typeof import("./cosmique.js").renderCosmique | null} */
    this.cosmique = null;
    /** @type {HTMLDivElement | null} */
    this.cosmiqueBox = null;
    /** @type {string | null} */
    this.fatal = null;
    this.stopKeys = installKeys();
  }

  async start() {
    fill(this.root, h("p", { class: "muted center" }, t("web.game.connecting")));
    try {
      this.summary = await api.summary(this.id);
    } catch (/** @type {any} */ e) {
      this.showFatal(e.code === "unknown_game" ? t("web.error.unknown_game", { id: this.id }) : errorText(e.code, e.message));
      return;
    }
    if (this.stopped) return;
    const tokens = this.watch ? {} : tokensOf(this.id);
    this.seats = Object.keys(tokens).filter((s) => this.summary.seats.some((x) => x.seat === s && x.player === "human"));
    if (this.seats.length === 0) {
      this.connect(null, null);
    } else {
      for (const seat of this.seats) this.connect(seat, tokens[seat]);
    }
    this.pollSummary();
  }

  stop() {
    this.stopped = true;
    this.stopKeys();
    document.title = t("web.brand");
    document.body.classList.remove("at-table");
    clearTimeout(this.summaryTimer);
    for (const c of this.connections.values()) c.close();
    this.connections.clear();
    setOnline(true);
  }

  /** Follows the seats' claims while somebody may still join (for the share link). */
  pollSummary() {
    const open = this.summary.seats.some((s) => s.player === "human" && !s.claimed);
    const over = [...this.views.values()].some((v) => v.over);
    // While seats are open, for the share link; once over, for a rematch another player asks.
    const waitingRematch = over && this.seats.length > 0 && !this.summary.rematch && !this.summary.campaign;
    if (!waitingRematch && (!open || this.summary.finished)) return;
    this.summaryTimer = setTimeout(async () => {
      try {
        const summary = await api.summary(this.id);
        const claims = (/** @type {import("./types.js").Summary} */ x) => x.seats.map((s) => s.claimed).join() + "/" + (x.rematch || "");
        const changed = claims(summary) !== claims(this.summary);
        this.summary = summary;
        if (changed) this.render();
      } catch (e) {
        // Try again at the next tick.
      }
      if (!this.stopped) this.pollSummary();
    }, 4000);
  }

  /**
   * @param {string | null} seat `null`: a spectator's connection
   * @param {string | null} token
   */
  connect(seat, token) {
    const key = seat || "watch";
    this.logs.set(key, []);
    this.readers.set(key, new LogReader(this.id));
    this.lastIndex.set(key, -1);
    const connection = new Connection(this.id, seat, token, {
      view: (v) => this.onView(key, v),
      error: (e) => this.onError(key, e),
      fatal: (code) => this.onFatal(key, code),
      status: () => this.updateOnline(),
    });
    this.connections.set(key, connection);
  }

  updateOnline() {
    setOnline([...this.connections.values()].every((c) => c.online));
  }

  /**
   * @param {string} key
   * @param {View} view
   */
  onView(key, view) {
    if (this.stopped) return;
    const fresh = view.log.filter((l) => l.index > /** @type {number} */ (this.lastIndex.get(key)));
    if (fresh.length) this.lastIndex.set(key, fresh[fresh.length - 1].index);
    if (view.game === "starrealms") {
      const entries = /** @type {LogReader} */ (this.readers.get(key)).read(fresh, view.observation);
      const first = /** @type {import("./types.js").LogEntry[]} */ (this.logs.get(key)).length === 0 && !this.views.has(key);
      /** @type {import("./types.js").LogEntry[]} */ (this.logs.get(key)).push(...entries);
      // A screen reader hears what the others did (not the whole log of a first view).
      if (!first && key === this.shownKey()) {
        const theirs = entries.filter((e) => e.seat !== view.seat);
        if (theirs.length) announce(theirs.map((e) => logText(e, (s) => this.seatName(s, view.observation))).join(". "));
      }
    }
    const before = this.views.get(key);
    this.views.set(key, view);
    // The player's turn comes: the optional chime (a hot seat's screen says it itself).
    if (this.yourTurn(view) && !(before && this.yourTurn(before))) chime();
    if (key === this.shownKey()) this.busy = false;
    this.chooseSeat();
    this.render();
    this.continueAutoplay();
  }

  /**
   * @param {string} key
   * @param {import("./types.js").ErrorMessage} error
   */
  onError(key, error) {
    if (key === this.shownKey()) this.busy = false;
    this.autoplay = false;
    // A stale version is followed by a fresh view, a bad token or game by the socket's close:
    // nothing to say here.
    if (!["stale_version", "bad_token", "unknown_game"].includes(error.code)) toast(errorText(error.code, error.message, error.reason));
    this.render();
  }

  /**
   * @param {string} key
   * @param {number} code
   */
  onFatal(key, code) {
    this.connections.delete(key);
    this.views.delete(key);
    if (code === 4404) {
      this.showFatal(t("web.error.unknown_game", { id: this.id }));
      return;
    }
    if (code === 4500) {
      this.showFatal(t("web.error.damaged_game"));
      return;
    }
    if (code === 4409) {
      this.showFatal(t("web.error.replaced"));
      return;
    }
    this.seats = this.seats.filter((s) => s !== key);
    toast(t("web.error.bad_token"));
    if (this.connections.size === 0) {
      this.showFatal(t("web.error.bad_token"), true);
      return;
    }
    this.chooseSeat();
    this.render();
  }

  /**
   * @param {string} message
   * @param {boolean} [offerWatch]
   */
  showFatal(message, offerWatch) {
    this.fatal = message;
    document.body.classList.remove("at-table");
    for (const c of this.connections.values()) c.close();
    // Stopped for good: nothing is being retried, so the "reconnecting" badge goes.
    setOnline(true);
    fill(this.root, h("section", { class: "panel error-panel" },
      h("h2", null, message),
      offerWatch ? h("p", null, h("a", { href: "#/watch/" + this.id }, t("web.game.watch_instead"))) : null,
      h("p", null, h("a", { href: "#/" }, t("web.game.home")))));
  }

  shownKey() {
    return this.shown || (this.seats.length ? null : "watch");
  }

  /**
   * The seat shown: the held seat to move (hot seat), else the one shown before. Between two
   * people at one screen, the pass screen comes first.
   */
  chooseSeat() {
    if (this.seats.length === 0) {
      this.shown = null;
      return;
    }
    if (this.views.size < this.seats.length) return;
    let latest = null;
    for (const v of this.views.values()) if (!latest || v.version > latest.version) latest = v;
    const toMove = /** @type {View} */ (latest).to_move;
    if (this.shown === null) {
      this.shown = toMove && this.seats.includes(toMove) ? toMove : this.seats[0];
      return;
    }
    if (toMove && this.seats.includes(toMove) && toMove !== this.shown && !/** @type {View} */ (latest).over) {
      this.passTo = toMove;
    }
  }

  /**
   * What a seat is called on this page: `p2 (medium)`, `p1 (you)`, `p5 (Emperor)`.
   * @param {string | null} seat
   * @param {import("./types.js").SrObservation | null} obs
   */
  seatName(seat, obs) {
    if (!seat) return "—";
    const index = seatIndex(seat);
    const info = this.summary.seats[index];
    const parts = [];
    if (info && info.player !== "human") parts.push(playerWord(info.player));
    else if (this.seats.length === 1 && this.seats[0] === seat) parts.push(t("web.seat.you"));
    if (obs && obs.players && obs.players[index]) {
      const role = roleKey(obs, index);
      if (role) parts.push(t(role));
    }
    return parts.length ? seat + " (" + parts.join(", ") + ")" : seat;
  }

  /** @param {string} action */
  act(action) {
    const key = this.shownKey();
    const view = this.views.get(key);
    const connection = this.connections.get(key);
    if (!view || !connection || this.busy || this.passTo) return;
    if (!view.legal_actions.includes(action)) return;
    if (connection.act(action, view.version)) {
      this.busy = true;
      const table = this.root.querySelector(".table");
      if (table) table.classList.add("busy");
    }
  }

  playAll() {
    this.autoplay = true;
    this.continueAutoplay();
  }

  continueAutoplay() {
    if (!this.autoplay || this.busy || this.passTo) return;
    const view = this.views.get(this.shownKey());
    if (!view || view.to_move !== view.seat || view.observation.pending) {
      this.autoplay = false;
      return;
    }
    const plays = view.legal_actions.filter((a) => parse(a).kind === "play");
    if (plays.length === 0) {
      this.autoplay = false;
      return;
    }
    // A Stealth Needle copies a ship already in play: it goes last.
    plays.sort((a, b) => Number(a === "play stealth_needle") - Number(b === "play stealth_needle"));
    this.act(plays[0]);
  }

  /** Once over, for the players: a rematch (sides swapped) and a new game with the same settings. */
  againButtons() {
    if (this.seats.length === 0) return h("a", { class: "btn primary", href: "#/" }, t("web.result.new_game"));
    const offered = this.summary.rematch;
    return [
      h("button", {
        class: "btn primary" + (offered ? " offered" : ""),
        "data-testid": "rematch",
        onclick: () => this.playAgain(true),
      }, offered ? t("web.result.rematch_join") : t("web.result.rematch")),
      h("button", { class: "btn", "data-testid": "same-settings", onclick: () => this.playAgain(false) }, t("web.result.same_settings")),
      h("a", { href: "#/" }, t("web.result.home")),
    ];
  }

  /**
   * Creates (or finds) the game played again, takes this browser's seats in it, and opens it.
   * @param {boolean} swap
   */
  async playAgain(swap) {
    try {
      const next = await api.again(this.id, swap);
      const held = tokensOf(this.id);
      for (const seat of this.seats) {
        const mine = next.seats_from[seat];
        const info = next.seats.find((s) => s.seat === mine);
        if (!info || info.player !== "human" || info.claimed) continue;
        // A rematch's seats are kept for this game's players: each is taken with its seat's token here.
        const joined = await api.join(next.id, mine, swap ? held[seat] : undefined);
        saveToken(next.id, joined.seat, joined.token);
      }
      location.hash = "#/game/" + next.id;
    } catch (/** @type {any} */ e) {
      toast(errorText(e.code, e.message));
    }
  }

  /** Whether this page may leave its game to a bot: a player's, not over, not a campaign's. */
  mayLeave(/** @type {View} */ view) {
    return !view.over && this.seats.length > 0 && !this.summary.campaign;
  }

  /** The button that leaves the game to a bot (asked again first, see `leaveConfirm`). */
  leaveButton() {
    return h("button", {
      class: "btn small",
      "data-testid": "leave",
      onclick: () => {
        this.ui.confirmLeave = true;
        this.render();
      },
    }, t("web.leave.button"));
  }

  /** Leaving asked again: a bot then plays this browser's seats to the end. */
  leaveConfirm() {
    return h("div", { class: "end-confirm note warn", "data-testid": "leave-confirm", role: "alertdialog" },
      h("p", null, t("web.leave.confirm")),
      h("div", { class: "end-confirm-buttons" },
        h("button", { class: "btn primary", "data-testid": "leave-yes", onclick: () => this.leave() }, t("web.leave.yes")),
        h("button", {
          class: "btn",
          "data-testid": "leave-no",
          onclick: () => {
            this.ui.confirmLeave = false;
            this.render();
          },
        }, t("web.leave.no"))));
  }

  /** Leaves the game: each seat of this browser to a bot, then home. */
  async leave() {
    const tokens = tokensOf(this.id);
    const seats = [...this.seats];
    // The game is built again once a seat is left, closing its connections: these go first.
    this.stop();
    for (const seat of seats) {
      try {
        await api.leave(this.id, seat, tokens[seat]);
        forgetSeat(this.id, seat);
      } catch (/** @type {any} */ e) {
        toast(errorText(e.code, e.message));
        location.hash = "#/";
        return;
      }
    }
    toast(t("web.leave.done"), "info");
    location.hash = "#/";
  }

  /**
   * Whether the page's one player is to decide (a hot seat's screen says so itself).
   * @param {View} view
   */
  yourTurn(view) {
    return !view.over && Boolean(view.seat) && view.to_move === view.seat && this.seats.length === 1;
  }

  /**
   * Elements above the board: the result once over, the link to invite others.
   * @param {View} view
   */
  header(view) {
    /** @type {HTMLElement[]} */
    const out = [];
    if (view.game === "cosmique" && this.yourTurn(view)) {
      out.push(h("div", { class: "your-turn", "data-testid": "your-turn", role: "status" }, t("web.table.your_turn")));
    }
    if (view.over) {
      const winners = view.winners || [];
      let text;
      if (winners.length === 0) text = t("web.result.draw");
      else if (this.seats.length === 1 && winners.includes(this.seats[0])) text = t("you_win");
      else text = t("web.result.winners", { players: winners.map((s) => this.seatName(s, view.observation)).join(", ") });
      out.push(h("section", { class: "panel result", "data-testid": "result" },
        h("h2", null, text),
        h("div", { class: "result-links" },
          h("a", { class: "btn", href: "#/replay/" + this.id, "data-testid": "replay-link" }, t("web.result.replay")),
          h("a", { href: recordUrl(this.id), download: "realms-game-" + this.id + ".json" }, t("web.result.record")),
          this.summary.campaign
            ? h("a", { class: "btn primary", href: "#/campaign/" + this.summary.campaign, "data-testid": "campaign-back" }, t("web.campaign.back"))
            : this.againButtons())));
    } else if (this.summary.campaign) {
      out.push(h("p", { class: "campaign-link" },
        h("a", { href: "#/campaign/" + this.summary.campaign, "data-testid": "campaign-link" }, t("web.campaign.back"))));
    }
    /** @param {string[]} list */
    const seatWords = (list) => list.map((s) => this.seatName(s, view.game === "starrealms" ? view.observation : null)).join(", ");
    if (!view.over && view.waiting && view.waiting.length) {
      // Until every seat is taken the game has not started: nobody moves, bots included.
      out.push(h("section", { class: "panel waiting", "data-testid": "waiting", role: "status" },
        h("strong", null, t("web.seat.waiting_for", { players: seatWords(view.waiting) })),
        " ",
        h("span", { class: "muted" }, t("web.seat.not_started"))));
    }
    const away = (view.seats || []).filter((s) => s.player === "human" && s.claimed && !s.connected && s.seat !== view.seat && !this.seats.includes(s.seat));
    if (!view.over && away.length && view.game !== "starrealms") {
      // Bataille Cosmique's table has no panels to show it on.
      out.push(h("p", { class: "note warn", "data-testid": "offline-seats" }, t("web.seat.away", { players: seatWords(away.map((s) => s.seat)) })));
    }
    // The seats to share: the view's when it says (it follows every join), else the summary's.
    const open = view.waiting
      ? view.waiting
      : this.summary.seats.filter((s) => s.player === "human" && !s.claimed).map((s) => s.seat);
    if (!view.over && open.length && this.seats.length > 0 && this.summary.rematch_of) {
      // A rematch's free seats are kept for the players of the game before: nobody else to invite.
      out.push(h("p", { class: "note", "data-testid": "rematch-waiting" },
        t("web.share.rematch", { seats: open.join(", "), game: String(this.summary.rematch_of) })));
    } else if (!view.over && open.length && this.seats.length > 0) {
      const url = location.origin + location.pathname + "#/join/" + this.id;
      const input = h("input", { type: "text", readonly: true, value: url, "aria-label": t("web.share.title"), onfocus: (e) => e.target.select() });
      out.push(h("section", { class: "panel share", "data-testid": "share-link" },
        h("span", null, t("web.share.title", { seats: open.join(", ") })),
        input,
        h("button", {
          class: "btn small",
          onclick: async () => {
            try {
              await navigator.clipboard.writeText(url);
              toast(t("web.share.copied"), "info");
            } catch (e) {
              input.select();
            }
          },
        }, t("web.share.copy"))));
    }
    if (this.mayLeave(view) && this.ui.confirmLeave) out.push(this.leaveConfirm());
    // Star Realms' status line holds the button; Bataille Cosmique's table has none of ours.
    else if (this.mayLeave(view) && view.game !== "starrealms") out.push(h("div", { class: "leave" }, this.leaveButton()));
    return out;
  }

  render() {
    if (this.stopped || this.fatal) return;
    if (this.passTo) {
      const seat = this.passTo;
      fill(this.root, h("section", { class: "pass-device", "data-testid": "pass-device" },
        h("h2", null, t("web.pass.title", { player: seat })),
        h("p", null, t("web.pass.text")),
        h("button", {
          class: "btn primary big",
          "data-testid": "pass-device-continue",
          onclick: () => {
            this.shown = seat;
            this.passTo = null;
            this.busy = false;
            this.render();
          },
        }, t("web.pass.continue", { player: seat }))));
      return;
    }
    const key = this.shownKey();
    const view = key ? this.views.get(key) : null;
    if (!view) {
      fill(this.root, h("p", { class: "muted center" }, t("web.game.connecting")));
      return;
    }
    // A tab in the background tells its player when the game waits for them.
    document.title = view.seat && view.to_move === view.seat ? t("web.title.your_turn") : t("web.brand");
    const seatName = (/** @type {string | null} */ s) => this.seatName(s, view.game === "starrealms" ? view.observation : null);
    if (view.game === "cosmique") {
      this.renderCosmique(view, seatName);
      return;
    }
    document.body.classList.add("at-table");
    renderTable(this.root, {
      view,
      yourTurn: this.yourTurn(view),
      log: /** @type {import("./types.js").LogEntry[]} */ (this.logs.get(key)),
      act: (a) => this.act(a),
      seatName,
      playAll: () => this.playAll(),
      busy: this.busy,
      ui: this.ui,
      rerender: () => this.render(),
      toggleDialog: () => {
        this.ui.dialogCollapsed = !this.ui.dialogCollapsed;
        this.render();
      },
      header: this.header(view),
      leave: this.mayLeave(view) && !this.ui.confirmLeave ? this.leaveButton() : null,
    });
  }

  /**
   * Bataille Cosmique: its own renderer (cosmique.js) fills the game's box.
   * @param {View} view
   * @param {import("./types.js").SeatName} seatName
   */
  renderCosmique(view, seatName) {
    document.body.classList.remove("at-table");
    // The same box every time, emptied: cosmique.js may keep what it needs on it.
    if (!this.cosmiqueBox) this.cosmiqueBox = h("div", { class: "cosmique-root" });
    const box = this.cosmiqueBox;
    box.replaceChildren();
    // cosmique.js draws the whole table, its status and journal included.
    fill(this.root, h("div", {
      class: "table cosmique" + (this.busy ? " busy" : ""),
      "data-testid": "table",
      "data-version": String(view.version),
      "data-to-move": view.to_move || "",
      "data-seat": view.seat || "",
    }, this.header(view), box));
    /** @type {import("./types.js").CosCtx} */
    const ctx = { view, t, act: (a) => this.act(a), seatName };
    if (this.cosmique) {
      this.cosmique(box, ctx);
      return;
    }
    import("./cosmique.js").then((module) => {
      this.cosmique = module.renderCosmique;
      if (!this.stopped) this.render();
    }, () => {
      fill(box, h("p", { class: "muted" }, t("web.error.cosmique_missing")));
    });
  }
}

