"""EXEC SQL in a LINKed CICS program, through the real stdio server and the C worker, on SQLite and
PostgreSQL. LNKSQLF LINKs to LNKSQLB, whose statements are numbered in LNKSQLB (its statement 1 is not
the front's): its INSERT is in the task's one unit of work, seen by the front's SELECT after the LINK,
committed when the task ends normally and rolled back when the front ABENDs afterwards; a DUPREC in
LNKSQLB leaves neither its own INSERT nor the front's behind. Each program has its own cursor EMPCSR.
LNKCOUNT counts its runs in WORKING-STORAGE: every LINK starts it afresh. A runtime error in LNKSQLB
names LNKSQLB's file and line."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cobol_mcp.db.url import Database

from ..db.postgres import postgres_url
from .database_folder import CUSTFILE, count_rows, serve_with_database, structured
from .stdio_client import StdioClient

__all__ = ["postgres_url"]  # the fixture, used by name

PROGRAMS = Path(__file__).parents[1] / "cics_programs"
TOML = CUSTFILE


@pytest.fixture(params=["sqlite", "postgresql"])
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[StdioClient, Database]]:
    folder = tmp_path / "cics"
    shutil.copytree(PROGRAMS / "copybooks", folder / "copybooks")
    shutil.copy(PROGRAMS / "linksql" / "LNKSQLC.cpy", folder / "copybooks")
    for name in ("LNKSQLF.cbl", "LNKSQLB.cbl", "LNKCOUNT.cbl"):
        shutil.copy(PROGRAMS / "linksql" / name, folder)
    with serve_with_database(request, folder, tmp_path / "cache", TOML) as served:
        yield served


def _front(client: StdioClient, request: str, name: str = "", number: int = 0) -> dict[str, Any]:
    return client.call("lnksqlf", ls_request=request, ls_cust_id=number, ls_name=name, ls_sqlcode=0,
                       ls_first_count=0, ls_second_count=0, ls_message="")  # fmt: skip


NAMED = 'SELECT COUNT(*) FROM "PAYROLL.EMPLOYEE" WHERE LASTNAME = ?'


def test_the_linked_programs_insert_is_in_the_tasks_unit_and_committed(served: tuple[StdioClient, Database]) -> None:
    client, db = served
    out = structured(_front(client, "INSR", "LINKEDSQL"))
    assert (out["ls_sqlcode"], out["ls_message"]) == (0, "ENROLLED"), out
    assert out["ls_first_count"] == 1, out  # the front's SELECT after the LINK sees the callee's row
    assert count_rows(db, NAMED, ["LINKEDSQL"]) == 1  # committed at the task's normal end


def test_an_abend_after_the_link_rolls_back_the_callees_insert(served: tuple[StdioClient, Database]) -> None:
    client, db = served
    result = _front(client, "ABAF", "ABENDAFTER")
    assert result.get("isError") and "FRAB" in result["content"][0]["text"], result
    assert count_rows(db, NAMED, ["ABENDAFTER"]) == 0
    assert structured(_front(client, "INSR", "NEXTTASK"))["ls_first_count"] == 1  # the next task runs as before


def test_a_duprec_in_the_linked_program_leaves_no_row_behind(served: tuple[StdioClient, Database]) -> None:
    client, db = served
    first = structured(_front(client, "DUPR", "FIRSTDUP", 4001))
    assert (first["ls_first_count"], first["ls_sqlcode"]) == (2, 0), first  # the front's row and the callee's
    assert count_rows(db, NAMED, ["FIRSTDUP"]) == 2
    second = _front(client, "DUPR", "SECONDDUP", 4001)  # the callee's WRITE: DUPREC, not handled: AEIN
    assert second.get("isError") and "AEIN" in second["content"][0]["text"], second
    assert count_rows(db, NAMED, ["SECONDDUP"]) == 0  # neither the front's INSERT nor the callee's
    assert count_rows(db, "SELECT COUNT(*) FROM cics_records WHERE dataset = 'CUSTFILE'", []) == 1


def test_each_program_has_its_own_cursor_of_the_same_name(served: tuple[StdioClient, Database]) -> None:
    client, db = served
    in_a00 = count_rows(db, "SELECT COUNT(*) FROM \"PAYROLL.EMPLOYEE\" WHERE WORKDEPT = 'A00'", [])
    assert in_a00 >= 1
    out = structured(_front(client, "CURS"))
    assert (out["ls_first_count"], out["ls_second_count"], out["ls_sqlcode"]) == (in_a00, in_a00, 0), out


def test_every_link_starts_with_a_fresh_working_storage(served: tuple[StdioClient, Database]) -> None:
    client, _ = served
    for _ in range(2):  # twice in one task, and again in the next task
        out = structured(_front(client, "CNT2"))
        assert (out["ls_first_count"], out["ls_second_count"]) == (1, 1), out


def test_a_runtime_error_in_the_linked_program_names_its_file(served: tuple[StdioClient, Database]) -> None:
    client, db = served
    result = _front(client, "FALT")
    assert result.get("isError"), result
    text = result["content"][0]["text"]
    folder = served[1].target.rsplit("/", 1)[0] if db.kind == "sqlite" else ""
    line = next(n for n, code in enumerate((PROGRAMS / "linksql" / "LNKSQLB.cbl").read_text().splitlines(), 1)
                if "WS-ENTRY (WS-IX)" in code)  # fmt: skip
    assert f"/LNKSQLB.cbl:{line}: error: subscript" in text, text  # the callee's own file and line
    assert "/cache/" not in text, text  # not the generated text in the build cache (tmp_path / "cache")
    assert not folder or f"{folder}/LNKSQLB.cbl:{line}:" in text, text
    assert structured(_front(client, "INSR", "AFTERFAULT"))["ls_first_count"] == 1
