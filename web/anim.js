// @ts-check
// Motion that explains what a new view changed: a card played goes from the hand to the cards
// in play, a card bought flies from the trade row to its buyer's discard pile, cards leaving
// play at the end of a turn go to the discard pile, a destroyed base fades out, authority that
// changes flashes with the difference. The page is already drawn when they run: they only
// show the way, block nothing, and are off under `prefers-reduced-motion` (or the player's
// choice, `realms-motion` = `off`).

const MOTION_KEY = "realms-motion";
const MS = 320;

/** Whether motion is wanted. */
export function motionWanted() {
  if (localStorage.getItem(MOTION_KEY) === "off") return false;
  return !(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

/** @param {Element} el */
const rect = (el) => el.getBoundingClientRect();

/**
 * A card element of a zone, with its card and its rank among those of the same card (`key`).
 * @typedef {{el: Element, id: string, key: string, rect: DOMRect, slot: string | null}} CardPlace
 */

/**
 * What the table looked like (see `snapshot`).
 * @typedef {object} Snapshot
 * @property {string | null} seat
 * @property {string | null} toMove
 * @property {CardPlace[]} hand
 * @property {CardPlace[]} inPlay
 * @property {CardPlace[]} row
 * @property {Map<string, SeatPlace>} seats
 */

/**
 * A seat's panel: its authority, its discard pile, its bases.
 * @typedef {{authority: number | null, discard: DOMRect | null, discardCount: number, bases: {el: Element, id: string, rect: DOMRect}[]}} SeatPlace
 */

/**
 * Card elements of a zone (`[data-testid=zone]`), each with its card and its rank among those of the same card.
 * @param {ParentNode} root
 * @param {string} zone
 */
function cardsOf(root, zone) {
  /** @type {CardPlace[]} */
  const out = [];
  /** @type {Map<string, number>} */
  const counts = new Map();
  const box = root.querySelector(`[data-testid="${zone}"]`);
  if (!box) return out;
  for (const el of box.querySelectorAll(":scope > .card[data-card], :scope > .pile > .card[data-card]")) {
    const id = /** @type {string} */ (el.getAttribute("data-card"));
    const k = counts.get(id) || 0;
    counts.set(id, k + 1);
    out.push({ el, id, key: id + "#" + k, rect: rect(el), slot: el.getAttribute("data-slot") });
  }
  return out;
}

/**
 * What the table looks like now, to compare with the next view.
 * @param {ParentNode} root
 * @returns {Snapshot | null}
 */
export function snapshot(root) {
  if (!root.querySelector(".table.sr")) return null;
  /** @type {Map<string, SeatPlace>} */
  const seats = new Map();
  for (const panel of root.querySelectorAll(".player[data-seat], .me[data-seat]")) {
    const value = panel.querySelector(".stat.authority .stat-value");
    const discard = panel.querySelector('[data-zone="discard"]');
    seats.set(/** @type {string} */ (panel.getAttribute("data-seat")), {
      authority: value ? Number(value.textContent) : null,
      discard: discard ? rect(discard) : null,
      discardCount: discard ? Number(discard.getAttribute("data-count")) : 0,
      bases: [...panel.querySelectorAll(".card.k-base[data-card], .card.k-outpost[data-card]")].map((el) => ({ el, id: /** @type {string} */ (el.getAttribute("data-card")), rect: rect(el) })),
    });
  }
  return {
    seat: root.querySelector(".table.sr")?.getAttribute("data-seat") || null,
    toMove: root.querySelector(".table.sr")?.getAttribute("data-to-move") || null,
    hand: cardsOf(root, "hand"),
    inPlay: cardsOf(root, "in-play"),
    row: cardsOf(root, "trade-row"),
    seats,
  };
}

/**
 * Moves `el` from `from` (a rect) to where it is now.
 * @param {Element} el
 * @param {DOMRect} from
 */
function slide(el, from) {
  const to = rect(el);
  const dx = from.left - to.left;
  const dy = from.top - to.top;
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
  el.animate([
    { transform: `translate(${dx}px, ${dy}px)`, zIndex: 5 },
    { transform: "translate(0, 0)", zIndex: 5 },
  ], { duration: MS, easing: "cubic-bezier(.2,.7,.3,1)" });
}

/**
 * A copy of `el` drawn at `from`, flying to `to` (a rect) and fading.
 * @param {Element} el
 * @param {DOMRect} from
 * @param {DOMRect | null} to
 * @param {{fade?: number, shake?: boolean}} [options]
 */
function fly(el, from, to, { fade = 0.2, shake = false } = {}) {
  const ghost = /** @type {HTMLElement} */ (el.cloneNode(true));
  ghost.removeAttribute("data-action");
  ghost.removeAttribute("data-card");
  ghost.removeAttribute("data-testid");
  for (const node of ghost.querySelectorAll("[data-action], [data-card], [data-testid]")) {
    node.removeAttribute("data-action");
    node.removeAttribute("data-card");
    node.removeAttribute("data-testid");
  }
  ghost.classList.add("ghost");
  ghost.setAttribute("aria-hidden", "true");
  Object.assign(ghost.style, {
    position: "fixed", left: from.left + "px", top: from.top + "px", width: from.width + "px", height: from.height + "px",
    margin: "0", zIndex: "60", pointerEvents: "none",
  });
  document.body.appendChild(ghost);
  const frames = [];
  if (to) {
    const dx = to.left + to.width / 2 - (from.left + from.width / 2);
    const dy = to.top + to.height / 2 - (from.top + from.height / 2);
    frames.push({ transform: "translate(0, 0) scale(1)", opacity: 1 });
    frames.push({ transform: `translate(${dx}px, ${dy}px) scale(.25)`, opacity: fade });
  } else if (shake) {
    frames.push({ transform: "translateX(0)", opacity: 1, filter: "none" });
    frames.push({ transform: "translateX(-6px)", opacity: 1, filter: "brightness(1.6) saturate(2)" });
    frames.push({ transform: "translateX(6px)", opacity: .8 });
    frames.push({ transform: "translateX(0) scale(.9)", opacity: 0 });
  }
  const run = ghost.animate(frames, { duration: MS * 1.6, easing: "ease-in-out" });
  run.onfinish = () => ghost.remove();
  run.oncancel = () => ghost.remove();
}

/**
 * A number rising from `el` and fading: `-5`, `+3`.
 * @param {Element} el
 * @param {number} n
 */
function delta(el, n) {
  const r = rect(el);
  const tag = document.createElement("span");
  tag.className = "delta " + (n < 0 ? "down" : "up");
  tag.setAttribute("aria-hidden", "true");
  tag.textContent = (n > 0 ? "+" : "") + n;
  Object.assign(tag.style, { position: "fixed", left: r.right + 2 + "px", top: r.top + "px", zIndex: "61", pointerEvents: "none" });
  document.body.appendChild(tag);
  const run = tag.animate([
    { transform: "translateY(0)", opacity: 1 },
    { transform: "translateY(-22px)", opacity: 0 },
  ], { duration: MS * 3, easing: "ease-out" });
  run.onfinish = () => tag.remove();
  el.animate([
    { color: n < 0 ? "#ff6b6b" : "#b6ffcf", transform: "scale(1.35)" },
    { transform: "scale(1)" },
  ], { duration: MS * 2, easing: "ease-out" });
}

/**
 * Shows the way from the table of `before` to the one now in `root`.
 * @param {ParentNode} root
 * @param {Snapshot | null} before
 */
export function animate(root, before) {
  if (!before || !motionWanted()) return;
  const now = snapshot(root);
  // Another seat's table (a hot seat passing the device): nothing moved.
  if (!now || now.seat !== before.seat) return;
  const discardOf = (/** @type {string} */ seat) => now.seats.get(seat)?.discard || null;
  const me = root.querySelector(".me[data-seat]")?.getAttribute("data-seat") || null;

  // Played: a card of the hand now in play.
  const oldPlay = new Set(before.inPlay.map((c) => c.key));
  const handLeft = new Map(before.hand.map((c) => [c.key, c]));
  const nowHand = new Set(now.hand.map((c) => c.key));
  for (const c of now.inPlay) {
    if (oldPlay.has(c.key)) continue;
    // The last copy of this card that left the hand.
    const gone = [...handLeft.values()].filter((h) => h.id === c.id && !nowHand.has(h.key)).pop();
    if (gone) {
      handLeft.delete(gone.key);
      slide(c.el, gone.rect);
    }
  }
  // Out of play (the end of a turn, a card scrapped): to the discard pile.
  const nowPlay = new Set(now.inPlay.map((c) => c.key));
  const leaving = before.inPlay.filter((c) => !nowPlay.has(c.key));
  if (me && leaving.length) for (const c of leaving) fly(c.el, c.rect, discardOf(me));

  // Bought or acquired: the slot's card to its buyer's discard pile (the seat that was to act);
  // scrapped from the row: it fades.
  const nowRow = new Map(now.row.map((c) => [c.slot, c.id]));
  const buyer = before.toMove;
  const grew = buyer && before.seats.get(buyer) && now.seats.get(buyer)
    && /** @type {SeatPlace} */ (now.seats.get(buyer)).discardCount > /** @type {SeatPlace} */ (before.seats.get(buyer)).discardCount;
  for (const c of before.row) {
    if (c.slot === null || nowRow.get(c.slot) === c.id) continue;
    if (grew) fly(c.el, c.rect, discardOf(buyer));
    else fly(c.el, c.rect, null, { shake: true });
  }

  // Bases gone from a panel: destroyed (or scrapped).
  for (const [seat, old] of before.seats) {
    const fresh = now.seats.get(seat);
    if (!fresh) continue;
    const left = new Map();
    for (const b of fresh.bases) left.set(b.id, (left.get(b.id) || 0) + 1);
    for (const b of old.bases) {
      const n = left.get(b.id) || 0;
      if (n > 0) left.set(b.id, n - 1);
      else fly(b.el, b.rect, null, { shake: true });
    }
    // Authority: the difference, flashing.
    if (old.authority !== null && fresh.authority !== null && old.authority !== fresh.authority) {
      const el = root.querySelector(`[data-seat="${seat}"] .stat.authority .stat-value`);
      if (el) delta(el, fresh.authority - old.authority);
    }
  }
}

/** Ends every motion at once (Escape: the table as it is). */
export function finishAll() {
  for (const a of document.getAnimations()) a.finish();
}

document.addEventListener("keydown", (e) => {
  if (e.key === "Escape") finishAll();
});
