"""The COBOL worker: the only process that loads libcob and runs COBOL code.

Run as ``python -I -S worker.py`` by :mod:`.pool`; standard library only, so it starts in
milliseconds. ``worker.c`` is the same worker in C, on the same frames: the runtime runs it where it
was built (:mod:`..prepare.native_worker`) and this one where it was not. COBOL may do anything to
this process (STOP RUN exits it, a runtime error or SIGSEGV kills it, DISPLAY writes to fd 1), so
the server keeps it at arm's length:

- fd 3 carries requests in, fd 4 carries replies out; fd 0 is /dev/null (ACCEPT reads nothing);
- fd 1 and fd 2 are memory files owned by the server: after each call the worker collects and
  clears what the program DISPLAYed, and if the process dies the server reads both itself.

Request frame:  <B kind><I call id><I body length> body
    kind 1 (load): body = <H program index><H record count><I size>... then five NUL-terminated
        strings: module path, entry symbol, caller module ("": call the entry itself), program
        name (the caller CANCELs it by that name), caller symbol ("": the generic caller's)
    kind 2 (call): body = <H program index> + the LINKAGE records, concatenated
Reply frame:    <I call id><B status><i return code><I records length><I text length> records text
    status 0: the program returned; 1: it could not be run (text says why).
Mid-call service exchanges (a program's CALL 'SQLRT' / 'CICSRT': reply status 2, request kind 3) are
the C worker's alone (``worker_services.c``): this process cannot give libcob a C entry to CALL by
name, so the runtime refuses calls that carry a service when it runs this worker.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import select
import struct
import sys
import time

TYPE_CHECKING = False  # typing is not imported at run time: the worker starts on every first call
if TYPE_CHECKING:
    from typing import Any

REQUEST_FD, REPLY_FD = 3, 4
REQUEST_HEAD = struct.Struct("<BII")
REPLY_HEAD = struct.Struct("<IBiII")
PROGRAM_INDEX = struct.Struct("<H")
LOAD_HEAD = struct.Struct("<HH")  # program index, record count; the sizes (<I each) and names follow
READ_SIZE = 1 << 16  # below glibc's mmap threshold: a larger os.read buffer costs ~15 us per read
DISPLAY_KEPT = 1 << 16  # DISPLAY bytes returned per call; the rest is counted, not kept
FILE_SIZE_LIMIT = 64 << 20  # a DISPLAY flood is stopped here (SIGXFSZ) instead of filling memory
# After a reply, poll for the next request this long before sleeping (argv[1], seconds): a sleeping
# process takes tens of microseconds to wake, more than a whole COBOL call. 0 turns it off.
SPIN_SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 0.0
PR_SET_PDEATHSIG = 1


CALLER_SYMBOL = "COBOL__MCP__CALLER"  # the COBOL caller's entry (cobol.prepare.driver.DRIVER_SYMBOL)
CALLER_NAME_LENGTH = 64


class Program:
    """A loaded program: its record buffers and how to call it. Through the COBOL caller (when the
    load request names one) the call is ``caller(count, entry pointer, name, records...)``: the program
    is entered from a COBOL program, so EXIT PROGRAM returns as GOBACK does."""

    __slots__ = ("args", "buffers", "entry", "keep", "sizes", "total")

    def __init__(
        self,
        path: str,
        symbol: str,
        sizes: list[int],
        driver: str = "",
        name: str = "",
        caller_symbol: str = CALLER_SYMBOL,
    ) -> None:
        library = ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
        entry = getattr(library, symbol)
        self.sizes = sizes
        self.total = sum(sizes)
        self.buffers = [ctypes.create_string_buffer(size) for size in sizes]
        if driver:
            caller = getattr(ctypes.CDLL(driver, mode=ctypes.RTLD_GLOBAL), caller_symbol)
            count = ctypes.c_int32(len(sizes))
            pointer = ctypes.c_void_p(ctypes.cast(entry, ctypes.c_void_p).value)
            label = ctypes.create_string_buffer(name.encode("latin-1").ljust(CALLER_NAME_LENGTH), CALLER_NAME_LENGTH)
            self.keep: tuple[object, ...] = (count, pointer, label, library)
            self.entry = caller
            self.args: list[Any] = [ctypes.byref(count), ctypes.byref(pointer), label, *self.buffers]
        else:
            self.keep = (library,)
            self.entry = entry
            self.args = list(self.buffers)
        self.entry.restype = ctypes.c_int


def main() -> None:
    libc = ctypes.CDLL(None)
    libc.prctl(PR_SET_PDEATHSIG, 9)  # never outlive the server, even inside an endless COBOL loop
    # The server gone before that took effect: the parent is no longer the server named in argv[2]
    # (spawn_worker always names it; not "the parent is pid 1": a server in a container may be pid 1).
    if len(sys.argv) > 2 and os.getppid() != int(sys.argv[2]):
        return
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_SIZE_LIMIT, FILE_SIZE_LIMIT))
    except (ImportError, ValueError, OSError):
        pass
    libcob = ctypes.CDLL("libcob.so.4", mode=ctypes.RTLD_GLOBAL)
    libcob.cob_init(0, None)
    fflush = libc.fflush
    programs: dict[object, Program | str] = {}  # index -> its module, or why it could not be loaded
    pending = bytearray()
    read, write, lseek, pread, ftruncate = os.read, os.write, os.lseek, os.pread, os.ftruncate
    memmove = ctypes.memmove
    os.set_blocking(REQUEST_FD, False)
    wait = select.poll()
    wait.register(REQUEST_FD, select.POLLIN)
    clock, yield_cpu = time.perf_counter, os.sched_yield
    while True:
        try:
            chunk = read(REQUEST_FD, READ_SIZE)
        except BlockingIOError:
            if not SPIN_SECONDS:
                wait.poll()
            spin_until = clock() + SPIN_SECONDS
            chunk = None
            while chunk is None:
                if clock() > spin_until:
                    wait.poll()
                with contextlib.suppress(BlockingIOError):
                    chunk = read(REQUEST_FD, READ_SIZE)
                if chunk is None:
                    yield_cpu()  # a waiting client must not queue behind a poller
        if not chunk:
            return
        pending += chunk
        pos, end = 0, len(pending)
        while end - pos >= 9:
            kind, call_id, length = REQUEST_HEAD.unpack_from(pending, pos)
            if end - pos - 9 < length:
                break
            body = bytes(pending[pos + 9 : pos + 9 + length])
            pos += 9 + length
            if kind == 2:
                (index,) = PROGRAM_INDEX.unpack_from(body) if length >= 2 else (None,)
                program = programs.get(index)
                if index is None:
                    reply = failure(call_id, f"a call frame of {length} bytes names no program")
                elif isinstance(program, str):
                    reply = failure(call_id, program)
                elif program is None or length - 2 != program.total:
                    reply = failure(call_id, f"no program {index} with records of {length - 2} bytes")
                else:
                    offset = 2
                    for buffer, size in zip(program.buffers, program.sizes, strict=True):
                        memmove(buffer, body[offset : offset + size], size)
                        offset += size
                    code = program.entry(*program.args)
                    records = b"".join([buffer.raw for buffer in program.buffers])
                    fflush(None)
                    shown = lseek(1, 0, os.SEEK_CUR)
                    text = b""
                    if shown:
                        text = pread(1, DISPLAY_KEPT, 0)
                        if shown > DISPLAY_KEPT:
                            text += b"\n[%d more bytes of DISPLAY output not kept]" % (shown - DISPLAY_KEPT)
                        ftruncate(1, 0)
                        lseek(1, 0, os.SEEK_SET)
                    reply = REPLY_HEAD.pack(call_id, 0, code, len(records), len(text)) + records + text
            elif kind == 1:
                reply = load(programs, call_id, body)
            else:
                reply = failure(call_id, f"unknown request kind {kind}")
            while reply:
                reply = reply[write(REPLY_FD, reply) :]
        del pending[:pos]


def load(programs: dict[object, Program | str], call_id: int, body: bytes) -> bytes:
    index = PROGRAM_INDEX.unpack_from(body)[0] if len(body) >= 2 else None
    try:
        index, count = LOAD_HEAD.unpack_from(body)
        sizes = list(struct.unpack_from(f"<{count}I", body, LOAD_HEAD.size))
        path, symbol, driver, name, caller, _rest = body[LOAD_HEAD.size + 4 * count :].split(b"\0", 5)
        programs[index] = Program(
            os.fsdecode(path),
            symbol.decode(),
            sizes,
            os.fsdecode(driver),
            name.decode("latin-1"),
            caller.decode() or CALLER_SYMBOL,
        )
    except (OSError, AttributeError, ValueError, struct.error) as exc:
        message = f"cannot load the COBOL module: {exc}"
        if index is not None:
            programs[index] = message
        return failure(call_id, message)
    return REPLY_HEAD.pack(call_id, 0, 0, 0, 0)


def failure(call_id: int, message: str) -> bytes:
    text = message.encode()
    return REPLY_HEAD.pack(call_id, 1, 0, 0, len(text)) + text


if __name__ == "__main__":
    with contextlib.suppress(BrokenPipeError):
        main()
    sys.exit(0)
