#!/usr/bin/env python3
"""check-rooms.py - the rooms of the project and which way their includes may point.

    python3 scripts/check-rooms.py [SOURCE_DIR]

A room is a folder with one job (arena/README.md). From the bottom up:

    engine < proto < util < jail < match < tour < league < view < web < play < live < lweb < cli

A file may include headers of its own room and of the rooms below it, never above: the engine
includes only the engine, nothing under arena/ includes arena/cli/, the jail knows nothing of
matches. The C SDK (sdk/c) sits on proto and the engine, the Python module okr
(sdk/python/okr) on the engine alone, the example bots on the SDK; bench/
may use any room but cli; a test folder tests/ROOM may use ROOM and what is below it.

Also refused, each with file:line:
- a circle of includes between the files of one room (x.c and x.h count as one file), such as
  frame.c -> fastpack.h and fastpack.c -> frame.h;
- a quoted include that names no file of the project;
- fork, exec, clone, posix_spawn, popen or system called outside arena/jail/ (only the jail
  starts processes; the engine, proto and every other room never do).

Exit status 0 when all is well, 1 with one line per problem."""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from csource import blank  # noqa: E402  comments and literals blanked, lines kept

# Rooms from the bottom up: a room may include itself and every room before it.
ORDER = ["engine", "proto", "util", "jail", "match", "tour", "league", "view", "web", "play",
         "live", "lweb", "cli"]
ROOM_DIRS = {
    "engine": "engine",
    "proto": "proto",
    "util": "arena/util",
    "jail": "arena/jail",
    "match": "arena/match",
    "tour": "arena/tour",
    "league": "arena/league",
    "view": "arena/view",
    "web": "arena/web",
    "play": "arena/play",
    "live": "arena/live",
    "lweb": "arena/lweb",
    "cli": "arena/cli",
    "sdk": "sdk/c",
    "pyokr": "sdk/python/okr",
    "bots": "bots",
}
BELOW = {room: set(ORDER[: i + 1]) for i, room in enumerate(ORDER)}
BELOW["sdk"] = {"sdk", "proto", "engine"}
BELOW["bots"] = {"bots", "sdk", "proto", "engine"}
BELOW["pyokr"] = {"pyokr", "engine"}  # the Python module (import okr) sits on the engine only

# Folders that are not rooms but are checked: what each may include.
USERS = {
    "bench": set(ORDER) - {"cli"} | {"sdk"},
    "tests/engine": BELOW["engine"],
    "tests/proto": BELOW["proto"],
    "tests/jail": BELOW["jail"],
    "tests/match": BELOW["match"],
    "tests/tour": BELOW["tour"],
    "tests/league": BELOW["league"],
    "tests/view": BELOW["view"],
    "tests/web": BELOW["web"],
    "tests/play": BELOW["play"],
    "tests/live": BELOW["live"],
    "tests/lweb": BELOW["lweb"],
    "tests/cli": BELOW["cli"],
    "tests/sdk": BELOW["sdk"],
    "tests/hostile": BELOW["sdk"],
    "tests/helpers": BELOW["sdk"],
}
for _folder in USERS:  # each may use its own files, and a test the shared test helpers
    USERS[_folder] = USERS[_folder] | {_folder} | ({"tests/helpers"} if _folder.startswith("tests/") else set())

# Where the build looks for headers (the CMakeLists' include directories), in order.
INCLUDE_ROOTS = ["arena", "proto", "engine/include", "engine/src", "sdk/c/include", "bots/strong"]
# Generated into the build folder by protoc-c (proto/CMakeLists.txt).
GENERATED = {"okr.pb-c.h": "proto"}

SOURCE_EXT = (".c", ".h", ".cpp", ".hpp", ".cc")
INCLUDE = re.compile(r'^\s*#\s*include(?:_next)?\s*([<"])([^>"]+)[>"]')
STARTS = re.compile(r"\b(fork|vfork|clone|clone3|execve|execveat|execv|execvp|execvpe|execl|"
                    r"execlp|execle|fexecve|posix_spawn|posix_spawnp|popen|system)\s*\(")


