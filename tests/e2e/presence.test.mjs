// Who is at the table: a game of two people waits for the second ("waiting for p2 to join"),
// starts when they join, shows each seat's connection, and the lobby lists it once.

import assert from "node:assert/strict";
import { test } from "node:test";
import { BASE_URL, createFromForm, tid, withBrowser } from "./helpers.mjs";

test("a seat nobody took is waited for, and each seat's connection is shown", { timeout: 5 * 60_000 }, async () => {
  await withBrowser(async (open) => {
    const a = await open("presence-a", { width: 1280, height: 800 });
    await createFromForm(a.page, { seats: ["human", "human"], game: "starrealms" });
    await a.page.locator(tid("table")).waitFor({ timeout: 15000 });
    const id = Number((await a.page.evaluate(() => location.hash)).match(/(\d+)/)[1]);
    const other = (await a.page.locator(tid("table")).getAttribute("data-seat")) === "p1" ? "p2" : "p1";

    // Not started: the banner names the free seat, its panel says so, nothing can be played.
    await a.page.locator(tid("waiting")).waitFor();
    assert.match(await a.page.locator(tid("waiting")).textContent(), new RegExp(other));
    await a.page.locator(tid(`waiting-${other}`)).waitFor();
    assert.equal(await a.page.locator(`${tid("table")} [data-action]`).count(), 0, "no action before the game starts");
    assert.equal(await a.page.locator(tid("end-turn")).isDisabled(), true);
    await a.shot("waiting");

    // The lobby lists the game once, as open; its creator finds it under their games instead.
    const b = await open("presence-b", { width: 1280, height: 800 });
    await b.page.goto(`${BASE_URL}/`);
    await b.page.locator(`${tid("lobby")} [data-testid="join-${id}-${other}"]`).waitFor({ timeout: 15000 });
    assert.equal(await b.page.locator(`${tid("lobby")} a[href="#/watch/${id}"]`).count(), 0, "not also among the games to watch");
    await b.shot("lobby");
    await a.page.goto(`${BASE_URL}/`);
    await a.page.locator(tid("lobby")).locator("li").first().waitFor();
    assert.equal(await a.page.locator(`${tid("lobby")} [data-testid^="join-${id}-"]`).count(), 0, "the creator's own game is under their games");
    await a.page.goto(`${BASE_URL}/#/game/${id}`);
    await a.page.locator(tid("waiting")).waitFor();

    // The second player joins: the game starts, and both are shown connected.
    await b.page.locator(`${tid("lobby")} [data-testid="join-${id}-${other}"]`).click();
    await b.page.locator(tid("table")).waitFor({ timeout: 15000 });
    await a.page.locator(tid("waiting")).waitFor({ state: "detached", timeout: 15000 });
    await a.page.waitForFunction((seat) => {
      const dot = document.querySelector(`[data-testid="presence-${seat}"]`);
      return dot && dot.getAttribute("data-connected") === "true";
    }, other, { timeout: 15000 });
    const first = await a.page.locator(tid("table")).getAttribute("data-to-move");
    const mover = first === other ? b.page : a.page;
    await mover.locator(`${tid("hand")} [data-action]`).first().waitFor({ timeout: 15000 });
    await a.shot("started");

    // The second player leaves: their seat is shown not connected.
    await b.context.close();
    await a.page.waitForFunction((seat) => {
      const dot = document.querySelector(`[data-testid="presence-${seat}"]`);
      return dot && dot.getAttribute("data-connected") === "false";
    }, other, { timeout: 15000 });
    await a.shot("away");
  });
});

test("a watcher sees the cards named in moves made before they came", { timeout: 5 * 60_000 }, async () => {
  const game = await (await fetch(`${BASE_URL}/api/games`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ game: "starrealms", seats: ["easy", "easy"], seed: 23 }),
  })).json();
  // Some turns played before anybody watches.
  for (let i = 0; i < 300; i++) {
    const summary = await (await fetch(`${BASE_URL}/api/games/${game.id}`)).json();
    if (summary.actions > 40) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await withBrowser(async (open) => {
    const w = await open("late-watcher", { width: 1280, height: 800 });
    await watch(w.page, game.id);
    const lines = await w.page.locator(`${tid("log")} .log-line`).allTextContents();
    const buys = lines.filter((l) => /buys/.test(l));
    assert.ok(buys.length > 0, "somebody bought a card");
    for (const line of buys) assert.doesNotMatch(line, /slot \d/, `a bought card is named: ${line}`);
    await w.shot("log");
  });
});

async function watch(page, id) {
  await page.goto(`${BASE_URL}/#/watch/${id}`);
  await page.locator(`${tid("log")} .log-line`).first().waitFor({ timeout: 15000 });
}
