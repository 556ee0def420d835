"""POSTs to ``/mcp``: one JSON-RPC message each, of the handshake era or of the 2026-07-28 revision.

Each has come through the door (:mod:`.door`). Its body is read within the size, room and time
bounds; the protocol core decides its era (:func:`cobol_mcp.protocol.dispatch.era`) and serves it:
the request's session, a fresh one in stateless mode, or (modern requests) the stateless era itself,
whose answers :mod:`.modern` maps to HTTP. Replies are JSON or SSE (:class:`.wire.Reply`); tool
calls go to :mod:`.calls`. The common case is answered on a shorter path (:mod:`.lane`), a branch
taken after the same door.
"""

from __future__ import annotations

import asyncio
import time

from ... import log
from ...protocol import jsonrpc
from ...protocol.dispatch import MODERN, era, version_problem
from ...protocol.jsonrpc import INVALID_REQUEST, Ignored, Invalid, Request
from ...protocol.session import Cancel, Session, ToolCall
from . import modern
from .door import DRAIN_BYTES, discard
from .wire import JSON_HEADERS, REQUEST_ID_KEY, Reply, error_body, send_bytes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .context import Context
    from .door import Admitted
    from .sessions import SessionState
    from .wire import Headers, Receive, Send

CLOSE = [(b"connection", b"close")]  # on answers given before the body was read: it is not read (all)


