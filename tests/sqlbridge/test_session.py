"""The bridge without a worker: CALL 'SQLRT' parameters built with the codec, served by a session on
SQLite and on a real PostgreSQL, read back with the codec, as the programs of tests/sql_programs make them."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from cobol_mcp.cobol import LinkageError
from cobol_mcp.cobol.linkage.storage import read_storage
from cobol_mcp.db.apply import apply_files
from cobol_mcp.db.url import Database
from cobol_mcp.sqlbridge import values as bridge
from cobol_mcp.sqlbridge.session import PROGRAM_NUMBER, ServiceError, Session, SqlProgram

from .helpers import PROGRAMS, Call, prepared, sql_program

PAYROLL = Path(__file__).parents[1] / "db" / "payroll.sql"


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Database:
    if request.param == "sqlite":
        database = Database("sqlite", str(tmp_path / "pay.db"))
    else:
        database = Database("postgresql", request.getfixturevalue("postgres_url"))
    unique = tmp_path / "unique.sql"
    unique.write_text("CREATE UNIQUE INDEX PAYROLL.XEMP3 ON PAYROLL.EMPLOYEE (LASTNAME, HIREDATE);\n")
    apply_files([PAYROLL, unique], database, note=lambda line: None)
    return database


def _add(program: SqlProgram, session: Session, last: str, first: str, dept: str, salary: str) -> Call:
    """EMPMAINT's 2000-ADD: the INSERT (statement 4) with the values 2000-ADD moves into DCLEMPLOYEE."""
    call = Call(program, 4).put("LASTNAME", last).put("FIRSTNAME", first).put("WORKDEPT", dept)
    return call.put("SALARY", salary).put("HIREDATE", "2024-04-01").run(session)


def test_the_sqlca_offsets_written_are_those_of_the_sqlca_copybook(tmp_path: Path) -> None:
    db = Database("sqlite", str(tmp_path / "x.db"))
    prepared(PROGRAMS / "EMPMAINT.cbl", tmp_path / "p", db)
    storage = read_storage(tmp_path / "p" / "EMPMAINT.cbl", "fixed", (tmp_path / "p",))
    sqlca = next(f for _, f in storage.records if f.name == "SQLCA")
    at = {c.name: c.offset for c in sqlca.children}
    errm = {c.name: c.offset for c in sqlca.children[3].children}
    assert sqlca.size == bridge.SQLCA_SIZE
    assert (at["SQLCODE"], at["SQLERRD"], at["SQLWARN"], at["SQLSTATE"]) == (
        bridge.SQLCODE_AT, bridge.SQLERRD_AT, bridge.SQLWARN_AT, bridge.SQLSTATE_AT)  # fmt: skip
    assert (errm["SQLERRML"], errm["SQLERRMC"]) == (bridge.SQLERRML_AT, bridge.SQLERRMC_AT)


def test_empmaint_adds_inquires_and_branches_on_not_found_and_bad_department(db: Database, tmp_path: Path) -> None:
    program = prepared(PROGRAMS / "EMPMAINT.cbl", tmp_path / "p", db)
    session = Session(program)
    added = _add(program, session, "LOPEZ", "ANA MARIA", "A00", "39175.25")
    assert (added.sqlcode, added.sqlstate, added.sqlerrd3) == (0, "00000", 1)
    number = Call(program, 5).run(session)  # SET :WS-NEW-EMPNO = IDENTITY_VAL_LOCAL()
    new = number.get("WS-NEW-EMPNO")
    assert number.sqlcode == 0 and isinstance(new, int) and new > 1001
    found = Call(program, 3).put("EMPNO", new).run(session)
    assert (found.sqlcode, found.sqlerrd3) == (0, 1)
    assert found.get("LASTNAME") == "LOPEZ          " and found.get("FIRSTNAME") == "ANA MARIA"  # VARCHAR: 9 bytes
    assert found.get("WORKDEPT") == "A00" and found.get("IEMP-WORKDEPT") == 0
    assert found.get("SALARY") == Decimal("39175.25") and found.get("IEMP-SALARY") == 0
    missing = Call(program, 3).put("EMPNO", 4711).put("LASTNAME", "UNCHANGED").run(session)
    assert (missing.sqlcode, missing.sqlstate, missing.sqlerrd3) == (100, "02000", 0)
    assert missing.get("LASTNAME") == "UNCHANGED      "  # DB2 leaves the host variables alone on +100
    bad = _add(program, session, "SMITH", "JO", "ZZZ", "1.00")
    assert (bad.sqlcode, bad.sqlstate[:2]) == (-530, "23") and bad.sqlerrm  # WHEN -530 of 2000-ADD
    session.end(True)


