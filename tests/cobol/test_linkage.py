"""Deriving the interface (name, description, records and their exact layout) from COBOL source."""

from __future__ import annotations

import pickle
import shutil
import subprocess
from decimal import Decimal
from pathlib import Path

import pytest

from cobol_mcp.cobol import LinkageError
from cobol_mcp.cobol.linkage.program import entry_symbol, parse_program
from cobol_mcp.cobol.prepare.cobc_check import verify_with_cobc
from cobol_mcp.cobol.source.lines import detect_format

from .conftest import SAMPLE_PATHS, cobc, find, needs_cobc, sample


def program(tmp_path: Path, linkage: str, using: str = "", name: str = "prog.cob", head: str = "") -> Path:
    """A small free-format program around a LINKAGE SECTION body."""
    text = (
        f"IDENTIFICATION DIVISION.\nPROGRAM-ID. t-prog.\n{head}DATA DIVISION.\nLINKAGE SECTION.\n{linkage}\n"
        f"PROCEDURE DIVISION{' USING ' + using if using else ''}.\n    GOBACK.\n"
    )
    path = tmp_path / name
    path.write_text(text)
    return path


# ------------------------------------------------------------------------------------------- the compiler


@needs_cobc
@pytest.mark.parametrize("path", SAMPLE_PATHS, ids=lambda p: p.name)
def test_layout_matches_cobc(path):
    assert verify_with_cobc(path) == []


@needs_cobc
def test_samples_compile_and_export_their_entry_symbol(compiled_samples, specs):
    if shutil.which("nm") is None:
        pytest.skip("nm is not installed")
    for name, module in compiled_samples.items():
        symbols = subprocess.run(["nm", "-D", "--defined-only", str(module)], capture_output=True, text=True).stdout
        assert specs[name].entry_symbol in symbols.split(), name


@needs_cobc
def test_generated_layouts_match_cobc(tmp_path):
    """Every binary/packed/display digit count, signed or not, plus SYNC inside and around OCCURS."""
    lines = ["01 DIGITS-AREA."]
    for d in range(1, 19):
        for usage in ("COMP", "COMP-5", "COMP-3", "DISPLAY", "BINARY"):
            for sign in ("", "S"):
                tag = usage.replace("-", "")
                lines.append(f"   05 F{d}-{tag}-{sign or 'U'} PIC {sign}9({d}) {usage}.")
        lines.append(f"   05 F{d}-SEP PIC S9({d}) SIGN LEADING SEPARATE.")
        lines.append(f"   05 F{d}-TAG PIC X.")
        lines.append(f"   05 F{d}-SYNC PIC S9({d}) COMP SYNC.")
    lines += [
        "01 SYNC-AREA.",
        "   05 A PIC X(3).",
        "   05 T OCCURS 2.",
        "      10 T1 PIC X.",
        "      10 T2 PIC S9(4) COMP SYNC.",
        "      10 T3 PIC X(3).",
        "      10 H.",
        "         15 H1 PIC X.",
        "         15 H2 COMP-2 SYNC.",
        "   05 B PIC X.",
        "   05 C COMP-1 SYNC.",
        "   05 U OCCURS 3.",
        "      10 U1 PIC X.",
        "      10 U2 PIC 9(2) COMP-5 SYNC.",
    ]
    path = program(tmp_path, "\n".join(lines), "DIGITS-AREA SYNC-AREA")
    assert verify_with_cobc(path) == []


@needs_cobc
@pytest.mark.parametrize(
    ("program_id", "symbol"),
    [("'a.b'", "a_2Eb"), ('"9-x"', "_9__x"), ("Upper-Case", "Upper__Case"), ('ab AS "alias-x"', "alias__x")],
)
def test_entry_symbol_matches_cobc(tmp_path, program_id, symbol):
    if shutil.which("nm") is None:
        pytest.skip("nm is not installed")
    path = tmp_path / "p.cob"
    path.write_text(f"IDENTIFICATION DIVISION.\nPROGRAM-ID. {program_id}.\nPROCEDURE DIVISION.\n    GOBACK.\n")
    spec = parse_program(path)
    assert spec.entry_symbol == symbol
    done = cobc("-m", "-free", "-o", str(tmp_path / "p.so"), str(path))
    assert done.returncode == 0, done.stderr
    symbols = subprocess.run(["nm", "-D", "--defined-only", str(tmp_path / "p.so")], capture_output=True, text=True)
    assert symbol in symbols.stdout.split()


