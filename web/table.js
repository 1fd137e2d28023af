// @ts-check
// The Star Realms table: every seat's public state, the viewer's hand and pools, the trade
// row, the log, and each legal action of the view as a control carrying `data-action`.

import { h } from "./dom.js";
import { t, cardName, sheet } from "./i18n.js";
import { cardTile, cardChip, abilityText } from "./cards.js";
import { hideStale } from "./zoom.js";
import { snapshot, animate } from "./anim.js";
import { toggleHelp } from "./keys.js";
import { soundButton } from "./sound.js";
import { describe, sortActions, logText, logCard, seatIndex, seatOf, upgradePrice } from "./actions.js";

/** @typedef {import("./types.js").SrObservation} SrObservation */
/** @typedef {import("./types.js").SrPlayer} SrPlayer */
/** @typedef {import("./types.js").SeatName} SeatName */
/** @typedef {import("./types.js").TableCtx} TableCtx */
/** @typedef {import("./actions.js").Sorted} Sorted */

/**
 * What the seat to move must decide now, in words (`null`: the main phase).
 * @param {SrObservation} obs
 * @param {SeatName} seatName
 * @returns {string | null}
 */
export function decisionText(obs, seatName) {
  const p = obs.pending;
  if (!p) return null;
  switch (p.decision) {
    case "choose": {
      /** @type {Record<string, string>} */
      const names = { ally: "ability.ally_name", double_ally: "ability.double_ally_name", scrap: "ability.scrap_name", on_acquire: "ability.on_acquire_name" };
      const ability = t(names[p.source.ability] || "ability.primary_name");
      return t("dec.choose", { card: cardName(p.source.card), ability });
    }
    case "scrap": {
      const zone = t(p.from === "hand" ? "zone.hand" : p.from === "discard" ? "zone.discard" : "zone.hand_or_discard");
      return t(p.optional ? "dec.scrap_optional" : "dec.scrap", { n: p.left, zone });
    }
    case "scrap_trade_row": return t(p.optional ? "dec.scrap_row_optional" : "dec.scrap_row");
    case "destroy_base": return t(p.optional ? "dec.destroy_optional" : "dec.destroy");
    case "discard_target": return t("dec.target");
    case "player_discard_target": return t("dec.player_target");
    case "base_to_top": return t("dec.base_to_top");
    case "discard": return t("dec.discard", { player: seatName(p.seat), n: p.left });
    case "discard_then_draw": return t("dec.discard_then_draw", { n: p.left });
    case "copy_ship": return t("dec.copy");
    case "acquire_free": return t("dec.acquire");
    case "top_or_discard": return t("dec.top", { card: cardName(p.card) });
    case "bequeath": return t("dec.bequeath", { player: seatName(p.from), to: seatName(p.to) });
    case "acquire_up_to": return t("dec.acquire_up_to", { cost: p.cost });
    case "to_hand": return t("dec.to_hand", { card: cardName(p.card) });
    case "copy_base": return t("dec.copy_base");
    case "discard_for": return t("dec.discard_for", { n: p.left });
    case "discard_reward": return t("dec.discard_reward");
    default: return /** @type {{decision: string}} */ (p).decision;
  }
}

/**
 * The role of a seat in the table's format, as a message key (`null`: none).
 * @param {SrObservation} obs
 * @param {number} index
 */
export function roleKey(obs, index) {
  const format = obs.config.format;
  if (format === "emperor") return index % 3 === 1 ? "role.emperor" : "role.admiral";
  if (format === "raid") return index === 0 ? "role.boss" : "role.soldier";
  if (format === "hydra") return obs.players[index].team === 0 ? "role.team_a" : "role.team_b";
  return null;
}

/**
 * A button sending `action`.
 * @param {string} action
 * @param {string} label
 * @param {TableCtx} ctx
 * @param {import("./types.js").Attrs<HTMLButtonElement>} [extra]
 */
function actButton(action, label, ctx, extra = {}) {
  return h("button", Object.assign({ class: "btn", "data-action": action, onclick: () => ctx.act(action) }, extra), label);
}

