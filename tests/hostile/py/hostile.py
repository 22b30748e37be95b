"""hostile.py MODE [--tag TAG] [--arg X]... - the hostile suite's Python bot: speaks the
protocol (hbwire, by hand) and does one bad thing at its first decision, then, if still
alive, plays legally. Lines "HB <what>: <result>" on stderr tell the test what it saw."""
import errno
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hbwire  # noqa: E402  (from the bot's folder: also tries to write __pycache__)
from hbwire import log  # noqa: E402

mode = sys.argv[1] if len(sys.argv) > 1 else "good"
tag = "okhb"
args = []
i = 2
while i < len(sys.argv):
    if sys.argv[i] == "--tag":
        tag = sys.argv[i + 1]
    elif sys.argv[i] == "--arg":
        args.append(sys.argv[i + 1])
    i += 2


def err(e):
    return errno.errorcode.get(getattr(e, "errno", None) or 0, type(e).__name__)


def attempt(what, fn):
    try:
        fn()
        log("%s: OK" % what)
    except Exception as e:  # the point is to see which one
        log("%s: %s %s" % (what, err(e), type(e).__name__))


def m_connect():
    import socket
    attempt("connect 1.1.1.1:80", lambda: socket.create_connection(("1.1.1.1", 80), timeout=0.5))
    port = int(args[0]) if args else 9
    attempt("connect 127.0.0.1", lambda: socket.create_connection(("127.0.0.1", port), timeout=0.5))
    t0 = time.monotonic()
    attempt("getaddrinfo", lambda: socket.getaddrinfo("example.com", 80))
    log("getaddrinfo took %d ms" % ((time.monotonic() - t0) * 1000))


def m_write():
    import tempfile
    here = os.path.dirname(os.path.abspath(__file__))
    for d in [here, ".", "/", "/tmp"]:
        attempt("write %s" % ("<bot dir>" if d == here else d),
                lambda: open(os.path.join(d, tag + "-w"), "w").write("x"))
    attempt("tempfile", lambda: tempfile.mkstemp())
    log("pycache exists: %s" % os.path.exists(os.path.join(here, "__pycache__")))


def m_ctypes():
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    r = libc.syscall(101, 16, 1, 0, 0)  # ptrace(PTRACE_ATTACH, 1)
    log("ctypes ptrace: %d %s" % (r, errno.errorcode.get(ctypes.get_errno(), "")))


def m_fork():
    pid = os.fork()
    if pid == 0:
        time.sleep(1000)
    log("os.fork: OK")


def m_subprocess():
    import subprocess
    attempt("subprocess", lambda: subprocess.run(["/bin/true"]))


def m_mp():
    import multiprocessing
    def pool():
        with multiprocessing.Pool(2) as p:
            p.map(abs, [1, 2])
    attempt("multiprocessing", pool)


def m_mem():
    hog = []
    for k in range(400):
        hog.append(bytearray(b"x" * (1 << 20)))
    log("allocated %d MiB" % len(hog))


def m_fds_env():
    log("fds: %s" % " ".join(sorted(os.listdir("/proc/self/fd"), key=int)))
    for k, v in sorted(os.environ.items()):
        log("env %s=%s" % (k, v))
    log("env end")


MODES = {"good": lambda: None, "connect": m_connect, "write": m_write, "ctypes": m_ctypes,
         "fork": m_fork, "subprocess": m_subprocess, "mp": m_mp, "mem": m_mem,
         "fds_env": m_fds_env}


def main():
    log("mode %s" % mode)
    if mode == "fds_env":
        m_fds_env()
    w = hbwire.Wire()
    rng = random.Random(7)
    acted = False
    while True:
        f = w.frame()
        if f is None:
            break
        for num, wt, v in hbwire.fields(f):
            if num == 1:
                w.identify("hostile-py")
            elif num == 3:
                did, legal = 0, 0
                for n2, w2, v2 in hbwire.fields(v):
                    if n2 == 1 and w2 == 0:
                        did = v2
                    elif n2 == 3:
                        legal += 1
                if not acted:
                    acted = True
                    if mode != "fds_env":
                        MODES[mode]()
                w.choice(did, rng.randrange(legal) if legal else 0)
            elif num == 8:
                return


main()
