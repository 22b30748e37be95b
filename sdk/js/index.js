'use strict';
// okbot - write an okarena bot in JavaScript (docs/sdk-js.md).
//
//   const okbot = require('../../sdk/js');
//   okbot.run((view, legal, ctx) => 0, { name: 'mybot', version: '1.0' });
//
// Loading this module reserves fd 1 (standard output) for the arena's frames: from then on
// console.log, console.info, console.debug and process.stdout.write go to stderr, the bot's
// log. (The framing alone, without that, is in wire.js; card helpers in cards.js.)

const cards = require('./cards');
const {
  types, enums, protobuf, root, MAX_TO_BOT, MAX_FROM_BOT, FrameError, FrameReader,
  encodeFrame, splitFrame, decodeBody, writeAll,
} = require('./wire');

const PROTOCOL_MAJOR = 1;
const PROTOCOL_MINOR = 1;

// ---- The loop -------------------------------------------------------------------------------

// A seeded generator (mulberry32), so a bot's choices can be replayed.
function makeRng(seed = 1) {
  let a = seed >>> 0;
  const next = () => { // uniform in [0, 1)
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, below: (n) => Math.floor(next() * n) }; // below(n): integer in [0, n)
}

class ProtocolError extends Error {}

class Context {
  constructor() {
    this.hello = null; // Hello: rules, clocks, players, match_id
    this.game = null; // current GameStart: seat, players, names, bank_ms
    this.decision = null; // the Decision being answered
    this.rules = {}; // option name -> value, e.g. rules.qs_discard === 'out_or_pair'
    this.started = 0; // performance.now() when the Decision was read
    // Set in decide to say why (protocol 1.1): sent with this Choice, stored in the record and
    // shown beside the decision in the replay page; cut to NOTE_MAX bytes of UTF-8; '' again
    // at each Decision.
    this.note = '';
    this.types = types;
    this.enums = enums;
  }

  get seat() { return this.game ? this.game.seat : null; }
  get players() { return this.hello ? this.hello.players : null; }
  elapsedMs() { return performance.now() - this.started; }
  // Milliseconds left before the bank runs out or the hard ceiling, whichever comes first.
  remainingMs() {
    const d = this.decision;
    if (!d) return 0;
    let budget = d.time_ms + d.bank_ms;
    if (d.hard_ms) budget = Math.min(budget, d.hard_ms);
    return budget - this.elapsedMs();
  }
  log(...args) { console.error(...args); }
}

const NOTE_MAX = 280; // bytes of UTF-8 the arena keeps of a note

// The note as UTF-8 of at most NOTE_MAX bytes, cut on a character boundary.
function cutNote(note) {
  const b = Buffer.from(String(note), 'utf8');
  if (b.length <= NOTE_MAX) return String(note);
  let end = NOTE_MAX;
  while (end > 0 && (b[end] & 0xc0) === 0x80) end--; // b[end] starts the character cut off
  return b.subarray(0, end).toString('utf8');
}

// decide()'s result -> a Choice object.
function makeChoice(result, decision) {
  const legal = decision.legal;
  const id = decision.id;
  if (typeof result === 'number') {
    if (!Number.isInteger(result) || result < 0 || result >= legal.length) {
      throw new RangeError(
        `decide() returned ${result}, but there are ${legal.length} legal actions`);
    }
    return { id, index: result };
  }
  if (typeof result === 'string') {
    const index = cards.findAction(legal, result);
    if (index < 0) {
      throw new RangeError(`decide() returned '${result}', which is not a legal action here`);
    }
    return { id, index };
  }
  if (result && typeof result === 'object') {
    let index = legal.indexOf(result);
    if (index >= 0) return { id, index };
    const bytes = Buffer.from(types.Action.encode(types.Action.fromObject(result)).finish());
    index = legal.findIndex((a) => bytes.equals(types.Action.encode(a).finish()));
    if (index >= 0) return { id, index };
    // A copy (a bot may keep one Action object for every game), whose seat, when left out or
    // 0 (the proto default), becomes the seat this decision is for: { type: PASS } works at
    // every seat. Another seat is sent as written, and the arena refuses it.
    const action = types.Action.decode(bytes);
    if (!action.seat) action.seat = decision.view ? decision.view.seat : 0;
    return { id, action };
  }
  throw new TypeError(
    `decide() returned ${result}: return an index, an Action or an action's text`);
}

const HOOKS = ['onHello', 'onGameStart', 'onEvents', 'onHandEnd', 'onGameEnd', 'onRefused'];

// Keep fd 1 for frames only: from here on console.log, console.info, console.debug and
// process.stdout.write go to stderr. Node has no dup2, so a child process the bot starts
// would still write on fd 1, the channel: spawn it with { stdio: ['ignore', 2, 2] }.
Object.defineProperty(process, 'stdout', {
  configurable: true, enumerable: true, get: () => process.stderr,
});
for (const f of ['log', 'info', 'debug', 'dir', 'dirxml', 'table']) console[f] = console.error;

