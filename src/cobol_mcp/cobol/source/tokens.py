"""COBOL words, literals and periods, up to the end of the PROCEDURE DIVISION header."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .. import LinkageError
from .lines import Line

__all__ = ["HEADERS", "Tok", "tokenize"]

# Words that open the next paragraph or division of the IDENTIFICATION DIVISION: a PROGRAM-ID whose
# name is not followed by a period ends at one of them.
HEADERS = frozenset(
    ("AUTHOR", "INSTALLATION", "DATE-WRITTEN", "DATE-COMPILED", "SECURITY", "REMARKS", "OPTIONS",
     "ENVIRONMENT", "DATA", "PROCEDURE", "IDENTIFICATION", "ID", "END")
)  # fmt: skip


@dataclass(frozen=True)
class Tok:
    text: str  # word as written, or a literal's value
    kind: str  # "word" | "lit" | "period"
    line: int  # index into the line list
    prefix: str = ""  # literal prefix (X, Z, N); "?" for a malformed hexadecimal literal

    @property
    def up(self) -> str:
        return self.text.upper() if self.kind == "word" else ""


_TOKEN = re.compile(r"""([XxNnZz]?)("(?:[^"]|"")*"|'(?:[^']|'')*')|["']|[^\s"']+""")


def tokenize(lines: list[Line], whole: bool = False) -> list[Tok]:
    """Tokens up to the end of the PROCEDURE DIVISION header, or of the whole text when ``whole``."""
    toks: list[Tok] = []
    header = False
    for idx, line in enumerate(lines):
        for m in _TOKEN.finditer(line.code):
            if m.group(2):
                prefix, body = m.group(1).upper(), m.group(2)
                value = body[1:-1].replace(body[0] * 2, body[0])
                if prefix == "X":
                    try:
                        value = bytes.fromhex(value).decode("latin-1")
                    except ValueError:
                        prefix = "?"
                toks.append(Tok(value, "lit", idx, prefix))
                continue
            word = m.group()
            if word in ("'", '"'):
                raise LinkageError(f"{line.where}: unterminated literal")
            word = word.rstrip(",;")
            if not (word[:1] == "," and word[1:2].isdigit()):  # ",5" is a number under DECIMAL-POINT IS COMMA
                word = word.lstrip(",;")
            period = word.endswith(".")
            word = word[:-1] if period else word
            if word:
                toks.append(Tok(word, "word", idx))
                header = header or (toks[-1].up == "DIVISION" and len(toks) > 1 and toks[-2].up == "PROCEDURE")
            if period:
                toks.append(Tok(".", "period", idx))
                if header and not whole:
                    return _without_exec(toks)
    return _without_exec(toks)


_EXEC_KINDS = ("SQL", "CICS", "DLI", "SQLIMS")


def _without_exec(toks: list[Tok]) -> list[Tok]:
    """The tokens without the ``EXEC … END-EXEC`` blocks (and a period after one) before the PROCEDURE
    DIVISION: ``EXEC SQL DECLARE … TABLE``, ``INCLUDE SQLCA`` or ``BEGIN DECLARE SECTION`` among the data
    items declare none (the precompiler's output has none there); the PROCEDURE DIVISION's blocks stay,
    for the statement analysis."""
    out: list[Tok] = []
    i = 0
    while i < len(toks):
        t = toks[i]
        if t.up == "PROCEDURE" and i + 1 < len(toks) and toks[i + 1].up == "DIVISION":
            return out + toks[i:]
        if t.up == "EXEC" and i + 1 < len(toks) and toks[i + 1].up in _EXEC_KINDS:
            end = next((j for j in range(i + 2, len(toks)) if toks[j].up == "END-EXEC"), None)
            if end is not None:
                i = end + 1 + (end + 1 < len(toks) and toks[end + 1].kind == "period")
                continue
        out.append(t)
        i += 1
    return out
