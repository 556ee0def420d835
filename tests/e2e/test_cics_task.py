"""CICS storage, enqueue and interval control through the real stdio server and the C worker, on SQLite
and PostgreSQL: CUSTTASK GETMAINs areas it addresses (INITIMG, SET ADDRESS OF, a POINTER), FREEMAINs
them (again: INVREQ), gets LENGERR by RESP and by HANDLE CONDITION, ADDRESSes its EIB and COMMAREA
(no CWA: NULL), holds an ENQ while a second call's NOSUSPEND ENQ gets ENQBUSY (and HANDLE CONDITION
ENQBUSY goes to its label), DELAYs (a bad INTERVAL is INVREQ; a call cancelled in an hour's DELAY
ends and rolls back, its ENQ released), and FORMATTIMEs a fixed ABSTIME (DATESTRING, DATEFORM,
MILLISECONDS; DATESTRING in RFC 3339 and RFC 1123 at local time by DFHVALUE, an unknown STRINGZONE
INVREQ), and under HANDLE ABEND PROGRAM an ABEND LINKs to the exit, which sees ASSIGN ABCODE."""

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
from .database_folder import serve_with_database
from .stdio_client import StdioClient

__all__ = ["postgres_url"]  # the fixture, used by name

PROGRAMS = Path(__file__).parents[1] / "cics_programs" / "task"
EMPTY = {"ta_key": 0, "ta_resp": 0, "ta_resp2": 0, "ta_count": 0, "ta_flag": "", "ta_text": "", "ta_date": "",
         "ta_millis": 0, "ta_form": ""}  # fmt: skip


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "task"
    folder.mkdir()
    for name in ("CUSTTASK.cbl", "TASKCOMM.cpy", "TASKABX.cbl"):
        shutil.copy(PROGRAMS / name, folder)
    return folder


@pytest.fixture(params=["sqlite", "postgresql"])
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[StdioClient, Database]]:
    with serve_with_database(request, _folder(tmp_path), tmp_path / "cache") as served:
        yield served


@pytest.fixture(params=["sqlite"])
def served_east(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[StdioClient, Database]]:
    """CUSTTASK served with the server's local time zone fixed at UTC+05:30 (TZ, a POSIX rule)."""
    monkeypatch.setenv("TZ", "IST-5:30")
    with serve_with_database(request, _folder(tmp_path), tmp_path / "cache") as served:
        yield served


def _task(client: StdioClient, request: str, key: int = 0) -> dict[str, Any]:
    result = client.call("custtask", **{**EMPTY, "ta_request": request, "ta_key": key})
    assert not result.get("isError"), result
    out: dict[str, Any] = result["structuredContent"]
    return out


def _send(client: StdioClient, call_id: str, request: str, key: int) -> None:
    """A call sent without waiting for its reply."""
    arguments = {**EMPTY, "ta_request": request, "ta_key": key}
    client.send({"jsonrpc": "2.0", "id": call_id, "method": "tools/call",
                 "params": {"name": "custtask", "arguments": arguments}})  # fmt: skip


def _queue(db: Database, queue: str) -> list[bytes]:
    conn = connect(db)
    try:
        cur = conn if db.kind == "sqlite" else conn.cursor()
        sql = "SELECT data FROM cics_ts_items WHERE queue = " + ("?" if db.kind == "sqlite" else "%s")
        return [bytes(row[0]) for row in cur.execute(sql + " ORDER BY item", [queue]).fetchall()]
    finally:
        conn.close()


def _items(db: Database, queue: str) -> int:
    return len(_queue(db, queue))


def test_getmain_freemain_and_address(served: tuple[StdioClient, Database]) -> None:
    client, _ = served
    stored = _task(client, "GTM")
    assert stored["ta_count"] == 200  # INITIMG filled the whole FLENGTH
    assert stored["ta_text"] == "STORED IN A GETMAIN AREA" and stored["ta_flag"] == "Y"  # no INITIMG: zeros
    assert (stored["ta_resp"], stored["ta_resp2"]) == (16, 1)  # the second FREEMAIN: INVREQ
    assert _task(client, "GTM") == stored  # the next call on a reused worker does the same
    length = _task(client, "LEN")
    assert (length["ta_resp"], length["ta_flag"]) == (22, "L")  # LENGERR by RESP, then by HANDLE CONDITION
    address = _task(client, "ADR")
    assert address["ta_count"] == 108  # EIBCALEN read through ADDRESS EIB
    assert address["ta_text"] == "ADR" and address["ta_flag"] == "Y"  # the COMMAREA through its pointer; no CWA


