"""`db apply` run a second time, and ALTER TABLE … ADD [COLUMN] as DBAs keep it, through the real command
line, on SQLite and on a real PostgreSQL: a CREATE of a table that exists is DB2's -601 at its file:line
(nothing applied), an added column is usable at once, an added column added again is -612."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from .postgres import postgres_url
from .test_apply_cli import HERE, _apply

__all__ = ["postgres_url"]  # the fixture, used by name

ALTER = """-- DBA change 4711: bonus and phone extension
ALTER TABLE PAYROLL.EMPLOYEE
  ADD COLUMN BONUS DECIMAL(9,2) NOT NULL WITH DEFAULT;
ALTER TABLE PAYROLL.EMPLOYEE ADD PHONENO CHAR(4);
UPDATE PAYROLL.EMPLOYEE SET BONUS = 1250.75, PHONENO = '3978' WHERE EMPNO = 1000;
COMMIT;
"""


@pytest.fixture(params=["sqlite", "postgresql"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, str | None]:
    folder = tmp_path / "batch"
    folder.mkdir()
    url = None if request.param == "sqlite" else request.getfixturevalue("postgres_url")
    return folder, url


def _rows(folder: Path, url: str | None, sql: str) -> list[tuple]:
    if url is None:
        import sqlite3

        return (
            sqlite3.connect(folder / "cobol-mcp.db")
            .execute(sql.replace("PAYROLL.EMPLOYEE", '"PAYROLL.EMPLOYEE"'))
            .fetchall()
        )
    import psycopg

    with psycopg.connect(url) as conn:
        return conn.execute(sql).fetchall()


def test_a_second_apply_of_a_create_is_601_at_its_line(target: tuple[Path, str | None]) -> None:
    folder, url = target
    assert _apply(folder, HERE / "payroll.sql", database=url).returncode == 0
    again = _apply(folder, HERE / "payroll.sql", database=url)
    assert again.returncode == 1
    assert f"{HERE / 'payroll.sql'}:20: SQLCODE -601, SQLSTATE 42710" in again.stderr, again.stderr
    assert "nothing was applied" in again.stderr
    assert _rows(folder, url, "SELECT COUNT(*) FROM PAYROLL.EMPLOYEE") == [(2,)]  # the first run's rows, once


def test_alter_table_add_column_as_dbas_keep_it(target: tuple[Path, str | None], tmp_path: Path) -> None:
    folder, url = target
    alter = tmp_path / "alter.sql"
    alter.write_text(ALTER)
    done = _apply(folder, HERE / "payroll.sql", alter, database=url)
    assert done.returncode == 0, done.stderr
    rows = _rows(folder, url, "SELECT EMPNO, BONUS, PHONENO FROM PAYROLL.EMPLOYEE ORDER BY EMPNO")
    stored = Decimal("125075") if url is None else Decimal("1250.75")  # SQLite: DECIMAL(9,2) scaled
    assert rows == [(1000, stored, "3978"), (1001, 0, None)]
    again = _apply(folder, alter, database=url)
    assert again.returncode == 1 and f"{alter}:2: SQLCODE -612, SQLSTATE 42711" in again.stderr, again.stderr


def test_other_alter_table_forms_are_refused_with_their_line(tmp_path: Path) -> None:
    folder = tmp_path / "batch"
    folder.mkdir()
    alter = tmp_path / "alter.sql"
    alter.write_text("ALTER TABLE PAYROLL.EMPLOYEE\n  ALTER COLUMN LASTNAME SET DATA TYPE VARCHAR(30);\n")
    done = _apply(folder, HERE / "payroll.sql", alter)
    assert done.returncode == 1
    assert f"{alter}:1: ALTER TABLE PAYROLL.EMPLOYEE ALTER COLUMN: only ALTER TABLE … ADD [COLUMN] is run" in (
        done.stderr)  # fmt: skip
    alter.write_text("ALTER TABLE PAYROLL.EMPLOYEE ADD CHECK (SALARY > 0);\n")
    done = _apply(folder, HERE / "payroll.sql", alter)
    assert f"{alter}:1: ALTER TABLE PAYROLL.EMPLOYEE ADD CHECK: only ADD [COLUMN] is run" in done.stderr
