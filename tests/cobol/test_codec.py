"""JSON <-> record bytes: exact encodings per USAGE, argument checking, and round trips."""

from __future__ import annotations

import struct
import sys
from decimal import Context, Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cobol_mcp.cobol.linkage.model import Field, ProgramSpec
from cobol_mcp.cobol.linkage.pic import from_stored, native_range, numeric_range, to_stored
from cobol_mcp.cobol.linkage.program import parse_program
from cobol_mcp.cobol.records import shape
from cobol_mcp.cobol.records.codec import (
    DecodeError,
    FieldError,
    decode_outputs,
    decode_scalar,
    encode_inputs,
    encode_scalar,
)
from cobol_mcp.cobol.records.decoders import item_decoder
from cobol_mcp.cobol.records.encoders import item_encoder

from .conftest import COPYBOOKS, cobc, find, needs_cobc, reported

LITTLE = sys.byteorder == "little"
EXACT = Context(prec=200)  # test-side arithmetic on 38-digit values must not round


@pytest.fixture(scope="module")
def zoo(specs) -> Field:
    return specs["usage-zoo.cob"].records[0].field


def enc(zoo: Field, name: str, value) -> bytes:
    f = find(zoo, name)
    return encode_scalar(f, value if isinstance(value, str) and f.category != "numeric" else Decimal(value))


def dec(zoo: Field, name: str, raw: bytes):
    return decode_scalar(find(zoo, name), raw)[0]


# ----------------------------------------------------------------------------------- exact bytes per USAGE


@pytest.mark.parametrize(
    ("name", "value", "raw"),
    [
        ("D-UNSIGNED", "42", b"00042"),
        ("D-TRAILING", "-12.34", b"0123t"),  # GnuCOBOL: negative digit d is chr(0x70 + d)
        ("D-TRAILING", "12.34", b"01234"),  # positive: plain digits
        ("D-TRAILING", "-10", b"0100p"),
        ("D-LEADING", "-12.34", b"p1234"),
        ("D-LEAD-SEP", "-12.34", b"-01234"),
        ("D-LEAD-SEP", "12.34", b"+01234"),
        ("D-TRAIL-SEP", "-12.34", b"01234-"),
        ("D-TRAIL-SEP", "0", b"00000+"),
        ("D-BLANK-ZERO", "0", b"    "),
        ("D-BLANK-ZERO", "7", b"0007"),
        ("D-SCALED-UP", "-12300", b"12s"),
        ("D-SCALED-DOWN", "-0.0012", b"1r"),
        ("SG-A", "-5", b"-05"),
        ("P-ODD", "-12.34", bytes.fromhex("0001234d")),
        ("P-ODD", "12.34", bytes.fromhex("0001234c")),
        ("P-EVEN", "12", bytes.fromhex("00012f")),
        ("P-UNSIGNED", "12.3", bytes.fromhex("00123f")),
        ("IP-A", "-1", bytes.fromhex("001d")),
        ("B-TINY", "99", b"\x63"),
        ("B-SHORT", "-2", b"\xff\xfe"),
        ("B-LONG", "-1.5", (-150).to_bytes(8, "big", signed=True)),
        ("B-SCALED", "12300", (123).to_bytes(2, "big")),
        ("IB-B", "123456", (123456).to_bytes(4, "big")),
        ("N-SIGNED", "-2", (-2).to_bytes(2, sys.byteorder, signed=True)),
        ("N-UNSIGNED", "999999999", (999999999).to_bytes(4, sys.byteorder)),
        ("N-DECIMAL", "-1.01", (-101).to_bytes(4, sys.byteorder, signed=True)),
        ("F-SINGLE", "1.5", struct.pack("=f", 1.5)),
        ("F-DOUBLE", "-2.25", struct.pack("=d", -2.25)),
        ("T-ALNUM", "hi", b"hi        "),
        ("T-ALPHA", "Ab c", b"Ab c "),
        ("T-RIGHT", "ab", b"    ab"),
        ("T-ALNUM", "caf\u00e9", b"caf\xe9      "),
    ],
)
def test_exact_bytes(zoo, name, value, raw):
    assert enc(zoo, name, value) == raw
    decoded = dec(zoo, name, raw)
    expected = value if find(zoo, name).category not in ("numeric", "float") else Decimal(value)
    assert decoded == expected


