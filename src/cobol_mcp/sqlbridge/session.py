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
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from ..cobol import LinkageError
from ..cobol.linkage.storage import read_storage
from ..cobol.precompile.scan import SqlStatement
from ..cobol.records.codec import FieldError, decode_scalar, encode_scalar
from ..db.catalog import Untranslatable, read_catalog
from ..db.errors import SqlError
from ..db.prepare import Plan, prepare_plan
from ..db.unit import Outcome, Sqlca, Unit, connect
from ..db.url import Database
from .hosts import Hosts, Piece, describe

__all__ = ["SQLCA_SIZE", "ServiceError", "Session", "SqlProgram", "load_program", "sqlca_bytes"]

SQLCA_SIZE = 136
# Offsets in DB2's SQLCA (checked against SQLCA_BOOK's layout by the tests)
SQLCODE_AT, SQLERRML_AT, SQLERRMC_AT, SQLERRD_AT, SQLWARN_AT, SQLSTATE_AT = 12, 16, 18, 96, 120, 131
_ERRMC = 70


class ServiceError(Exception):
    """A CALL 'SQLRT' the session cannot serve: the tool call fails with this message."""


@dataclass
class SqlProgram:
    """What a program's SQL needs at every call, read once."""

    database: Database
    plan: Plan
    hosts: dict[int, Hosts]
    statements: list[SqlStatement] = field(default_factory=list)


def load_program(
    source: Path, statements: list[SqlStatement], database: Database, *, shown: str | None = None,
    source_format: str | None = None, include: tuple[Path, ...] = (), dialect: str | None = None,
) -> SqlProgram:  # fmt: skip
    """The program whose precompiled text is ``source`` (its copybooks in ``include``), with the statement
    table ``statements``, prepared for ``database``. ``shown``: the user's file, for messages.
    LinkageError (file:line: reason) for what cannot be served."""
    where = shown or str(source)
    storage = read_storage(source, source_format, include, dialect)
    hosts, rows = describe(statements, storage, where)
    try:
        conn = connect(database)
    except Exception as exc:  # the database cannot be opened: every SQL program of the folder says why
        raise LinkageError(f"{where}:1: the folder's database cannot be opened: {exc}") from None
    try:
        catalog = read_catalog(conn, database.kind)
        plan = prepare_plan(rows, database.kind, catalog)  # type: ignore[arg-type]
    except Untranslatable as exc:
        raise LinkageError(f"{where}:{exc.line}: {exc.reason}") from None
    finally:
        conn.close()
    return SqlProgram(database, plan, hosts, statements)


def sqlca_bytes(old: bytes, ca: Sqlca) -> bytes:
    """The SQLCA ``old`` with the statement's outcome written in."""
    order = sys.byteorder
    buf = bytearray(old)
    buf[SQLCODE_AT : SQLCODE_AT + 4] = ca.sqlcode.to_bytes(4, order, signed=True)
    message = ca.sqlerrm.encode("latin-1", "replace")[:_ERRMC]
    buf[SQLERRML_AT : SQLERRML_AT + 2] = len(message).to_bytes(2, order, signed=True)
    buf[SQLERRMC_AT : SQLERRMC_AT + _ERRMC] = message.ljust(_ERRMC)
    errd = (0, 0, ca.sqlerrd3, 0, 0, 0)
    buf[SQLERRD_AT : SQLERRD_AT + 24] = b"".join(n.to_bytes(4, order, signed=True) for n in errd)
    buf[SQLWARN_AT : SQLWARN_AT + 11] = ca.sqlwarn.encode("ascii", "replace")[:11].ljust(11)
    buf[SQLSTATE_AT : SQLSTATE_AT + 5] = ca.sqlstate.encode("ascii", "replace")[:5].ljust(5, b"0")
    return bytes(buf)


def read_piece(piece: Piece, data: bytes | bytearray) -> object:
    """The value of a host variable the statement reads (SqlError -302/-311 for bytes that are none)."""
    f = piece.field
    if piece.length is not None:
        n, why = decode_scalar(piece.length, bytes(data[piece.offset : piece.offset + piece.length.size]))
        if n is None or not 0 <= n <= f.size:
            raise SqlError(-311, "22501", f"the length of VARCHAR {piece.name} is {n if n is not None else why}, "
                                          f"not 0 to {f.size}")  # fmt: skip
        return bytes(data[piece.text_offset : piece.text_offset + int(n)]).decode("latin-1")
    raw = bytes(data[piece.offset : piece.offset + f.size])
    if f.category in ("numeric", "float"):
        value, why = decode_scalar(f, raw)
        if value is None:
            raise SqlError(-302, "22023", f"host variable {piece.name}: {why}")
        return value
    return raw.decode("latin-1")


