"""Which items are required arguments: tables set by a loop over every occurrence, outputs written on some
paths only, parameters never used, and the names that decide (prefixes as well as suffixes). Statement
cases go through the fixed-format FLOWTEST program of test_direction_statements; three realistic programs
(tests/cobol/realworld/direction: AMORTSCH, AGECALC, DATECHK) go through the real runtime too."""

from __future__ import annotations

import datetime
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest

from cobol_mcp.cobol.linkage.direction import name_direction
from cobol_mcp.cobol.linkage.model import ProgramSpec
from cobol_mcp.cobol.linkage.program import parse_program
from cobol_mcp.cobol.records.codec import decode_outputs, encode_inputs
from cobol_mcp.cobol.records.schema import input_schema, output_schema
from cobol_mcp.commands import directions_report

from .conftest import find, folder_caller
from .test_direction_statements import program, reason, ways

FOLDER = Path(__file__).parent / "realworld" / "direction"

GRID = """\
       01  LS-PARMS.
           05  LS-ROW              OCCURS 3 TIMES.
               10  LS-CELL         OCCURS 4 TIMES PIC 9(3).
           05  LS-SUM              PIC 9(5).
           05  LS-ENTRY            OCCURS 5 TIMES.
               10  LS-CODE         PIC X(4).
               10  LS-AMT          PIC S9(5)V99 COMP-3.
"""


def zeroed(tmp_path: Path, header: str, body: str = "MOVE ZERO TO LS-AMT (WS-I)", working: str = "") -> ProgramSpec:
    """LS-AMT zeroed in an inline PERFORM with this header, then accumulated."""
    return program(tmp_path, f"""\
       MAIN-PARA.
           PERFORM
             {header}
               {body}
           END-PERFORM
           PERFORM VARYING WS-I FROM 1 BY 1 UNTIL WS-I > 5
               ADD 1 TO LS-AMT (WS-I)
           END-PERFORM
           GOBACK.
""", working)  # fmt: skip


@pytest.mark.parametrize(
    "header",
    [
        "VARYING WS-I FROM 1 BY 1 UNTIL WS-I > 5",
        "VARYING WS-I FROM 1 BY 1 UNTIL WS-I >= 6",
        "VARYING WS-I FROM 1 BY 1 UNTIL WS-I = 6",
        "VARYING WS-I FROM 1 BY 1 UNTIL WS-I IS GREATER THAN 5",
        "VARYING WS-I FROM 1 BY 1 UNTIL WS-I GREATER OR EQUAL TO 6",
        "WITH TEST AFTER VARYING WS-I FROM 1 BY 1 UNTIL WS-I > 5",
        "VARYING LS-IX FROM 1 BY 1 UNTIL LS-IX > 5",  # the table's own index
    ],
)
def test_a_loop_over_every_occurrence_sets_the_table(tmp_path, header):
    body = "MOVE ZERO TO LS-AMT (LS-IX)" if "LS-IX" in header else "MOVE ZERO TO LS-AMT (WS-I)"
    spec = zeroed(tmp_path, header, body)
    assert ways(spec, "LS-AMT") == ["out"]
    assert reason(spec, "LS-AMT").startswith("set by MOVE at line ")
    assert "for every occurrence (PERFORM at line " in reason(spec, "LS-AMT")
    assert "ls_entry" not in input_schema(spec).get("required", [])


@pytest.mark.parametrize(
    ("header", "body", "working"),
    [
        ("VARYING WS-I FROM 1 BY 1 UNTIL WS-I > 4", "MOVE ZERO TO LS-AMT (WS-I)", ""),  # one short
        ("VARYING WS-I FROM 2 BY 1 UNTIL WS-I > 5", "MOVE ZERO TO LS-AMT (WS-I)", ""),
        ("VARYING WS-I FROM 1 BY 2 UNTIL WS-I > 5", "MOVE ZERO TO LS-AMT (WS-I)", ""),
        ("VARYING WS-I FROM 1 BY 1 UNTIL WS-I > 5 OR LS-SUM = 0", "MOVE ZERO TO LS-AMT (WS-I)", ""),
        ("VARYING WS-I FROM 1 BY 1 UNTIL WS-I > 5", "MOVE ZERO TO LS-AMT (WS-P)", ""),  # not the loop's variable
        ("VARYING WS-I FROM 1 BY 1 UNTIL WS-I > 5", "IF LS-SUM > 0 MOVE ZERO TO LS-AMT (WS-I) END-IF", ""),
        ("VARYING WS-I FROM 1 BY 1 UNTIL WS-I > 5", "MOVE ZERO TO LS-AMT (WS-I) ADD 1 TO WS-I", ""),
        ("VARYING WS-I FROM 1 BY 1 UNTIL WS-I > 5", "MOVE ZERO TO LS-AMT (WS-I) EXIT PERFORM", ""),
        ("VARYING WS-I FROM 1 BY 1 UNTIL WS-I > 5", "MOVE 12 TO LS-AMT (WS-I) (1:1)", ""),  # part of each
        ("VARYING WS-I FROM 1 BY 1 UNTIL WS-I > WS-N", "MOVE ZERO TO LS-AMT (WS-I)",
         "       01  WS-N                PIC 9 VALUE 5.\n"  # a VALUE the program changes is no constant
         "       01  WS-Q                PIC 9.\n"),
    ],
)  # fmt: skip
def test_a_loop_that_may_miss_an_occurrence_leaves_it_an_argument(tmp_path, header, body, working):
    if "WS-N" in header:
        body += "\n               MOVE 4 TO WS-N"
    spec = zeroed(tmp_path, header, body, working)
    assert ways(spec, "LS-AMT") == ["inout"]
    assert "read by ADD at line" in reason(spec, "LS-AMT")
    assert "ls_entry" in input_schema(spec)["required"]


