"""The rulebook on the server: ``/rules/<game>`` shows a page of the
project's rulebook (``thegame/rulebook``, shipped in the package; the docs
site shows the same pages as ``docs/rules``), every rule id an anchor, so a
page can link a rule id out of its main text (``/rules/the-game#C5``). Only
the few kinds of Markdown the rulebook uses are read: headings with their
``{ #id }`` anchors, paragraphs, lists, emphasis, code and links."""

from __future__ import annotations

import re
from html import escape
from pathlib import Path

from ..models import InvalidInputError

# The rulebook's pages travel in the package, so an installed server has them too.
RULEBOOK = Path(__file__).resolve().parents[1] / "rulebook"
# The page of each rule id's letter (the rulebook's index).
PAGE_OF = {
    "C": "the-game",
    "P": "the-game",
    "F": "the-game",
    "X": "extreme",
    "D": "face-to-face",
    "M": "the-mind",
    "S": "nimmt",
    "Z": "cento",
}
PAGES = tuple(dict.fromkeys(PAGE_OF.values()))


def rule_link(rule: str) -> dict[str, str]:
    """A rule id with the address of its heading: ``{"rule", "href"}``."""
    return {"rule": rule, "href": f"/rules/{PAGE_OF[rule[0]]}#{rule}"}


def _inline(text: str) -> str:
    """Emphasis, code and links of one line, the rest escaped."""
    out = escape(text, quote=False)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    out = re.sub(r"\*\*([^*]+)\*\*", r"<b>\1</b>", out)
    out = re.sub(r"(?<![*\w])\*([^*]+)\*(?!\w)", r"<i>\1</i>", out)

    def link(m: re.Match[str]) -> str:
        label, target = m.group(1), m.group(2)
        page, _, anchor = target.partition("#")
        name = Path(page).stem
        # Another rulebook page links within the server; any other page of the docs is text.
        if name in PAGES and "/" not in page:
            return f'<a href="/rules/{name}{"#" + anchor if anchor else ""}">{label}</a>'
        if not page and anchor:
            return f'<a href="#{anchor}">{label}</a>'
        return label

    return re.sub(r"\[([^\]]+)\]\(([^)\s\"<>]+)\)", link, out)


def _heading(line: str) -> str:
    level = len(line) - len(line.lstrip("#"))
    text = line[level:].strip()
    m = re.search(r"\{\s*#([\w-]+)\s*\}\s*$", text)
    anchor = ""
    if m:
        anchor = f' id="{m.group(1)}"'
        text = text[: m.start()].strip()
    return f"<h{level}{anchor}>{_inline(text)}</h{level}>"


def render(markdown: str) -> str:
    """The HTML of a rulebook page."""
    out: list[str] = []
    para: list[str] = []
    items: list[str] = []

    def flush() -> None:
        if para:
            out.append(f"<p>{_inline(' '.join(para))}</p>")
            para.clear()
        if items:
            out.append("<ul>" + "".join(f"<li>{_inline(i)}</li>" for i in items) + "</ul>")
            items.clear()

    for raw in markdown.splitlines():
        line = raw.rstrip()
        if not line.strip():
            flush()
        elif line.startswith("#"):
            flush()
            out.append(_heading(line))
        elif re.match(r"^\s*([-*]|\d+\.)\s", line):
            if para:
                flush()
            items.append(re.sub(r"^\s*([-*]|\d+\.)\s+", "", line))
        elif items and raw.startswith(" "):
            items[-1] += " " + line.strip()  # a list item's next line
        else:
            para.append(line.strip())
    flush()
    return "\n".join(out)


def page(name: str) -> tuple[str, str]:
    """The title and HTML of rulebook page ``name``; a 400 for no such page."""
    if name not in PAGES:
        raise InvalidInputError(
            f"no rulebook page {name[:40]!r} (pages: {', '.join(PAGES)})", "page"
        )
    path = RULEBOOK / f"{name}.md"
    text = path.read_text(encoding="utf-8")
    first = text.splitlines()[0] if text else name
    return first.lstrip("# ").strip(), render(text)
