"""EXEC SQL on SQLite run in the C worker itself: each statement's plan, and the session of a call that runs so.

A statement answered by the server costs a round trip between the worker and the server and the codec's
work in Python on top of the driver's; on SQLite, where the driver's own work is a microsecond or two,
that is ten to thirty times the statement. So where it can, the C worker (``worker_sql.c``) opens the
folder's SQLite database itself and runs the statements of a call on its own connection, with the same
DB2 semantics as :mod:`cobol_mcp.db.unit` gives: it asks the server once per statement for its *plan*
(:func:`statement_plan`: the translated SQL, which host-variable bytes it reads and how each becomes the
driver's value, which it sets and how, as :mod:`.values` and :mod:`cobol_mcp.db.values` do it), and
keeps it for the worker's life.

A call runs so when every EXEC SQL program its folder has can (:func:`folder_plans`: a call may reach any
of them through CALL), its database is SQLite, the runtime runs the C worker, and
``COBOL_MCP_SQL_IN_WORKER`` is not ``0``. What cannot run in the worker keeps the whole folder on the
server's way: dynamic SQL, scrollable cursors, FETCH other than NEXT, TIME and TIMESTAMP host
variables, a DATE or TIME returned in a format other than ISO, host variables of other USAGEs than
DISPLAY, COMP-3, COMP/BINARY and COMP-5 numbers and PIC X text.

One tool call is still one unit of work. The worker begins the transaction at the first statement, as
the server would; when the program has returned normally it asks the server (:class:`WorkerSession`)
whether the call may still commit (it may not once the call timed out or was cancelled: no answer comes
and the worker is killed, which rolls the transaction back, as does any death of the worker). An abend,
a runtime error, STOP RUN or a signal ends the worker with the transaction open: SQLite rolls it back.

Plan layout (little-endian; ``str`` is ``<H length>`` and Latin-1 bytes, the SQL is ``<I length>`` UTF-8):
``<B op><B flags><H cursor slot><H CURRENT OF slot><H parameters><I size>...``, the database path, the
cursor's name, the CURRENT OF cursor's name, the SQL, ``<H reads>`` pieces, ``<H binds>``
``<h value><h indicator value><B column kind><H column scale or length>``..., ``<H outputs>``
``piece <B has indicator> [piece] <B column kind><H column scale or length>``...; a piece is
``<B class><B signed><B sign leading><B sign separate><B digits><b scale><B truncated><B length size>
<B length native><B length signed><H parameter><I offset><I size><I text offset>`` its name and PICTURE.
"""

from __future__ import annotations

import contextlib
import os
import re
import struct
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..cobol.records.items import beyond_double
from ..db.catalog import Column
from ..db.expr import HostRef
from ..db.prepare import DECLARATIVE
from .hosts import Hosts, Piece
from .session import SqlProgram
from .values import SQLCA_SIZE, ServiceError, sqlca_bytes

__all__ = [
    "IN_WORKER_ENV", "NotInWorker", "WorkerSession", "folder_plans", "has_libpq", "in_worker_allowed",
    "statement_plan", "turned_off",
]  # fmt: skip

IN_WORKER_ENV = "COBOL_MCP_SQL_IN_WORKER"  # "0": every statement goes to the server

OP_NONE, OP_INTO, OP_CHANGE, OP_OPEN, OP_FETCH, OP_CLOSE, OP_COMMIT, OP_ROLLBACK = range(8)
F_HOLD, F_ROWID, F_NOTFOUND, F_DML, F_DELETE, F_SAVE = 1, 2, 4, 8, 16, 32  # flags
FETCH_ROWS = 100  # PostgreSQL: rows a read-only cursor's FETCH brings at once (db.unit's fetchmany)
_PLACEHOLDER = re.compile(r"%(%|s)")  # psycopg's: %s a parameter, %% a percent sign
TEXT, VARCHAR, DISPLAY, PACKED, BINARY, NATIVE = range(1, 7)  # piece classes
COL_NONE, COL_DECIMAL, COL_CHAR, COL_VARCHAR, COL_DATE = range(5)
DECIMAL_VALUE = 2  # a number piece's "truncated" byte: bit 1 says the server reads it as a Decimal, not an int
NO_SLOT = 0xFFFF
_DML = re.compile(r"\s*(INSERT|UPDATE|DELETE|REPLACE)\b", re.I)  # what the driver counts rows of
_NUMBER_USAGES = {"display": DISPLAY, "comp-3": PACKED, "binary": BINARY, "comp-5": NATIVE}
_PIECE = struct.Struct("<7B3BHIII")


