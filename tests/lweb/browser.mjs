// browser.mjs - the league's web face in Debian's headless chromium (playwright-core from
// tests/view/node_modules; never a downloaded browser).
//   node browser.mjs CONFIG.json
// CONFIG: {"host": the host's sign-in link, "league": the league's folder, "src": the source
//          tree, "build": the build folder, "shots": where the screenshots go}
// The host signs in and makes two authors on its page; each author signs in in a browser of
// their own and uploads a bot through the submission form (alice the Python starter bot, bob
// the C greedy bot), sees it pass its check and reach the leaderboard, and opens a game of
// theirs (the seat page); a refused upload shows its reason; a forged Origin, a wrong secret
// and no cookie are refused. Every response alice's browser receives is scanned for the
// league's seed, a seeded game id and bob's log lines. Screenshots of the leaderboard, an
// entrant page and the submission page at 1366 and 390 px wide. Any request elsewhere, console
// error or page error fails. Prints ok/FAIL lines; exits 1 on any failure.
import fs from 'fs';
import os from 'os';
import path from 'path';
import zlib from 'zlib';
import { createRequire } from 'module';
import { fileURLToPath } from 'url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const { chromium } = require(path.join(here, '../view/node_modules/playwright-core'));
const cfg = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
let failed = 0;
const check = (what, cond, detail) => {
  if (!cond) failed++;
  console.log((cond ? 'ok   ' : 'FAIL ') + what + (cond || !detail ? '' : ': ' + detail));
};
const origin = new URL(cfg.host).origin;
const browser = await chromium.launch({
  executablePath: process.env.OKR_CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const foreign = [], errors = [];
async function person(name) {
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const bodies = [];
  await ctx.route('**/*', (route) => {
    const u = route.request().url();
    if (u.startsWith(origin + '/') || u === 'about:blank') return route.continue();
    foreign.push(u);
    return route.abort();
  });
  const page = await ctx.newPage();
  page.setDefaultTimeout(15000);
  // a refusal we ask for (400, 403) is logged by chromium as a failed load: the statuses are
  // checked where they are asked for
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource: the server responded with a status of 4')) errors.push(name + ': ' + m.text());
  });
  page.on('pageerror', (e) => errors.push(name + ': page error: ' + e.message));
  page.on('response', async (r) => {
    try { bodies.push([r.url(), await r.text()]); } catch (e) { /* a redirect has none */ }
  });
  return { ctx, page, bodies };
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const outcome = async (page) => (await page.locator('#outcome').textContent().catch(() => '')) || '';

// ---- the host makes two authors ----
const host = await person('host');
let resp = await host.page.goto(cfg.host);
check('the host signs in', resp.status() === 200);
check('every page has the replay pages\' CSP',
  (resp.headers()['content-security-policy'] || '').includes("default-src 'none'"));
await host.page.goto(origin + '/host');
const links = {};
for (const a of ['alice', 'bob']) {
  await host.page.locator('form:has(input[value="author"]) input[name="name"]').fill(a);
  await host.page.locator('form:has(input[value="author"]) button').click();
  await host.page.waitForLoadState();
  const t = await outcome(host.page);
  const m = t.match(/(http:\/\/\S+\/signin\?a=\w+&k=[0-9a-f]{32})/);
  check('the host makes author ' + a + ' on its page', m !== null, t);
  links[a] = m ? m[1] : '';
}

// ---- each author signs in and uploads ----
const bots = {
  alice: { name: 'alpy', runtime: 'python3', file: path.join(cfg.src, 'bots/random/random_bot.py') },
  bob: { name: 'bobc', runtime: 'exec', file: path.join(cfg.build, 'bots/greedy_bot') },
};
const people = {};
for (const a of ['alice', 'bob']) {
  const p = await person(a);
  people[a] = p;
  resp = await p.page.goto(links[a]);
  check(a + ' signs in with the link', resp.status() === 200);
  await p.page.click('text=Continue');
  await p.page.waitForSelector('input[name="name"]');
  if (a === 'alice') {
    await p.page.screenshot({ path: path.join(cfg.shots, 'league-submit-1366.png') });
    await p.page.setViewportSize({ width: 390, height: 844 });
    await p.page.screenshot({ path: path.join(cfg.shots, 'league-submit-390.png'), fullPage: true });
    await p.page.setViewportSize({ width: 1366, height: 900 });
    // a refused upload: an archive reaching out with '..'
    const tar = Buffer.alloc(1024);
    const hdr = Buffer.alloc(512);
    hdr.write('../outside.py', 0);
    hdr.write('0000644\0', 100); hdr.write('0000000\0', 108); hdr.write('0000000\0', 116);
    hdr.write('00000000004\0', 124); hdr.write('00000000000\0', 136); hdr.write('        ', 148);
    hdr.write('0', 156); hdr.write('ustar\0', 257); hdr.write('00', 263);
    let sum = 0; for (const b of hdr) sum += b;
    hdr.write(sum.toString(8).padStart(6, '0') + '\0 ', 148);
    const data = Buffer.alloc(512); data.write('x=1\n');
    const archive = zlib.gzipSync(Buffer.concat([hdr, data, tar]));
    await p.page.fill('input[name="name"]', 'evil');
    await p.page.selectOption('select[name="runtime"]', 'python3');
    await p.page.fill('input[name="entry"]', 'outside.py');
    await p.page.setInputFiles('input[name="file"]', { name: 'evil.tar.gz', mimeType: 'application/gzip', buffer: archive });
    await p.page.click('button:has-text("Upload")');
    await p.page.waitForLoadState();
    const why = await outcome(p.page);
    check("a refused upload shows its reason on the page", /archive.*\.\.&quot; in the path/.test(why) || /archive.*"\.\." in the path/.test(why), why);
  }
  const b = bots[a];
  await p.page.fill('input[name="name"]', b.name);
  await p.page.selectOption('select[name="runtime"]', b.runtime);
  await p.page.setInputFiles('input[name="file"]', b.file);
  await p.page.click('button:has-text("Upload")');
  await p.page.waitForLoadState();
  const t = await outcome(p.page);
  check(a + ' uploads ' + b.name, t.startsWith('Taken'), t);
}

// ---- the check passes, the leaderboard shows them ----
const deadline = Date.now() + (process.env.OKR_SANITIZE === '1' ? 120000 : 45000);
let board = '';
while (Date.now() < deadline) {
  await host.page.goto(origin + '/');
  board = await host.page.content();
  if (/alpy<\/a><\/td><td>alice<\/td><td class="wide">v1<\/td><td class="n">-?\d/.test(board) &&
      /bobc<\/a><\/td><td>bob<\/td><td class="wide">v1<\/td><td class="n">-?\d/.test(board)) break;
  await sleep(1000);
}
check('both bots pass their check and are rated on the leaderboard',
  /alpy<\/a><\/td><td>alice/.test(board) && /bobc<\/a><\/td><td>bob/.test(board) &&
  !/alpy<\/a>.{0,200}not rated yet/.test(board));
await host.page.screenshot({ path: path.join(cfg.shots, 'league-board-1366.png') });
await host.page.setViewportSize({ width: 390, height: 844 });
await host.page.screenshot({ path: path.join(cfg.shots, 'league-board-390.png'), fullPage: true });

for (const a of ['alice', 'bob']) {
  const p = people[a];
  const name = bots[a].name;
  await p.page.goto(origin + '/entrant?name=' + name);
  const text = await p.page.content();
  check(a + ' sees ' + name + ' checked and playing', text.includes('checked, playing'));
  const game = p.page.locator('a[href^="/game?g="]').first();
  if (await game.count()) {
    if (a === 'alice') {
      // a few rounds more, for the chart
      await sleep(3000);
      await p.page.reload();
      await p.page.screenshot({ path: path.join(cfg.shots, 'league-entrant-1366.png') });
      await p.page.setViewportSize({ width: 390, height: 844 });
      await p.page.screenshot({ path: path.join(cfg.shots, 'league-entrant-390.png') });
      await p.page.setViewportSize({ width: 1366, height: 900 });
    }
    await p.page.locator('a[href^="/game?g="]').first().click();
    await p.page.waitForSelector('body[data-ready="1"]', { timeout: 20000 });
    const seat = await p.page.evaluate(() => JSON.parse(document.getElementById('okr-data').textContent).seat);
    check(a + ' opens a game of theirs as their seat saw it (seat ' + seat + ')', Number.isInteger(seat) && seat >= 0);
  } else check(a + ' has a game to open', false);
}

// ---- test games: alice asks on her bot's page, past the limit the page says so ----
{
  const p = people.alice;
  await p.page.goto(origin + '/entrant?name=alpy');
  await p.page.selectOption('select[name="opponent"]', 'bobc');
  await p.page.click('button:has-text("Ask for test games")');
  await p.page.waitForLoadState();
  let t = await outcome(p.page);
  check('alice asks for test games of alpy against bobc on its page', t.startsWith('Asked'), t);
  await p.page.goto(origin + '/entrant?name=alpy');
  await p.page.selectOption('select[name="opponent"]', 'greedy');
  await p.page.click('button:has-text("Ask for test games")');
  await p.page.waitForLoadState();
  t = await outcome(p.page);
  check('a second within the hour is refused, and the page says the limit',
    /at most 1 test set an hour per author/.test(t), t);
  const until = Date.now() + (process.env.OKR_SANITIZE === '1' ? 180000 : 60000);
  let href = null;
  while (Date.now() < until && !href) {
    await p.page.goto(origin + '/entrant?name=alpy');
    href = await p.page.locator('a.testgame').first().getAttribute('href').catch(() => null);
    if (!href) await sleep(1000);
  }
  check('the test games appear on alpy\'s page', href !== null);
  if (href) {
    await p.page.locator('#tests').scrollIntoViewIfNeeded();
    await p.page.evaluate(() => document.getElementById('tests').scrollIntoView());
    await p.page.screenshot({ path: path.join(cfg.shots, 'league-tests-1366.png') });
    await p.page.locator('a.testgame').first().click();
    await p.page.waitForSelector('body[data-ready="1"]', { timeout: 20000 });
    const d = await p.page.evaluate(() => JSON.parse(document.getElementById('okr-data').textContent));
    check('alice opens a test game as alpy\'s seat saw it (seat ' + d.seat + ')',
      Number.isInteger(d.seat) && d.names && /^alpy/.test(d.names[d.seat]), JSON.stringify(d.names));
    const rb = await people.bob.page.goto(origin + href);
    check('bob cannot open it (404)', rb.status() === 404);
  }
  const jsonl = fs.readFileSync(path.join(cfg.league, 'games.jsonl'), 'utf8');
  check('the rated games (games.jsonl) hold no test game', jsonl.length > 0 && !/-t\d+-r\d+/.test(jsonl));
}

// ---- refusals ----
let r = await people.alice.ctx.request.post(origin + '/host', { headers: { Origin: 'http://evil.example' }, form: { action: 'author', name: 'eve' } });
check('a forged Origin is refused (403)', r.status() === 403);
r = await people.alice.ctx.request.post(origin + '/submit', { headers: { Origin: 'http://evil.example' }, multipart: { name: 'x', runtime: 'exec', file: { name: 'x', mimeType: 'text/plain', buffer: Buffer.from('x') } } });
check('a forged Origin on an upload is refused (403)', r.status() === 403);
const stranger = await person('stranger');
r = await stranger.page.goto(origin + '/signin?a=alice&k=' + '0'.repeat(32));
check('a wrong secret does not sign in (403)', r.status() === 403);
r = await stranger.page.goto(origin + '/submit');
check('no cookie: no submission page (403)', r.status() === 403);
r = await stranger.page.goto(origin + '/host');
check('no cookie: no host page (403)', r.status() === 403);

// ---- nothing of bob's, no seed, in what alice's browser received ----
const logs = path.join(cfg.league, 'logs');
const bobLines = new Set();
for (const f of fs.readdirSync(logs).filter((f) => f.endsWith('-bobc.log'))) {
  for (const l of fs.readFileSync(path.join(logs, f), 'utf8').split('\n')) {
    if (l.trim() && !l.startsWith('[arena')) bobLines.add(l.trim());
  }
}
const seed = (fs.readFileSync(path.join(cfg.league, 'league.ini'), 'utf8').match(/^seed\s*=\s*(\d+)/m) || [])[1];
const leaks = [];
for (const [u, body] of people.alice.bodies) {
  if (seed && body.includes(seed)) leaks.push(u + ': the league seed');
  if (/\bL\d+-[sct]\d+-r\d+/.test(body)) leaks.push(u + ': a seeded game id');
  for (const l of bobLines) if (body.includes(l)) leaks.push(u + ": bob's log line " + l);
}
check('no response to alice (' + people.alice.bodies.length + ') holds the seed, a seeded game id or bob\'s log lines (' + bobLines.size + ')',
  leaks.length === 0 && people.alice.bodies.length > 5, leaks.slice(0, 3).join('; '));
// ---- the host adds an entrant from a command, then freezes the league, on its page ----
await host.page.setViewportSize({ width: 1366, height: 900 });
await host.page.goto(origin + '/host');
await host.page.locator('form:has(input[value="add"]) input[name="name"]').fill('hostbot');
await host.page.locator('form:has(input[value="add"]) input[name="command"]').fill('@greedy');
await host.page.locator('form:has(input[value="add"]) button').click();
await host.page.waitForLoadState();
let said = await outcome(host.page);
check('the host adds an entrant from a command on its page', /hostbot waits for its check/.test(said), said);
await host.page.locator('form:has(input[value="freeze"]) button').click();
await host.page.waitForLoadState();
said = await outcome(host.page);
check('the host freezes the league on its page', /the league is frozen/.test(said) &&
  await host.page.locator('form:has(input[value="freeze"]) button').isDisabled(), said);

check('no request left the server', foreign.length === 0, foreign.slice(0, 3).join(' '));
check('no console or page error', errors.length === 0, errors.slice(0, 3).join(' | '));
await browser.close();
console.log(failed ? failed + ' failed' : 'browser: all checks passed');
process.exit(failed ? 1 : 0);
