#!/usr/bin/env bash
# tune_test.sh PART BIN SYNTH_PLUGIN_DIR SRC_DIR WORK_DIR — `tactica tune` end to end with the
# synth test plugin (synthplug.cpp: strength a known function of x, y, n, best at 7, -1, 12).
# Runs compared game for game use --node-budget (synth ignores it, but the agent then plays
# without a clock, so a loaded machine cannot make its watchdog answer for it).
#   optimum   SPSA and CMA-ES, both games, reach the optimum from (2, 3, 30)
#   resume    a run stopped (SIGTERM, or SIGINT to its whole tree) again and again and resumed gives the same history as an
#             uninterrupted one; a second run on a directory in use is refused
#   bad       every bad input exits 2 with its line, before any game
#   parallel  games through GNU parallel (-S :) give the same history as local workers
set -euo pipefail
part=$1 bin=$2 synth=$3 src=$4 work=$5
export TACTICA_PLUGIN_PATH=$synth
tactica=$bin/tactica
cfg=$src/configs
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "tune_test($part): $*" >&2; exit 1; }

# dist DIR: the normalized distance of best.toml's values to the optimum.
dist() {
  python3 - "$1" <<'PY'
import re, sys, math
text = open(sys.argv[1] + "/best.toml").read()
v = {k: float(re.search(r"^%s\s*=\s*(\S+)" % k, text, re.M).group(1)) for k in ("x", "y", "n")}
print("%.4f" % math.sqrt(((v["x"] - 7) / 10) ** 2 + ((v["y"] + 1) / 10) ** 2 + ((v["n"] - 12) / 40) ** 2))
PY
}
# same A B: the two runs' history.jsonl agree on everything but the time a step took (and the
# other processes' load while it was played, recorded on the clock only).
same() {
  python3 - "$1/history.jsonl" "$2/history.jsonl" <<'PY'
import json, sys
def load(p):
    out = []
    for line in open(p):
        h = json.loads(line); h.pop("time_s", None); h.pop("others_load", None); out.append(h)
    return out
a, b = load(sys.argv[1]), load(sys.argv[2])
if a != b:
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            print("step %d differs:\n %s\n %s" % (i + 1, x, y)); break
    else:
        print("lengths differ: %d vs %d" % (len(a), len(b)))
    sys.exit(1)
print("same %d steps" % len(a))
PY
}
converges() {  # NAME ARGS...: a run from the start (distance 0.707) must end within 0.2
  local name=$1; shift
  "$tactica" tune "$@" -o "$name" --no-progress -j 2 > "$name.out" 2> "$name.err" ||
    fail "$name: exit $? ($(tail -1 "$name.err"))"
  local d; d=$(dist "$name")
  echo "$name: distance to the optimum $d (start 0.7071)"
  python3 -c "import sys; sys.exit(0 if $d < 0.2 else 1)" || fail "$name did not converge: $d"
  "$bin/tactica-agent" --config "$name/best.toml" --check > /dev/null || fail "$name/best.toml fails --check"
  grep -q "Made by tactica tune" "$name/best.toml" || fail "$name/best.toml does not say how it was made"
  grep -q "check it on other seeds: tactica" "$name.out" || fail "$name prints no check command"
  # ... on seeds it was not tuned on (1-200 here) and clear of the report seeds (1-30, 501-600)
  grep -Eq "check it on other seeds: .* --seeds 1001-1(100|300)( |$)" "$name.out" ||
    fail "$name: the check command's seeds: $(grep 'check it on' "$name.out")"
}

case $part in
optimum)
  P=(-p x -p y -p n --seeds 1-200 --node-budget 1000)
  converges spsa-hanpang --agent "$cfg/synth-hanpang.toml" "${P[@]}" --batch 4 -n 150 \
    --plot plots/spsa-hanpang.svg
  python3 - plots/spsa-hanpang.svg <<'PY' || fail "the plot is not a well-formed SVG with a line per parameter"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
lines = root.findall("{http://www.w3.org/2000/svg}polyline")
assert len(lines) == 2 + 3, len(lines)   # objective, its running mean, x, y, n
assert all(len(l.get("points").split()) == 150 for l in lines)
PY
  converges spsa-icebreaking --agent "$cfg/synth-icebreaking.toml" "${P[@]}" --batch 4 -n 100
  converges cmaes-hanpang --agent "$cfg/synth-hanpang.toml" "${P[@]}" --batch 8 -n 30 --method cmaes
  converges cmaes-icebreaking --agent "$cfg/synth-icebreaking.toml" "${P[@]}" --batch 4 -n 25 \
    --method cmaes --opponent "$cfg/synth-icebreaking-strong.toml"
  [[ $(wc -l < spsa-hanpang/history.jsonl) -eq 150 ]] || fail "spsa-hanpang: not 150 history lines"
  [[ $(wc -l < spsa-hanpang/games.jsonl) -eq 1200 ]] || fail "spsa-hanpang: not 1200 games"
  ;;
