"""The record of a tool call in flight, shared by the transports: one result, cancels that reach the tool."""

from __future__ import annotations

from typing import Any

from cobol_mcp.flight import CANCELLED, Flight, Flights


class Tool:
    def __init__(self) -> None:
        self.cancelled: list[object] = []

    def cancel(self, handle: object) -> bool:
        self.cancelled.append(handle)
        return True


def test_the_first_result_is_delivered_once_and_later_ones_are_ignored() -> None:
    replies: list[Any] = []
    flight = Flight(7, then=lambda f: replies.append(f.result))
    assert flight.waiting
    assert flight.resolve({"content": []}) and not flight.resolve({"isError": True})
    assert replies == [{"content": []}] and not flight.waiting
    assert not flight.cancel()  # answered already: nothing to stop


def test_cancel_stops_the_tool_by_its_handle_and_drops_the_late_result() -> None:
    replies: list[Any] = []
    tool, flight = Tool(), Flight("a", then=replies.append)
    flight.tool, flight.handle = tool, 42
    assert flight.cancel() and tool.cancelled == [42] and flight.result is CANCELLED
    assert not flight.resolve({"content": []}) and replies == []
    assert not flight.cancel() and tool.cancelled == [42]


def test_the_table_finds_calls_by_session_and_id_and_refuses_a_duplicate() -> None:
    flights, tool = Flights(), Tool()
    one, other, same_id_elsewhere = Flight(1, "s1"), Flight(2, "s1"), Flight(1, "s2")
    for flight in (one, other, same_id_elsewhere):
        flight.tool, flight.handle = tool, flight
        assert flights.add(flight)
    assert not flights.add(Flight(1, "s1")) and len(flights) == 3
    assert flights.find("s2", 1) is same_id_elsewhere
    assert flights.cancel("s1", 1) and tool.cancelled == [one] and flights.find("s1", 1) is None
    assert not flights.cancel("s1", 1)
    assert flights.cancel_all("s1") == 1 and tool.cancelled == [one, other]
    flights.done(same_id_elsewhere)
    assert len(flights) == 0 and list(flights) == []


def test_cancel_all_sessions_stops_everything_in_flight() -> None:
    flights, tool = Flights(), Tool()
    for n in range(3):
        flight = Flight(n, f"s{n}")
        flight.tool, flight.handle = tool, n
        flights.add(flight)
    assert flights.cancel_all(every_session=True) == 3 and sorted(tool.cancelled) == [0, 1, 2]
    assert len(flights) == 0
