"""DECIMAL arithmetic and labelled durations in a program's SQL, on SQLite (DECIMAL stored as a scaled
integer, computed exactly by the runtime's functions) and on a real PostgreSQL, with DB2's results:
truncation on assignment, DB2's division scale, AVG and SUM exact, DECIMAL() and CHAR() of a DECIMAL,
-802 and -406, a month added to the 31st landing on the month's last day."""

from __future__ import annotations

import datetime
from decimal import ROUND_DOWN, Decimal

from .test_unit import Open, code, db, units

__all__ = ["db", "units"]  # the fixtures, used by name

SALARY = "SELECT SALARY INTO :S FROM PAYROLL.EMPLOYEE WHERE EMPNO = :K"


def test_update_with_decimal_arithmetic_truncates_as_db2_assigns(units: Open) -> None:
    u = units(
        "UPDATE PAYROLL.EMPLOYEE SET SALARY = SALARY * 1.0333 WHERE EMPNO = :K",
        "UPDATE PAYROLL.EMPLOYEE SET SALARY = SALARY + :RAISE WHERE EMPNO = :K",
        "UPDATE PAYROLL.EMPLOYEE SET SALARY = (SALARY - :CUT) * 2 WHERE SALARY * 2 < :LIMIT",
        SALARY,
    )
    assert code(u, 1, K=1000)[0] == 0
    assert code(u, 4, K=1000)[1] == {"S": Decimal("54506.57")}  # 54506.575000: truncated, not rounded
    assert code(u, 2, K=1000, RAISE=Decimal("100.255"))[0] == 0
    assert code(u, 4, K=1000)[1] == {"S": Decimal("54606.82")}  # 54606.825
    assert code(u, 3, CUT=Decimal("0.05"), LIMIT=Decimal("0.61")) == (0, {})  # only O'CONNELL's 0.30: 0.60 < 0.61
    assert code(u, 4, K=1001)[1] == {"S": Decimal("0.50")}
    assert code(u, 3, CUT=Decimal("0"), LIMIT=Decimal("1.00"))[0] == 100  # 0.50 * 2 = 1.00 is not < 1.00
    assert code(u, 3, CUT=Decimal("0"), LIMIT=Decimal("1.01")) == (0, {})
    assert code(u, 4, K=1001)[1] == {"S": Decimal("1.00")}


def test_select_arithmetic_sum_avg_and_division_are_exact(db, units: Open) -> None:
    u = units(
        "SELECT SALARY * 1.1, SALARY / 3, SALARY / 7 INTO :A, :B, :C FROM PAYROLL.EMPLOYEE WHERE EMPNO = :K",
        "SELECT SUM(SALARY * 1.1), AVG(SALARY), COUNT(*) INTO :S, :AV, :N FROM PAYROLL.EMPLOYEE",
        "SELECT COUNT(*) INTO :N FROM PAYROLL.EMPLOYEE WHERE SALARY * 2 > :LIM",
        "SET :Q = :X / :Y",
        "SELECT COUNT(*) INTO :N FROM PAYROLL.EMPLOYEE WHERE EMPNO = :K + 1",  # integers: SQLite's own, by key
    )
    sqlcode, sets = code(u, 1, K=1000)
    assert sqlcode == 0 and sets["A"] == Decimal("58025.000")  # scale s + s' = 3, as DB2's product
    if db.kind == "sqlite":  # DB2's quotient: DECIMAL(9,2) / 3 has scale 15 - (9 - 2 + 0) = 8
        assert (sets["B"], sets["C"]) == (Decimal("17583.33333333"), Decimal("7535.71428571"))
    assert _cut(sets["B"], 4) == Decimal("17583.3333") and _cut(sets["C"], 4) == Decimal("7535.7142")
    sqlcode, sets = code(u, 2)
    assert sqlcode == 0 and sets["S"] == Decimal("58025.330") and sets["N"] == 2
    assert Decimal(sets["AV"]) == Decimal("26375.15")  # (52750.00 + 0.30) / 2: a number, not a scaled float
    assert code(u, 3, LIM=Decimal("105499.99"))[1] == {"N": 1}
    assert code(u, 3, LIM=Decimal("105500.00"))[1] == {"N": 0}  # 52750.00 * 2 is not > 105500.00
    assert code(u, 3, LIM=Decimal("0.59"))[1] == {"N": 2}
    assert code(u, 4, X=Decimal("0.30"), Y=0)[0] == -802  # division by zero
    assert _cut(code(u, 4, X=Decimal("1.00"), Y=Decimal("3"))[1]["Q"], 10) == Decimal("0.3333333333")
    assert code(u, 5, K=999)[1] == {"N": 1}