class NotInWorker(Exception):
    """A statement that the worker cannot run itself (the reason)."""


def _str(text: str) -> bytes:
    data = text.encode("latin-1", "replace")
    return struct.pack("<H", len(data)) + data


def _piece(p: Piece) -> bytes:
    f = p.field
    head: tuple[int, ...]
    if p.length is not None:
        n = p.length
        if f.category not in ("alphanumeric", "alphabetic") or n.usage not in ("binary", "comp-5") or n.scale:
            raise NotInWorker(f"VARCHAR {p.name} of a kind the worker does not read")
        head = (VARCHAR, 0, 0, 0, 0, 0, 0, n.size, n.usage == "comp-5", n.signed, p.param, p.offset, f.size,
                p.text_offset)  # fmt: skip
    elif f.category in ("alphanumeric", "alphabetic") and not (f.encoding or f.any_length or f.alternatives):
        head = (TEXT, 0, 0, 0, 0, 0, 0, 0, 0, 0, p.param, p.offset, f.size, 0)
    elif f.category == "numeric" and f.usage in _NUMBER_USAGES and f.picture is not None:
        pic = f.picture
        plain = not (f.native or f.encoding or f.any_length or f.alternatives or f.blank_when_zero)
        if not plain or pic.nines != pic.digits or not 0 <= pic.scale <= 6 or pic.nines > 18:
            raise NotInWorker(f"host variable {p.name} (PIC {f.pic}) is not read by the worker")
        decimal = DECIMAL_VALUE if pic.scale > 0 or beyond_double(f) else 0  # (sqlbridge.values.reader)
        head = (_NUMBER_USAGES[f.usage], f.signed, f.sign_leading, f.sign_separate, pic.nines, pic.scale,
                f.truncated | decimal, 0, 0, 0, p.param, p.offset, f.size, 0)  # fmt: skip
    else:
        raise NotInWorker(f"host variable {p.name} (PIC {f.pic}, {f.usage}) is not read by the worker")
    return _PIECE.pack(*head) + _str(p.name) + _str(f.pic or "")


def _column(column: Column | None, text: bool, sqlite: bool = True) -> bytes:
    if column is None:
        return struct.pack("<BH", COL_NONE, 0)
    if column.type == "DECIMAL" and not sqlite:  # PostgreSQL's NUMERIC: the value itself, no scaled integer
        return struct.pack("<BH", COL_NONE, 0)
    if column.type == "DECIMAL":
        if text and column.scale > 6:
            raise NotInWorker(f"DECIMAL column {column.name} of scale {column.scale} into text")
        return struct.pack("<BH", COL_DECIMAL, column.scale)
    if column.type == "CHAR" and column.length:
        return struct.pack("<BH", COL_CHAR, column.length)
    if column.type == "VARCHAR" and column.length and text:
        return struct.pack("<BH", COL_VARCHAR, column.length)
    if column.type in ("TIME", "TIMESTAMP") and text:
        raise NotInWorker(f"a {column.type} value from a host variable")
    if column.type == "DATE" and text:  # any of DB2's forms, stored as ISO (db.dates; worker_sqldate.c)
        return struct.pack("<BH", COL_DATE, 0)
    return struct.pack("<BH", COL_NONE, 0)


def _is_text(p: Piece) -> bool:
    return p.length is not None or p.field.category != "numeric"


def _reads(hosts: Hosts) -> tuple[bytes, dict[str, int]]:
    index = {name: k for k, name in enumerate(hosts.reads)}
    return struct.pack("<H", len(hosts.reads)) + b"".join(_piece(hosts.pieces[n]) for n in hosts.reads), index


