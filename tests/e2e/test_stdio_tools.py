"""The bundled tools, end to end through the real server and COBOL."""

import pytest


@pytest.mark.parametrize(
    ("a", "b", "text"),
    [
        ("1.10", "2.20", "3.30"),
        (0.1, 0.2, "0.3"),
        (-5, 3, "-2"),
        ("1.5", "-1.5", "0.0"),
        (
            "99999999999999999999999999999.99999999",
            "99999999999999999999999999999.99999999",
            "199999999999999999999999999999.99999998",
        ),
        ("-0.00000001", "0", "-0.00000001"),
        ("1E+3", "1", "1001"),
        (12345678901234567890, 1, "12345678901234567891"),
    ],
)
def test_add(server, a, b, text):
    result = server.call("add", a=a, b=b)
    assert result["content"] == [{"type": "text", "text": text}]
    assert result["structuredContent"] == {"sum": text}
    assert not result.get("isError")


def test_add_json_numbers_are_exact(server):
    server.send_raw(
        b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":1.10,"b":2.20}}}\n'
    )
    assert server.read()["result"]["structuredContent"] == {"sum": "3.30"}


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"a": "1"}, "missing required argument 'b'"),
        ({"a": 1, "b": 2, "c": 3}, "unexpected argument 'c'"),
        ({"a": "abc", "b": 1}, "'a' must be a decimal number"),
        ({"a": "NaN", "b": 1}, "'a' must be a decimal number"),
        ({"a": "Infinity", "b": 1}, "'a' must be a decimal number"),
        ({"a": True, "b": 1}, "not a boolean"),
        ({"a": None, "b": 1}, "not null"),
        ({"a": [1], "b": 1}, "not list"),
        ({"a": "1" * 30, "b": 1}, "30 integer digits; the limit is 29"),
        ({"a": "0.123456789", "b": 1}, "9 decimal places; the limit is 8"),
        ({"a": 1e40, "b": 1}, "integer digits; the limit is 29"),
    ],
)
def test_add_rejects_bad_arguments(server, arguments, message):
    result = server.call("add", **arguments)
    assert result["isError"] is True
    assert message in result["content"][0]["text"]


def test_add_nan_literal_is_an_error_result(server):
    server.send_raw(
        b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":NaN,"b":1}}}\n'
    )
    result = server.read()["result"]
    assert result["isError"] is True and "finite" in result["content"][0]["text"]


def test_trailing_zeros_beyond_eight_places_are_accepted(server):
    assert server.call("add", a="1.0000000000", b="1")["structuredContent"] == {"sum": "2.00000000"}


@pytest.mark.parametrize(
    ("amount", "formatted"),
    [
        ("1234.56", "$1,234.56"),
        (0, "$0.00"),
        ("0.5", "$0.50"),
        ("-1234.5", "-$1,234.50"),
        ("0.005", "$0.01"),
        ("-0.005", "-$0.01"),
        ("0.004", "$0.00"),
        ("-0.004", "$0.00"),
        ("1234567.891", "$1,234,567.89"),
        ("9999999999999.99", "$9,999,999,999,999.99"),
        ("999999999999999999.99", "$999,999,999,999,999,999.99"),
    ],
)
def test_format_currency(server, amount, formatted):
    result = server.call("format_currency", amount=amount)
    assert result["content"] == [{"type": "text", "text": formatted}]
    assert result["structuredContent"] == {"formatted": formatted}


def test_format_currency_beyond_capacity_is_an_error_not_truncation(server):
    result = server.call("format_currency", amount="999999999999999999.995")
    assert result["isError"] is True and "$999,999,999,999,999,999.99" in result["content"][0]["text"]
    result = server.call("format_currency", amount="1" + "0" * 18)
    assert result["isError"] is True and "19 integer digits; the limit is 18" in result["content"][0]["text"]


@pytest.mark.parametrize(
    ("date", "valid", "reason"),
    [
        ("20240229", True, None),
        ("20230229", False, "February 2023 has 28 days (2023 is not a leap year)"),
        ("20240230", False, "February 2024 has 29 days (2024 is a leap year)"),
        ("19000229", False, "February 1900 has 28 days (1900 is not a leap year)"),
        ("20000229", True, None),
        ("20240431", False, "April has 30 days"),
        ("20241301", False, "month 13 is not between 01 and 12"),
        ("20240001", False, "month 00 is not between 01 and 12"),
        ("20240100", False, "day 00 does not exist: days of the month start at 01"),
        ("15821015", False, "year 1582 is outside 1601-9999, the range of COBOL's calendar"),
        ("00000101", False, "year 0000 is outside 1601-9999, the range of COBOL's calendar"),
        ("16010101", True, None),
        ("99991231", True, None),
    ],
)
def test_validate_date(server, date, valid, reason):
    result = server.call("validate_date", date=date)
    assert result["structuredContent"] == {"valid": valid, "reason": reason}
    assert not result.get("isError")
    text = result["content"][0]["text"]
    assert ("is a valid date" in text) if valid else (reason in text)


FULLWIDTH_DATE = "".join(chr(0xFF10 + int(d)) for d in "20240229")  # digits of another script


@pytest.mark.parametrize("date", ["2024-02-29", "2024022", "202402290", 20240229, FULLWIDTH_DATE, "", None])
def test_validate_date_rejects_non_dates(server, date):
    result = server.call("validate_date", date=date)
    assert result["isError"] is True and "8" in result["content"][0]["text"]


def test_unknown_tool_is_named(server):
    result = server.call("subtract", a=1)
    assert result["isError"] is True
    assert "'subtract'" in result["content"][0]["text"] and "add" in result["content"][0]["text"]
