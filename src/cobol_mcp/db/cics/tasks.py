"""EIBTASKN: task numbers unique across every server that shares the folder's database.

A replica keeps nothing another one needs, and a task number taken from a process's own counter (or
its pid) repeats on another replica, or on the same one once restarted (in a container every replica
is pid 1). So the numbers come from the database: the row of ``cics_tasks`` holds how many have been
handed out, and a process reserves :data:`BLOCK` of them at a time, in a short transaction of its own
(one ``UPDATE`` taking the row's lock, so two replicas never get the same block), then gives them out
from memory. A block's numbers left unused when the process stops are skipped, never given again.

EIBTASKN is ``S9(7) COMP-3``: the numbers run 1 … :data:`LIMIT` and then start again at 1 (CICS's task
numbers wrap too), so they are unique across the replicas among the last :data:`LIMIT` reserved.
The reservation is not part of any call's unit of work: a call that rolls back does not give its number
back (unlike a named counter), as CICS never reuses a task number.
"""

from __future__ import annotations

import threading

from ..unit import connect
from ..url import Database

__all__ = ["BLOCK", "LIMIT", "TaskNumbers", "task_number"]

BLOCK = 64  # numbers reserved per round trip to the database
LIMIT = 9_999_999  # the largest EIBTASKN (seven digits)


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
        """Reserve the next block in the database: the last number of it."""
        conn = connect(self.db)
        sqlite = self.db.kind == "sqlite"
        try:
            if sqlite:
                conn.execute("BEGIN IMMEDIATE")
                conn.execute("UPDATE cics_tasks SET reserved = reserved + ? WHERE id = 1", [self.block])
                row = conn.execute("SELECT reserved FROM cics_tasks WHERE id = 1").fetchone()
                conn.execute("COMMIT")
            else:
                row = conn.execute(
                    "UPDATE cics_tasks SET reserved = reserved + %s WHERE id = 1 RETURNING reserved", [self.block]
                ).fetchone()
                conn.commit()
        finally:
            conn.close()  # an error: closing rolls back
        if row is None:
            raise RuntimeError("the folder's database has no cics_tasks row (its CICS tables were not created)")
        return int(row[0])


_NUMBERS: dict[tuple[str, str], TaskNumbers] = {}
_MADE = threading.Lock()


def task_number(db: Database) -> int:
    """A new EIBTASKN for a call on `db`'s folder, unique across the servers sharing `db`."""
    with _MADE:
        numbers = _NUMBERS.get((db.kind, db.target))
        if numbers is None:
            numbers = _NUMBERS[(db.kind, db.target)] = TaskNumbers(db)
    return numbers.take()
