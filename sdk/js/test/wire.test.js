'use strict';
// Framing and card helpers: round trips, split reads, zero-length frames, limits.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');
const wire = require('../wire');
const cards = require('../cards');

const { types, enums, splitFrame, encodeFrame, decodeBody, FrameError } = wire;

function sampleDecision(nLegal = 5, id = 7) {
  return {
    decision: {
      id, time_ms: 100, bank_ms: 2000, hard_ms: 5000,
      view: {
        hand: [0, 12, 25, 38, 51, 52, 52], scores: [-15, 0, 300],
        melds: [{ owner: 1, type: enums.MeldType.RUN, lo: 4, suit: 2, cards: [30, 31, 0], as: [30, 31, 32] }],
      },
      legal: Array.from({ length: nLegal }, (_, i) => ({
        type: enums.ActionType.DISCARD, card: i % 53, text: `discard ${cards.name(i % 53)}`,
      })),
    },
  };
}

// Split every frame off a buffer.
function splitAll(buf, max) {
  const out = [];
  for (;;) {
    const got = splitFrame(buf, max);
    if (!got) break;
    out.push(got.body);
    buf = got.rest;
  }
  return { bodies: out, rest: buf };
}

const asObject = (type, m) => type.toObject(m, { longs: String, defaults: false });

test('varint prefix', () => {
  assert.deepEqual([...encodeFrame(types.FromBot, { ready: {} })], [2, 0x12, 0]);
  const f = encodeFrame(types.ToBot, { bye: { reason: 'x'.repeat(300) } });
  const n = f.length - 2; // a 2-byte prefix, then the message
  assert.equal(n, types.ToBot.encode({ bye: { reason: 'x'.repeat(300) } }).finish().length);
  assert.deepEqual([...f.subarray(0, 2)], [(n & 0x7f) | 0x80, n >> 7]);
});

test('round trip', () => {
  const msgs = [
    { hello: { major: 1, players: 4, match_id: 'm' } }, sampleDecision(),
    { events: {} }, sampleDecision(300, '18446744073709551615'), { bye: { reason: 'done' } },
  ];
  const data = Buffer.concat(msgs.map((m) => encodeFrame(types.ToBot, m)));
  const { bodies, rest } = splitAll(data);
  assert.equal(rest.length, 0);
  assert.equal(bodies.length, msgs.length);
  bodies.forEach((b, i) => {
    const back = decodeBody(types.ToBot, b);
    assert.deepEqual(asObject(types.ToBot, back), asObject(types.ToBot, types.ToBot.fromObject(msgs[i])));
  });
  assert.equal(decodeBody(types.ToBot, bodies[3]).decision.id.toString(), '18446744073709551615');
});

test('split reads through a pipe-like reader', () => {
  const msgs = [1, 2, 50, 700].map((n) => sampleDecision(n, n));
  const data = Buffer.concat(msgs.map((m) => encodeFrame(types.ToBot, m)));
  // Byte by byte through splitFrame: only whole frames come out.
  let buf = Buffer.alloc(0);
  const got = [];
  for (const byte of data) {
    buf = Buffer.concat([buf, Buffer.from([byte])]);
    const r = splitFrame(buf);
    if (r) {
      got.push(decodeBody(types.ToBot, r.body));
      buf = r.rest;
    }
  }
  assert.equal(buf.length, 0);
  assert.deepEqual(got.map((m) => m.decision.legal.length), [1, 2, 50, 700]);
  // FrameReader on a real file descriptor.
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'okbot-')), 'frames');
  fs.writeFileSync(file, data);
  const fd = fs.openSync(file, 'r');
  const reader = new wire.FrameReader(fd);
  reader.chunk = Buffer.alloc(7); // force many short reads
  const bodies = [];
  for (let b; (b = reader.next()) !== null;) bodies.push(b);
  fs.closeSync(fd);
  fs.rmSync(path.dirname(file), { recursive: true });
  assert.deepEqual(bodies.map((b) => decodeBody(types.ToBot, b).decision.id.toNumber()), [1, 2, 50, 700]);
});

