// Colony Wars and Frontiers at the table: a game of the three boxes mixed, created from the
// new-game form, played to the end through the interface; its decisions read in words.

import assert from "node:assert/strict";
import { test } from "node:test";
import { BASE_URL, createFromForm, playUntil, starRealmsChoice, tid, withBrowser } from "./helpers.mjs";

/** Text that looks like a message key, or a decision shown by its raw name. */
const RAW = /\b(web|act|dec|eff|ability)\.[a-z_]+\b|\b(acquire_up_to|to_hand|copy_base|discard_for|discard_reward|player_discard_target|base_to_top|double_ally)\b/;

test("a game of the base set, Colony Wars and Frontiers is played to the end from the browser", { timeout: 10 * 60_000 }, async () => {
  const texts = await (await fetch(`${BASE_URL}/api/texts?lang=en`)).json();
  const inSet = (/** @type {string} */ set) => new Set(Object.keys(texts.cards).filter((id) => texts.cards[id].set === set));
  const colonyWars = inSet("colony_wars");
  const frontiers = inSet("frontiers");
  assert.equal(frontiers.size, 45, "the texts hold the 45 Frontiers cards");
  assert.ok(colonyWars.size > 40, "the texts hold the Colony Wars cards");
  assert.match(texts.cards.hive_queen.text, /Double ally \(Blob\): Add 3 Combat/);
  await withBrowser(async (open) => {
    const p = await open("card-sets", { width: 1280, height: 800 });
    const page = p.page;
    await createFromForm(page, { seats: ["human", "medium"], game: "starrealms", sets: "base,colony_wars,frontiers" });
    await page.locator(tid("table")).waitFor({ timeout: 15000 });
    const seen = new Set();
    let raw = null;
    await playUntil(page, starRealmsChoice, {
      onMove: async (_, n) => {
        const row = await page.evaluate(() => [...document.querySelectorAll('[data-testid="trade-row"] [data-card]')].map((e) => e.getAttribute("data-card")));
        for (const id of row) seen.add(id);
        // Read at once: the dialog may close between two calls.
        const text = await page.evaluate(() => {
          const dialog = /** @type {HTMLElement | null} */ (document.querySelector('[data-testid="dialog"]'));
          return dialog ? dialog.innerText : "";
        });
        if (RAW.test(text)) raw = text;
        if (n === 20) await p.shot("move-20");
      },
    });
    await page.locator(tid("result")).waitFor();
    await p.shot("result");
    assert.equal(raw, null, `a decision in words: ${raw}`);
    assert.ok([...seen].some((id) => colonyWars.has(id)), `Colony Wars cards in the row: ${[...seen].join(", ")}`);
    assert.ok([...seen].some((id) => frontiers.has(id)), `Frontiers cards in the row: ${[...seen].join(", ")}`);
  });
});
