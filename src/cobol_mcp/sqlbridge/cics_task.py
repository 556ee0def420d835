"""The CICS runtime's storage, task and interval control: GETMAIN/FREEMAIN, ENQ/DEQ, DELAY, FORMATTIME.

* GETMAIN and FREEMAIN are done by the worker (``worker_storage.c``: the program addresses the area in
  its own process); the runtime checks the length and says which condition the command raises, from
  what the worker put in EIB bytes 20-23 (whether it got the area, or knows the one to free; how many
  areas it had live before a GETMAIN, which :attr:`TaskControl.live_before` keeps). LENGERR: a length
  below 1 (or a halfword LENGTH above 32767); NOSTG: the worker could not get it (above 256 MB);
  INVREQ (RESP2 1) for a FREEMAIN of storage the call did not GETMAIN.
* SET on a command that gives data (READ, READNEXT, READPREV, READQ TS/TD, GET CONTAINER): the data goes
  to the worker after the answer's parameters (``worker_storage.c``), headed by a slot number that says
  what it belongs to (:meth:`TaskControl.give`): the worker keeps one area per slot, which the slot's
  next data replaces, until the call's end. So an area lasts until the next READ of the file, the next
  read of the browse (file and REQID), the next READQ of the queue, the next GET CONTAINER SET of the
  container (channel and name): never shorter than CICS keeps it valid.
* ENQ and DEQ: :class:`..db.cics.enq.Enqueues` on the call's database; ENQ waits unless NOSUSPEND or an
  active HANDLE CONDITION ENQBUSY says not to, and gives up when the call ends (:attr:`TaskControl.stop`).
* DELAY: ``INTERVAL(hhmmss)``, ``TIME(hhmmss)`` (a time of day: at once when it is within the six hours
  before now, else its next coming), ``FOR``/``UNTIL`` ``HOURS``/``MINUTES``/``SECONDS``/``MILLISECS``;
  INVREQ when a value is out of IBM's ranges. The wait ends early when the call ends.
* FORMATTIME: every option of IBM's command (the date forms with DATESEP, TIME with TIMESEP, the
  numbers, DATEFORM, MILLISECONDS, DATESTRING in RFC 1123 or RFC 3339 at UTC or local time, as
  STRINGFORMAT and STRINGZONE say: RFC 1123 at UTC by default). Their CVDA values are this
  translator's own (:data:`..cobol.precompile.cics_table.DFHVALUES`); another value is INVREQ.
"""

from __future__ import annotations

import datetime
import threading
from collections.abc import Mapping

from ..cobol.precompile.cics_table import DFHVALUES
from ..db.cics.enq import Enqueues, resource_name
from ..db.cics.result import INVREQ, LENGERR, NOSTG, Result

__all__ = ["ABSTIME_EPOCH", "TaskControl", "delay_seconds", "formattime", "storage_answer"]

ABSTIME_EPOCH = datetime.datetime(1900, 1, 1)
_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
DATEFORM = "MMDDYY"  # the installation's date form (CICS's DATFORM default): what DATE gives


class TaskControl:
    """One call's state for these commands: its enqueues, the event that ends its waits, what the worker said."""

    def __init__(self) -> None:
        self.stop = threading.Event()
        self.enqueues: Enqueues | None = None
        self.live_before: list[int] = []  # per GETMAIN: the areas live in the worker before it
        self.slots: dict[tuple[str, ...], int] = {}  # what SET data belongs to (a file, a queue …): its number
        self.kept_before: list[int] = []  # per SET data: the worker's areas of SET data before it (EIB 22-23)

    def give(self, command: str, options: Mapping[str, object], data: bytes, eib: bytes, channel: str) -> bytes:
        """A SET command's data as the worker takes it after the answer's parameters: its slot (u32, big-endian),
        then its bytes. ``channel``: the program's current channel's name (GET CONTAINER without CHANNEL)."""
        self.kept_before.append(int.from_bytes(eib[22:24], "big"))

        def name(option: str, upper: bool = True) -> str:
            value = options.get(option, b"")
            text = value.decode("latin-1").rstrip() if isinstance(value, bytes) else ""
            return text.upper() if upper else text

        if command in ("READNEXT", "READPREV"):
            key: tuple[str, ...] = ("BROWSE", name("FILE"), str(options.get("REQID", 0)))
        elif command == "GET CONTAINER":  # channel and container names keep their case
            key = ("CONTAINER", name("CHANNEL", False) or channel.rstrip(), name("CONTAINER", False))
        else:  # READ (FILE), READQ TS (QUEUE or QNAME), READQ TD (QUEUE)
            key = (command, name("FILE") or name("QNAME") or name("QUEUE"))
        slot = self.slots.setdefault(key, len(self.slots) + 1)
        return slot.to_bytes(4, "big") + data

    def enq(self, command: str, options: Mapping[str, object], busy_now: bool) -> Result:
        assert self.enqueues is not None
        area, length = options.get("RESOURCE", b""), options.get("LENGTH")
        assert isinstance(area, bytes)
        name = resource_name(area, length if isinstance(length, int) else None)
        if isinstance(name, Result):
            return name
        if command == "DEQ":
            return self.enqueues.deq(name)
        wait = not busy_now and "NOSUSPEND" not in options
        task_scope = "TASK" in options or options.get("MAXLIFETIME") == DFHVALUES["TASK"]
        return self.enqueues.enq(name, task_scope=task_scope, wait=wait, stop=self.stop)


