"""`cobol-mcp-server db apply` through the real command line, on SQLite, read back with sqlite3."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from .postgres import postgres_url

__all__ = ["postgres_url"]  # the fixture, used by name

HERE = Path(__file__).parent


def _apply(folder: Path, *files: Path, database: str | None = None) -> subprocess.CompletedProcess[str]:
    extra = ["--database", database] if database else []
    command = [sys.executable, "-m", "cobol_mcp", "db", "apply", *map(str, files), "--programs", str(folder), *extra]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)


def test_payroll_ddl_is_applied_with_storage_statements_skipped(tmp_path: Path) -> None:
    folder = tmp_path / "batch"
    folder.mkdir()
    done = _apply(folder, HERE / "payroll.sql")
    assert done.returncode == 0, done.stderr
    skipped = [line for line in done.stderr.splitlines() if "skipped" in line]
    assert len(skipped) == 9 and all(line.startswith(f"{HERE / 'payroll.sql'}:") for line in skipped)
    assert any(":7: skipped CREATE STOGROUP" in line for line in skipped)
    assert any(":20: skipped IN DBPAYROL.TSDEPT CCSID EBCDIC" in line for line in skipped)
    conn = sqlite3.connect(folder / "cobol-mcp.db")
    conn.execute("PRAGMA foreign_keys = ON")
    rows = conn.execute('SELECT EMPNO, LASTNAME, FIRSTNAME, WORKDEPT, SALARY, HIREDATE, UPDATED_TS '
                        'FROM "PAYROLL.EMPLOYEE" ORDER BY EMPNO').fetchall()  # fmt: skip
    assert [r[:6] for r in rows] == [
        (1000, "HAAS           ", "CHRISTINE", "A00", 5275000, "1995-01-01"),
        (1001, "O'CONNELL      ", "", "D11", 30, "2001-02-28"),
    ]
    assert rows[1][6] == "2001-02-28-08.30.00.000000" and len(rows[0][6]) == 26
    depts = conn.execute('SELECT DEPTNO, BUDGET FROM "PAYROLL.DEPT" ORDER BY 1').fetchall()
    assert [(d, Decimal(b).scaleb(-2)) for d, b in depts] == [("A00", Decimal("1250000.50")), ("D11", Decimal("0.10"))]
    assert conn.execute('SELECT EMPNO, CITY FROM "PAYROLL.EMPADDR"').fetchall() == [(1001, " " * 20)]
    indexes = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert {"PAYROLL.XDEPT1", "PAYROLL.XEMP2"} <= indexes
    with_error = conn.execute("SELECT TYPENAME, LENGTH, SCALE FROM \"COBOL_MCP_COLUMNS\" WHERE COLNAME = 'SALARY'")
    assert with_error.fetchall() == [("DECIMAL", 9, 2)]
    try:  # ON DELETE RESTRICT on DEPT, CASCADE from EMPLOYEE to EMPADDR, as declared
        conn.execute("DELETE FROM \"PAYROLL.DEPT\" WHERE DEPTNO = 'D11'")
        raise AssertionError("the restricted delete went through")
    except sqlite3.IntegrityError:
        pass
    conn.execute('DELETE FROM "PAYROLL.EMPLOYEE" WHERE EMPNO = 1001')
    assert conn.execute('SELECT COUNT(*) FROM "PAYROLL.EMPADDR"').fetchone() == (0,)


def test_the_folder_file_chooses_the_database_and_the_data_directory_holds_the_default(tmp_path: Path) -> None:
    script = tmp_path / "dept.sql"
    script.write_text("CREATE TABLE DEPT (DEPTNO CHAR(3) NOT NULL PRIMARY KEY);\nINSERT INTO DEPT VALUES ('A00');\n")
    named = tmp_path / "named"
    (named / "dbs").mkdir(parents=True)
    (named / "cobol-mcp.toml").write_text('[folder]\ndatabase = "sqlite:///dbs/pay.db"\n')
    assert _apply(named, script).returncode == 0
    assert sqlite3.connect(named / "dbs" / "pay.db").execute("SELECT * FROM DEPT").fetchall() == [("A00",)]
    with_data = tmp_path / "with-data"
    (with_data / "data").mkdir(parents=True)
    (with_data / "cobol-mcp.toml").write_text('[folder]\ndata-dir = "data"\n')
    assert _apply(with_data, script).returncode == 0
    assert (with_data / "data" / "cobol-mcp.db").is_file() and not (with_data / "cobol-mcp.db").exists()


def test_an_untranslatable_statement_names_file_and_line_and_applies_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "batch"
    folder.mkdir()
    bad = tmp_path / "more.sql"
    bad.write_text("INSERT INTO PAYROLL.DEPT (DEPTNO, DEPTNAME) VALUES ('E21', 'SOFTWARE');\n\n"
                   "UPDATE PAYROLL.EMPLOYEE\n   SET SALARY = SALARY * LENGTH(LASTNAME);\n")  # fmt: skip
    done = _apply(folder, HERE / "payroll.sql", bad, database="sqlite:///data/pay.db")
    assert done.returncode == 1
    assert f"{bad}:4: arithmetic on the DECIMAL column SALARY" in done.stderr and "nothing was applied" in done.stderr
    database = folder / "data" / "pay.db"
    conn = sqlite3.connect(database)
    assert conn.execute("SELECT name FROM sqlite_master WHERE name LIKE 'PAYROLL.%'").fetchall() == []


def test_a_failing_statement_rolls_back_everything_with_its_sqlcode(tmp_path: Path) -> None:
    folder = tmp_path / "batch"
    folder.mkdir()
    dup = tmp_path / "dup.sql"
    shutil.copy(HERE / "payroll.sql", tmp_path / "payroll.sql")
    dup.write_text("INSERT INTO PAYROLL.DEPT (DEPTNO, DEPTNAME)\n  VALUES ('A00', 'AGAIN');\n")
    done = _apply(folder, tmp_path / "payroll.sql", dup)
    assert done.returncode == 1
    assert f"{dup}:1: SQLCODE -803, SQLSTATE 23505" in done.stderr
    conn = sqlite3.connect(folder / "cobol-mcp.db")
    assert conn.execute("SELECT name FROM sqlite_master WHERE name LIKE 'PAYROLL.%'").fetchall() == []


def test_payroll_ddl_on_a_real_postgresql(tmp_path: Path, postgres_url: str) -> None:
    import psycopg

    folder = tmp_path / "batch"
    folder.mkdir()
    done = _apply(folder, HERE / "payroll.sql", database=postgres_url)
    assert done.returncode == 0, done.stderr
    with psycopg.connect(postgres_url) as conn:
        rows = conn.execute("SELECT EMPNO, LASTNAME, SALARY, UPDATED_TS FROM PAYROLL.EMPLOYEE ORDER BY 1").fetchall()
        assert [r[:3] for r in rows] == [(1000, "HAAS           ", Decimal("52750.00")),
                                         (1001, "O'CONNELL      ", Decimal("0.30"))]  # fmt: skip
        assert str(rows[1][3]) == "2001-02-28 08:30:00"
        assert conn.execute("SELECT * FROM PAYROLL.EMPADDR").fetchall() == [(1001, "12 HARBOUR ROAD", " " * 20)]
        with pytest.raises(psycopg.errors.ForeignKeyViolation):
            conn.execute("DELETE FROM PAYROLL.DEPT WHERE DEPTNO = 'D11'")
    dup = tmp_path / "dup.sql"
    dup.write_text("INSERT INTO PAYROLL.DEPT (DEPTNO, DEPTNAME) VALUES ('Z99', 'NEW');\n"
                   "INSERT INTO PAYROLL.DEPT (DEPTNO, DEPTNAME) VALUES ('A00', 'AGAIN');\n")  # fmt: skip
    done = _apply(folder, dup, database=postgres_url)
    assert done.returncode == 1 and f"{dup}:2: SQLCODE -803, SQLSTATE 23505" in done.stderr
    with psycopg.connect(postgres_url) as conn:
        assert conn.execute("SELECT COUNT(*) FROM PAYROLL.DEPT WHERE DEPTNO = 'Z99'").fetchone() == (0,)


def test_a_script_that_drops_what_it_creates_runs_twice(tmp_path: Path) -> None:
    folder = tmp_path / "batch"
    folder.mkdir()
    script = tmp_path / "again.sql"
    script.write_text(
        "DROP TABLE PAYROLL.DEPT;\nCREATE TABLE PAYROLL.DEPT (DEPTNO CHAR(3) NOT NULL,\n"
        "  BUDGET DECIMAL(5,2), PRIMARY KEY (DEPTNO));\nINSERT INTO PAYROLL.DEPT VALUES ('A00', 1.5);\n"
        "DROP VIEW PAYROLL.VDEPT;\nCREATE VIEW PAYROLL.VDEPT AS SELECT DEPTNO FROM PAYROLL.DEPT WHERE BUDGET > 1;\n"
    )
    first = _apply(folder, script)
    assert first.returncode == 1 and f"{script}:1: SQLCODE -204, SQLSTATE 42704" in first.stderr  # as on DB2
    (tmp_path / "create.sql").write_text(
        "CREATE TABLE PAYROLL.DEPT (DEPTNO CHAR(3));\nCREATE VIEW PAYROLL.VDEPT AS SELECT * FROM PAYROLL.DEPT;\n"
    )
    assert _apply(folder, tmp_path / "create.sql").returncode == 0
    for _ in range(2):
        done = _apply(folder, script)
        assert done.returncode == 0, done.stderr
    conn = sqlite3.connect(folder / "cobol-mcp.db")
    assert conn.execute('SELECT * FROM "PAYROLL.DEPT"').fetchall() == [("A00", 150)]
    assert conn.execute('SELECT * FROM "PAYROLL.VDEPT"').fetchall() == [("A00",)]  # 1.50 > 1, compared scaled
    assert conn.execute('SELECT COUNT(*) FROM "COBOL_MCP_COLUMNS"').fetchone() == (2,)


def test_apply_takes_the_folder_options_the_server_takes(tmp_path: Path) -> None:
    folder = tmp_path / "batch"
    (folder / "copy").mkdir(parents=True)
    (folder / "data").mkdir()
    command = [
        sys.executable, "-m", "cobol_mcp", "db", "apply", str(HERE / "payroll.sql"), "--programs", f"pay={folder}",
        "--copybooks", str(folder / "copy"), "--dialect", "pay=ibm", "--source-format", "fixed",
        "--data-dir", "pay=data",
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"applied 10 statement(s) to {folder / 'data' / 'cobol-mcp.db'}"
    conn = sqlite3.connect(folder / "data" / "cobol-mcp.db")
    assert conn.execute('SELECT COUNT(*) FROM "PAYROLL.EMPLOYEE"').fetchone() == (2,)
