"""An application folder's layout, found by what its files hold (no compiler): the program and copybook
folders of tests/cobol/application/ and of a module one level deeper, the folders passed over, the
order copybook folders are searched in, and a flat folder left as it always was."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cobol_mcp.cobol.source.layout import find_layout, kind_of

APPLICATION = Path(__file__).parent / "application"


@pytest.fixture
def app(tmp_path: Path) -> Path:
    return Path(shutil.copytree(APPLICATION, tmp_path / "app"))


def test_program_and_copybook_folders_are_found_by_content(app: Path) -> None:
    layout = find_layout(app)
    assert not layout.flat
    assert layout.programs == {
        app / "cbl": [app / "cbl" / "BRNCHINQ.cbl"],
        app / "loans" / "cbl": [app / "loans" / "cbl" / "LOANPMT"],
    }
    assert layout.copybooks == {app / "cpy": 2, app / "dcl": 1, app / "loans" / "cpy": 1}  # RATEPARM: no ending
    assert [(p.name, why) for p, why in layout.ignored] == [
        ("ddl", "DB2 DDL: run it with `db apply`"),
        ("jcl", "JCL"),
    ]
    assert layout.report() == [
        f"{app}: an application folder, its folders found by what their files hold:",
        "  programs from cbl (1), loans/cbl (1)",
        "  copybooks from cpy (2), dcl (1), loans/cpy (1)",
        "  not COBOL, passed over: ddl (DB2 DDL: run it with `db apply`), jcl (JCL)",
    ]


def test_a_module_finds_its_own_copybooks_first_then_the_shared_ones(app: Path) -> None:
    layout = find_layout(app)
    assert layout.include_for(app / "loans" / "cbl") == (app / "loans" / "cpy", app / "cpy", app / "dcl")
    assert layout.include_for(app / "cbl") == (app / "cpy", app / "dcl", app / "loans" / "cpy")


def test_program_folders_named_in_the_file_are_the_only_ones(app: Path) -> None:
    layout = find_layout(app, programs=(app / "cbl",), copybooks=(app / "cpy",))
    assert layout.named and list(layout.programs) == [app / "cbl"]
    assert set(layout.copybooks) == {app / "cpy", app / "dcl", app / "loans" / "cpy"}
    assert (
        layout.report()[0] == f"{app}: an application folder, its folders named by cobol-mcp.toml's [folder] programs:"
    )


def test_a_folder_with_sources_at_its_top_stays_flat(app: Path) -> None:
    shutil.copy(app / "cbl" / "BRNCHINQ.cbl", app / "BRNCHINQ.cbl")
    layout = find_layout(app)
    assert layout.flat and layout.programs == {} and layout.report() == []


def test_an_empty_folder_says_it_has_no_program(tmp_path: Path) -> None:
    (tmp_path / "jcl").mkdir()
    (tmp_path / "jcl" / "RUNJOB").write_text("//RUNJOB JOB (1),'X'\n//S1 EXEC PGM=IEFBR14\n")
    layout = find_layout(tmp_path)
    assert layout.sources() == []
    assert layout.report()[1:] == [
        "  no COBOL program in it nor in its subfolders (3 levels down)",
        "  not COBOL, passed over: jcl (JCL)",
    ]


@pytest.mark.parametrize(
    ("name", "text", "kind"),
    [
        ("PAYCALC", "       IDENTIFICATION DIVISION.\n       PROGRAM-ID. PAYCALC.\n", "program"),
        ("PAYCALC.CBL", "000100 ID DIVISION.\n000200 PROGRAM-ID. PAYCALC.\n", "program"),
        ("payfree.cob", "IDENTIFICATION DIVISION.\nPROGRAM-ID. payfree.\n", "program"),
        ("PAYREC", "      * THE PAY RECORD\n       01  PAY-REC.\n           05  PR-ID  PIC X(4).\n", "copybook"),
        ("PAYREC.cob", "       01  PAY-REC.\n           05  PR-ID  PIC X(4).\n", "copybook"),
        ("DCLPAY.dcl", "           EXEC SQL DECLARE PAY TABLE (ID CHAR(4)) END-EXEC.\n", "copybook"),
        ("DCLPAY", "           EXEC SQL DECLARE PAY TABLE (ID CHAR(4)) END-EXEC.\n", "copybook"),
        ("PAYJOB", "//PAYJOB JOB (1),'PAY'\n//COB EXEC IGYWCL\n//SYSIN DD *\n       IDENTIFICATION DIVISION.\n"
         "       PROGRAM-ID. INSTREAM.\n", None),
        ("NOTES", "Programs to look at: PROGRAM-ID in PAYCALC.\n", None),
        ("PAYCALC.bms", "PAYMAP DFHMSD TYPE=&SYSPARM\n", None),
        ("COMMENTS", "      * IDENTIFICATION DIVISION.\n      * PROGRAM-ID. OLD.\n       01  X PIC X.\n", "copybook"),
    ],
)  # fmt: skip
def test_a_file_is_a_program_a_copybook_or_not_cobol(tmp_path: Path, name: str, text: str, kind: str | None) -> None:
    (tmp_path / name).write_text(text)
    assert kind_of(tmp_path / name) == kind
