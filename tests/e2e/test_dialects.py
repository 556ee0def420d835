"""--dialect [NAME=]STD: a --programs folder laid out and built as `cobc -std=STD` does, end to end."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from cobol_mcp.server import build_server

from ..cobol.conftest import needs_cobc

ACCOUNTS = Path(__file__).resolve().parent.parent / "cobol" / "realworld" / "forms" / "dialects"
ARGS = {"ca_branch": 7, "ca_account_no": 12345678901, "ca_txn_count": 0,
        "ca_limit": 500000, "ca_usage": 9000, "ca_balance": 10, "ca_movement_count": 1,
        "ca_movement": [Decimal("2.50")] + [0] * 9}  # fmt: skip


def call(server: Any, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    box: list[Any] = []
    server.catalog.call(name, arguments, box.append)
    while not box:
        server.runtime.run_once(0.05)
    return box[0]


def options(*argv: str) -> Any:
    from cobol_mcp.cli import _options, _parser

    return _options(_parser("serve").parse_args(["--no-bundled", *argv]))


@needs_cobc
@pytest.mark.parametrize(("flags", "usage"), [((), 8000), (("--dialect", "accounts=ibm"), 18000),
                                              (("--dialect", "mf"), 18000)])  # fmt: skip
def test_a_folder_is_served_in_its_dialect(cache_dir, flags, usage):
    opts = options("--programs", f"accounts={ACCOUNTS}", "--cache-dir", str(cache_dir), *flags)
    server = build_server(opts)
    try:
        result = call(server, "acctupd", ARGS)["structuredContent"]
        assert result["ca_balance"] == Decimal("12.50") and result["ca_status"] == "P"
        assert result["ca_usage"] == usage  # only the default dialect truncates COMP to its digits
    finally:
        server.runtime.close()


def test_dialect_options_name_a_folder_and_a_known_dialect():
    assert options("--programs", f"accounts={ACCOUNTS}", "--dialect", "accounts=ibm").dialect_for("accounts") == "ibm"
    assert options("--programs", str(ACCOUNTS), "--dialect", "mf").dialect_for("dialects") == "mf"
    with pytest.raises(SystemExit, match=r"--dialect acounts=ibm: no --programs folder is named 'acounts'"):
        options("--programs", f"accounts={ACCOUNTS}", "--dialect", "acounts=ibm")
    with pytest.raises(SystemExit, match=r"--dialect ibn: dialect ibn: no ibn\.conf in"):
        options("--programs", str(ACCOUNTS), "--dialect", "ibn")
