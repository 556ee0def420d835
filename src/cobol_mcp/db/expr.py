"""DB2 expressions and clauses, token by token, into SQLite's or PostgreSQL's words.

Special registers (``CURRENT DATE`` or ``CURRENT_DATE``, TIME, TIMESTAMP: local time, in DB2's ISO
text on SQLite, ``'2026-11-25-13.45.12.345000'``), ``VALUE`` (``COALESCE``), ``SUBSTR``, ``CHAR``,
``DIGITS``, ``DECIMAL``/``DEC``, ``IDENTITY_VAL_LOCAL()``, ``CONCAT``, ``SYSIBM.SYSDUMMY1``, table names
(see :mod:`.names`), host variables (``:HV``, ``:HV:IND``, ``:HV INDICATOR :IND``, ``:GRP.FIELD``)
to the driver's placeholders. What it cannot carry over faithfully raises :class:`Untranslatable`.
"""

from __future__ import annotations

from dataclasses import dataclass

from .arith import compare_sql, parse, render, store_sql
from .catalog import Column, Table, Untranslatable
from .dates import datetime_text
from .lexer import Tok
from .names import correlation, qualified_name, render_name, render_word

__all__ = ["HostRef", "Rewriter", "now_sql"]

_NOW = {
    ("sqlite", "DATE"): "date('now', 'localtime')",
    ("sqlite", "TIME"): "strftime('%H.%M.%S', 'now', 'localtime')",
    ("sqlite", "TIMESTAMP"): "(strftime('%Y-%m-%d-%H.%M.%f', 'now', 'localtime') || '000')",
    ("postgresql", "DATE"): "CURRENT_DATE",
    ("postgresql", "TIME"): "LOCALTIME(0)",
    ("postgresql", "TIMESTAMP"): "LOCALTIMESTAMP(6)",
}
_DUMMY = "(SELECT 'Y' AS IBMREQD)"  # SYSIBM.SYSDUMMY1, named by its correlation name or SYSDUMMY1
_ARITHMETIC = ("+", "-", "*", "/", "||")
_COMPARE = ("=", "<>", "<", ">", "<=", ">=", "!=", "¬=", "^=")
_TABLE_BEFORE = ("FROM", "JOIN", "INTO", "UPDATE", "TABLE", "REFERENCES", "VIEW")


def now_sql(register: str, target: str) -> str:
    return _NOW[(target, register)]


@dataclass(frozen=True)
class HostRef:
    """A host variable where the statement reads or sets one, with its indicator variable."""

    name: str
    indicator: str | None = None
    column: Column | None = None  # the column it is compared with or assigned to, where that is plain


