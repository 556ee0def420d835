"""A DB2 batch program (EXEC SQL, no USING) as a console tool, through the real stdio server, on SQLite
(the folder's default file) and on a real PostgreSQL: EMPBATCH reads a control card, raises the salaries
of one department through a held FOR UPDATE cursor, commits every two rows and DISPLAYs a report; the
same run ended by a runtime error after its first UPDATE leaves the database as it was. EMPHOLD keeps its
UPDATE uncommitted until a file appears: committed when it ends, rolled back when it is cancelled, times
out or the server is stopped by SIGTERM."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import pytest

from cobol_mcp.db.apply import apply_files
from cobol_mcp.db.unit import connect
from cobol_mcp.db.url import Database

from ..db.postgres import postgres_url
from .stdio_client import StdioClient

__all__ = ["postgres_url"]  # the fixture, used by name

PROGRAMS = Path(__file__).parents[1] / "sql_programs"
PAYROLL = Path(__file__).parents[1] / "db" / "payroll.sql"
MORE = """INSERT INTO PAYROLL.EMPLOYEE (LASTNAME, FIRSTNAME, WORKDEPT, SALARY, HIREDATE)
       VALUES ('KWAN', 'SALLY', 'A00', 38250.00, '2005-04-05');
INSERT INTO PAYROLL.EMPLOYEE (LASTNAME, FIRSTNAME, WORKDEPT, SALARY, HIREDATE)
       VALUES ('LUCCHESI', 'VINCENZO', 'A00', NULL, '2010-05-16');
INSERT INTO PAYROLL.EMPLOYEE (LASTNAME, FIRSTNAME, WORKDEPT, SALARY, HIREDATE)
       VALUES ('PULASKI', 'EVA', 'A00', 36170.00, '2012-12-09');