def _binds(refs: list[HostRef], hosts: Hosts, index: dict[str, int], sqlite: bool) -> bytes:
    out = [struct.pack("<H", len(refs))]
    for ref in refs:
        if ref.name.startswith("ROWID OF "):
            out.append(struct.pack("<hh", -1, -1) + _column(None, False))
            continue
        if ref.name not in index or (ref.indicator and ref.indicator not in index):
            raise NotInWorker(f"host variable {ref.name} is not read by its statement")
        if ref.indicator:
            ind = hosts.pieces[ref.indicator].field
            if ind.category != "numeric" or ind.scale:
                raise NotInWorker(f"indicator {ref.indicator} is not a whole number")
        value = index[ref.name]
        indicator = index[ref.indicator] if ref.indicator else -1
        text = _is_text(hosts.pieces[ref.name])
        out.append(struct.pack("<hh", value, indicator) + _column(ref.column, text, sqlite))
    return b"".join(out)


def _outputs(
    refs: list[HostRef], columns: list[Column | None], hosts: Hosts, sqlite: bool, formats: tuple[str, str]
) -> bytes:
    out = [struct.pack("<H", len(refs))]
    for k, ref in enumerate(refs):
        piece = hosts.pieces.get(ref.name)
        if piece is None:
            raise NotInWorker(f"host variable {ref.name} is not passed")
        column = columns[k] if k < len(columns) else None
        shown = formats[column.type == "TIME"] if column is not None and column.type in ("DATE", "TIME") else "ISO"
        if shown != "ISO" and not (shown == "JIS" and column is not None and column.type == "DATE"):
            raise NotInWorker(f"a {column.type if column else ''} returned in the {shown} format")
        entry = _piece(piece)
        if ref.indicator:
            indicator = hosts.pieces.get(ref.indicator)
            if indicator is None or hosts.indicators.get(ref.name, ref.indicator) != ref.indicator:
                raise NotInWorker(f"indicator {ref.indicator} is not passed")
            entry += b"\1" + _piece(indicator)
        else:
            entry += b"\0"
        out.append(entry + _column(column, _is_text(piece), sqlite))
    return b"".join(out)


