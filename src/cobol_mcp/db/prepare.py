"""A program's statement table, translated once for one database: what the runtime executes.

:func:`prepare_plan` takes the rows of the precompiler's statement table (anything with ``number``,
``kind``, ``text`` and ``name``: this package does not import the COBOL side) and translates each
executable one with :func:`.dml.translate` against the database's catalog, keeping the placeholder
SQL, the parameters and the outputs, each with its column where that is plain (DECIMAL scale, CHAR
length). A cursor keeps its SELECT, WITH HOLD, and whether it is updated through WHERE CURRENT OF (on
SQLite its rows then carry their rowid). ``SET :hv = expr`` is a SELECT of ``expr`` INTO :hv.
Unqualified table names get the plan's qualifier (DB2's BIND QUALIFIER), and a table the database does not
have is noted in :attr:`Plan.missing` (the program is prepared all the same: DB2 would say -204 when it runs).
Dynamic SQL (PREPARE, EXECUTE IMMEDIATE) is translated when it runs, with ``?`` markers as
parameters. A statement that cannot be translated raises :class:`.catalog.Untranslatable` naming
its line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from .arith import parse as parse_typed
from .catalog import Column, Table, Untranslatable
from .dml import Translation, translate
from .expr import HostRef, Rewriter, matching, split_args
from .lexer import SqlSyntaxError, Tok, tokenize
from .names import qualified_name, qualify, table_references
from .scroll import Orientation, orientation

__all__ = ["Plan", "Prepared", "StatementRow", "dynamic", "prepare_plan"]

# Statement kinds that need no database work (the precompiler turns them into comments).
DECLARATIVE = frozenset(("INCLUDE", "INCLUDE SQLCA", "BEGIN DECLARE SECTION", "END DECLARE SECTION",
                         "DECLARE TABLE", "DECLARE STATEMENT", "WHENEVER"))  # fmt: skip
_AGGREGATE_KEEPS = ("SUM", "MIN", "MAX", "VALUE", "COALESCE", "NULLIF")


class StatementRow(Protocol):
    @property
    def number(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def name(self) -> str | None: ...
    @property
    def line(self) -> int: ...


@dataclass
class Prepared:
    number: int
    kind: str
    name: str | None = None  # cursor, prepared statement
    translation: Translation | None = None
    columns: list[Column | None] = field(default_factory=list)  # of the result row, where plain
    hold: bool = False  # DECLARE CURSOR WITH HOLD
    updatable: bool = False  # a cursor used by WHERE CURRENT OF (FOR UPDATE OF)
    statement: str | None = None  # DECLARE c CURSOR FOR stmt: the prepared statement's name
    host: list[HostRef] = field(default_factory=list)  # OPEN/EXECUTE USING, EXECUTE IMMEDIATE :hv, PREPARE FROM :hv
    literal: str | None = None  # EXECUTE IMMEDIATE 'text', PREPARE s FROM 'text'
    scroll: bool = False  # DECLARE … [INSENSITIVE] SCROLL CURSOR (see .scroll)
    line: int = 0
    orientation: Orientation = ("NEXT", None, None)  # FETCH's


@dataclass
class Plan:
    target: str
    catalog: dict[str, Table]
    statements: dict[int, Prepared] = field(default_factory=dict)
    cursors: dict[str, Prepared] = field(default_factory=dict)  # by name: the DECLARE
    qualifier: str = ""  # BIND QUALIFIER: the schema of unqualified table names
    formats: tuple[str, str] = ("ISO", "ISO")  # the DATE and TIME precompiler options: how values are returned
    missing: list[tuple[int, str]] = field(default_factory=list)  # (line, table) named but not in the database


def result_columns(tokens: list[Tok], rw: Rewriter) -> list[Column | None]:
    """The columns of a SELECT's result, where an item is a plain column (or SUM/MIN/MAX/VALUE of one)."""
    if not tokens or not tokens[0].is_kw("SELECT"):
        return []
    depth, end = 0, len(tokens)
    for k, tok in enumerate(tokens):
        depth += tok.text == "(" and tok.kind == "op"
        depth -= tok.text == ")" and tok.kind == "op"
        if depth == 0 and tok.is_kw("FROM", "INTO") and k > 0:
            end = k
            break
    items = tokens[1:end]
    if items and items[0].is_kw("DISTINCT", "ALL"):
        items = items[1:]
    out: list[Column | None] = []
    for item in split_args(items):
        if len(item) == 1 and item[0].text == "*":
            for table in {id(t): t for t in rw.tables.values()}.values():
                out += table.columns
            continue
        out.append(_item_column(item, rw))
    return out


