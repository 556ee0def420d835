"""The worker pool's decisions, with no I/O: what h11 is to a connection, this is to the pool.

The :class:`Scheduler` holds the calls and what it knows of each worker (a :class:`Lane`): the frames
queued for it, the calls it has been sent in order, the modules it has loaded, when its current call
started. It takes calls (:meth:`~Scheduler.submit`), bytes a worker sent (:meth:`~Scheduler.receive`),
a worker's end (:meth:`~Scheduler.lost`) and the time (every method that needs it takes ``now``: it
never reads a clock). It gives back frames to write (:attr:`~Scheduler.unflushed`, each lane's
``pending_out``), results (returned, for the caller to deliver), and orders in three lists the owner
carries out and empties: lanes that need a process (``spawns``), workers to kill (``kills``, with
the error their current call gets; None: a cancel, no result) and idle workers to end
(``stops``). :mod:`.pool` is that owner: pipes, processes, the event loop, the clock.

A call's life: ``backlog`` (no worker had room) → a lane's ``inflight`` (its frame written or about
to be; the first one is running) → a result. A reply is matched to the first call in its lane: a
worker answers in turn, and one that does not is killed.

Mid-call exchanges: a reply of status ``SERVICE_STATUS`` from the running call is an
:class:`~.frames.Exchange`, ordered in ``exchanges`` with the call's ``service``; the call stays at the
head. :meth:`~Scheduler.answer` queues the answer (outside the in-flight byte count): the worker keeps
the call frames that arrive before it for later, so calls are still pipelined behind the asking one.
Waiting for the answer counts against the call's timeout. :meth:`~Scheduler.fail` kills the worker
(the program stops mid-statement, as by an abend); the calls behind it go to another. Once a call's worker
was let commit (an answered exchange that ``commits``), its outcome is the commit's (:meth:`.frames.Call.limit`).
"""

from __future__ import annotations

from collections import deque

