"""DB2's ordinary names hold ``_``, ``#``, ``@`` and ``$``: ORDSHIP (tests/sql_programs/names) walks
``SHOP.ORD#HIST`` through ``ORDER_CURSOR`` and updates ``STATUS@`` WHERE CURRENT OF it, through the real
stdio server and the C worker, on SQLite and PostgreSQL, after ``db apply`` of ``orders.sql`` (a table,
index and columns named so, its rows inserted by name)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import pytest

from cobol_mcp.cobol.precompile.scan import scan_text
from cobol_mcp.db.connection import connect
from cobol_mcp.db.url import Database

from ..db.postgres import postgres_url
from .database_folder import serve_with_database
from .stdio_client import StdioClient

__all__ = ["postgres_url"]  # the fixture, used by name

PROGRAMS = Path(__file__).parents[1] / "sql_programs" / "names"
ORDERS = Path(__file__).parents[1] / "db" / "orders.sql"


def test_a_cursor_named_with_an_underscore_is_the_cursor_declared() -> None:
    scan = scan_text(PROGRAMS / "ORDSHIP.cbl", "fixed")
    assert scan.problems == []
    named = {(s.kind, s.name) for s in scan.statements if s.name}
    assert ("UPDATE WHERE CURRENT OF", "ORDER_CURSOR") in named
    assert ("FETCH", "ORDER_CURSOR") in named


@pytest.fixture(params=["sqlite", "postgresql"])
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[StdioClient, Database]]:
    folder = tmp_path / "orders"
    folder.mkdir()
    shutil.copy(PROGRAMS / "ORDSHIP.cbl", folder)
    with serve_with_database(request, folder, tmp_path / "cache", ddl=(ORDERS,)) as (client, db):
        yield client, db


def _statuses(db: Database) -> list[tuple[int, str]]:
    conn = connect(db)
    try:
        if db.kind == "sqlite":
            rows = conn.execute('SELECT "ORD#", "STATUS@" FROM "SHOP.ORD#HIST" ORDER BY 1').fetchall()
        else:
            rows = conn.execute('SELECT "ord#", "status@" FROM shop."ord#hist" ORDER BY 1').fetchall()
        return [(int(r[0]), str(r[1])) for r in rows]
    finally:
        conn.close()


def test_ordship_ships_the_open_orders_through_order_cursor(served: tuple[StdioClient, Database]) -> None:
    client, db = served
    result = client.call("ordship", ls_cust_no_in="C00042")
    assert not result.get("isError"), result
    out = result["structuredContent"]
    # orders.sql: C00042 has 5001 open (120.50), 5002 shipped, 5003 open by default (19.99)
    assert out["ls_sqlcode"] == 0
    assert out["ls_shipped"] == 2
    assert Decimal(str(out["ls_shipped_amt"])) == Decimal("140.49")
    assert _statuses(db) == [(5001, "S"), (5002, "S"), (5003, "S"), (5004, "O")]
