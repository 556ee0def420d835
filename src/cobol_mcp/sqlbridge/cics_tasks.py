"""How a CICS call's task began and the tasks it begins; the terminal it has not.

A call is a tool's task (``ASSIGN STARTCODE`` ``D``), a started task (:mod:`.cics_start`: ``S``/``SD``, its
request's claim on its unit of work) or a RUN TRANSID child (:mod:`.cics_async`: ``U``, a copy of its parent's
channel). :class:`Origin` is one call's view of that, and answers the commands that depend on it (and
:func:`assigned`, what ASSIGN says of the task):

* RECEIVE and SEND (terminal control) and FREE of the principal facility: NOTALLOC, a tool's task having no
  terminal; SEND TEXT and SEND CONTROL (BMS): the task abends ABM3, as CICS abends a BMS request from a task
  that is not terminal-oriented (RESP does not stop an abend);
* START (the request recorded in the call's unit of work), RETRIEVE;
* RUN TRANSID, FETCH CHILD|ANY, FREE CHILD.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any

from ..db.cics.result import Result
from ..db.cics.starts import claimed, record
from .cics_async import Children, ChildTask
from .cics_channels import Channels
from .cics_start import StartedTask, forget_request, retrieve, start_request

__all__ = ["COMMANDS", "NOTALLOC", "Origin", "TaskAbend", "assigned"]

COMMANDS = frozenset({"RECEIVE", "SEND", "SEND TEXT", "SEND CONTROL", "START", "RETRIEVE", "RUN", "FETCH", "FREE"})
NOTALLOC = 61  # a terminal command in a task without one: the facility is not the task's (IBM: RECEIVE, SEND)


def assigned(program: str, linker: str, startcode: str, abcode: str, channel: str) -> dict[str, object]:
    """What ASSIGN answers: the running ``program``, the one that LINKed or XCTLed to it (INVOKINGPROG,
    RETURNPROG), how the task began, the abend a HANDLE ABEND exit was given, the current channel's name, and
    this server's fixed names (no CWA, TWA or TCTUA)."""
    return {
        "PROGRAM": program, "APPLID": "COBOLMCP", "SYSID": "CMCP", "USERID": "CICSUSER", "NETNAME": "COBOLMCP",
        "INVOKINGPROG": linker, "RETURNPROG": linker, "STARTCODE": startcode, "USERNAME": "CICSUSER",
        "ABCODE": abcode, "CHANNEL": channel, "CWALENG": 0, "TWALENG": 0, "TCTUALENG": 0,
    }  # fmt: skip


class TaskAbend(Exception):
    """The command abends the task (the session makes it its CicsAbend, with the command's file:line)."""

    def __init__(self, message: str, abcode: str = "") -> None:
        super().__init__(message)
        self.abcode = abcode


class Origin:
    """One call's task: how it began, the START requests it made, its children (see the module)."""

    def __init__(self, task_number: int) -> None:
        self.started: StartedTask | None = None  # a task the server started (START TRANSID): its request
        self.child: ChildTask | None = None  # a task the server runs for a RUN TRANSID
        self.children = Children(task_number)  # the children this task RUNs
        self.starts = 0  # START requests recorded in the unit of work: the runner looks once it commits

    @property
    def startcode(self) -> str:
        return self.started.startcode if self.started else self.child.startcode if self.child else "D"

    def begin(self, session: Any, task: object) -> bool:
        """``session``'s call is a started task or a child (``task``): its EIB and channel (False: neither)."""
        if isinstance(task, ChildTask):  # a copy of its parent's channel, if any, as its current one
            self.child, task.session = task, session
            session.channels = Channels(task.channel)
            session.eib.calen, session.eib.trnid = 0, task.transid
            return True
        if not isinstance(task, StartedTask):
            return False
        self.started, session.eib.calen, session.eib.trnid = task, 0, task.request.transid
        if session.worker is not None:  # its work is on the worker's own connection: the claim commits now
            if task.conn is not None:
                task.conn.commit()
                task.conn.close()
            else:
                forget_request(task)
        elif task.conn is not None:  # PostgreSQL: the claim's connection is the unit of work's (SQLite: see end)
            conn = task.conn
            session.opener = lambda db: conn
            if session.sql is not None:
                session.sql.opener = session.opener
        return True

    def run(
        self, session: Any, command: str, options: Mapping[str, object], where: str
    ) -> tuple[Result, dict[str, object]]:
        """One of :data:`COMMANDS`; TaskAbend when it abends the task."""
        if command in ("RECEIVE", "SEND") or (command == "FREE" and "CHILD" not in options):
            return Result(NOTALLOC, 0), {}  # a tool's task has no principal facility
        if command in ("SEND TEXT", "SEND CONTROL"):
            raise TaskAbend(f"{where}: task abended with code ABM3: a BMS request from a task that has no terminal",
                            "ABM3")  # fmt: skip
        if command == "RETRIEVE":
            return retrieve(self.started, options)
        if command == "FREE":
            return self.children.free(options), {}
        if command == "FETCH":
            try:
                return self.children.fetch(options, session.channels, session.task.stop)
            except InterruptedError as exc:
                raise TaskAbend(f"{where}: {exc}") from None
        program = session.program
        if command == "RUN":
            if program.runner is None:
                raise TaskAbend(f"{where}: a child task is run by a serving server (stdio or HTTP), not by `call`")
            return self.children.run(options, program.transactions, session.channels, program.runner.launch)
        if "CHANNEL" in options:  # START
            raise TaskAbend(f"{where}: START CHANNEL is not served yet by this server's CICS runtime")
        request = start_request(options, program.transactions, datetime.datetime.now())
        if isinstance(request, Result):
            return request, {}
        record(session.unit(), request)
        self.starts += 1
        return Result(), {}

    def ending(self, session: Any, ok: bool) -> None:
        """Before the unit of work ends: a started task's claim of its request joins it (SQLite: deleted now)."""
        if self.started is not None and session.worker is None and ok:
            unit = session.unit()
            unit.begin() if self.started.conn is not None else claimed(unit, self.started.request.id)

    def ended(self, session: Any, ok: bool, opened: bool) -> None:
        """After it ended (``opened``: it had begun): a claim never adopted closed; due STARTs looked for."""
        if self.started is not None and not ok and self.started.conn is not None and not opened:
            self.started.conn.close()  # never adopted by a unit: the claim rolls back
        if ok and self.starts and session.program.runner is not None:
            session.program.runner.wake()  # its START requests are committed: due ones run now
