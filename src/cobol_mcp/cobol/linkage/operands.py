"""Operands of PROCEDURE DIVISION statements: LINKAGE names resolved to the units whose bytes they touch.

Units are the exposed elementary items (or OCCURS arrays of them) of the USING records. Names are resolved
against the USING records only (qualification with OF/IN, level-88 names read and write their item); any
other name (WORKING-STORAGE, literals, figurative constants) is of no interest. An access through a
REDEFINES, a subscript or a reference modification reaches every unit whose bytes it may touch, and
writes them only in part; ADDRESS OF and reference modification with variable bounds make the direction
unknown. Steps (what :mod:`.direction` walks) are tuples: ("eff", op, units, why), ("branch", bodies,
may-skip), ("loop", before, body, at-least-once, test), ("perform", first, last, why), ("goto", name,
why), ("exit", why), ("break",), ("leave", kind), ("next",), ("sentence",); while parsing, ("logcopy", area,
reads) too (see :mod:`.logcopy`).
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as default
from typing import Any

from ..source.lines import Line
from ..source.tokens import Tok
from .model import Field, Record

__all__ = [
    "TERMINATORS", "VERBS", "Node", "Operands", "Program", "Step", "Unit", "flow_units", "split_words",
    "sql_names", "units_and_names",
]  # fmt: skip

Step = tuple[Any, ...]  # ("eff", op, units, why) | ("branch", [seq...], open) | ("loop", pre, body, once) | ...

VERBS = frozenset(
    [
        "ACCEPT",
        "ADD",
        "ALLOCATE",
        "ALTER",
        "CALL",
        "CANCEL",
        "CLOSE",
        "COMMIT",
        "COMPUTE",
        "CONTINUE",
        "DELETE",
        "DISPLAY",
        "DIVIDE",
        "ENTRY",
        "EVALUATE",
        "EXEC",
        "EXIT",
        "FREE",
        "GENERATE",
        "GO",
        "GOBACK",
        "IF",
        "INITIALIZE",
        "INITIATE",
        "INSPECT",
        "MERGE",
        "MOVE",
        "MULTIPLY",
        "NEXT",
        "OPEN",
        "PERFORM",
        "READ",
        "RELEASE",
        "RETURN",
        "REWRITE",
        "ROLLBACK",
        "SEARCH",
        "SET",
        "SORT",
        "START",
        "STOP",
        "STRING",
        "SUBTRACT",
        "SUPPRESS",
        "TERMINATE",
        "UNLOCK",
        "UNSTRING",
        "WRITE",
    ]
)
TERMINATORS = frozenset(
    "END-" + verb
    for verb in [
        "ACCEPT",
        "ADD",
        "CALL",
        "COMPUTE",
        "DELETE",
        "DISPLAY",
        "DIVIDE",
        "EVALUATE",
        "EXEC",
        "IF",
        "MULTIPLY",
        "PERFORM",
        "READ",
        "RECEIVE",
        "RETURN",
        "REWRITE",
        "SEARCH",
        "START",
        "STRING",
        "SUBTRACT",
        "UNSTRING",
        "WRITE",
    ]
)  # scope terminators (a data name such as END-OF-FILE is not one)
_PHRASE_NEXT = {"ON": {"SIZE", "OVERFLOW", "EXCEPTION"}, "AT": {"END", "END-OF-PAGE", "EOP"}}
_NOT_NEXT = {"ON", "AT", "INVALID", "SIZE", "OVERFLOW", "EXCEPTION", "END"}


@dataclass
class Unit:
    """An exposed elementary item (or OCCURS array of them) of a USING record, and what was seen of it."""

    record: int
    field: Field
    path: tuple[str, ...]  # COBOL names from the record down
    lo: int
    hi: int
    dims: tuple[int, ...] = ()  # OCCURS counts from the record down (0: DEPENDING ON)
    read_unset: str | None = None  # first read that may see the caller's value
    read: str | None = None
    write: str | None = None  # first write of any kind
    full: str | None = None  # first whole write
    sites: list[str] = default(default_factory=list)  # whole writes that set it first on some path
    unknown: str | None = None


@dataclass
class Node:
    """A nameable item: its byte extent and whether reaching it needs a subscript."""

    record: int
    field: Field
    path: tuple[str, ...]
    lo: int
    hi: int
    indexed: bool
    dims: tuple[int, ...] = ()


@dataclass
class Program:
    units: list[Unit]
    paragraphs: list[tuple[str, str | None, list[Step]]]  # (name, section, steps)
    sections: dict[str, tuple[int, int]] = default(default_factory=dict)
    failure: str | None = None  # why the flow cannot be followed at all
    counters: frozenset[str] = frozenset()  # DEPENDING ON counters of the USING records
    stable: frozenset[str] = frozenset()  # loop variables set only by PERFORM VARYING (see .loops)
    constants: dict[str, int] = default(default_factory=dict)  # items that always hold this whole number
    surely: frozenset[int] | None = None  # after the walk: the units surely set when the program returns


def units_and_names(records: tuple[Record, ...]) -> tuple[list[Unit], dict[str, list[Node]]]:
    units: list[Unit] = []
    names: dict[str, list[Node]] = {}

    def walk(
        r: int, f: Field, path: tuple[str, ...], exposed: bool, table: tuple[int, int] | None, dims: tuple[int, ...]
    ) -> None:
        extent = f.size * (f.occurs or 1) if f.level not in (1, 77) else f.size
        lo, hi = f.offset, f.offset + extent
        whole = table or ((lo, hi) if f.occurs and f.level not in (1, 77) else None)
        if f.occurs and f.level not in (1, 77):
            dims = (*dims, 0 if f.depending_on else f.occurs)
        path = (*path, f.name.upper())
        node = Node(r, f, path, *(table or (lo, hi)), table is not None, dims)
        if f.key is not None:
            names.setdefault(f.name.upper(), []).append(node)
            for cond in f.conditions:
                names.setdefault(cond.name.upper(), []).append(node)
        exposed = exposed and f.exposed
        if not f.is_group:
            if exposed:
                units.append(Unit(r, f, path, *(whole or (lo, hi)), dims))
            return
        for c in f.children:
            walk(r, c, path, exposed, whole, dims)

    for i, rec in enumerate(records):
        walk(i, rec.field, (), True, None, ())
    return units, names


def flow_units(records: tuple[Record, ...]) -> list[Unit]:
    """The units of these records (for a program whose statements cannot be read)."""
    return units_and_names(records)[0]


def _apart(node: Node, u: Unit) -> bool:
    """Whether an element of a table and a unit of the same table never share a byte: in each row they
    take different bytes (``LS-AMT (I)`` never touches ``LS-CODE``)."""
    if not node.indexed or (u.lo, u.hi, u.dims) != (node.lo, node.hi, node.dims):
        return False
    a, b = node.field, u.field
    return a.offset + a.size * (a.occurs or 1) <= b.offset or b.offset + b.size * (b.occurs or 1) <= a.offset


class Operands:
    """Token cursor and operand resolution shared by the statement parser."""

    def __init__(self, lines: list[Line], toks: list[Tok], units: list[Unit], names: dict[str, list[Node]]):
        self.lines, self.toks, self.units, self.names = lines, toks, units, names
        self.i = 0
        self.failure: str | None = None
        self.procs: set[str] = set()
        self.uses: dict[str, set[str]] = {}  # how each other word is used: its op, "s" only written out
        self.written: list[str] = []  # the other words statements may change, in order (see .loops.steady)
        self.body_writes: dict[int, set[str]] = {}  # id(an inline PERFORM's body) -> the words it may change

    # -- helpers
    def at(self, k: int = 0) -> str:
        j = self.i + k
        if j >= len(self.toks):
            return "."
        t = self.toks[j]
        return "." if t.kind == "period" else t.up

    def where(self, tok: Tok) -> str:
        line = self.lines[tok.line]
        return f"line {line.lineno}" if line.path == self.lines[0].path else f"{line.path.name}:{line.lineno}"

    def why(self, verb: str, tok: Tok) -> str:
        return f"{verb} at {self.where(tok)}"

    def fail(self, reason: str) -> None:
        self.failure = self.failure or reason

    def stop_here(self) -> bool:
        w = self.at()
        if w in (".", "ELSE", "WHEN", "THEN") or w in TERMINATORS or w in VERBS:
            return True
        if w in _PHRASE_NEXT:
            return self.at(1) in _PHRASE_NEXT[w]
        if w == "NOT":
            return self.at(1) in _NOT_NEXT
        return w in ("INVALID", "EXCEPTION", "OVERFLOW") or (w == "SIZE" and self.at(1) == "ERROR")

    def span(self) -> list[Tok]:
        start = self.i
        while self.i < len(self.toks) and not self.stop_here():
            self.i += 1
        return self.toks[start : self.i]

    # -- operands
    def refs(self, toks: list[Tok]) -> list[tuple[Node, bool, bool, Tok, bool, tuple[str, ...]]]:
        """(node, partial, variable-bounds-or-address, token, in-a-subscript, subscript names) for the LINKAGE
        names; the subscript names are given when each subscript is a plain name and no reference
        modification follows (``LS-AMT(WS-I)``, ``LS-CELL(WS-R, WS-C)``)."""
        out: list[tuple[Node, bool, bool, Tok, bool, tuple[str, ...]]] = []
        k = 0
        while k < len(toks):
            t = toks[k]
            if t.up in ("FUNCTION", "LENGTH") and k + 1 < len(toks):
                k += 2 if t.up == "FUNCTION" else 1
                if t.up == "LENGTH" and k < len(toks) and toks[k].up == "OF":
                    k += 2  # LENGTH OF x reads no content
                continue
            address = t.up == "ADDRESS" and k + 1 < len(toks) and toks[k + 1].up == "OF"
            if address:
                k += 2
                if k >= len(toks):
                    break
                t = toks[k]
            if t.kind != "word" or t.up not in self.names:
                k += 1
                continue
            quals: list[str] = []
            k += 1
            while k + 1 < len(toks) and toks[k].up in ("OF", "IN"):
                quals.append(toks[k + 1].up)
                k += 2
            partial = variable = False
            subs: tuple[str, ...] = ()
            if k < len(toks) and toks[k].text == "(":
                depth, j = 0, k
                while j < len(toks):
                    depth += (toks[j].text == "(") - (toks[j].text == ")")
                    if depth == 0:
                        break
                    j += 1
                inner = toks[k + 1 : j]
                partial = True
                sub = self.refs(inner)
                out.extend((n, p, o, tk, True, ()) for n, p, o, tk, _, _ in sub)
                if any(x.text == ":" for x in inner):
                    variable = any(x.kind == "word" and not x.text.lstrip("+-").isdigit() for x in inner
                                   if x.text not in (":", "+", "-"))  # fmt: skip
                elif all(x.kind == "word" and x.up[:1].isalpha() for x in inner) and not (
                    j + 1 < len(toks) and toks[j + 1].text == "("
                ):
                    subs = tuple(x.up for x in inner)
                k = j + 1
            for node in self.resolve(t.up, quals):
                named = subs if len(subs) == len(node.dims) else ()
                out.append((node, partial or node.indexed, variable or address, t, False, named))
        return out

    def resolve(self, name: str, quals: list[str]) -> list[Node]:
        nodes = self.names.get(name, [])
        if quals:
            nodes = [n for n in nodes if all(q in n.path[:-1] for q in quals)]
        return nodes

    def cover(self, node: Node, partial: bool) -> list[tuple[int, bool]]:
        return [
            (i, not partial and node.lo <= u.lo and u.hi <= node.hi)
            for i, u in enumerate(self.units)
            if u.record == node.record and u.lo < node.hi and node.lo < u.hi and not _apart(node, u)
        ]

    def effects(self, op: str, toks: list[Tok], why: str, sent: bool = False) -> list[Step]:
        """Steps for `op` ("r" read, "w" write, "rw" read then write, "p" partial write, "u" unknown).

        A whole write of a table element subscripted by plain names also gives a ("mark", units, key, why)
        step: every unit inside the element, set for these subscripts (see :mod:`.loops`); a read of one
        carries its key as a fifth element. ``sent``: the operands are only written out (see .logcopy)."""
        self.note("s" if sent else op, toks)
        steps: list[Step] = []
        for node, partial, odd, tok, sub, subs in self.refs(toks):
            if sub and not odd:
                steps.append(("eff", "r", self.cover(node, partial), why))
                continue
            if odd:
                what = "ADDRESS OF or a reference modification with variable bounds"
                steps.append(("eff", "u", self.cover(node, True), f"{what} at {self.where(tok)}"))
                continue
            key = (subs, node.dims) if subs else None
            for o in op:
                if o == "w" and key is not None:
                    inside = [i for i, u in enumerate(self.units) if u.record == node.record
                              and u.path[: len(node.path)] == node.path]  # fmt: skip
                    steps.append(("eff", "p", self.cover(node, partial), why))
                    steps.append(("mark", inside, key, why))
                    continue
                if o == "w" and partial:
                    o = "p"
                steps.append(("eff", o, self.cover(node, partial), why, key if o == "r" else None))
        return steps

    def note(self, op: str, toks: list[Tok]) -> None:
        """Remember how the words other than LINKAGE names are used (a subscript's are read; LENGTH OF
        reads nothing)."""
        depth = k = 0
        while k < len(toks):
            t = toks[k]
            if t.up == "LENGTH" and k + 1 < len(toks) and toks[k + 1].up == "OF":
                k += 3
                continue
            depth += (t.text == "(") - (t.text == ")")
            if t.kind == "word" and t.up not in self.names:
                self.uses.setdefault(t.up, set()).add("r" if depth else op)
                if not depth and op not in ("r", "s"):
                    self.written.append(t.up)
            k += 1


def split_words(toks: list[Tok]) -> list[Tok]:
    """Parentheses and colons become tokens of their own: ``LS-TAB(WS-I)``, ``LS-NAME(1:3)``."""
    out: list[Tok] = []
    for t in toks:
        if t.kind != "word" or not any(c in t.text for c in "():"):
            out.append(t)
            continue
        part = ""
        for c in t.text:
            if c in "():":
                if part:
                    out.append(Tok(part, "word", t.line))
                out.append(Tok(c, "word", t.line))
                part = ""
            else:
                part += c
        if part:
            out.append(Tok(part, "word", t.line))
    return out


def sql_names(names: list[str], at: Tok) -> list[Tok]:
    """Host-variable names as COBOL references: ``GRP.FIELD`` is ``FIELD OF GRP``."""
    toks: list[Tok] = []
    for name in names:
        parts = name.split(".")
        toks.append(Tok(parts[-1], "word", at.line))
        for qualifier in reversed(parts[:-1]):
            toks += [Tok("OF", "word", at.line), Tok(qualifier, "word", at.line)]
        toks.append(Tok(",", "word", at.line))
    return toks
