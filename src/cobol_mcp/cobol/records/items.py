"""One item's bytes <-> one JSON value (see :mod:`.codec` for the rules).

The building blocks the compiled plans (:mod:`.encoders`, :mod:`.decoders`, :mod:`.plan`) and the
schemas (:mod:`.schema`) share: a JSON value read as a number (:func:`user_number`), packing and
unpacking of every USAGE (:func:`encode_scalar`, :func:`pack`, :func:`decode_scalar`), an item's
initial bytes, items given as hex/base64 bytes, and which numbers a binary double cannot carry.
The errors and how messages name values are in :mod:`.errors`; which records and properties make up
the arguments and the result, in :mod:`.shape`.
"""

from __future__ import annotations

import struct
import sys
from decimal import Decimal

from ..linkage.model import Field
from ..linkage.pic import PictureError, from_stored, native_range, numeric_range, to_stored
from .errors import FieldError, json_type, pic_text, show

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "beyond_double",
    "bytes_text",
    "decimal_text",
    "decode_bytes",
    "decode_scalar",
    "encode_bytes",
    "encode_scalar",
    "has_control_byte",
    "initial_bytes",
    "output_range",
    "pack",
    "past_double",
    "user_number",
]

# Decimal text as arguments may write it (plain decimal text, the usual case, is read without it)
_NUMBER_TEXT = r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?"
_LETTERS = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz "  # what PIC A holds
_HEX_DIGITS = "0123456789ABCDEFabcdef"
_NEGATIVE_OVERPUNCH = {**{chr(0x70 + d): d for d in range(10)}, "}": 0, **{chr(0x4A + d - 1): d for d in range(1, 10)}}
_POSITIVE_OVERPUNCH = {**{str(d): d for d in range(10)}, "{": 0, **{chr(0x41 + d - 1): d for d in range(1, 10)}}


def _finite(x: float) -> bool:
    """math.isfinite without importing math on the first call's path: inf - inf and nan - nan are nan."""
    return x - x == 0


# --------------------------------------------------------------------------------------------- encoding


def user_number(value: Any, path: str, f: Field) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, int | float | Decimal | str):
        raise FieldError(path, f'"{path}" must be a number ({pic_text(f)}), not {json_type(value)}', f.pic)
    if isinstance(value, str):
        import re

        if not re.fullmatch(_NUMBER_TEXT, value):
            raise FieldError(path, f'"{path}": {show(value)} is not a plain decimal number', f.pic)
        try:
            number = Decimal(value)
        except ArithmeticError:  # an exponent past Decimal's range (10**18)
            raise FieldError(path, f'"{path}": {show(value)} is out of range for {pic_text(f)}', f.pic) from None
    elif isinstance(value, float):
        number = Decimal(repr(value)) if _finite(value) else Decimal("NaN")
    else:
        number = Decimal(value)
    if not number.is_finite():
        raise FieldError(path, f'"{path}": {show(value)} is not a finite number', f.pic)
    return number


def encode_scalar(f: Field, value: Decimal | str, path: str = "", shown: Any = None) -> bytes:
    """Bytes of one elementary item holding ``value`` (Decimal for numeric items, str otherwise);
    ``shown`` is the argument as the caller wrote it, for error messages."""
    path = path or (f.key or f.name)
    shown = value if shown is None else shown  # shown only in messages: not worked out unless needed
    if f.category == "float":
        try:
            number = float(value)
            packed = struct.pack("=f" if f.usage == "comp-1" else "=d", number)
            if not _finite(number):
                raise OverflowError
        except (OverflowError, ValueError):
            raise FieldError(path, f'"{path}": {show(shown)} is too large for {pic_text(f)}') from None
        return packed
    if f.category == "numeric":
        assert f.picture is not None and isinstance(value, Decimal)
        if f.native:  # a whole machine integer, not bounded by digits
            low, high = native_range(f.picture, f.size)
            if value != value.to_integral_value() or not low <= value <= high:
                raise FieldError(path, f'"{path}": {show(shown)} does not fit {pic_text(f)} '
                                       f"(a whole number from {low} to {high})")  # fmt: skip
            return pack(f, int(value))
        try:
            n = to_stored(value, f.picture)
        except PictureError as exc:
            raise FieldError(path, f'"{path}": {show(shown)} does not fit PIC {f.pic} ({exc})', f.pic) from None
        return pack(f, n)
    assert isinstance(value, str)
    if f.encoding:  # the value of a bytes item (VALUE, or an override's default) is its bytes as Latin-1
        return value.encode("latin-1").ljust(f.size)
    try:
        data = value.encode("latin-1")
    except UnicodeEncodeError as exc:
        bad = value[exc.start]
        raise FieldError(path, f'"{path}": character {bad!r} cannot be stored in {pic_text(f)} '
                               "(only Latin-1 characters fit)", f.pic) from None  # fmt: skip
    if len(data) > f.size:
        raise FieldError(path, f'"{path}": {show(shown)} does not fit {pic_text(f)} '
                               f"({len(data)} characters, at most {f.size})", f.pic)  # fmt: skip
    if f.category == "alphabetic" and data.strip(_LETTERS):
        raise FieldError(path, f'"{path}": {show(shown)} does not fit {pic_text(f)} (letters and spaces only)', f.pic)
    right = f.justified or f.category == "numeric-edited"
    return data.rjust(f.size) if right else data.ljust(f.size)


