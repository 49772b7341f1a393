"""Running the ``thegame`` console script in-process."""

from __future__ import annotations

import signal

import pytest


def run_main(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``thegame ARGV`` as the console script runs it, in-process: the exit
    code (0 without SystemExit), stdout and stderr."""
    from thegame.cli.main import main

    # ``main`` leaves Ctrl-C ignored as it exits; a process started later
    # by the tests would inherit that and never see its Ctrl-C.
    before = signal.getsignal(signal.SIGINT)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("sys.argv", ["thegame", *argv])
        try:
            main()
            code = 0
        except SystemExit as e:
            code = int(e.code or 0)
        finally:
            signal.signal(signal.SIGINT, before)
    captured = capsys.readouterr()
    return code, captured.out, captured.err
