"""A tool call in flight: the one record the transports, the catalog and the runtime share.

A :class:`Flight` lives from the request that asked for the call to its answer. The transport makes
it (with the JSON-RPC id, its own session key and the `then` that answers the request), the catalog
starts it (:meth:`cobol_mcp.catalog.Catalog.start` fills in the tool and the tool's handle: for a
COBOL tool, the runtime's call id), and it ends once: the tool's completion :meth:`~Flight.resolve`\\ s
it with the result, or :meth:`~Flight.cancel` stops the tool and ends it with :data:`CANCELLED` (the
client gave up, its session ended) or :data:`STOPPED` (killed at the end of a shutdown drain). Either
way `then` runs exactly once, with the outcome in `result`; whatever comes after is dropped.

:class:`Flights` is the table of the calls in flight, by (session, request id): what
notifications/cancelled looks up, what a drain on SIGTERM waits for and ends, what max-calls counts,
what ending a session cancels. The protocol core keeps no record of calls: it hands a transport a
``Cancel`` and the transport looks the call up here. Standard library only, no I/O: every layer may
import it.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import Any

__all__ = ["CANCELLED", "STOPPED", "WAITING", "Flight", "Flights"]

WAITING: Any = object()  # no outcome yet
CANCELLED: Any = object()  # cancelled by the client (or its session's end): nothing is answered
STOPPED: Any = object()  # killed by the server's shutdown: answered with an error that says so


class Flight:
    __slots__ = ("request_id", "session", "call", "tool", "handle", "result", "then")

    def __init__(
        self,
        request_id: Any,
        session: object = None,
        then: Callable[[Flight], object] | None = None,
        call: Any = None,
    ):
        self.request_id, self.session, self.then = request_id, session, then
        self.call = call  # the transport's record of the request (the protocol core's ToolCall)
        self.tool: Any = None  # the catalog's tool that runs it (it cancels by `handle`)
        self.handle: object = None  # what the tool's start() returned: None once it finished at once
        self.result: Any = WAITING

    @property
    def waiting(self) -> bool:
        return self.result is WAITING

    def resolve(self, result: Any) -> bool:
        """The call's result (a CallToolResult dict, or the exception of a server fault): the first
        outcome counts; a call cancelled or resolved already ignores it. True when it counted."""
        if self.result is not WAITING:
            return False
        self.result = result
        if self.then is not None:
            self.then(self)
        return True

    def cancel(self, outcome: Any = CANCELLED, stopped: Callable[[Any, object], object] | None = None) -> bool:
        """Stop the call: its tool is asked to stop it (then `stopped(tool, handle)` runs, say to roll
        its work back), and it ends with `outcome` (:data:`CANCELLED` or :data:`STOPPED`); a result
        that comes later is dropped. False when it had ended already."""
        if self.result is not WAITING:
            return False
        self.result = outcome
        tool, handle = self.tool, self.handle
        if tool is not None and handle is not None:
            tool.cancel(handle)
            if stopped is not None:
                stopped(tool, handle)
        if self.then is not None:
            self.then(self)
        return True


class Flights:
    """The calls in flight of one transport, by (session key, request id). A client that sends a new
    call with the id of one still in flight gets both run and answered; the newer one is what
    :meth:`find` and :meth:`cancel` reach by that id (both count in ``len``)."""

    __slots__ = ("_sessions", "_shadowed", "_count")

    def __init__(self) -> None:
        # session -> request id -> the newest call with that id. A session's entry stays while it
        # lives (sequential calls reuse it); :meth:`forget` drops it.
        self._sessions: dict[object, dict[Any, Flight]] = {}
        self._shadowed: dict[Flight, None] = {}  # older calls whose id a newer call took (rare)
        self._count = 0

    def add(self, flight: Flight) -> bool:
        """Track `flight`; False when its session has another call with that id in flight (both are
        tracked; the id now names this one)."""
        calls = self._sessions.get(flight.session)
        if calls is None:
            calls = self._sessions[flight.session] = {}
        self._count += 1
        older = calls.setdefault(flight.request_id, flight)
        if older is flight:
            return True
        calls[flight.request_id] = flight
        self._shadowed[older] = None
        return False

    def done(self, flight: Flight) -> None:
        """Stop tracking `flight` (it was answered or cancelled)."""
        calls = self._sessions.get(flight.session)
        tracked = None if calls is None else calls.pop(flight.request_id, None)
        if tracked is flight:
            self._count -= 1
            return
        if tracked is not None:  # a newer call with that id: it stays
            calls[flight.request_id] = tracked  # type: ignore[index]  # (calls is not None here)
        if flight in self._shadowed:
            del self._shadowed[flight]
            self._count -= 1

    def find(self, session: object, request_id: Any) -> Flight | None:
        calls = self._sessions.get(session)
        return None if calls is None else calls.get(request_id)

    def cancel(self, session: object, request_id: Any) -> bool:
        """notifications/cancelled: stop that call if it is in flight."""
        flight = self.find(session, request_id)
        if flight is None:
            return False
        self.done(flight)
        return flight.cancel()

    def busy(self, session: object) -> bool:
        """Whether `session` has a call in flight."""
        return bool(self._sessions.get(session)) or any(f.session == session for f in self._shadowed)

    def cancel_all(self, session: object = None, *, every_session: bool = False) -> int:
        """Cancel the calls of `session` (or of every session): how many were stopped."""
        chosen = [f for f in self if every_session or f.session == session]
        for flight in chosen:
            self.done(flight)
        return sum(flight.cancel() for flight in chosen)

    def forget(self, session: object) -> None:
        """The session ended (its calls were cancelled): drop its entry."""
        if not self._sessions.get(session, True):
            del self._sessions[session]

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[Flight]:
        """The calls in flight (a copy: ending them while iterating is fine)."""
        flights = list(self._shadowed)
        for calls in self._sessions.values():
            flights.extend(calls.values())
        return iter(flights)
