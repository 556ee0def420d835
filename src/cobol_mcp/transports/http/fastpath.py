"""The connection side of :mod:`.lane`: uvicorn's protocol, with the common POST answered below ASGI.

:class:`LaneHttpTools` is :class:`.limits.GuardedHttpTools` (every bound of its list still holds:
heads are timed and sized before any request starts). When a request's head is in, it offers a
plain ``POST /mcp`` (HTTP/1.1, keep-alive, no ``Expect``, not pipelined behind a reply still due) to
the application's lane. An admitted request's body is read here; if all of it came in the same
read as its head, the lane answers it and the reply is written straight to the transport, with the
headers uvicorn would have written (its ``date`` among them). Otherwise, and whenever the lane
declines, the request goes to the ASGI application with what of its body has arrived, as if it
had gone there from the start.

While a reply is due, :class:`_Quick` stands where uvicorn keeps its request cycle, so that
uvicorn's own code (pipelined requests queue behind it, a graceful stop closes the connection after
it, a disconnect is seen) works unchanged.
"""

from __future__ import annotations

from uvicorn.protocols.http.flow_control import HIGH_WATER_LIMIT

from .limits import GuardedHttpTools

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .lane import Lane, Ticket

PROTOCOL = f"{__name__}:LaneHttpTools"
PATHS = (b"/mcp", b"/mcp/")
STATUS_200 = b"HTTP/1.1 200 OK\r\n"
JSON_HEAD = b"content-type: application/json\r\n"
SSE_HEAD = b"content-type: text/event-stream\r\ncache-control: no-cache, no-transform\r\nx-accel-buffering: no\r\n"
CLOSE = b"connection: close\r\n"

_head: list[object] = [None, STATUS_200]  # uvicorn's default headers (they change each second), and their bytes


def head_start(defaults: list[tuple[bytes, bytes]]) -> bytes:
    """The status line and uvicorn's default headers (``date``; ``server`` when enabled)."""
    if _head[0] is not defaults:
        _head[1] = STATUS_200 + b"".join(name + b": " + value + b"\r\n" for name, value in defaults)
        _head[0] = defaults
    return _head[1]  # type: ignore[return-value]  # (set just above)


class _Quick:
    """Stands for uvicorn's RequestResponseCycle while a request on the lane awaits its reply."""

    __slots__ = ("response_complete", "keep_alive", "disconnected", "message_event")

    def __init__(self) -> None:
        self.response_complete = False
        self.keep_alive = True
        self.disconnected = False
        self.message_event = self  # uvicorn sets it on a disconnect: nothing waits on it here

    def set(self) -> None:
        pass


class LaneHttpTools(GuardedHttpTools):
    """uvicorn's httptools protocol, bounded (see limits), with the lane for the common POST."""

    _lane: Lane | None = None
    _reading: Ticket | None = None  # admitted; its body is being read
    _body = b""
    _due: Ticket | None = None  # answered on the lane; its reply is due
    _quick: _Quick | None = None

    def start_request(self) -> None:
        lane: Lane | None = getattr(self.app, "lane", None)  # (None before start-up and with --metrics)
        if (
            lane is not None
            and self.url in PATHS
            and (self.cycle is None or self.cycle.response_complete)
            and not self.expect_100_continue
            and not self.access_log
            and self.limit_concurrency is None
            and not self.flow.write_paused  # a client that reads no replies: the ASGI path waits for it
        ):
            parser = self.parser
            if (
                parser.get_method() == b"POST"
                and parser.get_http_version() == "1.1"
                and parser.should_keep_alive()
                and not parser.should_upgrade()
            ):
                ticket = lane.admit(self.headers)
                if ticket is not None:
                    self._lane, self._reading, self._body = lane, ticket, b""
                    return
        super().start_request()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        ticket = self._reading
        if ticket is not None:  # the body did not all come with the head: the ASGI path reads the rest
            self._reading = None
            body, self._body = self._body, b""
            if not self.transport.is_closing():
                self._to_asgi(body, complete=False)

    def on_body(self, body: bytes) -> None:
        if self._reading is not None:
            self._body += body
        else:
            super().on_body(body)

    def on_message_complete(self) -> None:
        ticket, lane = self._reading, self._lane
        if ticket is None or lane is None:
            super().on_message_complete()
            return
        self._reading = None
        body, self._body = self._body, b""
        quick = self._quick = _Quick()  # (a new one: the previous request's may be what uvicorn holds)
        previous, self.cycle = self.cycle, quick  # type: ignore[assignment]  # it stands for the cycle
        self._due = ticket
        ticket.answer = self._answer
        if not lane.serve(ticket, body):  # declined, nothing sent
            self._due = ticket.answer = None
            self.cycle = previous
            self._to_asgi(body, complete=True)

    def _to_asgi(self, body: bytes, complete: bool) -> None:
        """Start the ASGI application on this request, with the part of its body that has arrived."""
        super().start_request()
        cycle = self.cycle
        if body:
            cycle.body += body
            if len(cycle.body) > HIGH_WATER_LIMIT:
                self.flow.pause_reading()
        if complete:
            cycle.more_body = False
        cycle.message_event.set()

    def _answer(self, line: bytes | None) -> None:
        """Write the reply of the request on the lane: its JSON body, or (None) an empty SSE stream."""
        ticket, quick = self._due, self._quick
        if ticket is None or quick is None:
            return
        self._due = None
        transport = self.transport
        if quick.disconnected or transport.is_closing():
            quick.response_complete = True
            return
        extra = b"mcp-session-id: " + ticket.session_id + b"\r\n" if ticket.session_id is not None else b""
        close = b"" if quick.keep_alive else CLOSE
        start = head_start(self.server_state.default_headers)
        if line is not None:
            length = b"content-length: %d\r\n" % len(line)
            transport.write(b"".join((start, JSON_HEAD, extra, length, close, b"\r\n", line)))
        else:  # as uvicorn frames a stream with no length: chunked, here with no chunk
            transport.write(
                b"".join((start, SSE_HEAD, extra, b"transfer-encoding: chunked\r\n", close, b"\r\n0\r\n\r\n"))
            )
        quick.response_complete = True
        if not quick.keep_alive:
            transport.close()
        self.on_response_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._reading = None
        ticket, self._due = self._due, None
        if ticket is not None and self._lane is not None:
            if self._quick is not None:
                self._quick.disconnected = True
            self._lane.left(ticket)
        super().connection_lost(exc)