def storage_answer(command: str, options: Mapping[str, object], eib: bytes, control: TaskControl) -> Result:
    """GETMAIN's or FREEMAIN's condition, from the options and what the worker said in the EIB."""
    if command == "FREEMAIN":
        return Result() if eib[21] == 1 else Result(INVREQ, 1)
    control.live_before.append(int.from_bytes(eib[22:24], "big"))
    length = options.get("FLENGTH", options.get("LENGTH"))
    if not isinstance(length, int) or length < 1 or ("FLENGTH" not in options and length > 32767):
        return Result(LENGERR, 0)
    return Result() if eib[21] == 1 else Result(NOSTG, 0)


def _number(options: Mapping[str, object], name: str) -> int | None:
    value = options.get(name)
    return value if isinstance(value, int) else None


def _hhmmss(value: int) -> tuple[int, int, int] | None:
    hours, minutes, seconds = value // 10000, value // 100 % 100, value % 100
    if value < 0 or hours > 99 or minutes > 59 or seconds > 59:
        return None
    return hours, minutes, seconds


def _until(hours: int, minutes: int, seconds: int, now: datetime.datetime) -> float:
    """Seconds to the time of day (hours may pass 23: a later day); none when it is within the last 6 hours."""
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    target = midnight + datetime.timedelta(hours=hours, minutes=minutes, seconds=seconds)
    if target <= now:
        if now - target <= datetime.timedelta(hours=6):
            return 0.0
        target += datetime.timedelta(days=1)
    return (target - now).total_seconds()


