"""The documentation's pages as the site builds them."""

from __future__ import annotations

import glob
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def docs_pages() -> list[Path]:
    """Every Markdown page under docs/, through the link to the package's
    rulebook (``Path.rglob`` does not follow a linked folder before 3.13)."""
    found = glob.glob(str(ROOT / "docs" / "**" / "*.md"), recursive=True)
    return sorted(Path(p) for p in found)
