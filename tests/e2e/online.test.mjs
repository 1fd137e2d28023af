// Two people play an online Star Realms game against each other from two browsers; neither ever
// receives the other's hand or a deck's order.

import assert from "node:assert/strict";
import { test } from "node:test";
import {
  BASE_URL, clickAction, actionsOn, createFromForm, createGame, starRealmsChoice, tableState, tid, viewsOf, visible,
  waitForChange, withBrowser,
} from "./helpers.mjs";

const seatIndex = (seat) => Number(seat.slice(1)) - 1;
const FORBIDDEN_KEYS = new Set(["deck", "trade_deck", "pile", "rng", "seed", "order"]);
const LOCATIONLESS = new Set(["unseen", "trade_deck_cards"]);

/** Every word of every string below `value`, skipping the keys in `skip`. */
function words(value, skip = new Set(), out = new Set()) {
  if (typeof value === "string") {
    out.add(value);
    for (const w of value.split(/\s+/)) out.add(w);
  } else if (Array.isArray(value)) {
    for (const v of value) words(v, skip, out);
  } else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) if (!skip.has(k)) words(v, skip, out);
  }
  return out;
}

function forbiddenKeys(value, path = "") {
  const found = [];
  if (Array.isArray(value)) value.forEach((v, i) => found.push(...forbiddenKeys(v, `${path}[${i}]`)));
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (FORBIDDEN_KEYS.has(k)) found.push(`${path}.${k}`);
      found.push(...forbiddenKeys(v, `${path}.${k}`));
    }
  }
  return found;
}

/** The frames of `mine` never show `other`'s hand, nor a deck's order. */
function checkPrivacy(mine, other, label) {
  const views = viewsOf(mine.frames);
  assert.ok(mine.frames.length > 0, `${label}: no WebSocket frame was captured`);
  assert.ok(views.length > 0, `${label}: no view among the frames`);
  for (const view of views) {
    const me = seatIndex(view.seat);
    view.observation.players.forEach((player, i) => {
      if (i === me) assert.ok(Array.isArray(player.hand), `${label}: own hand in version ${view.version}`);
      else assert.ok(player.hand === null || player.hand === undefined, `${label}: the hand of seat ${i + 1} in version ${view.version}`);
    });
    assert.deepEqual(forbiddenKeys(view), [], `${label}: hidden order in version ${view.version}`);
  }
  // Cards in the other seat's hand (known from its own views) that nothing public shows must not
  // appear in this seat's view of the same version.
  const otherViews = new Map(viewsOf(other.frames).map((v) => [v.version, v]));
  let checked = 0;
  for (const view of views) {
    const theirs = otherViews.get(view.version);
    if (!theirs) continue;
    const me = seatIndex(view.seat);
    const them = seatIndex(theirs.seat);
    const hand = theirs.observation.players[them].hand ?? [];
    const theirPlayers = theirs.observation.players.map((p, i) => (i === them ? { ...p, hand: null } : p));
    const publicWords = words({ ...theirs.observation, players: theirPlayers, log: theirs.log }, LOCATIONLESS);
    const mineWords = words([view.observation.players[me], view.legal_actions]);
    const searched = words(
      { ...view.observation, players: view.observation.players.map((p, i) => (i === me ? null : p)) },
      LOCATIONLESS,
    );
    for (const card of hand) {
      if (publicWords.has(card) || mineWords.has(card)) continue;
      checked += 1;
      assert.ok(!searched.has(card), `${label}: ${card}, in the hand of ${theirs.seat}, shows in the view of ${view.seat} (version ${view.version})`);
    }
  }
  return checked;
}