COMMIT;
"""
Served = tuple[StdioClient, Database, Path]


Prepared = tuple[Path, Database, Path]


@pytest.fixture(params=["sqlite", "postgresql"])
def prepared(request: pytest.FixtureRequest, tmp_path: Path) -> Prepared:
    folder = tmp_path / "batch"
    folder.mkdir()
    for name in ("EMPBATCH.cbl", "EMPHOLD.cbl", "DCLEMPL.cpy"):
        shutil.copy(PROGRAMS / name, folder)
    if request.param == "sqlite":
        db = Database("sqlite", str(folder / "cobol-mcp.db"))  # the default: nothing configured
    else:
        url = request.getfixturevalue("postgres_url")
        (folder / "cobol-mcp.toml").write_text(f'[folder]\ndatabase = "{url}"\n')
        db = Database("postgresql", url)
    more = tmp_path / "more.sql"
    more.write_text(MORE)
    apply_files([PAYROLL, more], db, note=lambda line: None)
    return folder, db, tmp_path


def _client(prepared: Prepared, timeout: str = "120") -> StdioClient:
    folder, _, tmp = prepared
    args = ("--no-bundled", "--timeout", timeout, "--shutdown-grace", "0", "--programs", str(folder))
    args += ("--data-dir", str(folder))  # where EMPHOLD's signal files are: the only place it may write
    return StdioClient(*args, env={"COBOL_MCP_CACHE": str(tmp / "cache")})


@pytest.fixture
def served(prepared: Prepared) -> Iterator[Served]:
    with _client(prepared) as client:
        client.initialize()
        yield client, prepared[1], prepared[2]


def _salaries(db: Database) -> dict[str, Decimal | None]:
    conn = connect(db)
    try:
        sql = 'SELECT LASTNAME, SALARY FROM "PAYROLL.EMPLOYEE"' if db.kind == "sqlite" else (
            "SELECT lastname, salary FROM payroll.employee")  # fmt: skip
        cur = conn if db.kind == "sqlite" else conn.cursor()
        rows = cur.execute(sql).fetchall()
        scale = -2 if db.kind == "sqlite" else 0  # SQLite keeps DECIMAL(9,2) as a count of cents
        return {name.strip(): None if pay is None else Decimal(pay).scaleb(scale) for name, pay in rows}
    finally:
        conn.close()


def test_a_batch_program_reports_the_rows_of_its_where_and_its_updates_are_committed(served: Served) -> None:
    client, db, _ = served
    result = client.call("empbatch", input="A00 010")
    assert not result.get("isError"), result
    report = result["structuredContent"]["stdout"].splitlines()
    assert report[0] == "EMPBATCH SALARY REVIEW, DEPARTMENT A00, RAISE 010 PCT"
    rows = [line.split() for line in report[1:-1]]
    assert [row[1] for row in rows] == ["HAAS", "KWAN", "LUCCHESI", "PULASKI"]  # A00 only, by EMPNO
    assert rows[0][2:] == ["CHRISTINE", "52750.00", "->", "58025.00"]  # VARCHAR FIRSTNAME(1:FIRSTNAME-LEN)
    assert rows[2][2:] == ["VINCENZO", "0.00", "->", "0.00", "(NO", "SALARY)"]  # the NULL indicator
    assert report[-1].split() == ["EMPLOYEES:", "4", "RAISED:", "3"]
    assert _salaries(db) == {"HAAS": Decimal("58025.00"), "O'CONNELL": Decimal("0.30"), "KWAN": Decimal("42075.00"),
                             "LUCCHESI": None, "PULASKI": Decimal("39787.00")}  # fmt: skip
    again = client.call("empbatch", input="D11 100")  # the next run sees the committed rows
    assert again["structuredContent"]["stdout"].splitlines()[1].split()[1:] == ["O'CONNELL", "0.30", "->", "0.60"]
    assert _salaries(db)["O'CONNELL"] == Decimal("0.60")


def test_a_batch_program_that_dies_after_an_update_leaves_the_database_unchanged(served: Served) -> None:
    client, db, _ = served
    before = _salaries(db)
    died = client.call("empbatch", input="A00 010 A")  # a CALL of a program that is not there, after the UPDATE
    assert died.get("isError") and "EMPABND" in str(died["content"]), died
    assert _salaries(db) == before
    kept = client.call("empbatch", input="A00 010")  # no lock left behind: the same run, to its end
    assert not kept.get("isError"), kept
    assert _salaries(db)["HAAS"] == Decimal("58025.00")


def test_check_lists_a_batch_programs_statements(tmp_path: Path) -> None:
    folder = tmp_path / "batch"
    folder.mkdir()
    for name in ("EMPBATCH.cbl", "DCLEMPL.cpy"):
        shutil.copy(PROGRAMS / name, folder)
    apply_files([PAYROLL], Database("sqlite", str(folder / "cobol-mcp.db")), note=lambda line: None)
    done = subprocess.run([sys.executable, "-m", "cobol_mcp", "check", "--no-bundled", "--programs", str(folder)],
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "COBOL_MCP_CACHE": str(tmp_path / "cache")})  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "empbatch: console, inputs: input" in done.stderr
    definition = next(tool for tool in json.loads(done.stdout)["tools"] if tool["name"] == "empbatch")
    assert definition["annotations"]["readOnlyHint"] is False  # it UPDATEs the database
    assert f"{folder / 'EMPBATCH.cbl'}:83: FETCH: FETCH EMPCSR INTO :DCLEMPLOYEE.EMPNO" in done.stderr
    assert f"{folder / 'EMPBATCH.cbl'}:118: UPDATE WHERE CURRENT OF: UPDATE PAYROLL.EMPLOYEE SET SALARY" in done.stderr


def test_check_lists_a_console_program_beside_a_batch_program(tmp_path: Path) -> None:
    """SHOW-ARGS has no EXEC SQL, EMPBATCH beside it has: its calls may still reach SQL subprograms, and
    check lists it like any console program."""
    folder = tmp_path / "batch"
    folder.mkdir()
    for name in ("EMPBATCH.cbl", "DCLEMPL.cpy"):
        shutil.copy(PROGRAMS / name, folder)
    shutil.copy(PROGRAMS.parent / "console_programs" / "showargs.cob", folder)
    done = subprocess.run([sys.executable, "-m", "cobol_mcp", "check", "--no-bundled", "--programs", str(folder)],
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "COBOL_MCP_CACHE": str(tmp_path / "cache")})  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "show_args: console, inputs: args" in done.stderr.splitlines()
    assert "empbatch: console, inputs: input" in done.stderr.splitlines()


def _hold(client: StdioClient, signals: Path) -> None:
    """Start EMPHOLD (request "h") and wait until its UPDATE is in, not committed."""
    signals.mkdir()
    client.send({"jsonrpc": "2.0", "id": "h", "method": "tools/call",
                 "params": {"name": "emphold", "arguments": {"input": str(signals)}}})  # fmt: skip
    deadline = time.monotonic() + 60
    while not (signals / "UPDATED").exists():
        assert time.monotonic() < deadline, "EMPHOLD never updated"
        time.sleep(0.01)


def test_a_held_batch_run_commits_when_it_ends(served: Served) -> None:
    client, db, tmp = served
    _hold(client, tmp / "batch" / "signals")
    assert _salaries(db)["HAAS"] == Decimal("52750.00")  # its update is not seen before it ends
    (tmp / "batch" / "signals" / "RELEASE").touch()
    reply = client.read(60)
    assert reply["id"] == "h" and not reply["result"].get("isError"), reply
    assert reply["result"]["structuredContent"]["stdout"] == "EMPHOLD: RELEASED\n"
    assert _salaries(db)["HAAS"] == Decimal("99999.99")


def test_a_cancelled_batch_run_is_rolled_back(served: Served) -> None:
    client, db, tmp = served
    _hold(client, tmp / "batch" / "signals")
    client.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "h"}})
    # Had its unit of work stayed open, this run's UPDATE of HAAS would wait for its lock, then fail (-913)
    after = client.call("empbatch", input="A00 010")
    assert not after.get("isError"), after
    assert _salaries(db)["HAAS"] == Decimal("58025.00")  # 52750.00 raised by 10 %, not 99999.99


def test_a_batch_run_past_its_timeout_is_rolled_back(prepared: Prepared) -> None:
    _, db, tmp = prepared
    with _client(prepared, timeout="3") as client:
        client.initialize()
        _hold(client, tmp / "batch" / "signals")  # it waits for a RELEASE that never comes
        reply = client.read(60)
        assert reply["id"] == "h" and "did not finish within 3 s" in str(reply), reply
        assert _salaries(db)["HAAS"] == Decimal("52750.00")
        after = client.call("empbatch", input="A00 010")
        assert not after.get("isError"), after
        assert _salaries(db)["HAAS"] == Decimal("58025.00")


def test_a_batch_run_stopped_by_sigterm_is_rolled_back(served: Served) -> None:
    client, db, tmp = served
    _hold(client, tmp / "batch" / "signals")
    client.proc.send_signal(signal.SIGTERM)  # --shutdown-grace 0: the run unit in flight is killed at once
    reply = client.read(60)
    assert reply["id"] == "h" and "shutdown" in str(reply), reply
    client.proc.wait(60)
    assert _salaries(db)["HAAS"] == Decimal("52750.00")
