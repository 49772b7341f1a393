"""Headless Debian Chromium for the browser tests outside the server's
(the static site's): launched as tests/serve/conftest.py launches it, and
axe-core's serious and critical violations of a page."""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def launch() -> Iterator[Any]:
    """One Chromium for a module; a skip with the reason where it cannot run
    (a failure in CI, where a skip would hide a broken page)."""
    reason = None
    if not Path(CHROMIUM).exists():
        reason = f"{CHROMIUM} is absent (apt-get install chromium)"
    for module in ("playwright.sync_api", "axe_playwright_python"):
        try:
            importlib.import_module(module)
        except ImportError:
            reason = reason or f"{module} is not installed (the test extra)"
    if reason is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the browser tests cannot run in CI: {reason}")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def audit(page: Any) -> list[str]:
    """axe-core's serious and critical violations of the page as it stands."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at "
        + "; ".join(str(n["target"]) for n in v["nodes"][:3])
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]