def statement_plan(program: SqlProgram, number: int) -> bytes:
    """Statement ``number``'s plan for the worker (see the module), or NotInWorker with the reason."""
    plan = program.plan
    p = plan.statements.get(number)
    hosts = program.hosts.get(number)
    if p is None or hosts is None:
        raise NotInWorker(f"no statement {number}")
    slots = {name: k for k, name in enumerate(sorted(plan.cursors))}
    sqlite = plan.target == "sqlite"
    op, flags, slot, current, sql = OP_NONE, 0, NO_SLOT, NO_SLOT, ""
    cursor_name = current_name = ""
    reads, index = _reads(hosts)
    binds, outputs = struct.pack("<H", 0), struct.pack("<H", 0)
    kind = p.kind
    if kind in DECLARATIVE or kind == "DECLARE CURSOR":
        pass
    elif kind in ("COMMIT", "ROLLBACK"):
        op = OP_COMMIT if kind == "COMMIT" else OP_ROLLBACK
    elif kind in ("OPEN", "FETCH", "CLOSE"):
        declare = plan.cursors.get(p.name or "")
        if declare is None or declare.statement is not None or declare.scroll or declare.translation is None:
            raise NotInWorker(f"cursor {p.name} is dynamic, scrollable or not declared")
        slot, cursor_name = slots[p.name or ""], p.name or ""
        flags |= F_HOLD if declare.hold else 0
        sql = declare.translation.sql
        if declare.updatable and sql.startswith("SELECT ") and not sql.startswith("SELECT DISTINCT"):
            sql, flags = ("SELECT rowid, " if sqlite else "SELECT ctid, ") + sql[7:], flags | F_ROWID
        # PostgreSQL: a cursor of the session, named for this program's (db.unit declares it so too)
        pg_name = f"cobol_mcp_{p.name or ''}_{id(program):x}".lower().replace("-", "_")
        if kind == "OPEN":
            op, binds = OP_OPEN, _binds(declare.translation.params, hosts, index, sqlite)
            if not sqlite:
                update = " FOR UPDATE" if declare.updatable and not declare.hold else ""  # (refused WITH HOLD)
                hold = " WITH HOLD" if declare.hold else ""
                sql, flags = f"DECLARE {pg_name} NO SCROLL CURSOR{hold} FOR {sql}{update}", flags | F_SAVE
        elif kind == "FETCH":
            if p.orientation != ("NEXT", None, None) or p.translation is None:
                raise NotInWorker(f"FETCH {p.orientation[0]}")
            rows = 1 if declare.updatable else FETCH_ROWS
            op, sql = OP_FETCH, "" if sqlite else f"FETCH FORWARD {rows} FROM {pg_name}"
            outputs = _outputs(p.translation.outputs, declare.columns, hosts, sqlite, plan.formats)
        else:
            op, sql = OP_CLOSE, "" if sqlite else f"CLOSE {pg_name}"
    elif kind in ("PREPARE", "EXECUTE", "EXECUTE IMMEDIATE") or p.translation is None:
        raise NotInWorker(f"{kind} (dynamic SQL)")
    else:
        t = p.translation
        sql = t.sql
        op = OP_INTO if t.outputs else OP_CHANGE
        flags |= F_NOTFOUND if kind.split()[0] in ("UPDATE", "DELETE", "INSERT", "EXECUTE") else 0
        flags |= F_DML if _DML.match(sql) else 0
        flags |= F_DELETE if kind.split()[0] == "DELETE" else 0
        if t.current_of is not None:
            if t.current_of not in slots:
                raise NotInWorker(f"cursor {t.current_of} is not declared")
            current, current_name = slots[t.current_of], t.current_of
        flags |= F_SAVE if kind.split()[0] in ("INSERT", "UPDATE", "DELETE", "EXECUTE") else 0
        binds = _binds(t.params, hosts, index, sqlite)
        outputs = _outputs(t.outputs, p.columns, hosts, sqlite, plan.formats)
    if not sqlite:  # psycopg's placeholders as PostgreSQL's own: $1, $2 …
        count = iter(range(1, 1 << 16))
        sql = _PLACEHOLDER.sub(lambda m: "%" if m.group(1) == "%" else f"${next(count)}", sql)
    sizes = [SQLCA_SIZE, *hosts.sizes]
    target = program.database.target
    database = (os.path.abspath(target) if sqlite else target).encode()
    sql_bytes = sql.encode()
    return b"".join([
        struct.pack("<BBHHH", op, flags, slot, current, len(sizes)), struct.pack(f"<{len(sizes)}I", *sizes),
        struct.pack("<H", len(database)), database, _str(cursor_name), _str(current_name),
        struct.pack("<I", len(sql_bytes)), sql_bytes, reads, binds, outputs,
    ])  # fmt: skip


# id(folder) -> (the folder, its plans or why none, its token: the folder's number for the worker, from 1)
_folders: dict[int, tuple[Mapping[str, SqlProgram], dict[int, dict[int, bytes]] | str, bytes]] = {}


def _kept(
    folder: Mapping[str, SqlProgram],
) -> tuple[Mapping[str, SqlProgram], dict[int, dict[int, bytes]] | str, bytes]:
    kept = _folders.get(id(folder))
    if kept is None or kept[0] is not folder:
        token = (len(_folders) % 0xFFFF + 1).to_bytes(2, "little")
        kept = _folders[id(folder)] = (folder, _folder_plans(folder), token)
    return kept


def folder_plans(folder: Mapping[str, SqlProgram]) -> dict[int, dict[int, bytes]] | str:
    """Every statement's plan of the folder's programs (by ``id`` of the program), or why they cannot all
    run in the worker (the first reason found); worked out once per folder."""
    return _kept(folder)[1]


