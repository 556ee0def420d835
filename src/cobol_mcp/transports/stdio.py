"""The stdio transport: newline-delimited JSON-RPC on stdin/stdout, in one thread.

A single poll loop reads stdin in large chunks, feeds the framer and the session, hands tool
calls to the COBOL runtime (pipelined to its workers) and writes replies in batches. stdout
carries only protocol lines. At EOF every request already received is answered before exit.

SIGTERM drains: new tool calls are refused with an error, the calls in flight get
``--shutdown-grace`` seconds to finish and be answered, then those still running are killed
(their run units' process groups, their workers) and answered with an error that says so; the
exit status is 0 when everything was answered in time, 1 otherwise. A second SIGTERM, or a SIGINT,
during the drain ends the grace at once. A SIGINT outside a drain stops the server at once.
"""

from __future__ import annotations

import os
import select
import sys
import time
from collections import deque

from .. import log
from ..catalog import SHUTDOWN_KILLED, SHUTDOWN_REFUSED
from ..flight import CANCELLED, STOPPED, WAITING, Flight, Flights
from ..protocol import jsonrpc
from ..protocol.framing import LineBuffer, Oversize
from ..protocol.session import Cancel, Session, ToolCall
from ..server import end_run_units, settle

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from ..options import Options
    from ..selectloop import SelectLoop
    from ..server import Server

# Reads stay below glibc's mmap threshold (128 KiB): os.read allocates its whole buffer first, and a
# larger one costs an mmap/munmap pair, ~15 us, on every read - more than handling a message.
READ_SIZE = 1 << 16
# A client may write requests faster than COBOL answers them, or read replies slower than they come.
# Past either bound the server stops reading stdin (the client's writes then block) until it is
# below half of it again: memory stays bounded however many requests are in flight.
PAUSE_READING_AT = 512  # calls waiting for a worker
PAUSE_READING_OUTPUT = 16 << 20  # bytes of replies the client has not read yet
WRITE_CHUNK = select.PIPE_BUF  # what a pipe that polls writable takes without blocking
SPIN_SECONDS = 0.0003  # after sending calls or replies, poll this long before sleeping
SHUTTING_DOWN = -32000  # JSON-RPC's implementation-defined server error: a call refused during a drain
LAST_WRITE_SECONDS = 1.0  # after a drain, replies still unsent get this long to go out


