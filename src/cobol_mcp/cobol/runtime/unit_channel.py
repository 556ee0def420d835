"""A run unit's service channel: its ``CALL 'SQLRT'`` requests answered by the server while it runs.

An executable built with the run unit's SQLRT (``rununit_sql.c``) writes each call's statement number
and parameter bytes on a request pipe and waits for the answer on an answer pipe; the two descriptors
reach it in ``COBOL_MCP_SQL_FDS`` (its standard input, output and error stay as they are). A
:class:`Channel` owns the server's ends: a thread of its own reads each request, asks the call's
:class:`UnitService` (which may wait on a database lock there, never on the server's loop) and writes
the answer back. The pipes' formats are in ``rununit_sql.c``.

A request the service cannot serve (it raises) ends the run unit: :attr:`Channel.on_error` gets the
reason (the run unit kills its process group with it, and its call fails). The thread ends when the
run unit's end of the request pipe closes (it exited or was killed).
"""

from __future__ import annotations

import contextlib
import os
import struct
import threading
from collections.abc import Callable
from typing import Protocol

__all__ = ["FDS_VARIABLE", "CallSession", "Channel", "Guarded", "UnitService"]

FDS_VARIABLE = "COBOL_MCP_SQL_FDS"
MAX_REQUEST = 64 << 20  # bytes of one request's parameters at most (a bad frame is no allocation)


class UnitService(Protocol):
    def serve(self, number: int, params: list[bytes]) -> list[bytes]:
        """The parameters' new bytes for statement ``number``; raises when it cannot be served."""
        ...

    def end(self, ok: bool) -> None:
        """The call is over: commit (``ok``) or roll back."""
        ...


class CallSession(Protocol):
    def service(self, number: int, params: list[bytes]) -> list[bytes]: ...

    def end(self, ok: bool) -> None: ...


class Guarded:
    """A call's session (``service(number, params)`` and ``end(ok)``, as :class:`cobol_mcp.sqlbridge.session.
    Session` has them) as a :class:`UnitService`: ended while a statement still runs on the channel's
    thread (a timeout, a kill, a cancellation), it is rolled back by that thread once the statement is
    done; ended twice, the second end does nothing; a request after the end is refused."""

    def __init__(self, session: CallSession) -> None:
        self.session = session
        self.guard = threading.Lock()
        self.running = False
        self.ended: bool | None = None  # how the call ended while a statement was running
        self.closed = False

    def serve(self, number: int, params: list[bytes]) -> list[bytes]:
        with self.guard:
            if self.closed:
                raise RuntimeError("the call's unit of work has ended")
            self.running = True
        try:
            return self.session.service(number, params)
        finally:
            with self.guard:
                self.running, ended = False, self.ended
            if ended is not None:
                self.session.end(False)

    def end(self, ok: bool) -> None:
        with self.guard:
            if self.closed:
                return
            self.closed = True
            if self.running:
                self.ended = False
                return
        self.session.end(ok)


class Channel:
    def __init__(self, service: UnitService) -> None:
        self.service = service
        self.on_error: Callable[[str], object] = lambda why: None
        self._requests, self.child_requests = os.pipe2(os.O_CLOEXEC)
        self.child_answers, self._answers = os.pipe2(os.O_CLOEXEC)
        self._open = {self._requests, self.child_requests, self.child_answers, self._answers}
        self._closing = threading.Lock()

    def child_fds(self) -> tuple[int, int]:
        """The run unit's ends (to pass_fds), answers then requests, as COBOL_MCP_SQL_FDS names them."""
        return self.child_answers, self.child_requests

    def started(self) -> None:
        """The run unit holds its ends: close ours of them and serve its requests on a thread."""
        self.close_child_ends()
        threading.Thread(target=self._serve, name="rununit-sql", daemon=True).start()

    def close_child_ends(self) -> None:
        self._close(self.child_answers, self.child_requests)

    def close(self) -> None:
        """Close every end still open (the run unit did not start, or its thread is done)."""
        self._close(self._requests, self.child_requests, self.child_answers, self._answers)

    def _close(self, *fds: int) -> None:
        with self._closing:  # each once: a descriptor number closed twice may be someone else's by then
            for fd in fds:
                if fd in self._open:
                    self._open.discard(fd)
                    with contextlib.suppress(OSError):
                        os.close(fd)

    def _serve(self) -> None:
        try:
            while True:
                request = self._request()
                if request is None:
                    return
                try:
                    params = self.service.serve(*request)
                except Exception as exc:  # the call fails with it; the server carries on
                    self.on_error(f"its CALL 'SQLRT' could not be served: {exc or type(exc).__name__}")
                    return
                self._write(struct.pack("<I", 0) + b"".join(params))
        except OSError:
            return  # the run unit is gone (a write on a closed pipe)
        finally:
            self.close()

    def _request(self) -> tuple[int, list[bytes]] | None:
        head = self._read(8)
        if head is None:
            return None
        number, count = struct.unpack("<iI", head)
        sizes_bytes = self._read(4 * count) if count else b""
        if sizes_bytes is None:
            return None
        sizes = struct.unpack(f"<{count}I", sizes_bytes)
        if sum(sizes) > MAX_REQUEST:
            self.on_error(f"a CALL 'SQLRT' of {sum(sizes)} bytes")
            return None
        body = self._read(sum(sizes)) if sizes else b""
        if body is None:
            return None
        params, at = [], 0
        for size in sizes:
            params.append(body[at : at + size])
            at += size
        return number, params

    def _read(self, length: int) -> bytes | None:
        """Exactly ``length`` bytes, or None at the end of the pipe."""
        data = bytearray()
        while len(data) < length:
            chunk = os.read(self._requests, length - len(data))
            if not chunk:
                return None
            data += chunk
        return bytes(data)

    def _write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(self._answers, view) :]
