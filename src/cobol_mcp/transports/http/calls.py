"""Tool calls of HTTP requests: the COBOL runtime on the server's asyncio loop, and POSTs waiting for it.

The runtime registers its worker pipes with the loop; frames queued for the workers are written
once per loop turn (so concurrent calls share one write per worker), and a timer follows the
runtime's next call deadline. A POST whose call is quick gets its reply as soon as the result
arrives. A slow one is looked at every second: it sends a progress notification when the request
carried a progress token (which turns the reply into an SSE stream), and, when no session can cancel
it (stateless mode, 2026-07-28 requests), it watches the connection: a client that leaves cancels
its call.
"""

from __future__ import annotations

import asyncio
import time

from ...catalog import SHUTDOWN_KILLED, Catalog
from ...flight import CANCELLED, STOPPED, WAITING, Flight, Flights
from ...protocol import jsonrpc
from .wire import JSON_HEADERS, error_body, send_bytes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from ...protocol.modern import ModernEra
    from ...protocol.outcome import ToolCall
    from ...protocol.session import Session
    from ...server import Server
    from .sessions import SessionState
    from .wire import Receive, Reply

TICK_SECONDS = 1.0  # progress notifications of a running call; without a session: disconnect checks after this
MIN_TIMER_SECONDS = 0.0005  # a deadline already past is looked at again this soon, not in a busy loop
SERVER_BUSY = -32000  # JSON-RPC's implementation-defined server error: the call was not started


class _Wake:
    """Wakes the POST handler that waits for a call (its flight's `then`, or a tick of the slow path)."""

    __slots__ = ("future",)

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.future: asyncio.Future[None] = loop.create_future()

    def __call__(self, flight: object = None) -> None:
        if not self.future.done():
            self.future.set_result(None)


def reply_line(session: Session | ModernEra, call: ToolCall, result: Any) -> tuple[bytes | None, str]:
    """The reply to a call that ended with `result` (None: none, it was cancelled), and the outcome:
    ok, error (an isError result), cancelled or fault."""
    if result is CANCELLED:
        return None, "cancelled"
    if result is STOPPED:
        return jsonrpc.error_line(call.request_id, SERVER_BUSY, SHUTDOWN_KILLED), "fault"
    if isinstance(result, BaseException):
        return session.internal_error(call.request_id, f"the tool failed ({type(result).__name__})"), "fault"
    return session.tool_result(call, result), "error" if isinstance(result, dict) and result.get("isError") else "ok"


class ReaderLoop:
    """What the runtime sees as its loop: asyncio's readers, with a flush after each callback."""

    def __init__(self, loop: asyncio.AbstractEventLoop, after: Callable[[], None]) -> None:
        self._loop, self._after = loop, after

    def add_reader(self, fd: int, callback: Callable[[], object]) -> None:
        after = self._after

        def readable() -> None:
            callback()
            after()

        self._loop.add_reader(fd, readable)

    def remove_reader(self, fd: int) -> bool:
        return self._loop.remove_reader(fd)


