"""COPY names written for another machine: how the base name is read, how a book is found by it, and
the line-for-line copy cobc is given."""

from pathlib import Path

import pytest

from cobol_mcp.cobol import LinkageError
from cobol_mcp.cobol.prepare.cobc import Prepared
from cobol_mcp.cobol.source.cobc_text import rename_copies
from cobol_mcp.cobol.source.copybooks import foreign_name, locate_copybook
from cobol_mcp.cobol.source.lines import load_with_copies


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("C:\\PgmCobols\\FD\\FDCliente.cpy", ("FDCliente.cpy", None)),
        ("DD:SYSLIB(MEMBER)", ("MEMBER", "SYSLIB")),
        ("SYSLIB(MEMBER)", ("MEMBER", "SYSLIB")),
        ("PROD.COPYLIB(CUSTREC)", ("CUSTREC", "PROD.COPYLIB")),
        ("/u/prod/copy/CUSTREC.cpy", ("CUSTREC.cpy", None)),
        ("..\\copy\\x.cbl", ("x.cbl", None)),
        ("C:FDCLI.CPY", ("FDCLI.CPY", None)),
        ("CUSTREC", None),
        ("custrec.cpy", None),
        ("C:\\dir\\", None),
    ],
)
def test_the_base_name_of_a_name_written_for_another_machine(written, read):
    assert foreign_name(written) == read


def test_found_by_base_name_in_any_case_with_or_without_its_ending(tmp_path):
    (tmp_path / "FDCLIENTE.CPY").write_text("       01  X PIC X.\n")
    (tmp_path / "member").write_text("       01  Y PIC X.\n")
    found = locate_copybook("C:\\PgmCobols\\FD\\FDCliente.cbl", None, [tmp_path], "P.cbl:3", tmp_path)
    assert found == (tmp_path / "FDCLIENTE.CPY", "FDCliente.cbl")  # written .cbl, kept as .CPY
    assert locate_copybook("DD:SYSLIB(MEMBER)", None, [tmp_path], "P.cbl:4", tmp_path) == (
        tmp_path / "member",
        "MEMBER",
    )
    assert locate_copybook("FDCliente", None, [tmp_path], "P.cbl:5", tmp_path) == (tmp_path / "FDCLIENTE.CPY", None)


def test_a_relative_path_that_exists_as_written_is_used_without_a_warning(tmp_path):
    (tmp_path / "books").mkdir()
    (tmp_path / "books" / "REC.cpy").write_text("       01  X PIC X.\n")
    assert locate_copybook("books/REC.cpy", None, [], "P.cbl:3", tmp_path) == (tmp_path / "books" / "REC.cpy", None)


def test_a_book_found_nowhere_names_file_line_and_the_name(tmp_path):
    with pytest.raises(LinkageError, match=r'^P\.cbl:8: copybook "C:\\X\\NOPE\.cpy" not found: .*base name NOPE\.cpy'):
        locate_copybook("C:\\X\\NOPE.cpy", None, [tmp_path], "P.cbl:8", tmp_path)


def test_renamed_copies_keep_every_line_and_column():
    text = (
        '000700     COPY "C:\\PgmCobols\\WS\\WSRATES.cpy".                        WSRATES\n'
        "000800 LINKAGE SECTION.\n"
        "000900 COPY\n"
        "001000     'DD:SYSLIB(CUSTPARM)' SUPPRESS.\n"
    )
    done = rename_copies(
        text, [(1, "C:\\PgmCobols\\WS\\WSRATES.cpy", "WSRATES.cpy"), (3, "DD:SYSLIB(CUSTPARM)", "CUSTPARM")]
    )
    lines, before = done.splitlines(), text.splitlines()
    assert len(lines) == len(before) and [len(x) for x in lines] == [len(x) for x in before]
    assert lines[0].startswith('000700     COPY "WSRATES.cpy" ') and lines[0].endswith("WSRATES")
    period = before[0].index('".') + 1
    assert lines[0][period] == "." and lines[0][period:] == before[0][period:]  # what follows keeps its columns
    assert lines[3] == "001000     'CUSTPARM'            SUPPRESS."


def test_cobc_is_given_links_and_copies_with_the_names_replaced(tmp_path):
    program = Path(__file__).parent / "foreign_copy" / "prog" / "CUSTDISC.cbl"
    refs = load_with_copies(program, "fixed")[2]
    assert [ref.base for ref in refs] == ["WSRATES.cpy", "RATEVAL.cpy", "CUSTPARM"]
    work = tmp_path / "work"
    work.mkdir()
    given = Prepared(program, "fixed", (), work)
    assert given.source != program  # a copy, line for line
    copied, original = given.source.read_text().splitlines(), program.read_text().splitlines()
    assert len(copied) == len(original)
    assert copied[6] == '000700     COPY "WSRATES.cpy"                .'
    assert copied[8] == "000900 COPY 'CUSTPARM'           ."
    links = work / "copy"
    assert (links / "CUSTPARM").resolve() == (program.parent.parent / "copy" / "custparm.cpy").resolve()
    rates = (links / "WSRATES.cpy").read_text().splitlines()  # it COPYs a Unix path itself: a copy
    assert not (links / "WSRATES.cpy").is_symlink()
    assert rates[2] == '000300     COPY "RATEVAL.cpy"             .'
