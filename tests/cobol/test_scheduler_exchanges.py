"""Mid-call service exchanges in the scheduler, in memory: a running call asks the server (a reply
of status SERVICE_STATUS), the call stays at the head of its lane, the answer is a frame of kind
ANSWER_KIND queued for its worker; pipelined calls, crashes and timeouts around it."""

from __future__ import annotations

import struct

from cobol_mcp.cobol.runtime.frames import (
    ANSWER_KIND,
    COMMIT_WAIT,
    REPLY_HEAD,
    SERVICE_HEAD,
    SERVICE_STATUS,
    CallResult,
    Exchange,
    Program,
)
from cobol_mcp.cobol.runtime.scheduler import Lane, Scheduler

from .test_scheduler import STALL, TIMEOUT, answer, program, scheduler, spawned, written


def ask(call_id: int, number: int, *params: bytes, service: int = 1) -> bytes:
    """A service reply as the C worker's SQLRT (service 1) sends it."""
    sizes = struct.pack(f"<{len(params)}I", *map(len, params))
    records = SERVICE_HEAD.pack(service, len(params)) + sizes + b"".join(params)
    return REPLY_HEAD.pack(call_id, SERVICE_STATUS, number, len(records), 0) + records


def start(s: Scheduler, p: Program, results: dict[int, CallResult], asked: list[Exchange], n: int) -> list[int]:
    """`n` calls of `p` submitted at once (pipelined to one worker), each with a service noting what it is asked."""
    ids: list[int] = []
    for i in range(n):
        box: list[int] = []
        call_id = s.submit(
            p, [b"%04d" % i, b"wxyz"], lambda r, box=box: results.__setitem__(box[0], r), None, 0.0, asked.append
        )
        box.append(call_id)
        ids.append(call_id)
    return ids


def deliver(s: Scheduler, lane: Lane, data: bytes, now: float) -> None:
    for callback, result in s.receive(lane, data, now):
        callback(result)


def take_exchanges(s: Scheduler) -> list[Exchange]:
    asked = []
    for service, exchange in s.exchanges:
        service(exchange)
        asked.append(exchange)
    s.exchanges.clear()
    return asked


def test_an_exchange_leaves_its_call_running_while_calls_behind_it_stay_pipelined() -> None:
    s, results, asked = scheduler(max_workers=1), {}, []
    p = program()
    first, second, third = start(s, p, results, asked, 3)
    (lane,) = spawned(s)
    frames = written(s, lane)
    assert [kind for kind, _, _ in frames] == [1, 2, 2, 2]  # all three went to the worker at once
    deliver(s, lane, answer(frames[0]) + ask(first, 101, b"ab", b"\x00\x00\x1c"), 0.01)
    (exchange,) = take_exchanges(s)
    assert asked == [exchange] and not results and not s.kills
    assert (exchange.call_id, exchange.service, exchange.number, exchange.params) == (
        first,
        "SQLRT",
        101,
        [b"ab", b"\x00\x00\x1c"],
    )
    assert lane.inflight[0].id == first and len(lane.inflight) == 3  # still running, still first
    bytes_before = lane.inflight_bytes
    assert s.answer(exchange, [b"cd", b"\x00\x00\x2c"])
    assert written(s, lane) == [(ANSWER_KIND, first, b"cd\x00\x00\x2c")]
    assert lane.inflight_bytes == bytes_before  # the answer is outside the in-flight count
    assert not s.answer(exchange, [b"cd", b"\x00\x00\x2c"])  # answered once only
    # the worker asks again, then ends the call; the calls behind it then run as usual
    deliver(s, lane, ask(first, 102, b"ef"), 0.02)
    (again,) = take_exchanges(s)
    assert again.number == 102 and s.answer(again, [b"gh"])
    deliver(s, lane, b"".join(answer(f) for f in frames[1:]), 0.03)
    assert sorted(results) == [first, second, third] and all(r.ok for r in results.values())
    assert results[second].buffers == [b"zyxw", b"1000"]


