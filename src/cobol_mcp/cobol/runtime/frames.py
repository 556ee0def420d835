"""What goes over a worker's pipes, and what the runtime keeps for each program, call and worker process.

Frames to a worker: ``REQUEST_HEAD`` (kind, call id, body length) then the body: a load (``LOAD_HEAD``:
index and record count, the sizes, then NUL-terminated module path, entry symbol, caller module,
program name and caller symbol: :func:`load_body`) or a call (``PROGRAM_INDEX`` and the records). Replies:
``REPLY_HEAD`` (call id, status, RETURN-CODE, records length, DISPLAY length), the records, the text.
Mid-call service exchanges: a program's ``CALL 'SQLRT' USING BY VALUE n, BY REFERENCE p1 ...``
(``worker_services.c``'s entries, :data:`SERVICES`) sends a reply of status :data:`SERVICE_STATUS` whose
RETURN-CODE field is `n` and whose records are ``SERVICE_HEAD`` (service, count), each parameter's
size (``<I``) and bytes; the server answers with a request of kind :data:`ANSWER_KIND` (the call's
id, the parameters' new bytes, same sizes) and the program carries on.
Plain data for :mod:`.scheduler` and :mod:`.pool`; the workers (``worker.py``, ``worker.c``) keep
their own copy of the formats.
"""

from __future__ import annotations

import os
import struct

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

__all__ = [
    "ANSWER_KIND",
    "CALL_HEAD",
    "IN_FLIGHT_BYTES",
    "LOAD_HEAD",
    "PIPE_SIZE",
    "PROGRAM_INDEX",
    "READ_SIZE",
    "REPLY_HEAD",
    "REQUEST_HEAD",
    "SERVICES",
    "SERVICE_HEAD",
    "SERVICE_STATUS",
    "Call",
    "CallResult",
    "Exchange",
    "Program",
    "ServiceCall",
    "Worker",
    "load_body",
    "read_exchange",
    "split_records",
]

REQUEST_HEAD = struct.Struct("<BII")
REPLY_HEAD = struct.Struct("<IBiII")
PROGRAM_INDEX = struct.Struct("<H")
CALL_HEAD = struct.Struct("<BIIH")  # REQUEST_HEAD and PROGRAM_INDEX of a call frame, packed at once
LOAD_HEAD = struct.Struct("<HH")
SERVICE_STATUS = 2  # a reply that is not final: the program asks the server (an EXEC SQL statement)
SERVICE_HEAD = struct.Struct("<BH")  # its records: service, parameter count; then <I size>... and the bytes
ANSWER_KIND = 3  # the request frame that answers it: the parameters' bytes, concatenated
SERVICES = {1: "SQLRT", 2: "CICSRT", 3: "SQLPLAN"}  # the worker's entries a COBOL program CALLs, by service number
PIPE_SIZE = 1 << 20
IN_FLIGHT_BYTES = 64 << 10  # frames sent ahead to one worker: ~500 calls keep it busy; more only costs memory
READ_SIZE = 1 << 16  # below glibc's mmap threshold: see transports/stdio.py


class CallResult:
    """How one call ended. `ok`: the program returned (GOBACK); then `buffers` holds the LINKAGE
    records after the call. Otherwise `error` says why it did not run to the end."""

    __slots__ = ("ok", "return_code", "buffers", "display", "error")

    def __init__(
        self, ok: bool, return_code: int, buffers: list[bytes], display: str, error: str | None = None
    ) -> None:
        self.ok, self.return_code, self.buffers, self.display, self.error = ok, return_code, buffers, display, error

    def __repr__(self) -> str:
        return f"CallResult(ok={self.ok}, return_code={self.return_code}, error={self.error!r})"


class Program:
    __slots__ = ("name", "index", "sizes", "total", "load_body", "broken", "source")

    def __init__(
        self,
        name: str,
        index: int,
        sizes: tuple[int, ...],
        load_body: bytes,
        source: tuple[str, str, tuple[int, ...], str, str, str] = ("", "", (), "", "", ""),
    ) -> None:
        self.name, self.index, self.sizes, self.load_body = name, index, sizes, load_body
        self.total = sum(sizes)  # bytes of all its records: a call frame's body is this and the index
        self.source = source  # (module path, entry symbol, record sizes, caller module, program name)
        self.broken: str | None = None  # set when loading it kills the worker


class Exchange:
    """One request of a running call to the server: `service` (the entry the program CALLed, say
    ``"SQLRT"``), `number` (its first argument: the statement number) and `params` (the bytes of
    each BY REFERENCE argument, in order). Its answer gives each parameter's new bytes, same sizes,
    and after them `more`, bytes the service adds for the worker (FETCHes answered ahead: the C
    worker's ``SQLRT``). The service sets `commits` when its answer lets the worker commit the call's unit
    of work: from then on the call's outcome is its commit's (:meth:`.scheduler.Scheduler.expire`)."""

    __slots__ = ("call_id", "service", "number", "params", "answered", "more", "commits")

    def __init__(self, call_id: int, service: str, number: int, params: list[bytes]) -> None:
        self.call_id, self.service, self.number, self.params = call_id, service, number, params
        self.answered = False
        self.more = b""
        self.commits = False

    def __repr__(self) -> str:
        return f"Exchange(call {self.call_id}, {self.service} {self.number}, {list(map(len, self.params))} bytes)"


