"""Laying out data entries the way GnuCOBOL 3.1.2 does: offsets, sizes, SYNCHRONIZED alignment, OCCURS
padding, REDEFINES, and the VALUE and level-88 literals converted for each item."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from .. import LinkageError
from .clauses import Entry, Parser
from .frozen import replace
from .model import Condition, Field
from .pic import (
    POINTER_SIZE,
    Picture,
    PictureError,
    comp_x_picture,
    native_picture,
    native_range,
    parse_picture,
    storage_size,
    to_stored,
)

__all__ = ["build_record"]

_ALIGNED = ("binary", "comp-5", "comp-1", "comp-2", "pointer")


def build_record(parser: Parser, entry: Entry) -> Field:
    """The laid-out 01/77 record described by ``entry`` (nested by :func:`~.clauses.nest`)."""
    return _Builder(parser).build(entry, 0, None, None)


def _key(name: str) -> str | None:
    return None if name.upper() == "FILLER" else name.lower().replace("-", "_")


def _value(lit: tuple[str, object], category: str, picture: Picture | None, size: int, where: str) -> Decimal | str:
    """Turn a VALUE literal into the JSON-level value of an item (Decimal for numbers, else str)."""
    kind, raw = lit
    if category in ("numeric", "float"):
        if kind == "fig" and raw == "0":
            return Decimal(0)
        if kind != "num" or not isinstance(raw, Decimal):
            raise LinkageError(f"{where}: a numeric item needs a numeric VALUE, not {raw!r}")
        if picture is not None and not picture.text:  # a native integer: its whole range
            low, high = native_range(picture, size)
            if not (low <= raw <= high and raw == raw.to_integral_value()):
                raise LinkageError(f"{where}: VALUE {raw} is not a whole number from {low} to {high}")
        elif picture is not None:
            try:
                to_stored(raw, picture)
            except PictureError as exc:
                raise LinkageError(f"{where}: VALUE {raw} does not fit PIC {picture.text} ({exc})") from None
        return raw
    if kind == "fig":
        return "" if raw == " " else str(raw) * size
    if kind == "all":
        return (str(raw) * size)[:size] if raw else ""
    text = str(raw)
    if len(text) > size:
        raise LinkageError(f"{where}: VALUE {text!r} is longer than the item ({size} characters)")
    return text


ANY_LENGTH_LIMIT = 256  # the default most bytes of a PIC X ANY LENGTH item (max-length overrides it)


def _any_length(e: Entry, common: dict[str, Any], where: str) -> Field:
    """``01/77 name PIC X ANY LENGTH``: served as a string of up to ANY_LENGTH_LIMIT bytes, held in a
    record of its length (native BINARY-LONG) and its bytes; the caller passes the first length bytes."""
    if e.level not in (1, 77):
        raise LinkageError(f"{where}: {e.name}: ANY LENGTH is only served on an 01/77 item")
    if e.children or e.occurs or e.native or e.usage not in (None, "display") or e.justified or e.values:
        raise LinkageError(f"{where}: {e.name}: only PIC X ANY LENGTH is served (no USAGE, OCCURS, "
                           "JUSTIFIED, VALUE or subordinate items)")  # fmt: skip
    if (e.pic or "").upper() not in ("X", "X(1)"):
        shown = f"PIC {e.pic} " if e.pic else ""
        raise LinkageError(f"{where}: {e.name}: {shown}ANY LENGTH is not served: only PIC X ANY LENGTH is")
    limit = ANY_LENGTH_LIMIT
    return Field(**common, size=4 + limit, pic="X", usage="display", picture=parse_picture("X"),
                 category="alphanumeric", any_length=limit)  # fmt: skip


def _shift_last(f: Field, pad: int) -> Field:
    if not f.children:
        return replace(f, offset=f.offset + pad)
    return replace(f, children=(*f.children[:-1], _shift_last(f.children[-1], pad)))


class _Builder:
    def __init__(self, parser: Parser) -> None:
        self.p = parser
        self.occurs_align = 1

    def build(
        self, e: Entry, offset: int, usage: str | None, sign: tuple[bool, bool] | None, native: str = ""
    ) -> Field:
        where = self.p.where(e.line)
        native = e.native if e.usage else native  # a group's USAGE applies to its items
        usage, sign = e.usage or usage, e.sign or sign
        if usage == "comp-1" and self.p.dialect.binary_comp_1 and not e.children:
            usage, native = "comp-5", "COMP-1"  # binary-comp-1: a signed 2-byte native integer
        common: dict[str, Any] = {
            "name": e.name, "key": _key(e.name), "level": e.level, "offset": offset, "occurs": e.occurs,
            "occurs_min": e.occurs_min, "depending_on": e.depending,
            "redefines": e.redefines, "synchronized": e.sync, "description": e.description, "location": where,
        }  # fmt: skip
        if e.any_length:
            return _any_length(e, common, where)
        if e.children:
            if e.pic or e.justified or e.blank_when_zero:
                raise LinkageError(f"{where}: group item {e.name} cannot have PICTURE/JUSTIFIED/BLANK WHEN ZERO")
            kids: list[Field] = []
            named: dict[str, Field] = {}
            pos = end = 0
            self.occurs_align = 1  # cobc keeps this in one global that every group resets; mirrored here
            for c in e.children:
                if c.redefines:
                    target = named.get(c.redefines.upper())
                    if target is None:
                        raise LinkageError(f"{self.p.where(c.line)}: REDEFINES {c.redefines}: no such item before")
                    f = self.build(c, target.offset, usage, sign, native)
                else:
                    f = self.build(c, offset + pos, usage, sign, native)
                    pos += f.size * (f.occurs or 1)
                    if (
                        c.sync
                        and self.p.dialect.sync
                        and not f.children
                        and f.usage in _ALIGNED
                        and f.size in (2, 4, 8)
                    ):
                        if f.offset % f.size:  # aligned to its size from the start of the 01 record
                            pad = f.size - f.offset % f.size
                            f = replace(f, offset=f.offset + pad)
                            pos += pad
                        self.occurs_align = max(self.occurs_align, f.size)
                end = max(end, pos, f.offset - offset + f.size * (f.occurs or 1))
                if c.name.upper() != "FILLER":
                    named[c.name.upper()] = f
                kids.append(f)
            if (e.occurs or 0) > 1 and end % self.occurs_align:
                # cobc rounds an OCCURS group up to the alignment and moves its last item by the padding
                pad = self.occurs_align - end % self.occurs_align
                end += pad
                kids[-1] = _shift_last(kids[-1], pad)
            keys = [k.key for k in kids if k.exposed]
            dup = next((k for k in keys if keys.count(k) > 1), None)
            if dup:
                raise LinkageError(f"{where}: two items in {e.name} map to the same JSON name {dup!r}")
            value = _value(e.values[0][0], "group", None, end, where) if e.values else None
            conds = self.conditions(e, "group", None, end)
            return Field(**common, size=end, pic=None, usage="group", children=tuple(kids), value=value,
                         conditions=conds)  # fmt: skip
        usage = usage or "display"
        if usage == "pointer":  # an address (VALUE NULL or none): binary zeros, never part of the JSON
            if e.pic:
                raise LinkageError(f"{where}: USAGE POINTER items take no PICTURE")
            return Field(**common, size=POINTER_SIZE, pic=None, usage="pointer", category="pointer")
        picture = None
        if native:
            if e.pic:
                raise LinkageError(f"{where}: USAGE {native} items take no PICTURE")
            kind = "BINARY-SHORT" if native == "COMP-1" else native.split()[0]
            picture, size = native_picture(kind, not native.endswith(" UNSIGNED"))
            category = "numeric"
        elif usage in ("comp-1", "comp-2"):
            if e.pic:
                raise LinkageError(f"{where}: USAGE {usage.upper()} items take no PICTURE")
            category = "float"
        else:
            if not e.pic:
                raise LinkageError(f"{where}: elementary item {e.name} needs a PICTURE clause")
            try:
                picture = parse_picture(e.pic, self.p.decimal_comma)
            except PictureError as exc:
                raise LinkageError(f"{where}: {exc}") from None
            category = picture.category
            if usage == "national" and category != "national":
                raise LinkageError(f"{where}: USAGE NATIONAL needs PIC N, not PIC {e.pic}")
            usage = "display" if usage == "national" else usage
        fixed = bool(native)  # the size comes with the USAGE
        if usage == "comp-x" and picture is not None:
            try:
                picture, size = comp_x_picture(picture)
            except PictureError as exc:
                raise LinkageError(f"{where}: {exc}") from None
            usage, category, fixed = "binary", "numeric", True
            native = "COMP-X" if not picture.text else native  # PIC X(n) COMP-X: the whole n-byte integer
        numeric_display = usage == "display" and category == "numeric"
        if e.sign and not (numeric_display and picture and picture.signed):
            raise LinkageError(f"{where}: SIGN clause needs a signed numeric DISPLAY item (PIC S9...)")
        leading, separate = sign if sign and numeric_display and picture and picture.signed else (False, False)
        if e.justified and category not in ("alphanumeric", "alphabetic", "national"):
            raise LinkageError(f"{where}: JUSTIFIED needs an alphanumeric or alphabetic item")
        if e.blank_when_zero and not (usage == "display" and category in ("numeric", "numeric-edited")):
            raise LinkageError(f"{where}: BLANK WHEN ZERO needs a numeric DISPLAY item")
        try:
            size = size if fixed else storage_size(picture, usage, separate, self.p.dialect.binary_size)
        except PictureError as exc:
            raise LinkageError(f"{where}: {exc}") from None
        if len(e.values) > 1:
            raise LinkageError(f"{where}: only 88-level items can have several VALUEs")
        value = _value(e.values[0][0], category, picture, size, where) if e.values else None
        return Field(
            **common, size=size, pic=e.pic, usage=usage, picture=picture, category=category,
            sign_leading=leading, sign_separate=separate, justified=e.justified,
            blank_when_zero=e.blank_when_zero, value=value, native=native,
            truncated=usage != "binary" or (self.p.dialect.binary_truncate and not fixed),  # COMP-X: never
            conditions=self.conditions(e, category, picture, size),
        )  # fmt: skip

    def conditions(self, e: Entry, category: str, picture: Picture | None, size: int) -> tuple[Condition, ...]:
        out = []
        for c in e.conditions:
            where = self.p.where(c.line)
            if not c.values or c.name.upper() == "FILLER":
                raise LinkageError(f"{where}: level-88 item needs a name and a VALUE")
            values = tuple(
                (_value(lo, category, picture, size, where), _value(hi, category, picture, size, where) if hi else None)
                for lo, hi in c.values
            )
            out.append(Condition(c.name, _key(c.name) or "", values))
        keys = [c.key for c in out]
        if len(set(keys)) != len(keys):
            raise LinkageError(f"{self.p.where(e.line)}: duplicate condition names under {e.name}")
        return tuple(out)
