"""``db apply``: DB2 DDL and data, as a DBA keeps it, into a folder's database in one transaction.

Every statement of every file is translated first (an untranslatable one stops it all, naming
file:line and the reason), then executed in one transaction: an error rolls back everything and
is reported as DB2 would (SQLCODE, SQLSTATE) at file:line. Storage and authorisation statements have
no meaning here and are skipped, each with one line on stderr; ``COMMIT`` is part of the whole.
``DROP TABLE|INDEX|VIEW`` runs (a script that starts by dropping what it creates runs twice); an
object that is not there is DB2's -204, and a CREATE of a name in use -601, as they would be on DB2.
``ALTER TABLE … ADD [COLUMN]`` adds a column; ``ALTER TABLE … [ADD] FOREIGN KEY`` a key (on SQLite, which adds
no constraint to a table, into the CREATE of the same run, else skipped with a note); other ALTERs are
refused with their line.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .catalog import CATALOG_DDL, Column, Table, Untranslatable
from .ddl import alter_table_add, alter_table_key, create_index, create_table
from .dml import translate
from .errors import SqlError, from_postgresql, from_sqlite
from .exact import register
from .lexer import SqlSyntaxError, tokenize
from .names import qualified_name, render_name
from .script import statements
from .url import Database

__all__ = ["ApplyError", "apply_files"]

_SKIP_FIRST = {"GRANT", "REVOKE", "LABEL", "COMMENT", "LOCK", "RUNSTATS"}
_SKIP_OBJECTS = {"STOGROUP", "DATABASE", "TABLESPACE", "LOB", "AUXILIARY", "SYNONYM", "ALIAS", "BUFFERPOOL"}


class ApplyError(Exception):
    """What stopped ``db apply``, with file:line; nothing was applied."""


@dataclass
class _Step:
    where: str
    verb: str
    sql: list[str]
    table: Table | None = None
    added: bool = False  # ALTER TABLE … ADD: only the table's last column is new to the catalog


def _load_catalog(conn: Any, kind: str) -> dict[str, Table]:
    catalog: dict[str, Table] = {}
    if kind != "sqlite":
        return catalog
    conn.execute(CATALOG_DDL)
    for row in conn.execute('SELECT * FROM "COBOL_MCP_COLUMNS" ORDER BY TABNAME, COLNO'):
        catalog.setdefault(str(row[0]), Table(str(row[0]))).columns.append(Column.from_row(tuple(row)))
    return catalog


def _skip_reason(words: list[str]) -> str | None:
    if not words:
        return None
    if words[0] in _SKIP_FIRST:
        return f"{words[0]} (authorisation or catalog statement)"
    if words[0] in ("CREATE", "ALTER", "DROP") and len(words) > 1 and words[1] in _SKIP_OBJECTS:
        return f"{words[0]} {words[1]} (storage: DB2's, not this database's)"
    if words[0] == "SET" and words[1:3] in (["CURRENT", "SQLID"], ["CURRENT", "SCHEMA"], ["SCHEMA"]):
        return f"SET {' '.join(words[1:3])} (names are used as written: qualify them)"
    return None


def _plan(paths: list[Path], kind: str, catalog: dict[str, Table], note: Callable[[str], None]) -> list[_Step]:
    steps: list[_Step] = []
    for path in paths:
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            raise ApplyError(f"{path}: {exc.strerror or exc}") from None
        for stmt in statements(text):
            where = f"{path}:{stmt.line}"
            try:
                tokens = tokenize(stmt.text, stmt.first)
                words = [t.text for t in tokens[:4]]
                reason = _skip_reason(words)
                if reason:
                    note(f"{where}: skipped {reason}")
                    continue
                if words[:1] == ["COMMIT"]:
                    continue
                if words[:2] == ["CREATE", "TABLE"]:
                    ddl = create_table(tokens, kind, catalog)
                    if ddl.table is not None:
                        catalog[ddl.table.name] = ddl.table
                    for clause in ddl.skipped:
                        note(f"{where}: skipped {clause} (storage)")
                    steps.append(_Step(where, "CREATE", ddl.statements, ddl.table))
                elif words[:2] == ["ALTER", "TABLE"] and (key := alter_table_key(tokens, kind, catalog)):
                    name, clause = key
                    created = next((s for s in steps if s.table is not None and s.table.name == name
                                    and s.verb == "CREATE"), None)  # fmt: skip
                    if kind != "sqlite":
                        steps.append(_Step(where, "ALTER", [f"ALTER TABLE {render_name(name, kind)} ADD {clause}"]))
                    elif created is not None:  # SQLite adds no constraint to a table: into its CREATE
                        k = next(k for k, sql in enumerate(created.sql) if sql.startswith("CREATE TABLE"))
                        created.sql[k] = f"{created.sql[k][:-1]}, {clause})"
                        steps.append(_Step(where, "ALTER", []))  # (applied with the CREATE)
                    else:
                        note(
                            f"{where}: skipped ALTER TABLE {name} … FOREIGN KEY (SQLite adds a constraint only "
                            "to a table created in the same db apply)"
                        )
                elif words[:2] == ["ALTER", "TABLE"]:
                    ddl = alter_table_add(tokens, kind, catalog)
                    assert ddl.table is not None
                    catalog[ddl.table.name] = ddl.table
                    steps.append(_Step(where, "ALTER", ddl.statements, ddl.table, added=True))
                elif words[:2] == ["CREATE", "INDEX"] or words[:3] == ["CREATE", "UNIQUE", "INDEX"]:
                    ddl = create_index(tokens, kind)
                    for clause in ddl.skipped:
                        note(f"{where}: skipped {clause} (storage)")
                    steps.append(_Step(where, "CREATE", ddl.statements))
                elif words[:1] == ["DROP"] and words[1:2] in (["TABLE"], ["INDEX"], ["VIEW"]):
                    name, end = qualified_name(tokens, 2)
                    if end != len(tokens):
                        raise Untranslatable(stmt.line, f"DROP {words[1]} {name}: unexpected {tokens[end].text}")
                    steps.append(_Step(where, "DROP", [f"DROP {words[1]} {render_name(name, kind)}"]))
                    if words[1] == "TABLE":
                        catalog.pop(name, None)
                        if kind == "sqlite":
                            steps[-1].sql.append(f"DELETE FROM \"COBOL_MCP_COLUMNS\" WHERE TABNAME = '{name}'")
                elif words[:1] in (["INSERT"], ["UPDATE"], ["DELETE"]) or words[:2] == ["CREATE", "VIEW"]:
                    translation = translate(tokens, kind, catalog)
                    if translation.params:
                        raise Untranslatable(stmt.line, "host variables have no values outside a program")
                    steps.append(_Step(where, words[0], [translation.sql]))
                    if words[:2] == ["CREATE", "VIEW"]:  # known by name from here on (its columns' types are not)
                        catalog.setdefault(qualified_name(tokens, 2)[0], Table(qualified_name(tokens, 2)[0]))
                else:
                    raise Untranslatable(stmt.line, f"{' '.join(words[:2])} is not a statement db apply runs")
            except (Untranslatable, SqlSyntaxError) as exc:
                raise ApplyError(f"{path}:{exc.line}: {exc.reason}") from None
    return steps


def apply_files(paths: list[Path], db: Database, note: Callable[[str], None] | None = None) -> int:
    """Apply ``paths`` to ``db``; the number of statements run. Raises :class:`ApplyError`."""
    say = note or (lambda line: print(line, file=sys.stderr))
    conn, mapper = _connect(db)
    try:
        catalog = _load_catalog(conn, db.kind)
        steps = _plan(paths, db.kind, catalog, say)
        count = 0
        for step in steps:
            try:
                for sql in step.sql:
                    conn.execute(sql)
                if step.table is not None and db.kind == "sqlite":
                    rows = [c.row(step.table.name, n) for n, c in enumerate(step.table.columns, 1)]
                    rows = rows[-1:] if step.added else rows
                    conn.executemany('INSERT INTO "COBOL_MCP_COLUMNS" VALUES (?, ?, ?, ?, ?, ?, ?, ?)', rows)
            except Exception as exc:
                if not _driver_error(exc, db.kind):
                    raise
                error: SqlError = mapper(exc, step.verb)
                raise ApplyError(f"{step.where}: {error}") from None
            count += 1
        conn.execute("COMMIT") if db.kind == "sqlite" else conn.commit()
        return count
    finally:
        if getattr(conn, "in_transaction", False):
            conn.rollback()
        conn.close()


def _driver_error(exc: Exception, kind: str) -> bool:
    if kind == "sqlite":
        import sqlite3

        return isinstance(exc, sqlite3.Error)
    import psycopg

    return isinstance(exc, psycopg.Error)


def _connect(db: Database) -> tuple[Any, Callable[[BaseException, str], SqlError]]:
    if db.kind == "sqlite":
        import sqlite3

        Path(db.target).parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(db.target, isolation_level=None)
        conn.execute("PRAGMA foreign_keys = ON")
        register(conn)
        conn.execute("BEGIN IMMEDIATE")
        return conn, from_sqlite
    try:
        import psycopg
    except ImportError:
        raise ApplyError("a postgresql:// database needs psycopg: pip install 'cobol-mcp-server[postgresql]'") from None
    try:
        return psycopg.connect(db.target), from_postgresql
    except psycopg.Error as exc:
        raise ApplyError(f"cannot connect to {db.target}: {exc}") from None
