"""The data directory's gate: one writer, or any number of readers, at a time, across every process.

Run units that open a data directory's files take its lock for their whole life: exclusive for a
program that writes a file (OUTPUT, EXTEND, I-O), shared for one that only reads, so a reader never
sees a file half rewritten and two writers never interleave. The lock is ``flock`` on
:data:`LOCK_NAME` in the data directory (the directory itself where that file cannot be made), so
every server on the machine that serves the directory (stdio servers, ``--workers`` processes) waits
for the same lock, and the kernel releases it when its holder dies, however it dies.

Inside one process the gate keeps its callers in arrival order: a reader that arrives behind a queued
writer waits behind it (no writer is starved by a stream of readers of the same process). The loop
never waits for the lock: a non-blocking try first, and only when another process holds it, one thread
per gate waits for it and hands it to the loop through a pipe registered with ``add_reader``. A queued
caller can be cancelled; a lock taken for callers that were all cancelled meanwhile is given back.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import threading
from collections import deque
from collections.abc import Callable
from typing import Protocol

__all__ = ["LOCK_NAME", "Gate", "Waiter", "gate_for"]

LOCK_NAME = ".cobol-mcp.lock"


class ReaderLoop(Protocol):
    def add_reader(self, fd: int, callback: Callable[[], object]) -> None: ...

    def remove_reader(self, fd: int) -> bool: ...


class Waiter:
    """One caller of the gate: ``launch`` runs when the gate admits it; it then calls
    :meth:`Gate.leave` once (when its run unit has ended, or at once if it could not start)."""

    def __init__(self, launch: Callable[[], object], shared: bool) -> None:
        self.launch = launch
        self.shared = shared
        self.cancelled = False


class Gate:
    def __init__(self, directory: str, loop: ReaderLoop) -> None:
        self.directory = directory
        self._loop = loop
        self.waiting: deque[Waiter] = deque()
        self.holders = 0  # callers of this process admitted and not yet left
        self.shared = False  # the mode this process holds the lock in, while holders > 0
        self._fd: int | None = None  # the open lock file while this process holds the lock
        self._acquiring = False  # a thread is waiting for the lock for the head of the queue

    @property
    def busy(self) -> bool:
        return self.holders > 0 or self._acquiring

    def enter(self, waiter: Waiter) -> None:
        if not self.waiting and not self._acquiring:
            if self.holders and self.shared and waiter.shared:
                self._admit(waiter)
                return
            if not self.holders:
                self.waiting.append(waiter)
                self._advance()
                return
        self.waiting.append(waiter)

    def leave(self) -> None:
        self.holders -= 1
        if self.holders:
            return
        self._release()
        self._advance()

    def _admit(self, waiter: Waiter) -> None:
        self.holders += 1
        waiter.launch()

    def _advance(self) -> None:
        """With the lock free in this process: take it for the head of the queue, or wait for it."""
        while self.waiting and self.waiting[0].cancelled:
            self.waiting.popleft()
        if not self.waiting or self.holders or self._acquiring:
            return
        shared = self.waiting[0].shared
        fd = self._open()
        if fd is None:  # the directory cannot be opened: the run unit reports its own error
            self._granted(None, shared)
            return
        try:
            fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
        except BlockingIOError:
            self._wait(fd, shared)
            return
        except OSError:
            pass  # a file system without locks: the in-process order still holds
        self._granted(fd, shared)

    def _granted(self, fd: int | None, shared: bool) -> None:
        self._fd = fd
        self.shared = shared
        self.holders += 1  # held while the admitted callers start
        while self.waiting:
            waiter = self.waiting[0]
            if waiter.cancelled:
                self.waiting.popleft()
                continue
            if waiter.shared != shared or (not shared and self.holders > 1):
                break
            self.waiting.popleft()
            self._admit(waiter)
        self.leave()

    def _wait(self, fd: int, shared: bool) -> None:
        """Another process holds the lock: a thread waits for it and wakes the loop through a pipe."""
        self._acquiring = True
        wake_read, wake_write = os.pipe2(os.O_CLOEXEC)

        def blocked() -> None:
            with contextlib.suppress(OSError):
                fcntl.flock(fd, fcntl.LOCK_SH if shared else fcntl.LOCK_EX)
            os.write(wake_write, b"!")
            os.close(wake_write)

        def woken() -> None:
            self._loop.remove_reader(wake_read)
            os.close(wake_read)
            self._acquiring = False
            self._granted(fd, shared)

        self._loop.add_reader(wake_read, woken)
        threading.Thread(target=blocked, name="cobol-data-lock", daemon=True).start()

    def _open(self) -> int | None:
        try:
            return os.open(os.path.join(self.directory, LOCK_NAME), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o666)
        except OSError:
            pass
        try:  # a directory this user cannot write: lock the directory itself
            return os.open(self.directory, os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            return None

    def _release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)  # closing the only descriptor of the open file releases its flock


_GATES: dict[tuple[str, int], Gate] = {}


def gate_for(directory: str, loop: ReaderLoop) -> Gate:
    """The gate of `directory` for the runtime of `loop` (one per real path and loop: two servers in one
    process exclude each other through the lock as two processes do)."""
    path = os.path.realpath(directory)
    gate = _GATES.get((path, id(loop)))  # the gate keeps its loop alive, so the id stays its own
    if gate is None:
        gate = _GATES[path, id(loop)] = Gate(path, loop)
    return gate
