"""Live reload over HTTP: a change is recompiled and served from the next request on, in both eras;
handshake-era clients are not promised tools/list_changed (there is no stream to send it on)."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
import time

import pytest

from ..e2e.test_reload import GREET, RATE, write
from .conftest import HttpServer, McpHttp, free_port, modern_post

httpx = pytest.importorskip("httpx")
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
        init = client.post(
            {
                "jsonrpc": "2.0",
                "id": 0,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-11-25",
                    "capabilities": {},
                    "clientInfo": {"name": "t", "version": "1"},
                },
            }
        )
        assert init.json()["result"]["capabilities"]["tools"] == {"listChanged": True}
        wait_stderr(server, "watching")
        assert client.call("apply_rate", principal=1000, rate_pct="2.5")["structuredContent"] == {"interest": 25.0}

        listener = httpx.Client(timeout=120)  # the read timeout is a hang guard
        with listener.stream("GET", server.url, headers={**client.headers(accept="text/event-stream")}) as stream:
            assert stream.status_code == 200
            assert stream.headers["content-type"] == "text/event-stream"
            lines = stream.iter_lines()
            assert next(lines) == ": stream open"
            write(folder / "GREET.CBL", GREET)
            data = next(line for line in lines if line.startswith("data: "))
            assert json.loads(data[6:]) == {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}
        listener.close()
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
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "cobol_mcp",
            "--transport",
            "http",
            "--stateless",
            "--workers",
            "2",
            "--watch",
            "--port",
            str(free_port()),
            "--no-bundled",
            "--programs",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert "--watch needs one process" in done.stderr
    assert done.stdout == ""


def test_a_get_stream_ends_with_its_session_and_needs_one(tmp_path, cache_dir):
    with HttpServer("--watch", "--no-bundled", "--programs", str(tmp_path)) as server:
        client = McpHttp(server)
        sse = client.headers(accept="text/event-stream")
        assert httpx.get(server.url, headers={**sse, "mcp-session-id": "nope"}).status_code == 404
        assert httpx.get(server.url, headers={**sse, "accept": "application/json"}).status_code == 406
        without = {k: v for k, v in sse.items() if k != "mcp-session-id"}
        assert httpx.get(server.url, headers=without).status_code == 400
        with httpx.Client(timeout=120) as listener, listener.stream("GET", server.url, headers=sse) as stream:
            lines = stream.iter_lines()
            assert next(lines) == ": stream open"
            assert client.http.delete(server.url, headers=client.headers()).status_code == 204
            assert [line for line in lines if line] == []  # the session ended: its stream ends too
        client.close()


def test_stateless_watch_declares_no_list_changed(tmp_path, cache_dir):
    with HttpServer("--watch", "--stateless", "--no-bundled", "--programs", str(tmp_path)) as server:
        client = McpHttp(server)
        reply = client.post(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-11-25",
                    "capabilities": {},
                    "clientInfo": {"name": "t", "version": "1"},
                },
            }
        )
        assert "listChanged" not in reply.json()["result"]["capabilities"].get("tools", {})
        assert httpx.get(server.url, headers=client.headers(accept="text/event-stream")).status_code == 405
        client.close()


def streams_open(server: HttpServer) -> float:
    text = httpx.get(f"{server.base}/metrics", timeout=30).text
    return float(re.search(r"^cobol_mcp_open_streams (\S+)$", text, re.M)[1])


def test_the_sdk_client_hears_list_changed_on_its_get_stream(tmp_path, cache_dir):
    mcp = pytest.importorskip("mcp")
    folder = tmp_path / "cobol"
    folder.mkdir()
    write(folder / "RATE.CBL", RATE.format(description="Interest on a principal at a yearly rate.", divisor=100))

    async def scenario(server: HttpServer) -> None:
        changed = asyncio.Event()

        async def on_message(message: object) -> None:
            if isinstance(message, mcp.types.ToolListChangedNotification):
                changed.set()

        async with mcp.Client(server.url, mode="legacy", message_handler=on_message) as client:
            assert [tool.name for tool in (await client.list_tools()).tools] == ["apply_rate"]
            while not await asyncio.to_thread(streams_open, server):  # the SDK opens it after initialize
                await asyncio.sleep(0.05)
            write(folder / "GREET.CBL", GREET)
            await changed.wait()
            assert [tool.name for tool in (await client.list_tools()).tools] == ["greet", "apply_rate"]

    with HttpServer("--watch", "--no-bundled", "--programs", str(folder), "--metrics") as server:
        asyncio.run(asyncio.wait_for(scenario(server), 120))
