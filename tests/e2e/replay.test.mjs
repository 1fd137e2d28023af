// The replay viewer: a finished game step by step, both ways, to the end and back, to a turn,
// playing at a speed, from either seat or with every hand; a shareable link; a record file.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { ARTIFACTS, BASE_URL, createGame, tid, withBrowser } from "./helpers.mjs";

async function finishedGame() {
  const game = await createGame({ game: "starrealms", seats: ["easy", "easy"], seed: 17 });
  for (let i = 0; i < 600; i++) {
    const summary = await (await fetch(`${BASE_URL}/api/games/${game.id}`)).json();
    if (summary.finished) return summary;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the bots' game did not end");
}

const step = async (page) => Number(await page.locator(tid("table")).getAttribute("data-version"));
const logLines = (page) => page.locator(`${tid("log")} .log-line`).count();

test("a finished game replays step by step, from either seat or every hand, and from a file", { timeout: 5 * 60_000 }, async () => {
  const game = await finishedGame();
  const total = game.actions;
  await withBrowser(async (open) => {
    // The bad file at the end is refused with a 400, which the browser notes in its console.
    const p = await open("replay", { width: 1280, height: 800, allow: /status of 400 \(Bad Request\)/ });
    const page = p.page;

    // From the finished game's page.
    await page.goto(`${BASE_URL}/#/watch/${game.id}`);
    await page.locator(tid("replay-link")).click();
    await page.locator(tid("replay-bar")).waitFor({ timeout: 30000 });
    assert.equal(await step(page), 0);
    assert.equal(await logLines(page), 0);
    await p.shot("start");

    await page.locator(tid("replay-forward")).click();
    await page.waitForFunction(() => document.querySelector('[data-testid="table"]').getAttribute("data-version") === "1");
    assert.equal(await logLines(page), 1, "one action in the log");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    assert.equal(await step(page), 3);
    assert.equal(await logLines(page), 3);
    await page.locator(tid("replay-back")).click();
    assert.equal(await step(page), 2, "and back");
    assert.equal(await logLines(page), 2);

    await page.locator(tid("replay-end")).click();
    assert.equal(await step(page), total);
    await page.locator(tid("replay-result")).waitFor();
    await p.shot("end");
    await page.keyboard.press("Home");
    assert.equal(await step(page), 0);

    // A turn: its first step, and the status says that turn.
    const option = page.locator(`${tid("replay-turn")} option`).nth(4);
    const target = Number(await option.getAttribute("value"));
    await page.locator(tid("replay-turn")).selectOption(String(target));
    assert.equal(await step(page), target);
    assert.match(await page.locator(".status").textContent(), /Turn 5/);

    // Playing at a quarter of a second a step moves on by itself, until paused.
    await page.locator(tid("replay-speed")).selectOption("250");
    await page.locator(tid("replay-play")).click();
    await page.waitForFunction((from) => Number(document.querySelector('[data-testid="table"]').getAttribute("data-version")) >= from + 3, target);
    await page.locator(tid("replay-play")).click();
    const paused = await step(page);
    await page.waitForTimeout(700);
    assert.equal(await step(page), paused, "paused");

    // p2's view: p2's hand below, p1's hidden; then every hand.
    await page.locator(tid("replay-seat")).selectOption("p2");
    await page.locator(tid("replay-bar")).waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid="table"]')?.getAttribute("data-seat") === "p2");
    assert.equal(await step(page), paused, "the same step from the other seat");
    assert.equal(await page.locator(".me").getAttribute("data-seat"), "p2");
    assert.equal(await page.locator('.player[data-seat="p1"] .chips .mini-label').count(), 0, "p1's hand is hidden");
    await page.locator(tid("replay-all")).check();
    await page.waitForFunction(() => document.querySelector('.player[data-seat="p1"] .chips .chip'));
    await p.shot("every-hand");

    // The link keeps the step and the view.
    const url = page.url();
    assert.match(url, new RegExp(`#/replay/${game.id}\\?step=${paused}&seat=p2&all=1`));
    await page.goto("about:blank");
    await page.goto(url);
    await page.locator(tid("replay-bar")).waitFor({ timeout: 30000 });
    assert.equal(await step(page), paused);
    assert.equal(await page.locator(".me").getAttribute("data-seat"), "p2");

    // A record file opened from the home page.
    const record = await (await fetch(`${BASE_URL}/api/games/${game.id}/record`)).text();
    const file = path.join(ARTIFACTS, "replay-record.json");
    fs.writeFileSync(file, record);
    await page.goto(`${BASE_URL}/`);
    await page.locator(tid("open-record")).click();
    await page.locator(tid("replay-file")).setInputFiles(file);
    await page.locator(tid("replay-bar")).waitFor({ timeout: 30000 });
    await page.locator(tid("replay-end")).click();
    assert.equal(await step(page), total);
    await page.locator(tid("replay-result")).waitFor();

    // A file that is no record: said in words.
    const bad = path.join(ARTIFACTS, "replay-not-a-record.json");
    fs.writeFileSync(bad, "{\"hello\": 1}");
    await page.goto(`${BASE_URL}/#/replay?open=1`);
    await page.locator(tid("replay-file")).setInputFiles(bad);
    await page.locator(tid("replay-error")).waitFor();
    assert.match(await page.locator(tid("replay-error")).textContent(), /record/);
  });
});

test("a Bataille Cosmique replay keeps its own journal, rebuilt when it steps back", { timeout: 5 * 60_000 }, async () => {
  const created = await createGame({ game: "cosmique", seats: ["easy", "easy", "easy", "easy"], seed: 5 });
  for (let i = 0; i < 600; i++) {
    const summary = await (await fetch(`${BASE_URL}/api/games/${created.id}`)).json();
    if (summary.finished) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await withBrowser(async (open) => {
    const p = await open("replay-cosmique", { width: 1280, height: 800 });
    const page = p.page;
    await page.goto(`${BASE_URL}/#/replay/${created.id}`);
    await page.locator(tid("replay-bar")).waitFor({ timeout: 30000 });
    const lines = () => page.locator(".cq-journal-lines .cq-line").count();
    assert.equal(await lines(), 0, "nothing played at the start");
    // One step at a time, each shown before the next key.
    for (let k = 1; k <= 3; k++) {
      await page.keyboard.press("ArrowRight");
      await page.locator(`[data-testid="table"][data-version="${k}"] .cq-journal-lines`).waitFor({ state: "attached", timeout: 15000 });
    }
    const forward = await lines();
    assert.ok(forward >= 3, `three steps give at least three journal lines, not ${forward}`);
    await page.keyboard.press("ArrowLeft");
    await page.waitForFunction((n) => document.querySelectorAll(".cq-journal-lines .cq-line").length < n, forward);
    await page.keyboard.press("Home");
    await page.waitForFunction(() => document.querySelectorAll(".cq-journal-lines .cq-line").length === 0);
    await p.shot("start-again");

    // The table's code does not load: said in words, not a blank table.
    const q = await open("replay-cosmique-no-code", { width: 1280, height: 800, allow: /Failed to load resource/ });
    await q.page.route("**/cosmique.js", (route) => route.abort());
    await q.page.goto(`${BASE_URL}/#/replay/${created.id}`);
    await q.page.locator(tid("replay-bar")).waitFor({ timeout: 30000 });
    await q.page.getByText("The Bataille Cosmique table could not be loaded.").waitFor();
    await q.shot("no-code");
  });
});
