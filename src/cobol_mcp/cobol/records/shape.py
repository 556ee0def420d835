"""The shape of records as JSON: which records and properties make up a program's arguments and its
result, which of them may be left out, and which level-88 names an argument may be given as.

Shared by the compiled plans (:mod:`.plan`, :mod:`.encoders`), :mod:`.codec` and :mod:`.schema`.
"""

from __future__ import annotations

from decimal import Decimal

from ..linkage.model import Condition, Field, ProgramSpec, Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = [
    "flat",
    "has_default",
    "input_records",
    "output_records",
    "properties",
    "show_values",
    "single_values",
]


def input_records(spec: ProgramSpec) -> tuple[Record, ...]:
    return tuple(r for r in spec.records if r.direction != "out")


def output_records(spec: ProgramSpec) -> tuple[Record, ...]:
    return tuple(r for r in spec.records if r.direction != "in")


def properties(record: Record) -> dict[str, Field]:
    """The JSON properties a record contributes when flattened."""
    if not record.field.is_group:
        return {record.key: record.field}
    return {c.key: c for c in record.field.children if c.exposed and c.key}


def flat(records: Iterable[Record]) -> bool:
    """Whether these records' properties can share one object (no name is used twice)."""
    seen: set[str] = set()
    for record in records:
        for key in properties(record):
            if key in seen:
                return False
            seen.add(key)
    return True


def has_default(f: Field, covered: bool = False) -> bool:
    """Whether an absent property can be filled in: the item, or everything in it, has a VALUE or is an
    argument the program may do without (``optional``: never read before it is surely set)."""
    if f.depending_on:
        return False  # the number of items is what the caller says
    if covered or f.value is not None or f.counts or f.optional:  # a counter is set from its table
        return True
    return f.is_group and all(has_default(c) for c in f.children if c.exposed)


def show_values(cond: Condition) -> list[str]:
    """A level-88 condition's values as COBOL writes them: 1 thru 3, 'F'."""

    def one(v: Decimal | str | None) -> str:
        return str(v) if isinstance(v, Decimal) else repr(v)

    return [one(low) if high is None else f"{one(low)} thru {one(high)}" for low, high in cond.values]


def single_values(f: Field) -> dict[str, Decimal | str]:
    """The level-88 condition names of ``f`` that each stand for exactly one value of the item's own
    kind (no THRU, no list), with that value: the names an argument may be given as, a convenience
    beside the value itself."""
    text = f.category not in ("numeric", "float")
    return {
        cond.key: cond.values[0][0]
        for cond in f.conditions
        if len(cond.values) == 1 and cond.values[0][1] is None and isinstance(cond.values[0][0], str) == text
    }