def test_a_duplicate_key_is_803_and_the_unit_goes_on(db: Database, tmp_path: Path) -> None:
    program = prepared(PROGRAMS / "EMPMAINT.cbl", tmp_path / "p", db)
    session = Session(program)
    assert _add(program, session, "LOPEZ", "ANA", "A00", "10.00").sqlcode == 0
    dup = _add(program, session, "LOPEZ", "ANA", "D11", "20.00")
    assert (dup.sqlcode, dup.sqlstate) == (-803, "23505")
    assert _add(program, session, "LOPEZ", "ANA", "A00", "10.00").sqlcode == -803  # the first one stays
    session.end(True)


def test_structures_indicator_arrays_cut_text_and_nulls(db: Database, tmp_path: Path) -> None:
    program = prepared(PROGRAMS / "EMPROW.cbl", tmp_path / "p", db)
    session = Session(program)
    moved = Call(program, 6).put("WS-NEW-DEPT", "XXX").put("WS-NEW-DEPT-IND", -1).put("EMPNO", 1001).run(session)
    assert (moved.sqlcode, moved.sqlerrd3) == (0, 1)  # indicator -1: WORKDEPT set to NULL, not to 'XXX'
    row = Call(program, 3).put("EMPNO", 1001).put("DCLEMPLOYEE.WORKDEPT", "OLD").run(session)
    assert row.sqlcode == 0
    assert [row.get(f"WS-IND-TABLE.{k}") for k in range(1, 8)] == [0, 0, 0, -1, 0, 0, 0]
    assert row.get("DCLEMPLOYEE.WORKDEPT") == "OLD"  # NULL: the host variable is left alone
    assert row.get("DCLEMPLOYEE.LASTNAME") == "O'CONNELL      " and row.get("DCLEMPLOYEE.FIRSTNAME") == ""
    assert row.get("DCLEMPLOYEE.SALARY") == Decimal("0.30") and row.get("DCLEMPLOYEE.EMPNO") == 1001
    assert row.get("DCLEMPLOYEE.HIREDATE") == "2001-02-28"
    no_indicator = Call(program, 5).put("EMPNO", 1001).run(session)
    assert (no_indicator.sqlcode, no_indicator.sqlstate) == (-305, "22002")
    short = Call(program, 4).put("EMPNO", 1001).run(session)
    assert short.sqlcode == 0 and short.sqlwarn[:2] == "WW"  # SQLWARN0 and SQLWARN1: a string was cut
    assert short.get("WS-SHORT-NAME") == "O'CON" and short.get("WS-SHORT-IND") == 15  # its length before
    whole = Call(program, 4).put("EMPNO", 1000).run(session)  # CHAR(15): its blanks count, as on DB2
    assert whole.sqlwarn[:2] == "WW" and whole.get("WS-SHORT-NAME") == "HAAS " and whole.get("WS-SHORT-IND") == 15
    fits = Call(program, 5).put("EMPNO", 1000).run(session)
    assert fits.sqlwarn == " " * 11 and fits.get("WS-DEPT-NOIND") == "A00"
    session.end(True)


def test_bytes_that_are_no_value_are_302_and_nothing_runs(db: Database, tmp_path: Path) -> None:
    program = prepared(PROGRAMS / "EMPMAINT.cbl", tmp_path / "p", db)
    session = Session(program)
    call = Call(program, 4).put("LASTNAME", "X").put("FIRSTNAME", "Y").put("WORKDEPT", "A00")
    call.put("HIREDATE", "2024-04-01")  # SALARY (COMP-3) left as spaces
    assert call.run(session).sqlcode == -302 and session.unit is None
    session.end(False)


def test_a_failed_call_leaves_nothing_and_calls_do_not_see_each_others_rows(db: Database, tmp_path: Path) -> None:
    program = prepared(PROGRAMS / "EMPMAINT.cbl", tmp_path / "p", db)
    first, second = Session(program), Session(program)
    assert _add(program, first, "GONE", "NOT", "A00", "1.00").sqlcode == 0
    new = Call(program, 5).run(first).get("WS-NEW-EMPNO")
    assert Call(program, 3).put("EMPNO", new).run(first).sqlcode == 0  # its own row, uncommitted
    assert Call(program, 3).put("EMPNO", new).run(second).sqlcode == 100  # not the other call's
    second.end(True)
    first.end(False)  # the call failed
    later = Session(program)
    assert Call(program, 3).put("EMPNO", new).run(later).sqlcode == 100
    assert _add(program, later, "KEPT", "YES", "A00", "2.00").sqlcode == 0
    kept = Call(program, 5).run(later).get("WS-NEW-EMPNO")
    later.end(True)  # a normal end, whatever RETURN-CODE
    check = Session(program)
    assert Call(program, 3).put("EMPNO", kept).run(check).get("LASTNAME") == "KEPT           "
    check.end(True)