class Rewriter:
    """One statement's rewrite for ``target``, knowing the tables of ``catalog`` (upper-case names)."""

    def __init__(self, target: str, catalog: dict[str, Table]) -> None:
        self.target = target
        self.catalog = catalog
        self.params: list[HostRef] = []
        self.tables: dict[str, Table] = {}  # the statement's tables, by name and by correlation name
        self.assigned: dict[int, Column] = {}  # id() of a host token given to a column (INSERT VALUES)

    def placeholder(self) -> str:
        return "?" if self.target == "sqlite" else "%s"

    def host(self, tokens: list[Tok], i: int) -> tuple[HostRef, int]:
        """The host variable at ``tokens[i]`` and its indicator, if any: (reference, next index)."""
        name, i = tokens[i].text, i + 1
        if i < len(tokens) and tokens[i].is_kw("INDICATOR") and i + 1 < len(tokens) and tokens[i + 1].kind == "host":
            return HostRef(name, tokens[i + 1].text), i + 2
        if i < len(tokens) and tokens[i].kind == "host":
            return HostRef(name, tokens[i].text), i + 1
        return HostRef(name), i

    def note_tables(self, tokens: list[Tok]) -> None:
        for i, tok in enumerate(tokens):
            if tok.kind not in ("id", "qid"):
                continue
            name, nxt = qualified_name(tokens, i)
            table = self.catalog.get(name)
            if table is None:
                continue
            self.tables[name] = table
            self.tables.setdefault(name.rpartition(".")[2], table)
            if nxt < len(tokens) and tokens[nxt].is_kw("AS"):
                nxt += 1
            if nxt < len(tokens) and tokens[nxt].kind == "id" and tokens[nxt].text not in _CLAUSE_WORDS:
                self.tables[tokens[nxt].text] = table

    def column_at(self, tokens: list[Tok], i: int) -> tuple[Column | None, int]:
        """The column a reference at ``tokens[i]`` (``C``, ``T.C`` or ``S.T.C``) names, if known."""
        if tokens[i].kind != "id":
            return None, i + 1
        parts, j = [tokens[i].text], i + 1
        while j + 1 < len(tokens) and tokens[j].text == "." and tokens[j + 1].kind == "id":
            parts.append(tokens[j + 1].text)
            j += 2
        if j < len(tokens) and tokens[j].text == "(":
            return None, i + 1  # a function
        if len(parts) == 1:
            found = [t.column(parts[0]) for t in {id(t): t for t in self.tables.values()}.values()]
            known = [c for c in found if c is not None]
            return (known[0] if len(known) == 1 else None), j
        table = self.tables.get(".".join(parts[:-1]))
        return (table.column(parts[-1]) if table else None), j

    def rewrite(self, tokens: list[Tok]) -> str:
        """The statement (or clause) ``tokens`` as ``target``'s SQL text."""
        out: list[str] = []
        i = 0
        while i < len(tokens):
            i = self._one(tokens, i, out)
        return _join(out)

    def _one(self, tokens: list[Tok], i: int, out: list[str]) -> int:
        tok = tokens[i]
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        if tok.kind in ("num", "host", "id", "str") or tok.text in ("(", "-", "+"):
            typed = self._typed(tokens, i, out)
            if typed is not None:
                return typed
        if tok.kind == "host":
            ref, j = self.host(tokens, i)
            column = self.assigned.get(id(tok)) or self._compared_column(tokens, i, j)
            self.params.append(HostRef(ref.name, ref.indicator, column))
            out.append(self.placeholder())
            return j
        if tok.kind == "num":
            column = self._compared_column(tokens, i, i + 1)
            out.append(self.number(tok, column))
            return i + 1
        if tok.kind == "str" and (column := self._compared_column(tokens, i, i + 1)) is not None:
            text = datetime_text(tok.text[1:-1].replace("''", "'"), column.type, self.target)
            out.append("'" + text.replace("'", "''") + "'")  # a date or time in any of DB2's forms: as stored
            return i + 1
        if tok.kind != "id":
            out.append(tok.text)
            return i + 1
        word = tok.text
        if word == "CURRENT" and nxt is not None and nxt.is_kw("DATE", "TIME", "TIMESTAMP"):
            out.append(now_sql(nxt.text, self.target))
            return i + 2
        if word in ("CURRENT_DATE", "CURRENT_TIME", "CURRENT_TIMESTAMP") and not (nxt and nxt.text == "("):
            out.append(now_sql(word[8:], self.target))
            return i + 1
        if word == "CONCAT" and not (nxt and nxt.text == "("):
            out.append("||")
            return i + 1
        if nxt is not None and nxt.text == "(":
            return self._function(tokens, i, out)
        if (
            word == "SYSIBM"
            and nxt is not None
            and nxt.text == "."
            and tokens[i + 2 : i + 3]
            and tokens[i + 2].is_kw("SYSDUMMY1")
        ):
            out.append(_DUMMY)
            return correlation(tokens, i + 3, out, self.target, _CLAUSE_WORDS, "SYSDUMMY1")
        name, j = qualified_name(tokens, i)
        if name in self.catalog or (j > i + 1 and i > 0 and tokens[i - 1].is_kw(*_TABLE_BEFORE)):
            out.append(render_name(name, self.target))
            return correlation(tokens, j, out, self.target, _CLAUSE_WORDS) if tokens[i - 1].is_kw("FROM", "JOIN") else j
        if i > 0 and tokens[i - 1].is_kw("FROM", "JOIN") and j == i + 1:  # a common table expression's name
            out.append(render_word(name, self.target))
            return correlation(tokens, j, out, self.target, _CLAUSE_WORDS)
        column, j = self.column_at(tokens, i)
        if column is not None and column.type == "DECIMAL" and self.target == "sqlite":
            before = tokens[i - 1].text if i > 0 else ""
            after = tokens[j].text if j < len(tokens) else ""
            if before in _ARITHMETIC or after in _ARITHMETIC:
                raise Untranslatable(tok.line, f"arithmetic on the DECIMAL column {column.name} with what is not "
                                     "a column, number, host variable, SUM, AVG, DECIMAL or CHAR is not translated "
                                     "for SQLite yet (values are stored as scaled integers)")  # fmt: skip
        out.extend(render_word(t.text, self.target) if t.kind == "id" else t.text for t in tokens[i:j])
        return j

    def _typed(self, tokens: list[Tok], i: int, out: list[str]) -> int | None:
        """An expression at ``tokens[i]`` that needs :mod:`.arith` (DECIMAL arithmetic on SQLite, a
        labelled duration, DECIMAL()), in its context: an UPDATE's SET, a comparison, a SELECT item."""
        if i > 0 and tokens[i - 1].kind == "op" and tokens[i - 1].text in ("+", "-", "*", "/", ".", "||"):
            return None  # inside an expression that started before
        found = parse(self, tokens, i)
        if found is None:
            return None
        node, j = found
        clause, nested, at = _clause(tokens, i)
        nxt = tokens[j] if j < len(tokens) else None
        if nxt is not None and nxt.kind == "op" and nxt.text in _COMPARE:
            right = parse(self, tokens, j + 1)
            if right is not None:
                other, k = right
                if clause == "SET" and not nested and nxt.text == "=" and node.op == "col":  # assignment
                    if not (other.special or (other.arith and self.target != "sqlite")):
                        return None
                    out += [self.rewrite(node.tokens), "=", store_sql(self, other, node.column)]
                    return k
                firm = (node.special and not node.optional) or (other.special and not other.optional)
                if firm or ((node.special or other.special) and (node.decimal or other.decimal)):
                    out.append(compare_sql(self, node, nxt.text, other))
                    return k
        if not node.special:
            return None
        if node.kind in ("date", "timestamp") or self.target != "sqlite":
            out.append(render(self, node))
            return j
        item = clause == "SELECT" and not nested and not (at > 0 and tokens[at - 1].text == "(")
        if item and not tokens[0].is_kw("INSERT", "CREATE") and (nxt is None or nxt.text in (",", "FROM", "AS")
                                                                  or nxt.kind in ("id", "qid")):  # fmt: skip
            out.append(render(self, node))
            return j
        if node.optional:
            return None  # host variables only: SQLite's own arithmetic, as before
        raise Untranslatable(tokens[i].line, "DECIMAL arithmetic or DECIMAL()/CHAR()/AVG() of a DECIMAL here is not "
                             "translated for SQLite yet: only in a SELECT list, SET :hv =, VALUES … INTO, an "
                             "UPDATE's SET and comparisons")  # fmt: skip

    def number(self, tok: Tok, column: Column | None) -> str:
        """A numeric literal; on SQLite, scaled to a DECIMAL column's stored integer where it meets one."""
        if column is None or column.type != "DECIMAL" or self.target != "sqlite":
            return tok.text
        from decimal import Decimal, InvalidOperation

        try:
            value = Decimal(tok.text)
        except InvalidOperation:
            raise Untranslatable(tok.line, f"{tok.text} is not a number") from None
        scaled = value.scaleb(column.scale)
        if scaled != scaled.to_integral_value():
            raise Untranslatable(tok.line, f"{tok.text} has more decimals than {column.name}'s scale {column.scale}")
        return str(int(scaled))

    def _compared_column(self, tokens: list[Tok], i: int, j: int) -> Column | None:
        """The column a literal or host variable at ``tokens[i:j]`` meets across ``=``, ``<`` …, if plain."""
        before = tokens[i - 1] if i > 0 else None
        if before is not None and before.text == "-" and i > 1:
            i, before = i - 1, tokens[i - 2]
        if before is not None and before.text in _COMPARE and i >= 2:
            start = i - 2
            while start >= 2 and tokens[start - 1].text == "." and tokens[start - 2].kind == "id":
                start -= 2
            column, end = self.column_at(tokens, start)
            if end == i - 1:
                return column
        if j + 1 < len(tokens) and tokens[j].text in _COMPARE:
            column, _ = self.column_at(tokens, j + 1)
            return column
        return self._listed_column(tokens, i)

    def _listed_column(self, tokens: list[Tok], i: int) -> Column | None:
        """The column of ``C [NOT] IN (a, b, …)`` or ``C [NOT] BETWEEN a AND b`` an item at ``tokens[i]`` is in."""
        before = tokens[i - 1] if i > 0 else None
        if before is not None and before.is_kw("BETWEEN"):
            return self._column_ending(tokens, i - 2 - (i >= 3 and tokens[i - 2].is_kw("NOT")))
        if before is not None and before.is_kw("AND") and i >= 3 and tokens[i - 3].is_kw("BETWEEN"):
            return self._column_ending(tokens, i - 4 - (i >= 5 and tokens[i - 4].is_kw("NOT")))
        depth, k = 0, i - 1
        while k >= 0:  # back to the list's "(": only items and commas at its depth
            text = tokens[k].text
            if text == ")":
                depth += 1
            elif text == "(":
                if depth == 0:
                    break
                depth -= 1
            elif depth == 0 and tokens[k].kind == "id":
                return None
            k -= 1
        if k < 1 or not tokens[k - 1].is_kw("IN") or (k + 1 < len(tokens) and tokens[k + 1].is_kw("SELECT")):
            return None
        return self._column_ending(tokens, k - 2 - (k >= 3 and tokens[k - 2].is_kw("NOT")))

    def _column_ending(self, tokens: list[Tok], end: int) -> Column | None:
        """The column whose reference ends at ``tokens[end]`` (``C``, ``T.C``, ``S.T.C``), if known."""
        start = end
        while start >= 2 and tokens[start - 1].text == "." and tokens[start - 2].kind == "id":
            start -= 2
        if start < 0:
            return None
        column, stop = self.column_at(tokens, start)
        return column if stop == end + 1 else None

    def _function(self, tokens: list[Tok], i: int, out: list[str]) -> int:
        name, line = tokens[i].text, tokens[i].line
        close = matching(tokens, i + 1)
        args = split_args(tokens[i + 2 : close])
        if name == "VALUE":
            out.append("COALESCE")
            return i + 1
        if name == "IDENTITY_VAL_LOCAL" and not args:
            out.append("last_insert_rowid()" if self.target == "sqlite" else "lastval()")
            return close + 1
        if name == "CHAR" and len(args) == 1:
            column, end = self.column_at(args[0], 0) if args[0] else (None, 0)
            if self.target == "sqlite" and column is not None and column.type == "DECIMAL":
                raise Untranslatable(line, "CHAR() of a DECIMAL column is not translated for SQLite yet")
            kind = "TEXT" if self.target == "sqlite" else "VARCHAR"
            out.append(f"CAST({self.rewrite(args[0])} AS {kind})")
            return close + 1
        if name == "DIGITS" and len(args) == 1:
            column, end = self.column_at(args[0], 0) if args[0] else (None, 0)
            if column is None or end != len(args[0]) or not column.digits:
                raise Untranslatable(line, "DIGITS() is translated for a numeric column only")
            inner = self.rewrite(args[0])
            if self.target == "sqlite":
                out.append(f"printf('%0{column.digits}d', abs({inner}))")
            else:
                out.append(f"lpad(replace(CAST(abs({inner}) AS TEXT), '.', ''), {column.digits}, '0')")
            return close + 1
        if name in ("DECIMAL", "DEC") and self.target == "postgresql" and 1 <= len(args) <= 3:
            p = args[1][0].text if len(args) > 1 else "15"
            s = args[2][0].text if len(args) > 2 else "0"
            out.append(f"CAST({self.rewrite(args[0])} AS NUMERIC({p}, {s}))")
            return close + 1
        if name in ("DECIMAL", "DEC"):
            raise Untranslatable(line, "DECIMAL() is not translated for SQLite yet (scaled-integer storage)")
        if name in ("LOCATE", "POSSTR", "DAYS", "DATE", "TIME", "TIMESTAMP", "YEAR", "MONTH", "DAY", "HEX",
                    "INTEGER", "INT", "ROWID", "TRANSLATE") :  # fmt: skip
            raise Untranslatable(line, f"the function {name}() is not translated yet")
        out.append(name)
        return i + 1


