// @ts-check
// Star Realms actions in their text form (`play scout`, `buy row 2`, `attack p2 5` …, see
// docs/rules.md): parsed, put in words for buttons, sorted onto the table's controls, and read
// back from the log.

import { t, card, cardName, sheet } from "./i18n.js";
import { chooseOptions, abilityText } from "./cards.js";

/** @typedef {import("./types.js").SrObservation} SrObservation */
/** @typedef {import("./types.js").SeatName} SeatName */
/** @typedef {import("./types.js").LogEntry} LogEntry */

/**
 * An action's parts (see `parse`).
 * @typedef {{kind: "play", card: string}
 *   | {kind: "primary", zone: "base", index: number}
 *   | {kind: "ally" | "double_ally" | "scrap_self", zone: string, index: number}
 *   | {kind: "top_base", card: string}
 *   | {kind: "scrap_row", slot: number, explorer?: undefined}
 *   | {kind: "scrap_card", zone: string, card: string}
 *   | {kind: "buy" | "acquire", explorer: true, slot?: undefined, upgrade?: undefined}
 *   | {kind: "buy" | "acquire", explorer?: undefined, slot: number, upgrade: Upgrade | null}
 *   | {kind: "attack_base" | "destroy", seat: string, index: number}
 *   | {kind: "attack", seat: string, n: number}
 *   | {kind: "choose", n: number}
 *   | {kind: "discard" | "bequeath", card: string}
 *   | {kind: "target" | "switch", seat: string}
 *   | {kind: "copy", index: number}
 *   | {kind: "copy_base", seat: string, index: number}
 *   | {kind: "to_hand"}
 *   | {kind: "give", seat: string, card: string}
 *   | {kind: "transfer", seat: string, what: string, n: number}
 *   | {kind: "end" | "pass" | "top" | "other"}} Parsed
 */

/** An upgrade bought with a card: the seat's sheet and its row, counted from 1. @typedef {{sheet: number, row: number}} Upgrade */

/**
 * The parts of an action's text form.
 * @param {string} text
 * @returns {Parsed}
 */
export function parse(text) {
  const w = text.trim().split(/\s+/);
  const n = (/** @type {string} */ s) => Number(s);
  switch (w[0]) {
    case "play": return { kind: "play", card: w.slice(1).join(" ") };
    case "primary": return { kind: "primary", zone: "base", index: n(w[2]) };
    case "ally": return { kind: "ally", zone: w[1], index: n(w[2]) };
    // `double ally ship 2`: a double-ally ability (Frontiers).
    case "double": return { kind: "double_ally", zone: w[2], index: n(w[3]) };
    case "scrap":
      if (w[1] === "ship" || w[1] === "base") return { kind: "scrap_self", zone: w[1], index: n(w[2]) };
      if (w[1] === "row") return { kind: "scrap_row", slot: n(w[2]) };
      return { kind: "scrap_card", zone: w[1], card: w.slice(2).join(" ") };
    case "buy": case "acquire": {
      if (w[1] === "explorer") return { kind: w[0], explorer: true };
      // `buy row 2 upgrade s1 r3`: sheet and row counted from 1.
      const upgrade = w[3] === "upgrade" ? { sheet: n(w[4].slice(1)), row: n(w[5].slice(1)) } : null;
      return { kind: w[0], slot: n(w[2]), upgrade };
    }
    case "attack":
      if (w[2] === "base") return { kind: "attack_base", seat: w[1], index: n(w[3]) };
      return { kind: "attack", seat: w[1], n: n(w[2]) };
    case "destroy": return { kind: "destroy", seat: w[1], index: n(w[3]) };
    case "choose": return { kind: "choose", n: n(w[1]) };
    case "discard": return { kind: "discard", card: w.slice(1).join(" ") };
    case "target": return { kind: "target", seat: w[1] };
    case "copy":
      // `copy ship 2` (a ship in play), `copy p2 base 0` (any base in play, Colony Wars).
      if (w[2] === "base") return { kind: "copy_base", seat: w[1], index: n(w[3]) };
      return { kind: "copy", index: n(w[2]) };
    case "hand": return { kind: "to_hand" };
    case "give": return { kind: "give", seat: w[1], card: w.slice(2).join(" ") };
    case "bequeath": return { kind: "bequeath", card: w.slice(1).join(" ") };
    case "transfer": return { kind: "transfer", seat: w[1], what: w[2], n: n(w[3]) };
    case "switch": return { kind: "switch", seat: w[1] };
    // `top <card>`: a base of the discard pile goes on top of the deck (Repair Mech).
    case "top": return w.length > 1 ? { kind: "top_base", card: w.slice(1).join(" ") } : { kind: "top" };
    case "end": case "pass": return { kind: w[0] };
    default: return { kind: "other" };
  }
}

