"""START and RETRIEVE: a transaction started after its starter commits, run by the server as a task of its own.

``START TRANSID(t)`` looks ``t`` up in the folder's transactions (:func:`..db.cics.csd.folder_transactions`:
the application's CSD, ``[transactions]`` of cobol-mcp.toml): TRANSIDERR when it is not one. Otherwise the
request (its program, when it is due, FROM data, RTRANSID, RTERMID, QUEUE) is recorded in the starter's unit
of work (:mod:`..db.cics.starts`): it exists once the starter commits, never if it rolls back. INTERVAL, TIME,
AFTER and AT say when it is due (INVREQ, RESP2 4-6, for a value out of IBM's ranges; TIME within the six hours
before now is now); TERMID is TERMIDERR (the server has no terminals), a SYSID not this server's SYSIDERR.

A :class:`StartRunner` per database runs the due requests, one at a time, each as a new call of its program
(:meth:`..cobol.tool.CobolTool.start_task`): EIBCALEN 0, EIBTRNID the transaction, ASSIGN STARTCODE ``S``
(``SD`` with data), its own unit of work, which its claim of the request commits or rolls back with (see
:mod:`..db.cics.starts`). Its end goes to the server's log; a task that failed (an abend, a runtime error, its
timeout) has its request deleted, one the server abandoned as it stopped keeps it, for the next server.
It wakes when a call that STARTed commits, when a
request falls due, and every :data:`POLL` seconds (another server sharing the database may have recorded one);
its requests wait in the database while no server runs, and run when one starts.

``RETRIEVE`` gives the started task its data once: INTO (LENGERR, the data cut, when it is longer than the
area or LENGTH; LENGTH set to its length) or SET; RTRANSID, RTERMID and QUEUE as the START gave them
(ENVDEFERR for one it did not give); ENDDATA when there is no data (left), as for a task not STARTed.
"""

from __future__ import annotations

import contextlib
import datetime
import os
import queue
import threading
import time
from collections.abc import Mapping
from typing import Any

from .. import log
from ..db.cics.result import Result
from ..db.cics.starts import StartRequest, claim, forget, next_due
from ..db.url import Database
from .cics_task import delay_seconds

__all__ = ["POLL", "StartRunner", "StartedTask", "forget_request", "retrieve", "runner_for", "start_request"]

POLL = 5.0  # seconds between looks at the database for requests another server recorded
TRANSIDERR, TERMIDERR, SYSIDERR, ENDDATA, ENVDEFERR, LENGERR = 28, 11, 53, 29, 56, 22
SYSID = "CMCP"  # this server's (ASSIGN SYSID)


class StartedTask:
    """A started task's request and the connection its claim is open on (its unit of work's; None on SQLite,
    where the task's unit deletes the request as it ends: :func:`..db.cics.starts.claimed`)."""

    def __init__(self, request: StartRequest, conn: Any, db: Database) -> None:
        self.request, self.conn, self.db = request, conn, db
        self.retrieved = False

    @property
    def startcode(self) -> str:
        return "SD" if self.request.data is not None else "S"


def _name(options: Mapping[str, object], option: str) -> str | None:
    value = options.get(option)
    return value.decode("latin-1").rstrip() if isinstance(value, bytes) else None


def start_request(
    options: Mapping[str, object], transactions: Mapping[str, str], now: datetime.datetime
) -> StartRequest | Result:
    """The request a START makes, or its condition."""
    transid = (_name(options, "TRANSID") or "").upper()
    program = transactions.get(transid)
    if program is None:
        return Result(TRANSIDERR, 0)
    if "TERMID" in options:
        return Result(TERMIDERR, 0)
    sysid = _name(options, "SYSID")
    if sysid is not None and sysid.upper() != SYSID:
        return Result(SYSIDERR, 0)
    renamed = {{"AFTER": "FOR", "AT": "UNTIL"}.get(k, k): v for k, v in options.items()}
    wait = delay_seconds(renamed, now) if any(k in options for k in ("INTERVAL", "TIME", "AFTER", "AT")) else 0.0
    if isinstance(wait, Result):
        return wait
    data = options.get("FROM")
    length = options.get("LENGTH")
    if isinstance(data, bytes) and isinstance(length, int):
        if length < 1:
            return Result(LENGERR, 0)
        data = data[:length]
    due = now.timestamp() + wait
    return StartRequest(0, transid, program, due, data if isinstance(data, bytes) else None,
                        _name(options, "RTRANSID"), _name(options, "RTERMID"), _name(options, "QUEUE"))  # fmt: skip


def retrieve(task: StartedTask | None, options: Mapping[str, object]) -> tuple[Result, dict[str, object]]:
    """RETRIEVE in a started task (None: a task not started by START)."""
    if task is None or task.retrieved:
        return Result(ENDDATA, 0), {}
    req = task.request
    given = {"RTRANSID": req.rtransid, "RTERMID": req.rtermid, "QUEUE": req.queue}
    if req.data is None and not any(given.values()):
        return Result(ENDDATA, 0), {}
    task.retrieved = True  # the data is the task's once (CICS releases it at the RETRIEVE)
    sets: dict[str, object] = {name: value for name, value in given.items() if name in options and value is not None}
    result = Result()
    data = req.data or b""
    if "SET" in options:
        sets["SET"] = data
        if "LENGTH" in options:
            sets["LENGTH"] = len(data)
    elif "INTO" in options:
        length, area = options.get("LENGTH"), options.get("INTO")
        room = length if isinstance(length, int) else area if isinstance(area, int) else len(data)
        sets["INTO"] = data[: max(room, 0)]
        if "LENGTH" in options:
            sets["LENGTH"] = len(data)
        if len(data) > room:
            result = Result(LENGERR, 0)
    if result.resp == 0 and any(name in options and value is None for name, value in given.items()):
        result = Result(ENVDEFERR, 0)  # asked for what the START did not give
    return result, sets


