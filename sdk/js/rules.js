'use strict';
// okbot/rules - the rules engine's helpers for JavaScript bots (docs/sdk-js.md, "Rules helpers"):
// card values, meld finding, gin deadwood and best discard, and the notation, computed by the
// project's C engine compiled to WebAssembly (sdk/js/wasm), so they agree with the arena.
//
//   const rules = require('okbot/rules');
//   rules.ginBest('AS 2S 3S 7H 7D 7C KD QH 9C 4D')  // { deadwood: 33, melds: [[6, 19, 32], [39, 40, 41]] }
//
// Every helper takes the rules last: a preset name ('gin', 'laws', ...), an object
// { preset: 'laws', qs_discard: 'any', ... }, or the bot's Context (ctx: its Hello's preset and
// ctx.rules). The default is 'gin' ('laws' for findMelds). A hand is an array of kinds or a
// text ('AS 2S 3S'). Bad input throws (RangeError, TypeError, or RulesError naming the rule);
// nothing a caller passes reaches the engine unchecked.
//
// Finding okr.wasm (built by cmake into build/sdk/js/wasm), first match wins:
//   1. $OKBOT_WASM (the file)
//   2. $OKBOT_NODE_MODULES/../wasm/okr.wasm and <each NODE_PATH folder>/../wasm/okr.wasm: in
//      the arena's jail, where both name folders of the build tree
//   3. $OKR_BUILD_DIR/sdk/js/wasm/okr.wasm, then <repo>/build/sdk/js/wasm/okr.wasm
// The module is loaded on the first call; without it every helper throws an Error saying
// where it looked and how to build it. Loading okbot itself never needs it.

const fs = require('fs');
const path = require('path');

const KINDS = 53;
const JOKER = 52;
const NOCARD = 255;
const REFUSED = -1000;
const TYPE_NAMES = ['', 'draw', 'take', 'meld', 'add', 'replace', 'discard', 'claim', 'knock',
  'pass'];
const MAX_TEXT = 4096; // longest text accepted (an action or a card list; a pack is ~500)

class RulesError extends Error {
  constructor(rule, reason) {
    super(rule ? `${reason} (RULES ${rule})` : reason);
    this.name = 'RulesError';
    this.rule = rule;
    this.reason = reason;
  }
}

let wasm = null; // { exports, memory, where }
let loadError = null;

function candidates() {
  const out = [];
  if (process.env.OKBOT_WASM) out.push(process.env.OKBOT_WASM);
  if (process.env.OKBOT_NODE_MODULES) {
    out.push(path.join(process.env.OKBOT_NODE_MODULES, '..', 'wasm', 'okr.wasm'));
  }
  for (const dir of (process.env.NODE_PATH || '').split(path.delimiter).filter(Boolean)) {
    out.push(path.join(dir, '..', 'wasm', 'okr.wasm'));
  }
  if (process.env.OKR_BUILD_DIR) {
    out.push(path.join(process.env.OKR_BUILD_DIR, 'sdk', 'js', 'wasm', 'okr.wasm'));
  }
  out.push(path.resolve(__dirname, '..', '..', 'build', 'sdk', 'js', 'wasm', 'okr.wasm'));
  return out;
}

function load() {
  if (wasm) return wasm;
  if (loadError) throw loadError;
  const tried = candidates();
  for (const file of tried) {
    let bytes;
    try {
      bytes = fs.readFileSync(file);
    } catch (e) {
      continue;
    }
    const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), {});
    const x = instance.exports;
    if (x.okw_sizeof_spec() !== 31 || x.okw_sizeof_action() !== 64) {
      loadError = new Error(`okbot/rules: ${file} does not match this SDK (struct sizes ` +
                            `${x.okw_sizeof_spec()}, ${x.okw_sizeof_action()}): rebuild it`);
      throw loadError;
    }
    wasm = { x, memory: x.memory, where: file, rulesKey: null };
    return wasm;
  }
  loadError = new Error('okbot/rules: okr.wasm not found (looked in ' + tried.join(', ') +
                        '). Build the project with clang and lld installed ' +
                        '(scripts/install-deps.sh; cmake --build build), or set OKBOT_WASM.');
  throw loadError;
}