def test_entry_symbol_rules():
    assert entry_symbol("format-currency") == "format__currency"
    assert entry_symbol("PAYROLL") == "PAYROLL"
    assert entry_symbol("1st") == "_1st"
    assert entry_symbol("a b") == "a_20b"


# ----------------------------------------------------------------------------------------------- samples


def test_sample_interfaces(specs):
    add = specs["add-numbers.cob"]
    assert (add.tool_name, add.source_format) == ("add_numbers", "free")
    assert add.description == (
        "Adds two signed decimal numbers and returns their sum.\n"
        "Both addends may have up to 9 integer digits and 2 decimal places."
    )
    assert [(r.key, r.direction, r.size) for r in add.records] == [("add_in", "in", 22), ("add_out", "out", 12)]
    assert add.records[0].field.description == "The two addends."
    assert find(add.records[0].field, "A").description == "First addend."
    assert find(add.records[1].field, "SUM-AB").description == "The sum of a and b."  # same-line comment

    fmt = specs["scalars.cob"]
    assert (fmt.program_id, fmt.tool_name, fmt.entry_symbol) == (
        "format-currency",
        "format_currency",
        "format__currency",
    )
    assert [(r.key, r.direction, r.field.level) for r in fmt.records] == [
        ("amount_in", "in", 77),
        ("text_out", "out", 1),
    ]

    assert specs["hello.cob"].records == ()
    assert specs["hello.cob"].description == "Says hello on standard output; takes no arguments."
    assert specs["two-records.cob"].source_format == "free"
    assert [r.direction for r in specs["two-records.cob"].records] == ["in", "in", "out", "inout"]


def test_fixed_format_sample_with_copybook(specs):
    pay = specs["PAYROLL.CBL"]
    assert pay.source_format == "fixed"
    assert pay.tool_name == "payroll"
    assert pay.description == (
        "Computes gross and net weekly pay for one employee.\n"
        "Overtime over 40 hours is paid at time and a half; up to three deductions are subtracted from the gross."
    )
    assert [p.name for p in pay.copybooks] == ["EMPLOYEE.cpy"]
    req = pay.records[0].field
    assert [c.key for c in req.children] == [
        "emp_id",
        "emp_name",
        "emp_pay_type",
        "hours_worked",
        "rate",
        None,
        "deduction",
    ]
    assert find(req, "EMP-ID").description == "Employee identification, shared by payroll programs."
    pay_type = find(req, "EMP-PAY-TYPE")
    assert pay_type.value == "H"
    assert [(c.key, c.values) for c in pay_type.conditions] == [
        ("hourly", (("H", None),)),
        ("salaried", (("S", None),)),
    ]
    filler = req.children[5]
    assert (filler.name, filler.key, filler.value, filler.offset, filler.size) == ("FILLER", None, "PAY1", 52, 4)
    ded = find(req, "DEDUCTION")
    assert (ded.occurs, ded.offset, ded.size) == (3, 56, 6)
    assert find(req, "DED-AMOUNT").offset == 58
    status = find(pay.records[1].field, "PAY-STATUS")
    assert status.conditions[1].values == (("01", "49"),)