@pytest.mark.parametrize(
    "working",
    [
        "       78  WS-MAX                VALUE 5.\n",
        "       01  WS-MAX                CONSTANT AS 5.\n",
        "       01  WS-MAX                PIC 9(2) VALUE 5.\n",  # never changed by the program
        "       77  WS-MAX                PIC 9(2) VALUE IS 5.\n",
    ],
)
def test_the_bound_may_be_a_constant_item(tmp_path, working):
    spec = zeroed(tmp_path, "VARYING WS-I FROM 1 BY 1 UNTIL WS-I > WS-MAX", working=working)
    assert ways(spec, "LS-AMT") == ["out"]


def test_out_of_line_loops_tables_of_tables_and_whole_groups(tmp_path):
    spec = program(tmp_path, """\
       MAIN-PARA.
           PERFORM CLEAR-CELL VARYING WS-I FROM 1 BY 1 UNTIL WS-I > 3
                              AFTER WS-P FROM 1 BY 1 UNTIL WS-P > 4
           PERFORM CLEAR-ENTRY VARYING WS-I FROM 1 BY 1 UNTIL WS-I > 5
           MOVE ZERO TO LS-SUM
           PERFORM VARYING WS-I FROM 1 BY 1 UNTIL WS-I > 3
               ADD LS-CELL (WS-I, 1) TO LS-SUM
           END-PERFORM
           ADD LS-AMT (2) TO LS-SUM
           GOBACK.
       CLEAR-CELL.
           MOVE ZERO TO LS-CELL (WS-I, WS-P).
       CLEAR-ENTRY.
           INITIALIZE LS-ENTRY (WS-I).
""", linkage=GRID)  # fmt: skip
    assert ways(spec, "LS-CELL", "LS-SUM", "LS-CODE", "LS-AMT") == ["out"] * 4
    assert input_schema(spec).get("properties") in (None, {})

    # the inner AFTER bound is one short of the inner OCCURS: row 3 keeps its caller's values
    short = program(tmp_path, """\
       MAIN-PARA.
           PERFORM VARYING WS-I FROM 1 BY 1 UNTIL WS-I > 3
                   AFTER WS-P FROM 1 BY 1 UNTIL WS-P > 3
               MOVE ZERO TO LS-CELL (WS-I, WS-P)
           END-PERFORM
           MOVE LS-CELL (1, 1) TO LS-SUM
           GOBACK.
""", linkage=GRID)  # fmt: skip
    assert ways(short, "LS-CELL") == ["inout"]


def test_whole_group_writes_set_every_item_under_them(tmp_path):
    for statement in ("INITIALIZE LS-PARMS", "MOVE ZEROS TO LS-PARMS", "MOVE LOW-VALUES TO LS-PARMS",
                      "MOVE SPACES TO LS-PARMS"):  # fmt: skip
        spec = program(tmp_path, f"""\
       MAIN-PARA.
           {statement}
           ADD LS-CELL (1, 2) LS-AMT (3) TO LS-SUM
           GOBACK.
""", linkage=GRID)  # fmt: skip
        assert ways(spec, "LS-CELL", "LS-SUM", "LS-CODE", "LS-AMT") == ["out"] * 4, statement


