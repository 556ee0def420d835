"""The interface model: what a program offers as a tool, and what a cached spec file holds.

A :class:`ProgramSpec` names the program (PROGRAM-ID, tool name, C entry symbol), carries its
description and its USING records; each :class:`Record` holds a tree of :class:`Field` items laid out
byte for byte as GnuCOBOL lays them out. Plain data only: building it is :mod:`.program`'s job. The
classes are :class:`~.frozen.Frozen` value objects (immutable, compared by value; change one with
:func:`~.frozen.replace`), so loading a spec for a tool's first call imports neither ``dataclasses``
nor ``pathlib``.
"""

from __future__ import annotations

from .frozen import Frozen, replace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from decimal import Decimal
    from pathlib import Path

    from .pic import Picture

__all__ = ["Condition", "Field", "ProgramSpec", "Record"]


class Condition(Frozen):
    """An 88-level condition name; each value is (low, high) with high None unless THRU was used."""

    stored = ("name", "key", "values")
    name: str
    key: str
    values: tuple[tuple[Decimal | str, Decimal | str | None], ...]

    def __init__(self, name: str, key: str, values: tuple[tuple[Decimal | str, Decimal | str | None], ...]) -> None:
        self.fill(name, key, values)


class Field(Frozen):
    """One data item (elementary or group) with its exact layout inside its 01 record."""

    stored = (
        "name", "key", "level", "offset", "size", "occurs", "pic", "usage", "children", "picture", "category",
        "sign_leading", "sign_separate", "justified", "blank_when_zero", "synchronized", "occurs_min",
        "depending_on", "counts", "truncated", "native", "redefines", "value", "conditions", "description",
        "location", "any_length", "direction", "reason", "trim", "encoding", "chosen", "alternatives", "optional",
    )  # fmt: skip
    name: str
    key: str | None
    level: int
    offset: int
    size: int
    occurs: int | None  # the maximum with DEPENDING ON
    pic: str | None
    usage: str
    children: tuple[Field, ...]
    picture: Picture | None
    category: str  # group, float, or the PICTURE category
    sign_leading: bool
    sign_separate: bool
    justified: bool
    blank_when_zero: bool
    synchronized: bool
    occurs_min: int | None  # OCCURS min TO max DEPENDING ON counter
    depending_on: str | None  # the counter's name (found by :mod:`.odo`)
    counts: str  # on a counter: the table(s) whose number of items it holds, set from the input
    truncated: bool  # COMP values stay within the PIC digits (cobc's binary-truncate; not COMP-5)
    native: str  # USAGE BINARY-CHAR/SHORT/LONG/DOUBLE [UNSIGNED], INDEX, PIC X COMP-X: a whole integer
    redefines: str | None
    value: Decimal | str | None
    conditions: tuple[Condition, ...]
    description: str
    location: str
    # PIC X ANY LENGTH: the most bytes it takes (0: not ANY LENGTH). Its record is then a 4-byte native
    # length followed by that many bytes (size = 4 + any_length); the program sees only the first length.
    any_length: int
    direction: str  # "in" | "out" | "inout" | "none" (see .direction)
    reason: str  # why it has that direction (elementary items)
    # Set by the overrides file (cobol-mcp.toml), never by the code:
    trim: bool | None  # PIC X output: trailing spaces cut (True), kept (False), or the codec's rule (None)
    encoding: str  # "hex" | "base64": the item's bytes, not text, in that encoding
    chosen: bool | None  # REDEFINES: the view shown (True) or not (False); None: the first definition
    alternatives: tuple[Field, ...]  # view = "all": the other REDEFINES definitions, shown beside it
    # Set by the direction analysis: an in/out item the program never reads before it is surely set, so an
    # argument it may do without (not required; it then starts as its VALUE or spaces/zeros):
    optional: bool

    def __init__(
        self,
        name: str,
        key: str | None,
        level: int,
        offset: int,
        size: int,
        occurs: int | None,
        pic: str | None,
        usage: str,
        children: tuple[Field, ...] = (),
        picture: Picture | None = None,
        category: str = "group",
        sign_leading: bool = False,
        sign_separate: bool = False,
        justified: bool = False,
        blank_when_zero: bool = False,
        synchronized: bool = False,
        occurs_min: int | None = None,
        depending_on: str | None = None,
        counts: str = "",
        truncated: bool = True,
        native: str = "",
        redefines: str | None = None,
        value: Decimal | str | None = None,
        conditions: tuple[Condition, ...] = (),
        description: str = "",
        location: str = "",
        any_length: int = 0,
        direction: str = "inout",
        reason: str = "",
        trim: bool | None = None,
        encoding: str = "",
        chosen: bool | None = None,
        alternatives: tuple[Field, ...] = (),
        optional: bool = False,
    ) -> None:
        self.fill(
            name, key, level, offset, size, occurs, pic, usage, children, picture, category, sign_leading,
            sign_separate, justified, blank_when_zero, synchronized, occurs_min, depending_on, counts, truncated,
            native, redefines, value, conditions, description, location, any_length, direction, reason, trim,
            encoding, chosen, alternatives, optional,
        )  # fmt: skip

    @property
    def is_group(self) -> bool:
        return self.usage == "group"

    @property
    def exposed(self) -> bool:
        """Whether the item appears in JSON: named, not an address (USAGE POINTER: binary zeros in, never
        returned), and not an alternative view of other bytes."""
        if self.key is None or self.usage == "pointer":
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


