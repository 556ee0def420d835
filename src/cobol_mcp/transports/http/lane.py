"""The common POST on a short path: one handshake-era JSON-RPC request, answered with JSON.

Nearly all traffic on ``/mcp`` is a client POSTing one request (most often ``tools/call``) and
accepting a JSON reply. :mod:`.fastpath` offers each POST to :meth:`Lane.admit` once its headers are
in; it goes through the same door as every POST (:meth:`.door.Door.admit`), and an admitted request
that is also ordinary is read and answered here without the ASGI machinery (no scope, task,
coroutines or message dicts): the tool call's result is written to the connection from the
callback that delivers it. Whatever the door refuses and whatever is out of the ordinary is
declined, before anything is answered, and the ASGI application (:mod:`.app`) serves it exactly as
before:

- a header it would have to act on: ``Origin`` (CORS), ``Transfer-Encoding`` (no length), no
  ``Content-Type``, an ``Accept`` without JSON, no ``Content-Length`` or no room for the body, a
  protocol version that is not a handshake-era one, a session id that names no live session (or
  none at all, with sessions);
- a message that is not a request, ``initialize``, a request of the 2026-07-28 era, a tool call
  carrying a progress token (progress needs the SSE stream), a tool call beyond ``--max-calls``;
- ``--metrics`` (every response is counted there) and uvicorn's access log.

What is answered here is byte for byte what :mod:`.app` would answer, and tool calls run under the
same bounds: they count against ``--max-calls``, a session's ``notifications/cancelled`` and end
cancel them, a server stop ends them with an error reply, and without a session a client that
closes its connection cancels its call (at once, where the ASGI path notices within a second).
"""

from __future__ import annotations

import time

from ... import log
from ...protocol import jsonrpc
from ...protocol.dispatch import HANDSHAKE, era_of_version
from ...protocol.jsonrpc import Request
from ...protocol.session import ToolCall
from .door import CACHE_LIMIT, Refused
from .modern import header_text
from .wire import fallback_error

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from ...flight import Flight
    from ...protocol.session import Session
    from .context import Context
    from .door import Door
    from .sessions import SessionState


class Ticket:
    """One admitted request, from its headers to its reply. `answer` (set by the connection) writes
    the reply: a JSON body, or, for None (a cancelled call), an empty SSE stream."""

    __slots__ = ("answer", "state", "session_id", "version", "sse_ok", "call")

    def __init__(self, state: SessionState | None, session_id: bytes | None, version: bytes | None, sse_ok: bool):
        self.answer: Callable[[bytes | None], None] | None = None
        self.state, self.session_id, self.version, self.sse_ok = state, session_id, version, sse_ok
        self.call: Flight | None = None  # the tool call running for it


class Lane:
    """Serves the common POSTs of one :class:`.context.Context`, once its :class:`.door.Door` has let
    them in (see the module's list)."""

    def __init__(self, context: Context, door: Door) -> None:
        self.context, self.door = context, door
        self.settings = context.settings
        self.stateless = context.settings.stateless
        self.calls = context.calls
        self._versions: dict[bytes | None, bool] = {None: True}
        self._sessions: dict[bytes | None, Session] = {}  # stateless: one per protocol version, never changed

    # ---------------------------------------------------------------------------------- headers
    def admit(self, raw_headers: list[tuple[bytes, bytes]]) -> Ticket | None:
        """A ticket for a POST /mcp that the door lets in and whose headers are ordinary, else None: the
        ASGI app serves it (and answers what the door refuses)."""
        headers = dict(raw_headers)
        if b"origin" in headers or b"transfer-encoding" in headers or b"content-type" not in headers:
            return None
        admitted = self.door.admit(headers)
        if admitted.__class__ is Refused:
            return None
        json_ok, sse_ok, size = admitted  # type: ignore[misc]  # (not a Refused: a tuple)
        if not json_ok or size is None or self.context.buffered + size > self.settings.max_buffered_bytes:
            return None
        version = headers.get(b"mcp-protocol-version")
        ok = self._versions.get(version)
        if ok is None:
            ok = version is not None and era_of_version(header_text(version)) == HANDSHAKE
            if len(self._versions) < CACHE_LIMIT:
                self._versions[version] = ok
        if not ok:
            return None
        if self.stateless:
            return Ticket(None, None, version, sse_ok)
        session_id = headers.get(b"mcp-session-id")
        state = self.context.sessions.live(session_id)
        if state is None:
            return None
        return Ticket(state, session_id, version, sse_ok)

    # ---------------------------------------------------------------------------------- body
    def serve(self, ticket: Ticket, body: bytes) -> bool:
        """Answer the request (now, or when its tool call ends); False: declined, nothing was sent."""
        message = jsonrpc.parse(body)
        if type(message) is not Request or message.method == "initialize":
            return False
        state = ticket.state  # (of the handshake era: admit() let in no other version)
        tool_call = message.method == "tools/call"
        if tool_call:
            if self.calls.full():
                return False  # the ASGI path answers 503
            if ticket.sse_ok:
                meta = message.params.get("_meta")
                token = meta.get("progressToken") if isinstance(meta, dict) else None
                if isinstance(token, (str, int)) and not isinstance(token, bool):
                    return False  # progress notifications need the SSE path
        session = state.session if state is not None else self._stateless_session(ticket.version)
        try:
            outcome = session.handle(message)
        except Exception:
            log.exception("unexpected fault while handling a message")
            outcome = jsonrpc.error_line(
                message.id, jsonrpc.INTERNAL_ERROR, "Internal error while handling the message"
            )
        if isinstance(outcome, ToolCall):
            self._run(ticket, session, outcome)
        else:
            self._finish(ticket, outcome if isinstance(outcome, bytes) else None, message.id)
        return True

    def _stateless_session(self, version: bytes | None) -> Session:
        """What the ASGI path builds per request (:meth:`.context.Context.fresh_session`); reused here, as the
        requests served on this lane (never ``initialize``) leave a session as it was."""
        session = self._sessions.get(version)
        server = self.context.server
        if session is None or (server is not None and session.server is not server.model):
            session = self.context.fresh_session(version)
            if len(self._sessions) < CACHE_LIMIT:
                self._sessions[version] = session
        return session

    def _run(self, ticket: Ticket, session: Session, call: ToolCall) -> None:
        def done(line: bytes | None) -> None:
            ticket.call = None
            self._finish(ticket, line, call.request_id)

        ticket.call = self.calls.start(session, ticket.state, call, done)

    def _finish(self, ticket: Ticket, line: bytes | None, request_id: object) -> None:
        answer, ticket.answer = ticket.answer, None
        if ticket.state is not None:
            ticket.state.last_seen = time.monotonic()
        if answer is None:  # the client left
            return
        try:
            answer(line)
        except Exception:  # what the ASGI path's guard does: a fault still gets a JSON-RPC reply
            log.exception("unexpected fault while answering a request")
            answer(fallback_error(request_id)[0])

    def left(self, ticket: Ticket) -> None:
        """The client closed the connection before its reply. Without a session that cancels its call
        (nothing else could); in a session the call runs on and its reply goes nowhere."""
        ticket.answer = None
        call = ticket.call
        if call is not None and ticket.state is None:
            self.calls.drop(call)
