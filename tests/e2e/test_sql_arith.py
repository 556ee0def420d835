"""DB2 batch code with DECIMAL arithmetic and labelled durations in its SQL, through the real stdio server,
on SQLite (DECIMAL stored scaled, computed exactly) and on a real PostgreSQL: EMPADJ multiplies a
department's salaries by a factor in one searched UPDATE (DB2 truncates to the column's scale), prints
SUM and AVG, lists who earns more than a floor a month (SALARY / 12 compared, CHAR(SALARY), HIREDATE
+ 1 MONTH) and the date 30 days on. Every figure is DB2's, worked out by hand below."""

from __future__ import annotations

import datetime
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from cobol_mcp.db.url import Database

from ..db.postgres import postgres_url
from .database_folder import serve_with_database
from .stdio_client import StdioClient

__all__ = ["postgres_url"]  # the fixture, used by name

PROGRAMS = Path(__file__).parents[1] / "sql_programs"
MORE = """INSERT INTO PAYROLL.EMPLOYEE (LASTNAME, FIRSTNAME, WORKDEPT, SALARY, HIREDATE)
       VALUES ('KWAN', 'SALLY', 'A00', 38250.00, '2005-04-05');
INSERT INTO PAYROLL.EMPLOYEE (LASTNAME, FIRSTNAME, WORKDEPT, SALARY, HIREDATE)
       VALUES ('LUCCHESI', 'VINCENZO', 'A00', NULL, '2010-05-16');
INSERT INTO PAYROLL.EMPLOYEE (LASTNAME, FIRSTNAME, WORKDEPT, SALARY, HIREDATE)
       VALUES ('PULASKI', 'EVA', 'A00', 36170.00, '2012-12-31');
"""


@pytest.fixture(params=["sqlite", "postgresql"])
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[StdioClient, Database]]:
    folder = tmp_path / "batch"
    folder.mkdir()
    for name in ("EMPADJ.cbl", "DCLEMPL.cpy"):
        shutil.copy(PROGRAMS / name, folder)
    more = tmp_path / "more.sql"
    more.write_text(MORE)
    with serve_with_database(request, folder, tmp_path / "cache", ddl=(more,)) as found:
        yield found


def test_a_cost_of_living_run_computes_what_db2_computes(served: tuple[StdioClient, Database]) -> None:
    client, _ = served
    before = datetime.date.today()
    result = client.call("empadj", input="A00 10333 0320000")
    assert not result.get("isError"), result
    out = result["structuredContent"]
    report = out["stdout"].splitlines()
    assert out["return_code"] == 0, report
    assert report[0] == "EMPADJ COST-OF-LIVING ADJUSTMENT, DEPARTMENT A00"
    assert report[1].split() == ["ADJUSTED", "3"]  # LUCCHESI's NULL salary is left alone
    # 52750.00 * 1.0333 = 54506.575000 -> 54506.57; 38250.00 -> 39523.725 -> 39523.72; 36170.00 -> 37374.461
    # -> 37374.46 (truncated, as DB2 assigns). SUM 131404.75; AVG over the three 43801.58333… -> 43801.5833
    assert report[2].split() == ["TOTAL", "131404.75", "AVERAGE", "43801.5833", "HEADS", "4"]
    # SALARY / 12 (DB2: scale 8, cut to PIC S9(7)V99): 4542.21, 3293.64; PULASKI's 3114.53 is under the floor
    assert [line.split() for line in report[3:5]] == [
        ["1000", "HAAS", "54506.57", "4542.21", "1995-02-01"],
        ["1002", "KWAN", "39523.72", "3293.64", "2005-05-05"],
    ]
    after = datetime.date.today()
    assert report[5] in {f"NEXT RUN {(day + datetime.timedelta(days=30)).isoformat()}" for day in (before, after)}
    assert len(report) == 6
    again = client.call("empadj", input="A00 10000 0000000")["structuredContent"]["stdout"].splitlines()
    assert again[2].split()[1] == "131404.75"  # committed, and a factor of 1 changes nothing
    assert again[5].split() == ["1004", "PULASKI", "37374.46", "3114.53", "2013-01-31"]  # Dec 31 + 1 MONTH
