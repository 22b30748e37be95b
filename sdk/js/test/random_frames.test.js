'use strict';
// Seeded random ToBot frames: the JavaScript SDK's decoder (protobufjs, as decodeBody uses it)
// refuses or decodes each like the C codec (protobuf-c, the arena's and the C SDK's decoder),
// asked through build/tests/sdk/pb_oracle. Where the two libraries differ by design, the
// frame must show the named cause (docs/sdk-js.md); anything else fails:
//   utf8       a string that is not UTF-8: protobufjs refuses some, decodes others with
//              replacement characters; protobuf-c keeps the bytes
//   nul        a string with a NUL byte: protobuf-c's C strings end at it
//   unknown    a field okr.proto does not have: protobuf-c keeps it, protobufjs drops it
//   long-key, long-prefix  a key or length prefix over 5 bytes: protobuf-c refuses
//   wire-type  a known field with another wire type: protobuf-c refuses
//   group, field-0  wire types 3/4, or field number 0: protobuf-c refuses
//   overflow   a varint wider than its field: protobuf-c and protobufjs keep other bits
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const { types, decodeBody } = require('../wire');

const REPO = path.resolve(__dirname, '..', '..', '..');
const BUILD = process.env.OKR_BUILD_DIR || path.join(REPO, 'build');
const ORACLE = path.join(BUILD, 'tests', 'sdk', 'pb_oracle');
const CORPUS = path.join(REPO, 'tests', 'fuzz', 'corpus', 'tobot');
const FRAMES = 4000;

// A small seeded generator (xorshift64*), so every run tries the same frames.
function rng(seed) {
  let s = BigInt(seed);
  return (n) => {
    s ^= s >> 12n; s ^= (s << 25n) & 0xffffffffffffffffn; s ^= s >> 27n;
    const x = (s * 0x2545f4914f6cdd1dn) & 0xffffffffffffffffn;
    return Number(x >> 33n) % n;
  };
}

function varint(b, i) {
  let v = 0n;
  for (let n = 0; n < 10; n++) {
    if (i + n >= b.length) return [null, 0];
    v |= BigInt(b[i + n] & 0x7f) << BigInt(7 * n);
    if (b[i + n] < 0x80) return [v, n + 1];
  }
  return [null, 0];
}

const LEN = new Set(['string', 'bytes']);
const F64 = new Set(['fixed64', 'sfixed64', 'double']);
const F32 = new Set(['fixed32', 'sfixed32', 'float']);
const WIDTH = { uint32: 32n, int32: 64n, bool: 64n, uint64: 64n, int64: 64n };

// Walk a message's bytes by its type and add the named causes found.
function causes(b, type, found) {
  let i = 0;
  while (i < b.length) {
    const [key, n] = varint(b, i);
    if (key === null) return;
    if (n > 5) found.add('long-key');
    if (key >> 3n === 0n) found.add('field-0');
    i += n;
    const wt = Number(key & 7n);
    const f = type.fieldsById[Number(key >> 3n)];
    if (!f) found.add('unknown');
    if (f) f.resolve();
    const isMsg = f && f.resolvedType && f.resolvedType.fields !== undefined;
    if (wt === 0) {
      const [v, m] = varint(b, i);
      if (v === null) return;
      if (f && WIDTH[f.type] && v >> WIDTH[f.type] !== 0n) found.add('overflow');
      i += m;
    } else if (wt === 1) i += 8;
    else if (wt === 5) i += 4;
    else if (wt === 2) {
      const [len, m] = varint(b, i);
      if (len === null) return;
      if (m > 5) found.add('long-prefix');
      const body = b.subarray(i + m, i + m + Number(len));
      i += m + Number(len);
      if (f && f.type === 'string') {
        if (body.includes(0)) found.add('nul');
        if (Buffer.from(body.toString('utf8'), 'utf8').compare(body) !== 0) found.add('utf8');
      } else if (isMsg) {
        causes(body, f.resolvedType, found);
      } else if (f && f.repeated) {
        for (let k = 0; k < body.length;) { // a packed list: its values' widths
          const [v, q] = varint(body, k);
          if (v === null) break;
          if (WIDTH[f.type] && v >> WIDTH[f.type] !== 0n) found.add('overflow');
          k += q;
        }
      }
    } else {
      found.add('group');
      return;
    }
    if (f) {
      const want = isMsg || LEN.has(f.type) ? 2 : F64.has(f.type) ? 1 : F32.has(f.type) ? 5 : 0;
      const packed = f.repeated && !isMsg && !LEN.has(f.type) && wt === 2;
      if (wt !== want && !packed) found.add('wire-type');
    }
  }
}

