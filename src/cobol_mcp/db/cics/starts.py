"""START requests: recorded in the starter's unit of work, claimed by the started task's.

``START TRANSID`` writes one row of ``cics_starts`` on the starting call's connection, in its unit of work
(:func:`record`): the request exists only once that unit commits, and is gone with it when it rolls back,
which is CICS's rule that a started task runs after its starter's syncpoint and not at all if it backs out.
A row holds what the started task needs: its transaction and program, when it is due (seconds since the
epoch), its FROM data (NULL: none) and RTRANSID, RTERMID and QUEUE (NULL: not given).

A server runs a due request by claiming its row (:func:`claim`): on PostgreSQL deleted on a connection of its
own, in a transaction left open (a row another server is running is skipped: ``FOR UPDATE SKIP LOCKED``),
which becomes the started task's unit of work; on SQLite (one server owns the file) deleted in the task's unit
of work as it ends (:func:`claimed`). Either way the claim commits with the task's work.
A server that stops mid-task leaves neither (its transaction rolls back), and the request is run again by the
next server to look. A task that abends rolls its claim back too; :func:`forget` then deletes the request on
its own, so an abended task is not run again (CICS does not restart it either).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..connection import connect
from ..unit import Unit
from ..url import Database
from .store import Sql

__all__ = ["StartRequest", "claim", "claimed", "forget", "next_due", "record"]


@dataclass
class StartRequest:
    id: int
    transid: str
    program: str
    due: float
    data: bytes | None
    rtransid: str | None
    rtermid: str | None
    queue: str | None


_COLUMNS = "id, transid, program, due, data, rtransid, rtermid, queue"


def record(unit: Unit, request: StartRequest) -> None:
    """The request, in ``unit``'s transaction (its id is the database's)."""
    Sql(unit).change(
        "INSERT INTO cics_starts (transid, program, due, data, rtransid, rtermid, queue) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [request.transid, request.program, request.due, request.data, request.rtransid, request.rtermid,
         request.queue],
    )  # fmt: skip


def _request(row: Any) -> StartRequest:
    data = row[4]
    return StartRequest(int(row[0]), row[1], row[2], float(row[3]), None if data is None else bytes(data), *row[5:8])


def claim(db: Database, now: float) -> tuple[StartRequest, Any] | None:
    """The first request due at ``now``, and the connection its claim is open on (None: nothing due).

    PostgreSQL: the row deleted on a new connection whose transaction is left open, to be the started task's
    (a row another server is running is skipped). SQLite, whose file one server owns: the row only read (no
    connection: None), to be deleted in the started task's unit of work, as it commits; a claim holding
    SQLite's write lock would keep the task from its first statement."""
    if db.kind == "sqlite":
        conn = connect(db)
        try:
            row = conn.execute(f"SELECT {_COLUMNS} FROM cics_starts WHERE due <= ? ORDER BY due, id LIMIT 1", [now]
                               ).fetchone()  # fmt: skip
        finally:
            conn.close()
        return None if row is None else (_request(row), None)
    conn = connect(db)
    try:
        row = conn.execute(
            f"DELETE FROM cics_starts WHERE id = (SELECT id FROM cics_starts WHERE due <= %s ORDER BY due, id "
            f"LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING {_COLUMNS}", [now]).fetchone()  # fmt: skip
    except BaseException:
        conn.close()
        raise
    if row is None:
        conn.close()
        return None
    return _request(row), conn


def claimed(unit: Unit, request_id: int) -> None:
    """SQLite: the request deleted in the started task's unit of work (see :func:`claim`)."""
    Sql(unit).change("DELETE FROM cics_starts WHERE id = ?", [request_id])


def forget(db: Database, request_id: int) -> None:
    """The request deleted on its own (its task abended: its claim rolled back with its work)."""
    conn = connect(db)
    try:
        marker = "?" if db.kind == "sqlite" else "%s"
        conn.execute(f"DELETE FROM cics_starts WHERE id = {marker}", [request_id])
        conn.commit()
    finally:
        conn.close()


def next_due(db: Database) -> float | None:
    """When the earliest request is due (None: none is recorded)."""
    conn = connect(db)
    try:
        row = conn.execute("SELECT MIN(due) FROM cics_starts").fetchone()
        if db.kind != "sqlite":
            conn.rollback()
    finally:
        conn.close()
    return None if row is None or row[0] is None else float(row[0])
