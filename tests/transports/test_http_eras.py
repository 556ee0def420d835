"""Both eras in --stateless mode, resources, logging, cancellation by disconnect, and the era ladder."""

from __future__ import annotations

import asyncio
import json
import socket

import httpx
import pytest

from cobol_mcp.protocol.dispatch import MODERN as MODERN_ERA
from cobol_mcp.protocol.dispatch import era
from cobol_mcp.protocol.jsonrpc import parse
from cobol_mcp.protocol.modern import decode_name
from cobol_mcp.transports.http.modern import header_text

from .conftest import (
    BOTH,
    CONFORMANCE_PROGRAMS,
    ENVELOPE,
    INIT,
    MODERN,
    PROGRAMS,
    HttpServer,
    McpHttp,
    entered,
    hold,
    modern_post,
    rpc,
    sse_messages,
)

LEGACY = {"content-type": "application/json", "accept": BOTH, "mcp-protocol-version": "2025-11-25"}


@pytest.fixture(scope="module")
def stateless(cache_dir):
    with HttpServer(
        "--stateless",
        "--expose-source",
        "--programs",
        f"fixtures={PROGRAMS}",
        "--programs",
        f"conformance={CONFORMANCE_PROGRAMS}",
    ) as running:
        yield running


def legacy_post(server: HttpServer, message: dict) -> httpx.Response:
    return httpx.post(server.url, content=json.dumps(message), headers=LEGACY, timeout=30)


def test_both_eras_in_stateless_mode(stateless):
    init = legacy_post(stateless, rpc("initialize", INIT))
    assert init.json()["result"]["protocolVersion"] == "2025-11-25" and "mcp-session-id" not in init.headers
    legacy = legacy_post(stateless, rpc("tools/call", {"name": "add", "arguments": {"a": 1, "b": 2}}, id=2))
    assert legacy.json()["result"] == {"content": [{"type": "text", "text": "3"}], "structuredContent": {"sum": "3"}}
    assert legacy_post(stateless, rpc("ping", id=3)).json()["result"] == {}
    discover = modern_post(stateless, "server/discover").json()["result"]
    assert discover["capabilities"] == {"tools": {}, "resources": {}}
    modern = modern_post(stateless, "tools/call", {"name": "add", "arguments": {"a": 1, "b": 2}}).json()["result"]
    assert modern["resultType"] == "complete" and modern["structuredContent"] == {"sum": "3"}
    assert modern_post(stateless, "ping").status_code == 404
    assert modern_post(stateless, "initialize", INIT).status_code == 404


