"""PICTURE parsing, storage sizes, value ranges and exact fitting of decimal values."""

from __future__ import annotations

from decimal import Context, Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cobol_mcp.cobol.linkage.pic import (
    PictureError,
    binary_size,
    describe,
    from_stored,
    native_range,
    numeric_range,
    parse_picture,
    storage_size,
    to_stored,
)


@pytest.mark.parametrize(
    ("text", "category", "length", "digits", "nines", "scale", "signed"),
    [
        ("9(5)", "numeric", 5, 5, 5, 0, False),
        ("S9(3)V99", "numeric", 5, 5, 5, 2, True),
        ("s999v9(2)", "numeric", 5, 5, 5, 2, True),
        ("S9(3)PP", "numeric", 3, 5, 3, -2, True),
        ("SVPP99", "numeric", 2, 4, 2, 4, True),
        ("PP9", "numeric", 1, 3, 1, 3, False),
        ("9(3)PPV", "numeric", 3, 5, 3, -2, False),
        ("V99", "numeric", 2, 2, 2, 2, False),
        ("X(10)", "alphanumeric", 10, 0, 0, 0, False),
        ("XX99XX", "alphanumeric", 6, 0, 0, 0, False),
        ("A(4)", "alphabetic", 4, 0, 0, 0, False),
        ("XXBXX/X0", "alphanumeric-edited", 8, 0, 0, 0, False),
        ("Z,ZZ9.99", "numeric-edited", 8, 6, 0, 2, False),
        ("$$$9.99CR", "numeric-edited", 9, 6, 0, 2, True),
        ("ZZZV99", "numeric-edited", 5, 5, 0, 2, False),
        ("-9", "numeric-edited", 2, 2, 0, 0, True),
        ("99/99/9999", "numeric-edited", 10, 8, 0, 0, False),
    ],
)
def test_parse_picture(text, category, length, digits, nines, scale, signed):
    pic = parse_picture(text)
    assert (pic.category, pic.length, pic.nines, pic.scale, pic.signed) == (category, length, nines, scale, signed)
    if category == "numeric":
        assert pic.digits == digits  # what cobc reports as the item's digits
    assert pic.text == text.upper()


@pytest.mark.parametrize("text", ["", "9(3", "9)3(", "S", "9S9", "99V9V9", "P9P", "XS", "Q(3)", "SX(3)", "VPP"])
def test_bad_pictures(text):
    with pytest.raises(PictureError):
        parse_picture(text)


def test_binary_sizes_follow_gnucobol_1_2_4_8():
    assert [binary_size(d) for d in range(1, 19)] == [1, 1, 2, 2, 4, 4, 4, 4, 4, 8, 8, 8, 8, 8, 8, 8, 8, 8]
    with pytest.raises(PictureError):
        binary_size(19)


@pytest.mark.parametrize(
    ("text", "usage", "separate", "size"),
    [
        ("S9(3)V99", "display", False, 5),
        ("S9(3)V99", "display", True, 6),
        ("9(3)V99", "display", True, 5),  # no sign, nothing to separate
        ("S9(3)V99", "comp-3", False, 3),
        ("9(4)", "comp-3", False, 3),
        ("S9(18)", "comp-3", False, 10),
        ("9(3)PP", "binary", False, 2),
        ("S9(9)V99", "binary", False, 8),
        ("S9(4)", "comp-5", False, 2),
        ("X(7)", "display", False, 7),
    ],
)
def test_storage_size(text, usage, separate, size):
    assert storage_size(parse_picture(text), usage, separate) == size


def test_storage_size_of_floats_and_errors():
    assert storage_size(None, "comp-1") == 4
    assert storage_size(None, "comp-2") == 8
    with pytest.raises(PictureError, match="numeric PICTURE"):
        storage_size(parse_picture("X(3)"), "comp-3")
    with pytest.raises(PictureError, match="needs a PICTURE"):
        storage_size(None, "display")


def test_ranges():
    assert numeric_range(parse_picture("S9(29)V9(8)"))[1] == Decimal("99999999999999999999999999999.99999999")
    assert numeric_range(parse_picture("S9(3)V99")) == (Decimal("-999.99"), Decimal("999.99"))
    assert numeric_range(parse_picture("9(4)")) == (0, 9999)
    assert numeric_range(parse_picture("S9(3)PP")) == (-99900, 99900)
    assert numeric_range(parse_picture("SVPP99")) == (Decimal("-0.0099"), Decimal("0.0099"))
    assert native_range(parse_picture("S9(4)"), 2) == (-32768, 32767)
    assert native_range(parse_picture("9(2)"), 1) == (0, 255)
    assert native_range(parse_picture("S9(7)V99"), 4) == (Decimal("-21474836.48"), Decimal("21474836.47"))


