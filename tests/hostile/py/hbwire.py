"""hbwire.py - the protocol by hand for the hostile Python bot (docs/protocol.md section 2):
varint frames, decoding only what a bot must echo (Decision.id, the number of legal
actions). No protobuf library, no SDK: the hostile suite tests the jail, not the SDK.
Imported from the bot's own folder, so importing it also tries to write __pycache__."""
import os
import sys


def _varint(p, i):
    v = s = 0
    while i < len(p):
        b = p[i]
        i += 1
        v |= (b & 0x7F) << s
        s += 7
        if b < 0x80:
            break
    return v, i


def fields(p):
    """(number, wire type, value or bytes) of every field of a message"""
    i = 0
    while i < len(p):
        key, i = _varint(p, i)
        num, wt = key >> 3, key & 7
        if wt == 0:
            v, i = _varint(p, i)
            yield num, wt, v
        elif wt == 2:
            n, i = _varint(p, i)
            yield num, wt, p[i:i + n]
            i += n
        elif wt == 1:
            i += 8
        elif wt == 5:
            i += 4
        else:
            return


def _put(v):
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def _len(num, b):
    return _put(num << 3 | 2) + _put(len(b)) + b


class Wire:
    def __init__(self):
        self.inp = os.fdopen(0, "rb", buffering=0)
        self.out = 1

    def _read(self, n):
        b = b""
        while len(b) < n:
            c = self.inp.read(n - len(b))
            if not c:
                return None
            b += c
        return b

    def frame(self):
        v = s = 0
        for _ in range(10):
            c = self._read(1)
            if c is None:
                return None
            v |= (c[0] & 0x7F) << s
            s += 7
            if c[0] < 0x80:
                return self._read(v)
        return None

    def send(self, msg):
        data = _put(len(msg)) + msg
        while data:
            n = os.write(self.out, data)
            data = data[n:]

    def identify(self, name):
        ident = _put(1 << 3) + _put(1) + _len(3, name.encode()) + _len(4, b"1.0")
        self.send(_len(1, ident))
        self.send(_len(2, b""))

    def choice(self, did, index):
        self.send(_len(3, _put(1 << 3) + _put(did) + _put(2 << 3) + _put(index)))


def log(*a):
    print("HB", *a, file=sys.stderr, flush=True)
