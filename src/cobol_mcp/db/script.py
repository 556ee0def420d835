"""SPUFI/DSNTEP2 input as DBAs keep it: statements ended by ``;``, ``--`` and ``/* … */`` comments, 80-column records.

Sequence numbers in columns 73-80 are cut when every line longer than 72 characters has only digits
or blanks there (as an 80-byte member written by ISPF with numbering on has); ``--#SET TERMINATOR x``
changes the terminator, as DSNTEP2 reads it. Each statement keeps the line it starts on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Statement", "statements"]

_TERMINATOR = re.compile(r"^\s*--#SET\s+TERMINATOR\s+(\S)", re.I)


@dataclass(frozen=True)
class Statement:
    text: str
    line: int  # where its first token is
    first: int  # the line ``text`` begins on (its tokens' lines count from here)


def _numbered(lines: list[str]) -> bool:
    long = [line for line in lines if len(line) > 72]
    return bool(long) and all(re.fullmatch(r"[0-9 ]{1,8}", line[72:80]) and len(line) <= 80 for line in long)


def statements(text: str) -> list[Statement]:
    """The statements of a script, without terminators; text after the last one is a statement too."""
    lines = text.splitlines()
    if _numbered(lines):
        lines = [line[:72] for line in lines]
    out: list[Statement] = []
    terminator = ";"
    current: list[str] = []
    start, begin = 0, 1
    quote: str | None = None
    comment = False
    for n, line in enumerate(lines, 1):
        directive = _TERMINATOR.match(line)
        if directive and quote is None and not comment:
            terminator = directive.group(1)
            continue
        i, piece = 0, list[str]()
        if not current:
            begin = n
        while i < len(line):
            ch = line[i]
            if comment:  # a bracketed comment, over lines too
                end = line.find("*/", i)
                if end < 0:
                    break
                comment, i = False, end + 2
                continue
            if quote:
                quote = None if ch == quote else quote
            elif ch in "'\"":
                quote = ch
            elif line.startswith("/*", i):
                comment, i = True, i + 2
                piece.append(" ")
                continue
            elif line.startswith("--", i):
                break
            elif ch == terminator:
                current.append("".join(piece))
                body = "\n".join(current)
                if body.strip():
                    out.append(Statement(body, start or n, begin))
                current, piece, start, begin = [], [], 0, n
                i += 1
                continue
            if not start and not ch.isspace():
                start = n
            piece.append(ch)
            i += 1
        current.append("".join(piece))
    body = "\n".join(current)
    if body.strip():
        out.append(Statement(body, start, begin))
    return out
