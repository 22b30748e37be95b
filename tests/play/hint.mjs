// hint.mjs URL - the Hint button of a practice game with --hint-bot in headless chromium:
// click it, and the page shows the hint bot's move, which is one of the move buttons (outlined).
// Prints ok/FAIL lines and exits 1 on any FAIL.
import fs from 'fs';
import os from 'os';
import path from 'path';
import { createRequire } from 'module';
const { chromium } = createRequire(import.meta.url)('../view/node_modules/playwright-core');

const [url] = process.argv.slice(2);
let failed = 0;
const check = (what, cond) => { if (!cond) failed++; console.log((cond ? 'ok   ' : 'FAIL ') + what); };
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'okr-chromium-'));
const ctx = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.OKR_CHROMIUM || '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
const page = ctx.pages()[0] || await ctx.newPage();
try {
  await page.goto(url);
  await page.waitForSelector('#actions button', { timeout: 20000 });
  check('the Hint button is shown', await page.locator('#hintbtn').isVisible());
  await page.locator('#hintbtn').click();
  await page.waitForSelector('#actions button.hinted', { timeout: 20000 });
  const shown = await page.locator('#hint').textContent();
  const hinted = await page.locator('#actions button.hinted').allTextContents();
  check('one move button is outlined', hinted.length === 1);
  check('the hint shown (' + shown + ') names that move', shown.startsWith('Hint: ' + hinted[0]));
} catch (e) {
  check('no error: ' + e, false);
}
await ctx.close();
fs.rmSync(profile, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
