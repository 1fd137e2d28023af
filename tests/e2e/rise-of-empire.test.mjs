// A Rise of Empire game from the new-game form: the pack's cards, each player's sticker sheet,
// an upgrade bought from the trade row's button, the sheet marking its row used, the log saying so.

import assert from "node:assert/strict";
import { test } from "node:test";
import { BASE_URL, playUntil, starRealmsChoice, tid, viewsOf, withBrowser } from "./helpers.mjs";

test("a Rise of Empire game: an upgrade is bought from the row and the sheet shows it", { timeout: 10 * 60_000 }, async () => {
  await withBrowser(async (open) => {
    const p = await open("rise-of-empire");
    const page = p.page;
    await page.goto(`${BASE_URL}/`);
    await page.locator(tid("home")).waitFor();
    await page.locator(tid("sets")).selectOption("rise_of_empire");
    assert.equal(await page.locator(tid("sheets")).isChecked(), true, "sheets are on by default");
    await page.locator(tid("seat-0")).selectOption("human");
    await page.locator(tid("seat-1")).selectOption("random");
    const hot = page.locator(tid("hotseat"));
    if (await hot.count()) await hot.uncheck();
    await page.locator(tid("create-game")).click();
    await page.locator(tid("table")).waitFor({ timeout: 15000 });
    // Both players' sheets are on the table, five rows each.
    await page.locator(tid("sheets")).first().waitFor();
    assert.equal(await page.locator(`${tid("sheets")} .sheet`).count(), 2);
    assert.equal(await page.locator(`${tid("sheets")} .sheet-row`).count(), 10);
    await p.shot("start");

    let upgraded = null;
    await playUntil(page, (actions, dialog) => {
      const up = actions.find((a) => a.includes(" upgrade "));
      if (up) {
        upgraded = up;
        return up;
      }
      return starRealmsChoice(actions, dialog);
    }, { maxMoves: 600, until: async () => upgraded !== null && (await page.locator(".sheet-row.used").count()) > 0 });
    assert.ok(upgraded, "an upgrade was offered and bought");
    await p.shot("upgraded");
    const used = await page.locator(".sheet-row.used").count();
    assert.ok(used >= 1, "the sheet marks the sticker used");
    // The view says which row of which sheet is used, and the log tells the upgrade.
    const views = viewsOf(p.frames);
    const last = views[views.length - 1];
    const seat = Number(last.seat.slice(1)) - 1;
    const sheet = last.observation.players[seat].sheets[0];
    assert.ok(sheet.ship + sheet.base > 0, "the player's sheet has a sticker used");
    const log = await page.locator(tid("log")).innerText();
    assert.match(log, /upgraded/, "the log tells the upgrade");
    // An upgraded card shows both its factions.
    const texts = await (await fetch(`${BASE_URL}/api/texts?lang=fr`)).json();
    const dual = Object.values(texts.cards).find((c) => c.upgrade);
    assert.equal(dual.factions.length, 2);
    assert.match(texts.messages["web.table.upgrade"], /Améliorer/);
    assert.ok(texts.sheets.s1_empire.rows.length === 5);
  });
});
