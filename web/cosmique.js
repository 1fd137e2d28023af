// @ts-check
// The Bataille Cosmique table: four planets around the sun, the player's hand and the legal
// actions as buttons. The main interface calls renderCosmique(root, ctx) with an emptied root
// on every new view; what must outlive one view (the journal, the selected card) is kept here,
// per game and seat.
//
// The player's own planet is at the bottom; clockwise from it (the next planet, its left
// neighbour) comes the planet on the left of the screen, then the top one, then the right one,
// so a planet's left slot faces the neighbour the screen shows on that side.

/** @typedef {import("./types.js").CosPlanet} CosPlanet */
/** @typedef {import("./types.js").ShownView} ShownView */

/**
 * An action's parts (see `parseAction`): the side is 0 (left) or 1 (right).
 * @typedef {{kind: "attack", side: number, card: string | null, plus2: boolean, seat?: undefined}
 *   | {kind: "defend" | "replace", side: number, card: string | null, plus2?: undefined, seat?: undefined}
 *   | {kind: "swap", seat: string, card: string, side?: undefined, plus2?: undefined}
 *   | {kind: "take", card?: undefined, side?: undefined, plus2?: undefined, seat?: undefined}
 *   | {kind: "end", card?: undefined, side?: undefined, plus2?: undefined, seat?: undefined}} CosAction
 */

/**
 * A line of the journal: an action of the log (with the planet it aimed at, the card it took
 * from an orbit), or life a planet lost.
 * @typedef {{kind: "action", index: number, seat: number, action: string, target: number | null, taken: string | null}
 *   | {kind: "loss", seat: number, amount: number, life: number}} JournalEntry
 */

/**
 * The journal of a game and seat, and what the next view is compared with.
 * @typedef {object} Journal
 * @property {Set<number>} seen the log lines read
 * @property {JournalEntry[]} entries
 * @property {number[] | null} life each planet's, at the last view
 * @property {(string | null)[] | null} orbits
 * @property {number} version
 * @property {Map<number, {amount: number, version: number}>} lastLoss
 */

const COLOURS = ["red", "blue", "green", "yellow"];
/** @type {Record<string, string>} */
const COLOUR_KEYS = { red: "cos.red", blue: "cos.blue", green: "cos.green", yellow: "cos.yellow" };
const SIDE_KEYS = ["cos.left", "cos.right"];
const SIDES = ["left", "right"];
// A shape for each colour, for players who do not tell the colours apart.
/** @type {Record<string, string>} */
const GLYPHS = { red: "\u25CF", blue: "\u25A0", green: "\u25B2", yellow: "\u2605" };
// Screen positions, by offset clockwise from the viewer: bottom, left, top, right.
const POSITIONS = ["me", "left", "top", "right"];
const COORDS = [[0, 1], [-1, 0], [0, -1], [1, 0]];
/** @type {Record<string, string>} */
const ARROWS = { "0,-1": "\u2191", "1,-1": "\u2197", "1,0": "\u2192", "1,1": "\u2198", "0,1": "\u2193", "-1,1": "\u2199", "-1,0": "\u2190", "-1,-1": "\u2196" };
const JOURNAL_LINES = 40;

// Per game and seat: the journal of moves and the state the next view is compared with.
/** @type {Map<string, Journal>} */
const journals = new Map();
// The card whose actions the player looks at (null: all of them), per game and seat.
/** @type {Map<string, string>} */
const selection = new Map();
let journalOpen = true;

/**
 * Renders a Bataille Cosmique view into `root`.
 * @param {HTMLElement} root
 * @param {import("./types.js").CosCtx} ctx
 */
export function renderCosmique(root, ctx) {
  ensureStyles();
  const table = new Table(ctx);
  root.append(table.render());
}

/**
 * Forgets the journal kept under `key` (a replay that steps back or jumps rebuilds it from the
 * log lines it gives).
 * @param {string} key
 */
export function forgetJournal(key) {
  journals.delete(key);
}

// The page may link the style sheet itself; otherwise the table brings it.
function ensureStyles() {
  const links = /** @type {HTMLLinkElement[]} */ ([...document.querySelectorAll("link[rel=stylesheet]")]);
  if (links.some((l) => /(^|\/)cosmique\.css$/.test(new URL(l.href, location.href).pathname))) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = new URL("cosmique.css", import.meta.url).href;
  link.dataset.cosmiqueCss = "";
  document.head.append(link);
}

