"""EXEC SQL programs as tools, through the real stdio server and the C worker, on SQLite (the folder's
default file) and on a real PostgreSQL (``[folder] database``): EMPMAINT's SQLCODE branches, a call
that fails after its INSERT leaving nothing, and two calls in flight not seeing each other's rows."""

from __future__ import annotations

import inspect
import os
import shutil
import signal
import time
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from cobol_mcp.cobol.runtime.pool import Runtime
from cobol_mcp.db.apply import apply_files
from cobol_mcp.db.unit import connect
from cobol_mcp.db.url import Database

from ..db.postgres import postgres_url
from .database_folder import PAYROLL, serve_with_database
from .stdio_client import StdioClient

__all__ = ["postgres_url"]  # the fixture, used by name

PROGRAMS = Path(__file__).parents[1] / "sql_programs"
Served = tuple[StdioClient, Database, Path]
STALL_AFTER = inspect.signature(Runtime).parameters["stall_after"].default


@pytest.fixture(params=["sqlite", "postgresql"])
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Served]:
    folder = tmp_path / "batch"
    folder.mkdir()
    for name in ("EMPMAINT.cbl", "EMPFAIL.cbl", "SQLSYNC.cbl", "DCLEMPL.cpy"):
        shutil.copy(PROGRAMS / name, folder)
    unique = tmp_path / "unique.sql"
    unique.write_text("CREATE UNIQUE INDEX PAYROLL.XEMP3 ON PAYROLL.EMPLOYEE (LASTNAME, HIREDATE);\n")
    with serve_with_database(request, folder, tmp_path / "cache", ddl=(unique,)) as (client, db):
        yield client, db, tmp_path


def _employee(client: StdioClient, function: str, **given: Any) -> dict[str, Any]:
    request = {"ls_function": function, "ls_empno": 0, "ls_lastname": "", "ls_firstname": "", "ls_dept": "A00",
               "ls_salary": "0", "ls_hiredate": "2024-04-01"} | given  # fmt: skip
    result = client.call("empmaint", **request)
    assert not result.get("isError"), result
    out: dict[str, Any] = result["structuredContent"]
    return out


def _count(db: Database, lastname: str) -> int:
    conn = connect(db)
    try:
        sql = 'SELECT COUNT(*) FROM "PAYROLL.EMPLOYEE" WHERE LASTNAME = ?' if db.kind == "sqlite" else (
            "SELECT COUNT(*) FROM payroll.employee WHERE lastname = %s")  # fmt: skip
        cur = conn if db.kind == "sqlite" else conn.cursor()
        row = cur.execute(sql, (lastname.ljust(15),)).fetchone()
        return int(row[0])
    finally:
        conn.close()


def _writer_inserted(client: StdioClient, tmp: Path, request_id: int | str) -> Path:
    """Start SQLSYNC as the writer (request `request_id`) and return its signal folder once its row is in:
    not committed, the program waits there for a CHECKED file."""
    signals = tmp / "signals"
    signals.mkdir()
    client.send({"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
                 "params": {"name": "sqlsync", "arguments": {"ls_role": "W", "ls_dir": str(signals)}}})  # fmt: skip
    deadline = time.monotonic() + 60
    while not (signals / "INSERTED").exists():
        assert time.monotonic() < deadline, "the writer never inserted"
        time.sleep(0.01)
    return signals


def test_empmaint_inquires_adds_and_branches_on_its_sqlcodes(served: Served) -> None:
    client, _, _ = served
    haas = _employee(client, "I", ls_empno=1000)
    assert (haas["ls_return_code"], haas["ls_sqlcode"]) == (0, 0)
    assert haas["ls_emp_out"]["ls_out_name"] == "CHRISTINE HAAS"  # VARCHAR FIRSTNAME(1:FIRSTNAME-LEN)
    assert Decimal(str(haas["ls_emp_out"]["ls_out_salary"])) == Decimal("52750.00")
    missing = _employee(client, "I", ls_empno=4711)
    assert (missing["ls_return_code"], missing["ls_sqlcode"]) == (4, 100)
    added = _employee(client, "A", ls_lastname="LOPEZ", ls_firstname="ANA MARIA", ls_salary="39175.25")
    assert (added["ls_return_code"], added["ls_sqlcode"]) == (0, 0)
    number = added["ls_emp_out"]["ls_out_empno"]
    assert number > 1001  # the identity DB2 generated, through SET :WS-NEW-EMPNO = IDENTITY_VAL_LOCAL()
    again = _employee(client, "I", ls_empno=number)  # committed when the adding call ended
    assert again["ls_emp_out"]["ls_out_name"] == "ANA MARIA LOPEZ"
    dup = _employee(client, "A", ls_lastname="LOPEZ", ls_firstname="ANA", ls_salary="1.00")
    assert (dup["ls_return_code"], dup["ls_sqlcode"]) == (8, -803)
    bad = _employee(client, "A", ls_lastname="SMITH", ls_dept="ZZZ", ls_salary="1.00")
    assert (bad["ls_return_code"], bad["ls_sqlcode"]) == (8, -530)


