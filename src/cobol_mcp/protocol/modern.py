"""The stateless 2026-07-28 revision: requests that carry their own `_meta` envelope.

A dual-era server tells the eras apart per request: a request whose `params._meta` names
`io.modelcontextprotocol/protocolVersion` is served here, statelessly (nothing from earlier
requests is used); an `initialize` request selects the handshake era handled by the session.
Legacy clients never see anything from this module.
"""

from __future__ import annotations

from . import jsonrpc
from .jsonrpc import INVALID_PARAMS, METHOD_NOT_FOUND

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Protocol

    from .jsonrpc import Request

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
MISSING_CLIENT_CAPABILITY = -32021
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
        tools = jsonrpc.dumps(
            {"resultType": "complete", "tools": list(server.tools), **cache_hints, "_meta": self.meta}
        )
        self._tools_list = tools

    def complete(self, result: dict[str, Any]) -> dict[str, Any]:
        """Every modern result says it is complete and who answered."""
        return {**result, "resultType": "complete", "_meta": self.meta}

    def reply(self, request_id: Any, result: dict[str, Any]) -> bytes:
        return jsonrpc.result_line(request_id, self.complete(result))

    def error(self, request_id: Any, error: ModernError) -> bytes:
        return jsonrpc.error_line(request_id, error.code, error.message, error.data)

    def handle(self, req: Request) -> bytes | None:
        """A reply line, or None for a tools/call the caller must run (the envelope is valid)."""
        try:
            check_envelope(req.params, self.supported)
        except ModernError as error:
            return self.error(req.id, error)
        method = req.method
        if method == "tools/call":
            name = req.params.get("name")
            if not isinstance(name, str):
                return jsonrpc.error_line(req.id, INVALID_PARAMS, "Invalid params: tools/call needs 'name' (a string)")
            if name not in self.tool_names:
                return jsonrpc.error_line(
                    req.id, INVALID_PARAMS, f"Unknown tool: {name!r}", {"available": sorted(self.tool_names)}
                )
            return None
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
            return jsonrpc.utf8(f'{{"jsonrpc":"2.0","id":{jsonrpc.dumps(req.id)},"result":{self._tools_list}}}\n')
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
