"""Which file a COPY means: a copybook's ending before a program's in every folder, never the program
that holds the COPY nor our translation of it; EXEC SQL INCLUDE members read where they stand; places
in a translation named in the user's file."""

from __future__ import annotations

from pathlib import Path

import pytest

from cobol_mcp.cobol import LinkageError
from cobol_mcp.cobol.source.copybooks import find_copybook, mark_translation, user_paths
from cobol_mcp.cobol.source.lines import load_with_copies
from cobol_mcp.cobol.source.tokens import tokenize

PROGRAM = """\
       IDENTIFICATION DIVISION.
       PROGRAM-ID. {name}.
       DATA DIVISION.
       LINKAGE SECTION.
       01  LK-AREA.
           COPY {name}.
       PROCEDURE DIVISION USING LK-AREA.
           GOBACK.
"""
BOOK = "           03  {item}                 PIC X(4).\n"


def _codes(path: Path, include: tuple[Path, ...] = ()) -> list[str]:
    lines, _, _ = load_with_copies(path, "fixed", include)
    return [line.code.strip() for line in lines if line.code.strip()]


def test_a_copybooks_ending_wins_over_a_programs_in_any_folder(tmp_path: Path) -> None:
    first, second = tmp_path / "src", tmp_path / "copy"
    first.mkdir()
    second.mkdir()
    (first / "CUSTREC.cbl").write_text(BOOK.format(item="FROM-SRC"))
    (second / "custrec.CPY").write_text(BOOK.format(item="FROM-CPY"))
    assert find_copybook("CUSTREC", None, [first, second], "P.cbl:6") == second / "custrec.CPY"
    (second / "custrec.CPY").unlink()
    assert find_copybook("CUSTREC", None, [first, second], "P.cbl:6") == first / "CUSTREC.cbl"


def test_a_copy_never_finds_the_program_holding_it(tmp_path: Path) -> None:
    """PAYCALC.cbl doing COPY PAYCALC, with a copy library whose member has a program's ending too: the
    member, not the program (which would include itself)."""
    src, copy = tmp_path / "src", tmp_path / "copy"
    src.mkdir()
    copy.mkdir()
    program = src / "PAYCALC.cbl"
    program.write_text(PROGRAM.format(name="PAYCALC"))
    (copy / "PAYCALC.cbl").write_text(BOOK.format(item="PC-CODE"))
    assert "03  PC-CODE                 PIC X(4)." in _codes(program)
    _, _, refs = load_with_copies(program, "fixed")
    assert [ref.path for ref in refs] == [copy / "PAYCALC.cbl"]


def test_a_copy_never_finds_the_program_in_its_translation(tmp_path: Path) -> None:
    """The translation of PAYCALC.cbl (in a folder of the build cache, marked with its original) reads
    the copy library's PAYCALC.cpy, neither itself nor the user's PAYCALC.cbl; and the user's program never
    finds the translation (whose name it shares). A place in the translation is named in the user's file."""
    src, copy, cache = tmp_path / "src", tmp_path / "cpy", tmp_path / "cache" / "cics" / "key"
    for folder in (src, copy, cache):
        folder.mkdir(parents=True)
    program = src / "PAYCALC.cbl"
    program.write_text(PROGRAM.format(name="PAYCALC"))
    translated = cache / "PAYCALC.cbl"
    translated.write_text(PROGRAM.format(name="PAYCALC"))
    mark_translation(cache, program)
    (copy / "PAYCALC.cbl").write_text(BOOK.format(item="PC-CODE"))
    assert "03  PC-CODE                 PIC X(4)." in _codes(translated, (src, copy))
    assert "03  PC-CODE                 PIC X(4)." in _codes(program, (cache,))
    assert user_paths(f"{translated}:6: bad; {copy / 'PAYCALC.cbl'}:1: worse") == (
        f"{program.resolve()}:6: bad; {copy / 'PAYCALC.cbl'}:1: worse"
    )


def test_an_sql_include_is_its_members_lines_where_it_stands(tmp_path: Path) -> None:
    """EXEC SQL INCLUDE over three lines under an 01 level: the member's items; INCLUDE SQLCA and a
    DECLARE TABLE among the data items are no items (the tokens the data parser reads skip them)."""
    (tmp_path / "ORDCOMM.cpy").write_text(BOOK.format(item="OC-ORDER") + BOOK.format(item="OC-STATE"))
    program = tmp_path / "ORDINQ.cbl"
    program.write_text(
        "       IDENTIFICATION DIVISION.\n       PROGRAM-ID. ORDINQ.\n       DATA DIVISION.\n"
        "       WORKING-STORAGE SECTION.\n           EXEC SQL INCLUDE SQLCA END-EXEC.\n"
        "           EXEC SQL DECLARE ORDERS TABLE\n             (ORDNO CHAR(4) NOT NULL) END-EXEC.\n"
        "       LINKAGE SECTION.\n       01  LK-ORDER.\n           EXEC SQL\n             INCLUDE ORDCOMM\n"
        "           END-EXEC.\n       PROCEDURE DIVISION USING LK-ORDER.\n           GOBACK.\n"
    )
    lines, _, refs = load_with_copies(program, "fixed")
    assert [(r.name, r.path, r.line, r.include) for r in refs] == [("ORDCOMM", tmp_path / "ORDCOMM.cpy", 10, True)]
    words = [t.text for t in tokenize(lines)]
    linkage = words[words.index("LINKAGE") : words.index("PROCEDURE")]
    assert linkage == ["LINKAGE", "SECTION", ".", "01", "LK-ORDER", ".", "03", "OC-ORDER", "PIC", "X(4)", ".",
                       "03", "OC-STATE", "PIC", "X(4)", "."]  # fmt: skip
    storage = words[words.index("WORKING-STORAGE") : words.index("LINKAGE")]
    assert storage == ["WORKING-STORAGE", "SECTION", "."]


def test_a_copy_of_the_programs_own_name_and_no_book_says_so(tmp_path: Path) -> None:
    program = tmp_path / "PAYCALC.cbl"
    program.write_text(PROGRAM.format(name="PAYCALC"))
    with pytest.raises(LinkageError) as refused:
        load_with_copies(program, "fixed")
    assert str(refused.value).startswith(f"{program}:6: copybook 'PAYCALC' not found but the program itself")