/**
 * One action, or a family of them that differ by an amount or a card: a select to pick which
 * and a button that sends it (its `data-action` follows the select).
 * @param {{text: string, label: string}[]} items
 * @param {string} buttonLabel
 * @param {TableCtx} ctx
 * @param {string} [cls]
 */
function choiceControl(items, buttonLabel, ctx, cls) {
  if (items.length === 0) return null;
  if (items.length === 1) return h("div", { class: "choice " + (cls || "") }, actButton(items[0].text, buttonLabel + " " + items[0].label, ctx));
  const label = (/** @type {string} */ text) => buttonLabel + " " + /** @type {{label: string}} */ (items.find((i) => i.text === text)).label;
  const sender = h("button", { class: "btn", "data-action": items[0].text, onclick: () => ctx.act(select.value) }, label(items[0].text));
  const select = h("select", {
    class: "amount",
    "aria-label": buttonLabel,
    onchange: () => {
      sender.setAttribute("data-action", select.value);
      sender.textContent = label(select.value);
    },
  }, items.map((i) => h("option", { value: i.text }, i.label)));
  return h("div", { class: "choice " + (cls || "") }, sender, select);
}

/**
 * @param {string} label
 * @param {number} value
 * @param {string} [cls]
 */
function stat(label, value, cls) {
  return h("span", { class: "stat " + (cls || ""), title: label }, h("span", { class: "stat-label" }, label), h("span", { class: "stat-value" }, String(value)));
}

/**
 * Counts of a player's zones, the discard pile unfolding to its cards.
 * @param {SrPlayer} p
 * @param {string | null} seat
 */
function zones(p, seat) {
  const discard = p.discard.length
    ? h("details", { class: "discard pop", "data-keep": "discard-" + seat, "data-zone": "discard", "data-count": String(p.discard.length) },
      h("summary", null, t("zone.discard") + " " + p.discard.length),
      h("div", { class: "chips" }, p.discard.map((c) => cardChip(c))))
    : h("span", { class: "count", "data-zone": "discard", "data-count": "0" }, t("zone.discard") + " 0");
  return h("div", { class: "zones" },
    h("span", { class: "count" }, t("zone.hand") + " " + p.hand_count),
    h("span", { class: "count" }, t("zone.deck") + " " + p.deck_count),
    discard);
}

/** @param {SrPlayer} p */
function pools(p) {
  return h("div", { class: "pools" },
    stat(t("trade"), p.trade, "trade"),
    stat(t("combat"), p.combat, "combat"));
}

/**
 * Another seat's panel: authority, counts, bases, ships, and the actions aimed at it.
 * @param {SrObservation} obs
 * @param {number} index
 * @param {Sorted} sorted
 * @param {TableCtx} ctx
 */