resume)
  for m in spsa cmaes; do
    args=(--agent "$cfg/synth-icebreaking.toml" -p x -p y=-5:5 -p n=0:40 --seeds 1-50 --batch 3
          -n 12 --method "$m" --seed 7 --node-budget 1000 --no-progress -j 2)
    "$tactica" tune "${args[@]}" -o "$m-whole" > /dev/null 2>&1 || fail "$m-whole failed"
    "$tactica" tune "${args[@]}" -o "$m-cut" > /dev/null 2>&1 &
    pid=$!
    sleep 0.4
    kill -TERM "$pid" 2>/dev/null || true
    wait "$pid" && status=0 || status=$?
    # 130: stopped cleanly; 143: killed before tune set up its handler (nothing written yet,
    # or only whole lines: both must resume)
    [[ $status -eq 130 || $status -eq 143 || $status -eq 0 ]] || fail "$m-cut: stopped run exited $status"
    [[ -e $m-cut/run.json ]] || "$tactica" tune "${args[@]}" -o "$m-cut" > /dev/null 2>&1 ||
      fail "$m-cut: a fresh start after an early kill failed"
    stops=0
    while :; do
      "$tactica" tune --resume "$m-cut" --no-progress -j 2 > "$m-resume.out" 2>&1 &
      pid=$!
      sleep 0.3
      # Every other stop signals the whole process tree, as `pkill -f "tactica tune"` or a
      # service manager does: the agents' keepers die too, and the games they end then must
      # not be kept as faults.
      if ((stops % 2)); then
        kill -INT "$pid" 2>/dev/null && ((++stops)) || true
        pkill -INT -P "$pid" 2>/dev/null || true
      else
        kill -TERM "$pid" 2>/dev/null && ((++stops)) || true
      fi
      wait "$pid" && status=0 || status=$?
      [[ $status -eq 0 ]] && break
      [[ $status -eq 130 || $status -eq 143 ]] ||
        fail "$m: resumed run exited $status: $(tail -3 "$m-resume.out")"
    done
    echo "$m: stopped and resumed $stops more times"
    same "$m-whole" "$m-cut" || fail "$m: the resumed run's history differs"
    # best.toml: the same config (its comments name the run's directory)
    cmp <(grep -v '^#' "$m-whole/best.toml") <(grep -v '^#' "$m-cut/best.toml") ||
      fail "$m: best.toml differs"
  done
  # A second run on a directory in use is refused. (The first has no -j: it plays on as many
  # workers as there are cores, as its help says.)
  "$tactica" tune --agent "$cfg/synth-hanpang.toml" -p x --seeds 1-50 -n 400 -o busy --no-progress \
    > /dev/null 2> busy-run.err &
  pid=$!
  for _ in $(seq 100); do [[ -s busy/run.json ]] && break; sleep 0.1; done  # it has begun
  "$tactica" tune --resume busy > busy.out 2>&1 && status=0 || status=$?
  for _ in $(seq 100); do grep -q "local workers" busy-run.err && break; sleep 0.1; done
  kill -TERM "$pid"; wait "$pid" || true
  [[ $status -eq 2 ]] || fail "a second run on a busy directory exited $status"
  grep -q "in use by another tactica tune" busy.out || fail "busy: $(cat busy.out)"
  grep -q "on $(getconf _NPROCESSORS_ONLN) local workers" busy-run.err ||
    fail "tune without -j: $(head -1 busy-run.err) (expected $(getconf _NPROCESSORS_ONLN) workers)"
  ;;
