"""The source text cobc is given, when GnuCOBOL 3.1.2 would refuse what the parser reads.

Three things it refuses that real programs have: IBM ``CBL``/``PROCESS`` option lines (see
:mod:`.directives`), a PROGRAM-ID paragraph whose name is not followed by a period (``PROGRAM-ID.
CALCPREM`` with ``AUTHOR.`` on the next line) and a COPY of a name written for another machine
(``COPY "C:\\PgmCobols\\FD\\FDCliente.cpy"``, ``COPY 'DD:SYSLIB(MEMBER)'``: see :mod:`.copybooks`). The
copy keeps every line where it was, so cobc's diagnostics point at the same line numbers of the user's
file: option lines are blanked, the period is written into the blank after the name, and such a COPY
name is replaced by a shorter one (what follows on the line stays in its columns) that the build links
to the book the parser found (:func:`rename_copies`, for a copybook's text too).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from .directives import compiler_options
from .lines import read_lines, read_text
from .tokens import HEADERS

__all__ = ["cobc_text", "rename_copies"]

_PIECE = re.compile(r"\"[^\"]*\"|'[^']*'|[^\s.\"']+|\.")
_ATTRIBUTES = ("IS", "INITIAL", "COMMON", "RECURSIVE", "PROGRAM")


def rename_copies(text: str, copies: Iterable[tuple[int, str, str]]) -> str:
    """``text`` with each COPY name written for another machine replaced: ``copies`` holds (line of the
    COPY statement, the name as written, a name no longer than it). The name is looked for on that line
    and the few after it (a COPY may span lines); the columns after it keep their place."""
    raws = text.splitlines(keepends=True)
    for lineno, written, new in copies:
        for n in range(lineno - 1, min(lineno + 4, len(raws))):
            at = raws[n].find(written)
            if at < 0:
                continue
            end = at + len(written)
            quote = raws[n][end : end + 1]
            if at > 0 and raws[n][at - 1] in "\"'" and quote == raws[n][at - 1]:
                raws[n] = raws[n][:at] + new + quote + " " * (len(written) - len(new)) + raws[n][end + 1 :]
            else:
                raws[n] = raws[n][:at] + new.ljust(len(written)) + raws[n][end:]
            break
    return "".join(raws)


def cobc_text(path: Path, fmt: str, copies: Iterable[tuple[int, str, str]] = ()) -> str | None:
    """The text to compile instead of the file, or None when the file can be compiled as it is.
    ``copies``: the COPY names of the file to replace (see :func:`rename_copies`)."""
    text = read_text(path)
    copies = list(copies)
    if copies:
        text = rename_copies(text, copies)
    raws = text.splitlines(keepends=True)
    changed = bool(copies)
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
