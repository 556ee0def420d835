"""The interface model: what a program offers as a tool, and what a cached spec unpickles into.

A :class:`ProgramSpec` names the program (PROGRAM-ID, tool name, C entry symbol), carries its
description and its USING records; each :class:`Record` holds a tree of :class:`Field` items laid out
byte for byte as GnuCOBOL lays them out. Plain data only: building it is :mod:`.program`'s job.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Decimal
from pathlib import Path

from .pic import Picture

__all__ = ["Condition", "Field", "ProgramSpec", "Record"]


@dataclass(frozen=True)
class Condition:
    """An 88-level condition name; each value is (low, high) with high None unless THRU was used."""

    name: str
    key: str
    values: tuple[tuple[Decimal | str, Decimal | str | None], ...]


@dataclass(frozen=True)
class Field:
    """One data item (elementary or group) with its exact layout inside its 01 record."""

    name: str
    key: str | None
    level: int
    offset: int
    size: int
    occurs: int | None  # the maximum with DEPENDING ON
    pic: str | None
    usage: str
    children: tuple[Field, ...] = ()
    picture: Picture | None = None
    category: str = "group"  # group, float, or the PICTURE category
    sign_leading: bool = False
    sign_separate: bool = False
    justified: bool = False
    blank_when_zero: bool = False
    synchronized: bool = False
    occurs_min: int | None = None  # OCCURS min TO max DEPENDING ON counter
    depending_on: str | None = None  # the counter's name (found by :mod:`.odo`)
    counts: str = ""  # on a counter: the table(s) whose number of items it holds, set from the input
    truncated: bool = True  # COMP values stay within the PIC digits (cobc's binary-truncate; not COMP-5)
    native: str = ""  # USAGE BINARY-CHAR/SHORT/LONG/DOUBLE [UNSIGNED], INDEX, PIC X COMP-X: a whole integer
    redefines: str | None = None
    value: Decimal | str | None = None
    conditions: tuple[Condition, ...] = ()
    description: str = ""
    location: str = ""
    # PIC X ANY LENGTH: the most bytes it takes (0: not ANY LENGTH). Its record is then a 4-byte native
    # length followed by that many bytes (size = 4 + any_length); the program sees only the first length.
    any_length: int = 0
    direction: str = "inout"  # "in" | "out" | "inout" | "none" (see .direction)
    reason: str = ""  # why it has that direction (elementary items)
    # Set by the overrides file (cobol-mcp.toml), never by the code:
    trim: bool | None = None  # PIC X output: trailing spaces cut (True), kept (False), or the codec's rule (None)
    encoding: str = ""  # "hex" | "base64": the item's bytes, not text, in that encoding
    chosen: bool | None = None  # REDEFINES: the view shown (True) or not (False); None: the first definition
    alternatives: tuple[Field, ...] = ()  # view = "all": the other REDEFINES definitions, shown beside it

    @property
    def is_group(self) -> bool:
        return self.usage == "group"

    @property
    def exposed(self) -> bool:
        """Whether the item appears in JSON: named, and not an alternative view of other bytes."""
        if self.key is None:
            return False
        return self.redefines is None if self.chosen is None else self.chosen

    @property
    def digits(self) -> int:
        return self.picture.digits if self.picture else 0

    @property
    def scale(self) -> int:
        return self.picture.scale if self.picture else 0

    @property
    def signed(self) -> bool:
        return bool(self.picture and self.picture.signed)


@dataclass(frozen=True)
class Record:
    name: str
    key: str
    direction: str  # "in" | "out" | "inout" | "none": what its items are, together
    field: Field
    size: int
    by_value: bool = False  # USING BY VALUE: an argument only, passed as a C int (see .program)

    def view(self, mode: str) -> Record | None:
        """The record with only the items that are arguments (mode "in") or results ("out"), or None."""
        wanted = ("in", "inout") if mode == "in" else ("out", "inout")
        if self.direction not in wanted:
            return None
        f = _prune(self.field, wanted)
        if f is None:
            return None
        return self if f is self.field else replace(self, field=f, direction=mode)


def _prune(f: Field, wanted: tuple[str, ...]) -> Field | None:
    if f.direction not in wanted and not (f.children and f.direction == "inout"):
        return None
    if not f.children:
        return f
    kids = tuple(k for k in (c if not c.exposed else _prune(c, wanted) for c in f.children) if k is not None)
    if not any(k.exposed for k in kids):
        return None
    return f if len(kids) == len(f.children) else replace(f, children=kids)


@dataclass(frozen=True)
class ProgramSpec:
    program_id: str
    tool_name: str
    entry_symbol: str
    description: str
    records: tuple[Record, ...]
    source_format: str
    source: Path
    copybooks: tuple[Path, ...]
    dialect: str = "default"  # cobc -std=NAME the layout follows and the module is built with
    # How many parameters a caller must say it passes (0: as many as records). An ENTRY whose items come
    # after the program's own in its parameter list needs more: GnuCOBOL 3.1.2 sets every parameter past
    # the caller's count to NULL, counting in the program's combined list, whatever the entry takes.
    call_params: int = 0
