// @ts-check
// The Rise of Empire campaign in the browser: the form that starts one (home page), and the
// campaign page (`#/campaign/12`): seats, points, each scenario and its result, the sheets and
// their used stickers, the upgraded cards, the next scenario with its opener's choice, and the
// upgrades after the last scenario. Each game of the campaign is played on the usual table.

import { h, fill } from "./dom.js";
import { t, currentLang, sheet, cardName } from "./i18n.js";
import { api, saveToken, saveCampaignToken, campaignTokensOf, heldCampaigns } from "./api.js";
import { toast, errorText } from "./ui.js";
import { playerWord } from "./game.js";

/** @typedef {import("./types.js").Campaign} Campaign */

const LEVELS = ["easy", "medium", "hard", "expert"];
const SIDES = ["star_empire", "trade_federation"];

/**
 * A text of the campaign file in the interface's language.
 * @param {import("./types.js").LocalText | null | undefined} texts
 */
function text(texts) {
  if (!texts) return "";
  return texts[currentLang()] || texts.en || "";
}

/** @param {string} side */
function sideWord(side) {
  return t("faction." + side);
}

/** The home page's panel: a side, an opponent (an AI level or a friend), and the start. */
export function campaignPanel() {
  const side = h("select", { "data-testid": "campaign-side" }, SIDES.map((s) => h("option", { value: s }, sideWord(s))));
  const opponent = h("select", { "data-testid": "campaign-opponent", value: "medium" },
    LEVELS.map((l) => h("option", { value: l }, playerWord(l))),
    h("option", { value: "human" }, t("web.campaign.friend")));
  const start = h("button", {
    class: "btn primary",
    "data-testid": "campaign-start",
    onclick: async () => {
      start.disabled = true;
      const mine = side.value;
      const other = /** @type {string} */ (SIDES.find((s) => s !== mine));
      try {
        const created = await api.createCampaign({ players: ["human", opponent.value], sides: [mine, other] });
        const joined = await api.joinCampaign(created.id, "p1");
        saveCampaignToken(created.id, joined.seat, joined.token);
        location.hash = "#/campaign/" + created.id;
      } catch (/** @type {any} */ e) {
        toast(errorText(e.code, e.message));
        start.disabled = false;
      }
    },
  }, t("web.campaign.start"));
  const held = heldCampaigns().slice(0, 6);
  return h("section", { class: "panel campaign-new", "data-testid": "campaign-panel" },
    h("h2", null, t("web.campaign.title")),
    h("p", { class: "muted" }, t("web.campaign.text")),
    h("div", { class: "fields" },
      h("label", { class: "field" }, h("span", { class: "field-label" }, t("web.campaign.side")), side),
      h("label", { class: "field" }, h("span", { class: "field-label" }, t("web.campaign.opponent")), opponent)),
    start,
    held.length
      ? h("ul", { class: "games" }, held.map((c) => h("li", { class: "game-row" },
        h("span", { class: "game-id" }, "#" + c.id),
        h("span", { class: "game-words" }, t("web.campaign.title") + " · " + c.seats.join(", ")),
        h("span", { class: "game-actions" }, h("a", { class: "btn small", href: "#/campaign/" + c.id }, t("web.campaign.open"))))))
      : null);
}

/**
 * The campaign page; returns a function that stops its refreshes.
 * @param {HTMLElement} root
 * @param {number} id
 */
