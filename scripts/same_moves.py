#!/usr/bin/env python3
"""Same moves on a node budget: every shipped config of this tree against a reference build.

A redesign must not change what a config plays. With `time.node_budget = N` every plugin is
repeatable, so a config's moves on a seed are a fingerprint. This plays each config of
configs/<game>/ with this tree's `tactica` and with a reference install's (e.g. one made by
`cmake --install build/release --prefix /tmp/ref` at the commit before the change), through the
real judge with --replay (the judge's bank 10^7 ms, the agent's own time.bank_ms and cpu cap an
hour, so that the budget, never the clock, decides),
and compares the moves one by one:

  Hanpang:     each config alone on each seed;
  Icebreaking: each config against greedy and against itself, both sides, on each seed (each tree
               with its own greedy, so a change in greedy shows too).

Usage:
  scripts/same_moves.py --ref PREFIX [--new build/release/bin] [--budget 3000] [--seeds 1-4]
                        [--game hanpang|icebreaking] [--config NAME ...] [-j 2]

Prints one line per config and game kind ("same" or the first differing move) and exits 1 if any
config plays differently, 2 on bad input.
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def fail(msg):
    print(f"same_moves: {msg}", file=sys.stderr)
    sys.exit(2)


def seeds_of(text):
    out = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        if not a.isdigit() or (b and not b.isdigit()):
            fail(f"--seeds {text!r}: expected e.g. 1-4 or 1,5,9")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def moves_of(tactica, args, budget):
    """Plays one game with --replay and returns its list of (player, cell) moves."""
    with tempfile.TemporaryDirectory() as d:
        replay = os.path.join(d, "r.json")
        opt = "--set" if args[0] == "hanpang" else "--each"  # one agent: --set key=value
        # A bank no budget can spend: the node budget alone decides every move (with the
        # platform's 5,000 ms a large budget runs the bank down and the clock decides the end).
        # Both the judge's and the agent's own: the agent plans with its time.bank_ms (and
        # Icebreaking's time.cpu_cap_ms), and would cut its searches short as that runs low.
        clock = ["--bank-ms", "1e7", opt, "time.bank_ms=3600000"]
        if args[0] == "icebreaking":
            clock += ["--cpu-ms", "1e7", opt, "time.cpu_cap_ms=3600000"]
        cmd = [tactica, "judge", *args, opt, f"time.node_budget={budget}", *clock, "--replay", replay]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if not os.path.exists(replay):
            return None, f"no replay ({' '.join(cmd)}): {r.stderr.strip()[-300:]}"
        with open(replay) as f:
            data = json.load(f)
        verdict = data.get("result", {})
        return [(m.get("player"), tuple(m["cell"])) for m in data["moves"]], verdict


def compare(job):
    label, ref_cmd, new_cmd = job
    ref, ref_res = moves_of(*ref_cmd)
    new, new_res = moves_of(*new_cmd)
    if ref is None or new is None:
        return label, False, f"error: {ref_res if ref is None else new_res}"
    if ref == new:
        return label, True, f"same ({len(ref)} moves)"
    i = next((k for k, (a, b) in enumerate(zip(ref, new)) if a != b), min(len(ref), len(new)))
    a = ref[i] if i < len(ref) else "end"
    b = new[i] if i < len(new) else "end"
    return label, False, f"differs at move {i + 1}: ref {a}, new {b} ({len(ref)} vs {len(new)} moves)"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ref", required=True, help="reference install prefix (bin/tactica, share/tactica/configs)")
    ap.add_argument("--new", default=os.path.join(ROOT, "build", "release", "bin"),
                    help="this tree's bin directory (default build/release/bin)")
    ap.add_argument("--budget", type=int, default=3000, help="time.node_budget of every agent")
    ap.add_argument("--seeds", default="1-4")
    ap.add_argument("--game", choices=["hanpang", "icebreaking"], action="append")
    ap.add_argument("--config", action="append", help="config names (default: every one)")
    ap.add_argument("-j", type=int, default=2)
    a = ap.parse_args()

    ref_bin = os.path.join(a.ref, "bin", "tactica")
    new_bin = os.path.join(a.new, "tactica")
    for b in (ref_bin, new_bin):
        if not os.access(b, os.X_OK):
            fail(f"no executable {b} (give --ref PREFIX of an install tree, --new a bin directory)")
    ref_cfg = os.path.join(a.ref, "share", "tactica", "configs")
    new_cfg = os.path.join(ROOT, "configs")
    if a.budget <= 0:
        fail("--budget must be a positive node count")
    seeds = seeds_of(a.seeds)

    jobs = []
    for game in a.game or ["hanpang", "icebreaking"]:
        names = sorted(n[:-5] for n in os.listdir(os.path.join(new_cfg, game)) if n.endswith(".toml"))
        for name in names:
            if a.config and name not in a.config:
                continue
            rc, nc = (os.path.join(c, game, name + ".toml") for c in (ref_cfg, new_cfg))
            if not os.path.exists(rc):
                print(f"{game}/{name}: not in the reference, skipped")
                continue
            rg, ng = (os.path.join(c, game, "greedy.toml") for c in (ref_cfg, new_cfg))
            for s in seeds:
                if game == "hanpang":
                    games = [("", ["--agent", rc], ["--agent", nc])]
                else:
                    games = [("vs greedy, first", ["--first", rc, "--second", rg], ["--first", nc, "--second", ng]),
                             ("vs greedy, second", ["--first", rg, "--second", rc], ["--first", ng, "--second", nc]),
                             ("vs itself", ["--first", rc, "--second", rc], ["--first", nc, "--second", nc])]
                for kind, ra, na in games:
                    label = f"{game}/{name} seed {s}" + (f" {kind}" if kind else "")
                    jobs.append((label, (ref_bin, [game, "--seed", str(s), *ra], a.budget),
                                 (new_bin, [game, "--seed", str(s), *na], a.budget)))

    same = True
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.j)) as ex:
        for label, ok, what in ex.map(compare, jobs):
            print(f"{label}: {what}", flush=True)
            same &= ok
    print(f"same_moves: {'every game the same' if same else 'SOME GAMES DIFFER'} "
          f"({len(jobs)} games, budget {a.budget}, seeds {a.seeds})")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
