"""Run a main program as its own run unit: a fresh process per call, never blocking the loop.

The child gets the call's input text as standard input (a temporary file, so it never waits on us
and an ACCEPT past its end sees end of file), the call's arguments as its command line, and its
own process group. Its stdout and stderr are pipes read through the server's loop
(``add_reader``/``remove_reader``, a :class:`SelectLoop` or an asyncio loop), each cut at
``limit`` bytes. A timer kills the process group at the timeout; :meth:`RunUnit.cancel` does the
same at once. The callback gets one :class:`RunResult` when both pipes are closed, or as soon as the
program's process has ended (a pidfd on the loop) even if something it started holds them open.

What a run unit starts is swept at its end, wherever it went: every process it starts inherits
:data:`UNIT_VARIABLE` in its environment (its token) and one end of a pipe, so the end of the call
kills its process group and, when anything still holds that pipe, every process whose environment
carries the token (:func:`sweep`, through /proc: a ``setsid`` child, a daemon that left the group).
A timeout, a cancellation and :func:`kill_all` sweep always. A process that both empties its
environment and closes every inherited descriptor is beyond it.

No run unit outlives the server: the guard linked into every console executable
(``rununit_guard.c``) asks the kernel for SIGKILL when the thread that started it ends
(PR_SET_PDEATHSIG, as the COBOL workers do) and exits when its parent is no longer the server named in
:data:`PARENT_VARIABLE`, so even a SIGKILLed server leaves none behind; nothing runs between fork and
exec, so the child is started at vfork speed (processes the run unit itself started are not covered
by that: they are swept, as above, by :func:`kill_all`, which every way out of the server but SIGKILL
calls).

A run unit with a ``service`` (a console program with EXEC SQL) also gets a service channel
(:mod:`.unit_channel`): its ``CALL 'SQLRT'`` requests are answered on a thread of their own. A request
the service cannot serve kills the run unit (its error says why); a cancelled run unit (a cancellation,
the server stopping) ends its service with a rollback, as its callback is not called.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import os
import shutil
import signal
import subprocess
import tempfile
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from .unit_channel import FDS_VARIABLE, Channel, UnitService

__all__ = ["OUTPUT_LIMIT", "RunResult", "RunUnit", "kill_all", "start_run_unit", "sweep"]

OUTPUT_LIMIT = 1 << 20  # bytes kept of each of stdout and stderr
PARENT_VARIABLE = "COBOL_MCP_PARENT"  # the server's pid, for the executable's guard
UNIT_VARIABLE = "COBOL_MCP_UNIT"  # names the run unit in the environment of every process it starts
FILES_VARIABLE = "COBOL_MCP_FILES"  # the places the run unit may reach, for the executable's guard
SYSTEM_PLACES = (  # read and run: programs, libraries, locales, time zones and GnuCOBOL's configuration
    "/usr", "/lib", "/lib32", "/lib64", "/libx32", "/bin", "/sbin", "/opt", "/etc/ld.so.cache",
    "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/localtime", "/etc/timezone", "/etc/gnucobol",
    "/etc/alternatives",
)  # fmt: skip
DEVICES = ("/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty")
_NUMBERS = itertools.count(1)


def _pidfd(pid: int) -> int | None:
    """A descriptor that becomes readable when `pid` ends (Linux 5.3+), or None."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


_SCRATCH: list[str] = []


def _scratch() -> str:
    """The server's folder for its run units' temporary files (TMPDIR), made once, removed at exit."""
    if not _SCRATCH:
        import atexit

        _SCRATCH.append(tempfile.mkdtemp(prefix="cobol-mcp-tmp-"))
        atexit.register(shutil.rmtree, _SCRATCH[0], True)
    return _SCRATCH[0]


def places(writable: Sequence[str], executable: str, env: Mapping[str, str]) -> str:
    """The guard's list of places (see ``rununit_guard.c``): `writable` folders, the system's, the
    executable's folder and the folders its CALLs load programs from, and the harmless devices."""
    lines = [f"w{os.path.realpath(path)}" for path in writable]
    readable = [*SYSTEM_PLACES, os.path.dirname(os.path.realpath(executable))]
    called = [path for path in env.get("COB_LIBRARY_PATH", "").split(os.pathsep) if path]
    readable += called + _link_targets(called)
    if env.get("COB_CONFIG_DIR"):
        readable.append(env["COB_CONFIG_DIR"])
    lines += [f"r{path}" for path in readable]
    lines += [f"f{path}" for path in DEVICES]
    return "\n".join(line for line in lines if "\n" not in line[1:])


