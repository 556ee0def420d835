"""A batch program whose run unit dies by a signal: the result names the signal (and, where libcob
caught it, the place and libcob's words) and hands back what the program wrote before it died, its
DISPLAY output and its report file as it was left, marked partial. Served over stdio and called."""

from pathlib import Path

import pytest

from .stdio_client import StdioClient

BATCH = Path(__file__).resolve().parent.parent / "cobol" / "faults" / "batch"


@pytest.fixture(scope="module")
def served(cache_dir, tmp_path_factory):
    data = tmp_path_factory.mktemp("nightly-data")
    with StdioClient("--programs", str(BATCH), "--no-bundled", "--data-dir", str(data), "--timeout", "60") as client:
        client.initialize()
        yield client, data


def texts(result):
    return [block["text"] for block in result["content"]]


def test_a_segfault_is_named_with_libcobs_place_and_words_and_the_partial_report_comes_back(served):
    client, data = served
    result = client.call("nightrpt", args=["SEGV"])
    assert result["isError"] is True
    first = texts(result)[0]
    assert "NIGHTRPT was killed by SIGSEGV at NIGHTRPT.cbl:58: attempt to reference unallocated memory" in first
    assert "RETURN-CODE" not in first and "partial" in first
    structured = result["structuredContent"]
    assert structured["signal"] == "SIGSEGV" and structured["location"] == "NIGHTRPT.cbl:58"
    assert structured["partial"] is True
    progress = "NIGHTRPT WROTE LINE 01\nNIGHTRPT WROTE LINE 02\nNIGHTRPT WROTE LINE 03\n"
    assert structured["stdout"] == progress
    assert f"DISPLAY output (partial):\n{progress}" in texts(result)
    report = "ACCT01      1,250.50\nACCT02      2,501.00\nACCT03      3,751.50\n"
    assert [line.rstrip() for line in structured["files"]["NIGHTOUT"].splitlines()] == report.splitlines()
    assert (data / "NIGHTOUT").read_text() == structured["files"]["NIGHTOUT"]  # the file as it was left
    assert any(t.startswith("file NIGHTOUT as it was left (partial):\nACCT01") for t in texts(result))


def test_an_uncaught_signal_is_named_though_libcob_says_nothing(served):
    client, _ = served
    for mode, name in (("KILL", "SIGKILL"), ("ABRT", "SIGABRT")):
        result = client.call("nightrpt", args=[mode])
        assert result["isError"] is True
        assert f"NIGHTRPT was killed by {name}." in texts(result)[0]
        structured = result["structuredContent"]
        assert structured["signal"] == name and "location" not in structured and structured["partial"] is True
        assert "NIGHTOUT" in structured["files"]  # opened, never flushed: empty, as the program left it


def test_return_code_11_without_a_signal_is_still_a_return_code(served):
    client, _ = served
    result = client.call("nightrpt", args=["RC11"])
    assert result["isError"] is True
    assert texts(result)[0].startswith("COBOL program NIGHTRPT ended with RETURN-CODE 11")
    assert "signal" not in result["structuredContent"]
    assert result["structuredContent"]["stdout"].endswith("NIGHTRPT DONE 04 LINES\n")


def test_a_normal_run_is_whole(served):
    client, data = served
    result = client.call("nightrpt", args=["OK"])
    assert not result.get("isError")
    assert "partial" not in result["structuredContent"]
    assert len((data / "NIGHTOUT").read_text().splitlines()) == 4
