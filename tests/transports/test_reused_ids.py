"""A client that reuses the id of a call still in flight (JSON-RPC forbids it; the server never refused
it) gets each call answered exactly once: over stdio every call in flight is one record in the
transport's table, so a drain that kills them answers each, and an answer or a cancel by that id
reaches only the newer one.

Structural, nothing timed: the `waiter` program (run_units/) marks that it runs and returns only once
the test creates the release file; a ping answered after a call was sent proves it was read."""

from __future__ import annotations

import signal

from ..e2e.stdio_client import StdioClient
from .conftest import rpc
from .test_shutdown import HANG_GUARD, SERVE, descendants, markers_inside, wait_until, waiter


def test_a_drain_answers_each_of_two_calls_that_share_an_id(cache_dir, tmp_path):
    with StdioClient(*SERVE, *markers_inside(tmp_path), "--shutdown-grace", "0") as client:
        client.initialize()
        client.send(rpc("tools/call", waiter(tmp_path, "a"), id="same"))
        wait_until((tmp_path / "in-a").exists, "the first call never ran")
        client.send(rpc("tools/call", waiter(tmp_path, "b"), id="same"))
        assert client.request("ping", id="p")["id"] == "p"  # the second call was read before it
        client.proc.send_signal(signal.SIGTERM)
        replies = [client.read(HANG_GUARD), client.read(HANG_GUARD)]
        status = client.proc.wait(HANG_GUARD)
    assert [reply["id"] for reply in replies] == ["same", "same"]
    assert all("stopped by the server's shutdown" in reply["error"]["message"] for reply in replies)
    assert status == 1


def _waiters(server_pid: int) -> list[int]:
    """The `waiter` run units still alive below the server."""
    found = []
    for pid in descendants(server_pid):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if b"waiter" in f.read():
                    found.append(pid)
        except OSError:
            continue
    return found


def test_a_cancel_by_a_reused_id_reaches_the_newer_call_after_the_older_one_ended(cache_dir, tmp_path):
    """The older call's answer must not untrack the newer one (whose cancel would then be lost)."""
    newer = {"name": "waiter", "arguments": {"args": [str(tmp_path / "in-b"), str(tmp_path / "release-b")]}}
    with StdioClient(*SERVE, *markers_inside(tmp_path)) as client:
        client.initialize()
        client.send(rpc("tools/call", waiter(tmp_path, "a"), id="same"))
        wait_until((tmp_path / "in-a").exists, "the first call never ran")
        client.send(rpc("tools/call", newer, id="same"))
        assert client.request("ping", id="p")["id"] == "p"  # the newer call was read
        (tmp_path / "release").touch()
        older = client.read(HANG_GUARD)
        assert older["id"] == "same" and older["result"]["structuredContent"]["stdout"] == "RELEASED\n"
        wait_until((tmp_path / "in-b").exists, "the newer call never ran")
        client.send(rpc("notifications/cancelled", {"requestId": "same"}, id=None))
        assert client.request("ping", id="q")["id"] == "q"  # the cancel was read: no reply came before
        wait_until(lambda: _waiters(client.proc.pid) == [], "the newer call was not cancelled")
        (tmp_path / "release-b").touch()
        assert client.request("ping", id="r")["id"] == "r"  # nothing of the cancelled call came either