function bytes(w) { return new Uint8Array(w.memory.buffer); } // fresh: memory may grow

function refusal(w) {
  const mem = bytes(w);
  const out = w.x.okw_out();
  let i = out;
  while (mem[i]) i++;
  const rule = Buffer.from(mem.subarray(out, i)).toString('latin1');
  let j = i + 1;
  while (mem[j]) j++;
  return new RulesError(rule, Buffer.from(mem.subarray(i + 1, j)).toString('latin1'));
}

function check(w, rc) {
  if (rc === REFUSED) throw refusal(w);
  return rc;
}

// Text into the input buffer; its length in bytes.
function putText(w, text, what) {
  if (typeof text !== 'string') throw new TypeError(`${what}: expected a string, not ${typeof text}`);
  if (text.length > MAX_TEXT) throw new RangeError(`${what}: longer than ${MAX_TEXT} characters`);
  const b = Buffer.from(text, 'utf8');
  if (b.length >= w.x.okw_in_cap() || b.includes(0)) {
    throw new RangeError(`${what}: too long or holds a NUL`);
  }
  bytes(w).set(b, w.x.okw_in());
  return b.length;
}

function outText(w, n) {
  const out = w.x.okw_out();
  return Buffer.from(bytes(w).subarray(out, out + n)).toString('latin1');
}

// ---- rules --------------------------------------------------------------------------------

const WORD = /^[A-Za-z0-9_.-]{1,64}$/;

function rulesText(spec, fallback) {
  if (spec === undefined || spec === null) return fallback;
  if (typeof spec === 'string') {
    if (!WORD.test(spec)) throw new RangeError(`not a preset: '${spec}'`);
    return spec;
  }
  if (typeof spec !== 'object') throw new TypeError('rules: a preset name, an object or a ctx');
  let preset = spec.preset;
  let options = spec;
  if (spec.hello !== undefined && spec.rules !== undefined) { // okbot's Context
    preset = spec.hello && spec.hello.rules ? spec.hello.rules.preset : undefined;
    options = spec.rules || {};
  }
  if (!preset) preset = fallback;
  const words = [String(preset)];
  for (const [name, value] of Object.entries(options)) {
    if (name === 'preset' || name === 'family') continue;
    const v = typeof value === 'boolean' ? (value ? '1' : '0') : String(value);
    if (!WORD.test(name) || !WORD.test(v)) throw new RangeError(`rules: bad option ${name}=${v}`);
    words.push(`${name}=${v}`);
  }
  if (!WORD.test(words[0])) throw new RangeError(`not a preset: '${words[0]}'`);
  return words.join(' ');
}

function useRules(w, spec, fallback) {
  const text = rulesText(spec, fallback);
  if (w.rulesKey === text) return;
  w.rulesKey = null;
  check(w, w.x.okw_rules(putText(w, text, 'rules')));
  w.rulesKey = text;
}

// ---- cards --------------------------------------------------------------------------------

function kindOf(card) {
  if (typeof card === 'string') return parseCard(card);
  if (!Number.isInteger(card) || card < 0 || card >= KINDS) {
    throw new RangeError(`not a card kind: ${card}`);
  }
  return card;
}

function parseCard(text) {
  const w = load();
  if (typeof text !== 'string' || text.length > 8) throw new RangeError(`not a card: '${text}'`);
  return check(w, w.x.okw_card_parse(putText(w, text.trim(), 'card')));
}

function parseCards(text) {
  const w = load();
  const n = check(w, w.x.okw_cards_parse(putText(w, text, 'cards')));
  const out = w.x.okw_out();
  return Array.from(bytes(w).subarray(out, out + n));
}

function formatCard(kind) {
  const w = load();
  if (kind === NOCARD) return '??';
  return outText(w, check(w, w.x.okw_card_str(kindOf(kind))));
}

function formatCards(kinds) {
  if (!kinds || typeof kinds[Symbol.iterator] !== 'function') {
    throw new TypeError('formatCards: a list of kinds');
  }
  return Array.from(kinds, formatCard).join(' ');
}

