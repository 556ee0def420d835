"""CICS file control over the folder's database: KSDS, ESDS, RRDS, browsing, locks and the unit of work."""

from __future__ import annotations

import threading

import pytest

from cobol_mcp.db.cics import result as r
from cobol_mcp.db.cics.fct import DatasetDef
from cobol_mcp.db.cics.resources import Resources
from cobol_mcp.db.cics.result import CicsFailure

from .cics_fixtures import Open, db, fct, units

__all__ = ["db", "fct", "units"]


def rec(key: bytes, text: bytes) -> bytes:
    return (key + text).ljust(20, b" ")


def test_ksds_read_by_key_gteq_generic_and_the_conditions(units: Open) -> None:
    f = units().files
    got = f.read("CUSTFILE", b"0003")
    assert (got.resp, got.data, got.ridfld) == (0, rec(b"0003", b"CAROL"), b"0003")
    assert (f.read("CUSTFILE", b"0004").resp, f.read("CUSTFILE", b"0004").resp2) == (r.NOTFND, 80)
    assert f.read("CUSTFILE", b"0004", gteq=True).ridfld == b"0005"
    assert f.read("CUSTFILE", b"01", keylength=2, generic=True).ridfld == b"0100"
    assert f.read("CUSTFILE", b"02", keylength=2, generic=True).resp == r.NOTFND
    assert (f.read("CUSTFILE", b"0001", keylength=4, generic=True).resp2) == 25
    assert (f.read("CUSTFILE", b"0001", keylength=3).resp, f.read("CUSTFILE", b"0001", keylength=3).resp2) == (
        r.INVREQ, 26)  # fmt: skip
    short = f.read("CUSTFILE", b"0001", into=8)
    assert (short.resp, short.resp2, short.data, short.length) == (r.LENGERR, 11, b"0001ALIC", 20)
    assert (f.read("NOSUCH", b"0001").resp, f.read("NOSUCH", b"0001").resp2) == (r.FILENOTFOUND, 1)


def test_write_duprec_rewrite_delete_and_unlock(units: Open) -> None:
    f = units().files
    assert f.write("CUSTFILE", b"0002", rec(b"0002", b"BOB")).ok
    assert (f.write("CUSTFILE", b"0002", rec(b"0002", b"BOB")).resp2) == 150
    assert f.write("CUSTFILE", b"0009", b"0009SHORT").resp2 == 14  # fixed length: 20 bytes
    assert f.write("CUSTFILE", b"0009", rec(b"0009", b"X") + b"!").resp2 == 12
    assert (f.rewrite("CUSTFILE", rec(b"0002", b"BOBBY")).resp, f.rewrite("CUSTFILE", b"").resp2) == (r.INVREQ, 30)
    assert f.read("CUSTFILE", b"0002", update=True).ok
    assert f.rewrite("CUSTFILE", rec(b"0002", b"ROBERT")).ok
    assert f.rewrite("CUSTFILE", rec(b"0002", b"AGAIN")).resp2 == 30  # the hold ended with the REWRITE
    assert f.read("CUSTFILE", b"0002").data == rec(b"0002", b"ROBERT")
    assert f.read("CUSTFILE", b"0002", update=True).ok and f.unlock("CUSTFILE").ok
    assert f.rewrite("CUSTFILE", rec(b"0002", b"X")).resp2 == 30
    assert f.delete("CUSTFILE").resp2 == 21
    assert f.read("CUSTFILE", b"0003", update=True).ok and f.delete("CUSTFILE").ok
    assert f.read("CUSTFILE", b"0003").resp == r.NOTFND
    assert f.delete("CUSTFILE", b"0005").number == 1
    assert f.delete("CUSTFILE", b"0005").resp2 == 80
    gone = f.delete("CUSTFILE", b"00", keylength=2, generic=True)
    assert (gone.resp, gone.number) == (0, 2)  # 0001 and 0002, not 0100
    assert f.read("CUSTFILE", b"0100").ok


def test_esds_by_rba_and_rrds_by_record_number(units: Open) -> None:
    f = units().files
    first, second = f.write("AUDITLOG", 0, b"HELLO"), f.write("AUDITLOG", 0, b"SECOND ENTRY")
    assert (first.ridfld, second.ridfld) == (0, 5)  # RBA: the bytes before it
    assert f.read("AUDITLOG", 5).data == b"SECOND ENTRY"
    assert f.write("AUDITLOG", 0, b"X" * 31).resp2 == 12  # longer than its records' 30 bytes
    assert f.write("AUDITLOG", 0, b"HI").ridfld == 17  # variable: shorter than the minimum is a VSAM record
    assert f.delete("AUDITLOG", 0).resp == r.INVREQ  # an ESDS keeps its records
    assert f.write("SLOTS", 7, b"SEVEN     ").ridfld == 7
    assert f.write("SLOTS", 7, b"AGAIN     ").resp2 == 150
    assert f.read("SLOTS", 7).data == b"SEVEN     " and f.read("SLOTS", 6).resp2 == 80


