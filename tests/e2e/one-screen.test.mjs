// The Star Realms table on one screen: the other players, the trade row, the cards in play and
// the hand inside the window at 1280×800 and at 390×844, without the page scrolling; every card
// shown large on hover, on a click (log lines and piles too), closed by Escape; panels of four
// and six players readable in French.

import assert from "node:assert/strict";
import { test } from "node:test";
import {
  BASE_URL, createGame, joinFromLink, playUntil, quickGame, starRealmsChoice, tid, withBrowser,
} from "./helpers.mjs";

/** The boxes of the table's parts, and how far the page scrolls. */
function layout(page) {
  return page.evaluate(() => {
    const box = (sel) => {
      const el = document.querySelector(sel);
      if (!el) return null;
      const r = el.getBoundingClientRect();
      return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    };
    return {
      width: window.innerWidth,
      height: window.innerHeight,
      scrollWidth: document.documentElement.scrollWidth,
      scrollHeight: document.documentElement.scrollHeight,
      parts: {
        status: box(".status"),
        players: box(".players"),
        row: box(tid("trade-row")),
        inPlay: box(tid("in-play")),
        hand: box(tid("hand")),
        end: box(tid("end-turn")),
      },
    };
    function tid(id) {
      return `[data-testid="${id}"]`;
    }
  });
}

function assertOnOneScreen(l, label) {
  assert.ok(l.scrollHeight <= l.height, `${label}: the page scrolls (${l.scrollHeight} > ${l.height})`);
  assert.ok(l.scrollWidth <= l.width, `${label}: the page is ${l.scrollWidth} px wide`);
  for (const [name, b] of Object.entries(l.parts)) {
    assert.ok(b, `${label}: no ${name}`);
    assert.ok(b.top >= 0 && b.bottom <= l.height + 0.5, `${label}: ${name} is outside the window vertically (${b.top}–${b.bottom} of ${l.height})`);
    assert.ok(b.left >= 0 && b.right <= l.width + 0.5, `${label}: ${name} is outside the window horizontally (${b.left}–${b.right} of ${l.width})`);
  }
}

for (const [label, viewport] of [["desktop", { width: 1280, height: 800 }], ["phone", { width: 390, height: 844 }]]) {
  test(`at ${viewport.width}×${viewport.height} the whole table is in view without scrolling the page`, { timeout: 5 * 60_000 }, async () => {
    await withBrowser(async (open) => {
      const p = await open(`one-screen-${label}`, viewport);
      await quickGame(p.page, "easy", "me");
      await p.page.locator(tid("your-turn")).waitFor();
      assertOnOneScreen(await layout(p.page), `${label}, first turn`);
      await p.shot("start");
      // A few turns in: cards in play, bases, a fuller log.
      await playUntil(p.page, starRealmsChoice, {
        maxMoves: 30,
        onMove: async (action, moves) => {
          if (moves % 5 === 0) assertOnOneScreen(await layout(p.page), `${label}, move ${moves}`);
        },
      });
      await p.shot("played");
    });
  });
}

