"""DB2's BIND QUALIFIER: the DBA made ``IBMUSER.ACCOUNT`` (tests/db/accounts.sql), ACCTPAY
(tests/sql_programs/qualifier) names ``ACCOUNT``, and ``[folder] qualifier = "IBMUSER"`` joins them, on
SQLite and PostgreSQL; ``check`` warns, with the program's file:line, of the table the database lacks
(``PAYMENT_LOG``), whose INSERT answers -204 as on DB2. Expected values from accounts.sql."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import pytest

from ..db.postgres import postgres_url
from .database_folder import serve_with_database
from .stdio_client import StdioClient

__all__ = ["postgres_url"]  # the fixture, used by name

PROGRAMS = Path(__file__).parents[1] / "sql_programs" / "qualifier"
ACCOUNTS = Path(__file__).parents[1] / "db" / "accounts.sql"
TOML = '[folder]\nqualifier = "IBMUSER"\n'


@pytest.fixture(params=["sqlite", "postgresql"])
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[StdioClient]:
    folder = tmp_path / "accounts"
    folder.mkdir()
    shutil.copy(PROGRAMS / "ACCTPAY.cbl", folder)
    toml = TOML if request.param == "sqlite" else TOML.replace("[folder]\n", "")
    with serve_with_database(request, folder, tmp_path / "cache", toml=toml, ddl=(ACCOUNTS,)) as (client, _):
        yield client


def test_unqualified_tables_are_the_qualifiers(served: StdioClient) -> None:
    result = served.call("acctpay", ls_acct_no="A0000001", ls_amount="250.50")
    assert not result.get("isError"), result
    out = result["structuredContent"]
    assert out["ls_sqlcode"] == 0
    assert Decimal(str(out["ls_new_balance"])) == Decimal("1249.50")  # 1500.00 - 250.50
    assert out["ls_log_sqlcode"] == -204  # IBMUSER.PAYMENT_LOG: not created


def test_check_warns_of_a_table_the_database_lacks(tmp_path: Path) -> None:
    folder = tmp_path / "accounts"
    folder.mkdir()
    shutil.copy(PROGRAMS / "ACCTPAY.cbl", folder)
    (folder / "cobol-mcp.toml").write_text(TOML)
    env = {**os.environ, "COBOL_MCP_CACHE": str(tmp_path / "cache")}
    run = [sys.executable, "-m", "cobol_mcp"]
    applied = subprocess.run([*run, "db", "apply", str(ACCOUNTS), "--programs", str(folder)], env=env,
                             capture_output=True, text=True, timeout=300)  # fmt: skip
    assert applied.returncode == 0, applied.stderr
    done = subprocess.run([*run, "check", "--programs", str(folder), "--no-bundled"], env=env, capture_output=True,
                          text=True, timeout=600, stdin=subprocess.DEVNULL)  # fmt: skip
    assert done.returncode == 0, done.stderr
    warnings = [line.strip() for line in done.stderr.splitlines() if "does not exist" in line]
    line = next(n for n, text in enumerate((PROGRAMS / "ACCTPAY.cbl").read_text().splitlines(), 1)
                if "INSERT INTO PAYMENT_LOG" in text) - 1  # its EXEC SQL line  # fmt: skip
    assert warnings == [f"warning: {folder / 'ACCTPAY.cbl'}:{line}: table IBMUSER.PAYMENT_LOG does not exist in the "
                        "folder's database (SQLCODE -204 when the statement runs)"]  # fmt: skip
