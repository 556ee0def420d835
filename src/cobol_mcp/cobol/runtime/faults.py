"""Turn the way a COBOL process died into a sentence that tells the caller what went wrong.

Both ways COBOL runs use it: a worker running CALLable programs (:func:`describe_exit`) and a run unit
(a console or batch program, :func:`signal_death`). A signal is said the same way in both:
``killed by SIGSEGV at PROG.cbl:350: attempt to reference unallocated memory``. libcob catches the
signals a program faults with (SIGSEGV, SIGBUS, SIGFPE, ...), writes ``FILE:LINE: MESSAGE (signal
SIGSEGV)`` on stderr (the place only where the module was compiled with -debug, as ours are), closes
the files and exits with the signal's number; one it cannot catch (SIGKILL) ends the process at once,
with no message: then the signal alone is named.
"""

from __future__ import annotations

import os
import re
import signal
from dataclasses import dataclass

__all__ = ["SignalDeath", "describe_exit", "runtime_error", "signal_death"]

_SIGNAL_HINTS: dict[int, str] = {
    signal.SIGSEGV: "invalid memory access: a bad CALL, a subscript or pointer out of range",
    signal.SIGBUS: "invalid memory access",
    signal.SIGFPE: "arithmetic fault",
    signal.SIGABRT: "the program aborted",
    signal.SIGKILL: "possibly for lack of memory",
}
_FLOOD = "the program wrote more than 64 MiB of output (DISPLAY flood) and was stopped"

# libcob's own report of a signal it caught: `[libcob: ][FILE:LINE: ]MESSAGE (signal SIGSEGV)`.
_LIBCOB_SIGNAL = re.compile(
    r"^(?:libcob: )?(?:(?P<file>[^\n:]+):(?P<line>\d+): )?"
    r"(?P<message>[^\n]*?) ?\(signal (?P<name>SIG[A-Z0-9]+)\)[ \t]*$",
    re.M,
)


@dataclass(frozen=True)
class SignalDeath:
    """A process ended by a signal: its name, and where and why as libcob said (when it could)."""

    signal: str  # "SIGSEGV", or the number of a signal without a name
    location: str | None  # "PROG.cbl:350": the file's name (not its folder) and the line
    message: str | None  # libcob's words: "attempt to reference unallocated memory"

    def sentence(self) -> str:
        """``killed by SIGSEGV at PROG.cbl:350: attempt to reference unallocated memory``."""
        text = f"killed by {self.signal}"
        if self.location:
            text += f" at {self.location}"
        return f"{text}: {self.message}" if self.message else text


def signal_death(killed_by: int | None, exit_code: int | None, stderr_text: str) -> SignalDeath | None:
    """How a process that was killed by signal ``killed_by``, or exited with ``exit_code``, died by a
    signal; None when it did not (a plain exit, RETURN-CODE 11 included, unless libcob reported
    signal 11 on stderr)."""
    caught = None
    for match in _LIBCOB_SIGNAL.finditer(stderr_text):
        number = getattr(signal.Signals, match.group("name"), None)
        if number is not None and number in (killed_by, exit_code):
            caught = match
    if caught is not None:
        where = caught.group("file")
        location = f"{os.path.basename(where.strip())}:{caught.group('line')}" if where else None
        return SignalDeath(caught.group("name"), location, caught.group("message").strip() or None)
    if killed_by is not None:
        return SignalDeath(signal_name(killed_by), None, None)
    return None


# libcob's report of a runtime error that ended the run unit: `libcob: [FILE:LINE: ]error: MESSAGE`.
_RUNTIME_ERROR = re.compile(r"^libcob: (?:[^\n:]+:\d+: )?error: (?P<message>[^\n]*)$", re.M)


def runtime_error(exit_code: int, stderr_text: str) -> str | None:
    """libcob's message when a run unit that exited with ``exit_code`` was ended by a COBOL runtime
    error (a CALL of a missing program, a subscript out of range under -debug …); None for a plain exit."""
    if exit_code <= 0:
        return None
    found = _RUNTIME_ERROR.findall(stderr_text)
    return found[-1].strip() if found else None


def describe_exit(status: int, stderr_text: str) -> str:
    """`status` is a waitpid status; `stderr_text` what libcob printed (its runtime errors)."""
    killed_by = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
    code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else status
    if killed_by == signal.SIGXFSZ:
        return _FLOOD
    death = signal_death(killed_by, code if killed_by is None else None, stderr_text)
    if death is not None:
        number = getattr(signal.Signals, death.signal, None)
        hint = _SIGNAL_HINTS.get(number) if number is not None else None
        sentence = f"the COBOL program was {death.sentence()}"
        if killed_by is not None and death.message is None:
            other = _libcob_message(stderr_text)  # what it said before, if anything
            sentence += f" ({other})" if other else ""
        return f"{sentence} ({hint})" if hint else sentence
    message = _libcob_message(stderr_text)
    missing = _MISSING.search(message)
    if missing:
        return (
            f"CALL {missing.group(1)!r}: no such program, neither in the tool's folder nor a libcob system "
            f"routine (COBOL runtime error: {message})"
        )
    if message:
        return f"COBOL runtime error: {message}"
    return (
        f"the program ended the run unit (STOP RUN, exit status {code}) instead of returning; "
        "a program called as a tool must end with GOBACK"
    )


_MISSING = re.compile(r"module '([^']*)' not found")
_CALLER = "COBOL-MCP-CALLER"  # the server's own COBOL caller (cobol.prepare.driver): not the user's program


def _libcob_message(stderr_text: str) -> str:
    lines = [line.strip() for line in stderr_text.splitlines() if line.strip() and _CALLER not in line]
    return "; ".join(lines[-4:])[:600]


def signal_name(number: int) -> str:
    """SIGSEGV for 11; the number itself for a real-time signal, which has no name of its own."""
    try:
        return signal.Signals(number).name
    except ValueError:
        return str(number)
