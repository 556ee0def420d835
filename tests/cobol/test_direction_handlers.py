"""Directions of CICS programs with HANDLE CONDITION / HANDLE ABEND LABEL: the translator's ``GO TO …
DEPENDING ON DFHEIGDI`` after each command is "carry on, or go to a handler label", each label another
way into the program (see :mod:`cobol_mcp.cobol.linkage.handlers`). A field a handler may read before it
is surely set stays a required input; a field written on some paths only is optional; an abend returns
nothing, so its paths do not make a result optional."""

from __future__ import annotations

from pathlib import Path

from cobol_mcp.cobol.linkage.model import Field
from cobol_mcp.cobol.linkage.program import parse_programs
from cobol_mcp.cobol.prepare.cics import translate

HEAD = """\
       IDENTIFICATION DIVISION.
       PROGRAM-ID. CUSTINQ.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-KEY                      PIC X(8).
       01  WS-RESP                     PIC S9(8) COMP.
       01  WS-LOG                      PIC X(8).
       01  WS-CUSTOMER.
           05  WS-CUST-KEY             PIC X(8).
           05  WS-CUST-NAME            PIC X(30).
       LINKAGE SECTION.
       01  DFHCOMMAREA.
           05  CA-KEY                  PIC X(8).
           05  CA-ALT-KEY              PIC X(8).
           05  CA-RC                   PIC 9(2).
           05  CA-TRIES                PIC 9(2).
           05  CA-AUDIT                PIC X(8).
           05  CA-NAME                 PIC X(30).
       PROCEDURE DIVISION.
"""


def commarea(tmp_path: Path, procedure: str, whole: str = "") -> dict[str, Field]:
    """The COMMAREA's items of the program HEAD + ``procedure`` (or the ``whole`` program), translated and
    analysed as served."""
    source = tmp_path / "CUSTINQ.cbl"
    source.write_text(whole or HEAD + procedure)
    translated = translate(source, "fixed", (), tmp_path / "translated")
    spec = parse_programs(translated.source, "fixed", translated.include, None, 255)[0]
    assert not isinstance(spec, Exception), spec
    record = next(r for r in spec.records if r.name == "DFHCOMMAREA")
    return {f.name: f for f in record.field.children}


def test_a_handler_that_reads_a_field_the_main_flow_never_writes_makes_it_an_input(tmp_path: Path) -> None:
    items = commarea(tmp_path, """\
       0000-MAIN.
           EXEC CICS HANDLE CONDITION NOTFND(8000-NOT-FOUND) END-EXEC
           MOVE 0 TO CA-RC
           MOVE CA-KEY TO WS-KEY
           EXEC CICS READ FILE('CUSTFILE') INTO(WS-CUSTOMER)
                     RIDFLD(WS-KEY)
           END-EXEC
           MOVE WS-CUST-NAME TO CA-NAME
           EXEC CICS RETURN END-EXEC.

       8000-NOT-FOUND.
           MOVE 4 TO CA-RC
           MOVE CA-AUDIT TO WS-LOG
           EXEC CICS WRITEQ TD QUEUE('CSMT') FROM(WS-LOG) END-EXEC
           EXEC CICS RETURN END-EXEC.
""")  # fmt: skip
    audit = items["CA-AUDIT"]
    assert (audit.direction, audit.optional) == ("in", False), audit.reason  # required: only the handler reads it
    assert "line 32" in audit.reason, audit.reason
    assert (items["CA-KEY"].direction, items["CA-KEY"].optional) == ("in", False), items["CA-KEY"].reason
    assert items["CA-RC"].direction == "out", items["CA-RC"].reason  # set on the main flow and in the handler
    name = items["CA-NAME"]  # set on the main flow only: the handler returns without it
    assert (name.direction, name.optional) == ("inout", True), name.reason
    assert items["CA-TRIES"].optional and items["CA-TRIES"].direction == "in"  # never used


def test_a_handler_may_be_taken_before_the_main_flow_sets_a_field(tmp_path: Path) -> None:
    """The READ may go to the handler before CA-TRIES is set: the handler's ADD reads the caller's value."""
    items = commarea(tmp_path, """\
       0000-MAIN.
           EXEC CICS HANDLE CONDITION NOTFND(8000-NOT-FOUND) END-EXEC
           MOVE CA-KEY TO WS-KEY
           EXEC CICS READ FILE('CUSTFILE') INTO(WS-CUSTOMER)
                     RIDFLD(WS-KEY)
           END-EXEC
           MOVE ZERO TO CA-TRIES CA-RC
           EXEC CICS RETURN END-EXEC.

       8000-NOT-FOUND.
           ADD 1 TO CA-TRIES
           MOVE 4 TO CA-RC
           EXEC CICS RETURN END-EXEC.
""")  # fmt: skip
    tries = items["CA-TRIES"]
    assert (tries.direction, tries.optional) == ("inout", False), tries.reason
    assert "read by ADD at line 30 before it is surely set" in tries.reason, tries.reason
    assert items["CA-RC"].direction == "out", items["CA-RC"].reason


