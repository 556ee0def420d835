"""DB2 statements (not DDL) into one target's SQL: what the runtime and ``db apply`` execute.

:func:`translate` rewrites a whole statement (see :mod:`.expr` for expressions) and also: ``SELECT …
INTO``/``VALUES … INTO`` lose their INTO list (the host variables it sets become ``outputs``; VALUES
becomes a SELECT without FROM, which both databases take),
``FETCH FIRST n ROWS ONLY`` is SQLite's ``LIMIT n``, isolation and cursor clauses (``WITH UR``,
``FOR FETCH ONLY``, ``FOR UPDATE OF``, ``OPTIMIZE FOR``, ``QUERYNO``) are dropped (the runtime owns
them), ``WHERE CURRENT OF C`` becomes ``rowid = ?`` on SQLite and ``ctid = CAST(%s AS tid)`` on PostgreSQL
(the runtime binds the cursor's row: PostgreSQL's own CURRENT OF fails once a WITH HOLD cursor has
outlived a COMMIT, which DB2 programs that commit every N rows rely on). An INSERT's values meet their
columns: ``DEFAULT`` is left out
(SQLite has no DEFAULT in VALUES), CHAR literals are padded, DECIMAL literals are scaled on SQLite,
TIME and TIMESTAMP literals in DB2's form (``13.45.00``, ``2026-11-25-13.45.00.000000``) become
PostgreSQL's on PostgreSQL, and a value given to a GENERATED ALWAYS column is DB2's -798.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .catalog import Column, Table, Untranslatable
from .dates import datetime_text
from .expr import HostRef, Rewriter, matching, split_args
from .lexer import Tok
from .names import qualified_name

__all__ = ["Translation", "translate"]


@dataclass
class Translation:
    sql: str
    params: list[HostRef] = field(default_factory=list)  # in placeholder order
    outputs: list[HostRef] = field(default_factory=list)  # set from the row (INTO)
    current_of: str | None = None  # the cursor of WHERE CURRENT OF


def translate(tokens: list[Tok], target: str, catalog: dict[str, Table]) -> Translation:
    """One DB2 statement (without ``;``) for ``target``; raises :class:`Untranslatable` with a line."""
    rw = Rewriter(target, catalog)
    rw.note_tables(tokens)
    tokens, outputs = _without_into(tokens, rw)
    if outputs and tokens[0].is_kw("VALUES"):  # VALUES expr, … INTO: one row, as a SELECT without FROM
        body = tokens[1:]
        if body and body[0].text == "(" and matching(body, 0) == len(body) - 1:
            body = body[1:-1]
        tokens = [Tok("id", "SELECT", tokens[0].line), *body]
    tokens, current_of = _current_of(tokens, target)
    tokens = _tail_clauses(tokens, target)
    if tokens and tokens[0].is_kw("INSERT"):
        tokens = _insert(tokens, catalog, rw)
    sql = rw.rewrite(tokens)
    params = rw.params + ([HostRef(f"ROWID OF {current_of}")] if current_of else [])
    return Translation(sql, params, outputs, current_of)


def _without_into(tokens: list[Tok], rw: Rewriter) -> tuple[list[Tok], list[HostRef]]:
    if not tokens or not tokens[0].is_kw("SELECT", "VALUES"):
        return tokens, []
    depth = 0
    for i, tok in enumerate(tokens):
        depth += tok.text == "(" and tok.kind == "op"
        depth -= tok.text == ")" and tok.kind == "op"
        if depth == 0 and tok.is_kw("INTO"):
            outputs, j = [], i + 1
            while j < len(tokens) and tokens[j].kind == "host":
                ref, j = rw.host(tokens, j)
                outputs.append(ref)
                if j < len(tokens) and tokens[j].text == ",":
                    j += 1
            if not outputs:
                raise Untranslatable(tok.line, "INTO names no host variable")
            return tokens[:i] + tokens[j:], outputs
    return tokens, []


def _current_of(tokens: list[Tok], target: str) -> tuple[list[Tok], str | None]:
    for i in range(len(tokens) - 3):
        if tokens[i].is_kw("WHERE") and tokens[i + 1].is_kw("CURRENT") and tokens[i + 2].is_kw("OF"):
            cursor = tokens[i + 3].text
            line = tokens[i].line
            if target == "postgresql":  # the row's ctid: PostgreSQL's CURRENT OF fails on a held cursor
                words = ("WHERE", "ctid", "=", "CAST", "(", "%s", "AS", "tid", ")")
                rowid = [Tok("id" if w[0].isalpha() else "op", w, line) for w in words]
            else:
                rowid = [Tok("id", "WHERE", line), Tok("id", "rowid", line), Tok("op", "=", line), Tok("op", "?", line)]
            return [*tokens[:i], *rowid], cursor
    return tokens, None


def _tail_clauses(tokens: list[Tok], target: str) -> list[Tok]:
    """FETCH FIRST → LIMIT (SQLite); WITH UR/CS/RS/RR, FOR FETCH/READ ONLY, FOR UPDATE [OF …], OPTIMIZE
    FOR n ROWS, QUERYNO n dropped: outside parentheses, at the statement's end."""
    out: list[Tok] = []
    depth, i = 0, 0
    while i < len(tokens):
        tok = tokens[i]
        depth += tok.text == "(" and tok.kind == "op"
        depth -= tok.text == ")" and tok.kind == "op"
        words = [t.text for t in tokens[i : i + 5]]
        if depth == 0 and tok.is_kw("FETCH") and words[1:2] == ["FIRST"]:
            count, j = ("1", i + 2) if tokens[i + 2].is_kw("ROW", "ROWS") else (tokens[i + 2].text, i + 3)
            j += 2  # ROW[S] ONLY
            if target == "sqlite":
                out += [Tok("id", "LIMIT", tok.line), Tok("num", count, tok.line)]
            else:
                out += [Tok("id", w, tok.line) for w in ("FETCH", "FIRST", count, "ROWS", "ONLY")]
            i = j
            continue
        if depth == 0 and tok.is_kw("WITH") and words[1:2] in (["UR"], ["CS"], ["RS"], ["RR"]):
            i += 2
            continue
        if depth == 0 and words[:3] in (["FOR", "FETCH", "ONLY"], ["FOR", "READ", "ONLY"]):
            i += 3
            continue
        if depth == 0 and words[:2] == ["FOR", "UPDATE"]:
            i += 2
            if i < len(tokens) and tokens[i].is_kw("OF"):
                i += 2
                while i + 1 < len(tokens) and tokens[i].text == ",":
                    i += 2
            continue
        if depth == 0 and words[:2] == ["OPTIMIZE", "FOR"]:
            i += 4
            continue
        if depth == 0 and words[:1] == ["QUERYNO"]:
            i += 2
            continue
        out.append(tok)
        i += 1
    return out


