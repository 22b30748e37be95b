#!/usr/bin/env python3
"""archives.py OUT SENTINEL - write the valid and hostile archives of tests/league/unpack.sh
into OUT, with OUT/cases.txt: one line a case, "FILE<TAB>EXPECT<TAB>LIMITS", where EXPECT is
"ok" or a piece of the refusal's reason, and LIMITS is "" (the defaults) or "TOTAL FILE
ENTRIES". SENTINEL is a folder the hostile ones aim at (absolute paths, links, "..").
Also used to make the fuzz target's seed corpus (--corpus OUT: small ones only)."""
import gzip
import io
import os
import random
import stat
import sys
import tarfile
import zipfile

MIB = 1 << 20
RND = random.Random(23)  # the same archives every run


def tar_bytes(members, mode="w:gz"):
    """members: (TarInfo, data or None)"""
    b = io.BytesIO()
    with tarfile.open(fileobj=b, mode=mode, format=tarfile.PAX_FORMAT) as t:
        for info, data in members:
            if data is not None:
                info.size = len(data)
                t.addfile(info, io.BytesIO(data))
            else:
                t.addfile(info)
    return b.getvalue()


def ti(name, type_=tarfile.REGTYPE, mode=0o644, **kw):
    i = tarfile.TarInfo(name)
    i.type = type_
    i.mode = mode
    for k, v in kw.items():
        setattr(i, k, v)
    return i


def zip_bytes(entries, method=zipfile.ZIP_DEFLATED):
    """entries: (name, data, unix mode or None)"""
    b = io.BytesIO()
    with zipfile.ZipFile(b, "w", method) as z:
        for name, data, mode in entries:
            zi = zipfile.ZipInfo(name)
            zi.compress_type = method
            if mode is not None:
                zi.external_attr = mode << 16
                zi.create_system = 3
            z.writestr(zi, data)
    return b.getvalue()


