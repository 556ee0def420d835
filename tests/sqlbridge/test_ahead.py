"""FETCHes answered ahead (sqlbridge.ahead) through the C worker, on SQLite and a real PostgreSQL: ITEMWALK
walks two cursors with other statements, COMMIT (WITH HOLD and without), CLOSE, -501, +100 twice and a
re-OPEN between its FETCHes, one cursor through two FETCH statements into different host variables, and
a NULL that must leave what the program put in the host variable. Its trace is the same with rows sent
ahead as without (the second call, on the same worker, after the first ended with a row sent ahead), and
most of its FETCHes never reach the server."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cobol_mcp.cobol.precompile.scan import scan_text
from cobol_mcp.cobol.prepare.cobc import DEFAULT_FLAGS, build_module
from cobol_mcp.cobol.prepare.native_worker import build_worker
from cobol_mcp.cobol.prepare.sql import precompile
from cobol_mcp.cobol.runtime.pool import Runtime
from cobol_mcp.db.apply import apply_files
from cobol_mcp.db.unit import Unit
from cobol_mcp.db.url import Database
from cobol_mcp.sqlbridge import ahead
from cobol_mcp.sqlbridge.answers import Tracked, answerer_for
from cobol_mcp.sqlbridge.session import Session, SqlProgram, load_program

from .helpers import PROGRAMS

ROWS = 30


def _qty(n: int) -> int | None:
    return None if n % 4 == 0 else n * 10


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Database:
    if request.param == "sqlite":
        db = Database("sqlite", str(tmp_path / "inv.db"))
    else:
        db = Database("postgresql", request.getfixturevalue("postgres_url"))
    values = ", ".join(
        f"({n}, 'ITEM{n:04d}', {_qty(n) if _qty(n) is not None else 'NULL'})" for n in range(1, ROWS + 1)
    )
    ddl = tmp_path / "inv.sql"
    ddl.write_text("CREATE TABLE INV.ITEM (ID INTEGER NOT NULL, NAME CHAR(10) NOT NULL, QTY INTEGER,\n"
                   "  PRIMARY KEY (ID));\n"
                   f"INSERT INTO INV.ITEM (ID, NAME, QTY) VALUES {values};\n")  # fmt: skip
    apply_files([ddl], db, note=lambda line: None)
    return db


def _walker(db: Database, tmp: Path, calls: list[list[tuple[str, int]]]) -> Callable[[], tuple[list[str], int, int]]:
    """A function calling ITEMWALK once through the C worker: its trace, its statements, the exchanges
    (each exchange's service and number logged in ``calls[-1]``)."""
    source = PROGRAMS / "ITEMWALK.cbl"
    built = precompile(source, "fixed", (), tmp / "gen")
    program: SqlProgram = load_program(built.source, list(scan_text(source, "fixed").statements), db,
                                       source_format="fixed", include=built.include)  # fmt: skip
    module = build_module(built.source, tmp / "cache", source_format="fixed", flags=(*DEFAULT_FLAGS, *built.flags),
                          include=built.include)  # fmt: skip
    runtime = Runtime(max_workers=1, worker=str(build_worker(tmp / "cache")), timeout=120)
    runtime.load("walk", module, "ITEMWALK", [2400, 4])
    log: list[tuple[str, int]] = []  # each exchange's service and number, of the last call
    calls.append(log)
    answerer = answerer_for(runtime)

    def call() -> tuple[list[str], int, int]:
        tracked = Tracked(Session(program), answerer)
        exchanges = [0]
        log.clear()

        def service(exchange: Any) -> list[bytes] | None:
            exchanges[0] += 1
            log.append((exchange.service, exchange.number))
            if exchange.service == "CICSRT":  # another service: echoed
                return list(exchange.params)
            return tracked.answer(exchange)

        box: list[Any] = []
        runtime.submit("walk", [bytes(2400), bytes(4)], box.append, 120, service=service)
        while not box:
            runtime.run_once(5)
            runtime.expire()
        tracked.end(box[0].ok)
        assert box[0].ok, box[0].error
        trace = box[0].buffers[0].decode("latin-1").rstrip().rstrip(";").split(";")
        return trace, int.from_bytes(box[0].buffers[1], "big"), exchanges[0]

    return call


def _expected() -> list[tuple[str, int, int | None]]:
    """Each entry's step, SQLCODE and (after a FETCH of a row, or the count) the ID, as DB2 answers them."""
    held, late = ("FH", 0), ("FL", 0)
    rows = [(*held, n) for n in (1, 2, 3)] + [("CX", 0, None), ("F2", 0, 4), ("F2", 0, 5), (*held, 6), ("SC", 0, ROWS)]
    rows += [(*held, 7), (*held, 8), ("CM", 0, None), (*held, 9), (*held, 10), ("OL", 0, None)]
    rows += [(*late, 21), (*late, 22), ("CM", 0, None), ("FL", -501, None)]
    rows += [(*held, n) for n in range(11, ROWS + 1)] + [("FH", 100, None), ("FH", 100, None), ("CH", 0, None)]
    rows += [("FH", -501, None), ("OH", 0, None), (*held, 1), (*held, 2)]  # the call ends: a row was sent ahead
    return [("OH", 0, None), *rows]


def _check(trace: list[str]) -> None:
    got = [(e[0:2], int(e[2:6]), int(e[6:11])) for e in trace]
    assert [(s, c, n if n is not None else got[k][2]) for k, (s, c, n) in enumerate(_expected())] == got
    for e in trace:
        step, code, n = e[0:2], int(e[2:6]), int(e[6:11])
        if step in ("FH", "F2", "FL") and code == 0:  # a row: all of it, a NULL leaving the 999 put there
            qty = _qty(n)
            assert (e[12:22], int(e[22:27]), int(e[27:30]), int(e[30:33])) == (
                f"ITEM{n:04d}  ",
                999 if qty is None else qty,
                -1 if qty is None else 0,
                1,
            ), e
        elif code != 0:
            assert int(e[30:33]) == 0, e


def test_a_walk_with_rows_sent_ahead_is_the_walk_without(database: Database, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    calls: list[list[tuple[str, int]]] = []
    call = _walker(database, tmp_path, calls)
    trace, statements, exchanges = call()
    log = list(calls[0])
    before = log[log.index(("CICSRT", 7)) - 1]  # the FETCHes' rows sent ahead, none used: told alone first
    assert before == ("SQLRT", 0)
    monkeypatch.setattr(ahead, "MOST", 0)  # nothing is sent ahead: every statement is an exchange
    plain, plain_statements, plain_exchanges = call()
    assert (plain_statements, plain_exchanges) == (statements, statements) == (len(trace), len(trace))
    assert trace == plain
    _check(trace)
    assert exchanges < statements - 15  # the FETCH loops were answered ahead
    assert ("SQLRT", 0) not in calls[0]  # nothing was sent ahead, nothing to tell


def test_rows_null_where_an_earlier_row_was_are_written_without_the_whole_way(
    database: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """(The walk's bytes are checked above, with and without rows sent ahead.) Of the rows a read ahead
    takes, only the first of each pattern of NULLs (here QTY NULL or not) goes through Unit.fetched."""
    counts = {"fetched": 0, "rows": 0, "reads": 0}
    fetched, read_ahead = Unit.fetched, Unit.read_ahead

    def counted_fetched(unit: Unit, number: int, row: Any) -> Any:
        counts["fetched"] += 1
        return fetched(unit, number, row)

    def counted_read(unit: Unit, name: str, count: int) -> list[Any]:
        rows = read_ahead(unit, name, count)
        counts["reads"] += 1
        counts["rows"] += len(rows)
        return rows

    monkeypatch.setattr(Unit, "fetched", counted_fetched)
    monkeypatch.setattr(Unit, "read_ahead", counted_read)
    call = _walker(database, tmp_path, [])
    trace, statements, exchanges = call()
    _check(trace)
    assert statements - exchanges > 20  # FETCHes the worker answered from rows sent ahead
    assert counts["rows"] > 100 and counts["fetched"] <= 2 * counts["reads"]  # (every row, before)
