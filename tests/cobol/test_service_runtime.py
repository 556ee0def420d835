"""Mid-call service exchanges through the real runtime and the C worker: ORDLOOP CALLs 'SQLRT' once
per order line (a group item and a COMP-3 item BY REFERENCE); a Python service answers each, through
the codec, and the program acts on what it got back."""

from __future__ import annotations

import time
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from cobol_mcp.cobol.linkage.model import Field
from cobol_mcp.cobol.linkage.program import parse_program
from cobol_mcp.cobol.prepare.cobc import build_module
from cobol_mcp.cobol.records.items import decode_scalar, encode_scalar
from cobol_mcp.cobol.runtime.pool import CallResult, Exchange, Runtime

from .conftest import find, past_every_timeout

SERVICES = Path(__file__).parent / "services"
CONTROL, ORDER = 26, 13  # LK-CONTROL: 9(2), S9(7) COMP-3, X(20); ORD-REQUEST: X(8), S9(5) COMP-3, X(2)


@pytest.fixture(scope="module")
def fields() -> dict[str, Field]:
    spec = parse_program(SERVICES / "ORDLOOP.cbl", "fixed")
    control, order = spec.records[0].field, spec.records[1].field
    return {name: find(order, name) for name in ("ORD-ID", "ORD-QTY", "ORD-STATUS")} | {
        "LK-COUNTER": find(control, "LK-COUNTER")
    }


@pytest.fixture
def runtime(cache_dir: Path, c_worker: Path) -> Any:
    module = build_module(SERVICES / "ORDLOOP.cbl", cache_dir, source_format="fixed")
    rt = Runtime(max_workers=1, worker=str(c_worker), timeout=30.0)
    rt.load("ordloop", module, "ORDLOOP", [CONTROL, ORDER])
    yield rt
    rt.close()


class Orders:
    """The server's side of ORDLOOP's statements: it notes what each request carried, answers odd
    quantities as found ('OK'), even ones as not ('NF'), names the order after the statement number,
    multiplies the quantity by 10 and adds 1 to the packed counter."""

    def __init__(self, fields: dict[str, Field], fail_at: int = 0) -> None:
        self.f, self.fail_at = fields, fail_at
        self.asked: list[tuple[str, int, Decimal, Decimal]] = []

    def __call__(self, exchange: Exchange) -> list[bytes]:
        f = self.f
        order, counter = exchange.params
        qty_field, id_field, status_field = f["ORD-QTY"], f["ORD-ID"], f["ORD-STATUS"]
        qty = decode_scalar(qty_field, order[qty_field.offset : qty_field.offset + qty_field.size])[0]
        count = decode_scalar(f["LK-COUNTER"], counter)[0]
        self.asked.append((exchange.service, exchange.number, qty, count))
        if len(self.asked) == self.fail_at:
            raise RuntimeError("the database connection was lost")
        answer = (
            encode_scalar(id_field, f"ORD{exchange.number:05d}")
            + encode_scalar(qty_field, Decimal(qty * 10))
            + encode_scalar(status_field, "OK" if qty % 2 else "NF")
        )
        return [answer, encode_scalar(f["LK-COUNTER"], Decimal(count + 1))]


def run(rt: Runtime, records: list[bytes], service: Any, timeout: float | None = None) -> CallResult:
    box: list[CallResult] = []
    rt.submit("ordloop", records, box.append, timeout, service=service)
    while not box:
        deadline = rt.next_deadline()
        rt.run_once(None if deadline is None else max(0.0, deadline - time.monotonic()))
        rt.expire()
    return box[0]


def control(lines: int, counter: int, fields: dict[str, Field]) -> bytes:
    return b"%02d" % lines + encode_scalar(fields["LK-COUNTER"], Decimal(counter)) + b" " * 20


