"""--log-format json over HTTP: every line the server writes to stderr is one JSON object, uvicorn's own
lines (start, stop, a request that is not HTTP, the access log at debug) included."""

from __future__ import annotations

import json
import signal
import socket

import pytest

from .conftest import HttpServer, McpHttp, httpx

HANG_GUARD = 60.0


@pytest.mark.parametrize("level", ["info", "debug"])
def test_every_stderr_line_is_a_json_object(cache_dir, level):
    server = HttpServer("--log-format", "json", "--log-level", level)
    try:
        client = McpHttp(server)
        assert client.call("add", a=1, b=2)["structuredContent"] == {"sum": "3"}
        assert client.call("add", a="not a number", b=2)["isError"] is True
        assert httpx.post(server.url, content=b"{not json", headers=client.headers()).status_code == 400
        assert httpx.get(f"{server.base}/nowhere").status_code == 404
        with socket.create_connection(("127.0.0.1", server.port), timeout=HANG_GUARD) as sock:
            sock.sendall(b"GARBAGE\x00\x01 / HTTP/1.1\r\n\r\n")  # uvicorn logs what it cannot parse
            assert sock.recv(65536).startswith(b"HTTP/1.1 400")
        client.close()
        server.proc.send_signal(signal.SIGTERM)
        assert server.proc.wait(HANG_GUARD) == 0
        lines = server.stderr().splitlines()
    finally:
        server.stop()
        server._stderr.close()
    records = []
    for line in lines:
        record = json.loads(line)
        assert isinstance(record, dict) and {"time", "level", "event"} <= record.keys(), line
        records.append(record)
    events = [(r.get("logger"), r["event"]) for r in records]
    assert any(logger == "uvicorn.error" and "Started server process" in event for logger, event in events), events
    assert any(logger == "uvicorn.error" and "Finished server process" in event for logger, event in events), events
    assert any("drained" in event for _, event in events), events
    if level == "debug":
        assert any(logger == "uvicorn.access" and "/nowhere" in event for logger, event in events), events
