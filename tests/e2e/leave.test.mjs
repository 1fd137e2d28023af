// Leaving a game: asked twice, then a bot plays the seat to the end and the page's token is
// forgotten.

import assert from "node:assert/strict";
import { test } from "node:test";
import { BASE_URL, createGame, tid, withBrowser } from "./helpers.mjs";

test("a player leaves a game to a bot, after saying so twice", { timeout: 2 * 60_000 }, async () => {
  const game = await createGame({ game: "starrealms", seats: ["human", "random"], seed: 13 });
  const joined = await (await fetch(`${BASE_URL}/api/games/${game.id}/seats/p1/join`, { method: "POST" })).json();
  await withBrowser(async (open) => {
    const p = await open("leave", { width: 1280, height: 800 });
    const page = p.page;
    await page.goto(BASE_URL + "/");
    await page.evaluate(({ id, token }) => localStorage.setItem(`realms-token-${id}-p1`, token), { id: game.id, token: joined.token });
    await page.goto(`${BASE_URL}/#/game/${game.id}`);
    await page.locator(tid("table")).waitFor();

    await p.shot("table");
    // Asked first; "keep playing" changes nothing.
    await page.locator(tid("leave")).click();
    await page.locator(tid("leave-confirm")).waitFor();
    await p.shot("leave-confirm");
    await page.locator(tid("leave-no")).click();
    await page.locator(tid("leave")).waitFor();
    let summary = await (await fetch(`${BASE_URL}/api/games/${game.id}`)).json();
    assert.equal(summary.seats[0].player, "human");

    await page.locator(tid("leave")).click();
    await page.locator(tid("leave-yes")).click();
    await page.waitForFunction(() => location.hash === "#/" || location.hash === "");
    assert.equal(await page.evaluate((id) => localStorage.getItem(`realms-token-${id}-p1`), game.id), null, "the token is forgotten");
    summary = await (await fetch(`${BASE_URL}/api/games/${game.id}`)).json();
    assert.deepEqual(summary.seats.map((s) => s.player), ["medium", "random"], "a bot in the seat");

    // The bots play on without anybody at the table.
    const before = summary.actions;
    for (let i = 0; i < 100 && summary.actions === before && !summary.finished; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      summary = await (await fetch(`${BASE_URL}/api/games/${game.id}`)).json();
    }
    assert.ok(summary.actions > before || summary.finished, `the game goes on: ${JSON.stringify(summary)}`);
  });
});
