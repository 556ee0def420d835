"""A program that cannot be served is told where a client sees it: the initialize result's
instructions (desktop clients hide the server's stderr), short and bounded."""

import shutil
from pathlib import Path

from .stdio_client import StdioClient

LOANRATE = Path(__file__).resolve().parent.parent / "cobol" / "realworld" / "loanrate"
BROKEN = """\
       IDENTIFICATION DIVISION.
       PROGRAM-ID. BROKEN{n}.
       DATA DIVISION.
       LINKAGE SECTION.
       01  LS-AMOUNT              PIC S9(5)V99.
       PROCEDURE DIVISION USING LS-AMOUNT.
           COMPUTE LS-AMOUNT = LS-AMOUNT * .
           GOBACK.
"""


def test_skipped_programs_are_named_in_the_instructions(tmp_path, cache_dir):
    folder = tmp_path / "lending"
    shutil.copytree(LOANRATE, folder)
    for n in range(7):
        (folder / f"BROKEN{n}.cbl").write_text(BROKEN.format(n=n))
    with StdioClient("--no-bundled", "--programs", str(folder), "--cobol-workers", "1") as server:
        instructions = server.initialize()["result"]["instructions"]
        tools = {t["name"] for t in server.request("tools/list", {})["result"]["tools"]}
    assert tools == {"loanrate"}  # the good program is served all the same
    assert instructions.startswith("7 COBOL program(s) could not be served")
    assert "BROKEN0.cbl" in instructions and "BROKEN4.cbl" in instructions
    assert "BROKEN5.cbl" not in instructions and "- and 2 more" in instructions  # bounded
    assert "cobol-mcp-server check --programs DIR" in instructions
    assert len(instructions) < 2500


def test_a_server_that_serves_everything_has_no_instructions(tmp_path, cache_dir):
    folder = tmp_path / "lending"
    shutil.copytree(LOANRATE, folder)
    with StdioClient("--no-bundled", "--programs", str(folder), "--cobol-workers", "1") as server:
        assert "instructions" not in server.initialize()["result"]
