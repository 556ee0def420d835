"""Diagnostics to stderr (stdout belongs to the protocol), without the import cost of `logging`.

Two formats: human-readable lines (the default), or with ``--log-format json`` one JSON object per
line for log shippers: ``{"time", "level", "event", ...fields}`` where fields such as ``tool``,
``duration_ms`` and ``request_id`` are given by the caller. In JSON, Python's warnings and uncaught
exceptions are lines of this module too, and :func:`logging_handler` brings the lines of `logging`
loggers (uvicorn's) here as well: every stderr line is one JSON object.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

LEVELS = {"debug": 10, "info": 20, "warning": 30, "error": 40, "critical": 50}
FORMATS = ("text", "json")
_threshold = LEVELS["info"]
_json = False
_saved: list[Any] = []  # Python's own warning and exception printers, while JSON lines replace them


def set_level(name: str) -> None:
    global _threshold
    _threshold = LEVELS[name.lower()]


def set_format(name: str) -> None:
    global _json
    if name not in FORMATS:
        raise ValueError(f"log format {name!r}: expected one of {', '.join(FORMATS)}")
    _json = name == "json"
    import warnings  # (loaded at interpreter start-up anyway)

    if _json and not _saved:
        _saved.extend((warnings.showwarning, sys.excepthook))
        warnings.showwarning, sys.excepthook = _show_warning, _uncaught
    elif not _json and _saved:
        warnings.showwarning, sys.excepthook = _saved
        _saved.clear()


def enabled(level: str) -> bool:
    """Whether a message at this level would be written (to skip building costly ones)."""
    return LEVELS[level] >= _threshold


def _emit(level: str, message: str, fields: dict[str, Any] | None = None) -> None:
    if LEVELS[level] < _threshold:
        return
    try:
        if _json:
            import json
            import time

            now = time.time()
            stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + f".{int(now % 1 * 1000):03d}Z"
            record = {"time": stamp, "level": level, "event": message, **(fields or {})}
            line = json.dumps(record, ensure_ascii=True, default=str)
        else:
            extra = "".join(f" {key}={value}" for key, value in (fields or {}).items())
            line = f"cobol-mcp-server: {level}: {message}{extra}"
        sys.stderr.write(line + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def emit(level: str, message: str, **fields: Any) -> None:
    """A line at `level` (a name of LEVELS)."""
    _emit(level, message, fields)


def _show_warning(message: Any, category: Any, filename: str, lineno: int, file: Any = None, line: Any = None) -> None:
    _emit("warning", str(message), {"category": category.__name__, "file": filename, "line": lineno})


def _uncaught(kind: Any, value: Any, trace: Any) -> None:
    import traceback

    text = "".join(traceback.format_exception(kind, value, trace)).rstrip()
    _emit("critical", f"uncaught {kind.__name__}: {value}", {"traceback": text})


def logging_handler(log_format: str = "json") -> Any:
    """A `logging` handler writing through this module (for logging.config's ``"()"``): each record one
    line at its level, with its logger's name, and its traceback if it has one. Sets the format, so a
    process that only applies a logging configuration (uvicorn's ``--workers``) writes alike."""
    import logging

    set_format(log_format)

    class Handler(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            number = record.levelno
            level = "debug" if number <= 10 else "info" if number <= 20 else "warning" if number <= 30 else "error"
            if number > 40:
                level = "critical"
            try:
                message = record.getMessage()
            except Exception:  # a bad format string in someone's log call: its text as written
                message = str(record.msg)
            fields: dict[str, Any] = {"logger": record.name}
            if record.exc_info:
                import traceback

                fields["traceback"] = "".join(traceback.format_exception(*record.exc_info)).rstrip()
            _emit(level, message, fields)

    return Handler()


def debug(message: str, **fields: Any) -> None:
    _emit("debug", message, fields)


def info(message: str, **fields: Any) -> None:
    _emit("info", message, fields)


def warning(message: str, **fields: Any) -> None:
    _emit("warning", message, fields)


def error(message: str, **fields: Any) -> None:
    _emit("error", message, fields)


def exception(message: str) -> None:
    """An unexpected fault: the message and the traceback, on stderr only."""
    import traceback

    trace = traceback.format_exc().rstrip()
    if _json:
        _emit("error", message, {"traceback": trace})
    else:
        _emit("error", f"{message}\n{trace}")
