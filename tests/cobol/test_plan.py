"""Compiled codec plans: each item's encoder and decoder agree with the codec's scalar functions, whatever
the value or the bytes, and plans are cached per spec without touching it."""

from __future__ import annotations

import gc
import pickle
from decimal import Context, Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cobol_mcp.cobol.linkage.model import Field
from cobol_mcp.cobol.linkage.pic import numeric_range, to_stored
from cobol_mcp.cobol.linkage.program import parse_program
from cobol_mcp.cobol.records import codec, errors, items, shape
from cobol_mcp.cobol.records.codec import FieldError, decode_outputs, decode_scalar, encode_inputs, encode_scalar
from cobol_mcp.cobol.records.decoders import item_decoder
from cobol_mcp.cobol.records.encoders import item_encoder
from cobol_mcp.cobol.records.plan import Plan

from .conftest import reported
from .test_codec import ECHO, ZOO, scalar_values

PROGRAMS = Path(codec.__file__).parent.parent.parent / "programs"
BUNDLED = [parse_program(p) for p in sorted(PROGRAMS.glob("*.cob"))]
EXACT = Context(prec=200)  # test-side arithmetic on 38-digit values must not round


def elementary(f: Field):
    if not f.children:
        yield f
    for c in f.children:
        yield from elementary(c)


ITEMS = [f for spec in (ECHO, ZOO, *BUNDLED) for r in spec.records for f in elementary(r.field)]
NUMERIC = [f for f in ITEMS if f.category == "numeric"]


def reference_encode(f: Field, value: Any, path: str) -> bytes:
    """One occurrence of ``f`` as the codec module docstring describes it, through encode_scalar."""
    if f.conditions:  # a name of one value is stored as that value; anything else is the item's own
        single = shape.single_values(f)
        if isinstance(value, str) and value in single:
            try:
                return encode_scalar(f, single[value], path, shown=value)
            except FieldError:
                pass  # a VALUE the PIC cannot hold: the name is not offered
        several = {c.key: c for c in f.conditions if c.key not in single}
        if isinstance(value, str) and value in several:
            values = ", ".join(shape.show_values(several[value]))
            raise FieldError(path, f'"{path}": {value} stands for {values}: send the value itself', f.pic)
    if f.category in ("numeric", "float"):
        return encode_scalar(f, items.user_number(value, path, f), path, shown=value)
    if not isinstance(value, str):
        raise FieldError(
            path, f'"{path}" must be a string ({errors.pic_text(f)}), not {errors.json_type(value)}', f.pic
        )
    return encode_scalar(f, value, path, shown=value)


def outcome(fn, *args) -> tuple:
    try:
        return ("ok", fn(*args))
    except FieldError as exc:
        return ("error", str(exc), exc.path, exc.pic)


def encoded(f: Field, value: Any) -> bytes:
    buf = bytearray(b"#" * (f.offset + f.size + 2))
    item_encoder(f)(buf, value, "x", 0)
    assert buf[: f.offset] == b"#" * f.offset and buf[f.offset + f.size :] == b"##"
    return bytes(buf[f.offset : f.offset + f.size])


decimals = st.builds(
    lambda sign, digits, exponent: Decimal((sign, tuple(digits), exponent)),
    st.integers(0, 1),
    st.lists(st.integers(0, 9), min_size=1, max_size=42),
    st.integers(-45, 12),
)
junk = st.sampled_from([True, None, [], {}, "", " 1", "1 ", "x", "NaN", "1E+999999999", Decimal("NaN"),
                        Decimal("-Infinity"), float("inf"), "\u20ac", "caf\u00e9", "abc1", "0x10",
                        "-0", ".5", "5.", "-.5", "007.50", "+1.5", "-", ".", "1.2.3", "\u0661\u0662"])  # fmt: skip


def near_limits(f: Field) -> st.SearchStrategy:
    """Numbers around the PIC's limits and its last decimal place, in every accepted form."""
    assert f.picture is not None
    top = to_stored(numeric_range(f.picture)[1], f.picture)
    stored = st.integers(-top - 2, top + 2) | st.integers(-(10**40), 10**40)
    exponent = st.integers(-f.scale - 2, -f.scale + 2)
    number = st.builds(lambda n, e: Decimal(n).scaleb(e, EXACT), stored, exponent)
    return number | number.map(str) | number.map(lambda d: format(d, "f")) | stored | number.map(float)


