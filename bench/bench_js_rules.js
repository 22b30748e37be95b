#!/usr/bin/env node
'use strict';
// bench_js_rules.js - the speed of okbot/rules (the engine's helpers in WebAssembly) against
// the same calls through the Python module okr (native C), in one run:
//   OKR_BUILD_DIR=build node bench/bench_js_rules.js [--hands N]
// Random gin hands (10 and 11 cards) and 13-card laws hands, the same ones for both; prints
// microseconds per call. The Python side is skipped when build/python/okr is missing.
const { spawnSync } = require('child_process');
const path = require('path');
const rules = require('../sdk/js/rules');

const argv = process.argv.slice(2);
const N = Number(argv[argv.indexOf('--hands') + 1]) || 20000;
const BUILD = process.env.OKR_BUILD_DIR || path.resolve(__dirname, '..', 'build');

let seed = 7;
const rnd = (n) => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return (seed >>> 8) % n; };
function deal(pack, k) {
  const p = pack.slice();
  for (let i = p.length - 1; i > 0; i--) { const j = rnd(i + 1); [p[i], p[j]] = [p[j], p[i]]; }
  return p.slice(0, k);
}
const gin = Array.from({ length: N }, (_, i) => deal([...Array(52).keys()], 10 + (i % 2)));
const lawsPack = [...Array(52).keys(), ...Array(52).keys(), 52];
const laws = Array.from({ length: N }, () => deal(lawsPack, 13));

function time(label, fn) {
  const t0 = process.hrtime.bigint();
  let sink = 0;
  for (let i = 0; i < N; i++) sink += fn(i);
  const us = Number(process.hrtime.bigint() - t0) / 1000 / N;
  console.log(`${label.padEnd(34)} ${us.toFixed(2).padStart(8)} us/call  (${sink % 10})`);
}

console.log(`okbot/rules (${rules.where()}), ${N} hands each`);
time('js   ginBest (10-11 cards)', (i) => rules.ginBest(gin[i]).deadwood);
time('js   ginBestDiscard (11 cards)', (i) => (gin[i].length === 11 ? rules.ginBestDiscard(gin[i]).deadwood : 0));
time('js   findMelds (laws, 13 cards)', (i) => rules.findMelds(laws[i], 'laws').length);
time('js   cardValue', (i) => rules.cardValue(gin[i][0]));

const py = `
import json, sys, time, okr
d = json.load(sys.stdin); gin, laws = d["gin"], d["laws"]; n = len(gin)
g, l = okr.rules("gin"), okr.rules("laws")
def t(label, f):
    t0 = time.perf_counter(); s = 0
    for i in range(n): s += f(i)
    print("%-34s %8.2f us/call  (%d)" % (label, (time.perf_counter() - t0) * 1e6 / n, s % 10))
t("py   gin_best (10-11 cards)", lambda i: okr.gin_best(gin[i], rules=g)[0])
t("py   gin_best_discard (11 cards)", lambda i: okr.gin_best_discard(gin[i], rules=g)[1] if len(gin[i]) == 11 else 0)
t("py   find_melds (laws, 13 cards)", lambda i: len(okr.find_melds(laws[i], rules=l)))
t("py   card_value", lambda i: okr.card_value(gin[i][0], rules=g))
`;
const r = spawnSync('python3', ['-c', py], {
  input: JSON.stringify({ gin, laws }), encoding: 'utf8',
  env: { ...process.env, PYTHONPATH: path.join(BUILD, 'python') },
});
process.stdout.write(r.status === 0 ? r.stdout : `python: skipped (${r.stderr.trim().split('\n').pop()})\n`);