def test_outputs_on_some_paths_and_unused_items_are_not_required(tmp_path):
    spec = program(tmp_path, """\
       MAIN-PARA.
           IF LS-COUNT > 0
               MOVE LS-KEY TO LS-NAME
           END-IF
           GOBACK.
""")  # fmt: skip
    assert ways(spec, "LS-COUNT", "LS-KEY", "LS-NAME", "LS-TEXT") == ["in", "in", "inout", "in"]
    name, text = find(spec.records[0].field, "LS-NAME"), find(spec.records[0].field, "LS-TEXT")
    assert name.optional and text.optional
    assert reason(spec, "LS-TEXT") == "never used by the PROCEDURE DIVISION: not required, not reported"
    schema = input_schema(spec)
    assert schema["required"] == ["ls_count", "ls_key"]  # only what the program may read first
    assert "ls_text" in schema["properties"] and "ls_name" in schema["properties"]
    assert list(output_schema(spec)["properties"]) == ["ls_name"]
    (data,) = encode_inputs(spec, {"ls_count": 0, "ls_key": "K1"})
    assert decode_outputs(spec, [data]) == {"ls_name": ""}  # left out: spaces


def test_the_name_of_an_environment_variable_is_read(tmp_path):
    spec = program(tmp_path, """\
       MAIN-PARA.
           ACCEPT LS-TEXT FROM ENVIRONMENT LS-KEY
           GOBACK.
""")  # fmt: skip
    assert ways(spec, "LS-KEY", "LS-TEXT") == ["in", "out"]
    assert input_schema(spec)["required"] == ["ls_key"]


@pytest.mark.parametrize(
    ("name", "direction"),
    [("IN-BIRTH-DATE", "in"), ("INP-REC", "in"), ("INPUT-AREA", "in"), ("LK-IN-ACCOUNT", "in"),
     ("LS-INP-KEY", "in"), ("L-IN-DATE", "in"), ("OUT-AGE", "out"), ("OUTP-TOTAL", "out"),
     ("OUTPUT-LINE", "out"), ("LS-OUT-YEARS", "out"), ("WS-OUT-MSG", "out"), ("LK-OUTPUT-REC", "out"),
     ("DATE-IN", "in"), ("AGE-OUT", "out"), ("INTEREST-RATE", "inout"), ("OUTSTANDING-BAL", "inout"),
     ("INDEX-NO", "inout"), ("LS-INTEREST", "inout"), ("WS-OUTLET", "inout"), ("LS-AMOUNT", "inout")],
)  # fmt: skip
def test_names_decide_by_prefix_as_well_as_suffix(name, direction):
    assert name_direction(name.lower().replace("-", "_")) == direction


# ------------------------------------------------------------------------------------ realistic programs


@pytest.fixture(scope="module")
def progs() -> dict[str, ProgramSpec]:
    return {n: parse_program(FOLDER / f"{n}.cbl") for n in ("AMORTSCH", "AGECALC", "DATECHK")}


def test_amortisation_schedule_is_an_output(progs):
    spec = progs["AMORTSCH"]
    lines = directions_report(spec)
    for item in ("AM-INTEREST", "AM-REPAID", "AM-CLOSING"):
        why = "set by INITIALIZE at line 36 for every occurrence (PERFORM at line 26) before any read, on every path"
        assert f"  AM-SCHEDULE.AM-ROW.{item}: out - {why}" in lines
    assert input_schema(spec)["required"] == ["am_principal", "am_period_rate", "am_payment"]
    assert list(input_schema(spec)["properties"]) == ["am_principal", "am_period_rate", "am_payment"]
    assert list(output_schema(spec)["properties"]) == ["am_row", "am_total_interest"]


def test_age_result_named_out_and_unused_parameters(progs):
    age = progs["AGECALC"]
    assert [r.direction for r in age.records] == ["in", "out"]
    assert "named OUT-YEARS: output" in find(age.records[1].field, "OUT-YEARS").reason
    assert input_schema(age)["required"] == ["in_birth_date", "in_as_of_date"]
    check = progs["DATECHK"]
    assert input_schema(check)["required"] == ["dk_date"]
    assert list(input_schema(check)["properties"]) == ["dk_date", "dk_caller_id", "dk_reserved"]
    assert list(output_schema(check)["properties"]) == ["dk_verdict"]
    assert directions_report(check)[2:] == [
        "  DK-CALLER-ID: in, optional - never used by the PROCEDURE DIVISION: not required, not reported",
        "  DK-RESERVED: in, optional - never used by the PROCEDURE DIVISION: not required, not reported",
    ]


@pytest.fixture(scope="module")
def call(tmp_path_factory, progs):
    with folder_caller(tmp_path_factory.mktemp("direction-loops-build"), FOLDER, progs) as run:
        yield run


@pytest.mark.parametrize(("principal", "rate", "payment"), [("1000.00", "0.0125", "340.00"), ("500.00", "0", "200")])
def test_amortisation_calls(call, principal, rate, payment):
    out = call("AMORTSCH", {"am_principal": principal, "am_period_rate": rate, "am_payment": payment})
    balance, rows, total = Decimal(principal), [], Decimal(0)
    for _ in range(3):
        interest = (balance * Decimal(rate)).quantize(Decimal("0.01"), ROUND_HALF_UP)
        repaid = min(Decimal(payment) - interest, balance)
        balance -= repaid
        total += interest
        rows.append({"am_interest": interest, "am_repaid": repaid, "am_closing": balance})
    assert out == {"am_row": rows, "am_total_interest": total}


