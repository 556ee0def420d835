"""The HTTP server's bounds: slow and oversized requests, too many connections, sessions and calls,
a killed COBOL worker, a stop under load. Every answer past a bound is a JSON-RPC error, never a 5xx
other than 503. No test here measures time: socket timeouts only keep a broken server from hanging
the suite."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import urllib.error
import urllib.request
from pathlib import Path

import httpx
import pytest

from .conftest import BOTH, INIT, PROGRAMS, HttpServer, McpHttp, entered, hold, rpc, sse_messages

HANG_GUARD = 60.0  # seconds; only a server that never answers reaches it


def head(port: int, *lines: str, length: int | None = None) -> bytes:
    text = [
        "POST /mcp HTTP/1.1",
        f"Host: 127.0.0.1:{port}",
        "Content-Type: application/json",
        f"Accept: {BOTH}",
        *lines,
    ]
    if length is not None:
        text.append(f"Content-Length: {length}")
    return ("\r\n".join(text) + "\r\n\r\n").encode()


def read_response(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """One HTTP/1.1 response with a Content-Length (every refusal here has one)."""
    sock.settimeout(HANG_GUARD)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, f"the server closed the connection without answering: {data!r}"
        data += chunk
    raw_head, _, body = data.partition(b"\r\n\r\n")
    status_line, *header_lines = raw_head.decode("latin-1").split("\r\n")
    headers = {name.strip().lower(): value.strip() for name, _, value in (h.partition(":") for h in header_lines)}
    length = int(headers.get("content-length", "0"))
    while len(body) < length:
        chunk = sock.recv(65536)
        assert chunk, "the body was cut short"
        body += chunk
    return int(status_line.split()[1]), headers, body[:length]


def assert_json_rpc_error(body: bytes) -> dict:
    message = json.loads(body)
    assert message["jsonrpc"] == "2.0" and isinstance(message["error"]["code"], int), message
    assert isinstance(message["error"]["message"], str)
    return message


def closed_by_server(sock: socket.socket) -> bool:
    sock.settimeout(HANG_GUARD)
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:
        return True


def children(pid: int) -> set[int]:
    """The processes whose parent is `pid` (the COBOL workers of a server)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rpartition(")")[2].split()[1]) == pid:
                found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.fixture(scope="module")
def tight(cache_dir):
    """A server with small bounds, so the tests can reach them."""
    with HttpServer(
        "--programs",
        str(PROGRAMS),
        "--auth-token",
        "a-long-enough-test-token",
        "--read-timeout",
        "1",
        "--max-message-bytes",
        "1000",
        "--max-head-bytes",
        "4096",
        "--max-sessions",
        "3",
        "--timeout",
        "60",
    ) as running:
        yield running


TOKEN = "Authorization: Bearer a-long-enough-test-token"


# ------------------------------------------------------------------------------------------ authentication
def test_a_request_without_the_token_costs_only_its_headers(tight):
    with socket.create_connection(("127.0.0.1", tight.port)) as sock:
        sock.sendall(head(tight.port, "Expect: 100-continue", length=500))  # the body is never sent
        status, headers, body = read_response(sock)
        assert status == 401 and headers["www-authenticate"].startswith("Bearer")
        assert headers["connection"] == "close"
        assert_json_rpc_error(body)
        assert closed_by_server(sock)


def test_a_huge_announced_body_without_the_token_is_refused_unread(tight):
    with socket.create_connection(("127.0.0.1", tight.port)) as sock:
        sock.sendall(head(tight.port, length=10**12))
        status, _, body = read_response(sock)
        assert status == 401
        assert_json_rpc_error(body)


# ------------------------------------------------------------------------------------------ slow clients
def test_headers_that_never_end_get_408(tight):
    with socket.create_connection(("127.0.0.1", tight.port)) as sock:
        sock.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a")  # then nothing, like a slowloris
        status, _, body = read_response(sock)
        assert status == 408
        assert_json_rpc_error(body)
        assert closed_by_server(sock)


def test_a_connection_that_sends_nothing_is_closed_without_a_word(tight):
    with socket.create_connection(("127.0.0.1", tight.port)) as sock:
        sock.settimeout(60)  # a hang guard: the server closes it after --read-timeout (1 s)
        assert sock.recv(65536) == b""  # no 408: there was no request to answer


def test_an_idle_keep_alive_connection_is_closed_without_a_408(tight):
    """A 408 on an idle connection would be read as the answer to the next request the client sends
    on it; a plain close tells the client to open a new connection."""
    with socket.create_connection(("127.0.0.1", tight.port)) as sock:
        sock.settimeout(60)
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        status, headers, _ = read_response(sock)
        assert status == 200 and headers.get("connection") != "close"
        assert sock.recv(65536) == b""  # then idle past --read-timeout: closed, nothing sent


