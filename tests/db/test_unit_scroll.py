"""Scrollable cursors on SQLite and on a real PostgreSQL: DECLARE … INSENSITIVE SCROLL CURSOR and FETCH
NEXT, PRIOR, FIRST, LAST, CURRENT, ABSOLUTE n and RELATIVE :n, with DB2's SQLCODEs at the edges (+100
past either end, +231 CURRENT off a row, -225 a scrolling FETCH on a cursor not declared SCROLL), the
result table as it was at OPEN, and a scrollable cursor refused where it is used FOR UPDATE."""

from __future__ import annotations

import pytest

from cobol_mcp.db.catalog import Untranslatable

from .test_unit import Open, code, db, units

__all__ = ["db", "units"]  # the fixtures, used by name

INTO = "FROM C1 INTO :NO, :LN"


def test_a_scroll_cursor_moves_as_db2_moves_it(units: Open) -> None:
    u = units(
        "INSERT INTO PAYROLL.EMPLOYEE (LASTNAME, FIRSTNAME, WORKDEPT, SALARY, HIREDATE) "
        "VALUES (:LN, 'X', 'A00', 1.00, '2020-01-01')",
        "DECLARE C1 INSENSITIVE SCROLL CURSOR FOR SELECT EMPNO, LASTNAME FROM PAYROLL.EMPLOYEE ORDER BY EMPNO",
        "OPEN C1",
        f"FETCH FIRST {INTO}",
        f"FETCH NEXT {INTO}",
        f"FETCH PRIOR {INTO}",
        f"FETCH LAST {INTO}",
        f"FETCH ABSOLUTE 3 {INTO}",
        f"FETCH ABSOLUTE -2 {INTO}",
        f"FETCH RELATIVE :N {INTO}",
        f"FETCH CURRENT {INTO}",
        f"FETCH ABSOLUTE 0 {INTO}",
        "FETCH C1 INTO :NO, :LN",
        "DELETE FROM PAYROLL.EMPLOYEE WHERE LASTNAME = :LN",
        "CLOSE C1",
    )
    for name in ("ZED1", "ZED2", "ZED3"):
        assert code(u, 1, LN=name)[0] == 0
    assert code(u, 3)[0] == 0
    assert code(u, 4)[1]["LN"].strip() == "HAAS"

    def at(number: int, **values: object) -> tuple[int, str | None]:
        sqlcode, sets = code(u, number, **values)
        return sqlcode, str(sets["LN"]).strip() if sets else None

    assert code(u, 14, LN="ZED3")[0] == 0  # deleted after OPEN: an INSENSITIVE cursor still has it
    assert at(6) == (100, None)  # PRIOR from the first row: before it
    assert at(6) == (100, None)
    assert at(13) == (0, "HAAS")  # NEXT from before the first row
    assert at(5) == (0, "O'CONNELL")
    assert at(6) == (0, "HAAS")
    assert at(7) == (0, "ZED3")
    assert at(5) == (100, None)  # NEXT from the last row: after it
    assert at(11) == (231, None)  # CURRENT when not on a row
    assert at(6) == (0, "ZED3")  # PRIOR from after the last row: the last row
    assert at(8) == (0, "ZED1")
    assert at(10, N=-1) == (0, "O'CONNELL")
    assert at(10, N=10) == (100, None)
    assert at(10, N=-2) == (0, "ZED2")  # from after the last row (5), two back
    assert at(11) == (0, "ZED2")
    assert at(9) == (0, "ZED2")
    assert at(10, N=0) == (0, "ZED2")  # RELATIVE 0: the current row again
    assert at(12) == (100, None)  # ABSOLUTE 0: before the first row
    assert at(13) == (0, "HAAS")
    assert code(u, 15)[0] == 0
    assert code(u, 4)[0] == -501  # closed


def test_scrolling_a_cursor_not_declared_scroll_is_225(units: Open) -> None:
    u = units(
        "DECLARE C2 CURSOR FOR SELECT EMPNO FROM PAYROLL.EMPLOYEE ORDER BY EMPNO",
        "OPEN C2",
        "FETCH PRIOR FROM C2 INTO :NO",
        "FETCH C2 INTO :NO",
    )
    assert code(u, 2)[0] == 0
    assert code(u, 3)[0] == -225
    assert code(u, 4) == (0, {"NO": 1000})


def test_a_scroll_cursor_for_update_is_refused_at_prepare(units: Open) -> None:
    with pytest.raises(Untranslatable, match="read-only"):
        units("DECLARE C3 INSENSITIVE SCROLL CURSOR FOR SELECT EMPNO FROM PAYROLL.EMPLOYEE FOR UPDATE OF SALARY")
    with pytest.raises(Untranslatable, match="SENSITIVE"):
        units("DECLARE C4 SENSITIVE STATIC SCROLL CURSOR FOR SELECT EMPNO FROM PAYROLL.EMPLOYEE")
