#!/usr/bin/env python3
"""Fuzz the Streamable HTTP transport: the real server, generated and mutated requests, invariants.

Starts ``python -m cobol_mcp --transport http`` on 127.0.0.1 (an ephemeral port; no traffic goes
anywhere else) and sends, from a few keep-alive connections over raw sockets, a seeded mix of:

- valid MCP messages of both eras: handshake-era requests in sessions (``initialize`` first), and
  2026-07-28 requests with the ``_meta`` envelope and the ``Mcp-Method``/``Mcp-Name`` headers;
- mutations of those (fields dropped, retyped, replaced; odd ids; bytes flipped; bodies cut short);
- hostile JSON: deep nesting, huge numbers, long strings, invalid UTF-8, lone surrogates, batches;
- odd headers: wrong or missing Content-Type and Accept, foreign Origin and Host, random
  Mcp-Session-Id and MCP-Protocol-Version, huge headers, bad Content-Length, broken chunking.

Invariants checked: no 5xx (a 503 with Retry-After counts as load shedding, reported apart); every
error body is a JSON-RPC error; every well-formed request gets exactly one reply, with its id;
``/healthz`` answers between batches; the server process stays alive. Reported: requests/s, the
problems found (with samples), statuses, and the server's peak RSS.

    python bench/fuzz_http.py --seed 1 --requests 100000
    python bench/fuzz_http.py --seed 7 --requests 500 --stateless

Importable: :func:`run` returns a :class:`Report` (tests/fuzz runs a short seeded one).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LEGACY_VERSION = "2025-11-25"
MODERN = "2026-07-28"
VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"
ENVELOPE = {
    VERSION_KEY: MODERN,
    CAPABILITIES_KEY: {},
    "io.modelcontextprotocol/clientInfo": {"name": "fuzz", "version": "1"},
}
INIT = {"protocolVersion": LEGACY_VERSION, "capabilities": {}, "clientInfo": {"name": "fuzz", "version": "1"}}
BOTH = b"application/json, text/event-stream"
MAX_BODY = 65536  # the server runs with this --max-message-bytes, so limits are reached cheaply
READ_TIMEOUT = 2.0  # and this --read-timeout, so bodies that never arrive end soon
REPLY_TIMEOUT = 60.0  # a request unanswered this long is a hang
BATCH = 200  # /healthz and the process are checked after every this many requests
TOOLS = ("add", "format_currency", "validate_date")
METHOD_NOT_FOUND = -32601


# ---------------------------------------------------------------------------------------------- the server
class Server:
    """The server under test, on 127.0.0.1 and a free port."""

    def __init__(self, extra: tuple[str, ...] = ()) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.stderr = tempfile.TemporaryFile()  # noqa: SIM115 (closed in stop)
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", "")}
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "cobol_mcp",
                "--transport",
                "http",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--max-message-bytes",
                str(MAX_BODY),
                "--read-timeout",
                str(READ_TIMEOUT),
                "--timeout",
                "5",
                "--log-level",
                "critical",
                *extra,
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=self.stderr,
            env=env,
            start_new_session=True,
        )

    def wait_ready(self, timeout: float = 120.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}: {self.log()}")
            if health(self.port) == "ok":
                return
            time.sleep(0.05)
        raise TimeoutError("the server did not start")

    def peak_rss_kib(self) -> int:
        try:
            for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
        except OSError:
            pass
        return 0

    def log(self) -> str:
        self.stderr.seek(0)
        return self.stderr.read().decode(errors="replace")[-4000:]

    def stop(self) -> int | None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.stderr.close()
        return self.proc.returncode


def health(port: int) -> str | None:
    """'ok' when GET /healthz answers as it should; else what went wrong (None: no connection)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            data = b""
            while chunk := sock.recv(65536):
                data += chunk
    except OSError:
        return None
    head, _, body = data.partition(b"\r\n\r\n")
    return "ok" if head.startswith(b"HTTP/1.1 200") and json.loads(body or b"null") == {"status": "ok"} else repr(data)


