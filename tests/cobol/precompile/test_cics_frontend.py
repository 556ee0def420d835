"""CICS and DB2 programs as shops write them get past the front end: a COPY book named like its program,
comment-entries with apostrophes, EXEC SQL INCLUDE under the COMMAREA's 01 level, a COMMAREA named
DFHCOMMAREA by COPY REPLACING; and a refusal names the user's file and line, never the translation in
the build cache, and the program a COPY book's error refuses."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pytest import MonkeyPatch

from cobol_mcp.cobol import LinkageError
from cobol_mcp.cobol.linkage.model import Field
from cobol_mcp.cobol.linkage.program import parse_programs
from cobol_mcp.cobol.precompile.cics_generate import commarea_defined, generate_cics_file
from cobol_mcp.cobol.precompile.generate import generate_file
from cobol_mcp.cobol.prepare.programs import CompiledProgram, scan_folder
from cobol_mcp.cobol.prepare.refusal import needs_precompiler
from cobol_mcp.cobol.source.copybooks import mark_translation
from cobol_mcp.cobol.source.lines import read_lines

from ..conftest import needs_cobc

PROGRAMS = Path(__file__).parents[2] / "cics_programs"


def _served(folder: Path, cache: Path) -> tuple[dict[str, CompiledProgram], list[str]]:
    scan = scan_folder(folder, cache_dir=cache, jobs=1)
    return {p.spec.tool_name: p for p in scan.programs}, scan.errors


def _names(record: Field) -> list[str]:
    return [child.name for child in record.children]


@needs_cobc
def test_a_copy_book_named_like_its_program_is_the_copy_librarys(tmp_path: Path, monkeypatch: MonkeyPatch) -> None:
    """CUSTINQ.cbl does COPY CUSTINQ for ../cpy/CUSTINQ.cpy: neither the program itself nor its
    translation in the build cache (same name, same folder search) is the book, for the parser and for
    cobc, even run from the programs folder (where cobc looks first)."""
    shutil.copytree(PROGRAMS / "samename", tmp_path / "app")
    monkeypatch.chdir(tmp_path / "app" / "cbl")
    served, errors = _served(tmp_path / "app" / "cbl", tmp_path / "cache")
    assert errors == []
    program = served["custinq"]
    assert program.cics is not None and program.module.exists()
    commarea = program.spec.records[1]
    assert commarea.name == "DFHCOMMAREA" and commarea.size == 6 + 2 + 10 + 30 + 8
    assert _names(commarea.field) == ["CI-REQUEST-ID", "CI-RETURN-CODE", "CI-CUSTOMER-NUM", "CI-CUSTOMER-NAME",
                                      "CI-POSTCODE"]  # fmt: skip
    book = (tmp_path / "app" / "cpy" / "CUSTINQ.cpy").resolve()
    assert book in program.spec.copybooks  # (with the translator's own: DFHEIBLK.cpy, CUSTINQ.cicsws)
    assert not [p for p in program.spec.copybooks if p.name == "CUSTINQ.cbl"]


@needs_cobc
def test_comment_entries_with_apostrophes_leave_every_command_translated(tmp_path: Path) -> None:
    """AUTHOR. J. O'Brien., an INSTALLATION over two lines, REMARKS naming EXEC CICS: no open literal,
    no command read in them; cobc compiles the program as it stands."""
    shutil.copytree(PROGRAMS / "comments", tmp_path / "app")
    served, errors = _served(tmp_path / "app", tmp_path / "cache")
    assert errors == []
    program = served["acctnote"]
    assert program.cics is not None and program.cics.commands == ("ASKTIME", "RETURN")
    assert program.module.exists()
    assert _names(program.spec.records[1].field) == ["AN-ACCOUNT", "AN-RETURN-CODE", "AN-NOTE", "AN-ASKED-AT"]
    assert program.spec.description.startswith("ACCTNOTE - THE STANDING NOTE OF AN ACCOUNT")


@needs_cobc
def test_an_sql_include_under_the_commarea_is_its_items(tmp_path: Path) -> None:
    """DEPTINQ (EXEC CICS and EXEC SQL) INCLUDEs its COMMAREA's items under 01 DFHCOMMAREA and a DCLGEN
    member (EXEC SQL DECLARE TABLE and its record) in WORKING-STORAGE; DEPTBUDG (EXEC SQL only) INCLUDEs
    the same items under its parameter's 01 level."""
    shutil.copytree(PROGRAMS / "sqlinclude", tmp_path / "app")
    served, errors = _served(tmp_path / "app", tmp_path / "cache")
    assert errors == []
    items = ["DC-DEPTNO", "DC-RETURN-CODE", "DC-DEPTNAME", "DC-BUDGET"]
    inquiry = served["deptinq"]
    assert inquiry.cics is not None and inquiry.sql is not None and inquiry.module.exists()
    assert [r.name for r in inquiry.spec.records] == ["DFHEIBLK", "DFHCOMMAREA"]
    assert _names(inquiry.spec.records[1].field) == items and inquiry.spec.records[1].size == 3 + 2 + 36 + 15
    budget = served["deptbudg"]
    assert budget.cics is None and budget.sql is not None and budget.module.exists()
    assert [r.name for r in budget.spec.records] == ["DB-AREA"] and _names(budget.spec.records[0].field) == items
    member = (tmp_path / "app" / "copybooks" / "DEPTCOMM.cpy").resolve()
    assert member in budget.spec.copybooks and member in inquiry.spec.copybooks


