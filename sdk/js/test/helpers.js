'use strict';
// Helpers for the okbot tests: build ToBot frames, run a bot program on them, read its
// FromBot frames back.
const { spawnSync } = require('child_process');
const path = require('path');
const wire = require('../wire');

const REPO = path.resolve(__dirname, '..', '..', '..');
const RANDOM_BOT = path.join(REPO, 'bots', 'random', 'random_bot.js');
const PROBE_BOT = path.join(__dirname, 'bots', 'probe_bot.js');
const { types, enums } = wire;

const frame = (msg) => wire.encodeFrame(types.ToBot, msg);

const hello = (players = 3) => frame({
  hello: {
    major: 1, minor: 0, match_id: 'm1', players, max_frame: 65536, bot_name: 'b',
    rules: { preset: 'laws', options: [{ name: 'qs_discard', value: 'out_or_pair' }] },
    clocks: { startup_ms: 5000, decision_ms: 1000, bank_ms: 10000, hard_ms: 20000 },
  },
});

const gameStart = (seat = 0) => frame({
  game_start: { game_id: 'g1', seat, players: 3, names: ['a', 'b', 'c'], bank_ms: 10000 },
});

// A Decision whose legal actions are discards with the given texts ('pass': a PASS).
const decision = (id, texts, seat = 0) => frame({
  decision: {
    id, time_ms: 1000, bank_ms: 10000, hard_ms: 20000,
    view: { seat, players: 3, phase: enums.Phase.PLAY, hand: [0, 13, 50] },
    legal: texts.map((text, i) => (text === 'pass' ? { type: enums.ActionType.PASS, seat, text }
      : { type: enums.ActionType.DISCARD, seat, card: i % 53, text })),
  },
});

const bye = () => frame({ bye: { reason: 'done' } });

// Run a bot with `data` on stdin: { status, frames (FromBot messages), stderr }. Throws if
// the bot's stdout is not a clean sequence of FromBot frames.
function runBot(argv, data) {
  const p = spawnSync(argv[0], argv.slice(1), { input: data, timeout: 60000 });
  if (p.error) throw p.error;
  let buf = p.stdout;
  const frames = [];
  while (buf.length) {
    const got = wire.splitFrame(buf, wire.MAX_FROM_BOT);
    if (!got) throw new Error(`bot stdout ends inside a frame: ${buf.toString('latin1')}`);
    frames.push(wire.decodeBody(types.FromBot, got.body));
    buf = got.rest;
  }
  return { status: p.status, frames, stderr: p.stderr.toString() };
}

const kinds = (frames) => frames.map((f) => f.msg);
const choices = (frames) => frames.filter((f) => f.msg === 'choice').map((f) => f.choice);

module.exports = {
  REPO, RANDOM_BOT, PROBE_BOT, types, enums, frame, hello, gameStart, decision, bye, runBot,
  kinds, choices,
};
