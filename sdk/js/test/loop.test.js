'use strict';
// The bot loop, driven by scripted ToBot frames into a subprocess running a bot.
const test = require('node:test');
const assert = require('node:assert/strict');
const h = require('./helpers');

const NODE = process.execPath;
const randomBot = (...args) => [NODE, h.RANDOM_BOT, ...args];
const probe = (mode, data) => h.runBot([NODE, h.PROBE_BOT, mode], data);
const cat = (...parts) => Buffer.concat(parts);

test('handshake: Identify then Ready', () => {
  const r = h.runBot(randomBot(), cat(h.hello(), h.bye()));
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(h.kinds(r.frames), ['identify', 'ready']);
  const id = r.frames[0].identify;
  assert.deepEqual([id.major, id.minor, id.name, id.version], [1, 1, 'random-js', '1.0']);
});

test('choices echo the id and pick an index in range', () => {
  const ids = ['1', '2', '99', '9223372036854775808', '18446744073709551615'];
  const sizes = [1, 2, 3, 17, 400];
  const parts = [h.hello(), h.gameStart()];
  ids.forEach((id, i) => parts.push(h.decision(id, Array.from({ length: sizes[i] }, (_, j) => `discard ${j}`))));
  parts.push(h.frame({ game_end: { game_id: 'g1' } }), h.bye());
  const r = h.runBot(randomBot(), cat(...parts));
  assert.equal(r.status, 0, r.stderr);
  const got = h.choices(r.frames);
  assert.deepEqual(got.map((c) => c.id.toString()), ids);
  got.forEach((c, i) => {
    assert.equal(c.pick, 'index');
    assert.ok(c.index >= 0 && c.index < sizes[i], `index ${c.index} of ${sizes[i]}`);
  });
});

test('uniform and seeded', () => {
  const data = cat(h.hello(), ...Array.from({ length: 400 }, (_, i) => h.decision(i, ['a', 'b', 'c', 'd'])));
  const picks = ['1', '1', '2'].map((seed) => h.choices(h.runBot(randomBot(seed), data).frames).map((c) => c.index));
  assert.deepEqual(picks[0], picks[1]);
  assert.notDeepEqual(picks[0], picks[2]);
  for (let i = 0; i < 4; i++) assert.ok(picks[0].filter((x) => x === i).length > 50);
});

test('ctx.note goes with the Choice, cut to 280 bytes of UTF-8; reset at each decision', () => {
  const r = probe('note', cat(h.hello(), h.gameStart(), h.decision(2, ['a', 'b']), h.decision(3, ['a']), h.bye()));
  assert.equal(r.status, 0, r.stderr);
  const got = h.choices(r.frames);
  assert.equal(got.length, 2);
  assert.equal(Buffer.byteLength(got[0].note, 'utf8'), 279); // 1 + 2 * 139: no half character
  assert.equal(got[0].note, 'x' + '\u00e9'.repeat(139));
  assert.equal(got[1].note, '');
});

test('end of input without Bye exits 0', () => {
  for (const data of [Buffer.alloc(0), h.hello(), cat(h.hello(), h.decision(5, ['x', 'y']))]) {
    const r = h.runBot(randomBot(), data);
    assert.equal(r.status, 0, r.stderr);
  }
});

test('events, refusals, hand and game ends, empty frames; nothing after Bye', () => {
  const r = h.runBot(randomBot(), cat(
    h.hello(), h.gameStart(), h.frame({ events: { events: [{ seq: 1, seat: 1, type: 1, card: 255, text: 'DRAW' }] } }),
    h.frame({}), h.decision(3, ['a', 'b']), h.frame({ refused: { id: 3, rule: '4.5', reason: 'no' } }),
    h.frame({ hand_end: { hand_no: 1 } }), h.frame({ game_end: {} }), h.bye(), h.decision(4, ['never'])));
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(h.kinds(r.frames), ['identify', 'ready', 'choice']);
  assert.match(r.stderr, /refused \(RULES 4\.5\)/);
});

test('garbage input exits 1 with a message', () => {
  const junks = [
    Buffer.alloc(12, 0xff), // varint too long
    Buffer.from('hello, arena'), // 'h' = a 104-byte frame, cut short
    Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f]), // 4 GiB frame
    Buffer.from([0x02, 0x0f, 0x00]), // body does not parse
    Buffer.from([0x80]), // end of input inside the prefix
  ];
  for (const junk of junks) {
    for (const before of [Buffer.alloc(0), h.hello()]) {
      const r = h.runBot(randomBot(), cat(before, junk, h.bye()));
      assert.equal(r.status, 1, `${junk.toString('hex')}: ${r.stderr}`);
      assert.match(r.stderr, /okbot: broken input/);
    }
  }
});

