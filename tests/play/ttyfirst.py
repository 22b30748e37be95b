#!/usr/bin/env python3
"""ttyfirst.py OUT ARENA ARGS... - runs `ARENA play --tty ARGS...` with its input and output on
pipes and answers every "your move" with 1 (the first legal move), to the game's end; all it
printed goes to OUT. Exit: arena's."""
import os
import subprocess
import sys

p = subprocess.Popen([sys.argv[2], "play", "--tty"] + sys.argv[3:], stdin=subprocess.PIPE,
                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
got, asked = b"", 0
while True:
    b = os.read(p.stdout.fileno(), 65536)
    if not b:
        break
    got += b
    n = got.count(b"your move, ")
    while asked < n:
        asked += 1
        try:
            p.stdin.write(b"1\n")
            p.stdin.flush()
        except BrokenPipeError:
            break
p.stdin.close()
open(sys.argv[1], "wb").write(got)
sys.exit(p.wait())
