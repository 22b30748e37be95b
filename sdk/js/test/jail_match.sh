#!/usr/bin/env bash
# jail_match.sh BUILD_DIR - okbot/rules inside the arena's jail (ctest sdk_js_rules_match):
# bots/ginbest/ginbest_bot.js, whose every decision calls the WebAssembly helpers, plays a
# whole gin match against the C greedy bot under the default sandbox. The match must complete
# with no error or forfeit for either bot (a helper that cannot find okr.wasm in the jail
# throws, and the arena records that as the bot's error).
set -uo pipefail
BUILD=$(cd "${1:?usage: jail_match.sh BUILD_DIR}" && pwd) || exit 2
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
OUT=$(mktemp -d "${TMPDIR:-/tmp}/okr-js-rules.XXXXXX")
trap 'rm -rf "$OUT"' EXIT
"$BUILD/arena/arena" match --quiet --rules gin --games 4 --seed 16 --out "$OUT/m" \
    --bot "node $SRC/bots/ginbest/ginbest_bot.js" --name ginbest \
    --bot "$BUILD/bots/greedy_bot" --name greedy >"$OUT/log" 2>&1
rc=$?
cat "$OUT/log"
python3 - "$OUT/m/results.json" "$rc" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
problems = [] if sys.argv[2] == "0" else ["arena exit status " + sys.argv[2]]
if not r.get("complete") or r["games"] != 4:
    problems.append("match incomplete: %s games" % r.get("games"))
for b in r["bots"]:
    if sum(b["errors"].values()) or b["forfeits"] or b["disqualified"]:
        problems.append("%s: errors %s, %d forfeits" % (b["name"], b["errors"], b["forfeits"]))
print("\n".join(problems) or "ok: ginbest-js played 4 jailed games with okbot/rules")
sys.exit(1 if problems else 0)
PY
