"""Terminal commands and started transactions through the real stdio server, on SQLite and PostgreSQL.

TERMINQ serves a COMMAREA caller and, beside it, a terminal user (RECEIVE, SEND TEXT): a tool call takes the
COMMAREA path; a RECEIVE reached anyway gets NOTALLOC (the task has no terminal; RESP, or its HANDLE
CONDITION label), a SEND TEXT abends ABM3. STRTREQ STARTs transaction STRD, which the folder's CSD
(``csd/STRTAPP.csd``) maps to STRDONE: the server runs it once STRTREQ's call has committed, as a task of its
own (EIBCALEN 0, EIBTRNID STRD, STARTCODE SD), and it RETRIEVEs the START's data once and notes it on TS queue
STARTED. A START whose starter abends is never run; a started task that abends is not run again; a START an
hour ahead waits in the database, and a new server runs it when it is due; an unknown or disabled
transaction is TRANSIDERR, an INTERVAL of 60 minutes INVREQ, and RETRIEVE in a task nobody started ENDDATA."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cobol_mcp.db.connection import connect
from cobol_mcp.db.url import Database

from ..db.postgres import postgres_url
from .database_folder import prepare_database, serve_with_database, structured
from .stdio_client import StdioClient

__all__ = ["postgres_url"]  # the fixture, used by name

PROGRAMS = Path(__file__).parents[1] / "cics_programs" / "start"
NOTES = 46  # bytes of a note STRDONE writes on STARTED (its WS-NOTE)


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "start"
    shutil.copytree(PROGRAMS, folder)
    return folder


@pytest.fixture(scope="module")
def built(cache_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The build cache with the folder's programs compiled (``check``): a server then starts at once."""
    import subprocess
    import sys

    folder = _folder(tmp_path_factory.mktemp("build"))
    env = {**os.environ, "COBOL_MCP_CACHE": str(cache_dir)}
    subprocess.run([sys.executable, "-m", "cobol_mcp", "check", "--no-bundled", "--programs", str(folder)],
                   env=env, check=True, capture_output=True)  # fmt: skip
    return cache_dir


@pytest.fixture(params=["sqlite", "postgresql"])
def served(request: pytest.FixtureRequest, tmp_path: Path, built: Path) -> Iterator[tuple[StdioClient, Database]]:
    with serve_with_database(request, _folder(tmp_path), built) as served:
        yield served


def _rows(db: Database, sql: str) -> list[tuple[Any, ...]]:
    conn = connect(db)
    try:
        cur = conn if db.kind == "sqlite" else conn.cursor()
        return [tuple(row) for row in cur.execute(sql).fetchall()]
    finally:
        conn.close()


def _notes(db: Database) -> dict[int, dict[str, str]]:
    """STRDONE's notes on TS queue STARTED, by the key its data carried."""
    found: dict[int, dict[str, str]] = {}
    for (data,) in _rows(db, "SELECT data FROM cics_ts_items WHERE queue = 'STARTED' ORDER BY item"):
        text = bytes(data).decode("latin-1")
        assert len(text) == NOTES, text
        found[int(text[0:4])] = {"text": text[4:20].rstrip(), "len": text[20:24], "resp": text[24:28],
                                 "startcode": text[28:30], "trnid": text[30:34], "calen": text[34:38],
                                 "rtransid": text[38:42], "again": text[42:46]}  # fmt: skip
    return found


def _wait_for_note(db: Database, key: int) -> dict[str, str]:
    """The note of the started task whose data carried ``key``, once it has committed it (the test's own
    timeout ends a wait for one that never comes)."""
    while key not in (notes := _notes(db)):
        time.sleep(0.05)
    return notes[key]


def _start(client: StdioClient, request: str, key: int = 0) -> dict[str, Any]:
    return structured(client.call("strtreq", sr_request=request, sr_key=key))


def test_a_program_with_a_terminal_path_is_served_and_a_terminal_command_gets_what_cics_gives(
    served: tuple[StdioClient, Database],
) -> None:
    client, _ = served
    base = {"tc_customer": 2, "tc_name": "", "tc_resp": 0, "tc_length": 0}
    inquired = structured(client.call("terminq", tc_request="INQ", **base))
    assert inquired["tc_name"] == "GRACE HOPPER"  # STARTCODE D: the COMMAREA path
    received = structured(client.call("terminq", tc_request="RCV", **base))
    assert (received["tc_resp"], received["tc_length"]) == (61, 11)  # NOTALLOC; LENGTH as it was
    handled = structured(client.call("terminq", tc_request="HND", **base))
    assert handled["tc_name"] == "NO TERMINAL"  # HANDLE CONDITION NOTALLOC took it
    logged = structured(client.call("terminq", tc_request="LOG", **base))
    assert logged["tc_name"] == "TERMINQ"  # LINKed: TERMLOG's ASSIGN INVOKINGPROG names its linker
    sent = client.call("terminq", tc_request="SND", **base)
    assert sent.get("isError") and "ABM3" in sent["content"][0]["text"], sent  # RESP does not stop an abend