def test_the_time_waiting_for_an_answer_counts_against_the_call_timeout() -> None:
    s, results, asked = scheduler(max_workers=1), {}, []
    (first, second) = start(s, program(), results, asked, 2)
    (lane,) = spawned(s)
    frames = written(s, lane)
    deliver(s, lane, answer(frames[0]), 0.0)  # the load: the first call starts at 0.0
    deliver(s, lane, ask(first, 7, b"x"), 5.0)
    (exchange,) = take_exchanges(s)
    assert s.next_deadline() == TIMEOUT  # from the call's start, not from the exchange
    s.expire(TIMEOUT - 0.001)
    assert not s.kills
    s.expire(TIMEOUT)
    ((killed, why),) = s.kills
    assert killed is lane and why and "waiting for the answer to SQLRT 7" in why
    s.kills.clear()
    for callback, result in s.lost(lane, why, ""):
        callback(result)
    assert not results[first].ok and "timed out" in (results[first].error or "")
    assert [c.id for c in s.backlog] == [second]  # the call behind it waits for another worker
    assert not s.answer(exchange, [b"y"])  # a late answer goes nowhere


def test_a_worker_lost_mid_exchange_fails_only_the_asking_call() -> None:
    s, results, asked = scheduler(max_workers=1), {}, []
    first, second = start(s, program(), results, asked, 2)
    (lane,) = spawned(s)
    frames = written(s, lane)
    deliver(s, lane, answer(frames[0]) + ask(first, 3, b"abc"), 0.01)
    (exchange,) = take_exchanges(s)
    for callback, result in s.lost(lane, "killed by signal 9 (SIGKILL)", ""):
        callback(result)
    assert list(results) == [first] and results[first].error == "killed by signal 9 (SIGKILL)"
    assert not s.answer(exchange, [b"def"]) and not s.fail(exchange, "too late")
    s.drain(0.02)
    (fresh,) = spawned(s)
    assert [(kind, cid) for kind, cid, _ in written(s, fresh)] == [(1, 0), (2, second)]


def test_a_failed_exchange_kills_its_worker_with_the_reason() -> None:
    s, results, asked = scheduler(max_workers=1), {}, []
    (first,) = start(s, program(), results, asked, 1)
    (lane,) = spawned(s)
    deliver(s, lane, answer(written(s, lane)[0]) + ask(first, 9, b"ab"), 0.01)
    (exchange,) = take_exchanges(s)
    assert s.fail(exchange, "no such table")
    assert s.kills == [(lane, "SQLRT 9 failed: no such table")]


def test_an_answer_of_other_sizes_fails_the_call() -> None:
    s, results, asked = scheduler(max_workers=1), {}, []
    (first,) = start(s, program(), results, asked, 1)
    (lane,) = spawned(s)
    deliver(s, lane, answer(written(s, lane)[0]) + ask(first, 9, b"ab", b"c"), 0.01)
    (exchange,) = take_exchanges(s)
    assert not s.answer(exchange, [b"abc", b"c"])
    ((killed, why),) = s.kills
    assert killed is lane and "[3, 1] bytes for the program's [2, 1]" in why and not lane.pending_out


def test_a_call_without_a_service_that_asks_is_killed() -> None:
    s, results = scheduler(max_workers=1), {}
    p = program()
    s.submit(p, [b"abcd", b"efgh"], lambda r: results.__setitem__(0, r), None, 0.0)
    (lane,) = spawned(s)
    frames = written(s, lane)
    deliver(s, lane, answer(frames[0]) + ask(frames[1][1], 4, b"x"), 0.01)
    ((killed, why),) = s.kills
    assert killed is lane and "CALLed SQLRT (statement 4)" in why and not s.exchanges


def test_a_service_request_that_does_not_add_up_is_refused() -> None:
    s, results, asked = scheduler(max_workers=1), {}, []
    (first,) = start(s, program(), results, asked, 1)
    (lane,) = spawned(s)
    records = SERVICE_HEAD.pack(1, 2) + struct.pack("<2I", 4, 4) + b"abc"  # 7 bytes for 8
    bad = REPLY_HEAD.pack(first, SERVICE_STATUS, 1, len(records), 0) + records
    deliver(s, lane, answer(written(s, lane)[0]) + bad, 0.01)
    ((killed, why),) = s.kills
    assert killed is lane and "do not fill" in why and not s.exchanges


