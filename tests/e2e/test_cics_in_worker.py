"""CICS file control run in the C worker, against the server's way, through the real stdio server.

FILEWRK (``tests/cics_programs/inworker``) runs fixed series of READs and WRITEs on a KSDS, an ESDS and
an RRDS and keeps each step's RESP, RESP2, EIBRESP, EIBRESP2, EIBFN, length or RBA and record area. The
same calls go to a server whose folder runs its database work in the worker (``check`` says so) and to
one told to answer every command itself (``COBOL_MCP_SQL_IN_WORKER=0``), each on a database of its own:
every result, every failure's text and the rows afterwards must be the same; and the values CICS gives
are checked outright, so that both ways cannot be equally wrong. The unit of work: an abend after a
WRITE leaves no record, an abend after an EXEC SQL INSERT leaves no row, SYNCPOINT keeps what was
written before it and SYNCPOINT ROLLBACK undoes what was written after.
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cobol_mcp.db.apply import apply_files
from cobol_mcp.db.url import Database

from ..db.postgres import postgres_url
from .database_folder import PAYROLL
from .stdio_client import StdioClient

__all__ = ["postgres_url"]  # the fixture, used by name

PROGRAMS = Path(__file__).parents[1] / "cics_programs" / "inworker"
TOML = """\
[[datasets]]
name = "KSDSF"
organization = "ksds"
record-length = 40
keys = [6, 0]
load = "ksdsf.txt"

[[datasets]]
name = "ESDSF"
organization = "esds"
record-length = [10, 40]
load = "esdsf.txt"

[[datasets]]
name = "RRDSF"
organization = "rrds"
record-length = 20
load = "rrdsf.txt"
"""
KSDS_LOAD = ["A00001 FIRST CUSTOMER", "A00002 SECOND CUSTOMER", "B00001 THIRD CUSTOMER"]
MORE_LOAD = [
    f"{key} TO BE {what}"
    for key, what in (
        ("D10001", "DELETED"),
        ("D10002", "DELETED"),
        ("D20001", "GONE"),
        ("D20002", "GONE"),
        ("K00001", "BROWSED"),
        ("K00002", "BROWSED"),
        ("K00003", "BROWSED"),
        ("U00001", "UPDATED"),
        ("U00002", "KEPT"),
    )
]
NORMAL, FILENOTFOUND, NOTFND, DUPREC, INVREQ, NOTOPEN, ENDFILE, LENGERR = 0, 12, 13, 14, 16, 19, 20, 22
READ_FN, WRITE_FN, REWRITE_FN, DELETE_FN, READNEXT_FN, READPREV_FN = 0x0602, 0x0604, 0x0606, 0x0608, 0x060E, 0x0610
STARTBR_FN = 0x060C
# every request, in an order that reads what the others leave as it is (the PostgreSQL run makes them all)
REQUESTS = [
    ("RD", "", 2),
    ("WR", "C00001", 7),
    ("HC", "", 0),
    ("IG", "", 0),
    ("NH", "", 0),
    ("AB", "D00001", 0),
    ("SQ", "E01", 0),
    ("SP", "F00001", 0),
    ("UP", "", 0),
    ("DL", "", 0),
    ("BR", "", 0),
]


def _folder(tmp: Path, url: str = "") -> Path:
    """FILEWRK's folder, its datasets and the PAYROLL tables on SQLite (the folder's file) or ``url``'s PostgreSQL."""
    folder = tmp / "files"
    folder.mkdir(parents=True)
    shutil.copy(PROGRAMS / "FILEWRK.cbl", folder)
    shutil.copy(PROGRAMS / "QUEWRK.cbl", folder)
    (folder / "cobol-mcp.toml").write_text(f'[folder]\ndatabase = "{url}"\n\n{TOML}' if url else TOML)
    (folder / "ksdsf.txt").write_text("".join(f"{line:40s}\n" for line in KSDS_LOAD + MORE_LOAD))
    (folder / "esdsf.txt").write_text("FIRST ENTRY \nSECOND ENTRY\n")
    (folder / "rrdsf.txt").write_text("RECORD ONE\nRECORD TWO\n")
    db = Database("postgresql", url) if url else Database("sqlite", str(folder / "cobol-mcp.db"))
    apply_files([PAYROLL], db, note=lambda line: None)
    return folder


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, tuple[StdioClient, Path]]]:
    cache = tmp_path_factory.mktemp("cache")
    found: dict[str, tuple[StdioClient, Path]] = {}
    clients = []
    for way, switch in (("worker", "1"), ("server", "0")):
        folder = _folder(tmp_path_factory.mktemp(way))
        client = StdioClient("--no-bundled", "--cobol-workers", "2", "--timeout", "120", "--shutdown-grace", "0",
                             "--programs", str(folder),
                             env={"COBOL_MCP_CACHE": str(cache), "COBOL_MCP_SQL_IN_WORKER": switch})  # fmt: skip
        clients.append(client.__enter__())
        client.initialize()
        found[way] = (client, folder)
    yield found
    for client in clients:
        client.__exit__(None, None, None)


