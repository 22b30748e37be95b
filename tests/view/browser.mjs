// browser.mjs - the pages in a real browser: Debian's chromium, headless, driven by
// playwright-core (tests/view/package.json; never a downloaded browser).
//   node browser.mjs CONFIG.json
// CONFIG: {"replay": referee page, "record": its record, "seat": 1, "report": report page,
//          "results": results.json, "big": a 4-seat game's page, "shots": screenshot folder}
// Every page is opened from file:// with every request that is not the page itself blocked
// and counted; a console error, a page error or any other request fails the test. Prints
// ok/FAIL lines and the figures; exits 1 on any failure.
import fs from 'fs';
import os from 'os';
import path from 'path';
import { chromium } from 'playwright-core';

const cfg = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
let failed = 0, passed = 0;
const ok = (what) => { passed++; console.log('ok   ' + what); };
const bad = (what) => { failed++; console.log('FAIL ' + what); };
const check = (what, cond) => (cond ? ok(what) : bad(what));

const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'okr-chromium-'));
const ctx = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.OKR_CHROMIUM || '/usr/bin/chromium',
  headless: true,
  viewport: { width: 1400, height: 1000 },
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
const foreign = [], errors = [];
// only the pages this test opens, from the folders it wrote; everything else is blocked
const allowed = [cfg.replay, cfg.report, cfg.big].concat(cfg.marks ? [cfg.marks, cfg.publish] : []).map((p) => 'file://' + path.dirname(path.resolve(p)));
const mine = (url) => url.startsWith('file://') && allowed.some((d) => url.startsWith(d + '/')) && /\.html(#.*)?$/.test(url);
await ctx.route('**/*', (route) => {
  const url = route.request().url();
  if (mine(url)) return route.continue();
  foreign.push(url);
  return route.abort();
});
function watch(page) {
  page.on('request', (r) => { if (!mine(r.url())) foreign.push(r.url()); });
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') errors.push(m.type() + ': ' + m.text()); });
  page.on('pageerror', (e) => errors.push('page error: ' + e.message));
  return page;
}
async function open(page, file, hash = '') {
  const t0 = Date.now();
  await page.goto('file://' + path.resolve(file) + hash);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 20000 });
  return Date.now() - t0;
}
const step = (page) => page.evaluate(() => Number(document.body.getAttribute('data-step')));
const shot = (page, name, full = false) => page.screenshot({ path: path.join(cfg.shots, name), fullPage: full });
fs.mkdirSync(cfg.shots, { recursive: true });

