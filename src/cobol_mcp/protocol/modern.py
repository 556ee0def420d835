"""The stateless 2026-07-28 revision: requests that carry their own `_meta` envelope.

A dual-era server tells the eras apart per request: a request whose `params._meta` names
`io.modelcontextprotocol/protocolVersion` is served here, statelessly (nothing from earlier
requests is used); an `initialize` request selects the handshake era handled by the session.
Legacy clients never see anything from this module.
"""

from __future__ import annotations

from ..jsontext import dumps, utf8
from . import jsonrpc
from .jsonrpc import INTERNAL_ERROR, INVALID_PARAMS, METHOD_NOT_FOUND
from .outcome import tool_call

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any, Protocol

    from .jsonrpc import Notification, Request
    from .outcome import ToolCall

    class Offer(Protocol):
        """What this era reads of the server's offer (:class:`.model.ServerModel`, which imports this module)."""

        name: str
        version: str
        title: str | None
        instructions: str | None
        tools: tuple[dict[str, Any], ...]
        resources: tuple[Any, ...]

        @property
        def capabilities(self) -> dict[str, Any]: ...

        @property
        def server_info(self) -> dict[str, Any]: ...

        def resource(self, uri: str) -> Any: ...


MODERN_VERSIONS = ("2026-07-28",)
VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"
SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo"
LOG_LEVEL_KEY = "io.modelcontextprotocol/logLevel"
HEADER_MISMATCH = -32020
UNSUPPORTED_VERSION = -32022
LOG_LEVELS = frozenset(("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"))
# Lists and sources are fixed for the life of the process and hold nothing user-specific.
CACHE_HINTS = {"ttlMs": 300_000, "cacheScope": "public"}
# With live reload (--watch) the tools list may change at any moment: clients re-ask soon.
RELOAD_CACHE_HINTS = {"ttlMs": 2_000, "cacheScope": "public"}
# Methods of the handshake era that 2026-07-28 removed: unknown to modern requests.
REMOVED = frozenset(("initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"))


def is_modern(params: dict[str, Any]) -> bool:
    meta = params.get("_meta")
    return isinstance(meta, dict) and VERSION_KEY in meta


def names_modern(req: Request | Notification) -> bool:
    """Whether a request's body alone says it is of this era: ``server/discover``, or the `_meta`
    envelope's protocol version (the one test of the body, for every transport)."""
    return req.method == "server/discover" or ("_meta" in req.params and is_modern(req.params))


class ModernError(Exception):
    """A modern request refused before dispatch; transports map `code` to an HTTP status."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.code, self.message, self.data = code, message, data


def check_envelope(params: dict[str, Any], supported: tuple[str, ...]) -> str:
    """The request's protocol version, or ModernError (-32602 missing keys, -32022 unsupported)."""
    meta = params.get("_meta")
    missing = [key for key in (VERSION_KEY, CAPABILITIES_KEY) if not isinstance(meta, dict) or key not in meta]
    if missing:
        raise ModernError(INVALID_PARAMS, f"Invalid params: params._meta is missing {', '.join(missing)}")
    assert isinstance(meta, dict)
    if not isinstance(meta[CAPABILITIES_KEY], dict):
        raise ModernError(INVALID_PARAMS, f"Invalid params: {CAPABILITIES_KEY} must be an object")
    version = meta[VERSION_KEY]
    if not isinstance(version, str):
        raise ModernError(INVALID_PARAMS, f"Invalid params: {VERSION_KEY} must be a string")
    if version not in MODERN_VERSIONS:
        raise ModernError(
            UNSUPPORTED_VERSION,
            f"Unsupported protocol version: {version}",
            {"supported": list(supported), "requested": version},
        )
    level = meta.get(LOG_LEVEL_KEY)
    if level is not None and (not isinstance(level, str) or level not in LOG_LEVELS):  # a list is unhashable
        raise ModernError(INVALID_PARAMS, f"Invalid params: {LOG_LEVEL_KEY} must be one of {sorted(LOG_LEVELS)}")
    return version


