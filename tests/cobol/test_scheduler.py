"""The worker pool's scheduler in memory: no processes, no pipes, no clock (time is an argument).

A fake worker plays the other end: it takes the frames the scheduler queued for its lane and answers
each in turn, as worker.py does (a load with an empty reply, a call with its records reversed and
the program index as RETURN-CODE)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from cobol_mcp.cobol.runtime.frames import REPLY_HEAD, REQUEST_HEAD, CallResult, Program, load_body
from cobol_mcp.cobol.runtime.scheduler import Lane, Scheduler

STALL, TIMEOUT = 0.05, 10.0


def program(index: int = 0, sizes: tuple[int, ...] = (4, 4)) -> Program:
    source = (f"/m{index}.so", f"p{index}", sizes, "", "", "")
    return Program(f"p{index}", index, sizes, load_body(index, source), source)


def scheduler(max_workers: int = 2, room: int = 64 << 10) -> Scheduler:
    return Scheduler(max_workers=max_workers, timeout=TIMEOUT, stall_after=STALL, room=room)


def written(s: Scheduler, lane: Lane) -> list[tuple[int, int, bytes]]:
    """What a flush would write to `lane`'s worker, as (kind, call id, body) frames."""
    if lane in s.unflushed:
        s.unflushed.remove(lane)
    data = b"".join(lane.pending_out)
    lane.pending_out.clear()
    frames, pos = [], 0
    while pos < len(data):
        kind, call_id, length = REQUEST_HEAD.unpack_from(data, pos)
        pos += REQUEST_HEAD.size
        frames.append((kind, call_id, data[pos : pos + length]))
        pos += length
    return frames


def answer(frame: tuple[int, int, bytes]) -> bytes:
    kind, call_id, body = frame
    if kind == 1:
        return REPLY_HEAD.pack(call_id, 0, 0, 0, 0)
    records = body[2:][::-1]
    return REPLY_HEAD.pack(call_id, 0, body[0], len(records), 0) + records


def spawned(s: Scheduler) -> list[Lane]:
    lanes, s.spawns[:] = list(s.spawns), []
    return lanes


def submit(s: Scheduler, results: dict[int, CallResult], p: Program, records: bytes, now: float) -> int:
    box: list[int] = []
    call_id = s.submit(
        p, [records[: p.sizes[0]], records[p.sizes[0] :]], lambda r: results.__setitem__(box[0], r), None, now
    )
    box.append(call_id)
    return call_id


def test_a_first_call_asks_for_a_worker_loads_its_module_and_matches_the_reply() -> None:
    s, results = scheduler(), {}
    call_id = submit(s, results, program(), b"abcdefgh", 0.0)
    (lane,) = spawned(s)
    frames = written(s, lane)
    assert [(kind, cid) for kind, cid, _ in frames] == [(1, 0), (2, call_id)]
    replies = b"".join(answer(f) for f in frames)
    assert s.receive(lane, replies[:7], 0.1) == []  # a reply cut by a read waits for its rest
    done = s.receive(lane, replies[7:], 0.1)
    assert len(done) == 1 and not results
    callback, result = done[0]
    callback(result)
    assert results[call_id].ok and results[call_id].buffers == [b"hgfe", b"dcba"]
    assert not s.busy and not lane.inflight and not s.kills


def test_pipelined_calls_share_one_busy_worker_until_it_stalls() -> None:
    s, results = scheduler(), {}
    p = program()
    submit(s, results, p, b"00000000", 0.0)
    (first,) = spawned(s)
    for n in range(5):
        submit(s, results, p, b"%08d" % n, 0.01)
    assert len(first.inflight) == 7 and not s.spawns  # load, 6 calls: sent ahead to the one worker
    submit(s, results, p, b"11111111", STALL + 0.01)  # the head has run past stall_after
    (second,) = spawned(s)
    assert [kind for kind, _, _ in written(s, second)] == [1, 2]


