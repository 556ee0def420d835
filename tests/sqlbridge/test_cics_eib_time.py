"""The EIB's date and time as CICS keeps them, and a command's descriptor read once.

IBM (ASKTIME): EIBDATE and EIBTIME "initially contain the date and time when the task started", and
ASKTIME updates them; other commands leave them alone. The clock is the test's own (the modules'
``datetime`` replaced), so the verdict does not depend on how fast the machine is.
"""

from __future__ import annotations

import datetime
from pathlib import Path
from types import SimpleNamespace

import pytest

from cobol_mcp.db.cics.fct import create_datasets
from cobol_mcp.db.url import Database
from cobol_mcp.sqlbridge import cics, cics_eib
from cobol_mcp.sqlbridge.cics import CicsProgram, CicsSession
from cobol_mcp.sqlbridge.cics_eib import decode, encode_number, parse_descriptor


class _Clock:
    """``datetime.datetime.now()`` answering the moment the test sets."""

    def __init__(self, moment: datetime.datetime) -> None:
        self.moment = moment
        clock = self

        class _Now(datetime.datetime):
            @classmethod
            def now(cls, tz: datetime.tzinfo | None = None) -> _Now:  # type: ignore[override]
                m = clock.moment
                return cls(m.year, m.month, m.day, m.hour, m.minute, m.second, m.microsecond)

        self.module = SimpleNamespace(datetime=_Now, timedelta=datetime.timedelta)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> _Clock:
    found = _Clock(datetime.datetime(2026, 3, 4, 10, 0, 0))
    monkeypatch.setattr(cics_eib, "datetime", found.module)
    monkeypatch.setattr(cics, "datetime", found.module)
    return found


def _answer(session: CicsSession, descriptor: str, *params: bytes) -> list[bytes]:
    exchange = SimpleNamespace(service="CICSRT", number=0, params=[bytes(85), descriptor.encode(), *params])
    return session.answer(exchange)


def _time(eib: bytes) -> str:
    return eib[0:4].hex()  # 0HHMMSS and the sign nibble


def test_eibtime_is_the_tasks_start_until_asktime_updates_it(tmp_path: Path, clock: _Clock) -> None:
    db = Database("sqlite", str(tmp_path / "t.db"))
    create_datasets(db, [])  # the CICS tables: the task number's among them
    session = CicsSession(CicsProgram("EIBTIME", "EIBTIME.cbl", db, {}))
    clock.moment = datetime.datetime(2026, 3, 4, 10, 0, 5)
    eib = session.first([bytes(85), bytes(10)])[0]
    assert _time(eib) == "0100000c" and eib[4:8].hex() == "0126063c"  # the task's start: 10:00:00, day 63
    clock.moment = datetime.datetime(2026, 3, 4, 10, 0, 9)
    eib = _answer(session, "7;IGNORE CONDITION;NOTFND")[0]
    assert _time(eib) == "0100000c"  # a command does not move it
    clock.moment = datetime.datetime(2026, 3, 5, 11, 30, 15, 250_000)
    eib, _, abstime = _answer(session, "9;ASKTIME;ABSTIME()", encode_number(0))
    assert _time(eib) == "0113015c" and eib[4:8].hex() == "0126064c"  # ASKTIME's moment, its date too
    ms = int.from_bytes(abstime, "little", signed=True)
    assert datetime.datetime(1900, 1, 1) + datetime.timedelta(milliseconds=ms) == clock.moment  # the same moment
    clock.moment = datetime.datetime(2026, 3, 5, 11, 45, 0)
    eib = _answer(session, "11;IGNORE CONDITION;NOTFND")[0]
    assert _time(eib) == "0113015c" and eib[4:8].hex() == "0126064c"  # until the next ASKTIME
    assert eib[12:16] == session.first([bytes(85), b""])[0][12:16]  # EIBTASKN: the task's, all along


def test_a_descriptor_is_parsed_once_and_decodes_each_commands_parameters() -> None:
    text = b"43;READ;FILE();INTO();RIDFLD();GTEQ;RESP()".ljust(60)
    desc = parse_descriptor(text)
    assert parse_descriptor(bytes(text)) is desc  # the same statement: read once
    first, where = decode(desc, [b"CUSTFILE", bytes(200), b"00001001", encode_number(0)])
    second, again = decode(desc, [b"ACCTFILE", bytes(80), b"00000007", encode_number(-1)])
    assert first == {"FILE": b"CUSTFILE", "INTO": 200, "RIDFLD": b"00001001", "GTEQ": True, "RESP": 0}
    assert second == {"FILE": b"ACCTFILE", "INTO": 80, "RIDFLD": b"00000007", "GTEQ": True, "RESP": -1}
    assert where == again == {"FILE": 0, "INTO": 1, "RIDFLD": 2, "RESP": 3}
    with pytest.raises(ValueError, match="3 parameters for 4 options"):
        decode(desc, [b"CUSTFILE", bytes(200), b"00001001"])
