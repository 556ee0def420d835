"""A programs folder served over stdio with its database on SQLite (the default file) or on a real
PostgreSQL (``[folder] database``), the PAYROLL DDL applied: the fixture body the SQL and CICS tests share."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from cobol_mcp.db.apply import apply_files
from cobol_mcp.db.connection import connect
from cobol_mcp.db.url import Database

from .stdio_client import StdioClient

PAYROLL = Path(__file__).parents[1] / "db" / "payroll.sql"
# The FCT entry of the customer file that CUSTVSAM and the CICS test programs beside it use.
CUSTFILE = '[[datasets]]\nname = "CUSTFILE"\norganization = "ksds"\nrecord-length = 200\nkeys = [8, 0]\n'


@contextmanager
def serve_with_database(
    request: pytest.FixtureRequest, folder: Path, cache: Path, toml: str = "", ddl: tuple[Path, ...] = ()
) -> Iterator[tuple[StdioClient, Database]]:
    """Serve `folder` (its cobol-mcp.toml: `toml`) on the database `request.param` names ("sqlite" or
    "postgresql"), with the PAYROLL DDL and then `ddl` applied."""
    db = prepare_database(request, folder, toml, ddl)
    args = ("--no-bundled", "--cobol-workers", "2", "--timeout", "120", "--shutdown-grace", "0",
            "--programs", str(folder))  # fmt: skip
    with StdioClient(*args, env={"COBOL_MCP_CACHE": str(cache)}) as client:
        client.initialize()
        yield client, db


def prepare_database(
    request: pytest.FixtureRequest, folder: Path, toml: str = "", ddl: tuple[Path, ...] = ()
) -> Database:
    """The database `request.param` names for `folder`, its cobol-mcp.toml `toml` (after a `[folder]
    database` line on PostgreSQL), the PAYROLL DDL and then `ddl` applied: ready for any transport."""
    if request.param == "sqlite":
        db = Database("sqlite", str(folder / "cobol-mcp.db"))  # the default: nothing configured
        if toml:
            (folder / "cobol-mcp.toml").write_text(toml)
    else:
        url = request.getfixturevalue("postgres_url")
        (folder / "cobol-mcp.toml").write_text(f'[folder]\ndatabase = "{url}"\n\n{toml}')
        db = Database("postgresql", url)
    apply_files([PAYROLL, *ddl], db, note=lambda line: None)
    return db


def count_rows(db: Database, sql: str, args: list[object]) -> int:
    """A ``SELECT COUNT(*)`` written for SQLite (``"PAYROLL.EMPLOYEE"``, ``?``), run on ``db`` either kind."""
    conn = connect(db)
    try:
        if db.kind != "sqlite":
            sql = sql.replace('"PAYROLL.EMPLOYEE"', "payroll.employee").replace("?", "%s")
        cur = conn if db.kind == "sqlite" else conn.cursor()
        count: int = cur.execute(sql, args).fetchone()[0]
        return count
    finally:
        conn.close()


def structured(result: dict[str, Any]) -> dict[str, Any]:
    """A tool call's structured result, the call having succeeded."""
    assert not result.get("isError"), result
    out: dict[str, Any] = result["structuredContent"]
    return out
