"""SQLite functions for what DB2 computes exactly and SQLite cannot: DECIMAL arithmetic and labelled
durations, registered on every SQLite connection the runtime and ``db apply`` open (:func:`register`).

DECIMAL values travel between these functions as exact decimal text (``'58025.000'``): a DECIMAL
column, stored as its scaled integer, enters through ``DB2_DEC(col, s)``; a host variable comes as the
driver's ``int`` or decimal text; an integer column as its ``int``. Addition, subtraction and
multiplication are exact, their scale DB2's (max(s, s'), s + s'); division is truncated at the scale
:mod:`.arith` computed by DB2's rules; ``DB2_STORE`` truncates a value to a DECIMAL column's scale as
DB2 assigns (toward zero) and gives the scaled integer the column stores. Aggregates: ``DB2_SUM``
(exact) and ``DB2_AVG`` (exact, truncated at DB2's scale). ``DB2_DATEADD`` adds a labelled duration to
DB2's ISO DATE or TIMESTAMP text, a month or year landing past a month's end on its last day as DB2's
does. A failure (division by zero: -802; a value too big for its DECIMAL: -406; a date out of range:
-181) is kept in :func:`failure` for :mod:`.errors`, since SQLite passes on only that a function failed.
"""

from __future__ import annotations

import calendar
import datetime
import threading
from decimal import ROUND_DOWN, Context, Decimal, InvalidOperation
from typing import Any

__all__ = ["failure", "register"]

_EXACT = Context(prec=200)  # wide enough that no sum, difference or product of DECIMAL(31) is rounded
_failed = threading.local()


def failure() -> tuple[int, str, str] | None:
    """The DB2 error (SQLCODE, SQLSTATE, text) of the function that last failed on this thread, once."""
    found: tuple[int, str, str] | None = getattr(_failed, "error", None)
    _failed.error = None
    return found


def _fail(code: int, state: str, text: str) -> None:
    _failed.error = (code, state, text)
    raise ValueError(text)


def _dec(value: object) -> Decimal | None:
    if value is None:
        return None
    if isinstance(value, float):
        return Decimal(repr(value))
    try:
        return Decimal(str(value).strip())
    except InvalidOperation:
        _fail(-420, "22018", f"{value!r} is not a number")
        raise  # not reached


def _text(value: Decimal | None) -> str | None:
    return None if value is None else format(value, "f")


def _truncated(value: Decimal, scale: int) -> Decimal:
    return value.quantize(Decimal(1).scaleb(-scale), rounding=ROUND_DOWN, context=_EXACT)


def _from_scaled(value: object, scale: int) -> str | None:
    return _text(Decimal(value).scaleb(-scale)) if isinstance(value, int) else _text(_dec(value))


def _binary(op: str) -> Any:
    def apply(a: object, b: object) -> str | None:
        x, y = _dec(a), _dec(b)
        if x is None or y is None:
            return None
        result = _EXACT.add(x, y) if op == "+" else _EXACT.subtract(x, y) if op == "-" else _EXACT.multiply(x, y)
        return _text(result)

    return apply


def _divide(a: object, b: object, scale: int) -> str | None:
    x, y = _dec(a), _dec(b)
    if x is None or y is None:
        return None
    if y == 0:
        _fail(-802, "22012", "division by zero")
    quotient = _EXACT.divide(x, y)  # 200 digits: then truncated at DB2's scale, never rounded up
    return _text(_truncated(quotient, scale))


def _negate(a: object) -> str | None:
    x = _dec(a)
    return None if x is None else _text(-x)


def _compare(a: object, b: object) -> int | None:
    x, y = _dec(a), _dec(b)
    if x is None or y is None:
        return None
    return (x > y) - (x < y)


def _store(a: object, scale: int) -> int | None:
    """A value as a DECIMAL(p, scale) column stores it: truncated, scaled to an integer."""
    x = _dec(a)
    if x is None:
        return None
    scaled = int(_truncated(x, scale).scaleb(scale))
    if abs(scaled) >= 1 << 63:
        _fail(-406, "22003", f"{x} does not fit the column")
    return scaled


def _decimal(a: object, precision: int, scale: int) -> str | None:
    """DECIMAL(a, p, s): truncated to s decimals; -406 when its whole part needs more than p - s digits."""
    x = _dec(a)
    if x is None:
        return None
    fitted = _truncated(x, scale)
    if abs(fitted) >= Decimal(10) ** (precision - scale):
        _fail(-406, "22003", f"{x} does not fit DECIMAL({precision},{scale})")
    return _text(fitted)