def test_items_of_the_usage_zoo(specs):
    zoo = specs["usage-zoo.cob"].records[0]
    assert zoo.direction == "inout"
    f = zoo.field
    assert (find(f, "D-LEADING").sign_leading, find(f, "D-LEADING").sign_separate) == (True, False)
    assert (find(f, "SG-B").sign_leading, find(f, "SG-B").sign_separate) == (True, True)  # group SIGN inherited
    assert find(f, "IP-B").usage == "comp-3"  # group USAGE inherited
    assert find(f, "IB-B").usage == "binary"
    assert find(f, "N-UNSIGNED").usage == "comp-5"
    assert (find(f, "F-SINGLE").usage, find(f, "F-SINGLE").category, find(f, "F-SINGLE").pic) == (
        "comp-1",
        "float",
        None,
    )
    assert find(f, "D-DEFAULTED").value == Decimal("-12.5")
    assert find(f, "T-SPACES").value == ""
    assert find(f, "T-ZEROS").value == "000"
    assert find(f, "T-ALL").value == "----"
    assert find(f, "T-QUOTED").value == "it's"
    assert find(f, "T-RIGHT").justified
    assert find(f, "D-BLANK-ZERO").blank_when_zero
    assert find(f, "AL-BIN").synchronized and find(f, "AL-BIN").offset % 4 == 0
    assert f.children[-1].children[-1].value == "\r\n"  # X"0D0A"


def test_commarea_sample(specs):
    spec = specs["COMMAREA.cbl"]
    (rec,) = spec.records
    assert (rec.key, rec.direction, spec.tool_name, spec.entry_symbol) == ("dfhcommarea", "inout", "acctinq", "ACCTINQ")
    view = find(rec.field, "CA-ACCOUNT-X")
    assert (view.redefines, view.offset, view.exposed) == ("CA-ACCOUNT", 0, False)
    recent = find(rec.field, "CA-RECENT")
    assert (recent.occurs, recent.value, recent.description) == (
        3,
        0,
        "The last three transaction amounts, newest first.",
    )
    assert find(rec.field, "CA-STATUS").conditions[2].values == ((Decimal(90), Decimal(99)),)


def test_specs_pickle(specs):
    for spec in specs.values():
        assert pickle.loads(pickle.dumps(spec)) == spec


# ------------------------------------------------------------------------------------------ source forms


def test_detect_format():
    assert detect_format("       IDENTIFICATION DIVISION.\n      * comment\n") == "fixed"
    assert (
        detect_format("000100 IDENTIFICATION DIVISION.                                         ABC00001\n") == "fixed"
    )
    assert detect_format("IDENTIFICATION DIVISION.\n") == "free"
    assert detect_format("*> comment\n       PROGRAM-ID. x.\n") == "free"
    assert detect_format("  01 A PIC X.\n") == "free"
    assert detect_format("       >>SOURCE FORMAT IS FREE\n") == "free"
    assert detect_format("       " + "X" * 90 + "\n") == "free"


def test_explicit_format_overrides_detection(tmp_path):
    path = tmp_path / "p.cob"
    path.write_text("       IDENTIFICATION DIVISION.\n       PROGRAM-ID. p.\n       PROCEDURE DIVISION.\n")
    assert parse_program(path).source_format == "fixed"
    assert parse_program(path, source_format="free").source_format == "free"
    with pytest.raises(ValueError):
        parse_program(path, source_format="tabs")


def test_fixed_format_details(tmp_path):
    path = tmp_path / "fixed.cbl"
    path.write_text(
        "000100 IDENTIFICATION DIVISION.\n"
        + "000200 PROGRAM-ID. FIXED1 IS INITIAL.".ljust(72)
        + "CHG00001\n"
        + "000300/ Page-eject comment line: also a comment.\n"
        + "000400D    DISPLAY 'debug line, ignored'.\n"
        "000500 DATA DIVISION.\n"
        "000600 LINKAGE SECTION.\n"
        "000700 01  REC.\n"
        "000800*    Long text.\n"
        "000900     05  LONG-TEXT PIC X(70) VALUE 'first part\n"
        "001000-    'continues to column 72'.\n"
        + "001100     05  AFTER     PIC X.".ljust(72)
        + "ignored!\n"
        + "001200 PROCEDURE DIVISION USING REC.\n"
    )
    spec = parse_program(path)
    assert spec.source_format == "fixed" and spec.tool_name == "fixed1"
    assert spec.description == "Page-eject comment line: also a comment."
    rec = spec.records[0].field
    long_text = find(rec, "LONG-TEXT")
    assert long_text.description == "Long text."
    gap = 72 - len("000900     05  LONG-TEXT PIC X(70) VALUE 'first part")  # literal runs to column 72
    assert long_text.value == "first part" + " " * gap + "continues to column 72"
    assert (find(rec, "AFTER").offset, rec.size) == (70, 71)


