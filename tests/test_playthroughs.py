"""Playthrough golden files: one seeded game of each game, played by a fixed
policy through the rules engine and written step by step (state, legal
actions, action, state after, returns) in tests/data/playthroughs/. Each is
played again here and compared with its file, so a rules change shows up as
a diff. After an intended change: ``python tests/data/make_playthroughs.py``,
then review the diff."""

from __future__ import annotations

import difflib
import importlib.util
import sys
from types import ModuleType

import pytest

from tests.support import DATA


def _load_generator() -> ModuleType:
    path = DATA / "make_playthroughs.py"
    spec = importlib.util.spec_from_file_location("make_playthroughs", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_playthroughs"] = module
    spec.loader.exec_module(module)
    return module


GEN = _load_generator()


@pytest.mark.parametrize("name", sorted(GEN.PLAYTHROUGHS))
def test_playthrough_is_unchanged(name: str) -> None:
    path = GEN.path_of(name)
    assert path.exists(), f"missing {path}: run python tests/data/make_playthroughs.py"
    stored = path.read_text(encoding="utf-8")
    fresh = GEN.PLAYTHROUGHS[name]()
    if fresh != stored:
        diff = difflib.unified_diff(
            stored.splitlines(), fresh.splitlines(), "stored", "played now", lineterm="", n=1
        )
        pytest.fail(f"{path.name} changed:\n" + "\n".join(list(diff)[:40]))


def test_every_file_is_a_playthrough_the_script_writes() -> None:
    files = {p.stem for p in (DATA / "playthroughs").glob("*.txt")}
    assert files == set(GEN.PLAYTHROUGHS)


def test_every_game_ends_with_its_returns() -> None:
    # A policy stuck half-way would write a file without a result.
    for name in GEN.PLAYTHROUGHS:
        lines = GEN.path_of(name).read_text(encoding="utf-8").splitlines()
        result = [line for line in lines if line.startswith("result: ")]
        assert lines[-1].startswith("returns: ") and len(result) == 1, name
        assert "in_progress" not in result[0], name