const rec = fs.readFileSync(cfg.record, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const handEnds = rec.filter((x) => x.type === 'hand_end');
const result = rec.find((x) => x.type === 'result');

// ---- the referee's page: step through the whole game with the keyboard ----
const page = watch(await ctx.newPage());
await open(page, cfg.replay);
const steps = await page.evaluate(() => window.okrReplay.steps);
check('the replay opens at step 0 with ' + steps + ' steps', (await step(page)) === 0 && steps > 10);
const seen = [];
let final = null, scoresAtEnds = [], qsEnds = [];
for (let i = 1; i < steps; i++) {
  await page.keyboard.press('ArrowRight');
  const s = await page.evaluate(() => {
    const b = document.getElementById('breakdown');
    const title = b.hidden ? '' : b.querySelector('h2').textContent;
    const row = (r) => [...b.querySelectorAll('td[data-row="' + r + '"]')].map((td) => Number(td.textContent));
    const qsLabel = [...b.querySelectorAll('td')].some((td) => td.textContent.startsWith('Q\u2660'));
    return { step: Number(document.body.getAttribute('data-step')), title, total: row('total'), final: row('final'),
      scores: [...document.querySelectorAll('[data-score]')].map((e) => Number(e.textContent)),
      lines: ['melded', 'debit', 'qs', 'out'].map(row), score: row('score'), qsLabel };
  });
  if (s.step !== i) { bad('ArrowRight moved to step ' + s.step + ', not ' + i); break; }
  if (/^Hand \d+ scoring/.test(s.title)) {
    seen.push(s.total); scoresAtEnds.push(s.scores);
    qsEnds.push({ qs: s.lines[2], label: s.qsLabel, sum: s.score.map((_, k) => s.lines.reduce((a, l) => a + l[k], 0)), score: s.score });
  }
  if (s.final.length) final = s.final;
  if (i === 40) await shot(page, 'replay-referee.png');
}
check('stepping through every step: ' + seen.length + ' hand ends shown, the record has ' + handEnds.length,
  seen.length === handEnds.length);
check('each hand end shows the record\'s totals (scoring table and seat scores)',
  JSON.stringify(seen) === JSON.stringify(handEnds.map((h) => h.totals)) &&
  JSON.stringify(scoresAtEnds) === JSON.stringify(handEnds.map((h) => h.totals)));
// the Q of spades on its own line (RULES 7.1): at every hand end of this laws game a "Q♠" row,
// +50 for each in a seat's melds and -100 for each left in its hand as the cards on the table
// at that step say, and melded + left in hand + Q♠ + going out add up to the record's score
const qsWant = await page.evaluate(() => {
  const fr = JSON.parse(document.getElementById('okr-data').textContent).frames;
  const out = [];
  let hs = null, ml = null; // carried forward as the page does: absent, or only the changed items
  const carry = (v, prev) => (v === undefined ? prev : Array.isArray(v) ? v
    : Object.keys(v).reduce((a, k) => { a[Number(k)] = v[k]; return a; }, prev.slice()));
  fr.forEach((f) => {
    hs = carry(f.hs, hs);
    ml = carry(f.ml, ml);
    if (f.k !== 'end') return;
    out.push(hs.map((h, s) => 50 * ml.filter((m) => m[0] === s).reduce((a, m) => a + m[2].split(' ').filter((c) => c.split('=')[0] === 'QS').length, 0)
      - 100 * (h || '').split(' ').filter((c) => c === 'QS').length));
  });
  return out;
});
check('each hand end has a Q\u2660 line, as the cards on the table score it (' +
  qsEnds.filter((e) => e.qs.some((v) => v)).length + ' of ' + qsEnds.length + ' not 0)',
  qsEnds.length === handEnds.length && qsEnds.every((e, k) => e.label && JSON.stringify(e.qs) === JSON.stringify(qsWant[k])));
check('... and melded, left in hand, Q\u2660 and going out add up to the record\'s hand scores',
  qsEnds.every((e, k) => JSON.stringify(e.sum) === JSON.stringify(handEnds[k].scores) &&
    JSON.stringify(e.score) === JSON.stringify(handEnds[k].scores)));
check('the last step shows the record\'s final totals ' + JSON.stringify(result.final_total),
  JSON.stringify(final) === JSON.stringify(result.final_total));
await shot(page, 'replay-result.png');

// navigation: keys, the address, the scrub bar, autoplay
await page.keyboard.press('Home');
check('Home goes to step 0', (await step(page)) === 0);
await page.keyboard.press('End');
check('End goes to the last step', (await step(page)) === steps - 1);
await page.keyboard.press('Home');
await page.keyboard.press('PageDown');
const h2 = await step(page);
const frames = await page.evaluate(() => JSON.parse(document.getElementById('okr-data').textContent).frames.map((f) => f.h));
check('PageDown goes to the first step of hand 2', frames[h2] === 2 && frames[h2 - 1] === 1);
await page.keyboard.press('Shift+ArrowLeft');
check('Shift+Left goes back to the start of hand 1', (await step(page)) === 0);
await page.evaluate(() => window.okrReplay.go(57));
const hashed = await page.waitForFunction(() => location.hash === '#n=57', null, { timeout: 3000 }).then(() => true, () => false);
check('the address follows the step (#n=57)', hashed);
await open(page, cfg.replay, '#n=33');
check('a page opened at #n=33 shows step 33', (await step(page)) === 33);
await page.$eval('#range', (r) => { r.value = '120'; r.dispatchEvent(new Event('input')); });
check('the scrub bar moves to step 120', (await step(page)) === 120);
const marks = await page.$$eval('#marks .mk', (m) => m.length);
check('the scrub bar has ' + marks + ' marks (hand ends at least)', marks >= handEnds.length);
await page.keyboard.press('7'); // 32x
await page.keyboard.press(' ');
await page.waitForTimeout(600);
await page.keyboard.press(' ');
const after = await step(page);
check('autoplay at 32x moved on (' + (after - 120) + ' steps in 0.6 s)', after > 125);
await page.waitForTimeout(200);
check('... and Space stopped it', (await step(page)) === after);
check('the keys are listed on the page', (await page.textContent('.keys')).includes('Space'));
// go to the first hand end for a screenshot of the scoring
const firstEnd = await page.evaluate(() => JSON.parse(document.getElementById('okr-data').textContent).frames.findIndex((f) => f.k === 'end'));
await page.evaluate((i) => window.okrReplay.go(i), firstEnd);
await shot(page, 'replay-hand-end.png');

// ---- switch to a seat's view: the referee's page links every seat's page ----
await page.evaluate(() => window.okrReplay.go(40));
await Promise.all([page.waitForNavigation(), page.click('#views a:has-text("Seat ' + cfg.seat + ':")')]);
await page.waitForSelector('body[data-ready="1"]');
check('the seat link opens seat ' + cfg.seat + '\'s page at the same step',
  (await page.title()).includes('as seen by') && (await step(page)) === 40);
const view = await page.evaluate((k) => [...document.querySelectorAll('.seat')].map((s) => ({
  seat: Number(s.getAttribute('data-seat')),
  faces: s.querySelectorAll('.hand .card:not(.back)').length,
  backs: s.querySelectorAll('.hand .card.back').length,
})), cfg.seat);
check('in seat mode only seat ' + cfg.seat + '\'s hand is face up, the others are backs',
  view.every((v) => (v.seat === cfg.seat ? v.faces > 0 && v.backs === 0 : v.faces === 0 && v.backs > 0)));
check('the seat\'s page has no links to the other views (their names hold the game id)',
  (await page.$$('#views a[data-href]')).length === 0);
await shot(page, 'replay-seat.png');

// ---- the report, and a replay from it ----
const rp = watch(await ctx.newPage());
await open(rp, cfg.report);
const res = JSON.parse(fs.readFileSync(cfg.results, 'utf8'));
const rows = await rp.$$eval('#t-standings tbody tr', (r) => r.length);
check('the report shows ' + rows + ' standings rows, results.json has ' + res.standings.length, rows === res.standings.length);
check('the report has its forest plots', (await rp.$$('svg.forest')).length === 2);
await shot(rp, 'report.png', true);
// the duplicate sets: the first one shown, every hand of its rotations side by side, as games.jsonl has them
const dupGames = fs.readFileSync(path.join(path.dirname(cfg.results), 'games.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const dup = await rp.evaluate(() => {
  const h = document.getElementById('dupsets'), t = document.getElementById('t-dupset-0');
  if (!h || !t) return null;
  const a = h.getBoundingClientRect(), b = t.parentElement.getBoundingClientRect();
  return { set: Number(t.getAttribute('data-set')), rows: [...t.tBodies[0].rows].map((r) => [...r.cells].map((c) => c.textContent)),
    clip: { x: Math.max(0, a.left - 10), y: a.top + window.scrollY - 6, width: Math.max(a.right, b.left + t.offsetWidth) - a.left + 20, height: b.bottom - a.top + 12 } };
});
const dupSet = dup ? dupGames.filter((g) => g.set === dup.set).sort((x, y) => x.rotation - y.rotation) : [];
const dupWant = dupSet.length ? [...Array(Math.max(...dupSet.map((g) => g.hand_scores.length))).keys()].map((h) =>
  [String(h + 1)].concat(...[...Array(res.config.seats).keys()].map((s) => dupSet.map((g) =>
    (h < g.hand_scores.length ? (g.hand_scores[h][s] >= 0 ? '+' : '') + g.hand_scores[h][s] : '-'))))) : null;
check('the duplicate set shows every hand of its ' + dupSet.length + ' rotations as games.jsonl has them',
  dup !== null && dupSet.length === res.config.seats && JSON.stringify(dup.rows.slice(0, dupWant.length)) === JSON.stringify(dupWant));
// ... then its bonus row (laws: the winner's and concealed bonuses), and every column adds up
// to the final total
const dupSums = dup ? dup.rows[0].slice(1).map((_, c) => dup.rows.slice(0, -1).reduce((a, r) => a + (r[c + 1] === '-' ? 0 : Number(r[c + 1])), 0)) : [];
check('... its bonus row, and every column adds up to the final total (' + JSON.stringify(dup && dup.rows[dup.rows.length - 1]) + ')',
  dup !== null && dup.rows.length === dupWant.length + 2 && dup.rows[dupWant.length][0] === "winner's and concealed bonuses" &&
  JSON.stringify(dupSums.map(String)) === JSON.stringify(dup.rows[dup.rows.length - 1].slice(1)));
if (dup) await rp.screenshot({ path: path.join(cfg.shots, 'report-dupsets.png'), clip: dup.clip, fullPage: true });
await Promise.all([rp.waitForNavigation(), rp.click('#t-games a >> nth=0')]);
await rp.waitForSelector('body[data-ready="1"]');
check('a game of the report opens its replay', (await rp.title()).startsWith('okarena replay'));
await Promise.all([rp.waitForNavigation(), rp.click('#views a:has-text("report")')]);
check('... whose link goes back to the report', (await rp.title()).startsWith('okarena report'));

// ---- the marks (issue 25): an entrant that never played is marked in its row, as results.json says ----
if (cfg.marks) {
  const mp = watch(await ctx.newPage());
  await mp.goto('file://' + path.resolve(cfg.marks));
  const mres = JSON.parse(fs.readFileSync(cfg.marks_results, 'utf8'));
  const shownRows = await mp.$$eval('#t-standings tbody tr', (rs) => rs.map((r) => ({
    name: r.cells[1].textContent, score: r.cells[2].textContent, marks: r.cells[r.cells.length - 1].textContent,
    adj: r.cells[4].textContent })));
  // luck-adjusted scores (docs/luck.md): their two columns, headed and titled, after the score's interval
  if (mres.luck_adjusted) {
    const heads = await mp.$$eval('#t-standings thead th', (hs) => hs.map((h) => [h.textContent, h.title]));
    check('the standings head a luck-adjusted column with its meaning: ' + JSON.stringify(heads[4]),
      heads[4][0] === 'luck-adjusted (pts/game vs average)' && heads[4][1].length > 20 && heads[5][0] === 'luck-adjusted 95% CI');
    check('the luck-adjusted column shows results.json\'s: ' + JSON.stringify(shownRows.map((r) => r.adj)),
      shownRows.every((r, i) => Math.abs(parseFloat(r.adj) - mres.standings[i].luck_adjusted_score) < 0.051));
  }
  const want = mres.standings.map((s) => {
    const m = [];
    if (s.never_played) m.push('never played');
    if (s.disqualified) m.push('DQ (errors in ' + s.error_games + ' of ' + s.games + ')');
    if (s.forfeits) m.push(s.forfeits + ' forfeit' + (s.forfeits === 1 ? '' : 's'));
    return { name: s.name, never: s.never_played, marks: m.join(', ') || '-' };
  });
  const dead = want.find((w) => w.name === 'dead');
  check('results.json: dead never played and is disqualified', dead && dead.never && /^never played, DQ \(errors in 6 of 6\)/.test(dead.marks));
  check('the report marks every row as results.json says: ' + JSON.stringify(shownRows.map((r) => r.marks)),
    JSON.stringify(shownRows.map((r) => [r.name, r.marks])) === JSON.stringify(want.map((w) => [w.name, w.marks])) &&
    shownRows.every((r, i) => (r.score === 'never played') === want[i].never));
  const markBox = await mp.$('#t-standings');
  if (markBox) await markBox.screenshot({ path: path.join(cfg.shots, 'report-marks.png') });
  // the published folder: its size on the index, an entrant's games, one opened as its seat saw it
  await mp.goto('file://' + path.resolve(cfg.publish));
  const total = await mp.textContent('#total-size');
  check('the published index states its size: ' + total, /^\d+(\.\d)? [KM]B$/.test(total || ''));
  const folders = await mp.$$eval('#t-handouts tbody tr', (rs) => rs.length);
  check('... and lists a folder per entrant (' + folders + ')', folders === mres.standings.length);
  await mp.screenshot({ path: path.join(cfg.shots, 'publish-index.png') });
  await Promise.all([mp.waitForNavigation(), mp.click('#t-handouts a:has-text("dead/")')]);
  const games = await mp.$$eval('#t-games tbody tr', (rs) => rs.length);
  await mp.screenshot({ path: path.join(cfg.shots, 'publish-entrant.png') });
  check('dead\'s folder lists its ' + games + ' games', games === 6);
  await Promise.all([mp.waitForNavigation(), mp.click('#t-games a >> nth=0')]);
  await mp.waitForSelector('body[data-ready="1"]', { timeout: 20000 });
  const seatView = await mp.evaluate(() => { const d = JSON.parse(document.getElementById('okr-data').textContent); delete d.frames; return d; });
  check('... a game opens as its seat saw it (a seat page: no game id, no seed)',
    typeof seatView.seat === 'number' && seatView.seat >= 0 && !('seed' in seatView) && !('game' in seatView));
  await Promise.all([mp.waitForNavigation(), mp.click('a[href="index.html"]')]);
  check('... and links back to the entrant\'s games', (await mp.$$('#t-games')).length === 1);
  await mp.close();
}

// ---- gin (protocol 1.1): a knock's showdown, and a bot's note beside its decision ----
if (cfg.gin) {
  const gp = watch(await ctx.newPage());
  await open(gp, cfg.gin);
  const fr = await gp.evaluate(() => JSON.parse(document.getElementById('okr-data').textContent).frames);
  const knock = fr.findIndex((f) => f.k === 'end' && f.end.sd);
  await gp.evaluate((i) => window.okrReplay.go(i), knock);
  const sd = await gp.evaluate(() => ({
    melds: [...document.querySelectorAll('#breakdown [data-knock-meld]')].map((m) => m.querySelectorAll('.cards:not(.layoff) .card').length),
    dead: document.querySelectorAll('#breakdown [data-knock-deadwood] .card').length,
    off: document.querySelectorAll('#breakdown .layoff .card').length,
  }));
  const want = fr[knock].end.sd;
  check('a knock shows the knocker\'s ' + want.melds.length + ' melds, ' + sd.dead + ' deadwood cards and ' + sd.off + ' lay-offs as cards',
    knock > 0 && JSON.stringify(sd.melds) === JSON.stringify(want.melds.map((m) => m.split(' ').length)) &&
    sd.dead === (want.deadwood ? want.deadwood.split(' ').length : 0) && sd.off === want.layoffs.length);
  await shot(gp, 'replay-gin-knock.png');
  const noted = fr.findIndex((f) => f.why !== undefined);
  await gp.evaluate((i) => window.okrReplay.go(i), noted);
  const why = await gp.evaluate(() => { const q = document.querySelector('#decision .why q'); return q ? q.textContent : null; });
  check('a bot\'s note is shown beside its decision: "' + why + '"', noted > 0 && why === fr[noted].why);
  await shot(gp, 'replay-gin-note.png');
  await gp.close();
}

// ---- a whole 4-seat laws game: open, then step through every step ----
// Wall times depend on what else the machine runs; the CPU time of chromium's processes (all
// of this profile's, from /proc) is what the page needs.
function chromiumCpuMs() {
  let ticks = 0;
  for (const p of fs.readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try {
      if (!fs.readFileSync('/proc/' + p + '/cmdline', 'utf8').includes(profile)) continue;
      const f = fs.readFileSync('/proc/' + p + '/stat', 'utf8').split(') ')[1].split(' ');
      ticks += Number(f[11]) + Number(f[12]); // utime, stime
    } catch (e) { /* gone */ }
  }
  return ticks * 10; // USER_HZ is 100 on Linux
}
const big = watch(await ctx.newPage());
let cpu0 = chromiumCpuMs();
const openMs = await open(big, cfg.big);
const openCpu = chromiumCpuMs() - cpu0;
cpu0 = chromiumCpuMs();
const stepMs = await big.evaluate(() => {
  const t0 = performance.now();
  for (let i = 0; i < window.okrReplay.steps; i++) { window.okrReplay.go(i); void document.body.offsetHeight; }
  return performance.now() - t0;
});
const stepCpu = chromiumCpuMs() - cpu0;
const nsteps = await big.evaluate(() => window.okrReplay.steps);
console.log('figure: 4-seat laws game, ' + nsteps + ' steps, ' + fs.statSync(cfg.big).size + ' bytes: open to ready ' + openMs +
  ' ms wall (' + openCpu + ' ms chromium CPU); every step drawn, with layout, in ' + stepMs.toFixed(0) + ' ms wall (' +
  stepCpu + ' ms CPU); load average ' + os.loadavg()[0].toFixed(1));
check('the 4-seat page steps to its end', (await step(big)) === nsteps - 1);

check('no request left the pages (' + foreign.length + ')', foreign.length === 0);
foreign.slice(0, 5).forEach((u) => console.log('  request: ' + u));
check('no console or page error (' + errors.length + ')', errors.length === 0);
errors.slice(0, 5).forEach((e) => console.log('  ' + e));
await ctx.close();
fs.rmSync(profile, { recursive: true, force: true });
console.log(passed + ' passed, ' + failed + ' failed; screenshots in ' + cfg.shots);
process.exit(failed ? 1 : 0);
