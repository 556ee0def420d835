"""The policy service (tests/cics_programs/policy/), a CICS back-end application served as its programs
stand, end to end on SQLite and PostgreSQL, over stdio and over HTTP: its DB2 DDL and rows applied by
`db apply` as the DBA keeps them, its policy file POLFILE loaded from its `load` file, and the four
request types of its front end POLFRNT published as named tools (request id hidden, one view each).
POLFRNT validates the COMMAREA and LINKs to POLVSAM (file control on POLFILE) and POLDB2 (the row of
POLICY.POLICY and its premium); new numbers come from the named counter POLICYNO, or from the identity
of POLICY.POLNUMS while that counter is not there; refused requests are logged to the TS queue
POLERRS; a TRV policy, whose product has no rate in DB2, abends in POLDB2 after its INSERT (PRAT)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any, Protocol

import pytest

from cobol_mcp.db.unit import connect
from cobol_mcp.db.url import Database

from ..db.postgres import postgres_url
from ..transports.conftest import HttpServer, McpHttp
from .database_folder import prepare_database
from .stdio_client import StdioClient

__all__ = ["postgres_url"]  # the fixture, used by name

APPLICATION = Path(__file__).parents[1] / "cics_programs" / "policy"
ARGS = ("--no-bundled", "--cobol-workers", "2", "--timeout", "120", "--shutdown-grace", "0")
TOOLS = {"add_policy": "pc_policy", "inquire_policy": "pc_policy", "update_policy": "pc_change",
         "delete_policy": "pc_key"}  # fmt: skip
NOTFND, DUPREC = 13, 14  # DFHRESP values
REABEND = next(number for number, line in enumerate((APPLICATION / "POLFRNT.cbl").read_text().splitlines(), 1)
               if "ABEND ABCODE(WS-ABCODE)" in line)  # fmt: skip


class Client(Protocol):
    def call(self, name: str, **arguments: object) -> dict[str, Any]: ...

    def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]: ...


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One build cache for the module: the programs are compiled once."""
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, Database]:
    folder = tmp_path / "policy"
    shutil.copytree(APPLICATION, folder)
    toml = (folder / "cobol-mcp.toml").read_text()
    return folder, prepare_database(request, folder, toml, (folder / "ddl" / "policy.sql",))


@pytest.fixture(params=["stdio", "http"])
def served(
    request: pytest.FixtureRequest, database: tuple[Path, Database], cache: Path
) -> Iterator[tuple[Client, Database]]:
    folder, db = database
    env = {"COBOL_MCP_CACHE": str(cache)}
    if request.param == "stdio":
        with StdioClient(*ARGS, "--programs", str(folder), env=env) as client:
            client.initialize()
            yield client, db
    else:
        with HttpServer(*ARGS, "--programs", str(folder), env=env) as server:
            http = McpHttp(server)
            try:
                yield http, db
            finally:
                http.close()


def _policy(number: int = 0, holder: str = "", product: str = "", sum_insured: int = 0) -> dict[str, object]:
    return {"pc_policy_no": number, "pc_holder_name": holder, "pc_product": product, "pc_sum_insured": sum_insured}


def _answer(result: dict[str, Any]) -> dict[str, Any]:
    assert not result.get("isError"), result
    out: dict[str, Any] = result["structuredContent"]
    return out


def _add(client: Client, number: int, holder: str, product: str, sum_insured: int) -> dict[str, Any]:
    return client.call("add_policy", pc_policy=_policy(number, holder, product, sum_insured))


def _inquire(client: Client, number: int) -> dict[str, Any]:
    return _answer(client.call("inquire_policy", pc_policy=_policy(number)))


