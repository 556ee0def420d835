"""Streamable HTTP (2025-11-25) over a real socket: replies, status codes and sessions."""

from __future__ import annotations

import json
import re
import time

import httpx
import pytest

from .conftest import BOTH, INIT, HttpServer, McpHttp, hold, released_after_progress, rpc, sse_messages


def test_healthz_answers_without_a_session(server):
    reply = httpx.get(f"{server.base}/healthz")
    assert reply.status_code == 200
    assert reply.json() == {"status": "ok"}
    assert httpx.head(f"{server.base}/healthz").status_code == 200
    assert httpx.post(f"{server.base}/healthz").status_code == 405
    elsewhere = httpx.get(f"{server.base}/elsewhere")
    assert elsewhere.status_code == 404
    assert elsewhere.json()["error"]["message"] == "Not Found: the MCP endpoint is /mcp"  # JSON-RPC, like every error


def test_initialize_issues_a_visible_ascii_session_id(server):
    c = McpHttp(server, session=False)
    reply = c.post(rpc("initialize", INIT))
    assert reply.status_code == 200
    assert reply.headers["content-type"] == "application/json"
    body = reply.json()
    assert body["result"]["protocolVersion"] == "2025-11-25"
    assert body["result"]["capabilities"] == {"tools": {}}
    session_id = reply.headers["mcp-session-id"]
    assert re.fullmatch(r"[\x21-\x7e]{16,}", session_id)
    again = c.post(rpc("initialize", INIT))
    assert again.headers["mcp-session-id"] != session_id  # each initialize opens its own session


def test_requests_get_json_and_notifications_get_202(client):
    listed = client.request("tools/list")["result"]["tools"]
    assert {"add", "format_currency", "validate_date", "sleep_for"} <= {tool["name"] for tool in listed}
    assert client.request("ping") == {"jsonrpc": "2.0", "id": client.next_id, "result": {}}
    result = client.call("add", a="0.1", b="0.2")
    assert result["structuredContent"] == {"sum": "0.3"}
    note = client.post(rpc("notifications/progress", {"progressToken": 1, "progress": 1}, id=None))
    assert (note.status_code, note.content) == (202, b"")
    response = client.post({"jsonrpc": "2.0", "id": 7, "result": {}})  # a client's response
    assert (response.status_code, response.content) == (202, b"")
    assert note.headers["mcp-session-id"] == client.session_id


def test_errors_in_results_and_unknown_methods(client):
    bad = client.call("validate_date", date="2024-02-29")
    assert bad["isError"] is True
    unknown = client.request("no/such/method")
    assert unknown["error"]["code"] == -32601


def test_sse_reply_when_the_client_accepts_only_sse(client):
    reply = client.post(
        rpc("tools/call", {"name": "add", "arguments": {"a": 1, "b": 2}}, id=41), accept="text/event-stream"
    )
    assert reply.status_code == 200
    assert reply.headers["content-type"].startswith("text/event-stream")
    assert reply.headers["cache-control"].startswith("no-cache")
    messages = sse_messages(reply.text)
    assert messages == [
        {
            "jsonrpc": "2.0",
            "id": 41,
            "result": {"content": [{"type": "text", "text": "3"}], "structuredContent": {"sum": "3"}},
        }
    ]
    ping = client.post(rpc("ping", id="p"), accept="text/event-stream")
    assert sse_messages(ping.text) == [{"jsonrpc": "2.0", "id": "p", "result": {}}]


def test_progress_notifications_come_first_on_an_sse_stream(client, tmp_path):
    with client.http.stream(
        "POST",
        client.server.url,
        headers=client.headers(),
        content=json.dumps(
            rpc(
                "tools/call",
                {"name": "hold", "arguments": hold(tmp_path, "p"), "_meta": {"progressToken": "tok-1"}},
                id=5,
            )
        ),
    ) as reply:
        assert reply.headers["content-type"].startswith("text/event-stream")
        text = released_after_progress(reply.iter_lines(), tmp_path)
    messages = sse_messages(text)
    progress, final = messages[:-1], messages[-1]
    assert progress, messages
    assert all(m["method"] == "notifications/progress" and m["params"]["progressToken"] == "tok-1" for m in progress)
    assert [m["params"]["progress"] for m in progress] == list(range(1, len(progress) + 1))
    assert final["id"] == 5 and final["result"]["structuredContent"] == {"released": 1}


def test_without_a_progress_token_a_slow_call_answers_in_json(client):
    result = client.call("sleep_for", milliseconds=1200)
    assert result["structuredContent"] == {"slept": 1200}


@pytest.mark.parametrize(
    "body, code",
    [
        (b'[{"jsonrpc":"2.0","id":1,"method":"ping"}]', -32600),
        (b'{"jsonrpc":"2.0","id":1,"method":', -32700),
        (b'{"jsonrpc":"1.0","id":1,"method":"ping"}', -32600),
        (b'"just a string"', -32600),
    ],
)
def test_malformed_bodies_get_400(client, body, code):
    reply = client.http.post(client.server.url, content=body, headers=client.headers())
    assert reply.status_code == 400
    assert reply.json()["error"]["code"] == code