function playerPanel(obs, index, sorted, ctx) {
  const p = obs.players[index];
  const seat = seatOf(index);
  const targets = sorted.seats.get(seat);
  const classes = ["player"];
  if (obs.current === seat) classes.push("current");
  if (obs.to_move === seat) classes.push("to-move");
  if (!p.alive) classes.push("dead");
  if (obs.config.format === "hydra" || obs.config.format === "emperor" || obs.config.format === "raid") classes.push("team-" + p.team);
  const bases = p.bases.map((b, i) => cardTile(b.card, {
    mini: true,
    damage: b.damage,
    action: targets ? targets.bases.get(i) : null,
    onAct: ctx.act,
  }));
  const ships = p.ships.length
    ? h("div", { class: "chips ships" }, h("span", { class: "mini-label" }, t("ships_in_play")), p.ships.map((s) => cardChip(s.card, s.copy ? " → " + cardName(s.copy) : null)))
    : null;
  const controls = [];
  if (targets) {
    controls.push(choiceControl(targets.attack.map((a) => ({ text: a.text, label: String(a.n) })), t("web.table.attack"), ctx, "attack"));
    controls.push(choiceControl(targets.trade.map((a) => ({ text: a.text, label: String(a.n) })), t("web.table.transfer_trade"), ctx));
    controls.push(choiceControl(targets.combat.map((a) => ({ text: a.text, label: String(a.n) })), t("web.table.transfer_combat"), ctx));
    controls.push(choiceControl(targets.give.map((a) => ({ text: a.text, label: cardName(a.card) })), t("web.table.give"), ctx));
    if (targets.switch) controls.push(h("div", { class: "choice" }, actButton(targets.switch, describe(targets.switch, obs, ctx.seatName), ctx)));
  }
  const hand = p.hand && seatOf(index) !== ctx.view.seat
    ? h("div", { class: "chips" }, h("span", { class: "mini-label" }, t("hand")), p.hand.map((c) => cardChip(c)))
    : null;
  return h("div", { class: classes.join(" "), "data-seat": seat },
    h("div", { class: "p-head" },
      h("span", { class: "p-name" }, ctx.seatName(seat)),
      presence(ctx.view, seat),
      obs.current === seat && !obs.over && !notStarted(ctx.view) ? h("span", { class: "badge turn" }, t("web.table.their_turn")) : null,
      !p.alive ? h("span", { class: "badge dead" }, t("defeated")) : null,
      h("div", { class: "p-stats" },
        stat(t("authority"), Math.max(0, p.authority), "authority"),
        obs.current === seat || p.trade || p.combat ? pools(p) : null)),
    zones(p, seat),
    sheetsView(p),
    p.pending_discards ? h("div", { class: "note" }, t("discards_owed", { n: p.pending_discards })) : null,
    hand,
    bases.length ? h("div", { class: "p-bases" }, bases) : null,
    ships,
    controls.some(Boolean) ? h("div", { class: "p-actions" }, controls) : null);
}

/**
 * Whether the game waits for somebody to take a seat (it has not started).
 * @param {import("./types.js").ShownView} view
 */
function notStarted(view) {
  return Boolean(view.waiting && view.waiting.length) && !view.over;
}

/**
 * Whether a person's seat is at the table: a dot (connected or not), or "waiting to join" for a
 * seat nobody took yet. Bots are always there: nothing is shown for them.
 * @param {import("./types.js").ShownView} view
 * @param {string} seat
 */
export function presence(view, seat) {
  const info = (view.seats || []).find((s) => s.seat === seat);
  if (!info || info.player !== "human" || view.over) return null;
  if (!info.claimed) {
    return h("span", { class: "badge waiting-seat", "data-testid": "waiting-" + seat }, t("web.seat.waiting"));
  }
  const word = t(info.connected ? "web.seat.connected" : "web.seat.disconnected");
  return h("span", {
    class: "presence " + (info.connected ? "online" : "offline"),
    "data-testid": "presence-" + seat,
    "data-connected": info.connected ? "true" : "false",
    title: word,
    role: "img",
    "aria-label": word,
  }, info.connected ? null : word);
}

/**
 * Buttons for the abilities of an own card in play.
 * @param {{kind: string, text: string}[] | undefined} list
 * @param {string} id
 * @param {TableCtx} ctx
 */
function abilityButtons(list, id, ctx) {
  if (!list) return [];
  /** @type {Record<string, string>} */
  const words = { primary: "web.card.use_primary", ally: "web.card.use_ally", double_ally: "web.card.use_double_ally", scrap_self: "web.card.use_scrap" };
  /** @type {Record<string, string>} */
  const ability = { primary: "primary", ally: "ally", double_ally: "double_ally", scrap_self: "scrap" };
  return list.map((a) => h("button", {
    class: "btn small ab-" + ability[a.kind],
    "data-action": a.text,
    title: abilityText(id, ability[a.kind]),
    "aria-label": t(words[a.kind]) + " (" + cardName(id) + "): " + abilityText(id, ability[a.kind]),
    onclick: (e) => {
      e.stopPropagation();
      ctx.act(a.text);
    },
  }, t(words[a.kind])));
}

/**
 * A player's sticker sheets: each row's printed cost and which sticker is used.
 * @param {SrPlayer} p
 */
