#!/usr/bin/env bash
# pip_test.sh BUILD_DIR - `pip install ./sdk/python` works offline and gives both packages:
# a venv in BUILD_DIR (with the system's site packages: setuptools, protobuf), a copy of the
# sources the install reads (so the checkout stays clean), `pip install --no-build-isolation
# --no-index`, then, from outside the repository and without PYTHONPATH, a short game
# through okr and okbot's decide loop fed by okr (docs/python.md "Installing").
set -euo pipefail
SRC=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$(cd "$1" && pwd)
WORK="$BUILD/pip-test"
rm -rf "$WORK"
mkdir -p "$WORK/src/sdk"
cp -r "$SRC/engine" "$SRC/proto" "$WORK/src/"
cp -r "$SRC/sdk/python" "$WORK/src/sdk/python"
/usr/bin/python3 -m venv --system-site-packages "$WORK/venv"
unset PYTHONPATH OKBOT_PB2_DIR
"$WORK/venv/bin/pip" install --no-build-isolation --no-index --quiet --disable-pip-version-check \
    "$WORK/src/sdk/python" >"$WORK/pip.log" 2>&1 || {
    cat "$WORK/pip.log"
    echo "FAIL: pip install ./sdk/python"
    exit 1
}
rm -rf "$WORK/src" # the installed packages must not need the sources any more
cd "$WORK"
"$WORK/venv/bin/python" - <<'PY'
import io, random
import okr, okbot
from okbot import pb

assert "/venv/" in okr.__file__ and "/venv/" in okbot.__file__, (okr.__file__, okbot.__file__)
g = okr.Game("gin", seed=5)
rng = random.Random(1)
while not g.hand_over():
    g.apply(rng.randrange(g.legal_count()))
print("okr: a gin hand ended by", g.hand_result().end)

# okbot's loop, fed a Hello and the decisions of a real laws game; decide() simulates with okr
game = okr.Game("laws", players=3, seed=3)
stream = io.BytesIO()
def put(**kw):
    stream.write(okbot.encode_frame(pb.ToBot(**kw)))
rules = pb.Rules(preset="laws")
for name, value in game.rules.options().items():
    if name != "preset":
        rules.options.add(name=name, value=value)
put(hello=pb.Hello(major=1, minor=0, match_id="m", players=3, rules=rules, bot_name="b"))
put(game_start=pb.GameStart(game_id="g", seat=0, players=3, names=["a", "b", "c"]))
asked = 0
while asked < 5 and not game.hand_over():
    if game.to_act != 0:
        game.apply(rng.randrange(game.legal_count()))
        continue
    v = game.view(0)
    d = pb.Decision(id=asked + 1, time_ms=1000, bank_ms=10000, hard_ms=20000)
    for f in ("seat", "players", "phase", "dealer", "turn_seat", "to_act", "upcard", "hand_no",
              "turns", "discarder", "claim_meld", "upcard_passes"):
        setattr(d.view, f, getattr(v, f))
    d.view.stock_size, d.view.stock_locked = v.stock_size, v.stock_locked
    for f in ("hand", "hand_sizes", "pile", "scores", "concealed", "turns_drawn", "melded_before"):
        getattr(d.view, f).extend(getattr(v, f))
    for m in v.melds:
        pm = d.view.melds.add(owner=m.owner, type=2 if m.type == "run" else 1, lo=m.lo,
                              rank=m.rank, suit=m.suit, cards=m.cards)
        getattr(pm, "as").extend(m.as_)
    for a in game.legal():
        d.legal.add(type=a.type, seat=a.seat, text=a.text)
    put(decision=d)
    game.apply(0)
    asked += 1
put(bye=pb.Bye(reason="done"))
worlds = []

def decide(view, legal, ctx):
    world = okr.determinize(view, rng, rules=ctx, legal=legal)
    worlds.append(world.legal_count())
    return 0

out = io.BytesIO()
okbot.run(decide, stdin=io.BytesIO(stream.getvalue()), stdout=out)
assert len(worlds) == asked and asked > 0, (worlds, asked)
reader = okbot.FrameReader(io.BytesIO(out.getvalue()), okbot.MAX_FROM_BOT)
answers = 0
while (m := reader.read_message(pb.FromBot)) is not None:
    answers += m.WhichOneof("msg") == "decision"
assert answers == asked, (answers, asked)
print("okbot: %d decisions answered from okr worlds" % asked)
PY
echo "PASS: pip install ./sdk/python gives okr and okbot"
