"""A programs folder served over stdio with its database on SQLite (the default file) or on a real
PostgreSQL (``[folder] database``), the PAYROLL DDL applied: the fixture body the SQL and CICS tests share."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from cobol_mcp.db.apply import apply_files
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
