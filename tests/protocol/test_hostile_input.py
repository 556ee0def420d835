"""Survive any input: the protocol core (framing, parsing, session) never raises, answers each line
at most once, and every reply is valid UTF-8 JSON-RPC, whatever arrives (property-based)."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cobol_mcp.jsontext import OutOfRangeNumber, dumps, utf8
from cobol_mcp.protocol import jsonrpc
from cobol_mcp.protocol.framing import LineBuffer
from cobol_mcp.protocol.jsonrpc import Invalid, Request
from cobol_mcp.protocol.model import Resource, ServerModel
from cobol_mcp.protocol.modern import CAPABILITIES_KEY, LOG_LEVEL_KEY, VERSION_KEY
from cobol_mcp.protocol.session import Cancel, Session, ToolCall

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
METHODS = (
    "initialize",
    "ping",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/read",
    "resources/templates/list",
    "server/discover",
    "notifications/initialized",
    "notifications/cancelled",
    "logging/setLevel",
    "nope",
)
HOSTILE_NUMBERS = (
    "1e999999999",
    "-1e999999999",
    "1e-999999999",
    "1e99999999999999999999999",
    "-0e-99999999999999999999",
    "9" * 5000,
    "-" + "1" * 4500,
    "1" + "0" * 5000 + "e-4990",
    "1.5e3",
    "7.0",
    "0",
    "-0",
    "1E+2",
    "123456789012345678901234567890",
    "0.1e-99999999999999999999999",
)

TOOLS = ({"name": "add", "inputSchema": {"type": "object"}},)


def model() -> ServerModel:
    return ServerModel("t", "1", TOOLS, (Resource("cobol://x", "x", "text/plain", "text"),))


def unicode_text() -> st.SearchStrategy[str]:
    """Any code points, lone surrogates included."""
    return st.text(st.characters(min_codepoint=0, max_codepoint=0x10FFFF), max_size=20)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | unicode_text()
    | st.sampled_from([Decimal(n) for n in HOSTILE_NUMBERS[:3]] + [Decimal("1.10")]),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(unicode_text(), children, max_size=4),
    max_leaves=12,
)


def check_reply(line: bytes) -> dict[str, Any]:
    """One reply line: UTF-8, newline-terminated, one JSON-RPC response object."""
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    reply = json.loads(line.decode("utf-8"), parse_float=Decimal, parse_int=Decimal)
    assert reply["jsonrpc"] == "2.0"
    assert ("result" in reply) != ("error" in reply)
    assert "id" in reply
    assert reply["id"] is None or isinstance(reply["id"], (str, Decimal))
    if "error" in reply:
        assert isinstance(reply["error"]["code"], Decimal) and isinstance(reply["error"]["message"], str)
    else:
        assert isinstance(reply["result"], dict)
    return reply


def outcome_ok(outcome: object) -> None:
    assert outcome is None or isinstance(outcome, (bytes, ToolCall, Cancel))
    if isinstance(outcome, bytes):
        reply = check_reply(outcome)
        assert "error" not in reply or reply["error"]["code"] != jsonrpc.INTERNAL_ERROR, reply


def encode(message: Any) -> bytes:
    """JSON text that may hold lone surrogates (as escapes) and exact Decimals."""
    return utf8(dumps(message))


@SETTINGS
@given(st.binary(max_size=300))
def test_arbitrary_bytes(data: bytes) -> None:
    session, framer = Session(model()), LineBuffer(200)
    for line in [*framer.feed(data), *framer.finish()]:
        outcome_ok(session.receive(line, 200))


@SETTINGS
@given(unicode_text())
def test_arbitrary_text_as_utf8_with_surrogates_escaped(text: str) -> None:
    outcome_ok(Session(model()).receive(utf8(json.dumps(text, ensure_ascii=False))))
    outcome_ok(Session(model()).receive(text.encode("utf-8", "surrogatepass")))


@SETTINGS
@given(
    st.sampled_from(METHODS) | unicode_text(),
    json_values,
    json_values,
    st.sampled_from(
        [
            "id",
            "method",
            "params",
            "jsonrpc",
            "_meta",
            "name",
            "arguments",
            "uri",
            "cursor",
            "protocolVersion",
            "requestId",
        ]
    ),
)
def test_any_value_in_any_field(method: str, request_id: Any, value: Any, field: str) -> None:
    message: dict[str, Any] = {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": method,
        "params": {
            "name": "add",
            "arguments": {"a": 1, "b": 2},
            "protocolVersion": "2025-11-25",
            "uri": "cobol://x",
            "requestId": 1,
        },
    }
    if field in ("id", "method", "params", "jsonrpc"):
        message[field] = value
    else:
        message["params"][field] = value
    session = Session(model(), strict_lifecycle=isinstance(value, bool))
    outcome_ok(session.receive(encode(message)))
    params = message["params"] if isinstance(message["params"], dict) else {}
    meta = {VERSION_KEY: "2026-07-28", CAPABILITIES_KEY: {}, LOG_LEVEL_KEY: value}
    outcome_ok(session.receive(encode({**message, "params": {**params, "_meta": meta}})))
    del message["id"]
    outcome_ok(session.receive(encode(message)))


@pytest.mark.parametrize("literal", ["NaN", "-Infinity", "Infinity"])
def test_nan_literals_anywhere(literal: str) -> None:
    for template in (
        '{{"jsonrpc":"2.0","id":{0},"method":"ping"}}',
        '{{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{{"uri":{0},"_meta":'
        '{{"io.modelcontextprotocol/protocolVersion":"2026-07-28",'
        '"io.modelcontextprotocol/clientCapabilities":{{}}}}}}}}',
        '{{"jsonrpc":"2.0","id":1,"method":"notifications/cancelled","params":{{"requestId":{0}}}}}',
    ):
        outcome_ok(Session(model()).receive(template.format(literal).encode()))


@SETTINGS
@given(st.lists(st.sampled_from(METHODS), min_size=1, max_size=5), st.integers(min_value=0, max_value=3))
def test_valid_requests_each_get_one_reply_with_their_id(methods: list[str], strict: int) -> None:
    session = Session(model(), strict_lifecycle=bool(strict))
    for index, method in enumerate(methods):
        outcome = session.receive(
            encode(
                {
                    "jsonrpc": "2.0",
                    "id": index,
                    "method": method,
                    "params": {"name": "add", "uri": "cobol://x", "protocolVersion": "x"},
                }
            )
        )
        outcome_ok(outcome)
        if isinstance(outcome, bytes):
            assert check_reply(outcome)["id"] == index
        else:
            assert isinstance(outcome, ToolCall) and outcome.request_id == index


@SETTINGS
@given(json_values, unicode_text())
def test_line_writers_never_raise(value: Any, text: str) -> None:
    check_reply(jsonrpc.result_line(text, {"v": value, text: text}))
    check_reply(jsonrpc.error_line(text, -32602, text, {"v": value}))
    check_reply(jsonrpc.error_line(None, -32700, text))


@pytest.mark.parametrize("number", HOSTILE_NUMBERS)
def test_any_json_number_parses_and_integral_ids_echo_exactly(number: str) -> None:
    message = jsonrpc.parse(f'{{"jsonrpc":"2.0","id":{number},"method":"ping","params":{{"n":{number}}}}}')
    exact = json.loads(number, parse_float=Decimal, parse_int=Decimal) if "99999999999999999999" not in number else None
    if isinstance(message, Invalid):
        assert message.code == jsonrpc.INVALID_REQUEST and "fractional" in message.message
        return
    assert isinstance(message, Request)
    line = Session(model()).receive(f'{{"jsonrpc":"2.0","id":{number},"method":"ping"}}'.encode())
    assert isinstance(line, bytes)
    echoed = line[len(b'{"jsonrpc":"2.0","id":') : line.index(b',"result"')].decode()
    if exact is not None:
        assert Decimal(echoed) == exact
    elif number.lstrip("-").startswith("0e"):
        assert echoed == "0"  # zero, whatever its exponent
    else:
        assert echoed == number


def test_exponents_past_decimals_range_are_kept_as_written() -> None:
    message = jsonrpc.parse(
        '{"jsonrpc":"2.0","id":1e99999999999999999999999,"method":"m","params":{"t":1e-99999999999999999999}}'
    )
    assert isinstance(message, Request)
    assert isinstance(message.id, OutOfRangeNumber) and message.id.text == "1e99999999999999999999999"
    tiny = message.params["t"]
    assert isinstance(tiny, OutOfRangeNumber) and 0 < tiny < Decimal("1E-999999")


def test_a_5000_digit_integer_is_valid_json_not_a_parse_error() -> None:
    message = jsonrpc.parse('{"jsonrpc":"2.0","id":1,"method":"m","params":{"n":' + "9" * 5000 + "}}")
    assert isinstance(message, Request) and message.params["n"] == Decimal("9" * 5000)


def test_lone_surrogates_are_escaped_in_replies() -> None:
    line = Session(model()).receive(b'{"jsonrpc":"2.0","id":"\\udc00","method":"\\ud800"}')
    assert isinstance(line, bytes)
    reply = check_reply(line)
    assert reply["id"] == "\udc00" and reply["error"]["code"] == jsonrpc.METHOD_NOT_FOUND


def test_cancel_of_a_huge_integer_id_matches_it() -> None:
    outcome = Session(model()).receive(
        b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1e999999999}}'
    )
    assert isinstance(outcome, Cancel) and outcome.request_id == Decimal("1e999999999")
