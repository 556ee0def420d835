"""Per-item decoders of a codec plan: closures ``decode(data, delta, notes, path)`` that return the JSON
value of an item in a record's bytes (see :mod:`.plan`).

Valid data is decoded here; bytes that are not a valid value of the PIC go to
:func:`~.codec.decode_scalar`, which says why, so values and notes are exactly the codec's.
"""

from __future__ import annotations

import sys
from decimal import Decimal

from ..linkage.frozen import replace
from ..linkage.model import Field
from .items import beyond_double, decimal_text, decode_scalar, has_control_byte

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["decoder", "item_decoder"]


def _sign_table() -> tuple[tuple[bool, bytes] | None, ...]:
    """(negative, digit) for each byte that may hold an overpunched sign digit, else None."""
    table: list[tuple[bool, bytes] | None] = [None] * 256
    for d in range(10):
        table[0x30 + d] = (False, b"%d" % d)
        table[0x70 + d] = (True, b"%d" % d)  # GnuCOBOL's negative digits: p..y
    # EBCDIC-style overpunch, as other compilers write it: { A..I positive, } J..R negative
    table[ord("{")], table[ord("}")] = (False, b"0"), (True, b"0")
    for d in range(1, 10):
        table[0x41 + d - 1] = (False, b"%d" % d)
        table[0x4A + d - 1] = (True, b"%d" % d)
    return tuple(table)


_SIGN = _sign_table()


def decoder(f: Field, path: str | None, *, trim: bool | None = None) -> Any:
    """Closure reading ``f`` (a list when it OCCURS); ``path`` is its JSON path when that is the same on
    every call, None inside an array element. ``trim``: trailing spaces of PIC X (see _text_decoder)."""
    if f.depending_on:
        return _table_decoder(f)
    if f.occurs and f.level not in (1, 77):
        return _array_decoder(f, path, trim)
    return item_decoder(f, path, trim=trim)


def item_decoder(f: Field, path: str | None = None, *, trim: bool | None = None) -> Any:
    """Closure reading one occurrence of ``f``; ``trim`` None takes the item's own (``Field.trim``)."""
    if f.alternatives:
        return _views_decoder(f, path)
    if f.encoding:
        return _bytes_decoder(f)
    if f.any_length:
        from .anylen import any_length_decoder  # loaded with the first ANY LENGTH item only

        return any_length_decoder(f, f.trim if trim is None else trim)
    if f.is_group:
        return _group_decoder(f, path)
    if f.category == "numeric" and f.usage == "display":
        read = _display_decoder(f)
    elif f.category == "numeric" and f.usage == "comp-3":
        read = _packed_decoder(f)
    elif f.category == "float" or f.usage == "comp-6":
        read = _float_decoder(f)  # decode_scalar does it all
    elif f.category == "numeric":
        read = _binary_decoder(f)
    else:
        read = _text_decoder(f, f.trim if trim is None else trim)
    if beyond_double(f):
        return _text_of(read)
    return read  # an item with level-88 conditions is reported as its value (the schema names them)


def _text_of(read: Any) -> Any:
    """A number with more digits than a binary double keeps, reported as decimal text (every digit)."""

    def decode(data: bytes, delta: int, notes: list[str] | None, path: str | None) -> Any:
        value = read(data, delta, notes, path)
        return None if value is None else decimal_text(value)

    return decode


def _array_decoder(f: Field, path: str | None, trim: bool | None = None) -> Any:
    item = item_decoder(f, None, trim=trim)
    offsets = tuple(range(0, (f.occurs or 1) * f.size, f.size))
    paths = tuple(f"{path}[{i}]" for i in range(len(offsets))) if path is not None else None

    def decode(data: bytes, delta: int, notes: list[str] | None, path: str | None) -> list[Any]:
        if notes is None:
            return [item(data, delta + offset, None, None) for offset in offsets]
        where = paths or [f"{path}[{i}]" for i in range(len(offsets))]
        return [item(data, delta + offset, notes, at) for offset, at in zip(offsets, where, strict=False)]

    return decode