def _folder_plans(folder: Mapping[str, SqlProgram]) -> dict[int, dict[int, bytes]] | str:
    if any(program.database.kind != "sqlite" for program in folder.values()) and not has_libpq():
        return "no libpq (PostgreSQL's client library) for the worker"
    plans: dict[int, dict[int, bytes]] = {}
    for name, program in folder.items():
        if id(program) in plans:
            continue
        try:
            plans[id(program)] = {number: statement_plan(program, number) for number in program.hosts}
        except NotInWorker as exc:
            return f"{name}: {exc}"
    return plans


def has_libpq() -> bool:
    """Whether the worker can load PostgreSQL's client library (libpq.so.5, as worker_pg.c opens it): found
    where the dynamic loader looks (LD_LIBRARY_PATH, the folders of /etc/ld.so.conf.d, the usual ones)."""
    folders = [p for p in os.environ.get("LD_LIBRARY_PATH", "").split(":") if p]
    for conf in sorted(Path("/etc/ld.so.conf.d").glob("*.conf")):
        with contextlib.suppress(OSError):
            folders += [line.strip() for line in conf.read_text().splitlines() if line.strip().startswith("/")]
    folders += ["/lib", "/usr/lib", "/lib64", "/usr/lib64", "/usr/local/lib"]
    return any((Path(folder) / "libpq.so.5").exists() for folder in folders)


def turned_off() -> bool:
    """Whether ``COBOL_MCP_SQL_IN_WORKER=0`` sends every statement to the server."""
    return os.environ.get(IN_WORKER_ENV, "1") == "0"


def in_worker_allowed(runtime: Any) -> bool:
    """Whether this runtime's calls may run their SQL in the worker: the C worker, not turned off."""
    return runtime is not None and getattr(runtime, "worker", None) is not None and not turned_off()


class WorkerSession:
    """One tool call whose statements the C worker runs itself: the server gives plans, allows the commit,
    and reads host variables the worker found no value in (for DB2's -302 text). Nothing to end: the
    worker commits, or its end rolls back."""

    def __init__(self, folder: Mapping[str, SqlProgram], plans: dict[int, dict[int, bytes]]) -> None:
        self.folder, self.plans = folder, plans
        # the call frame's folder token (worker.h, kind 4): the worker keeps plans per folder, since two
        # folders may each have a program of one name
        self.in_worker = _kept(folder)[2]

    def answer(self, exchange: Any) -> list[bytes]:
        if exchange.service != "SQLPLAN":
            raise ServiceError(f"the program CALLed {exchange.service}, which the worker's SQL is not served")
        params = list(exchange.params)
        if not params:  # the program returned: the unit may commit (a call that is over gets no answer)
            exchange.commits = True  # (from the answer on, the call's outcome is its commit's)
            return params
        name = params[0].split(b"\0")[0].decode("latin-1").strip().upper()
        program = self.folder.get(name)
        if program is None:
            raise ServiceError(f"EXEC SQL in program {name or '(unnamed)'}, which is not a served EXEC SQL "
                               "program of this folder")  # fmt: skip
        number = exchange.number
        if len(params) == 1:
            plan = self.plans.get(id(program), {}).get(number)
            if plan is None:
                raise ServiceError(f"CALL 'SQLRT' with statement number {number}, which {name} does not have")
            exchange.more = plan
            return params
        return [params[0], *self._read(program, number, params[1:])]

    @staticmethod
    def _read(program: SqlProgram, number: int, params: list[bytes]) -> list[bytes]:
        """The SQLCA after reading the statement's host variables, as the server's session reads them."""
        from ..db.errors import SqlError
        from ..db.results import Sqlca

        codecs = program.codecs.get(number)
        if codecs is None:
            raise ServiceError(f"CALL 'SQLRT' with statement number {number}, which the program does not have")
        _, reads, _ = codecs
        try:
            for _name, param, read in reads:
                read(params[param])
        except SqlError as exc:
            return [sqlca_bytes(params[0], Sqlca(exc.sqlcode, exc.sqlstate, 0, " " * 11, exc.message)), *params[1:]]
        raise ServiceError(f"statement {number}: the worker found a host variable the server reads")

    def end(self, ok: bool) -> None:
        """Nothing: the worker has committed, or its end rolled the unit back."""
