"""Typed arithmetic: DB2's DECIMAL arithmetic kept exact on SQLite, and labelled durations on both.

:func:`parse` reads an arithmetic expression (``+ - * /``, unary minus, parentheses, columns, numbers,
host variables, ``CURRENT DATE``/``TIMESTAMP``, strings, ``SUM``/``AVG``/``DECIMAL``/``DEC``/``CHAR`` and
labelled durations such as ``+ 30 DAYS`` or ``- 1 MONTH``) into a tree that knows each value's DB2
type. The :class:`.expr.Rewriter` asks for it where an operand starts and keeps its own path unless the
tree needs this module (:attr:`Node.special`): on SQLite, where a DECIMAL is stored as a scaled
integer, arithmetic with a DECIMAL column, a decimal constant, or a host variable and a column goes through the
exact functions of :mod:`.exact`; on both databases a labelled duration becomes date arithmetic
(SQLite: ``DB2_DATEADD``; PostgreSQL: an INTERVAL, DATE kept a DATE) and ``DECIMAL()`` truncates.

DB2's rules for the result's precision and scale (DB2 for z/OS; DEC15 when both operands have at
most 15 digits, else DEC31): ``+``/``-``: scale max(s, s'); ``*``: scale s + s'; ``/``: DEC15 scale
15 - (p - s + s'), DEC31 scale N - (p - s + s') with N = 30 - p' (p' odd) or 29 - p' (p' even); an
integer column is DECIMAL(5|11|19, 0), an integer constant DECIMAL(max(5, digits), 0), a decimal
constant its digits; ``AVG`` of DECIMAL(p, s) has scale 31 - p + s; ``SUM`` keeps s. A host variable's
PICTURE is not known here: in a division it counts as DECIMAL(5, 2) (its value is still exact).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from .catalog import Column, Untranslatable
from .lexer import Tok


class Rewriter(Protocol):
    """What this module uses of :class:`.expr.Rewriter` (which imports this module)."""

    target: str

    def host(self, tokens: list[Tok], i: int) -> tuple[Any, int]: ...
    def column_at(self, tokens: list[Tok], i: int) -> tuple[Column | None, int]: ...
    def rewrite(self, tokens: list[Tok]) -> str: ...


__all__ = ["Node", "compare_sql", "parse", "render", "store_sql"]

UNITS = {"YEAR": "YEARS", "YEARS": "YEARS", "MONTH": "MONTHS", "MONTHS": "MONTHS", "DAY": "DAYS",
         "DAYS": "DAYS", "HOUR": "HOURS", "HOURS": "HOURS", "MINUTE": "MINUTES", "MINUTES": "MINUTES",
         "SECOND": "SECONDS", "SECONDS": "SECONDS", "MICROSECOND": "MICROSECONDS",
         "MICROSECONDS": "MICROSECONDS"}  # fmt: skip
_INT_P = {"SMALLINT": 5, "INTEGER": 11, "BIGINT": 19}
_HOST_P, _HOST_S = 5, 2  # a host variable in a division (its PICTURE is the COBOL side's)
_FUNCTIONS = ("SUM", "AVG", "DECIMAL", "DEC", "CHAR")


@dataclass
class Node:
    op: str  # "num" "host" "col" "raw" "neg" "+" "-" "*" "/" "dur" "paren" or a function name
    kind: str  # "dec" (exact number), "float", "date", "timestamp", "char", "other"
    p: int = 0
    s: int = 0
    decimal: bool = False  # holds a DECIMAL column or a decimal constant (SQLite: the exact path)
    special: bool = False  # needs this module's translation
    arith: bool = False  # holds an arithmetic operator
    host: bool = False  # holds a host variable (a column with it: the exact path, the value may be decimal)
    cols: bool = False  # holds a column
    optional: bool = False  # special only for host variables' sake: left to the Rewriter where not served
    tokens: list[Tok] = field(default_factory=list)  # a leaf's tokens
    kids: list[Node] = field(default_factory=list)
    column: Column | None = None
    unit: str = ""  # a duration's
    args: tuple[int, int] = (0, 0)  # DECIMAL(x, p, s)'s p and s


class _NoParse(Exception):
    pass


class _Parser:
    def __init__(self, rw: Rewriter, tokens: list[Tok]) -> None:
        self.rw, self.tokens, self.sqlite = rw, tokens, rw.target == "sqlite"

    def at(self, k: int, *texts: str) -> bool:
        return k < len(self.tokens) and self.tokens[k].text in texts and self.tokens[k].kind in ("op", "id")

    def expr(self, k: int) -> tuple[Node, int]:
        left, k = self.term(k)
        while self.at(k, "+", "-"):
            op = self.tokens[k].text
            if left.op == "host" or left.kind in ("date", "timestamp", "other"):  # a labelled duration?
                amount, j = self.primary(k + 1)
                if j < len(self.tokens) and self.tokens[j].is_kw(*UNITS):
                    left, k = self.duration(left, op, amount, self.tokens[j].text), j + 1
                    continue
            right, k = self.term(k + 1)
            left = self.binary(op, left, right)
        return left, k

    def term(self, k: int) -> tuple[Node, int]:
        left, k = self.factor(k)
        while self.at(k, "*", "/"):
            op = self.tokens[k].text
            right, k = self.factor(k + 1)
            left = self.binary(op, left, right)
        return left, k

    def factor(self, k: int) -> tuple[Node, int]:
        if self.at(k, "-", "+"):
            inner, j = self.factor(k + 1)
            if self.tokens[k].text == "+":
                return inner, j
            return Node("neg", inner.kind, inner.p, inner.s, inner.decimal, inner.special, inner.arith,
                        host=inner.host, cols=inner.cols, optional=inner.optional, kids=[inner]), j  # fmt: skip
        return self.primary(k)

    def primary(self, k: int) -> tuple[Node, int]:
        if k >= len(self.tokens):
            raise _NoParse
        tok = self.tokens[k]
        if tok.kind == "num":
            return self.number(tok), k + 1
        if tok.kind == "host":
            _, j = self.rw.host(self.tokens, k)
            return Node("host", "dec", _HOST_P, _HOST_S, host=True, tokens=self.tokens[k:j]), j
        if tok.kind == "str":
            return Node("raw", "other", tokens=[tok]), k + 1
        if tok.kind == "op" and tok.text == "(":
            inner, j = self.expr(k + 1)
            if not self.at(j, ")"):
                raise _NoParse
            node = Node("paren", inner.kind, inner.p, inner.s, inner.decimal, inner.special, inner.arith,
                        host=inner.host, cols=inner.cols, optional=inner.optional, kids=[inner])  # fmt: skip
            return node, j + 1
        if tok.kind != "id":
            raise _NoParse
        if tok.text == "CURRENT" and k + 1 < len(self.tokens) and self.tokens[k + 1].is_kw("DATE", "TIMESTAMP"):
            return Node("raw", self.tokens[k + 1].text.lower(), tokens=self.tokens[k : k + 2]), k + 2
        if tok.text in ("CURRENT_DATE", "CURRENT_TIMESTAMP") and not self.at(k + 1, "("):
            return Node("raw", tok.text[8:].lower(), tokens=[tok]), k + 1
        if tok.text in _FUNCTIONS and self.at(k + 1, "("):
            return self.function(k)
        column, j = self.rw.column_at(self.tokens, k)
        if column is None:
            raise _NoParse
        return self.column(column, self.tokens[k:j]), j

    def number(self, tok: Tok) -> Node:
        text = tok.text
        if "E" in text.upper():
            return Node("num", "float", tokens=[tok])
        whole, _, fraction = text.partition(".")
        if "." not in text:
            return Node("num", "dec", max(5, len(whole)), 0, tokens=[tok])
        return Node("num", "dec", len(whole + fraction), len(fraction), decimal=True, tokens=[tok])

    def column(self, column: Column, tokens: list[Tok]) -> Node:
        if column.type == "DECIMAL":
            return Node("col", "dec", column.length or 5, column.scale, decimal=True, cols=True, tokens=tokens,
                        column=column)  # fmt: skip
        if column.type in _INT_P:
            return Node("col", "dec", _INT_P[column.type], 0, cols=True, tokens=tokens, column=column)
        kind = {"DATE": "date", "TIMESTAMP": "timestamp", "DOUBLE": "float", "REAL": "float"}.get(column.type, "other")
        return Node("col", kind, cols=True, tokens=tokens, column=column)

    def binary(self, op: str, a: Node, b: Node) -> Node:
        if a.kind not in ("dec", "float") or b.kind not in ("dec", "float"):
            raise _NoParse  # strings, dates without a labelled duration: the Rewriter's own path
        host, cols = a.host or b.host, a.cols or b.cols
        exact = a.decimal or b.decimal or (host and cols)  # on SQLite: through .exact's functions
        firm = (a.special and not a.optional) or (b.special and not b.optional) or (self.sqlite and exact)
        optional = not firm and self.sqlite and host  # :A / :B, :K + 1: exact where it can be, else as before
        special = firm or optional
        if "float" in (a.kind, b.kind):
            return Node(op, "float", decimal=a.decimal or b.decimal, special=special, arith=True, host=host, cols=cols,
                        optional=optional, kids=[a, b])  # fmt: skip
        if op in "+-":
            s = max(a.s, b.s)
            p = min(31, max(a.p - a.s, b.p - b.s) + s + 1)
        elif op == "*":
            p, s = min(31, a.p + b.p), min(31, a.s + b.s)
        else:
            p, s = 31, _divide_scale(a, b)
        return Node(op, "dec", p, s, a.decimal or b.decimal, special, True, host=host, cols=cols, optional=optional,
                    kids=[a, b])  # fmt: skip

    def duration(self, base: Node, op: str, amount: Node, unit: str) -> Node:
        kind = base.kind if base.kind in ("date", "timestamp") else (
            "date" if UNITS[unit] in ("YEARS", "MONTHS", "DAYS") else "timestamp")  # fmt: skip
        return Node("dur", kind, special=True, arith=True, kids=[base, amount], unit=UNITS[unit] + op)

    def function(self, k: int) -> tuple[Node, int]:
        name = self.tokens[k].text
        if self.tokens[k + 2].is_kw("DISTINCT", "ALL"):
            if self.sqlite and name == "AVG":
                raise Untranslatable(self.tokens[k].line, "AVG(DISTINCT …) is not translated for SQLite yet")
            raise _NoParse
        arg, j = self.expr(k + 2)
        sizes: list[int] = []
        while self.at(j, ",") and j + 1 < len(self.tokens) and self.tokens[j + 1].kind == "num":
            sizes.append(int(self.tokens[j + 1].text))
            j += 2
        if not self.at(j, ")") or arg.kind not in ("dec", "float") or (name not in ("DECIMAL", "DEC") and sizes):
            raise _NoParse
        end = j + 1
        if name == "SUM":
            return Node("SUM", arg.kind, 31, arg.s, arg.decimal, arg.special, arg.arith, kids=[arg]), end
        if name == "AVG":
            s = 31 - arg.p + arg.s if arg.decimal or arg.arith else 0
            special = self.sqlite and (arg.decimal or arg.special or arg.kind == "dec")
            return Node("AVG", arg.kind, 31, s, arg.decimal, special, arg.arith, kids=[arg]), end
        if name == "CHAR":
            special = self.sqlite and (arg.decimal or arg.special) and arg.kind == "dec"
            return Node("CHAR", "char", arg.p, arg.s, special=special, kids=[arg]), end
        p = sizes[0] if sizes else (arg.p if arg.op == "col" and arg.s == 0 and not arg.decimal else 15)
        s = sizes[1] if len(sizes) > 1 else 0
        return Node("DECIMAL", "dec", p, s, True, True, arg.arith, kids=[arg], args=(p, s)), end


def _divide_scale(a: Node, b: Node) -> int:
    whole = a.p - a.s + b.s
    dec15 = a.p <= 15 and b.p <= 15
    return max(15 - whole if dec15 else (30 - b.p if b.p % 2 else 29 - b.p) - whole, 0)


def parse(rw: Rewriter, tokens: list[Tok], i: int) -> tuple[Node, int] | None:
    """The arithmetic expression at ``tokens[i]`` and the index after it, or None where none starts."""
    try:
        return _Parser(rw, tokens).expr(i)
    except (_NoParse, IndexError):
        return None


_PG_UNITS = {"YEARS": "year", "MONTHS": "month", "DAYS": "day", "HOURS": "hour", "MINUTES": "minute",
             "SECONDS": "second", "MICROSECONDS": "microsecond"}  # fmt: skip


def render(rw: Rewriter, node: Node) -> str:
    """``node`` as the target's SQL; on SQLite an exact number is decimal text (or an integer)."""
    sqlite = rw.target == "sqlite"
    if node.op in ("num", "host", "raw", "col"):
        text = rw.rewrite(node.tokens) if node.op != "num" else node.tokens[0].text
        if node.op == "num" and sqlite and node.decimal:
            return f"'{text}'"
        if node.op == "col" and sqlite and node.decimal and node.column is not None:
            return f"DB2_DEC({text}, {node.column.scale})"
        if node.op == "raw" and not sqlite and node.tokens[0].kind == "str":
            return text
        return text
    kids = [render(rw, kid) for kid in node.kids]
    if node.op == "paren":
        return kids[0] if sqlite and node.special else f"({kids[0]})"
    if node.op == "neg":
        return f"DB2_NEG({kids[0]})" if sqlite and node.special and node.kind == "dec" else f"-{kids[0]}"
    if node.op in ("+", "-", "*", "/"):
        if sqlite and node.kind == "float":
            kids = [f"CAST({k} AS REAL)" for k in kids]
        elif sqlite and node.special:
            if node.op == "/":
                return f"DB2_DIV({kids[0]}, {kids[1]}, {node.s})"
            return f"DB2_{ {'+': 'ADD', '-': 'SUB', '*': 'MUL'}[node.op] }({kids[0]}, {kids[1]})"
        return f"({kids[0]} {node.op} {kids[1]})"
    if node.op == "dur":
        unit, sign = node.unit[:-1], node.unit[-1]
        base = node.kids[0]
        if sqlite:
            amount = kids[1] if sign == "+" else f"-({kids[1]})"
            return f"DB2_DATEADD({kids[0]}, {amount}, '{unit}')"
        value = kids[0] if base.kind in ("date", "timestamp") else f"CAST({kids[0]} AS {node.kind.upper()})"
        moved = f"{value} {sign} ({kids[1]}) * INTERVAL '1 {_PG_UNITS[unit]}'"
        return f"CAST({moved} AS DATE)" if node.kind == "date" else f"({moved})"
    if node.op == "SUM":
        return f"DB2_SUM({kids[0]})" if sqlite and node.special else f"SUM({kids[0]})"
    if node.op == "AVG":
        if not sqlite:
            return f"AVG({kids[0]})"
        if node.kids[0].decimal or node.kids[0].arith:
            return f"DB2_AVG({kids[0]}, {node.s})"
        return f"CAST(AVG({kids[0]}) AS INTEGER)"  # AVG of integers is an integer, truncated
    if node.op == "CHAR":
        if sqlite and node.special:
            return f"DB2_CHAR({kids[0]}, {node.p}, {node.s})"
        return f"CAST({kids[0]} AS {'TEXT' if sqlite else 'VARCHAR'})"
    p, s = node.args  # DECIMAL
    if sqlite:
        return f"DB2_DECIMAL({kids[0]}, {p}, {s})"
    return f"CAST(TRUNC(CAST({kids[0]} AS NUMERIC), {s}) AS NUMERIC({p}, {s}))"


def compare_sql(rw: Rewriter, left: Node, op: str, right: Node) -> str:
    """``left op right`` where either side needed this module: exact on SQLite through DB2_CMP."""
    op = "<>" if op in ("!=", "¬=", "^=") else op
    a, b = render(rw, left), render(rw, right)
    if rw.target == "sqlite" and "dec" in (left.kind, right.kind) and "float" not in (left.kind, right.kind):
        return f"DB2_CMP({a}, {b}) {op} 0"
    return f"{a} {op} {b}"


def store_sql(rw: Rewriter, node: Node, column: Column | None) -> str:
    """``node`` assigned to ``column`` (UPDATE … SET): truncated to a DECIMAL's scale (or an integer's
    whole part) as DB2 assigns; on SQLite the scaled integer the column stores."""
    value = render(rw, node)
    if column is None or node.kind != "dec" or not (node.special or node.arith):
        return value
    scale = column.scale if column.type == "DECIMAL" else 0 if column.type in _INT_P else None
    if scale is None:
        return value
    if rw.target == "sqlite":
        return f"DB2_STORE({value}, {scale})"
    return f"TRUNC({value}, {scale})"