function sheetsView(p) {
  if (!p.sheets || !p.sheets.length) return null;
  return h("div", { class: "sheets", "data-testid": "sheets" }, p.sheets.map((u, k) => {
    const s = sheet(u.sheet);
    const cells = s.rows.map((row, r) => {
      const bit = 1 << r;
      const used = u.ship & bit ? "ship" : u.base & bit ? "base" : null;
      const title = t("web.sheet.row", { row: r + 1, cost: row.cost })
        + (row.ship ? "\n" + t("ship") + ": " + row.ship : "")
        + (row.base ? "\n" + t("base") + ": " + row.base : "");
      return h("span", { class: "sheet-row" + (used ? " used " + used : ""), title, "data-row": String(r + 1), "data-used": used || "" },
        String(row.cost), used ? h("b", null, used === "ship" ? t("web.sheet.ship_mark") : t("web.sheet.base_mark")) : null);
    });
    return h("div", { class: "sheet f-" + (s.side || "none"), "data-sheet": u.sheet },
      h("span", { class: "sheet-name", title: s.name }, "s" + (k + 1) + " " + s.name),
      u.political ? h("span", { class: "badge political", title: t("sheet.political") }, t("web.sheet.political")) : null,
      h("span", { class: "sheet-rows" }, cells));
  }));
}

/**
 * A trade-row card that knows its slot (for the motion of a purchase).
 * @param {number} i
 * @param {HTMLElement} el
 */
function slotted(i, el) {
  el.setAttribute("data-slot", String(i));
  return el;
}

/**
 * @param {SrObservation} obs
 * @param {Sorted} sorted
 * @param {TableCtx} ctx
 */
function tradeRow(obs, sorted, ctx) {
  const slots = obs.row.map((c, i) => (c
    ? slotted(i, cardTile(c, {
      action: sorted.row.get(i),
      onAct: ctx.act,
      label: sorted.row.get(i) ? describe(/** @type {string} */ (sorted.row.get(i)), obs, ctx.seatName) : null,
      key: i < 9 ? String(i + 1) : null,
      buttons: (sorted.upgrades.get(i) || []).map((u) => h("button", {
        class: "btn small upgrade",
        "data-action": u.text,
        title: describe(u.text, obs, ctx.seatName),
        onclick: (e) => {
          e.stopPropagation();
          ctx.act(u.text);
        },
      }, t("web.table.upgrade", { sheet: u.upgrade.sheet, row: u.upgrade.row, price: upgradePrice(c) }))),
    }))
    : h("div", { class: "card empty" }, h("span", null, t("web.table.empty_slot")))));
  const explorer = h("div", { class: "pile" },
    obs.explorers > 0
      ? cardTile("explorer", {
        action: sorted.explorer,
        onAct: ctx.act,
        label: sorted.explorer ? describe(sorted.explorer, obs, ctx.seatName) : null,
        key: "0",
      })
      : h("div", { class: "card empty" }, h("span", null, t("web.table.empty_slot"))),
    h("div", { class: "pile-count" }, t("web.table.explorers", { n: obs.explorers })));
  // The trade deck and the scrap heap: a pile at the end of the row, the heap's cards on demand.
  const decks = h("div", { class: "pile deck-info" },
    h("span", { class: "muted" }, t("trade_deck_left", { n: obs.trade_deck_count })),
    obs.scrap_heap.length
      ? h("details", { class: "scrap-heap pop", "data-keep": "scrap-heap", "data-testid": "scrap-heap" },
        h("summary", { class: "muted" }, t("web.table.scrap_heap", { n: obs.scrap_heap.length })),
        h("div", { class: "chips" }, obs.scrap_heap.map((c) => cardChip(c))))
      : null);
  return h("section", { class: "area row-area zone-row" },
    h("h2", { class: "zone-label" }, t("trade_row")),
    h("div", { class: "row", "data-testid": "trade-row", "data-keep": "row" }, slots, explorer, decks));
}

const CONFIRM_END_KEY = "realms-confirm-end";

/** Whether ending a turn with something left to do asks first (the default). */
function confirmEndWanted() {
  return localStorage.getItem(CONFIRM_END_KEY) !== "off";
}

/** @param {boolean} on */
function setConfirmEnd(on) {
  if (on) localStorage.removeItem(CONFIRM_END_KEY);
  else localStorage.setItem(CONFIRM_END_KEY, "off");
}

