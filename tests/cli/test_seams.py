"""The seams a new user meets between the docs, the help and the commands:
the options the docs use are the ones the help shows (the older names still
read, hidden), ``--level`` is a level of The Mind and nothing else, a file
with a byte-order mark reads as without it, a closed pipe and an empty deal
list are said plainly, and ``play`` reads a line in the shared notation."""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from tests.support.docs import docs_pages
from thegame.analysis.the_game.blind import choose_turn
from thegame.cli.main import cli
from thegame.models.the_game import Deal, GameState, Record, Turn, get_rules, pile_name

ROOT = Path(__file__).resolve().parents[2]
COMMAND = re.compile(r"^\$ (thegame .*)$")


def _command(args: list[str]) -> tuple[click.Command, list[str]]:
    """The click command ``args`` names, and the words after its name."""
    cmd: click.Command = cli
    rest = list(args)
    while isinstance(cmd, click.Group) and rest and rest[0] in cmd.commands:
        cmd = cmd.commands[rest.pop(0)]
    return cmd, rest


def _visible(cmd: click.Command) -> set[str]:
    names = {"--help", "-h"}
    for p in cmd.params:
        if isinstance(p, click.Option) and not p.hidden:
            names.update(p.opts + p.secondary_opts)
    return names


def _documented_commands() -> list[tuple[str, str]]:
    found = []
    for page in [ROOT / "README.md", *docs_pages()]:
        for line in page.read_text(encoding="utf-8").splitlines():
            m = COMMAND.match(line.strip())
            if m:
                found.append((page.name, m.group(1)))
    return found


def test_every_option_the_docs_use_is_shown_in_the_help() -> None:
    commands = _documented_commands()
    assert len(commands) > 50  # the docs' examples were found
    hidden = []
    for page, text in commands:
        words = shlex.split(text.split(" | ")[0].split(" > ")[0])[1:]
        cmd, rest = _command(words)
        shown = _visible(cmd)
        for word in rest:
            option = word.split("=", 1)[0]
            if option.startswith("--") and option not in shown:
                hidden.append(f"{page}: {text} ({option})")
    assert not hidden, hidden


@pytest.mark.parametrize(
    ("args", "param", "value"),
    [
        (["generate", "--cards", "12-20", "--out", "p"], "old_cards", "12-20"),
        (["play", "--seed", "1", "--hint-time", "2"], "hint_time", 2.0),
        (["play", "--seed", "1", "--seconds", "2"], "seconds", 2.0),
        (["play", "--seed", "1", "--level", "default"], "old_level", "default"),
        (["analyze", "game.json", "--level", "default"], "old_level", "default"),
        (["survey", "blind", "--db", "s.sqlite", "--level", "strong"], "old_level", "strong"),
        (["nimmt", "play", "--level", "easy"], "old_level", "easy"),
    ],
)
def test_the_older_names_still_read_hidden(args: list[str], param: str, value: object) -> None:
    cmd, rest = _command(args)
    ctx = cmd.make_context(cmd.name or "", rest)
    assert ctx.params[param] == value
    old = next(p for p in cmd.params if p.name == param)
    assert isinstance(old, click.Option) and old.hidden
    shown = cmd.get_help(ctx)
    assert not any(re.search(re.escape(o) + r"(?![\w-])", shown) for o in old.opts), old.opts


def _all_commands(group: click.Group = cli, path: str = "") -> list[tuple[str, click.Command]]:
    found: list[tuple[str, click.Command]] = []
    for name, cmd in group.commands.items():
        if isinstance(cmd, click.Group):
            found += _all_commands(cmd, f"{path}{name} ")
        else:
            found.append((path + name, cmd))
    return found


def test_level_is_a_level_of_the_mind_and_strength_a_strength() -> None:
    levels, strengths = [], []
    for name, cmd in _all_commands():
        for p in cmd.params:
            if not isinstance(p, click.Option) or p.hidden:
                continue
            if "--level" in p.opts:
                levels.append(name)
                assert isinstance(p.type, click.IntRange), name  # a number
            if "--strength" in p.opts:
                strengths.append(name)
    assert levels and all(n.startswith("mind ") for n in levels), levels
    assert {"play", "analyze", "survey blind", "nimmt play"} <= set(strengths), strengths