def test_description_paragraphs_and_decoration(tmp_path):
    path = tmp_path / "d.cob"
    path.write_text(
        "IDENTIFICATION DIVISION.\nPROGRAM-ID. d. *> First line\n*> ************\n*> continues here.\n*>\n"
        "*> Second paragraph.\n\n*> Still the block after a blank line.\nDATA DIVISION.\n*> Not part of it.\n"
    )
    assert parse_program(path).description == (
        "First line continues here.\nSecond paragraph.\nStill the block after a blank line."
    )


# ---------------------------------------------------------------------------------------------- COPY books


def test_copybook_lookup_and_replacing(tmp_path):
    books = tmp_path / "copybooks"
    books.mkdir()
    (books / "PARTS.CPY").write_text("   05 :TAG:-CODE PIC X(2).\n   05 OLD-QTY PIC 9(3).\n")
    (tmp_path / "inner.cpy").write_text(
        "   05 INNER-X PIC X. *> from inner\n   COPY parts REPLACING ==:TAG:== BY ==IN==.\n"
    )
    (tmp_path / "lib.cbl").write_text("   05 QTY-A PIC 9.\n   05 QTY-B PIC 9.\n")
    path = program(
        tmp_path,
        "01 REC.\n   COPY inner.\n   COPY PARTS REPLACING ==:TAG:== BY ==OUT== ==OLD-QTY== BY ==NEW-QTY==.\n"
        '   COPY "lib.cbl" REPLACING LEADING ==QTY== BY ==AMT==.\n   05 LAST-ONE PIC X.',
        "REC",
    )
    spec = parse_program(path)
    rec = spec.records[0].field
    assert [c.name for c in rec.children] == [
        "INNER-X",
        "IN-CODE",
        "OLD-QTY",
        "OUT-CODE",
        "NEW-QTY",
        "AMT-A",
        "AMT-B",
        "LAST-ONE",
    ]
    assert rec.children[0].description == "from inner"
    assert sorted(p.name for p in spec.copybooks) == ["PARTS.CPY", "inner.cpy", "lib.cbl"]


def test_copy_errors(tmp_path):
    path = program(tmp_path, "01 REC.\n   COPY missing.", "REC")
    with pytest.raises(LinkageError, match=r"prog\.cob:6: copybook 'missing' not found"):
        parse_program(path)
    (tmp_path / "loop.cpy").write_text("   COPY loop.\n")
    with pytest.raises(LinkageError, match="includes itself"):
        parse_program(program(tmp_path, "01 REC.\n   COPY loop.", "REC"))


