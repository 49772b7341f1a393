"""The rulebook (thegame/rulebook/, the site's docs/rules/) names every rule id the package cites.

The code cites rules by id in comments, docstrings and the messages a user
reads (``rule C5``, ``(X3b)``); each id must have its heading, with the id as
its anchor, in the rulebook, so that a reader of any message can look it up.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "thegame"
RULEBOOK = PACKAGE / "rulebook"

# C (classic), P (Profi), F (On Fire), X (Extreme), D (Face to Face),
# M (The Mind), S (6 nimmt!), Z (Cento): a letter, 1-10, an optional sub-rule.
RULE_ID = re.compile(r"(?<![\w\"'])([CPFXDMSZ](?:10|[1-9])[a-d]?)\b(?![\"'])")
# "37 D1": a play on the pile D1 (a pile name, not rule D1).
PLAY = re.compile(r"\d \Z")
ANCHOR = re.compile(r"\{ *#([A-Z]\d+[a-d]?) *\}")


def cited_ids(text: str) -> set[str]:
    """The rule ids a source text cites (pile names in plays are not ids)."""
    return {m.group(1) for m in RULE_ID.finditer(text) if not PLAY.search(text[: m.start()])}


def package_ids() -> dict[str, str]:
    """Every cited id with one file that cites it."""
    found: dict[str, str] = {}
    for path in sorted(PACKAGE.rglob("*")):
        if path.suffix in {".py", ".c", ".pyi"}:
            for rule in cited_ids(path.read_text(encoding="utf-8")):
                found.setdefault(rule, str(path.relative_to(ROOT)))
    return found


def rulebook_ids() -> set[str]:
    ids: set[str] = set()
    for page in RULEBOOK.glob("*.md"):
        for line in page.read_text(encoding="utf-8").splitlines():
            if line.startswith("#"):
                ids.update(ANCHOR.findall(line))
    return ids


def test_the_scan_finds_the_citations() -> None:
    assert cited_ids("the first play (rule C4); a skull (X3b) and M6") == {"C4", "X3b", "M6"}
    assert cited_ids('pile "D1", play 37 D1, A0, D0, Z95, C4x') == set()
    found = package_ids()
    # every family of rules is cited somewhere in the package
    assert {rule[0] for rule in found} == set("CPFXDMSZ")
    assert len(found) >= 40


def test_every_cited_rule_id_has_a_heading_in_the_rulebook() -> None:
    missing = {rule: where for rule, where in package_ids().items() if rule not in rulebook_ids()}
    assert not missing, f"rule ids cited by the package but missing in docs/rules/: {missing}"


def test_each_rule_id_has_one_heading() -> None:
    seen: dict[str, int] = {}
    for page in RULEBOOK.glob("*.md"):
        for line in page.read_text(encoding="utf-8").splitlines():
            if line.startswith("#"):
                for rule in ANCHOR.findall(line):
                    seen[rule] = seen.get(rule, 0) + 1
    assert seen and all(n == 1 for n in seen.values()), seen


def test_the_rulebook_travels_in_the_package_and_the_site_shows_it() -> None:
    """An installed server reads its rule pages from the package (package data),
    and the docs site's rules/ is the same folder."""
    import tomllib

    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "rulebook/*.md" in data["tool"]["setuptools"]["package-data"]["thegame"]
    assert (ROOT / "docs" / "rules").resolve() == RULEBOOK.resolve()
    assert {p.stem for p in RULEBOOK.glob("*.md")} >= {"the-game", "cento", "nimmt"}
