"""Starting and reaping COBOL worker processes (the plumbing under the runtime)."""

from __future__ import annotations

import fcntl
import os
import sys

WORKER_SCRIPT = os.path.join(os.path.dirname(__file__), "worker.py")
F_SETPIPE_SZ = 1031
SIGKILL = 9  # POSIX; `signal` itself is not imported: it builds its enums at import (start-up time)


def spawn_worker(
    env: dict[str, str], devnull: int, pipe_size: int, spin: float = 0.0, executable: str | None = None
) -> tuple[int, int, int, int, int, bool]:
    """Start a worker: fd 0 /dev/null, fd 1 and 2 memory files we keep (DISPLAY output and libcob's
    messages survive the process), fd 3 requests in, fd 4 replies out. `executable`: the C worker
    (worker.c, built); None runs worker.py. Returns (pid, send fd, reply fd, display fd, stderr fd,
    whether the pipes took `pipe_size`); an OSError when the executable cannot be started."""
    request_read, request_write = os.pipe()
    reply_read, reply_write = os.pipe()
    display_fd, stderr_fd = memfile("cobol-display"), memfile("cobol-stderr")
    roomy = True
    for fd in (request_write, reply_read):
        try:
            fcntl.fcntl(fd, F_SETPIPE_SZ, pipe_size)
        except OSError:
            roomy = False
    originals = (display_fd, stderr_fd, request_read, reply_write)
    server = str(os.getpid())  # the worker's parent while the server lives (checked once it asked for PDEATHSIG)
    child_ends = [above(fd, 5) for fd in originals]
    actions = [(os.POSIX_SPAWN_DUP2, devnull, 0)] + [
        (os.POSIX_SPAWN_DUP2, fd, target) for fd, target in zip(child_ends, (1, 2, 3, 4), strict=True)
    ]
    try:
        if executable:
            pid = os.posix_spawn(executable, [executable, repr(spin), server], env, file_actions=actions)
        else:
            command = [sys.executable, "-I", "-S", WORKER_SCRIPT, repr(spin), server]
            pid = os.posix_spawn(sys.executable, command, env, file_actions=actions)
    except OSError:
        for fd in (request_write, reply_read, display_fd, stderr_fd):
            os.close(fd)
        raise
    finally:
        for original, moved in zip(originals, child_ends, strict=True):
            if moved != original:
                os.close(moved)
        os.close(request_read)
        os.close(reply_write)
    return pid, request_write, reply_read, display_fd, stderr_fd, roomy


def pipes_take(pipe_size: int) -> bool:
    """Whether pipes here can be given `pipe_size` bytes of buffer (F_SETPIPE_SZ, as spawn_worker asks)."""
    read_end, write_end = os.pipe()
    try:
        fcntl.fcntl(write_end, F_SETPIPE_SZ, pipe_size)
        return True
    except OSError:
        return False
    finally:
        os.close(read_end)
        os.close(write_end)


def memfile(name: str) -> int:
    try:
        return os.memfd_create(name, os.MFD_CLOEXEC)
    except (AttributeError, OSError):
        import tempfile

        with tempfile.TemporaryFile() as handle:
            return os.dup(handle.fileno())


def read_memfile(fd: int, limit: int) -> str:
    try:
        return os.pread(fd, limit, 0).decode("utf-8", "replace")
    except OSError:
        return ""


def above(fd: int, lowest: int) -> int:
    """A copy of `fd` numbered at least `lowest`, so the child's dup2 to 0-4 cannot clobber it."""
    return fd if fd >= lowest else fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, lowest)


def kill(pid: int) -> None:
    """SIGKILL `pid`; a process that has ended already is no error."""
    try:
        os.kill(pid, SIGKILL)
    except ProcessLookupError:
        return


def reap(pid: int) -> int:
    try:
        return os.waitpid(pid, 0)[1]
    except ChildProcessError:
        return 0