async function shareLink(page) {
  const share = page.locator(tid("share-link")).first();
  await share.waitFor({ state: "attached", timeout: 15000 });
  const found = await share.evaluate((el) => {
    const pick = (e) => e.getAttribute("href") || e.value || e.getAttribute("data-url") || e.textContent;
    const inner = el.matches("a, input") ? el : el.querySelector("a[href], input");
    return [pick(el), inner ? pick(inner) : null];
  });
  for (const text of found) {
    const m = text && text.match(/(\S*#\/join\/\d+\S*)/);
    if (m) return new URL(m[1], BASE_URL + "/").href;
  }
  throw new Error(`no #/join/ link in the share-link element: ${JSON.stringify(found)}`);
}

test("two browsers play an online Star Realms game; neither sees the other's hand", { timeout: 12 * 60_000 }, async () => {
  await withBrowser(async (open) => {
    const a = await open("online-a");
    const b = await open("online-b");
    await createFromForm(a.page, { seats: ["human", "human"], game: "starrealms" });
    await a.page.locator(tid("table")).waitFor({ timeout: 15000 });
    const link = await shareLink(a.page);
    await a.shot("created");
    // A latecomer opens the share link while the seat is free...
    const late = await open("online-late", { allow: /status of 409/ });
    await late.page.goto(link);
    const lateJoin = late.page.locator(`${tid("join")} [data-testid^="join-p"]`).first();
    await lateJoin.waitFor({ timeout: 15000 });
    // ...the second player takes it from the lobby...
    const id = link.match(/#\/join\/(\d+)/)[1];
    await b.page.goto(`${BASE_URL}/`);
    const lobbyJoin = b.page.locator(`${tid("lobby")} [data-testid^="join-${id}-"]`).first();
    await lobbyJoin.waitFor({ timeout: 15000 });
    await b.shot("lobby");
    await lobbyJoin.click();
    await b.page.locator(tid("table")).waitFor({ timeout: 15000 });
    await b.shot("joined");
    // ...and the latecomer is told the seat is taken.
    await lateJoin.click();
    await late.page.locator(tid("error-toast")).first().waitFor({ timeout: 10000 });
    await late.shot("seat-taken");
    await late.context.close();
    const seatA = (await tableState(a.page)).seat;
    const seatB = (await tableState(b.page)).seat;
    assert.ok(seatA && seatB && seatA !== seatB, `two seats: ${seatA} and ${seatB}`);

    const deadline = Date.now() + 8 * 60_000;
    let moves = 0;
    let idleSince = Date.now();
    while (Date.now() < deadline) {
      if ((await visible(a.page, tid("result"))) && (await visible(b.page, tid("result")))) break;
      let moved = false;
      for (const p of [a, b]) {
        const state = await tableState(p.page);
        if (!state || state.toMove !== state.seat) continue;
        const actions = await actionsOn(p.page);
        if (!actions.length) continue;
        const dialog = (await visible(p.page, tid("dialog"))) ? await actionsOn(p.page, tid("dialog")) : [];
        await clickAction(p.page, starRealmsChoice(actions, dialog));
        await waitForChange(p.page, state.version);
        moves += 1;
        moved = true;
        if (moves % 100 === 0) {
          await a.shot(`move-${moves}`);
          await b.shot(`move-${moves}`);
        }
      }
      if (moved) idleSince = Date.now();
      else {
        assert.ok(Date.now() - idleSince < 30_000, "nobody could move for 30 seconds");
        await a.page.waitForTimeout(100);
      }
    }
    await a.shot("end");
    await b.shot("end");
    const lastA = viewsOf(a.frames).at(-1);
    assert.ok(lastA.observation.turn >= 6, `several turns were played (turn ${lastA.observation.turn})`);

    const checkedA = checkPrivacy(a, b, "first browser");
    const checkedB = checkPrivacy(b, a, "second browser");
    console.log(`online: ${moves} moves, turn ${lastA.observation.turn}, over: ${lastA.over}; ` +
      `${viewsOf(a.frames).length} + ${viewsOf(b.frames).length} views; ${checkedA} + ${checkedB} hidden cards checked`);
    assert.ok(checkedA + checkedB > 0, "some card of a hand was hidden from the other seat and checked");
  });
});

test("the join page of a game whose free seat expired says it is closed, and offers no seat", { timeout: 60_000 }, async () => {
  const game = await createGame({ game: "starrealms", seats: ["human", "human"] });
  await withBrowser(async (open) => {
    const { page, shot } = await open("join-retired");
    // The server retires such a game an hour or more after it was made: its summary is
    // given here as the server then gives it.
    await page.route(`**/api/games/${game.id}`, async (route) => {
      const response = await route.fetch();
      const summary = await response.json();
      assert.equal(summary.retired, false);
      await route.fulfill({ response, json: { ...summary, retired: true } });
    });
    await page.goto(`${BASE_URL}/#/join/${game.id}`);
    const closed = page.locator(tid("join-retired"));
    await closed.waitFor({ timeout: 15000 });
    assert.match(await closed.innerText(), /Nobody took this seat in time/);
    assert.equal(await page.locator(`${tid("join")} [data-testid^="join-p"]`).count(), 0);
    await shot("retired");
  });
});
