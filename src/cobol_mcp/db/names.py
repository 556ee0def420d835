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
from collections.abc import Container

from .catalog import Untranslatable
from .lexer import Tok

__all__ = [
    "TARGETS",
    "correlation",
    "qualified_name",
    "qualify",
    "render_name",
    "render_part",
    "render_word",
    "table_references",
]

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


# words DB2 does not reserve that SQLite does (a correlation name made of one is quoted)
_RESERVED_ELSEWHERE = frozenset(
    (
        "COMMIT",
        "ROLLBACK",
        "TRANSACTION",
        "SAVEPOINT",
        "RELEASE",
        "BEGIN",
        "ABORT",
        "ATTACH",
        "DETACH",
        "VACUUM",
        "PRAGMA",
        "ANALYZE",
        "REINDEX",
        "INDEXED",
        "ISNULL",
        "NOTNULL",
        "GLOB",
        "REGEXP",
        "ESCAPE",
        "COLLATE",
        "RAISE",
        "RETURNING",
        "NOTHING",
    )
)


def correlation(
    tokens: list[Tok], j: int, out: list[str], target: str, clause_words: frozenset[str], default: str = ""
) -> int:
    """The correlation name after a table reference at ``tokens[j]`` into ``out``, quoted where DB2 takes as one
    a word SQLite reserves (``FROM SYSIBM.SYSDUMMY1 COMMIT``), in PostgreSQL's lower case there, so that it
    meets the unquoted references to it; without one, ``default`` (a derived table needs a name). The next index."""
    k = j + (j + 1 < len(tokens) and tokens[j].is_kw("AS"))
    word = tokens[k].text if k < len(tokens) and tokens[k].kind == "id" else ""
    if word in _RESERVED_ELSEWHERE:
        out += ["AS", '"' + (word.lower() if target == "postgresql" else word) + '"']
        return k + 1
    if default and (not word or word in clause_words):
        out += ["AS", default]
    return j  # (a plain correlation name is written as it is)


_TABLE_AFTER = ("FROM", "JOIN", "INTO", "UPDATE")
_FROM_ENDS = frozenset(("WHERE", "GROUP", "HAVING", "ORDER", "FETCH", "FOR", "WITH", "UNION", "EXCEPT", "INTERSECT",
                        "OPTIMIZE", "QUERYNO", "SET", "VALUES", "SELECT", "ON", "USING"))  # fmt: skip


def table_references(tokens: list[Tok]) -> list[tuple[int, int]]:
    """Where a statement names its tables: (first, next) token indexes of each name after FROM, JOIN, INTO
    or UPDATE, and after a comma in a FROM list; a common table expression's name is none."""
    ctes = {tokens[k - 1].text for k in range(1, len(tokens) - 1) if tokens[k].is_kw("AS") and tokens[k + 1].text == "("
            and (tokens[k - 2].is_kw("WITH") or tokens[k - 2].text == ",") and k >= 2}  # fmt: skip
    found: list[tuple[int, int]] = []
    depth, lists, expect, i = 0, set[int](), False, 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.kind == "op" and tok.text in "()":
            depth += 1 if tok.text == "(" else -1
            lists = {d for d in lists if d <= depth}
            expect = False
        elif tok.kind == "op" and tok.text == "," and depth in lists:
            expect = True
        elif expect and tok.kind in ("id", "qid") and not tok.is_kw(*_TABLE_AFTER, *_FROM_ENDS):
            expect = False
            if tok.is_kw("TABLE", "FINAL", "NEW", "OLD", "LATERAL"):  # a table function, a data change's table
                i += 1
                continue
            name, nxt = qualified_name(tokens, i)
            if name not in ctes:
                found.append((i, nxt))
            i = nxt
            continue
        else:  # (FOR UPDATE OF names columns)
            expect = tok.kind == "id" and tok.text in _TABLE_AFTER and not (i > 0 and tokens[i - 1].is_kw("FOR"))
            if tok.text == "FROM":
                lists.add(depth)
            elif tok.text in _FROM_ENDS:
                lists.discard(depth)
        i += 1
    return found


def qualify(tokens: list[Tok], qualifier: str, known: Container[str]) -> list[Tok]:
    """``tokens`` with each unqualified table name given ``qualifier``, as DB2's BIND QUALIFIER does, unless
    only the unqualified name is one of the ``known`` tables (a table made without a schema). A table read or
    changed keeps its name as its correlation name (``WHERE POLICY.X``) where it has no other."""
    out, last = [], 0
    for first, nxt in table_references(tokens):
        name = tokens[first]
        if nxt != first + 1 or name.kind != "id" or (name.text in known and f"{qualifier}.{name.text}" not in known):
            continue
        out += [*tokens[last:first], Tok("id", qualifier, name.line), Tok("op", ".", name.line), name]
        last = nxt
        after = tokens[nxt] if nxt < len(tokens) else None
        named = after is not None and after.kind == "id" and after.text not in _NOT_CORRELATION
        if not named and not (first > 0 and tokens[first - 1].is_kw("INTO")):  # still exposed by its own name
            out += [Tok("id", "AS", name.line), name]
    return out + tokens[last:]


_NOT_CORRELATION = frozenset((*_TABLE_AFTER, *_FROM_ENDS, "INNER", "LEFT", "RIGHT", "FULL", "CROSS", "NATURAL",
                              "EXCEPT", "AND", "OR"))  # fmt: skip
