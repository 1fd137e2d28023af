// Colony Wars at the table: a game of the base set and Colony Wars mixed, created from the
// new-game form, played to the end through the interface; its decisions read in words.

import assert from "node:assert/strict";
import { test } from "node:test";
import { BASE_URL, createFromForm, playUntil, starRealmsChoice, tid, withBrowser } from "./helpers.mjs";

/** Text that looks like a message key, or a decision shown by its raw name. */
const RAW = /\b(web|act|dec|eff)\.[a-z_]+\b|\b(acquire_up_to|to_hand|copy_base|discard_for|discard_reward)\b/;

test("a game of the base set and Colony Wars is played to the end from the browser", { timeout: 10 * 60_000 }, async () => {
  const texts = await (await fetch(`${BASE_URL}/api/texts?lang=en`)).json();
  const colonyWars = new Set(["swarmer", "predator", "battle_bot", "repair_bot", "patrol_cutter", "trade_raft", "lancer", "falcon", "gunship"]
    .filter((id) => texts.cards[id]));
  assert.ok(colonyWars.size > 5, "the texts hold the Colony Wars cards");
  await withBrowser(async (open) => {
    const p = await open("colony-wars", { width: 1280, height: 800 });
    const page = p.page;
    await createFromForm(page, { seats: ["human", "medium"], game: "starrealms", sets: "base,colony_wars" });
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
  });
});