def _item_column(item: list[Tok], rw: Rewriter) -> Column | None:
    """``C``, ``T.C``, ``C AS X``, ``C X``, COUNT(…), SUM/MIN/MAX/VALUE/COALESCE/NULLIF(item, …)."""
    if not item:
        return None
    typed = parse_typed(rw, item, 0)
    if typed is not None and typed[0].special and typed[0].kind == "dec":  # exact DECIMAL arithmetic, AVG …
        rest = item[typed[1] :]
        if not rest or rest[0].is_kw("AS") or (len(rest) == 1 and rest[0].kind in ("id", "qid")):
            return Column("", "DECIMAL", typed[0].p, typed[0].s)
    if item[0].kind == "id" and len(item) > 1 and item[1].text == "(":
        close = matching(item, 1)
        args = split_args(item[2:close])
        rest = item[close + 1 :]
        if rest and not (rest[0].is_kw("AS") or (len(rest) == 1 and rest[0].kind == "id")):
            return None
        if item[0].text == "COUNT":
            return Column("", "INTEGER")
        if item[0].text in _AGGREGATE_KEEPS and args:
            return _item_column(args[0], rw)
        return None
    column, stop = rw.column_at(item, 0)
    plain = stop == len(item) or item[stop].is_kw("AS") or stop == len(item) - 1
    return column if plain else None


def _translated(tokens: list[Tok], target: str, catalog: dict[str, Table]) -> tuple[Translation, list[Column | None]]:
    rw = Rewriter(target, catalog)
    rw.note_tables(tokens)
    columns = result_columns(tokens, rw)
    return translate(tokens, target, catalog), columns


def _set_as_select(tokens: list[Tok]) -> list[Tok]:
    """``SET :hv [[INDICATOR] :ind] = expr`` as ``SELECT expr INTO :hv …``."""
    eq = next((k for k, t in enumerate(tokens) if t.text == "=" and t.kind == "op"), None)
    if eq is None:
        raise Untranslatable(tokens[0].line, "SET without =")
    target = tokens[1:eq]
    if any(t.text == "," for t in target):
        raise Untranslatable(tokens[0].line, "SET of several host variables at once is not supported")
    line = tokens[0].line
    return [Tok("id", "SELECT", line), *tokens[eq + 1 :], Tok("id", "INTO", line), *target]


def _hosts(tokens: list[Tok], k: int) -> list[HostRef]:
    """The host variables (with indicators) from ``tokens[k]`` on, separated by commas."""
    rw = Rewriter("sqlite", {})
    refs: list[HostRef] = []
    while k < len(tokens):
        if tokens[k].kind != "host":
            k += 1
            continue
        ref, k = rw.host(tokens, k)
        refs.append(ref)
    return refs


def _hosts_after(tokens: list[Tok], word: str) -> list[HostRef]:
    k = next((k for k, t in enumerate(tokens) if t.is_kw(word)), None)
    return [] if k is None else _hosts(tokens, k + 1)


def dynamic(text: str, plan: Plan) -> tuple[Translation, list[Column | None]]:
    """Statement text a program of ``plan`` prepares at run time: its ``?`` markers become parameters ``?1``,
    ``?2`` …; its tables, unqualified, the plan's qualifier's."""
    try:
        tokens = tokenize(text.strip().rstrip(";"))
    except SqlSyntaxError as exc:
        raise Untranslatable(exc.line, exc.reason) from None
    if not tokens:
        raise Untranslatable(1, "an empty statement")
    if plan.qualifier:
        tokens = qualify(tokens, plan.qualifier, plan.catalog)
    marked, n = [], 0
    for tok in tokens:
        if tok.kind == "op" and tok.text == "?":
            n += 1
            tok = Tok("host", f"?{n}", tok.line)
        marked.append(tok)
    return _translated(marked, plan.target, plan.catalog)


