"""/metrics over real HTTP: Prometheus text with calls by tool and outcome, latencies, statuses and the
runtime's counters; behind the same checks as /mcp; absent unless asked for."""

from __future__ import annotations

import re

import pytest

from .conftest import PROGRAMS, HttpServer, McpHttp, hold, modern_post

httpx = pytest.importorskip("httpx")
pytest.importorskip("prometheus_client")


def sample(text: str, name: str, **labels: str) -> float:
    """The value of one sample of the exposition text (0 when absent)."""
    wanted = ",".join(f'{key}="{value}"' for key, value in sorted(labels.items()))
    for line in text.splitlines():
        match = re.fullmatch(r"([a-z_]+)(?:\{(.*)\})? (\S+)", line)
        if match and match[1] == name:
            given = ",".join(sorted((match[2] or "").split(","))) if match[2] else ""
            if given == wanted:
                return float(match[3])
    return 0.0


def test_metrics_count_calls_by_tool_and_outcome_and_statuses(cache_dir):
    with HttpServer("--metrics") as server:
        client = McpHttp(server)
        assert client.call("add", a="1.5", b="2").get("isError", False) is False
        assert client.call("add", a="1.5", b="2").get("isError", False) is False
        assert client.call("add", a="x", b="2")["isError"] is True  # bad arguments: an error result
        for name in ("nope", "also-nope", "and-another"):  # unknown names: one label, not one per name
            assert client.call(name)["isError"] is True
        assert (
            modern_post(
                server,
                "tools/call",
                {"name": "validate_date", "arguments": {"date": "20240229"}},
                headers={"Mcp-Name": "validate_date"},
            ).status_code
            == 200
        )
        assert client.post({"jsonrpc": "2.0", "id": 9, "method": 1}).status_code == 400
        reply = httpx.get(f"{server.base}/metrics", timeout=30)
        assert reply.status_code == 200
        assert reply.headers["content-type"].startswith("text/plain")
        text = reply.text
        assert sample(text, "cobol_mcp_tool_calls_total", tool="add", outcome="ok") == 2
        assert sample(text, "cobol_mcp_tool_calls_total", tool="add", outcome="error") == 1
        assert sample(text, "cobol_mcp_tool_calls_total", tool="(unknown)", outcome="error") == 3
        assert sample(text, "cobol_mcp_tool_calls_total", tool="validate_date", outcome="ok") == 1
        assert "nope" not in text
        assert sample(text, "cobol_mcp_tool_call_seconds_count", tool="add") == 3
        assert sample(text, "cobol_mcp_tool_call_seconds_bucket", tool="add", le="+Inf") == 3
        assert sample(text, "cobol_mcp_http_responses_total", status="400") == 1
        assert sample(text, "cobol_mcp_http_responses_total", status="200") >= 8  # the calls, initialize
        assert sample(text, "cobol_mcp_http_responses_total", status="202") == 1  # notifications/initialized
        assert sample(text, "cobol_mcp_worker_starts_total") >= 1
        assert sample(text, "cobol_mcp_open_sessions") == 1
        client.close()


def test_metrics_count_timeouts_and_replaced_workers(cache_dir, tmp_path):
    with HttpServer("--metrics", "--programs", str(PROGRAMS), "--timeout", "1") as server:
        client = McpHttp(server)
        result = client.call("hold", **hold(tmp_path, "a", wait_seconds=600))  # never released: times out
        assert result["isError"] is True
        text = httpx.get(f"{server.base}/metrics", timeout=30).text
        assert sample(text, "cobol_mcp_worker_timeouts_total") == 1
        assert sample(text, "cobol_mcp_worker_restarts_total") == 1
        assert sample(text, "cobol_mcp_tool_calls_total", tool="hold", outcome="error") == 1
        client.close()


def test_metrics_need_the_token_and_a_local_host(cache_dir):
    token = "s3cret-token-for-metrics-tests"
    with HttpServer("--metrics", "--auth-token", token) as server:
        assert httpx.get(f"{server.base}/metrics", timeout=30).status_code == 401
        wrong = {"authorization": "Bearer wrong"}
        assert httpx.get(f"{server.base}/metrics", headers=wrong, timeout=30).status_code == 401
        assert httpx.get(f"{server.base}/metrics", headers={"host": "evil.example"}, timeout=30).status_code == 421
        good = httpx.get(f"{server.base}/metrics", headers={"authorization": f"Bearer {token}"}, timeout=30)
        assert good.status_code == 200 and "cobol_mcp_tool_calls" in good.text
        assert (
            httpx.post(f"{server.base}/metrics", headers={"authorization": f"Bearer {token}"}, timeout=30).status_code
            == 405
        )


def test_without_the_flag_there_is_no_metrics_endpoint(cache_dir):
    with HttpServer() as server:
        assert httpx.get(f"{server.base}/metrics", timeout=30).status_code == 404
