"""A precompiled program's SQL against its folder's database, and one tool call's session of it.

:func:`load_program` reads what a program's statements need once, when the program is loaded: its
data items (from the precompiled source), each statement's host variables (:mod:`.hosts`) and the plan
translated against the database's catalog (:func:`cobol_mcp.db.prepare.prepare_plan`); a statement it
cannot translate refuses the program with file:line and the reason.

:class:`Session` is one tool call. :meth:`Session.service` is the handler of a ``CALL 'SQLRT'``: the
statement's number and the parameters' bytes (the SQLCA, then each host variable as
:func:`..cobol.precompile.generate.passed` lists it) in, the same parameters' new bytes out. It decodes
the host variables the statement reads with the codec (a PIC X host variable as its full text, a
VARCHAR as its first length bytes), executes the statement in the call's unit of work, opened at the
first statement, and stores what the statement sets: text padded with spaces or cut (SQLWARN1 set,
and the indicator given the length before the cut, as DB2 does), numbers exact, their fraction cut to
the item's decimals (-304 when the whole part does not fit), indicators -1 for NULL. The SQLCA gets
SQLCODE, SQLERRM (length and text), SQLERRD (rows in the third), SQLWARN0-A and SQLSTATE at the
offsets of DB2's layout (:data:`..cobol.precompile.generate.SQLCA_BOOK`). :meth:`Session.end` commits
after a normal end of the program (whatever its RETURN-CODE) and rolls back after any failure.
A call that cannot be served (an unknown statement, parameters of the wrong size) raises
:class:`ServiceError`, which fails the tool call.

A call runs the statements of every program it reaches (subprograms CALLed, CICS programs LINKed) in
its one unit of work. Statement numbers are each program's own: the runtime entry tells which program
runs before a statement of another one (:data:`PROGRAM_NUMBER`, the caller's PROGRAM-ID as its one
parameter), and the session then answers with that program's plan, found among the folder's programs
(``folder``: PROGRAM-ID, upper case, to its :class:`SqlProgram`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..cobol import LinkageError
from ..cobol.linkage.storage import read_storage
from ..cobol.precompile.scan import SqlStatement
from ..db.catalog import Table, Untranslatable, read_catalog
from ..db.errors import SqlError
from ..db.prepare import Plan, StatementRow, prepare_plan
from ..db.quick import quickly
from ..db.unit import BUSY_TIMEOUT_MS, Sqlca, Unit, connect
from ..db.url import Database
from .ahead import Ahead, encode
from .hosts import Hosts, describe
from .values import SQLCA_SIZE, SQLCODE_AT, Reader, ServiceError, Writer, reader, sqlca_bytes, writer

if TYPE_CHECKING:
    from ..cobol.prepare.entries import SqlOptions

__all__ = ["PROGRAM_NUMBER", "ServiceError", "Session", "SqlProgram", "load_program"]

PROGRAM_NUMBER = -1  # a CALL 'SQLRT' whose one parameter names the program whose statements follow


@dataclass
class SqlProgram:
    """What a program's SQL needs at every call, read once."""

    database: Database
    plan: Plan
    hosts: dict[int, Hosts]
    statements: list[SqlStatement] = field(default_factory=list)
    # per statement: its hosts, (name, parameter, reader) of what it reads, name -> (parameter, writer)
    codecs: dict[int, tuple[Hosts, list[tuple[str, int, Reader]], dict[str, tuple[int, Writer]]]] = field(
        default_factory=dict
    )

    def __post_init__(self) -> None:
        for number, h in self.hosts.items():
            reads = [(name, h.pieces[name].param + 1, reader(h.pieces[name])) for name in h.reads]
            writes = {name: (p.param + 1, writer(p)) for name, p in h.pieces.items()}
            self.codecs[number] = (h, reads, writes)


def load_program(
    source: Path, statements: list[SqlStatement], database: Database, *, shown: str | None = None,
    source_format: str | None = None, include: tuple[Path, ...] = (), dialect: str | None = None,
    options: SqlOptions | None = None,
) -> SqlProgram:  # fmt: skip
    """The program whose precompiled text is ``source`` (its copybooks in ``include``), with the statement
    table ``statements``, prepared for ``database``. ``shown``: the user's file, for messages.
    LinkageError (file:line: reason) for what cannot be served."""
    where = shown or str(source)
    storage = read_storage(source, source_format, include, dialect)
    hosts, rows = describe(statements, storage, where)
    catalog: dict[str, Table] = {}
    # A program that runs no statement (INCLUDE SQLCA only), or a SQLite file not made yet (no
    # `db apply`: no tables), needs no catalog: the database is not opened, nor created, at load.
    if hosts and not (database.kind == "sqlite" and not Path(database.target).exists()):
        try:
            conn = connect(database)
        except Exception as exc:  # the database cannot be opened: every SQL program of the folder says why
            raise LinkageError(f"{where}:1: the folder's database cannot be opened: {exc}") from None
        try:
            catalog = read_catalog(conn, database.kind)
        finally:
            conn.close()
    try:
        table: list[StatementRow] = list(rows)
        given = options or {"qualifier": "", "date": "ISO", "time": "ISO"}
        plan = prepare_plan(table, database.kind, catalog, given["qualifier"], (given["date"], given["time"]))
    except Untranslatable as exc:
        raise LinkageError(f"{where}:{exc.line}: {exc.reason}") from None
    return SqlProgram(database, plan, hosts, statements)


def unit_connection(db: Database) -> Any:
    """A call's connection. PostgreSQL waits for a row lock as long as SQLite waits for the writer's lock
    (:data:`cobol_mcp.db.unit.BUSY_TIMEOUT_MS`), then the statement fails with -913, as DB2's timeout
    does: a statement waits inside the server's reply loop, so it must not wait for ever."""
    conn = connect(db)
    if db.kind == "postgresql":
        conn.execute(f"SET lock_timeout = {BUSY_TIMEOUT_MS}")
        conn.commit()
    return conn


