"""Table names on each database: DB2's ``SCHEMA.TABLE`` as one SQLite name, or a real PostgreSQL schema.

SQLite has no schemas (ATTACH gives separate files, across which foreign keys cannot point), so a
qualified name becomes one delimited identifier with the dot inside it, ``"PAYROLL.EMPLOYEE"``: an
ordinary DB2 identifier cannot contain a dot, so the mapping is one-to-one and reads back plainly.
PostgreSQL gets the schema itself (``CREATE SCHEMA IF NOT EXISTS``), names left unquoted so that
PostgreSQL folds them as it always does, and DB2's upper-case folding meets it in every statement.
An ordinary DB2 name with ``#``, ``@`` or ``$`` (``ORD#HIST``, ``CUST@``), which neither database takes
unquoted, is quoted wherever it is written: as written on SQLite, in the lower case PostgreSQL folds
its other names to on PostgreSQL (so the catalog reads it back as DB2 wrote it).
"""

from __future__ import annotations

import re

from .catalog import Untranslatable
from .lexer import Tok

__all__ = ["TARGETS", "qualified_name", "render_name", "render_part", "render_word"]

TARGETS = ("sqlite", "postgresql")
_ORDINARY = re.compile(r"[A-Z#@$][A-Z0-9_#@$]*")
_PLAIN = re.compile(r"[A-Z_][A-Z0-9_]*")  # what both databases take unquoted


def _part(tok: Tok) -> str:
    if tok.kind == "id":
        return tok.text
    if tok.kind == "qid":
        return tok.text[1:-1].replace('""', '"')
    raise Untranslatable(tok.line, f"a name was expected, not {tok.text!r}")


def qualified_name(tokens: list[Tok], i: int) -> tuple[str, int]:
    """``NAME`` or ``SCHEMA.NAME`` at ``tokens[i]``: the name (upper case as DB2 folds it) and the next index."""
    if i >= len(tokens):
        line = tokens[-1].line if tokens else 0
        raise Untranslatable(line, "the statement ends where a name was expected")
    name = _part(tokens[i])
    if i + 2 < len(tokens) and tokens[i + 1].text == "." and tokens[i + 2].kind in ("id", "qid"):
        return f"{name}.{_part(tokens[i + 2])}", i + 3
    return name, i + 1


def _quote(part: str) -> str:
    return '"' + part.replace('"', '""') + '"'


def render_part(part: str, target: str) -> str:
    """One part of a name (a column, a correlation name) as written in a statement: unquoted unless it holds
    ``#``, ``@`` or ``$`` (see the module) or is a delimited identifier's text."""
    if _PLAIN.fullmatch(part):
        return part
    if _ORDINARY.fullmatch(part):
        return _quote(part.lower() if target == "postgresql" else part)
    return _quote(part)


def render_word(word: str, target: str) -> str:
    """An identifier token as written in a statement: quoted only when it is a DB2 name with ``#@$``."""
    return render_part(word, target) if "#" in word or "@" in word or "$" in word else word


def render_name(name: str, target: str) -> str:
    """A table, index or column name as ``target`` is to be given it."""
    if target == "sqlite":
        return _quote(name)
    return ".".join(render_part(p, target) for p in name.split("."))