def test_decimal_and_char_of_a_decimal_column(units: Open) -> None:
    u = units(
        "SELECT DECIMAL(SALARY, 7, 1), CHAR(SALARY), DECIMAL(SALARY * 1.1, 11, 3) INTO :D, :C, :E "
        "FROM PAYROLL.EMPLOYEE WHERE EMPNO = :K",
        "SELECT DECIMAL(SALARY, 4, 1) INTO :D FROM PAYROLL.EMPLOYEE WHERE EMPNO = :K",
    )
    sqlcode, sets = code(u, 1, K=1001)
    assert sqlcode == 0 and sets["D"] == Decimal("0.3") and sets["E"] == Decimal("0.330")
    assert str(sets["C"]).rstrip() == "0.30"
    sqlcode, sets = code(u, 1, K=1000)
    assert (sets["D"], str(sets["C"]).rstrip()) == (Decimal("52750.0"), "52750.00")
    assert code(u, 2, K=1000)[0] == -406  # 52750.0 does not fit DECIMAL(4,1)


def test_labelled_durations_on_dates_timestamps_and_host_variables(units: Open) -> None:
    u = units(
        "SET :D = :X + 1 MONTH",
        "SET :D = :X - 1 YEAR",
        "SELECT HIREDATE + 1 MONTH, UPDATED_TS + 2 HOURS, HIREDATE - 30 DAYS INTO :A, :B, :C "
        "FROM PAYROLL.EMPLOYEE WHERE EMPNO = :K",
        "SELECT COUNT(*) INTO :N FROM PAYROLL.EMPLOYEE WHERE HIREDATE < CURRENT DATE - 30 YEARS",
        "UPDATE PAYROLL.EMPLOYEE SET HIREDATE = HIREDATE + :M MONTHS WHERE EMPNO = :K",
        "SELECT HIREDATE INTO :A FROM PAYROLL.EMPLOYEE WHERE EMPNO = :K",
        "VALUES CURRENT DATE + 30 DAYS INTO :D",
    )
    assert code(u, 1, X="2024-01-31")[1] == {"D": "2024-02-29"}  # past February's end: its last day, as DB2
    assert code(u, 2, X="2024-02-29")[1] == {"D": "2023-02-28"}
    sqlcode, sets = code(u, 3, K=1001)
    assert sqlcode == 0 and sets == {"A": "2001-03-28", "B": "2001-02-28-10.30.00.000000", "C": "2001-01-29"}
    today = datetime.date.today()
    limit = today.replace(year=today.year - 30, day=min(today.day, 28))
    assert code(u, 4)[1] == {"N": sum(hired < limit.isoformat() for hired in ("1995-01-01", "2001-02-28"))}
    assert code(u, 5, M=12, K=1001)[0] == 0
    assert code(u, 6, K=1001)[1] == {"A": "2002-02-28"}
    before = datetime.date.today()
    got = code(u, 7)[1]["D"]
    assert got in {(before + datetime.timedelta(days=30)).isoformat(),
                   (datetime.date.today() + datetime.timedelta(days=30)).isoformat()}  # fmt: skip


def _cut(value: object, places: int) -> Decimal:
    return Decimal(str(value)).quantize(Decimal(1).scaleb(-places), rounding=ROUND_DOWN)
