"""Every `thegame` command shown in README.md and docs/ runs, as shown.

The convention (documented in docs/writing-docs.md):

- Commands are shown in fenced blocks marked ``console``; a line
  ``$ thegame ...`` is a command, the lines after it (up to the next ``$``)
  its output as shown. Other ``$`` lines (``pip``, ``python``) are not run.
  A ``thegame`` command outside a console block fails this test.
- The examples of one page run in order in one fresh directory. A fenced
  block with a file name as its title (```` ```json title="round.json" ````)
  is written there first, and files a command writes stay for the next.
- An HTML comment right before a console block tunes its check:
  ``<!-- example: exit=2 keys=verdict,turns input='quit' slow -->``.
  ``exit`` is the expected exit code (default 0); ``keys`` are keys the
  JSON output must have; ``input`` is typed on standard input (``\\n`` ends
  a line); ``slow`` runs the block only in the slow run (``-m slow``);
  ``server`` marks a command that runs until Ctrl-C (``thegame serve``): it
  is started as a real process, its first line must be the one shown, then
  Ctrl-C must stop it with exit code 130.
- A command whose output is JSON (``--json``) must print JSON (one document,
  or one per line), and when the shown output is a JSON object, the real one
  must have every key shown. Every line of a text output shown (but ``...``)
  must appear in the real output, spaces aside.
- A command the click group does not have (yet) is skipped, with the rest
  of its block: pages can document a command before it lands, and the test
  starts checking it the day it does.
- A command that runs until it is stopped (``thegame serve``, but for its
  ``--help``) must carry the ``server`` setting: run in-process it would
  never return.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from tests.support.docs import docs_pages
from thegame.cli.main import cli

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted([ROOT / "README.md", *docs_pages()])

FENCE = re.compile(r"^(```+|~~~+)\s*([\w+-]*)(.*)$")
MARKER = re.compile(r"^<!--\s*example:(.*?)-->\s*$")
TITLE = re.compile(r'title="([^"]+)"')


@dataclass
class Example:
    command: str
    line: int
    shown: list[str] = field(default_factory=list)


@dataclass
class Block:
    page: Path
    line: int
    examples: list[Example]
    exit: int = 0
    keys: tuple[str, ...] = ()
    input: str | None = None
    slow: bool = False
    server: bool = False


@dataclass
class FileBlock:
    name: str
    text: str


@dataclass
class Stray:
    """A ``thegame`` command outside a console block: never run, so refused."""

    where: str
    text: str


def _rel(page: Path) -> str:
    return str(page.relative_to(ROOT)) if page.is_relative_to(ROOT) else page.name


def parse_marker(text: str, block: Block) -> None:
    for token in shlex.split(text):
        name, _, value = token.partition("=")
        if name == "exit":
            block.exit = int(value)
        elif name == "keys":
            block.keys = tuple(k for k in value.split(",") if k)
        elif name == "input":
            block.input = value.replace("\\n", "\n")
        elif name == "slow":
            block.slow = True
        elif name == "server":
            block.server = True
        else:
            raise ValueError(f"{block.page.name}:{block.line}: unknown example setting {name!r}")


def parse(page: Path) -> list[Block | FileBlock | Stray]:
    """The page's console blocks, titled file blocks and stray commands, in order."""
    lines = page.read_text(encoding="utf-8").splitlines()
    out: list[Block | FileBlock | Stray] = []
    i = 0
    marker: str | None = None
    while i < len(lines):
        m = FENCE.match(lines[i].strip())
        if not m:
            mk = MARKER.match(lines[i].strip())
            if mk:
                marker = mk.group(1)
            elif lines[i].strip():
                marker = None
            i += 1
            continue
        fence, lang, rest = m.groups()
        start = i
        body: list[str] = []
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(fence):
            body.append(lines[i])
            i += 1
        i += 1
        indent = len(lines[start]) - len(lines[start].lstrip())
        body = [b[indent:] if b[:indent].isspace() else b.lstrip() for b in body]
        title = TITLE.search(rest)
        if lang == "console":
            block = Block(page, start + 1, [])
            for n, text in enumerate(body):
                if text.startswith("$ "):
                    block.examples.append(Example(text[2:].strip(), start + 2 + n))
                elif block.examples:
                    block.examples[-1].shown.append(text)
            if marker is not None:
                parse_marker(marker, block)
            out.append(block)
        else:
            out.extend(
                Stray(f"{page.name}:{start + 1}", b.strip())
                for b in body
                if re.match(r"^(\$ )?thegame\s", b.strip())
            )
            if title:
                out.append(FileBlock(title.group(1), "\n".join(body) + "\n"))
        marker = None
    return out


