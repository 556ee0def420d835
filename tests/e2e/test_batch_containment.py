"""What a batch program starts stays inside its call: a process it starts outside its process group
(``setsid``) neither keeps the call (and the data directory's gate) from answering, nor outlives the
call's end, its timeout or the server's stop. Files are reached only inside the data directory: an
ASSIGN through a data item, and the server's environment, lead nowhere else."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from cobol_mcp.options import Options
from cobol_mcp.server import build_server

PROGRAMS = Path(__file__).resolve().parent.parent / "file_programs"
SAFETY = 60.0  # a bound against hanging the suite, never a measure: each wait ends on its event
DETACHED = "setsid sleep 100000 & echo $! > grandchild.pid"  # a grandchild in a session of its own


def _server(data: Path, timeout: float) -> Any:
    return build_server(Options(programs=[("files", str(PROGRAMS))], bundled=False, timeout=timeout, data_dir=data))


@pytest.fixture
def data(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    folder.mkdir()
    return folder


def _answer(server: Any, box: list[Any]) -> Any:
    limit = time.monotonic() + SAFETY
    while not box:
        assert time.monotonic() < limit, "the call never answered"
        server.runtime.run_once(0.05)
    return box[0]


def _gone(pid: int) -> bool:
    """Whether `pid` has ended (a zombie waiting for its new parent counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except FileNotFoundError:
        return True


def _wait_gone(pid: int) -> bool:
    limit = time.monotonic() + SAFETY
    while not _gone(pid):  # SIGKILL takes effect as the process next runs
        if time.monotonic() > limit:
            os.kill(pid, 9)  # leave nothing behind, then fail
            return False
        time.sleep(0.01)
    return True


def test_a_detached_grandchild_neither_holds_the_call_nor_outlives_it(cache_dir, data):
    server = _server(data, 30.0)
    try:
        box: list[Any] = []
        server.catalog.call("job_launcher", {"input": f"{DETACHED}\nGO"}, box.append)
        result = _answer(server, box)
        assert result["structuredContent"]["stdout"] == "LAUNCHED\n"
        assert _wait_gone(int((data / "grandchild.pid").read_text()))
        after: list[Any] = []  # the data directory's gate was let go: the next writer runs
        server.catalog.call("job_launcher", {"input": "true\nGO"}, after.append)
        assert _answer(server, after)["structuredContent"]["stdout"] == "LAUNCHED\n"
        assert (data / "JOBLOG").read_text() == "STARTED\nSTARTED\n"
    finally:
        server.runtime.close()


def test_a_timed_out_call_answers_and_its_detached_grandchild_dies(cache_dir, data):
    server = _server(data, 1.0)
    try:
        box: list[Any] = []
        server.catalog.call("job_launcher", {"input": f"{DETACHED}\nHOLD"}, box.append)
        result = _answer(server, box)
        assert result["isError"] is True and "did not finish within 1 s" in result["content"][0]["text"]
        assert _wait_gone(int((data / "grandchild.pid").read_text()))
    finally:
        server.runtime.close()


def test_the_servers_stop_kills_a_detached_grandchild(cache_dir, data):
    from cobol_mcp.cobol.runtime import rununit

    server = _server(data, 300.0)
    try:
        server.catalog.call("job_launcher", {"input": f"{DETACHED}\nHOLD"}, lambda result: None)
        limit = time.monotonic() + SAFETY
        while not (data / "grandchild.pid").exists() or not (data / "grandchild.pid").read_text().strip():
            assert time.monotonic() < limit
            time.sleep(0.01)
        pid = int((data / "grandchild.pid").read_text())
        assert rununit.kill_all() >= 1  # what every way out of the server calls
        assert _wait_gone(pid)
    finally:
        server.runtime.close()


def test_a_file_named_at_run_time_is_found_only_inside_the_data_directory(cache_dir, data, tmp_path):
    (tmp_path / "outside.txt").write_text("NOT FOR THE PROGRAM\n")
    (data / "inside.txt").write_text("A RECORD OF THE DATA DIRECTORY\n")
    server = _server(data, 30.0)
    try:
        inside: list[Any] = []
        server.catalog.call("pick_file", {"input": "inside.txt"}, inside.append)
        assert _answer(server, inside)["structuredContent"]["stdout"] == "FIRST A RECORD OF THE DATA DIRECTORY\n"
        for name in ("../outside.txt", str(tmp_path / "outside.txt")):
            box: list[Any] = []
            server.catalog.call("pick_file", {"input": name}, box.append)
            result = _answer(server, box)["structuredContent"]
            assert "NOT FOR THE PROGRAM" not in result["stdout"], name
            assert result["stdout"] == "OPEN STATUS 37\n", name  # permission denied, as libcob says it
    finally:
        server.runtime.close()


def test_the_servers_environment_maps_no_file(cache_dir, data, tmp_path, monkeypatch):
    """libcob maps an ASSIGN name X through the environment (DD_X, dd_X, X): a variable of the server
    named like a file leads to the data directory's file of that name, never to the variable's value."""
    (tmp_path / "outside.txt").write_text("NOT FOR THE PROGRAM\n")
    monkeypatch.setenv("RPTFILE", str(tmp_path / "outside.txt"))
    monkeypatch.setenv("dd_RPTLOWER", str(tmp_path / "outside.txt"))
    server = _server(data, 30.0)
    try:
        box: list[Any] = []
        server.catalog.call("pick_file", {"input": "RPTFILE"}, box.append)
        assert _answer(server, box)["structuredContent"]["stdout"] == "OPEN STATUS 35\n"  # no such file here
        (data / "RPTFILE").write_text("THE DATA DIRECTORY'S RPTFILE\n")
        box.clear()
        server.catalog.call("pick_file", {"input": "RPTFILE"}, box.append)
        assert _answer(server, box)["structuredContent"]["stdout"] == "FIRST THE DATA DIRECTORY'S RPTFILE\n"
        box.clear()
        server.catalog.call("pick_file", {"input": "RPTLOWER"}, box.append)
        assert _answer(server, box)["structuredContent"]["stdout"] == "OPEN STATUS 35\n"
    finally:
        server.runtime.close()