/**
 * Builds an element: `h("div", {class: "x", dataset: {...}}, child, "text", …)`.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, unknown>} [attrs]
 * @param {...import("./types.js").Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") el.className = /** @type {string} */ (value);
    else if (name === "dataset") Object.assign(el.dataset, value);
    else if (name === "onclick") el.addEventListener("click", /** @type {EventListener} */ (value));
    else if (name === "text") el.textContent = /** @type {string} */ (value);
    else el.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** @param {string} seat */
function seatIndex(seat) {
  return Number(String(seat).slice(1)) - 1;
}

/** @param {number} index */
function seatId(index) {
  return `p${index + 1}`;
}

/**
 * `red3` → {colour: "red", value: 3}; `plus2` → {plus2: true}.
 * @param {string} card
 * @returns {{plus2?: boolean, colour?: string, value?: number, unknown?: string}}
 */
function parseCard(card) {
  if (card === "plus2") return { plus2: true };
  const m = /^([a-z]+)(\d)$/.exec(card);
  return m ? { colour: m[1], value: Number(m[2]) } : { unknown: card };
}

/**
 * One legal action's text, read into its parts (null for a text this table does not know).
 * @param {string} text
 * @returns {CosAction | null}
 */
function parseAction(text) {
  let m;
  if ((m = /^attack (left|right) (?!plus2$)(\S+)( plus2)?$/.exec(text))) {
    return { kind: "attack", side: SIDES.indexOf(m[1]), card: m[2], plus2: Boolean(m[3]) };
  }
  if ((m = /^attack (left|right)( plus2)?$/.exec(text))) {
    return { kind: "attack", side: SIDES.indexOf(m[1]), card: null, plus2: Boolean(m[2]) };
  }
  if ((m = /^(defend|replace) (left|right)(?: (\S+))?$/.exec(text))) {
    return { kind: /** @type {"defend" | "replace"} */ (m[1]), side: SIDES.indexOf(m[2]), card: m[3] ?? null };
  }
  if ((m = /^swap (p\d) (\S+)$/.exec(text))) return { kind: "swap", seat: m[1], card: m[2] };
  if (text === "take orbit") return { kind: "take" };
  if (text === "end") return { kind: "end" };
  return null;
}

/**
 * The next living planet from `index` on `side` (0: left, clockwise; 1: right).
 * @param {{life: number}[]} planets
 * @param {number} index
 * @param {number} side
 */
function neighbour(planets, index, side) {
  const n = planets.length;
  for (let k = 1; k < n; k++) {
    const j = side === 0 ? (index + k) % n : (index - k + n) % n;
    if (planets[j].life > 0) return j;
  }
  return null;
}

class Table {
  /** @param {import("./types.js").CosCtx} ctx */
  constructor(ctx) {
    this.ctx = ctx;
    this.view = ctx.view;
    /** @type {import("./types.js").CosObservation} */
    this.obs = ctx.view.observation;
    this.planets = this.obs.planets;
    this.me = this.view.seat ? seatIndex(this.view.seat) : null;
    this.bottom = this.me ?? 0;
    this.variant = this.obs.config?.variant ?? "standard";
    this.key = ctx.journalKey ?? `${this.view.id}:${this.view.seat ?? "-"}`;
    this.legal = this.view.legal_actions ?? [];
    this.journal = updateJournal(this.key, this.view);
  }

  /**
   * @param {string} key
   * @param {Record<string, unknown>} [vars]
   */
  t(key, vars) {
    return this.ctx.t(key, vars);
  }

  /** @param {number} index */
  seatName(index) {
    return this.ctx.seatName(seatId(index));
  }

  /** @param {string} card */
  cardName(card) {
    const c = parseCard(card);
    if (c.plus2) return this.t(this.variant === "pv30" ? "web.cosmique.times2" : "web.cosmique.plus2");
    if (c.colour) return this.t("web.cosmique.card", { colour: this.t(COLOUR_KEYS[c.colour]), value: c.value });
    return card;
  }