def test_browse_forward_backward_skip_and_endfile(units: Open) -> None:
    f = units().files
    assert f.startbr("CUSTFILE", b"0002", gteq=True).ridfld == b"0003"
    keys = []
    while (got := f.readnext("CUSTFILE")).ok:
        keys.append(got.ridfld)
    assert keys == [b"0003", b"0005", b"0100"] and (got.resp, got.resp2) == (r.ENDFILE, 90)
    assert f.readprev("CUSTFILE").ridfld == b"0100"  # a change of direction reads the same record again
    assert f.readprev("CUSTFILE").ridfld == b"0005"
    assert f.readnext("CUSTFILE", b"0005").ridfld == b"0005"  # … also with RIDFLD passed back unchanged,
    assert f.readprev("CUSTFILE", b"0005").ridfld == b"0005"  # as a program always passes it
    assert f.readprev("CUSTFILE", b"0005").ridfld == b"0003"
    assert f.resetbr("CUSTFILE", b"0001", gteq=True).ok and f.readnext("CUSTFILE").ridfld == b"0001"
    assert f.readnext("CUSTFILE", b"0050").ridfld == b"0100"  # RIDFLD changed: skip-sequential
    assert f.startbr("CUSTFILE", b"0001").resp2 == 33  # REQID 0 is browsing
    assert f.startbr("CUSTFILE", b"\xff" * 4, reqid=2, gteq=True).ok  # high values: from the end
    assert [f.readprev("CUSTFILE", reqid=2).ridfld for _ in range(2)] == [b"0100", b"0005"]
    assert f.endbr("CUSTFILE").ok and f.endbr("CUSTFILE").resp2 == 35
    assert f.readnext("CUSTFILE").resp2 == 34
    assert f.startbr("CUSTFILE", b"0002").resp2 == 80


def test_browse_rules_of_readprev_generic_and_equal(units: Open) -> None:
    f = units().files
    assert f.startbr("CUSTFILE", b"0002", gteq=True).ok
    assert f.readprev("CUSTFILE").resp2 == 80  # READPREV first needs STARTBR's key to exist
    assert f.readnext("CUSTFILE").ridfld == b"0003"
    assert f.startbr("CUSTFILE", b"00", reqid=1, keylength=2, generic=True).ridfld == b"0001"
    assert f.readnext("CUSTFILE", reqid=1).ridfld == b"0001"
    assert (f.readprev("CUSTFILE", reqid=1).resp, f.readprev("CUSTFILE", reqid=1).resp2) == (r.INVREQ, 41)
    assert f.readnext("CUSTFILE", b"01", reqid=1).ridfld == b"0100"  # a generic browse skips by generic key
    assert f.startbr("CUSTFILE", b"0001", reqid=2).ok and f.readnext("CUSTFILE", reqid=2).ok
    assert f.readnext("CUSTFILE", b"0004", reqid=2).resp2 == 80  # an EQUAL browse skips to that key only
    assert f.readnext("CUSTFILE", b"0005", reqid=2).ridfld == b"0005"


def test_a_write_is_seen_by_another_unit_only_once_committed(units: Open) -> None:
    a, b = units(), units()
    assert a.files.write("CUSTFILE", b"0007", rec(b"0007", b"GRACE")).ok
    assert a.ts.writeq("ERRQ", b"ONE").number == 1
    assert a.counters.define("CUSTNO", value=41).ok
    assert b.files.read("CUSTFILE", b"0007").resp == r.NOTFND
    assert b.ts.readq("ERRQ", item=1).resp == r.QIDERR
    assert b.counters.query("CUSTNO").resp == r.INVREQ
    b.end(True)
    a.end(True)
    c = units()
    assert c.files.read("CUSTFILE", b"0007").data == rec(b"0007", b"GRACE")
    assert c.ts.readq("ERRQ", item=1).data == b"ONE"
    assert c.counters.get("CUSTNO").number == 41


def test_rollback_leaves_nothing_records_items_or_counter_values(units: Open) -> None:
    setup = units()
    assert setup.counters.define("CUSTNO", value=1).ok
    setup.end(True)
    a = units()
    assert a.files.write("CUSTFILE", b"0008", rec(b"0008", b"HEIDI")).ok
    assert a.files.read("CUSTFILE", b"0001", update=True).ok and a.files.delete("CUSTFILE").ok
    assert a.ts.writeq("ERRQ", b"LOST").ok and a.counters.get("CUSTNO").number == 1
    assert a.files.write("AUDITLOG", 0, b"ENTRY").ok
    a.end(False)
    b = units()
    assert b.files.read("CUSTFILE", b"0008").resp == r.NOTFND and b.files.read("CUSTFILE", b"0001").ok
    assert b.ts.readq("ERRQ").resp == r.QIDERR
    assert b.counters.get("CUSTNO").number == 1
    assert b.files.write("AUDITLOG", 0, b"ENTRY").ridfld == 0  # the RBA went back too


