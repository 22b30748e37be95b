// phone.mjs - the report and replay pages on a phone (390x844) in Debian's chromium, headless,
// driven by playwright-core (tests/view/package.json; never a downloaded browser), and what
// their labels and events say (issue 22).
//   node phone.mjs CONFIG.json
// CONFIG: {"doc": docs/report.md, "report": a report page, "replays": {name: referee page},
//          "seat": a seat's page, "shots": screenshot folder}
// Checks: no page is wider than the screen (document.documentElement.scrollWidth <= 390), every
// table scrolls inside its box, each forest plot scales so that every entrant's dot is on
// screen; the event list grows with the step (the future one switch away, off when a page
// opens); the seats' scores change only at a hand's end or the result, never at the move
// before; every move is told in words with the seat's name and number; every score label of
// a replay is in docs/report.md's list with its meaning in a title, and a rule set's result
// shows only the lines it has. Every request but the page itself is blocked and fails the
// test, as does a console error. Prints ok/FAIL lines; exits 1 on any failure.
import fs from 'fs';
import os from 'os';
import path from 'path';
import { chromium } from 'playwright-core';

const cfg = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
let failed = 0;
const check = (what, cond) => { if (!cond) failed++; console.log((cond ? 'ok   ' : 'FAIL ') + what); };
const W = 390, H = 844;