function serve(decide, hooks, name, version, reader, out) {
  const ctx = new Context();
  let maxOut = MAX_FROM_BOT;
  const send = (message) => {
    const frame = encodeFrame(types.FromBot, message);
    const size = splitFrame(frame, Infinity).body.length;
    if (size > maxOut) {
      throw new RangeError(`a FromBot of ${size} bytes exceeds the arena's limit of ${maxOut}`);
    }
    out(frame);
  };
  const hook = (key, message) => {
    if (hooks[key]) hooks[key](message, ctx);
  };
  for (;;) {
    const body = reader.next();
    if (body === null) return 0; // end of input
    const msg = decodeBody(types.ToBot, body);
    switch (msg.msg) {
      case 'hello': {
        const h = msg.hello;
        ctx.hello = h;
        ctx.rules = {};
        for (const o of (h.rules ? h.rules.options : [])) ctx.rules[o.name] = o.value;
        if (h.major !== PROTOCOL_MAJOR) {
          ctx.log(`okbot: the arena speaks protocol ${h.major}.${h.minor}, this SDK ` +
                  `${PROTOCOL_MAJOR}.${PROTOCOL_MINOR}`);
        }
        if (h.max_frame) maxOut = h.max_frame;
        send({ identify: { major: PROTOCOL_MAJOR, minor: PROTOCOL_MINOR, name, version } });
        hook('onHello', h);
        send({ ready: {} });
        break;
      }
      case 'game_start':
        ctx.game = msg.game_start;
        hook('onGameStart', msg.game_start);
        break;
      case 'decision': {
        const d = msg.decision;
        ctx.started = performance.now();
        ctx.decision = d;
        ctx.note = '';
        if (!d.legal.length) throw new ProtocolError(`Decision ${d.id} has no legal actions`);
        const choice = makeChoice(decide(d.view || types.View.create(), d.legal, ctx), d);
        if (ctx.note) choice.note = cutNote(ctx.note);
        send({ choice });
        break;
      }
      case 'events':
        hook('onEvents', msg.events.events);
        break;
      case 'hand_end':
        hook('onHandEnd', msg.hand_end);
        break;
      case 'game_end':
        hook('onGameEnd', msg.game_end);
        ctx.game = null;
        break;
      case 'refused': {
        const r = msg.refused;
        ctx.log(`okbot: decision ${r.id} refused (RULES ${r.rule}): ${r.reason}`);
        hook('onRefused', r);
        break;
      }
      case 'bye':
        return 0;
      default: // empty, or a message of a later minor version
        ctx.log('okbot: ignoring a ToBot frame with no known message');
    }
  }
}

// Play until Bye or end of input, then exit the process (status 0; 1 on a broken frame or
// an error in the bot). decide(view, legal, ctx) returns an index into legal, one of legal's
// Actions, another Action (sent whole; a seat left out or 0 is filled in with the seat the
// decision is for), or an action's text that appears in legal.
// options: name, version, and hooks onHello (between Identify and Ready: set up there),
// onGameStart, onEvents, onHandEnd, onGameEnd, onRefused, each hook(message, ctx).
// decide may also be an object with a decide method and hook methods.
// options.input / options.output (file descriptors) replace 0 and 1: for tests.
function run(decide, options = {}) {
  const { name = 'okbot', version = '0', input, output } = options;
  const hooks = {};
  let fn = decide;
  if (typeof decide !== 'function' && decide && typeof decide.decide === 'function') {
    fn = decide.decide.bind(decide);
    for (const k of HOOKS) if (typeof decide[k] === 'function') hooks[k] = decide[k].bind(decide);
  }
  for (const k of HOOKS) if (typeof options[k] === 'function') hooks[k] = options[k];
  for (const k of Object.keys(options)) {
    if (!HOOKS.includes(k) && !['name', 'version', 'input', 'output'].includes(k)) {
      throw new TypeError(`okbot.run: unknown option '${k}'`);
    }
  }
  if (typeof fn !== 'function') throw new TypeError('okbot.run: decide must be a function');

  const outFd = output === undefined ? 1 : output;
  const reader = new FrameReader(input === undefined ? 0 : input, MAX_TO_BOT);
  let status;
  try {
    status = serve(fn, hooks, name, version, reader, (frame) => writeAll(outFd, frame));
  } catch (e) {
    if (e instanceof FrameError || e instanceof ProtocolError) {
      console.error(`okbot: broken input from the arena: ${e.message}`);
      status = 1;
    } else if (e && e.code === 'EPIPE') {
      console.error('okbot: the arena closed the channel');
      status = 0;
    } else {
      console.error(e && e.stack ? e.stack : e);
      status = 1;
    }
  }
  process.exit(status);
}

module.exports = {
  run, Context, cards, makeRng, types, enums, protobuf, root, encodeFrame, FrameError,
  ProtocolError, PROTOCOL_MAJOR, PROTOCOL_MINOR, MAX_TO_BOT, MAX_FROM_BOT,
};
