// A quick game against the easy AI, the player first, from the home page to the result panel,
// then its record.

import assert from "node:assert/strict";
import { test } from "node:test";
import {
  checkRecord, logIndexes, playUntil, quickGame, starRealmsChoice, tableState, tid, viewsOf, withBrowser,
} from "./helpers.mjs";

test("a quick Star Realms game against the easy AI is played to the end and its record replays", { timeout: 10 * 60_000 }, async () => {
  await withBrowser(async (open) => {
    const p = await open("quick-game");
    // The player asks to go first: the server seats them where the deal's first player sits.
    await quickGame(p.page, "easy", "me");
    const start = await tableState(p.page);
    assert.ok(start.seat, "the table names the player's seat");
    assert.equal(start.version, "0", "nothing was played before the player's first move");
    assert.equal(start.toMove, start.seat, "the player moves first");
    for (const hook of ["hand", "in-play", "trade-row", "log"]) {
      assert.equal(await p.page.locator(tid(hook)).count() > 0, true, `the table has ${hook}`);
    }
    await p.shot("start");
    let endTurn = 0;
    const moves = await playUntil(p.page, starRealmsChoice, {
      onMove: async (action, n) => {
        if (action === "end") endTurn += 1;
        if (n === 3 || n % 80 === 0) await p.shot(`move-${n}`);
      },
    });
    assert.ok(moves > 10, `the player made ${moves} moves`);
    assert.ok(endTurn > 0, "turns were ended");
    await p.page.locator(tid("result")).waitFor();
    await p.shot("result");

    assert.ok(p.frames.length > 0, "WebSocket frames were captured");
    const views = viewsOf(p.frames);
    const last = views[views.length - 1];
    assert.equal(last.over, true, "the last view is the end of the game");
    const record = await checkRecord(p.page, "quick-game", "starrealms");
    const lines = logIndexes(p.frames);
    assert.equal(record.actions.length, lines.size, "the record has as many actions as the log");
    assert.equal(record.actions.length, last.version, "and as many as the game's version");
    for (let i = 0; i < lines.size; i++) assert.ok(lines.has(i), `log line ${i} was sent`);
  });
});
