"""Direction analysis of EXEC SQL: INTO :hv and FETCH … INTO set host variables, the others are read."""

from __future__ import annotations

from pathlib import Path

from cobol_mcp.cobol.linkage.program import parse_program
from cobol_mcp.cobol.precompile.scan import data_uses

from ..conftest import find

PROGRAM = """\
       IDENTIFICATION DIVISION.
       PROGRAM-ID. EMPGET.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
           EXEC SQL INCLUDE SQLCA END-EXEC.
           EXEC SQL DECLARE C1 CURSOR FOR
               SELECT SALARY FROM PAYROLL.EMPLOYEE
                WHERE WORKDEPT = :LS-DEPT
           END-EXEC.
       LINKAGE SECTION.
       01  LS-PARMS.
           05  LS-EMPNO            PIC S9(9) COMP.
           05  LS-DEPT             PIC X(3).
           05  LS-NAME             PIC X(15).
           05  LS-NAME-IND         PIC S9(4) COMP.
           05  LS-SALARY           PIC S9(7)V99 COMP-3.
           05  LS-COUNT            PIC S9(9) COMP.
       PROCEDURE DIVISION USING LS-PARMS.
       MAIN-PARA.
           EXEC SQL
               SELECT LASTNAME INTO :LS-NAME:LS-NAME-IND
                 FROM PAYROLL.EMPLOYEE WHERE EMPNO = :LS-PARMS.LS-EMPNO
           END-EXEC
           EXEC SQL OPEN C1 END-EXEC
           EXEC SQL FETCH C1 INTO :LS-SALARY END-EXEC
           EXEC SQL SET :LS-COUNT = :LS-COUNT + 1 END-EXEC
           GOBACK.
"""


def test_what_each_sql_statement_reads_and_sets() -> None:
    assert data_uses("SELECT A INTO :X:XI, :G.Y FROM T WHERE K = :K INDICATOR :KI") == (["K", "KI"], ["X", "XI", "G.Y"])
    assert data_uses("FETCH C1 INTO :A, :B") == ([], ["A", "B"])
    assert data_uses("UPDATE T SET A = :A WHERE CURRENT OF C1") == (["A"], [])
    assert data_uses("SET :N = :N + 1") == (["N"], ["N"])
    assert data_uses("VALUES IDENTITY_VAL_LOCAL() INTO :ID") == ([], ["ID"])
    assert data_uses("EXECUTE S1 USING :P") == (["P"], [])
    assert data_uses("INCLUDE SQLCA") == ([], [])
    assert data_uses("DECLARE C1 CURSOR FOR SELECT A FROM T WHERE B = :B") == ([], [])
    assert data_uses("OPEN C1 USING :U", {"C1": ["B"]}) == (["B", "U"], [])


def test_into_sets_linkage_items_and_where_reads_them(tmp_path: Path) -> None:
    path = tmp_path / "EMPGET.cbl"
    path.write_text(PROGRAM)
    spec = parse_program(path)
    field = spec.records[0].field
    names = ("LS-EMPNO", "LS-DEPT", "LS-NAME", "LS-NAME-IND", "LS-SALARY", "LS-COUNT")
    directions = {n: find(field, n).direction for n in names}
    assert directions == {"LS-EMPNO": "in", "LS-DEPT": "in", "LS-NAME": "out", "LS-NAME-IND": "out",
                          "LS-SALARY": "out", "LS-COUNT": "inout"}  # fmt: skip
    assert find(field, "LS-DEPT").reason == "read by EXEC at line 24, never written"  # OPEN C1 reads its WHERE
    assert find(field, "LS-NAME").reason == "set by EXEC at line 20 before any read, on every path"
    assert find(field, "LS-EMPNO").reason == "read by EXEC at line 20, never written"