test('zero-length frame', () => {
  assert.deepEqual([...encodeFrame(types.FromBot, {})], [0]);
  const { bodies } = splitAll(Buffer.from([0, 0, 2, 0x12, 0]));
  assert.deepEqual(bodies.map((b) => b.length), [0, 0, 2]);
  assert.equal(decodeBody(types.FromBot, bodies[0]).msg, undefined);
  assert.equal(decodeBody(types.FromBot, bodies[2]).msg, 'ready');
});

test('limits', () => {
  const body = Buffer.alloc(100, 0);
  assert.equal(splitFrame(Buffer.concat([Buffer.from([100]), body]), 100).body.length, 100);
  assert.throws(() => splitFrame(Buffer.from([101]), 100), /exceeds/);
  // Oversized frames are refused from the prefix alone, before their bytes arrive.
  assert.throws(() => splitFrame(Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f])), /exceeds/);
  const over = wire.protobuf.Writer.create().uint32(wire.MAX_TO_BOT + 1).finish();
  assert.throws(() => splitFrame(Buffer.from(over)), /exceeds/);
});

test('broken prefix and truncated frames', () => {
  assert.throws(() => splitFrame(Buffer.alloc(12, 0xff)), FrameError);
  assert.throws(() => splitFrame(Buffer.alloc(12, 0xff)), /longer than 10/);
  assert.equal(splitFrame(Buffer.from([0x80, 0x80])), null); // needs more bytes
  const f = encodeFrame(types.ToBot, sampleDecision());
  assert.equal(splitFrame(f.subarray(0, f.length - 1)), null);
  assert.throws(() => decodeBody(types.ToBot, Buffer.from([0x0f])), FrameError);
  assert.throws(() => decodeBody(types.ToBot, Buffer.from([0x0a, 0x05, 0x61])), FrameError);
});

test('index 0 is sent', () => {
  const f = encodeFrame(types.FromBot, { choice: { id: 3, index: 0 } });
  const back = decodeBody(types.FromBot, splitFrame(f).body);
  assert.equal(back.choice.pick, 'index');
  assert.equal(back.choice.index, 0);
});

test('cards', () => {
  for (let k = 0; k < 53; k++) {
    assert.equal(cards.parse(cards.name(k)), k);
    assert.equal(cards.parse(cards.name(k).toLowerCase()), k);
  }
  assert.equal(cards.names([0, 13, 26, 39, 9, 50, 52, 255]), 'AC AD AH AS TC QS JK ??');
  assert.equal(cards.kind(cards.SPADES, 12), 50);
  assert.deepEqual([cards.suit(50), cards.rank(50)], [3, 12]);
  assert.deepEqual([cards.suit(52), cards.rank(52)], [null, null]);
  assert.equal(cards.parse('10h'), cards.parse('TH'));
  assert.deepEqual(cards.parseList(' 2c  qs\tJK '), [1, 50, 52]);
  assert.equal(cards.counts([0, 0, 52])[0], 2);
  for (const bad of ['', '1H', 'AX', 'KSS', 'J', '11C']) assert.throws(() => cards.parse(bad), RangeError);
  for (const bad of [-1, 53, 254, 256, 1.5]) assert.throws(() => cards.name(bad), RangeError);
  assert.equal(cards.normalizeAction('  take new 10h th 2c=10H  # c'), 'TAKE NEW TH TH 2C=TH');
  assert.equal(cards.normalizeAction('knock 9s|3h 4h 5h'), 'KNOCK 9S | 3H 4H 5H');
  assert.equal(cards.normalizeAction('add 10 9h'), 'ADD 10 9H');
  const legal = [{ text: 'DRAW' }, { text: 'DISCARD TC' }];
  assert.equal(cards.findAction(legal, 'discard 10c'), 1);
  assert.equal(cards.findAction(legal, 'Draw'), 0);
  assert.equal(cards.findAction(legal, 'pass'), -1);
});
