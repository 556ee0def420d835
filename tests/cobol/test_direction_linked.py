"""Directions of a COMMAREA handed on by EXEC CICS LINK to a program of the same folder: the bytes passed
take the directions the target's own analysis gives its DFHCOMMAREA (see
:mod:`cobol_mcp.cobol.linkage.linked`). A target the analysis cannot know (not in the folder, named by an
item the program changes, a cycle) keeps the conservative rule: every byte read, then maybe changed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cobol_mcp.cobol.linkage.dialect import load_dialect
from cobol_mcp.cobol.linkage.model import Field
from cobol_mcp.cobol.linkage.program import parse_programs
from cobol_mcp.cobol.prepare.cics import translate
from cobol_mcp.cobol.prepare.linked import following, reached_stamp

PROGRAMS = Path(__file__).parent.parent / "cics_programs" / "follow"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    shutil.copytree(PROGRAMS, tmp_path / "src")
    return tmp_path / "src"


def commarea(folder: Path, name: str) -> dict[str, Field]:
    """The COMMAREA's elementary items of program ``name``, translated and analysed as served."""

    def parsed(one: Path) -> tuple[Path, str | None, tuple[Path, ...], int]:
        done = translate(one, "fixed", (), folder.parent / "translated" / one.stem)
        assert done is not None
        return done.source, "fixed", done.include, 255

    source = folder / f"{name}.cbl"
    with following(source, parsed, load_dialect(None).name):
        path, fmt, books, columns = parsed(source)
        spec = parse_programs(path, fmt, books, None, columns)[0]
    assert not isinstance(spec, Exception), spec
    record = next(r for r in spec.records if r.name == "DFHCOMMAREA")
    found: dict[str, Field] = {}

    def walk(f: Field) -> None:
        for c in f.children:
            if c.children:
                walk(c)
            else:
                found[c.name] = c

    walk(record.field)
    return found


def test_what_the_linked_program_writes_is_no_input_of_the_front(folder: Path) -> None:
    items = commarea(folder, "CUSTINQ")  # PROGRAM(CUSTDB), a 77 with a VALUE nothing changes
    # CUSTDB INITIALIZEs CA-CUSTOMER before anything else, but the front returns without the LINK for a
    # zero number: written on some paths only, never read first: not required, reported back
    for name in ("CA-FIRST-NAME", "CA-LAST-NAME", "CA-BALANCE", "CA-LASTCHANGED"):
        assert (items[name].direction, items[name].optional) == ("inout", True), (name, items[name].reason)
        assert items[name].reason.startswith("written by CUSTDB (LINK at line 26) on some paths")
    # CUSTDB reads the number the front checks
    assert (items["CA-CUSTOMER-NUM"].direction, items["CA-CUSTOMER-NUM"].optional) == ("in", False)
    # neither program uses the request id
    assert (items["CA-REQUEST-ID"].direction, items["CA-REQUEST-ID"].optional) == ("in", True)
    # set by the front before the LINK, on every path
    assert items["CA-RETURN-CODE"].direction == "out"


def test_what_the_linked_program_reads_is_an_input_and_what_it_sets_first_an_output(folder: Path) -> None:
    items = commarea(folder, "CUSTADD")  # PROGRAM('CUSTADB'), a literal
    for name in ("CA-FIRST-NAME", "CA-LAST-NAME", "CA-BALANCE"):
        assert (items[name].direction, items[name].optional) == ("in", False), (name, items[name].reason)
        assert items[name].reason == "read by CUSTADB (LINK at line 15), never written"
    for name in ("CA-CUSTOMER-NUM", "CA-LASTCHANGED"):  # set by CUSTADB before it reads them
        assert items[name].direction == "out", (name, items[name].reason)
    assert items["CA-REQUEST-ID"].optional


@pytest.mark.parametrize(
    "name",
    [
        "CUSTFAR",  # CUSTHOST is no program of the folder
        "CUSTVAR",  # WS-PROGRAM may name CUSTODB instead
        "CUSTCYC",  # CUSTLOOP links back to CUSTCYC
    ],
)
def test_a_target_that_cannot_be_known_keeps_every_byte_read_and_changed(folder: Path, name: str) -> None:
    items = commarea(folder, name)
    for item in ("CA-CUSTOMER-NUM", "CA-FIRST-NAME", "CA-LASTCHANGED"):
        assert (items[item].direction, items[item].optional) == ("inout", False), (item, items[item].reason)
        assert "LINK PROGRAM" not in items[item].reason


def test_a_cycle_still_takes_what_the_target_surely_sets_before_it_links_back(folder: Path) -> None:
    items = commarea(folder, "CUSTCYC")
    assert items["CA-RETURN-CODE"].direction == "out", items["CA-RETURN-CODE"].reason
    assert "CUSTLOOP (LINK at line 11)" in items["CA-RETURN-CODE"].reason


def test_a_changed_target_changes_the_callers_cache_key(folder: Path) -> None:
    before = reached_stamp(folder / "CUSTINQ.cbl", "auto", ())
    assert any(s.startswith("CUSTDB.cbl:") for s in before)
    assert not any(s.startswith("CUSTADB.cbl:") for s in before)  # a program it never names
    target = folder / "CUSTDB.cbl"
    target.write_text(target.read_text().replace("INITIALIZE CA-CUSTOMER", "CONTINUE"))
    assert reached_stamp(folder / "CUSTINQ.cbl", "auto", ()) != before


def test_bytes_the_target_holds_in_no_item_are_read_and_changed_as_before(folder: Path) -> None:
    items = commarea(folder, "CUSTKEEP")  # CUSTSAVE knows only the key; its MOVE of the record reads the rest
    num = items["CA-CUSTOMER-NUM"]
    assert (num.direction, num.optional) == ("in", False), num.reason
    assert num.reason == "read by CUSTSAVE (LINK at line 12), never written"
    for name in ("CA-FIRST-NAME", "CA-LAST-NAME", "CA-BALANCE"):  # FILLER to CUSTSAVE
        assert (items[name].direction, items[name].optional) == ("inout", False), (name, items[name].reason)
    # so is CA-LASTCHANGED, inside CUSTSAVE's last FILLER
    assert (items["CA-LASTCHANGED"].direction, items["CA-LASTCHANGED"].optional) == ("inout", False)
