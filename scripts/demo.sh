#!/usr/bin/env bash
# demo.sh — the default demonstration (see README). Until the harness exists it plays the
# engines' own random games through the micro-benchmarks.
set -euo pipefail
cd "$(dirname "$0")/.."
build/release/bin/tactica-microbench --benchmark_filter='RandomGame' --benchmark_min_time=0.2