def test_a_handler_before_the_commands_and_a_jump_back_into_the_main_flow(tmp_path: Path) -> None:
    """The handler paragraph comes first, so the READ after it "jumps back" to it; the handler goes back to
    the READ for another try. Both are followed: nothing falls back on the names."""
    items = commarea(tmp_path, """\
       0000-MAIN.
           MOVE ZERO TO CA-TRIES
           EXEC CICS HANDLE CONDITION NOTFND(1000-NOT-FOUND) END-EXEC
           GO TO 2000-READ.

       1000-NOT-FOUND.
           ADD 1 TO CA-TRIES
           IF CA-TRIES < 3
               MOVE CA-ALT-KEY TO CA-KEY
               GO TO 2000-READ
           END-IF
           MOVE 4 TO CA-RC
           EXEC CICS RETURN END-EXEC.

       2000-READ.
           MOVE CA-KEY TO WS-KEY
           EXEC CICS READ FILE('CUSTFILE') INTO(WS-CUSTOMER)
                     RIDFLD(WS-KEY)
           END-EXEC
           MOVE WS-CUST-NAME TO CA-NAME
           MOVE 0 TO CA-RC
           EXEC CICS RETURN END-EXEC.
""")  # fmt: skip
    for item in items.values():
        assert "cannot be followed" not in item.reason, (item.name, item.reason)
    assert items["CA-TRIES"].direction == "out", items["CA-TRIES"].reason  # set before the handler can run
    assert (items["CA-ALT-KEY"].direction, items["CA-ALT-KEY"].optional) == ("in", False)  # the handler's
    assert (items["CA-KEY"].direction, items["CA-KEY"].optional) == ("inout", False), items["CA-KEY"].reason
    assert items["CA-RC"].direction == "out", items["CA-RC"].reason
    assert (items["CA-NAME"].direction, items["CA-NAME"].optional) == ("inout", True), items["CA-NAME"].reason


def test_resp_keeps_a_command_away_from_handle_condition_labels(tmp_path: Path) -> None:
    """The READ with RESP, inside a PERFORM, never goes to the NOTFND label, which falls through into a
    PERFORMed paragraph (whose WRITEQ has NOHANDLE): only the top-level commands may go there, and the
    flow is followed. Without RESP the READ may jump out of PERFORM 1000-READ to the label; from there the
    flow runs through 9000-LOG to the program's end, and PERFORM 9000-LOG is not running then: falling out
    of it returns nowhere, so that is followed too."""
    procedure = """\
       0000-MAIN.
           EXEC CICS HANDLE CONDITION NOTFND(8000-NOT-FOUND) END-EXEC
           MOVE 0 TO CA-RC
           PERFORM 1000-READ
           PERFORM 9000-LOG
           EXEC CICS RETURN END-EXEC.

       1000-READ.
           MOVE CA-KEY TO WS-KEY
           EXEC CICS READ FILE('CUSTFILE') INTO(WS-CUSTOMER)
                     RIDFLD(WS-KEY) RESP(WS-RESP)
           END-EXEC
           IF WS-RESP NOT = DFHRESP(NORMAL)
               MOVE 4 TO CA-RC
           END-IF.

       8000-NOT-FOUND.
           MOVE 4 TO CA-RC.

       9000-LOG.
           MOVE CA-KEY TO WS-LOG
           EXEC CICS WRITEQ TD QUEUE('CSMT') FROM(WS-LOG) NOHANDLE
           END-EXEC.
"""  # fmt: skip
    items = commarea(tmp_path, procedure)
    assert (items["CA-RC"].direction, items["CA-RC"].optional) == ("out", False), items["CA-RC"].reason
    assert items["CA-KEY"].direction == "in", items["CA-KEY"].reason
    without = commarea(tmp_path, procedure.replace(" RESP(WS-RESP)", ""))
    assert (without["CA-RC"].direction, without["CA-RC"].optional) == ("out", False), without["CA-RC"].reason
    assert without["CA-KEY"].direction == "in", without["CA-KEY"].reason


