"""The comment-entries of the IDENTIFICATION DIVISION: ``AUTHOR. J. O'Brien.`` is no code.

The text after ``AUTHOR``, ``INSTALLATION``, ``DATE-WRITTEN``, ``DATE-COMPILED``, ``SECURITY`` and
``REMARKS`` may be anything at all (an apostrophe, ``EXEC CICS``, a period): it is never read for
literals, COPY statements or EXEC blocks. Where one ends is where GnuCOBOL 3.1.2 ends it.
"""

from __future__ import annotations

import re

__all__ = ["COMMENT_ENTRIES", "comment_entries", "mask_entries"]

# The paragraphs whose text is a comment-entry.
COMMENT_ENTRIES = ("AUTHOR", "INSTALLATION", "DATE-WRITTEN", "DATE-COMPILED", "SECURITY", "REMARKS")
_ENTRY_WORD = re.compile(rf"^\s*(?:{'|'.join(COMMENT_ENTRIES)})(?![\w-])\s*\.?", re.I)
_DIVISION = re.compile(
    r"(?<![\w-])(?:(IDENTIFICATION|ID)\s+DIVISION|(ENVIRONMENT|DATA|PROCEDURE)\s+DIVISION|(PROGRAM-ID))(?![\w-])",
    re.I,
)


def comment_entries(raws: list[str], fmt: str) -> dict[int, int]:
    """Where the comment-entries of a program's text are: line index (from 0) -> the column (from 0, tabs
    expanded in fixed format) from which the rest of that line is comment-entry. As GnuCOBOL 3.1.2 reads
    them: the text after ``AUTHOR`` (``INSTALLATION``, ``DATE-WRITTEN``, ``DATE-COMPILED``, ``SECURITY``,
    ``REMARKS``) and its period, in the IDENTIFICATION DIVISION; in fixed format also every following line
    whose Area A (columns 8-11) is blank, up to one that is not (comment lines stay comments); in free
    format the entry ends with its line."""
    found: dict[int, int] = {}
    ident = entry = False
    for k, raw in enumerate(raws):
        start = 0
        if fmt == "fixed":
            raw = raw.expandtabs(8)
            if raw[6:7] in ("*", "/"):
                continue
            if entry and not raw[7:11].strip():
                found[k] = 6
                continue
            start = 7
        entry = False
        text = raw[start:72] if fmt == "fixed" else raw  # (never the sequence or identification area)
        word = _ENTRY_WORD.match(text) if ident else None
        if word is not None:
            found[k] = start + word.end()
            entry = fmt == "fixed"
            continue
        plain = re.sub(r"\"[^\"]*\"?|'[^']*'?|\*>.*", "", text)
        for m in _DIVISION.finditer(plain):
            ident = m.group(2) is None
    return found


def mask_entries(raw: str, column: int | None) -> str:
    """``raw`` with its comment-entry (from ``column``: see :func:`comment_entries`) blanked, columns kept."""
    return raw if column is None else raw[:column] + " " * (len(raw) - column)