BOM = "\ufeff"


def test_a_file_with_a_byte_order_mark_reads_as_without(tmp_path: Path) -> None:
    import thegame

    deal = Deal.from_seed(3, get_rules("classic"))
    record = Record(deal)
    for name, text in (("deal.json", deal.to_json()), ("deal.txt", deal.to_text() + "\n"),
                       ("record.json", record.to_json())):  # fmt: skip
        path = tmp_path / name
        path.write_text(BOM + text, encoding="utf-8")
        result = CliRunner().invoke(cli, ["solve", str(path), "--node-limit", "1000", "--json"])
        assert result.exit_code == 0, (name, result.output)
        assert thegame.load(str(path)).deal == deal, name
    deals = tmp_path / "deals.jsonl"
    deals.write_text(BOM + deal.to_json() + "\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["solve-batch", "--deals", str(deals), "--node-limit", "2000"])
    assert result.exit_code == 0, result.output
    assert result.stdout.count("\n") == 1


@pytest.mark.parametrize("content", ["[]", '{"deals": []}', ""])
def test_solve_batch_of_no_deals_says_so(tmp_path: Path, content: str) -> None:
    path = tmp_path / "deals.json"
    path.write_text(content)
    result = CliRunner().invoke(cli, ["solve-batch", "--deals", str(path)])
    assert result.exit_code == 2
    assert "no deals in the file" in result.stderr and not result.stdout


def test_solve_batch_into_a_closed_pipe_ends_quietly() -> None:
    """``solve-batch --seeds 1-30 | head -1``: the reader leaves after one
    line; the command ends as SIGPIPE would, saying nothing."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-c", "from thegame.cli.main import main; main()",
         "solve-batch", "--seeds", "1-30", "--node-limit", "3000", "--jobs", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=ROOT,
    )  # fmt: skip
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()
    code = proc.wait(timeout=120)
    assert first.startswith(b"{")
    assert code in (-signal.SIGPIPE, 128 + signal.SIGPIPE), code
    assert proc.stderr.read() == b""


SMALL = "classic 1p first=1 high=20 asc_piles=1 desc_piles=1 hand_sizes=3,3,3,3,3"
EASY = SMALL + " : 2 3 20 4 19 5 18 6 17 7 16 8 15 9 14 10 13 11 12"


def test_play_reads_a_line_in_the_shared_notation(tmp_path: Path) -> None:
    deal = Deal.from_text(EASY)
    state, turns = GameState(deal), []
    while not state.over:
        plays = choose_turn(state)
        for p in plays:
            state.play(p.card, p.pile)
        turns.append(Turn(1, tuple(plays)))
        if not state.over:
            state.end_turn()
    written = [", ".join(f"{p.card} {pile_name(deal.rules, p.pile)}" for p in t.plays)
               for t in turns]  # fmt: skip
    (tmp_path / "deal.txt").write_text(EASY + "\n")
    saved = tmp_path / "game.json"
    # The first turn as a line, the rest of the game as one line with '|'.
    lines = [written[0], "end", " | ".join(written[1:]), "quit"]
    result = CliRunner().invoke(
        cli,
        ["play", "--deal", str(tmp_path / "deal.txt"), "--save", str(saved), "--no-review"],
        input="\n".join(lines) + "\n",
    )
    assert result.exit_code == 0, result.output
    assert Record.from_json(saved.read_text()).turns == tuple(turns)
    # A refused step ends the line there: nothing after it is played.
    result = CliRunner().invoke(
        cli,
        ["play", "--deal", str(tmp_path / "deal.txt"), "--save", str(saved), "--no-review"],
        input="2 A1, 3 A1, 99 A1, 20 D1\nend\nquit\n",
    )
    assert "invalid: 99 is not in your hand" in result.output
    kept = Record.from_json(saved.read_text())
    assert [p.card for t in kept.turns for p in t.plays] == [2, 3]