test("a card shows large on hover, on a click, from the log and the piles; Escape closes it", { timeout: 5 * 60_000 }, async () => {
  await withBrowser(async (open) => {
    const p = await open("zoom", { width: 1280, height: 800 });
    const page = p.page;
    await quickGame(page, "easy", "me");
    await page.locator(tid("your-turn")).waitFor();
    const zoom = page.locator(tid("zoom"));

    // Hovering a trade-row card: its large view beside it, the whole text, nothing to click.
    const rowCard = page.locator(`${tid("trade-row")} .card[data-card]`).first();
    const id = await rowCard.getAttribute("data-card");
    const name = await rowCard.locator(".card-name").textContent();
    await rowCard.hover();
    await zoom.waitFor({ state: "visible" });
    assert.equal(await zoom.getAttribute("data-card-shown"), id);
    assert.equal((await zoom.locator(".card-name").textContent()).trim(), name.trim());
    assert.equal(await zoom.locator("[data-action]").count(), 0, "the large view sends nothing");
    const [big, small] = await Promise.all([zoom.locator(".card").boundingBox(), rowCard.boundingBox()]);
    assert.ok(big.width > small.width * 1.8, `large: ${big.width} px against ${small.width} px`);
    await p.shot("hover");
    await page.mouse.move(5, 790);
    await zoom.waitFor({ state: "hidden" });

    // The log names cards: a click on a line shows its card until Escape.
    await playUntil(page, starRealmsChoice, { maxMoves: 3 });
    const line = page.locator(`${tid("log")} .log-line[data-card]`).first();
    const lineCard = await line.getAttribute("data-card");
    await line.click();
    await zoom.waitFor({ state: "visible" });
    assert.equal(await zoom.getAttribute("data-card-shown"), lineCard);
    assert.ok(await zoom.evaluate((el) => el.classList.contains("pinned")), "a click keeps it shown");
    await p.shot("log-click");
    await page.keyboard.press("Escape");
    await zoom.waitFor({ state: "hidden" });

    // A card of a discard pile, opened over the table.
    await page.locator(tid("end-turn")).click();
    if (await page.locator(tid("end-confirm")).isVisible()) await page.locator(tid("end-confirm-yes")).click();
    await page.locator(tid("your-turn")).waitFor({ timeout: 30000 });
    const pile = page.locator(".me .discard summary");
    await pile.click();
    const chip = page.locator(".me .discard .chip[data-card]").first();
    await chip.waitFor({ state: "visible" });
    const chipCard = await chip.getAttribute("data-card");
    await chip.click();
    await zoom.waitFor({ state: "visible" });
    assert.equal(await zoom.getAttribute("data-card-shown"), chipCard);
    // A click anywhere closes it, and does nothing else (read once the views of the turn's start
    // have all arrived: the version holds for half a second).
    const versionNow = () => page.locator(tid("table")).getAttribute("data-version");
    let version = await versionNow();
    for (let i = 0; i < 20; i++) {
      await page.waitForTimeout(500);
      const later = await versionNow();
      if (later === version) break;
      version = later;
    }
    await page.mouse.click(640, 30);
    await zoom.waitFor({ state: "hidden" });
    assert.equal(await page.locator(tid("table")).getAttribute("data-version"), version);

    // The Z key shows the focused card.
    await page.locator(`${tid("hand")} .card[data-action]`).first().focus();
    await page.keyboard.press("z");
    await zoom.waitFor({ state: "visible" });
    await page.keyboard.press("Escape");
    await zoom.waitFor({ state: "hidden" });
  });
});

test("four and six players: the others' panels keep name and authority on one line, cost badges whole, in French", { timeout: 5 * 60_000 }, async () => {
  await withBrowser(async (open) => {
    const p = await open("many-players", { width: 1280, height: 800 });
    const page = p.page;
    await page.goto(`${BASE_URL}/`);
    await page.locator(tid("lang")).selectOption("fr");
    await page.waitForFunction(() => document.documentElement.lang === "fr");
    for (const seats of [["human", "easy", "easy", "easy"], ["human", "easy", "easy", "easy", "easy", "easy"]]) {
      const game = await createGame({ game: "starrealms", format: "free_for_all", seats });
      await joinFromLink(page, `${BASE_URL}/#/join/${game.id}`);
      await page.locator(tid("your-turn")).waitFor({ timeout: 60000 });
      await playUntil(page, starRealmsChoice, { maxMoves: 12 });
      await page.locator(tid("your-turn")).waitFor({ timeout: 60000 });
      await p.shot(`${seats.length}-players`);
      const check = await page.evaluate(() => {
        const panels = [...document.querySelectorAll(".players .player")];
        const heads = panels.map((el) => {
          const head = el.querySelector(".p-head");
          const name = head.querySelector(".p-name").getBoundingClientRect();
          const authority = head.querySelector(".stat.authority .stat-value").getBoundingClientRect();
          return { oneLine: Math.abs(name.top - authority.top) < name.height, inside: authority.right <= el.getBoundingClientRect().right + 0.5 };
        });
        const rows = new Set(panels.map((el) => Math.round(el.getBoundingClientRect().top)));
        const costs = [...document.querySelectorAll(".table .card .card-cost")].map((badge) => {
          const b = badge.getBoundingClientRect();
          const c = badge.closest(".card").getBoundingClientRect();
          return b.left >= c.left - 0.5 && b.right <= c.right + 0.5 && b.top >= c.top - 0.5 && b.width >= 15;
        });
        return { panels: panels.length, heads, rows: rows.size, costs };
      });
      assert.equal(check.panels, seats.length - 1);
      assert.equal(check.rows, 1, "the others' panels make one row");
      assert.ok(check.heads.every((x) => x.oneLine && x.inside), JSON.stringify(check.heads));
      assert.ok(check.costs.length > 0 && check.costs.every(Boolean), "every cost badge is whole");
      assertOnOneScreen(await layout(page), `${seats.length} players`);
    }
  });
});