# ------------------------------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("linkage", "using", "message"),
    [
        ("01 REC PIC X.", "NOPE", r":\d+: USING NOPE: no such 01/77 record"),
        ("01 REC PIC X.", "BY VALUE REC", "BY VALUE REC is not supported: USAGE DISPLAY"),
        ("01 REC PIC X.", "REC RETURNING REC", "RETURNING is not supported"),
        (
            "01 REC.\n   05 N PIC 9.\n   05 T PIC X OCCURS 1 TO 5 DEPENDING ON N.\n   05 Z PIC X.",
            "REC",
            "items after a variable table",
        ),
        ("01 REC.\n   05 P USAGE POINTER PIC X.", "REC", "USAGE POINTER items take no PICTURE"),
        ("01 REC.\n   05 P USAGE OBJECT REFERENCE.", "REC", "USAGE OBJECT REFERENCE holds an object handle"),
        ("01 REC.\n   05 P PIC 9(20) COMP.", "REC", "more than 18 digits"),
        ("01 REC.\n   05 P PIC 9(3) VALUE 1000.", "REC", "VALUE 1000 does not fit PIC 9\\(3\\)"),
        ("01 REC.\n   05 P PIC X(2) VALUE 'abc'.", "REC", "longer than the item"),
        ("01 REC.\n   05 P PIC 9(2) VALUE SPACES.", "REC", "needs a numeric VALUE"),
        ("01 REC.\n   05 G PIC X.\n      10 H PIC X.", "REC", "cannot have PICTURE"),
        ("01 REC.\n   05 G.", "REC", "needs a PICTURE"),
        ("01 REC.\n   05 G PIC X(3) COMP-3.", "REC", "needs a numeric PICTURE"),
        ("01 REC.\n   05 G PIC 9(3) SIGN LEADING.", "REC", "SIGN clause needs a signed"),
        ("01 REC.\n   05 G PIC 9(3) JUSTIFIED RIGHT.", "REC", "JUSTIFIED needs"),
        ("01 REC.\n   05 G COMP-1 PIC 9.", "REC", "take no PICTURE"),
        ("01 REC.\n   05 G PIC Q.", "REC", "unsupported symbol"),
        ("01 REC.\n   05 A PIC X.\n   05 B REDEFINES C PIC X.", "REC", "REDEFINES C: no such item"),
        ("01 REC.\n   05 A-B PIC X.\n   05 A_B PIC X.", "REC", "same JSON name 'a_b'"),
        ("01 REC.\n   05 A PIC X WIBBLE.", "REC", "unexpected 'WIBBLE'"),
        ("   05 A PIC X.", "", "has no 01 record above it"),
        ("88 A VALUE 1.", "", "level 88 without an item"),
        ("01 REC.\n   05 A PIC X VALUE 'abc", "REC", "unterminated literal"),
        ("01 REC.\n   05 A PIC X VALUE X'4'.", "REC", "malformed hexadecimal literal"),
        ("01 REC.\n   05 A PIC X VALUE Z'a'.", "REC", "Z-literals are not supported in VALUE"),
    ],
)
def test_errors_name_file_and_line(tmp_path, linkage, using, message):
    with pytest.raises(LinkageError, match=message) as info:
        parse_program(program(tmp_path, linkage, using))
    assert str(info.value).startswith(f"{tmp_path / 'prog.cob'}:")


def test_program_id_errors(tmp_path):
    path = tmp_path / "x.cob"
    path.write_text("IDENTIFICATION DIVISION.\nPROCEDURE DIVISION.\n")
    with pytest.raises(LinkageError, match="no PROGRAM-ID"):
        parse_program(path)
    path.write_text("IDENTIFICATION DIVISION.\nPROGRAM-ID. 'has space'.\n")
    with pytest.raises(LinkageError, match=r"x\.cob:2: .*does not match"):
        parse_program(path)
    path.write_text(
        "IDENTIFICATION DIVISION.\nPROGRAM-ID. p.\nENVIRONMENT DIVISION.\nCONFIGURATION SECTION.\n"
        'SPECIAL-NAMES.\n    CURRENCY SIGN IS "E".\n'
    )
    with pytest.raises(LinkageError, match=r"x\.cob:6: CURRENCY"):
        parse_program(path)
    with pytest.raises(LinkageError, match="cannot read source"):
        parse_program(tmp_path / "absent.cob")


def test_value_forms(tmp_path):
    rec = (
        parse_program(
            program(
                tmp_path,
                "01 REC.\n   05 A PIC X(3) VALUE ALL ZEROS.\n   05 B PIC X(4) VALUE ALL 'ab'.\n"
                "   05 C PIC X(2) VALUE HIGH-VALUES.\n   05 D PIC X(2) VALUE LOW-VALUE.\n"
                "   05 E PIC X(2) VALUE QUOTE.\n"
                "   05 F PIC S9V99 VALUE IS -.5.\n   05 G PIC X(2) VALUE X'4142'.\n   05 H PIC 9 VALUE ZERO.",
                "REC",
            )
        )
        .records[0]
        .field
    )
    assert [c.value for c in rec.children] == ["000", "abab", "\xff\xff", "\x00\x00", '""', Decimal("-.5"), "AB", 0]


