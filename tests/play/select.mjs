// select.mjs URL RESPONSES SHOTS PREFIX RULES - a scripted human plays `arena play --browser`
// to the end by clicking only: the cards of its hand to select them, then a move's control (and
// a wild card's meaning, or a knock's arrangement, when the page asks). At every decision the
// visible move controls are counted (those in #actions and #choose; "All legal moves" stays
// closed): above 12 is a FAIL. It picks a claim, a pile take, a meld, an addition or a knock
// whenever the page can offer one (gin: the discard that leaves least deadwood), so the
// selection paths are all walked; its first draws are the key d. It checks the moves are in
// words with the seat numbers, the human's clock at every decision, in german every claim
// window named (card, discarder) and the auto-pass switch, in gin the showdown itemised; a wild
// card's meaning asked exactly when moves share a control, likeliest first; the scoring tables
// with only the rule set's lines; the move numbers (3 digits with OKR_SELECT_3DIGITS) fit their margin. Every /state and /act body and the page are appended to
// RESPONSES for scan.py; screenshots at 1366x900 and 390x844 go to SHOTS/PREFIX-*.png.
import fs from 'fs';
import path from 'path';
import { launch, checks } from './chromium.mjs';

const [url, responses, shots, prefix, rules] = process.argv.slice(2);
const { check, failed } = checks();
const { ctx, page, close } = await launch({ viewport: { width: 1366, height: 900 } });
const origin = new URL(url).origin, foreign = [], errors = [], bodies = [];
let served = '';
await ctx.route('**/*', (r) => (r.request().url().startsWith(origin + '/') ? r.continue() : (foreign.push(r.request().url()), r.abort())));
page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
page.on('response', async (r) => {
  try { const t = await r.text(); if (new URL(r.url()).pathname === '/') served = t; else bodies.push(t.replace(/\n/g, ' ')); } catch (e) { /* gone */ }
});
let rs = 4242;
const random = () => { rs = (rs + 0x6d2b79f5) | 0; let t = Math.imul(rs ^ (rs >>> 15), 1 | rs);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t; return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
const RANKS = 'A23456789TJQK';
function deadwood(hand) { // least gin deadwood over sets and runs (RULES G5)
  const rank = (c) => RANKS.indexOf(c[0]), val = (c) => Math.min(rank(c) + 1, 10), melds = [];
  for (let r = 0; r < 13; r++) {
    const same = hand.map((c, i) => [c, i]).filter(([c]) => rank(c) === r).map(([, i]) => i);
    if (same.length >= 3) for (let m = 1; m < 1 << same.length; m++) { const ix = same.filter((_, k) => m & (1 << k)); if (ix.length >= 3) melds.push(ix); }
  }
  for (const suit of 'CDHS') {
    const at = {}; hand.forEach((c, i) => { if (c[1] === suit) at[rank(c)] = i; });
    for (let lo = 0; lo < 13; lo++) for (let hi = lo; hi < 13 && at[hi] !== undefined; hi++) if (hi - lo >= 2) melds.push(Array.from({ length: hi - lo + 1 }, (_, k) => at[lo + k]));
  }
  let best = Infinity;
  const go = (used, from) => { best = Math.min(best, hand.reduce((n, c, i) => n + (used & (1 << i) ? 0 : val(c)), 0));
    for (let k = from; k < melds.length; k++) if (melds[k].every((i) => !(used & (1 << i)))) go(melds[k].reduce((u, i) => u | (1 << i), used), k + 1); };
  go(0, 0);
  return best;
}
const visibleControls = () => page.evaluate(() => [...document.querySelectorAll('#actions button, #choose button')].filter((b) => b.offsetParent !== null).length);

await page.goto(url);
const limit = +(process.env.OKR_SELECT_S || 150) * 1000, t0 = Date.now();
// the order a wild card's meanings are offered in (docs/play.md): one filling a gap between the
// meld's natural cards before one at its end, one of a natural card's rank (a set) before the
// rest; equal ones in the engine's order. Smaller is offered first.
function wildRank(text) {
  const t = text.split(' '), nat = t.filter((x) => /^(10|[2-9TJQKA])[CDHS]$/i.test(x)).map((x) => RANKS.indexOf(x[0].toUpperCase()));
  let k = 0;
  for (const x of t.filter((y) => y.includes('='))) {
    const r = RANKS.indexOf(x.split('=')[1][0].toUpperCase());
    if (nat.length && r > Math.min(...nat) && r < Math.max(...nat)) k -= 2;
    if (nat.includes(r)) k -= 1;
  }
  return k;
}
let asked = 0, askedOrdered = 0, askedRight = 0, gapFirst = 0, clicked = 0;
let drawKeys = 0, clocks = 0, autoOn = false, autoPassed = 0, windows = 0, namedWindows = 0, decisions = 0, most = 0, over12 = 0, kinds = {}, meanings = 0, shotDone = false, lastId = '';
for (;;) {
  if (Date.now() - t0 > limit) { check(`the game ended within ${limit / 1000} s`, false); break; }
  const s = await page.evaluate(() => st && { over: st.over, d: st.decision, v: st.view, gin: st.gin }).catch(() => null);
  if (!s) { await page.waitForTimeout(30); continue; }
  if (s.over) break;
  if (!s.d || s.d.id === lastId) { await page.waitForTimeout(30); continue; }
  lastId = s.d.id;
  decisions++;
  const clock = await page.locator('#clock').textContent();
  if (/^your clock: \d+:\d\d left for this move$/.test(clock)) clocks++;
  if (decisions === 1) check(`the first decision's clock is the human's 30 minutes (--human-ms): "${clock}"`, /: (29|30):\d\d left/.test(clock));
  if (s.v && s.v.phase === 'claim') { // german: the claim window is named, never "your turn"
    // the window's texts and its discarder read in one go, while this decision is still the
    // page's: with auto-pass on, the page may have passed it (and drawn the next) in between
    const w = await page.evaluate((id) => (st.decision && st.decision.id === id ? [document.getElementById('claimwin').textContent, document.getElementById('status').textContent,
      st.view.discarder === st.seat ? 'you' : st.names[st.view.discarder]] : null), s.d.id);
    if (w) {
      windows++;
      if (windows === 1) await page.screenshot({ path: path.join(shots, prefix + '-claim.png') });
      if (/^Claim window \(RULES 6\.G\): .+ discarded by .+\. /.test(w[0]) && w[0].includes(' discarded by ' + w[2] + '.') && !/your turn|undefined/.test(w[0] + w[1])) namedWindows++;
    }
    if (autoOn) { // the page passes it by itself
      const gone = await page.waitForFunction((id) => !st.decision || st.decision.id !== id, s.d.id, { timeout: 5000 }).then(() => true).catch(() => false);
      if (gone) autoPassed++;
      continue;
    }
  }
  let n = await visibleControls();
  most = Math.max(most, n); if (n > 12) over12++;
  // the move to make: a claim, a take, a meld, an addition, a knock when there is one
  const L = s.d.legal, pref = ['claim', 'knock', 'take', 'meld', 'add', 'replace'];
  let target = null;
  for (const t of pref) { const c = L.filter((a) => a.type === t); if (c.length && (t !== 'take' || rules !== 'gin' || random() < 0.3)) { target = c[Math.floor(random() * c.length)]; break; } }
  if (!target && rules === 'gin' && L.some((a) => a.type === 'discard')) {
    let least = Infinity;
    for (const a of L.filter((x) => x.type === 'discard')) { const rest = s.v.hand.slice(); rest.splice(rest.indexOf(a.card), 1); const dw = deadwood(rest); if (dw < least) { least = dw; target = a; } }
  }
  if (!target) { const nd = L.filter((a) => a.type !== 'pass' || L.length === 1); target = (random() < 0.85 && nd.length ? nd : L)[Math.floor(random() * (random() < 0.85 && nd.length ? nd : L).length)]; }
  // the first few draws by the keyboard shortcut d instead of a click
  if (target.type === 'draw' && drawKeys < 3) {
    await page.keyboard.press('d');
    const moved = await page.waitForFunction((id) => !st.decision || st.decision.id !== id, s.d.id, { timeout: 5000 }).then(() => true).catch(() => false);
    if (moved) { drawKeys++; kinds.draw = (kinds.draw || 0) + 1; continue; }
    check('the key d draws', false);
    break;
  }
  // select its cards by clicking them in the hand
  for (const c of target.uses) {
    const b = page.locator(`#hand button.card[data-card="${c}"]:not(.sel)`).first();
    await b.click({ timeout: 5000 });
  }
  n = await visibleControls();
  most = Math.max(most, n); if (n > 12) over12++;
  if (!shotDone && target.uses.length >= (rules === 'gin' ? 1 : 2) && (rules !== 'gin' || s.v.hand.length > 10)) {
    shotDone = true;
    await page.screenshot({ path: path.join(shots, prefix + '-select.png') });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: path.join(shots, prefix + '-select-phone.png') });
    await page.setViewportSize({ width: 1366, height: 900 });
  }
  // the control that holds it
  const found = await page.evaluate((i) => { const b = [...document.querySelectorAll('#actions button')].find((x) => (x.dataset.group || '').split(',').includes(String(i))); return b ? [...document.querySelectorAll('#actions button')].indexOf(b) : -1; }, target.i);
  if (found < 0) { check(`the move "${target.text}" is offered once its cards are selected`, false); break; }
  kinds[target.type] = (kinds[target.type] || 0) + 1;
  await page.locator('#actions button').nth(found).click({ timeout: 5000 });
  // german: after the first claim, the auto-pass switch passes the claim windows that follow
  if (rules === 'german' && target.type === 'claim' && !autoOn) { await page.locator('#autopass').click(); autoOn = true; }
  // a meaning is asked exactly when more than one move shares the control (RULES 3.6: a wild
  // card's meaning), and the likeliest are offered first
  const group = L.filter((a) => a.key === target.key);
  clicked++;
  const offered = await page.evaluate(() => [...document.querySelectorAll('#choose button.meaning')].map((b) => +b.dataset.i));
  if ((offered.length > 0) === (group.length > 1)) askedRight++;
  if (offered.length) {
    asked++;
    const ranks = offered.map((i) => wildRank(L.find((a) => a.i === i).text));
    const idx = offered.slice();
    if (ranks.every((r, k) => k === 0 || ranks[k - 1] < r || (ranks[k - 1] === r && idx[k - 1] < idx[k]))) askedOrdered++;
    if (ranks.some((r) => r <= -2) && ranks.some((r) => r > -2)) gapFirst++;
  }
  if (await page.locator('#choose button.meaning').count()) {
    n = await visibleControls(); most = Math.max(most, n); if (n > 12) over12++;
    meanings++;
    const want = page.locator(`#choose button.meaning[data-i="${target.i}"]`);
    await ((await want.count()) ? want : page.locator('#choose button.meaning').first()).click({ timeout: 5000 });
  }
}
await page.waitForTimeout(300);
// the move numbers fit their margin: an ol's number is drawn left of the line, in its padding,
// and overflow clips what does not fit (3-digit numbers were cut); the widest number's text,
// in the line's font, must fit the padding
const nums = await page.evaluate(() => {
  const ol = document.getElementById('log'), pad = parseFloat(getComputedStyle(ol).paddingLeft);
  let worst = { n: 0, w: 0 };
  for (const li of ol.querySelectorAll('li:not(.sep)')) {
    const s = document.createElement('span'); s.style.whiteSpace = 'pre'; s.textContent = li.value + '. ';
    li.prepend(s); const w = s.getBoundingClientRect().width; s.remove();
    if (w > worst.w) worst = { n: li.value, w };
  }
  return { pad, worst, most: Math.max(0, ...[...ol.querySelectorAll('li:not(.sep)')].map((l) => l.value)) };
});
check(`the move numbers fit their margin (the widest, ${nums.worst.n}, ${nums.worst.w.toFixed(1)} px in ${nums.pad} px; ${nums.most} moves)`,
  nums.worst.n > 0 && nums.worst.w <= nums.pad);
