"""Requests run in parallel through the COBOL worker pool; a hung tool blocks nothing else."""

from __future__ import annotations

import asyncio
import json
import time

import httpx

from .conftest import rpc, sse_messages


async def post(http: httpx.AsyncClient, client, message: dict) -> tuple[float, httpx.Response]:
    start = time.monotonic()
    reply = await http.post(client.server.url, content=json.dumps(message), headers=client.headers())
    return time.monotonic() - start, reply


def test_concurrent_posts_run_in_parallel(client):
    async def go():
        async with httpx.AsyncClient(timeout=30) as http:
            start = time.monotonic()
            slow = []
            for i in range(3):
                slow.append(asyncio.ensure_future(post(http, client, rpc(
                    "tools/call", {"name": "sleep_for", "arguments": {"milliseconds": 1500}}, id=100 + i))))
                await asyncio.sleep(0.08)  # each finds the workers before it busy, and gets its own
            quick = await asyncio.gather(*(post(http, client, rpc(
                "tools/call", {"name": "add", "arguments": {"a": i, "b": 1}}, id=200 + i)) for i in range(8)))
            results = [*await asyncio.gather(*slow), *quick]
            return time.monotonic() - start, results

    elapsed, results = asyncio.run(go())
    assert all(reply.status_code == 200 for _, reply in results)
    bodies = [reply.json() for _, reply in results]
    assert [b["id"] for b in bodies] == [100, 101, 102, *range(200, 208)]
    assert [b["result"]["structuredContent"] for b in bodies[:3]] == [{"slept": 1500}] * 3
    assert [b["result"]["structuredContent"] for b in bodies[3:]] == [{"sum": str(i + 1)} for i in range(8)]
    assert elapsed < 2 * 1.5  # the three 1.5 s calls overlapped (four COBOL workers)
    assert max(t for t, _ in results[3:]) < 0.8  # quick calls did not queue behind the slow ones


def test_a_hung_tool_blocks_neither_ping_nor_other_calls(client):
    async def go():
        async with httpx.AsyncClient(timeout=30) as http:
            hung = asyncio.ensure_future(post(http, client, rpc(
                "tools/call", {"name": "sleep_for", "arguments": {"milliseconds": 600000}}, id="hung")))
            await asyncio.sleep(0.3)
            quick = []
            for i in range(5):
                quick.append(await post(http, client, rpc("ping", id=f"ping-{i}")))
                quick.append(await post(http, client, rpc(
                    "tools/call", {"name": "format_currency", "arguments": {"amount": i}}, id=f"fc-{i}")))
            assert not hung.done()
            return quick, await hung

    quick, (hung_time, hung_reply) = asyncio.run(go())
    for elapsed, reply in quick:
        assert reply.status_code == 200 and "result" in reply.json()
        assert elapsed < 1.0, (elapsed, reply.json())
    result = hung_reply.json()["result"]
    assert result["isError"] is True
    assert "timed out after 3 s" in result["content"][0]["text"]
    assert 2.5 < hung_time < 8
    assert client.call("add", a=1, b=1)["structuredContent"] == {"sum": "2"}  # its worker was replaced


def test_cancelled_calls_end_without_a_reply(client):
    async def go():
        async with httpx.AsyncClient(timeout=30) as http:
            slow = asyncio.ensure_future(post(http, client, rpc(
                "tools/call", {"name": "sleep_for", "arguments": {"milliseconds": 20000}}, id="slow")))
            await asyncio.sleep(0.3)
            _, cancel = await post(http, client, rpc(
                "notifications/cancelled", {"requestId": "slow", "reason": "changed my mind"}, id=None))
            return cancel, await slow

    cancel, (elapsed, slow) = asyncio.run(go())
    assert (cancel.status_code, cancel.content) == (202, b"")
    assert slow.status_code == 200
    assert slow.headers["content-type"].startswith("text/event-stream")
    assert sse_messages(slow.text) == []  # no response for a cancelled request
    assert elapsed < 3
    assert client.call("add", a=2, b=3)["structuredContent"] == {"sum": "5"}


def test_deleting_a_session_ends_its_running_calls(server):
    from .conftest import McpHttp

    c = McpHttp(server)

    async def go():
        async with httpx.AsyncClient(timeout=30) as http:
            slow = asyncio.ensure_future(post(http, c, rpc(
                "tools/call", {"name": "sleep_for", "arguments": {"milliseconds": 20000}}, id=1)))
            await asyncio.sleep(0.3)
            deleted = await http.delete(server.url, headers=c.headers())
            return deleted, await slow

    deleted, (elapsed, slow) = asyncio.run(go())
    assert deleted.status_code == 204
    assert sse_messages(slow.text) == [] and elapsed < 3
    c.close()
