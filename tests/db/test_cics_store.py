"""The statements file control, queues and counters run: on PostgreSQL through one cursor per resource
(a new cursor per statement cost as much as the SELECT itself), each result read before the next."""

from __future__ import annotations

from cobol_mcp.db.cics.fct import DatasetDef
from cobol_mcp.db.url import Database

from .cics_fixtures import Open, db, fct, units
from .postgres import postgres_url

__all__ = ["db", "fct", "postgres_url", "units"]  # fixtures, used by name


def test_file_control_reads_and_writes_through_one_cursor(
    db: Database, fct: dict[str, DatasetDef], units: Open
) -> None:
    res = units()
    assert res.files.read("CUSTFILE", b"0001").data == b"0001ALICE".ljust(20)
    first = res.files.sql.cursor
    assert res.files.write("CUSTFILE", b"0002", b"0002BOB".ljust(20)).ok
    assert res.files.write("CUSTFILE", b"0002", b"0002BOB".ljust(20)).resp == 14  # DUPREC: the unit goes on
    assert res.files.read("CUSTFILE", b"0003").data == b"0003CAROL".ljust(20)
    assert res.files.read("CUSTFILE", b"0002").data == b"0002BOB".ljust(20)
    if db.kind == "postgresql":
        assert first is not None and res.files.sql.cursor is first  # one cursor, kept
    else:
        assert first is None  # SQLite's own statements: no cursor kept
    res.end(True)
    again = units()
    assert again.files.read("CUSTFILE", b"0002").data == b"0002BOB".ljust(20)  # committed
