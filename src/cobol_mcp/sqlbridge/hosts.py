"""Each statement's host variables as the program declares them: which bytes of which CALL parameter.

A statement's ``CALL 'SQLRT'`` passes the SQLCA, then each name of :func:`..cobol.precompile.generate.passed`
BY REFERENCE. Each name (``A.B`` is B OF A, qualifiers in any depth as COBOL allows) is resolved to its
item in WORKING-STORAGE, LOCAL-STORAGE or LINKAGE (:mod:`..cobol.linkage.storage`), and becomes the
:class:`Piece` s the runtime reads or sets:

* an elementary item is one piece, of any USAGE the codec knows;
* a VARCHAR, a group of exactly two 49-level items (a binary length, then the text), is one piece;
* a host structure (any other group) is one piece per field (a VARCHAR field being one), named
  ``GROUP.FIELD``; the statement's text then lists them (``:DCLEMP`` becomes ``:DCLEMP.EMPNO, …``), so
  the translator sees plain host variables;
* an indicator array (a group whose one item has OCCURS n) gives ``IND.1`` … ``IND.n``, the k-th the
  indicator of the structure's k-th field.

A name that cannot be resolved, or an item inside a table (OCCURS), refuses the program with the
statement's file:line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..cobol import LinkageError
from ..cobol.linkage.model import Field
from ..cobol.linkage.storage import Storage
from ..cobol.precompile.generate import NOT_EXECUTABLE, declares, passed
from ..cobol.precompile.scan import SqlStatement

__all__ = ["Hosts", "Piece", "Row", "describe"]

_HOST = re.compile(
    r":\s*([A-Z0-9][A-Z0-9-]*(?:\.[A-Z0-9][A-Z0-9-]*)*)"
    r"(?:\s*(?:INDICATOR\s*)?:\s*([A-Z0-9][A-Z0-9-]*(?:\.[A-Z0-9][A-Z0-9-]*)*))?",
    re.I,
)
_STRING = re.compile(r"('(?:[^']|'')*')")


@dataclass(frozen=True)
class Piece:
    """One value the runtime reads or sets."""

    name: str  # as the translated statement names it: WS-DEPT, DCLEMPLOYEE.EMPNO, IND-ARR.2
    param: int  # which host-variable parameter of the CALL (0: the first after the SQLCA)
    offset: int  # of the item in that parameter's bytes (VARCHAR: of its length)
    field: Field  # the elementary item (VARCHAR: its text)
    length: Field | None = None  # VARCHAR: the 49-level length item
    text_offset: int = 0  # VARCHAR: where its text starts in the parameter's bytes


@dataclass(frozen=True)
class Row:
    """A statement of the table, as :func:`cobol_mcp.db.prepare.prepare_plan` reads it."""

    number: int
    kind: str
    text: str
    name: str | None
    line: int


@dataclass
class Hosts:
    """One statement's CALL: its parameters' sizes and what the runtime reads and sets in them."""

    number: int
    sizes: list[int] = field(default_factory=list)  # of each host-variable parameter (after the SQLCA)
    pieces: dict[str, Piece] = field(default_factory=dict)
    reads: list[str] = field(default_factory=list)  # the pieces the statement reads (with their indicators)
    indicators: dict[str, str] = field(default_factory=dict)  # piece -> its indicator piece


def _walk(f: Field, above: tuple[Field, ...]) -> Iterator[tuple[Field, tuple[Field, ...]]]:
    yield f, above
    for c in f.children:
        yield from _walk(c, (*above, f))


def _qualified(above: tuple[Field, ...], qualifiers: list[str]) -> bool:
    names = [a.name.upper() for a in above]
    k = 0
    for name in names:
        if k < len(qualifiers) and name == qualifiers[k]:
            k += 1
    return k == len(qualifiers)


def _resolve(storage: Storage, name: str, where: str) -> Field:
    *qualifiers, leaf = name.split(".")
    found = [
        (f, above)
        for _, record in storage.records
        for f, above in _walk(record, ())
        if f.name.upper() == leaf and _qualified(above, qualifiers)
    ]
    if not found:
        for part in (leaf, *qualifiers):
            if part in storage.unreadable:
                raise LinkageError(f"{where}: host variable {name}: {storage.unreadable[part]}")
        raise LinkageError(f"{where}: host variable {name} is not declared in WORKING-STORAGE, LOCAL-STORAGE "
                           "or LINKAGE")  # fmt: skip
    if len(found) > 1:
        raise LinkageError(f"{where}: host variable {name} is ambiguous: qualify it (:GROUP.{leaf})")
    f, above = found[0]
    if any(a.occurs for a in above):
        raise LinkageError(f"{where}: host variable {name} is inside a table (OCCURS): not supported")
    return f


def is_varchar(f: Field) -> bool:
    """DB2's VARCHAR host variable: a group of a 49-level binary length and a 49-level text item."""
    kids = f.children
    return (
        len(kids) == 2
        and all(k.level == 49 and not k.children and not k.occurs for k in kids)
        and kids[0].category == "numeric"
        and kids[0].usage in ("binary", "comp-5", "comp-x")
        and kids[1].category != "numeric"
    )


