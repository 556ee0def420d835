"""Which folders' statements the C worker runs itself, and what it is told (sqlbridge.inworker).

What the worker then does with a plan is shown end to end: tests/e2e/test_sql_tools.py (its folder's
programs all run in the worker: DB2's codes, a failed call leaving nothing, two calls not seeing each
other's rows) and tests/e2e/test_sql_in_worker.py (the same calls both ways, compared).
"""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from cobol_mcp.db.apply import apply_files
from cobol_mcp.db.url import Database
from cobol_mcp.sqlbridge import inworker
from cobol_mcp.sqlbridge.served import where_run, worker_session

from ..db.postgres import postgres_url
from .helpers import PROGRAMS, prepared, sql_program

__all__ = ["postgres_url"]  # the fixture, used by name

PAYROLL = Path(__file__).parents[1] / "db" / "payroll.sql"


def _program(folder: Path, body: str, data: str = "") -> Path:
    more = "01  WS-NUMBER               PIC S9(9) COMP.\n        01  WS-PAY                  PIC S9(7)V99 COMP-3."
    return sql_program(folder, "ONESQL", body, f"{more}\n        {data}")


@pytest.fixture
def db(tmp_path: Path) -> Database:
    database = Database("sqlite", str(tmp_path / "pay.db"))
    apply_files([PAYROLL], database, note=lambda line: None)
    return database


def _reason(tmp_path: Path, db: Database, body: str, data: str = "") -> str:
    program = prepared(_program(tmp_path / "src", body, data), tmp_path / "gen", db)
    found = inworker.folder_plans({"ONESQL": program})
    assert isinstance(found, str), "expected the folder to stay on the server's way"
    return found


def test_a_folder_of_plain_statements_runs_in_the_worker(tmp_path: Path, db: Database) -> None:
    program = prepared(PROGRAMS / "EMPMAINT.cbl", tmp_path / "gen", db)
    folder = {"EMPMAINT": program}
    plans = inworker.folder_plans(folder)
    assert isinstance(plans, dict) and set(plans[id(program)]) == set(program.hosts)
    assert where_run(folder) == "run in the COBOL worker"

    class CWorker:  # a runtime running the C worker
        worker = "/path/of/the/c/worker"

    session = worker_session(folder, CWorker())
    assert isinstance(session, inworker.WorkerSession)
    assert worker_session(folder, None) is None  # a run unit's statements: the server's way


def test_a_plan_says_the_sql_the_sizes_and_the_database(tmp_path: Path, db: Database) -> None:
    program = prepared(PROGRAMS / "EMPMAINT.cbl", tmp_path / "gen", db)
    for number, hosts in program.hosts.items():
        plan = inworker.statement_plan(program, number)
        op, _flags, _slot, _current, count = struct.unpack_from("<BBHHH", plan)
        sizes = list(struct.unpack_from(f"<{count}I", plan, 8))
        assert sizes == [136, *hosts.sizes]
        (length,) = struct.unpack_from("<H", plan, 8 + 4 * count)
        assert plan[10 + 4 * count : 10 + 4 * count + length].decode() == str(Path(db.target).resolve())
        p = program.plan.statements[number]
        if p.translation is not None and p.kind not in ("FETCH", "OPEN", "CLOSE"):
            assert p.translation.sql.encode() in plan and op in (inworker.OP_INTO, inworker.OP_CHANGE)


@pytest.mark.parametrize(
    ("body", "data", "reason"),
    [
        (
            """\
        0000-MAIN.
            EXEC SQL UPDATE PAYROLL.EMPLOYEE
                SET UPDATED_TS = :WS-NAME END-EXEC
            GOBACK.
        """,
            "",
            "a TIMESTAMP value from a host variable",
        ),
        (
            """\
        0000-MAIN.
            EXEC SQL DECLARE C1 INSENSITIVE SCROLL CURSOR FOR
                SELECT LASTNAME FROM PAYROLL.EMPLOYEE END-EXEC
            EXEC SQL OPEN C1 END-EXEC
            EXEC SQL FETCH LAST FROM C1 INTO :WS-NAME END-EXEC
            GOBACK.
        """,
            "",
            "cursor C1 is dynamic, scrollable or not declared",
        ),
        (
            """\
        0000-MAIN.
            EXEC SQL EXECUTE IMMEDIATE :WS-NAME END-EXEC
            GOBACK.
        """,
            "",
            "EXECUTE IMMEDIATE (dynamic SQL)",
        ),
        (
            """\
        0000-MAIN.
            EXEC SQL SELECT LASTNAME INTO :WS-WIDE FROM PAYROLL.EMPLOYEE
                WHERE EMPNO = :WS-NUMBER END-EXEC
            GOBACK.
        """,
            "01  WS-WIDE                 PIC N(15).",
            "host variable WS-WIDE",
        ),
    ],
    ids=["timestamp-host-variable", "scroll-cursor", "dynamic-sql", "national-host-variable"],
)
def test_what_keeps_a_folder_on_the_servers_way_is_said(
    tmp_path: Path, db: Database, body: str, data: str, reason: str
) -> None:
    assert reason in _reason(tmp_path, db, body, data)


def test_on_postgresql_a_plan_has_the_url_and_postgresqls_placeholders(postgres_url: str, tmp_path: Path) -> None:
    db = Database("postgresql", postgres_url)
    apply_files([PAYROLL], db, note=lambda line: None)
    program = prepared(PROGRAMS / "EMPMAINT.cbl", tmp_path / "gen", db)
    plans = inworker.folder_plans({"EMPMAINT": program})
    assert isinstance(plans, dict), plans
    for number, plan in plans[id(program)].items():
        assert postgres_url.encode() in plan and b"%s" not in plan
        t = program.plan.statements[number].translation
        if t is not None and t.params and program.plan.statements[number].kind not in ("FETCH", "CLOSE"):
            assert b"$1" in plan


def test_turned_off_by_the_environment(tmp_path: Path, db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    program = prepared(PROGRAMS / "EMPMAINT.cbl", tmp_path / "gen", db)

    class CWorker:
        worker = "/path/of/the/c/worker"

    monkeypatch.setenv(inworker.IN_WORKER_ENV, "0")
    assert worker_session({"EMPMAINT": program}, CWorker()) is None
    assert where_run({"EMPMAINT": program}) == f"run by the server ({inworker.IN_WORKER_ENV}=0)"
