// Keyboard play and screen-reader labels: a turn played with keys only (play all, buy by number,
// attack, end the turn and answer the question), a card played from the hand with Tab and Enter,
// the list of keys, labels on every control, the others' moves said to a screen reader, and the
// optional sound of the player's turn.

import assert from "node:assert/strict";
import { test } from "node:test";
import { quickGame, tableState, tid, withBrowser } from "./helpers.mjs";

const version = async (page) => Number((await tableState(page)).version);

async function waitVersionAbove(page, v) {
  await page.waitForFunction((v) => Number(document.querySelector('[data-testid="table"]').getAttribute("data-version")) > v, v, { timeout: 15000 });
}

async function waitMyTurn(page) {
  await page.waitForFunction(() => {
    const table = document.querySelector('[data-testid="table"]');
    return table && table.getAttribute("data-to-move") === table.getAttribute("data-seat")
      && !table.classList.contains("busy") && document.querySelector('[data-testid="end-turn"]:not([disabled])');
  }, null, { timeout: 30000 });
}

test("a game is played with the keyboard, and every control has a label", { timeout: 5 * 60_000 }, async () => {
  await withBrowser(async (open) => {
    const p = await open("keyboard", { width: 1280, height: 800 });
    const page = p.page;
    await quickGame(page, "easy", "me");
    await waitMyTurn(page);

    // Every control says what it does.
    const unlabelled = await page.evaluate(() => [...document.querySelectorAll('[data-testid="table"] button, [data-testid="table"] [role="button"], [data-testid="table"] select')]
      .filter((el) => !(el.getAttribute("aria-label") || el.textContent.trim()))
      .map((el) => el.outerHTML.slice(0, 120)));
    assert.deepEqual(unlabelled, [], "controls without a name");
    const handLabel = await page.locator(`${tid("hand")} [data-action]`).first().getAttribute("aria-label");
    assert.match(handLabel, /^Play /, "a hand card says it is played");

    // The list of keys.
    await page.keyboard.press("?");
    await page.locator(tid("keys-help")).waitFor();
    await p.shot("keys-help");
    await page.keyboard.press("Escape");
    await page.locator(tid("keys-help")).waitFor({ state: "detached" });

    // A: every card of the hand played.
    const inHand = await page.locator(`${tid("hand")} [data-action]`).count();
    assert.ok(inHand > 1);
    await page.keyboard.press("a");
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="hand"] [data-action^="play"]').length === 0, null, { timeout: 15000 });
    assert.ok(await page.evaluate(() => document.body.classList.contains("kbd")), "the controls show their keys");
    const hint = await page.locator(tid("end-turn")).evaluate((el) => getComputedStyle(el, "::after").content);
    assert.equal(hint, '"E"', "the end-turn button shows its key");
    await p.shot("played-all");

    // A number buys the card of that place, when it can be bought.
    const slot = await page.evaluate(() => {
      const el = document.querySelector('[data-testid="trade-row"] [data-slot][data-action^="buy"]');
      return el ? Number(el.getAttribute("data-slot")) : null;
    });
    if (slot !== null) {
      const before = await version(page);
      const bought = await page.locator(`${tid("trade-row")} [data-slot="${slot}"]`).getAttribute("data-action");
      await page.keyboard.press(String(slot + 1));
      await waitVersionAbove(page, before);
      const last = await page.locator(`${tid("log")} .log-line`).last().textContent();
      assert.match(last, /buys/, `${bought}: ${last}`);
    }

    // K attacks; E ends the turn, with the question when something is left, answered by Y.
    if (await page.locator('[data-action^="attack p"]').count()) {
      const before = await version(page);
      await page.keyboard.press("k");
      await waitVersionAbove(page, before);
    }
    // The optional sound of "your turn", turned on here.
    await page.locator(tid("sound-toggle")).click();
    assert.equal(await page.locator(tid("sound-toggle")).getAttribute("aria-pressed"), "true");
    const chimes = async () => Number(await page.evaluate(() => document.body.getAttribute("data-chimed") || 0));
    const chimed = await chimes();
    const before = await version(page);
    await page.keyboard.press("e");
    if (await page.locator(tid("end-confirm")).isVisible().catch(() => false)) await page.keyboard.press("y");
    await waitVersionAbove(page, before);

    // The bot's turn is said to a screen reader.
    await waitMyTurn(page);
    assert.ok(await chimes() > chimed, "the turn came with a chime");
    const said = await page.locator("#announcer").textContent();
    assert.match(said, /Easy|easy|p2/, `announced: ${said}`);

    // Tab and Enter: H goes to the hand, Enter plays the focused card, and the focus stays in the table.
    await page.keyboard.press("h");
    const focused = await page.evaluate(() => document.activeElement.getAttribute("data-action"));
    assert.match(focused, /^play /);
    const v = await version(page);
    await page.keyboard.press("Enter");
    await waitVersionAbove(page, v);
    const after = await page.evaluate(() => {
      const el = document.activeElement;
      return el && el.closest('[data-testid="table"]') ? el.getAttribute("data-action") || el.getAttribute("data-testid") : null;
    });
    assert.ok(after, "the focus stays on a control of the table");
    await p.shot("tab-enter");
  });
});
