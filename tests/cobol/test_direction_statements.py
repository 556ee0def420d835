"""Direction analysis statement by statement: what each statement reads and writes, paths through
branches and loops, and the cases where the flow cannot be known (fixed-format programs written here)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from cobol_mcp.cobol.linkage.model import ProgramSpec
from cobol_mcp.cobol.linkage.program import parse_program

from .conftest import find

LINKAGE = """\
       01  LS-PARMS.
           05  LS-COUNT            PIC 9(2).
           05  LS-KEY              PIC X(4).
           05  LS-ENTRY            OCCURS 5 TIMES INDEXED BY LS-IX.
               10  LS-CODE         PIC X(4).
               10  LS-AMT          PIC S9(5)V99 COMP-3.
           05  LS-NAME             PIC X(20).
           05  LS-DATE             PIC 9(8).
           05  LS-DATE-X REDEFINES LS-DATE.
               10  LS-YEAR         PIC 9(4).
               10  LS-MMDD         PIC 9(4).
           05  LS-FLAG             PIC X.
               88  LS-FOUND        VALUE "Y".
               88  LS-NOT-FOUND    VALUE "N".
           05  LS-TOTAL            PIC S9(7)V99.
           05  LS-TALLY            PIC 9(3).
           05  LS-PTR              PIC 9(3).
           05  LS-TEXT             PIC X(30).
           05  LS-PART-1           PIC X(10).
           05  LS-PART-2           PIC X(10).
           05  LS-RC               PIC 9(2).
"""


def program(tmp_path: Path, procedure: str, working: str = "", linkage: str = LINKAGE) -> ProgramSpec:
    """A fixed-format program (sequence numbers, identification area) with LS-PARMS and these statements."""
    text = (
        "       IDENTIFICATION DIVISION.\n       PROGRAM-ID. FLOWTEST.\n       DATA DIVISION.\n"
        "       WORKING-STORAGE SECTION.\n       01  WS-I                PIC 9(2).\n"
        "       01  WS-P                PIC 9(2).\n       01  WS-COPY             PIC X(100).\n"
        "       01  WS-PTR              USAGE POINTER.\n"
        f"{working}       LINKAGE SECTION.\n{linkage}       PROCEDURE DIVISION USING LS-PARMS.\n{procedure}"
    )
    lines = [f"{n * 10:06d}{line[6:]:<66}FLOWTEST" for n, line in enumerate(text.splitlines(), 1)]
    path = tmp_path / "FLOWTEST.cbl"
    path.write_text("\n".join(lines) + "\n")
    return parse_program(path)


def ways(spec: ProgramSpec, *names: str) -> list[str]:
    return [find(spec.records[0].field, n).direction for n in names]


def reason(spec: ProgramSpec, name: str) -> str:
    return find(spec.records[0].field, name).reason


def test_arithmetic_forms(tmp_path):
    spec = program(tmp_path, """\
       MAIN-PARA.
           MOVE ZERO TO LS-TOTAL
           ADD LS-COUNT TO LS-TOTAL
           MULTIPLY 2 BY LS-TALLY
           DIVIDE LS-COUNT INTO LS-PTR GIVING LS-RC
           GOBACK.
""")  # fmt: skip
    assert ways(spec, "LS-TOTAL", "LS-COUNT", "LS-TALLY", "LS-PTR", "LS-RC") == ["out", "in", "inout", "in", "out"]
    assert reason(spec, "LS-TALLY").startswith("read by MULTIPLY at line ")


def test_size_error_means_the_target_may_keep_its_value(tmp_path):
    spec = program(tmp_path, """\
       MAIN-PARA.
           COMPUTE LS-TOTAL = LS-COUNT * 1000
               ON SIZE ERROR
                   MOVE 8 TO LS-RC
               NOT ON SIZE ERROR
                   MOVE 0 TO LS-RC
           END-COMPUTE
           GOBACK.
""")  # fmt: skip
    assert ways(spec, "LS-TOTAL", "LS-RC") == ["inout", "out"]


def test_loops_may_run_zero_times(tmp_path):
    spec = program(tmp_path, """\
       MAIN-PARA.
           MOVE ZERO TO LS-TOTAL
           PERFORM VARYING WS-I FROM 1 BY 1 UNTIL WS-I > LS-COUNT
               ADD LS-AMT (WS-I) TO LS-TOTAL
               MOVE "DONE" TO LS-PART-1
           END-PERFORM
           PERFORM WITH TEST AFTER UNTIL WS-I > 5
               MOVE SPACES TO LS-PART-2
               ADD 1 TO WS-I
           END-PERFORM
           PERFORM 2 TIMES
               MOVE ZERO TO LS-RC
           END-PERFORM
           GOBACK.
