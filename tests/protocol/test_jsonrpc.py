import json
from decimal import Decimal

import pytest

from cobol_mcp.jsontext import dumps, encoded
from cobol_mcp.protocol import jsonrpc
from cobol_mcp.protocol.jsonrpc import Ignored, Invalid, Notification, Request


def test_request_and_notification():
    assert jsonrpc.parse(b'{"jsonrpc":"2.0","id":1,"method":"ping"}') == Request(1, "ping", {})
    assert jsonrpc.parse('{"jsonrpc":"2.0","method":"x","params":{"k":1}}') == Notification("x", {"k": 1})


def test_numbers_are_exact_decimals():
    msg = jsonrpc.parse(b'{"jsonrpc":"2.0","id":"a","method":"m","params":{"v":1.10,"w":3}}')
    assert msg.params == {"v": Decimal("1.10"), "w": 3}


@pytest.mark.parametrize(
    ("line", "code", "reply_id"),
    [
        (b"{not json", -32700, None),
        (b'{"jsonrpc":"2.0","id":42,"method":"ping"', -32700, 42),
        (b'{"jsonrpc":"2.0","id":"abc","method":', -32700, "abc"),
        (b'{"params":{"id":9},"id":5,', -32700, 5),
        (b"\xff\xfe", -32700, None),
        (b"[]", -32600, None),
        (b'[{"jsonrpc":"2.0","id":1,"method":"ping"}]', -32600, None),
        (b"3", -32600, None),
        (b'"text"', -32600, None),
        (b'{"jsonrpc":"1.0","id":3,"method":"ping"}', -32600, 3),
        (b'{"id":3,"method":"ping"}', -32600, 3),
        (b'{"jsonrpc":"2.0","id":3,"method":7}', -32600, 3),
        (b'{"jsonrpc":"2.0","id":null,"method":"ping"}', -32600, None),
        (b'{"jsonrpc":"2.0","id":true,"method":"ping"}', -32600, None),
        (b'{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}', -32600, None),
        (b'{"jsonrpc":"2.0","id":[1],"method":"ping"}', -32600, None),
        (b'{"jsonrpc":"2.0","id":1.5,"method":"ping"}', -32600, None),
        (b'{"jsonrpc":"2.0","id":4}', -32600, 4),
        (b'{"jsonrpc":"2.0","id":4,"method":"ping","params":[1]}', -32602, 4),
        (b'{"jsonrpc":"2.0","id":4,"method":"ping","params":"x"}', -32602, 4),
        (b'{"jsonrpc":"2.0","id":4,"method":"ping","params":null}', -32602, 4),
        (b'{"jsonrpc":"2.0","id":4,"method":"ping"} {}', -32700, 4),
        (b'{"jsonrpc":"2.0","id":4,"method":"ping"}x', -32700, 4),
        (b"", -32700, None),
        (b" \t", -32700, None),
    ],
)
def test_invalid_messages(line, code, reply_id):
    msg = jsonrpc.parse(line)
    assert isinstance(msg, Invalid)
    assert msg.code == code
    assert msg.id == reply_id


def test_json_whitespace_around_a_message_is_allowed():
    assert jsonrpc.parse(b' \t\r\n{"jsonrpc":"2.0","id":1,"method":"ping"} \r\n\t') == Request(1, "ping", {})
    assert isinstance(jsonrpc.parse(b'\x0c{"jsonrpc":"2.0","id":1,"method":"ping"}'), Invalid)  # not JSON whitespace


def test_parse_errors_name_the_problem():
    assert jsonrpc.parse(b'{"jsonrpc":"2.0","id":4,"method":"ping"} {}').message == "Parse error: Extra data"
    assert jsonrpc.parse(b"").message == "Parse error: Expecting value"


def test_client_responses_and_bad_notifications_are_ignored():
    assert isinstance(jsonrpc.parse(b'{"jsonrpc":"2.0","id":1,"result":{}}'), Ignored)
    assert isinstance(jsonrpc.parse(b'{"jsonrpc":"2.0","method":"n","params":[1]}'), Ignored)


def test_integral_float_id_is_accepted_as_integer():
    assert jsonrpc.parse(b'{"jsonrpc":"2.0","id":7.0,"method":"ping"}') == Request(7, "ping", {})


def test_error_line_shape():
    line = jsonrpc.error_line(3, -32601, "Method not found: x")
    assert json.loads(line) == {"jsonrpc": "2.0", "id": 3, "error": {"code": -32601, "message": "Method not found: x"}}
    assert line.endswith(b"\n") and line.count(b"\n") == 1


@pytest.mark.parametrize("request_id", [7, "abc", 'q"\u00e9\\', Decimal("1E+2000")])
def test_an_encoded_result_is_written_as_the_dict_it_stands_for(request_id):
    value = {"content": [{"type": "text", "text": 'caf\u00e9 "1"'}], "structuredContent": {"n": 1}}
    result = encoded(value, dumps(value))
    assert result == value
    assert jsonrpc.result_line(request_id, result) == jsonrpc.result_line(request_id, dict(value))
    assert json.loads(jsonrpc.result_line(request_id, result))["result"] == value


FRESH_PARSE = """
import sys
from cobol_mcp.protocol import jsonrpc
assert "json.decoder" not in sys.modules, "loaded before any text needed it"
for line in sys.argv[1:]:
    message = jsonrpc.parse(line.encode())
    print(message.id, message.code, message.message)
"""


def test_the_first_text_that_is_not_json_gets_its_named_parse_error():
    """The parser runs on json's C scanner without the `json` package (start-up time); the scanner's
    error class is loaded by the first text that needs it. Checked in a fresh interpreter, where
    nothing else has loaded it: the first, the second and a later kind of error all read as they should."""
    import subprocess
    import sys

    lines = ['{"jsonrpc":"2.0","id":7,"method":', "{not json", '{"jsonrpc":"2.0","id":1,"method":"ping"} x', "[1, 2,"]
    done = subprocess.run([sys.executable, "-c", FRESH_PARSE, *lines], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "7 -32700 Parse error: Expecting value",
        "None -32700 Parse error: Expecting property name enclosed in double quotes",
        "1 -32700 Parse error: Extra data",
        "None -32700 Parse error: Expecting value",
    ]