from .frames import (
    ANSWER_KIND,
    CALL_HEAD,
    IN_FLIGHT_BYTES,
    REPLY_HEAD,
    REQUEST_HEAD,
    SERVICE_STATUS,
    Call,
    CallResult,
    Exchange,
    Program,
    ServiceCall,
    read_exchange,
    split_records,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

    Done = list[tuple[Callable[[CallResult], object], CallResult]]
    Service = Callable[[Exchange], Sequence[bytes] | None]

__all__ = ["Lane", "Scheduler"]

REPLY_HEAD_SIZE = REPLY_HEAD.size


class Lane:
    """What the scheduler knows of one worker. `process`: the owner's handle on it (opaque here)."""

    __slots__ = ("inflight", "inflight_bytes", "loaded", "received", "pending_out", "head_started", "process")

    def __init__(self) -> None:
        self.inflight: deque[Call] = deque()  # sent (or queued to send) in order; the first one runs
        self.inflight_bytes = 0
        self.loaded: set[int] = set()  # program indexes whose load frame went to this worker
        self.received = bytearray()  # the start of a reply a previous read cut off
        self.pending_out: list[bytes] = []  # frames queued, not yet written
        self.head_started = 0.0  # when the first call of `inflight` started (the owner's clock)
        self.process: Any = None


class Scheduler:
    def __init__(self, *, max_workers: int, timeout: float, stall_after: float, room: int = IN_FLIGHT_BYTES) -> None:
        self.max_workers = max_workers
        self.timeout = timeout  # a call's default timeout
        self.stall_after = stall_after  # a worker busy this long with one call counts as stuck
        self.room = room  # frame bytes sent ahead to one worker
        self.lanes: list[Lane] = []
        self.backlog: deque[Call] = deque()
        self.unflushed: list[Lane] = []  # lanes with frames in pending_out
        self.spawns: list[Lane] = []  # orders: start a process for each
        self.kills: list[tuple[Lane, str | None]] = []  # orders: kill, then report with lost()
        self.stops: list[Lane] = []  # orders: end these idle workers (then forget())
        self.exchanges: list[tuple[Service, Exchange]] = []  # orders: ask each service, then answer() or fail()
        self.stale: set[Lane] = set()  # end once idle (their CALL search path changed)
        self.stats = {"started": 0, "died": 0, "timeouts": 0}
        self._next_id = 1

    # ------------------------------------------------------------------------------------ calls
    def new_id(self) -> int:
        call_id = self._next_id
        self._next_id = call_id + 1 if call_id < 0xFFFFFFF0 else 1
        return call_id

    def submit(self, program: Program, buffers: Sequence[bytes], callback: Callable[[CallResult], object],
               timeout: float | None, now: float, service: Service | None = None,
               alone: bool = False) -> int:  # fmt: skip
        """Schedule a call of `program` with these records (to a worker's frames, or the backlog): its id.
        `service` answers the call's exchanges (through ``exchanges``); without it a program that asks fails.
        `alone`: only an idle (or new) worker takes it, never one busy with a call that may be waiting for it."""
        call_id, self._next_id = self._next_id, self._next_id + 1 if self._next_id < 0xFFFFFFF0 else 1
        token = getattr(getattr(service, "__self__", None), "in_worker", b"")  # its folder's SQL run in the worker
        head = CALL_HEAD.pack(4 if token else 2, call_id, program.total + 2 + len(token), program.index)
        frame = b"".join([head, token, *buffers])
        timeout = self.timeout if timeout is None else timeout
        if service is None:
            call = Call(call_id, program, frame, callback, timeout)
        else:
            call = ServiceCall(call_id, program, frame, callback, timeout, service)
        call.alone = alone
        if not alone and len(self.lanes) == 1 and not self.backlog:  # the usual case, on the path of every call
            lane = self.lanes[0]
            if program.index in lane.loaded and (
                not lane.inflight
                or (lane.inflight_bytes + len(frame) <= self.room and now - lane.head_started <= self.stall_after)
            ):
                self._enqueue(lane, call, now)
                return call_id
        if self.backlog:  # calls already waiting go first; replies and expire() drain them
            self.backlog.append(call)
            return call_id
        chosen = self._pick(len(frame), now, alone)
        if chosen is None:
            self.backlog.append(call)
        else:
            self._send(chosen, call, now)
        return call_id

    def cancel(self, call_id: int) -> bool:
        """Unsent, the call is dropped; running, its worker is to be killed. No result follows."""
        for call in self.backlog:
            if call.id == call_id and call.callback is not None:
                self.backlog.remove(call)
                return True
        for lane in self.lanes:
            for position, call in enumerate(lane.inflight):
                if call.id == call_id and call.callback is not None and not call.cancelled:
                    call.cancelled = True
                    if position == 0:
                        self.kills.append((lane, None))
                    return True
        return False

    @property
    def busy(self) -> bool:
        """Whether a call someone waits for is queued or running (module loads and cancelled calls are not)."""
        if self.backlog:
            return True
        for lane in self.lanes:  # a loop, not any(): asked between every message
            for call in lane.inflight:
                if call.callback is not None and not call.cancelled:
                    return True
        return False

    # ------------------------------------------------------------------------------------ time
    def next_deadline(self) -> float | None:
        """When :meth:`expire` next has work: a call's timeout or, while calls wait for room, the
        moment a busy worker counts as stuck (then another worker is started for them)."""
        deadlines = [lane.head_started + lane.inflight[0].limit() for lane in self.lanes if lane.inflight]
        if self.backlog:
            deadlines += [lane.head_started + self.stall_after for lane in self.lanes if lane.inflight]
        return min(deadlines) if deadlines else None

    def expire(self, now: float) -> None:
        """Order the workers whose call ran past its timeout killed; give waiting calls a worker."""
        for lane in self.lanes:
            if lane.inflight and now >= lane.head_started + lane.inflight[0].limit():
                if any(killed is lane for killed, _ in self.kills):
                    continue
                self.stats["timeouts"] += 1
                head = lane.inflight[0]
                self.kills.append(
                    (lane, f"timed out after {head.timeout:g} s ({head.overdue()}); its worker was restarted")
                )
        if not self.kills:  # else the owner drains once the killed workers' calls are back in the backlog
            self.drain(now)

    # ------------------------------------------------------------------------------------ replies
    def receive(self, lane: Lane, data: bytes, now: float) -> Done:
        """Bytes `lane`'s worker sent: the results of the calls they complete, in order."""
        received = lane.received
        if received:
            received += data
            data = bytes(received)
            received.clear()
        # Replies are cut from `data`, bytes: a record is one copy of its slice (of a bytearray, two).
        pos, end = 0, len(data)
        inflight = lane.inflight
        done: Done = []
        unpack = REPLY_HEAD.unpack_from
        while end - pos >= REPLY_HEAD_SIZE:
            call_id, status, code, records_len, text_len = unpack(data, pos)
            start = pos + REPLY_HEAD_SIZE
            stop = start + records_len + text_len
            if stop > end:
                break
            if not inflight or call_id != inflight[0].id:
                received += data[pos:]
                self.kills.append((lane, f"the COBOL worker answered call {call_id} out of turn"))
                return done  # the replies before it were in turn: they stand
            if status == SERVICE_STATUS:  # not the end of the call: it asks the server, and waits
                return self._asks(lane, data, pos, stop, code, now, done)
            call = inflight.popleft()
            lane.inflight_bytes -= len(call.frame)
            notify = call.callback
            if notify is not None and not call.cancelled:
                text = data[start + records_len : stop].decode("utf-8", "replace") if text_len else ""
                if status == 0:
                    sizes = call.program.sizes
                    if len(sizes) == 1 and records_len == sizes[0]:
                        buffers = [data[start : start + records_len]]
                    else:
                        buffers = split_records(data, start, sizes)
                    done.append((notify, CallResult(True, code, buffers, text)))
                else:
                    done.append((notify, CallResult(False, code, [], "", text)))
            pos = stop
        if pos:
            lane.head_started = now  # the next call started as the last of these ended
        if pos < end:
            received += data[pos:]
        if inflight and inflight[0].cancelled:
            # cancelled while queued behind another frame on this worker: it has just started; stop it
            self.kills.append((lane, None))
            return done  # the owner drains once the worker is gone
        if not inflight and lane in self.stale:
            self.forget(lane)
            self.stops.append(lane)
        self.drain(now)
        return done

    # ------------------------------------------------------------------------------------ exchanges
    def _asks(self, lane: Lane, data: bytes, pos: int, stop: int, number: int, now: float, done: Done) -> Done:
        """The running call's service reply at data[pos:stop] (after replies that ended calls: `done`)."""
        if pos:
            lane.head_started = now  # the asking call started as the last of those ended
        call = lane.inflight[0]
        if call.cancelled:  # it started once the call before it ended: stop it (no result)
            self.kills.append((lane, None))
            return done
        exchange = read_exchange(call, number, data, pos + REPLY_HEAD_SIZE, stop - pos - REPLY_HEAD_SIZE)
        if isinstance(exchange, str) or not isinstance(call, ServiceCall):  # (read_exchange refuses those)
            self.kills.append((lane, str(exchange)))
            return done
        call.exchange = exchange
        self.exchanges.append((call.service, exchange))
        if stop < len(data):  # nothing legitimate: the worker waits for the answer
            lane.received += data[stop:]
        self.drain(now)
        return done

    def _take(self, exchange: Exchange) -> Lane | None:
        """The lane whose running call waits for `exchange`'s answer, now no longer; None: the call is over."""
        for lane in self.lanes:
            head = lane.inflight[0] if lane.inflight else None
            if isinstance(head, ServiceCall) and head.exchange is exchange:
                head.exchange = None
                exchange.answered = True
                return lane
        return None

    def answer(self, exchange: Exchange, params: Sequence[bytes]) -> bool:
        """Queue `exchange`'s answer (each parameter's new bytes, then its `more`) for its worker. False: the call
        is over (timed out, cancelled, its worker lost), or the sizes differ from the parameters' (that fails it)."""
        if list(map(len, params)) != (sizes := list(map(len, exchange.params))):
            self.fail(exchange, f"answered with {list(map(len, params))} bytes for the program's {sizes}")
            return False
        lane = self._take(exchange)
        if lane is None:
            return False
        if exchange.commits:
            lane.inflight[0].committing = True  # (from the answer on, the call's outcome is its commit's)
        if not lane.pending_out:
            self.unflushed.append(lane)
        head = REQUEST_HEAD.pack(ANSWER_KIND, exchange.call_id, sum(sizes) + len(more := exchange.more))
        lane.pending_out.append(b"".join([head, *params, more]))
        return True

    def fail(self, exchange: Exchange, error: str) -> bool:
        """End `exchange`'s call with `error`: its worker is killed (the program stops mid-statement);
        the calls behind it go to another. False: the call is already over."""
        lane = self._take(exchange)
        if lane is None:
            return False
        self.kills.append((lane, f"{exchange.service} {exchange.number} failed: {error}"))
        return True

    # ------------------------------------------------------------------------------------ workers
    def lost(self, lane: Lane, reason: str, display: str) -> Done:
        """`lane`'s worker ended (`reason`: why, in words; `display`: what it printed). Its running
        call fails, the calls queued behind it wait for another worker; then :meth:`drain`."""
        if lane not in self.lanes:
            return []
        self.stats["died"] += 1
        self.forget(lane)
        calls = list(lane.inflight)
        lane.inflight.clear()
        lane.inflight_bytes = 0
        done: Done = []
        if not calls:
            return done
        head, rest = calls[0], calls[1:]
        if head.callback is None:  # loading the module killed the worker: never try it again
            head.program.broken = f"the COBOL module could not be loaded: {reason}"
        self.backlog.extendleft(reversed([c for c in rest if c.callback is not None and not c.cancelled]))
        if head.callback is not None and not head.cancelled:
            done.append((head.callback, CallResult(False, 0, [], display, reason)))
        for call in list(self.backlog):
            if call.program.broken:
                self.backlog.remove(call)
                if call.callback is not None:  # (the backlog holds calls only, never load frames)
                    done.append((call.callback, CallResult(False, 0, [], "", call.program.broken)))
        return done

    def forget(self, lane: Lane) -> None:
        """Take `lane` out of the schedule (its worker is gone or going); its calls stay on it."""
        self.stale.discard(lane)
        if lane in self.lanes:
            self.lanes.remove(lane)
        lane.pending_out.clear()
        if lane in self.unflushed:
            self.unflushed.remove(lane)

    def retire_all(self) -> None:
        """The search path for CALLed programs changed: idle workers stop now, busy ones once idle."""
        self.stale.update(self.lanes)
        for lane in [lane for lane in self.lanes if not lane.inflight]:
            self.forget(lane)
            self.stops.append(lane)

    def new_lane(self) -> Lane:
        lane = Lane()
        self.lanes.append(lane)
        self.spawns.append(lane)
        return lane

    # ------------------------------------------------------------------------------------ dispatch
    def drain(self, now: float) -> None:
        """Give the waiting calls, in order, to workers with room."""
        backlog = self.backlog
        while backlog:
            call = backlog[0]
            lane = self._pick(len(call.frame), now, call.alone)
            if lane is None:
                return
            backlog.popleft()
            self._send(lane, call, now)
            # the calls after it go to the same worker while they fit (as _pick would send them)
            room = self.room - lane.inflight_bytes
            while (backlog and not backlog[0].alone and len(backlog[0].frame) <= room
                   and backlog[0].program.index in lane.loaded):  # fmt: skip
                call = backlog.popleft()
                room -= len(call.frame)
                self._enqueue(lane, call, now)

    def _pick(self, size: int, now: float, alone: bool = False) -> Lane | None:
        """An idle worker; else the least loaded one that is not stuck on a slow call; else a new
        worker (up to max_workers) when every worker is stuck; else None (the call waits); `alone`: idle or new."""
        if alone:
            idle = next((lane for lane in self.lanes if not lane.inflight), None)
            return self.new_lane() if idle is None and len(self.lanes) < self.max_workers else idle
        best: Lane | None = None
        all_stalled = True
        for lane in self.lanes:
            if not lane.inflight:
                return lane
            if now - lane.head_started <= self.stall_after:
                all_stalled = False
                if lane.inflight_bytes + size <= self.room and (
                    best is None or len(lane.inflight) < len(best.inflight)
                ):
                    best = lane
        if best is not None:
            return best
        if all_stalled and len(self.lanes) < self.max_workers:
            return self.new_lane()
        if not all_stalled:
            return None  # busy, not stuck: the call waits for room on a pipe
        roomy = [lane for lane in self.lanes if lane.inflight_bytes + size <= self.room]
        return min(roomy, key=lambda lane: len(lane.inflight)) if roomy else None

    def _send(self, lane: Lane, call: Call, now: float) -> None:
        program = call.program
        if program.index not in lane.loaded:
            lane.loaded.add(program.index)
            load_frame = REQUEST_HEAD.pack(1, 0, len(program.load_body)) + program.load_body
            self._enqueue(lane, Call(0, program, load_frame, None, self.timeout), now)
        self._enqueue(lane, call, now)

    def _enqueue(self, lane: Lane, call: Call, now: float) -> None:
        if not lane.inflight:
            lane.head_started = now
        lane.inflight.append(call)
        lane.inflight_bytes += len(call.frame)
        if not lane.pending_out:
            self.unflushed.append(lane)
        lane.pending_out.append(call.frame)