/**
 * The viewer's own area: pools, cards in play, hand, and the end of the turn.
 * @param {SrObservation} obs
 * @param {Sorted} sorted
 * @param {TableCtx} ctx
 */
function ownArea(obs, sorted, ctx) {
  const me = seatIndex(ctx.view.seat);
  const p = obs.players[me];
  const myTurn = ctx.view.to_move === ctx.view.seat;
  const ships = p.ships.map((s, i) => cardTile(s.card, {
    copy: s.copy,
    used: !sorted.ships.has(i),
    buttons: abilityButtons(sorted.ships.get(i), s.copy || s.card, ctx),
  }));
  const bases = p.bases.map((b, i) => cardTile(b.card, {
    damage: b.damage,
    used: !sorted.bases.has(i),
    buttons: abilityButtons(sorted.bases.get(i), b.card, ctx),
  }));
  const hand = (p.hand || []).map((c) => {
    const action = sorted.hand.get(c);
    return cardTile(c, { action, onAct: ctx.act, label: action ? describe(action, obs, ctx.seatName) : null });
  });
  let endLabel;
  if (ctx.view.over) endLabel = t("game_over");
  else if (notStarted(ctx.view)) endLabel = t("web.table.not_started");
  else if (sorted.end) endLabel = t("act.end");
  else if (myTurn) endLabel = t("web.table.decide_first");
  else endLabel = t("web.table.waiting", { player: ctx.seatName(ctx.view.to_move) });
  // Ending the turn while a card can still be played, bought or an attack made asks first
  // (unless the player turned that off).
  const stillToDo = ctx.view.legal_actions.some((a) => /^(play|buy|attack) /.test(a));
  const end = h("button", {
    class: "btn primary end-turn",
    "data-testid": "end-turn",
    "data-action": sorted.end || null,
    "data-key": "E",
    disabled: !sorted.end,
    onclick: () => {
      if (!sorted.end) return;
      if (stillToDo && confirmEndWanted()) {
        ctx.ui.confirmEnd = true;
        ctx.rerender();
      } else {
        ctx.act(sorted.end);
      }
    },
  }, endLabel);
  const confirm = ctx.ui.confirmEnd && sorted.end
    ? h("div", { class: "end-confirm note warn", "data-testid": "end-confirm", role: "alertdialog" },
      h("p", null, t("web.table.end_confirm")),
      h("div", { class: "end-confirm-buttons" },
        h("button", {
          class: "btn primary",
          "data-testid": "end-confirm-yes",
          onclick: () => {
            ctx.ui.confirmEnd = false;
            ctx.act(/** @type {string} */ (sorted.end));
          },
        }, t("web.table.end_anyway")),
        h("button", {
          class: "btn",
          "data-testid": "end-confirm-no",
          onclick: () => {
            ctx.ui.confirmEnd = false;
            ctx.rerender();
          },
        }, t("web.table.keep_playing"))),
      h("label", { class: "check small" },
        h("input", {
          type: "checkbox",
          "data-testid": "end-confirm-off",
          onchange: (e) => setConfirmEnd(!e.target.checked),
        }),
        h("span", null, t("web.table.end_confirm_off"))))
    : null;
  const playable = (p.hand || []).filter((c) => sorted.hand.has(c)).length;
  const left = [];
  if (p.trade > 0) left.push(p.trade + " " + t("trade"));
  if (p.combat > 0) left.push(p.combat + " " + t("combat"));
  if (playable > 0) left.push(t(playable === 1 ? "web.table.unspent_card" : "web.table.unspent_cards", { n: playable }));
  const unspent = sorted.end && left.length
    ? h("div", { class: "note warn" }, t("web.table.unspent", { list: left.join(", ") }))
    : null;
  const playAll = playable > 1
    ? h("button", { class: "btn small", "data-testid": "play-all", "data-key": "A", onclick: () => ctx.playAll() }, t("web.table.play_all"))
    : null;
  const seat = ctx.view.seat;
  const others = sorted.rest.length && !obs.pending
    ? h("div", { class: "other-actions" }, sorted.rest.map((a) => actButton(a, describe(a, obs, ctx.seatName), ctx)))
    : null;
  const team = ["hydra", "emperor", "raid"].includes(obs.config.format) ? " team-" + p.team : "";
  return h("section", { class: "area me" + (myTurn ? " to-move" : "") + team, "data-seat": seat },
    h("div", { class: "me-head" },
      h("div", { class: "me-name" },
        h("span", { class: "p-name" }, ctx.seatName(seat)),
        !p.alive ? h("span", { class: "badge dead" }, t("defeated")) : null),
      h("div", { class: "me-stats" },
        stat(t("authority"), Math.max(0, p.authority), "authority"),
        stat(t("trade"), p.trade, "trade"),
        stat(t("combat"), p.combat, "combat")),
      zones(p, seat),
      ctx.replay ? null : h("div", { class: "turn-box" }, playAll, end, confirm, unspent)),
    sheetsView(p),
    p.pending_discards ? h("div", { class: "note" }, t("discards_owed", { n: p.pending_discards })) : null,
    others,
    h("div", { class: "zone-row" },
      h("h2", { class: "zone-label" }, t("web.table.in_play")),
      h("div", { class: "cards in-play", "data-testid": "in-play", "data-keep": "in-play" },
        ships.length || bases.length ? [bases, ships] : h("span", { class: "muted" }, t("web.table.nothing_in_play")))),
    h("div", { class: "zone-row" },
      h("h2", { class: "zone-label" }, t("hand") + " (" + p.hand_count + ")"),
      h("div", { class: "cards hand", "data-testid": "hand", "data-keep": "hand" },
        hand.length ? hand : h("span", { class: "muted" }, t("web.table.empty_hand")))));
}