def _pieces(name: str, f: Field, param: int, base: int, where: str, top: str = "") -> list[Piece]:
    """``name``'s pieces; a structure's fields are named ``top.FIELD`` (``top``: the structure as passed)."""
    if is_varchar(f):
        length, text = f.children
        return [Piece(name, param, length.offset - base, text, length, text.offset - base)]
    if not f.children:
        if f.occurs:
            raise LinkageError(f"{where}: host variable {name} is a table (OCCURS): host-variable arrays "
                               "(multi-row FETCH/INSERT) are not supported")  # fmt: skip
        return [Piece(name, param, f.offset - base, f)]
    pieces: list[Piece] = []
    for c in f.children:
        if c.redefines is not None or c.name.upper() == "FILLER":
            continue
        pieces += _pieces(f"{top or name}.{c.name.upper()}", c, param, base, where, top or name)
    return pieces


def _indicator_array(name: str, f: Field, param: int, where: str) -> list[Piece]:
    """The pieces of an indicator: an elementary item, or a group whose one item OCCURS n times."""
    if not f.children:
        return [Piece(name, param, 0, f)]
    kids = [c for c in f.children if c.redefines is None]
    if len(kids) != 1 or not kids[0].occurs or kids[0].children or kids[0].category != "numeric":
        raise LinkageError(f"{where}: indicator {name} must be a S9(4) COMP item or a group of one such item "
                           "with OCCURS (an indicator array)")  # fmt: skip
    item, count = kids[0], kids[0].occurs or 1
    start = item.offset - f.offset
    return [Piece(f"{name}.{k}", param, start + (k - 1) * item.size, item) for k in range(1, count + 1)]


def _expand(sql: str, structures: dict[str, list[str]], arrays: dict[str, list[str]]) -> str:
    """``sql`` with each host structure written out as its fields, each with its indicator array's item."""

    def one(m: re.Match[str]) -> str:
        name, ind = m.group(1).upper(), (m.group(2) or "").upper()
        fields = structures.get(name, [name])
        if not ind:
            return ", ".join(f":{f}" for f in fields)
        items = arrays.get(ind, [ind])
        if len(fields) > 1 and len(items) == 1 and ind not in arrays:
            return m.group(0)  # left to the runtime's own rules (a structure with one indicator)
        return ", ".join(f":{f}:{items[k] if k < len(items) else items[-1]}" for k, f in enumerate(fields))

    parts = _STRING.split(sql)
    return "".join(part if k % 2 else _HOST.sub(one, part) for k, part in enumerate(parts))


def describe(statements: list[SqlStatement], storage: Storage, path: str) -> tuple[dict[int, Hosts], list[Row]]:
    """Per executable statement its :class:`Hosts`, and the statement table with structures written out."""
    cursors = declares(statements)
    hosts: dict[int, Hosts] = {}
    structures: dict[str, list[str]] = {}  # a structure's name -> its pieces' names
    arrays: dict[str, list[str]] = {}  # an indicator array's name -> its items' names
    indicator_names = {hv.indicator for s in statements for hv in s.host_vars if hv.indicator}
    for stmt in statements:
        where = f"{path}:{stmt.line}"
        if stmt.kind in NOT_EXECUTABLE and stmt.kind != "DECLARE CURSOR":
            continue
        h = Hosts(stmt.number)
        names = passed(stmt, cursors) if stmt.kind != "DECLARE CURSOR" else passed(stmt)
        for param, name in enumerate(names):
            f = _resolve(storage, name, where)
            h.sizes.append(f.size * (f.occurs or 1))
            if name in indicator_names and f.children:
                pieces = _indicator_array(name, f, param, where)
                arrays[name] = [p.name for p in pieces]
            else:
                pieces = _pieces(name, f, param, f.offset, where)
                if len(pieces) > 1 or pieces[0].name != name:
                    structures[name] = [p.name for p in pieces]
            h.pieces.update((p.name, p) for p in pieces)
        declare = cursors.get(stmt.name or "") if stmt.kind == "OPEN" else None
        for hv in [*(declare.host_vars if declare else []), *stmt.host_vars]:
            fields = structures.get(hv.name, [hv.name])
            items = arrays.get(hv.indicator or "", [hv.indicator] if hv.indicator else [])
            for k, piece in enumerate(fields):
                indicator = items[min(k, len(items) - 1)] if items else None
                if indicator:
                    h.indicators[piece] = indicator
                if not hv.sets:
                    h.reads += [n for n in (piece, indicator) if n and n not in h.reads]
        if stmt.kind != "DECLARE CURSOR":
            hosts[stmt.number] = h
    rows = [Row(s.number, s.kind, _expand(s.text, structures, arrays), s.name, s.line) for s in statements]
    return hosts, rows