def test_bodies_over_4_mib_get_413(client):
    padding = "x" * (4 << 20)
    message = json.dumps(rpc("tools/call", {"name": "add", "arguments": {"a": 1, "b": 2, "pad": padding}}))
    assert client.http.post(client.server.url, content=message, headers=client.headers()).status_code == 413

    def chunks():  # no Content-Length: the limit holds as the body streams in
        for _ in range(5):
            yield b" " * (1 << 20)

    assert client.http.post(client.server.url, content=chunks(), headers=client.headers()).status_code == 413
    assert client.request("ping")["result"] == {}


def test_media_types(client):
    wrong_type = client.http.post(
        client.server.url, content=json.dumps(rpc("ping")), headers={**client.headers(), "content-type": "text/plain"}
    )
    assert wrong_type.status_code == 415
    not_acceptable = client.post(rpc("ping"), accept="text/html")
    assert not_acceptable.status_code == 406
    anything = client.post(rpc("ping"), accept="*/*")
    assert anything.status_code == 200 and anything.json()["result"] == {}


def test_session_header_rules(server, client):
    raw = httpx.Client()
    no_session = raw.post(server.url, json=rpc("tools/list"), headers={"accept": BOTH})
    assert no_session.status_code == 400
    assert no_session.json()["error"]["code"] == -32600
    unknown = raw.post(server.url, json=rpc("tools/list"), headers={"accept": BOTH, "mcp-session-id": "nope"})
    assert unknown.status_code == 404
    note = raw.post(server.url, json=rpc("notifications/initialized", id=None), headers={"accept": BOTH})
    assert note.status_code == 400
    assert client.request("tools/list")["result"]["tools"]


def test_delete_ends_the_session(server):
    c = McpHttp(server)
    assert c.request("ping")["result"] == {}
    assert c.http.delete(server.url, headers=c.headers()).status_code == 204
    assert c.post(rpc("ping", id=2)).status_code == 404
    assert c.http.delete(server.url, headers=c.headers()).status_code == 404
    assert httpx.delete(server.url).status_code == 400


def test_protocol_version_header(client):
    assert client.request("ping", **{"mcp_protocol_version": "2025-03-26"})["result"] == {}
    assert client.request("ping", **{"mcp_protocol_version": "2025-06-18"})["result"] == {}
    for bad in ("2026-07-28", "1999-01-01", "banana"):
        reply = client.post(rpc("ping", id=9), mcp_protocol_version=bad)
        assert reply.status_code == 400
        error = reply.json()["error"]
        assert error["data"]["requested"] == bad and "2025-11-25" in error["data"]["supported"]
        assert reply.json()["id"] == 9
    missing = client.http.post(
        client.server.url,
        content=json.dumps(rpc("ping")),
        headers={k: v for k, v in client.headers().items() if k != "mcp-protocol-version"},
    )
    assert missing.status_code == 200
    assert client.http.get(client.server.url, headers=client.headers(mcp_protocol_version="x")).status_code == 400


def test_get_offers_no_stream(client):
    reply = client.http.get(client.server.url, headers=client.headers(accept="text/event-stream"))
    assert reply.status_code == 405
    assert set(reply.headers["allow"].replace(" ", "").split(",")) == {"POST", "DELETE"}
    assert client.http.put(client.server.url, headers=client.headers()).status_code == 405


def test_idle_sessions_expire(cache_dir):
    with HttpServer("--session-idle", "3") as idle:
        c = McpHttp(idle)
        assert c.request("ping")["result"] == {}
        time.sleep(0.3)  # far less than the idle limit, so a busy machine still finds the session alive
        assert c.request("ping")["result"] == {}  # use keeps it alive
        time.sleep(4.0)  # at least the idle limit: the session has ended, however busy the machine
        assert c.post(rpc("ping", id=99)).status_code == 404
        c.close()


@pytest.mark.parametrize(
    "header, expected",
    [
        (None, (True, True)),
        (b"application/json, text/event-stream", (True, True)),
        (b"text/event-stream", (False, True)),
        (b"application/json", (True, False)),
        (b"*/*", (True, True)),
        (b"application/*;q=0.5", (True, False)),
        (b"application/json;q=0, text/event-stream", (False, True)),
        (b"text/html", (False, False)),
    ],
)
def test_accept_header(header, expected):
    from cobol_mcp.transports.http.wire import accepts

    assert accepts(header) == expected


def test_content_type_parameters():
    from cobol_mcp.transports.http.wire import is_json_type

    assert is_json_type(b"application/json; charset=utf-8")
    assert is_json_type(b"Application/JSON")
    assert not is_json_type(b"application/jsonl")
