// Motion that explains: a card played slides from the hand into play, cards bought fly to the
// discard pile, authority lost shows its difference; none of it under prefers-reduced-motion.

import assert from "node:assert/strict";
import { test } from "node:test";
import { quickGame, tableState, tid, waitForChange, withBrowser } from "./helpers.mjs";

/** Counts the animations the page starts, and the differences of authority it shows. */
const COUNTER = () => {
  window.__motion = { animations: 0, deltas: [] };
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (...args) {
    window.__motion.animations += 1;
    if (this.classList && this.classList.contains("delta")) window.__motion.deltas.push(this.textContent);
    return animate.apply(this, args);
  };
};

async function playOneCardAndATurn(page) {
  await quickGame(page, "easy", "me");
  await page.locator(tid("your-turn")).waitFor();
  await page.evaluate(() => {
    window.__motion.animations = 0;
  });
  const before = await tableState(page);
  await page.locator(`${tid("hand")} .card[data-action]`).first().click();
  await waitForChange(page, before.version);
  const afterPlay = await page.evaluate(() => window.__motion.animations);
  // Everything playable, then the turn ends; the AI answers, usually with an attack.
  for (let i = 0; i < 10; i++) {
    const card = page.locator(`${tid("hand")} .card[data-action]`).first();
    if (!(await card.count())) break;
    const state = await tableState(page);
    await card.click();
    await waitForChange(page, state.version);
  }
  const state = await tableState(page);
  await page.locator(tid("end-turn")).click();
  if (await page.locator(tid("end-confirm")).isVisible()) await page.locator(tid("end-confirm-yes")).click();
  await waitForChange(page, state.version);
  await page.locator(tid("your-turn")).waitFor({ timeout: 30000 });
  await page.waitForTimeout(400);
  return { afterPlay, total: await page.evaluate(() => window.__motion) };
}

test("a card played slides into play, and the turns that follow move", { timeout: 3 * 60_000 }, async () => {
  await withBrowser(async (open) => {
    const p = await open("motion");
    await p.page.addInitScript(COUNTER);
    const { afterPlay, total } = await playOneCardAndATurn(p.page);
    assert.ok(afterPlay >= 1, `playing a card started ${afterPlay} animations`);
    assert.ok(total.animations > afterPlay, "the end of the turn and the AI's turn move too");
  });
});

test("under prefers-reduced-motion nothing moves", { timeout: 3 * 60_000 }, async () => {
  await withBrowser(async (open) => {
    const p = await open("motion-reduced");
    await p.page.emulateMedia({ reducedMotion: "reduce" });
    await p.page.addInitScript(COUNTER);
    const { afterPlay, total } = await playOneCardAndATurn(p.page);
    assert.equal(afterPlay, 0);
    assert.equal(total.animations, 0, "no animation at all");
    assert.deepEqual(total.deltas, []);
  });
});
