"""Host-variable bytes <-> the runtime's values, one compiled reader and writer per :class:`.hosts.Piece`.

Reading (the statement's inputs): a PIC X item is its whole text (DB2 passes CHAR host variables with
their blanks), a VARCHAR the first ``length`` bytes of its text (-311 when the length is below zero or
past the text), a number its exact value through the codec's own decoders (-302 for bytes that are no
value of its PICTURE). Writing (what the statement sets): text padded with spaces, or cut (the caller
is told the length before the cut: SQLWARN1), a VARCHAR's length and text, numbers through the codec's
encoders with their fraction first cut to the item's decimals as DB2 assigns (-304 when the rest does
not fit, -303 for a value that is no number). The SQLCA is written at DB2's offsets.
"""

from __future__ import annotations

import struct
import sys
from collections.abc import Callable
from decimal import ROUND_DOWN, Decimal, InvalidOperation
from typing import Literal

from ..cobol.records.codec import FieldError
from ..cobol.records.decoders import item_decoder
from ..cobol.records.encoders import item_encoder
from ..db.errors import SqlError
from ..db.unit import Sqlca
from .hosts import Piece

__all__ = [
    "SQLCA_SIZE", "SQLCODE_AT", "SQLERRD_AT", "SQLERRMC_AT", "SQLERRML_AT", "SQLSTATE_AT", "SQLWARN_AT",
    "Reader", "ServiceError", "Writer", "reader", "sqlca_bytes", "writer",
]  # fmt: skip

Reader = Callable[[bytes], object]


class ServiceError(Exception):
    """A CALL 'SQLRT' the session cannot serve: the tool call fails with this message."""


Writer = Callable[[bytearray, object], "int | None"]

SQLCA_SIZE = 136
# Offsets in DB2's SQLCA (checked against SQLCA_BOOK's layout by the tests)
SQLCODE_AT, SQLERRML_AT, SQLERRMC_AT, SQLERRD_AT, SQLWARN_AT, SQLSTATE_AT = 12, 16, 18, 96, 120, 131
_CODE_AND_MESSAGE = struct.Struct("=ih70s")  # SQLCODE, SQLERRML, SQLERRMC
_ERRD_WARN_STATE = struct.Struct("=6i11s5s")  # SQLERRD(1..6), SQLWARN0-A, SQLSTATE


def sqlca_bytes(old: bytes, ca: Sqlca) -> bytes:
    """The SQLCA ``old`` with the statement's outcome written in (SQLCAID, SQLCABC and SQLERRP kept)."""
    buf = bytearray(old)
    message = ca.sqlerrm.encode("latin-1", "replace")[:70] if ca.sqlerrm else b""
    _CODE_AND_MESSAGE.pack_into(buf, SQLCODE_AT, ca.sqlcode, len(message), message.ljust(70))
    warn, state = ca.sqlwarn.encode("ascii", "replace"), ca.sqlstate.encode("ascii", "replace")
    _ERRD_WARN_STATE.pack_into(buf, SQLERRD_AT, 0, 0, ca.sqlerrd3, 0, 0, 0, warn, state)
    return bytes(buf)


def _order(f: object) -> Literal["little", "big"]:
    return sys.byteorder if getattr(f, "usage", "") == "comp-5" else "big"


def reader(piece: Piece) -> Reader:
    """Closure reading the piece's value from its parameter's bytes (raises SqlError -302/-311)."""
    f, name = piece.field, piece.name
    if piece.length is not None:
        at, size, text_at, most = piece.offset, piece.length.size, piece.text_offset, f.size
        order, signed = _order(piece.length), piece.length.signed

        def read_varchar(data: bytes) -> object:
            n = int.from_bytes(data[at : at + size], order, signed=signed)
            if not 0 <= n <= most:
                raise SqlError(-311, "22501", f"the length of VARCHAR {name} is {n}, not 0 to {most}")
            return data[text_at : text_at + n].decode("latin-1")

        return read_varchar
    if f.category in ("numeric", "float"):
        decode, delta = item_decoder(f, name, trim=False), piece.offset - f.offset

        def read_number(data: bytes) -> object:
            notes: list[str] = []
            value = decode(data, delta, notes, name)
            if value is None:
                raise SqlError(-302, "22023", f"host variable {name}: {notes[-1] if notes else 'no valid value'}")
            return Decimal(value) if isinstance(value, str) else value  # (digits past a double's, as text)

        return read_number
    at, size = piece.offset, f.size

    def read_text(data: bytes) -> object:
        return data[at : at + size].decode("latin-1")

    return read_text


def writer(piece: Piece) -> Writer:
    """Closure storing a value into the piece (see the module); returns the length before a cut, or None."""
    f, name = piece.field, piece.name
    if piece.length is not None or f.category not in ("numeric", "float"):
        at, most = piece.offset, f.size
        varchar = piece.length is not None
        size = piece.length.size if piece.length is not None else 0
        order, signed = _order(piece.length), piece.length is not None and piece.length.signed
        text_at = piece.text_offset

        def write_text(buf: bytearray, value: object) -> int | None:
            data = (value if isinstance(value, str) else str(value)).encode("latin-1", "replace")
            cut = len(data) if len(data) > most else None
            data = data[:most]
            if varchar:
                buf[at : at + size] = len(data).to_bytes(size, order, signed=signed)
                buf[text_at : text_at + len(data)] = data
            else:
                buf[at : at + most] = data.ljust(most)
            return cut

        return write_text
    encode, delta, scale = item_encoder(f, name), piece.offset - f.offset, f.scale
    exact = f.category == "numeric"
    # A binary integer item (COMP, COMP-4, COMP-5 without decimals) takes an int of its digits as is
    binary = f.usage in ("binary", "comp-5") and not f.native and f.picture is not None and f.picture.scale == 0
    high = 10**f.picture.nines - 1 if binary and f.picture is not None else -1
    low, at, size = -high if f.signed else 0, piece.offset, f.size
    order, signed = _order(f), f.signed
    # A packed decimal item (COMP-3) takes a Decimal of its decimals and digits (a DECIMAL column's) as is
    pic = f.picture
    packed = f.usage == "comp-3" and not f.native and pic is not None and 0 <= pic.scale <= pic.nines <= 18
    limit, width, plus = 10 ** (pic.nines if pic is not None else 0), size * 2 - 1, "c" if signed else "f"

    def write_number(buf: bytearray, value: object) -> int | None:
        if type(value) is int and low <= value <= high:
            buf[at : at + size] = value.to_bytes(size, order, signed=signed)
            return None
        if packed and type(value) is Decimal and value.as_tuple().exponent == -scale:
            n = int(value.scaleb(scale))
            if -limit < n < limit and (n >= 0 or signed):
                buf[at : at + size] = bytes.fromhex(f"{-n:0{width}d}d" if n < 0 else f"{n:0{width}d}{plus}")
                return None
        if type(value) is not int:
            try:
                number = value if isinstance(value, Decimal) else Decimal(str(value).strip())
                exponent = number.as_tuple().exponent
                if exact and isinstance(exponent, int) and exponent < -scale:
                    number = number.quantize(Decimal(1).scaleb(-scale), ROUND_DOWN)  # DB2 cuts the fraction
            except (InvalidOperation, ValueError):
                raise SqlError(-303, "42806", f"{value!r} cannot be stored in numeric host variable {name}") from None
            value = number
        try:
            encode(buf, value, name, delta)
        except FieldError:
            raise SqlError(-304, "22003", f"{value} does not fit host variable {name} (PIC {f.pic})") from None
        return None

    return write_number
