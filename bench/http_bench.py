#!/usr/bin/env python3
"""Streamable HTTP benchmark: cobol-mcp-server against the official MCP Python SDK, same run.

Both servers run on loopback under uvicorn, stateless, answering with application/json (the SDK's
`stateless_http=True, json_response=True`; ours `--stateless`, which answers JSON whenever the
client accepts it). The load generator is closed-loop: C keep-alive connections over raw asyncio
sockets, each sending its next `tools/call add` as soon as the previous reply is complete, so the
figures measure the servers rather than an HTTP client library. For each concurrency level the
servers take turns: a warm-up, then a measured window (bounded in time and in requests).

Reported per server and level: requests/s, p50/p99/max latency, errors (any status other than 200,
or a reply without the sum 3.30, or a dropped connection), server CPU per request (the process
tree, and its main process alone: ours without its COBOL workers), and RSS (the server process;
ours also with its COBOL worker processes).

    python bench/http_bench.py --rounds 3             # c = 1, 16, 64; 3 s per server, level and round
    python bench/http_bench.py --concurrency 1,8 --seconds 2 --sdk-python /path/to/venv-with-mcp/bin/python
    python bench/http_bench.py --floor                # also a do-nothing uvicorn app: uvicorn's own cost

Needs: a Python with uvicorn for our server (the running one by default), and one with `mcp` 2.x and
uvicorn for the SDK peer (the running one by default, else --sdk-python).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLK_TCK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")
BODY = '{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"add","arguments":{"a":"1.10","b":"2.20"}}}'


# ------------------------------------------------------------------------------------------ servers


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, name: str, cmd: list[str], port: int, env: dict[str, str] | None = None) -> None:
        self.name, self.cmd, self.port = name, cmd, port
        self.proc = subprocess.Popen(
            cmd,
            env={**os.environ, **(env or {})},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )

    def wait_ready(self, path: str, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"{self.name} exited: {self.proc.stderr.read().decode(errors='replace')}")  # type: ignore[union-attr]
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=1):
                    return
            except OSError as exc:  # connection refused until it listens; 4xx/5xx means it is up
                if isinstance(exc, urllib.error.HTTPError):
                    return
            time.sleep(0.1)
        raise SystemExit(f"{self.name} did not start within {timeout:g} s")

    def tree(self) -> list[int]:
        pids, frontier = [self.proc.pid], [self.proc.pid]
        while frontier:
            pid = frontier.pop()
            try:
                with open(f"/proc/{pid}/task/{pid}/children") as f:
                    kids = [int(k) for k in f.read().split()]
            except OSError:
                kids = []
            pids += kids
            frontier += kids
        return pids

    def rss(self) -> tuple[float, float]:
        """(MiB of the main process, MiB of the process tree)."""
        sizes = []
        for pid in self.tree():
            try:
                with open(f"/proc/{pid}/statm") as f:
                    sizes.append(int(f.read().split()[1]) * PAGE / (1 << 20))
            except OSError:
                sizes.append(0.0)
        return sizes[0], sum(sizes)

    def cpu(self) -> float:
        """CPU seconds of the process tree (the server and its COBOL workers)."""
        return sum(self.cpu_split())

    def cpu_split(self) -> tuple[float, float]:
        """(CPU seconds of the main process, of its child processes): the server apart from its workers."""
        times = []
        for pid in self.tree():
            try:
                with open(f"/proc/{pid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                times.append((int(fields[11]) + int(fields[12])) / CLK_TCK)
            except OSError:
                times.append(0.0)
        return times[0], sum(times[1:])

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()


# ------------------------------------------------------------------------------------------ load


class Run:
    """One measured window at one concurrency level against one server."""

    def __init__(self, port: int, concurrency: int, warmup: float, seconds: float, max_requests: int) -> None:
        self.port, self.concurrency = port, concurrency
        self.warmup, self.seconds, self.max_requests = warmup, seconds, max_requests
        self.head = (
            f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
            "Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\n"
        )
        self.next_id = 1
        self.latencies: list[float] = []
        self.errors = 0
        self.error_samples: list[str] = []
        self.measuring = False
        self.stopping = False
        self.started = 0.0
        self.elapsed = 0.0  # the measured window, seconds
        self.cpu = 0.0  # server CPU seconds spent in it (main process and its children)
        self.cpu_main = 0.0  # of which the main process

    def request(self) -> bytes:
        body = BODY % self.next_id
        self.next_id += 1
        return f"{self.head}Content-Length: {len(body)}\r\n\r\n{body}".encode()

    def record(self, latency: float, ok: bool, why: str = "") -> None:
        if not self.measuring:
            return
        if ok:
            self.latencies.append(latency)
        else:
            self.errors += 1
            if len(self.error_samples) < 3:
                self.error_samples.append(why)
        if len(self.latencies) + self.errors >= self.max_requests:
            self.stopping = True

    async def go(self) -> float:
        loop = asyncio.get_running_loop()
        conns = []
        for _ in range(self.concurrency):
            _, conn = await loop.create_connection(lambda: Connection(self), "127.0.0.1", self.port)
            conns.append(conn)
        for conn in conns:
            conn.send()
        await asyncio.sleep(self.warmup)
        self.measuring = True
        self.started = time.perf_counter()
        deadline = self.started + self.seconds
        while not self.stopping and time.perf_counter() < deadline:
            await asyncio.sleep(0.01)
        self.stopping = True
        elapsed = time.perf_counter() - self.started
        self.measuring = False
        await asyncio.gather(*(conn.idle for conn in conns))
        for conn in conns:
            conn.transport.close()
        return elapsed


class Connection(asyncio.Protocol):
    def __init__(self, run: Run) -> None:
        self.run = run
        self.buf = bytearray()
        self.sent_at = 0.0
        self.busy = False
        self.idle: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        transport.get_extra_info("socket").setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def send(self) -> None:
        if self.run.stopping:
            self.busy = False
            if not self.idle.done():
                self.idle.set_result(None)
            return
        self.busy = True
        self.sent_at = time.perf_counter()
        self.transport.write(self.run.request())  # type: ignore[attr-defined]

    def data_received(self, data: bytes) -> None:
        self.buf += data
        while True:
            parsed = parse_response(self.buf)
            if parsed is None:
                return
            status, body, used = parsed
            del self.buf[:used]
            latency = time.perf_counter() - self.sent_at
            ok = status == 200 and b'"3.30"' in body and b'"isError":true' not in body
            self.run.record(latency, ok, f"HTTP {status}: {body[:200]!r}")
            self.send()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.busy and not self.run.stopping:
            self.run.record(0.0, False, f"connection lost: {exc}")
        if not self.idle.done():
            self.idle.set_result(None)


def parse_response(buf: bytearray) -> tuple[int, bytes, int] | None:
    """(status, body, bytes used) of the first complete response in buf, else None."""
    end = buf.find(b"\r\n\r\n")
    if end < 0:
        return None
    head = bytes(buf[:end]).lower()
    status = int(head[9:12])
    start = end + 4
    at = head.find(b"\r\ncontent-length:")
    if at >= 0:
        stop = head.find(b"\r\n", at + 2)
        length = int(head[at + 17 : stop if stop >= 0 else len(head)])
        if len(buf) < start + length:
            return None
        return status, bytes(buf[start : start + length]), start + length
    if b"transfer-encoding: chunked" in head:
        body, pos = bytearray(), start
        while True:
            line_end = buf.find(b"\r\n", pos)
            if line_end < 0:
                return None
            size = int(bytes(buf[pos:line_end]).split(b";")[0], 16)
            if size == 0:
                if len(buf) < line_end + 4:
                    return None
                return status, bytes(body), line_end + 4
            if len(buf) < line_end + 2 + size + 2:
                return None
            body += buf[line_end + 2 : line_end + 2 + size]
            pos = line_end + 2 + size + 2
    return status, b"", start


# ------------------------------------------------------------------------------------------ report


def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def measure(server: Server, concurrency: int, args: argparse.Namespace) -> Run:
    run = Run(server.port, concurrency, args.warmup, args.seconds, args.max_requests)
    main_before, children_before = server.cpu_split()
    run.elapsed = asyncio.run(run.go())
    main_after, children_after = server.cpu_split()
    run.cpu_main = main_after - main_before
    run.cpu = run.cpu_main + children_after - children_before
    return run


def summary(server: Server, concurrency: int, runs: list[Run]) -> dict[str, object]:
    """One line of the report: the rounds of one server at one level, pooled."""
    lat = sorted(t for run in runs for t in run.latencies)
    errors = sum(run.errors for run in runs)
    elapsed = sum(run.elapsed for run in runs)
    cpu = sum(run.cpu for run in runs)
    cpu_main = sum(run.cpu_main for run in runs)
    done = len(lat)
    rss_main, rss_tree = server.rss()
    return {
        "server": server.name,
        "concurrency": concurrency,
        "rounds": len(runs),
        "requests": done,
        "errors": errors,
        "seconds": round(elapsed, 3),
        "rps": round(done / elapsed, 1) if elapsed else 0.0,
        "p50_ms": round(percentile(lat, 0.50) * 1e3, 3),
        "p99_ms": round(percentile(lat, 0.99) * 1e3, 3),
        "max_ms": round(lat[-1] * 1e3, 3) if lat else float("nan"),
        "cpu_us_per_request": round(cpu / max(1, done + errors) * 1e6, 1),
        "main_cpu_us_per_request": round(cpu_main / max(1, done + errors) * 1e6, 1),
        "rss_mib": round(rss_main, 1),
        "rss_tree_mib": round(rss_tree, 1),
        "error_samples": [sample for run in runs for sample in run.error_samples][:3],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--concurrency", default="1,16,64", help="comma-separated levels (default 1,16,64)")
    parser.add_argument("--seconds", type=float, default=3.0, help="measured window per level and server")
    parser.add_argument("--warmup", type=float, default=0.5, help="unmeasured warm-up before each window")
    parser.add_argument("--max-requests", type=int, default=50_000, help="most requests measured per window")
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="windows per server and level, the servers taking turns (pooled in the report)",
    )
    parser.add_argument("--ours-python", default=sys.executable, help="Python for cobol-mcp-server (needs uvicorn)")
    parser.add_argument("--sdk-python", default=sys.executable, help="Python with mcp 2.x and uvicorn")
    parser.add_argument("--cobol-workers", type=int, default=None, help="our --workers (COBOL processes)")
    parser.add_argument("--only", choices=("ours", "sdk"), default=None, help="benchmark one server only")
    parser.add_argument(
        "--floor",
        action="store_true",
        help="also run a do-nothing uvicorn app (bench/peers/uvicorn_floor.py): uvicorn's own cost",
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON too")
    args = parser.parse_args()
    levels = [int(c) for c in args.concurrency.split(",")]

    servers: list[Server] = []
    results: list[dict[str, object]] = []
    try:
        if args.only != "sdk":
            port = free_port()
            cmd = [
                args.ours_python,
                "-m",
                "cobol_mcp",
                "--transport",
                "http",
                "--stateless",
                "--port",
                str(port),
                "--log-level",
                "warning",
            ]
            if args.cobol_workers:
                cmd += ["--workers", str(args.cobol_workers)]
            env = {"PYTHONPATH": os.path.join(ROOT, "src") + os.pathsep + os.environ.get("PYTHONPATH", "")}
            servers.append(Server("cobol-mcp-server", cmd, port, env))
        if args.only != "ours":
            port = free_port()
            cmd = [
                args.sdk_python,
                os.path.join(ROOT, "bench", "peers", "sdk_http_server.py"),
                "--port",
                str(port),
                "--stateless",
                "--json",
            ]
            servers.append(Server("mcp-sdk", cmd, port))
        if args.floor:
            port = free_port()
            cmd = [args.ours_python, os.path.join(ROOT, "bench", "peers", "uvicorn_floor.py"), "--port", str(port)]
            servers.append(Server("uvicorn floor", cmd, port))
        for server in servers:
            server.wait_ready("/healthz" if server.name == "cobol-mcp-server" else "/mcp")
        for name, python in (("cobol-mcp-server", args.ours_python), ("mcp-sdk", args.sdk_python)):
            if args.only in (None, "ours" if name == "cobol-mcp-server" else "sdk"):
                print(f"{name}: {accelerators(python)}", file=sys.stderr)
        print(
            f"loopback, {os.cpu_count()} CPUs; both stateless with JSON replies; {args.rounds} round(s) of "
            f"{args.seconds:g} s (at most {args.max_requests} requests) per server and level, each after "
            f"{args.warmup:g} s warm-up",
            file=sys.stderr,
        )
        for concurrency in levels:
            runs: dict[str, list[Run]] = {server.name: [] for server in servers}
            for _ in range(args.rounds):
                for server in servers:
                    run = measure(server, concurrency, args)
                    runs[server.name].append(run)
                    print(
                        f"  c={concurrency:<3} {server.name:<17} {len(run.latencies) / run.elapsed:>9.1f} req/s  "
                        f"errors {run.errors}",
                        file=sys.stderr,
                    )
            results += [summary(server, concurrency, runs[server.name]) for server in servers]
        report(results, levels)
        if args.json:
            print(json.dumps(results, indent=2))
    finally:
        for server in servers:
            server.stop()
    return 1 if any(r["errors"] for r in results) else 0


def accelerators(python: str) -> str:
    """Which HTTP parser and event loop uvicorn picks in that Python."""
    probe = (
        "import importlib.util as u, uvicorn; print(uvicorn.__version__, "
        "'httptools' if u.find_spec('httptools') else 'h11', 'uvloop' if u.find_spec('uvloop') else 'asyncio')"
    )
    done = subprocess.run([python, "-c", probe], capture_output=True, text=True)
    version, http, loop = [*done.stdout.split(), "?", "?", "?"][:3]
    return f"uvicorn {version}, {http}, {loop} ({python})"


def report(results: list[dict[str, object]], levels: list[int]) -> None:
    print()
    print(
        f"{'server':<17} {'c':>3} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'errors':>6} "
        f"{'CPU us/req':>10} {'main':>6} {'RSS MiB':>8} {'+workers':>8}"
    )
    for r in results:
        print(
            f"{r['server']:<17} {r['concurrency']:>3} {r['rps']:>9.1f} {r['p50_ms']:>8.3f} {r['p99_ms']:>8.3f} "
            f"{r['max_ms']:>8.3f} {r['errors']:>6} {r['cpu_us_per_request']:>10.1f} "
            f"{r['main_cpu_us_per_request']:>6.1f} {r['rss_mib']:>8.1f} {r['rss_tree_mib']:>8.1f}"
        )
    names = list(dict.fromkeys(str(r["server"]) for r in results))
    if len(names) >= 2:
        print()
        for level in levels:
            a, *others = (next(r for r in results if r["server"] == n and r["concurrency"] == level) for n in names)
            for b in others:
                ratio = float(a["rps"]) / float(b["rps"]) if float(b["rps"]) else float("inf")  # type: ignore[arg-type]
                print(f"c={level}: {names[0]} serves {ratio:.2f}x the requests/s of {b['server']}")
    for r in results:
        for sample in r["error_samples"]:  # type: ignore[attr-defined]
            print(f"error sample ({r['server']}, c={r['concurrency']}): {sample}")


if __name__ == "__main__":
    sys.exit(main())