_CLAUSE_WORDS = frozenset(
    ("WHERE", "SET", "ON", "GROUP", "ORDER", "HAVING", "FETCH", "FOR", "WITH", "UNION", "EXCEPT", "INTERSECT",
     "JOIN", "INNER", "LEFT", "RIGHT", "FULL", "CROSS", "VALUES", "SELECT", "INTO", "OPTIMIZE", "QUERYNO", "AND",
     "OR", "USING")
)  # fmt: skip


_CLAUSES = ("SELECT", "SET", "WHERE", "HAVING", "ON", "ORDER", "GROUP", "VALUES", "WHEN", "THEN", "ELSE", "CASE")


def _clause(tokens: list[Tok], i: int) -> tuple[str, int, int]:
    """The clause ``tokens[i]`` is in (SELECT, SET, WHERE …), how many parentheses deep, and its index."""
    depth = nested = 0
    for k in range(i - 1, -1, -1):
        tok = tokens[k]
        if tok.kind == "op" and tok.text == ")":
            depth += 1
        elif tok.kind == "op" and tok.text == "(":
            depth, nested = (depth - 1, nested) if depth else (0, nested + 1)
        elif not depth and tok.kind == "id" and tok.text in _CLAUSES:
            return tok.text, nested, k
    return "", nested, -1


