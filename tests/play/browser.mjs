// browser.mjs URL RESPONSES SHOTS PREFIX MODE - a scripted human plays `arena play --browser`
// in headless chromium: every answer by a click on the page (a card in the hand to discard it,
// or a move's button), until the game is over. MODE gin: mostly cards; MODE laws: a pile take
// and melds whenever the page offers them. Every /state and /act body and the page's HTML are
// appended to RESPONSES for scan.py; no request may leave 127.0.0.1:PORT; screenshots go to
// SHOTS/PREFIX-*.png. Prints ok/FAIL lines and exits 1 on any FAIL.
import fs from 'fs';
import os from 'os';
import path from 'path';
import { createRequire } from 'module';
// playwright-core is installed once, for the viewer's tests (tests/view/node_modules)
const { chromium } = createRequire(import.meta.url)('../view/node_modules/playwright-core');

const [url, responses, shots, prefix, mode] = process.argv.slice(2);
let failed = 0, passed = 0;
const ok = (what) => { passed++; console.log('ok   ' + what); };
const bad = (what) => { failed++; console.log('FAIL ' + what); };
const check = (what, cond) => (cond ? ok(what) : bad(what));
const origin = new URL(url).origin;
// the human's choices from a fixed seed: with the arena's --seed, the same game every run
let rs = 12345;
const random = () => { rs = (rs + 0x6d2b79f5) | 0; let t = Math.imul(rs ^ (rs >>> 15), 1 | rs);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t; return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };

const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'okr-chromium-'));
const ctx = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.OKR_CHROMIUM || '/usr/bin/chromium',
  headless: true,
  viewport: { width: 1300, height: 900 },
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
const foreign = [], errors = [];
await ctx.route('**/*', (route) => {
  const u = route.request().url();
  if (u.startsWith(origin + '/')) return route.continue();
  foreign.push(u);
  return route.abort();
});
const page = ctx.pages()[0] || await ctx.newPage();
page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
const bodies = [];
let served = '';
page.on('response', async (r) => {
  try {
    const t = await r.text();
    if (new URL(r.url()).pathname === '/') served = t;
    else bodies.push(t.replace(/\n/g, ' '));
  } catch (e) { /* the server has gone at the very end */ }
});

await page.goto(url);
check('the page loads and drops the token from the address bar', !page.url().includes('t='));
let clicks = 0, cards = 0, takes = 0, melds = 0, first = true;
const t0 = Date.now();
for (;;) {
  if (Date.now() - t0 > 240000) { bad('the game ended within 4 minutes'); break; }
  const status = await page.locator('#status').textContent().catch(() => '');
  if (/ended|stopped/.test(status)) break;
  const buttons = page.locator('#actions button');
  const n = await buttons.count().catch(() => 0);
  if (n === 0) { await page.waitForTimeout(30); continue; }
  if (first) {
    await page.screenshot({ path: path.join(shots, prefix + '-table.png'), fullPage: true });
    first = false;
  }
  const texts = await buttons.allTextContents();
  const can = page.locator('#hand button.can');
  let target = null;
  if (mode === 'laws') {
    const take = texts.findIndex((t) => t.startsWith('take'));
    const meld = texts.findIndex((t) => t.startsWith('meld'));
    if (take >= 0) { target = buttons.nth(take); takes++; }
    else if (meld >= 0) { target = buttons.nth(meld); melds++; }
  }
  if (!target && (await can.count()) > 0 && (mode === 'gin' || random() < 0.8)) {
    target = can.nth(Math.floor(random() * (await can.count())));
    cards++;
  }
  if (!target) target = buttons.nth(Math.floor(random() * n));
  const before = await page.locator('#log li').count();
  await target.click({ timeout: 5000 }).catch(() => {});
  clicks++;
  // until the move is in the log or the page says something else
  await page.waitForFunction((b) => document.querySelectorAll('#log li').length !== b ||
    !document.querySelector('#actions button') || /ended|stopped/.test(document.getElementById('status').textContent),
  before, { timeout: 10000 }).catch(() => {});
}
await page.waitForTimeout(200);
const result = await page.locator('#resulttext').textContent().catch(() => '');
await page.screenshot({ path: path.join(shots, prefix + '-over.png'), fullPage: true });
check(`the game is played to its end by ${clicks} clicks (${cards} on cards, ${takes} takes, ${melds} melds): "${result}"`,
  clicks > 0 && /over/i.test(result));
if (mode === 'gin') check('cards in the hand were clicked to discard them', cards > 0);
if (mode === 'laws') check('a pile take and a meld were played through the page', takes > 0 && melds > 0);
fs.appendFileSync(responses, bodies.join('\n') + '\n');
fs.writeFileSync(responses + '.page.html', served); // the page as served: it holds no card
check('no request left the page\'s own origin' + (foreign.length ? ': ' + foreign.slice(0, 3).join(' ') : ''), foreign.length === 0);
check('no error in the console' + (errors.length ? ': ' + errors.slice(0, 3).join(' | ') : ''), errors.length === 0);
await ctx.close();
fs.rmSync(profile, { recursive: true, force: true });
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
