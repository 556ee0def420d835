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


@needs_cobc
def test_a_wide_translation_is_analysed_as_cobc_reads_it(tmp_path: Path) -> None:
    """`EXEC CICS RETURN END-EXEC.` becomes a CALL and a GOBACK on that one line, past column 72 (compiled
    with -ftext-column=255): the analysis reads the line to its end, so the GOBACK ends the program there
    rather than a "GO" cut at column 72 jumping into the next paragraph and losing the flow."""
    folder = tmp_path / "policy"
    shutil.copytree(PROGRAMS / "policy" / "copybooks", folder / "copybooks")
    shutil.copy(PROGRAMS / "policy" / "POLDB2.cbl", folder)
    scan = scan_folder(folder, cache_dir=tmp_path / "cache", jobs=1)
    program = next(p for p in scan.programs if p.spec.tool_name == "poldb2")
    assert program.cics is not None and "-ftext-column=255" in program.cics.flags
    commarea = program.spec.records[1].field
    fields = {child.name: child for child in commarea.children}
    assert fields["PC-REQUEST-ID"].direction == "in", fields["PC-REQUEST-ID"].reason  # read by the EVALUATE only
    assert "cannot be followed" not in fields["PC-REQUEST-DATA"].reason, fields["PC-REQUEST-DATA"].reason