def _call(client: StdioClient, function: str, key: str = "", rrn: int = 0) -> dict[str, Any]:
    # FW-STEPS is no argument: FILEWRK INITIALIZEs all 14 steps before anything reads one
    return client.call("filewrk", fw_function=function, fw_key=key, fw_rrn=rrn)


def _both(servers: dict[str, tuple[StdioClient, Path]], function: str, key: str = "", rrn: int = 0) -> dict[str, Any]:
    """The call on both servers, equal (a failure's text too, its folder aside); the worker's result."""
    worker, server = ({**_call(client, function, key, rrn)} for client, _ in (servers["worker"], servers["server"]))
    for result, way in ((worker, "worker"), (server, "server")):
        if result.get("isError"):
            result["content"] = [
                {**c, "text": c["text"].replace(str(servers[way][1]), "FOLDER")} for c in result["content"]
            ]
    assert worker == server
    return worker


def _steps(result: dict[str, Any]) -> list[tuple[int, int, int, int, int, int, str]]:
    assert not result.get("isError"), result
    return [(s["fw_resp"], s["fw_resp2"], s["fw_eibresp"], s["fw_eibresp2"], s["fw_fn"], s["fw_len"], s["fw_data"])
            for s in result["structuredContent"]["fw_steps"]]  # fmt: skip


def _rows(folder: Path) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(folder / "cobol-mcp.db")
    try:
        records = conn.execute("SELECT dataset, rid, data FROM cics_records ORDER BY dataset, rid").fetchall()
        depts = conn.execute('SELECT * FROM "PAYROLL.DEPT" ORDER BY 1').fetchall()
        return [*records, *depts]
    finally:
        conn.close()


