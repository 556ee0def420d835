"""Named counters: DEFINE, GET, PUT, UPDATE, QUERY, REWIND and DELETE of COUNTER and DCOUNTER, with POOL.

A COUNTER is a fullword signed number (-2**31 … 2**31-1), a DCOUNTER a doubleword unsigned one
(0 … 2**64-1); both share one name space per pool (CICS keeps every counter as a doubleword). DEFINE
takes MINIMUM (default 0), MAXIMUM (default the largest number) and VALUE (default MINIMUM). GET returns
the current value and adds INCREMENT (default 1); once MAXIMUM has been given out the counter is at its
limit: a GET answers SUPPRESSED 101 unless WRAP (back to MINIMUM); an INCREMENT that would pass the
limit is SUPPRESSED 101 unless REDUCE (the counter goes to its limit). COMPAREMIN/COMPAREMAX make GET
and UPDATE conditional (SUPPRESSED 102 below COMPAREMIN, 103 above COMPAREMAX; with COMPAREMAX below
COMPAREMIN, either comparison passing is enough). REWIND puts a counter at its limit (or one whose next
GET of INCREMENT would fail) back to MINIMUM, else SUPPRESSED 104.

A counter never defined: INVREQ with RESP2 201 ("named counter not found"), as IBM documents it: the
conditions of GET, PUT, UPDATE, QUERY, REWIND and DELETE COUNTER are BUSY, INVREQ, LENGERR and
SUPPRESSED, with no NOTFND, so a program written for CICS tests INVREQ (and EIBRESP2 201) to define a
counter on first use. :data:`NOT_FOUND` is the one place that says so. DEFINE of one that exists: INVREQ
202 (IBM). A POOL or COUNTER name with characters other than A-Z 0-9 $ @ # _ or embedded blanks, or a
COUNTER name starting with a digit or _: INVREQ 403 (POOL) or 404 (COUNTER), as IBM lists. MINIMUM above
MAXIMUM or VALUE outside them: INVREQ 406 (IBM's DEFINE lists 406 among its reasons; its text is not
confirmed here). A COUNTER command on a counter whose value a fullword cannot hold (one a DCOUNTER
made): LENGERR 1. Counters live in the database, so a GET rolls back with the unit of work (on CICS a
counter server's number is given out for good) and two units serialise on a counter's row.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..unit import Unit
from .result import INVREQ, LENGERR, SUPPRESSED, Result
from .store import Sql

__all__ = ["NOT_FOUND", "Counters"]

NOT_FOUND = Result(INVREQ, 201)
_FULL = (-(2**31), 2**31 - 1)
_DOUBLE = (0, 2**64 - 1)


@dataclass
class _Counter:
    value: int
    minimum: int
    maximum: int


_POOL = re.compile(r"^[A-Z0-9$@#_]{0,8}$")
_COUNTER = re.compile(r"^[A-Z$@#][A-Z0-9$@#_]{0,15}$")


def _names(name: str | bytes, pool: str | bytes) -> tuple[str, str]:
    def text(v: str | bytes) -> str:
        return (v.decode("latin-1") if isinstance(v, bytes) else v).rstrip(" ")

    return text(pool), text(name)


def _bad_name(name: str | bytes, pool: str | bytes) -> Result | None:
    pool_name, counter = _names(name, pool)
    if not _POOL.match(pool_name):
        return Result(INVREQ, 403)
    if not _COUNTER.match(counter):
        return Result(INVREQ, 404)
    return None


class Counters:
    """``wide``: DCOUNTER (else COUNTER), on every method."""

    def __init__(self, unit: Unit) -> None:
        self.sql = Sql(unit)

    def _get(self, name: str | bytes, pool: str | bytes, wide: bool, lock: bool = True) -> _Counter | Result:
        bad = _bad_name(name, pool)
        if bad is not None:
            return bad
        pool_name, counter = _names(name, pool)
        row = self.sql.one("SELECT value, minimum, maximum FROM cics_counters WHERE pool = ? AND name = ?"
                           + (" FOR UPDATE" if lock and not self.sql.sqlite else ""), [pool_name, counter])  # fmt: skip
        if row is None:
            return NOT_FOUND
        c = _Counter(int(row[0]), int(row[1]), int(row[2]))
        if not wide and not _FULL[0] <= c.value <= _FULL[1] + 1:
            return Result(LENGERR, 1)  # a doubleword's value, which a fullword cannot hold
        return c

    def _set(self, name: str | bytes, pool: str | bytes, value: int) -> None:
        pool_name, counter = _names(name, pool)
        self.sql.change("UPDATE cics_counters SET value = ? WHERE pool = ? AND name = ?",
                        [str(value), pool_name, counter])  # fmt: skip

    def define(self, name: str | bytes, *, pool: str | bytes = "", wide: bool = False, value: int | None = None,
               minimum: int | None = None, maximum: int | None = None) -> Result:  # fmt: skip
        low, high = _DOUBLE if wide else _FULL
        minimum = 0 if minimum is None else minimum
        maximum = high if maximum is None else maximum
        value = minimum if value is None else value
        bad = _bad_name(name, pool)
        if bad is not None:
            return bad
        if not (low <= minimum <= maximum <= high and minimum <= value <= maximum + 1):
            return Result(INVREQ, 406)
        pool_name, counter = _names(name, pool)
        count = self.sql.change("INSERT INTO cics_counters (pool, name, wide, value, minimum, maximum) VALUES "
                                "(?, ?, ?, ?, ?, ?) ON CONFLICT (pool, name) DO NOTHING",
                                [pool_name, counter, int(wide), str(value), str(minimum), str(maximum)])  # fmt: skip
        return Result() if count else Result(INVREQ, 202)

    def get(self, name: str | bytes, *, pool: str | bytes = "", wide: bool = False, increment: int = 1,
            wrap: bool = False, reduce: bool = False, comparemin: int | None = None,
            comparemax: int | None = None) -> Result:  # fmt: skip
        c = self._get(name, pool, wide)
        if isinstance(c, Result):
            return c
        current = c.value
        if current > c.maximum:  # at its limit
            if not wrap:
                return Result(SUPPRESSED, 101)
            current = c.minimum
        failed = _compare(current, comparemin, comparemax)
        if failed:
            return Result(SUPPRESSED, failed)
        after = current + increment
        if after > c.maximum + 1:
            if not reduce:
                return Result(SUPPRESSED, 101)
            after = c.maximum + 1
        self._set(name, pool, after)
        return Result(number=current)

    def put(self, name: str | bytes, *, pool: str | bytes = "", wide: bool = False, increment: int = 1,
            reduce: bool = False) -> Result:  # fmt: skip
        c = self._get(name, pool, wide)
        if isinstance(c, Result):
            return c
        after = c.value + increment
        if after > c.maximum + 1:
            if not reduce:
                return Result(SUPPRESSED, 101)
            after = c.maximum + 1
        self._set(name, pool, after)
        return Result()

    def update(self, name: str | bytes, value: int, *, pool: str | bytes = "", wide: bool = False,
               comparemin: int | None = None, comparemax: int | None = None) -> Result:  # fmt: skip
        c = self._get(name, pool, wide)
        if isinstance(c, Result):
            return c
        if not c.minimum <= value <= c.maximum:
            return Result(INVREQ, 406)
        failed = _compare(c.value, comparemin, comparemax)
        if failed:
            return Result(SUPPRESSED, failed)
        self._set(name, pool, value)
        return Result()

    def query(self, name: str | bytes, *, pool: str | bytes = "", wide: bool = False) -> Result:
        c = self._get(name, pool, wide, lock=False)
        if isinstance(c, Result):
            return c
        return Result(number=c.value, minimum=c.minimum, maximum=c.maximum)

    def rewind(self, name: str | bytes, *, pool: str | bytes = "", wide: bool = False, increment: int = 1) -> Result:
        c = self._get(name, pool, wide)
        if isinstance(c, Result):
            return c
        if c.value + increment <= c.maximum + 1:
            return Result(SUPPRESSED, 104)  # not at its limit: a GET of this increment would be given
        self._set(name, pool, c.minimum)
        return Result()

    def delete(self, name: str | bytes, *, pool: str | bytes = "", wide: bool = False) -> Result:
        bad = _bad_name(name, pool)
        if bad is not None:
            return bad
        pool_name, counter = _names(name, pool)
        if self.sql.change("DELETE FROM cics_counters WHERE pool = ? AND name = ?", [pool_name, counter]) == 0:
            return NOT_FOUND
        return Result()


def _compare(value: int, comparemin: int | None, comparemax: int | None) -> int:
    """0 when the value passes COMPAREMIN/COMPAREMAX, else the RESP2 of SUPPRESSED."""
    above = comparemin is None or value >= comparemin
    below = comparemax is None or value <= comparemax
    if comparemin is not None and comparemax is not None and comparemax < comparemin:
        return 0 if above or below else 102
    if not above:
        return 102
    return 0 if below else 103
