"""Any COBOL program becomes a tool: derived schemas, faults, DISPLAY, collisions, resources."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .stdio_client import SERVER, StdioClient

TESTS = Path(__file__).resolve().parent.parent
SAMPLES = TESTS / "cobol" / "samples"
FAULTS = TESTS / "cobol" / "faults"


@pytest.fixture(scope="module")
def derived(tmp_path_factory):
    cache = tmp_path_factory.mktemp("derived-cache")
    with StdioClient(
        "--programs",
        str(SAMPLES),
        "--programs",
        f"faults={FAULTS}",
        "--timeout",
        "1.5",
        "--expose-source",
        env={"COBOL_MCP_CACHE": str(cache)},
    ) as client:
        client.initialize()
        yield client


def tool_names(client):
    return [tool["name"] for tool in client.request("tools/list")["result"]["tools"]]


def test_tools_of_every_backend_in_order_with_collision_names(derived):
    names = tool_names(derived)
    assert names[:3] == ["add", "format_currency", "validate_date"]
    assert "samples__format_currency" in names  # samples' FORMAT-CURRENCY collides with the bundled one
    assert {"payroll", "acctinq", "stop_run", "chatty", "return_code"} <= set(names)
    assert names == tool_names(derived)  # deterministic


def test_collision_alias_routes_to_its_owner(derived):
    bundled = derived.call("format_currency", amount="1234.5")
    assert bundled["structuredContent"] == {"formatted": "$1,234.50"}
    other = derived.call("samples__format_currency", amount_in="1234.5")
    assert "text_out" in other["structuredContent"]


def test_derived_schema_from_linkage(derived):
    tools = {t["name"]: t for t in derived.request("tools/list")["result"]["tools"]}
    payroll = tools["payroll"]
    assert payroll["description"].startswith("Computes gross and net weekly pay")
    schema = payroll["inputSchema"]
    assert schema["type"] == "object" and schema["additionalProperties"] is False
    assert schema["properties"]["rate"]["type"] == "number"
    assert "rate" in schema["required"]
    assert payroll["outputSchema"]["type"] == "object"


def test_derived_call_returns_exact_structured_outputs(derived):
    result = derived.call("add_numbers", a="123456789.56", b="-0.07")
    assert not result.get("isError")
    (value,) = result["structuredContent"].values()
    assert str(value) == "123456789.49"
    assert json.loads(result["content"][0]["text"], parse_float=str) == {"sum_ab": "123456789.49"}


def test_value_that_does_not_fit_names_field_and_pic(derived):
    result = derived.call("add_numbers", a="1" * 40, b=1)
    assert result["isError"] is True
    text = result["content"][0]["text"]
    assert "'a'" in text or '"a"' in text
    assert "PIC" in text


def test_extra_argument_is_named(derived):
    result = derived.call("add_numbers", a=1, b=2, c=3)
    assert result["isError"] is True and "'c'" in result["content"][0]["text"]


def test_stop_run_is_an_error_and_next_call_works(derived):
    result = derived.call("stop_run", n=1)
    assert result["isError"] is True and "STOP RUN" in result["content"][0]["text"]
    assert derived.call("stop_run", n=0)["structuredContent"] == {"copied": 0}


def test_endless_loop_times_out_and_other_tools_are_unaffected(derived):
    result = derived.call("endless", n=1)
    assert result["isError"] is True and "timed out after 1.5 s" in result["content"][0]["text"]
    assert derived.call("add", a=1, b=1)["structuredContent"] == {"sum": "2"}


def test_runtime_errors_and_signals_are_error_results(derived):
    subscript = derived.call("subscript", n=5)
    assert subscript["isError"] is True and "out of bounds" in subscript["content"][0]["text"]
    segv = derived.call("segv", n=1)
    assert segv["isError"] is True and "SIGSEGV" in segv["content"][0]["text"]
    assert derived.call("segv", n=0)["structuredContent"] == {"copied": 0}


def test_display_output_comes_back_as_a_text_block(derived):
    result = derived.call("chatty", n=2)
    assert not result.get("isError")
    assert result["content"][-1] == {"type": "text", "text": "DISPLAY output:\nhello from COBOL\nn is 0002\n"}


def test_display_flood_is_stopped(derived):
    result = derived.call("flood", n=1)
    assert result["isError"] is True
    assert derived.call("flood", n=0)["structuredContent"] == {"copied": 0}


def test_return_code_is_an_error_with_outputs(derived):
    result = derived.call("return_code", n=4)
    assert result["isError"] is True
    assert "RETURN-CODE 4" in result["content"][0]["text"]
    assert result["structuredContent"] == {"copied": 4}


def test_sources_as_resources(derived):
    init = derived.initialize()
    assert init["result"]["capabilities"] == {"tools": {}, "resources": {}}
    resources = derived.request("resources/list")["result"]["resources"]
    uris = {r["uri"] for r in resources}
    assert "cobol://faults/chatty.cob" in uris and "cobol://cobol-mcp-bundled/add.cob" in uris
    assert all(r["mimeType"] == "text/x-cobol" for r in resources)
    assert any(uri.startswith("cobol://samples/") and uri.lower().endswith(".cpy") for uri in uris)  # copybooks
    read = derived.request("resources/read", {"uri": "cobol://faults/chatty.cob"})["result"]["contents"][0]
    assert "PROGRAM-ID. chatty." in read["text"] and read["mimeType"] == "text/x-cobol"


def test_compile_error_skips_one_program_and_serves_the_rest(tmp_path):
    folder = tmp_path / "mixed"
    folder.mkdir()
    shutil.copy(FAULTS / "chatty.cob", folder / "chatty.cob")
    shutil.copytree(FAULTS / "copybooks", folder / "copybooks")
    (folder / "broken.cob").write_text(
        "IDENTIFICATION DIVISION.\nPROGRAM-ID. broken.\nDATA DIVISION.\nLINKAGE SECTION.\n"
        "01 B-IN.\n   05 X PIC 9.\nPROCEDURE DIVISION USING B-IN.\n    MOVE Y TO X\n    GOBACK.\n"
    )
    env = {"COBOL_MCP_CACHE": str(tmp_path / "cache")}
    with StdioClient("--programs", str(folder), "--no-bundled", env=env) as client:
        assert tool_names(client) == ["chatty"]
        _, _, err = client.close()
    assert b"broken.cob:8: error" in err
    check = subprocess.run(
        [*SERVER, "check", "--programs", str(folder), "--no-bundled"],
        capture_output=True,
        env={**__import__("os").environ, **env},
        timeout=120,
    )
    assert check.returncode == 1
    assert json.loads(check.stdout)["tools"][0]["name"] == "chatty"
    assert b"broken.cob:8: error" in check.stderr


def test_check_succeeds_on_good_programs(cache_dir):
    check = subprocess.run([*SERVER, "check", "--programs", str(SAMPLES)], capture_output=True, timeout=300)
    assert check.returncode == 0, check.stderr
    assert len(json.loads(check.stdout)["tools"]) >= 10


def test_backend_name_with_double_underscore_is_refused(cache_dir):
    done = subprocess.run(
        [*SERVER, "--programs", f"bad__name={FAULTS}"], capture_output=True, timeout=60, stdin=subprocess.DEVNULL
    )
    assert done.returncode == 2 and b"must not contain '__'" in done.stderr and done.stdout == b""


def test_call_command_prints_text_and_json(cache_dir):
    done = subprocess.run([*SERVER, "call", "add", "a=1.10", "b=2.20", "--json"], capture_output=True, timeout=60)
    assert done.returncode == 0 and done.stdout.decode().splitlines() == ["3.30", '{"sum":"3.30"}']
    bad = subprocess.run([*SERVER, "call", "validate_date", "date=2024-02-30"], capture_output=True, timeout=60)
    assert bad.returncode == 1 and b"8 ASCII digits" in bad.stdout


def test_sdk_client_lists_and_calls_derived_tools(cache_dir):
    mcp = pytest.importorskip("mcp")
    import asyncio
    import os

    async def run():
        params = mcp.StdioServerParameters(
            command=sys.executable, args=["-m", "cobol_mcp", "--programs", str(FAULTS)], env=dict(os.environ)
        )
        async with mcp.Client(params, mode="legacy") as client:
            names = [t.name for t in (await client.list_tools()).tools]
            assert "return_code" in names and "chatty" in names
            result = await client.call_tool("chatty", {"n": 7})
            assert not result.is_error and result.structured_content == {"copied": 7}
            failed = await client.call_tool("return_code", {"n": 2})
            assert failed.is_error and failed.structured_content == {"copied": 2}

    asyncio.run(asyncio.wait_for(run(), 60))
