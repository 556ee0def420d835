"""The precompiler's scanner over our own fixed-format DB2 program and free-format text."""

from __future__ import annotations

from pathlib import Path

from cobol_mcp.cobol.precompile.scan import HostVar, scan_text

HERE = Path(__file__).parent


def test_statement_table_of_a_fixed_format_batch_program() -> None:
    result = scan_text(HERE / "EMPRAISE.cbl")
    table = [(s.number, s.line, s.kind, s.name) for s in result.statements]
    assert table == [
        (1, 8, "INCLUDE SQLCA", "SQLCA"),
        (2, 9, "INCLUDE", "DCLEMP"),
        (3, 10, "BEGIN DECLARE SECTION", None),
        (4, 17, "END DECLARE SECTION", None),
        (5, 19, "DECLARE CURSOR", "EMPCUR"),
        (6, 30, "WHENEVER", None),
        (7, 32, "SELECT INTO", None),
        (8, 38, "OPEN", "EMPCUR"),
        (9, 40, "FETCH", "EMPCUR"),
        (10, 47, "UPDATE WHERE CURRENT OF", "EMPCUR"),
        (11, 58, "CLOSE", "EMPCUR"),
        (12, 59, "SET", None),
        (13, 62, "CONNECT", None),
        (14, 63, "COMMIT", None),
        (15, 66, "ROLLBACK", None),
        (16, 67, "SELECT", None),
    ]
    by_number = {s.number: s for s in result.statements}
    assert by_number[5].end_line == 25 and by_number[5].period and not by_number[7].period
    assert by_number[7].host_vars == [HostVar("WS-COUNT", None, True), HostVar("WS-DEPT", None, False)]
    assert by_number[9].host_vars == [HostVar("WS-EMP.WS-EMPNO", None, True), HostVar("WS-SALARY", "WS-SAL-IND", True)]
    assert by_number[12].host_vars == [HostVar("WS-COUNT", "WS-SAL-IND", True), HostVar("WS-COUNT", None, False)]
    assert "SALARY * 1.05" in by_number[10].text and "EMPR00" not in by_number[10].text  # sequence area gone
    assert by_number[2].member == HERE / "DCLEMP.dcl"  # a DCLGEN member, found like a copybook


def test_the_dclgen_member_declares_its_table(tmp_path: Path) -> None:
    member = scan_text(HERE / "DCLEMP.dcl", "fixed")
    assert [(s.line, s.kind, s.name) for s in member.statements] == [(5, "DECLARE TABLE", "PAYROLL.EMPLOYEE")]
    assert member.problems == []


def test_an_include_member_that_is_nowhere_is_a_problem(tmp_path: Path) -> None:
    program = tmp_path / "NOINC.cbl"
    program.write_text("       IDENTIFICATION DIVISION.\n       PROGRAM-ID. NOINC.\n       DATA DIVISION.\n"
                       "       WORKING-STORAGE SECTION.\n           EXEC SQL INCLUDE DCLNONE END-EXEC.\n")  # fmt: skip
    problems = scan_text(program).problems
    assert [(p.where, p.reason.split(":")[0]) for p in problems] == [(f"{program}:5", "INCLUDE DCLNONE")]


def test_what_cannot_be_translated_is_reported_with_file_and_line() -> None:
    result = scan_text(HERE / "EMPRAISE.cbl")
    where = {(Path(p.where.rsplit(":", 1)[0]).name, int(p.where.rsplit(":", 1)[1])): p.reason for p in result.problems}
    assert set(where) == {("EMPRAISE.cbl", 62), ("EMPRAISE.cbl", 67)}
    assert "CONNECT" in where[("EMPRAISE.cbl", 62)]
    assert "without INTO" in where[("EMPRAISE.cbl", 67)]


def test_free_format_blocks_literals_comments_and_an_open_block(tmp_path: Path) -> None:
    source = tmp_path / "FREEPGM.cob"
    source.write_text(
        ">>SOURCE FORMAT FREE\n"
        "IDENTIFICATION DIVISION.\n"
        "PROGRAM-ID. FREEPGM.\n"
        "PROCEDURE DIVISION.\n"
        "    DISPLAY 'EXEC SQL SELECT 1 END-EXEC'\n"
        "    EXEC SQL UPDATE T SET NAME = 'END-EXEC' -- a comment END-EXEC\n"
        "        WHERE ID = :WS-ID INDICATOR :WS-IND END-EXEC.\n"
        "    exec sql fetch nope into :a end-exec\n"
        "    EXEC\n"
        "      SQL DELETE FROM T\n"
    )
    result = scan_text(source)
    assert [(s.line, s.kind) for s in result.statements] == [(6, "UPDATE"), (8, "FETCH")]
    update = result.statements[0]
    assert update.end_line == 7 and update.period
    assert update.host_vars == [HostVar("WS-ID", "WS-IND", False)]
    assert "comment" not in update.text
    reasons = sorted((p.where.rsplit(":", 1)[1], p.reason) for p in result.problems)
    assert reasons == [("8", "cursor NOPE is used before DECLARE CURSOR"), ("9", "EXEC SQL without END-EXEC")]


def test_blanks_and_dashes_inside_string_literals_are_kept(tmp_path: Path) -> None:
    source = tmp_path / "LITPGM.cob"
    source.write_text(
        ">>SOURCE FORMAT FREE\n"
        "IDENTIFICATION DIVISION.\n"
        "PROGRAM-ID. LITPGM.\n"
        "PROCEDURE DIVISION.\n"
        "    EXEC SQL UPDATE T   SET NAME = 'A  B' -- folded away\n"
        "        WHERE NOTE = '--' AND ID  =  :WS-ID END-EXEC.\n"
    )
    (update,) = scan_text(source).statements
    # outside literals white space is folded and comments dropped; inside them every character counts
    assert update.text == "UPDATE T SET NAME = 'A  B' WHERE NOTE = '--' AND ID = :WS-ID"


def test_an_sqlda_is_declared_and_only_a_statement_using_a_descriptor_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "DYNRPT.cbl"
    path.write_text(
        "       IDENTIFICATION DIVISION.\n       PROGRAM-ID. DYNRPT.\n       DATA DIVISION.\n"
        "       WORKING-STORAGE SECTION.\n           EXEC SQL INCLUDE SQLDA END-EXEC.\n"
        "       PROCEDURE DIVISION.\n           EXEC SQL PREPARE S1 FROM :WS-TEXT END-EXEC\n"
        "           EXEC SQL EXECUTE S1 USING DESCRIPTOR :SQLDA END-EXEC\n           GOBACK.\n"
    )
    result = scan_text(path)
    assert [(p.where, p.reason) for p in result.problems] == [
        (f"{path}:8", "EXECUTE … DESCRIPTOR (an SQLDA) is not supported")
    ]