/**
 * The decision waited for, when it is the viewer's: every legal action as a choice.
 * @param {SrObservation} obs
 * @param {TableCtx} ctx
 */
function dialog(obs, ctx) {
  const text = decisionText(obs, ctx.seatName);
  // Drawn only while a decision is pending.
  const p = /** @type {import("./types.js").Pending} */ (obs.pending);
  const me = seatIndex(ctx.view.seat);
  const options = ctx.view.legal_actions.map((a, n) => {
    const key = n < 9 ? String(n + 1) : null;
    const label = describe(a, obs, ctx.seatName);
    const words = a.split(" ");
    let id = null;
    if ((words[0] === "scrap" || words[0] === "discard" || words[0] === "bequeath") && words[1] !== "row") id = words[words.length - 1];
    if ((words[0] === "scrap" || words[0] === "acquire") && words[1] === "row") id = obs.row[Number(words[2])];
    if (words[0] === "acquire" && words[1] === "explorer") id = "explorer";
    if (words[0] === "copy" && words[1] === "ship") id = obs.players[me].ships[Number(words[2])]?.card || null;
    if (words[0] === "destroy") id = obs.players[seatIndex(words[1])]?.bases[Number(words[3])]?.card || null;
    if ((words[0] === "top" || words[0] === "hand") && p.card) id = p.card;
    if (words[0] === "copy" && words[2] === "base") id = obs.players[seatIndex(words[1])]?.bases[Number(words[3])]?.card || null;
    if (id) {
      return h("div", {
        class: "option card-option",
        "data-action": a,
        "data-key": key,
        role: "button",
        tabindex: "0",
        "aria-label": label,
        onclick: () => ctx.act(a),
        onkeydown: (e) => {
          if (e.key === "Enter" || e.key === " ") {
            e.preventDefault();
            ctx.act(a);
          }
        },
      },
        cardTile(id, { compact: true }), h("span", { class: "caption" }, label));
    }
    const cls = words[0] === "pass" ? "btn option pass" : "btn option";
    return h("button", { class: cls, "data-action": a, "data-key": key, onclick: () => ctx.act(a) }, label);
  });
  const source = p.decision === "choose" || p.decision === "discard_reward" || p.decision === "discard_for"
    ? h("div", { class: "dialog-source" }, cardTile(p.source.card, { compact: true }))
    : null;
  const collapsed = ctx.ui.dialogCollapsed;
  return h("div", { class: "dialog" + (collapsed ? " collapsed" : ""), "data-testid": "dialog", role: "dialog", "aria-label": text },
    h("div", { class: "dialog-head" },
      h("h2", null, text),
      h("button", { class: "btn small", onclick: () => ctx.toggleDialog() }, t(collapsed ? "web.dialog.show" : "web.dialog.hide"))),
    collapsed ? null : h("div", { class: "dialog-body" }, source, h("div", { class: "options" }, options)));
}