def any_value(f: Field) -> st.SearchStrategy:
    choices = [scalar_values(f), junk]
    if f.category == "numeric":
        choices += [near_limits(f), decimals, st.integers(), st.floats(allow_nan=False)]
    elif f.category == "float":
        choices += [decimals, st.floats(), st.integers()]
    else:
        choices.append(st.text(st.characters(max_codepoint=300), max_size=f.size + 2))
    if f.conditions:
        choices.append(st.sampled_from([c.key for c in f.conditions]))
    return st.one_of(choices)


@settings(max_examples=600, deadline=None)
@given(st.data())
def test_item_encoders_agree_with_encode_scalar(data):
    f = data.draw(st.sampled_from(ITEMS))
    value = data.draw(any_value(f))
    assert outcome(encoded, f, value) == outcome(reference_encode, f, value, "x")


@settings(max_examples=500, deadline=None)
@given(st.data())
def test_numbers_agree_with_to_stored(data):
    f = data.draw(st.sampled_from(NUMERIC))
    value = data.draw(near_limits(f) | decimals)
    assert outcome(encoded, f, value) == outcome(reference_encode, f, value, "x")


def stored_bytes(f: Field) -> st.SearchStrategy:
    """Bytes a program may leave in ``f``: valid values, near misses, and anything at all."""
    valid = scalar_values(f).map(lambda v: reference_encode(f, Decimal(v) if isinstance(v, int) else v, "x"))
    mutated = st.tuples(valid, st.integers(0, f.size - 1), st.binary(min_size=1, max_size=1)).map(
        lambda t: t[0][: t[1]] + t[2] + t[0][t[1] + 1 :]
    )
    symbols = st.lists(st.sampled_from(list(b"0123456789 +-{}pqyJRAIz\x00\x0c\x0d\x0f\xff")), min_size=f.size,
                       max_size=f.size).map(bytes)  # fmt: skip
    return st.one_of(valid, mutated, symbols, st.binary(min_size=f.size, max_size=f.size))


def decodes_alike(f: Field, raw: bytes) -> None:
    value, why = decode_scalar(f, raw)
    expected = reported(f, value)  # an item with 88-levels too: reported as its value
    notes: list[str] = []
    got = item_decoder(f, "p")(b"#" * f.offset + raw + b"#", 0, notes, "p")
    assert repr(got) == repr(expected)  # repr: Decimal("1.10") and Decimal("1.1") differ
    assert notes == ([f"p: {why}; reported as null"] if why else [])
    assert repr(item_decoder(f)(b"#" * f.offset + raw, 0, None, None)) == repr(expected)


@settings(max_examples=600, deadline=None)
@given(st.data())
def test_item_decoders_agree_with_decode_scalar(data):
    f = data.draw(st.sampled_from(ITEMS))
    decodes_alike(f, data.draw(stored_bytes(f)))


@pytest.mark.parametrize("f", ITEMS, ids=lambda f: f.name)
def test_zero_in_every_spelling(f):
    """Signed zeros decode as plain 0; blanks only where BLANK WHEN ZERO allows."""
    n = f.size
    for z in (b"0" * n, b" " * n, b"0" * (n - 1) + b"p", b"p" + b"0" * (n - 1), b"0" * (n - 1) + b"}",
              b"-" + b"0" * (n - 1), b"0" * (n - 1) + b"-", b"+" + b"0" * (n - 1), bytes(n - 1) + b"\x0d"):  # fmt: skip
        decodes_alike(f, z[:n])


def test_notes_name_array_elements_and_nested_items():
    """Paths in notes are the codec's: array indexes and nested keys, with or without a fixed path."""
    out_record = ECHO.records[1]
    notes: list[str] = []
    result = decode_outputs(ECHO, [bytes(ECHO.records[0].size), b" " * out_record.size], notes)
    assert result["items"][1]["item_qty"] is None and result["items"][1]["item_flags"] == [None] * 3
    assert "items[1].item_qty: bytes 20 20 are not valid packed decimal; reported as null" in notes
    assert any(n.startswith("items[1].item_flags[2]: ") for n in notes)
    assert any(n.startswith("packed_group.pg_b: ") for n in notes)
    assert decode_outputs(ECHO, [bytes(ECHO.records[0].size), b" " * out_record.size]) == result


