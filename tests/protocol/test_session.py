import json

import pytest

from cobol_mcp.protocol.framing import Oversize
from cobol_mcp.protocol.model import Resource, ServerModel
from cobol_mcp.protocol.session import Cancel, Session, ToolCall

TOOL = {"name": "add", "description": "d", "inputSchema": {"type": "object"}}


def make(**kw):
    return Session(ServerModel("srv", "1.2.3", (TOOL,), **kw.pop("model", {})), **kw)


def reply(session, obj):
    out = session.receive(json.dumps(obj).encode())
    assert isinstance(out, bytes) and out.endswith(b"\n")
    return json.loads(out)


def req(method, params=None, id=1):
    msg = {"jsonrpc": "2.0", "id": id, "method": method}
    if params is not None:
        msg["params"] = params
    return msg


@pytest.mark.parametrize("version", ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"])
def test_initialize_echoes_supported_versions(version):
    r = reply(make(), req("initialize", {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "c"}}))
    assert r["result"] == {
        "protocolVersion": version,
        "capabilities": {"tools": {}},
        "serverInfo": {"name": "srv", "version": "1.2.3"},
    }


def test_initialize_unknown_version_gets_latest():
    r = reply(make(), req("initialize", {"protocolVersion": "1999-01-01"}))
    assert r["result"]["protocolVersion"] == "2025-11-25"


def test_initialize_without_version_is_invalid_params():
    assert reply(make(), req("initialize", {}))["error"]["code"] == -32602


def test_initialized_notification_and_unknown_notifications_are_silent():
    s = make()
    assert s.receive(b'{"jsonrpc":"2.0","method":"notifications/initialized"}') is None
    assert s.receive(b'{"jsonrpc":"2.0","method":"notifications/whatever","params":{}}') is None
    assert s.receive(b"") is None
    assert s.receive(b"   ") is None


def test_ping_is_empty_object_any_time():
    assert reply(make(strict_lifecycle=True), req("ping", id="p"))["result"] == {}


def test_requests_before_initialize_are_served_by_default():
    r = reply(make(), req("tools/list"))
    assert r["result"]["tools"] == [TOOL]


def test_strict_lifecycle_rejects_requests_before_initialize():
    s = make(strict_lifecycle=True)
    r = reply(s, req("tools/list", id=9))
    assert r["id"] == 9 and r["error"]["code"] == -32002 and "not initialized" in r["error"]["message"]
    r = reply(s, req("tools/call", {"name": "add"}))
    assert r["error"]["code"] == -32002
    reply(s, req("initialize", {"protocolVersion": "2025-11-25"}))
    assert "result" in reply(s, req("tools/list"))


def test_unknown_method():
    r = reply(make(), req("prompts/list", id="z"))
    assert r == {"jsonrpc": "2.0", "id": "z", "error": {"code": -32601, "message": "Method not found: prompts/list"}}


def test_tools_list_rejects_unknown_cursor():
    assert reply(make(), req("tools/list", {"cursor": "abc"}))["error"]["code"] == -32602


def test_tools_call_outcome():
    out = make().receive(json.dumps(req("tools/call", {"name": "add", "arguments": {"a": 1}}, id=5)).encode())
    assert out == ToolCall(5, "add", {"a": 1}, None)


@pytest.mark.parametrize("params", [{}, {"name": 3}, {"name": None}, {"name": "add", "arguments": [1]}])
def test_tools_call_bad_params(params):
    assert reply(make(), req("tools/call", params))["error"]["code"] == -32602


def test_cancel_outcome_and_ignored_bad_cancel():
    s = make()
    out = s.receive(b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5,"reason":"x"}}')
    assert out == Cancel(5, "x")
    assert s.receive(b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}}') is None


def test_oversize_reply_recovers_id():
    r = json.loads(make().receive(Oversize(b'{"jsonrpc":"2.0","id":"big","method":"tools/call",', 5_000_000), 4096))
    assert r["id"] == "big" and r["error"]["code"] == -32700 and "5000000 bytes" in r["error"]["message"]


def test_resources_only_when_offered():
    s = make()
    assert reply(s, req("resources/list"))["error"]["code"] == -32601
    res = Resource("cobol://x/add.cob", "add.cob", "text/x-cobol", "PROGRAM-ID. add.")
    s = make(model={"resources": (res,)})
    init = reply(s, req("initialize", {"protocolVersion": "2025-11-25"}))
    assert init["result"]["capabilities"] == {"tools": {}, "resources": {}}
    listed = reply(s, req("resources/list"))["result"]["resources"]
    assert listed == [{"uri": "cobol://x/add.cob", "name": "add.cob", "mimeType": "text/x-cobol", "size": 16}]
    read = reply(s, req("resources/read", {"uri": "cobol://x/add.cob"}))["result"]["contents"]
    assert read == [{"uri": "cobol://x/add.cob", "mimeType": "text/x-cobol", "text": "PROGRAM-ID. add."}]
    missing = reply(s, req("resources/read", {"uri": "cobol://x/none"}))
    assert missing["error"]["code"] == -32002