// A hand (kinds or text) as 53 counts in the input buffer.
function putHand(w, hand) {
  let list = hand;
  if (typeof hand === 'string') list = parseCards(hand);
  if (!list || typeof list.length !== 'number') throw new TypeError('a hand: a list of kinds or a text');
  if (list.length > 3 * KINDS) throw new RangeError(`a hand of ${list.length} cards: no pack has that many`);
  const counts = new Uint8Array(KINDS);
  for (const k of list) {
    const kind = kindOf(k);
    if (counts[kind] === 3) throw new RangeError(`${formatCard(kind)} more than three times`);
    counts[kind]++;
  }
  bytes(w).set(counts, w.x.okw_in());
}

function cardValue(card, rules) {
  const w = load();
  useRules(w, rules, 'gin');
  return check(w, w.x.okw_card_value(kindOf(card)));
}

function readGinMelds(mem, at) {
  const melds = [];
  const nm = mem[at++];
  for (let i = 0; i < nm; i++) {
    const n = mem[at++];
    melds.push(Array.from(mem.subarray(at, at + n)));
    at += n;
  }
  return melds;
}

function ginBest(hand, rules) {
  const w = load();
  useRules(w, rules, 'gin');
  putHand(w, hand);
  const deadwood = check(w, w.x.okw_gin_best());
  return { deadwood, melds: readGinMelds(bytes(w), w.x.okw_out()) };
}

function ginBestDiscard(hand, rules) {
  const w = load();
  useRules(w, rules, 'gin');
  putHand(w, hand);
  const deadwood = check(w, w.x.okw_gin_best_discard());
  const mem = bytes(w);
  const out = w.x.okw_out();
  return { card: mem[out], deadwood, melds: readGinMelds(mem, out + 1) };
}

// okr_spec at `at`: type, n, lo, card[14], as[14]
function readSpec(mem, at) {
  const n = Math.min(mem[at + 1], 14);
  return {
    type: mem[at] === 2 ? 'run' : 'set',
    lo: mem[at + 2],
    cards: Array.from(mem.subarray(at + 3, at + 3 + n)),
    as: Array.from(mem.subarray(at + 17, at + 17 + n)),
  };
}

function findMelds(hand, rules) {
  const w = load();
  useRules(w, rules, 'laws');
  putHand(w, hand);
  const n = check(w, w.x.okw_find_melds());
  const mem = bytes(w);
  const out = w.x.okw_out();
  const melds = [];
  for (let i = 0; i < n; i++) melds.push(readSpec(mem, out + 31 * i));
  return melds;
}

// ---- actions ------------------------------------------------------------------------------
// An action is an object of the protocol's Action fields (proto/okr.proto: type as its enum
// number, how, card, as, meld, pos, spec {type, lo, cards, as}, knock [{cards}]), plus `name`
// ('discard', ...) and `text`: decide() may return it as it is.

// The table's melds (the View's melds: owner, type, lo, rank, suit, cards, as) as okr_meld
// structs (owner, type, n, lo, rank, suit, card[28], as[28]) at `at`; their count.
function putMelds(w, melds, at) {
  if (melds === undefined || melds === null) return 0;
  if (!Array.isArray(melds) || melds.length > 64) throw new RangeError('melds: at most 64');
  const buf = new Uint8Array(62 * melds.length);
  melds.forEach((m, i) => {
    const cards = cardList(m.cards, 28, 'melds.cards');
    const as = m.as ? cardList(m.as, 28, 'melds.as') : (m.as_ ? cardList(m.as_, 28, 'melds.as') : cards);
    if (as.length !== cards.length) throw new RangeError('melds: cards and as differ in length');
    const type = m.type === 'run' || m.type === 2 ? 2 : 1;
    buf.set([u8(m.owner, 'owner'), type, cards.length, u8(m.lo, 'lo'), u8(m.rank, 'rank'),
      u8(m.suit, 'suit')], 62 * i);
    buf.set(cards, 62 * i + 6);
    buf.set(as, 62 * i + 34);
  });
  bytes(w).set(buf, at);
  return melds.length;
}

