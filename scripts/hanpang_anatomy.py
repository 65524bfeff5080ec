#!/usr/bin/env python3
"""hanpang_anatomy.py REPLAY... -- where a Hanpang agent's points come from, over many games.

Reads JSON replays (docs/FORMATS.md: `tactica judge hanpang ... --replay FILE`, or every game of
`tactica bench ... --replay-dir DIR`; give files or directories) and prints, over all of them:
  - the points made in each block of 20 actions;
  - the cashes (removals of at least --big tiles): how many a game, their sizes, their share of
    the points, and the board they were made on (tiles, tallest column: 15 means a column was
    full, so something in it had to go before the next row);
  - at the large cashes (at least --mass tiles, before the last 20 actions): the tiles of the
    cashed colour and of the other two, and the largest group left beside it;
  - the tiles left on the board at the end (points never made).
Bad input (a missing path, no replay found, a file that is not a Hanpang replay) gets one line
on stderr and exit 2, before anything is printed.
"""
import argparse
import json
import os
import statistics as st
import sys

ROWS, COLS = 15, 8


def fail(msg):
    print(f"hanpang_anatomy: {msg}", file=sys.stderr)
    sys.exit(2)


def replay_files(paths):
    files = []
    for p in paths:
        if os.path.isdir(p):
            files += sorted(os.path.join(p, f) for f in os.listdir(p) if f.endswith(".json"))
        elif os.path.isfile(p):
            files.append(p)
        else:
            fail(f"{p}: no such file or directory (give replay files or the --replay-dir of a bench)")
    if not files:
        fail(f"no .json replay in {' '.join(paths)} (write some with tactica bench --replay-dir DIR)")
    return files


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            d = json.load(f)
    except (OSError, ValueError) as e:
        fail(f"{path}: not a readable JSON replay ({e})")
    if not isinstance(d, dict) or d.get("game") != "hanpang" or not isinstance(d.get("moves"), list):
        fail(f"{path}: not a Hanpang replay (want \"game\": \"hanpang\" and a \"moves\" list; "
             "Icebreaking replays have no cashes)")
    for i, m in enumerate(d["moves"]):
        b = m.get("before") if isinstance(m, dict) else None
        if (not isinstance(b, list) or len(b) != ROWS or any(len(r) != COLS for r in b)
                or not isinstance(m.get("group"), list) or not isinstance(m.get("points"), int)):
            fail(f"{path}: move {i + 1} lacks a 15x8 \"before\" board, its \"group\" or its \"points\"")
    return d


def groups(board):
    """Sizes and colours of every group of a board (rows top first, '0' empty)."""
    seen, out = set(), []
    for r in range(ROWS):
        for c in range(COLS):
            if board[r][c] == "0" or (r, c) in seen:
                continue
            colour, stack, n = board[r][c], [(r, c)], 0
            seen.add((r, c))
            while stack:
                y, x = stack.pop()
                n += 1
                for yy, xx in ((y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)):
                    if 0 <= yy < ROWS and 0 <= xx < COLS and (yy, xx) not in seen \
                            and board[yy][xx] == colour:
                        seen.add((yy, xx))
                        stack.append((yy, xx))
            out.append((n, colour))
    return out


def tiles(board):
    return sum(ch != "0" for row in board for ch in row)


def tallest(board):
    return max(sum(1 for row in board if row[c] != "0") for c in range(COLS))


def mean(xs):
    return st.mean(xs) if xs else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("replays", nargs="+", help="replay files, or directories of them")
    ap.add_argument("--big", type=int, default=15, help="a cash removes at least this many tiles")
    ap.add_argument("--mass", type=int, default=40, help="a large cash, for the board's make-up")
    a = ap.parse_args()
    if a.big < 2 or a.mass < 2:
        fail(f"--big {a.big} / --mass {a.mass}: both must be at least 2 (a group of 1 is no cash)")
    games = [load(f) for f in replay_files(a.replays)]

    scores, left, phases = [], [], {}
    cashes, masses = [], []
    for d in games:
        moves = d["moves"]
        scores.append(sum(m["points"] for m in moves))
        for i, m in enumerate(moves):
            phases[i // 20] = phases.get(i // 20, 0) + m["points"]
            k, b = len(m["group"]), m["before"]
            if k < a.big:
                continue
            on_board = tiles(b)
            cashes.append((k, on_board, tallest(b)))
            if k >= a.mass and len(moves) - i > 20:
                colour = b[m["group"][0][0] - 1][m["group"][0][1] - 1]
                same = sum(row.count(colour) for row in b)
                rest = [n for n, c in groups(b) if not (n == k and c == colour)]
                masses.append((same, on_board - same, max(rest, default=0)))
        if moves:
            after = moves[-1].get("after")
            left.append(tiles(after) if isinstance(after, list) else tiles(moves[-1]["before"]))

    n = len(games)
    print(f"games {n}, mean score {mean(scores):,.0f}")
    print("points a game by block of 20 actions:",
          " ".join(f"{phases[p] / n:,.0f}" for p in sorted(phases)))
    if cashes:
        pts = sum(k * k for k, _, _ in cashes)
        print(f"cashes of {a.big}+ tiles: {len(cashes) / n:.1f} a game, mean size "
              f"{mean([k for k, _, _ in cashes]):.1f}, {100 * pts / max(1, sum(scores)):.1f}% of the points")
        print("  size      count  tiles before  tallest column  full column (15)")
        lo = a.big // 10 * 10
        for b0 in range(lo, 121, 10):
            sel = [c for c in cashes if b0 <= c[0] < b0 + 10]
            if sel:
                print(f"  {max(b0, a.big):3d}-{b0 + 9:<3d} {len(sel):8d} {mean([t for _, t, _ in sel]):13.1f}"
                      f" {mean([h for _, _, h in sel]):15.2f} {100 * sum(h == ROWS for _, _, h in sel) / len(sel):16.0f}%")
    if masses:
        print(f"at cashes of {a.mass}+ tiles (before the last 20 actions, {len(masses)}): the cashed colour's "
              f"tiles {mean([s for s, _, _ in masses]):.1f}, the other colours' {mean([o for _, o, _ in masses]):.1f}, "
              f"the largest other group {mean([g for _, _, g in masses]):.1f} (median {st.median([g for _, _, g in masses])})")
    print(f"tiles left at the end: {mean(left):.1f} a game")


if __name__ == "__main__":
    main()