def test_the_translations_compose_in_either_order(tmp_path: Path) -> None:
    """DEPTINQ precompiled first and then translated has the COMMAREA it has translated first and then
    precompiled (the order the build takes): the translator finds DFHCOMMAREA with the INCLUDE member in
    either text, and the parser reads the same items from both."""
    source = PROGRAMS / "sqlinclude" / "DEPTINQ.cbl"
    books = (PROGRAMS / "sqlinclude" / "copybooks",)
    orders = {}
    for order in ("sql-first", "cics-first"):
        first, second = tmp_path / order / "1", tmp_path / order / "2"
        for folder in (first, second):
            folder.mkdir(parents=True)
        step = generate_file(source, "fixed", books)[0] if order == "sql-first" else generate_cics_file(
            source, "fixed", books)[0]  # fmt: skip
        (first / source.name).write_text(step.text)
        for name, text in step.copybooks.items():
            (first / name).write_text(text)
        mark_translation(first, source)
        include = (first, *books)
        done = generate_cics_file(first / source.name, "fixed", include)[0] if order == "sql-first" else (
            generate_file(first / source.name, "fixed", include, step.wide)[0])  # fmt: skip
        (second / source.name).write_text(done.text)
        for name, text in done.copybooks.items():
            (second / name).write_text(text)
        spec = parse_programs(second / source.name, "fixed", (second, first, *books), columns=255)[0]
        assert not isinstance(spec, Exception), spec
        code = " ".join(line.code for line in read_lines(second / source.name, "fixed", 255)).upper()
        assert "EXEC" not in code.replace("END-EXEC", "")  # nothing left for cobc to refuse
        orders[order] = [(r.name, _names(r.field), r.size) for r in spec.records]
    assert orders["sql-first"] == orders["cics-first"]
    assert orders["sql-first"][1] == ("DFHCOMMAREA", ["DC-DEPTNO", "DC-RETURN-CODE", "DC-DEPTNAME", "DC-BUDGET"], 56)


@needs_cobc
def test_a_commarea_named_by_copy_replacing_is_the_one_commarea(tmp_path: Path) -> None:
    """COPY ACCTCA REPLACING ==ACCT-COMMAREA== BY ==DFHCOMMAREA== defines the COMMAREA: the translator
    adds no second one."""
    shutil.copytree(PROGRAMS / "replcomm", tmp_path / "app")
    served, errors = _served(tmp_path / "app", tmp_path / "cache")
    assert errors == []
    program = served["acctupd"]
    assert program.module.exists()
    assert [r.name for r in program.spec.records] == ["DFHEIBLK", "DFHCOMMAREA"]
    assert _names(program.spec.records[1].field) == ["AC-ACCOUNT", "AC-RETURN-CODE", "AC-BALANCE", "AC-AMOUNT"]


