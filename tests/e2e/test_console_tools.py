"""Console programs (no PROCEDURE DIVISION USING) as tools: each call is its own run unit, fed
`input` on stdin and `args` on the command line, returning what it DISPLAYed."""

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from cobol_mcp.options import Options
from cobol_mcp.server import build_server

PROGRAMS = Path(__file__).resolve().parent.parent / "console_programs"


@pytest.fixture(scope="module")
def server(cache_dir):
    built = build_server(Options(programs=[("console", str(PROGRAMS))], bundled=False, timeout=2.0))
    yield built
    built.runtime.close()


def call(server, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    box: list[Any] = []
    server.catalog.call(name, arguments, box.append)
    while not box:
        server.runtime.run_once(0.05)
    assert not isinstance(box[0], BaseException), box[0]
    return box[0]


def schema(server, name: str) -> dict[str, Any]:
    return server.catalog.tool(name).definition()["inputSchema"]


def test_schemas_offer_only_the_accept_kinds_the_program_uses(server):
    calc = schema(server, "console_calc")
    assert set(calc["properties"]) == {"input"}
    assert "WS-FIRST, WS-SECOND" in calc["properties"]["input"]["description"]
    args = schema(server, "show_args")
    assert set(args["properties"]) == {"args"}
    assert args["properties"]["args"]["items"] == {"type": "string"}
    assert schema(server, "spinner")["properties"] == {}
    assert server.catalog.tool("console_calc").definition()["description"].startswith("Adds two numbers")
    output = server.catalog.tool("console_calc").definition()["outputSchema"]  # no files: none in the result
    assert set(output["properties"]) == {"stdout", "stderr", "return_code", "signal", "location", "partial"}


def test_calculator_accepts_two_numbers_and_stop_run_is_a_normal_end(server):
    result = call(server, "console_calc", {"input": "1.5\n2.25"})
    assert not result.get("isError")
    assert result["structuredContent"] == {"stdout": "TOTAL 3.75\n", "stderr": "", "return_code": 0}
    assert result["content"][0]["text"] == "TOTAL 3.75\n"


def test_each_call_is_a_fresh_run_unit(server):
    first = call(server, "name_list", {"input": "ADA\nGRACE\nJEAN"})
    again = call(server, "name_list", {"input": "ADA\nGRACE\nJEAN"})
    assert first["structuredContent"] == again["structuredContent"]
    assert first["structuredContent"]["stdout"].endswith("GREETED 3\n")


def test_accept_past_the_end_of_input_gets_spaces_not_a_hang(server):
    result = call(server, "name_list", {"input": "ADA"})
    assert result["structuredContent"]["stdout"] == "HELLO [ADA]\nHELLO []\nHELLO []\nGREETED 3\n"
    short = call(server, "console_calc", {})
    assert short["structuredContent"]["stdout"] == "TOTAL 0.00\n"


def test_command_line_arguments(server):
    result = call(server, "show_args", {"args": ["first one", "SECOND", ""]})
    assert result["structuredContent"]["stdout"].splitlines() == ["ARGS 003", "001: first one", "002: SECOND", "003: "]


def test_syserr_and_return_code(server):
    low = call(server, "stock_check", {"input": "3"})
    assert low["isError"] is True
    assert low["structuredContent"] == {"stdout": "", "stderr": "LOW STOCK: 00003\n", "return_code": 4}
    assert "RETURN-CODE 4" in low["content"][0]["text"]
    ok = call(server, "stock_check", {"input": "250"})
    assert not ok.get("isError") and ok["structuredContent"]["stdout"] == "STOCK OK: 00250\n"


@pytest.mark.parametrize(
    "arguments, expected",
    [
        ({"nope": 1}, "unknown argument 'nope'"),
        ({"input": 5}, "'input' must be a string"),
        ({"input": "\u20ac"}, "not Latin-1"),
    ],
)
def test_bad_arguments_are_specific_errors(server, arguments, expected):
    result = call(server, "console_calc", arguments)
    assert result["isError"] is True and expected in result["content"][0]["text"]


@pytest.mark.parametrize("args", [["a", 1], "a b", ["nul\0"]])
def test_bad_args_are_errors(server, args):
    result = call(server, "show_args", {"args": args})
    assert result["isError"] is True and "'args'" in result["content"][0]["text"]


def test_a_program_that_never_ends_times_out_and_the_next_call_works(server):
    result = call(server, "spinner", {})
    assert result["isError"] is True and "did not finish within 2 s" in result["content"][0]["text"]
    assert call(server, "console_calc", {"input": "1\n1"})["structuredContent"]["stdout"] == "TOTAL 2.00\n"


def test_a_call_can_be_cancelled(server):
    box: list[Any] = []
    handle = server.catalog.tool("spinner").start({}, box.append)
    assert server.catalog.tool("spinner").cancel(handle) is True
    for _ in range(10):
        server.runtime.run_once(0.05)
    assert box == []
    assert call(server, "console_calc", {"input": "2\n2"})["structuredContent"]["stdout"] == "TOTAL 4.00\n"


def test_over_stdio_with_the_sdk_client(cache_dir):
    mcp = pytest.importorskip("mcp")

    async def exercise() -> None:
        params = mcp.StdioServerParameters(
            command=sys.executable,
            env=dict(os.environ),
            args=["-m", "cobol_mcp", "--no-bundled", "--programs", str(PROGRAMS)],
        )
        async with mcp.Client(params, mode="legacy") as client:
            names = [tool.name for tool in (await client.list_tools()).tools]
            assert {"console_calc", "show_args", "stock_check"} <= set(names)
            result = await client.call_tool("console_calc", {"input": "10\n-0.5"})
            assert result.structured_content == {"stdout": "TOTAL 9.50\n", "stderr": "", "return_code": 0}
            shown = await client.call_tool("show_args", {"args": ["x"]})
            assert shown.structured_content["stdout"] == "ARGS 001\n001: x\n"

    asyncio.run(asyncio.wait_for(exercise(), 60))