def test_statements_are_not_parsed(tmp_path):
    path = tmp_path / "p.cob"
    path.write_text(
        "IDENTIFICATION DIVISION.\nPROGRAM-ID. p.\nDATA DIVISION.\nLINKAGE SECTION.\n01 REC PIC X.\n"
        "PROCEDURE DIVISION USING REC.\n    CALL 'puts' USING Z'hi' N'x' 'unterminated\n"
    )
    assert [r.key for r in parse_program(path).records] == ["rec"]


def test_directions_and_levels(tmp_path):
    linkage = "\n".join(
        f"01 {n} PIC X."
        for n in ("A-IN", "B-INPUT", "C-REQUEST", "D-OUT", "E-OUTPUT", "F-RESULT", "G-RESPONSE", "H-AREA")
    )
    using = "A-IN B-INPUT C-REQUEST BY REFERENCE D-OUT E-OUTPUT F-RESULT G-RESPONSE H-AREA"
    path = program(tmp_path, linkage + "\n66 RN RENAMES A-IN.", using)
    # passed on BY REFERENCE, so the analysis cannot tell: the names decide
    path.write_text(path.read_text().replace("    GOBACK.", f"    CALL 'SUB' USING {using}\n    GOBACK."))
    spec = parse_program(path)
    assert [r.direction for r in spec.records] == ["in"] * 3 + ["out"] * 4 + ["inout"]


def test_sample_source_list_is_complete():
    assert {p.name for p in SAMPLE_PATHS} >= {"add-numbers.cob", "PAYROLL.CBL", "COMMAREA.cbl", "echo-all.cob"}
    assert sample("hello.cob").exists()


@needs_cobc
def test_verify_reports_mismatches(monkeypatch):
    import cobol_mcp.cobol.linkage.layout as layout_module

    real = layout_module.storage_size
    monkeypatch.setattr(
        layout_module, "storage_size", lambda p, u, s=False, *rest: real(p, u, s, *rest) + (u == "comp-3")
    )
    problems = verify_with_cobc(sample("PAYROLL.CBL"))
    assert "PAYROLL-REQUEST.HOURS-WORKED: size 4 derived, cobc has 3" in problems
    assert "PAYROLL-REQUEST.RATE: offset 46 derived, cobc has 45" in problems


def test_a_qualified_counter_is_the_item_of_that_name_inside_the_group(tmp_path):
    """``DEPENDING ON LS-COUNT IN LS-HEAD``: LS-COUNT of LS-HEAD counts the table, not LS-COUNT of LS-TAIL."""
    linkage = (
        "01 LS-LIST.\n   05 LS-TAIL.\n      10 LS-COUNT PIC 9(2).\n   05 LS-HEAD.\n      10 LS-COUNT PIC 9(2).\n"
        "   05 LS-ITEM PIC X(4) OCCURS 1 TO 9 DEPENDING ON LS-COUNT IN LS-HEAD."
    )
    (record,) = parse_program(program(tmp_path, linkage, "LS-LIST")).records
    tail, head, table = record.field.children
    assert (tail.children[0].counts, head.children[0].counts) == ("", "LS-ITEM")
    assert table.depending_on == "LS-COUNT IN LS-HEAD" and table.offset == 4


def test_a_linkage_record_no_call_passes_may_be_one_the_layout_cannot_read(tmp_path):
    """LK-LEGACY (not in USING: an area the program would address itself) has a 20-digit item: REC is
    still served; passed in USING, LK-LEGACY is refused with its line."""
    linkage = "01 REC.\n   05 R-NAME PIC X(8).\n01 LK-LEGACY.\n   05 LK-BIG PIC 9(20) COMP."
    (record,) = parse_program(program(tmp_path, linkage, "REC")).records
    assert record.name == "REC" and record.size == 8
    with pytest.raises(LinkageError, match=r"prog\.cob:8: .*more than 18 digits"):
        parse_program(program(tmp_path, linkage, "REC LK-LEGACY"))
