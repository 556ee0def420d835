"""OCCURS ... DEPENDING ON in the codec: the state one encode or decode call shares with its tables.

On input a table takes between its minimum and maximum number of items, and the number given is stored
in the table's counter (wherever that is among the records) once every argument is in place; a counter
the caller gives as well must agree. On output a table is cut to its counter's value, read from the
records the program handed back; a counter outside the table's bounds is not trusted: the table is
reported as null with a note. The state lives in a context variable, so concurrent calls never mix.
"""

from __future__ import annotations

from contextvars import ContextVar
from decimal import Decimal

from ..linkage.model import Field, ProgramSpec
from ..linkage.odo import counter_of, tables
from .errors import FieldError
from .items import decode_scalar, encode_scalar

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "STATE",
    "CallState",
    "Counters",
    "counter_value",
    "find_counters",
    "note_count",
    "note_given",
    "set_counters",
]

Counters = dict[int, tuple[int, Field]]  # id(table) -> (record index, counter item)


class CallState:
    __slots__ = ("counters", "buffers", "counts", "given")

    def __init__(self, counters: Counters, buffers: list[Any] | None = None) -> None:
        self.counters = counters
        self.buffers: list[Any] = buffers if buffers is not None else []  # decoding: the records handed back
        self.counts: dict[int, tuple[int, str]] = {}  # id(counter) -> (items, table path)
        self.given: dict[int, tuple[Any, str]] = {}  # id(counter) -> (value, path)


STATE: ContextVar[CallState | None] = ContextVar("cobol_mcp_odo_state", default=None)


def find_counters(spec: ProgramSpec) -> Counters:
    out: Counters = {}
    for index, record in enumerate(spec.records):
        for table in tables(record.field):
            found = counter_of(spec.records, index, table.depending_on or "")
            if found is not None:
                out[id(table)] = found
    return out


def note_count(table: Field, n: int, path: str) -> None:
    """Remember that ``table`` was given ``n`` items (its counter is set by :func:`set_counters`)."""
    state = STATE.get()
    if state is None or id(table) not in state.counters:
        return
    counter = state.counters[id(table)][1]
    seen = state.counts.get(id(counter))
    if seen is not None and seen[0] != n:
        raise FieldError(path, f'"{path}" has {n} items but "{seen[1]}" has {seen[0]}, and both are counted '
                               f"by {counter.name}")  # fmt: skip
    state.counts[id(counter)] = (n, path)


def note_given(counter: Field, value: Any, path: str) -> None:
    state = STATE.get()
    if state is not None:
        state.given[id(counter)] = (value, path)


def set_counters(state: CallState, buffers: list[bytes]) -> None:
    """Store each input table's number of items in its counter (checking a counter given as well)."""
    done: set[int] = set()
    for at, counter in state.counters.values():
        if id(counter) in done or id(counter) not in state.counts:
            continue
        done.add(id(counter))
        n, table_path = state.counts[id(counter)]
        given = state.given.get(id(counter))
        if given is not None:
            value, path = given
            try:
                same = not isinstance(value, bool) and Decimal(str(value)) == n
            except ArithmeticError:
                same = False
            if not same:
                raise FieldError(path, f'"{path}" must be {n}, the number of items in "{table_path}" '
                                       "(or be left out: it is set from that)")  # fmt: skip
        buf = bytearray(buffers[at])
        buf[counter.offset : counter.offset + counter.size] = encode_scalar(counter, Decimal(n), table_path)
        buffers[at] = bytes(buf)


def counter_value(table: Field, notes: list[str] | None, path: str | None) -> int | None:
    """The number of items of ``table`` in the records handed back, or None (noted) when not trusted."""
    state = STATE.get()
    if state is None or id(table) not in state.counters:
        return table.occurs
    at, counter = state.counters[id(table)]
    raw = bytes(state.buffers[at][counter.offset : counter.offset + counter.size])
    value, why = decode_scalar(counter, raw)
    low, high = table.occurs_min or 0, table.occurs or 0
    if value is not None and low <= value <= high:
        return int(value)
    if notes is not None:
        held = why or f"holds {value}"
        notes.append(f"{path}: counter {counter.name} {held}, outside OCCURS {low} TO {high}; "
                     "the table is reported as null")  # fmt: skip
    return None