def pack(f: Field, n: int) -> bytes:
    if f.usage == "binary":
        return n.to_bytes(f.size, "big", signed=f.signed)
    if f.usage == "comp-5":
        return n.to_bytes(f.size, sys.byteorder, signed=f.signed)
    digits = str(abs(n))
    if f.usage == "comp-3":
        sign = ("d" if n < 0 else "c") if f.signed else "f"
        return bytes.fromhex(digits.zfill(f.size * 2 - 1) + sign)
    if f.usage == "comp-6":
        return bytes.fromhex(digits.zfill(f.size * 2))
    if f.blank_when_zero and n == 0:
        return b" " * f.size
    text = digits.zfill(f.size - f.sign_separate)
    if f.sign_separate:
        sign = "-" if n < 0 else "+"
        text = sign + text if f.sign_leading else text + sign
    elif f.signed and n < 0:  # GnuCOBOL's ASCII overpunch: negative digit d is chr(0x70 + d)
        i = 0 if f.sign_leading else -1
        chars = list(text)
        chars[i] = chr(ord(chars[i]) + 0x40)
        text = "".join(chars)
    return text.encode("ascii")


def initial_bytes(f: Field) -> bytes:
    """One occurrence of ``f`` as the program would see it before it is filled in: VALUEs where given,
    otherwise zero for numeric items, binary zeros (NULL) for addresses and spaces for text. Bytes with
    several REDEFINES definitions are laid down as the one shown (``view``: its VALUEs and hidden
    values; else the first)."""
    if f.any_length:  # length 1, one space: a COBOL item has at least one byte (see .anylen)
        return struct.pack("=i", 1) + b" " * f.any_length
    if f.is_group:
        if f.value is not None:
            return str(f.value).encode("latin-1").ljust(f.size)
        buf = bytearray(b" " * f.size)
        for c in f.children:
            if (c.redefines is None) if c.chosen is None else c.chosen:
                chunk = initial_bytes(c) * (c.occurs or 1)
                buf[c.offset - f.offset : c.offset - f.offset + len(chunk)] = chunk
        return bytes(buf)
    if f.value is not None:
        return encode_scalar(f, f.value)
    if f.category == "numeric":
        return pack(f, 0)
    return b"\x00" * f.size if f.category in ("float", "pointer") else b" " * f.size


def bytes_text(f: Field) -> str:
    """What a ``bytes = "hex" | "base64"`` item takes: for messages and schemas."""
    if f.encoding == "hex":
        return f"{f.size} bytes as hex ({2 * f.size} hex digits)"
    return f"{f.size} bytes as base64 ({4 * -(-f.size // 3)} characters)"


def decode_bytes(f: Field, value: Any, path: str) -> bytes:
    """The bytes a hex or base64 argument stands for: exactly the item's size, else FieldError."""
    if not isinstance(value, str):
        raise FieldError(path, f'"{path}" must be a string ({bytes_text(f)}), not {json_type(value)}', f.pic)
    try:
        if f.encoding == "hex":
            if value.strip(_HEX_DIGITS):
                raise ValueError
            data = bytes.fromhex(value)
        else:
            import base64

            data = base64.b64decode(value.encode("ascii"), validate=True)
    except (ValueError, UnicodeEncodeError):
        raise FieldError(
            path, f'"{path}": {show(value)} is not {f.encoding} (expected {bytes_text(f)})', f.pic
        ) from None
    if len(data) != f.size:
        raise FieldError(path, f'"{path}": {show(value)} is {len(data)} bytes; {f.name} holds exactly '
                               f"{bytes_text(f)}", f.pic)  # fmt: skip
    return data


def encode_bytes(f: Field, raw: bytes) -> str:
    if f.encoding == "hex":
        return raw.hex().upper()
    import base64

    return base64.b64encode(raw).decode("ascii")


# --------------------------------------------------------------------------------------------- decoding


def _scaled(n: int, scale: int) -> int | Decimal:
    return from_stored(n, scale) if scale > 0 else n * 10**-scale


def _short_float(raw: bytes) -> Decimal | None:
    fmt = "=f" if len(raw) == 4 else "=d"
    (x,) = struct.unpack(fmt, raw)
    if not _finite(x):
        return None
    if fmt == "=d":
        return Decimal(repr(x))
    for digits in range(1, 10):  # the shortest text that reads back as the same single float
        text = f"{x:.{digits}g}"
        try:
            if struct.pack(fmt, float(text)) == raw:
                break
        except OverflowError:  # rounded up past the largest single float
            continue
    return Decimal(text)


