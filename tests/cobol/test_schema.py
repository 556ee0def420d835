"""Input/output JSON Schemas: snapshots per sample, and agreement with what the codec accepts and returns.

Regenerate the snapshots after an intended change with::

    UPDATE_SNAPSHOTS=1 python -m pytest tests/cobol/test_schema.py
"""

from __future__ import annotations

import json
import os
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cobol_mcp.cobol.records.codec import decode_outputs, encode_inputs, initial_bytes
from cobol_mcp.cobol.records.schema import input_schema, output_schema

from .conftest import SAMPLE_PATHS
from .test_codec import ECHO, ZOO, values_for

jsonschema = pytest.importorskip("jsonschema")

SNAPSHOTS = Path(__file__).parent / "snapshots"
_MARK = "\u0000decimal:"


def to_json(value: Any) -> str:
    """JSON text with Decimals written as plain numbers, like the protocol layer does."""

    def mark(v: Any) -> Any:
        if isinstance(v, Decimal):
            return f"{_MARK}{v}"
        if isinstance(v, dict):
            return {k: mark(x) for k, x in v.items()}
        if isinstance(v, list):
            return [mark(x) for x in v]
        return v

    text = json.dumps(mark(value), indent=2, ensure_ascii=False)
    return re.sub(r'"\\u0000decimal:([^"]*)"', r"\1", text) + "\n"


def from_json(text: str) -> Any:
    return json.loads(text, parse_float=Decimal)


@pytest.mark.parametrize("path", SAMPLE_PATHS, ids=lambda p: p.name)
def test_schema_snapshot(path, specs):
    spec = specs[path.name]
    current = {
        "tool": spec.tool_name,
        "description": spec.description,
        "inputSchema": input_schema(spec),
        "outputSchema": output_schema(spec),
    }
    snapshot = SNAPSHOTS / f"{path.stem}.json"
    if os.environ.get("UPDATE_SNAPSHOTS") == "1" or not snapshot.exists():
        snapshot.write_text(to_json(current))
    assert from_json(to_json(current)) == from_json(snapshot.read_text()), (
        f"{snapshot.name} is out of date; rerun with UPDATE_SNAPSHOTS=1 if the change is intended"
    )


@pytest.mark.parametrize("path", SAMPLE_PATHS, ids=lambda p: p.name)
def test_schemas_are_valid_json_schema(path, specs):
    spec = specs[path.name]
    for schema in (input_schema(spec), output_schema(spec)):
        jsonschema.Draft202012Validator.check_schema(from_json(to_json(schema)))
        assert schema["type"] == "object"


def validate(instance: Any, schema: dict) -> None:
    jsonschema.Draft202012Validator(from_json(to_json(schema))).validate(from_json(to_json(instance)))


@pytest.mark.parametrize("path", SAMPLE_PATHS, ids=lambda p: p.name)
def test_initial_outputs_match_output_schema(path, specs):
    """Whatever an untouched record decodes to (zeros, spaces, VALUEs) is allowed by the output schema."""
    spec = specs[path.name]
    buffers = [initial_bytes(r.field) for r in spec.records]
    validate(decode_outputs(spec, buffers), output_schema(spec))
    validate(decode_outputs(spec, [b" " * len(b) for b in buffers]), output_schema(spec))  # nulls for numbers


@settings(max_examples=200, deadline=None)
@given(values_for(ECHO.records[0].field))
def test_valid_arguments_match_both_schemas(arguments):
    validate(arguments, input_schema(ECHO))
    data, initial = encode_inputs(ECHO, arguments)
    validate(decode_outputs(ECHO, [initial, data]), output_schema(ECHO))


@settings(max_examples=200, deadline=None)
@given(values_for(ZOO.records[0].field))
def test_inout_record_schemas(arguments):
    validate(arguments, input_schema(ZOO))
    (data,) = encode_inputs(ZOO, arguments)
    validate(decode_outputs(ZOO, [data]), output_schema(ZOO))


@settings(max_examples=200, deadline=None)
@given(st.binary(min_size=ECHO.records[1].size, max_size=ECHO.records[1].size))
def test_any_bytes_decode_within_the_output_schema(data):
    notes: list[str] = []
    result = decode_outputs(ECHO, [bytes(ECHO.records[0].size), data], notes)
    validate(result, output_schema(ECHO))
    assert all(note.endswith("reported as null") for note in notes)


def test_schema_details(specs):
    add_in = input_schema(specs["add-numbers.cob"])
    assert add_in["required"] == ["a", "b"] and add_in["additionalProperties"] is False
    assert add_in["properties"]["a"] == {
        "description": "First addend. PIC S9(9)V99: signed, up to 9 integer digits and 2 decimal places.",
        "type": "number",
        "minimum": Decimal("-999999999.99"),
        "maximum": Decimal("999999999.99"),
    }
    assert output_schema(specs["add-numbers.cob"])["properties"]["sum_ab"]["type"] == ["number", "null"]

    comm = specs["COMMAREA.cbl"]
    props = input_schema(comm)["properties"]
    assert input_schema(comm)["required"] == ["ca_account"]
    # 88-levels: the item's own values, and the names of one value beside them; the default is the VALUE
    assert props["ca_function"]["anyOf"] == [
        {"type": "string", "maxLength": 1},
        {"type": "string", "enum": ["ca_inquire", "ca_update"]},
    ]
    assert "ca_inquire = 'I'; ca_update = 'U'" in props["ca_function"]["description"]
    assert props["ca_function"]["default"] == "I"
    assert "ca_status" not in props  # set on every path before any read: a result only
    assert "ca_account" not in output_schema(comm)["properties"]  # only read: an argument only
    assert props["ca_recent"]["minItems"] == props["ca_recent"]["maxItems"] == 3
    assert props["ca_owner"]["default"] == "UNKNOWN"
    status_out = output_schema(comm)["properties"]["ca_status"]
    assert status_out["type"] == ["integer", "null"] and "anyOf" not in status_out  # reported as its value
    assert "ca_found = 0; ca_not_found = 10; ca_failed = 90 thru 99" in status_out["description"]

    zoo = output_schema(specs["usage-zoo.cob"])["properties"]
    native = zoo["native_numbers"]["properties"]["n_signed"]
    assert (native["minimum"], native["maximum"]) == (-32768, 32767)  # COMP-5 is not truncated to the digits
    zoo_in = input_schema(specs["usage-zoo.cob"])["properties"]
    assert zoo_in["native_numbers"]["properties"]["n_signed"]["maximum"] == 9999
    assert zoo_in["display_numbers"]["properties"]["d_scaled_up"]["multipleOf"] == 100
    assert zoo_in["texts"]["properties"]["t_alpha"]["pattern"] == "^[A-Za-z ]*$"
    assert "default" not in zoo_in["texts"]["properties"]["t_alnum"]

    two = input_schema(specs["two-records.cob"])
    assert list(two["properties"]) == ["customer_in", "order_in", "audit_area"]
    assert input_schema(specs["hello.cob"]) == {"type": "object", "properties": {}, "additionalProperties": False}