def test_gnucobol_byte_conventions():
    """What GnuCOBOL 3.1.2 itself writes for these values (checked with a compiled MOVE + DISPLAY)."""
    if LITTLE:
        assert struct.pack("=f", 1.5) == b"\x00\x00\xc0\x3f"


@pytest.mark.parametrize(
    ("name", "raw", "value"),
    [
        ("D-TRAILING", b"0123}", "-12.30"),  # EBCDIC-style overpunch, as other compilers write it
        ("D-TRAILING", b"0123J", "-12.31"),
        ("D-TRAILING", b"0123R", "-12.39"),
        ("D-TRAILING", b"0123{", "12.30"),
        ("D-TRAILING", b"0123A", "12.31"),
        ("D-TRAILING", b"0123I", "12.39"),
        ("D-TRAILING", b"0123y", "-12.39"),
        ("D-LEADING", b"}1234", "-12.34"),
        ("D-BLANK-ZERO", b"    ", "0"),
        ("P-ODD", bytes.fromhex("0001234b"), "-12.34"),
        ("P-ODD", bytes.fromhex("0001234f"), "12.34"),
        ("P-ODD", bytes.fromhex("0001234a"), "12.34"),
        ("N-SIGNED", (-32768).to_bytes(2, sys.byteorder, signed=True), "-32768"),  # COMP-5 is not truncated
        ("N-UNSIGNED", b"\xff\xff\xff\xff", "4294967295"),
    ],
)
def test_decode_conventions(zoo, name, raw, value):
    assert dec(zoo, name, raw) == Decimal(value)


@pytest.mark.parametrize(
    ("name", "raw", "why"),
    [
        ("D-UNSIGNED", b"     ", "not a valid PIC 9(5) value"),
        ("D-UNSIGNED", b"00p42", "not a valid"),
        ("D-TRAILING", b"01 34", "not a valid"),
        ("D-LEAD-SEP", b" 01234", "no + or - sign"),
        ("P-ODD", bytes.fromhex("0001234d")[:3] + b"\x40", "not valid packed decimal"),
        ("P-ODD", bytes.fromhex("00a1234c"), "not valid packed decimal"),
        ("P-EVEN", bytes.fromhex("10000f"), "outside the range of PIC 9(4)"),  # the spare high nibble
        ("P-UNSIGNED", bytes.fromhex("00123d"), "outside the range"),
        ("B-SHORT", (10000).to_bytes(2, "big"), "outside the range of PIC S9(4)"),  # COMP keeps to the digits
        ("F-DOUBLE", struct.pack("=d", float("nan")), "NaN or infinity"),
    ],
)
def test_invalid_data_decodes_as_null(zoo, name, raw, why):
    value, reason = decode_scalar(find(zoo, name), raw)
    assert value is None
    assert why in reason


def test_text_trimming(zoo):
    assert dec(zoo, "T-ALNUM", b"  a b     ") == "  a b"
    assert dec(zoo, "T-RIGHT", b"  ab  ") == "ab"  # JUSTIFIED RIGHT: both sides
    assert dec(zoo, "T-ALNUM", b"\x00\x00        ") == "\x00\x00        "  # data, not text: kept whole
    assert dec(zoo, "T-ALNUM", b"Zn~\n\x1a&6   ") == "Zn~\n\x1a&6   "  # a masked block ending in X'20'


def test_float_decoding_is_shortest(zoo):
    assert dec(zoo, "F-SINGLE", struct.pack("=f", 0.1)) == Decimal("0.1")
    assert dec(zoo, "F-DOUBLE", struct.pack("=d", 0.1)) == Decimal("0.1")
    assert dec(zoo, "F-SINGLE", struct.pack("=f", 3.4e38)) == Decimal("3.4E+38")


# ------------------------------------------------------------------------------------ argument checking


@pytest.fixture(scope="module")
def add(specs) -> ProgramSpec:
    return specs["add-numbers.cob"]


