"""A DB2 batch step with an INSENSITIVE SCROLL cursor, through the real stdio server, on SQLite and on a
real PostgreSQL: EMPRANK ranks the paid employees by salary with FETCH FIRST/NEXT (top two), LAST/PRIOR
(bottom two), ABSOLUTE :n (the median) and RELATIVE :n past the end (+100), then PRIOR from after the
last row (the last row again), branching on SQLCODE as DB2 code does."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from cobol_mcp.db.url import Database

from ..db.postgres import postgres_url
from .database_folder import serve_with_database
from .stdio_client import StdioClient
from .test_sql_arith import MORE

__all__ = ["postgres_url"]  # the fixture, used by name

PROGRAMS = Path(__file__).parents[1] / "sql_programs"


@pytest.fixture(params=["sqlite", "postgresql"])
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[StdioClient, Database]]:
    folder = tmp_path / "batch"
    folder.mkdir()
    for name in ("EMPRANK.cbl", "DCLEMPL.cpy"):
        shutil.copy(PROGRAMS / name, folder)
    more = tmp_path / "more.sql"
    more.write_text(MORE)
    with serve_with_database(request, folder, tmp_path / "cache", ddl=(more,)) as found:
        yield found


def test_a_ranking_scrolls_both_ways_with_db2s_sqlcodes(served: tuple[StdioClient, Database]) -> None:
    client, _ = served
    result = client.call("emprank")  # no ACCEPT: a tool without input
    assert not result.get("isError"), result
    out = result["structuredContent"]
    report = [line.split() for line in out["stdout"].splitlines()]
    assert out["return_code"] == 0, report
    # Paid, by salary descending: HAAS 52750.00, KWAN 38250.00, PULASKI 36170.00, O'CONNELL 0.30
    assert report == [
        ["TOP", "1", "1000", "HAAS", "52750.00"],
        ["TOP", "2", "1002", "KWAN", "38250.00"],
        ["BOTTOM", "1", "1001", "O'CONNELL", "0.30"],
        ["BOTTOM", "2", "1004", "PULASKI", "36170.00"],
        ["MEDIAN", "1002", "KWAN", "38250.00"],  # ABSOLUTE (4 + 1) / 2 = 2
        ["STEP", "DOWN", "NO", "ROW", "(+100),", "STEP", "10"],  # 10 rows past the second: after the last
        ["BACK", "UP", "1001", "O'CONNELL", "0.30"],  # PRIOR from after the last row: the last row
    ]
