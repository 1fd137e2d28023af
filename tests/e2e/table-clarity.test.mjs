// Clear state at the table: the "Your turn" banner (and the page title), the question before
// ending a turn with cards still to play (keep playing, end anyway, or never ask again).

import assert from "node:assert/strict";
import { test } from "node:test";
import { quickGame, tableState, tid, visible, waitForChange, withBrowser } from "./helpers.mjs";

test("the player's turn is announced, and ending it early asks first", { timeout: 5 * 60_000 }, async () => {
  await withBrowser(async (open) => {
    const p = await open("table-clarity");
    const page = p.page;
    await quickGame(page, "easy", "me");
    await page.locator(tid("your-turn")).waitFor();
    assert.match(await page.title(), /Your turn|À vous/);
    await p.shot("your-turn");

    // Cards still in hand: ending asks; "keep playing" changes nothing.
    const before = await tableState(page);
    await page.locator(tid("end-turn")).click();
    await page.locator(tid("end-confirm")).waitFor();
    await p.shot("end-confirm");
    await page.locator(tid("end-confirm-no")).click();
    assert.equal(await visible(page, tid("end-confirm")), false);
    assert.equal((await tableState(page)).version, before.version, "nothing was sent");

    // "End the turn" ends it; the banner goes while the AI plays.
    await page.locator(tid("end-turn")).click();
    await page.locator(tid("end-confirm-yes")).click();
    await waitForChange(page, before.version);
    const after = await tableState(page);
    assert.notEqual(after.version, before.version, "the turn was ended");

    // Next turn: "don't ask again" is remembered, and the turn ends at once.
    await page.locator(tid("your-turn")).waitFor({ timeout: 30000 });
    const mine = await tableState(page);
    await page.locator(tid("end-turn")).click();
    await page.locator(tid("end-confirm")).waitFor();
    await page.locator(tid("end-confirm-off")).check();
    await page.locator(tid("end-confirm-yes")).click();
    await waitForChange(page, mine.version);
    await page.locator(tid("your-turn")).waitFor({ timeout: 30000 });
    const third = await tableState(page);
    await page.locator(tid("end-turn")).click();
    await waitForChange(page, third.version);
    assert.equal(await visible(page, tid("end-confirm")), false, "not asked again");
    assert.equal(await page.evaluate(() => localStorage.getItem("realms-confirm-end")), "off");
  });
});
