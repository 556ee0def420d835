"""Interoperability: the official MCP Python SDK's Streamable HTTP client against the real server."""

from __future__ import annotations

import asyncio

import pytest

from ..sdk_checks import check_bundled_tools
from .conftest import HttpServer

mcp = pytest.importorskip("mcp")
from mcp import Client  # noqa: E402

ERA = {"legacy": "2025-11-25", "auto": "2026-07-28", "2026-07-28": "2026-07-28"}  # mode -> era it ends up in


async def exercise(url: str, mode: str) -> None:
    async with Client(url, mode=mode) as client:
        assert client.protocol_version == ERA[mode]
        names = await check_bundled_tools(client)
        assert "sleep_for" in names
        slept = await client.call_tool("sleep_for", {"milliseconds": 50})
        assert slept.structured_content == {"slept": 50}
        results = await asyncio.gather(*(client.call_tool("add", {"a": i, "b": 1}) for i in range(5)))
        assert [r.structured_content for r in results] == [{"sum": str(i + 1)} for i in range(5)]


@pytest.mark.parametrize("mode", ["legacy", "auto", "2026-07-28"])  # auto: server/discover succeeds, so modern
def test_sdk_client_over_streamable_http(server, mode):
    asyncio.run(asyncio.wait_for(exercise(server.url, mode), 60))


def test_sdk_client_against_a_stateless_server(cache_dir):
    from .conftest import PROGRAMS

    with HttpServer("--stateless", "--programs", str(PROGRAMS)) as stateless:
        for mode in ERA:
            asyncio.run(asyncio.wait_for(exercise(stateless.url, mode), 60))


async def both_eras_at_once(url: str) -> None:
    async with Client(url, mode="legacy") as legacy, Client(url, mode="2026-07-28") as modern:
        calls = [client.call_tool("add", {"a": i, "b": 1}) for i in range(4) for client in (legacy, modern)]
        results = await asyncio.gather(*calls)
        assert [r.structured_content for r in results] == [{"sum": str(i + 1)} for i in range(4) for _ in "lm"]
        assert legacy.protocol_version == "2025-11-25" and modern.protocol_version == "2026-07-28"


def test_sdk_clients_of_both_eras_share_one_server(server):
    asyncio.run(asyncio.wait_for(both_eras_at_once(server.url), 60))