def test_each_statement_goes_to_the_server_and_the_program_sees_the_answers(runtime, fields):
    orders = Orders(fields)
    result = run(runtime, [control(5, 40, fields), b" " * ORDER], orders)
    assert result.ok, result
    # What the worker sent: the statement numbers, the quantity the program moved in, the counter as
    # the previous answer left it.
    assert orders.asked == [("SQLRT", 100 + n, Decimal(n), Decimal(40 + n - 1)) for n in range(1, 6)]
    record, order = result.buffers
    assert decode_scalar(fields["LK-COUNTER"], record[2:6])[0] == 45
    assert record[6:] == b"KNKNK".ljust(20)  # the program's EVALUATE on each answer's status
    assert order[:8] == b"ORD00105" and order[11:] == b"OK"  # the last answer, as the program left it
    q = fields["ORD-QTY"]
    assert decode_scalar(q, order[q.offset : q.offset + q.size])[0] == 50


def test_a_call_without_statements_returns_as_usual(runtime, fields):
    orders = Orders(fields)
    result = run(runtime, [control(0, 7, fields), b"x" * ORDER], orders)
    assert result.ok and orders.asked == [] and result.buffers == [control(0, 7, fields), b"x" * ORDER]


def test_a_service_that_raises_fails_its_call_and_the_next_call_runs(runtime, fields):
    """The program is stopped mid-statement, as by an abend: its worker (the run unit) ends, so no
    half-run state (WORKING-STORAGE mid-loop, files left open) reaches the next call, which runs on
    a fresh worker."""
    failing = Orders(fields, fail_at=3)
    result = run(runtime, [control(5, 0, fields), b" " * ORDER], failing)
    assert not result.ok and len(failing.asked) == 3
    assert "SQLRT 103 failed: the database connection was lost" in (result.error or "")
    orders = Orders(fields)
    again = run(runtime, [control(2, 0, fields), b" " * ORDER], orders)
    assert again.ok and again.buffers[0][6:8] == b"KN" and len(orders.asked) == 2
    assert (runtime.stats["started"], runtime.stats["died"]) == (2, 1)


def test_the_cics_entry_asks_the_same_way(cache_dir, c_worker):
    module = build_module(SERVICES / "CUSTLINK.cbl", cache_dir, source_format="fixed")
    rt = Runtime(max_workers=1, worker=str(c_worker), timeout=30.0)
    asked: list[tuple[str, int, bytes]] = []

    def link(exchange: Exchange) -> list[bytes]:
        (commarea,) = exchange.params
        asked.append((exchange.service, exchange.number, commarea))
        found = commarea[:6] == b"004711"
        name = b"ACME TOOLING LTD".ljust(20) if found else commarea[6:26]
        return [commarea[:6] + name + (0 if found else 13).to_bytes(4, "big", signed=True) + commarea[30:]]

    try:
        rt.load("custlink", module, "CUSTLINK", [38])
        box: list[CallResult] = []
        for number in (b"004711", b"000001"):
            rt.submit("custlink", [number + b" " * 32], box.append, service=link)
        while len(box) < 2:
            rt.run_once(1.0)
    finally:
        rt.close()
    assert [(service, n, area[:6], area[26:30]) for service, n, area in asked] == [
        ("CICSRT", 7, b"004711", b"\xff\xff\xff\xff"),  # LK-RESP as the program set it: -1, big-endian COMP
        ("CICSRT", 7, b"000001", b"\xff\xff\xff\xff"),
    ]
    assert [r.buffers[0][6:] for r in box] == [
        b"ACME TOOLING LTD".ljust(20) + bytes(4) + b"FOUND   ",
        b" " * 20 + (13).to_bytes(4, "big") + b"NOTFND  ",
    ]


