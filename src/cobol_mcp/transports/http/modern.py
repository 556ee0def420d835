"""Requests of the 2026-07-28 revision ("modern") on the same ``/mcp`` endpoint as the handshake era.

Which era a POST belongs to, first match wins:

1. it names a live handshake-era session (``MCP-Session-Id``): that session's era, as before;
2. its ``MCP-Protocol-Version`` is a handshake-era version (2024-11-05 to 2025-11-25): handshake era;
3. it has any other ``MCP-Protocol-Version``: modern (an unknown version gets -32022);
4. it has none: a request carrying the modern ``_meta`` envelope (or ``server/discover``) is modern
   and refused for the missing header; ``initialize`` and everything else are handshake era (taken
   as 2025-03-26, as the 2025-11-25 transport says).

A modern request stands alone: no session is minted or required, nothing of earlier requests is
used. Before the protocol core sees it, its routing headers must agree with its body (names are
case-insensitive, values are compared exactly after trimming spaces and tabs; ``Mcp-Name`` may be
Base64 in a ``=?base64?...?=`` sentinel). Refusals are 400 (-32602 envelope, -32020 header
mismatch, -32022 version); an unknown or removed method is 404 with -32601; every other reply,
results and errors alike, is 200. Closing the response stream cancels the request.
"""

from __future__ import annotations

import base64

from ... import log
from ...protocol import jsonrpc, modern
from ...protocol.jsonrpc import INTERNAL_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, Notification, Request
from ...protocol.model import SUPPORTED_VERSIONS as LEGACY_VERSIONS
from ...protocol.modern import (
    CAPABILITIES_KEY,
    HEADER_MISMATCH,
    MODERN_VERSIONS,
    UNSUPPORTED_VERSION,
    VERSION_KEY,
    ModernError,
    check_envelope,
)
from ...protocol.session import ToolCall
from .wire import JSON_HEADERS, error_body, send_bytes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable
    from typing import Any

    from ...protocol.session import Session
    from .wire import Receive, Reply

    RunCall = Callable[..., Awaitable[None]]  # Calls.run

OWS = " \t"
VERSION_HEADER, METHOD_HEADER, NAME_HEADER = b"mcp-protocol-version", b"mcp-method", b"mcp-name"
ROUTING_HEADERS = (VERSION_HEADER, METHOD_HEADER, NAME_HEADER)
NAMED_BY = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}  # what Mcp-Name repeats
SENTINEL_START, SENTINEL_END = "=?base64?", "?="


def header_text(value: bytes) -> str:
    """A header value as compared: surrounding spaces and tabs trimmed, nothing else changed."""
    return value.decode("latin-1").strip(OWS)


def is_modern(version: bytes | None, message: jsonrpc.Message, in_session: bool) -> bool:
    """Whether a POST is of the 2026-07-28 era (see the module's ladder)."""
    if in_session:
        return False
    if version is not None:
        return header_text(version) not in LEGACY_VERSIONS
    if isinstance(message, (Request, Notification)) and message.method != "initialize":
        return message.method == "server/discover" or modern.is_modern(message.params)
    return False


def decode_name(value: str) -> str | None:
    """An ``Mcp-Name`` value: literal, or the text a Base64 sentinel holds; None when that is malformed."""
    if not (
        value.startswith(SENTINEL_START)
        and value.endswith(SENTINEL_END)
        and len(value) >= len(SENTINEL_START) + len(SENTINEL_END)
    ):
        return value
    payload = value[len(SENTINEL_START) : -len(SENTINEL_END)]
    try:
        data = base64.b64decode(payload, validate=True)
        text = data.decode("utf-8")
    except ValueError:  # bad alphabet or padding, or not UTF-8
        return None
    return text if base64.b64encode(data).decode("ascii") == payload else None  # the one canonical spelling


def _mismatch(text: str) -> ModernError:
    return ModernError(HEADER_MISMATCH, f"Header mismatch: {text}")


