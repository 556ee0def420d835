"""CUSTENRL, the application of the scale-out test (tests/deploy/test_scaleout.py), over stdio on SQLite
and on a real PostgreSQL: an enrolment takes a number from the named counter CUSTNO (DEFINEd on the
first INVREQ 201, IBM's answer for a counter not found), inserts the EMPLOYEE and EMPADDR rows and LINKs
to CUSTVSAM for the VSAM record, all in one unit of work; an inquiry reads the record back through
CUSTVSAM and counts its rows. When the back end refuses (DUPREC: the number is taken in the file
already) the task abends (CENR) and the rows it inserted before the LINK go with it; a refused request
is logged to the TS queue CUSTERRS."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cobol_mcp.db.unit import connect
from cobol_mcp.db.url import Database

from ..db.postgres import postgres_url
from .database_folder import CUSTFILE, serve_with_database
from .stdio_client import StdioClient

__all__ = ["postgres_url"]  # the fixture, used by name

PROGRAMS = Path(__file__).parents[1] / "cics_programs"
TOML = (
    CUSTFILE
    + """\

[programs.CUSTVSAM]
fields.CA-REQUEST-DATA = { view = "CA-CUSTOMER" }
"""
)


@pytest.fixture(params=["sqlite", "postgresql"])
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[StdioClient, Database]]:
    folder = tmp_path / "enrol"
    shutil.copytree(PROGRAMS / "copybooks", folder / "copybooks")
    shutil.copy(PROGRAMS / "scaleout" / "ENRLCOMM.cpy", folder / "copybooks")
    for source in (PROGRAMS / "scaleout" / "CUSTENRL.cbl", PROGRAMS / "CUSTVSAM.cbl", PROGRAMS / "ERRLOG.cbl"):
        shutil.copy(source, folder)
    with serve_with_database(request, folder, tmp_path / "cache", TOML) as served:
        yield served


def _enrol(client: StdioClient, request: str, tag: str = "", cust_id: int = 0) -> dict[str, Any]:
    return client.call("custenrl", en_request_id=request,
                       en_customer={"en_tag": tag, "en_cust_id": cust_id, "en_empno": 0, "en_rows": 0,
                                    "en_city": ""})  # fmt: skip


def _count(db: Database, sql: str) -> int:
    conn = connect(db)
    try:
        cur = conn if db.kind == "sqlite" else conn.cursor()
        found: int = cur.execute(sql).fetchone()[0]
        return found
    finally:
        conn.close()


def _rows(db: Database) -> tuple[int, int, int]:
    """(CUSTFILE records, enrolled employees, their addresses)."""
    employee, address = ('"PAYROLL.EMPLOYEE"', '"PAYROLL.EMPADDR"') if db.kind == "sqlite" else (
        "payroll.employee", "payroll.empaddr")  # fmt: skip
    return (
        _count(db, "SELECT COUNT(*) FROM cics_records WHERE dataset = 'CUSTFILE'"),
        _count(db, f"SELECT COUNT(*) FROM {employee} WHERE firstname = 'ENROLLED'"),
        _count(db, f"SELECT COUNT(*) FROM {address}") - 1,  # PAYROLL's own address row
    )


def test_an_enrolment_is_one_unit_of_work_and_an_abend_takes_its_rows_back(
    served: tuple[StdioClient, Database],
) -> None:
    client, db = served
    first = _enrol(client, "ENRCUS", "ALPHA")
    assert not first.get("isError"), first
    out = first["structuredContent"]
    assert out["en_return_code"] == 0 and out["en_customer"]["en_cust_id"] == 1  # DEFINEd at 1 on INVREQ 201
    assert out["en_customer"]["en_city"] == f"TASK {out['en_taskn']:07d}"
    second = _enrol(client, "ENRCUS", "BETA")["structuredContent"]
    assert second["en_customer"]["en_cust_id"] == 2 and second["en_taskn"] != out["en_taskn"]
    assert _rows(db) == (2, 2, 2)

    found = _enrol(client, "INQENR", cust_id=1)["structuredContent"]
    assert found["en_return_code"] == 0 and found["en_customer"]["en_tag"] == "ALPHA"
    assert found["en_customer"]["en_rows"] == 1 and found["en_customer"]["en_city"] == out["en_customer"]["en_city"]
    missing = _enrol(client, "INQENR", cust_id=99)["structuredContent"]
    assert (missing["en_return_code"], missing["en_message"]) == (4, "CUSTOMER NOT FOUND")

    # The next number, 3, is taken in the file already: CUSTVSAM answers DUPREC, CUSTENRL abends after
    # its two INSERTs, and they are rolled back with the task (and the counter's number with them).
    taken = client.call("custvsam", ca_request_id="ADDCUS", ca_message="",
                        ca_customer={"ca_cust_id": 3, "ca_cust_name": "SQUATTER", "ca_cust_city": "X",
                                     "ca_cust_balance": "0"})  # fmt: skip
    assert taken["structuredContent"]["ca_return_code"] == 0, taken
    refused = _enrol(client, "ENRCUS", "GAMMA")
    assert refused.get("isError") and "CENR" in refused["content"][0]["text"], refused
    assert _rows(db) == (3, 2, 2)  # the squatter's record; no GAMMA employee, no address

    invalid = _enrol(client, "ENRCUS", "")["structuredContent"]  # logged through ERRLOG
    assert (invalid["en_return_code"], invalid["en_message"]) == (12, "A TAG IS REQUIRED")
    assert _count(db, "SELECT COUNT(*) FROM cics_ts_items WHERE queue = 'CUSTERRS'") == 1