@pytest.mark.parametrize(
    ("arguments", "path", "message"),
    [
        ({"a": 1}, "b", "missing required argument 'b' (PIC S9(9)V99)"),
        ({"a": 1, "b": 2, "c": 3}, "c", "unexpected argument 'c'; expected: a, b"),
        ({"a": True, "b": 1}, "a", '"a" must be a number (PIC S9(9)V99), not a boolean'),
        ({"a": None, "b": 1}, "a", "not null"),
        ({"a": [1], "b": 1}, "a", "not an array"),
        ({"a": Decimal("NaN"), "b": 1}, "a", '"a": NaN is not a finite number'),
        ({"a": Decimal("Infinity"), "b": 1}, "a", "not a finite number"),
        ({"a": float("inf"), "b": 1}, "a", "not a finite number"),
        ({"a": "1.234", "b": 1}, "a", '"a": "1.234" does not fit PIC S9(9)V99 (at most 2 decimal places)'),
        ({"a": 1234567890, "b": 1}, "a", '"a": 1234567890 does not fit PIC S9(9)V99 (at most 9 integer digits)'),
        ({"a": " 1", "b": 1}, "a", "is not a plain decimal number"),
        ({"a": "0x10", "b": 1}, "a", "is not a plain decimal number"),
        ({"a": "", "b": 1}, "a", "is not a plain decimal number"),
    ],
)
def test_argument_errors(add, arguments, path, message):
    with pytest.raises(FieldError) as info:
        encode_inputs(add, arguments)
    assert message in str(info.value)
    assert info.value.path == path


def test_numbers_in_every_accepted_form(add):
    expected = encode_inputs(add, {"a": Decimal("1000"), "b": -3})
    for a in (1000, Decimal("1E+3"), "1E+3", "1000.00", "+1000", 1000.0, "1000."):
        for b in (-3, "-3", Decimal("-3.0"), -3.0):
            assert encode_inputs(add, {"a": a, "b": b}) == expected
    assert encode_inputs(add, {"a": ".5", "b": 0})[0] == b"00000000050" + b"00000000000"


def test_arguments_must_be_an_object(add, specs):
    with pytest.raises(FieldError, match="arguments must be an object"):
        encode_inputs(add, [])  # type: ignore[arg-type]
    assert encode_inputs(specs["hello.cob"], None) == []
    with pytest.raises(FieldError, match="unexpected argument 'x'; expected: no arguments"):
        encode_inputs(specs["hello.cob"], {"x": 1})


def test_nested_structures_and_conditions(specs):
    pay = specs["PAYROLL.CBL"]
    args = {
        "emp_id": 123456,
        "emp_name": {"emp_last": "Hopper", "emp_first": "Grace"},
        "hours_worked": Decimal("42.5"),
        "rate": Decimal("25.00"),
        "deduction": [
            {"ded_code": "TX", "ded_amount": 100},
            {"ded_code": "HI", "ded_amount": "20.5"},
            {"ded_code": "", "ded_amount": 0},
        ],
    }
    request, response = encode_inputs(pay, args)
    assert request[:6] == b"123456"
    assert request[41:42] == b"H"  # emp_pay_type defaults to its VALUE
    assert request[52:56] == b"PAY1"  # FILLER VALUE
    assert request[56:62] == b"TX" + bytes.fromhex("0010000f")
    assert response == b"\x00\x00\x00\x00\x0c" * 2 + b" " * 57  # out record: zero COMP-3, spaces
    assert encode_inputs(pay, {**args, "emp_pay_type": "salaried"})[0][41:42] == b"S"

    def fails(change: dict, path: str, message: str) -> None:
        with pytest.raises(FieldError) as info:
            encode_inputs(pay, {**args, **change})
        assert info.value.path == path
        assert message in str(info.value)

    assert encode_inputs(pay, {**args, "emp_pay_type": "X"})[0][41:42] == b"X"  # its own values, named or not
    fails(
        {"deduction": [{"ded_code": "TX"}, *args["deduction"][1:]]},
        "deduction[0].ded_amount",
        "missing required property 'deduction[0].ded_amount'",
    )
    # EMP-NAME is never used by the program: accepted, each part optional
    assert encode_inputs(pay, {**args, "emp_name": {"emp_last": "x"}})[0][6:41] == b"x".ljust(35)
    fails(
        {"emp_name": {"emp_last": "x", "emp_first": "y", "middle": "z"}},
        "emp_name.middle",
        "unexpected property 'emp_name.middle'; expected: emp_last, emp_first",
    )
    fails({"emp_name": "Grace Hopper"}, "emp_name", '"emp_name" must be an object, not a string')
    fails({"deduction": []}, "deduction", "must be an array of exactly 3 items (OCCURS 3), got 0 items")
    fails(
        {"deduction": [*args["deduction"][:2], {"ded_code": "XY", "ded_amount": -1}]},
        "deduction[2].ded_amount",
        '"deduction[2].ded_amount": -1 does not fit PIC 9(5)V99 (the PIC is unsigned',
    )
    fails(
        {"emp_name": {"emp_last": "x" * 21, "emp_first": ""}},
        "emp_name.emp_last",
        '"emp_name.emp_last": "xxxxxxxxxxxxxxxxxxxxx" does not fit PIC X(20) (21 characters, at most 20)',
    )
    fails(
        {"emp_name": {"emp_last": "\u20ac", "emp_first": ""}},
        "emp_name.emp_last",
        "character '\u20ac' cannot be stored in PIC X(20) (only Latin-1 characters fit)",
    )
    fails({"emp_id": 12.5}, "emp_id", "must be a whole number")


