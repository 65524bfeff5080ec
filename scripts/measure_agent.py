#!/usr/bin/env python3
"""measure_agent.py AGENT CONFIG RUNS [GAP_S] — how promptly an Icebreaking agent answers and ends.

Drives `AGENT --config CONFIG` over pipes RUNS times on a fixed board and prints medians and
maxima of: READY FIRST -> OK (sent GAP_S seconds after the board, default 0: the agent builds its
tables before OK), the first TURN reply with a full bank, and the exit after a FINISH sent 30 ms
into a think (and how many runs answered a MOVE after that FINISH; it should be 0).
Used for the figures in docs/PROTOCOL.md:
    python3 scripts/measure_agent.py build/release/bin/tactica-agent configs/icebreaking/mcts.toml 20
"""
import select
import statistics
import subprocess
import sys
import time

BOARD = ["0 1 2 -1 -2 0 1 2 #", "1 # 0 2 -1 1 0 -2 1", "2 0 # 1 0 -1 2 1 0", "-1 2 1 # 0 1 -2 0 2",
         "0 1 -1 2 # 0 1 2 -1", "1 0 2 -1 1 # 0 1 2", "2 -1 0 1 2 0 # 1 0", "0 2 1 0 -1 2 1 # 1",
         "1 0 2 1 0 -1 2 0 #"]


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__.strip().splitlines()[0])
    agent, cfg, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    gap = float(sys.argv[4]) if len(sys.argv) > 4 else 0.0
    ok, first, exits, moves_after = [], [], [], 0
    for _ in range(runs):
        p = subprocess.Popen([agent, "--config", cfg], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

        def send(s):
            p.stdin.write((s + "\n").encode())
            p.stdin.flush()

        def readline(timeout=6):
            r, _, _ = select.select([p.stdout], [], [], timeout)
            return p.stdout.readline().decode().strip() if r else None

        for line in BOARD:
            send(line)
        time.sleep(gap)
        t = time.monotonic()
        send("READY FIRST")
        readline()
        ok.append((time.monotonic() - t) * 1000)
        t = time.monotonic()
        send("TURN 4960 5000")
        readline()
        first.append((time.monotonic() - t) * 1000)
        send("OPP 0 0 10")
        send("TURN 4700 4990")
        time.sleep(0.03)
        t = time.monotonic()
        send("FINISH")
        out = readline(3)
        p.wait(timeout=5)
        exits.append((time.monotonic() - t) * 1000)
        moves_after += 1 if out else 0

    def q(v):
        return f"median {statistics.median(v):.1f}, max {max(v):.1f} ms"

    print(f"READY -> OK: {q(ok)}; first TURN reply: {q(first)}; "
          f"exit after FINISH mid-think: {q(exits)}; MOVE after FINISH in {moves_after}/{runs}")


if __name__ == "__main__":
    main()
