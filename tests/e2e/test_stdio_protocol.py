"""The protocol over real pipes: handshake, every error class, framing limits, EOF."""

import json
import threading

import pytest

from .stdio_client import StdioClient


def test_initialize_and_tools_list(server):
    init = server.initialize()
    assert init["result"]["protocolVersion"] == "2025-11-25"
    assert init["result"]["capabilities"] == {"tools": {}}
    assert init["result"]["serverInfo"]["name"] == "cobol-mcp-server"
    assert server.silent_for(0.2)  # notifications/initialized gets no reply
    tools = server.request("tools/list")["result"]["tools"]
    assert [t["name"] for t in tools] == ["add", "format_currency", "validate_date"]
    for tool in tools:
        assert tool["title"] and tool["description"]
        schema = tool["inputSchema"]
        assert schema["type"] == "object" and schema["additionalProperties"] is False
        assert set(schema["required"]) == set(schema["properties"])
        assert tool["outputSchema"]["type"] == "object"
        assert tool["annotations"] == {
            "readOnlyHint": True,
            "destructiveHint": False,
            "idempotentHint": True,
            "openWorldHint": False,
        }
    assert "1959" in tools[0]["description"]


def test_old_version_is_echoed_and_unknown_gets_latest(server):
    assert server.initialize("2024-11-05")["result"]["protocolVersion"] == "2024-11-05"
    assert server.initialize("2099-01-01")["result"]["protocolVersion"] == "2025-11-25"


def test_requests_before_initialize_are_served(server):
    assert server.call("add", a=1, b=2)["structuredContent"] == {"sum": "3"}


def test_strict_lifecycle(cache_dir):
    with StdioClient("--strict-lifecycle") as client:
        reply = client.request("tools/list", id="early")
        assert reply["id"] == "early" and reply["error"]["code"] == -32002
        assert client.request("ping")["result"] == {}
        client.initialize()
        assert "result" in client.request("tools/list")


def test_ping(server):
    assert server.request("ping", id="x") == {"jsonrpc": "2.0", "id": "x", "result": {}}


def error_of(server, raw: bytes):
    server.send_raw(raw + b"\n")
    reply = server.read()
    return reply["id"], reply["error"]["code"]


def test_every_error_class(server):
    assert error_of(server, b"{oops") == (None, -32700)
    assert error_of(server, b'{"jsonrpc":"2.0","id":77,"method":"ping",') == (77, -32700)
    assert error_of(server, b'{"jsonrpc":"2.0","id":"s1","method":') == ("s1", -32700)
    assert error_of(server, b"[1,2]") == (None, -32600)
    assert error_of(server, b'[{"jsonrpc":"2.0","id":1,"method":"ping"}]') == (None, -32600)
    assert error_of(server, b"42") == (None, -32600)
    assert error_of(server, b'{"jsonrpc":"1.0","id":5,"method":"ping"}') == (5, -32600)
    assert error_of(server, b'{"jsonrpc":"2.0","id":6,"method":9}') == (6, -32600)
    assert error_of(server, b'{"jsonrpc":"2.0","id":null,"method":"ping"}') == (None, -32600)
    assert error_of(server, b'{"jsonrpc":"2.0","id":false,"method":"ping"}') == (None, -32600)
    assert error_of(server, b'{"jsonrpc":"2.0","id":{},"method":"ping"}') == (None, -32600)
    assert error_of(server, b'{"jsonrpc":"2.0","id":[],"method":"ping"}') == (None, -32600)
    assert error_of(server, b'{"jsonrpc":"2.0","id":2.5,"method":"ping"}') == (None, -32600)
    assert error_of(server, b'{"jsonrpc":"2.0","id":8,"method":"no/such"}') == (8, -32601)
    assert error_of(server, b'{"jsonrpc":"2.0","id":9,"method":"ping","params":[]}') == (9, -32602)
    assert error_of(server, b'{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{}}') == (10, -32602)
    assert error_of(server, b'{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":1}}') == (11, -32602)
    # still serving
    assert server.request("ping")["result"] == {}


