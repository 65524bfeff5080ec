#!/usr/bin/env bash
# scripts/baseline_budget.sh BASELINE NODES OUT — a frozen baseline (bench/baselines/BASELINE.cpp.gz,
# e.g. icebreaking-2026-12) compiled to OUT with its [time] changed to a node budget of NODES a
# move and no bank or CPU cap, everything else byte for byte the frozen file: an opponent for
# deterministic node-budget matches and gauntlet tunes (`tactica tune --opponent OUT`).
#
# The fused program reads no config, so its time_config() is edited; the script refuses a file
# whose time_config() is not the plain one `tactica fuse` writes. The judge's own limits stay
# yours to lift: pass --bank-ms / --cpu-ms to tactica bench, tourney or tune as for any budget.
#   scripts/baseline_budget.sh icebreaking-2026-12 20000 build/tune-opponents/icebreaking-2026-12-n20000
set -euo pipefail
usage="usage: scripts/baseline_budget.sh BASELINE NODES OUT (e.g. icebreaking-2026-12 20000 build/ib-n20000)"
if (($# != 3)); then
  echo "baseline_budget.sh: expected 3 arguments, got $#; $usage" >&2
  exit 2
fi
name=$1 nodes=$2 out=$3
root=$(cd "$(dirname "$0")/.." && pwd)
gz=$root/bench/baselines/$name.cpp.gz
if [[ ! -f $gz ]]; then
  have=$(cd "$root/bench/baselines" && ls *.cpp.gz 2>/dev/null | sed 's/\.cpp\.gz$//' | tr '\n' ' ' | sed 's/ $//')
  echo "baseline_budget.sh: BASELINE '$name': no $gz; one of: $have" >&2
  exit 2
fi
if [[ ! $nodes =~ ^[1-9][0-9]{0,11}$ ]]; then
  echo "baseline_budget.sh: NODES '$nodes' is not a whole number of nodes from 1; $usage" >&2
  exit 2
fi
if [[ -d $out ]]; then
  echo "baseline_budget.sh: OUT '$out' is a directory; give the program's file name" >&2
  exit 2
fi
orig=$(mktemp --suffix=.cpp) src=$(mktemp --suffix=.cpp)
trap 'rm -f "$orig" "$src"' EXIT
gzip -dc "$gz" >"$orig"
sed "s/^  t\.node_budget = 0ULL;\$/  t.node_budget = ${nodes}ULL;/;
     s/^  t\.bank_ms = 5000;\$/  t.bank_ms = 1000000;/;
     s/^  t\.cpu_cap_ms = 5000;\$/  t.cpu_cap_ms = 1000000;/" "$orig" >"$src"
# Exactly those three lines changed, or the file is not what this script knows how to edit.
changed=$(diff "$orig" "$src" | grep -c '^>' || true)
if [[ $changed != 3 ]]; then
  echo "baseline_budget.sh: $gz: time_config() is not the fused default (node_budget 0, bank 5000, CPU cap 5000); $changed of 3 lines matched" >&2
  exit 2
fi
mkdir -p "$(dirname "$out")"
"${CXX:-g++}" -std=c++20 -O2 -o "$out" "$src"
echo "$out: $name at $nodes nodes a move"