""")  # fmt: skip
    assert ways(spec, "LS-TOTAL", "LS-AMT", "LS-COUNT") == ["out", "in", "in"]
    assert ways(spec, "LS-PART-1", "LS-PART-2", "LS-RC") == ["inout", "out", "out"]


def test_string_unstring_inspect(tmp_path):
    spec = program(tmp_path, """\
       MAIN-PARA.
           MOVE 1 TO LS-PTR
           UNSTRING LS-NAME DELIMITED BY SPACE
               INTO LS-PART-1 LS-PART-2
               WITH POINTER LS-PTR
           END-UNSTRING
           STRING LS-KEY DELIMITED BY SIZE INTO LS-TEXT
           INSPECT LS-TEXT REPLACING ALL "-" BY SPACE
           INSPECT LS-NAME TALLYING LS-TALLY FOR ALL SPACE
           GOBACK.
""")  # fmt: skip
    assert ways(spec, "LS-NAME", "LS-KEY") == ["in", "in"]
    assert ways(spec, "LS-PART-1", "LS-PART-2", "LS-PTR") == ["inout", "inout", "out"]
    assert ways(spec, "LS-TEXT", "LS-TALLY") == ["inout", "inout"]
    assert reason(spec, "LS-TALLY").startswith("read by INSPECT at line ")


def test_search_set_and_conditions(tmp_path):
    spec = program(tmp_path, """\
       MAIN-PARA.
           SET LS-IX TO 1
           SEARCH LS-ENTRY
               AT END
                   SET LS-NOT-FOUND TO TRUE
               WHEN LS-CODE (LS-IX) = LS-KEY
                   SET LS-FOUND TO TRUE
           END-SEARCH
           GOBACK.
""")  # fmt: skip
    assert ways(spec, "LS-FLAG", "LS-CODE", "LS-KEY", "LS-AMT") == ["out", "in", "in", "in"]


def test_groups_redefines_and_reference_modification(tmp_path):
    spec = program(tmp_path, """\
       MAIN-PARA.
           MOVE "20240101" TO LS-DATE-X
           MOVE 12 TO LS-MMDD
           MOVE "AB" TO LS-NAME (1:2)
           MOVE LS-TEXT (WS-P:2) TO LS-PART-1
           DISPLAY LS-DATE
           GOBACK.
""")  # fmt: skip
    assert ways(spec, "LS-DATE", "LS-NAME") == ["out", "inout"]  # whole through the REDEFINES; part of the name
    assert reason(spec, "LS-TEXT").startswith("ADDRESS OF or a reference modification with variable bounds at line")
    assert reason(spec, "LS-TEXT") == (
        "ADDRESS OF or a reference modification with variable bounds at line 36; in/out by default"
    )
    group = program(tmp_path, """\
       MAIN-PARA.
           MOVE LS-PARMS TO WS-COPY
           GOBACK.
""")  # fmt: skip
    assert set(ways(group, "LS-COUNT", "LS-NAME", "LS-RC", "LS-CODE")) == {"in"}


def test_if_branches_and_next_sentence(tmp_path):
    spec = program(tmp_path, """\
       MAIN-PARA.
           IF LS-COUNT = ZERO
               NEXT SENTENCE
           ELSE
               MOVE 4 TO LS-RC
           END-IF
           MOVE SPACES TO LS-TEXT.
           MOVE ZERO TO LS-TALLY.
           EVALUATE LS-KEY
               WHEN "ADD "
                   MOVE 1 TO LS-PTR
               WHEN OTHER
                   MOVE 2 TO LS-PTR
           END-EVALUATE
           GOBACK.
""")  # fmt: skip
    assert ways(spec, "LS-RC", "LS-TEXT", "LS-TALLY", "LS-PTR", "LS-KEY") == ["inout", "inout", "out", "out", "in"]


def test_paragraphs_sections_and_exits(tmp_path):
    spec = program(tmp_path, """\
       MAIN SECTION.
       MAIN-START.
           PERFORM INIT-RTN
           PERFORM CHECK-RTN THRU CHECK-EXIT
           GOBACK.
       SUBS SECTION.
       INIT-RTN.
           MOVE ZERO TO LS-RC.
       CHECK-RTN.
           IF LS-COUNT > 5
               MOVE 8 TO LS-RC
               GO TO CHECK-EXIT
           END-IF
           MOVE SPACES TO LS-TEXT.
       CHECK-EXIT.
           EXIT.
