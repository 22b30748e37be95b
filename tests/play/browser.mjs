// browser.mjs URL RESPONSES SHOTS PREFIX MODE - a scripted human plays `arena play --browser` in
// headless chromium: every answer by clicks on the page (the move's cards selected in the hand,
// then the control the page offers for them, and its meaning when asked), until the game is
// over. At its first decision it types a move in the notation that is not legal then
// ("discard qs"): the page must show the engine's refusal with its rule
// number ("refused (RULES G3): ...") and nothing may change. MODE gin: cards discarded to least
// deadwood, a knock with its arrangement when offered (one must happen); MODE showdown: random
// discards against a bot that knocks, whose showdown must be drawn; MODE laws: a pile take, a meld with a
// wild card (its declaration) and other melds whenever the page offers them (a take and a wild meld
// must happen); MODE german: the same, and a claim out of turn whenever offered (one must happen).
// The cards must be drawn by the replay page's table.js (suit symbols and colours), which the page
// must inline byte for byte. Every /state and /act body and the page's HTML are appended to
// RESPONSES for scan.py; no request may leave 127.0.0.1:PORT; screenshots go to SHOTS/PREFIX-*.png.
// Prints ok/FAIL lines and exits 1 on any FAIL.
import fs from 'fs';
import os from 'os';
import path from 'path';
import { createRequire } from 'module';
// playwright-core is installed once, for the viewer's tests (tests/view/node_modules)
const { chromium } = createRequire(import.meta.url)('../view/node_modules/playwright-core');

const [url, responses, shots, prefix, mode] = process.argv.slice(2);
const gin = mode === 'gin' || mode === 'showdown'; // showdown: against a bot that knocks
const rummy = mode === 'laws' || mode === 'german';
let failed = 0, passed = 0;
const ok = (what) => { passed++; console.log('ok   ' + what); };
const bad = (what) => { failed++; console.log('FAIL ' + what); };
const check = (what, cond) => (cond ? ok(what) : bad(what));
const origin = new URL(url).origin;
// the human's choices from a fixed seed: with the arena's --seed, the same game every run
let rs = 12345;
// gin: the least deadwood of a hand (cards in the notation) over its arrangements into sets
// and runs (RULES G5): the scripted human discards the card that leaves the least, so that it
// comes to knock
const RANKS = 'A23456789TJQK';
function deadwood(hand) {
  const rank = (c) => RANKS.indexOf(c[0]), val = (c) => Math.min(rank(c) + 1, 10);
  const melds = [];
  for (let r = 0; r < 13; r++) {
    const same = hand.map((c, i) => [c, i]).filter(([c]) => rank(c) === r).map(([, i]) => i);
    if (same.length >= 3) for (let m = 1; m < 1 << same.length; m++) {
      const ix = same.filter((_, k) => m & (1 << k));
      if (ix.length >= 3) melds.push(ix);
    }
  }
  for (const suit of 'CDHS') {
    const at = {};
    hand.forEach((c, i) => { if (c[1] === suit) at[rank(c)] = i; });
    for (let lo = 0; lo < 13; lo++)
      for (let hi = lo; hi < 13 && at[hi] !== undefined; hi++)
        if (hi - lo >= 2) melds.push(Array.from({ length: hi - lo + 1 }, (_, k) => at[lo + k]));
  }
  let best = Infinity;
  const go = (used, from) => {
    best = Math.min(best, hand.reduce((n, c, i) => n + (used & (1 << i) ? 0 : val(c)), 0));
    for (let k = from; k < melds.length; k++)
      if (melds[k].every((i) => !(used & (1 << i)))) go(melds[k].reduce((u, i) => u | (1 << i), used), k + 1);
  };
  go(0, 0);
  return best;
}
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
// (the refusal the script provokes is said by the page before sending: no failed request)
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

