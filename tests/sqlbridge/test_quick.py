"""Statements answered at once on the reply loop's thread (cobol_mcp.db.quick), with the stand-in runtime of
test_answers: on SQLite a key read and a one-row INSERT come back from the service itself; an INSERT that
would wait for another call's write lock, and a read stopped for running long, go to a thread as before,
having done nothing, and are answered from there."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from cobol_mcp.db import quick
from cobol_mcp.db.apply import apply_files
from cobol_mcp.db.url import Database
from cobol_mcp.sqlbridge.answers import Answerer, Tracked
from cobol_mcp.sqlbridge.session import Session, SqlProgram

from .helpers import PROGRAMS, Call, prepared
from .test_answers import Exchange, Runtime

PAYROLL = Path(__file__).parents[1] / "db" / "payroll.sql"


def _insert(program: SqlProgram, last: str) -> Exchange:
    call = Call(program, 4).put("LASTNAME", last).put("FIRSTNAME", "Q").put("WORKDEPT", "A00")
    call.put("SALARY", "1.00").put("HIREDATE", "2024-04-01")
    return Exchange(4, [bytes(call.sqlca), *map(bytes, call.params)])


def _sqlcode(params: list[bytes]) -> int:
    return int.from_bytes(params[0][12:16], "little", signed=True)


def _lastname(program: SqlProgram, params: list[bytes]) -> object:
    read = Call(program, 3)
    read.sqlca, read.params = bytearray(params[0]), [bytearray(p) for p in params[1:]]
    return read.get("LASTNAME")


def _count(db: Database, last: str) -> int:
    check = sqlite3.connect(db.target)
    try:
        sql = 'SELECT COUNT(*) FROM "PAYROLL.EMPLOYEE" WHERE LASTNAME = ?'
        return int(check.execute(sql, (last.ljust(15),)).fetchone()[0])
    finally:
        check.close()


@pytest.fixture
def started(tmp_path: Path) -> tuple[Database, SqlProgram, Runtime, Tracked]:
    """EMPMAINT's call whose first statement (SET :WS-NEW-EMPNO = IDENTITY_VAL_LOCAL(): its unit of work is
    opened on a thread; it reads no table, so the call holds no snapshot another writer could outdate)."""
    db = Database("sqlite", str(tmp_path / "pay.db"))
    apply_files([PAYROLL], db, note=lambda line: None)
    program = prepared(PROGRAMS / "EMPMAINT.cbl", tmp_path / "p", db)
    runtime = Runtime()
    tracked = Tracked(Session(program), Answerer(runtime))
    first = Call(program, 5)
    assert tracked.answer(Exchange(5, [bytes(first.sqlca), *map(bytes, first.params)])) is None
    runtime.until(lambda: runtime.answered)
    assert _sqlcode(runtime.answered[0][1]) == 0
    return db, program, runtime, tracked


def test_a_key_read_and_an_insert_are_answered_by_the_service_itself(started: tuple) -> None:  # type: ignore[type-arg]
    db, program, runtime, tracked = started
    read = Call(program, 3).put("EMPNO", 1000)  # HAAS, of payroll.sql
    found = tracked.answer(Exchange(3, [bytes(read.sqlca), *map(bytes, read.params)]))
    assert found is not None and _sqlcode(found) == 0
    assert str(_lastname(program, found)).rstrip() == "HAAS"
    added = tracked.answer(_insert(program, "SECOND"))
    assert added is not None and _sqlcode(added) == 0
    assert len(runtime.answered) == 1  # nothing more came through the answerer's threads
    tracked.end(True)
    assert _count(db, "SECOND") == 1


def test_an_insert_that_would_wait_for_a_lock_waits_on_a_thread(started: tuple) -> None:  # type: ignore[type-arg]
    db, program, runtime, tracked = started
    holder = sqlite3.connect(db.target, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another call's writer
    try:
        assert tracked.answer(_insert(program, "WAITER")) is None  # not at once: it would wait
        holder.execute("COMMIT")
        runtime.until(lambda: len(runtime.answered) == 2)
    finally:
        holder.close()
    assert _sqlcode(runtime.answered[1][1]) == 0
    tracked.end(True)
    assert _count(db, "WAITER") == 1  # inserted once: the try at once did nothing


def test_a_read_running_long_is_stopped_and_answered_on_a_thread(started: tuple,  # type: ignore[type-arg]
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    program, runtime, tracked = started[1:]
    monkeypatch.setattr(quick, "STEPS", 1)  # every read runs "long"
    read = Call(program, 3).put("EMPNO", 1000)
    assert tracked.answer(Exchange(3, [bytes(read.sqlca), *map(bytes, read.params)])) is None
    runtime.until(lambda: len(runtime.answered) == 2)
    found = runtime.answered[1][1]
    assert _sqlcode(found) == 0 and str(_lastname(program, found)).rstrip() == "HAAS"
    tracked.end(True)