class ModernEra:
    """Answers modern requests for one server (no per-client state: any replica can serve any request)."""

    def __init__(
        self, server: Offer, legacy_versions: tuple[str, ...], cache_hints: dict[str, Any] = CACHE_HINTS
    ) -> None:
        self.server = server
        self.cache_hints = cache_hints
        self.supported = (*MODERN_VERSIONS, *legacy_versions)
        self.meta = {SERVER_INFO_KEY: server.server_info}
        self.tool_names = frozenset(tool["name"] for tool in server.tools)
        tools = dumps({"resultType": "complete", "tools": list(server.tools), **cache_hints, "_meta": self.meta})
        self._tools_list = tools

    def complete(self, result: dict[str, Any]) -> dict[str, Any]:
        """Every modern result says it is complete and who answered."""
        return {**result, "resultType": "complete", "_meta": self.meta}

    def reply(self, request_id: Any, result: dict[str, Any]) -> bytes:
        return jsonrpc.result_line(request_id, self.complete(result))

    def error(self, request_id: Any, error: ModernError) -> bytes:
        return jsonrpc.error_line(request_id, error.code, error.message, error.data)

    def tool_result(self, call: ToolCall, result: dict[str, Any]) -> bytes:
        return self.reply(call.request_id, result)

    def internal_error(self, request_id: Any, what: str) -> bytes:
        return jsonrpc.error_line(request_id, INTERNAL_ERROR, f"Internal error: {what}")

    def handle(self, req: Request, checked: bool = False) -> bytes | ToolCall:
        """A reply line, or the tools/call to run. `checked`: the envelope was checked already
        (:func:`check_routing` does, for HTTP)."""
        if not checked:
            try:
                check_envelope(req.params, self.supported)
            except ModernError as error:
                return self.error(req.id, error)
        method = req.method
        if method == "tools/call":
            return tool_call(req, modern=True, known=self.tool_names)
        if method == "server/discover":
            result: dict[str, Any] = {
                "supportedVersions": list(self.supported),
                "capabilities": self.server.capabilities,
                **self.cache_hints,
            }
            if self.server.instructions:
                result["instructions"] = self.server.instructions
            return self.reply(req.id, result)
        if method == "tools/list":
            if req.params.get("cursor") is not None:
                return jsonrpc.error_line(req.id, INVALID_PARAMS, "Invalid params: unknown cursor (one page only)")
            return utf8(f'{{"jsonrpc":"2.0","id":{dumps(req.id)},"result":{self._tools_list}}}\n')
        if self.server.resources and method.startswith("resources/") and method not in REMOVED:
            return self._resources(req)
        reason = "removed in 2026-07-28" if method in REMOVED else "not offered by this server"
        return jsonrpc.error_line(req.id, METHOD_NOT_FOUND, f"Method not found: {method} ({reason})")

    def _resources(self, req: Request) -> bytes:
        if req.method == "resources/list":
            listing = [r.listing() for r in self.server.resources]
            return self.reply(req.id, {"resources": listing, **self.cache_hints})
        if req.method == "resources/templates/list":
            return self.reply(req.id, {"resourceTemplates": [], **self.cache_hints})
        if req.method == "resources/read":
            uri = req.params.get("uri")
            resource = self.server.resource(uri) if isinstance(uri, str) else None
            if resource is None:
                if not isinstance(uri, str):  # not echoed: any JSON value could be here
                    return jsonrpc.error_line(req.id, INVALID_PARAMS, "Invalid params: 'uri' must be a string")
                return jsonrpc.error_line(req.id, INVALID_PARAMS, f"Resource not found: {uri}", {"uri": uri})
            contents = [{"uri": uri, "mimeType": resource.mime_type, "text": resource.text}]
            return self.reply(req.id, {"contents": contents, **CACHE_HINTS})
        return jsonrpc.error_line(req.id, METHOD_NOT_FOUND, f"Method not found: {req.method}")