def refusal(
    headers: dict[bytes, bytes], raw_headers: list[tuple[bytes, bytes]], req: Request, supported: tuple[str, ...]
) -> ModernError | None:
    """Why a modern request is refused before dispatch (every refusal is a 400), or None."""
    for name in ROUTING_HEADERS:
        if sum(1 for key, _ in raw_headers if key == name) > 1:
            return _mismatch(f"more than one {name.decode()} header")
    version = headers.get(VERSION_HEADER)
    version_text = header_text(version) if version is not None else None
    if version_text is not None and version_text not in MODERN_VERSIONS:
        return ModernError(
            UNSUPPORTED_VERSION,
            f"Unsupported protocol version: {version_text}",
            {"supported": list(supported), "requested": version_text},
        )
    meta = req.params.get("_meta")
    if not (isinstance(meta, dict) and VERSION_KEY in meta and CAPABILITIES_KEY in meta):
        try:
            check_envelope(req.params, supported)
        except ModernError as error:
            return error  # -32602: the envelope is incomplete
    assert isinstance(meta, dict)
    if version_text is None:
        return _mismatch("the MCP-Protocol-Version header is missing; it must repeat _meta's protocolVersion")
    if version_text != meta[VERSION_KEY]:
        return _mismatch(
            f"MCP-Protocol-Version header value {version_text!r} does not match body value {meta[VERSION_KEY]!r}"
        )
    method = headers.get(METHOD_HEADER)
    if method is None:
        return _mismatch(f"the Mcp-Method header is missing; it must repeat the method {req.method!r}")
    if header_text(method) != req.method:
        return _mismatch(f"Mcp-Method header value {header_text(method)!r} does not match body value {req.method!r}")
    field = NAMED_BY.get(req.method)
    named = req.params.get(field) if field is not None else None
    if isinstance(named, str):
        raw = headers.get(NAME_HEADER)
        if raw is None:
            return _mismatch(f"the Mcp-Name header is missing; it must repeat params.{field}")
        given = decode_name(header_text(raw))
        if given is None:
            return _mismatch("the Mcp-Name header holds a malformed =?base64?...?= value")
        if given != named:
            return _mismatch(f"Mcp-Name header value {given!r} does not match body value {named!r}")
    try:
        check_envelope(req.params, supported)
    except ModernError as error:
        return error  # -32602 malformed envelope field, or -32022
    return None


def error_code(line: bytes, request_id: Any) -> int | None:
    """The code of a JSON-RPC error reply written by :func:`jsonrpc.error_line`; None for a result."""
    head = jsonrpc.utf8(f'{{"jsonrpc":"2.0","id":{jsonrpc.dumps(request_id)},"error":{{"code":')
    if not line.startswith(head):
        return None
    end = line.find(b",", len(head))
    try:
        return int(line[len(head) : end])
    except ValueError:
        return None


async def serve(
    session: Session,
    run_call: RunCall,
    raw_headers: list[tuple[bytes, bytes]],
    headers: dict[bytes, bytes],
    message: jsonrpc.Message,
    reply: Reply,
    receive: Receive,
) -> None:
    """Answer one modern POST. `session` is a pristine handshake session: modern requests never change it."""
    send, extra = reply.send, reply.headers
    if isinstance(message, Request):
        refused = refusal(headers, raw_headers, message, session.modern.supported)
        if refused is not None:
            body = error_body(refused.code, refused.message, message.id, refused.data)
            await send_bytes(send, 400, body, JSON_HEADERS + extra)
            return
        try:
            outcome = session.handle(message)
        except Exception:
            log.exception("unexpected fault while handling a message")
            outcome = jsonrpc.error_line(message.id, INTERNAL_ERROR, "Internal error while handling the message")
        if isinstance(outcome, ToolCall):
            await run_call(session, None, outcome, reply, receive)  # no session: a disconnect cancels it
        elif isinstance(outcome, bytes) and error_code(outcome, message.id) == METHOD_NOT_FOUND:
            await send_bytes(send, 404, outcome, JSON_HEADERS + extra)
        else:
            await reply.finish(outcome if isinstance(outcome, bytes) else None)  # a request gets bytes
        return
    if isinstance(message, Notification):
        # Accepted and dropped: a modern client cancels by closing its request's stream, and request ids
        # name nothing across clients here, so a notifications/cancelled has nothing it may stop.
        version = headers.get(VERSION_HEADER)
        if version is not None and header_text(version) not in MODERN_VERSIONS:
            await send_bytes(
                send,
                400,
                error_body(
                    UNSUPPORTED_VERSION,
                    "Unsupported protocol version",
                    None,
                    {"supported": list(session.modern.supported), "requested": header_text(version)},
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
