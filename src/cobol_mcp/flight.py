"""A tool call in flight: the one record the transports, the catalog and the runtime share.

A :class:`Flight` lives from the request that asked for the call to its answer. The transport makes
it (with the JSON-RPC id and its own session key), the catalog fills in the tool and the tool's
handle (for a COBOL tool, the runtime's call id), the tool's completion :meth:`~Flight.resolve`\\ s
it, once, and the transport's `then` writes the reply. :class:`Flights` is the table of the calls in
flight, by (session, request id): what notifications/cancelled looks up, what a drain on SIGTERM
waits for, what max-calls counts. Standard library only, no I/O: every layer may import it.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import Any

__all__ = ["CANCELLED", "WAITING", "Flight", "Flights"]

WAITING: Any = object()  # no result yet
CANCELLED: Any = object()  # cancelled: no result will be delivered


class Flight:
    __slots__ = ("request_id", "session", "tool", "handle", "result", "then")

    def __init__(self, request_id: Any, session: object = None, then: Callable[[Flight], object] | None = None):
        self.request_id, self.session = request_id, session
        self.tool: Any = None  # the catalog's tool that runs it (it cancels by `handle`)
        self.handle: object = None  # what the tool's start() returned: None once it finished at once
        self.result: Any = WAITING
        self.then = then  # the transport's: writes the reply (or wakes the request waiting for it)

    @property
    def waiting(self) -> bool:
        return self.result is WAITING

    def resolve(self, result: Any) -> bool:
        """The call's result (a CallToolResult dict, or the exception of a server fault): the first
        one counts; a call cancelled or resolved already ignores it. True when it counted."""
        if self.result is not WAITING:
            return False
        self.result = result
        if self.then is not None:
            self.then(self)
        return True

    def cancel(self) -> bool:
        """Stop the call: its tool is asked to stop it and no result will be delivered. False when it
        had ended already."""
        if self.result is not WAITING:
            return False
        self.result = CANCELLED
        if self.tool is not None and self.handle is not None:
            self.tool.cancel(self.handle)
        return True


class Flights:
    """The calls in flight of one transport, by (session key, request id)."""

    def __init__(self) -> None:
        self._by_key: dict[tuple[object, Any], Flight] = {}

    def add(self, flight: Flight) -> bool:
        """Track `flight`; False (and not tracked) when its session has a call with that id in flight."""
        key = (flight.session, flight.request_id)
        if key in self._by_key:
            return False
        self._by_key[key] = flight
        return True

    def done(self, flight: Flight) -> None:
        """Stop tracking `flight` (it was answered or cancelled)."""
        key = (flight.session, flight.request_id)
        if self._by_key.get(key) is flight:
            del self._by_key[key]

    def find(self, session: object, request_id: Any) -> Flight | None:
        return self._by_key.get((session, request_id))

    def cancel(self, session: object, request_id: Any) -> bool:
        """notifications/cancelled: stop that call if it is in flight."""
        flight = self._by_key.pop((session, request_id), None)
        return flight is not None and flight.cancel()

    def cancel_all(self, session: object = None, *, every_session: bool = False) -> int:
        """Cancel the calls of `session` (or of every session): how many were stopped."""
        chosen = [f for f in self._by_key.values() if every_session or f.session is session]
        for flight in chosen:
            self.done(flight)
        return sum(flight.cancel() for flight in chosen)

    def __len__(self) -> int:
        return len(self._by_key)

    def __iter__(self) -> Iterator[Flight]:
        return iter(list(self._by_key.values()))
