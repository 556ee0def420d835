"""What the server offers, fixed at start: identity, tools, resources, and the protocol versions."""

from __future__ import annotations

from . import jsonrpc, modern
from .jsonrpc import ValueObject

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

LATEST_VERSION = "2025-11-25"
SUPPORTED_VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")


class Resource(ValueObject):
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
