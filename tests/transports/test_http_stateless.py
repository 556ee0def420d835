"""--stateless: no sessions, every request on its own, so any process can serve any request."""

from __future__ import annotations

import json
import subprocess
import sys

import httpx
import pytest

from .conftest import BOTH, INIT, PROGRAMS, HttpServer, hold, released_after_progress, rpc, sse_messages

HEADERS = {"content-type": "application/json", "accept": BOTH, "mcp-protocol-version": "2025-11-25"}


@pytest.fixture(scope="module")
def pair(cache_dir):
    with (
        HttpServer("--stateless", "--programs", str(PROGRAMS)) as a,
        HttpServer("--stateless", "--programs", str(PROGRAMS)) as b,
    ):
        yield a, b


def post(server: HttpServer, message: dict, **headers: str) -> httpx.Response:
    return httpx.post(server.url, content=json.dumps(message), headers={**HEADERS, **headers}, timeout=30)


def test_no_session_is_issued_and_none_is_needed(pair):
    a, _ = pair
    init = post(a, rpc("initialize", INIT))
    assert init.status_code == 200 and "mcp-session-id" not in init.headers
    assert init.json()["result"]["protocolVersion"] == "2025-11-25"
    call = post(a, rpc("tools/call", {"name": "add", "arguments": {"a": "1.10", "b": "2.20"}}, id=2))
    assert call.json()["result"]["structuredContent"] == {"sum": "3.30"}
    assert post(a, rpc("notifications/initialized", id=None)).status_code == 202
    assert post(a, rpc("ping"), **{"mcp-session-id": "whatever"}).json()["result"] == {}
    assert httpx.delete(a.url, headers=HEADERS).status_code == 405
    assert httpx.get(a.url, headers=HEADERS).status_code == 405


def test_a_conversation_spread_over_two_processes(pair):
    a, b = pair
    steps = [
        (a, rpc("initialize", INIT, id=1)),
        (b, rpc("notifications/initialized", id=None)),
        (b, rpc("tools/list", id=2)),
        (a, rpc("tools/call", {"name": "format_currency", "arguments": {"amount": "1234.5"}}, id=3)),
        (b, rpc("tools/call", {"name": "sleep_for", "arguments": {"milliseconds": 10}}, id=4)),
        (a, rpc("ping", id=5)),
    ]
    replies = [post(server, message) for server, message in steps]
    assert [r.status_code for r in replies] == [200, 202, 200, 200, 200, 200]
    assert "sleep_for" in {tool["name"] for tool in replies[2].json()["result"]["tools"]}
    assert replies[3].json()["result"]["structuredContent"] == {"formatted": "$1,234.50"}
    assert replies[4].json()["result"]["structuredContent"] == {"slept": 10}
    assert a.proc.pid != b.proc.pid


def test_sse_and_progress_work_statelessly(pair, tmp_path):
    a, _ = pair
    message = rpc("tools/call", {"name": "hold", "arguments": hold(tmp_path, "s"), "_meta": {"progressToken": 8}}, id=6)
    with httpx.stream("POST", a.url, content=json.dumps(message), headers=HEADERS, timeout=30) as reply:
        messages = sse_messages(released_after_progress(reply.iter_lines(), tmp_path))
    assert messages[0]["params"] == {"progressToken": 8, "progress": 1, "message": "COBOL program running for 1 s"}
    assert messages[-1]["result"]["structuredContent"] == {"released": 1}


def test_several_http_processes(cache_dir):
    token = "multi-process-token-0123456789"
    with HttpServer("--stateless", "--workers", "2", "--auth-token", token, "--programs", str(PROGRAMS)) as multi:
        headers = {**HEADERS, "authorization": f"Bearer {token}"}
        for i in range(6):
            with httpx.Client() as fresh:  # a new connection may land on either process
                reply = fresh.post(
                    multi.url, json=rpc("tools/call", {"name": "add", "arguments": {"a": i, "b": i}}), headers=headers
                )
                assert reply.json()["result"]["structuredContent"] == {"sum": str(2 * i)}
                env = fresh.post(
                    multi.url,
                    json=rpc(
                        "tools/call", {"name": "read_env", "arguments": {"variable_name": "COBOL_MCP_HTTP_CONFIG"}}
                    ),
                    headers=headers,
                )
                assert env.json()["result"]["structuredContent"] == {"variable_value": ""}  # nor the token in it
        assert httpx.post(multi.url, json=rpc("ping"), headers=HEADERS).status_code == 401
        assert multi.proc.poll() is None
    assert multi.proc.returncode == 0


def test_several_http_processes_need_stateless(cache_dir):
    done = subprocess.run(
        [sys.executable, "-m", "cobol_mcp", "--transport", "http", "--workers", "2"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "--workers 2 needs --stateless" in done.stderr
