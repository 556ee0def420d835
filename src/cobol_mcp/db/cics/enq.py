"""ENQ and DEQ: one task's enqueues on named resources, serialised across every call that shares the database.

A resource is a string of 1 to 255 bytes (IBM: ENQ RESOURCE with LENGTH; without LENGTH CICS takes the
data area's address, which means nothing across processes: its bytes are taken here). A task owns a
resource until it has issued as many DEQs as ENQs, or until its unit of work ends (the default scope,
``UOW``/``LUW``: released at SYNCPOINT or SYNCPOINT ROLLBACK too) or the task ends (``TASK`` scope).
A DEQ of a resource the task does not own is ignored, as CICS does.

Where the lock lives:

* PostgreSQL: a session-level advisory lock (``pg_try_advisory_lock``) of the call's own connection,
  keyed by a 64-bit hash of the resource: it serialises calls of every server replica sharing the
  database. It is released by DEQ or at the scope's end (``pg_advisory_unlock``), and with the
  connection when the call ends, whatever way it ends (a server that dies drops its connections).
* SQLite: one server process owns the file, so a lock table of this process, per database file.

A busy resource answers ENQBUSY at once when the caller says so (NOSUSPEND, or an active HANDLE
CONDITION ENQBUSY); otherwise the task waits, polling, until the resource is free or ``stop`` (set when
the call ends: a timeout, a cancellation, the server stopping) says to give up: :class:`Abandoned`.
"""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass, field

from ..unit import Unit
from .result import ENQBUSY, LENGERR, Result

__all__ = ["Abandoned", "Enqueues", "resource_name"]

POLL_SECONDS = 0.05
_LOCAL: dict[tuple[str, bytes], int] = {}  # SQLite: (database file, resource) -> the owning task
_LOCAL_LOCK = threading.Condition()


class Abandoned(Exception):
    """The call ended while its ENQ waited for the resource."""


def resource_name(area: bytes, length: int | None) -> bytes | Result:
    """The resource's bytes (LENGTH of them when given), or LENGERR when the length is not 1 to 255."""
    if length is None:
        length = len(area)
    if not 1 <= length <= 255 or length > len(area):
        return Result(LENGERR, 0)
    return area[:length]


def _key(name: bytes) -> int:
    digest = hashlib.blake2b(b"cobol-mcp ENQ\0" + name, digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


@dataclass
class _Held:
    count: int
    task_scope: bool


@dataclass
class Enqueues:
    """The enqueues of one task (``task``: unique among the server's calls) on ``unit``'s database."""

    unit: Unit
    target: str  # the database, which names the SQLite lock table's entries
    task: int
    held: dict[bytes, _Held] = field(default_factory=dict)

    def enq(self, name: bytes, *, task_scope: bool, wait: bool, stop: threading.Event) -> Result:
        held = self.held.get(name)
        if held is not None:  # owned already: one more DEQ to come
            held.count += 1
            held.task_scope = held.task_scope or task_scope
            return Result()
        while not self._try(name):
            if not wait:
                return Result(ENQBUSY, 0)
            if self.unit.sqlite:
                with _LOCAL_LOCK:
                    _LOCAL_LOCK.wait(POLL_SECONDS)
            if stop.wait(0 if self.unit.sqlite else POLL_SECONDS):
                raise Abandoned("the call ended while ENQ waited for its resource")
        self.held[name] = _Held(1, task_scope)
        return Result()

    def deq(self, name: bytes) -> Result:
        held = self.held.get(name)
        if held is None:
            return Result()  # not owned: ignored
        held.count -= 1
        if held.count <= 0:
            del self.held[name]
            self._release(name)
        return Result()

    def syncpoint(self) -> None:
        """The unit of work ended: its UOW-scope enqueues are released."""
        for name in [n for n, h in self.held.items() if not h.task_scope]:
            del self.held[name]
            self._release(name)

    def end(self) -> None:
        """The task ended: everything it owns is released (PostgreSQL: before its connection closes)."""
        for name in list(self.held):
            del self.held[name]
            self._release(name)

    def _try(self, name: bytes) -> bool:
        if self.unit.sqlite:
            with _LOCAL_LOCK:
                owner = _LOCAL.setdefault((self.target, name), self.task)
                return owner == self.task
        row = self.unit.conn.execute("SELECT pg_try_advisory_lock(%s)", [_key(name)]).fetchone()
        return bool(row[0])

    def _release(self, name: bytes) -> None:
        if self.unit.sqlite:
            with _LOCAL_LOCK:
                if _LOCAL.get((self.target, name)) == self.task:
                    del _LOCAL[(self.target, name)]
                _LOCAL_LOCK.notify_all()
            return
        try:
            self.unit.conn.execute("SELECT pg_advisory_unlock(%s)", [_key(name)])
        except Exception:  # the transaction is aborted or the connection gone: it goes with the connection
            return
