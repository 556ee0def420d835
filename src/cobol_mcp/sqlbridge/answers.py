"""Statements run off the server's reply loop: a call waiting for a lock holds up no other call.

The runtime hands each ``CALL 'SQLRT'`` exchange to its call's service on the reply loop's thread. An
:class:`Answerer` (one per runtime) takes it from there: the statement runs on a thread of its pool,
the program's worker waiting as it does for any answer, and the answer (or the failure) goes back to
the runtime on the loop's thread, woken through a pipe the loop watches. So a statement that waits
for another call's lock (SQLite's writer, a PostgreSQL row lock) waits on its own thread while the other
call goes on and commits. A call's statements still run one at a time (its program waits for each).
A statement that cannot wait (:mod:`cobol_mcp.db.quick`: SQLite's reads stopped if they run long, one-row
writes that never wait for a lock) is answered at once on the loop's thread: handing it to a thread and
back costs more than running it.

A call that ends while one of its statements runs (a timeout, a cancellation, a server stopping) is
rolled back by that statement's thread once the statement is done (:meth:`Tracked.end`); a normal end
finds no statement running (the program waited for the last answer) and commits at once.
"""

from __future__ import annotations

import contextlib
import os
import queue
import threading
from collections.abc import Callable
from typing import Any, Protocol


class Answering(Protocol):
    """A call's session: an EXEC SQL program's (:class:`.session.Session`) or a CICS program's (:mod:`.cics`)."""

    def answer(self, exchange: Any) -> list[bytes]: ...

    def end(self, ok: bool) -> None: ...


__all__ = ["Answerer", "Answering", "Tracked", "answerer_for"]

_answerers: dict[int, Answerer] = {}  # id(runtime) -> its answerer (the runtime lives as long as the server)
_made = threading.Lock()


def answerer_for(runtime: Any) -> Answerer:
    """The runtime's answerer, made on first use (its pipe then joins the runtime's loop)."""
    with _made:
        found = _answerers.get(id(runtime))
        if found is None:
            found = _answerers[id(runtime)] = Answerer(runtime)
        return found


class Answerer:
    def __init__(self, runtime: Any) -> None:
        self.runtime = runtime
        self.pool = Pool(max(2, runtime.max_workers))
        self.done: queue.SimpleQueue[tuple[Any, list[bytes] | None, str]] = queue.SimpleQueue()
        self.wake_read, self.wake_write = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
        runtime.loop.add_reader(self.wake_read, self._deliver)

    def ask(self, session: Tracked, exchange: Any) -> None:
        """Run the exchange's statement on a pool thread; its answer reaches the runtime later."""
        self.pool.submit(lambda: self._run(session, exchange))

    def _run(self, session: Tracked, exchange: Any) -> None:
        try:
            self.done.put((exchange, session.run(exchange), ""))
        except Exception as exc:  # the call fails with it; the server carries on
            self.done.put((exchange, None, str(exc) or type(exc).__name__))
        with contextlib.suppress(BlockingIOError):  # a full pipe: the loop is being woken already
            os.write(self.wake_write, b"!")

    def _deliver(self) -> None:
        """On the loop's thread: hand the answers that are ready to the runtime."""
        with contextlib.suppress(BlockingIOError):
            os.read(self.wake_read, 4096)
        while True:
            try:
                exchange, params, error = self.done.get_nowait()
            except queue.Empty:
                break
            if params is not None:
                self.runtime.answer(exchange, params)
            else:
                self.runtime.fail(exchange, error)
        self.runtime.flush()


class Pool:
    """Up to ``most`` threads taking jobs from one queue, each started when a job finds none idle: a hand-off
    is a queue's put and a thread's wake-up (a :class:`concurrent.futures.ThreadPoolExecutor` adds a future,
    a work item and a semaphore's Python-level lock to each, about as long again). Daemon threads: a
    statement still running when the server exits is rolled back by the database as its connection closes."""

    def __init__(self, most: int) -> None:
        self.most, self.started, self.idle = most, 0, 0
        self.jobs: queue.SimpleQueue[Callable[[], object]] = queue.SimpleQueue()
        self.count = threading.Lock()

    def submit(self, job: Callable[[], object]) -> None:
        with self.count:
            start = not self.idle and self.started < self.most
            if start:
                self.started += 1
            else:
                self.idle -= 1  # (below 0: every thread is busy, the job waits for the first one done)
        self.jobs.put(job)
        if start:
            threading.Thread(target=self._serve, name=f"sql-{self.started}", daemon=True).start()

    def _serve(self) -> None:
        while True:
            job = self.jobs.get()
            with contextlib.suppress(Exception):  # (the answerer's jobs catch their own: nothing ends a thread)
                job()
            with self.count:
                self.idle += 1


class Tracked:
    """A :class:`.session.Session` whose statements run on the answerer's threads (see the module)."""

    def __init__(self, session: Answering, answerer: Answerer) -> None:
        self.session, self.answerer = session, answerer
        self.first = getattr(session, "first", None)  # a CICS call's EIB, filled before it starts
        self.in_worker = getattr(session, "in_worker", b"")  # its database work runs in the C worker: the folder token
        self.guard = threading.Lock()
        self.running = False
        self.ended: bool | None = None  # how the call ended while a statement was running
        self.closed = False

    def answer(self, exchange: Any) -> list[bytes] | None:
        """The runtime's service callback: the answer now if the session gives it at once (its ``quick``: a
        statement that cannot wait), else later (None now)."""
        with self.guard:
            if self.closed:
                raise RuntimeError("the call's unit of work has ended")
        quick = getattr(self.session, "quick", None)
        if quick is not None and (params := quick(exchange)) is not None:
            return list(params)
        with self.guard:
            self.running = True
        self.answerer.ask(self, exchange)
        return None

    def run(self, exchange: Any) -> list[bytes]:
        try:
            return self.session.answer(exchange)
        finally:
            with self.guard:
                self.running, ended = False, self.ended
            if ended is not None:
                self.session.end(ended)

    def end(self, ok: bool) -> None:
        """Commit or roll back now, or (a statement still running) once it is done: then always roll back."""
        with self.guard:
            self.closed = True
            if self.running:
                self.ended = False
                interrupt = getattr(self.session, "interrupt", None)  # a CICS DELAY or ENQ gives up waiting
                if interrupt is not None:
                    interrupt()
                return
        self.session.end(ok)
