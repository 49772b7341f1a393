"""``thegame serve`` as a user starts it: ``--port 0`` prints the port it
got, each request is one line on stderr (``--quiet``: none), and Ctrl-C
stops it with exit 130."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time

import httpx
import pytest

CLI = [sys.executable, "-c", "from thegame.cli.main import main; main()", "serve"]


def _start(*args: str) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [*CLI, "--port", "0", "--workers", "1", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    match = re.fullmatch(
        r"thegame serve: (http://127\.0\.0\.1:(\d+)/)  \(Ctrl-C stops it\)\n", line
    )
    assert match, line
    assert match.group(2) != "0"
    return proc, match.group(1)


def _wait(url: str) -> httpx.Client:
    client = httpx.Client(base_url=url, timeout=60)
    deadline = time.monotonic() + 120
    while True:
        try:
            client.get("/api/openapi.json")
            return client
        except httpx.TransportError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def _stop(proc: subprocess.Popen[str]) -> tuple[int, str]:
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise
    return proc.returncode, err


@pytest.mark.parametrize("quiet", [False, True])
def test_port_0_prints_the_real_port_and_each_request_is_one_line(quiet: bool) -> None:
    proc, url = _start(*(["--quiet"] if quiet else []))
    try:
        c = _wait(url)
        assert c.get("/api/daily", params={"date": "2026-02-30"}).status_code == 400
        assert c.get("/api/nope").status_code == 404
        c.close()
    finally:
        code, err = _stop(proc)
    assert code == 130
    assert "Traceback" not in err
    lines = [ln for ln in err.splitlines() if " ms" in ln]
    if quiet:
        assert lines == []
    else:
        assert any(re.search(r"GET /api/daily 400 \d+ ms$", ln) for ln in lines), err
        assert any(re.search(r"GET /api/nope 404 \d+ ms$", ln) for ln in lines), err


def test_a_foreign_host_is_refused_by_the_started_server() -> None:
    proc, url = _start("--quiet")
    try:
        c = _wait(url)
        assert c.get("/", headers={"host": "rebind.example"}).status_code == 403
        assert c.get("/", headers={"host": "localhost"}).status_code == 200
        c.close()
    finally:
        _stop(proc)