/**
 * @param {SrObservation} obs
 * @param {string | null} seat
 * @param {number} i
 */
function shipOf(obs, seat, i) {
  const p = obs.players[seatIndex(seat)];
  return p && p.ships[i] ? p.ships[i].card : null;
}

/**
 * @param {SrObservation} obs
 * @param {string | null} seat
 * @param {number} i
 */
function baseOf(obs, seat, i) {
  const p = obs.players[seatIndex(seat)];
  return p && p.bases[i] ? p.bases[i].card : null;
}

/**
 * The index of seat `pN`: N − 1.
 * @param {string | null} seat
 */
export function seatIndex(seat) {
  return Number(String(seat).slice(1)) - 1;
}

/** @param {number} index */
export function seatOf(index) {
  return "p" + (index + 1);
}

const nameOr = (/** @type {string | null | undefined} */ id, /** @type {string} */ fallback) => (id ? cardName(id) : fallback);

/**
 * An action in words for a button, for the seat deciding in `obs`.
 * @param {string} text
 * @param {SrObservation} obs
 * @param {SeatName} seatName
 * @returns {string}
 */
export function describe(text, obs, seatName) {
  const a = parse(text);
  const me = obs.to_move || obs.current;
  const pending = obs.pending;
  switch (a.kind) {
    case "play": return t("act.play", { card: cardName(a.card) });
    case "primary": return t("act.primary", { card: nameOr(baseOf(obs, me, a.index), "#" + a.index) });
    case "ally": return t("act.ally", { card: nameOr(a.zone === "ship" ? shipOf(obs, me, a.index) : baseOf(obs, me, a.index), "#" + a.index) });
    case "double_ally": return t("act.double_ally", { card: nameOr(a.zone === "ship" ? shipOf(obs, me, a.index) : baseOf(obs, me, a.index), "#" + a.index) });
    case "top_base": return t("act.top_base", { card: cardName(a.card) });
    case "scrap_self": return t("act.scrap_self", { card: nameOr(a.zone === "ship" ? shipOf(obs, me, a.index) : baseOf(obs, me, a.index), "#" + a.index) });
    case "buy": case "acquire":
      if (a.upgrade) {
        const id = obs.row[a.slot];
        return t(a.kind === "buy" ? "act.buy_upgrade" : "act.acquire_upgrade", {
          card: nameOr(id, "#" + a.slot),
          price: upgradePrice(id),
          sticker: stickerText(obs, me, a.upgrade, id),
        });
      }
      return t(a.kind === "buy" ? "act.buy" : "act.acquire", { card: a.explorer ? cardName("explorer") : nameOr(obs.row[a.slot], "#" + a.slot) });
    case "attack": return t("act.attack", { player: seatName(a.seat), n: a.n });
    case "attack_base": return t("act.attack_base", { player: seatName(a.seat), card: nameOr(baseOf(obs, a.seat, a.index), "#" + a.index) });
    case "destroy": return t("act.destroy", { player: seatName(a.seat), card: nameOr(baseOf(obs, a.seat, a.index), "#" + a.index) });
    case "end": return t("act.end");
    case "pass": return t("act.pass");
    case "choose": return t("act.choose", { option: optionText(pending, a.n) });
    case "scrap_card": return t(a.zone === "hand" ? "act.scrap_hand" : "act.scrap_discard", { card: cardName(a.card) });
    case "scrap_row": return t("act.scrap_row", { card: nameOr(obs.row[a.slot], "#" + a.slot) });
    case "discard": return t("act.discard", { card: cardName(a.card) });
    case "target": return t("act.target", { player: seatName(a.seat) });
    case "copy": return t("act.copy", { card: nameOr(shipOf(obs, me, a.index), "#" + a.index) });
    case "top": return t("act.top", { card: pending && pending.card ? cardName(pending.card) : "?" });
    case "to_hand": return t("act.to_hand", { card: pending && pending.card ? cardName(pending.card) : "?" });
    case "copy_base": return t("act.copy_base", { card: nameOr(baseOf(obs, a.seat, a.index), "#" + a.index), player: seatName(a.seat) });
    case "give": return t("act.give", { card: cardName(a.card), player: seatName(a.seat) });
    case "transfer": return t(a.what === "combat" ? "act.transfer_combat" : "act.transfer_trade", { n: a.n, player: seatName(a.seat) });
    case "switch": return t("act.switch", { player: seatName(a.seat) });
    case "bequeath": return t("act.bequeath", { card: cardName(a.card), player: pending && pending.to ? seatName(pending.to) : "?" });
    default: return text;
  }
}

