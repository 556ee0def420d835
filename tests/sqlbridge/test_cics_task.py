"""Task and interval control without a worker: DELAY's waits and IBM's ranges, FORMATTIME of a fixed
ABSTIME (DATESTRING in each STRINGFORMAT at each STRINGZONE, in a fixed local time zone; INVREQ for a
value neither has), and ENQ/DEQ between two tasks on one SQLite database (nesting, scopes,
NOSUSPEND, a wait given up when the call ends)."""

from __future__ import annotations

import datetime
import threading
import time
from collections.abc import Iterator
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
    result, out = formattime(ms, {**dict.fromkeys(wanted, b""), "DATESEP": b"-", "TIMESEP": True})
    assert result == Result()
    utc = when.astimezone(datetime.UTC)
    assert out["DATESTRING"] == utc.strftime("%a, %d %b %Y %H:%M:%S GMT")
    assert out["DATEFORM"] == "MMDDYY" and out["MILLISECONDS"] == 789
    assert out["YYYYMMDD"] == when.strftime("%Y-%m-%d") and out["TIME"] == when.strftime("%H:%M:%S")
    assert (
        out["DAYOFWEEK"] == int(when.strftime("%w")) and out["DAYCOUNT"] == (when - datetime.datetime(1900, 1, 1)).days
    )


RFC1123, RFC3339, UTC, LOCAL = 9001, 9002, 9011, 9012  # DFHVALUE's numbers for them (this translator's own)
APRIL_FOOL = 3258162062498  # ABSTIME of 2003-04-01 05:01:02.498, local time
EVENING = 3258133200007  # ABSTIME of 2003-03-31 21:00:00.007, local time (the next day at UTC, west of it)


def _stamp(ms: int, local: datetime.tzinfo | None = None, **cvdas: int) -> str:
    result, out = formattime(ms, {"DATESTRING": b"", **cvdas}, local)
    assert result == Result()
    assert isinstance(out["DATESTRING"], str)
    return out["DATESTRING"]


@pytest.mark.parametrize(
    ("ms", "cvdas", "expected"),
    [
        (APRIL_FOOL, {}, "Tue, 01 Apr 2003 10:01:02 GMT"),  # IBM's default: RFC 1123 at UTC
        (APRIL_FOOL, {"STRINGFORMAT": RFC1123}, "Tue, 01 Apr 2003 10:01:02 GMT"),
        (APRIL_FOOL, {"STRINGZONE": UTC}, "Tue, 01 Apr 2003 10:01:02 GMT"),
        (APRIL_FOOL, {"STRINGZONE": LOCAL}, "Tue, 01 Apr 2003 05:01:02 -0500"),
        (APRIL_FOOL, {"STRINGFORMAT": RFC1123, "STRINGZONE": LOCAL}, "Tue, 01 Apr 2003 05:01:02 -0500"),
        (APRIL_FOOL, {"STRINGFORMAT": RFC3339}, "2003-04-01T10:01:02.498Z"),
        (APRIL_FOOL, {"STRINGFORMAT": RFC3339, "STRINGZONE": UTC}, "2003-04-01T10:01:02.498Z"),
        (APRIL_FOOL, {"STRINGFORMAT": RFC3339, "STRINGZONE": LOCAL}, "2003-04-01T05:01:02.498-05:00"),
        (EVENING, {}, "Tue, 01 Apr 2003 02:00:00 GMT"),
        (EVENING, {"STRINGZONE": LOCAL}, "Mon, 31 Mar 2003 21:00:00 -0500"),
        (EVENING, {"STRINGFORMAT": RFC3339}, "2003-04-01T02:00:00.007Z"),
        (EVENING, {"STRINGFORMAT": RFC3339, "STRINGZONE": LOCAL}, "2003-03-31T21:00:00.007-05:00"),
    ],
)
def test_datestring_in_each_format_at_each_zone(ms: int, cvdas: dict[str, int], expected: str) -> None:
    assert _stamp(ms, datetime.timezone(datetime.timedelta(hours=-5)), **cvdas) == expected


def test_datestring_east_of_utc_with_half_an_hour() -> None:
    india = datetime.timezone(datetime.timedelta(hours=5, minutes=30))
    assert _stamp(APRIL_FOOL, india, STRINGFORMAT=RFC3339, STRINGZONE=LOCAL) == "2003-04-01T05:01:02.498+05:30"
    assert _stamp(APRIL_FOOL, india, STRINGZONE=LOCAL) == "Tue, 01 Apr 2003 05:01:02 +0530"
    assert _stamp(APRIL_FOOL, india, STRINGFORMAT=RFC3339) == "2003-03-31T23:31:02.498Z"


@pytest.fixture
def new_york(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The process's local time zone (the TZ variable, a POSIX rule: no zone database needed) for a test."""
    monkeypatch.setenv("TZ", "EST5EDT,M3.2.0,M11.1.0")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.mark.usefixtures("new_york")
def test_local_is_the_systems_time_zone_with_the_offset_of_that_moment() -> None:
    july = 3266308800000  # ABSTIME of 2003-07-04 12:00:00.000, local time: daylight saving time
    assert _stamp(july, STRINGFORMAT=RFC3339, STRINGZONE=LOCAL) == "2003-07-04T12:00:00.000-04:00"
    assert _stamp(july, STRINGFORMAT=RFC3339) == "2003-07-04T16:00:00.000Z"
    january = 3251620800000  # ABSTIME of 2003-01-15 12:00:00.000, local time: standard time
    assert _stamp(january, STRINGZONE=LOCAL) == "Wed, 15 Jan 2003 12:00:00 -0500"
    assert _stamp(january) == "Wed, 15 Jan 2003 17:00:00 GMT"


def test_a_value_neither_format_nor_zone_has_is_invreq() -> None:
    for cvdas, resp2 in (({"STRINGFORMAT": 1040}, 2), ({"STRINGFORMAT": UTC}, 2), ({"STRINGZONE": RFC3339}, 3),
                         ({"STRINGFORMAT": RFC3339, "STRINGZONE": 0}, 3)):  # fmt: skip
        assert formattime(APRIL_FOOL, {"DATESTRING": b"", "YYYYMMDD": b"", **cvdas}) == (Result(INVREQ, resp2), {})
    # given without DATESTRING, a value is still checked
    assert formattime(APRIL_FOOL, {"YYYYMMDD": b"", "STRINGZONE": 5}) == (Result(INVREQ, 3), {})
    assert formattime(APRIL_FOOL, {"YYYYMMDD": b"", "STRINGZONE": LOCAL}) == (Result(), {"YYYYMMDD": "20030401"})


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