@pytest.mark.parametrize("version", ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"])
def test_every_handshake_era_version_without_sessions(stateless, version):
    headers = {**LEGACY, "mcp-protocol-version": version}
    init = httpx.post(stateless.url, json=rpc("initialize", {**INIT, "protocolVersion": version}), headers=headers)
    assert init.json()["result"]["protocolVersion"] == version
    call = httpx.post(
        stateless.url, json=rpc("tools/call", {"name": "add", "arguments": {"a": 1, "b": 1}}), headers=headers
    )
    assert call.json()["result"]["structuredContent"] == {"sum": "2"}


def test_resources_for_modern_requests_and_legacy_ones(stateless):
    listed = modern_post(stateless, "resources/list").json()["result"]
    assert listed["resultType"] == "complete" and listed["ttlMs"] >= 0 and listed["cacheScope"] == "public"
    uri = next(r["uri"] for r in listed["resources"] if r["uri"].endswith("/test-logging-tool.cob"))
    read = modern_post(stateless, "resources/read", {"uri": uri}).json()["result"]
    assert read["contents"][0]["uri"] == uri and "TEST-LOGGING-TOOL" in read["contents"][0]["text"]
    assert read["resultType"] == "complete" and "ttlMs" in read and "cacheScope" in read
    templates = modern_post(stateless, "resources/templates/list").json()["result"]
    assert templates["resourceTemplates"] == [] and "ttlMs" in templates
    missing = modern_post(stateless, "resources/read", {"uri": "cobol://none/x.cob"})
    assert missing.status_code == 200
    assert missing.json()["error"] == {
        "code": -32602,
        "message": "Resource not found: cobol://none/x.cob",
        "data": {"uri": "cobol://none/x.cob"},
    }
    mismatch = modern_post(stateless, "resources/read", {"uri": uri}, headers={"mcp-name": "cobol://none/x.cob"})
    assert mismatch.status_code == 400 and mismatch.json()["error"]["code"] == -32020
    legacy = legacy_post(stateless, rpc("resources/read", {"uri": "cobol://none/x.cob"})).json()
    assert legacy["error"]["code"] == -32002
    assert "resultType" not in legacy_post(stateless, rpc("resources/list")).json()["result"]


@pytest.mark.parametrize("log_level", [None, "debug"])
def test_no_log_notifications_ever(stateless, log_level):
    meta = {**ENVELOPE, "io.modelcontextprotocol/logLevel": log_level} if log_level else ENVELOPE
    reply = modern_post(
        stateless, "tools/call", {"name": "test_logging_tool", "arguments": {}}, meta=meta, accept="text/event-stream"
    )
    messages = sse_messages(reply.text)
    assert [m.get("method") for m in messages] == [None]  # the reply alone
    texts = [block["text"] for block in messages[0]["result"]["content"]]
    assert any("Tool execution started" in text for text in texts)  # what the program DISPLAYed


def test_an_invalid_log_level_is_refused(stateless):
    reply = modern_post(stateless, "tools/list", meta={**ENVELOPE, "io.modelcontextprotocol/logLevel": "loud"})
    assert reply.status_code == 400 and reply.json()["error"]["code"] == -32602


def test_a_disconnect_cancels_a_modern_call(cache_dir, tmp_path):
    with HttpServer("--cobol-workers", "1", "--timeout", "600", "--programs", str(PROGRAMS)) as one_worker:
        body = json.dumps(
            rpc("tools/call", {"name": "hold", "arguments": hold(tmp_path, "m"), "_meta": ENVELOPE}, id=1)
        ).encode()
        head = (
            f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{one_worker.port}\r\nContent-Type: application/json\r\n"
            f"Accept: {BOTH}\r\nMCP-Protocol-Version: {MODERN}\r\nMcp-Method: tools/call\r\nMcp-Name: hold\r\n"
            f"Content-Length: {len(body)}\r\n\r\n"
        ).encode()
        with socket.create_connection(("127.0.0.1", one_worker.port)) as sock:
            sock.sendall(head + body)
            asyncio.run(entered(tmp_path, "m"))  # the only COBOL worker is held in the call now
        # never released, the held call ends only by being cancelled; only then can the one worker add
        reply = modern_post(one_worker, "tools/call", {"name": "add", "arguments": {"a": 2, "b": 3}})
        assert reply.json()["result"]["structuredContent"] == {"sum": "5"}


def test_a_legacy_session_and_a_modern_request_at_once(cache_dir):
    with HttpServer("--programs", str(PROGRAMS)) as both:
        session = McpHttp(both)
        listed = session.request("tools/list")["result"]
        modern = modern_post(both, "tools/list").json()["result"]
        assert listed["tools"] == modern["tools"] and "resultType" not in listed
        session.close()


def message(method: str, meta: bool = False, id: int | None = 1) -> object:
    params = {"_meta": ENVELOPE} if meta else {}
    return parse(json.dumps(rpc(method, params, id=id)))


@pytest.mark.parametrize(
    "version, method, meta, in_session, expected",
    [
        (None, "tools/list", False, True, False),  # 1. a live session keeps its era
        (b"2026-07-28", "tools/list", True, True, False),
        (b"2025-11-25", "tools/list", True, False, False),  # 2. a handshake-era header
        (b"2024-11-05", "tools/call", False, False, False),
        (b"2026-07-28", "tools/list", True, False, True),  # 3. any other header
        (b"banana", "tools/list", False, False, True),
        (b" 2025-06-18\t", "ping", False, False, False),
        (None, "initialize", False, False, False),  # 4. no header
        (None, "initialize", True, False, False),
        (None, "tools/list", True, False, True),
        (None, "server/discover", False, False, True),
        (None, "tools/list", False, False, False),
    ],
)
def test_the_era_ladder(version, method, meta, in_session, expected):
    declared = header_text(version) if version is not None else None
    assert (era(declared, message(method, meta), in_session) == MODERN_ERA) is expected


@pytest.mark.parametrize(
    "value, expected",
    [
        ("add", "add"),
        ("=?base64?YWRk?=", "add"),
        ("=?base64?SGVsbG8sIOS4lueVjA==?=", "Hello, 世界"),
        ("=?base64?IHBhZGRlZCA=?=", " padded "),
        ("=?base64?YWQ=?=", "ad"),
        ("=?base64?YWR=?=", None),  # not the canonical spelling of "ad"
        ("=?base64?YWRk=?=", None),  # bad padding
        ("=?base64?YW Rk?=", None),  # not the Base64 alphabet
        ("=?base64?/w==?=", None),  # not UTF-8
        ("=?BASE64?YWRk?=", "=?BASE64?YWRk?="),  # the markers are lower case: a literal value
        ("=?base64?YWRk", "=?base64?YWRk"),
    ],
)
def test_mcp_name_decoding(value, expected):
    assert decode_name(value) == expected