def _table_decoder(f: Field) -> Any:
    """OCCURS ... DEPENDING ON: as many items as the counter says, or None (noted) if it is out of bounds."""
    from .odo import counter_value  # loaded with the first ODO table only

    item = item_decoder(f, None)
    size = f.size

    def decode(data: bytes, delta: int, notes: list[str] | None, path: str | None) -> list[Any] | None:
        n = counter_value(f, notes, path)
        if n is None:
            return None
        if notes is None:
            return [item(data, delta + i * size, None, None) for i in range(n)]
        return [item(data, delta + i * size, notes, f"{path}[{i}]") for i in range(n)]

    return decode


def _group_decoder(f: Field, path: str | None) -> Any:
    kids = tuple(
        (c.key, decoder(c, None if path is None else f"{path}.{c.key}"), None if path is None else f"{path}.{c.key}")
        for c in f.children
        if c.exposed and c.key is not None  # exposed implies a key; said again for the checker
    )

    def decode(data: bytes, delta: int, notes: list[str] | None, path: str | None) -> dict[str, Any]:
        out = {}
        if notes is None:
            for key, child, _ in kids:
                out[key] = child(data, delta, None, None)
        else:
            for key, child, where in kids:
                out[key] = child(data, delta, notes, where or f"{path}.{key}")
        return out

    return decode


def _invalid(f: Field, raw: bytes, notes: list[str] | None, path: str | None) -> Any:
    """What decode_scalar makes of bytes the fast path did not accept, noted as the codec notes it."""
    value, why = decode_scalar(f, raw)
    if why and notes is not None:
        notes.append(f"{path}: {why}; reported as null")
    return value


def _float_decoder(f: Field) -> Any:
    """COMP-1/COMP-2 (decode_scalar finds the shortest decimal text of the float) and COMP-6."""
    offset, size = f.offset, f.size

    def decode(data: bytes, delta: int, notes: list[str] | None, path: str | None) -> Any:
        start = offset + delta
        return _invalid(f, data[start : start + size], notes, path)

    return decode


def _text_decoder(f: Field, trim: bool | None = None) -> Any:
    """PIC X/A: trailing spaces are trimmed (``trim=None``, the default) unless the item holds a
    control byte, i.e. binary data such as a cipher block, whose every byte is kept; ``trim=True``
    always trims, ``trim=False`` never does (the per-field switch an override can set)."""
    offset, size = f.offset, f.size
    if (f.justified and trim is not False) or f.category.endswith("edited"):

        def decode_trimmed(data: bytes, delta: int, notes: list[str] | None, path: str | None) -> str:
            start = offset + delta
            return data[start : start + size].decode("latin-1").strip(" ")

        return decode_trimmed

    if trim is False:

        def decode_whole(data: bytes, delta: int, notes: list[str] | None, path: str | None) -> str:
            start = offset + delta
            return data[start : start + size].decode("latin-1")

        return decode_whole
    binary = None if trim else has_control_byte

    def decode(data: bytes, delta: int, notes: list[str] | None, path: str | None) -> str:
        start = offset + delta
        raw = data[start : start + size]
        if raw[-1:] != b" " or (binary is not None and binary(raw)):
            return raw.decode("latin-1")  # nothing to trim, or bytes that are not text: all of them
        return raw.decode("latin-1").rstrip(" ")

    return decode


def _views_decoder(f: Field, path: str | None) -> Any:
    """``view = "all"`` (cobol-mcp.toml): every REDEFINES definition of the bytes, by its name."""
    views = {str(f.key): replace(f, alternatives=()), **{str(a.key): a for a in f.alternatives}}
    kids = tuple(
        (key, item_decoder(v, None if path is None else f"{path}.{key}"), None if path is None else f"{path}.{key}")
        for key, v in views.items()
    )

    def decode(data: bytes, delta: int, notes: list[str] | None, path: str | None) -> dict[str, Any]:
        return {key: read(data, delta, notes, where or f"{path}.{key}") for key, read, where in kids}

    return decode


def _bytes_decoder(f: Field) -> Any:
    """``bytes = "hex" | "base64"`` (cobol-mcp.toml): every byte of the item, in that encoding."""
    import base64  # here: only such items need it

    offset, size = f.offset, f.size
    if f.encoding == "hex":

        def decode_hex(data: bytes, delta: int, notes: list[str] | None, path: str | None) -> str:
            start = offset + delta
            return data[start : start + size].hex().upper()

        return decode_hex

    def decode(data: bytes, delta: int, notes: list[str] | None, path: str | None) -> str:
        start = offset + delta
        return base64.b64encode(data[start : start + size]).decode("ascii")

    return decode


