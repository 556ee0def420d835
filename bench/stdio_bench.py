#!/usr/bin/env python3
"""Benchmark MCP servers over stdio, side by side in one run (standard library only).

    python3 bench/stdio_bench.py                       # ours (./run.sh) vs the plain-Python and hop floors
    python3 bench/stdio_bench.py --peer 'sdk=/path/python peer_server.py' --rounds 3

For each server, interleaved round by round so machine noise hits all alike:
  cold start   spawn -> initialize reply (median of K fresh processes)
  call p50     sequential `tools/call add` round trips (microseconds)
  pipelined    M calls written without waiting; every reply checked; calls/s
  RSS          resident memory of the server's process tree after the run (MB)
The floor is `bench/peers/floor.py`: a minimal stdlib server doing the same Decimal addition. The hop
floor (`bench/peers/hop_floor.py`) is that floor plus a round trip per call through a child process that
runs nothing: what keeping the tool's code out of the server's process costs by itself.
Figures are medians over rounds; quote ratios, the machine is noisy.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
INIT = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}},
}


def line(message: dict) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


def call(i: int) -> bytes:
    return line(
        {
            "jsonrpc": "2.0",
            "id": i,
            "method": "tools/call",
            "params": {"name": "add", "arguments": {"a": "1.10", "b": "2.20"}},
        }
    )


class Server:
    def __init__(self, command: list[str]) -> None:
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

    def send(self, data: bytes) -> None:
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def read(self) -> bytes:
        return self.proc.stdout.readline()

    def rss_mb(self) -> float:
        total, todo = 0, [self.proc.pid]
        while todo:
            pid = todo.pop()
            try:
                with open(f"/proc/{pid}/status") as handle:
                    total += next(int(x.split()[1]) for x in handle if x.startswith("VmRSS:"))
                with open(f"/proc/{pid}/task/{pid}/children") as handle:
                    todo += [int(x) for x in handle.read().split()]
            except (OSError, StopIteration):
                pass
        return total / 1024

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.stdout.read()
        self.proc.wait(30)


def cold_start(command: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        server = Server(command)
        server.send(line(INIT))
        server.read()
        times.append((time.perf_counter() - started) * 1000)
        server.close()
    return statistics.median(times)


def measure(command: list[str], calls: int, pipelined: int, cold_runs: int) -> dict[str, float]:
    result = {"cold_ms": cold_start(command, cold_runs)}
    server = Server(command)
    server.send(line(INIT))
    server.read()
    server.send(line({"jsonrpc": "2.0", "method": "notifications/initialized"}))
    for i in range(200):  # warm-up
        server.send(call(i))
        server.read()
    samples = []
    for i in range(calls):
        started = time.perf_counter()
        server.send(call(i))
        reply = server.read()
        samples.append((time.perf_counter() - started) * 1e6)
        if b'"3.30"' not in reply:
            raise RuntimeError(f"wrong reply: {reply[:200]!r}")
    result["call_p50_us"] = statistics.median(samples)
    payload = b"".join(call(i) for i in range(pipelined))
    writer = threading.Thread(target=server.send, args=(payload,))
    started = time.perf_counter()
    writer.start()
    seen = set()
    for _ in range(pipelined):
        reply = json.loads(server.read())
        if reply["result"]["content"][0]["text"] != "3.30":
            raise RuntimeError(f"wrong reply: {reply}")
        seen.add(reply["id"])
    result["pipelined_per_s"] = pipelined / (time.perf_counter() - started)
    writer.join()
    if len(seen) != pipelined:
        raise RuntimeError(f"{pipelined - len(seen)} replies missing or duplicated")
    result["rss_mb"] = server.rss_mb()
    server.close()
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", default=os.path.join(ROOT, "run.sh"), help="our server's command")
    parser.add_argument("--peer", action="append", default=[], metavar="NAME=COMMAND")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--pipelined", type=int, default=20000)
    parser.add_argument("--cold", type=int, default=10)
    args = parser.parse_args()
    servers = {
        "cobol-mcp-server": shlex.split(args.server),
        "plain-python floor": [sys.executable, os.path.join(HERE, "peers", "floor.py")],
        "hop floor": [sys.executable, os.path.join(HERE, "peers", "hop_floor.py")],
    }
    for spec in args.peer:
        name, _, command = spec.partition("=")
        servers[name] = shlex.split(command)
    results: dict[str, list[dict[str, float]]] = {name: [] for name in servers}
    for round_number in range(args.rounds):
        order = list(servers)[round_number % len(servers) :] + list(servers)[: round_number % len(servers)]
        for name in order:
            results[name].append(measure(servers[name], args.calls, args.pipelined, args.cold))
            print(f"round {round_number + 1}: {name} done", file=sys.stderr)
    keys = [
        ("cold_ms", "cold start ms"),
        ("call_p50_us", "call p50 us"),
        ("pipelined_per_s", "pipelined calls/s"),
        ("rss_mb", "RSS MB"),
    ]
    ours = next(iter(servers))
    print(f"| server | {' | '.join(label for _, label in keys)} |")
    print(f"|---|{'---|' * len(keys)}")
    medians = {name: {k: statistics.median(r[k] for r in runs) for k, _ in keys} for name, runs in results.items()}
    for name, figures in medians.items():
        cells = []
        for key, _ in keys:
            value = figures[key]
            ratio = "" if name == ours else f" ({value / medians[ours][key]:.2f}x ours)"
            cells.append(f"{value:,.1f}{ratio}" if value < 1000 else f"{value:,.0f}{ratio}")
        print(f"| {name} | {' | '.join(cells)} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