  /**
   * Whether `card` would hurt planet `target` (its colour, a dead planet's, or Incolore).
   * @param {string} card
   * @param {number} target
   */
  hurts(card, target) {
    const c = parseCard(card);
    if (!c.colour) return false;
    if (this.variant === "incolore") return true;
    const owner = COLOURS.indexOf(c.colour);
    return owner === target || (owner >= 0 && this.planets[owner].life === 0);
  }

  render() {
    const over = this.view.over;
    const root = h("div", {
      class: `cq${this.me === null ? " cq-spectator" : ""}`,
      dataset: { variant: this.variant },
    });
    root.append(this.status(), this.board(), this.handSection(), this.actionSection(), this.journalSection(), this.pilesSection());
    if (over) root.classList.add("cq-over");
    return root;
  }

  status() {
    const obs = this.obs;
    const bits = [];
    let headline;
    if (this.view.over) {
      headline = obs.winner
        ? (seatIndex(obs.winner) === this.me
          ? this.t("web.cosmique.you_win")
          : this.t("web.cosmique.winner", { player: this.seatName(seatIndex(obs.winner)) }))
        : this.t("web.cosmique.draw");
    } else if (this.view.to_move && seatIndex(this.view.to_move) === this.me) {
      headline = this.t("web.cosmique.your_turn");
    } else if (this.view.to_move) {
      headline = this.t("web.cosmique.waiting", { player: this.seatName(seatIndex(this.view.to_move)) });
    }
    bits.push(h("strong", { class: "cq-headline", text: headline }));
    if (!this.view.over) {
      bits.push(h("span", { class: "cq-chip", text: this.t("cos.actions_left", { n: obs.actions_left }) }));
    }
    bits.push(h("span", { class: "cq-chip", text: this.t("web.cosmique.turn", { n: obs.turn }) }));
    bits.push(h("span", { class: "cq-chip", text: this.variantName() }));
    return h("div", { class: "cq-status", role: "status" }, bits);
  }

  variantName() {
    switch (this.variant) {
      case "incolore": return this.t("web.cosmique.variant_incolore");
      case "pv30": return this.t("web.cosmique.variant_pv30");
      default: return this.t("web.cosmique.variant_standard");
    }
  }

  board() {
    const board = h("div", { class: "cq-board" });
    for (let offset = 0; offset < 4; offset++) {
      const index = (this.bottom + offset) % 4;
      board.append(this.planet(index, offset));
    }
    board.append(this.sun());
    return board;
  }

  sun() {
    const obs = this.obs;
    const top = obs.discard.length ? obs.discard[obs.discard.length - 1] : null;
    return h("div", { class: "cq-sun" },
      h("div", { class: "cq-pile" },
        h("div", { class: "cq-zone-label", text: this.t("web.cosmique.pile") }),
        obs.pile_count > 0 ? this.back("cq-sm") : this.emptyCard("cq-sm"),
        h("div", { class: "cq-count", text: this.t("web.cosmique.cards", { n: obs.pile_count }) })),
      h("div", { class: "cq-pile" },
        h("div", { class: "cq-zone-label", text: this.t("web.cosmique.discard") }),
        top ? this.face(top, "cq-sm") : this.emptyCard("cq-sm"),
        h("div", { class: "cq-count", text: this.t("web.cosmique.cards", { n: obs.discard.length }) })));
  }

