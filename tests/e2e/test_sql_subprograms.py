"""EXEC SQL in a subprogram CALLed by a batch program (a run unit) and by a callable program (a worker),
through the real stdio server, on SQLite and PostgreSQL. EMPHIRE (batch) and EMPONLN (callable) insert a
row, CALL EMPENROL, which inserts one too (its statements numbered in EMPENROL, not in its caller), and
count the rows of the name: both rows are in the call's one unit of work, committed at a normal end,
both rolled back when the caller dies afterwards (a CALL of a program that is not there). EMPCHK, a
callable program without EXEC SQL of its own, and EMPLOAD, a batch step without it, CALL EMPENROL too."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cobol_mcp.db.url import Database

from ..db.postgres import postgres_url
from .database_folder import count_rows, serve_with_database
from .stdio_client import StdioClient

__all__ = ["postgres_url"]  # the fixture, used by name

PROGRAMS = Path(__file__).parents[1] / "sql_programs" / "calls"
NAMED = 'SELECT COUNT(*) FROM "PAYROLL.EMPLOYEE" WHERE LASTNAME = ?'
IN_A00 = "SELECT COUNT(*) FROM \"PAYROLL.EMPLOYEE\" WHERE WORKDEPT = 'A00'"


@pytest.fixture(params=["sqlite", "postgresql"])
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[StdioClient, Database]]:
    folder = tmp_path / "hire"
    folder.mkdir()
    for name in (
        "EMPREQ.cpy",
        "EMPENROL.cbl",
        "EMPHIRE.cbl",
        "EMPONLN.cbl",
        "EMPCHK.cbl",
        "EMPLOAD.cbl",
        "EMPWALK.cbl",
    ):
        shutil.copy(PROGRAMS / name, folder)
    with serve_with_database(request, folder, tmp_path / "cache") as served:
        yield served


def _online(client: StdioClient, name: str, abend: str = " ") -> dict[str, Any]:
    return client.call("emponln", ho_lastname=name, ho_dept="A00", ho_abend=abend)


def test_a_batch_programs_subprogram_runs_its_sql_in_the_steps_unit(served: tuple[StdioClient, Database]) -> None:
    client, db = served
    in_a00 = count_rows(db, IN_A00, [])
    result = client.call("emphire", input="BATCHHIRE       A00")
    assert not result.get("isError"), result
    report = result["structuredContent"]["stdout"].splitlines()
    assert report[0].split() == ["EMPENROL", "SQLCODE", "0", "DEPARTMENT", "COUNT", str(in_a00 + 2)], report
    assert report[1].split() == ["ROWS", "NAMED", "BATCHHIRE", "2"], report  # the caller sees the callee's row
    assert count_rows(db, NAMED, ["BATCHHIRE"]) == 2  # committed at STOP RUN


def test_a_batch_step_that_dies_after_the_call_leaves_no_row(served: tuple[StdioClient, Database]) -> None:
    client, db = served
    died = client.call("emphire", input="BATCHABEND      A00 A")
    assert died.get("isError") and "EMPABND" in str(died["content"]), died
    assert count_rows(db, NAMED, ["BATCHABEND"]) == 0  # neither the step's row nor its subprogram's
    again = client.call("emphire", input="BATCHAGAIN      A00")
    assert not again.get("isError") and count_rows(db, NAMED, ["BATCHAGAIN"]) == 2, again


def test_a_callable_programs_subprogram_runs_its_sql_in_the_calls_unit(served: tuple[StdioClient, Database]) -> None:
    client, db = served
    in_a00 = count_rows(db, IN_A00, [])
    result = _online(client, "ONLINEHIRE")
    assert not result.get("isError"), result
    out = result["structuredContent"]
    assert (out["ho_enrol_sqlcode"], out["ho_dept_count"], out["ho_named_count"]) == (0, in_a00 + 2, 2), out
    assert count_rows(db, NAMED, ["ONLINEHIRE"]) == 2
    died = _online(client, "ONLINEABEND", "A")
    assert died.get("isError") and "EMPABND" in str(died["content"]), died
    assert count_rows(db, NAMED, ["ONLINEABEND"]) == 0


def test_the_subprogram_is_a_tool_of_its_own_too(served: tuple[StdioClient, Database]) -> None:
    client, db = served
    result = client.call("empenrol", er_lastname="DIRECTCALL", er_dept="A00")
    assert not result.get("isError") and result["structuredContent"]["er_sqlcode"] == 0, result
    assert count_rows(db, NAMED, ["DIRECTCALL"]) == 1


def test_a_caller_without_sql_of_its_own_gets_its_subprograms_unit(served: tuple[StdioClient, Database]) -> None:
    client, db = served
    result = client.call("empchk", ck_lastname="CHECKEDHIRE", ck_dept="A00", ck_abend=" ")
    assert not result.get("isError"), result
    out = result["structuredContent"]
    assert (out["ck_result"], out["ck_sqlcode"]) == ("ENROLLED", 0), out
    assert count_rows(db, NAMED, ["CHECKEDHIRE"]) == 1  # committed when EMPCHK ended normally
    died = client.call("empchk", ck_lastname="CHECKEDABEND", ck_dept="A00", ck_abend="A")
    assert died.get("isError") and "EMPABND" in str(died["content"]), died
    assert count_rows(db, NAMED, ["CHECKEDABEND"]) == 0


def test_a_batch_step_without_sql_of_its_own_gets_its_subprograms_unit(served: tuple[StdioClient, Database]) -> None:
    client, db = served
    tools = {tool["name"]: tool for tool in client.request("tools/list")["result"]["tools"]}
    assert tools["empload"]["annotations"]["readOnlyHint"] is False  # what it CALLs may change the database
    cards = "LOADEDONE       A00\nLOADEDTWO       A00\n*END\n"
    result = client.call("empload", input=cards)
    assert not result.get("isError"), result
    assert result["structuredContent"]["stdout"].split() == ["EMPLOAD", "HIRES", "LOADED", "2"], result
    assert count_rows(db, NAMED, ["LOADEDONE"]) == 1 and count_rows(db, NAMED, ["LOADEDTWO"]) == 1
    died = client.call("empload", input="LOADEDTHREE     A00\nLOADEDFOUR      A00 A\n*END\n")
    assert died.get("isError") and "EMPABND" in str(died["content"]), died
    assert count_rows(db, NAMED, ["LOADEDTHREE"]) == 0 and count_rows(db, NAMED, ["LOADEDFOUR"]) == 0


def test_a_subprograms_sql_between_fetches_loses_no_row_of_the_callers_cursor(
    served: tuple[StdioClient, Database],
) -> None:
    """EMPWALK FETCHes three rows of a department of 40 rows and more (the server sends rows ahead of its FETCHes to
    the worker), CALLs EMPENROL, whose own statements switch the call to its program, then FETCHes on:
    the rows sent ahead and not used go back to the cursor first, so every row is fetched once."""
    client, _ = served
    walk = client.call("empwalk", wk_dept="D11", wk_hires=40, wk_enrol_dept="A00")["structuredContent"]
    assert walk["wk_enrol_sqlcode"] == 0 and walk["wk_end_sqlcode"] == 100, walk
    assert walk["wk_table_count"] >= 40, walk
    assert (walk["wk_fetched"], walk["wk_fetched_sum"]) == (walk["wk_table_count"], walk["wk_table_sum"])
