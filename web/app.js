// @ts-check
// The browser interface of realms: language, hash routes (`#/`, `#/game/12`, `#/join/12`,
// `#/watch/12`, `#/campaign/3`), and the page of each route.

import { h, fill } from "./dom.js";
import { loadTexts, preferredLang, browserLang, languages, languageName, currentLang, translateStatic } from "./i18n.js";
import { renderHome, renderJoin } from "./home.js";
import { GamePage } from "./game.js";
import { renderCampaign } from "./campaign.js";
import { installZoom } from "./zoom.js";
import { renderReplay } from "./replay.js";

let stopPage = () => {};
/** @type {GamePage | null} */
let game = null;

function route() {
  const hash = location.hash.replace(/^#\/?/, "").split("?")[0];
  const [page, arg] = hash.split("/");
  const id = Number(arg);
  return { page: page || "home", id: Number.isInteger(id) && id > 0 ? id : null };
}

function show() {
  stopPage();
  stopPage = () => {};
  const root = /** @type {HTMLElement} */ (document.getElementById("app"));
  const { page, id } = route();
  window.scrollTo(0, 0);
  if ((page === "game" || page === "watch") && id) {
    game = new GamePage(root, id, page === "watch");
    const current = game;
    stopPage = () => current.stop();
    current.start();
  } else if (page === "replay") {
    stopPage = renderReplay(root, id);
  } else if (page === "campaign" && id) {
    stopPage = renderCampaign(root, id);
  } else if (page === "join" && id) {
    renderJoin(root, id);
  } else {
    stopPage = renderHome(root);
  }
}

function langSelect() {
  const sel = /** @type {HTMLSelectElement} */ (document.querySelector("[data-testid=lang]"));
  fill(sel, languages().map((l) => h("option", { value: l }, languageName(l))));
  sel.value = currentLang();
  sel.onchange = async () => {
    await loadTexts(sel.value);
    translateStatic(document);
    langSelect();
    // A game page redraws in place (its connections stay); other pages are drawn again.
    if (game && ["game", "watch"].includes(route().page) && !game.stopped) game.render();
    else show();
  };
}

async function boot() {
  try {
    await loadTexts(preferredLang());
  } catch (e) {
    // A language the server does not know: English, then (now that the server has listed its
    // languages) another of the browser's if the server knows it.
    await loadTexts("en");
    const other = browserLang();
    if (other !== "en") await loadTexts(other).catch(() => {});
  }
  translateStatic(document);
  langSelect();
  installZoom();
  window.addEventListener("hashchange", show);
  show();
}

boot();
