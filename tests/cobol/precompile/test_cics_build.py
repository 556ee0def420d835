"""A folder's EXEC CICS programs are translated and compiled, not refused: the tool's arguments and
results are the COMMAREA (the runtime fills the EIB); what the translator cannot carry (BMS) refuses
that program alone, with file:line, and its neighbours are served."""

from __future__ import annotations

import shutil
from pathlib import Path

from cobol_mcp.cobol.prepare.programs import scan_folder
from cobol_mcp.cobol.records.schema import input_schema, output_schema

from ..conftest import needs_cobc

PROGRAMS = Path(__file__).parents[2] / "cics_programs"

BMS = """\
       IDENTIFICATION DIVISION.
       PROGRAM-ID. CUSTMENU.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-MAP                      PIC X(80).
       PROCEDURE DIVISION.
       0000-MAIN.
           EXEC CICS SEND MAP('CUSTMAP') MAPSET('CUSTSET')
                     FROM(WS-MAP) ERASE
           END-EXEC
           EXEC CICS RETURN END-EXEC.
"""

PLAIN = """\
       IDENTIFICATION DIVISION.
       PROGRAM-ID. ADDONE.
       DATA DIVISION.
       LINKAGE SECTION.
       01  LK-N                        PIC 9(4).
       PROCEDURE DIVISION USING LK-N.
           ADD 1 TO LK-N
           GOBACK.
"""


@needs_cobc
def test_cics_programs_are_translated_and_their_commarea_is_the_tool(tmp_path: Path) -> None:
    folder = tmp_path / "cics"
    shutil.copytree(PROGRAMS / "copybooks", folder / "copybooks")
    shutil.copy(PROGRAMS / "CUSTVSAM.cbl", folder)
    (folder / "CUSTMENU.cbl").write_text(BMS)
    (folder / "ADDONE.cbl").write_text(PLAIN)
    scan = scan_folder(folder, cache_dir=tmp_path / "cache", jobs=1)
    served = {p.spec.tool_name: p for p in scan.programs}
    assert sorted(served) == ["addone", "custvsam"]
    program = served["custvsam"]
    assert program.cics is not None and program.module.exists() and program.sql is None
    assert program.cics.source.parent != folder and (program.cics.source.parent / "DFHEIBLK.cpy").exists()
    assert {"HANDLE CONDITION", "READ", "WRITE", "STARTBR", "READNEXT", "ABEND"} <= set(program.cics.commands)
    assert [r.name for r in program.spec.records] == ["DFHEIBLK", "DFHCOMMAREA"]
    assert program.spec.records[0].direction == "none"
    arguments = input_schema(program.spec)["properties"]
    results = output_schema(program.spec)["properties"]
    assert "ca_request_id" in arguments and "ca_return_code" in results  # the COMMAREA's items
    assert not [name for name in (*arguments, *results) if name.startswith("eib")]  # not the EIB's
    assert served["addone"].cics is None
    assert len(scan.errors) == 1
    assert "CUSTMENU.cbl:8: SEND MAP is a BMS screen" in scan.errors[0], scan.errors