/**
 * What an upgrade costs on top of the card: 2 for a ship, 3 for a base or outpost.
 * @param {string | null} id
 */
export function upgradePrice(id) {
  return id && card(id).kind !== "ship" ? 3 : 2;
}

/**
 * The sticker of row `up.row` of the seat's sheet `up.sheet` for card `id`, in words.
 * @param {SrObservation} obs
 * @param {string | null} seat
 * @param {Upgrade} up
 * @param {string | null} id
 */
export function stickerText(obs, seat, up, id) {
  const owned = (obs.players[seatIndex(seat)] || {}).sheets || [];
  const use = owned[up.sheet - 1];
  if (!use) return "s" + up.sheet + " r" + up.row;
  const s = sheet(use.sheet);
  const row = s.rows[up.row - 1] || {};
  const text = id && card(id).kind !== "ship" ? row.base : row.ship;
  return t("sticker", { row: up.row, sheet: s.name, text: text || "" });
}

/**
 * The words of option `n` of the "choose one" waited for.
 * @param {import("./types.js").Pending | null} pending
 * @param {number} n
 */
export function optionText(pending, n) {
  if (pending && pending.decision === "choose" && pending.source.ability === "on_acquire") {
    // An on-acquire "you may": nothing, or what it does.
    return n === 0 ? t("act.nothing") : abilityText(pending.source.card, "on_acquire");
  }
  if (pending && pending.decision === "choose") {
    const options = chooseOptions(pending.source.card, pending.source.ability, pending.at);
    if (options[n]) return options[n];
  }
  if (pending && pending.decision === "discard_reward") {
    // "Discard up to 2 cards; for each card discarded: Add 2 Trade or Add 2 Combat": the
    // rewards are what follows the colon.
    const options = chooseOptions(pending.source.card, pending.source.ability, pending.at);
    if (options[0]) options[0] = options[0].slice(options[0].lastIndexOf(":") + 1).trim();
    if (options[n]) return options[n];
  }
  return String(n + 1);
}

/**
 * The legal actions sorted onto the table's controls: `hand` (card → action), `row` (slot →
 * action), `explorer`, `ships`/`bases` (own, index → actions), `seats` (seat → {attack: [..],
 * bases: index → action, trade: [..], combat: [..], give: [..], switch}), `end`, `rest`.
 * @param {string[]} legal
 * @param {SrObservation} obs
 * @returns {Sorted}
 */
