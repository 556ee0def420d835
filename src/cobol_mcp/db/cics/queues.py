"""Temporary storage (WRITEQ/READQ/DELETEQ TS) and transient data (WRITEQ/READQ/DELETEQ TD) queues.

TS: a queue is made by its first WRITEQ; its items are numbered from 1; WRITEQ gives the new item's
number (ITEM) and the queue's count (NUMITEMS); REWRITE ITEM(n) replaces item n (QIDERR: no queue,
ITEMERR: no item n); READQ reads ITEM(n), or NEXT: the item after the one last read (by anyone: the
position is the queue's), ITEMERR past the last, LENGERR when the item is longer than INTO (cut, LENGTH
set to its length); DELETEQ removes the queue (QIDERR: none). MAIN and AUXILIARY are both kept in the
database (recoverable, so the items roll back with the unit of work; on CICS a MAIN queue is not).
LENGERR for a length of 0 or above 32763, INVREQ for a name of blanks or binary zeros.

TD: ``CSMT`` and ``CSSL`` are CICS's message logs: each record is one line on stderr at once (as an
extrapartition queue, it is not taken back by a rollback). Any other queue is intrapartition: records
in the database, in order, read destructively by READQ TD (QZERO when empty), recoverable.
"""

from __future__ import annotations

from ... import log
from ..unit import Unit
from .result import INVREQ, ITEMERR, LENGERR, QIDERR, QZERO, Result
from .store import Sql

__all__ = ["LOG_QUEUES", "MAX_ITEM", "TdQueues", "TsQueues", "write_log"]

MAX_ITEM = 32763
LOG_QUEUES = ("CSMT", "CSSL")


def _name(queue: str | bytes) -> str | None:
    text = queue.decode("latin-1") if isinstance(queue, bytes) else queue
    text = text.rstrip(" ")
    return None if not text.strip(" \0") else text


class TsQueues:
    def __init__(self, unit: Unit) -> None:
        self.sql = Sql(unit)

    def writeq(self, queue: str | bytes, data: bytes, *, item: int | None = None, rewrite: bool = False) -> Result:
        name = _name(queue)
        if name is None:
            return Result(INVREQ, 0)
        if not 0 < len(data) <= MAX_ITEM:
            return Result(LENGERR, 0)
        if rewrite:
            row = self.sql.one("SELECT items FROM cics_ts_queues WHERE queue = ?", [name])
            if row is None:
                return Result(QIDERR, 0)
            if item is None or not 1 <= item <= row[0]:
                return Result(ITEMERR, 0)
            self.sql.change("UPDATE cics_ts_items SET data = ? WHERE queue = ? AND item = ?", [data, name, item])
            return Result(number=item, items=row[0])
        self.sql.change("INSERT INTO cics_ts_queues (queue, items, next_item) VALUES (?, 0, 1) "
                        "ON CONFLICT (queue) DO NOTHING", [name])  # fmt: skip
        row = self.sql.one("UPDATE cics_ts_queues SET items = items + 1 WHERE queue = ? RETURNING items", [name])
        assert row is not None
        number = int(row[0])
        self.sql.change("INSERT INTO cics_ts_items (queue, item, data) VALUES (?, ?, ?)", [name, number, data])
        return Result(number=number, items=number)

    def readq(self, queue: str | bytes, *, item: int | None = None, into: int | None = None) -> Result:
        """ITEM(item), or NEXT when ``item`` is None."""
        name = _name(queue)
        if name is None:
            return Result(INVREQ, 0)
        row = self.sql.one("SELECT items, next_item FROM cics_ts_queues WHERE queue = ?", [name])
        if row is None:
            return Result(QIDERR, 0)
        count, following = int(row[0]), int(row[1])
        number = following if item is None else item
        if not 1 <= number <= count:
            return Result(ITEMERR, 0, items=count)
        found = self.sql.one("SELECT data FROM cics_ts_items WHERE queue = ? AND item = ?", [name, number])
        assert found is not None
        self.sql.change("UPDATE cics_ts_queues SET next_item = ? WHERE queue = ?", [number + 1, name])
        data: bytes = found[0]
        if into is not None and len(data) > into:
            return Result(LENGERR, 0, data[:into], len(data), number=number, items=count)
        return Result(data=data, length=len(data), number=number, items=count)

    def deleteq(self, queue: str | bytes) -> Result:
        name = _name(queue)
        if name is None:
            return Result(INVREQ, 0)
        if self.sql.change("DELETE FROM cics_ts_queues WHERE queue = ?", [name]) == 0:
            return Result(QIDERR, 0)
        self.sql.change("DELETE FROM cics_ts_items WHERE queue = ?", [name])
        return Result()


def write_log(queue: str | bytes, data: bytes, program: str = "") -> Result | None:
    """WRITEQ TD to a log queue (CSMT, CSSL): the record a line of the log at once, or QIDERR/LENGERR; None:
    not a log queue (an intrapartition one, in the database)."""
    name = _name(queue)
    if name is None:
        return Result(QIDERR, 0)
    if not 0 < len(data) <= MAX_ITEM:
        return Result(LENGERR, 0)
    if name not in LOG_QUEUES:
        return None
    text = data.decode("latin-1").rstrip(" \0").replace("\n", " ").replace("\r", " ")
    log.info(f"{name}: {text}", queue=name, **({"program": program} if program else {}))
    return Result()


class TdQueues:
    def __init__(self, unit: Unit, program: str = "") -> None:
        self.sql = Sql(unit)
        self.program = program  # named in each log line

    def writeq(self, queue: str | bytes, data: bytes) -> Result:
        name = _name(queue)
        if name is None:
            return Result(QIDERR, 0)
        logged = write_log(queue, data, self.program)
        if logged is not None:
            return logged
        self.sql.change("INSERT INTO cics_td (queue, data) VALUES (?, ?)", [name, data])
        return Result()

    def readq(self, queue: str | bytes, *, into: int | None = None) -> Result:
        name = _name(queue)
        if name is None:
            return Result(QIDERR, 0)
        if name in LOG_QUEUES:
            return Result(INVREQ, 0)  # an output-only extrapartition queue
        row = self.sql.one("SELECT seq, data FROM cics_td WHERE queue = ? ORDER BY seq LIMIT 1"
                           + ("" if self.sql.sqlite else " FOR UPDATE SKIP LOCKED"), [name])  # fmt: skip
        if row is None:
            return Result(QZERO, 0)
        self.sql.change("DELETE FROM cics_td WHERE seq = ?", [row[0]])
        data: bytes = row[1]
        if into is not None and len(data) > into:
            return Result(LENGERR, 0, data[:into], len(data))
        return Result(data=data, length=len(data))

    def deleteq(self, queue: str | bytes) -> Result:
        name = _name(queue)
        if name is None:
            return Result(QIDERR, 0)
        if name not in LOG_QUEUES:
            self.sql.change("DELETE FROM cics_td WHERE queue = ?", [name])
        return Result()
