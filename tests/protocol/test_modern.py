"""2026-07-28 requests beside the handshake era, in one session."""

import json

import pytest

from cobol_mcp.protocol.model import Resource, ServerModel
from cobol_mcp.protocol.session import Session, ToolCall

TOOL = {"name": "add", "description": "d", "inputSchema": {"type": "object"}}
ENVELOPE = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}
SERVER_INFO = {"io.modelcontextprotocol/serverInfo": {"name": "srv", "version": "1.2.3"}}


def make(resources=()):
    return Session(ServerModel("srv", "1.2.3", (TOOL,), resources=resources))


def modern(session, method, params=None, meta=ENVELOPE, id=1):
    out = session.receive(
        json.dumps({"jsonrpc": "2.0", "id": id, "method": method, "params": {**(params or {}), "_meta": meta}}).encode()
    )
    return json.loads(out) if isinstance(out, bytes) else out


def test_discover_lists_modern_and_legacy_versions_with_cache_hints():
    result = modern(make(), "server/discover")["result"]
    assert result == {
        "supportedVersions": ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"],
        "capabilities": {"tools": {}},
        "ttlMs": 300000,
        "cacheScope": "public",
        "resultType": "complete",
        "_meta": SERVER_INFO,
    }


def test_discover_is_answered_whatever_came_before():
    session = make()
    session.receive(b'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}')
    assert modern(session, "server/discover")["result"]["resultType"] == "complete"


def test_tools_list_is_complete_cacheable_and_identified():
    result = modern(make(), "tools/list")["result"]
    assert result == {
        "resultType": "complete",
        "tools": [TOOL],
        "ttlMs": 300000,
        "cacheScope": "public",
        "_meta": SERVER_INFO,
    }


def test_tools_call_result_is_wrapped_for_modern_only():
    session = make()
    call = modern(session, "tools/call", {"name": "add", "arguments": {"a": 1}})
    assert isinstance(call, ToolCall) and call.modern
    wrapped = json.loads(session.tool_result(call, {"content": [], "structuredContent": {"sum": "1"}}))
    assert wrapped["result"]["resultType"] == "complete" and wrapped["result"]["_meta"] == SERVER_INFO
    legacy = session.receive(b'{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add"}}')
    assert not legacy.modern
    plain = json.loads(session.tool_result(legacy, {"content": []}))
    assert plain["result"] == {"content": []}  # a legacy client never sees modern fields


def test_unknown_tool_is_invalid_params_for_modern_requests():
    reply = modern(make(), "tools/call", {"name": "nope"})
    assert reply["error"]["code"] == -32602 and "'nope'" in reply["error"]["message"]


@pytest.mark.parametrize("method", ["ping", "logging/setLevel", "initialize", "resources/subscribe", "unknown/x"])
def test_removed_and_unknown_methods(method):
    assert modern(make(), method)["error"]["code"] == -32601


@pytest.mark.parametrize(
    ("meta", "code"),
    [
        ({"io.modelcontextprotocol/protocolVersion": "2026-07-28"}, -32602),
        ({**ENVELOPE, "io.modelcontextprotocol/protocolVersion": 2026}, -32602),
        ({**ENVELOPE, "io.modelcontextprotocol/logLevel": "loud"}, -32602),
        ({**ENVELOPE, "io.modelcontextprotocol/protocolVersion": "v999.0.0"}, -32022),
    ],
)
def test_envelope_errors(meta, code):
    reply = modern(make(), "tools/list", meta=meta)
    assert reply["error"]["code"] == code
    if code == -32022:
        assert reply["error"]["data"]["requested"] == "v999.0.0"
        assert "2026-07-28" in reply["error"]["data"]["supported"]


def test_meta_without_a_version_is_legacy_traffic():
    reply = modern(make(), "tools/list", meta={"progressToken": 1, "io.modelcontextprotocol/clientCapabilities": {}})
    assert reply["result"] == {"tools": [TOOL]}


def test_discover_without_any_meta_is_invalid_params():
    out = json.loads(make().receive(b'{"jsonrpc":"2.0","id":3,"method":"server/discover"}'))
    assert out["id"] == 3 and out["error"]["code"] == -32602


def test_client_info_is_optional():
    assert "result" in modern(make(), "tools/list", meta=ENVELOPE)


def test_resources_for_modern_requests():
    res = Resource("cobol://x/a.cob", "a.cob", "text/x-cobol", "text")
    session = make((res,))
    listed = modern(session, "resources/list")["result"]
    assert listed["ttlMs"] == 300000 and listed["cacheScope"] == "public" and listed["resources"][0]["uri"] == res.uri
    read = modern(session, "resources/read", {"uri": res.uri})["result"]
    assert read["contents"][0]["text"] == "text" and read["resultType"] == "complete" and "ttlMs" in read
    missing = modern(session, "resources/read", {"uri": "cobol://x/none"})
    assert missing["error"]["code"] == -32602 and missing["error"]["data"] == {"uri": "cobol://x/none"}
    legacy = json.loads(
        session.receive(b'{"jsonrpc":"2.0","id":9,"method":"resources/read","params":{"uri":"cobol://x/none"}}')
    )
    assert legacy["error"]["code"] == -32002


def test_legacy_requests_are_unchanged_beside_modern_ones():
    session = make()
    modern(session, "server/discover")
    ping = json.loads(session.receive(b'{"jsonrpc":"2.0","id":5,"method":"ping"}'))
    assert ping == {"jsonrpc": "2.0", "id": 5, "result": {}}
    listed = json.loads(session.receive(b'{"jsonrpc":"2.0","id":6,"method":"tools/list"}'))
    assert listed["result"] == {"tools": [TOOL]}
