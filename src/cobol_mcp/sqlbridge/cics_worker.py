"""A CICS call's database work run in the C worker: which folders can, and what the worker asks the server.

A CICS command answered by the server costs a round trip between the worker and the server (tens of
microseconds on a busy machine, about a hundred on an idle one), where SQLite reads a record by key in
one or two. So, as EXEC SQL does (:mod:`.inworker`), a folder's CICS calls run their database work in
the worker itself (``worker_cics.h``: file control, TS and TD queues and named counters, with the
semantics of :mod:`cobol_mcp.db.cics`), on the connection their EXEC SQL statements run on there: those
commands, SQL and SYNCPOINT are one unit of work on one connection, committed when the program has
returned and the server has said the call is still on, rolled back by any end of the worker (an abend,
a runtime error, a timeout, a cancellation). The server still answers every other command (HANDLE,
LINK, ASSIGN, ABEND …), fills the EIB at the call's start, and routes a condition the worker raised
that the program neither takes with RESP nor ignores with NOHANDLE (``=CONDITION``): its HANDLE table
says where the program goes, or the task abends; an abend the worker met (``=ABEND``: AFCV, a record
lock not granted) ends the task as the server's own would. WRITEQ TD to CSMT or CSSL, a line of the
server's log and no database work, is still the server's (:meth:`CicsWorker.run`).

A folder runs so (:func:`why_not` gives the first reason it cannot) when its EXEC SQL can (every
statement of its programs has a plan: :func:`.inworker.folder_plans`), the C worker runs its calls (on
PostgreSQL: with libpq), ``COBOL_MCP_SQL_IN_WORKER`` is not ``0``, and its CICS programs use neither
ENQ/DEQ (PostgreSQL's advisory locks or this process's lock table: the server's), START (its request is
recorded in the server's unit of work) nor SET or TOKEN on a resource command: a call's database work must
all be on one side.

A dataset's plan (:func:`dataset_plan`, asked with SQLPLAN number :data:`FILE_PLAN`; little-endian):
``<B found><B organization><I min length><I max length><I key length><I key offset>``, the dataset's
name and the database's path, each ``<H length>`` and UTF-8.
"""

from __future__ import annotations

import struct
from collections.abc import Mapping
from typing import Any

from ..cobol.precompile.cics import CicsCommand
from ..cobol.precompile.cics_table import COMMANDS
from ..db.cics.dispatch import COMMANDS as RESOURCE_COMMANDS
from ..db.cics.fct import DatasetDef
from ..db.cics.queues import write_log
from ..db.cics.result import CicsFailure, Result
from ..db.url import Database
from .cics_eib import Descriptor
from .inworker import WorkerSession, folder_plans, has_libpq, in_worker_allowed, turned_off
from .session import SqlProgram
from .values import ServiceError

__all__ = ["FILE_PLAN", "RAISED", "CicsWorker", "dataset_plan", "raised", "why_not"]

FILE_PLAN = -2  # an SQLPLAN exchange's number: a dataset's definition (worker_cicsfile.c)
RAISED = b"0;="  # a CICSRT exchange's descriptor: =CONDITION or =ABEND the worker raised, for routing
_IN_WORKER = {name: frozenset({"SET", "TOKEN"}) for name in RESOURCE_COMMANDS}  # all of them, not with these
_KNOWN = {name: frozenset(COMMANDS[name].options) | {"RESP", "RESP2", "NOHANDLE"} for name in RESOURCE_COMMANDS}
_ORGANIZATIONS = {"ksds": 0, "esds": 1, "rrds": 2}


def _command_why(cmd: CicsCommand) -> str | None:
    if cmd.name in ("ENQ", "DEQ", "START"):  # START: its request is recorded in the server's unit of work
        return f"line {cmd.line}: {cmd.name} (the server's)"
    if cmd.name not in RESOURCE_COMMANDS:
        return None
    refused = _IN_WORKER.get(cmd.name)
    if refused is None:
        return f"line {cmd.line}: {cmd.name} (the server's)"
    given = set(cmd.options) - _KNOWN[cmd.name] | refused & set(cmd.options)
    if given:
        return f"line {cmd.line}: {cmd.name} {' '.join(sorted(given))} (the server's)"
    return None


