"""Requests run in parallel through the COBOL worker pool; a hung tool blocks nothing else.

No test here measures time: rendezvous through marker files (the `hold` program) show what ran at once."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest

from .conftest import PROGRAMS, HttpServer, McpHttp, entered, hold, rpc, sse_messages

HANG_GUARD = 60.0  # seconds; only a server that never answers reaches it


async def post(http: httpx.AsyncClient, client, message: dict) -> httpx.Response:
    return await http.post(client.server.url, content=json.dumps(message), headers=client.headers())


@pytest.fixture(scope="module")
def patient(cache_dir):
    """A server whose tool timeout never ends a `hold` call during a test."""
    with HttpServer("--programs", str(PROGRAMS), "--timeout", "600", "--cobol-workers", "4") as running:
        yield running


def test_concurrent_posts_run_in_parallel(patient, tmp_path):
    """Three calls are inside COBOL at once (each has created its marker before any may return), and
    quick calls and pings are answered while all three are still held."""
    client = McpHttp(patient)

    async def go():
        async with httpx.AsyncClient(timeout=HANG_GUARD) as http:
            held = []
            for i in range(3):
                held.append(
                    asyncio.ensure_future(
                        post(
                            http,
                            client,
                            rpc("tools/call", {"name": "hold", "arguments": hold(tmp_path, str(i))}, id=100 + i),
                        )
                    )
                )
                await entered(tmp_path, str(i))
            quick = await asyncio.gather(
                *(
                    post(http, client, rpc("tools/call", {"name": "add", "arguments": {"a": i, "b": 1}}, id=200 + i))
                    for i in range(8)
                )
            )
            ping = await post(http, client, rpc("ping", id="p"))
            still_held = not any(task.done() for task in held)
            (tmp_path / "release").touch()
            return still_held, [*await asyncio.gather(*held), *quick, ping]

    still_held, results = asyncio.run(go())
    client.close()
    assert still_held  # nothing above waited for the held calls: they could not have ended yet
    assert all(reply.status_code == 200 for reply in results)
    bodies = [reply.json() for reply in results]
    assert [b["id"] for b in bodies] == [100, 101, 102, *range(200, 208), "p"]
    assert [b["result"]["structuredContent"] for b in bodies[:3]] == [{"released": 1}] * 3
    assert [b["result"]["structuredContent"] for b in bodies[3:11]] == [{"sum": str(i + 1)} for i in range(8)]


def test_a_held_tool_blocks_neither_ping_nor_other_calls(patient, tmp_path):
    client = McpHttp(patient)

    async def go():
        async with httpx.AsyncClient(timeout=HANG_GUARD) as http:
            held = asyncio.ensure_future(
                post(http, client, rpc("tools/call", {"name": "hold", "arguments": hold(tmp_path, "h")}, id="held"))
            )
            await entered(tmp_path, "h")
            quick = []
            for i in range(5):
                quick.append(await post(http, client, rpc("ping", id=f"ping-{i}")))
                quick.append(
                    await post(
                        http,
                        client,
                        rpc("tools/call", {"name": "format_currency", "arguments": {"amount": i}}, id=f"fc-{i}"),
                    )
                )
            still_held = not held.done()
            (tmp_path / "release").touch()
            return still_held, quick, await held

    still_held, quick, held = asyncio.run(go())
    client.close()
    assert still_held
    for reply in quick:
        assert reply.status_code == 200 and "result" in reply.json()
    assert held.json()["result"]["structuredContent"] == {"released": 1}


def test_a_hung_tool_times_out_and_its_worker_is_replaced(client):
    async def go():
        async with httpx.AsyncClient(timeout=HANG_GUARD) as http:
            return await post(
                http, client, rpc("tools/call", {"name": "sleep_for", "arguments": {"milliseconds": 600000}}, id="hung")
            )

    result = asyncio.run(go()).json()["result"]
    assert result["isError"] is True
    assert "timed out after 3 s" in result["content"][0]["text"]
    assert client.call("add", a=1, b=1)["structuredContent"] == {"sum": "2"}  # its worker was replaced


def test_cancelled_calls_end_without_a_reply(patient, tmp_path):
    client = McpHttp(patient)

    async def go():
        async with httpx.AsyncClient(timeout=HANG_GUARD) as http:
            slow = asyncio.ensure_future(
                post(http, client, rpc("tools/call", {"name": "hold", "arguments": hold(tmp_path, "c")}, id="slow"))
            )
            await entered(tmp_path, "c")
            cancel = await post(
                http,
                client,
                rpc("notifications/cancelled", {"requestId": "slow", "reason": "changed my mind"}, id=None),
            )
            return cancel, await slow  # never released: only the cancellation can end it

    cancel, slow = asyncio.run(go())
    assert (cancel.status_code, cancel.content) == (202, b"")
    assert slow.status_code == 200
    assert slow.headers["content-type"].startswith("text/event-stream")
    assert sse_messages(slow.text) == []  # no response for a cancelled request
    assert client.call("add", a=2, b=3)["structuredContent"] == {"sum": "5"}
    client.close()


def test_deleting_a_session_ends_its_running_calls(patient, tmp_path):
    c = McpHttp(patient)

    async def go():
        async with httpx.AsyncClient(timeout=HANG_GUARD) as http:
            slow = asyncio.ensure_future(
                post(http, c, rpc("tools/call", {"name": "hold", "arguments": hold(tmp_path, "d")}, id=1))
            )
            await entered(tmp_path, "d")
            deleted = await http.delete(patient.url, headers=c.headers())
            return deleted, await slow  # never released: only the session's end can end it

    deleted, slow = asyncio.run(go())
    assert deleted.status_code == 204
    assert sse_messages(slow.text) == []  # ended without a reply
    c.close()
