"""Host-variable values to the driver and back, as DB2 stores and returns them.

In: a number meeting a DECIMAL column on SQLite becomes its scaled integer (truncated to the
column's scale, as DB2 assigns), never a float; a ``Decimal`` elsewhere on SQLite an ``int`` when it
is whole, else its text; a string for a CHAR column is padded to the column's length, and one longer
than a CHAR or VARCHAR column's length cut to it where the rest is blanks (DB2 assigns so; other
characters past it: -404); a TIME or TIMESTAMP in DB2's ISO form becomes PostgreSQL's on PostgreSQL.
Out: a DECIMAL column's scaled integer becomes the exact ``Decimal`` (``quantize`` to the scale on
PostgreSQL), CHAR is padded to its length, PostgreSQL's dates and times become DB2's ISO text
(``2026-11-25``, ``13.45.00``, ``2026-11-25-13.45.00.000000``), a DATE or TIME then in the program's DATE or
TIME format (:mod:`.dates`). A string for a DATE, TIME or TIMESTAMP column may be in any of DB2's forms.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from decimal import ROUND_DOWN, Decimal
from typing import TYPE_CHECKING, Any

from .catalog import Column
from .dates import datetime_text, shown
from .errors import SqlError
from .expr import HostRef

if TYPE_CHECKING:
    from .prepare import Plan
    from .results import Outcome

__all__ = ["driver_params", "from_driver", "store_row", "to_driver"]


def driver_params(refs: list[HostRef], values: Mapping[str, object], target: str, current: object) -> list[object]:
    """A statement's parameters for the driver: each host variable's value (None where its indicator is below
    0), and ``current`` (the row WHERE CURRENT OF names) for ``ROWID OF``; -312 for one without a value."""
    params: list[object] = []
    for ref in refs:
        if ref.name.startswith("ROWID OF "):
            params.append(current)
            continue
        if ref.name not in values or (ref.indicator and ref.indicator not in values):
            raise SqlError(-312, "42618", f"the host variable {ref.name} has no value here")
        value = values[ref.name]
        indicator = values.get(ref.indicator) if ref.indicator else None
        if isinstance(indicator, int) and indicator < 0:
            value = None
        params.append(to_driver(value, ref.column, target))
    return params


def store_row(
    refs: list[HostRef], row: tuple[Any, ...], columns: list[Column | None], plan: Plan, out: Outcome
) -> None:
    """A result row into the host variables (and indicators) of ``out``; -305 for NULL without an indicator.
    ``plan``: its database (target) and its DATE and TIME formats (how a DATE or TIME column's value is given)."""
    if len(row) != len(refs):
        out.sqlca.warn(3)  # DB2: the number of result columns and of host variables differ
    for k, ref in enumerate(refs[: len(row)]):
        value = from_driver(row[k], columns[k] if k < len(columns) else None, plan.target, plan.formats)
        if value is None and not ref.indicator:
            out.sets.clear()
            raise SqlError(-305, "22002", f"NULL into {ref.name}, which has no indicator variable")
        if value is not None:
            out.sets[ref.name] = value
        if ref.indicator:
            out.sets[ref.indicator] = -1 if value is None else 0


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
        if column.type in ("DATE", "TIME", "TIMESTAMP"):
            return datetime_text(value, column.type, target)
    return value


_QUANTA = tuple(Decimal(1).scaleb(-scale) for scale in range(64))  # DECIMAL(p, s): values to s places


def from_driver(value: object, column: Column | None, target: str, formats: tuple[str, str] = ("ISO", "ISO")) -> object:
    if value is None:
        return None
    if formats != ("ISO", "ISO") and column is not None and column.type in ("DATE", "TIME"):
        found = from_driver(value, column, target)
        return shown(found, column.type, formats[column.type == "TIME"]) if isinstance(found, str) else found
    if column is not None and column.type == "DECIMAL":
        if target == "sqlite" and isinstance(value, int):
            return Decimal(value).scaleb(-column.scale)
        if isinstance(value, str):  # SQLite: exact DECIMAL arithmetic's decimal text (see .exact)
            return Decimal(value)
        if isinstance(value, Decimal):
            scale = column.scale
            return value.quantize(_QUANTA[scale] if 0 <= scale < 64 else Decimal(1).scaleb(-scale))
    if type(value) is int:  # (none of the kinds below)
        return value
    if isinstance(value, datetime.datetime):
        return value.strftime("%Y-%m-%d-%H.%M.%S.%f")
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, datetime.time):
        return value.strftime("%H.%M.%S")
    if isinstance(value, str) and column is not None and column.type == "CHAR" and column.length:
        return value.ljust(column.length)
    return value
