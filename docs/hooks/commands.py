"""MkDocs hook: the command reference, rendered from the click commands.

The page ``commands.md`` holds the marker ``<!-- commands -->``; at build
time it is replaced by one section per command of ``thegame.cli.main.cli``,
walked recursively, each with the help text click itself prints for
``--help``. So the reference is the program's own help and cannot drift
from it: a renamed option changes the page at the next build.
"""

from __future__ import annotations

from typing import Any

import click

MARKER = "<!-- commands -->"
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


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    if MARKER not in markdown:
        return markdown
    from thegame.cli.main import cli

    return markdown.replace(MARKER, render(cli))
