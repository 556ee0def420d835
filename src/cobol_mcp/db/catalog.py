"""What translation needs to know of the tables: each column's DB2 type, kept beside the data.

On SQLite the column types live in the table ``COBOL_MCP_COLUMNS`` of the database itself (SQLite's
own declared types cannot say DECIMAL(15,2) is stored scaled, or that a column is GENERATED ALWAYS);
``db apply`` writes it, translation and the runtime read it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["CATALOG_DDL", "Column", "Table", "Untranslatable", "read_catalog"]

CATALOG_DDL = (
    'CREATE TABLE IF NOT EXISTS "COBOL_MCP_COLUMNS" (TABNAME TEXT NOT NULL, COLNO INTEGER NOT NULL, '
    "COLNAME TEXT NOT NULL, TYPENAME TEXT NOT NULL, LENGTH INTEGER, SCALE INTEGER NOT NULL, "
    "NULLS TEXT NOT NULL, GENERATED TEXT NOT NULL, PRIMARY KEY (TABNAME, COLNO))"
)


class Untranslatable(ValueError):
    """A statement (or part of one) the translator cannot carry over faithfully: line and reason."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(reason)
        self.line = line
        self.reason = reason


@dataclass
class Column:
    name: str
    type: str  # DB2's name: CHAR VARCHAR DECIMAL SMALLINT INTEGER BIGINT DATE TIME TIMESTAMP DOUBLE ...
    length: int | None = None  # CHAR/VARCHAR length, DECIMAL precision
    scale: int = 0
    nullable: bool = True
    generated: str = ""  # "", "ALWAYS" or "BY DEFAULT" (identity)

    @property
    def digits(self) -> int:
        """DIGITS()'s result length: the precision of the number."""
        return {"SMALLINT": 5, "INTEGER": 10, "BIGINT": 19}.get(self.type, self.length or 0)

    def row(self, table: str, colno: int) -> tuple[object, ...]:
        nulls = "Y" if self.nullable else "N"
        return (table, colno, self.name, self.type, self.length, self.scale, nulls, self.generated)

    @classmethod
    def from_row(cls, row: tuple[object, ...]) -> Column:
        _, _, name, typ, length, scale, nulls, generated = row
        return cls(str(name), str(typ), length if isinstance(length, int) else None, int(str(scale)),
                   nulls == "Y", str(generated))  # fmt: skip


@dataclass
class Table:
    name: str  # upper case, schema-qualified as written: PAYROLL.EMPLOYEE
    columns: list[Column] = field(default_factory=list)

    def column(self, name: str) -> Column | None:
        return next((c for c in self.columns if c.name == name), None)


_PG_CATALOG = (
    "SELECT table_schema, table_name, column_name, data_type, character_maximum_length, numeric_precision, "
    "numeric_scale, is_nullable, is_identity, identity_generation FROM information_schema.columns "
    "WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY table_schema, table_name, "
    "ordinal_position"
)
_PG_TYPES = {"character": "CHAR", "character varying": "VARCHAR", "numeric": "DECIMAL", "smallint": "SMALLINT",
             "integer": "INTEGER", "bigint": "BIGINT", "date": "DATE", "time without time zone": "TIME",
             "timestamp without time zone": "TIMESTAMP", "double precision": "DOUBLE", "real": "REAL",
             "text": "CLOB", "bytea": "BLOB"}  # fmt: skip


def read_catalog(conn: Any, kind: str) -> dict[str, Table]:
    """The tables of an open connection: ``COBOL_MCP_COLUMNS`` on SQLite (none before ``db apply``),
    PostgreSQL's information_schema, names upper-cased as DB2 folds them (``public`` left out)."""
    catalog: dict[str, Table] = {}
    if kind == "sqlite":
        known = conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'COBOL_MCP_COLUMNS'").fetchone()
        rows = conn.execute('SELECT * FROM "COBOL_MCP_COLUMNS" ORDER BY TABNAME, COLNO').fetchall() if known else []
        for row in rows:
            catalog.setdefault(str(row[0]), Table(str(row[0]))).columns.append(Column.from_row(tuple(row)))
        return catalog
    with conn.cursor() as cur:
        cur.execute(_PG_CATALOG)
        for schema, table, name, typ, chars, precision, scale, nullable, identity, generation in cur.fetchall():
            full = (table if schema == "public" else f"{schema}.{table}").upper()
            db2 = _PG_TYPES.get(typ, typ.upper())
            length = chars if db2 in ("CHAR", "VARCHAR") else precision if db2 == "DECIMAL" else None
            generated = str(generation or "") if identity == "YES" else ""
            column = Column(name.upper(), db2, length, int(scale or 0) if db2 == "DECIMAL" else 0,
                            nullable == "YES", generated)  # fmt: skip
            catalog.setdefault(full, Table(full)).columns.append(column)
    return catalog
