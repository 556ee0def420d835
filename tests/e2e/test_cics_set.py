"""The SET forms of the CICS commands that give data, through the real stdio server and the C worker, on
SQLite and PostgreSQL. CUSTSETP maps the data in LINKAGE (SET(ADDRESS OF …)) and uses its fields: READ
SET of a customer (LENGTH given back as the record's length, not taken as a limit), then of a key that
is not there (NOTFND leaves the pointer as it was); a browse with READNEXT SET and a READPREV SET;
READQ TS SET by ITEM and NEXT (a FREEMAIN of that storage is INVREQ); GET CONTAINER SET, twice for one
container (the second data replaces the first), FLENGTH the data's length."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cobol_mcp.db.url import Database

from ..db.postgres import postgres_url
from .database_folder import CUSTFILE, serve_with_database
from .stdio_client import StdioClient

__all__ = ["postgres_url"]  # the fixture, used by name

PROGRAMS = Path(__file__).parents[1] / "cics_programs"
RECORDS = [(10, "ALICE MARTIN", "LYON", "00012345"), (20, "BRUNO COSTA", "PORTO", "00000050"),
           (30, "CHIARA ROSSI", "TORINO", "00990000"), (40, "DIRK VOSS", "BREMEN", "00000001")]  # fmt: skip
TOML = CUSTFILE + 'load = "customers.txt"\n'


@pytest.fixture(params=["sqlite", "postgresql"])
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[StdioClient, Database]]:
    folder = tmp_path / "setptr"
    shutil.copytree(PROGRAMS / "setptr", folder)
    shutil.copy(PROGRAMS / "copybooks" / "CUSTREC.cpy", folder)
    lines = [f"{key:08d}{name:<30}{city:<20}{balance}0" for key, name, city, balance in RECORDS]
    (folder / "customers.txt").write_text("\n".join(lines) + "\n")
    with serve_with_database(request, folder, tmp_path / "cache", TOML) as served:
        yield served


def _call(client: StdioClient, request: str, key: int = 0) -> dict[str, Any]:
    given = dict(sc_request=request, sc_key=key, sc_resp=0, sc_length=0, sc_name="", sc_city="", sc_balance="0",
                 sc_null_kept="", sc_count=0, sc_ids=[0] * 5, sc_prev_id=0, sc_text_1="", sc_text_2="",
                 sc_length_2=0, sc_free_resp=0)  # fmt: skip
    tools = {tool["name"]: tool for tool in client.request("tools/list")["result"]["tools"]}
    inputs = tools["custsetp"]["inputSchema"]["properties"]  # the fields the analysis takes as inputs
    assert {"sc_request", "sc_key"} <= set(inputs)
    result = client.call("custsetp", **{name: value for name, value in given.items() if name in inputs})
    assert not result.get("isError"), result
    out: dict[str, Any] = result["structuredContent"]
    return out


def test_read_set_maps_the_record_in_linkage(served: tuple[StdioClient, Database]) -> None:
    client, _ = served
    out = _call(client, "INQ", 20)
    assert out["sc_resp"] == 0, out
    assert (out["sc_name"], out["sc_city"]) == ("BRUNO COSTA", "PORTO")
    assert float(out["sc_balance"]) == 5.0
    assert out["sc_length"] == 200  # LENGTH(WS-REC-LEN) came in as 0: set to the record's length, no LENGERR
    assert out["sc_null_kept"] == "Y"  # NOTFND: SET's pointer left as the program had it (NULL)
    again = _call(client, "INQ", 40)  # a reused worker: the area is the new call's
    assert (again["sc_name"], again["sc_city"]) == ("DIRK VOSS", "BREMEN")


def test_a_browse_by_pointer(served: tuple[StdioClient, Database]) -> None:
    client, _ = served
    out = _call(client, "BRW", 15)
    assert out["sc_ids"] == [20, 30, 40, 0, 0] and out["sc_count"] == 3
    assert out["sc_resp"] == 20  # ENDFILE ended the loop
    assert out["sc_length"] == 200
    assert out["sc_prev_id"] == 30  # READPREV SET after RESETBR to key 30: that record


def test_readq_ts_set(served: tuple[StdioClient, Database]) -> None:
    client, _ = served
    out = _call(client, "TSQ")
    assert (out["sc_length"], out["sc_text_1"]) == (24, "FIRST NOTE OF THE QUEUE")
    assert (out["sc_resp"], out["sc_length_2"]) == (0, 40)
    assert out["sc_text_2"] == "SECOND NOTE, A LONGER ONE, FORTY BYTES."
    assert out["sc_free_resp"] == 16  # FREEMAIN of the item's storage: INVREQ, it is not the task's GETMAIN


def test_get_container_set(served: tuple[StdioClient, Database]) -> None:
    client, _ = served
    out = _call(client, "CON", 1234)
    assert (out["sc_resp"], out["sc_length"]) == (0, 24)
    assert out["sc_text_1"] == "CONTAINER DATA: 00001234"
    assert (out["sc_length_2"], out["sc_text_2"]) == (24, "FIRST NOTE OF THE QUEUE")