def test_syncpoint_commits_and_syncpoint_rollback_undoes(units: Open) -> None:
    a = units()
    assert a.files.write("CUSTFILE", b"0010", rec(b"0010", b"KEPT")).ok
    a.syncpoint()
    assert a.files.write("CUSTFILE", b"0011", rec(b"0011", b"UNDONE")).ok
    a.syncpoint(rollback=True)
    a.end(False)
    b = units()
    assert b.files.read("CUSTFILE", b"0010").ok and b.files.read("CUSTFILE", b"0011").resp == r.NOTFND


def test_read_update_in_one_unit_refuses_another_units_read_update(units: Open) -> None:
    a, b = units(), units()
    assert a.files.read("CUSTFILE", b"0001", update=True).ok
    busy = b.files.read("CUSTFILE", b"0001", update=True, nosuspend=True)
    assert (busy.resp, busy.resp2) == (r.RECORDBUSY, 107)
    assert b.files.read("CUSTFILE", b"0001").ok  # a plain READ is not held up
    assert a.files.rewrite("CUSTFILE", rec(b"0001", b"ALICIA")).ok
    a.end(True)
    got = b.files.read("CUSTFILE", b"0001", update=True, nosuspend=True)
    if b.unit.sqlite:  # its snapshot predates a's commit: SQLite refuses the write lock, as DB2 gives -913
        assert got.resp == r.RECORDBUSY
        b.end(False)
        got = units().files.read("CUSTFILE", b"0001", update=True, nosuspend=True)
    assert got.data == rec(b"0001", b"ALICIA")


def test_postgresql_read_update_waits_for_the_holder_and_reads_its_change(units: Open) -> None:
    a = units()
    if a.unit.sqlite:
        pytest.skip("SQLite's writer lock: shown with NOSUSPEND (a waiting writer is not visible from outside)")
    b, watcher = units(), units()
    assert a.files.read("CUSTFILE", b"0003", update=True).ok
    results: list[r.Result] = []
    waiter = threading.Thread(target=lambda: results.append(b.files.read("CUSTFILE", b"0003", update=True)))
    waiter.start()
    conn = watcher.unit.begin()
    while not conn.execute("SELECT count(*) FROM pg_locks WHERE NOT granted").fetchone()[0]:
        conn.rollback()  # a fresh snapshot of pg_locks each time
        assert waiter.is_alive() and not results, "b's READ UPDATE returned while a held the record"
    assert not results  # b is waiting on a's row lock
    assert a.files.rewrite("CUSTFILE", rec(b"0003", b"CAROLINE")).ok
    a.end(True)
    waiter.join()
    assert results[0].data == rec(b"0003", b"CAROLINE")


def test_a_dataset_defined_but_not_created_is_notopen(units: Open) -> None:
    res = units()
    fct = {**res.files.fct, "NEWFILE": DatasetDef("NEWFILE", "rrds", 10, 10)}
    files = Resources(res.unit, fct).files
    assert (files.read("NEWFILE", 1).resp, files.read("NEWFILE", 1).resp2) == (r.NOTOPEN, 60)
    assert files.read("CUSTFILE", b"0001").ok


def test_postgresql_a_second_write_of_a_key_waits_for_the_first_then_is_duprec(units: Open) -> None:
    a = units()
    if a.unit.sqlite:
        pytest.skip("SQLite: one writer; b's WRITE waits for a's commit as any write does")
    b, watcher = units(), units()
    assert a.files.write("CUSTFILE", b"0042", rec(b"0042", b"FIRST")).ok
    results: list[r.Result] = []
    waiter = threading.Thread(target=lambda: results.append(b.files.write("CUSTFILE", b"0042", rec(b"0042", b"2ND"))))
    waiter.start()
    conn = watcher.unit.begin()
    while not conn.execute("SELECT count(*) FROM pg_locks WHERE NOT granted").fetchone()[0]:
        conn.rollback()
        assert waiter.is_alive() and not results, "b's WRITE returned while a's insert of the key was open"
    a.end(True)
    waiter.join()
    assert (results[0].resp, results[0].resp2) == (r.DUPREC, 150)


def test_sqlite_read_update_that_cannot_get_the_lock_fails_the_task(units: Open) -> None:
    a = units()
    if not a.unit.sqlite:
        pytest.skip("PostgreSQL waits for the row lock: shown by the waiting READ UPDATE test")
    b = units(busy_timeout_ms=0)
    assert a.files.read("CUSTFILE", b"0001", update=True).ok
    with pytest.raises(CicsFailure) as caught:
        b.files.read("CUSTFILE", b"0001", update=True)
    assert caught.value.abcode == "AFCV" and "READ UPDATE of CUSTFILE" in caught.value.message