class Session:
    """One tool call's SQL: its statements in one unit of work (see the module). ``program``: the called
    program's, None for a program without EXEC SQL (a CICS program LINKing to one with it)."""

    def __init__(
        self, program: SqlProgram | None, opener: Any = None, folder: Mapping[str, SqlProgram] | None = None
    ) -> None:
        self.program = self.current = program
        self.opener = opener or unit_connection
        self.folder = folder or {}
        self.unit: Unit | None = None
        self.ahead: Ahead | None = None  # FETCHes sent ahead, which the worker reports at its next request
        # per cursor (of a program): the FETCHes answered since its OPEN that read ahead
        self.rounds: dict[tuple[int, str], int] = {}

    def open_unit(self, database: Database) -> Unit:
        """The call's unit of work, opened now if no statement ran yet (CICS file control shares it)."""
        if self.unit is None:
            plan = self.current.plan if self.current is not None else Plan(database.kind, {})
            self.unit = Unit(plan, self.opener(database))
        return self.unit

    def _switch(self, params: list[bytes]) -> list[bytes]:
        """The statements that follow are the named program's (see the module)."""
        name = params[0].split(b"\0")[0].decode("latin-1").strip() if params else ""
        found = self.folder.get(name.upper())
        if found is None:
            raise ServiceError(f"EXEC SQL in program {name or '(unnamed)'}, which is not a served EXEC SQL "
                               "program of this folder")  # fmt: skip
        self.current = found
        return params

    def answer(self, exchange: Any) -> list[bytes]:
        """The runtime's service callback: an :class:`..cobol.runtime.pool.Exchange` of a CALL 'SQLRT'.
        A FETCH of a read-only cursor is answered with the next rows too (:mod:`.ahead`), when the
        exchange can carry them (``exchange.more``: the C worker's)."""
        params = self._answer(exchange, False)
        assert params is not None
        return params

    def quick(self, exchange: Any) -> list[bytes] | None:
        """The answer at once, for a statement that cannot wait (:mod:`cobol_mcp.db.quick`), or None (it has
        done nothing): then :meth:`answer` it off the reply loop."""
        if self.unit is None or not self.unit.sqlite or exchange.service != "SQLRT":
            return None  # (PostgreSQL: every statement waits on the network)
        return self._answer(exchange, True)

    def _answer(self, exchange: Any, quick: bool) -> list[bytes] | None:
        if exchange.service != "SQLRT":
            raise ServiceError(f"the program CALLed {exchange.service}, which an EXEC SQL program is not served")
        number = exchange.number
        if self.ahead is not None:
            ahead, self.ahead = self.ahead, None
            number = exchange.number = ahead.consumed(self.unit, number)  # (told once, if asked twice)
            if number == 0:  # the worker's report alone, before another service's request
                return list(exchange.params)
        params = self._serve(number, exchange.params, quick)
        program = self.current  # (whose statement it was: a PROGRAM_NUMBER exchange switches to it)
        p = program.plan.statements.get(number) if program is not None and number != PROGRAM_NUMBER else None
        if params is None or p is None or p.kind not in ("FETCH", "OPEN") or self.unit is None:
            return params
        assert program is not None
        name = p.name or ""
        key = (id(program), name)  # (two programs may each have a cursor of one name)
        if p.kind == "OPEN":
            self.rounds[key] = 0
        elif hasattr(exchange, "more") and params[0][SQLCODE_AT : SQLCODE_AT + 4] == b"\0\0\0\0":
            rounds = self.rounds[key] = self.rounds.get(key, 0) + 1
            self.ahead = Ahead.read(self.unit, number, name, program.codecs[number], params, rounds - 1)
            exchange.more = self.ahead.frame if self.ahead is not None else b""
        return params

    def service(self, number: int, params: list[bytes]) -> list[bytes]:
        """Statement ``number`` with its CALL's ``params``: their new bytes (see the module)."""
        out = self._serve(number, params, False)
        assert out is not None
        return out

    def _serve(self, number: int, params: list[bytes], quick: bool) -> list[bytes] | None:
        if number == PROGRAM_NUMBER:
            return self._switch(params)
        program = self.current
        codecs = program.codecs.get(number) if program is not None else None
        if codecs is None:
            raise ServiceError(f"CALL 'SQLRT' with statement number {number}, which the program does not have")
        hosts, reads, writes = codecs
        sizes = [SQLCA_SIZE, *hosts.sizes]
        if len(params) != len(sizes) or any(len(p) != n for p, n in zip(params, sizes, strict=True)):
            raise ServiceError(f"CALL 'SQLRT' for statement {number}: parameters of {[len(p) for p in params]} "
                               f"bytes, expected {sizes}")  # fmt: skip
        try:
            values = {name: read(params[param]) for name, param, read in reads}
        except SqlError as exc:
            return [sqlca_bytes(params[0], Sqlca(exc.sqlcode, exc.sqlstate, 0, " " * 11, exc.message)), *params[1:]]
        assert program is not None
        unit = self.open_unit(program.database)
        unit.use(program.plan)
        outcome = quickly(unit, number, values) if quick else unit.execute(number, values)
        if outcome is None:
            return None
        if not outcome.sets:
            return [sqlca_bytes(params[0], outcome.sqlca), *params[1:]]
        return encode(hosts, writes, outcome, params)

    def end(self, ok: bool) -> None:
        """Commit (the program ended normally) or roll back (the call failed); nothing when no SQL ran."""
        unit, self.unit, self.ahead = self.unit, None, None
        if unit is not None:
            unit.end(ok)
