"""JSON-RPC 2.0 messages: strict parsing, exact numbers, replies as bytes.

Numbers with a fraction or exponent are parsed as :class:`decimal.Decimal`, never as binary
floats, so `1.10` reaches a tool as exactly 1.10. Replies may contain Decimals; they are written
back as the same exact number text.

Any input is handled at bounded cost: integers past Python's digit limit become Decimals and
exponents past Decimal's range become :class:`OutOfRangeNumber` (nothing is ever expanded to its
digits), and a reply line never fails to encode: lone surrogates are written as `\\udXXX` escapes.
"""

from __future__ import annotations

import sys
from decimal import Decimal

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; annotations are strings anyway
    from collections.abc import Callable
    from typing import Any, TypeAlias

    RequestId: TypeAlias = "str | int | Decimal"
    Message: TypeAlias = "Request | Notification | Invalid | Ignored"

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603

INT_DIGITS = 4000  # integers with more digits stay Decimals: int() of them is quadratic (and limited)
ID_DIGITS = 1000  # integral Decimal ids below this size are echoed as ints, larger ones as written


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
    """JSONDecoder(...).scan_once, made straight from json's C half: the `json` package's Python half
    imports `re` and `enum`, which cost more start-up time than the rest of the server. It is loaded
    only for its error class (by the scanner itself, on text that is not JSON) or where `_json` is
    missing."""
    try:
        from _json import make_scanner
    except ImportError:  # pragma: no cover - CPython always has it
        import json

        decoder = json.JSONDecoder(parse_float=parse_float, parse_int=parse_int, parse_constant=parse_constant)
        return decoder.scan_once  # type: ignore[attr-defined,no-any-return]  # set by JSONDecoder.__init__
    options: Any = _ScanOptions(parse_float, parse_int, parse_constant)  # typeshed wants a make_scanner
    return make_scanner(options)


def _decode_error(message: str, text: str, at: int) -> ValueError:
    """json.JSONDecodeError(message, text, at); json.decoder is imported here, off the start-up path."""
    from json.decoder import JSONDecodeError

    return JSONDecodeError(message, text, at)


def _is_syntax_error(exc: BaseException) -> bool:
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


_scan = _scanner(Decimal, int, Decimal)
# For the rare message the fast scanner refuses for a number alone: a Python call per number, bounded.
_scan_any = _scanner(_number, _integer, Decimal)
_JSON_WHITESPACE = " \t\n\r"


def _decode(text: str) -> Any:
    """JSONDecoder.decode without its two regular-expression passes for surrounding whitespace."""
    start = len(text) - len(text.lstrip(_JSON_WHITESPACE)) if text[:1] in _JSON_WHITESPACE else 0
    try:
        try:
            obj, end = _scan_from(_scan, text, start)
        except (ValueError, ArithmeticError) as exc:
            if _is_syntax_error(exc):
                raise
            obj, end = _scan_from(_scan_any, text, start)  # an integer past the digit limit, an exponent past Decimal's
    except StopIteration as exc:
        raise _decode_error("Expecting value", text, exc.value) from None
    if end != len(text) and text[end:].strip(_JSON_WHITESPACE):
        raise _decode_error("Extra data", text, end)
    return obj


def loads(text: str | bytes) -> Any:
    """json.loads with exact numbers: fractions and exponents as Decimals (as requests are read)."""
    return _decode(text.decode("utf-8") if isinstance(text, bytes) else text)


class ValueObject:
    """Small value objects without the import cost of dataclasses (start-up time matters)."""

    __slots__: tuple[str, ...] = ()

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and all(getattr(self, f) == getattr(other, f) for f in self.__slots__)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(repr(getattr(self, f)) for f in self.__slots__)})"


class Request(ValueObject):
    __slots__ = ("id", "method", "params")

    def __init__(self, id: RequestId, method: str, params: dict[str, Any]) -> None:
        self.id, self.method, self.params = id, method, params


class Notification(ValueObject):
    __slots__ = ("method", "params")

    def __init__(self, method: str, params: dict[str, Any]) -> None:
        self.method, self.params = method, params


class Invalid(ValueObject):
    """A message that gets an error reply: `id` is what could be recovered (None if nothing)."""

    __slots__ = ("id", "code", "message")

    def __init__(self, id: RequestId | None, code: int, message: str) -> None:
        self.id, self.code, self.message = id, code, message


class Ignored(ValueObject):
    """A message that needs no reply: a response from the client, or a bad notification."""

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason


def parse(line: bytes | str) -> Message:
    """Classify one line. Never raises."""
    try:
        text = line.decode("utf-8") if isinstance(line, bytes) else line
        if text[:1] == "{":  # the usual message: one object, no leading whitespace (as _decode, inlined)
            obj, end = _scan(text, 0)
            if end != len(text) and text[end:].strip(_JSON_WHITESPACE):
                raise _decode_error("Extra data", text, end)
        else:
            obj = _decode(text)
    except (ValueError, ArithmeticError, RecursionError, StopIteration, SystemError):  # see _scan_from
        return _unparsable(line)
    return classify(obj)


def _unparsable(line: bytes | str) -> Message:
    """The reply to a line the fast path of :func:`parse` refused: parsed again by the general path,
    which keeps numbers past the digit limit and names the error."""
    try:
        return classify(_decode(line.decode("utf-8") if isinstance(line, bytes) else line))
    except (ValueError, RecursionError) as exc:
        return Invalid(recover_id(line), PARSE_ERROR, f"Parse error: {_short_reason(exc)}")


def classify(obj: Any) -> Message:
    """Check a decoded JSON value against the JSON-RPC 2.0 request/notification shape."""
    if type(obj) is dict:  # the usual well-formed request, recognised in one pass
        request_id, params = obj.get("id"), obj.get("params", _NO_PARAMS)
        if (
            (type(request_id) is int or type(request_id) is str)
            and type(obj.get("method")) is str
            and obj.get("jsonrpc") == "2.0"
            and (type(params) is dict or params is _NO_PARAMS)
        ):
            return Request(request_id, obj["method"], {} if params is _NO_PARAMS else params)
    if not isinstance(obj, dict):
        if isinstance(obj, list):
            return Invalid(None, INVALID_REQUEST, "Invalid Request: batches (JSON arrays) are not supported")
        return Invalid(None, INVALID_REQUEST, "Invalid Request: a message must be a JSON object")
    has_id = "id" in obj
    raw_id = obj.get("id")
    id_ok = _valid_id(raw_id)
    reply_id = _normal_id(raw_id) if id_ok else None
    if "method" not in obj:
        if has_id and ("result" in obj or "error" in obj):
            return Ignored("response")
        return Invalid(reply_id, INVALID_REQUEST, "Invalid Request: 'method' is missing")
    if obj.get("jsonrpc") != "2.0":
        if not has_id:
            return Ignored("notification without jsonrpc 2.0")
        return Invalid(reply_id, INVALID_REQUEST, 'Invalid Request: "jsonrpc" must be exactly "2.0"')
    method = obj["method"]
    if not isinstance(method, str):
        if not has_id:
            return Ignored("notification with a non-string method")
        return Invalid(reply_id, INVALID_REQUEST, "Invalid Request: 'method' must be a string")
    if has_id and not id_ok:
        kind = _kind(raw_id)
        return Invalid(None, INVALID_REQUEST, f"Invalid Request: 'id' must be a string or an integer, not {kind}")
    params = obj.get("params", _NO_PARAMS)
    if params is _NO_PARAMS:
        params = {}
    elif not isinstance(params, dict):
        if not has_id:
            return Ignored("notification with non-object params")
        return Invalid(reply_id, INVALID_PARAMS, f"Invalid params: 'params' must be an object, not {_kind(params)}")
    if not has_id:
        return Notification(method, params)
    assert reply_id is not None  # has_id, and an invalid id was refused above
    return Request(reply_id, method, params)


_NO_PARAMS: Any = object()


def _valid_id(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, (str, int)):
        return True
    # to_integral_value and == work on the digits as stored: no expansion of the exponent
    return isinstance(value, Decimal) and value.is_finite() and value == value.to_integral_value()


def _normal_id(value: Any) -> RequestId:
    """An integral Decimal id as an int when that is small; a huge one stays as it is (never expanded)."""
    if isinstance(value, Decimal):
        if not value:
            return 0
        return int(value) if value.adjusted() < ID_DIGITS else value
    if isinstance(value, (str, int)):
        return value
    raise TypeError(f"not a request id: {_kind(value)}")


def valid_id(value: Any) -> bool:
    """Whether a JSON value is usable as a request id (a string, or an integer in any notation)."""
    return _valid_id(value)


def normal_id(value: Any) -> RequestId:
    """The id as requests carry it (see :func:`valid_id`)."""
    return _normal_id(value)


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, Decimal):
        return "a fractional number" if value.is_finite() else "a non-finite number"
    if isinstance(value, int):
        return "an integer"
    return "a string"


def _short_reason(exc: BaseException) -> str:
    if isinstance(exc, UnicodeDecodeError):
        return "the message is not valid UTF-8"
    if isinstance(exc, RecursionError):
        return "the message is nested too deeply"
    return str(exc).split(": line ")[0] if _is_syntax_error(exc) else str(exc)