@pytest.mark.parametrize(("birth", "as_of"), [(19800615, 20240614), (19800615, 20240615), (20000229, 20240301)])
def test_age_calls(call, birth, as_of):
    b, a = (datetime.datetime.strptime(str(d), "%Y%m%d").date() for d in (birth, as_of))
    months = (a.year - b.year) * 12 + a.month - b.month - (a.day < b.day)
    out = call("AGECALC", {"in_birth_date": birth, "in_as_of_date": as_of})
    assert out == {"out_years": months // 12, "out_months": months % 12}
    # dates out of order: the program sets nothing, the result stays as the caller's storage gave it
    assert call("AGECALC", {"in_birth_date": as_of, "in_as_of_date": birth}) == {"out_years": 0, "out_months": 0}


def test_date_check_calls_with_and_without_the_unused_items(call):
    assert call("DATECHK", {"dk_date": 20240229}) == {"dk_verdict": "Y"}  # DK-DATE-OK
    assert call("DATECHK", {"dk_date": 20230229}) == {"dk_verdict": "N"}  # DK-DATE-BAD
    got = call("DATECHK", {"dk_date": 20240101, "dk_caller_id": "PAYROLL", "dk_reserved": ""})
    assert got == {"dk_verdict": "Y"}


def test_the_direction_override_makes_an_unused_item_a_required_argument(tmp_path, progs):
    from cobol_mcp.cobol.prepare.overrides import read_overrides

    (tmp_path / "cobol-mcp.toml").write_text(
        '[programs.DATECHK.fields.DK-CALLER-ID]\ndirection = "in"\n'
        '[programs.FEEWAIVE.fields.WK-MONTHLY-FEE]\ndirection = "inout"\n'
    )
    folder = read_overrides(tmp_path)
    spec = folder.program("DATECHK").apply_to_spec(progs["DATECHK"])  # type: ignore[union-attr]
    assert input_schema(spec)["required"] == ["dk_date", "dk_caller_id"]
    fee = folder.program("FEEWAIVE").apply_to_spec(parse_program(FOLDER / "FEEWAIVE.cbl"))  # type: ignore[union-attr]
    assert input_schema(fee)["required"] == ["wk_balance", "wk_monthly_fee"]  # the author says it is needed


@pytest.mark.parametrize(
    ("reset", "direction"),
    [
        ("", "out"),  # WS-I set again after the loop only: the loop still runs it 1 to 5
        ("           PERFORM RESET-PARA\n", "inout"),  # the body PERFORMs a paragraph that steps it on
    ],
)
def test_what_the_loops_body_performs_counts_and_what_comes_after_does_not(tmp_path, reset, direction):
    spec = program(tmp_path, f"""\
       MAIN-PARA.
           PERFORM CLEAR-PARA VARYING WS-I FROM 1 BY 1 UNTIL WS-I > 5
           MOVE 1 TO WS-I
           PERFORM VARYING WS-I FROM 1 BY 1 UNTIL WS-I > 5
               ADD 1 TO LS-AMT (WS-I)
           END-PERFORM
           GOBACK.
       CLEAR-PARA.
           MOVE ZERO TO LS-AMT (WS-I)
{reset}           CONTINUE.
       RESET-PARA.
           ADD 1 TO WS-I.
""")  # fmt: skip
    assert ways(spec, "LS-AMT") == [direction], reason(spec, "LS-AMT")


def test_an_element_set_in_a_loop_is_not_the_one_read_after_a_jump_out_and_a_change_of_its_counter(tmp_path):
    """LS-AMT(WS-I) is zeroed, the body jumps out to DONE-PARA, which steps WS-I on and adds to the next
    element: that one was never set, so LS-AMT is read before it is surely set."""
    spec = program(tmp_path, """\
       MAIN-PARA.
           PERFORM VARYING WS-I FROM 1 BY 1 UNTIL WS-I > 5
               MOVE ZERO TO LS-AMT (WS-I)
               IF LS-SUM = 0
                   GO TO DONE-PARA
               END-IF
           END-PERFORM
           GOBACK.
       DONE-PARA.
           ADD 1 TO WS-I
           ADD 1 TO LS-AMT (WS-I)
           GOBACK.
""")  # fmt: skip
    assert ways(spec, "LS-AMT") == ["inout"], reason(spec, "LS-AMT")
    assert "read by ADD at line" in reason(spec, "LS-AMT")