class Posts:
    """Answers the POSTs admitted by the door (:mod:`.door`) of one :class:`.context.Context`."""

    def __init__(self, context: Context) -> None:
        self.context = context
        self.settings, self.sessions, self.calls = context.settings, context.sessions, context.calls

    async def post(
        self,
        scope: dict[str, Any],
        headers: dict[bytes, bytes],
        admitted: Admitted,
        receive: Receive,
        send: Send,
        cors: Headers,
    ) -> None:
        json_ok, sse_ok, _ = admitted
        body_or_refusal = await self._body(receive)
        if isinstance(body_or_refusal, tuple):
            status, text, extra = body_or_refusal
            await send_bytes(send, status, error_body(INVALID_REQUEST, text), JSON_HEADERS + extra + cors + CLOSE)
            return
        body = body_or_refusal
        try:
            message = jsonrpc.parse(body)
        finally:
            self.context.buffered -= len(body)
            del body, body_or_refusal
        if isinstance(message, (Request, Invalid)):
            scope[REQUEST_ID_KEY] = message.id  # what a fault in answering it still answers to
        if isinstance(message, Invalid):
            await send_bytes(send, 400, error_body(message.code, message.message, message.id), JSON_HEADERS + cors)
            return
        if isinstance(message, Ignored) and message.reason != "response":
            await send_bytes(
                send, 400, error_body(INVALID_REQUEST, f"Invalid Request: {message.reason}"), JSON_HEADERS + cors
            )
            return
        session_id = None if self.settings.stateless else headers.get(b"mcp-session-id")
        state = self.sessions.live(session_id)
        version = headers.get(b"mcp-protocol-version")
        reply = Reply(send, json_ok, sse_ok, cors)
        declared = modern.header_text(version) if version is not None else None
        if era(declared, message, state is not None) == MODERN:
            await modern.serve(
                self.context.dispatch,
                self.calls.run,
                scope["headers"],
                headers,
                message,
                reply,
                receive,
            )
            return
        await self._legacy(message, version, session_id, state, reply, receive)

    async def _legacy(
        self,
        message: jsonrpc.Message,
        version: bytes | None,
        session_id: bytes | None,
        state: SessionState | None,
        reply: Reply,
        receive: Receive,
    ) -> None:
        """A POST of the handshake era (2025-11-25 Streamable HTTP)."""
        request_id = message.id if isinstance(message, Request) else None
        problem = version_problem(version.decode("latin-1") if version is not None else None)
        if problem is not None:
            await send_bytes(
                reply.send,
                400,
                error_body(INVALID_REQUEST, problem[0], request_id, problem[1]),
                JSON_HEADERS + reply.headers,
            )
            return
        if self.settings.stateless:
            await self._serve(self.context.fresh_session(version), None, message, reply, receive)
            return
        if isinstance(message, Request) and message.method == "initialize":
            await self._initialize(message, reply)
            return
        if state is None or session_id is None:  # (live() finds no session for no id)
            await self.sessions.missing(session_id, request_id, reply.send, reply.headers)
            return
        reply.headers = [(b"mcp-session-id", session_id), *reply.headers]
        await self._serve(state.session, state, message, reply, receive)
        state.last_seen = time.monotonic()

    async def _body(self, receive: Receive) -> bytes | tuple[int, str, Headers]:
        """The request body, still counted in `self.buffered` (the caller uncounts it once parsed), or why it
        is refused: (status, text, extra headers) for a body too large, too slow, or with no room for it."""
        context, limit = self.context, self.settings.max_body_bytes
        too_large: tuple[int, str, Headers] = 413, f"Payload Too Large: a message may have at most {limit} bytes", []
        chunks: list[bytes] = []
        size = 0
        outcome: bytes | tuple[int, str, Headers] | None = None
        drain = False
        try:
            async with asyncio.timeout(self.settings.read_timeout):
                while outcome is None:
                    message = await receive()
                    if message["type"] != "http.request":
                        outcome = (499, "the client left", [])  # whatever is answered goes nowhere
                        break
                    chunk = message.get("body", b"")
                    size += len(chunk)
                    context.buffered += len(chunk)
                    if size > limit:
                        outcome = too_large
                        drain = bool(message.get("more_body"))
                    elif context.buffered > self.settings.max_buffered_bytes:
                        outcome = (
                            503,
                            "Service Unavailable: too many request bodies in flight; try again later",
                            [(b"retry-after", b"1")],
                        )
                    else:
                        chunks.append(chunk)
                        if not message.get("more_body"):
                            outcome = b"".join(chunks) if len(chunks) != 1 else chunks[0]
        except TimeoutError:
            outcome = 408, f"Request Timeout: the body did not arrive within {self.settings.read_timeout:g} s", []
        finally:
            if not isinstance(outcome, bytes):
                context.buffered -= size
        if drain:
            await discard(receive, DRAIN_BYTES, self.settings.read_timeout)
        return outcome

    async def _initialize(self, message: Request, reply: Reply) -> None:
        if self.sessions.full():
            await send_bytes(
                reply.send,
                503,
                error_body(INVALID_REQUEST, "Service Unavailable: too many open sessions; try again later", message.id),
                [*JSON_HEADERS, (b"retry-after", b"5"), *reply.headers],
            )
            return
        session = self.context.new_session()
        line = session.handle(message)
        if session.protocol_version is not None:  # a successful handshake opens the session
            session_id = self.sessions.open(session)
            reply.headers = [(b"mcp-session-id", session_id.encode()), *reply.headers]
        await reply.finish(line if isinstance(line, bytes) else None)  # an initialize request gets bytes

    # ---------------------------------------------------------------------------------- messages
    async def _serve(
        self, session: Session, state: SessionState | None, message: jsonrpc.Message, reply: Reply, receive: Receive
    ) -> None:
        try:
            outcome = session.handle(message)
        except Exception:
            log.exception("unexpected fault while handling a message")
            request_id = message.id if isinstance(message, Request) else None
            outcome = jsonrpc.error_line(
                request_id, jsonrpc.INTERNAL_ERROR, "Internal error while handling the message"
            )
        if not isinstance(message, Request):
            if isinstance(outcome, Cancel) and state is not None:
                self.calls.cancel(state, outcome.request_id)
            await send_bytes(reply.send, 202, b"", reply.headers)
            return
        if isinstance(outcome, ToolCall):
            await self.calls.run(session, state, outcome, reply, receive)
        else:
            await reply.finish(outcome if isinstance(outcome, bytes) else None)  # a request gets bytes