export function sortActions(legal, obs) {
  /** @type {Sorted} */
  const out = { hand: new Map(), row: new Map(), upgrades: new Map(), explorer: null, ships: new Map(), bases: new Map(), seats: new Map(), end: null, rest: [] };
  const seatSlot = (/** @type {string} */ seat) => {
    if (!out.seats.has(seat)) out.seats.set(seat, { attack: [], bases: new Map(), trade: [], combat: [], give: [], switch: null });
    return /** @type {SeatActions} */ (out.seats.get(seat));
  };
  /**
   * @template T
   * @param {Map<number, T[]>} map
   * @param {number} key
   * @param {T} value
   */
  const push = (map, key, value) => {
    if (!map.has(key)) map.set(key, []);
    /** @type {T[]} */ (map.get(key)).push(value);
  };
  if (obs.pending) {
    out.rest = legal.slice();
    return out;
  }
  for (const text of legal) {
    const a = parse(text);
    switch (a.kind) {
      case "play": out.hand.set(a.card, text); break;
      case "buy":
        if (a.explorer) out.explorer = text;
        else if (a.upgrade) push(out.upgrades, a.slot, { upgrade: a.upgrade, text });
        else out.row.set(a.slot, text);
        break;
      case "primary": case "ally": case "double_ally": case "scrap_self":
        push(a.zone === "ship" ? out.ships : out.bases, a.index, { kind: a.kind, text });
        break;
      case "attack": seatSlot(a.seat).attack.push({ n: a.n, text }); break;
      case "attack_base": seatSlot(a.seat).bases.set(a.index, text); break;
      case "transfer": seatSlot(a.seat)[a.what === "combat" ? "combat" : "trade"].push({ n: a.n, text }); break;
      case "give": seatSlot(a.seat).give.push({ card: a.card, text }); break;
      case "switch": seatSlot(a.seat).switch = text; break;
      case "end": out.end = text; break;
      default: out.rest.push(text);
    }
  }
  for (const s of out.seats.values()) {
    s.attack.sort((x, y) => y.n - x.n);
    s.trade.sort((x, y) => y.n - x.n);
    s.combat.sort((x, y) => y.n - x.n);
  }
  return out;
}

/**
 * The actions aimed at another seat.
 * @typedef {object} SeatActions
 * @property {{n: number, text: string}[]} attack
 * @property {Map<number, string>} bases
 * @property {{n: number, text: string}[]} trade
 * @property {{n: number, text: string}[]} combat
 * @property {{card: string, text: string}[]} give
 * @property {string | null} switch
 */

/**
 * The legal actions sorted onto the table's controls (see `sortActions`).
 * @typedef {object} Sorted
 * @property {Map<string, string>} hand
 * @property {Map<number, string>} row
 * @property {Map<number, {upgrade: Upgrade, text: string}[]>} upgrades
 * @property {string | null} explorer
 * @property {Map<number, {kind: string, text: string}[]>} ships
 * @property {Map<number, {kind: string, text: string}[]>} bases
 * @property {Map<string, SeatActions>} seats
 * @property {string | null} end
 * @property {string[]} rest
 */

// ----- the log -----------------------------------------------------------------------------

/**
 * Reads log lines into entries `{index, seat, action, ref}`, where `ref` names what an index in
 * the line pointed at when it was played (the trade-row card bought, the base attacked, the
 * option chosen). It follows the table from the last observation seen through the lines of a
 * batch; what it cannot know (lines older than the page) comes from the tab's cache when it has
 * them, or stays unnamed.
 */
export class LogReader {
  /** @param {number | string} gameId */
  constructor(gameId) {
    this.key = "realms-log-" + gameId;
    /** @type {{row: (string | null)[], ships: string[][], bases: string[][]} | null} */
    this.sim = null;
    /** @type {{card: string, ability: string, at: number} | null} */
    this.choose = null;
    try {
      /** @type {Record<number, import("./types.js").LogRef>} */
      this.cache = JSON.parse(sessionStorage.getItem(this.key) || "{}");
    } catch (e) {
      this.cache = {};
    }
  }

