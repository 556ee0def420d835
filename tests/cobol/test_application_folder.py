"""tests/cobol/application/ served as one application through the real command line: a mainframe-style
folder (cbl/, cpy/, dcl/, ddl/, jcl/, and a module loans/ with its own cbl/ and cpy/) whose programs
find their copybooks and DCLGEN members in the application's copybook folders, whose database is at
the application folder, and whose layout `check` and the server say."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

APPLICATION = Path(__file__).parent / "application"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "cobol_mcp", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)


@pytest.fixture
def app(tmp_path: Path, cache_dir: Path) -> Path:
    folder = Path(shutil.copytree(APPLICATION, tmp_path / "app"))
    applied = run("db", "apply", str(folder / "ddl" / "branch.sql"), "--programs", str(folder))
    assert applied.returncode == 0, applied.stderr
    return folder


def test_check_serves_every_program_and_says_what_it_found_where(app: Path) -> None:
    done = run("check", "--no-bundled", "--programs", str(app))
    assert done.returncode == 0, done.stderr
    assert [tool["name"] for tool in json.loads(done.stdout)["tools"]] == ["brnchinq", "loanpmt"]
    assert f"info: {app}: an application folder, its folders found by what their files hold:" in done.stderr
    assert "info:   programs from cbl (1), loans/cbl (1)" in done.stderr
    assert "info:   copybooks from cpy (2), dcl (1), loans/cpy (1)" in done.stderr
    assert "info:   not COBOL, passed over: ddl (DB2 DDL: run it with `db apply`), jcl (JCL)" in done.stderr
    assert "2 tool(s) ready" in done.stderr


def test_a_program_without_an_ending_finds_its_module_and_shared_copybooks(app: Path) -> None:
    # LOANPMT (no ending) COPYs LOANREC from loans/cpy and RATEPARM (no ending) from the shared cpy/:
    # 10000.00 at RATEPARM's 0.0450 for 3 years is 1350.00
    done = run("call", "loanpmt", "lr_principal=10000", "lr_years=3", "--json", "--no-bundled", "--programs", str(app))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == {"lr_interest": 1350}


def test_a_dclgen_member_is_found_and_the_database_is_the_applications(app: Path) -> None:
    assert (app / "cobol-mcp.db").is_file() and not (app / "cbl" / "cobol-mcp.db").exists()
    found = run("call", "brnchinq", "ba_branch_code=0042", "--json", "--no-bundled", "--programs", str(app))
    assert found.returncode == 0, found.stderr
    assert json.loads(found.stdout.splitlines()[-1]) == {"ba_branch_name": "HARBOUR ROAD", "ba_sqlcode": 0}
    missing = run("call", "brnchinq", "ba_branch_code=0007", "--json", "--no-bundled", "--programs", str(app))
    assert json.loads(missing.stdout.splitlines()[-1]) == {"ba_branch_name": "", "ba_sqlcode": 100}
    assert not (app / "cbl" / "cobol-mcp.db").exists()


def test_folder_programs_in_cobol_mcp_toml_chooses_the_program_folders(app: Path) -> None:
    (app / "cobol-mcp.toml").write_text('[folder]\nprograms = ["loans/cbl"]\ncopybooks = ["cpy"]\n')
    done = run("check", "--no-bundled", "--programs", str(app))
    assert done.returncode == 0, done.stderr
    assert [tool["name"] for tool in json.loads(done.stdout)["tools"]] == ["loanpmt"]
    assert "its folders named by cobol-mcp.toml's [folder] programs:" in done.stderr
    (app / "cobol-mcp.toml").write_text('[folder]\nprograms = ["cobol"]\n')
    wrong = run("check", "--no-bundled", "--programs", str(app))
    assert wrong.returncode == 1
    assert f"{app / 'cobol-mcp.toml'}:2: folder.programs: 'cobol' is not a folder" in wrong.stderr
