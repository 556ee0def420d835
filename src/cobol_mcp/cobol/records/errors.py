"""The errors of records, and how their messages name a value and an item.

:class:`FieldError` (an argument cannot be stored: its JSON path, its PIC), :class:`DecodeError` (the
buffers handed back do not match the records); :func:`show` and :func:`json_type` (a value, as a
message quotes it), :func:`pic_text` (an item, by its PIC or USAGE), :func:`check_keys` (an object's
properties against the ones allowed).
"""

from __future__ import annotations

from decimal import Decimal

from ..linkage.model import Field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["DecodeError", "FieldError", "check_keys", "json_type", "pic_text", "show"]


class FieldError(ValueError):
    """An argument cannot be stored in its item; the message names the JSON path and the PIC."""

    def __init__(self, path: str, message: str, pic: str | None = None) -> None:
        super().__init__(message)
        self.path = path
        self.pic = pic


class DecodeError(ValueError):
    """The buffers handed back do not match the program's records (count or sizes)."""


def show(value: Any) -> str:
    if isinstance(value, list | dict):  # named, not printed: it may be huge or nested past repr's limit
        return json_type(value)
    if isinstance(value, str):
        import json

        return json.dumps(value if len(value) <= 40 else value[:37] + "...", ensure_ascii=False)
    return str(value).lower() if isinstance(value, bool) else str(value)


def json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float | Decimal):
        return "a number"
    names: dict[type, str] = {str: "a string", list: "an array", dict: "an object"}
    return names.get(type(value), type(value).__name__)


def pic_text(f: Field) -> str:
    if f.any_length:
        return f"PIC X ANY LENGTH, 1 to {f.any_length} characters"
    return f"PIC {f.pic}" if f.pic else f"USAGE {f.native or f.usage.upper()}"


def check_keys(given: dict[str, Any], allowed: dict[str, Field], path: str) -> None:
    unknown = [k for k in given if k not in allowed]
    if unknown:
        what = f"property '{path}.{unknown[0]}'" if path else f"argument '{unknown[0]}'"
        raise FieldError(f"{path}.{unknown[0]}" if path else unknown[0],
                         f"unexpected {what}; expected: {', '.join(allowed) or 'no arguments'}")  # fmt: skip
