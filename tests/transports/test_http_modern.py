"""2026-07-28 requests on /mcp beside handshake-era sessions of the same server process."""

from __future__ import annotations

import base64
import json

import httpx
import pytest

from .conftest import (
    BOTH,
    CAPABILITIES_KEY,
    ENVELOPE,
    INIT,
    MODERN,
    SERVER_INFO_KEY,
    VERSION_KEY,
    McpHttp,
    hold,
    modern_post,
    raw_post,
    released_after_progress,
    rpc,
    sse_messages,
)

ADD = {"name": "add", "arguments": {"a": "1.10", "b": "2.20"}}
LEGACY_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]


def error_of(reply: httpx.Response, status: int, code: int, id: int | str = 1) -> dict:
    assert reply.status_code == status, (reply.status_code, reply.text)
    assert reply.headers["content-type"].startswith("application/json")
    body = reply.json()
    assert body["id"] == id, body  # errors echo the request's id
    assert body["error"]["code"] == code, body
    return body["error"]


def result_of(reply: httpx.Response, id: int | str = 1) -> dict:
    assert reply.status_code == 200, (reply.status_code, reply.text)
    assert "mcp-session-id" not in reply.headers  # never minted for modern requests
    body = reply.json()
    assert body["id"] == id and "result" in body, body
    result = body["result"]
    assert result["resultType"] == "complete"
    assert result["_meta"][SERVER_INFO_KEY]["name"] == "cobol-mcp-server"
    return result


def test_discover_answers_without_a_session(server):
    result = result_of(modern_post(server, "server/discover"))
    assert result["supportedVersions"] == [MODERN, *LEGACY_VERSIONS]
    assert result["capabilities"] == {"tools": {}}
    assert result["ttlMs"] >= 0 and result["cacheScope"] in ("public", "private")


def test_tools_list_and_call_carry_the_modern_fields(server):
    listed = result_of(modern_post(server, "tools/list", id=2), id=2)
    assert {"add", "sleep_for"} <= {tool["name"] for tool in listed["tools"]}
    assert isinstance(listed["ttlMs"], int) and listed["cacheScope"] == "public"
    called = result_of(modern_post(server, "tools/call", ADD, id="c"), id="c")
    assert called["structuredContent"] == {"sum": "3.30"} and called["content"] == [{"type": "text", "text": "3.30"}]
    bad = result_of(modern_post(server, "tools/call", {"name": "validate_date", "arguments": {"date": "x"}}))
    assert bad["isError"] is True  # a tool error is a result, status 200


def test_legacy_sessions_are_unchanged_beside_modern_requests(server, client):
    assert result_of(modern_post(server, "tools/call", ADD))["structuredContent"] == {"sum": "3.30"}
    assert client.request("ping") == {"jsonrpc": "2.0", "id": client.next_id, "result": {}}
    legacy = client.call("add", a="1.10", b="2.20")
    assert legacy == {"content": [{"type": "text", "text": "3.30"}], "structuredContent": {"sum": "3.30"}}
    assert "resultType" not in client.request("tools/list")["result"]
    assert client.request("logging/setLevel", {"level": "info"})["error"]["code"] == -32601  # 200, as before
    assert result_of(modern_post(server, "tools/list"))["tools"]


@pytest.mark.parametrize(
    "method",
    [
        "initialize",
        "ping",
        "logging/setLevel",
        "resources/subscribe",
        "resources/unsubscribe",
        "unknown/method",
        "prompts/list",
    ],
)
def test_removed_and_unknown_methods_are_404(server, method):
    params = {"uri": "cobol://x/y"} if method.startswith("resources/") else dict(INIT) if method == "initialize" else {}
    reply = modern_post(server, method, params, id=500)
    error_of(reply, 404, -32601, id=500)
    assert "mcp-session-id" not in reply.headers  # a modern initialize opens no session


@pytest.mark.parametrize("version", LEGACY_VERSIONS)
def test_every_handshake_era_version_is_negotiated(server, version):
    c = McpHttp(server, session=False)
    reply = c.post(rpc("initialize", {**INIT, "protocolVersion": version}, id=0))
    assert reply.json()["result"]["protocolVersion"] == version
    c.session_id = reply.headers["mcp-session-id"]
    called = c.post(rpc("tools/call", ADD, id=1), mcp_protocol_version=version).json()["result"]
    assert called == {"content": [{"type": "text", "text": "3.30"}], "structuredContent": {"sum": "3.30"}}
    c.close()


