"""The ASGI application: MCP Streamable HTTP at ``/mcp`` for both protocol eras, and ``/healthz``.

One POST carries one JSON-RPC message. The protocol core (:class:`Session`) decides what it means;
this module routes requests and keeps the server's lifetime; :mod:`.posts` reads and answers POSTs
(the common ones on the short path of :mod:`.lane`). Each POST is of the handshake era (2025-11-25 and before) or of the
stateless 2026-07-28 revision, as the protocol core decides (:mod:`cobol_mcp.protocol.dispatch`);
:mod:`.modern` maps its answers to modern requests to HTTP; handshake-era sessions are kept by
:mod:`.sessions`.

- a request is answered with ``application/json``, or with an SSE stream when the client accepts
  only that, or when progress notifications go ahead of the reply (a tool call that carries a
  progress token and runs longer than a second gets one notification per second while it runs);
- notifications get 202, and so do a client's responses in the handshake era; batches,
  unparseable and malformed bodies 400;
- handshake-era sessions (``MCP-Session-Id``) start with ``initialize``, end with DELETE or after an
  idle time; in stateless mode every request is served on its own, already initialized;
- a modern request never has a session; closing its response stream cancels its tool call;
- tool calls go to the COBOL worker pool and run in parallel (:mod:`.calls`); ``ping`` never
  waits for them.
"""

from __future__ import annotations

import asyncio

from ... import log
from ...protocol.dispatch import MODERN, era_of_version, version_problem
from ...protocol.jsonrpc import INVALID_REQUEST
from . import modern
from .context import Context, Settings
from .door import Door, Refused, discard
from .posts import CLOSE, Posts
from .wire import JSON_HEADERS, REQUEST_ID_KEY, GuardedSend, error_body, send_bytes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from ...options import Options
    from ...reload import Watcher
    from ...server import Server
    from .calls import ReaderLoop
    from .lane import Lane
    from .metrics import Metrics
    from .wire import Headers, Receive, Send

__all__ = ["ENDPOINT", "McpHttpApp", "Settings"]  # (Settings lives in context; the server imports it from here)

ENDPOINT = "/mcp"
HEALTH = "/healthz"
METRICS = "/metrics"

CORS_EXPOSE = (b"access-control-expose-headers", b"mcp-session-id, mcp-protocol-version, www-authenticate")
ALLOWED_REQUEST_HEADERS = (
    b"content-type, accept, authorization, mcp-session-id, mcp-protocol-version, mcp-method, mcp-name, last-event-id"
)