def cases(sentinel):
    bot = b"#!/bin/sh\necho hello\n"
    ok_tar = [
        (ti("bot", mode=0o4755), bot),  # set-uid bit: unpacked 0755
        (ti("lib", tarfile.DIRTYPE, mode=0o777), None),
        (ti("lib/data.txt", mode=0o666), b"weights\n"),
        (ti("./deep/a/b/c.txt"), b"c\n"),
    ]
    yield "valid.tar.gz", tar_bytes(ok_tar), "ok", ""
    yield "valid.tar", tar_bytes(ok_tar, "w"), "ok", ""
    yield "valid.zip", zip_bytes(
        [("bot", bot, 0o100755), ("lib/", b"", 0o40755), ("lib/data.txt", b"weights\n", 0o100644),
         ("deep/a/b/c.txt", b"c\n", None)]), "ok", ""
    # gzip of several members is one stream, as gzip reads it
    half = tar_bytes(ok_tar, "w")
    yield "members.tar.gz", gzip.compress(half[:1024]) + gzip.compress(half[1024:]), "ok", ""

    yield "dotdot.tar.gz", tar_bytes([(ti("../evil"), b"x")]), '".." in the path', ""
    yield "dotdot-deep.tar.gz", tar_bytes([(ti("a/b/../../../sentinel/evil"), b"x")]), \
        '".." in the path', ""
    yield "absolute.tar.gz", tar_bytes([(ti(sentinel + "/evil"), b"x")]), "absolute path", ""
    yield "symlink.tar.gz", tar_bytes([(ti("link", tarfile.SYMTYPE, linkname=sentinel), None),
                                       (ti("link/evil"), b"x")]), "a symbolic link", ""
    yield "symlink-in.tar.gz", tar_bytes([(ti("a"), b"x"),
                                          (ti("b", tarfile.SYMTYPE, linkname="a"), None)]), \
        "a symbolic link", ""
    yield "hardlink.tar.gz", tar_bytes([(ti("hl", tarfile.LNKTYPE, linkname=sentinel + "/keep"),
                                         None)]), "a hard link", ""
    yield "hardlink-in.tar", tar_bytes([(ti("a"), b"x"), (ti("b", tarfile.LNKTYPE, linkname="a"),
                                                          None)], "w"), "a hard link", ""
    yield "chardev.tar", tar_bytes([(ti("null", tarfile.CHRTYPE, devmajor=1, devminor=3), None)],
                                   "w"), "a character device", ""
    yield "blockdev.tar.gz", tar_bytes([(ti("sda", tarfile.BLKTYPE, devmajor=8, devminor=0),
                                         None)]), "a block device", ""
    yield "fifo.tar.gz", tar_bytes([(ti("pipe", tarfile.FIFOTYPE), None)]), "a fifo", ""
    # a zip bomb: 70 MiB of zeros in one entry, about 70 KiB compressed
    yield "bomb.zip", zip_bytes([("zeros", bytes(70 * MIB), None)]), "over the limit", ""
    # ... and spread over files of a tar.gz, each under the file limit
    yield "bomb.tar.gz", tar_bytes([(ti("z%d" % i), bytes(20 * MIB)) for i in range(4)]), \
        "in all", ""
    yield "bigfile.tar.gz", tar_bytes([(ti("big"), bytes(33 * MIB))]), "a file", ""
    yield "bigfile.zip", zip_bytes([("big", bytes(33 * MIB), None)]), "a file", ""
    yield "many.tar.gz", tar_bytes([(ti("f%d" % i), b"") for i in range(4100)]), \
        "more than 4096", ""
    yield "many-dirs.tar.gz", tar_bytes([(ti("d/" * 10 + "f%d" % i), b"") for i in range(20)]), \
        "more than 15", "1000000 1000000 15"
    full = tar_bytes(ok_tar + [(ti("pad"), RND.randbytes(64 << 10))])
    yield "truncated.tar.gz", full[: len(full) // 2], "truncated", ""
    yield "corrupt.tar.gz", full[:200] + bytes(b ^ 0x5A for b in full[200:400]) + full[400:], \
        "corrupt", ""
    yield "truncated.zip", zip_bytes([("a", RND.randbytes(4096), None)])[:-300], "", ""
    yield "garbage.bin", RND.randbytes(3000), "not a .tar.gz", ""
    yield "empty.bin", b"", "empty", ""
    yield "zip-dotdot.zip", zip_bytes([("../evil", b"x", None)]), '".."', ""
    yield "zip-absolute.zip", zip_bytes([(sentinel + "/evil", b"x", None)]), "absolute", ""
    yield "zip-symlink.zip", zip_bytes([("link", sentinel.encode(), 0o120777)]), \
        "a symbolic link", ""
    yield "twice.tar.gz", tar_bytes([(ti("a"), b"1"), (ti("a"), b"2")]), "the same name twice", ""
    yield "file-then-dir.tar.gz", tar_bytes([(ti("a"), b"1"), (ti("a/b"), b"2")]), \
        "is a file", ""
    yield "control.tar.gz", tar_bytes([(ti("bad\nname"), b"1")]), "control character", ""
    yield "deep.tar.gz", tar_bytes([(ti("d/" * 40 + "f"), b"1")]), "deeper than", ""
    yield "long-name.tar.gz", tar_bytes([(ti("d/" * 600 + "f"), b"1")]), "name longer than", ""
    # a pax header of 50 MiB (51 KiB compressed): libarchive's own limit, not our memory
    yield "pax-huge.tar.gz", tar_bytes([(ti("x", pax_headers={"comment": "A" * (50 * MIB)}),
                                         b"1")]), "corrupt archive", ""


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--corpus":
        out = sys.argv[2]
        os.makedirs(out, exist_ok=True)
        for name, data, _, _ in cases("/tmp/okr-sentinel"):
            if data[:2] != b"\x1f\x8b" and data[257:262] == b"ustar":
                # a plain tar without tarfile's padding to 10 KiB: its blocks and the two
                # zero blocks that end it, to fit the fuzzer's 8 KiB inputs
                body = data.rstrip(b"\0")
                data = body + bytes(-len(body) % 512 + 1024)
            if len(data) <= 8192:
                with open(os.path.join(out, name), "wb") as f:
                    f.write(data)
        return
    out, sentinel = sys.argv[1], os.path.abspath(sys.argv[2])
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "cases.txt"), "w") as c:
        for name, data, expect, limits in cases(sentinel):
            with open(os.path.join(out, name), "wb") as f:
                f.write(data)
            c.write("%s\t%s\t%s\n" % (name, expect, limits))


if __name__ == "__main__":
    main()