  /**
   * Reads the lines that came with a view; `obs` is that view's observation.
   * @param {import("./types.js").LogLine[]} lines
   * @param {SrObservation} obs
   * @returns {LogEntry[]}
   */
  read(lines, obs) {
    const entries = lines.map((line) => this.entry(line));
    this.reset(obs);
    try {
      sessionStorage.setItem(this.key, JSON.stringify(this.cache));
    } catch (e) {
      // A full storage only costs names in the log after a reload.
    }
    return entries;
  }

  /** @param {SrObservation} obs */
  reset(obs) {
    this.sim = {
      row: obs.row.slice(),
      ships: obs.players.map((p) => p.ships.map((s) => s.card)),
      bases: obs.players.map((p) => p.bases.map((s) => s.card)),
    };
    const p = obs.pending;
    this.choose = p && p.decision === "choose" ? { card: p.source.card, ability: p.source.ability, at: p.at } : null;
  }

  /**
   * @param {import("./types.js").LogLine} line
   * @returns {LogEntry}
   */
  entry(line) {
    const a = parse(line.action);
    /** @type {import("./types.js").LogRef | null} */
    let ref = null;
    const sim = this.sim;
    const me = seatIndex(line.seat);
    if (sim) {
      switch (a.kind) {
        case "buy": case "acquire": case "scrap_row":
          if (!a.explorer) {
            ref = { card: sim.row[a.slot] || null };
            sim.row[a.slot] = null;
          }
          break;
        case "attack_base": case "destroy": {
          const bases = sim.bases[seatIndex(a.seat)] || [];
          ref = { card: bases[a.index] || null };
          bases.splice(a.index, 1);
          break;
        }
        case "primary": case "ally": case "double_ally": case "scrap_self": case "copy": {
          const zone = a.kind === "copy" || a.zone === "ship" ? sim.ships[me] : sim.bases[me];
          const id = zone ? zone[a.index] || null : null;
          ref = { card: id };
          if (a.kind === "scrap_self" && zone) zone.splice(a.index, 1);
          if (id && a.kind !== "copy") this.noteChoose(id, a.kind === "scrap_self" ? "scrap" : a.kind);
          break;
        }
        case "play": {
          const c = card(a.card);
          if (sim.ships[me]) (c.kind === "ship" ? sim.ships[me] : sim.bases[me]).push(a.card);
          if (c.kind === "ship") this.noteChoose(a.card, "primary");
          break;
        }
        case "choose":
          if (this.choose) ref = { option: [this.choose.card, this.choose.ability, this.choose.at] };
          break;
        case "end":
          if (sim.ships[me]) sim.ships[me] = [];
          break;
        default:
          break;
      }
      if (ref && (ref.card || ref.option)) this.cache[line.index] = ref;
    } else if (this.cache[line.index]) {
      ref = this.cache[line.index];
    }
    // The server names the public card a line is about (`card`): lines from before this page's
    // first view are read with it too.
    if (line.card) ref = Object.assign({}, ref, { card: line.card });
    return { index: line.index, seat: line.seat, action: line.action, ref };
  }

  /**
   * Remembers the ability just used if it holds a "choose one", for the `choose` that follows.
   * @param {string} id
   * @param {string} ability
   */
  noteChoose(id, ability) {
    const options = chooseOptions(id, ability, 0);
    this.choose = options.length > 1 ? { card: id, ability, at: 0 } : this.choose;
  }
}

/**
 * The card a log line is about, when the line names one (for its large view).
 * @param {LogEntry} entry
 * @returns {string | null}
 */
export function logCard(entry) {
  const a = parse(entry.action);
  /** @type {import("./types.js").LogRef} */
  const ref = entry.ref || {};
  switch (a.kind) {
    case "play": case "scrap_card": case "discard": case "give": case "bequeath": case "top_base": return a.card;
    case "buy": case "acquire": return a.explorer ? "explorer" : ref.card || null;
    case "primary": case "ally": case "double_ally": case "scrap_self": case "scrap_row": case "attack_base": case "destroy": case "copy": case "copy_base":
      return ref.card || null;
    default: return null;
  }
}

