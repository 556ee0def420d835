"""How the HTTP server stops: a drain, for the SIGTERM an orchestrator sends at every rolling deploy.

The first SIGTERM or SIGINT starts it. Every request that arrives from then on, on a new connection
or a kept-alive one, is answered 503 with ``Retry-After`` and a JSON-RPC error (``/healthz`` too: a
readiness probe sees it), while the tool calls in flight get ``--shutdown-grace`` seconds to finish
and be answered. Calls still running then are killed (their run units' process groups, their
workers; :meth:`.Catalog.abandon`) and answered with an error that says so; the listening socket
closes, replies go out, connections close, the COBOL workers are killed. The exit status is 0 when
every call finished in time, 1 otherwise. A second signal during the drain ends the grace at once;
a watchdog ends the process if the stop itself hangs.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from typing import Any

import uvicorn

from ... import log
from ...catalog import SHUTDOWN_REFUSED
from ...server import end_run_units
from .calls import SERVER_BUSY
from .wire import JSON_HEADERS, error_body, send_bytes

TYPE_CHECKING = False
if TYPE_CHECKING:
    import socket
    from types import FrameType

    from .app import McpHttpApp
    from .lane import Lane
    from .wire import Receive, Send

REPLY_SECONDS = 2.0  # after the drain, replies still being written get this long before connections are cut
WATCHDOG_SECONDS = 15.0  # past the grace: a stop that has not ended the process by then ends it hard


class Gate:
    """The application, behind a gate that a drain closes: from then on every HTTP request is answered
    503 here, and the short path of :mod:`.lane` (read by the connection protocol as ``app.lane``) is off."""

    def __init__(self, app: McpHttpApp) -> None:
        self.app = app
        self.draining = False

    @property
    def lane(self) -> Lane | None:
        return None if self.draining else self.app.lane

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        if self.draining and scope["type"] == "http":
            text = f"Service Unavailable: {SHUTDOWN_REFUSED}"
            headers = [*JSON_HEADERS, (b"retry-after", b"1"), (b"connection", b"close")]
            await send_bytes(send, 503, error_body(SERVER_BUSY, text), headers)
            return
        await self.app(scope, receive, send)


class DrainingServer(uvicorn.Server):
    """uvicorn's server with the drain of the module's description."""

    def __init__(self, config: uvicorn.Config, gate: Gate, grace: float) -> None:
        super().__init__(config)
        self.gate = gate
        self.grace = grace
        self.stops = 0  # signals received
        self.clean = True  # every call in flight at the stop was answered by its program
        self._watchdog: threading.Timer | None = None

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        """uvicorn's, without its force on a second SIGINT and without raising the signal again after the
        stop (the exit status says how the drain went)."""
        self.stops += 1
        if self.stops == 1:
            self.gate.draining = True  # from now on: no new requests
            self._watchdog = threading.Timer(self.grace + WATCHDOG_SECONDS, _hard_exit)
            self._watchdog.daemon = True
            self._watchdog.start()
        self.should_exit = True

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        self.gate.draining = True  # (also when the stop did not come from a signal)
        calls = self.gate.app.calls
        log.info(
            f"stopping: new requests get 503; {calls.in_flight} tool calls in flight get {self.grace:g} s to finish",
            in_flight=calls.in_flight,
        )
        for connection in list(self.server_state.connections):
            cycle = getattr(connection, "cycle", None)  # a request being answered: its reply ends the connection
            if cycle is not None and not cycle.response_complete:
                cycle.keep_alive = False
        deadline = time.monotonic() + self.grace
        while calls.in_flight and self.stops < 2 and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        if calls.in_flight:
            self.clean = False
            why = "a second signal" if self.stops > 1 else f"the {self.grace:g} s grace ran out"
            log.warning(f"{why}: killing the {calls.in_flight} tool calls still running", killed=calls.in_flight)
            self.gate.app.abort_calls()  # each killed; its request answered with an error
            end_run_units()
        else:
            log.info("drained: every call was answered")
        for server in self.servers:
            server.close()
        state = self.server_state
        for connection in list(state.connections):
            connection.shutdown()  # idle ones close now, busy ones after their response
        await self._settle(REPLY_SECONDS)
        for task in list(state.tasks):
            task.cancel()
        for connection in list(state.connections):
            transport = getattr(connection, "transport", None)
            if transport is not None:
                transport.abort()
        await asyncio.sleep(0)
        await self.lifespan.shutdown()  # the application stops: its COBOL workers are killed
        if self._watchdog is not None:
            self._watchdog.cancel()

    async def _settle(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while (self.server_state.tasks or self.server_state.connections) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)


def _hard_exit() -> None:
    log.error("the server did not stop within the grace period and its watchdog's margin; ending it")
    os._exit(1)  # COBOL workers and run units die with it (they ask the kernel for that)