def fails_on(spec, arguments, message):
    with pytest.raises(FieldError, match=message):
        encode_inputs(spec, arguments)


def test_defaults_and_group_values(specs):
    (data,) = encode_inputs(specs["COMMAREA.cbl"], {"ca_account": 42})
    assert data[:10] == b"0000000042"
    assert data[10:14] == b"I   "
    assert data[14:21] == bytes.fromhex("0000000000000c")
    assert data[21:23] == b"00"
    assert data[23:50] == b"000000000" * 3
    assert data[50:] == b"UNKNOWN".ljust(30)
    fails_on(specs["COMMAREA.cbl"], {}, "missing required argument 'ca_account'")
    fails_on(specs["COMMAREA.cbl"], {"ca_account": 1, "ca_account_x": "1"}, "unexpected argument 'ca_account_x'")
    fails_on(specs["usage-zoo.cob"], {}, "missing required argument 'display_numbers'")


def test_alphabetic_and_edited_inputs(specs, zoo):
    with pytest.raises(FieldError, match="letters and spaces only"):
        enc(zoo, "T-ALPHA", "ab1")
    edit = specs["edited-out.cob"]
    request, _ = encode_inputs(edit, {"amount": 1, "when_date": 20240131, "preset_text": "12.50"})
    assert request[-8:] == b"   12.50"  # numeric-edited text is right-aligned
    fails_on(edit, {"amount": 1, "when_date": 1, "preset_text": 12.5}, "must be a string")
    fails_on(edit, {"amount": 1, "when_date": 1, "preset_text": "123456789"}, "at most 8")


def test_float_limits(zoo):
    with pytest.raises(FieldError, match="too large for USAGE COMP-1"):
        enc(zoo, "F-SINGLE", "1E+39")
    with pytest.raises(FieldError, match="too large for USAGE COMP-2"):
        enc(zoo, "F-DOUBLE", "1E+309")
    assert dec(zoo, "F-DOUBLE", enc(zoo, "F-DOUBLE", "0.1")) == Decimal("0.1")


def test_per_record_shape_when_names_collide(specs):
    spec = specs["two-records.cob"]
    args = {
        "customer_in": {"ref_no": 7, "name": "Ada"},
        "order_in": {"ref_no": 99, "customer_ref": 7, "total": "10.5"},
        "audit_area": {"ref_no": 1, "calls": 2},
    }
    customer, order, _result, audit = encode_inputs(spec, args)
    assert customer == b"000007" + b"Ada".ljust(20)
    assert order[:14] == b"00000099000007" and order[14:] == bytes.fromhex("000001050f")
    assert audit == (1).to_bytes(2, sys.byteorder) + (2).to_bytes(2, sys.byteorder)
    fails_on(spec, {**args, "ref_no": 1}, "unexpected argument 'ref_no'; expected: customer_in, order_in, audit_area")
    fails_on(spec, {k: v for k, v in args.items() if k != "order_in"}, "missing required argument 'order_in'")
    outputs = decode_outputs(spec, [customer, order, b"Y00000099", audit])
    # AUDIT-AREA's REF-NO is never used (not reported), so the results' names do not collide: one object
    assert outputs == {"matched": "Y", "ref_no": 99, "calls": 2}  # MATCHED as its value: the 88 names are in the schema
    assert decode_outputs(spec, [customer, order, b"?00000099", audit])["matched"] == "?"


def test_scalar_records(specs):
    spec = specs["scalars.cob"]
    amount, text = encode_inputs(spec, {"amount_in": "-1234.5"})
    assert (amount, text) == (b"0000012345p", b" " * 20)
    assert decode_outputs(spec, [amount, b"-$1,234.50".ljust(20)]) == {"text_out": "-$1,234.50"}