/**
 * A log entry in words.
 * @param {LogEntry} entry
 * @param {SeatName} seatName
 * @returns {string}
 */
export function logText(entry, seatName) {
  const a = parse(entry.action);
  const player = seatName(entry.seat);
  /** @type {import("./types.js").LogRef} */
  const ref = entry.ref || {};
  const refCard = (/** @type {string} */ fallbackKey, /** @type {number} */ n) => (ref.card ? cardName(ref.card) : t(fallbackKey, { n }));
  switch (a.kind) {
    case "play": return t("web.log.play", { player, card: cardName(a.card) });
    case "primary": return t("web.log.primary", { player, card: refCard("web.log.base_n", a.index + 1) });
    case "ally": return t("web.log.ally", { player, card: refCard(a.zone === "ship" ? "web.log.ship_n" : "web.log.base_n", a.index + 1) });
    case "double_ally": return t("web.log.double_ally", { player, card: refCard(a.zone === "ship" ? "web.log.ship_n" : "web.log.base_n", a.index + 1) });
    case "top_base": return t("web.log.top_base", { player, card: cardName(a.card) });
    case "scrap_self": return t("web.log.scrap_self", { player, card: refCard(a.zone === "ship" ? "web.log.ship_n" : "web.log.base_n", a.index + 1) });
    case "buy":
      if (a.upgrade) return t("web.log.buy_upgrade", { player, card: refCard("web.log.row_n", a.slot + 1), sheet: a.upgrade.sheet, row: a.upgrade.row });
      return t("web.log.buy", { player, card: a.explorer ? cardName("explorer") : refCard("web.log.row_n", a.slot + 1) });
    case "acquire": return t("web.log.acquire", { player, card: a.explorer ? cardName("explorer") : refCard("web.log.row_n", a.slot + 1) });
    case "scrap_row": return t("web.log.scrap_row", { player, card: refCard("web.log.row_n", a.slot + 1) });
    case "attack": return t("web.log.attack", { player, target: seatName(a.seat), n: a.n });
    case "attack_base": return t("web.log.attack_base", { player, target: seatName(a.seat), card: refCard("web.log.base_n", a.index + 1) });
    case "destroy": return t("web.log.destroy", { player, target: seatName(a.seat), card: refCard("web.log.base_n", a.index + 1) });
    case "end": return t("web.log.end", { player });
    case "pass": return t("web.log.pass", { player });
    case "top": return t("web.log.top", { player });
    case "choose": {
      let option = String(a.n + 1);
      if (ref.option) {
        const options = chooseOptions(ref.option[0], ref.option[1], ref.option[2]);
        if (options[a.n]) option = options[a.n];
      }
      return t("web.log.choose", { player, option });
    }
    case "scrap_card": return t(a.zone === "hand" ? "web.log.scrap_hand" : "web.log.scrap_discard", { player, card: cardName(a.card) });
    case "discard": return t("web.log.discard", { player, card: cardName(a.card) });
    case "target": return t("web.log.target", { player, target: seatName(a.seat) });
    case "copy": return t("web.log.copy", { player, card: refCard("web.log.ship_n", a.index + 1) });
    case "copy_base": return t("web.log.copy", { player, card: refCard("web.log.base_n", a.index + 1) });
    case "to_hand": return t("web.log.to_hand", { player });
    case "give": return t("web.log.give", { player, target: seatName(a.seat), card: cardName(a.card) });
    case "bequeath": return t("web.log.bequeath", { player, card: cardName(a.card) });
    case "transfer": return t(a.what === "combat" ? "web.log.transfer_combat" : "web.log.transfer_trade", { player, target: seatName(a.seat), n: a.n });
    case "switch": return t("web.log.switch", { player, target: seatName(a.seat) });
    default: return t("web.log.raw", { player, action: entry.action });
  }
}