export function renderCampaign(root, id) {
  let stopped = false;
  /** @type {string | null} */
  let last = null;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  let busy = false;

  async function refresh() {
    if (stopped) return;
    let view = null;
    try {
      view = await api.campaign(id);
    } catch (/** @type {any} */ e) {
      fill(root, h("section", { class: "panel error-panel" },
        h("h2", null, e.code === "unknown_campaign" ? t("web.campaign.not_found", { id }) : errorText(e.code, e.message)),
        h("p", null, h("a", { href: "#/" }, t("web.game.home")))));
    }
    const json = view && JSON.stringify(view);
    if (view && json !== last && !busy && !stopped) {
      last = json;
      draw(view);
    }
    if (!stopped) timer = setTimeout(refresh, 3000);
  }

  /**
   * Runs a request that changes the campaign, then draws its answer.
   * @param {() => Promise<Campaign>} run
   * @returns {Promise<Campaign | null>}
   */
  async function change(run) {
    busy = true;
    try {
      const view = await run();
      last = JSON.stringify(view);
      busy = false;
      return view;
    } catch (/** @type {any} */ e) {
      busy = false;
      toast(errorText(e.code, e.message));
      last = null;
      refresh();
      return null;
    }
  }

  /** @param {Campaign} view */
  function draw(view) {
    const s = view.status;
    const tokens = campaignTokensOf(id);
    const mine = view.seats.filter((x) => tokens[x.seat]).map((x) => Number(x.seat.slice(1)) - 1);
    const who = (/** @type {number} */ p) => {
      const player = view.seats[p].player;
      const name = "p" + (p + 1) + " (" + sideWord(s.sides[p]) + ")";
      if (mine.includes(p)) return name + " — " + t("web.campaign.you");
      return player === "human" ? name : name + " — " + playerWord(player);
    };
    const token = mine.length ? tokens["p" + (mine[0] + 1)] : null;

    /** Opens game `game` on the table with this browser's seats. */
    const openGame = (/** @type {number} */ game) => {
      for (const p of mine) saveToken(game, "p" + (p + 1), tokens["p" + (p + 1)]);
      location.hash = (mine.length ? "#/game/" : "#/watch/") + game;
    };

    const players = h("ul", { class: "campaign-players", "data-testid": "campaign-players" }, [0, 1].map((p) => h("li", null,
      t("campaign.player", { player: who(p), points: s.points[p], political: s.political_victories[p], stickers: s.stickers_used[p] }))));

    const scenarios = h("ol", { class: "campaign-scenarios", "data-testid": "campaign-scenarios" }, view.scenarios.map((sc, k) => {
      const r = s.results[k];
      let result = null;
      if (r) {
        const winner = r.winner === null ? t("campaign.draw") : t("web.campaign.won_by", { player: who(r.winner) });
        const cardWords = r.card === null
          ? t("campaign.card_none")
          : t("campaign.card_won", { player: "p" + (r.card + 1), card: text(sc.victory_point.name), points: sc.victory_point.points });
        result = h("span", { class: "scenario-result", "data-testid": "scenario-result-" + sc.number },
          winner + (r.political ? " (" + t("campaign.political") + ")" : "") + " · " + cardWords);
      }
      const game = view.games[k];
      const current = k === s.scenario - 1 && !s.over;
      return h("li", { class: "scenario" + (r ? " done" : "") + (current ? " current" : ""), "data-scenario": String(sc.number) },
        h("b", null, text(sc.name)),
        h("span", { class: "muted small" }, " · " + t("web.campaign.vp", { name: text(sc.victory_point.name), points: sc.victory_point.points })),
        result ? h("div", null, result) : null,
        game ? h("div", null, h("a", { href: "#", onclick: (e) => { e.preventDefault(); openGame(game); } }, t("web.campaign.game_link", { id: game }))) : null);
    }));

    const sheets = h("div", { class: "campaign-sheets", "data-testid": "campaign-sheets" }, [0, 1].map((p) => h("div", null,
      h("h4", null, who(p)),
      s.sheets[p].length
        ? s.sheets[p].map((g) => {
          const def = sheet(g.sheet);
          const used = new Map((g.used || []).map((u) => [u.row, u.column]));
          return h("div", { class: "sheet f-" + (def.side || "none"), "data-sheet": g.sheet },
            h("span", { class: "sheet-name" }, def.name),
            h("span", { class: "sheet-rows" }, def.rows.map((row, r) => {
              const u = used.get(r + 1);
              return h("span", { class: "sheet-row" + (u ? " used " + u : ""), "data-row": String(r + 1), "data-used": u || "" },
                String(row.cost), u ? h("b", null, u === "ship" ? t("web.sheet.ship_mark") : t("web.sheet.base_mark")) : null);
            })));
        })
        : h("p", { class: "muted small" }, t("web.campaign.no_sheets")))));

    const upgraded = h("p", { class: "small", "data-testid": "campaign-upgraded" },
      t("campaign.upgraded", { n: s.upgraded_cards.length, cards: s.upgraded_cards.map(cardName).join(", ") }));

    fill(root, h("div", { class: "campaign-page", "data-testid": "campaign" },
      h("section", { class: "panel" },
        h("h1", null, text(view.name)),
        h("p", { "data-testid": "campaign-progress" }, s.over
          ? (s.winner === null ? t("campaign.tie") : t("campaign.winner", { player: who(s.winner) }))
          : t("web.campaign.progress", { n: s.scenario, of: s.scenarios })),
        players,
        nextPanel(view, who, mine, token, openGame)),
      h("section", { class: "panel" }, h("h2", null, t("web.campaign.scenarios")), scenarios),
      h("section", { class: "panel" }, h("h2", null, t("web.campaign.sheets")), sheets, upgraded),
      h("p", null, h("a", { href: "#/" }, t("web.game.home")))));
  }

  /**
   * What comes next: a seat to fill, the game to play or continue, the upgrades after it.
   * @param {Campaign} view
   * @param {(p: number) => string} who
   * @param {number[]} mine the players this browser holds
   * @param {string | null} token
   * @param {(game: number) => void} openGame
   */
  function nextPanel(view, who, mine, token, openGame) {
    const s = view.status;
    const free = view.seats.filter((x) => x.player === "human" && !x.claimed).map((x) => x.seat);
    if (free.length) {
      if (!mine.length) {
        return h("div", { class: "campaign-next" }, free.map((seat) => h("button", {
          class: "btn primary",
          "data-testid": "campaign-join-" + seat,
          onclick: () => change(async () => {
            const joined = await api.joinCampaign(id, seat);
            saveCampaignToken(id, joined.seat, joined.token);
            return api.campaign(id);
          }).then((v) => v && draw(v)),
        }, t("web.campaign.join", { seat }))));
      }
      const url = location.origin + location.pathname + "#/campaign/" + id;
      return h("div", { class: "campaign-next share", "data-testid": "campaign-share" },
        h("span", null, t("web.campaign.waiting_friend", { seat: free.join(", ") })),
        h("input", { type: "text", readonly: true, value: url, onfocus: (e) => e.target.select() }));
    }
    if (s.in_progress) {
      const game = view.games[view.games.length - 1];
      return h("div", { class: "campaign-next" },
        h("button", { class: "btn primary big", "data-testid": "campaign-continue", onclick: () => openGame(game) },
          mine.length ? t("web.campaign.continue") : t("web.home.watch")));
    }
    if (!s.over) {
      const sc = view.scenarios[s.scenario - 1];
      const opener = s.next_first;
      const head = [
        h("h2", null, t("campaign.scenario", { n: sc.number, of: s.scenarios, name: text(sc.name) })),
        h("p", { "data-testid": "scenario-text" }, text(sc.text)),
        h("p", { class: "muted" }, t("web.campaign.opener", { player: who(opener) })),
      ];
      if (!mine.length) return h("div", { class: "campaign-next" }, head);
      const options = s.next_choice;
      const mustChoose = options.length > 0 && view.seats[opener].player === "human";
      if (mustChoose && !mine.includes(opener)) {
        return h("div", { class: "campaign-next" }, head, h("p", null, t("web.campaign.opener_chooses", { player: who(opener) })));
      }
      let picked = 1;
      const choice = mustChoose
        ? h("fieldset", { class: "campaign-choice", "data-testid": "campaign-choice" },
          h("legend", null, t("campaign.choose")),
          options.map((o, i) => h("label", { class: "check" },
            h("input", { type: "radio", name: "campaign-choice", value: String(i + 1), checked: i === 0, onchange: () => { picked = i + 1; } }),
            h("span", null, text(o)))))
        : null;
      const play = h("button", {
        class: "btn primary big",
        "data-testid": "campaign-next",
        onclick: async () => {
          play.disabled = true;
          /** @type {{token: string | null, choice?: number}} */
          const body = { token: mine.includes(opener) ? campaignTokensOf(id)["p" + (opener + 1)] : token };
          if (mustChoose) body.choice = picked;
          const v = await change(() => api.nextScenario(id, body));
          if (v) openGame(v.games[v.games.length - 1]);
          else play.disabled = false;
        },
      }, t("web.campaign.play", { n: sc.number }));
      return h("div", { class: "campaign-next" }, head, choice, play);
    }
    if (s.completion_turn !== null) {
      const p = s.completion_turn;
      if (!mine.includes(p)) return h("div", { class: "campaign-next" }, h("p", null, t("web.campaign.complete_wait", { player: who(p) })));
      return h("div", { class: "campaign-next", "data-testid": "campaign-complete" },
        h("h2", null, t("campaign.complete")),
        h("div", { class: "campaign-options" }, s.completion_options.map(([card, sheetId, row]) => h("button", {
          class: "btn small",
          onclick: () => change(() => api.completeCampaign(id, { token: campaignTokensOf(id)["p" + (p + 1)], card, sheet: sheetId, row }))
            .then((v) => v && draw(v)),
        }, cardName(card) + " — " + sheet(sheetId).name + " · " + t("web.sheet.row", { row, cost: sheet(sheetId).rows[row - 1].cost })))));
    }
    if (s.final_trade_deck === null) return h("div", { class: "campaign-next" });
    // After the campaign, its deck deals games of any format: a game against the AI here,
    // others through the new-game form's API field `campaign`.
    const level = h("select", { "data-testid": "after-level", value: "medium" }, LEVELS.map((l) => h("option", { value: l }, playerWord(l))));
    const go = h("button", {
      class: "btn primary",
      "data-testid": "after-game",
      onclick: async () => {
        go.disabled = true;
        try {
          const summary = await api.create({ game: "starrealms", seats: ["human", level.value], campaign: id });
          const joined = await api.join(summary.id, "p1");
          saveToken(summary.id, joined.seat, joined.token);
          location.hash = "#/game/" + summary.id;
        } catch (/** @type {any} */ e) {
          toast(errorText(e.code, e.message));
          go.disabled = false;
        }
      },
    }, t("web.campaign.after_game"));
    return h("div", { class: "campaign-next" },
      h("p", null, t("campaign.final_deck", { n: s.final_trade_deck })),
      h("div", { class: "fields" }, h("label", { class: "field" }, h("span", { class: "field-label" }, t("web.home.level")), level)),
      go);
  }

  fill(root, h("p", { class: "muted center" }, t("web.game.connecting")));
  refresh();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
