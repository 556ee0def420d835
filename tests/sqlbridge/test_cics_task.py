"""Task and interval control without a worker: DELAY's waits and IBM's ranges, FORMATTIME of a fixed
ABSTIME, and ENQ/DEQ between two tasks on one SQLite database (nesting, scopes, NOSUSPEND, a wait
given up when the call ends)."""

from __future__ import annotations

import datetime
import threading
from pathlib import Path

import pytest

from cobol_mcp.db.cics.enq import Abandoned, Enqueues, resource_name
from cobol_mcp.db.cics.result import ENQBUSY, INVREQ, LENGERR, Result
from cobol_mcp.db.prepare import Plan
from cobol_mcp.db.unit import Unit, connect
from cobol_mcp.db.url import Database
from cobol_mcp.sqlbridge.cics_task import delay_seconds, formattime

NOON = datetime.datetime(2026, 3, 14, 12, 0, 0)


def test_delay_waits_as_ibm_documents_its_options() -> None:
    assert delay_seconds({"INTERVAL": 500}, NOON) == 300  # hhmmss: five minutes
    assert delay_seconds({}, NOON) == 0  # INTERVAL(0) by default
    assert delay_seconds({"FOR": True, "MINUTES": 90}, NOON) == 5400  # alone, minutes may pass 59
    assert delay_seconds({"FOR": True, "SECONDS": 1, "MILLISECS": 500}, NOON) == 1.5
    assert delay_seconds({"TIME": 130000}, NOON) == 3600  # a time of day to come
    assert delay_seconds({"TIME": 90000}, NOON) == 0  # within the six hours before now: at once
    assert delay_seconds({"TIME": 50000}, NOON) == 17 * 3600  # earlier than that: tomorrow's
    assert delay_seconds({"UNTIL": True, "HOURS": 12, "MINUTES": 30}, NOON) == 1800
    assert delay_seconds({"INTERVAL": 6000}, NOON) == Result(INVREQ, 5)  # 60 minutes
    assert delay_seconds({"INTERVAL": 99}, NOON) == Result(INVREQ, 6)
    assert delay_seconds({"FOR": True, "HOURS": 1, "MINUTES": 90}, NOON) == Result(INVREQ, 5)
    assert delay_seconds({"FOR": True, "HOURS": 100}, NOON) == Result(INVREQ, 4)


def test_formattime_of_a_fixed_abstime() -> None:
    ms = 3973170896789  # 2025-11-25 ... .789, local time
    when = datetime.datetime(1900, 1, 1) + datetime.timedelta(milliseconds=ms)
    wanted = ("DATESTRING", "DATEFORM", "MILLISECONDS", "YYYYMMDD", "TIME", "DAYOFWEEK", "DAYCOUNT")
    out = formattime(ms, {**dict.fromkeys(wanted, b""), "DATESEP": b"-", "TIMESEP": True})
    utc = when.astimezone(datetime.UTC)
    assert out["DATESTRING"] == utc.strftime("%a, %d %b %Y %H:%M:%S GMT")
    assert out["DATEFORM"] == "MMDDYY" and out["MILLISECONDS"] == 789
    assert out["YYYYMMDD"] == when.strftime("%Y-%m-%d") and out["TIME"] == when.strftime("%H:%M:%S")
    assert (
        out["DAYOFWEEK"] == int(when.strftime("%w")) and out["DAYCOUNT"] == (when - datetime.datetime(1900, 1, 1)).days
    )


def _task(path: Path, task: int) -> Enqueues:
    db = Database("sqlite", str(path))
    return Enqueues(Unit(Plan("sqlite", {}), connect(db)), str(path), task)


def test_enq_between_two_tasks(tmp_path: Path) -> None:
    first, second = _task(tmp_path / "e.db", 1), _task(tmp_path / "e.db", 2)
    go = threading.Event()
    assert resource_name(b"CUSTLOCK0042", 8) == b"CUSTLOCK"
    assert resource_name(b"X" * 300, None) == Result(LENGERR, 0) and resource_name(b"AB", 0) == Result(LENGERR, 0)
    assert first.enq(b"CUSTLOCK", task_scope=False, wait=True, stop=go) == Result()
    assert first.enq(b"CUSTLOCK", task_scope=False, wait=True, stop=go) == Result()  # owned: counted
    assert second.enq(b"CUSTLOCK", task_scope=False, wait=False, stop=go) == Result(ENQBUSY, 0)
    first.deq(b"CUSTLOCK")
    assert second.enq(b"CUSTLOCK", task_scope=False, wait=False, stop=go).resp == ENQBUSY  # one DEQ to go
    first.deq(b"CUSTLOCK")
    assert second.enq(b"CUSTLOCK", task_scope=False, wait=False, stop=go) == Result()
    second.syncpoint()  # UOW scope: released at the syncpoint
    assert first.enq(b"CUSTLOCK", task_scope=True, wait=False, stop=go) == Result()
    first.syncpoint()  # TASK scope: kept
    assert second.enq(b"CUSTLOCK", task_scope=False, wait=False, stop=go).resp == ENQBUSY
    stop = threading.Event()
    stop.set()  # the call ended: a waiting ENQ gives up
    with pytest.raises(Abandoned):
        second.enq(b"CUSTLOCK", task_scope=False, wait=True, stop=stop)
    first.end()
    assert second.enq(b"CUSTLOCK", task_scope=False, wait=True, stop=go) == Result()
    second.end()
