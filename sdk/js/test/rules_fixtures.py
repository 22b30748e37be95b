"""rules_fixtures.py SEED COUNT - random cases for sdk/js/test/rules.test.js, answered by the
Python module okr (the same C engine, compiled natively): JSON on stdout. The JS test asks the
WebAssembly build the same questions and expects the same answers."""
import json
import random
import sys

import okr

seed, count = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(seed)
out = {"gin": [], "melds": [], "values": [], "cards": [], "actions": []}

gin = okr.rules("gin")
for i in range(count):
    # half the hands from a few ranks only, so that they hold melds worth arranging
    pool = rng.sample(range(52), 52 if i % 4 < 2 else 16)
    hand = sorted(pool[: 10 + (i % 2)])
    dw, melds = okr.gin_best(hand, rules=gin)
    case = {"hand": hand, "deadwood": dw, "melds": melds}
    if len(hand) == 11:
        card, dw11, melds11 = okr.gin_best_discard(hand, rules=gin)
        case["discard"] = {"card": card, "deadwood": dw11, "melds": melds11}
    out["gin"].append(case)

presets = ["laws", "parlett", "arlington", "german"]
for i in range(count):
    preset = presets[i % len(presets)]
    r = okr.rules(preset)
    pack = okr.shuffle(rng.getrandbits(63), rules=r)
    hand = sorted(pack[: rng.randint(3, 15)])
    melds = [{"type": m.type, "lo": m.lo, "cards": m.cards, "as": m.as_}
             for m in okr.find_melds(hand, rules=r)]
    out["melds"].append({"preset": preset, "hand": hand, "melds": melds})

for preset in presets + ["gin"]:
    r = okr.rules(preset)
    kinds = range(53) if preset != "gin" else range(52)
    out["values"].append({"preset": preset, "values": [okr.card_value(k, rules=r) for k in kinds]})

for i in range(count):
    hand = [rng.randrange(53) for _ in range(rng.randint(1, 12))]
    out["cards"].append({"kinds": hand, "text": okr.cards_str(hand)})

# every legal action's text in random games of each preset, with the pile's top card
for preset, players in [("gin", 2), ("laws", 3), ("german", 4), ("arlington", 2)]:
    g = okr.Game(preset, players=players, seed=seed + players)
    seen = 0
    while not g.over() and seen < count:
        if g.hand_over():
            g.next_hand()
            continue
        acts = g.legal()
        a = rng.choice(acts)
        top = g.pile[-1] if g.pile else None
        melds = [{"owner": m.owner, "type": m.type, "lo": m.lo, "rank": m.rank, "suit": m.suit,
                  "cards": m.cards, "as": m.as_} for m in g.melds]
        out["actions"].append({"preset": preset, "top": top, "melds": melds, "text": a.text,
                               "type": a.type, "card": a.card, "name": a.name})
        g.apply(a)
        seen += 1

json.dump(out, sys.stdout)