class StdioServer:
    def __init__(
        self, server: Server, loop: SelectLoop, options: Options, stdin_fd: int = 0, stdout_fd: int = 1
    ) -> None:
        self.server = server
        self.loop = loop
        self.runtime = server.runtime
        self.catalog = server.catalog
        self.session = Session(server.model, strict_lifecycle=options.strict_lifecycle)
        self.max_bytes = options.max_message_bytes
        self.framer = LineBuffer(options.max_message_bytes)
        self.stdin_fd, self.stdout_fd = stdin_fd, stdout_fd
        self.out: list[bytes] = []  # replies produced since the last write
        self.unsent: deque[memoryview] = deque()  # replies stdout would not take yet
        self.unsent_bytes = 0
        self._stdout_ready = select.poll()
        self._stdout_ready.register(stdout_fd, select.POLLOUT)
        self.flights = Flights()  # the tool calls in flight (one session: its key is None)
        self.eof = False
        self.grace = options.shutdown_grace
        self.stops = 0  # SIGTERMs received (and SIGINTs during a drain)
        self.stop_deadline: float | None = None  # when the drain's grace ends

    def serve(self) -> int:
        runtime, loop, clock, yield_cpu = self.runtime, self.loop, time.perf_counter, os.sched_yield
        warm = reading = False
        last_write = 0.0
        while True:
            if self.out or self.unsent:
                wrote = self._write()
                if wrote is None:
                    return 0  # the client closed stdout: nobody is listening any more
                if wrote:
                    last_write = clock()
                if not warm:  # the first replies are out: now start a worker and load the codec
                    warm = True
                    runtime.start()
                    self.catalog.warm()
            if reading and (runtime.waiting > PAUSE_READING_AT or self.unsent_bytes > PAUSE_READING_OUTPUT):
                reading = False
                loop.remove_reader(self.stdin_fd)
            elif (
                not reading
                and not self.eof
                and runtime.waiting <= PAUSE_READING_AT // 2
                and self.unsent_bytes <= PAUSE_READING_OUTPUT // 2
            ):
                reading = True
                loop.add_reader(self.stdin_fd, self._on_stdin)
            busy = runtime.busy
            if self.eof and not busy and not self.flights and not self.unsent:
                return 0
            if self.stops:
                status = self._drain(busy)
                if status is not None:
                    return status
            # Waking from sleep takes longer than a COBOL call or a client's turn-around, so poll
            # without sleeping for a moment after sending calls to a worker or replies out; yielding
            # the CPU between polls, or the client (with the worker polling too) may wait for a CPU.
            now = clock()
            if now - last_write < SPIN_SECONDS or (busy and now - runtime.last_flush < SPIN_SECONDS):
                loop.run_once(0)
                runtime.flush()
                yield_cpu()
                continue
            deadline = runtime.next_deadline()
            if self.stop_deadline is not None:
                deadline = self.stop_deadline if deadline is None else min(deadline, self.stop_deadline)
            loop.run_once(None if deadline is None else max(0.0, deadline - time.monotonic()))
            if deadline is not None:
                runtime.expire()
            runtime.flush()

    # ---------------------------------------------------------------------------------- stopping
    def catch_signals(self) -> None:
        """SIGTERM starts a drain (see the module's description); SIGINT raises KeyboardInterrupt, or
        during a drain ends its grace."""
        install_signals(self.loop, self._on_sigterm, self._on_sigint)

    def _on_sigterm(self, signum: int, frame: Any) -> None:
        self.stops += 1

    def _on_sigint(self, signum: int, frame: Any) -> None:
        if not self.stops:
            raise KeyboardInterrupt
        self.stops += 1

    def _drain(self, busy: bool) -> int | None:
        """A step of the drain after SIGTERM: the exit status once it is over, else None."""
        now = time.monotonic()
        if self.stop_deadline is None:
            self.stop_deadline = now + self.grace
            log.info(
                f"SIGTERM: taking no new tool calls; {len(self.flights)} in flight get {self.grace:g} s to finish",
                in_flight=len(self.flights),
            )
        in_flight = busy or bool(self.flights)
        if not in_flight and not self.out and not self.unsent:
            log.info("drained: every call was answered")
            return 0
        if self.stops == 1 and now < self.stop_deadline:
            return None
        if in_flight:
            why = "a second signal" if self.stops > 1 else f"the {self.grace:g} s grace ran out"
            killed = len(self.flights)
            log.warning(f"{why}: killing the {killed} tool calls still running", killed=killed)
            for flight in self.flights:
                self.catalog.abandon(flight)  # each is answered with an error (`_reply`); later results are dropped
            self.runtime.close()  # what is left of the workers goes too (a cancelled call's worker is gone already)
            end_run_units()
        self.flush_briefly()
        return 1

    def flush_briefly(self) -> None:
        """Write pending replies for at most LAST_WRITE_SECONDS (a client that reads nothing cannot hold
        the exit back)."""
        end = time.monotonic() + LAST_WRITE_SECONDS
        while (self.out or self.unsent) and time.monotonic() < end:
            if self._write() is None:
                return
            if self.unsent:
                self._stdout_ready.poll(max(0, int((end - time.monotonic()) * 1000)))

    # ---------------------------------------------------------------------------------- input
    def _on_stdin(self) -> None:
        try:
            data = os.read(self.stdin_fd, READ_SIZE)
        except OSError:
            data = b""
        if data:
            lines = self.framer.feed(data)
        else:
            self.eof = True
            self.loop.remove_reader(self.stdin_fd)
            lines = self.framer.finish()
        for line in lines:
            self._line(line)

    def _line(self, line: bytes | Oversize) -> None:
        try:
            outcome = self.session.receive(line, self.max_bytes)
        except Exception:
            log.exception("unexpected fault while handling a message")
            self.out.append(_internal_error(line))
            return
        if outcome is None:
            return
        if outcome.__class__ is bytes:
            self.out.append(outcome)
        elif isinstance(outcome, ToolCall):
            self._call(outcome)
        elif isinstance(outcome, Cancel):
            self.flights.cancel(None, outcome.request_id)

    def _call(self, call: ToolCall) -> None:
        if self.stops:
            self.out.append(jsonrpc.error_line(call.request_id, SHUTTING_DOWN, SHUTDOWN_REFUSED))
            return
        flight = Flight(call.request_id, None, self._reply, call)
        self.catalog.start(flight, call.name, call.arguments)
        if flight.result is WAITING:
            self.flights.add(flight)

    def _reply(self, flight: Flight) -> None:
        """A call ended: its reply (none when it was cancelled)."""
        self.flights.done(flight)
        result, call = flight.result, flight.call
        if result is CANCELLED:
            return
        if result is STOPPED:
            self.out.append(jsonrpc.error_line(call.request_id, SHUTTING_DOWN, SHUTDOWN_KILLED))
        elif isinstance(result, BaseException):
            self.out.append(self.session.internal_error(call.request_id, f"the tool failed ({type(result).__name__})"))
        else:
            try:
                self.out.append(self.session.tool_result(call, result))
            except Exception:  # the line writers do not raise; this is the last guard of exactly one reply
                log.exception(f"writing the result of {call.name!r} failed")
                self.out.append(self.session.internal_error(call.request_id, "the result could not be written"))

    def flush_blocking(self) -> None:
        """Write every pending reply, waiting for stdout as long as it takes (used on the way out)."""
        try:
            data = b"".join([*(bytes(chunk) for chunk in self.unsent), *self.out])
            self.unsent.clear()
            self.out.clear()
            os.set_blocking(self.stdout_fd, True)
            while data:
                data = data[os.write(self.stdout_fd, data) :]
        except OSError:
            pass

    def _write(self) -> bool | None:
        """Write what stdout takes without blocking (a client that reads slowly must not stop the
        server from reading its next requests); the rest waits for POLLOUT. Returns whether
        anything was written, None when the client closed stdout."""
        if self.out:
            data = b"".join(self.out)
            self.out.clear()
            self.unsent.append(memoryview(data))
            self.unsent_bytes += len(data)
        wrote = False
        try:
            while self.unsent and self._stdout_ready.poll(0):
                head = self.unsent[0]
                written = os.write(self.stdout_fd, head[:WRITE_CHUNK])
                wrote = True
                self.unsent_bytes -= written
                if written == len(head):
                    self.unsent.popleft()
                else:
                    self.unsent[0] = head[written:]
        except BrokenPipeError:
            return None
        if self.unsent:
            self.loop.add_writer(self.stdout_fd, _nothing)  # only to wake the loop: serve() writes
        else:
            self.loop.remove_writer(self.stdout_fd)
        return wrote


