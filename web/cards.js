// @ts-check
// Star Realms cards drawn in CSS: faction colour, name, cost, kind, defense, ability text.

import { h } from "./dom.js";
import { t, card } from "./i18n.js";
import { cardArt } from "./art.js";

/**
 * The parts of a card's text: static lines first, then each ability with its label.
 * @param {string} id
 * @returns {{kind: string, label: string, body: string}[]}
 */
export function abilities(id) {
  const c = card(id);
  const text = c.text || "";
  const labels = [
    ["primary", t("ability.primary")],
    ["ally", t("ability.ally", { faction: c.ally_faction_name || c.faction_name || "?" })],
    ["double_ally", t("ability.double_ally", { faction: c.ally_faction_name || c.faction_name || "?" })],
    ["scrap", t("ability.scrap")],
    ["on_acquire", t("ability.on_acquire")],
  ];
  if (c.upgrade) labels.push(["upgrade", t("ability.upgrade", { sheet: c.upgrade.sheet_name, row: c.upgrade.row })]);
  const found = labels
    .map(([kind, label]) => ({ kind, label, at: text.indexOf(label) }))
    .filter((f) => f.at >= 0)
    .sort((a, b) => a.at - b.at);
  const parts = [];
  const start = found.length ? found[0].at : text.length;
  if (start > 0) parts.push({ kind: "static", label: "", body: text.slice(0, start).trim() });
  found.forEach((f, i) => {
    const end = i + 1 < found.length ? found[i + 1].at : text.length;
    parts.push({ kind: f.kind, label: f.label, body: text.slice(f.at + f.label.length, end).trim() });
  });
  return parts;
}

/**
 * The options of the "choose one" at position `at` of a card's ability, as texts.
 * @param {string} id
 * @param {string} ability
 * @param {number} at
 * @returns {string[]}
 */
export function chooseOptions(id, ability, at) {
  const part = abilities(id).find((p) => p.kind === ability);
  if (!part) return [];
  const or = t("eff.or").trim();
  const body = part.body.replace(/\.$/, "");
  const effects = body.split(". ");
  let chosen = effects[at] !== undefined && effects[at].includes(" " + or + " ") ? effects[at] : body;
  return chosen.split(" " + or + " ").map((s) => s.trim());
}

/**
 * The text of one ability of a card (`primary`, `ally`, `scrap`), for buttons.
 * @param {string} id
 * @param {string} ability
 */
export function abilityText(id, ability) {
  const part = abilities(id).find((p) => p.kind === ability);
  return part ? part.body : "";
}

/**
 * The card's faction classes: `f-<faction>`, and for an upgraded card `f2-<side> upgraded`.
 * @param {string} id
 */
export function factionClass(id) {
  const c = card(id);
  const classes = ["f-" + (c.faction || "none")];
  const second = (c.factions || []).find((f) => f !== c.faction);
  if (second) classes.push("f2-" + second);
  if (c.upgrade) classes.push("upgraded");
  return classes.join(" ");
}

/**
 * What `cardTile` draws besides the card (see there).
 * @typedef {object} TileOptions
 * @property {string | null} [action]
 * @property {(action: string) => void} [onAct]
 * @property {number} [damage]
 * @property {string | null} [copy]
 * @property {boolean} [compact]
 * @property {boolean} [mini]
 * @property {boolean} [zoom]
 * @property {import("./types.js").Child[]} [buttons]
 * @property {boolean} [used]
 * @property {boolean} [hideCost]
 * @property {string | null} [label]
 * @property {string | null} [key]
 */

/** @param {string} kind */
function kindWord(kind) {
  if (kind === "outpost") return t("outpost");
  if (kind === "base") return t("base");
  return t("ship");
}

/**
 * A card tile. `opts`: `action` (the legal action a click sends: sets `data-action`),
 * `onAct(action)`, `damage`, `copy` (the ship a Stealth Needle copies), `compact` (a smaller
 * tile), `mini` (one line: name and defense, for the bases of the other players), `zoom` (the
 * large view), `buttons` (elements under the text), `used` (abilities spent, dims the card),
 * `hideCost`, `label` (what the action does, in words: what a screen reader says first), `key`
 * (the key that sends the action, see keys.js). Every tile carries `data-card`: hovering, a long
 * press or a click shows it large.
 * @param {string} id
 * @param {TileOptions} [opts]
 * @returns {HTMLDivElement}
 */
export function cardTile(id, opts = {}) {
  const c = card(id);
  const kind = c.kind || "ship";
  const classes = ["card", factionClass(id), "k-" + kind];
  if (opts.compact) classes.push("compact");
  if (opts.mini) classes.push("mini");
  if (opts.zoom) classes.push("zoomed");
  if (opts.action) classes.push("actionable");
  if (opts.used) classes.push("used");
  /** @type {import("./types.js").Attrs<HTMLDivElement>} */
  const attrs = { class: classes.join(" "), "data-card": id, "aria-label": c.name + ". " + c.text };
  if (opts.damage) attrs["data-damage"] = String(opts.damage);
  if (opts.copy) attrs["data-copy"] = opts.copy;
  if (opts.action) {
    attrs["data-action"] = opts.action;
    if (opts.label) attrs["aria-label"] = opts.label + ". " + c.text;
    if (opts.key) attrs["data-key"] = opts.key;
    attrs.role = "button";
    attrs.tabindex = "0";
    const onAct = /** @type {(action: string) => void} */ (opts.onAct);
    const action = opts.action;
    attrs.onclick = () => onAct(action);
    attrs.onkeydown = (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        onAct(action);
      }
    };
  }
  const def = kind !== "ship"
    ? h("span", { class: "def" + (kind === "outpost" ? " outpost" : ""), title: kindWord(kind) }, String(c.defense))
    : null;
  const damage = opts.damage ? h("span", { class: "damage" }, t("damaged", { n: opts.damage })) : null;
  if (opts.mini) {
    return h("div", attrs, cardArt(c.faction || "none", kind), h("span", { class: "card-name" }, c.name), damage, def);
  }
  const head = h("div", { class: "card-head" },
    h("span", { class: "card-name" }, c.name),
    opts.hideCost ? null : h("span", { class: "card-cost", title: t("web.card.cost") }, String(c.cost)));
  const line = h("div", { class: "card-line" }, (c.faction_name || t("unaligned")) + " · " + kindWord(kind));
  const copy = opts.copy ? h("div", { class: "card-copy" }, "→ " + card(opts.copy).name) : null;
  const text = h("div", { class: "card-text" },
    abilities(id).map((p) => h("p", { class: "ab ab-" + p.kind },
      p.label ? h("b", null, p.label + " ") : null, p.body)));
  let foot = null;
  if (kind !== "ship" || damage) {
    foot = h("div", { class: "card-foot" },
      def,
      kind === "outpost" ? h("span", { class: "outpost-mark" }, t("outpost")) : null,
      damage);
  }
  const buttons = opts.buttons && opts.buttons.length ? h("div", { class: "card-buttons" }, opts.buttons) : null;
  return h("div", attrs, cardArt(c.faction || "none", kind), head, line, copy, text, foot, buttons);
}

/**
 * A card named in running text, coloured by faction.
 * @param {string} id
 * @param {string | null} [extra]
 */
export function cardChip(id, extra) {
  return h("span", { class: "chip " + factionClass(id), "data-card": id }, card(id).name, extra || null);
}
