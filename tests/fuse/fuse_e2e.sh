#!/usr/bin/env bash
# fuse_e2e.sh — the fuse tests that run real programs (two CTest tests, run side by side).
#
#   fuse_e2e.sh judge    BIN_DIR PLUGIN_DIR SOURCE_DIR WORK_DIR CXX SCRIPT_JUDGE STATIC_AGENTS
#     Every config in configs/: `tactica fuse` (twice: the bytes must match; the two submit configs
#     with --compact, as README.md uploads them, and at most 200 KiB), compile the file alone
#     with no -I and no library (-Wall -Wextra -Werror added; the two submit configs with the exact
#     -O2 command of the README, the others at -O1 to spare CI time; a file that differs from
#     another only in comments is compiled once), then play it through
#     `tactica judge` under the platform's limits: Hanpang must end in OVERFLOW or MAX_ACTIONS,
#     Icebreaking (the fused agent against itself) in FINISHED — no INVALID, TIME_LIMIT, CPU_LIMIT
#     or RUNTIME_ERROR.
#
#   fuse_e2e.sh fidelity (same arguments)
#     Every config with a node budget instead of the clock (--set time.node_budget=N, and a bank
#     and CPU cap too large to matter): the fused program, the static tactica-agent-<game>-<plugin>
#     (if STATIC_AGENTS is ON) and tactica-agent with the plugin module each play the same
#     scripted games (fuse_script_judge); their transcripts must be identical, move for move.
#
# JOBS (default 2) compiles and games run at once; FUSE_TEST_ONLY=REGEX keeps the configs whose
# path matches; FUSE_TEST_BUDGET the node budget of the fidelity runs. Prints each phase's time.
set -euo pipefail

mode=$1 bin=$2 plugins=$3 src=$4 work=$5 cxx=$6 script_judge=$7 static_agents=$8
jobs=${JOBS:-2}
budget=${FUSE_TEST_BUDGET:-400}
big=600000  # bank and CPU cap for the fidelity runs: never the limit

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
failures=0