def test_enq_serialises_calls(served: tuple[StdioClient, Database]) -> None:
    client, db = served
    _send(client, "holder", "HLD", 42)
    while _items(db, "ENQSTATE") < 2:  # the holder has its ENQ, and has DELAYed 100 ms once: calls sent
        pass  # from now on find its worker stalled (50 ms) and go to another, not behind it
    busy = _task(client, "TRY", 42)
    assert busy["ta_resp"] == 55  # ENQBUSY, with NOSUSPEND and RESP
    handled = _task(client, "TRH", 42)
    assert (handled["ta_flag"], handled["ta_resp"]) == ("B", 55)  # HANDLE CONDITION ENQBUSY: no wait
    assert _task(client, "TRY", 43)["ta_resp"] == 0  # another resource is free
    _task(client, "GOA")
    holder = client.read(timeout=120)
    assert holder["id"] == "holder" and holder["result"]["structuredContent"]["ta_flag"] == "Y", holder
    assert _task(client, "TRY", 42)["ta_resp"] == 0  # released at the holder's end
    assert _task(client, "TRH", 42)["ta_flag"] == "G"


def test_delay_and_a_cancelled_delay(served: tuple[StdioClient, Database]) -> None:
    client, db = served
    delayed = _task(client, "DLY")
    assert (delayed["ta_resp"], delayed["ta_resp2"]) == (16, 5)  # INTERVAL(006000): 60 minutes is INVREQ
    _send(client, "sleeper", "DLL", 7)
    while _items(db, "SLEEPING") == 0:  # the sleeper has DELAYed 100 ms: its worker counts as stalled
        pass
    while _task(client, "TRY", 7)["ta_resp"] == 0:  # until the sleeper holds its ENQ (a free one is released)
        pass
    client.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "sleeper"}})
    waited = _task(client, "WAI", 7)  # an ENQ that waits: it gets the resource once the cancelled call ended
    assert waited["ta_flag"] == "G"
    assert _items(db, "DELAYED") == 0  # the sleeper's WRITEQ TS went with its rollback


def test_formattime_gives_every_form(served: tuple[StdioClient, Database]) -> None:
    client, _ = served
    out = _task(client, "FMT")
    when = datetime.datetime(1900, 1, 1) + datetime.timedelta(milliseconds=3973170896789)
    utc = when.astimezone(datetime.UTC)
    assert out["ta_text"] == utc.strftime("%a, %d %b %Y %H:%M:%S GMT")  # RFC 1123 at UTC (C locale names)
    assert out["ta_date"] == when.strftime("%Y-%m-%d") and out["ta_form"] == "MMDDYY"
    assert out["ta_millis"] == 789


def test_formattime_stringformat_and_stringzone_by_dfhvalue(served_east: tuple[StdioClient, Database]) -> None:
    client, _ = served_east
    out = _task(client, "FMS")  # ABSTIME 2025-11-26 18:34:56.789, local time, at UTC+05:30
    rfc3339, rfc1123 = "2025-11-26T18:34:56.789+05:30", "Wed, 26 Nov 2025 18:34:56 +0530"
    assert out["ta_text"] == f"{rfc3339:32}{rfc1123}"  # STRINGFORMAT from a fullword, STRINGZONE inline
    assert (out["ta_resp"], out["ta_resp2"], out["ta_flag"]) == (16, 3, "U")  # no such STRINGZONE: INVREQ


def test_handle_abend_program_links_to_the_exit(served: tuple[StdioClient, Database]) -> None:
    client, db = served
    out = _task(client, "ABX")  # the exit RETURNs: the task goes on (here: it ends normally)
    assert out["ta_flag"] == "N"  # the abending program did not resume after its ABEND
    assert _queue(db, "ABXTRACE") == [b"BEFORE  ", b"CABX    "]  # its WRITEQ kept; the exit saw ASSIGN ABCODE
