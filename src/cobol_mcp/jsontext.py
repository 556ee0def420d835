"""JSON text with exact numbers: the project's JSON codec, made straight from json's C half.

Owns: :func:`loads` (numbers with a fraction or exponent as :class:`decimal.Decimal`, never binary
floats, so `1.10` reaches a tool as exactly 1.10), :func:`dumps` and :func:`dumps_pretty` (Decimals
written back as the same exact number text), :func:`quote`, :func:`utf8`, the pre-encoded
:class:`Encoded` result, and the raw pieces a fast parser builds on (:data:`scan`,
:data:`WHITESPACE`, :func:`decode_error`, :func:`is_syntax_error`). It knows nothing of JSON-RPC
(that is :mod:`cobol_mcp.protocol.jsonrpc`).
May import: the standard library only, and no I/O: it sits below the protocol core.

Any input is handled at bounded cost: integers past Python's digit limit become Decimals and
exponents past Decimal's range become :class:`OutOfRangeNumber` (nothing is ever expanded to its
digits), and :func:`utf8` never fails: lone surrogates are written as `\\udXXX` escapes.

The `json` package itself stays off the start path: its Python half imports `re` and `enum`, which
cost more start-up time than the rest of the server (tests/test_startup.py checks it).
"""

from __future__ import annotations

import sys
from decimal import Decimal

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; annotations are strings anyway
    from collections.abc import Callable
    from typing import Any

INT_DIGITS = 4000  # integers with more digits stay Decimals: int() of them is quadratic (and limited)
PLAIN_NOTATION = 1000  # Decimals of magnitude 1E-1000 to 1E+1000 are written in plain notation
WHITESPACE = " \t\n\r"  # JSON's whitespace: what may surround a value


class OutOfRangeNumber(Decimal):
    """A JSON number whose exponent is beyond what Decimal holds (past +-10**18): the nearest Decimal
    (+-1E+999999999999999999, +-1E-999999999999999999 or 0), with the number's own text kept so an id
    is echoed as written. Tools reject it as out of range like any other too large (or small) value."""

    __slots__ = ("text",)
    text: str

    def __new__(cls, text: str) -> OutOfRangeNumber:
        mantissa, _, exponent = text.lower().partition("e")
        sign = "-" if mantissa.startswith("-") else ""
        if not mantissa.strip("-+0."):
            value = f"{sign}0"
        elif exponent.startswith("-"):
            value = f"{sign}1E-999999999999999999"
        else:
            value = f"{sign}1E+999999999999999999"
        number = super().__new__(cls, value)
        number.text = text
        return number


def _number(text: str) -> Decimal:
    try:
        return Decimal(text)
    except ArithmeticError:  # an exponent beyond Decimal's range
        return OutOfRangeNumber(text)


def _integer(text: str) -> int | Decimal:
    return int(text) if len(text) <= INT_DIGITS else _number(text)


class _ScanOptions:
    """What json's C scanner reads of a decoder: strict strings, no hooks, these number parsers."""

    __slots__ = ("strict", "object_hook", "object_pairs_hook", "parse_float", "parse_int", "parse_constant")

    def __init__(self, parse_float: Any, parse_int: Any, parse_constant: Any) -> None:
        self.strict, self.object_hook, self.object_pairs_hook = True, None, None
        self.parse_float, self.parse_int, self.parse_constant = parse_float, parse_int, parse_constant


def _scanner(parse_float: Any, parse_int: Any, parse_constant: Any) -> Callable[[str, int], tuple[Any, int]]:
    """JSONDecoder(...).scan_once, made straight from json's C half (see the module docstring). `json`
    is loaded only for its error class (by the scanner itself, on text that is not JSON) or where
    `_json` is missing."""
    try:
        from _json import make_scanner
    except ImportError:  # pragma: no cover - CPython always has it
        import json

        decoder = json.JSONDecoder(parse_float=parse_float, parse_int=parse_int, parse_constant=parse_constant)
        return decoder.scan_once  # type: ignore[attr-defined,no-any-return]  # set by JSONDecoder.__init__
    options: Any = _ScanOptions(parse_float, parse_int, parse_constant)  # typeshed wants a make_scanner
    return make_scanner(options)


def decode_error(message: str, text: str, at: int) -> ValueError:
    """json.JSONDecodeError(message, text, at); json.decoder is imported here, off the start-up path."""
    from json.decoder import JSONDecodeError

    return JSONDecodeError(message, text, at)


def is_syntax_error(exc: BaseException) -> bool:
    """Whether `exc` is a json.JSONDecodeError (then json.decoder was imported already: it raised it)."""
    decoder = sys.modules.get("json.decoder")
    return decoder is not None and isinstance(exc, decoder.JSONDecodeError)


def _scan_from(scan: Callable[[str, int], tuple[Any, int]], text: str, start: int) -> tuple[Any, int]:
    """scan(text, start), with json.decoder imported first when the scanner needs its error class: the
    C scanner looks JSONDecodeError up in the loaded modules and, before json.decoder is loaded, fails
    with a SystemError instead. So the first text that is not JSON loads it, and nothing else does."""
    try:
        return scan(text, start)
    except SystemError:
        if "json.decoder" in sys.modules:
            raise
        import json.decoder  # noqa: F401  # the scanner finds it in sys.modules from now on

        return scan(text, start)