def test_conditions_on_output(specs):
    """An item with 88-levels is reported as its value, named or not (a name over 90 thru 99 would lose it)."""
    (rec,) = specs["COMMAREA.cbl"].records
    status = find(rec.field, "CA-STATUS")
    for raw, expected in [(b"00", 0), (b"10", 10), (b"95", 95), (b"42", 42)]:
        assert item_decoder(status)(bytes(status.offset) + raw, 0, None, None) == expected


def test_decode_errors_and_notes(specs):
    spec = specs["add-numbers.cob"]
    with pytest.raises(DecodeError, match="1 buffers for 2 records"):
        decode_outputs(spec, [b""])
    with pytest.raises(DecodeError, match="record ADD-OUT is 3 bytes, expected 12"):
        decode_outputs(spec, [b" " * 22, b"123"])
    notes: list[str] = []
    assert decode_outputs(spec, [b" " * 22, b" " * 12], notes) == {"sum_ab": None}
    assert notes == ["sum_ab: b'            ' is not a valid PIC S9(10)V99 value; reported as null"]


def test_inout_record_round_trip(specs):
    # The program only reads CA-ACCOUNT (not reported back) and sets CA-STATUS on every path (not an
    # argument: it starts as its VALUE); CA-BALANCE and CA-OWNER (set on one path) go in and come back;
    # CA-FUNCTION and CA-RECENT (never used) are accepted and not reported.
    spec = specs["COMMAREA.cbl"]
    args = {
        "ca_account": 42,
        "ca_function": "ca_update",
        "ca_balance": -5,
        "ca_recent": [1, "-2.5", Decimal("9999999.99")],
        "ca_owner": "Zaphod",
    }
    (data,) = encode_inputs(spec, args)
    back = {k: v for k, v in args.items() if k in ("ca_balance", "ca_owner")}
    assert decode_outputs(spec, [data]) == {**back, "ca_status": 0}  # CA-FOUND, reported as its value
    assert data[10:11] == b"U"  # the unused CA-FUNCTION still reaches the program as sent
    fails_on(spec, {**args, "ca_status": "ca_failed"}, "unexpected argument 'ca_status'")


# ------------------------------------------------------------------------------ bytes written by COBOL itself

KNOWN_MOVES = """
    MOVE 1234 TO COUNT-U            MOVE -123.45 TO AMOUNT          MOVE -7 TO LEAD-SIGN
    MOVE -12.5 TO SEP-LEAD          MOVE 42 TO SEP-TRAIL            MOVE 0 TO BLANK-ZERO
    MOVE -12345.67 TO PACKED-ODD    MOVE 12 TO PACKED-EVEN          MOVE 99 TO BIN-TINY
    MOVE -2 TO BIN-SHORT            MOVE -1234567.89 TO BIN-LONG    MOVE 123456789012345678 TO BIN-HUGE
    MOVE -9999 TO NATIVE-S          MOVE 999999999 TO NATIVE-U      MOVE 1.5 TO FLOAT-S
    MOVE -2.25 TO FLOAT-D           MOVE 12300 TO SCALED-UP         MOVE -0.0012 TO SCALED-DOWN
    MOVE "Grace Hopper" TO NAME     MOVE "GMH" TO INITIALS          MOVE "ab" TO RIGHT-TEXT
    SET CLOSED TO TRUE              SET TOP-LEVEL TO TRUE           MOVE "T" TO SYNC-TAG
    MOVE -99 TO SYNC-BIN            MOVE "AB1" TO ITEM-CODE (1)     MOVE -5 TO ITEM-QTY (1)
    MOVE 1 TO ITEM-FLAGS (1, 1)     MOVE 0 TO ITEM-FLAGS (1, 2)     MOVE 9 TO ITEM-FLAGS (1, 3)
    MOVE "CD2" TO ITEM-CODE (2)     MOVE 999 TO ITEM-QTY (2)        MOVE 2 TO ITEM-FLAGS (2, 1)
    MOVE 3 TO ITEM-FLAGS (2, 2)     MOVE 4 TO ITEM-FLAGS (2, 3)     MOVE -1 TO PG-A
    MOVE 2.5 TO PG-B                MOVE 20240131 TO DATE-NUM
    MOVE -12345678901234567890.123456789012345678 TO HUGE-DISPLAY
    MOVE 9999999999999999999999999999999.9999999 TO HUGE-PACKED
"""
KNOWN_VALUES = {
    "count_u": 1234,
    "amount": Decimal("-123.45"),
    "lead_sign": -7,
    "sep_lead": Decimal("-12.5"),
    "sep_trail": 42,
    "blank_zero": 0,
    "packed_odd": Decimal("-12345.67"),
    "packed_even": 12,
    "bin_tiny": 99,
    "bin_short": -2,
    "bin_long": Decimal("-1234567.89"),
    "bin_huge": 123456789012345678,
    "native_s": -9999,
    "native_u": 999999999,
    "float_s": Decimal("1.5"),
    "float_d": Decimal("-2.25"),
    "scaled_up": 12300,
    "scaled_down": Decimal("-0.0012"),
    "name": "Grace Hopper",
    "initials": "GMH",
    "right_text": "ab",
    "status_code": "C",  # SET CLOSED TO TRUE: the first of its values
    "level_num": 99,
    "sync_tag": "T",
    "sync_bin": -99,
    "items": [
        {"item_code": "AB1", "item_qty": -5, "item_flags": [1, 0, 9]},
        {"item_code": "CD2", "item_qty": 999, "item_flags": [2, 3, 4]},
    ],
    "packed_group": {"pg_a": -1, "pg_b": Decimal("2.5")},
    "date_num": 20240131,
    "huge_display": Decimal("-12345678901234567890.123456789012345678"),
    "huge_packed": Decimal("9999999999999999999999999999999.9999999"),
}


