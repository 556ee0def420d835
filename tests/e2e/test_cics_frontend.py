"""CICS and DB2 programs as shops lay them out, served by the real stdio server on SQLite and PostgreSQL:
a source library (cbl/) and a copy library (cpy/) with a member named like its program, comment-entries
with apostrophes, EXEC SQL INCLUDE under the COMMAREA's 01 level, a COMMAREA named DFHCOMMAREA by COPY
REPLACING. Each answers as its source says."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import pytest

from cobol_mcp.cobol.prepare.native_worker import build_worker
from cobol_mcp.cobol.prepare.programs import scan_folder
from cobol_mcp.db.url import Database

from ..db.postgres import postgres_url
from .database_folder import serve_with_database, structured
from .stdio_client import SERVER, StdioClient

__all__ = ["postgres_url"]  # the fixture, used by name

PROGRAMS = Path(__file__).parents[1] / "cics_programs"
SOURCES = {
    "samename/cbl": ["CUSTINQ.cbl"], "comments": ["ACCTNOTE.cbl"], "replcomm": ["ACCTUPD.cbl"],
    "sqlinclude": ["DEPTINQ.cbl", "DEPTBUDG.cbl"],
}  # fmt: skip
BOOKS = {"samename/cpy": ["CUSTINQ.cpy"], "replcomm/copybooks": ["ACCTCA.cpy"],
         "sqlinclude/copybooks": ["DCLDEPT.cpy", "DEPTCOMM.cpy"]}  # fmt: skip


def _library(root: Path) -> Path:
    """The test programs laid out as a shop's libraries: programs in cbl/, copybooks in cpy/."""
    for where, table in ((root / "cbl", SOURCES), (root / "cpy", BOOKS)):
        where.mkdir(parents=True, exist_ok=True)
        for folder, files in table.items():
            for name in files:
                shutil.copy(PROGRAMS / folder / name, where / name)
    return root / "cbl"


@pytest.fixture(params=["sqlite", "postgresql"])
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[StdioClient, Database]]:
    folder, cache = _library(tmp_path / "app"), tmp_path / "cache"
    scan_folder(folder, cache_dir=cache)  # compiled beforehand: the server starts warm, however busy the machine
    build_worker(cache)
    with serve_with_database(request, folder, cache) as found:
        yield found


def test_programs_as_shops_write_them_answer_as_their_sources_say(served: tuple[StdioClient, Database]) -> None:
    client, _ = served
    customer = structured(client.call("custinq", ci_customer_num=2))
    assert customer == {"ci_request_id": "01INQC", "ci_return_code": 0, "ci_customer_name": "BRIAN BOYLE",
                        "ci_postcode": "EF3 4GH"}  # fmt: skip
    assert structured(client.call("custinq", ci_customer_num=3))["ci_return_code"] == 1
    note = structured(client.call("acctnote", an_account=10001))
    assert (note["an_return_code"], note["an_note"]) == (0, "CUSTOMER'S ADDRESS UNCONFIRMED")
    assert note["an_asked_at"] > 0  # CICS ABSTIME: milliseconds since 1900
    assert structured(client.call("acctnote", an_account=99999))["an_return_code"] == 13
    paid = structured(client.call("acctupd", ac_account=7, ac_balance=10.5, ac_amount=-3.25))
    assert (paid["ac_return_code"], paid["ac_balance"]) == (0, Decimal("7.25"))
    refused = structured(client.call("acctupd", ac_account=7, ac_balance=1, ac_amount=-2))
    assert (refused["ac_return_code"], refused["ac_balance"]) == (8, Decimal("1.00"))
    dept = structured(client.call("deptinq", dc_deptno="A00"))
    assert (dept["dc_return_code"], dept["dc_deptname"], dept["dc_budget"]) == (0, "ADMINISTRATION",
                                                                              Decimal("1250000.50"))  # fmt: skip
    assert structured(client.call("deptinq", dc_deptno="ZZZ"))["dc_return_code"] == 1
    budget = structured(client.call("deptbudg", dc_deptno="D11"))
    assert (budget["dc_return_code"], budget["dc_budget"]) == (0, Decimal("0.10"))


def test_check_says_each_refusal_once_with_the_users_file_and_line(tmp_path: Path) -> None:
    """CLMINQ's COPY book and CLMUPD's own COMMAREA each hold a misspelt USAGE: `check` lists each refusal
    once, naming the book's or the program's file:line (and, for the book, the program), never the build
    cache."""
    shutil.copytree(PROGRAMS / "badbook", tmp_path / "app")
    app, cache = (tmp_path / "app").resolve(), tmp_path / "cache"
    done = subprocess.run(
        [*SERVER, "check", "--no-bundled", "--programs", str(app)], capture_output=True, text=True,
        env={**os.environ, "COBOL_MCP_CACHE": str(cache)}, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 1
    said = [line for line in done.stderr.splitlines() if str(app) in line]
    assert sorted(said) == sorted([
        f"error: {app / 'copybooks' / 'CLMCOMM.cpy'}:6: unexpected 'PACKED-DECIMEL' in the description of "
        f"CL-AMOUNT (a COPY book of {app / 'CLMINQ.cbl'}, which is not served)",
        f"error: {app / 'CLMUPD.cbl'}:15: unexpected 'COMPUTATONAL-3' in the description of CU-PAID",
    ]), done.stderr  # fmt: skip
    assert str(cache) not in done.stderr
