#!/usr/bin/env bash
# baseline_budget.sh BIN SRC: scripts/baseline_budget.sh turns each frozen baseline into a
# node-budget player: it compiles, plays a whole game with no fault, and plays it again move for
# move (what a deterministic opponent is for); bad arguments get one line and exit 2, no program.
set -euo pipefail
bin=$1 src=$2
cd "$src"
fail() { echo "baseline_budget: $*" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
moves() { python3 -c 'import json,sys; print(json.dumps([m["cell"] for m in json.load(open(sys.argv[1]))["moves"]]))' "$1"; }
lift=(--bank-ms 1000000 --cpu-ms 1000000)

# Bad input: one line on stderr, exit 2, nothing written.
check_bad() {
  local want=$1; shift
  set +e
  scripts/baseline_budget.sh "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  set -e
  ((rc == 2)) || fail "baseline_budget.sh $* exited $rc, not 2"
  [[ $(wc -l <"$tmp/err") == 1 ]] || fail "baseline_budget.sh $*: not one line: $(cat "$tmp/err")"
  grep -q -- "$want" "$tmp/err" || fail "baseline_budget.sh $*: '$want' not in: $(cat "$tmp/err")"
  [[ ! -e $tmp/bad ]] || fail "baseline_budget.sh $* wrote its output"
}
check_bad "expected 3 arguments" hanpang-2026-12 1000
check_bad "no .*nope-2026-12.cpp.gz; one of: hanpang-2026-12" nope-2026-12 1000 "$tmp/bad"
check_bad "NODES '0'" hanpang-2026-12 0 "$tmp/bad"
check_bad "NODES '2k'" hanpang-2026-12 2k "$tmp/bad"
check_bad "is a directory" hanpang-2026-12 1000 "$tmp"

scripts/baseline_budget.sh hanpang-2026-12 2000 "$tmp/hp" >/dev/null
for i in 1 2; do
  line=$("$bin/tactica" judge hanpang --seed 5 --agent "$tmp/hp" "${lift[@]}" --replay "$tmp/hp$i.json")
  echo "$line"
  [[ $line == *"200 actions, MAX_ACTIONS"* ]] || fail "the Hanpang baseline at 2,000 nodes did not survive seed 5: $line"
done
[[ $(moves "$tmp/hp1.json") == "$(moves "$tmp/hp2.json")" ]] || fail "the Hanpang baseline at 2,000 nodes played seed 5 two ways"

scripts/baseline_budget.sh icebreaking-2026-12 3000 "$tmp/ib" >/dev/null
for i in 1 2; do
  line=$("$bin/tactica" judge icebreaking --seed 3 --first "$tmp/ib" --second configs/icebreaking/greedy.toml \
    "${lift[@]}" --replay "$tmp/ib$i.json")
  echo "$line"
  [[ $line == *", FINISHED ("* ]] || fail "the Icebreaking baseline at 3,000 nodes did not finish cleanly: $line"
done
[[ $(moves "$tmp/ib1.json") == "$(moves "$tmp/ib2.json")" ]] || fail "the Icebreaking baseline at 3,000 nodes played seed 3 two ways"
echo "baseline_budget: both baselines play deterministically on a node budget"
