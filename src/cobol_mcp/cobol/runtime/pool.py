"""The worker runtime: the one boundary through which COBOL runs.

COBOL cannot run inside the server process (STOP RUN would exit it, DISPLAY would corrupt the
protocol, libcob is not thread-safe), so each call goes to a persistent worker process
(:mod:`.worker`) over a pipe. Calls are pipelined; a worker that dies or runs past
its deadline is killed, its current call becomes an error result, the calls queued behind it are
sent again to a fresh worker, and other workers carry on.

The runtime is event-loop agnostic: it registers its pipes with any object that has
``add_reader(fd, callback)`` / ``remove_reader(fd)`` (a :class:`SelectLoop` or an asyncio loop), and
the owner calls :meth:`Runtime.expire` when :meth:`Runtime.next_deadline` passes.
"""

from __future__ import annotations

import os
import time
from collections import deque

from ...selectloop import SelectLoop
from .frames import (
    CALL_HEAD,
    IN_FLIGHT_BYTES,
    PIPE_SIZE,
    READ_SIZE,
    REPLY_HEAD,
    REQUEST_HEAD,
    Call,
    CallResult,
    Program,
    Worker,
    load_body,
    split_records,
)
from .process import kill, read_memfile, reap, spawn_worker

REPLY_HEAD_SIZE = REPLY_HEAD.size

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence
    from pathlib import Path
    from typing import Protocol

    class ReaderLoop(Protocol):
        """What the runtime needs of an event loop (a SelectLoop, an asyncio loop, an adapter)."""

        def add_reader(self, fd: int, callback: Callable[[], object], /) -> object: ...

        def remove_reader(self, fd: int, /) -> object: ...


