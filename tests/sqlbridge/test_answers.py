"""Statements answered off the reply loop (sqlbridge.answers), with a stand-in runtime: the answer arrives
through the loop's pipe, and a call that ends while its statement waits is rolled back after it."""

from __future__ import annotations

import queue
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cobol_mcp.db.apply import apply_files
from cobol_mcp.db.url import Database
from cobol_mcp.selectloop import SelectLoop
from cobol_mcp.sqlbridge.answers import Answerer, Pool, Tracked
from cobol_mcp.sqlbridge.session import Session

from .helpers import PROGRAMS, Call, prepared

PAYROLL = Path(__file__).parents[1] / "db" / "payroll.sql"


class Exchange:
    def __init__(self, number: int, params: list[bytes]) -> None:
        self.service, self.number, self.params = "SQLRT", number, params


class Runtime:
    """What the answerer uses of a Runtime: its loop, answer, fail and flush."""

    def __init__(self) -> None:
        self.loop, self.max_workers = SelectLoop(), 1
        self.answered: list[tuple[Any, list[bytes]]] = []
        self.failed: list[tuple[Any, str]] = []

    def answer(self, exchange: Any, params: list[bytes]) -> None:
        self.answered.append((exchange, params))

    def fail(self, exchange: Any, error: str) -> None:
        self.failed.append((exchange, error))

    def flush(self) -> None:
        pass

    def until(self, seen: Any) -> None:
        while not seen():
            self.loop.run_once(30)


def test_a_call_ended_while_its_insert_waits_is_rolled_back_after_it(tmp_path: Path) -> None:
    db = Database("sqlite", str(tmp_path / "pay.db"))
    apply_files([PAYROLL], db, note=lambda line: None)
    program = prepared(PROGRAMS / "EMPMAINT.cbl", tmp_path / "p", db)
    runtime = Runtime()
    answerer = Answerer(runtime)
    holder = sqlite3.connect(db.target, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another writer: the call's INSERT waits for it
    tracked = Tracked(Session(program), answerer)
    call = Call(program, 4).put("LASTNAME", "WAITER").put("FIRSTNAME", "W").put("WORKDEPT", "A00")
    call.put("SALARY", "1.00").put("HIREDATE", "2024-04-01")
    exchange = Exchange(4, [bytes(call.sqlca), *map(bytes, call.params)])
    assert tracked.answer(exchange) is None  # answered later, off the loop
    tracked.end(True)  # the call ends (say, it timed out) while its INSERT waits: no commit now
    holder.execute("COMMIT")
    runtime.until(lambda: runtime.answered or runtime.failed)
    ((answered, params),) = runtime.answered
    assert answered is exchange and int.from_bytes(params[0][12:16], "little", signed=True) == 0
    assert tracked.session.unit is None  # ended: rolled back, its connection closed
    free = sqlite3.connect(db.target, timeout=0, isolation_level=None)
    free.execute("BEGIN IMMEDIATE")  # no unit of work holds the database any more
    free.execute("ROLLBACK")
    free.close()
    check = sqlite3.connect(db.target)
    assert check.execute("SELECT COUNT(*) FROM \"PAYROLL.EMPLOYEE\" WHERE LASTNAME LIKE 'WAITER%'").fetchone() == (0,)
    with pytest.raises(RuntimeError, match="ended"):  # a statement after the end fails the call
        tracked.answer(exchange)
    holder.close()
    check.close()


def test_the_pool_runs_up_to_its_threads_at_once_then_queues_and_reuses_them() -> None:
    pool = Pool(2)
    inside, release, done = threading.Barrier(3), threading.Event(), queue.SimpleQueue[str]()

    def blocking(name: str) -> Callable[[], None]:
        def job() -> None:
            inside.wait(30)  # returns only once both jobs (and the test) are inside: two threads at once
            release.wait(30)
            done.put(name)

        return job

    pool.submit(blocking("a"))
    pool.submit(blocking("b"))
    inside.wait(30)
    pool.submit(lambda: done.put("c"))  # both threads busy: it waits for one
    assert pool.started == 2 and done.empty()
    release.set()
    assert sorted(done.get(timeout=30) for _ in range(3)) == ["a", "b", "c"]
    names: set[str] = set()
    for _ in range(4):  # one at a time: the idle threads take them, none is started
        pool.submit(lambda: done.put(threading.current_thread().name))
        names.add(done.get(timeout=30))
    assert pool.started == 2 and names <= {"sql-1", "sql-2"}
    pool.submit(lambda: 1 // 0)  # a job that raises does not end its thread
    pool.submit(lambda: done.put("after"))
    pool.submit(lambda: done.put("again"))
    assert sorted([done.get(timeout=30), done.get(timeout=30)]) == ["after", "again"] and pool.started == 2