bad)
  H=$cfg/synth-hanpang.toml I=$cfg/synth-icebreaking.toml
  printf 'game = "hanpang"\nstrategy = "synth"\n[params]\nx = 2\ndeph = 3\n' > typo.toml
  mkdir -p other && echo '{}' > other/run.json
  mkdir -p full && echo x > full/file
  check() {  # EXPECTED-TEXT ARGS...
    local want=$1; shift
    local out status
    out=$("$tactica" tune "$@" -o bad-run --no-progress 2>&1) && status=0 || status=$?
    [[ $status -eq 2 ]] || fail "exit $status, not 2, for: $* ($out)"
    [[ $(printf '%s\n' "$out" | wc -l) -eq 1 ]] || fail "more than one line for: $* ($out)"
    [[ $out == *"$want"* ]] || fail "for: $*: '$out' does not say '$want'"
    [[ ! -e bad-run/games.jsonl ]] || fail "games were played for: $*"
    echo "ok: $out"
  }
  check "has no hanpang parameter 'z'" --agent "$H" -p z
  check "outside the declared range; allowed: real 0" --agent "$H" -p x=-1:5
  check "outside the declared range; allowed: integer 0..40" --agent "$H" -p n=0:41
  check "'flag' is a boolean" --agent "$H" -p flag
  check "LO must be below HI" --agent "$H" -p x=5:5
  check "expected NAME=LO:HI" --agent "$H" -p x=1-5
  check "give whole bounds" --agent "$H" -p n=1.5:9
  check "is given twice" --agent "$H" -p x -p x=1:2
  check "no --param" --agent "$H"
  check "empty seed list" --agent "$H" -p x --seeds " "
  check "bad seed" --agent "$H" -p x --seeds -3
  check "more than the 2 seeds" --agent "$H" -p x --seeds 1-2 --batch 3
  check "unknown; allowed: spsa, cmaes" --agent "$H" -p x --method anneal
  check "needs at least 5" --agent "$H" -p x --method cmaes --population 3
  check "no such file" --agent missing.toml -p x
  check "tune needs a config" --agent "$bin/tactica" -p x
  check "deph" --agent typo.toml -p x
  check "--opponent is for Icebreaking" --agent "$H" -p x --opponent "$I"
  check "is a hanpang config" --agent "$I" -p x --opponent "$H"
  check "no such file" --agent "$I" -p x --opponent nothere.toml
  out=$("$tactica" tune --agent "$H" -p x -o other --no-progress 2>&1) && s=0 || s=$?
  [[ $s -eq 2 && $out == *"holds another tune run"* ]] || fail "other run: $s $out"
  out=$("$tactica" tune --agent "$H" -p x -o full --no-progress 2>&1) && s=0 || s=$?
  [[ $s -eq 2 && $out == *"not an empty directory"* ]] || fail "full dir: $s $out"
  out=$("$tactica" tune --resume nowhere 2>&1) && s=0 || s=$?
  [[ $s -eq 2 && $out == *"no such directory"* ]] || fail "resume nowhere: $s $out"
  "$tactica" tune --agent "$H" -p x --seeds 1-4 --batch 2 -n 1 -o one --no-progress > /dev/null 2>&1
  out=$("$tactica" tune --resume one -p y 2>&1) && s=0 || s=$?
  [[ $s -eq 2 && $out == *"drop --param"* ]] || fail "resume with options: $s $out"
  cp "$H" edited.toml
  "$tactica" tune --agent edited.toml -p x --seeds 1-4 --batch 2 -n 2 -o edit --no-progress > /dev/null 2>&1 &
  # Stop it once it has begun (run.json written; on a loaded machine that takes more than a
  # moment), then edit the config it was started from.
  pid=$!
  for _ in $(seq 100); do [[ -s edit/run.json ]] && break; sleep 0.1; done
  kill -TERM $pid 2>/dev/null || true; wait $pid || true
  echo "# edited" >> edited.toml
  out=$("$tactica" tune --resume edit 2>&1) && s=0 || s=$?
  [[ $s -eq 2 && $out == *"changed since this run began"* ]] || fail "edited config: $s $out"
  echo "every bad input refused"
  ;;
parallel)
  command -v parallel > /dev/null || fail "GNU parallel is not installed (scripts/setup.sh --tests)"
  args=(--agent "$cfg/synth-hanpang.toml" -p x -p y -p n --seeds 1-40 --batch 4 -n 8 --seed 3
        --node-budget 1000 --no-progress)
  "$tactica" tune "${args[@]}" -o local -j 2 > /dev/null 2>&1 || fail "local run failed"
  "$tactica" tune "${args[@]}" -o gnu --sshlogin : -j 2 > gnu.out 2> gnu.err ||
    fail "parallel run failed: $(tail -2 gnu.err)"
  grep -q "GNU parallel -S :" gnu.err || fail "the run did not say it used GNU parallel"
  same local gnu || fail "GNU parallel's history differs from local workers'"
  args=(--agent "$cfg/synth-icebreaking.toml" -p x -p n --seeds 1-40 --batch 2 -n 5 --method cmaes
        --node-budget 1000 --no-progress)
  "$tactica" tune "${args[@]}" -o local-i -j 2 > /dev/null 2>&1 || fail "local icebreaking run failed"
  "$tactica" tune "${args[@]}" -o gnu-i --sshlogin : -j 2 > /dev/null 2>&1 || fail "parallel icebreaking run failed"
  same local-i gnu-i || fail "GNU parallel's Icebreaking history differs"
  ;;
*) fail "unknown part" ;;
esac
echo "tune_test($part): passed"