""")  # fmt: skip
    assert ways(spec, "LS-RC", "LS-TEXT", "LS-COUNT") == ["out", "inout", "in"]
    assert reason(spec, "LS-TEXT").endswith(
        "not required (the caller's value, or its VALUE or spaces/zeros, may come back)"
    )
    assert find(spec.records[0].field, "LS-TEXT").optional  # not required: the program never reads it first


@pytest.mark.parametrize(
    ("procedure", "why"),
    [
        (
            "       MAIN-PARA.\n           ALTER STEP-2 TO PROCEED TO STEP-3\n           GO TO STEP-2.\n"
            "       STEP-2.\n           GO TO STEP-3.\n"
            "       STEP-3.\n           MOVE 1 TO LS-RC\n           GOBACK.\n",
            "ALTER at line ",
        ),
        (
            "       MAIN-PARA.\n           GO TO STEP-2 STEP-3 DEPENDING ON LS-COUNT.\n       STEP-2.\n"
            "           MOVE 1 TO LS-RC\n           GOBACK.\n       STEP-3.\n           GOBACK.\n",
            "without one fixed target",
        ),
        (  # back from inside a PERFORM to a paragraph that falls through: it might return into the PERFORM
            "       MAIN-PARA.\n           PERFORM LOOP-PARA\n           GOBACK.\n       START-PARA.\n"
            "           MOVE 1 TO LS-RC.\n       LOOP-PARA.\n           ADD 1 TO LS-RC\n"
            "           IF LS-RC < 9\n               GO TO START-PARA\n           END-IF.\n",
            "goes back or out of its PERFORM range",
        ),
    ],
)
def test_flow_that_cannot_be_followed_falls_back_on_names(tmp_path, procedure, why):
    spec = program(tmp_path, procedure)
    assert why in reason(spec, "LS-RC")
    assert reason(spec, "LS-RC").endswith("in/out by default")
    assert set(ways(spec, "LS-RC", "LS-COUNT", "LS-NAME")) == {"inout"}


def test_a_go_to_back_with_no_perform_running_is_followed_as_another_way_in(tmp_path):
    """A loop made of a GO TO back, with no PERFORM running: the paragraph it goes to is walked again from
    what is surely set on every jump to it, and the flow runs on to the program's end."""
    spec = program(tmp_path, """\
       MAIN-PARA.
           MOVE 1 TO LS-RC.
       LOOP-PARA.
           ADD LS-COUNT TO LS-RC
           IF LS-RC < 9
               MOVE SPACES TO LS-NAME
               GO TO LOOP-PARA
           END-IF
           GOBACK.
""")  # fmt: skip
    assert ways(spec, "LS-RC", "LS-COUNT", "LS-NAME") == ["out", "in", "inout"], reason(spec, "LS-RC")
    assert reason(spec, "LS-RC").startswith("set by MOVE at line ")
    assert find(spec.records[0].field, "LS-NAME").optional  # set only when the loop goes round


def test_address_of_and_unknown_statements(tmp_path):
    spec = program(tmp_path, """\
       MAIN-PARA.
           SET WS-PTR TO ADDRESS OF LS-TEXT
           CALL "SUBPGM" USING BY CONTENT LS-KEY BY REFERENCE LS-NAME
           MOVE ZERO TO LS-RC
           CALL "SHOWADDR" USING BY VALUE WS-PTR
           GOBACK.
""")  # fmt: skip
    assert reason(spec, "LS-TEXT").startswith("ADDRESS OF or a reference modification with variable bounds")
    assert ways(spec, "LS-TEXT", "LS-KEY", "LS-NAME", "LS-RC") == ["inout", "in", "inout", "out"]
    assert reason(spec, "LS-KEY") == "read by CALL at line 34 (BY CONTENT), never written"
    assert reason(spec, "LS-NAME") == (
        "passed to CALL 'SUBPGM' at line 34 (BY REFERENCE): direction unknown; in/out by default"
    )


def test_recursion_and_unreadable_statements(tmp_path):
    spec = program(tmp_path, """\
       MAIN-PARA.
           PERFORM AGAIN-PARA
           GOBACK.
       AGAIN-PARA.
           MOVE 1 TO LS-RC
           PERFORM AGAIN-PARA.
""")  # fmt: skip
    assert "already running" in reason(spec, "LS-RC")


