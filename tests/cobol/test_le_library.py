"""The Language Environment services' library and its links in the call folder, where libcob's CALL
looks for programs by name (their behaviour from COBOL: tests/e2e/test_le_services.py)."""

import os
from pathlib import Path

from cobol_mcp.cobol.le import FILES, FOLDER, SERVICES
from cobol_mcp.cobol.prepare.calls import unresolved_calls
from cobol_mcp.cobol.prepare.le_library import build_library, library_path
from cobol_mcp.cobol.prepare.links import call_folder


def test_every_service_is_a_link_to_the_library(cache_dir):
    folder = Path(call_folder([], cache_dir))
    library = build_library(cache_dir)
    assert library is not None and library == library_path(cache_dir)
    assert sorted(p.name for p in folder.iterdir()) == sorted(f"{name}.so" for name in SERVICES)
    assert all(os.path.realpath(folder / f"{name}.so") == os.path.realpath(library) for name in SERVICES)


def test_a_program_of_the_folder_with_a_services_name_wins(cache_dir, tmp_path):
    own = tmp_path / "CEEDAYS.so"
    own.write_bytes(b"")  # stands for the module of a shop's own CEEDAYS
    folder = Path(call_folder([("CEEDAYS", str(own))], cache_dir))
    assert os.path.realpath(folder / "CEEDAYS.so") == os.path.realpath(own)
    assert os.path.realpath(folder / "CEEDATE.so") == os.path.realpath(library_path(cache_dir))


def test_a_changed_source_is_a_new_library(cache_dir, tmp_path):
    copy = tmp_path / "le"
    copy.mkdir()
    for name in FILES:
        (copy / name).write_bytes(Path(FOLDER, name).read_bytes())
    assert library_path(cache_dir, str(copy)) == library_path(cache_dir)
    (copy / "calendar.c").write_text((copy / "calendar.c").read_text() + "\n/* changed */\n")
    assert library_path(cache_dir, str(copy)) != library_path(cache_dir)


def test_check_does_not_warn_about_the_services(tmp_path):
    body = [
        " IDENTIFICATION DIVISION.",
        " PROGRAM-ID. STMTDATE.",
        " DATA DIVISION.",
        " WORKING-STORAGE SECTION.",
        " 01  WS-LILIAN           PIC S9(9) BINARY.",
        " 01  WS-SECONDS          COMP-2.",
        " 01  WS-STAMP            PIC X(17).",
        " 01  FC                  PIC X(12).",
        " PROCEDURE DIVISION.",
        "     CALL 'CEELOCT' USING WS-LILIAN WS-SECONDS WS-STAMP FC",
        "     CALL 'CEE3ABD' USING WS-LILIAN WS-LILIAN",
        "     CALL 'STMTPRNT' USING WS-STAMP",
        "     STOP RUN.",
    ]
    source = tmp_path / "stmtdate.cbl"
    source.write_text("".join(f"{n * 100:06d}{text:<66}STMTDATE\n" for n, text in enumerate(body, 1)))
    assert unresolved_calls(tmp_path) == [
        f"{source}:12: CALL 'STMTPRNT': no program of {tmp_path} has this PROGRAM-ID and it is no libcob "
        "system routine: the call will end in an error"
    ]