def test_legacy_initialize_with_or_without_a_version_header_opens_a_session(server):
    for headers in ({}, {"mcp-protocol-version": "2025-11-25"}):
        reply = httpx.post(server.url, json=rpc("initialize", INIT), headers={"accept": BOTH, **headers})
        assert reply.status_code == 200 and reply.headers["mcp-session-id"]


@pytest.mark.parametrize(
    "meta, missing",
    [
        (None, "no _meta"),
        ({CAPABILITIES_KEY: {}}, "no protocolVersion"),
        ({VERSION_KEY: MODERN}, "no clientCapabilities"),
    ],
)
def test_missing_meta_fields_are_400_invalid_params(server, meta, missing):
    error_of(modern_post(server, "server/discover", meta=meta, id=101), 400, -32602, id=101)
    error_of(modern_post(server, "tools/call", ADD, meta=meta, id=102), 400, -32602, id=102)


def test_client_info_is_optional(server):
    result_of(modern_post(server, "tools/list", meta={VERSION_KEY: MODERN, CAPABILITIES_KEY: {}}))


def test_unsupported_versions_are_400_with_the_supported_list(server):
    meta = {**ENVELOPE, VERSION_KEY: "v999.0.0"}
    error = error_of(
        modern_post(server, "server/discover", meta=meta, mcp_protocol_version="v999.0.0", id=301), 400, -32022, id=301
    )
    assert error["data"] == {"supported": [MODERN, *LEGACY_VERSIONS], "requested": "v999.0.0"}
    unknown_header = modern_post(server, "tools/list", meta=None, mcp_protocol_version="banana")
    assert error_of(unknown_header, 400, -32022)["data"]["requested"] == "banana"
    note = modern_post(server, "notifications/cancelled", {"requestId": 1}, id=None, mcp_protocol_version="1999-01-01")
    assert note.status_code == 400 and note.json()["error"]["code"] == -32022


def test_a_legacy_header_routes_to_the_handshake_era(server):
    reply = modern_post(server, "tools/list", headers={"mcp-protocol-version": "2025-11-25"})  # despite the _meta
    assert reply.status_code == 400 and "Mcp-Session-Id" in reply.json()["error"]["message"]  # needs a session


@pytest.mark.parametrize(
    "method, params, headers",
    [
        ("server/discover", {}, {"MCP-Protocol-Version": None}),  # no header, but the _meta envelope
        ("tools/list", {}, {"mcp-method": None}),
        ("tools/list", {}, {"mcp-method": "prompts/list"}),
        ("tools/list", {}, {"mcp-method": "TOOLS/LIST"}),  # values are case-sensitive
        ("tools/call", ADD, {"mcp-name": None}),
        ("tools/call", ADD, {"mcp-name": "format_currency"}),
        ("tools/call", ADD, {"mcp-name": "ADD"}),
        ("tools/call", ADD, {"mcp-name": "=?base64?YWRk?"}),  # not a sentinel: taken literally, and wrong
        ("tools/call", ADD, {"mcp-name": "=?base64?YWRk=?="}),  # bad padding
        ("tools/call", ADD, {"mcp-name": "=?base64?Zm9v?="}),  # "foo"
        ("tools/call", ADD, {"mcp-name": "=?base64?YWRkIA==?="}),  # "add ": a decoded value is not trimmed
    ],
)
def test_header_mismatches_are_400_header_mismatch(server, method, params, headers):
    error_of(modern_post(server, method, params, id=7, headers=headers), 400, -32020, id=7)


def test_version_header_must_repeat_meta(server):
    meta = {**ENVELOPE, VERSION_KEY: "v999.0.0"}
    error = error_of(modern_post(server, "server/discover", meta=meta, id=302), 400, -32020, id=302)
    assert "MCP-Protocol-Version" in error["message"]


def test_duplicate_routing_headers_are_refused(server):
    body = rpc("tools/list", {"_meta": ENVELOPE})
    headers = [
        ("content-type", "application/json"),
        ("accept", BOTH),
        ("mcp-protocol-version", MODERN),
        ("mcp-method", "tools/list"),
        ("Mcp-Method", "tools/list"),
    ]
    error_of(httpx.post(server.url, json=body, headers=headers), 400, -32020)


