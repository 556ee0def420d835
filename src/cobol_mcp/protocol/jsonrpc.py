"""JSON-RPC 2.0 messages: strict parsing into requests and notifications, replies as bytes.

Owns: the error codes, the message model (:class:`Request`, :class:`Notification`, :class:`Invalid`,
:class:`Ignored`), :func:`parse` and :func:`classify`, request ids (:func:`valid_id`,
:func:`normal_id`, :func:`recover_id` from text that is not JSON) and the reply lines
(:func:`result_line`, :func:`error_line`, :func:`notification_line`). The JSON text itself, with
exact Decimal numbers, is :mod:`cobol_mcp.jsontext`'s: `1.10` reaches a tool as exactly 1.10, and
replies may contain Decimals, written back as the same number text.

Any line is handled at bounded cost (see :mod:`cobol_mcp.jsontext`), :func:`parse` never raises,
and a reply line never fails to encode.
"""

from __future__ import annotations

from decimal import Decimal

from ..jsontext import WHITESPACE, Encoded, decode_error, dumps, is_syntax_error, loads, scan, utf8

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; annotations are strings anyway
    from typing import Any, TypeAlias

    RequestId: TypeAlias = "str | int | Decimal"
    Message: TypeAlias = "Request | Notification | Invalid | Ignored"

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603

ID_DIGITS = 1000  # integral Decimal ids below this size are echoed as ints, larger ones as written


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
        if text[:1] == "{":  # the usual message: one object, no leading whitespace (as loads, inlined)
            obj, end = scan(text, 0)
            if end != len(text) and text[end:].strip(WHITESPACE):
                raise decode_error("Extra data", text, end)
        else:
            obj = loads(text)
    except (ValueError, ArithmeticError, RecursionError, StopIteration, SystemError):  # see jsontext.scan
        return _unparsable(line)
    return classify(obj)


def _unparsable(line: bytes | str) -> Message:
    """The reply to a line the fast path of :func:`parse` refused: parsed again by the general path,
    which keeps numbers past the digit limit and names the error."""
    try:
        return classify(loads(line))
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
    return str(exc).split(": line ")[0] if is_syntax_error(exc) else str(exc)


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
            loaded = loads(rest[: end + 1])
        except ValueError:
            return None
        return loaded if isinstance(loaded, str) else None
    digits = len(rest) - len(rest.lstrip("-+0123456789.eE"))
    token = rest[:digits]
    if token and (len(rest) == digits or rest[digits] in " \t\r\n,}"):
        try:
            value = loads(token)
        except (ValueError, RecursionError):
            return None
        if type(value) is not bool and _valid_id(value):
            return _normal_id(value)
    return None


# ---------------------------------------------------------------------------------------- replies


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


def result_line(request_id: RequestId, result: dict[str, Any]) -> bytes:
    """A result reply line (an :class:`~cobol_mcp.jsontext.Encoded` result is written as its text);
    never raises (a result that cannot be encoded becomes a -32603 reply)."""
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
