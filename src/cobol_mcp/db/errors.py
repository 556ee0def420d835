"""Driver errors as DB2 reports them: (SQLCODE, SQLSTATE), as IBM documents each code for DB2 for z/OS.

-803 23505 duplicate key; -530 23503 foreign key on INSERT/UPDATE; -532 23504 delete restricted by a
dependent row; -407 23502 null into NOT NULL; -180 22007 bad date/time syntax; -181 22008 date/time
value out of range; -404 22001 string too long for the column; -406 22003 number out of the
column's range; -545 23513 a CHECK constraint; -204 42704 unknown object; -206 42703 unknown column;
-104 42601 syntax; -802 22012 division by zero; -904 57011 resource unavailable; -911 40001
deadlock or timeout, unit of work rolled back; -913 57033 deadlock or timeout, not rolled back;
-601 42710 the name of an object to create is already in use (a table, an index); -612 42711 a
column name given twice (ALTER TABLE … ADD of a column the table has).
SQLite's constraint names ``DB2LEN_``, ``DB2DEC_``, ``DB2FMT_``, ``DB2VAL_`` are the checks :mod:`.ddl`
adds for what DB2's types enforce.
"""

from __future__ import annotations

__all__ = ["SqlError", "from_postgresql", "from_sqlite"]

_CHECKS = {"DB2LEN_": (-404, "22001"), "DB2DEC_": (-406, "22003"), "DB2FMT_": (-180, "22007"),
           "DB2VAL_": (-181, "22008")}  # fmt: skip


class SqlError(Exception):
    """A statement's failure as DB2 would report it."""

    def __init__(self, sqlcode: int, sqlstate: str, message: str) -> None:
        super().__init__(f"SQLCODE {sqlcode}, SQLSTATE {sqlstate}: {message}")
        self.sqlcode = sqlcode
        self.sqlstate = sqlstate
        self.message = message


def from_sqlite(exc: BaseException, verb: str = "") -> SqlError:
    """``exc`` (an ``sqlite3.Error``) raised by a ``verb`` statement (INSERT, UPDATE, DELETE …)."""
    name = str(getattr(exc, "sqlite_errorname", ""))
    text = str(exc)
    if "user-defined" in text:  # one of .exact's functions: its own DB2 error
        from .exact import failure

        found = failure()
        if found is not None:
            return SqlError(*found)
    code, state = -901, "58004"  # DB2: a system error that does not stop further SQL
    if name in ("SQLITE_CONSTRAINT_UNIQUE", "SQLITE_CONSTRAINT_PRIMARYKEY"):
        code, state = -803, "23505"
    elif name == "SQLITE_CONSTRAINT_FOREIGNKEY" or "FOREIGN KEY constraint" in text:  # RESTRICT: _TRIGGER
        code, state = (-532, "23504") if verb.upper() == "DELETE" else (-530, "23503")
    elif name == "SQLITE_CONSTRAINT_NOTNULL":
        code, state = -407, "23502"
    elif name == "SQLITE_CONSTRAINT_CHECK":
        code, state = next((v for k, v in _CHECKS.items() if k in text), (-545, "23513"))
    elif name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        code, state = -913, "57033"
    elif name.startswith(("SQLITE_FULL", "SQLITE_IOERR", "SQLITE_CANTOPEN", "SQLITE_READONLY", "SQLITE_NOMEM")):
        code, state = -904, "57011"
    elif "already exists" in text:  # CREATE TABLE/INDEX/VIEW of a name in use (SQLITE_ERROR, no name)
        code, state = -601, "42710"
    elif "duplicate column name" in text:
        code, state = -612, "42711"
    elif "no such table" in text:
        code, state = -204, "42704"
    elif "no such column" in text:
        code, state = -206, "42703"
    elif "syntax error" in text or "incomplete input" in text:
        code, state = -104, "42601"
    return SqlError(code, state, text)


_PG = {
    "23505": (-803, "23505"), "23502": (-407, "23502"), "23514": (-545, "23513"), "22007": (-180, "22007"),
    "22008": (-181, "22008"), "22001": (-404, "22001"), "22003": (-406, "22003"), "22012": (-802, "22012"),
    "42P01": (-204, "42704"), "42703": (-206, "42703"), "42601": (-104, "42601"), "40P01": (-911, "40001"),
    "40001": (-911, "40001"), "55P03": (-913, "57033"), "57014": (-913, "57033"), "53000": (-904, "57011"),
    "53100": (-904, "57011"), "53200": (-904, "57011"), "53300": (-904, "57011"),
    "42P07": (-601, "42710"), "42710": (-601, "42710"), "42701": (-612, "42711"),
}  # fmt: skip


def from_postgresql(exc: BaseException, verb: str = "") -> SqlError:
    """``exc`` (a ``psycopg.Error``, whose ``sqlstate`` is PostgreSQL's) raised by a ``verb`` statement."""
    state = str(getattr(exc, "sqlstate", "") or "")
    if state == "23503":
        code, db2 = (-532, "23504") if verb.upper() == "DELETE" else (-530, "23503")
    else:
        code, db2 = _PG.get(state, (-901, "58004"))
    return SqlError(code, db2, str(exc).strip())
