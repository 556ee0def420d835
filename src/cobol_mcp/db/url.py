"""Where a programs folder's database is: ``sqlite:///PATH``, ``postgresql://…``, or the default.

``sqlite:///PATH`` is relative to the programs folder (``sqlite:////abs/path`` is absolute);
``postgresql://user@host:port/db`` (or ``postgres://``) goes to psycopg as it is. Without one, the
database is ``cobol-mcp.db`` in the folder's data directory (``--data-dir``, or ``data-dir`` of
``[folder]`` in ``cobol-mcp.toml``, relative to the folder), else in the programs folder itself, so it
is the same file whichever directory the server is started from. SQLite creates it on first use.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

__all__ = ["DEFAULT_FILE", "Database", "database"]

DEFAULT_FILE = "cobol-mcp.db"


@dataclass(frozen=True)
class Database:
    kind: str  # "sqlite" or "postgresql"
    target: str  # a file path (SQLite) or the connection string (PostgreSQL)


def database(url: str | None, folder: Path, data_dir: str | None = None) -> Database:
    """The database of ``folder``: ``url`` if given, else the default file; a bad URL raises ValueError."""
    if not url:
        base = folder / data_dir if data_dir else folder
        return Database("sqlite", str(base / DEFAULT_FILE))
    if url.startswith("sqlite:///"):
        path = url[len("sqlite:///") :]
        if not path:
            raise ValueError(f"database URL {url!r}: no file after sqlite:///")
        return Database("sqlite", path if path.startswith("/") else str(folder / path))
    if url.startswith(("postgresql://", "postgres://")):
        return Database("postgresql", url)
    raise ValueError(f"database URL {url!r}: expected sqlite:///PATH or postgresql://user@host:port/db")
