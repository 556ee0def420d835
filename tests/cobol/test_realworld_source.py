"""Reading real-world COBOL source: CBL/PROCESS option lines, PROGRAM-ID without its period, fixed
format with sequence numbers and text in columns 73-80, copybooks in a sibling folder in another
case, --copybooks folders, and files in a programs folder that are not served (each with its reason).

The programs are under realworld/source/cobol/, their copybooks under realworld/source/copybook/.
Results are checked against Decimal arithmetic and cobc's own layout.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cobol_mcp.cobol import LinkageError
from cobol_mcp.cobol.linkage.program import parse_program
from cobol_mcp.cobol.prepare.cobc import BuildError, build_module, cache_key
from cobol_mcp.cobol.prepare.cobc_check import verify_with_cobc
from cobol_mcp.cobol.prepare.programs import scan_folder
from cobol_mcp.cobol.source.cobc_text import cobc_text
from cobol_mcp.cobol.source.directives import compiler_options
from cobol_mcp.cobol.source.lines import detect_format, read_text

from .conftest import find, needs_cobc

SOURCE = Path(__file__).parent / "realworld" / "source"
PROGRAMS = SOURCE / "cobol"
COPYBOOK = SOURCE / "copybook"


def test_derived_spec_of_a_fixed_format_program_with_cbl_line_and_sibling_copybooks():
    spec = parse_program(PROGRAMS / "CALCPREM.cbl")
    assert (spec.program_id, spec.tool_name, spec.source_format) == ("CALCPREM", "calcprem", "fixed")
    assert spec.description.startswith("Computes the monthly premium of an insurance policy")
    assert spec.description.endswith("Returns code 8 and a message for an unknown discount code.")
    # COPY POLREC. finds copybook/polrec.cpy; COPY PREMRSLT IN PREMLIB. finds copybook/premlib/PremRslt.Cpy
    assert [p.relative_to(SOURCE).as_posix() for p in spec.copybooks] == [
        "copybook/polrec.cpy",
        "copybook/premlib/PremRslt.Cpy",
    ]
    policy, premium = spec.records
    assert (policy.name, policy.direction, policy.size) == ("LS-POLICY-IN", "in", 19)
    assert (premium.name, premium.direction, premium.size) == ("LS-PREMIUM-OUT", "out", 54)
    # text in columns 73-80 ("* ADDED", "CHG0042 ") is never code
    assert [c.values for c in find(policy.field, "LS-DISCOUNT-CODE").conditions] == [
        (("N", None),),
        (("L", None),),
        (("M", None),),
    ]
    assert find(policy.field, "LS-AGE").description == "Age of the insured in whole years"


def test_program_id_is_initial_with_a_quoted_name_and_an_upper_case_extension():
    spec = parse_program(PROGRAMS / "POLCHK.CBL")
    assert (spec.program_id, spec.tool_name, spec.entry_symbol) == ("POLCHK", "polchk", "POLCHK")
    assert spec.description.startswith("Settles a claim")
    assert [p.name for p in spec.copybooks] == ["CLMREC.CPY"]  # written `COPY clmrec.`


@needs_cobc
@pytest.mark.parametrize("name", ["CALCPREM.cbl", "POLCHK.CBL"])
def test_layout_agrees_with_cobc(name):
    assert verify_with_cobc(PROGRAMS / name) == []


@pytest.mark.parametrize(
    "ending",
    [
        "CALCPREM",  # a sequence number in columns 1-6, a program name in 73-80
        "CHG0042 ",  # text with a blank in 73-80
        "* ADDED",
    ],
)
def test_identification_area_never_makes_a_file_free_format(ending):
    line = "000100     MOVE 1 TO WS-A.".ljust(72) + ending
    assert detect_format("000050 IDENTIFICATION DIVISION.\n" + line + "\n") == "fixed"


def test_one_long_comment_line_does_not_outweigh_the_rest():
    lines = ["       IDENTIFICATION DIVISION.", "      *" + "=" * 90, "       PROGRAM-ID. X.", "      * note"]
    assert detect_format("\n".join(lines)) == "fixed"
    assert detect_format(read_text(PROGRAMS / "CALCPREM.cbl")) == "fixed"
    # free-format code outweighs an odd fixed-looking line; a directive decides outright
    free = ["*> free", "IDENTIFICATION DIVISION.", "PROGRAM-ID. X.", "      * looks fixed", "DATA DIVISION."]
    assert detect_format("\n".join(free)) == "free"
    assert detect_format("      $SET SOURCEFORMAT(FREE)\n" + "\n".join(lines)) == "free"


def test_fixed_file_that_cannot_be_read_says_where(tmp_path):
    path = tmp_path / "BROKEN.cbl"
    path.write_text(
        "000100 IDENTIFICATION DIVISION.\n000200 PROGRAM-ID. BROKEN.\n000300*  NOTE\n000400* NOTE\n"
        "000500XDATA DIVISION.\n"
    )
    with pytest.raises(LinkageError, match=r"BROKEN\.cbl:5: invalid indicator 'X' in column 7"):
        parse_program(path)


def test_cbl_and_process_options_map_to_cobc_flags_or_are_skipped_with_a_warning(tmp_path):
    text = read_text(PROGRAMS / "CALCPREM.cbl")
    options = compiler_options(PROGRAMS / "CALCPREM.cbl", text, "fixed")
    assert options.lines == [1]
    assert options.flags == ["-fnotrunc"]  # TRUNC(BIN); ARITH(EXTEND) is GnuCOBOL's own behaviour
    assert options.warnings == [
        f"{PROGRAMS / 'CALCPREM.cbl'}:1: compiler option NUMPROC(NOPFD) skipped (GnuCOBOL has no equivalent)"
    ]
    free = "CBL TRUNC(OPT) LIB\nPROCESS APOST, TRUNC(STD)\nIDENTIFICATION DIVISION.\nPROGRAM-ID. X.\n"
    options = compiler_options(tmp_path / "x.cob", free, "free")
    assert options.lines == [1, 2]
    assert options.flags == ["-fsingle-quote"]  # the last TRUNC given counts: STD is the default
    assert [w.split(": ", 1)[1] for w in options.warnings] == [
        "compiler option LIB skipped (GnuCOBOL has no equivalent)"
    ]
    assert compiler_options(tmp_path / "x.cob", "IDENTIFICATION DIVISION.\nCBL X\n", "free").lines == []


def test_cobc_is_given_the_same_lines_with_options_blanked_and_the_period_supplied():
    original = read_text(PROGRAMS / "CALCPREM.cbl").splitlines()
    given = cobc_text(PROGRAMS / "CALCPREM.cbl", "fixed")
    assert given is not None
    lines = given.splitlines()
    assert len(lines) == len(original)
    assert lines[0] == ""
    assert lines[2] == original[2][:27] + "." + original[2][28:]  # "000300 PROGRAM-ID. CALCPREM."
    assert lines[3:] == original[3:]
    assert cobc_text(PROGRAMS / "CLMHIST.cbl", "fixed") is None  # nothing to change


@needs_cobc
def test_folder_serves_the_programs_and_explains_every_file_it_does_not(tmp_path):
    scan = scan_folder(PROGRAMS, cache_dir=tmp_path, jobs=1)
    assert sorted(p.spec.tool_name for p in scan.programs) == ["calcprem", "clmhist", "polchk"]
    reasons = sorted(scan.errors)
    assert len(reasons) == 2  # README.txt and the copybooks need no word
    assert "CALCPREM.cbl.bak:1: looks like a COBOL program, but its name ends in '.bak'" in reasons[0]
    assert "ORAPREM.pco:1: a Pro*COBOL source" in reasons[1]
    clmhist = next(p for p in scan.programs if p.spec.tool_name == "clmhist")  # EXEC SQL: precompiled first
    assert clmhist.sql is not None and 'COPY "SQLCA.sqlinc".' in clmhist.sql.source.read_text()


@needs_cobc
def test_cobc_diagnostics_point_at_the_users_file_and_line(tmp_path):
    folder = tmp_path / "cobol"
    folder.mkdir()
    shutil.copytree(COPYBOOK, tmp_path / "CopyBook")  # the sibling folder, in another case
    source = (PROGRAMS / "CALCPREM.cbl").read_text().replace("GOBACK.", "GOBAK.")
    (folder / "CALCPREM.cbl").write_text(source)
    line = next(n for n, text in enumerate(source.splitlines(), 1) if "GOBAK" in text)
    with pytest.raises(BuildError) as failure:
        build_module(folder / "CALCPREM.cbl", tmp_path / "cache", source_format="fixed")
    assert f"{folder / 'CALCPREM.cbl'}:{line}:" in str(failure.value)
    assert str(tmp_path / "cache") not in str(failure.value)  # never the temporary copy


@needs_cobc
def test_editing_a_sibling_copybook_changes_the_build_key(tmp_path):
    shutil.copytree(SOURCE, tmp_path / "src", ignore=shutil.ignore_patterns("*.bak", "*.pco", "CLMHIST.cbl"))
    program = tmp_path / "src" / "cobol" / "CALCPREM.cbl"
    before = cache_key(program, "fixed")
    book = tmp_path / "src" / "copybook" / "polrec.cpy"
    book.write_text(book.read_text().replace("PIC 9(3).", "PIC 9(4)."))
    assert cache_key(program, "fixed") != before
    assert parse_program(program).records[0].size == 20
    again = cache_key(program, "fixed")
    library = tmp_path / "src" / "copybook" / "premlib" / "PremRslt.Cpy"  # COPY PREMRSLT IN PREMLIB
    library.write_text(library.read_text().replace("PIC X(40).", "PIC X(60)."))
    assert cache_key(program, "fixed") != again


@needs_cobc
def test_copybooks_option_adds_a_folder_for_every_programs_folder(tmp_path):
    programs = tmp_path / "programs"
    shared = tmp_path / "shared" / "includes"
    programs.mkdir()
    shutil.copytree(COPYBOOK, shared)
    shutil.copy(PROGRAMS / "POLCHK.CBL", programs)
    alone = scan_folder(programs, cache_dir=tmp_path / "cache", jobs=1)
    assert alone.programs == [] and "copybook 'clmrec' not found" in alone.errors[0]
    assert "POLCHK.CBL:14:" in alone.errors[0]
    scan = scan_folder(programs, cache_dir=tmp_path / "cache", jobs=1, include=(shared,))
    assert scan.errors == [] and [p.spec.tool_name for p in scan.programs] == ["polchk"]
    assert scan.programs[0].spec.copybooks == (shared / "CLMREC.CPY",)


def test_copy_names_match_in_any_case_with_or_without_an_ending(tmp_path):
    (tmp_path / "copybooks").mkdir()
    (tmp_path / "copybooks" / "CUSTREC.CPY").write_text("       01  CUST-REC.\n           05  CUST-ID PIC 9(6).\n")
    (tmp_path / "acctrec").write_text("       01  ACCT-REC PIC X(8).\n")
    for copy in ("COPY custrec.", "COPY CUSTREC.", 'COPY "custrec.cpy".', "COPY Custrec OF COPYBOOKS."):
        path = tmp_path / "P.cbl"
        path.write_text(
            "       IDENTIFICATION DIVISION.\n       PROGRAM-ID. P.\n       DATA DIVISION.\n"
            f"       LINKAGE SECTION.\n           {copy}\n           COPY ACCTREC.\n"
            "       PROCEDURE DIVISION USING CUST-REC ACCT-REC.\n"
        )
        spec = parse_program(path)
        assert [r.name for r in spec.records] == ["CUST-REC", "ACCT-REC"], copy


@needs_cobc
def test_free_format_options_lines_and_a_program_id_ending_at_the_next_division(tmp_path):
    path = tmp_path / "ratecalc.cob"
    path.write_text(
        "CBL ARITH(EXTEND)\n"
        "PROCESS TRUNC(BIN) OPT(FULL)\n"
        "*> Rate table lookup, free format with IBM option lines.\n"
        "ID DIVISION.\n"
        "PROGRAM-ID. RATE-CALC IS INITIAL\n"
        "*> Returns the rate for a class code.\n"
        "ENVIRONMENT DIVISION.\n"
        "DATA DIVISION.\n"
        "LINKAGE SECTION.\n"
        "01 LS-RATE-REQUEST.\n"
        "   05 LS-CLASS-CODE PIC X(2).\n"
        "01 LS-RATE-RESULT.\n"
        "   05 LS-RATE PIC 9V9(4) COMP.\n"
        "PROCEDURE DIVISION USING LS-RATE-REQUEST LS-RATE-RESULT.\n"
        "    MOVE 0.0425 TO LS-RATE\n"
        "    GOBACK.\n"
    )
    spec = parse_program(path)
    assert (spec.tool_name, spec.source_format, spec.description) == (
        "rate_calc",
        "free",
        "Returns the rate for a class code.",
    )
    assert [r.direction for r in spec.records] == ["in", "out"]
    assert build_module(path, tmp_path / "cache", source_format="free").exists()
    assert verify_with_cobc(path) == []


@needs_cobc
def test_fixed_program_id_without_period_before_environment_division(tmp_path):
    path = tmp_path / "SHORTID.cbl"
    path.write_text(
        "000100 IDENTIFICATION DIVISION.\n"
        "000200 PROGRAM-ID.    SHORTID\n"
        "000300 ENVIRONMENT DIVISION.\n"
        "000400 DATA DIVISION.\n"
        "000500 LINKAGE SECTION.\n"
        "000600 01  LS-AREA                PIC X(4).\n"
        "000700 PROCEDURE DIVISION USING LS-AREA.\n"
        "000800     MOVE 'DONE' TO LS-AREA\n"
        "000900     GOBACK.\n"
    )
    assert parse_program(path).program_id == "SHORTID"
    assert build_module(path, tmp_path / "cache", source_format="fixed").exists()