def write_piece(piece: Piece, buf: bytearray, value: object) -> int | None:
    """Store ``value`` into the host variable; the length before the cut when text was cut, else None."""
    f = piece.field
    if piece.length is not None or f.category not in ("numeric", "float"):
        text = value if isinstance(value, str) else str(value)
        data = text.encode("latin-1", "replace")
        cut = len(data) if len(data) > f.size else None
        data = data[: f.size]
        if piece.length is not None:
            length = encode_scalar(piece.length, Decimal(len(data)))
            buf[piece.offset : piece.offset + len(length)] = length
            buf[piece.text_offset : piece.text_offset + len(data)] = data
        else:
            buf[piece.offset : piece.offset + f.size] = data.ljust(f.size)
        return cut
    try:
        number = value if isinstance(value, Decimal | int) else Decimal(str(value).strip())
        number = Decimal(number)
        if f.category == "numeric" and -number.as_tuple().exponent > f.scale:  # type: ignore[operator]
            number = number.quantize(Decimal(1).scaleb(-f.scale), ROUND_DOWN)  # DB2 cuts the fraction
    except (InvalidOperation, TypeError, ValueError):
        raise SqlError(-303, "42806", f"{value!r} cannot be stored in numeric host variable {piece.name}") from None
    try:
        data = encode_scalar(f, number)
    except FieldError:
        raise SqlError(-304, "22003", f"{number} does not fit host variable {piece.name} (PIC {f.pic})") from None
    buf[piece.offset : piece.offset + f.size] = data
    return None


class Session:
    """One tool call's SQL: its statements in one unit of work (see the module)."""

    def __init__(self, program: SqlProgram, opener: Any = connect) -> None:
        self.program = program
        self.opener = opener
        self.unit: Unit | None = None

    def service(self, number: int, params: list[bytes]) -> list[bytes]:
        hosts = self.program.hosts.get(number)
        if hosts is None:
            raise ServiceError(f"CALL 'SQLRT' with statement number {number}, which the program does not have")
        sizes = [SQLCA_SIZE, *hosts.sizes]
        if [len(p) for p in params] != sizes:
            raise ServiceError(f"CALL 'SQLRT' for statement {number}: parameters of {[len(p) for p in params]} "
                               f"bytes, expected {sizes}")  # fmt: skip
        bufs = [bytearray(p) for p in params[1:]]
        try:
            values = {name: read_piece(hosts.pieces[name], bufs[hosts.pieces[name].param]) for name in hosts.reads}
        except SqlError as exc:
            return [sqlca_bytes(params[0], Sqlca(exc.sqlcode, exc.sqlstate, 0, " " * 11, exc.message)), *params[1:]]
        if self.unit is None:
            self.unit = Unit(self.program.plan, self.opener(self.program.database))
        outcome = self.unit.execute(number, values)
        try:
            self._store(hosts, outcome, bufs)
        except SqlError as exc:
            return [sqlca_bytes(params[0], Sqlca(exc.sqlcode, exc.sqlstate, 0, " " * 11, exc.message)), *params[1:]]
        return [sqlca_bytes(params[0], outcome.sqlca), *map(bytes, bufs)]

    def _store(self, hosts: Hosts, outcome: Outcome, bufs: list[bytearray]) -> None:
        cuts: dict[str, int] = {}
        for name, value in outcome.sets.items():
            piece = hosts.pieces.get(name)
            if piece is None:
                raise ServiceError(f"statement {hosts.number} sets {name}, which its CALL does not pass")
            cut = write_piece(piece, bufs[piece.param], value)
            if cut is not None:
                outcome.sqlca.warn(1)
                cuts[name] = cut
        for name, length in cuts.items():  # DB2: the indicator of a cut string holds its length before the cut
            indicator = hosts.indicators.get(name)
            if indicator is not None:
                piece = hosts.pieces[indicator]
                write_piece(piece, bufs[piece.param], length)

    def end(self, ok: bool) -> None:
        """Commit (the program ended normally) or roll back (the call failed); nothing when no SQL ran."""
        unit, self.unit = self.unit, None
        if unit is not None:
            unit.end(ok)
