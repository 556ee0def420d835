"""The worker runtime: the one boundary through which COBOL runs.

COBOL cannot run inside the server process (STOP RUN would exit it, DISPLAY would corrupt the
protocol, libcob is not thread-safe), so each call goes to a persistent worker process
(:mod:`.worker`) over a pipe. Calls are pipelined; a worker that dies or runs past
its deadline is killed, its current call becomes an error result, the calls queued behind it are
sent again to a fresh worker, and other workers carry on.

The decisions (which worker, what waits, when a call has run too long, which reply ends which call)
are :mod:`.scheduler`'s, made without I/O; this module is the hands: it reads the clock, writes the
frames the scheduler queued, hands it the bytes a worker sent, and carries out its orders (start a
worker, kill one, end an idle one). The runtime is event-loop agnostic: it registers its pipes with
any object that has ``add_reader(fd, callback)`` / ``remove_reader(fd)`` (a :class:`SelectLoop` or an
asyncio loop), and the owner calls :meth:`Runtime.expire` when :meth:`Runtime.next_deadline` passes.
"""

from __future__ import annotations

import os
import time

from ...selectloop import SelectLoop
from .frames import IN_FLIGHT_BYTES, PIPE_SIZE, READ_SIZE, CallResult, Exchange, Program, Worker, load_body
from .process import kill, pipes_take, read_memfile, reap, spawn_worker
from .scheduler import Lane, Scheduler