def _char(a: object, precision: int, scale: int) -> str | None:
    """CHAR() of a DECIMAL(p, s) value as DB2 for z/OS (V10 on) gives it: no leading zeros but the one
    before the point, a minus sign when negative, no point when the scale is 0, padded to p + 2."""
    x = _dec(a)
    if x is None:
        return None
    text = format(_truncated(x, scale), "f")
    return text.ljust(precision + 2)


class _Sum:
    def __init__(self) -> None:
        self.total: Decimal | None = None

    def step(self, value: object) -> None:
        x = _dec(value)
        if x is not None:
            self.total = x if self.total is None else _EXACT.add(self.total, x)

    def finalize(self) -> str | None:
        return _text(self.total)


class _Avg:
    def __init__(self) -> None:
        self.total, self.count, self.scale = Decimal(0), 0, 0

    def step(self, value: object, scale: int) -> None:
        x = _dec(value)
        self.scale = scale
        if x is not None:
            self.total, self.count = _EXACT.add(self.total, x), self.count + 1

    def finalize(self) -> str | None:
        if not self.count:
            return None
        return _text(_truncated(_EXACT.divide(self.total, Decimal(self.count)), self.scale))


_UNITS = {"YEAR": "YEARS", "MONTH": "MONTHS", "DAY": "DAYS", "HOUR": "HOURS", "MINUTE": "MINUTES",
          "SECOND": "SECONDS", "MICROSECOND": "MICROSECONDS"}  # fmt: skip


def _date_add(value: object, amount: object, unit: str) -> str | None:
    """DB2's ISO DATE or TIMESTAMP text plus ``amount`` ``unit`` (YEARS, MONTHS, DAYS … MICROSECONDS)."""
    if value is None or amount is None:
        return None
    text = str(value).strip()
    try:
        n = int(Decimal(str(amount)).to_integral_value(ROUND_DOWN))
        if len(text) == 10:
            moment = datetime.datetime.strptime(text, "%Y-%m-%d")
        else:
            moment = datetime.datetime.strptime(text[:19], "%Y-%m-%d-%H.%M.%S")
            moment = moment.replace(microsecond=int(text[20:26].ljust(6, "0") or 0))
    except (ValueError, InvalidOperation):
        _fail(-180, "22007", f"{text!r} is not a DB2 date or timestamp")
        raise
    unit = _UNITS.get(unit, unit)
    try:
        if unit in ("YEARS", "MONTHS"):
            months = moment.year * 12 + moment.month - 1 + (n * 12 if unit == "YEARS" else n)
            year, month = divmod(months, 12)
            day = min(moment.day, calendar.monthrange(year, month + 1)[1])  # past the month's end: its last day
            moment = moment.replace(year=year, month=month + 1, day=day)
        else:
            moment += datetime.timedelta(**{unit.lower(): n})
    except (ValueError, OverflowError):
        _fail(-181, "22008", f"{text} plus {n} {unit} is not a valid date")
    return moment.strftime("%Y-%m-%d") if len(text) == 10 else moment.strftime("%Y-%m-%d-%H.%M.%S.%f")


def register(conn: Any) -> None:
    """Define the functions on a ``sqlite3`` connection."""
    pure = {"deterministic": True}
    conn.create_function("DB2_DEC", 2, _from_scaled, **pure)
    conn.create_function("DB2_ADD", 2, _binary("+"), **pure)
    conn.create_function("DB2_SUB", 2, _binary("-"), **pure)
    conn.create_function("DB2_MUL", 2, _binary("*"), **pure)
    conn.create_function("DB2_DIV", 3, _divide, **pure)
    conn.create_function("DB2_NEG", 1, _negate, **pure)
    conn.create_function("DB2_CMP", 2, _compare, **pure)
    conn.create_function("DB2_STORE", 2, _store, **pure)
    conn.create_function("DB2_DECIMAL", 3, _decimal, **pure)
    conn.create_function("DB2_CHAR", 3, _char, **pure)
    conn.create_function("DB2_DATEADD", 3, _date_add, **pure)
    conn.create_aggregate("DB2_SUM", 1, _Sum)
    conn.create_aggregate("DB2_AVG", 2, _Avg)
