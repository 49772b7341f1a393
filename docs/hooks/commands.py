"""MkDocs hook: the command reference, rendered from the click commands, and
rule ids linked to the rulebook.

The page ``commands.md`` holds the marker ``<!-- commands -->``; at build
time it is replaced by one section per command of ``thegame.cli.main.cli``,
walked recursively, each with the help text click itself prints for
``--help``. So the reference is the program's own help and cannot drift
from it: a renamed option changes the page at the next build.

The page ``serve.md`` holds ``<!-- endpoints -->``: the API's endpoint
table, rendered from the endpoints' one declaration
(``thegame.serve.endpoints``), as the routes and the OpenAPI document are.

On every other page, "rule C5" (outside code) becomes a link to the rule's
heading in ``rules/``; the strict build then fails if the heading is missing.
"""

from __future__ import annotations

import posixpath
import re
from typing import Any

import click

MARKER = "<!-- commands -->"
ENDPOINTS_MARKER = "<!-- endpoints -->"
WIDTH = 100  # the help text's width on the page


def _anchor(path: list[str]) -> str:
    return "-".join(path)


def _commands(
    command: click.Command, path: list[str], parent: click.Context | None
) -> list[tuple[list[str], click.Command, click.Context]]:
    ctx = click.Context(
        command,
        info_name=path[-1],
        parent=parent,
        terminal_width=WIDTH,
        max_content_width=WIDTH,
    )
    out = [(path, command, ctx)]
    if isinstance(command, click.Group):
        for name in sorted(command.list_commands(ctx)):
            sub = command.get_command(ctx, name)
            if sub is not None and not sub.hidden:
                out.extend(_commands(sub, [*path, name], ctx))
    return out


def render(cli: click.Command) -> str:
    """The reference as Markdown: an index, then one section per command."""
    entries = _commands(cli, ["thegame"], None)
    lines = ["| command | what it does |", "|---|---|"]
    for path, command, _ in entries[1:]:
        summary = command.get_short_help_str(limit=90).replace("|", "\\|")
        lines.append(f"| [`{' '.join(path)}`](#{_anchor(path)}) | {summary} |")
    lines.append("")
    for path, command, ctx in entries:
        level = "#" * min(len(path) + 1, 4)
        lines.append(f"{level} `{' '.join(path)}` {{ #{_anchor(path)} }}")
        lines.append("")
        lines.append("```text")
        lines.append(command.get_help(ctx).rstrip())
        lines.append("```")
        lines.append("")
    return "\n".join(lines)


RULE_PAGES = {
    "C": "the-game.md", "P": "the-game.md", "F": "the-game.md", "X": "extreme.md",
    "D": "face-to-face.md", "M": "the-mind.md", "S": "nimmt.md", "Z": "cento.md",
}  # fmt: skip
RULE = re.compile(r"\b(rule )([CPFXDMSZ](?:10|[1-9])[a-d]?)\b")
FENCE = re.compile(r"^\s*(```|~~~)")


def link_rules(markdown: str, src_uri: str) -> str:
    """``rule C5`` -> ``[rule C5](rules/the-game.md#C5)``, outside code and links."""
    base = posixpath.relpath("rules", posixpath.dirname(src_uri) or ".")
    out: list[str] = []
    in_fence = False
    for line in markdown.split("\n"):
        if FENCE.match(line):
            in_fence = not in_fence
        if in_fence or FENCE.match(line):
            out.append(line)
            continue
        parts = line.split("`")
        for i in range(0, len(parts), 2):  # even parts are outside inline code
            parts[i] = RULE.sub(lambda m, text=parts[i]: _link(m, text, base), parts[i])
        out.append("`".join(parts))
    return "\n".join(out)


def _link(m: re.Match[str], text: str, base: str) -> str:
    before = text[: m.start()]
    if before.rfind("[") > before.rfind("]"):
        return m.group(0)  # already inside a link's text
    rule = m.group(2)
    return f"[{m.group(1)}{rule}]({base}/{RULE_PAGES[rule[0]]}#{rule})"


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    if MARKER in markdown:
        from thegame.cli.main import cli

        return markdown.replace(MARKER, render(cli))
    if ENDPOINTS_MARKER in markdown:
        from thegame.serve.endpoints import ENDPOINTS
        from thegame.serve.schema import endpoint_table

        markdown = markdown.replace(ENDPOINTS_MARKER, endpoint_table(ENDPOINTS))
    src = page.file.src_uri
    if src.startswith("rules/"):
        return markdown
    return link_rules(markdown, src)
