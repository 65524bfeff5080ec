#!/usr/bin/env bash
# ice_fit_test.sh FIT_BIN WORK_DIR — tactica-ice-fit end to end on two small boards: it writes
# one CSV row per kept position (targets from the fixed-depth search, terms within their
# bounds), fits the same weights again from that CSV, and refuses bad input with exit 2 and one
# line before any game (registered from bench/CMakeLists.txt, where the tool is built).
set -euo pipefail
fit=$1 work=$2
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "ice_fit_test: $*" >&2; exit 1; }

"$fit" --seeds 101-102 --depth 3 --cells 40-64 --play-budget 3000 --out pos.csv > fit.out 2> fit.err ||
  fail "the small fit failed: $(tail -2 fit.err)"
python3 - pos.csv <<'PY' || fail "pos.csv is not what was asked for"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) >= 10, len(rows)
assert {int(r["seed"]) for r in rows} == {101, 102}
for r in rows:
    n = int(r["cells"])
    assert 40 <= n <= 64, n
    assert abs(float(r["target"])) <= 2 * n         # points still to be shared out
    assert int(float(r["odd"])) == (1 if n % 2 else -1)
    assert int(float(r["parity"])) in (-1, 1)
    assert float(r["tempo"]) >= float(r["gain2"]) >= float(r["gain3"]) or n < 3
    assert 0 <= int(float(r["ncap"])) <= n
    assert int(float(r["safe"])) in (-1, 1)
    f = int(float(r["forced"]))                     # the safe parity times a loss's cost
    assert f == 0 or (f > 0) == (int(float(r["safe"])) > 0), (f, r["safe"])
    h = float(r["hot"])                             # g1 - g2 + g3 ... over the gains above 0
    assert 0 <= h <= float(r["tempo"]), (h, r["tempo"])
PY
grep -q "^  w_tempo" fit.out || fail "no fitted weights printed: $(cat fit.out)"
# The same weights from the CSV (the fit is a function of the rows alone).
"$fit" --from pos.csv > refit.out || fail "--from failed"
cmp <(grep -A20 "fitted weights" fit.out) <(grep -A20 "fitted weights" refit.out) ||
  fail "--from pos.csv fitted other weights than the run that wrote it"

# Bad input: exit 2, one line naming the problem, nothing played.
source "$(dirname "${BASH_SOURCE[0]}")/bad_input.sh"
bad "$fit" "--seeds: bad seed range .10-x." --seeds 10-x
bad "$fit" "--seeds: empty seed list" --seeds ""
bad "$fit" "listed twice" --seeds 3,3
bad "$fit" "give either" --seeds 1 --from pos.csv
bad "$fit" "give either"
bad "$fit" "unknown option" --seeds 1 --deep 3
bad "$fit" "at least 1" --seeds 1 --depth 0
bad "$fit" "expected LO-HI" --seeds 1 --cells 60-20
bad "$fit" "unknown term" --from pos.csv --terms tempo,gian2
bad "$fit" "cannot write it" --seeds 1 --out no-such-dir/pos.csv
bad "$fit" "cannot read it" --from missing.csv
printf 'seed,ply\n1,2\n' > short.csv
bad "$fit" "short.csv:2: expected 18 columns" --from short.csv
bad "$fit" "every seed is held out" --from pos.csv --holdout 101-102
echo "ice_fit_test: ok ($(($(wc -l < pos.csv) - 1)) positions)"
