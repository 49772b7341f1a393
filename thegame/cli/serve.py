"""``thegame serve``: the web pages and the JSON API on this machine."""

from __future__ import annotations

import ipaddress
import os
import socket

import click

from .common import SECONDS, fail, out, tell


def _family(host: str) -> socket.AddressFamily:
    return socket.AF_INET6 if ":" in host else socket.AF_INET


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port to listen on.")  # fmt: skip
@click.option("--open", "open_browser", is_flag=True, help="Open the pages in a browser.")
@click.option(
    "--workers",
    type=click.IntRange(min=1, max=64),
    default=None,
    help="Worker processes for the searches (default: the cores).",
)
@click.option(
    "--time-cap",
    type=SECONDS,
    default=30.0,
    show_default=True,
    help="Seconds any one search may take, whatever a request asks.",
)
@click.option(
    "--queue-wait",
    type=SECONDS,
    default=120.0,
    show_default=True,
    help="Seconds a request waits for a free worker before a 503.",
)
@click.option("--quiet", is_flag=True, help="Log no line per request.")
def serve(
    host: str,
    port: int,
    open_browser: bool,
    workers: int | None,
    time_cap: float,
    queue_wait: float,
    quiet: bool,
) -> None:
    """Serve the daily puzzle, real games, the solver and the review in a browser."""
    import threading
    import webbrowser

    try:
        import uvicorn

        from ..serve.app import Settings, create_app
        from ..serve.connection import uvicorn_config
    except ImportError as e:  # an install that left out the server's packages
        fail(f"thegame serve needs {e.name or 'its web packages'}: pip install 'thegame[serve]'")
        return

    try:
        # Bound here, so a taken port or a bad address is one line and exit 2.
        sock = socket.create_server((host, port), family=_family(host))
    except (OSError, OverflowError) as e:
        fail(f"cannot listen on {host}:{port}: {getattr(e, 'strerror', None) or e}")
        return
    port = sock.getsockname()[1]  # the port the system gave for --port 0
    settings = Settings(
        workers=workers or os.cpu_count() or 1,
        time_cap=time_cap,
        queue_wait=queue_wait,
        hosts=_names(host),
        any_address=_any_address(host),
    )
    url = f"http://{'[' + host + ']' if ':' in host else host}:{port}/"
    if not _loopback(host):
        tell(
            f"warning: listening on {host}: other machines can reach this server "
            "(it has no accounts and no TLS)"
        )
    out.print(f"thegame serve: {url}  (Ctrl-C stops it)", markup=False)
    out.file.flush()  # the address now, also through a pipe (a script waits for it)
    _log_requests(quiet)
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    config = uvicorn_config(create_app(settings), settings)
    uvicorn.Server(config).run(sockets=[sock])
    # uvicorn returns once Ctrl-C (or SIGTERM) has stopped it: exit 130 as
    # every command does after Ctrl-C.
    raise KeyboardInterrupt


def _any_address(host: str) -> bool:
    return host in ("0.0.0.0", "::", "")


def _names(host: str) -> tuple[str, ...]:
    """The Host names the server answers to: the address it listens on,
    this machine's loopback names, and (on every address) its own name."""
    names = {host.lower().strip("[]"), "127.0.0.1", "localhost", "::1"}
    if not _loopback(host):
        names.update({socket.gethostname().lower(), socket.getfqdn().lower()})
    return tuple(sorted(names))


def _log_requests(quiet: bool) -> None:
    """One line per request on stderr (method, path, status, milliseconds)."""
    import logging

    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(message)s", "%H:%M:%S"))
    server_log = logging.getLogger("thegame.serve")
    server_log.addHandler(handler)
    server_log.setLevel(logging.INFO)
    if quiet:
        logging.getLogger("thegame.serve.access").setLevel(logging.WARNING)