/**
 * The log: one line per action, in words, with a rule at the end of each turn.
 * @param {import("./types.js").LogEntry[]} entries
 * @param {SeatName} seatName
 * @param {string | null} viewer
 */
export function logPanel(entries, seatName, viewer) {
  const lines = entries.map((e) => h("li", {
    class: "log-line" + (e.action === "end" ? " turn-end" : "") + (e.seat === viewer ? " mine" : ""),
    "data-card": logCard(e) || null,
  }, logText(e, seatName)));
  const list = h("ol", { class: "log-lines", "data-keep": "log" }, lines);
  return h("section", { class: "area log", "data-testid": "log" },
    h("div", { class: "area-head" }, h("h2", null, t("web.table.log"))),
    list);
}

/**
 * The status line: turn, whose turn, what is waited for.
 * @param {SrObservation} obs
 * @param {TableCtx} ctx
 */
function status(obs, ctx) {
  const view = ctx.view;
  const parts = [t("turn", { turn: obs.turn })];
  if (view.over) parts.push(t("game_over"));
  else if (notStarted(view)) parts.push(t("web.table.not_started"));
  else {
    parts.push(t("to_move", { player: ctx.seatName(obs.current) }));
    if (view.to_move && view.to_move !== obs.current) parts.push(t("web.table.deciding", { player: ctx.seatName(view.to_move) }));
  }
  const waiting = !view.over && obs.pending && view.to_move !== view.seat ? decisionText(obs, ctx.seatName) : null;
  return h("div", { class: "status" + (view.to_move && view.to_move === view.seat ? " mine" : "") },
    ctx.yourTurn ? h("span", { class: "your-turn", "data-testid": "your-turn", role: "status" }, t("web.table.your_turn")) : null,
    view.seat ? null : h("span", { class: "badge watching" }, t("web.game.watching")),
    h("span", { class: "status-text" }, parts.join(" · "), waiting ? h("span", { class: "muted" }, " — " + waiting) : null),
    h("button", {
      class: "btn small log-toggle",
      "data-testid": "log-toggle",
      "aria-expanded": ctx.ui.logOpen ? "true" : "false",
      onclick: () => {
        ctx.ui.logOpen = !ctx.ui.logOpen;
        ctx.rerender();
      },
    }, t("web.table.log")),
    ctx.leave,
    h("button", {
      class: "btn small keys-button",
      "data-testid": "keys-button",
      title: t("web.keys.title"),
      "aria-label": t("web.keys.title"),
      onclick: () => toggleHelp(),
    }, "?"),
    ctx.view.seat ? soundButton() : null);
}

/**
 * Fills `root` with the table of `ctx.view`. `ctx`: `view`, `log` (entries), `act(action)`,
 * `seatName(seat)`, `playAll()`, `ui` (what the page remembers between views),
 * `toggleDialog()`, `header` (elements above the board: result, share link), `leave` (the
 * button that leaves the game to a bot, or null).
 * @param {HTMLElement} root
 * @param {TableCtx} ctx
 */
