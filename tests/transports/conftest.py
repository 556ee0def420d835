"""Real HTTP servers on loopback ports, started as subprocesses the way users start them."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("uvicorn")

PROGRAMS = Path(__file__).parent / "programs"
CONFORMANCE_PROGRAMS = Path(__file__).parent.parent / "conformance" / "programs"
INIT = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "tests", "version": "1"}}
BOTH = "application/json, text/event-stream"
MODERN = "2026-07-28"
VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"
SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo"
CLIENT_INFO = {"io.modelcontextprotocol/clientInfo": {"name": "tests", "version": "1"}}
ENVELOPE = {VERSION_KEY: MODERN, CAPABILITIES_KEY: {}, **CLIENT_INFO}
NAMED_BY = {"tools/call": "name", "resources/read": "uri"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class HttpServer:
    """`python -m cobol_mcp --transport http --port N ...`, ready once /healthz answers."""

    def __init__(
        self, *args: str, env: dict[str, str] | None = None, wait: bool = True, prefix: tuple[str, ...] = ()
    ) -> None:
        """`prefix`: the command the server runs under (e.g. ``unshare --pid --fork``)."""
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.url = f"{self.base}/mcp"
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 (closed in __exit__)
        self.proc = subprocess.Popen(
            [*prefix, sys.executable, "-m", "cobol_mcp", "--transport", "http", "--port", str(self.port), *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=self._stderr,
            env={**os.environ, **(env or {})},
            start_new_session=True,
        )
        if wait:
            self.wait_ready()

    def wait_ready(self, timeout: float = 600.0) -> None:  # (a hang guard: a busy machine's cold build fits)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}:\n{self.stderr()}")
            try:
                if httpx.get(f"{self.base}/healthz", timeout=1).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.05)
        raise TimeoutError(f"the server did not answer /healthz within {timeout} s:\n{self.stderr()}")

    def stderr(self) -> str:
        self._stderr.seek(0)
        return self._stderr.read().decode(errors="replace")

    def stop(self) -> int:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        return self.proc.returncode

    def __enter__(self) -> HttpServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
        self._stderr.close()


def hold(markers: Path, ticket: str, wait_seconds: int = 600) -> dict:
    """Arguments of the `hold` test program: it creates `markers/in-<ticket>` once running, and returns
    only when `markers/release` exists (or after `wait_seconds`)."""
    return {
        "entered_marker": str(markers / f"in-{ticket}"),
        "release_marker": str(markers / "release"),
        "wait_seconds": wait_seconds,
    }


async def entered(markers: Path, ticket: str) -> None:
    """Wait until the `hold` call of `ticket` runs in a COBOL worker, and has run long enough (past the
    runtime's 50 ms stall mark) that the next call goes to another worker instead of queueing behind it."""
    while not (markers / f"in-{ticket}").exists():
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.08)


def released_after_progress(lines: Iterable[str], markers: Path) -> str:
    """The SSE text of a `hold` call's stream, the call released once its first progress notification came
    (so that notification structurally came first)."""
    seen = []
    for line in lines:
        seen.append(line)
        if "notifications/progress" in line:
            (markers / "release").touch()
    return "\n".join(seen)


def rpc(method: str, params: dict | None = None, id: int | str | None = 1) -> dict:
    message: dict = {"jsonrpc": "2.0", "method": method}
    if id is not None:
        message["id"] = id
    if params is not None:
        message["params"] = params
    return message


class McpHttp:
    """A raw HTTP client for one session: every header and status visible to the test."""

    def __init__(self, server: HttpServer, session: bool = True) -> None:
        self.server = server
        self.http = httpx.Client(timeout=30)
        self.session_id: str | None = None
        self.next_id = 0
        if session:
            reply = self.post(rpc("initialize", INIT, id=0))
            assert reply.status_code == 200, reply.text
            self.session_id = reply.headers.get("mcp-session-id")
            assert self.post(rpc("notifications/initialized", id=None)).status_code == 202

    def headers(self, accept: str = BOTH, **extra: str) -> dict[str, str]:
        headers = {"content-type": "application/json", "accept": accept}
        if self.session_id:
            headers["mcp-session-id"] = self.session_id
            headers["mcp-protocol-version"] = "2025-11-25"
        headers.update({k.replace("_", "-"): v for k, v in extra.items()})
        return headers

    def post(self, message: object, accept: str = BOTH, **extra: str) -> httpx.Response:
        return self.http.post(self.server.url, content=json.dumps(message), headers=self.headers(accept, **extra))

    def request(self, method: str, params: dict | None = None, **extra: str) -> dict:
        self.next_id += 1
        reply = self.post(rpc(method, params, id=self.next_id), **extra)
        assert reply.status_code == 200, (reply.status_code, reply.text)
        assert reply.headers["content-type"].startswith("application/json")
        body = reply.json()
        assert body["id"] == self.next_id
        return body

    def call(self, name: str, **arguments: object) -> dict:
        body = self.request("tools/call", {"name": name, "arguments": arguments})
        assert "result" in body, body
        return body["result"]

    def close(self) -> None:
        self.http.close()


def modern_post(
    server: HttpServer,
    method: str,
    params: dict | None = None,
    id: int | str | None = 1,
    meta: dict | None = ENVELOPE,
    accept: str = BOTH,
    headers: dict[str, str] | None = None,
    **extra: str,
) -> httpx.Response:
    """A 2026-07-28 POST: the `_meta` envelope and the routing headers that repeat it, as a client sends
    them unless `headers` replaces some (a value of None leaves that header out)."""
    params = dict(params or {})
    if meta is not None:
        params["_meta"] = meta
    message = rpc(method, params, id=id)
    sent = {"content-type": "application/json", "accept": accept, "mcp-protocol-version": MODERN, "mcp-method": method}
    if method in NAMED_BY and isinstance(params.get(NAMED_BY[method]), str):
        sent["mcp-name"] = params[NAMED_BY[method]]
    sent.update({k.replace("_", "-"): v for k, v in extra.items()})
    for name, value in (headers or {}).items():
        sent.pop(name.lower(), None)
        if value is not None:
            sent[name] = value
    return httpx.post(server.url, content=json.dumps(message), headers=sent, timeout=30)


def raw_post(server: HttpServer, body: bytes, headers: list[tuple[str, str]]) -> tuple[int, dict]:
    """A POST written byte by byte (HTTP client libraries refuse header values with surrounding spaces)."""
    lines = [
        "POST /mcp HTTP/1.1",
        f"Host: 127.0.0.1:{server.port}",
        "Connection: close",
        f"Content-Length: {len(body)}",
        *(f"{name}:{value}" for name, value in headers),
    ]
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
        sock.sendall("\r\n".join(lines).encode() + b"\r\n\r\n" + body)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, payload = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(payload) if payload else {}


def sse_messages(text: str) -> list[dict]:
    """The JSON-RPC messages of an SSE body (events of type `message`)."""
    messages, data, event = [], [], "message"
    for line in [*text.splitlines(), ""]:
        if not line:
            if data and event == "message":
                messages.append(json.loads("\n".join(data)))
            data, event = [], "message"
        elif line.startswith("data:"):
            data.append(line[5:].lstrip(" "))
        elif line.startswith("event:"):
            event = line[6:].strip()
    return messages


@pytest.fixture(scope="module")
def server(cache_dir):
    """A stateful server with the bundled tools and the test programs, a short tool timeout."""
    with HttpServer("--programs", str(PROGRAMS), "--timeout", "3", "--cobol-workers", "4") as running:
        yield running


@pytest.fixture
def client(server):
    c = McpHttp(server)
    yield c
    c.close()
