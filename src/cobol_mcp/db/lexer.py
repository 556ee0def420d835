"""DB2's lexical rules: tokens of an SQL statement, with the line each starts on.

A token is a string literal (``'IT''S'``, ``X'C1'``), a delimited identifier (``"Mixed Name"``), a
number (``12``, ``-`` is an operator), an ordinary identifier or keyword (folded to upper case, as
DB2 does: letters, digits, ``_``, ``#``, ``@``, ``$``), a host variable (``:WS-NAME``, ``:GRP.FIELD``:
COBOL names keep their hyphens), or an operator. ``--`` comments and white space separate tokens.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["SqlSyntaxError", "Tok", "tokenize", "untokenize"]


class SqlSyntaxError(ValueError):
    """Text that is not DB2 SQL at all (an unclosed string, a stray character): with its line."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(reason)
        self.line = line
        self.reason = reason


@dataclass(frozen=True)
class Tok:
    kind: str  # "str", "hex", "qid" (delimited identifier), "num", "id", "host", "op"
    text: str  # as written (identifiers upper-cased; host variables without the colon)
    line: int

    def is_kw(self, *words: str) -> bool:
        return self.kind == "id" and self.text in words


_TOKEN = re.compile(
    r"""(?P<ws>\s+)
      | (?P<comment>--[^\n]*)
      | (?P<hex>[xX]'(?:[^']|'')*')
      | (?P<str>'(?:[^']|'')*')
      | (?P<qid>"(?:[^"]|"")*")
      | (?P<num>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)
      | (?P<host>:\s*[A-Za-z0-9#@$][A-Za-z0-9_#@$-]*(?:\.[A-Za-z0-9#@$][A-Za-z0-9_#@$-]*)*)
      | (?P<id>[A-Za-z#@$][A-Za-z0-9_#@$]*)
      | (?P<op>\|\||<>|<=|>=|!=|¬=|\^=|[-+*/(),.;=<>?|])
    """,
    re.X,
)


def tokenize(text: str, first_line: int = 1) -> list[Tok]:
    """The tokens of ``text``; a string or identifier left open, or an unknown character, raises."""
    tokens: list[Tok] = []
    pos, line = 0, first_line
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            char = text[pos]
            reason = "an unclosed string or name" if char in "'\"" else f"unexpected character {char!r}"
            raise SqlSyntaxError(line, reason)
        kind = m.lastgroup or ""
        value = m.group()
        if kind == "id":
            tokens.append(Tok("id", value.upper(), line))
        elif kind == "host":
            tokens.append(Tok("host", value[1:].strip().upper(), line))
        elif kind not in ("ws", "comment"):
            tokens.append(Tok(kind, value, line))
        line += value.count("\n")
        pos = m.end()
    return tokens


def untokenize(tokens: list[Tok]) -> str:
    """Tokens back to text, spaced the way a reader expects (no space inside ``a.b`` or before ``,``)."""
    out: list[str] = []
    prev: Tok | None = None
    for tok in tokens:
        if prev is not None and not (
            (tok.text in (",", ")", ".") and tok.kind == "op") or (prev.text in ("(", ".") and prev.kind == "op")
        ):
            out.append(" ")
        out.append(tok.text)
        prev = tok
    return "".join(out)
