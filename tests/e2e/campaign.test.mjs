// A Rise of Empire campaign in the browser: started from the home page against the AI, its
// first scenario played to the end on the table, the campaign page with that result, the
// second scenario started (the opener's choice when it is ours) and its table opened.

import assert from "node:assert/strict";
import { test } from "node:test";
import { BASE_URL, playUntil, starRealmsChoice, tableState, tid, withBrowser } from "./helpers.mjs";

test("a campaign against the AI is played into its second scenario", { timeout: 12 * 60_000 }, async () => {
  await withBrowser(async (open) => {
    const p = await open("campaign");
    const page = p.page;
    await page.goto(`${BASE_URL}/`);
    await page.locator(tid("campaign-panel")).waitFor();
    await page.locator(tid("campaign-side")).selectOption("trade_federation");
    await page.locator(tid("campaign-opponent")).selectOption("easy");
    await page.locator(tid("campaign-start")).click();

    // The campaign page: scenario 1 of 12, both players, the scenarios listed.
    await page.locator(tid("campaign")).waitFor({ timeout: 15000 });
    const id = Number(page.url().split("#/campaign/")[1]);
    assert.ok(id > 0, page.url());
    assert.match(await page.locator(tid("campaign-progress")).innerText(), /1/);
    assert.equal(await page.locator(`${tid("campaign-players")} li`).count(), 2);
    const first = await (await fetch(`${BASE_URL}/api/campaigns/${id}`)).json();
    assert.equal(await page.locator(`${tid("campaign-scenarios")} li`).count(), first.scenarios.length);
    await p.shot("campaign-start");

    // The AI plays the Star Empire, which opens scenario 1 and makes its choice itself.
    await page.locator(tid("campaign-next")).click();
    await page.locator(tid("table")).waitFor({ timeout: 15000 });
    assert.equal(await page.locator(tid("campaign-link")).count(), 1, "the table links its campaign");
    const start = await tableState(page);
    assert.equal(start.seat, "p1");
    await p.shot("scenario-1");
    await playUntil(page, starRealmsChoice);
    await page.locator(tid("result")).waitFor();
    await p.shot("scenario-1-over");

    // Back on the campaign page: the first scenario's result, scenario 2 next.
    await page.locator(tid("campaign-back")).click();
    await page.locator(tid("scenario-result-1")).waitFor({ timeout: 15000 });
    assert.match(await page.locator(tid("campaign-progress")).innerText(), /2/);
    const response = await fetch(`${BASE_URL}/api/campaigns/${id}`);
    const view = await response.json();
    assert.equal(view.status.results.length, 1);
    assert.equal(view.status.scenario, 2);
    assert.equal(view.games.length, 1);
    assert.ok(!("seed" in view) && !JSON.stringify(view).includes('"seed"'), "no seed on the page's data");
    const result = await page.locator(tid("scenario-result-1")).innerText();
    assert.ok(result.length > 0, "the result is written");
    // The sheets of scenario 1 are on the page, with their stickers used in the game.
    assert.ok(await page.locator(`${tid("campaign-sheets")} .sheet`).count() >= 2);
    await p.shot("campaign-after-1");

    // Scenario 2: if we open it and its card offers a choice, we pick the second option.
    const choice = page.locator(tid("campaign-choice"));
    if (await choice.count()) await choice.locator("input[type=radio]").nth(1).check();
    await page.locator(tid("campaign-next")).click();
    await page.locator(tid("table")).waitFor({ timeout: 15000 });
    const second = await (await fetch(`${BASE_URL}/api/campaigns/${id}`)).json();
    assert.equal(second.games.length, 2);
    assert.equal(second.status.in_progress, true);
    assert.ok(page.url().endsWith(`#/game/${second.games[1]}`), page.url());
    if (view.status.next_first === 0 && view.status.next_choice.length > 1) {
      const summary = await (await fetch(`${BASE_URL}/api/games/${second.games[1]}`)).json();
      assert.equal(summary.campaign, id);
    }
    await p.shot("scenario-2");

    // The campaign page offers to continue the game in progress.
    await page.locator(tid("campaign-link")).click();
    await page.locator(tid("campaign-continue")).waitFor({ timeout: 15000 });
  });
});
