"""The precompiler's output: EXEC SQL replaced on the user's own lines, compiled and linked by cobc."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from cobol_mcp.cobol.precompile.generate import SQLCA_BOOK, Generated, generate, generate_file
from cobol_mcp.cobol.precompile.scan import scan_lines

PROGRAMS = Path(__file__).parents[2] / "sql_programs"


def _words(text: str) -> list[str]:
    return text.split()


def _code(text: str) -> list[str]:
    return [line[6:].strip() for line in text.splitlines()]


def test_each_block_becomes_a_call_on_its_own_lines_with_whenever_in_force() -> None:
    generated, _ = generate_file(PROGRAMS / "EMPRPT.cbl", "fixed")
    source = (PROGRAMS / "EMPRPT.cbl").read_text().splitlines()
    lines = generated.text.splitlines()
    assert len(lines) == len(source) and not generated.shifted
    assert not any(re.search(r"EXEC\s+SQL|END-EXEC", line) for line in lines)
    code = _code(generated.text)
    assert code[13] == 'COPY "SQLCA.sqlinc".' and code[14] == 'COPY "DCLEMPL.sqlinc".'
    assert code[23] == "" and code[26:34] == [""] * 8  # DECLARE SECTION and DECLARE CURSOR: nothing
    assert code[46] == "CONTINUE."  # WHENEVER in the PROCEDURE DIVISION still ends its sentence
    fetch = " ".join(code[58:65]).split()
    assert fetch == _words(
        "CALL 'SQLRT' USING BY VALUE 8 BY REFERENCE SQLCA EMPNO OF DCLEMPLOYEE LASTNAME OF "
        "DCLEMPLOYEE FIRSTNAME SALARY IEMP-SALARY IF SQLCODE < 0 GO TO 9999-SQL-ERROR END-IF"
    )
    # OPEN passes the host variables of its cursor's SELECT, which DB2 reads when the cursor opens
    assert code[55].split()[:11] == _words("CALL 'SQLRT' USING BY VALUE 7 BY REFERENCE SQLCA WS-DEPT IF")
    select = " ".join(code[96:102]).split()
    assert select[:11] == _words("CALL 'SQLRT' USING BY VALUE 13 BY REFERENCE SQLCA LS-NEW-TOTAL WS-DEPT")
    assert select.count("IF") == 1  # NOT FOUND CONTINUE adds nothing; SQLERROR is still in force
    assert code[108] == "CALL 'SQLRT' USING BY VALUE 16 BY REFERENCE SQLCA"  # after WHENEVER SQLERROR CONTINUE
    assert lines[13][72:] == ""  # the sequence area is blanked: with -ftext-column=255 it is never code


def test_the_dclgen_member_and_the_sqlca_are_copybooks() -> None:
    generated, _ = generate_file(PROGRAMS / "EMPRPT.cbl", "fixed")
    member = generated.copybooks["DCLEMPL.sqlinc"]
    assert "EXEC SQL" not in member and "01  DCLEMPLOYEE." in member
    assert len(member.splitlines()) == len((PROGRAMS / "DCLEMPL.cpy").read_text().splitlines())
    assert generated.copybooks["SQLCA.sqlinc"] == SQLCA_BOOK
    assert "SQLCODE             PIC S9(9) COMP-5" in SQLCA_BOOK and "SQLWARNA" in SQLCA_BOOK


def _free_program() -> Generated:
    text = (
        "IDENTIFICATION DIVISION.\nPROGRAM-ID. F.\nDATA DIVISION.\nWORKING-STORAGE SECTION.\n"
        "EXEC SQL INCLUDE SQLCA END-EXEC.\n01 A PIC X.\nPROCEDURE DIVISION.\n"
        "    IF A = 'Y' EXEC SQL COMMIT END-EXEC ELSE EXEC SQL ROLLBACK END-EXEC END-IF.\n"
        "    EXEC SQL WHENEVER NOT FOUND GOTO :DONE END-EXEC EXEC SQL\n"
        "      SELECT 1 INTO :A FROM SYSIBM.SYSDUMMY1 END-EXEC.\nDONE.\n    GOBACK.\n"
    )
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1)]
    generated = generate(text, scan_lines(Path("F.cbl"), lines), "free")
    out = generated.text.splitlines()
    assert out[7].split() == _words(
        "IF A = 'Y' CALL 'SQLRT' USING BY VALUE 2 BY REFERENCE SQLCA ELSE CALL 'SQLRT' "
        "USING BY VALUE 3 BY REFERENCE SQLCA END-IF."
    )
    assert out[8].split() == _words(
        "CONTINUE CALL 'SQLRT' USING BY VALUE 5 BY REFERENCE SQLCA A IF SQLCODE = 100 GO TO DONE END-IF."
    )
    assert out[9] == "" and out[10] == "DONE." and len(out) == len(text.splitlines())
    return generated


def test_free_format_blocks_sharing_a_line_and_the_sentence_period() -> None:
    assert not _free_program().wide


def test_the_free_format_output_is_cobol_that_cobc_takes(tmp_path: Path) -> None:
    cobc = _cobc()
    generated = _free_program()
    (tmp_path / "F.cob").write_text(generated.text)
    (tmp_path / "SQLCA.sqlinc").write_text(generated.copybooks["SQLCA.sqlinc"])
    done = subprocess.run([cobc, "-free", "-fsyntax-only", "-I.", "F.cob"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr


def _cobc() -> str:
    found = shutil.which("cobc")
    if found is None:
        pytest.skip("GnuCOBOL's cobc is not installed")
    return found


def test_generated_programs_compile_link_and_call_the_runtime_in_order(tmp_path: Path) -> None:
    cobc = _cobc()
    sources = []
    for name in ("EMPRPT", "EMPMAINT"):
        generated, scan = generate_file(PROGRAMS / f"{name}.cbl", "fixed")
        assert scan.problems == []
        (tmp_path / f"{name}.cob").write_text(generated.text)
        for book, text in generated.copybooks.items():
            (tmp_path / book).write_text(text)
        sources.append(f"{name}.cob")
    shutil.copy(PROGRAMS / "SQLDRV.cbl", tmp_path)
    shutil.copy(PROGRAMS / "sqlrt_stub.c", tmp_path)
    build = [cobc, "-x", "-o", "drv", "-ftext-column=255", "-I.", "SQLDRV.cbl", *sources, "sqlrt_stub.c"]
    done = subprocess.run(build, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    env = {**os.environ, "SQLRT_LOG": str(tmp_path / "log")}
    ran = subprocess.run(["./drv"], cwd=tmp_path, capture_output=True, text=True, timeout=60, env=env)
    assert ran.returncode == 0, ran.stderr
    # EMPRPT: OPEN, FETCH (+100 ends the loop), CLOSE, SELECT INTO, COMMIT; EMPMAINT: SELECT INTO (+100)
    assert (tmp_path / "log").read_text().split() == ["7", "8", "11", "13", "14", "3"]
    assert "EMPMAINT RC 04" in ran.stdout  # its EVALUATE SQLCODE took WHEN 100


def test_a_continued_literal_keeps_the_margin_at_72_and_lines_are_added_instead(tmp_path: Path) -> None:
    cobc = _cobc()
    head = "       01  WS-TEXT PIC X(50) VALUE 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456"
    text = "\n".join([
        "       IDENTIFICATION DIVISION.", "       PROGRAM-ID. CONTLIT.", "       DATA DIVISION.",
        "       WORKING-STORAGE SECTION.", head, "      -    'XYZ'.",
        "           EXEC SQL INCLUDE SQLCA END-EXEC.", "       PROCEDURE DIVISION.",
        "           EXEC SQL WHENEVER SQLERROR GO TO 9999-ERR END-EXEC.",
        "           EXEC SQL COMMIT END-EXEC.", "           DISPLAY '[' FUNCTION TRIM(WS-TEXT TRAILING) ']'",
        "           GOBACK.", "       9999-ERR.", "           GOBACK.",
    ]) + "\n"  # fmt: skip
    (tmp_path / "CONTLIT.cbl").write_text(text)
    generated, _ = generate_file(tmp_path / "CONTLIT.cbl", "fixed")  # (cobc 3.1 fails a COPY just before one)
    assert not generated.wide and generated.shifted
    assert len(generated.text.splitlines()) == len(text.splitlines()) + 1
    (tmp_path / "CONTLIT.cob").write_text(generated.text)
    for book, book_text in generated.copybooks.items():
        (tmp_path / book).write_text(book_text)
    shutil.copy(PROGRAMS / "sqlrt_stub.c", tmp_path)
    done = subprocess.run([cobc, "-x", "-I.", "CONTLIT.cob", "sqlrt_stub.c"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    ran = subprocess.run(["./CONTLIT"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert ran.stdout.strip() == "[ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456   XYZ]"  # padded to 72, not to 255


def test_a_member_that_includes_another_brings_it_in_too(tmp_path: Path) -> None:
    """ORDALL INCLUDEs ORDHDR and ORDLINE, ORDLINE INCLUDEs ORDQTY: every member is a book of the
    precompiled program; one that is nowhere is the program's refusal, with the member's file:line."""
    (tmp_path / "ORDHDR.cpy").write_text("       01  ORD-HEADER              PIC X(8).\n")
    (tmp_path / "ORDLINE.cpy").write_text(
        "       01  ORD-LINE.\n           05  OL-ITEM             PIC X(6).\n"
        "           EXEC SQL INCLUDE ORDQTY END-EXEC.\n"
    )
    (tmp_path / "ORDQTY.cpy").write_text("           05  OL-QTY              PIC S9(4) COMP.\n")
    program = tmp_path / "ORDALL.cbl"
    program.write_text(
        "       IDENTIFICATION DIVISION.\n       PROGRAM-ID. ORDALL.\n       DATA DIVISION.\n"
        "       WORKING-STORAGE SECTION.\n           EXEC SQL INCLUDE SQLCA END-EXEC.\n"
        "           EXEC SQL INCLUDE ORDHDR END-EXEC.\n           EXEC SQL INCLUDE ORDLINE END-EXEC.\n"
        "       PROCEDURE DIVISION.\n           GOBACK.\n"
    )
    out, scan = generate_file(program, "fixed")
    assert scan.problems == []
    assert sorted(out.copybooks) == ["ORDHDR.sqlinc", "ORDLINE.sqlinc", "ORDQTY.sqlinc", "SQLCA.sqlinc"]
    assert 'COPY "ORDQTY.sqlinc".' in out.copybooks["ORDLINE.sqlinc"]
    assert "OL-QTY" in out.copybooks["ORDQTY.sqlinc"]
    (tmp_path / "ORDQTY.cpy").unlink()
    _, scan = generate_file(program, "fixed")
    assert [(p.where, p.reason.split(":")[0]) for p in scan.problems] == [
        (f"{tmp_path / 'ORDLINE.cpy'}:3", "INCLUDE ORDQTY")
    ]
