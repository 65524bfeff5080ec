#!/usr/bin/env python3
"""scripts/hanpang_anatomy.py on two hand-made replays (figures worked out by hand), then on
every kind of bad input (exit 2, one line on stderr, nothing on stdout)."""
import json
import os
import shutil
import subprocess
import sys

script, work = sys.argv[1], sys.argv[2]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(os.path.join(work, "replays"))
os.makedirs(os.path.join(work, "empty"))
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


EMPTY = "0" * 8


def board(bottom):
    return [EMPTY] * (15 - len(bottom)) + bottom


def game(first_before, first_group):
    """A cash first, then 21 single tiles taken from the bottom row (1 point each)."""
    tail_before, tail_after = board(["23232323"]), board(["03232323"])
    moves = [{"before": first_before, "after": board([]), "group": first_group,
              "points": len(first_group) ** 2}]
    moves += [{"before": tail_before, "after": tail_after, "group": [[15, 1]], "points": 1}] * 21
    return {"format": "tactica-replay/1", "game": "hanpang", "moves": moves}


# Game A: 16 tiles of colour 1 on the two bottom rows, cashed at once (a cash under --mass).
a = game(board(["11111111", "11111111"]), [[r, c] for r in (14, 15) for c in range(1, 9)])
# Game B: ten rows of "11111122": a mass of 60 (colour 1) beside a group of 20 (colour 2).
b = game(board(["11111122"] * 10), [[r, c] for r in range(6, 16) for c in range(1, 7)])
for name, g in (("a.json", a), ("b.json", b)):
    with open(os.path.join(work, "replays", name), "w") as f:
        json.dump(g, f)


def run(*args):
    return subprocess.run([sys.executable, script, *args], capture_output=True, text=True)


r = run(os.path.join(work, "replays"), "--big", "15", "--mass", "40")
check(r.returncode == 0, f"good input: exit {r.returncode}, stderr {r.stderr!r}")
out = r.stdout
# Scores 256 + 21 = 277 and 3600 + 21 = 3621.
check("games 2, mean score 1,949" in out, "games and mean score")
# Actions 1-20: (256 + 19 + 3600 + 19) / 2; actions 21-22: one point each in both games.
check("points a game by block of 20 actions: 1,947 2" in out, "points by block")
check("cashes of 15+ tiles: 1.0 a game, mean size 38.0, 98.9% of the points" in out, "cashes")
# The 16 on a 16-tile board two rows high; the 60 on an 80-tile board ten rows high.
rows = [line.split() for line in out.splitlines() if line.startswith("  ") and "-" in line]
check(["15-19", "1", "16.0", "2.00", "0%"] in rows, f"bucket 15-19 in {rows}")
check(["60-69", "1", "80.0", "10.00", "0%"] in rows, f"bucket 60-69 in {rows}")
check(len(rows) == 2, "two buckets")
check("at cashes of 40+ tiles (before the last 20 actions, 1): the cashed colour's tiles 60.0, "
      "the other colours' 20.0, the largest other group 20.0 (median 20)" in out, "the mass's board")
check("tiles left at the end: 7.0 a game" in out, "tiles left")
# --mass above every cash: no mass line.
r = run(os.path.join(work, "replays", "a.json"), "--mass", "61")
check(r.returncode == 0 and "at cashes of" not in r.stdout, "--mass 61 shows no mass line")

# Bad input: each one line on stderr naming the problem, exit 2, nothing on stdout.
bad_json = os.path.join(work, "bad.json")
with open(bad_json, "w") as f:
    f.write("{not json")
ice = os.path.join(work, "ice.json")
with open(ice, "w") as f:
    json.dump({"game": "icebreaking", "moves": []}, f)
short = os.path.join(work, "short.json")
with open(short, "w") as f:
    g = json.loads(json.dumps(a))
    g["moves"][3]["before"] = g["moves"][3]["before"][:14]
    json.dump(g, f)
cases = [
    ([os.path.join(work, "missing")], "no such file or directory"),
    ([os.path.join(work, "empty")], "no .json replay"),
    ([bad_json], "not a readable JSON replay"),
    ([ice], "not a Hanpang replay"),
    ([short], "move 4 lacks a 15x8"),
    ([os.path.join(work, "replays"), "--big", "1"], "--big 1"),
]
for args, want in cases:
    r = run(*args)
    lines = r.stderr.strip().splitlines()
    check(r.returncode == 2 and r.stdout == "" and len(lines) == 1 and want in lines[0],
          f"bad input {args[-1]}: exit {r.returncode}, stdout {r.stdout!r}, stderr {r.stderr!r}")

for f in failures:
    print("FAILED:", f)
print(f"{len(failures)} failed" if failures else "all checks passed")
sys.exit(1 if failures else 0)