__all__ = ["CallResult", "ReaderLoop", "Runtime"]


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
        self.stats = {"started": 0, "died": 0, "timeouts": 0}  # workers started, workers lost, calls timed out
        self._workers: list[Worker] = []
        self._backlog: deque[Call] = deque()
        self._unflushed: list[Worker] = []  # workers with frames queued by submit, not yet written
        self._next_id = 1
        self.last_flush = 0.0  # when frames last went to a worker (the stdio loop spins briefly after)
        self._room = IN_FLIGHT_BYTES
        self._env = dict(os.environ)
        self._stale: set[Worker] = set()  # started before the CALL search path changed: stop when idle
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
        self._stale.update(self._workers)
        for worker in [w for w in self._workers if not w.inflight]:
            self._stop(worker)

    def start(self) -> None:
        """Start one worker ahead of the first call, so that call does not wait for it."""
        if not self._workers:
            self._spawn()

    def submit(
        self,
        name: str,
        buffers: Sequence[bytes],
        callback: Callable[[CallResult], object],
        timeout: float | None = None,
    ) -> int:
        program = self._programs[name]
        if tuple(map(len, buffers)) != program.sizes:
            raise ValueError(f"{name}: records of {list(map(len, buffers))} bytes, expected {list(program.sizes)}")
        call_id = self._next_id
        self._next_id = call_id + 1 if call_id < 0xFFFFFFF0 else 1
        if program.broken:
            callback(CallResult(False, 0, [], "", program.broken))
            return call_id
        frame = b"".join([CALL_HEAD.pack(2, call_id, program.total + 2, program.index), *buffers])
        call = Call(call_id, program, frame, callback, self.timeout if timeout is None else timeout)
        workers = self._workers
        if len(workers) == 1 and not self._backlog:  # the usual case, on the path of every call
            worker = workers[0]
            if program.index in worker.loaded and (
                not worker.inflight
                or (
                    worker.inflight_bytes + len(frame) <= self._room
                    and time.monotonic() - worker.head_started <= self.stall_after
                )
            ):
                self._enqueue(worker, call)
                if not self.defer_writes:
                    self.flush()
                return call_id
        self._dispatch(call)
        if not self.defer_writes:
            self.flush()
        return call_id

    def flush(self) -> None:
        """Write the frames queued by :meth:`submit` (one write per worker)."""
        if not self._unflushed:
            return
        workers, self._unflushed = self._unflushed, []
        for worker in workers:
            data = b"".join(worker.pending_out)
            worker.pending_out.clear()
            self.last_flush = time.perf_counter()
            try:
                while data:
                    data = data[os.write(worker.send_fd, data) :]
            except OSError:
                self._worker_died(worker)

    def cancel(self, call_id: int) -> bool:
        """Stop a call: unsent, it is dropped; running, its worker is killed. No callback follows."""
        for call in self._backlog:
            if call.id == call_id and call.callback is not None:
                self._backlog.remove(call)
                return True
        for worker in self._workers:
            for position, call in enumerate(worker.inflight):
                if call.id == call_id and call.callback is not None and not call.cancelled:
                    call.cancelled = True
                    if position == 0:
                        self._kill(worker, None)
                    return True
        return False

    @property
    def waiting(self) -> int:
        """Calls submitted but not yet sent to a worker (no worker had room)."""
        return len(self._backlog)

    @property
    def busy(self) -> bool:
        """Whether a call someone waits for is queued or running (module loads and cancelled calls are not)."""
        if self._backlog:
            return True
        for worker in self._workers:  # a loop, not any(): asked between every message
            for call in worker.inflight:
                if call.callback is not None and not call.cancelled:
                    return True
        return False

    def next_deadline(self) -> float | None:
        """When :meth:`expire` next has work: a call's timeout or, while calls wait for room, the
        moment a busy worker counts as stuck (then another worker is started for them)."""
        deadlines = [w.head_started + w.inflight[0].timeout for w in self._workers if w.inflight]
        if self._backlog:
            deadlines += [w.head_started + self.stall_after for w in self._workers if w.inflight]
        return min(deadlines) if deadlines else None

    def expire(self, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        for worker in list(self._workers):
            if worker.inflight and now >= worker.head_started + worker.inflight[0].timeout:
                head = worker.inflight[0]
                self.stats["timeouts"] += 1
                self._kill(worker, f"timed out after {head.timeout:g} s (an endless loop?); its worker was restarted")
        if self._backlog:
            self._drain_backlog()
            if not self.defer_writes:
                self.flush()

    def call_sync(self, name: str, buffers: Sequence[bytes], timeout: float | None = None) -> CallResult:
        """Run one call to completion (for the command line and tests; needs the runtime's own loop)."""
        box: list[CallResult] = []
        self.submit(name, buffers, box.append, timeout)
        self.flush()
        while not box:
            deadline = self.next_deadline()
            self.run_once(None if deadline is None else max(0.0, deadline - time.monotonic()))
            self.expire()
        return box[0]

    def run_once(self, timeout: float | None) -> None:
        """Wait up to `timeout` s for the workers and handle what they sent (the runtime's own loop only)."""
        if self._select is None:
            raise RuntimeError("run_once needs a Runtime that owns its loop")
        self._select.run_once(timeout)

    def close(self) -> None:
        for worker in list(self._workers):
            self._retire(worker)
            kill(worker.pid)
            reap(worker.pid)
        self._workers.clear()
        if self._devnull >= 0:
            os.close(self._devnull)
            self._devnull = -1
        if self._select is not None:
            self._select.close()

    # ---------------------------------------------------------------------------------- dispatch
    def _dispatch(self, call: Call) -> None:
        if self._backlog:  # calls already waiting go first; replies and expire() drain them
            self._backlog.append(call)
            return
        worker = self._pick(len(call.frame))
        if worker is None:
            self._backlog.append(call)
            return
        self._send(worker, call)

    def _pick(self, size: int) -> Worker | None:
        """An idle worker; else the least loaded one that is not stuck on a slow call; else a new
        worker (up to max_workers) when every worker is stuck; else None (the call waits)."""
        workers = self._workers
        if len(workers) == 1:  # the common case, on the hot path of every call
            only = workers[0]
            if not only.inflight or (
                only.inflight_bytes + size <= self._room and time.monotonic() - only.head_started <= self.stall_after
            ):
                return only
        now = time.monotonic()
        best: Worker | None = None
        all_stalled = True
        for worker in self._workers:
            if not worker.inflight:
                return worker
            if now - worker.head_started <= self.stall_after:
                all_stalled = False
                if worker.inflight_bytes + size <= self._room and (
                    best is None or len(worker.inflight) < len(best.inflight)
                ):
                    best = worker
        if best is not None:
            return best
        if all_stalled and len(self._workers) < self.max_workers:
            return self._spawn()
        if not all_stalled:
            return None  # busy, not stuck: the call waits for room on a pipe
        roomy = [w for w in self._workers if w.inflight_bytes + size <= self._room]
        return min(roomy, key=lambda w: len(w.inflight)) if roomy else None

    def _send(self, worker: Worker, call: Call) -> None:
        program = call.program
        if program.index not in worker.loaded:
            worker.loaded.add(program.index)
            load_frame = REQUEST_HEAD.pack(1, 0, len(program.load_body)) + program.load_body
            self._enqueue(worker, Call(0, program, load_frame, None, self.timeout))
        self._enqueue(worker, call)

    def _enqueue(self, worker: Worker, call: Call) -> None:
        if not worker.inflight:
            worker.head_started = time.monotonic()
        worker.inflight.append(call)
        worker.inflight_bytes += len(call.frame)
        if not worker.pending_out:
            self._unflushed.append(worker)
        worker.pending_out.append(call.frame)

    def _drain_backlog(self) -> None:
        backlog = self._backlog
        while backlog:
            call = backlog[0]
            worker = self._pick(len(call.frame))
            if worker is None:
                return
            backlog.popleft()
            self._send(worker, call)
            # the calls after it go to the same worker while they fit (as _pick would send them)
            room = self._room - worker.inflight_bytes
            while backlog and len(backlog[0].frame) <= room and backlog[0].program.index in worker.loaded:
                call = backlog.popleft()
                room -= len(call.frame)
                self._enqueue(worker, call)

    # ---------------------------------------------------------------------------------- replies
    def _on_readable(self, worker: Worker) -> None:
        try:
            data = os.read(worker.reply_fd, READ_SIZE)
        except OSError:
            data = b""
        if not data:
            self._worker_died(worker)
            return
        received = worker.received  # the start of a reply that a previous read cut off
        if received:
            received += data
            data = bytes(received)
            received.clear()
        # Replies are cut from `data`, bytes: a record is one copy of its slice (of a bytearray, two).
        pos, end = 0, len(data)
        inflight = worker.inflight
        done: list[tuple[Callable[[CallResult], object], CallResult]] = []
        unpack = REPLY_HEAD.unpack_from
        while end - pos >= REPLY_HEAD_SIZE:
            call_id, status, code, records_len, text_len = unpack(data, pos)
            start = pos + REPLY_HEAD_SIZE
            stop = start + records_len + text_len
            if stop > end:
                break
            if not inflight or call_id != inflight[0].id:
                received += data[pos:]
                self._kill(worker, f"the COBOL worker answered call {call_id} out of turn")
                for callback, result in done:  # the replies before it were in turn: they stand
                    callback(result)
                return
            call = inflight.popleft()
            worker.inflight_bytes -= len(call.frame)
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
            worker.head_started = time.monotonic()  # the next call started as the last of these ended
        if pos < end:
            received += data[pos:]
        if worker.inflight and worker.inflight[0].cancelled:
            # cancelled while queued behind another frame on this worker: it has just started; stop it
            self._kill(worker, None)
        elif not worker.inflight and worker in self._stale:
            self._stop(worker)
        self._drain_backlog()
        for callback, result in done:
            callback(result)
        if not self.defer_writes:
            self.flush()

    # ---------------------------------------------------------------------------------- faults
    def _kill(self, worker: Worker, cause: str | None) -> None:
        kill(worker.pid)
        self._worker_died(worker, cause)

    def _worker_died(self, worker: Worker, cause: str | None = None) -> None:
        if worker not in self._workers:
            return
        self.stats["died"] += 1
        self._retire(worker)
        kill(worker.pid)  # a no-op for a process that already ended
        status = reap(worker.pid)
        stderr_text = read_memfile(worker.stderr_fd, 8192)
        display = read_memfile(worker.display_fd, 1 << 16)
        os.close(worker.stderr_fd)
        os.close(worker.display_fd)
        calls = list(worker.inflight)
        if not calls:
            return
        head, rest = calls[0], calls[1:]
        from .faults import describe_exit

        reason = cause or describe_exit(status, stderr_text)
        if head.callback is None:  # loading the module killed the worker: never try it again
            head.program.broken = f"the COBOL module could not be loaded: {reason}"
        self._backlog.extendleft(reversed([c for c in rest if c.callback is not None and not c.cancelled]))
        if head.callback is not None and not head.cancelled:
            head.callback(CallResult(False, 0, [], display, reason))
        for call in list(self._backlog):
            if call.program.broken:
                self._backlog.remove(call)
                if call.callback is not None:  # (the backlog holds calls only, never load frames)
                    call.callback(CallResult(False, 0, [], "", call.program.broken))
        self._drain_backlog()
        if not self.defer_writes:
            self.flush()

    def _stop(self, worker: Worker) -> None:
        """End an idle worker on purpose (not a fault: nothing is counted, no call is affected)."""
        self._retire(worker)
        kill(worker.pid)
        reap(worker.pid)
        os.close(worker.stderr_fd)
        os.close(worker.display_fd)

    def _retire(self, worker: Worker) -> None:
        self._stale.discard(worker)
        self._workers.remove(worker)
        worker.pending_out.clear()
        if worker in self._unflushed:
            self._unflushed.remove(worker)
        self.loop.remove_reader(worker.reply_fd)
        os.close(worker.send_fd)
        os.close(worker.reply_fd)

    # ---------------------------------------------------------------------------------- spawning
    def _spawn(self) -> Worker:
        try:
            started = spawn_worker(self._env, self._devnull, PIPE_SIZE, self.spin, self.worker)
        except OSError as exc:
            if not self.worker:
                raise
            from ... import log

            log.warning(f"the C worker {self.worker} cannot be started ({exc.strerror}): using the Python worker")
            self.worker = None
            started = spawn_worker(self._env, self._devnull, PIPE_SIZE, self.spin)
        pid, send_fd, reply_fd, display_fd, stderr_fd, roomy = started
        if not roomy:
            self._room = 32 << 10  # default 64 KiB pipes: keep in-flight frames well below
        worker = Worker(pid, send_fd, reply_fd, display_fd, stderr_fd)
        self.stats["started"] += 1
        self._workers.append(worker)
        self.loop.add_reader(reply_fd, lambda: self._on_readable(worker))
        return worker
