// A Bataille Cosmique game against three bots, played to the end through the table.

import assert from "node:assert/strict";
import { test } from "node:test";
import {
  checkRecord, createFromForm, logIndexes, playUntil, tid, viewsOf, withBrowser,
} from "./helpers.mjs";

/** Attack (with a +2 when possible), else defend, else take the orbit card, else swap, else end. */
function cosmiqueChoice(actions) {
  const order = [
    (a) => a.startsWith("attack ") && a.endsWith(" plus2"),
    (a) => a.startsWith("attack "),
    (a) => a.startsWith("defend "),
    (a) => a === "take orbit",
    (a) => a.startsWith("replace "),
    (a) => a.startsWith("swap "),
    (a) => a === "end",
  ];
  for (const wanted of order) {
    const found = actions.find(wanted);
    if (found) return found;
  }
  return actions[0];
}

test("a Bataille Cosmique game against three bots is played to the end through the table", { timeout: 10 * 60_000 }, async () => {
  await withBrowser(async (open) => {
    const p = await open("cosmique");
    await createFromForm(p.page, { game: "cosmique", seats: ["human", "medium", "medium", "medium"] });
    await p.page.locator(`${tid("table")} .cq`).waitFor({ timeout: 15000 });
    await p.page.locator(tid("hand")).first().waitFor();
    await p.shot("start");
    let sawEndTurn = false;
    const moves = await playUntil(p.page, cosmiqueChoice, {
      onMove: async (action, n) => {
        if (n === 2) await p.shot("first-moves");
        if (n % 40 === 0) await p.shot(`move-${n}`);
      },
      until: async () => {
        if (!sawEndTurn) sawEndTurn = (await p.page.locator(`${tid("end-turn")}[data-action="end"]`).count()) > 0;
        return false;
      },
    });
    await p.page.locator(tid("result")).waitFor();
    await p.shot("result");
    assert.ok(moves > 0, "the player played");
    assert.ok(sawEndTurn, "the end-turn control carried data-action=end");

    const views = viewsOf(p.frames);
    assert.ok(views.length > 0, "WebSocket frames were captured");
    for (const view of views) {
      const me = Number(view.seat.slice(1)) - 1;
      view.observation.planets.forEach((planet, i) => {
        if (i !== me) assert.equal(planet.hand, null, `another planet's hand in version ${view.version}`);
      });
    }
    const last = views.at(-1);
    assert.equal(last.over, true);
    const record = await checkRecord(p.page, "cosmique", "cosmique");
    assert.equal(record.actions.length, logIndexes(p.frames).size, "the record has as many actions as the log");
    assert.equal(record.actions.length, last.version);
  });
});