class McpHttpApp:
    """The ASGI 3 application. The server is built at lifespan start-up, on the serving loop."""

    def __init__(
        self, options: Options, settings: Settings, build: Callable[[Options, ReaderLoop], Server] | None = None
    ) -> None:
        self.options, self.settings = options, settings
        context = self.context = Context(options, settings)
        self.guard, self.calls, self.sessions = context.guard, context.calls, context.sessions
        self.door = Door(context)  # every POST comes in here, whichever path then serves it
        self._build = build
        self.posts = Posts(context)
        self.metrics: Metrics | None = None  # with --metrics, from start-up on
        self._watcher: Watcher | None = None  # with --watch
        self.lane: Lane | None = None  # the short path of the common POST (see lane), from start-up on

    @property
    def server(self) -> Server | None:
        return self.context.server

    # ---------------------------------------------------------------------------------- ASGI
    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "http":
            if self.metrics is not None:
                send = self.metrics.counted(send)
            path = scope["path"]
            if path == ENDPOINT or path == ENDPOINT + "/":
                guarded = GuardedSend(send)
                try:
                    await self._endpoint(scope, receive, guarded)
                except Exception:  # a fault in producing a reply must still answer in JSON-RPC, never uvicorn's 500
                    log.exception("unexpected fault while answering a request")
                    await guarded.fail(scope.get(REQUEST_ID_KEY))
            elif path == HEALTH:
                await self._health(scope, send)
            elif path == METRICS and self.metrics is not None:
                headers = dict(scope["headers"])  # same checks as /mcp: tool names and load are not public
                rejected = self.guard.check(
                    headers.get(b"host"), headers.get(b"origin"), headers.get(b"authorization"), token_needed=True
                )
                await self.metrics.serve(scope["method"], rejected, send)
            else:
                await send_bytes(
                    send, 404, error_body(INVALID_REQUEST, "Not Found: the MCP endpoint is /mcp"), JSON_HEADERS
                )
        elif kind == "lifespan":
            await self._lifespan(receive, send)

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                try:
                    self.start()
                except Exception as exc:
                    log.exception("the server could not start")
                    await send({"type": "lifespan.startup.failed", "message": str(exc)})
                    return
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                self.stop()
                await send({"type": "lifespan.shutdown.complete"})
                return

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        if self._build is None:
            from ...server import build_server

            self._build = build_server
        server = self._build(self.options, self.calls.reader_loop(loop))
        self.context.started(server)
        self.calls.attach(server)
        server.runtime.start()  # one COBOL worker ready before the first call
        server.catalog.warm()
        self.sessions.start(loop)
        if self.settings.metrics:
            from .metrics import Metrics  # prometheus-client: loaded only when asked for

            self.metrics = Metrics(
                lambda: self.server.runtime if self.server is not None else None,
                lambda: len(self.sessions),
                self.sessions.streams,
            )
            self.calls.observe = self.metrics.call_done
        if self.options.watch:
            self._watch(loop, server)
        if self.metrics is None:  # with --metrics every response is counted: all of them take the ASGI path
            from .lane import Lane

            self.lane = Lane(self.context, self.door)

    def _watch(self, loop: asyncio.AbstractEventLoop, server: Server) -> None:
        """Live reload: the watcher's thread hands each new tool set to this loop, which swaps it in
        between requests and sends tools/list_changed on every session's open GET stream. Stateless,
        there are no streams: listChanged is not declared, and 2026-07-28 replies carry short cache
        hints instead."""
        from ...reload import LIST_CHANGED, Watcher

        if self.settings.stateless:
            server.model.list_changed = False

        def post(function: Callable[[], object]) -> None:
            loop.call_soon_threadsafe(function)

        def reloaded(changed: bool) -> None:
            if changed:
                self.sessions.notify(LIST_CHANGED)

        self._watcher = Watcher(server, self.options, post, reloaded)
        self._watcher.start()

    def abort_calls(self) -> bool:
        """The server is stopping: end every tool call still running, its request answered with an error.
        Whether there was any."""
        return self.calls.abort()

    def stop(self) -> None:
        self.lane = None
        if self._watcher is not None:
            self._watcher.stop()
        self.sessions.stop()
        self.calls.abort()
        self.calls.close()
        if self.server is not None:
            self.server.runtime.close()

    # ---------------------------------------------------------------------------------- routing
    async def _health(self, scope: dict[str, Any], send: Send) -> None:
        if scope["method"] not in ("GET", "HEAD"):
            await send_bytes(send, 405, b"", [(b"allow", b"GET, HEAD")])
            return
        await send_bytes(send, 200, b'{"status":"ok"}', JSON_HEADERS)

    async def _endpoint(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        headers = dict(scope["headers"])
        method = scope["method"]
        version = headers.get(b"mcp-protocol-version")
        origin = headers.get(b"origin")
        if method == "POST":
            admitted = self.door.admit(headers)
            if isinstance(admitted, Refused):  # answered from the headers alone: see door
                cors = self._cors(origin, admitted.status if admitted.by_guard else None)
                if admitted.drain:
                    await discard(receive, admitted.drain, self.settings.read_timeout)
                body = error_body(INVALID_REQUEST, admitted.text)
                await send_bytes(send, admitted.status, body, JSON_HEADERS + admitted.extra + cors + CLOSE)
                return
            await self.posts.post(scope, headers, admitted, receive, send, self._cors(origin, None))
            return
        rejected = self.guard.check(
            headers.get(b"host"), origin, headers.get(b"authorization"), token_needed=method != "OPTIONS"
        )  # a CORS preflight carries no credentials
        cors = self._cors(origin, rejected[0] if rejected is not None else None)
        if rejected is not None:  # answered from the headers alone: an unread body ends the connection
            status, text, extra = rejected
            await send_bytes(send, status, error_body(INVALID_REQUEST, text), JSON_HEADERS + extra + cors + CLOSE)
            return
        if method == "OPTIONS":
            await send_bytes(
                send,
                204,
                b"",
                [
                    *cors,
                    (b"access-control-allow-methods", b"GET, POST, DELETE"),
                    (b"access-control-allow-headers", ALLOWED_REQUEST_HEADERS),
                    (b"access-control-max-age", b"600"),
                ],
            )
        elif version is not None and era_of_version(modern.header_text(version)) == MODERN:  # no GET, no sessions
            await send_bytes(
                send,
                405,
                error_body(INVALID_REQUEST, f"Method Not Allowed: {method} (2026-07-28 clients only POST)"),
                [*JSON_HEADERS, (b"allow", b"POST"), *cors],
            )
        elif (problem := version_problem(version.decode("latin-1") if version is not None else None)) is not None:
            await send_bytes(send, 400, error_body(INVALID_REQUEST, problem[0], None, problem[1]), JSON_HEADERS + cors)
        elif method == "DELETE" and not self.settings.stateless:
            await self.sessions.delete(headers, send, cors)
        elif method == "GET" and self._watcher is not None and not self.settings.stateless:
            from .streams import open_stream  # only with --watch

            await open_stream(self.sessions, headers, receive, send, cors)
        else:  # GET: this server has nothing to send unprompted, so it offers no standalone stream
            allow = b"POST" if self.settings.stateless else b"POST, DELETE"
            text = (
                "Method Not Allowed: this server sends no messages outside replies, so it offers no GET stream"
                if method == "GET"
                else f"Method Not Allowed: {method}"
            )
            await send_bytes(send, 405, error_body(INVALID_REQUEST, text), [*JSON_HEADERS, (b"allow", allow), *cors])

    def _cors(self, origin: bytes | None, refused_by_guard: int | None) -> Headers:
        """CORS headers for a request with an Origin; none when the Guard refused it (but for a 401)."""
        if origin is None or (refused_by_guard is not None and refused_by_guard != 401):
            return []
        return [(b"access-control-allow-origin", origin), (b"vary", b"origin"), CORS_EXPOSE]