monotonic = time.monotonic  # (a global name: looked up once per call, not twice)
SMALL_PIPE_ROOM = 32 << 10  # default 64 KiB pipes: keep in-flight frames well below
NO_EXCHANGES = (
    "this program asks the server mid-call (EXEC SQL), which only the C worker can carry: "
    "it could not be built here (is a C compiler installed?)"
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence
    from pathlib import Path
    from typing import Protocol

    class ReaderLoop(Protocol):
        """What the runtime needs of an event loop (a SelectLoop, an asyncio loop, an adapter)."""

        def add_reader(self, fd: int, callback: Callable[[], object], /) -> object: ...

        def remove_reader(self, fd: int, /) -> object: ...


__all__ = ["CallResult", "Exchange", "ReaderLoop", "Runtime"]


class Runtime:
    def __init__(
        self,
        loop: ReaderLoop | None = None,
        *,
        max_workers: int | None = None,
        timeout: float = 10.0,
        stall_after: float = 0.05,
        library_path: Iterable[str] = (),
        defer_writes: bool = False,
        spin: float = 0.0,
        worker: str | None = None,
    ) -> None:
        """`worker`: the C worker's executable (``worker.c``, built by ..prepare.native_worker); None, or
        COBOL_MCP_WORKER=python in the environment, runs the Python worker (``worker.py``)."""
        self._select: SelectLoop | None = None  # the runtime's own loop, when it was given none
        if loop is None:
            self._select = SelectLoop()
            loop = self._select
        self.loop: ReaderLoop = loop
        self.max_workers = max(1, max_workers or os.cpu_count() or 1)
        self.timeout = timeout
        self.stall_after = stall_after
        self.defer_writes = defer_writes
        self.spin = spin  # seconds a worker polls for the next call before it sleeps
        self.worker = None if os.environ.get("COBOL_MCP_WORKER") == "python" else worker
        self._programs: dict[str, Program] = {}
        self._loaded = 0  # programs registered so far: each gets its own index in the workers
        room = IN_FLIGHT_BYTES if pipes_take(PIPE_SIZE) else SMALL_PIPE_ROOM  # known before a frame is queued
        self.scheduler = Scheduler(max_workers=self.max_workers, timeout=timeout, stall_after=stall_after, room=room)
        self._schedule = self.scheduler.submit  # bound once: it is on the path of every call
        self.stats = self.scheduler.stats  # workers started, workers lost, calls timed out
        self.last_flush = 0.0  # when frames last went to a worker (the stdio loop spins briefly after)
        self._env = dict(os.environ)
        self.set_library_path(library_path)
        self._devnull = os.open(os.devnull, os.O_RDONLY | os.O_CLOEXEC)

    # ---------------------------------------------------------------------------------- public
    def load(
        self,
        name: str,
        module_path: str | Path,
        entry_symbol: str,
        record_sizes: Sequence[int],
        *,
        driver: str | Path | None = None,
        program_id: str = "",
        driver_symbol: str = "",
    ) -> None:
        """Register (or, on reload, replace) a program; calls already submitted keep the one they had.
        With `driver` (the COBOL caller's module, :mod:`..prepare.driver`) each call goes through it, as
        from a COBOL program; `program_id` is the name it CANCELs the program by after RETURN-CODE ≠ 0;
        `driver_symbol`: the driver's entry when it is a program's own caller (..prepare.value_caller)."""
        source = (str(module_path), entry_symbol, tuple(record_sizes), str(driver or ""), program_id, driver_symbol)
        existing = self._programs.get(name)
        if existing is not None and existing.source == source:
            return  # reloaded unchanged: the workers keep the module they loaded
        index = self._loaded
        self._loaded += 1
        body = load_body(index, source)
        self._programs[name] = Program(name, index, tuple(record_sizes), body, source)

    def set_library_path(self, library_path: Iterable[str]) -> None:
        """Folders searched first for CALLed programs (COB_LIBRARY_PATH). On a change the workers
        started before it stop once idle: libcob keeps the CALL targets it resolved for good."""
        inherited = os.environ.get("COB_LIBRARY_PATH", "")
        paths = [p for p in library_path if p]
        value = os.pathsep.join([*paths, inherited]).rstrip(os.pathsep)
        if value == self._env.get("COB_LIBRARY_PATH", ""):
            return
        self._env["COB_LIBRARY_PATH"] = value
        self.scheduler.retire_all()
        self._act()

    def start(self) -> None:
        """Start one worker ahead of the first call, so that call does not wait for it."""
        if not self.scheduler.lanes:
            self.scheduler.new_lane()
            self._act()

    def submit(
        self,
        name: str,
        buffers: Sequence[bytes],
        callback: Callable[[CallResult], object],
        timeout: float | None = None,
        service: Callable[[Exchange], Sequence[bytes] | None] | None = None,
        alone: bool = False,
    ) -> int:
        """Call `name` with these records; `callback` gets its result (`alone`: on an idle worker only, see
        :meth:`.scheduler.Scheduler.submit`). `service` answers the call's
        mid-call exchanges (a ``CALL 'SQLRT'`` of the program): given an :class:`Exchange` it returns
        each parameter's new bytes, or None and answers later with :meth:`answer` or :meth:`fail`;
        an exception it raises fails the call. Its time counts against the call's `timeout`."""
        program = self._programs[name]
        if tuple(map(len, buffers)) != program.sizes:
            raise ValueError(f"{name}: records of {list(map(len, buffers))} bytes, expected {list(program.sizes)}")
        scheduler = self.scheduler
        if program.broken:
            callback(CallResult(False, 0, [], "", program.broken))
            return scheduler.new_id()
        if service is not None and self.worker is None:
            callback(CallResult(False, 0, [], "", NO_EXCHANGES))
            return scheduler.new_id()
        call_id = self._schedule(program, buffers, callback, timeout, monotonic(), service, alone)
        if scheduler.spawns:
            self._act()
        if not self.defer_writes:
            self.flush()
        return call_id

    def flush(self) -> None:
        """Write the frames queued by :meth:`submit` (one write per worker)."""
        scheduler = self.scheduler
        if not scheduler.unflushed:
            return
        lanes, scheduler.unflushed = scheduler.unflushed, []
        for lane in lanes:
            data = b"".join(lane.pending_out)
            lane.pending_out.clear()
            self.last_flush = time.perf_counter()
            try:
                while data:
                    data = data[os.write(lane.process.send_fd, data) :]
            except OSError:
                self._worker_died(lane)

    def answer(self, exchange: Exchange, params: Sequence[bytes]) -> bool:
        """Answer an exchange a service left open (it returned None): False if its call is over."""
        sent = self.scheduler.answer(exchange, params)
        self._act()
        return sent

    def fail(self, exchange: Exchange, error: str) -> bool:
        """End an open exchange's call with `error` (its worker is restarted): False if it is over."""
        failed = self.scheduler.fail(exchange, error)
        self._act()
        return failed

    def cancel(self, call_id: int) -> bool:
        """Stop a call: unsent, it is dropped; running, its worker is killed. No callback follows."""
        found = self.scheduler.cancel(call_id)
        if self.scheduler.kills:
            self._act()
        return found

    @property
    def waiting(self) -> int:
        """Calls submitted but not yet sent to a worker (no worker had room)."""
        return len(self.scheduler.backlog)

    @property
    def busy(self) -> bool:
        """Whether a call someone waits for is queued or running (module loads and cancelled calls are not)."""
        return self.scheduler.busy

    def next_deadline(self) -> float | None:
        """When :meth:`expire` next has work: a call's timeout or, while calls wait for room, the
        moment a busy worker counts as stuck (then another worker is started for them)."""
        return self.scheduler.next_deadline()

    def expire(self, now: float | None = None) -> None:
        scheduler = self.scheduler
        now = time.monotonic() if now is None else now
        scheduler.expire(now)
        if scheduler.kills:
            self._act(flush=False)
            scheduler.drain(now)
        if scheduler.spawns:
            self._act(flush=False)
        if not self.defer_writes:
            self.flush()

    def run_once(self, timeout: float | None) -> None:
        """Wait up to `timeout` s for the workers and handle what they sent (the runtime's own loop only)."""
        if self._select is None:
            raise RuntimeError("run_once needs a Runtime that owns its loop")
        self._select.run_once(timeout)

    def close(self) -> None:
        for lane in list(self.scheduler.lanes):
            self.scheduler.forget(lane)
            worker: Worker = lane.process
            self._release(worker)
            kill(worker.pid)
            reap(worker.pid)
        if self._devnull >= 0:
            os.close(self._devnull)
            self._devnull = -1
        if self._select is not None:
            self._select.close()

    @property
    def _workers(self) -> list[Worker]:
        """The worker processes, in the scheduler's order (for tests and benchmarks)."""
        return [lane.process for lane in self.scheduler.lanes]

    # ---------------------------------------------------------------------------------- replies
    def _on_readable(self, lane: Lane) -> None:
        try:
            data = os.read(lane.process.reply_fd, READ_SIZE)
        except OSError:
            data = b""
        if not data:
            self._worker_died(lane)
            return
        scheduler = self.scheduler
        done = scheduler.receive(lane, data, monotonic())
        if scheduler.kills or scheduler.stops or scheduler.spawns:
            self._act(flush=False)
        for callback, result in done:
            callback(result)
        if scheduler.exchanges:
            self._ask()
        if not self.defer_writes:
            self.flush()

    def _ask(self) -> None:
        """Hand each exchange a worker sent to its call's service; queue the answers it gives."""
        scheduler = self.scheduler
        while scheduler.exchanges:
            service, exchange = scheduler.exchanges.pop(0)
            try:
                params = service(exchange)
            except Exception as exc:  # the service's fault ends its call, never the server
                scheduler.fail(exchange, str(exc) or type(exc).__name__)
            else:
                if params is not None and not exchange.answered:
                    scheduler.answer(exchange, params)
        if scheduler.kills:
            self._act(flush=False)

    # ---------------------------------------------------------------------------------- the scheduler's orders
    def _act(self, flush: bool = True) -> None:
        """Carry out what the scheduler asked for: start, kill and end workers; then write, unless
        told not to or writes are deferred."""
        scheduler = self.scheduler
        while scheduler.spawns or scheduler.stops or scheduler.kills:
            if scheduler.spawns:
                self._spawn(scheduler.spawns.pop(0))
            elif scheduler.stops:
                self._stop(scheduler.stops.pop(0).process)
            else:
                lane, cause = scheduler.kills.pop(0)
                if lane in scheduler.lanes:
                    kill(lane.process.pid)
                    self._worker_died(lane, cause, flush=False)
        if flush and not self.defer_writes:
            self.flush()

    def _worker_died(self, lane: Lane, cause: str | None = None, flush: bool = True) -> None:
        scheduler = self.scheduler
        if lane not in scheduler.lanes:
            return
        worker: Worker = lane.process
        self._release(worker)
        kill(worker.pid)  # a no-op for a process that already ended
        status = reap(worker.pid)
        stderr_text = read_memfile(worker.stderr_fd, 8192)
        display = read_memfile(worker.display_fd, 1 << 16)
        os.close(worker.stderr_fd)
        os.close(worker.display_fd)
        reason = ""
        if lane.inflight:
            from .faults import describe_exit

            reason = cause or describe_exit(status, stderr_text)
        for callback, result in scheduler.lost(lane, reason, display):
            callback(result)
        scheduler.drain(time.monotonic())
        self._act(flush)

    def _stop(self, worker: Worker) -> None:
        """End an idle worker on purpose (not a fault: nothing is counted, no call is affected)."""
        self._release(worker)
        kill(worker.pid)
        reap(worker.pid)
        os.close(worker.stderr_fd)
        os.close(worker.display_fd)

    def _release(self, worker: Worker) -> None:
        self.loop.remove_reader(worker.reply_fd)
        os.close(worker.send_fd)
        os.close(worker.reply_fd)

    def _spawn(self, lane: Lane) -> None:
        try:
            started = spawn_worker(self._env, self._devnull, PIPE_SIZE, self.spin, self.worker)
        except OSError as exc:
            if not self.worker:
                self.scheduler.forget(lane)
                raise
            from ... import log

            log.warning(f"the C worker {self.worker} cannot be started ({exc.strerror}): using the Python worker")
            self.worker = None
            try:
                started = spawn_worker(self._env, self._devnull, PIPE_SIZE, self.spin)
            except OSError:
                self.scheduler.forget(lane)
                raise
        pid, send_fd, reply_fd, display_fd, stderr_fd, roomy = started
        if not roomy:
            self.scheduler.room = min(self.scheduler.room, SMALL_PIPE_ROOM)
        lane.process = Worker(pid, send_fd, reply_fd, display_fd, stderr_fd)
        self.stats["started"] += 1
        self.loop.add_reader(reply_fd, lambda: self._on_readable(lane))
