#!/usr/bin/env bash
# hanpang_fit_test.sh FIT_BIN WORK_DIR — tactica-hanpang-fit end to end on two short games: one
# CSV row per decision position (targets are the points still to come, so they never grow along
# a game; terms within their bounds), the judge's games the same as its in-process ones, the
# same weights again from that CSV, an exact linear target fitted exactly, and bad input
# refused with exit 2 and one line before any game (registered from bench/CMakeLists.txt).
set -euo pipefail
fit=$1 work=$2
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "hanpang_fit_test: $*" >&2; exit 1; }

"$fit" --seeds 2001-2002 --config "$src/configs/hanpang/submit.toml" --play-budget 1500 --jobs 2 \
  --holdout 2002 --left 1-200 --out pos.csv > fit.out 2> fit.err ||
  fail "the small fit failed: $(tail -2 fit.err)"
python3 - pos.csv <<'PY' || fail "pos.csv is not what was asked for"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert {int(r["seed"]) for r in rows} == {2001, 2002}
for seed in (2001, 2002):
    g = [r for r in rows if int(r["seed"]) == seed]
    acts = [int(r["actions"]) for r in g]
    assert acts == list(range(len(g))), acts[:5]       # every decision position, in order
    t = [float(r["target"]) for r in g]
    assert all(a >= b for a, b in zip(t, t[1:])), "points still to come grew"
    assert t[-1] >= 1                                   # the last move scores k^2 >= 1
for r in rows:
    assert int(r["left"]) == 200 - int(r["actions"])
    assert 1 <= float(r["tiles"]) <= 120
    assert float(r["max_sq"]) >= float(r["second_sq"]) >= 0
    assert 0 <= float(r["loose"]) <= float(r["tiles"])
    assert 0 <= float(r["high_cols"]) <= 8 and 1 <= float(r["max_height"]) <= 15
    assert float(r["top_big"]) <= float(r["max_height"])
PY
# In-process play is the judge's: the same config through `tactica bench` on the same node
# budget ends every game with the points and actions the CSV's first position saw coming.
"$(dirname "$fit")/tactica" bench -a "$src/configs/hanpang/submit.toml" --each time.node_budget=1500 \
  --each time.bank_ms=1000000 --bank-ms 1000000 -s 2001-2002 -j 2 -o judged.jsonl --no-progress > bench.out 2>&1 ||
  fail "tactica bench failed: $(tail -2 bench.out)"
python3 - pos.csv judged.jsonl <<'PY' || fail "the judge's games differ from the tool's"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for line in open(sys.argv[2]):
    g = json.loads(line)
    mine = [r for r in rows if int(r["seed"]) == g["seed"]]
    assert float(mine[0]["target"]) == g["score"], (g["seed"], mine[0]["target"], g["score"])
    assert len(mine) == g["actions"], (g["seed"], len(mine), g["actions"])
PY
grep -q "^  eval" fit.out || fail "no fitted weights printed: $(cat fit.out)"
grep -q "held out" fit.out || fail "no held-out error printed: $(cat fit.out)"
# The same weights from the CSV (the fit is a function of the rows alone).
"$fit" --from pos.csv --holdout 2002 --left 1-200 > refit.out || fail "--from failed"
cmp <(grep -A30 "fitted weights" fit.out) <(grep -A30 "fitted weights" refit.out) ||
  fail "--from pos.csv fitted other weights than the run that wrote it"
"$fit" --from pos.csv --terms eval,tiles@late --left 1-200 | grep -q "tiles@late" || fail "x@late not fitted"

# The least squares itself: a target that is an exact function of two terms and the actions
# left (an intercept per ten) gets those weights back, with no error.
python3 - pos.csv exact.csv <<'PY'
import csv, random, sys
rows = list(csv.DictReader(open(sys.argv[1])))
random.seed(7)
with open(sys.argv[2], "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=rows[0].keys())
    w.writeheader()
    for r in rows:
        r["tiles"] = random.randint(1, 120)
        r["sum_sq"] = random.randint(0, 3000)
        left = int(r["left"])
        r["target"] = 3 * r["tiles"] - 0.25 * r["sum_sq"] + 100 * ((left - 1) // 10)
        w.writerow(r)
PY
"$fit" --from exact.csv --terms tiles,sum_sq --left 1-200 > exact.out || fail "the exact fit failed"
grep -Eq "^  tiles +\+3\.0000" exact.out && grep -Eq "^  sum_sq +-0\.2500" exact.out &&
  grep -Eq "fitted 0\.0 /" exact.out || fail "an exact linear target was not fitted: $(cat exact.out)"

# Bad input: exit 2, one line naming the problem, nothing played.
source "$src/tests/fit/bad_input.sh"
bad "$fit" "--seeds: bad seed range .10-x." --seeds 10-x
bad "$fit" "--seeds: empty seed list" --seeds ""
bad "$fit" "give either" --seeds 1 --from pos.csv
bad "$fit" "give either"
bad "$fit" "unknown option" --seeds 1 --budget 3
bad "$fit" "at least 1" --seeds 1 --play-budget 0
bad "$fit" "expected LO-HI" --seeds 1 --left 60-20
bad "$fit" "unknown term 'tils'" --from pos.csv --terms eval,tils
bad "$fit" "the only suffix is @late" --from pos.csv --terms tiles@early
bad "$fit" "no-such.toml" --seeds 1 --config no-such.toml
bad "$fit" "give a hanpang one" --seeds 1 --config "$src/configs/icebreaking/greedy.toml"
bad "$fit" "cannot write it" --seeds 1 --config "$src/configs/hanpang/submit.toml" --out no-such-dir/pos.csv
bad "$fit" "cannot read it" --from missing.csv
printf 'seed,actions\n1,2\n' > short.csv
bad "$fit" "short.csv:2: expected 28 columns" --from short.csv
bad "$fit" "every seed is held out" --from pos.csv --holdout 2001-2002
echo "hanpang_fit_test: ok ($(($(wc -l < pos.csv) - 1)) positions)"