# ---------------------------------------------------------------------------------------------- cases
class Case:
    """One request to send, and what is known about it."""

    __slots__ = (
        "kind",
        "method",
        "path",
        "headers",
        "body",
        "length",
        "raw",
        "expect_id",
        "notification",
        "fresh",
        "session_slot",
    )

    def __init__(
        self,
        kind: str,
        body: bytes | None = None,
        headers: list[tuple[bytes, bytes]] | None = None,
        *,
        method: bytes = b"POST",
        path: bytes = b"/mcp",
        length: bytes | None = None,
        raw: bytes | None = None,
        expect_id: Any = None,
        notification: bool = False,
        fresh: bool = False,
        session_slot: bool = False,
    ) -> None:
        self.kind, self.method, self.path = kind, method, path
        self.headers = headers if headers is not None else []
        self.body, self.length, self.raw = body, length, raw
        self.expect_id = expect_id  # set: a well-formed request, which must get exactly one reply with this id
        self.notification = notification  # a well-formed notification: 202
        self.fresh = fresh  # sent on a connection of its own, closed after (framing may be broken)
        self.session_slot = session_slot  # carries the connection's session id

    def encode(self, host: bytes, session: bytes | None) -> bytes:
        if self.raw is not None:
            return self.raw
        lines = [self.method + b" " + self.path + b" HTTP/1.1", b"Host: " + host]
        headers = list(self.headers)
        if self.session_slot and session is not None:
            headers += [(b"Mcp-Session-Id", session), (b"MCP-Protocol-Version", LEGACY_VERSION.encode())]
        lines += [name + b": " + value for name, value in headers]
        body = self.body or b""
        if self.length is not None:
            lines.append(b"Content-Length: " + self.length)
        elif self.body is not None and not any(name.lower() == b"transfer-encoding" for name, _ in headers):
            lines.append(b"Content-Length: " + str(len(body)).encode())
        return b"\r\n".join(lines) + b"\r\n\r\n" + body


def dumps(message: Any) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode()


