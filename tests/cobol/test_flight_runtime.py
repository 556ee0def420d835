"""A Flight over the real runtime: its handle is the runtime's call id, and its cancel kills the call."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cobol_mcp.cobol.prepare.cobc import build_module
from cobol_mcp.cobol.runtime.pool import Runtime
from cobol_mcp.flight import CANCELLED, Flight, Flights

from .conftest import wait_running

FAULTS = Path(__file__).parent / "faults"


class RuntimeTool:
    """As CobolTool.start/cancel use the runtime: the handle is the runtime's call id."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime

    def start(self, name: str, n: int, flight: Flight) -> None:
        flight.tool = self
        flight.handle = self.runtime.submit(name, [b"%04d" % n, b"    "], flight.resolve)

    def cancel(self, handle: object) -> bool:
        return isinstance(handle, int) and self.runtime.cancel(handle)


def test_a_hung_call_cancelled_through_its_flight_ends_without_a_reply_and_the_next_one_runs(
    cache_dir: Path, worker: str | None
) -> None:
    rt = Runtime(max_workers=1, timeout=600, worker=worker)  # only a cancel can end the endless call
    try:
        for name in ("endless", "return-code"):
            rt.load(name, build_module(FAULTS / f"{name}.cob", cache_dir), name.replace("-", "__"), [4, 4])
        replies: list[Any] = []
        flights, tool = Flights(), RuntimeTool(rt)
        hung, quick = Flight(1, "s", then=replies.append), Flight(2, "s", then=replies.append)
        flights.add(hung)
        tool.start("endless", 1, hung)
        wait_running(rt, hung.handle)  # (cancelled before it ran, no worker would die)
        assert flights.cancel("s", 1) and not rt.busy and rt.stats["died"] == 1
        flights.add(quick)
        tool.start("return-code", 4, quick)
        while quick.waiting:
            rt.run_once(0.1)
            rt.expire()
        assert replies == [hung, quick] and hung.result is CANCELLED  # the cancel answers it, once
        assert quick.result.ok and quick.result.return_code == 4
    finally:
        rt.close()