def test_calls_pipelined_behind_an_exchanging_call_wait_for_it(runtime, fields):
    """Three calls written to one worker at once: the frames of the second and third reach the
    worker while the first waits for answers, and are run after it, each with its own answers."""
    services = [Orders(fields) for _ in range(3)]
    results: list[CallResult] = []
    runtime.defer_writes = True
    for lines, service in zip((3, 4, 2), services, strict=True):
        runtime.submit("ordloop", [control(lines, 0, fields), b" " * ORDER], results.append, service=service)
    runtime.flush()
    runtime.defer_writes = False
    while len(results) < 3:
        runtime.run_once(1.0)
    assert [r.buffers[0][6:10] for r in results] == [b"KNK ", b"KNKN", b"KN  "]
    assert [len(s.asked) for s in services] == [3, 4, 2]
    assert runtime.stats["started"] == 1  # one worker carried all three


def test_an_answer_can_come_later(runtime, fields):
    orders = Orders(fields)
    waiting: list[Exchange] = []
    box: list[CallResult] = []
    runtime.submit("ordloop", [control(2, 0, fields), b" " * ORDER], box.append, service=waiting.append)
    while not box:
        runtime.run_once(1.0)
        if waiting:  # answered from outside the service, as an executor on another thread would
            exchange = waiting.pop()
            assert runtime.answer(exchange, orders(exchange))
            assert not runtime.answer(exchange, orders(exchange))  # one answer per exchange
    assert box[0].ok and box[0].buffers[0][6:8] == b"KN"


def test_a_service_that_never_answers_is_bounded_by_the_call_timeout(runtime, fields):
    box: list[CallResult] = []
    asked: list[Exchange] = []
    runtime.submit("ordloop", [control(2, 0, fields), b" " * ORDER], box.append, 600, service=asked.append)
    while not asked:  # the program waits for its answer now: then its timeout passes
        runtime.run_once(1.0)
    past_every_timeout(runtime)
    while not box:
        runtime.run_once(1.0)
    result = box[0]
    assert not result.ok and "timed out after 600 s (waiting for the answer to SQLRT 101)" in (result.error or "")
    again = run(runtime, [control(1, 0, fields), b" " * ORDER], Orders(fields))
    assert again.ok


def test_a_program_that_asks_without_a_service_is_an_error(runtime, fields):
    box: list[CallResult] = []
    runtime.submit("ordloop", [control(1, 0, fields), b" " * ORDER], box.append)
    while not box:
        runtime.run_once(1.0)
    assert not box[0].ok and "CALLed SQLRT (statement 101)" in (box[0].error or "")


def test_the_python_worker_refuses_exchanges_clearly(cache_dir, fields):
    module = build_module(SERVICES / "ORDLOOP.cbl", cache_dir, source_format="fixed")
    rt = Runtime(max_workers=1, worker=None)
    try:
        rt.load("ordloop", module, "ORDLOOP", [CONTROL, ORDER])
        box: list[CallResult] = []
        rt.submit("ordloop", [control(1, 0, fields), b" " * ORDER], box.append, service=Orders(fields))
        assert not box[0].ok and "only the C worker" in (box[0].error or "")
    finally:
        rt.close()


def test_a_worker_lost_mid_exchange_fails_only_that_call(runtime, fields):
    """The worker dies while its program waits for an answer: that call fails; the call written
    behind it to the same worker runs on a fresh one."""
    import os
    import signal

    def crash(exchange: Exchange) -> None:
        os.kill(runtime._workers[0].pid, signal.SIGKILL)

    orders = Orders(fields)
    results: dict[str, CallResult] = {}
    runtime.defer_writes = True
    runtime.submit(
        "ordloop", [control(3, 0, fields), b" " * ORDER], lambda r: results.setdefault("crash", r), service=crash
    )
    runtime.submit(
        "ordloop", [control(2, 0, fields), b" " * ORDER], lambda r: results.setdefault("next", r), service=orders
    )
    runtime.flush()
    runtime.defer_writes = False
    while len(results) < 2:
        runtime.run_once(1.0)
    assert not results["crash"].ok and "SIGKILL" in (results["crash"].error or "")
    assert results["next"].ok and results["next"].buffers[0][6:8] == b"KN" and len(orders.asked) == 2
    assert runtime.stats["died"] == 1
