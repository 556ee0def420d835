"""A DB2 batch program (EXEC SQL, no USING) as a console tool, through the real stdio server, on SQLite
(the folder's default file) and on a real PostgreSQL: EMPBATCH reads a control card, raises the salaries
of one department through a held FOR UPDATE cursor, commits every two rows and DISPLAYs a report; the
same run ended by a runtime error after its first UPDATE leaves the database as it was."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
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


@pytest.fixture(params=["sqlite", "postgresql"])
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Served]:
    folder = tmp_path / "batch"
    folder.mkdir()
    for name in ("EMPBATCH.cbl", "DCLEMPL.cpy"):
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
    args = ("--no-bundled", "--timeout", "120", "--shutdown-grace", "0", "--programs", str(folder))
    with StdioClient(*args, env={"COBOL_MCP_CACHE": str(tmp_path / "cache")}) as client:
        client.initialize()
        yield client, db, tmp_path


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
    assert f"{folder / 'EMPBATCH.cbl'}:83: FETCH: FETCH EMPCSR INTO :DCLEMPLOYEE.EMPNO" in done.stderr
    assert f"{folder / 'EMPBATCH.cbl'}:118: UPDATE WHERE CURRENT OF: UPDATE PAYROLL.EMPLOYEE SET SALARY" in done.stderr
