"""A translated EXEC CICS program as the server serves it: one :class:`CicsSession` per tool call.

The program's ``CALL 'CICSRT'`` exchanges (:mod:`.cics_eib`: the EIB, the descriptor, the options'
parameters) are answered here. At the call's start :meth:`CicsSession.first` fills the EIB the tool
passes (EIBCALEN the COMMAREA's length, EIBDATE/EIBTIME, EIBTRNID, EIBTASKN unique per call across
the servers sharing the database: :mod:`..db.cics.tasks`). Each command then: file control, TS/TD
queues and named counters through :func:`..db.cics.dispatch.run` on the call's unit of work (one
:class:`..db.unit.Unit`, on the folder's database, created at the first command that needs it; a
program with EXEC SQL too shares its SQL session's unit, so statements, records, queue items and
counters commit and roll back together); HANDLE CONDITION / IGNORE CONDITION / PUSH / POP HANDLE kept
per call; ASKTIME, FORMATTIME (the date and time options), ASSIGN (the names this server knows);
SYNCPOINT [ROLLBACK]; RETURN (the program GOBACKs: the call ends normally, and :meth:`CicsSession.end`
commits); ABEND (the call fails with the abend code, the unit of work rolls back), unless HANDLE ABEND
LABEL set a label: the program goes there once (ASSIGN ABCODE says which abend), as CICS's exit does.
A condition other than NORMAL sets RESP/RESP2 when given (or is dropped with NOHANDLE), else goes to
its HANDLE CONDITION label (the answer in DFHEIGDI), else is ignored when IGNOREd, else abends the
task with CICS's AEIx code.

LINK and XCTL: the worker's CICSRT resolves the program by name (the folder's modules) and says
whether it could (PGMIDERR when not); when the command goes on, the answer starts a new level and
is its EIB (EIBCALEN the LENGTH or the COMMAREA's size; its own HANDLE table and HANDLE ABEND), the
worker calls the program with a copy of it. When it has returned, the worker restores the caller's
EIB itself and says so with the next exchange (the levels ended, in the number's high bits), or at
once (``=LINK END``) when an abend is going down to a HANDLE ABEND: the level is dropped, the
caller's EIB answered. All levels share the call's unit of work. An abend at a level goes to the
nearest HANDLE ABEND LABEL of a level below (each level between GOBACKs, the answer -1), else fails
the task. XCTL: the caller GOBACKs after it (the translator), and its HANDLE ABEND no longer applies.

Channels and containers (:mod:`.cics_channels`): the task's, in memory and outside the unit of work;
a LINK or XCTL with CHANNEL gives the new level that channel as its current one, and the level's own
channels go when it ends. A channel-style tool hands :meth:`CicsSession.first` its channel.

GETMAIN/FREEMAIN, SET's data, ENQ/DEQ, DELAY and FORMATTIME: :mod:`.cics_task`. ADDRESS: the translator sets
the pointers (the EIB's and the COMMAREA's address are the program's own parameters); the runtime answers.
A call that ends while a command waits (ENQ, DELAY) is told through :meth:`CicsSession.interrupt`. A
call whose database work runs in the C worker (:mod:`.cics_worker`): file control and SYNCPOINT's
commit are the worker's, a condition it raised is routed here, its SQLPLAN exchanges answered at once.

HANDLE ABEND PROGRAM is a HANDLE ABEND LABEL of a paragraph the translator adds, which LINKs to the
program (ASSIGN ABCODE in it gives the abend) and GOBACKs. Terminal commands, START/RETRIEVE and RUN/FETCH/
FREE CHILD, and how the task began (a tool call, a started task, a child): :mod:`.cics_tasks`.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any

from ..db.cics import dispatch
from ..db.cics.enq import Abandoned, Enqueues
from ..db.cics.fct import DatasetDef
from ..db.cics.resources import Resources
from ..db.cics.result import CicsFailure, Result
from ..db.cics.tasks import task_number
from ..db.prepare import Plan
from ..db.unit import Unit
from ..db.url import Database
from .cics_channels import COMMANDS as CHANNEL_COMMANDS
from .cics_channels import Channel, ChannelNotServed, Channels
from .cics_eib import COMMANDS_EIBFN, EIB_SIZE, Descriptor, Eib, Handles, decode, parse_descriptor, store
from .cics_task import ABSTIME_EPOCH, TaskControl, delay_seconds, formattime, storage_answer
from .cics_tasks import COMMANDS as TASK_COMMANDS
from .cics_tasks import Origin, TaskAbend, assigned
from .cics_worker import RAISED, CicsWorker, raised
from .session import Session, unit_connection

__all__ = ["SERVED", "CicsAbend", "CicsProgram", "CicsSession"]

# The commands this runtime answers (the others the translator carries fail the call that reaches them)
SERVED = dispatch.COMMANDS | {
    "HANDLE CONDITION", "IGNORE CONDITION", "PUSH HANDLE", "POP HANDLE", "RETURN", "SYNCPOINT", "ABEND",
    "ASKTIME", "FORMATTIME", "ASSIGN", "HANDLE ABEND", "LINK", "XCTL", "GETMAIN", "FREEMAIN", "ENQ", "DEQ",
    "DELAY", "ADDRESS",
} | CHANNEL_COMMANDS | TASK_COMMANDS  # fmt: skip

ENDED_SHIFT = 20  # a CICSRT exchange's number above these bits: LINKed levels that returned (worker_services.c)


class CicsAbend(Exception):
    """The task abended: the tool call fails with this message, its unit of work rolled back."""

    def __init__(self, message: str, abcode: str = "") -> None:
        super().__init__(message)
        self.abcode = abcode


class CicsProgram:
    """What every call of one program needs: its name, its file, its folder's database and datasets."""

    def __init__(self, program_id: str, original: str, database: Database, fct: Mapping[str, DatasetDef],
                 transactions: Mapping[str, str] | None = None, runner: Any = None) -> None:  # fmt: skip
        self.program_id, self.original, self.database, self.fct = program_id, original, database, fct
        self.transactions = transactions or {}  # TRANSID -> PROGRAM (.cics_start)
        self.runner = runner  # the server's runner of started tasks on this database (None: none here)


