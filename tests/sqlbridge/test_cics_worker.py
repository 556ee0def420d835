"""Which CICS folders run their database work in the C worker, and what the worker is told
(sqlbridge.cics_worker). What the worker then does is shown end to end, against the server's way:
tests/e2e/test_cics_in_worker.py."""

from __future__ import annotations

import struct
from pathlib import Path
from types import SimpleNamespace

import pytest

from cobol_mcp.cobol.precompile.cics import scan_cics_text
from cobol_mcp.db.cics.fct import DatasetDef
from cobol_mcp.db.cics.result import CicsFailure, Result
from cobol_mcp.db.url import Database
from cobol_mcp.sqlbridge import cics_worker
from cobol_mcp.sqlbridge.cics_worker import FILE_PLAN, CicsWorker, dataset_plan, raised, why_not

SQLITE = Database("sqlite", "/data/cobol-mcp.db")
RUNTIME = SimpleNamespace(worker="/cache/worker")  # a runtime running the C worker


def _commands(tmp_path: Path, *lines: str) -> list:
    """The commands of a program whose PROCEDURE DIVISION has these EXEC CICS commands."""
    body = "\n".join(f"           EXEC CICS {line}\n           END-EXEC" for line in lines)
    source = tmp_path / "PROG.cbl"
    source.write_text(
        "       IDENTIFICATION DIVISION.\n       PROGRAM-ID. PROG.\n       DATA DIVISION.\n"
        "       WORKING-STORAGE SECTION.\n       01  WS-REC PIC X(40).\n       01  WS-KEY PIC X(6).\n"
        f"       PROCEDURE DIVISION.\n{body}\n           GOBACK.\n"
    )
    return scan_cics_text(source).commands


def test_a_folder_of_files_queues_counters_and_syncpoints_runs_in_the_worker(tmp_path: Path) -> None:
    commands = _commands(tmp_path, "READ FILE('F') INTO(WS-REC) RIDFLD(WS-KEY) GTEQ",
                         "WRITE FILE('F') FROM(WS-REC) RIDFLD(WS-KEY) NOHANDLE", "SYNCPOINT",
                         "IGNORE CONDITION NOTFND", "LINK PROGRAM('P')", "RETURN",
                         "READ FILE('F') INTO(WS-REC) RIDFLD(WS-KEY) UPDATE", "REWRITE FILE('F') FROM(WS-REC)",
                         "DELETE FILE('F')", "UNLOCK FILE('F')", "STARTBR FILE('F') RIDFLD(WS-KEY)",
                         "READNEXT FILE('F') INTO(WS-REC) RIDFLD(WS-KEY)", "ENDBR FILE('F')",
                         "WRITEQ TS QUEUE('Q') FROM(WS-REC)", "READQ TD QUEUE('Q') INTO(WS-REC)",
                         "GET COUNTER('C') VALUE(WS-KEY)", "DEFINE DCOUNTER('C')")  # fmt: skip
    assert len(commands) == 17
    assert why_not(RUNTIME, SQLITE, {"PROG": commands}, {}) is None


@pytest.mark.parametrize(
    ("command", "reason"),
    [
        ("READ FILE('F') SET(WS-KEY) RIDFLD(WS-KEY)", "READ SET"),
        ("READNEXT FILE('F') SET(WS-KEY) RIDFLD(WS-KEY)", "READNEXT SET"),
        ("READQ TS QUEUE('Q') SET(WS-KEY)", "READQ TS SET"),
        ("ENQ RESOURCE(WS-KEY)", "ENQ"),
    ],
)
def test_a_command_the_worker_does_not_run_keeps_the_folder_on_the_servers_way(
    tmp_path: Path, command: str, reason: str
) -> None:
    commands = _commands(tmp_path, "READ FILE('F') INTO(WS-REC) RIDFLD(WS-KEY)", command)
    why = why_not(RUNTIME, SQLITE, {"PROG": commands}, {})
    assert why is not None and why.startswith(f"PROG line 10: {reason}"), why


def test_the_database_the_runtime_and_the_switch_keep_it_on_the_servers_way(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    programs = {"PROG": _commands(tmp_path, "READ FILE('F') INTO(WS-REC) RIDFLD(WS-KEY)")}
    postgresql = Database("postgresql", "postgresql://x/y")
    monkeypatch.setattr(cics_worker, "has_libpq", lambda: True)
    assert why_not(RUNTIME, postgresql, programs, {}) is None
    monkeypatch.setattr(cics_worker, "has_libpq", lambda: False)
    assert why_not(RUNTIME, postgresql, programs, {}) == "no libpq (PostgreSQL's client library) for the worker"
    assert why_not(SimpleNamespace(worker=None), SQLITE, programs, {}) == "not the C worker"
    monkeypatch.setenv("COBOL_MCP_SQL_IN_WORKER", "0")
    assert why_not(RUNTIME, SQLITE, programs, {}) == "COBOL_MCP_SQL_IN_WORKER=0"


def test_a_datasets_plan_says_what_file_control_needs() -> None:
    defn = DatasetDef("CUSTFILE", "ksds", 20, 200, 8, 2)
    plan = dataset_plan(defn, SQLITE)
    assert plan[:18] == struct.pack("<BBIIII", 1, 0, 20, 200, 8, 2)
    assert plan[18:] == struct.pack("<H", 8) + b"CUSTFILE" + struct.pack("<H", 18) + b"/data/cobol-mcp.db"
    assert dataset_plan(None, SQLITE)[:2] == b"\0\0"  # not in the FCT: FILENOTFOUND
    assert dataset_plan(DatasetDef("LOG", "esds", 10, 80), SQLITE)[1] == 1


def test_the_worker_asks_for_a_dataset_by_its_file_name() -> None:
    worker = CicsWorker({}, {"CUSTFILE": DatasetDef("CUSTFILE", "rrds", 50, 50)}, SQLITE)
    asked = SimpleNamespace(service="SQLPLAN", number=FILE_PLAN, params=[b"custfile"], more=b"")
    assert worker.answer(asked) == [b"custfile"]
    assert asked.more[:2] == b"\1\2"  # found, an RRDS
    ended = SimpleNamespace(service="SQLPLAN", number=0, params=[], more=b"")
    assert worker.answer(ended) == []  # the program returned: the commit may go ahead


def test_a_condition_or_an_abend_the_worker_raised_is_read_back() -> None:
    desc, result = raised(b"0;=CONDITION;216;READ;13;80   ")
    assert isinstance(result, Result)
    assert (desc.line, desc.command, result.resp, result.resp2) == (216, "READ", 13, 80)
    desc, failure = raised(b"0;=ABEND;12;READ;AFCV;READ UPDATE of F: the record lock was not granted: a; b")
    assert isinstance(failure, CicsFailure) and (desc.line, failure.abcode) == (12, "AFCV")
    assert failure.message == "READ UPDATE of F: the record lock was not granted: a; b"