def _rows(db: Database, sql: str, args: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
    conn = connect(db)
    try:
        if db.kind != "sqlite":
            sql = sql.replace('"POLICY.POLICY"', "policy.policy").replace('"POLICY.POLNUMS"', "policy.polnums")
            sql = sql.replace("?", "%s")
        cur = conn if db.kind == "sqlite" else conn.cursor()
        return [tuple(row) for row in cur.execute(sql, args).fetchall()]
    finally:
        conn.close()


def _stored(db: Database, number: int) -> tuple[int, int]:
    """(rows of POLICY.POLICY, records of POLFILE) of a policy number."""
    row = _rows(db, 'SELECT COUNT(*) FROM "POLICY.POLICY" WHERE POLICY_NO = ?', (number,))[0][0]
    record = _rows(db, "SELECT COUNT(*) FROM cics_records WHERE dataset = 'POLFILE' AND rid = ?",
                   (f"{number:08d}".encode(),))[0][0]  # fmt: skip
    return row, record


def _define_counter(db: Database, value: int) -> None:
    """The operator defines the named counter POLICYNO in pool POLPOOL (a counter server's definition)."""
    conn = connect(db)
    try:
        sql = ("INSERT INTO cics_counters (pool, name, wide, value, minimum, maximum) "
               "VALUES ('POLPOOL', 'POLICYNO', 0, ?, '1', '99999999')")  # fmt: skip
        cur = conn if db.kind == "sqlite" else conn.cursor()
        cur.execute(sql if db.kind == "sqlite" else sql.replace("?", "%s"), (str(value),))
        conn.commit()
    finally:
        conn.close()


def test_the_policy_service_adds_reads_changes_and_deletes_as_on_cics(served: tuple[Client, Database]) -> None:
    client, db = served

    # Its request types are the named tools: no request id to give, each its own view of the request data.
    listed = {tool["name"]: tool for tool in client.request("tools/list", {})["result"]["tools"]}
    for name, view in TOOLS.items():
        assert list(listed[name]["inputSchema"]["properties"]) == [view], listed[name]["inputSchema"]
    assert "polfrnt" not in listed  # the plain tool (every request type) is not published
    smuggled = client.call("inquire_policy", pc_request_id="DELPOL", pc_policy=_policy(10000001))
    assert smuggled.get("isError") and "pc_request_id" in smuggled["content"][0]["text"], smuggled

    # A policy of the load file and of the DBA's INSERTs, read through both back ends.
    loaded = _inquire(client, 10000001)
    assert (loaded["pc_return_code"], loaded["pc_message"]) == (0, ""), loaded
    assert loaded["pc_policy"]["pc_holder_name"] == "MARGARET HOLLOWAY" and loaded["pc_policy"]["pc_product"] == "MTR"
    assert loaded["pc_policy"]["pc_sum_insured"] == 18000 and Decimal(str(loaded["pc_policy"]["pc_premium"])) == 450

    # Added while the counter POLICYNO is not defined: GET COUNTER raises a condition, the number is the identity.
    added = _answer(_add(client, 0, "ALICE FAIRWEATHER", "MTR", 20000))
    assert added["pc_return_code"] == 0, added
    assert added["pc_policy"]["pc_policy_no"] == 20000001 and Decimal(str(added["pc_policy"]["pc_premium"])) == 500
    assert _stored(db, 20000001) == (1, 1)
    assert len(_rows(db, 'SELECT TASKN FROM "POLICY.POLNUMS"')) == 1
    read = _inquire(client, 20000001)["pc_policy"]
    assert (read["pc_holder_name"], read["pc_product"], read["pc_sum_insured"]) == ("ALICE FAIRWEATHER", "MTR", 20000)

    # Once the counter is defined, the numbers are its own.
    _define_counter(db, 50000001)
    counted = _answer(_add(client, 0, "BERNARD OKAFOR", "HOM", 250000))
    assert counted["pc_policy"]["pc_policy_no"] == 50000001, counted
    assert Decimal(str(counted["pc_policy"]["pc_premium"])) == 1000
    assert _stored(db, 50000001) == (1, 1) and len(_rows(db, 'SELECT TASKN FROM "POLICY.POLNUMS"')) == 1

    # Changed, then read: the holder in the VSAM record, the sum insured and its new premium in DB2.
    change = {
        "pc_chg_policy_no": 20000001,
        "pc_chg_holder_name": "ALICE FAIRWEATHER-JONES",
        "pc_chg_sum_insured": 40000,
    }
    changed = _answer(client.call("update_policy", pc_change=change))
    assert changed["pc_return_code"] == 0, changed
    read = _inquire(client, 20000001)["pc_policy"]
    assert (read["pc_holder_name"], read["pc_sum_insured"]) == ("ALICE FAIRWEATHER-JONES", 40000), read
    assert Decimal(str(read["pc_premium"])) == 1000

    # A duplicate: the WRITE answers DUPREC and POLVSAM returns code 8; nothing of it is stored.
    duplicate = _answer(_add(client, 10000002, "IMPOSTOR", "MTR", 1000))
    assert (duplicate["pc_return_code"], duplicate["pc_resp"], duplicate["pc_message"]) == (
        8, DUPREC, "POLICY ALREADY EXISTS"), duplicate  # fmt: skip
    assert _rows(db, 'SELECT PRODUCT FROM "POLICY.POLICY" WHERE POLICY_NO = 10000002') == [("HOM",)]
    assert _inquire(client, 10000002)["pc_policy"]["pc_holder_name"] == "OSWALD PEMBERTON"

    # Deleted, then read: POLVSAM's READ raises NOTFND, its HANDLE CONDITION answers code 4.
    deleted = _answer(client.call("delete_policy", pc_key={"pc_key_policy_no": 20000001}))
    assert deleted["pc_return_code"] == 0, deleted
    assert _stored(db, 20000001) == (0, 0)
    gone = _inquire(client, 20000001)
    assert (gone["pc_return_code"], gone["pc_resp"], gone["pc_message"]) == (4, NOTFND, "POLICY NOT FOUND"), gone
    again = _answer(client.call("delete_policy", pc_key={"pc_key_policy_no": 20000001}))
    assert (again["pc_return_code"], again["pc_resp"]) == (4, NOTFND), again

    # TRV has no rate in DB2: POLDB2 abends PRAT after its INSERT, POLFRNT's HANDLE ABEND notes it and
    # abends again. The call fails with the code; neither the row nor the VSAM record is left.
    abended = _add(client, 30000001, "CARLOS TRAVELLER", "TRV", 5000)
    assert abended.get("isError") and "code PRAT" in abended["content"][0]["text"], abended
    assert f"/POLFRNT.cbl:{REABEND}: ABEND" in abended["content"][0]["text"], abended  # from the abend exit
    assert _stored(db, 30000001) == (0, 0)
    abended = _add(client, 0, "DORA TRAVELLER", "TRV", 5000)  # with a counter number: given back too
    assert abended.get("isError") and "PRAT" in abended["content"][0]["text"], abended
    assert _stored(db, 50000002) == (0, 0)
    assert _answer(_add(client, 0, "ERNEST NEXT", "MTR", 1000))["pc_policy"]["pc_policy_no"] == 50000002

    # Refused by the front end's own checks.
    refused = _answer(_add(client, 0, "", "MTR", 1000))
    assert (refused["pc_return_code"], refused["pc_message"]) == (12, "A HOLDER NAME IS REQUIRED"), refused
    refused = _answer(_add(client, 0, "FRANK UNSOLD", "BOA", 1000))
    assert (refused["pc_return_code"], refused["pc_message"]) == (12, "UNKNOWN PRODUCT"), refused

    # The TS error log: one line per refused request, in order (the abended tasks' work is gone).
    lines = [bytes(row[0]).decode() for row in _rows(db, "SELECT data FROM cics_ts_items WHERE queue = 'POLERRS' "
                                                         "ORDER BY item")]  # fmt: skip
    assert [(line[9:15], line[16:24], line[25:27], line[28:].rstrip()) for line in lines] == [
        ("ADDPOL", "10000002", "08", "POLICY ALREADY EXISTS"),
        ("INQPOL", "20000001", "04", "POLICY NOT FOUND"),
        ("DELPOL", "20000001", "04", "POLICY NOT FOUND"),
        ("ADDPOL", "00000000", "12", "A HOLDER NAME IS REQUIRED"),
        ("ADDPOL", "00000000", "12", "UNKNOWN PRODUCT"),
    ], lines
