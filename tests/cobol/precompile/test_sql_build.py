"""A folder's EXEC SQL programs are precompiled and compiled, not refused; what the precompiler cannot
carry refuses the program alone, with file:line."""

from __future__ import annotations

import shutil
from pathlib import Path

from cobol_mcp.cobol.prepare.programs import scan_folder

from ..conftest import needs_cobc

PROGRAMS = Path(__file__).parents[2] / "sql_programs"


@needs_cobc
def test_sql_programs_are_compiled_from_their_precompiled_text(tmp_path: Path) -> None:
    folder = tmp_path / "batch"
    folder.mkdir()
    for name in ("EMPMAINT.cbl", "EMPRPT.cbl", "DCLEMPL.cpy"):
        shutil.copy(PROGRAMS / name, folder)
    (folder / "BADCONN.cbl").write_text(
        "       IDENTIFICATION DIVISION.\n       PROGRAM-ID. BADCONN.\n       PROCEDURE DIVISION.\n"
        "           EXEC SQL CONNECT TO PAYROLL END-EXEC\n           GOBACK.\n"
    )
    (folder / "SQLBOOK.cpy").write_text("           EXEC SQL COMMIT END-EXEC\n")
    (folder / "BYCOPY.cbl").write_text(
        "       IDENTIFICATION DIVISION.\n       PROGRAM-ID. BYCOPY.\n       PROCEDURE DIVISION.\n"
        "           COPY SQLBOOK.\n           GOBACK.\n"
    )
    scan = scan_folder(folder, cache_dir=tmp_path / "cache", jobs=1)
    served = {p.spec.tool_name: p for p in scan.programs}
    assert sorted(served) == ["empmaint", "emprpt"]
    for program in served.values():
        assert program.sql is not None and program.module.exists()
        assert program.sql.source.parent != folder and (program.sql.source.parent / "DCLEMPL.sqlinc").exists()
    assert served["emprpt"].sql is not None and served["emprpt"].sql.flags == ("-ftext-column=255",)
    assert [s.kind for s in served["empmaint"].sql.statements if s.kind != "INCLUDE"][1:] == [
        "SELECT INTO", "INSERT", "SET"]  # fmt: skip
    errors = sorted(scan.errors)
    assert len(errors) == 2
    assert "BADCONN.cbl:4: CONNECT: the database is the folder's" in errors[0]
    assert "SQLBOOK.cpy:1: EXEC SQL in a COPY book is not precompiled" in errors[1]
