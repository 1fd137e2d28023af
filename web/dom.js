// A small helper to build elements without writing HTML strings.

/**
 * `h("button", {class: "x", onclick: f, "data-action": "end"}, "text", child…)`: attributes
 * with `null`, `undefined` or `false` are left out; `on…` attributes are event listeners;
 * `value` is set once the children (a select's options) are in.
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  let initial = null;
  for (const [name, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (name.startsWith("on") && typeof v === "function") {
      el.addEventListener(name.slice(2), v);
    } else if (name === "class") {
      el.className = v;
    } else if (name === "value") {
      initial = String(v);
    } else if (name === "checked" || name === "disabled" || name === "selected") {
      el[name] = true;
      el.setAttribute(name, "");
    } else {
      el.setAttribute(name, v === true ? "" : String(v));
    }
  }
  append(el, children);
  if (initial !== null) el.value = initial;
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

/** Empties `el` and fills it with `children`. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}
