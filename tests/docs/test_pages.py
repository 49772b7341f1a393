"""The README and the site speak of the tool, not of its history, and stay short
where they promised to."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

from tests.support.docs import docs_pages

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *docs_pages()]

HISTORY = [
    re.compile(r"\bissues? \d+", re.IGNORECASE),
    re.compile(r"\bcommit [0-9a-f]{7,40}\b"),
    re.compile(r"\((?:[0-9a-f]{7}|[0-9a-f]{40})\b"),  # "(5ecb110, ...)"
    re.compile(r"shared/(?:rules|seeds)"),  # not in a clone
]


def test_the_readme_is_short() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 250


def test_no_page_speaks_of_the_projects_history() -> None:
    found = []
    for page in PAGES:
        for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            found.extend(f"{page.name}:{n}: {line.strip()}" for p in HISTORY if p.search(line))
    assert not found, "\n".join(found)


def test_the_history_patterns_catch_what_they_should() -> None:
    for text in ("see issue 16", "Issues 11", "(5ecb110, 2 h)", "../shared/rules.md"):
        assert any(p.search(text) for p in HISTORY), text
    assert not any(p.search("seed 8338261474446703, deadbeef-free") for p in HISTORY)


def nav_files() -> set[str]:
    """The pages the navigation of mkdocs.yml lists (its ``nav:`` section)."""
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    nav = text[text.index("\nnav:") :]
    return set(re.findall(r"([\w./-]+\.md)\s*$", nav, re.MULTILINE))


def test_every_page_is_in_the_navigation() -> None:
    listed = nav_files()
    pages = {str(p.relative_to(ROOT / "docs")) for p in docs_pages()}
    assert pages == listed
    # the pages other features own are there, at least as placeholders
    owned = {
        "vocabulary.md",
        "games/nimmt.md",
        "games/cento.md",
        "serve.md",
        "duel-engine.md",
        "nimmt-players.md",
        "c-kernels.md",
    }
    assert owned <= pages


def load_hook() -> ModuleType:
    spec = importlib.util.spec_from_file_location("commands_hook", ROOT / "docs/hooks/commands.py")
    assert spec is not None and spec.loader is not None
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    return hook


def test_rule_ids_in_prose_link_to_the_rulebook() -> None:
    hook = load_hook()
    text = "by rule C5, `rule C4`, [rule X1](x.md) and rule Z1.\n```\nrule S3\n```"
    assert hook.link_rules(text, "games/cento.md") == (
        "by [rule C5](../rules/the-game.md#C5), `rule C4`, [rule X1](x.md) and "
        "[rule Z1](../rules/cento.md#Z1).\n```\nrule S3\n```"
    )
    assert hook.link_rules("rule M6", "api.md") == "[rule M6](rules/the-mind.md#M6)"


def test_the_command_reference_holds_every_command_and_its_help() -> None:
    import click

    from thegame.cli.main import cli

    hook = load_hook()
    page = hook.on_page_markdown("# Commands\n\n<!-- commands -->\n", None, None, None)
    assert "<!-- commands -->" not in page

    def paths(command: click.Command, path: list[str]) -> list[list[str]]:
        out = [path]
        if isinstance(command, click.Group):
            for name, sub in command.commands.items():
                out.extend(paths(sub, [*path, name]))
        return out

    for path in paths(cli, ["thegame"]):
        assert f"`{' '.join(path)}` {{ #{'-'.join(path)} }}" in page
    # the help text itself, as --help prints it
    assert "Usage: thegame solve [OPTIONS]" in page and "--time-limit" in page


def test_no_source_reaches_outside_the_clone() -> None:
    # The rulebook and every input a benchmark reads ship with the project.
    outside = re.compile(r"shared/(?:rules|seeds|deals)|\.\./shared|\.parent\.parent / \"shared\"")
    found = []
    for top in ("thegame", "tests", "benchmarks"):
        for path in sorted((ROOT / top).rglob("*.py")):
            if path == Path(__file__).resolve():
                continue
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if outside.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not found, "\n".join(found)
