"""Regressions of "Survive any input", end to end over real stdio pipes: each bug a user's hostile-input
generator found, and stopping on signals. Timeouts here only guard against hangs; nothing is timed."""

from __future__ import annotations

import json
import os
import signal
import time
from decimal import Decimal
from typing import Any

import pytest

from .stdio_client import StdioClient

PING = '{{"jsonrpc":"2.0","id":{},"method":"ping"}}\n'
ADD = '{{"jsonrpc":"2.0","id":{},"method":"tools/call","params":{{"name":"add","arguments":{{"a":{},"b":1}}}}}}\n'


def replies(out: bytes) -> list[dict[str, Any]]:
    """Every line of stdout, each one checked to be UTF-8 JSON."""
    return [json.loads(line.decode("utf-8"), parse_float=Decimal, parse_int=Decimal) for line in out.splitlines()]


def exchange(data: bytes, *args: str) -> tuple[int, list[dict[str, Any]]]:
    with StdioClient(*args) as client:
        client.send_raw(data)
        status, out, _ = client.close(timeout=60)
    return status, replies(out)


def test_huge_exponent_id_is_echoed_without_expanding_it(cache_dir):
    status, got = exchange(b'{"jsonrpc":"2.0","id":1e999999999,"method":"ping"}\n' + PING.format(2).encode())
    assert status == 0
    assert [r["id"] for r in got] == [Decimal("1e999999999"), 2]
    assert got[0]["result"] == {}


def test_exponent_past_decimals_range_is_echoed_as_written(cache_dir):
    with StdioClient() as client:
        client.send_raw(b'{"jsonrpc":"2.0","id":-12e99999999999999999999999,"method":"ping"}\n')
        assert client.read_line() == b'{"jsonrpc":"2.0","id":-12e99999999999999999999999,"result":{}}'


def test_burst_with_a_lone_surrogate_id_answers_every_good_request_once(cache_dir):
    burst = "".join(PING.format(i) for i in range(50))
    burst += '{"jsonrpc":"2.0","id":"\\udc00","method":"ping"}\n'
    burst += "".join(ADD.format(i, i) for i in range(50, 100))
    burst += '{"jsonrpc":"2.0","id":"x\\ud800","method":"\\udfff"}\n'
    burst += "".join(PING.format(i) for i in range(100, 150))
    with StdioClient() as client:
        client.send_raw(burst.encode())
        got = [client.read() for _ in range(152)]
        assert client.request("ping", id="alive") == {"jsonrpc": "2.0", "id": "alive", "result": {}}
        status, rest, err = client.close(timeout=60)
    assert status == 0 and rest == b"" and b"Traceback" not in err
    ids = [r["id"] for r in got]
    assert sorted(i for i in ids if isinstance(i, int)) == list(range(150))
    assert ids.count("\udc00") == 1 and ids.count("x\ud800") == 1
    surrogate = next(r for r in got if r["id"] == "x\ud800")
    assert surrogate["error"]["code"] == -32601  # not -32603: a method that does not exist
    assert all(r["result"]["structuredContent"] == {"sum": str(r["id"] + 1)} for r in got if r["id"] in range(50, 100))


def test_surrogates_are_escaped_on_the_wire(cache_dir):
    with StdioClient() as client:
        client.send_raw(b'{"jsonrpc":"2.0","id":"\\udc00","method":"ping"}\n')
        line = client.read_line()
    assert line == b'{"jsonrpc":"2.0","id":"\\udc00","result":{}}'
    line.decode("utf-8")


@pytest.mark.parametrize(
    "number",
    [
        "9" * 5000,
        "-" + "9" * 5000,
        "1e999999999",
        "1e99999999999999999999999",
        "1e-999999999",
        "1" + "0" * 5000 + "e-4960",
    ],
)
def test_out_of_range_numbers_are_argument_errors_naming_the_limit(cache_dir, number):
    data = ADD.format(1, number) + ADD.format(2, f'"{number}"')
    data += (
        '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"format_currency",'
        f'"arguments":{{"amount":{number}}}}}}}\n'
    )
    data += f'{{"jsonrpc":"2.0","id":4,"method":"ping","params":{{"n":{number}}}}}\n'
    status, got = exchange(data.encode())
    got.sort(key=lambda r: r["id"])  # tool calls may be answered after the ping
    assert status == 0 and [r["id"] for r in got] == [1, 2, 3, 4]
    for reply in got[:3]:
        result = reply["result"]
        assert result["isError"] is True
        text = result["content"][0]["text"]
        assert "limit is" in text and ("integer digits" in text or "decimal places" in text), text
    assert got[3]["result"] == {}


def test_deep_nesting_and_nan_are_specific_errors(cache_dir):
    deep = '{"jsonrpc":"2.0","id":5,"method":"ping","params":{"x":' + "[" * 100_000 + "]" * 100_000 + "}}\n"
    args = '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"validate_date","arguments":{"date":'
    data = deep + args + "[" * 900 + "]" * 900 + "}}}\n"
    data += '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"add","arguments":{"a":NaN,"b":1}}}\n'
    status, got = exchange(data.encode())
    got.sort(key=lambda r: r["id"])
    assert status == 0 and [r["id"] for r in got] == [5, 6, 7]
    assert got[0]["error"]["code"] == -32700
    assert got[1]["result"]["isError"] is True and got[2]["result"]["isError"] is True


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(p) for p in f.read().split()]
    except OSError:
        return []


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_stops_a_busy_server_and_its_workers(cache_dir, sig):
    """SIGINT stops at once; SIGTERM drains, here with no grace: the replies the client leaves unread
    (more than a pipe holds) cannot all go out, so the drain is not clean (exit status 1)."""
    with StdioClient("--cobol-workers", "2", "--shutdown-grace", "0") as client:
        assert client.call("add", a=1, b=2)["structuredContent"] == {"sum": "3"}
        workers = []
        for _ in range(100):  # the workers start on demand; a hang guard only
            workers = _children(client.proc.pid)
            if workers:
                break
            time.sleep(0.05)
        assert workers
        client.send_raw("".join(ADD.format(i, i) for i in range(2000)).encode())  # busy, replies unread
        os.kill(client.proc.pid, sig)
        status = client.proc.wait(timeout=30)
        assert status == (1 if sig == signal.SIGTERM else 130)
        for _ in range(100):
            if not any(_alive(pid) for pid in workers):
                break
            time.sleep(0.05)
        assert not any(_alive(pid) for pid in workers)
