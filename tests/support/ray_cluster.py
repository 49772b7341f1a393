"""A Ray cluster of a head and worker nodes on this machine, for the tests
of ``--backend ray --address``: each node started with ``ray start``
(one CPU each, its own ports, a temporary folder) in its own process group,
and stopped by that group only (``ray stop`` would stop every Ray of the
machine, other users' too)."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RAY = [sys.executable, "-c", "from ray.scripts.scripts import main; main()"]
# Started and stopped by the test alone: no token (a token file a local Ray
# wrote in the home folder would otherwise turn it on for the head only),
# no usage report, and the package of this tree in the workers.
# On SIGTERM a node stops its processes at once (no drain): ``ray start``
# reaps them, none is left to a parent that never would.
ENV = {
    "RAY_AUTH_MODE": "disabled",
    "RAY_USAGE_STATS_ENABLED": "0",
    "RAY_GRACEFUL_SHUTDOWN_DRAIN_TIMEOUT_S": "0",
}


def cluster_env() -> dict[str, str]:
    """The environment of the nodes and of a driver joining them."""
    path = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return {**os.environ, **ENV, "PYTHONPATH": path}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _node_ports(i: int) -> list[str]:
    """A node's own ports: two raylets of one machine would take the same
    default ones (the first to bind wins, the other node never starts)."""
    low = 20000 + 1000 * (os.getpid() % 20) + 100 * i  # worker processes' ports
    return [
        "--node-manager-port", str(free_port()), "--object-manager-port", str(free_port()),
        "--metrics-export-port", str(free_port()),
        "--dashboard-agent-listen-port", str(free_port()),
        "--dashboard-agent-grpc-port", str(free_port()),
        "--runtime-env-agent-port", str(free_port()),
        "--min-worker-port", str(low), "--max-worker-port", str(low + 99),
    ]  # fmt: skip


def _start(argv: list[str], log: Path, nodes: list[subprocess.Popen[bytes]]) -> None:
    """One node, blocking in its own process group; returns once it is up."""
    f = open(log, "wb")  # noqa: SIM115 - the node writes to it until stopped
    proc = subprocess.Popen(
        [*RAY, "start", *argv, "--block"], stdout=f, stderr=subprocess.STDOUT,
        env=cluster_env(), start_new_session=True, cwd=str(ROOT),
    )  # fmt: skip
    nodes.append(proc)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if b"block forever" in log.read_bytes():
            return
        if proc.poll() is not None:
            break
        time.sleep(0.25)
    tail = log.read_bytes()[-2000:].decode(errors="replace")
    raise RuntimeError(f"a Ray node did not start ({' '.join(argv[:2])}):\n{tail}")


def _stop(nodes: list[subprocess.Popen[bytes]]) -> None:
    """Each node's process group, the workers first: asked to end, then killed."""
    for proc in reversed(nodes):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(20)
    for proc in nodes:  # whatever outlived ``ray start``
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


@contextlib.contextmanager
def local_cluster(workers: int = 2) -> Iterator[str]:
    """A head and ``workers`` worker nodes of one CPU each; yields the address."""
    temp = Path(tempfile.mkdtemp(prefix="ray", dir="/tmp"))  # short: socket paths
    nodes: list[subprocess.Popen[bytes]] = []
    port = free_port()
    address = f"127.0.0.1:{port}"
    try:
        _start(["--head", "--port", str(port), "--num-cpus", "1", "--temp-dir", str(temp),
                "--include-dashboard", "false",
                *_node_ports(0)], temp / "head.log", nodes)  # fmt: skip
        for i in range(1, workers + 1):
            _start(["--address", address, "--num-cpus", "1", *_node_ports(i)],
                   temp / f"worker{i}.log", nodes)  # fmt: skip
        yield address
    finally:
        _stop(nodes)
        shutil.rmtree(temp, ignore_errors=True)
