"""stderr diagnostics: readable lines by default, one JSON object per line with --log-format json."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from cobol_mcp import log


@pytest.fixture(autouse=True)
def restore():
    yield
    log.set_format("text")
    log.set_level("info")


def test_text_lines_carry_their_fields(capsys):
    log.info("tool call", tool="add", duration_ms=0.25)
    assert capsys.readouterr().err == "cobol-mcp-server: info: tool call tool=add duration_ms=0.25\n"


def test_json_lines_are_objects_with_time_level_event_and_fields(capsys):
    log.set_format("json")
    log.warning("tool call", tool="add", request_id=7, note="caf\u00e9 \udc00")
    (line,) = capsys.readouterr().err.splitlines()
    record = json.loads(line)
    assert record["level"] == "warning" and record["event"] == "tool call"
    assert record["tool"] == "add" and record["request_id"] == 7 and record["note"] == "caf\u00e9 \udc00"
    assert record["time"].endswith("Z") and record["time"][:4].isdigit()


def test_levels_below_the_threshold_are_not_written(capsys):
    log.set_level("warning")
    log.info("quiet")
    assert not log.enabled("info") and log.enabled("error")
    assert capsys.readouterr().err == ""


def test_an_exception_in_json_keeps_its_traceback_in_one_line(capsys):
    log.set_format("json")
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        log.exception("unexpected fault")
    (line,) = capsys.readouterr().err.splitlines()
    record = json.loads(line)
    assert record["event"] == "unexpected fault" and "RuntimeError: boom" in record["traceback"]


def test_an_unknown_format_is_refused():
    with pytest.raises(ValueError, match="log format"):
        log.set_format("xml")


def test_the_server_writes_only_json_to_stderr(tmp_path):
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "cobol_mcp",
            "--log-format",
            "json",
            "--no-bundled",
            "--programs",
            str(tmp_path / "missing"),
        ],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert lines and all(json.loads(line)["level"] for line in lines)
    assert any("not a folder of COBOL programs" in json.loads(line)["event"] for line in lines)


def test_debug_logs_each_tool_call_as_one_json_object(cache_dir):
    """With --log-level debug --log-format json, every call ends with a "tool call" object (over real pipes)."""
    requests = [
        {
            "jsonrpc": "2.0",
            "id": 0,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"},
            },
        },
        {
            "jsonrpc": "2.0",
            "id": "a-1",
            "method": "tools/call",
            "params": {"name": "add", "arguments": {"a": 1, "b": 2}},
        },
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "add", "arguments": {"a": "x", "b": 2}}},
    ]
    done = subprocess.run(
        [sys.executable, "-m", "cobol_mcp", "--log-format", "json", "--log-level", "debug"],
        input="".join(json.dumps(r) + "\n" for r in requests),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0
    records = [json.loads(line) for line in done.stderr.splitlines()]  # every stderr line is one object
    calls = [r for r in records if r["event"] == "tool call"]
    assert sorted((c["tool"], c["outcome"], str(c["request_id"])) for c in calls) == [
        ("add", "error", "2"),
        ("add", "ok", "a-1"),
    ]  # in the order they ended: the bad arguments end at once
    assert all(isinstance(c["duration_ms"], float) and c["duration_ms"] >= 0 for c in calls)
    assert len(done.stdout.splitlines()) == 3


WARN_AND_FAIL = """
import warnings
from cobol_mcp import log
log.set_format("json")
warnings.warn("an old way of doing it", DeprecationWarning, stacklevel=1)
raise RuntimeError("nobody caught this")
"""


def test_in_json_python_warnings_and_uncaught_exceptions_are_json_lines_too():
    done = subprocess.run(
        [sys.executable, "-W", "always", "-c", WARN_AND_FAIL], capture_output=True, text=True, timeout=60
    )
    records = [json.loads(line) for line in done.stderr.splitlines()]  # every line one JSON object
    assert done.returncode == 1
    warning, uncaught = records
    assert warning["level"] == "warning" and warning["event"] == "an old way of doing it"
    assert warning["category"] == "DeprecationWarning"
    assert uncaught["level"] == "critical" and "nobody caught this" in uncaught["event"]
    assert "RuntimeError" in uncaught["traceback"]


def test_logging_records_go_through_the_json_lines(capsys):
    import logging

    handler = log.logging_handler("json")
    logger = logging.getLogger("uvicorn.error.test")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        logger.warning("Invalid HTTP request received %s", "here")
        try:
            raise ValueError("boom")
        except ValueError:
            logger.exception("Exception in ASGI application")
    finally:
        logger.removeHandler(handler)
    first, second = (json.loads(line) for line in capsys.readouterr().err.splitlines())
    assert first == {
        **first,
        "level": "warning",
        "event": "Invalid HTTP request received here",
        "logger": "uvicorn.error.test",
    }
    assert second["level"] == "error" and "ValueError: boom" in second["traceback"]