def test_a_body_that_never_ends_gets_408(tight):
    with socket.create_connection(("127.0.0.1", tight.port)) as sock:
        sock.sendall(head(tight.port, TOKEN, length=200) + b'{"jsonrpc":"2.0",')
        status, headers, body = read_response(sock)
        assert status == 408 and headers["connection"] == "close"
        assert_json_rpc_error(body)
        assert closed_by_server(sock)


def test_a_chunked_body_that_never_ends_gets_408(tight):
    with socket.create_connection(("127.0.0.1", tight.port)) as sock:
        sock.sendall(head(tight.port, TOKEN, "Transfer-Encoding: chunked") + b'5\r\n{"jso\r\n')
        status, _, body = read_response(sock)
        assert status == 408
        assert_json_rpc_error(body)


# ------------------------------------------------------------------------------------------ sizes
def test_headers_over_the_limit_get_431(tight):
    with socket.create_connection(("127.0.0.1", tight.port)) as sock:
        sock.sendall(head(tight.port, TOKEN, "X-Big: " + "b" * 5000, length=2) + b"{}")
        status, _, body = read_response(sock)
        assert status == 431
        assert_json_rpc_error(body)
        assert closed_by_server(sock)


def padded(size: int) -> bytes:
    message = json.dumps(rpc("ping", id=7)).encode()
    return message + b" " * (size - len(message))


@pytest.mark.parametrize("size, status", [(1000, 200), (1001, 413)])
def test_bodies_at_and_over_the_size_limit(tight, size, status):
    headers = {"content-type": "application/json", "accept": BOTH, "authorization": "Bearer a-long-enough-test-token"}
    with httpx.Client(timeout=HANG_GUARD) as http:
        init = http.post(tight.url, json=rpc("initialize", INIT, id=0), headers=headers)
        session = {**headers, "mcp-session-id": init.headers["mcp-session-id"]}
        reply = http.post(tight.url, content=padded(size), headers=session)
        assert reply.status_code == status
        if status == 200:
            assert reply.json() == {"jsonrpc": "2.0", "id": 7, "result": {}}
        else:
            assert_json_rpc_error(reply.content)
        http.delete(tight.url, headers=session)


OVERSIZE = b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"' + b"x" * (6 << 20) + b'"}}'


def test_a_client_still_sending_an_oversize_body_gets_the_413_and_its_message(tight):
    """The 413 is decided from the headers; the body is read and dropped, so the answer arrives
    instead of a connection reset while a client (urllib: it sends all, then reads) is still writing
    several MiB, more than the socket buffers hold."""
    request = urllib.request.Request(
        tight.url,
        data=OVERSIZE,
        headers={"content-type": "application/json", "accept": BOTH, "authorization": TOKEN.partition(": ")[2]},
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=HANG_GUARD)
    assert refused.value.code == 413
    assert "at most 1000 bytes" in assert_json_rpc_error(refused.value.read())["error"]["message"]


@pytest.mark.parametrize("chunked", [False, True])
def test_an_oversize_body_sent_whole_over_a_socket_gets_the_413(tight, chunked):
    with socket.create_connection(("127.0.0.1", tight.port)) as sock:
        if chunked:
            framed = b"".join(
                b"%x\r\n%s\r\n" % (len(OVERSIZE[i : i + 65536]), OVERSIZE[i : i + 65536])
                for i in range(0, len(OVERSIZE), 65536)
            )
            sock.sendall(head(tight.port, TOKEN, "Transfer-Encoding: chunked") + framed + b"0\r\n\r\n")
        else:
            sock.sendall(head(tight.port, TOKEN, length=len(OVERSIZE)) + OVERSIZE)
        status, headers, body = read_response(sock)
        assert status == 413 and headers["connection"] == "close"
        assert "at most 1000 bytes" in assert_json_rpc_error(body)["error"]["message"]


def test_a_chunked_body_over_the_limit_gets_413(tight):
    with socket.create_connection(("127.0.0.1", tight.port)) as sock:
        chunk = b"x" * 600
        sock.sendall(head(tight.port, TOKEN, "Transfer-Encoding: chunked") + b"%x\r\n%s\r\n" % (len(chunk), chunk) * 2)
        status, _, body = read_response(sock)
        assert status == 413
        assert_json_rpc_error(body)


