"""The ASGI application in process: called with scope, receive and send, no socket, no subprocess.

These run beside the subprocess tests (which see what a client sees); here the app's own seams are
visible: which object answers a modern tool call, how often the 2026-07-28 envelope is checked, what
the door refuses before any body is read."""

from __future__ import annotations

import asyncio
import json

import pytest

from cobol_mcp.options import Options
from cobol_mcp.protocol import modern as protocol_modern
from cobol_mcp.protocol.modern import ModernEra
from cobol_mcp.protocol.session import Session
from cobol_mcp.transports.http import modern as http_modern
from cobol_mcp.transports.http.app import McpHttpApp, Settings
from cobol_mcp.transports.http.calls import Calls
from cobol_mcp.transports.http.door import Door

from .conftest import ENVELOPE, INIT, MODERN, rpc

BOTH = "application/json, text/event-stream"


class Exchange:
    """One request through the app: what it sent back."""

    def __init__(self) -> None:
        self.status = 0
        self.headers: dict[bytes, bytes] = {}
        self.body = b""
        self.reads = 0  # how many receive() calls the app made

    def json(self) -> dict:
        return json.loads(self.body)


async def request(
    app: McpHttpApp,
    method: str = "POST",
    body: bytes = b"",
    headers: dict[str, str] | None = None,
    chunks: list[bytes] | None = None,
) -> Exchange:
    given = {"host": "127.0.0.1:8000", "content-type": "application/json", "accept": BOTH, **(headers or {})}
    if chunks is None:
        given.setdefault("content-length", str(len(body)))
        chunks = [body]
    scope = {
        "type": "http",
        "method": method,
        "path": "/mcp",
        "headers": [(k.lower().encode(), v.encode()) for k, v in given.items()],
    }
    exchange = Exchange()
    parts = list(chunks)

    async def receive() -> dict:
        exchange.reads += 1
        if parts:
            chunk = parts.pop(0)
            return {"type": "http.request", "body": chunk, "more_body": bool(parts)}
        await asyncio.sleep(3600)  # the client waits for its answer
        return {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        if message["type"] == "http.response.start":
            exchange.status = message["status"]
            exchange.headers = dict(message.get("headers", []))
        else:
            exchange.body += message.get("body", b"")

    await asyncio.wait_for(app(scope, receive, send), 60)
    return exchange


def served(cache_dir, test, **settings) -> None:
    """Run `test(app)` against a started app, then stop it."""
    options = Options(bundled=True, cache_dir=cache_dir, workers=1)
    app = McpHttpApp(options, Settings(**settings))

    async def main() -> None:
        app.start()
        try:
            await test(app)
        finally:
            app.stop()

    asyncio.run(main())


def modern_headers(method: str, name: str | None = None) -> dict[str, str]:
    headers = {"mcp-protocol-version": MODERN, "mcp-method": method}
    if name is not None:
        headers["mcp-name"] = name
    return headers


ADD = {"name": "add", "arguments": {"a": 1, "b": 2}, "_meta": ENVELOPE}


def test_a_handshake_session_in_process(cache_dir):
    async def test(app: McpHttpApp) -> None:
        init = await request(app, body=json.dumps(rpc("initialize", INIT, id=1)).encode())
        assert init.status == 200 and init.json()["result"]["protocolVersion"] == "2025-11-25"
        session = init.headers[b"mcp-session-id"].decode()
        call = await request(
            app,
            body=json.dumps(rpc("tools/call", {"name": "add", "arguments": {"a": 1, "b": 2}}, id=2)).encode(),
            headers={"mcp-session-id": session, "mcp-protocol-version": "2025-11-25"},
        )
        assert call.status == 200 and call.json()["result"]["structuredContent"] == {"sum": "3"}
        gone = await request(app, method="DELETE", headers={"mcp-session-id": session})
        assert gone.status == 204

    served(cache_dir, test)


def test_a_modern_tool_call_needs_no_session_and_its_envelope_is_checked_once(cache_dir, monkeypatch):
    checks: list[object] = []
    check = protocol_modern.check_envelope

    def counted(params, supported):
        checks.append(params)
        return check(params, supported)

    monkeypatch.setattr(protocol_modern, "check_envelope", counted)
    monkeypatch.setattr(http_modern, "check_envelope", counted, raising=False)  # (where it was imported before)
    answered_by: list[type] = []
    run = Calls.run

    async def recorded(self, answerer, *args):
        answered_by.append(type(answerer))
        await run(self, answerer, *args)

    monkeypatch.setattr(Calls, "run", recorded)
    sessions: list[Session] = []
    init = Session.__init__

    def made(self, *args, **kwargs):
        sessions.append(self)
        init(self, *args, **kwargs)

    async def test(app: McpHttpApp) -> None:
        monkeypatch.setattr(Session, "__init__", made)
        reply = await request(
            app, body=json.dumps(rpc("tools/call", ADD, id=5)).encode(), headers=modern_headers("tools/call", "add")
        )
        assert reply.status == 200, reply.body
        result = reply.json()["result"]
        assert result["resultType"] == "complete" and result["structuredContent"] == {"sum": "3"}

    served(cache_dir, test, stateless=True)
    assert len(checks) == 1  # the 2026-07-28 envelope, checked once for the request
    assert answered_by == [ModernEra]  # the stateless era writes its result: no handshake session stands in
    assert sessions == []


@pytest.mark.parametrize(
    ("headers", "status", "code"),
    [
        (modern_headers("tools/call", "sub"), 400, -32020),  # Mcp-Name does not repeat the body
        (modern_headers("tools/list"), 400, -32020),  # nor Mcp-Method
        ({**modern_headers("tools/call", "add"), "mcp-protocol-version": "2099-01-01"}, 400, -32022),
    ],
)
def test_modern_refusals_map_to_http_statuses(cache_dir, headers, status, code):
    async def test(app: McpHttpApp) -> None:
        reply = await request(app, body=json.dumps(rpc("tools/call", ADD, id=7)).encode(), headers=headers)
        assert reply.status == status and reply.json()["error"]["code"] == code and reply.json()["id"] == 7

    served(cache_dir, test, stateless=True)


def test_the_door_refuses_from_the_headers_and_drops_an_oversize_body(cache_dir):
    async def test(app: McpHttpApp) -> None:
        wrong_type = await request(app, body=b"{}", headers={"content-type": "text/plain"})
        assert wrong_type.status == 415 and wrong_type.headers[b"connection"] == b"close"
        assert wrong_type.reads == 0  # answered from the headers alone
        no_accept = await request(app, body=b"{}", headers={"accept": "text/html"})
        assert no_accept.status == 406 and no_accept.reads == 0
        chunks = [b"x" * 400] * 5
        oversize = await request(app, headers={"content-length": "2000"}, chunks=chunks)
        assert oversize.status == 413 and "at most 1000 bytes" in oversize.json()["error"]["message"]
        assert oversize.reads == len(chunks)  # all of the body was read (and dropped) before the answer
        expecting = await request(app, headers={"content-length": "2000", "expect": "100-continue"}, chunks=chunks)
        assert expecting.status == 413 and expecting.reads == 0  # the client waits: nothing to drop
        huge = await request(app, headers={"content-length": str(10**12)}, chunks=chunks)
        assert huge.status == 413 and huge.reads == 0  # past the bound: not read at all
        assert app.context.buffered == 0

    served(cache_dir, test, stateless=True, max_body_bytes=1000)


def test_the_guard_answers_before_the_door_reads_anything(cache_dir):
    async def test(app: McpHttpApp) -> None:
        reply = await request(app, body=b"{}", headers={"origin": "http://evil.example"})
        assert reply.status == 403 and reply.reads == 0 and b"access-control-allow-origin" not in reply.headers
        token = await request(app, body=b"{}", headers={"authorization": "Bearer wrong"})
        assert token.status == 401 and token.reads == 0

    served(cache_dir, test, stateless=True, auth_token="a-long-enough-test-token")


def test_both_paths_come_in_through_the_one_door(cache_dir, monkeypatch):
    seen: list[bytes | None] = []
    admit = Door.admit

    def watched(self, headers):
        seen.append(headers.get(b"x-probe"))
        return admit(self, headers)

    monkeypatch.setattr(Door, "admit", watched)
    ping = json.dumps(rpc("ping", id=3)).encode()
    lane_head = [
        (b"host", b"127.0.0.1:8000"),
        (b"content-type", b"application/json"),
        (b"accept", BOTH.encode()),
        (b"mcp-protocol-version", b"2025-11-25"),
        (b"content-length", str(len(ping)).encode()),
    ]

    async def test(app: McpHttpApp) -> None:
        reply = await request(app, body=ping, headers={"x-probe": "asgi", "authorization": "Bearer " + "t" * 24})
        assert reply.status == 200 and reply.json()["result"] == {}
        assert app.lane is not None  # the short path, started with the app
        with_token = [*lane_head, (b"authorization", b"Bearer " + b"t" * 24), (b"x-probe", b"lane")]
        assert app.lane.admit(with_token) is not None
        assert app.lane.admit([*lane_head, (b"x-probe", b"no token")]) is None  # the door's refusal: declined

    served(cache_dir, test, stateless=True, auth_token="t" * 24)
    assert seen == [b"asgi", b"lane", b"no token"]
