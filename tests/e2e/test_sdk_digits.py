"""No digit lost through a binary double: the official MCP Python SDK client (which reads JSON
numbers as floats) gets an S9(16)V99 result of LOANRATE (tests/cobol/realworld/loanrate) with every
digit, as a decimal string the outputSchema announces; a schema's bounds are exact text."""

import asyncio
import json
import os
import shutil
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from .stdio_client import StdioClient

mcp = pytest.importorskip("mcp")
from mcp import Client, StdioServerParameters  # noqa: E402

LOANRATE = Path(__file__).resolve().parent.parent / "cobol" / "realworld" / "loanrate"


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    programs = tmp_path_factory.mktemp("digits") / "lending"
    shutil.copytree(LOANRATE, programs)
    return programs


async def price_through_the_sdk(folder: Path) -> tuple[dict, list[dict]]:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "cobol_mcp", "--no-bundled", "--programs", str(folder), "--cobol-workers", "1"],
        env=dict(os.environ),
    )
    async with Client(params, mode="legacy") as client:
        (tool,) = (await client.list_tools()).tools
        results = []
        for principal in ("1234567890123457.00", "1234567890123456.89"):
            result = await client.call_tool("loanrate", {"lr_rate_type": "F", "lr_tier": 1, "lr_principal": principal})
            assert not result.is_error, result
            results.append(result.structured_content)
        return tool.output_schema, results


def test_a_sixteen_digit_result_reaches_the_sdk_with_every_digit(cache_dir, folder):
    schema, (result, odd) = asyncio.run(asyncio.wait_for(price_through_the_sdk(folder), 90))
    assert result["lr_total_due"] == "1234567890123458.00"  # 1234567890123457.00 + the 1.00 fee
    assert odd["lr_total_due"] == "1234567890123457.89"  # as a double: 1234567890123457.8
    assert result["lr_rate"] == 0.045  # 5 digits: a double holds it, a number it stays
    due = schema["properties"]["lr_total_due"]
    assert due["type"] == ["string", "null"] and "decimal string" in due["description"]


def test_bounds_a_double_cannot_hold_are_exact_text_in_the_raw_json(cache_dir, folder):
    with StdioClient("--no-bundled", "--programs", str(folder), "--cobol-workers", "1") as server:
        server.initialize()
        server.send({"jsonrpc": "2.0", "id": 9, "method": "tools/list"})
        raw = server.read_line().decode()
    assert "from -9999999999999999.99 to 9999999999999999.99" in raw  # LR-PRINCIPAL's, exactly
    principal = json.loads(raw)["result"]["tools"][0]["inputSchema"]["properties"]["lr_principal"]
    assert "maximum" not in principal and "minimum" not in principal  # a double-reading client rounds them
    assert principal["type"] == ["number", "string"]
    # A bound a double holds stays a number, exactly as written: LR-TIER is PIC 9.
    tier = json.loads(raw, parse_float=Decimal)["result"]["tools"][0]["inputSchema"]["properties"]["lr_tier"]
    assert (tier["minimum"], tier["maximum"]) == (0, 9)
