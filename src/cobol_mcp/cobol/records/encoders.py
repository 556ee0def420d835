"""Per-item encoders of a codec plan: closures ``encode(buffer, value, path, delta)`` that store a JSON
value in a record buffer (see :mod:`.plan`).

This module chooses the encoder of an item (:func:`encoder`, :func:`item_encoder`) and holds those of
the items that contain others or stand for them: arrays (OCCURS), tables with DEPENDING ON and their
counters, groups, level-88 names, REDEFINES views. The elementary items' own encoders are by what
they hold: numbers of every USAGE in :mod:`.number_encoders`, text and hex/base64 bytes in
:mod:`.text_encoders`.

Each handles its item's usual case itself: a Decimal or int that fits the PIC, a Latin-1 string that
fits, a known condition name. Anything else goes to :func:`~.codec.encode_scalar` (or the type checks of
:mod:`.codec`), which raises the exact error, or returns the bytes of the odd valid value left to it
(such as a zero written with an exponent beyond +-80).
"""

from __future__ import annotations

from ..linkage.frozen import replace
from ..linkage.model import Field
from .errors import FieldError, check_keys, json_type
from .items import encode_scalar
from .number_encoders import display_number_bytes, float_encoder, native_encoder, number_encoder
from .shape import has_default, show_values, single_values
from .text_encoders import bytes_encoder, text_bytes, text_encoder

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["MISSING", "encoder", "item_bytes", "item_encoder"]

MISSING = object()


def encoder(f: Field, path: str | None) -> Any:
    """Closure storing a JSON value in ``f`` (an array when it OCCURS); ``path`` is its JSON path when
    that is the same on every call, None inside an array element."""
    if f.depending_on:
        return _table_encoder(f)
    if f.occurs and f.level not in (1, 77):
        return _array_encoder(f, path)
    if f.counts:
        return _counter_encoder(f, item_encoder(f, path))
    return item_encoder(f, path)


def item_encoder(f: Field, path: str | None = None) -> Any:
    """Closure storing one occurrence of ``f``."""
    if f.alternatives:
        return _views_encoder(f, path)
    if f.encoding:
        return bytes_encoder(f)
    if f.any_length:
        from .anylen import any_length_encoder  # loaded with the first ANY LENGTH item only

        return any_length_encoder(f)
    if f.is_group:
        return _group_encoder(f, path)
    if f.conditions:
        return _condition_encoder(f)
    if f.native:
        return native_encoder(f)
    if f.category == "numeric":
        return number_encoder(f)
    if f.category == "float":
        return float_encoder(f)
    return text_encoder(f)


def _array_encoder(f: Field, path: str | None) -> Any:
    item = item_encoder(f, None)
    occurs, pic = f.occurs or 1, f.pic
    offsets = tuple(range(0, occurs * f.size, f.size))
    paths = tuple(f"{path}[{i}]" for i in range(occurs)) if path is not None else None

    def encode(buf: bytearray, value: Any, path: str, delta: int) -> None:
        if not isinstance(value, list) or len(value) != occurs:
            got = f"{len(value)} items" if isinstance(value, list) else json_type(value)
            raise FieldError(path, f'"{path}" must be an array of exactly {occurs} items (OCCURS {occurs}), '
                                   f"got {got}", pic)  # fmt: skip
        if paths is not None:
            for element, where, offset in zip(value, paths, offsets, strict=False):  # lengths checked above
                item(buf, element, where, delta + offset)
        else:
            for i, (element, offset) in enumerate(zip(value, offsets, strict=False)):
                item(buf, element, f"{path}[{i}]", delta + offset)

    return encode


def _table_encoder(f: Field) -> Any:
    """OCCURS min TO max DEPENDING ON: between min and max items; the count goes to the counter."""
    from . import odo  # loaded with the first ODO table only

    item = item_encoder(f, None)
    low, high, pic, size = f.occurs_min or 0, f.occurs or 0, f.pic, f.size

    def encode(buf: bytearray, value: Any, path: str, delta: int) -> None:
        if not isinstance(value, list) or not low <= len(value) <= high:
            got = f"{len(value)} items" if isinstance(value, list) else json_type(value)
            bounds = f"OCCURS {low} TO {high} DEPENDING ON {f.depending_on}"
            raise FieldError(path, f'"{path}" must be an array of {low} to {high} items ({bounds}), got {got}', pic)
        for i, element in enumerate(value):
            item(buf, element, f"{path}[{i}]", delta + i * size)
        odo.note_count(f, len(value), path)

    return encode


