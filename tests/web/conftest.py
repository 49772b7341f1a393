"""The static daily site's fixtures: a site built once for the module's
days, served by Python's http.server on 127.0.0.1 under a sub-path with the
strict Content-Security-Policy the docs ask a host to send."""

from __future__ import annotations

import datetime as dt
import functools
import http.server
import json
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# The days of the test site: the day before, the day, and a day to come.
DAY = "2026-11-26"
BEFORE = "2026-11-25"
AFTER = "2026-11-27"
CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; object-src 'none'; base-uri 'self'"
SUBPATH = "/pub/thegame/"


class Handler(http.server.SimpleHTTPRequestHandler):
    def end_headers(self) -> None:
        self.send_header("Content-Security-Policy", CSP)
        super().end_headers()

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture(scope="session")
def site_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from thegame.puzzles.site import build_site

    top = tmp_path_factory.mktemp("host")
    out = top / "pub" / "thegame"
    out.parent.mkdir(parents=True)
    build_site(dt.date.fromisoformat(BEFORE), 3, out)
    # The same site where the .wasm cannot be loaded (it is missing on the host).
    bare = top / "pub" / "nowasm"
    shutil.copytree(out, bare)
    (bare / "assets" / "solver.wasm").unlink(missing_ok=True)
    return out


@pytest.fixture(scope="session")
def site_url(site_dir: Path) -> Iterator[str]:
    top = site_dir.parents[1]
    handler = functools.partial(Handler, directory=str(top))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}{SUBPATH}"
    server.shutdown()
    server.server_close()


def day_data(site_dir: Path, day: str) -> dict[str, Any]:
    return json.loads((site_dir / "daily" / day / "day.json").read_text())  # type: ignore[no-any-return]