def test_a_handler_taken_inside_a_perform_may_fall_into_the_exit_paragraph(tmp_path: Path) -> None:
    """The READ runs under PERFORM 1000-READ; its handler falls through into the paragraph that returns.
    No PERFORMed range ends on the way, so nothing can return into the PERFORM: the flow is followed."""
    items = commarea(tmp_path, """\
       0000-MAIN.
           EXEC CICS HANDLE CONDITION NOTFND(8000-NOT-FOUND) END-EXEC
           PERFORM 1000-READ
           MOVE WS-CUST-NAME TO CA-NAME
           MOVE 0 TO CA-RC
           GO TO 9999-EXIT.

       1000-READ.
           MOVE CA-KEY TO WS-KEY
           EXEC CICS READ FILE('CUSTFILE') INTO(WS-CUSTOMER)
                     RIDFLD(WS-KEY)
           END-EXEC.

       8000-NOT-FOUND.
           MOVE CA-AUDIT TO WS-LOG
           MOVE 4 TO CA-RC.

       9999-EXIT.
           EXEC CICS RETURN END-EXEC.
""")  # fmt: skip
    for item in items.values():
        assert "cannot be followed" not in item.reason, (item.name, item.reason)
    assert items["CA-RC"].direction == "out", items["CA-RC"].reason
    assert (items["CA-AUDIT"].direction, items["CA-AUDIT"].optional) == ("in", False), items["CA-AUDIT"].reason
    assert (items["CA-NAME"].direction, items["CA-NAME"].optional) == ("inout", True), items["CA-NAME"].reason


def test_an_abend_returns_nothing_so_its_paths_make_no_result_optional(tmp_path: Path) -> None:
    """HANDLE ABEND before the results are set, an ABEND before them, and an exit that abends again: the
    results are still set on every path that returns."""
    items = commarea(tmp_path, """\
       0000-MAIN.
           IF CA-KEY = SPACES
               EXEC CICS ABEND ABCODE('CKEY') NODUMP END-EXEC
           END-IF
           EXEC CICS HANDLE ABEND LABEL(9900-ABEND-EXIT) END-EXEC
           MOVE 0 TO CA-RC
           MOVE CA-KEY TO WS-KEY
           EXEC CICS READ FILE('CUSTFILE') INTO(WS-CUSTOMER)
                     RIDFLD(WS-KEY) RESP(WS-RESP)
           END-EXEC
           IF WS-RESP NOT = DFHRESP(NORMAL)
               MOVE 4 TO CA-RC
           END-IF
           MOVE WS-CUST-NAME TO CA-NAME
           EXEC CICS RETURN END-EXEC.

       9900-ABEND-EXIT.
           MOVE CA-AUDIT TO WS-LOG
           EXEC CICS WRITEQ TD QUEUE('CSMT') FROM(WS-LOG) END-EXEC
           EXEC CICS ABEND ABCODE('CERR') NODUMP END-EXEC.
""")  # fmt: skip
    for name in ("CA-RC", "CA-NAME"):
        assert (items[name].direction, items[name].optional) == ("out", False), items[name].reason
    assert (items["CA-AUDIT"].direction, items["CA-AUDIT"].optional) == ("in", False), items["CA-AUDIT"].reason


def test_a_handler_taken_inside_a_perform_that_goes_back_is_not_followed(tmp_path: Path) -> None:
    """The READ runs under PERFORM 1000-READ; its handler goes back to 1000-READ, whose end returns into
    0000-MAIN (the PERFORM is still running): the walk cannot tell, so the names decide, as they did."""
    items = commarea(tmp_path, """\
       0000-MAIN.
           MOVE 0 TO CA-RC
           EXEC CICS HANDLE CONDITION NOTFND(8000-NOT-FOUND) END-EXEC
           PERFORM 1000-READ
           EXEC CICS RETURN END-EXEC.

       1000-READ.
           MOVE CA-KEY TO WS-KEY
           EXEC CICS READ FILE('CUSTFILE') INTO(WS-CUSTOMER)
                     RIDFLD(WS-KEY)
           END-EXEC.

       8000-NOT-FOUND.
           MOVE CA-ALT-KEY TO CA-KEY
           GO TO 1000-READ.
""")  # fmt: skip
    assert "goes back or out of its PERFORM range" in items["CA-RC"].reason, items["CA-RC"].reason
    assert {item.direction for item in items.values()} == {"inout"}