def _counter_encoder(f: Field, inner: Any) -> Any:
    """A DEPENDING ON counter: stored as given, then checked against its table's number of items."""
    from . import odo

    def encode(buf: bytearray, value: Any, path: str, delta: int) -> None:
        inner(buf, value, path, delta)
        odo.note_given(f, value, path)

    return encode


def _group_encoder(f: Field, path: str | None) -> Any:
    props = {c.key: c for c in f.children if c.exposed and c.key}
    allowed = frozenset(props)
    covered = f.value is not None
    kids = tuple(
        (key, encoder(c, f"{path}.{key}" if path is not None else None), not has_default(c, covered),
         f"{path}.{key}" if path is not None else None)
        for key, c in props.items()
    )  # fmt: skip

    def encode(buf: bytearray, value: Any, path: str, delta: int) -> None:
        if not isinstance(value, dict):
            raise FieldError(path, f'"{path}" must be an object, not {json_type(value)}')
        if not allowed.issuperset(value):
            check_keys(value, props, path)
        for key, child, required, where in kids:
            item = value.get(key, MISSING)
            if item is not MISSING:
                child(buf, item, where or f"{path}.{key}", delta)
            elif required:
                where = where or f"{path}.{key}"
                raise FieldError(where, f"missing required property '{where}'")

    return encode


def _condition_encoder(f: Field) -> Any:
    """The item's own encoder (its raw values, every one it can hold), and besides it each level-88 name
    that stands for exactly one value (:func:`~.shape.single_values`) stored as that value."""
    plain = item_encoder(replace(f, conditions=()))
    single = single_values(f)
    stored: dict[str, bytes] = {}
    for key, value in single.items():
        try:
            stored[key] = encode_scalar(f, value)
        except FieldError:  # a VALUE the PIC cannot hold: the name is not offered
            continue
    several = {c.key: c for c in f.conditions if c.key not in single}
    offset, size, pic = f.offset, f.size, f.pic

    def encode(buf: bytearray, value: Any, path: str, delta: int) -> None:
        data = stored.get(value) if isinstance(value, str) else None
        if data is None:
            if isinstance(value, str) and value in several:
                values = ", ".join(show_values(several[value]))
                raise FieldError(path, f'"{path}": {value} stands for {values}: send the value itself', pic)
            plain(buf, value, path, delta)
            return
        start = offset + delta
        buf[start : start + size] = data

    return encode


def item_bytes(f: Field) -> Any:
    """For an elementary item its encoder writes without anything around it: a function giving the
    item's bytes for its usual values, or None for any other value (the encoder decides about those).
    None for an item without such a form (groups, arrays, tables and their counters, 88 levels, views,
    byte encodings, ANY LENGTH, native integers, other USAGEs)."""
    if (
        f.children
        or f.occurs
        or f.depending_on
        or f.counts
        or f.conditions
        or f.alternatives
        or f.encoding
        or f.any_length
        or f.native
        or f.is_group
    ):
        return None
    if f.category == "numeric":
        picture = f.picture
        if picture and f.usage == "display" and not f.sign_separate and 0 <= picture.scale <= picture.nines == f.size:
            return display_number_bytes(f)
        return None
    if f.category in ("float", "alphabetic"):
        return None
    return text_bytes(f)


def _views_encoder(f: Field, path: str | None) -> Any:
    """``view = "all"`` (cobol-mcp.toml): an object giving exactly one of the REDEFINES definitions."""
    views = {str(f.key): replace(f, alternatives=()), **{str(a.key): a for a in f.alternatives}}
    coders = {key: item_encoder(v, None if path is None else f"{path}.{key}") for key, v in views.items()}
    names = ", ".join(str(key) for key in coders)

    def encode(buf: bytearray, value: Any, path: str, delta: int) -> None:
        if not isinstance(value, dict):
            raise FieldError(path, f'"{path}" must be an object with one of {names}, not {json_type(value)}')
        if len(value) != 1 or next(iter(value)) not in coders:
            given = ", ".join(value) or "none"
            raise FieldError(path, f'"{path}" takes exactly one of its views ({names}); given: {given}')
        key, item = next(iter(value.items()))
        coders[key](buf, item, f"{path}.{key}", delta)

    return encode
