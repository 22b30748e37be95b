# spy_bot.py - the Python twin of spy_bot.c (tests/jail/view.sh): walks what it is shown and
# writes "spy SEE PATH", "spy READ PATH", "spy CWD PATH", then for each --probe=PATH "spy READ"
# or "spy MISS", then "spy DONE" to stderr, and exits 0 without speaking the protocol.
import os
import sys

SKIP = {"/usr", "/lib", "/lib32", "/lib64", "/libx32", "/bin", "/sbin", "/proc", "/sys",
        "/dev", "/etc"}


def say(*words):
    print("spy", *words, file=sys.stderr)


def try_read(p):
    try:
        with open(p, "rb") as f:
            f.read(64)
        say("READ", p)
    except OSError:
        say("MISS", p)


say("CWD", os.getcwd())
for root, dirs, files in os.walk("/"):
    dirs[:] = [d for d in dirs if os.path.join(root, d) not in SKIP]
    for name in dirs + files:
        say("SEE", os.path.join(root, name))
    for name in files:
        try_read(os.path.join(root, name))
for a in sys.argv[1:]:
    if a.startswith("--probe="):
        try_read(a[len("--probe="):])
say("DONE")
