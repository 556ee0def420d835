"""EIBTASKN: task numbers unique across every server that shares the folder's database.

A replica keeps nothing another one needs, and a task number taken from a process's own counter (or
its pid) repeats on another replica, or on the same one once restarted (in a container every replica
is pid 1). So the numbers are counted where every server sharing the database sees them, and a process
reserves :data:`BLOCK` of them at a time, then gives them out from memory. A block's numbers left
unused when the process stops are skipped, never given again.

Reserving must never wait for a lock that a call can hold: a call's COBOL worker holds its database's
write lock while it waits for the server (a statement's plan, the go-ahead to commit), and a new call's
number is taken on the server's reply loop, so a reservation waiting for that lock would stop the
server until SQLite's busy timeout. On SQLite the count is therefore not in the database but in a small
file beside it (``<database>-tasks``, the number as text), read and rewritten under an ``flock`` that
only reservations take, each for a read and a write; the first reservation seeds it from the database's
``cics_tasks`` row (what servers before this file counted there). A machine that crashes may lose the
file's last write: numbers reserved just before can then be given again. On PostgreSQL the row of
``cics_tasks`` holds the count, reserved by one ``UPDATE … RETURNING`` in a short transaction of its own
(the row's lock is taken by reservations alone, never by a call).

EIBTASKN is ``S9(7) COMP-3``: the numbers run 1 … :data:`LIMIT` and then start again at 1 (CICS's task
numbers wrap too), so they are unique across the replicas among the last :data:`LIMIT` reserved.
The reservation is not part of any call's unit of work: a call that rolls back does not give its number
back (unlike a named counter), as CICS never reuses a task number.
"""

from __future__ import annotations

import os
import threading

from ..unit import connect
from ..url import Database

__all__ = ["BLOCK", "LIMIT", "TASKS_SUFFIX", "TaskNumbers", "task_number"]

BLOCK = 64  # numbers reserved at a time (a round trip to the database, or a read and write of the file)
LIMIT = 9_999_999  # the largest EIBTASKN (seven digits)
TASKS_SUFFIX = "-tasks"  # SQLite: the count's file, beside the database (as SQLite's own -wal and -shm)
_WIDTH = 21  # the file's text: the count right-aligned in 20 characters, and a newline


class TaskNumbers:
    """The task numbers of one process on one database (see the module)."""

    def __init__(self, db: Database, block: int = BLOCK) -> None:
        self.db, self.block = db, block
        self.lock = threading.Lock()
        self.next, self.end = 1, 0  # the reserved numbers not yet given out: next … end

    def take(self) -> int:
        with self.lock:
            if self.next > self.end:
                self.end = self._reserve()
                self.next = self.end - self.block + 1
            number = self.next
            self.next += 1
        return (number - 1) % LIMIT + 1

    def _reserve(self) -> int:
        """Reserve the next block: the last number of it."""
        if self.db.kind == "sqlite":
            return self._reserve_in_file()
        conn = connect(self.db)
        try:
            row = conn.execute(
                "UPDATE cics_tasks SET reserved = reserved + %s WHERE id = 1 RETURNING reserved", [self.block]
            ).fetchone()
            conn.commit()
        finally:
            conn.close()  # an error: closing rolls back
        if row is None:
            raise RuntimeError("the folder's database has no cics_tasks row (its CICS tables were not created)")
        return int(row[0])

    def _reserve_in_file(self) -> int:
        """SQLite: the count in ``<database>-tasks``, under its flock (see the module)."""
        import fcntl

        fd = os.open(self.db.target + TASKS_SUFFIX, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o666)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)  # (held by another server's reservation only: a read and a write)
            text = os.pread(fd, _WIDTH, 0).strip()
            reserved = int(text) + self.block if text.isdigit() else self._seed() + self.block
            os.pwrite(fd, str(reserved).encode().rjust(_WIDTH - 1) + b"\n", 0)  # (one width: no truncation)
        finally:
            os.close(fd)  # (the flock with it)
        return reserved

    def _seed(self) -> int:
        """What the database's ``cics_tasks`` row counted (0 when it has none): a read, which waits for no
        writer (WAL), and none at all when the database is busy otherwise."""
        import sqlite3

        try:
            conn = connect(self.db, busy_timeout_ms=0)
        except sqlite3.Error:
            return 0
        try:
            row = conn.execute("SELECT reserved FROM cics_tasks WHERE id = 1").fetchone()
        except sqlite3.Error:
            row = None
        finally:
            conn.close()
        return int(row[0]) if row is not None else 0


_NUMBERS: dict[tuple[str, str], TaskNumbers] = {}
_MADE = threading.Lock()


def task_number(db: Database) -> int:
    """A new EIBTASKN for a call on `db`'s folder, unique across the servers sharing `db`."""
    with _MADE:
        numbers = _NUMBERS.get((db.kind, db.target))
        if numbers is None:
            numbers = _NUMBERS[(db.kind, db.target)] = TaskNumbers(db)
    return numbers.take()
