"""``thegame daily site``: the daily puzzles as a static web site.

A folder any static host serves as it is: HTML, CSS, the scripts, one JSON
document a day (the classic family's daily with what the WebAssembly search
core needs to judge a position, the Extreme daily and the Cento daily), the
``.wasm`` core where the package has one, a service worker and a web
manifest. No server code, no request to another host, no inline script,
only relative links. The pages show a day only once its date (UTC) has come.

The site is written beside ``out`` and renamed into place, so an interrupted
build leaves the earlier site (or nothing). Days an earlier site at ``out``
already holds are taken from it, not made again.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import importlib
import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jinja2

from ..models.errors import InvalidInputError
from ..models.outcome import Limit
from ..models.the_game import Deal
from .cento.puzzles import daily as cento_daily
from .icon import icon_png
from .the_game.daily import EPOCH, daily

WEB = Path(__file__).resolve().parent.parent / "web"
MARKER = "thegame-site.json"
FORMAT = 1  # the day documents' format; another one makes every day again
FIRST_DAY = dt.date(2000, 1, 1)
LAST_DAY = dt.date(2099, 12, 31)
MAX_DAYS = 1000
# Seconds a Cento daily may take to make (as ``thegame cento daily``).
CENTO_SECONDS = 60.0
# The manifest's PNG icons, in px (a browser offers to install with 192 and 512).
ICON_SIZES = (192, 512)
# The files of a site besides its days: the shell (pages, scripts, styles).
ASSETS = (
    "site.css",
    "page.js",
    "daily.js",
    "site.js",
    "home.js",
    "day.js",
    "thinker.js",
    "solve-worker.js",
    "cento-day.js",
    "archive.js",
    "icon.svg",
)


def check_range(first: dt.date, days: int) -> None:
    """The documented ranges: ``days`` 1-1000, every day in 2000-01-01..2099-12-31."""
    if not 1 <= days <= MAX_DAYS:
        raise InvalidInputError(f"must be 1-{MAX_DAYS}, not {days}", "--days")
    last = first + dt.timedelta(days=days - 1) if first <= LAST_DAY else first
    if first < FIRST_DAY or last > LAST_DAY:
        raise InvalidInputError(
            f"the days must lie in {FIRST_DAY}..{LAST_DAY} (asked {first}..{last})", "--from"
        )


def referee_spec(deal: Deal) -> dict[str, Any]:
    """What the JavaScript referee (``web/referee.js``) plays a deal of the
    classic family with: its rules' parameters, the deck, the commands."""
    r = deal.rules
    if r.is_duel:
        raise InvalidInputError("the web referee plays the classic family only", "deal")
    return {
        "rules": {
            "name": r.name,
            "low": r.low,
            "high": r.high,
            "asc_piles": r.asc_piles,
            "desc_piles": r.desc_piles,
            "step": r.step,
            "hand_sizes": list(r.hand_sizes),
            "min_play": r.min_play,
            "min_play_empty": r.min_play_empty,
            "min_play_rule": r.min_play_rule,
            "fire_cards": sorted(r.fire_cards),
            "fire_safe_at_clear": r.fire_safe_at_clear,
            "commands": r.commands,
        },
        "players": deal.players,
        "deck": list(deal.deck),
        "first": deal.first or 1,
        "commands": {str(c): str(k) for c, k in deal.commands},
    }


def kernel_config(deal: Deal) -> Any:
    """The WebAssembly core's description of ``deal`` (None where the
    package has no such core, or the core does not play this variant)."""
    try:
        webcore = importlib.import_module("thegame.solver.the_game.webcore")
    except ImportError:
        return None
    try:
        return webcore.kernel_config(deal)
    except (InvalidInputError, ValueError, NotImplementedError):
        return None


def day_number(day: dt.date) -> int:
    """The puzzle's number: days since 2000-01-01, plus one (the same on every site)."""
    return (day - EPOCH).days + 1


def _classic_entry(day: dt.date, stream: str | None) -> dict[str, Any]:
    puzzle = daily(day, stream=stream)
    entry: dict[str, Any] = {
        "puzzle": puzzle.to_dict(),
        "referee": referee_spec(puzzle.deal),
        "kernel": kernel_config(puzzle.deal),
    }
    return entry


def make_day(day: dt.date) -> dict[str, Any]:
    """The JSON document of one day: its three puzzles."""
    return {
        "format": FORMAT,
        "date": day.isoformat(),
        "number": day_number(day),
        "classic": _classic_entry(day, None),
        "extreme": _classic_entry(day, "extreme"),
        "cento": cento_daily(day, Limit(time=CENTO_SECONDS)).to_dict(),
    }


def _earlier_day(site: Path | None, day: dt.date) -> dict[str, Any] | None:
    """The day as an earlier site at ``site`` holds it, if it is of this format."""
    if site is None:
        return None
    path = site / "daily" / day.isoformat() / "day.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return None
    if not all(isinstance(data.get(k), dict) for k in ("classic", "extreme", "cento")):
        return None
    return data


def _refresh(data: dict[str, Any]) -> None:
    """A kept day's referee rules and solver configuration made again from
    its deal (milliseconds): they follow this package's referee and .wasm."""
    for stream in ("classic", "extreme"):
        entry = data[stream]
        deal = Deal.from_dict(entry["puzzle"]["deal"])
        entry["referee"] = referee_spec(deal)
        entry["kernel"] = kernel_config(deal)


