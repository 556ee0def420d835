"""OCCURS ... DEPENDING ON: finding each table's counter among a program's USING records.

A counter may be in the table's own record or in another USING record (looked for there first, then in
the records in USING order). It must be a whole-number elementary item outside any table; the table must
not be inside another table and must end its record (what cobc requires without complex-OCCURS
options). A qualified counter (``DEPENDING ON X IN Y``) is the X inside the group Y. A counter whose
table is an input is marked (:attr:`~.model.Field.counts`): the codec sets it from the number of items
given.
"""

from __future__ import annotations

from .. import LinkageError
from .frozen import replace
from .model import Field, Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = ["counter_name", "counter_of", "resolve_counters", "tables"]


def _walk(f: Field, in_table: bool = False) -> Iterator[tuple[Field, bool]]:
    yield f, in_table
    inside = in_table or bool(f.occurs and f.level not in (1, 77))
    for c in f.children:
        yield from _walk(c, inside)


def tables(f: Field) -> Iterator[Field]:
    """The DEPENDING ON tables under ``f``."""
    return (t for t, _ in _walk(f) if t.depending_on)


def counter_name(depending_on: str) -> str:
    """The counter's own name in a DEPENDING ON phrase as written (``X`` of ``X IN Y``)."""
    return depending_on.split()[0].upper() if depending_on.strip() else ""


def _named(f: Field, names: list[str]) -> Iterator[tuple[Field, bool]]:
    """The items called ``names[0]`` whose groups above hold each qualifier ``names[1:]`` (``X IN Y OF
    Z``: Y inside Z), each with whether it is inside a table."""
    for g, in_table, path in _paths(f, (), False):
        if g.name.upper() == names[0] and _within(path, names[1:]):
            yield g, in_table


def _paths(f: Field, above: tuple[str, ...], in_table: bool) -> Iterator[tuple[Field, bool, tuple[str, ...]]]:
    yield f, in_table, above
    inside = in_table or bool(f.occurs and f.level not in (1, 77))
    for c in f.children:
        yield from _paths(c, (*above, f.name.upper()), inside)


def _within(path: tuple[str, ...], qualifiers: list[str]) -> bool:
    """Whether the groups ``path`` (outermost first) hold each qualifier, innermost first."""
    k = len(path)
    for q in qualifiers:
        while k and path[k - 1] != q:
            k -= 1
        if not k:
            return False
        k -= 1
    return True


def counter_of(records: tuple[Record, ...], index: int, name: str) -> tuple[int, Field] | None:
    """(record index, item) of the counter ``name`` (``X``, or qualified ``X IN Y``) as seen from record
    ``index``."""
    names = [w for w in name.upper().split() if w not in ("OF", "IN")]
    if not names:
        return None
    order = [index, *(i for i in range(len(records)) if i != index)]
    for i in order:
        for f, in_table in _named(records[i].field, names):
            if f.redefines is None and not in_table:
                return i, f
    return None


def resolve_counters(records: tuple[Record, ...]) -> tuple[Record, ...]:
    """Check every DEPENDING ON table and mark the counters of input tables; LinkageError says what is wrong."""
    marks: dict[tuple[int, int], tuple[Field, list[str]]] = {}
    for index, record in enumerate(records):
        for table, in_table in _walk(record.field):
            if not table.depending_on:
                continue
            where = f"{table.location}: {table.name} OCCURS DEPENDING ON {table.depending_on}"
            if in_table:
                raise LinkageError(f"{where}: a variable table inside another table is not supported")
            if table.offset + table.size * (table.occurs or 1) != record.size:
                raise LinkageError(f"{where}: items after a variable table are not supported")
            found = counter_of(records, index, table.depending_on)
            if found is None:
                raise LinkageError(f"{where}: the counter is not an item of a USING record, so a call "
                                   "cannot set it")  # fmt: skip
            at, counter = found
            if counter.is_group or counter.category != "numeric" or counter.scale != 0:
                raise LinkageError(f"{where}: the counter must be a whole-number elementary item")
            if any(counter is t for t, _ in _walk(table)):
                raise LinkageError(f"{where}: the counter cannot be inside its own table")
            if record.direction != "out":
                marks.setdefault((at, id(counter)), (counter, []))[1].append(table.name)
    if not marks:
        return records
    out = list(records)
    for (at, _), (counter, names) in marks.items():
        field = _mark(out[at].field, counter, ", ".join(names))
        out[at] = replace(out[at], field=field)
    return tuple(out)


def _mark(f: Field, counter: Field, names: str) -> Field:
    if f is counter:
        return replace(f, counts=names)
    if not f.children:
        return f
    return replace(f, children=tuple(_mark(c, counter, names) for c in f.children))
