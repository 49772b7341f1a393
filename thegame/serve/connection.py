"""The HTTP connection under the application: uvicorn's h11 protocol with a
deadline on a request's headers, and its own 400s (a request h11 cannot
parse: no Host, a repeated Content-Length, a NUL in the target) answered
with the security headers and a one-line JSON error like every other."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from .base import SECURITY_HEADERS, Settings

# What uvicorn's own 400 says (before the application sees the request).
UNPARSED = "request: not a valid HTTP/1.1 request (a missing Host, a repeated header, a bad target)"


def protocol(header_timeout: float) -> type[H11Protocol]:
    """uvicorn's h11 protocol whose connections close when a request's
    headers take over ``header_timeout`` seconds to arrive (a client sending
    a header line every few seconds would otherwise hold it for ever;
    uvicorn's keep-alive timeout restarts with every byte)."""

    class Guarded(H11Protocol):
        _header_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._arm()  # the next request's headers are on the clock too

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _arm(self) -> None:
            self._disarm()
            if not self.transport.is_closing():
                self._header_timer = self.loop.call_later(header_timeout, self._late)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _late(self) -> None:
            self._header_timer = None
            # Still waiting for a request's headers (IDLE): a body or a
            # search under way is not this timer's business.
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                self.transport.close()

        def send_400_response(self, msg: str) -> None:
            body = json.dumps({"error": UNPARSED}).encode()
            headers = [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
                *SECURITY_HEADERS,
            ]
            for event in (
                h11.Response(status_code=400, headers=headers, reason=b"Bad Request"),
                h11.Data(data=body),
                h11.EndOfMessage(),
            ):
                self.transport.write(self.conn.send(event) or b"")
            self.transport.close()

    return Guarded


def uvicorn_config(app: Any, settings: Settings, **options: Any) -> uvicorn.Config:
    """The uvicorn configuration ``thegame serve`` runs ``app`` with (its
    tests too): the guarded h11 protocol, uvicorn's access log off (the
    server logs one line per request itself)."""
    return uvicorn.Config(
        app,
        http=protocol(settings.header_timeout),
        log_level="warning",
        access_log=False,
        **options,
    )
