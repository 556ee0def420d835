"""Standalone GET streams of handshake-era sessions: how the server speaks without being asked.

With ``--watch`` a session's client may open ``GET /mcp`` (``Accept: text/event-stream``, its
``Mcp-Session-Id``); the stream stays open until the client leaves, the session ends or the server
stops, and carries ``notifications/tools/list_changed`` after each reload that changed the list. A
comment line every ``KEEPALIVE_SECONDS`` keeps proxies from closing it. Memory is bounded: a few
streams per session, a few queued messages per stream (a client that reads nothing loses its stream).
"""

from __future__ import annotations

import asyncio

from ...protocol.jsonrpc import INVALID_REQUEST
from .wire import JSON_HEADERS, SSE_HEADERS, accepts, error_body, send_bytes, sse_event

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .sessions import Sessions, SessionState
    from .wire import Headers, Receive, Send

KEEPALIVE_SECONDS = 15.0
STREAMS_PER_SESSION = 4
QUEUED_MESSAGES = 16


async def open_stream(
    sessions: Sessions, headers: dict[bytes, bytes], receive: Receive, send: Send, cors: Headers
) -> None:
    """GET /mcp: check what the request asks for, then hold its session's stream open."""
    if not accepts(headers.get(b"accept"))[1]:
        await send_bytes(
            send,
            406,
            error_body(INVALID_REQUEST, "Not Acceptable: a GET stream is text/event-stream"),
            JSON_HEADERS + cors,
        )
        return
    session_id = headers.get(b"mcp-session-id")
    state = sessions.live(session_id)
    if state is None:
        await sessions.missing(session_id, None, send, cors)
        return
    await serve(state, receive, send, cors)


async def serve(state: SessionState, receive: Receive, send: Send, cors: Headers) -> None:
    """Hold one GET stream of `state`'s session open, sending what is queued for it."""
    if len(state.streams) >= STREAMS_PER_SESSION:
        await send_bytes(
            send,
            409,
            error_body(INVALID_REQUEST, f"Conflict: this session has {STREAMS_PER_SESSION} GET streams open already"),
            JSON_HEADERS + cors,
        )
        return
    queue: asyncio.Queue[bytes | None] = asyncio.Queue(QUEUED_MESSAGES)
    state.streams.append(queue)
    left = asyncio.ensure_future(_disconnected(receive))
    try:
        await send({"type": "http.response.start", "status": 200, "headers": SSE_HEADERS + cors})
        await send({"type": "http.response.body", "body": b": stream open\n\n", "more_body": True})
        while True:
            message = asyncio.ensure_future(queue.get())
            done, _ = await asyncio.wait(
                (message, left), timeout=KEEPALIVE_SECONDS, return_when=asyncio.FIRST_COMPLETED
            )
            if message not in done:
                message.cancel()
                if left in done:
                    return  # the client left: nothing more can be sent
                await send({"type": "http.response.body", "body": b": keepalive\n\n", "more_body": True})
                continue
            line = message.result()
            if line is None:
                break
            await send({"type": "http.response.body", "body": sse_event(line), "more_body": True})
        await send({"type": "http.response.body", "body": b"", "more_body": False})
    finally:
        left.cancel()
        state.streams.remove(queue)


async def _disconnected(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass
