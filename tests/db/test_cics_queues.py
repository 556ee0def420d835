"""TS and TD queues, named counters, and the resources sharing the SQL unit of work."""

from __future__ import annotations

from pathlib import Path

import pytest

from cobol_mcp.cobol.precompile.scan import scan_lines
from cobol_mcp.db.apply import apply_files
from cobol_mcp.db.catalog import read_catalog
from cobol_mcp.db.cics import result as r
from cobol_mcp.db.cics.fct import DatasetDef
from cobol_mcp.db.cics.resources import Resources
from cobol_mcp.db.prepare import prepare_plan
from cobol_mcp.db.unit import Unit, connect
from cobol_mcp.db.url import Database

from .cics_fixtures import Open, db, fct, units

__all__ = ["db", "fct", "units"]
PAYROLL = Path(__file__).parent / "payroll.sql"


def test_ts_write_item_rewrite_read_next_numitems_and_delete(units: Open) -> None:
    ts = units().ts
    assert [ts.writeq("ERRQ", d).number for d in (b"FIRST", b"SECOND", b"THIRD")] == [1, 2, 3]
    assert ts.writeq("ERRQ", b"2ND", item=2, rewrite=True).ok
    assert (ts.writeq("ERRQ", b"X", item=9, rewrite=True).resp, ts.writeq("NOQ", b"X", item=1, rewrite=True).resp) == (
        r.ITEMERR, r.QIDERR)  # fmt: skip
    got = ts.readq("ERRQ")
    assert (got.data, got.number, got.items) == (b"FIRST", 1, 3)
    assert ts.readq("ERRQ").data == b"2ND"
    assert ts.readq("ERRQ", item=1).data == b"FIRST" and ts.readq("ERRQ").data == b"2ND"  # NEXT follows ITEM
    assert ts.readq("ERRQ").data == b"THIRD" and ts.readq("ERRQ").resp == r.ITEMERR
    short = ts.readq("ERRQ", item=2, into=2)
    assert (short.resp, short.data, short.length) == (r.LENGERR, b"2N", 3)
    assert ts.writeq("ERRQ", b"").resp == r.LENGERR and ts.writeq(b"        ", b"X").resp == r.INVREQ
    assert ts.deleteq("ERRQ").ok and ts.deleteq("ERRQ").resp == r.QIDERR
    assert ts.readq("ERRQ").resp == r.QIDERR
    assert ts.writeq(b"ERRQ    ", b"AGAIN").number == 1  # a name's trailing blanks are padding


def test_td_csmt_goes_to_stderr_and_other_queues_are_read_in_order(
    units: Open, capsys: pytest.CaptureFixture[str]
) -> None:
    td = units().td
    assert td.writeq("CSMT", b"CUSTADD: CUSTOMER 0042 ADDED   ").ok
    captured = capsys.readouterr()
    assert captured.out == "" and "CSMT: CUSTADD: CUSTOMER 0042 ADDED" in captured.err
    assert td.writeq("AUDT", b"ONE").ok and td.writeq("AUDT", b"TWO").ok
    assert [td.readq("AUDT").data, td.readq("AUDT").data] == [b"ONE", b"TWO"]
    assert td.readq("AUDT").resp == r.QZERO and td.readq("CSMT").resp == r.INVREQ


def test_counters_define_get_limits_wrap_reduce_compare_rewind_delete(units: Open) -> None:
    c = units().counters
    missing = c.get("NEVER")
    assert (missing.resp, missing.resp2) == (r.INVREQ, 201)  # IBM: GET COUNTER has no NOTFND
    assert c.define("ORDERNO", pool="POOLA", value=8, minimum=1, maximum=10).ok
    assert c.define("ORDERNO", pool="POOLA").resp2 == 202
    assert c.get("ORDERNO").resp == r.INVREQ  # another pool
    assert [c.get("ORDERNO", pool="POOLA").number for _ in range(3)] == [8, 9, 10]
    assert (c.get("ORDERNO", pool="POOLA").resp, c.get("ORDERNO", pool="POOLA").resp2) == (r.SUPPRESSED, 101)
    assert c.query("ORDERNO", pool="POOLA").number == 11  # at its limit
    assert c.get("ORDERNO", pool="POOLA", wrap=True).number == 1
    assert c.get("ORDERNO", pool="POOLA", increment=20).resp2 == 101
    assert c.get("ORDERNO", pool="POOLA", increment=20, reduce=True).number == 2
    assert c.rewind("ORDERNO", pool="POOLA").ok and c.query("ORDERNO", pool="POOLA").number == 1
    assert c.rewind("ORDERNO", pool="POOLA").resp == r.SUPPRESSED  # not at its limit
    assert c.get("ORDERNO", pool="POOLA", comparemin=5).resp2 == 102
    assert c.get("ORDERNO", pool="POOLA", comparemax=0).resp2 == 103
    assert c.get("ORDERNO", pool="POOLA", comparemin=5, comparemax=1).number == 1  # max below min: either passes
    assert c.update("ORDERNO", 7, pool="POOLA").ok and c.query("ORDERNO", pool="POOLA").number == 7
    assert c.put("ORDERNO", pool="POOLA", increment=2).ok and c.get("ORDERNO", pool="POOLA").number == 9
    q = c.query("ORDERNO", pool="POOLA")
    assert (q.number, q.minimum, q.maximum) == (10, 1, 10)
    assert c.delete("ORDERNO", pool="POOLA").ok and c.delete("ORDERNO", pool="POOLA").resp == r.INVREQ
    assert c.define("BAD", minimum=5, maximum=1).resp2 == 406 and c.define("BAD", value=2**31 + 1).resp2 == 406
    assert c.define("9LIVES").resp2 == 404 and c.define("A B").resp2 == 404 and c.get("X", pool="P 1").resp2 == 403
    assert c.define(b"ORDERNO         ", pool=b"POOLB   ").ok and c.get("ORDERNO", pool="POOLB").number == 0
    assert c.define("BIG", wide=True, value=2**64 - 2).ok  # a DCOUNTER: doubleword unsigned
    assert [c.get("BIG", wide=True).number for _ in range(2)] == [2**64 - 2, 2**64 - 1]
    assert c.get("BIG", wide=True).resp2 == 101
    assert (c.query("BIG").resp, c.query("BIG").resp2) == (r.LENGERR, 1)  # too big for a COUNTER command


def sql_unit(db: Database, fct: dict[str, DatasetDef]) -> Resources:
    """Resources on a unit whose statement 1 inserts a department (:D): a second of the same is -803."""
    apply_files([PAYROLL], db, note=lambda line: None)
    lines = [(1, "EXEC SQL INSERT INTO PAYROLL.DEPT (DEPTNO, DEPTNAME) VALUES (:D, 'NEW') END-EXEC")]
    conn = connect(db)
    plan = prepare_plan(scan_lines(Path("T.cbl"), lines).statements, db.kind, read_catalog(conn, db.kind))  # type: ignore[arg-type]
    return Resources(Unit(plan, conn), fct)


def test_a_record_lock_survives_a_later_failed_statement(db: Database, fct: dict[str, DatasetDef]) -> None:
    """PostgreSQL gives back the locks taken after the savepoint a failed statement goes back to: a READ
    UPDATE's lock must come before that point, or another unit could change the record held."""
    a = sql_unit(db, fct)
    assert a.unit.execute(1, {"D": "Q01"}).sqlca.sqlcode == 0
    assert a.files.read("CUSTFILE", b"0001", update=True).ok
    assert a.unit.execute(1, {"D": "Q01"}).sqlca.sqlcode == -803
    b = Resources(Unit(a.unit.plan, connect(db)), fct)
    assert b.files.read("CUSTFILE", b"0001", update=True, nosuspend=True).resp == r.RECORDBUSY
    assert a.files.rewrite("CUSTFILE", b"0001HELD".ljust(20)).ok
    b.end(False)
    a.end(True)


def test_a_change_beside_the_sql_survives_a_later_failed_statement(db: Database, fct: dict[str, DatasetDef]) -> None:
    """A failed SQL statement undoes itself only: on PostgreSQL it goes back to the savepoint after the last
    change, which must be after the file WRITE made between the two SQL statements."""
    res = sql_unit(db, fct)
    plan = res.unit.plan
    assert res.unit.execute(1, {"D": "Q01"}).sqlca.sqlcode == 0
    assert res.files.write("CUSTFILE", b"0042", b"0042ZAPHOD".ljust(20)).ok
    assert res.unit.execute(1, {"D": "Q01"}).sqlca.sqlcode == -803  # a duplicate key: this statement undone
    assert res.files.read("CUSTFILE", b"0042").ok
    res.end(True)
    check = Resources(Unit(plan, connect(db)), fct)
    assert check.files.read("CUSTFILE", b"0042").ok
    check.end(True)
