#!/usr/bin/env bash
# ice_probe_test.sh PROBE_BIN WORK_DIR — tactica-ice-probe end to end on two small boards: every
# position of the last 14 cells is solved, no solved outcome ever moves in favour of the side that
# just moved (exact values cannot), the last one agrees with the game's result, and bad input
# gets exit 2 and one line before any game (registered from bench/CMakeLists.txt).
set -euo pipefail
probe=$1 work=$2
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "ice_probe_test: $*" >&2; exit 1; }

# Weak players (2,000 nodes a move, no solve) err now and then; the probe must still be consistent.
"$probe" --seeds 101-102 --first-budget 2000 --second-budget 2000 --cells 1-14 \
  --solve-budget 4000000 --jobs 2 > probe.out 2> probe.err || fail "the probe failed: $(tail -2 probe.err)"
python3 - probe.out <<'PY' || fail "probe.out is not what was asked for: $(cat probe.out)"
import re, sys
lines = open(sys.argv[1]).read().splitlines()
games = [l for l in lines if l.startswith("seed ")]
assert [int(l.split()[1].rstrip(":")) for l in games] == [101, 102], games
for l in games:
    m = re.match(r"seed \d+: (-?\d+)-(-?\d+) ([ADB]) \|(.*)$", l)
    assert m, l
    a, b, w = int(m[1]), int(m[2]), m[3]
    assert w == ("A" if a > b else "D" if a == b else "B"), l
    probes = m[4].split()
    cells = [int(p[:-1]) for p in probes]
    assert cells and max(cells) <= 14 and cells == sorted(cells, reverse=True), l
    known = [p[-1] for p in probes if p[-1] != "?"]
    assert known, l                          # small endgames are solved
    assert known[-1] == w, l                 # the last solved outcome is the result
summary = "\n".join(lines)
assert "games 2: first won" in summary, summary
assert re.search(r"solved at some position in 1-14 cells: 2;", summary), summary
assert "impossible with exact solves): 0" in summary, summary
PY

# Bad input: exit 2, one line naming the problem, nothing played.
source "$(dirname "${BASH_SOURCE[0]}")/bad_input.sh"
bad "$probe" "--seeds SET is required"
bad "$probe" "--seeds: bad seed range" --seeds 10-x
bad "$probe" "--seeds: empty seed list" --seeds ""
bad "$probe" "unknown option" --seeds 1 --budget 3
bad "$probe" "expected a whole number >= 1" --seeds 1 --first-budget 0
bad "$probe" "expected LO-HI" --seeds 1 --cells 40-26
bad "$probe" "expected a range" --seeds 1 --cells 40
bad "$probe" "at most 72" --seeds 1 --second-solve-at 80
echo "ice_probe_test: ok"