class Record(Frozen):
    stored = ("name", "key", "direction", "field", "size", "by_value")
    name: str
    key: str
    direction: str  # "in" | "out" | "inout" | "none": what its items are, together
    field: Field
    size: int
    by_value: bool  # USING BY VALUE: an argument only, passed as a C int (see .program)

    def __init__(self, name: str, key: str, direction: str, field: Field, size: int, by_value: bool = False) -> None:
        self.fill(name, key, direction, field, size, by_value)

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
    same = len(kids) == len(f.children) and all(k is c for k, c in zip(kids, f.children, strict=True))
    return f if same else replace(f, children=kids)  # (a child pruned inside is a change too)


class ProgramSpec(Frozen):
    # source and copybooks are kept as text, and are Paths only when asked for (pathlib is not loaded
    # for a call)
    stored = (
        "program_id", "tool_name", "entry_symbol", "description", "records", "source_format", "source_name",
        "copybook_names", "dialect", "call_params",
    )  # fmt: skip
    init_names = (
        "program_id", "tool_name", "entry_symbol", "description", "records", "source_format", "source",
        "copybooks", "dialect", "call_params",
    )  # fmt: skip
    program_id: str
    tool_name: str
    entry_symbol: str
    description: str
    records: tuple[Record, ...]
    source_format: str
    source_name: str  # the source file (see .source)
    copybook_names: tuple[str, ...]  # its copybooks (see .copybooks)
    dialect: str  # cobc -std=NAME the layout follows and the module is built with
    # How many parameters a caller must say it passes (0: as many as records). An ENTRY whose items come
    # after the program's own in its parameter list needs more: GnuCOBOL 3.1.2 sets every parameter past
    # the caller's count to NULL, counting in the program's combined list, whatever the entry takes.
    call_params: int

    def __init__(
        self,
        program_id: str,
        tool_name: str,
        entry_symbol: str,
        description: str,
        records: tuple[Record, ...],
        source_format: str,
        source: Path | str,
        copybooks: tuple[Path | str, ...],
        dialect: str = "default",
        call_params: int = 0,
    ) -> None:
        self.fill(
            program_id, tool_name, entry_symbol, description, records, source_format, str(source),
            tuple(map(str, copybooks)), dialect, call_params,
        )  # fmt: skip

    @property
    def source(self) -> Path:
        from pathlib import Path

        return Path(self.source_name)

    @property
    def copybooks(self) -> tuple[Path, ...]:
        from pathlib import Path

        return tuple(map(Path, self.copybook_names))
