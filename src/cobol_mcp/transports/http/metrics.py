"""Prometheus metrics for ``/metrics``, with the official client library (loaded only for HTTP).

Served at ``/metrics`` with ``--metrics``, behind the same Host, Origin and token checks as ``/mcp``.
Per call: a counter by tool and outcome and a latency histogram by tool (a name the catalog does not
know is counted as ``(unknown)``, so clients cannot grow the label set). Per response: a counter by
HTTP status. Read at scrape time, at no cost per call: COBOL worker starts, deaths and timeouts,
calls waiting for a worker, open sessions and GET streams. Each server process has its own registry: with
``--workers N`` a scrape sees the process that accepted it (run replicas on their own ports, as
``deploy/`` does, to scrape each).
"""

from __future__ import annotations

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

from ...protocol.jsonrpc import INVALID_REQUEST
from .wire import JSON_HEADERS, error_body, send_bytes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import Any

    from prometheus_client.metrics_core import Metric

    from ...cobol.runtime.pool import Runtime
    from .wire import Headers, Send

__all__ = ["CONTENT_TYPE", "Metrics"]

CONTENT_TYPE = CONTENT_TYPE_LATEST
LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)


class Metrics:
    def __init__(
        self, runtime: Callable[[], Runtime | None], sessions: Callable[[], int], streams: Callable[[], int]
    ) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.calls = Counter(
            "cobol_mcp_tool_calls",
            "Tool calls by tool and outcome (ok, error, cancelled, busy, fault)",
            ["tool", "outcome"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "cobol_mcp_tool_call_seconds",
            "Tool call latency, arguments in to result out",
            ["tool"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.responses = Counter(
            "cobol_mcp_http_responses", "HTTP responses by status code", ["status"], registry=self.registry
        )
        self.registry.register(_Live(runtime, sessions, streams))

    def call_done(self, tool: str, outcome: str, seconds: float) -> None:
        self.calls.labels(tool, outcome).inc()
        self.latency.labels(tool).observe(seconds)

    def render(self) -> bytes:
        return generate_latest(self.registry)

    def counted(self, send: Send) -> Send:
        """`send`, counting each response's status."""
        responses = self.responses

        async def counted(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                responses.labels(str(message["status"])).inc()
            await send(message)

        return counted

    async def serve(self, method: str, rejected: tuple[int, str, Headers] | None, send: Send) -> None:
        """GET /metrics, `rejected` by the Host, Origin and token checks or not."""
        if rejected is not None:
            status, text, extra = rejected
            await send_bytes(send, status, error_body(INVALID_REQUEST, text), JSON_HEADERS + extra)
        elif method not in ("GET", "HEAD"):
            await send_bytes(send, 405, b"", [(b"allow", b"GET, HEAD")])
        else:
            await send_bytes(send, 200, self.render(), [(b"content-type", CONTENT_TYPE.encode())])


class _Live(Collector):
    """What the runtime and the session table know, read when scraped."""

    def __init__(
        self, runtime: Callable[[], Runtime | None], sessions: Callable[[], int], streams: Callable[[], int]
    ) -> None:
        self.runtime, self.sessions, self.streams = runtime, sessions, streams

    def collect(self) -> Iterator[Metric]:
        runtime = self.runtime()
        stats = runtime.stats if runtime is not None else {}
        yield CounterMetricFamily(
            "cobol_mcp_worker_starts", "COBOL worker processes started", value=stats.get("started", 0)
        )
        yield CounterMetricFamily(
            "cobol_mcp_worker_restarts",
            "COBOL workers replaced after a crash, a STOP RUN, a timeout or a cancelled call",
            value=stats.get("died", 0),
        )
        yield CounterMetricFamily(
            "cobol_mcp_worker_timeouts", "Calls that ran past their time limit", value=stats.get("timeouts", 0)
        )
        yield GaugeMetricFamily(
            "cobol_mcp_queued_calls",
            "Calls waiting for a COBOL worker",
            value=runtime.waiting if runtime is not None else 0,
        )
        yield GaugeMetricFamily("cobol_mcp_open_sessions", "Open MCP sessions (2025-11-25 era)", value=self.sessions())
        yield GaugeMetricFamily(
            "cobol_mcp_open_streams", "Open GET streams of sessions (with --watch)", value=self.streams()
        )
