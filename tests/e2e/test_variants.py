"""One program, several tools, through the real stdio server: tools/list shows each variant of
``[programs.PROG.tools.NAME]`` with its narrowed schemas and not the program's plain tool, calls reach
the program with the variant's hidden values (a callable program and a CICS COMMAREA program), a warm
start serves the same, and ``--watch`` picks up a changed variant."""

from __future__ import annotations

import os
import shutil
import subprocess
from decimal import Decimal
from pathlib import Path

import pytest

from .database_folder import CUSTFILE
from .stdio_client import SERVER, StdioClient, folder_server
from .test_reload import wait_stderr, write

VARIANTS = Path(__file__).parents[1] / "cobol" / "realworld" / "variants"
CICS = Path(__file__).parents[1] / "cics_programs"


def test_variants_are_listed_with_their_schemas_and_called_cold_and_warm(tmp_path: Path) -> None:
    for start in ("cold", "warm"):
        with folder_server(VARIANTS, tmp_path / "cache", start) as (client, tools):
            assert sorted(tools) == ["convert_euros", "echoarea", "simple_interest"], start
            interest = tools["simple_interest"]
            assert interest["title"] == "Simple interest on a deposit"
            assert list(interest["inputSchema"]["properties"]) == ["ac_interest"]
            assert sorted(interest["outputSchema"]["properties"]["ac_interest"]["properties"]) == [
                "ac_int_principal", "ac_int_rate", "ac_int_years", "interest",
            ]  # fmt: skip
            assert list(tools["convert_euros"]["inputSchema"]["properties"]) == ["ac_convert"]
            result = client.call("simple_interest", ac_interest={"ac_int_principal": 1000, "ac_int_rate": "2.5",
                                                                 "ac_int_years": 3})  # fmt: skip
            assert not result.get("isError"), (start, result)
            assert result["structuredContent"]["ac_interest"]["interest"] == Decimal("75.00")
            converted = client.call("convert_euros", ac_convert={"ac_cnv_amount": 100, "ac_cnv_currency": "CHF"})
            assert converted["structuredContent"]["ac_convert"]["ac_cnv_result"] == Decimal("93.70"), start
            assert converted["structuredContent"]["refusal"] == ""
            plain = client.call("acctcalc", ac_request_id="SIMINT")
            assert plain.get("isError") and "acctcalc" in plain["content"][0]["text"]  # not published


