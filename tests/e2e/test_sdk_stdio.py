"""Interoperability: the official MCP Python SDK client talks to the real server over stdio."""

import asyncio
import os
import sys

import pytest

from ..sdk_checks import check_bundled_tools

mcp = pytest.importorskip("mcp")
from mcp import Client, StdioServerParameters  # noqa: E402


def params() -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-m", "cobol_mcp"], env=dict(os.environ))


async def exercise(mode: str) -> None:
    async with Client(params(), mode=mode) as client:
        assert await check_bundled_tools(client) == ["add", "format_currency", "validate_date"]


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_sdk_client_lists_and_calls_the_three_tools(cache_dir, mode):
    asyncio.run(asyncio.wait_for(exercise(mode), 60))


async def exercise_modern() -> None:
    async with Client(params(), mode="2026-07-28") as client:
        assert client.protocol_version == "2026-07-28"
        listed = await client.list_tools()
        assert [tool.name for tool in listed.tools] == ["add", "format_currency", "validate_date"]
        added = await client.call_tool("add", {"a": 0.1, "b": 0.2})
        assert added.structured_content == {"sum": "0.3"}


async def auto_picks_modern() -> str:
    async with Client(params(), mode="auto") as client:
        await client.call_tool("add", {"a": 1, "b": 2})
        return client.protocol_version


def test_sdk_client_in_modern_mode(cache_dir):
    asyncio.run(asyncio.wait_for(exercise_modern(), 60))


def test_sdk_auto_mode_negotiates_the_modern_era(cache_dir):
    assert asyncio.run(asyncio.wait_for(auto_picks_modern(), 60)) == "2026-07-28"
