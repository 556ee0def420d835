"""HTTP and SSE framing for the MCP endpoint: response helpers, JSON-RPC error bodies, media types."""

from __future__ import annotations

import json

from ...jsontext import dumps, utf8
from ...protocol import jsonrpc

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable
    from typing import Any, TypeAlias

    Headers: TypeAlias = list[tuple[bytes, bytes]]
    Send: TypeAlias = Callable[[dict[str, Any]], Awaitable[None]]
    Receive: TypeAlias = Callable[[], Awaitable[dict[str, Any]]]

JSON_HEADERS = [(b"content-type", b"application/json")]
SSE_HEADERS = [
    (b"content-type", b"text/event-stream"),
    (b"cache-control", b"no-cache, no-transform"),
    (b"x-accel-buffering", b"no"),
]


REQUEST_ID_KEY = "cobol_mcp.request_id"  # the scope entry holding the id of the request being answered


class GuardedSend:
    """An ASGI `send` that remembers how far the response got, so that a fault can still end it."""

    __slots__ = ("_send", "started", "streaming", "finished")

    def __init__(self, send: Send) -> None:
        self._send = send
        self.started = self.streaming = self.finished = False

    async def __call__(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "http.response.start":
            self.started = True
            self.streaming = any(
                name == b"content-type" and value.startswith(b"text/event-stream")
                for name, value in message.get("headers", ())
            )
        elif kind == "http.response.body" and not message.get("more_body"):
            self.finished = True
        await self._send(message)

    async def fail(self, request_id: Any) -> None:
        """End the response with a JSON-RPC -32603 whatever state it is in (the fault is logged already)."""
        if self.finished:
            return
        line, answered = fallback_error(request_id)
        try:
            if not self.started:
                status = 200 if answered else 500  # an error reply to a known request; else the server failed
                await send_bytes(self, status, line, JSON_HEADERS)
            else:
                body = sse_event(line) if self.streaming else b""  # a JSON body already begun cannot take more
                await self({"type": "http.response.body", "body": body, "more_body": False})
        except Exception:  # the connection is beyond saving; uvicorn closes it
            pass


def fallback_error(request_id: Any) -> tuple[bytes, bool]:
    """A -32603 reply built by the standard library alone (ASCII, so any string id encodes), and
    whether it carries the request's id."""
    error = {"code": jsonrpc.INTERNAL_ERROR, "message": "Internal error while answering the request"}
    if request_id is not None:
        try:
            return json.dumps(
                {"jsonrpc": "2.0", "id": request_id, "error": error}, ensure_ascii=True, allow_nan=False, default=str
            ).encode(), True
        except (ValueError, TypeError):
            pass
    return json.dumps({"jsonrpc": "2.0", "error": error}).encode(), False


class Reply:
    """The response to one POSTed request: a JSON body, or an SSE stream once one has started."""

    __slots__ = ("send", "json_ok", "sse_ok", "headers", "streaming")

    def __init__(self, send: Send, json_ok: bool, sse_ok: bool, headers: Headers) -> None:
        self.send, self.json_ok, self.sse_ok, self.headers = send, json_ok, sse_ok, headers
        self.streaming = False

    async def start_stream(self) -> None:
        self.streaming = True
        await self.send({"type": "http.response.start", "status": 200, "headers": SSE_HEADERS + self.headers})

    async def event(self, line: bytes) -> None:
        await self.send({"type": "http.response.body", "body": sse_event(line), "more_body": True})

    async def finish(self, line: bytes | None) -> None:
        """Send the JSON-RPC reply (None: there is none, the request was cancelled) and end."""
        if not self.streaming:
            if line is not None and self.json_ok:
                await send_bytes(self.send, 200, line, JSON_HEADERS + self.headers)
                return
            await self.start_stream()
        body = sse_event(line) if line is not None else b""
        await self.send({"type": "http.response.body", "body": body, "more_body": False})


def sse_event(line: bytes) -> bytes:
    return b"event: message\ndata: " + line.rstrip(b"\n") + b"\n\n"


async def send_bytes(send: Send, status: int, body: bytes, headers: Headers) -> None:
    if status != 204:  # a 204 carries no Content-Length
        headers = [*headers, (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def error_body(code: int, message: str, request_id: Any = None, data: Any = None) -> bytes:
    """A JSON-RPC error; without an `id` member when the request's id is unknown."""
    error: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    reply: dict[str, Any] = {"jsonrpc": "2.0"}
    if request_id is not None:
        reply["id"] = request_id
    reply["error"] = error
    return utf8(dumps(reply))


_accept_cache: dict[bytes | None, tuple[bool, bool]] = {}


def accepts(value: bytes | None) -> tuple[bool, bool]:
    """(JSON acceptable, SSE acceptable) for an Accept header; no header accepts anything."""
    known = _accept_cache.get(value)
    if known is not None:
        return known
    json_ok = sse_ok = value is None
    for part in (value or b"").split(b","):
        media, _, params = part.partition(b";")
        media = media.strip().lower()
        if any(
            p.strip().lower().replace(b" ", b"") in (b"q=0", b"q=0.0", b"q=0.00", b"q=0.000")
            for p in params.split(b";")
        ):
            continue
        json_ok = json_ok or media in (b"application/json", b"application/*", b"*/*")
        sse_ok = sse_ok or media in (b"text/event-stream", b"text/*", b"*/*")
    if len(_accept_cache) < 256:
        _accept_cache[value] = (json_ok, sse_ok)
    return json_ok, sse_ok


def is_json_type(value: bytes) -> bool:
    return value.partition(b";")[0].strip().lower() == b"application/json"