  /**
   * @param {number} index
   * @param {number} offset clockwise from the viewer's planet
   */
  planet(index, offset) {
    const p = this.planets[index];
    const colour = COLOURS[index];
    const alive = p.life > 0;
    const current = !this.view.over && seatIndex(this.obs.current) === index;
    const classes = ["cq-planet", `cq-pos-${POSITIONS[offset]}`, `cq-planet-${colour}`];
    if (!alive) classes.push("cq-dead");
    if (current) classes.push("cq-current");
    if (index === this.me) classes.push("cq-mine");
    const el = h("section", {
      class: classes.join(" "),
      dataset: { seat: seatId(index) },
      "aria-label": this.seatName(index),
    });
    const lost = this.journal.lastLoss.get(index);
    el.append(h("header", { class: "cq-planet-head" },
      h("span", { class: "cq-planet-dot", "aria-hidden": "true", text: GLYPHS[colour] }),
      h("span", { class: "cq-planet-name", text: this.seatName(index) }),
      current ? h("span", { class: "cq-turn-mark", text: this.t("web.cosmique.playing") }) : null,
      this.life(p.life),
      lost && this.view.version - lost.version < 4 ? h("span", { class: "cq-loss", text: `\u2212${lost.amount}` }) : null));
    if (!alive) {
      el.append(h("p", { class: "cq-destroyed", text: this.t("cos.destroyed") }));
      if (this.variant !== "incolore") {
        el.append(h("p", { class: "cq-note", text: this.t("web.cosmique.universal", { colour: this.t(COLOUR_KEYS[colour]) }) }));
      }
      // Attacks a dead planet laid stay on the others' boards; its own board is empty.
      return el;
    }
    const zones = h("div", { class: "cq-zones" });
    zones.append(h("div", { class: "cq-zone cq-orbit" },
      h("div", { class: "cq-zone-label", text: this.t("web.cosmique.orbit") }),
      p.orbit ? this.face(p.orbit, "cq-sm") : this.emptyCard("cq-sm")));
    zones.append(this.handZone(index, p));
    el.append(zones);
    const slots = h("div", { class: "cq-slots" });
    // Top planet: its right slot faces the screen's left.
    const order = offset === 2 ? [1, 0] : [0, 1];
    for (const side of order) slots.append(this.slot(index, offset, side));
    el.append(slots);
    return el;
  }

  /** @param {number} life */
  life(life) {
    const start = this.variant === "pv30" ? 30 : 6;
    const label = this.t("web.cosmique.life", { n: life });
    if (start > 6) {
      // The width through the element's style, not a `style` attribute: the page's security
      // policy refuses inline styles.
      const fill = h("span", {});
      fill.style.width = `${Math.round((100 * life) / start)}%`;
      return h("span", { class: "cq-life", title: label, "aria-label": label },
        h("span", { class: "cq-life-bar" }, fill),
        h("span", { class: "cq-life-n", text: String(life) }));
    }
    const pips = [];
    for (let i = 0; i < start; i++) pips.push(h("span", { class: i < life ? "cq-pip cq-pip-on" : "cq-pip" }));
    return h("span", { class: "cq-life", title: label, "aria-label": label }, pips,
      h("span", { class: "cq-life-n", text: String(life) }));
  }

  /**
   * @param {number} index
   * @param {CosPlanet} p
   */
  handZone(index, p) {
    const zone = h("div", { class: "cq-zone cq-hand-zone" },
      h("div", { class: "cq-zone-label", text: this.t("web.cosmique.hand_count", { n: p.hand_count }) }));
    const cards = h("div", { class: "cq-minis" });
    if (index === this.me && p.hand) {
      // The full hand is below the board; here only its size.
      for (let i = 0; i < Math.min(p.hand_count, 6); i++) cards.append(this.back("cq-xs"));
    } else {
      const known = p.hand_known ?? [];
      const shown = Math.min(p.hand_count, 6);
      for (let i = 0; i < shown; i++) {
        cards.append(i < known.length ? this.face(known[i], "cq-xs", { title: this.t("web.cosmique.known") }) : this.back("cq-xs"));
      }
    }
    if (p.hand_count > 6) cards.append(h("span", { class: "cq-more", text: `+${p.hand_count - 6}` }));
    zone.append(cards);
    return zone;
  }

  /**
   * @param {number} index
   * @param {number} offset
   * @param {number} side
   */
  slot(index, offset, side) {
    const p = this.planets[index];
    const s = p.slots[side];
    const facing = neighbour(this.planets, index, side);
    let arrow = "";
    if (facing !== null) {
      const from = COORDS[offset];
      const to = COORDS[(facing - this.bottom + 4) % 4];
      arrow = ARROWS[`${Math.sign(to[0] - from[0])},${Math.sign(to[1] - from[1])}`] ?? "";
    }
    const sideName = this.t(SIDE_KEYS[side]);
    const title = facing === null
      ? this.t("web.cosmique.slot", { side: sideName })
      : this.t("web.cosmique.slot_faces", { side: sideName, player: this.seatName(facing) });
    const el = h("div", { class: "cq-slot", dataset: { side: SIDES[side] }, title },
      h("div", { class: "cq-slot-label" },
        h("span", { text: sideName }),
        facing !== null ? h("span", { class: `cq-arrow cq-text-${COLOURS[facing]}`, "aria-hidden": "true", text: `${arrow}${GLYPHS[COLOURS[facing]]}` }) : null));
    const cards = h("div", { class: "cq-slot-cards" });
    if (s.defence) {
      const d = s.defence;
      let card;
      if (d.card) {
        card = this.face(d.card, "cq-sm cq-cross", {
          title: d.revealed ? this.t("web.cosmique.defence_revealed") : this.t("web.cosmique.defence_own"),
        });
        card.classList.add(d.revealed ? "cq-revealed" : "cq-own-hidden");
      } else {
        card = this.back("cq-sm cq-cross", this.t("web.cosmique.defence_hidden"));
      }
      cards.append(card);
    }
    if (s.attack) {
      const a = s.attack;
      const by = seatIndex(a.by);
      const attackTitle = this.t("web.cosmique.attack_from", { player: this.seatName(by) });
      const group = h("div", { class: "cq-attack", title: attackTitle },
        a.card ? this.face(a.card, "cq-sm cq-own-hidden", { title: attackTitle }) : this.back("cq-sm", attackTitle),
        a.plus2 ? this.face("plus2", "cq-sm cq-beside") : null,
        h("span", { class: `cq-by cq-bg-${COLOURS[by]}`, text: a.by }));
      cards.append(group);
    }
    if (!s.defence && !s.attack) cards.append(h("span", { class: "cq-slot-empty", text: "\u2014" }));
    el.append(cards);
    return el;
  }

  /**
   * A face-up card.
   * @param {string} card
   * @param {string} [size]
   * @param {{title?: string}} [extra]
   */
  face(card, size = "", extra = {}) {
    const c = parseCard(card);
    const name = this.cardName(card);
    if (c.plus2) {
      return h("div", { class: `cq-card cq-plus2 ${size}`, role: "img", "aria-label": name, title: extra.title ?? name },
        h("span", { class: "cq-value", text: this.variant === "pv30" ? "\u00D72" : "+2" }));
    }
    return h("div", { class: `cq-card cq-${c.colour} ${size}`, role: "img", "aria-label": name, title: extra.title ? `${name} \u2014 ${extra.title}` : name },
      h("span", { class: "cq-value", text: String(c.value) }),
      h("span", { class: "cq-glyph", "aria-hidden": "true", text: GLYPHS[/** @type {string} */ (c.colour)] ?? "" }));
  }

  /**
   * @param {string} [size]
   * @param {string} [title]
   */
  back(size = "", title) {
    const label = title ?? this.t("web.cosmique.face_down");
    return h("div", { class: `cq-card cq-back ${size}`, role: "img", "aria-label": label, title: label });
  }

  /** @param {string} [size] */
  emptyCard(size = "") {
    return h("div", { class: `cq-card cq-empty ${size}`, "aria-label": this.t("web.cosmique.empty"), title: this.t("web.cosmique.empty") });
  }

  selected() {
    const card = selection.get(this.key) ?? null;
    const hand = this.me !== null ? this.planets[this.me].hand ?? [] : [];
    if (card && !hand.includes(card)) {
      selection.delete(this.key);
      return null;
    }
    return card;
  }

  handSection() {
    const section = h("section", { class: "cq-hand", "data-testid": "hand" });
    if (this.me === null) {
      section.append(h("p", { class: "cq-note", text: this.t("web.cosmique.spectating") }));
      return section;
    }
    const hand = this.planets[this.me].hand ?? [];
    section.append(h("h3", { text: this.t("web.cosmique.your_hand", { n: hand.length }) }));
    if (!hand.length) {
      section.append(h("p", { class: "cq-note", text: this.t("web.cosmique.hand_empty") }));
      return section;
    }
    const selected = this.selected();
    const usable = new Set(this.legal.map(parseAction).filter((a) => a && a.card).map((a) => /** @type {CosAction} */ (a).card));
    const row = h("div", { class: "cq-hand-cards" });
    hand.forEach((card) => {
      const face = this.face(card);
      if (usable.has(card)) {
        const button = h("button", {
          type: "button",
          class: `cq-hand-card${selected === card ? " cq-selected" : ""}`,
          "aria-pressed": selected === card ? "true" : "false",
          title: this.t("web.cosmique.select_card", { card: this.cardName(card) }),
          onclick: () => {
            if (selection.get(this.key) === card) selection.delete(this.key);
            else selection.set(this.key, card);
            this.rerender(section);
          },
        }, face);
        row.append(button);
      } else {
        row.append(h("div", { class: "cq-hand-card" }, face));
      }
    });
    section.append(row);
    return section;
  }

