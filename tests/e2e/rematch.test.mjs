// After a game of two people: a rematch with the sides swapped (one per game, whoever asks
// first), which the other player is offered too, its seats kept for the game's players (each
// takes theirs from the result panel or from the rematch's link), and a new game with the same
// settings.

import assert from "node:assert/strict";
import { test } from "node:test";
import { BASE_URL, createGame, tableState, tid, withBrowser } from "./helpers.mjs";

/**
 * Plays the page's seat over its WebSocket until the game is over: plays, attacks, ends. One act
 * per version, a little apart (the server limits a seat's pace); gives up after two minutes,
 * saying where it stood.
 */
async function playToTheEnd(page, id, token) {
  return page.evaluate(async ({ id, token }) => {
    const url = location.origin.replace(/^http/, "ws") + `/api/games/${id}/ws?token=${token}`;
    const ws = new WebSocket(url);
    let n = 0;
    let last = null;
    let acted = -1;
    let seen = "nothing yet";
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        ws.close();
        reject(new Error(`the game did not end in two minutes: ${n} acts, last message ${seen}`));
      }, 120_000);
      ws.onerror = () => reject(new Error("the WebSocket failed"));
      ws.onclose = (event) => reject(new Error(`the WebSocket closed (${event.code}) after ${seen}`));
      ws.onmessage = (event) => {
        const message = JSON.parse(event.data);
        seen = event.data.slice(0, 300);
        // A refused act is sent again a moment later; a stale one is answered by a fresh view.
        if (message.type === "error" && message.code === "rate_limited") {
          setTimeout(() => ws.send(last), 1000);
          return;
        }
        if (message.type === "error" && message.code === "stale_version") {
          acted = -1;
          return;
        }
        if (message.type === "error") reject(new Error(message.code + ": " + message.message));
        if (message.type !== "view") return;
        if (message.over) {
          clearTimeout(timer);
          ws.onclose = null;
          ws.close();
          resolve(message.winners);
          return;
        }
        const legal = message.legal_actions;
        if (!legal.length || message.version <= acted) return;
        acted = message.version;
        const pick = legal.find((a) => a.startsWith("play "))
          || legal.find((a) => a.startsWith("attack ") && !a.includes(" base"))
          || legal.find((a) => a.startsWith("attack "))
          || legal.find((a) => a === "end")
          || legal[0];
        n += 1;
        last = JSON.stringify({ type: "act", client_id: "c-" + n, version: message.version, action: pick });
        setTimeout(() => ws.send(last), 60);
      };
    });
  }, { id, token });
}

