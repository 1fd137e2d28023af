// Shared pieces of the end-to-end tests: the browser, pages that record console errors and
// WebSocket frames, screenshots, and a player that clicks the interface's action controls.
//
// scripts/e2e.sh starts the server and sets REALMS_URL (the server's address), REALMS_BIN (the
// realms binary, to replay records) and E2E_ARTIFACTS (where screenshots go).

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";

export const BASE_URL = (process.env.REALMS_URL || "http://127.0.0.1:8080").replace(/\/$/, "");
export const ARTIFACTS = process.env.E2E_ARTIFACTS || path.resolve("../../target/e2e-artifacts");
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";

fs.mkdirSync(ARTIFACTS, { recursive: true });

export async function launch() {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/**
 * A page in a fresh browser context (its own storage: its own seat tokens), recording console
 * errors, uncaught exceptions and every WebSocket frame it receives.
 */
export async function openPage(browser, name, { width = 1280, height = 900, allow = null } = {}) {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  const errors = [];
  const frames = [];
  page.on("console", (message) => {
    if (message.type() !== "error" || (allow && allow.test(message.text()))) return;
    errors.push(`console: ${message.text()} (${message.location().url || "?"})`);
  });
  page.on("pageerror", (error) => errors.push(`page error: ${error.message}`));
  page.on("websocket", (ws) => {
    ws.on("framereceived", (frame) => {
      if (typeof frame.payload === "string") frames.push({ url: ws.url(), payload: frame.payload });
    });
  });
  let shots = 0;
  const shot = async (label) => {
    shots += 1;
    const file = path.join(ARTIFACTS, `${name}-${String(shots).padStart(2, "0")}-${label}.png`);
    await page.screenshot({ path: file, fullPage: true }).catch(() => {});
    return file;
  };
  return { context, page, errors, frames, shot, name };
}

/**
 * The views (parsed) among a page's received frames, each made whole: the interface asks for
 * views as changes (docs/protocol.md, "Views as changes"), merged here into the observation
 * and seats of the same socket's views before.
 */
export function viewsOf(frames) {
  const views = [];
  const kept = new Map();
  for (const { url, payload } of frames) {
    let message;
    try {
      message = JSON.parse(payload);
    } catch {
      continue;
    }
    if (!message || message.type !== "view") continue;
    const before = kept.get(url);
    if (message.observation_changes) {
      assert.ok(before, `changes before any whole view on ${url}`);
      const observation = { ...before.observation };
      for (const [key, value] of Object.entries(message.observation_changes)) {
        if (key === "players" && observation.players?.length === value.length) {
          observation.players = observation.players.map((p, i) => ({ ...p, ...value[i] }));
        } else observation[key] = value;
      }
      delete message.observation_changes;
      message.observation = observation;
    }
    if (message.seats === undefined) message.seats = before?.seats;
    kept.set(url, { observation: message.observation, seats: message.seats });
    views.push(message);
  }
  return views;
}

export function assertNoErrors(p) {
  assert.deepEqual(p.errors, [], `${p.name}: errors in the browser console`);
}

export const tid = (id) => `[data-testid="${id}"]`;

/** Runs `body` with a browser; on failure, a screenshot of every page it opened. */
export async function withBrowser(body) {
  const browser = await launch();
  const pages = [];
  const open = async (...args) => {
    const p = await openPage(browser, ...args);
    pages.push(p);
    return p;
  };
  try {
    await body(open);
    for (const p of pages) assertNoErrors(p);
  } catch (error) {
    for (const p of pages) await p.shot("failure");
    for (const p of pages) if (p.errors.length) console.error(`${p.name} console errors:\n  ${p.errors.join("\n  ")}`);
    throw error;
  } finally {
    await browser.close();
  }
}

/** The table's state: {version, toMove, seat}, or null when no table is shown. */
export async function tableState(page) {
  return page.evaluate(() => {
    const table = document.querySelector('[data-testid="table"]');
    if (!table) return null;
    return {
      version: table.getAttribute("data-version"),
      toMove: table.getAttribute("data-to-move"),
      seat: table.getAttribute("data-seat"),
    };
  });
}

export async function visible(page, selector) {
  return page.locator(selector).first().isVisible().catch(() => false);
}

/**
 * Waits until the table's version is not `version`, or the table gives way (to the hot-seat
 * screen), or the game ends; false on timeout.
 */
export async function waitForChange(page, version, timeout = 15000) {
  try {
    await page.waitForFunction(
      (v) => {
        const table = document.querySelector('[data-testid="table"]');
        const result = document.querySelector('[data-testid="result"]');
        const pass = document.querySelector('[data-testid="pass-device"]');
        if (v !== null && !table) return true;
        return (table && table.getAttribute("data-version") !== v) || Boolean(pass) || (result && result.offsetParent !== null);
      },
      version,
      { timeout, polling: 50 },
    );
    return true;
  } catch {
    return false;
  }
}

/** The action texts of the visible, enabled action controls, in page order. */
export async function actionsOn(page, scope = "") {
  return page.evaluate((scopeSelector) => {
    const root = scopeSelector ? document.querySelector(scopeSelector) : document;
    if (!root) return [];
    return [...root.querySelectorAll("[data-action]")]
      .filter((el) => !el.disabled && el.offsetParent !== null)
      .map((el) => el.getAttribute("data-action"));
  }, scope);
}

/** Clicks the visible control of `action` (and, ending a turn with something left to do, confirms). */
export async function clickAction(page, action) {
  const control = page.locator(`[data-action="${action.replace(/"/g, '\\"')}"]:visible`).first();
  await control.click();
  if (action === "end" && (await visible(page, tid("end-confirm")))) await page.locator(tid("end-confirm-yes")).click();
}

/**
 * A Star Realms move: play a card, else buy (not an explorer first), else attack (a base first,
 * then the largest attack), else answer the dialog, else end the turn.
 */
export function starRealmsChoice(actions, dialogActions) {
  const plays = actions.filter((a) => a.startsWith("play "));
  if (plays.length) return plays[0];
  const buys = actions.filter((a) => a.startsWith("buy "));
  if (buys.length) return buys.find((a) => !a.includes("explorer")) ?? buys[0];
  const attacks = actions.filter((a) => a.startsWith("attack "));
  if (attacks.length) {
    const base = attacks.find((a) => a.includes(" base "));
    if (base) return base;
    return attacks.reduce((best, a) => (Number(a.split(" ").pop()) > Number(best.split(" ").pop()) ? a : best));
  }
  if (dialogActions.length) return dialogActions.find((a) => a !== "pass") ?? dialogActions[0];
  if (actions.includes("end")) return "end";
  return actions[0];
}

/**
 * Plays `page`'s seat(s) with `choose(actions, dialogActions)` until the result panel shows or
 * `maxMoves` moves were made; returns the number of moves. `onPassDevice` is called when the
 * hot-seat screen shows (it must dismiss it). Fails when the table stops moving.
 */
export async function playUntil(page, choose, { maxMoves = 2000, deadline = Date.now() + 8 * 60_000, onPassDevice, onMove, until } = {}) {
  let moves = 0;
  let stuckSince = Date.now();
  let lastVersion = null;
  while (moves < maxMoves) {
    assert.ok(Date.now() < deadline, "the game took too long");
    if (await visible(page, tid("result"))) return moves;
    if (until && (await until())) return moves;
    if (onPassDevice && (await visible(page, tid("pass-device")))) {
      await onPassDevice();
      continue;
    }
    const state = await tableState(page);
    if (state && state.version !== lastVersion) {
      lastVersion = state.version;
      stuckSince = Date.now();
    }
    assert.ok(Date.now() - stuckSince < 60_000, `the table stayed at version ${lastVersion} for a minute`);
    if (state && state.toMove && state.toMove === state.seat) {
      const actions = await actionsOn(page);
      if (actions.length) {
        const dialog = (await visible(page, tid("dialog"))) ? await actionsOn(page, tid("dialog")) : [];
        const action = choose(actions, dialog);
        await clickAction(page, action);
        moves += 1;
        if (onMove) await onMove(action, moves);
        await waitForChange(page, state.version);
        continue;
      }
    }
    await waitForChange(page, state ? state.version : null, 2000);
  }
  return moves;
}

/** Creates a game through the HTTP API. */
export async function createGame(body) {
  const response = await fetch(`${BASE_URL}/api/games`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  assert.equal(response.status, 201, await response.clone().text());
  return response.json();
}

/** Fetches a record from the result panel's link, saves it, checks that `realms replay` accepts it. */
export async function checkRecord(page, name, game) {
  const link = page.locator(`${tid("result")} a[href*="record"]`).first();
  await link.waitFor({ state: "attached", timeout: 10000 });
  const href = await link.getAttribute("href");
  const url = new URL(href, page.url()).href;
  const response = await fetch(url);
  assert.equal(response.status, 200, `record at ${url}`);
  // Saved as sent: the seed is a 64-bit integer, which a JavaScript number would round.
  const text = await response.text();
  const record = JSON.parse(text);
  assert.ok(Array.isArray(record.actions), "the record lists the actions");
  const file = path.join(ARTIFACTS, `${name}-record.json`);
  fs.writeFileSync(file, text);
  const bin = process.env.REALMS_BIN;
  if (bin) {
    const out = execFileSync(bin, ["--lang", "en", "--game", game, "replay", "--check", file], { encoding: "utf8" });
    assert.match(out, /\S/, "replay --check prints a summary");
  }
  return record;
}

/** Every log line a page was sent over its WebSockets, by index. */
export function logIndexes(frames) {
  const seen = new Set();
  for (const view of viewsOf(frames)) for (const line of view.log ?? []) seen.add(line.index);
  return seen;
}

/** Starts a quick game against the AI from the home page. */
export async function quickGame(page, level = "easy", first = null) {
  await page.goto(`${BASE_URL}/`);
  await page.locator(tid("home")).waitFor();
  await page.locator(tid("quick-level")).selectOption(level);
  if (first) await page.locator(tid("quick-first")).selectOption(first);
  await page.locator(tid("quick-start")).click();
  await page.locator(tid("table")).waitFor({ timeout: 15000 });
}

/**
 * Fills the create form: `seats` is a list of `human` or bot levels; `game` when the form asks;
 * `sets` the Star Realms card sets (`base,colony_wars`).
 */
export async function createFromForm(page, { seats, hotseat = false, game, sets }) {
  await page.goto(`${BASE_URL}/`);
  await page.locator(tid("home")).waitFor();
  const form = page.locator(tid("create-game"));
  await form.first().waitFor({ state: "attached" });
  if (game) {
    const gameSelect = page.locator(`${tid("game")}, ${tid("create-game")} select[name="game"]`).first();
    if (await gameSelect.count()) await gameSelect.selectOption(game);
  }
  if (sets) await page.locator(tid("sets")).selectOption(sets);
  // Seats: add rows if the form starts with fewer.
  for (let i = 0; i < seats.length; i++) {
    const select = page.locator(tid(`seat-${i}`));
    if (!(await select.count())) {
      const add = page.locator(tid("add-seat"));
      if (await add.count()) await add.click();
    }
    await page.locator(tid(`seat-${i}`)).selectOption(seats[i]);
  }
  const hot = page.locator(tid("hotseat"));
  if (await hot.count()) {
    if (hotseat) await hot.check();
    else await hot.uncheck();
  } else {
    assert.ok(!hotseat, "the create form has no hotseat checkbox");
  }
  const tag = await form.first().evaluate((el) => el.tagName);
  if (tag === "FORM") {
    const submit = form.locator('button[type="submit"], input[type="submit"], button:not([type])').first();
    await submit.click();
  } else {
    await form.first().click();
  }
}

/** Opens a share link (`#/join/ID`) and takes the first free seat it offers. */
export async function joinFromLink(page, url) {
  await page.goto(url);
  await page.locator(`${tid("join")}, ${tid("table")}`).first().waitFor({ timeout: 15000 });
  if (await page.locator(tid("join")).count()) {
    await page.locator(`${tid("join")} [data-testid^="join-p"]`).first().click();
  }
  await page.locator(tid("table")).waitFor({ timeout: 15000 });
}
