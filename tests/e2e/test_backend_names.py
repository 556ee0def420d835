"""Backend names: a user folder never hides the bundled programs nor another folder.

The bundled programs' backend has a name no folder takes by accident, so a folder named `cobol` (what
the README's own examples suggest) serves its tools beside add, format_currency and validate_date; a
real clash, two folders of one name or a folder given the bundled name, stops the start with an
error that says what to do."""

import shutil
import subprocess
from pathlib import Path

from .stdio_client import SERVER, StdioClient

LOANRATE = Path(__file__).resolve().parent.parent / "cobol" / "realworld" / "loanrate"


def test_a_folder_named_cobol_keeps_the_bundled_tools(tmp_path, cache_dir):
    folder = tmp_path / "cobol"
    shutil.copytree(LOANRATE, folder)
    with StdioClient("--programs", str(folder), "--cobol-workers", "1") as server:
        server.initialize()
        tools = {t["name"] for t in server.request("tools/list", {})["result"]["tools"]}
        assert {"add", "format_currency", "validate_date", "loanrate"} <= tools
        assert server.call("add", a="1.10", b="2.20")["structuredContent"] == {"sum": "3.30"}
        formatted = server.call("format_currency", amount="1234.5")["structuredContent"]
        assert formatted == {"formatted": "$1,234.50"}
        assert server.call("validate_date", date="20240229")["structuredContent"]["valid"] is True
        priced = server.call("loanrate", lr_rate_type="F", lr_tier=1, lr_principal=100)
        assert not priced.get("isError"), priced
        assert priced["structuredContent"]["lr_total_due"] == "101.00"


def _start(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*SERVER, *args], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120, check=False
    )


def test_two_folders_of_one_name_are_refused_with_what_to_do(tmp_path):
    first, second = tmp_path / "a" / "cobol", tmp_path / "b" / "cobol"
    first.mkdir(parents=True)
    second.mkdir(parents=True)
    done = _start("check", "--programs", str(first), "--programs", str(second))
    assert done.returncode == 2, done
    assert "both named 'cobol'" in done.stderr
    assert f"--programs OTHER={second}" in done.stderr


def test_the_bundled_name_given_to_a_folder_is_refused(tmp_path):
    done = _start("check", "--programs", f"cobol-mcp-bundled={tmp_path}")
    assert done.returncode == 2, done
    assert "bundled programs'" in done.stderr and f"--programs OTHER={tmp_path}" in done.stderr