@needs_cobc
def test_bytes_match_what_cobol_moves_produce(tmp_path: Path, specs):
    source = tmp_path / "known.cob"
    source.write_text(
        "IDENTIFICATION DIVISION.\nPROGRAM-ID. known-values.\nDATA DIVISION.\nWORKING-STORAGE SECTION.\n"
        f"01 ECHO-IN.\n   COPY echo-fields.\nPROCEDURE DIVISION.\n{KNOWN_MOVES}\n"
        "    DISPLAY ECHO-IN WITH NO ADVANCING\n    STOP RUN.\n"
    )
    done = cobc("-x", "-free", "-I", str(COPYBOOKS), "-o", str(tmp_path / "known"), str(source))
    assert done.returncode == 0, done.stderr
    import subprocess

    from_cobol = subprocess.run([str(tmp_path / "known")], capture_output=True, timeout=30).stdout
    spec = specs["echo-all.cob"]
    ours, _ = encode_inputs(spec, KNOWN_VALUES)
    assert ours == from_cobol
    assert decode_outputs(spec, [ours, from_cobol]) == reported(spec.records[0].field, KNOWN_VALUES)


# ------------------------------------------------------------------------------------- property: round trip


def scalar_values(f: Field) -> st.SearchStrategy:
    """Any value the item can hold, in the form decode_scalar gives it back."""
    if f.category == "numeric":  # an item with 88-levels too: it takes and gives back its own values
        assert f.picture is not None
        low, high = numeric_range(f.picture)
        stored = st.integers(to_stored(low, f.picture), to_stored(high, f.picture))
        return stored.map(lambda n: from_stored(n, f.scale) if f.scale > 0 else n * 10**-f.scale)
    if f.category == "float":
        if f.usage == "comp-1":
            floats = st.floats(width=32, allow_nan=False, allow_infinity=False)
            return floats.map(lambda x: decode_scalar(f, struct.pack("=f", x))[0])
        return st.floats(allow_nan=False, allow_infinity=False).map(lambda x: Decimal(repr(x)))
    alphabet = "ABCXYZabcxyz " if f.category == "alphabetic" else st.characters(max_codepoint=255)
    text = st.text(alphabet=alphabet, max_size=f.size)
    return text.map(lambda s: _as_decoded(f, s))


def _as_decoded(f: Field, s: str) -> str:
    """The text as the decoder reports it: trailing spaces trimmed, unless it holds a control byte
    (then it is data, and every byte of the item comes back)."""
    if f.justified or "edited" in f.category:
        return s.strip(" ")
    if any(ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F for c in s):
        return s.ljust(f.size)
    return s.rstrip(" ")


