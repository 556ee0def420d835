"""The record of a tool call in flight, shared by the transports: one outcome, cancels that reach the tool."""

from __future__ import annotations

from typing import Any

from cobol_mcp.catalog import Catalog
from cobol_mcp.flight import CANCELLED, STOPPED, Flight, Flights


class Tool:
    name = "tool"

    def __init__(self, finish_at_once: bool = False) -> None:
        self.cancelled: list[object] = []
        self.rolled_back: list[object] = []
        self.finish_at_once = finish_at_once

    def start(self, arguments: dict[str, Any], done: Any) -> object | None:
        if self.finish_at_once:
            done({"content": [], "arguments": arguments})
            return None
        return "handle"

    def cancel(self, handle: object) -> bool:
        self.cancelled.append(handle)
        return True

    def roll_back(self, handle: object) -> None:
        assert self.cancelled[-1] == handle  # rolled back once it was killed
        self.rolled_back.append(handle)


def test_the_first_result_is_delivered_once_and_later_ones_are_ignored() -> None:
    replies: list[Any] = []
    flight = Flight(7, then=lambda f: replies.append(f.result))
    assert flight.waiting
    assert flight.resolve({"content": []}) and not flight.resolve({"isError": True})
    assert replies == [{"content": []}] and not flight.waiting
    assert not flight.cancel()  # answered already: nothing to stop


def test_cancel_stops_the_tool_tells_then_once_and_drops_the_late_result() -> None:
    replies: list[Any] = []
    tool, flight = Tool(), Flight("a", then=lambda f: replies.append(f.result))
    flight.tool, flight.handle = tool, 42
    assert flight.cancel() and tool.cancelled == [42] and flight.result is CANCELLED
    assert replies == [CANCELLED]  # what a waiting HTTP request is woken with (it answers nothing)
    assert not flight.resolve({"content": []}) and replies == [CANCELLED]
    assert not flight.cancel() and tool.cancelled == [42]


def test_a_call_that_finished_at_once_has_nothing_to_stop() -> None:
    replies: list[Any] = []
    flight = Flight(1, then=lambda f: replies.append(f.result))
    assert flight.cancel() and replies == [CANCELLED]  # (no tool, no handle: nothing asked to stop)


def test_the_table_finds_calls_by_session_and_id() -> None:
    flights, tool = Flights(), Tool()
    one, other, same_id_elsewhere = Flight(1, "s1"), Flight(2, "s1"), Flight(1, "s2")
    for flight in (one, other, same_id_elsewhere):
        flight.tool, flight.handle = tool, flight
        assert flights.add(flight)
    assert flights.find("s2", 1) is same_id_elsewhere and flights.busy("s1") and not flights.busy("s3")
    assert flights.cancel("s1", 1) and tool.cancelled == [one] and flights.find("s1", 1) is None
    assert not flights.cancel("s1", 1)
    assert flights.cancel_all("s1") == 1 and tool.cancelled == [one, other] and not flights.busy("s1")
    flights.forget("s1")  # (the session ended)
    flights.done(same_id_elsewhere)
    assert len(flights) == 0 and list(flights) == [] and not flights.busy("s2")
    assert flights.add(Flight(2, "s1")) and flights.busy("s1")  # a session key may come back


def test_a_reused_id_runs_both_calls_and_names_the_newer_one() -> None:
    """JSON-RPC forbids it, the transports never refused it: both calls count and are answered; a
    cancel by that id reaches the newer one, and the older one's end does not untrack the newer."""
    flights, tool = Flights(), Tool()
    older, newer = Flight(5, None), Flight(5, None)
    for flight in (older, newer):
        flight.tool, flight.handle = tool, flight
    assert flights.add(older) and not flights.add(newer) and len(flights) == 2
    assert flights.find(None, 5) is newer
    flights.done(older)
    assert len(flights) == 1 and flights.find(None, 5) is newer
    assert flights.cancel(None, 5) and tool.cancelled == [newer] and len(flights) == 0


def test_cancel_all_sessions_stops_everything_in_flight() -> None:
    flights, tool = Flights(), Tool()
    for n in range(3):
        flight = Flight(n, f"s{n}")
        flight.tool, flight.handle = tool, n
        flights.add(flight)
    assert flights.cancel_all(every_session=True) == 3 and sorted(tool.cancelled) == [0, 1, 2]
    assert len(flights) == 0


def test_the_catalog_starts_a_flight_and_abandons_it_with_a_roll_back() -> None:
    catalog, tool, quick = Catalog(), Tool(), Tool(finish_at_once=True)
    catalog.add_backend("a", [tool])
    quick.name = "quick"
    catalog.add_backend("b", [quick])
    replies: list[Any] = []
    running = Flight(1, then=lambda f: replies.append(f.result))
    catalog.start(running, "tool", {})
    assert running.waiting and (running.tool, running.handle) == (tool, "handle")
    done_at_once = Flight(2, then=lambda f: replies.append(f.result))
    catalog.start(done_at_once, "quick", {"x": 1})
    assert replies == [{"content": [], "arguments": {"x": 1}}] and done_at_once.handle is None
    unknown = Flight(3, then=lambda f: replies.append(f.result))
    catalog.start(unknown, "nope", {})
    assert replies[-1]["isError"] and "Unknown tool 'nope'" in replies[-1]["content"][0]["text"]
    assert Catalog.abandon(running) and running.result is STOPPED and replies[-1] is STOPPED
    assert tool.cancelled == ["handle"] and tool.rolled_back == ["handle"]
    assert not Catalog.abandon(running) and tool.rolled_back == ["handle"]
