// bench_replay.mjs - how fast a replay page opens and steps in Debian's headless chromium
// (playwright-core from tests/view/node_modules; never a downloaded browser).
//   node bench/bench_replay.mjs ROUNDS PAGE [PAGE...]
// Each round opens every PAGE in turn (so pages measured together share the machine's load),
// times open-to-ready (body[data-ready]), then goes to every step in order with a layout
// forced after each (what a person stepping through sees drawn), in wall time and in the CPU
// time of chromium's processes (from /proc: what the page costs, whatever else runs).
// Prints one line per page and round, then the medians, and a JSON line.
import fs from 'fs';
import os from 'os';
import path from 'path';
import { createRequire } from 'module';
import { fileURLToPath } from 'url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '..', 'tests', 'view', 'package.json'));
const { chromium } = require('playwright-core');

const rounds = Number(process.argv[2]);
const pages = process.argv.slice(3);
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'okr-bench-chromium-'));
const ctx = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.OKR_CHROMIUM || '/usr/bin/chromium',
  headless: true,
  viewport: { width: 1400, height: 1000 },
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
await ctx.route('**/*', (r) => (r.request().url().startsWith('file://') ? r.continue() : r.abort()));
function cpuMs() {
  let ticks = 0;
  for (const p of fs.readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try {
      if (!fs.readFileSync('/proc/' + p + '/cmdline', 'utf8').includes(profile)) continue;
      const f = fs.readFileSync('/proc/' + p + '/stat', 'utf8').split(') ')[1].split(' ');
      ticks += Number(f[11]) + Number(f[12]);
    } catch (e) { /* gone */ }
  }
  return ticks * 10;
}
const runs = pages.map(() => []);
const page = await ctx.newPage();
for (let r = 0; r < rounds; r++) {
  for (let k = 0; k < pages.length; k++) {
    let c0 = cpuMs(), t0 = Date.now();
    await page.goto('file://' + path.resolve(pages[k]));
    await page.waitForSelector('body[data-ready="1"]', { timeout: 60000 });
    const open = Date.now() - t0, openCpu = cpuMs() - c0;
    c0 = cpuMs();
    const res = await page.evaluate(() => {
      const t = performance.now();
      for (let i = 0; i < window.okrReplay.steps; i++) { window.okrReplay.go(i); void document.body.offsetHeight; }
      return { ms: performance.now() - t, steps: window.okrReplay.steps };
    });
    const stepCpu = cpuMs() - c0;
    const x = { open, openCpu, step: Math.round(res.ms), stepCpu, steps: res.steps };
    runs[k].push(x);
    console.log(`round ${r + 1} ${path.basename(pages[k])}: ${x.steps} steps; open ${x.open} ms wall (${x.openCpu} ms CPU); ` +
      `every step ${x.step} ms wall (${x.stepCpu} ms CPU); load ${os.loadavg()[0].toFixed(1)}`);
  }
}
const med = (a) => { const s = [...a].sort((p, q) => p - q); return s[Math.floor(s.length / 2)]; };
const out = pages.map((p, k) => {
  const m = {};
  for (const key of ['open', 'openCpu', 'step', 'stepCpu']) m[key] = med(runs[k].map((x) => x[key]));
  console.log(`median ${path.basename(p)}: open ${m.open} ms wall (${m.openCpu} ms CPU); every step ${m.step} ms wall ` +
    `(${m.stepCpu} ms CPU)`);
  return { page: path.basename(p), steps: runs[k][0].steps, ...m };
});
console.log(JSON.stringify({ rounds, load: os.loadavg()[0], pages: out }));
await ctx.close();
fs.rmSync(profile, { recursive: true, force: true });
