"""The bundled tools' quick argument check agrees with the full one wherever it answers."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cobol_mcp.bundled import exact_decimal, plain_scale
from cobol_mcp.cobol import is_plain_decimal
from cobol_mcp.cobol.tool import ArgumentError

plain_text = st.from_regex(r"-?[0-9]{0,32}(\.[0-9]{0,10})?", fullmatch=True)
other_text = st.text(st.sampled_from("0123456789.-+eE \u0661x"), max_size=12)
values = plain_text | other_text | st.integers(-(10**31), 10**31)


@settings(max_examples=800, deadline=None)
@given(values)
def test_plain_scale_agrees_with_exact_decimal(value):
    scale = plain_scale(value, 29, 8)
    if scale is None:
        return  # exact_decimal alone judges it
    number, exact_scale = exact_decimal("a", value, 29, 8)  # must not raise: plain_scale let it through
    assert (Decimal(value), scale) == (number, exact_scale)


@pytest.mark.parametrize("value, scale", [
    ("1.10", 2), ("-5", 0), (".5", 1), ("5.", 0), ("-0", 0), ("0" * 40 + "1.5", 1),
    ("9" * 29 + ".99999999", 8), (10**29 - 1, 0),
    ("9" * 30, None), ("1.123456789", None), ("1.000000000", None), ("+1", None), ("1e3", None),
    ("\u0661", None), ("", None), (".", None), ("-", None), (10**29, None), (True, None), (1.5, None),
])  # fmt: skip
def test_plain_scale(value, scale):
    assert plain_scale(value, 29, 8) == scale


@pytest.mark.parametrize("value", ["1e3", "+1", "1.000000000"])
def test_what_plain_scale_leaves_is_still_accepted_by_exact_decimal(value):
    assert exact_decimal("a", value, 29, 8)[0] == Decimal(value)


def test_too_many_digits_is_refused_with_the_limit():
    with pytest.raises(ArgumentError, match="30 integer digits; the limit is 29"):
        exact_decimal("a", "9" * 30, 29, 8)


@pytest.mark.parametrize("text, plain", [
    ("123", True), ("-123.45", True), (".5", True), ("5.", True),
    ("", False), ("-", False), (".", False), ("+1", False), ("1.2.3", False), ("1e3", False), (" 1", False),
    ("\u0661", False), ("--1", False),
])  # fmt: skip
def test_is_plain_decimal(text, plain):
    assert is_plain_decimal(text) is plain