scan = _scanner(Decimal, int, Decimal)
"""The raw C scanner, `scan(text, index) -> (value, end)`: fractions and exponents as Decimals, every
integer as int. Fast, and for callers that handle its failures themselves: StopIteration where no
value starts, ValueError (past the int digit limit), ArithmeticError (an exponent past Decimal's),
and SystemError for text that is not JSON while json.decoder is not loaded yet; :func:`loads`
handles all of these."""

# For the rare message the fast scanner refuses for a number alone: a Python call per number, bounded.
_scan_any = _scanner(_number, _integer, Decimal)


def _decode(text: str) -> Any:
    """JSONDecoder.decode without its two regular-expression passes for surrounding whitespace."""
    start = len(text) - len(text.lstrip(WHITESPACE)) if text[:1] in WHITESPACE else 0
    try:
        try:
            obj, end = _scan_from(scan, text, start)
        except (ValueError, ArithmeticError) as exc:
            if is_syntax_error(exc):
                raise
            obj, end = _scan_from(_scan_any, text, start)  # an integer past the digit limit, an exponent past Decimal's
    except StopIteration as exc:
        raise decode_error("Expecting value", text, exc.value) from None
    if end != len(text) and text[end:].strip(WHITESPACE):
        raise decode_error("Extra data", text, end)
    return obj


def loads(text: str | bytes) -> Any:
    """json.loads with exact numbers: fractions and exponents as Decimals (as requests are read).
    Raises a ValueError (json.JSONDecodeError for text that is not JSON, UnicodeDecodeError for bytes
    that are not UTF-8) or RecursionError (nesting too deep)."""
    return _decode(text.decode("utf-8") if isinstance(text, bytes) else text)


# ---------------------------------------------------------------------------------------- encoding


def _not_serializable(value: Any) -> Any:
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def _compact_encoder(default: Any = _not_serializable) -> Callable[[Any], str]:
    """JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False, default=default).encode,
    made from json's C half (see :func:`_scanner`) once: encode() would set that up for every reply."""
    try:
        from _json import make_encoder
    except ImportError:  # pragma: no cover - CPython always has it
        import json

        return json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False, default=default).encode
    encode = make_encoder(None, default, quote, None, ":", ",", False, False, False)
    return lambda obj: "".join(encode(obj, 0))


def _quoter() -> Callable[[str], str]:
    try:
        from _json import encode_basestring
    except ImportError:  # pragma: no cover - CPython always has it
        from json.encoder import encode_basestring
    return encode_basestring


quote = _quoter()  # a str as JSON text, exactly as dumps writes it (not ASCII-only)
_encode = _compact_encoder()


def dumps(obj: Any) -> str:
    """Compact JSON; Decimals are written as their exact number text."""
    try:
        return _encode(obj)
    except TypeError:
        return _encode_with_decimals(obj)


def dumps_pretty(obj: Any) -> str:
    """Indented JSON for people (the `check` command); Decimals exact as in :func:`dumps`."""
    return _encode_with_decimals(obj, indent=2)


def _encode_with_decimals(obj: Any, indent: int | None = None) -> str:
    numbers: list[str] = []

    def default(value: Any) -> Any:
        if isinstance(value, Decimal) and value.is_finite():
            numbers.append(_number_text(value))
            return f"\x00\x01{len(numbers) - 1}\x01\x00"
        raise TypeError(f"{type(value).__name__} is not JSON serializable")

    if indent is None:
        text = _compact_encoder(default)(obj)
    else:
        import json

        encoder = json.JSONEncoder(
            ensure_ascii=False, separators=(",", ": "), allow_nan=False, default=default, indent=indent
        )
        text = encoder.encode(obj)
    for index, number in enumerate(numbers):
        text = text.replace(f'"\\u0000\\u0001{index}\\u0001\\u0000"', number, 1)
    return text


def _number_text(value: Decimal) -> str:
    """JSON number text for a finite Decimal: the exact value, in plain notation unless that would be
    huge (1E+999999999 stays as it is: never expanded), an out-of-range number as it was written."""
    if type(value) is OutOfRangeNumber:
        return value.text
    if -PLAIN_NOTATION < value.adjusted() < PLAIN_NOTATION:
        return format(value, "f")
    return str(value)  # scientific notation: still JSON number text, and exact


def utf8(text: str) -> bytes:
    """A JSON text as UTF-8, always: a lone surrogate (only possible inside a string) is written as its
    JSON escape `\\udXXX`, which is valid JSON and reads back as the same string."""
    try:
        return text.encode()
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace")


class Encoded(dict[str, "Any"]):  # "Any" as text: typing is not imported at run time
    """A value that carries its own JSON text, made once by what built it (which knows the shape: no
    encoder walks it again, and values shown twice are encoded once). A writer that knows it (such as
    jsonrpc's result_line) writes `text` as it is; everything else sees a plain dict. `text` must be
    what :func:`dumps` gives for the same value, and neither may change afterwards (an Encoded
    refuses item assignment; keep nested values as they are too). Made by :func:`encoded`."""

    __slots__ = ("text",)
    text: str

    def _frozen(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("an Encoded result does not change: its JSON text is made already")

    __setitem__ = __delitem__ = update = pop = popitem = setdefault = clear = __ior__ = _frozen


def encoded(value: dict[str, Any], text: str) -> Encoded:
    """`value` as an :class:`Encoded` value with its JSON `text` (see there)."""
    result = Encoded(value)
    result.text = text
    return result
