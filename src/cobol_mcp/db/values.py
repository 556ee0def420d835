"""Host-variable values to the driver and back, as DB2 stores and returns them.

In: a number meeting a DECIMAL column on SQLite becomes its scaled integer (truncated to the
column's scale, as DB2 assigns), never a float; a ``Decimal`` elsewhere on SQLite an ``int`` when it
is whole, else its text; a string for a CHAR column is padded to the column's length, and one longer
than a CHAR or VARCHAR column's length cut to it where the rest is blanks (DB2 assigns so; other
characters past it: -404); a TIME or TIMESTAMP in DB2's ISO form becomes PostgreSQL's on PostgreSQL.
Out: a DECIMAL column's scaled integer becomes the exact ``Decimal`` (``quantize`` to the scale on
PostgreSQL), CHAR is padded to its length, PostgreSQL's dates and times become DB2's ISO text
(``2026-11-25``, ``13.45.00``, ``2026-11-25-13.45.00.000000``).
"""

from __future__ import annotations

import datetime
from decimal import ROUND_DOWN, Decimal

from .catalog import Column
from .expr import datetime_text

__all__ = ["from_driver", "to_driver"]


def to_driver(value: object, column: Column | None, target: str) -> object:
    if value is None:
        return None
    if type(value) is int and target == "sqlite" and column is not None and column.type == "DECIMAL":
        return value * 10**column.scale  # a whole number meets a DECIMAL column as its scaled integer
    if isinstance(value, Decimal):
        if target != "sqlite":
            return value
        if column is not None and column.type == "DECIMAL":
            return int(value.scaleb(column.scale).to_integral_value(ROUND_DOWN))
        if value == value.to_integral_value():
            return int(value)
        return str(value)
    if isinstance(value, str) and column is not None:
        long = column.type in ("CHAR", "VARCHAR") and column.length and len(value) > column.length
        if long and not value[column.length :].strip(" "):  # DB2 cuts blanks past the column's length
            return value[: column.length]
        if column.type == "CHAR" and column.length and len(value) < column.length:
            return value.ljust(column.length)
        if column.type in ("TIME", "TIMESTAMP"):
            return datetime_text(value, column.type, target)
    return value


def from_driver(value: object, column: Column | None, target: str) -> object:
    if value is None:
        return None
    if column is not None and column.type == "DECIMAL":
        if target == "sqlite" and isinstance(value, int):
            return Decimal(value).scaleb(-column.scale)
        if isinstance(value, str):  # SQLite: exact DECIMAL arithmetic's decimal text (see .exact)
            return Decimal(value)
        if isinstance(value, Decimal):
            return value.quantize(Decimal(1).scaleb(-column.scale))
    if isinstance(value, datetime.datetime):
        return value.strftime("%Y-%m-%d-%H.%M.%S.%f")
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, datetime.time):
        return value.strftime("%H.%M.%S")
    if isinstance(value, str) and column is not None and column.type == "CHAR" and column.length:
        return value.ljust(column.length)
    return value