def test_a_call_sent_alone_never_waits_behind_a_busy_worker() -> None:
    s, results = scheduler(max_workers=2), {}
    p = program()
    submit(s, results, p, b"00000000", 0.0)  # a parent that will wait for its child
    (first,) = spawned(s)
    child = s.submit(p, [b"cccc", b"cccc"], lambda r: None, None, 0.01, alone=True)  # before the head stalls
    (second,) = spawned(s)
    assert [cid for _, cid, _ in written(s, second)] == [0, child]  # a worker of its own, not the busy one
    third = s.submit(p, [b"dddd", b"dddd"], lambda r: None, None, 0.02, alone=True)
    assert not s.spawns and [c.id for c in s.backlog] == [third]  # no idle worker and no room for one: it waits
    for callback, result in s.receive(first, b"".join(answer(f) for f in written(s, first)), 0.03):
        callback(result)
    assert [cid for _, cid, _ in written(s, first)] == [third]  # the first idle worker takes it


def test_calls_wait_when_every_worker_is_busy_and_full_then_drain_on_a_reply() -> None:
    p = program()
    s, results = scheduler(max_workers=1, room=3 * (REQUEST_HEAD.size + 10) + REQUEST_HEAD.size + len(p.load_body)), {}
    ids = [submit(s, results, p, b"%08d" % n, 0.0) for n in range(6)]
    (lane,) = spawned(s)
    assert len(lane.inflight) == 4 and s.backlog and s.busy  # the load and three calls fit
    assert s.next_deadline() == STALL  # waiting calls: look again when the worker counts as stuck
    frames = written(s, lane)
    for callback, result in s.receive(lane, b"".join(answer(f) for f in frames), 0.02):
        callback(result)
    assert sorted(results) == ids[:3] and not s.backlog and len(lane.inflight) == 3
    for callback, result in s.receive(lane, b"".join(answer(f) for f in written(s, lane)), 0.03):
        callback(result)
    assert sorted(results) == ids and all(results[i].ok for i in ids) and not s.busy


def test_a_call_past_its_timeout_has_its_worker_killed_and_the_calls_behind_it_resent() -> None:
    s, results = scheduler(), {}
    p = program()
    hung = submit(s, results, p, b"00000001", 0.0)
    behind = submit(s, results, p, b"00000002", 0.0)
    (lane,) = spawned(s)
    load = written(s, lane)[0]
    assert s.receive(lane, answer(load), 0.0) == []  # the module is loaded; the first call runs
    assert s.next_deadline() == TIMEOUT
    s.expire(TIMEOUT - 0.001)
    assert not s.kills
    s.expire(TIMEOUT)
    s.expire(TIMEOUT)  # asked twice before the owner acted: one order
    assert s.kills == [(lane, "timed out after 10 s (an endless loop?); its worker was restarted")]
    assert s.stats["timeouts"] == 1
    (killed, cause), s.kills[:] = s.kills[0], []
    for callback, result in s.lost(killed, cause or "", "partial DISPLAY"):
        callback(result)
    assert not results[hung].ok and results[hung].display == "partial DISPLAY" and "timed out" in results[hung].error
    assert [c.id for c in s.backlog] == [behind] and s.lanes == []
    s.drain(TIMEOUT)
    (fresh,) = spawned(s)
    assert [(kind, cid) for kind, cid, _ in written(s, fresh)] == [(1, 0), (2, behind)]


def test_a_reply_out_of_turn_orders_the_worker_killed_and_keeps_the_replies_before_it() -> None:
    s, results = scheduler(), {}
    p = program()
    submit(s, results, p, b"00000001", 0.0)
    second = submit(s, results, p, b"00000002", 0.0)
    (lane,) = spawned(s)
    load, _, second_frame = written(s, lane)
    done = s.receive(lane, answer(load) + answer(second_frame), 0.1)  # the first call is skipped
    assert done == [] and s.kills == [(lane, f"the COBOL worker answered call {second} out of turn")]
    s.kills.clear()
    s, results = scheduler(), {}
    first = submit(s, results, p, b"00000001", 0.0)
    (lane,) = spawned(s)
    load, call = written(s, lane)
    done = s.receive(lane, answer(load) + answer(call) + REPLY_HEAD.pack(first + 7, 0, 0, 0, 0), 0.1)
    assert [r.ok for _, r in done] == [True]  # the reply before it was in turn: it stands
    assert s.kills == [(lane, f"the COBOL worker answered call {first + 7} out of turn")]


