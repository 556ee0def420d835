"""Encoders of numeric items, every USAGE: DISPLAY digits (zoned, with GnuCOBOL's ASCII overpunch or a
separate sign), BINARY / COMP-5, PACKED-DECIMAL (COMP-3), COMP-6, the native integers (BINARY-CHAR ...
INDEX, PIC X COMP-X) and the floats (COMP-1, COMP-2). Closures ``encode(buffer, value, path, delta)``
as :mod:`.encoders` describes, chosen there by :func:`~.encoders.item_encoder`.

A value within the PIC is fitted as text (:func:`_fitter`, no rounding context) and packed by a
closure made for the item's USAGE (:func:`_packer`); the usual DISPLAY number is written in one pass
(:func:`display_number_bytes`). Anything else goes to :func:`~.items.encode_scalar`.
"""

from __future__ import annotations

import sys
from decimal import Decimal

from .. import is_plain_decimal, plain_parts
from ..linkage.model import Field
from ..linkage.pic import native_range
from . import items
from .items import encode_scalar, user_number

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["display_number_bytes", "float_encoder", "native_encoder", "number_encoder"]

_NEGATIVE_PUNCH = str.maketrans("0123456789", "pqrstuvwxy")  # GnuCOBOL's ASCII overpunch of a negative digit


def number_encoder(f: Field) -> Any:
    assert f.picture is not None
    fit = _fitter(f.picture.scale, f.picture.nines, f.picture.signed)
    pack = _packer(f)
    if f.usage == "display" and not f.sign_separate and 0 <= f.picture.scale <= f.picture.nines == f.size:
        return _display_number_encoder(f, _general_number_encoder(f, fit, pack))
    return _general_number_encoder(f, fit, pack)


def _display_number_encoder(f: Field, general: Any) -> Any:
    """DISPLAY digits without P positions or a separate sign: the usual values through
    :func:`display_number_bytes`, anything else through `general`."""
    offset, size = f.offset, f.size
    data_of = display_number_bytes(f)

    def encode(buf: bytearray, value: Any, path: str, delta: int) -> None:
        data = data_of(value)
        if data is None:
            general(buf, value, path, delta)
        else:
            buf[offset + delta : offset + delta + size] = data

    return encode


def display_number_bytes(f: Field) -> Any:
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


def native_encoder(f: Field) -> Any:
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


def float_encoder(f: Field) -> Any:
    offset, size = f.offset, f.size

    def encode(buf: bytearray, value: Any, path: str, delta: int) -> None:
        start = offset + delta
        buf[start : start + size] = encode_scalar(f, user_number(value, path, f), path, shown=value)

    return encode