def missing_command(args: list[str]) -> str | None:
    """The first word of ``args`` the click group does not have, if any."""
    command: click.Command = cli
    ctx = click.Context(cli, info_name="thegame")
    for arg in args:
        if arg.startswith("-") or not isinstance(command, click.Group):
            return None
        sub = command.get_command(ctx, arg)
        if sub is None:
            return arg
        command = sub
        ctx = click.Context(sub, info_name=arg, parent=ctx)
    return None


def _squeeze(text: str) -> str:
    return " ".join(text.split())


def json_documents(text: str) -> list[object]:
    text = text.strip()
    try:
        return [json.loads(text)]
    except json.JSONDecodeError:
        return [json.loads(line) for line in text.splitlines() if line.strip()]


def shown_json(shown: list[str]) -> dict[str, object] | None:
    try:
        data = json.loads("\n".join(shown))
    except json.JSONDecodeError:
        return None
    return data if isinstance(data, dict) else None


def run_block(block: Block, runner: CliRunner) -> list[str]:
    """Run a block's commands; the problems found (skips raise pytest.skip)."""
    problems: list[str] = []
    for ex in block.examples:
        where = f"{_rel(block.page)}:{ex.line}"
        words = shlex.split(ex.command)
        if not words or words[0] != "thegame":
            continue  # pip, python: set-up lines, not examples
        args = words[1:]
        assert not {"|", ">", "<", "&&", ";"} & set(args), f"{where}: keep examples plain"
        if args[:1] == ["serve"] and not {"--help", "-h"} & set(args) and not block.server:
            # run in-process, it would hold the test for ever
            problems.append(f"{where}: `{ex.command}` serves until Ctrl-C: mark it `server`")
            continue
        missing = missing_command(args)
        if missing is not None:
            return [*problems, f"SKIP {where}: no command {missing!r} yet"]
        if block.server:
            problems.extend(run_server(where, ex))
            continue
        result = runner.invoke(
            cli, args, input=block.input, catch_exceptions=True, prog_name="thegame"
        )
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            problems.append(f"{where}: `{ex.command}` raised {result.exception!r}")
            continue
        if result.exit_code != block.exit:
            problems.append(
                f"{where}: `{ex.command}` exited {result.exit_code}, not {block.exit}: "
                f"{result.stderr.strip()[:300]}"
            )
            continue
        if "--json" not in args:
            text = _squeeze(result.stdout)
            unseen = [
                line
                for line in ex.shown
                if line.strip() and line.strip() != "..." and _squeeze(line) not in text
            ]
            if unseen:
                problems.append(f"{where}: `{ex.command}` does not print {unseen[0]!r}")
                continue
        if "--json" in args and block.exit == 0:
            try:
                docs = json_documents(result.stdout)
            except json.JSONDecodeError:
                problems.append(f"{where}: `{ex.command}` did not print JSON")
                continue
            first = docs[0] if docs else None
            want = set(block.keys) | set(shown_json(ex.shown) or {})
            have = set(first) if isinstance(first, dict) else set()
            if want - have:
                problems.append(f"{where}: `{ex.command}` lacks the keys {sorted(want - have)}")
    return problems


