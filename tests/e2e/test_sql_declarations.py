"""What a DB2 program declares but no call reaches does not keep it from being served: DEPTSUM's
``INCLUDE SQLDA`` (used by no statement) and its WORKING-STORAGE table counted by a qualified ``DEPENDING
ON WS-USED IN WS-LIST-CTL``, on SQLite and a real PostgreSQL."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from ..db.postgres import postgres_url
from .database_folder import serve_with_database, structured
from .stdio_client import StdioClient

__all__ = ["postgres_url"]  # the fixture, used by name

PROGRAMS = Path(__file__).parents[1] / "sql_programs"


@pytest.fixture(params=["sqlite", "postgresql"])
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[StdioClient]:
    folder = tmp_path / "batch"
    folder.mkdir()
    shutil.copy(PROGRAMS / "DEPTSUM.cbl", folder)
    with serve_with_database(request, folder, tmp_path / "cache") as (served, _):
        yield served


def test_a_program_with_an_unused_sqlda_and_a_qualified_counter_is_served(client: StdioClient) -> None:
    # payroll.sql: HAAS (EMPNO 1000, the identity's first) is A00's one employee, at 52750.00
    a00 = structured(client.call("deptsum", ls_dept="A00"))
    assert a00 == {"ls_heads": 1, "ls_bill": 52750, "ls_first": [1000, 0, 0, 0, 0], "ls_listed": 1, "ls_sqlcode": 0}
    none = structured(client.call("deptsum", ls_dept="ZZZ"))
    assert none == {"ls_heads": 0, "ls_bill": 0, "ls_first": [0, 0, 0, 0, 0], "ls_listed": 0, "ls_sqlcode": 0}