const EXPLAINS = {
  'protobufjs refuses': new Set(['wire-type', 'group', 'field-0', 'utf8']),
  'protobuf-c refuses': new Set(['long-key', 'long-prefix', 'wire-type', 'group', 'field-0',
                                 'unknown']),
  'decoded differently': new Set(['nul', 'utf8', 'unknown', 'wire-type', 'overflow']),
};

function mutate(r, src) {
  const b = Array.from(src);
  for (let k = r(3) + 1; k > 0; k--) {
    const at = r(b.length + 1), last = Math.min(at, b.length - 1);
    switch (r(7)) {
      case 0: if (b.length) b[last] ^= 1 << r(8); break;
      case 1: if (b.length) b[last] = r(256); break;
      case 2: b.length = at; break;
      case 3: b.splice(at, 0, [0, 1, 0x7f, 0x80, 0xff, 0x0a, 0x12, 0x22][r(8)]); break;
      case 4: if (b.length) b.splice(last, 1); break;
      case 5: if (b.length) b[last] = (b[last] + 1) & 0xff; break;
      default: for (let n = r(5) + 1; n > 0; n--) b.splice(at, 0, r(256));
    }
  }
  return Buffer.from(b);
}

function jsDecode(body) {
  try {
    return Buffer.from(types.ToBot.encode(decodeBody(types.ToBot, body)).finish()).toString('hex');
  } catch (e) {
    return '-';
  }
}

test('random frames: refused or decoded like protobuf-c', { skip: !fs.existsSync(ORACLE) && `no ${ORACLE}` }, () => {
  const base = fs.readdirSync(CORPUS).sort().map((f) => fs.readFileSync(path.join(CORPUS, f)));
  assert.ok(base.length > 5);
  const r = rng(2024);
  const frames = base.slice();
  for (let i = 0; i < FRAMES; i++) frames.push(mutate(r, base[r(base.length)]));
  for (let i = 0; i < FRAMES / 4; i++) {
    frames.push(Buffer.from(Array.from({ length: r(40) }, () => r(256))));
  }
  const input = Buffer.concat(frames.flatMap((f) => {
    const n = Buffer.alloc(4);
    n.writeUInt32LE(f.length);
    return [n, f];
  }));
  const out = execFileSync(ORACLE, { input, maxBuffer: 1 << 28 }).toString().split('\n');
  const tally = { same: 0, 'both refuse': 0 };
  frames.forEach((f, k) => {
    const js = jsDecode(f), c = out[k];
    if (js === c) {
      tally[c === '-' ? 'both refuse' : 'same']++;
      return;
    }
    const kind = js === '-' ? 'protobufjs refuses' : c === '-' ? 'protobuf-c refuses' :
      'decoded differently';
    const found = new Set();
    causes(f, types.ToBot, found);
    const named = [...found].filter((x) => EXPLAINS[kind].has(x));
    assert.ok(named.length, `${kind}, and the frame shows no named cause ` +
              `(${[...found].sort().join(', ') || 'none'}): ${f.toString('hex')}`);
    for (const x of named) tally[x] = (tally[x] || 0) + 1;
  });
  for (const f of base) assert.notEqual(jsDecode(f), '-');
  assert.ok(tally.same > base.length && tally['both refuse'] > 0);
  console.log('random frames:', Object.entries(tally).sort().map(([a, b]) => `${a} ${b}`).join(', '));
});
