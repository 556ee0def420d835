"""deploy/nginx, end to end: nginx (Debian's package) in front of three replicas on loopback.

The recipes of deploy/nginx run as written (only ports changed, X-Upstream switched on: the address
of the replica that answered, or of each one tried, comma-separated). Shown here:

- `--stateless` replicas behind cobol-mcp.conf: SDK clients of both eras work, requests spread
  over all three, and after one replica is SIGKILLed mid-run nothing hangs, only requests that had
  reached it fail, and every request after nginx noticed succeeds on the other two (the passive
  health check).
- Why sessions need client affinity: round robin sends a session's next request to another
  replica (404, session not found), and so does hashing on Mcp-Session-Id (the initialize that
  creates the session carries no id yet); cobol-mcp-sessions.conf keeps every session on its
  replica by client address, and still spreads 2026-07-28 requests over all replicas.

No assertion on durations: timeouts are hang guards only.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import threading
import time
from collections import Counter
from collections.abc import Callable

import pytest

from ..sdk_checks import check_bundled_tools
from ..transports.conftest import BOTH, INIT, MODERN, HttpServer, modern_post, rpc
from .nginx import SESSIONS, STATELESS, Nginx, nginx_binary, replace_once, site_config

httpx = pytest.importorskip("httpx")
mcp = pytest.importorskip("mcp")

pytestmark = pytest.mark.skipif(
    nginx_binary() is None,
    reason="nginx is not installed (./test.sh installs Debian's nginx with apt-get when run as root or with "
    "passwordless sudo; else: sudo apt-get install nginx)",
)

LEGACY = {"content-type": "application/json", "accept": BOTH, "mcp-protocol-version": "2025-11-25"}
TIMEOUT = 30  # hang guard per request


def start_replicas(*args: str, count: int = 3) -> list[HttpServer]:
    replicas = [HttpServer(*args, wait=False) for _ in range(count)]  # start together, then wait for each
    try:
        for replica in replicas:
            replica.wait_ready()
    except BaseException:
        for replica in replicas:
            replica.__exit__(None, None, None)
        raise
    return replicas


def stop_all(replicas: list[HttpServer]) -> None:
    for replica in replicas:
        replica.__exit__(None, None, None)


def address(replica: HttpServer) -> str:
    return f"127.0.0.1:{replica.port}"


def answered_by(reply: httpx.Response) -> str:
    """The replica whose answer this is: the last address of X-Upstream (earlier ones failed)."""
    return reply.headers["x-upstream"].split(",")[-1].strip()


def add(url: str, i: int, client: httpx.Client | None = None) -> httpx.Response:
    """A handshake-era `tools/call add` with no session (what a --stateless replica serves)."""
    body = json.dumps(rpc("tools/call", {"name": "add", "arguments": {"a": i, "b": 1}}, id=i))
    send = client.post if client is not None else httpx.post
    return send(url, content=body, headers=LEGACY, timeout=TIMEOUT)


def sum_of(reply: httpx.Response) -> str | None:
    try:
        return reply.json()["result"]["structuredContent"]["sum"]
    except (ValueError, KeyError, TypeError):
        return None


@pytest.fixture(scope="module")
def stateless(cache_dir, tmp_path_factory):
    replicas = start_replicas("--stateless")
    try:
        with Nginx(tmp_path_factory.mktemp("nginx"), site_config(STATELESS, [r.port for r in replicas])) as front:
            front.wait_ready()
            yield front, replicas
    finally:
        stop_all(replicas)


@pytest.fixture(scope="module")
def stateful(cache_dir):
    """Three replicas with sessions (the default mode): the affinity tests put different nginx in front."""
    replicas = start_replicas()
    yield replicas
    stop_all(replicas)


# ------------------------------------------------------------------------------ stateless replicas


async def sdk_session(url: str, mode: str) -> str:
    async with mcp.Client(url, mode=mode) as client:
        await check_bundled_tools(client)
        results = await asyncio.gather(*(client.call_tool("add", {"a": i, "b": 1}) for i in range(6)))
        assert [r.structured_content for r in results] == [{"sum": str(i + 1)} for i in range(6)]
        return client.protocol_version


def test_sdk_clients_of_both_eras_through_nginx(stateless):
    front, _ = stateless
    for mode, era in (("legacy", "2025-11-25"), ("auto", MODERN), ("2026-07-28", MODERN)):
        assert asyncio.run(asyncio.wait_for(sdk_session(front.url, mode), 60)) == era


def test_requests_spread_over_every_replica(stateless):
    front, replicas = stateless
    with httpx.Client() as client:  # one keep-alive client connection: nginx still balances per request
        replies = [add(front.url, i, client) for i in range(30)]
        modern = [
            modern_post(front, "tools/call", {"name": "add", "arguments": {"a": i, "b": 1}}, id=i) for i in range(30)
        ]
    assert [r.status_code for r in replies + modern] == [200] * 60
    assert [sum_of(r) for r in replies] == [sum_of(r) for r in modern] == [str(i + 1) for i in range(30)]
    for batch in (replies, modern):
        counts = Counter(answered_by(r) for r in batch)
        assert set(counts) == {address(r) for r in replicas}
        assert min(counts.values()) >= 5  # round robin: 10 each while all three are up
    health = httpx.get(f"{front.base}/healthz", timeout=TIMEOUT)
    assert health.status_code == 200 and health.json() == {"status": "ok"}


def test_a_replica_killed_mid_run(cache_dir, tmp_path):
    replicas = start_replicas("--stateless")
    try:
        with Nginx(tmp_path / "nginx", site_config(STATELESS, [r.port for r in replicas])) as front:
            front.wait_ready()
            killed_replica_mid_run(front, replicas)
    finally:
        stop_all(replicas)


def killed_replica_mid_run(front: Nginx, replicas: list[HttpServer]) -> None:
    victim, survivors = replicas[0], {address(r) for r in replicas[1:]}
    before = [add(front.url, i) for i in range(9)]
    assert [r.status_code for r in before] == [200] * 9
    assert {answered_by(r) for r in before} == survivors | {address(victim)}

    # Four clients keep sending while the replica dies. Each request is recorded with the phase it was
    # sent in: 0 before the kill, 1 after it, 2 once nginx has logged a failure against the victim.
    phase = [0]
    stop = threading.Event()
    outcomes: list[tuple[object, int, httpx.Response | None]] = []
    lock = threading.Lock()

    def load(worker: int) -> None:
        with httpx.Client() as client:
            i = 0
            while not stop.is_set():
                sent_in = phase[0]
                i += 1
                try:
                    reply = add(front.url, worker * 100_000 + i, client)
                    right = sum_of(reply) == str(worker * 100_000 + i + 1)
                    outcome: object = reply.status_code if right or reply.status_code != 200 else "wrong sum"
                except httpx.HTTPError as exc:
                    reply, outcome = None, type(exc).__name__
                with lock:
                    outcomes.append((outcome, sent_in, reply))

    def wait_for(condition: Callable[[], bool], what: str) -> None:
        guard = time.monotonic() + 120  # a hang guard, not a measurement
        while not condition():
            if time.monotonic() > guard or not all(thread.is_alive() for thread in threads):
                stop.set()
                pytest.fail(f"no progress while waiting for {what}: {Counter((o, p) for o, p, _ in outcomes)}")
            time.sleep(0.01)

    def sent(in_phase: int) -> int:
        with lock:
            return sum(p == in_phase for _, p, _ in outcomes)

    threads = [threading.Thread(target=load, args=(w,), daemon=True) for w in range(4)]
    for thread in threads:
        thread.start()
    wait_for(lambda: sent(0) >= 40, "traffic on all three replicas")
    os.killpg(victim.proc.pid, signal.SIGKILL)  # the replica and its COBOL workers, no goodbye
    victim.proc.wait(TIMEOUT)
    phase[0] = 1
    wait_for(lambda: f'upstream: "http://{address(victim)}/mcp"' in front.errors(), "nginx to notice")
    phase[0] = 2
    wait_for(lambda: sent(2) >= 120, "requests after nginx noticed")
    stop.set()
    for thread in threads:
        thread.join(TIMEOUT)
        assert not thread.is_alive(), "a request through nginx hung"

    failed = [(o, p, r) for o, p, r in outcomes if o != 200]
    # What may fail: a request that reached the victim before nginx knew it was dead, either in flight
    # when it died or sent on one of nginx's idle keep-alive connections to it. nginx does not resend
    # such a POST (the call may have run): 502, or, when the reply had begun to stream, the client
    # connection is closed mid-reply. At most one of each kind per client.
    assert all(p in (0, 1) for _, p, _ in failed), failed
    assert all(o == 502 and answered_by(r) == address(victim) for o, _, r in failed if r is not None), failed
    assert all(o == "RemoteProtocolError" for o, _, r in failed if r is None), failed
    assert len(failed) <= 2 * len(threads), failed
    # Once nginx has counted the failure (max_fails=1), every request succeeds, served by the survivors.
    noticed = [(o, r) for o, p, r in outcomes if p == 2]
    assert [o for o, _ in noticed] == [200] * len(noticed), Counter(o for o, _ in noticed)
    assert {answered_by(r) for _, r in noticed} == survivors

    after = [add(front.url, i) for i in range(20)]
    assert [r.status_code for r in after] == [200] * 20
    assert [sum_of(r) for r in after] == [str(i + 1) for i in range(20)]
    assert {answered_by(r) for r in after} == survivors
    assert asyncio.run(asyncio.wait_for(sdk_session(front.url, "legacy"), 60)) == "2025-11-25"
    assert asyncio.run(asyncio.wait_for(sdk_session(front.url, "2026-07-28"), 60)) == MODERN
    assert httpx.get(f"{front.base}/healthz", timeout=TIMEOUT).status_code == 200
    assert f'upstream: "http://{address(victim)}/mcp"' in front.errors()  # the failure nginx counted against it


# ------------------------------------------------------------------------------ session affinity


def open_session(client: httpx.Client, url: str) -> tuple[str, str]:
    """initialize through nginx: (the session id, the replica that created it)."""
    reply = client.post(url, content=json.dumps(rpc("initialize", INIT, id=0)), headers=LEGACY, timeout=TIMEOUT)
    assert reply.status_code == 200, reply.text
    return reply.headers["mcp-session-id"], answered_by(reply)


def in_session(client: httpx.Client, url: str, session: str, message: dict) -> httpx.Response:
    headers = {**LEGACY, "mcp-session-id": session}
    return client.post(url, content=json.dumps(message), headers=headers, timeout=TIMEOUT)


def test_round_robin_sends_a_session_to_replicas_that_do_not_know_it(stateful, tmp_path):
    with Nginx(tmp_path, site_config(STATELESS, [r.port for r in stateful])) as front, httpx.Client() as client:
        front.wait_ready()
        session, home = open_session(client, front.url)
        replies = [in_session(client, front.url, session, rpc("tools/list", id=i)) for i in range(1, 4)]
    for reply in replies:  # 200 from the replica holding the session, 404 from the others
        assert reply.status_code == (200 if answered_by(reply) == home else 404), (reply.status_code, reply.text)
    lost = [r for r in replies if r.status_code == 404]
    assert lost, "round robin over three replicas sends one of three requests elsewhere"
    assert "session" in lost[0].text.lower()


def test_hashing_the_session_id_misses_the_replica_that_created_it(stateful, tmp_path):
    """The tempting design: requests without Mcp-Session-Id round robin, with it `hash $http_mcp_session_id`.
    The initialize has no id yet, so the replica the id hashes to is, two times in three, another one."""
    text = SESSIONS.read_text()
    text = replace_once(
        text, "map $http_mcp_protocol_version $cobol_mcp_pool", "map $http_mcp_session_id $cobol_mcp_pool"
    )
    text = replace_once(text, '"2026-07-28"  cobol_mcp_any;', '""  cobol_mcp_any;')
    text = replace_once(text, "hash $remote_addr consistent;", "hash $http_mcp_session_id consistent;")
    with Nginx(tmp_path, site_config(text, [r.port for r in stateful])) as front, httpx.Client() as client:
        front.wait_ready()
        outcomes = []
        for _ in range(30):  # each session misses with probability 2/3: a miss comes soon
            session, home = open_session(client, front.url)
            reply = in_session(client, front.url, session, rpc("ping", id=1))
            outcomes.append((reply.status_code, answered_by(reply) == home))
            if reply.status_code == 404:
                break
    assert all(status == (200 if at_home else 404) for status, at_home in outcomes), outcomes
    assert outcomes[-1] == (404, False), outcomes


def test_client_affinity_keeps_every_session_on_its_replica(stateful, tmp_path):
    homes: dict[str, str] = {}
    with Nginx(tmp_path, site_config(SESSIONS, [r.port for r in stateful])) as front:
        front.wait_ready()
        for n in range(1, 17):  # sixteen clients, from sixteen loopback addresses (all of 127/8 is this host)
            source = f"127.0.0.{n}"
            with httpx.Client(transport=httpx.HTTPTransport(local_address=source)) as client:
                session, home = open_session(client, front.url)
                replies = [in_session(client, front.url, session, rpc("notifications/initialized", id=None))]
                replies += [
                    in_session(
                        client,
                        front.url,
                        session,
                        rpc("tools/call", {"name": "add", "arguments": {"a": i, "b": n}}, id=i),
                    )
                    for i in range(1, 7)
                ]
                replies.append(client.delete(front.url, headers={**LEGACY, "mcp-session-id": session}, timeout=TIMEOUT))
            assert [r.status_code for r in replies] == [202] + [200] * 6 + [204], [r.text for r in replies]
            assert [sum_of(r) for r in replies[1:7]] == [str(i + n) for i in range(1, 7)]
            assert {answered_by(r) for r in replies} == {home}  # every request of the session on its replica
            homes[source] = home
        assert len(set(homes.values())) >= 2  # the clients are spread (consistent hash of their addresses)
        # 2026-07-28 requests need no affinity: round robin over all three, whatever the client address.
        modern = [
            modern_post(front, "tools/call", {"name": "add", "arguments": {"a": i, "b": 1}}, id=i) for i in range(9)
        ]
        assert [sum_of(r) for r in modern] == [str(i + 1) for i in range(9)]
        assert {answered_by(r) for r in modern} == {address(r) for r in stateful}
        assert asyncio.run(asyncio.wait_for(sdk_session(front.url, "legacy"), 60)) == "2025-11-25"
