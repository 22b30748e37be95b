// browser.mjs - the spectator page follows a running tournament in Debian's headless chromium
// (playwright-core from tests/view/node_modules; never a downloaded browser).
//   node browser.mjs CONFIG.json
// CONFIG: {"ready": a file to write once the browser runs, "urlfile": where the address `--serve`
//          printed will be written, "out": the tournament's folder, "shots": folder}
// Samples the page while the tournament runs: the standings must change as sets finish, a
// table must show moves as they are played, the watched table's replay frame must draw, the
// final standings must equal results.json. Any console error, page error or request to
// another origin fails. Prints ok/FAIL lines; exits 1 on any failure.
import fs from 'fs';
import os from 'os';
import path from 'path';
import { createRequire } from 'module';
import { fileURLToPath } from 'url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const { chromium } = require(path.join(here, '../view/node_modules/playwright-core'));
const cfg = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
let failed = 0;
const check = (what, cond) => { if (!cond) failed++; console.log((cond ? 'ok   ' : 'FAIL ') + what); };

const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'okr-chromium-'));
const ctx = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.OKR_CHROMIUM || '/usr/bin/chromium',
  headless: true,
  viewport: { width: 1300, height: 1000 },
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
// the browser is up: now the tournament may start (browser.sh waits for this file), so that
// a slow browser start on a busy machine does not miss the run
fs.writeFileSync(cfg.ready, 'ready\n');
let url = '';
for (let i = 0; i < 200 && !url; i++) {
  if (fs.existsSync(cfg.urlfile)) url = fs.readFileSync(cfg.urlfile, 'utf8').trim();
  if (!url) await new Promise((r) => setTimeout(r, 50));
}
const origin = new URL(url).origin;
const foreign = [], errors = [];
await ctx.route('**/*', (route) => {
  const url = route.request().url();
  if (url.startsWith(origin + '/') || url === 'about:blank') return route.continue();
  foreign.push(url);
  return route.abort();
});
const page = await ctx.newPage();
// every answer of the server: none may be a 404 (a favicon the page did not name, say); and
// the times the page asked for its state (after the server is stopped it must stop asking)
const notFound = [], stateAsks = [];
page.on('response', (r) => { if (r.status() === 404) notFound.push(r.url()); });
page.on('request', (r) => { if (/\/state\?/.test(r.url())) stateAsks.push(Date.now()); });
page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') errors.push(m.type() + ': ' + m.text()); });
page.on('pageerror', (e) => errors.push('page error: ' + e.message));
fs.mkdirSync(cfg.shots, { recursive: true });

await page.goto(url);
await page.waitForSelector('body[data-ready="1"]', { timeout: 20000 });
check('the page opens with the token', true);

// sample until the run is over
const samples = [];
let watched = null, frameDrawn = false, shotTaken = false;
const t0 = Date.now();
while (Date.now() - t0 < 90000) {
  const s = await page.evaluate(() => ({
    state: document.body.getAttribute('data-state'),
    standings: [...document.querySelectorAll('#t-standings tbody tr')].map((tr) =>
      [...tr.children].map((td) => td.textContent).join('|')).join('/'),
    games: [...document.querySelectorAll('#t-standings tbody tr')].reduce((a, tr) => a + Number(tr.children[4].textContent), 0),
    scale: [document.getElementById('th-score').textContent, document.getElementById('th-score').title,
      document.body.getAttribute('data-scale')],
    words: [...document.querySelectorAll('#t-tables li.move')].map((li) => li.textContent),
    tables: [...document.querySelectorAll('#t-tables .table')].map((t) => ({
      id: t.getAttribute('data-game'), actions: Number(t.getAttribute('data-actions')),
      moves: t.querySelectorAll('li.move').length })),
  }));
  samples.push(s);
  const live = s.tables.find((t) => t.moves > 0);
  if (live && !frameDrawn) {
    // games are short: the table may end before the click or the frame's load, then the
    // next one is tried (clicked through the DOM: the box may go away under the mouse)
    const clicked = await page.evaluate((id) => {
      const a = document.querySelector('#t-tables .table[data-game="' + id + '"] a');
      if (a) a.click();
      return !!a;
    }, live.id);
    if (clicked) {
      try {
        await page.frameLocator('#watch-frame').locator('body[data-ready="1"]').waitFor({ timeout: 10000 });
        const fr = page.frames().find((f) => f.url().includes('/table?'));
        if (fr && await fr.evaluate(() => !!window.okrReplay && window.okrReplay.steps > 1)) {
          frameDrawn = true;
          watched = live.id;
        }
      } catch (e) { /* the next table */ }
    }
  }
  if (frameDrawn && !shotTaken && s.tables.length) {
    await page.screenshot({ path: path.join(cfg.shots, 'live-tournament.png'), fullPage: true });
    shotTaken = true;
  }
  if (s.state === 'finished') break;
  await page.waitForTimeout(100);
}
const last = samples[samples.length - 1];
// the score column names its scale, and says when it changes (issue 22): points per game so
// far while the run goes, the rating at the end
const running = samples.filter((s) => s.state !== 'finished' && s.games > 0);
check('while the run goes the score column is "points per game so far" with its meaning a hover away (' + running.length + ' samples)',
  running.length > 0 && running.every((s) => s.scale[0] === 'points per game so far' && s.scale[1].length > 20 && s.scale[2] === 'sofar'));
