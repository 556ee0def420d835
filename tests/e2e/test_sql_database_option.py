"""The server's own ``--database [NAME=]URL``: it wins over ``[folder] database`` of cobol-mcp.toml, on
SQLite and on a real PostgreSQL; a NAME=URL goes to that folder only, a bare URL to every other one; an
ambiguous or unknown option is refused before anything is served. A program in a ``.sqb`` file (DB2
LUW's ending for COBOL with EXEC SQL) is served like one in a ``.cbl``."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cobol_mcp.db.apply import apply_files
from cobol_mcp.db.url import database, folder_databases

from ..db.postgres import postgres_url
from .database_folder import PAYROLL
from .stdio_client import StdioClient

__all__ = ["postgres_url"]  # the fixture, used by name

PROGRAMS = Path(__file__).parents[1] / "sql_programs"


def _folder(root: Path, name: str, program: str = "EMPMAINT.cbl") -> Path:
    folder = root / name
    folder.mkdir()
    shutil.copy(PROGRAMS / "EMPMAINT.cbl", folder / program)
    shutil.copy(PROGRAMS / "DCLEMPL.cpy", folder)
    # The file names a database nobody applied the DDL to: a program prepared against it is refused
    (folder / "cobol-mcp.toml").write_text('[folder]\ndatabase = "sqlite:///not-this-one.db"\n')
    return folder


def _inquire(client: StdioClient, tool: str) -> dict:
    result = client.call(tool, ls_function="I", ls_empno=1000, ls_lastname="", ls_firstname="", ls_dept="A00",
                         ls_salary="0", ls_hiredate="2024-04-01")  # fmt: skip
    assert not result.get("isError"), result
    return result["structuredContent"]


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_the_command_line_database_wins_over_the_folder_file(request, tmp_path: Path, kind: str) -> None:
    hr, pay = _folder(tmp_path, "hr"), _folder(tmp_path, "pay", "EMPMAINT.sqb")  # DB2 LUW's ending: served too
    url = f"sqlite:///{tmp_path / 'shared.db'}" if kind == "sqlite" else request.getfixturevalue("postgres_url")

    apply_files([PAYROLL], database(url, hr), note=lambda line: None)
    # hr by its name, pay through the bare URL (every folder without its own NAME=URL)
    args = ("--no-bundled", "--cobol-workers", "1", "--timeout", "120", "--shutdown-grace", "0",
            "--programs", str(hr), "--programs", str(pay), "--database", f"hr={url}", "--database", url)  # fmt: skip
    with StdioClient(*args, env={"COBOL_MCP_CACHE": str(tmp_path / "cache")}) as client:
        client.initialize()
        names = sorted(tool["name"] for tool in client.request("tools/list")["result"]["tools"])
        assert len(names) == 2, names  # both served: prepared against the command line's database
        for tool in names:
            haas = _inquire(client, tool)
            assert (haas["ls_return_code"], haas["ls_sqlcode"]) == (0, 0)
            assert haas["ls_emp_out"]["ls_out_name"] == "CHRISTINE HAAS"
    assert not (hr / "not-this-one.db").exists() and not (pay / "not-this-one.db").exists()


def test_named_and_bare_urls_are_sorted_out_and_ambiguity_refused() -> None:
    pg = "postgresql://cobol@localhost:5432/pay?sslmode=disable&application_name=x=y"
    assert folder_databases(["sqlite:///a.db"], ["hr"]) == ("sqlite:///a.db", {})
    assert folder_databases([pg, "hr=sqlite:///hr.db"], ["hr", "pay"]) == (pg, {"hr": "sqlite:///hr.db"})
    assert folder_databases([f"pay={pg}"], ["hr", "pay"]) == (None, {"pay": pg})
    refused = {
        "two bare URLs": (["sqlite:///a.db", "sqlite:///b.db"], "every folder without its own NAME=URL already"),
        "one folder twice": (["hr=sqlite:///a.db", "hr=sqlite:///b.db"], "the folder 'hr' already has"),
        "an unknown folder": (["payroll=sqlite:///a.db"], "no --programs folder is named 'payroll'"),
        "a bad URL": (["hr=mysql://x"], "expected sqlite:///PATH or postgresql://"),
        "no URL at all": (["a.db"], "expected sqlite:///PATH, postgresql://user@host:port/db or NAME=URL"),
        "an empty SQLite path": (["sqlite:///"], "no file after sqlite:///"),
    }
    for why, (specs, message) in refused.items():
        with pytest.raises(ValueError, match="--database") as caught:
            folder_databases(specs, ["hr", "pay"])
        assert message in str(caught.value), why
    with pytest.raises(ValueError, match="no --programs folder to give it to"):
        folder_databases(["sqlite:///a.db"], [])


def test_the_server_refuses_an_ambiguous_database_before_serving(tmp_path: Path) -> None:
    hr = _folder(tmp_path, "hr")
    command = [sys.executable, "-m", "cobol_mcp", "check", "--programs", str(hr),
               "--database", "sqlite:///a.db", "--database", "sqlite:///b.db"]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode != 0
    assert "cobol-mcp-server: --database sqlite:///b.db: every folder without its own NAME=URL already has" in (
        done.stderr)  # fmt: skip


def test_a_database_that_can_be_neither_opened_nor_created_is_refused_naming_where_it_was_given(
    tmp_path: Path,
) -> None:
    hr = _folder(tmp_path, "hr")
    (hr / "cobol-mcp.toml").unlink()
    (tmp_path / "text.db").write_text("EMPLOYEE FILE, NOT A DATABASE\n")
    env = {**os.environ, "COBOL_MCP_CACHE": str(tmp_path / "cache")}

    def check(*database: str) -> str:
        command = [sys.executable, "-m", "cobol_mcp", "check", "--programs", str(hr), *database]
        done = subprocess.run(command, capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL, env=env)
        assert done.returncode == 1, done.stderr
        assert "tool(s) ready" not in done.stderr and f"{hr}/EMPMAINT.cbl:1:" not in done.stderr
        return done.stderr

    refused = {  # (sqlite:/// and a relative path: in the folder)
        "sqlite:///no/such/dir/x.db": f"no directory {hr}/no/such/dir",
        "sqlite:////proc/version": "/proc/version: ",  # empty, and nothing can be written beside it
        f"sqlite:///{tmp_path}/text.db": f"{tmp_path}/text.db: file is not a database",
    }
    for url, why in refused.items():
        assert f"--database {url}: the database cannot be opened or created: {why}" in check("--database", url)
    (hr / "cobol-mcp.toml").write_text('[folder]\ndatabase = "sqlite:///missing/pay.db"\n')
    assert (f"{hr}/cobol-mcp.toml: [folder] database = 'sqlite:///missing/pay.db': the database cannot be opened "
            f"or created: no directory {hr}/missing") in check()  # fmt: skip
