"""Turn the way a COBOL worker died into a sentence that tells the caller what went wrong."""

from __future__ import annotations

import os
import re
import signal

_SIGNAL_HINTS: dict[int, str] = {
    signal.SIGSEGV: "invalid memory access (SIGSEGV): a bad CALL, a subscript or pointer out of range",
    signal.SIGBUS: "invalid memory access (SIGBUS)",
    signal.SIGFPE: "arithmetic fault (SIGFPE)",
    signal.SIGABRT: "the program aborted (SIGABRT)",
    signal.SIGXFSZ: "the program wrote more than 64 MiB of output (DISPLAY flood) and was stopped",
    signal.SIGKILL: "the COBOL worker was killed (SIGKILL), possibly for lack of memory",
}


def describe_exit(status: int, stderr_text: str) -> str:
    """`status` is a waitpid status; `stderr_text` what libcob printed (its runtime errors)."""
    message = _libcob_message(stderr_text)
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        hint = _SIGNAL_HINTS.get(number) or f"the COBOL worker died from signal {_signal_name(number)}"
        return f"{hint}: {message}" if message else hint
    code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else status
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
_CALLER = "COBOL-MCP-CALLER"  # the server's own COBOL caller (cobol.build.driver): not the user's program


def _libcob_message(stderr_text: str) -> str:
    lines = [line.strip() for line in stderr_text.splitlines() if line.strip() and _CALLER not in line]
    return "; ".join(lines[-4:])[:600]


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:  # a real-time signal has no name of its own
        return str(number)
