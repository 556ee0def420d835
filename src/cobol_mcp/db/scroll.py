"""Scrollable cursors, as DB2 moves them: ``DECLARE c INSENSITIVE SCROLL CURSOR`` and ``FETCH NEXT |
PRIOR | FIRST | LAST | CURRENT | ABSOLUTE n | RELATIVE n [FROM] c INTO …``.

An INSENSITIVE (or ASENSITIVE, or plain) SCROLL cursor's result table is read whole when it is OPENed
(the runtime keeps its rows: later changes are not seen, as DB2's INSENSITIVE says) and is read-only
(FOR UPDATE or WHERE CURRENT OF on it is DB2's -228/-510, refused at prepare). A position is -1 (before
the first row), 0 … n-1 (on a row) or n (after the last). :func:`move` gives the new position and the
SQLCODE, as DB2's FETCH statement documents: a move past either end leaves the cursor before the first
or after the last row with +100 (ABSOLUTE 0 too, before the first row); CURRENT or RELATIVE 0 when not
on a row is +231; a scrolling FETCH on a cursor not declared SCROLL is -225.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

from .catalog import Untranslatable
from .errors import SqlError
from .lexer import Tok

__all__ = ["ORIENTATIONS", "Orientation", "amount_of", "move", "orientation"]

ORIENTATIONS = ("NEXT", "PRIOR", "FIRST", "LAST", "CURRENT", "ABSOLUTE", "RELATIVE")
Orientation = tuple[str, int | None, str | None]  # word, a literal amount, or the host variable holding it


def orientation(tokens: list[Tok]) -> Orientation:
    """The orientation of ``FETCH [orientation] [FROM] cursor INTO …`` (NEXT when none is written)."""
    if len(tokens) < 2 or not tokens[1].is_kw(*ORIENTATIONS, "BEFORE", "AFTER"):
        return "NEXT", None, None
    word = tokens[1].text
    if word in ("BEFORE", "AFTER"):
        raise Untranslatable(tokens[1].line, f"FETCH {word} (a move without a row) is not supported yet")
    if word not in ("ABSOLUTE", "RELATIVE"):
        return word, None, None
    k, sign = 2, 1
    if k < len(tokens) and tokens[k].text in ("-", "+") and tokens[k].kind == "op":
        sign, k = (-1 if tokens[k].text == "-" else 1), k + 1
    if k < len(tokens) and tokens[k].kind == "num" and tokens[k].text.isdigit():
        return word, sign * int(tokens[k].text), None
    if k < len(tokens) and tokens[k].kind == "host" and sign == 1:
        return word, None, tokens[k].text
    raise Untranslatable(tokens[1].line, f"FETCH {word} needs an integer or a host variable")


def amount_of(orientation: Orientation, values: Mapping[str, object]) -> int:
    """The amount of an ABSOLUTE or RELATIVE move: its literal, or its host variable's value (-302 when
    that is not an integer)."""
    _, amount, host = orientation
    if host is None:
        return amount or 0
    value = values.get(host)
    if not isinstance(value, (int, Decimal)) or value != int(value):
        raise SqlError(-302, "22001", f"the position {host} of FETCH ABSOLUTE/RELATIVE is not an integer")
    return int(value)


def move(word: str, amount: int, position: int, rows: int) -> tuple[int, int]:
    """(new position, SQLCODE: 0 on a row, +100 past an end, +231 no current row) of one FETCH."""
    if word in ("CURRENT",) or (word == "RELATIVE" and amount == 0):
        return position, 0 if 0 <= position < rows else 231
    if word == "NEXT":
        target = position + 1
    elif word == "PRIOR":
        target = position - 1
    elif word == "FIRST":
        target = 0 if rows else rows
    elif word == "LAST":
        target = rows - 1
    elif word == "ABSOLUTE":
        target = amount - 1 if amount > 0 else rows + amount if amount < 0 else -1
    else:  # RELATIVE
        target = position + amount
    if target < 0:
        return -1, 100
    if target >= rows:
        return rows, 100
    return target, 0
