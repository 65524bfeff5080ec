#!/usr/bin/env bash
# install_tree.sh CMAKE BUILD PREFIX CXX: install the build into PREFIX and use only PREFIX.
set -euo pipefail
cmake=$1 build=$2 prefix=$3 cxx=$4
fail() { echo "install_tree: $*" >&2; exit 1; }
rm -rf "$prefix"
"$cmake" --install "$build" --prefix "$prefix" > /dev/null
cd "$prefix"   # nothing relative to the source or build tree from here on
unset TACTICA_PLUGIN_PATH TACTICA_AGENT
for f in bin/tactica bin/tactica-agent lib/tactica/plugins/libtactica_beam.so \
         share/tactica/configs/hanpang/submit.toml share/tactica/source/core/include/tactica/session.hpp \
         share/doc/tactica/README.md share/doc/tactica/TUNING.md; do
  [[ -e $f ]] || fail "$f is not installed"
done
plugins=$(bin/tactica plugins)
for p in beam expectimax greedy mcts; do
  grep -q "lib/tactica/plugins/libtactica_$p.so" <<< "$plugins" || fail "tactica plugins does not find $p in the tree"
done
bin/tactica-agent --config share/tactica/configs/hanpang/submit.toml --check > /dev/null ||
  fail "the installed agent rejects the installed submit config"
line=$(bin/tactica judge hanpang --seed 2 --agent share/tactica/configs/hanpang/greedy.toml)
echo "$line"
[[ $line == *"OVERFLOW"* || $line == *"MAX_ACTIONS"* ]] || fail "judge: $line"
line=$(bin/tactica judge icebreaking --seed 2 --first share/tactica/configs/icebreaking/greedy.toml \
       --second share/tactica/configs/icebreaking/greedy.toml)
echo "$line"
[[ $line == *"FINISHED"* ]] || fail "judge: $line"
bin/tactica fuse --config share/tactica/configs/hanpang/greedy.toml --source-dir share/tactica/source \
  --out fused.cpp 2> /dev/null || fail "fuse from the installed sources failed"
"$cxx" -std=c++20 -O2 -Wall -Wextra -Werror -o fused fused.cpp || fail "the fused file does not compile"
line=$(bin/tactica judge hanpang --seed 2 --agent ./fused)
echo "$line"
[[ $line == *"OVERFLOW"* || $line == *"MAX_ACTIONS"* ]] || fail "judge of the fused agent: $line"
echo "install_tree: passed"
