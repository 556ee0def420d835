"""Where a programs folder's database is: ``sqlite:///PATH``, ``postgresql://…``, or the default.

``sqlite:///PATH`` is relative to the programs folder (``sqlite:////abs/path`` is absolute);
``postgresql://user@host:port/db`` (or ``postgres://``) goes to psycopg as it is. Without one, the
database is ``cobol-mcp.db`` in the folder's data directory (``--data-dir``, or ``data-dir`` of
``[folder]`` in ``cobol-mcp.toml``, relative to the folder), else in the programs folder itself, so it
is the same file whichever directory the server is started from. SQLite creates it on first use;
:func:`unusable` says, before anything is served, why a SQLite one could not be opened or created.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

__all__ = ["DEFAULT_FILE", "Database", "database", "folder_databases", "unusable"]

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


def unusable(db: Database) -> str | None:
    """Why the SQLite database ``db`` can be neither opened nor created (None: it can, or it is PostgreSQL's,
    which is asked at its first use). Nothing is created, and nothing waits: a file another connection is
    writing (busy) opens. A file that does not exist needs a directory it can be made in."""
    if db.kind != "sqlite":
        return None
    path = Path(db.target)
    if not path.exists():
        parent = path.parent
        if not parent.is_dir():
            return f"{parent} is not a directory" if parent.exists() else f"no directory {parent}"
        if not os.access(parent, os.W_OK | os.X_OK):
            return f"the file cannot be created in {parent}: the directory is not writable"
        return None
    if path.is_dir():
        return f"{path} is a directory"
    size = path.stat().st_size
    import sqlite3

    try:
        conn = sqlite3.connect(path, timeout=0, isolation_level=None)
    except sqlite3.Error as exc:
        return str(exc)
    try:
        conn.execute("PRAGMA schema_version").fetchall()  # "file is not a database"
        conn.execute("BEGIN IMMEDIATE")  # a file it cannot write beside (its journal): "unable to open"
        conn.execute("ROLLBACK")
    except sqlite3.Error as exc:
        name = getattr(exc, "sqlite_errorname", "")
        if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or (name.startswith("SQLITE_READONLY") and size):
            return None  # in use, or read-only with something to read: it opens
        return f"{path}: {exc}"
    finally:
        conn.close()
    return None


_SCHEMES = ("sqlite:", "postgresql:", "postgres:")


def folder_databases(specs: list[str], names: list[str]) -> tuple[str | None, dict[str, str]]:
    """The server's ``--database [NAME=]URL`` options: the URL of every programs folder not named,
    and the named folders' own (``names``: the --programs folders' names). A URL needs no ``NAME=``
    (it starts with its scheme, and may hold ``=`` in its query). ValueError, saying which option,
    for a bad URL, a NAME that is no folder, a second URL for the same folders, or no folder at all."""
    default: str | None = None
    per_folder: dict[str, str] = {}
    for spec in specs:
        bare = spec.startswith(_SCHEMES)
        name, sep, url = ("", "", spec) if bare else spec.partition("=")
        if not bare and not sep:
            raise ValueError(f"--database {spec}: expected sqlite:///PATH, postgresql://user@host:port/db or NAME=URL")
        if not names:
            raise ValueError(f"--database {spec}: no --programs folder to give it to")
        if sep and name not in names:
            raise ValueError(f"--database {spec}: no --programs folder is named {name!r} (names: {', '.join(names)})")
        try:
            database(url, Path("."))
        except ValueError as exc:
            raise ValueError(f"--database {spec}: {exc}") from None
        earlier = per_folder.get(name) if sep else default
        if earlier is not None:
            which = f"the folder {name!r}" if sep else "every folder without its own NAME=URL"
            raise ValueError(f"--database {spec}: {which} already has --database {earlier}; give a folder one database")
        if sep:
            per_folder[name] = url
        else:
            default = url
    return default, per_folder
