"""EXEC CICS COMMAREA programs as tools, through the real stdio server and the C worker, on SQLite (the
folder's default file) and on a real PostgreSQL (``[folder] database``): CUSTVSAM's add, inquire, NOTFND
and DUPREC through HANDLE CONDITION and RESP; CUSTMISC's browse, TS queue, named counter (INVREQ, then
DEFINE), an ABEND after a WRITE that leaves no record behind, an unhandled NOTFND that abends the task
with AEIM, SYNCPOINT, HANDLE ABEND LABEL, IGNORE CONDITION, and the EIB (EIBCALEN, EIBTASKN, EIBDATE);
CUSTEMP's EXEC SQL INSERT and WRITE in one unit of work."""

from __future__ import annotations

import datetime
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
    folder = tmp_path / "cics"
    shutil.copytree(PROGRAMS / "copybooks", folder / "copybooks")
    shutil.copy(PROGRAMS / "CUSTVSAM.cbl", folder)
    shutil.copy(PROGRAMS / "served" / "CUSTMISC.cbl", folder)
    shutil.copy(PROGRAMS / "served" / "CUSTEMP.cbl", folder)
    with serve_with_database(request, folder, tmp_path / "cache", TOML) as served:
        yield served


def _customer(client: StdioClient, request: str, number: int, name: str = "", city: str = "") -> dict[str, Any]:
    result = client.call("custvsam", ca_request_id=request, ca_message="",
                         ca_customer={"ca_cust_id": number, "ca_cust_name": name, "ca_cust_city": city,
                                      "ca_cust_balance": "12.50"})  # fmt: skip
    assert not result.get("isError"), result
    out: dict[str, Any] = result["structuredContent"]
    return out


def _misc(client: StdioClient, request: str, key: int = 0) -> dict[str, Any]:
    return client.call("custmisc", mc_request=request, mc_key=key,
                       mc_ids=[0] * 5, mc_abcode="")  # fmt: skip


def _keys(db: Database) -> list[bytes]:
    conn = connect(db)
    try:
        cur = conn if db.kind == "sqlite" else conn.cursor()
        rows = cur.execute("SELECT rid FROM cics_records WHERE dataset = 'CUSTFILE' ORDER BY rid").fetchall()
        return [bytes(row[0]) for row in rows]
    finally:
        conn.close()


def test_a_commarea_program_adds_reads_and_branches_on_its_conditions(served: tuple[StdioClient, Database]) -> None:
    client, db = served
    tools = {t["name"] for t in client.request("tools/list")["result"]["tools"]}
    assert {"custvsam", "custmisc"} <= tools
    added = _customer(client, "ADDCUS", 1001, "ALICE", "LYON")
    assert added["ca_return_code"] == 0 and added["ca_message"] == "", added
    found = _customer(client, "INQCUS", 1001)
    assert found["ca_return_code"] == 0
    assert found["ca_customer"]["ca_cust_name"] == "ALICE" and found["ca_customer"]["ca_cust_city"] == "LYON"
    missing = _customer(client, "INQCUS", 4242)  # NOTFND through HANDLE CONDITION NOTFND(8100-NOT-FOUND)
    assert (missing["ca_return_code"], missing["ca_resp"], missing["ca_message"]) == (4, 13, "CUSTOMER NOT FOUND")
    twice = _customer(client, "ADDCUS", 1001, "ALICE", "LYON")  # DUPREC through HANDLE CONDITION
    assert (twice["ca_return_code"], twice["ca_resp"], twice["ca_message"]) == (8, 14, "CUSTOMER ALREADY EXISTS")
    gone = _customer(client, "DELCUS", 4242)  # NOTFND through RESP(WS-RESP)
    assert (gone["ca_return_code"], gone["ca_resp"]) == (4, 13)
    for number in (1003, 1002, 1005):
        assert _customer(client, "ADDCUS", number, f"C{number}")["ca_return_code"] == 0
    browse = _misc(client, "BRW", 1002)
    assert not browse.get("isError"), browse
    out = browse["structuredContent"]
    assert out["mc_count"] == 3 and out["mc_ids"][:3] == [1002, 1003, 1005] and out["mc_resp"] == 20  # ENDFILE
    assert len(_keys(db)) == 4


