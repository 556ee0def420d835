"""An HTTP session's tool calls are the calls table's entries under its state: a session with one in
flight is busy (never reaped as idle), and its end cancels them. In memory, nothing timed: idleness
is set by moving `last_seen` back."""

from __future__ import annotations

import asyncio
from typing import Any

from cobol_mcp.flight import CANCELLED, Flight
from cobol_mcp.transports.http.calls import Calls
from cobol_mcp.transports.http.sessions import Sessions


class Tool:
    def __init__(self) -> None:
        self.cancelled: list[object] = []

    def cancel(self, handle: object) -> bool:
        self.cancelled.append(handle)
        return True


def test_a_session_with_a_call_in_flight_is_busy_and_its_end_cancels_the_call() -> None:
    loop = asyncio.new_event_loop()
    try:
        calls = Calls()
        calls.reader_loop(loop)  # (a cancel schedules a flush of the runtime: never run here)
        sessions = Sessions(60.0, calls)
        busy_id, idle_id = sessions.open(object()).encode(), sessions.open(object()).encode()
        state = sessions.live(busy_id)
        assert state is not None
        answered: list[Any] = []
        tool, flight = Tool(), Flight(1, state, lambda f: (calls.flights.done(f), answered.append(f.result)))
        flight.tool, flight.handle = tool, "handle"
        calls.flights.add(flight)
        assert calls.busy(state) and calls.in_flight == 1
        for live_id in (busy_id, idle_id):
            session = sessions.live(live_id)
            assert session is not None
            session.last_seen -= 3600.0  # an hour unused
        assert sessions.live(idle_id) is None  # idle: ended
        assert sessions.live(busy_id) is state  # a call in flight keeps it
        sessions.end(busy_id.decode())
        assert answered == [CANCELLED] and tool.cancelled == ["handle"]
        assert calls.in_flight == 0 and not calls.busy(state) and sessions.live(busy_id) is None
    finally:
        loop.close()
