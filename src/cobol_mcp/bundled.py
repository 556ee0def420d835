"""The three bundled tools: derived from their COBOL programs like any other, plus a thin
presentation step that gives them friendly argument names, specific error messages, and the exact
reply shapes users rely on (`{"sum": "3.30"}`, `{"formatted": "$1,234.56"}`, `{"valid", "reason"}`).
"""

from __future__ import annotations

from decimal import Context, Decimal, InvalidOperation

from .cobol import is_plain_decimal, plain_parts
from .cobol.tool import ArgumentError
from .jsontext import encoded, quote

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .cobol.runtime.pool import CallResult
    from .cobol.tool import Presentation

EXACT = Context(prec=100)  # room for any PIC (38 digits at most) without rounding
QUANTA = tuple(Decimal((0, (1,), -places)) for places in range(9))  # 1, 0.1, ... 0.00000001
READ_ONLY = {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False}
_DECIMAL_PATTERN = r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$"
_DIGITS = frozenset("0123456789")
_ADD_KEYS = frozenset(("a", "b"))


def is_decimal_text(text: str) -> bool:
    """Plain decimal notation, as _DECIMAL_PATTERN says (without importing `re` at start-up)."""
    mantissa, e, exponent = text.replace("E", "e").partition("e")
    if e:
        digits = exponent[1:] if exponent[:1] in ("+", "-") else exponent
        if not digits or not _DIGITS.issuperset(digits):
            return False
    if mantissa[:1] in ("+", "-"):
        mantissa = mantissa[1:]
    whole, _, fraction = mantissa.partition(".")
    return bool(whole or fraction) and _DIGITS.issuperset(whole) and _DIGITS.issuperset(fraction)


def _decimal_schema(description: str) -> dict[str, Any]:
    return {"type": ["number", "string"], "pattern": _DECIMAL_PATTERN, "description": description}


