"""Program units: a file holding several programs, and programs nested in others."""

from __future__ import annotations

from pathlib import Path

import pytest

from cobol_mcp.cobol import LinkageError
from cobol_mcp.cobol.source.lines import load
from cobol_mcp.cobol.source.units import program_units

from .conftest import SAMPLES

DATELIB = Path(__file__).parent / "realworld" / "units" / "datelib.cbl"


def numbers(path: Path, first: int, end: int) -> tuple[int, int]:
    """Source line numbers of the first and last line of [first, end)."""
    lines, _, _ = load(path, None)
    return lines[first].lineno, lines[end - 1].lineno


def test_two_programs_and_a_nested_one():
    lines, fmt, _ = load(DATELIB, None)
    assert fmt == "fixed"
    units = program_units(lines)
    assert [u.name for u in units] == ["DTDAYS", "DTADD"]
    days, add = units
    assert numbers(DATELIB, days.start, days.end) == (1, 16)  # the banner above belongs to the first
    assert numbers(DATELIB, add.start, add.end) == (18, 44)
    assert [numbers(DATELIB, a, b) for a, b in add.nested] == [(34, 43)]  # DTFMT, internal to DTADD
    assert days.nested == ()


def test_a_unit_keeps_its_own_lines_only():
    lines, _, _ = load(DATELIB, None)
    add = program_units(lines)[1]
    kept = add.lines(lines)
    assert len(kept) == len(lines) and [k.lineno for k in kept] == [line.lineno for line in lines]
    code = " ".join(k.code for k in kept)
    assert "PROGRAM-ID. DTADD." in code
    assert "DTDAYS" not in code and "PROGRAM-ID. DTFMT" not in code and "LK-INT" not in code


@pytest.mark.parametrize("path", sorted(SAMPLES.glob("*.c[ob][bl]")), ids=lambda p: p.name)
def test_a_file_with_one_program_is_one_unit_spanning_it(path: Path):
    lines, _, _ = load(path, None)
    units = program_units(lines)
    assert len(units) == 1
    assert (units[0].start, units[0].end, units[0].nested) == (0, len(lines), ())


def test_an_end_program_that_ends_nothing_is_named(tmp_path: Path):
    source = tmp_path / "bad.cob"
    source.write_text(
        "       IDENTIFICATION DIVISION.\n       PROGRAM-ID. ALPHA.\n       PROCEDURE DIVISION.\n"
        "           GOBACK.\n       END PROGRAM BETA.\n"
    )
    lines, _, _ = load(source, None)
    with pytest.raises(LinkageError, match=r"bad\.cob:5: END PROGRAM BETA ends no open program"):
        program_units(lines)


def test_names_in_literals_and_quotes(tmp_path: Path):
    source = tmp_path / "q.cob"
    source.write_text(
        "       IDENTIFICATION DIVISION.\n       PROGRAM-ID. 'ALPHA'.\n       PROCEDURE DIVISION.\n"
        "           DISPLAY 'END PROGRAM ALPHA. PROGRAM-ID. GAMMA.'\n           GOBACK.\n"
        "       END PROGRAM 'ALPHA'.\n"
        "       ID DIVISION.\n       PROGRAM-ID. BETA IS INITIAL.\n       PROCEDURE DIVISION.\n"
        "           GOBACK.\n"
    )
    lines, _, _ = load(source, None)
    assert [(u.name, u.start, u.end) for u in program_units(lines)] == [("ALPHA", 0, 6), ("BETA", 6, 10)]
