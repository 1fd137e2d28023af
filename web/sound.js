// @ts-check
// The optional sound of "your turn": a short chime made in the page (Web Audio, no sound file),
// off until the player turns it on; the choice is kept as `realms-sound` in localStorage.

import { h } from "./dom.js";
import { t } from "./i18n.js";

const SOUND_KEY = "realms-sound";

/** @type {AudioContext|null} */
let audio = null;

/** Whether the player turned the sound on. */
export function soundOn() {
  return localStorage.getItem(SOUND_KEY) === "on";
}

/** @param {boolean} on */
export function setSound(on) {
  if (on) localStorage.setItem(SOUND_KEY, "on");
  else localStorage.removeItem(SOUND_KEY);
}

/** Two soft notes, when the sound is on (and the browser lets the page make sound). */
export function chime() {
  if (!soundOn()) return;
  try {
    audio = audio || new AudioContext();
    const now = audio.currentTime;
    [660, 880].forEach((freq, i) => {
      const osc = /** @type {AudioContext} */ (audio).createOscillator();
      const gain = /** @type {AudioContext} */ (audio).createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      const start = now + i * 0.14;
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(0.15, start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.3);
      osc.connect(gain).connect(/** @type {AudioContext} */ (audio).destination);
      osc.start(start);
      osc.stop(start + 0.32);
    });
    document.body.setAttribute("data-chimed", String(Number(document.body.getAttribute("data-chimed") || 0) + 1));
  } catch (e) {
    // No sound here: the banner and the title still say it.
  }
}

/** The button that turns the sound on and off. */
export function soundButton() {
  const on = soundOn();
  return h("button", {
    class: "btn small sound-toggle" + (on ? " on" : ""),
    "data-testid": "sound-toggle",
    "aria-pressed": on ? "true" : "false",
    title: t(on ? "web.sound.off" : "web.sound.on"),
    "aria-label": t(on ? "web.sound.off" : "web.sound.on"),
    onclick: (e) => {
      setSound(!soundOn());
      const button = /** @type {HTMLElement} */ (e.currentTarget);
      button.replaceWith(soundButton());
      if (soundOn()) chime();
    },
  }, speaker(on));
}

const NS = "http://www.w3.org/2000/svg";

/**
 * A speaker, with its waves when the sound is on, crossed out when it is off.
 * @param {boolean} on
 */
function speaker(on) {
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("width", "16");
  svg.setAttribute("height", "16");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("fill", "none");
  svg.setAttribute("stroke", "currentColor");
  svg.setAttribute("stroke-width", "2");
  svg.setAttribute("stroke-linecap", "round");
  svg.innerHTML = '<path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor"/>'
    + (on ? '<path d="M16 9a4 4 0 0 1 0 6M18.5 6.5a8 8 0 0 1 0 11"/>' : '<path d="M16 9l5 6M21 9l-5 6"/>');
  return svg;
}
