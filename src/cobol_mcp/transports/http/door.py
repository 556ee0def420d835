"""The one door of a POST to ``/mcp``: what is checked from its headers alone, for both ways of answering it.

:func:`Door.admit` is called by the ASGI application (:mod:`.app`) and by the connection's short
path (:mod:`.fastpath` through :mod:`.lane`) alike, on the request's headers. In order:

1. the :class:`.security.Guard` (``Host``, ``Origin``, bearer token): 421, 403, 401;
2. a ``Content-Type`` other than JSON: 415 (none at all is taken as JSON);
3. an ``Accept`` with neither JSON nor SSE: 406;
4. a ``Content-Length`` over the body limit: 413.

A refusal is answered before the body is read, with ``Connection: close``; a 413's body is read and
dropped first, up to a bound (:func:`discard`), so that a client still sending gets the answer
rather than a reset. An admitted POST then has its body read, within the size, room and time
bounds, by whichever path serves it; the short path takes only the ordinary ones (see :mod:`.lane`).
"""

from __future__ import annotations

import asyncio

from .wire import accepts, is_json_type

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TypeAlias

    from .context import Context
    from .wire import Headers, Receive

    # A POST let in: whether its reply may be JSON, and SSE, and its declared length (None: none, or
    # chunked). A plain tuple: it is made for every request, on the short path too.
    Admitted: TypeAlias = tuple[bool, bool, int | None]

CACHE_LIMIT = 64  # distinct header values remembered per kind (a client sends the same ones each time)
# An oversize body is read and dropped up to this many bytes past the limit before its 413 is sent:
# closing a connection the client is still writing to resets it, and the 413 would never be read.
DRAIN_BYTES = 16 << 20
UNKNOWN: Any = object()


class Refused:
    """A POST answered from its headers: status, text, extra headers; `by_guard` for the Guard's own
    refusals (no CORS headers but on a 401); `drain`: bytes of body to read and drop first."""

    __slots__ = ("status", "text", "extra", "by_guard", "drain")

    def __init__(self, status: int, text: str, extra: Headers, by_guard: bool = False, drain: int = 0) -> None:
        self.status, self.text, self.extra, self.by_guard, self.drain = status, text, extra, by_guard, drain


class Door:
    """Admits POSTs for one :class:`.context.Context`."""

    def __init__(self, context: Context) -> None:
        self.guard = context.guard
        self.limit = context.settings.max_body_bytes
        self.token_needed = context.guard.token is not None
        self._hosts: dict[bytes | None, Refused | None] = {}
        self._content_types: dict[bytes | None, bool] = {None: True}

    def admit(self, headers: dict[bytes, bytes]) -> Admitted | Refused:
        origin = headers.get(b"origin")
        if origin is None:  # the usual case: the Host check is remembered, the token checked each time
            host = headers.get(b"host")
            rejected = self._hosts.get(host, UNKNOWN)
            if rejected is UNKNOWN:
                found = self.guard.check(host, None, None, token_needed=False)
                rejected = Refused(*found, by_guard=True) if found is not None else None
                if len(self._hosts) < CACHE_LIMIT:
                    self._hosts[host] = rejected
            if rejected is not None:
                refused: Refused = rejected  # (UNKNOWN was replaced above)
                return refused
            if self.token_needed:
                found = self.guard.check_token(headers.get(b"authorization"))
                if found is not None:
                    return Refused(*found, by_guard=True)
        else:
            found = self.guard.check(headers.get(b"host"), origin, headers.get(b"authorization"), token_needed=True)
            if found is not None:
                return Refused(*found, by_guard=True)
        content_type = headers.get(b"content-type")
        ok = self._content_types.get(content_type)
        if ok is None:
            ok = content_type is not None and is_json_type(content_type)
            if len(self._content_types) < CACHE_LIMIT:
                self._content_types[content_type] = ok
        if not ok:
            return Refused(415, "Unsupported Media Type: send application/json", [])
        json_ok, sse_ok = accepts(headers.get(b"accept"))
        if not (json_ok or sse_ok):
            return Refused(406, "Not Acceptable: accept application/json and text/event-stream", [])
        declared = headers.get(b"content-length")
        length = int(declared) if declared is not None and declared.isdigit() else None
        if length is not None and length > self.limit:
            expecting = b"100-continue" in headers.get(b"expect", b"").lower()  # the client waits: nothing to drop
            drain = length if length <= self.limit + DRAIN_BYTES and not expecting else 0
            return Refused(413, self.too_large(), [], drain=drain)
        return json_ok, sse_ok, length

    def too_large(self) -> str:
        return f"Payload Too Large: a message may have at most {self.limit} bytes"


async def discard(receive: Receive, budget: int, timeout: float) -> None:
    """Read and drop what of a refused body arrives, up to `budget` bytes and within `timeout` seconds."""
    try:
        async with asyncio.timeout(timeout):
            while budget > 0:
                message = await receive()
                budget -= len(message.get("body", b""))
                if message["type"] != "http.request" or not message.get("more_body"):
                    return
    except TimeoutError:
        pass
