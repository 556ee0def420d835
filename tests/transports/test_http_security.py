"""Host and Origin checks (DNS rebinding, browsers), bearer tokens, and unsafe bind warnings."""

from __future__ import annotations

import json

import httpx
import pytest

from cobol_mcp.transports.http.security import Guard, host_name, is_loopback, origin_parts

from .conftest import BOTH, INIT, PROGRAMS, HttpServer, McpHttp, rpc

TOKEN = "s3cret-token-for-tests-0123456789"


def initialize(server: HttpServer, **headers: str) -> httpx.Response:
    return httpx.post(
        server.url,
        content=json.dumps(rpc("initialize", INIT)),
        headers={"content-type": "application/json", "accept": BOTH, **headers},
    )


def test_dns_rebinding_is_refused_on_loopback(server):
    assert initialize(server).status_code == 200
    evil = initialize(server, host="evil.example.com", origin="http://evil.example.com")
    assert evil.status_code == 421
    assert "mcp-session-id" not in evil.headers
    assert initialize(server, host="evil.example.com").status_code == 421
    for host in (f"127.0.0.1:{server.port}", f"localhost:{server.port}", "localhost", "[::1]:9999"):
        assert initialize(server, host=host).status_code == 200, host


def test_origin_is_checked_on_every_request(server, client):
    assert initialize(server, origin="http://evil.example.com").status_code == 403
    assert initialize(server, origin="null").status_code == 403
    allowed = initialize(server, origin=f"http://localhost:{server.port}")
    assert allowed.status_code == 200
    assert allowed.headers["access-control-allow-origin"] == f"http://localhost:{server.port}"
    assert "mcp-session-id" in allowed.headers["access-control-expose-headers"]
    assert initialize(server, origin="http://127.0.0.1:6274").status_code == 200  # another local app
    assert client.post(rpc("ping"), origin="https://evil.example.com").status_code == 403
    assert client.http.delete(server.url, headers=client.headers(origin="http://evil.example")).status_code == 403
    assert client.request("ping")["result"] == {}  # the refused DELETE did not end the session


def test_allow_origin_option_and_preflight(cache_dir):
    with HttpServer("--allow-origin", "https://agent.example.com") as srv:
        ok = initialize(srv, origin="https://agent.example.com")
        assert ok.status_code == 200
        assert ok.headers["access-control-allow-origin"] == "https://agent.example.com"
        assert initialize(srv, origin="https://other.example.com").status_code == 403
        assert initialize(srv, host="agent.example.com").status_code == 200  # its host may front the server
        preflight = httpx.options(
            srv.url, headers={"origin": "https://agent.example.com", "access-control-request-method": "POST"}
        )
        assert preflight.status_code == 204
        assert "mcp-session-id" in preflight.headers["access-control-allow-headers"]
        assert httpx.options(srv.url, headers={"origin": "https://other.example.com"}).status_code == 403


def test_bearer_token(cache_dir):
    with HttpServer("--auth-token", TOKEN) as srv:
        missing = initialize(srv)
        assert missing.status_code == 401
        assert missing.headers["www-authenticate"].startswith("Bearer")
        wrong = initialize(srv, authorization="Bearer not-the-token")
        assert wrong.status_code == 401
        assert 'error="invalid_token"' in wrong.headers["www-authenticate"]
        assert initialize(srv, authorization=f"Basic {TOKEN}").status_code == 401
        good = initialize(srv, authorization=f"Bearer {TOKEN}")
        assert good.status_code == 200
        session = good.headers["mcp-session-id"]
        # a session id is not a credential: without the token the session is refused
        headers = {"content-type": "application/json", "accept": BOTH, "mcp-session-id": session}
        assert httpx.post(srv.url, json=rpc("ping"), headers=headers).status_code == 401
        authorized = httpx.post(srv.url, json=rpc("ping"), headers={**headers, "authorization": f"Bearer {TOKEN}"})
        assert authorized.json()["result"] == {}
        assert httpx.get(srv.url).status_code == 401
        assert httpx.delete(srv.url, headers={"mcp-session-id": session}).status_code == 401
        assert httpx.get(f"{srv.base}/healthz").status_code == 200  # load balancers carry no token


def test_bearer_token_from_the_environment(cache_dir):
    with HttpServer("--programs", str(PROGRAMS), env={"COBOL_MCP_AUTH_TOKEN": TOKEN, "VISIBLE_TO_COBOL": "yes"}) as srv:
        assert initialize(srv).status_code == 401
        assert initialize(srv, authorization=f"bearer {TOKEN}").status_code == 200
        c = McpHttp(srv, session=False)
        c.http.headers["authorization"] = f"Bearer {TOKEN}"
        c.session_id = c.post(rpc("initialize", INIT)).headers["mcp-session-id"]

        def seen_by_cobol(name: str) -> str:
            reply = c.post(rpc("tools/call", {"name": "read_env", "arguments": {"variable_name": name}}))
            return reply.json()["result"]["structuredContent"]["variable_value"]

        assert seen_by_cobol("VISIBLE_TO_COBOL") == "yes"
        assert seen_by_cobol("COBOL_MCP_AUTH_TOKEN") == ""  # COBOL programs never see the token
        c.close()


def test_binding_beyond_loopback_warns_without_a_token(cache_dir):
    with HttpServer("--host", "0.0.0.0") as srv:
        c = McpHttp(srv)
        assert c.request("ping")["result"] == {}
        c.close()
        text = srv.stderr()
    assert "no authentication" in text and "--auth-token" in text
    with HttpServer("--host", "0.0.0.0", "--auth-token", TOKEN) as quiet:
        text = quiet.stderr()
    assert "no authentication" not in text


@pytest.mark.parametrize(
    "host, loopback",
    [
        ("127.0.0.1", True),
        ("localhost", True),
        ("::1", True),
        ("[::1]", True),
        ("127.0.0.2", True),
        ("0.0.0.0", False),
        ("::", False),
        ("192.168.1.5", False),
        ("example.com", False),
    ],
)
def test_is_loopback(host, loopback):
    assert is_loopback(host) is loopback


def test_header_parsing():
    assert host_name("LocalHost:8000") == "localhost"
    assert host_name("[::1]:8000") == "[::1]"
    assert host_name("example.com") == "example.com"
    assert origin_parts("https://Agent.Example.com") == ("https", "agent.example.com", "443")
    assert origin_parts("http://[::1]:6274/") == ("http", "[::1]", "6274")
    assert origin_parts("null") is None
    assert origin_parts("http://a.example/path") is None


def test_guard_decisions():
    local = Guard("127.0.0.1", 8000)
    assert local.check(b"localhost:8000", None, None) is None
    assert local.check(b"evil.example:8000", None, None)[0] == 421
    assert local.check(b"127.0.0.1:8000", b"http://evil.example", None)[0] == 403
    wide = Guard("0.0.0.0", 8000, ["https://app.example"], token="t" * 20)
    assert wide.check(b"mcp.example.com", None, b"Bearer " + b"t" * 20) is None  # any Host off loopback
    assert wide.check(b"mcp.example.com", b"http://localhost:3000", b"Bearer " + b"t" * 20)[0] == 403
    assert wide.check(b"mcp.example.com", b"https://app.example", None)[0] == 401
    assert wide.check(b"mcp.example.com", None, None, token_needed=False) is None
    anyone = Guard("0.0.0.0", 8000, ["*"])
    assert anyone.check(None, b"https://whatever.example", None) is None
