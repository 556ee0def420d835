"""Tools from several backends in one list, with collision names and call routing.

A backend is a named group of tools (a `--programs` folder, or the bundled programs). Tools are
listed backend by backend in the order they were added; when a name is already taken, the later
tool is exposed as ``<backend>__<tool>`` and a warning goes to stderr.
"""

from __future__ import annotations

from . import log
from .flight import STOPPED, Flight

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any, Protocol, TypeAlias

    Done: TypeAlias = Callable[[dict[str, Any] | BaseException], object]

    class Tool(Protocol):
        name: str

        def definition(self) -> dict[str, Any]: ...

        def start(self, arguments: dict[str, Any], done: Done) -> object | None:
            """Begin a call; `done` gets the CallToolResult (or the exception of a server fault).
            Returns a handle for :meth:`cancel` while the call runs, or None if it already finished."""

        def cancel(self, handle: object) -> bool: ...

        def warm(self) -> None: ...


SEPARATOR = "__"
_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")


def valid_tool_name(name: str) -> bool:
    """MCP tool names: 1 to 64 of A-Z a-z 0-9 _ . -"""
    return 0 < len(name) <= 64 and _NAME_CHARS.issuperset(name)


def error_result(text: str) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": text}], "isError": True}


SHUTDOWN_KILLED = (
    "the tool call was stopped by the server's shutdown: it did not finish within the shutdown grace "
    "period, so it was killed and its result discarded"
)
SHUTDOWN_REFUSED = "the server is shutting down and takes no new tool calls; send the call again later"


class CatalogError(ValueError):
    pass


class Catalog:
    def __init__(self) -> None:
        self._tools: dict[str, Tool] = {}
        self._owners: dict[str, str] = {}
        self._backends: list[str] = []

    def add_backend(self, backend: str, tools: Sequence[Tool]) -> list[str]:
        """Add a backend's tools; returns the names they are exposed under."""
        if SEPARATOR in backend or not backend:
            raise CatalogError(f"backend name {backend!r} must be non-empty and must not contain '{SEPARATOR}'")
        if backend in self._backends:
            raise CatalogError(f"two backends are named {backend!r}; name one with --programs NAME=PATH")
        self._backends.append(backend)
        exposed = []
        for tool in tools:
            name = tool.name
            if name in self._tools:
                alias = f"{backend}{SEPARATOR}{name}"
                if not valid_tool_name(alias):
                    log.warning(
                        f"tool {name!r} of backend {backend!r} collides with the one from "
                        f"{self._owners[name]!r} and {alias!r} is not a valid tool name; skipped"
                    )
                    continue
                log.warning(
                    f"tool {name!r} of backend {backend!r} collides with the one from "
                    f"{self._owners[name]!r}; exposed as {alias!r}"
                )
                name = alias
                tool.name = alias
            self._tools[name] = tool
            self._owners[name] = backend
            exposed.append(name)
        return exposed

    @property
    def names(self) -> list[str]:
        return list(self._tools)

    def tool(self, name: str) -> Tool | None:
        return self._tools.get(name)

    def definitions(self) -> list[dict[str, Any]]:
        return [tool.definition() for tool in self._tools.values()]

    def call(
        self, name: str, arguments: dict[str, Any], done: Done, request_id: Any = None
    ) -> tuple[Tool, object] | None:
        """Route a call to its tool; `done` gets its result. Returns (tool, handle) for the tool's
        cancel while it runs, None once it ended. See :meth:`start`."""
        flight = Flight(request_id, None, lambda flight: done(flight.result))
        self.start(flight, name, arguments)
        return None if flight.handle is None else (flight.tool, flight.handle)

    def start(self, flight: Flight, name: str, arguments: dict[str, Any]) -> None:
        """Start `flight`'s call with its tool: its result resolves the flight, and the tool and the
        handle it runs under are filled in (for the flight's cancel) unless it finished at once.
        Unknown tools get an error result naming what exists. With ``--log-level debug`` each call
        ends with a "tool call" line (tool, outcome, duration_ms, request_id), one JSON object with
        ``--log-format json``."""
        done: Done = flight.resolve
        if log.enabled("debug"):
            done = _logged(name, flight.request_id, done)
        tool = self._tools.get(name)
        if tool is None:
            known = ", ".join(self._tools) or "none"
            done(error_result(f"Unknown tool {name!r}. Available tools: {known}."))
            return
        try:
            handle = tool.start(arguments, done)
        except Exception as exc:  # a fault in our code, not the caller's: report it as one
            log.exception(f"tool {name!r} failed to start")
            done(exc)
            return
        if handle is not None:
            flight.tool, flight.handle = tool, handle

    def warm(self) -> None:
        for tool in self._tools.values():
            tool.warm()

    @staticmethod
    def abandon(flight: Flight) -> bool:
        """The server is stopping and this call did not finish within the grace period: kill it (its
        run unit's process group, or its worker; queued, it never starts), so nothing it would have
        reported is reported, then roll back its unit of work; it ends :data:`~.flight.STOPPED` (its
        transport answers it with an error). False when it had ended already."""
        return flight.cancel(STOPPED, roll_back)


def roll_back(tool: Tool, handle: object) -> None:
    """The hook where a killed call's unit of work is rolled back: a tool that keeps one has a
    ``roll_back(handle)`` method, called here after the call was killed: a CobolTool of an EXEC SQL
    program rolls back the call's open transaction (a batch program's output files are simply not
    reported)."""
    hook = getattr(tool, "roll_back", None)
    if hook is not None:
        hook(handle)


def _logged(name: str, request_id: Any, done: Done) -> Done:
    import time

    started = time.perf_counter()

    def logged(result: dict[str, Any] | BaseException) -> None:
        outcome = "fault" if isinstance(result, BaseException) else "error" if result.get("isError") else "ok"
        log.debug(
            "tool call",
            tool=name,
            outcome=outcome,
            duration_ms=round((time.perf_counter() - started) * 1000, 3),
            request_id=request_id,
        )
        done(result)

    return logged
