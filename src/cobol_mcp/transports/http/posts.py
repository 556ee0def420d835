"""POSTs to ``/mcp``: one JSON-RPC message each, of the handshake era or of the 2026-07-28 revision.

The body is read within the size, room and time bounds; the message is parsed and served by the
protocol core (:class:`Session`): by the request's session, by a fresh one in stateless mode, or
(modern requests) by :mod:`.modern`. Replies are JSON or SSE (:class:`.wire.Reply`); tool calls go
to :mod:`.calls`. The common case is answered on a shorter path first (:mod:`.lane`).
"""

from __future__ import annotations

import asyncio
import time

from ... import log
from ...protocol import jsonrpc
from ...protocol.jsonrpc import INVALID_REQUEST, Ignored, Invalid, Request
from ...protocol.model import LATEST_VERSION, SUPPORTED_VERSIONS
from ...protocol.session import Cancel, Session, ToolCall
from . import modern
from .wire import JSON_HEADERS, REQUEST_ID_KEY, Reply, accepts, error_body, is_json_type, send_bytes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .app import McpHttpApp
    from .sessions import SessionState
    from .wire import Headers, Receive, Send

CLOSE = [(b"connection", b"close")]  # on answers given before the body was read: it is not read at all
# An oversize body is read and dropped up to this many bytes past the limit before its 413 is sent:
# closing a connection the client is still writing to resets it, and the 413 would never be read.
DRAIN_BYTES = 16 << 20


def version_problem(value: bytes | None) -> tuple[str, dict[str, Any]] | None:
    """Why a handshake-era MCP-Protocol-Version header is refused (text, error data), or None."""
    if value is None:
        return None  # taken as 2025-03-26, which is supported
    version = value.decode("latin-1").strip()
    if version in SUPPORTED_VERSIONS:
        return None
    return (
        f"Bad Request: unsupported MCP-Protocol-Version {version!r}",
        {"supported": list(SUPPORTED_VERSIONS), "requested": version},
    )


class Posts:
    """The POSTs of one :class:`.app.McpHttpApp`."""

    def __init__(self, app: McpHttpApp) -> None:
        self.app = app
        self.settings, self.sessions, self.calls = app.settings, app.sessions, app.calls
        self.buffered = 0  # bytes of request bodies being read now
        self.pristine: Session | None = None  # what a 2026-07-28 request is served by (set at start-up)

    async def post(
        self, scope: dict[str, Any], headers: dict[bytes, bytes], receive: Receive, send: Send, cors: Headers
    ) -> None:
        content_type = headers.get(b"content-type")
        if content_type is not None and not is_json_type(content_type):
            await send_bytes(
                send,
                415,
                error_body(INVALID_REQUEST, "Unsupported Media Type: send application/json"),
                JSON_HEADERS + cors + CLOSE,
            )
            return
        json_ok, sse_ok = accepts(headers.get(b"accept"))
        if not (json_ok or sse_ok):
            await send_bytes(
                send,
                406,
                error_body(INVALID_REQUEST, "Not Acceptable: accept application/json and text/event-stream"),
                JSON_HEADERS + cors + CLOSE,
            )
            return
        body_or_refusal = await self._body(headers, receive)
        if isinstance(body_or_refusal, tuple):
            status, text, extra = body_or_refusal
            await send_bytes(send, status, error_body(INVALID_REQUEST, text), JSON_HEADERS + extra + cors + CLOSE)
            return
        body = body_or_refusal
        try:
            message = jsonrpc.parse(body)
        finally:
            self.buffered -= len(body)
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
        if modern.is_modern(version, message, state is not None):
            await modern.serve(
                self.pristine or self.new_session(),  # (set by start(), before the first request)
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
        problem = version_problem(version)
        if problem is not None:
            await send_bytes(
                reply.send,
                400,
                error_body(INVALID_REQUEST, problem[0], request_id, problem[1]),
                JSON_HEADERS + reply.headers,
            )
            return
        if self.settings.stateless:
            await self._serve(self.fresh_session(version), None, message, reply, receive)
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

    async def _body(self, headers: dict[bytes, bytes], receive: Receive) -> bytes | tuple[int, str, Headers]:
        """The request body, still counted in `self.buffered` (the caller uncounts it once parsed), or why it
        is refused: (status, text, extra headers) for a body too large, too slow, or with no room for it."""
        limit = self.settings.max_body_bytes
        too_large: tuple[int, str, Headers] = 413, f"Payload Too Large: a message may have at most {limit} bytes", []
        length = headers.get(b"content-length")
        if length is not None and length.isdigit() and int(length) > limit:
            if int(length) <= limit + DRAIN_BYTES and b"100-continue" not in headers.get(b"expect", b"").lower():
                await self._discard(receive, int(length))
            return too_large
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
                    self.buffered += len(chunk)
                    if size > limit:
                        outcome = too_large
                        drain = bool(message.get("more_body"))
                    elif self.buffered > self.settings.max_buffered_bytes:
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
                self.buffered -= size
        if drain:
            await self._discard(receive, DRAIN_BYTES)
        return outcome

    async def _discard(self, receive: Receive, budget: int) -> None:
        """Read and drop what of a refused body arrives, up to `budget` bytes and within the read timeout."""
        try:
            async with asyncio.timeout(self.settings.read_timeout):
                while budget > 0:
                    message = await receive()
                    budget -= len(message.get("body", b""))
                    if message["type"] != "http.request" or not message.get("more_body"):
                        return
        except TimeoutError:
            pass

    def new_session(self) -> Session:
        if self.app.server is None:
            raise RuntimeError("McpHttpApp.start() has not run")
        return Session(self.app.server.model, strict_lifecycle=self.app.options.strict_lifecycle)

    def fresh_session(self, version: bytes | None) -> Session:
        """The session a stateless handshake-era request is served by: new, taken as initialized."""
        session = self.new_session()
        session.protocol_version = version.decode("latin-1").strip() if version is not None else LATEST_VERSION
        return session

    async def _initialize(self, message: Request, reply: Reply) -> None:
        if self.sessions.full():
            await send_bytes(
                reply.send,
                503,
                error_body(INVALID_REQUEST, "Service Unavailable: too many open sessions; try again later", message.id),
                [*JSON_HEADERS, (b"retry-after", b"5"), *reply.headers],
            )
            return
        session = self.new_session()
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