def _check(folder: Path) -> str:
    command = [sys.executable, "-m", "cobol_mcp", "check", "--no-bundled", "--programs", str(folder)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    return done.stdout + done.stderr


def test_the_folder_runs_its_file_control_in_the_worker(servers: dict[str, tuple[StdioClient, Path]]) -> None:
    assert "database work run in the COBOL worker" in _check(servers["worker"][1])


def test_reads_give_cics_conditions_and_records(servers: dict[str, tuple[StdioClient, Path]]) -> None:
    steps = _steps(_both(servers, "RD", rrn=2))
    assert steps[0] == (NORMAL, 0, NORMAL, 0, READ_FN, 0, KSDS_LOAD[0])  # (text results lose trailing blanks)
    assert steps[1][:5] == (NOTFND, 80, NOTFND, 80, READ_FN)
    assert steps[2] == (LENGERR, 11, LENGERR, 11, READ_FN, 40, "A00002 SEC")  # cut to INTO, LENGTH the whole
    assert steps[3][:2] == (NORMAL, 0) and steps[3][6] == KSDS_LOAD[2]  # GENERIC 'B'
    assert steps[4][:2] == (NORMAL, 0) and steps[4][6] == KSDS_LOAD[2]  # GTEQ past A00003
    assert steps[5][:2] == (INVREQ, 26)  # KEYLENGTH not the key's, without GENERIC
    assert steps[6][:2] == (INVREQ, 25)  # GENERIC with the whole key's length
    assert steps[7][:2] == (FILENOTFOUND, 1)
    assert steps[8][:2] == (NORMAL, 0) and steps[8][5] == 12 and steps[8][6].startswith("SECOND ENTRY")
    assert steps[9][:2] == (NORMAL, 0) and steps[9][6] == "RECORD TWO"


def test_writes_give_cics_conditions_and_rbas(servers: dict[str, tuple[StdioClient, Path]]) -> None:
    steps = _steps(_both(servers, "WR", "C00001", rrn=7))
    assert steps[0][:5] == (NORMAL, 0, NORMAL, 0, WRITE_FN)
    assert steps[1][:2] == (DUPREC, 150)
    assert steps[2][:2] == (LENGERR, 14)  # not a fixed-length dataset's length
    assert steps[3][:2] == (NORMAL, 0) and steps[3][5] == 24  # after the two loaded 12-byte entries
    assert steps[4][:2] == (NORMAL, 0) and steps[4][5] == 36
    assert [s[:2] for s in steps[5:8]] == [(NORMAL, 0), (DUPREC, 150), (INVREQ, 0)]
    worker, server = (_rows(servers[way][1]) for way in ("worker", "server"))
    assert worker == server
    assert (b"C00001", f"{'C00001WRITTEN BY THE WORKOUT':40s}".encode()) in [(r[1], r[2]) for r in worker]


def test_conditions_go_where_handle_ignore_and_nohandle_say(servers: dict[str, tuple[StdioClient, Path]]) -> None:
    for function, where in (("HC", "NOTFND"), ("IG", "IGNORED"), ("NH", "NOHANDLE")):
        result = _both(servers, function)
        assert result["structuredContent"]["fw_where"] == where, result
        first = _steps(result)[0]
        assert first[2:5] == (NOTFND, 80, READ_FN), (function, first)


def test_an_abend_after_a_write_leaves_no_record(servers: dict[str, tuple[StdioClient, Path]]) -> None:
    result = _both(servers, "AB", "D00001")
    assert result.get("isError"), result
    assert "AEIM" in result["content"][0]["text"], result
    for way in ("worker", "server"):
        assert b"D00001" not in [r[1] for r in _rows(servers[way][1])]


def test_an_abend_after_an_sql_insert_leaves_no_row(servers: dict[str, tuple[StdioClient, Path]]) -> None:
    result = _both(servers, "SQ", "E01")
    assert result.get("isError"), result
    assert "AEIN" in result["content"][0]["text"], result  # DUPREC on A00001, unhandled
    for way in ("worker", "server"):
        assert "E01" not in [r[0] for r in _rows(servers[way][1])]


def test_syncpoint_keeps_and_rollback_undoes(servers: dict[str, tuple[StdioClient, Path]]) -> None:
    steps = _steps(_both(servers, "SP", "F00001"))
    assert [s[:2] for s in steps[:3]] == [(NORMAL, 0), (NORMAL, 0), (NOTFND, 80)]
    worker, server = (_rows(servers[way][1]) for way in ("worker", "server"))
    assert worker == server
    keys = [r[1] for r in worker]
    assert b"F00001" in keys and b"Y00001" not in keys


def test_read_update_rewrite_and_unlock(servers: dict[str, tuple[StdioClient, Path]]) -> None:
    steps = _steps(_both(servers, "UP"))
    assert steps[0][:5] == (NORMAL, 0, NORMAL, 0, READ_FN) and steps[0][6] == "U00001 TO BE UPDATED"
    assert steps[1][:5] == (NORMAL, 0, NORMAL, 0, REWRITE_FN)
    assert [s[:2] for s in steps[2:6]] == [(INVREQ, 30), (INVREQ, 0), (LENGERR, 14), (INVREQ, 30)]
    assert steps[6][:2] == (NORMAL, 0) and steps[6][6] == "U00001REWRITTEN BY THE WORKOUT"
    assert steps[7][:2] == (NOTFND, 80)


def test_deletes_by_key_generic_and_after_read_update(servers: dict[str, tuple[StdioClient, Path]]) -> None:
    steps = _steps(_both(servers, "DL"))
    assert steps[0][:5] == (NORMAL, 0, NORMAL, 0, DELETE_FN)
    assert steps[1][:2] == (NOTFND, 80)
    assert steps[2][:2] == (NORMAL, 0) and steps[2][5] == 2  # NUMREC: D20001 and D20002
    assert [s[:2] for s in steps[3:8]] == [(INVREQ, 21), (NORMAL, 0), (NOTFND, 80), (INVREQ, 20), (INVREQ, 26)]
    worker, server = (_rows(servers[way][1]) for way in ("worker", "server"))
    assert worker == server
    assert not [r for r in worker if r[0] == "KSDSF" and r[1].startswith(b"D")]


def test_browsing(servers: dict[str, tuple[StdioClient, Path]]) -> None:
    steps = _steps(_both(servers, "BR"))
    assert steps[0][:5] == (NORMAL, 0, NORMAL, 0, STARTBR_FN)
    keys = [s[6][34:] for s in steps[1:7]]  # RIDFLD as each read gave it back
    assert keys == ["K00001", "K00002", "K00002", "K00001", "K00003", "K00001"]  # both ways, RESETBR, skip
    assert [s[4] for s in steps[1:5]] == [READNEXT_FN, READNEXT_FN, READPREV_FN, READPREV_FN]
    assert steps[1][6].startswith("K00001 TO BE BROWSED")
    assert steps[7][:2] == (INVREQ, 34)  # after ENDBR
    assert steps[8][:2] == (NORMAL, 0) and steps[8][6].startswith("U00002")  # READPREV from high values: the last
    assert steps[9][:2] == (NORMAL, 0) and steps[9][6].startswith("U00002")  # a change of direction: read again
    assert steps[10][:2] == (ENDFILE, 90)
    assert [s[:2] for s in steps[11:13]] == [(INVREQ, 41), (INVREQ, 33)]


def test_the_same_on_postgresql(postgres_url: str, tmp_path: Path) -> None:
    """Every request on two servers sharing a PostgreSQL cluster, a database each: the same results."""
    import psycopg

    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute("CREATE DATABASE serverway")
    results: dict[str, list[dict[str, Any]]] = {}
    for way, switch, url in (
        ("worker", "1", postgres_url),
        ("server", "0", postgres_url.replace("/postgres?", "/serverway?")),
    ):
        folder = _folder(tmp_path / way, url)
        env = {"COBOL_MCP_CACHE": str(tmp_path / "cache"), "COBOL_MCP_SQL_IN_WORKER": switch}
        with StdioClient("--no-bundled", "--timeout", "120", "--shutdown-grace", "0", "--programs", str(folder),
                         env=env) as client:  # fmt: skip
            client.initialize()
            results[way] = [_call(client, *request) for request in REQUESTS]
            results[way] += [_queues(client, function) for function in ("TS", "TD", "CT", "AB")]
            for result in results[way]:
                for c in result.get("content", []) if result.get("isError") else []:
                    c["text"] = c["text"].replace(str(folder), "FOLDER")
        if way == "worker":
            assert "database work run in the COBOL worker" in _check(folder)
    assert results["worker"] == results["server"]
    assert sum(bool(r.get("isError")) for r in results["worker"]) == 3  # AB and SQ abend, and QUEWRK's AB
    assert _steps(results["worker"][0])[0][6] == KSDS_LOAD[0]


def test_a_call_past_its_timeout_leaves_no_record(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    env = {"COBOL_MCP_CACHE": str(tmp_path / "cache")}
    with StdioClient("--no-bundled", "--timeout", "3", "--shutdown-grace", "0", "--programs", str(folder),
                     env=env) as client:  # fmt: skip
        client.initialize()
        result = _call(client, "TO", "T00001")
        assert result.get("isError") and "timed out" in result["content"][0]["text"], result
        after = _call(client, "WR", "T00002", rrn=9)  # the next call runs, in a new worker, and commits
        assert _steps(after)[0][:2] == (NORMAL, 0)
    keys = [r[1] for r in _rows(folder) if r[0] == "KSDSF"]
    assert b"T00001" not in keys and b"T00002" in keys


QIDERR, ITEMERR, QZERO, SUPPRESSED = 44, 26, 23, 72


def _queues(client: StdioClient, function: str) -> dict[str, Any]:
    return client.call("quewrk", qw_function=function)  # QW-STEPS: INITIALIZEd whole before any read


def _queue_steps(servers: dict[str, tuple[StdioClient, Path]], function: str) -> list[tuple[int, int, int, str]]:
    """QUEWRK's request on both servers, equal; each step's RESP, RESP2, number and data."""
    worker, server = (_queues(servers[way][0], function) for way in ("worker", "server"))
    assert worker == server
    assert not worker.get("isError"), worker
    return [
        (s["qw_resp"], s["qw_resp2"], s["qw_number"], s["qw_data"]) for s in worker["structuredContent"]["qw_steps"]
    ]


def test_ts_queues(servers: dict[str, tuple[StdioClient, Path]]) -> None:
    steps = _queue_steps(servers, "TS")
    assert [s[2] for s in steps[:3]] == [101, 202, 303]  # ITEM * 100 + NUMITEMS
    assert steps[3] == (NORMAL, 0, 3, "SECOND ITEM")  # ITEM(2), NUMITEMS 3
    assert [s[3] for s in steps[4:6]] == ["THIRD ITEM", ""] and steps[5][:2] == (ITEMERR, 0)  # NEXT, then past
    assert steps[6][:3] == (NORMAL, 0, 1)  # REWRITE ITEM(1)
    assert steps[7] == (LENGERR, 0, 30, "FIRST")  # cut to INTO, LENGTH the item's
    assert [s[:2] for s in steps[8:14]] == [(ITEMERR, 0), (LENGERR, 0), (NORMAL, 0), (QIDERR, 0), (QIDERR, 0),
                                             (INVREQ, 0)]  # fmt: skip


def test_td_queues(servers: dict[str, tuple[StdioClient, Path]]) -> None:
    steps = _queue_steps(servers, "TD")
    assert [s[:2] for s in steps[:2]] == [(NORMAL, 0), (NORMAL, 0)]
    assert [(s[0], s[3]) for s in steps[2:5]] == [(NORMAL, "FIRST RECORD"), (NORMAL, "SECOND RECORD"), (QZERO, "")]
    assert steps[2][2] == 30  # LENGTH: the record's
    assert [s[:2] for s in steps[5:11]] == [(NORMAL, 0), (INVREQ, 0), (NORMAL, 0), (NORMAL, 0), (QZERO, 0),
                                            (QIDERR, 0)]  # fmt: skip


def test_named_counters(servers: dict[str, tuple[StdioClient, Path]]) -> None:
    steps = _queue_steps(servers, "CT")
    assert [s[:2] for s in steps[:3]] == [(INVREQ, 201), (NORMAL, 0), (INVREQ, 202)]  # never defined; defined twice
    assert [(s[0], s[2]) for s in steps[3:5]] == [(NORMAL, 5), (NORMAL, 6)]
    assert steps[5][:2] == (SUPPRESSED, 101) and (steps[6][0], steps[6][2]) == (NORMAL, 7)  # INCREMENT 5, REDUCE
    assert steps[7][:2] == (SUPPRESSED, 101) and (steps[8][0], steps[8][2]) == (NORMAL, 1)  # at its limit, WRAP
    assert steps[9][:3] == (NORMAL, 0, 20107)  # QUERY: VALUE 2, MINIMUM 1, MAXIMUM 7; then UPDATE COMPAREMIN(3)
    assert [s[:2] for s in steps[10:14]] == [(SUPPRESSED, 102), (SUPPRESSED, 104), (NORMAL, 0), (INVREQ, 201)]
    assert [s[:3] for s in steps[14:17]] == [(NORMAL, 0, 0), (NORMAL, 0, 0), (INVREQ, 404, 0)]  # DCOUNTER; a bad name
    assert steps[17][:2] == (INVREQ, 403)  # a POOL of LOW-VALUES: not a pool name CICS takes


def test_an_abend_takes_back_queue_items_and_counters(servers: dict[str, tuple[StdioClient, Path]]) -> None:
    worker, server = (_queues(servers[way][0], "AB") for way in ("worker", "server"))
    assert worker.get("isError") and "QWAB" in worker["content"][0]["text"], worker
    assert server.get("isError") and "QWAB" in server["content"][0]["text"], server
    for way in ("worker", "server"):
        conn = sqlite3.connect(servers[way][1] / "cobol-mcp.db")
        try:
            assert conn.execute("SELECT COUNT(*) FROM cics_ts_queues WHERE queue = 'WKTSAB'").fetchone()[0] == 0
            assert conn.execute("SELECT COUNT(*) FROM cics_counters WHERE name = 'WKABEND'").fetchone()[0] == 0
        finally:
            conn.close()
