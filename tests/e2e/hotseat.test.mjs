// Hot seat: two people at one screen; the pass-device screen hides the hand between seats.

import assert from "node:assert/strict";
import { test } from "node:test";
import { createFromForm, playUntil, starRealmsChoice, tableState, tid, visible, withBrowser } from "./helpers.mjs";

test("hot seat: the pass-device screen shows between the seats and hides the hand", { timeout: 6 * 60_000 }, async () => {
  await withBrowser(async (open) => {
    const p = await open("hotseat");
    await createFromForm(p.page, { seats: ["human", "human"], hotseat: true, game: "starrealms" });
    await p.page.locator(`${tid("table")}, ${tid("pass-device")}`).first().waitFor({ timeout: 15000 });
    let passes = 0;
    const seats = new Set();
    const onPassDevice = async () => {
      passes += 1;
      const hand = p.page.locator(tid("hand"));
      for (let i = 0; i < (await hand.count()); i++) {
        assert.equal(await hand.nth(i).isVisible(), false, "the hand is hidden behind the pass-device screen");
      }
      if (passes <= 2) await p.shot(`pass-device-${passes}`);
      await p.page.locator(tid("pass-device-continue")).click();
      await p.page.locator(tid("pass-device")).waitFor({ state: "hidden" });
      await p.page.locator(tid("hand")).first().waitFor({ state: "visible" });
      const state = await tableState(p.page);
      seats.add(state.seat);
      if (passes <= 2) await p.shot(`seat-${state.seat}`);
    };
    await playUntil(p.page, starRealmsChoice, {
      onPassDevice,
      until: async () => passes >= 5 && !(await visible(p.page, tid("pass-device"))),
      deadline: Date.now() + 4 * 60_000,
    });
    await p.shot("after");
    assert.ok(passes >= 5, `the pass-device screen showed ${passes} times`);
    assert.ok(seats.size >= 2, `both seats were played from the same page: ${[...seats]}`);
  });
});
