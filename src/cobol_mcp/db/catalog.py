"""What translation needs to know of the tables: each column's DB2 type, kept beside the data.

On SQLite the column types live in the table ``COBOL_MCP_COLUMNS`` of the database itself (SQLite's
own declared types cannot say DECIMAL(15,2) is stored scaled, or that a column is GENERATED ALWAYS);
``db apply`` writes it, translation and the runtime read it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["CATALOG_DDL", "Column", "Table", "Untranslatable"]

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
