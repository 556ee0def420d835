"""Program units: a file holding several programs, and programs nested in others."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest

from cobol_mcp.cobol import LinkageError
from cobol_mcp.cobol.linkage.model import ProgramSpec
from cobol_mcp.cobol.linkage.program import parse_programs
from cobol_mcp.cobol.source.lines import load
from cobol_mcp.cobol.source.units import program_units
from cobol_mcp.options import Options
from cobol_mcp.server import build_server

from .conftest import SAMPLES, needs_cobc
from .conftest import call_tool as call

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


@needs_cobc
def test_each_outermost_program_of_a_file_is_a_tool_and_nested_ones_stay_inside(tmp_path: Path):
    server = build_server(Options(programs=[("dates", str(DATELIB.parent))], bundled=False, cache_dir=tmp_path))
    try:
        assert server.errors == []
        assert [t["name"] for t in server.catalog.definitions()] == ["dtdays", "dtadd"]  # not dtfmt
        for a, b in [(20240101, 20240301), (20231231, 20230101), (19991231, 20000101)]:
            days = call(server, "dtdays", {"dt_from": a, "dt_to": b})["structuredContent"]["dt_days"]
            assert days == (date(b // 10000, b // 100 % 100, b % 100) - date(a // 10000, a // 100 % 100, a % 100)).days
        for start, add in [(20240131, 30), (20240301, -1), (20231231, 366)]:
            out = call(server, "dtadd", {"da_date": start, "da_days": add})["structuredContent"]
            moved = date(start // 10000, start // 100 % 100, start % 100) + timedelta(days=add)
            assert out["da_result"] == int(moved.strftime("%Y%m%d"))  # computed by the nested DTFMT
    finally:
        server.runtime.close()


def test_a_broken_program_does_not_take_its_neighbours_down(tmp_path: Path):
    text = DATELIB.read_text().replace(
        "01  DT-DAYS                 PIC S9(7).", "01  DT-DAYS OBJECT REFERENCE.         "
    )
    source = tmp_path / "datelib.cbl"
    source.write_text(text)
    found = parse_programs(source)
    assert isinstance(found[0], LinkageError) and "OBJECT" in str(found[0]) and str(found[0]).startswith(f"{source}:")
    assert isinstance(found[1], ProgramSpec) and found[1].program_id == "DTADD"


ACCTUTIL = Path(__file__).parent / "realworld" / "units" / "entry" / "acctutil.cbl"


def test_an_entry_point_is_a_tool_of_its_own():
    main, fee = parse_programs(ACCTUTIL)
    assert isinstance(main, ProgramSpec) and isinstance(fee, ProgramSpec)
    assert (main.tool_name, [r.name for r in main.records]) == ("acctutil", ["INT-REQUEST", "INT-RESULT"])
    assert (fee.tool_name, fee.entry_symbol, [r.name for r in fee.records]) == (
        "acctfee",
        "ACCTFEE",
        ["FEE-INPUT", "FEE-OUTPUT"],
    )
    assert fee.description == "MONTHLY ACCOUNT FEE: 0.25 A TRANSACTION PAST THE FIRST 20, NONE ON THE PREMIUM PACKAGE."
    assert [r.direction for r in fee.records] == ["in", "out"]  # the names decide: the flow is not followed
    assert all("ENTRY ACCTFEE is not followed" in r.field.children[0].reason for r in fee.records)


@needs_cobc
def test_calls_through_an_entry_point(tmp_path: Path):
    server = build_server(Options(programs=[("acct", str(ACCTUTIL.parent))], bundled=False, cache_dir=tmp_path))
    try:
        assert server.errors == []
        assert [t["name"] for t in server.catalog.definitions()] == ["acctutil", "acctfee"]
        for count, package, fee in [
            (25, "standard", "1.25"),
            (20, "standard", "0"),
            (140, "standard", "30"),
            (90, "premium", "0"),
        ]:
            out = call(server, "acctfee", {"fi_txn_count": count, "fi_package": f"fi_{package}_pkg"})[
                "structuredContent"
            ]
            assert Decimal(str(out["fo_fee"])) == Decimal(fee)
        out = call(server, "acctutil", {"ir_balance": "12000.00", "ir_rate_pct": "2.5"})["structuredContent"]
        oracle = (Decimal("12000.00") * (Decimal("2.5") / 1200).quantize(Decimal("1E-7"), ROUND_DOWN)).quantize(
            Decimal("0.01"), ROUND_HALF_UP
        )
        assert Decimal(str(out["ir_interest"])) == oracle
    finally:
        server.runtime.close()
