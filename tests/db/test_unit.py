"""The runtime's unit of work on SQLite and on a real PostgreSQL: DB2's SQLCODEs, cursors, commits."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from cobol_mcp.cobol.precompile.scan import scan_lines
from cobol_mcp.db.apply import apply_files
from cobol_mcp.db.catalog import Untranslatable, read_catalog
from cobol_mcp.db.prepare import prepare_plan
from cobol_mcp.db.unit import Unit, connect
from cobol_mcp.db.url import Database

PAYROLL = Path(__file__).parent / "payroll.sql"
Open = Callable[..., Unit]


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Database:
    if request.param == "sqlite":
        database = Database("sqlite", str(tmp_path / "pay.db"))
    else:
        database = Database("postgresql", request.getfixturevalue("postgres_url"))
    apply_files([PAYROLL], database, note=lambda line: None)
    return database


@pytest.fixture
def units(db: Database) -> Iterator[Open]:
    """Opens a unit over statements written as EXEC SQL blocks (numbered 1, 2, … in order)."""
    opened: list[Unit] = []

    def open_unit(*sql: str, **options: Any) -> Unit:
        lines = [(n, f"EXEC SQL {text} END-EXEC") for n, text in enumerate(sql, 1)]
        scan = scan_lines(Path("T.cbl"), lines)
        assert scan.problems == []
        conn = connect(db, **options)
        plan = prepare_plan(scan.statements, db.kind, read_catalog(conn, db.kind))  # type: ignore[arg-type]
        unit = Unit(plan, conn)
        opened.append(unit)
        return unit

    yield open_unit
    for unit in opened:
        with contextlib.suppress(Exception):  # already ended by the test
            unit.end(False)


def code(unit: Unit, number: int, **values: object) -> tuple[int, dict[str, object]]:
    out = unit.execute(number, {k.replace("_", "-"): v for k, v in values.items()})
    return out.sqlca.sqlcode, out.sets


def test_select_into_by_key_none_and_more_than_one(units: Open) -> None:
    u = units(
        "SELECT LASTNAME, SALARY, HIREDATE, FIRSTNAME INTO :LN, :SAL, :HD, :FN FROM PAYROLL.EMPLOYEE WHERE EMPNO = :K",
        "SELECT LASTNAME INTO :LN FROM PAYROLL.EMPLOYEE",
        "SELECT LASTNAME INTO :LN FROM PAYROLL.EMPLOYEE WHERE WORKDEPT = :D",
    )
    sqlcode, sets = code(u, 1, K=1000)
    assert sqlcode == 0
    assert sets == {"LN": "HAAS" + " " * 11, "SAL": Decimal("52750.00"), "HD": "1995-01-01", "FN": "CHRISTINE"}
    assert code(u, 1, K=999) == (100, {})
    assert code(u, 2)[0] == -811
    assert code(u, 3, D="D11")[1] == {"LN": "O'CONNELL      "}
    assert code(u, 3, D="D11 ")[0] == 0  # CHAR compared without trailing blanks, as DB2 does


def test_decimals_are_exact_both_ways_and_null_needs_an_indicator(units: Open) -> None:
    u = units(
        "UPDATE PAYROLL.EMPLOYEE SET SALARY = :S:IND WHERE EMPNO = :K",
        "SELECT SALARY INTO :S:IND FROM PAYROLL.EMPLOYEE WHERE EMPNO = :K",
        "SELECT SALARY INTO :S FROM PAYROLL.EMPLOYEE WHERE EMPNO = :K",
        "SELECT SUM(SALARY) INTO :S FROM PAYROLL.EMPLOYEE",
    )
    assert code(u, 1, S=Decimal("1234567.89"), IND=0, K=1000)[0] == 0
    assert code(u, 2, K=1000)[1] == {"S": Decimal("1234567.89"), "IND": 0}
    assert code(u, 1, S=Decimal("0.10"), IND=0, K=1000)[0] == 0
    assert code(u, 4)[1] == {"S": Decimal("0.40")}  # 0.10 + 0.30, never 0.4000000001
    assert code(u, 1, S=Decimal(0), IND=-1, K=1001) == (0, {})  # NULL through the indicator
    assert code(u, 2, K=1001)[1] == {"IND": -1}
    assert code(u, 3, K=1001)[0] == -305
    assert code(u, 1, S=Decimal(1), IND=0, K=4711)[0] == 100  # no such row: +100 as DB2 says


def test_insert_with_default_identity_and_constraint_codes(units: Open) -> None:
    u = units(
        "INSERT INTO PAYROLL.EMPLOYEE (LASTNAME, FIRSTNAME, WORKDEPT, SALARY, HIREDATE)"
        " VALUES (:LN, DEFAULT, :D, :S, CURRENT DATE)",
        "VALUES IDENTITY_VAL_LOCAL() INTO :ID",
        "SELECT FIRSTNAME, WORKDEPT, HIREDATE INTO :FN, :D, :HD FROM PAYROLL.EMPLOYEE WHERE EMPNO = :ID",
        "INSERT INTO PAYROLL.DEPT (DEPTNO, DEPTNAME) SELECT 'X' || SUBSTR(DEPTNO, 2, 2), DEPTNAME"
        " FROM PAYROLL.DEPT WHERE DEPTNO = :D",
        "INSERT INTO PAYROLL.DEPT (DEPTNO, DEPTNAME) VALUES (:D, 'DUP')",
        "DELETE FROM PAYROLL.DEPT WHERE DEPTNO = :D",
        "SET :TS = CURRENT TIMESTAMP",
    )
    out = u.execute(1, {"LN": "KWAN", "D": "A00", "S": Decimal("41250.5")})
    assert (out.sqlca.sqlcode, out.sqlca.sqlerrd3) == (0, 1)
    sqlcode, sets = code(u, 2)
    assert sqlcode == 0 and isinstance(sets["ID"], int) and sets["ID"] > 1001  # CACHE 20 may leave gaps, as on DB2
    fn_dept_date = code(u, 3, ID=sets["ID"])[1]
    assert fn_dept_date["FN"] == "" and fn_dept_date["D"] == "A00" and len(str(fn_dept_date["HD"])) == 10
    assert code(u, 4, D="D11")[0] == 0 and code(u, 4, D="ZZZ")[0] == 100  # INSERT … SELECT of no row
    assert code(u, 5, D="A00")[0] == -803
    assert code(u, 1, LN="X", D="QQQ", S=Decimal(1))[0] == -530
    assert code(u, 6, D="A00")[0] == -532
    timestamp = str(code(u, 7)[1]["TS"])
    assert len(timestamp) == 26 and timestamp[10] == "-" and timestamp[13] == "."  # DB2's ISO form


def test_cursor_fetch_update_where_current_of_and_its_sqlcodes(units: Open) -> None:
    u = units(
        "DECLARE C1 CURSOR FOR SELECT EMPNO, SALARY FROM PAYROLL.EMPLOYEE WHERE SALARY >= :MIN"
        " ORDER BY EMPNO FOR UPDATE OF SALARY",
        "OPEN C1",
        "FETCH C1 INTO :NO, :SAL",
        "UPDATE PAYROLL.EMPLOYEE SET SALARY = :SAL WHERE CURRENT OF C1",
        "CLOSE C1",
        "SELECT SALARY INTO :SAL FROM PAYROLL.EMPLOYEE WHERE EMPNO = :NO",
    )
    assert code(u, 3)[0] == -501 and code(u, 5)[0] == -501 and code(u, 4, SAL=Decimal(1))[0] == -507
    assert code(u, 2, MIN=Decimal(0))[0] == 0
    assert code(u, 2, MIN=Decimal(0))[0] == -502
    assert code(u, 4, SAL=Decimal(1))[0] == -508  # open, not yet on a row
    seen = []
    while True:
        sqlcode, sets = code(u, 3)
        if sqlcode == 100:
            break
        assert sqlcode == 0
        seen.append(sets["NO"])
        assert code(u, 4, SAL=Decimal(sets["SAL"]) + Decimal("0.01"))[0] == 0  # type: ignore[arg-type]
    assert seen == [1000, 1001]
    assert code(u, 3)[0] == 100  # past the end stays +100
    assert code(u, 5)[0] == 0
    assert code(u, 6, NO=1001)[1] == {"SAL": Decimal("0.31")}


def test_commit_keeps_hold_cursors_and_rollback_undoes_the_unit(units: Open) -> None:
    u = units(
        "DECLARE H CURSOR WITH HOLD FOR SELECT DEPTNO FROM PAYROLL.DEPT ORDER BY DEPTNO",
        "DECLARE N CURSOR FOR SELECT DEPTNO FROM PAYROLL.DEPT ORDER BY DEPTNO",
        "OPEN H",
        "OPEN N",
        "COMMIT",
        "FETCH H INTO :D",
        "FETCH N INTO :D",
        "DELETE FROM PAYROLL.EMPADDR",
        "ROLLBACK",
        "SELECT COUNT(*) INTO :C FROM PAYROLL.EMPADDR",
    )
    for n in (3, 4, 5):
        assert code(u, n)[0] == 0
    assert code(u, 6) == (0, {"D": "A00"})
    assert code(u, 7)[0] == -501  # closed by COMMIT: it was not WITH HOLD
    out = u.execute(8, {})
    assert (out.sqlca.sqlcode, out.sqlca.sqlerrd3) == (0, 1)
    assert code(u, 9)[0] == 0 and code(u, 6)[0] == -501  # ROLLBACK closes every cursor
    assert code(u, 10)[1] == {"C": 1}


def test_dynamic_sql_and_cursors_over_prepared_statements(units: Open) -> None:
    u = units(
        "EXECUTE IMMEDIATE 'UPDATE PAYROLL.DEPT SET DEPTNAME = ''X'' WHERE DEPTNO = ''A00'''",
        "PREPARE S1 FROM :TXT",
        "EXECUTE S1 USING :D",
        "DECLARE C2 CURSOR FOR S2",
        "PREPARE S2 FROM :TXT",
        "OPEN C2 USING :D",
        "FETCH C2 INTO :NAME",
        "EXECUTE IMMEDIATE :TXT",
    )
    assert code(u, 1)[0] == 0
    assert code(u, 2, TXT="DELETE FROM PAYROLL.EMPADDR WHERE EMPNO = ?")[0] == 0
    assert code(u, 3, D=1001)[0] == 0 and code(u, 3, D=1001)[0] == 100
    assert code(u, 6, D="A00")[0] == -514  # not prepared yet
    assert code(u, 5, TXT="SELECT DEPTNAME FROM PAYROLL.DEPT WHERE DEPTNO = ?")[0] == 0
    assert code(u, 6, D="A00")[0] == 0
    assert code(u, 7) == (0, {"NAME": "X"})
    assert code(u, 8, TXT="UPDATE PAYROLL.NOSUCH SET A = 1")[0] == -204


def test_two_units_never_see_each_others_uncommitted_rows(units: Open, db: Database) -> None:
    sql = ("INSERT INTO PAYROLL.DEPT (DEPTNO, DEPTNAME) VALUES (:D, 'NEW')",
           "SELECT COUNT(*) INTO :C FROM PAYROLL.DEPT")  # fmt: skip
    writer, reader = units(*sql), units(*sql)
    assert code(writer, 1, D="E21")[0] == 0
    assert code(writer, 2)[1] == {"C": 3}
    assert code(reader, 2)[1] == {"C": 2}
    writer.end(True)
    reader.rollback()  # a new unit of work sees what was committed
    assert code(reader, 2)[1] == {"C": 3}


def test_a_busy_sqlite_database_is_913_after_the_wait(tmp_path: Path, units: Open, db: Database) -> None:
    if db.kind != "sqlite":
        pytest.skip("SQLite's single writer")
    sql = ("INSERT INTO PAYROLL.DEPT (DEPTNO, DEPTNAME) VALUES (:D, 'NEW')",)
    first, second = units(*sql), units(*sql, busy_timeout_ms=1)
    assert code(first, 1, D="E21")[0] == 0
    assert code(second, 1, D="E22")[0] == -913  # the first writer holds the database
    first.end(True)
    assert code(second, 1, D="E22")[0] == 0  # the unit goes on once the writer is done


def test_a_failed_statement_undoes_itself_alone_and_the_unit_goes_on(units: Open, db: Database) -> None:
    u = units(
        "DECLARE C CURSOR FOR SELECT DEPTNO FROM PAYROLL.DEPT ORDER BY DEPTNO",
        "OPEN C",
        "INSERT INTO PAYROLL.DEPT (DEPTNO, DEPTNAME) VALUES (:D, 'NEW')",
        "SELECT COUNT(*) INTO :C FROM PAYROLL.DEPT",
        "FETCH C INTO :D",
        "SELECT DEPTNO INTO :D FROM PAYROLL.DEPT WHERE OPENED = :WHEN",
    )
    assert code(u, 2)[0] == 0 and code(u, 3, D="E21")[0] == 0
    assert code(u, 3, D="E21")[0] == -803
    assert code(u, 4)[1] == {"C": 3}  # the first INSERT stands
    assert code(u, 5) == (0, {"D": "A00"})  # the cursor is still open
    # a failing read: PostgreSQL refuses the date (-181, out of range) and aborts its transaction; SQLite finds no row
    assert code(u, 6, WHEN="1998-13-45")[0] == (-181 if db.kind == "postgresql" else 100)
    assert code(u, 5) == (0, {"D": "D11"}) and code(u, 4)[1] == {"C": 3}
    u.end(True)
    again = units("SELECT COUNT(*) INTO :C FROM PAYROLL.DEPT")
    assert code(again, 1)[1] == {"C": 3}


def test_fetch_first_fetch_only_and_what_the_sqlca_says(units: Open) -> None:
    u = units(
        "DECLARE F CURSOR FOR SELECT DEPTNO, DEPTNAME FROM PAYROLL.DEPT ORDER BY DEPTNO DESC"
        " FETCH FIRST 1 ROW ONLY FOR FETCH ONLY",
        "OPEN F",
        "FETCH F INTO :D",
        "SELECT BUDGET INTO :B FROM PAYROLL.DEPT WHERE DEPTNO = 'A00'",
        "UPDATE PAYROLL.DEPT SET DEPTNAME = :N WHERE DEPTNO = :D",
    )
    assert code(u, 2)[0] == 0
    out = u.execute(3, {})
    assert (out.sqlca.sqlcode, out.sets) == (0, {"D": "D11"})
    assert out.sqlca.sqlwarn == "W  W       "  # SQLWARN3: more result columns than host variables
    assert code(u, 3)[0] == 100  # FETCH FIRST 1 ROW
    assert code(u, 4)[1] == {"B": Decimal("1250000.50")}  # a literal compared with a CHAR key, a DECIMAL out
    failed = u.execute(5, {"N": "X" * 40, "D": "A00"})
    assert (failed.sqlca.sqlcode, failed.sqlca.sqlstate) == (-404, "22001")  # longer than VARCHAR(36)
    assert failed.sqlca.sqlerrm and failed.sqlca.sqlerrd3 == 0
    assert u.execute(5, {"N": "SALES", "D": "A00"}).sqlca.sqlerrd3 == 1


def test_a_fetch_before_is_refused_when_prepared_not_run_as_next(db: Database) -> None:
    lines = [(1, "EXEC SQL DECLARE S INSENSITIVE SCROLL CURSOR FOR SELECT DEPTNO FROM PAYROLL.DEPT END-EXEC"),
             (2, "EXEC SQL FETCH BEFORE FROM S INTO :D END-EXEC")]  # fmt: skip
    scan = scan_lines(Path("T.cbl"), lines)
    with pytest.raises(Untranslatable, match="FETCH BEFORE"):
        prepare_plan(scan.statements, db.kind, {})  # type: ignore[arg-type]


def test_whole_numbers_lists_ranges_and_blank_padded_strings_meet_their_columns_as_on_db2(units: Open) -> None:
    """A whole-number host variable (PIC 9(9): an int) meets a DECIMAL column as its value, not its digits;
    so do the items of IN (…) and BETWEEN … AND …; a string longer than a CHAR column by blanks is cut."""
    u = units(
        "UPDATE PAYROLL.EMPLOYEE SET SALARY = :S WHERE EMPNO = :K",
        "SELECT SALARY INTO :S FROM PAYROLL.EMPLOYEE WHERE EMPNO = :K",
        "SELECT COUNT(*) INTO :N FROM PAYROLL.EMPLOYEE WHERE SALARY IN (:A, :B, 4711)",
        "SELECT COUNT(*) INTO :N FROM PAYROLL.EMPLOYEE WHERE SALARY NOT BETWEEN :A AND :B",
        "SELECT COUNT(*) INTO :N FROM PAYROLL.EMPLOYEE WHERE SALARY BETWEEN :A AND :B",
        "INSERT INTO PAYROLL.EMPLOYEE (LASTNAME, WORKDEPT, HIREDATE) VALUES (:L, 'A00', '2024-04-01')",
        "SELECT COUNT(*) INTO :N FROM PAYROLL.EMPLOYEE WHERE LASTNAME = :L",
    )
    assert code(u, 1, S=4711, K=1000)[0] == 0
    assert code(u, 2, K=1000)[1] == {"S": Decimal("4711.00")}
    assert code(u, 3, A=Decimal("4711.00"), B=1)[1] == {"N": 1}
    assert code(u, 5, A=4711, B=Decimal("4711.5"))[1] == {"N": 1}
    total = code(u, 4, A=0, B=0)[1]["N"]
    assert code(u, 4, A=4711, B=4711)[1] == {"N": total - 1}
    assert code(u, 6, L="PADDED" + " " * 14)[0] == 0  # 20 characters for CHAR(15): the blanks are cut
    assert code(u, 7, L="PADDED" + " " * 14)[1] == {"N": 1}
    assert code(u, 6, L="PADDED" + " " * 10 + "X")[0] == -404  # not blanks: too long, as DB2 says
