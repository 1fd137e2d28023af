// The interface fits a 390-pixel-wide phone without horizontal scrolling.

import assert from "node:assert/strict";
import { test } from "node:test";
import {
  BASE_URL, createGame, joinFromLink, playUntil, quickGame, starRealmsChoice, tableState, tid, withBrowser,
} from "./helpers.mjs";

const PHONE = { width: 390, height: 844 };
const scrollWidth = (page) => page.evaluate(() => document.documentElement.scrollWidth);

test("at 390 pixels, the home page and both games' tables scroll only vertically", { timeout: 5 * 60_000 }, async () => {
  await withBrowser(async (open) => {
    const p = await open("phone", PHONE);
    await p.page.goto(`${BASE_URL}/`);
    await p.page.locator(tid("home")).waitFor();
    await p.shot("home");
    assert.ok((await scrollWidth(p.page)) <= 390, `home page: ${await scrollWidth(p.page)} px wide`);
    // French words are longer.
    const title = await p.page.locator(`${tid("home")} h1`).first().textContent();
    await p.page.locator(tid("lang")).selectOption("fr");
    await p.page.waitForFunction(() => document.documentElement.lang === "fr");
    await p.page.waitForFunction((before) => document.querySelector('[data-testid="home"] h1')?.textContent !== before, title);
    await p.shot("home-fr");
    assert.ok((await scrollWidth(p.page)) <= 390, `home page in French: ${await scrollWidth(p.page)} px wide`);
    await p.page.locator(tid("lang")).selectOption("en");
    await p.page.waitForFunction(() => document.documentElement.lang === "en");

    await quickGame(p.page, "easy");
    await p.shot("starrealms-table");
    assert.ok((await scrollWidth(p.page)) <= 390, `Star Realms table: ${await scrollWidth(p.page)} px wide`);
    // Some cards in play, a dialog or two: the table at its fullest early on.
    await playUntil(p.page, starRealmsChoice, {
      maxMoves: 8,
      onMove: async () => {
        assert.ok((await scrollWidth(p.page)) <= 390, `Star Realms table in play: ${await scrollWidth(p.page)} px wide`);
      },
    });
    await p.shot("starrealms-played");

    const game = await createGame({ game: "cosmique", seats: ["human", "easy", "easy", "easy"] });
    await joinFromLink(p.page, `${BASE_URL}/#/join/${game.id}`);
    await p.page.locator(`${tid("table")} .cq`).waitFor({ timeout: 15000 });
    await p.page.waitForTimeout(500);
    await p.shot("cosmique-table");
    assert.ok((await scrollWidth(p.page)) <= 390, `Bataille Cosmique table: ${await scrollWidth(p.page)} px wide`);
    assert.ok(await tableState(p.page));
  });
});