def test_notifications_never_get_replies(server):
    server.send_raw(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    server.send_raw(b'{"jsonrpc":"2.0","method":"unknown/notification","params":{}}\n')
    server.send_raw(b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":999}}\n')
    server.send_raw(b'{"jsonrpc":"2.0","id":1,"result":{}}\n')  # a response from the client
    server.send_raw(b"\n\r\n   \n")
    assert server.silent_for(0.3)
    assert server.request("ping", id="after")["id"] == "after"


def test_crlf_line_endings(server):
    server.send_raw(b'{"jsonrpc":"2.0","id":"cr","method":"ping"}\r\n')
    assert server.read() == {"jsonrpc": "2.0", "id": "cr", "result": {}}


def test_oversize_line_is_rejected_and_server_keeps_serving(cache_dir):
    with StdioClient("--max-message-bytes", "1000") as client:
        big = b'{"jsonrpc":"2.0","id":"huge","method":"ping","params":{"pad":"' + b"x" * 50_000 + b'"}}\n'
        client.send_raw(big)
        reply = client.read()
        assert reply["id"] == "huge" and reply["error"]["code"] == -32700
        assert "exceeds the limit of 1000 bytes" in reply["error"]["message"]
        assert client.request("ping", id="next")["result"] == {}


def test_oversize_line_default_limit_streams(server):
    chunk = b"y" * (1 << 20)
    server.send_raw(b'{"jsonrpc":"2.0","id":"big","method":"ping","params":{"pad":"')
    for _ in range(5):  # 5 MiB, over the 4 MiB default, in pieces
        server.send_raw(chunk)
    server.send_raw(b'"}}\n')
    reply = server.read()
    assert reply["id"] == "big" and reply["error"]["code"] == -32700


def test_eof_answers_every_request_in_flight(cache_dir):
    with StdioClient() as client:
        lines = [
            json.dumps(
                {
                    "jsonrpc": "2.0",
                    "id": i,
                    "method": "tools/call",
                    "params": {"name": "add", "arguments": {"a": i, "b": "0.5"}},
                }
            )
            for i in range(2000)
        ]
        lines.append(json.dumps({"jsonrpc": "2.0", "id": "last", "method": "ping"}))
        client.send_raw(("\n".join(lines) + "\n").encode())
        status, out, _ = client.close()
        replies = [json.loads(line) for line in out.splitlines()]
        assert status == 0
        assert len(replies) == 2001
        by_id = {r["id"]: r for r in replies}
        assert by_id[1999]["result"]["structuredContent"] == {"sum": "1999.5"}
        assert by_id["last"]["result"] == {}


def test_a_client_that_writes_everything_before_reading_is_answered(cache_dir):
    """Replies the client does not read yet wait in the server, which keeps reading requests:
    neither side blocks the other, however the pipes' buffers compare with the burst."""
    with StdioClient() as client:
        count = 6000  # ~0.6 MB each way, ten times a pipe's buffer
        lines = b"".join(
            json.dumps(
                {
                    "jsonrpc": "2.0",
                    "id": i,
                    "method": "tools/call",
                    "params": {"name": "add", "arguments": {"a": i, "b": "0.25"}},
                }
            ).encode()
            + b"\n"
            for i in range(count)
        )
        writer = threading.Thread(target=client.send_raw, args=(lines,), daemon=True)
        writer.start()
        writer.join(60)
        if writer.is_alive():
            client.proc.kill()
            pytest.fail("the server stopped reading requests while its replies were unread")
        status, out, _ = client.close()
        replies = [json.loads(line) for line in out.splitlines()]
        assert status == 0 and len(replies) == count
        assert {r["id"]: r["result"]["structuredContent"]["sum"] for r in replies} == {
            i: f"{i}.25" for i in range(count)
        }


def test_unterminated_last_line_is_answered_at_eof(cache_dir):
    with StdioClient() as client:
        client.send_raw(b'{"jsonrpc":"2.0","id":"tail","method":"ping"}')
        status, out, _ = client.close()
        assert status == 0 and json.loads(out) == {"jsonrpc": "2.0", "id": "tail", "result": {}}


def test_stdout_carries_only_protocol_lines(server):
    server.initialize()
    server.call("add", a="1", b="2")
    server.send_raw(b"garbage\n")
    status, out, _ = server.close()
    assert status == 0
    for line in out.splitlines():
        assert json.loads(line)["jsonrpc"] == "2.0"
