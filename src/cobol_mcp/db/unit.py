"""One tool call's unit of work: a program's statements executed on one connection, with DB2's semantics.

:class:`Unit` takes a statement number of a :class:`.prepare.Plan` and the values of the program's
host variables (and indicators) by name, as Python values (``Decimal``, ``str``, ``int``; an
indicator below zero makes its variable NULL), and answers an :class:`Outcome`: what to store into
which host variables and indicators, and the SQLCA. It knows nothing of COBOL bytes.

DB2's behaviour as programs branch on it: SELECT/VALUES/SET INTO fetch two rows (+100 none, -811
more, host variables left alone then); a searched UPDATE or DELETE, or INSERT … SELECT, that touches no
row is +100; NULL into a host variable without an indicator is -305; FETCH on a cursor that is not
open is -501, OPEN of an open one -502, WHERE CURRENT OF a closed cursor -507 and of one not on a
row -508; COMMIT closes the cursors without HOLD, ROLLBACK closes all; a failed statement undoes only
itself (PostgreSQL: a savepoint after each change, see :meth:`Unit._failed`; sent with the change's answer,
its own answer read before the connection's next use: :attr:`Unit.conn`), except -911 which rolls the
unit back as DB2 does.

Statements of other programs of the same call (subprograms CALLed or LINKed) run in the same unit after
:meth:`Unit.use` gives their plan: their cursors and prepared statements are their own.

Transactions: the first statement begins it (SQLite ``BEGIN``: deferred, so a read-only call takes no
write lock), :meth:`Unit.end` commits (normal end) or rolls back (any failure) and closes. SQLite waits
:data:`BUSY_TIMEOUT_MS` for another writer, then the statement fails with -913 (SQLITE_BUSY, per
:mod:`.errors`); the database is put in WAL mode so that readers and a writer do not block each
other. Two units never see each other's uncommitted rows (SQLite and PostgreSQL both give that).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .catalog import Column, Untranslatable
from .connection import BUSY_TIMEOUT_MS, connect, send_ahead, settle
from .dml import Translation
from .errors import SqlError, from_postgresql, from_sqlite
from .expr import HostRef
from .prepare import DECLARATIVE, Plan, Prepared, dynamic
from .results import Cursor, Outcome, Sqlca
from .scroll import amount_of, move
from .values import driver_params, store_row

__all__ = ["BUSY_TIMEOUT_MS", "WAITS", "Outcome", "Sqlca", "Unit", "connect"]

_CHANGES = frozenset(("INSERT", "UPDATE", "DELETE", "EXECUTE", "OPEN"))  # PostgreSQL: a savepoint after each
WAITS = ("SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_INTERRUPT")  # what a statement run by .quick raises
_PG_INERROR = 3  # psycopg.pq.TransactionStatus.INERROR: a failed statement aborted the transaction


class Unit:
    def __init__(self, plan: Plan, conn: Any) -> None:
        self.plan, self.driver = plan, conn
        self.sqlite = plan.target == "sqlite"
        self.pending = False  # PostgreSQL: commands sent ahead (send_ahead) whose answer is not read yet
        self.statements: Any = None  # PostgreSQL: the driver's cursor the statements run on
        self.begun = False
        self.savepoint = False  # PostgreSQL: the savepoint after the last change is held
        self.cursors: dict[str, Cursor] = {}
        self.dynamic: dict[str, tuple[Translation, list[Column | None]]] = {}
        self.nowait = False  # SQLite: a statement that would wait raises its driver error (see .quick)
        self.busy: tuple[int, bool] | None = None  # SQLite: its busy timeout and whether in WAL mode (.quick)
        self.zero = False  # SQLite: the busy timeout is 0 (.quick), until anything else runs: see restore
        self.others: dict[int, tuple[Plan, dict[str, Cursor], dict[str, Any]]] = {}  # id(plan) -> kept

    @property
    def conn(self) -> Any:
        """The unit's connection, ready for a statement: what was sent ahead is answered (PostgreSQL)."""
        if self.pending:
            self.settle()
        return self.driver

    def settle(self) -> None:
        """PostgreSQL: read the answer to what was sent ahead (:meth:`changed`); its error raises here."""
        if self.pending:
            self.pending = False
            settle(self.driver)

    def use(self, plan: Plan) -> None:
        """The statements that follow are of ``plan``: another program's (a subprogram CALLed or LINKed
        within the call), in the same transaction, with its own cursors and prepared statements, as DB2
        keeps them per package; the program left keeps its own for when it runs again."""
        if plan is self.plan:
            return
        self.others[id(self.plan)] = (self.plan, self.cursors, self.dynamic)
        self.plan, self.cursors, self.dynamic = self.others.pop(id(plan), (plan, {}, {}))

    # -- the unit's end
    def end(self, ok: bool) -> None:
        """Commit (the program ended normally) or roll back (anything else), then close the connection."""
        try:
            self.commit() if ok else self.rollback()
        finally:
            self.driver.close()

    def restore(self) -> None:
        """SQLite: its busy timeout back, after statements run at once (:mod:`.quick`) set it to 0."""
        if self.zero and self.busy is not None:
            self.conn.execute(f"PRAGMA busy_timeout = {self.busy[0]}")
            self.zero = False

    def commit(self) -> None:
        self.restore()
        self.settle()
        for cursors in (self.cursors, *(kept[1] for kept in self.others.values())):
            for name in [n for n, c in cursors.items() if not c.declare.hold]:
                self._close(name, cursors)
        if self.sqlite:
            if self.begun:
                self.conn.execute("COMMIT")
        else:
            self.conn.commit()
        self.begun = self.savepoint = False

    def rollback(self) -> None:
        self.restore()
        self.settle()
        for cursors in (self.cursors, *(kept[1] for kept in self.others.values())):
            for name in list(cursors):
                self._close(name, cursors)
        if self.sqlite:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
        else:
            self.conn.rollback()
        self.begun = self.savepoint = False

    # -- one statement
    def execute(self, number: int, values: Mapping[str, object]) -> Outcome:
        """Statement ``number`` with the host variables' ``values``: what to store, and the SQLCA."""
        p, out = self.plan.statements[number], Outcome(Sqlca())
        if not self.nowait:
            self.restore()
        if p.kind in DECLARATIVE or p.kind == "DECLARE CURSOR":
            return out
        try:
            self.settle()  # (a FETCH or CLOSE uses the driver's cursor, not the connection)
            if p.kind not in ("COMMIT", "ROLLBACK", "CLOSE"):
                self._begin()
            self._run(p, values, out)
            if p.kind.split()[0] in _CHANGES:
                self.changed()
        except SqlError as exc:
            self._failed(out, exc)
        except Untranslatable as exc:
            self._failed(out, SqlError(-104, "42601", exc.reason))
        except Exception as exc:
            if not self._driver_error(exc):
                raise
            verb = p.kind.split()[0]
            self._failed(out, from_sqlite(exc, verb) if self.sqlite else from_postgresql(exc, verb))
        return out

    # -- work beside the SQL on the same connection (the CICS resources: files, queues, counters)
    def begin(self) -> Any:
        """Begin the unit's transaction if it has not begun, and give its connection: what is done on it
        commits and rolls back with the SQL. After a change made on it, call :meth:`changed`."""
        self.restore()
        self._begin()
        return self.conn

    def changed(self) -> None:
        """A change was made: on PostgreSQL, the point a later failed statement goes back to moves after it
        (made after each change, reads need none; the one before released in the same message). Sent
        ahead: the server makes it at once, the unit reads its answer before it next uses the connection."""
        if self.sqlite:
            return
        held, self.savepoint = self.savepoint, False
        conn = self.conn
        send_ahead(conn, ("RELEASE SAVEPOINT cobol_mcp; " if held else "") + "SAVEPOINT cobol_mcp")
        self.pending = self.savepoint = True

    def _failed(self, out: Outcome, exc: SqlError) -> None:
        """DB2 undoes the failed statement alone, and the whole unit on -911. PostgreSQL, whose transaction
        an error aborts, goes back to the savepoint after the last change (or, before any, to the start:
        only reads were done, and a cursor opened in this transaction always has a savepoint after it)."""
        out.sets.clear()
        out.sqlca = Sqlca(exc.sqlcode, exc.sqlstate, 0, " " * 11, exc.message)
        if exc.sqlcode == -911:
            self.rollback()
        elif not self.sqlite and self.conn.info.transaction_status == _PG_INERROR:
            if self.savepoint:
                self.conn.execute("ROLLBACK TO SAVEPOINT cobol_mcp")
            else:
                self.conn.rollback()
                self.begun = False

    def _driver_error(self, exc: Exception) -> bool:
        """The driver's error (an SQLCODE); not, while :attr:`nowait`, SQLite's waiting (:mod:`.quick`)."""
        if self.sqlite:
            import sqlite3

            waits = self.nowait and str(getattr(exc, "sqlite_errorname", "")).startswith(WAITS)
            return isinstance(exc, sqlite3.Error) and not waits
        import psycopg

        return isinstance(exc, psycopg.Error)

    def _begin(self) -> None:
        if self.sqlite and not self.conn.in_transaction:
            self.conn.execute("BEGIN")
        self.begun = True

    def _params(self, refs: list[HostRef], values: Mapping[str, object], cursor: Cursor | None = None) -> list[object]:
        return driver_params(refs, values, self.plan.target, cursor.current if cursor else None)

    def _run(self, p: Prepared, values: Mapping[str, object], out: Outcome) -> None:
        kind = p.kind
        if kind == "COMMIT":
            self.commit()
        elif kind == "ROLLBACK":
            self.rollback()
        elif kind == "OPEN":
            self._open(p, values)
        elif kind == "FETCH":
            self._fetch(p, values, out)
        elif kind == "CLOSE":
            if p.name not in self.cursors:
                raise SqlError(-501, "24501", f"cursor {p.name} is not open")
            self._close(p.name or "")
        elif kind == "PREPARE":
            self.dynamic[p.name or ""] = dynamic(self._text(p, values), self.plan)
        elif kind == "EXECUTE IMMEDIATE":
            self._statement(*dynamic(self._text(p, values), self.plan), {}, out, "EXECUTE")
        elif kind == "EXECUTE":
            if p.name not in self.dynamic:
                raise SqlError(-514, "26501", f"statement {p.name} is not prepared")
            translation, columns = self.dynamic[p.name or ""]
            self._statement(translation, columns, self._using(p, values), out, "EXECUTE")
        else:
            assert p.translation is not None
            cursor = None
            if p.translation.current_of is not None:
                cursor = self.cursors.get(p.translation.current_of)
                if cursor is None:
                    raise SqlError(-507, "24501", f"cursor {p.translation.current_of} is not open")
                if cursor.current is None:
                    raise SqlError(-508, "24504", f"cursor {p.translation.current_of} is not on a row")
            self._statement(p.translation, p.columns, values, out, kind, cursor)

    def _text(self, p: Prepared, values: Mapping[str, object]) -> str:
        if p.literal is not None:
            return p.literal
        if not p.host or p.host[0].name not in values:
            raise SqlError(-312, "42618", "the statement text's host variable has no value here")
        return str(values[p.host[0].name]).rstrip()

    def _using(self, p: Prepared, values: Mapping[str, object]) -> dict[str, object]:
        """OPEN/EXECUTE … USING :a, :b as the values of the markers ?1, ?2 …"""
        given: dict[str, object] = {}
        for n, ref in enumerate(p.host, 1):
            value = values.get(ref.name)
            indicator = values.get(ref.indicator) if ref.indicator else None
            given[f"?{n}"] = None if isinstance(indicator, int) and indicator < 0 else value
        return given

    def _statement(self, t: Translation, columns: list[Column | None], values: Mapping[str, object], out: Outcome,
                   kind: str, cursor: Cursor | None = None) -> None:  # fmt: skip
        if self.sqlite:
            cur = self.conn
        else:  # one psycopg cursor for the unit's statements (not its cursors): making one costs more than a key read
            cur = self.statements = self.statements or self.conn.cursor()
        result = cur.execute(t.sql, self._params(t.params, values, cursor))
        if t.outputs:  # SELECT/VALUES/SET … INTO: one row
            rows = result.fetchmany(2)
            if not rows:
                out.sqlca = Sqlca(100, "02000", 0)
            elif len(rows) > 1:
                raise SqlError(-811, "21000", "the result of SELECT INTO has more than one row")
            else:
                store_row(t.outputs, tuple(rows[0]), columns, self.plan, out)
                out.sqlca.sqlerrd3 = 1
            return
        count = result.rowcount
        out.sqlca.sqlerrd3 = max(count, 0)
        if count == 0 and kind.split()[0] in ("UPDATE", "DELETE", "INSERT", "EXECUTE"):
            out.sqlca.sqlcode, out.sqlca.sqlstate = 100, "02000"

    # -- cursors
    def _open(self, p: Prepared, values: Mapping[str, object]) -> None:
        name = p.name or ""
        declare = self.plan.cursors.get(name)
        if declare is None:
            raise SqlError(-504, "34000", f"cursor {name} is not declared")
        if name in self.cursors:
            raise SqlError(-502, "24502", f"cursor {name} is already open")
        if declare.statement is not None:
            if declare.statement not in self.dynamic:
                raise SqlError(-514, "26501", f"statement {declare.statement} is not prepared")
            translation, columns = self.dynamic[declare.statement]
            params = self._params(translation.params, self._using(p, values))
        else:
            assert declare.translation is not None
            translation, columns = declare.translation, declare.columns
            params = self._params(translation.params, values)
        sql, rowid = translation.sql, False
        if declare.updatable and sql.startswith("SELECT ") and not sql.startswith("SELECT DISTINCT"):
            sql, rowid = ("SELECT rowid, " if self.sqlite else "SELECT ctid, ") + sql[7:], True
        if self.sqlite:
            driver = self.conn.execute(sql, params)
        else:
            if declare.updatable and not declare.hold:
                sql += " FOR UPDATE"  # rows locked as FETCH reaches them (PostgreSQL refuses it WITH HOLD)
            named = name.lower() if not self.others else f"{name.lower()}_{id(self.plan):x}"  # one per program
            driver = self.conn.cursor(name=named, withhold=declare.hold)
            driver.execute(sql, params)
        self.cursors[name] = Cursor(declare, driver, columns, rowid)
        if declare.scroll:  # INSENSITIVE: the result table as it was at OPEN
            self.cursors[name].rows = list(driver.fetchall())

    def _fetch(self, p: Prepared, values: Mapping[str, object], out: Outcome) -> None:
        cursor = self.cursors.get(p.name or "")
        if cursor is None:
            raise SqlError(-501, "24501", f"cursor {p.name} is not open")
        word = p.orientation[0]
        if cursor.rows is not None:
            moved = move(word, amount_of(p.orientation, values), cursor.position, len(cursor.rows))
            return self._scroll(p, cursor, moved, out)
        if word != "NEXT":
            raise SqlError(-225, "42872", f"FETCH {word} needs a SCROLL cursor; {p.name} is not one")
        if cursor.ahead:
            row = cursor.ahead.popleft()
        elif cursor.failed is not None:
            failed, cursor.failed = cursor.failed, None
            raise failed
        elif self.sqlite or cursor.declare.updatable:
            row = cursor.driver.fetchone()
        else:
            cursor.ahead.extend(cursor.driver.fetchmany(100))  # PostgreSQL, read-only: 100 rows a round trip
            row = cursor.ahead.popleft() if cursor.ahead else None
        self._fetched(cursor, p, row, out)

    def _fetched(self, cursor: Cursor, p: Prepared, row: Any, out: Outcome) -> None:
        if row is None:
            cursor.current = None
            out.sqlca = Sqlca(100, "02000", 0)
            return
        if cursor.rowid:
            cursor.current, row = row[0], row[1:]
        else:
            cursor.current = True  # on a row (one WHERE CURRENT OF cannot name: not updatable)
        assert p.translation is not None
        store_row(p.translation.outputs, tuple(row), cursor.columns, self.plan, out)
        out.sqlca.sqlerrd3 = 1

    def _scroll(self, p: Prepared, cursor: Cursor, moved: tuple[int, int], out: Outcome) -> None:
        assert cursor.rows is not None and p.translation is not None
        cursor.position, sqlcode = moved
        if sqlcode:
            cursor.current = None if sqlcode == 100 else cursor.current
            out.sqlca = Sqlca(sqlcode, "02000", 0)
            return
        cursor.current = True
        store_row(p.translation.outputs, tuple(cursor.rows[cursor.position]), cursor.columns, self.plan, out)
        out.sqlca.sqlerrd3 = 1

    # -- reading ahead (:mod:`cobol_mcp.sqlbridge.session` answers FETCHes before the program makes them)
    def read_ahead(self, name: str, count: int) -> list[Any]:
        """Up to ``count`` rows past the FETCH just answered of cursor ``name`` if open and read-only (no WHERE
        CURRENT OF). PostgreSQL: only rows already fetched (a FETCH finding none asks the driver, as before);
        SQLite: a driver error is kept for the FETCH reaching it. What is not used goes back: :meth:`unread`."""
        cursor = self.cursors.get(name)
        if cursor is None or cursor.declare.updatable or cursor.failed is not None or cursor.rows is not None:
            return []
        rows = [cursor.ahead.popleft() for _ in range(min(count, len(cursor.ahead)))]
        if self.sqlite:
            while len(rows) < count:
                try:
                    row = cursor.driver.fetchone()
                except Exception as exc:
                    if not self._driver_error(exc):
                        raise
                    cursor.failed = exc
                    break
                if row is None:
                    break
                rows.append(row)
        return rows

    def unread(self, name: str, rows: list[Any]) -> None:
        """Rows of :meth:`read_ahead` back in front of the cursor's next FETCH (none when it is closed)."""
        if (cursor := self.cursors.get(name)) is not None:
            cursor.ahead.extendleft(reversed(rows))

    def fetched(self, number: int, row: Any) -> Outcome:
        """What FETCH statement ``number`` answers for ``row`` of :meth:`read_ahead`, as :meth:`execute` would."""
        p, out = self.plan.statements[number], Outcome(Sqlca())
        try:
            self._fetched(self.cursors[p.name or ""], p, row, out)
        except SqlError as exc:
            self._failed(out, exc)
        return out

    def _close(self, name: str, cursors: dict[str, Cursor] | None = None) -> None:
        cursor = (self.cursors if cursors is None else cursors).pop(name)
        try:
            cursor.driver.close()
        except Exception as exc:
            if not self._driver_error(exc):
                raise
