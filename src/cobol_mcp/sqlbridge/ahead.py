"""FETCHes answered before the program makes them: a read-only cursor's next rows sent with a FETCH's answer.

When a FETCH of a read-only cursor (no WHERE CURRENT OF names it) is answered with SQLCODE 0 to the C
worker, the session reads more rows of the cursor (:meth:`cobol_mcp.db.unit.Unit.read_ahead`) and sends
with the answer, per row, what that same FETCH statement would store: the bytes of the SQLCA and of the
host variables (``image``), and which bytes it leaves alone (``keep``: 0xFF there, so what the program
has put in them since stays, as after a FETCH of a NULL into a variable with an indicator). The worker
(``worker_services.c``) answers the statement's next CALLs from them, in order, without asking. Its
next request of any other kind says how many it used (the number's bits from :data:`USED_SHIFT` up;
statement 0: that report alone, before a CICS command), and the session gives the rest back to the
cursor (:meth:`~cobol_mcp.db.unit.Unit.unread`) before it runs anything. So the cursor's position, +100
at its end, SQLERRD(3), COMMIT closing it (or not: WITH HOLD), CLOSE and -501 after it are what they
are without reading ahead. Only rows answering SQLCODE 0 are sent (a row that answers anything else is
given back: the FETCH reaching it asks). How many: 1 with the first FETCH after OPEN, then 8, 64 and
:data:`MOST`, no more than :data:`BYTES` in all. Per row the cost is Python's: a row NULL where one
answered before was (without a warning) is written straight from the driver's values with that row's
SQLCA and mask (:class:`Fast`), the others go the whole way (:meth:`~cobol_mcp.db.unit.Unit.fetched`).

What reading ahead can change: on SQLite the rows are read before the program's next statements run, so
whether the cursor sees a change the call makes meanwhile to a row it has not reached may differ. DB2
(an ASENSITIVE cursor) and SQLite leave that undefined; a PostgreSQL cursor never sees it.
"""

from __future__ import annotations

import struct
from typing import Any

from ..db.errors import SqlError
from ..db.unit import Outcome, Sqlca, Unit
from ..db.values import from_driver
from .hosts import Hosts
from .values import SQLCA_SIZE, SQLCODE_AT, ServiceError, Writer, sqlca_bytes

__all__ = ["BYTES", "MOST", "USED_SHIFT", "Ahead", "Fast", "encode"]

USED_SHIFT = 20  # a CALL 'SQLRT' number's bits from here up: the rows sent ahead the worker used
MOST = 100
BYTES = 1 << 18
_COUNT = struct.Struct("<I")
_OK = b"\0\0\0\0"

Codecs = tuple[Hosts, Any, dict[str, tuple[int, Writer]]]


def encode(
    hosts: Hosts, writes: dict[str, tuple[int, Writer]], outcome: Outcome, params: list[bytes],
    sqlcas: dict[tuple[object, ...], bytes] | None = None,
) -> list[bytes]:  # fmt: skip
    """The parameters' bytes after a statement's ``outcome``: the SQLCA and what it sets (see :mod:`.session`).
    ``sqlcas``: the SQLCAs made so far from ``params[0]`` (rows read ahead mostly answer the same one)."""
    if not outcome.sets:
        return [sqlca_bytes(params[0], outcome.sqlca), *params[1:]]
    bufs = [bytearray(p) for p in params[1:]]
    cuts: dict[str, int] = {}
    try:
        for name, value in outcome.sets.items():
            found = writes.get(name)
            if found is None:
                raise ServiceError(f"statement {hosts.number} sets {name}, which its CALL does not pass")
            param, write = found
            cut = write(bufs[param - 1], value)
            if cut is not None:
                outcome.sqlca.warn(1)
                cuts[name] = cut
        for name, length in cuts.items():  # DB2: the indicator of a cut string holds its length before the cut
            indicator = writes.get(hosts.indicators.get(name, ""))
            if indicator is not None:
                indicator[1](bufs[indicator[0] - 1], length)
    except SqlError as exc:
        return [sqlca_bytes(params[0], Sqlca(exc.sqlcode, exc.sqlstate, 0, " " * 11, exc.message)), *params[1:]]
    if sqlcas is None:
        return [sqlca_bytes(params[0], outcome.sqlca), *map(bytes, bufs)]
    ca = outcome.sqlca
    key = (ca.sqlcode, ca.sqlstate, ca.sqlerrd3, ca.sqlwarn, ca.sqlerrm, params[0])
    sqlca = sqlcas.get(key)
    if sqlca is None:
        sqlca = sqlcas[key] = sqlca_bytes(params[0], ca)
    return [sqlca, *map(bytes, bufs)]


