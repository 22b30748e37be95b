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
await page.goBack();
await page.waitForSelector('#report:not([hidden])', { timeout: 20000 });
await Promise.all([page.waitForURL('**/report', { timeout: 20000 }), page.click('#report')]);
await page.waitForSelector('#t-standings', { timeout: 20000 });
check('the report opens from the page', (await page.title()).length > 0);

check('no console error: ' + JSON.stringify(errors.slice(0, 5)), errors.length === 0);
check('no request to another origin: ' + JSON.stringify(foreign.slice(0, 5)), foreign.length === 0);
await ctx.close();
fs.rmSync(profile, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
