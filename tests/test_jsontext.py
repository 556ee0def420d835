"""The exact-number JSON codec (cobol_mcp.jsontext): numbers exact both ways, bounded cost on any
input, UTF-8 always, and no `json` package on the start path."""

from __future__ import annotations

import json
import subprocess
import sys
from decimal import Decimal

import pytest

from cobol_mcp import jsontext
from cobol_mcp.jsontext import OutOfRangeNumber, dumps, dumps_pretty, encoded, loads, quote, utf8


def test_loads_reads_fractions_and_exponents_as_exact_decimals():
    value = loads(b'{"a":1.10,"b":[3,-0.000001,1E+3],"c":"\\u20ac"}')
    assert value == {"a": Decimal("1.10"), "b": [3, Decimal("-0.000001"), Decimal("1E+3")], "c": "€"}
    assert str(value["a"]) == "1.10" and type(value["b"][0]) is int


def test_loads_keeps_huge_numbers_unexpanded():
    digits = "9" * (sys.get_int_max_str_digits() + 1)
    assert loads(digits) == Decimal(digits) and type(loads(digits)) is Decimal  # past int()'s digit limit
    assert loads(f"[{digits}]") == [Decimal(digits)]
    assert type(loads("9" * jsontext.INT_DIGITS)) is int
    far = loads("-1e99999999999999999999")
    assert type(far) is OutOfRangeNumber and far.text == "-1e99999999999999999999" and far < 0
    assert dumps([far, Decimal("1E+999999999")]) == "[-1e99999999999999999999,1E+999999999]"


@pytest.mark.parametrize(
    ("text", "reason"),
    [("", "Expecting value"), ("{} x", "Extra data"), ("[1,", "Expecting value"), ("{x", "Expecting property name")],
)
def test_loads_refuses_what_is_not_json_with_json_error(text, reason):
    with pytest.raises(json.JSONDecodeError, match=reason):
        loads(text)


def test_surrounding_json_whitespace_only():
    assert loads(" \t\r\n[1] \n") == [1]
    with pytest.raises(json.JSONDecodeError):
        loads("\x0c[1]")  # a form feed is not JSON whitespace


def test_the_raw_scanner_reads_one_value_and_says_where_it_ends():
    assert jsontext.scan('{"a":1.5} tail', 0) == ({"a": Decimal("1.5")}, 9)
    with pytest.raises(StopIteration):
        jsontext.scan("", 0)
    assert jsontext.is_syntax_error(jsontext.decode_error("Extra data", "{} x", 3))
    assert not jsontext.is_syntax_error(ValueError("other"))


def test_dumps_writes_decimals_exactly():
    text = dumps({"a": Decimal("1.10"), "b": [Decimal("-0.000001"), "\x00"], "c": Decimal("1E+3")})
    assert text == '{"a":1.10,"b":[-0.000001,"\\u0000"],"c":1000}'
    assert json.loads(text, parse_float=Decimal)["a"] == Decimal("1.10")


def test_dumps_keeps_unicode_and_rejects_nan():
    assert dumps({"s": "€"}) == '{"s":"€"}'
    with pytest.raises((TypeError, ValueError)):
        dumps({"n": Decimal("NaN")})
    with pytest.raises(TypeError, match="set is not JSON serializable"):
        dumps({"s": {1}})


def test_dumps_pretty_is_indented_and_exact():
    assert dumps_pretty({"a": [Decimal("0.10")]}) == '{\n  "a": [\n    0.10\n  ]\n}'


def test_quote_is_how_dumps_writes_a_string():
    for text in ('q"\u00e9\\', "\x00\n", "€"):
        assert quote(text) == dumps(text)


def test_utf8_writes_a_lone_surrogate_as_its_escape():
    text = dumps({"s": "a\udc00"})
    assert utf8(text) == b'{"s":"a\\udc00"}'
    assert json.loads(utf8(text)) == {"s": "a\udc00"}


def test_an_encoded_value_cannot_change_under_its_text():
    result = encoded({"a": 1}, '{"a":1}')
    assert result.text == '{"a":1}'
    for change in (
        lambda: result.__setitem__("b", 2),
        lambda: result.update(b=2),
        lambda: result.pop("a"),
        lambda: result.setdefault("b", 2),
        lambda: result.clear(),
        lambda: result.__delitem__("a"),
    ):
        with pytest.raises(TypeError):
            change()
    assert result == {"a": 1}
    assert {**result, "b": 2} == {"a": 1, "b": 2}  # a copy is a plain dict, encoded as usual


FRESH = """
import sys
from cobol_mcp import jsontext
value = jsontext.loads('{"a":[1.10,2]}')
text = jsontext.dumps(value)
print(text, " ".join(m for m in ("json", "json.decoder", "re", "enum", "cobol_mcp.protocol") if m in sys.modules))
try:
    jsontext.loads("{not json")
except ValueError as exc:
    print(type(exc).__name__)
"""


def test_the_codec_needs_neither_the_json_package_nor_the_protocol():
    """Read and written by json's C half alone; the error class is loaded by the first text that is not
    JSON. The codec is below the protocol core: importing it imports nothing of JSON-RPC."""
    done = subprocess.run([sys.executable, "-c", FRESH], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ['{"a":[1.10,2]} ', "JSONDecodeError"]
