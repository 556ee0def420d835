"""A connection for one unit of work (:mod:`.unit`), SQLite's or PostgreSQL's, as every unit opens it.

PostgreSQL: :func:`send_ahead` sends commands without waiting for their answer (the savepoint after a
change, :meth:`.unit.Unit.changed`), and :func:`settle` reads that answer before the connection's next
use. The server runs them at once, in order; only the client's wait goes, overlapped with what it does
meanwhile (a statement's answer going back to the COBOL program and its next statement coming).
"""

from __future__ import annotations

import contextlib
import select
from typing import Any

from .exact import register
from .url import Database

__all__ = ["BUSY_TIMEOUT_MS", "connect", "send_ahead", "settle"]

BUSY_TIMEOUT_MS = 10_000  # a SQLite writer waits this long for another one before -913


def connect(db: Database, busy_timeout_ms: int = BUSY_TIMEOUT_MS) -> Any:
    """A connection for one unit of work (SQLite: autocommit off by hand, foreign keys on)."""
    if db.kind == "sqlite":
        import sqlite3

        conn = sqlite3.connect(db.target, isolation_level=None, timeout=busy_timeout_ms / 1000, check_same_thread=False)
        conn.execute("PRAGMA foreign_keys = ON")
        register(conn)  # DECIMAL arithmetic and labelled durations, exact
        with contextlib.suppress(sqlite3.OperationalError):  # busy: the file keeps the mode it has
            conn.execute("PRAGMA journal_mode = WAL")
        return conn
    try:
        import psycopg
    except ImportError:
        raise ValueError("a postgresql:// database needs psycopg: pip install 'cobol-mcp-server[postgresql]'") from None
    return psycopg.connect(db.target, autocommit=False)


def send_ahead(conn: Any, commands: str) -> None:
    """PostgreSQL: send ``commands`` (no parameters; one or more, ``;`` between) and return at once. Until
    :func:`settle` has read their answer, nothing else may be sent on ``conn``."""
    conn.pgconn.send_query(commands.encode())


def settle(conn: Any) -> None:
    """Read the answer to what :func:`send_ahead` sent (waiting, the GIL released, if it has not come yet);
    the first command that failed raises its error, as psycopg raises it."""
    import psycopg
    from psycopg import pq

    pgconn, failed = conn.pgconn, None
    pgconn.consume_input()  # (usually all there: no wait)
    while True:
        while pgconn.is_busy():
            select.select([pgconn.socket], [], [])
            pgconn.consume_input()
        result = pgconn.get_result()
        if result is None:
            break
        if result.status != pq.ExecStatus.COMMAND_OK and failed is None:
            state = (result.error_field(pq.DiagnosticField.SQLSTATE) or b"").decode()
            message = (result.error_message or b"the command sent ahead failed").decode(errors="replace")
            failed = (psycopg.errors.lookup(state) if state else psycopg.OperationalError)(message.strip())
    if failed is not None:
        raise failed