def _insert(tokens: list[Tok], catalog: dict[str, Table], rw: Rewriter) -> list[Tok]:
    """INSERT INTO t [(cols)] VALUES (…)[, (…)]: values fitted to their columns (see the module)."""
    if len(tokens) < 3 or not tokens[1].is_kw("INTO"):
        raise Untranslatable(tokens[0].line, "INSERT without INTO")
    name, i = qualified_name(tokens, 2)
    table = catalog.get(name)
    if table is None:
        return tokens
    head = tokens[:i]
    if i < len(tokens) and tokens[i].text == "(":
        close = matching(tokens, i)
        names = [part[0].text for part in split_args(tokens[i + 1 : close]) if part]
        i = close + 1
    else:
        names = [c.name for c in table.columns]
    columns: list[Column] = []
    for n in names:
        col = table.column(n)
        if col is None:
            raise Untranslatable(tokens[0].line, f"{name} has no column {n} (SQLCODE -206)")
        columns.append(col)
    if i >= len(tokens) or not tokens[i].is_kw("VALUES"):
        return head + _column_list(columns, tokens[0].line) + tokens[i:]  # INSERT … SELECT
    rows: list[list[list[Tok]]] = []
    j = i + 1
    while j < len(tokens) and tokens[j].text == "(":
        close = matching(tokens, j)
        rows.append(split_args(tokens[j + 1 : close]))
        j = close + 1 + (close + 1 < len(tokens) and tokens[close + 1].text == ",")
    if not rows:  # VALUES x (one value without parentheses)
        rows = [[tokens[i + 1 :]]]
        j = len(tokens)
    line = tokens[i].line
    for row in rows:
        if len(row) != len(columns):
            raise Untranslatable(line, f"{len(row)} values for {len(columns)} columns (SQLCODE -117)")
    keep = [k for k, col in enumerate(columns) if not all(_is_default(r[k]) for r in rows)]
    for k in range(len(columns)):
        if k in keep and any(_is_default(r[k]) for r in rows):
            raise Untranslatable(line, f"DEFAULT for {columns[k].name} in some rows only is not translated")
        if k in keep and columns[k].generated == "ALWAYS":
            raise Untranslatable(line, f"{columns[k].name} is GENERATED ALWAYS: DB2 refuses a value (SQLCODE -798)")
    if not keep:
        return [*head, Tok("id", "DEFAULT", line), Tok("id", "VALUES", line)]
    values: list[Tok] = [Tok("id", "VALUES", line)]
    for r, row in enumerate(rows):
        values += [Tok("op", ",", line)] if r else []
        values.append(Tok("op", "(", line))
        for m, k in enumerate(keep):
            values += [Tok("op", ",", line)] if m else []
            values += _fitted(row[k], columns[k], rw)
        values.append(Tok("op", ")", line))
    return head + _column_list([columns[k] for k in keep], line) + values + tokens[j:]


def _is_default(value: list[Tok]) -> bool:
    return len(value) == 1 and value[0].is_kw("DEFAULT")


def _column_list(columns: list[Column], line: int) -> list[Tok]:
    out = [Tok("op", "(", line)]
    for n, col in enumerate(columns):
        out += [Tok("op", ",", line)] if n else []
        out.append(Tok("id", col.name, line))
    return [*out, Tok("op", ")", line)]


def _fitted(value: list[Tok], column: Column, rw: Rewriter) -> list[Tok]:
    """A literal as DB2 stores it in ``column``: CHAR padded, TIMESTAMP's fraction to six digits, a
    number for a DECIMAL column scaled on SQLite; a host variable remembers its column."""
    if value and value[0].kind == "host":
        rw.assigned[id(value[0])] = column
    if len(value) == 1 and value[0].kind == "str":
        text = value[0].text[1:-1].replace("''", "'")
        if column.type == "CHAR" and column.length and len(text) < column.length:
            text = text.ljust(column.length)
        text = datetime_text(text, column.type, rw.target)
        return [Tok("str", "'" + text.replace("'", "''") + "'", value[0].line)]
    if column.type == "DECIMAL" and value and value[-1].kind == "num" and len(value) <= 2:
        scaled = Tok("num", rw.number(value[-1], column), value[-1].line)
        return [*value[:-1], scaled] if len(value) == 1 or value[0].text in ("-", "+") else value
    return value
