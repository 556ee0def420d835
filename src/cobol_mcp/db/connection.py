"""A connection for one unit of work (:mod:`.unit`), SQLite's or PostgreSQL's, as every unit opens it."""

from __future__ import annotations

import contextlib
from typing import Any

from .exact import register
from .url import Database

__all__ = ["BUSY_TIMEOUT_MS", "connect"]

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