def test_check_then_call_on_the_warm_manifest_keeps_the_variants_timeout(tmp_path: Path) -> None:
    env = {**os.environ, "COBOL_MCP_CACHE": str(tmp_path)}
    check = subprocess.run([*SERVER, "check", "--no-bundled", "--programs", str(VARIANTS)], capture_output=True,
                           text=True, env=env, timeout=600, check=False)  # fmt: skip
    assert check.returncode == 0 and "3 tool(s) ready" in check.stderr, check.stderr
    assert "simple_interest: callable (ACCTCALC, tools.simple_interest), inputs: ac_interest" in check.stderr
    assert "echoarea: callable, inputs: ea_text" in check.stderr
    principal = next(line for line in check.stderr.splitlines() if "AC-INTEREST.AC-INT-PRINCIPAL" in line)
    assert "[programs.ACCTCALC.tools.simple_interest.fields.AC-INT-PRINCIPAL]" in principal  # where to change it
    # the manifest kept by check is read back (timeout = 20 from cobol-mcp.toml, as a number)
    value = 'ac_convert={"ac_cnv_amount": 10, "ac_cnv_currency": "USD"}'
    args = ["call", "--no-bundled", "--programs", str(VARIANTS), "convert_euros", value, "--json"]
    done = subprocess.run([*SERVER, *args], capture_output=True, text=True, env=env, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    assert '"ac_cnv_result":10.85' in done.stdout


DOLLARS = """
[programs.ACCTCALC.tools.convert_to_dollars]
description = "A euro amount in US dollars."
fields.AC-REQUEST-ID = { hidden = true, value = "CONVRT" }
fields.AC-REQUEST-DATA = { view = "AC-CONVERT" }
fields.AC-CNV-CURRENCY = { hidden = true, value = "USD" }
fields.AC-CNV-RESULT = { direction = "out", rename = "dollars" }
"""


def test_a_changed_variant_is_reloaded(tmp_path: Path, cache_dir: Path) -> None:
    pytest.importorskip("watchfiles")
    folder = tmp_path / "bank"
    shutil.copytree(VARIANTS, folder)
    toml = (folder / "cobol-mcp.toml").read_text()
    with StdioClient("--watch", "--no-bundled", "--programs", str(folder), "--log-level", "info") as client:
        seen: list[str] = []
        client.initialize()
        wait_stderr(client, "watching", seen)
        convert = toml[toml.index("[programs.ACCTCALC.tools.convert_euros]") :]
        write(folder / "cobol-mcp.toml", toml.replace(convert, "") + DOLLARS)  # one variant out, one in
        assert client.read(timeout=120) == {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}
        tools = {tool["name"]: tool for tool in client.request("tools/list")["result"]["tools"]}
        assert sorted(tools) == ["convert_to_dollars", "echoarea", "simple_interest"]
        dollars = tools["convert_to_dollars"]
        assert dollars["description"] == "A euro amount in US dollars."
        assert dollars["inputSchema"]["properties"]["ac_convert"]["properties"].keys() == {"ac_cnv_amount"}
        result = client.call("convert_to_dollars", ac_convert={"ac_cnv_amount": "250.40"})
        assert not result.get("isError"), result
        assert result["structuredContent"]["ac_convert"]["dollars"] == Decimal("271.68")  # 250.40 * 1.0850
        gone = client.call("convert_euros", ac_convert={"ac_cnv_amount": 1, "ac_cnv_currency": "USD"})
        assert gone.get("isError") and "convert_euros" in gone["content"][0]["text"]
        status, _, _ = client.close()
        assert status == 0


CICS_TOML = (
    CUSTFILE
    + """\

[programs.CUSTVSAM]
annotations = { openWorldHint = false }
fields.CA-RETURN-CODE = { direction = "out" }
fields.CA-RESP = { direction = "out" }
fields.CA-MESSAGE = { direction = "out" }

[programs.CUSTVSAM.tools.add_customer]
description = "Add a customer to the customer file."
annotations = { destructiveHint = false }
fields.CA-REQUEST-ID = { hidden = true, value = "ADDCUS" }
fields.CA-REQUEST-DATA = { view = "CA-CUSTOMER" }

[programs.CUSTVSAM.tools.inquire_customer]
description = "A customer of the customer file by number."
annotations = { readOnlyHint = true }
fields.CA-REQUEST-ID = { hidden = true, value = "INQCUS" }
fields.CA-REQUEST-DATA = { view = "CA-CUSTOMER" }
"""
)


def test_request_types_of_a_commarea_program_are_named_tools(tmp_path: Path) -> None:
    folder = tmp_path / "cics"
    shutil.copytree(CICS / "copybooks", folder / "copybooks")
    shutil.copy(CICS / "CUSTVSAM.cbl", folder)
    (folder / "cobol-mcp.toml").write_text(CICS_TOML)
    args = ("--no-bundled", "--cobol-workers", "2", "--timeout", "120", "--programs", str(folder))
    with StdioClient(*args, env={"COBOL_MCP_CACHE": str(tmp_path / "cache")}) as client:
        client.initialize()
        tools = {tool["name"]: tool for tool in client.request("tools/list")["result"]["tools"]}
        assert sorted(tools) == ["add_customer", "inquire_customer"]
        add = tools["add_customer"]
        assert add["annotations"] == {"openWorldHint": False, "destructiveHint": False}
        assert list(add["inputSchema"]["properties"]) == ["ca_customer"]  # no request id, no browse view
        assert "ca_browse" not in add["outputSchema"]["properties"]
        customer = {"ca_cust_id": 1001, "ca_cust_name": "ALICE", "ca_cust_city": "LYON", "ca_cust_balance": "12.50"}
        added = client.call("add_customer", ca_customer=customer)
        assert not added.get("isError"), added
        assert added["structuredContent"]["ca_return_code"] == 0
        found = client.call("inquire_customer", ca_customer={**customer, "ca_cust_name": "", "ca_cust_city": ""})
        assert found["structuredContent"]["ca_return_code"] == 0, found
        assert found["structuredContent"]["ca_customer"]["ca_cust_name"] == "ALICE"
        assert found["structuredContent"]["ca_customer"]["ca_cust_city"] == "LYON"
        twice = client.call("add_customer", ca_customer=customer)  # DUPREC: the ADD request, not an inquiry
        assert twice["structuredContent"]["ca_return_code"] == 8, twice
        missing = client.call("inquire_customer", ca_customer={**customer, "ca_cust_id": 4242})
        assert missing["structuredContent"]["ca_message"] == "CUSTOMER NOT FOUND", missing


def test_check_names_a_variant_mistake_and_serves_the_neighbours(tmp_path: Path) -> None:
    folder = tmp_path / "bank"
    shutil.copytree(VARIANTS, folder)
    toml = folder / "cobol-mcp.toml"
    toml.write_text(toml.read_text().replace('value = "CONVRT"', 'value = "CONVERT"'))
    line = next(n for n, text in enumerate(toml.read_text().splitlines(), 1) if '"CONVERT"' in text)
    env = {**os.environ, "COBOL_MCP_CACHE": str(tmp_path / "cache")}
    check = subprocess.run([*SERVER, "check", "--no-bundled", "--programs", str(folder)], capture_output=True,
                           text=True, env=env, timeout=600, check=False)  # fmt: skip
    assert check.returncode == 1
    errors = [text for text in check.stderr.splitlines() if text.startswith("error: ")]
    assert len(errors) == 1 and errors[0].startswith(f"error: {toml}:{line}: "), check.stderr
    assert "does not fit AC-REQUEST-ID" in errors[0]
    assert "echoarea: callable" in check.stderr and "simple_interest" not in check.stderr