class Fast:
    """A FETCH's rows written straight from the driver's values, as :func:`encode` writes a row's outcome
    (:meth:`cobol_mcp.db.unit.Unit.fetched`), for host variables without a VARCHAR: values then indicators,
    in the order of INTO. Only a row NULL where a row answered before was (so each NULL has an indicator),
    with that row's SQLCA and keep mask; a value cut or refused goes the whole way (None)."""

    def __init__(self, unit: Unit, number: int, cursor: str, writes: dict[str, tuple[int, Writer]]) -> None:
        p, found = unit.plan.statements[number], unit.cursors[cursor]
        assert p.translation is not None
        outputs = p.translation.outputs
        self.target, self.formats = unit.plan.target, unit.plan.formats
        self.columns = [found.columns[k] if k < len(found.columns) else None for k in range(len(outputs))]
        self.outputs: list[tuple[int, Writer, int, Writer | None]] = []
        for ref in outputs:
            param, write = writes[ref.name]
            ind_param, ind_write = writes[ref.indicator] if ref.indicator else (0, None)
            self.outputs.append((param - 1, write, ind_param - 1, ind_write))
        self.learnt: dict[tuple[int, ...], tuple[bytes, bytes]] = {}

    def learn(self, row: Any, sqlca: bytes, keep: bytes) -> None:
        """``row`` answered with ``sqlca`` and ``keep``, no warning: rows NULL where it is answer so."""
        if len(row) == len(self.outputs):
            values = [from_driver(v, c, self.target, self.formats) for v, c in zip(row, self.columns, strict=True)]
            self.learnt[tuple(k for k, v in enumerate(values) if v is None)] = (sqlca, keep)

    def written(self, row: Any, zeros: list[bytes]) -> tuple[bytes, bytes] | None:
        """The row's image and keep mask, or None: it goes the whole way."""
        if not self.learnt or len(row) != len(self.outputs):
            return None
        columns, target = self.columns, self.target
        bufs = [bytearray(z) for z in zeros[1:]]
        nulls: list[int] = []
        try:
            for k, (param, write, ind_param, ind_write) in enumerate(self.outputs):
                value = from_driver(row[k], columns[k], target, self.formats)
                if value is None:
                    if ind_write is None:
                        return None  # -305
                    ind_write(bufs[ind_param], -1)
                    nulls.append(k)
                    continue
                if write(bufs[param], value) is not None:
                    return None  # cut: SQLWARN1 and the indicator's length
                if ind_write is not None:
                    ind_write(bufs[ind_param], 0)
        except SqlError:
            return None
        known = self.learnt.get(tuple(nulls))
        return None if known is None else (known[0] + b"".join(bufs), known[1])


class Ahead:
    """The rows sent ahead with one FETCH's answer: ``frame`` (what goes with it), ``rows`` (the driver's)."""

    def __init__(self, cursor: str, rows: list[Any], frame: bytes) -> None:
        self.cursor, self.rows, self.frame = cursor, rows, frame

    @classmethod
    def read(
        cls, unit: Unit, number: int, cursor: str, codecs: Codecs, params: list[bytes], rounds: int
    ) -> Ahead | None:
        """Rows of ``cursor`` past FETCH ``number``'s answer (``params``), ``rounds`` reads after its OPEN."""
        hosts, _, writes = codecs
        sizes = list(map(len, params))
        count = min(MOST, 8**rounds, BYTES // (2 * sum(sizes)))
        rows = unit.read_ahead(cursor, count)
        zeros, ones = [bytes(n) for n in sizes], [b"\xff" * n for n in sizes]
        # Without a VARCHAR each value set is written whole: the bytes kept follow from the names set
        fixed = all(p.length is None for p in hosts.pieces.values())
        keeps: dict[frozenset[str], bytes] = {}
        sqlcas: dict[tuple[object, ...], bytes] = {}
        # Rows NULL where an earlier row answered without a warning was: written as that one (see Fast)
        fast = Fast(unit, number, cursor, writes) if fixed else None
        parts: list[bytes] = []
        for row in rows:
            if fast is not None and (known := fast.written(row, zeros)) is not None:
                parts += known
                continue
            outcome = unit.fetched(number, row)
            if outcome.sqlca.sqlcode != 0:
                break
            named = frozenset(outcome.sets)
            image = b"".join(encode(hosts, writes, outcome, zeros, sqlcas))
            if image[SQLCODE_AT : SQLCODE_AT + 4] != _OK:
                break
            keep = keeps.get(named) if fixed and outcome.sqlca.sqlwarn[1] == " " else None
            if keep is None:  # what the statement writes: the bytes that differ written over 00s and over FFs
                other = b"".join(encode(hosts, writes, outcome, ones, sqlcas))
                keep = (int.from_bytes(image) ^ int.from_bytes(other)).to_bytes(len(image))
                keeps[named] = keep
            if fast is not None and outcome.sqlca.sqlwarn == " " * 11:
                fast.learn(row, image[:SQLCA_SIZE], keep)
            parts += (image, keep)
        used = len(parts) // 2
        unit.unread(cursor, rows[used:])
        if not used:
            return None
        return cls(cursor, rows[:used], _COUNT.pack(used) + b"".join(parts))

    def consumed(self, unit: Unit | None, number: int) -> int:
        """Give back to the cursor the rows the worker did not use (it says how many it did, in ``number``'s
        high bits); the statement number asked for."""
        used = number >> USED_SHIFT
        if not 0 <= used <= len(self.rows):
            raise ServiceError(f"CALL 'SQLRT' {number & ((1 << USED_SHIFT) - 1)} says it used {used} rows sent "
                               f"ahead, of {len(self.rows)}")  # fmt: skip
        if unit is not None:
            unit.unread(self.cursor, self.rows[used:])
        return number & ((1 << USED_SHIFT) - 1)