def test_a_call_the_program_cannot_make_fails_the_tool_call(tmp_path: Path) -> None:
    db = Database("sqlite", str(tmp_path / "x.db"))
    apply_files([PAYROLL], db, note=lambda line: None)
    program = prepared(PROGRAMS / "EMPMAINT.cbl", tmp_path / "p", db)
    session = Session(program)
    with pytest.raises(ServiceError, match="statement number 99"):
        session.service(99, [b" " * 136])
    with pytest.raises(ServiceError, match="expected"):
        session.service(3, [b" " * 136, b" " * 3])
    session.end(False)


def _program(folder: Path, body: str) -> Path:
    return sql_program(folder, "BADSQL", body)


def test_what_cannot_be_served_refuses_the_program_with_its_line(tmp_path: Path) -> None:
    db = Database("sqlite", str(tmp_path / "x.db"))
    apply_files([PAYROLL], db, note=lambda line: None)
    unknown = _program(tmp_path / "a", """\
        0000-MAIN.
            EXEC SQL SELECT LASTNAME INTO :WS-NAME FROM PAYROLL.EMPLOYEE
                      WHERE EMPNO = :WS-NUMBER END-EXEC
            GOBACK.
        """)  # fmt: skip
    with pytest.raises(LinkageError, match=r"BADSQL.cbl:9: host variable WS-NUMBER is not declared"):
        prepared(unknown, tmp_path / "ga", db)
    locked = _program(tmp_path / "b", """\
        0000-MAIN.
            MOVE SPACES TO WS-NAME
            EXEC SQL LOCK TABLE PAYROLL.EMPLOYEE
                      IN EXCLUSIVE MODE END-EXEC
            GOBACK.
        """)  # fmt: skip
    with pytest.raises(LinkageError, match=r"BADSQL.cbl:10: LOCK is not supported"):
        prepared(locked, tmp_path / "gb", db)


def test_emprpt_opens_its_cursor_with_the_department_and_updates_where_current_of(db: Database, tmp_path: Path) -> None:
    program = prepared(PROGRAMS / "EMPRPT.cbl", tmp_path / "p", db)
    session = Session(program)
    assert Call(program, 7).put("WS-DEPT", "A00").run(session).sqlcode == 0  # OPEN EMPCSR reads WS-DEPT
    names = []
    while (fetched := Call(program, 8).run(session)).sqlcode == 0:
        names.append(str(fetched.get("DCLEMPLOYEE.LASTNAME")).rstrip())
        salary = fetched.get("SALARY")
        assert isinstance(salary, Decimal) and fetched.get("IEMP-SALARY") == 0
        raised = Call(program, 9).put("WS-NEW-SALARY", salary + Decimal("0.50")).run(session)
        assert (raised.sqlcode, raised.sqlerrd3) == (0, 1)
    assert fetched.sqlcode == 100 and names == ["HAAS"]
    assert Call(program, 10).run(session).sqlcode == 0  # COMMIT: the cursor is WITH HOLD
    assert Call(program, 11).run(session).sqlcode == 0  # CLOSE
    total = Call(program, 13).put("WS-DEPT", "A00").run(session)
    assert total.get("LS-NEW-TOTAL") == Decimal("52750.50")
    session.end(True)


def test_statements_are_answered_with_the_plan_of_the_program_the_runtime_names(tmp_path: Path) -> None:
    """A subprogram's statement numbers are its own: after the runtime names it (PROGRAM_NUMBER), a number
    only it has is served with its plan, in the same unit of work; a program the folder has not is refused."""
    db = Database("sqlite", str(tmp_path / "x.db"))
    apply_files([PAYROLL], db, note=lambda line: None)
    caller = prepared(PROGRAMS / "EMPMAINT.cbl", tmp_path / "a", db)
    callee = prepared(PROGRAMS / "EMPRPT.cbl", tmp_path / "b", db)
    number = max(callee.codecs)
    assert number not in caller.codecs
    params = [b"\0" * bridge.SQLCA_SIZE, *(b" " * size for size in callee.codecs[number][0].sizes)]
    session = Session(caller, folder={"EMPMAINT": caller, "EMPRPT": callee})
    with pytest.raises(ServiceError, match=f"statement number {number}"):
        session.service(number, params)
    assert session.service(PROGRAM_NUMBER, [b"EMPRPT"]) == [b"EMPRPT"]
    assert len(session.service(number, params)) == len(params)  # EMPRPT's statement, not refused
    unit = session.unit
    assert unit is not None and unit.plan is callee.plan
    session.service(PROGRAM_NUMBER, [b"EMPMAINT"])
    _add(caller, session, "LOPEZ", "ANA", "A00", "1.00")  # EMPMAINT's own statement 4 again, in the same unit
    assert session.unit is unit and unit.plan is caller.plan
    with pytest.raises(ServiceError, match="NOSUCHPG, which is not a served EXEC SQL program"):
        session.service(PROGRAM_NUMBER, [b"NOSUCHPG"])
    session.end(False)
