#!/bin/bash
# cluster_e2e.sh TACTICA TEST_AGENT WORK — the recipe of docs/HARNESS.md, run for real: the same
# bench once unsharded and as 4 shards through GNU parallel (-S : runs the jobs through the
# sshlogin machinery on this machine, as `-S host1,host2` would on others), each shard with
# --resume of its own file as in the Slurm array; `tactica merge` of the shards must hold the
# same games (time aside) and print the same report (bank column aside) as the unsharded run.
set -euo pipefail
tactica=$1 agent=$2 work=$3
command -v parallel >/dev/null || { echo "cluster_e2e: GNU parallel is not installed (scripts/setup.sh --tests)" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work"
cd "$work"
agents=(--agent "$agent --game hanpang" --label good --agent "$agent --game hanpang --fault garbage --after 12" --label weak)
"$tactica" bench "${agents[@]}" --seeds 1-12 -j 2 --no-progress --out full.jsonl >full.txt 2>/dev/null
export TACTICA_BIN=$tactica TEST_AGENT=$agent
seq 1 4 | parallel --will-cite -S : -j 2 \
  '"$TACTICA_BIN" bench --agent "$TEST_AGENT --game hanpang" --label good \
     --agent "$TEST_AGENT --game hanpang --fault garbage --after 12" --label weak \
     --seeds 1-12 --workers 1 --no-progress --shard {}/4 --resume '"$work"'/shard-{}.jsonl \
     >/dev/null 2>&1'
for k in 1 2 3 4; do [ -s "shard-$k.jsonl" ] || { echo "cluster_e2e: shard $k wrote nothing" >&2; exit 1; }; done
"$tactica" merge shard-*.jsonl --out merged.jsonl >merged.txt 2>/dev/null
python3 - full.jsonl merged.jsonl full.txt merged.txt <<'PY'
import json, re, sys
def games(path):
    rows = [json.loads(l) for l in open(path) if l.strip()]
    for r in rows:
        r.pop("time_ms", None)
    return sorted(json.dumps(r, sort_keys=True) for r in rows)
def report(path):
    # The bank ms column of the first table is time, which differs between runs: cut it out by
    # the header's position (the columns are aligned, the bank figures fit the header's width).
    lines = open(path).read().splitlines()
    a, b = lines[0].index("bank ms"), lines[0].index("verdicts")
    end = lines.index("") if "" in lines else len(lines)
    return [l[:a] + l[b:] if i < end else l for i, l in enumerate(lines)]
f, m = games(sys.argv[1]), games(sys.argv[2])
if len(f) != 24 or f != m:
    sys.exit("cluster_e2e: the merged shards hold other games than the unsharded run (%d vs %d)" % (len(m), len(f)))
rf, rm = report(sys.argv[3]), report(sys.argv[4])
if rf != rm:
    sys.exit("cluster_e2e: the merged report differs:\n" + "\n".join(rf) + "\n---\n" + "\n".join(rm))
print("cluster_e2e: 4 shards through GNU parallel, merged: the same 24 games and report")
PY