  /**
   * Draws the whole table again in place (after a local change: the selected card).
   * @param {Element} fromElement
   */
  rerender(fromElement) {
    const old = fromElement.closest(".cq");
    if (!old) return;
    old.replaceWith(this.render());
  }

  actionSection() {
    const section = h("section", { class: "cq-actions" });
    if (!this.legal.length) return section;
    const send = (/** @type {string} */ action) => (/** @type {MouseEvent} */ event) => {
      const table = /** @type {HTMLElement | null} */ (/** @type {Element} */ (event.currentTarget).closest(".cq"));
      if (table?.dataset.sent) return;
      if (table) {
        // One action per view: the next view draws a new table. Should none come (the
        // action was not sent), the buttons come back.
        table.dataset.sent = "1";
        const buttons = /** @type {HTMLButtonElement[]} */ ([...table.querySelectorAll("[data-action]")]);
        for (const b of buttons) b.disabled = true;
        setTimeout(() => {
          if (!table.isConnected) return;
          delete table.dataset.sent;
          for (const b of buttons) b.disabled = false;
        }, 5000);
      }
      this.ctx.act(action);
    };
    const actions = this.legal.map((text) => ({ text, a: parseAction(text) }));
    const general = h("div", { class: "cq-general" });
    // By card: the player's own actions name theirs.
    /** @type {Map<string, {text: string, a: CosAction}[]>} */
    const groups = new Map();
    /** @type {string[]} */
    const others = [];
    for (const { text, a } of actions) {
      if (!a) others.push(text);
      else if (a.kind === "take" || a.kind === "end") continue;
      else {
        if (!groups.has(/** @type {string} */ (a.card))) groups.set(/** @type {string} */ (a.card), []);
        /** @type {{text: string, a: CosAction}[]} */ (groups.get(/** @type {string} */ (a.card))).push({ text, a });
      }
    }
    const take = actions.find((x) => x.a?.kind === "take");
    if (take) {
      const orbit = this.planets[/** @type {number} */ (this.me)].orbit;
      general.append(h("button", {
        type: "button", class: "cq-act cq-act-take", "data-action": take.text,
        title: this.t("cos.act.take", { card: orbit ? this.cardName(orbit) : "" }),
        onclick: send(take.text),
      }, orbit ? this.face(orbit, "cq-xs") : null, h("span", { text: this.t("web.cosmique.take") })));
    }
    for (const text of others) {
      general.append(h("button", { type: "button", class: "cq-act", "data-action": text, onclick: send(text), text }));
    }
    const end = actions.find((x) => x.a?.kind === "end");
    if (end) {
      general.append(h("button", {
        type: "button", class: "cq-act cq-act-end", "data-action": end.text, "data-testid": "end-turn",
        onclick: send(end.text), text: this.t("web.cosmique.end_turn"),
      }));
    }
    section.append(h("h3", { text: this.t("web.cosmique.actions") }), general);
    const selected = this.selected();
    if (groups.size && !selected) {
      section.append(h("p", { class: "cq-note cq-hint", text: this.t("web.cosmique.pick_hint") }));
    }
    /** @type {Record<string, number>} */
    const rank = { attack: 0, defend: 1, replace: 2, swap: 3 };
    const hand = this.planets[/** @type {number} */ (this.me)]?.hand ?? [];
    const cards = [...groups.keys()].sort((x, y) => hand.indexOf(x) - hand.indexOf(y));
    for (const card of cards) {
      const list = /** @type {{text: string, a: CosAction}[]} */ (groups.get(card)).sort((x, y) => (rank[x.a.kind] - rank[y.a.kind]) || (Number(x.a.plus2) - Number(y.a.plus2)));
      const group = h("div", { class: `cq-group${selected && selected !== card ? " cq-dim" : ""}${selected === card ? " cq-group-selected" : ""}`, dataset: { card } },
        h("div", { class: "cq-group-card" }, this.face(card, "cq-xs")));
      const buttons = h("div", { class: "cq-group-buttons" });
      for (const { text, a } of list) {
        const { label, title, hurts } = this.describe(a);
        buttons.append(h("button", {
          type: "button", class: `cq-act cq-act-${a.kind}${hurts ? " cq-hurts" : ""}`, "data-action": text,
          title, "aria-label": title, onclick: send(text), text: label,
        }));
      }
      group.append(buttons);
      section.append(group);
    }
    return section;
  }