export function renderTable(root, ctx) {
  const view = ctx.view;
  /** @type {SrObservation} */
  const obs = view.observation;
  const sorted = sortActions(view.legal_actions, obs);
  const n = obs.players.length;
  const me = view.seat ? seatIndex(view.seat) : -1;
  // Others in turn order from the viewer's left; a spectator sees everybody.
  const order = [];
  for (let k = 1; k <= n; k++) {
    const i = me >= 0 ? (me + k) % n : k - 1;
    if (i !== me) order.push(i);
  }
  const players = h("section", { class: "players" + (order.length > 2 ? " many" : "") }, order.map((i) => playerPanel(obs, i, sorted, ctx)));
  const main = h("div", { class: "main-col" },
    players,
    tradeRow(obs, sorted, ctx),
    me >= 0 ? ownArea(obs, sorted, ctx) : null);
  const dialogShown = obs.pending && view.to_move === view.seat && view.legal_actions.length;
  const table = h("div", {
    class: "table sr" + (n <= 2 ? " duel" : "") + (ctx.busy ? " busy" : "") + (dialogShown ? " has-dialog" : "") + (ctx.ui.logOpen ? " log-open" : ""),
    "data-testid": "table",
    "data-version": String(view.version),
    "data-to-move": view.to_move || "",
    "data-seat": view.seat || "",
  },
  ctx.header,
  status(obs, ctx),
  h("div", { class: "board" }, main, h("aside", { class: "side" }, logPanel(ctx.log, ctx.seatName, view.seat))),
  dialogShown ? dialog(obs, ctx) : null);
  const kept = keptState(root);
  const focus = focusOf(root);
  const before = snapshot(root);
  root.replaceChildren(table);
  restoreState(root, kept);
  refocus(root, focus);
  hideStale();
  animate(root, before);
}

/**
 * Where the keyboard's focus is in the table (the action or hook of the focused control, and
 * its zone), so that a new view puts it back rather than drop it on the page.
 * @param {HTMLElement} root
 * @returns {{action: string | null, testid: string | null, zone: string | null} | null}
 */
function focusOf(root) {
  const el = document.activeElement;
  if (!el || el === document.body || !root.contains(el)) return null;
  const zone = el.parentElement && el.parentElement.closest("[data-testid]");
  return {
    action: el.getAttribute("data-action"),
    testid: el.getAttribute("data-testid"),
    zone: zone ? zone.getAttribute("data-testid") : null,
  };
}

/**
 * @param {HTMLElement} root
 * @param {ReturnType<typeof focusOf>} focus
 */
function refocus(root, focus) {
  if (!focus) return;
  const esc = (/** @type {string} */ v) => CSS.escape(v);
  /** @type {HTMLElement | null} */
  const target = (focus.action && root.querySelector(`[data-action="${esc(focus.action)}"]`))
    || (focus.testid && root.querySelector(`[data-testid="${esc(focus.testid)}"]`))
    || (focus.zone && root.querySelector(`[data-testid="${esc(focus.zone)}"] [data-action]`))
    || root.querySelector('[data-testid="hand"] [data-action]')
    || root.querySelector('[data-testid="dialog"] [data-action]')
    || root.querySelector('[data-testid="end-turn"]:not([disabled])');
  if (target) target.focus({ preventScroll: true });
}

/**
 * What a new view must not undo: the scroll of the boxes that scroll (trade row, hand, log),
 * the discard piles opened. Elements carry it under their `data-keep` name.
 * @param {HTMLElement} root
 */
function keptState(root) {
  /** @type {Map<string | null, {left: number, top: number, atBottom: boolean, open: boolean}>} */
  const state = new Map();
  for (const el of root.querySelectorAll("[data-keep]")) {
    const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
    // `open` is a discard pile's or the scrap heap's (`<details>`).
    state.set(el.getAttribute("data-keep"), { left: el.scrollLeft, top: el.scrollTop, atBottom, open: /** @type {HTMLDetailsElement} */ (el).open });
  }
  return state;
}

/**
 * @param {HTMLElement} root
 * @param {ReturnType<typeof keptState>} state
 */
function restoreState(root, state) {
  for (const el of root.querySelectorAll("[data-keep]")) {
    const old = state.get(el.getAttribute("data-keep"));
    if (el.tagName === "DETAILS") {
      if (old && old.open) /** @type {HTMLDetailsElement} */ (el).open = true;
      continue;
    }
    if (old) el.scrollLeft = old.left;
    // The log follows the game unless its reader scrolled back.
    if (el.classList.contains("log-lines")) el.scrollTop = !old || old.atBottom ? el.scrollHeight : old.top;
  }
}
