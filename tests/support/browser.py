"""Headless Debian Chromium for the browser tests outside the server's
(the static site's), launched by tests/serve/conftest.py's launcher, and
axe-core's serious and critical violations of a page."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tests.serve.conftest import launch_browser


def launch() -> Iterator[Any]:
    """One Chromium for a module, with axe-core (the serve tests' launcher)."""
    yield from launch_browser(("axe_playwright_python",))


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
