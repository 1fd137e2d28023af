// A seat open in more windows than the server keeps for it: the oldest window stops for good,
// says so in words, and does not come back to push the newer ones out in turn.

import assert from "node:assert/strict";
import { test } from "node:test";
import { quickGame, tid, withBrowser } from "./helpers.mjs";

test("a seat opened in a fourth window stops the first one, which says so and stays stopped", { timeout: 3 * 60_000 }, async () => {
  await withBrowser(async (open) => {
    const p = await open("seat-windows");
    await quickGame(p.page, "easy", "me");
    const url = p.page.url();
    // Windows of the same browser share its storage, hence the seat's token.
    const others = [];
    for (let i = 0; i < 3; i++) {
      const page = await p.context.newPage();
      await page.goto(url);
      await page.locator(tid("table")).waitFor({ timeout: 15000 });
      others.push(page);
    }
    const panel = p.page.locator(".error-panel h2");
    await panel.waitFor({ timeout: 15000 });
    assert.match(await panel.innerText(), /another window/);
    assert.equal(await p.page.locator("#offline").isVisible(), false, "no reconnection is announced");
    await p.shot("replaced");
    await p.page.waitForTimeout(2000);
    assert.equal(await p.page.locator(tid("table")).count(), 0, "the first window stays stopped");
    for (const page of others) {
      assert.equal(await page.locator(tid("table")).count(), 1, "the newer windows keep their table");
    }
  });
});
