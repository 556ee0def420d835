"""Console and batch programs over Streamable HTTP with the official SDK client: eight clients
post deposits into one indexed file at once, and every deposit is there afterwards."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from .conftest import HttpServer

mcp = pytest.importorskip("mcp")
from mcp import Client  # noqa: E402

TESTS = Path(__file__).resolve().parent.parent
FILE_PROGRAMS = TESTS / "file_programs"
CONSOLE_PROGRAMS = TESTS / "console_programs"


async def eight_clients(url: str) -> list[str]:
    async def one(n: int) -> str:
        async with Client(url, mode="legacy") as client:
            result = await client.call_tool("post_deposit", {"input": f"HT000{n % 4}\n{n + 1}.00"})
            assert not result.is_error, result
            return str(result.structured_content["stdout"])

    await asyncio.gather(*(one(n) for n in range(8)))
    async with Client(url, mode="2026-07-28") as client:
        calc = await client.call_tool("console_calc", {"input": "2\n3"})
        assert calc.structured_content == {"stdout": "TOTAL 5.00\n", "stderr": "", "return_code": 0}
        listed = await client.call_tool("list_accounts", {})
        return str(listed.structured_content["stdout"]).splitlines()


def test_eight_http_clients_update_one_indexed_file(cache_dir, tmp_path):
    with HttpServer(
        "--no-bundled",
        "--programs",
        str(FILE_PROGRAMS),
        "--programs",
        str(CONSOLE_PROGRAMS),
        "--data-dir",
        str(tmp_path),
    ) as server:
        listed = asyncio.run(asyncio.wait_for(eight_clients(server.url), 90))
    assert listed == ["HT0000 6.00 00002", "HT0001 8.00 00002", "HT0002 10.00 00002", "HT0003 12.00 00002"]
