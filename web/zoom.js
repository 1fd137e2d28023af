// @ts-check
// A card's large view: on hover (after a short pause), on a long press (touch), on a click of
// a card that does nothing when clicked, on a right click, or with the Z key on a focused card.
// Any element with `data-card="<id>"` shows its card: tiles, chips, log lines, piles.

import { h } from "./dom.js";
import { cardTile } from "./cards.js";
import { card, hasCard } from "./i18n.js";

const HOVER_MS = 350;
const PRESS_MS = 450;

/** @type {HTMLDivElement | null} */
let panel = null;
/** @type {Element | null} */
let shownFor = null;
let pinned = false;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let hoverTimer;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let pressTimer;
let swallowClick = false;

function zoomPanel() {
  if (!panel) {
    panel = h("div", { class: "zoom", "data-testid": "zoom", role: "dialog", hidden: true });
    panel.addEventListener("click", (e) => {
      e.stopPropagation();
      hide();
    });
    document.body.appendChild(panel);
  }
  return panel;
}

/**
 * Shows the card of `el` large; `pin`: stays until a click or Escape (with a backdrop).
 * @param {Element} el
 * @param {boolean} pin
 */
function show(el, pin) {
  const id = el.getAttribute("data-card");
  if (!id) return;
  const p = zoomPanel();
  const big = cardTile(id, { zoom: true, damage: Number(el.getAttribute("data-damage")) || 0, copy: el.getAttribute("data-copy") || null });
  // The large view only shows: it carries no action and is no card to zoom on.
  for (const node of [big, ...big.querySelectorAll("[data-action], [data-card]")]) {
    node.removeAttribute("data-action");
    node.removeAttribute("data-card");
    node.removeAttribute("tabindex");
    node.removeAttribute("role");
  }
  p.replaceChildren(big);
  p.setAttribute("aria-label", card(id).name);
  p.setAttribute("data-card-shown", id);
  p.classList.toggle("pinned", pin);
  p.hidden = false;
  shownFor = el;
  pinned = pin;
  place(p, el, pin);
}

/**
 * Beside the card when there is room (hovering), in the middle of the screen when pinned.
 * @param {HTMLElement} p
 * @param {Element} el
 * @param {boolean} pin
 */
function place(p, el, pin) {
  p.style.left = "";
  p.style.top = "";
  if (pin) return;
  const r = el.getBoundingClientRect();
  const w = p.offsetWidth;
  const hgt = p.offsetHeight;
  const vw = document.documentElement.clientWidth;
  const vh = document.documentElement.clientHeight;
  let left = r.right + 12;
  if (left + w > vw - 8) left = r.left - w - 12;
  if (left < 8) left = Math.max(8, Math.min(vw - w - 8, r.left + r.width / 2 - w / 2));
  let top = r.top + r.height / 2 - hgt / 2;
  top = Math.max(8, Math.min(vh - hgt - 8, top));
  p.style.left = left + "px";
  p.style.top = top + "px";
}

/**
 * After the page was drawn again: a hovering large view whose card left the page goes. A pinned
 * one stays until a click or Escape, though a new view of the game drew its card again.
 */
export function hideStale() {
  if (shownFor && !shownFor.isConnected && !pinned) hide();
}

export function hide() {
  clearTimeout(hoverTimer);
  if (!panel) return;
  panel.hidden = true;
  panel.replaceChildren();
  panel.removeAttribute("data-card-shown");
  shownFor = null;
  pinned = false;
}

/**
 * The Star Realms card under an event, if any (Bataille Cosmique's cards are not zoomed).
 * @param {Event} e
 */
function target(e) {
  const el = e.target instanceof Element ? e.target.closest("[data-card]") : null;
  return el && hasCard(el.getAttribute("data-card")) ? el : null;
}

/** Listens once for the whole page. */
export function installZoom() {
  document.addEventListener("pointerover", (e) => {
    if (e.pointerType !== "mouse" || pinned) return;
    const el = target(e);
    if (!el || el === shownFor) return;
    clearTimeout(hoverTimer);
    hoverTimer = setTimeout(() => {
      if (el.isConnected && el.matches(":hover")) show(el, false);
    }, HOVER_MS);
  });
  document.addEventListener("pointerout", (e) => {
    if (e.pointerType !== "mouse" || pinned) return;
    const el = target(e);
    if (!el) return;
    const to = e.relatedTarget instanceof Element ? e.relatedTarget.closest("[data-card]") : null;
    if (to === el) return;
    clearTimeout(hoverTimer);
    if (shownFor === el) hide();
  });
  document.addEventListener("pointerdown", (e) => {
    if (pinned && !(e.target instanceof Element && e.target.closest(".zoom"))) {
      hide();
      swallowClick = true;
      return;
    }
    if (e.pointerType === "mouse") return;
    const el = target(e);
    if (!el) return;
    clearTimeout(pressTimer);
    pressTimer = setTimeout(() => {
      show(el, true);
      swallowClick = true;
    }, PRESS_MS);
  });
  for (const type of /** @type {const} */ (["pointerup", "pointercancel", "pointermove"])) {
    document.addEventListener(type, (e) => {
      if (type === "pointermove" && e.pointerType === "mouse") return;
      clearTimeout(pressTimer);
    });
  }
  // A click after a long press (or that closed the large view) does nothing else; a click on
  // a card that has no action of its own shows it large.
  document.addEventListener("click", (e) => {
    if (swallowClick) {
      swallowClick = false;
      e.preventDefault();
      e.stopPropagation();
      return;
    }
    const el = target(e);
    if (!el || el.closest("[data-action], button, summary, a, .zoom")) return;
    show(el, true);
  }, true);
  document.addEventListener("contextmenu", (e) => {
    const el = target(e);
    if (!el) return;
    e.preventDefault();
    show(el, true);
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && panel && !panel.hidden) {
      hide();
      return;
    }
    if ((e.key === "z" || e.key === "Z") && !e.ctrlKey && !e.metaKey && !e.altKey) {
      const active = document.activeElement;
      if (active && active.matches("input, select, textarea")) return;
      const el = active instanceof Element ? active.closest("[data-card]") : null;
      if (el && hasCard(el.getAttribute("data-card"))) {
        if (shownFor === el && pinned) hide();
        else show(el, true);
      }
    }
  });
  // The page moved under the large view: it no longer points at its card.
  window.addEventListener("hashchange", hide);
}