def _one(row: StatementRow, plan: Plan) -> Prepared:
    p = Prepared(row.number, row.kind, row.name, line=row.line)
    if row.kind in DECLARATIVE or row.kind in ("COMMIT", "ROLLBACK", "CLOSE"):
        return p
    try:
        tokens = tokenize(row.text, row.line)
    except SqlSyntaxError as exc:
        raise Untranslatable(exc.line, exc.reason) from None
    if plan.qualifier:
        tokens = qualify(tokens, plan.qualifier, plan.catalog)
    if plan.catalog:  # the database is set up: a table it does not have is worth a warning
        for first, _ in table_references(tokens):
            name = qualified_name(tokens, first)[0]
            if name not in plan.catalog and not name.startswith("SYSIBM."):
                plan.missing.append((tokens[first].line, name))
    if row.kind == "DECLARE CURSOR":
        k = next(k for k, t in enumerate(tokens) if t.is_kw("FOR"))
        words = [t.text for t in tokens[:k]]
        p.hold = "HOLD" in words and "WITHOUT" not in words
        p.scroll = "SCROLL" in words and "NO" not in words
        if p.scroll and ("SENSITIVE" in words or "ROWSET" in [t.text for t in tokens]):
            raise Untranslatable(row.line, "a SENSITIVE or rowset scrollable cursor is not supported yet "
                                 "(INSENSITIVE SCROLL is)")  # fmt: skip
        body = tokens[k + 1 :]
        p.updatable = any(body[j].is_kw("FOR") and body[j + 1].is_kw("UPDATE") for j in range(len(body) - 1))
        if len(body) == 1 and body[0].kind == "id":
            p.statement = body[0].text
        else:
            p.translation, p.columns = _translated(body, plan.target, plan.catalog)
        plan.cursors[row.name or ""] = p
    elif row.kind in ("OPEN", "EXECUTE"):
        p.host = _hosts_after(tokens, "USING")
    elif row.kind == "FETCH":
        if any(t.is_kw("ROWSET") for t in tokens):
            raise Untranslatable(row.line, "a rowset FETCH (multi-row) is not supported yet")
        p.orientation = orientation(tokens)
        if p.orientation[2]:
            p.host = [HostRef(p.orientation[2])]
        k = next(k for k, t in enumerate(tokens) if t.is_kw("INTO"))
        p.translation = Translation("", [], _hosts(tokens, k + 1))
    elif row.kind in ("EXECUTE IMMEDIATE", "PREPARE"):
        literal = [t for t in tokens if t.kind == "str"]
        p.host = _hosts(tokens, 0)
        p.literal = literal[-1].text[1:-1].replace("''", "'") if literal and not p.host else None
    elif row.kind == "SET":
        p.translation, p.columns = _translated(_set_as_select(tokens), plan.target, plan.catalog)
    elif row.kind in ("LOCK", "SAVEPOINT"):
        raise Untranslatable(row.line, f"{row.kind} is not supported by the runtime")
    else:
        p.translation, p.columns = _translated(tokens, plan.target, plan.catalog)
    return p


def prepare_plan(
    rows: list[StatementRow], target: str, catalog: dict[str, Table], qualifier: str = "",
    formats: tuple[str, str] = ("ISO", "ISO"),
) -> Plan:  # fmt: skip
    """Every row of the statement table translated for ``target``; raises :class:`Untranslatable`.
    ``qualifier``: the schema of unqualified table names (DB2's BIND QUALIFIER); ``formats``: the DATE and
    TIME precompiler options, how DATE and TIME values are returned (see :mod:`.dates`)."""
    plan = Plan(target, catalog, qualifier=qualifier.upper(), formats=formats)
    for row in rows:
        plan.statements[row.number] = _one(row, plan)
    for p in plan.statements.values():
        if p.kind.endswith("WHERE CURRENT OF") and p.name in plan.cursors:
            plan.cursors[p.name].updatable = True
    for name, declare in plan.cursors.items():
        if declare.scroll and declare.updatable:
            raise Untranslatable(declare.line, f"cursor {name} is INSENSITIVE SCROLL, so read-only: FOR UPDATE "
                                 "or WHERE CURRENT OF on it is DB2's -228/-510")  # fmt: skip
    return plan
