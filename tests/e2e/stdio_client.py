"""Drive the real server over real pipes, one JSON line at a time."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from decimal import Decimal
from pathlib import Path
from typing import Any

SERVER = [sys.executable, "-m", "cobol_mcp"]
# How long a read waits before the test gives up: a guard against a server that never answers, not a
# measure of anything (a busy machine's cold build of a folder, or a slow call, still answers within it).
GUARD = 600.0


class StdioClient:
    def __init__(self, *args: str, env: dict[str, str] | None = None, prefix: tuple[str, ...] = ()) -> None:
        self.proc = subprocess.Popen(
            [*prefix, *SERVER, *args],  # prefix: a command the server runs under (unshare ...)
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, **(env or {})},
        )
        self._buffer = b""
        self._next_id = 0

    def send_raw(self, data: bytes) -> None:
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, message: dict) -> None:
        self.send_raw(json.dumps(message).encode() + b"\n")

    def request(self, method: str, params: dict | None = None, id=None, timeout: float = 15.0) -> dict:
        if id is None:
            self._next_id += 1
            id = self._next_id
        message = {"jsonrpc": "2.0", "id": id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return self.read(timeout)

    def call(self, name: str, **arguments) -> dict:
        reply = self.request("tools/call", {"name": name, "arguments": arguments})
        assert "result" in reply, reply
        return reply["result"]

    def initialize(self, version: str = "2025-11-25", timeout: float = 15.0) -> dict:
        """``timeout``: longer for a cold start, which compiles before it answers."""
        reply = self.request(
            "initialize",
            {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "tests", "version": "1"}},
            timeout=timeout,
        )
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return reply

    def read_line(self, timeout: float = GUARD) -> bytes:
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no reply within {timeout} s")
            ready, _, _ = select.select([self.proc.stdout], [], [], left)
            if ready:
                chunk = os.read(self.proc.stdout.fileno(), 1 << 16)
                if not chunk:
                    raise EOFError("the server closed stdout")
                self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def read(self, timeout: float = GUARD) -> dict:
        return json.loads(self.read_line(timeout), parse_float=Decimal)

    def silent_for(self, seconds: float) -> bool:
        """True if nothing arrives on stdout for this long."""
        if self._buffer:
            return False
        ready, _, _ = select.select([self.proc.stdout], [], [], seconds)
        return not ready

    def close(self, timeout: float = 20.0) -> tuple[int, bytes, bytes]:
        """Close stdin; return (exit status, the rest of stdout, stderr)."""
        self.proc.stdin.close()
        out = self._buffer + self.proc.stdout.read()
        err = self.proc.stderr.read()
        return self.proc.wait(timeout), out, err

    def __enter__(self) -> StdioClient:
        return self

    def __exit__(self, *exc) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if not stream.closed:
                stream.close()


@contextmanager
def folder_server(programs: Path, cache: Path, start: str) -> Iterator[tuple[StdioClient, dict[str, Any]]]:
    """The server on one folder of programs alone, with one COBOL worker and a build cache of its own,
    initialized; with its tools by name. `start` is "cold" (the first start makes the manifest) or
    "warm" (a later one reads it), checked before it starts."""
    assert (cache / "manifests").is_dir() is (start == "warm")
    args = ("--no-bundled", "--programs", str(programs), "--cobol-workers", "1")
    with StdioClient(*args, env={"COBOL_MCP_CACHE": str(cache)}) as server:
        server.initialize()
        yield server, {t["name"]: t for t in server.request("tools/list", {})["result"]["tools"]}
