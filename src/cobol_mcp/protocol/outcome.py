"""What the protocol core hands a transport besides reply bytes: a tool call to run, a cancellation.

:func:`tool_call` reads a ``tools/call`` request's parameters, once, for both eras.
"""

from __future__ import annotations

from . import jsonrpc
from .jsonrpc import INVALID_PARAMS, ValueObject

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .jsonrpc import Request, RequestId


class ToolCall(ValueObject):
    __slots__ = ("request_id", "name", "arguments", "meta", "modern")

    def __init__(
        self,
        request_id: RequestId,
        name: str,
        arguments: dict[str, Any],
        meta: dict[str, Any] | None = None,
        modern: bool = False,
    ) -> None:
        self.request_id, self.name, self.arguments, self.meta = request_id, name, arguments, meta
        self.modern = modern  # a 2026-07-28 request: its result carries resultType and serverInfo


class Cancel(ValueObject):
    __slots__ = ("request_id", "reason")

    def __init__(self, request_id: RequestId, reason: str | None) -> None:
        self.request_id, self.reason = request_id, reason


def tool_call(req: Request, modern: bool = False, known: frozenset[str] | None = None) -> ToolCall | bytes:
    """The call a ``tools/call`` request asks for, or the error reply that refuses it: no name, a name
    not in `known` (when given), arguments that are not an object."""
    params = req.params
    name = params.get("name")
    if not isinstance(name, str):
        return jsonrpc.error_line(req.id, INVALID_PARAMS, "Invalid params: tools/call needs 'name' (a string)")
    if known is not None and name not in known:
        return jsonrpc.error_line(req.id, INVALID_PARAMS, f"Unknown tool: {name!r}", {"available": sorted(known)})
    arguments = params.get("arguments")
    if arguments is None:
        arguments = {}
    elif not isinstance(arguments, dict):
        return jsonrpc.error_line(req.id, INVALID_PARAMS, "Invalid params: 'arguments' must be an object")
    meta = params.get("_meta")
    return ToolCall(req.id, name, arguments, meta if isinstance(meta, dict) else None, modern)