  /**
   * The short label, the full description and whether it hurts, of one of the player's actions.
   * @param {CosAction} a
   * @returns {{label: string, title: string, hurts?: boolean}}
   */
  describe(a) {
    const card = a.card ? this.cardName(a.card) : "";
    const sideName = a.side !== undefined ? this.t(SIDE_KEYS[a.side]) : "";
    switch (a.kind) {
      case "attack": {
        const target = neighbour(this.planets, /** @type {number} */ (this.me), a.side);
        const player = target === null ? "" : this.seatName(target);
        const hurts = target !== null && this.hurts(/** @type {string} */ (a.card), target);
        const title = this.t(a.plus2 ? "cos.act.attack_plus2" : "cos.act.attack", { player, side: sideName, card })
          + (hurts ? ` \u2014 ${this.t("web.cosmique.hurts")}` : "");
        const label = this.t(a.plus2 ? "web.cosmique.attack_plus2" : "web.cosmique.attack", { player });
        return { label, title, hurts };
      }
      case "defend":
        return {
          label: this.t("web.cosmique.defend", { side: sideName }),
          title: this.t("cos.act.defend", { side: sideName, card }),
        };
      case "replace":
        return {
          label: this.t("web.cosmique.replace", { side: sideName }),
          title: this.t("cos.act.replace", { side: sideName, card }),
        };
      case "swap": {
        const target = seatIndex(a.seat);
        const orbit = this.planets[target].orbit;
        const player = this.seatName(target);
        const orbitName = orbit ? this.cardName(orbit) : "";
        return {
          label: this.t("web.cosmique.swap", { player, card: orbitName }),
          title: this.t("cos.act.swap", { player, card, orbit: orbitName }),
        };
      }
      default:
        return { label: card, title: card };
    }
  }

  journalSection() {
    const details = h("details", { class: "cq-journal" });
    details.open = journalOpen;
    details.addEventListener("toggle", () => { journalOpen = details.open; });
    details.append(h("summary", { text: this.t("web.cosmique.journal") }));
    const list = h("ol", { class: "cq-journal-lines", reversed: true });
    const entries = this.journal.entries.slice(-JOURNAL_LINES).reverse();
    if (!entries.length) list.append(h("li", { class: "cq-note", text: this.t("web.cosmique.journal_empty") }));
    for (const entry of entries) list.append(h("li", { class: `cq-line cq-text-${COLOURS[entry.seat] ?? ""}` }, this.journalLine(entry)));
    details.append(list);
    return details;
  }