def test_queues_counters_and_abends(served: tuple[StdioClient, Database]) -> None:
    client, db = served
    first, second = _misc(client, "TSQ", 7), _misc(client, "TSQ", 8)
    assert first["structuredContent"]["mc_count"] == 1 and second["structuredContent"]["mc_count"] == 2
    counter = _misc(client, "CTR")["structuredContent"]  # never defined: INVREQ 201 (IBM), then DEFINE and GET
    assert (counter["mc_resp"], counter["mc_value"]) == (16, 1000)
    again = _misc(client, "CTR")["structuredContent"]
    assert (again["mc_resp"], again["mc_value"]) == (0, 1001)
    abended = _misc(client, "ABN", 5555)
    assert abended.get("isError") and "CABN" in abended["content"][0]["text"], abended
    assert _keys(db) == []  # the WRITE before the ABEND was rolled back with the task
    unguarded = _misc(client, "NFD", 6666)
    assert unguarded.get("isError") and "AEIM" in unguarded["content"][0]["text"], unguarded
    assert _misc(client, "CTR")["structuredContent"]["mc_value"] == 1002  # the server still serves
    synced = _misc(client, "SYN", 7777)  # WRITE, SYNCPOINT, ABEND: what the SYNCPOINT committed stays
    assert synced.get("isError") and "CSYN" in synced["content"][0]["text"], synced
    assert _keys(db) == [b"00007777"]
    handled = _misc(client, "HAB", 8888)  # HANDLE ABEND LABEL: the AEIM goes to the exit, which RETURNs
    assert not handled.get("isError") and handled["structuredContent"]["mc_abcode"] == "AEIM", handled
    assert _keys(db) == [b"00007777", b"00008888"]  # the task ended normally: its WRITE is kept


def test_the_eib_ignore_condition_and_the_date(served: tuple[StdioClient, Database]) -> None:
    client, _ = served
    ignored = _misc(client, "IGN", 4242)  # IGNORE CONDITION NOTFND: the READ carries on, EIBRESP says NOTFND
    assert not ignored.get("isError") and ignored["structuredContent"]["mc_resp"] == 13, ignored
    first, second = (_misc(client, "EIB")["structuredContent"] for _ in range(2))
    assert first["mc_count"] == 71  # EIBCALEN: the COMMAREA's length (3 + 8 + 4 + 4 + 8 + 5 * 8 + 4)
    assert first["mc_value"] != second["mc_value"]  # EIBTASKN: one task per call
    today = datetime.date(*(int(s) for s in (str(first["mc_ids"][0])[:4], str(first["mc_ids"][0])[4:6],
                                            str(first["mc_ids"][0])[6:])))  # fmt: skip
    century = today.year // 100 - 19  # EIBDATE is 0CYYDDD
    assert first["mc_ids"][1] == century * 100000 + (today.year % 100) * 1000 + today.timetuple().tm_yday


def _employees(db: Database, lastname: str) -> int:
    conn = connect(db)
    try:
        sql = 'SELECT COUNT(*) FROM "PAYROLL.EMPLOYEE" WHERE LASTNAME = ?' if db.kind == "sqlite" else (
            "SELECT COUNT(*) FROM payroll.employee WHERE lastname = %s")  # fmt: skip
        cur = conn if db.kind == "sqlite" else conn.cursor()
        count: int = cur.execute(sql, [lastname]).fetchone()[0]
        return count
    finally:
        conn.close()


def test_sql_and_file_control_are_one_unit_of_work(served: tuple[StdioClient, Database]) -> None:
    client, db = served
    first = client.call("custemp", ce_cust_id=2001, ce_lastname="FIRSTONE")
    assert not first.get("isError") and first["structuredContent"]["ce_sqlcode"] == 0, first
    assert _employees(db, "FIRSTONE") == 1 and len(_keys(db)) == 1
    second = client.call("custemp", ce_cust_id=2001, ce_lastname="SECONDONE")  # DUPREC: ABEND
    assert second.get("isError") and "CDUP" in second["content"][0]["text"], second
    assert _employees(db, "SECONDONE") == 0  # its INSERT went with the abended task
    assert _employees(db, "FIRSTONE") == 1 and len(_keys(db)) == 1