def test_a_call_s_timeout_counts_from_when_it_reached_the_front_of_its_worker() -> None:
    s, results = scheduler(), {}
    p = program()
    submit(s, results, p, b"00000001", 0.0)
    second = submit(s, results, p, b"00000002", 0.0)
    (lane,) = spawned(s)
    load, first_frame, _ = written(s, lane)
    s.receive(lane, answer(load) + answer(first_frame), 9.0)  # the second call starts at 9 s
    assert s.next_deadline() == 9.0 + TIMEOUT
    s.expire(TIMEOUT + 1)
    assert not s.kills and [c.id for c in lane.inflight] == [second]
    s.expire(9.0 + TIMEOUT)
    assert [killed for killed, _ in s.kills] == [lane]


def test_cancel_drops_a_waiting_call_and_kills_a_running_one_without_a_result() -> None:
    s, results = scheduler(max_workers=1, room=1), {}
    p = program()
    running = submit(s, results, p, b"00000001", 0.0)
    queued = submit(s, results, p, b"00000002", 0.0)
    (lane,) = spawned(s)
    s.receive(lane, answer(written(s, lane)[0]), 0.0)  # the module is loaded; the first call runs
    assert [c.id for c in s.backlog] == [queued]
    assert s.cancel(queued) and not s.backlog and not s.kills
    assert not s.cancel(queued)
    assert s.cancel(running) and s.kills == [(lane, None)]
    assert s.lost(lane, "killed", "") == [] and not s.busy


def test_a_call_cancelled_behind_another_is_stopped_when_it_reaches_the_front() -> None:
    s, results = scheduler(), {}
    p = program()
    submit(s, results, p, b"00000001", 0.0)
    second = submit(s, results, p, b"00000002", 0.0)
    (lane,) = spawned(s)
    assert s.cancel(second) and not s.kills
    load, first_frame, _ = written(s, lane)
    s.receive(lane, answer(load) + answer(first_frame), 0.1)
    assert s.kills == [(lane, None)]


def test_a_module_that_kills_its_worker_on_load_fails_its_calls_and_is_never_loaded_again() -> None:
    s, results = scheduler(), {}
    bad, good = program(0), program(1)
    ids = [submit(s, results, bad, b"00000001", 0.0), submit(s, results, good, b"00000002", 0.0)]
    later = submit(s, results, bad, b"00000003", 0.0)
    (lane,) = spawned(s)
    for callback, result in s.lost(lane, "SIGSEGV", ""):
        callback(result)
    assert bad.broken == "the COBOL module could not be loaded: SIGSEGV"
    assert [c.id for c in s.backlog] == [ids[1]]  # the good program's call waits for a fresh worker
    assert {i: results[i].error for i in (ids[0], later)} == dict.fromkeys((ids[0], later), bad.broken)


def test_a_stale_worker_is_stopped_once_idle() -> None:
    s, results = scheduler(), {}
    submit(s, results, program(), b"00000001", 0.0)
    (lane,) = spawned(s)
    idle = s.new_lane()
    s.retire_all()
    assert s.stops == [idle] and s.lanes == [lane]
    s.receive(lane, b"".join(answer(f) for f in written(s, lane)), 0.1)
    assert s.stops == [idle, lane] and s.lanes == []


# ------------------------------------------------------------------------------ any interleaving

