#!/usr/bin/env bash
# demo.sh — the default demonstration (README command 1): the shipped Hanpang submit config on
# the platform's 30 seeds, and a short Icebreaking match of the submit config against greedy,
# both judged as the platform does (real subprocesses, 5,000 ms banks), with their tables.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/release/bin
mkdir -p results
rm -f results/demo-hanpang.jsonl results/demo-icebreaking.jsonl  # a fresh run each time
"$bin/tactica" bench --agent configs/hanpang/submit.toml --seeds 1-30 --out results/demo-hanpang.jsonl
"$bin/tactica" tourney --agent configs/icebreaking/submit.toml --agent configs/icebreaking/greedy.toml \
  --seeds 1-4 --out results/demo-icebreaking.jsonl
