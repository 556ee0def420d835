"""The statement tables of our DB2 programs (tests/sql_programs) prepared and run as the programs run
them, on SQLite and PostgreSQL: what the wiring will drive from the programs' CALLs."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

from cobol_mcp.cobol.precompile.scan import scan_text
from cobol_mcp.db.catalog import read_catalog
from cobol_mcp.db.prepare import prepare_plan
from cobol_mcp.db.unit import Unit, connect
from cobol_mcp.db.url import Database

from .test_unit import db

__all__ = ["db"]  # the fixture, used by name

PROGRAMS = Path(__file__).parents[1] / "sql_programs"


def _unit(name: str, database: Database) -> Unit:
    scan = scan_text(PROGRAMS / f"{name}.cbl", "fixed")
    assert scan.problems == []
    conn = connect(database)
    return Unit(prepare_plan(scan.statements, database.kind, read_catalog(conn, database.kind)), conn)  # type: ignore[arg-type]


def _add(unit: Unit, last: str, first: str, salary: str) -> int:
    """EMPMAINT's 2000-ADD: INSERT (4), then SET :WS-NEW-EMPNO = IDENTITY_VAL_LOCAL() (5)."""
    values = {"LASTNAME": last.ljust(15), "FIRSTNAME": first, "WORKDEPT": "A00", "SALARY": Decimal(salary),
              "HIREDATE": "2024-04-01"}  # fmt: skip
    assert unit.execute(4, values).sqlca.sqlcode == 0
    out = unit.execute(5, {})
    assert out.sqlca.sqlcode == 0
    number = out.sets["WS-NEW-EMPNO"]
    assert isinstance(number, int)
    return number


def test_empmaint_adds_and_inquires_and_a_failed_call_leaves_no_trace(db: Database) -> None:
    unit = _unit("EMPMAINT", db)
    number = _add(unit, "LOPEZ", "ANA MARIA", "39175.25")
    out = unit.execute(3, {"EMPNO": number})  # 1000-INQUIRE's SELECT INTO by key
    assert out.sqlca.sqlcode == 0
    assert out.sets == {"LASTNAME": "LOPEZ          ", "FIRSTNAME": "ANA MARIA", "WORKDEPT": "A00",
                        "IEMP-WORKDEPT": 0, "SALARY": Decimal("39175.25"), "IEMP-SALARY": 0}  # fmt: skip
    dup = unit.execute(4, {"LASTNAME": "X", "FIRSTNAME": "Y", "WORKDEPT": "ZZZ", "SALARY": Decimal(1),
                           "HIREDATE": "2024-04-01"})  # fmt: skip
    assert dup.sqlca.sqlcode == -530  # WHEN -530: no such department
    assert unit.execute(3, {"EMPNO": 4711}).sqlca.sqlcode == 100
    unit.end(False)  # the call failed: nothing it did stays
    again = _unit("EMPMAINT", db)
    assert again.execute(3, {"EMPNO": number}).sqlca.sqlcode == 100
    again.end(True)


def test_emprpt_raises_a_department_committing_every_two_rows_through_a_held_cursor(db: Database) -> None:
    setup = _unit("EMPMAINT", db)
    for last, first, salary in (("BROWN", "DAVID", "41000.00"), ("JONES", "WILLIAM", "38000.50"),
                                ("NOSAL", "NED", "0")):  # fmt: skip
        _add(setup, last, first, salary)
    setup.end(True)
    unit = _unit("EMPRPT", db)
    pct = Decimal("5.00")
    assert unit.execute(7, {"WS-DEPT": "A00"}).sqlca.sqlcode == 0  # OPEN EMPCSR
    raised, names, since_commit = 0, [], 0
    while True:
        fetched = unit.execute(8, {})  # FETCH EMPCSR INTO the DCLGEN fields
        if fetched.sqlca.sqlcode == 100:
            break
        assert fetched.sqlca.sqlcode == 0
        names.append(str(fetched.sets["DCLEMPLOYEE.LASTNAME"]).rstrip())  # as written
        salary = fetched.sets["SALARY"]
        assert isinstance(salary, Decimal)
        new = (salary + salary * pct / 100).quantize(Decimal("0.01"), ROUND_HALF_UP)
        assert unit.execute(9, {"WS-NEW-SALARY": new}).sqlca.sqlcode == 0  # UPDATE … WHERE CURRENT OF
        raised, since_commit = raised + 1, since_commit + 1
        if since_commit >= 2:
            assert unit.execute(10, {}).sqlca.sqlcode == 0  # COMMIT: the cursor is WITH HOLD
            since_commit = 0
    assert names == ["HAAS", "BROWN", "JONES", "NOSAL"] and raised == 4
    assert unit.execute(11, {}).sqlca.sqlcode == 0  # CLOSE
    total = unit.execute(13, {"WS-DEPT": "A00"})  # SELECT VALUE(SUM(SALARY), 0) INTO :LS-NEW-TOTAL
    assert total.sets == {"LS-NEW-TOTAL": Decimal("55387.50") + Decimal("43050.00") + Decimal("39900.53")}
    unit.end(True)
