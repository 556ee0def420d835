"""The source text cobc is given, when GnuCOBOL 3.1.2 would refuse what the parser reads.

Two things it refuses that real programs have: IBM ``CBL``/``PROCESS`` option lines (see
:mod:`.directives`) and a PROGRAM-ID paragraph whose name is not followed by a period (``PROGRAM-ID.
CALCPREM`` with ``AUTHOR.`` on the next line). The copy keeps every line where it was, so cobc's
diagnostics point at the same line numbers of the user's file: option lines are blanked, the period is
written into the blank after the name.
"""

from __future__ import annotations

import re
from pathlib import Path

from .directives import compiler_options
from .lines import read_lines, read_text
from .tokens import HEADERS

__all__ = ["cobc_text"]

_PIECE = re.compile(r"\"[^\"]*\"|'[^']*'|[^\s.\"']+|\.")
_ATTRIBUTES = ("IS", "INITIAL", "COMMON", "RECURSIVE", "PROGRAM")


def cobc_text(path: Path, fmt: str) -> str | None:
    """The text to compile instead of the file, or None when the file can be compiled as it is."""
    text = read_text(path)
    raws = text.splitlines(keepends=True)
    changed = False
    for n in compiler_options(path, text, fmt).lines:
        ending = raws[n - 1][len(raws[n - 1].rstrip("\r\n")) :]
        raws[n - 1] = ending
        changed = True
    place = _missing_period(path, fmt)
    if place is not None:
        n, column = place
        body = raws[n - 1].rstrip("\r\n")
        ending = raws[n - 1][len(body) :]
        if "\t" not in body and (column >= len(body) or body[column] == " ") and (fmt == "free" or column < 72):
            body = body.ljust(column + 1)
            raws[n - 1] = body[:column] + "." + body[column + 1 :] + ending
            changed = True
    return "".join(raws) if changed else None


def _missing_period(path: Path, fmt: str) -> tuple[int, int] | None:
    """(line number, 0-based column) just after a PROGRAM-ID name that is not followed by a period."""
    pieces: list[tuple[str, int, int]] = []  # (text, line number, end column in the physical line)
    offset = 7 if fmt == "fixed" else 0
    for line in read_lines(path, fmt):
        for m in _PIECE.finditer(line.code):
            pieces.append((m.group(), line.lineno, offset + m.end()))
        if len(pieces) > 400:
            break
    words = [piece[0].upper() for piece in pieces]
    if "PROGRAM-ID" not in words:
        return None
    i = words.index("PROGRAM-ID") + 1
    i += i < len(words) and words[i] == "."
    if i >= len(words) or words[i] == "." or words[i] in HEADERS:
        return None
    last = i
    while last + 1 < len(words) and words[last + 1] in (*_ATTRIBUTES, "AS"):
        last += 1 + (words[last + 1] == "AS" and last + 2 < len(words))
    if last + 1 < len(words) and words[last + 1] in HEADERS:
        return pieces[last][1], pieces[last][2]
    return None