def test_a_call_that_does_not_ask_keeps_the_stall_clock_of_its_predecessor() -> None:
    """After an exchange the head call's start time is unchanged; a final reply restarts it."""
    s, results, asked = scheduler(max_workers=1), {}, []
    first, _second = start(s, program(), results, asked, 2)
    (lane,) = spawned(s)
    frames = written(s, lane)
    deliver(s, lane, answer(frames[0]), 0.0)
    deliver(s, lane, ask(first, 1, b"a"), STALL * 3)
    assert lane.head_started == 0.0
    (exchange,) = take_exchanges(s)
    s.answer(exchange, [b"b"])
    deliver(s, lane, answer(frames[1]), STALL * 4)
    assert lane.head_started == STALL * 4 and results[first].ok


def test_a_call_whose_commit_has_begun_ends_as_its_commit_does_past_its_timeout() -> None:
    """The worker was let commit (the answer to an exchange that ``commits``); the commit is still going at
    the call's timeout: the call is not ended then, and the worker's reply, however late, is its answer."""
    s, results, asked = scheduler(max_workers=1), {}, []
    (first, second) = start(s, program(), results, asked, 2)
    (lane,) = spawned(s)
    frames = written(s, lane)
    deliver(s, lane, answer(frames[0]), 0.0)  # the load: the first call starts at 0.0
    deliver(s, lane, ask(first, 0, service=3), 1.0)  # the program returned: may it commit?
    (go_ahead,) = take_exchanges(s)
    go_ahead.commits = True  # (the service says its answer lets the worker commit)
    assert s.answer(go_ahead, [])
    written(s, lane)
    s.expire(TIMEOUT)
    s.expire(TIMEOUT + COMMIT_WAIT - 0.001)
    assert not s.kills and not results  # the commit is under way: its outcome will be the call's
    deliver(s, lane, answer(frames[1]), TIMEOUT + COMMIT_WAIT - 0.001)  # committed: the call's ordinary reply
    assert results[first].ok and results[first].buffers == [b"zyxw", b"0000"]
    assert lane.inflight[0].id == second  # and the next call runs on


def test_a_commit_that_never_ends_is_reported_as_an_unknown_outcome() -> None:
    s, results, asked = scheduler(max_workers=1), {}, []
    (first,) = start(s, program(), results, asked, 1)
    (lane,) = spawned(s)
    deliver(s, lane, answer(written(s, lane)[0]), 0.0)
    deliver(s, lane, ask(first, 0, service=3), 1.0)
    (go_ahead,) = take_exchanges(s)
    go_ahead.commits = True
    assert s.answer(go_ahead, [])
    deadline = s.next_deadline()
    assert deadline == TIMEOUT + COMMIT_WAIT  # (from the call's start)
    s.expire(deadline)
    ((killed, why),) = s.kills
    assert killed is lane and why and "may or may not have been committed, its outcome is unknown" in why
    s.kills.clear()
    for callback, result in s.lost(lane, why, ""):
        callback(result)
    assert not results[first].ok and "outcome is unknown" in (results[first].error or "")


def test_a_call_timed_out_before_it_was_let_commit_is_timed_out() -> None:
    s, results, asked = scheduler(max_workers=1), {}, []
    (first,) = start(s, program(), results, asked, 1)
    (lane,) = spawned(s)
    deliver(s, lane, answer(written(s, lane)[0]), 0.0)
    deliver(s, lane, ask(first, 0, service=3), 1.0)
    (go_ahead,) = take_exchanges(s)
    go_ahead.commits = True  # (answered only after the timeout: too late, the worker never commits)
    s.expire(TIMEOUT)
    ((killed, why),) = s.kills
    assert killed is lane and why and "waiting for the answer to SQLPLAN 0" in why