def test_a_started_transaction_runs_after_its_starter_commits_with_its_data(
    served: tuple[StdioClient, Database],
) -> None:
    client, db = served
    assert _start(client, "STR", 7)["sr_resp"] == 0
    note = _wait_for_note(db, 7)
    assert note["text"] == "STARTED BY STR" and note["len"] == "0020" and note["resp"] == "0000"
    assert (note["startcode"], note["trnid"], note["calen"]) == ("SD", "STRD", "0000")
    assert (note["rtransid"], note["again"]) == ("STRQ", "0029")  # its data once: then ENDDATA
    assert _rows(db, "SELECT COUNT(*) FROM cics_starts") == [(0,)]  # claimed with the task's work


def test_a_start_goes_with_its_starters_rollback_and_an_abended_started_task_is_not_run_again(
    served: tuple[StdioClient, Database],
) -> None:
    client, db = served
    abended = client.call("strtreq", sr_request="ABN", sr_key=8)
    assert abended.get("isError") and "STAB" in abended["content"][0]["text"], abended
    _start(client, "STR", 999)  # STRDONE abends STRF after its note: the note goes, the request too
    _start(client, "STR", 9)  # run after the one before it (one at a time, in order)
    _wait_for_note(db, 9)
    assert sorted(_notes(db)) == [9]  # neither the rolled-back START (8) nor the abended task (999)
    assert _rows(db, "SELECT COUNT(*) FROM cics_starts") == [(0,)]


def test_start_and_retrieve_conditions(served: tuple[StdioClient, Database]) -> None:
    client, _ = served
    assert (_start(client, "UNK")["sr_resp"], _start(client, "DIS")["sr_resp"]) == (28, 28)  # TRANSIDERR
    bad = _start(client, "BAD")
    assert (bad["sr_resp"], bad["sr_resp2"]) == (16, 5)  # INVREQ: 60 minutes
    assert _start(client, "RTV")["sr_resp"] == 29  # ENDDATA: nobody STARTed this task


@pytest.fixture(params=["sqlite", "postgresql"])
def prepared(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, Database]:
    folder = _folder(tmp_path)
    return folder, prepare_database(request, folder)


def _server(folder: Path, cache: Path) -> StdioClient:
    args = ("--no-bundled", "--cobol-workers", "2", "--timeout", "120", "--shutdown-grace", "0",
            "--programs", str(folder))  # fmt: skip
    return StdioClient(*args, env={"COBOL_MCP_CACHE": str(cache)})


def test_a_start_waits_in_the_database_for_a_server(prepared: tuple[Path, Database], built: Path) -> None:
    folder, db = prepared
    with _server(folder, built) as client:
        client.initialize()
        before = time.time()
        assert _start(client, "LAT", 11)["sr_resp"] == 0
    (due,) = _rows(db, "SELECT due FROM cics_starts")[0]
    assert due >= before + 3600  # AFTER HOURS(1)
    conn = connect(db)
    try:
        conn.execute("UPDATE cics_starts SET due = 0")  # its hour has passed while no server ran
        conn.commit()
    finally:
        conn.close()
    with _server(folder, built) as client:
        client.initialize()
        assert _wait_for_note(db, 11)["trnid"] == "STRD"


def _parent(client: StdioClient, request: str, key: int) -> dict[str, Any]:
    return client.call("asyncpar", ap_request=request, ap_key=key)


def _childq(db: Database) -> list[str]:
    return [bytes(d).decode() for (d,) in _rows(db, "SELECT data FROM cics_ts_items WHERE queue = 'CHILDQ'")]


def test_a_child_runs_at_once_in_its_own_unit_of_work_and_its_channel_comes_back(
    served: tuple[StdioClient, Database],
) -> None:
    client, db = served
    ran = structured(_parent(client, "RUN", 5))
    assert (ran["ap_resp"], ran["ap_status"], ran["ap_abcode"]) == (0, "N", "")  # COMPSTATUS NORMAL
    assert ran["ap_reply"] == "DONE FOR 0005"  # the child's PUT, in the channel FETCH named
    assert (ran["ap_again"], ran["ap_again2"]) == (16, 51)  # fetched already: INVREQ 51
    abended = structured(_parent(client, "ABD", 999))
    assert (abended["ap_status"], abended["ap_abcode"], abended["ap_reply"]) == ("A", "ACHX", "SAME CHILD")
    assert _childq(db) == ["0005"]  # the abended child's item went with its unit of work
    parent = _parent(client, "PAB", 7)
    assert parent.get("isError") and "PARX" in parent["content"][0]["text"], parent
    assert _childq(db) == ["0005", "0007"]  # the child committed, whatever its parent did
    errors = structured(_parent(client, "ERR", 6))
    assert (errors["ap_resp"], errors["ap_resp2"]) == (16, 52)  # FETCH ANY without children
    assert (errors["ap_again"], errors["ap_again2"]) == (28, 50)  # TRANSIDERR; FREE of a freed child