const hashId = (page) => page.evaluate(() => Number((location.hash.match(/#\/game\/(\d+)/) || [])[1]));

test("a finished game offers a rematch with the sides swapped and a new game with the same settings", { timeout: 5 * 60_000 }, async () => {
  const game = await createGame({ game: "starrealms", seats: ["human", "human"] });
  const join = async (seat) => (await fetch(`${BASE_URL}/api/games/${game.id}/seats/${seat}/join`, { method: "POST" })).json();
  const joined = await join("p1");
  const other = await join("p2");
  await withBrowser(async (open) => {
    const p = await open("rematch", { width: 1280, height: 800 });
    const page = p.page;
    await page.goto(BASE_URL + "/");
    await page.evaluate(({ id, token }) => localStorage.setItem(`realms-token-${id}-p1`, token), { id: game.id, token: joined.token });
    await Promise.all([playToTheEnd(page, game.id, joined.token), playToTheEnd(page, game.id, other.token)]);

    await page.goto(`${BASE_URL}/#/game/${game.id}`);
    await page.locator(tid("result")).waitFor();
    await page.locator(tid("rematch")).waitFor();
    // The winner in view, at the top of the table, without scrolling.
    const box = await page.locator(tid("result")).boundingBox();
    assert.ok(box && box.y >= 0 && box.y + box.height <= 800, `the result is in view: ${JSON.stringify(box)}`);
    assert.match(await page.locator(`${tid("result")} h2`).textContent(), /Winner|You win/);
    await p.shot("result");

    // Somebody else asks for the rematch first and tries to sit in it: its seat is kept for the
    // player, whose browser takes it with its seat's token of this game.
    const asked = await (await fetch(`${BASE_URL}/api/games/${game.id}/again`, { method: "POST" })).json();
    assert.equal(asked.rematch_of, game.id);
    for (const seat of ["p1", "p2"]) {
      const refused = await fetch(`${BASE_URL}/api/games/${asked.id}/seats/${seat}/join`, { method: "POST" });
      assert.equal(refused.status, 403);
      assert.equal((await refused.json()).code, "seat_reserved");
    }
    await page.reload();
    await page.locator(`${tid("rematch")}.offered`).waitFor();

    // The rematch: the player now sits where the other player sat, in a fresh deal.
    await page.locator(tid("rematch")).click();
    await page.waitForFunction((id) => /#\/game\/\d+/.test(location.hash) && !location.hash.endsWith("/" + id), game.id);
    const rematch = await hashId(page);
    await page.locator(tid("table")).waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid="table"]').getAttribute("data-seat") === "p2");
    assert.equal((await tableState(page)).seat, "p2", "sides swapped");
    assert.equal(rematch, asked.id, "the rematch somebody else asked for");
    const summary = await (await fetch(`${BASE_URL}/api/games/${rematch}`)).json();
    assert.equal(summary.rematch_of, game.id);
    assert.deepEqual(summary.seats.map((s) => [s.player, s.claimed]), [["human", false], ["human", true]]);
    assert.equal(summary.seed_chosen, false, "a fresh deal nobody chose");
    await p.shot("rematch");

    // The other player comes by the rematch's link, in a browser of their own that holds their
    // seat's token of the finished game: the seat kept for them is theirs.
    const q = await open("rematch-other", { width: 1280, height: 800 });
    await q.page.goto(BASE_URL + "/");
    await q.page.evaluate(({ id, token }) => localStorage.setItem(`realms-token-${id}-p2`, token), { id: game.id, token: other.token });
    await q.page.goto(`${BASE_URL}/#/join/${rematch}`);
    await q.page.locator(tid("join-p1")).click();
    await q.page.waitForFunction((id) => location.hash === "#/game/" + id, rematch);
    await q.page.locator(tid("table")).waitFor();
    await q.page.waitForFunction(() => document.querySelector('[data-testid="table"]').getAttribute("data-seat") === "p1");
    const both = await (await fetch(`${BASE_URL}/api/games/${rematch}`)).json();
    assert.deepEqual(both.seats.map((s) => s.claimed), [true, true]);

    // Back on the finished game, the rematch is offered; asking again opens the same game.
    const first = await (await fetch(`${BASE_URL}/api/games/${game.id}`)).json();
    assert.equal(first.rematch, rematch, "the finished game names its rematch");
    await page.goto(`${BASE_URL}/#/game/${game.id}`);
    await page.locator(`${tid("rematch")}.offered`).waitFor();
    await page.locator(tid("rematch")).click();
    await page.waitForFunction((id) => location.hash === "#/game/" + id, rematch);

    // The same settings: another new game, the player in the same seat.
    await page.goto(`${BASE_URL}/#/game/${game.id}`);
    await page.locator(tid("same-settings")).click();
    await page.waitForFunction(
      ({ a, b }) => /#\/game\/\d+/.test(location.hash) && !["#/game/" + a, "#/game/" + b].includes(location.hash),
      { a: game.id, b: rematch },
    );
    const again = await hashId(page);
    await page.locator(tid("table")).waitFor();
    assert.equal((await tableState(page)).seat, "p1");
    const same = await (await fetch(`${BASE_URL}/api/games/${again}`)).json();
    assert.deepEqual(same.seats.map((s) => s.player), ["human", "human"]);
    await p.shot("same-settings");
  });
});