if (process.env.OKR_SELECT_3DIGITS) check(`a long game: 3-digit move numbers (${nums.most})`, nums.most >= 100);
check(`a wild card's meaning is asked exactly when moves share a control (${askedRight} of ${clicked} moves made by click)`, clicked > 0 && askedRight === clicked);
check(`the meanings are offered likeliest first (${askedOrdered} of ${asked} prompts, ${gapFirst} with a gap-filling meaning among others)`, askedOrdered === asked);
const end = await page.evaluate(() => ({ result: document.getElementById('resulttext').textContent,
  sd: st.hand_end && st.hand_end.scoring && st.hand_end.scoring.sd ? 1 : 0,
  showdown: [...document.querySelectorAll('#showdown li')].map((l) => l.textContent),
  words: [...document.querySelectorAll('#log li')].map((l) => l.textContent),
  rows: [...document.querySelectorAll('#breakdown table tr td:first-child')].map((td) => td.textContent) }));
await page.screenshot({ path: path.join(shots, prefix + '-over.png'), fullPage: true });
await page.setViewportSize({ width: 390, height: 844 });
await page.screenshot({ path: path.join(shots, prefix + '-over-phone.png') });
check(`${rules}: the game is played to its end by clicks at ${decisions} decisions (${JSON.stringify(kinds)}, ${meanings} meanings asked): "${end.result}"`, decisions > 0 && /over/i.test(end.result));
check(`the human's clock is shown at every decision (${clocks} of ${decisions})`, clocks === decisions);
check(`the key d drew ${drawKeys} times`, drawKeys > 0);
check(`at most 12 visible move controls at every decision and selection (most ${most})`, over12 === 0 && most > 0);
if (rules !== 'gin') check('a meld was made by selecting its cards', (kinds.meld || 0) + (kinds.take || 0) + (kinds.claim || 0) > 0);
if (rules === 'german') {
  check('a claim out of turn was made by selecting its cards (RULES 6.G)', kinds.claim > 0);
  check(`with the auto-pass switch on, the page passed ${autoPassed} claim windows by itself`, autoPassed > 0);
  check(`every claim window is named with its card and discarder, the header not saying "your turn" (${namedWindows} of ${windows})`, windows > 0 && namedWindows === windows);
}
const melds = end.words.filter((w) => / meld(s)? .* as meld \d+/.test(w));
check(`the moves are in words, a meld with its cards (${melds.length}: "${melds[0] || end.words[end.words.length - 1]}")`, rules === 'gin' || melds.length > 0);
if (rules === 'gin') check(`the hand's end is itemised (${end.showdown.join(' / ')})`,
  end.showdown.length > 0 && (!end.sd || (end.showdown.length >= 3 && end.showdown.some((l) => / knocks? with /.test(l)) &&
    end.showdown.some((l) => /deadwood after melds and lay-offs: \d+/.test(l)) && end.showdown.some((l) => /= -?\d+ \(RULES G7\)$/.test(l)))));
