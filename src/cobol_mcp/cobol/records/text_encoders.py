"""Encoders of items sent as strings: DISPLAY text (PIC X, PIC A, numeric-edited; JUSTIFIED) and
items given as their bytes in hex or base64 (``bytes = "hex" | "base64"`` in cobol-mcp.toml).
Closures ``encode(buffer, value, path, delta)`` as :mod:`.encoders` describes, chosen there by
:func:`~.encoders.item_encoder`.
"""

from __future__ import annotations

from ..linkage.model import Field
from .errors import FieldError, json_type, pic_text
from .items import decode_bytes, encode_scalar

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["bytes_encoder", "text_bytes", "text_encoder"]


def text_encoder(f: Field) -> Any:
    offset, size, pic = f.offset, f.size, f.pic
    data_of = text_bytes(f) if f.category != "alphabetic" else None  # letters and spaces: encode_scalar checks

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


def text_bytes(f: Field) -> Any:
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


def bytes_encoder(f: Field) -> Any:
    """``bytes = "hex" | "base64"`` (cobol-mcp.toml): the item's exact bytes, written in that encoding."""
    offset, size = f.offset, f.size

    def encode(buf: bytearray, value: Any, path: str, delta: int) -> None:
        start = offset + delta
        buf[start : start + size] = decode_bytes(f, value, path)

    return encode
