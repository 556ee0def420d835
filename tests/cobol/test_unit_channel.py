"""A run unit's service channel (runtime.unit_channel) without COBOL: a Python child speaks the pipes'
format (rununit_sql.c's), so the round trip, a request the service refuses and the end of a call while
its statement runs are shown on their own."""

from __future__ import annotations

import os
import sys
import threading
from typing import Any

import pytest

from cobol_mcp.cobol.runtime.rununit import RunResult, start_run_unit
from cobol_mcp.cobol.runtime.unit_channel import FDS_VARIABLE, Guarded
from cobol_mcp.selectloop import SelectLoop

# The child: one request (statement 7, parameters b"ab" and b"xyz"), then prints the answer's status and bytes.
CHILD = f"""
import os, struct, sys
answers, requests = map(int, os.environ[{FDS_VARIABLE!r}].split(","))
os.write(requests, struct.pack("<iI", 7, 2) + struct.pack("<2I", 2, 3) + b"abxyz")
data = b""
while len(data) < 9:
    chunk = os.read(answers, 9 - len(data))
    if not chunk:
        print("gone"); sys.exit(3)
    data += chunk
print(struct.unpack("<I", data[:4])[0], data[4:].decode())
"""


class Upper:
    def __init__(self) -> None:
        self.seen: list[tuple[int, list[bytes]]] = []
        self.ended: list[bool] = []

    def serve(self, number: int, params: list[bytes]) -> list[bytes]:
        self.seen.append((number, params))
        return [p.upper() for p in params]

    def end(self, ok: bool) -> None:
        self.ended.append(ok)


class Refuses(Upper):
    def serve(self, number: int, params: list[bytes]) -> list[bytes]:
        raise ValueError("statement 7 is not the program's")


def _run(service: Any, timeout: float | None = 60) -> RunResult:
    loop = SelectLoop()
    results: list[RunResult] = []
    unit = start_run_unit(loop, [sys.executable, "-c", CHILD], b"", env=dict(os.environ), cwd=None,
                          timeout=timeout, callback=results.append, service=service)  # fmt: skip
    assert unit is not None
    while not results:
        loop.run_once(1.0)
    loop.close()
    return results[0]


def test_a_request_is_answered_with_the_services_bytes() -> None:
    service = Upper()
    run = _run(service)
    assert (run.return_code, run.error) == (0, None), run
    assert run.stdout == b"0 ABXYZ\n"
    assert service.seen == [(7, [b"ab", b"xyz"])]


def test_a_request_the_service_refuses_kills_the_run_unit_with_the_reason() -> None:
    service = Refuses()
    run = _run(service)
    assert run.error is not None and "statement 7 is not the program's" in run.error, run
    assert run.return_code < 0  # killed (the child was waiting for its answer)


class Waiting:
    """A session whose statement waits for `go`: the call ends while it runs."""

    def __init__(self) -> None:
        self.inside, self.go = threading.Event(), threading.Event()
        self.ended: list[bool] = []

    def service(self, number: int, params: list[bytes]) -> list[bytes]:
        self.inside.set()
        assert self.go.wait(60)
        return params

    def end(self, ok: bool) -> None:
        self.ended.append(ok)


def test_a_call_ended_while_its_statement_runs_is_rolled_back_once_the_statement_is_done() -> None:
    session = Waiting()
    guarded = Guarded(session)
    worker = threading.Thread(target=guarded.serve, args=(1, [b"x"]))
    worker.start()
    assert session.inside.wait(60)
    guarded.end(True)  # the run unit is gone: whatever it says, the statement's unit of work is not done
    assert session.ended == []  # not while the statement runs on its thread
    session.go.set()
    worker.join(60)
    assert session.ended == [False]
    guarded.end(True)  # a second end does nothing
    assert session.ended == [False]


def test_a_call_ended_between_statements_commits_and_refuses_more() -> None:
    session = Waiting()
    session.go.set()
    guarded = Guarded(session)
    assert guarded.serve(1, [b"x"]) == [b"x"]
    guarded.end(True)
    assert session.ended == [True]
    with pytest.raises(RuntimeError, match="has ended"):
        guarded.serve(2, [b"y"])