# Runs "$@" as a background job, at most $jobs at once; its status lands in $status_dir.
status_dir=$work/status
run_job() {
  local id=$1
  shift
  while (($(jobs -rp | wc -l) >= jobs)); do wait -n || true; done
  ( if "$@"; then echo 0 >"$status_dir/$id"; else echo 1 >"$status_dir/$id"; fi ) &
}
wait_jobs() {
  wait || true
  local f
  for f in "$status_dir"/*; do
    [[ -e $f ]] || continue
    [[ $(cat "$f") == 0 ]] || fail "job $(basename "$f") failed (see $work)"
  done
  rm -f "$status_dir"/*
}

rm -rf "$work"
mkdir -p "$work" "$status_dir"
cd "$src"
mapfile -t configs < <(LC_ALL=C ls configs/hanpang/*.toml configs/icebreaking/*.toml | grep -E -- "${FUSE_TEST_ONLY:-.}")
((${#configs[@]} > 0)) || { echo "no configs in $src/configs" >&2; exit 1; }

game_of() { basename "$(dirname "$1")"; }
name_of() { echo "$(game_of "$1")-$(basename "$1" .toml)"; }
strategy_of() {
  "$bin/tactica-agent" --config "$1" --plugin-dir "$plugins" --check | sed -n 's/^strategy = "\(.*\)"$/\1/p'
}

# fuse CONFIG OUT [--set ...]: fuse, and fuse again to stdout: the same bytes.
fuse_one() {
  local config=$1 out=$2
  shift 2
  "$bin/tactica" fuse --config "$config" --plugin-dir "$plugins" --out "$out" "$@" >/dev/null 2>"$out.log" ||
    { cat "$out.log" >&2; return 1; }
  # A module older than the sources fused: the two programs would not be the same code.
  ! grep -q "newer than" "$out.log" || { cat "$out.log" >&2; echo "rebuild, then test again" >&2; return 1; }
  "$bin/tactica" fuse --config "$config" --plugin-dir "$plugins" --out - "$@" | cmp -s - "$out" ||
    { echo "fuse of $config is not reproducible" >&2; return 1; }
}

# compile DIR OPT: in DIR, `$cxx -std=c++20 OPT -o agent main.cpp` (+ warnings as errors), quiet.
compile_one() {
  local dir=$1 opt=$2
  (cd "$dir" && "$cxx" -std=c++20 "$opt" -Wall -Wextra -Werror -o agent main.cpp) >"$dir/compile.log" 2>&1 ||
    { echo "compile of $dir/main.cpp failed:" >&2; head -20 "$dir/compile.log" >&2; return 1; }
  [[ ! -s $dir/compile.log ]] || { echo "$dir/main.cpp: compiler output:" >&2; head -20 "$dir/compile.log" >&2; return 1; }
}

phase_fuse_and_compile() {  # $1: sub-folder prefix; the rest: --set arguments
  local prefix=$1
  shift
  local t0 c name opt
  t0=$(now)
  local size
  for c in "${configs[@]}"; do
    name=$(name_of "$c")
    mkdir -p "$work/$prefix$name"
    if [[ $prefix == "" && $(basename "$c") == submit.toml ]]; then
      # The file README.md says to upload: --compact, at most 200 KiB (issue 14).
      fuse_one "$c" "$work/$name/main.cpp" --compact "$@" || fail "fuse --compact $c"
      size=$(wc -c <"$work/$name/main.cpp")
      ((size <= 200 * 1024)) || fail "$c: the fused submit file is $size bytes, over 200 KiB"
      echo "  $name: fused --compact, $size bytes"
    else
      fuse_one "$c" "$work/$prefix$name/main.cpp" "$@" || fail "fuse $c"
    fi
  done
  echo "fuse: ${#configs[@]} configs in $(elapsed "$t0") s"
  # Configs whose files differ only in comments (submit.toml and the strategy config it copies)
  # are compiled once, by the submit config when there is one, and the binary copied.
  t0=$(now)
  local -A unit=()  # code hash -> the folder that compiles it
  local copies=() dir h units=0
  for c in $(printf '%s\n' "${configs[@]}" | grep '/submit\.toml$') $(printf '%s\n' "${configs[@]}" | grep -v '/submit\.toml$'); do
    name=$(name_of "$c")
    dir=$work/$prefix$name
    h=$(grep -v '^//' "$dir/main.cpp" | md5sum | cut -d' ' -f1)
    if [[ -n ${unit[$h]:-} ]]; then
      copies+=("${unit[$h]}|$dir")
      continue
    fi
    unit[$h]=$dir
    units=$((units + 1))
    opt=-O1
    [[ $prefix == "" && $(basename "$c") == submit.toml ]] && opt=-O2
    run_job "compile-$prefix$name" compile_one "$dir" "$opt"
  done
  wait_jobs
  local pair
  for pair in "${copies[@]}"; do
    IFS="|" read -r from dir <<<"$pair"
    cp "$from/agent" "$dir/agent"
  done
  echo "compile: $units distinct files of ${#configs[@]} in $(elapsed "$t0") s ($jobs at once)"
}

# ---- judge: fused files under the platform's limits ------------------------------------------

judge_one() {  # CONFIG: plays its fused agent through tactica judge
  local c=$1 name game agent seed line
  name=$(name_of "$c")
  game=$(game_of "$c")
  agent=$work/$name/agent
  local seeds=(1)
  [[ $(basename "$c") == submit.toml ]] && seeds=(1 2)
  for seed in "${seeds[@]}"; do
    if [[ $game == hanpang ]]; then
      line=$("$bin/tactica" judge hanpang --seed "$seed" --agent "$agent" --label "$name" --json)
      grep -Eq '"verdict":"(OVERFLOW|MAX_ACTIONS)"' <<<"$line" || { echo "$name seed $seed: $line" >&2; return 1; }
    else
      line=$("$bin/tactica" judge icebreaking --seed "$seed" --first "$agent" --second "$agent" \
        --first-label "$name" --second-label "$name-b" --json)
      grep -q '"verdict":"FINISHED"' <<<"$line" || { echo "$name seed $seed: $line" >&2; return 1; }
    fi
    echo "  $line"
  done
}

# ---- fidelity: three builds of one config, one transcript -------------------------------------

fidelity_one() {  # CONFIG
  local c=$1 name game strategy seed side out sets=()
  name=$(name_of "$c")
  game=$(game_of "$c")
  strategy=$(strategy_of "$c")
  sets=(--set "time.node_budget=$budget" --set "time.bank_ms=$big" --set "time.cpu_cap_ms=$big")
  local runs=("1 first" "2 second")
  [[ $game == hanpang ]] && runs=("1 -" "2 -")
  for run in "${runs[@]}"; do
    read -r seed side <<<"$run"
    local args=("$game" "$seed" "$big")
    [[ $game == icebreaking ]] && args+=("$side")
    out=$work/fid-$name/seed$seed
    "$script_judge" "${args[@]}" -- "$bin/tactica-agent" --config "$c" --plugin-dir "$plugins" "${sets[@]}" \
      >"$out.agent.txt" 2>"$out.agent.err" || { echo "$name seed $seed: tactica-agent: $(tail -1 "$out.agent.txt")" >&2; return 1; }
    "$script_judge" "${args[@]}" -- "$work/fid-$name/agent" \
      >"$out.fused.txt" 2>"$out.fused.err" || { echo "$name seed $seed: fused: $(tail -1 "$out.fused.txt")" >&2; return 1; }
    cmp -s "$out.agent.txt" "$out.fused.txt" ||
      { echo "$name seed $seed: the fused program and tactica-agent differ:" >&2; diff "$out.agent.txt" "$out.fused.txt" | head -5 >&2; return 1; }
    if [[ $static_agents == ON ]]; then
      "$script_judge" "${args[@]}" -- "$bin/tactica-agent-$game-$strategy" --config "$c" "${sets[@]}" \
        >"$out.static.txt" 2>"$out.static.err" || { echo "$name seed $seed: static: $(tail -1 "$out.static.txt")" >&2; return 1; }
      cmp -s "$out.agent.txt" "$out.static.txt" ||
        { echo "$name seed $seed: tactica-agent-$game-$strategy and tactica-agent differ:" >&2; diff "$out.agent.txt" "$out.static.txt" | head -5 >&2; return 1; }
    fi
    echo "  $name seed $seed: $(grep -c '^< ' "$out.agent.txt") replies identical"
  done
}

case $mode in
  judge)
    phase_fuse_and_compile ""
    t0=$(now)
    for c in "${configs[@]}"; do run_job "judge-$(name_of "$c")" judge_one "$c"; done
    wait_jobs
    echo "judge: ${#configs[@]} configs played in $(elapsed "$t0") s"
    ;;
  fidelity)
    phase_fuse_and_compile "fid-" --set "time.node_budget=$budget" --set "time.bank_ms=$big" --set "time.cpu_cap_ms=$big"
    t0=$(now)
    for c in "${configs[@]}"; do run_job "fidelity-$(name_of "$c")" fidelity_one "$c"; done
    wait_jobs
    echo "fidelity: ${#configs[@]} configs compared in $(elapsed "$t0") s (node budget $budget)"
    ;;
  *)
    echo "usage: fuse_e2e.sh judge|fidelity BIN_DIR PLUGIN_DIR SOURCE_DIR WORK_DIR CXX SCRIPT_JUDGE STATIC_AGENTS" >&2
    exit 2
    ;;
esac
((failures == 0)) || { echo "$failures failure(s)" >&2; exit 1; }
echo "all passed"