# ---------------------------------------------------------------------------------- routing headers (HTTP)
VERSION_HEADER, METHOD_HEADER, NAME_HEADER = "mcp-protocol-version", "mcp-method", "mcp-name"
ROUTING_HEADERS = (VERSION_HEADER, METHOD_HEADER, NAME_HEADER)
NAMED_BY = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}  # what Mcp-Name repeats
SENTINEL_START, SENTINEL_END = "=?base64?", "?="


def decode_name(value: str) -> str | None:
    """An ``Mcp-Name`` value: literal, or the text a Base64 sentinel holds; None when that is malformed."""
    if not (
        value.startswith(SENTINEL_START)
        and value.endswith(SENTINEL_END)
        and len(value) >= len(SENTINEL_START) + len(SENTINEL_END)
    ):
        return value
    import base64  # (HTTP only: stdio's start path does not load it)

    payload = value[len(SENTINEL_START) : -len(SENTINEL_END)]
    try:
        data = base64.b64decode(payload, validate=True)
        text = data.decode("utf-8")
    except ValueError:  # bad alphabet or padding, or not UTF-8
        return None
    return text if base64.b64encode(data).decode("ascii") == payload else None  # the one canonical spelling


def _mismatch(text: str) -> ModernError:
    return ModernError(HEADER_MISMATCH, f"Header mismatch: {text}")


def check_routing(
    req: Request, headers: Mapping[str, str], repeated: str | None, supported: tuple[str, ...]
) -> ModernError | None:
    """Why a request is refused before dispatch, or None; the envelope is checked here, once.
    `headers`: the routing headers given (lower-case names, values trimmed of spaces and tabs);
    `repeated`: the name of one that came more than once. Refusals in order: a repeated header, an
    unsupported header version (-32022), an incomplete envelope (-32602), a header that is missing or
    does not repeat the body (-32020), then a malformed envelope field or body version."""
    if repeated is not None:
        return _mismatch(f"more than one {repeated} header")
    version = headers.get(VERSION_HEADER)
    if version is not None and version not in MODERN_VERSIONS:
        return ModernError(
            UNSUPPORTED_VERSION,
            f"Unsupported protocol version: {version}",
            {"supported": list(supported), "requested": version},
        )
    try:
        check_envelope(req.params, supported)
        envelope: ModernError | None = None
    except ModernError as error:
        envelope = error
    meta = req.params.get("_meta")
    if not (isinstance(meta, dict) and VERSION_KEY in meta and CAPABILITIES_KEY in meta):
        return envelope  # -32602: the envelope is incomplete
    if version is None:
        return _mismatch("the MCP-Protocol-Version header is missing; it must repeat _meta's protocolVersion")
    if version != meta[VERSION_KEY]:
        return _mismatch(
            f"MCP-Protocol-Version header value {version!r} does not match body value {meta[VERSION_KEY]!r}"
        )
    method = headers.get(METHOD_HEADER)
    if method is None:
        return _mismatch(f"the Mcp-Method header is missing; it must repeat the method {req.method!r}")
    if method != req.method:
        return _mismatch(f"Mcp-Method header value {method!r} does not match body value {req.method!r}")
    field = NAMED_BY.get(req.method)
    named = req.params.get(field) if field is not None else None
    if isinstance(named, str):
        raw = headers.get(NAME_HEADER)
        if raw is None:
            return _mismatch(f"the Mcp-Name header is missing; it must repeat params.{field}")
        given = decode_name(raw)
        if given is None:
            return _mismatch("the Mcp-Name header holds a malformed =?base64?...?= value")
        if given != named:
            return _mismatch(f"Mcp-Name header value {given!r} does not match body value {named!r}")
    return envelope  # -32602 malformed envelope field, or -32022