def is_site(path: Path) -> bool:
    """Whether ``path`` holds a site this command wrote."""
    try:
        data = json.loads((path / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and data.get("site") == "thegame-daily"


def check_out(out: Path) -> Path | None:
    """The earlier site at ``out`` (None: there is none); refuses an ``out``
    that exists and is neither an earlier site nor an empty folder."""
    if not out.exists():
        if not out.parent.is_dir():
            raise InvalidInputError("its parent folder does not exist", str(out))
        return None
    if out.is_dir() and is_site(out):
        return out
    if out.is_dir() and not any(out.iterdir()):
        return None
    raise InvalidInputError(
        "exists and is not a site this command wrote: give a new folder", str(out)
    )


@functools.cache
def _pages() -> jinja2.Environment:
    """The site's page templates: each extends ``base.html`` (the head, the
    header, the footer and the scripts every page loads)."""
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(WEB / "site"), autoescape=True, keep_trailing_newline=True
    )


def _page(name: str, root: str, **fields: str) -> str:
    """A page, its links relative to the site's root (``root``: ``./``, ``../``...)."""
    return _pages().get_template(name).render(root=root, **fields)


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def solver_files() -> list[Path]:
    """The WebAssembly search core and its loader (``webcore.web_files``),
    where the package has them all."""
    try:
        webcore = importlib.import_module("thegame.solver.the_game.webcore")
    except ImportError:
        return []
    files = [Path(f) for f in webcore.web_files().values()]
    return files if files and all(f.is_file() for f in files) else []


def build_site(
    first: dt.date,
    days: int,
    out: Path,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Write the site of ``days`` days from ``first`` to ``out``; its summary."""
    check_range(first, days)
    earlier = check_out(out)
    solver = solver_files()
    _clear_stale(out)
    work = out.parent / f".{out.name}.building-{os.getpid()}"
    shutil.rmtree(work, ignore_errors=True)
    made = kept = 0
    try:
        work.mkdir()
        dates = [first + dt.timedelta(days=k) for k in range(days)]
        for k, day in enumerate(dates, 1):
            data = _earlier_day(earlier, day)
            if data is None:
                if progress is not None:
                    progress(f"making the puzzles of {day} ({k} of {days})")
                data = make_day(day)
                made += 1
            else:
                _refresh(data)
                kept += 1
            folder = work / "daily" / day.isoformat()
            _write(folder / "day.json", json.dumps(data, separators=(",", ":")))
            _write(folder / "index.html", _page("day.html", "../../", date=day.isoformat()))
        _write_shell(work, dates, bool(solver))
        for f in solver:
            shutil.copyfile(f, work / "assets" / f.name)
        summary = _summary(work, dates, made, kept, bool(solver))
        _write(work / MARKER, json.dumps(summary, indent=1) + "\n")
        _swap(work, out)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return summary


def _write_shell(work: Path, dates: list[dt.date], solver: bool) -> None:
    assets = work / "assets"
    assets.mkdir(parents=True, exist_ok=True)
    sources = {
        "page.js": WEB.parent / "serve" / "static" / "page.js",
        "daily.js": WEB.parent / "serve" / "static" / "daily.js",
    }
    for name in ASSETS:
        shutil.copyfile(sources.get(name, WEB / "site" / name), assets / name)
    shutil.copyfile(WEB.parent / "serve" / "static" / "style.css", assets / "style.css")
    for rules in ("referee.js", "cento.js"):
        shutil.copyfile(WEB / rules, assets / rules)
    for size in ICON_SIZES:
        (assets / f"icon-{size}.png").write_bytes(icon_png(size))
    days = {
        "first": dates[0].isoformat(),
        "last": dates[-1].isoformat(),
        "days": [d.isoformat() for d in dates],
        "numbers": {d.isoformat(): day_number(d) for d in dates},
        "solver": solver,
    }
    _write(work / "days.json", json.dumps(days, separators=(",", ":")))
    _write(work / "index.html", _page("index.html", "./"))
    _write(work / "archive" / "index.html", _page("archive.html", "../"))
    _write(work / "manifest.webmanifest", _page("manifest.webmanifest", ""))
    _write(work / "sw.js", _page("sw.js", "", version=_version(dates, solver)))


def _version(dates: list[dt.date], solver: bool) -> str:
    """The service worker's cache name: a new build replaces the old cache."""
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S")
    return f"{dates[0]}-{dates[-1]}-{int(solver)}-{stamp}"


def _summary(
    work: Path, dates: list[dt.date], made: int, kept: int, solver: bool
) -> dict[str, Any]:
    size = sum(p.stat().st_size for p in work.rglob("*") if p.is_file())
    wasm = work / "assets" / "solver.wasm"
    return {
        "site": "thegame-daily",
        "format": FORMAT,
        "from": dates[0].isoformat(),
        "to": dates[-1].isoformat(),
        "days": len(dates),
        "made": made,
        "kept": kept,
        "solver": solver,
        "wasm_bytes": wasm.stat().st_size if wasm.exists() else None,
        "bytes": size,
    }


def _clear_stale(out: Path) -> None:
    """Remove what a build killed outright (no Ctrl-C: a signal that ends
    the process at once) left beside ``out``: its folders whose process is gone."""
    for path in out.parent.glob(f".{out.name}.building-*"):
        pid = path.name.rsplit("-", 1)[1]
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            shutil.rmtree(path, ignore_errors=True)
        except PermissionError:
            pass  # another user's build, alive


def _swap(work: Path, out: Path) -> None:
    """Put the finished site at ``out``: the old one (if any) moved aside
    first, the new one renamed in, the old one removed."""
    old = out.parent / f".{out.name}.old-{os.getpid()}"
    if out.exists():
        os.replace(out, old)
    try:
        os.replace(work, out)
    except BaseException:
        if old.exists() and not out.exists():
            os.replace(old, out)
        raise
    with contextlib.suppress(OSError):
        shutil.rmtree(old)
