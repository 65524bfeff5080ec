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
bad() {  # EXPECTED-TEXT ARGS...
  local want=$1; shift
  local status=0
  "$probe" "$@" > bad.out 2> bad.err || status=$?
  [[ $status -eq 2 ]] || fail "'$*' exited $status, not 2"
  [[ $(wc -l < bad.err) -eq 1 ]] || fail "'$*' printed $(wc -l < bad.err) lines: $(cat bad.err)"
  grep -q -- "$want" bad.err || fail "'$*': $(cat bad.err)"
  [[ ! -s bad.out ]] || fail "'$*' printed results: $(cat bad.out)"
}
bad "--seeds SET is required"
bad "--seeds: bad seed range" --seeds 10-x
bad "--seeds: empty seed list" --seeds ""
bad "unknown option" --seeds 1 --budget 3
bad "expected a whole number >= 1" --seeds 1 --first-budget 0
bad "expected LO-HI" --seeds 1 --cells 40-26
bad "expected a range" --seeds 1 --cells 40
bad "at most 72" --seeds 1 --second-solve-at 80
echo "ice_probe_test: ok"
