"""JSON Schemas of a program's arguments and results, shaped exactly like codec's objects.

Input schemas are strict (``additionalProperties: false``, exact array lengths, PIC ranges). Output
schemas describe everything decode_outputs can return: numeric items may be ``null`` (invalid data in
the record), items with level-88 conditions keep their own type and range (the names, and the values
they stand for, are in the description; on input a name of exactly one value may be sent), COMP-5 items
span their whole binary range. Bounds are ``int`` or exact ``Decimal`` (the JSON layer writes Decimal as
a number); ``multipleOf`` is used only for whole numbers, the decimal places are stated in the
description instead. An item whose values have more significant digits than a binary double keeps (15)
is reported as a decimal string and may be sent as one; JSON clients read numbers as doubles, so its
bounds are written as exact text in the description, not as ``minimum``/``maximum``.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from ..linkage.frozen import replace
from ..linkage.model import Field, ProgramSpec, Record
from ..linkage.pic import describe, native_range, numeric_range
from .items import bytes_text, decimal_text, encode_bytes, past_double
from .shape import flat, has_default, properties, show_values, single_values

__all__ = ["input_schema", "output_schema", "views"]


def views(spec: ProgramSpec, mode: str) -> tuple[Record, ...]:
    """The records cut down to their arguments (mode "in") or results ("out"); records with none left out."""
    return tuple(v for r in spec.records if (v := r.view(mode)) is not None)


def input_schema(spec: ProgramSpec) -> dict[str, Any]:
    """Schema of the tool arguments (see codec for the flattening rule): items that are only results
    (or never used) are not arguments."""
    return _object(_top(views(spec, "in")), "in", False, "")


def output_schema(spec: ProgramSpec) -> dict[str, Any]:
    """Schema of decode_outputs' result (an object, as MCP structured content must be): items that are
    only arguments (or never used) are not reported."""
    return _object(_top(views(spec, "out")), "out", False, "")


def _top(records: tuple[Record, ...]) -> dict[str, Field]:
    if flat(records):
        return {k: f for r in records for k, f in properties(r).items()}
    return {r.key: r.field for r in records}


def _number(value: Decimal) -> int | Decimal:
    return int(value) if value == value.to_integral_value() else value


def _object(props: dict[str, Field], mode: str, covered: bool, description: str) -> dict[str, Any]:
    schema: dict[str, Any] = {"description": description} if description else {}
    schema["type"] = "object"
    schema["properties"] = {key: _field(f, mode, covered) for key, f in props.items()}
    required = [k for k, f in props.items() if mode == "out" or not has_default(f, covered)]
    if required:
        schema["required"] = required
    schema["additionalProperties"] = False
    return schema


def _field(f: Field, mode: str, covered: bool) -> dict[str, Any]:
    if f.alternatives:
        item = _views(f, mode, covered)
    elif f.encoding:
        item = _bytes(f, mode, covered)
    elif f.is_group:
        kids = {c.key: c for c in f.children if c.exposed and c.key}
        item = _object(kids, mode, covered or f.value is not None, "" if f.occurs else f.description)
    else:
        item = _scalar(f, mode, covered)
    if not f.occurs or f.level in (1, 77):
        return item
    array: dict[str, Any] = {"description": f.description} if f.description else {}
    if f.depending_on:  # OCCURS min TO max DEPENDING ON: null when the counter handed back is out of bounds
        kind = "array" if mode == "in" else ["array", "null"]
        return array | {"type": kind, "items": item, "minItems": f.occurs_min or 0, "maxItems": f.occurs}
    return array | {"type": "array", "items": item, "minItems": f.occurs, "maxItems": f.occurs}


def _scalar(f: Field, mode: str, covered: bool) -> dict[str, Any]:
    notes = [f.description] if f.description else []
    if f.counts and mode == "in":
        notes.append(f"Set from the number of items of {f.counts} when left out")
    if f.category in ("numeric", "float") or f.category.endswith("edited"):
        notes.append(describe(f.picture, f.usage))
    raw: dict[str, Any]
    if f.category == "numeric":
        assert f.picture is not None
        native = f.native or (mode == "out" and (f.usage == "comp-5" or not f.truncated))
        low, high = native_range(f.picture, f.size) if native else numeric_range(f.picture)
        if f.native:
            notes[-1] = f"USAGE {f.native}: whole number from {low} to {high}"
        kind = "integer" if f.scale <= 0 else "number"
        if past_double(low, high):  # a binary double would lose digits: decimal text, the bounds stated exactly
            raw = _exact(f, mode, kind, low, high, notes)
        else:
            raw = {"type": kind if mode == "in" else [kind, "null"], "minimum": _number(low), "maximum": _number(high)}
        if f.scale < 0 and kind in raw["type"]:  # not on decimal text
            raw["multipleOf"] = 10**-f.scale
    elif f.category == "float":
        raw = {"type": "number" if mode == "in" else ["number", "null"]}
    else:
        raw = {"type": "string", "maxLength": f.any_length or f.size}
        if f.any_length:  # its size is the string's: see .anylen
            notes.append(f"PIC X ANY LENGTH: the program gets exactly this string, 1 to {f.any_length} characters")
            raw["minLength"] = 1
        if f.category == "alphabetic" and mode == "in":  # the program itself may store anything
            raw["pattern"] = "^[A-Za-z ]*$"
    schema = raw
    if f.conditions:
        notes.append(_conditions_text(f, mode))
        names = list(single_values(f)) if mode == "in" else []
        if names:  # a convenience beside the item's own values, never instead of them
            schema = {"anyOf": [raw, {"type": "string", "enum": names}]}
    if notes:
        schema = {"description": ". ".join(n.rstrip(".") for n in notes) + "."} | schema
    if mode == "in" and f.value is not None and not covered:
        default = _default(f)
        if default is not None:
            schema["default"] = default
    return schema


DECIMAL_TEXT = r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$"  # what an argument may be written as
PLAIN_DECIMAL = r"^-?\d+(\.\d+)?$"  # what a result is written as


def _exact(f: Field, mode: str, kind: str, low: Decimal, high: Decimal, notes: list[str]) -> dict[str, Any]:
    """An item with more digits than a binary double keeps: JSON clients read numbers as doubles, so
    results are decimal strings, arguments may be, and the bounds are written as exact text (a
    ``maximum`` of 99999999999999.99 is read as 99999999999999.98 by such a client)."""
    bounds = f"from {decimal_text(low)} to {decimal_text(high)}"
    if mode == "in":
        notes.append(
            f"Values {bounds}; more digits than a binary double keeps, so send it as a decimal string "
            f'such as "{decimal_text(high)}" to keep every digit'
        )
        return {"type": [kind, "string"], "pattern": DECIMAL_TEXT}
    notes.append(f"Reported as a decimal string, every digit (more than a binary double keeps), {bounds}")
    return {"type": ["string", "null"], "pattern": PLAIN_DECIMAL}


def _views(f: Field, mode: str, covered: bool) -> dict[str, Any]:
    """``view = "all"``: one object per REDEFINES definition on input (exactly one given), all on output."""
    views = {str(f.key): replace(f, alternatives=()), **{str(a.key): a for a in f.alternatives}}
    schemas = {str(key): _field(v, mode, covered) for key, v in views.items()}
    names = ", ".join(schemas)
    lead = f"The same {f.size} bytes defined {len(schemas)} ways (REDEFINES)"
    if mode == "in":
        return {
            "description": f"{lead}: give exactly one of {names}.",
            "type": "object",
            "oneOf": [
                {"type": "object", "properties": {key: s}, "required": [key], "additionalProperties": False}
                for key, s in schemas.items()
            ],
        }
    return {
        "description": f"{lead}, each reported: {names}.",
        "type": "object",
        "properties": schemas,
        "required": list(schemas),
        "additionalProperties": False,
    }


def _bytes(f: Field, mode: str, covered: bool) -> dict[str, Any]:
    """``bytes = "hex" | "base64"``: a string of exactly the item's bytes in that encoding."""
    notes = [f.description] if f.description else []
    notes.append(f"The {bytes_text(f)}, every byte as it is")
    schema: dict[str, Any] = {"description": ". ".join(n.rstrip(".") for n in notes) + ".", "type": "string"}
    if f.encoding == "hex":
        schema["pattern"] = f"^[0-9A-Fa-f]{{{2 * f.size}}}$"
    else:
        schema["contentEncoding"] = "base64"
        schema["minLength"] = schema["maxLength"] = 4 * -(-f.size // 3)
    if mode == "in" and f.value is not None and not covered:
        schema["default"] = encode_bytes(f, str(f.value).encode("latin-1").ljust(f.size))
    return schema


def _default(f: Field) -> Any:
    value = f.value
    return _number(value) if isinstance(value, Decimal) else value


def _conditions_text(f: Field, mode: str) -> str:
    """What each level-88 name stands for; on input, which names may be sent instead of the value."""
    parts = "; ".join(f"{c.key} = {', '.join(show_values(c))}" for c in f.conditions)
    if mode == "out":
        return f"Condition names (level 88): {parts}. Reported as the value itself"
    names = ", ".join(single_values(f))
    if not names:
        return f"Condition names (level 88): {parts}. Send the value itself"
    return f"Condition names (level 88): {parts}. Send the value itself, or a name that stands for one value: {names}"