class StartRunner:
    """Runs the due START requests of one database, one at a time, on the runtime's loop (see the module)."""

    def __init__(self, runtime: Any, db: Database) -> None:
        self.runtime, self.db = runtime, db
        self.tools: dict[str, Any] = {}  # PROGRAM-ID -> the tool that runs it
        self.wakeup = threading.Event()
        self.idle = threading.Event()  # no started task running
        self.idle.set()
        self.ready: queue.SimpleQueue[Any] = queue.SimpleQueue()  # claimed requests (with their connection), children
        self.read_fd, self.write_fd = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
        runtime.loop.add_reader(self.read_fd, self._deliver)
        self.thread: threading.Thread | None = None
        self.failing = False  # the last look at the database failed

    def serve(self, program_id: str, tool: Any, plain: bool = True) -> None:
        """``tool`` runs ``program_id``'s started tasks (a plain tool rather than a named variant: any runs
        the program alike, with no arguments); the runner starts looking with the first."""
        if plain or program_id.upper() not in self.tools:
            self.tools[program_id.upper()] = tool
        if self.thread is None:
            self.thread = threading.Thread(target=self._look, name="cics-start", daemon=True)
            self.thread.start()

    def launch(self, child: Any) -> None:
        """A RUN TRANSID child (:class:`.cics_async.ChildTask`): run at once, beside the started tasks."""
        self.ready.put(child)
        os.write(self.write_fd, b"c")

    def wake(self) -> None:
        """A call that STARTed committed: look now."""
        self.wakeup.set()

    def _look(self) -> None:
        while True:
            self.idle.wait()
            try:
                claimed = claim(self.db, time.time())
                due = next_due(self.db) if claimed is None else None
            except Exception as exc:  # the database is not there (yet, or any more): look again later
                if not self.failing:  # said once, not every POLL seconds
                    log.warning(f"started tasks: cannot read the requests on {self.db.kind}: {exc}")
                claimed, due, self.failing = None, None, True
            else:
                self.failing = False
            if claimed is not None:
                self.idle.clear()
                self.ready.put(claimed)
                os.write(self.write_fd, b"s")
                continue
            wait = POLL if due is None else min(POLL, max(0.0, due - time.time()))
            self.wakeup.wait(wait)
            self.wakeup.clear()

    def _deliver(self) -> None:
        """On the loop's thread: start the claimed request's task."""
        with contextlib.suppress(BlockingIOError):
            os.read(self.read_fd, 4096)
        while not self.ready.empty():
            item = self.ready.get()
            if not isinstance(item, tuple):
                self._child(item)
                continue
            request, conn = item
            tool = self.tools.get(request.program.upper())
            what = f"started task {request.transid} (program {request.program})"
            if tool is None:
                if conn is not None:
                    conn.close()
                forget(self.db, request.id)
                log.error(f"{what}: its program is not served by this server; not run")
                self._next()
                continue
            task = StartedTask(request, conn, self.db)

            def done(call: Any, what: str = what, task: StartedTask = task) -> None:
                if call.ok:
                    log.info(f"{what} ended normally")
                else:  # its work and its claim rolled back: the request goes on its own, not to be run again
                    log.error(f"{what} failed: {call.error}")
                    forget_request(task)
                self._next()

            try:
                tool.start_task(task, done)
            except Exception as exc:
                if conn is not None:
                    conn.close()
                log.error(f"{what} could not start: {exc}")
                self._next()

    def _child(self, child: Any) -> None:
        """On the loop's thread: a RUN TRANSID child's call started; its end tells the parent."""
        tool = self.tools.get(child.program.upper())
        what = f"child task {child.transid} (program {child.program})"
        if tool is None:
            log.error(f"{what}: its program is not served by this server; abended APCT")
            child.finish(False, "APCT")
            return

        def done(call: Any) -> None:
            abcode = getattr(child.session, "abended", "") or "ASRA"  # no CICS abend: a program check
            if not call.ok:
                log.error(f"{what} failed: {call.error}")
            child.finish(call.ok, abcode)

        try:
            tool.start_task(child, done)
        except Exception as exc:
            log.error(f"{what} could not start: {exc}")
            child.finish(False, "APCT")

    def _next(self) -> None:
        self.idle.set()
        self.wakeup.set()


_RUNNERS: dict[tuple[int, str, str], StartRunner] = {}
_MADE = threading.Lock()


def runner_for(runtime: Any, db: Database) -> StartRunner | None:
    """The runner of ``db``'s requests in this server (None without a loop: ``call`` and ``check`` run none)."""
    if runtime is None or getattr(runtime, "loop", None) is None:
        return None
    key = (id(runtime), db.kind, db.target)
    with _MADE:
        found = _RUNNERS.get(key)
        if found is None:
            found = _RUNNERS[key] = StartRunner(runtime, db)
        return found


def forget_request(task: StartedTask) -> None:
    """The started task abended: its request, whose claim rolled back with its work, is deleted on its own."""
    try:
        forget(task.db, task.request.id)
    except Exception as exc:
        log.error(f"started task {task.request.transid}: its request {task.request.id} could not be deleted: {exc}")