COMMIT_WAIT = 30.0  # seconds a commit under way is given past its call's timeout (a lock is waited 10 s at most)
UNKNOWN = (f"its unit of work's commit, begun before its timeout, had not ended {COMMIT_WAIT:g} s after it: the unit "
           "of work may or may not have been committed, its outcome is unknown")  # fmt: skip


class Call:
    __slots__ = ("id", "program", "frame", "callback", "timeout", "cancelled", "committing", "alone")

    def __init__(
        self, id: int, program: Program, frame: bytes, callback: Callable[[CallResult], object] | None, timeout: float
    ) -> None:
        self.id, self.program, self.frame, self.timeout = id, program, frame, timeout
        self.callback = callback  # None: a load frame
        self.cancelled = False
        self.alone = False  # sent only to an idle worker, never behind another call (a task another call awaits)
        self.committing = False  # its worker was let commit (a ServiceCall's): its reply says how that ended

    def limit(self) -> float:
        """How long the call may run: its timeout, and :data:`COMMIT_WAIT` more once its commit has begun."""
        return self.timeout + COMMIT_WAIT if self.committing else self.timeout

    def overdue(self) -> str:
        """What the call was doing when its time ran out, for its error."""
        return UNKNOWN if self.committing else "an endless loop?"


class ServiceCall(Call):
    """A call whose program may ask the server mid-call: `service` answers (a plain Call that asks fails)."""

    __slots__ = ("service", "exchange")

    def __init__(
        self,
        id: int,
        program: Program,
        frame: bytes,
        callback: Callable[[CallResult], object],
        timeout: float,
        service: Callable[[Exchange], Sequence[bytes] | None],
    ) -> None:
        super().__init__(id, program, frame, callback, timeout)
        self.service = service
        self.exchange: Exchange | None = None  # the one waiting for its answer

    def overdue(self) -> str:
        exchange = self.exchange
        return f"waiting for the answer to {exchange.service} {exchange.number}" if exchange else super().overdue()


class Worker:
    """A worker process, as the pool holds it: its pid and its ends of the pipes and memory files."""

    __slots__ = ("pid", "send_fd", "reply_fd", "display_fd", "stderr_fd")

    def __init__(self, pid: int, send_fd: int, reply_fd: int, display_fd: int, stderr_fd: int) -> None:
        self.pid, self.send_fd, self.reply_fd = pid, send_fd, reply_fd
        self.display_fd, self.stderr_fd = display_fd, stderr_fd


def split_records(data: bytes, start: int, sizes: tuple[int, ...]) -> list[bytes]:
    out = []
    for size in sizes:
        out.append(data[start : start + size])
        start += size
    return out


def load_body(index: int, source: tuple[str, str, tuple[int, ...], str, str, str]) -> bytes:
    """A load frame's body for a program's ``source`` (module path, entry symbol, record sizes, caller
    module, program name, caller symbol): without a caller module the entry is called itself."""
    path, symbol, sizes, driver, program_id, driver_symbol = source
    name = (program_id or symbol) if driver else ""
    names = [os.fsencode(path), symbol.encode(), os.fsencode(driver), name.encode("latin-1", "replace")]
    names.append(driver_symbol.encode() if driver else b"")
    packed = struct.pack(f"<{len(sizes)}I", *sizes)
    return LOAD_HEAD.pack(index, len(sizes)) + packed + b"".join(name + b"\0" for name in names)


def read_exchange(call: Call, number: int, data: bytes, start: int, length: int) -> Exchange | str:
    """The exchange `call`'s service reply carries (its records: data[start:start+length]), or why it is refused."""
    if call.callback is None:
        return "the COBOL worker asked a service while loading a module"
    if isinstance(call, ServiceCall) and call.exchange is not None:
        return f"the COBOL worker asked again before its {call.exchange.service} request was answered"
    end = start + length
    if length < SERVICE_HEAD.size:
        return f"the COBOL worker sent a service request of {length} bytes"
    service_no, count = SERVICE_HEAD.unpack_from(data, start)
    at = start + SERVICE_HEAD.size + 4 * count
    if at > end:
        return f"the COBOL worker sent a service request of {count} parameters in {length} bytes"
    sizes = struct.unpack_from(f"<{count}I", data, start + SERVICE_HEAD.size)
    if at + sum(sizes) != end:
        return f"the COBOL worker sent a service request whose parameters do not fill its {length} bytes"
    service = SERVICES.get(service_no, f"service {service_no}")
    if not isinstance(call, ServiceCall):
        return f"the program CALLed {service} (statement {number}), and this call has nothing to answer it"
    return Exchange(call.id, service, number, split_records(data, at, sizes))
