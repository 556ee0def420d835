"""What the server offers, fixed at start: identity, tools, resources, and the protocol versions."""

from __future__ import annotations

from ..jsontext import dumps
from . import modern
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
    """What the server offers: the tools list, resources and identity. The tools list is fixed for the
    life of the process unless ``reloadable`` (live reload), when :meth:`replace_tools` swaps it;
    ``list_changed`` declares that clients are told (a transport that cannot tell them clears it)."""

    def __init__(
        self,
        name: str,
        version: str,
        tools: tuple[dict[str, Any], ...],
        resources: tuple[Resource, ...] = (),
        instructions: str | None = None,
        title: str | None = None,
        list_changed: bool = False,
        reloadable: bool = False,
    ) -> None:
        self.name, self.version, self.resources = name, version, resources
        self.instructions, self.title = instructions, title
        self.list_changed = list_changed
        self.reloadable = reloadable or list_changed
        self._by_uri = {r.uri: r for r in resources}
        self.replace_tools(tools)

    def replace_tools(self, tools: tuple[dict[str, Any], ...]) -> None:
        """A new tools list, served from the next request on (sessions read it through the model)."""
        self.tools = tools
        self.tools_list_json = dumps({"tools": list(tools)})  # served as is: serialized once
        hints = modern.RELOAD_CACHE_HINTS if self.reloadable else modern.CACHE_HINTS
        self.modern = modern.ModernEra(self, SUPPORTED_VERSIONS, hints)

    @property
    def capabilities(self) -> dict[str, Any]:
        caps: dict[str, Any] = {}
        if self.list_changed:
            caps["tools"] = {"listChanged": True}
        elif self.tools:
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
