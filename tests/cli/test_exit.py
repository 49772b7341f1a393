"""How the console script ends: a Ctrl-C after the answer cannot kill it."""

from __future__ import annotations

import signal

import pytest

from thegame.cli import main as main_module


def test_after_the_answer_ctrl_c_is_ignored_through_shutdown(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(main_module.cli, "main", lambda **_: 0)
    before = signal.getsignal(signal.SIGINT)
    try:
        with pytest.raises(SystemExit) as done:
            main_module.main()
        assert done.value.code == 0
        # Python restores SIG_DFL at shutdown for a Python handler, but keeps
        # SIG_IGN: a late Ctrl-C then changes nothing.
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, before)


def test_a_message_on_stderr_stays_one_line_at_any_terminal_width(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A long path in "interrupted: ... written to PATH" once split over two
    # lines at the console's width, so the last line no longer said why.
    from thegame.cli import common

    monkeypatch.setattr(common.err, "_width", 40)
    message = "interrupted: 3 puzzles written to /tmp/" + "deep/" * 30 + "p"
    common.tell(message)
    assert capsys.readouterr().err == message + "\n"