// the scoring tables show only the lines the rule set has (RULES 7, G7): no rows of zeros
const NONE = { gin: ['concealed bonuses', "winner's bonus", 'settlement (laws payment)', 'going out', 'concealed bonus'],
  arlington: ['concealed bonuses', "winner's bonus", 'settlement (laws payment)', 'concealed bonus'],
  german: ['concealed bonuses', 'settlement (laws payment)', 'going out', 'concealed bonus'],
  parlett: ['settlement (laws payment)'], laws: [] }[rules] || [];
const extra = end.rows.filter((r) => NONE.includes(r));
check(`${rules}: the scoring tables have only this rule set's lines (${end.rows.join(', ')})`,
  end.rows.includes('final total') && end.rows.includes('hand score') && extra.length === 0);
check('every move line says who did it with a seat number', end.words.every((w) => /^hand \d+$|\(seat \d+\) /.test(w)));
fs.appendFileSync(responses, bodies.join('\n') + '\n');
fs.writeFileSync(responses + '.page.html', served);
check('no request left the page\'s own origin' + (foreign.length ? ': ' + foreign[0] : ''), foreign.length === 0);
check('no error in the console (no 404, no refused move sent)' + (errors.length ? ': ' + errors.slice(0, 3).join(' | ') : ''), errors.length === 0);
await close();
process.exit(failed() ? 1 : 0);