def _unpack(f: Field, raw: bytes) -> tuple[int | None, str]:
    """Stored integer of a numeric item, or None and why it is not valid."""
    if f.usage in ("binary", "comp-5"):
        return int.from_bytes(raw, "big" if f.usage == "binary" else sys.byteorder, signed=f.signed), ""
    if f.usage == "comp-6":
        hexa = raw.hex()
        if not hexa.isdigit():
            return None, f"bytes {raw.hex(' ').upper()} are not valid unsigned packed decimal"
        return int(hexa), ""
    if f.usage == "comp-3":
        hexa = raw.hex()
        digits, nibble = hexa[:-1], hexa[-1]
        if not digits.isdigit() or nibble not in "abcdef":
            return None, f"bytes {raw.hex(' ').upper()} are not valid packed decimal"
        return (-1 if nibble in "bd" else 1) * int(digits), ""
    text = raw.decode("latin-1")
    if f.blank_when_zero and not text.strip():
        return 0, ""
    sign = 1
    if f.sign_separate:
        mark, text = (text[0], text[1:]) if f.sign_leading else (text[-1], text[:-1])
        if mark not in "+-":
            return None, f"{raw!r} has no + or - sign"
        sign = -1 if mark == "-" else 1
    elif f.signed and text:
        i = 0 if f.sign_leading else len(text) - 1
        ch = text[i]
        if ch in _NEGATIVE_OVERPUNCH:
            sign, ch = -1, str(_NEGATIVE_OVERPUNCH[ch])
        elif ch in _POSITIVE_OVERPUNCH:
            ch = str(_POSITIVE_OVERPUNCH[ch])
        text = text[:i] + ch + text[i + 1 :]
    if not (text.isascii() and text.isdigit()):
        return None, f"{raw!r} is not a valid PIC {f.pic} value"
    return sign * int(text), ""


def decode_scalar(f: Field, raw: bytes) -> tuple[Any, str]:
    """Decode one elementary item's bytes: (value, "") or (None, reason) for invalid numeric data."""
    if f.category == "float":
        number = _short_float(raw)
        return (number, "") if number is not None else (None, f"{pic_text(f)} holds NaN or infinity")
    if f.category == "numeric":
        assert f.picture is not None
        n, why = _unpack(f, raw)
        if n is None:
            return None, why
        value = _scaled(n, f.scale)
        whole = f.usage == "comp-5" or not f.truncated  # every integer of the bytes is a value
        low, high = native_range(f.picture, f.size) if whole else numeric_range(f.picture)
        if not low <= value <= high:
            return None, f"{value} is outside the range of PIC {f.pic}"
        return value, ""
    if f.encoding:
        return encode_bytes(f, raw), ""
    text = raw.decode("latin-1")
    if f.trim is False:
        return text, ""
    if f.justified or f.category.endswith("edited"):
        return text.strip(" "), ""
    if has_control_byte(raw) and f.trim is None:
        return text, ""  # not text but data (a cipher block, a bit mask): every byte is reported
    return text.rstrip(" "), ""


# Bytes no text holds (C0 and C1 controls): a PIC X item holding any of them is data, not text, and
# keeps its trailing spaces (a block may end in X'20').
CONTROL_BYTES = bytes([*range(0x20), *range(0x7F, 0xA0)])


def has_control_byte(raw: bytes) -> bool:
    return len(raw.translate(None, CONTROL_BYTES)) != len(raw)


DOUBLE_DIGITS = 15  # significant digits every binary double holds exactly (DBL_DIG)


def output_range(f: Field) -> tuple[Decimal, Decimal]:
    """What a numeric item can hold when the program writes it: the binary range of a native or
    COMP-5 or untruncated item, else the PIC's."""
    assert f.picture is not None
    native = f.native or f.usage == "comp-5" or not f.truncated
    return native_range(f.picture, f.size) if native else numeric_range(f.picture)


def beyond_double(f: Field) -> bool:
    """Whether a numeric item can hold values with more significant digits than a binary double keeps:
    JSON clients read numbers as doubles, so its values go out as decimal strings (and are documented
    so), and its bounds are given as exact text."""
    return f.category == "numeric" and f.picture is not None and past_double(*output_range(f))


def past_double(low: Decimal, high: Decimal) -> bool:
    """Whether a range holds values with more significant digits than a binary double keeps."""
    return any(len(bound.as_tuple().digits) > DOUBLE_DIGITS for bound in (low, high))


def decimal_text(value: Decimal | int) -> str:
    """A number as plain decimal text, every digit and no exponent: 1234567890123458.00, 123000."""
    return str(value) if isinstance(value, int) else format(value, "f")
