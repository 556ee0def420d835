"""COPY of a name written for another machine (a Windows path, a DD: member, a Unix path inside a
copybook): the book is found by its base name in the search path with a warning naming both, cobc
compiles the program with the same line numbers, and the tool is served and called. A book found
nowhere still keeps the program from being served, with file:line and the name."""

import os
import subprocess
from decimal import Decimal
from pathlib import Path

from .stdio_client import SERVER, folder_server

FOLDER = Path(__file__).resolve().parent.parent / "cobol" / "foreign_copy"
PROGRAM = FOLDER / "prog" / "CUSTDISC.cbl"
BOOKS = FOLDER / "copy"
WARNINGS = [
    f'{PROGRAM}:7: COPY "C:\\PgmCobols\\WS\\WSRATES.cpy" names a file of another machine: using '
    f"{BOOKS / 'WSRATES.CPY'} (found by its base name WSRATES.cpy)",
    f'{PROGRAM}:9: COPY "DD:SYSLIB(CUSTPARM)" names a file of another machine: using {BOOKS / "custparm.cpy"} '
    "(found by its base name CUSTPARM)",
    f'{BOOKS / "WSRATES.CPY"}:3: COPY "/u/prod/copy/RATEVAL.cpy" names a file of another machine: using '
    f"{BOOKS / 'RATEVAL.cpy'} (found by its base name RATEVAL.cpy)",
    f'{PROGRAM.parent / "LISTCLI.cbl"}:12: COPY "C:\\PgmCobols\\FD\\FDCliente.cpy" names a file of another machine: '
    f"using {BOOKS / 'FDCLIENTE.CPY'} (found by its base name FDCliente.cpy)",
]


def check(folder: Path, cache: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*SERVER, "check", "--no-bundled", "--programs", str(folder)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "COBOL_MCP_CACHE": str(cache)},
        check=False,
    )


def test_served_and_called_with_a_warning_naming_both_at_every_start(tmp_path):
    cache = tmp_path / "cache"
    for start in ("cold", "warm"):
        with folder_server(FOLDER / "prog", cache, start) as (server, tools):
            assert set(tools) == {"custdisc", "listcli"}
            result = server.call("custdisc", cp_customer_in="ACME", cp_class_in=2, cp_amount_in=200)
            assert result["structuredContent"] == {"cp_discount_out": 20, "cp_net_out": 180}
            gold = server.call("custdisc", cp_customer_in="ACME", cp_class_in=3, cp_amount_in="99.99")
            assert gold["structuredContent"] == {"cp_discount_out": Decimal("15.00"), "cp_net_out": Decimal("84.99")}
            clients = server.call("listcli", files={"CLIENTES": "C00001ACME SUPPLY\nC00002BETA MOTORS"})
            assert clients["structuredContent"]["stdout"] == "C00001 ACME SUPPLY\nC00002 BETA MOTORS\nCLIENTES 0002\n"
            status, _, stderr = server.close()
        assert status == 0
        for warning in WARNINGS:
            assert warning in stderr.decode(), (start, warning)


def test_cobc_is_given_the_same_line_numbers(tmp_path):
    with folder_server(FOLDER / "prog", tmp_path / "cache", "cold") as (server, _):
        result = server.call("custdisc", cp_customer_in="ACME", cp_class_in=5, cp_amount_in=200)
    assert result["isError"] is True
    text = result["content"][0]["text"]
    assert "CUSTDISC.cbl:15: error: subscript of 'WS-RATE' out of bounds: 5" in text  # the COMPUTE's line


def test_check_shows_the_warnings_and_passes(tmp_path):
    done = check(FOLDER / "prog", tmp_path / "cache")
    assert done.returncode == 0, done.stderr
    for warning in WARNINGS:
        assert warning in done.stderr
    assert "2 tool(s) ready" in done.stderr


def test_a_book_found_nowhere_still_refuses_the_program_with_file_line_and_name(tmp_path):
    done = check(FOLDER / "missing", tmp_path / "cache")
    assert done.returncode == 1
    assert (
        f'{FOLDER / "missing" / "ORPHAN.cbl"}:8: copybook "C:\\PgmCobols\\FD\\FDNOWHERE.cpy" not found' in done.stderr
    )
    assert "looked for by its base name FDNOWHERE.cpy" in done.stderr