def delay_seconds(options: Mapping[str, object], now: datetime.datetime) -> float | Result:
    """How long DELAY waits, or INVREQ (RESP2 4 hours, 5 minutes, 6 seconds, 7 milliseconds out of range)."""
    if "INTERVAL" in options or "TIME" in options:
        hhmmss = _number(options, "INTERVAL" if "INTERVAL" in options else "TIME") or 0
        hms = _hhmmss(hhmmss)
        if hms is None:
            bad_hours = hhmmss < 0 or hhmmss // 10000 > 99
            return Result(INVREQ, 4 if bad_hours else 5 if hhmmss // 100 % 100 > 59 else 6)
        if "INTERVAL" in options:
            return float(hms[0] * 3600 + hms[1] * 60 + hms[2])
        return _until(*hms, now)
    parts = {name: _number(options, name) for name in ("HOURS", "MINUTES", "SECONDS", "MILLISECS")}
    given = {name: value for name, value in parts.items() if value is not None}
    alone = len(given) == 1
    limits = {"HOURS": (99, 4), "MINUTES": (5999 if alone else 59, 5), "SECONDS": (359999 if alone else 59, 6),
              "MILLISECS": (359999999 if alone else 999, 7)}  # fmt: skip
    for name, value in given.items():
        top, resp2 = limits[name]
        if not 0 <= value <= top:
            return Result(INVREQ, resp2)
    h, m, s, ms = (given.get(name, 0) for name in ("HOURS", "MINUTES", "SECONDS", "MILLISECS"))
    if "UNTIL" in options:
        return _until(h, m, s, now)
    return h * 3600 + m * 60 + s + ms / 1000


# STRINGFORMAT's and STRINGZONE's CVDA values (this translator's own numbers: see DFHVALUES)
_STRING_FORMATS = {DFHVALUES["RFC1123"]: "RFC1123", DFHVALUES["RFC3339"]: "RFC3339"}
_STRING_ZONES = {DFHVALUES["UTC"]: "UTC", DFHVALUES["LOCAL"]: "LOCAL"}
_BAD_STRINGFORMAT, _BAD_STRINGZONE = 2, 3  # INVREQ's RESP2 for a value that is none of them


def _datestring(when: datetime.datetime, form: str = "RFC1123", zone: str = "UTC") -> str:
    """DATESTRING of ``when`` (local time, as ABSTIME is; naive: in the system's time zone) in ``form`` at ``zone``.

    RFC1123: ``Tue, 01 Apr 2003 10:01:02 GMT`` at UTC, ``Tue, 01 Apr 2003 12:01:02 +0200`` at LOCAL.
    RFC3339: ``2003-04-01T10:01:02.498Z`` at UTC, ``2003-04-01T12:01:02.498+02:00`` at LOCAL (milliseconds,
    which ABSTIME keeps; the offset of the local time zone at that moment)."""
    moment = when.astimezone(datetime.UTC) if zone == "UTC" else when if when.tzinfo else when.astimezone()
    if form == "RFC3339":
        text = f"{moment:%Y-%m-%dT%H:%M:%S}.{moment.microsecond // 1000:03d}"
        return text + ("Z" if zone == "UTC" else _offset(moment, ":"))
    return (f"{_DAYS[moment.weekday()]}, {moment.day:02d} {_MONTHS[moment.month - 1]} {moment.year:04d} "
            f"{moment:%H:%M:%S} " + ("GMT" if zone == "UTC" else _offset(moment, "")))  # fmt: skip


def _offset(moment: datetime.datetime, sep: str) -> str:
    minutes = round((moment.utcoffset() or datetime.timedelta()).total_seconds() / 60)
    hours, mins = divmod(abs(minutes), 60)
    return f"{'-' if minutes < 0 else '+'}{hours:02d}{sep}{mins:02d}"


def _cvda(options: Mapping[str, object], name: str, values: Mapping[int, str], default: str) -> str | None:
    """The value STRINGFORMAT or STRINGZONE names (its default when not given); None: no value it has."""
    if name not in options:
        return default
    given = options[name]
    return values.get(given) if isinstance(given, int) else None


def formattime(
    ms: int, options: Mapping[str, object], local: datetime.tzinfo | None = None
) -> tuple[Result, dict[str, object]]:
    """FORMATTIME of ABSTIME ``ms`` (milliseconds since 1 January 1900, local time): the options given, or
    INVREQ (RESP2 2: STRINGFORMAT, 3: STRINGZONE names no value of its). ``local``: the local time zone
    (by default the system's)."""
    form = _cvda(options, "STRINGFORMAT", _STRING_FORMATS, "RFC1123")
    zone = _cvda(options, "STRINGZONE", _STRING_ZONES, "UTC")
    if form is None or zone is None:
        return Result(INVREQ, _BAD_STRINGFORMAT if form is None else _BAD_STRINGZONE), {}
    when = ABSTIME_EPOCH + datetime.timedelta(milliseconds=ms)
    sep = options.get("DATESEP")
    ds = sep.decode("latin-1")[:1] if isinstance(sep, bytes) else ("/" if sep else "")
    tsep = options.get("TIMESEP")
    ts = tsep.decode("latin-1")[:1] if isinstance(tsep, bytes) else (":" if tsep else "")
    y, m, d = f"{when.year:04d}", f"{when.month:02d}", f"{when.day:02d}"
    yday = f"{when.timetuple().tm_yday:03d}"
    forms: dict[str, object] = {
        "YYYYMMDD": ds.join((y, m, d)), "YYYYDDMM": ds.join((y, d, m)), "YYMMDD": ds.join((y[2:], m, d)),
        "YYDDMM": ds.join((y[2:], d, m)), "DDMMYY": ds.join((d, m, y[2:])), "MMDDYY": ds.join((m, d, y[2:])),
        "DDMMYYYY": ds.join((d, m, y)), "MMDDYYYY": ds.join((m, d, y)),
        "YYYYDDD": ds.join((y, yday)), "YYDDD": ds.join((y[2:], yday)),
        "TIME": ts.join((f"{when.hour:02d}", f"{when.minute:02d}", f"{when.second:02d}")),
        "DATE": ds.join((m, d, y[2:])), "FULLDATE": ds.join((m, d, y)), "DATEFORM": DATEFORM,
        "DAYOFMONTH": when.day, "MONTHOFYEAR": when.month, "YEAR": when.year, "MILLISECONDS": ms % 1000,
        "DAYCOUNT": (when - ABSTIME_EPOCH).days, "DAYOFWEEK": (when.weekday() + 1) % 7,
    }  # fmt: skip
    if "DATESTRING" in options:
        forms["DATESTRING"] = _datestring(when if local is None else when.replace(tzinfo=local), form, zone)
    return Result(), {name: value for name, value in forms.items() if name in options}