CONDITIONS = """
       01 FLAGS-OUT.
          05 CODE-A    PIC XX.
             88 FIRST-A  VALUES "AA" "BB".
             88 SECOND-A VALUES "BB" "CC" "D".
          05 CODE-R    PIC XX JUSTIFIED RIGHT.
             88 ONE-R    VALUE "Z".
             88 TWO-R    VALUES "Z" "YY".
          05 LEVEL-N   PIC S9V9.
             88 LOW-N    VALUES -1 0 0.5.
             88 HIGH-N   VALUES 0.5 9.9.
          05 RANGE-N   PIC 99.
             88 SMALL-N  VALUES 1 THRU 10 50.
             88 BIG-N    VALUES 5 THRU 99.
          05 BOTH-X    PIC X(3).
             88 LOW-X    VALUES "A" THRU "M" "ZZZ".
             88 ANY-X    VALUE "B" THRU "ZZZ".
"""


def test_items_with_conditions_decode_to_their_value(tmp_path):
    source = tmp_path / "flags.cob"
    source.write_text("IDENTIFICATION DIVISION.\nPROGRAM-ID. flags.\nDATA DIVISION.\nLINKAGE SECTION.\n"
                      f"{CONDITIONS}\nPROCEDURE DIVISION USING FLAGS-OUT.\n    GOBACK.\n")  # fmt: skip
    (record,) = parse_program(source).records
    for f in record.field.children:
        decode = item_decoder(f)
        for raw in [b"AA", b"BB", b"CC", b"D ", b" Z", b"YY", b"0}", b"05", b"99", b"01", b"10", b"50", b"07",
                    b"p0", b"00", b"A  ", b"B  ", b"ZZZ", b"N  ", b"M  ", b"\x00\x00"]:  # fmt: skip
            raw = (raw * f.size)[: f.size]
            data = bytes(f.offset) + raw
            value = decode_scalar(f, raw)[0]
            assert repr(decode(data, 0, None, None)) == repr(value), (f.name, raw)


def test_plans_are_cached_per_spec_and_leave_it_alone(specs):
    spec = parse_program(Path(__file__).parent / "samples" / "PAYROLL.CBL")
    pickled = pickle.dumps(spec)
    arguments = {"emp_id": 7, "emp_name": {"emp_last": "Hopper", "emp_first": "Grace"}, "hours_worked": "40",
                 "rate": 20, "deduction": [{"ded_code": "TX", "ded_amount": 1}] * 3}  # fmt: skip
    buffers = encode_inputs(spec, arguments)
    plan = codec._plans[id(spec)]
    assert encode_inputs(spec, arguments) == buffers and codec._plans[id(spec)] is plan
    assert decode_outputs(spec, buffers) == decode_outputs(specs["PAYROLL.CBL"], buffers)
    assert pickle.dumps(spec) == pickled  # nothing cached on the spec itself
    copy = pickle.loads(pickled)
    assert encode_inputs(copy, arguments) == buffers
    key = id(spec)
    del spec, plan
    gc.collect()
    assert key not in codec._plans  # dropped together with its spec


@pytest.mark.parametrize("value", [Decimal("1E+2"), Decimal("1.00E+2"), "1e2", 100.0, Decimal("0E-30"), Decimal("-0")])
def test_exponent_notation_and_zeros(value):
    f = next(f for f in ITEMS if f.name.upper() == "D-TRAILING")
    assert outcome(encoded, f, value) == outcome(reference_encode, f, value, "x")


SPECS = [ECHO, ZOO, *BUNDLED, parse_program(Path(__file__).parent / "samples" / "PAYROLL.CBL")]


def top_items(spec) -> list[tuple[str, Field]]:
    return [(k, f) for r in spec.records if (v := r.view("in")) is not None for k, f in shape.properties(v).items()]


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_records_joined_from_their_items_match_records_written_item_by_item(data):
    """A record whose items all have a bytes form is joined from them; it must be the very record the
    encoders write into the template, and refuse exactly what they refuse."""
    spec = data.draw(st.sampled_from(SPECS))
    arguments = {}
    for key, f in top_items(spec):
        if data.draw(st.booleans()) or not shape.has_default(f):
            arguments[key] = data.draw(any_value(f) if not f.children else st.just({}))
    joined = Plan(spec)
    written = Plan(spec)
    written.pieces = tuple(None for _ in written.pieces)
    assert outcome(joined.encode, arguments) == outcome(written.encode, arguments)


def test_the_bundled_records_are_joined_from_their_items():
    """The fast form is really taken for plain records (else the test above compares a path with itself)."""
    assert all(pieces is not None for spec in BUNDLED for pieces in Plan(spec).pieces)