@pytest.mark.parametrize(
    "headers",
    [
        {"MCP-METHOD": "tools/call", "MCP-NAME": "add", "Mcp-Protocol-Version": MODERN},  # names: any case
        {"mcp-name": "=?base64?" + base64.b64encode(b"add").decode() + "?="},  # the Base64 sentinel
    ],
)
def test_equivalent_header_spellings_are_accepted(server, headers):
    assert result_of(modern_post(server, "tools/call", ADD, headers=headers))["structuredContent"] == {"sum": "3.30"}


def test_spaces_and_tabs_around_header_values_are_trimmed(server):
    body = json.dumps(rpc("tools/call", {**ADD, "_meta": ENVELOPE}, id=8)).encode()
    headers = [
        ("Content-Type", "application/json"),
        ("Accept", BOTH),
        ("MCP-Protocol-Version", f" \t{MODERN}\t "),
        ("Mcp-Method", "  tools/call "),
        ("Mcp-Name", "\t add  "),
    ]
    status, reply = raw_post(server, body, headers)
    assert status == 200 and reply["result"]["structuredContent"] == {"sum": "3.30"}
    status, reply = raw_post(server, body, [*headers[:4], ("Mcp-Name", " a dd ")])
    assert status == 400 and reply["error"]["code"] == -32020


def test_unknown_tools_and_bad_arguments_are_200_errors(server):
    error_of(modern_post(server, "tools/call", {"name": "nope"}), 200, -32602)
    error_of(modern_post(server, "tools/call", {"name": "add", "arguments": [1]}), 200, -32602)
    error_of(modern_post(server, "tools/list", {"cursor": "x"}), 200, -32602)


def test_modern_notifications_are_202_and_responses_400(server):
    note = modern_post(server, "notifications/cancelled", {"requestId": 1, "reason": "x"}, id=None)
    assert (note.status_code, note.content) == (202, b"")
    response = httpx.post(
        server.url,
        json={"jsonrpc": "2.0", "id": 3, "result": {}},
        headers={"accept": BOTH, "mcp-protocol-version": MODERN},
    )
    assert response.status_code == 400 and response.json()["error"]["code"] == -32600


def test_no_session_is_needed_and_a_stale_one_is_ignored(server):
    for session_id in (None, "no-such-session"):
        headers = {"mcp-session-id": session_id} if session_id else {}
        assert result_of(modern_post(server, "tools/list", headers=headers))["tools"]


def test_get_and_delete_are_for_legacy_sessions_only(server, client):
    for method in ("GET", "DELETE"):
        reply = httpx.request(method, server.url, headers={"mcp-protocol-version": MODERN, "accept": BOTH})
        assert reply.status_code == 405 and reply.headers["allow"] == "POST"
    assert client.http.delete(server.url, headers=client.headers()).status_code == 204  # a legacy session ends


def test_progress_notifications_on_a_modern_stream(server, tmp_path):
    params = {
        "name": "hold",
        "arguments": hold(tmp_path, "m"),
        "_meta": {**ENVELOPE, "progressToken": "p-1", "io.modelcontextprotocol/logLevel": "debug"},
    }
    headers = {
        "content-type": "application/json",
        "accept": BOTH,
        "mcp-protocol-version": MODERN,
        "mcp-method": "tools/call",
        "mcp-name": "hold",
    }
    with httpx.stream(
        "POST", server.url, content=json.dumps(rpc("tools/call", params, id=9)), headers=headers, timeout=30
    ) as reply:
        assert reply.headers["content-type"].startswith("text/event-stream")
        messages = sse_messages(released_after_progress(reply.iter_lines(), tmp_path))
    methods = [m.get("method") for m in messages]
    assert methods[-1] is None and methods[:-1] and set(methods[:-1]) == {"notifications/progress"}  # no messages
    assert messages[0]["params"]["progressToken"] == "p-1"
    assert messages[-1]["result"]["resultType"] == "complete" and messages[-1]["result"]["structuredContent"] == {
        "released": 1
    }


def test_a_legacy_session_keeps_its_era_whatever_the_body_says(server):
    c = McpHttp(server)
    reply = c.post(rpc("tools/list", {"_meta": ENVELOPE}, id=4), mcp_protocol_version=MODERN)
    assert reply.status_code == 400 and reply.json()["error"]["data"]["requested"] == MODERN  # as in 2025-11-25
    c.close()