def values_for(f: Field) -> st.SearchStrategy:
    if f.is_group:
        one = st.fixed_dictionaries({c.key: values_for(c) for c in f.children if c.exposed})
    else:
        one = scalar_values(f)
    return st.lists(one, min_size=f.occurs, max_size=f.occurs) if f.occurs and f.level > 1 else one


def elementary(f: Field):
    if not f.children:
        yield f
    for c in f.children:
        if c.exposed:
            yield from elementary(c)


ECHO = parse_program(Path(__file__).parent / "samples" / "echo-all.cob")
ZOO = parse_program(Path(__file__).parent / "samples" / "usage-zoo.cob")
ELEMENTARY = [f for spec in (ECHO, ZOO) for f in elementary(spec.records[0].field) if not f.conditions]


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_every_item_round_trips(data):
    f = data.draw(st.sampled_from(ELEMENTARY))
    value = data.draw(scalar_values(f))
    typed = Decimal(value) if isinstance(value, int) else value
    raw = encode_scalar(f, typed)
    assert len(raw) == f.size
    assert decode_scalar(f, raw) == (value, "")


@settings(max_examples=200, deadline=None)
@given(values_for(ECHO.records[0].field))
def test_whole_record_round_trips(arguments):
    data, initial = encode_inputs(ECHO, arguments)
    assert len(data) == len(initial) == ECHO.records[0].size
    assert decode_outputs(ECHO, [initial, data]) == reported(ECHO.records[0].field, arguments)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_unrepresentable_values_are_rejected(data):
    f = data.draw(st.sampled_from([f for f in ELEMENTARY if f.category != "float"]))
    if f.category == "numeric":
        assert f.picture is not None
        low, high = numeric_range(f.picture)
        step = Decimal(1).scaleb(-max(f.scale, 0))
        add = EXACT.add
        bad = data.draw(
            st.one_of(
                st.integers(1, 10**20).map(lambda n: add(high, n * step)),
                st.integers(1, 10**20).map(lambda n: add(low, -n * step)) if f.signed else st.just(Decimal(-1)),
                st.integers(1, 9).map(lambda d: add(low, Decimal(d).scaleb(-f.scale - 1))),  # one decimal too many
                st.sampled_from([True, None, "x", [], {}, "1 ", "NaN"]),
            )
        )
    else:
        bad = data.draw(
            st.one_of(
                st.text(st.characters(max_codepoint=255), min_size=f.size + 1, max_size=f.size + 4),
                st.text(st.characters(min_codepoint=256), min_size=1, max_size=1),
                st.sampled_from([1, Decimal(1), True, None, []]),
            )
        )
    with pytest.raises(FieldError):
        item_encoder(f)(bytearray(f.offset + f.size), bad, "x", 0)


def test_comp5_output_range_is_the_whole_integer():
    f = find(ZOO.records[0].field, "N-SIGNED")
    assert f.picture is not None
    assert native_range(f.picture, f.size) == (-32768, 32767)
    assert decode_scalar(f, (32767).to_bytes(2, sys.byteorder, signed=True))[0] == 32767


def test_items_with_conditions_take_every_value_they_can_hold():
    """88-levels document an item's values, never narrow them: LEVEL-NUM (PIC 99, LOW-LEVEL 0 THRU 9,
    TOP-LEVEL 99) takes 5 and 42 as they are, and top_level, the name of one value, as 99; low_level
    names ten values and is refused with what to send instead."""
    fields = {f.key: f for f in elementary(ECHO.records[0].field)}
    level, status = fields["level_num"], fields["status_code"]
    assert shape.single_values(level) == {"top_level": 99}
    assert shape.single_values(status) == {"active": "A"}  # CLOSED "C" "X" and PENDING "P" THRU "R": several
    encode = item_encoder(level)
    for value, stored in [(5, b"05"), (42, b"42"), ("7", b"07"), ("top_level", b"99")]:
        buf = bytearray(level.offset + level.size)
        encode(buf, value, "level_num", 0)
        assert buf[level.offset :] == stored, value
    with pytest.raises(FieldError, match=r'"level_num": low_level stands for 0 thru 9: send the value itself'):
        encode(bytearray(level.offset + level.size), "low_level", "level_num", 0)
    for value, stored in [("Q", b"Q"), ("X", b"X"), ("active", b"A")]:
        buf = bytearray(status.offset + status.size)
        item_encoder(status)(buf, value, "status_code", 0)
        assert buf[status.offset :] == stored, value