def room_of(rel):
    """The room (or checked folder) a path belongs to, by its longest folder prefix."""
    best, best_len = None, -1
    for name, d in list(ROOM_DIRS.items()) + [(k, k) for k in USERS]:
        if (rel == d or rel.startswith(d + "/")) and len(d) > best_len:
            best, best_len = name, len(d)
    return best


def main():
    src = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                          os.path.join(os.path.dirname(__file__), ".."))
    problems = []
    files = []
    for top in list(ROOM_DIRS.values()) + list(USERS):
        base = os.path.join(src, top)
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            for f in sorted(filenames):
                if f.endswith(SOURCE_EXT):
                    rel = os.path.relpath(os.path.join(dirpath, f), src)
                    if room_of(rel) == room_of(os.path.relpath(dirpath, src) + "/x") and \
                            rel not in files:
                        files.append(rel)

    def resolve(rel, quoted, name):
        """The project path an include names, a generated header's room, or None (system)."""
        here = os.path.dirname(rel)
        tries = ([os.path.join(here, name)] if quoted else []) + \
                [os.path.join(r, name) for r in INCLUDE_ROOTS]
        for t in tries:
            t = os.path.normpath(t)
            if os.path.isfile(os.path.join(src, t)):
                return t
        if name in GENERATED:
            return "@" + GENERATED[name]
        return None

    edges = {}  # module -> {module: (file, line)} within one room
    n_includes = 0
    for rel in files:
        room = room_of(rel)
        allowed = BELOW.get(room) or USERS.get(room)
        with open(os.path.join(src, rel), encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        for lineno, line in enumerate(text.split("\n"), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            quoted, name = m.group(1) == '"', m.group(2)
            target = resolve(rel, quoted, name)
            if target is None:
                if quoted:
                    problems.append(f"{rel}:{lineno}: #include \"{name}\": no such file in the "
                                    f"project (looked beside it and in {', '.join(INCLUDE_ROOTS)})")
                continue
            n_includes += 1
            to_room = target[1:] if target.startswith("@") else room_of(target)
            if to_room is None:
                continue
            if to_room not in allowed:
                problems.append(
                    f"{rel}:{lineno}: includes {name} ({to_room}): {room} may include only "
                    f"{', '.join(sorted(allowed, key=lambda r: (ORDER + [r]).index(r)))} "
                    f"(rooms, bottom up: {' < '.join(ORDER)})")
            if to_room == room and room in ROOM_DIRS and not target.startswith("@"):
                a, b = os.path.splitext(rel)[0], os.path.splitext(target)[0]
                if a != b:
                    edges.setdefault(a, {}).setdefault(b, (rel, lineno))
        if room in BELOW and room != "jail":
            code = blank(text, keep_strings=False)
            for lineno, line in enumerate(code.split("\n"), 1):
                m = STARTS.search(line)
                if m and not line[: m.start()].rstrip().endswith((".", "->")):  # a member named so is not libc's
                    problems.append(f"{rel}:{lineno}: calls {m.group(1)}(): only arena/jail/ "
                                    f"starts processes (the {room} room asks the jail)")

    problems += circles(edges)
    for p in problems:
        print(p)
    if problems:
        print(f"check-rooms: {len(problems)} problem(s) in {len(files)} files", file=sys.stderr)
        return 1
    print(f"check-rooms: {len(files)} files, {n_includes} includes: every room includes only "
          f"itself and the rooms below it; no circle; only the jail starts processes")
    return 0


def circles(edges):
    """Tarjan's strongly connected components of the module graph: each component of more
    than one module is a circle, reported with the include that starts each of its steps."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, {})):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    problems = []
    for comp in out:
        members = set(comp)
        steps = [f"{f}:{ln} -> {b}" for a in comp for b, (f, ln) in sorted(edges[a].items())
                 if b in members]
        problems.append(f"{steps[0].split(' -> ')[0]}: circle of includes between "
                        f"{', '.join(comp)}: " + "; ".join(steps) +
                        " (one of them should own what both use)")
    return problems


if __name__ == "__main__":
    sys.exit(main())