def test_a_commarea_is_looked_for_in_the_text_cobc_reads(tmp_path: Path) -> None:
    folder = PROGRAMS / "replcomm"
    assert commarea_defined(folder / "ACCTUPD.cbl", "fixed")
    commented = tmp_path / "NOCOMM.cbl"
    commented.write_text(
        "       IDENTIFICATION DIVISION.\n       PROGRAM-ID. NOCOMM.\n       DATA DIVISION.\n"
        "       LINKAGE SECTION.\n      *01  DFHCOMMAREA.\n      *    03  OLD-ITEM PIC X.\n"
        "       PROCEDURE DIVISION.\n           EXEC CICS RETURN END-EXEC.\n"
    )
    assert not commarea_defined(commented, "fixed")  # a commented-out one is none: the translator adds one
    text = generate_cics_file(commented, "fixed")[0].text
    assert "01 DFHCOMMAREA PIC X." in " ".join(text.split())


@needs_cobc
def test_a_refusal_names_the_users_file_and_line_and_the_program_once(tmp_path: Path) -> None:
    """CLMINQ's COPY book has a misspelt USAGE: the message names the book's line and CLMINQ. CLMUPD's own
    COMMAREA has one: the message names CLMUPD.cbl's line, not its translation in the build cache."""
    shutil.copytree(PROGRAMS / "badbook", tmp_path / "app")
    app = (tmp_path / "app").resolve()
    cache = tmp_path / "cache"
    served, errors = _served(app, cache)
    assert served == {}
    assert sorted(errors) == sorted([
        f"{app / 'copybooks' / 'CLMCOMM.cpy'}:6: unexpected 'PACKED-DECIMEL' in the description of CL-AMOUNT "
        f"(a COPY book of {app / 'CLMINQ.cbl'}, which is not served)",
        f"{app / 'CLMUPD.cbl'}:15: unexpected 'COMPUTATONAL-3' in the description of CU-PAID",
    ])  # fmt: skip
    assert not any(str(cache) in error for error in errors)


BATCH = """\
       IDENTIFICATION DIVISION.
       PROGRAM-ID. RATECALC.
       REMARKS. WAS A CICS PROGRAM: EXEC CICS LINK BECAME A CALL.
      * EXEC CICS LINK PROGRAM('RATETAB') COMMAREA(LK-RATE) END-EXEC
       DATA DIVISION.
       LINKAGE SECTION.
       01  LK-RATE                     PIC 9V9(4).
       PROCEDURE DIVISION USING LK-RATE.
           DISPLAY 'NO EXEC CICS HERE'
           MOVE 0.0425 TO LK-RATE
           GOBACK.
"""


@needs_cobc
def test_exec_cics_in_comments_and_literals_makes_no_cics_program(tmp_path: Path) -> None:
    """EXEC CICS in a comment-entry, a comment line and a literal: RATECALC keeps its own parameter, with
    no EIB or COMMAREA added."""
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "RATECALC.cbl").write_text(BATCH)
    served, errors = _served(tmp_path / "app", tmp_path / "cache")
    assert errors == []
    program = served["ratecalc"]
    assert program.cics is None and [r.name for r in program.spec.records] == ["LK-RATE"]


def test_an_include_in_a_copy_book_is_refused_where_it_is(tmp_path: Path) -> None:
    """The precompiler reads the program and its INCLUDE members, not its COPY books: an INCLUDE there
    is refused with the book's file:line (an INCLUDE in a member is read)."""
    shutil.copytree(PROGRAMS / "sqlinclude", tmp_path / "app")
    books = tmp_path / "app" / "copybooks"
    (books / "DEPTAREA.cpy").write_text("       01  DB-AREA.\n           EXEC SQL INCLUDE DEPTCOMM END-EXEC.\n")
    program = tmp_path / "app" / "DEPTBUDG.cbl"
    text = program.read_text().replace("       01  DB-AREA.\n           EXEC SQL INCLUDE DEPTCOMM END-EXEC.\n",
                                       "           COPY DEPTAREA.\n")  # fmt: skip
    program.write_text(text)
    with pytest.raises(LinkageError) as refused:
        needs_precompiler(program, "fixed", ())
    assert str(refused.value).startswith(f"{books / 'DEPTAREA.cpy'}:2: EXEC SQL in a COPY book is not precompiled")
    assert needs_precompiler(PROGRAMS / "sqlinclude" / "DEPTBUDG.cbl", "fixed", ()) == []
