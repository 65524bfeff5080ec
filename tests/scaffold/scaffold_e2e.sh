#!/bin/bash
# scaffold_e2e.sh SRC TACTICA TACTICA_AGENT CMAKE CXX WORK — what docs/PLUGINS.md promises of
# `tactica new-plugin`: the skeleton builds (tactica_add_plugin, -Werror), passes the conformance
# suite, passes tactica-agent --check, plays both games through `tactica judge`, fuses, compiles
# alone under -Wall -Wextra -Werror and plays the same game as its module on a node budget.
# A Hanpang-only skeleton (--game hanpang) is built and checked alongside.
set -euo pipefail
src=$1 tactica=$2 agent=$3 cmake=$4 cxx=$5 work=$6
rm -rf "$work"
mkdir -p "$work/tree/plugins"
tree=$work/tree
ln -s "$src/core" "$tree/core"
ln -s "$src/cmake" "$tree/cmake"
cp "$src/plugins/CMakeLists.txt" "$tree/plugins/"
cp "$src/tests/scaffold/tree.cmake" "$tree/CMakeLists.txt"
fail() { echo "scaffold_e2e: $*" >&2; exit 1; }

name=scaffold_demo
"$tactica" new-plugin $name --dir "$tree" >/dev/null
"$tactica" new-plugin ${name}_h --dir "$tree" --game hanpang >/dev/null
[ -f "$tree/configs/icebreaking/${name}_h.toml" ] && fail "--game hanpang wrote an Icebreaking config"
# A second run refuses to overwrite.
if "$tactica" new-plugin $name --dir "$tree" 2>/dev/null; then fail "new-plugin overwrote $name"; fi

"$cmake" -S "$tree" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DTACTICA_TESTS="$src/tests" \
  >"$work/configure.log" 2>&1 || { cat "$work/configure.log"; fail "configure failed"; }
"$cmake" --build "$work/build" -j2 --target conformance tactica_$name tactica_${name}_h \
  >"$work/build.log" 2>&1 || { cat "$work/build.log"; fail "build failed"; }
grep -q "warning:" "$work/build.log" && { cat "$work/build.log"; fail "warnings"; }
"$work/build/bin/conformance" || fail "the conformance suite failed"

plugins=$work/build/plugins
export TACTICA_PLUGIN_PATH=$plugins
for cfg in hanpang/$name icebreaking/$name hanpang/${name}_h; do
  "$agent" --config "$tree/configs/$cfg.toml" --check >/dev/null || fail "$cfg.toml --check"
done

field() { sed -n "s/.*\"$1\":\\([^,}]*\\).*/\\1/p"; }
budget=time.node_budget=100000
# fuse_and_compile CONFIG DIR WHAT: CONFIG on the node budget fused into $work/DIR/main.cpp and
# compiled there as the platform does, warning-free, into $work/DIR/agent.
fuse_and_compile() {
  mkdir -p "$work/$2"
  "$tactica" fuse --config "$1" --set $budget --source-dir "$tree" --plugin-dir "$plugins" \
    --out "$work/$2/main.cpp" >/dev/null
  "$cxx" -std=c++20 -O2 -Wall -Wextra -Werror -o "$work/$2/agent" "$work/$2/main.cpp" \
    || fail "$3 does not compile warning-free"
}
for p in $name ${name}_h; do
  cfg=$tree/configs/hanpang/$p.toml
  r1=$("$tactica" judge hanpang --seed 4 --json --agent "$cfg" --set $budget)
  echo "$r1" | grep -Eq '"verdict":"(OVERFLOW|MAX_ACTIONS)"' || fail "$p hanpang: $r1"
  fuse_and_compile "$cfg" "fused-$p" "the fused $p"
  r2=$("$tactica" judge hanpang --seed 4 --json --agent "$work/fused-$p/agent")
  [ "$(echo "$r1" | field score)" = "$(echo "$r2" | field score)" ] \
    || fail "fused $p plays differently: $r1 / $r2"
  [ "$(echo "$r1" | field actions)" = "$(echo "$r2" | field actions)" ] || fail "fused $p actions"
done

cfg=$tree/configs/icebreaking/$name.toml
greedy=$src/configs/icebreaking/greedy.toml
r1=$("$tactica" judge icebreaking --seed 4 --json --first "$cfg" --second "$greedy" --set 1:$budget)
echo "$r1" | grep -q '"verdict":"FINISHED"' || fail "icebreaking: $r1"
fuse_and_compile "$cfg" fused-ice "the fused Icebreaking agent"
r2=$("$tactica" judge icebreaking --seed 4 --json --first "$work/fused-ice/agent" --second "$greedy")
totals() { grep -o '"totals":\[[^]]*\]'; }
[ -n "$(echo "$r1" | totals)" ] && [ "$(echo "$r1" | totals)" = "$(echo "$r2" | totals)" ] \
  || fail "fused icebreaking plays differently: $r1 / $r2"
# fuse --compact on a shipped config (the largest plugin): it still compiles warning-free and
# plays the same game as tactica-agent on a node budget, in fewer bytes.
unset TACTICA_PLUGIN_PATH
cfg=$src/configs/hanpang/submit.toml
mkdir -p "$work/compact"
"$tactica" fuse --config "$cfg" --set time.node_budget=3000 --out "$work/compact/full.cpp" >/dev/null
say=$("$tactica" fuse --compact --config "$cfg" --set time.node_budget=3000 --out "$work/compact/main.cpp")
echo "$say" | grep -q "bytes = .* KiB, compacted from" || fail "fuse --compact does not print the size: $say"
[ "$(wc -c <"$work/compact/main.cpp")" -lt "$(wc -c <"$work/compact/full.cpp")" ] || fail "--compact is not smaller"
echo "$say" | grep -q "$(wc -c <"$work/compact/main.cpp" | sed 's/\(.*\)\(...\)$/\1,\2/;s/^,//') bytes" \
  || fail "the printed size is not the file's: $say"
grep -Eq '^[[:space:]]*$' "$work/compact/main.cpp" && fail "--compact left blank lines"
"$cxx" -std=c++20 -O2 -Wall -Wextra -Werror -o "$work/compact/agent" "$work/compact/main.cpp" \
  || fail "the compact file does not compile warning-free"
r1=$("$tactica" judge hanpang --seed 2 --json --agent "$cfg" --set time.node_budget=3000)
r2=$("$tactica" judge hanpang --seed 2 --json --agent "$work/compact/agent")
[ "$(echo "$r1" | field score)" = "$(echo "$r2" | field score)" ] || fail "compact plays differently: $r1 / $r2"
[ "$(echo "$r1" | field actions)" = "$(echo "$r2" | field actions)" ] || fail "compact actions differ"

echo "scaffold_e2e: ok ($name and ${name}_h: built, conformance, judged, fused; --compact)"
