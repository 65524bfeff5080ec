#!/usr/bin/env bash
# baseline_play.sh BIN SRC: every bench/baselines/*.cpp.gz has its tactica-baseline-* binary, and
# each plays one whole game through `tactica judge` with no fault (Hanpang: survives seed 3;
# Icebreaking: a FINISHED game against greedy from each side).
set -euo pipefail
bin=$1 src=$2
cd "$src"
fail() { echo "baseline_play: $*" >&2; exit 1; }
shopt -s nullglob
files=(bench/baselines/*.cpp.gz)
((${#files[@]})) || fail "no bench/baselines/*.cpp.gz"
for f in "${files[@]}"; do
  stem=$(basename "$f" .cpp.gz)
  exe=$bin/tactica-baseline-$stem
  [[ -x $exe ]] || fail "$f has no binary $exe"
  text=$(gzip -dc "$f") || fail "$f does not decompress"
  grep -q "made by \`tactica fuse\`" <<<"$(sed -n 1,3p <<<"$text")" || fail "$f is not a fused file"
  # Frozen: the fused bytes are the ones recorded when the baseline was made.
  want=$(awk -v n="$stem.cpp" '$2 == n {print $1}' bench/baselines/SHA256SUMS)
  [[ -n $want ]] || fail "$f has no line in bench/baselines/SHA256SUMS"
  got=$(gzip -dc "$f" | sha256sum | cut -d' ' -f1)
  [[ $got == "$want" ]] || fail "$f has changed (sha256 $got, recorded $want): baselines never move"
  case $stem in
    hanpang-*)
      line=$("$bin/tactica" judge hanpang --seed 3 --agent "$exe" --label "$stem")
      echo "$line"
      [[ $line == *"200 actions, MAX_ACTIONS"* ]] || fail "$stem did not survive seed 3: $line" ;;
    icebreaking-*)
      for side in first second; do
        if [[ $side == first ]]; then
          line=$("$bin/tactica" judge icebreaking --seed 3 --first "$exe" --second configs/icebreaking/greedy.toml)
        else
          line=$("$bin/tactica" judge icebreaking --seed 3 --first configs/icebreaking/greedy.toml --second "$exe")
        fi
        echo "$line"
        [[ $line == *", FINISHED ("* ]] || fail "$stem as $side did not finish cleanly: $line"
      done ;;
    *) fail "$f: name must be <hanpang|icebreaking>-<yyyy-mm>.cpp.gz" ;;
  esac
done
echo "baseline_play: ${#files[@]} baselines played cleanly"