class Calls:
    """Runs tool calls for POST handlers; `attach` it to the loop and the server before the first."""

    def __init__(self, max_calls: int = 1024) -> None:
        self.max_calls = max_calls  # running or waiting for a COBOL worker; more get 503
        self.flights = Flights()  # running or waiting for a COBOL worker, by (session state, request id)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: Server | None = None
        self._flush_pending = False
        self._expiry: asyncio.TimerHandle | None = None
        self._expiry_at = 0.0
        # Told of each finished call (tool, outcome, seconds) when /metrics is served; else no cost.
        self.observe: Callable[[str, str, float], None] | None = None

    def reader_loop(self, loop: asyncio.AbstractEventLoop) -> ReaderLoop:
        self._loop = loop
        return ReaderLoop(loop, self.kick)

    def attach(self, server: Server) -> None:
        self._server = server

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        if self._loop is None:
            raise RuntimeError("Calls.reader_loop() has not been called")
        return self._loop

    @property
    def server(self) -> Server:
        if self._server is None:
            raise RuntimeError("Calls.attach() has not been called")
        return self._server

    def close(self) -> None:
        if self._expiry is not None:
            self._expiry.cancel()

    # ---------------------------------------------------------------------------------- runtime pacing
    def kick(self) -> None:
        """Write the frames queued for the workers at the end of this loop turn."""
        if not self._flush_pending:
            self._flush_pending = True
            self.loop.call_soon(self._flush)

    def _flush(self) -> None:
        self._flush_pending = False
        runtime = self.server.runtime
        runtime.flush()
        deadline = runtime.next_deadline()
        if deadline is not None and (self._expiry is None or deadline < self._expiry_at):
            if self._expiry is not None:
                self._expiry.cancel()
            self._expiry_at = deadline
            delay = max(MIN_TIMER_SECONDS, deadline - time.monotonic())
            self._expiry = self.loop.call_later(delay, self._expire)

    def _expire(self) -> None:
        self._expiry = None
        self.server.runtime.expire()
        self._flush()

    # ---------------------------------------------------------------------------------- calls
    def full(self) -> bool:
        """Whether a new call would be refused (503): `max_calls` are running or queued."""
        return len(self.flights) >= self.max_calls

    def start(
        self,
        session: Session | ModernEra,
        state: SessionState | None,
        call: ToolCall,
        finish: Callable[[bytes | None], None],
    ) -> Flight | None:
        """Run `call` for a request answered without a coroutine (:mod:`.lane`; the caller checked
        :meth:`full`): `finish` gets its reply line, or None when it was cancelled. Returns the
        call in flight (for :meth:`drop`), or None when it ended at once."""
        flights = self.flights

        def then(flight: Flight) -> None:
            flights.done(flight)
            finish(reply_line(session, call, flight.result)[0])

        flight = Flight(call.request_id, state, then, call)
        self.server.catalog.start(flight, call.name, call.arguments)
        if flight.result is not WAITING:
            return None
        self.kick()
        flights.add(flight)
        return flight

    def drop(self, flight: Flight) -> None:
        """Cancel a call of :meth:`start` whose client left; its `finish` gets None."""
        self.flights.done(flight)
        if flight.cancel():
            self.kick()

    async def run(
        self, session: Session | ModernEra, state: SessionState | None, call: ToolCall, reply: Reply, receive: Receive
    ) -> None:
        """Run `call` and finish `reply` with its result. `state`: the session it runs in, if any."""
        if self.observe is None:
            await self._run(session, state, call, reply, receive)
            return
        started = time.perf_counter()
        outcome = await self._run(session, state, call, reply, receive)
        tool = call.name if self.server.catalog.tool(call.name) is not None else "(unknown)"
        self.observe(tool, outcome, time.perf_counter() - started)  # (a client's name never becomes a label)

    async def _run(
        self, session: Session | ModernEra, state: SessionState | None, call: ToolCall, reply: Reply, receive: Receive
    ) -> str:
        """`run`; returns the outcome: ok, error (an isError result), cancelled, busy or fault."""
        if len(self.flights) >= self.max_calls:
            await send_bytes(
                reply.send,
                503,
                error_body(
                    SERVER_BUSY,
                    f"Service Unavailable: {self.max_calls} tool calls are running or queued; try again later",
                    call.request_id,
                ),
                [*JSON_HEADERS, (b"retry-after", b"1"), *reply.headers],
            )
            return "busy"
        wake = _Wake(self.loop)
        flight = Flight(call.request_id, state, wake, call)
        self.server.catalog.start(flight, call.name, call.arguments)
        if flight.result is WAITING:
            self.kick()
            self.flights.add(flight)
            try:
                token = (call.meta or {}).get("progressToken") if reply.sse_ok else None
                if isinstance(token, bool) or not isinstance(token, (str, int)):
                    token = None
                if token is None and state is not None:
                    await wake.future
                elif not await self._wait_long(flight, wake, token, reply, receive, state is None):
                    return "cancelled"  # the client left and the call was cancelled
            except asyncio.CancelledError:
                # Only a stopping server cancels a request's task (uvicorn at the end of its graceful
                # shutdown, in each process of --workers N): the call is killed and rolled back, and
                # the client gets the JSON-RPC error that says so, not a bare 500.
                Catalog.abandon(flight)
                self.kick()
            finally:
                self.flights.done(flight)
        line, outcome = reply_line(session, call, flight.result)
        await reply.finish(line)
        return outcome

    async def _wait_long(
        self,
        flight: Flight,
        wake: _Wake,
        token: str | int | None,
        reply: Reply,
        receive: Receive,
        cancel_on_disconnect: bool,
    ) -> bool:
        """Wait for a call, sending progress each tick when asked to. Without a session, a client that
        disconnects cancels its call (nothing else could). False: it left."""
        loop = self.loop
        watcher: asyncio.Task[Any] | None = None
        ticks = 0
        try:
            while True:
                timer = loop.call_later(TICK_SECONDS, wake)
                await wake.future
                timer.cancel()
                if not flight.waiting:
                    return True
                wake.future = loop.create_future()
                if watcher is not None and watcher.done():
                    if flight.cancel():
                        self.kick()
                    return False
                if cancel_on_disconnect and watcher is None:
                    watcher = asyncio.ensure_future(receive())
                    watcher.add_done_callback(lambda _: wake())
                if token is not None:
                    ticks += 1
                    if not reply.streaming:
                        await reply.start_stream()
                    await reply.event(
                        jsonrpc.notification_line(
                            "notifications/progress",
                            {
                                "progressToken": token,
                                "progress": ticks,
                                "message": f"COBOL program running for {ticks * TICK_SECONDS:g} s",
                            },
                        )
                    )
        finally:
            if watcher is not None and not watcher.done():
                watcher.cancel()

    @property
    def in_flight(self) -> int:
        """Tool calls running or queued."""
        return len(self.flights)

    def abort(self) -> bool:
        """The server is stopping: every call still running is killed now (its unit of work rolled
        back: :meth:`.Catalog.abandon`), and its request gets an error. Whether there was any."""
        had = bool(self.flights)
        for flight in self.flights:
            self.flights.done(flight)
            Catalog.abandon(flight)
        return had

    def cancel(self, state: SessionState, request_id: Any) -> None:
        """Stop a call running in a session (notifications/cancelled)."""
        if self.flights.cancel(state, request_id):
            self.kick()

    def cancel_all(self, state: SessionState) -> None:
        """Stop the calls running in a session (it ended)."""
        if self.flights.cancel_all(state):
            self.kick()
        self.flights.forget(state)

    def busy(self, state: SessionState) -> bool:
        """Whether a call is running in the session."""
        return self.flights.busy(state)