@pytest.mark.skipif(shutil.which("cobc") is None, reason="GnuCOBOL's cobc is not installed")
def test_the_flow_programs_are_cobol(tmp_path):
    """The statement shapes above are ones GnuCOBOL accepts (a sample of them, syntax only)."""
    program(tmp_path, """\
       MAIN-PARA.
           MOVE 1 TO LS-PTR
           UNSTRING LS-NAME DELIMITED BY SPACE
               INTO LS-PART-1 LS-PART-2
               WITH POINTER LS-PTR
           END-UNSTRING
           SET LS-IX TO 1
           SEARCH LS-ENTRY
               AT END
                   SET LS-NOT-FOUND TO TRUE
               WHEN LS-CODE (LS-IX) = LS-KEY
                   SET LS-FOUND TO TRUE
           END-SEARCH
           GOBACK.
""")  # fmt: skip
    done = subprocess.run(
        ["cobc", "-fsyntax-only", str(tmp_path / "FLOWTEST.cbl")], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr


def test_statements_the_tokenizer_cannot_read_leave_the_names_to_decide(tmp_path):
    spec = program(tmp_path, """\
       MAIN-PARA.
           MOVE "UNTERMINATED TO LS-TEXT
           GOBACK.
""")  # fmt: skip
    assert reason(spec, "LS-RC").startswith("the statements cannot be followed (")
    assert "unterminated literal" in reason(spec, "LS-RC")
    assert set(ways(spec, "LS-RC", "LS-TEXT")) == {"inout"}


def test_condition_names_that_look_like_scope_terminators(tmp_path):
    spec = program(
        tmp_path,
        """\
       MAIN-PARA.
           IF NOT END-OF-LIST
               MOVE 4 TO LS-RC
           ELSE
               MOVE 0 TO LS-RC
           END-IF
           GOBACK.
""",
        working='       01  WS-EOF              PIC X.\n           88  END-OF-LIST     VALUE "Y".\n',
    )
    assert ways(spec, "LS-RC") == ["out"]


def test_procedure_code_from_a_copybook(tmp_path):
    (tmp_path / "copybooks").mkdir()
    (tmp_path / "copybooks" / "SETRC.cpy").write_text(
        "000010 SET-RC.                                                          SETRC\n"
        "000020     MOVE ZERO TO LS-RC                                           SETRC\n"
        "000030     MOVE LS-KEY TO LS-PART-1.                                    SETRC\n"
    )
    spec = program(tmp_path, """\
       MAIN-PARA.
           PERFORM SET-RC
           GOBACK.
           COPY SETRC.
""")  # fmt: skip
    assert reason(spec, "LS-RC") == "set by MOVE at SETRC.cpy:2 before any read, on every path"
    assert reason(spec, "LS-KEY") == "read by MOVE at SETRC.cpy:3, never written"


def test_an_output_by_name_read_before_it_is_set_stays_an_output(tmp_path):
    linkage = """\
       01  LS-PARMS.
           05  LS-COUNT-OUT        PIC 9(3) VALUE 7.
           05  LS-TALLY            PIC 9(3).
"""
    spec = program(tmp_path, """\
       MAIN-PARA.
           ADD 1 TO LS-COUNT-OUT
           ADD 1 TO LS-TALLY
           GOBACK.
""", linkage=linkage)  # fmt: skip
    assert ways(spec, "LS-COUNT-OUT", "LS-TALLY") == ["out", "inout"]
    assert reason(spec, "LS-COUNT-OUT") == (
        "read by ADD at line 15 before it is surely set; named LS-COUNT-OUT: output, starting as its VALUE or "
        "spaces/zeros"
    )


def test_go_to_an_abend_paragraph_from_a_performed_one(tmp_path):
    spec = program(tmp_path, """\
       0000-MAIN.
           PERFORM 1000-CHECK
           MOVE ZERO TO LS-RC
           GOBACK.
       1000-CHECK.
           MOVE SPACES TO LS-TEXT
           IF LS-COUNT = ZERO
               GO TO 9999-ABEND
           END-IF.
       9999-ABEND.
           MOVE 99 TO LS-RC
           GOBACK.
""")  # fmt: skip
    assert ways(spec, "LS-TEXT", "LS-RC", "LS-COUNT") == ["out", "out", "in"]
    assert reason(spec, "LS-RC") == "set before any read on every path (by MOVE at line 42, MOVE at line 34)"