def test_a_call_that_fails_after_its_insert_leaves_no_row(served: Served) -> None:
    client, db, _ = served
    failed = client.call("empfail", ls_lastname="GHOST")
    assert failed.get("isError") and "EMPNOTIF" in str(failed["content"])  # the runtime error, after the INSERT
    assert _count(db, "GHOST") == 0
    kept = _employee(client, "A", ls_lastname="GHOST", ls_salary="1.00")  # the same INSERT in a call that ends
    assert kept["ls_return_code"] == 0 and _count(db, "GHOST") == 1
    assert "result" in client.request("tools/list")  # the server carries on


def test_two_calls_in_flight_do_not_see_each_others_uncommitted_rows(served: Served) -> None:
    client, db, tmp = served
    signals = _writer_inserted(client, tmp, 101)  # the writer's row is in, not committed: it waits for CHECKED
    # The runtime sends a call to another worker only once the busy one has run its call longer than its
    # stall_after; before that it would queue the reader behind the waiting writer.
    time.sleep(STALL_AFTER * 4)
    client.send({"jsonrpc": "2.0", "id": 102, "method": "tools/call",
                 "params": {"name": "sqlsync", "arguments": {"ls_role": "R", "ls_dir": str(signals)}}})  # fmt: skip
    replies = {reply["id"]: reply["result"] for reply in (client.read(60), client.read(60))}
    assert not replies[101].get("isError") and not replies[102].get("isError"), replies
    writer, reader = replies[101]["structuredContent"], replies[102]["structuredContent"]
    assert writer["ls_sqlcode"] == 0 and (signals / "INSERTED").exists()  # it had inserted before the reader read
    assert (reader["ls_sqlcode"], reader["ls_count"]) == (0, 0)  # and the reader did not see the row
    assert _count(db, "PENDING") == 1  # committed when the writer ended
    after = client.call("sqlsync", ls_role="R", ls_dir=str(signals))["structuredContent"]
    assert after["ls_count"] == 1


def test_a_cancelled_call_is_rolled_back_at_once(served: Served) -> None:
    client, db, tmp = served
    _writer_inserted(client, tmp, "w")  # its row is in; it waits for a CHECKED that never comes
    client.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "w"}})
    # The same key (LASTNAME, HIREDATE) as the cancelled call's row: were its unit of work still open, this
    # INSERT would wait for its lock (PostgreSQL) or find the database locked (SQLite: -913)
    added = _employee(client, "A", ls_lastname="PENDING", ls_hiredate="2024-01-01", ls_salary="1.00")
    assert (added["ls_return_code"], added["ls_sqlcode"]) == (0, 0)
    assert _count(db, "PENDING") == 1


def test_a_call_stopped_by_sigterm_is_rolled_back(served: Served) -> None:
    client, db, tmp = served
    _writer_inserted(client, tmp, "w")  # its row is in; it waits for a CHECKED that never comes
    client.proc.send_signal(signal.SIGTERM)  # --shutdown-grace 0: the call in flight is killed at once
    reply = client.read(60)
    assert reply["id"] == "w" and "shutdown" in str(reply), reply
    assert client.proc.wait(60) == 1  # a call had to be killed: not a clean drain
    assert _count(db, "PENDING") == 0  # its INSERT went with it


