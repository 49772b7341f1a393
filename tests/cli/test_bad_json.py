"""Malformed JSON is bad input in every game: one line, exit 2, no traceback.

Deep nesting and over-long numbers are the cases ``json.loads`` reports with
a RecursionError or a ValueError instead of a JSONDecodeError.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from thegame.cli.main import cli

BAD = {
    "truncated": '{"deal": {"players": ',
    "deep": "[" * 50_000,
    "long-number": '{"deal": {"hands": [[' + "9" * 5000 + "]]}}",
}
COMMANDS = [("check",), ("mind", "check"), ("nimmt", "check"), ("cento", "check")]


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
@pytest.mark.parametrize("name", list(BAD))
def test_malformed_json_is_one_line(tmp_path: Path, command: tuple[str, ...], name: str) -> None:
    path = tmp_path / f"{name}.json"
    path.write_text(BAD[name])
    result = CliRunner().invoke(cli, [*command, str(path)])
    assert result.exit_code == 2, (result.output, result.exception)
    assert "malformed JSON" in result.stderr
    assert len(result.stderr.splitlines()) == 1
