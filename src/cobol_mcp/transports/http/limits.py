"""What the HTTP server holds per connection, and how fast it stops: bounds below the ASGI application.

uvicorn (with httptools) gives a request no time limit before its headers are complete, lets the
headers grow without bound, and answers its own overload with plain text. :class:`GuardedHttpTools`
adds, per connection:

- a time bound: a request's head (request line and headers) must be complete within
  ``read_timeout`` seconds of the connection or of the request's first byte, else 408 and close; a
  connection with no request begun that long (fresh), or idle after a reply for uvicorn's keep-alive
  timeout if that is shorter, is closed without a word, as keep-alive connections are: a 408 there
  would be read as the answer to a request the client may be sending at that very moment;
- a size bound: a head over ``max_head_bytes`` gets 431 and close;
- a count bound: a connection beyond ``max_connections`` gets 503 with ``Retry-After`` and close.

Every such answer has a JSON-RPC error body. (How the server stops: :mod:`.stopping`.)
"""

from __future__ import annotations

import asyncio

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from ...protocol.jsonrpc import INVALID_REQUEST
from .wire import error_body

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .context import Settings

PROTOCOL = f"{__name__}:GuardedHttpTools"


class Limits:
    """The bounds the protocol enforces; one set per process, from the settings (:func:`configure`)."""

    max_connections = 2048
    read_timeout = 30.0
    max_head_bytes = 64 << 10


def configure(settings: Settings) -> None:
    Limits.max_connections = settings.max_connections
    Limits.read_timeout = settings.read_timeout
    Limits.max_head_bytes = settings.max_head_bytes


def raise_file_limit(wanted: int) -> None:
    """Let the process hold `wanted` descriptors (connections plus COBOL pipes), as far as the hard limit allows."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        if soft != resource.RLIM_INFINITY and soft < target:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    except (ImportError, ValueError, OSError):
        pass


def refusal(status: int, reason: str, text: str, extra: bytes = b"") -> bytes:
    """A complete HTTP/1.1 response that ends the connection, with a JSON-RPC error body."""
    body = error_body(INVALID_REQUEST, text)
    return (
        (
            f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n"
            f"connection: close\r\n"
        ).encode()
        + extra
        + b"\r\n"
        + body
    )


BUSY = refusal(
    503, "Service Unavailable", "Service Unavailable: too many connections; try again later", b"retry-after: 1\r\n"
)
SLOW = refusal(408, "Request Timeout", "Request Timeout: the request's headers did not arrive in time")
NOT_HTTP = refusal(400, "Bad Request", "Bad Request: the request is not valid HTTP/1.1")
HEAD_TOO_LARGE = refusal(
    431, "Request Header Fields Too Large", "Request Header Fields Too Large: the request line and headers are too long"
)


class GuardedHttpTools(HttpToolsProtocol):
    """uvicorn's httptools protocol with the time, size and count bounds of the module's list."""

    _head_timer: asyncio.TimerHandle | None = None
    _in_head = False
    _begun = False  # a byte of the awaited request has arrived
    _head_deadline = 0.0  # loop time by which the awaited head must be complete
    _idle_deadline = 0.0  # loop time by which its first byte must have come (keep-alive), else a silent close
    _timer_at = 0.0  # loop time the head timer is armed for
    _head_bytes = 0  # bytes received while the head is incomplete
    _parsed_head = 0  # bytes of the request line and headers, as parsed
    _refused = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]  # as uvicorn's own
        super().connection_made(transport)
        if len(self.connections) > Limits.max_connections:
            self._refuse(BUSY)
            return
        self._await_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head_timer()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return
        if self._in_head:
            self._head_bytes += len(data)
            self._begun = True
        super().data_received(data)
        if self._in_head and self._head_bytes > Limits.max_head_bytes and not self.transport.is_closing():
            self._refuse(HEAD_TOO_LARGE)

    def send_400_response(self, msg: str) -> None:
        """Bytes that are not HTTP: uvicorn's plain-text 400, with a JSON-RPC body instead."""
        self._refuse(NOT_HTTP)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._parsed_head = 0
        if not self._in_head:  # pipelined after a request still being answered
            self._await_head()
        self._begun = True

    def on_url(self, url: bytes) -> None:
        self._parsed_head += len(url)
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._parsed_head += len(name) + len(value) + 4
        name = name.lower()  # uvicorn's own on_header, inlined: it runs for every header of every request
        if name == b"expect" and value.lower() == b"100-continue":
            self.expect_100_continue = True
        self.headers.append((name, value))

    def on_headers_complete(self) -> None:
        self._in_head = False  # (its timer is left to run out: see _await_head)
        if self._parsed_head > Limits.max_head_bytes:
            self._refuse(HEAD_TOO_LARGE)  # no request starts; what follows in this read is dropped
            return
        self.start_request()

    def start_request(self) -> None:
        """The request's head is in, within bounds: hand it to the ASGI application."""
        super().on_headers_complete()

    def on_body(self, body: bytes) -> None:
        if not self._refused:
            super().on_body(body)

    def on_message_complete(self) -> None:
        if not self._refused:
            super().on_message_complete()

    def on_response_complete(self) -> None:
        """uvicorn's own, with its keep-alive timer (armed per response) folded into the head timer."""
        self.server_state.total_requests += 1
        if self.transport.is_closing():
            return
        self._unset_keepalive_if_required()
        self.flow.resume_reading()
        if self.pipeline:
            cycle, app = self.pipeline.pop()
            self._start_asgi_task(cycle, app)
            return
        idle = self.cycle is None or self.cycle.response_complete  # no pipelined request started
        if idle and (not self._in_head or self._head_timer is None):
            self._await_head(keep_alive=True)

    # ------------------------------------------------------------------------------ head bound
    def _await_head(self, keep_alive: bool = False) -> None:
        """Time the next head: complete within `read_timeout`, and, after a response (`keep_alive`),
        begun within uvicorn's keep-alive timeout, else the connection is closed without a word.
        One timer per connection, not one per request: it is armed when none is or when it would go
        off too late, and when it goes off before the current deadline it is armed again for the rest."""
        self._in_head, self._head_bytes, self._begun = True, 0, False
        now = self.loop.time()
        self._head_deadline = now + Limits.read_timeout
        self._idle_deadline = (
            now + min(self.timeout_keep_alive, Limits.read_timeout) if keep_alive else self._head_deadline
        )
        if self._head_timer is not None and self._timer_at > self._idle_deadline:
            self._cancel_head_timer()
        if self._head_timer is None:
            self._timer_at = self._idle_deadline
            self._head_timer = self.loop.call_later(self._idle_deadline - now, self._head_late)

    def _cancel_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_late(self) -> None:
        self._head_timer = None
        if not self._in_head:
            return  # the head came in time; the next wait arms the timer again
        now = self.loop.time()
        deadline = self._head_deadline if self._begun else self._idle_deadline
        if deadline > now:
            self._timer_at = deadline
            self._head_timer = self.loop.call_later(deadline - now, self._head_late)
            return
        if self._in_head and not self.transport.is_closing() and (self.cycle is None or self.cycle.response_complete):
            if self._begun:
                self._refuse(SLOW)
            else:  # no request to answer: close like an idle keep-alive connection
                self._refused = True
                self._in_head = False
                self.transport.close()

    def _refuse(self, response: bytes) -> None:
        self._refused = True
        self._in_head = False
        self._cancel_head_timer()
        if not self.transport.is_closing():
            self.transport.write(response)
            self.transport.close()