# ------------------------------------------------------------------------------------------ sessions
def test_sessions_past_the_limit_get_503_until_one_ends(tight):
    headers = {"content-type": "application/json", "accept": BOTH, "authorization": "Bearer a-long-enough-test-token"}
    with httpx.Client(timeout=HANG_GUARD) as http:
        opened = [http.post(tight.url, json=rpc("initialize", INIT, id=i), headers=headers) for i in range(3)]
        assert [reply.status_code for reply in opened] == [200] * 3
        refused = http.post(tight.url, json=rpc("initialize", INIT, id=9), headers=headers)
        assert refused.status_code == 503 and int(refused.headers["retry-after"]) > 0
        assert assert_json_rpc_error(refused.content)["id"] == 9
        for reply in opened:
            assert (
                http.delete(
                    tight.url, headers={**headers, "mcp-session-id": reply.headers["mcp-session-id"]}
                ).status_code
                == 204
            )
        assert http.post(tight.url, json=rpc("initialize", INIT, id=10), headers=headers).status_code == 200


# ------------------------------------------------------------------------------------------ connections and calls
def test_connections_past_the_limit_get_503(cache_dir):
    with HttpServer("--max-connections", "4") as server:
        socks = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(4)]
        try:
            for sock in socks:  # each is accepted and counted before the next test
                sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                assert read_response(sock)[0] == 200
            with socket.create_connection(("127.0.0.1", server.port)) as extra:
                status, headers, body = read_response(extra)
                assert status == 503 and int(headers["retry-after"]) > 0
                assert_json_rpc_error(body)
                assert closed_by_server(extra)
        finally:
            for sock in socks:
                sock.close()
        assert httpx.get(f"{server.base}/healthz", timeout=HANG_GUARD).status_code == 200


def test_calls_past_the_limit_get_503(cache_dir, tmp_path):
    # Two `hold` calls, each seen running in its own worker before the next is sent, take both slots of
    # --max-calls 2: the third call is refused whatever the machine's speed (no race with the first two).
    with HttpServer(
        "--programs", str(PROGRAMS), "--stateless", "--max-calls", "2", "--cobol-workers", "2", "--timeout", "600"
    ) as server:

        async def go() -> httpx.Response:
            async with httpx.AsyncClient(timeout=HANG_GUARD) as http:

                def call(name: str, arguments: dict, id: int) -> asyncio.Future[httpx.Response]:
                    return asyncio.ensure_future(
                        http.post(
                            server.url,
                            json=rpc("tools/call", {"name": name, "arguments": arguments}, id=id),
                            headers={"accept": BOTH},
                        )
                    )

                held = []
                for ticket in (1, 2):
                    held.append(call("hold", hold(tmp_path, str(ticket)), ticket))
                    await entered(tmp_path, str(ticket))
                try:
                    return await call("add", {"a": 1, "b": 2}, 100)
                finally:
                    (tmp_path / "release").touch()
                    for reply in await asyncio.gather(*held):
                        assert reply.status_code == 200  # the held calls were never disturbed

        reply = asyncio.run(go())
        assert reply.status_code == 503, reply.text
        assert int(reply.headers["retry-after"]) > 0
        assert assert_json_rpc_error(reply.content)["error"]["code"] == -32000


def test_a_thousand_concurrent_connections_are_all_answered(cache_dir):
    with HttpServer("--stateless") as server:

        async def one(i: int) -> dict:
            reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
            body = json.dumps(rpc("tools/call", {"name": "add", "arguments": {"a": i, "b": 1}}, id=i)).encode()
            writer.write(head(server.port, "Connection: close", length=len(body)) + body)
            data = await asyncio.wait_for(reader.read(), HANG_GUARD)
            writer.close()
            status = int(data.split(b" ", 2)[1])
            assert status == 200, data
            return json.loads(data.partition(b"\r\n\r\n")[2])

        async def go() -> list[dict]:
            return await asyncio.gather(*(one(i) for i in range(1000)))

        replies = asyncio.run(go())
        assert [reply["id"] for reply in replies] == list(range(1000))
        assert [reply["result"]["structuredContent"]["sum"] for reply in replies] == [str(i + 1) for i in range(1000)]
        assert httpx.get(f"{server.base}/healthz", timeout=HANG_GUARD).status_code == 200


