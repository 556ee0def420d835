"""SIGTERM drains, over stdio and over HTTP; no process of the server outlives it, whatever ends it.

A call is provably in flight when the signal comes: the `waiter` console program (run_units/) creates
a marker file once running and returns only when the test creates the release file. A drain is
provably under way before the test sends a new call: the server has logged that it stopped taking
them. Timeouts here only guard against hangs; nothing is timed."""

from __future__ import annotations

import json
import os
import select
import signal
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from ..e2e.stdio_client import StdioClient
from .conftest import HttpServer, httpx, rpc

RUN_UNITS = Path(__file__).parent / "run_units"
HANG_GUARD = 60.0
LEGACY = {"content-type": "application/json", "accept": "application/json, text/event-stream",
          "mcp-protocol-version": "2025-11-25"}  # fmt: skip
SERVE = ("--no-bundled", "--programs", str(RUN_UNITS), "--timeout", "600", "--cobol-workers", "1")


# ------------------------------------------------------------------------------------------ processes
def _stat(pid: int) -> list[str] | None:
    """State, parent, process group, ... of a process; None when it is gone (a zombie is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return None if fields[0] in ("Z", "X") else fields


def alive(pid: int) -> bool:
    return _stat(pid) is not None


def group(pgid: int) -> list[int]:
    """The live processes of a process group."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (fields := _stat(int(entry))) is not None and int(fields[2]) == pgid:
            found.append(int(entry))
    return found


def descendants(pid: int) -> list[int]:
    """Every live process below `pid`, and every process in the process groups they lead."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (fields := _stat(int(entry))) is not None:
            parents[int(entry)] = int(fields[1])
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    for member in list(found):
        if (fields := _stat(member)) is not None and int(fields[2]) == member:
            found |= set(group(member))
    return sorted(found)


def run_unit_of(server_pid: int) -> int:
    """The pid of the `waiter` run unit the server started."""
    for pid in descendants(server_pid):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if b"waiter" in f.read():
                    return pid
        except OSError:
            continue
    raise AssertionError("no waiter run unit below the server")


def wait_until(condition, what: str) -> None:
    """A hang guard only: the condition is what the test asserts."""
    deadline = time.monotonic() + HANG_GUARD
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


def markers_inside(markers: Path) -> tuple[str, ...]:
    """The markers' folder as the data directory: a run unit reaches no file outside it."""
    return ("--data-dir", str(markers))


def waiter(markers: Path, ticket: str, *mode: str) -> dict:
    return {"name": "waiter", "arguments": {"args": [str(markers / f"in-{ticket}"), str(markers / "release"), *mode]}}


class StderrWatch:
    """Reads a pipe of the server's stderr as it comes."""

    def __init__(self, stream) -> None:
        self.fd, self.text = stream.fileno(), ""

    def wait_for(self, needle: str) -> None:
        deadline = time.monotonic() + HANG_GUARD
        while needle not in self.text:
            assert time.monotonic() < deadline, self.text
            if select.select([self.fd], [], [], 0.5)[0]:
                chunk = os.read(self.fd, 65536)
                assert chunk, f"stderr closed before {needle!r}:\n{self.text}"
                self.text += chunk.decode(errors="replace")


class FileWatch:
    """Reads the server's stderr file (HttpServer keeps it in a temporary file)."""

    def __init__(self, server: HttpServer) -> None:
        self.server = server

    def wait_for(self, needle: str) -> None:
        wait_until(lambda: needle in self.server.stderr(), f"{needle!r} not logged:\n{self.server.stderr()}")


# ------------------------------------------------------------------------------------------ stdio
def _stdio(markers: Path, *extra: str) -> StdioClient:
    client = StdioClient(*SERVE, *markers_inside(markers), *extra)
    client.initialize()
    return client


def test_stdio_sigterm_lets_the_call_in_flight_finish_refuses_new_ones_and_exits_0(cache_dir, tmp_path):
    with _stdio(tmp_path) as client:
        client.send(rpc("tools/call", waiter(tmp_path, "a"), id="held"))
        wait_until((tmp_path / "in-a").exists, "the call never ran")
        client.proc.send_signal(signal.SIGTERM)
        StderrWatch(client.proc.stderr).wait_for("taking no new tool calls")

        client.send(rpc("tools/call", waiter(tmp_path, "b"), id="late"))
        refused = client.read(HANG_GUARD)
        (tmp_path / "release").touch()
        done = client.read(HANG_GUARD)
        status = client.proc.wait(HANG_GUARD)
    assert refused["id"] == "late" and refused["error"]["code"] == -32000
    assert "shutting down" in refused["error"]["message"] and "no new tool calls" in refused["error"]["message"]
    assert not (tmp_path / "in-b").exists()  # it never started
    assert done["id"] == "held" and done["result"]["structuredContent"]["stdout"] == "RELEASED\n"
    assert status == 0