step = st.one_of(
    st.tuples(st.just("submit"), st.integers(0, 2), st.integers(0, 9999)),
    st.tuples(st.just("advance"), st.floats(0.0, 0.2), st.just(0)),
    st.tuples(st.just("reply"), st.integers(0, 3), st.integers(1, 40)),
    st.tuples(st.just("crash"), st.integers(0, 3), st.just(0)),
    st.tuples(st.just("cancel"), st.integers(0, 50), st.just(0)),
)


class Owner:
    """What the pool does, in memory: carries out the orders, keeps a fake worker's unread replies."""

    def __init__(self, s: Scheduler) -> None:
        self.s, self.unread = s, {}  # lane -> bytes its worker has written
        self.results: dict[int, list[CallResult]] = {}

    def act(self, now: float) -> None:
        s = self.s
        while s.spawns or s.kills or s.stops:
            s.spawns.clear()
            s.stops.clear()
            if s.kills:
                lane, cause = s.kills.pop(0)
                self.deliver(s.lost(lane, cause or "killed", ""))
                self.unread.pop(lane, None)
                s.drain(now)
        for lane in list(s.unflushed):
            self.unread[lane] = self.unread.get(lane, b"") + b"".join(answer(f) for f in written(s, lane))

    def deliver(self, done: Any) -> None:
        for callback, result in done:
            callback(result)


@settings(max_examples=300, deadline=None)
@given(st.lists(step, max_size=60), st.integers(1, 3), st.integers(40, 400))
def test_every_call_ends_exactly_once_in_any_interleaving(steps: list[Any], workers: int, room: int) -> None:
    s = Scheduler(max_workers=workers, timeout=1.0, stall_after=STALL, room=room)
    owner, programs, now, submitted, cancelled = Owner(s), [program(i) for i in range(3)], 0.0, [], set()
    for kind, a, b in steps:
        if kind == "submit":
            p = programs[a]
            if p.broken:  # as the pool does: a program that killed its worker on load is not sent again
                submitted.append(-1)
                cancelled.add(-1)  # (it fails at once, in the pool, without reaching the scheduler)
                continue
            n = len(submitted)
            call_id = s.submit(
                p, [b"%04d" % b, b"    "], lambda r, n=n: owner.results.setdefault(n, []).append(r), None, now
            )
            submitted.append(call_id)
        elif kind == "advance":
            now += a
            s.expire(now)
        elif kind == "reply" and s.lanes:
            lane = s.lanes[a % len(s.lanes)]
            data = owner.unread.get(lane, b"")
            if data:
                owner.unread[lane] = data[b:]
                owner.deliver(s.receive(lane, data[:b], now))
        elif kind == "crash" and s.lanes:
            lane = s.lanes[a % len(s.lanes)]
            owner.deliver(s.lost(lane, "crashed", ""))
            owner.unread.pop(lane, None)
            s.drain(now)
        elif kind == "cancel" and submitted:
            call_id = submitted[a % len(submitted)]
            if s.cancel(call_id):
                cancelled.add(call_id)
        owner.act(now)
    for _ in range(10_000):  # then let every worker answer everything, in turn
        if not s.busy:
            break
        now += 0.01
        s.expire(now)
        owner.act(now)
        for lane in list(s.lanes):
            data, owner.unread[lane] = owner.unread.get(lane, b""), b""
            owner.deliver(s.receive(lane, data, now))
            owner.act(now)
    assert not s.busy and not s.backlog
    for n, call_id in enumerate(submitted):
        got = owner.results.get(n, [])
        assert len(got) <= 1, f"call {call_id} ended {len(got)} times"
        if call_id not in cancelled:
            assert len(got) == 1, f"call {call_id} never ended"
            result = got[0]
            if result.ok:  # the reply that ended it was its own
                sent = b"%04d" % steps_value(steps, n)
                assert result.buffers == [b"    ", sent[::-1]]


def steps_value(steps: list[Any], n: int) -> int:
    return [b for kind, _, b in steps if kind == "submit"][n]
