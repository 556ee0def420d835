"""Requests of the 2026-07-28 revision ("modern") on the same ``/mcp`` endpoint as the handshake era.

Which era a POST belongs to is decided by the protocol core (:func:`cobol_mcp.protocol.dispatch.era`),
from its ``MCP-Protocol-Version`` header, its session and its body. A modern request stands alone:
no session is minted or required, nothing of earlier requests is used. Its routing headers must
agree with its body (:func:`cobol_mcp.protocol.modern.check_routing`; names are case-insensitive,
values are compared exactly after trimming spaces and tabs). This module only maps what the
protocol core answers to HTTP: refusals before dispatch are 400 (-32602 envelope, -32020 header
mismatch, -32022 version); an unknown or removed method is 404 with -32601; every other reply,
results and errors alike, is 200. Closing the response stream cancels the request.
"""

from __future__ import annotations

from ... import log
from ...jsontext import dumps, utf8
from ...protocol import jsonrpc
from ...protocol.dispatch import MODERN, era_of_version
from ...protocol.jsonrpc import INTERNAL_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, Notification, Request
from ...protocol.modern import ROUTING_HEADERS, UNSUPPORTED_VERSION, ModernError
from ...protocol.outcome import ToolCall
from .wire import JSON_HEADERS, error_body, send_bytes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable
    from typing import Any

    from ...protocol.dispatch import Dispatcher
    from .wire import Receive, Reply

    RunCall = Callable[..., Awaitable[None]]  # Calls.run

OWS = " \t"
VERSION_HEADER = b"mcp-protocol-version"
ROUTING = tuple((name, name.encode()) for name in ROUTING_HEADERS)


def header_text(value: bytes) -> str:
    """A header value as compared: surrounding spaces and tabs trimmed, nothing else changed."""
    return value.decode("latin-1").strip(OWS)


def error_code(line: bytes, request_id: Any) -> int | None:
    """The code of a JSON-RPC error reply written by :func:`jsonrpc.error_line`; None for a result."""
    head = utf8(f'{{"jsonrpc":"2.0","id":{dumps(request_id)},"error":{{"code":')
    if not line.startswith(head):
        return None
    end = line.find(b",", len(head))
    try:
        return int(line[len(head) : end])
    except ValueError:
        return None


def routing(headers: dict[bytes, bytes], raw_headers: list[tuple[bytes, bytes]]) -> tuple[dict[str, str], str | None]:
    """The routing headers as the protocol core reads them, and the name of one given twice (or None)."""
    given = {name: header_text(value) for name, key in ROUTING if (value := headers.get(key)) is not None}
    repeated = next((name for name, key in ROUTING if sum(1 for k, _ in raw_headers if k == key) > 1), None)
    return given, repeated


async def serve(
    dispatcher: Dispatcher,
    run_call: RunCall,
    raw_headers: list[tuple[bytes, bytes]],
    headers: dict[bytes, bytes],
    message: jsonrpc.Message,
    reply: Reply,
    receive: Receive,
) -> None:
    """Answer one modern POST: no session is read or written."""
    send, extra = reply.send, reply.headers
    era = dispatcher.modern_era
    if isinstance(message, Request):
        given, repeated = routing(headers, raw_headers)
        try:
            outcome = dispatcher.modern(message, given, repeated)
        except Exception:
            log.exception("unexpected fault while handling a message")
            outcome = jsonrpc.error_line(message.id, INTERNAL_ERROR, "Internal error while handling the message")
        if isinstance(outcome, ModernError):
            body = error_body(outcome.code, outcome.message, message.id, outcome.data)
            await send_bytes(send, 400, body, JSON_HEADERS + extra)
        elif isinstance(outcome, ToolCall):
            await run_call(era, None, outcome, reply, receive)  # no session: a disconnect cancels it
        elif error_code(outcome, message.id) == METHOD_NOT_FOUND:
            await send_bytes(send, 404, outcome, JSON_HEADERS + extra)
        else:
            await reply.finish(outcome)
        return
    if isinstance(message, Notification):
        # Accepted and dropped: a modern client cancels by closing its request's stream, and request ids
        # name nothing across clients here, so a notifications/cancelled has nothing it may stop.
        version = headers.get(VERSION_HEADER)
        if version is not None and era_of_version(header_text(version)) != MODERN:
            await send_bytes(
                send,
                400,
                error_body(
                    UNSUPPORTED_VERSION,
                    "Unsupported protocol version",
                    None,
                    {"supported": list(era.supported), "requested": header_text(version)},
                ),
                JSON_HEADERS + extra,
            )
            return
        await send_bytes(send, 202, b"", extra)
        return
    await send_bytes(
        send,
        400,
        error_body(
            INVALID_REQUEST, "Invalid Request: a 2026-07-28 client sends requests and notifications, never responses"
        ),
        JSON_HEADERS + extra,
    )