// Every card on the page as table.js (the replay page's drawing) makes it: rank and suit
// symbol in the suit's colour, never the notation's plain text; the hand's cards are buttons.
const cardsDrawn = () => {
  const SYM = { C: ['\u2663', 'black'], D: ['\u2666', 'red'], H: ['\u2665', 'red'], S: ['\u2660', 'black'] };
  const out = { n: 0, bad: [], colours: {}, hand: 0, handButtons: 0, plain: [] };
  for (const e of document.querySelectorAll('#seats .card, #pile .card, #actions .card, #log .card')) {
    const tok = e.getAttribute('data-card');
    if (tok === '#') continue;
    out.n++;
    const face = tok.split('=')[0], rank = face.slice(0, -1), s = SYM[face.slice(-1)];
    const want = face === 'JK' ? 'Joker' : (rank === 'T' ? '10' : rank) + s[0];
    const cls = face === 'JK' ? 'joker' : s[1];
    if (!e.textContent.startsWith(want) || !e.classList.contains(cls)) out.bad.push(tok + ' drawn as "' + e.textContent + '" ' + e.className);
    if (cls !== 'joker') out.colours[cls] = getComputedStyle(e).color;
  }
  for (const e of document.querySelectorAll('#hand .card')) { out.hand++; if (e.tagName === 'BUTTON') out.handButtons++; }
  // no text node anywhere on the table shows a card the way the old page did ("2D")
  const walk = document.createTreeWalker(document.getElementById('table'), NodeFilter.SHOW_TEXT);
  for (let t = walk.nextNode(); t; t = walk.nextNode())
    if (/(^|\s)(10|[2-9TJQKA])[CDHS](\s|$)/.test(t.textContent)) out.plain.push(t.textContent);
  return out;
};

await page.goto(url);
check('the page loads and drops the token from the address bar', !page.url().includes('t='));
let clicks = 0, cards = 0, takes = 0, melds = 0, wildMelds = 0, claims = 0, knocks = 0, first = true;
let drawn = null, lastDid = null;
const t0 = Date.now();
for (;;) {
  if (Date.now() - t0 > 240000) { bad('the game ended within 4 minutes'); break; }
  const status = await page.locator('#status').textContent().catch(() => '');
  if (/ended|stopped/.test(status)) break;
  const did = await page.evaluate(() => st && st.decision && st.decision.id).catch(() => null);
  if (!did || did === lastDid) { await page.waitForTimeout(30); continue; }
  lastDid = did;
  if (first) {
    await page.screenshot({ path: path.join(shots, prefix + '-table.png'), fullPage: true });
    first = false;
    // a move typed in the notation that is not legal now (the first decision is a draw or an
    // upcard): the page shows the engine's refusal with its rule number, and nothing changes
    const before = await page.evaluate(() => ({ v: st.version, id: st.decision.id, log: document.querySelectorAll('#log li').length }));
    await page.fill('#movetext', 'discard qs');
    await page.press('#movetext', 'Enter');
    const msg = await page.waitForFunction(() => /refused \(RULES [^)]+\): /.test(document.getElementById('msg').textContent),
      null, { timeout: 10000 }).then(() => page.locator('#msg').textContent()).catch(() => '');
    const after = await page.evaluate(() => ({ v: st.version, id: st.decision && st.decision.id, log: document.querySelectorAll('#log li').length }));
    check(`a move typed in the notation that is not legal shows the refusal with its rule number: "${msg}"`,
      /^refused \(RULES (\d+\.\d+|G\d+|6\.G)\): .*nothing was changed/.test(msg));
    check('the refusal changed nothing (the same decision waits, no move in the log)',
      after.v === before.v && after.id === before.id && after.log === before.log);
    await page.screenshot({ path: path.join(shots, prefix + '-refused.png'), fullPage: true });
  }
  // the move wanted, from the legal list; then played by clicks only: its cards selected in
  // the hand, its control clicked (and its meaning, when the page asks which)
  const L = await page.evaluate(() => st.decision ? st.decision.legal : []);
  const hand = await page.evaluate(() => st.view.hand);
  const texts = L.map((a) => a.text);
  let want = null;
  if (gin) { const knock = L.find((a) => a.type === 'knock'); if (knock) { want = knock; knocks++; } }
  if (rummy) {
    const claim = L.find((a) => a.type === 'claim'), take = L.find((a) => a.type === 'take');
    const wild = L.find((a) => a.type === 'meld' && a.text.includes('=')), meld = L.find((a) => a.type === 'meld');
    if (claim) { want = claim; claims++; } else if (take) { want = take; takes++; } else if (wild) { want = wild; melds++; wildMelds++; } else if (meld) { want = meld; melds++; }
  }
  const discards = L.filter((a) => a.type === 'discard');
  if (!drawn && discards.length) drawn = await page.evaluate(cardsDrawn);
  if (!want && mode === 'gin' && discards.length) {
    let least = Infinity;
    for (const a of discards) { const rest = hand.slice(); rest.splice(rest.indexOf(a.card), 1); const d = deadwood(rest); if (d < least) { least = d; want = a; } }
    cards++;
  }
  if (!want && discards.length && (gin || random() < 0.8)) { want = discards[Math.floor(random() * discards.length)]; cards++; }
  if (!want) want = L[Math.floor(random() * L.length)];
  void texts;
  for (const c of want.uses) await page.locator(`#hand button.card[data-card="${c}"]:not(.sel)`).first().click({ timeout: 5000 });
  const at = await page.evaluate((i) => [...document.querySelectorAll('#actions button')].findIndex((x) => (x.dataset.group || '').split(',').includes(String(i))), want.i);
  const target = at >= 0 ? page.locator('#actions button').nth(at) : null;
  if (!target) { bad(`the move "${want.text}" is offered once its cards are selected`); break; }
  const before = await page.locator('#log li').count();
  await target.click({ timeout: 5000 }).catch(() => {});
  if (await page.locator('#choose button.meaning').count()) {
    const m = page.locator(`#choose button.meaning[data-i="${want.i}"]`);
    await ((await m.count()) ? m : page.locator('#choose button.meaning').first()).click({ timeout: 5000 }).catch(() => {});
  }
  clicks++;
  // until the move is in the log or the page says something else
  await page.waitForFunction((b) => document.querySelectorAll('#log li').length !== b ||
    !st.decision || /ended|stopped/.test(document.getElementById('status').textContent),
  before, { timeout: 10000 }).catch(() => {});
}
await page.waitForTimeout(200);
const result = await page.locator('#resulttext').textContent().catch(() => '');
await page.screenshot({ path: path.join(shots, prefix + '-over.png'), fullPage: true });
check(`the game is played to its end by ${clicks} clicks (${cards} on cards, ${takes} takes, ${melds} melds (${wildMelds} wild), ${claims} claims, ${knocks} knocks): "${result}"`,
  clicks > 0 && /over/i.test(result));
