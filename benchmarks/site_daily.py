"""The static daily site, measured: the in-page verdict's time on every
daily position of a month in Chromium, the ``.wasm`` size and a year's size.

Usage (from the repository root; the site made first, a year of it):

    PYTHONPATH=$PWD nice -n 10 python -m thegame.cli.main daily site \
        --from 2026-01-01 --days 365 --out /tmp/site_year
    nice -n 10 python benchmarks/site_daily.py --site /tmp/site_year --month 2026-11

Serves ``--site`` with Python's http.server on 127.0.0.1 and opens each day
of ``--month`` in headless Debian Chromium (the day's clock set to noon UTC
of that day), for the classic family's daily and the Extreme daily: it
plays the puzzle's stored line turn by turn and reads, after the puzzle's
start and after every finished turn, the milliseconds the page's solver took
on that position (``data-verdict-ms``, the search alone) and its verdict
(``data-verdict``: the stored line keeps a clear reachable, so every one must
be ``win``). Prints Markdown: the machine, the command, the positions, the
time's median, 95th percentile and maximum, how many took over 500 ms, the
``.wasm`` size and the site's size over its days. Exit 1 when a verdict is
not ``win`` or the site has no solver.
"""

from __future__ import annotations

import argparse
import calendar
import functools
import http.server
import json
import os
import platform
import shlex
import statistics
import sys
import threading
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
TARGET_MS = 500.0


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def play_day(
    page: Any, url: str, day: str, stream: str, puzzle: dict[str, Any]
) -> list[dict[str, Any]]:
    """The verdict's time and answer on each position of the stored line."""
    page.clock.set_fixed_time(f"{day}T12:00:00Z")
    suffix = "" if stream == "classic" else f"?variant={stream}"
    page.goto(f"{url}daily/{day}/{suffix}")
    judged = "(k) => document.querySelector('[data-board]').dataset.judged === String(k)"
    rows = []

    def read(k: int) -> None:
        page.wait_for_function(judged, arg=k, timeout=120_000)
        board = page.locator("[data-board]")
        rows.append(
            {
                "day": day,
                "stream": stream,
                "turns": k,
                "ms": float(board.get_attribute("data-verdict-ms") or "nan"),
                "verdict": board.get_attribute("data-verdict"),
                "over": board.get_attribute("data-state") != "playing",
            }
        )

    read(0)
    for k, turn in enumerate(puzzle["turns"], 1):
        for p in turn["plays"]:
            if page.locator("[data-board]").get_attribute("data-state") != "playing":
                break
            page.click(f'#hand [data-card="{p["card"]}"]')
            page.click(f'#piles [data-pile="{p["pile"]}"]')
        if page.locator("[data-board]").get_attribute("data-state") == "playing":
            page.click('[data-action="end-turn"]')
        read(k)
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--site", required=True, help="a site written by thegame daily site")
    ap.add_argument("--month", required=True, metavar="YYYY-MM", help="the month to play")
    ap.add_argument("--streams", default="classic,extreme", help="classic, extreme or both")
    args = ap.parse_args()
    site = Path(args.site)
    summary = json.loads((site / "thegame-site.json").read_text())
    if not summary.get("solver"):
        print("the site has no in-page solver (no solver.wasm in the package)", file=sys.stderr)
        return 1
    year, month = (int(x) for x in args.month.split("-"))
    days = [
        f"{year:04d}-{month:02d}-{d:02d}" for d in range(1, calendar.monthrange(year, month)[1] + 1)
    ]
    days = [d for d in days if (site / "daily" / d / "day.json").exists()]
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=str(site))
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    from playwright.sync_api import sync_playwright

    rows: list[dict[str, Any]] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"]
        )
        for day in days:
            data = json.loads((site / "daily" / day / "day.json").read_text())
            for stream in args.streams.split(","):
                context = browser.new_context()
                page = context.new_page()
                rows.extend(play_day(page, url, day, stream, data[stream]["puzzle"]))
                context.close()
            print(f"{day}: {len(rows)} positions so far", file=sys.stderr)
        browser.close()
    server.shutdown()
    load = os.getloadavg()  # the machine is shared: how busy it was
    searched = [r for r in rows if not r["over"]]
    times = sorted(r["ms"] for r in searched)
    wrong = [r for r in rows if r["verdict"] != "win"]
    size = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
    wasm = site / "assets" / "solver.wasm"
    n_days = summary["days"]
    command = "python benchmarks/site_daily.py " + shlex.join(sys.argv[1:])
    print(
        f"Machine: {cpu_model()}, {os.cpu_count()} cores, "
        f"{platform.system()} {platform.release()}; Chromium {CHROMIUM} headless. "
        f"Command: `{command}`. Load average at the end (1, 5, 15 min): "
        f"{', '.join(f'{x:.1f}' for x in load)}.\n"
    )
    print("| what | figure |\n|---|---|")
    print(
        f"| positions judged ({args.month}, {args.streams}: each puzzle's start and "
        f"each turn of its line) | {len(searched)} |"
    )
    print(f"| verdict time, median | {statistics.median(times):.0f} ms |")
    print(f"| verdict time, 95th percentile | {times[int(0.95 * (len(times) - 1))]:.0f} ms |")
    print(f"| verdict time, maximum | {times[-1]:.0f} ms |")
    slow = [r for r in searched if r["ms"] > TARGET_MS]
    where = "; ".join(
        f"{r['day']} {r['stream']} after {r['turns']} turns: {r['ms']:.0f} ms" for r in slow
    )
    print(
        f"| positions over {TARGET_MS:.0f} ms | {len(slow)}{' (' + where + ')' if slow else ''} |"
    )
    print(f"| verdicts not `win` on the stored line | {len(wrong)} |")
    print(f"| solver.wasm | {wasm.stat().st_size / 1e6:.2f} MB |")
    print(
        f"| the site ({n_days} days, {summary['from']} to {summary['to']}) | {size / 1e6:.1f} MB |"
    )
    print(f"| per day | {size / n_days / 1e3:.0f} kB; a year: {size / n_days * 365 / 1e6:.1f} MB |")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
