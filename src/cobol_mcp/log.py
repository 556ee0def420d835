"""Diagnostics to stderr (stdout belongs to the protocol), without the import cost of `logging`.

Two formats: human-readable lines (the default), or with ``--log-format json`` one JSON object per
line for log shippers: ``{"time", "level", "event", ...fields}`` where fields such as ``tool``,
``duration_ms`` and ``request_id`` are given by the caller.
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


def set_level(name: str) -> None:
    global _threshold
    _threshold = LEVELS[name.lower()]


def set_format(name: str) -> None:
    global _json
    if name not in FORMATS:
        raise ValueError(f"log format {name!r}: expected one of {', '.join(FORMATS)}")
    _json = name == "json"


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