check('at the end it is "score (pts/game vs average)", a rating: ' + JSON.stringify(last.scale),
  last.scale[0] === 'score (pts/game vs average)' && last.scale[2] === 'rating' && /rating/.test(last.scale[1]));
check('... and the line above the table says the column changed scale',
  /another scale/.test(await page.textContent('#st-scale')));
// every move in words, with who played it
const words = [].concat(...samples.map((s) => s.words));
const notWords = words.filter((w) => !/^\S+ \(seat \d\) (draws|takes|melds|adds|puts|discards|knocks|passes|claims)/.test(w));
check('the tables\' ' + words.length + ' moves are in words with the seat\'s name and number ' + JSON.stringify(notWords.slice(0, 2)),
  words.length > 0 && !notWords.length && words.some((w) => /[\u2663\u2666\u2665\u2660]/.test(w)));
// the labels over scores are docs/report.md's, with their meaning a hover away
const doc = fs.readFileSync(cfg.doc, 'utf8');
const labels = {};
((/<!-- labels -->\n([\s\S]*?)<!-- \/labels -->/.exec(doc) || [])[1] || '').split('\n').forEach((line) => {
  const c = line.trim().replace(/^\||\|$/g, '').split('|').map((x) => x.trim());
  if (c.length >= 4 && c[0].startsWith('`')) labels[c[0].replace(/`/g, '')] = c[2];
});
const shownLabels = await page.evaluate(() => [...document.querySelectorAll('#t-standings th, #t-recent th')].map((th) => [th.textContent.trim(), th.title]));
const unknown = shownLabels.filter(([l, t]) => !(l in labels) || (labels[l] !== '-' && !t));
check('the live page\'s ' + shownLabels.length + ' labels are documented, a score\'s with its meaning ' + JSON.stringify(unknown),
  shownLabels.length >= 8 && !unknown.length);
// on a phone: nothing wider than the screen
await page.setViewportSize({ width: 390, height: 844 });
const phone = await page.evaluate(() => document.documentElement.scrollWidth);
check('on a phone (390 px) the page is ' + phone + ' px wide', phone <= 390);
await page.screenshot({ path: path.join(cfg.shots, 'live-phone.png') });
await page.setViewportSize({ width: 1300, height: 1000 });
check('the page reached the end of the tournament (' + samples.length + ' samples)', last.state === 'finished');
const distinct = new Set(samples.map((s) => s.standings)).size;
check('the standings changed as sets finished (' + distinct + ' different tables)', distinct >= 3);
const counts = samples.map((s) => s.games);
check('the games counted only grew', counts.every((c, i) => i === 0 || c >= counts[i - 1]));
check('a table being played showed its moves', samples.some((s) => s.tables.some((t) => t.moves > 0)));
// the same table seen twice with more moves: moves appear as they are played
let grew = false;
for (let i = 1; i < samples.length && !grew; i++)
  for (const t of samples[i].tables) {
    const before = samples[i - 1].tables.find((x) => x.id === t.id);
    if (before && t.actions > before.actions && before.actions > 0) grew = true;
  }
check('a table\'s moves grew while it was watched', grew);
check('the watched table (' + watched + ') was drawn by the replay viewer in the frame', frameDrawn);

// the final standings are the results'
const results = JSON.parse(fs.readFileSync(path.join(cfg.out, 'results.json'), 'utf8'));
const shown = await page.evaluate(() => [...document.querySelectorAll('#t-standings tbody tr')].map((tr) =>
  ({ name: tr.getAttribute('data-name'), score: Number(tr.getAttribute('data-score')), games: Number(tr.children[4].textContent) })));
const want = results.standings.map((r) => ({ name: r.name, score: r.score, games: r.games }));
check('the final standings equal results.json: ' + JSON.stringify(shown), JSON.stringify(shown) === JSON.stringify(want));
check('the page says the standings are final', /final/.test(await page.textContent('#st-kind')));
// the marks (issue 25), as the report writes them from results.json
const marks = await page.evaluate(() => [...document.querySelectorAll('#t-standings tbody tr')].map((tr) =>
  [tr.children[1].textContent, tr.children[2].textContent, tr.children[7].textContent]));
const wantMarks = results.standings.map((r) => {
  const m = [];
  if (r.never_played) m.push('never played');
  if (r.disqualified) m.push('DQ (errors in ' + r.error_games + ' of ' + r.games + ')');
  if (r.forfeits) m.push(r.forfeits + ' forfeit' + (r.forfeits === 1 ? '' : 's'));
  return [r.name, r.never_played, m.join(', ') || '-'];
});
check('the final standings carry the marks of results.json: ' + JSON.stringify(marks),
  JSON.stringify(marks.map((x) => [x[0], x[1] === 'never played', x[2]])) === JSON.stringify(wantMarks) &&
  wantMarks.some((x) => x[1] && /DQ/.test(x[2])));
await page.screenshot({ path: path.join(cfg.shots, 'live-final.png'), fullPage: true });

// a finished game's replay and the report open from the page
const href = await page.getAttribute('#t-recent tbody a', 'href');
await Promise.all([page.waitForURL(/\/replay\?game=/, { timeout: 20000 }), page.click('#t-recent tbody a')]);
await page.waitForSelector('body[data-ready="1"]', { timeout: 20000 });
check('a finished game\'s replay opens from the page (' + href + ')', await page.evaluate(() => !!window.okrReplay && window.okrReplay.steps > 2));
// a page that names no icon makes a browser ask the server for /favicon.ico, a 404 (headless
// chromium does not ask: so each page must name its own)
const icon = () => page.evaluate(() => !!document.querySelector('link[rel="icon"][href^="data:"]'));
const icons = [await icon()];
await page.goBack();
await page.waitForSelector('#report:not([hidden])', { timeout: 20000 });
await Promise.all([page.waitForURL('**/report', { timeout: 20000 }), page.click('#report')]);
await page.waitForSelector('#t-standings', { timeout: 20000 });
check('the report opens from the page', (await page.title()).length > 0);
icons.push(await icon());
await page.goBack();
await page.waitForSelector('body[data-ready="1"]', { timeout: 20000 });
icons.push(await icon());
check('the live page, a replay and the report each name their icon (no /favicon.ico asked): ' + JSON.stringify(icons), icons.every(Boolean));

// the server stops (browser.sh stops it when asked): the page says so and stops asking
await page.goto(url);
await page.waitForSelector('body[data-ready="1"]', { timeout: 20000 });
const errorsBefore = errors.length;
fs.writeFileSync(cfg.stop, 'stop\n');
let gone = true;
try { await page.waitForSelector('body[data-server="gone"]', { timeout: 20000 }); } catch (e) { gone = false; }
const badge = await page.textContent('#badge');
const asked = stateAsks.length;
await page.waitForTimeout(4000);
check('after the server stopped the page says so ("' + badge + '") and asks no more (' + (stateAsks.length - asked) + ' asks in 4 s)',
  gone && /stopped/.test(badge) && stateAsks.length === asked);
// a stopped server's requests fail: the browser's own lines about those are not the page's
const ownErrors = errors.slice(0, errorsBefore).concat(errors.slice(errorsBefore)
  .filter((e) => !/ERR_CONNECTION_REFUSED|ERR_EMPTY_RESPONSE|503|Failed to load resource/.test(e)));
check('no 404 (a favicon): ' + JSON.stringify(notFound.slice(0, 3)), notFound.length === 0);
errors.length = 0;
errors.push(...ownErrors);
check('no console error: ' + JSON.stringify(errors.slice(0, 5)), errors.length === 0);
check('no request to another origin: ' + JSON.stringify(foreign.slice(0, 5)), foreign.length === 0);
await ctx.close();
fs.rmSync(profile, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