def why_not(
    runtime: Any, database: Database, programs: Mapping[str, list[CicsCommand]], sql: Mapping[str, SqlProgram]
) -> str | None:
    """Why a folder's CICS calls cannot run their database work in the worker (None: they can); ``programs``:
    its CICS programs' commands by PROGRAM-ID, ``sql``: its EXEC SQL programs."""
    if turned_off():
        return "COBOL_MCP_SQL_IN_WORKER=0"
    if not in_worker_allowed(runtime):
        return "not the C worker"
    if database.kind != "sqlite" and not has_libpq():
        return "no libpq (PostgreSQL's client library) for the worker"
    plans = folder_plans(sql)
    if isinstance(plans, str):
        return plans
    for name, commands in sorted(programs.items()):
        for cmd in commands:
            why = _command_why(cmd)
            if why is not None:
                return f"{name} {why}"
    return None


def dataset_plan(defn: DatasetDef | None, database: Database) -> bytes:
    """What the worker needs of FILE's definition (None: the FCT does not define it)."""
    name = (defn.name if defn is not None else "").encode()
    target = database.target.encode()
    head = struct.pack("<BBIIII", defn is not None, *(
        (_ORGANIZATIONS[defn.organization], defn.min_length, defn.max_length, defn.key_length, defn.key_offset)
        if defn is not None else (0, 0, 0, 0, 0)))  # fmt: skip
    return head + struct.pack("<H", len(name)) + name + struct.pack("<H", len(target)) + target


class CicsWorker:
    """The SQLPLAN exchanges of one CICS call whose database work runs in the worker: datasets' plans,
    the EXEC SQL statements' plans, the commit's go-ahead (:class:`.inworker.WorkerSession`)."""

    def __init__(self, sql: Mapping[str, SqlProgram], fct: Mapping[str, DatasetDef], database: Database) -> None:
        plans = folder_plans(sql)
        assert isinstance(plans, dict)
        self.session = WorkerSession(sql, plans)
        self.in_worker = self.session.in_worker  # the call frame's folder token
        self.fct, self.database = fct, database

    def run(
        self, command: str, options: Mapping[str, object], where: str, program: str
    ) -> tuple[Result, dict[str, object]]:
        """A resource command that reached the server all the same: WRITEQ TD to a log queue (no database)."""
        queue, data, length = options.get("QUEUE", b""), options.get("FROM", b""), options.get("LENGTH")
        assert isinstance(queue, bytes) and isinstance(data, bytes)
        logged = write_log(queue, data[:length] if isinstance(length, int) else data, program) if (
            command == "WRITEQ TD") else None  # fmt: skip
        if logged is None:  # (the folder's check saw every command: not reached)
            raise ServiceError(f"{where}: this call's database work runs in the COBOL worker, and this command not")
        return logged, {}

    def answer(self, exchange: Any) -> list[bytes]:
        params = list(exchange.params)
        if exchange.number != FILE_PLAN or len(params) != 1:
            return self.session.answer(exchange)
        if exchange.service != "SQLPLAN":
            raise ServiceError(f"the program CALLed {exchange.service} for a dataset's plan")
        file = params[0].decode("latin-1").strip().upper()
        exchange.more = dataset_plan(self.fct.get(file), self.database)
        return params


def raised(raw: bytes) -> tuple[Descriptor, Result | CicsFailure]:
    """``0;=CONDITION;line;command;resp;resp2`` or ``0;=ABEND;line;command;code;text``: the command (its line,
    no options) and the condition, or the abend."""
    _, what, line, command, first, rest = raw.decode("latin-1").rstrip(" \0").split(";", 5)
    desc = Descriptor(int(line), command)
    if what == "=ABEND":
        return desc, CicsFailure(first, rest)
    if what != "=CONDITION":
        raise ValueError(f"not a CICS command descriptor: {raw[:60]!r}")
    return desc, Result(int(first), int(rest))
