"""Handshake-era sessions over HTTP: ``MCP-Session-Id``, idle expiry and DELETE.

A session starts with a successful ``initialize`` (the reply carries its id), lives in the process
that created it, and ends with DELETE, after ``--session-idle`` seconds unused, or when the server
stops; its running tool calls are cancelled then. Requests of the 2026-07-28 revision never use
sessions: none is minted or required for them.
"""

from __future__ import annotations

import asyncio
import secrets
import time

from ... import log
from ...protocol.jsonrpc import INVALID_REQUEST
from .wire import JSON_HEADERS, error_body, send_bytes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Protocol

    from ...protocol.session import Session

    class SessionCalls(Protocol):
        def busy(self, state: SessionState, /) -> bool: ...

        def cancel_all(self, state: SessionState, /) -> None: ...

    from .wire import Headers, Send

MAX_SESSIONS = 10_000


class SessionState:
    """One MCP session: the protocol state and its open GET streams (each a queue of messages to send;
    None ends it). Its tool calls in flight are in the calls' table (:class:`.calls.Calls`), keyed by it."""

    __slots__ = ("session", "last_seen", "streams")

    def __init__(self, session: Session) -> None:
        self.session = session
        self.last_seen = time.monotonic()
        self.streams: list[asyncio.Queue[bytes | None]] = []


def post(queue: asyncio.Queue[bytes | None], message: bytes | None) -> None:
    """Queue a message for a stream; a stream whose client reads nothing is ended, never let grow."""
    if queue.full():
        while not queue.empty():
            queue.get_nowait()
        message = None
    queue.put_nowait(message)


class Sessions:
    """The live sessions of this process. `calls` has the tool calls in flight: `busy(state)` says
    whether the session has one, `cancel_all(state)` stops them."""

    def __init__(self, idle: float, calls: SessionCalls, limit: int = MAX_SESSIONS) -> None:
        self.idle = idle  # seconds; 0: sessions never expire
        self.limit = limit  # open sessions at most; initialize gets 503 beyond
        self._calls = calls
        self._by_id: dict[str, SessionState] = {}
        self._reaper: asyncio.Task[None] | None = None

    def __len__(self) -> int:
        return len(self._by_id)

    def full(self) -> bool:
        return len(self._by_id) >= self.limit

    def open(self, session: Session) -> str:
        session_id = secrets.token_urlsafe(24)  # visible ASCII, 192 random bits
        self._by_id[session_id] = SessionState(session)
        return session_id

    def live(self, session_id: bytes | None) -> SessionState | None:
        """The session a request names, if it is still alive (using it keeps it alive)."""
        if session_id is None:
            return None
        key = session_id.decode("latin-1")
        state = self._by_id.get(key)
        if state is None:
            return None
        now = time.monotonic()
        if self.idle > 0 and not self.busy(state) and now - state.last_seen > self.idle:
            self.end(key)
            return None
        state.last_seen = now
        return state

    def busy(self, state: SessionState) -> bool:
        """Whether it is in use (a call running, a stream open), so not idle however long unseen."""
        return bool(state.streams) or self._calls.busy(state)

    def end(self, session_id: str) -> None:
        state = self._by_id.pop(session_id, None)
        if state is None:
            return
        self._calls.cancel_all(state)
        for queue in state.streams:
            post(queue, None)

    def streams(self) -> int:
        """GET streams open in all sessions."""
        return sum(len(state.streams) for state in self._by_id.values())

    def notify(self, message: bytes) -> int:
        """Send a notification on every open GET stream; how many got it."""
        sent = 0
        for state in self._by_id.values():
            for queue in state.streams:
                post(queue, message)
                sent += 1
        return sent

    # ------------------------------------------------------------------------------ lifetime
    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        if self.idle > 0:
            self._reaper = loop.create_task(self._reap())

    def stop(self) -> None:
        if self._reaper is not None:
            self._reaper.cancel()
        for session_id in list(self._by_id):
            self.end(session_id)

    async def _reap(self) -> None:
        idle = self.idle
        while True:
            await asyncio.sleep(min(max(idle / 4, 0.05), 30.0))
            now = time.monotonic()
            for session_id, state in list(self._by_id.items()):
                if not self.busy(state) and now - state.last_seen > idle:
                    log.debug(f"session {session_id[:8]}... ended after {idle:g} s idle")
                    self.end(session_id)

    # ------------------------------------------------------------------------------ HTTP
    async def delete(self, headers: dict[bytes, bytes], send: Send, cors: Headers) -> None:
        """DELETE /mcp: the client ends its session."""
        session_id = headers.get(b"mcp-session-id")
        if session_id is None:
            await send_bytes(
                send,
                400,
                error_body(INVALID_REQUEST, "Bad Request: Mcp-Session-Id header is required"),
                JSON_HEADERS + cors,
            )
            return
        if self.live(session_id) is None:
            await send_bytes(send, 404, error_body(INVALID_REQUEST, "Session not found"), JSON_HEADERS + cors)
            return
        self.end(session_id.decode("latin-1"))
        await send_bytes(send, 204, b"", cors)

    async def missing(self, session_id: bytes | None, request_id: Any, send: Send, cors: Headers) -> None:
        """The answer to a request outside any live session: 400 without an id, 404 with a dead one."""
        if session_id is None:
            await send_bytes(
                send,
                400,
                error_body(
                    INVALID_REQUEST,
                    "Bad Request: Mcp-Session-Id header is required (send initialize first)",
                    request_id,
                ),
                JSON_HEADERS + cors,
            )
        else:
            await send_bytes(
                send,
                404,
                error_body(
                    INVALID_REQUEST, "Session not found: it ended or never existed; send initialize again", request_id
                ),
                JSON_HEADERS + cors,
            )
