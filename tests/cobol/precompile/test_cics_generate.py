"""The CICS translator's output: each command a CALL of CICSRT on its own lines, the EIB and COMMAREA
as parameters, HANDLE CONDITION as GO TO … DEPENDING ON; compiled, linked and run with cobc against a
C stand-in for the runtime."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from cobol_mcp.cobol.precompile.cics import scan_cics_lines
from cobol_mcp.cobol.precompile.cics_generate import CicsGenerated, generate_cics, generate_cics_file

PROGRAMS = Path(__file__).parents[2] / "cics_programs"
APPLICATION = ("CUSTFRNT", "CUSTVSAM", "ERRLOG")


def _cobc() -> str:
    found = shutil.which("cobc")
    if found is None:
        pytest.skip("GnuCOBOL's cobc is not installed")
    return found


def _w(text: str) -> list[str]:
    return text.split()


def _code(text: str) -> list[str]:
    return [line[7:].strip() for line in text.splitlines()]


def _write(generated: CicsGenerated, folder: Path, name: str) -> None:
    (folder / f"{name}.cob").write_text(generated.text)
    for book, text in generated.copybooks.items():
        (folder / book).write_text(text)


def test_each_command_is_replaced_on_its_own_lines() -> None:
    generated, scan = generate_cics_file(PROGRAMS / "CUSTVSAM.cbl", "fixed")
    source = (PROGRAMS / "CUSTVSAM.cbl").read_text().splitlines()
    lines = generated.text.splitlines()
    assert scan.problems == [] and len(lines) == len(source) and not generated.shifted
    assert not any(re.search(r"EXEC\s+CICS|END-EXEC", line) for line in lines)
    code = _code(generated.text)
    assert code[17] == 'LINKAGE SECTION. COPY "DFHEIBLK.cpy".'  # CUSTCOMM has the DFHCOMMAREA
    assert code[10] == 'WORKING-STORAGE SECTION. COPY "CUSTVSAM.cicsws".'
    assert code[19] == "PROCEDURE DIVISION USING DFHEIBLK DFHCOMMAREA ."
    read = " ".join(code[45:49]).split()
    labels = _w("GO TO 8100-NOT-FOUND 8200-DUPLICATE 8900-FAILED DEPENDING ON DFHEIGDI")
    assert read == [
        *_w("MOVE WS-FILE TO DFHV4-1 CALL 'CICSRT' USING BY VALUE 4 BY REFERENCE DFHEIBLK DFHD4"),
        *_w("DFHV4-1 CUSTOMER-RECORD WS-KEY"), *labels, *_w("IF DFHEIGDI < 0 GOBACK END-IF"),
    ]  # fmt: skip
    assert code[49] == "PERFORM 7000-RECORD-TO-COMMAREA."  # the line after the block is the user's own
    update = " ".join(code[65:69]).split()
    assert update[update.index("DFHV6-5") + 1 : update.index("GO")] == _w("MOVE DFHV6-5 TO WS-RESP")
    for k, (before, after) in enumerate(zip(source, lines, strict=True)):
        if not any(c.line - 1 <= k <= c.end_line - 1 for c in scan.commands) and k not in (10, 17, 19):
            assert after.rstrip() == before[:72].replace(
                "DFHRESP(NORMAL)", "0".ljust(15)).replace("DFHRESP(NOTFND)", "13".ljust(15)).rstrip(), k  # fmt: skip


def test_descriptors_and_items_of_the_working_storage_book() -> None:
    generated, _ = generate_cics_file(PROGRAMS / "CUSTFRNT.cbl", "fixed")
    book = generated.copybooks["CUSTFRNT.cicsws"]
    assert all(len(line) <= 72 for line in book.splitlines())
    assert "DFHEIB2" not in book  # LINK runs its program inside the CALL: no items for it here
    values = "".join(re.findall(r"VALUE '([^']*)'", book.split("01  DFHD4.")[1].split("01  ")[0]))
    assert values == "82;GET COUNTER;COUNTER();POOL();VALUE();RESP()"
    assert "01  DFHV4-3 PIC S9(18) COMP-5 VALUE 0." in book and "01  DFHV4-1 PIC X(16)." in book
    code = " ".join(_code(generated.text)[81:85]).split()  # the counter's name and pool pass as PIC X items
    assert code[:8] == _w("MOVE 'CUSTNO' TO DFHV4-1 MOVE 'CUSTPOOL' TO DFHV4-2")
    assert set(generated.copybooks) == {"CUSTFRNT.cicsws", "DFHEIBLK.cpy", "DFHAID.cpy", "DFHBMSCA.cpy"}


def _free_program() -> CicsGenerated:
    text = (
        "IDENTIFICATION DIVISION.\nPROGRAM-ID. FREECICS.\nPROCEDURE DIVISION.\n"
        "    EXEC CICS HANDLE CONDITION QIDERR(NO-QUEUE) END-EXEC\n"
        "    EXEC CICS DELETEQ TS QNAME('WORK') END-EXEC\n    EXEC CICS RETURN END-EXEC.\n"
        "NO-QUEUE.\n    IF EIBRESP = DFHRESP(QIDERR) EXEC CICS RETURN END-EXEC END-IF.\n"
    )
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1)]
    generated = generate_cics(text, scan_cics_lines(Path("F.cbl"), lines), "free", "FREECICS")
    out = generated.text.splitlines()
    assert len(out) == len(text.splitlines())
    header = (
        'DATA DIVISION. WORKING-STORAGE SECTION. COPY "FREECICS.cicsws". LINKAGE SECTION. '
        'COPY "DFHEIBLK.cpy". 01 DFHCOMMAREA PIC X. PROCEDURE DIVISION USING DFHEIBLK DFHCOMMAREA .'
    )
    assert out[2].split() == _w(header)  # a program without them gets its sections, and a 1-byte DFHCOMMAREA
    assert out[7].startswith("    IF EIBRESP = 44") and out[7].count("GOBACK") == 1
    return generated


def test_a_free_format_program_gets_its_sections_and_cobc_takes_it(tmp_path: Path) -> None:
    cobc = _cobc()
    _write(_free_program(), tmp_path, "F")
    done = subprocess.run([cobc, "-free", "-fsyntax-only", "-I.", "F.cob"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr


def _build(tmp_path: Path, programs: tuple[str, ...] = APPLICATION) -> Path:
    cobc = _cobc()
    for name in programs:
        generated, scan = generate_cics_file(PROGRAMS / f"{name}.cbl", "fixed")
        assert scan.problems == []
        _write(generated, tmp_path, name)
    for name in ("CICSDRV.cbl", "cicsrt_stub.c"):
        shutil.copy(PROGRAMS / name, tmp_path)
    build = [cobc, "-x", "-o", "drv", "-ftext-column=255", "-I.", f"-I{PROGRAMS / 'copybooks'}", "CICSDRV.cbl",
             *(f"{name}.cob" for name in programs), "cicsrt_stub.c"]  # fmt: skip
    done = subprocess.run(build, cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return tmp_path / "drv"


def _run(program: Path, **env: str) -> tuple[list[str], list[str]]:
    log = program.parent / "log"
    log.unlink(missing_ok=True)
    ran = subprocess.run([str(program)], cwd=program.parent, capture_output=True, text=True, timeout=120,
                         env={**os.environ, "CICSRT_LOG": str(log), **env})  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    return [line.rstrip() for line in ran.stdout.splitlines()], log.read_text().splitlines()


def test_the_application_runs_handle_condition_and_resp_against_the_stub(tmp_path: Path) -> None:
    out, log = _run(_build(tmp_path), CICSRT_NOTFND="READ", CICSRT_BROWSE="3")
    assert out == [
        "INQCUS RC 04 RESP 0013 CUSTOMER NOT FOUND",  # READ raised NOTFND: HANDLE CONDITION's label
        "UPDCUS RC 04 RESP 0013 CUSTOMER NOT FOUND FOR UPDATE",  # READ UPDATE RESP(WS-RESP) = DFHRESP(NOTFND)
        "ADDCUS RC 00 RESP 0000",
        "NEW CUSTOMER 00001000",  # GET COUNTER: NOTFND, so DEFINE COUNTER, GET again
        "BRWCUS RC 00 RESP 0000",
        "BROWSED 03 FIRST 00000101",  # READNEXT until ENDFILE
        "XXXCUS RC 12 RESP 0000 UNKNOWN REQUEST TYPE",
    ]
    commands = [line.split(";")[1] if ";" in line else line for line in log]
    inquire = log[: log.index("2 returned from CUSTVSAM") + 1]
    assert [line.split(";")[0] for line in inquire] == ["2 53", "1 22", "4 46", "12 142", "2 returned from CUSTVSAM"]
    # CUSTVSAM's command 12 is the RETURN of 8100-NOT-FOUND: the READ went to the handler, not on
    assert commands.count("READNEXT") == 4 and commands.count("GET COUNTER") == 2
    queue = next(line.rstrip() for line in log if line.startswith("TS "))
    assert queue.startswith("TS CUSTERRS        |") and queue.endswith("CUSTFRNT 0012 UNKNOWN REQUEST TYPE")
    assert "ABEND" not in " ".join(log)


def test_an_unhandled_condition_ends_the_program_and_its_linker_as_an_abend(tmp_path: Path) -> None:
    out, log = _run(_build(tmp_path), CICSRT_NOTFND="ASKTIME")  # ERRLOG's ASKTIME: no RESP, no HANDLE
    assert out[-1] == "XXXCUS RC 12 RESP 0000 UNKNOWN REQUEST TYPE"
    logger = log[log.index("7 107;LINK;PROGRAM();COMMAREA();NOHANDLE") :]
    assert logger == ["7 107;LINK;PROGRAM();COMMAREA();NOHANDLE", "1 30;ASKTIME;ABSTIME()", "ABEND RESP 13",
                      "7 returned from ERRLOG"]  # fmt: skip
    # ERRLOG ended at once (no FORMATTIME, no WRITEQ), and CUSTFRNT after its LINK (no RETURN of its own)


def test_a_link_to_a_program_that_is_not_there_answers_pgmiderr(tmp_path: Path) -> None:
    out, log = _run(_build(tmp_path, ("CUSTFRNT", "ERRLOG")))  # no CUSTVSAM
    assert out[0] == "INQCUS RC 16 RESP 0027 BACK END NOT AVAILABLE"  # LINK ... RESP(WS-RESP): PGMIDERR
    assert "2 returned from CUSTVSAM" not in log and "7 returned from ERRLOG" in log


def test_the_other_command_forms_become_cobol_that_cobc_takes(tmp_path: Path) -> None:
    cobc = _cobc()
    generated, scan = generate_cics_file(PROGRAMS / "CICSMISC.cbl", "fixed")
    assert scan.problems == [] and not generated.shifted
    assert len(generated.text.splitlines()) == len((PROGRAMS / "CICSMISC.cbl").read_text().splitlines())
    code = _code(generated.text)
    getmain = " ".join(code[34:37]).split()
    assert getmain[getmain.index("GO") - 6 : getmain.index("GO")] == _w("SET ADDRESS OF LS-WORK-AREA TO DFHV5-1")
    assert code[53].endswith("GO TO 9000-ABENDED DEPENDING ON DFHEIGDI GOBACK.")  # XCTL ends the program
    assert "05  FILLER PIC X(14) VALUE 'A LITERAL LINE'." in generated.copybooks["CICSMISC.cicsws"]
    _write(generated, tmp_path, "CICSMISC")
    done = subprocess.run([cobc, "-fsyntax-only", "-ftext-column=255", "-I.", "CICSMISC.cob"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr


def test_sequence_numbers_and_a_using_the_program_wrote_itself(tmp_path: Path) -> None:
    cobc = _cobc()
    text = "\n".join([
        "000100 IDENTIFICATION DIVISION.                                         SEQPGM01",
        "000200 PROGRAM-ID. SEQPGM.                                              SEQPGM02",
        "000300 DATA DIVISION.                                                   SEQPGM03",
        "000400 LINKAGE SECTION.                                                 SEQPGM04",
        "000500 01  DFHCOMMAREA.                                                 SEQPGM05",
        "000600     05  CA-KEY              PIC X(8).                            SEQPGM06",
        "000700 PROCEDURE DIVISION USING DFHCOMMAREA.                            SEQPGM07",
        "000800     EXEC CICS DELETEQ TS QUEUE(CA-KEY) END-EXEC                  SEQPGM08",
        "000900     EXEC CICS RETURN END-EXEC.                                   SEQPGM09",
    ]) + "\n"  # fmt: skip
    (tmp_path / "SEQPGM.cbl").write_text(text)
    generated, scan = generate_cics_file(tmp_path / "SEQPGM.cbl", "fixed")
    assert scan.problems == []
    code = _code(generated.text)
    # no WORKING-STORAGE: it comes before LINKAGE, on its line; the program's DFHCOMMAREA stays the only one
    assert code[3] == 'WORKING-STORAGE SECTION. COPY "SEQPGM.cicsws". LINKAGE SECTION. COPY "DFHEIBLK.cpy".'
    assert code[6] == "PROCEDURE DIVISION USING DFHEIBLK DFHCOMMAREA."
    assert "SEQPGM0" not in generated.text  # the identification area never becomes code
    _write(generated, tmp_path, "SEQPGM")
    done = subprocess.run([cobc, "-fsyntax-only", "-ftext-column=255", "-I.", "SEQPGM.cob"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr


def test_a_program_without_linkage_keeps_procedure_division_first_on_its_line(tmp_path: Path) -> None:
    cobc = _cobc()
    from cobol_mcp.cobol.linkage.program import parse_program

    generated, scan = generate_cics_file(PROGRAMS / "channel" / "CHNFRNT.cbl", "fixed")
    assert scan.problems == [] and not generated.shifted
    code = _code(generated.text)
    at = next(k for k, line in enumerate(code) if "PROCEDURE DIVISION" in line)
    assert code[at] == "PROCEDURE DIVISION USING DFHEIBLK DFHCOMMAREA ."  # not after the LINKAGE SECTION's words
    assert code[at - 1].endswith('PIC X(16). COPY "DFHLNKC.cpy".')  # after the data's last line, within column 72
    assert max(len(line) for line in generated.text.splitlines()[: at + 1]) <= 72
    assert "01  DFHCOMMAREA PIC X." in generated.copybooks["DFHLNKC.cpy"]
    _write(generated, tmp_path, "CHNFRNT")
    for book in ("CHNERR", "CHNREQ", "CHNRSP", "CHNPRB"):
        shutil.copy(PROGRAMS / "channel" / f"{book}.cpy", tmp_path)
    done = subprocess.run([cobc, "-fsyntax-only", "-ftext-column=255", "-I.", "CHNFRNT.cob"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    spec = parse_program(tmp_path / "CHNFRNT.cob", "fixed", (tmp_path,))
    assert [(r.name, r.size) for r in spec.records] == [("DFHEIBLK", 85), ("DFHCOMMAREA", 1)]


def test_storage_enqueue_and_interval_commands_become_cobol_that_cobc_takes(tmp_path: Path) -> None:
    cobc = _cobc()
    source = PROGRAMS / "task" / "CUSTTASK.cbl"
    generated, scan = generate_cics_file(source, "fixed", (PROGRAMS / "task",))
    assert scan.problems == [] and not generated.shifted
    code = " ".join(_code(generated.text)).split()
    address = next(c for c in scan.commands if c.name == "ADDRESS").number
    commarea, cwa, eib = (f"DFHV{address}-{k}" for k in (1, 2, 3))  # in the table's order
    call = code.index(f"DFHD{address}")  # ADDRESS: EIB's and COMMAREA's pointers set before the CALL
    assert code[call - 21 : call - 9] == _w(
        f"SET {commarea} TO ADDRESS OF DFHCOMMAREA SET {eib} TO ADDRESS OF DFHEIBLK"
    )
    assert code[call + 1 : call + 16] == _w(
        f"{commarea} {cwa} {eib} SET WS-CA-PTR TO {commarea} SET WS-CWA-PTR TO {cwa} SET WS-EIB-PTR TO {eib}"
    )
    getmain = next(
        c for c in scan.commands if c.name == "GETMAIN"
    ).number  # SET(ADDRESS OF LS-WORK-AREA) FLENGTH(WS-FLEN) INITIMG(WS-FILL)
    call = code.index(f"DFHD{getmain}")
    assert code[call + 1 : call + 10] == _w(
        f"DFHV{getmain}-1 DFHV{getmain}-2 DFHV{getmain}-3 SET ADDRESS OF LS-WORK-AREA TO DFHV{getmain}-1"
    )
    book = generated.copybooks["CUSTTASK.cicsws"]
    assert f"01  DFHV{getmain}-3 PIC X(1)." in book  # INITIMG: one byte, MOVEd from WS-FILL
    exit_label = scan.labels.index("DFH-ABEND-EXIT") + 1  # HANDLE ABEND PROGRAM: a paragraph LINKs to it
    handle = next(c for c in scan.commands if c.name == "HANDLE ABEND").number
    values = "".join(re.findall(r"VALUE '([^']*)'", book.split(f"01  DFHD{handle}.")[1].split("01  ")[0]))
    assert values == f"{scan.commands[handle - 1].line};HANDLE ABEND;PROGRAM();EXIT({exit_label})"
    n = len(scan.commands) + 1  # the paragraph's LINK: one command more than the program wrote
    assert _code(generated.text)[-4:] == ["DFH-ABEND-EXIT.", f"CALL 'CICSRT' USING BY VALUE {n}",
                                          f"BY REFERENCE DFHEIBLK DFHD{n} DFHABPGM", "GOBACK."]  # fmt: skip
    _write(generated, tmp_path, "CUSTTASK")
    shutil.copy(PROGRAMS / "task" / "TASKCOMM.cpy", tmp_path)
    wide = ["-ftext-column=255"] if generated.wide else []
    done = subprocess.run([cobc, "-fsyntax-only", *wide, "-I.", "CUSTTASK.cob"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