// the documented labels: docs/report.md's table between <!-- labels --> and <!-- /labels -->
const doc = fs.readFileSync(cfg.doc, 'utf8');
const block = /<!-- labels -->\n([\s\S]*?)<!-- \/labels -->/.exec(doc);
const labels = {};
let twice = [];
(block ? block[1] : '').split('\n').forEach((line) => {
  const c = line.trim().replace(/^\||\|$/g, '').split('|').map((x) => x.trim());
  if (c.length < 4 || !c[0].startsWith('`')) return;
  const l = c[0].replace(/`/g, '');
  if (l in labels) twice.push(l);
  labels[l] = c[2];
});
check('docs/report.md lists ' + Object.keys(labels).length + ' labels, each once ' + JSON.stringify(twice),
  Object.keys(labels).length > 20 && !twice.length);

const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'okr-chromium-'));
const ctx = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.OKR_CHROMIUM || '/usr/bin/chromium',
  headless: true,
  viewport: { width: W, height: H },
  deviceScaleFactor: 1,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
const pages = [cfg.report, cfg.seat].concat(Object.values(cfg.replays)).map((p) => 'file://' + path.resolve(p));
const foreign = [], errors = [];
await ctx.route('**/*', (route) => {
  const url = route.request().url().replace(/#.*$/, '');
  if (pages.includes(url)) return route.continue();
  foreign.push(url);
  return route.abort();
});
const page = await ctx.newPage();
page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') errors.push(m.type() + ': ' + m.text()); });
page.on('pageerror', (e) => errors.push('page error: ' + e.message));
fs.mkdirSync(cfg.shots, { recursive: true });
async function open(file) {
  await page.goto('file://' + path.resolve(file));
  await page.waitForSelector('body[data-ready="1"]', { timeout: 20000 });
}
const width = () => page.evaluate(() => document.documentElement.scrollWidth);
// every table inside the screen: wider ones scroll in their own box
// (itself, or the box it scrolls in)
const tablesInside = () => page.evaluate((w) => [...document.querySelectorAll('table')]
  .filter((t) => t.offsetParent !== null)
  .map((t) => {
    let b = t;
    while (b && b !== document.body && !['auto', 'scroll'].includes(getComputedStyle(b).overflowX)) b = b.parentElement;
    const r = (b && b !== document.body ? b : t).getBoundingClientRect();
    return { id: t.id, left: r.left, right: r.right };
  })
  .filter((r) => r.left < -0.5 || r.right > w + 0.5), W);

// ---- the report ----
await open(cfg.report);
check('the report at 390 px: the page is ' + (await width()) + ' px wide', (await width()) <= W);
const outT = await tablesInside();
check('... every table inside the screen (a wide one scrolls in its box): ' + JSON.stringify(outT.slice(0, 3)), !outT.length);
const scrolls = await page.evaluate(() => [...document.querySelectorAll('table')].filter((t) => t.scrollWidth > t.clientWidth + 1 &&
  ['auto', 'scroll'].includes(getComputedStyle(t).overflowX)).length + [...document.querySelectorAll('.scroll')].filter((d) => d.scrollWidth > d.clientWidth + 1).length);
check('... ' + scrolls + ' wide tables scroll inside their box', scrolls > 0);
const dots = await page.evaluate(() => [...document.querySelectorAll('svg.forest')].map((s) => ({
  svg: s.getBoundingClientRect().width,
  dots: [...s.querySelectorAll('circle.pt')].map((c) => { const r = c.getBoundingClientRect(); return [r.left, r.right]; }),
})));
check('... both forest plots fit the screen and every entrant\'s dot is on it (' +
  dots.map((d) => d.dots.length + ' dots, ' + Math.round(d.svg) + ' px').join('; ') + ')',
  dots.length === 2 && dots.every((d) => d.svg <= W && d.dots.length >= 3 && d.dots.every(([l, r]) => l >= 0 && r <= W)));
await page.screenshot({ path: path.join(cfg.shots, 'report-phone.png') });

// ---- the replays ----
const frameData = () => page.evaluate(() => JSON.parse(document.getElementById('okr-data').textContent));
async function labelsShown() {
  return page.evaluate(() => {
    const out = [];
    document.querySelectorAll('.sclabel').forEach((e) => out.push([e.textContent.trim(), e.closest('[title]') ? e.closest('[title]').title : '']));
    document.querySelectorAll('#breakdown tr').forEach((tr) => {
      const td = tr.querySelector('td');
      if (td && tr.querySelector('td[data-row]')) out.push([td.textContent.trim(), td.title]);
    });
    return out;
  });
}
function checkLabels(what, shown) {
  const unknown = shown.filter(([l]) => !(l in labels)).map(([l]) => l);
  const bare = shown.filter(([l, t]) => l in labels && labels[l] !== '-' && !t).map(([l]) => l);
  check(what + ': ' + new Set(shown.map(([l]) => l)).size + ' labels, all documented ' + JSON.stringify(unknown) +
    ', each with its meaning a hover away ' + JSON.stringify(bare), shown.length > 0 && !unknown.length && !bare.length);
}

for (const [name, file] of Object.entries(cfg.replays)) {
  await open(file);
  const data = await frameData();
  const fr = data.frames, n = fr.length;
  const endAt = fr.findIndex((f) => f.k === 'end');
  // the event list: the past only, growing with the step; the future a switch away
  const visible = () => page.evaluate(() => [...document.querySelectorAll('#log li')].filter((li) => !li.hidden).length);
  const grows = [];
  for (const i of [0, 1, Math.floor(n / 2), endAt, n - 1]) {
    await page.evaluate((k) => window.okrReplay.go(k), i);
    grows.push([i, await visible()]);
  }
  const future = await page.evaluate(() => document.getElementById('future').checked);
  check(name + ': the events shown grow with the step (step, items: ' + JSON.stringify(grows) + '), the future off when it opens',
    grows.every(([i, v]) => v === i + 1) && !future);
  await page.evaluate(() => window.okrReplay.go(0));
  await page.check('#future');
  const all = await visible();
  await page.uncheck('#future');
  check(name + ': the future is one switch away (' + all + ' of ' + n + ' events), and away again (' + (await visible()) + ')',
    all === n && (await visible()) === 1);
  // the scores change at the step that changes them: a hand's end or the result, never the
  // move before. Every step of gin (its knocks); elsewhere each step where the page's data
  // changes a score and the step before it
  const changes = await page.evaluate((every) => {
    const fr = JSON.parse(document.getElementById('okr-data').textContent).frames, out = [];
    const shown = (i) => { window.okrReplay.go(i); return [...document.querySelectorAll('[data-score]')].map((e) => e.textContent).join(','); };
    let sc = null, at = [];
    fr.forEach((f, i) => { if (f.sc !== undefined && i > 0) at.push(i); });
    const steps = every ? fr.map((_, i) => i).slice(1) : at;
    for (const i of steps) {
      const a = shown(i - 1), b = shown(i);
      if (a !== b) out.push([i, fr[i].k]);
    }
    return out;
  }, name === 'gin');
  const wrong = changes.filter(([, k]) => k !== 'end' && k !== 'over');
  check(name + ': the seats\' scores change at ' + changes.length + ' steps, each a hand\'s end or the result ' + JSON.stringify(wrong.slice(0, 3)),
    changes.length > 0 && !wrong.length);
  // every move in words: who (with the seat's number) did what with which cards
  const words = await page.evaluate(() => [...document.querySelectorAll('#log li')].map((li) => li.textContent));
  const acts = fr.map((f, i) => [f, words[i]]).filter(([f]) => f.k === 'act');
  const notWords = acts.filter(([f, w]) => !new RegExp('^' + data.names[f.a].replace(/[.*+?^${}()|[\]\\]/g, '\\$&') +
    ' \\(seat ' + f.a + '\\) (draws|takes|melds|adds|puts|discards|knocks|passes|claims)').test(w));
  const melds = acts.filter(([, w]) => / melds /.test(w));
  const meldOk = melds.every(([, w]) => /melds (Joker|(10|[2-9JQKA])[\u2663\u2666\u2665\u2660])/.test(w) && / as meld \d+ \(a (set|run)\)/.test(w));
  check(name + ': ' + acts.length + ' moves in words with the seat\'s name and number (' + melds.length + ' melds name their cards and number) ' +
    JSON.stringify(notWords.slice(0, 2).map(([, w]) => w)), acts.length > 0 && !notWords.length && meldOk);
  // on a phone: nothing wider than the screen, at a hand's end and at the result
  const widths = [];
  for (const i of [Math.floor(endAt / 2), endAt, n - 1]) {
    await page.evaluate((k) => window.okrReplay.go(k), i);
    widths.push(await width());
    if (i === endAt && name === 'laws') {
      await page.evaluate(() => document.getElementById('breakdown').scrollIntoView());
      await page.screenshot({ path: path.join(cfg.shots, 'replay-phone.png') });
    }
  }
  const outR = await tablesInside();
  check(name + ': at 390 px the page is ' + JSON.stringify(widths) + ' px wide, its tables inside the screen ' + JSON.stringify(outR.slice(0, 2)),
    widths.every((w) => w <= W) && !outR.length);
  // the labels, at a hand's end and at the result, and the lines the rule set has
  await page.evaluate((k) => window.okrReplay.go(k), endAt);
  const atEnd = await labelsShown();
  await page.evaluate((k) => window.okrReplay.go(k), n - 1);
  const atLast = await labelsShown();
  checkLabels(name + ': the labels of a hand\'s end and of the result', atEnd.concat(atLast));
  const lines = atEnd.concat(atLast).map(([l]) => l);
  const want = {
    laws: ['going out', 'concealed bonus', "winner's bonus", 'settlement (laws payment)', 'final total'],
    gin: ['deadwood', 'final total'],
    german: ['final total', "winner's bonus"],
  }[name] || [];
  const not = {
    laws: ['deadwood'],
    gin: ['concealed bonuses', "winner's bonus", 'settlement (laws payment)', 'going out', 'melded'],
    german: ['going out', 'concealed bonus', 'concealed bonuses', 'settlement (laws payment)'],
  }[name] || [];
  check(name + ': the scoring shows ' + JSON.stringify(want) + ' and not ' + JSON.stringify(not),
    want.every((l) => lines.includes(l)) && not.every((l) => !lines.includes(l)));
  if (name === 'laws') {
    const explain = await page.evaluate(() => (document.querySelector('#breakdown .explain') || {}).textContent || '');
    check('laws: the result says what the winner\'s bonus and the settlement are', /winner's bonus/.test(explain) && /settlement/.test(explain) && /not part of the final total/.test(explain));
  }
}

// ---- a seat's page: the future is off, the list holds only the past ----
await open(cfg.seat);
const seatFuture = await page.evaluate(() => [document.getElementById('future').checked,
  [...document.querySelectorAll('#log li')].filter((li) => !li.hidden).length, window.okrReplay.step]);
check('a seat\'s page opens with the future off and ' + seatFuture[1] + ' event shown at step ' + seatFuture[2],
  !seatFuture[0] && seatFuture[1] === seatFuture[2] + 1);

check('no console error: ' + JSON.stringify(errors.slice(0, 5)), errors.length === 0);
check('no request but the pages: ' + JSON.stringify(foreign.slice(0, 5)), foreign.length === 0);
await ctx.close();
fs.rmSync(profile, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