def test_stdio_sigterm_past_the_grace_kills_the_call_and_its_process_group(cache_dir, tmp_path):
    with _stdio(tmp_path, "--shutdown-grace", "0") as client:
        client.send(rpc("tools/call", waiter(tmp_path, "a", "CHILD"), id="held"))
        wait_until((tmp_path / "in-a").exists, "the call never ran")
        unit = run_unit_of(client.proc.pid)
        ours = descendants(client.proc.pid)
        assert len(group(unit)) >= 2  # the program and the process it started in its group
        client.proc.send_signal(signal.SIGTERM)
        reply = client.read(HANG_GUARD)
        status = client.proc.wait(HANG_GUARD)
    assert reply["id"] == "held" and "result" not in reply
    assert "stopped by the server's shutdown" in reply["error"]["message"]
    assert status == 1
    assert [pid for pid in ours if alive(pid)] == [] and group(unit) == []


def test_stdio_a_second_signal_ends_the_grace(cache_dir, tmp_path):
    with _stdio(tmp_path) as client:  # a grace of 30 s: only the second signal ends it
        client.send(rpc("tools/call", waiter(tmp_path, "a"), id="held"))
        wait_until((tmp_path / "in-a").exists, "the call never ran")
        client.proc.send_signal(signal.SIGTERM)
        StderrWatch(client.proc.stderr).wait_for("taking no new tool calls")
        client.proc.send_signal(signal.SIGINT)
        reply = client.read(HANG_GUARD)
        status = client.proc.wait(HANG_GUARD)
    assert "stopped by the server's shutdown" in reply["error"]["message"] and status == 1


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT], ids=["SIGKILL", "SIGINT"])
def test_stdio_a_server_ended_at_once_leaves_no_run_unit(cache_dir, tmp_path, sig):
    """SIGKILL: the kernel's parent-death signal; SIGINT (outside a drain: a stop at once): the server's
    own way out kills the group."""
    with _stdio(tmp_path) as client:
        client.send(rpc("tools/call", waiter(tmp_path, "a", "CHILD"), id="held"))
        wait_until((tmp_path / "in-a").exists, "the call never ran")
        unit = run_unit_of(client.proc.pid)
        client.proc.send_signal(sig)
        status = client.proc.wait(HANG_GUARD)
        wait_until(lambda: not alive(unit), "the run unit outlived the server")
        left = group(unit)  # SIGKILL: what the run unit started itself is beyond the kernel's signal
        for pid in left:
            os.kill(pid, signal.SIGKILL)
        if sig == signal.SIGINT:
            assert status == 130 and left == []


def test_stdio_eof_waits_for_calls_in_flight_and_a_sigterm_then_bounds_the_wait(cache_dir, tmp_path):
    """EOF on stdin (how an MCP client ends a stdio server first) answers every call before exit,
    however long it runs; the SIGTERM a client sends next starts the grace."""
    with _stdio(tmp_path, "--shutdown-grace", "0") as client:
        client.send(rpc("tools/call", waiter(tmp_path, "a"), id="held"))
        wait_until((tmp_path / "in-a").exists, "the call never ran")
        client.proc.stdin.close()
        assert client.silent_for(0.5) and client.proc.poll() is None  # still waiting for the call
        client.proc.send_signal(signal.SIGTERM)
        reply = client.read(HANG_GUARD)
        status = client.proc.wait(HANG_GUARD)
    assert "stopped by the server's shutdown" in reply["error"]["message"] and status == 1


# ------------------------------------------------------------------------------------------ HTTP
def _post(server: HttpServer, call: dict, id: str) -> httpx.Response:
    with httpx.Client(timeout=HANG_GUARD) as http:
        return http.post(server.url, json=rpc("tools/call", call, id=id), headers=LEGACY)


def test_http_sigterm_lets_the_call_in_flight_finish_refuses_new_ones_and_exits_0(cache_dir, tmp_path):
    with HttpServer("--stateless", *SERVE, *markers_inside(tmp_path)) as server, ThreadPoolExecutor(1) as pool:
        held = pool.submit(_post, server, waiter(tmp_path, "a"), "held")
        wait_until((tmp_path / "in-a").exists, "the call never ran")
        server.proc.send_signal(signal.SIGTERM)
        FileWatch(server).wait_for("new requests get 503")

        late = _post(server, waiter(tmp_path, "b"), "late")
        health = httpx.get(f"{server.base}/healthz", timeout=HANG_GUARD)
        (tmp_path / "release").touch()
        done = held.result(HANG_GUARD)
        status = server.proc.wait(HANG_GUARD)
    assert late.status_code == 503 and late.headers["retry-after"] == "1"
    error = late.json()["error"]
    assert error["code"] == -32000 and "shutting down" in error["message"]
    assert health.status_code == 503  # a readiness probe sees the drain
    assert not (tmp_path / "in-b").exists()
    assert done.status_code == 200 and done.json()["result"]["structuredContent"]["stdout"] == "RELEASED\n"
    assert status == 0


