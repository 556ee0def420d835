"""Where a message meets its era: the one decision, and the one dispatcher, for every transport.

Two eras share every endpoint: the handshake era (2024-11-05 to 2025-11-25: ``initialize``, then a
session) and the stateless 2026-07-28 revision (each request carries its own ``_meta`` envelope).
Which one a message belongs to, first match wins:

1. it is read in a live handshake-era session (an HTTP ``MCP-Session-Id``): that session's era;
2. its declared version (HTTP's ``MCP-Protocol-Version``) is a handshake-era one: handshake era;
3. it declares any other version: modern (an unknown one gets -32022);
4. it declares none: its body decides (:func:`.modern.names_modern`: ``server/discover`` or the
   envelope; ``initialize`` is always handshake era).

Over stdio, where nothing is declared outside the body, a session asks the body alone, for each
request. A modern request needs no session at all: :meth:`Dispatcher.modern` answers it from the
server's offer (:class:`.modern.ModernEra`), which also writes its tool call's result. The
transports only map the error codes they get to their own statuses.
"""

from __future__ import annotations

from .jsonrpc import Notification, Request
from .model import LATEST_VERSION, SUPPORTED_VERSIONS
from .modern import MODERN_VERSIONS, ModernError, check_routing, names_modern
from .session import Session

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from . import jsonrpc
    from .model import ServerModel
    from .modern import ModernEra
    from .outcome import ToolCall

HANDSHAKE, MODERN = "handshake", "modern"


def era_of_version(version: str | None) -> str | None:
    """The era a declared version names: none declared is the handshake era (taken as 2025-03-26);
    None: a version of neither era."""
    if version is None or version in SUPPORTED_VERSIONS:
        return HANDSHAKE
    if version in MODERN_VERSIONS:
        return MODERN
    return None


def era(version: str | None, message: jsonrpc.Message, in_session: bool) -> str:
    """The era of a message (see the module's ladder). `version`: the declared one, trimmed."""
    if in_session:
        return HANDSHAKE
    if version is not None:
        return era_of_version(version) or MODERN
    if isinstance(message, (Request, Notification)) and message.method != "initialize":
        return MODERN if names_modern(message) else HANDSHAKE
    return HANDSHAKE


def version_problem(version: str | None) -> tuple[str, dict[str, Any]] | None:
    """Why a handshake-era declared version is refused (text, error data), or None."""
    if version is None:
        return None  # taken as 2025-03-26, which is supported
    version = version.strip()
    if version in SUPPORTED_VERSIONS:
        return None
    return (
        f"Bad Request: unsupported MCP-Protocol-Version {version!r}",
        {"supported": list(SUPPORTED_VERSIONS), "requested": version},
    )


class Dispatcher:
    """The eras of one server's offer: handshake-era sessions, and the stateless era, which has none."""

    def __init__(self, model: ServerModel, strict_lifecycle: bool = False) -> None:
        self.model, self.strict_lifecycle = model, strict_lifecycle

    @property
    def modern_era(self) -> ModernEra:
        """Answers modern requests and writes their tool results (read through the model: it may be reloaded)."""
        return self.model.modern

    def new_session(self) -> Session:
        return Session(self.model, strict_lifecycle=self.strict_lifecycle)

    def fresh_session(self, version: str | None) -> Session:
        """The session a handshake-era request is served by without one: new, taken as initialized."""
        session = self.new_session()
        session.protocol_version = version.strip() if version is not None else LATEST_VERSION
        return session

    def modern(
        self, req: Request, headers: Mapping[str, str], repeated: str | None = None
    ) -> bytes | ToolCall | ModernError:
        """A modern request: refused before dispatch (a :class:`ModernError`), answered, or a tool
        call to run. `headers`, `repeated`: its routing headers, as :func:`.modern.check_routing` reads them."""
        era = self.model.modern
        refused = check_routing(req, headers, repeated, era.supported)
        if refused is not None:
            return refused
        return era.handle(req, checked=True)
