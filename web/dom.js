// @ts-check
// A small helper to build elements without writing HTML strings.

/**
 * `h("button", {class: "x", onclick: f, "data-action": "end"}, "text", child…)`: attributes
 * with `null`, `undefined` or `false` are left out; `on…` attributes are event listeners;
 * `value` is set once the children (a select's options) are in.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {import("./types.js").Attrs<HTMLElementTagNameMap[K]> | null} [attrs]
 * @param {...import("./types.js").Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  let initial = null;
  for (const [name, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (name.startsWith("on") && typeof v === "function") {
      el.addEventListener(name.slice(2), /** @type {EventListener} */ (v));
    } else if (name === "class") {
      el.className = /** @type {string} */ (v);
    } else if (name === "value") {
      initial = String(v);
    } else if (name === "checked" || name === "disabled" || name === "selected") {
      /** @type {HTMLInputElement & HTMLOptionElement} */ (el)[name] = true;
      el.setAttribute(name, "");
    } else {
      el.setAttribute(name, v === true ? "" : String(v));
    }
  }
  append(el, children);
  if (initial !== null) /** @type {HTMLInputElement} */ (el).value = initial;
  return el;
}

/**
 * @param {Element} el
 * @param {import("./types.js").Child[]} children
 */
function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

/**
 * Empties `el` and fills it with `children`.
 * @template {Element} E
 * @param {E} el
 * @param {...import("./types.js").Child} children
 * @returns {E}
 */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}
