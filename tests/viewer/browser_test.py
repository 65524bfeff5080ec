#!/usr/bin/env python3
"""browser_test.py — the replay viewer and the plots, checked in headless chromium.

Generates replays of both games (complete games, games cut short by a time-out, and replays
tampered with), turns them into pages (with `tactica view` when it is built, else the same
library call through viewer_fixture), loads the pages in headless chromium with #move=N in the
URL (a 1200x900 window), and checks the dumped DOM: what the page shows at move N (score,
totals, boards, chosen cell, group, captures, read back from the displayed elements) must equal
the replay; the chart's lines, read back from the SVG through its scales, must be the replay's
score and bank (and totals, banks and CPU for Icebreaking) at every move, and its cursor must mark
move N; without a fragment the page opens on move 1; the content spans the window's width; the
page's own self-check (every move replayed with the rules and compared with the display), its
controls exercise (keys, buttons, jump field, slider, clicking, hovering and dragging on the
chart), the digits' contrast (4.5:1) and the colour check (one meaning per colour) must pass;
playing runs to the last move; tampered replays must be flagged. Screenshots of the first and
last move of each game (and, with --plot-screenshots, pictures of both plots) are kept in --out
as artefacts.

Exit status: 0 passed, 1 failed, 77 skipped (chromium missing; CTest reports it as skipped).
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

SKIP = 77
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage", "--disable-extensions", "--hide-scrollbars", "--mute-audio",
]
WINDOW = (1200, 900)


class Failures:
    def __init__(self):
        self.items = []

    def check(self, ok, what):
        if not ok:
            self.items.append(what)
        return ok

    def equal(self, shown, want, what):
        return self.check(str(shown) == str(want), f"{what}: page shows {shown!r}, replay says {want!r}")


class Dom(HTMLParser):
    """The attributes of a few elements by id, the text of some of them, and the chart's panels
    (their scales) with the polylines drawn in each."""
    TEXT = {"outcome", "selfcheck", "btn-play", "heading"}

    def __init__(self, html):
        super().__init__(convert_charrefs=True)
        self.attrs, self.text, self._in = {}, {}, None
        self.panels, self._panel = {}, None  # panel id -> {"attrs": ..., "lines": [(series, points)]}
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "g" and "data-panel" in a:
            self._panel = self.panels.setdefault(a["data-panel"], {"attrs": a, "lines": []})
        elif tag == "polyline" and self._panel is not None:
            self._panel["lines"].append((a.get("data-series"), a.get("points", "")))
        if "id" in a:
            self.attrs[a["id"]] = a
            if a["id"] in self.TEXT:
                self._in = a["id"]
                self.text[self._in] = ""

    def handle_endtag(self, tag):
        self._in = None
        if tag == "g":
            self._panel = None

    def handle_data(self, data):
        if self._in:
            self.text[self._in] += data


def run(cmd, what, timeout=60):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    if p.returncode != 0:
        raise RuntimeError(f"{what} failed ({p.returncode}): {' '.join(cmd)}\n{p.stderr.decode(errors='replace')[-2000:]}")
    return p.stdout


def chromium(browser, out, url, dump=False, screenshot=None, extra=()):
    """One fresh headless chromium: returns the dumped DOM, or writes a screenshot."""
    profile = tempfile.mkdtemp(prefix="profile-", dir=os.path.join(out, "profiles"))
    cmd = [browser, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *extra]
    if dump:
        cmd.append("--dump-dom")
    cmd.append(f"--window-size={WINDOW[0]},{WINDOW[1]}")  # the layout is checked at this width
    if screenshot:
        cmd.append(f"--screenshot={screenshot}")
    cmd.append(url)
    try:
        return run(cmd, "chromium", timeout=90).decode("utf-8", errors="replace")
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return struct.unpack(">II", head[16:24])


def url_of(path, fragment):
    return "file://" + os.path.abspath(path) + "#" + fragment


def ice_tokens(rows):
    return "/".join(" ".join(r.split()) for r in rows)


def cells(lst):
    return ";".join(sorted(f"{r},{c}" for r, c in lst))


def check_hanpang_step(F, dom, replay, step, name):
    st = dom.attrs.get("state", {})
    moves = replay["moves"]
    F.equal(st.get("data-step"), step, f"{name}: move number")
    if step == 0:
        F.equal(st.get("data-score"), 0, f"{name}: score at the start")
        F.equal(st.get("data-before"), "/".join(replay["initial"]), f"{name}: start board")
        return
    m = moves[step - 1]
    F.equal(st.get("data-score"), m["score"], f"{name}: score at move {step}")
    F.equal(st.get("data-points"), m["points"], f"{name}: points of move {step}")
    F.equal(st.get("data-remaining"), m["remaining_ms"], f"{name}: bank left after move {step}")
    F.equal(st.get("data-cell"), f"{m['cell'][0]},{m['cell'][1]}", f"{name}: chosen cell")
    F.equal(st.get("data-group"), cells(m["group"]), f"{name}: highlighted group")
    F.equal(st.get("data-before"), "/".join(m["before"]), f"{name}: board before move {step}")
    F.equal(st.get("data-after"), "/".join(m["after"]), f"{name}: board after move {step}")


def check_icebreaking_step(F, dom, replay, step, name):
    st = dom.attrs.get("state", {})
    F.equal(st.get("data-step"), step, f"{name}: move number")
    if step == 0:
        F.equal(st.get("data-totals"), "0,0", f"{name}: totals at the start")
        F.equal(st.get("data-board"), ice_tokens(replay["initial"]), f"{name}: start board")
        return
    m = replay["moves"][step - 1]
    F.equal(st.get("data-totals"), f"{m['totals'][0]},{m['totals'][1]}", f"{name}: totals after move {step}")
    F.equal(st.get("data-banks"), f"{m['banks_ms'][0]},{m['banks_ms'][1]}", f"{name}: banks after move {step}")
    F.equal(st.get("data-gain"), m["gain"], f"{name}: gain of move {step}")
    F.equal(st.get("data-cell"), f"{m['cell'][0]},{m['cell'][1]}", f"{name}: chosen cell")
    F.equal(st.get("data-captured"), cells(m["captured"]), f"{name}: chain-captured cells")
    F.equal(st.get("data-board"), ice_tokens(m["after"]), f"{name}: board after move {step}")


def check_selfcheck(F, dom, name, want="ok", ui=True):
    sc = dom.attrs.get("selfcheck", {})
    F.check(sc.get("data-result") == want,
            f"{name}: self-check {sc.get('data-result')!r}, expected {want!r}: {dom.text.get('selfcheck', '').strip()}")
    if ui:
        F.check(sc.get("data-ui") == "ok", f"{name}: controls check {sc.get('data-ui')!r}: {sc.get('data-ui-errors')}")
        contrast = float(sc.get("data-contrast") or 0)
        F.check(contrast >= 4.5, f"{name}: a digit on the board has contrast {contrast}:1 (under 4.5:1) at "
                                 f"{sc.get('data-contrast-where')}")
        F.check(sc.get("data-colours") == "ok", f"{name}: colour check {sc.get('data-colours')!r}: "
                                               f"{sc.get('data-colour-errors')}")


def chart_series(replay):
    """What the chart must draw: series id -> [(move, value)], from the replay."""
    moves, limits = replay["moves"], replay.get("limits", {})
    start = lambda v: [(0, v)] if v is not None else []  # noqa: E731
    if replay["game"] == "hanpang":
        return {"score": [(0, 0)] + [(k, m["score"]) for k, m in enumerate(moves, 1)],
                "bank": start(limits.get("bank_ms")) + [(k, m["remaining_ms"]) for k, m in enumerate(moves, 1)]}
    out = {}
    for i, side in enumerate("ab"):
        out["total-" + side] = [(0, 0)] + [(k, m["totals"][i]) for k, m in enumerate(moves, 1)]
        out["bank-" + side] = start(limits.get("bank_ms")) + [(k, m["banks_ms"][i]) for k, m in enumerate(moves, 1)]
        out["cpu-" + side] = [(k, m["cpu_ms"][i]) for k, m in enumerate(moves, 1)]
    return out


def check_chart(F, dom, replay, step, name):
    """The chart's lines read back through its scales equal the replay; its cursors mark `step`."""
    svg = dom.attrs.get("chart-svg")
    if not F.check(svg is not None, f"{name}: the page has no chart (#chart-svg)"):
        return
    x0, dx = float(svg["data-x0"]), float(svg["data-dx"])
    F.equal(svg.get("data-moves"), len(replay["moves"]), f"{name}: moves on the chart's axis")
    want = chart_series(replay)
    panels = {"hanpang": ["score", "bank"], "icebreaking": ["total", "bank", "cpu"]}[replay["game"]]
    F.equal(",".join(sorted(dom.panels)), ",".join(sorted(panels)), f"{name}: chart panels")
    drawn = {}
    for pid, panel in dom.panels.items():
        y0, ky = float(panel["attrs"]["data-yzero"]), float(panel["attrs"]["data-ky"])
        for series, points in panel["lines"]:
            for pt in points.split():
                x, y = (float(v) for v in pt.split(","))
                drawn.setdefault(series, []).append(((x - x0) / dx, (y0 - y) / ky, 0.01 / ky))
    F.equal(",".join(sorted(drawn)), ",".join(sorted(want)), f"{name}: chart series")
    for series, points in want.items():
        got = drawn.get(series, [])
        if not F.equal(len(got), len(points), f"{name}: points of chart series {series}"):
            continue
        for (mv, value), (gx, gy, tol) in zip(points, got):
            if not F.check(abs(gx - mv) < 0.01 and abs(gy - value) <= tol,
                           f"{name}: chart series {series} at move {mv}: drawn at move {gx:.2f}, "
                           f"value {gy:.2f}; the replay says {value}"):
                break
    F.equal(dom.attrs["state"].get("data-chart-cursor"), ",".join([str(step)] * len(panels)),
            f"{name}: moves the chart's cursors mark")


