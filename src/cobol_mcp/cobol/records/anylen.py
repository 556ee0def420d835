"""A ``PIC X ANY LENGTH`` record: a 4-byte native length (BINARY-LONG) and then up to ``limit`` bytes.

The program's caller (:mod:`..prepare.value_caller`) passes the first ``length`` bytes BY REFERENCE, so the
program's item is exactly the string it was given. The length is the caller's: the program can change
the bytes but not how many there are, so the result is that many bytes again, every one kept. An empty
string is refused (a COBOL item has at least one byte).
"""

from __future__ import annotations

import struct

from ..linkage.model import Field
from .errors import FieldError, json_type

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["any_length_decoder", "any_length_encoder"]

_LENGTH = struct.Struct("=i")  # BINARY-LONG: the machine's own byte order


def any_length_encoder(f: Field) -> Any:
    offset, limit = f.offset, f.any_length

    def encode(buf: bytearray, value: Any, path: str, delta: int) -> None:
        if not isinstance(value, str):
            raise FieldError(path, f'"{path}" must be a string (PIC X ANY LENGTH), not {json_type(value)}', "X")
        try:
            data = value.encode("latin-1")
        except UnicodeEncodeError as exc:
            raise FieldError(path, f'"{path}" has a character that is not Latin-1: {value[exc.start]!r}', "X") from None
        if not 1 <= len(data) <= limit:
            raise FieldError(
                path,
                f'"{path}" must be 1 to {limit} characters (PIC X ANY LENGTH, limit {limit}), not {len(data)}',
                "X",
            )
        start = offset + delta
        buf[start : start + 4 + limit] = _LENGTH.pack(len(data)) + data.ljust(limit)

    return encode


def any_length_decoder(f: Field, trim: bool | None) -> Any:
    """The bytes the program was given, as many as it was given; trailing spaces are cut only when the
    field says so (``keep-trailing-spaces = false``)."""
    offset, limit = f.offset, f.any_length

    def decode(data: bytes, delta: int, notes: list[str] | None, path: str | None) -> str:
        start = offset + delta
        (length,) = _LENGTH.unpack_from(data, start)
        text = data[start + 4 : start + 4 + max(1, min(length, limit))].decode("latin-1")
        return text.rstrip(" ") if trim else text

    return decode