# ------------------------------------------------------------------------------------------ faults
def test_a_killed_cobol_worker_fails_its_call_and_nothing_else(cache_dir):
    with HttpServer("--programs", str(PROGRAMS), "--cobol-workers", "2", "--timeout", "60") as server:
        client = McpHttp(server)
        assert client.call("add", a=1, b=1)["structuredContent"] == {"sum": "2"}

        async def go() -> tuple[dict, list[httpx.Response]]:
            async with httpx.AsyncClient(timeout=HANG_GUARD) as http:
                slow = http.stream(
                    "POST",
                    server.url,
                    content=json.dumps(
                        rpc(
                            "tools/call",
                            {"name": "sleep_for", "arguments": {"milliseconds": 600000}, "_meta": {"progressToken": 1}},
                            id="slow",
                        )
                    ),
                    headers=client.headers(),
                )
                async with slow as stream:
                    lines = stream.aiter_lines()
                    async for line in lines:  # a progress notification: the sleeper has its worker
                        if "notifications/progress" in line:
                            break
                    others = [
                        asyncio.ensure_future(
                            http.post(
                                server.url,
                                content=json.dumps(
                                    rpc("tools/call", {"name": "add", "arguments": {"a": i, "b": 1}}, id=i)
                                ),
                                headers=client.headers(),
                            )
                        )
                        for i in range(20)
                    ]
                    await others[0]  # a second worker is up and serving
                    for pid in children(server.proc.pid):
                        os.kill(pid, signal.SIGKILL)
                    rest = "\n".join([line async for line in lines])
                final = [m for m in sse_messages(rest) if m.get("id") == "slow"]
                assert len(final) == 1, rest
                return final[0], list(await asyncio.gather(*others))

        slow, others = asyncio.run(go())
        failed = slow
        assert failed["id"] == "slow" and ("error" in failed or failed["result"]["isError"] is True), failed
        for i, reply in enumerate(others):  # each answered once, with its id; some may have met the killed worker
            assert reply.status_code == 200 and reply.json()["id"] == i
        assert client.call("add", a=2, b=3)["structuredContent"] == {"sum": "5"}  # new workers serve
        client.close()


def test_a_fault_while_answering_still_answers_json_rpc(tight):
    headers = {"content-type": "application/json", "accept": BOTH, "authorization": "Bearer a-long-enough-test-token"}
    body = b'{"jsonrpc":"2.0","id":"\\ud800","method":"ping"}'  # a lone surrogate in the id
    with httpx.Client(timeout=HANG_GUARD) as http:
        init = http.post(tight.url, json=rpc("initialize", INIT, id=0), headers=headers)
        session = {**headers, "mcp-session-id": init.headers["mcp-session-id"]}
        reply = http.post(tight.url, content=body, headers=session)
        http.delete(tight.url, headers=session)
    assert reply.status_code == 200 and reply.headers["content-type"] == "application/json"
    assert json.loads(reply.content)["id"] == "\ud800"


# ------------------------------------------------------------------------------------------ stopping
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_stop_ends_streams_slow_clients_and_workers(cache_dir, sig):
    server = HttpServer(
        "--programs", str(PROGRAMS), "--cobol-workers", "2", "--timeout", "600", "--shutdown-grace", "0"
    )
    try:
        client = McpHttp(server)
        streamed = socket.create_connection(("127.0.0.1", server.port))  # a tool call streaming progress
        body = json.dumps(
            rpc(
                "tools/call",
                {"name": "sleep_for", "arguments": {"milliseconds": 600000}, "_meta": {"progressToken": "p"}},
                id="long",
            )
        ).encode()
        streamed.sendall(
            head(
                server.port,
                f"Mcp-Session-Id: {client.session_id}",
                "Mcp-Protocol-Version: 2025-11-25",
                length=len(body),
            ).replace(f"Accept: {BOTH}".encode(), b"Accept: text/event-stream")
            + body
        )
        streamed.settimeout(HANG_GUARD)
        received = b""
        while b"notifications/progress" not in received:  # the stream is open and the call running
            chunk = streamed.recv(65536)
            assert chunk, received
            received += chunk
        slow_head = socket.create_connection(("127.0.0.1", server.port))
        slow_head.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        slow_body = socket.create_connection(("127.0.0.1", server.port))
        slow_body.sendall(head(server.port, f"Mcp-Session-Id: {client.session_id}", length=100) + b"{")
        workers = children(server.proc.pid)
        assert workers

        server.proc.send_signal(sig)
        server.proc.wait(HANG_GUARD)

        assert not [pid for pid in workers if alive(pid)]
        while chunk := streamed.recv(65536):  # the stream ended; the call, if answered, with an error
            received += chunk
        text = received.partition(b"\r\n\r\n")[2].decode(errors="replace")
        finals = [m for m in sse_messages(_unchunk(text)) if m.get("id") == "long"]
        assert all("error" in m for m in finals), finals
        for sock in (streamed, slow_head, slow_body):
            sock.close()
        client.close()
    finally:
        server.stop()
        server._stderr.close()


def _unchunk(text: str) -> str:
    """An SSE body with HTTP/1.1 chunk-size lines left in: drop those lines."""
    return "\n".join(line for line in text.split("\r\n") if not _is_hex(line))


def _is_hex(line: str) -> bool:
    return bool(line) and all(c in "0123456789abcdefABCDEF" for c in line)


def test_bytes_that_are_not_http_get_a_json_rpc_400(tight):
    with socket.create_connection(("127.0.0.1", tight.port)) as sock:
        sock.sendall(b"GARBAGE\x00\x01 / HTTP/1.1\r\n\r\n")
        status, headers, body = read_response(sock)
        assert status == 400 and headers["content-type"] == "application/json"
        assert_json_rpc_error(body)
        assert closed_by_server(sock)