def matching(tokens: list[Tok], i: int) -> int:
    """The index of the ``)`` that closes the ``(`` at ``tokens[i]``."""
    depth = 0
    for j in range(i, len(tokens)):
        if tokens[j].kind == "op" and tokens[j].text == "(":
            depth += 1
        elif tokens[j].kind == "op" and tokens[j].text == ")":
            depth -= 1
            if depth == 0:
                return j
    raise Untranslatable(tokens[i].line, "a parenthesis is not closed")


def split_args(tokens: list[Tok]) -> list[list[Tok]]:
    """Tokens split at the commas outside parentheses (no tokens: no arguments)."""
    if not tokens:
        return []
    parts: list[list[Tok]] = [[]]
    depth = 0
    for tok in tokens:
        if tok.kind == "op" and tok.text == "(":
            depth += 1
        elif tok.kind == "op" and tok.text == ")":
            depth -= 1
        if depth == 0 and tok.kind == "op" and tok.text == ",":
            parts.append([])
        else:
            parts[-1].append(tok)
    return parts


def _join(words: list[str]) -> str:
    text = ""
    for word in words:
        if text and not (word in (",", ")", ".") or text.endswith(("(", ".")) or (word == "(" and text[-1].isalnum())):
            text += " "
        text += word
    return text
