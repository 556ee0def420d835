"""PostgreSQL: the savepoint after a change is sent with the change's answer, not waited for on its own; the
unit's statements share one driver cursor."""

from __future__ import annotations

from pathlib import Path

import pytest

from cobol_mcp.cobol.precompile.scan import scan_lines
from cobol_mcp.db.apply import apply_files
from cobol_mcp.db.catalog import read_catalog
from cobol_mcp.db.connection import send_ahead, settle
from cobol_mcp.db.prepare import prepare_plan
from cobol_mcp.db.unit import Unit, connect
from cobol_mcp.db.url import Database

PAYROLL = Path(__file__).parent / "payroll.sql"
_ACTIVE = 1  # psycopg.pq.TransactionStatus.ACTIVE: a command is in progress


def _unit(url: str, *sql: str) -> Unit:
    db = Database("postgresql", url)
    apply_files([PAYROLL], db, note=lambda line: None)
    scan = scan_lines(Path("T.cbl"), [(n, f"EXEC SQL {text} END-EXEC") for n, text in enumerate(sql, 1)])
    conn = connect(db)
    return Unit(prepare_plan(scan.statements, "postgresql", read_catalog(conn, "postgresql")), conn)  # type: ignore[arg-type]


def test_a_change_is_answered_with_its_savepoint_still_on_its_way(postgres_url: str) -> None:
    u = _unit(
        postgres_url,
        "INSERT INTO PAYROLL.DEPT (DEPTNO, DEPTNAME) VALUES (:D, 'NEW')",
        "SELECT COUNT(*) INTO :C FROM PAYROLL.DEPT",
        "DECLARE C CURSOR FOR SELECT DEPTNO FROM PAYROLL.DEPT ORDER BY DEPTNO",
        "OPEN C",
        "FETCH C INTO :D",
        "CLOSE C",
    )
    try:
        driver = u.conn
        assert u.execute(1, {"D": "E21"}).sqlca.sqlcode == 0
        assert driver.pgconn.transaction_status == _ACTIVE  # the answer came before the savepoint's
        assert u.execute(1, {"D": "E21"}).sqlca.sqlcode == -803  # back to the savepoint after the first
        assert u.execute(2, {}).sets == {"C": 3}
        # OPEN is followed by a savepoint too: the FETCH after it reads through the cursor, not the connection
        assert u.execute(4, {}).sqlca.sqlcode == 0 and driver.pgconn.transaction_status == _ACTIVE
        assert u.execute(5, {}).sets == {"D": "A00"}
        assert u.execute(1, {"D": "E22"}).sqlca.sqlcode == 0
        assert u.execute(6, {}).sqlca.sqlcode == 0  # CLOSE too
        assert u.execute(1, {"D": "E23"}).sqlca.sqlcode == 0
        # what uses the connection itself (CICS ENQ does) finds it ready
        assert u.conn.execute("SELECT COUNT(*) FROM PAYROLL.DEPT").fetchone() == (5,)
        assert u.execute(1, {"D": "E24"}).sqlca.sqlcode == 0
        u.end(True)  # the commit waits for the savepoint's answer first
        with connect(Database("postgresql", postgres_url)) as other:
            assert other.execute("SELECT DEPTNO FROM PAYROLL.DEPT WHERE DEPTNO LIKE 'E%' ORDER BY 1").fetchall() == [
                ("E21",), ("E22",), ("E23",), ("E24",)]  # fmt: skip
    finally:
        u.driver.close()


def test_a_command_sent_ahead_that_fails_raises_when_settled(postgres_url: str) -> None:
    psycopg = pytest.importorskip("psycopg")
    conn = connect(Database("postgresql", postgres_url))
    try:
        conn.execute("SELECT 1")
        send_ahead(conn, "SAVEPOINT a; RELEASE SAVEPOINT b")
        with pytest.raises(psycopg.errors.InvalidSavepointSpecification, match="savepoint"):
            settle(conn)
        conn.rollback()
        assert conn.execute("SELECT 2").fetchone() == (2,)
    finally:
        conn.close()


def test_the_units_statements_share_one_driver_cursor(postgres_url: str) -> None:
    u = _unit(
        postgres_url,
        "SELECT DEPTNAME INTO :N FROM PAYROLL.DEPT WHERE DEPTNO = :D",
        "INSERT INTO PAYROLL.DEPT (DEPTNO, DEPTNAME) VALUES (:D, 'NEW')",
    )
    try:
        assert u.execute(1, {"D": "A00"}).sqlca.sqlcode == 0
        shared = u.statements
        assert shared is not None
        assert u.execute(2, {"D": "A00"}).sqlca.sqlcode == -803  # a failed statement keeps it usable
        assert u.execute(2, {"D": "E31"}).sqlca.sqlcode == 0
        assert u.execute(1, {"D": "E31"}).sets == {"N": "NEW"}  # (VARCHAR)
        assert u.statements is shared
    finally:
        u.end(False)