def test_check_lists_the_statements_and_refuses_what_cannot_be_translated(tmp_path: Path) -> None:
    import subprocess
    import sys

    folder = tmp_path / "batch"
    folder.mkdir()
    for name in ("EMPMAINT.cbl", "DCLEMPL.cpy"):
        shutil.copy(PROGRAMS / name, folder)
    (folder / "EMPLOCK.cbl").write_text(
        "       IDENTIFICATION DIVISION.\n       PROGRAM-ID. EMPLOCK.\n       DATA DIVISION.\n"
        "       WORKING-STORAGE SECTION.\n           EXEC SQL INCLUDE SQLCA END-EXEC.\n"
        "       LINKAGE SECTION.\n       01  LS-CODE                 PIC S9(9).\n"
        "       PROCEDURE DIVISION USING LS-CODE.\n"
        "           EXEC SQL LOCK TABLE PAYROLL.EMPLOYEE IN SHARE MODE\n           END-EXEC\n"
        "           MOVE SQLCODE TO LS-CODE\n           GOBACK.\n"
    )
    (folder / "EMPBAD.cbl").write_text(  # no INCLUDE SQLCA: cobc's own error, at the user's file and line
        "       IDENTIFICATION DIVISION.\n       PROGRAM-ID. EMPBAD.\n       PROCEDURE DIVISION.\n"
        "           EXEC SQL COMMIT END-EXEC\n           DISPLAY SQLCODE\n           GOBACK.\n"
    )
    apply_files([PAYROLL], Database("sqlite", str(folder / "cobol-mcp.db")), note=lambda line: None)
    done = subprocess.run([sys.executable, "-m", "cobol_mcp", "check", "--no-bundled", "--programs", str(folder)],
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "COBOL_MCP_CACHE": str(tmp_path / "cache")})  # fmt: skip
    assert done.returncode == 1  # two programs could not be served
    assert f"{folder / 'EMPMAINT.cbl'}:51: SELECT INTO: SELECT LASTNAME, FIRSTNAME" in done.stderr
    assert f"{folder / 'EMPMAINT.cbl'}:101: SET: SET :WS-NEW-EMPNO = IDENTITY_VAL_LOCAL()" in done.stderr
    assert f"error: {folder / 'EMPLOCK.cbl'}:9: LOCK is not supported by the runtime" in done.stderr
    assert f"{folder / 'EMPBAD.cbl'}:5: error: 'SQLCODE' is not defined" in done.stderr


def test_a_call_waiting_for_another_calls_row_lock_times_out_with_913(served: Served) -> None:
    client, db, tmp = served
    _writer_inserted(client, tmp, "w")
    time.sleep(STALL_AFTER * 4)  # (so that the next call goes to the other worker)
    # The same key as the writer's uncommitted row: DB2 waits for the lock, then gives up with -913
    request = {"ls_function": "A", "ls_empno": 0, "ls_lastname": "PENDING", "ls_firstname": "", "ls_dept": "A00",
               "ls_salary": "1.00", "ls_hiredate": "2024-01-01"}  # fmt: skip
    client.send(
        {"jsonrpc": "2.0", "id": "a", "method": "tools/call", "params": {"name": "empmaint", "arguments": request}}
    )
    reply = client.read(120)  # after the lock wait (BUSY_TIMEOUT_MS)
    assert reply["id"] == "a", reply
    blocked = reply["result"]["structuredContent"]
    assert (blocked["ls_return_code"], blocked["ls_sqlcode"]) == (16, -913)
    client.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "w"}})
    assert "result" in client.request("tools/list")
    assert _count(db, "PENDING") == 0


def test_a_call_waiting_for_a_lock_goes_on_once_the_holder_is_rolled_back(served: Served) -> None:
    client, db, tmp = served
    if db.kind != "postgresql":
        pytest.skip("a waiting statement is seen in PostgreSQL's pg_locks; SQLite shows no waiters")
    _writer_inserted(client, tmp, "w")
    time.sleep(STALL_AFTER * 4)  # (so that the next call goes to the other worker)
    request = {"ls_function": "A", "ls_empno": 0, "ls_lastname": "PENDING", "ls_firstname": "", "ls_dept": "A00",
               "ls_salary": "1.00", "ls_hiredate": "2024-01-01"}  # fmt: skip
    client.send(
        {"jsonrpc": "2.0", "id": "a", "method": "tools/call", "params": {"name": "empmaint", "arguments": request}}
    )
    probe = connect(db)
    deadline = time.monotonic() + 120
    try:
        while not probe.execute("SELECT count(*) FROM pg_locks WHERE NOT granted").fetchone()[0]:
            assert time.monotonic() < deadline, "the second INSERT never waited"
            probe.rollback()
            time.sleep(0.01)
    finally:
        probe.close()
    # the second call waits for the writer's row; the server still takes the cancel, and the rollback frees it
    client.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "w"}})
    reply = client.read(60)
    assert reply["id"] == "a", reply
    added = reply["result"]["structuredContent"]
    assert (added["ls_return_code"], added["ls_sqlcode"]) == (0, 0)
    assert _count(db, "PENDING") == 1
