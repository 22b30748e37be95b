#!/usr/bin/env python3
"""joker.py URL WORDS SEED - plays the human seat of `arena play` (laws) to the end over HTTP,
going for the Joker: it replaces a Joker (RULES 5.2) or takes the pile onto one (4.3 b)
whenever it may, else melds with the Joker, else picks a random legal move. Every move line
the page was sent (the events' words, as the page and the terminal show them) is written to
WORDS, one a line. Exit 0 when the game ended."""
import http.client
import json
import random
import sys
import urllib.parse

url = urllib.parse.urlparse(sys.argv[1])
token = urllib.parse.parse_qs(url.query)["t"][0]
rng = random.Random(int(sys.argv[3]))


def request(method, path, body=None):
    c = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    c.request(method, path, body=body, headers={"X-Okr-Token": token})
    r = c.getresponse()
    data = r.read()
    c.close()
    return r.status, data


words, seen = [], set()
st, version = None, None
while True:
    try:
        code, data = request("GET", "/state" + ("?since=%d" % version if version is not None else ""))
    except OSError:
        break  # the arena finished and closed the page's server
    if code != 200:
        break
    st = json.loads(data)
    version = st["version"]
    for e in st["events"]:
        key = (e.get("hand"), e.get("n", None), e.get("words"))
        if e.get("words") and key not in seen:
            seen.add(key)
            words.append(e["words"])
    if st["over"]:
        break
    d = st["decision"]
    if not d:
        continue
    legal = d["legal"]
    pick = [k for k, a in enumerate(legal) if a["type"] == "replace" or a["text"].lower().startswith("take joker")]
    if not pick:
        pick = [k for k, a in enumerate(legal) if a["type"] == "meld" and "JK" in a["text"].upper()]
    i = pick[0] if pick else rng.randrange(len(legal))
    request("POST", "/act", json.dumps({"id": d["id"], "index": i}))
open(sys.argv[2], "w").write("\n".join(words) + "\n")
sys.exit(0 if st and (st["over"] or st.get("game_end")) else 1)
