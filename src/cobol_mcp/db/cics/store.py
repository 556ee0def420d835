"""The tables CICS's resources live in, and statements run on a unit of work's connection.

One table for every dataset's records, keyed (dataset, rid): so replicas sharing a PostgreSQL lock and
see single records, and a new dataset needs no DDL. ``rid`` is the record's identity as bytes that sort
as the dataset does: a KSDS's key as the program wrote it, an ESDS's RBA or an RRDS's record number as
8 bytes big-endian. Records and keys are BLOB (SQLite) or bytea (PostgreSQL): both compare as bytes,
so keys collate in ASCII, as the programs here see them, not in EBCDIC (``'a' < 'A' < '1'`` on a
mainframe, ``'1' < 'A' < 'a'`` here).

=================  ===================================================================================
cics_datasets      a dataset's definition as created (organization, record lengths, key) and ESDS's next RBA
cics_records       (dataset, rid) -> data
cics_ts_queues     a TS queue: its number of items and the item READQ TS NEXT reads
cics_ts_items      (queue, item) -> data
cics_td            intrapartition TD records, in order
cics_counters      (pool, name) -> value, minimum, maximum (decimal text: a DCOUNTER's reach 2**64),
                   and whether DCOUNTER defined it
cics_tasks         one row: how many task numbers (EIBTASKN) the servers have reserved (:mod:`.tasks`)
cics_loads         the load file each dataset was loaded from (:mod:`.fct`), to tell a ``load`` added later
cics_starts        START requests committed and not yet run (:mod:`.starts`)
=================  ===================================================================================
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import Any

from ..unit import Unit

__all__ = ["Sql", "create_tables", "tables_ddl"]


def tables_ddl(kind: str) -> list[str]:
    blob, big = ("BLOB", "INTEGER") if kind == "sqlite" else ("BYTEA", "BIGINT")
    serial = "INTEGER PRIMARY KEY" if kind == "sqlite" else "BIGSERIAL PRIMARY KEY"
    once = "INTEGER PRIMARY KEY AUTOINCREMENT" if kind == "sqlite" else "BIGSERIAL PRIMARY KEY"  # ids never reused
    real = "REAL" if kind == "sqlite" else "DOUBLE PRECISION"
    return [
        "CREATE TABLE IF NOT EXISTS cics_datasets (name VARCHAR(8) PRIMARY KEY, organization VARCHAR(4) NOT NULL, "
        f"min_length INTEGER NOT NULL, max_length INTEGER NOT NULL, key_length INTEGER NOT NULL, "
        f"key_offset INTEGER NOT NULL, next_rba {big} NOT NULL)",
        f"CREATE TABLE IF NOT EXISTS cics_records (dataset VARCHAR(8) NOT NULL, rid {blob} NOT NULL, "
        f"data {blob} NOT NULL, PRIMARY KEY (dataset, rid))",
        "CREATE TABLE IF NOT EXISTS cics_ts_queues (queue VARCHAR(16) PRIMARY KEY, items INTEGER NOT NULL, "
        "next_item INTEGER NOT NULL)",
        f"CREATE TABLE IF NOT EXISTS cics_ts_items (queue VARCHAR(16) NOT NULL, item INTEGER NOT NULL, "
        f"data {blob} NOT NULL, PRIMARY KEY (queue, item))",
        f"CREATE TABLE IF NOT EXISTS cics_td (seq {serial}, queue VARCHAR(4) NOT NULL, data {blob} NOT NULL)",
        "CREATE TABLE IF NOT EXISTS cics_counters (pool VARCHAR(8) NOT NULL, name VARCHAR(16) NOT NULL, "
        "wide INTEGER NOT NULL, value VARCHAR(21) NOT NULL, minimum VARCHAR(21) NOT NULL, "
        "maximum VARCHAR(21) NOT NULL, "
        "PRIMARY KEY (pool, name))",
        f"CREATE TABLE IF NOT EXISTS cics_tasks (id INTEGER PRIMARY KEY, reserved {big} NOT NULL)",
        "CREATE TABLE IF NOT EXISTS cics_loads (name VARCHAR(8) PRIMARY KEY, load_file TEXT NOT NULL)",
        f"CREATE TABLE IF NOT EXISTS cics_starts (id {once}, transid VARCHAR(4) NOT NULL, program VARCHAR(8) "
        f"NOT NULL, due {real} NOT NULL, data {blob}, rtransid VARCHAR(4), rtermid VARCHAR(4), queue VARCHAR(8))",
    ]


def create_tables(conn: Any, kind: str) -> None:
    """The tables, where they are not yet (in the caller's transaction), and cics_tasks's row."""
    for ddl in tables_ddl(kind):
        conn.execute(ddl)
    conn.execute("INSERT INTO cics_tasks (id, reserved) VALUES (1, 0) ON CONFLICT (id) DO NOTHING")


_PG_TEXT: dict[str, str] = {}  # a statement with ? markers -> with %s (this module's statements: a fixed few)


class Sql:
    """Statements with ``?`` markers on the unit's connection, in its transaction."""

    def __init__(self, unit: Unit) -> None:
        self.unit = unit
        self.sqlite = unit.sqlite
        self.cursor: Any = None  # PostgreSQL: one cursor for all (a new one per statement costs as much as a SELECT)

    def run(self, sql: str, params: Sequence[object] = ()) -> Any:
        """The statement run; its result is read before the next one (the cursor is reused)."""
        conn = self.unit.begin()
        if self.sqlite:
            return conn.execute(sql, params)
        if self.cursor is None:
            self.cursor = conn.cursor()
        text = _PG_TEXT.get(sql)
        if text is None:  # the same text object each time: psycopg then keeps its adapters for the statement
            if len(_PG_TEXT) >= 1024:
                _PG_TEXT.clear()
            text = _PG_TEXT[sql] = sql.replace("?", "%s")
        return self.cursor.execute(text, list(params))

    def one(self, sql: str, params: Sequence[object] = ()) -> tuple[Any, ...] | None:
        row = self.run(sql, params).fetchone()
        if row is None or self.sqlite:  # sqlite3 gives bytes and a tuple already
            return row  # type: ignore[no-any-return]  # a driver's row: a tuple of its values
        return tuple(_plain(v) for v in row)

    def all(self, sql: str, params: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        return [tuple(_plain(v) for v in row) for row in self.run(sql, params).fetchall()]

    def change(self, sql: str, params: Sequence[object] = ()) -> int:
        """A statement that changes rows: their count (the unit's savepoint moves after it)."""
        count = self.run(sql, params).rowcount
        self.unit.changed()
        return int(count)

    @contextlib.contextmanager
    def attempt(self) -> Iterator[None]:
        """Statements that may fail without failing the unit (a lock not available): PostgreSQL goes back
        to a savepoint of its own, which an error would otherwise abort the whole transaction for."""
        if self.sqlite:
            yield
            return
        conn = self.unit.begin()
        conn.execute("SAVEPOINT cics_attempt")
        try:
            yield
        except BaseException:
            conn.execute("ROLLBACK TO SAVEPOINT cics_attempt")
            raise
        conn.execute("RELEASE SAVEPOINT cics_attempt")

    def is_driver_error(self, exc: BaseException) -> bool:
        if self.sqlite:
            import sqlite3

            return isinstance(exc, sqlite3.Error)
        import psycopg

        return isinstance(exc, psycopg.Error)


def _plain(value: Any) -> Any:
    return bytes(value) if isinstance(value, memoryview | bytearray) else value
