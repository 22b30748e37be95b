// chromium.mjs - what the play tests' pages share: Debian's chromium, headless, in a throwaway
// profile (OKR_CHROMIUM names another binary), and the ok/FAIL lines they print.
import fs from 'fs';
import os from 'os';
import path from 'path';
import { createRequire } from 'module';
const { chromium } = createRequire(import.meta.url)('../view/node_modules/playwright-core');

// launch(extra): {ctx, page, close}; extra adds to the launch options (a viewport, more args)
export async function launch(extra = {}) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'okr-chromium-'));
  const args = ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
    ...(extra.args || [])];
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.OKR_CHROMIUM || '/usr/bin/chromium', headless: true, ...extra, args,
  });
  const page = ctx.pages()[0] || await ctx.newPage();
  const close = async () => { await ctx.close(); fs.rmSync(profile, { recursive: true, force: true }); };
  return { ctx, page, close };
}

// checks(): {check(what, cond), failed()}: prints "ok   what" or "FAIL what"
export function checks() {
  let failed = 0;
  return {
    check: (what, cond) => { if (!cond) failed++; console.log((cond ? 'ok   ' : 'FAIL ') + what); },
    failed: () => failed,
  };
}