class CicsSession:
    """One tool call of a CICS program (see the module)."""

    def __init__(
        self, program: CicsProgram, opener: Any = None, sql: Session | None = None, worker: CicsWorker | None = None
    ) -> None:
        self.program = program
        self.opener = opener or unit_connection
        self.sql = sql  # a program with EXEC SQL too: its statements and commands share one unit of work
        self.worker = worker  # the call's database work runs in the C worker (.cics_worker)
        self.in_worker = worker.in_worker if worker is not None else b""  # (the call frame's folder token)
        self.resources: Resources | None = None
        self.handles = Handles()
        self.eib = Eib(0, task_number(program.database))  # unique across replicas
        self.abstime: int | None = None
        self.abend_label: int | None = None  # HANDLE ABEND LABEL: where an abend goes (once)
        self.abend_cancelled: int | None = None  # kept by HANDLE ABEND CANCEL for RESET
        self.abcode = ""  # the abend a HANDLE ABEND label was given (ASSIGN ABCODE)
        self.levels: list[tuple[int, Handles, int | None, int | None, str, str]] = []  # the LINKers' state
        self.running = program.program_id  # the program of this level (ASSIGN PROGRAM)
        self.pending: tuple[int, bool, str] | None = None  # a LINK/XCTL answered: EIBCALEN, XCTL, program
        self.unwinding = ""  # an abend going down to a HANDLE ABEND label of a level below
        self.channels = Channels()  # the task's channels and containers (.cics_channels)
        self.task = TaskControl()  # GETMAIN's worker count, ENQs, the event that ends a wait
        self.given = b""  # the data of the SET command being answered: its slot, then its bytes
        self.origin = Origin(self.eib.task)  # a started task's request, a child's, the children (.cics_tasks)
        self.abended = ""  # the abend that ended the task (a child's ABCODE)

    def interrupt(self) -> None:
        """The call is ending (a timeout, a cancellation, the server stopping): a waiting command gives up."""
        self.task.stop.set()

    def first(self, buffers: list[bytes], channel: object = None) -> list[bytes]:
        """The call's records with the EIB (the first) filled: EIBCALEN the COMMAREA's (the second) length;
        ``channel``: a channel-style tool's channel (a :class:`.cics_channels.Channel`), the program's current one."""
        if self.origin.begin(self, channel):  # a started task or a child: no COMMAREA
            return [self.eib.fill(buffers[0]), *buffers[1:]]
        if isinstance(channel, Channel):
            self.channels = Channels(channel)
            self.eib.calen = 0  # no COMMAREA: the request is in the channel's containers
            return [self.eib.fill(buffers[0]), *buffers[1:]]
        self.eib.calen = len(buffers[1]) if len(buffers) > 1 else 0
        return [self.eib.fill(buffers[0]), *buffers[1:]]

    def quick(self, exchange: Any) -> list[bytes] | None:  # a plan, the commit's go-ahead: at once (.cics_worker)
        return self.worker.answer(exchange) if self.worker is not None and exchange.service == "SQLPLAN" else None

    def answer(self, exchange: Any) -> list[bytes]:
        if exchange.service == "SQLRT" and self.sql is not None:  # any level's: the worker says whose
            return self.sql.answer(exchange)
        if (done := self.quick(exchange)) is not None:
            return done
        if exchange.service != "CICSRT":
            raise CicsAbend(f"the program CALLed {exchange.service}, which a CICS program is not served")
        params: list[bytes] = exchange.params
        if len(params) < 2:
            raise CicsAbend("CALL 'CICSRT' without the EIB and a command descriptor")
        for _ in range(exchange.number >> ENDED_SHIFT):  # LINKed levels that returned since the last exchange
            self._end_level(params[0])
        if params[1].startswith(b"0;=LINK ENDED"):
            return params
        if params[1].startswith(b"0;=LINK END"):
            return [self._end_level(params[0]), params[1]]
        condition = raised(params[1]) if params[1].startswith(RAISED) else None  # by a command the worker ran
        desc = condition[0] if condition is not None else parse_descriptor(params[1])
        try:
            try:
                self.given = b""
                answer = self._raised(desc, condition[1], params) if condition else self._command(desc, params)
                if self.given:  # a SET command's data goes after the parameters (the worker's worker_storage.c)
                    exchange.more, self.given = self.given, b""
                return answer
            except CicsFailure as exc:
                message = f"{self._where(desc)}: task abended with code {exc.abcode}: {exc.message}"
                raise CicsAbend(message, exc.abcode) from None
        except CicsAbend as exc:
            self.abended = exc.abcode or "????"
            if self.abend_label is None and exc.abcode and any(level[2] is not None for level in self.levels):
                self.unwinding = exc.abcode  # to a LINKer's HANDLE ABEND: this level GOBACKs
                return [self.eib.fill(params[0], answer=-1), *params[1:]]
            if self.abend_label is None or not exc.abcode:
                raise
            label, self.abend_label = self.abend_label, None  # CICS cancels the exit as it takes it
            self.abcode = exc.abcode
            fn = COMMANDS_EIBFN.get(desc.command, 0)
            return [self.eib.fill(params[0], fn=fn, answer=label), *params[1:]]

    def _start_level(self) -> None:
        """A LINKed (or XCTLed) program starts: its own EIBCALEN, HANDLE table and HANDLE ABEND."""
        assert self.pending is not None
        calen, xctl, name = self.pending
        self.pending = None
        label = None if xctl else self.abend_label  # an XCTLing program does not resume
        self.levels.append((self.eib.calen, self.handles, label, self.abend_cancelled, self.abcode, self.running))
        self.eib.calen, self.handles, self.abend_label, self.abend_cancelled = calen, Handles(), None, None
        self.running = name
        self.channels.enter()

    def _end_level(self, eib: bytes) -> bytes:
        """A LINKed (or XCTLed) program has returned: the caller's EIB, or its way on an abend."""
        if not self.levels:
            raise CicsAbend("a LINK level ended that did not start")
        self.eib.calen, self.handles, self.abend_label, self.abend_cancelled, self.abcode, self.running = (
            self.levels.pop()
        )
        self.channels.leave()
        answer = 0
        if self.unwinding:
            if self.abend_label is None:
                answer = -1  # on down to the next level's HANDLE ABEND
            else:
                answer, self.abend_label = self.abend_label, None
                self.abcode, self.unwinding = self.unwinding, ""
        return self.eib.fill(eib, fn=COMMANDS_EIBFN["LINK"], answer=answer)

    def _link(self, desc: Descriptor, options: dict[str, object], eib: bytes) -> Result:
        """LINK/XCTL: PGMIDERR when the worker could not resolve the program, else the level to come."""
        raw = options.get("PROGRAM", b"")
        name = raw.decode("latin-1").strip() if isinstance(raw, bytes) else ""
        if eib[20:22] != b"\0\1":
            return Result(27, 3)  # PGMIDERR: no such program can be called
        length, area = options.get("LENGTH"), options.get("COMMAREA")
        calen = length if isinstance(length, int) else len(area) if isinstance(area, bytes) else 0
        self.pending = (calen, desc.command == "XCTL", name)
        return Result()

    def _where(self, desc: Descriptor) -> str:
        return f"{self.program.original}:{desc.line}: {desc.command}"

    def _command(self, desc: Descriptor, params: list[bytes]) -> list[bytes]:
        options, where = decode(desc, params[2:])
        eib = bytearray(params[0].ljust(EIB_SIZE, b"\0"))
        bufs: list[bytes | bytearray] = [eib, *params[1:]]  # a parameter becomes a bytearray when set
        fn = COMMANDS_EIBFN.get(desc.command, 0)
        if desc.command in ("LINK", "XCTL"):
            result, sets = self.channels.link(options), dict[str, object]()
            if result.resp == 0:
                result = self._link(desc, options, params[0])
        elif desc.command in ("GETMAIN", "FREEMAIN"):
            result, sets = storage_answer(desc.command, options, params[0], self.task), {}
        elif desc.command in ("ENQ", "DEQ"):
            result, sets = self._enq(desc, options, "RESP" in where), {}
        else:
            result, sets = self._run(desc, options)
        if isinstance(data := sets.pop("SET", None), bytes):  # to the worker's storage (.cics_task)
            self.given = self.task.give(desc.command, options, data, params[0], self.channels.current_name())
        for name, value in sets.items():
            store(bufs, where, name, value)
        answer = 0
        if result.resp != 0 and "RESP" not in where and "NOHANDLE" not in options:
            answer = self._route(desc, result)
        for name, value in (("RESP", result.resp), ("RESP2", result.resp2)):
            if name in where:
                store(bufs, where, name, value)
        if self.pending is not None and result.resp == 0:  # LINK/XCTL: the answer is the callee's EIB
            self._start_level()
            self.eib.put(eib)
            return [bytes(b) for b in bufs]
        self.pending = None
        self.eib.put(eib, fn=fn, resp=result.resp, resp2=result.resp2, answer=answer)
        return [bytes(b) for b in bufs]

    def _route(self, desc: Descriptor, result: Result) -> int:
        """Where a condition neither RESP nor NOHANDLE takes goes: a label's index, 0 on, or the task abends."""
        route = self.handles.route(result.resp)
        if isinstance(route, str):
            raise CicsAbend(f"{self._where(desc)}: task abended with code {route}: condition "
                            f"{self.handles.name(result.resp)} (RESP2 {result.resp2}) not handled", route)  # fmt: skip
        return route

    def _raised(self, desc: Descriptor, result: Result | CicsFailure, params: list[bytes]) -> list[bytes]:
        """A condition of a command the worker ran: routed, and the EIB set, as :meth:`_command` does."""
        if isinstance(result, CicsFailure):
            raise result
        eib, fn, answer = bytearray(params[0]), COMMANDS_EIBFN.get(desc.command, 0), self._route(desc, result)
        self.eib.put(eib, fn=fn, resp=result.resp, resp2=result.resp2, answer=answer)
        return [bytes(eib), params[1]]

    def unit(self) -> Unit:
        """The call's unit of work (opened now if it is not yet)."""
        return self._resources().unit

    def _resources(self) -> Resources:
        if self.resources is None:
            db = self.program.database
            # the SQL session's unit of work (made here if no statement ran yet), if the call has one
            unit = self.sql.open_unit(db) if self.sql is not None else Unit(Plan(db.kind, {}), self.opener(db))
            self.resources = Resources(unit, self.program.fct, self.program.program_id)
        return self.resources

    def _run(self, desc: Descriptor, options: dict[str, object]) -> tuple[Result, dict[str, object]]:
        command = desc.command
        if command in dispatch.COMMANDS:
            if self.worker is not None:  # run in the worker: only WRITEQ TD to a log queue comes here
                return self.worker.run(command, options, self._where(desc), self.program.program_id)
            return dispatch.run(self._resources(), command, options)
        if command in CHANNEL_COMMANDS:
            try:
                return self.channels.run(command, options)
            except ChannelNotServed as exc:
                raise CicsAbend(f"{self._where(desc)}: {exc}") from None
        if command in TASK_COMMANDS:
            try:
                return self.origin.run(self, command, options, self._where(desc))
            except TaskAbend as exc:
                raise CicsAbend(str(exc), exc.abcode) from None
        if command == "HANDLE CONDITION":
            self.handles.handle(desc)
        elif command == "IGNORE CONDITION":
            self.handles.ignore(desc)
        elif command == "PUSH HANDLE":
            self.handles.push()
        elif command == "POP HANDLE":
            if not self.handles.pop():
                return Result(16, 1), {}  # INVREQ: no PUSH HANDLE to pop
        elif command == "RETURN":
            pass  # the program GOBACKs: the call ends, and its unit of work commits
        elif command == "SYNCPOINT":  # (run in the worker: committed or rolled back there)
            if self.worker is None:
                self._resources().syncpoint("ROLLBACK" in options)
            if self.task.enqueues is not None:
                self.task.enqueues.syncpoint()
        elif command == "ABEND":
            code = options.get("ABCODE", b"    ")
            text = code.decode("latin-1").strip() if isinstance(code, bytes) else str(code)
            raise CicsAbend(f"{self._where(desc)}: task abended with code {text or '(none)'}", text or "????")
        elif command == "HANDLE ABEND":
            self._handle_abend(desc)
        elif command == "ASKTIME":
            return Result(), {"ABSTIME": self._abstime(True)}
        elif command == "FORMATTIME":
            given = options.get("ABSTIME")  # (else the task's: its start, or the last ASKTIME)
            return formattime(given if isinstance(given, int) else self._abstime(False), options)
        elif command == "ASSIGN":
            return Result(), self._assign(options)
        elif command == "DELAY":
            wait = delay_seconds(options, datetime.datetime.now())
            if isinstance(wait, Result):
                return wait, {}
            if wait > 0 and self.task.stop.wait(wait):
                raise CicsAbend(f"{self._where(desc)}: the call ended during the DELAY")
        elif command == "ADDRESS":  # the translator set EIB's and COMMAREA's; NULL where there is none
            none = [name for name in ("ACEE", "CWA", "TCTUA", "TWA") if name in options]
            return Result(), {name: bytes(8) for name in none + (["COMMAREA"] if self.eib.calen == 0 else [])}
        else:
            raise CicsAbend(f"{self._where(desc)}: not served yet by this server's CICS runtime")
        return Result(), {}

    def _handle_abend(self, desc: Descriptor) -> None:
        given = {name: label for name, label, _ in desc.options}
        if "LABEL" in given or "EXIT" in given:  # EXIT: the paragraph that LINKs to HANDLE ABEND's PROGRAM
            self.abend_label = given.get("LABEL", given.get("EXIT"))
        elif "CANCEL" in given:
            self.abend_cancelled, self.abend_label = self.abend_label, None
        elif "RESET" in given:
            self.abend_label = self.abend_cancelled

    def _abstime(self, now: bool) -> int:
        if now or self.abstime is None:
            moment = datetime.datetime.now()
            delta = moment - ABSTIME_EPOCH
            self.abstime = delta.days * 86_400_000 + delta.seconds * 1000 + delta.microseconds // 1000
            if now:  # ASKTIME: EIBDATE and EIBTIME say its moment from now on (IBM: ASKTIME updates them)
                self.eib.stamp(moment)
        return self.abstime

    def _enq(self, desc: Descriptor, options: dict[str, object], resp: bool) -> Result:
        """ENQ/DEQ on the call's database; ENQBUSY at once with NOSUSPEND or an active HANDLE CONDITION ENQBUSY."""
        if self.task.enqueues is None:
            unit = self._resources().unit
            self.task.enqueues = Enqueues(unit, self.program.database.target, self.eib.task)
        handled = not resp and "NOHANDLE" not in options and self.handles.active.get("ENQBUSY", 0) > 0
        try:
            return self.task.enq(desc.command, options, handled)
        except Abandoned as exc:
            raise CicsAbend(f"{self._where(desc)}: {exc}") from None

    def _assign(self, options: dict[str, object]) -> dict[str, object]:
        linker = self.levels[-1][5] if self.levels else ""  # the program that LINKed (or XCTLed) to this one
        known = assigned(self.running, linker, self.origin.startcode, self.abcode, self.channels.current_name())
        return {name: value for name, value in known.items() if name in options}

    def end(self, ok: bool) -> None:
        """Commit (the program ended normally) or roll back (an abend or any failure)."""
        self.origin.ending(self, ok)
        resources, self.resources = self.resources, None
        enqueues, self.task.enqueues = self.task.enqueues, None
        try:
            self._end_unit(resources, ok)
        finally:
            if enqueues is not None:  # after the unit's end, as CICS frees them at the syncpoint's end
                enqueues.end()
            opened = resources is not None or (self.sql is not None and self.sql.unit is not None)
            self.origin.ended(self, ok, opened)

    def _end_unit(self, resources: Resources | None, ok: bool) -> None:
        if self.sql is not None:  # one unit of work: ended once, by the SQL session
            if resources is not None:
                resources.files.syncpoint()
            self.sql.end(ok)
        elif resources is not None:
            resources.end(ok)
