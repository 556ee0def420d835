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

from ...catalog import SHUTDOWN_KILLED
from ...protocol import jsonrpc
from .wire import JSON_HEADERS, error_body, send_bytes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from ...catalog import Tool
    from ...protocol.modern import ModernEra
    from ...protocol.outcome import ToolCall
    from ...protocol.session import Session
    from ...server import Server
    from .sessions import SessionState
    from .wire import Receive, Reply

TICK_SECONDS = 1.0  # progress notifications of a running call; without a session: disconnect checks after this
MIN_TIMER_SECONDS = 0.0005  # a deadline already past is looked at again this soon, not in a busy loop
CANCELLED: Any = object()  # how a call ends when the client cancelled it or its session ended
STOPPING: Any = object()  # how a call ends when the server stops under it
SERVER_BUSY = -32000  # JSON-RPC's implementation-defined server error: the call was not started
_WAITING: Any = object()


class _Pending:
    """A tool call in progress: its result once known, and a future that wakes its POST handler
    (when the result arrives, or for a tick of the slow path)."""

    __slots__ = ("result", "wake", "handle")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.result: Any = _WAITING
        self.wake: asyncio.Future[None] = loop.create_future()
        self.handle: tuple[Tool, object] | None = None  # the catalog's handle, to cancel the call

    def resolve(self, result: Any) -> None:
        if self.result is _WAITING:
            self.result = result
            self.poke()

    def poke(self) -> None:
        if not self.wake.done():
            self.wake.set_result(None)


class Callback(_Pending):
    """A tool call whose reply line goes to a function (:meth:`Calls.start`), not to a waiting coroutine."""

    __slots__ = ("_then",)

    def __init__(self, then: Callable[[Callback], None]) -> None:  # (no future: nothing awaits it)
        self.result = _WAITING
        self.handle = None
        self._then = then

    def resolve(self, result: Any) -> None:
        if self.result is _WAITING:
            self.result = result
            self._then(self)

    def poke(self) -> None:
        pass


def reply_line(session: Session | ModernEra, call: ToolCall, result: Any) -> tuple[bytes | None, str]:
    """The reply to a call that ended with `result` (None: none, it was cancelled), and the outcome:
    ok, error (an isError result), cancelled or fault."""
    if result is CANCELLED:
        return None, "cancelled"
    if result is STOPPING:
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
        self._pending: set[_Pending] = set()
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
        return len(self._pending) >= self.max_calls

    def start(
        self,
        session: Session | ModernEra,
        state: SessionState | None,
        call: ToolCall,
        finish: Callable[[bytes | None], None],
    ) -> Callback | None:
        """Run `call` for a request answered without a coroutine (:mod:`.lane`; the caller checked
        :meth:`full`): `finish` gets its reply line, or None when it was cancelled. Returns the
        running call (for :meth:`drop`), or None when it ended at once."""
        state_running = state.running if state is not None else None

        def then(pending: Callback) -> None:
            self._pending.discard(pending)
            if state_running is not None and state_running.get(call.request_id) is pending:
                del state_running[call.request_id]
            finish(reply_line(session, call, pending.result)[0])

        pending = Callback(then)
        pending.handle = self.server.catalog.call(call.name, call.arguments, pending.resolve, call.request_id)
        if pending.result is not _WAITING:
            return None
        self.kick()
        if state_running is not None:
            state_running[call.request_id] = pending
        self._pending.add(pending)
        return pending

    def drop(self, pending: Callback) -> None:
        """Cancel a call of :meth:`start` whose client left; its `finish` gets None."""
        if pending.handle is not None:
            self.server.catalog.cancel(pending.handle)
            self.kick()
        pending.resolve(CANCELLED)

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
        if len(self._pending) >= self.max_calls:
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
        pending = _Pending(self.loop)
        pending.handle = self.server.catalog.call(
            call.name,
            call.arguments,
            pending.resolve,
            call.request_id,
        )
        if pending.result is _WAITING:
            self.kick()
            if state is not None:
                state.running[call.request_id] = pending
            self._pending.add(pending)
            try:
                token = (call.meta or {}).get("progressToken") if reply.sse_ok else None
                if isinstance(token, bool) or not isinstance(token, (str, int)):
                    token = None
                if token is None and state is not None:
                    await pending.wake
                elif not await self._wait_long(pending, token, reply, receive, state is None):
                    return "cancelled"  # the client left and the call was cancelled
            finally:
                self._pending.discard(pending)
                if state is not None and state.running.get(call.request_id) is pending:
                    del state.running[call.request_id]
        line, outcome = reply_line(session, call, pending.result)
        await reply.finish(line)
        return outcome

    async def _wait_long(
        self, pending: _Pending, token: str | int | None, reply: Reply, receive: Receive, cancel_on_disconnect: bool
    ) -> bool:
        """Wait for a call, sending progress each tick when asked to. Without a session, a client that
        disconnects cancels its call (nothing else could). False: it left."""
        loop = self.loop
        watcher: asyncio.Task[Any] | None = None
        ticks = 0
        try:
            while True:
                timer = loop.call_later(TICK_SECONDS, pending.poke)
                await pending.wake
                timer.cancel()
                if pending.result is not _WAITING:
                    return True
                pending.wake = loop.create_future()
                if watcher is not None and watcher.done():
                    if pending.handle is not None:
                        self.server.catalog.cancel(pending.handle)
                        self.kick()
                    return False
                if cancel_on_disconnect and watcher is None:
                    watcher = asyncio.ensure_future(receive())
                    watcher.add_done_callback(lambda _: pending.poke())
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
        return len(self._pending)

    def abort(self) -> bool:
        """The server is stopping: every call still running is killed now (its unit of work rolled
        back: :meth:`.Catalog.abandon`), and its request gets an error. Whether there was any."""
        had = bool(self._pending)
        for pending in list(self._pending):
            if pending.handle is not None and self._server is not None:
                self._server.catalog.abandon(pending.handle)
            pending.resolve(STOPPING)
        self._pending.clear()
        return had

    def cancel(self, state: SessionState, request_id: Any) -> None:
        """Stop a call running in a session (notifications/cancelled, or the session ended)."""
        pending = state.running.pop(request_id, None)
        if pending is None:
            return
        if pending.handle is not None:
            self.server.catalog.cancel(pending.handle)
            self.kick()
        pending.resolve(CANCELLED)