def _nothing() -> None:
    pass


def install_signals(loop: SelectLoop, on_term: Callable[[int, Any], None], on_int: Callable[[int, Any], None]) -> None:
    """Handlers for SIGTERM and SIGINT, even when the launcher left them ignored. A signal wakes the
    loop through a pipe (set_wakeup_fd): the poll itself is only retried after a handler runs."""
    import _signal  # type: ignore[import-not-found]  # `signal`'s C half; `signal` builds enums at import

    wake_read, wake_write = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
    _signal.set_wakeup_fd(wake_write, warn_on_full_buffer=False)
    loop.add_reader(wake_read, lambda: _drain_pipe(wake_read))
    _signal.signal(_signal.SIGTERM, on_term)
    _signal.signal(_signal.SIGINT, on_int)


def _drain_pipe(fd: int) -> None:
    try:
        while os.read(fd, 512):
            pass
    except OSError:  # BlockingIOError: empty
        pass


def _internal_error(line: bytes | Oversize) -> bytes:
    """The -32603 reply for a fault in our own code, with the id when it can be read. Never raises:
    it stands in for a reply that must not go missing."""
    try:
        raw = line.head if isinstance(line, Oversize) else line
        request_id = jsonrpc.recover_id(raw)
    except Exception:  # pragma: no cover - recover_id reads any text
        request_id = None
    return jsonrpc.error_line(request_id, jsonrpc.INTERNAL_ERROR, "Internal error while handling the message")


def banner(server: Server) -> str:
    tools = ", ".join(server.catalog.names) or "none"
    return (
        f"cobol-mcp-server {server.model.version}: an MCP server whose tools are COBOL programs ({tools}).\n"
        "It speaks JSON-RPC on stdin/stdout: connect it from an MCP client (see README), or type a request such as\n"
        '  {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":"0.1","b":"0.2"}}}\n'
        "Ctrl-D quits.\n"
    )


def watch(stdio: StdioServer, server: Server, options: Options) -> Any:
    """Live reload: the watcher thread posts reloads through a pipe the loop reads; after each the
    catalog is swapped and, when the tools list changed, the client gets tools/list_changed."""
    import contextlib

    from ..reload import LIST_CHANGED, Watcher

    wake_read, wake_write = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
    posted: deque[Callable[[], object]] = deque()

    def post(function: Callable[[], object]) -> None:
        posted.append(function)
        with contextlib.suppress(BlockingIOError):  # full: the loop has wake-ups pending already
            os.write(wake_write, b"!")

    def on_wake() -> None:
        with contextlib.suppress(BlockingIOError):
            os.read(wake_read, 4096)
        while posted:
            posted.popleft()()

    def on_reload(changed: bool) -> None:
        stdio.catalog = server.catalog
        if changed:
            stdio.out.append(LIST_CHANGED)

    stdio.loop.add_reader(wake_read, on_wake)
    watcher = Watcher(server, options, post, on_reload)
    watcher.start()
    return watcher


def run(server: Server, loop: SelectLoop, options: Options) -> int:
    if os.isatty(0):
        sys.stderr.write(banner(server))
        sys.stderr.flush()
    stdio = StdioServer(server, loop, options)
    stdio.catch_signals()
    watcher = watch(stdio, server, options) if options.watch else None
    settle()
    try:
        return stdio.serve()
    except Exception:
        stdio.flush_blocking()  # replies already computed still go out before the fault ends the process
        raise
    finally:
        if watcher is not None:
            watcher.stop()
        server.runtime.close()
        end_run_units()  # whatever way the server ends: no console or batch program outlives it
