"""Who a request comes from, as the guards in front of the server ask it:
the names it answers to (``Host``), the same-origin rule (``Origin``,
``Sec-Fetch-Site``), and what of a request a log line may echo."""

from __future__ import annotations

import ipaddress

from starlette.types import Scope

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")


def _cut(text: str, most: int) -> str:
    return text if len(text) <= most else text[: most - 1] + "…"


def logged(text: str, most: int = 200) -> str:
    """What a client sent, as a log line may echo it: cut to ``most``
    characters, and every character that is not printable (a line break, an
    escape starting a terminal's colour code) written as its escape, so a
    request cannot forge a log line or drive the terminal."""
    shown = "".join(
        c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text
    )
    return _cut(shown, most)


def _header(scope: Scope, name: bytes) -> str | None:
    for k, v in scope["headers"]:
        if k == name:
            return str(v.decode("latin-1"))
    return None


def _host_name(host: str) -> str:
    """The name of a Host header, without its port (``[::1]:80`` is ``::1``)."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def host_allowed(host: str | None, hosts: tuple[str, ...], any_address: bool) -> bool:
    """A ``Host`` this server answers to: one of ``hosts``, or (listening on
    ``any_address``) any IP literal."""
    if not host:
        return False
    name = _host_name(host)
    if name in hosts:
        return True
    if any_address:
        try:
            ipaddress.ip_address(name)
        except ValueError:
            return False
        return True
    return False


def cross_site(scope: Scope) -> str | None:
    """Why a request comes from another site, or None.

    Browsers say where a request comes from: ``Sec-Fetch-Site`` (Chromium,
    Firefox, Safari) and ``Origin``. A page served with ``Referrer-Policy:
    no-referrer`` sends ``Origin: null`` even on its own posts, so a null
    origin passes only with ``Sec-Fetch-Site: same-origin``. A client that
    sends neither (curl, a script) is not a browser page: it passes.
    """
    site = _header(scope, b"sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        return f"a request from another site (Sec-Fetch-Site: {site[:20]})"
    origin = _header(scope, b"origin")
    if origin is None:
        return None
    if origin == "null":
        return None if site == "same-origin" else "a request from an opaque origin"
    if not _same_origin(origin, scope):
        return f"a request from another origin ({logged(origin, 60)})"
    return None


DEFAULT_PORTS = {"http": 80, "https": 443}


def _name_and_port(netloc: str, scheme: str) -> tuple[str, int | None]:
    """``host[:port]`` as (lower-case name, port), the scheme's port when none."""
    netloc = netloc.strip().lower()
    name, port = _host_name(netloc), ""
    rest = netloc[netloc.find("]") + 1 :] if netloc.startswith("[") else netloc
    if rest.count(":") == 1:
        port = rest.rsplit(":", 1)[1]
    if not port:
        return name, DEFAULT_PORTS.get(scheme)
    return name, int(port) if port.isascii() and port.isdigit() and len(port) <= 5 else None


def _same_origin(origin: str, scope: Scope) -> bool:
    """An ``Origin`` naming this server: its scheme, host and port all the
    ones the request came in by (an https origin is another site to an
    http server, as it is to a browser)."""
    scheme, sep, netloc = origin.partition("://")
    ours = str(scope.get("scheme", "http"))
    if not sep or scheme.lower() != ours or "/" in netloc or "@" in netloc:
        return False
    name, port = _name_and_port(netloc, ours)
    host_name, host_port = _name_and_port(_header(scope, b"host") or "", ours)
    return port is not None and (name, port) == (host_name, host_port)