def _link_targets(folders: Sequence[str]) -> list[str]:
    """The folders the links of `folders` point into (a CALL folder's ``PROGRAM-ID.so`` links lead to the
    modules where they were built): the guard checks the file a link resolves to, not the link."""
    targets: dict[str, None] = {}
    for folder in folders:
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            if entry.is_symlink():
                targets[os.path.dirname(os.path.realpath(entry.path))] = None
    return list(targets)


def sweep(token: str) -> int:
    """SIGKILL every process whose environment names the run unit `token` (what it started, in its group
    or out of it: a ``setsid`` child, a daemon); how many. Found through /proc, where there is one."""
    if not token:
        return 0
    mark = f"\0{UNIT_VARIABLE}={token}\0".encode()
    killed = 0
    try:
        names = os.listdir("/proc")
    except OSError:
        return 0
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as handle:
                environ = b"\0" + handle.read()
        except OSError:
            continue
        if mark in environ:
            with contextlib.suppress(OSError):
                os.kill(int(name), signal.SIGKILL)
                killed += 1
    return killed


class ReaderLoop(Protocol):
    def add_reader(self, fd: int, callback: Callable[[], object]) -> None: ...

    def remove_reader(self, fd: int) -> bool: ...


@dataclass(frozen=True)
class RunResult:
    return_code: int  # the exit status; negative: killed by that signal
    stdout: bytes
    stderr: bytes
    truncated: bool  # some output went past the limit and was dropped
    error: str | None  # timed out, cancelled or could not start; None for any exit


class RunUnit:
    def __init__(
        self,
        loop: ReaderLoop,
        process: subprocess.Popen[bytes],
        timeout: float | None,
        limit: int,
        callback: Callable[[RunResult], object],
        service: UnitService | None = None,
        token: str = "",
        alive_fd: int | None = None,
    ) -> None:
        self._service = service
        self._loop = loop
        self._process = process
        self._limit = limit
        self._callback = callback
        self._buffers: dict[int, bytearray] = {}
        self._outputs: dict[int, bytes] = {}
        assert process.stdout is not None and process.stderr is not None
        self._out_fd = process.stdout.fileno()
        self._err_fd = process.stderr.fileno()
        self._truncated = False
        self._why: str | None = None
        self._finished = False
        self._timer: threading.Timer | None = None
        self._token = token  # in the environment of every process the run unit starts (see sweep)
        self._alive_fd = alive_fd  # EOF once no process of the run unit holds its write end
        self._exit_fd = _pidfd(process.pid)  # readable once the program's process has ended
        if self._exit_fd is not None:
            loop.add_reader(self._exit_fd, self._exited)
        self.on_end: Callable[[], object] | None = None  # called when the process is gone, even if cancelled
        _LIVE.add(self)
        for stream in (process.stdout, process.stderr):
            assert stream is not None
            fd = stream.fileno()
            os.set_blocking(fd, False)
            self._buffers[fd] = bytearray()
            loop.add_reader(fd, functools.partial(self._readable, fd))
        if timeout is not None:
            self._timer = threading.Timer(timeout, self._kill, (f"did not finish within {timeout:g} s",))
            self._timer.daemon = True
            self._timer.start()

    def cancel(self) -> bool:
        """Kill the run unit; its callback is not called. False when it had already finished."""
        if self._finished:
            return False
        self._callback = _ignore
        self._kill("cancelled")
        if self._service is not None:  # its callback, which ends the service, is not called
            with contextlib.suppress(Exception):
                self._service.end(False)
        return True

    def reap(self) -> None:
        """Wait for the process after a kill (it is not left a zombie when the server exits next)."""
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            self._process.wait()

    def fail(self, why: str) -> None:
        """Kill the run unit: its call fails with ``why`` (from any thread)."""
        self._kill(why)

    def _kill(self, why: str) -> None:
        if self._why is None:
            self._why = why
        with contextlib.suppress(OSError):
            os.killpg(self._process.pid, signal.SIGKILL)
        sweep(self._token)  # and what it started outside its group (setsid, a daemon)

    def _exited(self) -> None:
        """The program's process ended: what it wrote is read, and the call ends now, whether or not
        a process it started still holds its output open."""
        if self._finished:
            return
        with contextlib.suppress(OSError):
            os.killpg(self._process.pid, signal.SIGKILL)
        self._sweep_if_held()
        for fd in list(self._buffers):
            for _ in range(64):  # bounded: a survivor that keeps writing cannot hold the call
                if fd not in self._buffers:
                    break
                before = len(self._buffers[fd])
                self._readable(fd)
                if fd in self._buffers and len(self._buffers[fd]) == before:
                    break  # nothing more to read now
        if not self._buffers:
            return  # both pipes reached their end: the call has been finished by _readable
        for fd, buffer in list(self._buffers.items()):
            self._loop.remove_reader(fd)
            self._outputs[fd] = bytes(buffer)
        self._buffers.clear()
        self._finish()

    def _sweep_if_held(self) -> None:
        """Kill what the run unit started, wherever it went, when anything of it is still alive."""
        if self._alive_fd is None:
            return
        try:
            held = os.read(self._alive_fd, 1) != b""
        except BlockingIOError:
            held = True
        except OSError:
            held = False
        if held:
            sweep(self._token)

    def _readable(self, fd: int) -> None:
        try:
            chunk = os.read(fd, 65536)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        buffer = self._buffers[fd]
        if chunk:
            room = self._limit - len(buffer)
            if len(chunk) > room:
                self._truncated = True
            buffer += chunk[: max(room, 0)]
            return
        self._loop.remove_reader(fd)
        del self._buffers[fd]
        self._outputs[fd] = bytes(buffer)
        if not self._buffers:
            self._finish()

    def _finish(self) -> None:
        self._finished = True
        _LIVE.discard(self)
        if self._exit_fd is not None:
            self._loop.remove_reader(self._exit_fd)
            os.close(self._exit_fd)
        with contextlib.suppress(OSError):  # what the program left running in its group ends with it
            os.killpg(self._process.pid, signal.SIGKILL)  # (before the wait: its pid still names the group)
        status = self._process.wait()
        self._sweep_if_held()  # and what it left running outside its group
        if self._alive_fd is not None:
            os.close(self._alive_fd)

        if self._timer is not None:
            self._timer.cancel()
        assert self._process.stdout is not None and self._process.stderr is not None
        stdout = self._outputs.get(self._out_fd, b"")
        stderr = self._outputs.get(self._err_fd, b"")
        self._process.stdout.close()
        self._process.stderr.close()
        try:
            self._callback(RunResult(status, stdout, stderr, self._truncated, self._why))
        finally:
            if self.on_end is not None:
                self.on_end()


