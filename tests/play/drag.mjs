// drag.mjs URL SHOTS - arranging the hand on the play page in chromium: a card dragged with the
// mouse lands where it is let go and is not selected by the drag; a press that does not move
// is still a click (select); the order is kept when the hand changes (a card drawn goes last);
// Shift+Arrow moves the focused card; a finger's drag (touch events through the DevTools
// protocol, as a phone sends them) moves a card too; a reload starts sorted by suit again
// (the order lives in the page only). Then Leave the game: the page says you left.
import path from 'path';
import { launch, checks } from './chromium.mjs';

const [url, shots] = process.argv.slice(2);
const { check, failed } = checks();
const { ctx, page, close } = await launch({ viewport: { width: 1366, height: 900 }, hasTouch: true });
const errors = [];
page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
const order = () => page.evaluate(() => [...document.querySelectorAll('#hand button.card')].map((b) => b.dataset.card));
const centre = async (k) => { const r = await page.locator('#hand button.card').nth(k).boundingBox(); return [r.x + r.width / 2, r.y + r.height / 2, r.width]; };
const settle = () => page.waitForTimeout(150);
const SUIT = (c) => (c === 'JK' ? 99 : 'CDHS'.indexOf(c[1]) * 13 + 'A23456789TJQK'.indexOf(c[0]));

await page.goto(url);
await page.waitForFunction(() => st && st.decision && st.view && document.querySelectorAll('#hand button.card').length === st.view.hand.length, null, { timeout: 10000 });
const o0 = await order();
check(`the hand starts sorted by suit (${o0.join(' ')})`, o0.join() === o0.slice().sort((a, b) => SUIT(a) - SUIT(b)).join());

// the mouse: the first card dragged past the fourth's middle lands after it
{
  const [x0, y0] = await centre(0), [x3, y3] = await centre(3);
  await page.mouse.move(x0, y0); await page.mouse.down();
  for (let k = 1; k <= 10; k++) await page.mouse.move(x0 + ((x3 + 6 - x0) * k) / 10, y0 + (k < 10 ? -20 : 0));
  await page.screenshot({ path: path.join(shots, 'drag.png') });
  await page.mouse.up(); await settle();
}
const o1 = await order(), want1 = [o0[1], o0[2], o0[3], o0[0], ...o0.slice(4)];
check(`a card dragged with the mouse lands where it is let go (${o1.join(' ')})`, o1.join() === want1.join());
check('the drag selected nothing', (await page.locator('#hand button.card.sel').count()) === 0);

// play on with moves that use no card of the hand until a card may be selected (a discard)
let hand1 = o1;
for (let t = 0; t < 40; t++) {
  const can = await page.evaluate(() => st.decision && [...document.querySelectorAll('#hand button.card')].some((b) => !b.disabled));
  if (can) break;
  hand1 = await order();
  const moved = await page.evaluate(() => {
    const d = st.decision; if (!d) return false;
    const a = d.legal.find((x) => !x.uses.length && x.type !== 'knock'); if (!a) return false;
    act(a.i); return d.id;
  });
  if (moved) await page.waitForFunction((id) => st.decision && st.decision.id !== id && !busy, moved, { timeout: 10000 }).catch(() => {});
  else await page.waitForTimeout(100);
}
await settle();
const o2 = await order();
const kept = o2.filter((c) => hand1.includes(c)), added = o2.filter((c) => !hand1.includes(c));
check(`the arrangement is kept when the hand changes (${o2.join(' ')}: ${added.join(' ') || 'nothing'} drawn, last)`,
  kept.join() === hand1.filter((c) => o2.includes(c)).join() && o2.slice(o2.length - added.length).join() === added.join());

// a press that does not move is still a click: it selects
{
  const k = await page.evaluate(() => [...document.querySelectorAll('#hand button.card')].findIndex((b) => !b.disabled));
  await page.locator('#hand button.card').nth(k).click();
  await settle();
  check('a click without a drag selects the card', (await page.locator('#hand button.card.sel').count()) === 1);
  await page.keyboard.press('Escape'); await settle();
}

// the keyboard: Shift+ArrowRight moves the focused card one place right, and it keeps the focus
{
  const before = await order();
  await page.locator('#hand button.card').nth(0).focus();
  await page.keyboard.press('Shift+ArrowRight'); await settle();
  const after = await order();
  const focused = await page.evaluate(() => document.activeElement && document.activeElement.dataset.card);
  check(`Shift+ArrowRight moves the focused card right (${after.join(' ')})`,
    after.join() === [before[1], before[0], ...before.slice(2)].join() && focused === before[0]);
}

// a finger: the last card dragged to the left of the first, as touch events
{
  await page.setViewportSize({ width: 390, height: 844 });
  await page.locator('#hand').scrollIntoViewIfNeeded(); await settle();
  const before = await order(), n = before.length;
  const [xl, yl] = await centre(n - 1), [xf, yf, wf] = await centre(0);
  const cdp = await ctx.newCDPSession(page);
  const touch = (type, x, y) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y, id: 1 }] });
  await touch('touchStart', xl, yl);
  for (let k = 1; k <= 12; k++) await touch('touchMove', xl + ((xf - wf / 4 - xl) * k) / 12, yl + ((yf - yl) * k) / 12);
  await page.screenshot({ path: path.join(shots, 'drag-phone.png') });
  await touch('touchEnd', 0, 0); await settle();
  const after = await order();
  check(`a finger's drag moves a card (${after.join(' ')})`, after.join() === [before[n - 1], ...before.slice(0, n - 1)].join());
  check('... and selects nothing', (await page.locator('#hand button.card.sel').count()) === 0);
}

// the order lives in this page only: a reload starts sorted by suit
await page.reload();
await page.waitForFunction(() => st && st.view && document.querySelectorAll('#hand button.card').length === st.view.hand.length, null, { timeout: 10000 });
const o3 = await order();
check(`after a reload the hand is sorted by suit again (${o3.join(' ')})`, o3.join() === o3.slice().sort((a, b) => SUIT(a) - SUIT(b)).join());
check('no error in the console' + (errors.length ? ': ' + errors.slice(0, 3).join(' | ') : ''), errors.length === 0);
// leaving: the page says you left, in words (the record keeps the verdict RE)
page.once('dialog', (d) => d.accept());
await page.locator('#quit').click();
const left = await page.waitForFunction(() => /you left the game/.test(document.getElementById('status').textContent), null, { timeout: 5000 }).then(() => true).catch(() => false);
check(`after Leave the game the page says "${await page.locator('#status').textContent()}"`, left);
await close();
process.exit(failed() ? 1 : 0);
