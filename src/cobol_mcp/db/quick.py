"""A statement run at once on SQLite only if it cannot wait: what the server may answer on its reply loop.

A statement that waits (for another call's write lock) or runs long must not hold up the server's other
calls, so statements run on threads of their own (:mod:`cobol_mcp.sqlbridge.answers`); handing one over
and back costs more than running most of them. :func:`quickly` runs the statements that neither wait nor
run long on SQLite in WAL mode (readers and one writer never wait for each other there) at once and
answers their :class:`.unit.Outcome`, or None, the statement having done nothing: then run it as before.
It runs: SELECT/VALUES/SET … INTO and OPEN (which change nothing) stopped after :data:`STEPS` of SQLite's
steps; INSERT … VALUES, UPDATE and DELETE WHERE CURRENT OF (one row); CLOSE and the declarative
statements. Each with a busy timeout of 0 (another call holds the write lock: SQLITE_BUSY at once,
before the statement has changed anything), left so until the unit runs anything else
(:meth:`.unit.Unit.restore`). SQLite rolls a transaction back when a statement that changes rows is
interrupted, so those are never interrupted; a search (UPDATE, DELETE, INSERT … SELECT), a FETCH, a
dynamic statement, COMMIT and ROLLBACK (which write the log to disk) are never run here.
"""

from __future__ import annotations

from collections.abc import Mapping

from .prepare import DECLARATIVE
from .unit import WAITS, Outcome, Unit

__all__ = ["STEPS", "quickly"]

STEPS = 100_000  # of SQLite's virtual machine: a statement that changes nothing runs this long at most here


def _stop() -> int:
    return 1


def _how(unit: Unit, number: int) -> str | None:
    """ "read" (stopped after STEPS), "write" (a row: not stopped), "now" (no database work), None (not here)."""
    p = unit.plan.statements.get(number)
    if p is None:
        return None
    kind = p.kind
    if kind in DECLARATIVE or kind in ("DECLARE CURSOR", "CLOSE"):
        return "now"
    if kind == "OPEN":
        declare = unit.plan.cursors.get(p.name or "")
        return "read" if declare is not None and declare.statement is None else None
    t = p.translation
    if t is None or kind in ("EXECUTE", "EXECUTE IMMEDIATE", "PREPARE", "FETCH"):
        return None
    verb = kind.split()[0]
    if t.outputs and verb in ("SELECT", "VALUES", "SET"):
        return "read"
    if verb == "INSERT" and "SELECT" not in t.sql.upper():
        return "write"
    if verb in ("UPDATE", "DELETE") and t.current_of is not None:
        return "write"
    return None


def quickly(unit: Unit, number: int, values: Mapping[str, object]) -> Outcome | None:
    """Statement ``number`` run at once (:meth:`.unit.Unit.execute`), or None: it is not one to run here,
    or it would have waited or run long (it has then done nothing)."""
    if not unit.sqlite:
        return None
    how = _how(unit, number)
    if how is None:
        return None
    if how == "now":
        return unit.execute(number, values)
    import sqlite3

    conn = unit.conn
    if unit.busy is None:
        wal = str(conn.execute("PRAGMA journal_mode").fetchone()[0]).lower() == "wal"
        unit.busy = (int(conn.execute("PRAGMA busy_timeout").fetchone()[0]), wal)
    if not unit.busy[1]:
        return None
    if not unit.zero:  # left at 0 for the next statement run here; anything else restores it first
        conn.execute("PRAGMA busy_timeout = 0")
        unit.zero = True
    if how == "read":
        conn.set_progress_handler(_stop, STEPS)
    unit.nowait = True
    try:
        return unit.execute(number, values)
    except sqlite3.Error as exc:  # only what would wait gets here (Unit.nowait): it has done nothing
        if not str(getattr(exc, "sqlite_errorname", "")).startswith(WAITS):
            raise
        return None
    finally:
        unit.nowait = False
        if how == "read":
            conn.set_progress_handler(None, 0)
