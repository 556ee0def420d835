"""Per-item encoders of a codec plan: closures ``encode(buffer, value, path, delta)`` that store a JSON
value in a record buffer (see :mod:`.plan`).

Each handles its item's usual case itself: a Decimal or int that fits the PIC, a Latin-1 string that
fits, a known condition name. Anything else goes to :func:`~.codec.encode_scalar` (or the type checks of
:mod:`.codec`), which raises the exact error, or returns the bytes of the odd valid value left to it
(such as a zero written with an exponent beyond +-80).
"""

from __future__ import annotations

import sys
from decimal import Decimal

from .. import is_plain_decimal, plain_parts
from ..linkage.frozen import replace
from ..linkage.model import Field
from ..linkage.pic import native_range
from . import items
from .items import (
    FieldError,
    check_keys,
    decode_bytes,
    encode_scalar,
    has_default,
    json_type,
    pic_text,
    show_values,
    single_values,
    user_number,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["MISSING", "encoder", "item_bytes", "item_encoder"]

MISSING = object()
_NEGATIVE_PUNCH = str.maketrans("0123456789", "pqrstuvwxy")  # GnuCOBOL's ASCII overpunch of a negative digit


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
        return _bytes_encoder(f)
    if f.any_length:
        from .anylen import any_length_encoder  # loaded with the first ANY LENGTH item only

        return any_length_encoder(f)
    if f.is_group:
        return _group_encoder(f, path)
    if f.conditions:
        return _condition_encoder(f)
    if f.native:
        return _native_encoder(f)
    if f.category == "numeric":
        return _number_encoder(f)
    if f.category == "float":
        return _float_encoder(f)
    return _text_encoder(f)


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
    that stands for exactly one value (:func:`~.items.single_values`) stored as that value."""
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


def _number_encoder(f: Field) -> Any:
    assert f.picture is not None
    fit = _fitter(f.picture.scale, f.picture.nines, f.picture.signed)
    pack = _packer(f)
    if f.usage == "display" and not f.sign_separate and 0 <= f.picture.scale <= f.picture.nines == f.size:
        return _display_number_encoder(f, _general_number_encoder(f, fit, pack))
    return _general_number_encoder(f, fit, pack)


def _display_number_encoder(f: Field, general: Any) -> Any:
    """DISPLAY digits without P positions or a separate sign: the usual values through
    :func:`_display_number_bytes`, anything else through `general`."""
    offset, size = f.offset, f.size
    data_of = _display_number_bytes(f)

    def encode(buf: bytearray, value: Any, path: str, delta: int) -> None:
        data = data_of(value)
        if data is None:
            general(buf, value, path, delta)
        else:
            buf[offset + delta : offset + delta + size] = data

    return encode


def _display_number_bytes(f: Field) -> Any:
    """The usual case of a DISPLAY number done in one pass: plain decimal text or an int within the PIC
    is written digit for digit (None for any other value: the general path judges it)."""
    assert f.picture is not None
    size, signed, leading = f.size, f.signed, f.sign_leading
    scale = f.picture.scale
    whole_digits = size - scale
    limit = 10**whole_digits
    pads = tuple("0" * k for k in range(scale + 1))
    zero, zeros = items.pack(f, 0), b"0" * size

    def data_of(value: Any) -> bytes | None:
        kind = type(value)
        text: str
        if kind is str:
            text = value
        elif kind is int and -limit < value < limit:
            text = str(value)
        else:
            return None
        parts = plain_parts(text)
        if parts is None:
            return None
        negative, whole, fraction = parts
        if len(whole) > whole_digits or len(fraction) > scale:
            return None
        data = (whole.zfill(whole_digits) + fraction + pads[scale - len(fraction)]).encode("ascii")
        if data == zeros:
            return zero  # also for -0; spaces under BLANK WHEN ZERO
        if negative:
            if not signed:
                return None
            at = 0 if leading else size - 1
            data = data[:at] + bytes((data[at] + 0x40,)) + data[at + 1 :]  # GnuCOBOL's ASCII overpunch
        return data

    return data_of


def _general_number_encoder(f: Field, fit: Any, pack: Any) -> Any:
    offset, size = f.offset, f.size

    def encode(buf: bytearray, value: Any, path: str, delta: int) -> None:
        kind = type(value)
        if kind is int or (kind is Decimal and value.is_finite()) or (kind is str and is_plain_decimal(value)):
            number = value  # fit() reads plain decimal text as written
        else:
            number = user_number(value, path, f)
        stored = fit(number)
        start = offset + delta
        if stored is None:
            typed = number if type(number) is Decimal else Decimal(number)
            buf[start : start + size] = encode_scalar(f, typed, path, shown=value)
        else:
            buf[start : start + size] = pack(*stored)

    return encode


def _native_encoder(f: Field) -> Any:
    """BINARY-CHAR/SHORT/LONG/DOUBLE, INDEX and PIC X COMP-X: any int of the integer's range."""
    assert f.picture is not None
    low, high = (int(v) for v in native_range(f.picture, f.size))
    offset, size, signed = f.offset, f.size, f.signed
    order = sys.byteorder if f.usage == "comp-5" else "big"  # PIC X COMP-X is big-endian

    def encode(buf: bytearray, value: Any, path: str, delta: int) -> None:
        start = offset + delta
        if type(value) is int and low <= value <= high:
            buf[start : start + size] = value.to_bytes(size, order, signed=signed)
        else:
            buf[start : start + size] = encode_scalar(f, user_number(value, path, f), path, shown=value)

    return encode


def _fitter(scale: int, nines: int, signed: bool) -> Any:
    """Closure turning a finite Decimal, an int or plain decimal text into (negative, stored digits without
    leading zeros, "" for zero), or None when it does not fit the PIC (or has an exponent too large to
    write out, which the general path of codec deals with). Text only, so no rounding context is
    involved whatever the digits."""
    pads = tuple("0" * k for k in range(max(scale, 0) + 1))

    def fit(number: Decimal | int | str) -> tuple[bool, str] | None:
        text = number if type(number) is str else str(number)
        if "E" in text:
            if not isinstance(number, Decimal) or not -80 < number.adjusted() < 80:  # text and ints have no E
                return None
            text = format(number, "f")
        negative = text[0] == "-"
        if negative:
            text = text[1:]
        whole, _, fraction = text.partition(".")
        short = scale - len(fraction)
        if short >= 0:  # no more decimal places than the PIC has: pad with zeros
            digits = (whole + fraction).lstrip("0")
            if not digits:
                return False, ""
            if len(digits) + short > nines:
                return None
            digits += pads[short]
        else:  # extra decimal places (or P positions) must be zeros
            digits = whole + fraction
            cut = max(len(whole) + scale, 0)
            if digits[cut:].strip("0"):
                return None
            digits = digits[:cut].lstrip("0")
            if len(digits) > nines:
                return None
            if not digits:
                return False, ""
        if negative and not signed:
            return None
        return negative, digits

    return fit


def _packer(f: Field) -> Any:
    """Closure turning (negative, digits) from a fitter into the item's bytes (what items.pack does)."""
    zero = items.pack(f, 0)
    size, signed = f.size, f.signed
    if f.usage in ("binary", "comp-5"):
        order = "big" if f.usage == "binary" else sys.byteorder

        def pack(negative: bool, digits: str) -> bytes:
            if not digits:
                return zero
            return (-int(digits) if negative else int(digits)).to_bytes(size, order, signed=signed)

        return pack
    if f.usage == "comp-6":

        def pack_unsigned(negative: bool, digits: str) -> bytes:
            return bytes.fromhex(digits.zfill(size * 2)) if digits else zero

        return pack_unsigned
    if f.usage == "comp-3":
        width = size * 2 - 1
        positive = "c" if signed else "f"

        def pack_packed(negative: bool, digits: str) -> bytes:
            if not digits:
                return zero
            return bytes.fromhex(digits.zfill(width) + ("d" if negative else positive))

        return pack_packed
    width = size - f.sign_separate
    separate, leading = f.sign_separate, f.sign_leading

    def pack_display(negative: bool, digits: str) -> bytes:
        if not digits:
            return zero
        text = digits.zfill(width)
        if separate:
            sign = "-" if negative else "+"
            text = sign + text if leading else text + sign
        elif negative and leading:
            text = text[0].translate(_NEGATIVE_PUNCH) + text[1:]
        elif negative:
            text = text[:-1] + text[-1].translate(_NEGATIVE_PUNCH)
        return text.encode("ascii")

    return pack_display


def _float_encoder(f: Field) -> Any:
    offset, size = f.offset, f.size

    def encode(buf: bytearray, value: Any, path: str, delta: int) -> None:
        start = offset + delta
        buf[start : start + size] = encode_scalar(f, user_number(value, path, f), path, shown=value)

    return encode


def _text_encoder(f: Field) -> Any:
    offset, size, pic = f.offset, f.size, f.pic
    data_of = _text_bytes(f) if f.category != "alphabetic" else None  # letters and spaces: encode_scalar checks

    def encode(buf: bytearray, value: Any, path: str, delta: int) -> None:
        start = offset + delta
        data = data_of(value) if data_of is not None else None
        if data is not None:
            buf[start : start + size] = data
            return
        if not isinstance(value, str):
            raise FieldError(path, f'"{path}" must be a string ({pic_text(f)}), not {json_type(value)}', pic)
        buf[start : start + size] = encode_scalar(f, value, path, shown=value)

    return encode


def _text_bytes(f: Field) -> Any:
    """Text that fits as Latin-1, padded with spaces (on the left when JUSTIFIED or numeric-edited);
    None for any other value."""
    size = f.size
    right = f.justified or f.category == "numeric-edited"

    def data_of(value: Any) -> bytes | None:
        if type(value) is not str:
            return None
        try:
            data = value.encode("latin-1")
        except UnicodeEncodeError:
            return None
        if len(data) > size:
            return None
        return data.rjust(size) if right else data.ljust(size)

    return data_of


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
            return _display_number_bytes(f)
        return None
    if f.category in ("float", "alphabetic"):
        return None
    return _text_bytes(f)


def _bytes_encoder(f: Field) -> Any:
    """``bytes = "hex" | "base64"`` (cobol-mcp.toml): the item's exact bytes, written in that encoding."""
    offset, size = f.offset, f.size

    def encode(buf: bytearray, value: Any, path: str, delta: int) -> None:
        start = offset + delta
        buf[start : start + size] = decode_bytes(f, value, path)

    return encode


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