def test_the_policy_front_end_is_analysed_through_its_handle_abend(tmp_path: Path) -> None:
    """POLFRNT (tests/cics_programs/policy): HANDLE ABEND LABEL before its results are set, the exit
    abending again. Its results are outputs on their own, the request an input; the request data, read
    and passed whole to the back ends by LINK, stays a required argument."""
    policy = Path(__file__).parents[1] / "cics_programs" / "policy"
    translated = translate(policy / "POLFRNT.cbl", "fixed", (policy / "copybooks",), tmp_path)
    spec = parse_programs(translated.source, "fixed", translated.include, None, 255)[0]
    assert not isinstance(spec, Exception), spec
    items = {f.name: f for f in next(r for r in spec.records if r.name == "DFHCOMMAREA").field.children}
    for name in ("PC-RETURN-CODE", "PC-RESP", "PC-MESSAGE"):
        assert (items[name].direction, items[name].optional) == ("out", False), items[name].reason
    assert (items["PC-REQUEST-ID"].direction, items["PC-REQUEST-ID"].optional) == ("inout", False)
    assert "read by WHEN at line " in items["PC-REQUEST-ID"].reason  # LINK's COMMAREA may change it
    data = items["PC-REQUEST-DATA"]
    assert (data.direction, data.optional) == ("inout", False), data.reason


def test_a_dispatch_after_a_call_not_understood_is_not_taken_for_the_translators(tmp_path: Path) -> None:
    """Descriptors are there, but the second CALL's parameters do not match its descriptor: its GO TO
    DEPENDING ON DFHEIGDI is not read with the ABEND descriptor seen before (which would drop the
    condition label): the flow is unknown, and the names decide."""
    source = tmp_path / "HANDTRAN.cbl"
    source.write_text("""\
       IDENTIFICATION DIVISION.
       PROGRAM-ID. HANDTRAN.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  DFHEIGDI                    PIC S9(4) COMP.
       01  DFHEIBLK                    PIC X(85).
       01  DFHD1.
           05  FILLER PIC X(14) VALUE '10;ABEND;NODUMP'.
       01  DFHD2.
           05  FILLER PIC X(18) VALUE '12;READ;FILE();INTO()'.
       LINKAGE SECTION.
       01  LS-AREA.
           05  LS-RC                   PIC 9(2).
       PROCEDURE DIVISION USING LS-AREA.
       0000-MAIN.
           IF LS-RC = 99
               CALL 'CICSRT' USING BY VALUE 1 BY REFERENCE DFHEIBLK DFHD1
               GOBACK
           END-IF
           CALL 'CICSRT' USING BY VALUE 2 BY REFERENCE DFHEIBLK DFHD2
           GO TO 8000-NOT-FOUND DEPENDING ON DFHEIGDI
           MOVE 0 TO LS-RC
           GOBACK.
       8000-NOT-FOUND.
           ADD 1 TO LS-RC
           GOBACK.
""")  # fmt: skip
    spec = parse_programs(source, "fixed", (), None, 255)[0]
    assert not isinstance(spec, Exception), spec
    rc = spec.records[0].field.children[0]
    assert "without one fixed target" in rc.reason, rc.reason


CLAIMINQ = Path(__file__).parent / "realworld" / "direction" / "cics" / "CLAIMINQ.cbl"


def test_a_copy_of_the_commarea_into_a_log_area_is_no_read(tmp_path: Path) -> None:
    """CLAIMINQ's error paragraph copies DFHCOMMAREA(1:EIBCALEN) (or its first 60 bytes) into CA-DATA,
    and CA-ERROR-MSG only goes to LINK ERRLOG: the caller's values only reach the log, so the items keep
    the directions the program's own statements give them. Read back, the same copy is a read again."""
    items = commarea(tmp_path, "", CLAIMINQ.read_text())
    way = {name: (f.direction, f.optional) for name, f in items.items()}
    assert way["CA-REQUEST-ID"] == ("in", True), items["CA-REQUEST-ID"].reason  # never used
    assert way["CA-RETURN-CODE"] == ("out", False), items["CA-RETURN-CODE"].reason
    assert way["CA-CLAIM-NUM"] == ("in", False), items["CA-CLAIM-NUM"].reason
    for name in ("CA-CLAIM-STATUS", "CA-CLAIM-PAID"):  # set unless the claim is not found
        assert way[name] == ("inout", True), items[name].reason
    read_back = CLAIMINQ.read_text().replace(
        "               EXEC CICS LINK PROGRAM('ERRLOG')\n",
        "               MOVE CA-DATA TO EM-TEXT\n               EXEC CICS LINK PROGRAM('ERRLOG')\n",
    )
    items = commarea(tmp_path, "", read_back)
    assert items["CA-CLAIM-STATUS"].reason.startswith("ADDRESS OF or a reference modification with variable")
    assert (items["CA-CLAIM-STATUS"].direction, items["CA-CLAIM-STATUS"].optional) == ("inout", False)