  /** @param {JournalEntry} entry */
  journalLine(entry) {
    const player = this.seatName(entry.seat);
    if (entry.kind === "loss") {
      return entry.life > 0
        ? this.t("web.cosmique.log_loss", { player, n: entry.amount, life: entry.life })
        : this.t("web.cosmique.log_destroyed", { player });
    }
    const a = parseAction(entry.action);
    if (!a) return `${player}: ${entry.action}`;
    const sideName = a.side !== undefined ? this.t(SIDE_KEYS[a.side]) : "";
    const card = a.card ? this.cardName(a.card) : "";
    switch (a.kind) {
      case "attack": {
        const target = entry.target === null ? "?" : this.seatName(entry.target);
        const bonus = this.variant === "pv30" ? "\u00D72" : "+2";
        if (a.card) return this.t(a.plus2 ? "web.cosmique.log_attack_plus2" : "web.cosmique.log_attack", { player, target, card, bonus });
        return this.t(a.plus2 ? "web.cosmique.log_attack_hidden_plus2" : "web.cosmique.log_attack_hidden", { player, target, bonus });
      }
      case "defend":
        return a.card
          ? this.t("web.cosmique.log_defend", { player, side: sideName, card })
          : this.t("web.cosmique.log_defend_hidden", { player, side: sideName });
      case "replace":
        return a.card
          ? this.t("web.cosmique.log_replace", { player, side: sideName, card })
          : this.t("web.cosmique.log_replace_hidden", { player, side: sideName });
      case "take":
        return entry.taken
          ? this.t("web.cosmique.log_take", { player, card: this.cardName(entry.taken) })
          : this.t("web.cosmique.log_take_unknown", { player });
      case "swap":
        return this.t("web.cosmique.log_swap", { player, card, target: this.seatName(seatIndex(a.seat)) });
      case "end":
        return this.t("web.cosmique.log_end", { player });
      default:
        return `${player}: ${entry.action}`;
    }
  }

  pilesSection() {
    const obs = this.obs;
    const details = h("details", { class: "cq-piles" },
      h("summary", { text: this.t("web.cosmique.piles_title", { pile: obs.pile_count, discard: obs.discard.length }) }));
    const row = (/** @type {string} */ label, /** @type {string[]} */ cards) => h("div", { class: "cq-pile-row" },
      h("div", { class: "cq-zone-label", text: label }),
      h("div", { class: "cq-minis" }, cards.length ? cards.map((c) => this.face(c, "cq-xs")) : h("span", { class: "cq-note", text: "\u2014" })));
    details.append(row(this.t("web.cosmique.discard_all"), obs.discard));
    if (obs.pile_cards) details.append(row(this.t("web.cosmique.pile_known"), obs.pile_cards));
    if (obs.unseen?.length) details.append(row(this.t("web.cosmique.unseen"), obs.unseen));
    return details;
  }
}

/**
 * Adds a view's log lines (and the life each planet lost since the previous view) to the
 * journal of its game and seat. A line arrives once per connection, but the interface may
 * draw a view twice (a change of language): lines are kept by index.
 * @param {string} key
 * @param {ShownView} view
 * @returns {Journal}
 */
function updateJournal(key, view) {
  let j = journals.get(key);
  if (!j) {
    j = { seen: new Set(), entries: [], life: null, orbits: null, version: -1, lastLoss: new Map() };
    journals.set(key, j);
  }
  /** @type {import("./types.js").CosObservation} */
  const obs = view.observation;
  if (view.version <= j.version) return j;
  const planets = obs.planets;
  const first = j.life === null;
  // The lines were played before this view's resolutions: their targets are the neighbours
  // of the previous view (a planet destroyed since still counts).
  const before = first ? planets : planets.map((p, i) => ({ life: /** @type {number[]} */ (j.life)[i] }));
  for (const line of view.log ?? []) {
    if (j.seen.has(line.index)) continue;
    j.seen.add(line.index);
    const seat = seatIndex(line.seat);
    const a = parseAction(line.action);
    /** @type {JournalEntry} */
    const entry = { kind: "action", index: line.index, seat, action: line.action, target: null, taken: null };
    if (a?.kind === "attack") entry.target = neighbour(before, seat, a.side);
    // The card taken from an orbit is the one the previous view showed there, when a
    // single line separates the two views.
    if (a?.kind === "take" && !first && j.orbits && (view.log.length === 1)) entry.taken = j.orbits[seat];
    j.entries.push(entry);
  }
  if (!first) {
    planets.forEach((p, i) => {
      const before = /** @type {number[]} */ (j.life)[i];
      if (p.life < before) {
        j.entries.push({ kind: "loss", seat: i, amount: before - p.life, life: p.life });
        j.lastLoss.set(i, { amount: before - p.life, version: view.version });
      }
    });
  }
  if (j.entries.length > 4 * JOURNAL_LINES) j.entries.splice(0, j.entries.length - 2 * JOURNAL_LINES);
  j.life = planets.map((p) => p.life);
  j.orbits = planets.map((p) => p.orbit);
  j.version = view.version;
  return j;
}