@pytest.mark.parametrize(
    ("text", "value", "stored"),
    [
        ("S9(3)V99", "-12.34", -1234),
        ("S9(3)V99", "999.99", 99999),
        ("S9(3)V99", "1.5", 150),
        ("S9(3)V99", "1.50000", 150),
        ("S9(3)V99", "1E+2", 10000),
        ("S9(3)V99", "-0", 0),
        ("9(3)PP", "12300", 123),
        ("9(3)PP", "1.23E+4", 123),
        ("SVPP99", "-0.0012", -12),
        ("9(18)", "999999999999999999", 999999999999999999),
        ("S9(20)V9(18)", "-12345678901234567890.123456789012345678", -12345678901234567890123456789012345678),
    ],
)
def test_to_stored(text, value, stored):
    assert to_stored(Decimal(value), parse_picture(text)) == stored


@pytest.mark.parametrize(
    ("text", "value", "message"),
    [
        ("S9(3)V99", "1234.5", "at most 3 integer digits"),
        ("S9(3)V99", "1000", "at most 3 integer digits"),
        ("S9(3)V99", "1.234", "at most 2 decimal places"),
        ("9(3)", "1.5", "must be a whole number"),
        ("9(3)", "-1", "unsigned"),
        ("9(3)PP", "12345", "multiple of 100"),
        ("9(3)PP", "100000", "largest allowed magnitude is 99900"),
        ("SVPP99", "0.01", "largest allowed magnitude is 0.0099"),
        ("S9(3)V99", "1E+999999999", "at most 3 integer digits"),
        ("S9(3)V99", "1E-999999999", "at most 2 decimal places"),
        ("S9(3)V99", "NaN", "not a finite number"),
        ("S9(3)V99", "-Infinity", "not a finite number"),
        # more significant digits than Decimal's default context keeps: must not be rounded into fitting
        ("S9(3)V99", "1.000000000000000000000000000001", "at most 2 decimal places"),
    ],
)
def test_to_stored_rejects(text, value, message):
    with pytest.raises(PictureError, match=message):
        to_stored(Decimal(value), parse_picture(text))


EXACT = Context(prec=200)  # test-side arithmetic on 38-digit values must not round


@st.composite
def numeric_pictures(draw):
    nines = draw(st.integers(1, 38))
    decimals = draw(st.integers(0, nines))
    signed = draw(st.booleans())
    whole = nines - decimals
    text = ("S" if signed else "") + (f"9({whole})" if whole else "") + (f"V9({decimals})" if decimals else "")
    return parse_picture(text)


@settings(max_examples=200, deadline=None)
@given(numeric_pictures(), st.data())
def test_every_representable_value_fits_exactly(pic, data):
    low, high = numeric_range(pic)
    stored = data.draw(st.integers(to_stored(low, pic), to_stored(high, pic)))
    value = from_stored(stored, pic.scale)
    assert to_stored(value, pic) == stored
    # one more decimal place, or one more than the largest value, never fits
    with pytest.raises(PictureError):
        to_stored(EXACT.add(value, Decimal(1).scaleb(-pic.scale - 1)), pic)
    with pytest.raises(PictureError):
        to_stored(EXACT.add(high, Decimal(1).scaleb(-pic.scale)), pic)


def test_describe():
    assert describe(parse_picture("S9(3)V99")) == ("PIC S9(3)V99: signed, up to 3 integer digits and 2 decimal places")
    assert describe(parse_picture("9(4)")) == "PIC 9(4): not negative, whole number of up to 4 digits"
    assert "multiple of 100" in describe(parse_picture("9(3)PP"))
    assert "the first 2 always 0" in describe(parse_picture("SVPP99"))
    assert describe(parse_picture("X(3)")) == "PIC X(3): up to 3 characters"
    assert describe(parse_picture("A(3)")) == "PIC A(3): up to 3 letters and spaces"
    assert "edited" in describe(parse_picture("Z,ZZ9.99"))
    assert "single-precision" in describe(None, "comp-1")
    assert "double-precision" in describe(None, "comp-2")