def _ignore(result: RunResult) -> None:
    pass


_LIVE: set[RunUnit] = set()  # started and not yet finished


def kill_all() -> int:
    """Kill the process group of every run unit still running (the server is going away); how many."""
    units = list(_LIVE)
    for unit in units:
        unit.cancel()
    for unit in units:
        unit.reap()
    _LIVE.clear()
    return len(units)


def start_run_unit(
    loop: ReaderLoop,
    argv: Sequence[str],
    stdin_text: bytes,
    *,
    env: Mapping[str, str],
    cwd: str | None,
    timeout: float | None,
    callback: Callable[[RunResult], object],
    limit: int = OUTPUT_LIMIT,
    service: UnitService | None = None,
    files: Sequence[str] | None = None,
) -> RunUnit | None:
    """Start `argv` with `stdin_text` as its input; None (after calling back) when it cannot start.
    ``service``: what answers its ``CALL 'SQLRT'`` requests (see the module). ``files``: the folders it
    may reach (read, write, create), besides the server's temporary folder (``TMPDIR``: SORT's work
    files) and what the system needs to run it (the executable's guard enforces it with Landlock; a kernel
    without Landlock runs it uncontained)."""
    channel = Channel(service) if service is not None else None
    alive_read, alive_write = os.pipe2(os.O_CLOEXEC | os.O_NONBLOCK)
    passed: tuple[int, ...] = (alive_write,)  # inherited by whatever the run unit starts
    token = f"{os.getpid()}.{next(_NUMBERS)}"
    env = {**env, PARENT_VARIABLE: str(os.getpid()), UNIT_VARIABLE: token}
    if files is not None:
        scratch = _scratch()
        env = {**env, "TMPDIR": scratch, "COB_TMPDIR": scratch}
        env[FILES_VARIABLE] = places([*files, scratch], argv[0], env)
    if channel is not None:
        passed += channel.child_fds()
        env = {**env, FDS_VARIABLE: ",".join(map(str, channel.child_fds()))}
    try:
        with tempfile.TemporaryFile() as stdin:
            stdin.write(stdin_text)
            stdin.seek(0)
            process = subprocess.Popen(
                list(argv),
                stdin=stdin,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=dict(env),
                cwd=cwd,
                start_new_session=True,
                close_fds=True,
                pass_fds=passed,
            )
    except OSError as exc:
        if channel is not None:
            channel.close()
        os.close(alive_read)
        callback(RunResult(-1, b"", b"", False, f"could not start: {exc.strerror or exc}"))
        return None
    finally:
        os.close(alive_write)
    unit = RunUnit(loop, process, timeout, limit, callback, service, token, alive_read)
    if channel is not None:
        channel.on_error = unit.fail
        channel.started()
    return unit