class Generator:
    """Cases from a seed."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def case(self, index: int) -> Case:
        rng = random.Random(self.seed * 1_000_003 + index)
        roll = rng.random()
        if roll < 0.30:
            return self.legacy(rng)
        if roll < 0.50:
            return self.modern(rng)
        if roll < 0.72:
            return self.mutated(rng)
        if roll < 0.87:
            return self.hostile(rng)
        if roll < 0.97:
            return self.odd_headers(rng)
        return self.framing(rng)

    # ------------------------------------------------------------------------------------------ valid
    def request_id(self, rng: random.Random) -> int | str:
        return rng.choice(
            [
                rng.randrange(1 << 31),
                -rng.randrange(1000),
                f"r-{rng.randrange(1 << 20)}",
                "",
                "\u00e9\u4e2d\U0001f600",
                rng.randrange(1 << 53),
            ]
        )

    def tool_call(self, rng: random.Random) -> dict[str, Any]:
        name = rng.choice(TOOLS)
        if name == "add":
            arguments: dict[str, Any] = {
                "a": rng.choice([rng.randrange(-999, 999), "1.10", 2.5, "x"]),
                "b": rng.randrange(100),
            }
        elif name == "format_currency":
            arguments = {"amount": rng.choice([rng.randrange(10**6), "12.34", -1, None])}
        else:
            arguments = {"date": rng.choice(["2024-02-29", "2023-02-29", "20240101", "", "9999-12-31"])}
        return {"name": name, "arguments": arguments}

    def legacy(self, rng: random.Random) -> Case:
        headers = [
            (b"Content-Type", b"application/json"),
            (b"Accept", rng.choice([BOTH, b"application/json", b"text/event-stream"])),
        ]
        if rng.random() < 0.1:
            rid = self.request_id(rng)
            return Case(
                "legacy",
                dumps({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": rid}}),
                headers,
                notification=True,
                session_slot=True,
            )
        method, params = rng.choice(
            [
                ("ping", None),
                ("tools/list", {}),
                ("tools/call", self.tool_call(rng)),
                ("resources/list", {}),
                ("prompts/list", {}),
                ("tools/call", self.tool_call(rng)),
            ]
        )
        rid = self.request_id(rng)
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            message["params"] = params
        return Case("legacy", dumps(message), headers, expect_id=rid, session_slot=True)

    def modern_message(self, rng: random.Random) -> tuple[dict[str, Any], list[tuple[bytes, bytes]]]:
        method, params = rng.choice(
            [
                ("tools/list", {}),
                ("tools/call", self.tool_call(rng)),
                ("resources/list", {}),
                ("prompts/list", {}),
                ("server/discover", {}),
                ("tools/call", self.tool_call(rng)),
            ]
        )
        params = {**params, "_meta": dict(ENVELOPE)}
        rid = self.request_id(rng)
        headers = [
            (b"Content-Type", b"application/json"),
            (b"Accept", BOTH),
            (b"MCP-Protocol-Version", MODERN.encode()),
            (b"Mcp-Method", method.encode()),
        ]
        if method == "tools/call":
            name = params["name"].encode()
            if rng.random() < 0.2:
                name = b"=?base64?" + base64.b64encode(name) + b"?="
            headers.append((b"Mcp-Name", name))
        return {"jsonrpc": "2.0", "id": rid, "method": method, "params": params}, headers

    def modern(self, rng: random.Random) -> Case:
        message, headers = self.modern_message(rng)
        return Case("modern", dumps(message), headers, expect_id=message["id"])

    # ------------------------------------------------------------------------------------------ mutated
    def odd_value(self, rng: random.Random) -> Any:
        values: list[Any] = [
            None,
            True,
            False,
            0,
            -1,
            1.5,
            10**30,
            "",
            "x" * rng.randrange(1, 300),
            [],
            {},
            [1, [2]],
            {"a": {"b": None}},
            "\u0000",
            "\u202e",
            2**63,
            -(2**63) - 1,
            1e308,
            "1e999",
            "\ud800",
            10**400,
        ]
        return rng.choice(values)

    def mutate(self, rng: random.Random, value: Any, depth: int = 0) -> Any:
        if isinstance(value, dict) and value and depth < 6:
            value = dict(value)
            key = rng.choice(list(value))
            action = rng.random()
            if action < 0.3:
                del value[key]
            elif action < 0.6:
                value[key] = self.odd_value(rng)
            elif action < 0.8:
                value[key] = self.mutate(rng, value[key], depth + 1)
            else:
                value[rng.choice(["extra", "id", "method", "params", "_meta", "jsonrpc", "result", "error"])] = (
                    self.odd_value(rng)
                )
            return value
        if isinstance(value, list) and value and depth < 6:
            value = list(value)
            value[rng.randrange(len(value))] = self.mutate(rng, value[0], depth + 1)
            return value
        return self.odd_value(rng)

    def mutated(self, rng: random.Random) -> Case:
        base = self.legacy(rng) if rng.random() < 0.5 else self.modern(rng)
        assert base.body is not None
        message = json.loads(base.body)
        choice = rng.random()
        if choice < 0.6:
            body = dumps(self.mutate(rng, message))
        elif choice < 0.75:  # bytes flipped
            data = bytearray(base.body)
            for _ in range(rng.randrange(1, 4)):
                data[rng.randrange(len(data))] = rng.randrange(256)
            body = bytes(data)
        elif choice < 0.85:  # cut short
            body = base.body[: rng.randrange(len(base.body))]
        else:  # an odd id on an otherwise valid message
            message["id"] = self.odd_value(rng)
            body = dumps(message)
        headers = list(base.headers)
        if rng.random() < 0.3 and headers:  # a routing header that disagrees
            i = rng.randrange(len(headers))
            headers[i] = (headers[i][0], rng.choice([b"", b"tools/call", b"2024-11-05", b"nope", b" add ", b"\xff"]))
        return Case("mutated", body, headers, session_slot=base.session_slot)

    # ------------------------------------------------------------------------------------------ hostile
    def hostile(self, rng: random.Random) -> Case:
        headers = [(b"Content-Type", b"application/json"), (b"Accept", BOTH)]
        kinds = [
            "deep_array",
            "deep_object",
            "big_number",
            "long_string",
            "invalid_utf8",
            "batch",
            "empty",
            "whitespace",
            "bom",
            "nul",
            "numbers",
            "dup_keys",
            "over_limit",
            "at_limit",
            "surrogate_id",
            "surrogate_raw",
            "huge_exponent_id",
        ]
        kind = rng.choice(kinds)
        depth = rng.choice([100, 1000, 10_000, 30_000])
        if kind == "deep_array":
            body = (
                b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":'
                + b"[" * depth
                + b"]" * depth
                + b',"b":1}}}'
            )
        elif kind == "deep_object":
            body = b'{"jsonrpc":"2.0","id":2,"method":"ping","params":' + b'{"a":' * depth + b"1" + b"}" * depth + b"}"
        elif kind == "big_number":
            digits = rng.choice([20, 400, 5000, 40_000])
            body = (
                b'{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"a":'
                + b"9" * digits
                + b',"b":1.'
                + b"5" * digits
                + b"}}}"
            )
        elif kind == "long_string":
            size = rng.choice([1000, 60_000, MAX_BODY - 100])
            body = dumps(
                {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "x" * size, "arguments": {}}}
            )[:MAX_BODY]
        elif kind == "invalid_utf8":
            body = b'{"jsonrpc":"2.0","id":"\xff\xfe","method":"ping"}'
        elif kind == "batch":
            body = b"[" + b",".join(dumps({"jsonrpc": "2.0", "id": i, "method": "ping"}) for i in range(3)) + b"]"
        elif kind == "empty":
            body = b""
        elif kind == "whitespace":
            body = b" \n\t\r" * 10
        elif kind == "bom":
            body = b"\xef\xbb\xbf" + dumps({"jsonrpc": "2.0", "id": 5, "method": "ping"})
        elif kind == "nul":
            body = b'{"jsonrpc":"2.0","id":6,"method":"ping\x00"}'
        elif kind == "numbers":
            body = rng.choice(
                [
                    b"NaN",
                    b"Infinity",
                    b"-0",
                    b"1e400",
                    b'{"jsonrpc":"2.0","id":1e5,"method":"ping"}',
                    b'{"jsonrpc":"2.0","id":-0.0,"method":"ping"}',
                    b'{"jsonrpc":"2.0","id":NaN}',
                ]
            )
        elif kind == "dup_keys":
            body = b'{"jsonrpc":"2.0","id":7,"id":"x","method":"ping","method":"tools/list"}'
        elif kind == "over_limit":
            body = b'{"jsonrpc":"2.0","id":8,"method":"ping","params":{"p":"' + b"a" * MAX_BODY + b'"}}'
        elif kind == "at_limit":
            message = dumps({"jsonrpc": "2.0", "id": 9, "method": "ping"})
            body = message + b" " * (MAX_BODY - len(message))
        elif kind == "surrogate_id":
            body = b'{"jsonrpc":"2.0","id":"\\ud800","method":"ping"}'
        elif kind == "surrogate_raw":
            body = b'{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"\\udfff\\ud800","arguments":{}}}'
        else:  # huge_exponent_id
            body = b'{"jsonrpc":"2.0","id":1e999999999,"method":"ping"}'
        if rng.random() < 0.5:  # also as a modern request
            headers += [(b"MCP-Protocol-Version", MODERN.encode()), (b"Mcp-Method", b"ping")]
        return Case("hostile:" + kind, body, headers, session_slot=rng.random() < 0.5)

    # ------------------------------------------------------------------------------------------ headers
    def odd_headers(self, rng: random.Random) -> Case:
        base = self.legacy(rng) if rng.random() < 0.5 else self.modern(rng)
        headers = list(base.headers)
        name, value = rng.choice(
            [
                (
                    b"Content-Type",
                    rng.choice(
                        [
                            b"text/plain",
                            b"application/json; charset=latin-1",
                            b"",
                            b"*/*",
                            b"application/jsonx",
                            b"APPLICATION/JSON",
                        ]
                    ),
                ),
                (
                    b"Accept",
                    rng.choice(
                        [
                            b"",
                            b"text/html",
                            b"*/*",
                            b"application/json;q=0",
                            b"text/event-stream;q=0.0",
                            b"application/*",
                            b"\xff\xfe",
                        ]
                    ),
                ),
                (
                    b"Origin",
                    rng.choice(
                        [
                            b"http://evil.example",
                            b"null",
                            b"http://localhost:1",
                            b"file://",
                            b"\x80",
                            b"http://127.0.0.1:" + str(rng.randrange(65536)).encode(),
                        ]
                    ),
                ),
                (b"Mcp-Session-Id", rng.choice([b"", b"nope", b"x" * 2000, b"\xff\xfe\xfd", b" "])),
                (b"MCP-Protocol-Version", rng.choice([b"", b"2099-01-01", b"2024-11-05", MODERN.encode(), b"\x00x"])),
                (b"Mcp-Method", rng.choice([b"", b"tools/call", b"initialize", b"=?base64?!!?="])),
                (b"Mcp-Name", rng.choice([b"=?base64?YWRk?=", b"=?base64?????=", b"add", b""])),
                (b"Authorization", rng.choice([b"Bearer x", b"Basic Zm9vOmJhcg==", b""])),
                (b"X-Big", b"v" * rng.choice([1000, 30_000, 70_000])),
                (b"Expect", b"100-continue"),
                (b"Connection", b"close"),
            ]
        )
        if rng.random() < 0.5:
            headers = [(n, v) for n, v in headers if n.lower() != name.lower()]
        headers.append((name, value))
        if rng.random() < 0.2:  # or one left out
            headers.pop(rng.randrange(len(headers)))
        case = Case("headers:" + name.decode().lower(), base.body, headers, session_slot=base.session_slot)
        if rng.random() < 0.3:
            case.headers.insert(0, (b"Host", rng.choice([b"evil.example", b"", b"[::1]:80", b"localhost:1"])))
            case.kind += "+host"
            case.fresh = True  # the first Host header sent wins; this one replaces the usual
        return case

    # ------------------------------------------------------------------------------------------ framing
    def framing(self, rng: random.Random) -> Case:
        message = dumps({"jsonrpc": "2.0", "id": 11, "method": "ping"})
        headers = [(b"Content-Type", b"application/json"), (b"Accept", BOTH)]
        kind = rng.choice(
            [
                "short_length",
                "long_length",
                "bad_length",
                "negative_length",
                "chunked_bad",
                "chunked_ok",
                "garbage",
                "no_body_post",
                "get",
                "delete",
                "options",
                "put",
                "path",
            ]
        )
        case = Case("framing:" + kind, message, headers, fresh=True, session_slot=True)
        if kind == "short_length":
            case.length = str(len(message) - 5).encode()
        elif kind == "long_length":
            case.length = str(len(message) + 10).encode()  # the rest never comes: 408 after the read timeout
        elif kind == "bad_length":
            case.length = rng.choice([b"abc", b"1e3", b"0x10", b"", b"99999999999999999999999"])
        elif kind == "negative_length":
            case.length = b"-1"
        elif kind == "chunked_bad":
            case.headers.append((b"Transfer-Encoding", b"chunked"))
            case.body = b"zz\r\n" + message + b"\r\n0\r\n\r\n"
        elif kind == "chunked_ok":
            case.headers.append((b"Transfer-Encoding", b"chunked"))
            case.body = b"%x\r\n%s\r\n0\r\n\r\n" % (len(message), message)
        elif kind == "garbage":
            case.raw = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200))) + b"\r\n\r\n"
        elif kind == "no_body_post":
            case.body = None
        else:
            case.method = {"get": b"GET", "delete": b"DELETE", "options": b"OPTIONS", "put": b"PUT", "path": b"POST"}[
                kind
            ]
            if kind == "path":
                case.path = rng.choice([b"/mcp/../x", b"/%00", b"/mcp?x=" + b"y" * 1000, b"*", b"/healthz/x"])
            if kind != "path" and kind != "put":
                case.body = None
        return case


# ---------------------------------------------------------------------------------------------- HTTP
class Response:
    __slots__ = ("status", "headers", "body")

    def __init__(self, status: int, headers: dict[str, str], body: bytes) -> None:
        self.status, self.headers, self.body = status, headers, body


async def read_response(reader: asyncio.StreamReader) -> Response | None:
    """One final response (interim 1xx ones skipped); None when the connection closed before one began."""
    while True:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except asyncio.IncompleteReadError as exc:
            if exc.partial:
                raise  # closed in the middle of a response's head
            return None
        lines = head[:-4].decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        if status >= 200:
            break
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    if status in (204, 304):
        return Response(status, headers, b"")
    if "content-length" in headers:
        body = await reader.readexactly(int(headers["content-length"]))
    elif "chunked" in headers.get("transfer-encoding", "").lower():
        parts = []
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0].strip(), 16)
            if size == 0:
                await reader.readuntil(b"\r\n")
                break
            parts.append(await reader.readexactly(size))
            await reader.readexactly(2)
        body = b"".join(parts)
    else:
        body = await reader.read()
    return Response(status, headers, body)


def sse_messages(text: str) -> list[Any]:
    messages, data = [], []
    for line in [*text.splitlines(), ""]:
        if not line:
            if data:
                messages.append(json.loads("\n".join(data)))
            data = []
        elif line.startswith("data:"):
            data.append(line[5:].lstrip(" "))
    return messages


# ---------------------------------------------------------------------------------------------- checks
class Report:
    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.requests = 0
        self.seconds = 0.0
        self.statuses: Counter[int] = Counter()
        self.kinds: Counter[str] = Counter()
        self.problems: Counter[str] = Counter()
        self.samples: dict[str, str] = {}
        self.shed = 0  # 503 with Retry-After: load shedding, not a fault
        self.peak_rss_kib = 0
        self.alive = True

    def problem(self, what: str, case: Case | None, detail: str) -> None:
        self.problems[what] += 1
        if what not in self.samples:
            sent = (case.raw or case.body or b"")[:300] if case is not None else b""
            self.samples[what] = f"{case.kind if case else '-'}: {detail[:300]} (sent {sent!r})"

    @property
    def rate(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0

    def summary(self) -> str:
        lines = [
            f"seed {self.seed}: {self.requests} requests in {self.seconds:.1f} s ({self.rate:,.0f}/s), "
            f"server peak RSS {self.peak_rss_kib / 1024:.1f} MiB, alive: {self.alive}",
            "statuses: " + ", ".join(f"{s}: {n}" for s, n in sorted(self.statuses.items())),
            f"problems: {sum(self.problems.values())}" + (f" (503 with Retry-After: {self.shed})" if self.shed else ""),
        ]
        lines += [f"  {what} x{n}: {self.samples[what]}" for what, n in self.problems.most_common()]
        return "\n".join(lines)


def _error_code(body: bytes) -> object:
    try:
        return json.loads(body)["error"]["code"]
    except (ValueError, KeyError, TypeError):
        return None


def check(report: Report, case: Case, response: Response | None) -> None:
    if response is None:
        if case.kind != "framing:garbage":
            report.problem("closed without an answer", case, "")
        return
    status = response.status
    report.statuses[status] += 1
    if status >= 500:
        if status == 503 and response.headers.get("retry-after"):
            report.shed += 1
        else:
            report.problem(f"status {status}", case, response.body[:300].decode(errors="replace"))
    if status >= 400 and response.body:
        try:
            message = json.loads(response.body)
            error = message.get("error")
            ok = (
                message.get("jsonrpc") == "2.0"
                and isinstance(error, dict)
                and isinstance(error.get("code"), int)
                and isinstance(error.get("message"), str)
            )
        except (ValueError, AttributeError):
            ok = False
        if not ok:
            report.problem("error body not JSON-RPC", case, f"{status} {response.body[:200]!r}")
    if case.notification and status != 202:
        report.problem("notification not 202", case, f"{status} {response.body[:200]!r}")
    if case.expect_id is not None:
        if status == 404 and case.kind.startswith("modern") and _error_code(response.body) == METHOD_NOT_FOUND:
            return  # 2026-07-28: a method the server does not offer is answered 404 with -32601
        if status != 200:
            report.problem("well-formed request not answered 200", case, f"{status} {response.body[:300]!r}")
            return
        try:
            if response.headers.get("content-type", "").startswith("text/event-stream"):
                replies = [m for m in sse_messages(response.body.decode()) if "method" not in m]
            else:
                replies = [json.loads(response.body)]
        except ValueError as exc:
            report.problem("reply not JSON", case, f"{exc}: {response.body[:200]!r}")
            return
        if len(replies) != 1 or replies[0].get("id") != case.expect_id:
            report.problem("not exactly one reply with the request's id", case, repr(replies)[:300])


# ---------------------------------------------------------------------------------------------- driving
class Connection:
    """A keep-alive connection with its own handshake-era session."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.host = f"127.0.0.1:{port}".encode()
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.session: bytes | None = None

    async def open(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        if self.reader is None or self.writer is None or self.writer.is_closing():
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port, limit=1 << 24)
        return self.reader, self.writer

    def drop(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def exchange(self, data: bytes, fresh: bool) -> Response | None:
        if fresh:
            reader, writer = await asyncio.open_connection("127.0.0.1", self.port, limit=1 << 24)
            try:
                writer.write(data)
                return await asyncio.wait_for(read_response(reader), REPLY_TIMEOUT)
            finally:
                writer.close()
        for attempt in (1, 2):
            reused = self.writer is not None and not self.writer.is_closing()
            reader, writer = await self.open()
            writer.write(data)
            try:
                response = await asyncio.wait_for(read_response(reader), REPLY_TIMEOUT)
            except ConnectionError:  # reset: the server had closed it before this arrived, or mid-response
                self.drop()
                if reused and attempt == 1:
                    continue
                return None
            except asyncio.IncompleteReadError:
                self.drop()
                return None  # cut in the middle of a response
            if response is None:
                self.drop()
                if reused and attempt == 1:
                    continue  # the server closed the idle keep-alive connection as this was sent: as HTTP
                return None  # clients do, send it again on a new one
            if response.headers.get("connection", "").lower() == "close":
                self.drop()
            return response
        return None

    async def ensure_session(self) -> None:
        if self.session is not None:
            return
        case = Case(
            "setup",
            dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": INIT}),
            [(b"Content-Type", b"application/json"), (b"Accept", BOTH)],
        )
        response = await self.exchange(case.encode(self.host, None), False)
        if response is not None and response.status == 200 and "mcp-session-id" in response.headers:
            self.session = response.headers["mcp-session-id"].encode()
            done = Case(
                "setup",
                dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
                [
                    (b"Content-Type", b"application/json"),
                    (b"Accept", BOTH),
                    (b"Mcp-Session-Id", self.session),
                    (b"MCP-Protocol-Version", LEGACY_VERSION.encode()),
                ],
            )
            await self.exchange(done.encode(self.host, None), False)


async def drive(
    report: Report,
    port: int,
    generator: Generator,
    requests: int,
    concurrency: int,
    deadline: float,
    between_batches: Callable[[], bool],
) -> None:
    counter = iter(range(requests))
    stop = False

    async def worker() -> None:
        nonlocal stop
        connection = Connection(port)
        while not stop and time.monotonic() < deadline:
            index = next(counter, None)
            if index is None:
                return
            case = generator.case(index)
            report.kinds[case.kind.split(":")[0]] += 1
            try:
                if case.session_slot:
                    await connection.ensure_session()
                response = await connection.exchange(case.encode(connection.host, connection.session), case.fresh)
            except TimeoutError:
                report.problem("no answer in time", case, f"{REPLY_TIMEOUT:g} s")
                connection.drop()
                response = None
            except (ConnectionError, asyncio.IncompleteReadError, OSError) as exc:
                report.problem("connection error", case, repr(exc))
                connection.drop()
                continue
            if response is not None and response.status == 404 and case.session_slot:
                connection.session = None  # the session ended (a mutation may have sent DELETE): a new one next
            if case.method == b"DELETE" and response is not None and response.status == 204:
                connection.session = None
            check(report, case, response)
            report.requests += 1
            if report.requests % BATCH == 0 and not between_batches():
                stop = True
        connection.drop()

    await asyncio.gather(*(worker() for _ in range(concurrency)))


def run(
    seed: int = 1,
    requests: int = 1000,
    concurrency: int = 8,
    time_limit: float = 600.0,
    server_args: tuple[str, ...] = (),
) -> Report:
    """Fuzz a fresh server with `requests` seeded requests (at most `time_limit` seconds); a Report."""
    report = Report(seed)
    server = Server(server_args)
    try:
        server.wait_ready()

        def between_batches() -> bool:
            if server.proc.poll() is not None:
                report.alive = False
                report.problem("server exited", None, f"code {server.proc.returncode}: {server.log()}")
                return False
            answer = health(server.port)
            if answer != "ok":
                report.problem("/healthz did not answer ok", None, repr(answer))
            report.peak_rss_kib = max(report.peak_rss_kib, server.peak_rss_kib())
            return True

        started = time.monotonic()
        asyncio.run(
            drive(report, server.port, Generator(seed), requests, concurrency, started + time_limit, between_batches)
        )
        report.seconds = time.monotonic() - started
        between_batches()
        report.alive = server.proc.poll() is None
    finally:
        server.stop()
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--requests", type=int, default=10_000)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--time-limit", type=float, default=3600.0, metavar="SECONDS")
    parser.add_argument("--stateless", action="store_true", help="run the server with --stateless")
    args = parser.parse_args(argv)
    report = run(
        args.seed, args.requests, args.concurrency, args.time_limit, ("--stateless",) if args.stateless else ()
    )
    print(report.summary())
    return 1 if report.problems or not report.alive else 0


if __name__ == "__main__":
    sys.exit(main())