def check_width(F, dom, name):
    used = float(dom.attrs.get("state", {}).get("data-used-width") or 0)
    F.check(used >= 0.9, f"{name}: the content reaches {used:.0%} of the {WINDOW[0]} px window (an empty "
                         "strip on the right)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fixture", required=True, help="the viewer_fixture executable")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument("--out", required=True, help="artefacts directory (recreated)")
    ap.add_argument("--tactica", help="the tactica CLI; its `view` subcommand makes the pages")
    ap.add_argument("--plot-screenshots", action="store_true", help="also render the SVG plots to PNG")
    args = ap.parse_args()

    browser = args.chromium if os.access(args.chromium, os.X_OK) else shutil.which("chromium")
    if not browser:
        print(f"SKIP: chromium not found at {args.chromium} or on PATH; the viewer's browser test "
              "needs it (scripts/setup.sh --tests installs it, or: apt-get install -y chromium)")
        return SKIP

    started = time.monotonic()
    out = os.path.abspath(args.out)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(os.path.join(out, "profiles"))
    fx = args.fixture
    p = lambda name: os.path.join(out, name)  # noqa: E731

    # Step 1. Replays: complete games, games cut short, and tampered copies.
    run([fx, "replay", "hanpang", "7", p("hanpang.json")], "making a Hanpang replay")
    run([fx, "replay", "icebreaking", "3", p("icebreaking.json")], "making an Icebreaking replay")
    run([fx, "replay", "hanpang", "5", p("hanpang_cut.json"), "12"], "making a cut Hanpang replay")
    run([fx, "replay", "icebreaking", "8", p("icebreaking_cut.json"), "9"], "making a cut Icebreaking replay")
    run([fx, "replay", "hanpang", "2", p("hanpang_none.json"), "0"], "making a Hanpang replay without moves")
    replay = {n: json.load(open(p(n + ".json")))
              for n in ("hanpang", "icebreaking", "hanpang_cut", "icebreaking_cut", "hanpang_none")}
    del replay["icebreaking_cut"]["limits"]  # as replays written before the judge recorded them
    json.dump(replay["icebreaking_cut"], open(p("icebreaking_cut.json"), "w"))
    bad = json.loads(json.dumps(replay["hanpang"]))
    bad["moves"][3]["score"] += 1            # the display follows the replay; the rules check must object
    json.dump(bad, open(p("hanpang_bad.json"), "w"))
    bad = json.loads(json.dumps(replay["icebreaking"]))
    row = bad["moves"][5]["after"][8].split()
    row[0] = "a" if row[0] != "a" else "b"   # a cell changes hands without a move
    bad["moves"][5]["after"][8] = " ".join(row)
    json.dump(bad, open(p("icebreaking_bad.json"), "w"))

    # Step 2. Pages, through `tactica view` when the CLI has it (else the same library call).
    use_cli = False
    if args.tactica:
        listing = subprocess.run([args.tactica, "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        use_cli = re.search(rb"^\s+view\s", listing.stdout, re.M) is not None
    maker = "tactica view" if use_cli else "viewer_fixture html (the tactica CLI has no view subcommand)"
    for n in ("hanpang", "icebreaking", "hanpang_cut", "icebreaking_cut", "hanpang_none", "hanpang_bad",
              "icebreaking_bad"):
        if use_cli:
            run([args.tactica, "view", p(n + ".json"), "-o", p(n + ".html")], "tactica view")
        else:
            run([fx, "html", p(n + ".json"), p(n + ".html")], "viewer_fixture html")

    # Step 3. Plots.
    run([fx, "hanpang-results", "1", "30", p("results.jsonl")], "making results")
    run([fx, "plot-hanpang", p("results.jsonl"), p("hanpang_plot.svg")], "plotting Hanpang")
    run([fx, "plot-icebreaking", p("icebreaking_plot.svg")], "plotting Icebreaking")

    H, I = replay["hanpang"], replay["icebreaking"]
    nh, ni = len(H["moves"]), len(I["moves"])
    mid_h = nh // 2
    # An Icebreaking move with the most chain-captured cells, to see captures drawn.
    cap_i = max(range(1, ni + 1), key=lambda k: len(I["moves"][k - 1]["captured"]))
    speed = 20
    budget = ["--virtual-time-budget=%d" % (speed * (nh + 2) + 2000)]

    # Step 4. Chromium runs, two at a time, each with a fresh profile: the DOM after the page
    # has shown #move=N, and for some a screenshot of the same view.
    runs = {  # name: (page, fragment, screenshot or None, extra flags)
        "han_open": (p("hanpang.html"), "", "hanpang_open.png", ()),
        "han_first": (p("hanpang.html"), "move=1", "hanpang_first.png", ()),
        "han_last": (p("hanpang.html"), f"move={nh}&test", "hanpang_last.png", ()),
        "han_mid": (p("hanpang.html"), f"move={mid_h}", None, ()),
        "han_play": (p("hanpang.html"), f"move=0&play&speed={speed}", None, budget),
        "ice_open": (p("icebreaking.html"), "", None, ()),
        "ice_first": (p("icebreaking.html"), "move=1", "icebreaking_first.png", ()),
        "ice_last": (p("icebreaking.html"), "move=last&test", "icebreaking_last.png", ()),
        "ice_cap": (p("icebreaking.html"), f"move={cap_i}", "icebreaking_capture.png", ()),
        "han_cut": (p("hanpang_cut.html"), "move=last&test", None, ()),
        "ice_cut": (p("icebreaking_cut.html"), "move=last&test", None, ()),
        "han_none": (p("hanpang_none.html"), "test", None, ()),
        "han_bad": (p("hanpang_bad.html"), "move=2", None, ()),
        "ice_bad": (p("icebreaking_bad.html"), "move=2", None, ()),
    }
    if args.plot_screenshots:
        runs["hanpang_plot"] = (p("hanpang_plot.svg"), "", "hanpang_plot.png", ())
        runs["icebreaking_plot"] = (p("icebreaking_plot.svg"), "", "icebreaking_plot.png", ())
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        jobs = {k: pool.submit(chromium, browser, out, url_of(f, frag), True, shot and p(shot), extra)
                for k, (f, frag, shot, extra) in runs.items()}
        doms = {}
        for k, j in jobs.items():
            text = j.result()
            with open(p(k + ".dom.html"), "w") as f:
                f.write(text)
            doms[k] = Dom(text)
    shots = [shot for (_, _, shot, _) in runs.values() if shot]

    # Step 5. What the pages showed.
    F = Failures()
    check_hanpang_step(F, doms["han_open"], H, 1, "Hanpang, opened without #move")
    check_icebreaking_step(F, doms["ice_open"], I, 1, "Icebreaking, opened without #move")
    check_chart(F, doms["han_open"], H, 1, "Hanpang, opened without #move")
    check_chart(F, doms["ice_open"], I, 1, "Icebreaking, opened without #move")
    check_width(F, doms["han_open"], "Hanpang")
    check_width(F, doms["ice_open"], "Icebreaking")
    check_selfcheck(F, doms["han_first"], "Hanpang, first move", ui=False)
    check_hanpang_step(F, doms["han_first"], H, 1, "Hanpang, first move")
    check_selfcheck(F, doms["han_last"], "Hanpang, last move")
    check_hanpang_step(F, doms["han_last"], H, nh, "Hanpang, last move")
    F.equal(doms["han_last"].attrs["state"].get("data-score"), H["result"]["score"], "Hanpang final score vs result")
    F.check(H["result"]["verdict"] in doms["han_last"].text.get("outcome", ""), "Hanpang: the verdict is not shown")
    check_chart(F, doms["han_last"], H, nh, "Hanpang, last move")
    check_selfcheck(F, doms["han_mid"], "Hanpang, middle", ui=False)
    check_hanpang_step(F, doms["han_mid"], H, mid_h, "Hanpang, middle")
    check_chart(F, doms["han_mid"], H, mid_h, "Hanpang, middle")
    F.equal(doms["han_play"].attrs["state"].get("data-step"), nh, "Hanpang, playing from the start: reached move")
    F.equal(doms["han_play"].text.get("btn-play", "").strip(), "Play", "Hanpang, playing: stops at the end")

    check_selfcheck(F, doms["ice_first"], "Icebreaking, first move", ui=False)
    check_icebreaking_step(F, doms["ice_first"], I, 1, "Icebreaking, first move")
    check_selfcheck(F, doms["ice_last"], "Icebreaking, last move")
    check_icebreaking_step(F, doms["ice_last"], I, ni, "Icebreaking, last move")
    t = I["result"]["totals"]
    F.equal(doms["ice_last"].attrs["state"].get("data-totals"), f"{t[0]},{t[1]}", "Icebreaking final totals vs result")
    check_selfcheck(F, doms["ice_cap"], "Icebreaking, a capture", ui=False)
    check_icebreaking_step(F, doms["ice_cap"], I, cap_i, "Icebreaking, a capture")
    check_chart(F, doms["ice_cap"], I, cap_i, "Icebreaking, a capture")

    for key, name, r, check in (("han_cut", "Hanpang cut short", replay["hanpang_cut"], check_hanpang_step),
                                ("ice_cut", "Icebreaking cut short", replay["icebreaking_cut"], check_icebreaking_step),
                                ("han_none", "Hanpang without moves", replay["hanpang_none"], check_hanpang_step)):
        check_selfcheck(F, doms[key], name)
        check(F, doms[key], r, len(r["moves"]), name)
        check_chart(F, doms[key], r, len(r["moves"]), name)
        F.check("TIME_LIMIT" in doms[key].text.get("outcome", ""), f"{name}: TIME_LIMIT is not shown")

    for key, name, where in (("han_bad", "tampered Hanpang", "move 4: score"),
                             ("ice_bad", "tampered Icebreaking", "move 6: the board after it")):
        check_selfcheck(F, doms[key], name, want="fail", ui=False)
        errors = doms[key].attrs.get("selfcheck", {}).get("data-errors", "")
        F.check(where in errors, f"{name}: the self-check should name {where!r}, says {errors!r}")

    for name in shots:
        size = png_size(p(name)) if os.path.exists(p(name)) else None
        F.check(size == WINDOW, f"screenshot {name}: {size}, expected a {WINDOW[0]}x{WINDOW[1]} PNG")

    for svg in ("hanpang_plot.svg", "icebreaking_plot.svg"):
        try:
            root = ET.parse(p(svg)).getroot()
            F.equal(root.tag, "{http://www.w3.org/2000/svg}svg", f"{svg}: root element")
        except ET.ParseError as e:
            F.check(False, f"{svg}: not well-formed XML: {e}")

    shutil.rmtree(os.path.join(out, "profiles"), ignore_errors=True)
    took = time.monotonic() - started
    if F.items:
        print(f"viewer browser test: {len(F.items)} problem(s) (artefacts in {out}):")
        for item in F.items:
            print("  - " + item)
        return 1
    print(f"viewer browser test: passed in {took:.1f} s ({len(runs)} pages checked, {len(shots)} "
          f"screenshots in {out}; Hanpang {nh} moves, Icebreaking {ni} moves; pages by {maker})")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (RuntimeError, subprocess.TimeoutExpired, OSError) as e:
        print(f"viewer browser test: {e}")
        sys.exit(1)