def run_server(where: str, ex: Example) -> list[str]:
    """Start a command that serves until Ctrl-C; its first line must be the
    one shown, and Ctrl-C must end it with exit code 130."""
    argv = [sys.executable, "-c", "from thegame.cli.main import main; main()"]
    proc = subprocess.Popen(
        [*argv, *shlex.split(ex.command)[1:]],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()  # the address line, printed once listening
        proc.send_signal(signal.SIGINT)
        code = proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    shown = [line for line in ex.shown if line.strip() and line.strip() != "..."]
    if shown and _squeeze(shown[0]) not in _squeeze(first):
        return [f"{where}: `{ex.command}` first printed {first.strip()!r}, not {shown[0]!r}"]
    if code != 130:
        return [f"{where}: `{ex.command}` exited {code} on Ctrl-C, not 130"]
    return []


def page_ids() -> list[Path]:
    return [p for p in PAGES if any(isinstance(b, Block | Stray) for b in parse(p))]


def run_page(page: Path, tmp_path: Path, slow: bool) -> None:
    runner = CliRunner()
    here = os.getcwd()
    os.chdir(tmp_path)
    problems: list[str] = []
    try:
        for block in parse(page):
            if isinstance(block, Stray):
                problems.append(
                    f"{block.where}: a thegame command outside a console block is never run: "
                    f"{block.text!r}"
                )
            elif isinstance(block, FileBlock):
                (tmp_path / block.name).write_text(block.text, encoding="utf-8")
            elif block.slow and not slow:
                problems.append(f"SKIP {page.name}:{block.line}: slow")
            else:
                problems.extend(run_block(block, runner))
    finally:
        os.chdir(here)
    failures = [p for p in problems if not p.startswith("SKIP")]
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("page", page_ids(), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_examples_of_a_page_run(page: Path, tmp_path: Path) -> None:
    run_page(page, tmp_path, slow=False)


def slow_page_ids() -> list[Path]:
    return [p for p in PAGES if any(isinstance(b, Block) and b.slow for b in parse(p))]


@pytest.mark.slow
@pytest.mark.parametrize("page", slow_page_ids(), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_examples_of_a_page_run_with_the_slow_ones(page: Path, tmp_path: Path) -> None:
    run_page(page, tmp_path, slow=True)


def test_the_convention_is_read_as_documented(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        'text\n\n```json title="deal.json"\n{}\n```\n\n'
        "<!-- example: exit=2 keys=a,b input='x\\ny' slow -->\n"
        '```console\n$ pip install -e .\n$ thegame solve --seed 1 --json\n{"verdict": 1}\n'
        "$ thegame nosuch thing\n```\n",
        encoding="utf-8",
    )
    file_block, block = parse(page)[:2]
    assert isinstance(file_block, FileBlock) and file_block.name == "deal.json"
    assert isinstance(block, Block)
    assert (block.exit, block.keys, block.input, block.slow) == (2, ("a", "b"), "x\ny", True)
    assert [e.command for e in block.examples][1:] == [
        "thegame solve --seed 1 --json",
        "thegame nosuch thing",
    ]
    assert shown_json(block.examples[1].shown) == {"verdict": 1}
    assert missing_command(["nosuch", "thing"]) == "nosuch"
    assert missing_command(["mind", "nosuch"]) == "nosuch"
    assert missing_command(["solve", "--seed", "1"]) is None


def test_a_wrong_example_fails(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "```console\n$ thegame solve --seed 1 --json --time-limit 5\n"
        '{"verdict": "win", "no_such_key": 1}\n$ thegame solve --no-such-option\n```\n',
        encoding="utf-8",
    )
    (block,) = parse(page)
    assert isinstance(block, Block)
    problems = run_block(block, CliRunner())
    assert len(problems) == 2
    assert "no_such_key" in problems[0] and "exited 2" in problems[1]
    page.write_text(
        "```console\n$ thegame check --help\nUsage: thegame check [OPTIONS] FILE\n...\n"
        "$ thegame solve --help\nUsage: thegame solve --no-such-thing\n```\n",
        encoding="utf-8",
    )
    (block,) = parse(page)
    assert isinstance(block, Block)
    (problem,) = run_block(block, CliRunner())
    assert "does not print 'Usage: thegame solve --no-such-thing'" in problem


def test_a_server_without_its_setting_is_refused_not_run(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("```console\n$ thegame serve\n$ thegame nosuch\n```\n", encoding="utf-8")
    (block,) = parse(page)
    assert isinstance(block, Block)
    # refused without being started; the next command is reached (and skipped as unknown)
    assert run_block(block, CliRunner()) == [
        f"{page.name}:2: `thegame serve` serves until Ctrl-C: mark it `server`",
        f"SKIP {page.name}:3: no command 'nosuch' yet",
    ]


def test_a_command_outside_a_console_block_is_refused(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("```\nthegame solve --seed 1\n```\n", encoding="utf-8")
    assert parse(page) == [Stray("page.md:1", "thegame solve --seed 1")]
    with pytest.raises(AssertionError, match="outside a console block"):
        run_page(page, tmp_path, slow=False)
