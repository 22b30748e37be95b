'use strict';
// okbot/rules (sdk/js/rules.js, the engine in WebAssembly) against the Python module okr (the
// same engine compiled natively): random hands, packs and actions generated at test time by
// rules_fixtures.py must get the same answers from both. Then hostile input: every bad call
// throws an Error, none crashes or corrupts the next call.
// Needs okr.wasm (build/sdk/js/wasm) and build/python (OKR_BUILD_DIR, set by ctest); without
// okr.wasm only the "clear error" test runs.
const test = require('node:test');
const assert = require('node:assert');
const { spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const rules = require('../rules');

const BUILD = process.env.OKR_BUILD_DIR || path.resolve(__dirname, '..', '..', '..', 'build');
const COUNT = 400;
const haveWasm = rules.available();
// the oracle: the okr module (skipped without python3-dev, like its own tests)
const haveOkr = fs.existsSync(path.join(BUILD, 'python', 'okr', '__init__.py'));
const cmp = { skip: !haveWasm ? 'no okr.wasm' : (!haveOkr ? 'no okr module in ' + BUILD : false) };

// One run of the generator serves every test; OKR_TEST_SEED picks other cases.
const SEED = Number(process.env.OKR_TEST_SEED || 11);
let cached = null;
function fixtures() {
  if (cached) return cached;
  const seed = SEED;
  const run = (extra) => spawnSync('python3', [path.join(__dirname, 'rules_fixtures.py'),
    String(seed), String(COUNT)], {
    env: { ...process.env, PYTHONPATH: path.join(BUILD, 'python'), ...extra },
    encoding: 'utf8', maxBuffer: 64 << 20,
  });
  let r = run({});
  if (r.status !== 0 && /ASan runtime/.test(r.stderr)) {
    // a sanitizer build's module: Debian's python3 needs the ASan runtime preloaded (as the
    // okr tests do, sdk/python/okr/CMakeLists.txt)
    const lib = spawnSync('cc', ['-print-file-name=libasan.so'], { encoding: 'utf8' }).stdout.trim();
    r = run({ LD_PRELOAD: lib, ASAN_OPTIONS: 'detect_leaks=0' });
  }
  assert.strictEqual(r.status, 0, `rules_fixtures.py failed: ${r.stderr}`);
  cached = JSON.parse(r.stdout);
  return cached;
}

test('without okr.wasm the helpers throw a clear error; the rest of okbot does not need it', () => {
  // a copy of rules.js where no build tree is near, and nothing in the environment names one
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'okbot-rules-'));
  try {
    fs.copyFileSync(path.join(__dirname, '..', 'rules.js'), path.join(dir, 'rules.js'));
    const r = spawnSync(process.execPath, ['-e', `
      const rules = require(${JSON.stringify(path.join(dir, 'rules.js'))});
      if (rules.available()) process.exit(2);
      try { rules.ginBest('AS 2S 3S'); } catch (e) { console.error(e.message); process.exit(3); }
    `], { env: { PATH: process.env.PATH }, encoding: 'utf8', cwd: dir });
    assert.strictEqual(r.status, 3, r.stderr);
    assert.match(r.stderr, /okr\.wasm not found .*install-deps.*OKBOT_WASM/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  // okbot's loop and cards load without the helpers (they never require rules.js)
  for (const f of ['index.js', 'cards.js', 'wire.js']) {
    const src = fs.readFileSync(path.join(__dirname, '..', f), 'utf8');
    assert.doesNotMatch(src, /require\(['"]\.\/rules/, f);
  }
});

test('gin: ginBest and ginBestDiscard equal the okr module on random hands', cmp, () => {
  const f = fixtures();
  let discards = 0;
  let melded = 0;
  for (const c of f.gin) {
    const got = rules.ginBest(c.hand);
    assert.deepStrictEqual(got, { deadwood: c.deadwood, melds: c.melds }, `hand ${c.hand}`);
    if (c.melds.length) melded++;
    if (c.discard) {
      assert.deepStrictEqual(rules.ginBestDiscard(c.hand), c.discard, `hand ${c.hand}`);
      discards++;
    }
  }
  assert.ok(discards >= COUNT / 2 - 1 && melded > COUNT / 4, `${discards} discards, ${melded} melded`);
  // text in, the same answer
  const c = f.gin[0];
  assert.deepStrictEqual(rules.ginBest(rules.formatCards(c.hand)).deadwood, c.deadwood);
});

test('rummy presets: findMelds equals the okr module', cmp, () => {
  const f = fixtures();
  let total = 0;
  for (const c of f.melds) {
    assert.deepStrictEqual(rules.findMelds(c.hand, c.preset), c.melds, `${c.preset} ${c.hand}`);
    total += c.melds.length;
  }
  assert.ok(total > COUNT, `only ${total} melds found in all hands`);
});

test('card values and card text equal the okr module', cmp, () => {
  const f = fixtures();
  for (const v of f.values) {
    v.values.forEach((want, k) => assert.strictEqual(rules.cardValue(k, v.preset), want,
      `${v.preset} ${k}`));
  }
  for (const c of f.cards) {
    assert.strictEqual(rules.formatCards(c.kinds), c.text);
    assert.deepStrictEqual(rules.parseCards(c.text), c.kinds);
    assert.deepStrictEqual(rules.parseCards(c.text.toLowerCase().replace(/T/gi, '10')), c.kinds);
    assert.strictEqual(rules.parseCard(rules.formatCard(c.kinds[0])), c.kinds[0]);
  }
});

test('actions: every legal action text parses to the same type and card, and formats back', cmp, () => {
  const f = fixtures();
  const names = new Set();
  for (const a of f.actions) {
    const got = rules.parseAction(a.text, { rules: a.preset, top: a.top, melds: a.melds });
    assert.strictEqual(got.text, a.text);
    assert.strictEqual(got.type, a.type, a.text);
    assert.strictEqual(got.name, a.name, a.text);
    if (a.card !== null) assert.strictEqual(got.card, a.card, a.text);
    assert.strictEqual(rules.formatAction(got), a.text);
    names.add(a.name);
  }
  for (const n of ['draw', 'take', 'discard', 'meld', 'add', 'pass']) assert.ok(names.has(n), n);
});

test('rules from a preset, an options object or an okbot Context', { skip: !haveWasm }, () => {
  // the Joker: 15 in laws, 25 in arlington (RULES 7.1), no gin Joker
  assert.strictEqual(rules.cardValue(52, 'laws'), rules.cardValue(52, { preset: 'laws' }));
  const ctx = { hello: { rules: { preset: 'laws' } }, rules: { qs_discard: 'any' } };
  assert.strictEqual(rules.cardValue('QS', ctx), rules.cardValue('QS', 'laws'));
  assert.throws(() => rules.cardValue(3, { preset: 'laws', qs_discard: 'bogus' }),
    (e) => e.name === 'RulesError' && e.rule === '4.5');
  assert.throws(() => rules.cardValue(3, 'poker'), /preset|unknown/i);
  assert.strictEqual(rules.cardValue('KD'), 10); // the default: gin (G1)
});

test('hostile input throws and never breaks the next call', { skip: !haveWasm }, () => {
  const bad = [
    () => rules.parseCard('ZZ'), () => rules.parseCard('AS 2S'), () => rules.parseCard(''),
    () => rules.parseCard(38), () => rules.parseCard('A\u0000S'), () => rules.parseCards('AS XX'),
    () => rules.parseCards('AS '.repeat(5000)), () => rules.parseCards(null),
    () => rules.ginBest(new Array(1000).fill(3)), () => rules.ginBest([0, 0]), // one deck in gin
    () => rules.ginBest([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]), // 12 cards in gin
    () => rules.ginBest([-1]), () => rules.ginBest([53]), () => rules.ginBest([1.5]),
    () => rules.ginBest({ length: 1e9 }), () => rules.ginBestDiscard([]),
    () => rules.findMelds(new Array(1000).fill(0), 'laws'), () => rules.findMelds('AS', 'x y'),
    () => rules.cardValue(99), () => rules.cardValue('AS', { preset: 'laws', 'a b': 1 }),
    () => rules.parseAction('fly away'), () => rules.parseAction('discard'),
    () => rules.parseAction('meld ' + 'AS '.repeat(2000)), () => rules.parseAction(42),
    () => rules.parseAction('discard QS', { top: 99 }),
    () => rules.formatAction({ type: 99 }), () => rules.formatAction({ type: 6, card: 300 }),
    () => rules.formatAction({ type: 3, spec: { cards: new Array(20).fill(1) } }),
    () => rules.formatAction({ type: 8, card: 0, knock: [[1], [2], [3], [4], [5]] }),
    () => rules.formatAction(null),
  ];
  bad.forEach((f, i) => {
    assert.throws(f, (e) => e instanceof Error && !(e instanceof WebAssembly.RuntimeError),
      `case ${i}`);
    // the module still answers correctly after each refusal
    assert.strictEqual(rules.ginBest('AS 2S 3S 7H 7D 7C KD QH 9C 4D').deadwood, 33);
  });
  // the largest legal input works: three decks and the Joker, every card
  const all = [];
  for (let k = 0; k < 52; k++) all.push(k, k, k);
  all.push(52);
  assert.ok(rules.findMelds(all, { preset: 'laws', decks: 3 }).length > 1000);
});

test('the module itself never traps on raw garbage (its own checks, not only the JS ones)', { skip: !haveWasm }, () => {
  // a second instance of okr.wasm, called directly with random bytes and lengths
  const mod = new WebAssembly.Module(fs.readFileSync(rules.where()));
  const x = new WebAssembly.Instance(mod, {}).exports;
  let seed = 12345;
  const rnd = (n) => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed % n; };
  const mem = () => new Uint8Array(x.memory.buffer);
  const fill = (n, alphabet) => {
    const m = mem();
    const at = x.okw_in();
    for (let i = 0; i < n; i++) m[at + i] = alphabet ? alphabet.charCodeAt(rnd(alphabet.length)) : rnd(256);
  };
  const TEXT = 'ASKQJT0123456789CDHSjkmeldraw=|lohi add take new knock discard ';
  const calls = [
    () => { fill(600, TEXT); return x.okw_rules(rnd(600) - 10); },
    () => { fill(600, TEXT); return x.okw_card_parse(rnd(700) - 50); },
    () => { fill(2000, TEXT); return x.okw_cards_parse(rnd(70000) - 100); },
    () => { fill(53); return x.okw_find_melds(); },
    () => { fill(53, '\u0000\u0001\u0002\u0003'); return x.okw_find_melds(); },
    () => { fill(53, '\u0000\u0000\u0000\u0001'); return x.okw_gin_best(); },
    () => { fill(53, '\u0000\u0000\u0001'); return x.okw_gin_best_discard(); },
    () => { fill(4200, TEXT); return x.okw_action_parse(rnd(300), rnd(300) - 100, rnd(80) - 5); },
    () => { fill(4200); return x.okw_action_parse(rnd(4000), rnd(60) - 1, rnd(70)); },
    () => { fill(64); return x.okw_action_format(); },
    () => x.okw_card_value(rnd(400) - 100),
    () => x.okw_card_str(rnd(400) - 100),
  ];
  const presets = ['gin', 'laws', 'german decks=3', 'arlington'];
  for (let i = 0; i < 6000; i++) {
    if (i % 500 === 0) { // under each preset in turn
      const b = Buffer.from(presets[(i / 500) % presets.length]);
      mem().set(b, x.okw_in());
      assert.strictEqual(x.okw_rules(b.length), 0);
    }
    const rc = calls[i % calls.length]();
    assert.ok(Number.isInteger(rc), `call ${i % calls.length}`);
  }
});