if (gin) check('cards in the hand were clicked to discard them', cards > 0);
if (drawn) {
  check(`the ${drawn.n} cards shown are drawn as on the replay page (rank, suit symbol, suit class)` +
    (drawn.bad.length ? ': ' + drawn.bad.slice(0, 3).join('; ') : ''), drawn.n > 10 && drawn.bad.length === 0);
  check('red suits are red and black suits black (' + JSON.stringify(drawn.colours) + ')',
    drawn.colours.red === 'rgb(192, 38, 45)' && drawn.colours.black === 'rgb(29, 29, 31)');
  check(`your hand is ${drawn.hand} clickable card buttons`, drawn.hand >= 7 && drawn.handButtons === drawn.hand);
  check('no card is shown as plain notation text' + (drawn.plain.length ? ': ' + drawn.plain.slice(0, 3).join(' | ') : ''),
    drawn.plain.length === 0);
} else bad('a hand with cards to discard was drawn');
const end = await page.evaluate(() => ({ sd: st.hand_end && st.hand_end.scoring && st.hand_end.scoring.sd,
  shown: document.querySelectorAll('#breakdown [data-knock-meld]').length,
  rows: document.querySelectorAll('#breakdown td[data-row="score"]').length }));
check(`the hand's scoring is drawn (${end.rows} seats)`, end.rows >= 2);
if (gin) check(`a knock (${knocks} by the page) shows its showdown: ${end.shown} melds drawn`,
  !end.sd || end.shown === end.sd.melds.length);
if (mode === 'showdown') check('the hand ended with a knock, its showdown drawn', end.sd && end.shown > 0);
// the page as served inlines the replay page's drawing code, byte for byte
const asset = (f) => fs.readFileSync(new URL('../../arena/view/assets/' + f, import.meta.url), 'utf8');
check('the page holds table.js and table.css as the replay page does',
  served.includes(asset('table.js')) && served.includes(asset('table.css')));
if (mode === 'laws') check('a pile take and a meld with a wild card were played through the page', takes > 0 && wildMelds > 0);
if (mode === 'german') check('a claim out of turn was played through the page (RULES 6.G)', claims > 0);
if (mode === 'gin') check('the human knocked with an arrangement through the page', knocks > 0);
fs.appendFileSync(responses, bodies.join('\n') + '\n');
fs.writeFileSync(responses + '.page.html', served); // the page as served: it holds no card
check('no request left the page\'s own origin' + (foreign.length ? ': ' + foreign.slice(0, 3).join(' ') : ''), foreign.length === 0);
check('no error in the console' + (errors.length ? ': ' + errors.slice(0, 3).join(' | ') : ''), errors.length === 0);
await ctx.close();
fs.rmSync(profile, { recursive: true, force: true });
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
