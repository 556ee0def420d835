"""Live reload over HTTP: a change is recompiled and served from the next request on, in both eras;
handshake-era clients are not promised tools/list_changed (there is no stream to send it on)."""

from __future__ import annotations

import re
import subprocess
import sys
import time

import pytest

from ..e2e.test_reload import GREET, RATE, write
from .conftest import HttpServer, McpHttp, free_port, modern_post

pytest.importorskip("watchfiles")


def wait_stderr(server: HttpServer, pattern: str, count: int = 1, timeout: float = 120.0) -> None:
    """Until the server's stderr matches `pattern` `count` times (a hang guard, not a timing)."""
    deadline = time.monotonic() + timeout
    while len(re.findall(pattern, server.stderr())) < count:
        assert time.monotonic() < deadline, f"no {pattern!r} on stderr:\n{server.stderr()}"
        time.sleep(0.05)


def test_http_serves_the_new_tools_after_a_change(tmp_path, cache_dir):
    folder = tmp_path / "cobol"
    folder.mkdir()
    write(folder / "RATE.CBL", RATE.format(description="Interest on a principal at a yearly rate.", divisor=100))
    with HttpServer("--watch", "--no-bundled", "--programs", str(folder), "--log-level", "info") as server:
        client = McpHttp(server)
        init = client.post({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}})
        assert init.json()["result"]["capabilities"]["tools"] == {}  # no listChanged: nothing could announce it
        wait_stderr(server, "watching")
        assert client.call("apply_rate", principal=1000, rate_pct="2.5")["structuredContent"] == {"interest": 25.0}

        write(folder / "GREET.CBL", GREET)
        wait_stderr(server, r"\breloaded: \d+ tools")
        names = [tool["name"] for tool in client.request("tools/list")["result"]["tools"]]
        assert names == ["greet", "apply_rate"]
        assert client.call("greet", who="Grace")["structuredContent"] == {"greeting": "Hello, Grace"}
        modern = modern_post(server, "tools/list")
        assert [tool["name"] for tool in modern.json()["result"]["tools"]] == ["greet", "apply_rate"]
        assert modern.json()["result"]["ttlMs"] == 2000  # short cache hints tell 2026-07-28 clients instead

        write(folder / "RATE.CBL", RATE.replace("COMPUTE", "COMPUTE-IT").format(description="x", divisor=100))
        wait_stderr(server, "not reloaded")  # the last good version stays
        assert client.call("apply_rate", principal=1000, rate_pct="2.5")["structuredContent"] == {"interest": 25.0}

        write(folder / "RATE.CBL", RATE.format(description="Monthly interest at a yearly rate.", divisor=1200))
        wait_stderr(server, r"\breloaded: \d+ tools", count=3)  # GREET, the failed RATE, this
        assert client.call("apply_rate", principal=1200, rate_pct="10")["structuredContent"] == {"interest": 10.0}
        client.close()


def test_watch_refuses_several_processes(tmp_path):
    done = subprocess.run([sys.executable, "-m", "cobol_mcp", "--transport", "http", "--stateless", "--workers", "2",
                           "--watch", "--port", str(free_port()), "--no-bundled", "--programs", str(tmp_path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "--watch needs one process" in done.stderr
    assert done.stdout == ""
