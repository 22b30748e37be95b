'use strict';
// hostile.js MODE [--tag TAG] - the hostile suite's Node bot: speaks the protocol by hand
// (varint frames; decodes only Decision.id and the number of legal actions) and does one bad
// thing at its first decision (net: at start), then plays legally if still alive. "HB ..."
// lines on stderr.
const fs = require('fs');

const mode = process.argv[2] || 'good';
const log = (s) => fs.writeSync(2, 'HB ' + s + '\n');

function varint(p, i) {
  let v = 0, s = 0;
  while (i < p.length) {
    const b = p[i++];
    v += (b & 0x7f) * 2 ** s;
    s += 7;
    if (b < 0x80) break;
  }
  return [v, i];
}
function* fields(p) {
  let i = 0;
  while (i < p.length) {
    let key;
    [key, i] = varint(p, i);
    const num = Math.floor(key / 8), wt = key & 7;
    if (wt === 0) { let v; [v, i] = varint(p, i); yield [num, wt, v]; }
    else if (wt === 2) { let n; [n, i] = varint(p, i); yield [num, wt, p.subarray(i, i + n)]; i += n; }
    else if (wt === 1) i += 8;
    else if (wt === 5) i += 4;
    else return;
  }
}
function put(v) {
  const out = [];
  while (v >= 0x80) { out.push((v % 128) | 0x80); v = Math.floor(v / 128); }
  out.push(v);
  return Buffer.from(out);
}
const lenf = (num, b) => Buffer.concat([put(num * 8 + 2), put(b.length), b]);
function send(msg) {
  let d = Buffer.concat([put(msg.length), msg]);
  while (d.length) d = d.subarray(fs.writeSync(1, d));
}

const MODES = {
  good() {},
  child() {
    const cp = require('child_process');
    try { log('child_process: OK ' + cp.execSync('id').toString().trim()); }
    catch (e) { log('child_process: ' + (e.code || e.message)); }
  },
  binding() {
    // the internal binding under child_process, without the JS checks around it
    try {
      const r = process.binding('spawn_sync').spawn({
        file: '/bin/true', args: ['/bin/true'], envPairs: [], cwd: '/',
        stdio: [{ type: 'ignore' }, { type: 'ignore' }, { type: 'ignore' }],
      });
      log('process.binding spawn: ' + (r.error ? 'E' + (-r.error) : 'OK pid ' + r.pid));
    } catch (e) { log('process.binding spawn: ' + (e.code || e.message)); }
  },
  mem_heap() {
    const hog = [];
    for (let k = 0; k < 400; k++) hog.push(new Array(1 << 17).fill(k + 0.5)); // ~1 MiB each
    log('allocated ' + hog.length + ' MiB of heap');
  },
  mem_buffer() {
    const hog = [];
    for (let k = 0; k < 400; k++) hog.push(Buffer.alloc(1 << 20, 1));
    log('allocated ' + hog.length + ' MiB of buffers');
  },
};

// net: sockets report asynchronously, so this one runs before the (synchronous) loop and
// starts it when the connection attempt has an outcome
function netThenServe() {
  const net = require('net');
  let done = false;
  const go = (what) => { if (!done) { done = true; log('net.connect: ' + what); serve(); } };
  const s = net.connect(80, '1.1.1.1');
  s.on('error', (e) => go(e.code));
  s.on('connect', () => go('OK'));
  setTimeout(() => go('timeout'), 1000);
}

log('mode ' + mode);
let acted = mode === 'net';
let buf = Buffer.alloc(0);
const chunk = Buffer.alloc(1 << 16);
let rngState = 7;
function serve() {
  for (;;) {
    let n;
    try { n = fs.readSync(0, chunk, 0, chunk.length, null); }
    catch (e) { if (e.code === 'EAGAIN') continue; break; }
    if (n <= 0) break;
    buf = Buffer.concat([buf, chunk.subarray(0, n)]);
    for (;;) {
      let len, i;
      [len, i] = varint(buf, 0);
      if (i >= buf.length && len > 0 || buf.length === 0 || i + len > buf.length) break;
      const f = buf.subarray(i, i + len);
      buf = buf.subarray(i + len);
      for (const [num, , v] of fields(f)) {
        if (num === 1) {
          send(lenf(1, Buffer.concat([put(8), put(1), lenf(3, Buffer.from('hostile-js')), lenf(4, Buffer.from('1.0'))])));
          send(lenf(2, Buffer.alloc(0)));
        } else if (num === 3) {
          let did = 0, legal = 0;
          for (const [n2, w2, v2] of fields(v)) {
            if (n2 === 1 && w2 === 0) did = v2;
            else if (n2 === 3) legal++;
          }
          if (!acted) { acted = true; MODES[mode](); }
          rngState = (rngState * 1103515245 + 12345) % 2147483648;
          const pick = legal ? rngState % legal : 0;
          send(lenf(3, Buffer.concat([put(8), put(did), put(16), put(pick)])));
        } else if (num === 8) {
          process.exit(0);
        }
      }
    }
  }
  process.exit(0);
}

if (mode === 'net') netThenServe();
else serve();
