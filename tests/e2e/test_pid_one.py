"""The server as pid 1, as a container's `CMD` runs it: its COBOL workers take it for their living
parent (they are told its pid), not for a server that is gone (a worker whose parent became pid 1 used
to end at once, so every call failed). Shown in a PID namespace of its own, where `unshare` can make
one; skipped, with the reason, where this machine allows none."""

from __future__ import annotations

import subprocess
import sys

import pytest

from .stdio_client import StdioClient

PREFIXES = (
    ("unshare", "--pid", "--fork", "--kill-child"),
    ("unshare", "--user", "--map-root-user", "--pid", "--fork", "--kill-child"),
)


def _as_pid_one() -> tuple[str, ...]:
    for prefix in PREFIXES:
        try:
            done = subprocess.run(
                [*prefix, sys.executable, "-c", "import os; print(os.getpid())"],
                capture_output=True, text=True, timeout=30, check=False,
            )  # fmt: skip
        except (OSError, subprocess.TimeoutExpired):
            continue
        if done.returncode == 0 and done.stdout.strip() == "1":
            return prefix
    return ()


def test_a_server_that_is_pid_1_serves_calls_with_its_workers(cache_dir) -> None:
    prefix = _as_pid_one()
    if not prefix:
        pytest.skip("this machine allows no PID namespace (unshare --pid), so the server cannot be made pid 1")
    client = StdioClient("--cobol-workers", "1", prefix=prefix)
    try:
        client.initialize()
        result = client.call("add", a="1.25", b="2.50")
        assert result.get("isError") is not True, result
        assert result["structuredContent"]["sum"] == "3.75"
    finally:
        client.proc.stdin.close()
        client.proc.wait(60)