def _object(properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


def _exact_keys(tool: str, arguments: dict[str, Any], expected: tuple[str, ...]) -> None:
    extra = [key for key in arguments if key not in expected]
    if extra:
        raise ArgumentError(f"unexpected argument {extra[0]!r}; {tool} takes {_listing(expected)}")
    missing = [key for key in expected if key not in arguments]
    if missing:
        raise ArgumentError(f"missing required argument {missing[0]!r}; {tool} takes {_listing(expected)}")


def _listing(keys: tuple[str, ...]) -> str:
    return " and ".join(repr(key) for key in keys)


def exact_decimal(name: str, value: Any, integer_digits: int, decimal_places: int) -> tuple[Decimal, int]:
    """Parse a JSON number or decimal string exactly; returns the value and its written scale
    (at most `decimal_places`: zeros written beyond it are dropped, other digits rejected).
    No Decimal arithmetic here: the default context would round past 28 digits."""
    if isinstance(value, bool) or not isinstance(value, (int, Decimal, str)):
        kind = "a boolean" if isinstance(value, bool) else type(value).__name__.replace("NoneType", "null")
        raise ArgumentError(f'{name!r} must be a number or a decimal string such as "12.34", not {kind}')
    if isinstance(value, str) and not (is_plain_decimal(value) or is_decimal_text(value)):
        raise ArgumentError(f'{name!r} must be a decimal number such as "12.34"; got {value!r}')
    try:
        number = Decimal(value)
    except InvalidOperation:  # valid text whose exponent is past Decimal's range (10**18)
        raise ArgumentError(
            f"{name!r} = {value} is out of range; the limit is {integer_digits} integer digits "
            f"and {decimal_places} decimal places"
        ) from None
    if not number.is_finite():
        raise ArgumentError(f"{name!r} must be a finite number; {number} is not")
    sign, digits, exponent = number.as_tuple()
    assert isinstance(exponent, int)  # a finite number's exponent ('n', 'N', 'F' are NaN and infinity)
    scale = max(0, -exponent)
    if scale > decimal_places:
        extra = scale - decimal_places
        if any(digits[-extra:]):
            raise ArgumentError(f"{name!r} = {value} has {scale} decimal places; the limit is {decimal_places}")
        digits, exponent, scale = digits[:-extra] or (0,), -decimal_places, decimal_places
        number = Decimal((sign, digits, exponent))
    whole_digits = len(digits) + exponent if any(digits) else 0
    if whole_digits > integer_digits:
        raise ArgumentError(
            f"{name!r} = {value} has {whole_digits} integer digits; the limit is {integer_digits} "
            f"integer digits and {decimal_places} decimal places"
        )
    return number, scale


def plain_scale(value: Any, integer_digits: int, decimal_places: int) -> int | None:
    """The scale of a value that plainly fits (an int, or plain decimal text within the limits), which
    then goes to the codec as it is; None for anything else, which :func:`exact_decimal` judges."""
    kind = type(value)
    if kind is int:
        return 0 if -(10**integer_digits) < value < 10**integer_digits else None
    parts = plain_parts(value) if kind is str else None
    if parts is None:
        return None
    _, whole, fraction = parts
    if len(fraction) > decimal_places:
        return None
    if len(whole) > integer_digits and len(whole.lstrip("0")) > integer_digits:
        return None
    return len(fraction)


def _text_result(text: str, structured: dict[str, Any], is_error: bool = False) -> dict[str, Any]:
    result: dict[str, Any] = {"content": [{"type": "text", "text": text}], "structuredContent": structured}
    if is_error:
        result["isError"] = True
    return result


class AddPresentation:
    def definition(self, derived: dict[str, Any]) -> dict[str, Any]:
        return {
            **derived,
            "title": "Add two decimal numbers (COBOL)",
            "inputSchema": _object(
                {
                    "a": _decimal_schema("First addend: up to 29 integer digits and 8 decimal places."),
                    "b": _decimal_schema("Second addend: up to 29 integer digits and 8 decimal places."),
                }
            ),
            "outputSchema": _object({"sum": {"type": "string", "description": "a + b, exact, as a decimal string."}}),
            "annotations": READ_ONLY,
        }

    def arguments(self, arguments: dict[str, Any]) -> tuple[dict[str, Any], int]:
        if arguments.keys() != _ADD_KEYS:
            _exact_keys("add", arguments, ("a", "b"))
        a, b = arguments["a"], arguments["b"]
        a_scale, b_scale = plain_scale(a, 29, 8), plain_scale(b, 29, 8)
        if a_scale is not None and b_scale is not None:
            return arguments, max(a_scale, b_scale)  # exactly a and b (checked above), both as they are
        if a_scale is None:
            a, a_scale = exact_decimal("a", a, 29, 8)
        if b_scale is None:
            b, b_scale = exact_decimal("b", b, 29, 8)
        return {"a": a, "b": b}, max(a_scale, b_scale)

    def result(self, scale: int, outputs: dict[str, Any], call: CallResult) -> dict[str, Any]:
        total = EXACT.quantize(Decimal(outputs["total"]), QUANTA[scale])  # decimal text: 37 digits
        text = format(total if total else EXACT.add(total, 0), "f")  # + 0 turns a negative zero into zero
        quoted = quote(text)
        return encoded(
            {"content": [{"type": "text", "text": text}], "structuredContent": {"sum": text}},
            f'{{"content":[{{"type":"text","text":{quoted}}}],"structuredContent":{{"sum":{quoted}}}}}',
        )


class FormatCurrencyPresentation:
    def definition(self, derived: dict[str, Any]) -> dict[str, Any]:
        return {
            **derived,
            "title": "Format US dollars (COBOL edited PICTURE)",
            "inputSchema": _object(
                {
                    "amount": _decimal_schema("Amount in dollars: up to 18 integer digits and 8 decimal places."),
                }
            ),
            "outputSchema": _object({"formatted": {"type": "string", "description": "e.g. $1,234.56 or -$0.50"}}),
            "annotations": READ_ONLY,
        }

    def arguments(self, arguments: dict[str, Any]) -> tuple[dict[str, Any], Any]:
        _exact_keys("format_currency", arguments, ("amount",))
        amount = arguments["amount"]
        if plain_scale(amount, 18, 8) is None:
            amount = exact_decimal("amount", amount, 18, 8)[0]
        return {"amount": amount}, amount

    def result(self, amount: Decimal | int | str, outputs: dict[str, Any], call: CallResult) -> dict[str, Any]:
        formatted = outputs["formatted"]
        if call.return_code != 0:
            return _text_result(
                f"'amount' = {amount} cannot be formatted: it is {formatted}", {"formatted": ""}, is_error=True
            )
        return _text_result(formatted, {"formatted": formatted})


class ValidateDatePresentation:
    def definition(self, derived: dict[str, Any]) -> dict[str, Any]:
        return {
            **derived,
            "title": "Validate a YYYYMMDD date (COBOL)",
            "inputSchema": _object(
                {
                    "date": {
                        "type": "string",
                        "pattern": "^[0-9]{8}$",
                        "minLength": 8,
                        "maxLength": 8,
                        "description": 'The date as 8 digits, YYYYMMDD, e.g. "20240229".',
                    },
                }
            ),
            "outputSchema": {
                **_object(
                    {
                        "valid": {"type": "boolean", "description": "Whether the date exists."},
                        "reason": {"type": ["string", "null"], "description": "Why not, when it does not."},
                    }
                ),
            },
            "annotations": READ_ONLY,
        }

    def arguments(self, arguments: dict[str, Any]) -> tuple[dict[str, Any], str]:
        _exact_keys("validate_date", arguments, ("date",))
        value = arguments["date"]
        if not isinstance(value, str):
            kind = type(value).__name__ if isinstance(value, list | dict) else repr(value)  # a list: maybe huge
            raise ArgumentError(f"'date' must be a string of 8 digits YYYYMMDD such as \"20240229\", not {kind}")
        if not (len(value) == 8 and value.isascii() and value.isdigit()):
            raise ArgumentError(f"'date' must be exactly 8 ASCII digits YYYYMMDD such as \"20240229\"; got {value!r}")
        return {"date_text": value}, value

    def result(self, date: str, outputs: dict[str, Any], call: CallResult) -> dict[str, Any]:
        shown = f"{date[:4]}-{date[4:6]}-{date[6:]}"
        if outputs["valid_flag"] == "Y":  # DATE-IS-VALID: reported as its value
            return _text_result(f"{shown} is a valid date (a {outputs['weekday']}).", {"valid": True, "reason": None})
        reason = outputs["reason"]
        return _text_result(f"{shown} is not a valid date: {reason}.", {"valid": False, "reason": reason})


PRESENTATIONS: dict[str, Presentation] = {
    "add": AddPresentation(),
    "format_currency": FormatCurrencyPresentation(),
    "validate_date": ValidateDatePresentation(),
}