test('a Decision without legal actions exits 1', () => {
  const r = h.runBot(randomBot(), cat(h.hello(), h.decision(1, [])));
  assert.equal(r.status, 1);
  assert.match(r.stderr, /no legal actions/);
});

test('stray output goes to the log, not the channel', () => {
  const r = probe('stray', cat(h.hello(), h.gameStart(), h.decision(8, ['a', 'b']), h.decision(9, ['c']), h.bye()));
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(h.kinds(r.frames), ['identify', 'ready', 'choice', 'choice']);
  for (const what of ['before run', 'process.stdout.write before run', 'in onHello', 'in decide',
    'console.info', 'process.stdout.write', 'child process']) {
    assert.ok(r.stderr.includes(`stray: ${what}\n`), what);
  }
});

test('text answers', () => {
  const r = probe('text', cat(h.hello(), h.decision(4, ['DRAW', 'DISCARD TH', 'DISCARD 2C']),
    h.decision(5, ['PASS', 'KNOCK 9S | 3H 4H 5H']), h.bye()));
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(h.choices(r.frames).map((c) => [Number(c.id), c.index]), [[4, 2], [5, 1]]);
});

test('Action answers', () => {
  const r = probe('action', cat(h.hello(), h.decision(2, ['a', 'b', 'c']), h.decision(3, ['a', 'b']), h.bye()));
  assert.equal(r.status, 0, r.stderr);
  const [c0, c1] = h.choices(r.frames);
  assert.deepEqual([Number(c0.id), c0.pick, c0.index], [2, 'index', 1]);
  assert.deepEqual([Number(c1.id), c1.pick, c1.action.type], [3, 'action', h.enums.ActionType.PASS]);
});

// An Action built without a seat (seat 0, the proto default) goes out with the seat of the
// decision, so { type: PASS } works at every seat (RULES 2.2; the arena refuses an action for
// another seat, docs/protocol.md section 6); the bot's own object is not changed.
test('hand-built actions get the seat of the decision', () => {
  const r = probe('handbuilt', cat(h.hello(), h.gameStart(2), h.decision(1, ['draw', 'pass'], 2),
    h.decision(2, ['a', 'b', 'c'], 2), h.gameStart(1), h.decision(3, ['draw', 'pass'], 1),
    h.gameStart(0), h.decision(4, ['pass'], 0), h.bye()));
  assert.equal(r.status, 0, r.stderr);
  const got = h.choices(r.frames);
  assert.deepEqual(got.map((c) => c.pick), ['action', 'action', 'action', 'action']);
  const { PASS, DISCARD } = h.enums.ActionType;
  assert.deepEqual(got.map((c) => [Number(c.id), c.action.type, c.action.seat]),
    [[1, PASS, 2], [2, DISCARD, 2], [3, PASS, 1], [4, PASS, 0]]);
  assert.equal(got[1].action.text, '');
});

test('an explicit seat is sent as written', () => {
  const r = h.runBot([NODE, h.PROBE_BOT, 'handbuilt', '1'],
    cat(h.hello(), h.gameStart(2), h.decision(1, ['a', 'b'], 2), h.bye()));
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(h.choices(r.frames).map((c) => [Number(c.id), c.action.seat]), [[1, 1]]);
});

test('hooks', () => {
  const r = probe('hooks', cat(h.hello(), h.gameStart(2),
    h.frame({ events: { events: [{ seq: 1, text: 'DRAW' }, { seq: 2, text: 'DISCARD QS' }] } }),
    h.decision(6, ['a']), h.frame({ refused: { id: 6, rule: 'protocol' } }),
    h.frame({ hand_end: { hand_no: 3 } }), h.frame({ game_end: { game_id: 'g1' } }), h.bye()));
  assert.equal(r.status, 0, r.stderr);
  for (const line of ['HOOK hello m1 out_or_pair', 'HOOK gameStart seat 2', 'HOOK events DRAW DISCARD QS',
    'HOOK decide 6 1 AC AD QS remaining>0', 'HOOK refused protocol', 'HOOK handEnd 3', 'HOOK gameEnd g1']) {
    assert.ok(r.stderr.includes(line), `${line} in ${r.stderr}`);
  }
  assert.deepEqual(h.kinds(r.frames), ['identify', 'ready', 'choice']);
});

test('errors in the bot exit 1', () => {
  for (const [mode, text] of [['raise', 'decide failed on purpose'], ['badindex', 'returned 2, but there are 2']]) {
    const r = probe(mode, cat(h.hello(), h.decision(1, ['a', 'b']), h.bye()));
    assert.equal(r.status, 1, r.stderr);
    assert.ok(r.stderr.includes(text), r.stderr);
    assert.deepEqual(h.kinds(r.frames), ['identify', 'ready']);
  }
});
