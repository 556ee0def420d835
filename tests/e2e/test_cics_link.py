"""EXEC CICS LINK and XCTL through the real stdio server and the C worker, on SQLite and PostgreSQL.
CUSTFRNT checks a COMMAREA, takes a number from a named counter and LINKs to CUSTVSAM to add and read
a customer. LNKFRNT LINKs to LNKECHO with a shorter LENGTH (the callee's EIBCALEN, the caller's own
after it), to a program that is not there (PGMIDERR through RESP), XCTLs (it does not resume),
catches the callee's ABEND with its HANDLE ABEND LABEL (also two levels down, through LNKMID), and
inserts a row before a LINK whose DUPREC abends the task (the row goes with it)."""

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
TOML = (
    CUSTFILE
    + """\

[programs.CUSTVSAM]
fields.CA-REQUEST-DATA = { view = "CA-CUSTOMER" }

[programs.CUSTFRNT]
fields.CA-REQUEST-DATA = { view = "CA-CUSTOMER" }
"""
)


@pytest.fixture(params=["sqlite", "postgresql"])
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[StdioClient, Database]]:
    folder = tmp_path / "cics"
    shutil.copytree(PROGRAMS / "copybooks", folder / "copybooks")
    shutil.copy(PROGRAMS / "link" / "LNKCOMM.cpy", folder / "copybooks")
    for name in (
        "CUSTVSAM.cbl",
        "CUSTFRNT.cbl",
        "ERRLOG.cbl",
        "link/LNKFRNT.cbl",
        "link/LNKECHO.cbl",
        "link/LNKMID.cbl",
    ):
        shutil.copy(PROGRAMS / name, folder)
    with serve_with_database(request, folder, tmp_path / "cache", TOML) as served:
        yield served


def _front(client: StdioClient, request: str, number: int = 0, name: str = "") -> dict[str, Any]:
    return client.call("lnkfrnt", lf_request=request, lf_calen=0, lf_front_calen=0, lf_resp=0,
                       lf_cust_id=number, lf_name=name, lf_message="", lf_abcode="")  # fmt: skip


def test_a_front_end_links_to_its_back_end(served: tuple[StdioClient, Database]) -> None:
    client, _ = served
    customer = {"ca_cust_id": 0, "ca_cust_name": "BERTHE", "ca_cust_city": "NANTES", "ca_cust_balance": "3.25"}
    added = structured(client.call("custfrnt", ca_request_id="ADDCUS",
                             ca_customer=customer))  # fmt: skip
    assert (added["ca_return_code"], added["ca_message"]) == (0, ""), added
    number = added["ca_customer"]["ca_cust_id"]
    assert number == 1000  # the counter CUSTNO, defined by the front end at its first ADD
    found = structured(client.call("custvsam", ca_request_id="INQCUS", ca_message="",
                             ca_customer={**customer, "ca_cust_id": number, "ca_cust_name": ""}))  # fmt: skip
    assert found["ca_customer"]["ca_cust_name"] == "BERTHE" and found["ca_customer"]["ca_cust_city"] == "NANTES"
    again = structured(client.call("custfrnt", ca_request_id="INQCUS",
                             ca_customer={**customer, "ca_cust_id": number, "ca_cust_name": ""}))  # fmt: skip
    assert again["ca_return_code"] == 0 and again["ca_customer"]["ca_cust_name"] == "BERTHE", again
    missing = structured(client.call("custfrnt", ca_request_id="INQCUS",
                               ca_customer={**customer, "ca_cust_id": 4242}))  # fmt: skip
    assert (missing["ca_return_code"], missing["ca_resp"]) == (4, 13), missing  # the back end's NOTFND


def test_the_callee_has_its_own_eibcalen(served: tuple[StdioClient, Database]) -> None:
    out = structured(_front(served[0], "EIBL"))
    assert (out["lf_calen"], out["lf_front_calen"], out["lf_message"]) == (14, 65, "LINKED"), out


def test_a_link_to_an_unknown_program_is_pgmiderr(served: tuple[StdioClient, Database]) -> None:
    out = structured(_front(served[0], "NOPG"))
    assert out["lf_resp"] == 27 and out["lf_message"] == "", out  # DFHRESP(PGMIDERR)


def test_xctl_does_not_return_to_the_caller(served: tuple[StdioClient, Database]) -> None:
    out = structured(_front(served[0], "XCTL"))
    assert (out["lf_message"], out["lf_calen"]) == ("XCTLED", 65), out


def test_an_abend_in_the_callee_goes_to_the_callers_handle_abend(served: tuple[StdioClient, Database]) -> None:
    out = structured(_front(served[0], "HABN"))
    assert (out["lf_message"], out["lf_abcode"], out["lf_calen"]) == ("CAUGHT", "LKAB", 65), out


def test_an_abend_two_levels_down_skips_the_middle_level(served: tuple[StdioClient, Database]) -> None:
    out = structured(_front(served[0], "NEST"))  # LNKFRNT -> LNKMID -> LNKECHO, which abends
    assert (out["lf_message"], out["lf_abcode"], out["lf_name"]) == ("CAUGHT", "LKAB", ""), out


def test_a_duprec_in_the_callee_rolls_back_the_callers_insert(served: tuple[StdioClient, Database]) -> None:
    client, db = served
    employees = 'SELECT COUNT(*) FROM "PAYROLL.EMPLOYEE" WHERE LASTNAME = ?'
    first = structured(_front(client, "EMPL", 3001, "FIRSTLINK"))
    assert (first["lf_message"], first["lf_resp"]) == ("ENROLLED", 1), first  # SQL after the LINK: its own row
    assert count_rows(db, employees, ["FIRSTLINK"]) == 1
    second = _front(client, "EMPL", 3001, "SECONDLINK")  # the callee's WRITE: DUPREC, not handled: AEIN
    assert second.get("isError") and "AEIN" in second["content"][0]["text"], second
    assert count_rows(db, employees, ["SECONDLINK"]) == 0
    assert count_rows(db, "SELECT COUNT(*) FROM cics_records WHERE dataset = 'CUSTFILE'", []) == 1
    assert structured(_front(client, "EIBL"))["lf_calen"] == 14  # the next task LINKs as before
