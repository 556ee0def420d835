"""Diagnostics to stderr (stdout belongs to the protocol), without the import cost of `logging`."""

from __future__ import annotations

import sys

LEVELS = {"debug": 10, "info": 20, "warning": 30, "error": 40, "critical": 50}
_threshold = LEVELS["info"]


def set_level(name: str) -> None:
    global _threshold
    _threshold = LEVELS[name.lower()]


def _emit(level: str, message: str) -> None:
    if LEVELS[level] >= _threshold:
        try:
            sys.stderr.write(f"cobol-mcp-server: {level}: {message}\n")
            sys.stderr.flush()
        except (OSError, ValueError):
            pass


def debug(message: str) -> None:
    _emit("debug", message)


def info(message: str) -> None:
    _emit("info", message)


def warning(message: str) -> None:
    _emit("warning", message)


def error(message: str) -> None:
    _emit("error", message)


def exception(message: str) -> None:
    """An unexpected fault: the message and the traceback, on stderr only."""
    import traceback

    _emit("error", f"{message}\n{traceback.format_exc().rstrip()}")