def test_http_sigterm_past_the_grace_kills_the_call_and_its_process_group(cache_dir, tmp_path):
    serve = ("--stateless", "--shutdown-grace", "0", *SERVE, *markers_inside(tmp_path))
    with HttpServer(*serve) as server, ThreadPoolExecutor(1) as pool:
        held = pool.submit(_post, server, waiter(tmp_path, "a", "CHILD"), "held")
        wait_until((tmp_path / "in-a").exists, "the call never ran")
        unit = run_unit_of(server.proc.pid)
        ours = descendants(server.proc.pid)
        assert len(group(unit)) >= 2
        server.proc.send_signal(signal.SIGTERM)
        reply = held.result(HANG_GUARD)
        status = server.proc.wait(HANG_GUARD)
    message = json.loads(reply.content)
    assert message["id"] == "held" and "result" not in message
    assert "stopped by the server's shutdown" in message["error"]["message"]
    assert status == 1
    assert [pid for pid in ours if alive(pid)] == [] and group(unit) == []


def test_http_sigkill_leaves_no_run_unit(cache_dir, tmp_path):
    with HttpServer("--stateless", *SERVE, *markers_inside(tmp_path)) as server, ThreadPoolExecutor(1) as pool:
        held = pool.submit(_post, server, waiter(tmp_path, "a"), "held")
        wait_until((tmp_path / "in-a").exists, "the call never ran")
        unit = run_unit_of(server.proc.pid)
        server.proc.kill()
        server.proc.wait(HANG_GUARD)
        wait_until(lambda: not alive(unit), "the run unit outlived the SIGKILLed server")
        with pytest.raises(httpx.TransportError):
            held.result(HANG_GUARD)


@pytest.mark.parametrize("grace", ["-1", "nan", "soon"])
def test_a_bad_grace_is_refused(cache_dir, grace):
    with StdioClient("--shutdown-grace", grace) as client:
        status, _, err = client.close(HANG_GUARD)
    assert status == 2 and b"--shutdown-grace" in err


# ------------------------------------------------------------------------------------------ HTTP, N processes
def test_http_workers_sigterm_lets_the_call_in_flight_finish_and_leaves_no_process(cache_dir, tmp_path):
    """`--workers 2`: the supervisor passes SIGTERM on; the process holding the call drains it."""
    serve = ("--stateless", "--workers", "2", *SERVE, *markers_inside(tmp_path))
    with HttpServer(*serve) as server, ThreadPoolExecutor(1) as pool:
        held = pool.submit(_post, server, waiter(tmp_path, "a"), "held")
        wait_until((tmp_path / "in-a").exists, "the call never ran")
        ours = descendants(server.proc.pid)
        server.proc.send_signal(signal.SIGTERM)
        FileWatch(server).wait_for("Shutting down")  # (each process stops as uvicorn stops)
        (tmp_path / "release").touch()
        done = held.result(HANG_GUARD)
        status = server.proc.wait(HANG_GUARD)
    assert done.status_code == 200 and done.json()["result"]["structuredContent"]["stdout"] == "RELEASED\n"
    assert status == 0
    # the supervisor does not wait for its processes' COBOL workers: they end as their parent does
    wait_until(lambda: [pid for pid in ours if alive(pid)] == [], "a process outlived the server")


def test_http_workers_sigterm_past_the_grace_kills_the_call_and_leaves_no_process(cache_dir, tmp_path):
    serve = ("--stateless", "--workers", "2", "--shutdown-grace", "0", *SERVE, *markers_inside(tmp_path))
    with HttpServer(*serve) as server, ThreadPoolExecutor(1) as pool:
        held = pool.submit(_post, server, waiter(tmp_path, "a", "CHILD"), "held")
        wait_until((tmp_path / "in-a").exists, "the call never ran")
        unit = run_unit_of(server.proc.pid)
        ours = descendants(server.proc.pid)
        server.proc.send_signal(signal.SIGTERM)
        reply = held.result(HANG_GUARD)
        server.proc.wait(HANG_GUARD)
    message = json.loads(reply.content)  # a JSON-RPC error, not uvicorn's bare 500 for a cancelled task
    assert message["id"] == "held" and "stopped by the server's shutdown" in message["error"]["message"]
    wait_until(lambda: [pid for pid in ours if alive(pid)] == [] and group(unit) == [], "a process outlived the server")
