"""The MCP session state machine: one line in, one outcome out, no I/O.

Transports feed each framed line to :meth:`Session.receive` and act on what comes back:

- ``bytes``: a complete reply line to write;
- :class:`ToolCall`: run it (the catalog does that), then write :meth:`Session.tool_result`;
- :class:`Cancel`: the client gave up on an earlier request; stop it if it is still running;
- ``None``: nothing to write (notifications, client responses, blank lines).
"""

from __future__ import annotations

from ..jsontext import dumps, utf8
from . import jsonrpc
from .framing import Oversize
from .jsonrpc import INVALID_PARAMS, METHOD_NOT_FOUND, Invalid, Notification, Request
from .model import LATEST_VERSION, SUPPORTED_VERSIONS
from .modern import names_modern
from .outcome import Cancel, ToolCall, tool_call

__all__ = ["SERVER_NOT_INITIALIZED", "Cancel", "Session", "ToolCall"]  # (the outcomes live in .outcome)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TypeAlias

    from .jsonrpc import RequestId
    from .model import ServerModel
    from .modern import ModernEra

    Outcome: TypeAlias = "bytes | ToolCall | Cancel | None"

SERVER_NOT_INITIALIZED = -32002
RESOURCE_NOT_FOUND = -32002


class Session:
    """Legacy-era (handshake) MCP session for one stdio process or one HTTP session."""

    def __init__(self, server: ServerModel, *, strict_lifecycle: bool = False) -> None:
        self.server = server
        self.strict_lifecycle = strict_lifecycle
        self.protocol_version: str | None = None  # set by initialize

    @property
    def modern(self) -> ModernEra:
        """The 2026-07-28 era of the server's current offer (read through the model: it may be reloaded)."""
        return self.server.modern

    # ------------------------------------------------------------------------------ entry point
    def receive(self, line: bytes | Oversize, max_bytes: int | None = None) -> Outcome:
        if isinstance(line, Oversize):
            limit = f" of {max_bytes} bytes" if max_bytes else ""
            return jsonrpc.error_line(
                jsonrpc.recover_id(line.head),
                jsonrpc.PARSE_ERROR,
                f"Parse error: message of {line.size} bytes exceeds the limit{limit}; it was discarded",
            )
        message = jsonrpc.parse(line)
        if message.__class__ is Request:  # the usual case first: handle() without its type tests
            if message.method == "tools/call" and "_meta" not in message.params and not self.strict_lifecycle:
                return tool_call(message)
            return self._request(message)
        if message.__class__ is Invalid and message.code == jsonrpc.PARSE_ERROR and not line.strip():
            return None  # a blank line
        return self.handle(message)

    def handle(self, message: jsonrpc.Message) -> Outcome:
        if isinstance(message, Request):
            return self._request(message)
        if isinstance(message, Notification):
            return self._notification(message)
        if isinstance(message, Invalid):
            return jsonrpc.error_line(message.id, message.code, message.message)
        return None  # Ignored

    def tool_result(self, call: ToolCall, result: dict[str, Any]) -> bytes:
        if call.modern:
            return self.modern.reply(call.request_id, result)
        return jsonrpc.result_line(call.request_id, result)

    def internal_error(self, request_id: RequestId, what: str) -> bytes:
        return jsonrpc.error_line(request_id, jsonrpc.INTERNAL_ERROR, f"Internal error: {what}")

    # ------------------------------------------------------------------------------ requests
    def _request(self, req: Request) -> Outcome:
        method = req.method
        if names_modern(req):  # the era of a message without headers: the stateless one answers it
            return self.modern.handle(req)
        if method == "tools/call":  # the hot path first
            if self._gated(method):
                return self._not_initialized(req)
            return tool_call(req)
        if method == "ping":
            return jsonrpc.result_line(req.id, {})
        if method == "initialize":
            return self._initialize(req)
        if self._gated(method):
            return self._not_initialized(req)
        if method == "tools/list":
            if self._bad_cursor(req):
                return jsonrpc.error_line(req.id, INVALID_PARAMS, "Invalid params: unknown cursor (one page only)")
            listing = self.server.tools_list_json
            return utf8(f'{{"jsonrpc":"2.0","id":{dumps(req.id)},"result":{listing}}}\n')
        if self.server.resources:
            if method == "resources/list":
                if self._bad_cursor(req):
                    return jsonrpc.error_line(req.id, INVALID_PARAMS, "Invalid params: unknown cursor")
                return jsonrpc.result_line(req.id, {"resources": [r.listing() for r in self.server.resources]})
            if method == "resources/templates/list":
                return jsonrpc.result_line(req.id, {"resourceTemplates": []})
            if method == "resources/read":
                return self._resources_read(req)
        return jsonrpc.error_line(req.id, METHOD_NOT_FOUND, f"Method not found: {method}")

    def _gated(self, method: str) -> bool:
        return self.strict_lifecycle and self.protocol_version is None and method not in ("initialize", "ping")

    def _not_initialized(self, req: Request) -> bytes:
        return jsonrpc.error_line(
            req.id, SERVER_NOT_INITIALIZED, f"Server not initialized: send 'initialize' before '{req.method}'"
        )

    @staticmethod
    def _bad_cursor(req: Request) -> bool:
        return req.params.get("cursor") is not None

    def _initialize(self, req: Request) -> bytes:
        requested = req.params.get("protocolVersion")
        if not isinstance(requested, str):
            return jsonrpc.error_line(
                req.id, INVALID_PARAMS, "Invalid params: initialize needs 'protocolVersion' (a string)"
            )
        version = requested if requested in SUPPORTED_VERSIONS else LATEST_VERSION
        self.protocol_version = version
        result: dict[str, Any] = {
            "protocolVersion": version,
            "capabilities": self.server.capabilities,
            "serverInfo": self.server.server_info,
        }
        if self.server.instructions:
            result["instructions"] = self.server.instructions
        return jsonrpc.result_line(req.id, result)

    def _resources_read(self, req: Request) -> bytes:
        uri = req.params.get("uri")
        if not isinstance(uri, str):
            return jsonrpc.error_line(req.id, INVALID_PARAMS, "Invalid params: resources/read needs 'uri' (a string)")
        resource = self.server.resource(uri)
        if resource is None:
            return jsonrpc.error_line(req.id, RESOURCE_NOT_FOUND, f"Resource not found: {uri}", {"uri": uri})
        contents = {"uri": uri, "mimeType": resource.mime_type, "text": resource.text}
        return jsonrpc.result_line(req.id, {"contents": [contents]})

    # ------------------------------------------------------------------------------ notifications
    def _notification(self, note: Notification) -> Outcome:
        if note.method == "notifications/cancelled":
            request_id = note.params.get("requestId")
            if jsonrpc.valid_id(request_id):
                reason = note.params.get("reason")
                return Cancel(jsonrpc.normal_id(request_id), reason if isinstance(reason, str) else None)
        return None
