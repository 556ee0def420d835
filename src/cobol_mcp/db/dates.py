"""DB2's string representations of DATE, TIME and TIMESTAMP: every form DB2 takes as input, and the
form the program's DATE and TIME precompiler options give as output.

In (IBM, "String representations of datetime values"): a date as ISO or JIS ``yyyy-mm-dd``, USA
``mm/dd/yyyy`` or EUR ``dd.mm.yyyy``, leading zeros of month and day left out or not; a time as ISO or
EUR ``hh.mm[.ss]``, JIS ``hh:mm[:ss]`` or USA ``hh[:mm] AM|PM``, the hour's leading zero optional, the
seconds 0 when left out; a timestamp as ``yyyy-mm-dd-hh.mm.ss[.ffffff]``, ``yyyy-mm-dd hh:mm:ss[.ffffff]``
(the ISO form with a blank and colons) or ``yyyymmddhhmmss[ffffff]``, month, day, hour, minute and second
with or without their leading zero, up to 12 fraction digits (cut to the 6 a TIMESTAMP keeps); trailing
blanks, never leading ones. :func:`iso` gives DB2's ISO text of each (``2026-11-25``, ``13.45.00``,
``2026-11-25-13.45.00.000000``), which is how SQLite stores them, or None for text of no such shape
(the database then refuses it: SQLCODE -180); a value out of range (month 13) keeps its shape and is
refused as -181.

Out: :func:`shown` gives a DATE or TIME in the folder's format, ``ISO`` (the default), ``USA``, ``EUR`` or
``JIS``, as DB2 gives them to a program precompiled with ``DATE(…)``/``TIME(…)``; a TIMESTAMP always
``yyyy-mm-dd-hh.mm.ss.ffffff``.
"""

from __future__ import annotations

import re

__all__ = ["FORMATS", "datetime_text", "iso", "shown"]

FORMATS = ("ISO", "USA", "EUR", "JIS")

_DATE = (
    re.compile(r"(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})"),  # ISO, JIS
    re.compile(r"(?P<m>\d{1,2})/(?P<d>\d{1,2})/(?P<y>\d{4})"),  # USA
    re.compile(r"(?P<d>\d{1,2})\.(?P<m>\d{1,2})\.(?P<y>\d{4})"),  # EUR
)
_TIME = (
    re.compile(r"(?P<h>\d{1,2})\.(?P<mi>\d{1,2})(?:\.(?P<s>\d{1,2}))?"),  # ISO, EUR
    re.compile(r"(?P<h>\d{1,2}):(?P<mi>\d{1,2})(?::(?P<s>\d{1,2}))?"),  # JIS
    re.compile(r"(?P<h>\d{1,2})(?::(?P<mi>\d{1,2}))? (?P<p>[AaPp][Mm])"),  # USA
)
_STAMP = (
    re.compile(
        r"(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})-(?P<h>\d{1,2})\.(?P<mi>\d{1,2})\.(?P<s>\d{1,2})"
        r"(?:\.(?P<f>\d{0,12}))?"
    ),
    re.compile(
        r"(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})[ T](?P<h>\d{1,2})[:.](?P<mi>\d{1,2})[:.](?P<s>\d{1,2})"
        r"(?:[.,](?P<f>\d{0,12}))?"
    ),
    re.compile(r"(?P<y>\d{4})(?P<m>\d\d)(?P<d>\d\d)(?P<h>\d\d)(?P<mi>\d\d)(?P<s>\d\d)(?P<f>\d{0,12})"),
)


def _match(patterns: tuple[re.Pattern[str], ...], text: str) -> re.Match[str] | None:
    return next((m for p in patterns if (m := p.fullmatch(text))), None)


def _hour(m: re.Match[str]) -> int:
    hour = int(m["h"])
    if m.groupdict().get("p"):  # USA: 12 AM is midnight, 12 PM noon
        hour = hour % 12 + (12 if m["p"].upper() == "PM" else 0)
    return hour


def iso(text: str, db2_type: str) -> str | None:
    """``text`` (a DB2 string representation of a ``db2_type`` value) as DB2's ISO text, or None."""
    value = text.rstrip(" ")
    if db2_type == "DATE":
        m = _match(_DATE, value)
        return None if m is None else f"{m['y']}-{int(m['m']):02d}-{int(m['d']):02d}"
    if db2_type == "TIME":
        m = _match(_TIME, value)
        if m is None or (m.groupdict().get("p") and not 1 <= int(m["h"]) <= 12):
            return None
        parts = m.groupdict()
        return f"{_hour(m):02d}.{int(parts['mi'] or 0):02d}.{int(parts.get('s') or 0):02d}"
    if db2_type == "TIMESTAMP":
        m = _match(_STAMP, value)
        if m is None:
            return None
        fraction = ((m["f"] or "") + "000000")[:6]
        return (f"{m['y']}-{int(m['m']):02d}-{int(m['d']):02d}-{int(m['h']):02d}.{int(m['mi']):02d}."
                f"{int(m['s']):02d}.{fraction}")  # fmt: skip
    return None


def shown(value: str, db2_type: str, fmt: str) -> str:
    """A DATE or TIME in DB2's ISO text as a program precompiled with ``DATE(fmt)``/``TIME(fmt)`` receives it."""
    if fmt in ("", "ISO") or db2_type not in ("DATE", "TIME"):
        return value
    if db2_type == "DATE" and len(value) == 10 and value[4] == "-":
        y, m, d = value[:4], value[5:7], value[8:10]
        return {"USA": f"{m}/{d}/{y}", "EUR": f"{d}.{m}.{y}"}.get(fmt, value)
    if db2_type == "TIME" and len(value) == 8:
        h, mi, s = value[:2], value[3:5], value[6:8]
        if fmt == "JIS":
            return f"{h}:{mi}:{s}"
        if fmt == "USA":
            hour = int(h)
            return f"{(hour - 1) % 12 + 1:02d}:{mi} {'PM' if 12 <= hour < 24 else 'AM'}"
    return value


def datetime_text(text: str, db2_type: str, target: str) -> str:
    """A string given to a DATE, TIME or TIMESTAMP column, in any form DB2 takes (see :mod:`.dates`): DB2's
    ISO text on SQLite (a TIMESTAMP with six fraction digits), PostgreSQL's own (``2026-11-25 13:45:00.000000``,
    ``13:45:00``) on PostgreSQL; text of no such shape unchanged (the database refuses it: -180)."""
    if db2_type not in ("DATE", "TIME", "TIMESTAMP"):
        return text
    found = iso(text, db2_type)
    if found is None or target == "sqlite":
        return text if found is None else found
    if db2_type == "TIMESTAMP":
        return found[:10] + " " + found[11:19].replace(".", ":") + found[19:]
    return found.replace(".", ":") if db2_type == "TIME" else found
