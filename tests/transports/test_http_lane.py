"""The common POST's short path (transports/http/lane.py, fastpath.py) and the ASGI app, on the same connections.

Requests the short path answers and requests it hands to the ASGI app alternate on one keep-alive
connection, arrive pipelined, or arrive with the body after the head; each gets its own answer, in
order. Without a session a client that closes its connection cancels its call there too."""

from __future__ import annotations

import asyncio
import json
import signal
import socket
import time

import pytest

from .conftest import BOTH, PROGRAMS, HttpServer, McpHttp, entered, hold, rpc

LEGACY = "2025-11-25"


@pytest.fixture(scope="module")
def stateless(cache_dir):
    with HttpServer("--stateless") as running:
        yield running


def request(port: int, message: dict | None, **headers: str) -> bytes:
    body = json.dumps(message).encode() if message is not None else b""
    sent = {"host": f"127.0.0.1:{port}", "content-type": "application/json", "accept": BOTH}
    sent.update({k.replace("_", "-"): v for k, v in headers.items()})
    head = "".join(f"{name}: {value}\r\n" for name, value in sent.items())
    return f"POST /mcp HTTP/1.1\r\n{head}content-length: {len(body)}\r\n\r\n".encode() + body


class Responses:
    """Reads HTTP/1.1 responses (Content-Length or chunked bodies) off one socket, in order."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock, self.buf = sock, b""

    def _more(self) -> None:
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError(f"closed with {self.buf!r} unread")
        self.buf += chunk

    def _until(self, marker: bytes) -> bytes:
        while marker not in self.buf:
            self._more()
        text, _, self.buf = self.buf.partition(marker)
        return text

    def _take(self, size: int) -> bytes:
        while len(self.buf) < size:
            self._more()
        data, self.buf = self.buf[:size], self.buf[size:]
        return data

    def next(self) -> tuple[int, dict[str, str], bytes]:
        head = self._until(b"\r\n\r\n").decode("latin-1").split("\r\n")
        headers = {}
        for line in head[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        if "content-length" in headers:
            body = self._take(int(headers["content-length"]))
        else:
            assert headers.get("transfer-encoding") == "chunked", head
            body = b""
            while size := int(self._until(b"\r\n"), 16):
                body += self._take(size)
                self._take(2)
            self._take(2)
        return int(head[0].split()[1]), headers, body


def add(i: int) -> dict:
    return rpc("tools/call", {"name": "add", "arguments": {"a": i, "b": 1}}, id=i)


def summed(body: bytes, i: int) -> bool:
    reply = json.loads(body)
    return reply["id"] == i and reply["result"]["structuredContent"] == {"sum": str(i + 1)}


def test_one_connection_alternates_both_paths(stateless):
    port = stateless.port
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        responses = Responses(sock)
        for message, check in [
            (add(1), lambda status, body: status == 200 and summed(body, 1)),
            (rpc("tools/list", id=2), lambda status, body: status == 200 and json.loads(body)["result"]["tools"]),
            (rpc("notifications/initialized", id=None), lambda status, body: status == 202 and body == b""),
            (rpc("initialize", {"protocolVersion": LEGACY, "capabilities": {}}, id=3), lambda s, b: s == 200),
            (add(4), lambda status, body: status == 200 and summed(body, 4)),
            (None, lambda status, body: status == 400 and json.loads(body)["error"]["code"] == -32700),
            (rpc("ping", id=5), lambda status, body: status == 200 and json.loads(body)["result"] == {}),
            (add(6), lambda status, body: status == 200 and summed(body, 6)),
        ]:
            sock.sendall(request(port, message, mcp_protocol_version=LEGACY))
            status, headers, body = responses.next()
            assert check(status, body), (message, status, body)
            assert "date" in headers and "mcp-session-id" not in headers


def test_pipelined_requests_are_answered_in_order(stateless):
    port = stateless.port
    sent = [add(1), rpc("notifications/initialized", id=None), add(2), rpc("ping", id="p"), add(3)]
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(b"".join(request(port, message) for message in sent))
        responses = Responses(sock)
        got = [responses.next() for _ in sent]
    assert [status for status, _, _ in got] == [200, 202, 200, 200, 200]
    assert summed(got[0][2], 1) and summed(got[2][2], 2) and summed(got[4][2], 3)
    assert json.loads(got[3][2]) == {"jsonrpc": "2.0", "id": "p", "result": {}}


def test_a_body_sent_after_its_head_is_answered(stateless):
    port = stateless.port
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        responses = Responses(sock)
        for i in (1, 2):
            data = request(port, add(i))
            head_end = data.index(b"\r\n\r\n") + 4
            sock.sendall(data[:head_end])
            time.sleep(0.2)  # (a separate read for the body, not a bound on anything)
            sock.sendall(data[head_end:])
            status, _, body = responses.next()
            assert status == 200 and summed(body, i)


def test_replies_in_a_session_carry_its_id(cache_dir):
    with HttpServer() as stateful:
        client = McpHttp(stateful)
        assert client.session_id
        with socket.create_connection(("127.0.0.1", stateful.port), timeout=30) as sock:
            responses = Responses(sock)
            for i in (1, 2):
                sock.sendall(request(stateful.port, add(i), mcp_session_id=client.session_id))
                status, headers, body = responses.next()
                assert status == 200 and summed(body, i)
                assert headers["mcp-session-id"] == client.session_id
            sock.sendall(request(stateful.port, add(3), mcp_session_id="no-such-session"))
            status, _, _ = responses.next()
            assert status == 404
        client.close()


def test_a_client_that_leaves_cancels_its_call_without_a_session(cache_dir, tmp_path):
    with HttpServer("--stateless", "--cobol-workers", "1", "--timeout", "600", "--programs", str(PROGRAMS)) as one:
        call = rpc("tools/call", {"name": "hold", "arguments": hold(tmp_path, "c")}, id=1)
        with socket.create_connection(("127.0.0.1", one.port)) as sock:
            sock.sendall(request(one.port, call, mcp_protocol_version=LEGACY))
            asyncio.run(entered(tmp_path, "c"))  # the only COBOL worker is held in the call now
        # never released, the held call ends only by being cancelled; only then can the one worker add
        with socket.create_connection(("127.0.0.1", one.port), timeout=60) as sock:
            sock.sendall(request(one.port, add(7), mcp_protocol_version=LEGACY))
            status, _, body = Responses(sock).next()
        assert status == 200 and summed(body, 7)


def test_heads_are_timed_after_many_requests_on_one_connection(cache_dir):
    """One head timer per connection, armed again only when it goes off: requests spread past its first
    expiry are served, then a head that never ends still gets 408, and an idle connection is closed."""
    with HttpServer("--stateless", "--read-timeout", "1") as quick:
        with socket.create_connection(("127.0.0.1", quick.port), timeout=60) as sock:
            responses = Responses(sock)
            for i in range(4):
                time.sleep(0.4)  # the four spread over more than --read-timeout, each head on time
                sock.sendall(request(quick.port, add(i)))
                status, _, body = responses.next()
                assert status == 200 and summed(body, i)
            sock.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a")  # then nothing
            status, headers, body = responses.next()
            assert status == 408 and headers["connection"] == "close" and json.loads(body)["error"]
        with socket.create_connection(("127.0.0.1", quick.port), timeout=60) as sock:
            sock.sendall(request(quick.port, add(5)))
            status, _, body = Responses(sock).next()
            assert status == 200 and summed(body, 5)
            assert sock.recv(65536) == b""  # idle past --read-timeout: closed without a word


def test_a_stop_answers_a_running_call_with_an_error(cache_dir, tmp_path):
    with HttpServer(
        "--stateless", "--cobol-workers", "1", "--timeout", "600", "--programs", str(PROGRAMS), "--shutdown-grace", "0"
    ) as server:
        call = rpc("tools/call", {"name": "hold", "arguments": hold(tmp_path, "s")}, id="held")
        with socket.create_connection(("127.0.0.1", server.port), timeout=60) as sock:
            sock.sendall(request(server.port, call, mcp_protocol_version=LEGACY))
            asyncio.run(entered(tmp_path, "s"))  # never released: only the stop ends it
            server.proc.send_signal(signal.SIGTERM)
            status, headers, body = Responses(sock).next()
            server.proc.wait(60)
    reply = json.loads(body)
    assert status == 200 and headers["connection"] == "close"
    assert reply["id"] == "held" and "stopped by the server's shutdown" in reply["error"]["message"]
