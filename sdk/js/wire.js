'use strict';
// okbot/wire - the messages of proto/okr.proto and the frames that carry them.
//
// Messages are those of proto/okr.proto, loaded at run time with protobufjs and keeping the
// proto's field names (view.turn_seat, action.as). Each frame is the message preceded by its
// length as a base-128 varint: protobufjs's encodeDelimited writes it, and its Reader decodes
// the prefix when reading. Nothing here encodes a message by hand.
//
// Finding protobufjs, first match wins:
//   1. $OKBOT_NODE_MODULES/protobufjs
//   2. the usual require('protobufjs'): sdk/js/node_modules after `npm ci` in sdk/js
//   3. <repo>/build/sdk/js/node_modules/protobufjs (installed by `cmake --build build`)

const fs = require('fs');
const path = require('path');

const REPO = path.resolve(__dirname, '..', '..');
const PROTO = process.env.OKBOT_PROTO || path.join(REPO, 'proto', 'okr.proto');

const MAX_TO_BOT = 8 << 20; // largest arena->bot frame accepted (the arena's own limit)
const MAX_FROM_BOT = 64 << 10; // largest bot->arena frame, unless Hello.max_frame says otherwise
const MAX_VARINT = 10; // bytes in the longest varint

function loadProtobuf() {
  const tries = [];
  if (process.env.OKBOT_NODE_MODULES) {
    tries.push(path.join(process.env.OKBOT_NODE_MODULES, 'protobufjs'));
  }
  tries.push('protobufjs', path.join(REPO, 'build', 'sdk', 'js', 'node_modules', 'protobufjs'));
  for (const where of tries) {
    try {
      return require(where);
    } catch (e) {
      if (e.code !== 'MODULE_NOT_FOUND') throw e;
    }
  }
  throw new Error('okbot: protobufjs not found: run `npm ci` in sdk/js, build the project ' +
                  '(cmake --build build), or set OKBOT_NODE_MODULES');
}

const protobuf = loadProtobuf();
const root = new protobuf.Root();
root.loadSync(PROTO, { keepCase: true });

const types = {};
for (const t of ['ToBot', 'FromBot', 'Hello', 'GameStart', 'Decision', 'Events', 'Event',
                 'HandEnd', 'GameEnd', 'Refused', 'Bye', 'Identify', 'Ready', 'Choice',
                 'Action', 'MeldSpec', 'GinMeld', 'View', 'Meld', 'Rules', 'Option',
                 'Clocks']) {
  types[t] = root.lookupType('okrpb.' + t);
}
// Enums as name -> number objects: ActionType.DRAW === 1, Phase.PLAY === 6.
const enums = {};
for (const e of ['ActionType', 'How', 'MeldType', 'Phase']) {
  enums[e] = root.lookupEnum('okrpb.' + e).values;
}

class FrameError extends Error {}

// ---- Frames ---------------------------------------------------------------------------------

// The frame of one message (a protobufjs message or a plain object of type `type`).
function encodeFrame(type, message) {
  return Buffer.from(type.encodeDelimited(type.fromObject(message)).finish());
}

// The length prefix at the start of `buf`: { n: its bytes, length: the body's }, or null if
// it is not complete yet. Throws FrameError for a malformed or oversized prefix.
function readPrefix(buf, maxFrame) {
  let n = 0;
  while (n < buf.length && n < MAX_VARINT && (buf[n] & 0x80)) n++;
  if (n === MAX_VARINT) throw new FrameError(`length prefix longer than ${MAX_VARINT} bytes`);
  if (n === buf.length) return null;
  n++;
  const v = protobuf.Reader.create(buf.subarray(0, n)).uint64();
  const length = typeof v === 'number' ? v : v.toNumber();
  if (length > maxFrame) {
    throw new FrameError(`frame of ${length} bytes exceeds the limit of ${maxFrame}`);
  }
  return { n, length };
}

// Split the first frame off `buf`. Returns null if more bytes are needed, else
// { body, rest }. Throws FrameError for a malformed or oversized length prefix.
function splitFrame(buf, maxFrame = MAX_TO_BOT) {
  const p = readPrefix(buf, maxFrame);
  if (!p || buf.length < p.n + p.length) return null;
  return { body: buf.subarray(p.n, p.n + p.length), rest: buf.subarray(p.n + p.length) };
}

// Decode one frame's body as `type`; FrameError if it does not parse.
function decodeBody(type, body) {
  try {
    return type.decode(body);
  } catch (e) {
    throw new FrameError(`frame of ${body.length} bytes is not a ${type.name}: ${e.message}`);
  }
}

function sleepMs(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

// Reads frames from a file descriptor with blocking reads (the bot has nothing else to do
// while it waits). next() returns the body, or null at a clean end of input.
class FrameReader {
  constructor(fd, maxFrame = MAX_TO_BOT) {
    this.fd = fd;
    this.maxFrame = maxFrame;
    this.buf = Buffer.alloc(0);
    this.chunk = Buffer.alloc(1 << 16);
  }

  next() {
    for (;;) {
      const got = splitFrame(this.buf, this.maxFrame);
      if (got) {
        this.buf = got.rest;
        return got.body;
      }
      // Read until the frame is whole (or at least one more byte while the prefix is not),
      // joining the pieces once.
      const p = readPrefix(this.buf, this.maxFrame);
      const need = p ? p.n + p.length : this.buf.length + 1;
      const parts = [this.buf];
      let have = this.buf.length;
      while (have < need) {
        const n = this.read();
        if (n === 0) {
          if (have === 0) return null;
          throw new FrameError(`end of input inside a frame (${have} bytes pending)`);
        }
        parts.push(Buffer.from(this.chunk.subarray(0, n)));
        have += n;
      }
      this.buf = Buffer.concat(parts, have);
    }
  }

  // One blocking read into this.chunk; 0 at end of input.
  read() {
    for (;;) {
      try {
        return fs.readSync(this.fd, this.chunk, 0, this.chunk.length, null);
      } catch (e) {
        if (e.code === 'EOF') return 0;
        if (e.code !== 'EAGAIN') throw e;
        sleepMs(1);
      }
    }
  }
}

// Writes whole frames to a file descriptor.
function writeAll(fd, data) {
  let off = 0;
  while (off < data.length) {
    try {
      off += fs.writeSync(fd, data, off, data.length - off);
    } catch (e) {
      if (e.code !== 'EAGAIN') throw e;
      sleepMs(1);
    }
  }
}

module.exports = {
  protobuf, root, types, enums, PROTO, MAX_TO_BOT, MAX_FROM_BOT,
  FrameError, encodeFrame, splitFrame, decodeBody, FrameReader, writeAll,
};
