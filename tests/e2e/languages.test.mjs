// Every language of the table: the home page, a game's table, card names and the keys' help in
// English, French, Portuguese and Spanish, with no message key shown instead of its text.

import assert from "node:assert/strict";
import { test } from "node:test";
import { BASE_URL, quickGame, tid, withBrowser } from "./helpers.mjs";

/** Text on the page that looks like a message key left untranslated (`web.table.log`). */
const KEY_LIKE = /\b(web|act|dec|eff|refusal|role|cos|level|zone)\.[a-z_]+(\.[a-z_]+)*\b/;

test("the interface speaks each of its languages", { timeout: 5 * 60_000 }, async () => {
  const languages = (await (await fetch(`${BASE_URL}/api/texts`)).json()).languages;
  assert.deepEqual([...languages].sort(), ["en", "es", "fr", "pt"]);
  await withBrowser(async (open) => {
    for (const lang of languages) {
      const texts = await (await fetch(`${BASE_URL}/api/texts?lang=${lang}`)).json();
      const m = texts.messages;
      const p = await open(`language-${lang}`, { width: 1280, height: 800 });
      const page = p.page;
      // The language chosen before (the selector keeps it in localStorage).
      await p.context.addInitScript((lang) => localStorage.setItem("realms-lang", lang), lang);
      await page.goto(`${BASE_URL}/`);
      await page.locator(tid("home")).waitFor();
      assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
      assert.equal((await page.locator(tid("quick-start")).textContent()).trim(), m["web.home.quick_start"], `${lang}: home`);
      assert.equal(await page.locator(tid("lang")).inputValue(), lang, `${lang}: the selector shows it`);
      await p.shot("home");

      await quickGame(page, "easy", "me");
      await page.locator(`${tid("hand")} .card`).first().waitFor();
      const body = await page.locator("body").innerText();
      assert.ok(body.toLowerCase().includes(m["trade_row"].toLowerCase()), `${lang}: the trade row's name`);
      assert.ok(body.includes(texts.cards.scout.name), `${lang}: the Scout's name (${texts.cards.scout.name})`);
      assert.equal(KEY_LIKE.exec(body), null, `${lang}: a message key shown as text`);
      assert.equal(await page.title(), m["web.title.your_turn"], `${lang}: the title says it is the player's turn`);
      await page.keyboard.press("?");
      assert.equal((await page.locator(`${tid("keys-help")} h2`).textContent()).trim(), m["web.keys.title"]);
      await p.shot("table");
      await page.keyboard.press("Escape");
      await p.context.close();
    }
  });
});