// parseAction(text, { rules, top, melds }): `top` the pile's top card and `melds` the
// table's melds (view.melds), where the text leaves them implicit ("take", "add 0 AS").
function parseAction(text, options = {}) {
  const w = load();
  useRules(w, options.rules, 'gin');
  const top = options.top === undefined || options.top === null ? -1 : kindOf(options.top);
  const len = putText(w, text, 'action');
  const melds = putMelds(w, options.melds, w.x.okw_in() + len + 1);
  check(w, w.x.okw_action_parse(len, top, melds));
  const mem = bytes(w);
  const at = w.x.okw_out();
  const a = {
    type: mem[at], name: TYPE_NAMES[mem[at]] || '', seat: mem[at + 1], how: mem[at + 2],
    card: mem[at + 3], as: mem[at + 4], meld: mem[at + 5], pos: mem[at + 6],
  };
  const nmelds = mem[at + 7];
  if (a.name === 'meld' || ((a.name === 'take' || a.name === 'claim') && a.how === 1)) {
    const s = readSpec(mem, at + 8);
    a.spec = { type: s.type === 'run' ? 2 : 1, lo: s.lo, cards: s.cards, as: s.as };
  }
  if (a.name === 'knock') {
    a.knock = [];
    for (let i = 0; i < Math.min(nmelds, 4); i++) {
      const m = at + 8 + 14 * i;
      a.knock.push({ cards: Array.from(mem.subarray(m + 1, m + 1 + Math.min(mem[m], 13))) });
    }
  }
  a.text = formatAction(a);
  return a;
}

function u8(v, what) {
  const x = v === undefined || v === null ? 0 : v;
  if (!Number.isInteger(x) || x < 0 || x > 255) throw new RangeError(`action.${what}: ${v}`);
  return x;
}

function cardList(list, max, what) {
  if (!Array.isArray(list) || list.length > max) {
    throw new RangeError(`action.${what}: a list of at most ${max} cards`);
  }
  return list.map((k) => kindOf(k));
}

function formatAction(a) {
  const w = load();
  if (!a || typeof a !== 'object') throw new TypeError('formatAction: an action object');
  let type = a.type;
  if (typeof type === 'string') type = TYPE_NAMES.indexOf(type.toLowerCase());
  if (!Number.isInteger(type) || type < 1 || type >= TYPE_NAMES.length) {
    throw new RangeError(`action.type: ${a.type}`);
  }
  const buf = new Uint8Array(64);
  buf.set([type, u8(a.seat, 'seat'), u8(a.how, 'how'), u8(a.card, 'card'), u8(a.as, 'as'),
    u8(a.meld, 'meld'), u8(a.pos, 'pos')]);
  if (a.spec) {
    const cards = cardList(a.spec.cards, 14, 'spec.cards');
    const as = a.spec.as ? cardList(a.spec.as, 14, 'spec.as') : cards;
    if (as.length !== cards.length) throw new RangeError('action.spec: cards and as differ in length');
    const st = a.spec.type === 'run' || a.spec.type === 2 ? 2 : 1;
    buf.set([st, cards.length, u8(a.spec.lo, 'spec.lo')], 8);
    buf.set(cards, 11);
    buf.set(as, 25);
  }
  if (a.knock) {
    if (!Array.isArray(a.knock) || a.knock.length > 4) throw new RangeError('action.knock: at most 4 melds');
    buf[7] = a.knock.length;
    a.knock.forEach((m, i) => {
      const cards = cardList(Array.isArray(m) ? m : m && m.cards, 13, 'knock.cards');
      buf[8 + 14 * i] = cards.length;
      buf.set(cards, 9 + 14 * i);
    });
  }
  bytes(w).set(buf, w.x.okw_in());
  return outText(w, check(w, w.x.okw_action_format()));
}

// True when okr.wasm can be loaded (the helpers work); never throws.
function available() {
  try {
    load();
    return true;
  } catch (e) {
    return false;
  }
}

module.exports = {
  cardValue, findMelds, ginBest, ginBestDiscard,
  parseCard, parseCards, formatCard, formatCards, parseAction, formatAction,
  available, RulesError,
  where: () => load().where, // the okr.wasm in use
};
