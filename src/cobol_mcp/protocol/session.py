"""The MCP session state machine: one line in, one outcome out, no I/O.

Transports feed each framed line to :meth:`Session.receive` and act on what comes back:

- ``bytes``: a complete reply line to write;
- :class:`ToolCall`: run it (the catalog does that), then write :meth:`Session.tool_result`;
- :class:`Cancel`: the client gave up on an earlier request; stop it if it is still running;
- ``None``: nothing to write (notifications, client responses, blank lines).
"""

from __future__ import annotations

from . import jsonrpc, modern
from .framing import Oversize
from .jsonrpc import INVALID_PARAMS, METHOD_NOT_FOUND, Invalid, Notification, Request, _Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TypeAlias

    from .jsonrpc import RequestId

    Outcome: TypeAlias = "bytes | ToolCall | Cancel | None"

LATEST_VERSION = "2025-11-25"
SUPPORTED_VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")
SERVER_NOT_INITIALIZED = -32002
RESOURCE_NOT_FOUND = -32002


class Resource(_Record):
    __slots__ = ("uri", "name", "mime_type", "text", "description")

    def __init__(self, uri: str, name: str, mime_type: str, text: str, description: str | None = None) -> None:
        self.uri, self.name, self.mime_type, self.text, self.description = uri, name, mime_type, text, description

    def listing(self) -> dict[str, Any]:
        entry = {"uri": self.uri, "name": self.name, "mimeType": self.mime_type, "size": len(self.text.encode())}
        if self.description:
            entry["description"] = self.description
        return entry


class ServerModel:
    """What the server offers, fixed at start: the tools list, resources and identity."""

    def __init__(self, name: str, version: str, tools: tuple[dict[str, Any], ...],
                 resources: tuple[Resource, ...] = (), instructions: str | None = None,
                 title: str | None = None) -> None:
        self.name, self.version, self.tools, self.resources = name, version, tools, resources
        self.instructions, self.title = instructions, title
        self._by_uri = {r.uri: r for r in resources}
        self.tools_list_json = jsonrpc.dumps({"tools": list(tools)})  # served as is: serialized once
        self.modern = modern.ModernEra(self, SUPPORTED_VERSIONS)

    @property
    def capabilities(self) -> dict[str, Any]:
        caps: dict[str, Any] = {}
        if self.tools:
            caps["tools"] = {}
        if self.resources:
            caps["resources"] = {}
        return caps

    @property
    def server_info(self) -> dict[str, Any]:
        info = {"name": self.name, "version": self.version}
        if self.title:
            info["title"] = self.title
        return info

    def resource(self, uri: str) -> Resource | None:
        return self._by_uri.get(uri)


class ToolCall(_Record):
    __slots__ = ("request_id", "name", "arguments", "meta", "modern")

    def __init__(self, request_id: RequestId, name: str, arguments: dict[str, Any],
                 meta: dict[str, Any] | None = None, modern: bool = False) -> None:
        self.request_id, self.name, self.arguments, self.meta = request_id, name, arguments, meta
        self.modern = modern  # a 2026-07-28 request: its result carries resultType and serverInfo


class Cancel(_Record):
    __slots__ = ("request_id", "reason")

    def __init__(self, request_id: RequestId, reason: str | None) -> None:
        self.request_id, self.reason = request_id, reason


class Session:
    """Legacy-era (handshake) MCP session for one stdio process or one HTTP session."""

    def __init__(self, server: ServerModel, *, strict_lifecycle: bool = False) -> None:
        self.server = server
        self.strict_lifecycle = strict_lifecycle
        self.protocol_version: str | None = None  # set by initialize
        self.client_info: dict[str, Any] | None = None
        self._tools_list = server.tools_list_json
        self.modern = server.modern

    # ------------------------------------------------------------------------------ entry point
    def receive(self, line: bytes | Oversize, max_bytes: int | None = None) -> Outcome:
        if isinstance(line, Oversize):
            limit = f" of {max_bytes} bytes" if max_bytes else ""
            return jsonrpc.error_line(
                jsonrpc.recover_id(line.head), jsonrpc.PARSE_ERROR,
                f"Parse error: message of {line.size} bytes exceeds the limit{limit}; it was discarded",
            )
        if not line.strip():
            return None
        return self.handle(jsonrpc.parse(line))

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
        if method == "server/discover" or ("_meta" in req.params and modern.is_modern(req.params)):
            reply = self.modern.handle(req)
            return reply if reply is not None else self._tools_call(req, modern=True)
        if method == "tools/call":  # the hot path first
            if self._gated(method):
                return self._not_initialized(req)
            return self._tools_call(req)
        if method == "ping":
            return jsonrpc.result_line(req.id, {})
        if method == "initialize":
            return self._initialize(req)
        if self._gated(method):
            return self._not_initialized(req)
        if method == "tools/list":
            if self._bad_cursor(req):
                return jsonrpc.error_line(req.id, INVALID_PARAMS, "Invalid params: unknown cursor (one page only)")
            return jsonrpc.utf8(f'{{"jsonrpc":"2.0","id":{jsonrpc.dumps(req.id)},"result":{self._tools_list}}}\n')
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
        info = req.params.get("clientInfo")
        self.client_info = info if isinstance(info, dict) else None
        result: dict[str, Any] = {
            "protocolVersion": version,
            "capabilities": self.server.capabilities,
            "serverInfo": self.server.server_info,
        }
        if self.server.instructions:
            result["instructions"] = self.server.instructions
        return jsonrpc.result_line(req.id, result)

    def _tools_call(self, req: Request, modern: bool = False) -> Outcome:
        params = req.params
        name = params.get("name")
        if not isinstance(name, str):
            return jsonrpc.error_line(req.id, INVALID_PARAMS, "Invalid params: tools/call needs 'name' (a string)")
        arguments = params.get("arguments")
        if arguments is None:
            arguments = {}
        elif not isinstance(arguments, dict):
            return jsonrpc.error_line(req.id, INVALID_PARAMS, "Invalid params: 'arguments' must be an object")
        meta = params.get("_meta")
        return ToolCall(req.id, name, arguments, meta if isinstance(meta, dict) else None, modern)

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