def recover_id(raw: bytes | str, scan_limit: int = 65536) -> RequestId | None:
    """Find a top-level `"id": <string|integer>` in text that is not valid JSON, if readable."""
    text = raw[:scan_limit].decode("utf-8", "replace") if isinstance(raw, bytes) else raw[:scan_limit]
    depth, i, n = 0, 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            end = _string_end(text, i)
            if end < 0:
                return None
            if depth == 1 and text[i : end + 1] == '"id"':
                value = _value_after_colon(text, end + 1)
                if value is not None:
                    return value
            i = end + 1
            continue
        if c in "{[":
            depth += 1
        elif c in "}]":
            depth -= 1
        i += 1
    return None


def _string_end(text: str, start: int) -> int:
    i = start + 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == '"':
            return i
        i += 1
    return -1


def _value_after_colon(text: str, i: int) -> RequestId | None:
    rest = text[i:].lstrip()
    if not rest.startswith(":"):
        return None
    rest = rest[1:].lstrip()
    if rest.startswith('"'):
        end = _string_end(rest, 0)
        if end < 0:
            return None
        try:
            loaded = _decode(rest[: end + 1])
        except ValueError:
            return None
        return loaded if isinstance(loaded, str) else None
    digits = len(rest) - len(rest.lstrip("-+0123456789.eE"))
    token = rest[:digits]
    if token and (len(rest) == digits or rest[digits] in " \t\r\n,}"):
        try:
            value = _decode(token)
        except (ValueError, RecursionError):
            return None
        if type(value) is not bool and _valid_id(value):
            return _normal_id(value)
    return None


# ---------------------------------------------------------------------------------------- replies


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


PLAIN_NOTATION = 1000  # Decimals of magnitude 1E-1000 to 1E+1000 are written in plain notation


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


def _id_text(request_id: Any) -> str:
    """The id as JSON text, whatever it is: never raises (an id that cannot be written is null)."""
    try:
        return dumps(request_id) if request_id is None or valid_id(request_id) else "null"
    except (ValueError, TypeError, RecursionError):  # pragma: no cover - ids come from the parser
        return "null"


def _unencodable(request_id: Any) -> bytes:
    from .. import log

    log.exception("a reply could not be encoded as JSON")
    return utf8(
        f'{{"jsonrpc":"2.0","id":{_id_text(request_id)},"error":{{"code":{INTERNAL_ERROR},'
        '"message":"Internal error: the reply could not be encoded as JSON"}}\n'
    )


class Encoded(dict[str, "Any"]):  # "Any" as text: typing is not imported at run time
    """A result that carries its own JSON text, made once by what built it (which knows the shape: no
    encoder walks it again, and values shown twice are encoded once). :func:`result_line` writes `text`
    as it is; everything else sees a plain dict. `text` must be what :func:`dumps` gives for the same
    value, and neither may change afterwards (an Encoded refuses item assignment; keep nested values
    as they are too). Made by :func:`encoded`."""

    __slots__ = ("text",)
    text: str

    def _frozen(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("an Encoded result does not change: its JSON text is made already")

    __setitem__ = __delitem__ = update = pop = popitem = setdefault = clear = __ior__ = _frozen


def encoded(value: dict[str, Any], text: str) -> Encoded:
    """`value` as an :class:`Encoded` result with its JSON `text` (see there)."""
    result = Encoded(value)
    result.text = text
    return result


def result_line(request_id: RequestId, result: dict[str, Any]) -> bytes:
    """A result reply line; never raises (a result that cannot be encoded becomes a -32603 reply)."""
    if type(result) is Encoded:
        head = str(request_id) if type(request_id) is int else _id_text(request_id)
        return utf8(f'{{"jsonrpc":"2.0","id":{head},"result":{result.text}}}\n')
    try:
        return utf8(dumps({"jsonrpc": "2.0", "id": request_id, "result": result}) + "\n")
    except (ValueError, TypeError, RecursionError):
        return _unencodable(request_id)


def error_line(request_id: RequestId | None, code: int, message: str, data: Any = None) -> bytes:
    """An error reply line; never raises (data that cannot be encoded is left out)."""
    error: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    try:
        return utf8(dumps({"jsonrpc": "2.0", "id": request_id, "error": error}) + "\n")
    except (ValueError, TypeError, RecursionError):
        if data is not None:
            return error_line(request_id, code, message)
        return _unencodable(request_id)


def notification_line(method: str, params: dict[str, Any]) -> bytes:
    return utf8(dumps({"jsonrpc": "2.0", "method": method, "params": params}) + "\n")