def _display_value(scale: int) -> Any:
    """Closure turning (negative, ASCII digits) into the value codec reports for that stored integer."""
    if scale > 0:
        exponent = f"E-{scale}"

        def value(negative: bool, digits: bytes) -> Decimal:
            if negative and digits.strip(b"0"):  # a negative zero is reported as 0
                return Decimal("-" + digits.decode() + exponent)
            return Decimal(digits.decode() + exponent)

        return value
    factor: int = 10**-scale

    def whole(negative: bool, digits: bytes) -> int:
        return -int(digits) * factor if negative else int(digits) * factor

    return whole


def _display_decoder(f: Field) -> Any:
    """DISPLAY digits: unsigned, overpunched sign, or SIGN SEPARATE (always within the PIC's range)."""
    offset, size = f.offset, f.size
    value = _display_value(f.scale)
    if f.sign_separate:
        lead = f.sign_leading
        mark_at, first, last = (0, 1, size) if lead else (size - 1, 0, size - 1)

        def decode_separate(data: bytes, delta: int, notes: list[str] | None, path: str | None) -> Any:
            start = offset + delta
            raw = data[start : start + size]
            mark, digits = raw[mark_at], raw[first:last]
            if (mark == 0x2D or mark == 0x2B) and digits.isdigit():
                return value(mark == 0x2D, digits)
            return _invalid(f, raw, notes, path)

        return decode_separate
    if f.signed:
        lead = f.sign_leading

        def decode_punched(data: bytes, delta: int, notes: list[str] | None, path: str | None) -> Any:
            start = offset + delta
            raw = data[start : start + size]
            punched = _SIGN[raw[0] if lead else raw[-1]]
            if punched is not None:
                negative, digit = punched
                digits = digit + raw[1:] if lead else raw[:-1] + digit
                if digits.isdigit():
                    return value(negative, digits)
            return _invalid(f, raw, notes, path)

        return decode_punched

    def decode(data: bytes, delta: int, notes: list[str] | None, path: str | None) -> Any:
        start = offset + delta
        raw = data[start : start + size]
        if raw.isdigit():
            return value(False, raw)
        return _invalid(f, raw, notes, path)

    return decode


def _scaled(scale: int) -> Any:
    if scale > 0:
        exponent = f"E-{scale}"
        return lambda n: Decimal(f"{n}{exponent}")
    factor: int = 10**-scale
    return lambda n: n * factor


def _bounds(f: Field) -> tuple[int, int]:
    """Stored integers within the PIC digits (the range codec checks decoded values against)."""
    assert f.picture is not None
    top = 10**f.picture.nines - 1
    return (-top if f.signed else 0), top


def _packed_decoder(f: Field) -> Any:
    offset, size = f.offset, f.size
    scaled, (low, high) = _scaled(f.scale), _bounds(f)

    def decode(data: bytes, delta: int, notes: list[str] | None, path: str | None) -> Any:
        start = offset + delta
        raw = data[start : start + size]
        hexa = raw.hex()
        digits, sign = hexa[:-1], hexa[-1]
        if digits.isdigit() and sign in "abcdef":
            n = -int(digits) if sign in "bd" else int(digits)
            if low <= n <= high:
                return scaled(n)
        return _invalid(f, raw, notes, path)

    return decode


def _binary_decoder(f: Field) -> Any:
    offset, size, signed = f.offset, f.size, f.signed
    scaled, (low, high) = _scaled(f.scale), _bounds(f)
    if f.usage == "comp-5" or not f.truncated:  # not truncated: every integer of the bytes is a value
        order = sys.byteorder if f.usage == "comp-5" else "big"

        def decode_native(data: bytes, delta: int, notes: list[str] | None, path: str | None) -> Any:
            start = offset + delta
            return scaled(int.from_bytes(data[start : start + size], order, signed=signed))

        return decode_native

    def decode(data: bytes, delta: int, notes: list[str] | None, path: str | None) -> Any:
        start = offset + delta
        raw = data[start : start + size]
        n = int.from_bytes(raw, "big", signed=signed)
        if low <= n <= high:
            return scaled(n)
        return _invalid(f, raw, notes, path)

    return decode
