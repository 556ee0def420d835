"""`cobol-mcp-server new`: the written program follows the conventions, compiles, and works as a tool."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from cobol_mcp.scaffold import ScaffoldError, program_text

needs_cobc = pytest.mark.skipif(shutil.which("cobc") is None, reason="GnuCOBOL (cobc) is not installed")


def cli(*args: str, cache: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COBOL_MCP_CACHE": cache}
    return subprocess.run(
        [sys.executable, "-m", "cobol_mcp", *args], capture_output=True, text=True, env=env, timeout=300
    )


@pytest.mark.parametrize("name", ["", "9LIVES", "-X", "X-", "A--B", "A_B", "A B", "X" * 27, "naïve"])
def test_names_that_are_not_cobol_words_are_refused(name):
    with pytest.raises(ScaffoldError, match="not a usable PROGRAM-ID"):
        program_text(name)


def test_the_program_id_is_upper_case_and_names_the_records():
    text = program_text("order-total")
    assert "PROGRAM-ID. ORDER-TOTAL." in text
    assert "PROCEDURE DIVISION USING ORDER-TOTAL-IN ORDER-TOTAL-OUT." in text
    assert text.rstrip().endswith("GOBACK.")


@needs_cobc
def test_new_writes_a_program_that_checks_and_calls(tmp_path):
    cache = str(tmp_path / "cache")
    folder = tmp_path / "cobol"
    done = cli("new", "order-total", "--dir", str(folder), cache=cache)
    assert done.returncode == 0, done.stderr
    assert (folder / "order-total.cob").exists() and "check --programs" in done.stdout

    check = cli("check", "--programs", str(folder), "--no-bundled", cache=cache)
    assert check.returncode == 0, check.stderr
    (tool,) = json.loads(check.stdout)["tools"]
    assert tool["name"] == "order_total"
    assert tool["description"].startswith("Compute an order line's total")
    assert tool["inputSchema"]["required"] == ["unit_price"]  # quantity has a VALUE: optional
    assert tool["inputSchema"]["properties"]["quantity"]["default"] == 1
    assert list(tool["outputSchema"]["properties"]) == ["line_total"]  # the -OUT record only

    call = cli(
        "call", "order_total", "unit_price=19.99", "quantity=3", "--programs", str(folder), "--no-bundled", cache=cache
    )
    assert call.returncode == 0, call.stderr
    assert json.loads(call.stdout) == {"line_total": 59.97}
    too_big = cli(
        "call",
        "order_total",
        "unit_price=9999999.99",
        "quantity=99999",
        "--programs",
        str(folder),
        "--no-bundled",
        cache=cache,
    )
    assert too_big.returncode == 1 and "RETURN-CODE 8" in too_big.stdout


def test_new_never_overwrites(tmp_path):
    (tmp_path / "order-total.cob").write_text("keep me")
    done = cli("new", "ORDER-TOTAL", "--dir", str(tmp_path), cache=str(tmp_path / "cache"))
    assert done.returncode == 1 and "exists already" in done.stderr
    assert (tmp_path / "order-total.cob").read_text() == "keep me"
